/* SPDX-License-Identifier: MPL-2.0 */
/* Handlers of the `default` list's items: contingencies and their elements (spec 2). */

#include "format/default.h"

#include <string.h>

#include "ctg/error.h"
#include "base/alloc.h"
#include "base/error_set.h"
#include "model/list_impl.h"
#include "ext/ext.h"
#include "format/kinds.h"
#include "format/registry.h"
#include "format/scope.h"
#include "format/version.h"
#include "format/write.h"
#include "format/write_version.h"

/* ---- element --------------------------------------------------------------------------- */

/* Read and written in this order (spec 2.2). */
enum { EL_ID, EL_TYPE, EL_VOLTAGE_LEVEL, EL_COUNT };
static const ctg_key element_keys[EL_COUNT] = {
    [EL_ID] = CTG_KEY("id"),
    [EL_TYPE] = CTG_KEY("type"),
    [EL_VOLTAGE_LEVEL] = CTG_KEY("voltageLevelId"),
};

/* The element types' names as the pretty writer copies them: quoted and padded, one fixed-size
 * copy each instead of a strlen and an escape check of a name that never needs one (some 60
 * instructions an element). Spelt as ctg_element_types spells them (model/list.c); the writer
 * tests write every type both ways. */
#define TYPE_KEY(x) [CTG_ELEMENT_##x] = CTG_KEY(#x)
static const ctg_key type_values[CTG_ELEMENT_TYPE_COUNT] = {
    TYPE_KEY(GENERATOR),
    TYPE_KEY(STATIC_VAR_COMPENSATOR),
    TYPE_KEY(SHUNT_COMPENSATOR),
    TYPE_KEY(BRANCH),
    TYPE_KEY(HVDC_LINE),
    TYPE_KEY(BUSBAR_SECTION),
    TYPE_KEY(DANGLING_LINE),
    TYPE_KEY(BOUNDARY_LINE),
    TYPE_KEY(LINE),
    TYPE_KEY(TWO_WINDINGS_TRANSFORMER),
    TYPE_KEY(THREE_WINDINGS_TRANSFORMER),
    TYPE_KEY(LOAD),
    TYPE_KEY(SWITCH),
    TYPE_KEY(BATTERY),
    TYPE_KEY(BUS),
    TYPE_KEY(TIE_LINE),
    TYPE_KEY(VOLTAGE_SOURCE_CONVERTER),
    TYPE_KEY(DC_LINE),
    TYPE_KEY(DC_GROUND),
    TYPE_KEY(DC_NODE),
};
#undef TYPE_KEY

static int read_element_type(ctg_reader *rd, ctg_element *el)
{
    ctg_element_type t;

    if (rd->tok.type == CTG_TOK_NULL)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "element \"type\" must not be null");
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (!ctg_element_type_from_name(rd->tok.str, rd->tok.len, &t))
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown element type \"%.*s\"",
                               (int)rd->tok.len, rd->tok.str);
    if (t == CTG_ELEMENT_DANGLING_LINE || t == CTG_ELEMENT_BOUNDARY_LINE) {
        int rc = ctg_scope_rule(rd, t == CTG_ELEMENT_DANGLING_LINE ? CTG_RULE_DANGLING_LINE
                                                                   : CTG_RULE_BOUNDARY_LINE);
        if (rc != CTG_OK)
            return rc;
        t = CTG_ELEMENT_BOUNDARY_LINE; /* pre-1.1 files say DANGLING_LINE */
    }
    el->type = t;
    return CTG_OK;
}

static int element_field(ctg_reader *rd, unsigned index, void *ctx)
{
    ctg_element *el = ctx;

    switch (index) {
    case EL_ID:
        return ctg_read_string(rd, &el->id, element_keys[EL_ID].name);
    case EL_TYPE:
        return read_element_type(rd, el);
    default:
        return ctg_read_opt_string(rd, &el->voltage_level_id,
                                   element_keys[EL_VOLTAGE_LEVEL].name);
    }
}

static const ctg_object_def element_def = { element_keys, EL_COUNT, element_field };

