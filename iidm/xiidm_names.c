/* SPDX-License-Identifier: MPL-2.0 */
/* The element and attribute names of XIIDM the importer knows. A look-up runs once per element
 * and once per attribute read: a switch on the first byte leaves a handful of candidates, each
 * compared by length first. */

#include <string.h>

#include "iidm/xiidm.h"

static const char *const kind_names[XK_COUNT] = {
    [XK_NETWORK] = "network",
    [XK_SUBSTATION] = "substation",
    [XK_VOLTAGE_LEVEL] = "voltageLevel",
    [XK_BUS_BREAKER_TOPOLOGY] = "busBreakerTopology",
    [XK_NODE_BREAKER_TOPOLOGY] = "nodeBreakerTopology",
    [XK_BUS] = "bus",
    [XK_SWITCH] = "switch",
    [XK_BUSBAR_SECTION] = "busbarSection",
    [XK_INTERNAL_CONNECTION] = "internalConnection",
    [XK_GENERATOR] = "generator",
    [XK_LOAD] = "load",
    [XK_BATTERY] = "battery",
    [XK_SHUNT] = "shunt",
    [XK_SHUNT_COMPENSATOR] = "shuntCompensator",
    [XK_STATIC_VAR_COMPENSATOR] = "staticVarCompensator",
    [XK_DANGLING_LINE] = "danglingLine",
    [XK_BOUNDARY_LINE] = "boundaryLine",
    [XK_LCC_CONVERTER_STATION] = "lccConverterStation",
    [XK_VSC_CONVERTER_STATION] = "vscConverterStation",
    [XK_GROUND] = "ground",
    [XK_TWO_WINDINGS_TRANSFORMER] = "twoWindingsTransformer",
    [XK_THREE_WINDINGS_TRANSFORMER] = "threeWindingsTransformer",
    [XK_LINE] = "line",
    [XK_TIE_LINE] = "tieLine",
    [XK_HVDC_LINE] = "hvdcLine",
    [XK_OVERLOAD_MANAGEMENT_SYSTEM] = "overloadManagementSystem",
    [XK_AREA] = "area",
    [XK_DC_NODE] = "dcNode",
    [XK_DC_SWITCH] = "dcSwitch",
    [XK_DC_GROUND] = "dcGround",
    [XK_DC_LINE] = "dcLine",
    [XK_VOLTAGE_SOURCE_CONVERTER] = "voltageSourceConverter",
    [XK_LINE_COMMUTATED_CONVERTER] = "lineCommutatedConverter",
    [XK_PROPERTY] = "property",
    [XK_ALIAS] = "alias",
    [XK_EXTENSION] = "extension",
    [XK_VOLTAGE_ANGLE_LIMIT] = "voltageAngleLimit",
    [XK_OTHER] = "?",
};

static const char *const attr_names[XA_COUNT] = {
    [XA_ID] = "id",
    [XA_NAME] = "name",
    [XA_NODE] = "node",
    [XA_NODE1] = "node1",
    [XA_NODE2] = "node2",
    [XA_NODE3] = "node3",
    [XA_BUS] = "bus",
    [XA_BUS1] = "bus1",
    [XA_BUS2] = "bus2",
    [XA_BUS3] = "bus3",
    [XA_CBUS] = "connectableBus",
    [XA_CBUS1] = "connectableBus1",
    [XA_CBUS2] = "connectableBus2",
    [XA_CBUS3] = "connectableBus3",
    [XA_VL1] = "voltageLevelId1",
    [XA_VL2] = "voltageLevelId2",
    [XA_VL3] = "voltageLevelId3",
    [XA_COUNTRY] = "country",
    [XA_NOMINAL_V] = "nominalV",
    [XA_TOPOLOGY_KIND] = "topologyKind",
    [XA_CS1] = "converterStation1",
    [XA_CS2] = "converterStation2",
    [XA_DL1] = "danglingLineId1",
    [XA_DL2] = "danglingLineId2",
    [XA_BL1] = "boundaryLineId1",
    [XA_BL2] = "boundaryLineId2",
    [XA_ID_1] = "id_1",
    [XA_ID_2] = "id_2",
    [XA_NAME_1] = "name_1",
    [XA_NAME_2] = "name_2",
    [XA_VALUE] = "value",
    [XA_OPEN] = "open",
    [XA_RETAINED] = "retained",
};

const char *ctg_xiidm_kind_name(xkind k)
{
    return k < XK_COUNT ? kind_names[k] : "?";
}

const char *ctg_xiidm_attr_name(xattr a)
{
    return a < XA_COUNT ? attr_names[a] : "?";
}

