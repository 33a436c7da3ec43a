/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_gen_topology_read: what the busbar rule of the generator (network/generate_busbar.c)
 * needs and the equipment table does not keep: the switches and internal connections of
 * node-breaker voltage levels and the node or bus of every terminal, read from the XIIDM
 * file in one more pass, so that the table (and every read that does not generate) does not
 * pay for them. The equipment lost with each busbar is computed once the document has ended,
 * since a branch's terminals come after its voltage levels. */

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "io/source.h"
#include "network/generate_int.h"

/* ---- memory: as the XIIDM importer's (iidm/xiidm.c), each block carrying its allocator ---- */

typedef union block_head {
    struct {
        const ctg_allocator *a;
        size_t size;
    } h;
    max_align_t align;
} block_head;

/* libexpat's hooks take no context: the allocator of the read running on this thread, set
 * around each call into libexpat. */
static _Thread_local const ctg_allocator *current_alloc;
/* Set when a block could not be had: libexpat reports some failed allocations as other
 * errors, which are then CTG_ENOMEM. */
static _Thread_local bool alloc_failed;

static void *xml_malloc(size_t size)
{
    block_head *b;
    size_t total;

    if (!ctg_size_add(size, sizeof(block_head), &total))
        return NULL;
    b = ctg_mem_alloc(current_alloc, total);
    if (b == NULL) {
        alloc_failed = true;
        return NULL;
    }
    b->h.a = current_alloc;
    b->h.size = total;
    return b + 1;
}

static void xml_free(void *p)
{
    block_head *b = p != NULL ? (block_head *)p - 1 : NULL;

    if (b != NULL)
        ctg_mem_release(b->h.a, b, b->h.size);
}

static void *xml_realloc(void *p, size_t size)
{
    block_head *b = p != NULL ? (block_head *)p - 1 : NULL, *n;
    size_t total;

    if (b == NULL)
        return xml_malloc(size);
    if (!ctg_size_add(size, sizeof(block_head), &total))
        return NULL;
    n = ctg_mem_resize(b->h.a, b, b->h.size, total);
    if (n == NULL) {
        alloc_failed = true;
        return NULL;
    }
    n->h.size = total;
    return n + 1;
}

static const XML_Memory_Handling_Suite xml_memory = { xml_malloc, xml_realloc, xml_free };

/* ---- what is recorded ------------------------------------------------------------------- */

enum { K_JOINS = 0, K_BREAKER = 1 }; /* a switch's kind, as the rule sees it */

/* A switch or internal connection of a node-breaker level, or a terminal (obj set) or busbar
 * section (bbs set) at a node. `vl` is the level's type_index. */
typedef struct nb_item {
    uint32_t vl, n1, n2;
    uint8_t kind;
    bool open;
    const ctg_net_object *obj, *bbs;
} nb_item;

typedef struct treader {
    XML_Parser parser;
    const ctg_network *net;
    const ctg_allocator *alloc;
    ctg_error *err;
    int rc;
    const ctg_net_object *vl; /* the voltage level being read */
    nb_item *items;
    size_t len, cap;
    ctg_gen_topology *topo;
} treader;

static int fail(treader *r, int code, const char *fmt, const char *arg)
{
    ctg_error_place at = { 0, 0, 0 };

    if (r->rc != CTG_OK)
        return r->rc;
    if (r->parser != NULL) {
        at.line = (unsigned)XML_GetCurrentLineNumber(r->parser);
        at.column = (unsigned)XML_GetCurrentColumnNumber(r->parser) + 1;
        at.offset = (size_t)XML_GetCurrentByteIndex(r->parser);
        XML_StopParser(r->parser, XML_FALSE);
    }
    return r->rc = ctg_error_set(r->err, code, r->parser != NULL ? &at : NULL, "", fmt, arg);
}

static int push(treader *r, const nb_item *it)
{
    if (r->len == r->cap) {
        size_t cap = r->cap != 0 ? 2 * r->cap : 256;
        void *p = ctg_mem_resize(r->alloc, r->items, r->cap * sizeof *r->items,
                                 cap * sizeof *r->items);

        if (p == NULL)
            return fail(r, CTG_ENOMEM, "%s", "out of memory");
        r->items = p;
        r->cap = cap;
    }
    r->items[r->len++] = *it;
    return CTG_OK;
}

/* ---- the document ------------------------------------------------------------------------ */

