/* SPDX-License-Identifier: MPL-2.0 */
#include "base/arena.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ctg/error.h"
#include "base/alloc.h"
#include "base/pages.h"

/* Every block the arena holds from its allocator (chunks, large requests, adopted blocks)
 * is one node of a singly linked list, released in one pass by ctg_arena_release. Chunks and
 * large requests carry their node as a header in front of their data; an adopted block gets
 * a node allocated in the arena itself. */

#define CHUNK_MIN ((size_t)4 * 1024)
#define CHUNK_MAX ((size_t)1024 * 1024)
/* The largest chunk of an arena told to expect much (ctg_arena_expect): 4 MiB and more ask for
 * huge pages, of which an unaligned 8 MiB chunk holds three. */
#define CHUNK_BIG ((size_t)8 * 1024 * 1024)
#define MAX_ALIGN ((size_t)alignof(max_align_t))
/* The bump pointer gets a chunk's bytes in steps this large, each one's pages populated by one
 * system call (base/pages.h): a fresh process pays a fault per page otherwise, and a step is
 * small enough that little of the last chunk is populated for nothing. */
#define OPEN_STEP ((size_t)128 * 1024)
/* The largest chunk that ctg_arena_expect_scratch shares with a caller's scratch: a read of up
 * to about 32 MB of input, whose items' array is then never copied out of it or grown. */
#define SHARED_MAX ((size_t)32 * 1024 * 1024)

#ifdef CTG_DEBUG_ARENA
#define FORCED_FLAGS CTG_ARENA_EXACT
#else
#define FORCED_FLAGS 0u
#endif

typedef struct block {
    struct block *next;
    void *base;  /* what the allocator returned */
    size_t size; /* what was asked of the allocator */
    bool chunk;  /* a bump chunk (not a large request or an adopted block) */
    /* A chunk's data starts this far into the block: just past the header, or at the first
     * huge-page boundary in a chunk laid out for huge pages. */
    uint32_t data_at;
} block;

/* The header in front of a chunk's data, padded so that the data is max-aligned. */
typedef union block_header {
    block b;
    max_align_t align;
} block_header;

struct ctg_arena {
    ctg_arena_bump bump; /* first: the inline fast paths of arena.h reach it there */
    ctg_allocator alloc;
    block *blocks;
    size_t next_chunk; /* size of the next chunk's data */
    size_t chunk_max;  /* what next_chunk grows to */
    size_t footprint;
    char *limit;       /* the current chunk's end; bump.end is where its open part ends */
    size_t huge;       /* the huge page new chunks are aligned to (ctg_arena_expect), or 0 */
    bool exact;        /* CTG_ARENA_EXACT: one allocation per request */
    bool no_populate;  /* the system cannot populate pages: chunks open whole */
};

ctg_arena *ctg_arena_new(const ctg_allocator *a)
{
    return ctg_arena_new_ex(a, 0);
}

ctg_arena *ctg_arena_new_ex(const ctg_allocator *a, unsigned flags)
{
    ctg_arena *arena = ctg_mem_alloc(a, sizeof *arena);

    if (arena == NULL)
        return NULL;
    memset(arena, 0, sizeof *arena);
    if (a != NULL)
        arena->alloc = *a;
    arena->next_chunk = CHUNK_MIN;
    arena->chunk_max = CHUNK_MAX;
    arena->footprint = sizeof *arena;
    arena->exact = ((flags | FORCED_FLAGS) & CTG_ARENA_EXACT) != 0;
    return arena;
}

void ctg_arena_release(ctg_arena *arena)
{
    block *b;
    ctg_allocator a;

    if (arena == NULL)
        return;
    a = arena->alloc;
    b = arena->blocks;
    while (b != NULL) {
        /* The node may sit inside the block it describes: read it before releasing. */
        block cur = *b;
        CTG_ARENA_UNPOISON(cur.base, cur.size); /* the allocator gets back what it gave */
        ctg_mem_release(&a, cur.base, cur.size);
        b = cur.next;
    }
    ctg_mem_release(&a, arena, sizeof *arena);
}

