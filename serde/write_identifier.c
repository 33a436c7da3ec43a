/* SPDX-License-Identifier: MPL-2.0 */
/* Writer of `identifier` lists: PowSyBl's field order (spec 4), always the current version. */

#include <string.h>

#include "ctg/error.h"
#include "model/identifier_impl.h"
#include "serde/version.h"
#include "serde/write_kinds.h"

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
        CTG_EMIT_KEY(e, "voltageLevelId1");
        emit_str(e, id->voltage_level_id1);
        CTG_EMIT_KEY(e, "voltageLevelId2");
        emit_str(e, id->voltage_level_id2);
        CTG_EMIT_KEY(e, "order");
        emit_char(e, id->order);
        break;
    case CTG_IDENTIFIER_LIST:
        CTG_EMIT_KEY(e, "identifierList");
        write_items(e, id->items, id->item_count);
        break;
    case CTG_IDENTIFIER_ID_WITH_WILDCARDS:
        CTG_EMIT_KEY(e, "identifier");
        emit_str(e, id->id);
        CTG_EMIT_KEY(e, "wildcard");
        emit_char(e, id->wildcard != 0 ? id->wildcard : CTG_WILDCARD_DEFAULT);
        break;
    case CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS:
        CTG_EMIT_KEY(e, "substationOrVoltageLevelId");
        if (id->id != NULL)
            emit_str(e, id->id);
        else
            ctg_emit_null(e);
        CTG_EMIT_KEY(e, "voltageLevelIdentifiableTypes");
        write_types(e, id->types, id->type_count);
        break;
    default: /* ID_BASED */
        CTG_EMIT_KEY(e, "identifier");
        emit_str(e, id->id);
        break;
    }
}

static void write_identifier(ctg_emitter *e, const ctg_identifier *id)
{
    /* PowSyBl's SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS has no contingencyId of its own: it
     * reports its substationOrVoltageLevelId, and nothing when that is null. */
    const char *contingency_id = id->kind == CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS
                                     ? id->id : id->contingency_id;

    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "type");
    emit_str(e, ctg_identifier_kind_name(id->kind));
    if (contingency_id != NULL) {
        CTG_EMIT_KEY(e, "contingencyId");
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
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "type");
    emit_str(e, ctg_list_kind_name(CTG_LIST_IDENTIFIER));
    CTG_EMIT_KEY(e, "version");
    emit_str(e, CTG_VERSION_IDENTIFIER);
    CTG_EMIT_KEY(e, "name");
    emit_str(e, ctg_list_name(list));
    CTG_EMIT_KEY(e, "identifiers");
    write_items(e, ids, count);
    ctg_emit_object_end(e);
    return CTG_OK;
}