static const char *attr(const XML_Char **atts, const char *name)
{
    for (size_t i = 0; atts[i] != NULL; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

/* The element's name without its namespace prefix. */
static const char *local(const char *name)
{
    const char *c = strrchr(name, ':');

    return c != NULL ? c + 1 : name;
}

static bool node_of(const char *s, uint32_t *node)
{
    char *end;
    unsigned long long v;

    if (s == NULL || *s < '0' || *s > '9')
        return false;
    v = strtoull(s, &end, 10);
    if (*end != '\0' || v > UINT32_MAX)
        return false;
    *node = (uint32_t)v;
    return true;
}

static bool node_breaker(const ctg_net_object *vl)
{
    return vl != NULL && vl->container != NULL &&
           vl->container->topology == CTG_TOPOLOGY_NODE_BREAKER;
}

/* A switch or an internal connection of the node-breaker level being read. */
static int on_switch(treader *r, const XML_Char **atts, bool internal)
{
    nb_item it = { 0, 0, 0, K_JOINS, false, NULL, NULL };
    const char *kind = attr(atts, "kind"), *open = attr(atts, "open");

    if (!node_breaker(r->vl))
        return CTG_OK; /* a bus-breaker switch: a bus's equipment is what is on it */
    if (!node_of(attr(atts, "node1"), &it.n1) || !node_of(attr(atts, "node2"), &it.n2))
        return fail(r, CTG_ESCHEMA, "%s needs node1 and node2",
                    internal ? "internalConnection" : "switch");
    it.vl = r->vl->type_index;
    it.kind = !internal && kind != NULL && strcmp(kind, "BREAKER") == 0 ? K_BREAKER : K_JOINS;
    it.open = !internal && open != NULL && strcmp(open, "true") == 0;
    return push(r, &it);
}

/* Links `obj` (and the tie line of a paired boundary line) to the bus `bus_id`. */
static int on_bus_terminal(treader *r, const ctg_net_object *obj, const char *bus_id)
{
    const ctg_net_object *bus = ctg_network_find(r->net, bus_id, strlen(bus_id));

    if (bus == NULL || bus->type != CTG_IDENTIFIABLE_BUS)
        return CTG_OK; /* not a declared bus: nothing to lose with it */
    if (ctg_gen_topo_link(r->topo, bus, obj) != CTG_OK ||
        (obj->type == CTG_IDENTIFIABLE_BOUNDARY_LINE && obj->refs[0] != NULL &&
         ctg_gen_topo_link(r->topo, bus, obj->refs[0]) != CTG_OK))
        return fail(r, CTG_ENOMEM, "%s", "out of memory");
    return CTG_OK;
}

/* Every terminal of the equipment `obj`: `node`/`bus` for one, `nodeN`/`busN` for several. */
static int on_terminals(treader *r, const ctg_net_object *obj, const XML_Char **atts)
{
    static const char *const nodes[] = { "node1", "node2", "node3" };
    static const char *const buses[] = { "bus1", "bus2", "bus3" };
    size_t sides = obj->voltage_levels[2] != NULL ? 3 : obj->voltage_levels[1] != NULL ? 2 : 1;
    int rc = CTG_OK;

    for (size_t s = 0; rc == CTG_OK && s < sides; s++) {
        const ctg_net_object *vl = obj->voltage_levels[s];
        const char *n = attr(atts, sides == 1 ? "node" : nodes[s]);
        const char *b = attr(atts, sides == 1 ? "bus" : buses[s]);
        nb_item it = { 0, 0, 0, K_JOINS, false, obj, NULL };

        if (vl == NULL)
            continue;
        if (node_breaker(vl) && node_of(n, &it.n1)) {
            it.vl = vl->type_index;
            it.bbs = obj->type == CTG_IDENTIFIABLE_BUSBAR_SECTION ? obj : NULL;
            it.obj = it.bbs != NULL ? NULL : obj;
            rc = push(r, &it);
        } else if (!node_breaker(vl) && b != NULL) {
            rc = on_bus_terminal(r, obj, b);
        }
    }
    return rc;
}

/* The element names whose id must be in the network (the equipment with terminals). */
static bool is_equipment(const char *name)
{
    static const char *const names[] = {
        "generator", "load", "battery", "shunt", "shuntCompensator", "staticVarCompensator",
        "danglingLine", "boundaryLine", "lccConverterStation", "vscConverterStation", "line",
        "twoWindingsTransformer", "threeWindingsTransformer", "busbarSection", "ground"
    };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    treader *r = ud;
    const char *n = local(name), *id = attr(atts, "id");
    const ctg_net_object *obj;

    if (r->rc != CTG_OK)
        return;
    if (strcmp(n, "switch") == 0 || strcmp(n, "internalConnection") == 0) {
        on_switch(r, atts, n[0] == 'i');
        return;
    }
    if (id == NULL || !(strcmp(n, "voltageLevel") == 0 || is_equipment(n)))
        return;
    obj = ctg_network_find(r->net, id, strlen(id));
    if (obj == NULL) {
        fail(r, CTG_ESCHEMA, "\"%.64s\" is not in the network (another network's file?)", id);
        return;
    }
    if (strcmp(n, "voltageLevel") == 0)
        r->vl = obj;
    else
        on_terminals(r, obj, atts);
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
    treader *r = ud;

    if (strcmp(local(name), "voltageLevel") == 0)
        r->vl = NULL;
}

static void XMLCALL on_entity_decl(void *ud, const XML_Char *name, int is_param,
                                   const XML_Char *value, int value_len, const XML_Char *base,
                                   const XML_Char *sysid, const XML_Char *pubid,
                                   const XML_Char *notation)
{
    (void)is_param, (void)value, (void)value_len, (void)base, (void)sysid, (void)pubid;
    (void)notation;
    fail(ud, CTG_ESYNTAX, "entity declarations are not accepted (\"%.64s\")", name);
}

/* ---- the busbars' equipment, level by level ------------------------------------------------- */

static int cmp_item(const void *pa, const void *pb)
{
    const nb_item *a = pa, *b = pb;

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
static int level_build(treader *r, const nb_item *it, size_t n, level *lv)
{
    size_t m = 0;

    lv->nodes = ctg_mem_alloc(r->alloc, 2 * n * sizeof *lv->nodes);
    lv->parent = ctg_mem_alloc(r->alloc, 2 * n * sizeof *lv->parent);
    if (lv->nodes == NULL || lv->parent == NULL)
        return fail(r, CTG_ENOMEM, "%s", "out of memory");
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

static void level_free(treader *r, level *lv, size_t n)
{
    ctg_mem_release(r->alloc, lv->nodes, 2 * n * sizeof *lv->nodes);
    ctg_mem_release(r->alloc, lv->parent, 2 * n * sizeof *lv->parent);
}

/* Links every terminal of the component `c` to `bbs`. */
static int link_part(treader *r, const nb_item *it, size_t n, level *lv, uint32_t c,
                     const ctg_net_object *bbs)
{
    for (size_t i = 0; i < n; i++) {
        const ctg_net_object *o = it[i].obj;

        if (o == NULL || root(lv, it[i].n1) != c)
            continue;
        if (ctg_gen_topo_link(r->topo, bbs, o) != CTG_OK ||
            (o->type == CTG_IDENTIFIABLE_BOUNDARY_LINE && o->refs[0] != NULL &&
             ctg_gen_topo_link(r->topo, bbs, o->refs[0]) != CTG_OK))
            return fail(r, CTG_ENOMEM, "%s", "out of memory");
    }
    return CTG_OK;
}

static bool holds_busbar(const nb_item *it, size_t n, level *lv, uint32_t c)
{
    for (size_t i = 0; i < n; i++)
        if (it[i].bbs != NULL && root(lv, it[i].n1) == c)
            return true;
    return false;
}

/* A busbar section's zone, and what lies behind each closed breaker of it (not a coupler). */
static int busbar_of(treader *r, const nb_item *it, size_t n, level *lv, const nb_item *b)
{
    uint32_t zone = root(lv, b->n1);
    int rc = link_part(r, it, n, lv, zone, b->bbs);

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
            rc = link_part(r, it, n, lv, far, b->bbs);
    }
    return rc;
}

static int one_level(treader *r, const nb_item *it, size_t n)
{
    level lv = { NULL, NULL, 0 };
    int rc = level_build(r, it, n, &lv);

    for (size_t i = 0; rc == CTG_OK && i < n; i++)
        if (it[i].bbs != NULL)
            rc = busbar_of(r, it, n, &lv, &it[i]);
    level_free(r, &lv, n);
    return rc;
}

static int resolve_levels(treader *r)
{
    int rc = CTG_OK;

    if (r->len == 0) /* no node-breaker level: qsort may not be given NULL */
        return CTG_OK;
    qsort(r->items, r->len, sizeof *r->items, cmp_item);
    for (size_t i = 0, j; rc == CTG_OK && i < r->len; i = j) {
        for (j = i + 1; j < r->len && r->items[j].vl == r->items[i].vl; j++)
            ;
        rc = one_level(r, r->items + i, j - i);
    }
    return rc;
}

/* ---- the read ------------------------------------------------------------------------------ */

#define FEED_CHUNK ((size_t)1 << 16)

/* Whether the first significant byte (after a BOM and whitespace) of `p` is '{': JIIDM. */
static bool is_json(const char *p, size_t n)
{
    size_t i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i < n && p[i] == '{';
}

static int parse_failure(treader *r)
{
    enum XML_Error e = XML_GetErrorCode(r->parser);

    if (r->rc != CTG_OK)
        return r->rc;
    if (e == XML_ERROR_NO_MEMORY || alloc_failed)
        return fail(r, CTG_ENOMEM, "%s", "out of memory");
    return fail(r, CTG_ESYNTAX, "malformed XML: %s", XML_ErrorString(e));
}

static int feed(treader *r, const char *data, size_t n, bool last, bool first)
{
    if (first && is_json(data, n))
        return fail(r, CTG_EUNSUPPORTED, "%s", "the busbar topology is read from XIIDM only");
    current_alloc = r->alloc;
    if (XML_Parse(r->parser, data, (int)n, last) != XML_STATUS_OK)
        return parse_failure(r);
    return r->rc;
}

static int feed_all(treader *r, const ctg_lex_source *src)
{
    char *buf;
    size_t got, fed = 0;
    int rc = CTG_OK;

    for (size_t off = 0; src->refill == NULL && rc == CTG_OK; off += FEED_CHUNK) {
        size_t n = src->len - off < FEED_CHUNK ? src->len - off : FEED_CHUNK;

        rc = feed(r, src->data + off, n, off + n == src->len, off == 0);
        if (off + n == src->len)
            return rc;
    }
    buf = ctg_mem_alloc(r->alloc, FEED_CHUNK);
    if (src->refill != NULL && buf == NULL)
        return fail(r, CTG_ENOMEM, "%s", "out of memory");
    do {
        got = 0;
        rc = src->refill(src->ctx, buf, FEED_CHUNK, &got, r->err);
        if (rc != CTG_OK)
            r->rc = rc = ctg_error_set(r->err, rc, NULL, "", NULL);
        else
            rc = feed(r, buf, got, got == 0, fed == 0);
        fed += got;
    } while (rc == CTG_OK && got != 0);
    ctg_mem_release(r->alloc, buf, FEED_CHUNK);
    return rc;
}

static int read_topology(treader *r, const ctg_lex_source *src)
{
    current_alloc = r->alloc;
    alloc_failed = false;
    r->parser = XML_ParserCreate_MM(NULL, &xml_memory, NULL);
    current_alloc = NULL;
    if (r->parser == NULL)
        return fail(r, CTG_ENOMEM, "%s", "out of memory");
    XML_SetUserData(r->parser, r);
    XML_SetElementHandler(r->parser, on_start, on_end);
    XML_SetEntityDeclHandler(r->parser, on_entity_decl);
    XML_SetParamEntityParsing(r->parser, XML_PARAM_ENTITY_PARSING_NEVER);
    return feed_all(r, src);
}

static int read_input(treader *r, const ctg_source *src)
{
    ctg_input *in = NULL;
    char own[64];
    int rc = ctg_input_open(&in, src, r->alloc, r->err);

    if (rc != CTG_OK) {
        ctg_error_set_plain(r->err, ctg_source_name(src, own, sizeof own), rc, NULL);
        return rc;
    }
    rc = read_topology(r, ctg_input_lex_source(in));
    current_alloc = r->alloc;
    if (r->parser != NULL)
        XML_ParserFree(r->parser);
    r->parser = NULL;
    if (rc == CTG_OK)
        rc = resolve_levels(r);
    if (rc != CTG_OK)
        ctg_error_set_source(r->err, ctg_input_name(in));
    ctg_input_close(in);
    return rc;
}

int ctg_gen_topology_read(ctg_gen_topology **out, const ctg_network *net,
                          const ctg_source *src, const ctg_allocator *alloc, ctg_error *err)
{
    ctg_error local;
    treader r;
    int rc;

    err = err != NULL ? err : &local;
    if (out == NULL || net == NULL || src == NULL)
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL, "NULL out, network or source");
    *out = NULL;
    memset(&r, 0, sizeof r);
    r.net = net;
    r.err = err;
    if (ctg_gen_topo_new(&r.topo, net, alloc) != CTG_OK)
        return ctg_error_set_plain(err, "<input>", CTG_ENOMEM, "out of memory");
    r.alloc = r.topo->alloc;
    rc = read_input(&r, src);
    ctg_mem_release(r.alloc, r.items, r.cap * sizeof *r.items);
    if (rc != CTG_OK) {
        ctg_gen_topology_free(r.topo);
        return rc;
    }
    ctg_gen_topo_finish(r.topo);
    *out = r.topo;
    return CTG_OK;
}
