/* SPDX-License-Identifier: MPL-2.0 */
/* The selection of a generation: checked once, turned into one criterion set per selected
 * type (the criteria of the equivalent criterion list, spec 5.1), then every object of each
 * type in enumeration order through the evaluation's own filter (ctg_rs_criteria_accept), so
 * that a selection and its criterion list cannot disagree. */

#include <math.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "network/generate_int.h"

/* The criterion list kind that scans `t`, and whether `t` may be selected at all: it can be
 * enumerated and become an element (spec 3, 5.1). */
static bool kind_of(ctg_identifiable_type t, ctg_list_kind *kind)
{
    switch (t) {
    case CTG_IDENTIFIABLE_LINE: *kind = CTG_LIST_LINE_CRITERION; return true;
    case CTG_IDENTIFIABLE_TIE_LINE: *kind = CTG_LIST_TIE_LINE_CRITERION; return true;
    case CTG_IDENTIFIABLE_HVDC_LINE: *kind = CTG_LIST_HVDC_CRITERION; return true;
    case CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER: *kind = CTG_LIST_TWT_CRITERION; return true;
    case CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER:
        *kind = CTG_LIST_THREE_WT_CRITERION;
        return true;
    case CTG_IDENTIFIABLE_GENERATOR:
    case CTG_IDENTIFIABLE_LOAD:
    case CTG_IDENTIFIABLE_BATTERY:
    case CTG_IDENTIFIABLE_SHUNT_COMPENSATOR:
    case CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR:
    case CTG_IDENTIFIABLE_BUSBAR_SECTION:
    case CTG_IDENTIFIABLE_SWITCH:
    case CTG_IDENTIFIABLE_BOUNDARY_LINE:
    case CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION:
    case CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER:
    case CTG_IDENTIFIABLE_DC_LINE:
    case CTG_IDENTIFIABLE_DC_GROUND:
    case CTG_IDENTIFIABLE_DC_NODE: *kind = CTG_LIST_INJECTION_CRITERION; return true;
    default: return false;
    }
}

/* Spec 5.1 (the format's pairings): the country and nominal-voltage criteria of each kind. */
static void slot_types(ctg_list_kind kind, ctg_criterion_type *country, ctg_criterion_type *volt)
{
    bool two_country = kind == CTG_LIST_LINE_CRITERION || kind == CTG_LIST_HVDC_CRITERION ||
                       kind == CTG_LIST_TIE_LINE_CRITERION;

    *country = two_country ? CTG_CRITERION_TWO_COUNTRY : CTG_CRITERION_SINGLE_COUNTRY;
    if (kind == CTG_LIST_THREE_WT_CRITERION)
        *volt = CTG_CRITERION_THREE_NOMINAL_VOLTAGE;
    else if (kind == CTG_LIST_INJECTION_CRITERION || kind == CTG_LIST_TIE_LINE_CRITERION)
        *volt = CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE;
    else
        *volt = CTG_CRITERION_TWO_NOMINAL_VOLTAGE;
}

static int bad(gen_ctx *g, const char *fmt, const char *what)
{
    return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", fmt, what);
}

static int check_countries(gen_ctx *g, const char *const *c, size_t n)
{
    if (n > 0 && c == NULL)
        return bad(g, "%s: NULL country array", "selection");
    for (size_t i = 0; i < n; i++)
        if (c[i] == NULL || !ctg_country_is_valid(c[i], strlen(c[i])))
            return bad(g, "selection: \"%.8s\" is not a country code", c[i] ? c[i] : "(null)");
    return CTG_OK;
}

/* An interval as the list reader would take it: finite non-negative bounds, low <= high, a
 * point only when both ends are closed. */
static int check_interval(gen_ctx *g, const ctg_voltage_interval *iv)
{
    double low = iv->has_low ? iv->low : 0, high = iv->has_high ? iv->high : INFINITY;

    if (!iv->set)
        return CTG_OK;
    if (!iv->has_low && !iv->has_high)
        return bad(g, "%s: a nominal-voltage range without bounds", "selection");
    if ((iv->has_low && !(isfinite(low) && low >= 0)) ||
        (iv->has_high && !(isfinite(high) && high >= 0)) || low > high ||
        (low == high && !(iv->low_closed && iv->high_closed)))
        return bad(g, "%s: an empty or invalid nominal-voltage range", "selection");
    return CTG_OK;
}

static int check_filters(gen_ctx *g, const ctg_gen_selection *s)
{
    int rc = check_countries(g, s->countries, s->country_count);

    if (rc == CTG_OK)
        rc = check_countries(g, s->countries2, s->country2_count);
    for (int k = 0; rc == CTG_OK && k < 3; k++)
        rc = check_interval(g, &s->nominal_v[k]);
    if (rc == CTG_OK && s->property_count > 0 && s->properties == NULL)
        return bad(g, "%s: NULL property array", "selection");
    for (size_t i = 0; rc == CTG_OK && i < s->property_count; i++)
        if (s->properties[i].key == NULL || s->properties[i].key[0] == '\0' ||
            s->properties[i].value == NULL)
            return bad(g, "%s: a property without key or value", "selection");
    return rc;
}

