/* SPDX-License-Identifier: MPL-2.0 */
/* What objects carry besides their placement: aliases, properties, and the calculated buses
 * of node-breaker voltage levels. Each builder checks everything, then makes room, then
 * changes the network: a failure leaves it as it was. */

#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "network/table.h"
#include "network/table_impl.h"

static int unknown(ctg_error *err, const char *id)
{
    return ctg_error_set(err, CTG_EINVAL, NULL, "", "no object with the id or alias \"%s\"",
                         id ? id : "(null)");
}

static const char *type_name(const ctg_net_object *obj)
{
    return ctg_identifiable_type_name(obj->type);
}

/* The attributes record of `obj` to change: its own, or a new empty one from the arena that
 * the caller attaches (attach) once nothing can fail any more, so that a failure leaves `obj`
 * as it was. NULL when out of memory. */
static ctg_net_attrs *attrs_to_change(ctg_network *net, const ctg_net_object *obj)
{
    if (obj->attrs)
        return (ctg_net_attrs *)obj->attrs;
    return ctg_arena_calloc(net->arena, 1, sizeof(ctg_net_attrs));
}

static void attach(ctg_net_object *obj, ctg_net_attrs *a)
{
    obj->attrs = a;
}

/* ctg_network_add_alias_obj after its checks: `alias` is new, `hash` is its hash. */
static int add_alias_checked(ctg_network *net, ctg_net_object *obj, const char *alias, size_t len,
                             uint64_t hash, ctg_error *err)
{
    size_t cap = net->alias_cap;
    if (net->alias_len == cap) {
        size_t grown;
        if (!ctg_grow_capacity(cap, cap + 1, 16, CTG_NET_MAX_OBJECTS, &grown))
            return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
        ctg_net_alias *items =
            ctg_mem_resize(net->alloc, net->aliases, cap * sizeof *items, grown * sizeof *items);
        if (items == NULL)
            return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
        net->aliases = items;
        net->alias_cap = grown;
    }
    ctg_net_attrs *a = attrs_to_change(net, obj);
    void *list = a ? (void *)a->aliases : NULL;
    char *text = a ? ctg_arena_strndup(net->arena, alias, len) : NULL;
    if (text == NULL || ctg_net_index_reserve(net, 1) != CTG_OK ||
        ctg_net_arena_grow(net, &list, a->alias_count, sizeof(char *)) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    ((const char **)list)[a->alias_count] = text;
    a->aliases = list;
    a->alias_count++;
    attach(obj, a);
    net->aliases[net->alias_len] = (ctg_net_alias){ text, ctg_net_loc_of(net, obj) };
    ctg_net_index_insert(net, hash, CTG_NET_REF_ALIAS | (uint32_t)net->alias_len);
    net->alias_len++;
    return CTG_OK;
}

int ctg_network_add_alias_obj(ctg_network *net, ctg_net_object *obj, const char *alias, size_t len,
                              ctg_error *err)
{
    if (len == 0)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "%s \"%s\": an alias cannot be empty",
                             type_name(obj), obj->id);
    if (memchr(alias, '\0', len) != NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "%s \"%s\": an alias cannot hold a NUL",
                             type_name(obj), obj->id);
    uint64_t hash = ctg_net_hash(alias, len);
    uint32_t ref = ctg_net_index_find(net, alias, len, hash);
    if (ref != CTG_NET_REF_NONE) {
        const ctg_net_object *other = ctg_net_ref_object(net, ref);
        return ctg_error_set(
            err, CTG_EINVAL, NULL, "", "%s \"%s\": the alias \"%.*s\" is already %s of %s \"%s\"",
            type_name(obj), obj->id, (int)len, alias,
            ref & CTG_NET_REF_ALIAS ? "an alias" : "the id", type_name(other), other->id);
    }
    if (net->alias_len >= CTG_NET_MAX_OBJECTS)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory: too many aliases");
    return add_alias_checked(net, obj, alias, len, hash, err);
}

int ctg_network_add_alias(ctg_network *net, const char *id, const char *alias, ctg_error *err)
{
    if (net == NULL || alias == NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "no network or no alias");
    if (!ctg_utf8_valid(alias)) /* aliases share the ids' index, and are dumped as JSON */
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "an alias that is not valid UTF-8");
    ctg_net_object *obj = id ? ctg_net_lookup(net, id, strlen(id)) : NULL;
    if (obj == NULL)
        return unknown(err, id);
    return ctg_network_add_alias_obj(net, obj, alias, strlen(alias), err);
}

