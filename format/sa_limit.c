/* SPDX-License-Identifier: MPL-2.0 */
/* The limit-reduction list (D4, spec 5): its reductions, their network-element criteria (whose
 * country and voltage sub-criteria are the contingency lists' criterion objects, read and
 * written by format/criterion.c) and their duration criteria; reading, the checks shared by
 * the reader and the builder, and writing at the current versions (list 1.2, element criteria
 * 1.1, duration criteria 1.0).
 *
 * PowSyBl never checks the list's version (spec 5.5); the one version rule of the family is the
 * boundary-line rename of the element criteria (1.0 `danglingLineCriterion`, 1.1
 * `boundaryLineCriterion`). The sub-criteria must follow their criterion's `type` (PowSyBl
 * writes it first): their own type depends on it, and no value is read twice. */

#include <limits.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "model/criterion.h"
#include "json/emit.h"
#include "json/reader.h"
#include "format/kinds.h"
#include "format/sa_internal.h"
#include "format/version.h"
#include "io/output.h"
#include "io/source.h"

#define BIT(i) (1u << (i))

static const char *const limit_type_names[CTG_LIMIT_TYPE_COUNT] = { "ACTIVE_POWER",
                                                                    "APPARENT_POWER", "CURRENT",
                                                                    "VOLTAGE", "VOLTAGE_ANGLE" };

const char *ctg_limit_type_name(ctg_limit_type type)
{
    return (unsigned)type < CTG_LIMIT_TYPE_COUNT ? limit_type_names[type] : NULL;
}

static const char *const element_names[CTG_ECRIT_TYPE_COUNT] = {
    "lineCriterion",
    "tieLineCriterion",
    "boundaryLineCriterion",
    "twoWindingsTransformerCriterion",
    "threeWindingsTransformerCriterion",
    "identifiableCriterion",
    "identifierCriterion",
};
#define DANGLING_NAME "danglingLineCriterion"

/* The one sub-criterion type each kind takes (spec 5.3; tie lines: TWO, unlike contingency
 * lists); TYPE_COUNT: none. */
static const ctg_criterion_type country_type[CTG_ECRIT_TYPE_COUNT] = {
    CTG_CRITERION_TWO_COUNTRY,    CTG_CRITERION_TWO_COUNTRY,    CTG_CRITERION_SINGLE_COUNTRY,
    CTG_CRITERION_SINGLE_COUNTRY, CTG_CRITERION_SINGLE_COUNTRY, CTG_CRITERION_AT_LEAST_ONE_COUNTRY,
    CTG_CRITERION_TYPE_COUNT,
};
static const ctg_criterion_type voltage_type[CTG_ECRIT_TYPE_COUNT] = {
    CTG_CRITERION_TWO_NOMINAL_VOLTAGE,
    CTG_CRITERION_TWO_NOMINAL_VOLTAGE,
    CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE,
    CTG_CRITERION_TWO_NOMINAL_VOLTAGE,
    CTG_CRITERION_THREE_NOMINAL_VOLTAGE,
    CTG_CRITERION_AT_LEAST_ONE_NOMINAL_VOLTAGE,
    CTG_CRITERION_TYPE_COUNT,
};

static const char *const duration_names[CTG_DURATION_TYPE_COUNT] = { "PERMANENT", "TEMPORARY_ALL",
                                                                     "TEMPORARY_EQUALITY",
                                                                     "TEMPORARY_INTERVAL" };

/* ---- keys, in PowSyBl's write order ------------------------------------------------------ */

enum {
    R_VALUE,
    R_LIMIT_TYPE,
    R_MONITORING,
    R_CONTEXT,
    R_EQUIPMENT,
    R_DURATIONS,
    R_GROUPS,
    R_COUNT
};
static const ctg_key reduction_keys[R_COUNT] = {
    [R_VALUE] = CTG_KEY("value"),
    [R_LIMIT_TYPE] = CTG_KEY("limitType"),
    [R_MONITORING] = CTG_KEY("monitoringOnly"),
    [R_CONTEXT] = CTG_KEY("contingencyContext"),
    [R_EQUIPMENT] = CTG_KEY("equipmentCriteria"),
    [R_DURATIONS] = CTG_KEY("durationCriteria"),
    /* Too long for CTG_KEY's quoted block: read by name, written with ctg_emit_key. */
    [R_GROUPS] = { "operationalLimitsGroupIdsSelection", 34, "", { 0 } },
};

