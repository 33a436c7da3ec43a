/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_SA_H
#define CTG_SA_H

/**
 * @file sa.h
 * The security-analysis input documents PowSyBl writes next to a contingency list: action
 * lists, operator strategies, contingency contexts, limit reductions and state monitors.
 *
 * A ctg_sa_doc owns everything reachable from it (one arena); the structs below are read-only
 * views into it, valid until ctg_sa_doc_free(). An absent optional string is NULL, never "".
 *
 * Implemented: CTG_SA_CONTINGENCY_CONTEXTS and CTG_SA_STATE_MONITORS (read and write).
 * CTG_SA_LIMIT_REDUCTIONS (read, write and build).
 * CTG_SA_OPERATOR_STRATEGIES: read (versions 1.0-1.2 and later ones), written as 1.2.
 * CTG_SA_ACTION_LIST (read, versions 1.0-1.3; written at 1.3; builders).
 * CTG_SA_IDENTIFIER_ACTION_LIST (read, written as PowSyBl writes it, built; refused with
 * CTG_EUNSUPPORTED where PowSyBl's own output is not well defined).
 *
 * Threads: a document is only read by the functions taking a `const ctg_sa_doc *`, so several
 * threads may use one at once; ctg_sa_doc_free needs it to itself.
 */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/io.h"
#include "ctg/model.h"

CTG_BEGIN_DECL

/** The kind of a security-analysis document (spec D1-D5). */
typedef enum ctg_sa_kind {
    CTG_SA_ANY = 0,                /**< for reading: recognise the kind from the document */
    CTG_SA_ACTION_LIST,            /**< D1 `{version, actions}` */
    CTG_SA_IDENTIFIER_ACTION_LIST, /**< D1b, D1 + `elementIdentifiers` and `actionBuilders` */
    CTG_SA_OPERATOR_STRATEGIES,    /**< D2 `{version, operatorStrategies}` */
    CTG_SA_CONTINGENCY_CONTEXTS,   /**< D3: a root array of contingency contexts */
    CTG_SA_LIMIT_REDUCTIONS,       /**< D4 `{version, limitReductions}` */
    CTG_SA_STATE_MONITORS,         /**< D5: a root array of state monitors, compact layout */
    CTG_SA_KIND_COUNT
} ctg_sa_kind;

/** What a document of `kind` is, e.g. "limit-reduction list"; NULL when out of range.
 *  Static storage. */
CTG_API const char *ctg_sa_kind_name(ctg_sa_kind kind);

/** "a" or "an", the article that goes before ctg_sa_kind_name(kind) in a sentence; NULL when
 *  out of range. Static storage. */
CTG_API const char *ctg_sa_kind_article(ctg_sa_kind kind);

/** Contingency context types (spec 1.3, in PowSyBl's declaration order). */
typedef enum ctg_context_type {
    CTG_CONTEXT_ALL = 0,            /**< the pre-contingency state and every contingency */
    CTG_CONTEXT_NONE,               /**< the pre-contingency state only */
    CTG_CONTEXT_SPECIFIC,           /**< the contingency named by contingency_id */
    CTG_CONTEXT_ONLY_CONTINGENCIES, /**< every contingency, not the pre-contingency state */
    CTG_CONTEXT_TYPE_COUNT
} ctg_context_type;

/** The JSON name of context type `type` (`contextType`), e.g. "SPECIFIC"; NULL when out of
 *  range. Static storage. */
CTG_API const char *ctg_context_type_name(ctg_context_type type);

/** A contingency context (spec 1.4). */
typedef struct ctg_contingency_context {
    ctg_context_type type; /**< which states the context covers */
    /** Required for SPECIFIC; kept (and written back) for the other types; NULL when absent. */
    const char *contingency_id;
} ctg_contingency_context;

/** A set of ids, in the order PowSyBl writes it (Java hash order, spec 1.2), without
 *  duplicates. */
typedef struct ctg_id_set {
    const char *const *ids; /**< `count` strings; NULL when empty */
    size_t count;           /**< distinct ids */
} ctg_id_set;

/** A state monitor (spec 6): what to report in which context. */
typedef struct ctg_state_monitor {
    ctg_contingency_context context;           /**< `contingencyContext`: when to report */
    ctg_id_set branch_ids;                     /**< `branchIds` */
    ctg_id_set voltage_level_ids;              /**< `voltageLevelIds` */
    ctg_id_set three_windings_transformer_ids; /**< `threeWindingsTransformerIds` */
} ctg_state_monitor;

/** A document read or built; opaque, released with ctg_sa_doc_free. */
typedef struct ctg_sa_doc ctg_sa_doc;

/**
 * Makes an empty document of `kind`, to be filled with the builders of its kind.
 * @param out        receives the document, owned by the caller (ctg_sa_doc_free); NULL on
 *                   failure.
 * @param kind       any kind but CTG_SA_ANY.
 * @param allocator  the allocator of everything the document will own (NULL: the default).
 * @return CTG_OK, CTG_EINVAL (no `out`, a kind out of range or CTG_SA_ANY) or CTG_ENOMEM.
 */
CTG_API int ctg_sa_doc_new(ctg_sa_doc **out, ctg_sa_kind kind, const ctg_allocator *allocator);

/** Releases `doc` and everything it owns; accepts NULL. */
CTG_API void ctg_sa_doc_free(ctg_sa_doc *doc);

/** The kind of `doc`; CTG_SA_ANY for NULL. */
CTG_API ctg_sa_kind ctg_sa_doc_kind(const ctg_sa_doc *doc);