/* A property whose key is set gets a new value; a new key is appended. The key is kept once
 * (ctg_net_pool_key), whatever its length, for the scans' pointer compares; a container's
 * properties are copied into the scan data too. */
int ctg_network_set_property_obj(ctg_network *net, ctg_net_object *obj, const char *key,
                                 size_t key_len, const char *value, size_t value_len,
                                 ctg_error *err)
{
    if (key_len == 0)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "%s \"%s\": a property key cannot be empty",
                             type_name(obj), obj->id);
    ctg_net_attrs *a = attrs_to_change(net, obj);
    const char *v = a ? ctg_net_pool_string(net, value, value_len) : NULL;
    if (v == NULL)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    ctg_net_property *props = (ctg_net_property *)a->properties;
    size_t i = 0;
    while (i < a->property_count && !ctg_net_same(props[i].key, key, key_len))
        i++;
    if (i < a->property_count) {
        props[i].value = v;
        ctg_net_scan_property_set(net, obj, i, v);
        return CTG_OK;
    }
    if (a->property_count >= CTG_NET_MAX_OBJECTS)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory: too many properties");
    void *list = props;
    const char *k = ctg_net_pool_key(net, key, key_len);
    if (k == NULL ||
        ctg_net_arena_grow(net, &list, a->property_count, sizeof(ctg_net_property)) != CTG_OK ||
        ctg_net_scan_property_reserve(net, obj) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    ((ctg_net_property *)list)[i] = (ctg_net_property){ k, v };
    a->properties = list;
    a->property_count++;
    attach(obj, a);
    ctg_net_scan_property_append(net, obj, (ctg_net_property){ k, v });
    return CTG_OK;
}

int ctg_network_set_property(ctg_network *net, const char *id, const char *key, const char *value,
                             ctg_error *err)
{
    if (net == NULL || key == NULL || value == NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "no network, key or value");
    ctg_net_object *obj = id ? ctg_net_lookup(net, id, strlen(id)) : NULL;
    if (obj == NULL)
        return unknown(err, id);
    return ctg_network_set_property_obj(net, obj, key, strlen(key), value, strlen(value), err);
}

int ctg_network_add_calculated_bus(ctg_network *net, const char *voltage_level_id,
                                   const char *bus_id, ctg_error *err)
{
    if (net == NULL || bus_id == NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "no network or no bus id");
    if (!ctg_utf8_valid(bus_id))
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "a calculated bus id that is not valid "
                             "UTF-8");
    ctg_net_object *vl =
        voltage_level_id ? ctg_net_lookup(net, voltage_level_id, strlen(voltage_level_id)) : NULL;
    if (vl == NULL)
        return unknown(err, voltage_level_id);
    if (vl->type != CTG_IDENTIFIABLE_VOLTAGE_LEVEL ||
        vl->container->topology != CTG_TOPOLOGY_NODE_BREAKER)
        return ctg_error_set(err, CTG_EINVAL, NULL, "",
                             "%s \"%s\": only a node-breaker voltage level has calculated buses",
                             type_name(vl), vl->id);
    /* Linear, per bus: a tool adds a level's few buses; the importers, whose levels may have
     * thousands, make them unique by construction and call the fast path directly. */
    size_t len = strlen(bus_id);
    for (size_t i = 0; i < vl->container->calculated_bus_count; i++)
        if (ctg_net_same(vl->container->calculated_buses[i], bus_id, len))
            return ctg_error_set(err, CTG_EINVAL, NULL, "",
                                 "VOLTAGE_LEVEL \"%s\": the calculated bus \"%s\" is there "
                                 "already",
                                 vl->id, bus_id);
    return ctg_net_add_calculated_bus_obj(net, vl, bus_id, len, err);
}

int ctg_net_add_calculated_bus_obj(ctg_network *net, ctg_net_object *vl, const char *bus_id,
                                   size_t len, ctg_error *err)
{
    ctg_net_box *box = (ctg_net_box *)vl->container;
    const char **buses = (const char **)box->pub.calculated_buses;

    if (len == 0)
        return ctg_error_set(err, CTG_EINVAL, NULL, "",
                             "VOLTAGE_LEVEL \"%s\": a calculated bus id cannot be empty", vl->id);
    char *copy = ctg_arena_strndup(net->arena, bus_id, len);
    void *list = buses;
    if (copy == NULL ||
        ctg_net_arena_grow(net, &list, box->pub.calculated_bus_count, sizeof(char *)) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    ((const char **)list)[box->pub.calculated_bus_count] = copy;
    box->pub.calculated_buses = list;
    box->pub.calculated_bus_count++;
    return CTG_OK;
}
