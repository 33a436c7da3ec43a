/* Timing: clock_gettime(CLOCK_MONOTONIC) around each run, then median, min and max. */

#include <stdlib.h>
#include <time.h>

#include "bench.h"

static long long now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void summarize(double *samples, int runs, size_t bytes, bench_result *out)
{
    qsort(samples, (size_t)runs, sizeof *samples, compare_double);
    out->min_ms = samples[0];
    out->max_ms = samples[runs - 1];
    out->median_ms = runs % 2 ? samples[runs / 2] : (samples[runs / 2 - 1] + samples[runs / 2]) / 2;
    out->mb_per_s = out->median_ms > 0 ? (double)bytes / 1e6 / (out->median_ms / 1e3) : 0;
}

/* One run of `r`, its time in `*ms`; -1 when the run fails. */
static int time_one(const bench_runner *r, bench_input *in, double *ms)
{
    long long start = now_ns();

    if (r->run(in) != 0)
        return -1;
    *ms = (double)(now_ns() - start) / 1e6;
    return 0;
}

/* Rounds run every runner once, each round starting one runner further on, so that a burst of
 * load on a shared machine hits all runners alike and no runner always follows the same one. */
int bench_time(const bench_runner *runners, size_t n, bench_input *in, int warmup, int runs,
               bench_result *out)
{
    double *samples = malloc((size_t)runs * n * sizeof *samples);
    double ignored;
    int rc = -1;

    if (samples == NULL)
        return -1;
    for (int round = 0; round < warmup + runs; round++) {
        for (size_t k = 0; k < n; k++) {
            size_t i = (k + (size_t)round) % n;
            double *ms =
                round < warmup ? &ignored : &samples[i * (size_t)runs + (size_t)(round - warmup)];

            if (time_one(&runners[i], in, ms) != 0)
                goto done;
        }
    }
    for (size_t i = 0; i < n; i++) {
        out[i].name = runners[i].name;
        summarize(&samples[i * (size_t)runs], runs, in->bytes.len, &out[i]);
    }
    rc = 0;
done:
    free(samples);
    return rc;
}
