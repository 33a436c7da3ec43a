/* SPDX-License-Identifier: MPL-2.0 */
/* The JIIDM reader of the busbar topology (iidm/busbar.h): a walk over the lexer's tokens, as
 * the JIIDM importer's (iidm/jiidm*.c), through json/reader.h's path frames, array reader and
 * errors. It descends only into the containers (the network, subnetworks, substations, voltage
 * levels, their nodeBreakerTopology and busBreakerTopology) and the arrays of the elements the
 * builder needs: switches (node1, node2, kind, open), internal connections (node1, node2) and
 * the equipment with terminals (id, node or nodeN, bus or busN). Everything else is skipped
 * unread. A voltage level is looked up at its first child, its attributes coming first as in
 * every file PowSyBl writes; any other element at its end. */

#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/error_set.h"
#include "iidm/busbar.h"
#include "json/reader.h"

/* What an element is, told by the array (or member) it stands in. */
typedef enum jb_kind { JB_CONTAINER = 0, JB_VLEVEL, JB_EQUIPMENT, JB_SWITCH, JB_INTERNAL } jb_kind;

typedef struct jb_array {
    const char *name;
    unsigned char kind; /* jb_kind of its items */
} jb_array;

/* The element arrays walked into: those of XIIDM's reader (busbar_xml.c), by their JSON names
 * (1.16 renamed shunts and danglingLines: both spellings are the same elements). */
static const jb_array arrays[] = {
    { "substations", JB_CONTAINER },
    { "networks", JB_CONTAINER },
    { "voltageLevels", JB_VLEVEL },
    { "busbarSections", JB_EQUIPMENT },
    { "switches", JB_SWITCH },
    { "internalConnections", JB_INTERNAL },
    { "generators", JB_EQUIPMENT },
    { "batteries", JB_EQUIPMENT },
    { "loads", JB_EQUIPMENT },
    { "shunts", JB_EQUIPMENT },
    { "shuntCompensators", JB_EQUIPMENT },
    { "danglingLines", JB_EQUIPMENT },
    { "boundaryLines", JB_EQUIPMENT },
    { "staticVarCompensators", JB_EQUIPMENT },
    { "vscConverterStations", JB_EQUIPMENT },
    { "lccConverterStations", JB_EQUIPMENT },
    { "grounds", JB_EQUIPMENT },
    { "voltageSourceConverters", JB_EQUIPMENT }, /* an AC/DC converter, 1.15 on */
    { "lines", JB_EQUIPMENT },
    { "twoWindingsTransformers", JB_EQUIPMENT },
    { "threeWindingsTransformers", JB_EQUIPMENT },
    { "tieLines", JB_EQUIPMENT }, /* IIDM 1.0 to 1.9: its halves' terminals (terminals) */
};

/* The members kept: an index into `keys`. Node and bus slots: 0 for `node`/`bus`, s for
 * `nodeS`/`busS`. */
enum { KY_ID = 0, KY_NODE, KY_BUS = KY_NODE + 4, KY_KIND = KY_BUS + 4, KY_OPEN, KY_COUNT };

static const char *const keys[KY_COUNT] = {
    [KY_ID] = "id",          [KY_NODE] = "node", [KY_NODE + 1] = "node1", [KY_NODE + 2] = "node2",
    [KY_NODE + 3] = "node3", [KY_BUS] = "bus",   [KY_BUS + 1] = "bus1",   [KY_BUS + 2] = "bus2",
    [KY_BUS + 3] = "bus3",   [KY_KIND] = "kind", [KY_OPEN] = "open",
};

typedef struct jreader {
    ctg_reader rd; /* first: the array items' handler is handed it */
    ctg_bb *b;
    ctg_arena *scratch;       /* the strings of the element being read */
    const ctg_net_object *vl; /* the voltage level being read, once looked up */
    unsigned items;           /* jb_kind of the items of the array being read */
} jreader;

