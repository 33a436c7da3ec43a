/* SPDX-License-Identifier: MPL-2.0 */
/* The calculated bus-breaker-view buses of node-breaker voltage levels (see topology.h): a
 * sort of every recorded node, then a union-find over their positions. */

#include "iidm/topology.h"

#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "network/table.h"

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
    g->node_cap = g->edge_cap = g->node_count = g->edge_count = g->settled = 0;
}

/* Room for one more item of `width` words in (*data, *cap items). */
static int room(const ctg_allocator *a, uint64_t **data, size_t *cap, size_t count, size_t width)
{
    size_t want, bytes;
    void *p;

    if (count < *cap)
        return CTG_OK;
    if (!ctg_grow_capacity(*cap, count + 1, 64, SIZE_MAX / (width * sizeof(uint64_t)), &want) ||
        !ctg_size_mul(want, width * sizeof(uint64_t), &bytes))
        return CTG_ENOMEM;
    p = ctg_mem_resize(a, *data, *cap * width * sizeof(uint64_t), bytes);
    if (!p)
        return CTG_ENOMEM;
    *data = p;
    *cap = want;
    return CTG_OK;
}

/* A key: the level above the node, and two flag bits below it that say what a compacted part
 * found (compact), so that the keys of one node sort together, the raw mention first. */
#define NB_ROOT 1u  /* the lowest node of its group: a bus */
#define NB_INNER 2u /* another node of a group */
#define NB_FLAGS 3u

static uint64_t key_of(uint32_t vl, uint32_t node)
{
    return (uint64_t)vl << 34 | (uint64_t)node << 2;
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

/* Below this many keys, a part is sorted by insertion: a radix pass costs its 256 counters
 * whatever the count, and one level's part holds a few dozen nodes. */
#define NB_SMALL_SORT 64

/* Sorts the `n` keys at `keys` by insertion. */
static void insertion_sort(uint64_t *keys, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t k = keys[i];
        size_t j = i;
        for (; j > 0 && keys[j - 1] > k; j--)
            keys[j] = keys[j - 1];
        keys[j] = k;
    }
}

/* Sorts the `n` keys at `nodes` (a radix sort: most of a key's bytes are the same everywhere,
 * and their passes are skipped). CTG_OK or CTG_ENOMEM. */
static int radix_sort(const ctg_allocator *a, uint64_t *nodes, size_t n)
{
    size_t bytes = n * sizeof(uint64_t);
    uint64_t *tmp, *src = nodes, *dst;

    tmp = dst = ctg_mem_alloc(a, bytes);
    if (!tmp)
        return CTG_ENOMEM;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if (radix_pass(src, dst, n, shift)) {
            uint64_t *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != nodes)
        memcpy(nodes, src, bytes);
    ctg_mem_release(a, tmp, bytes);
    return CTG_OK;
}

/* Sorts nodes[from..] and keeps one key per node, the one of the highest flags. CTG_OK or
 * CTG_ENOMEM. */
static int sort_unique(ctg_nb_graph *g, size_t from)
{
    size_t n = g->node_count - from, kept = from;

    /* Nothing to sort, and no nodes[0] to look at; g->nodes may be NULL, and NULL + 0 is not
     * defined in C either. */
    if (n == 0)
        return CTG_OK;
    if (n < NB_SMALL_SORT)
        insertion_sort(g->nodes + from, n);
    else if (radix_sort(g->alloc, g->nodes + from, n) != CTG_OK)
        return CTG_ENOMEM;
    for (size_t i = from; i < g->node_count; i++) {
        if (kept > from && g->nodes[kept - 1] >> 2 == g->nodes[i] >> 2)
            g->nodes[kept - 1] = g->nodes[i]; /* the flags sort up: the last is the highest */
        else
            g->nodes[kept++] = g->nodes[i];
    }
    g->node_count = kept;
    return CTG_OK;
}

