/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-bench: times ctg against json-c and the memchr floor on generated lists, then
 * measures the absent-field cost, reads of colliding against random keys (hash flooding), the
 * scaling curve and the peak memory of a full and a streamed load; then imports of a synthetic
 * network (XIIDM, JIIDM) and resolves of lists against it. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "bench.h"
#include "bench/gen_hostile.h"

/* Sections of a run (--sections). */
enum {
    SECTION_CASES = 1u << 0,
    SECTION_ABSENT = 1u << 1,
    SECTION_SCALING = 1u << 2,
    SECTION_MEMORY = 1u << 3,
    SECTION_FLOODING = 1u << 4,
    SECTION_NETWORK = 1u << 5,
    SECTION_GENERATE = 1u << 6,
    /* Not in ALL: it writes a 1 GB list and runs the CLI on it for minutes. */
    SECTION_TOOLKIT = 1u << 7,
    SECTION_THREADS = 1u << 8,
    SECTION_SA = 1u << 9,
    SECTION_ALL = 0x7Fu | SECTION_THREADS | SECTION_SA
};

/* Keys of the flooding section's documents: BENCH_KEY_MAX, or this with --quick. */
#define QUICK_FLOOD_KEYS ((size_t)8192)

typedef struct bench_options {
    bool json;
    bool quick;
    bool malloc_tuning;
    bool wall_clock;
    bool process; /* --process: the readers in fresh processes too */
    int repeat; /* 0: the default of each case and section */
    const bench_gen_case *cases[BENCH_MAX_CASES];
    size_t case_count;
    const bench_net_case *net_case; /* --cases naming a network case */
    unsigned sections;              /* 0: not given */
    const char *generate;           /* --generate CASE */
    const char *rss_child;          /* hidden: --rss-child MODE FILE COUNT */
    const char *rss_path, *rss_count;
    const char *process_child[3]; /* hidden: --process-child RUNNER CASE FILE */
    const char *cli;   /* --cli PATH: the contingency-cli of the toolkit section */
    size_t toolkit_mb; /* --toolkit-mb N: its list's size */
} bench_options;

/* The network section's cases and runners. */
static void print_net_help(void)
{
    size_t n;
    const bench_net_case *nets = bench_net_cases(&n);

    for (size_t i = 0; i < n; i++)
        printf("  %-22s network section: %s\n", nets[i].name, nets[i].summary);
    printf("  %-22s resolved against it: a lineCriterion (N-1 of FR at 225-400 kV), a property\n"
           "  %-22s criterion list, 100,000 ID_BASED identifiers, a default list of 1,000,000\n"
           "  %-22s contingencies (net-quick: 10,000 and 100,000), each read once beforehand;\n"
           "  %-22s runners xiidm-import, expat-floor, jiidm-import, jiidm-memchr-floor,\n"
           "  %-22s jiidm-memchr-absent, resolve-n1-lines, resolve-property,\n"
           "  %-22s resolve-id-based, resolve-default\n",
           "", "", "", "", "", "");
}

/* The cases of --cases and --generate, for --help. */
static void print_cases_help(void)
{
    size_t n;
    const bench_gen_case *cases = bench_gen_cases(&n);

    printf("\ncases:\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-22s %s\n", cases[i].name, cases[i].summary);
    print_net_help();
    printf("  %-22s %s\n  %-22s %s\n", "keys-colliding",
           "--generate only: the flooding section's 65,536 colliding keys, ~4.2 MB", "keys-random",
           "--generate only: its 65,536 random keys of the same length");
}

