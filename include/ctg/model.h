/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_MODEL_H
#define CTG_MODEL_H

/**
 * @file model.h
 * The contingency-list model: list kinds, contingencies and their elements.
 *
 * A ctg_list owns everything reachable from it (one arena). The structs below are read-only
 * views into that arena: pointers stay valid until ctg_list_free(). An absent optional string
 * is NULL, never "".
 *
 * Threads: one list may be read from several threads at once: every function taking a
 * `const ctg_list *` (the writers and the json-c bridge included) and the structs it hands
 * out only read it. The builders (ctg_list_add_*, ctg_list_set_criteria) and ctg_list_free
 * change it and need it to themselves. Different lists are independent. The name and look-up
 * functions (ctg_element_type_name, ...) use constant tables and are safe from any thread.
 */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/common.h"

CTG_BEGIN_DECL

/** The kind of a list: its JSON "type". */
typedef enum ctg_list_kind {
    CTG_LIST_DEFAULT = 0,          /**< "default": explicit contingencies */
    CTG_LIST_LIST,                 /**< "list": nested lists of any kind */
    CTG_LIST_IDENTIFIER,           /**< "identifier" */
    CTG_LIST_INJECTION_CRITERION,  /**< "injectionCriterion" */
    CTG_LIST_LINE_CRITERION,       /**< "lineCriterion" */
    CTG_LIST_HVDC_CRITERION,       /**< "hvdcCriterion" */
    CTG_LIST_TIE_LINE_CRITERION,   /**< "tieLineCriterion" */
    CTG_LIST_TWT_CRITERION,        /**< "twoWindingsTransformerCriterion" */
    CTG_LIST_THREE_WT_CRITERION,   /**< "threeWindingsTransformerCriterion" */
    /** Not a list: a bare contingency document, as PowSyBl writes one Contingency
     *  (contingency.json). It holds exactly one contingency and no name. */
    CTG_LIST_CONTINGENCY,
    CTG_LIST_KIND_COUNT
} ctg_list_kind;

/**
 * Element types, in PowSyBl's declaration order (the values are its ordinals).
 * DANGLING_LINE is the pre-1.1 name of BOUNDARY_LINE: the reader turns it into BOUNDARY_LINE
 * and the writer writes BOUNDARY_LINE for it.
 */
typedef enum ctg_element_type {
    CTG_ELEMENT_GENERATOR = 0,
    CTG_ELEMENT_STATIC_VAR_COMPENSATOR,
    CTG_ELEMENT_SHUNT_COMPENSATOR,
    CTG_ELEMENT_BRANCH,
    CTG_ELEMENT_HVDC_LINE,
    CTG_ELEMENT_BUSBAR_SECTION,
    CTG_ELEMENT_DANGLING_LINE,
    CTG_ELEMENT_BOUNDARY_LINE,
    CTG_ELEMENT_LINE,
    CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER,
    CTG_ELEMENT_THREE_WINDINGS_TRANSFORMER,
    CTG_ELEMENT_LOAD,
    CTG_ELEMENT_SWITCH,
    CTG_ELEMENT_BATTERY,
    CTG_ELEMENT_BUS,
    CTG_ELEMENT_TIE_LINE,
    CTG_ELEMENT_VOLTAGE_SOURCE_CONVERTER,
    CTG_ELEMENT_DC_LINE,
    CTG_ELEMENT_DC_GROUND,
    CTG_ELEMENT_DC_NODE,
    CTG_ELEMENT_TYPE_COUNT
} ctg_element_type;

/** The JSON name of `type` ("BRANCH", ...), or NULL if out of range. Static storage. */
CTG_API const char *ctg_element_type_name(ctg_element_type type);

/**
 * Looks up an element type by its exact JSON name (`len` bytes, need not be NUL-terminated).
 * @return true and sets `*out` when found.
 */
CTG_API bool ctg_element_type_from_name(const char *name, size_t len, ctg_element_type *out);

/**
 * Whether `type` may carry a side (voltageLevelId): BRANCH, HVDC_LINE, LINE,
 * TWO_WINDINGS_TRANSFORMER, TIE_LINE, and DC_LINE (whose side PowSyBl writes but never reads).
 */
CTG_API bool ctg_element_type_is_sided(ctg_element_type type);

/** The JSON "type" of `kind` ("default", ...); "contingency" for CTG_LIST_CONTINGENCY; NULL if
 * out of range. Static storage. */
CTG_API const char *ctg_list_kind_name(ctg_list_kind kind);

/** One piece of equipment a contingency trips. */
typedef struct ctg_element {
    const char *id;               /**< never NULL */
    ctg_element_type type;        /**< what kind of equipment `id` names */
    const char *voltage_level_id; /**< the side; NULL when absent or the type is unsided */
} ctg_element;

