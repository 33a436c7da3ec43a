/* SPDX-License-Identifier: MPL-2.0 */
/* The golden comparator (net_golden.h): both documents are parsed with json-c, the fields
 * the table does not hold are removed from both, and what is left is compared member by
 * member and item by item, in order, down to the first difference. */

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/net_golden.h"

/* Top-level members that are compared; every other one is provenance. */
static const char *const kept_top[] = { "ok",        "network",     "counts",
                                        "objects",   "buses",       "identifiables",
                                        "aliasToId", "subnetworks", NULL };

/* Members of any object the table does not hold. */
static const char *const dropped_any[] = {
    "extensions",         "tso",    "geographicalTags", "kind",    "open", "pairingKey",
    "monitoredElementId", "dcNode", "dcNode1",          "dcNode2", NULL
};

static bool listed(const char *const *names, const char *key)
{
    for (; *names; names++)
        if (strcmp(*names, key) == 0)
            return true;
    return false;
}

static void drop(json_object *obj, const char *key)
{
    json_object_object_del(obj, key);
}

/* Removes what the table does not hold from one object of `objects` or `buses`. */
static void strip_object(json_object *obj)
{
    json_object *v;
    const char *type = json_object_object_get_ex(obj, "type", &v) ? json_object_get_string(v) : "";
    const char *keys[64];
    size_t n = 0;

    json_object_object_foreach(obj, key, val)
    {
        (void)val;
        if (listed(dropped_any, key) && n < 64)
            keys[n++] = key;
    }
    for (size_t i = 0; i < n; i++)
        drop(obj, keys[i]);
    if (strcmp(type, "NETWORK") == 0)
        drop(obj, "name");
    if (strcmp(type, "AREA") == 0) {
        drop(obj, "areaType");
        drop(obj, "voltageLevels");
    }
    if (strcmp(type, "DC_NODE") == 0)
        drop(obj, "nominalV");
    if (json_object_object_get_ex(obj, "aliases", &v))
        for (size_t i = 0; i < json_object_array_length(v); i++)
            drop(json_object_array_get_idx(v, i), "aliasType");
}

static void strip(json_object *doc)
{
    const char *keys[64];
    size_t n = 0;
    json_object *v;

    json_object_object_foreach(doc, key, val)
    {
        (void)val;
        if (!listed(kept_top, key) && n < 64)
            keys[n++] = key;
    }
    for (size_t i = 0; i < n; i++)
        drop(doc, keys[i]);
    if (json_object_object_get_ex(doc, "network", &v)) {
        n = 0;
        json_object_object_foreach(v, nkey, nval)
        {
            (void)nval;
            if (strcmp(nkey, "id") != 0 && n < 64)
                keys[n++] = nkey;
        }
        for (size_t i = 0; i < n; i++)
            drop(v, keys[i]);
    }
    if (json_object_object_get_ex(doc, "objects", &v)) {
        json_object_object_foreach(v, type, list)
        {
            (void)type;
            for (size_t i = 0; i < json_object_array_length(list); i++)
                strip_object(json_object_array_get_idx(list, i));
        }
    }
}

typedef struct cmp {
    char *diff;
    size_t size;
} cmp;

static const char *text(json_object *v)
{
    return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
                                                     JSON_C_TO_STRING_NOSLASHESCAPE)
             : "nothing";
}

static bool differ(cmp *c, const char *path, json_object *exp, json_object *got)
{
    snprintf(c->diff, c->size, "%s: expected %s, got %s", path, exp ? text(exp) : "nothing",
             got ? text(got) : "nothing");
    return false;
}

static bool same(cmp *c, const char *path, json_object *exp, json_object *got);

static bool same_array(cmp *c, const char *path, json_object *exp, json_object *got)
{
    size_t ne = json_object_array_length(exp), ng = json_object_array_length(got);
    char sub[1024];

    for (size_t i = 0; i < ne || i < ng; i++) {
        snprintf(sub, sizeof sub, "%s[%zu]", path, i);
        json_object *e = i < ne ? json_object_array_get_idx(exp, i) : NULL;
        json_object *g = i < ng ? json_object_array_get_idx(got, i) : NULL;
        if (e == NULL || g == NULL)
            return differ(c, sub, e, g);
        if (!same(c, sub, e, g))
            return false;
    }
    return true;
}

/* Members of `exp` in its order, then those only `got` has. */
static bool same_object(cmp *c, const char *path, json_object *exp, json_object *got)
{
    char sub[1024];
    json_object *g, *e;

    json_object_object_foreach(exp, key, val)
    {
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "/" : "", key);
        if (!json_object_object_get_ex(got, key, &g))
            return differ(c, sub, val, NULL);
        if (!same(c, sub, val, g))
            return false;
    }
    json_object_object_foreach(got, gkey, gval)
    {
        if (!json_object_object_get_ex(exp, gkey, &e)) {
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "/" : "", gkey);
            return differ(c, sub, NULL, gval);
        }
    }
    return true;
}

static bool same(cmp *c, const char *path, json_object *exp, json_object *got)
{
    json_type te = json_object_get_type(exp), tg = json_object_get_type(got);

    /* Numbers compare by value: 380.0 and 380 are one nominal voltage. */
    if ((te == json_type_int || te == json_type_double) &&
        (tg == json_type_int || tg == json_type_double))
        return json_object_get_double(exp) == json_object_get_double(got)
                   ? true
                   : differ(c, path, exp, got);
    if (te != tg)
        return differ(c, path, exp, got);
    switch (te) {
    case json_type_object:
        return same_object(c, path, exp, got);
    case json_type_array:
        return same_array(c, path, exp, got);
    case json_type_string:
        return strcmp(json_object_get_string(exp), json_object_get_string(got)) == 0
                   ? true
                   : differ(c, path, exp, got);
    case json_type_boolean:
        return json_object_get_boolean(exp) == json_object_get_boolean(got)
                   ? true
                   : differ(c, path, exp, got);
    default: /* null */
        return true;
    }
}

bool ctg_test_net_matches_golden(const ctg_network *net, const char *golden_path, char *diff,
                                 size_t diff_size)
{
    cmp c = { diff, diff_size };
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err = { 0 };
    bool ok = false;
    json_object *exp = json_object_from_file(golden_path), *got = NULL;

    if (exp == NULL || !json_object_is_type(exp, json_type_object)) {
        snprintf(diff, diff_size, "%s: cannot read the golden", golden_path);
    } else if (ctg_network_write_json(net, &buf, &err) != CTG_OK) {
        snprintf(diff, diff_size, "ctg_network_write_json: %s", err.message);
    } else if ((got = json_tokener_parse(buf.data)) == NULL) {
        snprintf(diff, diff_size, "ctg_network_write_json wrote JSON that does not parse");
    } else {
        strip(exp);
        strip(got);
        ok = same(&c, "", exp, got);
    }
    json_object_put(exp);
    json_object_put(got);
    ctg_buf_dispose(&buf);
    return ok;
}
