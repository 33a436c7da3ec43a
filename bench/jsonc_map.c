/* SPDX-License-Identifier: MPL-2.0 */
/* jsonc-dom-map: the obvious way to write this library on json-c. The document is parsed into
 * a json-c DOM, which is then walked into ctg structs through the public builders, checking
 * JSON types and rejecting unknown fields as ctg's own reader does. It lives in bench/ only, as
 * the reference that ctg-read is measured against. */

#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The walk's state: the input for errors, a scratch element array reused for every
 * contingency, and the blocks the identifier and criterion builders borrow until they copy. */
typedef struct map {
    bench_input *in;
    ctg_element *elements;
    size_t element_cap;
    void **blocks;
    size_t block_count, block_cap;
} map;

static int fail(map *m, const char *what, const char *key)
{
    return bench_why(m->in, BENCH_FAIL, "jsonc-dom-map: %s%s%s", what, key ? ": " : "",
                     key ? key : "");
}

/* A block freed by release_blocks (after the builder has copied what it points to). */
static void *scratch(map *m, size_t count, size_t size)
{
    void *p;

    if (m->block_count == m->block_cap) {
        size_t cap = m->block_cap ? 2 * m->block_cap : 16;
        void **blocks = realloc(m->blocks, cap * sizeof *blocks);
        if (blocks == NULL)
            return NULL;
        m->blocks = blocks;
        m->block_cap = cap;
    }
    if ((p = calloc(count ? count : 1, size)) != NULL)
        m->blocks[m->block_count++] = p;
    return p;
}

static void release_blocks(map *m)
{
    while (m->block_count > 0)
        free(m->blocks[--m->block_count]);
}

/* The members of the object `obj` in document order; walk on with lh_entry_next. */
static struct lh_entry *first_member(json_object *obj)
{
    return lh_table_head(json_object_get_object(obj));
}

static const char *string_of(json_object *v)
{
    return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* A required string member value; NULL (and the error set) when it is not a string. */
static const char *need_string(map *m, json_object *v, const char *key)
{
    const char *s = string_of(v);

    if (s == NULL)
        fail(m, "expected a string", key);
    return s;
}

static bool is_array(map *m, json_object *v, const char *key)
{
    if (json_object_is_type(v, json_type_array))
        return true;
    fail(m, "expected an array", key);
    return false;
}

/* ---- default lists ------------------------------------------------------------------------ */

static int map_element(map *m, json_object *obj, ctg_element *out)
{
    const char *type = NULL;

    memset(out, 0, sizeof *out);
    if (!json_object_is_type(obj, json_type_object))
        return fail(m, "expected an element object", NULL);
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        if (strcmp(key, "id") == 0) {
            if ((out->id = need_string(m, val, key)) == NULL)
                return BENCH_FAIL;
        } else if (strcmp(key, "type") == 0) {
            if ((type = need_string(m, val, key)) == NULL)
                return BENCH_FAIL;
        } else if (strcmp(key, "voltageLevelId") == 0) {
            out->voltage_level_id = string_of(val);
        } else {
            return fail(m, "unexpected field", key);
        }
    }
    if (out->id == NULL || type == NULL)
        return fail(m, "an element needs an id and a type", NULL);
    if (!ctg_element_type_from_name(type, strlen(type), &out->type))
        return fail(m, "unknown element type", type);
    return BENCH_OK;
}

static int map_elements(map *m, json_object *arr, size_t *count)
{
    size_t n = json_object_array_length(arr);

    if (n > m->element_cap) {
        ctg_element *e = realloc(m->elements, n * sizeof *e);
        if (e == NULL)
            return fail(m, "out of memory", NULL);
        m->elements = e;
        m->element_cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        if (map_element(m, json_object_array_get_idx(arr, i), &m->elements[i]) != BENCH_OK)
            return BENCH_FAIL;
    }
    *count = n;
    return BENCH_OK;
}

