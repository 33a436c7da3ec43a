/* SPDX-License-Identifier: MPL-2.0 */
/* The one member loop of the JIIDM importer: reads any element's members off the token
 * stream, keeps the few the table needs (ids, references, terminals' nodes and buses, nominal
 * voltage, country), skips the rest without looking inside, and adds the element to the table
 * before its first child array, as PowSyBl's streaming reader creates it. */

#include "iidm/jiidm.h"

#include <stdio.h>
#include <string.h>

#include "json/lexer.h"
#include "json/lexer_fast.h"
#include "network/table.h"

/* ---- keys ------------------------------------------------------------------------------ */

const char *const jx_key_names[JK_COUNT] = {
    [JK_ID] = "id",
    [JK_NAME] = "name",
    [JK_NODE] = "node",
    [JK_NODE1] = "node1",
    [JK_NODE2] = "node2",
    [JK_NODE3] = "node3",
    [JK_BUS] = "bus",
    [JK_BUS1] = "bus1",
    [JK_BUS2] = "bus2",
    [JK_BUS3] = "bus3",
    [JK_CBUS] = "connectableBus",
    [JK_CBUS1] = "connectableBus1",
    [JK_CBUS2] = "connectableBus2",
    [JK_CBUS3] = "connectableBus3",
    [JK_VL1] = "voltageLevelId1",
    [JK_VL2] = "voltageLevelId2",
    [JK_VL3] = "voltageLevelId3",
    [JK_CS1] = "converterStation1",
    [JK_CS2] = "converterStation2",
    [JK_DL1] = "danglingLineId1",
    [JK_DL2] = "danglingLineId2",
    [JK_BL1] = "boundaryLineId1",
    [JK_BL2] = "boundaryLineId2",
    [JK_ID_1] = "id_1",
    [JK_ID_2] = "id_2",
    [JK_NAME_1] = "name_1",
    [JK_NAME_2] = "name_2",
    [JK_COUNTRY] = "country",
    [JK_NOMINAL_V] = "nominalV",
    [JK_TOPOLOGY] = "topologyKind",
    [JK_OPEN] = "open",
    [JK_RETAINED] = "retained",
    [JK_ALIASES] = "aliases",
    [JK_PROPERTIES] = "properties",
    [JK_VERSION] = "version",
    [JK_NBTOPO] = "nodeBreakerTopology",
    [JK_BBTOPO] = "busBreakerTopology",
};

static inline bool is(const char *s, size_t n, const char *lit)
{
    return ctg_short_eq(s, lit, n);
}

/* Keys a few bytes long, told apart by their length first. */
static jx_key key_short(const char *s, size_t n)
{
    switch (n) {
    case 2:
        return is(s, n, "id") ? JK_ID : JK_OTHER;
    case 3:
        return is(s, n, "bus") ? JK_BUS : JK_OTHER;
    case 4:
        if (is(s, n, "name"))
            return JK_NAME;
        if (is(s, n, "node"))
            return JK_NODE;
        if (is(s, n, "open"))
            return JK_OPEN;
        if (is(s, 3, "bus") && s[3] >= '1' && s[3] <= '3')
            return (jx_key)(JK_BUS1 + s[3] - '1');
        if (is(s, 3, "id_") && (s[3] == '1' || s[3] == '2'))
            return (jx_key)(JK_ID_1 + s[3] - '1');
        return JK_OTHER;
    case 5:
        if (is(s, 4, "node") && s[4] >= '1' && s[4] <= '3')
            return (jx_key)(JK_NODE1 + s[4] - '1');
        return JK_OTHER;
    case 6:
        if (is(s, 5, "name_") && (s[5] == '1' || s[5] == '2'))
            return (jx_key)(JK_NAME_1 + s[5] - '1');
        return JK_OTHER;
    case 7:
        if (is(s, n, "country"))
            return JK_COUNTRY;
        if (is(s, n, "aliases"))
            return JK_ALIASES;
        if (is(s, n, "version"))
            return JK_VERSION;
        return JK_OTHER;
    case 8:
        if (is(s, n, "nominalV"))
            return JK_NOMINAL_V;
        if (is(s, n, "retained"))
            return JK_RETAINED;
        return JK_OTHER;
    default:
        return JK_OTHER;
    }
}

