/* SPDX-License-Identifier: MPL-2.0 */
/* The synthetic network as JIIDM 1.17: the same objects, attributes and values as the XIIDM
 * writer's, in the layout of PowSyBl's JSON serializer (Jackson's pretty printer: members on
 * their own lines, array items after "[ " and ", "; objects of one type in one array named
 * by its plural; properties after the attributes). */

#include <stdio.h>

#include "gen_net.h"

#define MAX_LEVELS 16

typedef struct jw {
    bench_bytes *b;
    const bench_net *net;
    int level, depth;
    bool first[MAX_LEVELS];
} jw;

#define PUT(w, lit) BENCH_PUT((w)->b, lit)

static void newline(jw *w)
{
    static const char spaces[] = "                                ";

    PUT(w, "\n");
    bench_put(w->b, spaces, (size_t)w->depth * 2);
}

/* `"key" : ` as the next member of the open object. */
static void key(jw *w, const char *k)
{
    if (!w->first[w->level])
        PUT(w, ",");
    w->first[w->level] = false;
    newline(w);
    PUT(w, "\"");
    bench_put_str(w->b, k);
    PUT(w, "\" : ");
}

static void push(jw *w)
{
    w->level++;
    w->first[w->level] = true;
}

/* An object as the next item of the open array (or a member's value when `item` is false). */
static void obj_begin(jw *w, bool item)
{
    if (item) {
        bench_put_str(w->b, w->first[w->level] ? " " : ", ");
        w->first[w->level] = false;
    }
    PUT(w, "{");
    push(w);
    w->depth++;
}

static void obj_end(jw *w)
{
    w->depth--;
    w->level--;
    newline(w);
    PUT(w, "}");
}

static void arr_begin(jw *w, const char *k)
{
    key(w, k);
    PUT(w, "[");
    push(w);
}

static void arr_end(jw *w)
{
    w->level--;
    PUT(w, " ]");
}

static void str(jw *w, const char *k, const char *v)
{
    key(w, k);
    PUT(w, "\"");
    bench_put_str(w->b, v);
    PUT(w, "\"");
}

static void raw(jw *w, const char *k, const char *v)
{
    key(w, k);
    bench_put_str(w->b, v);
}

static void tenths(jw *w, const char *k, long long v10)
{
    key(w, k);
    bench_net_put_tenths(w->b, v10);
}

static void integer(jw *w, const char *k, size_t v)
{
    key(w, k);
    bench_put_number(w->b, v, 0);
}

static void kv_value(jw *w, const char *k, size_t vl)
{
    tenths(w, k, 10LL * bench_net_kv(w->net, vl));
}

/* Ids: the key, then the id between quotes. */
#define ID_MEMBER(w, k, call)                                                                      \
    do {                                                                                           \
        key((w), (k));                                                                             \
        PUT((w), "\"");                                                                            \
        call;                                                                                      \
        PUT((w), "\"");                                                                            \
    } while (0)

/* `"name" : "…"` after the id just written (see bench_net_last_name). */
static void name(jw *w)
{
    char text[128];
    size_t n = bench_net_last_name(w->b, true, text, sizeof text);

    key(w, "name");
    PUT(w, "\"");
    bench_put(w->b, text, n);
    PUT(w, "\"");
}

static void properties(jw *w, const char *name, const char *value)
{
    arr_begin(w, "properties");
    obj_begin(w, true);
    str(w, "name", name);
    str(w, "value", value);
    obj_end(w);
    arr_end(w);
}

static void terminal(jw *w, size_t vl, uint32_t term, const char *side)
{
    char k[32];

    if (bench_net_topology(w->net, vl) == NET_TOPO_NODE) {
        snprintf(k, sizeof k, "node%s", side);
        integer(w, k, bench_net_node(w->net, vl, term));
        return;
    }
    snprintf(k, sizeof k, "bus%s", side);
    ID_MEMBER(w, k, bench_net_put_bus_id(w->b, w->net, vl, term));
    snprintf(k, sizeof k, "connectableBus%s", side);
    ID_MEMBER(w, k, bench_net_put_bus_id(w->b, w->net, vl, term));
}

