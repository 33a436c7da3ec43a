/* SPDX-License-Identifier: MPL-2.0 */
/* The harness: an input's life, the check of every runner, then the timed rounds
 * (clock_gettime around each run) and their median, min and max. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench.h"

int bench_input_init(bench_input *in, const bench_gen_case *c)
{
    ctg_buf empty = CTG_BUF_INIT;
    bench_bytes none = BENCH_BYTES_INIT;

    memset(in, 0, sizeof *in);
    in->gen = c;
    in->bytes = none;
    in->out = empty;
    in->out2 = empty;
    if (bench_gen_generate(c, &in->bytes) != 0) {
        fprintf(stderr, "contingency-bench: %s: out of memory\n", c->name);
        return -1;
    }
    return 0;
}

void bench_input_dispose(bench_input *in)
{
    bench_bytes_dispose(&in->bytes);
    bench_bytes_dispose(&in->situ);
    ctg_list_free(in->list);
    json_object_put(in->dom);
    if (in->tokener != NULL)
        json_tokener_free(in->tokener);
    ctg_buf_dispose(&in->out);
    ctg_buf_dispose(&in->out2);
    in->list = NULL;
    in->dom = NULL;
    in->tokener = NULL;
}

static int prepare_one(const bench_runner *r, bench_input *in, bench_result *out)
{
    int rc;

    in->why[0] = '\0';
    in->written = 0;
    rc = r->check != NULL ? r->check(in) : r->run(in);
    out->name = r->name;
    out->supported = rc == BENCH_OK;
    out->bytes = r->writer ? in->written : in->bytes.len;
    out->peak_rss = -1;
    snprintf(out->why, sizeof out->why, "%s", rc == BENCH_OK ? "" : in->why);
    if (rc == BENCH_FAIL) {
        fprintf(stderr, "contingency-bench: %s: %s: %s\n", in->gen->name, r->name, in->why);
        return -1;
    }
    return 0;
}

int bench_prepare(const bench_runner *runners, size_t n, bench_input *in, bench_result *out)
{
    for (size_t i = 0; i < n; i++) {
        if (prepare_one(&runners[i], in, &out[i]) != 0)
            return -1;
    }
    return 0;
}

/* Set once by main before anything is timed. */
static bool use_cpu_clock = true;

void bench_set_clock(bool cpu)
{
    use_cpu_clock = cpu;
}

bool bench_clock_is_cpu(void)
{
    return use_cpu_clock;
}

/* The thread's CPU time counts its own work, page faults included, but not the time the
 * scheduler gives to other processes: on a shared machine that is what varies run to run. */
long long bench_now_ns(void)
{
    struct timespec ts;

    clock_gettime(use_cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* A runner with a reset has each run timed on its own, the reset left out. */
int bench_time_batch(const bench_runner *r, bench_input *in, int reps, double *ms)
{
    long long start = bench_now_ns(), paused = 0;

    for (int i = 0; i < reps; i++) {
        long long pause = r->reset != NULL ? bench_now_ns() : 0;
        int rc = r->reset != NULL ? r->reset(in) : BENCH_OK;

        paused += r->reset != NULL ? bench_now_ns() - pause : 0;
        if (rc != BENCH_OK || r->run(in) != BENCH_OK) {
            fprintf(stderr, "contingency-bench: %s: %s: %s\n", in->gen->name, r->name, in->why);
            return -1;
        }
    }
    *ms = (double)(bench_now_ns() - start - paused) / 1e6 / reps;
    return 0;
}

void bench_summarize(double *samples, int runs, bench_result *out)
{
    qsort(samples, (size_t)runs, sizeof *samples, compare_double);
    out->min_ms = samples[0];
    out->max_ms = samples[runs - 1];
    out->median_ms = runs % 2 ? samples[runs / 2] : (samples[runs / 2 - 1] + samples[runs / 2]) / 2;
    out->mb_per_s = out->median_ms > 0 ? (double)out->bytes / 1e6 / (out->median_ms / 1e3) : 0;
}

void bench_summarize_faults(double *faults, int runs, bench_result *out)
{
    qsort(faults, (size_t)runs, sizeof *faults, compare_double);
    out->faults = runs % 2 ? faults[runs / 2] : (faults[runs / 2 - 1] + faults[runs / 2]) / 2;
}

long bench_minor_faults(void)
{
    struct rusage ru;

    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : 0;
}

/* One run's time, and its minor page faults in `*faults`. */
static int time_one(const bench_runner *r, bench_input *in, double *ms, double *faults)
{
    long before = bench_minor_faults();
    int rc = bench_time_batch(r, in, 1, ms);

    *faults = (double)(bench_minor_faults() - before);
    return rc;
}

/* Rounds run every runner once, each round starting one runner further on, so that a burst of
 * load on a shared machine hits all runners alike and no runner always follows the same one. */
int bench_time(const bench_runner *runners, size_t n, bench_input *in, int warmup, int runs,
               bench_result *out)
{
    double *samples = malloc((size_t)runs * n * sizeof *samples);
    double *faults = malloc((size_t)runs * n * sizeof *faults);
    double ignored, ignored_faults;
    int rc = -1;

    if (samples == NULL || faults == NULL)
        goto done;
    for (int round = 0; round < warmup + runs; round++) {
        for (size_t k = 0; k < n; k++) {
            size_t i = (k + (size_t)round) % n;
            size_t at = i * (size_t)runs + (size_t)(round - warmup);
            double *ms = round < warmup ? &ignored : &samples[at];
            double *f = round < warmup ? &ignored_faults : &faults[at];

            if (out[i].supported && time_one(&runners[i], in, ms, f) != 0)
                goto done;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (!out[i].supported)
            continue;
        bench_summarize(&samples[i * (size_t)runs], runs, &out[i]);
        bench_summarize_faults(&faults[i * (size_t)runs], runs, &out[i]);
    }
    rc = 0;
done:
    free(samples);
    free(faults);
    return rc;
}