/**
 * An extension attached to a contingency; see extension.h. Exactly one of `handler` and `json`
 * is set, except after a read with CTG_READ_SKIP_EXTENSION_VALUES, where both are NULL.
 */
typedef struct ctg_extension {
    const char *name;   /**< the key in "extensions" */
    /** A typed extension: the struct its handler's read filled; NULL otherwise. */
    const void *value;
    const struct ctg_extension_handler *handler; /**< the typed extension's handler, or NULL */
    /** A value no handler claims: its compact JSON text (no whitespace, NUL-terminated, in the
     *  list's memory), e.g. `{"a":[1,2.50,"x"]}`; numbers keep their input text. NULL for a
     *  typed extension. ctg_extension_to_json_object (jsonc.h) turns it into a json-c tree. */
    const char *json;
    size_t json_len;    /**< bytes of `json`, without the NUL */
} ctg_extension;

/** One contingency: a set of elements lost together. */
typedef struct ctg_contingency {
    const char *id;                  /**< never NULL */
    const char *name;                /**< NULL when absent */
    const ctg_element *elements;     /**< element_count items, NULL when none */
    size_t element_count;            /**< items at `elements` */
    const ctg_extension *extensions; /**< extension_count items, NULL when none */
    size_t extension_count;          /**< items at `extensions` */
} ctg_contingency;

/** A contingency list of any kind. Opaque; the caller owns it and frees it with ctg_list_free. */
typedef struct ctg_list ctg_list;

/**
 * Creates an empty list of `kind` named `name` (copied), for building in code.
 * @param[out] out  the new list, NULL on failure; the caller owns it (ctg_list_free).
 * @param kind      the list's kind; a value this library does not know is CTG_EINVAL.
 * @param name      the list's "name", copied.
 * @param allocator NULL for malloc/free; otherwise copied and used for every allocation.
 * @return CTG_OK, CTG_EINVAL (NULL name, bad kind) or CTG_ENOMEM.
 */
CTG_API int ctg_list_new(ctg_list **out, ctg_list_kind kind, const char *name,
                         const ctg_allocator *allocator);

/** Frees `list` and everything reachable from it. Accepts NULL. */
CTG_API void ctg_list_free(ctg_list *list);

/** The list's kind. */
CTG_API ctg_list_kind ctg_list_get_kind(const ctg_list *list);

/** The list's name; borrowed until ctg_list_free, never NULL. */
CTG_API const char *ctg_list_name(const ctg_list *list);

/**
 * The "version" the input carried, e.g. "1.0"; NULL when it had none or the list was built in
 * code. Writers always write the current version. Borrowed until ctg_list_free.
 */
CTG_API const char *ctg_list_version(const ctg_list *list);

/** Number of contingencies of a `default` list (1 for CTG_LIST_CONTINGENCY); 0 for others. */
CTG_API size_t ctg_list_contingency_count(const ctg_list *list);

/** The i-th contingency of a `default` list, or NULL when out of range. Borrowed. */
CTG_API const ctg_contingency *ctg_list_contingency_at(const ctg_list *list, size_t i);

/**
 * All contingencies of a `default` list as one array (NULL when there are none), with their
 * number in `*count` (may be NULL). Borrowed until the list is freed or changed.
 */
CTG_API const ctg_contingency *ctg_list_contingencies(const ctg_list *list, size_t *count);

/**
 * Appends a contingency to a `default` list. Strings and elements are copied into the list;
 * the caller keeps its own. Elements of an unsided type have their voltage_level_id dropped.
 * @param list      a `default` list.
 * @param id        the contingency's "id", copied; never NULL.
 * @param name      NULL for none.
 * @param elements  `count` elements (may be NULL when count is 0).
 * @param count     elements at `elements`.
 * @return CTG_OK, CTG_EINVAL (wrong kind, NULL id, bad element) or CTG_ENOMEM (list unchanged).
 */
CTG_API int ctg_list_add_contingency(ctg_list *list, const char *id, const char *name,
                                     const ctg_element *elements, size_t count);

/* ---- list of lists ------------------------------------------------------------------------ */

/** Number of lists nested in a `list` list; 0 for other kinds. */
CTG_API size_t ctg_list_child_count(const ctg_list *list);

/** The i-th nested list of a `list` list, or NULL when out of range. Borrowed from `list`. */
CTG_API const ctg_list *ctg_list_child_at(const ctg_list *list, size_t i);

/**
 * Appends a new, empty list of `kind` to a `list` list and returns it for filling. The child
 * lives in the parent's memory: it is freed with the parent and must not be passed to
 * ctg_list_free.
 * @return CTG_OK, CTG_EINVAL (parent not a `list`, NULL name, `kind` out of range or
 *         CTG_LIST_CONTINGENCY) or CTG_ENOMEM.
 */
