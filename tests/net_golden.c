/* SPDX-License-Identifier: MPL-2.0 */
/* The golden comparator (net_golden.h): both documents are parsed with json-c, the fields
 * the table does not hold are removed from both, and what is left is compared member by
 * member and item by item, in order, down to the first difference. */

#include <stdint.h>
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
    "monitoredElementId", "dcNode", "dcNode1",          "dcNode2", "name", NULL
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
    if (json_object_object_get_ex(doc, "buses", &v))
        for (size_t i = 0; i < json_object_array_length(v); i++)
            strip_object(json_object_array_get_idx(v, i));
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

/* ---- a table from a golden ---------------------------------------------------------------- */

typedef struct rebuild {
    ctg_network *net;
    json_object *doc, *objects;
    char *why;
    size_t size;
} rebuild;

static const char *get_str(json_object *obj, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static json_object *get(json_object *obj, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

static bool refused(rebuild *r, const char *what, const ctg_error *err)
{
    snprintf(r->why, r->size, "%s: %s", what, err->message);
    return false;
}

/* The position of `id` among the connectables of voltage level `vl_id`: its order there. */
static uint32_t order_in(rebuild *r, const char *vl_id, const char *id)
{
    json_object *vls = get(r->objects, "VOLTAGE_LEVEL");
    for (size_t i = 0; vl_id && vls && i < json_object_array_length(vls); i++) {
        json_object *vl = json_object_array_get_idx(vls, i);
        if (strcmp(get_str(vl, "id"), vl_id) != 0)
            continue;
        json_object *members = get(vl, "connectables");
        for (size_t j = 0; members && j < json_object_array_length(members); j++)
            if (strcmp(json_object_get_string(json_object_array_get_idx(members, j)), id) == 0)
                return (uint32_t)j;
    }
    return CTG_NET_NO_ORDER;
}

static const char *const side_keys[3] = { "voltageLevel1", "voltageLevel2", "voltageLevel3" };

/* The spec of one golden object (strings borrowed from the golden). */
static void fill_spec(rebuild *r, json_object *obj, ctg_identifiable_type type, ctg_net_spec *s)
{
    *s = (ctg_net_spec)CTG_NET_SPEC_INIT;
    s->type = type;
    s->id = get_str(obj, "id");
    s->name = type == CTG_IDENTIFIABLE_NETWORK ? NULL : get_str(obj, "name");
    s->subnetwork = get_str(obj, "subnetwork");
    s->voltage_levels[0] = get_str(obj, "voltageLevel");
    if (s->voltage_levels[0] == NULL)
        for (unsigned i = 0; i < 3; i++)
            s->voltage_levels[i] = get_str(obj, side_keys[i]);
    for (unsigned i = 0; i < 3; i++)
        s->order[i] = order_in(r, s->voltage_levels[i], s->id);
    s->substation = get_str(obj, "substation");
    s->country = get_str(obj, "country");
    if (type == CTG_IDENTIFIABLE_TIE_LINE || type == CTG_IDENTIFIABLE_HVDC_LINE) {
        bool tie = type == CTG_IDENTIFIABLE_TIE_LINE;
        s->refs[0] = get_str(obj, tie ? "boundaryLine1" : "converterStation1");
        s->refs[1] = get_str(obj, tie ? "boundaryLine2" : "converterStation2");
        s->voltage_levels[0] = s->voltage_levels[1] = NULL;
    }
    const char *kind = get_str(obj, "converterKind");
    if (kind)
        s->converter_kind = strcmp(kind, "LCC") == 0 ? CTG_CONVERTER_LCC : CTG_CONVERTER_VSC;
    json_object *v = get(obj, "nominalV");
    if (type == CTG_IDENTIFIABLE_VOLTAGE_LEVEL && v)
        s->nominal_v = json_object_get_double(v);
    const char *topo = get_str(obj, "topologyKind");
    if (topo && strcmp(topo, "NODE_BREAKER") == 0)
        s->topology = CTG_TOPOLOGY_NODE_BREAKER;
    if (type != CTG_IDENTIFIABLE_VOLTAGE_LEVEL &&
        type != CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER &&
        type != CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER &&
        type != CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM)
        s->substation = NULL;
}

static bool add_objects(rebuild *r, ctg_identifiable_type type)
{
    json_object *list = get(r->objects, ctg_identifiable_type_name(type));
    ctg_error err = { 0 };
    ctg_net_spec s;

    for (size_t i = 0; list && i < json_object_array_length(list); i++) {
        json_object *obj = json_object_array_get_idx(list, i);
        if (type == CTG_IDENTIFIABLE_NETWORK && i == 0)
            continue; /* the root */
        fill_spec(r, obj, type, &s);
        if (ctg_network_add(r->net, &s, NULL, &err) != CTG_OK)
            return refused(r, "add", &err);
    }
    return true;
}

/* Buses in each voltage level's busBreakerBuses order, calculated buses likewise. */
static bool add_buses(rebuild *r)
{
    json_object *vls = get(r->objects, "VOLTAGE_LEVEL"), *buses = get(r->doc, "buses");
    ctg_error err = { 0 };

    for (size_t i = 0; vls && i < json_object_array_length(vls); i++) {
        json_object *vl = json_object_array_get_idx(vls, i), *ids = get(vl, "busBreakerBuses");
        for (size_t j = 0; ids && j < json_object_array_length(ids); j++) {
            ctg_net_spec s = CTG_NET_SPEC_INIT;
            s.type = CTG_IDENTIFIABLE_BUS;
            s.id = json_object_get_string(json_object_array_get_idx(ids, j));
            s.voltage_levels[0] = get_str(vl, "id");
            for (size_t k = 0; buses && k < json_object_array_length(buses); k++) {
                json_object *b = json_object_array_get_idx(buses, k);
                if (strcmp(get_str(b, "id"), s.id) == 0) {
                    s.subnetwork = get_str(b, "subnetwork");
                    s.name = get_str(b, "name");
                }
            }
            if (ctg_network_add(r->net, &s, NULL, &err) != CTG_OK)
                return refused(r, "add bus", &err);
        }
        ids = get(vl, "calculatedBusBreakerBuses");
        for (size_t j = 0; ids && j < json_object_array_length(ids); j++)
            if (ctg_network_add_calculated_bus(
                    r->net, get_str(vl, "id"),
                    json_object_get_string(json_object_array_get_idx(ids, j)), &err) != CTG_OK)
                return refused(r, "add calculated bus", &err);
    }
    return true;
}

/* Aliases and properties of every object. */
static bool add_names(rebuild *r)
{
    ctg_error err = { 0 };

    json_object_object_foreach(r->objects, type, list)
    {
        (void)type;
        for (size_t i = 0; i < json_object_array_length(list); i++) {
            json_object *obj = json_object_array_get_idx(list, i), *v;
            const char *id = get_str(obj, "id");
            if ((v = get(obj, "aliases")) != NULL)
                for (size_t j = 0; j < json_object_array_length(v); j++)
                    if (ctg_network_add_alias(r->net, id,
                                              get_str(json_object_array_get_idx(v, j), "alias"),
                                              &err) != CTG_OK)
                        return refused(r, "add alias", &err);
            if ((v = get(obj, "properties")) != NULL) {
                json_object_object_foreach(v, key, value)
                {
                    if (ctg_network_set_property(r->net, id, key, json_object_get_string(value),
                                                 &err) != CTG_OK)
                        return refused(r, "set property", &err);
                }
            }
        }
    }
    return true;
}

static bool add_all(rebuild *r)
{
    static const ctg_identifiable_type first[] = { CTG_IDENTIFIABLE_NETWORK,
                                                   CTG_IDENTIFIABLE_SUBSTATION,
                                                   CTG_IDENTIFIABLE_VOLTAGE_LEVEL };
    for (size_t i = 0; i < sizeof first / sizeof *first; i++)
        if (!add_objects(r, first[i]))
            return false;
    if (!add_buses(r))
        return false;
    for (unsigned t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++) {
        if (t <= CTG_IDENTIFIABLE_VOLTAGE_LEVEL || t == CTG_IDENTIFIABLE_BUS ||
            t == CTG_IDENTIFIABLE_TIE_LINE || t == CTG_IDENTIFIABLE_HVDC_LINE)
            continue;
        if (!add_objects(r, (ctg_identifiable_type)t))
            return false;
    }
    return add_objects(r, CTG_IDENTIFIABLE_TIE_LINE) &&
           add_objects(r, CTG_IDENTIFIABLE_HVDC_LINE) && add_names(r);
}

ctg_network *ctg_test_net_from_golden(const char *golden_path, char *why, size_t size)
{
    rebuild r = { NULL, json_object_from_file(golden_path), NULL, why, size };
    ctg_error err = { 0 };
    json_object *network = r.doc ? get(r.doc, "network") : NULL;

    r.objects = r.doc ? get(r.doc, "objects") : NULL;
    if (network == NULL || r.objects == NULL || get_str(network, "id") == NULL) {
        snprintf(why, size, "%s: not a golden of an imported network", golden_path);
    } else if (ctg_network_new(&r.net, get_str(network, "id"), NULL, &err) != CTG_OK) {
        refused(&r, "new", &err);
    } else if (!add_all(&r)) {
        ctg_network_free(r.net);
        r.net = NULL;
    }
    json_object_put(r.doc);
    return r.net;
}
