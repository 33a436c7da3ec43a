/* SPDX-License-Identifier: MPL-2.0 */
/* --process: every run of a reader in a fresh process, as a user's one-shot program sees it.
 * Each child is this executable again (/proc/self/exe) in a hidden mode,
 * `--process-child RUNNER CASE FILE`: it keeps glibc's malloc defaults (main does not tune
 * them for a child), reads the file into memory, then times one run of the runner and counts
 * the minor page faults of that run alone (getrusage before and after), and prints both. The
 * parent runs the readers in rounds, as the in-process mode does, and keeps the samples. */

#define _DEFAULT_SOURCE /* P_tmpdir */

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

extern char **environ;

/* ---- the child ---------------------------------------------------------------------------- */

/* The whole file in `out`, with room past its end for a reader that reads ahead (simdjson
 * reads up to 64 bytes past the input). */
static int slurp(const char *path, bench_bytes *out)
{
    FILE *fp = fopen(path, "rb");
    long size;

    if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 ||
        fseek(fp, 0, SEEK_SET) != 0 || (out->data = malloc((size_t)size + 65)) == NULL ||
        fread(out->data, 1, (size_t)size, fp) != (size_t)size) {
        if (fp != NULL)
            fclose(fp);
        return -1;
    }
    fclose(fp);
    out->len = (size_t)size;
    out->cap = (size_t)size + 65;
    out->data[out->len] = '\0';
    return 0;
}

int bench_process_child(const char *runner, const char *case_name, const char *path)
{
    const bench_runner *r = bench_runner_find(runner);
    const bench_gen_case *c = bench_gen_find(case_name);
    bench_input in;
    struct rusage before, after;
    long long start, end;
    int rc;

    if (r == NULL || c == NULL)
        return 2;
    memset(&in, 0, sizeof in);
    in.gen = c;
    if (slurp(path, &in.bytes) != 0) {
        fprintf(stderr, "contingency-bench: process child: cannot read %s\n", path);
        return 1;
    }
    getrusage(RUSAGE_SELF, &before);
    start = bench_now_ns();
    rc = r->run(&in);
    end = bench_now_ns();
    getrusage(RUSAGE_SELF, &after);
    if (rc == BENCH_OK)
        printf("%.6f %ld\n", (double)(end - start) / 1e6, after.ru_minflt - before.ru_minflt);
    else
        fprintf(stderr, "contingency-bench: process child: %s: %s\n", runner, in.why);
    bench_input_dispose(&in);
    return rc == BENCH_OK ? 0 : 1;
}

/* ---- the parent --------------------------------------------------------------------------- */

static int write_file(const bench_bytes *b, char *path, size_t size)
{
    const char *dir = getenv("TMPDIR");
    FILE *fp = NULL;
    int fd, rc = -1;

    snprintf(path, size, "%s/contingency-bench-XXXXXX", dir && *dir ? dir : P_tmpdir);
    if ((fd = mkstemp(path)) < 0) {
        fprintf(stderr, "contingency-bench: process: cannot create %s\n", path);
        return -1;
    }
    if ((fp = fdopen(fd, "wb")) == NULL)
        close(fd);
    else if (fwrite(b->data, 1, b->len, fp) == b->len && fflush(fp) == 0)
        rc = 0;
    if (fp != NULL && fclose(fp) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "contingency-bench: process: cannot write %s\n", path);
        unlink(path);
    }
    return rc;
}

/* One child's run of `runner`: its time and minor faults. */
static int spawn_run(const char *runner, const char *case_name, const char *path, double *ms,
                     double *faults)
{
    char *argv[] = { "contingency-bench",
                     "--process-child",
                     (char *)runner,
                     (char *)case_name,
                     (char *)path,
                     bench_clock_is_cpu() ? NULL : "--wall-clock",
                     NULL };
    posix_spawn_file_actions_t actions;
    char report[128];
    size_t len = 0;
    ssize_t got;
    pid_t pid;
    int fds[2], err, status;

    if (pipe(fds) != 0)
        return -1;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    err = posix_spawn(&pid, "/proc/self/exe", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        return -1;
    }
    while (len + 1 < sizeof report &&
           ((got = read(fds[0], report + len, sizeof report - 1 - len)) > 0 ||
            (got < 0 && errno == EINTR)))
        len += got > 0 ? (size_t)got : 0;
    report[len] = '\0';
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        sscanf(report, "%lf %lf", ms, faults) != 2) {
        fprintf(stderr, "contingency-bench: process: %s: %s: the child failed (status %d)\n",
                case_name, runner, status);
        return -1;
    }
    return 0;
}

/* The readers that ran in-process get a process sample per round. */
static bool in_process_mode(const bench_runner *r, const bench_result *inproc)
{
    return !r->writer && inproc->supported;
}

static int rounds(const bench_runner *runners, size_t n, const bench_case_report *c,
                  const char *path, double *ms, double *faults, int runs)
{
    for (int round = 0; round < runs; round++) {
        for (size_t k = 0; k < n; k++) {
            size_t i = (k + (size_t)round) % n, at = i * (size_t)runs + (size_t)round;

            if (in_process_mode(&runners[i], &c->results[i]) &&
                spawn_run(runners[i].name, c->gen->name, path, &ms[at], &faults[at]) != 0)
                return -1;
        }
    }
    return 0;
}

int bench_process_run(bench_case_report *c, const bench_bytes *doc)
{
    size_t n;
    const bench_runner *runners = bench_runners(&n);
    int runs = c->runs;
    double *ms = malloc((size_t)runs * n * sizeof *ms);
    double *faults = malloc((size_t)runs * n * sizeof *faults);
    char path[4096];
    int rc = -1;

    if (ms == NULL || faults == NULL || (c->process = calloc(n, sizeof *c->process)) == NULL ||
        write_file(doc, path, sizeof path) != 0)
        goto done;
    rc = rounds(runners, n, c, path, ms, faults, runs);
    unlink(path);
    for (size_t i = 0; i < n && rc == 0; i++) {
        bench_result *r = &c->process[i];

        r->name = runners[i].name;
        r->supported = in_process_mode(&runners[i], &c->results[i]);
        r->bytes = doc->len;
        r->peak_rss = -1;
        snprintf(r->why, sizeof r->why, "%s",
                 runners[i].writer ? "writers run in-process only" : c->results[i].why);
        if (r->supported) {
            bench_summarize(&ms[i * (size_t)runs], runs, r);
            bench_summarize_faults(&faults[i * (size_t)runs], runs, r);
        }
    }
    c->process_done = rc == 0;
done:
    free(ms);
    free(faults);
    return rc;
}