/* Keys ending in a side digit, and the topology objects. */
static jx_key key_long(const char *s, size_t n)
{
    char d = s[n - 1];
    unsigned side = (unsigned)(d - '1');

    switch (n) {
    case 10:
        return is(s, n, "properties") ? JK_PROPERTIES : JK_OTHER;
    case 12:
        return is(s, n, "topologyKind") ? JK_TOPOLOGY : JK_OTHER;
    case 14:
        return is(s, n, "connectableBus") ? JK_CBUS : JK_OTHER;
    case 15:
        if (side > 2)
            return JK_OTHER;
        if (is(s, 14, "voltageLevelId"))
            return (jx_key)(JK_VL1 + side);
        if (is(s, 14, "connectableBus"))
            return (jx_key)(JK_CBUS1 + side);
        if (side < 2 && is(s, 14, "boundaryLineId"))
            return (jx_key)(JK_BL1 + side);
        if (side < 2 && is(s, 14, "danglingLineId"))
            return (jx_key)(JK_DL1 + side);
        return JK_OTHER;
    case 17:
        return side < 2 && is(s, 16, "converterStation") ? (jx_key)(JK_CS1 + side) : JK_OTHER;
    case 18:
        return is(s, n, "busBreakerTopology") ? JK_BBTOPO : JK_OTHER;
    case 19:
        return is(s, n, "nodeBreakerTopology") ? JK_NBTOPO : JK_OTHER;
    default:
        return JK_OTHER;
    }
}

jx_key jx_key_of(const char *s, size_t n)
{
    return n <= 8 ? key_short(s, n) : key_long(s, n);
}

void jx_leaf_sieve(ctg_key_sieve *sv, size_t max_name_len)
{
    memset(sv, 0, sizeof(*sv));
    sv->max_len = max_name_len;
    for (size_t k = JK_OTHER + 1; k < JK_COUNT; k++) {
        const char *name = jx_key_names[k];
        size_t n = strlen(name);
        /* A key the sieve cannot tell apart by its length and first letter is always kept. */
        if (n < 64 && name[0] >= 'a' && name[0] <= 'z')
            sv->keep[n] |= 1u << (name[0] - 'a');
        else
            sv->max_len = 0;
    }
    /* Every identifiable has a name, which is only checked (check_name): a plain string passes
     * that check, so the lexer passes it over, and only another value comes to check_name. */
    sv->plain = jx_key_names[JK_NAME];
    sv->plain_len = strlen(sv->plain);
}

/* ---- values ---------------------------------------------------------------------------- */

/* An id, or a reference to an object far away in the document (a bus is near: no need), looked
 * up in the index when the element goes into the table, some members later: its slot is
 * fetched now, so that the look-up does not wait for the memory. */
static void prefetch_id(const jx_read *x, jx_el *el, jx_key key, const ctg_token *t)
{
    if (key == JK_ID || (key >= JK_VL1 && key <= JK_ID_2)) {
        /* Kept: the add and the look-up hash it no more. */
        el->hash[key] = ctg_net_index_hash(t->str, t->len);
        if (x->net != NULL)
            ctg_net_index_prefetch(x->net, el->hash[key]);
    }
}

/* A name: checked as ctg_read_string checks a string, but not copied, as the table keeps no
 * names. */
static int check_name(jx_read *x, jx_el *el, jx_key key)
{
    ctg_reader *rd = &x->rd;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (rd->tok.has_nul)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" must not contain U+0000",
                               jx_key_names[key]);
    el->s[key] = NULL;
    el->len[key] = 0;
    return CTG_OK;
}

static int read_str(jx_read *x, jx_el *el, jx_key key)
{
    ctg_reader *rd = &x->rd;
    int rc;

    if (key == JK_NAME || key == JK_NAME_1 || key == JK_NAME_2)
        return check_name(x, el, key);
    rc = ctg_read_string(rd, &el->s[key], jx_key_names[key]);

    el->len[key] = rd->tok.len;
    if (rc == CTG_OK)
        prefetch_id(x, el, key, &rd->tok);
    if (rc == CTG_OK && rd->tok.len == 0)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" must not be empty", jx_key_names[key]);
    return rc;
}

