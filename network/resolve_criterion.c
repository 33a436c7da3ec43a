/* SPDX-License-Identifier: MPL-2.0 */
/* Spec section 5: the six criterion lists. Every object of the scanned type, in enumeration
 * order, goes through country, nominal voltage, properties and regex (each only when present,
 * stopping at the first that rejects it); one that passes becomes one contingency named by its
 * id. A criterion that cannot be evaluated fails only when an object reaches it, as in
 * PowSyBl. */

#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "network/regex.h"
#include "network/resolve_int.h"
#include "network/table.h"

/* How a scanned type is placed, as the criteria see it. */
typedef enum group {
    G_INJECTION, /* GENERATOR, LOAD, BATTERY, SHUNT, SVC, BUSBAR_SECTION, BOUNDARY_LINE, station */
    G_SWITCH,
    G_CONVERTER, /* LINE_COMMUTATED_CONVERTER, VOLTAGE_SOURCE_CONVERTER (AC/DC, terminal 1) */
    G_LINE,
    G_TIE_LINE,
    G_HVDC_LINE,
    G_TWT,
    G_THREE_WT,
    G_BUS,
    G_OTHER
} group;

static group group_of(ctg_identifiable_type t)
{
    switch (t) {
    case CTG_IDENTIFIABLE_GENERATOR:
    case CTG_IDENTIFIABLE_LOAD:
    case CTG_IDENTIFIABLE_BATTERY:
    case CTG_IDENTIFIABLE_SHUNT_COMPENSATOR:
    case CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR:
    case CTG_IDENTIFIABLE_BUSBAR_SECTION:
    case CTG_IDENTIFIABLE_BOUNDARY_LINE:
    case CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION: return G_INJECTION;
    case CTG_IDENTIFIABLE_SWITCH: return G_SWITCH;
    case CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER:
    case CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER: return G_CONVERTER;
    case CTG_IDENTIFIABLE_LINE: return G_LINE;
    case CTG_IDENTIFIABLE_TIE_LINE: return G_TIE_LINE;
    case CTG_IDENTIFIABLE_HVDC_LINE: return G_HVDC_LINE;
    case CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER: return G_TWT;
    case CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER: return G_THREE_WT;
    case CTG_IDENTIFIABLE_BUS: return G_BUS;
    default: return G_OTHER;
    }
}

/* The regex of a regexCriterion, compiled when the first object reaches it. */
typedef struct lazy_regex {
    ctg_regex *re;
} lazy_regex;

/* A country is its two letters: NUL-terminated in a substation, not in the scan records. */
static const char *country_of_vl(const ctg_net_object *vl)
{
    if (vl == NULL || vl->substation == NULL || vl->substation->container == NULL)
        return NULL;
    return vl->substation->container->country;
}

static bool in_set(const char *s, const char *const *set, size_t n)
{
    for (size_t i = 0; s != NULL && i < n; i++)
        if (strcmp(s, set[i]) == 0)
            return true;
    return false;
}

/* Whether the two letters at `cc` (NULL: no country) are one of the `n` codes. A code of
 * another length never matches (each test stops at the first byte that differs). */
static bool country_in(const char *cc, const char *const *set, size_t n)
{
    for (size_t i = 0; cc != NULL && i < n; i++)
        if (set[i][0] == cc[0] && set[i][1] == cc[1] && set[i][2] == '\0')
            return true;
    return false;
}

/* SINGLE_COUNTRY on the country the scanned type is placed by (table 5.3; NULL: none). */
static bool single_country_of(const ctg_criterion *c, const char *country)
{
    return c->country_count[0] == 0 || country_in(country, c->countries[0], c->country_count[0]);
}

static bool single_country(const ctg_criterion *c, const ctg_net_object *obj)
{
    const char *country = NULL;
    group g = group_of(obj->type);

    if (g == G_INJECTION || g == G_SWITCH || g == G_CONVERTER)
        country = country_of_vl(obj->voltage_levels[0]);
    else if ((g == G_TWT || g == G_THREE_WT) && obj->substation != NULL)
        country = obj->substation->container->country;
    return single_country_of(c, country);
}

/* TWO_COUNTRY on the countries of sides 1 and 2 (NULL: none): symmetric but for the
 * positional check of absent countries (5.3). */
