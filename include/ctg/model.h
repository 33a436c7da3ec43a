#ifndef CTG_MODEL_H
#define CTG_MODEL_H

/**
 * @file model.h
 * The contingency-list model: list kinds, contingencies and their elements.
 *
 * A ctg_list owns everything reachable from it (one arena). The structs below are read-only
 * views into that arena: pointers stay valid until ctg_list_free(). An absent optional string
 * is NULL, never "".
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

/** The JSON "type" of `kind` ("default", ...), or NULL if out of range. Static storage. */
CTG_API const char *ctg_list_kind_name(ctg_list_kind kind);

/** One piece of equipment a contingency trips. */
typedef struct ctg_element {
    const char *id;               /**< never NULL */
    ctg_element_type type;
    const char *voltage_level_id; /**< the side; NULL when absent or the type is unsided */
} ctg_element;

/** An extension attached to a contingency; see extension.h. */
typedef struct ctg_extension {
    const char *name;   /**< the key in "extensions" */
    const void *value;  /**< the handler's struct, or a json_object when no handler knows it */
    const struct ctg_extension_handler *handler; /**< NULL for a kept json_object */
} ctg_extension;

/** One contingency: a set of elements lost together. */
typedef struct ctg_contingency {
    const char *id;                  /**< never NULL */
    const char *name;                /**< NULL when absent */
    const ctg_element *elements;     /**< element_count items, NULL when none */
    size_t element_count;
    const ctg_extension *extensions; /**< extension_count items, NULL when none */
    size_t extension_count;
} ctg_contingency;

/** A contingency list of any kind. Opaque; the caller owns it and frees it with ctg_list_free. */
typedef struct ctg_list ctg_list;

/**
 * Creates an empty list of `kind` named `name` (copied), for building in code.
 * @param[out] out  the new list, NULL on failure; the caller owns it (ctg_list_free).
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

/** Number of contingencies of a `default` list; 0 for other kinds. */
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
 * @param name      NULL for none.
 * @param elements  `count` elements (may be NULL when count is 0).
 * @return CTG_OK, CTG_EINVAL (wrong kind, NULL id, bad element) or CTG_ENOMEM (list unchanged).
 */
CTG_API int ctg_list_add_contingency(ctg_list *list, const char *id, const char *name,
                                     const ctg_element *elements, size_t count);

CTG_END_DECL

#endif
