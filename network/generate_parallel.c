/* SPDX-License-Identifier: MPL-2.0 */
/* The parallel rule: the selected two-ended branches (LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE)
 * grouped by the places of their ends, each group's pairs written in the documented order
 * (ctg/generate.h). No object is read but those of the groups: a branch's voltage levels and
 * their substations come from the table's compact scan data (network/scan_data.h) as small
 * integers, so that a branch's key is two reads of a sequential array and two of an array of
 * the levels' places, made once per generation: no pointer chase, no string and no allocation
 * per branch. The branches are grouped in linear time, in the order of their key's lower place
 * then of the selection: for each lower place, a table indexed by the higher one links the
 * branches of each pair of places in selection order. Branches met in that order already (a
 * branch whose lower place is below none met before it: most of them, in a network written
 * substation after substation) are linked as their key is read, in the same pass; the others,
 * late, are then sorted by a counting sort and linked after those of their lower place met in
 * order, whose slots are first set back. A counting sort of every branch, its counts kept per
 * place, took more time than the linking: the increments of a place's count follow each other
 * through memory. (A radix sort of 64-bit keys, then a sort of the groups by their first
 * branch, took most of a run on 50,000 branches; so did a filter of the keys read in two
 * passes; and so did a hash table of the keys: spread over a table larger than the first
 * levels of cache, each probe a miss, its branch mispredicted.) The groups are then gathered
 * in the order of their first branch (a bit per candidate, scanned a word at a time) into the
 * array of objects that the emission reads in order.
 *
 * Places are numbered from 0: a substation by its type_index, a voltage level without one by
 * the substations' count plus its own type_index. When both ends are in one place (a
 * transformer), the key is its two voltage levels, numbered the same way: a level with a
 * substation is never a place, so that these numbers meet no place's, and the key is one-to-one
 * with what the rule compares. Memory while grouping: 24 bytes and a bit per object of the
 * selected parallel types, 16 per place (8 of them for a run, at most one per object), 4 per
 * voltage level; kept for the
 * emission: 8 bytes per member of a group and 8 per group; nothing per pair. */

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

/* The grouping's state, in one scratch allocation released when the groups are found. The
 * candidates are the selected two-ended branches, in selection order, in at most three runs
 * of one type each (`seg_type`): a candidate is numbered by its run's base (`seg_base`) plus
 * its type_index, so that the numbers ascend in selection order and give back the object
 * without a table of type_index. A number that is no candidate (an object not selected, or
 * with an end in no voltage level) has the lower place NONE, and takes no part. */
typedef struct keys {
    const ctg_net_vl_scan *vls;
    uint32_t subs, places;
    uint32_t *place;        /* per voltage level: its place, set once per generation */
    const uint32_t *levels; /* of the type being read, `stride` per object */
    size_t stride;
    ctg_identifiable_type seg_type[3];
    size_t seg_base[4], segs;
    size_t n, cap;     /* the numbers given so far, and the room of the arrays below */
    uint32_t *next;    /* per candidate: the next member of its group, NONE after the last */
    uint64_t *lead;    /* a bit per candidate: the first of a group of two or more */
    /* per place: the first member of the group of this higher place met last, whose lower
     * place is its own key's (no stamp of 4 more bytes beside it: half the slots to set before
     * the grouping and to miss in the cache); before the first, `cap`, whose lower place is
     * NONE */
    uint32_t *slot;
    uint32_t *count;   /* per place: the late candidates of a lower place, sorting them */
    uint32_t *lo, *hi; /* per candidate: its key (lo: and NONE at `cap`) */
    uint32_t *tail;    /* per lead of a group of two or more: its last member */
    int64_t top;       /* the highest lower place met so far, -1 before the first */
    size_t late_n;     /* the late candidates: met after one of a higher lower place */
    uint32_t *late;    /* late_n candidates, in selection order */
    uint32_t *sorted;  /* late_n: the late candidates sorted by lower place */
    size_t run_n;      /* the runs: the candidates met in order, of one lower place each */
    uint64_t *runs;    /* run_n: a run's lower place << 32 | its first candidate */
    void *block;
    size_t block_size;
} keys;

/* Every voltage level's place, into k->place: a loop over the levels' records once per
 * generation (a tenth of the branches' count on the bench) rather than a test on a level's
 * 16-byte record at each end of every branch. Nothing is kept in the network: the first
 * generation on it pays no more than the next ones. */
