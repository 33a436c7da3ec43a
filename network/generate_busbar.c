/* SPDX-License-Identifier: MPL-2.0 */
/* The busbar rule: the topology (which equipment each busbar takes with it, filled by the
 * XIIDM topology reader, iidm/busbar.c) as sorted links, and per busbar one contingency of
 * the selected equipment among its links, in the selection's order. */

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "network/generate_int.h"

int ctg_gen_topo_new(ctg_gen_topology **out, const ctg_network *net, const ctg_allocator *a)
{
    ctg_gen_topology *t = ctg_mem_alloc(a, sizeof *t);

    *out = NULL;
    if (t == NULL)
        return CTG_ENOMEM;
    memset(t, 0, sizeof *t);
    t->net = net;
    if (a != NULL) {
        t->alloc_copy = *a;
        t->alloc = &t->alloc_copy;
    }
    *out = t;
    return CTG_OK;
}

void ctg_gen_topology_free(ctg_gen_topology *topo)
{
    ctg_allocator a;

    if (topo == NULL)
        return;
    a = topo->alloc_copy;
    ctg_mem_release(topo->alloc, topo->links, topo->cap * sizeof *topo->links);
    ctg_mem_release(topo->alloc != NULL ? &a : NULL, topo, sizeof *topo);
}

size_t ctg_gen_topology_busbar_count(const ctg_gen_topology *topo)
{
    return topo != NULL ? topo->busbars : 0;
}

int ctg_gen_topo_link(ctg_gen_topology *t, const ctg_net_object *busbar,
                      const ctg_net_object *member)
{
    if (t->len == t->cap) {
        size_t cap = t->cap != 0 ? 2 * t->cap : 256;
        void *p = ctg_mem_resize(t->alloc, t->links, t->cap * sizeof *t->links,
                                 cap * sizeof *t->links);

        if (p == NULL)
            return CTG_ENOMEM;
        t->links = p;
        t->cap = cap;
    }
    t->links[t->len++] = (gen_link){ busbar, member };
    return CTG_OK;
}

static int cmp_link(const void *pa, const void *pb)
{
    const gen_link *a = pa, *b = pb;
    bool abus = a->busbar->type == CTG_IDENTIFIABLE_BUS;
    bool bbus = b->busbar->type == CTG_IDENTIFIABLE_BUS;
    uint32_t ma = a->member->doc_index, mb = b->member->doc_index;

    if (abus != bbus)
        return abus ? 1 : -1;
    if (a->busbar->type_index != b->busbar->type_index)
        return a->busbar->type_index < b->busbar->type_index ? -1 : 1;
    return ma < mb ? -1 : ma > mb;
}

void ctg_gen_topo_finish(ctg_gen_topology *t)
{
    size_t m = 0;

    if (t->len == 0) /* qsort may not be given NULL */
        return;
    qsort(t->links, t->len, sizeof *t->links, cmp_link);
    t->busbars = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (m > 0 && t->links[m - 1].busbar == t->links[i].busbar &&
            t->links[m - 1].member == t->links[i].member)
            continue;
        t->busbars += m == 0 || t->links[m - 1].busbar != t->links[i].busbar;
        t->links[m++] = t->links[i];
    }
    t->len = m;
}

/* ---- the rule ----------------------------------------------------------------------------- */

/* The selection's ranks, by document index: 1 + the position in the selection, 0 when not. */
typedef struct ranks {
    uint32_t *at;
    size_t len;
    uint64_t *selected; /* per type, counted; or NULL */
} ranks;

static int rank_one(gen_ctx *g, const ctg_net_object *obj, size_t index, void *arg)
{
    ranks *r = arg;
    ctg_element e;

    r->at[obj->doc_index] = (uint32_t)index + 1;
    if (r->selected != NULL)
        r->selected[obj->type]++;
    return ctg_rs_map(&g->rs, obj, &e);
}

/* Insertion sort of a busbar's members by rank: a busbar holds a few dozen at most, and qsort
 * has no context argument to find the ranks. */
static void by_rank(const ctg_net_object **objs, size_t n, const uint32_t *rank)
{
    for (size_t i = 1; i < n; i++) {
        const ctg_net_object *o = objs[i];
        size_t j = i;

        for (; j > 0 && rank[objs[j - 1]->doc_index] > rank[o->doc_index]; j--)
            objs[j] = objs[j - 1];
        objs[j] = o;
    }
}

/* The selected members of the busbar whose links start at `i` (they end at *end), in the
 * selection's order, into `objs`; their number. */
static size_t members(const ctg_gen_topology *t, size_t i, size_t *end, const uint32_t *rank,
                      const ctg_net_object **objs)
{
    size_t n = 0, j = i;

    for (; j < t->len && t->links[j].busbar == t->links[i].busbar; j++)
        if (rank[t->links[j].member->doc_index] != 0)
            objs[n++] = t->links[j].member;
    *end = j;
    by_rank(objs, n, rank);
    return n;
}

static int busbars(gen_ctx *g, const uint32_t *rank, bool emit, uint64_t *count)
{
    const ctg_gen_topology *t = g->opts->topology;
    const ctg_net_object **objs = ctg_mem_alloc(g->alloc, (t->len + 1) * sizeof *objs);
    int rc = CTG_OK;

    if (objs == NULL)
        return ctg_rs_nomem(&g->rs);
    for (size_t i = 0, end; rc == CTG_OK && i < t->len; i = end) {
        size_t n = members(t, i, &end, rank, objs);

        if (n == 0)
            continue;
        (*count)++;
        if (emit)
            rc = ctg_gen_emit_set(g, t->links[i].busbar, objs, n);
    }
    ctg_mem_release(g->alloc, objs, (t->len + 1) * sizeof *objs);
    return rc;
}

int ctg_gen_busbar(gen_ctx *g, bool emit, uint64_t *count, uint64_t *groups,
                   uint64_t *selected)
{
    const ctg_gen_topology *t = g->opts->topology;
    ranks r = { NULL, ctg_network_object_count(g->net), selected };
    int rc;

    *count = 0;
    *groups = t->busbars;
    r.at = ctg_mem_alloc(g->alloc, r.len * sizeof *r.at);
    if (r.at == NULL)
        return ctg_rs_nomem(&g->rs);
    memset(r.at, 0, r.len * sizeof *r.at);
    rc = ctg_gen_select(g, rank_one, &r);
    if (rc == CTG_OK)
        rc = busbars(g, r.at, emit, count);
    ctg_mem_release(g->alloc, r.at, r.len * sizeof *r.at);
    return rc;
}