/* The country criterion of one type: SINGLE_COUNTRY takes no side-2 countries. */
static int type_country(gen_ctx *g, gen_type *t, ctg_criterion_type ct)
{
    const ctg_gen_selection *s = g->sel;

    if (s->country_count == 0 && s->country2_count == 0)
        return CTG_OK;
    if (ct == CTG_CRITERION_SINGLE_COUNTRY && s->country2_count > 0)
        return bad(g, "selection: side-2 countries do not apply to %s",
                   ctg_identifiable_type_name(t->type));
    t->country.type = ct;
    t->country.countries[0] = s->countries;
    t->country.country_count[0] = s->country_count;
    t->country.countries[1] = s->countries2;
    t->country.country_count[1] = s->country2_count;
    t->cr.country = &t->country;
    return CTG_OK;
}

/* The nominal-voltage criterion of one type: as many ranges as its criterion has intervals. */
static int type_voltage(gen_ctx *g, gen_type *t, ctg_criterion_type vt)
{
    const ctg_voltage_interval *iv = g->sel->nominal_v;
    int n = vt == CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE ? 1
            : vt == CTG_CRITERION_TWO_NOMINAL_VOLTAGE  ? 2
                                                       : 3;

    if (!iv[0].set && !iv[1].set && !iv[2].set)
        return CTG_OK;
    for (int k = n; k < 3; k++)
        if (iv[k].set)
            return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "",
                                 "selection: a side-%d nominal-voltage range does not apply "
                                 "to %s", k + 1, ctg_identifiable_type_name(t->type));
    /* A single-voltage type has its side-1 range here; a two- or three-range type may lack
     * any of them: a missing interval is ignored, as in PowSyBl. */
    t->voltage.type = vt;
    memcpy(t->voltage.intervals, iv, sizeof t->voltage.intervals);
    t->cr.nominal_voltage = &t->voltage;
    return CTG_OK;
}

static int setup_type(gen_ctx *g, gen_type *t, ctg_identifiable_type type)
{
    ctg_criterion_type ct, vt;
    int rc;

    memset(t, 0, sizeof *t);
    t->type = type;
    if ((unsigned)type >= CTG_IDENTIFIABLE_TYPE_COUNT || !kind_of(type, &t->kind))
        return bad(g, "selection: %s cannot be selected (not an enumerable contingency element)",
                   ctg_identifiable_type_name(type) ? ctg_identifiable_type_name(type) : "?");
    for (size_t i = 0; i < (size_t)(t - g->types); i++)
        if (g->types[i].type == type)
            return bad(g, "selection: %s is selected twice", ctg_identifiable_type_name(type));
    slot_types(t->kind, &ct, &vt);
    rc = type_country(g, t, ct);
    if (rc == CTG_OK)
        rc = type_voltage(g, t, vt);
    t->cr.identifiable_type = type;
    t->cr.properties = g->props;
    t->cr.property_count = g->sel->property_count;
    t->cr.regex = g->sel->id_regex != NULL ? &g->regex : NULL;
    return rc;
}

/* The PROPERTY criteria (SELF) and the regex, compiled once: a bad pattern is the selection's
 * error before anything is generated, not the first object's. */
static int setup_shared(gen_ctx *g)
{
    const ctg_gen_selection *s = g->sel;
    char why[160];

    if (s->property_count > 0) {
        g->props = ctg_mem_alloc(g->alloc, s->property_count * sizeof *g->props);
        if (g->props == NULL)
            return ctg_rs_nomem(&g->rs);
        memset(g->props, 0, s->property_count * sizeof *g->props);
        for (size_t i = 0; i < s->property_count; i++) {
            g->props[i].type = CTG_CRITERION_PROPERTY;
            g->props[i].property_key = s->properties[i].key;
            g->props[i].property_values = &s->properties[i].value;
            g->props[i].property_value_count = 1;
            g->props[i].equipment_to_check = CTG_CHECK_SELF;
        }
    }
    if (s->id_regex == NULL)
        return CTG_OK;
    g->regex.type = CTG_CRITERION_REGEX;
    g->regex.regex = s->id_regex;
    g->re = ctg_regex_compile(s->id_regex, strlen(s->id_regex), g->alloc, why, sizeof why);
    if (g->re == NULL && strcmp(why, "out of memory") == 0)
        return ctg_rs_nomem(&g->rs);
    if (g->re == NULL)
        return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", "selection: invalid regex "
                             "\"%.64s\": %s", s->id_regex, why);
    return CTG_OK;
}