static void state(jw *w, uint64_t h, const char *side)
{
    char k[8];

    snprintf(k, sizeof k, "p%s", side);
    tenths(w, k, (long long)(h % 20000) - 10000);
    snprintf(k, sizeof k, "q%s", side);
    tenths(w, k, (long long)((h >> 20) % 4000) - 2000);
}

/* ---- topology ------------------------------------------------------------------------------ */

static void switch_item(void *payload, size_t vl, const char *what, size_t n, bool breaker,
                        uint32_t n1, uint32_t n2)
{
    jw *w = payload;

    obj_begin(w, true);
    ID_MEMBER(w, "id",
              (bench_net_put_vl_id(w->b, w->net, vl), bench_put_str(w->b, what),
               bench_put_number(w->b, n, 0)));
    name(w);
    str(w, "kind", breaker ? "BREAKER" : "DISCONNECTOR");
    if (breaker)
        raw(w, "retained", "true");
    raw(w, "open", "false");
    integer(w, "node1", n1);
    integer(w, "node2", n2);
    obj_end(w);
}

static void node_breaker(jw *w, size_t vl)
{
    size_t bbs = bench_net_busbars(w->net, vl);

    key(w, "nodeBreakerTopology");
    obj_begin(w, false);
    arr_begin(w, "busbarSections");
    for (size_t i = 0; i < bbs; i++) {
        obj_begin(w, true);
        ID_MEMBER(w, "id",
                  (bench_net_put_vl_id(w->b, w->net, vl), PUT(w, "_BBS"),
                   bench_put_number(w->b, i + 1, 0)));
        integer(w, "node", i);
        obj_end(w);
    }
    arr_end(w);
    arr_begin(w, "switches");
    bench_net_each_switch(w->net, vl, switch_item, w);
    arr_end(w);
    obj_end(w);
}

static void bus_item(jw *w, size_t vl, const char *suffix)
{
    obj_begin(w, true);
    ID_MEMBER(w, "id", (bench_net_put_vl_id(w->b, w->net, vl), bench_put_str(w->b, suffix)));
    obj_end(w);
}

static void bus_breaker(jw *w, size_t vl)
{
    bool two = bench_net_topology(w->net, vl) == NET_TOPO_TWO_BUSES;

    key(w, "busBreakerTopology");
    obj_begin(w, false);
    arr_begin(w, "buses");
    bus_item(w, vl, "_B1");
    if (two)
        bus_item(w, vl, "_B2");
    arr_end(w);
    if (two) {
        arr_begin(w, "switches");
        obj_begin(w, true);
        ID_MEMBER(w, "id", (bench_net_put_vl_id(w->b, w->net, vl), PUT(w, "_COUPLER")));
        str(w, "kind", "BREAKER");
        raw(w, "retained", "true");
        raw(w, "open", "false");
        ID_MEMBER(w, "bus1", (bench_net_put_vl_id(w->b, w->net, vl), PUT(w, "_B1")));
        ID_MEMBER(w, "bus2", (bench_net_put_vl_id(w->b, w->net, vl), PUT(w, "_B2")));
        obj_end(w);
        arr_end(w);
    }
    obj_end(w);
}

/* ---- injections ----------------------------------------------------------------------------- */

static void reactive_limits(jw *w, uint64_t h)
{
    key(w, "minMaxReactiveLimits");
    obj_begin(w, false);
    tenths(w, "minQ", -(long long)(h % 5000) - 10);
    tenths(w, "maxQ", (long long)(h % 5000) + 10);
    obj_end(w);
}

