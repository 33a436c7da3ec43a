/* SPDX-License-Identifier: MPL-2.0 */
/* Action lists (spec 2, D1): the `actions` member of the root object that format/sa.c reads,
 * the 15 action types, their checks (one function for the reader and the builder), and the
 * writer of PowSyBl's layout at version 1.3.
 *
 * An action's `type` may come anywhere in its object (spec 9.1). No tree is built: the members
 * before it are kept as their tokens (strings copied into the arena) in file order and applied
 * once the type is known, each error at its own position, so the verdicts and positions are
 * those of a reader that saw `type` first. Only a nested `actions` array met before `type` is
 * read at once (it cannot be kept as one token). */

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "json/emit.h"
#include "json/reader.h"
#include "format/version.h"
#include "format/sa_internal.h"

#define BIT(i) (1u << (i))
#define BIT64(i) ((uint64_t)1 << (i))
#define ACTION_VERSION "1.3"

/* The document's body (D1b's entries are format/sa_idaction.c's). */
typedef ctg_sa_action_body action_list;

/* Actions nest at most this deep in MULTIPLE_ACTIONS (the top level is 0): reading, checking,
 * copying and writing recurse once per level, and a fixed bound keeps that recursion within a
 * small thread stack whatever max_depth allows (each level is two levels of JSON). */
#define ACTION_MAX_NESTING 126

/* Member names: type, id, element ids and legacy names, then one per ctg_action_field. */
enum {
    K_TYPE,
    K_ID,
    K_SWITCH_ID,
    K_ELEMENT_ID,
    K_TRANSFORMER_ID,
    K_LOAD_ID,
    K_BOUNDARY_LINE_ID,
    K_DANGLING_LINE_ID,
    K_GENERATOR_ID,
    K_HVDC_ID,
    K_SHUNT_ID,
    K_SVC_ID,
    K_AREA_ID,
    K_ACTIONS,
    K_VALUE,
    K_FIELD, /* K_FIELD + f: ctg_action_field f */
    K_COUNT = K_FIELD + CTG_ACTION_F_COUNT
};
#define F(f) (K_FIELD + CTG_ACTION_F_##f)

static const ctg_key keys[K_COUNT] = {
    [K_TYPE] = CTG_KEY("type"),
    [K_ID] = CTG_KEY("id"),
    [K_SWITCH_ID] = CTG_KEY("switchId"),
    [K_ELEMENT_ID] = CTG_KEY("elementId"),
    [K_TRANSFORMER_ID] = CTG_KEY("transformerId"),
    [K_LOAD_ID] = CTG_KEY("loadId"),
    [K_BOUNDARY_LINE_ID] = CTG_KEY("boundaryLineId"),
    [K_DANGLING_LINE_ID] = CTG_KEY("danglingLineId"),
    [K_GENERATOR_ID] = CTG_KEY("generatorId"),
    [K_HVDC_ID] = CTG_KEY("hvdcId"),
    [K_SHUNT_ID] = CTG_KEY("shuntCompensatorId"),
    [K_SVC_ID] = CTG_KEY("staticVarCompensatorId"),
    [K_AREA_ID] = CTG_KEY("areaId"),
    [K_ACTIONS] = CTG_KEY("actions"),
    [K_VALUE] = CTG_KEY("value"),
    [F(OPEN)] = CTG_KEY("open"),
    [F(SIDE)] = CTG_KEY("side"),
    [F(TAP_POSITION)] = CTG_KEY("tapPosition"),
    [F(RELATIVE_VALUE)] = CTG_KEY("relativeValue"),
    [F(REGULATING)] = CTG_KEY("regulating"),
    [F(REGULATION_MODE)] = CTG_KEY("regulationMode"),
    [F(REGULATION_VALUE)] = CTG_KEY("regulationValue"),
    [F(TARGET_V)] = CTG_KEY("targetV"),
    [F(ACTIVE_POWER_VALUE)] = CTG_KEY("activePowerValue"),
    [F(REACTIVE_POWER_VALUE)] = CTG_KEY("reactivePowerValue"),
    [F(P0_PERCENT_CHANGE)] = CTG_KEY("p0PercentChange"),
    [F(Q_MODIFICATION_STRATEGY)] = CTG_KEY("qModificationStrategy"),
    [F(ACTIVE_POWER_RELATIVE_VALUE)] = CTG_KEY("activePowerRelativeValue"),
    [F(VOLTAGE_REGULATOR_ON)] = CTG_KEY("voltageRegulatorOn"),
    [F(TARGET_Q)] = CTG_KEY("targetQ"),
    [F(AC_EMULATION_ENABLED)] = CTG_KEY("acEmulationEnabled"),
    [F(ACTIVE_POWER_SETPOINT)] = CTG_KEY("activePowerSetpoint"),
    [F(CONVERTER_MODE)] = CTG_KEY("converterMode"),
    [F(DROOP)] = CTG_KEY("droop"),
    [F(P0)] = CTG_KEY("p0"),
    [F(SECTION_COUNT)] = CTG_KEY("sectionCount"),
    [F(REACTIVE_POWER_SETPOINT)] = CTG_KEY("reactivePowerSetpoint"),
    [F(VOLTAGE_SETPOINT)] = CTG_KEY("voltageSetpoint"),
    [F(INTERCHANGE_TARGET)] = CTG_KEY("interchangeTarget"),
};

/* ---- the types ---------------------------------------------------------------------------- */

#define END 0xFF
typedef struct type_def {
    const char *name;
    unsigned char element;      /* the key of its element id; K_ACTIONS for MULTIPLE_ACTIONS */
    unsigned char members[8];   /* the members after the element id, in write order, END */
    uint64_t aliases;           /* other keys read as one of these (legacy names) */
} type_def;

#define LOAD_ALIASES (BIT64(K_LOAD_ID) | BIT64(K_BOUNDARY_LINE_ID) | BIT64(K_DANGLING_LINE_ID))

