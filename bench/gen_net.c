/* SPDX-License-Identifier: MPL-2.0 */
/* The model of the synthetic network: substations in country blocks, two voltage levels each
 * (one of 400/225/150 kV, one of 90/63/20 kV) joined by a transformer, four lines leaving each
 * substation for a nearby one of the same voltage, five injections per voltage level, a fifth
 * of the levels node-breaker (busbar sections, a disconnector and a breaker per terminal), a
 * few HVDC lines and tie lines. Only the lines and the terminal numbers are stored; the rest
 * is a hash of the seed, so the two writers and the expected counts agree by construction. */

#include "gen_net.h"

#include <stdlib.h>
#include <string.h>

/* What each hash is for: one purpose per attribute, so attributes are independent. */
enum { H_KV = 1, H_TOPO, H_COMP, H_REGION, H_FUEL, H_LINE, H_BUSBARS };

static const char *const country_names[BENCH_NET_COUNTRIES] = { "FR", "DE", "IT", "ES", "BE" };
/* Cumulative share of the substations, in percent. */
static const unsigned country_share[BENCH_NET_COUNTRIES] = { 35, 60, 75, 90, 100 };
static const char *const regions[] = { "north", "south", "east", "west" };
static const char *const fuels[] = { "nuclear", "hydro", "gas", "wind", "solar" };

uint64_t bench_net_hash(const bench_net *net, uint64_t a, uint64_t b)
{
    uint64_t state = net->seed ^ (a * 0x9E3779B97F4A7C15u) ^ (b * 0xC2B2AE3D27D4EB4Fu);

    return bench_random(&state);
}

unsigned bench_net_country(const bench_net *net, size_t sub)
{
    unsigned c = 0;

    while (c + 1 < BENCH_NET_COUNTRIES &&
           (uint64_t)sub * 100 >= (uint64_t)country_share[c] * net->subs)
        c++;
    return c;
}

const char *bench_net_country_name(unsigned country)
{
    return country_names[country];
}

const char *bench_net_region(const bench_net *net, size_t sub)
{
    return regions[bench_net_hash(net, H_REGION, sub) % 4];
}

int bench_net_kv(const bench_net *net, size_t vl)
{
    static const int high[] = { 400, 400, 400, 225, 225, 225, 225, 150, 150, 225 };
    static const int low[] = { 90, 90, 63, 63, 63, 63, 20, 20, 20, 63 };
    unsigned r = (unsigned)(bench_net_hash(net, H_KV, vl / 2) % 10);

    return vl % 2 == 0 ? high[r] : low[r];
}

int bench_net_topology(const bench_net *net, size_t vl)
{
    unsigned r = (unsigned)(bench_net_hash(net, H_TOPO, vl) % 100);

    return r < 20 ? NET_TOPO_NODE : r < 28 ? NET_TOPO_TWO_BUSES : NET_TOPO_BUS;
}

int bench_net_compensator(const bench_net *net, size_t vl)
{
    unsigned r = (unsigned)(bench_net_hash(net, H_COMP, vl) % 100);

    return r < 70 ? NET_COMP_SHUNT : r < 85 ? NET_COMP_BATTERY : NET_COMP_SVC;
}

size_t bench_net_busbars(const bench_net *net, size_t vl)
{
    return vl % 2 == 0 && bench_net_hash(net, H_BUSBARS, vl) % 2 == 0 ? 2 : 1;
}

const char *bench_net_fuel(const bench_net *net, size_t vl)
{
    unsigned r = (unsigned)(bench_net_hash(net, H_FUEL, vl) % 10);

    return r < 6 ? fuels[r % 5] : NULL;
}

bool bench_net_line_owner(size_t line)
{
    return line % 4 == 0;
}

bool bench_net_line_limits(size_t line)
{
    return line % 10 != 9;
}

int bench_net_temporary_limits(uint64_t h, int side)
{
    return side == 1 || h % 4 != 0 ? 3 : 0;
}

