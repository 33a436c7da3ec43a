/* SPDX-License-Identifier: MPL-2.0 */
/* The toolkit section (issue 13): contingency-cli's subcommands on one generated `default`
 * list of about 1 GB (--toolkit-mb to change it), each run as a child process. Targets: the
 * peak RSS of every subcommand under 32 MB, and filter, split and merge within 1.5x the time
 * of validate on the same file. convert also runs to CSV and to JSON Lines and each back to
 * JSON (reading what the row before wrote), and generate --elements reads a CSV of 4096
 * elements per MB of the list, written beside it.
 *
 * The list is written to a temporary directory as it is generated, a few KB at a time, so
 * that this process stays small: a child's ru_maxrss (wait4) counts the memory it was forked
 * from until its exec, and that is printed as the floor of the measure. Times are the
 * child's CPU time (user + system, from wait4), which other processes on the machine do not
 * inflate; the wall time is printed beside it. The commands run in `runs` rounds, each of
 * which runs every command once, so that a drift of the machine's speed over the section
 * reaches every command alike; the medians are printed, and the ratio to validate is the
 * median of each round's ratio. */

#define _DEFAULT_SOURCE /* wait4, mkdtemp */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define TOOLKIT_RSS_TARGET (32.0 * 1024 * 1024)
#define TOOLKIT_TIME_TARGET 1.5
#define TOOLKIT_PARTS 8
#define TOOLKIT_MAX_RUNS 15

static const char *const element_types[] = { "BRANCH",    "LINE", "TWO_WINDINGS_TRANSFORMER",
                                             "GENERATOR", "LOAD", "BUSBAR_SECTION" };

/* One contingency in PowSyBl's pretty layout: N-1 mostly, some N-2, a third named. */
static void put_contingency(FILE *f, size_t i, uint64_t *rng, bool first)
{
    uint64_t r = bench_random(rng);
    int elements = r % 5 == 0 ? 2 : 1;

    fprintf(f, "%s{\n    \"id\" : \"N-%d_%09zu\",\n", first ? "" : ", ", elements, i);
    if (r % 3 == 0)
        fprintf(f, "    \"name\" : \"Outage %zu of the generated grid\",\n", i);
    fputs("    \"elements\" : [ ", f);
    for (int e = 0; e < elements; e++) {
        uint64_t t = bench_random(rng);

        fprintf(f, "%s{\n      \"id\" : \"EQ_%08llu\",\n      \"type\" : \"%s\"\n    }",
                e ? ", " : "", (unsigned long long)(t % 100000000u),
                element_types[(t >> 32) % (sizeof element_types / sizeof *element_types)]);
    }
    fputs(" ]\n  }", f);
}

/* Writes the list to `path`; its contingency count in `*count`. Returns 0 or -1. */
static int generate_list(const char *path, size_t mb, size_t *count)
{
    FILE *f = fopen(path, "w");
    uint64_t rng = 0x13u;
    size_t i = 0, want = mb * 1024 * 1024;

    if (f == NULL)
        return -1;
    fputs("{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"toolkit\",\n"
          "  \"contingencies\" : [ ",
          f);
    for (; (size_t)ftell(f) < want; i++)
        put_contingency(f, i, &rng, i == 0);
    fputs(" ]\n}", f);
    *count = i;
    return fclose(f) == 0 ? 0 : -1;
}

/* Writes a CSV of `rows` elements for generate --elements (its header, then
 * element_id,element_type[,voltage_level_id]; a sixth of them sided). Returns 0 or -1. */
static int generate_elements(const char *path, size_t rows)
{
    FILE *f = fopen(path, "w");
    uint64_t rng = 0x31u;

    if (f == NULL)
        return -1;
    fputs("element_id,element_type,voltage_level_id\n", f);
    for (size_t i = 0; i < rows; i++) {
        uint64_t t = bench_random(&rng) % 6;

        fprintf(f, "EQ_%09zu,%s,%s\n", i, t == 0 ? "LINE" : element_types[t],
                t == 0 ? "VL_1" : "");
    }
    return fclose(f) == 0 ? 0 : -1;
}