static int read_node(jx_read *x, jx_el *el, jx_key key)
{
    ctg_reader *rd = &x->rd;
    double v = rd->tok.number;

    if (rd->tok.type != CTG_TOK_NUMBER)
        return ctg_reader_type_error(rd, "integer");
    /* The lexer's value, not a second parse of the text: an integer's double is exact below
     * 2^53, so it is the node number whenever it is one (and -0 is 0, as the text gives). */
    if (!rd->tok.is_integer || !(v >= 0 && v < (double)CTG_NET_NO_ORDER))
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" must be a node number (0 to %u)",
                               jx_key_names[key], CTG_NET_NO_ORDER - 1);
    el->u[key] = (uint32_t)v;
    return CTG_OK;
}

static int read_bool(jx_read *x, jx_el *el, jx_key key)
{
    ctg_reader *rd = &x->rd;

    if (rd->tok.type != CTG_TOK_TRUE && rd->tok.type != CTG_TOK_FALSE)
        return ctg_reader_type_error(rd, "boolean");
    el->u[key] = rd->tok.type == CTG_TOK_TRUE;
    return CTG_OK;
}

static int read_nominal_v(jx_read *x, jx_el *el)
{
    ctg_reader *rd = &x->rd;

    if (rd->tok.type != CTG_TOK_NUMBER)
        return ctg_reader_type_error(rd, "number");
    el->nominal_v = rd->tok.number;
    return CTG_OK;
}

static int read_topology(jx_read *x, jx_el *el)
{
    ctg_reader *rd = &x->rd;
    const ctg_token *t = &rd->tok;

    if (t->type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (t->len == 12 && is(t->str, 12, "NODE_BREAKER"))
        el->u[JK_TOPOLOGY] = CTG_TOPOLOGY_NODE_BREAKER;
    else if (t->len == 11 && is(t->str, 11, "BUS_BREAKER"))
        el->u[JK_TOPOLOGY] = CTG_TOPOLOGY_BUS_BREAKER;
    else
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "\"topologyKind\" must be \"NODE_BREAKER\" or \"BUS_BREAKER\"");
    return CTG_OK;
}

/* A key that only some versions have: PowSyBl's own words when the file's is not one. */
static int version_gate(jx_read *x, const char *what, unsigned lo, unsigned hi)
{
    if (x->minor < lo)
        return ctg_reader_fail(&x->rd, CTG_ESCHEMA,
                               "%s is not supported for IIDM version %s. "
                               "IIDM version should be >= 1.%u",
                               what, x->version, lo);
    if (x->minor > hi)
        return ctg_reader_fail(&x->rd, CTG_ESCHEMA,
                               "%s is not supported for IIDM version %s. "
                               "IIDM version should be <= 1.%u",
                               what, x->version, hi);
    return CTG_OK;
}

static int key_gate(jx_read *x, jx_key key)
{
    switch (key) {
    case JK_DL1:
    case JK_DL2:
        return version_gate(x, jx_key_names[key], 10, 15);
    case JK_BL1:
    case JK_BL2:
        return version_gate(x, jx_key_names[key], 16, 255);
    case JK_ID_1:
    case JK_ID_2:
        return version_gate(x, jx_key_names[key], 0, 9);
    default:
        return CTG_OK;
    }
}

/* An attribute the table keeps; rd.tok on its value. */
static int read_attribute(jx_read *x, jx_el *el, jx_key key)
{
    int rc = key_gate(x, key);

    if (rc != CTG_OK)
        return rc;
    switch (key) {
    case JK_NODE:
    case JK_NODE1:
    case JK_NODE2:
    case JK_NODE3:
        rc = read_node(x, el, key);
        break;
    case JK_OPEN:
    case JK_RETAINED:
        rc = read_bool(x, el, key);
        break;
    case JK_NOMINAL_V:
        rc = read_nominal_v(x, el);
        break;
    case JK_TOPOLOGY:
        rc = read_topology(x, el);
        break;
    case JK_VERSION:
        rc = el->k->shape == JX_ROOT ? jx_set_version(x)
                                     : ctg_lexer_skip_value(&x->rd.lex, &x->rd.tok, x->rd.err);
        break;
    default:
        rc = read_str(x, el, key);
        break;
    }
    if (rc == CTG_OK) {
        el->seen |= (uint64_t)1 << key;
        jx_mark_copy(&el->marks[key], el->key->offset, el->key->line_start, el->key->line);
    }
    return rc;
}

/* ---- the member loop ------------------------------------------------------------------- */

