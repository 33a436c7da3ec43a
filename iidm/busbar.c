/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_gen_topology_read: what the busbar rule of the generator (network/generate_busbar.c)
 * needs and the equipment table does not keep: the switches and internal connections of
 * node-breaker voltage levels and the node or bus of every terminal, read from the network's
 * file (XIIDM or JIIDM) in one more pass, so that the table (and every read that does not
 * generate) does not pay for them. This file is the builder both readers feed (busbar.h) and
 * the entry point, which tells the formats apart as the importers do. */

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "iidm/busbar.h"
#include "iidm/iidm_internal.h"

/* ---- what is recorded ------------------------------------------------------------------- */

enum { K_JOINS = 0, K_BREAKER = 1 }; /* a switch's kind, as the rule sees it */

/* A switch or internal connection of a node-breaker level, or a terminal (obj set) or busbar
 * section (bbs set) at a node. `vl` is the level's type_index. */
struct ctg_bb_item {
    uint32_t vl, n1, n2;
    uint8_t kind;
    bool open;
    const ctg_net_object *obj, *bbs;
};

static int push(ctg_bb *b, const ctg_bb_item *it)
{
    if (b->len == b->cap) {
        size_t cap = b->cap != 0 ? 2 * b->cap : 256;
        void *p =
            ctg_mem_resize(b->alloc, b->items, b->cap * sizeof *b->items, cap * sizeof *b->items);

        if (p == NULL)
            return CTG_ENOMEM;
        b->items = p;
        b->cap = cap;
    }
    b->items[b->len++] = *it;
    return CTG_OK;
}

bool ctg_bb_node_breaker(const ctg_net_object *vl)
{
    return vl != NULL && vl->container != NULL &&
           vl->container->topology == CTG_TOPOLOGY_NODE_BREAKER;
}

size_t ctg_bb_sides(const ctg_net_object *obj)
{
    return obj->voltage_levels[2] != NULL ? 3 : obj->voltage_levels[1] != NULL ? 2 : 1;
}

int ctg_bb_switch(ctg_bb *b, const ctg_net_object *vl, uint32_t n1, uint32_t n2, bool breaker,
                  bool open)
{
    ctg_bb_item it = { 0, n1, n2, breaker ? K_BREAKER : K_JOINS, open, NULL, NULL };

    if (!ctg_bb_node_breaker(vl))
        return CTG_OK;
    it.vl = vl->type_index;
    return push(b, &it);
}

int ctg_bb_node(ctg_bb *b, const ctg_net_object *obj, size_t side, uint32_t node)
{
    const ctg_net_object *vl = side < 3 ? obj->voltage_levels[side] : NULL;
    ctg_bb_item it = { 0, node, 0, K_JOINS, false, obj, NULL };

    if (!ctg_bb_node_breaker(vl))
        return CTG_OK;
    it.vl = vl->type_index;
    /* A section is a busbar and a terminal of its own zone, as every other one in it. */
    if (obj->type == CTG_IDENTIFIABLE_BUSBAR_SECTION)
        it.bbs = obj;
    return push(b, &it);
}

/* Links `member` to `busbar`, and what it brings: the tie line of a paired boundary line, the
 * HVDC line of a converter station. */
static int link(ctg_bb *b, const ctg_net_object *busbar, const ctg_net_object *member)
{
    bool brings = member->type == CTG_IDENTIFIABLE_BOUNDARY_LINE ||
                  member->type == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION;

    if (ctg_gen_topo_link(b->topo, busbar, member) != CTG_OK ||
        (brings && member->refs[0] != NULL &&
         ctg_gen_topo_link(b->topo, busbar, member->refs[0]) != CTG_OK))
        return CTG_ENOMEM;
    return CTG_OK;
}

