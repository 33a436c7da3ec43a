/* SPDX-License-Identifier: MPL-2.0 */
/* Criterion lists (spec 5): names, the country table, the slot and interval rules, and the
 * builders. The reader and the writer use the same rules (model/criterion.h). */

#include "model/criterion.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ctg/error.h"
#include "base/arena.h"
#include "model/list_impl.h"
#include "base/names.h"
#include "base/utf8.h"

/* ---- names ---------------------------------------------------------------------------- */

static const char *const criterion_type_names[CTG_CRITERION_TYPE_COUNT] = {
    [CTG_CRITERION_SINGLE_COUNTRY] = "SINGLE_COUNTRY",
    [CTG_CRITERION_TWO_COUNTRY] = "TWO_COUNTRY",
    [CTG_CRITERION_AT_LEAST_ONE_COUNTRY] = "AT_LEAST_ONE_COUNTRY",
    [CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE] = "SINGLE_NOMINAL_VOLTAGE",
    [CTG_CRITERION_TWO_NOMINAL_VOLTAGE] = "TWO_NOMINAL_VOLTAGE",
    [CTG_CRITERION_THREE_NOMINAL_VOLTAGE] = "THREE_NOMINAL_VOLTAGE",
    [CTG_CRITERION_AT_LEAST_ONE_NOMINAL_VOLTAGE] = "AT_LEAST_ONE_NOMINAL_VOLTAGE",
    [CTG_CRITERION_PROPERTY] = "PROPERTY",
    [CTG_CRITERION_REGEX] = "REGEX",
};

static const char *const equipment_names[] = { "SELF", "VOLTAGE_LEVEL", "SUBSTATION" };
static const char *const side_names[] = { NULL, "ONE", "BOTH", "ALL_THREE" };

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The names by length (base/names.h). */
#define C(x) (CTG_CRITERION_##x + 1)
static const unsigned char criterion_types_by_len[29][CTG_NAMES_PER_LEN] = {
    [5] = { C(REGEX) },
    [8] = { C(PROPERTY) },
    [11] = { C(TWO_COUNTRY) },
    [14] = { C(SINGLE_COUNTRY) },
    [19] = { C(TWO_NOMINAL_VOLTAGE) },
    [20] = { C(AT_LEAST_ONE_COUNTRY) },
    [21] = { C(THREE_NOMINAL_VOLTAGE) },
    [22] = { C(SINGLE_NOMINAL_VOLTAGE) },
    [28] = { C(AT_LEAST_ONE_NOMINAL_VOLTAGE) },
};
#undef C
static const unsigned char equipment_by_len[14][CTG_NAMES_PER_LEN] = {
    [4] = { CTG_CHECK_SELF + 1 },
    [10] = { CTG_CHECK_SUBSTATION + 1 },
    [13] = { CTG_CHECK_VOLTAGE_LEVEL + 1 },
};
static const unsigned char side_by_len[10][CTG_NAMES_PER_LEN] = {
    [3] = { CTG_SIDE_ONE + 1 },
    [4] = { CTG_SIDE_BOTH + 1 },
    [9] = { CTG_SIDE_ALL_THREE + 1 },
};
static const ctg_names criterion_type_table = CTG_NAMES_OF(criterion_type_names,
                                                           criterion_types_by_len);
static const ctg_names equipment_table = CTG_NAMES_OF(equipment_names, equipment_by_len);
static const ctg_names side_table = CTG_NAMES_OF(side_names, side_by_len);

const char *ctg_criterion_type_name(ctg_criterion_type type)
{
    if ((unsigned)type >= CTG_CRITERION_TYPE_COUNT)
        return NULL;
    return criterion_type_names[type];
}

/* The value named `name` in `t`, or -1. */
static int find(const ctg_names *t, const char *name, size_t len)
{
    unsigned v;

    return ctg_names_find(t, name, len, &v) ? (int)v : -1;
}

bool ctg_criterion_type_from_name(const char *name, size_t len, ctg_criterion_type *out)
{
    int i = find(&criterion_type_table, name, len);

    if (i < 0)
        return false;
    *out = (ctg_criterion_type)i;
    return true;
}

const char *ctg_equipment_to_check_name(ctg_equipment_to_check v)
{
    return (unsigned)v < COUNT_OF(equipment_names) ? equipment_names[v] : NULL;
}

bool ctg_equipment_to_check_from_name(const char *name, size_t len, ctg_equipment_to_check *out)
{
    int i = find(&equipment_table, name, len);

    if (i < 0)
        return false;
    *out = (ctg_equipment_to_check)i;
    return true;
}