/* One element between its '{' and its '}'. */
typedef struct jb_el {
    unsigned kind;
    bool settled;        /* looked up (a voltage level: at its first child) */
    bool seen[KY_COUNT]; /* the members read */
    const char *s[KY_COUNT];
    size_t len[KY_COUNT];
    uint32_t node[4];
    bool breaker, open;
    ctg_mark start, id_at;
    const ctg_net_object *obj, *outer_vl;
} jb_el;

static int read_element(jreader *j, unsigned kind);

/* ---- members ---------------------------------------------------------------------------- */

static bool key_is(const ctg_token *k, const char *name)
{
    return k->len == strlen(name) && memcmp(k->str, name, k->len) == 0;
}

/* Whether `kind` keeps member `key`. */
static bool kept(unsigned kind, int key)
{
    switch (kind) {
    case JB_VLEVEL:
        return key == KY_ID;
    case JB_EQUIPMENT:
        return key < KY_KIND;
    case JB_SWITCH:
        return key == KY_NODE + 1 || key == KY_NODE + 2 || key == KY_KIND || key == KY_OPEN;
    case JB_INTERNAL:
        return key == KY_NODE + 1 || key == KY_NODE + 2;
    default:
        return false;
    }
}

static int key_of(unsigned kind, const ctg_token *k)
{
    for (int i = 0; i < KY_COUNT; i++)
        if (key_is(k, keys[i]))
            return kept(kind, i) ? i : -1;
    return -1;
}

/* The element array `k` names in an element of `kind` (only containers hold any). */
static const jb_array *array_of(unsigned kind, const ctg_token *k)
{
    if (kind != JB_CONTAINER && kind != JB_VLEVEL)
        return NULL;
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (key_is(k, arrays[i].name))
            return &arrays[i];
    return NULL;
}

/* The topology object `k` names in a voltage level, NULL when it names none. */
static const char *topology_of(unsigned kind, const ctg_token *k)
{
    if (kind != JB_VLEVEL)
        return NULL;
    return key_is(k, "nodeBreakerTopology")  ? "nodeBreakerTopology"
           : key_is(k, "busBreakerTopology") ? "busBreakerTopology"
                                             : NULL;
}

static int read_node(jreader *j, jb_el *el, int key)
{
    ctg_reader *rd = &j->rd;
    int64_t v;

    if (rd->tok.type != CTG_TOK_NUMBER)
        return ctg_reader_type_error(rd, "integer");
    if (!rd->tok.is_integer || !ctg_parse_int64(rd->tok.raw, rd->tok.raw_len, &v) || v < 0 ||
        v > (int64_t)UINT32_MAX)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" must be a node number (0 to %lu)",
                               keys[key], (unsigned long)UINT32_MAX);
    el->node[key - KY_NODE] = (uint32_t)v;
    return CTG_OK;
}

/* A member kept, rd.tok on its value. */
static int attribute(jreader *j, jb_el *el, int key)
{
    ctg_reader *rd = &j->rd;
    int rc = CTG_OK;

    if (key >= KY_NODE && key < KY_BUS) {
        rc = read_node(j, el, key);
    } else if (key == KY_OPEN) {
        if (rd->tok.type != CTG_TOK_TRUE && rd->tok.type != CTG_TOK_FALSE)
            return ctg_reader_type_error(rd, "boolean");
        el->open = rd->tok.type == CTG_TOK_TRUE;
    } else if (key == KY_KIND) {
        if (rd->tok.type != CTG_TOK_STRING)
            return ctg_reader_type_error(rd, "string");
        el->breaker = rd->tok.len == 7 && memcmp(rd->tok.str, "BREAKER", 7) == 0;
    } else {
        el->len[key] = rd->tok.len;
        if (key == KY_ID)
            el->id_at = ctg_reader_mark(rd);
        rc = ctg_read_string(rd, &el->s[key], keys[key]);
    }
    el->seen[key] = rc == CTG_OK;
    return rc;
}

/* ---- elements --------------------------------------------------------------------------- */