static const type_def types[CTG_ACTION_TYPE_COUNT] = {
    [CTG_ACTION_SWITCH] = { "SWITCH", K_SWITCH_ID, { F(OPEN), END }, 0 },
    [CTG_ACTION_TERMINALS_CONNECTION] = { "TERMINALS_CONNECTION", K_ELEMENT_ID,
                                          { F(SIDE), F(OPEN), END }, 0 },
    [CTG_ACTION_MULTIPLE_ACTIONS] = { "MULTIPLE_ACTIONS", K_ACTIONS, { END }, 0 },
    [CTG_ACTION_PHASE_TAP_CHANGER_TAP_POSITION] = {
        "PHASE_TAP_CHANGER_TAP_POSITION", K_TRANSFORMER_ID,
        { F(TAP_POSITION), F(RELATIVE_VALUE), F(SIDE), END }, BIT64(K_VALUE) },
    [CTG_ACTION_RATIO_TAP_CHANGER_TAP_POSITION] = {
        "RATIO_TAP_CHANGER_TAP_POSITION", K_TRANSFORMER_ID,
        { F(TAP_POSITION), F(RELATIVE_VALUE), F(SIDE), END }, BIT64(K_VALUE) },
    [CTG_ACTION_PHASE_TAP_CHANGER_REGULATION] = {
        "PHASE_TAP_CHANGER_REGULATION", K_TRANSFORMER_ID,
        { F(REGULATING), F(SIDE), F(REGULATION_MODE), F(REGULATION_VALUE), END }, 0 },
    [CTG_ACTION_RATIO_TAP_CHANGER_REGULATION] = {
        "RATIO_TAP_CHANGER_REGULATION", K_TRANSFORMER_ID,
        { F(REGULATING), F(SIDE), F(TARGET_V), END }, 0 },
    [CTG_ACTION_LOAD] = { "LOAD", K_LOAD_ID,
                          { F(RELATIVE_VALUE), F(ACTIVE_POWER_VALUE), F(REACTIVE_POWER_VALUE),
                            END },
                          LOAD_ALIASES },
    [CTG_ACTION_BOUNDARY_LINE] = { "BOUNDARY_LINE", K_BOUNDARY_LINE_ID,
                                   { F(RELATIVE_VALUE), F(ACTIVE_POWER_VALUE),
                                     F(REACTIVE_POWER_VALUE), END },
                                   LOAD_ALIASES },
    [CTG_ACTION_PCT_LOAD_CHANGE] = { "PCT_LOAD_CHANGE", K_LOAD_ID,
                                     { F(P0_PERCENT_CHANGE), F(Q_MODIFICATION_STRATEGY), END },
                                     0 },
    [CTG_ACTION_GENERATOR] = { "GENERATOR", K_GENERATOR_ID,
                               { F(ACTIVE_POWER_RELATIVE_VALUE), F(ACTIVE_POWER_VALUE),
                                 F(VOLTAGE_REGULATOR_ON), F(TARGET_V), F(TARGET_Q), END },
                               0 },
    [CTG_ACTION_HVDC] = { "HVDC", K_HVDC_ID,
                          { F(AC_EMULATION_ENABLED), F(ACTIVE_POWER_SETPOINT), F(CONVERTER_MODE),
                            F(DROOP), F(P0), F(RELATIVE_VALUE), END },
                          0 },
    [CTG_ACTION_SHUNT_COMPENSATOR_POSITION] = { "SHUNT_COMPENSATOR_POSITION", K_SHUNT_ID,
                                                { F(SECTION_COUNT), END }, 0 },
    [CTG_ACTION_STATIC_VAR_COMPENSATOR] = {
        "STATIC_VAR_COMPENSATOR", K_SVC_ID,
        { F(REGULATION_MODE), F(REACTIVE_POWER_SETPOINT), F(VOLTAGE_SETPOINT), END }, 0 },
    [CTG_ACTION_AREA_INTERCHANGE_TARGET] = { "AREA_INTERCHANGE_TARGET_ACTION", K_AREA_ID,
                                             { F(INTERCHANGE_TARGET), END }, 0 },
};

const char *ctg_action_type_name(ctg_action_type type)
{
    return (unsigned)type < CTG_ACTION_TYPE_COUNT ? types[type].name : NULL;
}

/* The ctg_action_field bits of type `t`. */
static unsigned type_fields(ctg_action_type t)
{
    unsigned m = 0;

    for (const unsigned char *k = types[t].members; *k != END; k++)
        m |= BIT(*k - K_FIELD);
    return m;
}

/* The keys a reader accepts in an action of type `t`. */
static uint64_t type_keys(ctg_action_type t)
{
    uint64_t m = BIT64(K_TYPE) | BIT64(K_ID) | BIT64(types[t].element) | types[t].aliases;

    for (const unsigned char *k = types[t].members; *k != END; k++)
        m |= BIT64(*k);
    return m;
}

/* Members that are always written: their absence means PowSyBl's default. */
#define ALWAYS_WRITTEN                                                                       \
    (BIT(CTG_ACTION_F_TAP_POSITION) | BIT(CTG_ACTION_F_REGULATING) |                          \
     BIT(CTG_ACTION_F_P0_PERCENT_CHANGE))

/* ---- the values of the members ------------------------------------------------------------ */

typedef enum { V_BOOL, V_INT, V_DOUBLE, V_ENUM } value_kind;

static const char *const side_names[] = { "ONE", "TWO", "THREE", NULL };
static const char *const phase_mode_names[] = { "CURRENT_LIMITER", "ACTIVE_POWER_CONTROL", NULL };
static const char *const svc_mode_names[] = { "VOLTAGE", "REACTIVE_POWER", NULL };
static const char *const converter_names[] = { "SIDE_1_RECTIFIER_SIDE_2_INVERTER",
                                               "SIDE_1_INVERTER_SIDE_2_RECTIFIER", NULL };
static const char *const q_names[] = { "CONSTANT_Q", "CONSTANT_PQ_RATIO", NULL };

/* Where field f is in a ctg_action, and what it holds. */
typedef struct field_def {
    value_kind kind;
    size_t offset;
} field_def;

#define FD(f, k, m) [CTG_ACTION_F_##f] = { k, offsetof(ctg_action, m) }
static const field_def fields[CTG_ACTION_F_COUNT] = {
    FD(OPEN, V_BOOL, open),
    FD(SIDE, V_ENUM, side),
    FD(TAP_POSITION, V_INT, tap_position),
    FD(RELATIVE_VALUE, V_BOOL, relative_value),
    FD(REGULATING, V_BOOL, regulating),
    FD(REGULATION_MODE, V_ENUM, regulation_mode),
    FD(REGULATION_VALUE, V_DOUBLE, regulation_value),
    FD(TARGET_V, V_DOUBLE, target_v),
    FD(ACTIVE_POWER_VALUE, V_DOUBLE, active_power_value),
    FD(REACTIVE_POWER_VALUE, V_DOUBLE, reactive_power_value),
    FD(P0_PERCENT_CHANGE, V_DOUBLE, p0_percent_change),
    FD(Q_MODIFICATION_STRATEGY, V_ENUM, q_modification),
    FD(ACTIVE_POWER_RELATIVE_VALUE, V_BOOL, active_power_relative_value),
    FD(VOLTAGE_REGULATOR_ON, V_BOOL, voltage_regulator_on),
    FD(TARGET_Q, V_DOUBLE, target_q),
    FD(AC_EMULATION_ENABLED, V_BOOL, ac_emulation_enabled),
    FD(ACTIVE_POWER_SETPOINT, V_DOUBLE, active_power_setpoint),
    FD(CONVERTER_MODE, V_ENUM, converter_mode),
    FD(DROOP, V_DOUBLE, droop),
    FD(P0, V_DOUBLE, p0),
    FD(SECTION_COUNT, V_INT, section_count),
    FD(REACTIVE_POWER_SETPOINT, V_DOUBLE, reactive_power_setpoint),
    FD(VOLTAGE_SETPOINT, V_DOUBLE, voltage_setpoint),
    FD(INTERCHANGE_TARGET, V_DOUBLE, interchange_target),
};

