/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_SCAN_DATA_H
#define CTG_NETWORK_SCAN_DATA_H

/* Private, part of network/table.h (which includes it; a header of its own so that the
 * table's layout, network/table_impl.h, can hold these records without including table.h). */

#include <stddef.h>
#include <stdint.h>

#include "ctg/network.h"

/* Compact scan data, for criterion scans: what a criterion asks of an object's voltage levels
 * in small dense arrays, so that a scan over one type reads one sequential stream plus the
 * voltage levels' array (16 bytes a level: cache-resident for tens of thousands of levels),
 * instead of chasing object -> voltage level -> container -> substation -> container.
 *
 * Guarantees: maintained by every builder (an add's commit writes them; nothing else
 * changes them); valid until the next add; indexed by type_index, the enumeration order of
 * ctg_network_object_at, and of ctg_network_count(net, type) items. */
#define CTG_NET_SCAN_NONE UINT32_MAX

/* One voltage level, at its type_index. */
typedef struct ctg_net_vl_scan {
    double nominal_v;    /* as container->nominal_v: NaN when unknown */
    uint32_t substation; /* type_index of its substation, CTG_NET_SCAN_NONE when none */
    char country[2];     /* its substation's country code, {0, 0} when none (or no substation) */
    uint8_t topology;    /* ctg_topology_kind */
    uint8_t reserved;    /* 0 */
} ctg_net_vl_scan;

/* Every voltage level's record, ctg_network_count(net, VOLTAGE_LEVEL) items. */
const ctg_net_vl_scan *ctg_net_scan_voltage_levels(const ctg_network *net);

/* For a type whose objects stand in voltage levels (ctg_net_object.voltage_levels: every
 * type but NETWORK, SUBSTATION, VOLTAGE_LEVEL, AREA, OVERLOAD_MANAGEMENT_SYSTEM and the DC
 * types): `*stride` uint32 per object, at [type_index * stride]: the type_index of each of its
 * voltage levels (voltage_levels[0..n), CTG_NET_SCAN_NONE where NULL; n is 3 for
 * THREE_WINDINGS_TRANSFORMER, 2 for LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE, HVDC_LINE and the
 * two DC converters, else 1), then, for the two transformer types only, the type_index of its
 * own substation (ctg_net_object.substation; NONE when NULL). NULL with *stride 0 for other
 * types (or when the type has no objects). */
const uint32_t *ctg_net_scan_levels(const ctg_network *net, ctg_identifiable_type type,
                                    size_t *stride);

/* The objects of `type` (any but HVDC_CONVERTER_STATION, whose VSC stations are enumerated
 * apart) numbered nums[i] - base, for every i < n whose number is a type_index of the type, into
 * out[i]; the others left as they are, so that one array of numbers spanning several types,
 * each from its own base, is resolved by a call per type. The objects of a group of branches
 * are scattered over their chunks: a loop here finds each without a call, its checks and a
 * reload of the type's vector per object, as ctg_network_object_at would. */
void ctg_net_scan_objects(const ctg_network *net, ctg_identifiable_type type, size_t base,
                          const uint32_t *nums, size_t n, const ctg_net_object **out);

/* The properties of every SUBSTATION and VOLTAGE_LEVEL again, as their ctg_net_attrs hold them
 * (the same count, order and pointers), in one array per type that the builders fill in type
 * order: a property criterion's memo reads two sequential streams instead of object ->
 * attributes record -> properties, a cache miss each on a big network. Object `i` of the type
 * has the `runs[i].count` properties at [runs[i].first]. NULL (with *runs NULL) for other
 * types, and for a type none of whose objects has a property (nothing is kept for it). */
typedef struct ctg_net_prop_run {
    uint32_t first, count;
} ctg_net_prop_run;

const ctg_net_property *ctg_net_scan_properties(const ctg_network *net, ctg_identifiable_type type,
                                                const ctg_net_prop_run **runs);

/* Property keys (any length) and values of up to CTG_NET_SCAN_SHORT bytes are kept once each,
 * up to their first NUL: two such strings are equal when their pointers are. The network's
 * copy of the `len` bytes at `s` (a key, or a short value; no NUL among them), NULL when no
 * property of the network has that key or value. Read-only. */
#define CTG_NET_SCAN_SHORT 32
const char *ctg_net_scan_interned(const ctg_network *net, const char *s, size_t len);

#endif
