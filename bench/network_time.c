/* SPDX-License-Identifier: MPL-2.0 */
/* The network section's timing: every runner checked once, then timed in interleaved rounds
 * (as the case tables are), then the scaling curve: the two criterion resolves over networks
 * of about 10k, 100k and 1M objects, timed in the same rounds, in ns per object, each sample
 * resolving about 1M objects in distinct copies of its network (scale_point). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/network_int.h"

/* Objects per substation of the synthetic network, near enough to aim the scaling sizes. */
#define OBJECTS_PER_SUB 28.6

static size_t run_bytes(const net_input *in, int i)
{
    return i <= BENCH_NET_EXPAT ? in->xml.len : i <= BENCH_NET_ABSENT ? in->json.len : 0;
}

static size_t run_items(const net_input *in, const bench_net_case *c, int i)
{
    switch (i) {
    case BENCH_NET_LINES:
    case BENCH_NET_PROPERTY:
        return in->model.line_count; /* what a line criterion scans */
    case BENCH_NET_IDS:
        return c->identifiers;
    case BENCH_NET_DEFAULT:
        return c->contingencies;
    default:
        return 0;
    }
}

static int prepare(net_input *in, const bench_net_case *c, bench_net_report *r)
{
    const net_runner *runners = bench_net_runners();

    for (int i = 0; i < BENCH_NET_RUNNERS; i++) {
        bench_result *res = &r->results[i];
        int rc;

        in->why[0] = '\0';
        rc = runners[i].check != NULL ? runners[i].check(in) : runners[i].run(in);
        res->name = runners[i].name;
        res->supported = rc == BENCH_OK;
        res->bytes = run_bytes(in, i);
        res->peak_rss = -1;
        r->items[i] = run_items(in, c, i);
        r->contingencies[i] = i >= BENCH_NET_LINES ? in->expect[i - BENCH_NET_LINES] : 0;
        if (rc != BENCH_OK) {
            fprintf(stderr, "contingency-bench: %s: %s: %s\n", c->name, runners[i].name, in->why);
            return -1;
        }
    }
    return 0;
}

static int time_one(const net_runner *r, net_input *in, double *ms)
{
    long long start = bench_now_ns();

    if (r->run(in) != BENCH_OK) {
        fprintf(stderr, "contingency-bench: %s: %s\n", r->name, in->why);
        return -1;
    }
    *ms = (double)(bench_now_ns() - start) / 1e6;
    return 0;
}

/* Rounds run every runner once, each round starting one runner further on. */
static int time_rounds(net_input *in, bench_net_report *r)
{
    const net_runner *runners = bench_net_runners();
    size_t n = BENCH_NET_RUNNERS, runs = (size_t)r->runs;
    double *samples = malloc(runs * n * sizeof *samples), ignored;
    int rc = 0;

    if (samples == NULL)
        return -1;
    for (int round = 0; round < r->warmup + r->runs && rc == 0; round++) {
        for (size_t k = 0; k < n && rc == 0; k++) {
            size_t i = (k + (size_t)round) % n;
            double *ms =
                round < r->warmup ? &ignored : &samples[i * runs + (size_t)(round - r->warmup)];
            rc = time_one(&runners[i], in, ms);
        }
    }
    for (size_t i = 0; i < n && rc == 0; i++)
        bench_summarize(&samples[i * runs], r->runs, &r->results[i]);
    free(samples);
    return rc;
}

/* ---- scaling ------------------------------------------------------------------------------- */

/* A point: its network imported `batch` times, so that a sample resolves `batch` distinct
 * copies of it, one each. Every sample then resolves about as many objects (1M) through as
 * much memory at every size, and no network is in the cache when a resolve starts, at any
 * size: resolving one small network `batch` times over would time it in the L2, against the
 * largest one's misses, and measure the cache, not how the resolve scales. */
typedef struct scale_point {
    bench_net_case c;
    net_input in; /* in.net: copies[0] */
    ctg_network **copies;
    int copy_count;
    double *samples; /* 2 x runs: the line criterion, the property criterion */
} scale_point;

/* The network, imported from its XIIDM, its two lists checked. */
static int point_init(scale_point *p, bench_net_scaling_point *out, size_t subs, int runs)
{
    p->c = (bench_net_case){ "scaling", "", subs, 0, 0, 0, runs };
    if (bench_net_input_init(&p->in, &p->c, false) != 0 || bench_net_import_kept(&p->in) != 0)
        return -1;
    out->substations = p->in.model.subs;
    out->objects = ctg_network_object_count(p->in.net);
    out->runs = runs;
    for (int k = 0; k < 2; k++) {
        size_t n = 0;
        if (bench_net_resolve(&p->in, k, &n) != BENCH_OK || n != p->in.expect[k]) {
            if (n != p->in.expect[k])
                snprintf(p->in.why, sizeof p->in.why, "list %d: %zu contingencies, expected %zu", k,
                         n, p->in.expect[k]);
            return -1;
        }
    }
    p->samples = calloc((size_t)runs * 2, sizeof *p->samples);
    return p->samples != NULL ? 0 : -1;
}