enum { E_TYPE, E_VERSION, E_NAME, E_COUNTRY, E_VOLTAGE, E_IDS, E_COUNT };
static const ctg_key element_keys[E_COUNT] = {
    [E_TYPE] = CTG_KEY("type"),
    [E_VERSION] = CTG_KEY("version"),
    [E_NAME] = CTG_KEY("name"),
    [E_COUNTRY] = CTG_KEY("countryCriterion"),
    [E_VOLTAGE] = CTG_KEY("nominalVoltageCriterion"),
    [E_IDS] = CTG_KEY("identifiers"),
};

enum { D_TYPE, D_VERSION, D_VALUE, D_LOW, D_LOW_CLOSED, D_HIGH, D_HIGH_CLOSED, D_COUNT };
static const ctg_key duration_keys[D_COUNT] = {
    [D_TYPE] = CTG_KEY("type"),
    [D_VERSION] = CTG_KEY("version"),
    [D_VALUE] = CTG_KEY("value"),
    [D_LOW] = CTG_KEY("lowBound"),
    [D_LOW_CLOSED] = CTG_KEY("lowClosed"),
    [D_HIGH] = CTG_KEY("highBound"),
    [D_HIGH_CLOSED] = CTG_KEY("highClosed"),
};
/* The members each duration kind has besides `type` and `version`. */
static const unsigned duration_members[CTG_DURATION_TYPE_COUNT] = {
    [CTG_DURATION_TEMPORARY_EQUALITY] = BIT(D_VALUE),
    [CTG_DURATION_TEMPORARY_INTERVAL] =
        BIT(D_LOW) | BIT(D_LOW_CLOSED) | BIT(D_HIGH) | BIT(D_HIGH_CLOSED),
};

/* ---- the checks of the reader and the builder ------------------------------------------- */

/* A rule broken: the message, and the member it is about (a *_COUNT value: the object). */
typedef struct problem {
    const char *msg;
    unsigned member;
} problem;

#define OK ((problem){ NULL, 0 })

static problem duration_problem(const ctg_duration_criterion *d)
{
    if ((unsigned)d->type >= CTG_DURATION_TYPE_COUNT)
        return (problem){ "unknown duration criterion type", D_TYPE };
    if (d->type == CTG_DURATION_TEMPORARY_EQUALITY && d->value < 0)
        return (problem){ "\"value\" must be >= 0", D_VALUE };
    if (d->type != CTG_DURATION_TEMPORARY_INTERVAL)
        return OK;
    if (!d->has_low && !d->has_high)
        return (problem){ "a TEMPORARY_INTERVAL needs \"lowBound\" or \"highBound\"", D_COUNT };
    if (d->has_low && d->low < 0)
        return (problem){ "\"lowBound\" must be >= 0", D_LOW };
    if (d->has_high && d->high < 0)
        return (problem){ "\"highBound\" must be >= 0", D_HIGH };
    if (d->has_low && d->has_high && d->low > d->high)
        return (problem){ "\"highBound\" is below \"lowBound\"", D_HIGH };
    /* Durations are >= 0: an open high bound of 0 holds none, nor do equal bounds not both
     * closed. */
    if ((d->has_low && d->has_high && d->low == d->high && !(d->low_closed && d->high_closed)) ||
        (d->has_high && d->high == 0 && !d->high_closed))
        return (problem){ "empty interval: no duration is in it", D_COUNT };
    return OK;
}

static problem sub_problem(const ctg_criterion *c, ctg_criterion_type want, unsigned member)
{
    if (c == NULL)
        return OK;
    if (want == CTG_CRITERION_TYPE_COUNT)
        return (problem){ member == E_COUNTRY ? "an identifierCriterion has no countryCriterion"
                                              : "an identifierCriterion has no "
                                                "nominalVoltageCriterion",
                          member };
    if (c->type != want)
        return (problem){ "wrong sub-criterion type for this criterion kind", member };
    if (!ctg_criterion_valid(c, want))
        return (problem){ "invalid sub-criterion (countries or voltage intervals)", member };
    return OK;
}

static problem element_problem(const ctg_element_criterion *c)
{
    problem p;

    if ((unsigned)c->type >= CTG_ECRIT_TYPE_COUNT)
        return (problem){ "unknown network-element criterion type", E_TYPE };
    if ((p = sub_problem(c->country, country_type[c->type], E_COUNTRY)).msg ||
        (p = sub_problem(c->nominal_voltage, voltage_type[c->type], E_VOLTAGE)).msg)
        return p;
    if (c->type == CTG_ECRIT_IDENTIFIABLE && !c->country && !c->nominal_voltage)
        return (problem){ "an identifiableCriterion needs \"countryCriterion\" or "
                          "\"nominalVoltageCriterion\"",
                          E_COUNT };
    if (c->type != CTG_ECRIT_IDENTIFIER && c->identifier_count > 0)
        return (problem){ "only an identifierCriterion has \"identifiers\"", E_IDS };
    return OK;
}

