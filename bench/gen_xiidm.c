/* SPDX-License-Identifier: MPL-2.0 */
/* The synthetic network as XIIDM 1.17, in the layout PowSyBl's NetworkSerDe writes: the
 * `iidm:` prefix, four spaces of indentation, attributes in its order, properties first among
 * the children, the state values (p, q) of a solved case, current limits on two lines in
 * three and ratio tap changers on half of the transformers, so that the bytes a reader skips
 * weigh what they weigh in real files. */

#include "gen_net.h"

typedef struct xw {
    bench_bytes *b;
    const bench_net *net;
} xw;

#define PUT(w, lit) BENCH_PUT((w)->b, lit)

static void indent(xw *w, int level)
{
    static const char spaces[] = "                                ";

    bench_put(w->b, spaces, (size_t)level * 4);
}

static void put_property(xw *w, int level, const char *name, const char *value)
{
    indent(w, level);
    PUT(w, "<iidm:property name=\"");
    bench_put_str(w->b, name);
    PUT(w, "\" value=\"");
    bench_put_str(w->b, value);
    PUT(w, "\"/>\n");
}

/* ` name="…"` after the id just written (the id's closing quote is the next write's). */
static void put_name(xw *w)
{
    char name[128];
    size_t n = bench_net_last_name(w->b, false, name, sizeof name);

    PUT(w, "\" name=\"");
    bench_put(w->b, name, n);
}

/* ` node="N"` or ` bus="B" connectableBus="B"`, with `side` ("", "1", "2") after each name. */
static void put_terminal(xw *w, size_t vl, uint32_t term, const char *side)
{
    if (bench_net_topology(w->net, vl) == NET_TOPO_NODE) {
        PUT(w, " node");
        bench_put_str(w->b, side);
        PUT(w, "=\"");
        bench_put_number(w->b, bench_net_node(w->net, vl, term), 0);
        PUT(w, "\"");
        return;
    }
    for (int i = 0; i < 2; i++) {
        bench_put_str(w->b, i == 0 ? " bus" : " connectableBus");
        bench_put_str(w->b, side);
        PUT(w, "=\"");
        bench_net_put_bus_id(w->b, w->net, vl, term);
        PUT(w, "\"");
    }
}

/* ` p="…" q="…"`: a solved state, from the object's hash. */
static void put_state(xw *w, uint64_t h, const char *side)
{
    PUT(w, " p");
    bench_put_str(w->b, side);
    PUT(w, "=\"");
    bench_net_put_tenths(w->b, (long long)(h % 20000) - 10000);
    PUT(w, "\" q");
    bench_put_str(w->b, side);
    PUT(w, "=\"");
    bench_net_put_tenths(w->b, (long long)((h >> 20) % 4000) - 2000);
    PUT(w, "\"");
}

/* Ends an element's start tag: `/>` when it has no `children` (false then), else `>`. */
static bool end_start_tag(xw *w, bool children)
{
    if (children)
        PUT(w, ">\n");
    else
        PUT(w, "/>\n");
    return children;
}

/* ---- topology ------------------------------------------------------------------------------ */

static void put_switch(void *payload, size_t vl, const char *what, size_t n, bool breaker,
                       uint32_t n1, uint32_t n2)
{
    xw *w = payload;

    indent(w, 4);
    PUT(w, "<iidm:switch id=\"");
    bench_net_put_vl_id(w->b, w->net, vl);
    bench_put_str(w->b, what);
    bench_put_number(w->b, n, 0);
    put_name(w);
    bench_put_str(w->b, breaker ? "\" kind=\"BREAKER\" retained=\"true\" open=\"false\" node1=\""
                                : "\" kind=\"DISCONNECTOR\" open=\"false\" node1=\"");
    bench_put_number(w->b, n1, 0);
    PUT(w, "\" node2=\"");
    bench_put_number(w->b, n2, 0);
    PUT(w, "\"/>\n");
}

