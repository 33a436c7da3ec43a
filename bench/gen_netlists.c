/* SPDX-License-Identifier: MPL-2.0 */
/* The lists the network section resolves against the synthetic network, in PowSyBl's layout,
 * and the number of contingencies each must give, counted from the model (not from ctg). */

#include "gen_net.h"

/* N-1 of the French grid: every line with both ends in France and an end at 225-400 kV. */
int bench_net_list_lines(bench_bytes *out)
{
    BENCH_PUT(out, "{\n  \"type\" : \"lineCriterion\",\n  \"version\" : \"1.1\",\n"
                   "  \"name\" : \"n-1 FR 225-400 kV\",\n  \"countryCriterion\" : {\n"
                   "    \"type\" : \"TWO_COUNTRY\",\n    \"countries1\" : [ \"FR\" ],\n"
                   "    \"countries2\" : [ \"FR\" ]\n  },\n  \"nominalVoltageCriterion\" : {\n"
                   "    \"type\" : \"TWO_NOMINAL_VOLTAGE\",\n    \"voltageInterval1\" : {\n"
                   "      \"nominalVoltageLowBound\" : 225.0,\n      \"lowClosed\" : true,\n"
                   "      \"nominalVoltageHighBound\" : 400.0,\n      \"highClosed\" : true\n"
                   "    }\n  }\n}");
    return out->failed ? -1 : 0;
}

static bool in_225_400(int kv)
{
    return kv >= 225 && kv <= 400;
}

size_t bench_net_expect_lines(const bench_net *net)
{
    size_t n = 0;

    for (size_t i = 0; i < net->line_count; i++) {
        const bench_net_line *l = &net->lines[i];
        n += bench_net_country(net, l->vl1 / 2) == 0 && bench_net_country(net, l->vl2 / 2) == 0 &&
             (in_225_400(bench_net_kv(net, l->vl1)) || in_225_400(bench_net_kv(net, l->vl2)));
    }
    return n;
}

/* Lines between two substations of the north, by their `region` property. */
int bench_net_list_property(bench_bytes *out)
{
    BENCH_PUT(out, "{\n  \"type\" : \"lineCriterion\",\n  \"version\" : \"1.1\",\n"
                   "  \"name\" : \"lines of the north\",\n  \"propertyCriteria\" : [ {\n"
                   "    \"type\" : \"PROPERTY\",\n    \"propertyKey\" : \"region\",\n"
                   "    \"propertyValue\" : [ \"north\" ],\n"
                   "    \"equipmentToCheck\" : \"SUBSTATION\",\n    \"sideToCheck\" : \"BOTH\"\n"
                   "  } ]\n}");
    return out->failed ? -1 : 0;
}

size_t bench_net_expect_property(const bench_net *net)
{
    size_t n = 0;

    for (size_t i = 0; i < net->line_count; i++) {
        const char *r1 = bench_net_region(net, net->lines[i].vl1 / 2);
        const char *r2 = bench_net_region(net, net->lines[i].vl2 / 2);
        n += r1[0] == 'n' && r2[0] == 'n'; /* "north": the only region starting with 'n' */
    }
    return n;
}

/* Object k of a cycle of lines, generators, loads and transformers (spread by a prime). */
static void put_object_id(bench_bytes *b, const bench_net *net, size_t k, const char **type)
{
    size_t spread = k * 7919;

    switch (k % 4) {
    case 0:
        *type = "LINE";
        bench_net_put_line_id(b, net, spread % net->line_count);
        break;
    case 1:
        *type = "GENERATOR";
        bench_net_put_injection_id(b, net, spread % net->vls, 0);
        break;
    case 2:
        *type = "LOAD";
        bench_net_put_injection_id(b, net, spread % net->vls, 1 + (int)(k / 4 % 3));
        break;
    default:
        *type = "TWO_WINDINGS_TRANSFORMER";
        bench_net_put_sub_id(b, net, spread % net->subs);
        BENCH_PUT(b, "_TR");
    }
}

/* `n` ID_BASED identifiers, each naming an existing object: n contingencies. */
int bench_net_list_ids(const bench_net *net, size_t n, bench_bytes *out)
{
    const char *type;

    BENCH_PUT(out, "{\n  \"type\" : \"identifier\",\n  \"version\" : \"1.3\",\n"
                   "  \"name\" : \"ids\",\n  \"identifiers\" : [");
    for (size_t i = 0; i < n && !out->failed; i++) {
        bench_put_str(out, i == 0 ? " {\n    \"type\" : \"ID_BASED\",\n    \"identifier\" : \""
                                  : ", {\n    \"type\" : \"ID_BASED\",\n    \"identifier\" : \"");
        put_object_id(out, net, i, &type);
        BENCH_PUT(out, "\"\n  }");
    }
    BENCH_PUT(out, " ]\n}");
    return out->failed ? -1 : 0;
}

/* A `default` list of `n` one-element contingencies; every tenth names a load as a generator,
 * which the validity filter drops. `*valid` counts the others. */
int bench_net_list_default(const bench_net *net, size_t n, bench_bytes *out, size_t *valid)
{
    const char *type;

    *valid = 0;
    BENCH_PUT(out, "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n"
                   "  \"name\" : \"n-1\",\n  \"contingencies\" : [");
    for (size_t i = 0; i < n && !out->failed; i++) {
        bool wrong = i % 10 == 9;
        bench_put_str(out, i == 0 ? " {\n    \"id\" : \"C" : ", {\n    \"id\" : \"C");
        bench_put_number(out, i, 7);
        BENCH_PUT(out, "\",\n    \"elements\" : [ {\n      \"id\" : \"");
        put_object_id(out, net, wrong ? 2 : i, &type);
        BENCH_PUT(out, "\",\n      \"type\" : \"");
        bench_put_str(out, wrong ? "GENERATOR" : type);
        BENCH_PUT(out, "\"\n    } ]\n  }");
        *valid += !wrong;
    }
    BENCH_PUT(out, " ]\n}");
    return out->failed ? -1 : 0;
}
