/* SPDX-License-Identifier: MPL-2.0 */
/* The id and alias index of a network: one open-addressing table (linear probing, at most
 * three quarters full, doubled when it would be more, or sized to a hint) of 8-byte slots, 11 to 21
 * bytes a key. A slot keeps the high half of the key's hash, so a probe compares strings only when
 * those 32 bits match, and the ref of the object or alias, whose text is the key: the strings are
 * not copied again. The home slot comes from the same 32 bits, so a rehash moves slots
 * without reading a key. Below it, the pool of property keys and short values, kept once each. */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "network/table.h"
#include "network/table_impl.h"

#define MIN_SLOTS 64u

/* Eight bytes at a time (FNV-1a took a multiply a byte: a seventh of an ID_BASED look-up's
 * instructions), each word multiplied in and folded down, then murmur3's final mix: ids are
 * short and often share long prefixes, and both halves of the hash are used (the index's tag
 * and home, the pool's slot). */
uint64_t ctg_net_hash(const char *s, size_t len)
{
    const uint64_t k = 0x9e3779b97f4a7c15u;
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)len, w;
    size_t i = 0;

    for (; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    if (i < len && len >= 8) { /* the last eight bytes, some of them again: no partial copy */
        memcpy(&w, s + len - 8, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
    } else if (i < len) {
        for (w = 0; i < len; i++)
            w = w << 8 | (unsigned char)s[i];
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53u;
    h ^= h >> 33;
    return h;
}

ctg_net_object *ctg_net_ref_object(const ctg_network *net, uint32_t ref)
{
    if (ref & CTG_NET_REF_ALIAS)
        ref = net->aliases[ref & ~CTG_NET_REF_ALIAS].loc;
    return ctg_net_locate(net, ref);
}

static const char *ref_text(const ctg_network *net, uint32_t ref)
{
    if (ref & CTG_NET_REF_ALIAS)
        return net->aliases[ref & ~CTG_NET_REF_ALIAS].text;
    return ctg_net_locate(net, ref)->id;
}

/* The home slot of a key: from the same 32 bits of hash the slot keeps, so that a rehash
 * moves slots without reading any key's text. */
static size_t home(uint32_t tag, size_t cap)
{
    return (size_t)(((uint64_t)tag * cap) >> 32); /* [0, cap): any capacity, no modulo */
}

static uint32_t tag_of(uint64_t hash)
{
    return (uint32_t)(hash >> 32);
}

/* Probes for `s`: its ref, or CTG_NET_REF_NONE with *empty the slot where it would go. The
 * key's text is read only when the slot's 32 bits of hash match. */
static uint32_t probe(const ctg_network *net, const char *s, size_t len, uint64_t hash,
                      size_t *empty)
{
    size_t cap = net->slot_cap;
    uint32_t tag = tag_of(hash);

    for (size_t i = home(tag, cap);; i = i + 1 == cap ? 0 : i + 1) {
        uint64_t slot = net->slots[i];
        if (slot == 0) {
            *empty = i;
            return CTG_NET_REF_NONE;
        }
        if ((uint32_t)(slot >> 32) != tag)
            continue;
        uint32_t ref = (uint32_t)slot - 1;
        if (ctg_net_same(ref_text(net, ref), s, len))
            return ref;
    }
}

uint32_t ctg_net_index_find(const ctg_network *net, const char *s, size_t len, uint64_t hash)
{
    size_t empty;
    if (net->slot_cap == 0)
        return CTG_NET_REF_NONE;
    return probe(net, s, len, hash, &empty);
}

uint32_t ctg_net_index_find_slot(const ctg_network *net, const char *s, size_t len, uint64_t hash,
                                 size_t *slot)
{
    return probe(net, s, len, hash, slot);
}

void ctg_net_index_insert_at(ctg_network *net, size_t slot, uint64_t hash, uint32_t ref)
{
    net->slots[slot] = (uint64_t)tag_of(hash) << 32 | ((uint64_t)ref + 1);
    net->slot_used++;
}

static void place(uint64_t *slots, size_t cap, uint64_t slot)
{
    size_t i = home((uint32_t)(slot >> 32), cap);

    while (slots[i] != 0)
        i = i + 1 == cap ? 0 : i + 1;
    slots[i] = slot;
}

/* Moves every slot into a table of `cap` slots: the slot holds its own home, no text read. */
static int rehash(ctg_network *net, size_t cap)
{
    size_t bytes;
    if (!ctg_size_mul(cap, sizeof(uint64_t), &bytes))
        return CTG_ENOMEM;
    uint64_t *slots = ctg_mem_alloc(net->alloc, bytes);
    if (slots == NULL)
        return CTG_ENOMEM;
    memset(slots, 0, bytes);
    for (size_t i = 0; i < net->slot_cap; i++)
        if (net->slots[i] != 0)
            place(slots, cap, net->slots[i]);
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
    /* A hint of many keys (ctg_network_reserve) gets what it needs, not the next power of two:
     * the home slot works for any capacity. */
    size_t fit = (need + need / 3 + 8) & ~(size_t)7;
    if (extra > 1 && fit < cap)
        cap = fit > MIN_SLOTS ? fit : MIN_SLOTS;
    return rehash(net, cap);
}

void ctg_net_index_insert(ctg_network *net, uint64_t hash, uint32_t ref)
{
    place(net->slots, net->slot_cap, (uint64_t)tag_of(hash) << 32 | ((uint64_t)ref + 1));
    net->slot_used++;
}

uint64_t ctg_net_index_hash(const char *id, size_t len)
{
    return ctg_net_hash(id, len);
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define PREFETCH(p) ((void)(p))
#endif

void ctg_net_index_prefetch(const ctg_network *net, uint64_t hash)
{
    if (net->slot_cap)
        PREFETCH(&net->slots[home(tag_of(hash), net->slot_cap)]);
}

void ctg_net_index_prefetch_object(const ctg_network *net, uint64_t hash)
{
    size_t cap = net->slot_cap;
    uint32_t tag = tag_of(hash);

    if (cap == 0)
        return;
    for (size_t i = home(tag, cap); net->slots[i] != 0; i = i + 1 == cap ? 0 : i + 1)
        if ((uint32_t)(net->slots[i] >> 32) == tag) {
            uint32_t ref = (uint32_t)net->slots[i] - 1;
            const ctg_net_object *obj = ctg_net_ref_object(net, ref);
            PREFETCH(obj);
            PREFETCH(ref_text(net, ref));
            return;
        }
}

ctg_net_object *ctg_net_index_find_hashed(const ctg_network *net, const char *id, size_t len,
                                          uint64_t hash)
{
    uint32_t ref = ctg_net_index_find(net, id, len, hash);
    return ref == CTG_NET_REF_NONE ? NULL : ctg_net_ref_object(net, ref);
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

/* The bytes before the first NUL of the `len` at `s`: what the C string of a copy holds. */
static size_t c_length(const char *s, size_t len)
{
    const char *nul = memchr(s, '\0', len);
    return nul ? (size_t)(nul - s) : len;
}

/* The pool's slot of the `len` bytes at `s` with hash `hash`: theirs, or the empty one where
 * they go. The pool has slots. */
static size_t pool_probe(const ctg_network *net, const char *s, size_t len, uint32_t hash)
{
    size_t mask = net->pool_cap - 1, i = hash & mask;
    for (; net->pool[i].text; i = (i + 1) & mask)
        if (net->pool[i].hash == hash && net->pool[i].len == len &&
            memcmp(net->pool[i].text, s, len) == 0)
            break;
    return i;
}

static const char *pool_insert(ctg_network *net, const char *s, size_t len)
{
    if (pool_reserve(net) != CTG_OK)
        return NULL;
    uint32_t hash = (uint32_t)ctg_net_hash(s, len);
    size_t i = pool_probe(net, s, len, hash);
    if (net->pool[i].text)
        return net->pool[i].text;
    char *copy = ctg_arena_strndup(net->arena, s, len);
    if (copy == NULL)
        return NULL;
    net->pool[i] = (ctg_net_pooled){ copy, hash, (uint32_t)len };
    net->pool_used++;
    return copy;
}

const char *ctg_net_pool_string(ctg_network *net, const char *s, size_t len)
{
    len = c_length(s, len);
    if (len > CTG_NET_POOL_MAX_LEN)
        return ctg_arena_strndup(net->arena, s, len);
    return pool_insert(net, s, len);
}

/* A network holds few distinct keys, each on many objects: all of them are kept once (a slot
 * keeps a 32-bit length). */
const char *ctg_net_pool_key(ctg_network *net, const char *s, size_t len)
{
    len = c_length(s, len);
    return len >= CTG_NET_MAX_OBJECTS ? NULL : pool_insert(net, s, len);
}

const char *ctg_net_scan_interned(const ctg_network *net, const char *s, size_t len)
{
    if (net->pool_cap == 0 || len >= CTG_NET_MAX_OBJECTS)
        return NULL;
    return net->pool[pool_probe(net, s, len, (uint32_t)ctg_net_hash(s, len))].text;
}