/* The reduction's own members; its criteria are checked one by one. */
static problem reduction_problem(const ctg_limit_reduction *r)
{
    if (!(r->value >= 0) && r->value == r->value)
        return (problem){ "a limit reduction \"value\" must be >= 0", R_VALUE };
    if ((unsigned)r->limit_type > CTG_LIMIT_CURRENT)
        return (problem){ "not a limit type of limit reductions (ACTIVE_POWER, APPARENT_POWER "
                          "or CURRENT)",
                          R_LIMIT_TYPE };
    return OK;
}

/* ---- reading: duration criteria ---------------------------------------------------------- */

typedef struct duration_ctx {
    ctg_duration_criterion *d;
    bool has_type;
    ctg_mark marks[D_COUNT];
} duration_ctx;

/* Integers only: PowSyBl's lenient int also takes 5.7 (as 5), "7" and true (docs). */
static int read_int(ctg_reader *rd, int *out)
{
    if (rd->tok.type != CTG_TOK_NUMBER || !rd->tok.is_integer)
        return ctg_reader_type_error(rd, "integer");
    if (rd->tok.number < INT_MIN || rd->tok.number > INT_MAX)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "%.*s is out of the range of a 32-bit integer",
                               (int)rd->tok.raw_len, rd->tok.raw);
    *out = (int)rd->tok.number;
    return CTG_OK;
}

static int read_bool(ctg_reader *rd, bool *out)
{
    if (rd->tok.type != CTG_TOK_TRUE && rd->tok.type != CTG_TOK_FALSE)
        return ctg_reader_type_error(rd, "boolean");
    *out = rd->tok.type == CTG_TOK_TRUE;
    return CTG_OK;
}

/* Whether the current string token is `name`. */
static bool tok_is(const ctg_reader *rd, const char *name)
{
    return rd->tok.type == CTG_TOK_STRING && rd->tok.len == strlen(name) &&
           memcmp(rd->tok.str, name, rd->tok.len) == 0;
}

static int unknown_type(ctg_reader *rd, const char *what)
{
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown %s type \"%.*s\"", what,
                           (int)(rd->tok.len > 64 ? 64 : rd->tok.len), rd->tok.str);
}

/* A version PowSyBl reads as text and ignores: any scalar; a container would derail it. */
static int skip_version(ctg_reader *rd)
{
    if (rd->tok.type == CTG_TOK_OBJECT_BEGIN || rd->tok.type == CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "string");
    return CTG_OK;
}

static int duration_field(ctg_reader *rd, unsigned index, void *ctx)
{
    duration_ctx *dc = ctx;
    ctg_duration_criterion *d = dc->d;

    dc->marks[index] = ctg_reader_mark(rd);
    switch (index) {
    case D_TYPE:
        for (unsigned t = 0; t < CTG_DURATION_TYPE_COUNT; t++)
            if (tok_is(rd, duration_names[t])) {
                d->type = (ctg_duration_type)t;
                dc->has_type = true;
                return CTG_OK;
            }
        return unknown_type(rd, "duration criterion");
    case D_VERSION:
        return skip_version(rd);
    case D_VALUE:
        return read_int(rd, &d->value);
    case D_LOW:
        return read_int(rd, &d->low);
    case D_HIGH:
        return read_int(rd, &d->high);
    case D_LOW_CLOSED:
        return read_bool(rd, &d->low_closed);
    default:
        return read_bool(rd, &d->high_closed);
    }
}

static const ctg_object_def duration_def = { duration_keys, D_COUNT, duration_field };

/* A bound and its closed flag come together. */
static int check_bound_pair(ctg_reader *rd, const duration_ctx *dc, const ctg_mark *start,
                            unsigned seen, unsigned bound, unsigned flag)
{
    const char *b = duration_keys[bound].name, *f = duration_keys[flag].name;

    if ((seen & BIT(bound)) && !(seen & BIT(flag)))
        return ctg_reader_fail_at(rd, start, f, CTG_ESCHEMA,
                                  "missing field \"%s\", required with \"%s\"", f, b);
    if ((seen & BIT(flag)) && !(seen & BIT(bound)))
        return ctg_reader_fail_at(rd, &dc->marks[flag], f, CTG_ESCHEMA,
                                  "\"%s\" given without \"%s\"", f, b);
    return CTG_OK;
}

