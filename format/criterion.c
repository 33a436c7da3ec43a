/* SPDX-License-Identifier: MPL-2.0 */
/* The six criterion kinds (spec 5): the list's own fields, each criterion and each voltage
 * interval, read straight into the list's arena.
 *
 * Each slot of a list accepts exactly one criterion type (spec 5.1), so the type a criterion
 * must have is known before it is read: a different "type" is refused at once, at the "type"
 * value, also inside "propertyCriteria" (where PowSyBl only fails later, at evaluation).
 * Fields of other criterion types are read and checked like their own, then dropped, as
 * PowSyBl ignores them. */

#include <string.h>

#include "model/criterion.h"
#include "model/list_impl.h"
#include "json/jdouble.h"
#include "format/kinds.h"
#include "format/registry.h"

#define BIT(i) (1u << (i))

/* ---- voltage interval (spec 5.3) -------------------------------------------------------- */

/* In PowSyBl's order: each bound with its closed flag right after it. */
enum { IV_LOW, IV_LOW_CLOSED, IV_HIGH, IV_HIGH_CLOSED, IV_COUNT };
static const ctg_key interval_keys[IV_COUNT] = {
    [IV_LOW] = CTG_KEY("nominalVoltageLowBound"),
    [IV_LOW_CLOSED] = CTG_KEY("lowClosed"),
    [IV_HIGH] = CTG_KEY("nominalVoltageHighBound"),
    [IV_HIGH_CLOSED] = CTG_KEY("highClosed"),
};

typedef struct interval_ctx {
    ctg_voltage_interval *iv;
    ctg_mark marks[IV_COUNT]; /* where each value was, for the checks made after the object */
} interval_ctx;

/* Numbers and booleans must be JSON numbers and booleans: PowSyBl's lenient "value as"
 * reading (numeric strings, null as 0 or false, numbers as booleans) is not followed. */
static int interval_field(ctg_reader *rd, unsigned index, void *ctx)
{
    interval_ctx *ic = ctx;
    ctg_voltage_interval *iv = ic->iv;

    ic->marks[index] = ctg_reader_mark(rd);
    if (index == IV_LOW || index == IV_HIGH) {
        if (rd->tok.type != CTG_TOK_NUMBER)
            return ctg_reader_type_error(rd, "number");
        *(index == IV_LOW ? &iv->low : &iv->high) = rd->tok.number;
        return CTG_OK;
    }
    if (rd->tok.type != CTG_TOK_TRUE && rd->tok.type != CTG_TOK_FALSE)
        return ctg_reader_type_error(rd, "boolean");
    *(index == IV_LOW_CLOSED ? &iv->low_closed : &iv->high_closed) = rd->tok.type == CTG_TOK_TRUE;
    return CTG_OK;
}

static const ctg_object_def interval_def = { interval_keys, IV_COUNT, interval_field };

/* A bound and its closed flag come together. */
static int check_pair(ctg_reader *rd, const interval_ctx *ic, const ctg_mark *start,
                      unsigned seen, unsigned bound, unsigned flag)
{
    const char *b = interval_keys[bound].name, *f = interval_keys[flag].name;

    if ((seen & BIT(bound)) && !(seen & BIT(flag)))
        return ctg_reader_fail_at(rd, start, f, CTG_ESCHEMA,
                                  "missing field \"%s\", required with \"%s\"", f, b);
    if ((seen & BIT(flag)) && !(seen & BIT(bound)))
        return ctg_reader_fail_at(rd, &ic->marks[flag], f, CTG_ESCHEMA,
                                  "\"%s\" given without \"%s\"", f, b);
    return CTG_OK;
}

/* PowSyBl reads a missing bound as a closed 0 or DBL_MAX, so a lone open bound can be empty. */
static int empty_interval(ctg_reader *rd, const ctg_voltage_interval *iv, const ctg_mark *start,
                          const char *lo, const char *hi)
{
    if (iv->has_low && iv->has_high)
        return ctg_reader_fail_at(rd, start, NULL, CTG_ESCHEMA,
                                  "empty interval: equal bounds (%s) must both be closed", lo);
    return ctg_reader_fail_at(rd, start, NULL, CTG_ESCHEMA,
                              "empty interval: \"%s\" %s must be closed",
                              interval_keys[iv->has_low ? IV_LOW : IV_HIGH].name,
                              iv->has_low ? lo : hi);
}