typedef struct child_run {
    double cpu_s, sys_s, wall_s;
    double machine_s; /* the whole machine's busy CPU time meanwhile (see machine_busy_s) */
    long long maxrss; /* bytes */
} child_run;

/* The CPU time every core has spent busy since boot (/proc/stat: user, nice, system, irq and
 * softirq; not idle, iowait or steal), or -1. Its growth over a child's run counts what the
 * child left to others, the kernel's flusher threads and interrupts among them, which the
 * child's rusage does not: work moved out of the child shows there. It counts the other
 * processes of the machine too, so it is only meaningful on a quiet one. */
static double machine_busy_s(void)
{
    FILE *f = fopen("/proc/stat", "r");
    unsigned long long user, nice, sys, idle, iowait, irq, softirq;
    int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle,
                       &iowait, &irq, &softirq)
              : 0;
    long hz = sysconf(_SC_CLK_TCK);

    if (f != NULL)
        fclose(f);
    return n == 7 && hz > 0 ? (double)(user + nice + sys + irq + softirq) / (double)hz : -1;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs argv (stdout and stderr to /dev/null); fails unless it exits with 0. */
static int run_child(char *const *argv, child_run *out)
{
    struct rusage ru;
    double start = now_s(), busy = machine_busy_s();
    int status;
    pid_t pid = fork();

    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (freopen("/dev/null", "w", stdout) == NULL || freopen("/dev/null", "w", stderr) == NULL)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    out->wall_s = now_s() - start;
    out->machine_s = busy < 0 ? -1 : machine_busy_s() - busy;
    out->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    out->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + out->sys_s;
    out->maxrss = (long long)ru.ru_maxrss * 1024;
    return 0;
}

typedef struct toolkit_cmd {
    const char *name;
    /* after the CLI's path; "@IN", "@OUT", "@PREFIX", "@SIZE", "@PARTS", and "@CSV", "@JSONL"
     * (the list converted by an earlier row, then read back), "@ELEMENTS" (a CSV of elements) */
    const char *args[8];
    bool time_target;    /* within 1.5x of validate */
} toolkit_cmd;

static const toolkit_cmd toolkit_cmds[] = {
    { "validate", { "validate", "@IN" }, false },
    { "stats", { "stats", "@IN" }, false },
    { "lint", { "lint", "@IN" }, false },
    { "convert", { "convert", "@IN", "@OUT" }, false },
    { "filter --type LINE,BRANCH", { "filter", "--type", "LINE,BRANCH", "@IN", "@OUT" }, true },
    { "split --size K", { "split", "@IN", "--size", "@SIZE", "@PREFIX" }, true },
    { "split --parts 8", { "split", "@IN", "--parts", "8", "@PREFIX" }, true },
    { "merge (8 parts)", { "merge", "@PARTS", "@OUT" }, true },
    { "merge --dedupe first", { "merge", "--dedupe", "first", "@PARTS", "@OUT" }, false },
    { "convert --to csv", { "convert", "--to", "csv", "@IN", "@CSV" }, false },
    { "convert csv -> json", { "convert", "@CSV", "@OUT" }, false },
    { "convert --to jsonl", { "convert", "--to", "jsonl", "@IN", "@JSONL" }, false },
    { "convert jsonl -> json", { "convert", "@JSONL", "@OUT" }, false },
    { "generate --elements", { "generate", "--elements", "@ELEMENTS", "@OUT" }, false },
    /* IN against itself, so that the run exits 0: every id is matched and compared */
    { "diff IN IN", { "diff", "@IN", "@IN" }, false },
};

#define TOOLKIT_CMDS (sizeof toolkit_cmds / sizeof toolkit_cmds[0])

typedef struct toolkit_paths {
    char in[4096], out[4096], prefix[3584], size[32];
    char csv[4096], jsonl[4096], elements[4096];
    char parts[TOOLKIT_PARTS][4096];
} toolkit_paths;