/* Every enum member is stored as its enum type, the same size as unsigned on every ABI the
 * library builds for; they are reached through memcpy, so no alias rule is bent. */
_Static_assert(sizeof(ctg_action_side) == sizeof(unsigned), "enums are unsigned-sized");
_Static_assert(sizeof(ctg_converters_mode) == sizeof(unsigned), "enums are unsigned-sized");
_Static_assert(sizeof(ctg_q_modification) == sizeof(unsigned), "enums are unsigned-sized");

/* The constant names of enum field `f` in an action of type `t`. */
static const char *const *enum_names(ctg_action_type t, unsigned f)
{
    switch (f) {
    case CTG_ACTION_F_SIDE:
        return side_names;
    case CTG_ACTION_F_REGULATION_MODE:
        return t == CTG_ACTION_STATIC_VAR_COMPENSATOR ? svc_mode_names : phase_mode_names;
    case CTG_ACTION_F_CONVERTER_MODE:
        return converter_names;
    default:
        return q_names;
    }
}

/* How many constants enum field `f` has (in an action of any type): every enum has 2 but the
 * side, which has 3. */
static unsigned enum_count(unsigned f)
{
    return f == CTG_ACTION_F_SIDE ? 3 : 2;
}
_Static_assert(sizeof side_names / sizeof *side_names == 4 &&
                   sizeof phase_mode_names / sizeof *phase_mode_names == 3 &&
                   sizeof svc_mode_names / sizeof *svc_mode_names == 3 &&
                   sizeof converter_names / sizeof *converter_names == 3 &&
                   sizeof q_names / sizeof *q_names == 3,
               "enum_count must follow the name tables");

static unsigned get_enum(const ctg_action *a, unsigned f)
{
    unsigned v;

    memcpy(&v, (const char *)a + fields[f].offset, sizeof v);
    return v;
}

static int get_int(const ctg_action *a, unsigned f)
{
    int v;

    memcpy(&v, (const char *)a + fields[f].offset, sizeof v);
    return v;
}

static double get_double(const ctg_action *a, unsigned f)
{
    double v;

    memcpy(&v, (const char *)a + fields[f].offset, sizeof v);
    return v;
}

static bool get_bool(const ctg_action *a, unsigned f)
{
    return *((const bool *)((const char *)a + fields[f].offset));
}

/* ---- the checks the reader and the builders share ----------------------------------------- */

/* What is wrong with `a`, or NULL; *member receives the name of the member at fault. The
 * checks PowSyBl makes once the action is built (spec 2.3), and those only a built action can
 * fail (members of another type, numbers that are not finite, enums out of range). */
static const char *check_members(const ctg_action *a, const char **member)
{
    const type_def *t = &types[a->type];
    unsigned own = type_fields(a->type);

    /* The members set, lowest first (the order of the fields). */
    for (unsigned rest = a->set & (BIT(CTG_ACTION_F_COUNT) - 1); rest; rest &= rest - 1) {
        unsigned f = (unsigned)__builtin_ctz(rest);

        *member = keys[K_FIELD + f].name;
        if (!(own & BIT(f)))
            return "does not apply to this action type";
        if (fields[f].kind == V_DOUBLE && !isfinite(get_double(a, f)))
            return "must be a finite number";
        if (fields[f].kind == V_ENUM && get_enum(a, f) >= enum_count(f))
            return "is out of range";
    }
    *member = keys[t->element].name;
    if (a->type != CTG_ACTION_MULTIPLE_ACTIONS && !a->element_id)
        return "missing required field";
    if (a->type == CTG_ACTION_MULTIPLE_ACTIONS && a->action_count && !a->actions)
        return "has a count but no actions";
    return NULL;
}

/* A required member that `a` lacks, or CTG_ACTION_F_COUNT. */
static unsigned missing_field(const ctg_action *a)
{
    static const unsigned required[CTG_ACTION_TYPE_COUNT] = {
        [CTG_ACTION_SWITCH] = BIT(CTG_ACTION_F_OPEN),
        [CTG_ACTION_TERMINALS_CONNECTION] = BIT(CTG_ACTION_F_OPEN),
        [CTG_ACTION_PHASE_TAP_CHANGER_TAP_POSITION] = BIT(CTG_ACTION_F_RELATIVE_VALUE),
        [CTG_ACTION_RATIO_TAP_CHANGER_TAP_POSITION] = BIT(CTG_ACTION_F_RELATIVE_VALUE),
        [CTG_ACTION_LOAD] = BIT(CTG_ACTION_F_RELATIVE_VALUE),
        [CTG_ACTION_BOUNDARY_LINE] = BIT(CTG_ACTION_F_RELATIVE_VALUE),
        [CTG_ACTION_PCT_LOAD_CHANGE] = BIT(CTG_ACTION_F_Q_MODIFICATION_STRATEGY),
        [CTG_ACTION_SHUNT_COMPENSATOR_POSITION] = BIT(CTG_ACTION_F_SECTION_COUNT),
    };
    unsigned lack = required[a->type] & ~a->set;

    return lack ? (unsigned)__builtin_ctz(lack) : CTG_ACTION_F_COUNT;
}

/* The rules between members (spec 2.3). */
static const char *check_rules(const ctg_action *a, const char **member)
{
    bool p = CTG_ACTION_HAS(a, CTG_ACTION_F_ACTIVE_POWER_VALUE);
    bool q = CTG_ACTION_HAS(a, CTG_ACTION_F_REACTIVE_POWER_VALUE);

    switch (a->type) {
    case CTG_ACTION_LOAD:
    case CTG_ACTION_BOUNDARY_LINE:
        *member = "activePowerValue";
        return p || q ? NULL : "a load action needs activePowerValue or reactivePowerValue";
    case CTG_ACTION_GENERATOR:
        *member = "activePowerValue";
        return p == (bool)CTG_ACTION_HAS(a, CTG_ACTION_F_ACTIVE_POWER_RELATIVE_VALUE)
                   ? NULL
                   : "a generator action needs both or none of activePowerValue and "
                     "activePowerRelativeValue";
    case CTG_ACTION_PHASE_TAP_CHANGER_REGULATION:
        *member = "regulationMode";
        return CTG_ACTION_HAS(a, CTG_ACTION_F_REGULATION_MODE) && !a->regulating
                   ? "a regulation mode needs \"regulating\": true"
                   : NULL;
    case CTG_ACTION_PCT_LOAD_CHANGE:
        *member = "p0PercentChange";
        return a->p0_percent_change < -100 ? "the active power can't be reduced by more than "
                                             "100%"
                                           : NULL;
    case CTG_ACTION_SHUNT_COMPENSATOR_POSITION:
        *member = "sectionCount";
        return a->section_count < 0 ? "\"sectionCount\" must be 0 or more" : NULL;
    default:
        return NULL;
    }
}

/* The one check of an action (not of its nested actions): NULL when it is fine, else the
 * message, *member the member at fault. */
