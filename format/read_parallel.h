/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_READ_PARALLEL_H
#define CTG_FORMAT_READ_PARALLEL_H

/* Private: the multi-threaded read of a whole `default` list held in memory (read.c). */

#include <stddef.h>

#include "ctg/io.h"

/* The smallest part worth a thread of its own, in bytes, when the caller gives 0: starting a
 * thread, reading the header again and stitching cost what reading about 1 MiB does. */
#define CTG_SPLIT_MIN_PART ((size_t)4 * 1024 * 1024)

/* What ctg_read_parallel returns when it declines: the input is then read by one thread. */
#define CTG_PARALLEL_DECLINED 1

/* Reads the `len` bytes at `data` with up to `threads` threads, in parts of at least
 * `min_part` bytes (0: CTG_SPLIT_MIN_PART), when its layout lets it split them (see
 * ctg_read_options.threads); `opts` is the caller's, checked. Returns CTG_OK with *out the
 * list (the one a sequential read makes), or CTG_PARALLEL_DECLINED, having left nothing
 * allocated and written no error: on any doubt, and on any failure, which the sequential read
 * then reports as it always does. On success *parts (when `parts` is not NULL) is the number
 * of parts read. */
int ctg_read_parallel(ctg_list **out, const char *data, size_t len, const ctg_read_options *opts,
                      unsigned threads, size_t min_part, unsigned arena_flags, size_t *parts);

#endif
