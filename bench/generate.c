/* SPDX-License-Identifier: MPL-2.0 */
/* The generate section: lists generated from a network (ctg/generate.h) and streamed to a
 * null sink (/dev/null through the stream writer): the N-1 of every line and transformer and
 * the parallel N-2 of the network section's synthetic network, then all-pairs over 5,000
 * lines (12.5 million contingencies), each against its floor in the same run: the stream
 * writer fed the same contingencies (by a bare loop for all-pairs; built beforehand for the
 * others). Targets: generation at most 1.5x its floor, and the
 * peak RSS flat (at most 16 MB above what it was before the first stream). The parallel rule
 * writes a twelfth as many contingencies as it reads branches, so that reading them is most of
 * what it must do: it is also shown against a second floor, a bare scan of every selected
 * branch's two ends plus that write. */

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "bench/network_int.h"
#include "ctg/extension.h"
#include "ctg/generate.h"
#include "ctg/stream.h"
#include "network/table.h"

#define PAIR_LINES 5000
#define QUICK_PAIR_LINES 1000
#define RSS_TARGET_MB 16.0
#define RATIO_TARGET 1.5

static double peak_rss_mb(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* kB on Linux */
}

/* A stream writer to /dev/null; NULL (reported) when it cannot be opened. */
static ctg_stream_writer *null_writer(FILE **fp)
{
    ctg_stream_writer *w = NULL;
    ctg_error err;

    *fp = fopen("/dev/null", "w");
    if (*fp == NULL || ctg_stream_writer_open_fp(&w, *fp, "bench", NULL, &err) != CTG_OK) {
        fprintf(stderr, "contingency-bench: cannot open /dev/null\n");
        if (*fp != NULL)
            fclose(*fp);
        return NULL;
    }
    return w;
}

static int close_null(ctg_stream_writer *w, FILE *fp)
{
    ctg_error err;
    int rc = ctg_stream_writer_close(w, &err);

    fclose(fp);
    return rc;
}

/* One generation into the null sink: its CPU (or wall) time in ms and its count. */
static int time_generate(const ctg_network *net, const ctg_gen_options *o, double *ms,
                         uint64_t *count)
{
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    FILE *fp;
    ctg_stream_writer *w = null_writer(&fp);
    ctg_error err;
    long long t0;
    int rc;

    if (w == NULL)
        return -1;
    t0 = bench_now_ns();
    rc = ctg_generate_to_stream(net, o, w, &err);
    rc = close_null(w, fp) == CTG_OK ? rc : CTG_EIO;
    *ms = (double)(bench_now_ns() - t0) / 1e6;
    if (rc == CTG_OK)
        rc = ctg_generate_count(net, o, &c, &err);
    if (rc != CTG_OK) {
        fprintf(stderr, "contingency-bench: generate: %s\n", err.message);
        return -1;
    }
    *count = c.contingencies;
    return 0;
}

/* The floor of all-pairs: the same contingencies (id "N-2_a+b", two LINE elements) built by a
 * bare loop into the same writer. */
static int time_floor(const ctg_network *net, size_t n, double *ms, uint64_t *count)
{
    char id[128];
    FILE *fp;
    ctg_stream_writer *w = null_writer(&fp);
    ctg_error err;
    long long t0;
    int rc = CTG_OK;

    if (w == NULL)
        return -1;
    *count = 0;
    t0 = bench_now_ns();
    for (size_t i = 0; rc == CTG_OK && i < n; i++) {
        const char *a = ctg_network_object_at(net, CTG_IDENTIFIABLE_LINE, i)->id;
        size_t la = strlen(a);

        for (size_t j = i + 1; rc == CTG_OK && j < n; j++) {
            const char *b = ctg_network_object_at(net, CTG_IDENTIFIABLE_LINE, j)->id;
            size_t lb = strlen(b);
            ctg_element e[2] = { { a, CTG_ELEMENT_LINE, NULL }, { b, CTG_ELEMENT_LINE, NULL } };
            ctg_contingency c = { id, NULL, e, 2, NULL, 0 };

            memcpy(id, "N-2_", 4);
            memcpy(id + 4, a, la);
            id[4 + la] = '+';
            memcpy(id + 5 + la, b, lb + 1);
            rc = ctg_stream_writer_add(w, &c, &err);
            (*count)++;
        }
    }
    rc = close_null(w, fp) == CTG_OK ? rc : CTG_EIO;
    *ms = (double)(bench_now_ns() - t0) / 1e6;
    return rc == CTG_OK ? 0 : -1;
}