/** The contexts of a CTG_SA_CONTINGENCY_CONTEXTS document (0 for another kind or NULL). */
CTG_API size_t ctg_sa_context_count(const ctg_sa_doc *doc);
/** Context `i`, or NULL when out of range; owned by `doc`. */
CTG_API const ctg_contingency_context *ctg_sa_context_at(const ctg_sa_doc *doc, size_t i);

/** The monitors of a CTG_SA_STATE_MONITORS document (0 for another kind or NULL). */
CTG_API size_t ctg_sa_monitor_count(const ctg_sa_doc *doc);
/** Monitor `i`, or NULL when out of range; owned by `doc`. */
CTG_API const ctg_state_monitor *ctg_sa_monitor_at(const ctg_sa_doc *doc, size_t i);

/**
 * Appends a copy of context `c` to a CTG_SA_CONTINGENCY_CONTEXTS document, after the reader's
 * checks: a type in range, a contingencyId for SPECIFIC, valid UTF-8.
 * @param doc  the document (ctg_sa_doc_new or a read one).
 * @param c    the context, borrowed for the call (deep-copied).
 * @param err  receives the error (NULL: not reported), source "<builder>".
 * @return CTG_OK; CTG_EINVAL (a NULL argument, another kind, a check failed: `doc` unchanged);
 *         CTG_ENOMEM (`doc` unchanged).
 */
CTG_API int ctg_sa_context_add(ctg_sa_doc *doc, const ctg_contingency_context *c,
                               ctg_error *err);

/**
 * Appends a copy of monitor `m` to a CTG_SA_STATE_MONITORS document, after the reader's
 * checks (its context's as ctg_sa_context_add's; ids non-NULL, valid UTF-8). Each id set is
 * kept as a read one is: its distinct ids in Java hash order (spec 1.2), whatever order and
 * repeats `m` has.
 * @param doc  the document (ctg_sa_doc_new or a read one).
 * @param m    the monitor, borrowed for the call (deep-copied).
 * @param err  receives the error (NULL: not reported), source "<builder>".
 * @return CTG_OK; CTG_EINVAL (a NULL argument, another kind, a check failed: `doc` unchanged);
 *         CTG_ENOMEM (`doc` unchanged).
 */
CTG_API int ctg_sa_monitor_add(ctg_sa_doc *doc, const ctg_state_monitor *m, ctg_error *err);

/* ---- limit-reduction list (spec §5) ---- */

/** Limit types (spec 1.3, PowSyBl's LimitType order); only the first three are reductions'. */
typedef enum ctg_limit_type {
    CTG_LIMIT_ACTIVE_POWER = 0,
    CTG_LIMIT_APPARENT_POWER,
    CTG_LIMIT_CURRENT,
    CTG_LIMIT_VOLTAGE,       /**< never accepted in a limit reduction */
    CTG_LIMIT_VOLTAGE_ANGLE, /**< never accepted in a limit reduction */
    CTG_LIMIT_TYPE_COUNT
} ctg_limit_type;

/** The JSON name of limit type `type` (`limitType`), e.g. "CURRENT"; NULL when out of range.
 *  Static storage. */
CTG_API const char *ctg_limit_type_name(ctg_limit_type type);

/** The kinds of network-element criterion (spec 5.3), in the spec's table order. */
typedef enum ctg_element_criterion_type {
    CTG_ECRIT_LINE = 0,                   /**< `lineCriterion` */
    CTG_ECRIT_TIE_LINE,                   /**< `tieLineCriterion` */
    /** `boundaryLineCriterion`; at criterion version 1.0 `danglingLineCriterion` */
    CTG_ECRIT_BOUNDARY_LINE,
    CTG_ECRIT_TWO_WINDINGS_TRANSFORMER,   /**< `twoWindingsTransformerCriterion` */
    CTG_ECRIT_THREE_WINDINGS_TRANSFORMER, /**< `threeWindingsTransformerCriterion` */
    CTG_ECRIT_IDENTIFIABLE,               /**< `identifiableCriterion` */
    CTG_ECRIT_IDENTIFIER,                 /**< `identifierCriterion` */
    CTG_ECRIT_TYPE_COUNT
} ctg_element_criterion_type;

/** A network-element criterion: which equipment a reduction applies to (spec 5.3). */
typedef struct ctg_element_criterion {
    ctg_element_criterion_type type; /**< the kind */
    const char *name;                /**< `name`; NULL when absent */
    /** `countryCriterion` (of the one type the kind takes, see the spec's table); NULL when
     *  absent (all countries). Never set for CTG_ECRIT_IDENTIFIER. */
    const ctg_criterion *country;
    /** `nominalVoltageCriterion`, as `country`. */
    const ctg_criterion *nominal_voltage;
    /** CTG_ECRIT_IDENTIFIER: the ids, distinct and sorted by UTF-16 code units as PowSyBl
     *  writes them (builders sort and deduplicate); NULL when none. */
    const char *const *identifiers;
    size_t identifier_count; /**< ids at `identifiers` */
} ctg_element_criterion;

/** The kinds of limit-duration criterion (spec 5.4). */
typedef enum ctg_duration_type {
    CTG_DURATION_PERMANENT = 0,      /**< the permanent limit */
    CTG_DURATION_TEMPORARY_ALL,      /**< every temporary limit */
    CTG_DURATION_TEMPORARY_EQUALITY, /**< temporary limits of duration `value` */
    CTG_DURATION_TEMPORARY_INTERVAL, /**< temporary limits with a duration in the interval */
    CTG_DURATION_TYPE_COUNT
} ctg_duration_type;