static int finish_duration(ctg_reader *rd, duration_ctx *dc, const ctg_mark *start, unsigned seen)
{
    ctg_duration_criterion *d = dc->d;
    unsigned extra;
    problem p;
    int rc;

    if (!dc->has_type)
        return ctg_reader_missing(rd, start, "type");
    extra = seen & ~(BIT(D_TYPE) | BIT(D_VERSION) | duration_members[d->type]);
    for (unsigned k = 0; k < D_COUNT; k++)
        if (extra & BIT(k))
            return ctg_reader_fail_at(rd, &dc->marks[k], duration_keys[k].name, CTG_ESCHEMA,
                                      "unknown field \"%s\" in a %s duration criterion",
                                      duration_keys[k].name, duration_names[d->type]);
    if (d->type == CTG_DURATION_TEMPORARY_EQUALITY && !(seen & BIT(D_VALUE)))
        return ctg_reader_missing(rd, start, "value");
    if ((rc = check_bound_pair(rd, dc, start, seen, D_LOW, D_LOW_CLOSED)) != CTG_OK ||
        (rc = check_bound_pair(rd, dc, start, seen, D_HIGH, D_HIGH_CLOSED)) != CTG_OK)
        return rc;
    d->has_low = (seen & BIT(D_LOW)) != 0;
    d->has_high = (seen & BIT(D_HIGH)) != 0;
    p = duration_problem(d);
    if (p.msg == NULL)
        return CTG_OK;
    if (p.member == D_COUNT)
        return ctg_reader_fail_at(rd, start, NULL, CTG_ESCHEMA, "%s", p.msg);
    return ctg_reader_fail_at(rd, &dc->marks[p.member], duration_keys[p.member].name, CTG_ESCHEMA,
                              "%s", p.msg);
}

static int read_duration(ctg_reader *rd, void *out)
{
    ctg_mark start = ctg_reader_mark(rd);
    duration_ctx dc;
    unsigned seen;
    int rc;

    memset(out, 0, sizeof(ctg_duration_criterion));
    memset(&dc, 0, sizeof dc);
    dc.d = out;
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_read_object(rd, &duration_def, &dc, &seen)) != CTG_OK)
        return rc;
    return finish_duration(rd, &dc, &start, seen);
}

CTG_HANDLER_DEFINE(static, duration_handler, "durationCriterion", ctg_duration_criterion,
                   read_duration);

/* ---- reading: network-element criteria --------------------------------------------------- */

typedef struct element_ctx {
    ctg_element_criterion *c;
    bool has_type;
    bool dangling;       /* the type was the legacy name */
    const char *version; /* a string version, arena-owned; NULL otherwise */
    ctg_mark marks[E_COUNT];
} element_ctx;

static int read_element_type(ctg_reader *rd, element_ctx *ec)
{
    for (unsigned t = 0; t < CTG_ECRIT_TYPE_COUNT; t++)
        if (tok_is(rd, element_names[t])) {
            ec->c->type = (ctg_element_criterion_type)t;
            ec->has_type = true;
            return CTG_OK;
        }
    if (tok_is(rd, DANGLING_NAME)) {
        ec->c->type = CTG_ECRIT_BOUNDARY_LINE;
        ec->has_type = ec->dangling = true;
        return CTG_OK;
    }
    return unknown_type(rd, "network-element criterion");
}

static int read_sub(ctg_reader *rd, element_ctx *ec, unsigned index)
{
    ctg_element_criterion *c = ec->c;
    ctg_criterion_type want = index == E_COUNTRY ? country_type[c->type] : voltage_type[c->type];
    ctg_criterion *sub;
    int rc;

    if (!ec->has_type)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"type\" must come before \"%s\"",
                               element_keys[index].name);
    if (want == CTG_CRITERION_TYPE_COUNT)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown field \"%s\" in an identifierCriterion",
                               element_keys[index].name);
    if (rd->tok.type == CTG_TOK_NULL)
        return CTG_OK; /* as PowSyBl: absent */
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if (!(sub = ctg_arena_alloc(rd->arena, sizeof *sub, _Alignof(ctg_criterion))))
        return ctg_reader_nomem(rd);
    rc = ctg_read_criterion_of(rd, sub, index == E_COUNTRY ? CTG_CSLOT_COUNTRY : CTG_CSLOT_VOLTAGE,
                               want, element_names[c->type]);
    *(index == E_COUNTRY ? &c->country : &c->nominal_voltage) = sub;
    return rc;
}