/* The filters that name objects of the network. */
static int setup_refs(gen_ctx *g)
{
    const ctg_gen_selection *s = g->sel;
    const ctg_net_object *o;

    if (g->net == NULL)
        return CTG_OK;
    if (s->subnetwork != NULL) {
        o = ctg_network_find(g->net, s->subnetwork, strlen(s->subnetwork));
        if (o == NULL || o->type != CTG_IDENTIFIABLE_NETWORK)
            return bad(g, "selection: no subnetwork \"%.64s\"", s->subnetwork);
        /* The root holds every object, its subnetworks' too, as in PowSyBl. */
        g->by_subnetwork = o != ctg_network_root(g->net);
        g->subnetwork = g->by_subnetwork ? o : NULL;
    }
    if (s->connected_to != NULL) {
        o = ctg_network_find(g->net, s->connected_to, strlen(s->connected_to));
        if (o == NULL || (o->type != CTG_IDENTIFIABLE_VOLTAGE_LEVEL &&
                          o->type != CTG_IDENTIFIABLE_SUBSTATION))
            return bad(g, "selection: no voltage level or substation \"%.64s\"",
                       s->connected_to);
        g->connected = o;
    }
    return CTG_OK;
}

static const char *default_format(ctg_gen_rule rule)
{
    return rule == CTG_GEN_N1 ? "N-1_{id}" : rule == CTG_GEN_BUSBAR ? "BUSBAR_{id}"
                                                                    : "N-2_{id1}+{id2}";
}

static int setup_options(gen_ctx *g, const ctg_gen_options *opts)
{
    const ctg_gen_selection *s = opts->selection;

    if (opts->version > CTG_GEN_OPTIONS_VERSION)
        return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", "generate options version %u is "
                             "newer than this library's (%u)", opts->version,
                             (unsigned)CTG_GEN_OPTIONS_VERSION);
    if (s == NULL || s->version > CTG_GEN_SELECTION_VERSION)
        return bad(g, "%s: NULL, or of a version newer than this library's", "selection");
    if ((unsigned)opts->rule >= CTG_GEN_RULE_COUNT)
        return bad(g, "%s: unknown rule", "options");
    if (s->type_count == 0 || s->types == NULL)
        return bad(g, "%s: no equipment type", "selection");
    if (opts->rule == CTG_GEN_BUSBAR && g->net != NULL &&
        (opts->topology == NULL || opts->topology->net != g->net))
        return bad(g, "%s: the busbar rule needs the topology of this network", "options");
    g->sel = s;
    g->max = opts->max_contingencies != 0 ? opts->max_contingencies : CTG_GEN_DEFAULT_MAX;
    g->format = opts->id_format != NULL ? opts->id_format : default_format(opts->rule);
    return ctg_gen_format_check(g, g->format,
                                opts->rule != CTG_GEN_N1 && opts->rule != CTG_GEN_BUSBAR);
}

