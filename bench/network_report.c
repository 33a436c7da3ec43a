/* SPDX-License-Identifier: MPL-2.0 */
/* The network section's table and its part of the --json report. */

#include <stdio.h>

#include "bench.h"

#define NET_ROW "%-31s %4s %4s %10s %10s %10s %6s %9s %10s %13s\n"

/* The floor a runner is compared with: expat for the XIIDM import, memchr for the JIIDM one. */
static int floor_of(int i)
{
    return i == BENCH_NET_XIIDM ? BENCH_NET_EXPAT : i == BENCH_NET_JIIDM ? BENCH_NET_MEMCHR : -1;
}

static void print_row(const bench_net_report *r, int i)
{
    const bench_result *res = &r->results[i];
    char name[96], per[32] = "-", ratio[32] = "-", mb[32] = "-";
    int f = floor_of(i);

    snprintf(name, sizeof name, "%s.%s", r->name, res->name);
    if (res->bytes > 0)
        snprintf(mb, sizeof mb, "%.1f", res->mb_per_s);
    if (r->items[i] > 0)
        snprintf(per, sizeof per, "%.1f", res->median_ms * 1e6 / (double)r->items[i]);
    if (f >= 0 && r->results[f].median_ms > 0)
        snprintf(ratio, sizeof ratio, "%.2fx", res->median_ms / r->results[f].median_ms);
    printf("%-31s %4s %4d %10.3f %10.3f %10.3f %6s %9s %10s %13s\n", name, "ss", r->runs,
           res->median_ms, res->min_ms, res->max_ms, "ms/op", mb, per, ratio);
}

static void print_scaling(const bench_net_report *r)
{
    printf("network scaling: resolves over networks of growing size, ns per network object of "
           "the median\n");
    printf("%12s %10s %5s %6s %16s %16s\n", "substations", "objects", "runs", "batch",
           "n1-lines ns/obj", "property ns/obj");
    for (size_t i = 0; i < r->scaling_count; i++) {
        const bench_net_scaling_point *p = &r->scaling[i];
        printf("%12zu %10zu %5d %6d %16.3f %16.3f\n", p->substations, p->objects, p->runs, p->batch,
               p->lines_ns_per_object, p->property_ns_per_object);
    }
    printf("all sizes timed in the same rounds; a sample of a small network resolves `batch` "
           "distinct copies of it, one each\n(about 1M objects a sample at every size, none in "
           "the cache when its resolve starts)\n\n");
}

void bench_net_print(const bench_net_report *r)
{
    printf("%s: %s\n%zu substations, %zu objects; XIIDM %zu bytes, JIIDM %zu bytes; %d runs "
           "after %d warm-up round\n",
           r->name, r->summary, r->substations, r->objects, r->xml_bytes, r->json_bytes, r->runs,
           r->warmup);
    printf(NET_ROW, "Benchmark", "Mode", "Cnt", "Median", "Min", "Max", "Units", "MB/s", "ns/item",
           "vs its floor");
    for (int i = 0; i < BENCH_NET_RUNNERS; i++)
        print_row(r, i);
    printf("ns/item: per line scanned (the criteria), per identifier, per contingency (default)\n"
           "resolves give %zu, %zu, %zu and %zu contingencies, imports the counts per type of "
           "the model (checked before timing)\n",
           r->contingencies[BENCH_NET_LINES], r->contingencies[BENCH_NET_PROPERTY],
           r->contingencies[BENCH_NET_IDS], r->contingencies[BENCH_NET_DEFAULT]);
    if (r->dumps_equal)
        printf("both imports give the same table: %zu-byte dumps, byte for byte\n", r->dump_bytes);
    else
        printf("THE XIIDM AND JIIDM TABLES DIFFER: %s\n", r->dump_diff);
    printf("XIIDM speed / expat-floor speed: %.2f; memory after the XIIDM import: "
           "ctg_network_memory_size %.1f MB (%.3fx the file), allocator peak during it %.1f MB "
           "(%.3fx)\n\n",
           r->results[BENCH_NET_XIIDM].median_ms > 0
               ? r->results[BENCH_NET_EXPAT].median_ms / r->results[BENCH_NET_XIIDM].median_ms
               : 0,
           (double)r->memory_size / 1e6, (double)r->memory_size / (double)r->xml_bytes,
           (double)r->alloc_peak / 1e6, (double)r->alloc_peak / (double)r->xml_bytes);
    if (r->scaling_count > 0)
        print_scaling(r);
}

static void json_results(const bench_net_report *r)
{
    printf(",\"results\":[");
    for (int i = 0; i < BENCH_NET_RUNNERS; i++) {
        const bench_result *res = &r->results[i];
        printf("%s{\"name\":\"%s\",\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f,"
               "\"bytes\":%zu,\"mb_per_s\":%.3f,\"items\":%zu,\"contingencies\":%zu}",
               i ? "," : "", res->name, res->median_ms, res->min_ms, res->max_ms, res->bytes,
               res->mb_per_s, r->items[i], r->contingencies[i]);
    }
    printf("]");
}

void bench_net_print_json(const bench_net_report *r)
{
    printf(",\"network\":{\"case\":\"%s\",\"substations\":%zu,\"objects\":%zu,"
           "\"xiidm_bytes\":%zu,\"jiidm_bytes\":%zu,\"runs\":%d,\"warmup\":%d,"
           "\"memory_size\":%zu,\"allocator_peak\":%zu,\"dumps_equal\":%s",
           r->name, r->substations, r->objects, r->xml_bytes, r->json_bytes, r->runs, r->warmup,
           r->memory_size, r->alloc_peak, r->dumps_equal ? "true" : "false");
    json_results(r);
    printf(",\"scaling\":[");
    for (size_t i = 0; i < r->scaling_count; i++) {
        const bench_net_scaling_point *p = &r->scaling[i];
        printf("%s{\"substations\":%zu,\"objects\":%zu,\"runs\":%d,\"batch\":%d,"
               "\"lines_ns_per_object\":%.4f,\"property_ns_per_object\":%.4f}",
               i ? "," : "", p->substations, p->objects, p->runs, p->batch, p->lines_ns_per_object,
               p->property_ns_per_object);
    }
    printf("]}");
}
