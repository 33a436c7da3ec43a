/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IO_ZHOOKS_H
#define CTG_IO_ZHOOKS_H

/* Private: zlib allocating through ctg's allocator hooks, and the one include of zlib.h in the
 * library. ZLIB_CONST makes z_stream.next_in a pointer to const bytes (zlib never writes
 * through it), so that a writer's const data goes in without a cast. */

#ifndef ZLIB_CONST
#define ZLIB_CONST
#endif
#include <zlib.h>

#include "ctg/common.h"

/* Points `zs`'s zalloc/zfree/opaque at `a` (NULL = malloc); call before deflateInit2 or
 * inflateInit2. `a` must outlive the stream. */
void ctg_zlib_use_allocator(z_stream *zs, const ctg_allocator *a);

#endif
