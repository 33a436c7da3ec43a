/* SPDX-License-Identifier: MPL-2.0 */
/* The `identifier` kind (spec 4): the list's own fields and the five identifier kinds. Their
 * version rules (spec 3.2: contingencyId from 1.2, the legacy identifiableType up to 1.0) are
 * rows of the table in scope.c.
 *
 * An identifier's "type" may come after its other fields, so every field is read (and
 * type-checked) first and the kind's rules are applied when the object ends. Fields that do
 * not belong to the kind are ignored, as PowSyBl ignores them; once the kind is known their
 * strings are not even copied. */

#include <stdio.h>
#include <string.h>

#include "ctg/error.h"
#include "model/identifier_impl.h"
#include "model/list_impl.h"
#include "json/emit.h"
#include "format/kinds.h"
#include "format/registry.h"
#include "format/scope.h"
#include "format/version.h"
#include "format/write_version.h"

/* ---- identifiable types ---------------------------------------------------------------- */

static int read_identifiable_type(ctg_reader *rd, void *out)
{
    ctg_identifiable_type *type = out;
    const char *s = rd->tok.str;
    int n = (int)rd->tok.len;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (ctg_identifiable_type_from_name(s, rd->tok.len, type))
        return CTG_OK;
    /* Renamed in 2026 without a read alias (spec 3.3): PowSyBl rejects it too. */
    if (rd->tok.len == 13 && memcmp(s, "DANGLING_LINE", 13) == 0)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "unknown identifiable type \"DANGLING_LINE\" (now BOUNDARY_LINE)");
    return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown identifiable type \"%.*s\"", n, s);
}

CTG_HANDLER_DEFINE(, ctg_identifiable_type_handler, "identifiable-type", ctg_identifiable_type,
                   read_identifiable_type);

/* Drops repeated types in place, keeping the first of each (a set in PowSyBl; read order is
 * the one stable order to write it in). */
static size_t pack_types(ctg_identifiable_type *types, size_t count)
{
    uint32_t seen = 0;
    size_t n = 0;

    for (size_t i = 0; i < count; i++) {
        ctg_identifiable_type t = types[i];
        if (!(seen & (UINT32_C(1) << t))) {
            seen |= UINT32_C(1) << t;
            types[n++] = t;
        }
    }
    return n;
}

/* ---- one identifier -------------------------------------------------------------------- */

enum {
    K_TYPE, K_CONTINGENCY_ID, K_IDENTIFIER, K_WILDCARD, K_VL1, K_VL2, K_ORDER, K_LIST,
    K_SUBSTATION, K_TYPES
};
#define KB(k) (1u << (k))

/* In the order PowSyBl writes them, across the kinds; read and written from here. */
static const ctg_key identifier_keys[] = {
    [K_TYPE] = CTG_KEY("type"),
    [K_CONTINGENCY_ID] = CTG_KEY("contingencyId"),
    [K_IDENTIFIER] = CTG_KEY("identifier"),
    [K_WILDCARD] = CTG_KEY("wildcard"),
    [K_VL1] = CTG_KEY("voltageLevelId1"),
    [K_VL2] = CTG_KEY("voltageLevelId2"),
    [K_ORDER] = CTG_KEY("order"),
    [K_LIST] = CTG_KEY("identifierList"),
    [K_SUBSTATION] = CTG_KEY("substationOrVoltageLevelId"),
    [K_TYPES] = CTG_KEY("voltageLevelIdentifiableTypes"),
};

/* The fields each kind uses, and those it needs. */
static const unsigned kind_fields[CTG_IDENTIFIER_KIND_COUNT] = {
    [CTG_IDENTIFIER_ID_BASED] = KB(K_IDENTIFIER),
    [CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER] = KB(K_VL1) | KB(K_VL2) | KB(K_ORDER),
    [CTG_IDENTIFIER_LIST] = KB(K_LIST),
    [CTG_IDENTIFIER_ID_WITH_WILDCARDS] = KB(K_IDENTIFIER) | KB(K_WILDCARD),
    [CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS] = KB(K_SUBSTATION) | KB(K_TYPES),
};
static const unsigned kind_required[CTG_IDENTIFIER_KIND_COUNT] = {
    [CTG_IDENTIFIER_ID_BASED] = KB(K_IDENTIFIER),
    [CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER] = KB(K_VL1) | KB(K_VL2) | KB(K_ORDER),
    [CTG_IDENTIFIER_ID_WITH_WILDCARDS] = KB(K_IDENTIFIER),
};

