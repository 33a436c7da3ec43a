/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_GENERATE_H
#define CTG_GENERATE_H

/**
 * @file generate.h
 * Generating contingency lists from a network (libctg_network): N-1 (one contingency per
 * selected equipment) and correlated N-2 (pairs of selected equipment that a rule ties
 * together), streamed through a callback one contingency at a time, so that millions of them
 * cost no memory beyond the network and the selection.
 *
 * A selection means what the equivalent PowSyBl criterion list means (spec
 * network-evaluation §5): per equipment type, the criterion list of that type (lineCriterion
 * for LINE, tieLineCriterion, hvdcCriterion, twoWindingsTransformerCriterion,
 * threeWindingsTransformerCriterion, injectionCriterion with the type for every other), with
 * the countries as its country criterion, the voltage ranges as its nominal-voltage criterion,
 * each property as a PROPERTY criterion on the equipment itself (SELF) and the id regex as its
 * REGEX criterion (RE2 syntax, found anywhere in the id). The same evaluation code decides
 * both, so the asymmetries of PowSyBl's criteria hold here too (a TWO_COUNTRY side-1 country
 * must be present; voltage intervals are not tied to sides). Two filters have no criterion
 * equivalent: the subnetwork and "connected to" (ctg_generate_as_criterion refuses them).
 *
 * Order (deterministic, documented, the same at every run):
 * - the selection: the types in the order given, each type's objects in enumeration order
 *   (ctg_network_object_at); this is the order of N-1, and of the criterion list;
 * - CTG_GEN_ALL_PAIRS: pairs (s_i, s_j), i < j, by i then j, over the selection s_0..s_n-1;
 * - CTG_GEN_PARALLEL: the groups of parallel branches in the order of their first branch in
 *   the selection, in each group its pairs (i < j) by i then j;
 * - CTG_GEN_COMMON_SUBSTATION: the places (substations, and voltage levels without one) in
 *   document order, at each place the pairs (i < j) of the branches that end there, by i then
 *   j; a pair sharing several places is written at the first one only;
 * - CTG_GEN_BUSBAR: the busbars in the order of ctg_gen_topology.
 *
 * Threads: a network may be generated from by several threads at once (it is only read).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/model.h"
#include "ctg/network.h"
#include "ctg/stream.h"

CTG_BEGIN_DECL

/** One `key=value` property test: the equipment itself has property `key` equal to `value`
 *  (exact, case-sensitive; PROPERTY criterion with equipmentToCheck SELF). */
typedef struct ctg_gen_property {
    const char *key;   /**< non-empty */
    const char *value; /**< may be "" */
} ctg_gen_property;

/** The version of ctg_gen_selection these headers describe. */
#define CTG_GEN_SELECTION_VERSION 1

/**
 * What to select. Start from a zeroed struct (a zero version is read as 1); every filter left
 * empty (0 items, NULL, an interval not `set`) accepts everything. Borrowed for the call.
 */
