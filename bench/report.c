/* SPDX-License-Identifier: MPL-2.0 */
/* The human tables and the --json report. printf runs in the C locale (the bench never calls
 * setlocale), so numbers always use a '.'. */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench/gen_hostile.h"
#include "targets.h"

/* ---- the machine ------------------------------------------------------------------------ */

typedef struct machine {
    long cpus;
    char cpu[128];
    double memory_gib;
} machine;

static void machine_info(machine *m)
{
    FILE *fp = fopen("/proc/cpuinfo", "r");
    char line[512];
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

    m->cpus = sysconf(_SC_NPROCESSORS_ONLN);
    m->memory_gib = pages > 0 && page > 0 ? (double)pages * (double)page / (1 << 30) : 0;
    snprintf(m->cpu, sizeof m->cpu, "unknown");
    while (fp != NULL && fgets(line, sizeof line, fp) != NULL) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
            snprintf(m->cpu, sizeof m->cpu, "%s", colon + 1 + (colon[1] == ' '));
            m->cpu[strcspn(m->cpu, "\n")] = '\0';
            break;
        }
    }
    if (fp != NULL)
        fclose(fp);
}

static const char *malloc_mode(const bench_report *rep)
{
#ifdef __GLIBC__
    return rep->malloc_tuning ? "tuned: mallopt M_MMAP_MAX=0, M_TRIM_THRESHOLD=-1 (freed memory "
                                "is reused, not faulted in again), for every runner "
                                "(--no-malloc-tuning: glibc's defaults)"
                              : "glibc's defaults (--no-malloc-tuning)";
#else
    (void)rep;
    return "the C library's defaults (tuning needs glibc)";
#endif
}

void bench_print_header(const bench_report *rep, const char *command)
{
    machine m;

    machine_info(&m);
    printf("contingency-bench %s (ctg %s, json-c %s)%s\n", CTG_VERSION_STRING, ctg_version_string(),
           json_c_version(), rep->quick ? ", quick mode" : "");
    printf("command: %s\n", command);
    printf("machine: %ld CPUs, %s, %.1f GiB\n", m.cpus, m.cpu, m.memory_gib);
    printf("malloc:  %s\n", malloc_mode(rep));
    printf("clock:   %s\n\n", bench_clock_is_cpu()
                                  ? "the bench thread's CPU time (CLOCK_THREAD_CPUTIME_ID; "
                                    "--wall-clock for CLOCK_MONOTONIC)"
                                  : "wall (CLOCK_MONOTONIC)");
}

/* ---- tables ----------------------------------------------------------------------------- */

static const bench_result *find_result(const bench_case_report *c, const char *name)
{
    for (size_t i = 0; i < c->count; i++) {
        if (strcmp(c->results[i].name, name) == 0)
            return &c->results[i];
    }
    return NULL;
}

/* The memory section's peak RSS for a runner of case `c`, or -1 when `c` was not measured. */
static long long peak_rss_of(const bench_report *rep, const bench_case_report *c,
                             const char *runner)
{
    static const char *const pairs[][2] = { { "ctg-read", "full" },
                                            { "ctg-read-in-situ", "in-situ" },
                                            { "ctg-stream", "stream" },
                                            { "jsonc-dom-parse-free", "jsonc" } };

    for (size_t m = 0; m < rep->memory_case_count; m++) {
        const bench_memory_case *mc = &rep->memory[m];
        if (strcmp(mc->name, c->gen->name) != 0)
            continue;
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            if (strcmp(pairs[i][0], runner) != 0)
                continue;
            for (size_t k = 0; k < mc->count; k++) {
                if (strcmp(mc->children[k].mode, pairs[i][1]) == 0 && mc->children[k].supported)
                    return mc->children[k].peak_rss;
            }
        }
    }
    return -1;
}

#define ROW_FORMAT "%-32s %4s %4s %10s %10s %10s %6s %9s %11s %9s %9s\n"
/* The flooding table: the same columns up to the ratio. */
#define FLOOD_FORMAT "%-32s %4s %4s %10s %10s %10s %6s %9s %11s\n"

/* A row: median, min and max, then the ratios to ctg-read's median and to its minimum, then
 * the median run's minor page faults (columns added at the end, so that the older columns
 * keep their place for scripts that read them). */
static void print_row(const bench_case_report *c, const bench_result *r, const bench_result *ref)
{
    char name[96];

    snprintf(name, sizeof name, "%s.%s", c->gen->name, r->name);
    if (!r->supported) {
        printf("%-32s %4s %4s   unsupported: %s\n", name, "ss", "-", r->why);
        return;
    }
    printf("%-32s %4s %4d %10.3f %10.3f %10.3f %6s %9.1f", name, "ss", c->runs, r->median_ms,
           r->min_ms, r->max_ms, "ms/op", r->mb_per_s);
    if (ref != NULL && ref->supported && ref->median_ms > 0 && ref->min_ms > 0)
        printf(" %10.2fx %8.2fx", r->median_ms / ref->median_ms, r->min_ms / ref->min_ms);
    else
        printf(" %11s %9s", "-", "-");
    printf(" %9.0f\n", r->faults);
}