static int read_element(ctg_reader *rd, void *out)
{
    ctg_element *el = out;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen;
    int rc;

    el->voltage_level_id = NULL;
    if ((rc = ctg_read_object(rd, &element_def, el, &seen)) != CTG_OK)
        return rc;
    if (!(seen & (1u << EL_ID)))
        return ctg_reader_missing(rd, &start, element_keys[EL_ID].name);
    if (!(seen & (1u << EL_TYPE)))
        return ctg_reader_missing(rd, &start, element_keys[EL_TYPE].name);
    /* Which types keep it is the element type table's (model/list.c): DC_LINE's side is
     * written but dropped on read (spec 2.2). PowSyBl drops it silently, and so do we, unless
     * asked to keep it for a lint to flag. */
    if (!ctg_element_types[el->type].side_read && !(rd->flags & CTG_READ_KEEP_SIDES))
        el->voltage_level_id = NULL;
    return CTG_OK;
}

CTG_HANDLER_DEFINE(, ctg_element_handler, "element", ctg_element, read_element);

/* An element of a placed read: its opening brace is kept at its index, then it is read. */
static int read_element_placed(ctg_reader *rd, void *out)
{
    ctg_format_reader *fr = ctg_format_of(rd);
    size_t i = ctg_reader_top_frame(rd)->index;

    if (ctg_places_reserve(&fr->elements, i + 1) != CTG_OK)
        return ctg_reader_nomem(rd);
    fr->elements.lines[i] = rd->tok.line;
    fr->elements.columns[i] = ctg_column(rd->tok.offset, rd->tok.line_start);
    return read_element(rd, out);
}

static const ctg_handler element_placed_handler = { "element", sizeof(ctg_element),
                                                    read_element_placed };

/* ---- contingency ----------------------------------------------------------------------- */

/* Read and written in this order (spec 2.1); "extensions" is written by ext/write.c. */
enum { CT_ID, CT_NAME, CT_ELEMENTS, CT_EXTENSIONS, CT_COUNT };
static const ctg_key contingency_keys[CT_COUNT] = {
    [CT_ID] = CTG_KEY("id"),
    [CT_NAME] = CTG_KEY("name"),
    [CT_ELEMENTS] = CTG_KEY("elements"),
    [CT_EXTENSIONS] = CTG_KEY("extensions"),
};

static int read_elements_with(ctg_reader *rd, const ctg_handler *h, ctg_contingency *c)
{
    void *items;
    int rc = ctg_read_array(rd, h, &items, &c->element_count);

    c->elements = items;
    return rc;
}

static int read_elements(ctg_reader *rd, ctg_contingency *c)
{
    return read_elements_with(rd, ctg_reader_handler(rd, CTG_HANDLER_ELEMENT), c);
}

/* A placed read keeps each element's brace. It resolves the handler all the same, so that
 * the read's statistics do not depend on the visitor. */
static int read_elements_placed(ctg_reader *rd, ctg_contingency *c)
{
    (void)ctg_reader_handler(rd, CTG_HANDLER_ELEMENT);
    return read_elements_with(rd, &element_placed_handler, c);
}

static int contingency_field(ctg_reader *rd, unsigned index, void *ctx)
{
    ctg_contingency *c = ctx;

    switch (index) {
    case CT_ID:
        return ctg_read_string(rd, &c->id, contingency_keys[CT_ID].name);
    case CT_NAME:
        return ctg_read_opt_string(rd, &c->name, contingency_keys[CT_NAME].name);
    case CT_ELEMENTS:
        return read_elements(rd, c);
    default:
        return ctg_read_extensions(rd, &ctg_format_of(rd)->ext, c);
    }
}

static const ctg_object_def contingency_def = { contingency_keys, CT_COUNT, contingency_field };

/* The fields of a placed read: the same, keeping where the id and the elements are. */
static int contingency_field_placed(ctg_reader *rd, unsigned index, void *ctx)
{
    ctg_stream_place *at = &ctg_format_of(rd)->at;

    if (index == CT_ELEMENTS)
        return read_elements_placed(rd, ctx);
    if (index == CT_ID) {
        at->id_line = rd->tok.line;
        at->id_column = ctg_column(rd->tok.offset, rd->tok.line_start);
    }
    return contingency_field(rd, index, ctx);
}

