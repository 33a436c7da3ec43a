/* SPDX-License-Identifier: MPL-2.0 */
/* The network section when libctg_network is not built (-DCTG_BUILD_NETWORK=OFF): it has no
 * cases, and asking for it says why. */

#include <stdio.h>

#include "bench.h"

const bench_net_case *bench_net_cases(size_t *count)
{
    *count = 0;
    return NULL;
}

const bench_net_case *bench_net_case_find(const char *name)
{
    (void)name;
    return NULL;
}

int bench_network_run(bench_report *rep, const bench_net_case *c, int runs, bool quick)
{
    (void)rep;
    (void)c;
    (void)runs;
    (void)quick;
    return 0;
}

int bench_network_generate(const char *name, bench_bytes *out)
{
    (void)name;
    (void)out;
    return 1;
}

void bench_net_print(const bench_net_report *r)
{
    (void)r;
}

void bench_net_print_json(const bench_net_report *r)
{
    (void)r;
}

int bench_generate_run(const bench_net_case *c, int runs, bool quick)
{
    (void)c;
    (void)runs;
    (void)quick;
    return 0;
}
