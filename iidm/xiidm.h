/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_XIIDM_H
#define CTG_IIDM_XIIDM_H

/* Private to the XIIDM importer: the state of one read, shared by the driver (xiidm.c: the
 * parser, its memory, its input, errors and paths), the names (xiidm_names.c) and the
 * element handlers (xiidm_elem.c). */

#include <expat.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error_set.h"
#include "ctg/network.h"
#include "iidm/iidm_internal.h"
#include "iidm/topology.h"

/* The elements of the IIDM namespaces the importer knows: everything else of those
 * namespaces inside a container is an error, inside an equipment it is skipped. */
typedef enum xkind {
    XK_NETWORK = 0,
    XK_SUBSTATION,
    XK_VOLTAGE_LEVEL,
    XK_BUS_BREAKER_TOPOLOGY,
    XK_NODE_BREAKER_TOPOLOGY,
    XK_BUS,
    XK_SWITCH,
    XK_BUSBAR_SECTION,
    XK_INTERNAL_CONNECTION,
    XK_GENERATOR,
    XK_LOAD,
    XK_BATTERY,
    XK_SHUNT,             /* the name before 1.16 */
    XK_SHUNT_COMPENSATOR, /* the name from 1.16 */
    XK_STATIC_VAR_COMPENSATOR,
    XK_DANGLING_LINE, /* the name before 1.16 */
    XK_BOUNDARY_LINE, /* the name from 1.16 */
    XK_LCC_CONVERTER_STATION,
    XK_VSC_CONVERTER_STATION,
    XK_GROUND,
    XK_TWO_WINDINGS_TRANSFORMER,
    XK_THREE_WINDINGS_TRANSFORMER,
    XK_LINE,
    XK_TIE_LINE,
    XK_HVDC_LINE,
    XK_OVERLOAD_MANAGEMENT_SYSTEM,
    XK_AREA,
    XK_DC_NODE,
    XK_DC_SWITCH,
    XK_DC_GROUND,
    XK_DC_LINE,
    XK_VOLTAGE_SOURCE_CONVERTER,
    XK_LINE_COMMUTATED_CONVERTER,
    XK_PROPERTY,
    XK_ALIAS,
    XK_EXTENSION,
    XK_VOLTAGE_ANGLE_LIMIT,
    XK_OTHER, /* an element of an IIDM namespace that none of the above names */
    XK_COUNT
} xkind;

/* The attributes the importer reads; an element's others are ignored. */
typedef enum xattr {
    XA_ID = 0,
    XA_NAME,
    XA_NODE,
    XA_NODE1,
    XA_NODE2,
    XA_NODE3,
    XA_BUS,
    XA_BUS1,
    XA_BUS2,
    XA_BUS3,
    XA_CBUS,
    XA_CBUS1,
    XA_CBUS2,
    XA_CBUS3,
    XA_VL1,
    XA_VL2,
    XA_VL3,
    XA_COUNTRY,
    XA_NOMINAL_V,
    XA_TOPOLOGY_KIND,
    XA_CS1,
    XA_CS2,
    XA_DL1,
    XA_DL2,
    XA_BL1,
    XA_BL2,
    XA_ID_1,
    XA_ID_2,
    XA_NAME_1,
    XA_NAME_2,
    XA_VALUE,
    XA_OPEN,
    XA_RETAINED,
    XA_COUNT
} xattr;

/* The name of element kind `k` (XK_OTHER: "?"). */
const char *ctg_xiidm_kind_name(xkind k);
/* The kind of the local name `s` (`n` bytes) of an IIDM element. */
xkind ctg_xiidm_kind(const char *s, size_t n);
/* The attribute named `s` (NUL-terminated), XA_COUNT when not one the importer reads. */
xattr ctg_xiidm_attr(const char *s);
/* The name of attribute `a`. */
const char *ctg_xiidm_attr_name(xattr a);

/* Deepest nesting of elements the importer keeps track of (network, subnetwork,
 * substation, voltage level, topology, equipment, property): deeper elements are skipped. */
#define XIIDM_MAX_FRAMES 8

/* One open element the importer follows. */
typedef struct xframe {
    xkind kind;
    uint32_t index;            /* 1-based among the parent's children of its kind */
    ctg_net_object *obj;       /* the object it made, NULL when none */
    uint32_t counts[XK_COUNT]; /* children seen per kind, for the next child's index */
} xframe;

/* One read. */
typedef struct xreader {
    XML_Parser parser;
    const ctg_iidm_input *in;
    ctg_error *err;
    int rc;            /* the first failure; CTG_OK while all is well */
    ctg_network *net;  /* NULL until the root element */
    unsigned minor;    /* IIDM version 1.<minor> */
    const char *ns[2]; /* the IIDM namespaces of the file's version */
    size_t ns_len[2];
    char ns_buf[2][64];
    size_t depth;      /* open elements, all of them */
    size_t skip_until; /* > 0: inside a skipped subtree opened at that depth */
    xframe frames[XIIDM_MAX_FRAMES];
    size_t nframes;
    ctg_net_object *substation;     /* the open substation, else NULL */
    ctg_net_object *vl;             /* the open voltage level, else NULL */
    ctg_topology_kind topology;     /* of `vl` */
    ctg_net_object *subnetwork;     /* the open subnetwork, else NULL */
    const struct xterm *by_node[3]; /* the spec's sides placed by their node, else NULL */
    const char *attrs[XA_COUNT];    /* the current element's attributes, NULL = absent */
    const char *local;              /* the current element's local name, in its start */
    ctg_nb_graph graph;             /* node-breaker topology, for the calculated buses */
    char *text;                     /* an alias' text */
    size_t text_len;
    size_t text_cap;
    bool root_closed;               /* the document element has ended */
    ctg_error_place root_end;       /* where its end tag starts */
} xreader;

/* Fails the read with `code` at the parser's current position, the path of the open
 * elements and the formatted message; later failures are ignored. Returns `code`. */
int ctg_xiidm_fail(xreader *r, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* An element of an IIDM namespace has started: `k` is its kind. Called with r->attrs set.
 * Returns CTG_OK, or a failure (already recorded) that stops the read. Sets *follow when
 * the element is tracked (a frame pushed), else the caller skips its subtree. */
int ctg_xiidm_start(xreader *r, xkind k, bool *follow);
/* The tracked element on top of the frames ends. */
int ctg_xiidm_end(xreader *r);

/* Collects the text of the element being read into r->text (on) or stops (off). */
void ctg_xiidm_collect_text(xreader *r, bool on);
/* Node-breaker topology (xiidm_topo.c): an internal connection (always joins its nodes). */
int ctg_xiidm_nb_internal(xreader *r, bool *follow);
/* A switch of the open node-breaker level joins two nodes (or not); a terminal of an object
 * stands at `node` of node-breaker level `vl`. */
int ctg_xiidm_nb_switch(xreader *r, uint32_t n1, uint32_t n2, bool joins);
int ctg_xiidm_nb_terminal(xreader *r, const ctg_net_object *vl, uint32_t node);
/* A voltage level's element ends: its topology is settled (iidm/topology.h), which keeps the
 * graph at 8 bytes per node of the ended levels. */
int ctg_xiidm_nb_level_end(xreader *r);
/* The document has ended well: completes the network. */
int ctg_xiidm_finish(xreader *r);

#endif