uint32_t bench_net_node(const bench_net *net, size_t vl, uint32_t term)
{
    return (uint32_t)bench_net_busbars(net, vl) + 2 * term + 1;
}

void bench_net_each_switch(const bench_net *net, size_t vl, bench_net_switch_fn *put, void *payload)
{
    size_t bbs = bench_net_busbars(net, vl);

    if (bbs == 2)
        put(payload, vl, "_COUPLER", 1, true, 0, 1);
    for (uint32_t t = 0; t < net->terminals[vl]; t++) {
        uint32_t node = bench_net_node(net, vl, t);
        put(payload, vl, "_D", t, false, (uint32_t)(t % bbs), node - 1);
        put(payload, vl, "_K", t, true, node - 1, node);
    }
}

const bench_net_extra *bench_net_find_extra(const bench_net *net, bool boundary, size_t index,
                                            int side)
{
    for (size_t i = 0; i < net->extra_count; i++) {
        const bench_net_extra *x = &net->extras[i];
        if ((x->kind == NET_EXTRA_BOUNDARY) == boundary && x->index == index && x->side == side)
            return x;
    }
    return NULL;
}

/* ---- building --------------------------------------------------------------------------- */

/* The far end of line k of substation s: a substation a little further on whose level of the
 * same kind has the same nominal voltage, when one of the next few has. */
static size_t line_target(const bench_net *net, size_t s, size_t k)
{
    size_t span = net->subs - 1 < 40 ? net->subs - 1 : 40;
    size_t first = (s + 1 + bench_net_hash(net, H_LINE, s * 8 + k) % span) % net->subs;
    size_t level = k < 2 ? 0 : 1;

    for (size_t i = 0; i < 8; i++) {
        size_t t = (first + i) % net->subs;
        if (t != s && bench_net_kv(net, 2 * t + level) == bench_net_kv(net, 2 * s + level))
            return t;
    }
    return first;
}

static int compare_extra(const void *a, const void *b)
{
    const bench_net_extra *x = a, *y = b;

    if (x->vl != y->vl)
        return x->vl < y->vl ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1; /* PowSyBl's order: VSC, LCC, boundary lines */
    return x->index < y->index ? -1 : x->index > y->index;
}

static void add_pair(bench_net *net, size_t s1, size_t s2, uint8_t kind, size_t index)
{
    bench_net_extra *x = &net->extras[net->extra_count];

    x[0].vl = (uint32_t)(2 * s1);
    x[1].vl = (uint32_t)(2 * s2);
    for (int i = 0; i < 2; i++) {
        x[i].index = (uint32_t)index;
        x[i].kind = kind;
        x[i].side = (uint8_t)(i + 1);
    }
    net->extra_count += 2;
}

/* HVDC lines (VSC and LCC in turn) and tie lines between high-voltage levels far apart. */
static int build_extras(bench_net *net)
{
    size_t n = net->subs, h = net->hvdc_count, t = net->tie_count;

    net->extras = calloc(2 * (h + t), sizeof *net->extras);
    net->first_extra = calloc(net->vls + 1, sizeof *net->first_extra);
    if (net->extras == NULL || net->first_extra == NULL)
        return -1;
    for (size_t i = 0; i < h; i++) {
        size_t a = i * (n / h);
        add_pair(net, a, (a + n / (2 * h)) % n, i % 2 == 0 ? NET_EXTRA_VSC : NET_EXTRA_LCC, i);
    }
    for (size_t i = 0; i < t; i++) {
        size_t c = (i * (n / t) + 3) % n;
        add_pair(net, c, (c + n / 3) % n, NET_EXTRA_BOUNDARY, i);
    }
    qsort(net->extras, net->extra_count, sizeof *net->extras, compare_extra);
    for (size_t i = 0; i < net->extra_count; i++)
        net->first_extra[net->extras[i].vl + 1]++;
    for (size_t v = 0; v < net->vls; v++)
        net->first_extra[v + 1] += net->first_extra[v];
    return 0;
}