/* `n` lines between the voltage levels of 50 substations, built in code. */
static ctg_network *pair_network(size_t n)
{
    ctg_network *net = NULL;
    ctg_error err;
    char id[32], vl1[32], vl2[32];
    int rc = ctg_network_new(&net, "pairs", NULL, &err);

    for (size_t s = 0; rc == CTG_OK && s < 50; s++) {
        ctg_net_spec sub = CTG_NET_SPEC_INIT, vl = CTG_NET_SPEC_INIT;

        snprintf(id, sizeof id, "S%02zu", s);
        snprintf(vl1, sizeof vl1, "VL%02zu", s);
        sub.type = CTG_IDENTIFIABLE_SUBSTATION;
        sub.id = id;
        sub.country = "FR";
        vl.type = CTG_IDENTIFIABLE_VOLTAGE_LEVEL;
        vl.id = vl1;
        vl.substation = id;
        vl.nominal_v = 400;
        rc = ctg_network_add(net, &sub, NULL, &err);
        if (rc == CTG_OK)
            rc = ctg_network_add(net, &vl, NULL, &err);
    }
    for (size_t i = 0; rc == CTG_OK && i < n; i++) {
        ctg_net_spec line = CTG_NET_SPEC_INIT;

        size_t to = (i + 1 + i / 50) % 50; /* another level, spread over the 50 */

        snprintf(id, sizeof id, "LINE_%05zu", i);
        snprintf(vl1, sizeof vl1, "VL%02zu", i % 50);
        snprintf(vl2, sizeof vl2, "VL%02zu", to == i % 50 ? (i + 2) % 50 : to);
        line.type = CTG_IDENTIFIABLE_LINE;
        line.id = id;
        line.voltage_levels[0] = vl1;
        line.voltage_levels[1] = vl2;
        rc = ctg_network_add(net, &line, NULL, &err);
    }
    if (rc != CTG_OK) {
        fprintf(stderr, "contingency-bench: cannot build the pairs network: %s\n", err.message);
        ctg_network_free(net);
        return NULL;
    }
    return net;
}