static bool two_country_of(const ctg_criterion *c, const char *a1, const char *a2)
{
    const char *const *c1 = c->countries[0], *const *c2 = c->countries[1];
    size_t n1 = c->country_count[0], n2 = c->country_count[1];

    if ((n1 > 0 && a1 == NULL) || (n2 > 0 && a2 == NULL))
        return false;
    if (n1 == 0 && n2 == 0)
        return true;
    if (n1 == 0)
        return country_in(a1, c2, n2) || country_in(a2, c2, n2);
    if (n2 == 0)
        return country_in(a1, c1, n1) || country_in(a2, c1, n1);
    return (country_in(a1, c1, n1) && country_in(a2, c2, n2)) ||
           (country_in(a2, c1, n1) && country_in(a1, c2, n2));
}

static bool two_country(const ctg_criterion *c, const ctg_net_object *obj)
{
    group g = group_of(obj->type);

    if (g != G_LINE && g != G_TIE_LINE && g != G_HVDC_LINE)
        return false;
    return two_country_of(c, country_of_vl(obj->voltage_levels[0]),
                          country_of_vl(obj->voltage_levels[1]));
}

/* `v`: a nominal voltage, NaN for an unknown one or a missing voltage level. */
static bool in_interval(const ctg_voltage_interval *iv, double v)
{
    if (isnan(v) || v < 0)
        return false;
    if (iv->has_low && !(v > iv->low || (iv->low_closed && v == iv->low)))
        return false;
    if (iv->has_high && !(v < iv->high || (iv->high_closed && v == iv->high)))
        return false;
    return true;
}

/* Every interval that is set contains at least one of the `n` voltages. */
static bool intervals_met(const ctg_criterion *c, const double *v, size_t n)
{
    for (int k = 0; k < 3; k++) {
        bool met = false;

        if (!c->intervals[k].set)
            continue;
        for (size_t s = 0; s < n && !met; s++)
            met = in_interval(&c->intervals[k], v[s]);
        if (!met)
            return false;
    }
    return true;
}

/* Nominal-voltage criteria (5.4) on the voltages of an object of group `g`'s levels (v[0] for
 * a single one): SINGLE looks at side 1 or the one voltage level. */
static bool nominal_voltage_of(const ctg_criterion *c, group g, const double v[3])
{
    switch (c->type) {
    case CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE:
        if (g == G_TWT || g == G_THREE_WT || g == G_OTHER)
            return false;
        return c->intervals[0].set && in_interval(&c->intervals[0], v[0]);
    case CTG_CRITERION_TWO_NOMINAL_VOLTAGE:
        if (g != G_LINE && g != G_TIE_LINE && g != G_TWT && g != G_HVDC_LINE)
            return false;
        return intervals_met(c, v, 2);
    default: /* THREE_NOMINAL_VOLTAGE */
        return g == G_THREE_WT && intervals_met(c, v, 3);
    }
}

static bool nominal_voltage(const ctg_criterion *c, const ctg_net_object *obj)
{
    double v[3];

    for (int s = 0; s < 3; s++) {
        const ctg_net_object *vl = obj->voltage_levels[s];

        v[s] = vl != NULL && vl->container != NULL ? vl->container->nominal_v : NAN;
    }
    return nominal_voltage_of(c, group_of(obj->type), v);
}

/* The property test on one object (5.5): its value is one of the accepted ones. */
static bool has_property(const ctg_criterion *c, const ctg_net_object *o)
{
    const char *v = o != NULL ? ctg_net_object_property(o, c->property_key) : NULL;

    return in_set(v, c->property_values, c->property_value_count);
}

static bool property_on(const ctg_criterion *c, const ctg_net_object *vl)
{
    if (vl == NULL)
        return false;
    return has_property(c, c->equipment_to_check == CTG_CHECK_VOLTAGE_LEVEL ? vl : vl->substation);
}

/* PROPERTY with VOLTAGE_LEVEL or SUBSTATION on a branch (2 sides) or a 3WT (3 legs). */
static int property_sides(rs_ctx *ctx, const ctg_criterion *c, const ctg_net_object *obj,
                          size_t sides, bool *pass)
{
    size_t met = 0, need;

    if (c->side_to_check == CTG_SIDE_NONE)
        return ctg_rs_fail(ctx, "property criterion on \"%.64s\": sideToCheck is required for "
                                "%s", obj->id, ctg_identifiable_type_name(obj->type));
    if (c->side_to_check == CTG_SIDE_ALL_THREE && sides == 2)
        return ctg_rs_fail(ctx, "property criterion on \"%.64s\": only ONE or BOTH sides can be "
                                "checked on %s", obj->id, ctg_identifiable_type_name(obj->type));
    need = c->side_to_check == CTG_SIDE_ONE ? 1 : c->side_to_check == CTG_SIDE_BOTH ? 2 : 3;
    for (size_t s = 0; s < sides; s++)
        met += property_on(c, obj->voltage_levels[s]);
    *pass = met >= need;
    return CTG_OK;
}

