/* SPDX-License-Identifier: MPL-2.0 */
/* Pages: what the library asks of the kernel for memory it is about to fill (base/pages.h),
 * seen through mincore: the pages it populates are resident, the others are not, and the
 * bytes never change. */
#define _DEFAULT_SOURCE /* mmap, mincore */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "base/arena.h"
#include "base/pages.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
#define PAGE ((size_t)4096)
#define REGION ((size_t)1024 * 1024)

/* A fresh anonymous region, none of its pages resident yet. */
static char *fresh_region(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    return p == MAP_FAILED ? NULL : p;
}

/* How many of the pages [first, first + count) of `base` are resident. */
static size_t resident(const char *base, size_t first, size_t count)
{
    unsigned char vec[REGION / 4096 + 1];
    size_t n = 0;

    CU_ASSERT_FATAL(count <= sizeof vec);
    CU_ASSERT_FATAL(mincore((void *)(base + first * PAGE), count * PAGE, vec) == 0);
    for (size_t i = 0; i < count; i++)
        n += vec[i] & 1;
    return n;
}

/* True when this system populates pages (kernel >= 5.14); otherwise a note, and the test
 * returns: there is nothing to see. */
static bool populates(void)
{
    char *r = fresh_region(REGION);
    bool ok;

    CU_ASSERT_FATAL(r != NULL);
    ok = ctg_pages_populate(r, r + REGION);
    munmap(r, REGION);
    if (!ok || sysconf(_SC_PAGESIZE) != (long)PAGE)
        printf("\n  note: no MADV_POPULATE_WRITE with 4 KiB pages here, nothing to check ");
    return ok && sysconf(_SC_PAGESIZE) == (long)PAGE;
}

/* Only the pages wholly inside the range, and nothing below CTG_PAGES_POPULATE_MIN. */
static void check_populate_maps_the_whole_pages_of_the_range(void)
{
    char *r;

    if (!populates())
        return;
    r = fresh_region(REGION);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(resident(r, 0, REGION / PAGE), 0);
    CU_ASSERT(ctg_pages_populate(r + 100, r + 100 + CTG_PAGES_POPULATE_MIN - 1));
    CU_ASSERT_EQUAL(resident(r, 0, REGION / PAGE), 0);
    CU_ASSERT(ctg_pages_populate(r + 100, r + 64 * PAGE + 5));
    CU_ASSERT_EQUAL(resident(r, 0, 1), 0);
    CU_ASSERT_EQUAL(resident(r, 1, 63), 63);
    CU_ASSERT_EQUAL(resident(r, 64, REGION / PAGE - 64), 0);
    for (size_t i = 0; i < REGION; i++)
        if (r[i] != 0)
            CU_FAIL_FATAL("a populated byte changed");
    munmap(r, REGION);
}

/* Populating and asking for huge pages leave the bytes as they were. */
static void check_advice_keeps_the_bytes(void)
{
    size_t size = 3 * CTG_PAGES_HUGE_MIN;
    char *r = fresh_region(size);

    CU_ASSERT_FATAL(r != NULL);
    for (size_t i = 0; i < size; i += 997)
        r[i] = (char)(i % 251 + 1);
    ctg_pages_huge(r + 1, r + size);
    CU_ASSERT(ctg_pages_populate(r, r + size) || !populates());
    for (size_t i = 0; i < size; i++)
        if (r[i] != (i % 997 == 0 ? (char)(i % 251 + 1) : 0))
            CU_FAIL_FATAL("a byte changed");
    munmap(r, size);
}

/* Hooks that give every block a region of its own, so that mincore sees what the arena did. */
static void *region_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return fresh_region((size + PAGE - 1) & ~(PAGE - 1));
}

static void region_release(void *ctx, void *p, size_t size)
{
    (void)ctx;
    munmap(p, (size + PAGE - 1) & ~(PAGE - 1));
}

#define STEP ((uintptr_t)128 * 1024)
#define ROUND_UP(x) (((uintptr_t)(x) + STEP - 1) & ~(STEP - 1))

/* The string after `prev`, or the first of a new chunk (then *chunks counts it). */
static char *next_string(ctg_arena *arena, const char *text, size_t len, char *prev,
                         int *chunks)
{
    char *s = ctg_arena_strndup(arena, text, len);

    CU_ASSERT_FATAL(s != NULL);
    if (s != prev + len + 1)
        ++*chunks;
    return s;
}

/* The seventh chunk (after 4, 8, ..., 128 KiB) has 256 KiB and opens 128 KiB at a time: the
 * string that reaches past the first step populates the whole next one, ahead of its writes,
 * and nothing past it; strings stay back to back across a step's end. */