/* Member arrays of containers that hold nothing the table needs. */
static bool skipped_array(const char *s, size_t n)
{
    return (n == 10 && is(s, n, "extensions")) || (n == 16 && is(s, n, "geographicalTags")) ||
           (n == 18 && is(s, n, "voltageAngleLimits"));
}

/* A member that is neither an attribute of ours nor a known array: skipped, except an array
 * of an unknown name in a container, which PowSyBl rejects too. `name` is the key, copied. */
static int other_member(jx_read *x, jx_el *el, const char *name, size_t n)
{
    ctg_reader *rd = &x->rd;

    if (rd->tok.type == CTG_TOK_ARRAY_BEGIN && el->in != 0 && el->in != JX_IN_NBTOPO &&
        el->in != JX_IN_BBTOPO && !skipped_array(name, n)) {
        if (el->k->shape == JX_SUBNET && n == 8 && is(name, n, "networks"))
            return ctg_reader_fail(rd, CTG_ESCHEMA, "only one level of subnetworks is supported");
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown element \"%.*s\" in \"%s\"", (int)n, name,
                               el->k->element);
    }
    return ctg_lexer_skip_value(&rd->lex, &rd->tok, rd->err);
}

/* A child array: its elements once this one is in the table. */
static int child_array(jx_read *x, jx_el *el, const jx_kind *k)
{
    int rc = version_gate(x, k->element, k->min_minor, k->max_minor);

    if (rc == CTG_OK)
        rc = jx_el_create(x, el);
    if (rc != CTG_OK)
        return rc;
    if (el->discarded)
        return ctg_lexer_skip_value(&x->rd.lex, &x->rd.tok, x->rd.err);
    return jx_read_elements(x, k, &el->inner);
}

