/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_H
#define CTG_NETWORK_H

/**
 * @file network.h
 * The equipment table of a power network (libctg_network): what resolving a contingency list
 * needs to know about a network, and nothing more. Filled by the IIDM importers (iidm.h) or by
 * the builders below, from a tool's own network model.
 *
 * A ctg_network owns everything reachable from it (one arena, through the allocator hooks it
 * was created with). The structs it hands out are read-only views: pointers stay valid until
 * ctg_network_free(); counts and arrays read through them may grow when the builders add
 * objects. An absent optional string is NULL, never "".
 *
 * Order: every object has a document index, the order it was added in (for an imported file,
 * the order of its elements). Per type, objects are enumerated in that order, which is the
 * order PowSyBl's criterion lists see (HVDC_CONVERTER_STATION: every LCC station, then every
 * VSC station; NETWORK: the network, then its subnetworks).
 *
 * Threads: a network may be read (looked up, iterated, evaluated against) from several threads
 * at once; the builders and ctg_network_free need it to themselves.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/io.h"
#include "ctg/model.h"

CTG_BEGIN_DECL

/** An equipment table. Opaque; see ctg_network_new and iidm.h. */
typedef struct ctg_network ctg_network;

/** How a voltage level's topology is described. */
typedef enum ctg_topology_kind {
    CTG_TOPOLOGY_BUS_BREAKER = 0, /**< buses and the switches between them */
    CTG_TOPOLOGY_NODE_BREAKER     /**< numbered nodes and switches */
} ctg_topology_kind;

/** The kind of an HVDC converter station. */
typedef enum ctg_converter_kind {
    CTG_CONVERTER_NONE = 0, /**< not a converter station */
    CTG_CONVERTER_LCC,      /**< line-commutated */
    CTG_CONVERTER_VSC       /**< voltage-source */
} ctg_converter_kind;

/** One property of an object: a string key and its string value. */
typedef struct ctg_net_property {
    const char *key;   /**< never NULL */
    const char *value; /**< never NULL, may be "" */
} ctg_net_property;

typedef struct ctg_net_object ctg_net_object;

/**
 * What only some objects have: a subnetwork owner, properties, aliases. Kept in a record of
 * its own, which an object without any of them does not have (ctg_net_object.attrs is NULL),
 * so that the many objects without them do not pay for the fields.
 */
typedef struct ctg_net_attrs {
    const ctg_net_object *subnetwork;   /**< the subnetwork (a NETWORK) owning it; NULL: root */
    const ctg_net_property *properties; /**< property_count items, in the order added */
    const char *const *aliases;         /**< alias_count items, in the order added */
    uint32_t property_count;            /**< items at `properties` */
    uint32_t alias_count;               /**< items at `aliases` */
} ctg_net_attrs;

/** What only containers have: substations and voltage levels. */
typedef struct ctg_net_container {
    /** SUBSTATION: its ISO 3166-1 alpha-2 country code, NULL when it has none. */
    const char *country;
    /** VOLTAGE_LEVEL: nominal voltage in kV (may be NaN when unknown). */
    double nominal_v;
    /** VOLTAGE_LEVEL: how its topology is described. */
    ctg_topology_kind topology;
    /** VOLTAGE_LEVEL: the connectables with at least one terminal in it, each once, in
     *  PowSyBl's order (node order for node-breaker levels, see ctg_net_spec.order).
     *  SUBSTATION: its voltage levels in document order. */
    const ctg_net_object *const *members;
    size_t member_count; /**< items at `members` */
    /** VOLTAGE_LEVEL of bus-breaker topology: its declared buses (BUS objects) in order. */
    const ctg_net_object *const *buses;
    size_t bus_count; /**< items at `buses` */
    /** VOLTAGE_LEVEL of node-breaker topology: the ids of the buses of its bus-breaker view
     *  (computed from the topology, e.g. "VL_0"); not identifiables, only BUS elements of
     *  `default` lists are checked against them. */
    const char *const *calculated_buses;
    size_t calculated_bus_count; /**< items at `calculated_buses` */
} ctg_net_container;

/**
 * One identifiable object of the network: the network itself, a subnetwork, a substation, a
 * voltage level, a bus, a switch, any equipment. Fields that do not apply to its type are
 * NULL, 0 or CTG_CONVERTER_NONE. Names are not kept (ctg_net_spec.name is ignored): evaluation
 * never reads them, and a large network holds hundreds of thousands.
 */