static const char *check_action(const ctg_action *a, const char **member)
{
    const char *why;
    unsigned f;

    *member = "type";
    if ((unsigned)a->type >= CTG_ACTION_TYPE_COUNT)
        return "unknown action type";
    *member = "id";
    if (!a->id)
        return "missing required field";
    if ((why = check_members(a, member)) != NULL)
        return why;
    if ((f = missing_field(a)) < CTG_ACTION_F_COUNT) {
        *member = keys[K_FIELD + f].name;
        return "missing required field";
    }
    return check_rules(a, member);
}

/* The check of a D1b builder itself (spec 2.5): the members of its type, in range, but none of
 * the rules of a built action; nested actions are built ones. A BOUNDARY_LINE builder can never
 * be read (its type is gated by a version builders do not have), so none is built either. */
static const char *check_builder(const ctg_action *a, const char **member)
{
    const char *why;

    *member = "type";
    if ((unsigned)a->type >= CTG_ACTION_TYPE_COUNT)
        return "unknown action type";
    if (a->type == CTG_ACTION_BOUNDARY_LINE)
        return "type BOUNDARY_LINE needs a version, which the actions of \"actionBuilders\" "
               "never have";
    why = check_members(a, member);
    return why && strcmp(why, "missing required field") != 0 ? why : NULL;
}

/* ---- reading ------------------------------------------------------------------------------ */

/* One member's value as the reader met it: the current token, or one kept until the type. */
typedef struct value {
    ctg_tok type;
    const char *str; /* strings: the text (arena copy when kept); numbers: their source */
    size_t len;
    double number;
    bool is_integer;
    bool has_nul;
    unsigned key;
    ctg_mark key_mark, mark;
} value;

/* The members kept until their action's type, of every action being read (nested ones above
 * their parent's): one stack per read, in sa->state, so a list of type-last actions costs the
 * largest action's members, not every action's. */
typedef struct kept_stack {
    value *items;
    size_t len, cap;
} kept_stack;

/* Where each member of the actions being read began, for the message about a duplicate, kept
 * only when the input cannot be read again to find it (a pipe named by its path; see
 * ctg_sa_find_key): a stack per read as the kept members, so that a level of nesting costs the
 * few members it has (no array of every name's place on the C stack, which deep nesting would
 * overflow). */
typedef struct seen_key {
    unsigned key;
    ctg_mark mark;
} seen_key;

typedef struct seen_stack {
    seen_key *items;
    size_t len, cap;
} seen_stack;

/* The per-read state in sa->state. */
typedef struct read_state {
    kept_stack kept;
    seen_stack seen;
    bool record;    /* fill `seen`: the input cannot be read again for a duplicate's place */
    size_t nesting; /* actions open around the one being read */
    bool builder;   /* reading D1b's builders: no version is known there (spec 2.5) */
    /* follow[r][k]: the key that came after key k last time, in an action of type r - 1 (row
     * 0: before the type), the hint of the next member. Actions of one type list their members
     * in one order, so after the first of a type nearly every key is matched in place. */
    unsigned char follow[CTG_ACTION_TYPE_COUNT + 1][K_COUNT];
    /* The list's version compared with the gates' bounds "1.0" to "1.3" (cmp[d] for "1.d"),
     * each once: the version is read before the actions and does not change. */
    signed char cmp[4];
    bool cmp_known[4];
} read_state;

typedef struct action_read {
    ctg_sa_reader *sa;
    ctg_action *a;
    ctg_mark start;
    bool typed;
    unsigned element_key; /* the name the element id was given under, or K_COUNT */
    size_t base;          /* this action's first kept member in the stack */
    size_t seen_base;     /* its first member in the seen stack */
    bool builder;         /* a D1b builder: checked as one, not as a built action */
    uint64_t accepted;    /* once typed: type_keys of the type */
} action_read;

static read_state *state_of(ctg_sa_reader *sa)
{
    read_state *st;

    if (!sa->state && (st = sa->state = ctg_arena_calloc(sa->json.arena, 1, sizeof *st)))
        st->record = sa->json.lex.src.refill != NULL && !sa->src;
    return sa->state;
}

/* Room for one more item of `size` bytes in the arena-owned stack `*items` (the old block
 * stays in the arena, at most as big as the new). */
static bool stack_room(ctg_arena *arena, void **items, size_t len, size_t *cap, size_t size)
{
    size_t n = *cap ? *cap * 2 : 16;
    void *p;

    if (len < *cap)
        return true;
    if (n > SIZE_MAX / size || !(p = ctg_arena_alloc(arena, n * size, 8)))
        return false;
    if (len)
        memcpy(p, *items, len * size);
    *items = p;
    *cap = n;
    return true;
}

static const char *tok_name(ctg_tok t)
{
    switch (t) {
    case CTG_TOK_STRING:
        return "string";
    case CTG_TOK_NUMBER:
        return "number";
    case CTG_TOK_TRUE:
    case CTG_TOK_FALSE:
        return "boolean";
    case CTG_TOK_NULL:
        return "null";
    case CTG_TOK_OBJECT_BEGIN:
        return "object";
    default:
        return "array";
    }
}

static int value_error(action_read *ar, const value *v, const char *what)
{
    return ctg_reader_fail_at(&ar->sa->json, &v->mark, keys[v->key].name, CTG_ESCHEMA,
                              "expected %s for \"%s\", got %s", what, keys[v->key].name,
                              tok_name(v->type));
}

/* The index of `v`'s string in the NULL-ended `names`, or a failure listing them. */
static int read_enum(action_read *ar, const value *v, const char *const *names, unsigned *out)
{
    char list[160] = "";
    size_t used = 0;

    if (v->type != CTG_TOK_STRING)
        return value_error(ar, v, "string");
    for (unsigned i = 0; names[i]; i++) {
        if (strlen(names[i]) == v->len && memcmp(names[i], v->str, v->len) == 0) {
            *out = i;
            return CTG_OK;
        }
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                 names[i]);
    }
    return ctg_reader_fail_at(&ar->sa->json, &v->mark, keys[v->key].name, CTG_ESCHEMA,
                              "unknown %s \"%.*s\" (%s)", keys[v->key].name,
                              (int)(v->len > 64 ? 64 : v->len), v->str, list);
}

/* A 32-bit integer, as PowSyBl's int members are: no fraction, no truncation. */
static int read_int(action_read *ar, const value *v, int *out)
{
    if (v->type != CTG_TOK_NUMBER || !v->is_integer)
        return value_error(ar, v, "integer");
    if (v->number < INT32_MIN || v->number > INT32_MAX)
        return ctg_reader_fail_at(&ar->sa->json, &v->mark, keys[v->key].name, CTG_ESCHEMA,
                                  "\"%s\" is out of the range of a 32-bit integer",
                                  keys[v->key].name);
    *out = (int)v->number;
    return CTG_OK;
}

