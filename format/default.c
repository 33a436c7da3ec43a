/* SPDX-License-Identifier: MPL-2.0 */
/* Handlers of the `default` list's items: contingencies and their elements (spec 2). */

#include "format/default.h"

#include <string.h>

#include "model/list_impl.h"
#include "format/root.h"
#include "format/registry.h"
#include "format/scope.h"
#include "format/version.h"
#include "format/write.h"
#include "format/write_kinds.h"
#include "ctg/error.h"
#include "ext/ext.h"

/* ---- element --------------------------------------------------------------------------- */

enum { EL_ID, EL_TYPE, EL_VOLTAGE_LEVEL };
static const ctg_key element_keys[] = { CTG_KEY("id"), CTG_KEY("type"),
                                        CTG_KEY("voltageLevelId") };

/* Only these types keep a side on read; DC_LINE's is written but dropped (spec 2.2). */
static bool reads_side(ctg_element_type t)
{
    return t == CTG_ELEMENT_BRANCH || t == CTG_ELEMENT_HVDC_LINE || t == CTG_ELEMENT_LINE
           || t == CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER || t == CTG_ELEMENT_TIE_LINE;
}

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
        return ctg_read_string(rd, &el->id, "id");
    case EL_TYPE:
        return read_element_type(rd, el);
    default:
        return ctg_read_opt_string(rd, &el->voltage_level_id, "voltageLevelId");
    }
}

static const ctg_object_def element_def = { element_keys, 3, element_field };

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
        return ctg_reader_missing(rd, &start, "id");
    if (!(seen & (1u << EL_TYPE)))
        return ctg_reader_missing(rd, &start, "type");
    if (!reads_side(el->type))
        el->voltage_level_id = NULL; /* PowSyBl drops it silently, and so do we */
    return CTG_OK;
}

CTG_HANDLER_DEFINE(, ctg_element_handler, "element", ctg_element, read_element);

/* ---- contingency ----------------------------------------------------------------------- */

enum { CT_ID, CT_NAME, CT_ELEMENTS, CT_EXTENSIONS };
static const ctg_key contingency_keys[] = { CTG_KEY("id"), CTG_KEY("name"), CTG_KEY("elements"),
                                            CTG_KEY("extensions") };

static int read_elements(ctg_reader *rd, ctg_contingency *c)
{
    const ctg_handler *h = ctg_reader_handler(rd, CTG_SLOT_ELEMENT);
    void *items;
    int rc = ctg_read_array(rd, h, &items, &c->element_count);

    c->elements = items;
    return rc;
}

static int contingency_field(ctg_reader *rd, unsigned index, void *ctx)
{
    ctg_contingency *c = ctx;

    switch (index) {
    case CT_ID:
        return ctg_read_string(rd, &c->id, "id");
    case CT_NAME:
        return ctg_read_opt_string(rd, &c->name, "name");
    case CT_ELEMENTS:
        return read_elements(rd, c);
    default:
        return ctg_read_extensions(rd, &ctg_format_of(rd)->ext, c);
    }
}

static const ctg_object_def contingency_def = { contingency_keys, 4, contingency_field };

static int read_contingency(ctg_reader *rd, void *out)
{
    ctg_contingency *c = out;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen;
    int rc;

    memset(c, 0, sizeof(*c));
    if ((rc = ctg_read_object(rd, &contingency_def, c, &seen)) != CTG_OK)
        return rc;
    if (!(seen & (1u << CT_ID)))
        return ctg_reader_missing(rd, &start, "id");
    rd->contingencies++;
    return CTG_OK;
}

CTG_HANDLER_DEFINE(, ctg_contingency_handler, "contingency", ctg_contingency, read_contingency);

int ctg_read_contingency_array(ctg_reader *rd, const ctg_item_sink *sink,
                               ctg_contingency **items, size_t *count)
{
    const ctg_handler *h = ctg_reader_handler(rd, CTG_SLOT_CONTINGENCY);
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

    if (v->contingency && v->contingency(&ctg_scope_current(rd)->header, c, v->payload) != 0)
        return ctg_reader_fail(rd, CTG_ESTOPPED, "stopped by the visitor");
    return CTG_OK;
}

