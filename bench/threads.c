/* SPDX-License-Identifier: MPL-2.0 */
/* The threads section: a whole-list read of one case with ctg_read_options.threads = 1 and 2,
 * in alternating runs, timed by the wall clock (the thread's CPU time would not count the
 * second thread), and the two lists written back and compared byte for byte. */

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "format/read_internal.h"
#include "format/read_parallel.h"

static double clock_ms(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A read's times: the wall clock, the calling thread's CPU time and the process's (all the
 * work). On a loaded machine the wall clock says how much CPU the scheduler gave; the longer
 * of the two threads' CPU times (the calling thread's, and the rest of the process's) is what
 * the wall clock gives on two idle cores. */
typedef struct read_times {
    double wall, thread, process;
} read_times;

static void times_now(read_times *t)
{
    t->wall = clock_ms(CLOCK_MONOTONIC);
    t->thread = clock_ms(CLOCK_THREAD_CPUTIME_ID);
    t->process = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

/* One read with `threads`, timed; the list in *keep when `keep` is not NULL, else freed. */
static int read_timed(const bench_bytes *b, unsigned threads, read_times *ms, ctg_list **keep,
                      size_t *parts)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_source src = ctg_source_buffer(b->data, b->len);
    ctg_list *list = NULL;
    ctg_error err;
    read_times start, end;

    times_now(&start);
    opts.threads = threads;
    if (ctg_list_read_split(&list, &src, &opts, &err, CTG_SPLIT_MIN_PART, parts) != CTG_OK) {
        char line[512];
        ctg_error_format(&err, line, sizeof line);
        fprintf(stderr, "contingency-bench: threads: %s\n", line);
        return -1;
    }
    if (keep)
        *keep = list;
    else
        ctg_list_free(list);
    times_now(&end);
    ms->wall = end.wall - start.wall;
    ms->thread = end.thread - start.thread;
    ms->process = end.process - start.process;
    return 0;
}

/* Both lists written back pretty: the same bytes. */
static int same_output(const bench_bytes *b, bench_threads_report *t)
{
    ctg_list *one = NULL, *two = NULL;
    ctg_buf w1 = CTG_BUF_INIT, w2 = CTG_BUF_INIT;
    read_times ms;
    int rc = read_timed(b, 1, &ms, &one, NULL);

    if (rc == 0)
        rc = read_timed(b, 2, &ms, &two, &t->parts);
    if (rc == 0 && (ctg_list_write_buf(&w1, one, NULL, NULL) != CTG_OK
                    || ctg_list_write_buf(&w2, two, NULL, NULL) != CTG_OK))
        rc = -1;
    t->identical = rc == 0 && w1.len == w2.len && memcmp(w1.data, w2.data, w1.len) == 0;
    t->written = w1.len;
    ctg_buf_dispose(&w1);
    ctg_buf_dispose(&w2);
    ctg_list_free(one);
    ctg_list_free(two);
    return rc;
}

/* The medians of runs `r` of `n` read_times into `out`: wall, thread, process. */
static void summarize(read_times *r, int n, bench_result out[3])
{
    double s[BENCH_THREADS_MAX_RUNS];

    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < n; i++)
            s[i] = k == 0 ? r[i].wall : k == 2 ? r[i].process
                   : r[i].thread > r[i].process - r[i].thread ? r[i].thread
                                                              : r[i].process - r[i].thread;
        bench_summarize(s, n, &out[k]);
    }
}

/* The 1-minute load average, -1 where /proc/loadavg cannot be read: on a shared machine, what
 * the wall clock figures are worth. */
static double load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double load = -1;

    if (f != NULL) {
        if (fscanf(f, "%lf", &load) != 1)
            load = -1;
        fclose(f);
    }
    return load;
}