/* Stores field `f` of ar->a from `v` (strict JSON types, docs/compatibility.md). */
static int read_field(action_read *ar, unsigned f, const value *v)
{
    char *at = (char *)ar->a + fields[f].offset;
    unsigned e = 0;
    int i = 0, rc;

    switch (fields[f].kind) {
    case V_BOOL:
        if (v->type != CTG_TOK_TRUE && v->type != CTG_TOK_FALSE)
            return value_error(ar, v, "boolean");
        *(bool *)at = v->type == CTG_TOK_TRUE;
        break;
    case V_INT:
        if ((rc = read_int(ar, v, &i)) != CTG_OK)
            return rc;
        memcpy(at, &i, sizeof i);
        break;
    case V_DOUBLE:
        if (v->type != CTG_TOK_NUMBER)
            return value_error(ar, v, "number");
        memcpy(at, &v->number, sizeof v->number);
        break;
    default:
        if ((rc = read_enum(ar, v, enum_names(ar->a->type, f), &e)) != CTG_OK)
            return rc;
        memcpy(at, &e, sizeof e);
    }
    ar->a->set |= BIT(f);
    return CTG_OK;
}

/* Spec 2.4: a gated name needs the root `version`, read before `actions`, on its side of
 * `bound` (`newer`: at least, else at most). */
static int gate(action_read *ar, const ctg_mark *mark, const char *key, const char *what,
                const char *bound, bool newer)
{
    ctg_sa_reader *sa = ar->sa;
    read_state *st = sa->state; /* read_one made it */
    unsigned d = bound[0] == '1' && bound[1] == '.' && bound[2] != '\0' && bound[3] == '\0'
                     ? (unsigned)(bound[2] - '0')
                     : 4;
    int c;

    if (st->builder)
        return ctg_reader_fail_at(&sa->json, mark, key, CTG_ESCHEMA,
                                  "%s needs a version, which the actions of \"actionBuilders\" "
                                  "never have (PowSyBl reads them without one)",
                                  what);
    if (!sa->version)
        return ctg_reader_fail_at(&sa->json, mark, key, CTG_ESCHEMA,
                                  "%s needs the list's \"version\" (a string) before "
                                  "\"actions\"",
                                  what);
    if (d < 4 && st->cmp_known[d]) {
        c = st->cmp[d];
    } else {
        c = ctg_version_compare(sa->version, strlen(sa->version), bound);
        if (d < 4) {
            st->cmp[d] = (signed char)(c < 0 ? -1 : c > 0);
            st->cmp_known[d] = true;
        }
    }
    if (newer ? c >= 0 : c <= 0)
        return CTG_OK;
    return ctg_reader_fail_at(&sa->json, mark, key, CTG_ESCHEMA,
                              "%s needs version %s or %s; the list has version %s", what, bound,
                              newer ? "later" : "earlier", sa->version);
}

static int read_id(action_read *ar, const value *v, const char **out)
{
    char *s;

    if (v->type != CTG_TOK_STRING)
        return value_error(ar, v, "string");
    if (v->has_nul)
        return ctg_reader_fail_at(&ar->sa->json, &v->mark, keys[v->key].name, CTG_ESCHEMA,
                                  "\"%s\" must not contain U+0000", keys[v->key].name);
    if (!(s = ctg_arena_strndup_fast(ar->sa->json.arena, v->str, v->len)))
        return ctg_reader_nomem(&ar->sa->json);
    *out = s;
    return CTG_OK;
}

/* The element id under `v->key`: the type's own name or a legacy alias (spec 2.3.8-9). */
static int read_element(action_read *ar, const value *v)
{
    static const char *const gated[] = { [K_BOUNDARY_LINE_ID] = "\"boundaryLineId\"",
                                         [K_DANGLING_LINE_ID] = "\"danglingLineId\"" };
    int rc;

    if (ar->element_key != K_COUNT)
        return ctg_reader_fail_at(&ar->sa->json, &v->key_mark, keys[v->key].name, CTG_ESCHEMA,
                                  "\"%s\" and \"%s\" both name the element", keys[v->key].name,
                                  keys[ar->element_key].name);
    if (v->key == K_BOUNDARY_LINE_ID || v->key == K_DANGLING_LINE_ID) {
        bool newer = v->key == K_BOUNDARY_LINE_ID;
        rc = gate(ar, &v->key_mark, keys[v->key].name, gated[v->key], newer ? "1.3" : "1.2",
                  newer);
        if (rc != CTG_OK)
            return rc;
    }
    ar->element_key = v->key;
    return read_id(ar, v, &ar->a->element_id);
}

static int read_tap(action_read *ar, const value *v)
{
    bool legacy = v->key == K_VALUE;
    int rc = gate(ar, &v->key_mark, keys[v->key].name, legacy ? "\"value\"" : "\"tapPosition\"",
                  legacy ? "1.0" : "1.1", !legacy);

    if (rc != CTG_OK || (rc = read_int(ar, v, &ar->a->tap_position)) != CTG_OK)
        return rc;
    if (ar->a->set & BIT(CTG_ACTION_F_TAP_POSITION))
        return ctg_reader_fail_at(&ar->sa->json, &v->key_mark, keys[v->key].name, CTG_ESCHEMA,
                                  "\"value\" and \"tapPosition\" both give the tap position");
    ar->a->set |= BIT(CTG_ACTION_F_TAP_POSITION);
    return CTG_OK;
}

static int read_nested(action_read *ar);

/* Applies member `v` to an action whose type is known. */
static int apply(action_read *ar, const value *v)
{
    if (!(ar->accepted & BIT64(v->key)))
        return ctg_reader_fail_at(&ar->sa->json, &v->key_mark, keys[v->key].name, CTG_ESCHEMA,
                                  "unknown field \"%s\" in a %s action", keys[v->key].name,
                                  types[ar->a->type].name);
    if (v->key == K_ID)
        return read_id(ar, v, &ar->a->id);
    if (v->key == K_VALUE || v->key == F(TAP_POSITION))
        return read_tap(ar, v);
    if (v->key == K_ACTIONS)
        return v->type == CTG_TOK_ARRAY_BEGIN ? CTG_OK /* read when met */
                                              : value_error(ar, v, "array");
    if (v->key < K_FIELD)
        return read_element(ar, v);
    return read_field(ar, v->key - K_FIELD, v);
}

