/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_JIIDM_H
#define CTG_IIDM_JIIDM_H

/* Private to the JIIDM importer (iidm/jiidm*.c): the state of one read and the shape of the
 * elements it reads. The entry point, ctg_jiidm_read, is declared in iidm/iidm_internal.h.
 *
 * The importer reads straight off the lexer's tokens, through json/reader.h's path frames and
 * error helpers: one member loop (jiidm_elem.c) serves every element kind, described by a row
 * of jiidm_kinds.c. An element becomes a table object as soon as its first child array (or its
 * aliases or properties) comes, or at its end, as PowSyBl's own streaming reader does: its
 * attributes come first in every file PowSyBl writes. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/network.h"
#include "base/arena.h"
#include "iidm/iidm_internal.h"
#include "iidm/topology.h"
#include "json/reader.h"
#include "network/table.h"

/* How an element is placed, which decides what it needs and how it is added. */
typedef enum jx_shape {
    JX_ROOT = 0, /* the network itself */
    JX_SUBNET,   /* a subnetwork (1.11+, one level) */
    JX_SUBSTATION,
    JX_VLEVEL,
    JX_NBTOPO, /* nodeBreakerTopology: not an identifiable, holds arrays */
    JX_BBTOPO, /* busBreakerTopology */
    JX_BUS,    /* declared bus of a bus-breaker level */
    JX_SWITCH,
    JX_INJECTION, /* one terminal in the enclosing voltage level */
    JX_BRANCH,    /* voltageLevelId1/2 (3 for a three-winding transformer) */
    JX_TIE,       /* a tie line: two boundary lines (inline halves up to 1.9) */
    JX_HVDC,      /* converterStation1/2 */
    JX_ACDC,      /* an AC/DC converter: terminal 1, optional terminal 2, both in the level */
    JX_INTERNAL,  /* an internal connection of a node-breaker level: not an identifiable */
    JX_PLAIN      /* an identifiable without placement (area, DC objects) */
} jx_shape;

/* Where an array of elements may stand. */
enum {
    JX_IN_NETWORK = 1u << 0,
    JX_IN_SUBNET = 1u << 1,
    JX_IN_SUBSTATION = 1u << 2,
    JX_IN_VLEVEL = 1u << 3,
    JX_IN_NBTOPO = 1u << 4,
    JX_IN_BBTOPO = 1u << 5
};

/* One array member name and what its items are. */
typedef struct jx_kind {
    const char *array;   /* the JSON member, e.g. "generators" */
    const char *element; /* PowSyBl's element name, for version messages */
    unsigned char array_len;
    unsigned char shape;     /* jx_shape */
    unsigned char type;      /* ctg_identifiable_type */
    unsigned char converter; /* ctg_converter_kind */
    unsigned char legs;      /* JX_BRANCH: 2 or 3 */
    unsigned char min_minor; /* first IIDM 1.x that has it */
    unsigned char max_minor; /* last IIDM 1.x that has it */
    unsigned char where;     /* JX_IN_* */
} jx_kind;

/* The kind of array `key` (`len` bytes) inside a container of kind `in` (JX_IN_*), NULL when
 * the name is not an element array there. */
const jx_kind *jx_kind_find(const char *key, size_t len, unsigned in);

/* The kinds that are no identifiables but still elements: the root and the topologies. */
extern const jx_kind jx_root_kind, jx_subnet_kind, jx_nbtopo_kind, jx_bbtopo_kind;

/* The state of one JIIDM read. */
typedef struct jx_items jx_items;

typedef struct jx_read {
    ctg_reader rd;      /* first: the lexer, the live JSON path, error helpers */
    ctg_network *net;   /* NULL until the root's attributes are read */
    ctg_arena *scratch; /* strings of the element being read; reset after each one */
    const ctg_iidm_input *in;
    ctg_iidm_read_options opts;
    unsigned minor;        /* IIDM 1.minor */
    char version[16];      /* "1.minor" as the file wrote it */
    size_t next_progress;  /* lexer offset of the next progress report */
    ctg_nb_graph graph;    /* the node-breaker levels' nodes and switches */
    const jx_items *items; /* what the items of the array being read are */
    ctg_key_sieve leaf;    /* the members of a leaf element that are skipped unseen */
    ctg_key_sieve container; /* those of a container (scalars only) */
} jx_read;

/* What the enclosing elements give the one being read. */
typedef struct jx_scope {
    const ctg_net_object *substation; /* NULL outside one */
    const ctg_net_object *vlevel;     /* NULL outside one */
    const ctg_net_object *subnet;     /* the subnetwork being read, NULL for the root */
    unsigned in;                      /* JX_IN_* of the container */
} jx_scope;

/* Reads the element whose '{' is rd.tok, of kind `k`, in `scope`; returns with rd.tok on its
 * '}'. */
int jx_read_element(jx_read *x, const jx_kind *k, const jx_scope *scope);

/* Reads the array whose '[' is rd.tok: each item an element of kind `k`. */
int jx_read_elements(jx_read *x, const jx_kind *k, const jx_scope *scope);

