/* SPDX-License-Identifier: MPL-2.0 */
/* The operator-strategy list (spec 3): strategies, their stages ("conditional actions") and
 * the eight condition types, read straight into the document's arena and written in PowSyBl's
 * layout at version 1.2, plus the builder and the accessors of ctg/sa.h.
 *
 * The root object is format/sa.c's: it keeps `version` and hands `operatorStrategies` here.
 * Every check of a finished object (a condition's members for its type, a stage, a strategy's
 * context) is one function that the reader and the builder both call, so a built document
 * writes what a read one would. Extensions are kept as JSON text by ext/read.c, as those of
 * contingencies are. The builder is format/sa_strategy_build.c. */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/arena.h"
#include "base/utf8.h"
#include "json/emit.h"
#include "json/reader.h"
#include "ext/ext.h"
#include "format/version.h"
#include "format/sa_internal.h"
#include "format/sa_strategy.h"

#define BIT(i) CTG_SA_BIT(i)
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The version written (spec 3.6). */
#define STRATEGY_VERSION "1.2"

/* ---- names -------------------------------------------------------------------------------- */

static const char *const condition_names[CTG_CONDITION_TYPE_COUNT] = {
    "TRUE_CONDITION",
    "ANY_VIOLATION_CONDITION",
    "ALL_VIOLATION",
    "AT_LEAST_ONE_VIOLATION",
    "INJECTION_THRESHOLD_CONDITION",
    "BRANCH_THRESHOLD_CONDITION",
    "THREE_WINDINGS_TRANSFORMER_THRESHOLD_CONDITION",
    "AC_DC_CONVERTER_THRESHOLD_CONDITION",
};

static const char *const violation_names[CTG_VIOLATION_TYPE_COUNT] = {
    "ACTIVE_POWER",      "APPARENT_POWER",    "CURRENT",
    "LOW_VOLTAGE",       "HIGH_VOLTAGE",      "LOW_VOLTAGE_ANGLE",
    "HIGH_VOLTAGE_ANGLE", "LOW_SHORT_CIRCUIT_CURRENT", "HIGH_SHORT_CIRCUIT_CURRENT",
    "OTHER",
};

static const char *const variable_names[CTG_THRESHOLD_VARIABLE_COUNT] = {
    "ACTIVE_POWER", "REACTIVE_POWER", "CURRENT", "TARGET_P"
};

static const char *const comparison_names[CTG_COMPARISON_TYPE_COUNT] = {
    "EQUALS",    "GREATER_THAN",          "GREATER_THAN_OR_EQUALS",
    "LESS_THAN", "LESS_THAN_OR_EQUALS", "NOT_EQUAL"
};

static const char *const side_names[CTG_CONDITION_SIDE_COUNT] = { "ONE", "TWO", "THREE" };

const char *ctg_condition_type_name(ctg_condition_type type)
{
    return (unsigned)type < CTG_CONDITION_TYPE_COUNT ? condition_names[type] : NULL;
}

/* ---- keys --------------------------------------------------------------------------------- */

static const ctg_key condition_keys[C_COUNT] = {
    [C_TYPE] = CTG_KEY("type"),
    [C_FILTERS] = CTG_KEY("filters"),
    [C_VIOLATION_IDS] = CTG_KEY("violationIds"),
    [C_EQUIPMENT_ID] = CTG_KEY("equipmentId"),
    [C_VARIABLE] = CTG_KEY("variable"),
    [C_COMPARISON] = CTG_KEY("comparisonType"),
    [C_THRESHOLD] = CTG_KEY("threshold"),
    [C_SIDE] = CTG_KEY("side"),
    [C_AC_SIDE] = CTG_KEY("acSide"),
    [C_TERMINAL] = CTG_KEY("terminalNumber"),
};

#define THRESHOLD_KEYS \
    (BIT(C_EQUIPMENT_ID) | BIT(C_VARIABLE) | BIT(C_COMPARISON) | BIT(C_THRESHOLD))
#define THRESHOLD_REQUIRED (BIT(C_EQUIPMENT_ID) | BIT(C_VARIABLE) | BIT(C_COMPARISON))

/* Per type: the members it has, and those it needs (spec 3.4; the 3WT `side` and the AC/DC
 * `terminalNumber`, which PowSyBl cannot write when absent, count as required). */
