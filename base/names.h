/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_NAMES_H
#define CTG_BASE_NAMES_H

/* Private: the one name-to-enum look-up, for every enum the format names (element types,
 * identifiable types, identifier kinds, criterion types, equipment and side to check, list
 * kinds). Each enum has one table of its names, indexed by value (often a field of a wider
 * table of structs); beside it, an index of its values grouped by name length, so that a
 * look-up compares at most CTG_NAMES_PER_LEN candidates, each by a first byte then a few
 * machine words. The element type look-up runs once per element read: it must stay this cheap.
 * The index repeats no name; tests/test_model.c checks every name of every table is found. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Values of one length at most (4), + 1 for the 0 that ends every row, rounded up to a power
 * of two so that a row is found with a shift. */
#define CTG_NAMES_PER_LEN 8

typedef struct ctg_names {
    const char *const *first; /* the name of value 0 (NULL names are never found) */
    size_t stride;            /* bytes from one value's name to the next one's */
    /* by_len[n]: the values whose names are n bytes, each + 1, then 0. */
    const unsigned char (*by_len)[CTG_NAMES_PER_LEN];
    size_t max_len;           /* rows of by_len - 1 */
} ctg_names;

/* The names of a plain array `names` of strings, with its index `idx`. */
#define CTG_NAMES_OF(names, idx)                                                               \
    { &(names)[0], sizeof((names)[0]), (idx), sizeof(idx) / sizeof((idx)[0]) - 1 }
/* The names in field `field` of an array `table` of structs, with its index `idx`. */
#define CTG_NAMES_IN(table, field, idx)                                                        \
    { &(table)[0].field, sizeof((table)[0]), (idx), sizeof(idx) / sizeof((idx)[0]) - 1 }

/* The name of `value` (not checked against the table's size). */
static inline const char *ctg_names_at(const ctg_names *t, unsigned value)
{
    return *(const char *const *)(const void *)((const char *)t->first + value * t->stride);
}

static inline uint64_t ctg_names_word(const char *p)
{
    uint64_t w;

    memcpy(&w, p, 8);
    return w;
}

static inline uint32_t ctg_names_half(const char *p)
{
    uint32_t w;

    memcpy(&w, p, 4);
    return w;
}

/* Whether the `n` bytes at `a` and `b` are equal, n >= 8, given b's first and last words:
 * two compares decide almost always; the middle of a long name is compared last. */
static inline bool ctg_names_same_long(const char *a, const char *b, size_t n, uint64_t head,
                                       uint64_t tail)
{
    if (((ctg_names_word(a) ^ head) | (ctg_names_word(a + n - 8) ^ tail)) != 0)
        return false;
    for (size_t i = 8; i + 8 < n; i += 8)
        if (ctg_names_word(a + i) != ctg_names_word(b + i))
            return false;
    return true;
}

/* The row of the value found, or NULL: each candidate of the row is compared by words, in a
 * loop chosen once for the length (not per candidate). */
static inline const unsigned char *ctg_names_match(const ctg_names *t, const unsigned char *row,
                                                   const char *s, size_t len)
{
    if (len >= 8) {
        uint64_t head = ctg_names_word(s), tail = ctg_names_word(s + len - 8);
        for (; *row != 0; row++)
            if (ctg_names_same_long(ctg_names_at(t, *row - 1u), s, len, head, tail))
                return row;
    } else if (len >= 4) {
        uint32_t head = ctg_names_half(s), tail = ctg_names_half(s + len - 4);
        for (; *row != 0; row++) {
            const char *c = ctg_names_at(t, *row - 1u);
            if (((ctg_names_half(c) ^ head) | (ctg_names_half(c + len - 4) ^ tail)) == 0)
                return row;
        }
    } else { /* no call to memcmp: it would cost the callers a stack frame */
        for (; *row != 0; row++) {
            const char *c = ctg_names_at(t, *row - 1u);
            size_t i = 0;
            while (i < len && c[i] == s[i])
                i++;
            if (i == len)
                return row;
        }
    }
    return NULL;
}

/* Whether the `len` bytes at `s` (need not be NUL-terminated; may be NULL when len is 0) are
 * exactly one of the names of `t`; sets *out to its value when so (out may be NULL). Inline so
 * that each caller's constant table folds into it: the element type look-up runs per element. */
static inline bool ctg_names_find(const ctg_names *t, const char *s, size_t len, unsigned *out)
{
    const unsigned char *row;

    if (s == NULL || len == 0 || len > t->max_len)
        return false;
    /* A row's last byte is the 0 that ends it: a row filled to the end is never searched (the
     * walk would run past it), so the test that finds every name of a table fails for it. */
    if (t->by_len[len][CTG_NAMES_PER_LEN - 1] != 0)
        return false;
    row = ctg_names_match(t, t->by_len[len], s, len);
    if (row == NULL)
        return false;
    if (out != NULL)
        *out = *row - 1u;
    return true;
}

#endif