static int read_id(ctg_reader *rd, void *out)
{
    const char *s;
    int rc;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    rc = ctg_read_string(rd, &s, "identifiers");
    memcpy(out, &s, sizeof s);
    return rc;
}

CTG_HANDLER_DEFINE(static, id_handler, "identifier", const char *, read_id);

static int read_ids(ctg_reader *rd, element_ctx *ec)
{
    void *items;
    int rc;

    if (!ec->has_type)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"type\" must come before \"identifiers\"");
    if (ec->c->type != CTG_ECRIT_IDENTIFIER)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown field \"identifiers\" in a %s",
                               element_names[ec->c->type]);
    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    rc = ctg_read_array(rd, &id_handler, &items, &ec->c->identifier_count);
    ec->c->identifiers = items;
    return rc;
}

static int element_field(ctg_reader *rd, unsigned index, void *ctx)
{
    element_ctx *ec = ctx;

    ec->marks[index] = ctg_reader_mark(rd);
    switch (index) {
    case E_TYPE:
        return read_element_type(rd, ec);
    case E_VERSION:
        if (rd->tok.type == CTG_TOK_STRING)
            return ctg_read_string(rd, &ec->version, "version");
        return skip_version(rd);
    case E_NAME:
        return ctg_read_opt_string(rd, &ec->c->name, "name");
    case E_IDS:
        return read_ids(rd, ec);
    default:
        return read_sub(rd, ec, index);
    }
}

static const ctg_object_def element_def = { element_keys, E_COUNT, element_field };

/* The one version rule of the family: the boundary-line rename (spec 5.3). */
static int check_boundary_version(ctg_reader *rd, const element_ctx *ec, const ctg_mark *start)
{
    bool new_name;

    if (!ec->version)
        return ctg_reader_missing(rd, start, "version");
    new_name = ctg_version_compare(ec->version, strlen(ec->version), "1.1") >= 0;
    if (new_name == !ec->dangling)
        return CTG_OK;
    return ctg_reader_fail_at(
        rd, &ec->marks[E_TYPE], "type", CTG_ESCHEMA,
        "\"type\" must be \"%s\" at criterion version %s, got \"%s\"",
        new_name ? element_names[CTG_ECRIT_BOUNDARY_LINE] : DANGLING_NAME, ec->version,
        ec->dangling ? DANGLING_NAME : element_names[CTG_ECRIT_BOUNDARY_LINE]);
}

static int finish_element(ctg_reader *rd, element_ctx *ec, const ctg_mark *start, unsigned seen)
{
    problem p;
    int rc;

    if (!ec->has_type)
        return ctg_reader_missing(rd, start, "type");
    if (ec->c->type == CTG_ECRIT_BOUNDARY_LINE &&
        (rc = check_boundary_version(rd, ec, start)) != CTG_OK)
        return rc;
    if (ec->c->type == CTG_ECRIT_IDENTIFIER && !(seen & BIT(E_IDS)))
        return ctg_reader_missing(rd, start, "identifiers");
    if (ec->c->type == CTG_ECRIT_IDENTIFIER &&
        ctg_sa_sort_ids(rd->arena, (const char **)ec->c->identifiers, &ec->c->identifier_count) !=
            CTG_OK)
        return ctg_reader_nomem(rd);
    p = element_problem(ec->c);
    if (p.msg == NULL)
        return CTG_OK;
    /* Sub-criteria were read as their kind's type already: only the object's rule is left. */
    return ctg_reader_fail_at(rd, start, NULL, CTG_ESCHEMA, "%s", p.msg);
}

static int read_element(ctg_reader *rd, void *out)
{
    ctg_mark start = ctg_reader_mark(rd);
    element_ctx ec;
    unsigned seen;
    int rc;

    memset(out, 0, sizeof(ctg_element_criterion));
    memset(&ec, 0, sizeof ec);
    ec.c = out;
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_read_object(rd, &element_def, &ec, &seen)) != CTG_OK)
        return rc;
    return finish_element(rd, &ec, &start, seen);
}

CTG_HANDLER_DEFINE(static, element_handler, "networkElementCriterion", ctg_element_criterion,
                   read_element);

/* ---- reading: reductions ------------------------------------------------------------------ */

typedef struct reduction_ctx {
    ctg_limit_reduction *r;
    ctg_mark marks[R_COUNT];
} reduction_ctx;