const char *ctg_side_to_check_name(ctg_side_to_check v)
{
    return (unsigned)v < COUNT_OF(side_names) ? side_names[v] : NULL;
}

bool ctg_side_to_check_from_name(const char *name, size_t len, ctg_side_to_check *out)
{
    int i = find(&side_table, name, len);

    if (i < 0)
        return false;
    *out = (ctg_side_to_check)i;
    return true;
}

/* ---- countries ------------------------------------------------------------------------ */

/* The codes of iidm-api's Country: ISO 3166-1 alpha-2 plus XK. Bit j of country_bits[i] is
 * set when the code (letter i, letter j) exists; the codes starting with letter i begin at
 * country_first[i] in the sorted country_codes, so a lookup is two array reads and a
 * popcount. Generated from the list; the criterion suite checks the three agree. */
static const uint32_t country_bits[26] = {
    0x2DF5978, 0x36F7BFB, 0x3F27DED, 0x2005610,  /* ABCD */
    0x00E00D4, 0x0025700, 0x15FB9FB, 0x01A3400,  /* EFGH */
    0x00F7818, 0x000D010, 0x342B1D0, 0x13E0507,  /* IJKL */
    0x3FFFCFD, 0x212C975, 0x0001000, 0x14E3CF1,  /* MNOP */
    0x0000001, 0x0544010, 0x3AE7FDF, 0x26A7EEC,  /* QRST */
    0x3041041, 0x0102155, 0x0040020, 0x0000400,  /* UVWX */
    0x0080010, 0x0401001,  /* YZ */
};
static const uint8_t country_first[26] = {
    0, 16, 37, 56, 62, 69, 75, 94, 100, 110, 114, 125, 136,
    159, 171, 172, 186, 187, 192, 213, 229, 235, 242, 244, 245, 247,
};
static const char country_codes[CTG_COUNTRY_COUNT][3] = {
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
    "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
    "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
    "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
    "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
    "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
    "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
    "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
    "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
    "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
    "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
    "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
    "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
    "VN", "VU", "WF", "WS", "XK", "YE", "YT", "ZA", "ZM", "ZW",
};

/* Set bits of x: the lookup counts the codes before a given one. */
static unsigned popcount32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}

const char *ctg_country_code(const char *code, size_t len)
{
    unsigned i, j;
    uint32_t bit;

    if (code == NULL || len != 2)
        return NULL;
    i = (unsigned)((unsigned char)code[0] - 'A');
    j = (unsigned)((unsigned char)code[1] - 'A');
    if (i >= 26 || j >= 26)
        return NULL;
    bit = UINT32_C(1) << j;
    if (!(country_bits[i] & bit))
        return NULL;
    return country_codes[country_first[i] + popcount32(country_bits[i] & (bit - 1))];
}

const char *ctg_country_at(size_t i)
{
    return i < CTG_COUNTRY_COUNT ? country_codes[i] : NULL;
}

bool ctg_country_is_valid(const char *code, size_t len)
{
    return ctg_country_code(code, len) != NULL;
}

/* ---- rules ---------------------------------------------------------------------------- */

bool ctg_list_kind_is_criterion(ctg_list_kind kind)
{
    return kind >= CTG_LIST_INJECTION_CRITERION && kind <= CTG_LIST_THREE_WT_CRITERION;
}

const char *ctg_criterion_slot_key(ctg_criterion_slot slot)
{
    static const char *const keys[CTG_CSLOT_COUNT] = {
        "countryCriterion", "nominalVoltageCriterion", "propertyCriteria", "regexCriterion",
    };
    return (unsigned)slot < CTG_CSLOT_COUNT ? keys[slot] : NULL;
}

ctg_criterion_type ctg_criterion_slot_type(ctg_list_kind kind, ctg_criterion_slot slot)
{
    /* Spec 5.1: the country and voltage criteria each kind's equipment can be matched by. */
    static const ctg_criterion_type by_kind[6][2] = {
        { CTG_CRITERION_SINGLE_COUNTRY, CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE }, /* injection */
        { CTG_CRITERION_TWO_COUNTRY, CTG_CRITERION_TWO_NOMINAL_VOLTAGE },       /* line */
        { CTG_CRITERION_TWO_COUNTRY, CTG_CRITERION_TWO_NOMINAL_VOLTAGE },       /* hvdc */
        { CTG_CRITERION_TWO_COUNTRY, CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE },    /* tie line */
        { CTG_CRITERION_SINGLE_COUNTRY, CTG_CRITERION_TWO_NOMINAL_VOLTAGE },    /* 2wt */
        { CTG_CRITERION_SINGLE_COUNTRY, CTG_CRITERION_THREE_NOMINAL_VOLTAGE },  /* 3wt */
    };

    if (slot == CTG_CSLOT_PROPERTY)
        return CTG_CRITERION_PROPERTY;
    if (slot == CTG_CSLOT_REGEX || !ctg_list_kind_is_criterion(kind))
        return CTG_CRITERION_REGEX;
    return by_kind[kind - CTG_LIST_INJECTION_CRITERION][slot == CTG_CSLOT_VOLTAGE];
}