typedef struct ctg_gen_selection {
    unsigned version; /**< CTG_GEN_SELECTION_VERSION; 0 = 1 */
    /** The equipment types, at least one, each once, enumerated in this order. Accepted:
     *  the types that can be both enumerated and a contingency element (spec §3, §5.1):
     *  LINE, TIE_LINE, TWO_WINDINGS_TRANSFORMER, THREE_WINDINGS_TRANSFORMER, GENERATOR, LOAD,
     *  BATTERY, SHUNT_COMPENSATOR, STATIC_VAR_COMPENSATOR, BUSBAR_SECTION, SWITCH,
     *  BOUNDARY_LINE, HVDC_LINE, HVDC_CONVERTER_STATION (it becomes its HVDC line's element),
     *  VOLTAGE_SOURCE_CONVERTER, DC_LINE, DC_GROUND, DC_NODE. */
    const ctg_identifiable_type *types;
    size_t type_count; /**< items at `types` */
    /** Countries (ISO 3166-1 alpha-2): SINGLE_COUNTRY `countries` for single-country types
     *  (injections, switches, transformers: the country of their substation), TWO_COUNTRY
     *  `countries1` for LINE, TIE_LINE and HVDC_LINE (either side, the side-1 country must
     *  be present). */
    const char *const *countries;
    size_t country_count; /**< items at `countries` */
    /** TWO_COUNTRY `countries2` (LINE, TIE_LINE, HVDC_LINE only: refused with other types). */
    const char *const *countries2;
    size_t country2_count; /**< items at `countries2` */
    /** Nominal-voltage ranges, kV, as the type's criterion takes them (spec 5.4): [0] alone
     *  (SINGLE_NOMINAL_VOLTAGE) for one-voltage-level types and TIE_LINE (its side 1); [0]
     *  and [1] (TWO_NOMINAL_VOLTAGE: each range met by either side) for LINE, HVDC_LINE and
     *  TWO_WINDINGS_TRANSFORMER; [0] to [2] (THREE_NOMINAL_VOLTAGE) for
     *  THREE_WINDINGS_TRANSFORMER. A range a selected type cannot take ([1] with a single-
     *  voltage type, [2] with anything but a 3WT, or [1] without [0] there) is refused. */
    ctg_voltage_interval nominal_v[3];
    const ctg_gen_property *properties; /**< all must hold */
    size_t property_count;              /**< items at `properties` */
    const char *id_regex;               /**< RE2, find semantics; NULL: none */
    /** The id of a subnetwork: only its objects; the root network's id, or NULL: every
     *  object (the root holds its subnetworks'). No criterion equivalent. */
    const char *subnetwork;
    /** The id of a voltage level (an object with a terminal in it) or of a substation (an
     *  object with a terminal in one of its voltage levels, or a transformer standing in it).
     *  NULL: every object. No criterion equivalent. */
    const char *connected_to;
} ctg_gen_selection;

/** What to generate from the selection. */
typedef enum ctg_gen_rule {
    /** One contingency per selected object; id format "N-1_{id}". */
    CTG_GEN_N1 = 0,
    /** Two selected branches (LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE) whose ends are in
     *  the same two places (substations; a voltage level without substation is a place of
     *  its own); when both ends of a branch are in one place (a transformer), the two
     *  branches must also join the same two voltage levels, so that a substation's 400/225
     *  and 225/63 kV transformers are not parallel. Id format "N-2_{id1}+{id2}". */
    CTG_GEN_PARALLEL,
    /** Two selected branches (LINE, TWO_WINDINGS_TRANSFORMER, THREE_WINDINGS_TRANSFORMER,
     *  TIE_LINE) with an end in the same place (as for PARALLEL). Other selected types take
     *  no part. Id format "N-2_{id1}+{id2}". */
    CTG_GEN_COMMON_SUBSTATION,
    /** Every unordered pair of the selection. Id format "N-2_{id1}+{id2}". Selected objects
     *  of one element (an HVDC line and its converter stations) are paired as the first of
     *  them only: a pair is always two elements, and n objects of n' elements make
     *  n'(n'-1)/2 pairs (ctg_gen_counts.selected still counts the n). */
    CTG_GEN_ALL_PAIRS,
    /** Per busbar of ctg_gen_options.topology (ctg_gen_topology_read), the selected objects
     *  connected to it as one contingency (no contingency for a busbar without any), their
     *  elements in the selection's order, each once (a converter station and its HVDC line
     *  are one element). Id format "BUSBAR_{id}", the placeholders of N-1
     *  naming the busbar (its id, type, voltage level as {vl1}, substation). */
    CTG_GEN_BUSBAR,
    CTG_GEN_RULE_COUNT
} ctg_gen_rule;

/** The name of `rule` ("n-1", "parallel", "common-substation", "all-pairs", "busbar"), NULL
 *  if out of range. Static storage. */
CTG_API const char *ctg_gen_rule_name(ctg_gen_rule rule);

/** Looks up a rule by its name (`len` bytes); true and `*out` set when found. */
CTG_API bool ctg_gen_rule_from_name(const char *name, size_t len, ctg_gen_rule *out);