static int map_contingency(map *m, ctg_list *list, json_object *obj)
{
    const char *id = NULL, *name = NULL;
    size_t count = 0;

    if (!json_object_is_type(obj, json_type_object))
        return fail(m, "expected a contingency object", NULL);
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        if (strcmp(key, "id") == 0) {
            if ((id = need_string(m, val, key)) == NULL)
                return BENCH_FAIL;
        } else if (strcmp(key, "name") == 0) {
            name = string_of(val); /* PowSyBl reads a non-string name as absent */
        } else if (strcmp(key, "elements") == 0) {
            if (!is_array(m, val, key) || map_elements(m, val, &count) != BENCH_OK)
                return BENCH_FAIL;
        } else if (strcmp(key, "extensions") == 0) {
            /* ctg_list_add_contingency takes no extensions, and no other builder does */
            return bench_why(m->in, BENCH_UNSUPPORTED,
                             "the public builders cannot attach extensions");
        } else {
            return fail(m, "unexpected field", key);
        }
    }
    if (id == NULL)
        return fail(m, "a contingency needs an id", NULL);
    if (ctg_list_add_contingency(list, id, name, m->elements, count) != CTG_OK)
        return fail(m, "ctg_list_add_contingency failed", id);
    return BENCH_OK;
}

/* ---- the fields every list has, and the dispatch on "type" -------------------------------- */

static int map_list(map *m, ctg_list *list, json_object *obj);

/* "type", "version" and "name" of any list: checked here, used by the caller. */
static int header_field(map *m, const char *key, json_object *val, bool *handled)
{
    *handled = strcmp(key, "type") == 0 || strcmp(key, "name") == 0 || strcmp(key, "version") == 0;
    if (*handled && strcmp(key, "version") != 0 && need_string(m, val, key) == NULL)
        return BENCH_FAIL;
    return BENCH_OK;
}

/* Maps one item of a list's array into `list`. */
typedef int (*item_fn)(map *m, ctg_list *list, json_object *item);

/* A list whose only own member is the array `member`: the header fields, then each item of the
 * array through `item`. */
static int map_array_list(map *m, ctg_list *list, json_object *obj, const char *member,
                          item_fn item)
{
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        bool handled;
        if (header_field(m, key, val, &handled) != BENCH_OK)
            return BENCH_FAIL;
        if (handled)
            continue;
        if (strcmp(key, member) != 0)
            return fail(m, "unexpected field", key);
        if (!is_array(m, val, key))
            return BENCH_FAIL;
        for (size_t i = 0; i < json_object_array_length(val); i++) {
            int rc = item(m, list, json_object_array_get_idx(val, i));
            if (rc != BENCH_OK)
                return rc; /* BENCH_UNSUPPORTED too */
        }
    }
    return BENCH_OK;
}

static bool kind_of(json_object *obj, ctg_list_kind *kind, const char **name)
{
    json_object *type = NULL, *n = NULL;
    const char *s;

    if (!json_object_is_type(obj, json_type_object) ||
        !json_object_object_get_ex(obj, "type", &type) || (s = string_of(type)) == NULL ||
        !json_object_object_get_ex(obj, "name", &n) || (*name = string_of(n)) == NULL)
        return false;
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++) {
        if (k != CTG_LIST_CONTINGENCY && strcmp(ctg_list_kind_name((ctg_list_kind)k), s) == 0) {
            *kind = (ctg_list_kind)k;
            return true;
        }
    }
    return false;
}

static int map_child(map *m, ctg_list *parent, json_object *obj)
{
    ctg_list_kind kind;
    const char *name;
    ctg_list *child = NULL;

    if (!kind_of(obj, &kind, &name))
        return fail(m, "a list needs a known \"type\" and a \"name\"", NULL);
    if (ctg_list_add_child(parent, kind, name, &child) != CTG_OK)
        return fail(m, "ctg_list_add_child failed", name);
    return map_list(m, child, obj);
}

/* ---- identifier lists (spec section 4) ---------------------------------------------------- */

static bool lookup_name(const char *(*name_of)(int), int count, const char *s, int *out)
{
    for (int i = 0; s != NULL && i < count; i++) {
        const char *n = name_of(i);
        if (n != NULL && strcmp(n, s) == 0) {
            *out = i;
            return true;
        }
    }
    return false;
}

static const char *identifier_kind_name(int i)
{
    return ctg_identifier_kind_name((ctg_identifier_kind)i);
}

static const char *criterion_type_name(int i)
{
    return ctg_criterion_type_name((ctg_criterion_type)i);
}

static const char *identifiable_type_name(int i)
{
    return ctg_identifiable_type_name((ctg_identifiable_type)i);
}

