/* SPDX-License-Identifier: MPL-2.0 */
/* The parallel rule: the selected two-ended branches (LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE)
 * grouped by the places of their ends, each group's pairs written in the documented order
 * (ctg/generate.h). No object is read but those of the groups: a branch's voltage levels and
 * their substations come from the table's compact scan data (network/scan_data.h) as small
 * integers, so that a branch's key is two reads of a sequential array and two of the voltage
 * levels' 16-byte records: no pointer chase, no string and no allocation per branch. The
 * branches are then grouped in linear time: a counting sort on the lower place of their key,
 * then, for each lower place, a table indexed by the higher one that links the branches of
 * each pair of places in selection order (a radix sort of 64-bit keys, then a sort of the
 * groups by their first branch, took most of a run on 50,000 branches).
 *
 * Places are numbered from 0: a substation by its type_index, a voltage level without one by
 * the substations' count plus its own type_index. When both ends are in one place (a
 * transformer), the key is its two voltage levels, numbered the same way: a level with a
 * substation is never a place, so that these numbers meet no place's, and the key is one-to-one
 * with what the rule compares. Memory: 9 bytes per candidate kept for the emission, 12 more and
 * 20 per place while grouping; nothing per pair. */

#include <string.h>

#include "base/alloc.h"
#include "network/generate_int.h"
#include "network/table.h"

#define NONE UINT32_MAX

static bool is_parallel_type(ctg_identifiable_type t)
{
    return t == CTG_IDENTIFIABLE_LINE || t == CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER ||
           t == CTG_IDENTIFIABLE_TIE_LINE;
}

/* What the grouping links per higher place: the group of (stamp, this place) met last. */
typedef struct par_slot {
    uint32_t stamp; /* the lower place of the group, NONE before the first */
    uint32_t head, tail, size;
} par_slot;

/* The grouping's state, in one scratch allocation released when the groups are found. */
typedef struct keys {
    gen_par *p;
    const ctg_net_vl_scan *vls;
    uint32_t subs, places;
    const uint32_t *levels; /* of the type being read, `stride` per object */
    size_t stride;
    par_slot *slots;   /* per place */
    uint32_t *count;   /* per place: the candidates whose lower place it is */
    uint32_t *lo, *hi; /* per candidate: its key */
    uint32_t *order;   /* the candidates sorted by lower place */
    void *block;
    size_t block_size;
} keys;

static uint32_t place_of(const keys *k, uint32_t vl)
{
    uint32_t s = k->vls[vl].substation;

    return s != CTG_NET_SCAN_NONE ? s : k->subs + vl;
}

/* Adds the branch of type_index `i` of the type being read, when both its ends are in a
 * voltage level, as candidate `c`; false when it is not one. (next and lead are set for
 * every candidate at once by reserve.) */
static inline bool add_at(const keys *k, const uint32_t *lv, uint32_t i, size_t c)
{
    uint32_t v1 = lv[0], v2 = lv[1], a, b;

    if (v1 == CTG_NET_SCAN_NONE || v2 == CTG_NET_SCAN_NONE)
        return false;
    a = place_of(k, v1);
    b = place_of(k, v2);
    if (a == b) {
        a = k->subs + v1;
        b = k->subs + v2;
    }
    k->lo[c] = a < b ? a : b;
    k->hi[c] = a < b ? b : a;
    k->count[a < b ? a : b]++;
    k->p->tix[c] = i;
    return true;
}

static void add(keys *k, uint32_t i)
{
    gen_par *p = k->p;

    p->n += add_at(k, k->levels + (size_t)i * k->stride, i, p->n);
}

/* Every branch of the type being read, `n` of them: add's loop with the count kept local,
 * which a store through the candidates' arrays would make the compiler reload each time. */
static void add_all(keys *k, size_t n)
{
    const uint32_t *lv = k->levels;
    size_t c = k->p->n;

    for (size_t i = 0; i < n; i++, lv += k->stride)
        c += add_at(k, lv, (uint32_t)i, c);
    k->p->n = c;
}

