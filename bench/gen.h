#ifndef CTG_BENCH_GEN_H
#define CTG_BENCH_GEN_H

/* Generators of the benchmark inputs: PowSyBl-shaped contingency lists built in memory, in
 * PowSyBl's exact pretty layout, from a fixed seed so that every run times the same bytes.
 * A new case is one function and one row of the table in gen.c. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer; `failed` is sticky after an allocation failure. */
typedef struct bench_bytes {
    char *data;
    size_t len;
    size_t cap;
    bool failed;
} bench_bytes;

#define BENCH_BYTES_INIT { NULL, 0, 0, false }

void bench_bytes_dispose(bench_bytes *b);

typedef struct bench_gen_case {
    const char *name;
    const char *summary;
    size_t contingencies; /* what a full read of the output must count */
    uint64_t seed;
    /* Appends the case to `out`; returns 0, or -1 when out of memory. */
    int (*generate)(bench_bytes *out, const struct bench_gen_case *c);
} bench_gen_case;

/* All cases, in the order the bench runs them; their number in `*count`. */
const bench_gen_case *bench_gen_cases(size_t *count);

/* The case named `name`, or NULL. */
const bench_gen_case *bench_gen_find(const char *name);

/* Generates `c` into an empty `out`; 0 or -1 (out of memory). */
int bench_gen_generate(const bench_gen_case *c, bench_bytes *out);

#endif
