/* SPDX-License-Identifier: MPL-2.0 */
/* `identifier` lists (spec 4): names of identifier kinds and IdentifiableTypes, the rules an
 * identifier must follow, and the builders. */

#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "ctg/error.h"
#include "ctg/model.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "model/identifier_impl.h"
#include "base/names.h"
#include "base/utf8.h"
#include "model/list_impl.h"

/* ---- names ---------------------------------------------------------------------------- */

static const char *const identifiable_names[CTG_IDENTIFIABLE_TYPE_COUNT] = {
    [CTG_IDENTIFIABLE_NETWORK] = "NETWORK",
    [CTG_IDENTIFIABLE_SUBSTATION] = "SUBSTATION",
    [CTG_IDENTIFIABLE_VOLTAGE_LEVEL] = "VOLTAGE_LEVEL",
    [CTG_IDENTIFIABLE_AREA] = "AREA",
    [CTG_IDENTIFIABLE_HVDC_LINE] = "HVDC_LINE",
    [CTG_IDENTIFIABLE_BUS] = "BUS",
    [CTG_IDENTIFIABLE_SWITCH] = "SWITCH",
    [CTG_IDENTIFIABLE_BUSBAR_SECTION] = "BUSBAR_SECTION",
    [CTG_IDENTIFIABLE_LINE] = "LINE",
    [CTG_IDENTIFIABLE_TIE_LINE] = "TIE_LINE",
    [CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER] = "TWO_WINDINGS_TRANSFORMER",
    [CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER] = "THREE_WINDINGS_TRANSFORMER",
    [CTG_IDENTIFIABLE_GENERATOR] = "GENERATOR",
    [CTG_IDENTIFIABLE_BATTERY] = "BATTERY",
    [CTG_IDENTIFIABLE_LOAD] = "LOAD",
    [CTG_IDENTIFIABLE_SHUNT_COMPENSATOR] = "SHUNT_COMPENSATOR",
    [CTG_IDENTIFIABLE_BOUNDARY_LINE] = "BOUNDARY_LINE",
    [CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR] = "STATIC_VAR_COMPENSATOR",
    [CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION] = "HVDC_CONVERTER_STATION",
    [CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM] = "OVERLOAD_MANAGEMENT_SYSTEM",
    [CTG_IDENTIFIABLE_GROUND] = "GROUND",
    [CTG_IDENTIFIABLE_DC_NODE] = "DC_NODE",
    [CTG_IDENTIFIABLE_DC_SWITCH] = "DC_SWITCH",
    [CTG_IDENTIFIABLE_DC_GROUND] = "DC_GROUND",
    [CTG_IDENTIFIABLE_DC_LINE] = "DC_LINE",
    [CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER] = "LINE_COMMUTATED_CONVERTER",
    [CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER] = "VOLTAGE_SOURCE_CONVERTER",
    [CTG_IDENTIFIABLE_DC_BUS] = "DC_BUS",
};

/* The names by length (base/names.h). */
#define T(x) (CTG_IDENTIFIABLE_##x + 1)
static const unsigned char identifiable_by_len[27][CTG_NAMES_PER_LEN] = {
    [3] = { T(BUS) },
    [4] = { T(AREA), T(LINE), T(LOAD) },
    [6] = { T(SWITCH), T(GROUND), T(DC_BUS) },
    [7] = { T(NETWORK), T(BATTERY), T(DC_NODE), T(DC_LINE) },
    [8] = { T(TIE_LINE) },
    [9] = { T(HVDC_LINE), T(GENERATOR), T(DC_SWITCH), T(DC_GROUND) },
    [10] = { T(SUBSTATION) },
    [13] = { T(VOLTAGE_LEVEL), T(BOUNDARY_LINE) },
    [14] = { T(BUSBAR_SECTION) },
    [17] = { T(SHUNT_COMPENSATOR) },
    [22] = { T(STATIC_VAR_COMPENSATOR), T(HVDC_CONVERTER_STATION) },
    [24] = { T(TWO_WINDINGS_TRANSFORMER), T(VOLTAGE_SOURCE_CONVERTER) },
    [25] = { T(LINE_COMMUTATED_CONVERTER) },
    [26] = { T(THREE_WINDINGS_TRANSFORMER), T(OVERLOAD_MANAGEMENT_SYSTEM) },
};
#undef T
static const ctg_names identifiable_type_names = CTG_NAMES_OF(identifiable_names,
                                                              identifiable_by_len);