static const ctg_object_def contingency_placed_def = { contingency_keys, CT_COUNT,
                                                       contingency_field_placed };

static int read_contingency_with(ctg_reader *rd, const ctg_object_def *def, void *out)
{
    ctg_contingency *c = out;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen;
    int rc;

    memset(c, 0, sizeof(*c));
    if ((rc = ctg_read_object(rd, def, c, &seen)) != CTG_OK)
        return rc;
    if (!(seen & (1u << CT_ID)))
        return ctg_reader_missing(rd, &start, contingency_keys[CT_ID].name);
    rd->contingencies++;
    return CTG_OK;
}

static int read_contingency(ctg_reader *rd, void *out)
{
    return read_contingency_with(rd, &contingency_def, out);
}

CTG_HANDLER_DEFINE(, ctg_contingency_handler, "contingency", ctg_contingency, read_contingency);

/* Starts the place of the contingency whose brace is the current token. */
static void place_begin(ctg_reader *rd, size_t index)
{
    ctg_format_reader *fr = ctg_format_of(rd);

    fr->at = (ctg_stream_place){ index, rd->tok.line,
                                 ctg_column(rd->tok.offset, rd->tok.line_start), rd->tok.offset,
                                 0, 0, NULL, NULL, NULL, NULL };
}

/* ---- lenient reads: a bad contingency reported and skipped -------------------------------- */

/* What a contingency's read changes in the reader, taken before it to undo a failed one. */
typedef struct item_state {
    size_t depth;       /* the lexer's with the item's container open; SIZE_MAX: a scalar */
    size_t frames;      /* path frames: the array's is on top */
    size_t stack_len;   /* the element arrays' scratch */
    unsigned deferred;  /* the version rules met before the list's version */
} item_state;

static item_state item_state_take(ctg_reader *rd)
{
    bool open = rd->tok.type == CTG_TOK_OBJECT_BEGIN || rd->tok.type == CTG_TOK_ARRAY_BEGIN;
    item_state s = { open ? ctg_lexer_depth(&rd->lex) : SIZE_MAX, rd->frame_count,
                     rd->stack_len, ctg_scope_current(rd)->deferred };
    return s;
}

/* Errors a lenient read skips: rules of the format, met by the reader with the JSON well
 * formed so far. The lexer's (syntax, limits, I/O, memory) and a stop are not. */
static bool skippable(int rc)
{
    return rc == CTG_ESCHEMA || rc == CTG_EUNSUPPORTED;
}

/* The contingency failed with a skippable error (in rd->err): consumes the rest of its object
 * (an item that is not one, a number say, is complete already; an array is skipped whole),
 * which must be well formed, puts the reader back as it was before it, and reports the error.
 * A syntax error in the rest stops the read with that error instead (nothing reported). */
static int skip_contingency(ctg_reader *rd, const item_state *s)
{
    ctg_format_reader *fr = ctg_format_of(rd);
    int rc = CTG_OK;

    while (rc == CTG_OK && ctg_lexer_depth(&rd->lex) >= s->depth)
        rc = ctg_lexer_skip_next(&rd->lex, &rd->tok, rd->err);
    rd->frame_count = s->frames;
    rd->stack_len = s->stack_len;
    rd->failed = false; /* the error to come, if any, is placed afresh */
    if (rc != CTG_OK)
        return rc;
    /* A rule deferred inside the skipped contingency is forgotten with it. */
    ctg_scope_current(rd)->deferred = s->deferred;
    ctg_error_set_source(rd->err, fr->source_name);
    if (fr->visitor->error(rd->err, fr->visitor->payload) != 0)
        return ctg_reader_fail(rd, CTG_ESTOPPED, "stopped by the visitor");
    fr->skip_item = true;
    return CTG_OK;
}