static int check_interval(ctg_reader *rd, const interval_ctx *ic, const ctg_mark *start)
{
    const ctg_voltage_interval *iv = ic->iv;
    const char *lk = interval_keys[IV_LOW].name, *hk = interval_keys[IV_HIGH].name;
    ctg_interval_rule rule = ctg_voltage_interval_check(iv);
    char lo[CTG_DOUBLE_BUF], hi[CTG_DOUBLE_BUF];

    if (rule == CTG_IV_OK)
        return CTG_OK;
    /* Formatted only now: a valid interval costs no formatting. */
    ctg_format_double(iv->low, lo);
    ctg_format_double(iv->high, hi);
    switch (rule) {
    case CTG_IV_NO_BOUND:
        return ctg_reader_fail_at(rd, start, NULL, CTG_ESCHEMA,
                                  "a voltage interval needs \"%s\" or \"%s\"", lk, hk);
    case CTG_IV_BAD_LOW:
        return ctg_reader_fail_at(rd, &ic->marks[IV_LOW], lk, CTG_ESCHEMA,
                                  "\"%s\" must be >= 0, got %s", lk, lo);
    case CTG_IV_BAD_HIGH:
        return ctg_reader_fail_at(rd, &ic->marks[IV_HIGH], hk, CTG_ESCHEMA,
                                  "\"%s\" must be >= 0, got %s", hk, hi);
    case CTG_IV_REVERSED:
        return ctg_reader_fail_at(rd, &ic->marks[IV_HIGH], hk, CTG_ESCHEMA,
                                  "\"%s\" %s is below \"%s\" %s", hk, hi, lk, lo);
    default:
        return empty_interval(rd, iv, start, lo, hi);
    }
}

static int read_interval(ctg_reader *rd, ctg_voltage_interval *iv)
{
    ctg_mark start = ctg_reader_mark(rd);
    interval_ctx ic;
    unsigned seen;
    int rc;

    memset(iv, 0, sizeof *iv);
    ic.iv = iv;
    if ((rc = ctg_read_object(rd, &interval_def, &ic, &seen)) != CTG_OK
        || (rc = check_pair(rd, &ic, &start, seen, IV_LOW, IV_LOW_CLOSED)) != CTG_OK
        || (rc = check_pair(rd, &ic, &start, seen, IV_HIGH, IV_HIGH_CLOSED)) != CTG_OK)
        return rc;
    iv->set = true;
    iv->has_low = (seen & BIT(IV_LOW)) != 0;
    iv->has_high = (seen & BIT(IV_HIGH)) != 0;
    return check_interval(rd, &ic, &start);
}

/* The criterion object's keys (spec 5.2), here because the string arrays name theirs. */
enum {
    CK_TYPE, CK_COUNTRIES, CK_COUNTRIES1, CK_COUNTRIES2, CK_IV, CK_IV1, CK_IV2, CK_IV3,
    CK_PROPERTY_KEY, CK_PROPERTY_VALUE, CK_EQUIPMENT, CK_SIDE, CK_REGEX, CK_COUNT
};
/* Read and written from here, in the order PowSyBl writes them across the types. */
static const ctg_key criterion_keys[CK_COUNT] = {
    [CK_TYPE] = CTG_KEY("type"),
    [CK_COUNTRIES] = CTG_KEY("countries"),
    [CK_COUNTRIES1] = CTG_KEY("countries1"),
    [CK_COUNTRIES2] = CTG_KEY("countries2"),
    [CK_IV] = CTG_KEY("voltageInterval"),
    [CK_IV1] = CTG_KEY("voltageInterval1"),
    [CK_IV2] = CTG_KEY("voltageInterval2"),
    [CK_IV3] = CTG_KEY("voltageInterval3"),
    [CK_PROPERTY_KEY] = CTG_KEY("propertyKey"),
    [CK_PROPERTY_VALUE] = CTG_KEY("propertyValue"),
    [CK_EQUIPMENT] = CTG_KEY("equipmentToCheck"),
    [CK_SIDE] = CTG_KEY("sideToCheck"),
    [CK_REGEX] = CTG_KEY("regex"),
};

/* ---- string arrays ------------------------------------------------------------------------ */

/* Countries point at the library's own codes: no allocation per string. */
static int read_country(ctg_reader *rd, void *out)
{
    const char *code;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    code = ctg_country_code(rd->tok.str, rd->tok.len);
    if (code == NULL)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "unknown country \"%.*s\" (expected an ISO 3166-1 alpha-2 code "
                               "or XK)", (int)rd->tok.len, rd->tok.str);
    memcpy(out, &code, sizeof code);
    return CTG_OK;
}