typedef struct ident_ctx {
    ctg_identifier *out;
    int kind;                /* -1 until "type" */
    const char *identifier;  /* "identifier" */
    const char *substation;  /* "substationOrVoltageLevelId" */
    uint32_t wildcard;       /* its first code point; '?' when absent */
    size_t wildcard_len;     /* its code points */
    ctg_mark identifier_mark, wildcard_mark;
    bool unversioned;        /* in an identifier action list: no list, no version (SA spec 1.5) */
} ident_ctx;

/* Whether field `key` is kept: always while the kind is unknown. */
static bool keeps(const ident_ctx *c, unsigned key)
{
    if (key == K_CONTINGENCY_ID) /* PowSyBl derives it for this kind and ignores the field */
        return c->kind != CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS;
    return c->kind < 0 || (kind_fields[c->kind] & KB(key));
}

/* A string field (null allowed when `nullable`), copied only when the kind uses it. */
static int read_str(ctg_reader *rd, const ident_ctx *c, unsigned key, const char **dst,
                    bool nullable)
{
    if (rd->tok.type == CTG_TOK_NULL && nullable) {
        *dst = NULL;
        return CTG_OK;
    }
    if (keeps(c, key))
        return ctg_read_string(rd, dst, identifier_keys[key].name);
    return rd->tok.type == CTG_TOK_STRING ? CTG_OK : ctg_reader_type_error(rd, "string");
}

static int read_kind(ctg_reader *rd, ident_ctx *c)
{
    ctg_identifier_kind k;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (!ctg_identifier_kind_from_name(rd->tok.str, rd->tok.len, &k))
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown identifier type \"%.*s\"",
                               (int)rd->tok.len, rd->tok.str);
    c->kind = (int)k;
    return CTG_OK;
}

/* Checked wherever it stands, as PowSyBl checks it while reading. */
static int read_order(ctg_reader *rd, ident_ctx *c)
{
    uint32_t cp;
    size_t n;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    n = ctg_utf8_decode(rd->tok.str, rd->tok.len, &cp);
    if (n != 1)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"order\" must be exactly one character, got %zu",
                               n);
    if (cp > 0xFFFF)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "\"order\" must be a character of the Basic Multilingual Plane "
                               "(one UTF-16 unit), got U+%04X", (unsigned)cp);
    if (cp == 0)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"order\" must not be U+0000");
    c->out->order = cp;
    return CTG_OK;
}

/* Only ID_WITH_WILDCARDS judges it, when the object ends. */
static int read_wildcard(ctg_reader *rd, ident_ctx *c)
{
    if (rd->tok.type == CTG_TOK_NULL)
        return CTG_OK; /* the default */
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    c->wildcard_mark = ctg_reader_mark(rd);
    c->wildcard_len = ctg_utf8_decode(rd->tok.str, rd->tok.len, &c->wildcard);
    return CTG_OK;
}

static int read_types(ctg_reader *rd, ident_ctx *c)
{
    void *items;
    size_t count;
    int rc = ctg_read_array(rd, ctg_reader_handler(rd, CTG_HANDLER_IDENTIFIABLE_TYPE), &items,
                            &count);

    if (rc != CTG_OK || !keeps(c, K_TYPES))
        return rc;
    c->out->type_count = pack_types(items, count);
    c->out->types = items;
    return CTG_OK;
}

static const ctg_handler unversioned_handler;

static int read_items(ctg_reader *rd, ident_ctx *c)
{
    const ctg_handler *h =
        c->unversioned ? &unversioned_handler : ctg_reader_handler(rd, CTG_HANDLER_IDENTIFIER);
    void *items;
    size_t count;
    int rc = ctg_read_array(rd, h, &items, &count);

    if (rc != CTG_OK || !keeps(c, K_LIST))
        return rc;
    c->out->items = items;
    c->out->item_count = count;
    return CTG_OK;
}

