/* SPDX-License-Identifier: MPL-2.0 */
/* Memory: the peak RSS of a child process that reads a memory case's file one way, as a
 * ratio to the file's size. Each child is this executable again (/proc/self/exe) in a hidden
 * mode, `--rss-child MODE FILE COUNT`. Nothing is subtracted: the "baseline" child, which
 * only starts and exits, shows what a process costs.
 *
 * The peak is the child's own VmHWM (/proc/self/status), which it prints on its stdout: the
 * high-water mark of the memory map exec gave it. ru_maxrss from wait4 is kept for reference
 * but overstates: posix_spawn runs the child in the parent's memory until exec (CLONE_VM),
 * and Linux folds that memory's RSS into the child's ru_maxrss at exec, so every child
 * reports at least the bench's own RSS at the time (measured: a b10k "baseline" child shows
 * 1.8 MB VmHWM but 96.9 MB ru_maxrss after the case tables). */

#define _DEFAULT_SOURCE /* wait4 */

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

extern char **environ;

static const struct {
    const char *mode;
    const char *what;
} child_modes[] = {
    { "baseline", "a process that starts and exits" },
    { "full", "ctg_list_read_file: the whole list in memory" },
    { "in-situ", "the file read into memory, then ctg_list_read_in_situ: file and list" },
    { "stream", "ctg_read_stream from the path, a visitor that counts" },
    { "jsonc", "json_object_from_file: json-c's DOM, for context" },
};

#define CHILD_MODES (sizeof child_modes / sizeof child_modes[0])

/* ---- the child ---------------------------------------------------------------------------- */

static int child_full(const char *path, size_t count)
{
    ctg_list *list = NULL;
    ctg_error err;
    size_t got;

    if (ctg_list_read_file(&list, path, NULL, &err) != CTG_OK) {
        char text[1024];
        ctg_error_format(&err, text, sizeof text);
        fprintf(stderr, "contingency-bench: rss child: %s\n", text);
        return 1;
    }
    got = ctg_list_contingency_count(list);
    ctg_list_free(list);
    return got == count ? 0 : 1;
}

/* The file in one block of its size, as a user of the in-situ read holds it, then the list
 * whose strings stay in that block. */
static int child_in_situ(const char *path, size_t count)
{
    FILE *fp = fopen(path, "rb");
    ctg_list *list = NULL;
    char *data = NULL;
    long size = -1;
    size_t got = 0;
    int rc = 1;

    if (fp != NULL && fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) >= 0
        && fseek(fp, 0, SEEK_SET) == 0 && (data = malloc((size_t)size + 1)) != NULL
        && fread(data, 1, (size_t)size, fp) == (size_t)size
        && ctg_list_read_in_situ(&list, data, (size_t)size, NULL, NULL) == CTG_OK) {
        got = ctg_list_contingency_count(list);
        rc = got == count ? 0 : 1;
    }
    if (rc != 0)
        fprintf(stderr, "contingency-bench: rss child: in-situ read of %s failed\n", path);
    ctg_list_free(list);
    free(data);
    if (fp != NULL)
        fclose(fp);
    return rc;
}

static int count_one(const ctg_stream_header *list, const ctg_contingency *c, void *payload)
{
    (void)list;
    (void)c;
    ++*(size_t *)payload;
    return 0;
}

static int child_stream(const char *path, size_t count)
{
    size_t got = 0;
    ctg_source src = ctg_source_path(path);
    ctg_visitor visitor = { .version = CTG_VISITOR_VERSION,
                            .contingency = count_one,
                            .payload = &got };
    ctg_error err;

    if (ctg_read_stream(&src, &visitor, NULL, &err) != CTG_OK) {
        char text[1024];
        ctg_error_format(&err, text, sizeof text);
        fprintf(stderr, "contingency-bench: rss child: %s\n", text);
        return 1;
    }
    return got == count ? 0 : 1;
}

static int child_jsonc(const char *path)
{
    json_object *obj = json_object_from_file(path);
    int rc = json_object_is_type(obj, json_type_object) ? 0 : 1;

    json_object_put(obj);
    return rc;
}

/* This process's peak RSS in bytes (VmHWM), or -1. */
static long long peak_rss_self(void)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    long long kb = -1;

    while (fp != NULL && fgets(line, sizeof line, fp) != NULL) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtoll(line + 6, NULL, 10);
            break;
        }
    }
    if (fp != NULL)
        fclose(fp);
    return kb < 0 ? -1 : kb * 1024;
}

int bench_memory_child(const char *mode, const char *path, const char *count)
{
    size_t n = (size_t)strtoull(count, NULL, 10);
    int rc = 2;

    if (strcmp(mode, "baseline") == 0)
        rc = 0;
    else if (strcmp(mode, "full") == 0)
        rc = child_full(path, n);
    else if (strcmp(mode, "in-situ") == 0)
        rc = child_in_situ(path, n);
    else if (strcmp(mode, "stream") == 0)
        rc = child_stream(path, n);
    else if (strcmp(mode, "jsonc") == 0)
        rc = child_jsonc(path);
    if (rc == 0)
        printf("%lld\n", peak_rss_self());
    return rc;
}