struct ctg_net_object {
    const char *id;              /**< unique among ids and aliases, never NULL or "" */
    ctg_identifiable_type type;  /**< what it is */
    ctg_converter_kind converter_kind; /**< HVDC_CONVERTER_STATION: LCC or VSC */
    uint32_t doc_index;          /**< position among all objects, in the order they were added */
    uint32_t type_index;         /**< position in the enumeration order of its type */
    /**
     * Where it stands. Injections (GENERATOR, LOAD, BATTERY, SHUNT_COMPENSATOR,
     * STATIC_VAR_COMPENSATOR, BUSBAR_SECTION, BOUNDARY_LINE, HVDC_CONVERTER_STATION, GROUND),
     * SWITCH and BUS: [0]. LINE, TWO_WINDINGS_TRANSFORMER: sides 1 and 2. THREE_WINDINGS_
     * TRANSFORMER: legs 1, 2, 3. TIE_LINE: those of its boundary lines; HVDC_LINE: those of its
     * converter stations. VOLTAGE_SOURCE_CONVERTER, LINE_COMMUTATED_CONVERTER: terminals 1, 2.
     */
    const ctg_net_object *voltage_levels[3];
    /** VOLTAGE_LEVEL: its substation. TWO/THREE_WINDINGS_TRANSFORMER: the substation it
     *  stands in. OVERLOAD_MANAGEMENT_SYSTEM: its substation. NULL when none. */
    const ctg_net_object *substation;
    /** TIE_LINE: boundary lines 1 and 2. HVDC_LINE: converter stations 1 and 2.
     *  HVDC_CONVERTER_STATION: [0] its HVDC line, NULL when none. BOUNDARY_LINE: [0] the tie
     *  line it is paired in, NULL when unpaired. */
    const ctg_net_object *refs[2];
    /** SUBSTATION and VOLTAGE_LEVEL: their details; NULL for other types. */
    const ctg_net_container *container;
    /** Its subnetwork, properties and aliases; NULL when it has none of them (then it is
     *  owned by the root, and has no property and no alias). Read through the accessors
     *  below, which take care of the NULL. */
    const ctg_net_attrs *attrs;
};

/** ctg_net_spec.order of a terminal whose position is unknown or that has none. */
#define CTG_NET_NO_ORDER UINT32_MAX

/** The version of ctg_net_spec these headers describe. */
#define CTG_NET_SPEC_VERSION 1

/**
 * An object to add with ctg_network_add. Start from CTG_NET_SPEC_INIT or a zeroed struct (a
 * zero version is read as 1), then set what the type needs; everything is borrowed for the
 * call and copied. References are ids (or aliases) of objects added before.
 */
typedef struct ctg_net_spec {
    unsigned version;            /**< CTG_NET_SPEC_VERSION; 0 = 1 */
    ctg_identifiable_type type;  /**< what to add; not NETWORK for the root (ctg_network_new) */
    const char *id;              /**< required, non-empty, unique among ids and aliases */
    const char *name;            /**< accepted and ignored: the table keeps no names */
    /** The voltage levels it stands in, as ctg_net_object.voltage_levels says (TIE_LINE and
     *  HVDC_LINE take theirs from `refs` and leave these NULL). */
    const char *voltage_levels[3];
    /** Where each terminal sits in its voltage level's topology: the node of a node-breaker
     *  level. A voltage level lists its connectables by the ascending order of the first of
     *  their terminals in it, ties (and CTG_NET_NO_ORDER) in the order they were added. */
    uint32_t order[3];
    /** VOLTAGE_LEVEL: its substation (optional). TWO/THREE_WINDINGS_TRANSFORMER: the
     *  substation it stands in (optional; then its voltage levels must all belong to it). */
    const char *substation;
    /** TIE_LINE: boundary lines 1 and 2 (required, unpaired before). HVDC_LINE: converter
     *  stations 1 and 2 (required, not on another line yet). */
    const char *refs[2];
    const char *subnetwork;      /**< the subnetwork owning it, NULL for the root */
    ctg_converter_kind converter_kind; /**< HVDC_CONVERTER_STATION: LCC or VSC (required) */
    const char *country;         /**< SUBSTATION: ISO 3166-1 alpha-2 code, optional */
    double nominal_v;            /**< VOLTAGE_LEVEL: nominal voltage, kV */
    ctg_topology_kind topology;  /**< VOLTAGE_LEVEL */
} ctg_net_spec;

/** A spec of the current version with no order on any terminal. */
#define CTG_NET_SPEC_INIT                                                                  \
    { CTG_NET_SPEC_VERSION, CTG_IDENTIFIABLE_NETWORK, NULL, NULL, { NULL, NULL, NULL },    \
      { CTG_NET_NO_ORDER, CTG_NET_NO_ORDER, CTG_NET_NO_ORDER }, NULL, { NULL, NULL }, NULL, \
      CTG_CONVERTER_NONE, NULL, 0.0, CTG_TOPOLOGY_BUS_BREAKER }

/**
 * Creates an empty network whose root NETWORK object has id `id`.
 * @param[out] out  the new network, NULL on failure; the caller owns it (ctg_network_free).
 * @param id        the network's id, non-empty; copied.
 * @param alloc     NULL for malloc/free; copied, and its hooks must outlive the network.
 * @param[out] err  may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL (NULL `out`, an empty id or one that is not valid UTF-8) or
 *         CTG_ENOMEM.
 */
CTG_API int ctg_network_new(ctg_network **out, const char *id, const ctg_allocator *alloc,
                            ctg_error *err);

