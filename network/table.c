/* SPDX-License-Identifier: MPL-2.0 */
/* The equipment table: creation, the read-only queries, and the small builders (aliases,
 * properties, calculated buses). ctg_network_add and the placement rules are in build.c. */

#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "network/table.h"
#include "network/table_impl.h"

/* The document order's room made `cap` locators. */
static int docs_resize(ctg_network *net, size_t cap)
{
    uint32_t *docs =
        ctg_mem_resize(net->alloc, net->docs, net->doc_cap * sizeof *docs, cap * sizeof *docs);
    if (docs == NULL)
        return CTG_ENOMEM;
    net->docs = docs;
    net->doc_cap = cap;
    return CTG_OK;
}

/* Room for one more document index. */
static int docs_reserve(ctg_network *net)
{
    size_t cap;
    if (net->doc_len < net->doc_cap)
        return CTG_OK;
    if (!ctg_grow_capacity(net->doc_cap, net->doc_len + 1, 16, CTG_NET_MAX_OBJECTS, &cap))
        return CTG_ENOMEM;
    return docs_resize(net, cap);
}

int ctg_net_vec_reserve(ctg_network *net, ctg_net_vec *v)
{
    if (net->doc_len >= CTG_NET_MAX_OBJECTS || v->len >= CTG_NET_VEC_MAX ||
        docs_reserve(net) != CTG_OK)
        return CTG_ENOMEM;
    if (v->len < v->chunk_count * CTG_NET_CHUNK)
        return CTG_OK;
    if (v->chunk_count == v->chunk_cap) {
        size_t cap;
        if (!ctg_grow_capacity(v->chunk_cap, v->chunk_count + 1, 4, SIZE_MAX / 16, &cap))
            return CTG_ENOMEM;
        ctg_net_object **chunks = ctg_mem_resize(
            net->alloc, v->chunks, v->chunk_cap * sizeof *chunks, cap * sizeof *chunks);
        if (chunks == NULL)
            return CTG_ENOMEM;
        v->chunks = chunks;
        v->chunk_cap = cap;
    }
    ctg_net_object *chunk = ctg_mem_alloc(net->alloc, CTG_NET_CHUNK * sizeof *chunk);
    if (chunk == NULL)
        return CTG_ENOMEM;
    v->chunks[v->chunk_count++] = chunk;
    return CTG_OK;
}

ctg_net_object *ctg_net_vec_claim(ctg_network *net, ctg_net_vec *v, uint32_t vec)
{
    ctg_net_object *slot = ctg_net_vec_at(v, v->len);

    slot->doc_index = (uint32_t)net->doc_len;
    net->docs[net->doc_len++] = vec << CTG_NET_LOC_SHIFT | (uint32_t)v->len++;
    return slot;
}

ctg_net_object *ctg_net_vec_push(ctg_network *net, ctg_net_vec *v, uint32_t vec,
                                 const ctg_net_object *obj)
{
    *ctg_net_vec_next(v) = *obj;
    return ctg_net_vec_claim(net, v, vec);
}

uint32_t ctg_net_loc_of(const ctg_network *net, const ctg_net_object *obj)
{
    return net->docs[obj->doc_index];
}

static void vec_dispose(ctg_network *net, ctg_net_vec *v)
{
    for (size_t i = 0; i < v->chunk_count; i++)
        ctg_mem_release(net->alloc, v->chunks[i], CTG_NET_CHUNK * sizeof(ctg_net_object));
    ctg_mem_release(net->alloc, v->chunks, v->chunk_cap * sizeof *v->chunks);
}

int ctg_net_arena_grow(ctg_network *net, void **items, size_t len, size_t size)
{
    /* Full when len is 0 or a power of two: the capacity is len rounded up to one. */
    if (len != 0 && (len & (len - 1)) != 0)
        return CTG_OK;
    size_t cap = len ? len * 2 : 1;
    void *grown = ctg_arena_calloc(net->arena, cap, size);
    if (grown == NULL)
        return CTG_ENOMEM;
    if (len)
        memcpy(grown, *items, len * size);
    *items = grown;
    return CTG_OK;
}

static int nomem(ctg_error *err)
{
    return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
}