static void put_node_breaker(xw *w, size_t vl)
{
    size_t bbs = bench_net_busbars(w->net, vl);

    indent(w, 3);
    PUT(w, "<iidm:nodeBreakerTopology>\n");
    for (size_t i = 0; i < bbs; i++) {
        indent(w, 4);
        PUT(w, "<iidm:busbarSection id=\"");
        bench_net_put_vl_id(w->b, w->net, vl);
        PUT(w, "_BBS");
        bench_put_number(w->b, i + 1, 0);
        PUT(w, "\" node=\"");
        bench_put_number(w->b, i, 0);
        PUT(w, "\"/>\n");
    }
    bench_net_each_switch(w->net, vl, put_switch, w);
    indent(w, 3);
    PUT(w, "</iidm:nodeBreakerTopology>\n");
}

static void put_bus(xw *w, size_t vl, const char *suffix)
{
    indent(w, 4);
    PUT(w, "<iidm:bus id=\"");
    bench_net_put_vl_id(w->b, w->net, vl);
    bench_put_str(w->b, suffix);
    PUT(w, "\"/>\n");
}

static void put_bus_breaker(xw *w, size_t vl)
{
    bool two = bench_net_topology(w->net, vl) == NET_TOPO_TWO_BUSES;

    indent(w, 3);
    PUT(w, "<iidm:busBreakerTopology>\n");
    put_bus(w, vl, "_B1");
    if (two) {
        put_bus(w, vl, "_B2");
        indent(w, 4);
        PUT(w, "<iidm:switch id=\"");
        bench_net_put_vl_id(w->b, w->net, vl);
        PUT(w, "_COUPLER\" kind=\"BREAKER\" retained=\"true\" open=\"false\" bus1=\"");
        bench_net_put_vl_id(w->b, w->net, vl);
        PUT(w, "_B1\" bus2=\"");
        bench_net_put_vl_id(w->b, w->net, vl);
        PUT(w, "_B2\"/>\n");
    }
    indent(w, 3);
    PUT(w, "</iidm:busBreakerTopology>\n");
}

/* ---- injections ----------------------------------------------------------------------------- */

static void put_limits_child(xw *w, uint64_t h)
{
    indent(w, 4);
    PUT(w, "<iidm:minMaxReactiveLimits minQ=\"");
    bench_net_put_tenths(w->b, -(long long)(h % 5000) - 10);
    PUT(w, "\" maxQ=\"");
    bench_net_put_tenths(w->b, (long long)(h % 5000) + 10);
    PUT(w, "\"/>\n");
}

static void put_curve(xw *w, uint64_t h)
{
    long long max_p = (long long)(h % 15000) + 1000;

    indent(w, 4);
    PUT(w, "<iidm:reactiveCapabilityCurve>\n");
    for (int i = 0; i < BENCH_NET_CURVE_POINTS; i++) {
        indent(w, 5);
        PUT(w, "<iidm:point p=\"");
        bench_net_put_tenths(w->b, max_p * i / 2);
        PUT(w, "\" minQ=\"");
        bench_net_put_tenths(w->b, -(long long)(h % 5000) - 10 + 100 * i);
        PUT(w, "\" maxQ=\"");
        bench_net_put_tenths(w->b, (long long)(h % 5000) + 10 - 100 * i);
        PUT(w, "\"/>\n");
    }
    indent(w, 4);
    PUT(w, "</iidm:reactiveCapabilityCurve>\n");
}

static void put_generator(xw *w, size_t vl)
{
    static const char *const sources[] = { "NUCLEAR", "HYDRO", "THERMAL", "WIND", "SOLAR" };
    uint64_t h = bench_net_hash(w->net, 100, vl);
    const char *fuel = bench_net_fuel(w->net, vl);

    indent(w, 3);
    PUT(w, "<iidm:generator id=\"");
    bench_net_put_injection_id(w->b, w->net, vl, 0);
    put_name(w);
    PUT(w, "\" energySource=\"");
    bench_put_str(w->b, sources[h % 5]);
    PUT(w, "\" minP=\"0.0\" maxP=\"");
    bench_net_put_tenths(w->b, (long long)(h % 15000) + 1000);
    PUT(w, "\" voltageRegulatorOn=\"true\" targetP=\"");
    bench_net_put_tenths(w->b, (long long)(h % 9000) + 100);
    PUT(w, "\" targetV=\"");
    bench_put_number(w->b, (size_t)bench_net_kv(w->net, vl), 0);
    PUT(w, ".0\" targetQ=\"0.0\"");
    put_terminal(w, vl, 0, "");
    put_state(w, h, "");
    PUT(w, ">\n");
    if (fuel != NULL)
        put_property(w, 4, "fuel", fuel);
    if (BENCH_NET_CURVE(h))
        put_curve(w, h);
    else
        put_limits_child(w, h);
    indent(w, 3);
    PUT(w, "</iidm:generator>\n");
}