/* Numbers only: PowSyBl's Double also takes numeric strings (docs/compatibility.md). */
static int read_value(ctg_reader *rd, double *out)
{
    if (rd->tok.type != CTG_TOK_NUMBER)
        return ctg_reader_type_error(rd, "number");
    *out = rd->tok.number;
    return CTG_OK;
}

static int read_limit_type(ctg_reader *rd, ctg_limit_type *out)
{
    for (unsigned t = 0; t < CTG_LIMIT_TYPE_COUNT; t++)
        if (tok_is(rd, limit_type_names[t])) {
            *out = (ctg_limit_type)t;
            return CTG_OK;
        }
    return unknown_type(rd, "limit");
}

static int read_group(ctg_reader *rd, void *out)
{
    const char *s = NULL;
    int rc = CTG_OK;

    if (rd->tok.type == CTG_TOK_STRING)
        rc = ctg_read_string(rd, &s, "operationalLimitsGroupIdsSelection");
    else if (rd->tok.type != CTG_TOK_NULL)
        return ctg_reader_type_error(rd, "string or null");
    memcpy(out, &s, sizeof s);
    return rc;
}

CTG_HANDLER_DEFINE(static, group_handler, "limitsGroup", const char *, read_group);

static int read_list(ctg_reader *rd, const ctg_handler *h, const void **items, size_t *count)
{
    void *got;
    int rc;

    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    rc = ctg_read_array(rd, h, &got, count);
    *items = got;
    return rc;
}

static int reduction_field(ctg_reader *rd, unsigned index, void *ctx)
{
    reduction_ctx *rc = ctx;
    ctg_limit_reduction *r = rc->r;

    rc->marks[index] = ctg_reader_mark(rd);
    switch (index) {
    case R_VALUE:
        return read_value(rd, &r->value);
    case R_LIMIT_TYPE:
        return read_limit_type(rd, &r->limit_type);
    case R_MONITORING:
        return read_bool(rd, &r->monitoring_only);
    case R_CONTEXT:
        if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
            return ctg_reader_type_error(rd, "object");
        return ctg_sa_read_context(rd, &r->context);
    case R_EQUIPMENT:
        return read_list(rd, &element_handler, (const void **)&r->equipment, &r->equipment_count);
    case R_DURATIONS:
        return read_list(rd, &duration_handler, (const void **)&r->durations, &r->duration_count);
    default:
        return read_list(rd, &group_handler, (const void **)&r->limits_groups,
                         &r->limits_group_count);
    }
}

static const ctg_object_def reduction_def = { reduction_keys, R_COUNT, reduction_field };

static int read_reduction(ctg_reader *rd, void *out)
{
    ctg_mark start = ctg_reader_mark(rd);
    reduction_ctx rc;
    unsigned seen;
    problem p;
    int st;

    memset(out, 0, sizeof(ctg_limit_reduction));
    rc.r = out;
    rc.r->version = CTG_LIMIT_REDUCTION_VERSION;
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((st = ctg_read_object(rd, &reduction_def, &rc, &seen)) != CTG_OK)
        return st;
    /* `value` may be absent (0.0, as PowSyBl), the others not. */
    for (unsigned k = R_LIMIT_TYPE; k <= R_CONTEXT; k++)
        if (!(seen & BIT(k)))
            return ctg_reader_missing(rd, &start, reduction_keys[k].name);
    p = reduction_problem(rc.r);
    if (p.msg == NULL)
        return CTG_OK;
    return ctg_reader_fail_at(rd, &rc.marks[p.member], reduction_keys[p.member].name, CTG_ESCHEMA,
                              "%s", p.msg);
}

_Static_assert(sizeof(ctg_limit_reduction) <= CTG_ITEM_MAX_SIZE, "fits the array reader");
CTG_HANDLER_DEFINE(static, reduction_handler, "limitReduction", ctg_limit_reduction,
                   read_reduction);

/* ---- the root ----------------------------------------------------------------------------- */

static ctg_sa_limit_body *body_of(ctg_sa_reader *sa)
{
    if (!sa->state)
        sa->state = ctg_arena_calloc(sa->json.arena, 1, sizeof(ctg_sa_limit_body));
    return sa->state;
}

