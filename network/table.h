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
 * caller checked its type and topology), the bus id `len` bytes, copied. */
int ctg_net_add_calculated_bus_obj(ctg_network *net, ctg_net_object *vl, const char *bus_id,
                                   size_t len, ctg_error *err);

#endif