const ctg_allocator *ctg_arena_allocator(const ctg_arena *arena)
{
    return &arena->alloc;
}

/* A block of its own for one request, with a header in front; NULL when out of memory. */
/* In exact mode the object ends where the allocation ends (the allocator's blocks are
 * max-aligned, so a header rounded up to `align` keeps the object aligned): a write past its
 * last byte is outside the allocation, where ASan and valgrind see it. */
static size_t block_overhead(const ctg_arena *arena, size_t align)
{
    size_t head = sizeof(block_header);

    if (arena->exact && align <= MAX_ALIGN)
        return (size_t)ctg_align_up(head, align);
    return head + align;
}

static void *own_block(ctg_arena *arena, size_t size, size_t align)
{
    size_t total;
    block_header *h;
    uintptr_t p;

    if (!ctg_size_add(size, block_overhead(arena, align), &total))
        return NULL;
    h = ctg_mem_alloc(&arena->alloc, total);
    if (h == NULL)
        return NULL;
    h->b.base = h;
    h->b.size = total;
    h->b.chunk = false;
    h->b.data_at = 0;
    h->b.next = arena->blocks;
    arena->blocks = &h->b;
    arena->footprint += total;
    p = (uintptr_t)(h + 1);
    p = ctg_align_up(p, align);
    return (void *)p;
}

/* Starts a new chunk; the rest of the current one is abandoned. false when out of memory. A
 * chunk laid out for huge pages has a huge page of slack, so that its data can start on a
 * huge-page boundary and map in huge pages from its first byte on; the skipped bytes below the
 * boundary are never touched, and cost address space only. */
static bool new_chunk(ctg_arena *arena)
{
    size_t total = sizeof(block_header) + arena->next_chunk + arena->huge;
    block_header *h = ctg_mem_alloc(&arena->alloc, total);
    uintptr_t data;

    if (h == NULL)
        return false;
    data = (uintptr_t)(h + 1);
    if (arena->huge != 0)
        data = ctg_align_up(data, arena->huge);
    h->b.base = h;
    h->b.size = total;
    h->b.chunk = true;
    h->b.data_at = (uint32_t)(data - (uintptr_t)h);
    h->b.next = arena->blocks;
    arena->blocks = &h->b;
    arena->footprint += total;
    arena->bump.cur = arena->bump.end = (char *)data;
    arena->limit = arena->bump.cur + arena->next_chunk;
    if (arena->huge != 0)
        ctg_pages_huge_whole(arena->bump.cur, arena->limit);
    else
        ctg_pages_huge(arena->bump.cur, arena->limit);
    CTG_ARENA_POISON(arena->bump.cur, arena->next_chunk);
    if (arena->next_chunk < arena->chunk_max) {
        arena->next_chunk *= 2;
        if (arena->next_chunk > arena->chunk_max)
            arena->next_chunk = arena->chunk_max;
    }
    return true;
}

/* Bump allocation from the current chunk; NULL when it does not fit. */
static void *bump(ctg_arena *arena, size_t size, size_t align)
{
    uintptr_t p, end;

    if (arena->bump.cur == NULL)
        return NULL;
    p = ctg_align_up((uintptr_t)arena->bump.cur, align);
    end = (uintptr_t)arena->bump.end;
    if (p > end || end - p < size)
        return NULL;
    arena->bump.cur = (char *)(p + size);
    CTG_ARENA_UNPOISON((void *)p, size);
    return (void *)p;
}

/* Opens the current chunk up to `need` (<= its end) and on to the next multiple of OPEN_STEP,
 * populating the pages of what it opens: steps end on page boundaries, so no page is left
 * between two of them. */
