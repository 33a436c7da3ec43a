/* SPDX-License-Identifier: MPL-2.0 */
/* The XIIDM reader of the busbar topology (iidm/busbar.h): a libexpat parser, its memory
 * through ctg's allocator (iidm/expat_mem.h), that hands the builder each switch, internal
 * connection and terminal of the document. Namespaces are not resolved: an element is told
 * by its local name, whatever its prefix. */

#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "iidm/busbar.h"
#include "iidm/expat_mem.h"

typedef struct treader {
    XML_Parser parser;
    ctg_bb *b;
    ctg_error *err;
    int rc;
    const ctg_net_object *vl; /* the voltage level being read */
} treader;

static int fail(treader *r, int code, const char *fmt, const char *arg)
{
    ctg_error_place at = { 0, 0, 0 };

    if (r->rc != CTG_OK)
        return r->rc;
    at.line = (unsigned)XML_GetCurrentLineNumber(r->parser);
    at.column = (unsigned)XML_GetCurrentColumnNumber(r->parser) + 1;
    at.offset = (size_t)XML_GetCurrentByteIndex(r->parser);
    XML_StopParser(r->parser, XML_FALSE);
    return r->rc = ctg_error_set(r->err, code, &at, "", fmt, arg);
}

/* A builder's refusal (it only runs out of memory), at the current place. */
static int built(treader *r, int rc)
{
    return rc == CTG_OK ? CTG_OK : fail(r, CTG_ENOMEM, "%s", "out of memory");
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

/* A switch or an internal connection of the level being read. */
static int on_switch(treader *r, const XML_Char **atts, bool internal)
{
    const char *kind = attr(atts, "kind"), *open = attr(atts, "open");
    uint32_t n1, n2;

    if (!ctg_bb_node_breaker(r->vl))
        return CTG_OK; /* a bus-breaker switch: a bus's equipment is what is on it */
    if (!node_of(attr(atts, "node1"), &n1) || !node_of(attr(atts, "node2"), &n2))
        return fail(r, CTG_ESCHEMA, "%s needs node1 and node2",
                    internal ? "internalConnection" : "switch");
    return built(r, ctg_bb_switch(r->b, r->vl, n1, n2,
                                  !internal && kind != NULL && strcmp(kind, "BREAKER") == 0,
                                  !internal && open != NULL && strcmp(open, "true") == 0));
}

/* The terminal of side `side` of `obj`, at node `n` or bus `b` (attribute values; NULL when
 * absent) as its voltage level's topology reads it. */
static int terminal(treader *r, const ctg_net_object *obj, size_t side, const char *n,
                    const char *b)
{
    uint32_t node;

    if (ctg_bb_node_breaker(obj->voltage_levels[side]))
        return node_of(n, &node) ? ctg_bb_node(r->b, obj, side, node) : CTG_OK;
    return b != NULL ? ctg_bb_bus(r->b, obj, side, b, strlen(b)) : CTG_OK;
}

/* Every terminal of the equipment `obj`: `node`/`bus` for one, `nodeN`/`busN` for several. */
static int on_terminals(treader *r, const ctg_net_object *obj, const XML_Char **atts)
{
    static const char *const nodes[] = { "node1", "node2", "node3" };
    static const char *const buses[] = { "bus1", "bus2", "bus3" };
    size_t sides = ctg_bb_sides(obj);
    int rc = CTG_OK;

    for (size_t s = 0; rc == CTG_OK && s < sides; s++)
        rc = terminal(r, obj, s, attr(atts, sides == 1 ? "node" : nodes[s]),
                      attr(atts, sides == 1 ? "bus" : buses[s]));
    return built(r, rc);
}

/* A tie line of IIDM 1.0 to 1.9, which carries its halves' terminals (`node1`/`bus1` for
 * half 1, ...): each is the terminal of its half, a boundary line paired in the tie line,
 * which brings the tie line. A later one names its halves (danglingLineId1, ...), whose own
 * elements hold the terminals: it has none of these attributes, and nothing is done. */
static int on_old_tie_line(treader *r, const ctg_net_object *obj, const XML_Char **atts)
{
    static const char *const nodes[] = { "node1", "node2" };
    static const char *const buses[] = { "bus1", "bus2" };
    int rc = CTG_OK;

    for (size_t s = 0; rc == CTG_OK && s < 2; s++) {
        const ctg_net_object *half = obj->refs[s];

        if (half != NULL && half->type == CTG_IDENTIFIABLE_BOUNDARY_LINE)
            rc = terminal(r, half, 0, attr(atts, nodes[s]), attr(atts, buses[s]));
    }
    return built(r, rc);
}

/* The element names whose id must be in the network (the equipment with terminals). */
static bool is_equipment(const char *name)
{
    static const char *const names[] = {
        "generator", "load", "battery", "shunt", "shuntCompensator", "staticVarCompensator",
        "danglingLine", "boundaryLine", "lccConverterStation", "vscConverterStation", "line",
        "twoWindingsTransformer", "threeWindingsTransformer", "busbarSection", "ground",
        "voltageSourceConverter" /* an AC/DC converter (1.15 on), a contingency element */
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
    if (id == NULL ||
        !(strcmp(n, "voltageLevel") == 0 || strcmp(n, "tieLine") == 0 || is_equipment(n)))
        return;
    obj = ctg_network_find(r->b->net, id, strlen(id));
    if (obj == NULL) {
        fail(r, CTG_ESCHEMA, "\"%.64s\" is not in the network (another network's file?)", id);
        return;
    }
    if (strcmp(n, "voltageLevel") == 0)
        r->vl = obj;
    else if (strcmp(n, "tieLine") == 0)
        on_old_tie_line(r, obj, atts);
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

/* ---- the read ------------------------------------------------------------------------------ */

#define FEED_CHUNK ((size_t)1 << 16)

static int parse_failure(treader *r)
{
    enum XML_Error e = XML_GetErrorCode(r->parser);

    if (r->rc != CTG_OK)
        return r->rc;
    if (e == XML_ERROR_NO_MEMORY || ctg_expat_failed())
        return fail(r, CTG_ENOMEM, "%s", "out of memory");
    return fail(r, CTG_ESYNTAX, "malformed XML: %s", XML_ErrorString(e));
}

static int feed(treader *r, const char *data, size_t n, bool last)
{
    ctg_expat_use(r->b->alloc);
    if (XML_Parse(r->parser, data, (int)n, last) != XML_STATUS_OK)
        return parse_failure(r);
    return r->rc;
}

static int feed_all(treader *r, const ctg_lex_source *src)
{
    char *buf;
    size_t got;
    int rc = CTG_OK;

    for (size_t off = 0; src->refill == NULL && rc == CTG_OK; off += FEED_CHUNK) {
        size_t n = src->len - off < FEED_CHUNK ? src->len - off : FEED_CHUNK;

        rc = feed(r, src->data + off, n, off + n == src->len);
        if (off + n == src->len)
            return rc;
    }
    if (src->refill == NULL)
        return rc;
    buf = ctg_mem_alloc(r->b->alloc, FEED_CHUNK);
    if (buf == NULL)
        return ctg_error_set(r->err, CTG_ENOMEM, NULL, "", "%s", "out of memory");
    do {
        got = 0;
        rc = src->refill(src->ctx, buf, FEED_CHUNK, &got, r->err);
        if (rc != CTG_OK)
            r->rc = rc = ctg_error_set(r->err, rc, NULL, "", NULL);
        else
            rc = feed(r, buf, got, got == 0);
    } while (rc == CTG_OK && got != 0);
    ctg_mem_release(r->b->alloc, buf, FEED_CHUNK);
    return rc;
}

int ctg_bb_read_xml(ctg_bb *b, const ctg_lex_source *src, ctg_error *err)
{
    treader r = { NULL, b, err, CTG_OK, NULL };
    int rc;

    ctg_expat_use(b->alloc);
    ctg_expat_reset_failed();
    r.parser = XML_ParserCreate_MM(NULL, &ctg_expat_memory, NULL);
    if (r.parser == NULL) {
        ctg_expat_use(NULL);
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "%s", "out of memory");
    }
    XML_SetUserData(r.parser, &r);
    XML_SetElementHandler(r.parser, on_start, on_end);
    XML_SetEntityDeclHandler(r.parser, on_entity_decl);
    XML_SetParamEntityParsing(r.parser, XML_PARAM_ENTITY_PARSING_NEVER);
    rc = feed_all(&r, src);
    ctg_expat_use(b->alloc);
    XML_ParserFree(r.parser);
    ctg_expat_use(NULL);
    return rc;
}
