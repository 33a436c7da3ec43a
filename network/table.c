/* SPDX-License-Identifier: MPL-2.0 */
/* The equipment table. First cut: the network and its root; the builders, the index and the
 * enumeration follow. */

#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "network/table.h"

struct ctg_network {
    ctg_allocator alloc;
    ctg_net_object root;
};

int ctg_network_new(ctg_network **out, const char *id, const ctg_allocator *alloc,
                    ctg_error *err)
{
    if (out)
        *out = NULL;
    if (!out || !id || !*id)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "a network needs a non-empty id");
    ctg_allocator a = alloc ? *alloc : (ctg_allocator){ 0 };
    ctg_network *net = ctg_mem_alloc(&a, sizeof *net);
    if (!net)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    memset(net, 0, sizeof *net);
    net->alloc = a;
    *out = net;
    return CTG_OK;
}

void ctg_network_free(ctg_network *net)
{
    if (net)
        ctg_mem_release(&net->alloc, net, sizeof *net);
}

int ctg_network_add(ctg_network *net, const ctg_net_spec *spec, const ctg_net_object **out,
                    ctg_error *err)
{
    (void)net, (void)spec, (void)out;
    return ctg_error_set(err, CTG_EUNSUPPORTED, NULL, "", "not built yet");
}

int ctg_network_add_alias(ctg_network *net, const char *id, const char *alias, ctg_error *err)
{
    (void)net, (void)id, (void)alias;
    return ctg_error_set(err, CTG_EUNSUPPORTED, NULL, "", "not built yet");
}

int ctg_network_set_property(ctg_network *net, const char *id, const char *key,
                             const char *value, ctg_error *err)
{
    (void)net, (void)id, (void)key, (void)value;
    return ctg_error_set(err, CTG_EUNSUPPORTED, NULL, "", "not built yet");
}

int ctg_network_add_calculated_bus(ctg_network *net, const char *voltage_level_id,
                                   const char *bus_id, ctg_error *err)
{
    (void)net, (void)voltage_level_id, (void)bus_id;
    return ctg_error_set(err, CTG_EUNSUPPORTED, NULL, "", "not built yet");
}

const ctg_net_object *ctg_network_root(const ctg_network *net)
{
    return net ? &net->root : NULL;
}

size_t ctg_network_count(const ctg_network *net, ctg_identifiable_type type)
{
    (void)net, (void)type;
    return 0;
}

const ctg_net_object *ctg_network_object_at(const ctg_network *net, ctg_identifiable_type type,
                                            size_t i)
{
    (void)net, (void)type, (void)i;
    return NULL;
}

size_t ctg_network_object_count(const ctg_network *net)
{
    return net ? 1 : 0;
}

const ctg_net_object *ctg_network_object_by_doc(const ctg_network *net, size_t i)
{
    return net && i == 0 ? &net->root : NULL;
}

const ctg_net_object *ctg_network_find(const ctg_network *net, const char *id, size_t len)
{
    (void)net, (void)id, (void)len;
    return NULL;
}

const char *ctg_net_object_property(const ctg_net_object *obj, const char *key)
{
    (void)obj, (void)key;
    return NULL;
}

const char *ctg_network_iidm_version(const ctg_network *net)
{
    (void)net;
    return NULL;
}

int ctg_network_set_iidm_version(ctg_network *net, const char *version)
{
    (void)net, (void)version;
    return CTG_OK;
}

size_t ctg_network_memory_size(const ctg_network *net)
{
    return net ? sizeof *net : 0;
}

int ctg_network_write_json(const ctg_network *net, ctg_buf *buf, ctg_error *err)
{
    (void)net, (void)buf;
    return ctg_error_set(err, CTG_EUNSUPPORTED, NULL, "", "not built yet");
}
