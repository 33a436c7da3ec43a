/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BENCH_TARGETS_H
#define CTG_BENCH_TARGETS_H

/* The targets of issues 4, 9, 12 and 16, checked against one run's report. */

#include "bench.h"

typedef enum bench_target_state {
    BENCH_TARGET_OK,
    BENCH_TARGET_MISSED,
    BENCH_TARGET_NOT_MEASURED, /* its case, section or runner did not run */
    BENCH_TARGET_INFO          /* a number shown beside a target, judged by none */
} bench_target_state;

typedef struct bench_target {
    char text[256]; /* "b10k: ctg-read vs jsonc-dom-parse-free: 11.2x (target >= 8x)" */
    bench_target_state state;
} bench_target;

#define BENCH_MAX_TARGETS 64

/* Fills out[0..max-1]; returns how many. */
size_t bench_targets(const bench_report *rep, bench_target *out, size_t max);

/* "ok", "MISSED", "not measured" or "info". */
const char *bench_target_status(const bench_target *t);

#endif