static void reactive_curve(jw *w, uint64_t h)
{
    long long max_p = (long long)(h % 15000) + 1000;

    key(w, "reactiveCapabilityCurve");
    obj_begin(w, false);
    arr_begin(w, "points");
    for (int i = 0; i < BENCH_NET_CURVE_POINTS; i++) {
        obj_begin(w, true);
        tenths(w, "p", max_p * i / 2);
        tenths(w, "minQ", -(long long)(h % 5000) - 10 + 100 * i);
        tenths(w, "maxQ", (long long)(h % 5000) + 10 - 100 * i);
        obj_end(w);
    }
    arr_end(w);
    obj_end(w);
}

static void generators(jw *w, size_t vl)
{
    static const char *const sources[] = { "NUCLEAR", "HYDRO", "THERMAL", "WIND", "SOLAR" };
    uint64_t h = bench_net_hash(w->net, 100, vl);
    const char *fuel = bench_net_fuel(w->net, vl);

    arr_begin(w, "generators");
    obj_begin(w, true);
    ID_MEMBER(w, "id", bench_net_put_injection_id(w->b, w->net, vl, 0));
    name(w);
    str(w, "energySource", sources[h % 5]);
    raw(w, "minP", "0.0");
    tenths(w, "maxP", (long long)(h % 15000) + 1000);
    raw(w, "voltageRegulatorOn", "true");
    tenths(w, "targetP", (long long)(h % 9000) + 100);
    kv_value(w, "targetV", vl);
    raw(w, "targetQ", "0.0");
    terminal(w, vl, 0, "");
    state(w, h, "");
    if (fuel != NULL)
        properties(w, "fuel", fuel);
    if (BENCH_NET_CURVE(h))
        reactive_curve(w, h);
    else
        reactive_limits(w, h);
    obj_end(w);
    arr_end(w);
}

static void loads(jw *w, size_t vl)
{
    arr_begin(w, "loads");
    for (int k = 1; k < 4; k++) {
        uint64_t h = bench_net_hash(w->net, 100 + (uint64_t)k, vl);
        obj_begin(w, true);
        ID_MEMBER(w, "id", bench_net_put_injection_id(w->b, w->net, vl, k));
        name(w);
        str(w, "loadType", "UNDEFINED");
        tenths(w, "p0", (long long)(h % 2000));
        tenths(w, "q0", (long long)(h % 300));
        terminal(w, vl, (uint32_t)k, "");
        state(w, h, "");
        obj_end(w);
    }
    arr_end(w);
}

static void compensator_fields(jw *w, size_t vl, int comp)
{
    if (comp == NET_COMP_SHUNT) {
        integer(w, "sectionCount", 1);
        raw(w, "voltageRegulatorOn", "false");
    } else if (comp == NET_COMP_BATTERY) {
        raw(w, "targetP", "0.0");
        raw(w, "targetQ", "0.0");
        raw(w, "minP", "-50.0");
        raw(w, "maxP", "50.0");
    } else {
        raw(w, "bMin", "-0.01");
        raw(w, "bMax", "0.01");
        kv_value(w, "voltageSetpoint", vl);
        str(w, "regulationMode", "VOLTAGE");
        raw(w, "regulating", "true");
    }
}

static void compensator(jw *w, size_t vl)
{
    static const char *const arrays[] = { "shuntCompensators", "batteries",
                                          "staticVarCompensators" };
    int comp = bench_net_compensator(w->net, vl);
    uint64_t h = bench_net_hash(w->net, 104, vl);

    arr_begin(w, arrays[comp]);
    obj_begin(w, true);
    ID_MEMBER(w, "id", bench_net_put_injection_id(w->b, w->net, vl, 4));
    name(w);
    compensator_fields(w, vl, comp);
    terminal(w, vl, 4, "");
    state(w, h, "");
    if (comp == NET_COMP_SHUNT) {
        key(w, "shuntLinearModel");
        obj_begin(w, false);
        raw(w, "bPerSection", "-0.012");
        integer(w, "maximumSectionCount", 1);
        obj_end(w);
    } else if (comp == NET_COMP_BATTERY) {
        reactive_limits(w, h);
    }
    obj_end(w);
    arr_end(w);
}