static int property(rs_ctx *ctx, const ctg_criterion *c, const ctg_net_object *obj, bool *pass)
{
    group g = group_of(obj->type);

    if (c->type != CTG_CRITERION_PROPERTY)
        return ctg_rs_fail(ctx, "%s criterion among the property criteria, reached by \"%.64s\"",
                           ctg_criterion_type_name(c->type), obj->id);
    if (c->equipment_to_check == CTG_CHECK_SELF) {
        *pass = has_property(c, obj);
        return CTG_OK;
    }
    if (g == G_INJECTION || g == G_SWITCH || g == G_CONVERTER) {
        *pass = property_on(c, obj->voltage_levels[0]);
        return CTG_OK;
    }
    if (g == G_LINE || g == G_TWT || g == G_HVDC_LINE)
        return property_sides(ctx, c, obj, 2, pass);
    if (g == G_THREE_WT)
        return property_sides(ctx, c, obj, 3, pass);
    return ctg_rs_fail(ctx, "property criterion on \"%.64s\": the voltage level or substation "
                            "of a %s cannot be checked", obj->id,
                       ctg_identifiable_type_name(obj->type));
}

static int regex(rs_ctx *ctx, const ctg_criterion *c, const ctg_net_object *obj,
                 lazy_regex *lr, bool *pass)
{
    char why[160];

    if (c->type != CTG_CRITERION_REGEX || c->regex == NULL)
        return ctg_rs_fail(ctx, "regex criterion without a regex, reached by \"%.64s\"", obj->id);
    if (lr->re == NULL) {
        lr->re = ctg_regex_compile(c->regex, strlen(c->regex), ctx->alloc, why, sizeof why);
        if (lr->re == NULL && strcmp(why, "out of memory") == 0)
            return ctg_rs_nomem(ctx);
        if (lr->re == NULL)
            return ctg_rs_fail(ctx, "invalid regex \"%.48s\" (reached by \"%.48s\"): %s",
                               c->regex, obj->id, why);
    }
    *pass = ctg_regex_find(lr->re, obj->id, strlen(obj->id));
    return CTG_OK;
}

/* Steps 1 and 2 of the pipeline; a criterion of a type no slot takes fails when reached. */
static int country_and_voltage(rs_ctx *ctx, const ctg_criteria *cr, const ctg_net_object *obj,
                               bool *pass)
{
    const ctg_criterion *c = cr->country, *v = cr->nominal_voltage;
    size_t mark;
    int rc = CTG_OK;

    if (c != NULL && c->type != CTG_CRITERION_SINGLE_COUNTRY &&
        c->type != CTG_CRITERION_TWO_COUNTRY) {
        mark = ctg_rs_path_push(ctx, "countryCriterion");
        rc = ctg_rs_fail(ctx, "a %s criterion cannot select contingencies (reached by \"%.64s\")",
                         ctg_criterion_type_name(c->type), obj->id);
        ctg_rs_path_pop(ctx, mark);
        return rc;
    }
    *pass = c == NULL || (c->type == CTG_CRITERION_SINGLE_COUNTRY ? single_country(c, obj)
                                                                  : two_country(c, obj));
    if (!*pass || v == NULL)
        return CTG_OK;
    if (v->type != CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE &&
        v->type != CTG_CRITERION_TWO_NOMINAL_VOLTAGE &&
        v->type != CTG_CRITERION_THREE_NOMINAL_VOLTAGE) {
        mark = ctg_rs_path_push(ctx, "nominalVoltageCriterion");
        rc = ctg_rs_fail(ctx, "a %s criterion cannot select contingencies (reached by \"%.64s\")",
                         ctg_criterion_type_name(v->type), obj->id);
        ctg_rs_path_pop(ctx, mark);
        return rc;
    }
    *pass = nominal_voltage(v, obj);
    return CTG_OK;
}

