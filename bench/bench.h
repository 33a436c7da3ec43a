/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BENCH_H
#define CTG_BENCH_H

/* contingency-bench internals: the timed runners, their input, timing, the extra sections
 * (absent field, scaling, memory) and reporting. */

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "ctg/ctg.h"
#include "gen.h"

/* What a runner returns: a run worked, failed, or cannot run on this input (a list kind or
 * a library function that does not exist yet); `why` then says which. */
enum { BENCH_OK = 0, BENCH_FAIL = -1, BENCH_UNSUPPORTED = 1 };

#define BENCH_WHY_MAX 512

/* One case, prepared once and shared by every runner. */
typedef struct bench_input {
    const bench_gen_case *gen;
    bench_bytes bytes;      /* the generated document */
    const bench_bytes *alt; /* a second document, for runners that compare two */
    ctg_list *list;         /* read once, for the ctg writers */
    json_object *dom;       /* parsed once, for the json-c writer */
    json_tokener *tokener;  /* reused (reset) by each json-c parse */
    ctg_buf out;            /* reused (cleared) by each ctg write */
    ctg_buf out2;           /* the same, for the stream writer (compared with `out`) */
    size_t resolves_cached; /* handler look-ups of one read, with and without the cache */
    size_t resolves_nocache;
    bool resolves_known;
    size_t written;          /* bytes of the last write: writers' MB/s count them */
    /* The in-situ reader's writable copy of `bytes`, which its reset refreshes before each run;
     * empty in a --process child, whose one run rewrites `bytes` itself. */
    bench_bytes situ;
    char why[BENCH_WHY_MAX]; /* why the last run failed or is unsupported */
} bench_input;

/* A timed operation over a prepared input: one call is one run. */
typedef struct bench_runner {
    const char *name;
    const char *what; /* what one run does, for --help */
    bool writer;      /* MB/s counts the bytes written, not the case's */
    int (*run)(bench_input *in);
    /* Run once before timing: checks the result (counts, bytes) and prepares what later
     * runners use. NULL: one plain run. */
    int (*check)(bench_input *in);
    /* Run before each timed run, untimed: restores what a run used up (NULL: nothing). A
     * --process child makes its one run without it. */
    int (*reset)(bench_input *in);
} bench_runner;

/* The runners, in report order; their number in `*count`. ctg-read comes first. */
const bench_runner *bench_runners(size_t *count);
/* The runner named `name`, or NULL. */
const bench_runner *bench_runner_find(const char *name);
/* The '"' in `len` bytes of `data`, found by memchr: the memchr-floor runners' one pass, the
 * work a JSON tokenizer cannot avoid. */
size_t bench_count_quotes(const char *data, size_t len);

