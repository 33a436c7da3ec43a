/* The human table and the --json report. printf runs in the C locale (the bench never calls
 * setlocale), so numbers always use a '.'. */

#include <stdio.h>
#include <string.h>

#include "bench.h"

static const bench_result *find_result(const bench_case_report *rep, const char *name)
{
    for (size_t i = 0; i < rep->count; i++) {
        if (strcmp(rep->results[i].name, name) == 0)
            return &rep->results[i];
    }
    return NULL;
}

/* median(a) / median(b); 0 when either is missing. */
static double ratio(const bench_case_report *rep, const char *a, const char *b)
{
    const bench_result *x = find_result(rep, a), *y = find_result(rep, b);

    return x != NULL && y != NULL && y->median_ms > 0 ? x->median_ms / y->median_ms : 0;
}

static void print_summary(const bench_case_report *rep)
{
    printf("ctg-read is %.2fx faster than jsonc-dom-parse-free and takes %.2fx memchr-floor; "
           "ctg-write is %.2fx faster than jsonc-dom-write\n",
           ratio(rep, "jsonc-dom-parse-free", "ctg-read"), ratio(rep, "ctg-read", "memchr-floor"),
           ratio(rep, "jsonc-dom-write", "ctg-write"));
    printf("handler look-ups per read: %zu cached, %zu with CTG_READ_NO_CACHE\n\n",
           rep->in->resolves_cached, rep->in->resolves_nocache);
}

void bench_print_table(const bench_case_report *rep)
{
    const bench_input *in = rep->in;
    double ref = rep->results[0].median_ms;

    printf("case %s: %zu contingencies, %zu bytes; %d timed runs of each after %d warm-up\n",
           in->gen->name, in->gen->contingencies, in->bytes.len, rep->runs, rep->warmup);
    printf("%-22s %10s %10s %10s %10s %12s\n", "name", "median ms", "min ms", "max ms", "MB/s",
           "x ctg-read");
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result *r = &rep->results[i];

        printf("%-22s %10.3f %10.3f %10.3f %10.1f %11.2fx\n", r->name, r->median_ms, r->min_ms,
               r->max_ms, r->mb_per_s, ref > 0 ? r->median_ms / ref : 0);
    }
    print_summary(rep);
}

void bench_print_json_begin(void)
{
    printf("{\"cases\":[");
}

void bench_print_json_case(const bench_case_report *rep, bool first)
{
    const bench_input *in = rep->in;

    printf("%s{\"name\":\"%s\",\"bytes\":%zu,\"contingencies\":%zu,\"runs\":%d,\"warmup\":%d,"
           "\"resolves_cached\":%zu,\"resolves_nocache\":%zu,\"results\":[",
           first ? "" : ",", in->gen->name, in->bytes.len, in->gen->contingencies, rep->runs,
           rep->warmup, in->resolves_cached, in->resolves_nocache);
    for (size_t i = 0; i < rep->count; i++) {
        const bench_result *r = &rep->results[i];

        printf("%s{\"name\":\"%s\",\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f,"
               "\"mb_per_s\":%.3f}",
               i ? "," : "", r->name, r->median_ms, r->min_ms, r->max_ms, r->mb_per_s);
    }
    printf("]}");
}

void bench_print_json_end(void)
{
    printf("]}\n");
}
