/* SPDX-License-Identifier: MPL-2.0 */
/* The counting, failing allocator hooks of the tests and fuzz targets. */

#include "tests/counting_alloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Every block carries its size in a header, so that a release or resize with a size other than
 * the one allocated is caught (bad_sizes) instead of silently skewing live_bytes. */
#define HDR sizeof(max_align_t)

static void *block_of(void *user)
{
    return (char *)user - HDR;
}

/* splitmix64: a full-period generator whose every seed, 0 included, is a good one. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static bool inject_failure(ctg_test_alloc *st)
{
    bool fail;

    st->calls++;
    fail = st->fail_at != 0 && st->calls == st->fail_at;
    /* The top 53 bits as a double in [0, 1). Drawn only while failing at random, so that a
     * pause (fail_rate 0) does not shift the sequence of the calls after it. */
    if (!fail && st->fail_rate > 0)
        fail = (double)(next_random(&st->rng) >> 11) * 0x1p-53 < st->fail_rate;
    if (fail) {
        st->failed = true;
        st->failures++;
    }
    return fail;
}

static void *user_of(void *block, size_t size)
{
    memcpy(block, &size, sizeof size);
    return (char *)block + HDR;
}

static void check_size(ctg_test_alloc *st, void *user, size_t size)
{
    size_t stored;

    memcpy(&stored, block_of(user), sizeof stored);
    if (stored != size || size > st->live_bytes)
        st->bad_sizes++;
}

static void add_live(ctg_test_alloc *st, size_t size)
{
    st->live_bytes += size;
    if (st->live_bytes > st->peak_bytes)
        st->peak_bytes = st->live_bytes;
}

static void sub_live(ctg_test_alloc *st, size_t size)
{
    /* A bad size was already counted by check_size; keep the counter from wrapping. */
    st->live_bytes -= size <= st->live_bytes ? size : st->live_bytes;
}

static void *counting_alloc(void *ctx, size_t size)
{
    ctg_test_alloc *st = ctx;
    void *block;

    st->allocs++;
    if (inject_failure(st) || size > SIZE_MAX - HDR || (block = malloc(HDR + size)) == NULL)
        return NULL;
    add_live(st, size);
    return user_of(block, size);
}

static void *counting_resize(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    ctg_test_alloc *st = ctx;
    void *block;

    st->resizes++;
    if (inject_failure(st) || new_size > SIZE_MAX - HDR)
        return NULL;
    if (ptr == NULL) {
        if (old_size != 0)
            st->bad_sizes++;
        block = malloc(HDR + new_size);
    } else {
        check_size(st, ptr, old_size);
        block = realloc(block_of(ptr), HDR + new_size);
    }
    if (block == NULL)
        return NULL;
    if (ptr != NULL)
        sub_live(st, old_size);
    add_live(st, new_size);
    return user_of(block, new_size);
}

static void counting_release(void *ctx, void *ptr, size_t size)
{
    ctg_test_alloc *st = ctx;

    st->releases++;
    if (ptr == NULL) {
        /* The hook contract says never NULL. */
        st->bad_sizes++;
        return;
    }
    check_size(st, ptr, size);
    sub_live(st, size);
    free(block_of(ptr));
}

ctg_allocator ctg_test_allocator(ctg_test_alloc *state)
{
    ctg_allocator a = { counting_alloc, counting_resize, counting_release, state };

    return a;
}

ctg_allocator ctg_test_allocator_noresize(ctg_test_alloc *state)
{
    ctg_allocator a = { counting_alloc, NULL, counting_release, state };

    return a;
}


ctg_allocator ctg_test_random_allocator(ctg_test_alloc *state, uint64_t seed, double fail_rate)
{
    memset(state, 0, sizeof *state);
    state->rng = seed;
    state->fail_rate = fail_rate;
    return ctg_test_allocator(state);
}
