/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_READ_INTERNAL_H
#define CTG_FORMAT_READ_INTERNAL_H

/* Private: read entry points with knobs the public API does not show, for tests. */

#include "ctg/io.h"
#include "ctg/stream.h"

/* As ctg_list_read_buffer, with the list's arena created with `arena_flags`
 * (CTG_ARENA_EXACT: one allocator call per request, so a test can count them). */
int ctg_list_read_buffer_ex(ctg_list **out, const void *data, size_t len,
                            const ctg_read_options *opts, ctg_error *err, unsigned arena_flags);

/* As ctg_list_read_in_situ, with the list's arena created with `arena_flags`. */
int ctg_list_read_in_situ_ex(ctg_list **out, char *data, size_t len, const ctg_read_options *opts,
                             ctg_error *err, unsigned arena_flags);

/* As ctg_list_read_file and ctg_list_read_buffer (`src` a PATH or BUFFER source, else read by
 * one thread), with ctg_read_options.threads cutting parts as small as `min_part` bytes
 * (0 = 1): tests take the parallel path on small inputs with it. `parts` (may be NULL) is set
 * to the number of parts a successful parallel read took, 1 when one thread read it all. */
int ctg_list_read_split(ctg_list **out, const ctg_source *src, const ctg_read_options *opts,
                        ctg_error *err, size_t min_part, size_t *parts);

#endif
