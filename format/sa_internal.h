/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_SA_INTERNAL_H
#define CTG_FORMAT_SA_INTERNAL_H

/* Private: the pieces of the security-analysis documents (format/sa.c) that tests and other
 * kinds of the family reach. */

#include <stddef.h>

#include "base/arena.h"
#include "base/internal.h"

/* Rewrites the `*count` strings at `ids` as their distinct values in the iteration order of a
 * Java HashSet filled in that order (spec 1.2); scratch in `arena`. CTG_OK or CTG_ENOMEM. */
CTG_INTERNAL int ctg_sa_hash_order(ctg_arena *arena, const char **ids, size_t *count);

#endif