/* ---- the parent --------------------------------------------------------------------------- */

/* Writes `c` to a new temporary file; its path in `path`. */
static int write_case(const bench_gen_case *c, char *path, size_t size, size_t *bytes)
{
    const char *dir = getenv("TMPDIR");
    bench_bytes doc = BENCH_BYTES_INIT;
    FILE *fp = NULL;
    int fd, rc = -1;

    snprintf(path, size, "%s/contingency-bench-XXXXXX", dir && *dir ? dir : P_tmpdir);
    if (bench_gen_generate(c, &doc) != 0 || (fd = mkstemp(path)) < 0) {
        fprintf(stderr, "contingency-bench: memory: cannot create %s\n", path);
        bench_bytes_dispose(&doc);
        return -1;
    }
    if ((fp = fdopen(fd, "wb")) == NULL)
        close(fd);
    else if (fwrite(doc.data, 1, doc.len, fp) == doc.len && fflush(fp) == 0)
        rc = 0;
    if (fp != NULL && fclose(fp) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "contingency-bench: memory: cannot write %s\n", path);
        unlink(path);
    }
    *bytes = doc.len;
    bench_bytes_dispose(&doc);
    return rc;
}

/* Starts a child with its stdout on a pipe; the read end in `*out_fd`. */
static int start_child(bench_memory_result *out, char **argv, pid_t *pid, int *out_fd)
{
    posix_spawn_file_actions_t actions;
    int fds[2], err;

    if (pipe(fds) != 0) {
        snprintf(out->why, sizeof out->why, "pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    err = posix_spawn(pid, "/proc/self/exe", &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        snprintf(out->why, sizeof out->why, "posix_spawn: %s", strerror(err));
        return -1;
    }
    *out_fd = fds[0];
    return 0;
}

/* The child's report (its VmHWM), then its exit status and resource usage. */
static int finish_child(pid_t pid, int fd, char *report, size_t size, int *status,
                        struct rusage *ru)
{
    size_t len = 0;
    ssize_t got;

    while (len + 1 < size &&
           ((got = read(fd, report + len, size - 1 - len)) > 0 || (got < 0 && errno == EINTR)))
        len += got > 0 ? (size_t)got : 0;
    report[len] = '\0';
    close(fd);
    while (wait4(pid, status, 0, ru) < 0) {
        if (errno != EINTR)
            return -1;
    }
    return 0;
}

/* Runs one child; its peak RSS in out->peak_rss. */
static int spawn_child(bench_memory_result *out, const char *path, size_t count, bool tuning)
{
    char number[32], report[64];
    char *argv[] = { "contingency-bench",
                     "--rss-child",
                     (char *)out->mode,
                     (char *)path,
                     number,
                     tuning ? NULL : "--no-malloc-tuning",
                     NULL };
    struct rusage ru;
    pid_t pid;
    int fd, status;

    snprintf(number, sizeof number, "%zu", count);
    if (start_child(out, argv, &pid, &fd) != 0)
        return -1;
    if (finish_child(pid, fd, report, sizeof report, &status, &ru) != 0) {
        snprintf(out->why, sizeof out->why, "wait4: %s", strerror(errno));
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || report[0] == '\0' || report[0] == '-') {
        snprintf(out->why, sizeof out->why, "the %s child failed (status %d)", out->mode, status);
        return -1;
    }
    out->supported = true;
    out->peak_rss = strtoll(report, NULL, 10);
    out->ru_maxrss = (long long)ru.ru_maxrss * 1024; /* Linux: kilobytes */
    return 0;
}

int bench_memory_run(bench_report *rep, const bench_gen_case *c, bool with_jsonc)
{
    bench_memory_case *mc = &rep->memory[rep->memory_case_count];
    char path[4096];
    int rc = 0;

    if (rep->memory_case_count == BENCH_MAX_MEMORY_CASES)
        return -1;
    memset(mc, 0, sizeof *mc);
    if (write_case(c, path, sizeof path, &mc->file_bytes) != 0)
        return -1;
    mc->name = c->name;
    rep->memory_case_count++;
    for (size_t i = 0; i < CHILD_MODES && rc == 0; i++) {
        bench_memory_result *m = &mc->children[mc->count];

        if (strcmp(child_modes[i].mode, "jsonc") == 0 && !with_jsonc)
            continue;
        m->mode = child_modes[i].mode;
        m->what = child_modes[i].what;
        m->peak_rss = -1;
        rc = spawn_child(m, path, c->contingencies, rep->malloc_tuning);
        if (rc != 0)
            fprintf(stderr, "contingency-bench: memory: %s: %s\n", c->name, m->why);
        mc->count++;
    }
    unlink(path);
    return rc;
}
