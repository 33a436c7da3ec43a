/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BENCH_GEN_NET_H
#define CTG_BENCH_GEN_NET_H

/* The synthetic network of the network section: a transmission grid of several countries,
 * held as a small model (what cannot be derived from an index: the lines and where each
 * terminal sits) and written from it as XIIDM 1.17 and as JIIDM in PowSyBl's layouts. Every
 * other attribute is a hash of the seed and the object's index, so both documents, and every
 * expected count, come from the same numbers. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen.h"

/* Countries, in the order of their blocks of substations. */
#define BENCH_NET_COUNTRIES 5
/* The injections of every voltage level (a generator, three loads, one compensator). */
#define BENCH_NET_INJECTIONS 5
/* Lines per substation: two on its high-voltage level, two on its low-voltage one. */
#define BENCH_NET_LINES_PER_SUB 4

/* What the fifth injection of a voltage level is. */
enum { NET_COMP_SHUNT, NET_COMP_BATTERY, NET_COMP_SVC };

/* Topology of a voltage level. */
enum { NET_TOPO_BUS, NET_TOPO_TWO_BUSES, NET_TOPO_NODE };

/* A further injection of a voltage level: an HVDC converter station or a tie line's half. */
enum { NET_EXTRA_VSC, NET_EXTRA_LCC, NET_EXTRA_BOUNDARY };

typedef struct bench_net_extra {
    uint32_t vl;
    uint32_t index; /* of the HVDC line or tie line */
    uint8_t kind;   /* NET_EXTRA_* */
    uint8_t side;   /* 1 or 2 */
} bench_net_extra;

typedef struct bench_net_line {
    uint32_t vl1, vl2;
    uint32_t term1, term2; /* terminal number in each voltage level */
} bench_net_line;

/* The expected equipment counts; `countries` per country of the line criterion. */
typedef struct bench_net_counts {
    size_t substations, voltage_levels, buses, busbar_sections, switches;
    size_t lines, transformers, generators, loads, shunts, batteries, svcs;
    size_t vsc, lcc, hvdc, boundary, ties;
    size_t properties;
    size_t objects; /* every identifiable, the network included */
} bench_net_counts;

typedef struct bench_net {
    size_t subs, vls, line_count, hvdc_count, tie_count;
    uint64_t seed;
    bench_net_line *lines;
    bench_net_extra *extras; /* sorted by voltage level */
    size_t extra_count;
    uint32_t *first_extra; /* vls + 1 offsets into extras */
    uint32_t *terminals;   /* terminals of each voltage level */
    bench_net_counts counts;
} bench_net;

/* Builds the model of `subs` substations (at least 20) from `seed`; 0 or -1 (out of memory). */
int bench_net_init(bench_net *net, size_t subs, uint64_t seed);
void bench_net_dispose(bench_net *net);

/* Derived attributes. */
uint64_t bench_net_hash(const bench_net *net, uint64_t a, uint64_t b);
unsigned bench_net_country(const bench_net *net, size_t sub); /* index into the names */
const char *bench_net_country_name(unsigned country);
const char *bench_net_region(const bench_net *net, size_t sub);
int bench_net_kv(const bench_net *net, size_t vl);           /* nominal voltage, kV */
int bench_net_topology(const bench_net *net, size_t vl);     /* NET_TOPO_* */
int bench_net_compensator(const bench_net *net, size_t vl);  /* NET_COMP_* */
size_t bench_net_busbars(const bench_net *net, size_t vl);   /* node-breaker levels */
const char *bench_net_fuel(const bench_net *net, size_t vl); /* the generator's, or NULL */
bool bench_net_line_owner(size_t line);                      /* has an "owner" property */
bool bench_net_line_limits(size_t line);                     /* has current limits */
/* Temporary limits on side `side` of a line of hash `h`: 0 or 3. */
int bench_net_temporary_limits(uint64_t h, int side);
/* Node of terminal `term` of node-breaker level `vl`; its two switches use node - 1. */
uint32_t bench_net_node(const bench_net *net, size_t vl, uint32_t term);
/* One switch of a node-breaker level: its id is the level's id, `what` and `n`; it joins nodes
 * `n1` and `n2`. `payload` is the writer's. */
typedef void bench_net_switch_fn(void *payload, size_t vl, const char *what, size_t n, bool breaker,
                                 uint32_t n1, uint32_t n2);
/* Calls `put` on each switch of node-breaker level `vl`, in document order: the coupler of
 * two busbar sections, then per terminal its disconnector and its breaker. */
void bench_net_each_switch(const bench_net *net, size_t vl, bench_net_switch_fn *put,
                           void *payload);

/* Side `side` (1, 2) of tie line (`boundary`) or HVDC line `index`: its boundary line or
 * converter station. */
const bench_net_extra *bench_net_find_extra(const bench_net *net, bool boundary, size_t index,
                                            int side);

/* Ids, appended to `b`. */
void bench_net_put_sub_id(bench_bytes *b, const bench_net *net, size_t sub);
void bench_net_put_vl_id(bench_bytes *b, const bench_net *net, size_t vl);
void bench_net_put_bus_id(bench_bytes *b, const bench_net *net, size_t vl, uint32_t term);
void bench_net_put_line_id(bench_bytes *b, const bench_net *net, size_t line);
void bench_net_put_injection_id(bench_bytes *b, const bench_net *net, size_t vl, int k);
void bench_net_put_extra_id(bench_bytes *b, const bench_net *net, const bench_net_extra *x);
/* The name of the object whose id was just written (an id's '_' read as ' ', a name as the
 * ids of CGMES exports have them): the id is the bytes after the last '"' of `b` (`closed`:
 * between the last two). Written to `out`, its length returned (0 when longer than `cap`). */
size_t bench_net_last_name(const bench_bytes *b, bool closed, char *out, size_t cap);
/* A number with one decimal, Java's form of a double: v10 / 10 ("85.3", "-2.0"). */
void bench_net_put_tenths(bench_bytes *b, long long v10);

/* The same with two decimals, Java's shortest form: "0.92", "1.0", "1.05". */
void bench_net_put_hundredths(bench_bytes *b, long long v100);
/* Steps of a ratio tap changer (rho 0.92 to 1.08) and points of a reactive curve. */
#define BENCH_NET_TAP_STEPS 17
#define BENCH_NET_CURVE_POINTS 3
/* Whether the generator of level `h`'s hash has a reactive capability curve (else min/max). */
#define BENCH_NET_CURVE(h) ((h) % 3 != 0)

/* The two documents. 0 or -1 (out of memory). */
int bench_net_write_xiidm(const bench_net *net, bench_bytes *out);
int bench_net_write_jiidm(const bench_net *net, bench_bytes *out);

/* The lists resolved against it (gen_netlists.c) and the contingencies they must give. */
int bench_net_list_lines(bench_bytes *out);
size_t bench_net_expect_lines(const bench_net *net);
int bench_net_list_property(bench_bytes *out);
size_t bench_net_expect_property(const bench_net *net);
int bench_net_list_ids(const bench_net *net, size_t n, bench_bytes *out);
int bench_net_list_default(const bench_net *net, size_t n, bench_bytes *out, size_t *valid);

#endif