static void print_help(void)
{
    size_t n;
    const bench_runner *runners = bench_runners(&n);

    printf("usage: contingency-bench [--json] [--quick] [--repeat N] [--cases LIST]\n"
           "                         [--sections LIST] [--no-malloc-tuning] [--wall-clock]\n"
           "                         [--process]\n"
           "       contingency-bench --generate CASE > FILE\n"
           "       contingency-bench --generate NETCASE.xiidm|NETCASE.jiidm > FILE\n\n"
           "Times each runner on each case in interleaved rounds (each round runs every runner\n"
           "once) and reports the median, min and max; then the absent-field cost, reads of\n"
           "65,536 keys colliding in an unkeyed hash against random ones, the scaling curve and\n"
           "the peak RSS of processes that load or stream b1m and ext100k; then the network\n"
           "section: a synthetic network imported from XIIDM and JIIDM against their floors,\n"
           "lists resolved against it, and resolves over networks of 10k, 100k and 1M\n"
           "objects. Ends with the targets.\n\n"
           "  --json              one JSON object instead of the tables\n"
           "  --quick             b10k, mixed10k, ext10k, kinds and net-quick, small lists,\n"
           "                      8,192 keys and small networks elsewhere, 3 runs: checks that\n"
           "                      everything still works (CI)\n"
           "  --repeat N          timed runs of each case, the absent-field and the flooding\n"
           "                      benchmarks\n"
           "                      (default: b10k, kinds 31; mixed100k, ext100k 21; b1m 3;\n"
           "                      absent, flooding 21; net10k 5)\n"
           "  --cases LIST        comma-separated cases (alone, it runs only the case tables)\n"
           "  --sections LIST     of cases,absent,scaling,memory,flooding,threads,network,\n"
           "                      generate,sa (default: all) and toolkit (only when named):\n"
           "                      contingency-cli's filter, split, merge, validate, stats and\n"
           "                      convert as child processes on a generated list of 1024 MB\n"
           "                      (--quick: 16), --repeat runs (default 3, --quick 1); peak RSS\n"
           "                      and CPU time vs validate\n"
           "  --toolkit-mb N      the toolkit section's list size in MB\n"
           "  --cli PATH          the contingency-cli it runs (default: the one built beside)\n"
           "  --no-malloc-tuning  keep glibc's malloc settings (default: no mmap and no trim,\n"
           "                      so freed memory is reused between runs, not faulted in again)\n"
           "  --wall-clock        time runs by the wall clock (default: the thread's CPU time,\n"
           "                      which time given to other processes does not inflate)\n"
           "  --process           also time each reader of each case in a fresh process per\n"
           "                      run, with glibc's malloc defaults and the file read into\n"
           "                      memory first: what a one-shot program gets\n\n"
           "runners:\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-22s %s\n", runners[i].name, runners[i].what);
    print_cases_help();
}

static int usage_error(const char *message, const char *arg)
{
    fprintf(stderr, "contingency-bench: %s%s%s\nTry 'contingency-bench --help'.\n", message,
            arg ? ": " : "", arg ? arg : "");
    return 2;
}

/* Calls `each` with every item of the comma-separated `list`; 0, or 2 after a usage error. */
static int for_each_name(bench_options *opts, const char *list,
                         int (*each)(bench_options *opts, const char *name))
{
    char name[64];

    for (const char *p = list; *p != '\0';) {
        size_t len = strcspn(p, ",");
        int rc;

        if (len == 0 || len >= sizeof name)
            return usage_error("bad list", list);
        memcpy(name, p, len);
        name[len] = '\0';
        if ((rc = each(opts, name)) != 0)
            return rc;
        p += len + (p[len] == ',');
    }
    return 0;
}

static int add_case(bench_options *opts, const char *name)
{
    const bench_gen_case *c = bench_gen_find(name);

    if (c == NULL && bench_net_case_find(name) != NULL) {
        opts->net_case = bench_net_case_find(name);
        return 0;
    }
    if (c == NULL)
        return usage_error("unknown case", name);
    if (opts->case_count == BENCH_MAX_CASES)
        return usage_error("too many cases", name);
    opts->cases[opts->case_count++] = c;
    return 0;
}

static int add_section(bench_options *opts, const char *name)
{
    static const char *const names[] = { "cases",  "absent",   "scaling",
                                         "memory", "flooding", "network",
                                         "generate", "toolkit",  "threads", "sa" };

    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(names[i], name) == 0) {
            opts->sections |= 1u << i;
            return 0;
        }
    }
    return usage_error("unknown section", name);
}

static int parse_repeat(bench_options *opts, const char *arg)
{
    char *end;
    long n = strtol(arg, &end, 10);

    if (end == arg || *end != '\0' || n < 1 || n > 1000000)
        return usage_error("--repeat needs a count from 1 to 1000000", arg);
    opts->repeat = (int)n;
    return 0;
}

