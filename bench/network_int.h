/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BENCH_NETWORK_INT_H
#define CTG_BENCH_NETWORK_INT_H

/* What network.c (input, runners, checks) and network_time.c (timing, scaling) share. */

#include "bench.h"
#include "bench/gen_net.h"
#include "ctg/network.h"

/* The lists resolved: N-1 lineCriterion, property criterion, ID_BASED identifiers, default. */
#define NET_LISTS 4

/* Allocator hooks that count live bytes and their peak. */
typedef struct net_counter {
    size_t live, peak;
} net_counter;

typedef struct net_input {
    bench_net model;
    bench_bytes xml, json;
    ctg_network *net; /* the XIIDM import, kept for the resolves */
    ctg_list *lists[NET_LISTS];
    size_t expect[NET_LISTS]; /* contingencies each list gives, from the model */
    net_counter counter;
    size_t memory_size;
    bool dumps_equal;
    size_t dump_bytes;
    char dump_diff[256]; /* "" when the dumps are equal */
    char why[BENCH_WHY_MAX];
} net_input;

typedef struct net_runner {
    const char *name;
    const char *what;
    int (*run)(net_input *in);
    int (*check)(net_input *in); /* NULL: one plain run */
} net_runner;

/* The runners, indexed by BENCH_NET_*. */
const net_runner *bench_net_runners(void);

/* Generates `c` (the JIIDM document too when `documents`) and reads its lists; 0 or -1 with
 * in->why set. */
int bench_net_input_init(net_input *in, const bench_net_case *c, bool documents);
void bench_net_input_dispose(net_input *in);

/* Imports in->xml into in->net (no check); BENCH_OK or BENCH_FAIL with in->why. */
int bench_net_import_kept(net_input *in);

/* Resolves list `k` against in->net; `*count` the contingencies. BENCH_OK or BENCH_FAIL. */
int bench_net_resolve(net_input *in, int k, size_t *count);

#endif