static const struct {
    unsigned members, required;
} condition_shape[CTG_CONDITION_TYPE_COUNT] = {
    [CTG_CONDITION_TRUE] = { 0, 0 },
    [CTG_CONDITION_ANY_VIOLATION] = { BIT(C_FILTERS), 0 },
    [CTG_CONDITION_ALL_VIOLATION] = { BIT(C_FILTERS) | BIT(C_VIOLATION_IDS),
                                      BIT(C_VIOLATION_IDS) },
    [CTG_CONDITION_AT_LEAST_ONE_VIOLATION] = { BIT(C_FILTERS) | BIT(C_VIOLATION_IDS),
                                               BIT(C_VIOLATION_IDS) },
    [CTG_CONDITION_INJECTION_THRESHOLD] = { THRESHOLD_KEYS, THRESHOLD_REQUIRED },
    [CTG_CONDITION_BRANCH_THRESHOLD] = { THRESHOLD_KEYS | BIT(C_SIDE),
                                         THRESHOLD_REQUIRED | BIT(C_SIDE) },
    [CTG_CONDITION_THREE_WINDINGS_TRANSFORMER_THRESHOLD] = { THRESHOLD_KEYS | BIT(C_SIDE),
                                                             THRESHOLD_REQUIRED | BIT(C_SIDE) },
    [CTG_CONDITION_AC_DC_CONVERTER_THRESHOLD] = {
        THRESHOLD_KEYS | BIT(C_AC_SIDE) | BIT(C_TERMINAL), THRESHOLD_REQUIRED | BIT(C_TERMINAL) },
};

enum { A_ID, A_CONDITION, A_ACTION_IDS, A_COUNT };
static const ctg_key stage_keys[A_COUNT] = {
    [A_ID] = CTG_KEY("id"),
    [A_CONDITION] = CTG_KEY("condition"),
    [A_ACTION_IDS] = CTG_KEY("actionIds"),
};

static const ctg_key strategy_keys[S_COUNT] = {
    [S_ID] = CTG_KEY("id"),
    [S_CONTEXT_TYPE] = CTG_KEY("contingencyContextType"),
    [S_CONTINGENCY_ID] = CTG_KEY("contingencyId"),
    [S_STAGES] = CTG_KEY("conditionalActions"),
    [S_EXTENSIONS] = CTG_KEY("extensions"),
    [S_CONDITION] = CTG_KEY("condition"),
    [S_ACTION_IDS] = CTG_KEY("actionIds"),
};

static const ctg_key root_version_key = CTG_KEY("version");
static const ctg_key root_strategies_key = CTG_KEY("operatorStrategies");


/* ---- the checks of finished objects, shared by the reader and the builder ----------------- */


bool ctg_sa_fault(fault *f, unsigned key, const char *msg, const char *arg)
{
    f->key = key;
    f->code = CTG_EINVAL;
    snprintf(f->msg, sizeof f->msg, msg, arg);
    return false;
}

bool ctg_sa_check_ids(const char *const *ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!ids[i] || !ctg_utf8_valid(ids[i]))
            return false;
    return true;
}

static bool check_filters(const ctg_condition *c, fault *f)
{
    unsigned seen = 0;

    for (size_t i = 0; i < c->filter_count; i++) {
        if ((unsigned)c->filters[i] >= CTG_VIOLATION_TYPE_COUNT)
            return ctg_sa_fault(f, C_FILTERS, "unknown violation type in \"filters\"%s", "");
        if (seen & BIT(c->filters[i]))
            return ctg_sa_fault(f, C_FILTERS, "violation type %s twice in \"filters\" (a set)",
                             violation_names[c->filters[i]]);
        seen |= BIT(c->filters[i]);
    }
    return true;
}

/* The members that belong to no other type are empty (what a reader cannot hold). */
static bool check_foreign(const ctg_condition *c, unsigned members, fault *f)
{
    static const char msg[] = "\"%s\" does not apply to this condition type";

    if (!(members & BIT(C_FILTERS)) && c->filter_count)
        return ctg_sa_fault(f, C_FILTERS, msg, "filters");
    if (!(members & BIT(C_VIOLATION_IDS)) && c->violation_id_count)
        return ctg_sa_fault(f, C_VIOLATION_IDS, msg, "violationIds");
    if (!(members & BIT(C_EQUIPMENT_ID)) && c->equipment_id)
        return ctg_sa_fault(f, C_EQUIPMENT_ID, msg, "equipmentId");
    return true;
}