/* A contingency of a stream read with a version-2 visitor: placed, lenient, or both. */
static int read_contingency_v2(ctg_reader *rd, void *out)
{
    ctg_format_reader *fr = ctg_format_of(rd);
    const ctg_object_def *def = fr->placed ? &contingency_placed_def : &contingency_def;
    item_state s;
    int rc;

    if (fr->placed)
        place_begin(rd, ctg_reader_top_frame(rd)->index);
    if (!fr->lenient)
        return read_contingency_with(rd, def, out);
    s = item_state_take(rd);
    rc = read_contingency_with(rd, def, out);
    return rc == CTG_OK || !skippable(rc) ? rc : skip_contingency(rd, &s);
}

static const ctg_handler contingency_v2_handler = { "contingency", sizeof(ctg_contingency),
                                                    read_contingency_v2 };

/* Reads a "contingencies" array (rd->tok on '['): kept as one arena array in *items and
 * *count, or with `sink` (may be NULL) handed to it one by one, leaving both as they are. */
static int read_contingency_array(ctg_reader *rd, const ctg_item_sink *sink,
                                  ctg_contingency **items, size_t *count)
{
    const ctg_handler *h = ctg_reader_handler(rd, CTG_HANDLER_CONTINGENCY);
    void *p;
    size_t handed;
    int rc;

    if (sink)
        return ctg_read_array_to(rd, h, sink, &handed); /* nothing kept: *items stays */
    rc = ctg_read_array(rd, h, &p, count);
    *items = p;
    return rc;
}

/* ---- the `default` kind and the bare contingency ---------------------------------------- */

/* Streaming: hands a finished contingency to the visitor, with the header of its list. */
static int deliver(ctg_reader *rd, const ctg_contingency *c)
{
    const ctg_visitor *v = ctg_format_of(rd)->visitor;
    ctg_stream_header *h = &ctg_scope_current(rd)->header;
    int stop;

    if (!v->contingency)
        return CTG_OK;
    h->delivered = c; /* only while the callback runs (ctg_stream_writer_add_read) */
    stop = v->contingency(h, c, v->payload);
    h->delivered = NULL;
    return stop != 0 ? ctg_reader_fail(rd, CTG_ESTOPPED, "stopped by the visitor") : CTG_OK;
}

static int stream_item(ctg_reader *rd, void *item, void *ctx)
{
    (void)ctx;
    return deliver(rd, item);
}

/* The same for a placed or lenient read: a skipped contingency is not delivered, a placed one
 * goes to contingency_at with its place. */
static int deliver_v2(ctg_reader *rd, const ctg_contingency *c)
{
    ctg_format_reader *fr = ctg_format_of(rd);
    const ctg_visitor *v = fr->visitor;
    ctg_stream_header *h;
    int stop;

    if (fr->skip_item) { /* reported to the visitor's `error` instead */
        fr->skip_item = false;
        return CTG_OK;
    }
    if (!fr->placed)
        return deliver(rd, c);
    fr->at.element_lines = fr->elements.lines;
    fr->at.element_columns = fr->elements.columns;
    fr->at.extension_lines = fr->ext_names.lines;
    fr->at.extension_columns = fr->ext_names.columns;
    h = &ctg_scope_current(rd)->header;
    h->delivered = c;
    stop = v->contingency_at(h, c, &fr->at, v->payload);
    h->delivered = NULL;
    return stop != 0 ? ctg_reader_fail(rd, CTG_ESTOPPED, "stopped by the visitor") : CTG_OK;
}

static int stream_item_v2(ctg_reader *rd, void *item, void *ctx)
{
    (void)ctx;
    return deliver_v2(rd, item);
}

int ctg_default_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    ctg_format_reader *fr = ctg_format_of(rd);
    /* Streaming: each contingency is read into the item arena, delivered, then forgotten. A
     * version-2 visitor that asks for places or leniency gets its own handler and sink; the
     * others read as a version-1 visitor does, at no cost. */
    bool v2 = fr->placed || fr->lenient;
    ctg_item_sink stream = { v2 ? stream_item_v2 : stream_item, NULL, fr->item_arena };

    (void)key; /* "contingencies" is its only own key */
    if (fr->visitor && v2) {
        (void)ctg_reader_handler(rd, CTG_HANDLER_CONTINGENCY); /* counted as by any read */
        return ctg_read_array_to(rd, &contingency_v2_handler, &stream, &(size_t){ 0 });
    }
    return read_contingency_array(rd, fr->visitor ? &stream : NULL, &list->items,
                                  &list->count);
}