static void set_places(keys *k)
{
    uint32_t levels = k->places - k->subs;

    for (uint32_t v = 0; v < levels; v++) {
        uint32_t s = k->vls[v].substation;

        k->place[v] = s != CTG_NET_SCAN_NONE ? s : k->subs + v;
    }
}

/* Candidate `c` of key (lo, hi) linked into its group, the slot of its higher place, after
 * every candidate of a lower key: the lead of a group is its first, marked when a second
 * joins it; its `tail` is then its last. */
static inline void link_one(const keys *k, uint32_t lo, uint32_t hi, uint32_t c)
{
    uint32_t h = k->slot[hi], w;

    if (k->lo[h] != lo) {
        k->slot[hi] = c;
        return;
    }
    w = (k->lead[h / 64] >> (h % 64)) & 1;
    k->lead[h / 64] |= (uint64_t)1 << (h % 64);
    k->next[w ? k->tail[h] : h] = c;
    k->next[c] = NONE;
    k->tail[h] = c;
}

/* The grouping's progress through the candidates, kept in locals by add_all. */
typedef struct par_pass {
    int64_t top;
    size_t late_n, run_n;
} par_pass;

/* Adds the branch at `lv` of the type being read, when both its ends are in a voltage level,
 * as candidate `c`; else marks `c` as none. A candidate whose lower place is
 * not below any met before is met in the order of (lower place, selection) that the slots
 * need, and is linked at once; the others, late, are linked by link_late. */
static inline void add_at(const keys *k, par_pass *q, const uint32_t *lv, size_t c)
{
    uint32_t v1 = lv[0], v2 = lv[1], a, b, lo, hi;

    if (v1 == CTG_NET_SCAN_NONE || v2 == CTG_NET_SCAN_NONE) {
        k->lo[c] = NONE;
        return;
    }
    a = k->place[v1];
    b = k->place[v2];
    if (a == b) {
        a = k->subs + v1;
        b = k->subs + v2;
    }
    lo = a < b ? a : b;
    hi = a < b ? b : a;
    k->lo[c] = lo;
    k->hi[c] = hi;
    if ((int64_t)lo < q->top) {
        k->late[q->late_n++] = (uint32_t)c;
        return;
    }
    if ((int64_t)lo > q->top)
        k->runs[q->run_n++] = ((uint64_t)lo << 32) | c;
    q->top = lo;
    link_one(k, lo, hi, (uint32_t)c);
}

static void add(keys *k, uint32_t i)
{
    par_pass q = { k->top, k->late_n, k->run_n };

    add_at(k, &q, k->levels + (size_t)i * k->stride, k->n + i);
    k->top = q.top;
    k->late_n = q.late_n;
    k->run_n = q.run_n;
}

/* Every branch of the type being read, `n` of them, `stride` apart: add's loop with its counts
 * kept local, which a store through the candidates' arrays would make the compiler reload
 * each time. */
static inline void add_run(keys *k, size_t n, size_t stride)
{
    const uint32_t *lv = k->levels;
    par_pass q = { k->top, k->late_n, k->run_n };
    size_t c = k->n;

    for (size_t i = 0; i < n; i++, lv += stride)
        add_at(k, &q, lv, c + i);
    k->top = q.top;
    k->late_n = q.late_n;
    k->run_n = q.run_n;
}

/* add_run with the strides of the parallel types made constants (2 for a line, 3 for a
 * transformer, whose substation follows): a register fewer in a loop short of them. */
