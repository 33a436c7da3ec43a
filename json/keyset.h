/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_JSON_KEYSET_H
#define CTG_JSON_KEYSET_H

/* Private: a set of byte strings read from the input, for finding duplicates (object keys of
 * extension values, extension names) in time near-linear whatever the input holds.
 *
 * The hash is keyed (SipHash-1-3) with a key drawn at random once per process, so an input
 * cannot be built to make its strings collide; the table is at most half full and probed
 * linearly. Each string belongs to a group (the object it is a key of). Removal is last in,
 * first out, which linear probing allows exactly: a slot freed that way is never in the probe
 * path of a string still in the set, because every such string went in before it. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/internal.h"
#include "ctg/common.h"
#include "json/lexer.h"

typedef struct ctg_keyset_entry {
    size_t off; /* in the set's text */
    size_t len;
    uint64_t hash;
    uint32_t group;
    ctg_mark mark; /* where the string was read, for the error naming both places */
} ctg_keyset_entry;

#define CTG_KEYSET_SMALL 8

typedef struct ctg_keyset {
    /* Private to keyset.c; in the header only so that callers can embed the struct. */
    const ctg_allocator *alloc;
    ctg_keyset_entry *items; /* `count` in the order added; room for `cap` (a power of two) */
    size_t count, cap;
    uint32_t *slots; /* 2 * cap: index + 1 into items, 0 = free */
    char *text;      /* the strings' bytes, in the order added */
    size_t text_len, text_cap;
    size_t probes; /* slots looked at so far: what flooding would inflate (tests) */
    ctg_keyset_entry small_items[CTG_KEYSET_SMALL];
    uint32_t small_slots[2 * CTG_KEYSET_SMALL];
    char small_text[128];
} ctg_keyset;

CTG_INTERNAL void ctg_keyset_init(ctg_keyset *s, const ctg_allocator *a);
/* Releases the set's memory; the set is then as after init. */
CTG_INTERNAL void ctg_keyset_dispose(ctg_keyset *s);

/* Adds `n` bytes at `str` to `group`, read at `mark`. Returns CTG_OK, CTG_ENOMEM (the set
 * unchanged), or 1 when the group holds them already: then *first is that entry (borrowed until
 * the set changes) and nothing is added. */
CTG_INTERNAL int ctg_keyset_add(ctg_keyset *s, uint32_t group, const char *str, size_t n,
                                const ctg_mark *mark, const ctg_keyset_entry **first);

/* The entry of `group` holding the `n` bytes at `str` (borrowed until the set changes), NULL
 * when there is none; the set is not changed beyond its probe count. */
CTG_INTERNAL const ctg_keyset_entry *ctg_keyset_find(ctg_keyset *s, uint32_t group,
                                                     const char *str, size_t n);

/* Removes the entries added after the first `count`, last first. */
CTG_INTERNAL void ctg_keyset_truncate(ctg_keyset *s, size_t count);

/* The bytes of `e`, an entry of `s`. */
static inline const char *ctg_keyset_text(const ctg_keyset *s, const ctg_keyset_entry *e)
{
    return s->text + e->off;
}

/* The keyed hash, exposed for its test: SipHash with `c` compression and `d` finalization
 * rounds of the 16-byte key k0, k1 (SipHash-2-4 is c = 2, d = 4). */
CTG_INTERNAL uint64_t ctg_siphash(uint64_t k0, uint64_t k1, const void *data, size_t len, int c,
                                  int d);

#endif