CTG_API int ctg_list_add_child(ctg_list *parent, ctg_list_kind kind, const char *name,
                               ctg_list **out);

/* ---- identifier lists ------------------------------------------------------------------- */

/** IdentifiableType names of iidm-api, in PowSyBl's order (spec section 4). */
typedef enum ctg_identifiable_type {
    CTG_IDENTIFIABLE_NETWORK = 0,
    CTG_IDENTIFIABLE_SUBSTATION,
    CTG_IDENTIFIABLE_VOLTAGE_LEVEL,
    CTG_IDENTIFIABLE_AREA,
    CTG_IDENTIFIABLE_HVDC_LINE,
    CTG_IDENTIFIABLE_BUS,
    CTG_IDENTIFIABLE_SWITCH,
    CTG_IDENTIFIABLE_BUSBAR_SECTION,
    CTG_IDENTIFIABLE_LINE,
    CTG_IDENTIFIABLE_TIE_LINE,
    CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER,
    CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER,
    CTG_IDENTIFIABLE_GENERATOR,
    CTG_IDENTIFIABLE_BATTERY,
    CTG_IDENTIFIABLE_LOAD,
    CTG_IDENTIFIABLE_SHUNT_COMPENSATOR,
    CTG_IDENTIFIABLE_BOUNDARY_LINE,
    CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR,
    CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION,
    CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM,
    CTG_IDENTIFIABLE_GROUND,
    CTG_IDENTIFIABLE_DC_NODE,
    CTG_IDENTIFIABLE_DC_SWITCH,
    CTG_IDENTIFIABLE_DC_GROUND,
    CTG_IDENTIFIABLE_DC_LINE,
    CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER,
    CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER,
    CTG_IDENTIFIABLE_DC_BUS,
    CTG_IDENTIFIABLE_TYPE_COUNT
} ctg_identifiable_type;

/** The JSON name of `type`, or NULL if out of range. Static storage. */
CTG_API const char *ctg_identifiable_type_name(ctg_identifiable_type type);

/** Looks up an IdentifiableType by its exact name; true and `*out` set when found. */
CTG_API bool ctg_identifiable_type_from_name(const char *name, size_t len,
                                             ctg_identifiable_type *out);

/** The five kinds of network-element identifier (the identifier's JSON "type"). */
typedef enum ctg_identifier_kind {
    CTG_IDENTIFIER_ID_BASED = 0,
    CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER,
    CTG_IDENTIFIER_LIST,
    CTG_IDENTIFIER_ID_WITH_WILDCARDS,
    CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS,
    CTG_IDENTIFIER_KIND_COUNT
} ctg_identifier_kind;

/** The JSON name of `kind` ("ID_BASED", ...), or NULL if out of range. Static storage. */
CTG_API const char *ctg_identifier_kind_name(ctg_identifier_kind kind);

/**
 * A network-element identifier of an `identifier` list. Only the fields of its kind are
 * meaningful; the others are NULL or 0.
 */
typedef struct ctg_identifier {
    ctg_identifier_kind kind;       /**< which of the fields below are meaningful */
    const char *contingency_id;     /**< NULL when absent (needs format 1.2) */
    /** ID_BASED, ID_WITH_WILDCARDS: "identifier"; SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS:
     *  "substationOrVoltageLevelId" (may be NULL there, written as null). */
    const char *id;
    const char *voltage_level_id1;  /**< VOLTAGE_LEVELS_AND_ORDER */
    const char *voltage_level_id2;  /**< VOLTAGE_LEVELS_AND_ORDER */
    unsigned order;                 /**< VOLTAGE_LEVELS_AND_ORDER: one code point of the BMP */
    unsigned wildcard;              /**< ID_WITH_WILDCARDS: one code point, '?' by default */
    const struct ctg_identifier *items; /**< LIST: the nested identifiers */
    size_t item_count;              /**< identifiers at `items` */
    const ctg_identifiable_type *types; /**< SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS, in read order */
    size_t type_count;                  /**< types at `types` */
} ctg_identifier;

/**
 * The identifiers of an `identifier` list (NULL when none), their number in `*count` (may be
 * NULL). Borrowed until the list is freed or changed.
 */
CTG_API const ctg_identifier *ctg_list_identifiers(const ctg_list *list, size_t *count);

/**
 * Appends a deep copy of `id` (strings, nested items, types) to an `identifier` list.
 * @return CTG_OK, CTG_EINVAL (wrong kind or an identifier that breaks a rule of spec 4) or
 *         CTG_ENOMEM (list unchanged).
 */