static bool check_threshold(const ctg_condition *c, fault *f)
{
    if (!c->equipment_id)
        return ctg_sa_fault(f, C_EQUIPMENT_ID, "missing required field \"%s\"", "equipmentId");
    if (!ctg_utf8_valid(c->equipment_id))
        return ctg_sa_fault(f, C_EQUIPMENT_ID, "\"%s\" is not valid UTF-8", "equipmentId");
    if ((unsigned)c->variable >= CTG_THRESHOLD_VARIABLE_COUNT)
        return ctg_sa_fault(f, C_VARIABLE, "unknown %s", "variable");
    if ((unsigned)c->comparison >= CTG_COMPARISON_TYPE_COUNT)
        return ctg_sa_fault(f, C_COMPARISON, "unknown %s", "comparisonType");
    if (!isfinite(c->threshold))
        return ctg_sa_fault(f, C_THRESHOLD, "\"%s\" must be a finite number", "threshold");
    return true;
}

/* The one check of a condition's values (the reader has checked which members are present). */
bool ctg_sa_check_condition(const ctg_condition *c, fault *f)
{
    unsigned members;

    if ((unsigned)c->type >= CTG_CONDITION_TYPE_COUNT)
        return ctg_sa_fault(f, C_TYPE, "unknown condition type%s", "");
    members = condition_shape[c->type].members;
    if (!check_foreign(c, members, f) || !check_filters(c, f))
        return false;
    if (!ctg_sa_check_ids(c->violation_ids, c->violation_id_count))
        return ctg_sa_fault(f, C_VIOLATION_IDS, "a %s item is NULL or not valid UTF-8",
                         "violationIds");
    if (!(members & BIT(C_EQUIPMENT_ID)))
        return true;
    if (!check_threshold(c, f))
        return false;
    if ((members & BIT(C_SIDE)) && (unsigned)c->side >= CTG_CONDITION_SIDE_COUNT)
        return ctg_sa_fault(f, C_SIDE, "unknown %s", "side");
    if (c->type == CTG_CONDITION_BRANCH_THRESHOLD && c->side == CTG_CONDITION_SIDE_THREE)
        return ctg_sa_fault(f, C_SIDE, "a BRANCH_THRESHOLD_CONDITION has side ONE or TWO, got %s",
                         "THREE");
    if (c->type == CTG_CONDITION_AC_DC_CONVERTER_THRESHOLD && c->terminal_number != 1 &&
        c->terminal_number != 2)
        return ctg_sa_fault(f, C_TERMINAL, "\"%s\" must be 1 or 2", "terminalNumber");
    return true;
}

/* A strategy's own members: SPECIFIC names its contingency (spec 3.2). */
bool ctg_sa_check_context(const ctg_contingency_context *c, fault *f)
{
    if ((unsigned)c->type >= CTG_CONTEXT_TYPE_COUNT)
        return ctg_sa_fault(f, S_CONTEXT_TYPE, "unknown %s", "contingencyContextType");
    if (!ctg_utf8_valid(c->contingency_id))
        return ctg_sa_fault(f, S_CONTINGENCY_ID, "\"%s\" is not valid UTF-8", "contingencyId");
    if (c->type == CTG_CONTEXT_SPECIFIC && !c->contingency_id)
        return ctg_sa_fault(f, S_CONTINGENCY_ID,
                         "a SPECIFIC contingency context needs a contingencyId%s", "");
    return true;
}

/* ---- reading: small values ---------------------------------------------------------------- */

typedef ctg_sa_reader sa_reader;

/* Only the exact constant name (PowSyBl's Jackson enums also take ordinals and padding, which
 * it never writes: docs/compatibility.md). */
static int read_enum(ctg_reader *rd, const char *const *names, unsigned n, const char *what,
                     unsigned *out)
{
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    for (unsigned i = 0; i < n; i++)
        if (strlen(names[i]) == rd->tok.len && memcmp(names[i], rd->tok.str, rd->tok.len) == 0) {
            *out = i;
            return CTG_OK;
        }
    return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown %s \"%.*s\"", what,
                           (int)(rd->tok.len > 64 ? 64 : rd->tok.len), rd->tok.str);
}

/* Ids are JSON strings: PowSyBl turns numbers into text and keeps null items, which it never
 * writes for ids and which name no action (docs/compatibility.md). */
