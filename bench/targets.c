/* SPDX-License-Identifier: MPL-2.0 */
/* The targets of issues 4, 9, 12 and 16 as lines that are easy to quote: what was measured, the
 * target, and whether this run met it. */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/gen_hostile.h"
#include "targets.h"

typedef struct target_list {
    bench_target *items;
    size_t count, max;
} target_list;

static bench_target *add(target_list *l, bench_target_state state, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bench_target *add(target_list *l, bench_target_state state, const char *fmt, ...)
{
    bench_target *t;
    va_list ap;

    if (l->count == l->max)
        return NULL;
    t = &l->items[l->count++];
    va_start(ap, fmt);
    vsnprintf(t->text, sizeof t->text, fmt, ap);
    va_end(ap);
    t->state = state;
    return t;
}

static const bench_case_report *find_case(const bench_report *rep, const char *name)
{
    for (size_t i = 0; i < rep->case_count; i++) {
        if (strcmp(rep->cases[i].gen->name, name) == 0)
            return &rep->cases[i];
    }
    return NULL;
}

/* The median of `runner` in case `c`, or 0 when it did not run. */
static double median(const bench_case_report *c, const char *runner)
{
    for (size_t i = 0; c != NULL && i < c->count; i++) {
        if (strcmp(c->results[i].name, runner) == 0)
            return c->results[i].supported ? c->results[i].median_ms : 0;
    }
    return 0;
}

static bench_target_state judge(bool measured, bool ok)
{
    return !measured ? BENCH_TARGET_NOT_MEASURED : ok ? BENCH_TARGET_OK : BENCH_TARGET_MISSED;
}

/* "case: slow vs fast: r x (target >= min)": slow's median over fast's. */
static void speedup(target_list *l, const bench_case_report *c, const char *name, const char *fast,
                    const char *slow, double min)
{
    double f = median(c, fast), s = median(c, slow), r = f > 0 && s > 0 ? s / f : 0;

    add(l, judge(r > 0, r >= min), "%s: %s vs %s: %.2fx faster (target >= %gx)", name, fast, slow,
        r, min);
}

static void case_targets(target_list *l, const bench_report *rep, const char *name)
{
    const bench_case_report *c = find_case(rep, name);
    double read = median(c, "ctg-read"), floor = median(c, "memchr-floor");
    double nocache = median(c, "ctg-read-nocache");
    double r;

    speedup(l, c, name, "ctg-read", "jsonc-dom-parse-free", 8);
    speedup(l, c, name, "ctg-read", "jsonc-dom-map", 6);
    r = read > 0 && floor > 0 ? read / floor : 0;
    add(l, judge(r > 0, r <= 2), "%s: ctg-read / memchr-floor: %.2fx (target <= 2x)", name, r);
    r = read > 0 && nocache > 0 ? nocache / read : 0;
    add(l, judge(r > 0, r >= 1.02),
        "%s: ctg-read-nocache / ctg-read: %.3fx (target: measurably slower, >= 1.02x)", name, r);
    speedup(l, c, name, "ctg-write", "jsonc-dom-write", 5);
    r = median(c, "ctg-stream-write");
    add(l, judge(r > 0, true),
        "%s: ctg-stream-write gives ctg-write's bytes (checked before timing)", name);
}

/* Issue 9: read and write speed with extensions, against json-c as in the other cases
 * (jsonc-dom-map cannot build extensions: no public builder attaches one). */
static void extension_targets(target_list *l, const bench_report *rep, const char *name)
{
    const bench_case_report *c = find_case(rep, name);

    speedup(l, c, name, "ctg-read", "jsonc-dom-parse-free", 8);
    speedup(l, c, name, "ctg-write", "jsonc-dom-write", 5);
}

/* The minimum of `runner` in the --process table of `c`, or 0 when it did not run. */
static double process_min(const bench_case_report *c, const char *runner)
{
    for (size_t i = 0; c != NULL && c->process_done && i < c->count; i++) {
        if (strcmp(c->process[i].name, runner) == 0)
            return c->process[i].supported ? c->process[i].min_ms : 0;
    }
    return 0;
}

/* Issue 16, --process mode (fresh processes, glibc's defaults), ratios of minimums. */
static void process_targets(target_list *l, const bench_report *rep, const char *name)
{
    const bench_case_report *c = find_case(rep, name);
    double read = process_min(c, "ctg-read"), simd = process_min(c, "simdjson-ondemand-map");
    double floor = process_min(c, "memchr-floor"), dom = process_min(c, "jsonc-dom-parse-free");
    double r = read > 0 && simd > 0 ? simd / read : 0;

    add(l, judge(r > 0, r >= 2),
        "%s --process: ctg-read vs simdjson-ondemand-map: %.2fx faster (min; target >= 2x)", name,
        r);
    r = read > 0 && floor > 0 ? read / floor : 0;
    add(l, judge(r > 0, r <= 2), "%s --process: ctg-read / memchr-floor: %.2fx (min; target <= 2x)",
        name, r);
    r = read > 0 && dom > 0 ? dom / read : 0;
    add(l, judge(r > 0, r >= 5),
        "%s --process: ctg-read vs jsonc-dom-parse-free: %.2fx faster (min; target >= 5x)", name,
        r);
}

/* Issue 16, in-process: mixed100k's read near its floor, the writer's rate. */
static void in_process_targets(target_list *l, const bench_report *rep)
{
    const bench_case_report *c = find_case(rep, "mixed100k");
    double read = median(c, "ctg-read"), floor = median(c, "memchr-floor");
    double write = median(c, "ctg-write"), r = read > 0 && floor > 0 ? read / floor : 0;
    double gbs = 0;

    add(l, judge(r > 0, r <= 1.5), "mixed100k: ctg-read / memchr-floor: %.2fx (target <= 1.5x)",
        r);
    for (size_t i = 0; c != NULL && write > 0 && i < c->count; i++) {
        if (strcmp(c->results[i].name, "ctg-write") == 0)
            gbs = c->results[i].mb_per_s / 1e3;
    }
    add(l, judge(gbs > 0, gbs >= 2), "mixed100k: ctg-write: %.2f GB/s (target >= 2 GB/s)", gbs);
}

static void read_rate_target(target_list *l, const bench_report *rep)
{
    const bench_case_report *c = find_case(rep, "mixed100k");
    double mb = 0;

    for (size_t i = 0; c != NULL && i < c->count; i++) {
        if (strcmp(c->results[i].name, "ctg-read") == 0 && c->results[i].supported)
            mb = c->results[i].mb_per_s;
    }
    add(l, judge(mb > 0, mb >= 900), "mixed100k: ctg-read: %.0f MB/s (target >= 900 MB/s)", mb);
}

/* The memory case named `judged`, else the one named `small` (--quick's, shown but not
 * judged); NULL when neither was measured. */
static const bench_memory_case *memory_case(const bench_report *rep, const char *judged,
                                            const char *small)
{
    const bench_memory_case *found = NULL;

    for (size_t i = 0; i < rep->memory_case_count; i++) {
        if (strcmp(rep->memory[i].name, judged) == 0)
            return &rep->memory[i];
        if (strcmp(rep->memory[i].name, small) == 0)
            found = &rep->memory[i];
    }
    return found;
}

static const bench_memory_result *memory_child(const bench_memory_case *mc, const char *mode)
{
    for (size_t i = 0; mc != NULL && i < mc->count; i++) {
        if (strcmp(mc->children[i].mode, mode) == 0 && mc->children[i].supported)
            return &mc->children[i];
    }
    return NULL;
}

/* Peak RSS of `child` over the case's file size; 0 when not measured. */
static double file_ratio(const bench_memory_case *mc, const bench_memory_result *child)
{
    return child != NULL ? (double)child->peak_rss / (double)mc->file_bytes : 0;
}

static void memory_targets(target_list *l, const bench_report *rep)
{
    const bench_memory_case *mc = memory_case(rep, "b1m", "b10k");
    const bench_memory_result *full = memory_child(mc, "full");
    const bench_memory_result *stream = memory_child(mc, "stream");
    const char *name = mc != NULL ? mc->name : "b1m";
    bool b1m = strcmp(name, "b1m") == 0;
    double mb = stream ? (double)stream->peak_rss / (1024.0 * 1024.0) : 0;

    add(l, judge(full != NULL && b1m, file_ratio(mc, full) <= 1.0),
        "%s: full load peak RSS: %.2fx the file (target <= 1.0x on b1m)", name,
        file_ratio(mc, full));
    add(l, judge(stream != NULL && b1m, mb <= 16),
        "%s: stream peak RSS: %.1f MiB (target <= 16 MiB on b1m)", name, mb);
}

/* Issue 9: a list whose extensions are kept loads in at most 1.5x its file. */
static void extension_memory_target(target_list *l, const bench_report *rep)
{
    const bench_memory_case *mc = memory_case(rep, "ext100k", "ext10k");
    const bench_memory_result *full = memory_child(mc, "full");
    const char *name = mc != NULL ? mc->name : "ext100k";
    double ratio = file_ratio(mc, full);

    add(l, judge(full != NULL && strcmp(name, "ext100k") == 0, ratio <= 1.5),
        "%s: full load peak RSS: %.2fx the file (target <= 1.5x on ext100k)", name, ratio);
}

static void absent_target(target_list *l, const bench_report *rep)
{
    const bench_absent_report *a = &rep->absent;
    double over = a->absent.over_required;

    add(l, judge(a->done, over < 0.005 && over > -0.005),
        "absent name: %.3f arena requests per contingency beyond the needed ones, "
        "%.3f when present (target 0 when absent)",
        over, a->present.over_required);
}

/* Issue 9: keys chosen to collide in an unkeyed hash cost at most twice random ones. */
static void flood_target(target_list *l, const bench_report *rep)
{
    const bench_flood_report *f = &rep->flood;
    double r = bench_flood_ratio(f);

    add(l, judge(r > 0 && f->keys == BENCH_KEY_MAX, r <= 2),
        "flooding: %zu colliding / random keys, median read: %.2fx (target <= 2x on %zu keys)",
        f->done ? f->keys : BENCH_KEY_MAX, r, BENCH_KEY_MAX);
}

static void threads_target(target_list *l, const bench_report *rep)
{
    const bench_threads_report *t = &rep->threads;
    double r = bench_threads_ratio(t);
    bool b1m = t->done && strcmp(t->name, "b1m") == 0;

    add(l, judge(b1m, r >= 1.6 && t->identical),
        "%s: threads=2 vs threads=1 whole read, wall-clock medians: %.2fx faster, %s "
        "(target >= 1.6x on b1m, the same list)", t->done ? t->name : "b1m", r,
        t->identical ? "the same list" : "NOT the same list");
}

/* Slowest over fastest MB/s of a curve, over the points of at least `min_size`
 * contingencies; 0 when fewer than two points ran. */
static double flatness(const bench_report *rep, bool stream, size_t min_size, size_t *points)
{
    double lo = 0, hi = 0;

    *points = 0;
    for (size_t i = 0; i < rep->scaling_count; i++) {
        double v = stream ? rep->scaling[i].stream_mb_per_s : rep->scaling[i].read_mb_per_s;
        if (v <= 0 || rep->scaling[i].contingencies < min_size)
            continue;
        lo = *points == 0 || v < lo ? v : lo;
        hi = *points == 0 || v > hi ? v : hi;
        ++*points;
    }
    return *points >= 2 && hi > 0 ? lo / hi : 0;
}

static void scaling_targets(target_list *l, const bench_report *rep)
{
    for (int stream = 0; stream < 2; stream++) {
        size_t points;
        double f = flatness(rep, stream != 0, 0, &points);
        add(l, judge(f > 0, f >= 0.8),
            "scaling: %s slowest / fastest MB/s over %zu sizes: %.2f (target >= 0.8: flat)",
            stream ? "ctg-stream" : "ctg-read", points, f);
    }
}

/* Issue 12: the network section, judged on the full-size network only (net10k). */
static void network_targets(target_list *l, const bench_report *rep)
{
    const bench_net_report *n = &rep->network;
    const char *name = n->done ? n->name : "net10k";
    bool full = n->done && strcmp(name, "net10k") == 0;
    double x = n->results[BENCH_NET_XIIDM].median_ms, e = n->results[BENCH_NET_EXPAT].median_ms;
    double j = n->results[BENCH_NET_JIIDM].median_ms, m = n->results[BENCH_NET_MEMCHR].median_ms;
    double a = n->results[BENCH_NET_ABSENT].median_ms;
    double speed = x > 0 ? e / x : 0, json = m > 0 ? j / m : 0, touch = a > 0 ? j / a : 0;
    double size = n->xml_bytes > 0 ? (double)n->memory_size / (double)n->xml_bytes : 0;
    double peak = n->xml_bytes > 0 ? (double)n->alloc_peak / (double)n->xml_bytes : 0;
    double ids = n->items[BENCH_NET_IDS] > 0
                     ? n->results[BENCH_NET_IDS].median_ms * 1e6 / (double)n->items[BENCH_NET_IDS]
                     : 0;

    add(l, judge(n->done, n->dumps_equal),
        "%s: XIIDM and JIIDM imports give the same table (ctg_network_write_json dumps)%s%s", name,
        n->dump_diff[0] != '\0' ? ": " : "", n->dump_diff);
    add(l, judge(full, speed >= 0.6),
        "%s: xiidm-import speed / expat-floor speed: %.2f (target >= 0.6 on net10k)", name, speed);
    add(l, judge(full, json <= 3), "%s: jiidm-import / jiidm-memchr-floor: %.2fx (target <= 3x)",
        name, json);
    /* The target is read against the quote-stopping floor above; one pass for a byte that is
     * never there only shows how far below it the bare memory bandwidth is. */
    add(l, full ? BENCH_TARGET_INFO : BENCH_TARGET_NOT_MEASURED,
        "%s: jiidm-import / jiidm-memchr-absent: %.2fx (one pass touching every byte; no target)",
        name, touch);
    add(l, judge(full, size <= 0.5),
        "%s: ctg_network_memory_size: %.3fx the XIIDM file (target <= 0.5x)", name, size);
    add(l, judge(full, peak <= 0.5),
        "%s: XIIDM import's allocator peak: %.3fx the XIIDM file (target <= 0.5x)", name, peak);
    add(l, judge(full, ids <= 200),
        "%s: ID_BASED resolution: %.1f ns per identifier "
        "(target <= 200 ns)",
        name, ids);
}

/* Slowest over fastest ns per object of a resolve over the scaling networks; 0 when fewer
 * than two ran. */
static double net_spread(const bench_net_report *n, bool property)
{
    double lo = 0, hi = 0;

    for (size_t i = 0; i < n->scaling_count; i++) {
        double v =
            property ? n->scaling[i].property_ns_per_object : n->scaling[i].lines_ns_per_object;
        lo = i == 0 || v < lo ? v : lo;
        hi = i == 0 || v > hi ? v : hi;
    }
    return n->scaling_count >= 2 && lo > 0 ? hi / lo : 0;
}

static void network_scaling_targets(target_list *l, const bench_report *rep)
{
    const bench_net_report *n = &rep->network;
    bool full = n->scaling_count == BENCH_NET_MAX_SCALING;

    for (int property = 0; property < 2; property++) {
        double r = net_spread(n, property != 0);
        add(l, judge(full && r > 0, r <= 1.5),
            "network scaling: %s ns per object, slowest / fastest over %zu sizes: %.2fx "
            "(target <= 1.5x over 10k, 100k, 1M objects)",
            property ? "resolve-property" : "resolve-n1-lines", n->scaling_count, r);
    }
}

size_t bench_targets(const bench_report *rep, bench_target *out, size_t max)
{
    target_list l = { out, 0, max };

    case_targets(&l, rep, "b10k");
    case_targets(&l, rep, "mixed100k");
    read_rate_target(&l, rep);
    extension_targets(&l, rep, "ext100k");
    memory_targets(&l, rep);
    extension_memory_target(&l, rep);
    absent_target(&l, rep);
    flood_target(&l, rep);
    threads_target(&l, rep);
    scaling_targets(&l, rep);
    network_targets(&l, rep);
    network_scaling_targets(&l, rep);
    process_targets(&l, rep, "b10k");
    process_targets(&l, rep, "mixed100k");
    process_targets(&l, rep, "b1m");
    in_process_targets(&l, rep);
    return l.count;
}

const char *bench_target_status(const bench_target *t)
{
    switch (t->state) {
    case BENCH_TARGET_OK:
        return "ok";
    case BENCH_TARGET_MISSED:
        return "MISSED";
    case BENCH_TARGET_INFO:
        return "info";
    default:
        return "not measured";
    }
}
