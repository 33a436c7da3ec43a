/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_COMMON_H
#define CTG_COMMON_H

/**
 * @file common.h
 * Declarations shared by every ctg header: C++ guards, the export macro and the allocator hooks.
 *
 * Threads: ctg has no global mutable state besides tables built once (thread-safely, on first
 * use), so different lists, reads and writes may run on different threads without locking.
 * One allocator may serve several threads only if its hooks are thread-safe.
 */

#include <stddef.h>

#include "ctg/export.h"

#ifdef __cplusplus
#define CTG_BEGIN_DECL extern "C" {
#define CTG_END_DECL }
#else
#define CTG_BEGIN_DECL
#define CTG_END_DECL
#endif

CTG_BEGIN_DECL

/**
 * Allocator hooks. Every allocation ctg makes goes through them (json-c, used only for
 * extension values and the bridge, still calls malloc itself).
 *
 * A NULL `alloc` or `release` means the C library's malloc/free. `resize` may be NULL: ctg
 * then allocates, copies and releases. `size` is always the size asked for when the block was
 * allocated, so a pool allocator need not store it. The hooks may be called from any thread
 * that uses a list or reader built with them: hooks shared by lists, reads or writes on several
 * threads must be thread-safe (malloc and free are). The struct is copied where it is kept.
 *
 * On Linux, a list read asks the kernel, with madvise, to fault in the pages of the blocks it
 * is about to fill (MADV_POPULATE_WRITE, on blocks of 16 KiB and more) and to back blocks of
 * 4 MiB and more with huge pages (MADV_HUGEPAGE): the advice stays on that memory after it is
 * released to the hooks; a refused call (a seccomp filter, an old kernel) changes nothing but
 * the page faults.
 */
typedef struct ctg_allocator {
    /** Returns a block of at least `size` bytes aligned for any type, or NULL. */
    void *(*alloc)(void *ctx, size_t size);
    /** Grows or shrinks `ptr` (of `old_size` bytes) to `new_size`; NULL leaves `ptr` valid. */
    void *(*resize)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    /** Releases `ptr` of `size` bytes; never called with NULL. */
    void (*release)(void *ctx, void *ptr, size_t size);
    /** Passed back to every hook. */
    void *ctx;
} ctg_allocator;

CTG_END_DECL

#endif