static int limit_member(ctg_sa_reader *sa, unsigned key)
{
    ctg_reader *rd = &sa->json;
    ctg_sa_limit_body *b = body_of(sa);
    void *items;
    int rc;

    (void)key; /* only CTG_SA_ROOT_LIMIT_REDUCTIONS belongs to this kind */
    if (!b)
        return ctg_reader_nomem(rd);
    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    rc = ctg_read_array(rd, &reduction_handler, &items, &b->count);
    b->items = items;
    b->cap = b->count;
    return rc;
}

/* The version is required (a string) but never compared (spec 5.1). */
static int limit_finish(ctg_sa_reader *sa, unsigned seen)
{
    ctg_reader *rd = &sa->json;

    if (!sa->has_version || sa->version_type == CTG_TOK_NULL)
        return ctg_reader_missing(rd, &sa->start, "version");
    if (!sa->version)
        return ctg_reader_fail_at(rd, &sa->version_mark, "version", CTG_ESCHEMA,
                                  "expected a string for \"version\" (PowSyBl reads a number "
                                  "as a missing version)");
    if (!(seen & BIT(CTG_SA_ROOT_LIMIT_REDUCTIONS)))
        return ctg_reader_missing(rd, &sa->start, "limitReductions");
    sa->doc->body = sa->state;
    return CTG_OK;
}

/* ---- writing ------------------------------------------------------------------------------ */

static void emit_str(ctg_emitter *e, const char *s)
{
    ctg_emit_string(e, s, strlen(s));
}

static void write_member_str(ctg_emitter *e, const ctg_key *k, const char *s)
{
    ctg_emit_member_string(e, k, s, strlen(s));
}

static void write_duration(ctg_emitter *e, const ctg_duration_criterion *d)
{
    ctg_emit_object_begin(e);
    write_member_str(e, &duration_keys[D_TYPE], duration_names[d->type]);
    write_member_str(e, &duration_keys[D_VERSION], "1.0");
    if (d->type == CTG_DURATION_TEMPORARY_EQUALITY) {
        ctg_emit_name_key(e, &duration_keys[D_VALUE]);
        ctg_emit_int(e, d->value);
    }
    if (d->type == CTG_DURATION_TEMPORARY_INTERVAL && d->has_low) {
        ctg_emit_name_key(e, &duration_keys[D_LOW]);
        ctg_emit_int(e, d->low);
        ctg_emit_name_key(e, &duration_keys[D_LOW_CLOSED]);
        ctg_emit_bool(e, d->low_closed);
    }
    if (d->type == CTG_DURATION_TEMPORARY_INTERVAL && d->has_high) {
        ctg_emit_name_key(e, &duration_keys[D_HIGH]);
        ctg_emit_int(e, d->high);
        ctg_emit_name_key(e, &duration_keys[D_HIGH_CLOSED]);
        ctg_emit_bool(e, d->high_closed);
    }
    ctg_emit_object_end(e);
}

static void write_element(ctg_emitter *e, const ctg_element_criterion *c)
{
    ctg_emit_object_begin(e);
    write_member_str(e, &element_keys[E_TYPE], element_names[c->type]);
    write_member_str(e, &element_keys[E_VERSION], "1.1");
    if (c->name)
        write_member_str(e, &element_keys[E_NAME], c->name);
    if (c->type == CTG_ECRIT_IDENTIFIER) {
        ctg_emit_name_key(e, &element_keys[E_IDS]);
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < c->identifier_count; i++)
            emit_str(e, c->identifiers[i]);
        ctg_emit_array_end(e);
    }
    if (c->country)
        ctg_write_criterion(e, &element_keys[E_COUNTRY], c->country);
    if (c->nominal_voltage)
        ctg_write_criterion(e, &element_keys[E_VOLTAGE], c->nominal_voltage);
    ctg_emit_object_end(e);
}

static void write_reduction(ctg_emitter *e, const ctg_limit_reduction *r)
{
    ctg_emit_object_begin(e);
    ctg_emit_name_key(e, &reduction_keys[R_VALUE]);
    ctg_emit_double(e, r->value);
    write_member_str(e, &reduction_keys[R_LIMIT_TYPE], limit_type_names[r->limit_type]);
    ctg_emit_name_key(e, &reduction_keys[R_MONITORING]);
    ctg_emit_bool(e, r->monitoring_only);
    ctg_emit_name_key(e, &reduction_keys[R_CONTEXT]);
    ctg_sa_write_context(e, &r->context);
    /* Empty lists are not written (spec 5.2). */
    if (r->equipment_count > 0) {
        ctg_emit_name_key(e, &reduction_keys[R_EQUIPMENT]);
        ctg_sa_write_element_criteria(e, r->equipment, r->equipment_count);
    }
    if (r->duration_count > 0) {
        ctg_emit_name_key(e, &reduction_keys[R_DURATIONS]);
        ctg_sa_write_duration_criteria(e, r->durations, r->duration_count);
    }
    if (r->limits_group_count > 0) {
        ctg_emit_key(e, reduction_keys[R_GROUPS].name, reduction_keys[R_GROUPS].len);
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < r->limits_group_count; i++) {
            if (r->limits_groups[i])
                emit_str(e, r->limits_groups[i]);
            else
                ctg_emit_null(e);
        }
        ctg_emit_array_end(e);
    }
    ctg_emit_object_end(e);
}