static int add_one(gen_ctx *g, const ctg_net_object *obj, size_t index, void *arg)
{
    (void)g;
    (void)index;
    add(arg, obj->type_index);
    return CTG_OK;
}

/* Another selected type takes no part; its objects are still checked, as the pair rules
 * check every selected object (an HVDC converter station without line fails). */
static int check_one(gen_ctx *g, const ctg_net_object *obj, size_t index, void *arg)
{
    ctg_element e;

    (void)index;
    (void)arg;
    return ctg_rs_map(&g->rs, obj, &e);
}

static int other_type(gen_ctx *g, size_t t, uint64_t *sel)
{
    size_t index = 0;
    int rc = ctg_gen_select_type(g, t, check_one, NULL, &index);

    *sel = index;
    return rc;
}

/* The candidates of g->types[t], a branch type; *sel its selected objects. A whole type is
 * read from the scan data alone, without visiting its objects. */
static int branch_type(gen_ctx *g, keys *k, size_t t, uint64_t *sel)
{
    ctg_identifiable_type type = g->types[t].type;
    size_t n = ctg_network_count(g->net, type), index = 0;
    int rc = CTG_OK;

    k->levels = ctg_net_scan_levels(g->net, type, &k->stride);
    if (k->levels == NULL || k->vls == NULL) /* no object, or none with an end */
        return other_type(g, t, sel);
    if (ctg_gen_takes_all(g, t)) {
        add_all(k, n);
        index = n;
    } else {
        rc = ctg_gen_select_type(g, t, add_one, k, &index);
    }
    *sel = index;
    return rc;
}

/* Room for `cap` candidates: the kept arrays in p->block, the scratch ones and the places'
 * in k->block. CTG_ENOMEM (then p->block may be set, released with p). */
static int reserve(gen_ctx *g, gen_par *p, keys *k, size_t cap)
{
    size_t places = k->places;
    char *b;

    if (cap > SIZE_MAX / 32 || places > SIZE_MAX / 32 - cap)
        return ctg_rs_nomem(&g->rs);
    p->cap = cap;
    p->block_size = cap * (2 * sizeof(uint32_t) + 1);
    p->block = b = ctg_mem_alloc(g->alloc, p->block_size);
    if (b == NULL)
        return ctg_rs_nomem(&g->rs);
    p->tix = (uint32_t *)b;
    p->next = p->tix + cap;
    p->lead = (uint8_t *)(p->next + cap);
    k->block_size = places * (sizeof *k->slots + sizeof *k->count) + cap * 3 * sizeof(uint32_t);
    k->block = b = ctg_mem_alloc(g->alloc, k->block_size);
    if (b == NULL)
        return ctg_rs_nomem(&g->rs);
    k->slots = (par_slot *)b;
    k->count = (uint32_t *)(k->slots + places);
    k->lo = k->count + places;
    k->hi = k->lo + cap;
    k->order = k->hi + cap;
    memset(p->next, 0xff, cap * sizeof *p->next); /* every candidate alone, no lead */
    memset(p->lead, 0, cap);
    memset(k->slots, 0xff, places * sizeof *k->slots); /* every stamp NONE */
    memset(k->count, 0, places * sizeof *k->count);
    return CTG_OK;
}

/* The counting sort by lower place (stable: each place's candidates stay in selection order),
 * then every candidate linked into its group, the slot of its higher place: a group's members
 * in selection order, its lead the first. The loop keeps its counts and arrays in locals, as
 * the byte stores into `lead` would make the compiler reload them through p and k. */