int bench_threads_run(bench_report *rep, const bench_gen_case *c, int runs)
{
    bench_threads_report *t = &rep->threads;
    read_times one[BENCH_THREADS_MAX_RUNS], two[BENCH_THREADS_MAX_RUNS];
    bench_bytes b = { 0 };
    int rc = 0;

    runs = runs > BENCH_THREADS_MAX_RUNS ? BENCH_THREADS_MAX_RUNS : runs;
    if (bench_gen_generate(c, &b) != 0)
        return -1;
    t->name = c->name;
    t->bytes = b.len;
    t->runs = runs;
    rc = same_output(&b, t);
    t->load_before = load_average();
    /* Alternating, each pair in the other order than the last, so that load hits both alike. */
    for (int i = 0; rc == 0 && i < runs; i++) {
        rc = read_timed(&b, i % 2 ? 2 : 1, i % 2 ? &two[i] : &one[i], NULL, NULL);
        if (rc == 0)
            rc = read_timed(&b, i % 2 ? 1 : 2, i % 2 ? &one[i] : &two[i], NULL, NULL);
    }
    bench_bytes_dispose(&b);
    t->load_after = load_average();
    if (rc != 0)
        return -1;
    for (int k = 0; k < 3; k++)
        t->one[k].bytes = t->two[k].bytes = t->bytes;
    summarize(one, runs, t->one);
    summarize(two, runs, t->two);
    t->done = true;
    return 0;
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

void bench_threads_print(const bench_threads_report *t)
{
    static const char *const clocks[3] = { "wall", "path-cpu", "process-cpu" };

    printf("threads: %s (%zu bytes) read whole with ctg_read_options.threads = 1 and 2, "
           "alternating; %d runs;\nwall clock; path-cpu: the longer of the two threads' CPU "
           "times (the calling thread's,\nthe rest of the process's), what the wall clock "
           "gives on two idle cores; process-cpu: all the work\n", t->name, t->bytes, t->runs);
    printf("%-28s %4s %4s %10s %10s %10s %6s %9s\n", "Benchmark", "Mode", "Cnt", "Median", "Min",
           "Max", "Units", "MB/s");
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 2; i++) {
            const bench_result *r = i == 0 ? &t->one[k] : &t->two[k];
            printf("threads.%s-%-*s %4s %4d %10.3f %10.3f %10.3f %6s %9.1f\n", clocks[k],
                   (int)(19 - strlen(clocks[k])), i == 0 ? "1" : "2", "ss", t->runs,
                   r->median_ms, r->min_ms, r->max_ms, "ms/op", r->mb_per_s);
        }
    printf("threads=2 vs 1: %.2fx faster by the wall clock (medians; %.2fx minimums), %.2fx by "
           "the\nlonger thread's CPU time; %.2fx the work; %zu parts; %s\n",
           bench_threads_ratio(t), ratio(t->one[0].min_ms, t->two[0].min_ms),
           ratio(t->one[1].median_ms, t->two[1].median_ms),
           ratio(t->two[2].median_ms, t->one[2].median_ms), t->parts,
           t->identical ? "both lists written back to the same bytes"
                        : "the lists DIFFER when written back");
    printf("load average (1 min) before and after the runs: %.2f, %.2f\n\n", t->load_before,
           t->load_after);
}

void bench_threads_print_json(const bench_threads_report *t)
{
    static const char *const keys[3] = { "wall", "path_cpu", "process_cpu" };

    printf(",\"threads\":{\"case\":\"%s\",\"runs\":%d,\"parts\":%zu,\"identical\":%s,",
           t->name, t->runs, t->parts, t->identical ? "true" : "false");
    for (int k = 0; k < 3; k++)
        printf("\"%s_ms\":{\"median\":[%.3f,%.3f],\"min\":[%.3f,%.3f]},", keys[k],
               t->one[k].median_ms, t->two[k].median_ms, t->one[k].min_ms, t->two[k].min_ms);
    printf("\"ratio\":%.3f,\"load_before\":%.2f,\"load_after\":%.2f}", bench_threads_ratio(t),
           t->load_before, t->load_after);
}

double bench_threads_ratio(const bench_threads_report *t)
{
    return t->done ? ratio(t->one[0].median_ms, t->two[0].median_ms) : 0;
}