static int read_property_value(ctg_reader *rd, void *out)
{
    const char *s;
    int rc = ctg_read_string(rd, &s, criterion_keys[CK_PROPERTY_VALUE].name);

    if (rc == CTG_OK)
        memcpy(out, &s, sizeof s);
    return rc;
}

CTG_HANDLER_DEFINE(, ctg_country_handler, "country", const char *, read_country);
CTG_HANDLER_DEFINE(, ctg_property_value_handler, "propertyValue", const char *,
                   read_property_value);

static int read_strings(ctg_reader *rd, ctg_handler_id id, const char *const **out,
                        size_t *count)
{
    void *items;
    int rc = ctg_read_array(rd, ctg_reader_handler(rd, id), &items, count);

    *out = items;
    return rc;
}

/* ---- criterion (spec 5.2) ----------------------------------------------------------------- */

/* The keys each criterion type uses (spec 5.2)... */
static const unsigned type_keys[CTG_CRITERION_TYPE_COUNT] = {
    [CTG_CRITERION_SINGLE_COUNTRY] = BIT(CK_COUNTRIES),
    [CTG_CRITERION_TWO_COUNTRY] = BIT(CK_COUNTRIES1) | BIT(CK_COUNTRIES2),
    [CTG_CRITERION_AT_LEAST_ONE_COUNTRY] = BIT(CK_COUNTRIES),
    [CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE] = BIT(CK_IV),
    [CTG_CRITERION_TWO_NOMINAL_VOLTAGE] = BIT(CK_IV1) | BIT(CK_IV2),
    [CTG_CRITERION_THREE_NOMINAL_VOLTAGE] = BIT(CK_IV1) | BIT(CK_IV2) | BIT(CK_IV3),
    [CTG_CRITERION_AT_LEAST_ONE_NOMINAL_VOLTAGE] = BIT(CK_IV),
    [CTG_CRITERION_PROPERTY] = BIT(CK_PROPERTY_KEY) | BIT(CK_PROPERTY_VALUE) | BIT(CK_EQUIPMENT)
                               | BIT(CK_SIDE),
    [CTG_CRITERION_REGEX] = BIT(CK_REGEX),
};
/* ...and those of them it requires. */
static const unsigned type_required[CTG_CRITERION_TYPE_COUNT] = {
    [CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE] = BIT(CK_IV),
    [CTG_CRITERION_AT_LEAST_ONE_NOMINAL_VOLTAGE] = BIT(CK_IV),
    [CTG_CRITERION_PROPERTY] = BIT(CK_PROPERTY_KEY) | BIT(CK_EQUIPMENT),
};

typedef struct criterion_ctx {
    ctg_criterion *out;          /* receives the fields of the expected type */
    ctg_criterion scratch;       /* receives the others: checked, then dropped */
    ctg_criterion_type expected; /* the one type the slot accepts */
    ctg_criterion_slot slot;
    ctg_list_kind kind;
    const char *owner; /* set: what holds the criterion, in place of the list kind (format/sa) */
} criterion_ctx;

static int slot_error(ctg_reader *rd, const criterion_ctx *cc, ctg_criterion_type got)
{
    const char *key = ctg_criterion_slot_key(cc->slot);
    const char *want = ctg_criterion_type_name(cc->expected);
    const char *name = ctg_criterion_type_name(got);

    if (cc->owner != NULL)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" of %s must be %s, not %s", key,
                               cc->owner, want, name);
    if (cc->slot == CTG_CSLOT_COUNTRY || cc->slot == CTG_CSLOT_VOLTAGE)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" of %s lists must be %s, not %s", key,
                               ctg_list_kind_name(cc->kind), want, name);
    return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" %s %s, not %s", key,
                           cc->slot == CTG_CSLOT_PROPERTY ? "items must be" : "must be", want,
                           name);
}

static int read_criterion_type(ctg_reader *rd, criterion_ctx *cc)
{
    ctg_criterion_type t;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (!ctg_criterion_type_from_name(rd->tok.str, rd->tok.len, &t))
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown criterion type \"%.*s\"",
                               (int)rd->tok.len, rd->tok.str);
    if (t != cc->expected)
        return slot_error(rd, cc, t);
    cc->out->type = t;
    return CTG_OK;
}