static void check_arena_chunk_opens_in_populated_steps(void)
{
    ctg_allocator a = { region_alloc, NULL, region_release, NULL };
    ctg_arena *arena;
    char text[1000], *s = NULL, *data = NULL;
    int chunks = 0;
    uintptr_t step1 = 0, need;

    if (!populates())
        return;
    memset(text, 'x', sizeof text);
    arena = ctg_arena_new(&a);
    CU_ASSERT_FATAL(arena != NULL);
    while (chunks < 7)
        s = next_string(arena, text, sizeof text - 1, s, &chunks);
    data = s;
    step1 = ROUND_UP(data + sizeof text);
    while ((need = (uintptr_t)s + 2 * sizeof text) <= step1)
        s = next_string(arena, text, sizeof text - 1, s, &chunks);
    s = next_string(arena, text, sizeof text - 1, s, &chunks);
    CU_ASSERT_EQUAL_FATAL(chunks, 7);
    {
        uintptr_t limit = (uintptr_t)data + 256 * 1024;
        uintptr_t step2 = ROUND_UP(need) < limit ? ROUND_UP(need) : limit;
        size_t open = (step2 - step1) / PAGE, rest = (limit - step2) / PAGE;

        CU_ASSERT_EQUAL(resident((char *)step1, 0, open), open);
        CU_ASSERT_EQUAL(resident((char *)step2, 0, rest), 0);
    }
    ctg_arena_release(arena);
}
#else
/* Nothing to see where pages are not populated. */
#define NOTHING_HERE                                                                          \
    {                                                                                         \
        printf("\n  note: no MADV_POPULATE_WRITE on this system, nothing to check ");          \
    }
static void check_populate_maps_the_whole_pages_of_the_range(void) NOTHING_HERE
static void check_advice_keeps_the_bytes(void) NOTHING_HERE
static void check_arena_chunk_opens_in_populated_steps(void) NOTHING_HERE
#endif

CTG_TEST(pages, populate_maps_the_whole_pages_of_the_range)
{
    check_populate_maps_the_whole_pages_of_the_range();
}

CTG_TEST(pages, advice_keeps_the_bytes)
{
    check_advice_keeps_the_bytes();
}

CTG_TEST(pages, arena_chunk_opens_in_populated_steps)
{
    check_arena_chunk_opens_in_populated_steps();
}

/* ---- chunks laid out for huge pages --------------------------------------------------------- */

#define SHARED_SCRATCH ((size_t)600 * 1024)

/* A malloc arena told to expect a read of 600 KiB with as much scratch opens one chunk of huge
 * pages at once: its data starts on a huge-page boundary, the scratch ends it, max-aligned and
 * the caller's to write whole, and no allocation reaches the scratch; the chunk after it starts
 * on a boundary too. */
CTG_TEST(pages, arena_shares_a_huge_chunk_with_the_scratch)
{
    size_t huge = ctg_pages_huge_size(), n = 0;
    ctg_arena *arena = ctg_arena_new(NULL);
    char *scratch, *first, *p;

    CU_ASSERT_FATAL(arena != NULL);
    scratch = ctg_arena_expect_scratch(arena, SHARED_SCRATCH, SHARED_SCRATCH);
    if (huge == 0) {
        printf("\n  note: no huge pages to lay chunks out for here, nothing to check ");
        CU_ASSERT_PTR_NULL(scratch);
        ctg_arena_release(arena);
        return;
    }
    CU_ASSERT_FATAL(scratch != NULL);
    CU_ASSERT_EQUAL((uintptr_t)scratch % 16, 0);
    CU_ASSERT_EQUAL(((uintptr_t)scratch + SHARED_SCRATCH) % huge, 0);
    memset(scratch, 0x5a, SHARED_SCRATCH);
    first = ctg_arena_alloc(arena, 1000, 8);
    CU_ASSERT_FATAL(first != NULL);
    CU_ASSERT_EQUAL((uintptr_t)first % huge, 0);
    for (;;) {
        p = ctg_arena_alloc(arena, 1000, 8);
        CU_ASSERT_FATAL(p != NULL);
        if (p < first || p >= scratch + SHARED_SCRATCH)
            break;
        CU_ASSERT_FATAL(p + 1000 <= scratch);
        memset(p, 0xa5, 1000);
        n++;
    }
    CU_ASSERT_EQUAL(n, (size_t)(scratch - first) / 1000 - 1); /* all the room before it */
    CU_ASSERT_EQUAL((uintptr_t)p % huge, 0);
    for (size_t i = 0; i < SHARED_SCRATCH; i++)
        if ((unsigned char)scratch[i] != 0x5a)
            CU_FAIL_FATAL("an allocation wrote into the scratch");
    ctg_arena_release(arena);
}

/* No shared chunk for a caller's hooks (which may count every byte asked for), an exact arena,
 * a read too small to fill a quarter of a huge page or too large to share one chunk: nothing
 * is allocated for it. */