/** A limit-duration criterion (spec 5.4); durations in seconds, all >= 0. */
typedef struct ctg_duration_criterion {
    ctg_duration_type type; /**< the kind; only its fields below are meaningful */
    int value;              /**< EQUALITY: the duration */
    bool has_low;           /**< INTERVAL: `lowBound` given (with `lowClosed`) */
    int low;                /**< INTERVAL: `lowBound` */
    bool low_closed;        /**< INTERVAL: `lowClosed` */
    bool has_high;          /**< INTERVAL: `highBound` given (with `highClosed`) */
    int high;               /**< INTERVAL: `highBound` */
    bool high_closed;       /**< INTERVAL: `highClosed` */
} ctg_duration_criterion;

/** The layout of ctg_limit_reduction this header describes. */
#define CTG_LIMIT_REDUCTION_VERSION 1

/** A limit reduction (spec 5.2). */
typedef struct ctg_limit_reduction {
    /** CTG_LIMIT_REDUCTION_VERSION (0 = 1) when given to the builder, so that members can be
     *  added later; the reader sets it. */
    unsigned version;
    double value;                       /**< `value`, >= 0 (> 1: an increase); absent: 0.0 */
    ctg_limit_type limit_type;          /**< ACTIVE_POWER, APPARENT_POWER or CURRENT */
    bool monitoring_only;               /**< `monitoringOnly` */
    ctg_contingency_context context;    /**< `contingencyContext` */
    const ctg_element_criterion *equipment; /**< `equipmentCriteria`; NULL when none */
    size_t equipment_count;             /**< criteria at `equipment` */
    const ctg_duration_criterion *durations; /**< `durationCriteria`; NULL when none */
    size_t duration_count;              /**< criteria at `durations` */
    /** `operationalLimitsGroupIdsSelection` in order, duplicates kept; an item may be NULL (a
     *  JSON null, written back as null); NULL when none. */
    const char *const *limits_groups;
    size_t limits_group_count; /**< items at `limits_groups` */
} ctg_limit_reduction;

/** The reductions of a CTG_SA_LIMIT_REDUCTIONS document (0 for another kind or NULL). */
CTG_API size_t ctg_sa_limit_reduction_count(const ctg_sa_doc *doc);
/** Reduction `i`, or NULL when out of range; owned by `doc`. */
CTG_API const ctg_limit_reduction *ctg_sa_limit_reduction_at(const ctg_sa_doc *doc, size_t i);

/**
 * Appends a deep copy of `item` to the CTG_SA_LIMIT_REDUCTIONS document `doc`, after the checks
 * the reader makes (spec 5: value >= 0, a reduction's limit type, a valid context, the one
 * sub-criterion type each element kind takes, valid countries and intervals, at least one
 * sub-criterion of an identifiable criterion, the duration rules, well-formed UTF-8).
 * Identifier-criterion ids are stored sorted and distinct, as PowSyBl writes them.
 * @param doc   the document; changed only on success.
 * @param item  the reduction, only read (borrowed for the call).
 * @param err   receives the reason on failure (NULL: not reported).
 * @return CTG_OK; CTG_EINVAL (NULL argument, another kind, an unknown `version`, a rule
 *         broken) or CTG_ENOMEM.
 */
CTG_API int ctg_sa_limit_reductions_add(ctg_sa_doc *doc, const ctg_limit_reduction *item,
                                        ctg_error *err);
/* ---- operator-strategy list (spec §3) ---- */

/** Condition types (spec 3.4), in the spec's order; the JSON `type` of each is in its comment. */
typedef enum ctg_condition_type {
    CTG_CONDITION_TRUE = 0,                /**< `TRUE_CONDITION`: always true */
    CTG_CONDITION_ANY_VIOLATION,           /**< `ANY_VIOLATION_CONDITION`: any violation */
    CTG_CONDITION_ALL_VIOLATION,           /**< `ALL_VIOLATION`: all listed violations */
    CTG_CONDITION_AT_LEAST_ONE_VIOLATION,  /**< `AT_LEAST_ONE_VIOLATION`: one of them */
    CTG_CONDITION_INJECTION_THRESHOLD,     /**< `INJECTION_THRESHOLD_CONDITION` */
    CTG_CONDITION_BRANCH_THRESHOLD,        /**< `BRANCH_THRESHOLD_CONDITION` (side ONE/TWO) */
    CTG_CONDITION_THREE_WINDINGS_TRANSFORMER_THRESHOLD, /**< `THREE_WINDINGS_TRANSFORMER_...` */
    CTG_CONDITION_AC_DC_CONVERTER_THRESHOLD, /**< `AC_DC_CONVERTER_THRESHOLD_CONDITION` */
    CTG_CONDITION_TYPE_COUNT
} ctg_condition_type;

/** The JSON `type` of condition type `type`, e.g. "TRUE_CONDITION"; NULL when out of range.
 *  Static storage. */
CTG_API const char *ctg_condition_type_name(ctg_condition_type type);

/** LimitViolationType (spec 1.3, PowSyBl's declaration order): a condition's `filters`. */
typedef enum ctg_violation_type {
    CTG_VIOLATION_ACTIVE_POWER = 0,
    CTG_VIOLATION_APPARENT_POWER,
    CTG_VIOLATION_CURRENT,
    CTG_VIOLATION_LOW_VOLTAGE,
    CTG_VIOLATION_HIGH_VOLTAGE,
    CTG_VIOLATION_LOW_VOLTAGE_ANGLE,
    CTG_VIOLATION_HIGH_VOLTAGE_ANGLE,
    CTG_VIOLATION_LOW_SHORT_CIRCUIT_CURRENT,
    CTG_VIOLATION_HIGH_SHORT_CIRCUIT_CURRENT,
    CTG_VIOLATION_OTHER,
    CTG_VIOLATION_TYPE_COUNT
} ctg_violation_type;