static int identifier_field(ctg_reader *rd, unsigned index, void *ctx)
{
    ident_ctx *c = ctx;
    ctg_identifier *o = c->out;
    int rc;

    switch (index) {
    case K_TYPE:
        return read_kind(rd, c);
    case K_CONTINGENCY_ID:
        if (c->unversioned) /* PowSyBl reads these with no version known: never allowed */
            return ctg_reader_fail(rd, CTG_ESCHEMA,
                                   "\"contingencyId\" needs an identifier-list version of 1.2 "
                                   "or later; an action list's identifiers have none");
        if ((rc = ctg_scope_rule(rd, CTG_RULE_CONTINGENCY_ID)) != CTG_OK) /* even when null */
            return rc;
        return read_str(rd, c, index, &o->contingency_id, true);
    case K_IDENTIFIER:
        c->identifier_mark = ctg_reader_mark(rd);
        return read_str(rd, c, index, &c->identifier, false);
    case K_WILDCARD:
        return read_wildcard(rd, c);
    case K_VL1:
        return read_str(rd, c, index, &o->voltage_level_id1, false);
    case K_VL2:
        return read_str(rd, c, index, &o->voltage_level_id2, false);
    case K_ORDER:
        return read_order(rd, c);
    case K_LIST:
        return read_items(rd, c);
    case K_SUBSTATION:
        return read_str(rd, c, index, &c->substation, true);
    default:
        return read_types(rd, c);
    }
}

static const ctg_object_def identifier_def = {
    identifier_keys, sizeof(identifier_keys) / sizeof(identifier_keys[0]), identifier_field
};

/* How a wildcard reads in a message: quoted, or as U+XXXX when it is a control character. */
static void wildcard_text(uint32_t cp, char buf[16])
{
    size_t n;

    if (cp < 0x20 || cp == 0x7F) {
        snprintf(buf, 16, "U+%04X", (unsigned)cp);
        return;
    }
    buf[0] = '"';
    n = ctg_utf8_encode(cp, buf + 1);
    buf[n + 1] = '"';
    buf[n + 2] = '\0';
}

static int check_wildcards(ctg_reader *rd, const ident_ctx *c)
{
    size_t n;
    char w[16];

    if (c->wildcard_len != 1)
        return ctg_reader_fail_at(rd, &c->wildcard_mark, "wildcard", CTG_ESCHEMA,
                                  "\"wildcard\" must be exactly one character, got %zu",
                                  c->wildcard_len);
    if (c->wildcard == 0)
        return ctg_reader_fail_at(rd, &c->wildcard_mark, "wildcard", CTG_ESCHEMA,
                                  "\"wildcard\" must not be U+0000");
    n = ctg_utf8_count_cp(c->identifier, strlen(c->identifier), c->wildcard);
    if (n >= CTG_WILDCARD_MIN && n <= CTG_WILDCARD_MAX)
        return CTG_OK;
    wildcard_text(c->wildcard, w);
    return ctg_reader_fail_at(rd, &c->identifier_mark, "identifier", CTG_ESCHEMA,
                              "\"identifier\" must hold the wildcard %s %d to %d times, found %zu",
                              w, CTG_WILDCARD_MIN, CTG_WILDCARD_MAX, n);
}

/* Leaves only the kind's fields, as the model promises. */
static void keep_kind_fields(const ident_ctx *c, ctg_identifier_kind k)
{
    ctg_identifier *o = c->out;

    o->kind = k;
    if (k != CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER) {
        o->voltage_level_id1 = o->voltage_level_id2 = NULL;
        o->order = 0;
    }
    if (k != CTG_IDENTIFIER_LIST) {
        o->items = NULL;
        o->item_count = 0;
    }
    if (k != CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS) {
        o->types = NULL;
        o->type_count = 0;
        o->id = k == CTG_IDENTIFIER_LIST || k == CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER
                    ? NULL : c->identifier;
    } else {
        o->contingency_id = NULL;
        o->id = c->substation;
    }
    o->wildcard = k == CTG_IDENTIFIER_ID_WITH_WILDCARDS ? c->wildcard : 0;
}

