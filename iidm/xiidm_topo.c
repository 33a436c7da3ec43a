/* SPDX-License-Identifier: MPL-2.0 */
/* The calculated buses of the bus-breaker view of each node-breaker voltage level, as
 * PowSyBl's topology processing names them. Checked against every node-breaker level of the
 * corpus's goldens: the nodes joined by internal connections and by switches neither open nor
 * retained make one bus, named "<voltage level id>_<its lowest node>", when one of its nodes
 * has a terminal or a switch or internal connection; buses come in the order of their lowest
 * nodes. Terminals of branches come after their voltage levels, so the buses are computed
 * once the document has ended, from the pieces kept meanwhile (16 bytes each). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "iidm/xiidm.h"

static int oom(xreader *r)
{
    return ctg_xiidm_fail(r, CTG_ENOMEM, "out of memory");
}

static int keep(xreader *r, uint32_t level, uint32_t a, uint32_t b, bool joins)
{
    const ctg_allocator *al = r->in->opts->allocator;

    if (r->ntopo == r->topo_cap) {
        size_t cap, bytes, old = r->topo_cap * sizeof *r->topo;
        xtopo_item *t;
        if (!ctg_grow_capacity(r->topo_cap, r->ntopo + 1, 256, SIZE_MAX / sizeof *t, &cap)
            || !ctg_size_mul(cap, sizeof *t, &bytes) || !(t = ctg_mem_resize(al, r->topo, old, bytes)))
            return oom(r);
        r->topo = t;
        r->topo_cap = cap;
    }
    r->topo[r->ntopo++] = (xtopo_item){ level, a, b, joins ? 1u : 0u };
    return CTG_OK;
}

int ctg_xiidm_nb_level(xreader *r, const ctg_net_object *vl)
{
    const ctg_allocator *al = r->in->opts->allocator;

    if (r->nlevels == r->levels_cap) {
        size_t cap, bytes, old = r->levels_cap * sizeof *r->levels;
        const ctg_net_object **l;
        if (!ctg_grow_capacity(r->levels_cap, r->nlevels + 1, 16, UINT32_MAX, &cap)
            || !ctg_size_mul(cap, sizeof *l, &bytes) || !(l = ctg_mem_resize(al, r->levels, old, bytes)))
            return oom(r);
        r->levels = l;
        r->levels_cap = cap;
    }
    r->levels[r->nlevels++] = vl;
    return CTG_OK;
}

int ctg_xiidm_nb_switch(xreader *r, uint32_t n1, uint32_t n2, bool joins)
{
    return keep(r, (uint32_t)(r->nlevels - 1), n1, n2, joins);
}

int ctg_xiidm_nb_internal(xreader *r, bool *follow)
{
    uint32_t n1, n2;
    const char *a = r->attrs[XA_NODE1], *b = r->attrs[XA_NODE2];

    *follow = false;
    if (!a || !b || sscanf(a, "%u", &n1) != 1 || sscanf(b, "%u", &n2) != 1)
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "internalConnection needs node1 and node2");
    return keep(r, (uint32_t)(r->nlevels - 1), n1, n2, true);
}

/* The index of node-breaker level `vl` in r->levels (document order: a binary search). */
static bool level_index(const xreader *r, const ctg_net_object *vl, uint32_t *out)
{
    size_t lo = 0, hi = r->nlevels;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->levels[mid]->doc_index < vl->doc_index)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == r->nlevels || r->levels[lo] != vl)
        return false;
    *out = (uint32_t)lo;
    return true;
}

int ctg_xiidm_nb_terminal(xreader *r, const ctg_net_object *vl, uint32_t node)
{
    uint32_t level;

    if (!vl->container || vl->container->topology != CTG_TOPOLOGY_NODE_BREAKER
        || !level_index(r, vl, &level))
        return CTG_OK;
    return keep(r, level, node, XTOPO_TERMINAL, false);
}

void ctg_xiidm_nb_dispose(xreader *r)
{
    const ctg_allocator *al = r->in->opts->allocator;

    ctg_mem_release(al, r->topo, r->topo_cap * sizeof *r->topo);
    ctg_mem_release(al, r->levels, r->levels_cap * sizeof *r->levels);
    r->topo = NULL;
    r->levels = NULL;
}