static void put_load(xw *w, size_t vl, int k)
{
    uint64_t h = bench_net_hash(w->net, 100 + (uint64_t)k, vl);

    indent(w, 3);
    PUT(w, "<iidm:load id=\"");
    bench_net_put_injection_id(w->b, w->net, vl, k);
    put_name(w);
    PUT(w, "\" loadType=\"UNDEFINED\" p0=\"");
    bench_net_put_tenths(w->b, (long long)(h % 2000));
    PUT(w, "\" q0=\"");
    bench_net_put_tenths(w->b, (long long)(h % 300));
    PUT(w, "\"");
    put_terminal(w, vl, (uint32_t)k, "");
    put_state(w, h, "");
    PUT(w, "/>\n");
}

static void put_compensator(xw *w, size_t vl)
{
    int comp = bench_net_compensator(w->net, vl);
    uint64_t h = bench_net_hash(w->net, 104, vl);

    indent(w, 3);
    if (comp == NET_COMP_SHUNT) {
        PUT(w, "<iidm:shuntCompensator id=\"");
        bench_net_put_injection_id(w->b, w->net, vl, 4);
        put_name(w);
        PUT(w, "\" sectionCount=\"1\" voltageRegulatorOn=\"false\"");
    } else if (comp == NET_COMP_BATTERY) {
        PUT(w, "<iidm:battery id=\"");
        bench_net_put_injection_id(w->b, w->net, vl, 4);
        put_name(w);
        PUT(w, "\" targetP=\"0.0\" targetQ=\"0.0\" minP=\"-50.0\" maxP=\"50.0\"");
    } else {
        PUT(w, "<iidm:staticVarCompensator id=\"");
        bench_net_put_injection_id(w->b, w->net, vl, 4);
        put_name(w);
        PUT(w, "\" bMin=\"-0.01\" bMax=\"0.01\" voltageSetpoint=\"");
        bench_put_number(w->b, (size_t)bench_net_kv(w->net, vl), 0);
        PUT(w, ".0\" regulationMode=\"VOLTAGE\" regulating=\"true\"");
    }
    put_terminal(w, vl, 4, "");
    put_state(w, h, "");
    if (!end_start_tag(w, comp != NET_COMP_SVC))
        return;
    if (comp == NET_COMP_SHUNT) {
        indent(w, 4);
        PUT(w, "<iidm:shuntLinearModel bPerSection=\"-0.012\" maximumSectionCount=\"1\"/>\n");
    } else {
        put_limits_child(w, h);
    }
    indent(w, 3);
    bench_put_str(w->b,
                  comp == NET_COMP_SHUNT ? "</iidm:shuntCompensator>\n" : "</iidm:battery>\n");
}

static void put_extra(xw *w, const bench_net_extra *x, uint32_t term)
{
    uint64_t h = bench_net_hash(w->net, 200 + x->kind, x->index * 2 + x->side);

    indent(w, 3);
    if (x->kind == NET_EXTRA_VSC)
        PUT(w, "<iidm:vscConverterStation id=\"");
    else if (x->kind == NET_EXTRA_LCC)
        PUT(w, "<iidm:lccConverterStation id=\"");
    else
        PUT(w, "<iidm:boundaryLine id=\"");
    bench_net_put_extra_id(w->b, w->net, x);
    put_name(w);
    if (x->kind == NET_EXTRA_VSC)
        PUT(w, "\" voltageRegulatorOn=\"true\" lossFactor=\"1.1\" voltageSetpoint=\"400.0\" "
               "reactivePowerSetpoint=\"0.0\"");
    else if (x->kind == NET_EXTRA_LCC)
        PUT(w, "\" lossFactor=\"1.1\" powerFactor=\"0.6\"");
    else
        PUT(w, "\" p0=\"0.0\" q0=\"0.0\" r=\"1.0\" x=\"10.0\" g=\"0.0\" b=\"0.0\"");
    put_terminal(w, x->vl, term, "");
    if (x->kind == NET_EXTRA_BOUNDARY) {
        PUT(w, " pairingKey=\"XNODE_");
        bench_put_number(w->b, x->index, 4);
        PUT(w, "\"");
    }
    put_state(w, h, "");
    if (!end_start_tag(w, x->kind == NET_EXTRA_VSC))
        return;
    put_limits_child(w, h);
    indent(w, 3);
    PUT(w, "</iidm:vscConverterStation>\n");
}

