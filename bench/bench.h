#ifndef CTG_BENCH_H
#define CTG_BENCH_H

/* contingency-bench internals: the timed runners, their input, timing and reporting. */

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "ctg/ctg.h"
#include "gen.h"

/* One case, prepared once and shared by every runner. */
typedef struct bench_input {
    const bench_gen_case *gen;
    bench_bytes bytes;      /* the generated document */
    ctg_list *list;         /* read once, for the ctg writer */
    json_object *dom;       /* parsed once, for the json-c writer */
    json_tokener *tokener;  /* reused (reset) by each json-c parse */
    ctg_buf out;            /* reused (cleared) by each ctg write */
    size_t resolves_cached; /* handler look-ups of one read, with and without the cache */
    size_t resolves_nocache;
} bench_input;

/* A timed operation over a prepared input: one call is one run. */
typedef struct bench_runner {
    const char *name;
    const char *what; /* what one run does, for --help */
    int (*run)(bench_input *in);
} bench_runner;

/* The runners, in report order; their number in `*count`. ctg-read comes first. */
const bench_runner *bench_runners(size_t *count);

/* Generates `c` and checks it: a ctg read counts c->contingencies, a ctg write gives the same
 * bytes, json-c parses it. Prints why and returns -1 when anything is wrong. */
int bench_input_init(bench_input *in, const bench_gen_case *c);
void bench_input_dispose(bench_input *in);

/* Timing of one runner: the statistics of its timed runs. */
typedef struct bench_result {
    const char *name;
    double median_ms, min_ms, max_ms;
    double mb_per_s; /* case bytes / median */
} bench_result;

/* Times the `n` runners: `warmup` untimed rounds, then `runs` timed ones; every round runs each
 * runner once, so all get the same number of runs. Fills out[0..n-1]; -1 when a run fails. */
int bench_time(const bench_runner *runners, size_t n, bench_input *in, int warmup, int runs,
               bench_result *out);

/* One case's report: results[0] is ctg-read, the reference of the ratios. */
typedef struct bench_case_report {
    const bench_input *in;
    const bench_result *results;
    size_t count;
    int warmup, runs;
} bench_case_report;

void bench_print_table(const bench_case_report *rep);
/* JSON reports are written as {"cases":[...]}: begin, one call per case, end. */
void bench_print_json_begin(void);
void bench_print_json_case(const bench_case_report *rep, bool first);
void bench_print_json_end(void);

#endif