static int read_id(ctg_reader *rd, void *out)
{
    return ctg_read_string(rd, out, "id");
}

CTG_HANDLER_DEFINE(static, id_handler, "strategy-id", const char *, read_id);

static int read_ids(ctg_reader *rd, const char *const **ids, size_t *count)
{
    void *items;
    int rc;

    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    if ((rc = ctg_read_array(rd, &id_handler, &items, count)) != CTG_OK)
        return rc;
    *ids = items;
    return CTG_OK;
}

static int read_filter(ctg_reader *rd, void *out)
{
    unsigned v = 0;
    int rc = read_enum(rd, violation_names, CTG_VIOLATION_TYPE_COUNT, "violation type", &v);

    if (rc == CTG_OK)
        *(ctg_violation_type *)out = (ctg_violation_type)v;
    return rc;
}

CTG_HANDLER_DEFINE(static, filter_handler, "strategy-filter", ctg_violation_type, read_filter);

/* A set (spec 3.4): duplicates collapse, the first place of each is kept. */
static int read_filters(ctg_reader *rd, ctg_condition *c)
{
    ctg_violation_type *items;
    unsigned seen = 0;
    size_t n, kept = 0;
    void *p;
    int rc;

    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    if ((rc = ctg_read_array(rd, &filter_handler, &p, &n)) != CTG_OK)
        return rc;
    items = p;
    for (size_t i = 0; i < n; i++)
        if (!(seen & BIT(items[i]))) {
            seen |= BIT(items[i]);
            items[kept++] = items[i];
        }
    c->filters = kept ? items : NULL;
    c->filter_count = kept;
    return CTG_OK;
}

/* ---- reading: conditions ------------------------------------------------------------------ */

typedef struct condition_ctx {
    ctg_condition *c;
    ctg_mark marks[C_COUNT]; /* where each member's value was, for the checks at the end */
} condition_ctx;

static int read_number_member(ctg_reader *rd, unsigned index, ctg_condition *c)
{
    if (index == C_THRESHOLD) {
        if (rd->tok.type != CTG_TOK_NUMBER)
            return ctg_reader_type_error(rd, "number");
        c->threshold = rd->tok.number;
        return CTG_OK;
    }
    if (index == C_AC_SIDE) {
        if (rd->tok.type != CTG_TOK_TRUE && rd->tok.type != CTG_TOK_FALSE)
            return ctg_reader_type_error(rd, "boolean");
        c->ac_side = rd->tok.type == CTG_TOK_TRUE;
        return CTG_OK;
    }
    if (rd->tok.type != CTG_TOK_NUMBER || !rd->tok.is_integer)
        return ctg_reader_type_error(rd, "integer");
    /* Anything but 1 and 2 is refused by check_condition; keep it out of int's range here. */
    c->terminal_number = rd->tok.number == 1 ? 1 : rd->tok.number == 2 ? 2 : 0;
    return CTG_OK;
}

static int condition_field(ctg_reader *rd, unsigned index, void *ctx)
{
    condition_ctx *cc = ctx;
    ctg_condition *c = cc->c;
    unsigned v = 0;
    int rc = CTG_OK;

    cc->marks[index] = ctg_reader_mark(rd);
    switch (index) {
    case C_TYPE:
        rc = read_enum(rd, condition_names, CTG_CONDITION_TYPE_COUNT, "condition type", &v);
        c->type = (ctg_condition_type)v;
        return rc;
    case C_FILTERS:
        return read_filters(rd, c);
    case C_VIOLATION_IDS:
        return read_ids(rd, &c->violation_ids, &c->violation_id_count);
    case C_EQUIPMENT_ID:
        return ctg_read_string(rd, &c->equipment_id, "equipmentId");
    case C_VARIABLE:
        rc = read_enum(rd, variable_names, CTG_THRESHOLD_VARIABLE_COUNT, "variable", &v);
        c->variable = (ctg_threshold_variable)v;
        return rc;
    case C_COMPARISON:
        rc = read_enum(rd, comparison_names, CTG_COMPARISON_TYPE_COUNT, "comparisonType", &v);
        c->comparison = (ctg_comparison_type)v;
        return rc;
    case C_SIDE:
        rc = read_enum(rd, side_names, CTG_CONDITION_SIDE_COUNT, "side", &v);
        c->side = (ctg_condition_side)v;
        return rc;
    default:
        return read_number_member(rd, index, c);
    }
}