/** Releases `net` and everything it owns; accepts NULL. */
CTG_API void ctg_network_free(ctg_network *net);

/**
 * Adds one object. Wrong input fails with CTG_EINVAL and a message (an empty or duplicate id,
 * an id that is not valid UTF-8, an unknown voltage level, substation, subnetwork or
 * referenced object, a type that cannot be placed as given, a reference of the wrong type),
 * and leaves the network unchanged.
 * @param net      the network to add to.
 * @param spec     what to add; borrowed for the call, its strings copied.
 * @param[out] out may be NULL; the new object, owned by the network.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL or CTG_ENOMEM (the network unchanged).
 */
CTG_API int ctg_network_add(ctg_network *net, const ctg_net_spec *spec,
                            const ctg_net_object **out, ctg_error *err);

/**
 * Gives the object `id` (an id or an alias) the alias `alias`, copied. CTG_EINVAL when the
 * object is unknown or `alias` is empty, not valid UTF-8 or already an id or alias; the
 * network unchanged.
 */
CTG_API int ctg_network_add_alias(ctg_network *net, const char *id, const char *alias,
                                  ctg_error *err);

/**
 * Sets property `key` of the object `id` (an id or an alias) to `value`, both copied; a key
 * already set gets the new value. CTG_EINVAL when the object is unknown or `key` is empty.
 */
CTG_API int ctg_network_set_property(ctg_network *net, const char *id, const char *key,
                                     const char *value, ctg_error *err);

/**
 * Adds `bus_id` (copied) to the calculated bus-breaker-view buses of the node-breaker voltage
 * level `voltage_level_id`. CTG_EINVAL when it is not a node-breaker voltage level or the bus
 * id is empty, not valid UTF-8 or already one of its calculated buses.
 */
CTG_API int ctg_network_add_calculated_bus(ctg_network *net, const char *voltage_level_id,
                                           const char *bus_id, ctg_error *err);

/** The root NETWORK object; never NULL for a network from ctg_network_new or a read. */
CTG_API const ctg_net_object *ctg_network_root(const ctg_network *net);

/** The number of objects of `type` (BUS: declared bus-breaker buses). */
CTG_API size_t ctg_network_count(const ctg_network *net, ctg_identifiable_type type);

/** The `i`-th object of `type` in enumeration order, NULL when out of range. */
CTG_API const ctg_net_object *ctg_network_object_at(const ctg_network *net,
                                                    ctg_identifiable_type type, size_t i);

/** The number of objects of every type (the root included). */
CTG_API size_t ctg_network_object_count(const ctg_network *net);

/** The object of document index `i`, NULL when out of range. */
CTG_API const ctg_net_object *ctg_network_object_by_doc(const ctg_network *net, size_t i);

/**
 * The object whose id or alias is the `len` bytes at `id` (need not be NUL-terminated), NULL
 * when none; O(1).
 */
CTG_API const ctg_net_object *ctg_network_find(const ctg_network *net, const char *id,
                                               size_t len);

/** The value of property `key` of `obj` (NUL-terminated), NULL when it has none. */
CTG_API const char *ctg_net_object_property(const ctg_net_object *obj, const char *key);

/** The subnetwork (a NETWORK) owning `obj`, NULL for the root's objects (and a NULL `obj`). */
CTG_API const ctg_net_object *ctg_net_object_subnetwork(const ctg_net_object *obj);

/** The number of properties of `obj` (0 for NULL); the `i`-th is ctg_net_object_property_at. */
CTG_API size_t ctg_net_object_property_count(const ctg_net_object *obj);

/** The `i`-th property of `obj` in the order added, NULL when out of range. */
CTG_API const ctg_net_property *ctg_net_object_property_at(const ctg_net_object *obj, size_t i);

/** The number of aliases of `obj` (0 for NULL). */
CTG_API size_t ctg_net_object_alias_count(const ctg_net_object *obj);

/** The `i`-th alias of `obj` in the order added, NULL when out of range; owned by the network. */
CTG_API const char *ctg_net_object_alias_at(const ctg_net_object *obj, size_t i);

/**
 * The IIDM version of the file the network was read from ("1.17"), NULL for a network built
 * in code. Owned by the network.
 */
CTG_API const char *ctg_network_iidm_version(const ctg_network *net);

/** Bytes of memory the network holds (its arena and indexes), for capacity planning. */
CTG_API size_t ctg_network_memory_size(const ctg_network *net);

/**
 * Writes the whole table as one JSON document, in the schema of PowSyBl's reference tables
 * (`ok`, `network`, `counts`, `objects` per type in enumeration order with their placement,
 * `buses`, `identifiables` and `aliasToId` sorted by id), so that any script can compare it.
 * @param net  the network to write; only read.
 * @param buf  output; see ctg_buf (io.h): appended to, the caller disposes of it.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL or CTG_ENOMEM.
 */
CTG_API int ctg_network_write_json(const ctg_network *net, ctg_buf *buf, ctg_error *err);

CTG_END_DECL

#endif