/* The action's type (spec 2.2), then the members kept until it came. */
static int read_type(action_read *ar, const value *v)
{
    unsigned t;

    if (v->type != CTG_TOK_STRING)
        return value_error(ar, v, "string");
    for (t = 0; t < CTG_ACTION_TYPE_COUNT; t++)
        if (strlen(types[t].name) == v->len && memcmp(types[t].name, v->str, v->len) == 0)
            break;
    if (t == CTG_ACTION_TYPE_COUNT && v->len == 13 && memcmp(v->str, "DANGLING_LINE", 13) == 0) {
        int rc = gate(ar, &v->mark, "type", "type DANGLING_LINE", "1.2", false);
        if (rc != CTG_OK)
            return rc;
        t = CTG_ACTION_BOUNDARY_LINE;
    } else if (t == CTG_ACTION_BOUNDARY_LINE) {
        int rc = gate(ar, &v->mark, "type", "type BOUNDARY_LINE", "1.3", true);
        if (rc != CTG_OK)
            return rc;
    } else if (t == CTG_ACTION_TYPE_COUNT) {
        return ctg_reader_fail_at(&ar->sa->json, &v->mark, "type", CTG_ESCHEMA,
                                  "unknown action type \"%.*s\"",
                                  (int)(v->len > 64 ? 64 : v->len), v->str);
    }
    ar->a->type = (ctg_action_type)t;
    ar->typed = true;
    ar->accepted = type_keys(ar->a->type);
    /* read_one made the state; applying reads nothing nested. */
    for (size_t i = ar->base; i < ((read_state *)ar->sa->state)->kept.len; i++) {
        int rc = apply(ar, &((read_state *)ar->sa->state)->kept.items[i]);
        if (rc != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

/* The current token as a member value. */
static value current(ctg_reader *rd, unsigned key, const ctg_token *k)
{
    value v = { rd->tok.type, NULL, 0, rd->tok.number, rd->tok.is_integer, rd->tok.has_nul,
                key, { k->offset, k->line_start, k->line }, ctg_reader_mark(rd) };

    if (rd->tok.type == CTG_TOK_STRING) {
        v.str = rd->tok.str;
        v.len = rd->tok.len;
    }
    return v;
}

/* Keeps `v` until the type is known; a container is skipped (its member is refused then). */
static int keep(action_read *ar, value *v)
{
    ctg_reader *rd = &ar->sa->json;
    kept_stack *st = &((read_state *)ar->sa->state)->kept;
    int rc;

    if (!stack_room(rd->arena, (void **)&st->items, st->len, &st->cap, sizeof *st->items))
        return ctg_reader_nomem(rd);
    if (v->type == CTG_TOK_STRING && !(v->str = ctg_arena_strndup_fast(rd->arena, v->str, v->len)))
        return ctg_reader_nomem(rd);
    /* A nested `actions` array was read when met. */
    if ((v->type == CTG_TOK_OBJECT_BEGIN ||
         (v->type == CTG_TOK_ARRAY_BEGIN && v->key != K_ACTIONS)) &&
        (rc = ctg_lexer_skip_value(&rd->lex, &rd->tok, rd->err)) != CTG_OK)
        return rc;
    st->items[st->len++] = *v;
    return CTG_OK;
}

/* One member, rd->tok on its value. */
static int action_member(action_read *ar, unsigned key, const ctg_token *k)
{
    ctg_reader *rd = &ar->sa->json;
    value v = current(rd, key, k);

    if (key == K_ACTIONS && rd->tok.type == CTG_TOK_ARRAY_BEGIN) {
        int rc;
        ctg_path_frame *f = ctg_reader_top_frame(rd);
        f->key = keys[K_ACTIONS].name;
        f->key_len = keys[K_ACTIONS].len;
        rc = read_nested(ar);
        f = ctg_reader_top_frame(rd);
        f->key = NULL;
        if (rc != CTG_OK)
            return rc;
    }
    if (key == K_TYPE)
        return read_type(ar, &v);
    return ar->typed ? apply(ar, &v) : keep(ar, &v);
}

static int unknown_member(ctg_reader *rd, const ctg_token *k)
{
    ctg_mark m = { k->offset, k->line_start, k->line };
    char name[80];

    snprintf(name, sizeof name, "%.*s", (int)(k->len > 64 ? 64 : k->len), k->str);
    return ctg_reader_fail_at(rd, &m, name, CTG_ESCHEMA, "unknown field \"%s\"", name);
}

static int key_of(const ctg_token *k)
{
    for (int i = 0; i < K_COUNT; i++)
        if (keys[i].len == k->len && memcmp(keys[i].name, k->str, k->len) == 0)
            return i;
    return -1;
}

/* Key `i` met again at `at`: the message names where it was first, kept or found again (and
 * left out in the rare case that neither can be: out of memory, or the file changed). */
static int duplicate(action_read *ar, unsigned i, const ctg_mark *at)
{
    const read_state *st = ar->sa->state;
    size_t k = ar->seen_base;
    ctg_mark first;

    if (st->record) {
        while (st->seen.items[k].key != i)
            k++;
        first = st->seen.items[k].mark;
    } else if (!ctg_sa_find_key(ar->sa, &ar->start, keys[i].name, &first)) {
        return ctg_reader_fail_at(&ar->sa->json, at, keys[i].name, CTG_ESCHEMA,
                                  "duplicate key \"%s\"", keys[i].name);
    }
    return ctg_reader_fail_at(&ar->sa->json, at, keys[i].name, CTG_ESCHEMA,
                              "duplicate key \"%s\" (first at line %u, column %u)", keys[i].name,
                              first.line, ctg_column(first.offset, first.line_start));
}

/* Records where key `i` of the current action is. */
static int note_key(action_read *ar, unsigned i, const ctg_mark *at)
{
    seen_stack *st = &((read_state *)ar->sa->state)->seen;

    if (!stack_room(ar->sa->json.arena, (void **)&st->items, st->len, &st->cap,
                    sizeof *st->items))
        return ctg_reader_nomem(&ar->sa->json);
    st->items[st->len++] = (seen_key){ i, *at };
    return CTG_OK;
}

/* The object loop of an action: ctg_read_object's, for more than 32 names. */
static int action_members(action_read *ar)
{
    ctg_reader *rd = &ar->sa->json;
    unsigned char(*follow)[K_COUNT] = ((read_state *)ar->sa->state)->follow;
    bool record = ((read_state *)ar->sa->state)->record;
    uint64_t seen = 0;
    unsigned next = follow[0][K_TYPE], prev = K_TYPE;
    ctg_lex_member m;
    int rc;

    while ((rc = ctg_lexer_member(&rd->lex, keys[next].name, keys[next].len, &m, &rd->tok,
                                  rd->err)) == CTG_LEX_KEY) {
        int i = m.hinted ? (int)next : key_of(&m.key);
        ctg_mark at = { m.key.offset, m.key.line_start, m.key.line };
        if (i < 0)
            return unknown_member(rd, &m.key);
        if (seen & BIT64(i))
            return duplicate(ar, (unsigned)i, &at);
        seen |= BIT64(i);
        if (record && (rc = note_key(ar, (unsigned)i, &at)) != CTG_OK)
            return rc;
        if (!m.hinted) /* learn: the row of the type the previous key was read in */
            follow[ar->typed ? ar->a->type + 1 : 0][prev] = (unsigned char)i;
        prev = (unsigned)i;
        if (!m.value_ready && (rc = ctg_reader_next(rd)) != CTG_OK)
            return rc;
        if ((rc = action_member(ar, (unsigned)i, &m.key)) != CTG_OK)
            return rc;
        next = follow[ar->typed ? ar->a->type + 1 : 0][i];
    }
    return rc == CTG_LEX_OTHER ? CTG_OK : rc;
}

/* After the '}': the type, then the checks shared with the builders, at the '{'. */
static int finish_action(action_read *ar)
{
    ctg_reader *rd = &ar->sa->json;
    const char *member, *why;

    if (!ar->typed)
        return ctg_reader_missing(rd, &ar->start, "type");
    why = ar->builder ? check_builder(ar->a, &member) : check_action(ar->a, &member);
    if (!why)
        return CTG_OK;
    if (strcmp(why, "missing required field") == 0)
        return ctg_reader_missing(rd, &ar->start, member);
    return ctg_reader_fail_at(rd, &ar->start, member, CTG_ESCHEMA, "%s", why);
}

/* An action (`builder`: a D1b builder, checked as one) at rd->tok. */
static int read_one(ctg_sa_reader *sa, ctg_action *out, bool builder)
{
    ctg_reader *rd = &sa->json;
    read_state *st = state_of(sa);
    action_read ar = { sa, out, ctg_reader_mark(rd), false, K_COUNT, 0, 0, builder, 0 };
    int rc;

    memset(ar.a, 0, sizeof *ar.a);
    ar.a->struct_version = CTG_ACTION_STRUCT_VERSION;
    ar.a->interchange_target = NAN;
    if (!st)
        return ctg_reader_nomem(rd);
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if (st->nesting > ACTION_MAX_NESTING)
        return ctg_reader_fail(rd, CTG_ELIMIT, "actions nested more than %d deep",
                               ACTION_MAX_NESTING);
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    ar.base = st->kept.len;
    ar.seen_base = st->seen.len;
    st->nesting++;
    rc = action_members(&ar);
    st->nesting--;
    st->kept.len = ar.base;
    st->seen.len = ar.seen_base;
    if (rc != CTG_OK)
        return rc;
    ctg_reader_pop_frame(rd);
    return finish_action(&ar);
}

static int read_action(ctg_reader *rd, void *out)
{
    return read_one((ctg_sa_reader *)rd, out, false);
}

CTG_HANDLER_DEFINE(static, action_handler, "sa-action", ctg_action, read_action);

static int read_nested(action_read *ar)
{
    void *items;
    int rc = ctg_read_array(&ar->sa->json, &action_handler, &items, &ar->a->action_count);

    ar->a->actions = items;
    return rc;
}

static action_list *body(ctg_sa_doc *doc)
{
    if (!doc->body)
        doc->body = ctg_arena_calloc(doc->arena, 1, sizeof(action_list));
    return doc->body;
}

int ctg_sa_read_builder(ctg_sa_reader *sa, ctg_action *out)
{
    read_state *st = state_of(sa);
    int rc;

    if (!st)
        return ctg_reader_nomem(&sa->json);
    st->builder = true;
    rc = read_one(sa, out, true);
    st->builder = false;
    return rc;
}

static int member(ctg_sa_reader *sa, unsigned key)
{
    ctg_reader *rd = &sa->json;
    action_list *l;
    void *items;
    int rc;

    if (!(l = body(sa->doc)))
        return ctg_reader_nomem(rd);
    if (key != CTG_SA_ROOT_ACTIONS)
        return ctg_sa_idaction_member(sa, l, key);
    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    if ((rc = ctg_read_array(rd, &action_handler, &items, &l->count)) != CTG_OK)
        return rc;
    l->items = items;
    l->cap = l->count;
    return CTG_OK;
}

/* The root's rules, checked once it is read, as PowSyBl does (spec 2.1). */
static int finish(ctg_sa_reader *sa, unsigned seen)
{
    ctg_reader *rd = &sa->json;

    if (!sa->has_version)
        return ctg_reader_missing(rd, &sa->start, "version");
    if (!sa->version)
        return ctg_reader_fail_at(rd, &sa->version_mark, "version", CTG_ESCHEMA,
                                  "expected string for \"version\", got %s",
                                  tok_name(sa->version_type));
    if (ctg_version_compare(sa->version, strlen(sa->version), ACTION_VERSION) > 0)
        return ctg_reader_fail_at(rd, &sa->version_mark, "version", CTG_EUNSUPPORTED,
                                  "version %s is newer than %s, the newest action list version",
                                  sa->version, ACTION_VERSION);
    if (!(seen & BIT(CTG_SA_ROOT_ACTIONS)))
        return ctg_reader_missing(rd, &sa->start, "actions");
    return body(sa->doc) ? ctg_sa_idaction_finish(sa, sa->doc->body) : ctg_reader_nomem(rd);
}

/* ---- writing ------------------------------------------------------------------------------ */

static void write_field(ctg_emitter *e, const ctg_action *a, unsigned f)
{
    const char *name;

    if (!CTG_ACTION_HAS(a, f) && !(ALWAYS_WRITTEN & BIT(f)))
        return;
    ctg_emit_name_key(e, &keys[K_FIELD + f]);
    switch (fields[f].kind) {
    case V_BOOL:
        ctg_emit_bool(e, get_bool(a, f));
        break;
    case V_INT:
        ctg_emit_int(e, get_int(a, f));
        break;
    case V_DOUBLE:
        ctg_emit_double(e, get_double(a, f));
        break;
    default:
        name = enum_names(a->type, f)[get_enum(a, f)];
        ctg_emit_string(e, name, strlen(name));
    }
}

static void write_action(ctg_emitter *e, const ctg_action *a)
{
    const type_def *t = &types[a->type];

    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &keys[K_TYPE], t->name, strlen(t->name));
    ctg_emit_member_string(e, &keys[K_ID], a->id, strlen(a->id));
    if (a->type == CTG_ACTION_MULTIPLE_ACTIONS) {
        ctg_emit_name_key(e, &keys[K_ACTIONS]);
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < a->action_count; i++)
            write_action(e, &a->actions[i]);
        ctg_emit_array_end(e);
    } else {
        ctg_emit_member_string(e, &keys[t->element], a->element_id, strlen(a->element_id));
    }
    for (const unsigned char *k = t->members; *k != END; k++)
        write_field(e, a, *k - K_FIELD);
    ctg_emit_object_end(e);
}

const char *ctg_sa_action_type_name(ctg_action_type t)
{
    return types[t].name;
}

static void write(ctg_emitter *e, const ctg_sa_doc *doc)
{
    static const ctg_key version = CTG_KEY("version");
    const action_list *l = doc->body;
    const ctg_identified_action **order = NULL;
    bool d1b = doc->kind == CTG_SA_IDENTIFIER_ACTION_LIST;
    ctg_arena *scratch = NULL;

    if (d1b && ctg_sa_idaction_prepare(e, l, &scratch, &order) != CTG_OK) {
        ctg_arena_release(scratch);
        return;
    }
    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &version, ACTION_VERSION, sizeof ACTION_VERSION - 1);
    ctg_emit_name_key(e, &keys[K_ACTIONS]);
    ctg_emit_array_begin(e);
    for (size_t i = 0; l && i < l->count; i++)
        write_action(e, &l->items[i]);
    ctg_emit_array_end(e);
    if (d1b)
        ctg_sa_idaction_write(e, l, order);
    ctg_emit_object_end(e);
    ctg_arena_release(scratch);
}