/* The position of `key`, which is among nodes[from..]. */
static size_t position(const ctg_nb_graph *g, size_t from, uint64_t key)
{
    size_t lo = from, hi = g->node_count;

    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->nodes[mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return lo - from;
}

static size_t root(uint32_t *up, size_t i)
{
    while (up[i] != i) {
        up[i] = up[up[i]]; /* path halving */
        i = up[i];
    }
    return i;
}

/* Merges the positions of nodes[from..] through every edge; every group's root is its lowest
 * position, hence its lowest node. */
static void merge_all(const ctg_nb_graph *g, size_t from, uint32_t *up)
{
    for (size_t i = 0; i < g->node_count - from; i++)
        up[i] = (uint32_t)i;
    for (size_t e = 0; e < g->edge_count; e++) {
        size_t a = root(up, position(g, from, g->edges[2 * e]));
        size_t b = root(up, position(g, from, g->edges[2 * e + 1]));
        if (a < b)
            up[b] = (uint32_t)a;
        else if (b < a)
            up[a] = (uint32_t)b;
    }
}

/* Settles what was recorded since the last compaction: its nodes sorted, once each, flagged
 * root or inner through its edges, which are then dropped. A level's edges all come while it
 * is read, so they meet in one part; a node mentioned again later (a branch's terminal) is a
 * root of its own part, and the final merge keeps it inner when its level's part says so. */
static int compact(ctg_nb_graph *g)
{
    size_t from = g->settled, n, bytes;
    uint32_t *up;

    if (sort_unique(g, from) != CTG_OK)
        return CTG_ENOMEM;
    n = g->node_count - from;
    if (n > UINT32_MAX || !ctg_size_mul(n, sizeof(*up), &bytes))
        return CTG_ENOMEM;
    if (n == 0 || !(up = ctg_mem_alloc(g->alloc, bytes)))
        return n == 0 ? CTG_OK : CTG_ENOMEM;
    merge_all(g, from, up);
    for (size_t i = 0; i < n; i++)
        g->nodes[from + i] |= root(up, i) == i ? NB_ROOT : NB_INNER;
    ctg_mem_release(g->alloc, up, bytes);
    g->edge_count = 0;
    g->settled = g->node_count;
    return CTG_OK;
}

int ctg_nb_graph_level_end(ctg_nb_graph *g)
{
    return compact(g);
}

/* Writes "<vl>_<node>" and its NUL into `id` (room for vl_len + 12 bytes); returns its length.
 * By hand: snprintf cost as much as the rest of the bus's creation, on every bus. */
static size_t put_bus_id(char *id, const char *vl, size_t vl_len, uint32_t node)
{
    char digits[10];
    size_t n = 0, len = vl_len + 1;

    do
        digits[n++] = (char)('0' + node % 10);
    while ((node /= 10) != 0);
    memcpy(id, vl, vl_len);
    id[vl_len] = '_';
    while (n > 0)
        id[len++] = digits[--n];
    id[len] = '\0';
    return len;
}

/* Adds "<vl>_<node>" to `vl` (whose id is `vl_len` bytes); a long id gets a buffer of its
 * own. */
static int add_bus(ctg_network *net, const ctg_allocator *a, ctg_net_object *vl, size_t vl_len,
                   uint32_t node, ctg_error *err)
{
    char small[128], *id = small;
    size_t cap = vl_len + 12, len;
    int rc;

    if (cap > sizeof(small) && !(id = ctg_mem_alloc(a, cap)))
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    len = put_bus_id(id, vl->id, vl_len, node);
    rc = ctg_net_add_calculated_bus_obj(net, vl, id, len, err);
    if (id != small)
        ctg_mem_release(a, id, cap);
    return rc;
}

/* The nodes come sorted by level: each level is looked up once, for its first bus. */
static int add_buses(const ctg_nb_graph *g, ctg_network *net, ctg_error *err)
{
    ctg_net_object *v = NULL;
    uint32_t at = UINT32_MAX;
    size_t v_len = 0;

    for (size_t i = 0; i < g->node_count; i++) {
        uint32_t vl = (uint32_t)(g->nodes[i] >> 34), node = (uint32_t)(g->nodes[i] >> 2);
        int rc;

        if ((g->nodes[i] & NB_FLAGS) != NB_ROOT)
            continue;
        if (vl != at) {
            const ctg_net_object *o =
                ctg_network_object_at(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, vl);
            at = vl;
            v_len = o ? strlen(o->id) : 0;
            v = o ? ctg_network_find_mut(net, o->id, v_len) : NULL;
        }
        if (v && (rc = add_bus(net, g->alloc, v, v_len, node, err)) != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

int ctg_nb_graph_add_buses(ctg_nb_graph *g, ctg_network *net, ctg_error *err)
{
    if (compact(g) != CTG_OK || sort_unique(g, 0) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    return add_buses(g, net, err);
}
