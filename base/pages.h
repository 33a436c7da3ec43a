/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_PAGES_H
#define CTG_BASE_PAGES_H

/* Private: asking the kernel for the pages of memory we are about to fill, in one call. */

#include <stdbool.h>
#include <stddef.h>

#include "base/internal.h"

/* Fewer bytes than this are not worth a system call: their few faults cost about as much. */
#define CTG_PAGES_POPULATE_MIN ((size_t)16 * 1024)

/* Maps the whole pages inside [lo, hi) writable now (Linux's MADV_POPULATE_WRITE), in one
 * system call instead of one page fault per page as they are first written; the bytes are
 * unchanged. The caller owns [lo, hi) (memory from its allocator hooks) and is about to write
 * all of it. true when done or not worth a call (under CTG_PAGES_POPULATE_MIN); false when the
 * system cannot (not Linux, a kernel older than 5.14, any error): the caller stops asking. */
CTG_INTERNAL bool ctg_pages_populate(void *lo, void *hi);

/* Blocks at least this large are worth huge pages (two of them, so that at least one aligned
 * huge page lies wholly inside an unaligned block of this size). */
#define CTG_PAGES_HUGE_MIN ((size_t)4 * 1024 * 1024)

/* Asks for transparent huge pages (MADV_HUGEPAGE) on the aligned 2 MiB pages wholly inside
 * [lo, hi), memory of the caller's from its allocator hooks that it fills from `lo` on: one
 * fault then maps 2 MiB instead of 4 KiB, and at most the huge page being filled is mapped
 * beyond what is written. Nothing when the block is under CTG_PAGES_HUGE_MIN or the system has
 * no such pages; errors are ignored (the pages stay small). */
CTG_INTERNAL void ctg_pages_huge(void *lo, void *hi);

/* Memory a block laid out for huge pages is expected to fill at least: a fresh huge page maps
 * in about the time of 40 small ones (160 KiB), so a block that fills this much of one gains,
 * and a small one never pays for 2 MiB it does not use. */
#define CTG_PAGES_HUGE_FROM ((size_t)256 * 1024)

/* The huge page a block can be laid out for (2 MiB), or 0 where there is none to ask for: not
 * Linux, no MADV_HUGEPAGE, or a 32-bit process, whose address space is too small to skip up to
 * a huge page in every block for the sake of alignment. */
CTG_INTERNAL size_t ctg_pages_huge_size(void);

/* Asks for transparent huge pages on [lo, hi), huge-page aligned and filled from `lo` on, of any
 * size (ctg_pages_huge_size is not 0): a fresh huge page costs about as much to map as 40 small
 * ones, so a block that fills a quarter of one gains already. Errors are ignored. */
CTG_INTERNAL void ctg_pages_huge_whole(void *lo, void *hi);

#endif