static const char *const identifier_kind_names[CTG_IDENTIFIER_KIND_COUNT] = {
    [CTG_IDENTIFIER_ID_BASED] = "ID_BASED",
    [CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER] = "VOLTAGE_LEVELS_AND_ORDER",
    [CTG_IDENTIFIER_LIST] = "LIST",
    [CTG_IDENTIFIER_ID_WITH_WILDCARDS] = "ID_WITH_WILDCARDS",
    [CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS] =
        "SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS",
};

#define K(x) (CTG_IDENTIFIER_##x + 1)
static const unsigned char identifier_kinds_by_len[39][CTG_NAMES_PER_LEN] = {
    [4] = { K(LIST) },
    [8] = { K(ID_BASED) },
    [17] = { K(ID_WITH_WILDCARDS) },
    [24] = { K(VOLTAGE_LEVELS_AND_ORDER) },
    [38] = { K(SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS) },
};
#undef K
static const ctg_names identifier_kind_table = CTG_NAMES_OF(identifier_kind_names,
                                                            identifier_kinds_by_len);

const char *ctg_identifiable_type_name(ctg_identifiable_type type)
{
    if ((unsigned)type >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return NULL;
    return identifiable_names[type];
}

bool ctg_identifiable_type_from_name(const char *name, size_t len, ctg_identifiable_type *out)
{
    unsigned v;

    if (!ctg_names_find(&identifiable_type_names, name, len, &v))
        return false;
    if (out != NULL)
        *out = (ctg_identifiable_type)v;
    return true;
}

const char *ctg_identifier_kind_name(ctg_identifier_kind kind)
{
    if ((unsigned)kind >= CTG_IDENTIFIER_KIND_COUNT)
        return NULL;
    return identifier_kind_names[kind];
}

bool ctg_identifier_kind_from_name(const char *name, size_t len, ctg_identifier_kind *out)
{
    unsigned v;

    if (!ctg_names_find(&identifier_kind_table, name, len, &v))
        return false;
    *out = (ctg_identifier_kind)v;
    return true;
}

/* ---- UTF-8 ----------------------------------------------------------------------------- */

/* The code point starting at `s` (a lead byte of valid UTF-8, `len` bytes available). */
static uint32_t decode_one(const unsigned char *s, size_t len)
{
    uint32_t cp = s[0];
    size_t n = cp < 0x80 ? 1 : cp < 0xE0 ? 2 : cp < 0xF0 ? 3 : 4;

    if (n > len)
        return 0xFFFD; /* cannot happen on the lexer's output */
    if (n > 1)
        cp &= 0x7Fu >> n;
    for (size_t i = 1; i < n; i++)
        cp = (cp << 6) | (s[i] & 0x3Fu);
    return cp;
}

size_t ctg_utf8_decode(const char *s, size_t len, uint32_t *first)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t count = 0;

    *first = len > 0 ? decode_one(u, len) : 0;
    for (size_t i = 0; i < len; i++)
        count += (u[i] & 0xC0) != 0x80; /* every byte but continuation bytes starts one */
    return count;
}

/* A match of a whole code point's bytes can only start on a lead byte, so byte matching is
 * code point matching. */