/** The variable a threshold condition watches (spec 1.3, declaration order). */
typedef enum ctg_threshold_variable {
    CTG_THRESHOLD_ACTIVE_POWER = 0,
    CTG_THRESHOLD_REACTIVE_POWER,
    CTG_THRESHOLD_CURRENT,
    CTG_THRESHOLD_TARGET_P,
    CTG_THRESHOLD_VARIABLE_COUNT
} ctg_threshold_variable;

/** How a threshold condition compares (spec 1.3, declaration order). */
typedef enum ctg_comparison_type {
    CTG_COMPARISON_EQUALS = 0,
    CTG_COMPARISON_GREATER_THAN,
    CTG_COMPARISON_GREATER_THAN_OR_EQUALS,
    CTG_COMPARISON_LESS_THAN,
    CTG_COMPARISON_LESS_THAN_OR_EQUALS,
    CTG_COMPARISON_NOT_EQUAL,
    CTG_COMPARISON_TYPE_COUNT
} ctg_comparison_type;

/** ThreeSides (spec 1.3): the side of a branch (ONE, TWO) or transformer (ONE to THREE). */
typedef enum ctg_condition_side {
    CTG_CONDITION_SIDE_ONE = 0,
    CTG_CONDITION_SIDE_TWO,
    CTG_CONDITION_SIDE_THREE,
    CTG_CONDITION_SIDE_COUNT
} ctg_condition_side;

/**
 * A condition (spec 3.4). Only the members of its `type` mean anything; the others are zero,
 * NULL or empty (a builder refuses a set pointer or count that does not belong to the type).
 */
typedef struct ctg_condition {
    ctg_condition_type type; /**< what it tests */
    /** The three violation conditions: `filters`, distinct, in input order (PowSyBl's order of
     *  two or more is not reproducible, spec 1.2); NULL when empty. */
    const ctg_violation_type *filters;
    size_t filter_count;                /**< items at `filters` */
    /** ALL_VIOLATION, AT_LEAST_ONE_VIOLATION: `violationIds`, order and duplicates kept. */
    const char *const *violation_ids;
    size_t violation_id_count;          /**< items at `violation_ids` */
    /** The four threshold conditions: `equipmentId` (never NULL there), else NULL. */
    const char *equipment_id;
    ctg_threshold_variable variable;    /**< threshold conditions: `variable` */
    ctg_comparison_type comparison;     /**< threshold conditions: `comparisonType` */
    double threshold;                   /**< threshold conditions: `threshold` (absent: 0.0) */
    ctg_condition_side side;            /**< BRANCH (ONE or TWO) and 3WT conditions: `side` */
    bool ac_side;                       /**< AC/DC converter: `acSide` (absent: false) */
    int terminal_number;                /**< AC/DC converter: `terminalNumber`, 1 or 2 */
} ctg_condition;

/** A stage of a strategy ("conditional actions", spec 3.3): its actions fire when its
 *  condition holds. */
typedef struct ctg_conditional_actions {
    const char *id;             /**< never NULL; not unique within a strategy */
    ctg_condition condition;    /**< when the actions fire */
    const char *const *action_ids; /**< ids of an action list, order and duplicates kept */
    size_t action_id_count;     /**< items at `action_ids` */
} ctg_conditional_actions;

/** An operator strategy (spec 3.2). A 1.0 strategy (`condition` + `actionIds`) is held as one
 *  stage named `default`, as PowSyBl holds it and writes it back. */
typedef struct ctg_operator_strategy {
    const char *id;                  /**< never NULL */
    /** `contingencyContextType` (absent: SPECIFIC) and `contingencyId`, flattened in JSON. */
    ctg_contingency_context context;
    const ctg_conditional_actions *stages; /**< `conditionalActions`; NULL when none */
    size_t stage_count;              /**< items at `stages` */
    /** `extensions`, in input order, every value kept as JSON text (`json`, handler NULL); the
     *  order of two or more is not PowSyBl's (spec 3.5). NULL when none. */
    const ctg_extension *extensions;
    size_t extension_count;          /**< items at `extensions` */
} ctg_operator_strategy;

/** The strategies of a CTG_SA_OPERATOR_STRATEGIES document (0 for another kind or NULL). */
CTG_API size_t ctg_sa_strategy_count(const ctg_sa_doc *doc);
/** Strategy `i`, or NULL when out of range; owned by `doc`. */
CTG_API const ctg_operator_strategy *ctg_sa_strategy_at(const ctg_sa_doc *doc, size_t i);

/**
 * Appends a deep copy of `item` (borrowed for the call) to `doc`, after the checks the reader
 * makes of a strategy it has read (ids present and valid UTF-8, SPECIFIC with a contingency id,
 * each condition's members those of its type and in range, extension values valid JSON with
 * distinct names), so that the document writes what a read one would.
 * @param doc   a CTG_SA_OPERATOR_STRATEGIES document (ctg_sa_doc_new or a read).
 * @param item  the strategy; typed extensions (a `handler`) are refused.
 * @param err   receives the error (NULL: not reported): source "<builder>", path in `item`
 *              (e.g. "/conditionalActions/0/condition/side").
 * @return CTG_OK; CTG_EINVAL (bad arguments or a check failed: `doc` unchanged); CTG_ENOMEM.
 */
CTG_API int ctg_sa_strategies_add_strategy(ctg_sa_doc *doc, const ctg_operator_strategy *item,
                                           ctg_error *err);
/* ---- action list (spec §2) ---- */

/** Action types (spec 2.3, in the spec's table order; PowSyBl has no enum of them). The
 *  legacy type name `DANGLING_LINE` reads as CTG_ACTION_BOUNDARY_LINE. */
