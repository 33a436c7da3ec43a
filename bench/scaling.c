/* SPDX-License-Identifier: MPL-2.0 */
/* Scaling: the ctg read of single-BRANCH lists of growing size, in MB/s. A flat curve means
 * a linear cost. The full read stops at 1M contingencies (10M would hold ~1.2 GB of input and
 * as much again of list); the stream read and the memchr floor go on to the largest size.
 *
 * All sizes are timed in the same rounds, as the runners of a case are, so that a change of
 * load on a shared machine cannot bend the curve. A sample of a small list is a batch of
 * reads covering about as many bytes as one read of the largest list (at most 100 MB), so
 * every sample weighs alike. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define POINT_RUNNERS 3 /* ctg-read, ctg-stream, memchr-floor */
#define FULL_READ_MAX ((size_t)1000000)
#define BATCH_BYTES ((size_t)100 * 1000 * 1000)

typedef struct point_state {
    bench_gen_case gen;
    bench_input in;
    bench_runner set[POINT_RUNNERS];
    bench_result res[POINT_RUNNERS];
    double *samples; /* POINT_RUNNERS x runs */
} point_state;

/* Generates the point's list and checks each runner once. */
static int point_init(point_state *s, bench_scaling_point *p, int runs)
{
    static const char *const names[POINT_RUNNERS] = { "ctg-read", "ctg-stream", "memchr-floor" };

    s->gen = bench_gen_branches("scaling", p->contingencies, 0);
    if (bench_input_init(&s->in, &s->gen) != 0)
        return -1;
    s->in.gen = &s->gen;
    p->bytes = s->in.bytes.len;
    if ((s->samples = calloc((size_t)runs * POINT_RUNNERS, sizeof *s->samples)) == NULL)
        return -1;
    for (size_t i = 0; i < POINT_RUNNERS; i++) {
        s->set[i] = *bench_runner_find(names[i]);
        s->set[i].check = i == 0 ? NULL : s->set[i].check; /* ctg-read's check keeps its list */
        if (i == 0 && p->contingencies > FULL_READ_MAX)
            continue;
        if (bench_prepare(&s->set[i], 1, &s->in, &s->res[i]) != 0)
            return -1;
    }
    return 0;
}

static void point_dispose(point_state *s)
{
    bench_input_dispose(&s->in);
    free(s->samples);
}

/* Rounds over every (point, runner) pair, each round starting one pair further on. */
static int time_all(point_state *s, const bench_scaling_point *p, size_t count, int runs)
{
    size_t pairs = count * POINT_RUNNERS;
    int warmup = 1;

    for (int round = 0; round < warmup + runs; round++) {
        for (size_t k = 0; k < pairs; k++) {
            size_t at = (k + (size_t)round) % pairs, i = at / POINT_RUNNERS, r = at % POINT_RUNNERS;
            double ms;

            if (!s[i].res[r].supported)
                continue;
            if (bench_time_batch(&s[i].set[r], &s[i].in, p[i].batch, &ms) != 0)
                return -1;
            if (round >= warmup)
                s[i].samples[r * (size_t)runs + (size_t)(round - warmup)] = ms;
        }
    }
    return 0;
}

static double rate(point_state *s, size_t r, int runs)
{
    if (!s->res[r].supported)
        return 0;
    bench_summarize(&s->samples[r * (size_t)runs], runs, &s->res[r]);
    return s->res[r].mb_per_s;
}

int bench_scaling_run(bench_report *rep, const size_t *sizes, size_t count, int runs)
{
    point_state s[BENCH_MAX_SCALING];
    bench_scaling_point *p = rep->scaling;
    int rc = 0;

    if (count > BENCH_MAX_SCALING)
        count = BENCH_MAX_SCALING;
    memset(s, 0, sizeof s);
    memset(p, 0, count * sizeof *p);
    for (size_t i = 0; i < count && rc == 0; i++) {
        p[i].contingencies = sizes[i];
        p[i].runs = runs;
        rc = point_init(&s[i], &p[i], runs);
    }
    for (size_t i = 0; i < count && rc == 0; i++) {
        size_t target = p[count - 1].bytes < BATCH_BYTES ? p[count - 1].bytes : BATCH_BYTES;
        p[i].batch = p[i].bytes >= target ? 1 : (int)(target / p[i].bytes);
    }
    if (rc == 0)
        rc = time_all(s, p, count, runs);
    for (size_t i = 0; i < count && rc == 0; i++) {
        p[i].read_mb_per_s = rate(&s[i], 0, runs);
        p[i].stream_mb_per_s = rate(&s[i], 1, runs);
        p[i].floor_mb_per_s = rate(&s[i], 2, runs);
    }
    for (size_t i = 0; i < count; i++)
        point_dispose(&s[i]);
    rep->scaling_count = rc == 0 ? count : 0;
    return rc;
}