static int structural(jx_read *x, jx_el *el, jx_key key)
{
    int rc = jx_el_create(x, el);

    if (rc != CTG_OK)
        return rc;
    if (el->discarded)
        return ctg_lexer_skip_value(&x->rd.lex, &x->rd.tok, x->rd.err);
    switch (key) {
    case JK_ALIASES:
        return jx_read_aliases(x, el);
    case JK_PROPERTIES:
        return jx_read_properties(x, el);
    default:
        break;
    }
    if (el->k->shape != JX_VLEVEL)
        return ctg_lexer_skip_value(&x->rd.lex, &x->rd.tok, x->rd.err);
    if (x->rd.tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(&x->rd, "object");
    return jx_read_element(x, key == JK_NBTOPO ? &jx_nbtopo_kind : &jx_bbtopo_kind, &el->inner);
}

/* Whether a member's value can be passed over unread (numbers not converted, strings not
 * copied): the table keeps nothing of it and no check looks at its first token (only an unknown
 * array in a container is an error, so such a member is read). */
static bool skipped_member(const jx_el *el, jx_key key, const jx_kind *k, const char *s, size_t n)
{
    if (k)
        return false;
    if (key == JK_OTHER)
        return el->in == 0 || el->in == JX_IN_NBTOPO || el->in == JX_IN_BBTOPO ||
               skipped_array(s, n);
    if (key == JK_ALIASES || key == JK_PROPERTIES || key == JK_NBTOPO || key == JK_BBTOPO)
        return false;
    return el->created; /* an attribute after the element went into the table */
}

/* One member, its key in m (valid until the value is read). */
static int member(jx_read *x, jx_el *el, const ctg_lex_member *m)
{
    ctg_reader *rd = &x->rd;
    ctg_path_frame *f = ctg_reader_top_frame(rd);
    jx_key key = jx_key_of(m->key.str, m->key.len);
    const jx_kind *k = NULL;
    char name[64];
    size_t n = m->key.len < sizeof(name) ? m->key.len : sizeof(name);
    int rc;

    if (m->key.len > x->opts.max_name_len)
        return ctg_reader_fail(rd, CTG_ELIMIT, "member name longer than %zu bytes",
                               x->opts.max_name_len);
    el->key = &m->key; /* its position copied only once the member is kept */
    if (key == JK_OTHER && el->in)
        k = jx_kind_find(m->key.str, m->key.len, el->in);
    /* A known key is spelt as the token: its length is the token's. */
    f->key = key != JK_OTHER ? jx_key_names[key] : k ? k->array : NULL;
    f->key_len = f->key ? m->key.len : 0;
    if (skipped_member(el, key, k, m->key.str, m->key.len))
        return m->value_ready ? CTG_OK : ctg_lexer_skip_next(&rd->lex, &rd->tok, rd->err);
    if (key == JK_OTHER && !k && el->in)
        memcpy(name, m->key.str, n);
    if (!m->value_ready && (rc = ctg_lex_member_value(&rd->lex, &rd->tok, rd->err)) != CTG_OK)
        return rc;
    if (k)
        return child_array(x, el, k);
    if (key == JK_OTHER)
        return other_member(x, el, name, n);
    if (key == JK_ALIASES || key == JK_PROPERTIES || key == JK_NBTOPO || key == JK_BBTOPO)
        return structural(x, el, key);
    return read_attribute(x, el, key);
}

static int report_progress(jx_read *x)
{
    size_t at = ctg_lexer_offset(&x->rd.lex);

    if (at < x->next_progress)
        return CTG_OK;
    x->next_progress = at + ((size_t)1 << 20);
    return ctg_iidm_progress(x->in, at, x->rd.err);
}

/* At a node-breaker level's '}': its switches and internal connections are all in, so what
 * the graph holds since the last level is settled now, in a small part that is in the cache,
 * not in one sort and merge over every node of the network at the end. */
static int level_end(jx_read *x, const jx_el *el)
{
    if (el->k->shape != JX_VLEVEL || el->obj == NULL ||
        el->obj->container->topology != CTG_TOPOLOGY_NODE_BREAKER)
        return CTG_OK;
    return ctg_nb_graph_level_end(&x->graph) == CTG_OK ? CTG_OK : ctg_reader_nomem(&x->rd);
}

int jx_read_element(jx_read *x, const jx_kind *k, const jx_scope *scope)
{
    ctg_reader *rd = &x->rd;
    const ctg_key_sieve *sv;
    ctg_lex_member m;
    jx_el el;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    jx_el_init(&el, k, scope, &rd->tok);
    sv = el.in == 0 ? &x->leaf : &x->container;
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    /* A leaf element (no container) skips every member that is no key of ours (see
     * skipped_member), so the lexer may skip them without handing them over; a container, the
     * ones of a string or number value (other_member). The member path is inlined here, the
     * loop every member of a network passes through (a call each cost some 3% of an import). */
    while ((rc = ctg_lexer_member_inline(&rd->lex, el.seen ? NULL : "id", el.seen ? 0 : 2, sv,
                                         false, &m, &rd->tok, rd->err)) == CTG_LEX_KEY) {
        if ((rc = member(x, &el, &m)) != CTG_OK)
            return rc;
        ctg_reader_top_frame(rd)->key = NULL;
    }
    if (rc != CTG_LEX_OTHER)
        return rc;
    if ((rc = jx_el_create(x, &el)) != CTG_OK || (rc = level_end(x, &el)) != CTG_OK)
        return rc;
    ctg_reader_pop_frame(rd);
    return x->in->src->refill ? CTG_OK : report_progress(x);
}

/* An item of the array being read (x->items says which kind of array): one element, or an
 * alias or property entry of `el`. The reader is the first member of jx_read. */
static int read_item(ctg_reader *rd, void *out)
{
    jx_read *x = (jx_read *)(void *)rd;
    const jx_items *it = x->items;

    (void)out;
    if (it->each) {
        ctg_mark at = ctg_reader_mark(rd);
        return it->each(x, it->el, &at);
    }
    return jx_read_element(x, it->k, it->scope);
}

/* The items are read in place: nothing is kept of them, so the item struct is empty. */
CTG_HANDLER_DEFINE(static, item_handler, "jiidm item", char, read_item);

static int keep_nothing(ctg_reader *rd, void *item, void *ctx)
{
    (void)rd;
    (void)item;
    (void)ctx;
    return CTG_OK;
}

int jx_read_items(jx_read *x, const jx_items *it)
{
    const jx_items *outer = x->items;
    ctg_item_sink sink = { keep_nothing, NULL, NULL };
    size_t count;

    /* Through the one array reader of the project: its path frame, index and errors. */
    x->items = it;
    int rc = ctg_read_array_to(&x->rd, &item_handler, &sink, &count);
    x->items = outer;
    return rc;
}

int jx_read_elements(jx_read *x, const jx_kind *k, const jx_scope *scope)
{
    jx_items it = { k, scope, NULL, NULL };

    return jx_read_items(x, &it);
}