/* Candidates of each first byte, in no particular order, ending with XK_COUNT. */
static const unsigned char kind_by_first[][6] = {
    ['a' - 'a'] = { XK_ALIAS, XK_AREA, XK_COUNT },
    ['b' - 'a'] = { XK_BUS, XK_BUSBAR_SECTION, XK_BUS_BREAKER_TOPOLOGY, XK_BATTERY,
                    XK_BOUNDARY_LINE, XK_COUNT },
    ['d' - 'a'] = { XK_DANGLING_LINE, XK_DC_NODE, XK_DC_SWITCH, XK_DC_GROUND, XK_DC_LINE,
                    XK_COUNT },
    ['e' - 'a'] = { XK_EXTENSION, XK_COUNT },
    ['g' - 'a'] = { XK_GENERATOR, XK_GROUND, XK_COUNT },
    ['h' - 'a'] = { XK_HVDC_LINE, XK_COUNT },
    ['i' - 'a'] = { XK_INTERNAL_CONNECTION, XK_COUNT },
    ['l' - 'a'] = { XK_LOAD, XK_LINE, XK_LCC_CONVERTER_STATION, XK_LINE_COMMUTATED_CONVERTER,
                    XK_COUNT },
    ['n' - 'a'] = { XK_NETWORK, XK_NODE_BREAKER_TOPOLOGY, XK_COUNT },
    ['o' - 'a'] = { XK_OVERLOAD_MANAGEMENT_SYSTEM, XK_COUNT },
    ['p' - 'a'] = { XK_PROPERTY, XK_COUNT },
    ['s' - 'a'] = { XK_SWITCH, XK_SUBSTATION, XK_SHUNT, XK_SHUNT_COMPENSATOR,
                    XK_STATIC_VAR_COMPENSATOR, XK_COUNT },
    ['t' - 'a'] = { XK_TWO_WINDINGS_TRANSFORMER, XK_THREE_WINDINGS_TRANSFORMER, XK_TIE_LINE,
                    XK_COUNT },
    ['v' - 'a'] = { XK_VOLTAGE_LEVEL, XK_VSC_CONVERTER_STATION, XK_VOLTAGE_SOURCE_CONVERTER,
                    XK_VOLTAGE_ANGLE_LIMIT, XK_COUNT },
    ['z' - 'a'] = { XK_COUNT },
};

xkind ctg_xiidm_kind(const char *s, size_t n)
{
    if (n == 0 || s[0] < 'a' || s[0] > 'z')
        return XK_OTHER;
    const unsigned char *c = kind_by_first[s[0] - 'a'];
    /* Rows left out of the initializer are all zero, that is XK_NETWORK: compare anyway. */
    for (size_t i = 0; i < 6 && c[i] != XK_COUNT; i++) {
        const char *name = kind_names[c[i]];
        if (strlen(name) == n && memcmp(name, s, n) == 0)
            return (xkind)c[i];
        if (c[i] == XK_NETWORK && i > 0)
            break;
    }
    return XK_OTHER;
}

static const unsigned char attr_by_first[][8] = {
    ['b' - 'a'] = { XA_BUS, XA_BUS1, XA_BUS2, XA_BUS3, XA_BL1, XA_BL2, XA_COUNT },
    ['c' - 'a'] = { XA_COUNTRY, XA_CS1, XA_CS2, XA_CBUS, XA_CBUS1, XA_CBUS2, XA_CBUS3 },
    ['d' - 'a'] = { XA_DL1, XA_DL2, XA_COUNT },
    ['i' - 'a'] = { XA_ID, XA_ID_1, XA_ID_2, XA_COUNT },
    ['n' - 'a'] = { XA_NAME, XA_NODE, XA_NODE1, XA_NODE2, XA_NODE3, XA_NOMINAL_V, XA_NAME_1,
                    XA_NAME_2 },
    ['o' - 'a'] = { XA_OPEN, XA_COUNT },
    ['r' - 'a'] = { XA_RETAINED, XA_COUNT },
    ['t' - 'a'] = { XA_TOPOLOGY_KIND, XA_COUNT },
    ['v' - 'a'] = { XA_VL1, XA_VL2, XA_VL3, XA_VALUE, XA_COUNT },
    ['z' - 'a'] = { XA_COUNT },
};

/* The length of each attribute name, so that most candidates are told apart by it. */
static const unsigned char attr_lens[XA_COUNT] = {
    [XA_ID] = 2,    [XA_NAME] = 4,   [XA_NODE] = 4,     [XA_NODE1] = 5,     [XA_NODE2] = 5,
    [XA_NODE3] = 5, [XA_BUS] = 3,    [XA_BUS1] = 4,     [XA_BUS2] = 4,      [XA_BUS3] = 4,
    [XA_CBUS] = 14, [XA_CBUS1] = 15, [XA_CBUS2] = 15,   [XA_CBUS3] = 15,    [XA_VL1] = 15,
    [XA_VL2] = 15,  [XA_VL3] = 15,   [XA_COUNTRY] = 7,  [XA_NOMINAL_V] = 8, [XA_TOPOLOGY_KIND] = 12,
    [XA_CS1] = 17,  [XA_CS2] = 17,   [XA_DL1] = 15,     [XA_DL2] = 15,      [XA_BL1] = 15,
    [XA_BL2] = 15,  [XA_ID_1] = 4,   [XA_ID_2] = 4,     [XA_NAME_1] = 6,    [XA_NAME_2] = 6,
    [XA_VALUE] = 5, [XA_OPEN] = 4,   [XA_RETAINED] = 8,
};

xattr ctg_xiidm_attr(const char *s)
{
    if (s[0] < 'a' || s[0] > 'z')
        return XA_COUNT;
    const unsigned char *c = attr_by_first[s[0] - 'a'];
    size_t n = strlen(s);
    for (size_t i = 0; i < 8 && c[i] != XA_COUNT; i++) {
        if (c[i] == XA_ID && i > 0)
            break; /* a row left zero by the initializer */
        if (attr_lens[c[i]] == n && memcmp(attr_names[c[i]], s, n) == 0)
            return (xattr)c[i];
    }
    return XA_COUNT;
}