unsigned ctg_criterion_interval_count(ctg_criterion_type type, bool *required)
{
    *required = false;
    switch (type) {
    case CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE:
    case CTG_CRITERION_AT_LEAST_ONE_NOMINAL_VOLTAGE:
        *required = true;
        return 1;
    case CTG_CRITERION_TWO_NOMINAL_VOLTAGE:
        return 2;
    case CTG_CRITERION_THREE_NOMINAL_VOLTAGE:
        return 3;
    default:
        return 0;
    }
}

static bool bound_ok(double v)
{
    return isfinite(v) && v >= 0; /* -0.0 passes, as in PowSyBl */
}

ctg_interval_rule ctg_voltage_interval_check(const ctg_voltage_interval *iv)
{
    double low = iv->has_low ? iv->low : 0, high = iv->has_high ? iv->high : DBL_MAX;
    bool low_closed = !iv->has_low || iv->low_closed;
    bool high_closed = !iv->has_high || iv->high_closed;

    if (!iv->has_low && !iv->has_high)
        return CTG_IV_NO_BOUND;
    if (iv->has_low && !bound_ok(iv->low))
        return CTG_IV_BAD_LOW;
    if (iv->has_high && !bound_ok(iv->high))
        return CTG_IV_BAD_HIGH;
    if (low > high)
        return CTG_IV_REVERSED;
    if (low == high && !(low_closed && high_closed))
        return CTG_IV_EMPTY;
    return CTG_IV_OK;
}

/* `count` strings, none NULL; each a country when `countries`. */
static bool strings_ok(const char *const *s, size_t count, bool countries)
{
    if (count > 0 && s == NULL)
        return false;
    for (size_t i = 0; i < count; i++) {
        if (s[i] == NULL || !ctg_utf8_valid(s[i])
            || (countries && ctg_country_code(s[i], strlen(s[i])) == NULL))
            return false;
    }
    return true;
}

static bool property_ok(const ctg_criterion *c)
{
    return c->property_key != NULL && ctg_utf8_valid(c->property_key)
           && strings_ok(c->property_values, c->property_value_count, false)
           && ctg_equipment_to_check_name(c->equipment_to_check) != NULL
           && (unsigned)c->side_to_check < COUNT_OF(side_names);
}

bool ctg_criterion_valid(const ctg_criterion *c, ctg_criterion_type type)
{
    bool required;
    unsigned n = ctg_criterion_interval_count(type, &required);

    if (c == NULL || c->type != type)
        return false;
    for (unsigned i = 0; i < n; i++) {
        const ctg_voltage_interval *iv = &c->intervals[i];
        if ((required && !iv->set) || (iv->set && ctg_voltage_interval_check(iv) != CTG_IV_OK))
            return false;
    }
    switch (type) {
    case CTG_CRITERION_TWO_COUNTRY:
        if (!strings_ok(c->countries[1], c->country_count[1], true))
            return false;
        /* fall through */
    case CTG_CRITERION_SINGLE_COUNTRY:
    case CTG_CRITERION_AT_LEAST_ONE_COUNTRY:
        return strings_ok(c->countries[0], c->country_count[0], true);
    case CTG_CRITERION_PROPERTY:
        return property_ok(c);
    case CTG_CRITERION_REGEX:
        return ctg_utf8_valid(c->regex);
    default:
        return (unsigned)type < CTG_CRITERION_TYPE_COUNT;
    }
}

/* An optional slot holds nothing or a valid criterion of the slot's type. */
static bool slot_ok(ctg_list_kind kind, ctg_criterion_slot slot, const ctg_criterion *c)
{
    return c == NULL || ctg_criterion_valid(c, ctg_criterion_slot_type(kind, slot));
}