static int finish_identifier(ctg_reader *rd, const ident_ctx *c, const ctg_mark *start,
                             unsigned seen)
{
    unsigned missing;

    if (!(seen & KB(K_TYPE)))
        return ctg_reader_missing(rd, start, identifier_keys[K_TYPE].name);
    missing = kind_required[c->kind] & ~seen;
    for (unsigned k = 0; missing != 0; k++)
        if (missing & KB(k))
            return ctg_reader_missing(rd, start, identifier_keys[k].name);
    if (c->kind == CTG_IDENTIFIER_ID_WITH_WILDCARDS) {
        int rc = check_wildcards(rd, c);
        if (rc != CTG_OK)
            return rc;
    }
    keep_kind_fields(c, (ctg_identifier_kind)c->kind);
    return CTG_OK;
}

/* Reading, copying and writing a LIST identifier recurse on its items: a fixed bound keeps the
 * recursion shallow whatever max_depth allows. */
#define IDENTIFIER_MAX_DEPTH 256

static int read_identifier_as(ctg_reader *rd, void *out, bool unversioned)
{
    ident_ctx c = { out, -1, NULL, NULL, CTG_WILDCARD_DEFAULT, 1, { 0, 0, 0 }, { 0, 0, 0 },
                    unversioned };
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen;
    int rc;

    memset(out, 0, sizeof(ctg_identifier));
    /* The deepest identifier that can still be written back; this also bounds the recursion
     * through LIST when max_depth is raised. */
    if (rd->tok.type == CTG_TOK_OBJECT_BEGIN && ctg_lexer_depth(&rd->lex) >= IDENTIFIER_MAX_DEPTH)
        return ctg_reader_fail(rd, CTG_ELIMIT, "identifiers nested deeper than %d levels of JSON",
                               IDENTIFIER_MAX_DEPTH - 1);
    if ((rc = ctg_read_object(rd, &identifier_def, &c, &seen)) != CTG_OK)
        return rc;
    return finish_identifier(rd, &c, &start, seen);
}

static int read_identifier(ctg_reader *rd, void *out)
{
    return read_identifier_as(rd, out, false);
}

static int read_unversioned(ctg_reader *rd, void *out)
{
    return read_identifier_as(rd, out, true);
}

CTG_HANDLER_DEFINE(, ctg_identifier_handler, "identifier", ctg_identifier, read_identifier);
/* The items of a LIST identifier of an identifier action list: not in the registry, since no
 * contingency list reads them. */
CTG_HANDLER_DEFINE(static, unversioned_handler, "unversioned-identifier", ctg_identifier,
                   read_unversioned);

int ctg_read_unversioned_identifier(ctg_reader *rd, ctg_identifier *out)
{
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    return read_unversioned(rd, out);
}

/* ---- the list -------------------------------------------------------------------------- */

int ctg_identifier_list_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    void *items;
    int rc;

    if (key == CTG_RK_IDENTIFIABLE_TYPE) {
        /* Written by 1.0 files; any scalar, and its value means nothing. */
        if ((rc = ctg_scope_rule(rd, CTG_RULE_IDENTIFIABLE_TYPE)) != CTG_OK)
            return rc;
        if (rd->tok.type == CTG_TOK_OBJECT_BEGIN || rd->tok.type == CTG_TOK_ARRAY_BEGIN)
            return ctg_reader_type_error(rd, "string, number, boolean or null");
        return CTG_OK;
    }
    rc = ctg_read_array(rd, ctg_reader_handler(rd, CTG_HANDLER_IDENTIFIER), &items,
                        &list->identifier_count);
    list->identifiers = items;
    list->identifier_cap = 0; /* arena-owned, handed over by the reader */
    return rc;
}

/* The version may come after the identifiers: the root judges the rules when the list ends. */

/* ==== writing ==================================================================== */

/* Writer of `identifier` lists: PowSyBl's field order (spec 4), always the current version. */

static void emit_str(ctg_emitter *e, const char *s)
{
    ctg_emit_string(e, s, strlen(s));
}

/* A one-character field ("order", "wildcard") as its UTF-8 bytes; the emitter escapes
 * control characters as PowSyBl does ("\u0001"). */