/* The whole pipeline on one object: *pass when every present criterion accepts it. */
static int filter(rs_ctx *ctx, const ctg_criteria *cr, const ctg_net_object *obj,
                  lazy_regex *lr, bool *pass)
{
    int rc = country_and_voltage(ctx, cr, obj, pass);
    size_t mark;

    for (size_t i = 0; rc == CTG_OK && *pass && i < cr->property_count; i++) {
        mark = ctg_rs_path_push(ctx, "propertyCriteria");
        ctg_rs_path_push_index(ctx, i);
        rc = property(ctx, &cr->properties[i], obj, pass);
        ctg_rs_path_pop(ctx, mark);
    }
    if (rc == CTG_OK && *pass && cr->regex != NULL) {
        mark = ctg_rs_path_push(ctx, "regexCriterion");
        rc = regex(ctx, cr->regex, obj, lr, pass);
        ctg_rs_path_pop(ctx, mark);
    }
    return rc;
}

int ctg_rs_criteria_accept(rs_ctx *ctx, const ctg_criteria *cr, const ctg_net_object *obj,
                           struct ctg_regex **re, bool *pass)
{
    lazy_regex lr = { *re };
    int rc = filter(ctx, cr, obj, &lr, pass);

    *re = lr.re;
    return rc;
}

static ctg_identifiable_type scanned_type(ctg_list_kind kind, const ctg_criteria *cr)
{
    switch (kind) {
    case CTG_LIST_LINE_CRITERION: return CTG_IDENTIFIABLE_LINE;
    case CTG_LIST_HVDC_CRITERION: return CTG_IDENTIFIABLE_HVDC_LINE;
    case CTG_LIST_TIE_LINE_CRITERION: return CTG_IDENTIFIABLE_TIE_LINE;
    case CTG_LIST_TWT_CRITERION: return CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER;
    case CTG_LIST_THREE_WT_CRITERION: return CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER;
    default: return cr->identifiable_type;
    }
}

/* ---- scans on the compact scan data ------------------------------------------------------ */

/* What the scan data decides about an object: rejected, passed (the regex aside), or left to
 * the object's own path (filter), which also gives every error with its message. A scan
 * rejects from the records only where filter would reject without an error, so the two agree. */
typedef enum verdict { REJECT, PASS, ASK } verdict;

/* Property criteria decided from memos (one byte per voltage level or substation: 0 not yet
 * known, 1 rejected, 2 accepted); those after them are left to filter. */
#define SCAN_MEMOS 4

/* A property criterion on the scan data's copies of the containers' properties: its key and
 * short values as the network keeps them (scan_data.h), so that a property is tested by
 * comparing pointers, in arrays read in order. */
typedef struct prop_test {
    const ctg_criterion *c;
    const char *key;               /* NULL: no property of the network has this key */
    const char **values;           /* the network's copy of each value; NULL: none, or long */
    bool long_values;              /* one is longer than CTG_NET_SCAN_SHORT: compared as text */
    const ctg_net_prop_run *runs;  /* of the voltage levels or the substations */
    const ctg_net_property *items;
} prop_test;

typedef struct fast_scan {
    const ctg_network *net;
    const ctg_allocator *alloc;
    const ctg_net_vl_scan *vls;
    const uint32_t *levels; /* stride per object: its levels, then a transformer's substation */
    size_t stride, nlev;
    group g;
    bool need_vls; /* whether judging reads the voltage levels' records */
    prop_test test[SCAN_MEMOS];
    uint8_t *memo[SCAN_MEMOS];
    bool per_vl[SCAN_MEMOS]; /* the memo is indexed by voltage level, whatever it checks */
    size_t memo_len[SCAN_MEMOS], props; /* props: the criteria with a memo */
} fast_scan;

static const char *level_country(const fast_scan *f, uint32_t lv)
{
    return lv != CTG_NET_SCAN_NONE && f->vls[lv].country[0] != '\0' ? f->vls[lv].country : NULL;
}

/* SINGLE_COUNTRY's country (5.3). A transformer's is its substation's: that of its first
 * level when the level stands in it (the builders make sure), else asked of the object. */
static verdict fast_single_country(const fast_scan *f, const ctg_criterion *c, const uint32_t *lv)
{
    const char *country = NULL;

    if (f->g == G_INJECTION || f->g == G_SWITCH || f->g == G_CONVERTER) {
        country = level_country(f, lv[0]);
    } else if ((f->g == G_TWT || f->g == G_THREE_WT) && lv[f->nlev] != CTG_NET_SCAN_NONE) {
        if (lv[0] == CTG_NET_SCAN_NONE || f->vls[lv[0]].substation != lv[f->nlev])
            return ASK;
        country = level_country(f, lv[0]);
    }
    return single_country_of(c, country) ? PASS : REJECT;
}