static const ctg_object_def condition_def = { condition_keys, C_COUNT, condition_field };

/* After the '}': `type` is known only now (it may come last), so this is where members of
 * another type are refused (PowSyBl drops them silently) and missing ones found. */
static int finish_condition(ctg_reader *rd, const condition_ctx *cc, const ctg_mark *start,
                            unsigned seen)
{
    const ctg_condition *c = cc->c;
    unsigned members, missing, foreign;
    fault f;

    if (!(seen & BIT(C_TYPE)))
        return ctg_reader_missing(rd, start, "type");
    members = condition_shape[c->type].members;
    foreign = seen & ~members & ~BIT(C_TYPE);
    for (unsigned k = 0; k < C_COUNT; k++)
        if (foreign & BIT(k))
            return ctg_reader_fail_at(rd, &cc->marks[k], condition_keys[k].name, CTG_ESCHEMA,
                                      "\"%s\" does not apply to condition type %s",
                                      condition_keys[k].name, condition_names[c->type]);
    missing = condition_shape[c->type].required & ~seen;
    for (unsigned k = 0; k < C_COUNT; k++)
        if (missing & BIT(k))
            return ctg_reader_missing(rd, start, condition_keys[k].name);
    if (ctg_sa_check_condition(c, &f))
        return CTG_OK;
    return ctg_reader_fail_at(rd, f.key < C_COUNT ? &cc->marks[f.key] : start,
                              f.key < C_COUNT ? condition_keys[f.key].name : NULL, CTG_ESCHEMA,
                              "%s", f.msg);
}

static int read_condition(ctg_reader *rd, ctg_condition *c)
{
    condition_ctx cc = { c, { { 0 } } };
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen = 0;
    int rc;

    memset(c, 0, sizeof *c);
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_read_object(rd, &condition_def, &cc, &seen)) != CTG_OK)
        return rc;
    return finish_condition(rd, &cc, &start, seen);
}

/* ---- reading: stages ---------------------------------------------------------------------- */

static int stage_field(ctg_reader *rd, unsigned index, void *ctx)
{
    ctg_conditional_actions *a = ctx;

    if (index == A_ID)
        return ctg_read_string(rd, &a->id, "id");
    if (index == A_CONDITION)
        return read_condition(rd, &a->condition);
    return read_ids(rd, &a->action_ids, &a->action_id_count);
}

static const ctg_object_def stage_def = { stage_keys, A_COUNT, stage_field };

static int read_stage(ctg_reader *rd, void *out)
{
    ctg_conditional_actions *a = out;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen = 0;
    int rc;

    memset(a, 0, sizeof *a);
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_read_object(rd, &stage_def, a, &seen)) != CTG_OK)
        return rc;
    for (unsigned k = 0; k < A_COUNT; k++)
        if (!(seen & BIT(k)))
            return ctg_reader_missing(rd, &start, stage_keys[k].name);
    return CTG_OK;
}

CTG_HANDLER_DEFINE(static, stage_handler, "strategy-stage", ctg_conditional_actions, read_stage);

/* ---- reading: strategies ------------------------------------------------------------------ */

/* sa->state while the strategies are read: the body, and the gates of spec 3.6 decided once
 * for the list's version (it comes before the strategies). */
typedef struct strategies_read {
    strategy_body body;
    bool stages_allowed; /* `conditionalActions`: 1.1 or later */
    bool single_allowed; /* `condition` and `actionIds` of the strategy: 1.0 or earlier */
} strategies_read;

typedef struct strategy_ctx {
    ctg_operator_strategy *s;
    const strategies_read *gates;
    const char *version;          /* the list's, a string (checked before the first strategy) */
    bool single;                  /* the 1.0 layout: `condition` + `actionIds` (spec 3.6) */
    ctg_conditional_actions one;  /* its stage */
    ctg_mark marks[S_COUNT];
} strategy_ctx;

