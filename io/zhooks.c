/* SPDX-License-Identifier: MPL-2.0 */
/* zlib's zfree gives no size, and ctg's release hook wants one: each block carries it. */

#include "io/zhooks.h"

#include <stddef.h>

#include "base/alloc.h"

typedef union zhead {
    size_t size;
    max_align_t align;
} zhead;

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    size_t n;
    zhead *h;

    if (!ctg_size_mul(items, size, &n) || !ctg_size_add(n, sizeof(zhead), &n))
        return Z_NULL;
    h = ctg_mem_alloc(opaque, n);
    if (!h)
        return Z_NULL;
    h->size = n;
    return h + 1;
}

static void z_free(voidpf opaque, voidpf p)
{
    zhead *h = (zhead *)p - 1;
    ctg_mem_release(opaque, h, h->size);
}

void ctg_zlib_use_allocator(z_stream *zs, const ctg_allocator *a)
{
    zs->zalloc = z_alloc;
    zs->zfree = z_free;
    zs->opaque = (voidpf)a;
}