static verdict fast_country(const fast_scan *f, const ctg_criterion *c, const uint32_t *lv)
{
    if (c->type == CTG_CRITERION_SINGLE_COUNTRY)
        return fast_single_country(f, c, lv);
    if (f->g != G_LINE && f->g != G_TIE_LINE && f->g != G_HVDC_LINE)
        return REJECT;
    return two_country_of(c, level_country(f, lv[0]), level_country(f, lv[1])) ? PASS : REJECT;
}

static bool fast_voltage(const fast_scan *f, const ctg_criterion *c, const uint32_t *lv)
{
    double v[3] = { NAN, NAN, NAN };

    for (size_t s = 0; s < f->nlev; s++)
        if (lv[s] != CTG_NET_SCAN_NONE)
            v[s] = f->vls[lv[s]].nominal_v;
    return nominal_voltage_of(c, f->g, v);
}

/* Whether `v` (a property value of the network) is one of the accepted ones. */
static bool test_value(const prop_test *pt, const char *v)
{
    for (size_t j = 0; j < pt->c->property_value_count; j++)
        if (pt->values[j] == v)
            return true;
    return pt->long_values && in_set(v, pt->c->property_values, pt->c->property_value_count);
}

/* has_property on the `i`-th voltage level or substation: the first property with the key
 * decides, as in ctg_net_object_property. */
static bool test_run(const prop_test *pt, size_t i)
{
    const ctg_net_prop_run *r = pt->runs ? &pt->runs[i] : NULL;

    if (r == NULL || r->count == 0 || pt->key == NULL)
        return false;
    for (const ctg_net_property *p = pt->items + r->first; p < pt->items + r->first + r->count; p++)
        if (p->key == pt->key)
            return test_value(pt, p->value);
    return false;
}

/* property_on (5.5) of the k-th property criterion on the voltage level `lv`, from its memo. */
static bool fast_property_on(fast_scan *f, size_t k, const ctg_criterion *c, uint32_t lv)
{
    bool on_vl = f->per_vl[k] || c->equipment_to_check == CTG_CHECK_VOLTAGE_LEVEL;
    uint32_t key = lv == CTG_NET_SCAN_NONE ? lv : on_vl ? lv : f->vls[lv].substation;

    if (key == CTG_NET_SCAN_NONE)
        return false;
    if (f->memo[k][key] == 0)
        f->memo[k][key] = test_run(&f->test[k], key) ? 2 : 1;
    return f->memo[k][key] == 2;
}

/* As property and property_sides, for the cases that need no message. */
static verdict fast_property(fast_scan *f, size_t k, const ctg_criterion *c, const uint32_t *lv)
{
    size_t sides, met = 0, need;

    if (f->g == G_INJECTION || f->g == G_SWITCH || f->g == G_CONVERTER)
        return fast_property_on(f, k, c, lv[0]) ? PASS : REJECT;
    if (f->g == G_LINE || f->g == G_TWT || f->g == G_HVDC_LINE)
        sides = 2;
    else if (f->g == G_THREE_WT)
        sides = 3;
    else
        return ASK;
    if (c->side_to_check == CTG_SIDE_NONE || (c->side_to_check == CTG_SIDE_ALL_THREE && sides == 2))
        return ASK;
    need = c->side_to_check == CTG_SIDE_ONE ? 1 : c->side_to_check == CTG_SIDE_BOTH ? 2 : 3;
    for (size_t s = 0; s < sides; s++)
        met += fast_property_on(f, k, c, lv[s]);
    return met >= need ? PASS : REJECT;
}

/* The pipeline of filter on the records of object `i`, in filter's order. */
static verdict judge(fast_scan *f, const ctg_criteria *cr, size_t i)
{
    const uint32_t *lv = f->levels + i * f->stride;
    verdict v = cr->country != NULL ? fast_country(f, cr->country, lv) : PASS;

    if (v != PASS)
        return v;
    if (cr->nominal_voltage != NULL && !fast_voltage(f, cr->nominal_voltage, lv))
        return REJECT;
    for (size_t k = 0; k < cr->property_count; k++) {
        v = k < f->props ? fast_property(f, k, &cr->properties[k], lv) : ASK;
        if (v != PASS)
            return v;
    }
    return PASS;
}