/* Terminals: the injections, the extras, the transformer's end, then the line ends. */
static int build_lines(bench_net *net)
{
    net->line_count = net->subs * BENCH_NET_LINES_PER_SUB;
    net->lines = calloc(net->line_count, sizeof *net->lines);
    net->terminals = calloc(net->vls, sizeof *net->terminals);
    if (net->lines == NULL || net->terminals == NULL)
        return -1;
    for (size_t v = 0; v < net->vls; v++)
        net->terminals[v] =
            BENCH_NET_INJECTIONS + (net->first_extra[v + 1] - net->first_extra[v]) + 1;
    for (size_t i = 0; i < net->line_count; i++) {
        size_t s = i / BENCH_NET_LINES_PER_SUB, k = i % BENCH_NET_LINES_PER_SUB;
        bench_net_line *l = &net->lines[i];
        l->vl1 = (uint32_t)(2 * s + (k < 2 ? 0 : 1));
        l->vl2 = (uint32_t)(2 * line_target(net, s, k) + (k < 2 ? 0 : 1));
        l->term1 = net->terminals[l->vl1]++;
        l->term2 = net->terminals[l->vl2]++;
    }
    return 0;
}

/* Switches, buses and busbar sections of level v. */
static void count_topology(const bench_net *net, size_t v, bench_net_counts *c)
{
    int topo = bench_net_topology(net, v);

    if (topo == NET_TOPO_NODE) {
        size_t bbs = bench_net_busbars(net, v);
        c->busbar_sections += bbs;
        c->switches += 2 * (size_t)net->terminals[v] + (bbs == 2);
    } else {
        c->buses += topo == NET_TOPO_TWO_BUSES ? 2 : 1;
        c->switches += topo == NET_TOPO_TWO_BUSES;
    }
}

static void count_all(bench_net *net)
{
    bench_net_counts *c = &net->counts;

    memset(c, 0, sizeof *c);
    c->substations = net->subs;
    c->voltage_levels = net->vls;
    c->lines = net->line_count;
    c->transformers = net->subs;
    c->generators = net->vls;
    c->loads = 3 * net->vls;
    c->hvdc = net->hvdc_count;
    c->ties = net->tie_count;
    c->properties = net->subs; /* every substation's region */
    for (size_t v = 0; v < net->vls; v++) {
        int comp = bench_net_compensator(net, v);
        count_topology(net, v, c);
        c->shunts += comp == NET_COMP_SHUNT;
        c->batteries += comp == NET_COMP_BATTERY;
        c->svcs += comp == NET_COMP_SVC;
        c->properties += bench_net_fuel(net, v) != NULL;
    }
    for (size_t i = 0; i < net->extra_count; i++) {
        c->vsc += net->extras[i].kind == NET_EXTRA_VSC;
        c->lcc += net->extras[i].kind == NET_EXTRA_LCC;
        c->boundary += net->extras[i].kind == NET_EXTRA_BOUNDARY;
    }
    for (size_t i = 0; i < net->line_count; i++)
        c->properties += bench_net_line_owner(i);
    c->objects = 1 + c->substations + c->voltage_levels + c->buses + c->busbar_sections +
                 c->switches + c->lines + c->transformers + c->generators + c->loads + c->shunts +
                 c->batteries + c->svcs + c->vsc + c->lcc + c->hvdc + c->boundary + c->ties;
}

int bench_net_init(bench_net *net, size_t subs, uint64_t seed)
{
    memset(net, 0, sizeof *net);
    net->subs = subs < 20 ? 20 : subs;
    net->vls = 2 * net->subs;
    net->seed = seed;
    net->hvdc_count = net->subs / 1000 > 2 ? net->subs / 1000 : 2;
    net->tie_count = net->subs / 500 > 2 ? net->subs / 500 : 2;
    if (build_extras(net) != 0 || build_lines(net) != 0) {
        bench_net_dispose(net);
        return -1;
    }
    count_all(net);
    return 0;
}

