/* SPDX-License-Identifier: MPL-2.0 */
/* The element arrays of JIIDM: their member names, what their items are, where they may stand
 * and in which IIDM versions (the 1.16 renames: shunt -> shuntCompensator, danglingLine ->
 * boundaryLine; the version gates of XIIDM's schemas). Transformers stand in substations only:
 * PowSyBl rejects them at the network level in every version, whatever the 1.11+ schemas say. */

#include "iidm/jiidm.h"

#include <string.h>

#define K(arr, el, shape, type, conv, legs, lo, hi, where)                                         \
    {                                                                                              \
        arr, el, (unsigned char)(sizeof(arr) - 1), shape, CTG_IDENTIFIABLE_##type,                 \
            CTG_CONVERTER_##conv, legs, lo, hi, where                                              \
    }

#define NET (JX_IN_NETWORK | JX_IN_SUBNET)
#define SUB JX_IN_SUBSTATION
#define VL JX_IN_VLEVEL

const jx_kind jx_root_kind = K("", "network", JX_ROOT, NETWORK, NONE, 0, 0, 255, 0);
const jx_kind jx_subnet_kind =
    K("networks", "network", JX_SUBNET, NETWORK, NONE, 0, 11, 255, JX_IN_NETWORK);
const jx_kind jx_nbtopo_kind =
    K("nodeBreakerTopology", "nodeBreakerTopology", JX_NBTOPO, NETWORK, NONE, 0, 0, 255, VL);
const jx_kind jx_bbtopo_kind =
    K("busBreakerTopology", "busBreakerTopology", JX_BBTOPO, NETWORK, NONE, 0, 0, 255, VL);

/* Sorted by the length of their array names, for jx_kind_find's binary search (within a
 * length, in the order PowSyBl writes them). 255: still there in the newest version. */
static const jx_kind kinds[] = {
    K("buses", "bus", JX_BUS, BUS, NONE, 0, 0, 255, JX_IN_BBTOPO),
    K("loads", "load", JX_INJECTION, LOAD, NONE, 0, 0, 255, VL),
    K("lines", "line", JX_BRANCH, LINE, NONE, 2, 0, 255, NET),
    K("areas", "area", JX_PLAIN, AREA, NONE, 0, 13, 255, NET),
    K("shunts", "shunt", JX_INJECTION, SHUNT_COMPENSATOR, NONE, 0, 0, 15, VL),
    K("grounds", "ground", JX_INJECTION, GROUND, NONE, 0, 12, 255, VL),
    K("dcNodes", "dcNode", JX_PLAIN, DC_NODE, NONE, 0, 15, 255, NET),
    K("dcLines", "dcLine", JX_PLAIN, DC_LINE, NONE, 0, 15, 255, NET),
    K("switches", "switch", JX_SWITCH, SWITCH, NONE, 0, 0, 255, JX_IN_NBTOPO | JX_IN_BBTOPO),
    K("tieLines", "tieLine", JX_TIE, TIE_LINE, NONE, 0, 0, 255, NET),
    K("batteries", "battery", JX_INJECTION, BATTERY, NONE, 0, 0, 255, VL),
    K("hvdcLines", "hvdcLine", JX_HVDC, HVDC_LINE, NONE, 0, 0, 255, NET),
    K("dcGrounds", "dcGround", JX_PLAIN, DC_GROUND, NONE, 0, 15, 255, NET),
    K("generators", "generator", JX_INJECTION, GENERATOR, NONE, 0, 0, 255, VL),
    K("dcSwitches", "dcSwitch", JX_PLAIN, DC_SWITCH, NONE, 0, 15, 255, NET),
    K("substations", "substation", JX_SUBSTATION, SUBSTATION, NONE, 0, 0, 255, NET),
    K("voltageLevels", "voltageLevel", JX_VLEVEL, VOLTAGE_LEVEL, NONE, 0, 0, 255, NET | SUB),
    K("danglingLines", "danglingLine", JX_INJECTION, BOUNDARY_LINE, NONE, 0, 0, 15, VL),
    K("boundaryLines", "boundaryLine", JX_INJECTION, BOUNDARY_LINE, NONE, 0, 16, 255, VL),
    K("busbarSections", "busbarSection", JX_INJECTION, BUSBAR_SECTION, NONE, 0, 0, 255,
      JX_IN_NBTOPO),
    K("shuntCompensators", "shuntCompensator", JX_INJECTION, SHUNT_COMPENSATOR, NONE, 0, 16, 255,
      VL),
    K("internalConnections", "internalConnection", JX_INTERNAL, NETWORK, NONE, 0, 0, 255,
      JX_IN_NBTOPO),
    K("vscConverterStations", "vscConverterStation", JX_INJECTION, HVDC_CONVERTER_STATION, VSC, 0,
      0, 255, VL),
    K("lccConverterStations", "lccConverterStation", JX_INJECTION, HVDC_CONVERTER_STATION, LCC, 0,
      0, 255, VL),
    K("staticVarCompensators", "staticVarCompensator", JX_INJECTION, STATIC_VAR_COMPENSATOR, NONE,
      0, 0, 255, VL),
    K("twoWindingsTransformers", "twoWindingsTransformer", JX_BRANCH, TWO_WINDINGS_TRANSFORMER,
      NONE, 2, 0, 255, SUB),
    K("voltageSourceConverters", "voltageSourceConverter", JX_ACDC, VOLTAGE_SOURCE_CONVERTER, NONE,
      0, 15, 255, VL),
    K("lineCommutatedConverters", "lineCommutatedConverter", JX_ACDC, LINE_COMMUTATED_CONVERTER,
      NONE, 0, 15, 255, VL),
    K("threeWindingsTransformers", "threeWindingsTransformer", JX_BRANCH,
      THREE_WINDINGS_TRANSFORMER, NONE, 3, 0, 255, SUB),
    K("overloadManagementSystems", "overloadManagementSystem", JX_PLAIN, OVERLOAD_MANAGEMENT_SYSTEM,
      NONE, 0, 12, 255, SUB),
};