/* Looks the element up by its id, once; a voltage level becomes the one being read. */
static int settle(jreader *j, jb_el *el)
{
    ctg_reader *rd = &j->rd;
    const ctg_net_object *o;

    if (el->settled || (el->kind != JB_VLEVEL && el->kind != JB_EQUIPMENT))
        return CTG_OK;
    el->settled = true;
    if (!el->seen[KY_ID])
        return CTG_OK; /* as in XIIDM: an element without an id is nobody's */
    o = ctg_network_find(j->b->net, el->s[KY_ID], el->len[KY_ID]);
    ctg_reader_top_frame(rd)->key = NULL;
    if (o == NULL)
        return ctg_reader_fail_at(rd, &el->id_at, "id", CTG_ESCHEMA,
                                  "\"%.64s\" is not in the network (another network's file?)",
                                  el->s[KY_ID]);
    el->obj = o;
    if (el->kind == JB_VLEVEL)
        j->vl = o;
    return CTG_OK;
}

/* The terminal `slot` of the element (0: node/bus, s: nodeS/busS) as side `side` of `obj`. */
static int terminal(jreader *j, const jb_el *el, const ctg_net_object *obj, size_t side,
                    size_t slot)
{
    if (ctg_bb_node_breaker(obj->voltage_levels[side]))
        return el->seen[KY_NODE + slot] ? ctg_bb_node(j->b, obj, side, el->node[slot]) : CTG_OK;
    if (!el->seen[KY_BUS + slot])
        return CTG_OK;
    return ctg_bb_bus(j->b, obj, side, el->s[KY_BUS + slot], el->len[KY_BUS + slot]);
}

/* Every terminal of the equipment: `node`/`bus` for one, `nodeN`/`busN` for several. A tie
 * line of IIDM 1.0 to 1.9 holds its halves' (node1 for half 1, ...): each is its half's, a
 * boundary line paired in the tie line, which brings the tie line; a later one has none. */
static int terminals(jreader *j, const jb_el *el)
{
    const ctg_net_object *obj = el->obj;
    bool tie = obj->type == CTG_IDENTIFIABLE_TIE_LINE;
    size_t sides = tie ? 2 : ctg_bb_sides(obj);
    int rc = CTG_OK;

    for (size_t s = 0; rc == CTG_OK && s < sides; s++) {
        const ctg_net_object *half = tie ? obj->refs[s] : NULL;

        if (!tie)
            rc = terminal(j, el, obj, s, sides == 1 ? 0 : s + 1);
        else if (half != NULL && half->type == CTG_IDENTIFIABLE_BOUNDARY_LINE)
            rc = terminal(j, el, half, 0, s + 1);
    }
    return rc;
}

/* What the element gives the builder, at its end. */
static int finish(jreader *j, jb_el *el)
{
    bool sw = el->kind == JB_SWITCH;
    int rc = settle(j, el);

    if (rc != CTG_OK)
        return rc;
    if (el->kind == JB_EQUIPMENT && el->obj != NULL)
        rc = terminals(j, el);
    if ((sw || el->kind == JB_INTERNAL) && ctg_bb_node_breaker(j->vl)) {
        if (!el->seen[KY_NODE + 1] || !el->seen[KY_NODE + 2])
            return ctg_reader_fail_at(&j->rd, &el->start, NULL, CTG_ESCHEMA,
                                      "%s needs node1 and node2",
                                      sw ? "switch" : "internalConnection");
        rc =
            ctg_bb_switch(j->b, j->vl, el->node[1], el->node[2], sw && el->breaker, sw && el->open);
    }
    /* The enclosing elements need none of the strings any more: a voltage level has been
     * looked up before its first child. */
    ctg_arena_reset(j->scratch);
    return rc == CTG_OK ? CTG_OK : ctg_reader_nomem(&j->rd);
}

static int read_item(ctg_reader *rd, void *out)
{
    jreader *j = (jreader *)(void *)rd;

    (void)out;
    return read_element(j, j->items);
}

/* The items are read in place: nothing is kept of them, so the item struct is empty. */
CTG_HANDLER_DEFINE(static, item_handler, "busbar item", char, read_item);