static int read_equipment(ctg_reader *rd, ctg_criterion *c)
{
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (!ctg_equipment_to_check_from_name(rd->tok.str, rd->tok.len, &c->equipment_to_check))
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "unknown equipmentToCheck \"%.*s\" (expected SELF, VOLTAGE_LEVEL "
                               "or SUBSTATION)", (int)rd->tok.len, rd->tok.str);
    return CTG_OK;
}

static int read_side(ctg_reader *rd, ctg_criterion *c)
{
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (!ctg_side_to_check_from_name(rd->tok.str, rd->tok.len, &c->side_to_check))
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "unknown sideToCheck \"%.*s\" (expected ONE, BOTH or ALL_THREE)",
                               (int)rd->tok.len, rd->tok.str);
    return CTG_OK;
}

static int criterion_field(ctg_reader *rd, unsigned index, void *ctx)
{
    criterion_ctx *cc = ctx;
    ctg_criterion *c = (type_keys[cc->expected] & BIT(index)) ? cc->out : &cc->scratch;

    switch (index) {
    case CK_TYPE:
        return read_criterion_type(rd, cc);
    case CK_COUNTRIES:
    case CK_COUNTRIES1:
        return read_strings(rd, CTG_HANDLER_COUNTRY, &c->countries[0], &c->country_count[0]);
    case CK_COUNTRIES2:
        return read_strings(rd, CTG_HANDLER_COUNTRY, &c->countries[1], &c->country_count[1]);
    case CK_IV:
    case CK_IV1:
    case CK_IV2:
    case CK_IV3:
        return read_interval(rd, &c->intervals[index == CK_IV ? 0 : index - CK_IV1]);
    case CK_PROPERTY_KEY:
        return ctg_read_string(rd, &c->property_key, criterion_keys[CK_PROPERTY_KEY].name);
    case CK_PROPERTY_VALUE:
        return read_strings(rd, CTG_HANDLER_PROPERTY_VALUE, &c->property_values,
                            &c->property_value_count);
    case CK_EQUIPMENT:
        return read_equipment(rd, c);
    case CK_SIDE:
        return read_side(rd, c);
    default:
        /* null: no regex, as PowSyBl */
        return ctg_read_opt_string(rd, &c->regex, criterion_keys[CK_REGEX].name);
    }
}

static const ctg_object_def criterion_def = { criterion_keys, CK_COUNT, criterion_field };

/* Reads the criterion object at rd->tok into `out`, which must end up of type `expected`. */
static int read_criterion_as(ctg_reader *rd, ctg_criterion *out, criterion_ctx *ccp)
{
    ctg_mark start = ctg_reader_mark(rd);
    criterion_ctx cc = *ccp;
    unsigned seen, missing;
    int rc;

    memset(out, 0, sizeof *out);
    cc.out = out;
    if ((rc = ctg_read_object(rd, &criterion_def, &cc, &seen)) != CTG_OK)
        return rc;
    if (!(seen & BIT(CK_TYPE)))
        return ctg_reader_missing(rd, &start, criterion_keys[CK_TYPE].name);
    missing = type_required[cc.expected] & ~seen;
    for (unsigned k = 0; k < CK_COUNT; k++) {
        if (missing & BIT(k))
            return ctg_reader_missing(rd, &start, criterion_keys[k].name);
    }
    return CTG_OK;
}

/* Reads the criterion object at rd->tok into `out`, which must end up of the type `slot`
 * accepts in a list of `kind`. */
static int read_criterion(ctg_reader *rd, ctg_criterion *out, ctg_criterion_slot slot,
                          ctg_list_kind kind)
{
    criterion_ctx cc;

    cc.slot = slot;
    cc.kind = kind;
    cc.owner = NULL;
    cc.expected = ctg_criterion_slot_type(kind, slot);
    return read_criterion_as(rd, out, &cc);
}

int ctg_read_criterion_of(ctg_reader *rd, ctg_criterion *out, ctg_criterion_slot slot,
                          ctg_criterion_type expected, const char *owner)
{
    criterion_ctx cc;

    cc.slot = slot;
    cc.kind = CTG_LIST_KIND_COUNT;
    cc.owner = owner;
    cc.expected = expected;
    return read_criterion_as(rd, out, &cc);
}

/* propertyCriteria items go through the shared array reader, which stacks them by value. */
_Static_assert(sizeof(ctg_criterion) <= CTG_ITEM_MAX_SIZE && sizeof(ctg_criterion) % 8 == 0,
               "a criterion must fit the array reader's item buffer");