#define KIND_COUNT (sizeof(kinds) / sizeof(kinds[0]))

/* The index of the first of the kinds whose array name is `len` bytes or longer (KIND_COUNT
 * when none). */
static size_t first_of_len(size_t len)
{
    size_t lo = 0, hi = KIND_COUNT;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (kinds[mid].array_len < len)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether the `len` bytes at `key` are the array name of `k`, which is `len` bytes: inlined
 * word compares (the names are 5 to 25 bytes), not a call to memcmp. */
static inline bool same_name(const char *key, const jx_kind *k, size_t len)
{
    if (len <= 16)
        return ctg_short_eq(key, k->array, len);
    if (len <= 32)
        return ctg_short_eq(key, k->array, 16) &&
               ctg_short_eq(key + len - 16, k->array + len - 16, 16);
    return memcmp(key, k->array, len) == 0;
}

/* Asked for every key of a container that is not an attribute (155k on a 10k-bus network):
 * only the names of that length are compared. */
const jx_kind *jx_kind_find(const char *key, size_t len, unsigned in)
{
    if (len == jx_subnet_kind.array_len && (in & jx_subnet_kind.where) &&
        memcmp(key, jx_subnet_kind.array, len) == 0)
        return &jx_subnet_kind;
    for (size_t i = first_of_len(len); i < KIND_COUNT && kinds[i].array_len == len; i++) {
        const jx_kind *k = &kinds[i];
        if ((k->where & in) && same_name(key, k, len))
            return k;
    }
    return NULL;
}

/* Keeps `name` (`n` bytes) in `sv`, as jx_leaf_sieve keeps a key. */
static void keep_name(ctg_key_sieve *sv, const char *name, size_t n)
{
    if (n < 64 && name[0] >= 'a' && name[0] <= 'z')
        sv->keep[n] |= 1u << (name[0] - 'a');
    else
        sv->max_len = 0;
}

void jx_container_sieve(ctg_key_sieve *sv, size_t max_name_len)
{
    jx_leaf_sieve(sv, max_name_len);
    /* An array name with a value of another type is an error at that value: kept too. */
    for (size_t i = 0; i < KIND_COUNT; i++)
        keep_name(sv, kinds[i].array, kinds[i].array_len);
    keep_name(sv, jx_subnet_kind.array, jx_subnet_kind.array_len);
    sv->scalars_only = true;
}