static void print_table(const bench_case_report *c, const bench_result *results)
{
    const bench_result *ref = find_result(c, "ctg-read");

    if (results != c->results)
        ref = ref != NULL ? &results[ref - c->results] : NULL;
    printf(ROW_FORMAT, "Benchmark", "Mode", "Cnt", "Median", "Min", "Max", "Units", "MB/s",
           "vs ctg-read", "min vs", "faults");
    for (size_t i = 0; i < c->count; i++)
        print_row(c, &results[i], ref);
}

static void print_case(const bench_report *rep, const bench_case_report *c)
{
    printf("%s: %s; %zu bytes, %zu contingencies, %zu lists; %d runs after %d warm-up rounds\n",
           c->gen->name, c->gen->summary, c->bytes, c->gen->contingencies, c->gen->lists, c->runs,
           c->warmup);
    print_table(c, c->results);
    if (c->resolves_known)
        printf("handler look-ups per read: %zu cached, %zu with CTG_READ_NO_CACHE\n",
               c->resolves_cached, c->resolves_nocache);
    for (size_t i = 0; i < c->count; i++) {
        long long rss = peak_rss_of(rep, c, c->results[i].name);
        if (rss >= 0)
            printf("peak RSS of a process doing %s on %s: %.1f MB (%.2fx the file)\n",
                   c->results[i].name, c->gen->name, (double)rss / 1e6,
                   (double)rss / (double)c->bytes);
    }
    if (c->process_done) {
        printf("\n%s --process: each run a fresh process with glibc's malloc defaults, the file "
               "read\ninto memory before the clock starts; %d runs\n",
               c->gen->name, c->runs);
        print_table(c, c->process);
    }
    printf("\n");
}

static void print_absent(const bench_absent_report *a)
{
    const bench_absent_variant *v[2] = { &a->absent, &a->present };

    printf("absent field: %zu single-BRANCH contingencies, `name` absent or present; %d runs\n",
           a->contingencies, a->runs);
    printf("%-22s %4s %4s %10s %14s %14s %12s\n", "Benchmark", "Mode", "Cnt", "ns/ctg", "calls/ctg",
           "requests/ctg", "over needed");
    for (int i = 0; i < 2; i++)
        printf("%-22s %4s %4d %10.1f %14.5f %14.3f %12.3f\n",
               i == 0 ? "absent.name-absent" : "absent.name-present", "ss", a->runs,
               v[i]->ns_per_contingency, v[i]->calls_per_contingency, v[i]->exact_requests,
               v[i]->over_required);
    printf("calls/ctg: allocator calls per contingency with the list's chunked arena;\n"
           "requests/ctg: arena requests per contingency (exact arena, slope from n/2 to n);\n"
           "over needed: requests beyond the %.0f a contingency needs (id, element array, "
           "element id)\n\n",
           a->required);
}

static void print_flood(const bench_flood_report *f)
{
    const bench_result *r[2] = { &f->colliding, &f->random };

    printf("flooding: a full read of one extension object of %zu keys of %d bytes, colliding in "
           "the\nold table's hash (FNV-1a, low %d bits) or random; %d runs\n",
           f->keys, BENCH_KEY_LEN, BENCH_KEY_COLLIDING_BITS, f->runs);
    printf(FLOOD_FORMAT, "Benchmark", "Mode", "Cnt", "Median", "Min", "Max", "Units", "MB/s",
           "vs random");
    for (int i = 0; i < 2; i++)
        printf("flooding.%-23s %4s %4d %10.3f %10.3f %10.3f %6s %9.1f %10.2fx\n", r[i]->name, "ss",
               f->runs, r[i]->median_ms, r[i]->min_ms, r[i]->max_ms, "ms/op", r[i]->mb_per_s,
               r[i]->median_ms / f->random.median_ms);
    printf("both documents are read, checked and written back once before timing\n\n");
}

static void print_mb(double mb_per_s)
{
    if (mb_per_s > 0)
        printf(" %12.1f", mb_per_s);
    else
        printf(" %12s", "-");
}

