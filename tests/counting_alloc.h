/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_TEST_COUNTING_ALLOC_H
#define CTG_TEST_COUNTING_ALLOC_H

/* The allocator hooks of the tests: they count calls and live bytes, catch a release or resize
 * with the wrong size, and fail calls on demand (the Nth one, or each one with a probability,
 * from a seeded generator). No CUnit here: the fuzz targets link this file too. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/common.h"

/* A counting allocator: counts calls and live bytes, and can fail the Nth allocation
 * (fail_at = 0 never fails; 1 fails the first). allocs, resizes and releases count every call,
 * including the one made to fail; fail_at counts alloc and resize calls together (`calls`). */
typedef struct ctg_test_alloc {
    size_t allocs;
    size_t releases;
    size_t live_bytes;
    size_t fail_at;
    bool failed;       /* some call was made to fail */
    /* Added after the fields above; zero-initialise the whole struct. */
    size_t resizes;    /* resize calls */
    size_t calls;      /* alloc + resize calls: what fail_at counts */
    size_t peak_bytes; /* highest live_bytes */
    size_t bad_sizes;  /* releases/resizes whose size differs from the one allocated */
    /* Random failures: each alloc and resize call fails with probability fail_rate (0 never),
     * drawn from the generator state `rng`, so that a seed replays the same failures. Set
     * fail_rate to 0 for a while to make calls that must not fail. */
    double fail_rate;
    uint64_t rng;
    size_t failures;   /* calls made to fail, by fail_at or at random */
} ctg_test_alloc;

/* An allocator whose ctx is `state`. Aborts never: a failed call returns NULL. */
ctg_allocator ctg_test_allocator(ctg_test_alloc *state);

/* The same without a resize hook, so that ctg's alloc+copy+release fallback is exercised. */
ctg_allocator ctg_test_allocator_noresize(ctg_test_alloc *state);

/* Zeroes `state`, seeds its generator with `seed` and returns an allocator (with resize) whose
 * calls each fail with probability `fail_rate` (0 to 1). */
ctg_allocator ctg_test_random_allocator(ctg_test_alloc *state, uint64_t seed, double fail_rate);

#endif