/* argv for `c`: the CLI, then its arguments with the placeholders replaced. */
static size_t build_argv(const toolkit_cmd *c, const char *cli, toolkit_paths *p, char **argv)
{
    size_t n = 0;

    argv[n++] = (char *)cli;
    for (size_t i = 0; i < 8 && c->args[i] != NULL; i++) {
        const char *a = c->args[i];

        if (strcmp(a, "@PARTS") == 0) {
            for (size_t k = 0; k < TOOLKIT_PARTS; k++)
                argv[n++] = p->parts[k];
            continue;
        }
        argv[n++] = strcmp(a, "@IN") == 0       ? p->in
                    : strcmp(a, "@OUT") == 0    ? p->out
                    : strcmp(a, "@PREFIX") == 0 ? p->prefix
                    : strcmp(a, "@SIZE") == 0   ? p->size
                    : strcmp(a, "@CSV") == 0    ? p->csv
                    : strcmp(a, "@JSONL") == 0  ? p->jsonl
                    : strcmp(a, "@ELEMENTS") == 0 ? p->elements
                                                : (char *)a;
    }
    argv[n] = NULL;
    return n;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct toolkit_result {
    double cpu, sys, wall, machine, rss; /* medians; rss the largest */
    double ratio;                        /* median over the rounds of CPU / validate's CPU */
} toolkit_result;

/* Every run of every command: [command][round]. */
typedef struct toolkit_samples {
    double cpu[TOOLKIT_CMDS][TOOLKIT_MAX_RUNS], sys[TOOLKIT_CMDS][TOOLKIT_MAX_RUNS];
    double wall[TOOLKIT_CMDS][TOOLKIT_MAX_RUNS], machine[TOOLKIT_CMDS][TOOLKIT_MAX_RUNS];
    double ratio[TOOLKIT_CMDS][TOOLKIT_MAX_RUNS];
} toolkit_samples;

/* Run `round` of command `i`, its figures put in `s` and its peak RSS into `r`. */
static int run_cmd(size_t i, int round, const char *cli, toolkit_paths *p, toolkit_samples *s,
                   toolkit_result *r)
{
    char *argv[24];
    child_run run;

    build_argv(&toolkit_cmds[i], cli, p, argv);
    if (run_child(argv, &run) != 0) {
        fprintf(stderr, "contingency-bench: toolkit: %s failed\n", toolkit_cmds[i].name);
        return -1;
    }
    s->cpu[i][round] = run.cpu_s;
    s->sys[i][round] = run.sys_s;
    s->wall[i][round] = run.wall_s;
    s->machine[i][round] = run.machine_s;
    /* validate ran first in this round: the ratio of two runs a few seconds apart, which a
     * machine whose speed drifts over the minutes of the section does not bias */
    s->ratio[i][round] = run.cpu_s / s->cpu[0][round];
    r->rss = (double)run.maxrss > r->rss ? (double)run.maxrss : r->rss;
    return 0;
}

/* `runs` rounds, each of which runs every command once in the table's order (a command that
 * reads what another wrote comes after it), then the medians. */
static int time_cmds(const char *cli, toolkit_paths *p, int runs, toolkit_result *r)
{
    static toolkit_samples s; /* some 5 KB a command: off the stack */

    for (size_t i = 0; i < TOOLKIT_CMDS; i++)
        r[i].rss = 0;
    for (int round = 0; round < runs; round++) {
        fprintf(stderr, "contingency-bench: toolkit: round %d of %d\n", round + 1, runs);
        for (size_t i = 0; i < TOOLKIT_CMDS; i++)
            if (run_cmd(i, round, cli, p, &s, &r[i]) != 0)
                return -1;
    }
    for (size_t i = 0; i < TOOLKIT_CMDS; i++) {
        r[i].cpu = median(s.cpu[i], runs);
        r[i].sys = median(s.sys[i], runs);
        r[i].wall = median(s.wall[i], runs);
        r[i].machine = median(s.machine[i], runs);
        r[i].ratio = median(s.ratio[i], runs);
    }
    return 0;
}

/* This process's resident size (VmRSS) in bytes, or -1: the floor of a child's ru_maxrss. */
static double self_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = -1;

    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = strtod(line + 6, NULL);
    }
    if (f != NULL)
        fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