CTG_TEST(pages, arena_shares_a_chunk_only_for_mallocs_mid_sized_reads)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_arena *hooked = ctg_arena_new(&a), *exact = ctg_arena_new_ex(NULL, CTG_ARENA_EXACT);
    ctg_arena *small = ctg_arena_new(NULL), *big = ctg_arena_new(NULL);
    size_t mb = (size_t)1024 * 1024;

    CU_ASSERT_FATAL(hooked && exact && small && big);
    CU_ASSERT_PTR_NULL(ctg_arena_expect_scratch(hooked, SHARED_SCRATCH, SHARED_SCRATCH));
    CU_ASSERT_EQUAL(st.live_bytes, ctg_arena_footprint(hooked));
    CU_ASSERT_PTR_NULL(ctg_arena_expect_scratch(exact, SHARED_SCRATCH, SHARED_SCRATCH));
    CU_ASSERT_PTR_NULL(ctg_arena_expect_scratch(small, CTG_PAGES_HUGE_FROM - 1, SHARED_SCRATCH));
    CU_ASSERT_PTR_NULL(ctg_arena_expect_scratch(big, 16 * mb, 16 * mb + 1));
    CU_ASSERT_EQUAL(ctg_arena_footprint(small), ctg_arena_footprint(exact));
    CU_ASSERT_EQUAL(ctg_arena_footprint(big), ctg_arena_footprint(exact));
    ctg_arena_release(hooked);
    ctg_arena_release(exact);
    ctg_arena_release(small);
    ctg_arena_release(big);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
}

/* ---- a chunk opened ahead (ctg_arena_open) -------------------------------------------------- */

/* An arena opened for 100 KiB takes that chunk at once, in one allocator call of its size and a
 * header, and fills it before it asks for another; the chunks after it are sized as before
 * (the first of the geometric series: 4 KiB). */
CTG_TEST(pages, arena_open_takes_one_chunk_that_requests_fill)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_arena *arena = ctg_arena_new(&a);
    size_t before, opened = (size_t)100 * 1024;
    char *first, *p;

    CU_ASSERT_FATAL(arena != NULL);
    before = st.live_bytes;
    CU_ASSERT_TRUE(ctg_arena_open(arena, opened));
    CU_ASSERT_EQUAL(st.allocs, 2); /* the arena, its chunk */
    CU_ASSERT(st.live_bytes - before >= opened && st.live_bytes - before < opened + 64);
    CU_ASSERT_EQUAL(ctg_arena_footprint(arena), st.live_bytes);
    first = ctg_arena_alloc(arena, 1000, 8);
    CU_ASSERT_FATAL(first != NULL);
    for (size_t i = 1; i < opened / 1000; i++) {
        p = ctg_arena_alloc(arena, 1000, 8);
        CU_ASSERT_FATAL(p == first + i * 1000);
    }
    CU_ASSERT_EQUAL(st.allocs, 2);
    CU_ASSERT_PTR_NOT_NULL(ctg_arena_alloc(arena, 1000, 8)); /* the 101st: a new chunk */
    CU_ASSERT_EQUAL(st.allocs, 3);
    CU_ASSERT(st.live_bytes - before - opened < 2 * 4096);
    ctg_arena_release(arena);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
}

/* Nothing to open in an exact arena or for 0 bytes (true, no call); a size that cannot be
 * allocated or overflows gives false and leaves the arena as it was, still usable. */
CTG_TEST(pages, arena_open_fails_cleanly)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_arena *arena = ctg_arena_new(&a), *exact = ctg_arena_new_ex(&a, CTG_ARENA_EXACT);
    size_t calls, footprint;

    CU_ASSERT_FATAL(arena != NULL && exact != NULL);
    calls = st.calls;
    footprint = ctg_arena_footprint(arena);
    CU_ASSERT_TRUE(ctg_arena_open(exact, 4096));
    CU_ASSERT_TRUE(ctg_arena_open(arena, 0));
    CU_ASSERT_EQUAL(st.calls, calls);
    CU_ASSERT_FALSE(ctg_arena_open(arena, SIZE_MAX - 8));
    CU_ASSERT_EQUAL(st.calls, calls);
    st.fail_at = st.calls + 1;
    CU_ASSERT_FALSE(ctg_arena_open(arena, 4096));
    CU_ASSERT_EQUAL(ctg_arena_footprint(arena), footprint);
    st.fail_at = 0;
    CU_ASSERT_PTR_NOT_NULL(ctg_arena_strndup(arena, "after", 5));
    ctg_arena_release(arena);
    ctg_arena_release(exact);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
}

/* Told to expect a large read, an arena opens whole huge pages from a huge-page boundary on,
 * as its other chunks after ctg_arena_expect. */
CTG_TEST(pages, arena_open_lays_a_huge_chunk_out_after_expect)
{
    size_t huge = ctg_pages_huge_size();
    ctg_arena *arena = ctg_arena_new(NULL);
    char *p;

    CU_ASSERT_FATAL(arena != NULL);
    ctg_arena_expect(arena, (size_t)16 * 1024 * 1024);
    CU_ASSERT_TRUE(ctg_arena_open(arena, (size_t)3 * 1024 * 1024));
    p = ctg_arena_alloc(arena, 64, 8);
    CU_ASSERT_FATAL(p != NULL);
    if (huge == 0)
        printf("\n  note: no huge pages to lay chunks out for here ");
    else
        CU_ASSERT_EQUAL((uintptr_t)p % huge, 0);
    CU_ASSERT(ctg_arena_footprint(arena) >= (huge ? 2 * huge : (size_t)3 * 1024 * 1024));
    ctg_arena_release(arena);
}

#include "test_pages.tests.h"
