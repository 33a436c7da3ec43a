/* contingency-bench: times ctg against json-c and the memchr floor on generated lists. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MAX_CASES 16

typedef struct bench_options {
    bool json;
    bool quick;
    int repeat; /* 0: the default for the mode */
    const bench_gen_case *cases[MAX_CASES];
    size_t case_count;
    const char *generate; /* --generate CASE */
} bench_options;

static void print_help(void)
{
    size_t n;
    const bench_runner *runners = bench_runners(&n);
    const bench_gen_case *cases;

    printf("usage: contingency-bench [--json] [--repeat N] [--quick] [--cases LIST]\n"
           "       contingency-bench --generate CASE > FILE\n\n"
           "Times each runner on each case: warm-up rounds, then N timed rounds (default 31 after\n"
           "5; --quick: 3 after 1). A round runs every runner once, so all get the same runs.\n"
           "Reports the median, min and max of each.\n"
           "--cases takes a comma-separated list (default b10k).\n\nrunners:\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-22s %s\n", runners[i].name, runners[i].what);
    cases = bench_gen_cases(&n);
    printf("\ncases:\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-22s %s\n", cases[i].name, cases[i].summary);
}

static int usage_error(const char *message, const char *arg)
{
    fprintf(stderr, "contingency-bench: %s%s%s\nTry 'contingency-bench --help'.\n", message,
            arg ? ": " : "", arg ? arg : "");
    return 2;
}

/* Fills opts->cases from "b10k,mixed100k"; 0, or 2 after a usage error. */
static int parse_cases(bench_options *opts, const char *list)
{
    char name[64];

    opts->case_count = 0;
    for (const char *p = list; *p != '\0';) {
        size_t len = strcspn(p, ",");
        const bench_gen_case *c;

        if (len >= sizeof name || opts->case_count == MAX_CASES)
            return usage_error("bad --cases", list);
        memcpy(name, p, len);
        name[len] = '\0';
        if ((c = bench_gen_find(name)) == NULL)
            return usage_error("unknown case", name);
        opts->cases[opts->case_count++] = c;
        p += len + (p[len] == ',');
    }
    return opts->case_count ? 0 : usage_error("no case in --cases", list);
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

/* Returns 0 to go on, 1 after --help, 2 after a usage error. */
static int parse_options(bench_options *opts, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        int rc = 0;

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            return 1;
        } else if (strcmp(a, "--json") == 0) {
            opts->json = true;
        } else if (strcmp(a, "--quick") == 0) {
            opts->quick = true;
        } else if (strcmp(a, "--repeat") == 0 && has_value) {
            rc = parse_repeat(opts, argv[++i]);
        } else if (strcmp(a, "--cases") == 0 && has_value) {
            rc = parse_cases(opts, argv[++i]);
        } else if (strcmp(a, "--generate") == 0 && has_value) {
            opts->generate = argv[++i];
        } else {
            rc = usage_error("unknown option or missing value", a);
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int generate(const char *name)
{
    const bench_gen_case *c = bench_gen_find(name);
    bench_bytes bytes = BENCH_BYTES_INIT;
    int rc = 0;

    if (c == NULL)
        return usage_error("unknown case", name);
    if (bench_gen_generate(c, &bytes) != 0) {
        fprintf(stderr, "contingency-bench: out of memory\n");
        rc = 1;
    } else if (fwrite(bytes.data, 1, bytes.len, stdout) != bytes.len || fflush(stdout) != 0) {
        perror("contingency-bench: <stdout>");
        rc = 1;
    }
    bench_bytes_dispose(&bytes);
    return rc;
}

static int run_case(const bench_options *opts, const bench_gen_case *c, bool first)
{
    size_t n;
    const bench_runner *runners = bench_runners(&n);
    bench_result *results = calloc(n, sizeof *results);
    bench_input in;
    bench_case_report rep = { &in, results, n, opts->quick ? 1 : 5, opts->repeat };
    int rc = bench_input_init(&in, c);

    if (rep.runs == 0)
        rep.runs = opts->quick ? 3 : 31;
    if (results == NULL)
        rc = -1;
    if (rc == 0)
        rc = bench_time(runners, n, &in, rep.warmup, rep.runs, results);
    if (rc == 0 && opts->json)
        bench_print_json_case(&rep, first);
    else if (rc == 0)
        bench_print_table(&rep);
    bench_input_dispose(&in);
    free(results);
    return rc;
}

int main(int argc, char **argv)
{
    bench_options opts = { false, false, 0, { NULL }, 0, NULL };
    int rc = parse_options(&opts, argc, argv);

    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (opts.generate != NULL)
        return generate(opts.generate);
    if (opts.case_count == 0)
        opts.cases[opts.case_count++] = bench_gen_find("b10k");
    if (opts.json)
        bench_print_json_begin();
    for (size_t i = 0; rc == 0 && i < opts.case_count; i++)
        rc = run_case(&opts, opts.cases[i], i == 0);
    if (rc != 0) {
        fprintf(stderr, "contingency-bench: failed\n");
        return 1;
    }
    if (opts.json)
        bench_print_json_end();
    return 0;
}