CTG_API int ctg_list_add_identifier(ctg_list *list, const ctg_identifier *id);

/* ---- criterion lists -------------------------------------------------------------------- */

/** Criterion types (a criterion's JSON "type"). */
typedef enum ctg_criterion_type {
    CTG_CRITERION_SINGLE_COUNTRY = 0,
    CTG_CRITERION_TWO_COUNTRY,
    CTG_CRITERION_AT_LEAST_ONE_COUNTRY,
    CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE,
    CTG_CRITERION_TWO_NOMINAL_VOLTAGE,
    CTG_CRITERION_THREE_NOMINAL_VOLTAGE,
    CTG_CRITERION_AT_LEAST_ONE_NOMINAL_VOLTAGE,
    CTG_CRITERION_PROPERTY,
    CTG_CRITERION_REGEX,
    CTG_CRITERION_TYPE_COUNT
} ctg_criterion_type;

/** The JSON name of `type` ("SINGLE_COUNTRY", ...), or NULL. Static storage. */
CTG_API const char *ctg_criterion_type_name(ctg_criterion_type type);

/** Whether `code` (`len` bytes) is an ISO 3166-1 alpha-2 code PowSyBl knows, or "XK". */
CTG_API bool ctg_country_is_valid(const char *code, size_t len);

/** A nominal-voltage interval in kV (spec 5.3); a side without a bound is open-ended. */
typedef struct ctg_voltage_interval {
    bool set;          /**< false: no interval here */
    bool has_low;      /**< false: no lower bound (nominalVoltageLowBound absent) */
    double low;        /**< the lower bound, when has_low */
    bool low_closed;   /**< the lower bound belongs to the interval (lowClosed) */
    bool has_high;     /**< false: no upper bound (nominalVoltageHighBound absent) */
    double high;       /**< the upper bound, when has_high */
    bool high_closed;  /**< the upper bound belongs to the interval (highClosed) */
} ctg_voltage_interval;

/** PROPERTY criterion: where the property is looked up. */
typedef enum ctg_equipment_to_check {
    CTG_CHECK_SELF = 0,
    CTG_CHECK_VOLTAGE_LEVEL,
    CTG_CHECK_SUBSTATION
} ctg_equipment_to_check;

/** PROPERTY criterion: which sides must match; NONE when absent. */
typedef enum ctg_side_to_check {
    CTG_SIDE_NONE = 0,
    CTG_SIDE_ONE,
    CTG_SIDE_BOTH,
    CTG_SIDE_ALL_THREE
} ctg_side_to_check;

/** One criterion. Only the fields of its type are meaningful. */
typedef struct ctg_criterion {
    ctg_criterion_type type; /**< which of the fields below are meaningful */
    /** *_COUNTRY: countries[0] ("countries" or "countries1"), countries[1] ("countries2");
     *  two-letter codes. */
    const char *const *countries[2];
    size_t country_count[2]; /**< codes at countries[0] and countries[1] */
    /** *_NOMINAL_VOLTAGE: "voltageInterval" or "voltageInterval1".."3" in [0]..[2]. */
    ctg_voltage_interval intervals[3];
    const char *property_key;            /**< PROPERTY */
    const char *const *property_values;  /**< PROPERTY ("propertyValue") */
    size_t property_value_count;         /**< values at `property_values` */
    ctg_equipment_to_check equipment_to_check; /**< PROPERTY */
    ctg_side_to_check side_to_check;     /**< PROPERTY */
    const char *regex;                   /**< REGEX; NULL is written as null */
} ctg_criterion;

/** The criteria of a criterion list (any of the six kinds). */
typedef struct ctg_criteria {
    ctg_identifiable_type identifiable_type; /**< injectionCriterion only */
    const ctg_criterion *country;            /**< "countryCriterion", NULL when absent */
    const ctg_criterion *nominal_voltage;    /**< "nominalVoltageCriterion", NULL when absent */
    const ctg_criterion *properties;         /**< "propertyCriteria" */
    size_t property_count;                   /**< criteria at `properties` */
    const ctg_criterion *regex;              /**< "regexCriterion", NULL when absent */
} ctg_criteria;

/** The criteria of a criterion list, or NULL for other kinds. Borrowed from `list`. */
CTG_API const ctg_criteria *ctg_list_criteria(const ctg_list *list);

/**
 * Replaces the criteria of a criterion list with a deep copy of `criteria`.
 * @return CTG_OK, CTG_EINVAL (wrong kind, a criterion of the wrong type for its slot, a bad
 *         country or interval) or CTG_ENOMEM (list unchanged).
 */
CTG_API int ctg_list_set_criteria(ctg_list *list, const ctg_criteria *criteria);

CTG_END_DECL

#endif