static int stream_item(ctg_reader *rd, void *item, void *ctx)
{
    (void)ctx;
    return deliver(rd, item);
}

static int default_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    ctg_format_reader *fr = ctg_format_of(rd);
    /* Streaming: each contingency is read into the item arena, delivered, then forgotten. */
    ctg_item_sink stream = { stream_item, NULL, fr->item_arena };

    (void)key; /* "contingencies" is its only own key */
    return ctg_read_contingency_array(rd, fr->visitor ? &stream : NULL, &list->items,
                                      &list->count);
}

/* The version rules of its elements are judged by the root when the list ends. */
const ctg_kind_reader ctg_kind_default = {
    CTG_VERSION_DEFAULT, CTG_RK_BIT(CTG_RK_CONTINGENCIES), CTG_RK_BIT(CTG_RK_CONTINGENCIES),
    default_field, NULL,
};

/* A bare contingency's fields land in the document's single contingency. */
static ctg_contingency *bare(ctg_reader *rd, ctg_list *list)
{
    if (!list->items) {
        list->items = ctg_arena_calloc(rd->arena, 1, sizeof(ctg_contingency));
        list->count = list->items ? 1 : 0;
    }
    return list->items;
}

static int contingency_doc_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    ctg_contingency *c = bare(rd, list);

    if (!c)
        return ctg_reader_nomem(rd);
    switch (key) {
    case CTG_RK_ID:
        return ctg_read_string(rd, &c->id, "id");
    case CTG_RK_ELEMENTS:
        return read_elements(rd, c);
    default:
        return ctg_read_extensions(rd, &ctg_format_of(rd)->ext, c);
    }
}

static int contingency_doc_finish(ctg_reader *rd, ctg_list *list, const ctg_mark *start,
                                  unsigned seen)
{
    ctg_contingency *c = bare(rd, list);

    if (!c)
        return ctg_reader_nomem(rd);
    if (!(seen & CTG_RK_BIT(CTG_RK_ID)))
        return ctg_reader_missing(rd, start, "id");
    /* The root read it as the document's "name". */
    c->name = (seen & CTG_RK_BIT(CTG_RK_NAME)) ? list->name : NULL;
    list->name = "";
    rd->contingencies++;
    return CTG_OK;
}

int ctg_deliver_bare_contingency(ctg_reader *rd, const ctg_list *list)
{
    if (!ctg_format_of(rd)->visitor)
        return CTG_OK;
    ctg_scope_current(rd)->header.name = NULL; /* a bare contingency belongs to no named list */
    return deliver(rd, list->items);
}

const ctg_kind_reader ctg_kind_contingency = {
    CTG_VERSION_DEFAULT,
    CTG_RK_BIT(CTG_RK_ID) | CTG_RK_BIT(CTG_RK_ELEMENTS) | CTG_RK_BIT(CTG_RK_EXTENSIONS),
    CTG_RK_BIT(CTG_RK_ID) | CTG_RK_BIT(CTG_RK_ELEMENTS) | CTG_RK_BIT(CTG_RK_EXTENSIONS),
    contingency_doc_field, contingency_doc_finish,
};

/* ==== writing ==================================================================== */

/* Field order and optional-field rules are PowSyBl's (spec 1.1, 2.1, 2.2). */

static void emit_str(ctg_emitter *e, const char *s)
{
    ctg_emit_string(e, s, strlen(s));
}

static const ctg_emit_name name_id = CTG_EMIT_NAME("id"), name_type = CTG_EMIT_NAME("type"),
                           name_name = CTG_EMIT_NAME("name"),
                           name_elements = CTG_EMIT_NAME("elements"),
                           name_voltage_level = CTG_EMIT_NAME("voltageLevelId");