static void print_scaling(const bench_report *rep)
{
    printf("scaling: single-BRANCH lists, MB/s of the median run (10M: streamed only)\n");
    printf("%14s %14s %5s %6s %12s %12s %12s %13s\n", "contingencies", "bytes", "runs", "batch",
           "ctg-read", "ctg-stream", "memchr-floor", "stream/floor");
    for (size_t i = 0; i < rep->scaling_count; i++) {
        const bench_scaling_point *p = &rep->scaling[i];
        printf("%14zu %14zu %5d %6d", p->contingencies, p->bytes, p->runs, p->batch);
        print_mb(p->read_mb_per_s);
        print_mb(p->stream_mb_per_s);
        print_mb(p->floor_mb_per_s);
        if (p->stream_mb_per_s > 0 && p->floor_mb_per_s > 0)
            printf(" %13.2f", p->stream_mb_per_s / p->floor_mb_per_s);
        printf("\n");
    }
    printf("all sizes timed in the same rounds; a sample of a small list is a batch of reads\n\n");
}

static void print_memory(const bench_memory_case *mc)
{
    printf("memory: peak RSS (VmHWM) of a child process reading %s from a file of %zu bytes\n",
           mc->name, mc->file_bytes);
    printf("%-10s %12s %9s %13s  %s\n", "child", "peak RSS MB", "x file", "ru_maxrss MB", "what");
    for (size_t i = 0; i < mc->count; i++) {
        const bench_memory_result *m = &mc->children[i];
        if (!m->supported) {
            printf("%-10s unsupported: %s\n", m->mode, m->why);
            continue;
        }
        printf("%-10s %12.1f %8.2fx %13.1f  %s\n", m->mode, (double)m->peak_rss / 1e6,
               (double)m->peak_rss / (double)mc->file_bytes, (double)m->ru_maxrss / 1e6, m->what);
    }
    printf("ru_maxrss (wait4) also counts the bench's own RSS when it spawned the child\n\n");
}

void bench_print_tables(const bench_report *rep)
{
    for (size_t i = 0; i < rep->case_count; i++)
        print_case(rep, &rep->cases[i]);
    if (rep->absent.done)
        print_absent(&rep->absent);
    if (rep->flood.done)
        print_flood(&rep->flood);
    if (rep->scaling_count > 0)
        print_scaling(rep);
    for (size_t i = 0; i < rep->memory_case_count; i++)
        print_memory(&rep->memory[i]);
    if (rep->threads.done)
        bench_threads_print(&rep->threads);
    if (rep->network.done)
        bench_net_print(&rep->network);
}