/* In PowSyBl's order: generators, batteries, loads, shunts, SVCs, stations, boundary lines. */
static void put_injections(xw *w, size_t vl)
{
    int comp = bench_net_compensator(w->net, vl);
    uint32_t first = w->net->first_extra[vl], end = w->net->first_extra[vl + 1];

    put_generator(w, vl);
    if (comp == NET_COMP_BATTERY)
        put_compensator(w, vl);
    for (int k = 1; k < 4; k++)
        put_load(w, vl, k);
    if (comp != NET_COMP_BATTERY)
        put_compensator(w, vl);
    for (uint32_t i = first; i < end; i++)
        put_extra(w, &w->net->extras[i], BENCH_NET_INJECTIONS + (i - first));
}

static void put_voltage_level(xw *w, size_t vl)
{
    int kv = bench_net_kv(w->net, vl);
    bool node = bench_net_topology(w->net, vl) == NET_TOPO_NODE;

    indent(w, 2);
    PUT(w, "<iidm:voltageLevel id=\"");
    bench_net_put_vl_id(w->b, w->net, vl);
    put_name(w);
    PUT(w, "\" nominalV=\"");
    bench_put_number(w->b, (size_t)kv, 0);
    PUT(w, ".0\" lowVoltageLimit=\"");
    bench_net_put_tenths(w->b, kv * 9);
    PUT(w, "\" highVoltageLimit=\"");
    bench_net_put_tenths(w->b, kv * 11);
    bench_put_str(w->b, node ? "\" topologyKind=\"NODE_BREAKER\">\n"
                             : "\" topologyKind=\"BUS_BREAKER\">\n");
    if (node)
        put_node_breaker(w, vl);
    else
        put_bus_breaker(w, vl);
    put_injections(w, vl);
    indent(w, 2);
    PUT(w, "</iidm:voltageLevel>\n");
}

/* ` voltageLevelId1="V" node1="N"`, the side of a branch. */
static void put_side(xw *w, size_t vl, uint32_t term, const char *side)
{
    PUT(w, " voltageLevelId");
    bench_put_str(w->b, side);
    PUT(w, "=\"");
    bench_net_put_vl_id(w->b, w->net, vl);
    PUT(w, "\"");
    put_terminal(w, vl, term, side);
}

/* The ratio tap changer PowSyBl writes for a regulating transformer: +-8 taps. */
static void put_tap_changer(xw *w, size_t sub)
{
    indent(w, 3);
    PUT(w, "<iidm:ratioTapChanger lowTapPosition=\"0\" tapPosition=\"8\" targetDeadband=\"0.0\" "
           "loadTapChangingCapabilities=\"true\" regulating=\"true\" regulationMode=\"VOLTAGE\" "
           "regulationValue=\"");
    bench_put_number(w->b, (size_t)bench_net_kv(w->net, 2 * sub + 1), 0);
    PUT(w, ".0\">\n");
    indent(w, 4);
    PUT(w, "<iidm:terminalRef id=\"");
    bench_net_put_sub_id(w->b, w->net, sub);
    PUT(w, "_TR\" side=\"TWO\"/>\n");
    for (int i = 0; i < BENCH_NET_TAP_STEPS; i++) {
        indent(w, 4);
        PUT(w, "<iidm:step r=\"0.0\" x=\"0.0\" g=\"0.0\" b=\"0.0\" rho=\"");
        bench_net_put_hundredths(w->b, 92 + i);
        PUT(w, "\"/>\n");
    }
    indent(w, 3);
    PUT(w, "</iidm:ratioTapChanger>\n");
}

