/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_ALLOC_H
#define CTG_BASE_ALLOC_H

/* Private: the one place ctg turns allocator hooks into memory. */

#include <stdbool.h>
#include <stddef.h>

#include "base/internal.h"
#include "ctg/common.h"

/* Allocate through `a` (NULL = malloc). Size 0 is treated as 1. */
CTG_INTERNAL void *ctg_mem_alloc(const ctg_allocator *a, size_t size);
/* Resize through `a`; falls back to alloc+copy+release when the hook is absent. NULL on failure,
 * leaving `ptr` valid. `ptr` may be NULL (then old_size must be 0). */
CTG_INTERNAL void *ctg_mem_resize(const ctg_allocator *a, void *ptr, size_t old_size,
                                  size_t new_size);
/* Release through `a`; accepts NULL. */
CTG_INTERNAL void ctg_mem_release(const ctg_allocator *a, void *ptr, size_t size);

/* Whether `a` is malloc (NULL, or neither an alloc nor a release hook): a block's bytes then
 * cost what is written of them, while a caller's hooks may count every byte asked for (a
 * budget, a pool), so only malloc's blocks are worth sizing for huge pages. */
CTG_INTERNAL bool ctg_mem_is_libc(const ctg_allocator *a);

/* *out = a * b; false on overflow. */
CTG_INTERNAL bool ctg_size_mul(size_t a, size_t b, size_t *out);
/* *out = a + b; false on overflow. */
CTG_INTERNAL bool ctg_size_add(size_t a, size_t b, size_t *out);
/* The capacity to grow `cap` to so that it holds `need`: doubling, at least `min`; false when
 * that would overflow `limit`. */
CTG_INTERNAL bool ctg_grow_capacity(size_t cap, size_t need, size_t min, size_t limit, size_t *out);

/* Room for `n` more bytes after the first `len` of a byte buffer (*data, *cap) that starts in
 * the caller's inline storage `small` and moves to memory from `a` when it grows (doubling, at
 * least 1 KiB). false when out of memory, the buffer unchanged. */
CTG_INTERNAL bool ctg_bytes_room(const ctg_allocator *a, char **data, size_t *cap, size_t len,
                                 size_t n, const char *small);

#endif