/* The root object and the first slots: a new network holds its root from the start. */
static int add_root(ctg_network *net, const char *id)
{
    size_t len = strlen(id);
    char *copy = ctg_arena_strndup(net->arena, id, len);
    ctg_net_vec *v = &net->types[CTG_IDENTIFIABLE_NETWORK];

    if (copy == NULL || ctg_net_vec_reserve(net, v) != CTG_OK ||
        ctg_net_index_reserve(net, 1) != CTG_OK)
        return CTG_ENOMEM;
    ctg_net_object root = { 0 };
    root.id = copy;
    root.type = CTG_IDENTIFIABLE_NETWORK;
    ctg_net_vec_push(net, v, CTG_IDENTIFIABLE_NETWORK, &root);
    ctg_net_index_insert(net, ctg_net_hash(copy, len), net->docs[0]);
    return CTG_OK;
}

int ctg_network_new(ctg_network **out, const char *id, const ctg_allocator *alloc, ctg_error *err)
{
    return ctg_network_new_ex(out, id, alloc, 0, err);
}

int ctg_network_new_ex(ctg_network **out, const char *id, const ctg_allocator *alloc,
                       unsigned arena_flags, ctg_error *err)
{
    if (out)
        *out = NULL;
    if (out == NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "no place for the new network");
    if (id == NULL || *id == '\0')
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "a network needs a non-empty id");
    if (!ctg_utf8_valid(id))
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "the network's id is not valid UTF-8");
    ctg_arena *arena = ctg_arena_new_ex(alloc, arena_flags);
    if (arena == NULL)
        return nomem(err);
    ctg_network *net = ctg_arena_calloc(arena, 1, sizeof *net);
    if (net == NULL) {
        ctg_arena_release(arena);
        return nomem(err);
    }
    net->arena = arena;
    net->alloc = ctg_arena_allocator(arena);
    if (add_root(net, id) != CTG_OK) {
        ctg_network_free(net);
        return nomem(err);
    }
    *out = net;
    return CTG_OK;
}

/* The member arrays of the containers of `v` (substations or voltage levels). */
static void boxes_dispose(ctg_network *net, const ctg_net_vec *v)
{
    for (size_t i = 0; i < v->len; i++) {
        ctg_net_box *box = (ctg_net_box *)ctg_net_vec_at(v, i)->container;
        ctg_mem_release(net->alloc, (void *)box->pub.members, box->member_cap * sizeof(void *));
        ctg_mem_release(net->alloc, box->keys, box->key_cap * sizeof *box->keys);
    }
}

void ctg_network_free(ctg_network *net)
{
    if (net == NULL)
        return;
    boxes_dispose(net, &net->types[CTG_IDENTIFIABLE_SUBSTATION]);
    boxes_dispose(net, &net->types[CTG_IDENTIFIABLE_VOLTAGE_LEVEL]);
    ctg_mem_release(net->alloc, net->docs, net->doc_cap * sizeof *net->docs);
    for (size_t t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++)
        vec_dispose(net, &net->types[t]);
    vec_dispose(net, &net->vsc);
    ctg_mem_release(net->alloc, net->aliases, net->alias_cap * sizeof *net->aliases);
    ctg_mem_release(net->alloc, net->slots, net->slot_cap * sizeof *net->slots);
    ctg_mem_release(net->alloc, net->pool, net->pool_cap * sizeof *net->pool);
    ctg_net_scan_dispose(net);
    ctg_arena_release(net->arena); /* the network itself too */
}

const ctg_net_object *ctg_network_root(const ctg_network *net)
{
    return net ? ctg_net_doc(net, 0) : NULL;
}

