/* SPDX-License-Identifier: MPL-2.0 */
/* jsonc-dom-map: the obvious way to write this library on json-c. The document is parsed into
 * a json-c DOM, which is then walked into ctg structs through the public builders, checking
 * JSON types and rejecting unknown fields as ctg's own reader does. It lives in bench/ only, as
 * the reference that ctg-read is measured against, and maps what the cases it is timed on hold:
 * `default` lists without extensions (b10k, mixed100k, b1m). Any other kind is declared
 * unsupported, not mapped, so that the format's rules are written down here once only for the
 * kind that is measured; its output is checked byte for byte against the case (runners.c). */

#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The walk's state: the input for errors and a scratch element array reused for every
 * contingency. */
typedef struct map {
    bench_input *in;
    ctg_element *elements;
    size_t element_cap;
} map;

static int fail(map *m, const char *what, const char *key)
{
    return bench_why(m->in, BENCH_FAIL, "jsonc-dom-map: %s%s%s", what, key ? ": " : "",
                     key ? key : "");
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

/* "type", "version" and "name" of the list: checked here, used by the caller. */
static int header_field(map *m, const char *key, json_object *val, bool *handled)
{
    *handled = strcmp(key, "type") == 0 || strcmp(key, "name") == 0 || strcmp(key, "version") == 0;
    if (*handled && strcmp(key, "version") != 0 && need_string(m, val, key) == NULL)
        return BENCH_FAIL;
    return BENCH_OK;
}

/* The header fields, then each contingency of "contingencies". */
static int map_default_list(map *m, ctg_list *list, json_object *obj)
{
    for (struct lh_entry *e = first_member(obj); e != NULL; e = lh_entry_next(e)) {
        const char *key = lh_entry_k(e);
        json_object *val = lh_entry_v(e);
        bool handled;
        if (header_field(m, key, val, &handled) != BENCH_OK)
            return BENCH_FAIL;
        if (handled)
            continue;
        if (strcmp(key, "contingencies") != 0)
            return fail(m, "unexpected field", key);
        if (!is_array(m, val, key))
            return BENCH_FAIL;
        for (size_t i = 0; i < json_object_array_length(val); i++) {
            int rc = map_contingency(m, list, json_object_array_get_idx(val, i));
            if (rc != BENCH_OK)
                return rc; /* BENCH_UNSUPPORTED too */
        }
    }
    return BENCH_OK;
}

int bench_jsonc_map(bench_input *in, json_object *root, ctg_list **out)
{
    map m;
    json_object *type = NULL, *name = NULL;
    ctg_list *list = NULL;
    int rc;

    memset(&m, 0, sizeof m);
    m.in = in;
    *out = NULL;
    if (!json_object_is_type(root, json_type_object) ||
        !json_object_object_get_ex(root, "type", &type) || string_of(type) == NULL ||
        !json_object_object_get_ex(root, "name", &name) || string_of(name) == NULL)
        return fail(&m, "the root needs a string \"type\" and \"name\"", NULL);
    if (strcmp(string_of(type), ctg_list_kind_name(CTG_LIST_DEFAULT)) != 0)
        return bench_why(in, BENCH_UNSUPPORTED, "jsonc-dom-map maps `default` lists only, not %s",
                         string_of(type));
    if (ctg_list_new(&list, CTG_LIST_DEFAULT, string_of(name), NULL) != CTG_OK)
        return fail(&m, "ctg_list_new failed", string_of(name));
    rc = map_default_list(&m, list, root);
    free(m.elements);
    if (rc != BENCH_OK) {
        ctg_list_free(list);
        return rc;
    }
    *out = list;
    return BENCH_OK;
}