static void extra_fields(jw *w, const bench_net_extra *x, uint32_t term)
{
    if (x->kind == NET_EXTRA_VSC) {
        raw(w, "voltageRegulatorOn", "true");
        raw(w, "lossFactor", "1.1");
        raw(w, "voltageSetpoint", "400.0");
        raw(w, "reactivePowerSetpoint", "0.0");
    } else if (x->kind == NET_EXTRA_LCC) {
        raw(w, "lossFactor", "1.1");
        raw(w, "powerFactor", "0.6");
    } else {
        raw(w, "p0", "0.0");
        raw(w, "q0", "0.0");
        raw(w, "r", "1.0");
        raw(w, "x", "10.0");
        raw(w, "g", "0.0");
        raw(w, "b", "0.0");
    }
    terminal(w, x->vl, term, "");
    if (x->kind == NET_EXTRA_BOUNDARY)
        ID_MEMBER(w, "pairingKey", (PUT(w, "XNODE_"), bench_put_number(w->b, x->index, 4)));
}

/* The extras of a level, one array per kind (they are sorted by kind). */
static void extras(jw *w, size_t vl)
{
    static const char *const arrays[] = { "vscConverterStations", "lccConverterStations",
                                          "boundaryLines" };
    uint32_t first = w->net->first_extra[vl], end = w->net->first_extra[vl + 1];

    for (uint32_t i = first; i < end; i++) {
        const bench_net_extra *x = &w->net->extras[i];
        uint64_t h = bench_net_hash(w->net, 200 + x->kind, x->index * 2 + x->side);
        if (i == first || x[-1].kind != x->kind)
            arr_begin(w, arrays[x->kind]);
        obj_begin(w, true);
        ID_MEMBER(w, "id", bench_net_put_extra_id(w->b, w->net, x));
        name(w);
        extra_fields(w, x, BENCH_NET_INJECTIONS + (i - first));
        state(w, h, "");
        if (x->kind == NET_EXTRA_VSC)
            reactive_limits(w, h);
        obj_end(w);
        if (i + 1 == end || x[1].kind != x->kind)
            arr_end(w);
    }
}

static void voltage_level(jw *w, size_t vl)
{
    int kv = bench_net_kv(w->net, vl);
    int comp = bench_net_compensator(w->net, vl);
    bool node = bench_net_topology(w->net, vl) == NET_TOPO_NODE;

    obj_begin(w, true);
    ID_MEMBER(w, "id", bench_net_put_vl_id(w->b, w->net, vl));
    name(w);
    kv_value(w, "nominalV", vl);
    tenths(w, "lowVoltageLimit", kv * 9);
    tenths(w, "highVoltageLimit", kv * 11);
    str(w, "topologyKind", node ? "NODE_BREAKER" : "BUS_BREAKER");
    if (node)
        node_breaker(w, vl);
    else
        bus_breaker(w, vl);
    generators(w, vl);
    if (comp == NET_COMP_BATTERY)
        compensator(w, vl);
    loads(w, vl);
    if (comp != NET_COMP_BATTERY)
        compensator(w, vl);
    extras(w, vl);
    obj_end(w);
}

static void side(jw *w, size_t vl, uint32_t term, const char *s)
{
    char k[24];

    snprintf(k, sizeof k, "voltageLevelId%s", s);
    ID_MEMBER(w, k, bench_net_put_vl_id(w->b, w->net, vl));
    terminal(w, vl, term, s);
}

