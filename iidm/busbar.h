/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_BUSBAR_H
#define CTG_IIDM_BUSBAR_H

/* Private to ctg_gen_topology_read (iidm/busbar*.c): one builder of the busbar topology, fed
 * by two readers, XIIDM (busbar_xml.c, libexpat) and JIIDM (busbar_json.c, ctg's lexer).
 *
 * A reader walks its document and tells the builder, as they come, the switches and internal
 * connections of each node-breaker level and the node or bus of each terminal; the builder
 * computes what each busbar takes with it once the document has ended (ctg_bb_finish), since
 * a branch's terminals come after its voltage levels. The builder's calls only fail with
 * CTG_ENOMEM, which the reader reports in its own way (with its place in the document). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/source.h"
#include "network/generate_int.h"

/* A switch, an internal connection, or a terminal or busbar section at a node (builder's). */
typedef struct ctg_bb_item ctg_bb_item;

typedef struct ctg_bb {
    const ctg_network *net;
    const ctg_allocator *alloc;
    ctg_gen_topology *topo; /* what ctg_bb_finish fills */
    ctg_bb_item *items;     /* the node-breaker levels' items, in document order */
    size_t len, cap;
} ctg_bb;

/* Whether `vl` (may be NULL) is a node-breaker voltage level. */
bool ctg_bb_node_breaker(const ctg_net_object *vl);

/* The number of terminals of `obj` (1 to 3): how many voltage levels it has. */
size_t ctg_bb_sides(const ctg_net_object *obj);

/* A switch (`internal` false: `breaker` and `open` as its kind and state) or an internal
 * connection between nodes `n1` and `n2` of `vl`; nothing when `vl` is not node-breaker (a
 * bus's equipment is what is on it). */
int ctg_bb_switch(ctg_bb *b, const ctg_net_object *vl, uint32_t n1, uint32_t n2, bool breaker,
                  bool open);

/* Terminal `side` (0-based) of `obj` is at `node`; nothing when its level is not
 * node-breaker. A busbar section is recorded as the busbar at its node. */
int ctg_bb_node(ctg_bb *b, const ctg_net_object *obj, size_t side, uint32_t node);

/* Terminal `side` of `obj` is on the bus `bus` (`len` bytes); nothing when its level is
 * node-breaker or `bus` is no declared bus of the network. */
int ctg_bb_bus(ctg_bb *b, const ctg_net_object *obj, size_t side, const char *bus, size_t len);

/* Computes every busbar section's equipment from what was recorded. */
int ctg_bb_finish(ctg_bb *b);

/* The readers: the whole of `src` walked into `b`. They return CTG_OK or an error code with
 * `err` filled (place and path, no source), as an importer does (iidm/iidm_internal.h). */
int ctg_bb_read_xml(ctg_bb *b, const ctg_lex_source *src, ctg_error *err);
int ctg_bb_read_json(ctg_bb *b, const ctg_lex_source *src, ctg_error *err);

#endif