/* The member gates of spec 3.6, by the numeric comparison of spec 0.2. */
static int gate(ctg_reader *rd, const strategy_ctx *sc, unsigned index)
{
    const char *v = sc->version;
    size_t n;

    if (index == S_STAGES ? sc->gates->stages_allowed
                          : !(index == S_CONDITION || index == S_ACTION_IDS) ||
                                sc->gates->single_allowed)
        return CTG_OK;
    n = strlen(v);
    if (index == S_STAGES)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "\"conditionalActions\" needs version 1.1 or later; the list has "
                               "version %.*s",
                               (int)(n > 32 ? 32 : n), v);
    return ctg_reader_fail(rd, CTG_ESCHEMA,
                           "\"%s\" is only allowed up to version 1.0 (later: in "
                           "\"conditionalActions\"); the list has version %.*s",
                           strategy_keys[index].name, (int)(n > 32 ? 32 : n), v);
}

static int read_strategy_extensions(ctg_reader *rd, ctg_operator_strategy *s)
{
    ctg_ext_resolver none = { 0 }; /* no typed handlers: every value is kept as JSON text */
    ctg_contingency holder = { 0 };
    int rc = ctg_read_extensions(rd, &none, &holder);

    s->extensions = holder.extensions;
    s->extension_count = holder.extension_count;
    return rc;
}

static int strategy_field(ctg_reader *rd, unsigned index, void *ctx)
{
    strategy_ctx *sc = ctx;
    ctg_operator_strategy *s = sc->s;
    unsigned v = 0;
    void *items;
    int rc;

    sc->marks[index] = ctg_reader_mark(rd);
    if ((rc = gate(rd, sc, index)) != CTG_OK)
        return rc;
    switch (index) {
    case S_ID:
        return ctg_read_string(rd, &s->id, "id");
    case S_CONTEXT_TYPE:
        rc = read_enum(rd, ctg_sa_context_type_names, CTG_CONTEXT_TYPE_COUNT,
                       "contingencyContextType", &v);
        s->context.type = (ctg_context_type)v;
        return rc;
    case S_CONTINGENCY_ID:
        return ctg_read_opt_string(rd, &s->context.contingency_id, "contingencyId");
    case S_STAGES:
        if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
            return ctg_reader_type_error(rd, "array");
        rc = ctg_read_array(rd, &stage_handler, &items, &s->stage_count);
        s->stages = items;
        return rc;
    case S_EXTENSIONS:
        return read_strategy_extensions(rd, s);
    case S_CONDITION:
        return read_condition(rd, &sc->one.condition);
    default:
        return read_ids(rd, &sc->one.action_ids, &sc->one.action_id_count);
    }
}

static const ctg_object_def strategy_def = { strategy_keys, S_COUNT, strategy_field };

/* The layout the version picks (spec 3.6: a plain string comparison) has its members. */
static int finish_layout(ctg_reader *rd, strategy_ctx *sc, const ctg_mark *start, unsigned seen)
{
    ctg_conditional_actions *one;

    if (!sc->single)
        return seen & BIT(S_STAGES) ? CTG_OK : ctg_reader_missing(rd, start, "conditionalActions");
    if (seen & BIT(S_STAGES))
        return ctg_reader_fail_at(rd, &sc->marks[S_STAGES], "conditionalActions", CTG_ESCHEMA,
                                  "version \"%s\" is below \"1.1\" as text, the single-stage "
                                  "layout: \"condition\" and \"actionIds\", not "
                                  "\"conditionalActions\"",
                                  sc->version);
    if (!(seen & BIT(S_CONDITION)))
        return ctg_reader_missing(rd, start, "condition");
    if (!(seen & BIT(S_ACTION_IDS)))
        return ctg_reader_missing(rd, start, "actionIds");
    if (!(one = ctg_arena_memdup(rd->arena, &sc->one, sizeof *one)))
        return ctg_reader_nomem(rd);
    one->id = "default"; /* PowSyBl's name for the one stage, written back as such */
    sc->s->stages = one;
    sc->s->stage_count = 1;
    return CTG_OK;
}

static int finish_strategy(ctg_reader *rd, strategy_ctx *sc, const ctg_mark *start,
                           unsigned seen)
{
    fault f;
    int rc;

    if (!(seen & BIT(S_ID)))
        return ctg_reader_missing(rd, start, "id");
    if ((rc = finish_layout(rd, sc, start, seen)) != CTG_OK)
        return rc;
    if (ctg_sa_check_context(&sc->s->context, &f))
        return CTG_OK;
    return ctg_reader_fail_at(rd, start, strategy_keys[f.key].name, CTG_ESCHEMA, "%s", f.msg);
}

