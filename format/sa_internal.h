/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_SA_INTERNAL_H
#define CTG_FORMAT_SA_INTERNAL_H

/* Private: the pieces of the security-analysis documents (format/sa.c) that tests and other
 * kinds of the family reach. */

#include <stddef.h>

#include "base/arena.h"
#include "base/internal.h"
#include "ctg/error.h"

/* Rewrites the `*count` strings at `ids` as their distinct values in the iteration order of a
 * Java HashSet filled in that order (spec 1.2); scratch in `arena`. CTG_OK or CTG_ENOMEM. */
CTG_INTERNAL int ctg_sa_hash_order(ctg_arena *arena, const char **ids, size_t *count);

/* Called by the contingency-list reader on its error path only: when `err` is what it says of
 * a security-analysis document (an unknown root member such as "limitReductions"), rewrites the
 * message to say what the document is. Position and path are kept. */
CTG_INTERNAL void ctg_sa_explain_list_error(ctg_error *err);

#endif
