/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_MODEL_ALLOC_H
#define CTG_MODEL_ALLOC_H

/* Private: the one place ctg turns allocator hooks into memory. */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/common.h"

/* Allocate through `a` (NULL = malloc). Size 0 is treated as 1. */
void *ctg_mem_alloc(const ctg_allocator *a, size_t size);
/* Resize through `a`; falls back to alloc+copy+release when the hook is absent. NULL on failure,
 * leaving `ptr` valid. `ptr` may be NULL (then old_size must be 0). */
void *ctg_mem_resize(const ctg_allocator *a, void *ptr, size_t old_size, size_t new_size);
/* Release through `a`; accepts NULL. */
void ctg_mem_release(const ctg_allocator *a, void *ptr, size_t size);

/* *out = a * b; false on overflow. */
bool ctg_size_mul(size_t a, size_t b, size_t *out);
/* *out = a + b; false on overflow. */
bool ctg_size_add(size_t a, size_t b, size_t *out);
/* The capacity to grow `cap` to so that it holds `need`: doubling, at least `min`; false when
 * that would overflow `limit`. */
bool ctg_grow_capacity(size_t cap, size_t need, size_t min, size_t limit, size_t *out);

#endif