void bench_net_dispose(bench_net *net)
{
    free(net->lines);
    free(net->extras);
    free(net->first_extra);
    free(net->terminals);
    memset(net, 0, sizeof *net);
}

/* ---- ids ---------------------------------------------------------------------------------- */

void bench_net_put_sub_id(bench_bytes *b, const bench_net *net, size_t sub)
{
    bench_put_str(b, country_names[bench_net_country(net, sub)]);
    bench_put_number(b, sub, 5);
}

void bench_net_put_vl_id(bench_bytes *b, const bench_net *net, size_t vl)
{
    bench_net_put_sub_id(b, net, vl / 2);
    BENCH_PUT(b, "_");
    bench_put_number(b, (size_t)bench_net_kv(net, vl), 0);
}

void bench_net_put_bus_id(bench_bytes *b, const bench_net *net, size_t vl, uint32_t term)
{
    bench_net_put_vl_id(b, net, vl);
    if (bench_net_topology(net, vl) == NET_TOPO_TWO_BUSES && term % 2 == 1)
        BENCH_PUT(b, "_B2");
    else
        BENCH_PUT(b, "_B1");
}

void bench_net_put_line_id(bench_bytes *b, const bench_net *net, size_t line)
{
    bench_net_put_sub_id(b, net, net->lines[line].vl1 / 2);
    BENCH_PUT(b, "-");
    bench_net_put_sub_id(b, net, net->lines[line].vl2 / 2);
    BENCH_PUT(b, "_");
    bench_put_number(b, line, 0);
}

void bench_net_put_injection_id(bench_bytes *b, const bench_net *net, size_t vl, int k)
{
    static const char *const comp[] = { "_SH", "_BAT", "_SVC" };

    bench_net_put_vl_id(b, net, vl);
    if (k == 0) {
        BENCH_PUT(b, "_G");
    } else if (k < 4) {
        BENCH_PUT(b, "_L");
        bench_put_number(b, (size_t)k, 0);
    } else {
        bench_put_str(b, comp[bench_net_compensator(net, vl)]);
    }
}

void bench_net_put_extra_id(bench_bytes *b, const bench_net *net, const bench_net_extra *x)
{
    static const char *const kinds[] = { "_VSC", "_LCC", "_BL" };

    bench_net_put_vl_id(b, net, x->vl);
    bench_put_str(b, kinds[x->kind]);
    bench_put_number(b, x->index, 0);
}

/* `v` / `unit` with its decimals (`width` digits, 0: as they come), signed. */
static void put_fixed(bench_bytes *b, long long v, long long unit, int width)
{
    if (v < 0) {
        BENCH_PUT(b, "-");
        v = -v;
    }
    bench_put_number(b, (size_t)(v / unit), 0);
    BENCH_PUT(b, ".");
    bench_put_number(b, (size_t)(v % unit), width);
}

void bench_net_put_hundredths(bench_bytes *b, long long v100)
{
    if (v100 % 10 == 0)
        bench_net_put_tenths(b, v100 / 10);
    else
        put_fixed(b, v100, 100, 2);
}

void bench_net_put_tenths(bench_bytes *b, long long v10)
{
    put_fixed(b, v10, 10, 0);
}

size_t bench_net_last_name(const bench_bytes *b, bool closed, char *out, size_t cap)
{
    size_t end = b->len - (closed ? 1 : 0), start = end;

    if (b->failed || b->len == 0)
        return 0;
    while (start > 0 && b->data[start - 1] != '"')
        start--;
    if (end - start >= cap)
        return 0;
    for (size_t i = start; i < end; i++)
        out[i - start] = b->data[i] == '_' ? ' ' : b->data[i];
    return end - start;
}
