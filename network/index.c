/* SPDX-License-Identifier: MPL-2.0 */
/* The id and alias index of a network: one open-addressing table (linear probing, at most
 * three quarters full, doubled when it would be more) of 8-byte slots, 11 to 21 bytes a key.
 * A slot keeps the high half of the key's hash, so a probe compares strings only when those
 * 32 bits match, and the ref of the object or alias, whose text is the key: the strings are
 * not copied again. Below it, the pool of short property strings, kept once each. */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "network/table_impl.h"

#define MIN_SLOTS 64u

/* 64-bit FNV-1a with a final mix: ids are short and often share long prefixes. */
uint64_t ctg_net_hash(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;

    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3u;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

ctg_net_object *ctg_net_ref_object(const ctg_network *net, uint32_t ref)
{
    if (ref & CTG_NET_REF_ALIAS)
        ref = net->aliases[ref & ~CTG_NET_REF_ALIAS].doc;
    return net->docs.items[ref];
}

static const char *ref_text(const ctg_network *net, uint32_t ref)
{
    if (ref & CTG_NET_REF_ALIAS)
        return net->aliases[ref & ~CTG_NET_REF_ALIAS].text;
    return net->docs.items[ref]->id;
}

uint32_t ctg_net_index_find(const ctg_network *net, const char *s, size_t len, uint64_t hash)
{
    if (net->slot_cap == 0)
        return CTG_NET_REF_NONE;
    size_t mask = net->slot_cap - 1;
    uint32_t tag = (uint32_t)(hash >> 32);

    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        uint64_t slot = net->slots[i];
        if (slot == 0)
            return CTG_NET_REF_NONE;
        if ((uint32_t)(slot >> 32) != tag)
            continue;
        uint32_t ref = (uint32_t)slot - 1;
        const char *text = ref_text(net, ref);
        if (ctg_net_same(text, s, len))
            return ref;
    }
}

static void place(uint64_t *slots, size_t cap, uint64_t hash, uint32_t ref)
{
    size_t mask = cap - 1;
    size_t i = (size_t)hash & mask;

    while (slots[i] != 0)
        i = (i + 1) & mask;
    slots[i] = (hash >> 32) << 32 | ((uint64_t)ref + 1);
}

/* Moves every key into a table of `cap` slots. */
static int rehash(ctg_network *net, size_t cap)
{
    size_t bytes;
    if (!ctg_size_mul(cap, sizeof(uint64_t), &bytes))
        return CTG_ENOMEM;
    uint64_t *slots = ctg_mem_alloc(net->alloc, bytes);
    if (slots == NULL)
        return CTG_ENOMEM;
    memset(slots, 0, bytes);
    for (size_t i = 0; i < net->slot_cap; i++) {
        uint64_t slot = net->slots[i];
        if (slot == 0)
            continue;
        uint32_t ref = (uint32_t)slot - 1;
        const char *text = ref_text(net, ref);
        place(slots, cap, ctg_net_hash(text, strlen(text)), ref);
    }
    ctg_mem_release(net->alloc, net->slots, net->slot_cap * sizeof(uint64_t));
    net->slots = slots;
    net->slot_cap = cap;
    return CTG_OK;
}

int ctg_net_index_reserve(ctg_network *net, size_t extra)
{
    size_t need;
    if (!ctg_size_add(net->slot_used, extra, &need) || need > CTG_NET_MAX_OBJECTS * (size_t)2 ||
        need > SIZE_MAX / 8)
        return CTG_ENOMEM;
    /* A probe compares 32 bits of hash before any text, and 8 slots share a cache line, so
     * linear probing stays short at 3/4 (2.5 slots a hit, 8.5 a miss, on average). */
    if (need * 4 <= net->slot_cap * (size_t)3)
        return CTG_OK;
    size_t cap = net->slot_cap ? net->slot_cap : MIN_SLOTS;
    while (need * 4 > cap * (size_t)3)
        cap *= 2;
    return rehash(net, cap);
}

void ctg_net_index_insert(ctg_network *net, uint64_t hash, uint32_t ref)
{
    place(net->slots, net->slot_cap, hash, ref);
    net->slot_used++;
}

ctg_net_object *ctg_net_lookup(const ctg_network *net, const char *s, size_t len)
{
    uint32_t ref = ctg_net_index_find(net, s, len, ctg_net_hash(s, len));
    return ref == CTG_NET_REF_NONE ? NULL : ctg_net_ref_object(net, ref);
}

/* Room for one more string in the pool. */
static int pool_reserve(ctg_network *net)
{
    if ((net->pool_used + 1) * 4 <= net->pool_cap * (size_t)3)
        return CTG_OK;
    size_t cap = net->pool_cap ? net->pool_cap * 2 : MIN_SLOTS, bytes;
    if (!ctg_size_mul(cap, sizeof(ctg_net_pooled), &bytes))
        return CTG_ENOMEM;
    ctg_net_pooled *pool = ctg_mem_alloc(net->alloc, bytes);
    if (pool == NULL)
        return CTG_ENOMEM;
    memset(pool, 0, bytes);
    for (size_t i = 0; i < net->pool_cap; i++) {
        if (net->pool[i].text == NULL)
            continue;
        size_t j = net->pool[i].hash & (cap - 1);
        while (pool[j].text)
            j = (j + 1) & (cap - 1);
        pool[j] = net->pool[i];
    }
    ctg_mem_release(net->alloc, net->pool, net->pool_cap * sizeof(ctg_net_pooled));
    net->pool = pool;
    net->pool_cap = cap;
    return CTG_OK;
}

const char *ctg_net_pool_string(ctg_network *net, const char *s, size_t len)
{
    if (len > CTG_NET_POOL_MAX_LEN)
        return ctg_arena_strndup(net->arena, s, len);
    if (pool_reserve(net) != CTG_OK)
        return NULL;
    uint32_t hash = (uint32_t)ctg_net_hash(s, len);
    size_t mask = net->pool_cap - 1, i = hash & mask;
    for (; net->pool[i].text; i = (i + 1) & mask)
        if (net->pool[i].hash == hash && net->pool[i].len == len &&
            memcmp(net->pool[i].text, s, len) == 0)
            return net->pool[i].text;
    char *copy = ctg_arena_strndup(net->arena, s, len);
    if (copy == NULL)
        return NULL;
    net->pool[i] = (ctg_net_pooled){ copy, hash, (uint32_t)len };
    net->pool_used++;
    return copy;
}