bool ctg_criteria_valid(ctg_list_kind kind, const ctg_criteria *cr)
{
    if (cr == NULL || !ctg_list_kind_is_criterion(kind))
        return false;
    if (kind == CTG_LIST_INJECTION_CRITERION
        && (unsigned)cr->identifiable_type >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return false;
    if (cr->property_count > 0 && cr->properties == NULL)
        return false;
    for (size_t i = 0; i < cr->property_count; i++) {
        if (!ctg_criterion_valid(&cr->properties[i], CTG_CRITERION_PROPERTY))
            return false;
    }
    return slot_ok(kind, CTG_CSLOT_COUNTRY, cr->country)
           && slot_ok(kind, CTG_CSLOT_VOLTAGE, cr->nominal_voltage)
           && slot_ok(kind, CTG_CSLOT_REGEX, cr->regex);
}

/* ---- the list ------------------------------------------------------------------------- */

const ctg_criteria *ctg_list_criteria(const ctg_list *list)
{
    if (list == NULL || !ctg_list_kind_is_criterion(list->kind))
        return NULL;
    return &list->criteria;
}

/* The copies below leave out what the criterion's type does not use, as the reader does, and
 * turn *ok false when out of memory. What they copied before a failure stays in the arena
 * until the list is freed. */

/* Countries point at the library's own codes; other strings are copied. */
static const char *const *copy_strings(ctg_arena *a, const char *const *src, size_t n,
                                       bool countries, bool *ok)
{
    const char **dst;

    if (n == 0)
        return NULL;
    dst = ctg_arena_calloc(a, n, sizeof *dst);
    if (dst == NULL) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        dst[i] = countries ? ctg_country_code(src[i], strlen(src[i]))
                           : ctg_arena_strdup_or_flag(a, src[i], ok);
    return dst;
}

static void copy_intervals(ctg_criterion *dst, const ctg_criterion *src)
{
    bool required;
    unsigned n = ctg_criterion_interval_count(src->type, &required);

    for (unsigned i = 0; i < n; i++) {
        const ctg_voltage_interval *s = &src->intervals[i];
        ctg_voltage_interval *d = &dst->intervals[i];

        if (!s->set)
            continue;
        d->set = true;
        if ((d->has_low = s->has_low)) {
            d->low = s->low;
            d->low_closed = s->low_closed;
        }
        if ((d->has_high = s->has_high)) {
            d->high = s->high;
            d->high_closed = s->high_closed;
        }
    }
}

static void copy_criterion(ctg_arena *a, ctg_criterion *dst, const ctg_criterion *src, bool *ok)
{
    memset(dst, 0, sizeof *dst);
    dst->type = src->type;
    copy_intervals(dst, src);
    switch (src->type) {
    case CTG_CRITERION_TWO_COUNTRY:
        dst->countries[1] = copy_strings(a, src->countries[1], src->country_count[1], true, ok);
        dst->country_count[1] = src->country_count[1];
        /* fall through */
    case CTG_CRITERION_SINGLE_COUNTRY:
    case CTG_CRITERION_AT_LEAST_ONE_COUNTRY:
        dst->countries[0] = copy_strings(a, src->countries[0], src->country_count[0], true, ok);
        dst->country_count[0] = src->country_count[0];
        break;
    case CTG_CRITERION_PROPERTY:
        dst->property_key = ctg_arena_strdup_or_flag(a, src->property_key, ok);
        dst->property_values =
            copy_strings(a, src->property_values, src->property_value_count, false, ok);
        dst->property_value_count = src->property_value_count;
        dst->equipment_to_check = src->equipment_to_check;
        dst->side_to_check = src->side_to_check;
        break;
    case CTG_CRITERION_REGEX:
        dst->regex = ctg_arena_strdup_or_flag(a, src->regex, ok);
        break;
    default:
        break;
    }
}

/* `n` criteria copied into one arena block; NULL for none. */
static const ctg_criterion *copy_criteria(ctg_arena *a, const ctg_criterion *src, size_t n,
                                          bool *ok)
{
    ctg_criterion *dst;

    if (src == NULL || n == 0)
        return NULL;
    dst = ctg_arena_calloc(a, n, sizeof *dst);
    if (dst == NULL) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < n && *ok; i++)
        copy_criterion(a, &dst[i], &src[i], ok);
    return dst;
}

int ctg_list_set_criteria(ctg_list *list, const ctg_criteria *criteria)
{
    ctg_criteria copy = { 0 };
    bool ok = true;

    if (list == NULL || !ctg_criteria_valid(list->kind, criteria))
        return CTG_EINVAL;
    if (list->kind == CTG_LIST_INJECTION_CRITERION)
        copy.identifiable_type = criteria->identifiable_type;
    copy.country = copy_criteria(list->arena, criteria->country, 1, &ok);
    copy.nominal_voltage = copy_criteria(list->arena, criteria->nominal_voltage, 1, &ok);
    copy.properties =
        copy_criteria(list->arena, criteria->properties, criteria->property_count, &ok);
    copy.property_count = criteria->property_count;
    copy.regex = copy_criteria(list->arena, criteria->regex, 1, &ok);
    if (!ok)
        return CTG_ENOMEM;
    list->criteria = copy;
    return CTG_OK;
}