/* The network's copies of a property criterion's key and values (NULL where it has none: no
 * property can match them), and where the properties its memo checks are. */
static int test_begin(rs_ctx *ctx, prop_test *pt, const ctg_criterion *c, ctg_identifiable_type t)
{
    size_t n = c->property_value_count, bytes;
    const char *key = c->property_key;

    pt->c = c;
    pt->key = key ? ctg_net_scan_interned(ctx->net, key, strlen(key)) : NULL;
    pt->items = ctg_net_scan_properties(ctx->net, t, &pt->runs);
    if (!ctg_size_mul(n > 0 ? n : 1, sizeof *pt->values, &bytes))
        return ctg_rs_nomem(ctx);
    pt->values = ctg_mem_alloc(ctx->alloc, bytes);
    if (pt->values == NULL)
        return ctg_rs_nomem(ctx);
    for (size_t j = 0; j < n; j++) {
        size_t len = strlen(c->property_values[j]);

        pt->long_values |= len > CTG_NET_SCAN_SHORT;
        pt->values[j] = len > CTG_NET_SCAN_SHORT
                            ? NULL
                            : ctg_net_scan_interned(ctx->net, c->property_values[j], len);
    }
    return CTG_OK;
}

/* Memo `k` of a SUBSTATION criterion, filled, made one of the voltage levels: a scan then
 * reads one byte a level, in a small array, instead of the level's record to find its
 * substation (at random in an array the size of the levels' records). */
static int memo_per_vl(rs_ctx *ctx, fast_scan *f, size_t k)
{
    size_t n = ctg_network_count(ctx->net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL);
    uint8_t *m = ctg_mem_alloc(ctx->alloc, n > 0 ? n : 1);

    if (m == NULL)
        return ctg_rs_nomem(ctx);
    for (size_t v = 0; v < n; v++) {
        uint32_t sub = f->vls[v].substation;

        m[v] = sub == CTG_NET_SCAN_NONE ? 1 : f->memo[k][sub];
    }
    ctg_mem_release(ctx->alloc, f->memo[k], f->memo_len[k]);
    f->memo[k] = m;
    f->memo_len[k] = n > 0 ? n : 1;
    return CTG_OK;
}

/* A memo for each leading property criterion that checks a voltage level or substation;
 * filled at once when the scan's `objects` levels outnumber its entries, else on first use;
 * a substations' one filled at once is made one of the voltage levels when they outnumber
 * those too. */
static int fast_memos(rs_ctx *ctx, fast_scan *f, const ctg_criteria *cr, size_t objects)
{
    size_t vls = ctg_network_count(ctx->net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL);
    int rc = CTG_OK;

    for (size_t k = 0; rc == CTG_OK && k < cr->property_count && k < SCAN_MEMOS; k++) {
        const ctg_criterion *c = &cr->properties[k];
        ctg_identifiable_type t;
        size_t n;

        if (c->type != CTG_CRITERION_PROPERTY || c->equipment_to_check == CTG_CHECK_SELF)
            break;
        t = c->equipment_to_check == CTG_CHECK_VOLTAGE_LEVEL ? CTG_IDENTIFIABLE_VOLTAGE_LEVEL
                                                              : CTG_IDENTIFIABLE_SUBSTATION;
        n = ctg_network_count(ctx->net, t);
        f->memo[k] = ctg_mem_alloc(ctx->alloc, n > 0 ? n : 1);
        if (f->memo[k] == NULL)
            return ctg_rs_nomem(ctx);
        memset(f->memo[k], 0, n > 0 ? n : 1);
        f->memo_len[k] = n > 0 ? n : 1;
        f->props = k + 1;
        rc = test_begin(ctx, &f->test[k], c, t);
        if (rc != CTG_OK || objects * f->nlev < n)
            continue;
        for (size_t i = 0; i < n; i++)
            f->memo[k][i] = test_run(&f->test[k], i) ? 2 : 1;
        f->per_vl[k] = t == CTG_IDENTIFIABLE_VOLTAGE_LEVEL;
        if (!f->per_vl[k] && objects * f->nlev >= vls) {
            rc = memo_per_vl(ctx, f, k);
            f->per_vl[k] = rc == CTG_OK;
        }
    }
    return rc;
}