/* The one code point of a string, as "order" and "wildcard" hold; false when it has more. */
static bool one_code_point(const char *s, unsigned *out)
{
    const unsigned char *p = (const unsigned char *)s;
    int extra = *p < 0x80 ? 0 : *p < 0xE0 ? 1 : *p < 0xF0 ? 2 : 3;
    unsigned cp = extra == 0 ? *p : *p & (0x3Fu >> extra);

    if (*p == '\0')
        return false;
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return false;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    *out = cp;
    return p[extra + 1] == '\0';
}

static int map_identifier(map *m, json_object *obj, ctg_identifier *out);

static int map_identifier_items(map *m, json_object *arr, ctg_identifier *out)
{
    size_t n = json_object_array_length(arr);
    ctg_identifier *items = scratch(m, n, sizeof *items);

    if (items == NULL)
        return fail(m, "out of memory", NULL);
    for (size_t i = 0; i < n; i++) {
        if (map_identifier(m, json_object_array_get_idx(arr, i), &items[i]) != BENCH_OK)
            return BENCH_FAIL;
    }
    out->items = items;
    out->item_count = n;
    return BENCH_OK;
}

static int map_identifiable_types(map *m, json_object *arr, ctg_identifier *out)
{
    size_t n = json_object_array_length(arr);
    ctg_identifiable_type *types = scratch(m, n, sizeof *types);

    if (types == NULL)
        return fail(m, "out of memory", NULL);
    for (size_t i = 0; i < n; i++) {
        int t;
        const char *s = string_of(json_object_array_get_idx(arr, i));
        if (!lookup_name(identifiable_type_name, CTG_IDENTIFIABLE_TYPE_COUNT, s, &t))
            return fail(m, "unknown identifiable type", s);
        types[i] = (ctg_identifiable_type)t;
    }
    out->types = types;
    out->type_count = n;
    return BENCH_OK;
}

static int identifier_field(map *m, const char *key, json_object *val, ctg_identifier *out)
{
    const char *s = string_of(val);

    if (strcmp(key, "contingencyId") == 0)
        out->contingency_id = s;
    else if (strcmp(key, "identifier") == 0 || strcmp(key, "substationOrVoltageLevelId") == 0)
        out->id = s;
    else if (strcmp(key, "voltageLevelId1") == 0)
        out->voltage_level_id1 = s;
    else if (strcmp(key, "voltageLevelId2") == 0)
        out->voltage_level_id2 = s;
    else if (strcmp(key, "order") == 0 && s != NULL && one_code_point(s, &out->order))
        return BENCH_OK;
    else if (strcmp(key, "wildcard") == 0 && s != NULL && one_code_point(s, &out->wildcard))
        return BENCH_OK;
    else if (strcmp(key, "identifierList") == 0 && is_array(m, val, key))
        return map_identifier_items(m, val, out);
    else if (strcmp(key, "voltageLevelIdentifiableTypes") == 0 && is_array(m, val, key))
        return map_identifiable_types(m, val, out);
    else if (strcmp(key, "type") != 0)
        return fail(m, "bad identifier field", key);
    return BENCH_OK;
}

static int map_identifier(map *m, json_object *obj, ctg_identifier *out)
{
    json_object *type = NULL;
    int kind;

    memset(out, 0, sizeof *out);
    out->wildcard = '?';
    if (!json_object_object_get_ex(obj, "type", &type) ||
        !lookup_name(identifier_kind_name, CTG_IDENTIFIER_KIND_COUNT, string_of(type), &kind))
        return fail(m, "an identifier needs a known type", NULL);
    out->kind = (ctg_identifier_kind)kind;
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        if (identifier_field(m, key, val, out) != BENCH_OK)
            return BENCH_FAIL;
    }
    return BENCH_OK;
}

static int add_identifier(map *m, ctg_list *list, json_object *obj)
{
    ctg_identifier id;
    int rc = map_identifier(m, obj, &id);

    if (rc == BENCH_OK && ctg_list_add_identifier(list, &id) != CTG_OK)
        rc = fail(m, "ctg_list_add_identifier failed", NULL);
    release_blocks(m);
    return rc;
}

/* ---- criterion lists (spec section 5) ----------------------------------------------------- */