void bench_print_targets(const bench_report *rep)
{
    bench_target t[BENCH_MAX_TARGETS];
    size_t n = bench_targets(rep, t, BENCH_MAX_TARGETS);

    printf("targets (issues 4, 9, 12 and 16; medians of this run unless they say min):\n");
    for (size_t i = 0; i < n; i++)
        printf("  %s: %s\n", t[i].text, bench_target_status(&t[i]));
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void json_string(const char *s)
{
    putchar('"');
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04X", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

static void json_result(const bench_report *rep, const bench_case_report *c, const bench_result *r)
{
    long long rss = peak_rss_of(rep, c, r->name);

    printf("{\"name\":");
    json_string(r->name);
    if (!r->supported) {
        printf(",\"unsupported\":");
        json_string(r->why);
        printf("}");
        return;
    }
    printf(",\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f,\"mb_per_s\":%.3f,\"bytes\":%zu"
           ",\"minor_faults\":%.0f",
           r->median_ms, r->min_ms, r->max_ms, r->mb_per_s, r->bytes, r->faults);
    if (rss >= 0)
        printf(",\"peak_rss_bytes\":%lld", rss);
    printf("}");
}

static void json_case(const bench_report *rep, const bench_case_report *c)
{
    printf("{\"name\":\"%s\",\"bytes\":%zu,\"contingencies\":%zu,\"lists\":%zu,\"runs\":%d,"
           "\"warmup\":%d",
           c->gen->name, c->bytes, c->gen->contingencies, c->gen->lists, c->runs, c->warmup);
    if (c->resolves_known)
        printf(",\"resolves_cached\":%zu,\"resolves_nocache\":%zu", c->resolves_cached,
               c->resolves_nocache);
    printf(",\"results\":[");
    for (size_t i = 0; i < c->count; i++) {
        printf("%s", i ? "," : "");
        json_result(rep, c, &c->results[i]);
    }
    printf("]");
    if (c->process_done) {
        printf(",\"process\":[");
        for (size_t i = 0; i < c->count; i++) {
            printf("%s", i ? "," : "");
            json_result(rep, c, &c->process[i]);
        }
        printf("]");
    }
    printf("}");
}

static void json_absent(const bench_absent_report *a)
{
    const bench_absent_variant *v[2] = { &a->absent, &a->present };

    printf(",\"absent\":{\"contingencies\":%zu,\"runs\":%d,\"required_requests\":%.0f,"
           "\"variants\":[",
           a->contingencies, a->runs, a->required);
    for (int i = 0; i < 2; i++)
        printf("%s{\"name\":\"%s\",\"bytes\":%zu,\"ns_per_contingency\":%.3f,"
               "\"allocator_calls_per_contingency\":%.6f,\"arena_requests_per_contingency\":%.6f,"
               "\"requests_over_required\":%.6f}",
               i ? "," : "", i == 0 ? "name-absent" : "name-present", v[i]->bytes,
               v[i]->ns_per_contingency, v[i]->calls_per_contingency, v[i]->exact_requests,
               v[i]->over_required);
    printf("]}");
}

static void json_flood(const bench_flood_report *f)
{
    const bench_result *r[2] = { &f->colliding, &f->random };

    printf(",\"flooding\":{\"keys\":%zu,\"key_bytes\":%d,\"runs\":%d,\"ratio\":%.4f,"
           "\"results\":[",
           f->keys, BENCH_KEY_LEN, f->runs, bench_flood_ratio(f));
    for (int i = 0; i < 2; i++)
        printf("%s{\"name\":\"%s\",\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f,"
               "\"mb_per_s\":%.3f,\"bytes\":%zu}",
               i ? "," : "", r[i]->name, r[i]->median_ms, r[i]->min_ms, r[i]->max_ms,
               r[i]->mb_per_s, r[i]->bytes);
    printf("]}");
}

static void json_scaling(const bench_report *rep)
{
    printf(",\"scaling\":[");
    for (size_t i = 0; i < rep->scaling_count; i++) {
        const bench_scaling_point *p = &rep->scaling[i];
        printf("%s{\"contingencies\":%zu,\"bytes\":%zu,\"runs\":%d,\"batch\":%d,"
               "\"ctg_read_mb_per_s\":%.3f,\"ctg_stream_mb_per_s\":%.3f,"
               "\"memchr_floor_mb_per_s\":%.3f}",
               i ? "," : "", p->contingencies, p->bytes, p->runs, p->batch, p->read_mb_per_s,
               p->stream_mb_per_s, p->floor_mb_per_s);
    }
    printf("]");
}

static void json_memory_child(const bench_memory_case *mc, const bench_memory_result *m)
{
    printf("{\"mode\":\"%s\"", m->mode);
    if (m->supported) {
        printf(",\"peak_rss_bytes\":%lld,\"ratio_to_file\":%.4f,\"ru_maxrss_bytes\":%lld}",
               m->peak_rss, (double)m->peak_rss / (double)mc->file_bytes, m->ru_maxrss);
        return;
    }
    printf(",\"unsupported\":");
    json_string(m->why);
    printf("}");
}

/* "memory": one object per memory case. */
static void json_memory(const bench_report *rep)
{
    printf(",\"memory\":[");
    for (size_t k = 0; k < rep->memory_case_count; k++) {
        const bench_memory_case *mc = &rep->memory[k];
        printf("%s{\"case\":\"%s\",\"file_bytes\":%zu,\"children\":[", k ? "," : "", mc->name,
               mc->file_bytes);
        for (size_t i = 0; i < mc->count; i++) {
            printf("%s", i ? "," : "");
            json_memory_child(mc, &mc->children[i]);
        }
        printf("]}");
    }
    printf("]");
}

static void json_targets(const bench_report *rep)
{
    bench_target t[BENCH_MAX_TARGETS];
    size_t n = bench_targets(rep, t, BENCH_MAX_TARGETS);

    printf(",\"targets\":[");
    for (size_t i = 0; i < n; i++) {
        printf("%s{\"text\":", i ? "," : "");
        json_string(t[i].text);
        printf(",\"status\":\"%s\"}", bench_target_status(&t[i]));
    }
    printf("]");
}

void bench_print_json(const bench_report *rep)
{
    machine m;

    machine_info(&m);
    printf("{\"version\":\"%s\",\"quick\":%s,\"malloc_tuning\":%s,\"clock\":\"%s\",",
           CTG_VERSION_STRING, rep->quick ? "true" : "false", rep->malloc_tuning ? "true" : "false",
           bench_clock_is_cpu() ? "thread-cpu" : "wall");
    printf("\"machine\":{\"cpus\":%ld,\"cpu\":", m.cpus);
    json_string(m.cpu);
    printf(",\"memory_gib\":%.1f},\"cases\":[", m.memory_gib);
    for (size_t i = 0; i < rep->case_count; i++) {
        printf("%s", i ? "," : "");
        json_case(rep, &rep->cases[i]);
    }
    printf("]");
    if (rep->absent.done)
        json_absent(&rep->absent);
    if (rep->flood.done)
        json_flood(&rep->flood);
    if (rep->scaling_count > 0)
        json_scaling(rep);
    if (rep->memory_case_count > 0)
        json_memory(rep);
    if (rep->threads.done)
        bench_threads_print_json(&rep->threads);
    if (rep->network.done)
        bench_net_print_json(&rep->network);
    json_targets(rep);
    printf("}\n");
}