/* The point's `batch` copies (the first is in.net), then its XIIDM bytes freed. */
static int point_copies(scale_point *p, int batch)
{
    ctg_network *first = p->in.net;

    p->copies = calloc((size_t)batch, sizeof *p->copies);
    if (p->copies == NULL)
        return -1;
    p->copies[0] = first;
    p->copy_count = 1;
    for (; p->copy_count < batch; p->copy_count++) {
        if (bench_net_import_kept(&p->in) != 0) {
            p->in.net = first;
            return -1;
        }
        p->copies[p->copy_count] = p->in.net;
    }
    p->in.net = first;
    bench_bytes_dispose(&p->in.xml);
    return 0;
}

static void point_dispose(scale_point *p)
{
    for (int i = 1; i < p->copy_count; i++)
        ctg_network_free(p->copies[i]);
    free(p->copies);
    bench_net_input_dispose(&p->in);
    free(p->samples);
}

static int time_batch(scale_point *p, int k, int batch, double *ms)
{
    ctg_network *first = p->in.net;
    long long start = bench_now_ns();
    int rc = 0;
    size_t n;

    for (int i = 0; i < batch && rc == 0; i++) {
        p->in.net = p->copies[i];
        rc = bench_net_resolve(&p->in, k, &n) != BENCH_OK ? -1 : 0;
    }
    *ms = (double)(bench_now_ns() - start) / 1e6 / batch;
    p->in.net = first;
    return rc;
}

static int time_points(scale_point *p, bench_net_scaling_point *out, size_t count, int runs)
{
    size_t pairs = count * 2;

    for (int round = 0; round < 1 + runs; round++) {
        for (size_t k = 0; k < pairs; k++) {
            size_t at = (k + (size_t)round) % pairs, i = at / 2, list = at % 2;
            double ms;
            if (time_batch(&p[i], (int)list, out[i].batch, &ms) != 0)
                return -1;
            if (round > 0)
                p[i].samples[list * (size_t)runs + (size_t)(round - 1)] = ms;
        }
    }
    for (size_t i = 0; i < count; i++) {
        bench_result r;
        memset(&r, 0, sizeof r);
        bench_summarize(&p[i].samples[0], runs, &r);
        out[i].lines_ns_per_object = r.median_ms * 1e6 / (double)out[i].objects;
        bench_summarize(&p[i].samples[runs], runs, &r);
        out[i].property_ns_per_object = r.median_ms * 1e6 / (double)out[i].objects;
    }
    return 0;
}

static int scaling(bench_net_report *r, bool quick, int runs)
{
    static const size_t full[] = { 10000, 100000, 1000000 }, small[] = { 3000, 30000 };
    const size_t *sizes = quick ? small : full;
    size_t count = quick ? 2 : 3;
    scale_point p[BENCH_NET_MAX_SCALING];
    int rc = 0;

    memset(p, 0, sizeof p);
    /* The largest first: its size sets the others' batch, and its bytes go before theirs come. */
    for (size_t i = count; i-- > 0 && rc == 0;) {
        rc = point_init(&p[i], &r->scaling[i], (size_t)((double)sizes[i] / OBJECTS_PER_SUB), runs);
        r->scaling[i].batch =
            rc == 0 ? (int)(r->scaling[count - 1].objects / r->scaling[i].objects) : 0;
        if (rc == 0)
            rc = point_copies(&p[i], r->scaling[i].batch);
        if (rc != 0)
            fprintf(stderr, "contingency-bench: network scaling: %s\n", p[i].in.why);
    }
    if (rc == 0)
        rc = time_points(p, r->scaling, count, runs);
    for (size_t i = 0; i < count; i++)
        point_dispose(&p[i]);
    r->scaling_count = rc == 0 ? count : 0;
    return rc;
}

int bench_network_run(bench_report *rep, const bench_net_case *c, int runs, bool quick)
{
    bench_net_report *r = &rep->network;
    net_input in;
    int rc;

    memset(r, 0, sizeof *r);
    r->name = c->name;
    r->summary = c->summary;
    r->runs = runs > 0 ? runs : c->runs;
    r->warmup = 1;
    rc = bench_net_input_init(&in, c, true);
    if (rc != 0)
        fprintf(stderr, "contingency-bench: %s: %s\n", c->name, in.why);
    if (rc == 0)
        rc = prepare(&in, c, r);
    if (rc == 0)
        rc = time_rounds(&in, r);
    r->substations = in.model.subs;
    r->objects = in.model.counts.objects;
    r->xml_bytes = in.xml.len;
    r->json_bytes = in.json.len;
    r->memory_known = rc == 0;
    r->memory_size = in.memory_size;
    r->alloc_peak = in.counter.peak;
    r->dumps_equal = in.dumps_equal;
    r->dump_bytes = in.dump_bytes;
    snprintf(r->dump_diff, sizeof r->dump_diff, "%s", in.dump_diff);
    bench_net_input_dispose(&in);
    if (rc == 0)
        rc = scaling(r, quick, quick ? 3 : 5);
    r->done = rc == 0;
    return rc;
}
