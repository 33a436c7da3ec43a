/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_JIIDM_EL_H
#define CTG_IIDM_JIIDM_EL_H

/* Private to iidm/jiidm*.c: one element being read, between its '{' and its '}'. */

#include <stdbool.h>
#include <stdint.h>

#include "iidm/jiidm.h"
#include "iidm/topology.h"

/* The members the importer keeps; every other one is skipped. */
typedef enum jx_key {
    JK_OTHER = 0,
    JK_ID, JK_NAME,
    JK_NODE, JK_NODE1, JK_NODE2, JK_NODE3,
    JK_BUS, JK_BUS1, JK_BUS2, JK_BUS3,
    JK_CBUS, JK_CBUS1, JK_CBUS2, JK_CBUS3,
    JK_VL1, JK_VL2, JK_VL3,
    JK_CS1, JK_CS2, JK_DL1, JK_DL2, JK_BL1, JK_BL2,
    JK_ID_1, JK_ID_2, JK_NAME_1, JK_NAME_2,
    JK_COUNTRY, JK_NOMINAL_V, JK_TOPOLOGY, JK_OPEN, JK_RETAINED,
    JK_ALIASES, JK_PROPERTIES, JK_VERSION, JK_NBTOPO, JK_BBTOPO,
    JK_COUNT
} jx_key;

/* The member names of the keys, for paths and messages. */
extern const char *const jx_key_names[JK_COUNT];

/* The key of the `n` bytes at `s`, JK_OTHER for any other member. */
jx_key jx_key_of(const char *s, size_t n);

typedef struct jx_el {
    const jx_kind *k;
    const jx_scope *scope;      /* where it stands */
    jx_scope inner;             /* what its children see */
    unsigned in;                /* JX_IN_* when it is a container, else 0 */
    uint64_t seen;              /* a bit per jx_key read */
    const char *s[JK_COUNT];    /* string values (scratch arena); valid where seen */
    uint32_t u[JK_COUNT];       /* nodes, booleans, topology kind; valid where seen */
    double nominal_v;
    ctg_mark start;             /* its '{' */
    ctg_mark key_mark;          /* the member being read */
    ctg_mark marks[JK_COUNT];   /* where each kept member was */
    const ctg_net_object *obj;  /* once in the table (NULL for topologies) */
    bool created;               /* jx_el_create ran */
    bool discarded;             /* a switch PowSyBl drops (same node at both ends, < 1.8) */
} jx_el;

static inline bool jx_el_has(const jx_el *el, jx_key key)
{
    return (el->seen >> key) & 1u;
}

/* Prepares `el` for an element of kind `k` whose '{' is at `start`. */
void jx_el_init(jx_el *el, const jx_kind *k, const jx_scope *scope, ctg_mark start);

/* Adds the element to the table, once (later calls do nothing); checks what it needs first. */
int jx_el_create(jx_read *x, jx_el *el);

/* The element's "aliases" / "properties" arrays, rd.tok on '['. */
int jx_read_aliases(jx_read *x, jx_el *el);
int jx_read_properties(jx_read *x, jx_el *el);

#endif