static int keep_nothing(ctg_reader *rd, void *item, void *ctx)
{
    (void)rd, (void)item, (void)ctx;
    return CTG_OK;
}

/* The array at rd.tok, its items elements of `kind`, through the project's one array reader
 * (its path frame, index and errors). */
static int read_elements(jreader *j, unsigned kind)
{
    ctg_item_sink sink = { keep_nothing, NULL, NULL };
    unsigned outer = j->items;
    size_t count;
    int rc;

    j->items = kind;
    rc = ctg_read_array_to(&j->rd, &item_handler, &sink, &count);
    j->items = outer;
    return rc;
}

/* One member of `el`, its key in m (valid until the value is read). */
static int member(jreader *j, jb_el *el, const ctg_lex_member *m)
{
    ctg_reader *rd = &j->rd;
    ctg_path_frame *f = ctg_reader_top_frame(rd);
    int key = key_of(el->kind, &m->key);
    const jb_array *a = key < 0 ? array_of(el->kind, &m->key) : NULL;
    const char *topo = key < 0 && a == NULL ? topology_of(el->kind, &m->key) : NULL;
    int rc;

    f->key = key >= 0 ? keys[key] : a != NULL ? a->name : topo;
    f->key_len = f->key != NULL ? m->key.len : 0;
    if (f->key == NULL) /* nothing the builder needs */
        return m->value_ready ? CTG_OK : ctg_lexer_skip_next(&rd->lex, &rd->tok, rd->err);
    if (!m->value_ready && (rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    if (key >= 0)
        return attribute(j, el, key);
    if ((rc = settle(j, el)) != CTG_OK)
        return rc;
    f->key = a != NULL ? a->name : topo;
    if (a != NULL)
        return read_elements(j, a->kind);
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    return read_element(j, JB_CONTAINER);
}

/* The element whose '{' is rd.tok, of `kind`; returns with rd.tok on its '}'. */
static int read_element(jreader *j, unsigned kind)
{
    ctg_reader *rd = &j->rd;
    ctg_lex_member m;
    jb_el el;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    memset(&el, 0, sizeof el);
    el.kind = kind;
    el.start = ctg_reader_mark(rd);
    el.outer_vl = j->vl;
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    while ((rc = ctg_lexer_member(&rd->lex, NULL, 0, &m, &rd->tok, rd->err)) == CTG_LEX_KEY) {
        if ((rc = member(j, &el, &m)) != CTG_OK)
            return rc;
        ctg_reader_top_frame(rd)->key = NULL;
    }
    if (rc != CTG_LEX_OTHER)
        return rc;
    if ((rc = finish(j, &el)) != CTG_OK)
        return rc;
    ctg_reader_pop_frame(rd);
    j->vl = el.outer_vl;
    return CTG_OK;
}

/* ---- the read ------------------------------------------------------------------------------ */

static int read_document(jreader *j)
{
    ctg_reader *rd = &j->rd;
    int rc;

    if ((rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    if ((rc = read_element(j, JB_CONTAINER)) != CTG_OK)
        return rc;
    return ctg_reader_next(rd); /* only whitespace may follow */
}

int ctg_bb_read_json(ctg_bb *b, const ctg_lex_source *src, ctg_error *err)
{
    ctg_read_options ro = CTG_READ_OPTIONS_INIT;
    jreader j;
    int rc;

    memset(&j, 0, sizeof j);
    j.b = b;
    j.scratch = ctg_arena_new(b->alloc);
    if (j.scratch == NULL || ctg_reader_init(&j.rd, src, &ro, j.scratch, err) != CTG_OK)
        rc = ctg_error_set(err, CTG_ENOMEM, NULL, "", "%s", "out of memory");
    else if ((rc = read_document(&j)) != CTG_OK && !j.rd.failed)
        ctg_reader_path(&j.rd, err->path); /* the lexer's errors have no path */
    ctg_reader_dispose(&j.rd);
    ctg_arena_release(j.scratch);
    return rc;
}
