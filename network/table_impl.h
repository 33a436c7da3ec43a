/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_TABLE_IMPL_H
#define CTG_NETWORK_TABLE_IMPL_H

/* Private to the table's own files (table.c, index.c, build.c, attrs.c, scan.c, dump.c): the
 * layout of a ctg_network.
 *
 * Objects live by value in chunks of CTG_NET_CHUNK per type, from the allocator hooks, so that
 * nothing is allocated per object and no vector of pointers is needed to find one; containers,
 * strings, the attributes records (only for objects with a subnetwork, properties or aliases),
 * properties and aliases live in the arena; the growing vectors (document order, the
 * alias table, the hash index, the scan data, members) come from the allocator hooks directly,
 * where a resize can often grow in place. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "ctg/network.h"
#include "network/scan_data.h"

/* The objects of one type, by value, in chunks of CTG_NET_CHUNK that never move (so pointers to
 * objects stay valid): no pointer vector per type or in document order, and an object's
 * address is computed from its place, without a load the cache would miss. */
#define CTG_NET_CHUNK_SHIFT 6
#define CTG_NET_CHUNK ((size_t)1 << CTG_NET_CHUNK_SHIFT)
typedef struct ctg_net_vec {
    ctg_net_object **chunks;
    size_t len;                    /* objects */
    size_t chunk_count, chunk_cap; /* chunks allocated; room in `chunks` */
} ctg_net_vec;

static inline ctg_net_object *ctg_net_vec_at(const ctg_net_vec *v, size_t i)
{
    return &v->chunks[i >> CTG_NET_CHUNK_SHIFT][i & (CTG_NET_CHUNK - 1)];
}

/* The container of a SUBSTATION or VOLTAGE_LEVEL: the public part and what grows it. */
typedef struct ctg_net_box {
    ctg_net_container pub;
    uint32_t *keys; /* VOLTAGE_LEVEL: the order key of each member (its lowest terminal) */
    /* The members and keys come from the allocator hooks, not the arena: a resize often
     * grows in place, where the arena would keep every outgrown copy. */
    size_t member_cap, key_cap;
} ctg_net_box;

/* One alias: its text and the locator of its object. */
typedef struct ctg_net_alias {
    const char *text;
    uint32_t loc;
} ctg_net_alias;

/* Where an object is: its vector (a type, or CTG_NET_VEC_VSC) in the top bits, its place in
 * it below. Per vector at most CTG_NET_VEC_MAX objects. */
#define CTG_NET_LOC_SHIFT 26
#define CTG_NET_VEC_MAX (((size_t)1 << CTG_NET_LOC_SHIFT) - 1)
#define CTG_NET_VEC_VSC CTG_IDENTIFIABLE_TYPE_COUNT

/* A slot of the index: 0 when empty, else (hash >> 32) << 32 | (ref + 1), where ref is a
 * locator, or CTG_NET_REF_ALIAS | an index into `aliases`. */
#define CTG_NET_REF_ALIAS 0x80000000u
#define CTG_NET_REF_NONE UINT32_MAX
/* Objects and aliases both stay below 2^31 - 1, which the refs need. */
#define CTG_NET_MAX_OBJECTS 0x7ffffffeu

/* A slot of the string pool: a short property key or value, kept once. */
typedef struct ctg_net_pooled {
    const char *text; /* NULL: empty slot */
    uint32_t hash;
    uint32_t len;
} ctg_net_pooled;

/* Property keys repeat on every object that has them, and short values often ("CGMES.
 * originalClass": "ACLineSegment"): keys, and values up to this long, are kept once (so that
 * a criterion compares pointers: scan_data.h). Longer values (ids of other models, free text)
 * are mostly unique, and a pool slot would cost more. */
#define CTG_NET_POOL_MAX_LEN CTG_NET_SCAN_SHORT

/* The properties of one type again (scan_data.h): `runs` per type_index (room for run_cap;
 * NULL until an object of the type has a property), `items` (room for cap) of which `dead`
 * are outgrown copies of runs moved to the end. */
