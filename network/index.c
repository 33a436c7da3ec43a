/* SPDX-License-Identifier: MPL-2.0 */
/* The id and alias index of a network: one open-addressing table (linear probing, at most
 * half full, doubled when it would be more) of 8-byte slots. A slot keeps the high half of
 * the key's hash, so a probe compares strings only when those 32 bits match, and the ref of
 * the object or alias, whose text is the key: the strings are not copied again. */

#include <stdbool.h>
#include <string.h>

#include "base/alloc.h"
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
    if (!ctg_size_add(net->slot_used, extra, &need) || need > CTG_NET_MAX_OBJECTS * (size_t)2)
        return CTG_ENOMEM;
    if (need * 2 <= net->slot_cap)
        return CTG_OK;
    size_t cap = net->slot_cap ? net->slot_cap : MIN_SLOTS;
    while (need * 2 > cap)
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