static void tap_changer(jw *w, size_t sub)
{
    key(w, "ratioTapChanger");
    obj_begin(w, false);
    integer(w, "lowTapPosition", 0);
    integer(w, "tapPosition", 8);
    raw(w, "targetDeadband", "0.0");
    raw(w, "loadTapChangingCapabilities", "true");
    raw(w, "regulating", "true");
    str(w, "regulationMode", "VOLTAGE");
    kv_value(w, "regulationValue", 2 * sub + 1);
    key(w, "terminalRef");
    obj_begin(w, false);
    ID_MEMBER(w, "id", (bench_net_put_sub_id(w->b, w->net, sub), PUT(w, "_TR")));
    str(w, "side", "TWO");
    obj_end(w);
    arr_begin(w, "steps");
    for (int i = 0; i < BENCH_NET_TAP_STEPS; i++) {
        obj_begin(w, true);
        raw(w, "r", "0.0");
        raw(w, "x", "0.0");
        raw(w, "g", "0.0");
        raw(w, "b", "0.0");
        key(w, "rho");
        bench_net_put_hundredths(w->b, 92 + i);
        obj_end(w);
    }
    arr_end(w);
    obj_end(w);
}

static void transformer(jw *w, size_t sub)
{
    size_t hv = 2 * sub, lv = hv + 1;
    uint64_t h = bench_net_hash(w->net, 300, sub);
    uint32_t term = BENCH_NET_INJECTIONS;

    arr_begin(w, "twoWindingsTransformers");
    obj_begin(w, true);
    ID_MEMBER(w, "id", (bench_net_put_sub_id(w->b, w->net, sub), PUT(w, "_TR")));
    name(w);
    raw(w, "r", "0.2");
    tenths(w, "x", (long long)(h % 400) + 20);
    raw(w, "b", "3.2E-5");
    kv_value(w, "ratedU1", hv);
    kv_value(w, "ratedU2", lv);
    side(w, hv, term + w->net->first_extra[hv + 1] - w->net->first_extra[hv], "1");
    side(w, lv, term + w->net->first_extra[lv + 1] - w->net->first_extra[lv], "2");
    state(w, h, "1");
    state(w, h >> 3, "2");
    if (h % 2 == 0)
        tap_changer(w, sub);
    obj_end(w);
    arr_end(w);
}

static void substation(jw *w, size_t sub)
{
    static const char *const tsos[] = { "RTE", "TENNET_DE", "TERNA", "REE", "ELIA" };
    unsigned country = bench_net_country(w->net, sub);

    obj_begin(w, true);
    ID_MEMBER(w, "id", bench_net_put_sub_id(w->b, w->net, sub));
    name(w);
    str(w, "country", bench_net_country_name(country));
    str(w, "tso", tsos[country]);
    properties(w, "region", bench_net_region(w->net, sub));
    arr_begin(w, "voltageLevels");
    voltage_level(w, 2 * sub);
    voltage_level(w, 2 * sub + 1);
    arr_end(w);
    transformer(w, sub);
    obj_end(w);
}

static void temporary_limits(jw *w, long long permanent10, int count)
{
    static const char *const names[] = { "IT20", "IT10", "IT1" };
    static const size_t durations[] = { 1200, 600, 60 };

    arr_begin(w, "temporaryLimits");
    for (int i = 0; i < count; i++) {
        obj_begin(w, true);
        str(w, "name", names[i]);
        integer(w, "acceptableDuration", durations[i]);
        tenths(w, "value", permanent10 + permanent10 * (i + 1) / 5);
        obj_end(w);
    }
    arr_end(w);
}

static void limits_group(jw *w, int s, long long permanent10, int temporary)
{
    arr_begin(w, s == 1 ? "operationalLimitsGroups1" : "operationalLimitsGroups2");
    obj_begin(w, true);
    str(w, "id", "DEFAULT");
    key(w, "currentLimits");
    obj_begin(w, false);
    tenths(w, "permanentLimit", permanent10);
    if (temporary > 0)
        temporary_limits(w, permanent10, temporary);
    obj_end(w);
    obj_end(w);
    arr_end(w);
}