/* The version rules of its elements are judged by the root when the list ends: no finish. */

/* A bare contingency's fields land in the document's single contingency. */
static ctg_contingency *bare(ctg_reader *rd, ctg_list *list)
{
    if (!list->items) {
        list->items = ctg_arena_calloc(rd->arena, 1, sizeof(ctg_contingency));
        list->count = list->items ? 1 : 0;
    }
    return list->items;
}

int ctg_contingency_doc_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    ctg_contingency *c = bare(rd, list);

    if (!c)
        return ctg_reader_nomem(rd);
    switch (key) {
    case CTG_RK_ID:
        ctg_format_of(rd)->at.id_line = rd->tok.line; /* read only by a placed read */
        ctg_format_of(rd)->at.id_column = ctg_column(rd->tok.offset, rd->tok.line_start);
        return ctg_read_string(rd, &c->id, ctg_root_keys[CTG_RK_ID].name);
    case CTG_RK_ELEMENTS:
        return ctg_format_of(rd)->placed ? read_elements_placed(rd, c) : read_elements(rd, c);
    default:
        return ctg_read_extensions(rd, &ctg_format_of(rd)->ext, c);
    }
}

int ctg_contingency_doc_finish(ctg_reader *rd, ctg_list *list, const ctg_mark *start,
                               unsigned seen)
{
    ctg_contingency *c = bare(rd, list);

    if (!c)
        return ctg_reader_nomem(rd);
    if (!(seen & CTG_RK_BIT(CTG_RK_ID)))
        return ctg_reader_missing(rd, start, ctg_root_keys[CTG_RK_ID].name);
    /* The root read it as the document's "name". */
    c->name = (seen & CTG_RK_BIT(CTG_RK_NAME)) ? list->name : NULL;
    list->name = "";
    rd->contingencies++;
    ctg_format_of(rd)->at.index = 0; /* its place is the root object's */
    ctg_format_of(rd)->at.line = start->line;
    ctg_format_of(rd)->at.column = ctg_column(start->offset, start->line_start);
    ctg_format_of(rd)->at.offset = start->offset;
    return CTG_OK;
}

int ctg_deliver_bare_contingency(ctg_reader *rd, const ctg_list *list)
{
    if (!ctg_format_of(rd)->visitor)
        return CTG_OK;
    ctg_scope_current(rd)->header.name = NULL; /* a bare contingency belongs to no named list */
    return deliver_v2(rd, list->items);
}

/* ==== writing ==================================================================== */

/* Field order and optional-field rules are PowSyBl's (spec 1.1, 2.1, 2.2). */

static void member_str(ctg_emitter *e, const ctg_key *name, const char *s)
{
    ctg_emit_member_string(e, name, s, strlen(s));
}

/* One element, its type written as `t`'s name: BOUNDARY_LINE and DANGLING_LINE are one type
 * whose name depends on the version written. Inlined into both writers below, so that the
 * newest version's loop pays no call for it. */
static inline void write_element_as(ctg_emitter *e, const ctg_element *el, ctg_element_type t)
{
    /* An out-of-range type cannot come from the reader or the builders; write something
     * a reader rejects rather than crash. */
    static const ctg_element_type_def unknown = { "", false, false };
    const ctg_element_type_def *def =
        (unsigned)t < CTG_ELEMENT_TYPE_COUNT ? &ctg_element_types[t] : &unknown;
    ctg_emit_member m[EL_COUNT];
    size_t n = 2;

    m[0] = (ctg_emit_member){ &element_keys[EL_ID], el->id, strlen(el->id) };
    m[1] = (ctg_emit_member){ &element_keys[EL_TYPE], def->name, strlen(def->name) };
    /* PowSyBl writes the side only when it is set and not empty. */
    if (def->side_written && el->voltage_level_id != NULL && el->voltage_level_id[0] != '\0')
        m[n++] = (ctg_emit_member){ &element_keys[EL_VOLTAGE_LEVEL], el->voltage_level_id,
                                    strlen(el->voltage_level_id) };
    ctg_emit_string_object(e, m, n);
}