static void emit_char(ctg_emitter *e, uint32_t cp)
{
    char bytes[4];

    ctg_emit_string(e, bytes, ctg_utf8_encode(cp, bytes));
}

static void write_identifier(ctg_emitter *e, const ctg_identifier *id);

static void write_items(ctg_emitter *e, const ctg_identifier *items, size_t count)
{
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < count; i++)
        write_identifier(e, &items[i]);
    ctg_emit_array_end(e);
}

/* In the order they were read or added: PowSyBl's hash-set order is not reproducible. */
static void write_types(ctg_emitter *e, const ctg_identifiable_type *types, size_t count)
{
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < count; i++)
        emit_str(e, ctg_identifiable_type_name(types[i]));
    ctg_emit_array_end(e);
}

static void write_kind_fields(ctg_emitter *e, const ctg_identifier *id)
{
    switch (id->kind) {
    case CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER:
        ctg_emit_name_key(e, &identifier_keys[K_VL1]);
        emit_str(e, id->voltage_level_id1);
        ctg_emit_name_key(e, &identifier_keys[K_VL2]);
        emit_str(e, id->voltage_level_id2);
        ctg_emit_name_key(e, &identifier_keys[K_ORDER]);
        emit_char(e, id->order);
        break;
    case CTG_IDENTIFIER_LIST:
        ctg_emit_name_key(e, &identifier_keys[K_LIST]);
        write_items(e, id->items, id->item_count);
        break;
    case CTG_IDENTIFIER_ID_WITH_WILDCARDS:
        ctg_emit_name_key(e, &identifier_keys[K_IDENTIFIER]);
        emit_str(e, id->id);
        if (!ctg_write_wildcard_field(e))
            break; /* before 1.3: the default '?' only (checked before the write) */
        ctg_emit_name_key(e, &identifier_keys[K_WILDCARD]);
        emit_char(e, id->wildcard != 0 ? id->wildcard : CTG_WILDCARD_DEFAULT);
        break;
    case CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS:
        ctg_emit_name_key(e, &identifier_keys[K_SUBSTATION]);
        if (id->id != NULL)
            emit_str(e, id->id);
        else
            ctg_emit_null(e);
        ctg_emit_name_key(e, &identifier_keys[K_TYPES]);
        write_types(e, id->types, id->type_count);
        break;
    default: /* ID_BASED */
        ctg_emit_name_key(e, &identifier_keys[K_IDENTIFIER]);
        emit_str(e, id->id);
        break;
    }
}

void ctg_write_identifier(ctg_emitter *e, const ctg_identifier *id)
{
    write_identifier(e, id);
}

static void write_identifier(ctg_emitter *e, const ctg_identifier *id)
{
    /* PowSyBl's SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS has no contingencyId of its own: it
     * reports its substationOrVoltageLevelId, and nothing when that is null. */
    const char *contingency_id = id->kind == CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS
                                     ? id->id : id->contingency_id;

    ctg_emit_object_begin(e);
    ctg_emit_name_key(e, &identifier_keys[K_TYPE]);
    emit_str(e, ctg_identifier_kind_name(id->kind));
    if (contingency_id != NULL) {
        ctg_emit_name_key(e, &identifier_keys[K_CONTINGENCY_ID]);
        emit_str(e, contingency_id);
    }
    write_kind_fields(e, id);
    ctg_emit_object_end(e);
}

int ctg_write_identifier_list(ctg_emitter *e, const ctg_list *list)
{
    size_t count;
    const ctg_identifier *ids = ctg_list_identifiers(list, &count);

    /* Lists from the reader and the builders always pass; a struct changed behind their back
     * is refused before anything is emitted. */
    if (ctg_list_get_kind(list) != CTG_LIST_IDENTIFIER || !ctg_identifiers_valid(ids, count))
        return CTG_EINVAL;
    ctg_write_list_head(e, CTG_LIST_IDENTIFIER, ctg_list_name(list));
    ctg_emit_name_key(e, &ctg_root_keys[CTG_RK_IDENTIFIERS]);
    write_items(e, ids, count);
    ctg_emit_object_end(e);
    return CTG_OK;
}