size_t ctg_utf8_count_cp(const char *s, size_t len, uint32_t cp)
{
    char pat[4];
    size_t n = ctg_utf8_encode(cp, pat), count = 0;

    for (size_t i = 0; i + n <= len;) {
        if (memcmp(s + i, pat, n) == 0) {
            count++;
            i += n;
        } else {
            i++;
        }
    }
    return count;
}

/* ---- rules ----------------------------------------------------------------------------- */

static bool identifier_valid(const ctg_identifier *id, unsigned depth);

static bool wildcard_valid(const ctg_identifier *id)
{
    uint32_t w = id->wildcard != 0 ? id->wildcard : CTG_WILDCARD_DEFAULT;
    size_t n;

    if (id->id == NULL || !ctg_is_scalar(w))
        return false;
    n = ctg_utf8_count_cp(id->id, strlen(id->id), w);
    return n >= CTG_WILDCARD_MIN && n <= CTG_WILDCARD_MAX;
}

static bool items_valid(const ctg_identifier *items, size_t count, unsigned depth)
{
    if (count > 0 && (items == NULL || depth > CTG_IDENTIFIER_MAX_NESTING))
        return false;
    for (size_t i = 0; i < count; i++)
        if (!identifier_valid(&items[i], depth))
            return false;
    return true;
}

static bool types_valid(const ctg_identifiable_type *types, size_t count)
{
    if (count > 0 && types == NULL)
        return false;
    for (size_t i = 0; i < count; i++)
        if ((unsigned)types[i] >= CTG_IDENTIFIABLE_TYPE_COUNT)
            return false;
    return true;
}

/* Only the fields of the identifier's kind are looked at, as PowSyBl's reader does; every
 * string is checked as the reader checks input. */
static bool identifier_valid(const ctg_identifier *id, unsigned depth)
{
    if (!ctg_utf8_valid(id->contingency_id) || !ctg_utf8_valid(id->id)
        || !ctg_utf8_valid(id->voltage_level_id1) || !ctg_utf8_valid(id->voltage_level_id2))
        return false;
    switch (id->kind) {
    case CTG_IDENTIFIER_ID_BASED:
        return id->id != NULL;
    case CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER:
        return id->voltage_level_id1 != NULL && id->voltage_level_id2 != NULL
               && ctg_order_valid(id->order);
    case CTG_IDENTIFIER_LIST:
        return items_valid(id->items, id->item_count, depth + 1);
    case CTG_IDENTIFIER_ID_WITH_WILDCARDS:
        return wildcard_valid(id);
    case CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS:
        return types_valid(id->types, id->type_count);
    default:
        return false;
    }
}

bool ctg_identifiers_valid(const ctg_identifier *ids, size_t count)
{
    return items_valid(ids, count, 0);
}

/* ---- accessors and builders ------------------------------------------------------------ */

const ctg_identifier *ctg_list_identifiers(const ctg_list *list, size_t *count)
{
    size_t n = list != NULL && list->kind == CTG_LIST_IDENTIFIER ? list->identifier_count : 0;

    if (count != NULL)
        *count = n;
    return n == 0 ? NULL : list->identifiers;
}

/* The set of types, duplicates collapsed, first occurrences kept in order (as the reader). */
static const ctg_identifiable_type *copy_types(ctg_arena *arena, const ctg_identifiable_type *src,
                                               size_t count, size_t *out_count, bool *ok)
{
    ctg_identifiable_type *dst;
    uint32_t seen = 0;
    size_t n = 0;

    *out_count = 0;
    if (count == 0)
        return NULL;
    dst = ctg_arena_alloc(arena, count * sizeof *dst, alignof(ctg_identifiable_type));
    if (dst == NULL) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        if (!(seen & (UINT32_C(1) << src[i]))) {
            seen |= UINT32_C(1) << src[i];
            dst[n++] = src[i];
        }
    }
    *out_count = n;
    return dst;
}

static void copy_identifier(ctg_arena *arena, ctg_identifier *dst, const ctg_identifier *src,
                            bool *ok);