static void put_transformer(xw *w, size_t sub)
{
    size_t hv = 2 * sub, lv = hv + 1;
    uint64_t h = bench_net_hash(w->net, 300, sub);
    uint32_t term = BENCH_NET_INJECTIONS;

    indent(w, 2);
    PUT(w, "<iidm:twoWindingsTransformer id=\"");
    bench_net_put_sub_id(w->b, w->net, sub);
    PUT(w, "_TR");
    put_name(w);
    PUT(w, "\" r=\"0.2\" x=\"");
    bench_net_put_tenths(w->b, (long long)(h % 400) + 20);
    PUT(w, "\" b=\"3.2E-5\" ratedU1=\"");
    bench_put_number(w->b, (size_t)bench_net_kv(w->net, hv), 0);
    PUT(w, ".0\" ratedU2=\"");
    bench_put_number(w->b, (size_t)bench_net_kv(w->net, lv), 0);
    PUT(w, ".0\"");
    put_side(w, hv, term + w->net->first_extra[hv + 1] - w->net->first_extra[hv], "1");
    put_side(w, lv, term + w->net->first_extra[lv + 1] - w->net->first_extra[lv], "2");
    put_state(w, h, "1");
    put_state(w, h >> 3, "2");
    if (!end_start_tag(w, h % 2 == 0))
        return;
    put_tap_changer(w, sub);
    indent(w, 2);
    PUT(w, "</iidm:twoWindingsTransformer>\n");
}

static void put_substation(xw *w, size_t sub)
{
    static const char *const tsos[] = { "RTE", "TENNET_DE", "TERNA", "REE", "ELIA" };
    unsigned country = bench_net_country(w->net, sub);

    indent(w, 1);
    PUT(w, "<iidm:substation id=\"");
    bench_net_put_sub_id(w->b, w->net, sub);
    put_name(w);
    PUT(w, "\" country=\"");
    bench_put_str(w->b, bench_net_country_name(country));
    PUT(w, "\" tso=\"");
    bench_put_str(w->b, tsos[country]);
    PUT(w, "\">\n");
    put_property(w, 2, "region", bench_net_region(w->net, sub));
    put_voltage_level(w, 2 * sub);
    put_voltage_level(w, 2 * sub + 1);
    put_transformer(w, sub);
    indent(w, 1);
    PUT(w, "</iidm:substation>\n");
}

static void put_temporary_limits(xw *w, long long permanent10, int count)
{
    static const char *const names[] = { "IT20", "IT10", "IT1" };
    static const char *const durations[] = { "1200", "600", "60" };

    for (int i = 0; i < count; i++) {
        indent(w, 4);
        PUT(w, "<iidm:temporaryLimit name=\"");
        bench_put_str(w->b, names[i]);
        PUT(w, "\" acceptableDuration=\"");
        bench_put_str(w->b, durations[i]);
        PUT(w, "\" value=\"");
        bench_net_put_tenths(w->b, permanent10 + permanent10 * (i + 1) / 5);
        PUT(w, "\"/>\n");
    }
}

static void put_limits_group(xw *w, int side, long long permanent10, int temporary)
{
    indent(w, 2);
    bench_put_str(w->b, side == 1 ? "<iidm:operationalLimitsGroup1 id=\"DEFAULT\">\n"
                                  : "<iidm:operationalLimitsGroup2 id=\"DEFAULT\">\n");
    indent(w, 3);
    PUT(w, "<iidm:currentLimits permanentLimit=\"");
    bench_net_put_tenths(w->b, permanent10);
    if (temporary > 0) {
        PUT(w, "\">\n");
        put_temporary_limits(w, permanent10, temporary);
        indent(w, 3);
        PUT(w, "</iidm:currentLimits>\n");
    } else {
        PUT(w, "\"/>\n");
    }
    indent(w, 2);
    bench_put_str(w->b, side == 1 ? "</iidm:operationalLimitsGroup1>\n"
                                  : "</iidm:operationalLimitsGroup2>\n");
}