typedef struct ctg_net_prop_scan {
    ctg_net_prop_run *runs;
    size_t run_cap;
    ctg_net_property *items;
    size_t len, cap, dead;
} ctg_net_prop_scan;

struct ctg_network {
    ctg_arena *arena;
    const ctg_allocator *alloc; /* the arena's copy */
    uint32_t *docs;             /* the locator of every object, by document index; [0] root */
    size_t doc_len, doc_cap;
    /* Per type in enumeration order; HVDC_CONVERTER_STATION holds the LCC stations. */
    ctg_net_vec types[CTG_IDENTIFIABLE_TYPE_COUNT];
    ctg_net_vec vsc; /* the VSC stations, enumerated after the LCC ones */
    ctg_net_alias *aliases;
    size_t alias_len, alias_cap;
    uint64_t *slots; /* the id and alias index, open addressing, at most 3/4 full */
    size_t slot_cap, slot_used;
    ctg_net_pooled *pool; /* open addressing, a power of two, at most 3/4 full */
    size_t pool_cap, pool_used;
    const char *iidm_version;
    /* The compact scan data (scan.c), indexed by type_index: from the allocator hooks. */
    ctg_net_vl_scan *vl_scan;
    size_t vl_scan_cap;
    uint32_t *scan[CTG_IDENTIFIABLE_TYPE_COUNT];
    size_t scan_cap[CTG_IDENTIFIABLE_TYPE_COUNT];
    ctg_net_prop_scan props[2]; /* SUBSTATION, VOLTAGE_LEVEL (CTG_NET_PROPS_OF) */
};

/* The property copy of type `t`, NULL for a type without one. */
#define CTG_NET_PROPS_OF(net, t)                                                                   \
    ((t) == CTG_IDENTIFIABLE_SUBSTATION      ? &(net)->props[0]                                    \
     : (t) == CTG_IDENTIFIABLE_VOLTAGE_LEVEL ? &(net)->props[1]                                    \
                                             : NULL)

static inline const ctg_net_vec *ctg_net_vec_of(const ctg_network *net, uint32_t loc)
{
    uint32_t v = loc >> CTG_NET_LOC_SHIFT;
    return v == CTG_NET_VEC_VSC ? &net->vsc : &net->types[v];
}

/* The object at locator `loc`. */
static inline ctg_net_object *ctg_net_locate(const ctg_network *net, uint32_t loc)
{
    return ctg_net_vec_at(ctg_net_vec_of(net, loc), loc & CTG_NET_VEC_MAX);
}

/* The object of document index `i` (< doc_len). */
static inline ctg_net_object *ctg_net_doc(const ctg_network *net, size_t i)
{
    return ctg_net_locate(net, net->docs[i]);
}

/* Whether the NUL-terminated `text` is the `len` bytes at `s` (which may hold a NUL: then it
 * is no id, key or name of ours). strncmp stops at a NUL of either: equal, with none in `s`,
 * `text` has `len` bytes before its end, which are `s`'s. The library's compares read words, a
 * loop here bytes (a third of an ID_BASED look-up's instructions went to it). */
static inline bool ctg_net_same(const char *text, const char *s, size_t len)
{
    return strncmp(text, s, len) == 0 && memchr(s, '\0', len) == NULL && text[len] == '\0';
}

/* The index (index.c). */
uint64_t ctg_net_hash(const char *s, size_t len);
/* The ref (document index, or CTG_NET_REF_ALIAS | alias index) of `s`, CTG_NET_REF_NONE. */
uint32_t ctg_net_index_find(const ctg_network *net, const char *s, size_t len, uint64_t hash);
/* The ref of `s`, or CTG_NET_REF_NONE with *slot where it goes: after a reserve of one key,
 * the duplicate check and the insert of an add are one probe (insert_at, before any other
 * insert). */