int ctg_bb_bus(ctg_bb *b, const ctg_net_object *obj, size_t side, const char *bus, size_t len)
{
    const ctg_net_object *vl = side < 3 ? obj->voltage_levels[side] : NULL;
    const ctg_net_object *o;

    if (vl == NULL || ctg_bb_node_breaker(vl))
        return CTG_OK;
    o = ctg_network_find(b->net, bus, len);
    if (o == NULL || o->type != CTG_IDENTIFIABLE_BUS)
        return CTG_OK; /* not a declared bus: nothing to lose with it */
    return link(b, o, obj);
}

/* ---- the busbars' equipment, level by level ------------------------------------------------- */

static int cmp_item(const void *pa, const void *pb)
{
    const ctg_bb_item *a = pa, *b = pb;

    return a->vl < b->vl ? -1 : a->vl > b->vl;
}

/* The nodes of one level, sorted and unique, with a union-find over them. */
typedef struct level {
    uint32_t *nodes, *parent;
    size_t n;
} level;

static size_t index_of(const level *lv, uint32_t node)
{
    size_t lo = 0, hi = lv->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (lv->nodes[mid] < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint32_t root(level *lv, uint32_t node)
{
    uint32_t i = (uint32_t)index_of(lv, node);

    while (lv->parent[i] != i)
        i = lv->parent[i] = lv->parent[lv->parent[i]];
    return i;
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

    return a < b ? -1 : a > b;
}

/* The nodes of items [it, it + n) joined through their closed non-breaker edges. */
static int level_build(ctg_bb *b, const ctg_bb_item *it, size_t n, level *lv)
{
    size_t m = 0;

    lv->nodes = ctg_mem_alloc(b->alloc, 2 * n * sizeof *lv->nodes);
    lv->parent = ctg_mem_alloc(b->alloc, 2 * n * sizeof *lv->parent);
    if (lv->nodes == NULL || lv->parent == NULL)
        return CTG_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        lv->nodes[m++] = it[i].n1;
        if (it[i].obj == NULL && it[i].bbs == NULL)
            lv->nodes[m++] = it[i].n2;
    }
    qsort(lv->nodes, m, sizeof *lv->nodes, cmp_u32);
    lv->n = 0;
    for (size_t i = 0; i < m; i++)
        if (lv->n == 0 || lv->nodes[lv->n - 1] != lv->nodes[i])
            lv->nodes[lv->n++] = lv->nodes[i];
    for (size_t i = 0; i < lv->n; i++)
        lv->parent[i] = (uint32_t)i;
    for (size_t i = 0; i < n; i++)
        if (it[i].obj == NULL && it[i].bbs == NULL && !it[i].open && it[i].kind == K_JOINS)
            lv->parent[root(lv, it[i].n1)] = root(lv, it[i].n2);
    return CTG_OK;
}

static void level_free(ctg_bb *b, level *lv, size_t n)
{
    ctg_mem_release(b->alloc, lv->nodes, 2 * n * sizeof *lv->nodes);
    ctg_mem_release(b->alloc, lv->parent, 2 * n * sizeof *lv->parent);
}

/* Links every terminal of the component `c` to `bbs`. */
static int link_part(ctg_bb *b, const ctg_bb_item *it, size_t n, level *lv, uint32_t c,
                     const ctg_net_object *bbs)
{
    for (size_t i = 0; i < n; i++) {
        const ctg_net_object *o = it[i].obj;

        if (o == NULL || root(lv, it[i].n1) != c)
            continue;
        if (link(b, bbs, o) != CTG_OK)
            return CTG_ENOMEM;
    }
    return CTG_OK;
}

static bool holds_busbar(const ctg_bb_item *it, size_t n, level *lv, uint32_t c)
{
    for (size_t i = 0; i < n; i++)
        if (it[i].bbs != NULL && root(lv, it[i].n1) == c)
            return true;
    return false;
}

/* A busbar section's zone, and what lies behind each closed breaker of it (not a coupler). */
static int busbar_of(ctg_bb *b, const ctg_bb_item *it, size_t n, level *lv, const ctg_bb_item *bb)
{
    uint32_t zone = root(lv, bb->n1);
    int rc = link_part(b, it, n, lv, zone, bb->bbs);

    for (size_t i = 0; rc == CTG_OK && i < n; i++) {
        uint32_t c1, c2, far;

        if (it[i].obj != NULL || it[i].bbs != NULL || it[i].open || it[i].kind != K_BREAKER)
            continue;
        c1 = root(lv, it[i].n1);
        c2 = root(lv, it[i].n2);
        if ((c1 == zone) == (c2 == zone))
            continue;
        far = c1 == zone ? c2 : c1;
        if (!holds_busbar(it, n, lv, far))
            rc = link_part(b, it, n, lv, far, bb->bbs);
    }
    return rc;
}

static int one_level(ctg_bb *b, const ctg_bb_item *it, size_t n)
{
    level lv = { NULL, NULL, 0 };
    int rc = level_build(b, it, n, &lv);

    for (size_t i = 0; rc == CTG_OK && i < n; i++)
        if (it[i].bbs != NULL)
            rc = busbar_of(b, it, n, &lv, &it[i]);
    level_free(b, &lv, n);
    return rc;
}

int ctg_bb_finish(ctg_bb *b)
{
    int rc = CTG_OK;

    if (b->len == 0) /* no node-breaker level: qsort may not be given NULL */
        return CTG_OK;
    qsort(b->items, b->len, sizeof *b->items, cmp_item);
    for (size_t i = 0, j; rc == CTG_OK && i < b->len; i = j) {
        for (j = i + 1; j < b->len && b->items[j].vl == b->items[i].vl; j++)
            ;
        rc = one_level(b, b->items + i, j - i);
    }
    return rc;
}

/* ---- the read ------------------------------------------------------------------------------ */

static int read_format(void *ctx, const ctg_lex_source *src, ctg_iidm_format f, ctg_error *err)
{
    ctg_bb *b = ctx;

    return f == CTG_IIDM_JSON ? ctg_bb_read_json(b, src, err) : ctg_bb_read_xml(b, src, err);
}

static int read_input(ctg_bb *b, const ctg_source *src, ctg_error *err)
{
    ctg_input *in = NULL;
    char own[64];
    int rc = ctg_input_open(&in, src, b->alloc, err);

    if (rc != CTG_OK) {
        ctg_error_set_plain(err, ctg_source_name(src, own, sizeof own), rc, NULL);
        return rc;
    }
    rc = ctg_iidm_sniffed(ctg_input_lex_source(in), b->alloc, read_format, b, err);
    if (rc == CTG_OK && ctg_bb_finish(b) != CTG_OK)
        rc = ctg_error_set(err, CTG_ENOMEM, NULL, "", "%s", "out of memory");
    if (rc != CTG_OK)
        ctg_error_set_source(err, ctg_input_name(in));
    ctg_input_close(in);
    return rc;
}

int ctg_gen_topology_read(ctg_gen_topology **out, const ctg_network *net, const ctg_source *src,
                          const ctg_allocator *alloc, ctg_error *err)
{
    ctg_error local;
    ctg_bb b;
    int rc;

    err = err != NULL ? err : &local;
    if (out == NULL || net == NULL || src == NULL)
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL, "NULL out, network or source");
    *out = NULL;
    memset(&b, 0, sizeof b);
    b.net = net;
    if (ctg_gen_topo_new(&b.topo, net, alloc) != CTG_OK)
        return ctg_error_set_plain(err, "<input>", CTG_ENOMEM, "out of memory");
    b.alloc = b.topo->alloc;
    rc = read_input(&b, src, err);
    ctg_mem_release(b.alloc, b.items, b.cap * sizeof *b.items);
    if (rc != CTG_OK) {
        ctg_gen_topology_free(b.topo);
        return rc;
    }
    ctg_gen_topo_finish(b.topo);
    *out = b.topo;
    return CTG_OK;
}
