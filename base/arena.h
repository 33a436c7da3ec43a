/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_ARENA_H
#define CTG_BASE_ARENA_H

/* Private: a chunked bump allocator that owns everything reachable from a list.
 * Chunks grow geometrically (4 KiB up to 1 MiB, or up to 8 MiB after ctg_arena_expect: from
 * 4 MiB on they ask for huge pages, see base/pages.h); one ctg_arena_release frees them all.
 * A malloc arena told to expect a large read (ctg_arena_expect) lays its next chunks out for
 * huge pages instead: whole huge pages, from a huge-page boundary on.
 * With CTG_DEBUG_ARENA defined, every request gets an allocation of its own, so ASan and
 * valgrind see each object's bounds. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/internal.h"
#include "ctg/common.h"

/* `x` rounded up to a multiple of `align`, a power of two; the caller knows it cannot wrap. */
static inline uintptr_t ctg_align_up(uintptr_t x, uintptr_t align)
{
    return (x + (align - 1)) & ~(align - 1);
}

/* Under AddressSanitizer the free part of every chunk is poisoned and each request unpoisons
 * exactly its bytes, so that an overrun of one object into the next one's room or into the
 * chunk's unused tail is reported like a heap overflow, in every sanitized build. */
#if defined(__SANITIZE_ADDRESS__)
#define CTG_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CTG_ARENA_ASAN 1
#endif
#endif
#ifdef CTG_ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define CTG_ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define CTG_ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define CTG_ARENA_POISON(p, n) ((void)0)
#define CTG_ARENA_UNPOISON(p, n) ((void)0)
#endif

typedef struct ctg_arena ctg_arena;

/* The open free space of the current chunk, [cur, end): the first member of every arena, so
 * that the fast paths below are inlined into the reader. NULL/NULL in exact mode. A chunk opens
 * in steps whose pages are populated as the step opens (arena.c), so `end` may stop short of
 * the chunk's end: the slow paths open more. */
typedef struct ctg_arena_bump {
    char *cur;
    char *end;
} ctg_arena_bump;

/* A new arena that allocates through `a` (copied; NULL = malloc). NULL when out of memory. */
CTG_INTERNAL ctg_arena *ctg_arena_new(const ctg_allocator *a);

/* ctg_arena_new_ex flags. */
enum {
    /* Every request gets an allocation of its own, at run time: tests count allocator calls
     * per request, and ASan sees each object's bounds. CTG_DEBUG_ARENA forces it on. */
    CTG_ARENA_EXACT = 1u << 0
};
/* As ctg_arena_new, with CTG_ARENA_* flags. */
CTG_INTERNAL ctg_arena *ctg_arena_new_ex(const ctg_allocator *a, unsigned flags);
/* Frees every block and the arena itself. Accepts NULL. */
CTG_INTERNAL void ctg_arena_release(ctg_arena *arena);
/* The allocator the arena was made with (never NULL; a copy owned by the arena). */
CTG_INTERNAL const ctg_allocator *ctg_arena_allocator(const ctg_arena *arena);

/* `size` bytes aligned to `align` (a power of two <= 16), or NULL. Not zeroed. */
CTG_INTERNAL void *ctg_arena_alloc(ctg_arena *arena, size_t size, size_t align);
/* count * size zeroed bytes, max-aligned; NULL on overflow or out of memory. */
CTG_INTERNAL void *ctg_arena_calloc(ctg_arena *arena, size_t count, size_t size);
/* A NUL-terminated copy of `len` bytes of `s`, or NULL. */
CTG_INTERNAL char *ctg_arena_strndup(ctg_arena *arena, const char *s, size_t len);
/* A copy of the NUL-terminated `s`, or NULL for NULL; on out of memory returns NULL and sets
 * *ok to false, so that a builder can copy many fields and check once. */
CTG_INTERNAL const char *ctg_arena_strdup_or_flag(ctg_arena *arena, const char *s, bool *ok);
/* A copy of `size` bytes of `p`, max-aligned, or NULL (also NULL, without error, for size 0). */
CTG_INTERNAL void *ctg_arena_memdup(ctg_arena *arena, const void *p, size_t size);
/* Copies up to 16 bytes with two possibly overlapping moves: ids are short, and a call to
 * memcpy costs more than the copy. */