static int by_level(const void *x, const void *y)
{
    const xtopo_item *a = x, *b = y;
    return a->level < b->level ? -1 : a->level > b->level;
}

static int by_value(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static size_t index_of(const uint32_t *nodes, size_t n, uint32_t v)
{
    const uint32_t *p = bsearch(&v, nodes, n, sizeof *nodes, by_value);
    return (size_t)(p - nodes);
}

static uint32_t root_of(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* The distinct nodes of items[0..n) into `nodes`, sorted; returns how many. */
static size_t distinct_nodes(const xtopo_item *items, size_t n, uint32_t *nodes)
{
    size_t k = 0, u = 0;

    for (size_t i = 0; i < n; i++) {
        nodes[k++] = items[i].a;
        if (items[i].b != XTOPO_TERMINAL)
            nodes[k++] = items[i].b;
    }
    qsort(nodes, k, sizeof *nodes, by_value);
    for (size_t i = 0; i < k; i++)
        if (u == 0 || nodes[u - 1] != nodes[i])
            nodes[u++] = nodes[i];
    return u;
}

static int add_bus(xreader *r, const ctg_net_object *vl, uint32_t node, char *id, size_t cap)
{
    ctg_error why;
    int rc;

    snprintf(id, cap, "%s_%u", vl->id, (unsigned)node);
    rc = ctg_network_add_calculated_bus(r->net, vl->id, id, &why);
    if (rc == CTG_ENOMEM)
        return oom(r);
    return rc == CTG_OK ? CTG_OK : ctg_xiidm_fail(r, CTG_ESCHEMA, "%s", why.message);
}

/* The buses of one level from its items; `nodes` and `parent` have room for 2n each. */
static int level_buses(xreader *r, const xtopo_item *items, size_t n, uint32_t *nodes,
                       uint32_t *parent)
{
    const ctg_net_object *vl = r->levels[items[0].level];
    size_t k = distinct_nodes(items, n, nodes), cap = strlen(vl->id) + 16;
    char *id;
    int rc = CTG_OK;

    for (size_t i = 0; i < k; i++)
        parent[i] = (uint32_t)i;
    for (size_t i = 0; i < n; i++) {
        if (!items[i].joins)
            continue;
        uint32_t a = root_of(parent, (uint32_t)index_of(nodes, k, items[i].a));
        uint32_t b = root_of(parent, (uint32_t)index_of(nodes, k, items[i].b));
        parent[a > b ? a : b] = a < b ? a : b; /* the lowest node stays the root */
    }
    if (!(id = ctg_mem_alloc(r->in->opts->allocator, cap)))
        return oom(r);
    for (size_t i = 0; i < k && rc == CTG_OK; i++)
        if (root_of(parent, (uint32_t)i) == i)
            rc = add_bus(r, vl, nodes[i], id, cap);
    ctg_mem_release(r->in->opts->allocator, id, cap);
    return rc;
}

int ctg_xiidm_finish(xreader *r)
{
    const ctg_allocator *al = r->in->opts->allocator;
    size_t longest = 0, bytes;
    uint32_t *scratch;
    int rc = CTG_OK;

    if (r->ntopo == 0)
        return CTG_OK;
    qsort(r->topo, r->ntopo, sizeof *r->topo, by_level);
    for (size_t i = 0, j; i < r->ntopo; i = j) {
        for (j = i; j < r->ntopo && r->topo[j].level == r->topo[i].level; j++)
            ;
        longest = j - i > longest ? j - i : longest;
    }
    if (!ctg_size_mul(longest, 4 * sizeof *scratch, &bytes) || !(scratch = ctg_mem_alloc(al, bytes)))
        return oom(r);
    for (size_t i = 0, j; i < r->ntopo && rc == CTG_OK; i = j) {
        for (j = i; j < r->ntopo && r->topo[j].level == r->topo[i].level; j++)
            ;
        rc = level_buses(r, r->topo + i, j - i, scratch, scratch + 2 * longest);
    }
    ctg_mem_release(al, scratch, bytes);
    return rc;
}