/* The type an element is written as: before 1.1 (`old_names`) BOUNDARY_LINE is DANGLING_LINE,
 * from 1.1 on DANGLING_LINE (read from an old file) is BOUNDARY_LINE. */
static inline ctg_element_type written_type(ctg_element_type t, bool old_names)
{
    if (old_names && t == CTG_ELEMENT_BOUNDARY_LINE)
        return CTG_ELEMENT_DANGLING_LINE;
    if (!old_names && t == CTG_ELEMENT_DANGLING_LINE)
        return CTG_ELEMENT_BOUNDARY_LINE;
    return t;
}

/* ---- the pretty layout in place (ctg_emit_raw_*): the bytes of the calls above, for the
 * contingencies without extensions, nearly all of them. The room of each member is checked
 * once; NULL after a failure, as in the emitter. */

/* A string member at `depth`: the name and the string under one room check, nearly always. */
static inline char *plain_member(ctg_emitter *e, char *p, bool first, size_t depth,
                                 const ctg_key *name, const char *s)
{
    size_t n = strlen(s);

    if (p != NULL && n <= CTG_EMIT_RAW_SLICE &&
        ctg_emit_raw_left(e, p) >= CTG_EMIT_NAME_ROOM(depth) + 6 * n + 2)
        return ctg_emit_quoted_into(ctg_emit_raw_name(p, first, depth, name), s, n);
    p = ctg_emit_raw_room(e, p, CTG_EMIT_NAME_ROOM(depth));
    if (p == NULL)
        return NULL;
    return ctg_emit_raw_string(e, ctg_emit_raw_name(p, first, depth, name), s, n);
}

/* Room for the type member at `depth` and the element's end after it. */
#define TYPE_ROOM(depth)                                                                       \
    (CTG_EMIT_NAME_ROOM(depth) + sizeof(((ctg_key *)0)->quoted) + CTG_EMIT_BREAK_ROOM(depth) + 1)

/* One element as write_element_as writes it, its members at `depth`. */
static inline char *plain_element(ctg_emitter *e, char *p, bool first, size_t depth,
                                  const ctg_element *el, ctg_element_type t)
{
    static const ctg_element_type_def unknown_def = { "", false, false };
    static const ctg_key unknown_value = CTG_KEY("");
    bool known = (unsigned)t < CTG_ELEMENT_TYPE_COUNT;
    const ctg_element_type_def *def = known ? &ctg_element_types[t] : &unknown_def;
    const ctg_key *value = known ? &type_values[t] : &unknown_value;

    p = ctg_emit_raw_room(e, p, 3);
    if (p == NULL)
        return NULL;
    memcpy(p, first ? " {" : ", {", 3); /* " {" has its NUL: 3 bytes either way */
    p += 3 - first;
    p = ctg_emit_raw_room(e, plain_member(e, p, true, depth, &element_keys[EL_ID], el->id),
                          TYPE_ROOM(depth));
    if (p == NULL)
        return NULL;
    p = ctg_emit_raw_name(p, false, depth, &element_keys[EL_TYPE]);
    memcpy(p, value->quoted, sizeof value->quoted); /* the name is padded: one fixed copy */
    p += value->len + 2;
    if (def->side_written && el->voltage_level_id != NULL && el->voltage_level_id[0] != '\0') {
        p = plain_member(e, p, false, depth, &element_keys[EL_VOLTAGE_LEVEL],
                         el->voltage_level_id);
        p = ctg_emit_raw_room(e, p, CTG_EMIT_BREAK_ROOM(depth) + 1);
        if (p == NULL)
            return NULL;
    }
    p = ctg_emit_raw_break(p, false, depth - 1);
    *p++ = '}';
    return p;
}

/* write_contingency_body in place; false when the calls must write it (extensions, the
 * compact layout, ...). */