static void row(const char *name, uint64_t count, double ms, const char *note)
{
    printf("  %-28s %12llu %10.2f %10.1f  %s\n", name, (unsigned long long)count, ms,
           count > 0 ? ms * 1e6 / (double)count : 0.0, note);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* all-pairs against its floor, alternating, `runs` times each; the RSS before and after. */
static int pairs_part(size_t lines, int runs)
{
    static const ctg_identifiable_type line_type[] = { CTG_IDENTIFIABLE_LINE };
    ctg_gen_selection s = { CTG_GEN_SELECTION_VERSION, line_type, 1, NULL, 0, NULL, 0,
                            { { 0 } }, NULL, 0, NULL, NULL, NULL };
    ctg_gen_options o = { CTG_GEN_OPTIONS_VERSION, &s, CTG_GEN_ALL_PAIRS, NULL, 20000000, NULL,
                          NULL };
    ctg_network *net = pair_network(lines);
    double gen[16], flo[16], rss0, rss1, g, f;
    uint64_t ng = 0, nf = 0;
    char note[96];
    int rc = net != NULL ? 0 : -1;

    rss0 = peak_rss_mb();
    for (int r = 0; rc == 0 && r < runs; r++) {
        rc = time_floor(net, lines, &flo[r], &nf);
        if (rc == 0)
            rc = time_generate(net, &o, &gen[r], &ng);
    }
    rss1 = peak_rss_mb();
    if (rc == 0 && ng != nf) {
        fprintf(stderr, "contingency-bench: all-pairs gave %llu, its floor %llu\n",
                (unsigned long long)ng, (unsigned long long)nf);
        rc = -1;
    }
    if (rc == 0) {
        f = median(flo, runs);
        g = median(gen, runs);
        row("stream-write-pairs (floor)", nf, f, "the writer fed by a bare loop");
        snprintf(note, sizeof note, "%.2fx the floor (target <= %.1fx): %s", g / f, RATIO_TARGET,
                 g / f <= RATIO_TARGET ? "met" : "MISSED");
        row("all-pairs", ng, g, note);
        printf("  peak RSS %.1f MB before the streams, %.1f MB after: +%.1f MB (target <= %.0f MB "
               "beyond the network's %.1f MB): %s\n", rss0, rss1, rss1 - rss0, RSS_TARGET_MB,
               (double)ctg_network_memory_size(net) / 1e6,
               rss1 - rss0 <= RSS_TARGET_MB ? "met" : "MISSED");
    }
    ctg_network_free(net);
    return rc;
}

/* ctg_gen_emit_fn: a copy of each generated contingency into the list at `payload`. */
static int keep_copy(const ctg_contingency *c, void *payload)
{
    return ctg_list_add_contingency_copy(payload, c) == CTG_OK ? 0 : -1;
}

/* The floor of a generation whose output is `out`: the same contingencies, already built,
 * given to the same writer. */
static int time_write(const ctg_list *out, double *ms)
{
    size_t n;
    const ctg_contingency *cs = ctg_list_contingencies(out, &n);
    FILE *fp;
    ctg_stream_writer *w = null_writer(&fp);
    ctg_error err;
    long long t0;
    int rc = CTG_OK;

    if (w == NULL)
        return -1;
    t0 = bench_now_ns();
    for (size_t i = 0; rc == CTG_OK && i < n; i++)
        rc = ctg_stream_writer_add(w, &cs[i], &err);
    rc = close_null(w, fp) == CTG_OK ? rc : CTG_EIO;
    *ms = (double)(bench_now_ns() - t0) / 1e6;
    return rc == CTG_OK ? 0 : -1;
}

/* The scan floor of a rule that looks at both ends of every selected branch (`types`): a bare
 * loop reading each branch's two voltage levels and their substations from the table's compact
 * scan data, the cheapest form the table has them in (the generator reads the same). */
static double time_scan(const ctg_network *net, const ctg_gen_selection *s, uint64_t *count)
{
    const ctg_net_vl_scan *vls = ctg_net_scan_voltage_levels(net);
    volatile uint64_t keep;
    uint64_t sum = 0;
    long long t0 = bench_now_ns();

    *count = 0;
    for (size_t k = 0; vls != NULL && k < s->type_count; k++) {
        size_t stride, n = ctg_network_count(net, s->types[k]);
        const uint32_t *lv = ctg_net_scan_levels(net, s->types[k], &stride);

        for (size_t i = 0; lv != NULL && stride >= 2 && i < n; i++)
            sum += vls[lv[i * stride]].substation ^ vls[lv[i * stride + 1]].substation;
        *count += lv != NULL && stride >= 2 ? n : 0;
    }
    keep = sum; /* so that the loop is not optimised away */
    (void)keep;
    return (double)(bench_now_ns() - t0) / 1e6;
}

/* The rows of a rule and its floors; `s` its scan floor over `b` branches (negative: none). */
static void rule_rows(const char *name, uint64_t n, double g, double f, double s, uint64_t b)
{
    char note[128];

    row("  its stream write (floor)", n, f, "the same contingencies, built beforehand");
    if (s >= 0)
        row("  its branch scan (floor)", b, s, "both ends of every selected branch, bare");
    snprintf(note, sizeof note, "%.2fx its write (target <= %.1fx): %s", g / f, RATIO_TARGET,
             g / f <= RATIO_TARGET ? "met" : "MISSED");
    if (s >= 0)
        snprintf(note + strlen(note), sizeof note - strlen(note), "; %.2fx scan + write",
                 g / (s + f));
    row(name, n, g, note);
}

/* One rule of the network part against the stream write of its own output, alternating (and,
 * `scan`, against the scan of its branches plus that write). */
static int rule_against_write(const ctg_network *net, const ctg_gen_options *o,
                              const char *name, bool scan, int runs)
{
    double gen[16], flo[16], sca[16], g, f;
    uint64_t n = 0, b = 0;
    ctg_list *out = NULL;
    ctg_error err;
    int rc = ctg_list_new(&out, CTG_LIST_DEFAULT, "bench", NULL) == CTG_OK ? 0 : -1;

    if (rc == 0 && ctg_generate(net, o, keep_copy, out, &err) != CTG_OK)
        rc = -1;
    for (int r = 0; rc == 0 && r < runs; r++) {
        sca[r] = scan ? time_scan(net, o->selection, &b) : -1;
        rc = time_write(out, &flo[r]);
        if (rc == 0)
            rc = time_generate(net, o, &gen[r], &n);
    }
    if (rc == 0 && n != ctg_list_contingency_count(out))
        rc = -1;
    if (rc == 0) {
        f = median(flo, runs);
        g = median(gen, runs);
        rule_rows(name, n, g, f, median(sca, runs), b);
    } else {
        fprintf(stderr, "contingency-bench: generate: %s failed\n", name);
    }
    ctg_list_free(out);
    return rc;
}

/* N-1 of every line and transformer, and the parallel N-2, of the synthetic network, each
 * against the stream write of its output. */
static int network_part(const bench_net_case *c, int runs)
{
    static const ctg_identifiable_type branches[] = {
        CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER
    };
    ctg_gen_selection s = { CTG_GEN_SELECTION_VERSION, branches, 2, NULL, 0, NULL, 0,
                            { { 0 } }, NULL, 0, NULL, NULL, NULL };
    ctg_gen_options o = { CTG_GEN_OPTIONS_VERSION, &s, CTG_GEN_N1, NULL, 0, NULL, NULL };
    static const ctg_gen_rule rules[] = { CTG_GEN_N1, CTG_GEN_PARALLEL };
    static const char *const names[] = { "n1-lines-transformers", "parallel" };
    net_input in;
    int rc;

    memset(&in, 0, sizeof in);
    rc = bench_net_input_init(&in, c, false);
    if (rc == 0 && bench_net_import_kept(&in) != BENCH_OK)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "contingency-bench: generate: %s\n", in.why);
    for (size_t k = 0; rc == 0 && k < 2; k++) {
        o.rule = rules[k];
        rc = rule_against_write(in.net, &o, names[k], rules[k] == CTG_GEN_PARALLEL, runs);
    }
    bench_net_input_dispose(&in);
    return rc;
}

int bench_generate_run(const bench_net_case *c, int runs, bool quick)
{
    runs = runs <= 0 ? (quick ? 1 : 3) : runs > 16 ? 16 : runs;
    printf("\ngenerate: lists generated from a network, streamed to /dev/null (median of %d, "
           "%s time)\n", runs, bench_clock_is_cpu() ? "CPU" : "wall");
    printf("  %-28s %12s %10s %10s\n", "runner", "contingencies", "ms", "ns/each");
    if (pairs_part(quick ? QUICK_PAIR_LINES : PAIR_LINES, runs) != 0)
        return -1;
    return c != NULL ? network_part(c, runs) : 0;
}
