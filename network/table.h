/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_TABLE_H
#define CTG_NETWORK_TABLE_H

/* Private: what the importers (iidm/) and the evaluation add to the public table API
 * (ctg/network.h): fast paths that skip a look-up or a strlen, and the mutable objects the
 * network owns. The rules are those of the public builders: each call checks everything
 * first, and a failure (CTG_EINVAL with a message, CTG_ENOMEM) leaves the network unchanged.
 * Messages are "<TYPE> "<id>": <what is wrong>"; err->path is set to "" and err->source is
 * left alone, so that an importer sets its own place and path after a failure. */

#include <stddef.h>
#include <stdint.h>

#include "ctg/network.h"
#include "network/scan_data.h"

/* Records the IIDM version of the file read ("1.17"), copied into the network.
 * CTG_OK, CTG_EINVAL (NULL argument) or CTG_ENOMEM. */
int ctg_network_set_iidm_version(ctg_network *net, const char *version);

/* ctg_network_new with CTG_ARENA_* flags (base/arena.h): CTG_ARENA_EXACT gives every arena
 * request its own allocation, for the allocation-failure sweeps of the tests. */
int ctg_network_new_ex(ctg_network **out, const char *id, const ctg_allocator *alloc,
                       unsigned arena_flags, ctg_error *err);

/* ctg_network_add that hands out the new object mutable (for the _obj calls below). */
int ctg_network_add_obj(ctg_network *net, const ctg_net_spec *spec, ctg_net_object **out,
                        ctg_error *err);

/* What the caller of ctg_network_add_known holds already, so that the add neither measures
 * nor hashes the id again nor checks it as UTF-8 (its parser did: expat, the lexer) nor looks
 * up the objects the spec names: an importer reading a voltage level's injections has that
 * level at hand. The spec still names every object by
 * its id, as for ctg_network_add; an object given here must be of `net` and be the one its
 * id names, or NULL (then it is looked up). Checks and messages are those of
 * ctg_network_add: a known object of the wrong type is refused as the same id would be. */
typedef struct ctg_net_known {
    size_t id_len;                    /* strlen(spec->id) */
    uint64_t id_hash;                 /* ctg_net_index_hash(spec->id, id_len) */
    const ctg_net_object *vl[3];      /* what spec->voltage_levels[i] names, or NULL */
    const ctg_net_object *substation; /* what spec->substation names, or NULL */
    const ctg_net_object *subnetwork; /* what spec->subnetwork names, or NULL */
} ctg_net_known;

/* ctg_network_add_obj with what the caller knows (`known` may be NULL: nothing). */
int ctg_network_add_known(ctg_network *net, const ctg_net_spec *spec, const ctg_net_known *known,
                          ctg_net_object **out, ctg_error *err);

/* The object whose id or alias is the `len` bytes at `id`, mutable; NULL when none. O(1). */
ctg_net_object *ctg_network_find_mut(ctg_network *net, const char *id, size_t len);

/* ctg_network_add_alias on an object of `net` known already, the alias `len` bytes (copied,
 * need not be NUL-terminated; a NUL inside is refused). */
int ctg_network_add_alias_obj(ctg_network *net, ctg_net_object *obj, const char *alias, size_t len,
                              ctg_error *err);

/* ctg_network_set_property on an object of `net` known already; key and value are `key_len`
 * and `value_len` bytes, copied (need not be NUL-terminated). */
int ctg_network_set_property_obj(ctg_network *net, ctg_net_object *obj, const char *key,
                                 size_t key_len, const char *value, size_t value_len,
                                 ctg_error *err);

/* ctg_network_add_calculated_bus on a node-breaker voltage level of `net` known already (the
 * caller checked its type and topology and that the bus id, `len` bytes, copied, is not one of
 * the level's already: the check is linear, and a level of the importers may have thousands). */
int ctg_net_add_calculated_bus_obj(ctg_network *net, ctg_net_object *vl, const char *bus_id,
                                   size_t len, ctg_error *err);

/* A hint to the processor (nothing is read but `vl` and its container): fetches where the
 * next member of voltage level `vl` goes, which an add of a connectable in it reads and writes.
 * For a branch, whose levels are often far back in the document and out of the cache. */
void ctg_net_prefetch_members(const ctg_net_object *vl);

/* Reserves room for about `objects_hint` more objects (index slots, the document-order and
 * per-type vectors), so that an importer that knows its input's size (about one object per
 * 300 bytes of XIIDM or JIIDM) does not grow them by doubling, which briefly holds the old
 * and the new copy. A hint only: adds beyond it still work. Changes nothing observable.
 * CTG_OK, or CTG_ENOMEM (then nothing was reserved; the caller may go on without). */
int ctg_network_reserve(ctg_network *net, size_t objects_hint);

/* Look-ups in batches, for pipelining: hash every key first, prefetch its slot, and find it
 * a few keys later, when the slot is in the cache. The hash is that of the index, a pure
 * function of the bytes. ctg_net_index_prefetch touches nothing (a hint to the processor);
 * ctg_net_index_prefetch_object reads the key's slot (prefetch it first) and prefetches the
 * object and its id text of the first slot whose hash matches; both may be left out.
 * ctg_net_index_find_hashed is ctg_network_find_mut with the hash given: `hash` must be
 * ctg_net_index_hash(id, len). Read-only, safe from several threads.
 *
 * A look-up misses the cache on the slot, then on the object and its id text (the object's
 * address is computed from the slot, with no load between). A batch of ids hides both:
 *     h[i] = hash(id[i]); prefetch(net, h[i]);            for i in [k, k + D)
 *     prefetch_object(net, h[i - D/2]);                   (the slot is in the cache by then)
 *     find_hashed(net, id[i - D], len[i - D], h[i - D]);  (everything is)
 * with D about 8 to 16 look-ups in flight. */
uint64_t ctg_net_index_hash(const char *id, size_t len);
void ctg_net_index_prefetch(const ctg_network *net, uint64_t hash);
void ctg_net_index_prefetch_object(const ctg_network *net, uint64_t hash);
ctg_net_object *ctg_net_index_find_hashed(const ctg_network *net, const char *id, size_t len,
                                          uint64_t hash);

/* The compact scan data for criterion scans: network/scan_data.h, included here. */

#endif
