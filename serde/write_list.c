/* SPDX-License-Identifier: MPL-2.0 */
#include "serde/write_list.h"
#include "serde/write_kinds.h"

#include <string.h>

#include "ctg/error.h"
#include "serde/ext_internal.h"
#include "serde/version.h"

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