const ctg_sa_kind_ops ctg_sa_action_ops = { member, finish, write };

/* ---- the model's views and the builder ---------------------------------------------------- */

size_t ctg_sa_action_count(const ctg_sa_doc *doc)
{
    const action_list *l = doc && (doc->kind == CTG_SA_ACTION_LIST ||
                                   doc->kind == CTG_SA_IDENTIFIER_ACTION_LIST)
                               ? doc->body
                               : NULL;

    return l ? l->count : 0;
}

const ctg_action *ctg_sa_action_at(const ctg_sa_doc *doc, size_t i)
{
    return i < ctg_sa_action_count(doc) ? &((const action_list *)doc->body)->items[i] : NULL;
}

/* A built action's strings, which the reader's tokenizer checks on input (NULL: fine, else
 * the message; *member the member at fault); its type is known valid. A MULTIPLE_ACTIONS has
 * no element id to write: its `element_id` is not looked at. */
static const char *check_strings(const ctg_action *a, const char **member)
{
    *member = "id";
    if (!ctg_utf8_valid(a->id))
        return "is not valid UTF-8";
    if (a->type == CTG_ACTION_MULTIPLE_ACTIONS)
        return NULL;
    *member = keys[types[a->type].element].name;
    return ctg_utf8_valid(a->element_id) ? NULL : "is not valid UTF-8";
}

