/* SPDX-License-Identifier: MPL-2.0 */
/* Two correlated N-2 rules over the selection (in its order, s_0..s_n-1): every pair, and the
 * branches with an end in a common place (the parallel rule is generate_parallel.c's). Each is
 * one pass that either counts or emits, so that a run checks its limit on the exact count
 * before writing anything. Memory: a few words per selected branch, never per pair. */

#include <string.h>

#include "base/alloc.h"
#include "network/generate_int.h"

#define NONE UINT32_MAX

/* One visit of a pair: emitted, or counted. */
static int pair(gen_ctx *g, const gen_sel *s, size_t i, size_t j, bool emit, uint64_t *count)
{
    (*count)++;
    return emit ? ctg_gen_emit_pair(g, s->objs[i], s->objs[j], &s->elems[i], &s->elems[j])
                : CTG_OK;
}

static int all_pairs(gen_ctx *g, const gen_sel *sel, bool emit, uint64_t *count)
{
    size_t n = sel->n;
    int rc = CTG_OK;

    if (!emit) { /* no need to walk them */
        *count = n < 2 ? 0 : (uint64_t)n * (n - 1) / 2;
        return CTG_OK;
    }
    for (size_t i = 0; rc == CTG_OK && i < n; i++)
        for (size_t j = i + 1; rc == CTG_OK && j < n; j++)
            rc = pair(g, sel, i, j, emit, count);
    return rc;
}

/* Where an end is: its voltage level's substation, or the level itself without one. */
static const ctg_net_object *place_of(const ctg_net_object *vl)
{
    return vl == NULL || vl->substation == NULL ? vl : vl->substation;
}

static uint32_t doc_of(const ctg_net_object *o)
{
    return o != NULL ? o->doc_index : NONE;
}

/* A branch end of the rule: its key (its place) and its selection index. Entries are made in
 * selection order and sorted stably by key alone, which is the order of (key, selection
 * index). */
typedef struct entry {
    uint64_t key;
    uint32_t sel;
} entry;

/* Radix sort digits: a few passes over the entries in order rather than a comparison sort
 * (qsort took most of the rule's time on a network of 50,000 branches). */
#define DIGIT_BITS 11
#define DIGITS (64 / DIGIT_BITS + 1)
#define BUCKETS ((size_t)1 << DIGIT_BITS)

static unsigned digit_of(uint64_t key, int d)
{
    return (unsigned)(key >> (d * DIGIT_BITS)) & (BUCKETS - 1);
}

/* Stable LSD radix sort of e[0, n) by key, through `tmp` (n entries); a digit that every key
 * shares is skipped. The result is in `e`. */
static void sort_entries(entry *e, entry *tmp, size_t n, uint32_t (*count)[BUCKETS])
{
    entry *from = e, *to = tmp;

    memset(count, 0, DIGITS * sizeof *count);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < DIGITS; d++)
            count[d][digit_of(e[i].key, d)]++;
    for (int d = 0; d < DIGITS; d++) {
        uint32_t sum = 0;

        if (count[d][digit_of(e[0].key, d)] == n)
            continue;
        for (size_t b = 0; b < BUCKETS; b++) {
            uint32_t c = count[d][b];

            count[d][b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[d][digit_of(from[i].key, d)]++] = from[i];
        to = from;
        from = from == e ? tmp : e;
    }
    if (from != e)
        memcpy(e, from, n * sizeof *e);
}

static bool is_branch(ctg_identifiable_type t)
{
    return t == CTG_IDENTIFIABLE_LINE || t == CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER ||
           t == CTG_IDENTIFIABLE_TIE_LINE || t == CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER;
}

/* A run of equal keys: entries [first, first + len). */
typedef struct run {
    uint32_t first, len;
} run;

/* Where the run of entry `i` ends: the first entry after it with another key. */
static size_t run_end(const entry *e, size_t n, size_t i)
{
    size_t j = i + 1;

    while (j < n && e[j].key == e[i].key)
        j++;
    return j;
}

/* The runs of two or more equal keys of the sorted `e`, in key order. */
static int runs_of(gen_ctx *g, const entry *e, size_t n, run **out, size_t *count)
{
    size_t m = 0;
    run *r;

    *out = NULL;
    *count = 0;
    for (size_t i = 0, j; i < n; i = j) {
        j = run_end(e, n, i);
        m += j - i >= 2;
    }
    if (m == 0)
        return CTG_OK;
    r = ctg_mem_alloc(g->alloc, m * sizeof *r);
    if (r == NULL)
        return ctg_rs_nomem(&g->rs);
    m = 0;
    for (size_t i = 0, j; i < n; i = j) {
        j = run_end(e, n, i);
        if (j - i >= 2)
            r[m++] = (run){ (uint32_t)i, (uint32_t)(j - i) };
    }
    *out = r;
    *count = m;
    return CTG_OK;
}

/* Whether `a` and `b` share a place that comes before `p` (so their pair was written there). */
static bool shared_before(const uint32_t *pa, const uint32_t *pb, uint32_t p)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (pa[i] != NONE && pa[i] == pb[j] && pa[i] < p)
                return true;
    return false;
}

static int run_pairs(gen_ctx *g, const gen_sel *sel, const entry *e, const run *r,
                     const uint32_t *pl, bool emit, uint64_t *count)
{
    int rc = CTG_OK;

    for (uint32_t i = r->first; rc == CTG_OK && i < r->first + r->len; i++)
        for (uint32_t j = i + 1; rc == CTG_OK && j < r->first + r->len; j++) {
            if (shared_before(pl + 3 * e[i].sel, pl + 3 * e[j].sel, (uint32_t)e[i].key))
                continue;
            rc = pair(g, sel, e[i].sel, e[j].sel, emit, count);
        }
    return rc;
}