static int read_property_criterion(ctg_reader *rd, void *out)
{
    return read_criterion(rd, out, CTG_CSLOT_PROPERTY, CTG_LIST_KIND_COUNT);
}

CTG_HANDLER_DEFINE(, ctg_property_criterion_handler, "propertyCriterion", ctg_criterion,
                   read_property_criterion);

/* ---- the list ----------------------------------------------------------------------------- */

static int read_slot(ctg_reader *rd, ctg_list *list, ctg_criterion_slot slot,
                     const ctg_criterion **out)
{
    ctg_criterion *c;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    c = ctg_arena_alloc(rd->arena, sizeof *c, _Alignof(ctg_criterion));
    if (c == NULL)
        return ctg_reader_nomem(rd);
    *out = c;
    return read_criterion(rd, c, slot, list->kind);
}

static int read_property_criteria(ctg_reader *rd, ctg_criteria *cr)
{
    void *items;
    int rc = ctg_read_array(rd, ctg_reader_handler(rd, CTG_HANDLER_PROPERTY_CRITERION), &items,
                            &cr->property_count);

    cr->properties = items;
    return rc;
}

static int read_identifiable_type(ctg_reader *rd, ctg_list *list)
{
    if (list->kind != CTG_LIST_INJECTION_CRITERION)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown field \"identifiableType\" in a \"%s\"",
                               ctg_list_kind_name(list->kind));
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (ctg_identifiable_type_from_name(rd->tok.str, rd->tok.len,
                                        &list->criteria.identifiable_type))
        return CTG_OK;
    /* PowSyBl renamed it without keeping the old name readable (spec 3.3). */
    if (rd->tok.len == 13 && memcmp(rd->tok.str, "DANGLING_LINE", 13) == 0)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "unknown identifiable type \"DANGLING_LINE\" (now BOUNDARY_LINE)");
    return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown identifiable type \"%.*s\"",
                           (int)rd->tok.len, rd->tok.str);
}

int ctg_criterion_list_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    ctg_criteria *cr = &list->criteria;

    switch (key) {
    case CTG_RK_IDENTIFIABLE_TYPE:
        return read_identifiable_type(rd, list);
    case CTG_RK_COUNTRY_CRITERION:
        return read_slot(rd, list, CTG_CSLOT_COUNTRY, &cr->country);
    case CTG_RK_NOMINAL_VOLTAGE_CRITERION:
        return read_slot(rd, list, CTG_CSLOT_VOLTAGE, &cr->nominal_voltage);
    case CTG_RK_PROPERTY_CRITERIA:
        return read_property_criteria(rd, cr);
    default:
        return read_slot(rd, list, CTG_CSLOT_REGEX, &cr->regex);
    }
}

int ctg_criterion_list_finish(ctg_reader *rd, ctg_list *list, const ctg_mark *start,
                              unsigned seen)
{
    if (list->kind == CTG_LIST_INJECTION_CRITERION
        && !(seen & CTG_RK_BIT(CTG_RK_IDENTIFIABLE_TYPE)))
        return ctg_reader_missing(rd, start, ctg_root_keys[CTG_RK_IDENTIFIABLE_TYPE].name);
    return CTG_OK;
}

/* ==== writing ==================================================================== */

/* Writer of the six criterion kinds: PowSyBl's field orders (spec 5.1, 5.2, 5.3), the current
 * version, doubles as Java's Double.toString writes them. */

static void emit_str(ctg_emitter *e, const char *s)
{
    ctg_emit_string(e, s, strlen(s));
}

/* Always written, "[ ]" when empty (PowSyBl serializes the list as it is). */
static void write_strings(ctg_emitter *e, unsigned key, const char *const *s, size_t n)
{
    ctg_emit_name_key(e, &criterion_keys[key]);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++)
        emit_str(e, s[i]);
    ctg_emit_array_end(e);
}

/* Written only when set; each bound with its closed flag right after it. */
static void write_interval(ctg_emitter *e, unsigned key, const ctg_voltage_interval *iv)
{
    if (!iv->set)
        return;
    ctg_emit_name_key(e, &criterion_keys[key]);
    ctg_emit_object_begin(e);
    if (iv->has_low) {
        ctg_emit_name_key(e, &interval_keys[IV_LOW]);
        ctg_emit_double(e, iv->low);
        ctg_emit_name_key(e, &interval_keys[IV_LOW_CLOSED]);
        ctg_emit_bool(e, iv->low_closed);
    }
    if (iv->has_high) {
        ctg_emit_name_key(e, &interval_keys[IV_HIGH]);
        ctg_emit_double(e, iv->high);
        ctg_emit_name_key(e, &interval_keys[IV_HIGH_CLOSED]);
        ctg_emit_bool(e, iv->high_closed);
    }
    ctg_emit_object_end(e);
}