void ctg_sa_write_element_criteria(ctg_emitter *e, const ctg_element_criterion *c, size_t n)
{
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++)
        write_element(e, &c[i]);
    ctg_emit_array_end(e);
}

void ctg_sa_write_duration_criteria(ctg_emitter *e, const ctg_duration_criterion *d, size_t n)
{
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++)
        write_duration(e, &d[i]);
    ctg_emit_array_end(e);
}

static void limit_write(ctg_emitter *e, const ctg_sa_doc *doc)
{
    static const ctg_key version = CTG_KEY("version"), reductions = CTG_KEY("limitReductions");
    const ctg_sa_limit_body *b = doc->body;
    size_t n = b ? b->count : 0;

    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &version, "1.2", 3);
    ctg_emit_name_key(e, &reductions);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++)
        write_reduction(e, &b->items[i]);
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
}

const ctg_sa_kind_ops ctg_sa_limit_ops = { limit_member, limit_finish, limit_write };

/* ---- the bare criterion arrays of PowSyBl's criterion tests ------------------------------- */

/* Reads the root array at rd->tok and writes it back into `out`. */
static int rewrite_array(ctg_reader *rd, bool durations, ctg_buf *out, ctg_error *w)
{
    const void *items = NULL;
    size_t count = 0;
    ctg_output o;
    ctg_emitter e;
    int rc;

    if ((rc = ctg_reader_next(rd)) != CTG_OK ||
        (rc = read_list(rd, durations ? &duration_handler : &element_handler, &items, &count)) !=
            CTG_OK ||
        (rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    if (rd->tok.type != CTG_TOK_EOF)
        return ctg_reader_fail(rd, CTG_ESYNTAX, "trailing content");
    if ((rc = ctg_output_open_buf(&o, out, NULL, w)) != CTG_OK)
        return rc;
    if ((rc = ctg_emit_init(&e, ctg_output_sink, &o, false, NULL, w)) == CTG_OK) {
        ctg_emit_escape_astral(&e);
        if (durations)
            ctg_sa_write_duration_criteria(&e, items, count);
        else
            ctg_sa_write_element_criteria(&e, items, count);
        rc = ctg_emit_finish(&e);
    }
    ctg_emit_dispose(&e);
    if (rc == CTG_OK)
        return ctg_output_commit(&o, w);
    ctg_output_abort(&o);
    return rc;
}

int ctg_sa_rewrite_criteria(const char *data, size_t len, bool durations, ctg_buf *out,
                            ctg_error *err)
{
    static const ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_source src = ctg_source_buffer(data, len);
    ctg_arena *arena = ctg_arena_new(NULL);
    ctg_input *in = NULL;
    ctg_reader rd;
    int rc;

    memset(&rd, 0, sizeof rd);
    if (!arena || (rc = ctg_input_open(&in, &src, NULL, err)) != CTG_OK) {
        ctg_arena_release(arena);
        return ctg_error_set_plain(err, "<memory>", CTG_ENOMEM, "out of memory");
    }
    rc = ctg_reader_init(&rd, ctg_input_lex_source(in), &opts, arena, err);
    if (rc == CTG_OK)
        rc = rewrite_array(&rd, durations, out, err);
    if (rc != CTG_OK && !rd.failed && rd.frames)
        ctg_reader_path(&rd, err->path);
    ctg_reader_dispose(&rd);
    ctg_input_close(in);
    ctg_arena_release(arena);
    return rc;
}

/* ---- the checks, for the builders (format/sa_limit_build.c) ------------------------------ */

const char *ctg_sa_duration_check(const ctg_duration_criterion *d)
{
    return duration_problem(d).msg;
}

const char *ctg_sa_element_check(const ctg_element_criterion *c)
{
    return element_problem(c).msg;
}

const char *ctg_sa_reduction_check(const ctg_limit_reduction *r)
{
    return reduction_problem(r).msg;
}