static void open_to(ctg_arena *arena, uintptr_t need)
{
    char *from = arena->bump.end, *to;
    uintptr_t step_end;

    if (need <= (uintptr_t)from)
        return;
    if (arena->no_populate) {
        arena->bump.end = arena->limit;
        return;
    }
    /* A chunk in the last step of the address space (a 32-bit process) opens whole, where
     * the rounding would wrap to 0. */
    if (need > UINTPTR_MAX - OPEN_STEP)
        step_end = UINTPTR_MAX;
    else
        step_end = ctg_align_up(need, OPEN_STEP);
    to = step_end < (uintptr_t)arena->limit ? (char *)step_end : arena->limit;
    if (!ctg_pages_populate(from, to)) {
        arena->no_populate = true;
        to = arena->limit;
    }
    arena->bump.end = to;
}

/* bump, after opening as much of the current chunk as the request needs. */
static void *bump_open(ctg_arena *arena, size_t size, size_t align)
{
    uintptr_t p;

    if (arena->bump.cur == NULL)
        return NULL;
    p = ctg_align_up((uintptr_t)arena->bump.cur, align);
    if (p > (uintptr_t)arena->limit || (uintptr_t)arena->limit - p < size)
        return NULL;
    open_to(arena, p + size);
    return bump(arena, size, align);
}

void *ctg_arena_alloc(ctg_arena *arena, size_t size, size_t align)
{
    void *p;

    if (align == 0)
        align = 1;
    if (size == 0)
        size = 1;
    /* Every request its own allocation, so that ASan and valgrind see each object's bounds
     * and a test can count requests. */
    if (arena->exact)
        return own_block(arena, size, align);
    p = bump_open(arena, size, align);
    if (p != NULL)
        return p;
    /* A large request would waste most of a fresh chunk: give it a block of its own. */
    if (size > arena->next_chunk / 4)
        return own_block(arena, size, align);
    if (!new_chunk(arena))
        return NULL;
    return bump_open(arena, size, align);
}

void *ctg_arena_calloc(ctg_arena *arena, size_t count, size_t size)
{
    size_t total;
    void *p;

    if (!ctg_size_mul(count, size, &total))
        return NULL;
    p = ctg_arena_alloc(arena, total, MAX_ALIGN);
    if (p != NULL)
        memset(p, 0, total);
    return p;
}