static inline bool write_plain(ctg_emitter *e, const ctg_contingency *c, bool old_names)
{
    size_t d = (size_t)e->obj_depth + 1; /* the contingency's members */
    char *p = c->extension_count == 0 ? ctg_emit_raw_begin(e, 3, 1 + CTG_EMIT_NAME_ROOM(d))
                                      : NULL;

    if (p == NULL)
        return false;
    *p++ = '{';
    p = plain_member(e, p, true, d, &contingency_keys[CT_ID], c->id);
    if (c->name != NULL)
        p = plain_member(e, p, false, d, &contingency_keys[CT_NAME], c->name);
    p = ctg_emit_raw_room(e, p, CTG_EMIT_NAME_ROOM(d) + 1);
    if (p == NULL)
        return true;
    p = ctg_emit_raw_name(p, false, d, &contingency_keys[CT_ELEMENTS]);
    *p++ = '[';
    for (size_t i = 0; i < c->element_count && p != NULL; i++)
        p = plain_element(e, p, i == 0, d + 1, &c->elements[i],
                          written_type(c->elements[i].type, old_names));
    p = ctg_emit_raw_room(e, p, 2 + CTG_EMIT_BREAK_ROOM(d) + 1);
    if (p == NULL)
        return true;
    memcpy(p, " ]", 2);
    p = ctg_emit_raw_break(p + 2, false, d - 1);
    *p++ = '}';
    ctg_emit_raw_end(e, p);
    return true;
}

/* A contingency whose elements are written with `old_names` (before 1.1, BOUNDARY_LINE is
 * DANGLING_LINE) or the current ones. Inlined with a constant `old_names` into the two
 * writers the lists pick from once per list, so the newest version, nearly every write, runs
 * no per-element test of the version. */
static inline void write_contingency_body(ctg_emitter *e, const ctg_contingency *c,
                                          bool old_names)
{
    if (write_plain(e, c, old_names))
        return;
    ctg_emit_object_begin(e);
    member_str(e, &contingency_keys[CT_ID], c->id);
    if (c->name != NULL)
        member_str(e, &contingency_keys[CT_NAME], c->name);
    ctg_emit_name_key(e, &contingency_keys[CT_ELEMENTS]);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < c->element_count; i++) {
        const ctg_element *el = &c->elements[i];
        write_element_as(e, el, written_type(el->type, old_names));
    }
    ctg_emit_array_end(e);
    ctg_write_extensions(e, &contingency_keys[CT_EXTENSIONS], c);
    ctg_emit_object_end(e);
}

void ctg_write_contingency(ctg_emitter *e, const ctg_contingency *c)
{
    write_contingency_body(e, c, false);
}

static void write_old_contingency(ctg_emitter *e, const ctg_contingency *c)
{
    write_contingency_body(e, c, true);
}

ctg_contingency_writer ctg_write_contingency_fn(const ctg_emitter *e)
{
    return e->above != NULL && ctg_write_old_names(e) ? write_old_contingency
                                                      : ctg_write_contingency;
}

void ctg_write_default_begin(ctg_emitter *e, const char *name)
{
    ctg_write_list_head(e, CTG_LIST_DEFAULT, name);
    ctg_emit_name_key(e, &ctg_root_keys[CTG_RK_CONTINGENCIES]);
    ctg_emit_array_begin(e);
}

void ctg_write_default_end(ctg_emitter *e)
{
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
}

int ctg_write_default_list(ctg_emitter *e, const ctg_list *list)
{
    size_t count, i;
    const ctg_contingency *items = ctg_list_contingencies(list, &count);

    ctg_contingency_writer write = ctg_write_contingency_fn(e);

    ctg_write_default_begin(e, ctg_list_name(list));
    if (write == ctg_write_contingency) { /* a direct call in the common loop */
        for (i = 0; i < count; i++)
            ctg_write_contingency(e, &items[i]);
    } else {
        for (i = 0; i < count; i++)
            write(e, &items[i]);
    }
    ctg_write_default_end(e);
    return CTG_OK;
}

/* A bare contingency document (contingency.json): the object alone, no version. */
int ctg_write_contingency_doc(ctg_emitter *e, const ctg_list *list)
{
    if (ctg_list_contingency_count(list) != 1)
        return CTG_EINVAL;
    ctg_write_contingency_fn(e)(e, ctg_list_contingency_at(list, 0));
    return CTG_OK;
}