/* Whether the records can decide: the type has them, and the country and voltage criteria are
 * of types filter takes (else it fails at the first object, and must be the one to say so). */
static int fast_begin(rs_ctx *ctx, fast_scan *f, const ctg_criteria *cr,
                      ctg_identifiable_type type, size_t objects, bool *usable)
{
    const ctg_criterion *c = cr->country, *v = cr->nominal_voltage;

    memset(f, 0, sizeof *f);
    f->net = ctx->net;
    f->alloc = ctx->alloc;
    f->g = group_of(type);
    f->levels = ctg_net_scan_levels(ctx->net, type, &f->stride);
    f->vls = ctg_net_scan_voltage_levels(ctx->net);
    *usable = f->levels != NULL && f->g != G_OTHER && f->g != G_BUS &&
              (c == NULL || c->type == CTG_CRITERION_SINGLE_COUNTRY ||
               c->type == CTG_CRITERION_TWO_COUNTRY) &&
              (v == NULL || v->type == CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE ||
               v->type == CTG_CRITERION_TWO_NOMINAL_VOLTAGE ||
               v->type == CTG_CRITERION_THREE_NOMINAL_VOLTAGE);
    if (!*usable)
        return CTG_OK;
    f->nlev = f->stride - (f->g == G_TWT || f->g == G_THREE_WT);
    int rc = fast_memos(ctx, f, cr, objects);
    f->need_vls = c != NULL || v != NULL;
    for (size_t k = 0; k < f->props; k++)
        f->need_vls = f->need_vls || !f->per_vl[k];
    return rc;
}

static void fast_end(fast_scan *f)
{
    for (size_t k = 0; k < f->props; k++) {
        size_t n = f->test[k].c ? f->test[k].c->property_value_count : 0;

        ctg_mem_release(f->alloc, f->memo[k], f->memo_len[k]);
        ctg_mem_release(f->alloc, (void *)f->test[k].values, (n > 0 ? n : 1) * sizeof(char *));
    }
}

/* filter's last step alone, for an object the records passed. */
static int regex_step(rs_ctx *ctx, const ctg_criteria *cr, const ctg_net_object *obj,
                      lazy_regex *lr, bool *pass)
{
    size_t mark;
    int rc;

    *pass = true;
    if (cr->regex == NULL)
        return CTG_OK;
    mark = ctg_rs_path_push(ctx, "regexCriterion");
    rc = regex(ctx, cr->regex, obj, lr, pass);
    ctg_rs_path_pop(ctx, mark);
    return rc;
}

/* One object of the scan whose records did not reject it (v: PASS or ASK). */
static int scan_one(rs_ctx *ctx, const ctg_criteria *cr, const ctg_net_object *obj, verdict v,
                    lazy_regex *lr, bool injection)
{
    bool pass = false;
    int rc = v == ASK ? filter(ctx, cr, obj, lr, &pass) : regex_step(ctx, cr, obj, lr, &pass);

    if (rc == CTG_OK && pass) {
        /* What cannot be an element is the identifiableType's fault. */
        size_t mark = injection ? ctg_rs_path_push(ctx, "identifiableType") : ctx->path_len;

        rc = ctg_rs_emit_one(ctx, obj, obj->id);
        ctg_rs_path_pop(ctx, mark);
    }
    return rc;
}

/* Objects judged at a time: their voltage levels' records are prefetched for the chunk. */
#define CHUNK 32

/* The objects the records let through are scattered in memory, each on a page of its own on a
 * big network: they go in groups of GROUP, and when a group is complete its objects are
 * prefetched together (so that their page walks and misses overlap instead of stalling one
 * after another), the ids of the group before are, and the group before that is handled. */
#define GROUP 8
#define RING (4 * GROUP)

typedef struct scan_state {
    const ctg_criteria *cr;
    fast_scan f;
    bool usable, injection;
    ctg_identifiable_type type;
    lazy_regex lr;
    /* Let through, not handled yet: [head, tail) mod RING; objs set once the group is full. */
    size_t index[RING];
    const ctg_net_object *objs[RING];
    verdict vs[RING];
    size_t head, tail;
} scan_state;

/* The voltage-level records objects [first, first + n) name: at random in an array that
 * outgrows the cache on a big network, so they are fetched for the chunk at once. */
static void prefetch_records(const fast_scan *f, size_t first, size_t n)
{
    const uint32_t *lv = f->levels + first * f->stride;

    for (size_t k = 0; k < n * f->stride; k++)
        if (lv[k] != CTG_NET_SCAN_NONE)
            CTG_RS_PREFETCH(&f->vls[lv[k]]);
}