typedef struct jx_el jx_el;

/* What the items of an array are: elements of kind `k` in `scope`, or (when `each` is set)
 * entries of `el` (aliases, properties), each handed to `each` with the place it starts. */
struct jx_items {
    const jx_kind *k;
    const jx_scope *scope;
    int (*each)(jx_read *x, jx_el *el, const ctg_mark *at);
    jx_el *el;
};

/* Reads the array whose '[' is rd.tok through the project's one array reader, as `it` says. */
int jx_read_items(jx_read *x, const jx_items *it);

/* Creates the network from the root element's id and version (jiidm.c). */
int jx_create_network(jx_read *x, const char *id, const ctg_mark *at);

/* Parses `version` (the string token) into x->minor; errors at the current token. */
int jx_set_version(jx_read *x);

/* ---- one element being read, between its '{' and its '}' ---- */

/* The members the importer keeps; every other one is skipped. */
typedef enum jx_key {
    JK_OTHER = 0,
    JK_ID,
    JK_NAME,
    JK_NODE,
    JK_NODE1,
    JK_NODE2,
    JK_NODE3,
    JK_BUS,
    JK_BUS1,
    JK_BUS2,
    JK_BUS3,
    JK_CBUS,
    JK_CBUS1,
    JK_CBUS2,
    JK_CBUS3,
    JK_VL1,
    JK_VL2,
    JK_VL3,
    JK_CS1,
    JK_CS2,
    JK_DL1,
    JK_DL2,
    JK_BL1,
    JK_BL2,
    JK_ID_1,
    JK_ID_2,
    JK_NAME_1,
    JK_NAME_2,
    JK_COUNTRY,
    JK_NOMINAL_V,
    JK_TOPOLOGY,
    JK_OPEN,
    JK_RETAINED,
    JK_ALIASES,
    JK_PROPERTIES,
    JK_VERSION,
    JK_NBTOPO,
    JK_BBTOPO,
    JK_COUNT
} jx_key;

/* The member names of the keys, for paths and messages. */
extern const char *const jx_key_names[JK_COUNT];

/* The key of the `n` bytes at `s`, JK_OTHER for any other member. */
jx_key jx_key_of(const char *s, size_t n);

/* Fills `sv` to pass over every member that is no jx_key, none longer than `max_name_len` (whose
 * error the member loop gives). */
void jx_leaf_sieve(ctg_key_sieve *sv, size_t max_name_len);

/* Fills `sv` for a container (jiidm_kinds.c): the leaf's sieve, but the element arrays' names
 * are kept too, and only a member whose value is a plain string or a number is passed over (an
 * unknown array is an error, at its '['): such a member is only skipped (other_member). */
void jx_container_sieve(ctg_key_sieve *sv, size_t max_name_len);

typedef struct jx_el {
    const jx_kind *k;
    const jx_scope *scope;   /* where it stands */
    jx_scope inner;          /* what its children see */
    unsigned in;             /* JX_IN_* when it is a container, else 0 */
    uint64_t seen;           /* a bit per jx_key read */
    const char *s[JK_COUNT]; /* string values (scratch arena); valid where seen */
    size_t len[JK_COUNT];    /* their lengths */
    uint64_t hash[JK_COUNT]; /* their index hashes, for the ids and far references */
    ctg_net_known kn;        /* what its add knows: the objects its spec names, held here */
    uint32_t u[JK_COUNT];    /* nodes, booleans, topology kind; valid where seen */
    double nominal_v;
    ctg_mark start;           /* its '{' */
    const ctg_token *key;     /* the key of the member being read, valid while it is read */
    ctg_mark marks[JK_COUNT]; /* where each kept member was */
    ctg_net_object *obj;      /* once in the table (NULL for topologies); mutable: the
                               * importer owns the network, so its properties go on it */
    bool created;             /* jx_el_create ran */
    bool discarded;           /* a switch PowSyBl drops (same node at both ends, < 1.8) */
} jx_el;

static inline bool jx_el_has(const jx_el *el, jx_key key)
{
    return (el->seen >> key) & 1u;
}

/* Prepares `el` for an element of kind `k` whose '{' is at `start`. */
void jx_el_init(jx_el *el, const jx_kind *k, const jx_scope *scope, const ctg_token *start);

/* *to = *from, field by field: a whole-struct copy moves `line` and the padding after it as one
 * 8-byte word, which cannot be forwarded from the 4-byte store that just wrote `line` (the
 * load waits for that store to reach the cache, once per member). */
static inline void jx_mark_copy(ctg_mark *to, size_t offset, size_t line_start, unsigned line)
{
    to->offset = offset;
    to->line_start = line_start;
    to->line = line;
}

/* Adds the element to the table, once (later calls do nothing); checks what it needs first. */
int jx_el_create(jx_read *x, jx_el *el);

/* The element's "aliases" / "properties" arrays, rd.tok on '['. */
int jx_read_aliases(jx_read *x, jx_el *el);
int jx_read_properties(jx_read *x, jx_el *el);

#endif