/**
 * What the busbar rule needs and the equipment table does not hold: which equipment each
 * busbar would take with it. Opaque; read from the network's file by ctg_gen_topology_read.
 *
 * A busbar is a busbar section of a node-breaker voltage level, or a bus of a bus-breaker one.
 * A bus's equipment: every terminal connected to it (`bus`, not `connectableBus`). A busbar
 * section's: every terminal in its zone (the nodes joined to it through closed disconnectors,
 * load-break switches and internal connections), and every terminal behind one closed breaker
 * of the zone, up to the next breaker; a breaker whose far side holds another busbar section
 * is a coupler, and nothing behind it is lost. Open switches join nothing. The sections of a
 * zone are terminals of it too. A boundary line paired in a tie line brings the tie line; a
 * converter station, its HVDC line. A tie line of IIDM 1.0 to 1.9, whose element holds the
 * terminals of its halves, is on the busbars of those terminals, as its halves are.
 * Busbars are enumerated busbar sections first, then buses, each in enumeration order.
 */
typedef struct ctg_gen_topology ctg_gen_topology;

/**
 * Reads the switch topology of the IIDM file `src` (XIIDM or JIIDM, any version, told by the
 * content as ctg_iidm_read tells them; `.gz` by content), the file `net` was read from: its
 * switches, internal connections and every terminal's node or bus. An id the network does
 * not know, a switch or internal connection of a node-breaker level without both nodes, or a
 * malformed document, fails with its line, column and path (XIIDM: the element path; JIIDM:
 * the JSON path).
 * @param[out] out the topology, NULL on failure; the caller owns it (ctg_gen_topology_free),
 *                 and it points into `net`, which must outlive it.
 * @param net      the network read from the same file; only read.
 * @param src      the file.
 * @param alloc    NULL for malloc/free; copied, its hooks must outlive the topology.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL, CTG_ESYNTAX, CTG_ESCHEMA, CTG_ELIMIT, CTG_EIO or CTG_ENOMEM.
 */
CTG_API int ctg_gen_topology_read(ctg_gen_topology **out, const ctg_network *net,
                                  const ctg_source *src, const ctg_allocator *alloc,
                                  ctg_error *err);

/** Releases `topo`; accepts NULL. */
CTG_API void ctg_gen_topology_free(ctg_gen_topology *topo);

/** The number of busbars of `topo` (0 for NULL). */
CTG_API size_t ctg_gen_topology_busbar_count(const ctg_gen_topology *topo);

/** The default of ctg_gen_options.max_contingencies. */
#define CTG_GEN_DEFAULT_MAX 10000000u

/** The version of ctg_gen_options these headers describe. */
#define CTG_GEN_OPTIONS_VERSION 1

/** One contingency as generated; borrowed until the callback returns. */
typedef int (*ctg_gen_emit_fn)(const ctg_contingency *c, void *payload);

/** How to generate. Start from a zeroed struct (a zero version is read as 1). Borrowed. */
typedef struct ctg_gen_options {
    unsigned version;                   /**< CTG_GEN_OPTIONS_VERSION; 0 = 1 */
    const ctg_gen_selection *selection; /**< required */
    ctg_gen_rule rule;                  /**< CTG_GEN_N1 when zeroed */
    /**
     * The contingency id; NULL: the rule's default. `{id}`, `{type}` (the identifiable type,
     * e.g. "LINE"), `{vl1}`, `{vl2}` (the ids of the voltage levels of sides 1 and 2, "" when
     * none), `{substation}` (a transformer's own substation, else that of its side-1 voltage
     * level, "" when none) for N-1; `{id1}`, `{id2}` and `{rule}` for pairs; `{{` and `}}` are
     * braces. Any other placeholder is refused (CTG_EINVAL) before anything is generated, and
     * so is a format whose ids would repeat: without `{id}` (N-1, busbar), or without both
     * `{id1}` and `{id2}` (pairs).
     */
    const char *id_format;
    /** The most contingencies a run may generate (0: CTG_GEN_DEFAULT_MAX); a run that would
     *  generate more fails with CTG_ELIMIT before the first one (the count is made first). */
    uint64_t max_contingencies;
    const ctg_allocator *allocator; /**< for the scratch memory; NULL: malloc/free */
    /** CTG_GEN_BUSBAR: the topology of the network (required there, ignored otherwise). */
    const ctg_gen_topology *topology;
} ctg_gen_options;