static void put_line(xw *w, size_t i)
{
    const bench_net_line *l = &w->net->lines[i];
    uint64_t h = bench_net_hash(w->net, 400, i);
    bool limits = bench_net_line_limits(i), owner = bench_net_line_owner(i);

    indent(w, 1);
    PUT(w, "<iidm:line id=\"");
    bench_net_put_line_id(w->b, w->net, i);
    put_name(w);
    PUT(w, "\" r=\"");
    bench_net_put_tenths(w->b, (long long)(h % 50) + 1);
    PUT(w, "\" x=\"");
    bench_net_put_tenths(w->b, (long long)(h % 500) + 10);
    PUT(w, "\" b1=\"1.93E-4\" b2=\"1.93E-4\"");
    put_side(w, l->vl1, l->term1, "1");
    put_side(w, l->vl2, l->term2, "2");
    put_state(w, h, "1");
    put_state(w, h >> 5, "2");
    if (limits)
        PUT(w, " selectedOperationalLimitsGroupIds1=\"DEFAULT\" "
               "selectedOperationalLimitsGroupIds2=\"DEFAULT\"");
    if (!end_start_tag(w, limits || owner))
        return;
    if (owner)
        put_property(w, 2, "owner", bench_net_country_name(bench_net_country(w->net, l->vl1 / 2)));
    if (limits) {
        put_limits_group(w, 1, (long long)(h % 20000) + 3000, bench_net_temporary_limits(h, 1));
        put_limits_group(w, 2, (long long)(h % 20000) + 3000, bench_net_temporary_limits(h, 2));
    }
    indent(w, 1);
    PUT(w, "</iidm:line>\n");
}

/* The attributes `attr1` and `attr2` naming the two ends of tie line or HVDC line `i` (`tie`):
 * its boundary lines or converter stations; then the element's end. */
static void put_extra_ends(xw *w, bool tie, size_t i, const char *attr1, const char *attr2)
{
    PUT(w, "\" ");
    bench_put_str(w->b, attr1);
    PUT(w, "=\"");
    bench_net_put_extra_id(w->b, w->net, bench_net_find_extra(w->net, tie, i, 1));
    PUT(w, "\" ");
    bench_put_str(w->b, attr2);
    PUT(w, "=\"");
    bench_net_put_extra_id(w->b, w->net, bench_net_find_extra(w->net, tie, i, 2));
    PUT(w, "\"/>\n");
}

static void put_tie_line(xw *w, size_t t)
{
    indent(w, 1);
    PUT(w, "<iidm:tieLine id=\"TIE");
    bench_put_number(w->b, t, 0);
    put_extra_ends(w, true, t, "boundaryLineId1", "boundaryLineId2");
}

static void put_hvdc_line(xw *w, size_t i)
{
    indent(w, 1);
    PUT(w, "<iidm:hvdcLine id=\"HVDC");
    bench_put_number(w->b, i, 0);
    PUT(w, "\" r=\"1.0\" nominalV=\"400.0\" convertersMode=\"SIDE_1_RECTIFIER_SIDE_2_INVERTER\" "
           "activePowerSetpoint=\"100.0\" maxP=\"1000.0");
    put_extra_ends(w, false, i, "converterStation1", "converterStation2");
}

int bench_net_write_xiidm(const bench_net *net, bench_bytes *out)
{
    xw w = { out, net };

    PUT(&w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<iidm:network xmlns:iidm=\"http://www.powsybl.org/schema/iidm/1_17\" "
            "id=\"synthetic\" caseDate=\"2026-01-01T00:00:00.000Z\" forecastDistance=\"0\" "
            "sourceFormat=\"bench\" minimumValidationLevel=\"STEADY_STATE_HYPOTHESIS\">\n");
    for (size_t s = 0; s < net->subs && !out->failed; s++)
        put_substation(&w, s);
    for (size_t i = 0; i < net->line_count && !out->failed; i++)
        put_line(&w, i);
    for (size_t t = 0; t < net->tie_count; t++)
        put_tie_line(&w, t);
    for (size_t i = 0; i < net->hvdc_count; i++)
        put_hvdc_line(&w, i);
    PUT(&w, "</iidm:network>\n");
    return out->failed ? -1 : 0;
}