static void add_all(keys *k, size_t n)
{
    if (k->stride == 2)
        add_run(k, n, 2);
    else if (k->stride == 3)
        add_run(k, n, 3);
    else
        add_run(k, n, k->stride);
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

/* The candidates of g->types[t], a branch type, numbered from k->n on (then past its objects);
 * *sel its selected objects. A whole type is read from the scan data alone, without visiting
 * its objects; otherwise the numbers of the objects not visited are first marked as none. */
static int branch_type(gen_ctx *g, keys *k, size_t t, uint64_t *sel)
{
    ctg_identifiable_type type = g->types[t].type;
    size_t n = ctg_network_count(g->net, type), index = 0;
    bool all = ctg_gen_takes_all(g, t);
    int rc = CTG_OK;

    k->levels = ctg_net_scan_levels(g->net, type, &k->stride);
    if (k->lo == NULL) /* no candidate at all: only counted */
        return other_type(g, t, sel);
    if (k->levels == NULL || k->vls == NULL || !all) /* no object or none with an end */
        memset(k->lo + k->n, 0xff, n * sizeof *k->lo);
    if (k->levels == NULL || k->vls == NULL)
        rc = other_type(g, t, sel);
    else if (all)
        add_all(k, n);
    else
        rc = ctg_gen_select_type(g, t, add_one, k, &index);
    if (k->levels != NULL && k->vls != NULL)
        *sel = all ? n : index;
    k->n += n;
    return rc;
}

/* Room for `cap` candidates, the places and the levels' places, in k->block. CTG_ENOMEM. */
static int reserve(gen_ctx *g, keys *k, size_t cap)
{
    size_t places = k->places, words = cap / 64 + 1, levels = places - k->subs;
    size_t runs = cap < places ? cap : places; /* a run per lower place, at most */
    char *b;

    if (cap > SIZE_MAX / 64 || places > SIZE_MAX / 64 - cap)
        return ctg_rs_nomem(&g->rs);
    k->cap = cap;
    k->block_size = words * sizeof *k->lead + places * (sizeof *k->slot + sizeof *k->count) +
                    (cap * 6 + 1 + levels) * sizeof(uint32_t) + runs * sizeof *k->runs;
    k->block = b = ctg_mem_alloc(g->alloc, k->block_size);
    if (b == NULL)
        return ctg_rs_nomem(&g->rs);
    k->lead = (uint64_t *)b;
    k->runs = k->lead + words;
    k->slot = (uint32_t *)(k->runs + runs);
    k->count = k->slot + places;
    k->next = k->count + places;
    k->lo = k->next + cap;
    k->hi = k->lo + cap + 1;
    k->tail = k->hi + cap;
    k->late = k->tail + cap;
    k->sorted = k->late + cap;
    k->place = k->sorted + cap;
    memset(k->lead, 0, words * sizeof *k->lead); /* no lead */
    k->lo[cap] = NONE;
    for (size_t i = 0; i < places; i++)
        k->slot[i] = (uint32_t)cap; /* no group yet */
    set_places(k);
    return CTG_OK;
}

/* The late candidates sorted by lower place (stable: each place's in selection order), a
 * counting sort over the places of their range alone, into k->sorted. */
static void sort_late(keys *k)
{
    const uint32_t *lo = k->lo, *late = k->late;
    uint32_t *count = k->count, low = NONE, high = 0, sum = 0;
    size_t m = k->late_n;

    for (size_t i = 0; i < m; i++) {
        low = lo[late[i]] < low ? lo[late[i]] : low;
        high = lo[late[i]] > high ? lo[late[i]] : high;
    }
    memset(count + low, 0, ((size_t)high - low + 1) * sizeof *count);
    for (size_t i = 0; i < m; i++)
        count[lo[late[i]]]++;
    for (uint32_t a = low; a <= high; a++) {
        uint32_t n = count[a];

        count[a] = sum;
        sum += n;
    }
    for (size_t i = 0; i < m; i++)
        k->sorted[count[lo[late[i]]]++] = late[i];
}

/* The slots of lower place `lo` set back to the groups of its run, which begins at candidate
 * `c` and ends where the next run begins (the late candidates among them are of lower
 * places, and the numbers that are none are passed over): each group's lead is its first. A
 * slot whose lead is of lower place `lo` holds it already, as no other run sets such a lead. */
static void restore_run(const keys *k, uint32_t lo, size_t c)
{
    for (; c < k->n && (k->lo[c] <= lo || k->lo[c] == NONE); c++) {
        uint32_t *s;

        if (k->lo[c] != lo)
            continue;
        s = &k->slot[k->hi[c]];
        if (k->lo[*s] != lo)
            *s = (uint32_t)c;
    }
}

/* The late candidates linked into their groups, in the order of (lower place, selection):
 * each place's after its run's candidates, met before them, whose slots are restored first.
 * The runs and the places of the late candidates both ascend: one walk of the runs. */
static void link_late(keys *k)
{
    size_t r = 0;

    if (k->late_n == 0)
        return;
    sort_late(k);
    for (size_t j = 0; j < k->late_n; j++) {
        uint32_t c = k->sorted[j], lo = k->lo[c];

        if (j == 0 || lo != k->lo[k->sorted[j - 1]]) {
            while (r < k->run_n && (k->runs[r] >> 32) < lo)
                r++;
            if (r < k->run_n && (k->runs[r] >> 32) == lo)
                restore_run(k, lo, (uint32_t)k->runs[r]);
        }
        link_one(k, lo, k->hi[c], c);
    }
}

/* The groups' counts, walking each group from its lead (a bit scan, in selection order). */
static void count_groups(const keys *k, gen_par *p)
{
    for (size_t w = 0; w <= k->n / 64; w++)
        for (uint64_t bits = k->lead[w]; bits != 0; bits &= bits - 1) {
            uint64_t m = 0;

            for (uint32_t c = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits)); c != NONE;
                 c = k->next[c])
                m++;
            p->members += (size_t)m;
            p->pairs += m * (m - 1) / 2;
            p->groups++;
            p->largest = m > p->largest ? (size_t)m : p->largest;
        }
}