static void print_results(const toolkit_result *r, size_t mb, size_t count, int runs)
{
    const double MB = 1024.0 * 1024.0;

    printf("\ntoolkit (issue 13): contingency-cli on a generated default list of %zu MB, %zu "
           "contingencies; %d round%s, each running every command once; medians; CPU = user + "
           "system of the child (system "
           "time is mostly the kernel's write path for the commands that write the list); "
           "machine = busy CPU of the whole machine meanwhile (other processes included); "
           "CPU/valid. = the median of each round's CPU over validate's in that round\n",
           mb, count, runs, runs > 1 ? "s" : "");
    printf("  %-28s %9s %9s %9s %10s %11s %12s\n", "command", "CPU s", "sys s", "wall s",
           "machine s", "CPU/valid.", "peak RSS MB");
    for (size_t i = 0; i < TOOLKIT_CMDS; i++)
        printf("  %-28s %9.2f %9.2f %9.2f %10.2f %10.2fx %12.1f\n", toolkit_cmds[i].name,
               r[i].cpu, r[i].sys, r[i].wall, r[i].machine, r[i].ratio, r[i].rss / MB);
    printf("  (peak RSS is the child's ru_maxrss; its floor, this process's RSS when it forks, "
           "is %.1f MB)\n",
           self_rss() / MB);
    printf("targets (issue 13; medians of this run):\n");
    for (size_t i = 0; i < TOOLKIT_CMDS; i++)
        printf("  toolkit: %s: peak RSS %.1f MB (target < 32 MB): %s\n", toolkit_cmds[i].name,
               r[i].rss / MB, r[i].rss < TOOLKIT_RSS_TARGET ? "ok" : "MISSED");
    for (size_t i = 0; i < TOOLKIT_CMDS; i++) {
        double x = r[i].ratio;

        if (toolkit_cmds[i].time_target)
            printf("  toolkit: %s vs validate: %.2fx CPU (target <= 1.5x): %s\n",
                   toolkit_cmds[i].name, x, x <= TOOLKIT_TIME_TARGET ? "ok" : "MISSED");
    }
}

/* The floor of a command that writes the whole list: a child that writes as many bytes as the
 * input holds the way the library writes a path (write(2) of 256 KiB pieces to a temporary
 * file beside it, fsync, rename over the previous output), with no reading, parsing or
 * formatting: the pieces repeat the input's first 256 KiB. Its CPU is the kernel's cost of
 * writing those bytes, which no writer can go below; validate already pays for the reading. */
static int copy_like_writer(const char *in, const char *out)
{
    static char piece[256 * 1024];
    char tmp[4200];
    struct stat st;
    int src = open(in, O_RDONLY), dst;
    ssize_t n = src < 0 || fstat(src, &st) != 0 ? -1 : read(src, piece, sizeof piece);
    off_t left = st.st_size;

    snprintf(tmp, sizeof tmp, "%s.floor-tmp", out);
    dst = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (n <= 0 || dst < 0)
        return -1;
    while (left > 0) {
        size_t k = left < (off_t)n ? (size_t)left : (size_t)n;

        if (write(dst, piece, k) != (ssize_t)k)
            return -1;
        left -= (off_t)k;
    }
    close(src);
    if (fsync(dst) != 0 || close(dst) != 0)
        return -1;
    return rename(tmp, out);
}

/* One run of the write floor in a child: its CPU and system time. Returns 0 or -1. */
static int floor_run(const toolkit_paths *p, child_run *out)
{
    struct rusage ru;
    int status;
    double busy = machine_busy_s();
    pid_t pid = fork();

    if (pid == 0)
        _exit(copy_like_writer(p->in, p->out) == 0 ? 0 : 1);
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status)
        || WEXITSTATUS(status) != 0)
        return -1;
    out->machine_s = busy < 0 ? -1 : machine_busy_s() - busy;
    out->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    out->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + out->sys_s;
    return 0;
}

/* The floor once after the commands, then `runs` times more. The first run writes into
 * memory the kernel has not used for a while; on a virtual machine that hands its free
 * memory back to the host (virtio-balloon free page reporting), every such page costs a fault
 * in the host, counted as the writer's system time: about 2 s per GB. The runs after it write
 * into the pages that the file they replace leaves free, as commands run back to back do. */