static const ctg_identifier *copy_items(ctg_arena *arena, const ctg_identifier *src, size_t count,
                                        bool *ok)
{
    ctg_identifier *dst;

    if (count == 0)
        return NULL;
    /* count * sizeof cannot overflow: src holds that many identifiers. */
    dst = ctg_arena_alloc(arena, count * sizeof *dst, alignof(ctg_identifier));
    if (dst == NULL) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < count && *ok; i++)
        copy_identifier(arena, &dst[i], &src[i], ok);
    return dst;
}

/* A deep copy holding only the fields of the kind, normalised as the reader leaves them: no
 * contingencyId on SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS (PowSyBl derives it), the default
 * wildcard made explicit. */
static void copy_identifier(ctg_arena *arena, ctg_identifier *dst, const ctg_identifier *src,
                            bool *ok)
{
    memset(dst, 0, sizeof *dst);
    dst->kind = src->kind;
    if (src->kind != CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS)
        dst->contingency_id = ctg_arena_strdup_or_flag(arena, src->contingency_id, ok);
    switch (src->kind) {
    case CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER:
        dst->voltage_level_id1 = ctg_arena_strdup_or_flag(arena, src->voltage_level_id1, ok);
        dst->voltage_level_id2 = ctg_arena_strdup_or_flag(arena, src->voltage_level_id2, ok);
        dst->order = src->order;
        break;
    case CTG_IDENTIFIER_LIST:
        dst->items = copy_items(arena, src->items, src->item_count, ok);
        dst->item_count = src->item_count;
        break;
    case CTG_IDENTIFIER_ID_WITH_WILDCARDS:
        dst->wildcard = src->wildcard != 0 ? src->wildcard : CTG_WILDCARD_DEFAULT;
        dst->id = ctg_arena_strdup_or_flag(arena, src->id, ok);
        break;
    case CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS:
        dst->types = copy_types(arena, src->types, src->type_count, &dst->type_count, ok);
        dst->id = ctg_arena_strdup_or_flag(arena, src->id, ok);
        break;
    default: /* ID_BASED */
        dst->id = ctg_arena_strdup_or_flag(arena, src->id, ok);
        break;
    }
}

/* Room for one more identifier. The array lives in the arena: it grows by copying, and a
 * read list (cap 0, its array handed over by the reader) is copied on its first growth. */
static bool reserve_identifier(ctg_list *list)
{
    const size_t item = sizeof *list->identifiers;
    size_t cap;
    ctg_identifier *p;

    if (list->identifier_count < list->identifier_cap)
        return true;
    if (!ctg_grow_capacity(list->identifier_cap, list->identifier_count + 1, 8,
                           SIZE_MAX / item, &cap))
        return false;
    p = ctg_arena_alloc(list->arena, cap * item, alignof(ctg_identifier));
    if (p == NULL)
        return false;
    if (list->identifier_count > 0)
        memcpy(p, list->identifiers, list->identifier_count * item);
    list->identifiers = p;
    list->identifier_cap = cap;
    return true;
}

bool ctg_identifier_copy(ctg_arena *arena, ctg_identifier *dst, const ctg_identifier *src)
{
    bool ok = true;

    copy_identifier(arena, dst, src, &ok);
    return ok;
}

int ctg_list_add_identifier(ctg_list *list, const ctg_identifier *id)
{
    ctg_identifier c;
    bool ok = true;

    if (list == NULL || list->kind != CTG_LIST_IDENTIFIER || id == NULL
        || !ctg_identifiers_valid(id, 1))
        return CTG_EINVAL;
    /* On failure, what was copied stays in the arena until the list is freed; the list's
     * identifiers are untouched. */
    copy_identifier(list->arena, &c, id, &ok);
    if (!ok || !reserve_identifier(list))
        return CTG_ENOMEM;
    list->identifiers[list->identifier_count++] = c;
    return CTG_OK;
}