typedef enum ctg_action_type {
    CTG_ACTION_SWITCH = 0,                     /**< `SWITCH`, element `switchId` */
    CTG_ACTION_TERMINALS_CONNECTION,           /**< `TERMINALS_CONNECTION`, `elementId` */
    CTG_ACTION_MULTIPLE_ACTIONS,               /**< `MULTIPLE_ACTIONS`: `actions`, no element */
    CTG_ACTION_PHASE_TAP_CHANGER_TAP_POSITION, /**< `PHASE_TAP_CHANGER_TAP_POSITION`,
                                                    `transformerId` */
    CTG_ACTION_RATIO_TAP_CHANGER_TAP_POSITION, /**< `RATIO_TAP_CHANGER_TAP_POSITION`,
                                                    `transformerId` */
    CTG_ACTION_PHASE_TAP_CHANGER_REGULATION,   /**< `PHASE_TAP_CHANGER_REGULATION`,
                                                    `transformerId` */
    CTG_ACTION_RATIO_TAP_CHANGER_REGULATION,   /**< `RATIO_TAP_CHANGER_REGULATION`,
                                                    `transformerId` */
    CTG_ACTION_LOAD,                           /**< `LOAD`, `loadId` */
    CTG_ACTION_BOUNDARY_LINE,                  /**< `BOUNDARY_LINE`, `boundaryLineId` */
    CTG_ACTION_PCT_LOAD_CHANGE,                /**< `PCT_LOAD_CHANGE`, `loadId` */
    CTG_ACTION_GENERATOR,                      /**< `GENERATOR`, `generatorId` */
    CTG_ACTION_HVDC,                           /**< `HVDC`, `hvdcId` */
    CTG_ACTION_SHUNT_COMPENSATOR_POSITION,     /**< `SHUNT_COMPENSATOR_POSITION`,
                                                    `shuntCompensatorId` */
    CTG_ACTION_STATIC_VAR_COMPENSATOR,         /**< `STATIC_VAR_COMPENSATOR`,
                                                    `staticVarCompensatorId` */
    CTG_ACTION_AREA_INTERCHANGE_TARGET,        /**< `AREA_INTERCHANGE_TARGET_ACTION`, `areaId` */
    CTG_ACTION_TYPE_COUNT
} ctg_action_type;

/** The JSON `type` of action type `type` as written, e.g. "BOUNDARY_LINE" (never the legacy
 *  "DANGLING_LINE"); NULL when out of range. Static storage. */
CTG_API const char *ctg_action_type_name(ctg_action_type type);

/** ThreeSides (spec 1.3): the `side` of an action. */
typedef enum ctg_action_side {
    CTG_ACTION_SIDE_ONE = 0, /**< `ONE` */
    CTG_ACTION_SIDE_TWO,     /**< `TWO` */
    CTG_ACTION_SIDE_THREE,   /**< `THREE` */
    CTG_ACTION_SIDE_COUNT
} ctg_action_side;

/** PhaseTapChanger.RegulationMode (the `regulationMode` of PHASE_TAP_CHANGER_REGULATION). */
typedef enum ctg_phase_regulation_mode {
    CTG_PHASE_REGULATION_CURRENT_LIMITER = 0,  /**< `CURRENT_LIMITER` */
    CTG_PHASE_REGULATION_ACTIVE_POWER_CONTROL, /**< `ACTIVE_POWER_CONTROL` */
    CTG_PHASE_REGULATION_MODE_COUNT
} ctg_phase_regulation_mode;

/** StaticVarCompensator.RegulationMode (the `regulationMode` of STATIC_VAR_COMPENSATOR). */
typedef enum ctg_svc_regulation_mode {
    CTG_SVC_REGULATION_VOLTAGE = 0,    /**< `VOLTAGE` */
    CTG_SVC_REGULATION_REACTIVE_POWER, /**< `REACTIVE_POWER` */
    CTG_SVC_REGULATION_MODE_COUNT
} ctg_svc_regulation_mode;

/** HvdcLine.ConvertersMode (the `converterMode` of HVDC). */
typedef enum ctg_converters_mode {
    CTG_CONVERTERS_SIDE_1_RECTIFIER_SIDE_2_INVERTER = 0, /**< SIDE_1_RECTIFIER_SIDE_2_INVERTER */
    CTG_CONVERTERS_SIDE_1_INVERTER_SIDE_2_RECTIFIER,     /**< SIDE_1_INVERTER_SIDE_2_RECTIFIER */
    CTG_CONVERTERS_MODE_COUNT
} ctg_converters_mode;

/** PercentChangeLoadAction.QModificationStrategy (`qModificationStrategy` of PCT_LOAD_CHANGE). */
typedef enum ctg_q_modification {
    CTG_Q_MODIFICATION_CONSTANT_Q = 0,    /**< `CONSTANT_Q`: Q0 unchanged */
    CTG_Q_MODIFICATION_CONSTANT_PQ_RATIO, /**< `CONSTANT_PQ_RATIO`: Q0 changed likewise */
    CTG_Q_MODIFICATION_COUNT
} ctg_q_modification;

/** The members of an action besides `type`, `id`, the element id and `actions`: one bit each
 *  in ctg_action.set (1u << CTG_ACTION_F_x), named after the JSON member they are. */
