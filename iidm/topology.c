/* SPDX-License-Identifier: MPL-2.0 */
/* The calculated bus-breaker-view buses of node-breaker voltage levels (see topology.h): a
 * sort of every recorded node, then a union-find over their positions. */

#include "iidm/topology.h"

#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"

void ctg_nb_graph_init(ctg_nb_graph *g, const ctg_allocator *a)
{
    memset(g, 0, sizeof(*g));
    g->alloc = a;
}

void ctg_nb_graph_dispose(ctg_nb_graph *g)
{
    ctg_mem_release(g->alloc, g->nodes, g->node_cap * sizeof(uint64_t));
    ctg_mem_release(g->alloc, g->edges, g->edge_cap * 2 * sizeof(uint64_t));
    g->nodes = g->edges = NULL;
    g->node_cap = g->edge_cap = g->node_count = g->edge_count = 0;
}

/* Room for one more item of `width` words in (*data, *cap items). */
static int room(const ctg_allocator *a, uint64_t **data, size_t *cap, size_t count,
                size_t width)
{
    size_t want, bytes;
    void *p;

    if (count < *cap)
        return CTG_OK;
    if (!ctg_grow_capacity(*cap, count + 1, 64, SIZE_MAX / (width * sizeof(uint64_t)), &want)
        || !ctg_size_mul(want, width * sizeof(uint64_t), &bytes))
        return CTG_ENOMEM;
    p = ctg_mem_resize(a, *data, *cap * width * sizeof(uint64_t), bytes);
    if (!p)
        return CTG_ENOMEM;
    *data = p;
    *cap = want;
    return CTG_OK;
}

static uint64_t key_of(uint32_t vl, uint32_t node)
{
    return (uint64_t)vl << 32 | node;
}

int ctg_nb_graph_node(ctg_nb_graph *g, uint32_t vl, uint32_t node)
{
    if (room(g->alloc, &g->nodes, &g->node_cap, g->node_count, 1) != CTG_OK)
        return CTG_ENOMEM;
    g->nodes[g->node_count++] = key_of(vl, node);
    return CTG_OK;
}

int ctg_nb_graph_edge(ctg_nb_graph *g, uint32_t vl, uint32_t n1, uint32_t n2, bool merges)
{
    int rc = ctg_nb_graph_node(g, vl, n1);

    if (rc == CTG_OK)
        rc = ctg_nb_graph_node(g, vl, n2);
    if (rc != CTG_OK || !merges || n1 == n2)
        return rc;
    if (room(g->alloc, &g->edges, &g->edge_cap, g->edge_count, 2) != CTG_OK)
        return CTG_ENOMEM;
    g->edges[2 * g->edge_count] = key_of(vl, n1);
    g->edges[2 * g->edge_count + 1] = key_of(vl, n2);
    g->edge_count++;
    return CTG_OK;
}

/* One pass of a byte-wise radix sort of `n` keys from `src` to `dst`, on the byte at `shift`;
 * false (nothing moved) when every key has the same byte there. */
static bool radix_pass(const uint64_t *src, uint64_t *dst, size_t n, unsigned shift)
{
    size_t count[256] = { 0 }, at = 0;

    for (size_t i = 0; i < n; i++)
        count[(src[i] >> shift) & 0xFF]++;
    if (count[(src[0] >> shift) & 0xFF] == n)
        return false;
    for (size_t d = 0; d < 256; d++) {
        size_t c = count[d];
        count[d] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++)
        dst[count[(src[i] >> shift) & 0xFF]++] = src[i];
    return true;
}

/* Sorts the nodes (a radix sort: most of a key's bytes are the same everywhere, and their
 * passes are skipped) and drops repeats. CTG_OK or CTG_ENOMEM. */
static int unique_nodes(ctg_nb_graph *g)
{
    size_t n = g->node_count, kept = 0, bytes = n * sizeof(uint64_t);
    uint64_t *tmp = ctg_mem_alloc(g->alloc, bytes), *src = g->nodes, *dst = tmp;

    if (!tmp)
        return CTG_ENOMEM;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if (radix_pass(src, dst, n, shift)) {
            uint64_t *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != g->nodes)
        memcpy(g->nodes, src, bytes);
    ctg_mem_release(g->alloc, tmp, bytes);
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || g->nodes[kept - 1] != g->nodes[i])
            g->nodes[kept++] = g->nodes[i];
    g->node_count = kept;
    return CTG_OK;
}

/* The position of `key`, which is there. */
static size_t position(const ctg_nb_graph *g, uint64_t key)
{
    size_t lo = 0, hi = g->node_count;

    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->nodes[mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static size_t root(uint32_t *up, size_t i)
{
    while (up[i] != i) {
        up[i] = up[up[i]]; /* path halving */
        i = up[i];
    }
    return i;
}

/* Every group's root is its lowest position, hence its lowest node. */
static void merge_all(const ctg_nb_graph *g, uint32_t *up)
{
    for (size_t i = 0; i < g->node_count; i++)
        up[i] = (uint32_t)i;
    for (size_t e = 0; e < g->edge_count; e++) {
        size_t a = root(up, position(g, g->edges[2 * e]));
        size_t b = root(up, position(g, g->edges[2 * e + 1]));
        if (a < b)
            up[b] = (uint32_t)a;
        else if (b < a)
            up[a] = (uint32_t)b;
    }
}

/* Adds "<vl>_<node>"; a long voltage-level id gets a buffer of its own. */
static int add_bus(ctg_network *net, const ctg_allocator *a, const char *vl, uint32_t node,
                   ctg_error *err)
{
    char small[128], *id = small;
    size_t len = strlen(vl) + 12;
    int rc;

    if (len > sizeof(small) && !(id = ctg_mem_alloc(a, len)))
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    snprintf(id, len, "%s_%u", vl, (unsigned)node);
    rc = ctg_network_add_calculated_bus(net, vl, id, err);
    if (id != small)
        ctg_mem_release(a, id, len);
    return rc;
}

static int add_buses(const ctg_nb_graph *g, uint32_t *up, ctg_network *net, ctg_error *err)
{
    for (size_t i = 0; i < g->node_count; i++) {
        uint32_t vl = (uint32_t)(g->nodes[i] >> 32), node = (uint32_t)g->nodes[i];
        const ctg_net_object *v = ctg_network_object_at(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, vl);
        int rc;

        if (root(up, i) != i || !v)
            continue;
        if ((rc = add_bus(net, g->alloc, v->id, node, err)) != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

int ctg_nb_graph_add_buses(ctg_nb_graph *g, ctg_network *net, ctg_error *err)
{
    size_t bytes;
    uint32_t *up;
    int rc;

    if (g->node_count == 0)
        return CTG_OK;
    if (unique_nodes(g) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    if (g->node_count > UINT32_MAX || !ctg_size_mul(g->node_count, sizeof(*up), &bytes)
        || !(up = ctg_mem_alloc(g->alloc, bytes)))
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    merge_all(g, up);
    rc = add_buses(g, up, net, err);
    ctg_mem_release(g->alloc, up, bytes);
    return rc;
}