/* The version must be known before the first strategy (spec 3.1). */
static int read_strategy(ctg_reader *rd, void *out)
{
    sa_reader *sa = (sa_reader *)rd;
    strategy_ctx sc;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen = 0;
    int rc;

    memset(&sc, 0, sizeof sc);
    sc.s = out;
    memset(sc.s, 0, sizeof *sc.s);
    sc.s->context.type = CTG_CONTEXT_SPECIFIC; /* absent: SPECIFIC (spec 3.2) */
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if (!sa->version)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "\"version\" must come before the first operator strategy");
    sc.version = sa->version;
    sc.gates = sa->state;
    sc.single = strcmp(sa->version, "1.1") < 0;
    if ((rc = ctg_read_object(rd, &strategy_def, &sc, &seen)) != CTG_OK)
        return rc;
    return finish_strategy(rd, &sc, &start, seen);
}

CTG_HANDLER_DEFINE(static, strategy_handler, "operator-strategy", ctg_operator_strategy,
                   read_strategy);

/* ---- reading: the root's members ---------------------------------------------------------- */

/* A `version` that is no string: PowSyBl reads it as absent (spec 0.2). */
static int version_not_text(sa_reader *sa)
{
    static const char *const kinds[] = {
        [CTG_TOK_NUMBER] = "number", [CTG_TOK_TRUE] = "boolean", [CTG_TOK_FALSE] = "boolean",
        [CTG_TOK_NULL] = "null",
    };
    const char *got = (unsigned)sa->version_type < COUNT_OF(kinds) && kinds[sa->version_type]
                          ? kinds[sa->version_type]
                          : "another value";

    return ctg_reader_fail_path(&sa->json, &sa->version_mark, "/version", CTG_ESCHEMA,
                                "expected string for \"version\", got %s", got);
}

static int strategies_member(ctg_sa_reader *sa, unsigned key)
{
    ctg_reader *rd = &sa->json;
    strategies_read *sr;
    strategy_body *body;
    void *items;
    int rc;

    (void)key; /* only CTG_SA_ROOT_OPERATOR_STRATEGIES belongs to this kind */
    if (sa->has_version && !sa->version)
        return version_not_text(sa);
    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    if (!(sr = ctg_arena_calloc(rd->arena, 1, sizeof *sr)))
        return ctg_reader_nomem(rd);
    if (sa->version) { /* without one, the first strategy is refused */
        size_t n = strlen(sa->version);
        sr->stages_allowed = ctg_version_compare(sa->version, n, "1.1") >= 0;
        sr->single_allowed = ctg_version_compare(sa->version, n, "1.0") <= 0;
    }
    sa->state = sr;
    body = &sr->body;
    if ((rc = ctg_read_array(rd, &strategy_handler, &items, &body->count)) != CTG_OK)
        return rc;
    body->items = items;
    body->cap = body->count;
    return CTG_OK;
}

static int strategies_finish(ctg_sa_reader *sa, unsigned seen)
{
    if (!(seen & BIT(CTG_SA_ROOT_VERSION)))
        return ctg_reader_missing(&sa->json, &sa->start, "version");
    if (!sa->version)
        return version_not_text(sa);
    sa->doc->body = sa->state ? &((strategies_read *)sa->state)->body : NULL;
    return CTG_OK;
}

/* ---- writing ------------------------------------------------------------------------------ */

static void write_ids(ctg_emitter *e, const ctg_key *key, const char *const *ids, size_t n)
{
    ctg_emit_name_key(e, key);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++)
        ctg_emit_string(e, ids[i], strlen(ids[i]));
    ctg_emit_array_end(e);
}

static void write_name(ctg_emitter *e, unsigned key, const char *name)
{
    ctg_emit_member_string(e, &condition_keys[key], name, strlen(name));
}

static void write_threshold(ctg_emitter *e, const ctg_condition *c)
{
    ctg_emit_member_string(e, &condition_keys[C_EQUIPMENT_ID], c->equipment_id,
                           strlen(c->equipment_id));
    write_name(e, C_VARIABLE, variable_names[c->variable]);
    write_name(e, C_COMPARISON, comparison_names[c->comparison]);
    ctg_emit_name_key(e, &condition_keys[C_THRESHOLD]);
    ctg_emit_double(e, c->threshold);
    if (c->type == CTG_CONDITION_AC_DC_CONVERTER_THRESHOLD) {
        ctg_emit_name_key(e, &condition_keys[C_AC_SIDE]);
        ctg_emit_bool(e, c->ac_side);
        ctg_emit_name_key(e, &condition_keys[C_TERMINAL]);
        ctg_emit_int(e, c->terminal_number);
    } else if (c->type != CTG_CONDITION_INJECTION_THRESHOLD) {
        write_name(e, C_SIDE, side_names[c->side]);
    }
}

