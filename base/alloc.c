/* SPDX-License-Identifier: MPL-2.0 */
#include "base/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The only file of the library that calls malloc, realloc and free: everything else goes
 * through these three functions, so that a caller's hooks see every allocation. */

bool ctg_mem_is_libc(const ctg_allocator *a)
{
    return a == NULL || (a->alloc == NULL && a->release == NULL);
}

void *ctg_mem_alloc(const ctg_allocator *a, size_t size)
{
    if (size == 0)
        size = 1;
    if (a == NULL || a->alloc == NULL)
        return malloc(size);
    return a->alloc(a->ctx, size);
}

void *ctg_mem_resize(const ctg_allocator *a, void *ptr, size_t old_size, size_t new_size)
{
    void *p;

    if (ptr == NULL)
        return ctg_mem_alloc(a, new_size);
    /* realloc(p, 0) may free p; a zero size is treated as 1, as in ctg_mem_alloc. */
    if (new_size == 0)
        new_size = 1;
    if (a != NULL && a->resize != NULL)
        return a->resize(a->ctx, ptr, old_size, new_size);
    if (ctg_mem_is_libc(a))
        return realloc(ptr, new_size);
    p = ctg_mem_alloc(a, new_size);
    if (p == NULL)
        return NULL;
    memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    ctg_mem_release(a, ptr, old_size);
    return p;
}

void ctg_mem_release(const ctg_allocator *a, void *ptr, size_t size)
{
    if (ptr == NULL)
        return;
    if (size == 0)
        size = 1;
    if (a == NULL || a->release == NULL)
        free(ptr);
    else
        a->release(a->ctx, ptr, size);
}

bool ctg_size_mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b)
        return false;
    *out = a * b;
    return true;
}

bool ctg_size_add(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b)
        return false;
    *out = a + b;
    return true;
}

bool ctg_grow_capacity(size_t cap, size_t need, size_t min, size_t limit, size_t *out)
{
    size_t n;

    if (need > limit)
        return false;
    if (need <= cap) {
        *out = cap;
        return true;
    }
    n = cap > min ? cap : min;
    if (n == 0)
        n = 1;
    while (n < need)
        n = n > limit / 2 ? limit : n * 2;
    *out = n < limit ? n : limit;
    return true;
}

bool ctg_bytes_room(const ctg_allocator *a, char **data, size_t *cap, size_t len, size_t n,
                    const char *small)
{
    size_t need, grown;
    char *p;

    if (!ctg_size_add(len, n, &need))
        return false;
    if (need <= *cap)
        return true;
    if (!ctg_grow_capacity(*cap, need, 1024, SIZE_MAX, &grown))
        return false;
    if (*data == small) {
        if ((p = ctg_mem_alloc(a, grown)) != NULL)
            memcpy(p, small, len);
    } else {
        p = ctg_mem_resize(a, *data, *cap, grown);
    }
    if (p == NULL)
        return false;
    *data = p;
    *cap = grown;
    return true;
}
