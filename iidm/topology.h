/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_TOPOLOGY_H
#define CTG_IIDM_TOPOLOGY_H

/* Private: the calculated bus-breaker-view buses of node-breaker voltage levels, as PowSyBl's
 * topology processing names them: the nodes a level's terminals and switches mention, merged
 * through its closed switches that are not retained and through its internal connections; one
 * bus per group, "<voltage level id>_<lowest node of the group>", in ascending node order.
 * Shared by both importers: an importer records every node and switch while it reads, says
 * when a level has ended (its switches and internal connections are all inside it), and asks
 * for the buses once the whole network is in the table (a branch's terminal comes after its
 * voltage levels). Memory: 8 bytes per node of the ended levels and per later mention, plus
 * what the level being read holds (8 bytes per node mention, 16 per switch). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/network.h"

typedef struct ctg_nb_graph {
    const ctg_allocator *alloc;
    /* (voltage level's VOLTAGE_LEVEL type_index << 34) | node << 2 | flags (topology.c) */
    uint64_t *nodes;
    size_t node_count, node_cap;
    size_t settled;  /* nodes[..settled] are compacted: sorted and flagged per part */
    uint64_t *edges; /* pairs of nodes of the same level, merged in the bus-breaker view */
    size_t edge_count, edge_cap; /* in pairs */
} ctg_nb_graph;

/* An empty graph allocating through `a` (NULL = malloc); nothing allocated yet. */
void ctg_nb_graph_init(ctg_nb_graph *g, const ctg_allocator *a);
/* Releases the graph's memory; accepts a zeroed or disposed graph. */
void ctg_nb_graph_dispose(ctg_nb_graph *g);

/* Records that `node` of the voltage level of type index `vl` exists. CTG_OK or CTG_ENOMEM. */
int ctg_nb_graph_node(ctg_nb_graph *g, uint32_t vl, uint32_t node);
/* Records a switch or internal connection between `n1` and `n2` of `vl`; `merges` says the
 * bus-breaker view joins them (closed and not retained, or an internal connection).
 * CTG_OK or CTG_ENOMEM. */
int ctg_nb_graph_edge(ctg_nb_graph *g, uint32_t vl, uint32_t n1, uint32_t n2, bool merges);

/* Says that the level being read has ended: what was recorded since the last call (its nodes
 * and edges, and later mentions of earlier levels) is settled into 8 bytes per node and its
 * edges are dropped. Optional: without it, everything is settled at the end. Every edge of a
 * level must come before the call that ends it. CTG_OK or CTG_ENOMEM. */
int ctg_nb_graph_level_end(ctg_nb_graph *g);

/* Adds every node-breaker level's calculated buses to `net` (ctg_network_add_calculated_bus),
 * level by level in enumeration order. CTG_OK, CTG_ENOMEM, or the builder's error. */
int ctg_nb_graph_add_buses(ctg_nb_graph *g, ctg_network *net, ctg_error *err);

#endif