typedef enum ctg_action_field {
    CTG_ACTION_F_OPEN = 0,                    /**< `open` (SWITCH, TERMINALS_CONNECTION) */
    CTG_ACTION_F_SIDE,                        /**< `side` (terminals, tap changers) */
    CTG_ACTION_F_TAP_POSITION,                /**< `tapPosition` (legacy `value`) */
    CTG_ACTION_F_RELATIVE_VALUE,              /**< `relativeValue` (tap positions, LOAD,
                                                   BOUNDARY_LINE, HVDC) */
    CTG_ACTION_F_REGULATING,                  /**< `regulating` (tap changer regulations) */
    CTG_ACTION_F_REGULATION_MODE,             /**< `regulationMode` (phase regulation, SVC) */
    CTG_ACTION_F_REGULATION_VALUE,            /**< `regulationValue` */
    CTG_ACTION_F_TARGET_V,                    /**< `targetV` (ratio regulation, GENERATOR) */
    CTG_ACTION_F_ACTIVE_POWER_VALUE,          /**< `activePowerValue` */
    CTG_ACTION_F_REACTIVE_POWER_VALUE,        /**< `reactivePowerValue` */
    CTG_ACTION_F_P0_PERCENT_CHANGE,           /**< `p0PercentChange` */
    CTG_ACTION_F_Q_MODIFICATION_STRATEGY,     /**< `qModificationStrategy` */
    CTG_ACTION_F_ACTIVE_POWER_RELATIVE_VALUE, /**< `activePowerRelativeValue` */
    CTG_ACTION_F_VOLTAGE_REGULATOR_ON,        /**< `voltageRegulatorOn` */
    CTG_ACTION_F_TARGET_Q,                    /**< `targetQ` */
    CTG_ACTION_F_AC_EMULATION_ENABLED,        /**< `acEmulationEnabled` */
    CTG_ACTION_F_ACTIVE_POWER_SETPOINT,       /**< `activePowerSetpoint` */
    CTG_ACTION_F_CONVERTER_MODE,              /**< `converterMode` */
    CTG_ACTION_F_DROOP,                       /**< `droop` */
    CTG_ACTION_F_P0,                          /**< `p0` */
    CTG_ACTION_F_SECTION_COUNT,               /**< `sectionCount` */
    CTG_ACTION_F_REACTIVE_POWER_SETPOINT,     /**< `reactivePowerSetpoint` */
    CTG_ACTION_F_VOLTAGE_SETPOINT,            /**< `voltageSetpoint` */
    CTG_ACTION_F_INTERCHANGE_TARGET,          /**< `interchangeTarget` */
    CTG_ACTION_F_COUNT
} ctg_action_field;

/** The value of ctg_action.struct_version this library knows. */
#define CTG_ACTION_STRUCT_VERSION 1u

/** Whether member `f` (a ctg_action_field) of action `a` is set. */
#define CTG_ACTION_HAS(a, f) ((((a)->set) >> (f)) & 1u)

/**
 * One remedial action (spec 2.3), flat: the members of every type, those of `type` meaningful.
 * A member is present when its bit is in `set`; the writer writes exactly the present members
 * of the type, except `tapPosition`, `regulating` and `p0PercentChange`, always written (their
 * default, 0 / false / 0.0, when absent). Read: arena-owned by the document. Given to a
 * builder: borrowed for the call (deep-copied).
 */
typedef struct ctg_action {
    unsigned struct_version; /**< CTG_ACTION_STRUCT_VERSION (builders check it) */
    ctg_action_type type;    /**< which action; selects the members that apply */
    const char *id;          /**< `id`, required; ids need not be unique */
    /** The element acted on (`switchId`, `elementId`, `transformerId`, `loadId`,
     *  `boundaryLineId`, `generatorId`, `hvdcId`, `shuntCompensatorId`,
     *  `staticVarCompensatorId`, `areaId` by type); required, NULL for MULTIPLE_ACTIONS. */
    const char *element_id;
    unsigned set;                         /**< a bit (1u << CTG_ACTION_F_x) per present member */
    bool open;                            /**< `open` */
    bool relative_value;                  /**< `relativeValue` */
    bool regulating;                      /**< `regulating` */
    bool active_power_relative_value;     /**< `activePowerRelativeValue` */
    bool voltage_regulator_on;            /**< `voltageRegulatorOn` */
    bool ac_emulation_enabled;            /**< `acEmulationEnabled` */
    ctg_action_side side;                 /**< `side` */
    /** `regulationMode`: a ctg_phase_regulation_mode for PHASE_TAP_CHANGER_REGULATION, a
     *  ctg_svc_regulation_mode for STATIC_VAR_COMPENSATOR. */
    unsigned regulation_mode;
    ctg_converters_mode converter_mode;   /**< `converterMode` */
    ctg_q_modification q_modification;    /**< `qModificationStrategy` */
    int tap_position;                     /**< `tapPosition`, a delta when relative_value */
    int section_count;                    /**< `sectionCount`, 0 or more */
    double regulation_value;              /**< `regulationValue` */
    double target_v;                      /**< `targetV` */
    double active_power_value;            /**< `activePowerValue` */
    double reactive_power_value;          /**< `reactivePowerValue` */
    double p0_percent_change;             /**< `p0PercentChange`, -100 or more */
    double target_q;                      /**< `targetQ` */
    double active_power_setpoint;         /**< `activePowerSetpoint` */
    double droop;                         /**< `droop` */
    double p0;                            /**< `p0` */
    double reactive_power_setpoint;       /**< `reactivePowerSetpoint` */
    double voltage_setpoint;              /**< `voltageSetpoint` */
    double interchange_target;            /**< `interchangeTarget` (MW); unset: no target */
    const struct ctg_action *actions;     /**< MULTIPLE_ACTIONS: `action_count` actions */
    size_t action_count;                  /**< MULTIPLE_ACTIONS: how many */
} ctg_action;