/* Sets `in` up for `c`: generates it, nothing else. -1 when out of memory. */
int bench_input_init(bench_input *in, const bench_gen_case *c);
void bench_input_dispose(bench_input *in);
/* Sets `in->why` from printf-style arguments; returns `rc`. */
int bench_why(bench_input *in, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Timing of one runner: the statistics of its timed runs. */
typedef struct bench_result {
    const char *name;
    bool supported;
    char why[BENCH_WHY_MAX]; /* when unsupported */
    size_t bytes;            /* what MB/s counts */
    double median_ms, min_ms, max_ms;
    double mb_per_s;    /* bytes / median */
    double faults;      /* minor page faults of a run: the median over the timed runs */
    long long peak_rss; /* bytes, -1 when not measured */
} bench_result;

/* Runs every runner's check once, in order. A failing check (BENCH_FAIL) fails the whole bench,
 * with a message naming the case and the runner; a runner that declares the case outside its
 * scope (BENCH_UNSUPPORTED) is reported as unsupported, with why. Fills out[i].name,
 * .supported, .why, .bytes; -1 on a failure. */
int bench_prepare(const bench_runner *runners, size_t n, bench_input *in, bench_result *out);

/* The clock of bench_time: the thread's CPU time (default) or the wall clock. */
void bench_set_clock(bool cpu);
bool bench_clock_is_cpu(void);
/* Now, by that clock, in nanoseconds. */
long long bench_now_ns(void);

/* Times the supported runners of out[0..n-1]: `warmup` untimed rounds, then `runs` timed ones;
 * every round runs each runner once, so all get the same number of runs. -1 when a run
 * fails. */
int bench_time(const bench_runner *runners, size_t n, bench_input *in, int warmup, int runs,
               bench_result *out);

/* `reps` runs of `r` back to back; the time of one in `*ms`. -1 when a run fails. */
int bench_time_batch(const bench_runner *r, bench_input *in, int reps, double *ms);
/* Sorts `samples` and sets out's median, min, max and MB/s (from out->bytes). */
void bench_summarize(double *samples, int runs, bench_result *out);
/* Sorts `faults` (minor page faults of each run) and sets out->faults to their median. */
void bench_summarize_faults(double *faults, int runs, bench_result *out);
/* This process's minor page faults so far. */
long bench_minor_faults(void);

/* The jsonc-dom-map runner's work: the json-c DOM `root`, a `default` list, walked into a new ctg
 * list through the public builders. BENCH_OK, BENCH_FAIL, or BENCH_UNSUPPORTED for another kind
 * or extensions (no public builder attaches one), with in->why set. */
int bench_jsonc_map(bench_input *in, json_object *root, ctg_list **out);

/* One case's report. results[0] is ctg-read, the reference of the ratios. */
typedef struct bench_case_report {
    const bench_gen_case *gen;
    size_t bytes;
    int warmup, runs;
    size_t resolves_cached, resolves_nocache;
    bool resolves_known;
    bench_result *results; /* owned */
    size_t count;
    /* --process: the same runners (readers only), each run a fresh process; owned, `count` */
    bench_result *process;
    bool process_done;
} bench_case_report;

/* --process (process.c): `runs` rounds of the readers of `c` that ran in-process, each run in a
 * child reading `doc` from a temporary file; fills c->process. 0, or -1 after printing why. */
int bench_process_run(bench_case_report *c, const bench_bytes *doc);
/* The hidden child mode of --process: `--process-child RUNNER CASE FILE`; exit status. */
int bench_process_child(const char *runner, const char *case_name, const char *path);

/* The absent-field micro-benchmark: one BRANCH per contingency, `name` absent or present. */
typedef struct bench_absent_variant {
    const char *label;
    size_t bytes;
    double ns_per_contingency;    /* median */
    double calls_per_contingency; /* allocator calls (alloc + resize), chunked arena */
    double exact_requests;        /* arena requests per contingency (exact arena, slope) */
    double over_required;         /* exact_requests minus the required ones */
} bench_absent_variant;

typedef struct bench_absent_report {
    bool done;
    size_t contingencies;
    int runs;
    double required; /* requests a contingency needs: id, element array, element ids */
    bench_absent_variant absent, present;
} bench_absent_report;

/* The flooding section: full reads of one extension object of `keys` keys that collide in the
 * old unkeyed duplicate-key table, and of as many random keys, timed in the same rounds. */
typedef struct bench_flood_report {
    bool done;
    size_t keys;
    int runs;
    bench_result colliding, random; /* bytes: each document's */
} bench_flood_report;

/* One point of the scaling curve. */
typedef struct bench_scaling_point {
    size_t contingencies;
    size_t bytes;
    int runs;               /* samples */
    int batch;              /* reads per sample: small lists are read several times per sample */
    double read_mb_per_s;   /* 0 when not run (10M: streamed only) */
    double stream_mb_per_s; /* 0 when the stream read is unsupported */
    double floor_mb_per_s;
} bench_scaling_point;

#define BENCH_MAX_SCALING 4

/* Peak RSS of a child process that reads the memory case's file one way. */
typedef struct bench_memory_result {
    const char *mode; /* "baseline", "full", "stream", "jsonc" */
    const char *what;
    bool supported;
    char why[BENCH_WHY_MAX];
    long long peak_rss;  /* bytes: the child's own VmHWM */
    long long ru_maxrss; /* bytes: from wait4, which counts the parent's RSS at spawn too */
} bench_memory_result;

#define BENCH_MAX_MEMORY 5

/* The children of one memory case: the file they read and what each peaked at. */
typedef struct bench_memory_case {
    const char *name;
    size_t file_bytes;
    bench_memory_result children[BENCH_MAX_MEMORY];
    size_t count;
} bench_memory_case;

/* ---- the network section (network.c) ---- */

/* The runners of the network section: imports and their floors, then resolves. */
enum {
    BENCH_NET_XIIDM,
    BENCH_NET_EXPAT,
    BENCH_NET_JIIDM,
    BENCH_NET_MEMCHR,
    BENCH_NET_ABSENT,
    BENCH_NET_LINES,
    BENCH_NET_PROPERTY,
    BENCH_NET_IDS,
    BENCH_NET_DEFAULT,
    BENCH_NET_RUNNERS
};

/* One network size of the scaling curve: a resolve's median over the network's objects. */
typedef struct bench_net_scaling_point {
    size_t substations, objects;
    int runs, batch;
    double lines_ns_per_object;    /* the N-1 lineCriterion; 0 when not run */
    double property_ns_per_object; /* the property criterion list */
} bench_net_scaling_point;

#define BENCH_NET_MAX_SCALING 3

typedef struct bench_net_report {
    bool done;
    const char *name, *summary; /* the network case */
    size_t substations, objects;
    size_t xml_bytes, json_bytes;
    int warmup, runs;
    bench_result results[BENCH_NET_RUNNERS];
    size_t items[BENCH_NET_RUNNERS];         /* what ns/item counts (0: MB/s only) */
    size_t contingencies[BENCH_NET_RUNNERS]; /* a resolve's result, checked before timing */
    bool memory_known;
    size_t memory_size; /* ctg_network_memory_size after the XIIDM import */
    size_t alloc_peak;  /* the import's peak of live bytes, through counting allocator hooks */
    bool dumps_equal;   /* both imports' ctg_network_write_json, byte for byte */
    size_t dump_bytes;
    char dump_diff[256]; /* where they differ, "" when equal */
    bench_net_scaling_point scaling[BENCH_NET_MAX_SCALING];
    size_t scaling_count;
} bench_net_report;

/* A network case: the synthetic network of `substations` substations. */
typedef struct bench_net_case {
    const char *name;
    const char *summary;
    size_t substations;
    size_t identifiers;   /* of the ID_BASED list */
    size_t contingencies; /* of the default list */
    unsigned flags;       /* BENCH_CASE_QUICK, BENCH_CASE_DEFAULT */
    int runs;
} bench_net_case;

const bench_net_case *bench_net_cases(size_t *count);
const bench_net_case *bench_net_case_find(const char *name);

/* The threads section (threads.c): one case read with threads = 1 and 2, by the wall clock. */
#define BENCH_THREADS_MAX_RUNS 101
typedef struct bench_threads_report {
    bool done;
    const char *name;        /* the case */
    size_t bytes;
    int runs;
    bench_result one[3], two[3]; /* threads = 1, 2: wall, thread CPU, process CPU */
    size_t parts;            /* the parts the two-thread read took */
    bool identical;          /* both lists written back to the same bytes */
    size_t written;          /* bytes of each */
    double load_before, load_after; /* the 1-minute load average around the timed runs */
} bench_threads_report;

#define BENCH_MAX_MEMORY_CASES 2
#define BENCH_MAX_CASES 16

/* Everything one run measured, reported at the end. */
typedef struct bench_report {
    bool quick;
    bool malloc_tuning;
    bench_case_report cases[BENCH_MAX_CASES];
    size_t case_count;
    bench_absent_report absent;
    bench_flood_report flood;
    bench_scaling_point scaling[BENCH_MAX_SCALING];
    size_t scaling_count;
    bench_memory_case memory[BENCH_MAX_MEMORY_CASES]; /* in the order measured */
    size_t memory_case_count;                         /* 0: the memory section did not run */
    bench_net_report network;
    bench_threads_report threads;
} bench_report;

/* The sections (absent.c, flood.c, scaling.c, memory.c); each returns 0 or -1 after printing
 * why. */
int bench_absent_run(bench_report *rep, size_t contingencies, int runs);
/* `keys`: at most BENCH_KEY_MAX (gen_hostile.h). */
int bench_flood_run(bench_report *rep, size_t keys, int runs);
/* Appends the flooding section's document of `count` keys, colliding or random; 0 or -1. */
int bench_flood_doc(bench_bytes *out, size_t count, bool colliding);
/* The colliding read's median over the random one's; 0 when the section did not run. */
double bench_flood_ratio(const bench_flood_report *f);
int bench_scaling_run(bench_report *rep, const size_t *sizes, size_t count, int runs);
/* Appends a memory case for `c` to rep->memory (at most BENCH_MAX_MEMORY_CASES). */
int bench_memory_run(bench_report *rep, const bench_gen_case *c, bool with_jsonc);
/* The hidden child mode of the memory section: `--rss-child MODE FILE COUNT`; exit status. */
int bench_memory_child(const char *mode, const char *path, const char *count);

/* The threads section: `c` read with threads = 1 and 2 in `runs` alternating pairs, printed
 * with the rest; 0 or -1. The ratio is threads=1's median over threads=2's, 0 when not run. */
int bench_threads_run(bench_report *rep, const bench_gen_case *c, int runs);
void bench_threads_print(const bench_threads_report *t);
void bench_threads_print_json(const bench_threads_report *t);
double bench_threads_ratio(const bench_threads_report *t);

/* The network section: imports, floors and resolves of `c`, then the scaling curve over
 * networks of `scaling_count` sizes (objects: about 10k, 100k, 1M; --quick: smaller).
 * `runs` 0: the case's. 0, or -1 after printing why. */
int bench_network_run(bench_report *rep, const bench_net_case *c, int runs, bool quick);
/* `--generate` of a network case's documents ("net10k.xiidm", "net10k.jiidm"); 1 when `name`
 * is none of them, else 0 or -1 (out of memory). */
int bench_network_generate(const char *name, bench_bytes *out);

/* The generate section (generate.c): all-pairs over 5,000 lines against its floor, then the
 * N-1 and parallel N-2 of `c` (NULL: skipped), printed as they are measured. 0 or -1. */
int bench_generate_run(const bench_net_case *c, int runs, bool quick);

/* Output (report.c). */
void bench_print_header(const bench_report *rep, const char *command);
void bench_print_tables(const bench_report *rep);
void bench_print_json(const bench_report *rep);
void bench_print_targets(const bench_report *rep);
/* The network section's table, and its member of the --json object (network_report.c). */
void bench_net_print(const bench_net_report *r);
void bench_net_print_json(const bench_net_report *r);

/* The toolkit section (toolkit.c): contingency-cli at `cli` run on a generated `default` list
 * of `mb` MB, `runs` times per subcommand; prints its table and targets. 0 or -1. */
int bench_toolkit_run(const char *cli, size_t mb, int runs);

/* The sa section: an action list and an operator-strategy list of the sizes (a tenth
 * with `quick`), read and written `runs` times (0: the default) against the memchr floor, a
 * table printed. 0, or -1 after saying why on stderr. */
int bench_sa_run(int runs, bool quick);

#endif