uint32_t ctg_net_index_find_slot(const ctg_network *net, const char *s, size_t len, uint64_t hash,
                                 size_t *slot);
void ctg_net_index_insert_at(ctg_network *net, size_t slot, uint64_t hash, uint32_t ref);
/* Room for `extra` more keys, so that the inserts that follow cannot fail; CTG_ENOMEM. */
int ctg_net_index_reserve(ctg_network *net, size_t extra);
/* Adds a key known to be absent, after a reserve. */
void ctg_net_index_insert(ctg_network *net, uint64_t hash, uint32_t ref);
/* The object a ref names. */
ctg_net_object *ctg_net_ref_object(const ctg_network *net, uint32_t ref);

/* Room for one more object in `v` and one more document index; CTG_ENOMEM, `v` and the
 * document order as they were (what grew stays, unused). */
int ctg_net_vec_reserve(ctg_network *net, ctg_net_vec *v);
/* Appends `obj` (copied) to `v` and the document order after a reserve; the object in place.
 * `vec` is `v`'s number (a type, or CTG_NET_VEC_VSC). */
ctg_net_object *ctg_net_vec_push(ctg_network *net, ctg_net_vec *v, uint32_t vec,
                                 const ctg_net_object *obj);
/* The slot the next object of `v` goes into, after a reserve: an add makes its object there
 * and then claims it, with no copy (a copy of the object just written would load it back in
 * 16-byte words over its smaller stores, which cannot be forwarded: a stall per load). */
static inline ctg_net_object *ctg_net_vec_next(const ctg_net_vec *v)
{
    return ctg_net_vec_at(v, v->len);
}
/* Appends the object made in ctg_net_vec_next's slot to `v` and the document order. */
ctg_net_object *ctg_net_vec_claim(ctg_network *net, ctg_net_vec *v, uint32_t vec);
/* The locator of an object of `net`. */
uint32_t ctg_net_loc_of(const ctg_network *net, const ctg_net_object *obj);
/* Room for one more item in an arena array of `len` items whose capacity is the next power of
 * two (0: none), the one the arena's arrays of properties and aliases keep: *items moves
 * to a new copy when full. CTG_ENOMEM leaves it as it was. */
int ctg_net_arena_grow(ctg_network *net, void **items, size_t len, size_t size);

/* A copy of the `len` bytes at `s` in the arena, up to the first NUL among them, shared with
 * every equal string when short (the pool); NULL when out of memory. The pool's copy of a
 * key, whatever its length (pool_key). */
const char *ctg_net_pool_string(ctg_network *net, const char *s, size_t len);
const char *ctg_net_pool_key(ctg_network *net, const char *s, size_t len);

/* The scan data (scan.c): uint32 per object of type `t` (0: none); room for `extra` more
 * objects of `t` (CTG_ENOMEM unchanged); the records of an object just committed (its
 * type_index final); release; bytes held. */
size_t ctg_net_scan_stride(ctg_identifiable_type t);
int ctg_net_scan_reserve(ctg_network *net, ctg_identifiable_type t, size_t extra);
void ctg_net_scan_commit(ctg_network *net, const ctg_net_object *obj);
void ctg_net_scan_dispose(ctg_network *net);
/* The property copy of a SUBSTATION or VOLTAGE_LEVEL `obj` (nothing for other types): room
 * for one more property (CTG_ENOMEM unchanged); after it, the append of `p` (cannot fail);
 * the new value of its `i`-th property. */
int ctg_net_scan_property_reserve(ctg_network *net, const ctg_net_object *obj);
void ctg_net_scan_property_append(ctg_network *net, const ctg_net_object *obj, ctg_net_property p);
void ctg_net_scan_property_set(ctg_network *net, const ctg_net_object *obj, size_t i,
                               const char *value);
size_t ctg_net_scan_bytes(const ctg_network *net);

/* The object `s` names (an id or an alias), mutable, NULL when none. */
ctg_net_object *ctg_net_lookup(const ctg_network *net, const char *s, size_t len);

#endif