size_t ctg_network_count(const ctg_network *net, ctg_identifiable_type type)
{
    if (net == NULL || (unsigned)type >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return 0;
    size_t n = net->types[type].len;
    return type == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION ? n + net->vsc.len : n;
}

const ctg_net_object *ctg_network_object_at(const ctg_network *net, ctg_identifiable_type type,
                                            size_t i)
{
    if (net == NULL || (unsigned)type >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return NULL;
    const ctg_net_vec *v = &net->types[type];
    if (i < v->len)
        return ctg_net_vec_at(v, i);
    if (type == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION && i - v->len < net->vsc.len)
        return ctg_net_vec_at(&net->vsc, i - v->len);
    return NULL;
}

size_t ctg_network_object_count(const ctg_network *net)
{
    return net ? net->doc_len : 0;
}

const ctg_net_object *ctg_network_object_by_doc(const ctg_network *net, size_t i)
{
    return net && i < net->doc_len ? ctg_net_doc(net, i) : NULL;
}

const ctg_net_object *ctg_network_find(const ctg_network *net, const char *id, size_t len)
{
    if (net == NULL || id == NULL)
        return NULL;
    return ctg_net_lookup(net, id, len);
}

ctg_net_object *ctg_network_find_mut(ctg_network *net, const char *id, size_t len)
{
    if (net == NULL || id == NULL)
        return NULL;
    return ctg_net_lookup(net, id, len);
}

const char *ctg_net_object_property(const ctg_net_object *obj, const char *key)
{
    if (obj == NULL || key == NULL)
        return NULL;
    const ctg_net_attrs *a = obj->attrs;
    for (size_t i = 0; a && i < a->property_count; i++)
        if (strcmp(a->properties[i].key, key) == 0)
            return a->properties[i].value;
    return NULL;
}

const ctg_net_object *ctg_net_object_subnetwork(const ctg_net_object *obj)
{
    return obj && obj->attrs ? obj->attrs->subnetwork : NULL;
}

size_t ctg_net_object_property_count(const ctg_net_object *obj)
{
    return obj && obj->attrs ? obj->attrs->property_count : 0;
}

const ctg_net_property *ctg_net_object_property_at(const ctg_net_object *obj, size_t i)
{
    return i < ctg_net_object_property_count(obj) ? &obj->attrs->properties[i] : NULL;
}

size_t ctg_net_object_alias_count(const ctg_net_object *obj)
{
    return obj && obj->attrs ? obj->attrs->alias_count : 0;
}

const char *ctg_net_object_alias_at(const ctg_net_object *obj, size_t i)
{
    return i < ctg_net_object_alias_count(obj) ? obj->attrs->aliases[i] : NULL;
}

const char *ctg_network_iidm_version(const ctg_network *net)
{
    return net ? net->iidm_version : NULL;
}

int ctg_network_set_iidm_version(ctg_network *net, const char *version)
{
    if (net == NULL || version == NULL)
        return CTG_EINVAL;
    char *copy = ctg_arena_strndup(net->arena, version, strlen(version));
    if (copy == NULL)
        return CTG_ENOMEM;
    net->iidm_version = copy;
    return CTG_OK;
}

/* Bytes of the chunks and chunk table of `v`. */
static size_t vec_bytes(const ctg_net_vec *v)
{
    return v->chunk_count * CTG_NET_CHUNK * sizeof(ctg_net_object) +
           v->chunk_cap * sizeof *v->chunks;
}

size_t ctg_network_memory_size(const ctg_network *net)
{
    if (net == NULL)
        return 0;
    size_t n = vec_bytes(&net->vsc), members = 0, keys = 0;
    for (size_t t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++)
        n += vec_bytes(&net->types[t]);
    for (int t = CTG_IDENTIFIABLE_SUBSTATION; t <= CTG_IDENTIFIABLE_VOLTAGE_LEVEL; t++)
        for (size_t i = 0; i < net->types[t].len; i++) {
            const ctg_net_object *obj = ctg_net_vec_at(&net->types[t], i);
            const ctg_net_box *box = (const ctg_net_box *)obj->container;
            members += box->member_cap;
            keys += box->key_cap;
        }
    return ctg_arena_footprint(net->arena) + n + members * sizeof(ctg_net_object *) +
           keys * sizeof(uint32_t) + net->doc_cap * sizeof *net->docs +
           net->alias_cap * sizeof *net->aliases + net->slot_cap * sizeof *net->slots +
           net->pool_cap * sizeof *net->pool + ctg_net_scan_bytes(net);
}

int ctg_network_reserve(ctg_network *net, size_t objects_hint)
{
    if (net == NULL)
        return CTG_EINVAL;
    if (objects_hint > CTG_NET_MAX_OBJECTS - net->doc_len)
        objects_hint = CTG_NET_MAX_OBJECTS - net->doc_len;
    /* The index and the document order grow with every object; the objects' chunks need
     * no reserve (they never move), and the hint does not say how the types spread. */
    if (ctg_net_index_reserve(net, objects_hint) != CTG_OK)
        return CTG_ENOMEM;
    /* Exactly the hint: doubling past it would cost more than the growth it saves. */
    size_t cap = net->doc_len + objects_hint;
    return cap <= net->doc_cap ? CTG_OK : docs_resize(net, cap);
}