/* Options with a value; *used is set when `a` is one of them. */
static int parse_valued(bench_options *opts, int argc, char **argv, int *i, bool *used)
{
    const char *a = argv[*i];

    *used = true;
    if (*i + 1 >= argc) {
        *used = strcmp(a, "--repeat") == 0 || strcmp(a, "--cases") == 0 ||
                strcmp(a, "--sections") == 0 || strcmp(a, "--generate") == 0 ||
                strcmp(a, "--cli") == 0 || strcmp(a, "--toolkit-mb") == 0;
        return *used ? usage_error("missing value", a) : 0;
    }
    if (strcmp(a, "--repeat") == 0)
        return parse_repeat(opts, argv[++*i]);
    if (strcmp(a, "--cases") == 0)
        return for_each_name(opts, argv[++*i], add_case);
    if (strcmp(a, "--sections") == 0)
        return for_each_name(opts, argv[++*i], add_section);
    if (strcmp(a, "--generate") == 0) {
        opts->generate = argv[++*i];
        return 0;
    }
    if (strcmp(a, "--cli") == 0) {
        opts->cli = argv[++*i];
        return 0;
    }
    if (strcmp(a, "--toolkit-mb") == 0) {
        char *end;
        long n = strtol(argv[++*i], &end, 10);

        if (*end != '\0' || n < 1 || n > 1000000)
            return usage_error("--toolkit-mb needs a size in MB from 1 to 1000000", argv[*i]);
        opts->toolkit_mb = (size_t)n;
        return 0;
    }
    if (strcmp(a, "--process-child") == 0 && *i + 3 < argc) {
        for (int k = 0; k < 3; k++)
            opts->process_child[k] = argv[++*i];
        return 0;
    }
    if (strcmp(a, "--rss-child") == 0 && *i + 3 < argc) {
        opts->rss_child = argv[++*i];
        opts->rss_path = argv[++*i];
        opts->rss_count = argv[++*i];
        return 0;
    }
    *used = false;
    return 0;
}

/* Returns 0 to go on, 1 after --help, 2 after a usage error. */
static int parse_options(bench_options *opts, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool used;
        int rc = parse_valued(opts, argc, argv, &i, &used);

        if (rc != 0)
            return rc;
        if (used)
            continue;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return print_help(), 1;
        if (strcmp(a, "--json") == 0)
            opts->json = true;
        else if (strcmp(a, "--quick") == 0)
            opts->quick = true;
        else if (strcmp(a, "--no-malloc-tuning") == 0)
            opts->malloc_tuning = false;
        else if (strcmp(a, "--wall-clock") == 0)
            opts->wall_clock = true;
        else if (strcmp(a, "--process") == 0)
            opts->process = true;
        else
            rc = usage_error("unknown option", a);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* glibc gives freed memory back to the kernel between runs (its trim and mmap thresholds),
 * so every run would pay a page fault per page for memory a long-running program reuses.
 * Set once here, the same for every runner, json-c included. Raising M_MMAP_THRESHOLD is not
 * enough: glibc caps it at 32 MiB, so a bigger block (the contingency array of a 1M list is
 * 48 MB) would still be mapped and faulted in afresh by every run; no mmap at all is. */
static void tune_malloc(bool on)
{
#ifdef __GLIBC__
    if (on) {
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, -1); /* mallopt(3): -1 disables trimming */
    }
#else
    (void)on;
#endif
}

/* Each case and section starts from an empty heap, as in a new process: without this, the
 * millions of small blocks json-c freed in one case (its b1m DOM is 2.2 GB) stay in malloc's
 * bins and the ctg reads of the next sections measurably slow down (the absent-field read
 * took 282 ns a contingency after the case tables, 152 ns in a new process). */