/* The candidates of the selection, type after type, into k. */
static int candidates(gen_ctx *g, keys *k, uint64_t *selected)
{
    int rc = CTG_OK;

    for (size_t t = 0; rc == CTG_OK && t < g->type_count; t++) {
        ctg_identifiable_type type = g->types[t].type;
        uint64_t n = 0;

        if (is_parallel_type(type)) {
            rc = branch_type(g, k, t, &n);
            k->seg_type[k->segs] = type;
            k->seg_base[++k->segs] = k->n;
        } else {
            rc = other_type(g, t, &n);
        }
        if (selected != NULL)
            selected[type] += n;
    }
    return rc;
}

/* The groups' members into p->objs, group after group in the order of their leads (a bit
 * scan), each group from its lead along `next`; where each group ends. Their numbers are
 * gathered first, into k->sorted (free once the groups are linked, and of room for every
 * candidate), then turned into objects a run of one type at a time. */
static int gather(gen_ctx *g, const keys *k, gen_par *p)
{
    uint32_t *nums = k->sorted;
    size_t at = 0, j = 0;

    p->block_size = p->members * sizeof *p->objs + (size_t)p->groups * sizeof *p->ends;
    p->block = ctg_mem_alloc(g->alloc, p->block_size);
    if (p->block == NULL)
        return ctg_rs_nomem(&g->rs);
    p->objs = p->block;
    p->ends = (size_t *)(p->objs + p->members);
    for (size_t w = 0; w <= k->n / 64; w++)
        for (uint64_t bits = k->lead[w]; bits != 0; bits &= bits - 1) {
            uint32_t c = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));

            for (; c != NONE; c = k->next[c])
                nums[at++] = c;
            p->ends[j++] = at;
        }
    for (size_t s = 0; s < k->segs; s++)
        ctg_net_scan_objects(g->net, k->seg_type[s], k->seg_base[s], nums, at, p->objs);
    return CTG_OK;
}

int ctg_gen_parallel_find(gen_ctx *g, gen_par *p, uint64_t *selected)
{
    keys k;
    size_t cap = 0;
    int rc = CTG_OK;

    memset(p, 0, sizeof *p);
    memset(&k, 0, sizeof k);
    k.top = -1;
    k.vls = ctg_net_scan_voltage_levels(g->net);
    k.subs = (uint32_t)ctg_network_count(g->net, CTG_IDENTIFIABLE_SUBSTATION);
    k.places = k.subs + (uint32_t)ctg_network_count(g->net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL);
    for (size_t t = 0; t < g->type_count; t++)
        if (is_parallel_type(g->types[t].type))
            cap += ctg_network_count(g->net, g->types[t].type);
    if (cap > 0 && k.places > 0)
        rc = reserve(g, &k, cap);
    else
        k.vls = NULL; /* no candidate: the branch types are only counted */
    if (rc == CTG_OK)
        rc = candidates(g, &k, selected);
    if (rc == CTG_OK && k.n > 0) {
        link_late(&k);
        count_groups(&k, p);
    }
    if (rc == CTG_OK && p->groups > 0 && g->emit != NULL) /* counting reads no object */
        rc = gather(g, &k, p);
    ctg_mem_release(g->alloc, k.block, k.block_size);
    return rc;
}