static void line(jw *w, size_t i)
{
    const bench_net_line *l = &w->net->lines[i];
    uint64_t h = bench_net_hash(w->net, 400, i);
    bool limits = bench_net_line_limits(i);

    obj_begin(w, true);
    ID_MEMBER(w, "id", bench_net_put_line_id(w->b, w->net, i));
    name(w);
    tenths(w, "r", (long long)(h % 50) + 1);
    tenths(w, "x", (long long)(h % 500) + 10);
    raw(w, "b1", "1.93E-4");
    raw(w, "b2", "1.93E-4");
    side(w, l->vl1, l->term1, "1");
    side(w, l->vl2, l->term2, "2");
    state(w, h, "1");
    state(w, h >> 5, "2");
    if (limits) {
        raw(w, "selectedOperationalLimitsGroupIds1", "[ \"DEFAULT\" ]");
        raw(w, "selectedOperationalLimitsGroupIds2", "[ \"DEFAULT\" ]");
    }
    if (bench_net_line_owner(i))
        properties(w, "owner", bench_net_country_name(bench_net_country(w->net, l->vl1 / 2)));
    if (limits) {
        limits_group(w, 1, (long long)(h % 20000) + 3000, bench_net_temporary_limits(h, 1));
        limits_group(w, 2, (long long)(h % 20000) + 3000, bench_net_temporary_limits(h, 2));
    }
    obj_end(w);
}

/* The members `key1` and `key2` naming the two ends of tie line or HVDC line `i` (`tie`): its
 * boundary lines or converter stations. */
static void extra_ends(jw *w, bool tie, size_t i, const char *key1, const char *key2)
{
    const bench_net_extra *end1 = bench_net_find_extra(w->net, tie, i, 1);
    const bench_net_extra *end2 = bench_net_find_extra(w->net, tie, i, 2);

    ID_MEMBER(w, key1, bench_net_put_extra_id(w->b, w->net, end1));
    ID_MEMBER(w, key2, bench_net_put_extra_id(w->b, w->net, end2));
}

static void network_links(jw *w)
{
    arr_begin(w, "tieLines");
    for (size_t t = 0; t < w->net->tie_count; t++) {
        obj_begin(w, true);
        ID_MEMBER(w, "id", (PUT(w, "TIE"), bench_put_number(w->b, t, 0)));
        extra_ends(w, true, t, "boundaryLineId1", "boundaryLineId2");
        obj_end(w);
    }
    arr_end(w);
    arr_begin(w, "hvdcLines");
    for (size_t i = 0; i < w->net->hvdc_count; i++) {
        obj_begin(w, true);
        ID_MEMBER(w, "id", (PUT(w, "HVDC"), bench_put_number(w->b, i, 0)));
        raw(w, "r", "1.0");
        raw(w, "nominalV", "400.0");
        str(w, "convertersMode", "SIDE_1_RECTIFIER_SIDE_2_INVERTER");
        raw(w, "activePowerSetpoint", "100.0");
        raw(w, "maxP", "1000.0");
        extra_ends(w, false, i, "converterStation1", "converterStation2");
        obj_end(w);
    }
    arr_end(w);
}

int bench_net_write_jiidm(const bench_net *net, bench_bytes *out)
{
    jw w = { out, net, 0, 0, { true } };

    obj_begin(&w, false);
    str(&w, "version", "1.17");
    str(&w, "id", "synthetic");
    str(&w, "caseDate", "2026-01-01T00:00:00.000Z");
    integer(&w, "forecastDistance", 0);
    str(&w, "sourceFormat", "bench");
    str(&w, "minimumValidationLevel", "STEADY_STATE_HYPOTHESIS");
    arr_begin(&w, "substations");
    for (size_t s = 0; s < net->subs && !out->failed; s++)
        substation(&w, s);
    arr_end(&w);
    arr_begin(&w, "lines");
    for (size_t i = 0; i < net->line_count && !out->failed; i++)
        line(&w, i);
    arr_end(&w);
    network_links(&w);
    obj_end(&w);
    return out->failed ? -1 : 0;
}
