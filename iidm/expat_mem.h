/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_EXPAT_MEM_H
#define CTG_IIDM_EXPAT_MEM_H

/* Private: libexpat's memory through ctg's allocator, for every libexpat parser of the iidm
 * layer (the XIIDM importer, the busbar topology reader).
 *
 * libexpat's hooks take no context, so each block carries its allocator and size in front.
 * Only a block's first allocation needs the allocator from outside: it is the one of the
 * read that runs on this thread, set with ctg_expat_use around each call into libexpat (a
 * read never spans threads, and reads on different threads see their own). */

#include <expat.h>
#include <stdbool.h>

#include "ctg/common.h"

/* The hooks to hand XML_ParserCreate_MM. */
extern const XML_Memory_Handling_Suite ctg_expat_memory;

/* Makes `a` (NULL: malloc/free) the allocator of this thread's next libexpat allocations. */
void ctg_expat_use(const ctg_allocator *a);

/* Clears the flag ctg_expat_failed reads; called before a parser is created. */
void ctg_expat_reset_failed(void);

/* Whether an allocation failed on this thread since ctg_expat_reset_failed: libexpat 2.5
 * reports some failed allocations as other errors (one in a namespace binding is "unbound
 * prefix"), which are then CTG_ENOMEM. */
bool ctg_expat_failed(void);

#endif
