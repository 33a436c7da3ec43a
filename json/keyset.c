/* SPDX-License-Identifier: MPL-2.0 */
/* A set of input strings for duplicate checks, safe against chosen collisions (keyset.h). */

#include "json/keyset.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"

/* ---- the hash --------------------------------------------------------------------------- */

static inline uint64_t rotl(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

static inline void sip_round(uint64_t v[4])
{
    v[0] += v[1], v[1] = rotl(v[1], 13), v[1] ^= v[0], v[0] = rotl(v[0], 32);
    v[2] += v[3], v[3] = rotl(v[3], 16), v[3] ^= v[2];
    v[0] += v[3], v[3] = rotl(v[3], 21), v[3] ^= v[0];
    v[2] += v[1], v[1] = rotl(v[1], 17), v[1] ^= v[2], v[2] = rotl(v[2], 32);
}

static inline uint64_t load_le(const unsigned char *p, size_t n)
{
    uint64_t m = 0;

    for (size_t i = 0; i < n; i++)
        m |= (uint64_t)p[i] << (8 * i);
    return m;
}

static inline void absorb(uint64_t v[4], uint64_t m, int c)
{
    v[3] ^= m;
    for (int i = 0; i < c; i++)
        sip_round(v);
    v[0] ^= m;
}

uint64_t ctg_siphash(uint64_t k0, uint64_t k1, const void *data, size_t len, int c, int d)
{
    const unsigned char *p = data;
    uint64_t v[4] = { k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
                      k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull };
    size_t i = 0;

    for (; len - i >= 8; i += 8)
        absorb(v, load_le(p + i, 8), c);
    absorb(v, load_le(p + i, len - i) | ((uint64_t)len << 56), c);
    v[2] ^= 0xff;
    for (int r = 0; r < d; r++)
        sip_round(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* ---- the process's key ------------------------------------------------------------------- */

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static uint64_t process_key[2]; /* written once, under key_once, then only read */

static bool urandom(void *buf, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    ssize_t got = -1;

    if (fd >= 0) {
        got = read(fd, buf, n);
        close(fd);
    }
    return got == (ssize_t)n;
}

static void draw_key(void)
{
    ssize_t got;
    struct timespec ts = { 0, 0 };

    do
        got = getrandom(process_key, sizeof process_key, GRND_NONBLOCK);
    while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof process_key || urandom(process_key, sizeof process_key))
        return;
    /* No entropy source at all (a sandbox without /dev): the clock and the address space
     * layout still keep the key out of an input's reach, if less firmly. */
    clock_gettime(CLOCK_REALTIME, &ts);
    process_key[0] = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32);
    process_key[1] = (uint64_t)(uintptr_t)&ts ^ (uint64_t)(uintptr_t)&draw_key;
}

static inline uint64_t hash_of(uint32_t group, const char *s, size_t n)
{
    pthread_once(&key_once, draw_key);
    return ctg_siphash(process_key[0] ^ group, process_key[1], s, n, 1, 3);
}

/* ---- the table --------------------------------------------------------------------------- */

void ctg_keyset_init(ctg_keyset *s, const ctg_allocator *a)
{
    s->alloc = a;
    s->items = s->small_items;
    s->count = 0;
    s->cap = CTG_KEYSET_SMALL;
    s->slots = s->small_slots;
    memset(s->small_slots, 0, sizeof s->small_slots);
    s->text = s->small_text;
    s->text_len = 0;
    s->text_cap = sizeof s->small_text;
    s->probes = 0;
}

void ctg_keyset_dispose(ctg_keyset *s)
{
    if (s->items != s->small_items) {
        ctg_mem_release(s->alloc, s->items, s->cap * sizeof *s->items);
        ctg_mem_release(s->alloc, s->slots, 2 * s->cap * sizeof *s->slots);
    }
    if (s->text != s->small_text)
        ctg_mem_release(s->alloc, s->text, s->text_cap);
    ctg_keyset_init(s, s->alloc);
}

/* The slot holding entry `index`, or the free one where (hash, group, str) would go. */
static uint32_t *find(ctg_keyset *s, uint64_t hash, uint32_t group, const char *str, size_t n)
{
    size_t mask = 2 * s->cap - 1, i = (size_t)hash & mask;

    for (;; i = (i + 1) & mask) {
        uint32_t *slot = &s->slots[i];
        const ctg_keyset_entry *e = *slot ? &s->items[*slot - 1] : NULL;

        s->probes++;
        if (e == NULL || (e->hash == hash && e->group == group && e->len == n
                          && memcmp(s->text + e->off, str, n) == 0))
            return slot;
    }
}

/* The slot that holds entry `index`. */
static uint32_t *slot_of(ctg_keyset *s, size_t index)
{
    size_t mask = 2 * s->cap - 1, i = (size_t)s->items[index].hash & mask;

    while (s->slots[i] != index + 1)
        i = (i + 1) & mask;
    return &s->slots[i];
}

static bool grow_table(ctg_keyset *s)
{
    size_t cap = 2 * s->cap, bytes;
    ctg_keyset_entry *items;
    uint32_t *slots;

    if (cap > UINT32_MAX / 2 || !ctg_size_mul(2 * cap, sizeof *slots, &bytes))
        return false;
    items = ctg_mem_alloc(s->alloc, cap * sizeof *items);
    slots = ctg_mem_alloc(s->alloc, bytes);
    if (items == NULL || slots == NULL) {
        ctg_mem_release(s->alloc, items, cap * sizeof *items);
        ctg_mem_release(s->alloc, slots, bytes);
        return false;
    }
    memcpy(items, s->items, s->count * sizeof *items);
    memset(slots, 0, bytes);
    if (s->items != s->small_items) {
        ctg_mem_release(s->alloc, s->items, s->cap * sizeof *s->items);
        ctg_mem_release(s->alloc, s->slots, 2 * s->cap * sizeof *s->slots);
    }
    s->items = items;
    s->slots = slots;
    s->cap = cap;
    for (size_t i = 0; i < s->count; i++) {
        const ctg_keyset_entry *e = &items[i];
        *find(s, e->hash, e->group, s->text + e->off, e->len) = (uint32_t)(i + 1);
    }
    return true;
}

static bool text_room(ctg_keyset *s, size_t n)
{
    return ctg_bytes_room(s->alloc, &s->text, &s->text_cap, s->text_len, n, s->small_text);
}

int ctg_keyset_add(ctg_keyset *s, uint32_t group, const char *str, size_t n,
                   const ctg_mark *mark, const ctg_keyset_entry **first)
{
    uint64_t hash = hash_of(group, str, n);
    uint32_t *slot = find(s, hash, group, str, n);
    ctg_keyset_entry *e;

    if (*slot != 0) {
        *first = &s->items[*slot - 1];
        return 1;
    }
    if (!text_room(s, n))
        return CTG_ENOMEM;
    if (s->count == s->cap) {
        if (!grow_table(s))
            return CTG_ENOMEM;
        slot = find(s, hash, group, str, n);
    }
    e = &s->items[s->count];
    e->off = s->text_len;
    e->len = n;
    e->hash = hash;
    e->group = group;
    e->mark = *mark;
    if (n > 0)
        memcpy(s->text + s->text_len, str, n);
    s->text_len += n;
    *slot = (uint32_t)(++s->count);
    return CTG_OK;
}

const ctg_keyset_entry *ctg_keyset_find(ctg_keyset *s, uint32_t group, const char *str, size_t n)
{
    const uint32_t *slot = find(s, hash_of(group, str, n), group, str, n);

    return *slot != 0 ? &s->items[*slot - 1] : NULL;
}

void ctg_keyset_truncate(ctg_keyset *s, size_t count)
{
    while (s->count > count) {
        size_t last = s->count - 1;

        *slot_of(s, last) = 0;
        s->text_len = s->items[last].off;
        s->count = last;
    }
}