/** The actions of a CTG_SA_ACTION_LIST or CTG_SA_IDENTIFIER_ACTION_LIST document, in list
 *  order (0 for another kind or NULL). */
CTG_API size_t ctg_sa_action_count(const ctg_sa_doc *doc);
/** Action `i`, or NULL when out of range; owned by `doc`. */
CTG_API const ctg_action *ctg_sa_action_at(const ctg_sa_doc *doc, size_t i);

/**
 * Appends a deep copy of `action` (nested actions included) to an action list, after checking
 * it as the reader checks a read one (required members, members of its type only, finite
 * numbers, the ranges of spec 2.3, ids and element ids valid UTF-8), so that the document
 * writes what a read one would.
 * @param doc     a CTG_SA_ACTION_LIST or CTG_SA_IDENTIFIER_ACTION_LIST document
 *                (ctg_sa_doc_new), changed only on success.
 * @param action  the action, borrowed for the call; struct_version CTG_ACTION_STRUCT_VERSION.
 * @param err     receives the error on failure (NULL: not reported); its path names the
 *                member, e.g. `/actions/0/open`.
 * @return CTG_OK; CTG_EINVAL for a NULL argument, another kind, or an action the reader would
 *         reject; CTG_ENOMEM.
 */
CTG_API int ctg_sa_action_list_add(ctg_sa_doc *doc, const ctg_action *action, ctg_error *err);

/* ---- cross-checks of a security analysis's inputs ---- */

/** What ctg_sa_check finds: references PowSyBl only resolves when the analysis runs. */
typedef enum ctg_sa_issue {
    CTG_SA_UNKNOWN_CONTINGENCY = 0, /**< a SPECIFIC context names an id the list does not have */
    CTG_SA_UNKNOWN_ACTION,          /**< a stage names an action id the action list lacks */
    CTG_SA_DUPLICATE_STAGE,         /**< a stage id that another strategy for the same
                                         contingency already has */
    CTG_SA_DUPLICATE_ACTION,        /**< an action id an earlier action of the list has */
    CTG_SA_UNUSED_ACTION,           /**< an action no stage names: a warning */
    CTG_SA_ISSUE_COUNT
} ctg_sa_issue;

/** One finding, borrowed by the callback until it returns. */
typedef struct ctg_sa_finding {
    ctg_sa_issue issue; /**< what it is */
    bool warning;       /**< true for CTG_SA_UNUSED_ACTION: the analysis runs all the same */
    ctg_sa_kind document; /**< the document it is in (an action list may be an identifier one) */
    const char *path;   /**< JSON Pointer of the offending value in that document (ctg_locate
                             gives its line and column) */
    const char *message; /**< lower case, no final period, the ids quoted */
} ctg_sa_finding;

/** Called for each finding; returns 0 to go on, nonzero to stop (CTG_ESTOPPED). */
typedef int (*ctg_sa_finding_fn)(const ctg_sa_finding *finding, void *payload);

/** The version of ctg_sa_check_set described here. */
#define CTG_SA_CHECK_SET_VERSION 1u

/** The inputs of one security analysis, each borrowed for the call; NULL: not given, and the
 *  references into it are not checked. */
typedef struct ctg_sa_check_set {
    unsigned version; /**< CTG_SA_CHECK_SET_VERSION */
    /** The ids of the contingency list (`contingency_count` of them, repeats allowed); NULL:
     *  contingency ids are not checked. */
    const char *const *contingency_ids;
    size_t contingency_count;              /**< ids at `contingency_ids` */
    const ctg_sa_doc *actions;             /**< an action list (D1 or D1b) */
    const ctg_sa_doc *strategies;          /**< an operator-strategy list */
    const ctg_sa_doc *limit_reductions;    /**< a limit-reduction list */
    const ctg_sa_doc *monitors;            /**< a state-monitor list */
} ctg_sa_check_set;

/**
 * Checks the references between the documents of `set`, calling `each` for every finding, in
 * this order: repeated action ids (in list order); then, strategy by strategy, its SPECIFIC
 * contingency, its stages' ids (a stage id that an earlier strategy for the same contingency
 * has; repeats within one strategy are its own) and their action ids; the SPECIFIC contexts of
 * the limit reductions, then of the monitors; last, when both an action list and strategies
 * are given, the actions no stage names (warnings). Only the top-level actions of the list
 * can be named (the actions nested in a MULTIPLE_ACTIONS are not looked at). The builders of
 * an identifier action list count as actions of their id, which PowSyBl gives the actions it
 * resolves them into (after the plain actions, each in list order; a builder without an id is
 * passed over); their findings are at `/actionBuilders/<key>/id`, under the key read (for an
 * entry added in code, its id: the key it is written under).
 * @param set        the documents, borrowed; each of the kind its member names.
 * @param each       called for each finding.
 * @param payload    passed to `each`.
 * @param allocator  for the call's own tables (NULL: the default); nothing is kept.
 * @param err        receives the error on failure (NULL: not reported).
 * @return CTG_OK (findings or none); CTG_EINVAL for a NULL or unknown-version set, no
 *         callback, or a document of another kind; CTG_ESTOPPED; CTG_ENOMEM.
 */
CTG_API int ctg_sa_check(const ctg_sa_check_set *set, ctg_sa_finding_fn each, void *payload,
                         const ctg_allocator *allocator, ctg_error *err);
/* ---- identifier action list (spec §2.5) ---- */

/**
 * One entry of an identifier action list: a partial action ("builder") and the network-element
 * identifier that gives it its element when the list is resolved against a network. The two
 * maps of the JSON, `elementIdentifiers` and `actionBuilders`, pair their values by key; the
 * key PowSyBl writes is the builder's id (the key read: ctg_sa_identified_action_key). Read:
 * arena-owned by the document. Given to the builder: borrowed for the call (deep-copied).
 */