static void group(gen_par *p, keys *k)
{
    const uint32_t *lo = k->lo, *hi = k->hi;
    uint32_t *order = k->order, *count = k->count, *next = p->next, sum = 0;
    uint8_t *lead = p->lead;
    par_slot *slots = k->slots;
    uint64_t pairs = 0, groups = 0;
    size_t n = p->n;

    for (uint32_t a = 0; a < k->places; a++) {
        uint32_t m = count[a];

        count[a] = sum;
        sum += m;
    }
    for (size_t c = 0; c < n; c++)
        order[count[lo[c]]++] = (uint32_t)c;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = order[i];
        par_slot *s = &slots[hi[c]];

        if (s->stamp != lo[c]) {
            *s = (par_slot){ lo[c], c, c, 1 };
            continue;
        }
        next[s->tail] = c;
        s->tail = c;
        pairs += s->size;
        if (s->size++ == 1) {
            lead[s->head] = 1;
            groups++;
        }
    }
    p->pairs = pairs;
    p->groups = groups;
}

/* The candidates of the selection, type after type, into p and k. */
static int candidates(gen_ctx *g, gen_par *p, keys *k, uint64_t *selected)
{
    int rc = CTG_OK;

    for (size_t t = 0; rc == CTG_OK && t < g->type_count; t++) {
        ctg_identifiable_type type = g->types[t].type;
        uint64_t n = 0;

        if (is_parallel_type(type)) {
            rc = branch_type(g, k, t, &n);
            p->seg_type[p->segs] = type;
            p->seg_end[p->segs++] = p->n;
        } else {
            rc = other_type(g, t, &n);
        }
        if (selected != NULL)
            selected[type] += n;
    }
    return rc;
}

int ctg_gen_parallel_find(gen_ctx *g, gen_par *p, uint64_t *selected)
{
    keys k;
    size_t cap = 0;
    int rc = CTG_OK;

    memset(p, 0, sizeof *p);
    memset(&k, 0, sizeof k);
    k.p = p;
    k.vls = ctg_net_scan_voltage_levels(g->net);
    k.subs = (uint32_t)ctg_network_count(g->net, CTG_IDENTIFIABLE_SUBSTATION);
    k.places = k.subs + (uint32_t)ctg_network_count(g->net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL);
    for (size_t t = 0; t < g->type_count; t++)
        if (is_parallel_type(g->types[t].type))
            cap += ctg_network_count(g->net, g->types[t].type);
    if (cap > 0 && k.places > 0)
        rc = reserve(g, p, &k, cap);
    else
        k.vls = NULL; /* no candidate: the branch types are only counted */
    if (rc == CTG_OK)
        rc = candidates(g, p, &k, selected);
    if (rc == CTG_OK && p->n > 0)
        group(p, &k);
    ctg_mem_release(g->alloc, k.block, k.block_size);
    return rc;
}

/* The object of candidate `c`. */
static const ctg_net_object *member(const gen_ctx *g, const gen_par *p, uint32_t c)
{
    size_t s = 0;

    while (c >= p->seg_end[s])
        s++;
    return ctg_network_object_at(g->net, p->seg_type[s], p->tix[c]);
}

/* The emission reads the objects of the groups and their ids, scattered over the network's
 * memory: two cache misses per member, waited for one after the other, took most of a run.
 * The groups are emitted in batches of up to BATCH members, in a pipeline of two: a batch's
 * objects are prefetched as its groups are added, their ids when it is full, and its pairs
 * are written once the next batch is full, so that the misses of a batch overlap each other
 * and the writing of the batch before. Each member's element and id length are found once,
 * not once per pair. A larger group is emitted alone (after the batches), read without
 * prefetching. */
#define BATCH 32

typedef struct par_batch {
    const ctg_net_object *objs[BATCH];
    gen_member mems[BATCH];
    uint32_t ends[BATCH]; /* where each group of the batch ends in objs */
    size_t n, groups;
} par_batch;

/* The two batches: `prev`'s ids prefetched, waiting to be written; `cur` being filled. */
typedef struct par_pipe {
    par_batch b[2];
    par_batch *prev, *cur;
} par_pipe;