static int map_strings(map *m, json_object *arr, const char *const **out, size_t *count)
{
    size_t n = json_object_array_length(arr);
    const char **items = scratch(m, n, sizeof *items);

    if (items == NULL)
        return fail(m, "out of memory", NULL);
    for (size_t i = 0; i < n; i++) {
        if ((items[i] = string_of(json_object_array_get_idx(arr, i))) == NULL)
            return fail(m, "expected an array of strings", NULL);
    }
    *out = items;
    *count = n;
    return BENCH_OK;
}

static int map_interval(map *m, json_object *obj, ctg_voltage_interval *out)
{
    memset(out, 0, sizeof *out);
    out->set = true;
    if (!json_object_is_type(obj, json_type_object))
        return fail(m, "expected a voltage interval object", NULL);
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        if (strcmp(key, "nominalVoltageLowBound") == 0)
            out->has_low = true, out->low = json_object_get_double(val);
        else if (strcmp(key, "nominalVoltageHighBound") == 0)
            out->has_high = true, out->high = json_object_get_double(val);
        else if (strcmp(key, "lowClosed") == 0)
            out->low_closed = json_object_get_boolean(val);
        else if (strcmp(key, "highClosed") == 0)
            out->high_closed = json_object_get_boolean(val);
        else
            return fail(m, "unexpected field", key);
    }
    return BENCH_OK;
}

static int enum_field(map *m, const char *s, const char *const *names, int count, int first)
{
    for (int i = 0; s != NULL && i < count; i++) {
        if (strcmp(names[i], s) == 0)
            return first + i;
    }
    return fail(m, "unknown value", s), -1;
}

static int property_field(map *m, const char *key, json_object *val, ctg_criterion *out)
{
    static const char *const checks[] = { "SELF", "VOLTAGE_LEVEL", "SUBSTATION" };
    static const char *const sides[] = { "ONE", "BOTH", "ALL_THREE" };
    int v;

    if (strcmp(key, "propertyKey") == 0) {
        out->property_key = string_of(val);
    } else if (strcmp(key, "propertyValue") == 0) {
        return is_array(m, val, key)
                   ? map_strings(m, val, &out->property_values, &out->property_value_count)
                   : BENCH_FAIL;
    } else if (strcmp(key, "equipmentToCheck") == 0) {
        if ((v = enum_field(m, string_of(val), checks, 3, CTG_CHECK_SELF)) < 0)
            return BENCH_FAIL;
        out->equipment_to_check = (ctg_equipment_to_check)v;
    } else if (strcmp(key, "sideToCheck") == 0) {
        if ((v = enum_field(m, string_of(val), sides, 3, CTG_SIDE_ONE)) < 0)
            return BENCH_FAIL;
        out->side_to_check = (ctg_side_to_check)v;
    } else {
        return fail(m, "unexpected field", key);
    }
    return BENCH_OK;
}

static int criterion_field(map *m, const char *key, json_object *val, ctg_criterion *out)
{
    static const char *const intervals[] = { "voltageInterval1", "voltageInterval2",
                                             "voltageInterval3" };
    bool array = json_object_is_type(val, json_type_array);

    if (strcmp(key, "type") == 0)
        return BENCH_OK;
    if ((strcmp(key, "countries") == 0 || strcmp(key, "countries1") == 0) && array)
        return map_strings(m, val, &out->countries[0], &out->country_count[0]);
    if (strcmp(key, "countries2") == 0 && array)
        return map_strings(m, val, &out->countries[1], &out->country_count[1]);
    if (strcmp(key, "voltageInterval") == 0)
        return map_interval(m, val, &out->intervals[0]);
    for (int i = 0; i < 3; i++) {
        if (strcmp(key, intervals[i]) == 0)
            return map_interval(m, val, &out->intervals[i]);
    }
    if (strcmp(key, "regex") == 0) {
        out->regex = string_of(val);
        return BENCH_OK;
    }
    return property_field(m, key, val, out);
}

static ctg_criterion *map_criterion(map *m, json_object *obj, ctg_criterion *out)
{
    json_object *type = NULL;
    int t;

    if (out == NULL || !json_object_is_type(obj, json_type_object))
        return fail(m, "expected a criterion object", NULL), NULL;
    memset(out, 0, sizeof *out);
    if (!json_object_object_get_ex(obj, "type", &type) ||
        !lookup_name(criterion_type_name, CTG_CRITERION_TYPE_COUNT, string_of(type), &t))
        return fail(m, "a criterion needs a known type", NULL), NULL;
    out->type = (ctg_criterion_type)t;
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        if (criterion_field(m, key, val, out) != BENCH_OK)
            return NULL;
    }
    return out;
}