static void reset_heap(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* A case, or one of the flooding section's documents ("keys-colliding", "keys-random"). */
static int generate(const char *name)
{
    const bench_gen_case *c = bench_gen_find(name);
    bool colliding = strcmp(name, "keys-colliding") == 0;
    bench_bytes bytes = BENCH_BYTES_INIT;
    int rc = 0;

    int net = c == NULL ? bench_network_generate(name, &bytes) : 1;

    if (c == NULL && net == 1 && !colliding && strcmp(name, "keys-random") != 0)
        return usage_error("unknown case", name);
    if (net == -1 ||
        (net == 1 && (c != NULL ? bench_gen_generate(c, &bytes)
                                : bench_flood_doc(&bytes, BENCH_KEY_MAX, colliding)) != 0)) {
        fprintf(stderr, "contingency-bench: out of memory\n");
        rc = 1;
    } else if (fwrite(bytes.data, 1, bytes.len, stdout) != bytes.len || fflush(stdout) != 0) {
        perror("contingency-bench: <stdout>");
        rc = 1;
    }
    bench_bytes_dispose(&bytes);
    return rc;
}

static void progress(const char *fmt, const char *name)
{
    if (isatty(STDERR_FILENO)) {
        fprintf(stderr, fmt, name);
        fputc('\n', stderr);
    }
}

static int run_case(const bench_options *opts, const bench_gen_case *c, bench_case_report *rep)
{
    size_t n;
    const bench_runner *runners = bench_runners(&n);
    bench_input in;
    int rc;

    memset(rep, 0, sizeof *rep);
    rep->gen = c;
    rep->runs = opts->repeat ? opts->repeat : opts->quick ? 3 : c->runs;
    rep->warmup = opts->quick ? 1 : 1 + rep->runs / 6;
    if ((rep->results = calloc(n, sizeof *rep->results)) == NULL)
        return -1;
    rep->count = n;
    progress("contingency-bench: timing %s", c->name);
    if ((rc = bench_input_init(&in, c)) == 0)
        rc = bench_prepare(runners, n, &in, rep->results);
    if (rc == 0)
        rc = bench_time(runners, n, &in, rep->warmup, rep->runs, rep->results);
    rep->bytes = in.bytes.len;
    rep->resolves_cached = in.resolves_cached;
    rep->resolves_nocache = in.resolves_nocache;
    rep->resolves_known = in.resolves_known;
    if (rc == 0 && opts->process) {
        progress("contingency-bench: timing %s in fresh processes", c->name);
        rc = bench_process_run(rep, &in.bytes);
    }
    bench_input_dispose(&in);
    return rc;
}

static int run_cases(const bench_options *opts, bench_report *rep)
{
    for (size_t i = 0; i < opts->case_count; i++) {
        reset_heap();
        if (run_case(opts, opts->cases[i], &rep->cases[rep->case_count++]) != 0)
            return -1;
    }
    return 0;
}

/* The network case of a full run, or of --quick; NULL when the section is not built. */
static const bench_net_case *default_net_case(bool quick)
{
    size_t n;
    const bench_net_case *all = bench_net_cases(&n);

    for (size_t i = 0; i < n; i++) {
        if (all[i].flags & (quick ? BENCH_CASE_QUICK : BENCH_CASE_DEFAULT))
            return &all[i];
    }
    return NULL;
}

static int run_network(const bench_options *opts, bench_report *rep)
{
    const bench_net_case *c = opts->net_case ? opts->net_case : default_net_case(opts->quick);

    if (c == NULL) {
        /* built with -DCTG_BUILD_NETWORK=OFF: no network to import */
        fprintf(stderr, "contingency-bench: no network section (built without libctg_network)\n");
        return 0;
    }
    progress("contingency-bench: network section, %s", c->name);
    return bench_network_run(rep, c, opts->repeat, opts->quick);
}

/* --repeat N, or the section's own default in quick and full runs. */
static int runs_or(const bench_options *opts, int quick, int full)
{
    return opts->repeat ? opts->repeat : opts->quick ? quick : full;
}

/* The sections over generated lists: cases, absent, flooding, scaling, memory, threads. */
static int run_list_sections(const bench_options *opts, bench_report *rep)
{
    static const size_t sizes[] = { 10000, 100000, 1000000, 10000000 };
    unsigned s = opts->sections;

    if ((s & SECTION_CASES) && run_cases(opts, rep) != 0)
        return -1;
    reset_heap();
    if (s & SECTION_ABSENT) {
        progress("contingency-bench: %s", "absent-field benchmark");
        if (bench_absent_run(rep, opts->quick ? 10000 : 100000, runs_or(opts, 3, 21)) != 0)
            return -1;
    }
    reset_heap();
    if (s & SECTION_FLOODING) {
        progress("contingency-bench: %s", "flooding");
        if (bench_flood_run(rep, opts->quick ? QUICK_FLOOD_KEYS : BENCH_KEY_MAX,
                            runs_or(opts, 3, 21)) != 0)
            return -1;
    }
    reset_heap();
    if (s & SECTION_SCALING) {
        progress("contingency-bench: %s", "scaling");
        if (bench_scaling_run(rep, sizes, opts->quick ? 2 : 4, opts->quick ? 3 : 5) != 0)
            return -1;
    }
    if (s & SECTION_MEMORY) {
        progress("contingency-bench: %s", "memory");
        if (bench_memory_run(rep, bench_gen_find(opts->quick ? "b10k" : "b1m"), true) != 0 ||
            bench_memory_run(rep, bench_gen_find(opts->quick ? "ext10k" : "ext100k"), true) != 0)
            return -1;
    }
    reset_heap();
    if (s & SECTION_THREADS) {
        progress("contingency-bench: %s", "threads");
        if (bench_threads_run(rep, bench_gen_find(opts->quick ? "b10k" : "b1m"),
                              runs_or(opts, 3, 7)) != 0)
            return -1;
    }
    return 0;
}

static int run_sections(const bench_options *opts, bench_report *rep)
{
    unsigned s = opts->sections;

    if (run_list_sections(opts, rep) != 0)
        return -1;
    reset_heap();
    if ((s & SECTION_NETWORK) && run_network(opts, rep) != 0)
        return -1;
    reset_heap();
    if (s & SECTION_GENERATE) {
        progress("contingency-bench: %s", "generate");
        if (bench_generate_run(opts->net_case ? opts->net_case : default_net_case(opts->quick),
                               opts->repeat, opts->quick) != 0)
            return -1;
    }
    reset_heap();
    if (s & SECTION_SA) {
        progress("contingency-bench: %s", "security-analysis documents");
        if (bench_sa_run(opts->repeat, opts->quick) != 0)
            return -1;
    }
    return 0;
}

/* The toolkit section prints its own table and targets, after the others. */
static int run_toolkit(const bench_options *opts)
{
    size_t mb = opts->toolkit_mb ? opts->toolkit_mb : opts->quick ? 16 : 1024;
    int runs = runs_or(opts, 1, 3);

    if (opts->cli == NULL) {
        fprintf(stderr, "contingency-bench: toolkit: no contingency-cli; give --cli PATH\n");
        return -1;
    }
    return bench_toolkit_run(opts->cli, mb, runs);
}

/* The default cases: those of --quick, or those of a full run. */
static void default_cases(bench_options *opts)
{
    size_t n;
    const bench_gen_case *all = bench_gen_cases(&n);
    unsigned want = opts->quick ? BENCH_CASE_QUICK : BENCH_CASE_DEFAULT;

    for (size_t i = 0; i < n && opts->case_count < BENCH_MAX_CASES; i++) {
        if (all[i].flags & want)
            opts->cases[opts->case_count++] = &all[i];
    }
}

static void command_line(int argc, char **argv, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "contingency-bench");

    for (int i = 1; i < argc && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, " %s", argv[i]);
}