char *ctg_arena_strndup(ctg_arena *arena, const char *s, size_t len)
{
    size_t total;
    char *p;

    if (!ctg_size_add(len, 1, &total))
        return NULL;
    p = ctg_arena_alloc(arena, total, 1);
    if (p == NULL)
        return NULL;
    if (len > 0)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

const char *ctg_arena_strdup_or_flag(ctg_arena *arena, const char *s, bool *ok)
{
    char *p;

    if (s == NULL)
        return NULL;
    p = ctg_arena_strndup(arena, s, strlen(s));
    if (p == NULL)
        *ok = false;
    return p;
}

void *ctg_arena_memdup(ctg_arena *arena, const void *p, size_t size)
{
    void *q;

    if (size == 0)
        return NULL;
    q = ctg_arena_alloc(arena, size, MAX_ALIGN);
    if (q != NULL)
        memcpy(q, p, size);
    return q;
}

int ctg_arena_adopt(ctg_arena *arena, void *ptr, size_t size)
{
    block *b;

    if (ptr == NULL)
        return CTG_OK;
    b = ctg_arena_alloc(arena, sizeof *b, alignof(block));
    if (b == NULL) {
        ctg_mem_release(&arena->alloc, ptr, size);
        return CTG_ENOMEM;
    }
    b->base = ptr;
    b->size = size;
    b->chunk = false;
    b->data_at = 0;
    b->next = arena->blocks;
    arena->blocks = b;
    arena->footprint += size;
    return CTG_OK;
}

void ctg_arena_reset(ctg_arena *arena)
{
    block *keep = NULL, *b = arena->blocks;

    /* Keep the newest chunk, the largest: a streaming reader resets after every item, and
     * must not go back to the allocator each time. */
    while (b != NULL) {
        block cur = *b;
        if (keep == NULL && cur.chunk) {
            keep = b;
        } else {
            arena->footprint -= cur.size;
            CTG_ARENA_UNPOISON(cur.base, cur.size);
            ctg_mem_release(&arena->alloc, cur.base, cur.size);
        }
        b = cur.next;
    }
    arena->blocks = keep;
    if (keep != NULL) {
        keep->next = NULL;
        arena->bump.cur = (char *)keep->base + keep->data_at;
        /* Open whole: its pages were written before, as far as they were used. */
        arena->bump.end = arena->limit = (char *)keep->base + keep->size;
        CTG_ARENA_POISON(arena->bump.cur, (size_t)(arena->bump.end - arena->bump.cur));
    } else {
        arena->bump.cur = arena->bump.end = arena->limit = NULL;
    }
}

void ctg_arena_absorb(ctg_arena *dst, ctg_arena *src)
{
    block **tail = &dst->blocks;

    if (src == NULL)
        return;
    /* At the end of the list: ctg_arena_reset keeps the first chunk it meets, dst's own. */
    while (*tail != NULL)
        tail = &(*tail)->next;
    *tail = src->blocks;
    dst->footprint += src->footprint - sizeof *src;
    ctg_mem_release(&src->alloc, src, sizeof *src);
}

void ctg_arena_expect(ctg_arena *arena, size_t total)
{
    /* Half: a large read ends in a large chunk, but in one of at least three (its unused end,
     * never written, costs address space only). */
    size_t max = total / 2 < CHUNK_BIG ? total / 2 : CHUNK_BIG;
    size_t huge = ctg_pages_huge_size();

    if (max > arena->chunk_max)
        arena->chunk_max = max;
    if (huge == 0 || total < CTG_PAGES_HUGE_FROM || arena->exact
        || !ctg_mem_is_libc(&arena->alloc))
        return;
    /* From the next chunk on, whole huge pages: as many as the read may fill, up to
     * CHUNK_BIG. Pages of a chunk are mapped as it fills, so its unused end costs nothing. */
    max = total < CHUNK_BIG ? total : CHUNK_BIG;
    max = (size_t)ctg_align_up(max, huge);
    arena->huge = huge;
    if (max > arena->chunk_max)
        arena->chunk_max = max;
    if (max > arena->next_chunk)
        arena->next_chunk = max;
}

void *ctg_arena_expect_scratch(ctg_arena *arena, size_t total, size_t scratch)
{
    size_t need, keep;

    ctg_arena_expect(arena, total);
    if (arena->huge == 0 || !ctg_size_add(total, scratch, &need) || need > SHARED_MAX)
        return NULL;
    scratch = (size_t)ctg_align_up(scratch, MAX_ALIGN);
    keep = arena->next_chunk;
    arena->next_chunk = (size_t)ctg_align_up(need + 2 * MAX_ALIGN, arena->huge);
    if (!new_chunk(arena)) {
        arena->next_chunk = keep;
        return NULL;
    }
    /* new_chunk grew next_chunk from the shared size: back to what the read's chunks take. */
    arena->next_chunk = keep;
    arena->limit -= scratch; /* the chunk's end is huge-page aligned: the scratch is aligned */
    CTG_ARENA_UNPOISON(arena->limit, scratch);
    return arena->limit;
}

bool ctg_arena_open(ctg_arena *arena, size_t size)
{
    size_t keep = arena->next_chunk;
    bool ok;

    if (arena->exact || size == 0)
        return true;
    if (arena->huge != 0) {
        if (size > SIZE_MAX - arena->huge)
            return false;
        size = (size_t)ctg_align_up(size, arena->huge);
    }
    if (size > SIZE_MAX - sizeof(block_header) - arena->huge)
        return false;
    arena->next_chunk = size;
    ok = new_chunk(arena);
    arena->next_chunk = keep; /* new_chunk grew it from `size` */
    return ok;
}

size_t ctg_arena_footprint(const ctg_arena *arena)
{
    return arena == NULL ? 0 : arena->footprint;
}