/* The objects of entries [from, to), located and prefetched; the ids of those before them
 * that are not handled yet, prefetched. */
static void prefetch_group(rs_ctx *ctx, scan_state *st, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++) {
        st->objs[k % RING] = ctg_network_object_at(ctx->net, st->type, st->index[k % RING]);
        CTG_RS_PREFETCH(st->objs[k % RING]);
    }
    for (size_t k = from >= st->head + GROUP ? from - GROUP : st->head; k < from; k++)
        CTG_RS_PREFETCH(st->objs[k % RING]->id);
}

/* Handles the entries before `to`. */
static int handle_to(rs_ctx *ctx, scan_state *st, size_t to)
{
    int rc = CTG_OK;

    for (; rc == CTG_OK && st->head < to; st->head++) {
        size_t k = st->head % RING;

        rc = scan_one(ctx, st->cr, st->objs[k], st->vs[k], &st->lr, st->injection);
    }
    return rc;
}

static int let_through(rs_ctx *ctx, scan_state *st, size_t i, verdict v)
{
    st->index[st->tail % RING] = i;
    st->vs[st->tail++ % RING] = v;
    if (st->tail % GROUP != 0)
        return CTG_OK;
    prefetch_group(ctx, st, st->tail - GROUP, st->tail);
    return st->tail >= 3 * GROUP ? handle_to(ctx, st, st->tail - 2 * GROUP) : CTG_OK;
}

/* Objects [first, first + n) in order; judging has no effect but the memos, so judging ahead
 * of an object that fails changes nothing. */
static int scan_chunk(rs_ctx *ctx, scan_state *st, size_t first, size_t n)
{
    int rc = CTG_OK;

    if (st->usable && st->f.need_vls)
        prefetch_records(&st->f, first, n);
    for (size_t i = first; rc == CTG_OK && i < first + n; i++) {
        verdict v = st->usable ? judge(&st->f, st->cr, i) : ASK;

        if (v != REJECT)
            rc = let_through(ctx, st, i, v);
    }
    return rc;
}

/* The objects still let through and not handled, in order: the last group is not full. */
static int drain(rs_ctx *ctx, scan_state *st)
{
    size_t partial = st->tail - st->tail % GROUP;

    prefetch_group(ctx, st, partial, st->tail);
    for (size_t k = partial; k < st->tail; k++)
        CTG_RS_PREFETCH(st->objs[k % RING]->id);
    return handle_to(ctx, st, st->tail);
}

static int scan(rs_ctx *ctx, const ctg_criteria *cr, ctg_identifiable_type type, bool injection)
{
    size_t n = ctg_network_count(ctx->net, type);
    scan_state st;
    int rc;

    memset(&st, 0, sizeof st);
    st.cr = cr;
    st.injection = injection;
    st.type = type;
    rc = n > 0 ? fast_begin(ctx, &st.f, cr, type, n, &st.usable) : CTG_OK;
    for (size_t i = 0; rc == CTG_OK && i < n; i += CHUNK)
        rc = scan_chunk(ctx, &st, i, n - i < CHUNK ? n - i : CHUNK);
    if (rc == CTG_OK)
        rc = drain(ctx, &st);
    if (n > 0)
        fast_end(&st.f);
    ctg_regex_free(st.lr.re);
    return rc;
}

int ctg_rs_criterion(rs_ctx *ctx, const ctg_list *list)
{
    const ctg_criteria *cr = ctg_list_criteria(list);
    bool injection = ctg_list_get_kind(list) == CTG_LIST_INJECTION_CRITERION;
    ctg_identifiable_type type;

    if (cr == NULL)
        return ctg_error_set(ctx->err, CTG_EINVAL, NULL, ctx->path, "a criterion list without "
                                                                    "criteria");
    type = scanned_type(ctg_list_get_kind(list), cr);
    if (type == CTG_IDENTIFIABLE_BUS || type == CTG_IDENTIFIABLE_DC_BUS) {
        size_t mark = ctg_rs_path_push(ctx, "identifiableType");
        int rc = ctg_rs_fail(ctx, "objects of type %s cannot be enumerated",
                             ctg_identifiable_type_name(type));

        ctg_rs_path_pop(ctx, mark);
        return rc;
    }
    return scan(ctx, cr, type, injection);
}