/* Checks `a` and its nested actions; the path of the first fault goes to `path`. */
static const char *check_tree(const ctg_action *a, char *path, size_t used, size_t depth)
{
    const char *member, *why;

    if (a->struct_version != CTG_ACTION_STRUCT_VERSION) {
        snprintf(path + used, CTG_ERROR_PATH_MAX - used, "/struct_version");
        return "unknown struct_version";
    }
    if ((why = check_action(a, &member)) != NULL || (why = check_strings(a, &member)) != NULL) {
        snprintf(path + used, CTG_ERROR_PATH_MAX - used, "/%s", member);
        return why;
    }
    if (a->type != CTG_ACTION_MULTIPLE_ACTIONS)
        return NULL;
    if (a->action_count && depth >= ACTION_MAX_NESTING)
        return "actions nested too deep"; /* as the reader: ACTION_MAX_NESTING */
    for (size_t i = 0; i < a->action_count; i++) {
        int n = snprintf(path + used, CTG_ERROR_PATH_MAX - used, "/actions/%zu", i);
        size_t u = used + (size_t)n < CTG_ERROR_PATH_MAX ? used + (size_t)n : used;
        if ((why = check_tree(&a->actions[i], path, u, depth + 1)) != NULL)
            return why;
    }
    path[used] = '\0';
    return NULL;
}

const char *ctg_sa_builder_check(const ctg_action *a, char *path, size_t used)
{
    const char *member, *why;

    if (a->struct_version != CTG_ACTION_STRUCT_VERSION) {
        snprintf(path + used, CTG_ERROR_PATH_MAX - used, "/struct_version");
        return "unknown struct_version";
    }
    if ((why = check_builder(a, &member)) != NULL || (why = check_strings(a, &member)) != NULL) {
        snprintf(path + used, CTG_ERROR_PATH_MAX - used, "/%s", member);
        return why;
    }
    if (a->type != CTG_ACTION_MULTIPLE_ACTIONS)
        return NULL;
    for (size_t i = 0; i < a->action_count; i++) {
        int n = snprintf(path + used, CTG_ERROR_PATH_MAX - used, "/actions/%zu", i);
        size_t u = used + (size_t)n < CTG_ERROR_PATH_MAX ? used + (size_t)n : used;
        if ((why = check_tree(&a->actions[i], path, u, 1)) != NULL)
            return why;
    }
    path[used] = '\0';
    return NULL;
}

static bool copy_action(ctg_arena *arena, ctg_action *out, const ctg_action *a);

bool ctg_sa_action_copy(ctg_arena *arena, ctg_action *out, const ctg_action *a)
{
    return copy_action(arena, out, a);
}

static bool copy_string(ctg_arena *arena, const char **s)
{
    bool ok = true;

    *s = ctg_arena_strdup_or_flag(arena, *s, &ok);
    return ok;
}

/* Deep-copies `a` into `out` in `arena` (checked already). */
static bool copy_action(ctg_arena *arena, ctg_action *out, const ctg_action *a)
{
    ctg_action *items = NULL;

    *out = *a;
    if (!copy_string(arena, &out->id) || !copy_string(arena, &out->element_id))
        return false;
    if (a->type != CTG_ACTION_MULTIPLE_ACTIONS) {
        out->actions = NULL;
        out->action_count = 0;
        return true;
    }
    if (a->action_count &&
        (a->action_count > SIZE_MAX / sizeof *items ||
         !(items = ctg_arena_alloc(arena, a->action_count * sizeof *items, 8))))
        return false;
    for (size_t i = 0; i < a->action_count; i++)
        if (!copy_action(arena, &items[i], &a->actions[i]))
            return false;
    out->actions = items;
    return true;
}

/* Room for one more action in `l`. */
static bool grow(ctg_arena *arena, action_list *l)
{
    size_t cap = l->cap ? l->cap * 2 : 8;
    ctg_action *items;

    if (l->count < l->cap)
        return true;
    if (cap > SIZE_MAX / sizeof *items || !(items = ctg_arena_alloc(arena, cap * sizeof *items, 8)))
        return false;
    if (l->count)
        memcpy(items, l->items, l->count * sizeof *items);
    l->items = items;
    l->cap = cap;
    return true;
}

int ctg_sa_action_list_add(ctg_sa_doc *doc, const ctg_action *action, ctg_error *err)
{
    char path[CTG_ERROR_PATH_MAX];
    const char *why;
    action_list *l;
    ctg_error scratch;
    int n;

    err = err ? err : &scratch;
    if (!doc || !action ||
        (doc->kind != CTG_SA_ACTION_LIST && doc->kind != CTG_SA_IDENTIFIER_ACTION_LIST))
        return ctg_error_set_plain(err, "<builder>", CTG_EINVAL,
                                   "no action, or no action-list document");
    l = doc->body;
    n = snprintf(path, sizeof path, "/actions/%zu", l ? l->count : 0);
    if ((why = check_tree(action, path, (size_t)n, 0)) != NULL) {
        const char *slash = strrchr(path, '/');
        if (strcmp(why, "missing required field") == 0)
            ctg_error_set(err, CTG_EINVAL, NULL, path, "missing required field \"%s\"",
                          slash + 1);
        else
            ctg_error_set(err, CTG_EINVAL, NULL, path, "%s", why);
        ctg_error_set_source(err, "<builder>");
        return CTG_EINVAL;
    }
    if (!(l = body(doc)) || !grow(doc->arena, l) ||
        !copy_action(doc->arena, &l->items[l->count], action))
        return ctg_error_set_plain(err, "<builder>", CTG_ENOMEM, "out of memory");
    l->count++;
    return CTG_OK;
}
