/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_READ_INTERNAL_H
#define CTG_FORMAT_READ_INTERNAL_H

/* Private: read entry points with knobs the public API does not show, for tests. */

#include "ctg/io.h"

/* As ctg_list_read_buffer, with the list's arena created with `arena_flags`
 * (CTG_ARENA_EXACT: one allocator call per request, so a test can count them). */
int ctg_list_read_buffer_ex(ctg_list **out, const void *data, size_t len,
                            const ctg_read_options *opts, ctg_error *err, unsigned arena_flags);

#endif
