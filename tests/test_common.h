/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_TEST_COMMON_H
#define CTG_TEST_COMMON_H

/* Helpers shared by the CUnit suites. */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/ctg.h"
#include "tests/counting_alloc.h"

/* A double constant rounded to a double. Where doubles are computed in x87 registers (32-bit
 * x86, FLT_EVAL_METHOD 2), a constant such as 0.0125 keeps its long double value inside an
 * expression, so `x == 0.0125` compares a double with a value no double has; a cast rounds it. */
#define CTG_DOUBLE(x) ((double)(x))

/* A file of the project's own testdata/ folder. */
#define CTG_TESTDATA(rel) CTG_TESTDATA_DIR "/" rel

/* The shared test data folder, or NULL when it is absent (those suites are then skipped). */
const char *ctg_test_shared_dir(void);

/* Writes `text` to the file at `path` (created or truncated); fails the test when it cannot. */
void ctg_test_put_file(const char *path, const char *text);

/* Reads a whole file into a malloc'd buffer (NUL-terminated); NULL when it cannot. */
char *ctg_test_slurp(const char *path, size_t *len);

/* How an allocation-failure sweep reads its document. */
typedef struct ctg_test_sweep_spec {
    unsigned arena_flags;       /* 0 or CTG_ARENA_EXACT (memory reads only) */
    bool from_file;             /* through a FILE * (refills) instead of memory */
    const struct ctg_extension_registry *extensions;
    int expect;                 /* what the read gives when no allocation fails: CTG_OK or a code */
    void (*check)(const ctg_list *list, void *ctx); /* asserts on a successful read; may be NULL */
    void *ctx;
} ctg_test_sweep_spec;

/* Reads `doc` with the fail_at-th allocator call failing and asserts a clean outcome (CTG_ENOMEM
 * and no list, or what `how` expects), no leak and no size mismatch. Returns whether that call
 * was made. */
bool ctg_test_sweep_once(const char *doc, size_t len, size_t fail_at,
                         const ctg_test_sweep_spec *how);

/* Fails the 1st, 2nd, ... allocator call until a read makes fewer calls; returns the number of
 * calls a read makes. */
size_t ctg_test_sweep(const char *doc, size_t len, const ctg_test_sweep_spec *how);

/* An application's typed extension, "contingency-probability": the probability of a
 * contingency (a number within [0, 1]) and who estimated it (optional string). */
typedef struct probability {
    double probability;
    const char *source;
} probability;
extern const struct ctg_extension_handler ctg_test_probability_handler;

#endif