static void write_property(ctg_emitter *e, const ctg_criterion *c)
{
    ctg_emit_name_key(e, &criterion_keys[CK_PROPERTY_KEY]);
    emit_str(e, c->property_key);
    write_strings(e, CK_PROPERTY_VALUE, c->property_values, c->property_value_count);
    ctg_emit_name_key(e, &criterion_keys[CK_EQUIPMENT]);
    emit_str(e, ctg_equipment_to_check_name(c->equipment_to_check));
    if (c->side_to_check != CTG_SIDE_NONE) {
        ctg_emit_name_key(e, &criterion_keys[CK_SIDE]);
        emit_str(e, ctg_side_to_check_name(c->side_to_check));
    }
}

/* The criterion `c`, as the value of root key `key` (or an array item when NULL). */
void ctg_write_criterion(ctg_emitter *e, const ctg_key *key, const ctg_criterion *c)
{
    bool required;
    unsigned n = ctg_criterion_interval_count(c->type, &required);

    if (key != NULL)
        ctg_emit_name_key(e, key);
    ctg_emit_object_begin(e);
    ctg_emit_name_key(e, &criterion_keys[CK_TYPE]);
    emit_str(e, ctg_criterion_type_name(c->type));
    if (c->type == CTG_CRITERION_TWO_COUNTRY) {
        write_strings(e, CK_COUNTRIES1, c->countries[0], c->country_count[0]);
        write_strings(e, CK_COUNTRIES2, c->countries[1], c->country_count[1]);
    } else if (c->type == CTG_CRITERION_SINGLE_COUNTRY
               || c->type == CTG_CRITERION_AT_LEAST_ONE_COUNTRY) {
        write_strings(e, CK_COUNTRIES, c->countries[0], c->country_count[0]);
    } else if (c->type == CTG_CRITERION_PROPERTY) {
        write_property(e, c);
    } else if (c->type == CTG_CRITERION_REGEX) {
        ctg_emit_name_key(e, &criterion_keys[CK_REGEX]);
        if (c->regex != NULL)
            emit_str(e, c->regex);
        else
            ctg_emit_null(e);
    }
    for (unsigned i = 0; i < n; i++)
        write_interval(e, required ? CK_IV : CK_IV1 + i, &c->intervals[i]);
    ctg_emit_object_end(e);
}

int ctg_write_criterion_list(ctg_emitter *e, const ctg_list *list)
{
    const ctg_criteria *cr = ctg_list_criteria(list);
    ctg_list_kind kind = ctg_list_get_kind(list);

    /* Lists come from the reader or ctg_list_set_criteria, which both check; this only keeps
     * a list patched by other means from being written half. */
    if (cr == NULL || !ctg_criteria_valid(kind, cr))
        return CTG_EINVAL;
    ctg_write_list_head(e, kind, ctg_list_name(list));
    if (kind == CTG_LIST_INJECTION_CRITERION) {
        ctg_emit_name_key(e, &ctg_root_keys[CTG_RK_IDENTIFIABLE_TYPE]);
        emit_str(e, ctg_identifiable_type_name(cr->identifiable_type));
    }
    if (cr->country != NULL)
        ctg_write_criterion(e, &ctg_root_keys[CTG_RK_COUNTRY_CRITERION], cr->country);
    if (cr->nominal_voltage != NULL)
        ctg_write_criterion(e, &ctg_root_keys[CTG_RK_NOMINAL_VOLTAGE_CRITERION],
                            cr->nominal_voltage);
    if (cr->property_count > 0) {
        ctg_emit_name_key(e, &ctg_root_keys[CTG_RK_PROPERTY_CRITERIA]);
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < cr->property_count; i++)
            ctg_write_criterion(e, NULL, &cr->properties[i]);
        ctg_emit_array_end(e);
    }
    if (cr->regex != NULL)
        ctg_write_criterion(e, &ctg_root_keys[CTG_RK_REGEX_CRITERION], cr->regex);
    ctg_emit_object_end(e);
    return CTG_OK;
}