/* The pairs of the group at mems[first, end): by first member, then second. */
static int emit_run(gen_ctx *g, const gen_member *mems, size_t first, size_t end)
{
    int rc = CTG_OK;

    for (size_t x = first; rc == CTG_OK && x < end; x++)
        for (size_t y = x + 1; rc == CTG_OK && y < end; y++)
            rc = ctg_gen_emit_members(g, &mems[x], &mems[y]);
    return rc;
}

/* The pairs of batch `b`, whose ids were prefetched; `b` left empty. */
static int emit_batch(gen_ctx *g, par_batch *b)
{
    int rc = CTG_OK;

    for (size_t i = 0; rc == CTG_OK && i < b->n; i++)
        rc = ctg_gen_member(g, b->objs[i], &b->mems[i]);
    for (size_t k = 0, first = 0; rc == CTG_OK && k < b->groups; first = b->ends[k++])
        rc = emit_run(g, b->mems, first, b->ends[k]);
    b->n = b->groups = 0;
    return rc;
}

/* One step of the pipeline: the ids of `cur` prefetched, `prev` written, `cur` the new prev. */
static int advance(gen_ctx *g, par_pipe *q)
{
    par_batch *t = q->prev;

    for (size_t i = 0; i < q->cur->n; i++)
        CTG_RS_PREFETCH(q->cur->objs[i]->id);
    q->prev = q->cur;
    q->cur = t;
    return emit_batch(g, t);
}

/* A group too large for a batch: its members read as they come. */
static int emit_large(gen_ctx *g, const gen_par *p, uint32_t lead)
{
    int rc = CTG_OK;

    for (uint32_t x = lead; rc == CTG_OK && x != NONE; x = p->next[x]) {
        gen_member a, b;

        rc = ctg_gen_member(g, member(g, p, x), &a);
        for (uint32_t y = p->next[x]; rc == CTG_OK && y != NONE; y = p->next[y]) {
            rc = ctg_gen_member(g, member(g, p, y), &b);
            if (rc == CTG_OK)
                rc = ctg_gen_emit_members(g, &a, &b);
        }
    }
    return rc;
}

/* The group led by `lead` into the current batch, the pipeline advanced first when the group
 * would not fit; a group larger than a batch emitted alone once both batches are. */
static int add_group(gen_ctx *g, const gen_par *p, par_pipe *q, uint32_t lead)
{
    size_t size = 0;
    int rc = CTG_OK;

    for (uint32_t x = lead; x != NONE && size <= BATCH; x = p->next[x])
        size++;
    if (q->cur->n + size > BATCH || size > BATCH)
        rc = advance(g, q);
    if (rc == CTG_OK && size > BATCH)
        rc = advance(g, q);
    if (rc != CTG_OK || size > BATCH)
        return rc == CTG_OK ? emit_large(g, p, lead) : rc;
    for (uint32_t x = lead; x != NONE; x = p->next[x]) {
        q->cur->objs[q->cur->n] = member(g, p, x);
        CTG_RS_PREFETCH(q->cur->objs[q->cur->n++]);
    }
    q->cur->ends[q->cur->groups++] = (uint32_t)q->cur->n;
    return CTG_OK;
}

int ctg_gen_parallel_emit(gen_ctx *g, const gen_par *p)
{
    par_pipe q;
    int rc = CTG_OK;

    q.b[0].n = q.b[0].groups = q.b[1].n = q.b[1].groups = 0;
    q.prev = &q.b[0];
    q.cur = &q.b[1];
    for (size_t c = 0; rc == CTG_OK && c < p->n; c++)
        if (p->lead[c])
            rc = add_group(g, p, &q, (uint32_t)c);
    if (rc == CTG_OK)
        rc = advance(g, &q);
    return rc == CTG_OK ? advance(g, &q) : rc;
}

void ctg_gen_parallel_release(gen_ctx *g, gen_par *p)
{
    ctg_mem_release(g->alloc, p->block, p->block_size);
    memset(p, 0, sizeof *p);
}