static void member_str(ctg_emitter *e, const ctg_emit_name *name, const char *s)
{
    ctg_emit_member_string(e, name, s, strlen(s));
}

static void write_element(ctg_emitter *e, const ctg_element *el)
{
    /* Pre-1.1 name of BOUNDARY_LINE: never written. */
    ctg_element_type t =
        el->type == CTG_ELEMENT_DANGLING_LINE ? CTG_ELEMENT_BOUNDARY_LINE : el->type;
    const char *type_name = ctg_element_type_name(t);

    ctg_emit_member m[3];
    size_t n = 2;

    /* An out-of-range type cannot come from the reader or the builders; write something
     * a reader rejects rather than crash. */
    if (type_name == NULL)
        type_name = "";
    m[0] = (ctg_emit_member){ &name_id, el->id, strlen(el->id) };
    m[1] = (ctg_emit_member){ &name_type, type_name, strlen(type_name) };
    /* PowSyBl writes the side only when it is set and not empty. */
    if (ctg_element_type_is_sided(t) && el->voltage_level_id != NULL &&
        el->voltage_level_id[0] != '\0')
        m[n++] = (ctg_emit_member){ &name_voltage_level, el->voltage_level_id,
                                    strlen(el->voltage_level_id) };
    ctg_emit_string_object(e, m, n);
}

void ctg_write_contingency(ctg_emitter *e, const ctg_contingency *c)
{
    size_t i;

    ctg_emit_object_begin(e);
    member_str(e, &name_id, c->id);
    if (c->name != NULL)
        member_str(e, &name_name, c->name);
    ctg_emit_name_key(e, &name_elements);
    ctg_emit_array_begin(e);
    for (i = 0; i < c->element_count; i++)
        write_element(e, &c->elements[i]);
    ctg_emit_array_end(e);
    ctg_write_extensions(e, c);
    ctg_emit_object_end(e);
}

void ctg_write_default_begin(ctg_emitter *e, const char *name)
{
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "type");
    emit_str(e, ctg_list_kind_name(CTG_LIST_DEFAULT));
    CTG_EMIT_KEY(e, "version");
    ctg_emit_string(e, CTG_VERSION_DEFAULT, sizeof CTG_VERSION_DEFAULT - 1);
    CTG_EMIT_KEY(e, "name");
    emit_str(e, name != NULL ? name : "");
    CTG_EMIT_KEY(e, "contingencies");
    ctg_emit_array_begin(e);
}

void ctg_write_default_end(ctg_emitter *e)
{
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
}

static void write_default(ctg_emitter *e, const ctg_list *list)
{
    size_t count, i;
    const ctg_contingency *items = ctg_list_contingencies(list, &count);

    ctg_write_default_begin(e, ctg_list_name(list));
    for (i = 0; i < count; i++)
        ctg_write_contingency(e, &items[i]);
    ctg_write_default_end(e);
}

int ctg_write_list_json(ctg_emitter *e, const ctg_list *list)
{
    switch (ctg_list_get_kind(list)) {
    case CTG_LIST_DEFAULT:
        write_default(e, list);
        return CTG_OK;
    case CTG_LIST_CONTINGENCY:
        /* A bare contingency document (contingency.json): the object alone, no version. */
        if (ctg_list_contingency_count(list) != 1)
            return CTG_EINVAL;
        ctg_write_contingency(e, ctg_list_contingency_at(list, 0));
        return CTG_OK;
    case CTG_LIST_LIST:
        return ctg_write_list_of_lists(e, list);
    case CTG_LIST_IDENTIFIER:
        return ctg_write_identifier_list(e, list);
    case CTG_LIST_INJECTION_CRITERION:
    case CTG_LIST_LINE_CRITERION:
    case CTG_LIST_HVDC_CRITERION:
    case CTG_LIST_TIE_LINE_CRITERION:
    case CTG_LIST_TWT_CRITERION:
    case CTG_LIST_THREE_WT_CRITERION:
        return ctg_write_criterion_list(e, list);
    default:
        return CTG_EINVAL;
    }
}
