/* SPDX-License-Identifier: MPL-2.0 */
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

#define BENCH_BYTES_INIT                                                                           \
    {                                                                                              \
        NULL, 0, 0, false                                                                          \
    }

void bench_bytes_dispose(bench_bytes *b);

/* Appends to `b`; after a failure they do nothing and `b->failed` stays set. */
void bench_put(bench_bytes *b, const char *s, size_t n);
void bench_put_str(bench_bytes *b, const char *s);
/* `value` in decimal, zero-padded to at least `width` digits (ids like LINE_000042). */
void bench_put_number(bench_bytes *b, size_t value, int width);
/* For string literals only: sizeof gives their length. */
#define BENCH_PUT(b, lit) bench_put((b), "" lit, sizeof(lit) - 1)

/* splitmix64: tiny, seedable, and the same on every platform. */
uint64_t bench_random(uint64_t *state);

/* Case flags. */
enum {
    /* Every contingency has a name (the branch generator; the absent-field benchmark). */
    BENCH_CASE_NAMED = 1u << 0,
    /* Run by --quick. */
    BENCH_CASE_QUICK = 1u << 2,
    /* Run by default (without --cases). */
    BENCH_CASE_DEFAULT = 1u << 3
};

typedef struct bench_gen_case {
    const char *name;
    const char *summary;
    size_t contingencies; /* in `default` lists, nested ones included */
    size_t lists;         /* list objects, the root one included */
    size_t identifiers;   /* identifiers of `identifier` lists (top level of each list) */
    size_t extensions;    /* contingencies with an extension (one each) */
    uint64_t seed;
    unsigned flags; /* BENCH_CASE_* */
    int runs;       /* default timed runs; warm-up is a sixth of them, at least one */
    /* Appends the case to `out`; returns 0, or -1 when out of memory. */
    int (*generate)(bench_bytes *out, const struct bench_gen_case *c);
} bench_gen_case;

/* All cases, in the order the bench runs them; their number in `*count`. */
const bench_gen_case *bench_gen_cases(size_t *count);

/* The case named `name`, or NULL. */
const bench_gen_case *bench_gen_find(const char *name);

/* The row named `name` of a table of `count` rows of `size` bytes, each a struct whose first
 * member is its name (a `const char *`), as the cases' and runners' tables are; or NULL. */
const void *bench_find_named(const void *rows, size_t count, size_t size, const char *name);

/* A `default` list of `n` single-BRANCH contingencies (b10k's shape) named `name` (borrowed:
 * it must outlive the case); `flags` may add BENCH_CASE_NAMED. */
bench_gen_case bench_gen_branches(const char *name, size_t n, unsigned flags);

/* Generates `c` into an empty `out`; 0 or -1 (out of memory). */
int bench_gen_generate(const bench_gen_case *c, bench_bytes *out);

/* The `kinds` generator (gen_kinds.c) and the numbers its case promises. */
int bench_gen_kinds(bench_bytes *out, const bench_gen_case *c);
#define BENCH_KINDS_CHILDREN 1600  /* lists in the root `list`, cycling through 8 shapes */
#define BENCH_KINDS_IDENTIFIERS 40 /* identifiers per identifier list */
#define BENCH_KINDS_DEFAULT_SIZE 5 /* contingencies of the default list of a nested `list` */
#define BENCH_KINDS_NESTED (BENCH_KINDS_CHILDREN / 8)
#define BENCH_KINDS_LISTS (1 + BENCH_KINDS_CHILDREN + 3 * BENCH_KINDS_NESTED)
#define BENCH_KINDS_CONTINGENCIES (BENCH_KINDS_NESTED * BENCH_KINDS_DEFAULT_SIZE)
#define BENCH_KINDS_ID_COUNT (2 * BENCH_KINDS_NESTED * BENCH_KINDS_IDENTIFIERS)

#endif