/* ---- the emission ------------------------------------------------------------------------ */

/* The members' objects and their ids are scattered over the network's memory: two cache
 * misses a member, the second waiting for the first. The groups are read and written in
 * windows of whole groups of up to WINDOW members (a larger group alone), and as each member
 * is read, the object of the member two windows on and the id of the one a window on are
 * prefetched: a member's misses are then paid while the windows before it are written. Each
 * member is read once, its element and id length kept for all its pairs: in a buffer of
 * WINDOW members, or for a larger group one of its size from the allocator. */
#define WINDOW 32

/* Prefetches the objects of the first two windows and the ids of the first. */
static void prefetch_start(const gen_par *p)
{
    for (size_t i = 0; i < 2 * WINDOW && i < p->members; i++)
        CTG_RS_PREFETCH(p->objs[i]);
    for (size_t i = 0; i < WINDOW && i < p->members; i++)
        CTG_RS_PREFETCH(p->objs[i]->id);
}

/* The element of a member: every parallel type is an element of its own id, so that the
 * general mapping, a call and a switch over every type with its error path, is not needed. */
static inline ctg_element_type element_of(ctg_identifiable_type t)
{
    if (t == CTG_IDENTIFIABLE_LINE)
        return CTG_ELEMENT_LINE;
    return t == CTG_IDENTIFIABLE_TIE_LINE ? CTG_ELEMENT_TIE_LINE
                                          : CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER;
}

/* The members at objs[a, b) into mems. */
static void read_members(const gen_par *p, size_t a, size_t b, gen_member *mems)
{
    const ctg_net_object *const *o = p->objs;

    for (size_t i = a; i < b; i++) {
        gen_member *m = &mems[i - a];

        if (i + 2 * WINDOW < p->members)
            CTG_RS_PREFETCH(o[i + 2 * WINDOW]);
        if (i + WINDOW < p->members)
            CTG_RS_PREFETCH(o[i + WINDOW]->id);
        m->obj = o[i];
        m->id_len = strlen(o[i]->id);
        m->elem = (ctg_element){ o[i]->id, element_of(o[i]->type), NULL };
    }
}

/* The pairs of the group of the `n` members at mems: by first member, then second. A failure
 * returns at once, without a test of it at each step of both loops; the last member begins no
 * pair and is not a step of the first. */
static int emit_group(gen_ctx *g, const gen_member *mems, size_t n)
{
    const gen_member *end = mems + n;

    for (const gen_member *x = mems; x + 1 < end; x++)
        for (const gen_member *y = x + 1; y < end; y++) {
            int rc = ctg_gen_emit_members(g, x, y);

            if (rc != CTG_OK)
                return rc;
        }
    return CTG_OK;
}

/* The groups from k on that make a window: whole groups of up to WINDOW members, or one
 * larger group; where they end. */
static size_t window_end(const gen_par *p, size_t k)
{
    size_t a = k > 0 ? p->ends[k - 1] : 0, j = k + 1;

    while (j < p->groups && p->ends[j] - a <= WINDOW)
        j++;
    return j;
}

int ctg_gen_parallel_emit(gen_ctx *g, const gen_par *p)
{
    gen_member local[WINDOW], *mems = local;
    int rc = CTG_OK;

    if (p->largest > WINDOW) {
        if (p->largest > SIZE_MAX / sizeof *mems)
            return ctg_rs_nomem(&g->rs);
        mems = ctg_mem_alloc(g->alloc, p->largest * sizeof *mems);
        if (mems == NULL)
            return ctg_rs_nomem(&g->rs);
    }
    prefetch_start(p);
    for (size_t k = 0, a = 0; rc == CTG_OK && k < p->groups;) {
        size_t j = window_end(p, k), first = a;

        read_members(p, a, p->ends[j - 1], mems);
        for (; rc == CTG_OK && k < j; a = p->ends[k++])
            rc = emit_group(g, mems + (a - first), p->ends[k] - a);
    }
    if (mems != local)
        ctg_mem_release(g->alloc, mems, p->largest * sizeof *mems);
    return rc;
}

void ctg_gen_parallel_release(gen_ctx *g, gen_par *p)
{
    ctg_mem_release(g->alloc, p->block, p->block_size);
    memset(p, 0, sizeof *p);
}