/** The version of ctg_gen_counts these headers describe. */
#define CTG_GEN_COUNTS_VERSION 1

/** What a run would generate; the caller sets `version`, the call fills the rest. */
typedef struct ctg_gen_counts {
    unsigned version; /**< CTG_GEN_COUNTS_VERSION; 0 = 1 */
    /** Selected objects per type (the N-1 contingencies of that type). */
    uint64_t selected[CTG_IDENTIFIABLE_TYPE_COUNT];
    uint64_t selected_total; /**< the sum of `selected` */
    /** The contingencies of the rule: selected_total for N-1, the pairs for the others. */
    uint64_t contingencies;
    /** PARALLEL: groups of two or more parallel branches; COMMON_SUBSTATION: places with two
     *  or more branches; BUSBAR: the topology's busbars; 0 otherwise. */
    uint64_t groups;
} ctg_gen_counts;

/**
 * Generates the contingencies of `opts` from `net`, calling `emit` for each in the order of
 * the file comment. Each has its id, no name and one element per object (spec §3: no side).
 * Bad options (no selection or type, a type that cannot be selected, an unknown subnetwork or
 * connected-to id, an invalid country, range, regex or id format, the busbar rule without this
 * network's topology) fail with CTG_EINVAL before the first call; an object that cannot become an element (a converter station without HVDC line)
 * fails with CTG_ESCHEMA when reached, as in PowSyBl.
 * @param net      the network; only read.
 * @param opts     what to generate; borrowed.
 * @param emit     called per contingency; a nonzero return stops the run with CTG_ESTOPPED
 *                 (its ctg_error, when it wrote one through `payload`, is the caller's).
 * @param payload  passed to `emit`.
 * @param[out] err may be NULL; written only on failure (source "<generate>").
 * @return CTG_OK, CTG_EINVAL, CTG_ESCHEMA, CTG_ELIMIT, CTG_ENOMEM or CTG_ESTOPPED.
 */
CTG_API int ctg_generate(const ctg_network *net, const ctg_gen_options *opts, ctg_gen_emit_fn emit,
                         void *payload, ctg_error *err);

/**
 * Counts what ctg_generate would generate, without building any contingency (a dry run): the
 * same checks and errors, except CTG_ELIMIT (the count is what a caller checks the limit on).
 * @param net      the network; only read.
 * @param opts     as for ctg_generate.
 * @param[out] out the counts; its `version` set by the caller.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL, CTG_ESCHEMA or CTG_ENOMEM.
 */
CTG_API int ctg_generate_count(const ctg_network *net, const ctg_gen_options *opts,
                               ctg_gen_counts *out, ctg_error *err);

/**
 * ctg_generate into a stream writer (stream.h): each contingency written as it is generated,
 * in constant memory. `w` is left open: the caller closes it (or aborts it after a failure).
 * @return as ctg_generate, plus the writer's errors (CTG_EIO, ...), which fill `err`.
 */
CTG_API int ctg_generate_to_stream(const ctg_network *net, const ctg_gen_options *opts,
                                   ctg_stream_writer *w, ctg_error *err);

/**
 * The PowSyBl criterion list equivalent to the N-1 of `opts`: for one type, the criterion
 * list of that type; for several, a `list` of them in the selection's order. Evaluated
 * (ctg_resolve) against any network, it gives that network's N-1 of the selection, in the same
 * order, each contingency named by its object's id (PowSyBl's rule: `id_format` has no
 * equivalent and is not kept). A rule other than CTG_GEN_N1, a subnetwork or a connected-to
 * filter has no criterion equivalent: CTG_EUNSUPPORTED, with a message that says which.
 * @param[out] out the new list, NULL on failure; the caller owns it (ctg_list_free).
 * @param opts     as for ctg_generate (the network is not needed: the list is the selection).
 * @param name     the list's name, copied (its children are named "<name>-<TYPE>").
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL, CTG_EUNSUPPORTED or CTG_ENOMEM.
 */
CTG_API int ctg_generate_as_criterion(ctg_list **out, const ctg_gen_options *opts,
                                      const char *name, ctg_error *err);

CTG_END_DECL

#endif