static void free_report(bench_report *rep)
{
    for (size_t i = 0; i < rep->case_count; i++) {
        free(rep->cases[i].results);
        free(rep->cases[i].process);
    }
}

/* Without --sections: the case tables for --cases, the network section for a network case,
 * else all; without --cases, the default cases. */
static void default_sections(bench_options *opts)
{
    if (opts->sections == 0 && (opts->case_count > 0 || opts->net_case != NULL))
        opts->sections = (opts->case_count > 0 ? SECTION_CASES : 0) |
                         (opts->net_case != NULL ? SECTION_NETWORK : 0);
    if (opts->sections == 0)
        opts->sections = SECTION_ALL;
    if (opts->case_count == 0)
        default_cases(opts);
}

int main(int argc, char **argv)
{
    static bench_report rep;
    bench_options opts;
    char command[512];
    int rc;

    memset(&opts, 0, sizeof opts);
    opts.malloc_tuning = true;
#ifdef CTG_BENCH_CLI
    opts.cli = CTG_BENCH_CLI;
#endif
    if ((rc = parse_options(&opts, argc, argv)) != 0)
        return rc == 1 ? 0 : rc;
    bench_set_clock(!opts.wall_clock);
    /* before the tuning: a --process child keeps glibc's defaults, as a user's program does */
    if (opts.process_child[0] != NULL)
        return bench_process_child(opts.process_child[0], opts.process_child[1],
                                   opts.process_child[2]);
    tune_malloc(opts.malloc_tuning);
    if (opts.rss_child != NULL)
        return bench_memory_child(opts.rss_child, opts.rss_path, opts.rss_count);
    if (opts.generate != NULL)
        return generate(opts.generate);
    default_sections(&opts);
    rep.quick = opts.quick;
    rep.malloc_tuning = opts.malloc_tuning;
    rc = run_sections(&opts, &rep);
    command_line(argc, argv, command, sizeof command);
    if (rc == 0 && opts.json) {
        bench_print_json(&rep);
    } else if (rc == 0 && opts.sections != SECTION_TOOLKIT) {
        bench_print_header(&rep, command);
        bench_print_tables(&rep);
        bench_print_targets(&rep);
    } else if (rc == 0) {
        printf("%s\n", command);
    }
    fflush(stdout);
    if (rc == 0 && (opts.sections & SECTION_TOOLKIT) && opts.json)
        fprintf(stderr, "contingency-bench: the toolkit section has no JSON form; not run\n");
    else if (rc == 0 && (opts.sections & SECTION_TOOLKIT))
        rc = run_toolkit(&opts);
    free_report(&rep);
    if (rc != 0)
        fprintf(stderr, "contingency-bench: failed\n");
    return rc != 0 ? 1 : 0;
}