/* The key of a branch reads three objects, each through the one before: the branch, its
 * voltage levels, their substations, scattered over the network. Each is prefetched a few
 * branches ahead of its use, once the one that points to it is in the cache. */
#define AHEAD 4

static void prefetch_ahead(const ctg_net_object *const *sel, size_t n, size_t i)
{
    if (i + 3 * AHEAD < n)
        CTG_RS_PREFETCH(sel[i + 3 * AHEAD]);
    for (int s = 0; i + 2 * AHEAD < n && s < 2; s++)
        if (sel[i + 2 * AHEAD]->voltage_levels[s] != NULL)
            CTG_RS_PREFETCH(sel[i + 2 * AHEAD]->voltage_levels[s]);
    for (int s = 0; i + AHEAD < n && s < 2; s++) {
        const ctg_net_object *vl = sel[i + AHEAD]->voltage_levels[s];

        if (vl != NULL && vl->substation != NULL)
            CTG_RS_PREFETCH(vl->substation);
    }
}

/* The entries of the rule: one per distinct place of each branch, its places in `pl`. */
static size_t fill_entries(const ctg_net_object *const *sel, size_t n, entry *e, uint32_t *pl)
{
    size_t m = 0;

    for (size_t i = 0; i < n; i++) {
        const ctg_net_object *o = sel[i];

        prefetch_ahead(sel, n, i);
        if (!is_branch(o->type))
            continue;
        for (int s = 0; s < 3; s++) {
            uint32_t p = doc_of(place_of(o->voltage_levels[s]));
            bool seen = p == NONE;

            for (int t = 0; t < s && !seen; t++)
                seen = pl[3 * i + t] == p;
            pl[3 * i + s] = seen ? NONE : p;
            if (!seen)
                e[m++] = (entry){ p, (uint32_t)i };
        }
    }
    return m;
}

/* sort_entries with its scratch memory. */
static int sort(gen_ctx *g, entry *e, size_t n)
{
    entry *tmp;
    uint32_t(*count)[BUCKETS];
    bool ok;

    if (n < 2)
        return CTG_OK;
    tmp = ctg_mem_alloc(g->alloc, n * sizeof *tmp);
    count = ctg_mem_alloc(g->alloc, DIGITS * sizeof *count);
    ok = tmp != NULL && count != NULL;
    if (ok)
        sort_entries(e, tmp, n, count);
    ctg_mem_release(g->alloc, count, DIGITS * sizeof *count);
    ctg_mem_release(g->alloc, tmp, n * sizeof *tmp);
    return ok ? CTG_OK : ctg_rs_nomem(&g->rs);
}

/* The groups of the rule over a selection, made by its first pass (counting) and walked again
 * by the second (emitting): the entries sorted, the runs, the places. */
struct gen_groups {
    entry *e;
    size_t cap;
    uint32_t *pl; /* 3 * n */
    size_t pl_len;
    run *r;
    size_t rn;
};

void ctg_gen_pairs_release(gen_ctx *g, gen_sel *sel)
{
    gen_groups *gr = sel->groups;

    if (gr == NULL)
        return;
    ctg_mem_release(g->alloc, gr->r, gr->rn * sizeof *gr->r);
    ctg_mem_release(g->alloc, gr->pl, gr->pl_len * sizeof *gr->pl);
    ctg_mem_release(g->alloc, gr->e, gr->cap * sizeof *gr->e);
    ctg_mem_release(g->alloc, gr, sizeof *gr);
    sel->groups = NULL;
}

/* Makes sel->groups; CTG_ENOMEM (then none). */
static int make_groups(gen_ctx *g, gen_sel *sel)
{
    size_t n = sel->n, m;
    gen_groups *gr = ctg_mem_alloc(g->alloc, sizeof *gr);
    int rc;

    if (gr == NULL)
        return ctg_rs_nomem(&g->rs);
    memset(gr, 0, sizeof *gr);
    sel->groups = gr;
    gr->cap = 3 * n;
    gr->pl_len = 3 * n;
    gr->e = ctg_mem_alloc(g->alloc, gr->cap * sizeof *gr->e);
    gr->pl = ctg_mem_alloc(g->alloc, gr->pl_len * sizeof *gr->pl);
    rc = gr->e == NULL || gr->pl == NULL ? ctg_rs_nomem(&g->rs) : CTG_OK;
    if (rc == CTG_OK) {
        for (size_t i = 0; i < gr->pl_len; i++)
            gr->pl[i] = NONE;
        m = fill_entries(sel->objs, n, gr->e, gr->pl);
        rc = sort(g, gr->e, m);
    }
    if (rc == CTG_OK)
        rc = runs_of(g, gr->e, m, &gr->r, &gr->rn);
    if (rc != CTG_OK)
        ctg_gen_pairs_release(g, sel);
    return rc;
}

int ctg_gen_pairs(gen_ctx *g, gen_sel *sel, bool emit, uint64_t *count, uint64_t *groups)
{
    gen_groups *gr;
    int rc = CTG_OK;

    *count = 0;
    *groups = 0;
    if (g->opts->rule == CTG_GEN_ALL_PAIRS)
        return all_pairs(g, sel, emit, count);
    if (sel->n == 0)
        return CTG_OK;
    if (sel->groups == NULL)
        rc = make_groups(g, sel);
    gr = sel->groups;
    for (size_t k = 0; rc == CTG_OK && k < gr->rn; k++)
        rc = run_pairs(g, sel, gr->e, &gr->r[k], gr->pl, emit, count);
    *groups = rc == CTG_OK ? gr->rn : 0;
    return rc;
}
