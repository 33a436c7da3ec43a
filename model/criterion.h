/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_MODEL_CRITERION_H
#define CTG_MODEL_CRITERION_H

/* Private: the rules of criterion lists (spec 5) that the reader, the writer and the builders
 * share, so that each rule exists once. */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/model.h"

/* ISO 3166-1 alpha-2 has 249 codes; PowSyBl adds XK (Kosovo). */
#define CTG_COUNTRY_COUNT 250

/* The library's own copy of country `code` (`len` bytes), NUL-terminated and never freed, or
 * NULL when it is not a code PowSyBl knows. Criteria point at these copies. */
const char *ctg_country_code(const char *code, size_t len);
/* The i-th code in alphabetical order (i < CTG_COUNTRY_COUNT), else NULL. */
const char *ctg_country_at(size_t i);

bool ctg_criterion_type_from_name(const char *name, size_t len, ctg_criterion_type *out);

/* Names of the PROPERTY criterion's enums; NULL when out of range (and for CTG_SIDE_NONE,
 * which is never written). */
const char *ctg_equipment_to_check_name(ctg_equipment_to_check v);
bool ctg_equipment_to_check_from_name(const char *name, size_t len, ctg_equipment_to_check *out);
const char *ctg_side_to_check_name(ctg_side_to_check v);
bool ctg_side_to_check_from_name(const char *name, size_t len, ctg_side_to_check *out);

/* Whether `kind` is one of the six criterion kinds. */
bool ctg_list_kind_is_criterion(ctg_list_kind kind);

/* The criterion slots of a criterion list. */
typedef enum ctg_criterion_slot {
    CTG_CSLOT_COUNTRY,       /* "countryCriterion" */
    CTG_CSLOT_VOLTAGE,       /* "nominalVoltageCriterion" */
    CTG_CSLOT_PROPERTY,      /* items of "propertyCriteria" */
    CTG_CSLOT_REGEX,         /* "regexCriterion" */
    CTG_CSLOT_COUNT
} ctg_criterion_slot;

/* The JSON key of `slot`. */
const char *ctg_criterion_slot_key(ctg_criterion_slot slot);
/* The one criterion type a list of criterion kind `kind` accepts in `slot` (spec 5.1). `kind`
 * matters only for the country and voltage slots, and must then be a criterion kind. */
ctg_criterion_type ctg_criterion_slot_type(ctg_list_kind kind, ctg_criterion_slot slot);
/* How many voltage intervals a criterion of `type` has (0 for non-voltage types), and whether
 * they are required (SINGLE_ and AT_LEAST_ONE_NOMINAL_VOLTAGE: the one interval is). */
unsigned ctg_criterion_interval_count(ctg_criterion_type type, bool *required);

/* The constraints of spec 5.3 on a set interval, checked in this order. */
typedef enum ctg_interval_rule {
    CTG_IV_OK = 0,
    CTG_IV_NO_BOUND,   /* neither bound */
    CTG_IV_BAD_LOW,    /* low bound negative or not finite */
    CTG_IV_BAD_HIGH,   /* high bound negative or not finite */
    CTG_IV_REVERSED,   /* low > high */
    /* Holds no value: low == high, not closed on both sides. As in PowSyBl, a missing low bound
     * counts as a closed 0 and a missing high bound as a closed DBL_MAX, so an open high bound
     * of 0 alone, or an open low bound of DBL_MAX alone, is empty too. */
    CTG_IV_EMPTY
} ctg_interval_rule;
ctg_interval_rule ctg_voltage_interval_check(const ctg_voltage_interval *iv);

/* Whether `c` is a valid criterion of type `type` (countries, intervals, PROPERTY fields). */
bool ctg_criterion_valid(const ctg_criterion *c, ctg_criterion_type type);
/* Whether `criteria` obey every rule of spec 5 for a list of `kind`. */
bool ctg_criteria_valid(ctg_list_kind kind, const ctg_criteria *criteria);

#endif