static int map_properties(map *m, json_object *arr, ctg_criteria *out)
{
    size_t n = json_object_array_length(arr);
    ctg_criterion *items = scratch(m, n, sizeof *items);

    for (size_t i = 0; i < n; i++) {
        if (map_criterion(m, json_object_array_get_idx(arr, i), items ? &items[i] : NULL) == NULL)
            return BENCH_FAIL;
    }
    out->properties = items;
    out->property_count = n;
    return BENCH_OK;
}

static int criteria_field(map *m, const char *key, json_object *val, ctg_criteria *out)
{
    int t;

    if (strcmp(key, "identifiableType") == 0) {
        if (!lookup_name(identifiable_type_name, CTG_IDENTIFIABLE_TYPE_COUNT, string_of(val), &t))
            return fail(m, "unknown identifiable type", string_of(val));
        out->identifiable_type = (ctg_identifiable_type)t;
    } else if (strcmp(key, "countryCriterion") == 0) {
        out->country = map_criterion(m, val, scratch(m, 1, sizeof(ctg_criterion)));
        return out->country != NULL ? BENCH_OK : BENCH_FAIL;
    } else if (strcmp(key, "nominalVoltageCriterion") == 0) {
        out->nominal_voltage = map_criterion(m, val, scratch(m, 1, sizeof(ctg_criterion)));
        return out->nominal_voltage != NULL ? BENCH_OK : BENCH_FAIL;
    } else if (strcmp(key, "regexCriterion") == 0) {
        out->regex = map_criterion(m, val, scratch(m, 1, sizeof(ctg_criterion)));
        return out->regex != NULL ? BENCH_OK : BENCH_FAIL;
    } else if (strcmp(key, "propertyCriteria") == 0) {
        return is_array(m, val, key) ? map_properties(m, val, out) : BENCH_FAIL;
    } else {
        return fail(m, "unexpected field", key);
    }
    return BENCH_OK;
}

static int map_criterion_list(map *m, ctg_list *list, json_object *obj)
{
    ctg_criteria criteria;
    int rc = BENCH_OK;

    memset(&criteria, 0, sizeof criteria);
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        bool handled;
        if ((rc = header_field(m, key, val, &handled)) != BENCH_OK)
            break;
        if (!handled && (rc = criteria_field(m, key, val, &criteria)) != BENCH_OK)
            break;
    }
    if (rc == BENCH_OK && ctg_list_set_criteria(list, &criteria) != CTG_OK)
        rc = fail(m, "ctg_list_set_criteria failed", ctg_list_name(list));
    release_blocks(m);
    return rc;
}

/* ---- entry -------------------------------------------------------------------------------- */

static int map_list(map *m, ctg_list *list, json_object *obj)
{
    switch (ctg_list_get_kind(list)) {
    case CTG_LIST_DEFAULT:
        return map_array_list(m, list, obj, "contingencies", map_contingency);
    case CTG_LIST_LIST:
        return map_array_list(m, list, obj, "contingencyLists", map_child);
    case CTG_LIST_IDENTIFIER:
        return map_array_list(m, list, obj, "identifiers", add_identifier);
    case CTG_LIST_CONTINGENCY:
        return fail(m, "bare contingency documents are not mapped", NULL);
    default:
        return map_criterion_list(m, list, obj);
    }
}

int bench_jsonc_map(bench_input *in, json_object *root, ctg_list **out)
{
    map m;
    ctg_list_kind kind;
    const char *name;
    ctg_list *list = NULL;
    int rc;

    memset(&m, 0, sizeof m);
    m.in = in;
    *out = NULL;
    if (!kind_of(root, &kind, &name))
        return fail(&m, "the root needs a known \"type\" and a \"name\"", NULL);
    if (ctg_list_new(&list, kind, name, NULL) != CTG_OK)
        return fail(&m, "ctg_list_new failed", name);
    rc = map_list(&m, list, root);
    release_blocks(&m);
    free(m.blocks);
    free(m.elements);
    if (rc != BENCH_OK) {
        ctg_list_free(list);
        return rc;
    }
    *out = list;
    return BENCH_OK;
}