static inline void ctg_copy_short(char *dst, const char *src, size_t len)
{
    if (len >= 8 && len <= 16) {
        memcpy(dst, src, 8);
        memcpy(dst + len - 8, src + len - 8, 8);
    } else if (len >= 4 && len < 8) {
        memcpy(dst, src, 4);
        memcpy(dst + len - 4, src + len - 4, 4);
    } else if (len < 4) {
        for (size_t i = 0; i < len; i++)
            dst[i] = src[i];
    } else {
        memcpy(dst, src, len);
    }
}

/* ctg_arena_strndup with the common case (room in the current chunk) inlined. */
static inline char *ctg_arena_strndup_fast(ctg_arena *arena, const char *s, size_t len)
{
    ctg_arena_bump *b = (ctg_arena_bump *)arena;
    char *p = b->cur;

    if ((size_t)(b->end - p) <= len)
        return ctg_arena_strndup(arena, s, len);
    CTG_ARENA_UNPOISON(p, len + 1);
    ctg_copy_short(p, s, len);
    p[len] = '\0';
    b->cur = p + len + 1;
    return p;
}

/* ctg_arena_alloc with the common case inlined; `align` a power of two. */
static inline void *ctg_arena_alloc_fast(ctg_arena *arena, size_t size, size_t align)
{
    ctg_arena_bump *b = (ctg_arena_bump *)arena;
    uintptr_t p = ctg_align_up((uintptr_t)b->cur, align);

    if (b->cur == NULL || p > (uintptr_t)b->end || (uintptr_t)b->end - p < size || size == 0)
        return ctg_arena_alloc(arena, size, align);
    b->cur = (char *)(p + size);
    CTG_ARENA_UNPOISON((void *)p, size);
    return (void *)p;
}

/* Hands a block allocated with the arena's allocator over to the arena, which releases it
 * (with `size`) in ctg_arena_release. On failure (CTG_ENOMEM) the block is released at once. */
CTG_INTERNAL int ctg_arena_adopt(ctg_arena *arena, void *block, size_t size);
/* Frees everything allocated so far but keeps the newest chunk for reuse: pointers into the
 * arena become invalid. For readers that reuse one arena per streamed item. */
CTG_INTERNAL void ctg_arena_reset(ctg_arena *arena);
/* Moves every block of `src` (made with the same allocator) into `dst`, whose current chunk
 * stays the one it allocates from, and frees `src`: what a read done in parallel into
 * one arena per thread hands over to the list's. Accepts a NULL `src`. */
CTG_INTERNAL void ctg_arena_absorb(ctg_arena *dst, ctg_arena *src);
/* Tells the arena that about `total` bytes will be allocated (a large read): its chunks may
 * then grow past 1 MiB, to half of `total` and at most 8 MiB, fewer and large enough for huge
 * pages. A malloc arena, where huge pages exist and `total` reaches CTG_PAGES_HUGE_FROM, goes
 * further: its next chunk is `total` rounded up to whole huge pages (within 8 MiB), and each
 * chunk from then on starts on a huge-page boundary of a block one huge page larger. Only ever
 * raises the limit. */
CTG_INTERNAL void ctg_arena_expect(ctg_arena *arena, size_t total);
/* ctg_arena_expect(total), for a reader that also needs `scratch` bytes of its own, which it
 * fills from their start (its items' stack): when both fit in one chunk laid out for huge pages,
 * opens that chunk now and returns the scratch, max-aligned, at its top, where pages never
 * written cost nothing. The arena owns it (ctg_arena_release frees it; nothing else does) and
 * never allocates from it. NULL when that cannot be done: no huge pages, an exact arena, too
 * large, out of memory. */
CTG_INTERNAL void *ctg_arena_expect_scratch(ctg_arena *arena, size_t total, size_t scratch);
/* Opens a chunk of at least `size` bytes now (whole huge pages after ctg_arena_expect), which
 * the next requests fill; the chunks after it are sized as before. A reader that runs on
 * another thread has its arena opened by the thread that starts it, so that its memory comes
 * from that thread's malloc arena, which a long-running program keeps mapped between reads
 * (glibc unmaps a per-thread arena's extra heaps whenever they empty). false, nothing done, on
 * out of memory or overflow; nothing either in an exact arena or when `size` is 0. */
CTG_INTERNAL bool ctg_arena_open(ctg_arena *arena, size_t size);
/* Bytes the arena holds from its allocator (blocks + adopted), for statistics. */
CTG_INTERNAL size_t ctg_arena_footprint(const ctg_arena *arena);

#endif