typedef struct ctg_identified_action {
    /** `elementIdentifiers` value: CTG §4, without `contingencyId` (never read here). */
    ctg_identifier identifier;
    /** `actionBuilders` value: read as an action of its type but not checked as a built one,
     *  so required members may be missing (`element_id` NULL, `set` without `open`...); `id`
     *  NULL when absent. The members written are PowSyBl's: `id` and `type`, and for LOAD
     *  `elementId`, `relativeValue`, `activePowerValue`, `reactivePowerValue` too. */
    ctg_action builder;
} ctg_identified_action;

/** The entries of a CTG_SA_IDENTIFIER_ACTION_LIST document, in the order of its
 *  `actionBuilders` (builders: in the order added); written in Java hash order of the builder
 *  ids (spec 1.2). 0 for another kind or NULL. The plain `actions` of such a document are
 *  ctg_sa_action_count/_at's. */
CTG_API size_t ctg_sa_identified_action_count(const ctg_sa_doc *doc);
/** Entry `i`, or NULL when out of range; owned by `doc`. */
CTG_API const ctg_identified_action *ctg_sa_identified_action_at(const ctg_sa_doc *doc,
                                                                 size_t i);
/** The key entry `i` was read under in both maps, owned by `doc`: PowSyBl reads the action's
 *  id from the builder, so the two may differ. NULL for an entry added by
 *  ctg_sa_identified_action_add (written under its builder's id), or out of range. */
CTG_API const char *ctg_sa_identified_action_key(const ctg_sa_doc *doc, size_t i);

/**
 * Appends a deep copy of `item` to an identifier action list, after the checks the reader
 * makes of one it has read: the identifier follows CTG §4 and has no `contingencyId` (LIST
 * items included), the builder's members are those of its type with values in range and its
 * id and element id valid UTF-8, and it is not of a type whose builders no reader accepts
 * (BOUNDARY_LINE, gated by a version that builders never have). Like a read one, a document
 * whose builders lack an id, share an id, or are tap-changer builders is refused by
 * ctg_sa_write_buf with CTG_EUNSUPPORTED.
 * @param doc   a CTG_SA_IDENTIFIER_ACTION_LIST document (ctg_sa_doc_new or a read).
 * @param item  the entry, borrowed for the call; builder.struct_version
 *              CTG_ACTION_STRUCT_VERSION.
 * @param err   receives the error (NULL: not reported): source "<builder>", path in the
 *              document, e.g. "/actionBuilders/3/side".
 * @return CTG_OK; CTG_EINVAL (a NULL argument, another kind, or a check failed: `doc`
 *         unchanged); CTG_ENOMEM.
 */
CTG_API int ctg_sa_identified_action_add(ctg_sa_doc *doc, const ctg_identified_action *item,
                                         ctg_error *err);

/**
 * Reads a document of `kind` from `len` bytes at `data` (borrowed for the call).
 * With CTG_SA_ANY the kind is recognised from the document: an object root by its members
 * (`actions`, `operatorStrategies`, `limitReductions`), an array root by its first item
 * (`contextType`: contexts, `contingencyContext`: monitors; `[ ]` reads as contexts). An
 * action list whose `actionBuilders` is a non-empty object is an identifier action list.
 * @param out     receives the new document, owned by the caller (ctg_sa_doc_free); NULL on
 *                failure.
 * @param kind    the kind expected, or CTG_SA_ANY; a document of another kind is rejected
 *                with CTG_ESCHEMA naming what it is.
 * @param data    the JSON text.
 * @param len     bytes at `data`.
 * @param opts    read options (NULL: defaults); the allocator, max_depth and source_name
 *                apply, the flags must be 0.
 * @param err     receives the error on failure (NULL: not reported).
 * @return CTG_OK; CTG_EUNSUPPORTED for a kind not read yet; or the error's code.
 */
CTG_API int ctg_sa_read_buffer(ctg_sa_doc **out, ctg_sa_kind kind, const void *data, size_t len,
                               const ctg_read_options *opts, ctg_error *err);

/**
 * As ctg_sa_read_buffer, from the file at `path` (borrowed for the call).
 * @param out   receives the new document, owned by the caller; NULL on failure.
 * @param kind  the kind expected, or CTG_SA_ANY.
 * @param path  the file to read.
 * @param opts  read options (NULL: defaults).
 * @param err   receives the error on failure (NULL: not reported).
 * @return CTG_OK or the error's code.
 */
CTG_API int ctg_sa_read_file(ctg_sa_doc **out, ctg_sa_kind kind, const char *path,
                             const ctg_read_options *opts, ctg_error *err);

/**
 * Appends `doc` in PowSyBl's layout for its kind (pretty for contexts, compact for monitors)
 * to `buf`; on failure `buf` keeps its previous length.
 * @param buf   the caller's buffer (ctg_buf_dispose releases it).
 * @param doc   the document, only read.
 * @param opts  write options (NULL: defaults); the allocator applies, the flags must be 0.
 * @param err   receives the error on failure (NULL: not reported).
 * @return CTG_OK; CTG_EINVAL for a NULL argument; CTG_EUNSUPPORTED for a kind not written
 *         yet or an identifier action list PowSyBl cannot write (ctg_sa_identified_action_add
 *         says which), nothing written; CTG_ENOMEM.
 */
CTG_API int ctg_sa_write_buf(ctg_buf *buf, const ctg_sa_doc *doc, const ctg_write_options *opts,
                             ctg_error *err);

CTG_END_DECL

#endif
