#ifndef CTG_MODEL_ARENA_H
#define CTG_MODEL_ARENA_H

/* Private: a chunked bump allocator that owns everything reachable from a list.
 * Chunks grow geometrically (4 KiB up to 1 MiB); one ctg_arena_release frees them all.
 * With CTG_DEBUG_ARENA defined, every request gets an allocation of its own, so ASan and
 * valgrind see each object's bounds. */

#include <stddef.h>

#include "ctg/common.h"

typedef struct ctg_arena ctg_arena;

/* A new arena that allocates through `a` (copied; NULL = malloc). NULL when out of memory. */
ctg_arena *ctg_arena_new(const ctg_allocator *a);

/* ctg_arena_new_ex flags. */
enum {
    /* Every request gets an allocation of its own, at run time: tests count allocator calls
     * per request, and ASan sees each object's bounds. CTG_DEBUG_ARENA forces it on. */
    CTG_ARENA_EXACT = 1u << 0
};
/* As ctg_arena_new, with CTG_ARENA_* flags. */
ctg_arena *ctg_arena_new_ex(const ctg_allocator *a, unsigned flags);
/* Frees every block and the arena itself. Accepts NULL. */
void ctg_arena_release(ctg_arena *arena);
/* The allocator the arena was made with (never NULL; a copy owned by the arena). */
const ctg_allocator *ctg_arena_allocator(const ctg_arena *arena);

/* `size` bytes aligned to `align` (a power of two <= 16), or NULL. Not zeroed. */
void *ctg_arena_alloc(ctg_arena *arena, size_t size, size_t align);
/* count * size zeroed bytes, max-aligned; NULL on overflow or out of memory. */
void *ctg_arena_calloc(ctg_arena *arena, size_t count, size_t size);
/* A NUL-terminated copy of `len` bytes of `s`, or NULL. */
char *ctg_arena_strndup(ctg_arena *arena, const char *s, size_t len);
/* A copy of `size` bytes of `p`, max-aligned, or NULL (also NULL, without error, for size 0). */
void *ctg_arena_memdup(ctg_arena *arena, const void *p, size_t size);
/* Hands a block allocated with the arena's allocator over to the arena, which releases it
 * (with `size`) in ctg_arena_release. On failure (CTG_ENOMEM) the block is released at once. */
int ctg_arena_adopt(ctg_arena *arena, void *block, size_t size);
/* Frees everything allocated so far but keeps the newest chunk for reuse: pointers into the
 * arena become invalid. For readers that reuse one arena per streamed item. */
void ctg_arena_reset(ctg_arena *arena);
/* Registers fn(arg) to run once, when the arena is released or reset, before any of its memory
 * goes (last registered runs first): for what the arena's memory refers to but does not own,
 * such as json-c values. CTG_ENOMEM when the registration cannot be stored; fn is then never
 * called. */
int ctg_arena_on_release(ctg_arena *arena, void (*fn)(void *arg), void *arg);
/* Bytes the arena holds from its allocator (blocks + adopted), for statistics. */
size_t ctg_arena_footprint(const ctg_arena *arena);

#endif