int ctg_gen_setup(gen_ctx *g, const ctg_network *net, const ctg_gen_options *opts,
                  ctg_error *err)
{
    ctg_resolve_options ro = { CTG_RESOLVE_OPTIONS_VERSION, NULL, NULL, NULL };
    int rc;

    memset(g, 0, sizeof *g);
    if (opts == NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL options");
    ro.allocator = opts->allocator;
    ctg_rs_init(&g->rs, net, &ro, err);
    g->net = net;
    g->opts = opts;
    g->alloc = opts->allocator;
    rc = setup_options(g, opts);
    if (rc == CTG_OK)
        rc = check_filters(g, g->sel);
    if (rc == CTG_OK)
        rc = setup_shared(g);
    if (rc == CTG_OK)
        rc = setup_refs(g);
    if (rc != CTG_OK)
        return rc;
    g->types = ctg_mem_alloc(g->alloc, g->sel->type_count * sizeof *g->types);
    if (g->types == NULL)
        return ctg_rs_nomem(&g->rs);
    for (size_t i = 0; rc == CTG_OK && i < g->sel->type_count; i++) {
        rc = setup_type(g, &g->types[i], g->sel->types[i]);
        g->type_count = i + 1;
    }
    return rc;
}

void ctg_gen_dispose(gen_ctx *g)
{
    if (g->types != NULL)
        ctg_mem_release(g->alloc, g->types, g->sel->type_count * sizeof *g->types);
    if (g->props != NULL)
        ctg_mem_release(g->alloc, g->props, g->sel->property_count * sizeof *g->props);
    if (g->segs != NULL)
        ctg_mem_release(g->alloc, g->segs, (g->seg_count > 0 ? g->seg_count : 1) * sizeof *g->segs);
    ctg_regex_free(g->re);
    ctg_rs_dispose(&g->rs);
}

/* "Connected to" a voltage level: a terminal in it; to a substation: a terminal in one of its
 * voltage levels, or (a transformer) standing in it. */
static bool connected(const gen_ctx *g, const ctg_net_object *obj)
{
    const ctg_net_object *c = g->connected;

    if (c->type == CTG_IDENTIFIABLE_SUBSTATION && obj->substation == c)
        return true;
    for (int s = 0; s < 3; s++) {
        const ctg_net_object *vl = obj->voltage_levels[s];

        if (vl != NULL && (vl == c || vl->substation == c))
            return true;
    }
    return false;
}

/* The filters without criterion first (they cannot fail), then the criteria. */
static int accept(gen_ctx *g, const gen_type *t, const ctg_net_object *obj, bool *pass)
{
    *pass = false;
    if (g->by_subnetwork && ctg_net_object_subnetwork(obj) != g->subnetwork)
        return CTG_OK;
    if (g->connected != NULL && !connected(g, obj))
        return CTG_OK;
    return ctg_rs_criteria_accept(&g->rs, &t->cr, obj, &g->re, pass);
}

/* Whether every object of `t` is selected: no criterion, no subnetwork or connection filter
 * (the common "all lines and transformers"), so that the filter need not run per object. */
static bool takes_all(const gen_ctx *g, const gen_type *t)
{
    return !g->by_subnetwork && g->connected == NULL && t->cr.country == NULL &&
           t->cr.nominal_voltage == NULL && t->cr.property_count == 0 && t->cr.regex == NULL;
}

/* How many objects ahead the object and its id text are prefetched: the id lies in the
 * network's arena apart from the object, and the objects of a type in chunks, so that the
 * first read of each otherwise waits on memory. The object first, then (once it is in the
 * cache) the id it points to. */
#define ID_AHEAD 8
#define OBJ_AHEAD (2 * ID_AHEAD)

/* Every object of `t`, visited without a filter; each object is located once, OBJ_AHEAD
 * objects ahead, into a ring. */
static int select_all(gen_ctx *g, const gen_type *t, gen_visit_fn visit, void *arg,
                      size_t *index)
{
    size_t n = ctg_network_count(g->net, t->type);
    const ctg_net_object *ring[OBJ_AHEAD];
    int rc = CTG_OK;

    for (size_t i = 0; i < OBJ_AHEAD && i < n; i++) {
        ring[i] = ctg_network_object_at(g->net, t->type, i);
        CTG_RS_PREFETCH(ring[i]);
    }
    for (size_t i = 0; i < ID_AHEAD && i < n; i++)
        CTG_RS_PREFETCH(ring[i]->id);
    for (size_t i = 0; rc == CTG_OK && i < n; i++) {
        const ctg_net_object *o = ring[i % OBJ_AHEAD];

        if (i + ID_AHEAD < n)
            CTG_RS_PREFETCH(ring[(i + ID_AHEAD) % OBJ_AHEAD]->id);
        if (i + OBJ_AHEAD < n) {
            ring[i % OBJ_AHEAD] = ctg_network_object_at(g->net, t->type, i + OBJ_AHEAD);
            CTG_RS_PREFETCH(ring[i % OBJ_AHEAD]);
        }
        rc = visit(g, o, (*index)++, arg);
    }
    return rc;
}

int ctg_gen_select_type(gen_ctx *g, size_t k, gen_visit_fn visit, void *arg, size_t *index)
{
    const gen_type *t = &g->types[k];
    size_t n = ctg_network_count(g->net, t->type);
    int rc = CTG_OK;

    if (takes_all(g, t))
        return select_all(g, t, visit, arg, index);
    for (size_t i = 0; rc == CTG_OK && i < n; i++) {
        const ctg_net_object *obj = ctg_network_object_at(g->net, t->type, i);
        bool pass;

        rc = accept(g, t, obj, &pass);
        if (rc == CTG_OK && pass)
            rc = visit(g, obj, (*index)++, arg);
    }
    return rc;
}

int ctg_gen_select(gen_ctx *g, gen_visit_fn visit, void *arg)
{
    size_t index = 0;
    int rc = CTG_OK;

    for (size_t k = 0; rc == CTG_OK && k < g->type_count; k++)
        rc = ctg_gen_select_type(g, k, visit, arg, &index);
    return rc;
}

bool ctg_gen_takes_all(const gen_ctx *g, size_t k)
{
    return takes_all(g, &g->types[k]);
}

bool ctg_gen_selects_all(const gen_ctx *g)
{
    for (size_t k = 0; k < g->type_count; k++)
        if (!takes_all(g, &g->types[k]))
            return false;
    return true;
}

uint64_t ctg_gen_upper_bound(const gen_ctx *g)
{
    uint64_t n = 0;

    for (size_t k = 0; k < g->type_count; k++)
        n += ctg_network_count(g->net, g->types[k].type);
    return n;
}