static void print_write_floor(const toolkit_paths *p, const toolkit_result *validate, int runs)
{
    double cpu[TOOLKIT_MAX_RUNS], sys[TOOLKIT_MAX_RUNS], machine[TOOLKIT_MAX_RUNS];
    child_run first, run;

    for (int i = -1; i < runs; i++) {
        if (floor_run(p, i < 0 ? &first : &run) != 0) {
            fprintf(stderr, "contingency-bench: toolkit: the write floor failed\n");
            return;
        }
        if (i >= 0) {
            cpu[i] = run.cpu_s;
            sys[i] = run.sys_s;
            machine[i] = run.machine_s;
        }
    }
    double c = median(cpu, runs), sy = median(sys, runs), m = median(machine, runs);
    printf("  write floor (the input's size written as a path is written: 256 KiB write(2), "
           "fsync, rename; no reading, no JSON): first run after the commands CPU %.2f s, sys "
           "%.2f s, machine %.2f s; then, into the pages the replaced file freed, CPU %.2f s, "
           "sys %.2f s, machine %.2f s; validate + floor = %.2fx validate, the least a command "
           "writing the whole list can take\n",
           first.cpu_s, first.sys_s, first.machine_s, c, sy, m, (validate->cpu + c) / validate->cpu);
}

/* The list, the output and the parts (--size may make a few more than --parts). */
static void remove_files(const toolkit_paths *p, const char *dir)
{
    char part[4200];

    unlink(p->in);
    unlink(p->out);
    unlink(p->csv);
    unlink(p->jsonl);
    unlink(p->elements);
    for (size_t k = 1; k <= 4 * TOOLKIT_PARTS; k++) {
        snprintf(part, sizeof part, "%s-%04zu.json", p->prefix, k);
        unlink(part);
    }
    rmdir(dir);
}

static int run_all(const char *cli, toolkit_paths *p, size_t mb, int runs)
{
    toolkit_result r[TOOLKIT_CMDS];
    size_t count;

    fprintf(stderr, "contingency-bench: toolkit: generating %zu MB\n", mb);
    if (generate_list(p->in, mb, &count) != 0)
        return fprintf(stderr, "contingency-bench: toolkit: cannot write %s\n", p->in), -1;
    snprintf(p->size, sizeof p->size, "%zu", count * 6 / 5 / TOOLKIT_PARTS + 1);
    /* 4096 rows per MB of the list: 4 million for 1 GB, a CSV of about 100 MB */
    if (generate_elements(p->elements, mb * 4096) != 0)
        return fprintf(stderr, "contingency-bench: toolkit: cannot write %s\n", p->elements), -1;
    if (time_cmds(cli, p, runs, r) != 0)
        return -1;
    print_results(r, mb, count, runs);
    print_write_floor(p, &r[0], runs);
    return 0;
}

int bench_toolkit_run(const char *cli, size_t mb, int runs)
{
    const char *tmp = getenv("TMPDIR");
    char dir[3072]; /* short enough for every name below */
    toolkit_paths p;
    int rc;

    runs = runs < 1 ? 1 : runs > TOOLKIT_MAX_RUNS ? TOOLKIT_MAX_RUNS : runs;
    snprintf(dir, sizeof dir, "%s/ctg-toolkit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL)
        return fprintf(stderr, "contingency-bench: toolkit: %s: %s\n", dir, strerror(errno)), -1;
    memset(&p, 0, sizeof p);
    snprintf(p.in, sizeof p.in, "%s/list.json", dir);
    snprintf(p.out, sizeof p.out, "%s/out.json", dir);
    snprintf(p.csv, sizeof p.csv, "%s/list.csv", dir);
    snprintf(p.jsonl, sizeof p.jsonl, "%s/list.jsonl", dir);
    snprintf(p.elements, sizeof p.elements, "%s/elements.csv", dir);
    snprintf(p.prefix, sizeof p.prefix, "%s/part", dir);
    for (size_t k = 0; k < TOOLKIT_PARTS; k++)
        snprintf(p.parts[k], sizeof p.parts[k], "%s-%04zu.json", p.prefix, k + 1);
    rc = run_all(cli, &p, mb, runs);
    remove_files(&p, dir);
    return rc;
}