/* `type` first, then the type's members (spec 3.4); `filters` only when not empty. */
static void write_condition(ctg_emitter *e, const ctg_condition *c)
{
    unsigned members = condition_shape[c->type].members;

    ctg_emit_object_begin(e);
    write_name(e, C_TYPE, condition_names[c->type]);
    if ((members & BIT(C_FILTERS)) && c->filter_count) {
        ctg_emit_name_key(e, &condition_keys[C_FILTERS]);
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < c->filter_count; i++)
            ctg_emit_string(e, violation_names[c->filters[i]],
                            strlen(violation_names[c->filters[i]]));
        ctg_emit_array_end(e);
    }
    if (members & BIT(C_VIOLATION_IDS))
        write_ids(e, &condition_keys[C_VIOLATION_IDS], c->violation_ids, c->violation_id_count);
    if (members & BIT(C_EQUIPMENT_ID))
        write_threshold(e, c);
    ctg_emit_object_end(e);
}

static void write_stage(ctg_emitter *e, const ctg_conditional_actions *a)
{
    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &stage_keys[A_ID], a->id, strlen(a->id));
    ctg_emit_name_key(e, &stage_keys[A_CONDITION]);
    write_condition(e, &a->condition);
    write_ids(e, &stage_keys[A_ACTION_IDS], a->action_ids, a->action_id_count);
    ctg_emit_object_end(e);
}

static void write_strategy(ctg_emitter *e, const ctg_operator_strategy *s)
{
    const char *t = ctg_sa_context_type_names[s->context.type];
    ctg_contingency holder = { 0 };

    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &strategy_keys[S_ID], s->id, strlen(s->id));
    ctg_emit_member_string(e, &strategy_keys[S_CONTEXT_TYPE], t, strlen(t));
    if (s->context.contingency_id)
        ctg_emit_member_string(e, &strategy_keys[S_CONTINGENCY_ID], s->context.contingency_id,
                               strlen(s->context.contingency_id));
    ctg_emit_name_key(e, &strategy_keys[S_STAGES]);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < s->stage_count; i++)
        write_stage(e, &s->stages[i]);
    ctg_emit_array_end(e);
    holder.extensions = s->extensions;
    holder.extension_count = s->extension_count;
    ctg_write_extensions(e, &strategy_keys[S_EXTENSIONS], &holder);
    ctg_emit_object_end(e);
}

static void strategies_write(ctg_emitter *e, const ctg_sa_doc *doc)
{
    const strategy_body *body = doc->body;

    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &root_version_key, STRATEGY_VERSION, sizeof STRATEGY_VERSION - 1);
    ctg_emit_name_key(e, &root_strategies_key);
    ctg_emit_array_begin(e);
    for (size_t i = 0; body && i < body->count; i++)
        write_strategy(e, &body->items[i]);
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
}

const ctg_sa_kind_ops ctg_sa_strategy_ops = { strategies_member, strategies_finish,
                                              strategies_write };

/* ---- accessors ---------------------------------------------------------------------------- */

size_t ctg_sa_strategy_count(const ctg_sa_doc *doc)
{
    const strategy_body *body;

    if (!doc || doc->kind != CTG_SA_OPERATOR_STRATEGIES || !(body = doc->body))
        return 0;
    return body->count;
}

const ctg_operator_strategy *ctg_sa_strategy_at(const ctg_sa_doc *doc, size_t i)
{
    return i < ctg_sa_strategy_count(doc) ? &((const strategy_body *)doc->body)->items[i] : NULL;
}

/* ---- what the builder (format/sa_strategy_build.c) reads of the tables ---------------------- */

unsigned ctg_sa_condition_members(ctg_condition_type type)
{
    return condition_shape[type].members;
}

const char *ctg_sa_condition_key(unsigned key)
{
    return condition_keys[key].name;
}

const char *ctg_sa_strategy_key(unsigned key)
{
    return strategy_keys[key].name;
}
