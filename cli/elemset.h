/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_ELEMSET_H
#define CTG_CLI_ELEMSET_H

/* The canonical element set of a contingency: its elements' (type, id) pairs, sorted, each
 * once; sides (voltageLevelId) do not count. Two contingencies trip the same equipment when
 * their keys are equal byte for byte: merge --dedupe-equivalent compares them, and diff can. */

#include <stdint.h>

#include "cli.h"

typedef struct cli_elemset {
    const ctg_element **items; /* sorted, duplicates removed; borrowed from the contingency */
    size_t count, cap;
    char *key; /* for each item: its type's ordinal as one byte, its id, a NUL */
    size_t key_len, key_cap;
} cli_elemset;

#define CLI_ELEMSET_INIT                                                                           \
    {                                                                                              \
        NULL, 0, 0, NULL, 0, 0                                                                     \
    }

/* Fills `s` (its memory reused from one call to the next) from `c`, borrowed until the next
 * call. Returns 0, or -1 when out of memory. */
int cli_elemset_build(cli_elemset *s, const ctg_contingency *c);
/* The key's hash (64 bits). */
uint64_t cli_elemset_hash(const cli_elemset *s);
/* Frees what `s` holds; accepts a zeroed one. */
void cli_elemset_dispose(cli_elemset *s);

#endif
