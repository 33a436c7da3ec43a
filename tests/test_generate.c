/* SPDX-License-Identifier: MPL-2.0 */
/* Generating lists from a network (network/generate*.c): N-1 against PowSyBl's own results
 * for the equivalent criterion lists (../shared/testdata/resolve) and against ctg's evaluation
 * of the criterion list the generator writes; the pair rules on the hand-made networks of
 * testdata/network/generate, their expected pairs listed here; every pair of all-pairs once;
 * the id format, the counts, the limit, the selection's errors, the stream form and
 * allocation failures. */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/generate.h"
#include "ctg/iidm.h"
#include "ctg/network.h"
#include "ctg/resolve.h"
#include "ctg/stream.h"
#include "tests/net_golden.h"
#include "tests/test_common.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers --------------------------------------------------------------------------------- */

static ctg_network *read_net(const char *path)
{
    ctg_network *net = NULL;
    ctg_error err;
    int rc = ctg_test_read_net_path(&net, path, NULL, &err);

    if (rc != CTG_OK)
        ctg_test_report(path, &err);
    CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
    return net;
}

static ctg_network *read_shared_net(const char *name)
{
    char path[512];

    snprintf(path, sizeof path, "%s/resolve/%s.xiidm", ctg_test_shared_dir(), name);
    return read_net(path);
}

/* The callback that collects what is generated into a `default` list. */
static int collect(const ctg_contingency *c, void *payload)
{
    return ctg_list_add_contingency(payload, c->id, c->name, c->elements, c->element_count);
}

static ctg_list *new_list(void)
{
    ctg_list *l = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&l, CTG_LIST_DEFAULT, "gen", NULL), CTG_OK);
    return l;
}

/* The generation of `opts` from `net` as a list; NULL (reported) when it fails. */
static ctg_list *generate(const ctg_network *net, const ctg_gen_options *opts)
{
    ctg_list *l = new_list();
    ctg_error err;
    int rc = ctg_generate(net, opts, collect, l, &err);

    if (rc != CTG_OK) {
        ctg_test_report("generate", &err);
        ctg_list_free(l);
        return NULL;
    }
    return l;
}

/* Whether `a` and `b` hold the same contingencies in the same order, each id of `a` being
 * `prefix` and that of `b`, with the same elements; the first difference printed. */
static bool same_lists(const ctg_list *a, const ctg_list *b, const char *prefix, const char *what)
{
    size_t na = ctg_list_contingency_count(a), nb = ctg_list_contingency_count(b);
    size_t skip = strlen(prefix);

    if (na != nb) {
        fprintf(stderr, "%s: %zu contingencies, expected %zu\n", what, na, nb);
        return false;
    }
    for (size_t i = 0; i < na; i++) {
        const ctg_contingency *x = ctg_list_contingency_at(a, i);
        const ctg_contingency *y = ctg_list_contingency_at(b, i);
        bool ok = strncmp(x->id, prefix, skip) == 0 && strcmp(x->id + skip, y->id) == 0 &&
                  x->element_count == y->element_count;

        for (size_t e = 0; ok && e < x->element_count; e++)
            ok = strcmp(x->elements[e].id, y->elements[e].id) == 0 &&
                 x->elements[e].type == y->elements[e].type &&
                 x->elements[e].voltage_level_id == NULL && y->elements[e].voltage_level_id == NULL;
        if (!ok) {
            fprintf(stderr, "%s: contingency %zu is \"%s\", expected \"%s%s\"\n", what, i, x->id,
                    prefix, y->id);
            return false;
        }
    }
    return true;
}

/* The ids of `l` joined by spaces, into `buf` (`size` bytes). */
static const char *ids_into(const ctg_list *l, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; l != NULL && i < ctg_list_contingency_count(l) && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i > 0 ? " " : "",
                                ctg_list_contingency_at(l, i)->id);
    return buf;
}

/* ids_into a static buffer (one thread). */
static const char *ids_of(const ctg_list *l)
{
    static char buf[8192];

    return ids_into(l, buf, sizeof buf);
}

/* ids_into a buffer of the calling thread. */
static const char *ids_of_r(const ctg_list *l)
{
    static _Thread_local char buf[8192];

    return ids_into(l, buf, sizeof buf);
}

/* A selection of the `n` types at `types`, nothing else. */
static ctg_gen_selection types_sel(const ctg_identifiable_type *types, size_t n)
{
    ctg_gen_selection s;

    memset(&s, 0, sizeof s);
    s.version = CTG_GEN_SELECTION_VERSION;
    s.types = types;
    s.type_count = n;
    return s;
}

static ctg_gen_options rule_opts(const ctg_gen_selection *s, ctg_gen_rule rule)
{
    ctg_gen_options o;

    memset(&o, 0, sizeof o);
    o.version = CTG_GEN_OPTIONS_VERSION;
    o.selection = s;
    o.rule = rule;
    return o;
}

/* ---- N-1 against PowSyBl's evaluation of the equivalent criterion lists ---------------------- */

/* The type a criterion list kind scans, and whether the generator's selection of that type
 * takes the same criteria (an injectionCriterion of a branch type does not: its country is
 * SINGLE_COUNTRY, a lineCriterion's TWO_COUNTRY). */
static bool scanned(const ctg_list *list, ctg_identifiable_type *t)
{
    switch (ctg_list_get_kind(list)) {
    case CTG_LIST_LINE_CRITERION: *t = CTG_IDENTIFIABLE_LINE; return true;
    case CTG_LIST_TIE_LINE_CRITERION: *t = CTG_IDENTIFIABLE_TIE_LINE; return true;
    case CTG_LIST_HVDC_CRITERION: *t = CTG_IDENTIFIABLE_HVDC_LINE; return true;
    case CTG_LIST_TWT_CRITERION: *t = CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER; return true;
    case CTG_LIST_THREE_WT_CRITERION: *t = CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER; return true;
    case CTG_LIST_INJECTION_CRITERION:
        *t = ctg_list_criteria(list)->identifiable_type;
        return *t != CTG_IDENTIFIABLE_LINE && *t != CTG_IDENTIFIABLE_TIE_LINE &&
               *t != CTG_IDENTIFIABLE_HVDC_LINE &&
               *t != CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER &&
               *t != CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER;
    default: return false;
    }
}

/* The types a selection takes (generate.h); a criterion list of another type (SUBSTATION,
 * GROUND, ...) has no selection: PowSyBl returns nothing or fails, the generator refuses it. */
static bool selectable(ctg_identifiable_type t)
{
    return t != CTG_IDENTIFIABLE_NETWORK && t != CTG_IDENTIFIABLE_SUBSTATION &&
           t != CTG_IDENTIFIABLE_VOLTAGE_LEVEL && t != CTG_IDENTIFIABLE_AREA &&
           t != CTG_IDENTIFIABLE_BUS && t != CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM &&
           t != CTG_IDENTIFIABLE_GROUND && t != CTG_IDENTIFIABLE_DC_SWITCH &&
           t != CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER && t != CTG_IDENTIFIABLE_DC_BUS;
}

/* The selection a criterion list is, when it has one: properties SELF with one value. */
static bool selection_of(const ctg_list *list, ctg_identifiable_type *type, ctg_gen_selection *s,
                         ctg_gen_property *props, size_t cap)
{
    const ctg_criteria *cr = ctg_list_criteria(list);

    if (cr == NULL || !scanned(list, type) || !selectable(*type) || cr->property_count > cap)
        return false;
    *s = types_sel(type, 1);
    if (cr->country != NULL) {
        s->countries = cr->country->countries[0];
        s->country_count = cr->country->country_count[0];
        s->countries2 = cr->country->countries[1];
        s->country2_count = cr->country->country_count[1];
    }
    if (cr->nominal_voltage != NULL)
        memcpy(s->nominal_v, cr->nominal_voltage->intervals, sizeof s->nominal_v);
    for (size_t i = 0; i < cr->property_count; i++) {
        const ctg_criterion *p = &cr->properties[i];

        if (p->type != CTG_CRITERION_PROPERTY || p->equipment_to_check != CTG_CHECK_SELF ||
            p->property_value_count != 1)
            return false;
        props[i].key = p->property_key;
        props[i].value = p->property_values[0];
    }
    s->properties = props;
    s->property_count = cr->property_count;
    if (cr->regex != NULL && cr->regex->regex == NULL)
        return false;
    s->id_regex = cr->regex != NULL ? cr->regex->regex : NULL;
    return true;
}

/* One golden case: when its list is a selection and PowSyBl evaluated it, the N-1 of the
 * selection named "{id}" is PowSyBl's result. Returns whether it was compared (*ok: equal). */
static bool golden_case(const ctg_network *net, json_object *row, bool *ok)
{
    const char *dir = ctg_test_shared_dir();
    json_object *exp = json_object_object_get(row, "expected");
    char in[512], out[512];
    ctg_identifiable_type type;
    ctg_gen_property props[8];
    ctg_gen_selection s;
    ctg_gen_options o;
    ctg_list *list, *want, *got;
    bool compared = false;

    *ok = true;
    if (exp == NULL)
        return false;
    snprintf(in, sizeof in, "%s/resolve/%s", dir,
             json_object_get_string(json_object_object_get(row, "input")));
    snprintf(out, sizeof out, "%s/resolve/%s", dir, json_object_get_string(exp));
    list = ctg_test_read_path(in, NULL);
    if (list != NULL && selection_of(list, &type, &s, props, COUNT_OF(props))) {
        o = rule_opts(&s, CTG_GEN_N1);
        o.id_format = "{id}";
        want = ctg_test_read_path(out, NULL);
        got = generate(net, &o);
        *ok = want != NULL && got != NULL && same_lists(got, want, "", in);
        compared = true;
        ctg_list_free(want);
        ctg_list_free(got);
    }
    ctg_list_free(list);
    return compared;
}

CTG_SHARED_TEST(generate, n1_equals_powsybl_criterion_goldens)
{
    static const char *const names[] = { "eurostag", "four-substations", "three-windings",
                                         "mixed" };
    char path[512];
    json_object *index;
    size_t compared = 0, failed = 0, per_net[COUNT_OF(names)] = { 0 };

    snprintf(path, sizeof path, "%s/resolve/index.json", ctg_test_shared_dir());
    index = json_object_from_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(index);
    for (size_t k = 0; k < COUNT_OF(names); k++) {
        ctg_network *net = read_shared_net(names[k]);

        for (size_t i = 0; i < json_object_array_length(index); i++) {
            json_object *row = json_object_array_get_idx(index, i);
            bool ok;

            if (strcmp(json_object_get_string(json_object_object_get(row, "network")),
                       names[k]) != 0 || !golden_case(net, row, &ok))
                continue;
            compared++;
            per_net[k]++;
            failed += !ok;
        }
        ctg_network_free(net);
    }
    printf("\n  N-1 vs golden: %zu compared (%zu %zu %zu %zu), %zu failed\n", compared,
           per_net[0], per_net[1], per_net[2], per_net[3], failed);
    CU_ASSERT_EQUAL(failed, 0);
    /* Every golden case whose list is a selection (71 of the 225; the others are identifier,
     * default or nested lists, errors, or criteria a selection has no field for). */
    CU_ASSERT_EQUAL(compared, 71);
    CU_ASSERT_EQUAL(per_net[0], 13);
    CU_ASSERT_EQUAL(per_net[1], 17);
    CU_ASSERT_EQUAL(per_net[2], 9);
    CU_ASSERT_EQUAL(per_net[3], 32);
    json_object_put(index);
}

/* ---- N-1 against ctg's evaluation of the criterion list the generator writes ----------------- */

/* The criterion list of `o` resolved against `net`; NULL (reported) on failure. */
static ctg_list *resolved_criterion(const ctg_network *net, const ctg_gen_options *o)
{
    ctg_list *crit = NULL, *out = NULL;
    ctg_error err;
    int rc = ctg_generate_as_criterion(&crit, o, "sel", &err);

    if (rc == CTG_OK)
        rc = ctg_resolve(&out, net, crit, NULL, &err);
    if (rc != CTG_OK)
        ctg_test_report("criterion", &err);
    ctg_list_free(crit);
    return out;
}

/* N-1 of `s` named "{id}" and by default equals the evaluation of its criterion list. */
static bool n1_matches_criterion(const ctg_network *net, const ctg_gen_selection *s,
                                 const char *what, size_t *count)
{
    ctg_gen_options o = rule_opts(s, CTG_GEN_N1);
    ctg_list *want = resolved_criterion(net, &o), *by_default = generate(net, &o), *got;
    bool ok;

    o.id_format = "{id}";
    got = generate(net, &o);
    ok = want != NULL && got != NULL && by_default != NULL && same_lists(got, want, "", what) &&
         same_lists(by_default, want, "N-1_", what);
    *count += want != NULL ? ctg_list_contingency_count(want) : 0;
    ctg_list_free(want);
    ctg_list_free(got);
    ctg_list_free(by_default);
    return ok;
}

static const ctg_identifiable_type all_types[] = {
    CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_TIE_LINE, CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER,
    CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER, CTG_IDENTIFIABLE_GENERATOR,
    CTG_IDENTIFIABLE_LOAD, CTG_IDENTIFIABLE_BATTERY, CTG_IDENTIFIABLE_SHUNT_COMPENSATOR,
    CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR, CTG_IDENTIFIABLE_BUSBAR_SECTION,
    CTG_IDENTIFIABLE_SWITCH, CTG_IDENTIFIABLE_BOUNDARY_LINE, CTG_IDENTIFIABLE_HVDC_LINE,
    CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER,
    CTG_IDENTIFIABLE_DC_LINE,
    CTG_IDENTIFIABLE_DC_GROUND, CTG_IDENTIFIABLE_DC_NODE
};

static const ctg_identifiable_type two_sided[] = {
    CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER, CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_HVDC_LINE
};

/* Selections over one network: each type alone, all of them, and filtered ones. */
static size_t check_network(const char *name, size_t *count)
{
    static const char *const fr[] = { "FR" }, *const de_nl[] = { "DE", "NL" };
    static const ctg_gen_property owner = { "owner", "A" };
    ctg_network *net = read_shared_net(name);
    ctg_gen_selection s;
    size_t failed = 0;
    char what[128];

    for (size_t k = 0; k < COUNT_OF(all_types); k++) {
        s = types_sel(&all_types[k], 1);
        snprintf(what, sizeof what, "%s/%s", name, ctg_identifiable_type_name(all_types[k]));
        failed += !n1_matches_criterion(net, &s, what, count);
    }
    s = types_sel(all_types, COUNT_OF(all_types));
    failed += !n1_matches_criterion(net, &s, "all types", count);
    s.countries = fr;
    s.country_count = 1;
    failed += !n1_matches_criterion(net, &s, "all types in FR", count);
    s.countries = de_nl;
    s.country_count = 2;
    s.id_regex = "[0-9]";
    failed += !n1_matches_criterion(net, &s, "DE/NL with a digit", count);
    s = types_sel(two_sided, COUNT_OF(two_sided)); /* ranges on two sides */
    s.nominal_v[0] = (ctg_voltage_interval){ true, true, 200, true, true, 400, true };
    s.nominal_v[1] = (ctg_voltage_interval){ true, true, 100, true, false, 0, false };
    s.properties = &owner;
    failed += !n1_matches_criterion(net, &s, "branches in ranges", count);
    s.property_count = 1;
    failed += !n1_matches_criterion(net, &s, "branches of owner A", count);
    ctg_network_free(net);
    return failed;
}

CTG_SHARED_TEST(generate, n1_equals_evaluated_criterion_list)
{
    static const char *const names[] = { "eurostag", "four-substations", "three-windings",
                                         "mixed" };
    size_t count = 0, failed = 0;

    for (size_t k = 0; k < COUNT_OF(names); k++)
        failed += check_network(names[k], &count);
    printf("\n  N-1 vs criterion lists: %zu contingencies, %zu selections failed\n", count,
           failed);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT_EQUAL(count, 423);
}

/* ---- the pair rules on hand-made networks ---------------------------------------------------- */

static const ctg_identifiable_type branches[] = { CTG_IDENTIFIABLE_LINE,
                                                  CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER,
                                                  CTG_IDENTIFIABLE_TIE_LINE };

/* The ids of the rule's contingencies over `types` of the network in `file`. */
static void expect_pairs(const char *file, ctg_gen_rule rule, const ctg_identifiable_type *types,
                         size_t n, const char *expected, uint64_t groups)
{
    ctg_network *net = read_net(file);
    ctg_gen_selection s = types_sel(types, n);
    ctg_gen_options o = rule_opts(&s, rule);
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    ctg_list *l = generate(net, &o);
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    if (strcmp(ids_of(l), expected) != 0)
        fprintf(stderr, "%s %s:\n  got      %s\n  expected %s\n", file, ctg_gen_rule_name(rule),
                ids_of(l), expected);
    CU_ASSERT_STRING_EQUAL(ids_of(l), expected);
    for (size_t i = 0; i < ctg_list_contingency_count(l); i++) {
        const ctg_contingency *k = ctg_list_contingency_at(l, i);

        CU_ASSERT_EQUAL_FATAL(k->element_count, 2);
        /* two elements, never one twice */
        CU_ASSERT(k->elements[0].type != k->elements[1].type ||
                  strcmp(k->elements[0].id, k->elements[1].id) != 0);
    }
    CU_ASSERT_EQUAL(ctg_generate_count(net, &o, &c, &err), CTG_OK);
    CU_ASSERT_EQUAL(c.contingencies, ctg_list_contingency_count(l));
    CU_ASSERT_EQUAL(c.groups, groups);
    ctg_list_free(l);
    ctg_network_free(net);
}

#define PAIRS CTG_TESTDATA("network/generate/pairs.xiidm")
#define NOPAIR CTG_TESTDATA("network/generate/nopair.xiidm")

CTG_TEST(generate, parallel)
{
    static const ctg_identifiable_type with_3wt[] = {
        CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER, CTG_IDENTIFIABLE_LINE
    };

    /* Groups by their first branch: the double circuit with reversed ends, the line beside
     * the tie line, the double circuit to the level without substation, the transformers
     * between the same two levels (TR3 joins other levels of S1: not parallel). */
    expect_pairs(PAIRS, CTG_GEN_PARALLEL, branches, COUNT_OF(branches),
                 "N-2_L12a+L12b N-2_L34+TL34 N-2_L25a+L25b N-2_TR1+TR2", 4);
    /* A 3WT is no two-ended branch. */
    expect_pairs(PAIRS, CTG_GEN_PARALLEL, with_3wt, COUNT_OF(with_3wt),
                 "N-2_L12a+L12b N-2_L25a+L25b", 2);
    expect_pairs(NOPAIR, CTG_GEN_PARALLEL, branches, COUNT_OF(branches), "", 0);
}

/* A network built in code for the parallel rule against a brute force: 12 substations of two
 * voltage levels, 3 levels without substation, 300 lines between levels drawn by a fixed
 * generator among the first `spread` levels (many double circuits, some reversed, some within
 * one substation or one level) and 40 transformers between the two levels of a substation. */
static ctg_network *parallel_net(unsigned spread)
{
    ctg_network *net = NULL;
    ctg_error err;
    char id[32], v1[32], v2[32];
    uint32_t r = 12345;
    int rc = ctg_network_new(&net, "par", NULL, &err);

    for (int i = 0; rc == CTG_OK && i < 27; i++) {
        ctg_net_spec sub = CTG_NET_SPEC_INIT, vl = CTG_NET_SPEC_INIT;

        snprintf(id, sizeof id, "S%02d", i / 2);
        snprintf(v1, sizeof v1, "V%02d", i);
        sub.type = CTG_IDENTIFIABLE_SUBSTATION;
        sub.id = id;
        if (i < 24 && i % 2 == 0)
            rc = ctg_network_add(net, &sub, NULL, &err);
        vl.type = CTG_IDENTIFIABLE_VOLTAGE_LEVEL;
        vl.id = v1;
        vl.substation = i < 24 ? id : NULL;
        vl.nominal_v = i % 2 ? 225 : 400;
        if (rc == CTG_OK)
            rc = ctg_network_add(net, &vl, NULL, &err);
    }
    for (int i = 0; rc == CTG_OK && i < 340; i++) {
        ctg_net_spec b = CTG_NET_SPEC_INIT;

        r = r * 1103515245u + 12345u;
        snprintf(id, sizeof id, i < 300 ? "L%03d" : "T%02d", i < 300 ? i : i - 300);
        snprintf(v1, sizeof v1, "V%02u", i < 300 ? (r >> 8) % spread : (r >> 8) % 12 * 2);
        snprintf(v2, sizeof v2, "V%02u", i < 300 ? (r >> 20) % spread : (r >> 8) % 12 * 2 + 1);
        b.type = i < 300 ? CTG_IDENTIFIABLE_LINE : CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER;
        b.id = id;
        b.voltage_levels[0] = v1;
        b.voltage_levels[1] = v2;
        rc = ctg_network_add(net, &b, NULL, &err);
    }
    if (rc != CTG_OK)
        ctg_test_report("parallel_net", &err);
    return net;
}

/* Whether branches `a` and `b` are parallel, as generate.h says, from their objects. */
static bool parallel_by_hand(const ctg_net_object *a, const ctg_net_object *b)
{
    const ctg_net_object *pa[2], *pb[2];

    for (int s = 0; s < 2; s++) {
        pa[s] = a->voltage_levels[s]->substation ? a->voltage_levels[s]->substation
                                                 : a->voltage_levels[s];
        pb[s] = b->voltage_levels[s]->substation ? b->voltage_levels[s]->substation
                                                 : b->voltage_levels[s];
    }
    if (pa[0] == pa[1] || pb[0] == pb[1]) {
        if (pa[0] != pa[1] || pb[0] != pb[1] || pa[0] != pb[0])
            return false;
        memcpy(pa, a->voltage_levels, sizeof pa);
        memcpy(pb, b->voltage_levels, sizeof pb);
    }
    return (pa[0] == pb[0] && pa[1] == pb[1]) || (pa[0] == pb[1] && pa[1] == pb[0]);
}

/* The parallel rule over `s` equals the brute force over its N-1 (the selection in order):
 * groups by their first branch, in each its pairs by first then second member. */
static void expect_parallel_by_hand(const ctg_network *net, ctg_gen_selection *s)
{
    ctg_gen_options o = rule_opts(s, CTG_GEN_N1);
    ctg_list *n1 = generate(net, &o), *got;
    const ctg_net_object *obj[400];
    size_t n, k = 0;

    o.rule = CTG_GEN_PARALLEL;
    got = generate(net, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    n = ctg_list_contingency_count(n1);
    CU_ASSERT_FATAL(n <= COUNT_OF(obj));
    for (size_t i = 0; i < n; i++) {
        const char *id = ctg_list_contingency_at(n1, i)->elements[0].id;

        obj[i] = ctg_network_find(net, id, strlen(id));
    }
    for (size_t i = 0; i < n; i++) {
        bool first = true;

        for (size_t h = 0; h < i && first; h++)
            first = !parallel_by_hand(obj[h], obj[i]);
        for (size_t x = i; first && x < n; x++)
            for (size_t y = x + 1; x == i || parallel_by_hand(obj[i], obj[x]) ? y < n : 0; y++) {
                char id[64];

                if (!parallel_by_hand(obj[i], obj[y]))
                    continue;
                snprintf(id, sizeof id, "N-2_%s+%s", obj[x]->id, obj[y]->id);
                CU_ASSERT_FATAL(k < ctg_list_contingency_count(got));
                CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(got, k)->id, id);
                k++;
            }
    }
    CU_ASSERT_EQUAL(k, ctg_list_contingency_count(got));
    ctg_list_free(n1);
    ctg_list_free(got);
}

/* parallel_net(spread) with the parallel rule's counts over `s` in *c. */
static ctg_network *parallel_counted(unsigned spread, const ctg_gen_selection *s,
                                     ctg_gen_counts *c)
{
    ctg_network *net = parallel_net(spread);
    ctg_gen_options o = rule_opts(s, CTG_GEN_PARALLEL);
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    CU_ASSERT_EQUAL(ctg_generate_count(net, &o, c, &err), CTG_OK);
    return net;
}

CTG_TEST(generate, parallel_by_hand)
{
    static const ctg_identifiable_type twt_first[] = {
        CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER, CTG_IDENTIFIABLE_LINE
    };
    ctg_gen_selection s = types_sel(twt_first, COUNT_OF(twt_first));
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    ctg_network *net = parallel_counted(27, &s, &c);

    CU_ASSERT(c.contingencies > 100); /* enough double circuits to mean something */
    CU_ASSERT(c.groups > 30 && c.groups < c.contingencies);
    expect_parallel_by_hand(net, &s);
    s.id_regex = "[13579]$|^T"; /* a filtered selection: every other line */
    expect_parallel_by_hand(net, &s);
    ctg_network_free(net);
}

/* Lines among four levels of two substations: groups of some 75 and 150 lines, larger than
 * the batches the rule emits its groups in, besides the transformers' small groups. */
CTG_TEST(generate, parallel_large_groups)
{
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    ctg_network *net = parallel_counted(4, &s, &c);

    CU_ASSERT(c.contingencies > 10000);
    expect_parallel_by_hand(net, &s);
    ctg_network_free(net);
}

/* Lines written substation after substation, as the grouping meets most of them in the order
 * of their lower substation (the rule's fast path), with some met late: a line back to an
 * earlier substation that joins a group of lines met in order, late lines of a group of their
 * own, a late line alone, and a group whose lead is met in order and whose later members are
 * late; then transformers, whose places follow the substations'. */
static ctg_network *ordered_net(void)
{
    static const int line[][2] = {
        { 0, 1 }, { 0, 1 }, { 0, 2 }, { 1, 2 }, { 1, 3 }, { 1, 3 }, { 2, 3 }, { 3, 4 },
        { 3, 4 }, { 4, 5 }, { 4, 0 }, { 5, 6 }, { 5, 6 }, { 5, 6 },
        /* met late: back to S00 and S01 from S06 and S07, then more of earlier groups */
        { 6, 0 }, { 7, 1 }, { 7, 1 }, { 1, 0 }, { 3, 1 }, { 2, 1 }, { 6, 5 }, { 7, 0 },
        { 7, 7 }, { 0, 4 }, { 3, 2 },
    };
    ctg_network *net = NULL;
    ctg_error err;
    char id[32], v1[32], v2[32];
    int rc = ctg_network_new(&net, "ordered", NULL, &err);

    for (int i = 0; rc == CTG_OK && i < 8; i++) {
        ctg_net_spec sub = CTG_NET_SPEC_INIT, vl = CTG_NET_SPEC_INIT;

        snprintf(id, sizeof id, "S%02d", i);
        sub.type = CTG_IDENTIFIABLE_SUBSTATION;
        sub.id = id;
        rc = ctg_network_add(net, &sub, NULL, &err);
        for (int v = 0; rc == CTG_OK && v < 2; v++) {
            snprintf(v1, sizeof v1, "V%02d%c", i, "ab"[v]);
            vl.type = CTG_IDENTIFIABLE_VOLTAGE_LEVEL;
            vl.id = v1;
            vl.substation = id;
            vl.nominal_v = v ? 225 : 400;
            rc = ctg_network_add(net, &vl, NULL, &err);
        }
    }
    for (size_t i = 0; rc == CTG_OK && i < COUNT_OF(line) + 6; i++) {
        ctg_net_spec b = CTG_NET_SPEC_INIT;
        bool tr = i >= COUNT_OF(line);
        int t = (int)(i - COUNT_OF(line)) % 3; /* in S00, S03, S00, ...: T2 is met late */

        snprintf(id, sizeof id, tr ? "T%zu" : "L%02zu", tr ? i - COUNT_OF(line) : i);
        snprintf(v1, sizeof v1, "V%02d%c", tr ? t % 2 * 3 : line[i][0], tr ? 'a' : 'a' + (int)i % 2);
        snprintf(v2, sizeof v2, "V%02d%c", tr ? t % 2 * 3 : line[i][1], tr ? 'b' : 'a');
        b.type = tr ? CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER : CTG_IDENTIFIABLE_LINE;
        b.id = id;
        b.voltage_levels[0] = v1;
        b.voltage_levels[1] = v2;
        rc = ctg_network_add(net, &b, NULL, &err);
    }
    if (rc != CTG_OK)
        ctg_test_report("ordered_net", &err);
    return net;
}

/* The groups of ordered_net, listed by hand: by first member, then second. */
CTG_TEST(generate, parallel_in_order_and_late)
{
    static const char *const want[] = {
        "N-2_L00+L01", "N-2_L00+L17", "N-2_L01+L17", "N-2_L03+L19", "N-2_L04+L05",
        "N-2_L04+L18", "N-2_L05+L18", "N-2_L06+L24", "N-2_L07+L08", "N-2_L10+L23",
        "N-2_L11+L12", "N-2_L11+L13", "N-2_L11+L20", "N-2_L12+L13", "N-2_L12+L20",
        "N-2_L13+L20", "N-2_L15+L16", "N-2_T0+T2",   "N-2_T0+T3",   "N-2_T0+T5",
        "N-2_T2+T3",   "N-2_T2+T5",   "N-2_T3+T5",   "N-2_T1+T4",
    };
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_PARALLEL);
    ctg_network *net = ordered_net();
    ctg_list *got;

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    got = generate(net, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(got), COUNT_OF(want));
    for (size_t i = 0; i < COUNT_OF(want) && i < ctg_list_contingency_count(got); i++)
        CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(got, i)->id, want[i]);
    ctg_list_free(got);
    expect_parallel_by_hand(net, &s);
    s.id_regex = "[02468]$|^T"; /* a filtered selection: every other line */
    expect_parallel_by_hand(net, &s);
    ctg_network_free(net);
}

CTG_TEST(generate, common_substation)
{
    static const ctg_identifiable_type lines[] = { CTG_IDENTIFIABLE_LINE,
                                                   CTG_IDENTIFIABLE_TIE_LINE };
    static const ctg_identifiable_type transformers[] = {
        CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER, CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER
    };

    /* S1: L12a L12b L13; S2: L12a L12b L23 L25a L25b, less L12a+L12b (written at S1); S3:
     * L13 L23 L34 TL34; S4 (L34 TL34) and VL5 (L25a L25b): pairs written before. */
    expect_pairs(PAIRS, CTG_GEN_COMMON_SUBSTATION, lines, COUNT_OF(lines),
                 "N-2_L12a+L12b N-2_L12a+L13 N-2_L12b+L13 "
                 "N-2_L12a+L23 N-2_L12a+L25a N-2_L12a+L25b N-2_L12b+L23 N-2_L12b+L25a "
                 "N-2_L12b+L25b N-2_L23+L25a N-2_L23+L25b N-2_L25a+L25b "
                 "N-2_L13+L23 N-2_L13+L34 N-2_L13+TL34 N-2_L23+L34 N-2_L23+TL34 N-2_L34+TL34",
                 5);
    /* All four transformers stand in S1, the 3WT with its three legs. */
    expect_pairs(PAIRS, CTG_GEN_COMMON_SUBSTATION, transformers, COUNT_OF(transformers),
                 "N-2_TR1+TR2 N-2_TR1+TR3 N-2_TR1+T3W N-2_TR2+TR3 N-2_TR2+T3W N-2_TR3+T3W", 1);
    expect_pairs(NOPAIR, CTG_GEN_COMMON_SUBSTATION, branches, COUNT_OF(branches), "", 0);
}

/* ---- all-pairs, the limit, the counts -------------------------------------------------------- */

CTG_TEST(generate, all_pairs_each_once)
{
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_N1);
    ctg_list *n1 = generate(net, &o), *pairs;
    size_t n, k = 0;

    o.rule = CTG_GEN_ALL_PAIRS;
    pairs = generate(net, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pairs);
    n = ctg_list_contingency_count(n1);
    CU_ASSERT_EQUAL(n, 11); /* 7 lines, 3 transformers, 1 tie line */
    CU_ASSERT_EQUAL(ctg_list_contingency_count(pairs), n * (n - 1) / 2);
    /* Pair (i, j), i < j, by i then j: each unordered pair once, in that order. */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n && k < ctg_list_contingency_count(pairs); j++, k++) {
            const ctg_contingency *c = ctg_list_contingency_at(pairs, k);
            const ctg_contingency *a = ctg_list_contingency_at(n1, i);
            const ctg_contingency *b = ctg_list_contingency_at(n1, j);
            char id[128];

            snprintf(id, sizeof id, "N-2_%s+%s", a->elements[0].id, b->elements[0].id);
            CU_ASSERT_STRING_EQUAL(c->id, id);
            CU_ASSERT_STRING_EQUAL(c->elements[0].id, a->elements[0].id);
            CU_ASSERT_STRING_EQUAL(c->elements[1].id, b->elements[0].id);
            CU_ASSERT_EQUAL(c->elements[1].type, b->elements[0].type);
        }
    CU_ASSERT_EQUAL(k, n * (n - 1) / 2);
    ctg_list_free(n1);
    ctg_list_free(pairs);
    ctg_network_free(net);
}

static int count_calls(const ctg_contingency *c, void *payload)
{
    (void)c;
    (*(size_t *)payload)++;
    return 0;
}

CTG_TEST(generate, limit_counted_first)
{
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_ALL_PAIRS);
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    size_t calls = 0;
    ctg_error err;

    o.max_contingencies = 54;
    CU_ASSERT_EQUAL(ctg_generate(net, &o, count_calls, &calls, &err), CTG_ELIMIT);
    CU_ASSERT_EQUAL(calls, 0);
    CU_ASSERT_STRING_EQUAL(err.message, "all-pairs would generate 55 contingencies, more than "
                                        "the limit of 54");
    CU_ASSERT_STRING_EQUAL(err.source, "<generate>");
    /* The count is the dry run: no limit there. */
    CU_ASSERT_EQUAL(ctg_generate_count(net, &o, &c, &err), CTG_OK);
    CU_ASSERT_EQUAL(c.contingencies, 55);
    CU_ASSERT_EQUAL(c.selected_total, 11);
    CU_ASSERT_EQUAL(c.selected[CTG_IDENTIFIABLE_LINE], 7);
    CU_ASSERT_EQUAL(c.selected[CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER], 3);
    CU_ASSERT_EQUAL(c.selected[CTG_IDENTIFIABLE_TIE_LINE], 1);
    o.max_contingencies = 55;
    CU_ASSERT_EQUAL(ctg_generate(net, &o, count_calls, &calls, &err), CTG_OK);
    CU_ASSERT_EQUAL(calls, 55);
    /* N-1: the same limit, on the selected count. */
    o.rule = CTG_GEN_N1;
    o.max_contingencies = 10;
    calls = 0;
    CU_ASSERT_EQUAL(ctg_generate(net, &o, count_calls, &calls, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "n-1 would generate 11 contingencies, more than the "
                                        "limit of 10");
    CU_ASSERT_EQUAL(calls, 0);
    ctg_network_free(net);
}

/* ---- filters, the id format, errors ---------------------------------------------------------- */

static void expect_ids(const ctg_network *net, const ctg_gen_options *o, const char *expected)
{
    ctg_list *l = generate(net, o);

    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    if (strcmp(ids_of(l), expected) != 0)
        fprintf(stderr, "got      %s\nexpected %s\n", ids_of(l), expected);
    CU_ASSERT_STRING_EQUAL(ids_of(l), expected);
    ctg_list_free(l);
}

CTG_TEST(generate, id_format_and_filters)
{
    static const ctg_identifiable_type t[] = { CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER,
                                               CTG_IDENTIFIABLE_LOAD, CTG_IDENTIFIABLE_LINE };
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(t, COUNT_OF(t));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_N1);

    s.connected_to = "VL1_63";
    o.id_format = "{type}:{id}@{vl1}/{vl2}[{substation}]{{x}}";
    expect_ids(net, &o, "TWO_WINDINGS_TRANSFORMER:TR3@VL1_225/VL1_63[S1]{x} "
                        "LOAD:LD1@VL1_63/[S1]{x}");
    s.connected_to = "S3";
    o.id_format = NULL;
    expect_ids(net, &o, "N-1_L13 N-1_L23 N-1_L34");
    s.connected_to = "VL5";
    o.id_format = "{substation}|{id}";
    expect_ids(net, &o, "S2|L25a |L25b");
    s.connected_to = NULL;
    s.id_regex = "^L.*b$";
    o.rule = CTG_GEN_ALL_PAIRS;
    o.id_format = "{rule}:{id2}-{id1}";
    expect_ids(net, &o, "all-pairs:L25b-L12b");
    s.subnetwork = "pairs"; /* the root: every object here */
    expect_ids(net, &o, "all-pairs:L25b-L12b");
    ctg_network_free(net);
}

/* --subnetwork: a subnetwork's own objects; the root network's id selects every object,
 * its subnetworks' too (it once selected only the objects outside them: LN_N_S here). */
CTG_TEST(generate, subnetwork_filter)
{
    static const ctg_identifiable_type t[] = { CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_GENERATOR,
                                               CTG_IDENTIFIABLE_LOAD };
    ctg_network *net = read_net(CTG_TESTDATA("network/subnetworks.xiidm"));
    ctg_gen_selection s = types_sel(t, COUNT_OF(t));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_N1);

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    s.subnetwork = "merged";
    expect_ids(net, &o, "N-1_LN_N_S N-1_G_N N-1_LD_S");
    s.subnetwork = "north";
    expect_ids(net, &o, "N-1_G_N");
    s.subnetwork = "south";
    expect_ids(net, &o, "N-1_LD_S");
    ctg_network_free(net);
}

/* Pair formats near the default's shape (a literal, {id1}, a literal, {id2}), which is
 * written by four copies: a brace as its literal, and the shapes around it that are not it. */
CTG_TEST(generate, pair_id_formats)
{
    static const ctg_identifiable_type t[] = { CTG_IDENTIFIABLE_LINE };
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(t, COUNT_OF(t));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_ALL_PAIRS);

    s.id_regex = "^L.*b$";
    o.id_format = "<{id1}{{{id2}";
    expect_ids(net, &o, "<L12b{L25b");
    o.id_format = "}}{id1}}}{id2}";
    expect_ids(net, &o, "}L12b}L25b");
    o.id_format = "N-2_{id1}+{id2}!";
    expect_ids(net, &o, "N-2_L12b+L25b!");
    o.id_format = "{id1}+{id2}";
    expect_ids(net, &o, "L12b+L25b");
    o.id_format = "N-2_{id2}+{id1}";
    expect_ids(net, &o, "N-2_L25b+L12b");
    o.id_format = "N-2_{id1}{rule}{id2}";
    expect_ids(net, &o, "N-2_L12ball-pairsL25b");
    ctg_network_free(net);
}

static void expect_error(const ctg_network *net, const ctg_gen_options *o, int code,
                         const char *message)
{
    ctg_error err;
    size_t calls = 0;
    int rc = ctg_generate(net, o, count_calls, &calls, &err);

    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT_EQUAL(calls, 0);
    if (rc != CTG_OK && strcmp(err.message, message) != 0)
        fprintf(stderr, "got \"%s\"\nexpected \"%s\"\n", err.message, message);
    CU_ASSERT_STRING_EQUAL(err.message, message);
}

CTG_TEST(generate, bad_selections)
{
    static const ctg_identifiable_type bad[] = { CTG_IDENTIFIABLE_SUBSTATION };
    static const ctg_identifiable_type twice[] = { CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_LINE };
    static const ctg_identifiable_type gen[] = { CTG_IDENTIFIABLE_GENERATOR };
    static const char *const xx[] = { "XX" }, *const fr[] = { "FR" };
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(bad, 1);
    ctg_gen_options o = rule_opts(&s, CTG_GEN_N1);

    expect_error(net, &o, CTG_EINVAL, "selection: SUBSTATION cannot be selected (not an "
                                      "enumerable contingency element)");
    s = types_sel(twice, 2);
    expect_error(net, &o, CTG_EINVAL, "selection: LINE is selected twice");
    s = types_sel(gen, 1);
    s.countries = xx;
    s.country_count = 1;
    expect_error(net, &o, CTG_EINVAL, "selection: \"XX\" is not a country code");
    s.countries2 = fr;
    s.country2_count = 1;
    s.countries = fr;
    expect_error(net, &o, CTG_EINVAL, "selection: side-2 countries do not apply to GENERATOR");
    s = types_sel(gen, 1);
    s.nominal_v[1] = (ctg_voltage_interval){ true, true, 1, true, false, 0, false };
    expect_error(net, &o, CTG_EINVAL, "selection: a side-2 nominal-voltage range does not apply "
                                      "to GENERATOR");
    s = types_sel(branches, COUNT_OF(branches));
    s.nominal_v[2] = (ctg_voltage_interval){ true, true, 1, true, false, 0, false };
    expect_error(net, &o, CTG_EINVAL, "selection: a side-3 nominal-voltage range does not apply "
                                      "to LINE");
    s = types_sel(gen, 1);
    s.nominal_v[0] = (ctg_voltage_interval){ true, true, 10, true, true, 5, true };
    expect_error(net, &o, CTG_EINVAL, "selection: an empty or invalid nominal-voltage range");
    s = types_sel(gen, 1);
    s.id_regex = "(";
    expect_error(net, &o, CTG_EINVAL, "selection: invalid regex \"(\": missing ): (");
    s = types_sel(gen, 1);
    s.subnetwork = "S1";
    expect_error(net, &o, CTG_EINVAL, "selection: no subnetwork \"S1\"");
    s.subnetwork = NULL;
    s.connected_to = "G1";
    expect_error(net, &o, CTG_EINVAL, "selection: no voltage level or substation \"G1\"");
    s.connected_to = NULL;
    o.id_format = "{id1}";
    expect_error(net, &o, CTG_EINVAL, "id format \"{id1}\": unknown placeholder at \"{id1}\" "
                                      "({id}, {type}, {vl1}, {vl2}, {substation})");
    o.id_format = "a}b";
    expect_error(net, &o, CTG_EINVAL, "id format \"a}b\": a lone '}' (write \"}}\")");
    o.id_format = "N-1_\xc0\xaf{id}"; /* an overlong '/' */
    expect_error(net, &o, CTG_EINVAL, "the id format is not valid UTF-8");
    o.id_format = NULL;
    o.rule = CTG_GEN_PARALLEL;
    o.id_format = "{id}";
    expect_error(net, &o, CTG_EINVAL, "id format \"{id}\": unknown placeholder at \"{id}\" "
                                      "({id1}, {id2}, {rule})");
    ctg_network_free(net);
}

/* Only an object's id is unique in a network: a format without it (N-1, busbar), or without
 * both ids of a pair (an object is in several), would give contingencies one id. */
CTG_TEST(generate, id_format_needs_ids)
{
    static const ctg_identifiable_type t[] = { CTG_IDENTIFIABLE_LINE };
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(t, COUNT_OF(t));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_N1);
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    ctg_list *l = NULL;
    ctg_error err;

    o.id_format = "N-1_{type}@{vl1}-{vl2}[{substation}]";
    expect_error(net, &o, CTG_EINVAL, "id format \"N-1_{type}@{vl1}-{vl2}[{substation}]\": no "
                                      "{id}, so contingencies would share ids");
    o.id_format = "{{id}}";
    expect_error(net, &o, CTG_EINVAL, "id format \"{{id}}\": no {id}, so contingencies would "
                                      "share ids");
    o.id_format = "";
    expect_error(net, &o, CTG_EINVAL, "id format \"\": no {id}, so contingencies would share ids");
    CU_ASSERT_EQUAL(ctg_generate_count(net, &o, &c, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_generate_as_criterion(&l, &o, "n", &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(l);
    o.id_format = "{{{id}}}";
    s.id_regex = "^L13$";
    expect_ids(net, &o, "{L13}");
    s.id_regex = NULL;
    o.rule = CTG_GEN_PARALLEL;
    o.id_format = "N-2_{id1}";
    expect_error(net, &o, CTG_EINVAL, "id format \"N-2_{id1}\": no {id2}, so pairs would share "
                                      "ids");
    o.rule = CTG_GEN_ALL_PAIRS;
    o.id_format = "{id2}+{id2}";
    expect_error(net, &o, CTG_EINVAL, "id format \"{id2}+{id2}\": no {id1}, so pairs would "
                                      "share ids");
    o.rule = CTG_GEN_COMMON_SUBSTATION;
    o.id_format = "{rule}";
    expect_error(net, &o, CTG_EINVAL, "id format \"{rule}\": no {id1} and {id2}, so pairs would "
                                      "share ids");
    ctg_network_free(net);
}

/* ---- the criterion list ---------------------------------------------------------------------- */

CTG_TEST(generate, as_criterion)
{
    static const char *const fr[] = { "FR" };
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_N1);
    ctg_list *crit = NULL, *want, *got;
    ctg_buf buf = { 0 };
    ctg_error err;

    s.countries = fr;
    s.country_count = 1;
    s.id_regex = "1";
    CU_ASSERT_EQUAL_FATAL(ctg_generate_as_criterion(&crit, &o, "n1", &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_get_kind(crit), CTG_LIST_LIST);
    CU_ASSERT_EQUAL(ctg_list_child_count(crit), 3);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(ctg_list_child_at(crit, 1)),
                           "n1-TWO_WINDINGS_TRANSFORMER");
    {   /* A long name is cut for its children before a character, not inside it. */
        char name[256], want_child[256];
        ctg_list *long_named = NULL;

        memset(name, 'a', 199);
        strcpy(name + 199, "\xc3\xa9");
        snprintf(want_child, sizeof want_child, "%.199s-LINE", name);
        CU_ASSERT_EQUAL_FATAL(ctg_generate_as_criterion(&long_named, &o, name, &err), CTG_OK);
        CU_ASSERT_STRING_EQUAL(ctg_list_name(long_named), name);
        CU_ASSERT_STRING_EQUAL(ctg_list_name(ctg_list_child_at(long_named, 0)), want_child);
        ctg_list_free(long_named);
        CU_ASSERT_EQUAL(ctg_generate_as_criterion(&long_named, &o, "n\xff", &err), CTG_EINVAL);
        CU_ASSERT_PTR_NULL(long_named);
        CU_ASSERT_STRING_EQUAL(err.message, "a list name that is NULL or not valid UTF-8");
    }
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, crit, NULL, &err), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf.data, "\"type\" : \"twoWindingsTransformerCriterion\""));
    ctg_buf_dispose(&buf);
    /* Evaluated: the N-1, named by the objects' ids. */
    CU_ASSERT_EQUAL_FATAL(ctg_resolve(&want, net, crit, NULL, &err), CTG_OK);
    o.id_format = "{id}";
    got = generate(net, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(ids_of(got), "L12a L12b L13 TR1");
    CU_ASSERT(same_lists(got, want, "", "as criterion"));
    ctg_list_free(want);
    ctg_list_free(got);
    ctg_list_free(crit);
    ctg_network_free(net);
}

static void expect_no_criterion(const ctg_gen_options *o, const char *message)
{
    ctg_list *crit = (ctg_list *)1;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_generate_as_criterion(&crit, o, "x", &err), CTG_EUNSUPPORTED);
    CU_ASSERT_PTR_NULL(crit);
    CU_ASSERT_STRING_EQUAL(err.message, message);
}

CTG_TEST(generate, as_criterion_refused)
{
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_PARALLEL);

    expect_no_criterion(&o, "the rule parallel has no criterion equivalent (only a "
                            "selection's N-1 has one)");
    o.rule = CTG_GEN_ALL_PAIRS;
    expect_no_criterion(&o, "the rule all-pairs has no criterion equivalent (only a "
                            "selection's N-1 has one)");
    o.rule = CTG_GEN_N1;
    s.subnetwork = "sub";
    expect_no_criterion(&o, "a subnetwork filter has no criterion equivalent (only a "
                            "selection's N-1 has one)");
    s.subnetwork = NULL;
    s.connected_to = "S1";
    expect_no_criterion(&o, "a connected-to filter has no criterion equivalent (only a "
                            "selection's N-1 has one)");
}

/* ---- the stream form ------------------------------------------------------------------------- */

CTG_TEST(generate, to_stream_same_bytes)
{
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_PARALLEL);
    ctg_list *l = generate(net, &o);
    ctg_stream_writer *w = NULL;
    ctg_buf streamed = { 0 }, whole = { 0 };
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &streamed, "gen", NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_generate_to_stream(net, &o, w, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&whole, l, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(streamed.len, whole.len);
    CU_ASSERT(streamed.len == whole.len && memcmp(streamed.data, whole.data, whole.len) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(streamed.data, "\"id\" : \"N-2_TR1+TR2\""));
    ctg_buf_dispose(&streamed);
    ctg_buf_dispose(&whole);
    ctg_list_free(l);
    ctg_network_free(net);
}

/* Lines between four substations, added interleaved: A-B 0..39 (a group of 40, larger than
 * the 32 members the emission reads at a time), A-C 0..2 before and among them, C-D 0..1
 * after them and a lone B-D. */
static ctg_network *big_group_net(void)
{
    static const char *const subs[] = { "A", "B", "C", "D" };
    ctg_network *net = NULL;
    ctg_error err;
    char id[32], v1[8], v2[8];
    int rc = ctg_network_new(&net, "big", NULL, &err);

    for (int i = 0; rc == CTG_OK && i < 4; i++) {
        ctg_net_spec sub = CTG_NET_SPEC_INIT, vl = CTG_NET_SPEC_INIT;

        snprintf(v1, sizeof v1, "V%s", subs[i]);
        sub.type = CTG_IDENTIFIABLE_SUBSTATION;
        sub.id = subs[i];
        vl.type = CTG_IDENTIFIABLE_VOLTAGE_LEVEL;
        vl.id = v1;
        vl.substation = subs[i];
        vl.nominal_v = 400;
        rc = ctg_network_add(net, &sub, NULL, &err);
        if (rc == CTG_OK)
            rc = ctg_network_add(net, &vl, NULL, &err);
    }
    for (int i = 0; rc == CTG_OK && i < 46; i++) {
        ctg_net_spec b = CTG_NET_SPEC_INIT;
        int kind = i == 0 || i == 20 || i == 45 ? 1 : i >= 43 ? 2 : i == 42 ? 3 : 0;
        static const char *const ends[][2] = { { "A", "B" }, { "A", "C" }, { "C", "D" },
                                                { "B", "D" } };

        snprintf(id, sizeof id, "%s%s_%02d", ends[kind][0], ends[kind][1], i);
        snprintf(v1, sizeof v1, "V%s", ends[kind][i % 2 && kind == 0]);
        snprintf(v2, sizeof v2, "V%s", ends[kind][!(i % 2 && kind == 0)]);
        b.type = CTG_IDENTIFIABLE_LINE;
        b.id = id;
        b.voltage_levels[0] = v1;
        b.voltage_levels[1] = v2;
        rc = ctg_network_add(net, &b, NULL, &err);
    }
    if (rc != CTG_OK)
        ctg_test_report("big_group_net", &err);
    return net;
}

/* The pairs of the lines named in `ids` (in selection order) into `l`, by first then second. */
static void add_pairs_by_hand(ctg_list *l, const char *const *ids, size_t n)
{
    char id[64];

    for (size_t x = 0; x < n; x++)
        for (size_t y = x + 1; y < n; y++) {
            ctg_element e[2] = { { ids[x], CTG_ELEMENT_LINE, NULL },
                                 { ids[y], CTG_ELEMENT_LINE, NULL } };
            ctg_contingency c = { id, NULL, e, 2, NULL, 0 };

            snprintf(id, sizeof id, "N-2_%s+%s", ids[x], ids[y]);
            CU_ASSERT_EQUAL(ctg_list_add_contingency_copy(l, &c), CTG_OK);
        }
}

/* The parallel rule with a group larger than the emission's window: the streamed bytes are
 * those of the list written by hand in the documented order (the groups by their first line:
 * A-C, then A-B, then C-D; each group's pairs by first member, then second). */
CTG_TEST(generate, parallel_group_larger_than_window_bytes)
{
    static const ctg_identifiable_type lines[] = { CTG_IDENTIFIABLE_LINE };
    static const char *const ac[] = { "AC_00", "AC_20", "AC_45" };
    static const char *const cd[] = { "CD_43", "CD_44" };
    const char *ab[40];
    char ab_ids[40][8];
    ctg_network *net = big_group_net();
    ctg_gen_selection s = types_sel(lines, COUNT_OF(lines));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_PARALLEL);
    ctg_list *l = new_list();
    ctg_stream_writer *w = NULL;
    ctg_buf streamed = { 0 }, expected = { 0 };
    ctg_error err;
    size_t n = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    for (int i = 1; i < 42; i++)
        if (i != 20) {
            snprintf(ab_ids[n], sizeof ab_ids[n], "AB_%02d", i);
            ab[n] = ab_ids[n];
            n++;
        }
    CU_ASSERT_EQUAL_FATAL(n, 40);
    add_pairs_by_hand(l, ac, COUNT_OF(ac));
    add_pairs_by_hand(l, ab, n);
    add_pairs_by_hand(l, cd, COUNT_OF(cd));
    CU_ASSERT_EQUAL(ctg_list_contingency_count(l), 3 + 780 + 1);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &streamed, "gen", NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_generate_to_stream(net, &o, w, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, &err), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &expected, "gen", NULL, &err), CTG_OK);
    for (size_t i = 0; i < ctg_list_contingency_count(l); i++)
        CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(l, i), &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, &err), CTG_OK);
    CU_ASSERT_EQUAL(streamed.len, expected.len);
    CU_ASSERT(streamed.len == expected.len &&
              memcmp(streamed.data, expected.data, expected.len) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(streamed.data, "\"id\" : \"N-2_AB_40+AB_41\""));
    ctg_buf_dispose(&streamed);
    ctg_buf_dispose(&expected);
    ctg_list_free(l);
    ctg_network_free(net);
}

/* ---- allocation failures --------------------------------------------------------------------- */

/* Every allocation of the run failed in turn: CTG_ENOMEM (or the callback's stop), nothing
 * leaked; returns the allocations of a run. */
static size_t sweep(const ctg_network *net, ctg_gen_options *o, bool criterion)
{
    for (size_t at = 1;; at++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_list *l = new_list(), *crit = NULL;
        ctg_error err;
        int rc;

        st.fail_at = at;
        o->allocator = &a;
        rc = criterion ? ctg_generate_as_criterion(&crit, o, "c", &err)
                       : ctg_generate(net, o, collect, l, &err);
        ctg_list_free(crit);
        ctg_list_free(l);
        o->allocator = NULL;
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        if (!st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            return at - 1;
        }
        if (rc != CTG_ENOMEM)
            ctg_test_report("sweep", &err);
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
    }
}

CTG_TEST(generate, allocation_failures)
{
    static const ctg_gen_property prop = { "k", "v" };
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_N1);

    s.id_regex = "L|T";
    CU_ASSERT(sweep(net, &o, false) > 0);
    o.rule = CTG_GEN_PARALLEL;
    CU_ASSERT(sweep(net, &o, false) > 0);
    o.rule = CTG_GEN_COMMON_SUBSTATION;
    CU_ASSERT(sweep(net, &o, false) > 0);
    o.rule = CTG_GEN_ALL_PAIRS;
    CU_ASSERT(sweep(net, &o, false) > 0);
    o.rule = CTG_GEN_N1;
    s.properties = &prop;
    s.property_count = 1;
    CU_ASSERT(sweep(net, &o, false) > 0);
    CU_ASSERT(sweep(net, &o, true) > 0);
    ctg_network_free(net);
}

/* The parallel rule with a group larger than the emission's window under allocation
 * failures (the room for that group's members among them): CTG_ENOMEM, nothing leaked. */
CTG_TEST(generate, parallel_group_larger_than_window_allocation_failures)
{
    static const ctg_identifiable_type lines[] = { CTG_IDENTIFIABLE_LINE };
    ctg_network *net = big_group_net();
    ctg_gen_selection s = types_sel(lines, COUNT_OF(lines));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_PARALLEL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    CU_ASSERT(sweep(net, &o, false) >= 3); /* the grouping, the groups, the large group */
    ctg_network_free(net);
}

/* ---- a callback that stops, several threads ---------------------------------------------- */

static int stop_after_two(const ctg_contingency *c, void *payload)
{
    (void)c;
    return ++*(size_t *)payload == 2;
}

CTG_TEST(generate, callback_stops)
{
    ctg_network *net = read_net(PAIRS);
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_COMMON_SUBSTATION);
    size_t calls = 0;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_generate(net, &o, stop_after_two, &calls, &err), CTG_ESTOPPED);
    CU_ASSERT_EQUAL(calls, 2);
    CU_ASSERT_STRING_EQUAL(err.message, "stopped by the callback at \"N-2_L12a+L13\"");
    CU_ASSERT_EQUAL(ctg_generate(net, &o, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "NULL callback");
    CU_ASSERT_EQUAL(ctg_generate(NULL, &o, count_calls, &calls, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_generate(net, NULL, count_calls, &calls, &err), CTG_EINVAL);
    ctg_network_free(net);
}

typedef struct stop_at {
    size_t calls, at;
} stop_at;

static int stop_at_call(const ctg_contingency *c, void *payload)
{
    stop_at *st = payload;

    (void)c;
    return ++st->calls == st->at;
}

/* The parallel rule stopped in its first batch, in a later one and inside a group larger than
 * a batch: the callback is called exactly that often and the error names the pair it stopped
 * at, the same pair as in the whole list. */
CTG_TEST(generate, parallel_callback_stops)
{
    static const size_t at[] = { 2, 45, 5000 };
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    ctg_network *net = parallel_counted(4, &s, &c);
    ctg_gen_options o = rule_opts(&s, CTG_GEN_PARALLEL);
    ctg_list *all = generate(net, &o);
    char want[200];
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(all);
    for (size_t k = 0; k < COUNT_OF(at); k++) {
        stop_at st = { 0, at[k] };

        CU_ASSERT_EQUAL(ctg_generate(net, &o, stop_at_call, &st, &err), CTG_ESTOPPED);
        CU_ASSERT_EQUAL(st.calls, at[k]);
        snprintf(want, sizeof want, "stopped by the callback at \"%s\"",
                 ctg_list_contingency_at(all, at[k] - 1)->id);
        CU_ASSERT_STRING_EQUAL(err.message, want);
    }
    ctg_list_free(all);
    ctg_network_free(net);
}

typedef struct thread_job {
    const ctg_network *net;
    char *ids; /* malloc'd */
} thread_job;

static void *generate_in_thread(void *arg)
{
    thread_job *j = arg;
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_ALL_PAIRS);
    ctg_list *l = NULL;

    s.id_regex = "L";
    if (ctg_list_new(&l, CTG_LIST_DEFAULT, "t", NULL) == CTG_OK &&
        ctg_generate(j->net, &o, collect, l, NULL) == CTG_OK)
        j->ids = strdup(ids_of_r(l));
    ctg_list_free(l);
    return NULL;
}

/* A network is only read: several threads generate from it at once and agree. */
CTG_TEST(generate, threads)
{
    ctg_network *net = read_net(PAIRS);
    thread_job jobs[4];
    pthread_t t[4];

    for (int i = 0; i < 4; i++) {
        jobs[i].net = net;
        jobs[i].ids = NULL;
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, generate_in_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_PTR_NOT_NULL(jobs[i].ids);
        if (jobs[i].ids != NULL && jobs[0].ids != NULL)
            CU_ASSERT_STRING_EQUAL(jobs[i].ids, jobs[0].ids);
    }
    CU_ASSERT(jobs[0].ids != NULL && strncmp(jobs[0].ids, "N-2_L12a+L12b N-2_L12a+L13 ", 27) == 0);
    for (int i = 0; i < 4; i++)
        free(jobs[i].ids);
    ctg_network_free(net);
}

/* ---- the busbar rule ---------------------------------------------------------------------- */

/* The busbar contingencies of `types` in `file`, as "id:element,element" joined by spaces. */
static void expect_busbars(const char *file, const ctg_identifiable_type *types, size_t n,
                           const char *expected, size_t busbars)
{
    ctg_network *net = read_net(file);
    ctg_gen_topology *topo = NULL;
    ctg_source src = ctg_source_path(file);
    ctg_gen_selection s = types_sel(types, n);
    ctg_gen_options o = rule_opts(&s, CTG_GEN_BUSBAR);
    ctg_gen_counts c = { CTG_GEN_COUNTS_VERSION, { 0 }, 0, 0, 0 };
    ctg_test_text t = { 0 };
    ctg_list *l;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_gen_topology_read(&topo, net, &src, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_gen_topology_busbar_count(topo), busbars);
    o.topology = topo;
    l = generate(net, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    for (size_t i = 0; i < ctg_list_contingency_count(l); i++) {
        const ctg_contingency *k = ctg_list_contingency_at(l, i);

        if (i > 0)
            ctg_test_text_add(&t, " ", 1);
        ctg_test_text_add(&t, k->id, strlen(k->id));
        for (size_t e = 0; e < k->element_count; e++) {
            ctg_test_text_add(&t, e == 0 ? ":" : ",", 1);
            ctg_test_text_add(&t, k->elements[e].id, strlen(k->elements[e].id));
        }
    }
    if (strcmp(t.data != NULL ? t.data : "", expected) != 0)
        fprintf(stderr, "%s busbar:\n  got      %s\n  expected %s\n", file, t.data, expected);
    CU_ASSERT_STRING_EQUAL(t.data != NULL ? t.data : "", expected);
    CU_ASSERT_EQUAL(ctg_generate_count(net, &o, &c, &err), CTG_OK);
    CU_ASSERT_EQUAL(c.contingencies, ctg_list_contingency_count(l));
    CU_ASSERT_EQUAL(c.groups, busbars);
    /* The selection counted per type, as the other rules count it: every object of them. */
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(c.selected[types[i]], ctg_network_count(net, types[i]));
    free(t.data);
    ctg_list_free(l);
    ctg_gen_topology_free(topo);
    ctg_network_free(net);
}

#define BUSBAR CTG_TESTDATA("network/generate/busbar.xiidm")

CTG_TEST(generate, busbar)
{
    static const ctg_identifiable_type t[] = { CTG_IDENTIFIABLE_LINE,
                                               CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER,
                                               CTG_IDENTIFIABLE_GENERATOR, CTG_IDENTIFIABLE_LOAD };
    static const ctg_identifiable_type lines[] = { CTG_IDENTIFIABLE_LINE };
    static const ctg_identifiable_type tie[] = { CTG_IDENTIFIABLE_TIE_LINE,
                                                 CTG_IDENTIFIABLE_LINE };

    /* BBS1: TR1 in its zone (internal connection), LA behind BRK_LA; the coupler BRK_C leads
     * to BBS2: nothing behind it is lost. BBS2: G1 and LD1 behind their breakers (LD1's
     * disconnector to BBS1 is open), not LB (open breaker). Buses: what is on them (LD3 is
     * only connectable there). */
    expect_busbars(BUSBAR, t, COUNT_OF(t),
                   "BUSBAR_BBS1:LA,TR1 BUSBAR_BBS2:G1,LD1 BUSBAR_B2a:TR1,LD2 BUSBAR_B2b:G2 "
                   "BUSBAR_B3:LA,LB", 5);
    /* A busbar without selected equipment gives nothing. */
    expect_busbars(BUSBAR, lines, COUNT_OF(lines), "BUSBAR_BBS1:LA BUSBAR_B3:LA,LB", 5);
    /* A paired boundary line brings its tie line; the selection's order: tie lines first. */
    expect_busbars(PAIRS, tie, COUNT_OF(tie),
                   "BUSBAR_B1_400:L12a,L12b,L13 BUSBAR_B2_400:L12a,L12b,L23,L25a,L25b "
                   "BUSBAR_B3_400:TL34,L13,L23,L34 BUSBAR_B4_400:TL34,L34 BUSBAR_B5:L25a,L25b",
                   7);
}

#define TIE_V17 CTG_TESTDATA("network/generate/tieline-v1_7.xiidm")
#define TIE_V17_J CTG_TESTDATA("network/generate/tieline-v1_7.jiidm")
#define HVDC CTG_TESTDATA("network/generate/hvdc.xiidm")
#define HVDC2 CTG_TESTDATA("network/generate/hvdc2.xiidm")
#define ACDC CTG_TESTDATA("network/generate/acdc.xiidm")
#define ACDC_J CTG_TESTDATA("network/generate/acdc.jiidm")

/* What the busbar rule once missed: the terminals of a tie line of IIDM 1.0 to 1.9 (held by
 * the tie line's element, not by its halves'), the HVDC line a converter station brings, and a
 * busbar section as a terminal of its own zone. */
CTG_TEST(generate, busbar_old_tie_lines_hvdc_and_sections)
{
    static const ctg_identifiable_type tie[] = { CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_TIE_LINE,
                                                 CTG_IDENTIFIABLE_BOUNDARY_LINE };
    static const ctg_identifiable_type hvdc[] = { CTG_IDENTIFIABLE_HVDC_LINE };
    static const ctg_identifiable_type stations[] = { CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION };
    static const ctg_identifiable_type sections[] = { CTG_IDENTIFIABLE_BUSBAR_SECTION };
    static const ctg_identifiable_type both[] = { CTG_IDENTIFIABLE_HVDC_LINE,
                                                  CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION };
    static const ctg_identifiable_type vsc[] = { CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER };

    expect_busbars(TIE_V17, tie, COUNT_OF(tie),
                   "BUSBAR_B1:L12,TL12,TL12.1 BUSBAR_B2:L12,TL12,TL12.2", 2);
    expect_busbars(TIE_V17_J, tie, COUNT_OF(tie),
                   "BUSBAR_B1:L12,TL12,TL12.1 BUSBAR_B2:L12,TL12,TL12.2", 2);
    expect_busbars(HVDC, hvdc, COUNT_OF(hvdc), "BUSBAR_BBS1:HV1 BUSBAR_B2:HV1", 2);
    expect_busbars(HVDC, stations, COUNT_OF(stations), "BUSBAR_BBS1:HV1 BUSBAR_B2:HV1", 2);
    expect_busbars(HVDC, sections, COUNT_OF(sections), "BUSBAR_BBS1:BBS1", 2);
    /* A station and its line are one element: written once. */
    expect_busbars(HVDC, both, COUNT_OF(both), "BUSBAR_BBS1:HV1 BUSBAR_B2:HV1", 2);
    /* The coupler parts BBS1's zone from BBS2's. */
    expect_busbars(BUSBAR, sections, COUNT_OF(sections), "BUSBAR_BBS1:BBS1 BUSBAR_BBS2:BBS2", 5);
    /* An AC/DC converter (1.15 on) on a bus at each of its two AC terminals: once missed by
     * both topology readers. */
    expect_busbars(ACDC, vsc, COUNT_OF(vsc), "BUSBAR_B1:VSC BUSBAR_B2:VSC", 2);
    expect_busbars(ACDC_J, vsc, COUNT_OF(vsc), "BUSBAR_B1:VSC BUSBAR_B2:VSC", 2);
}

/* A converter station's element is its HVDC line: the line and its two stations are one
 * outage, so all-pairs pairs the first of them once with each other element, never with
 * itself (VSC1+VSC2 once held HV1 twice). The count is of the pairs made. */
CTG_TEST(generate, all_pairs_one_hvdc_outage_once)
{
    static const ctg_identifiable_type stations[] = { CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION,
                                                      CTG_IDENTIFIABLE_BUSBAR_SECTION };
    static const ctg_identifiable_type all[] = { CTG_IDENTIFIABLE_HVDC_LINE,
                                                 CTG_IDENTIFIABLE_BUSBAR_SECTION,
                                                 CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION };
    static const ctg_identifiable_type two[] = { CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION };
    static const ctg_identifiable_type with_load[] = { CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION,
                                                       CTG_IDENTIFIABLE_LOAD };

    /* In the selection's order (the types'), the first of the three is kept. */
    expect_pairs(HVDC, CTG_GEN_ALL_PAIRS, stations, COUNT_OF(stations), "N-2_VSC1+BBS1", 0);
    expect_pairs(HVDC, CTG_GEN_ALL_PAIRS, all, COUNT_OF(all), "N-2_HV1+BBS1", 0);
    expect_pairs(HVDC, CTG_GEN_ALL_PAIRS, two, COUNT_OF(two), "", 0);
    /* Two lines whose stations alternate (VSC1, VSC3: HVB; VSC2, VSC4: HVA): each line's
     * first station is kept, in the selection's order. */
    expect_pairs(HVDC2, CTG_GEN_ALL_PAIRS, two, COUNT_OF(two), "N-2_VSC1+VSC2", 0);
    expect_pairs(HVDC2, CTG_GEN_ALL_PAIRS, with_load, COUNT_OF(with_load),
                 "N-2_VSC1+VSC2 N-2_VSC1+LD N-2_VSC2+LD", 0);
    expect_pairs(HVDC2, CTG_GEN_ALL_PAIRS, all, COUNT_OF(all), "N-2_HVA+HVB", 0);
}

#define BUSBAR_J CTG_TESTDATA("network/generate/busbar.jiidm")

/* The busbars and contingencies of `file` read through a FILE (the refilled input). */
static void expect_busbars_fp(const char *file, const char *expected_ids)
{
    ctg_network *net = read_net(file);
    ctg_gen_topology *topo = NULL;
    FILE *fp = fopen(file, "rb");
    ctg_source src = ctg_source_fp(fp);
    ctg_gen_selection s = types_sel(all_types, COUNT_OF(all_types));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_BUSBAR);
    ctg_test_text t = { 0 };
    ctg_list *l;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    CU_ASSERT_EQUAL_FATAL(ctg_gen_topology_read(&topo, net, &src, NULL, &err), CTG_OK);
    fclose(fp);
    CU_ASSERT_EQUAL(ctg_gen_topology_busbar_count(topo), 5);
    o.topology = topo;
    l = generate(net, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    for (size_t i = 0; i < ctg_list_contingency_count(l); i++) {
        const ctg_contingency *k = ctg_list_contingency_at(l, i);

        ctg_test_text_add(&t, i > 0 ? " " : "", i > 0);
        ctg_test_text_add(&t, k->id, strlen(k->id));
    }
    CU_ASSERT_STRING_EQUAL(t.data != NULL ? t.data : "", expected_ids);
    free(t.data);
    ctg_list_free(l);
    ctg_gen_topology_free(topo);
    ctg_network_free(net);
}

/* busbar.jiidm is busbar.xiidm by hand in JSON: the same busbars, the same contingencies. */
CTG_TEST(generate, busbar_jiidm)
{
    static const ctg_identifiable_type t[] = { CTG_IDENTIFIABLE_LINE,
                                               CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER,
                                               CTG_IDENTIFIABLE_GENERATOR, CTG_IDENTIFIABLE_LOAD };
    static const ctg_identifiable_type lines[] = { CTG_IDENTIFIABLE_LINE };

    expect_busbars(BUSBAR_J, t, COUNT_OF(t),
                   "BUSBAR_BBS1:LA,TR1 BUSBAR_BBS2:G1,LD1 BUSBAR_B2a:TR1,LD2 BUSBAR_B2b:G2 "
                   "BUSBAR_B3:LA,LB", 5);
    expect_busbars(BUSBAR_J, lines, COUNT_OF(lines), "BUSBAR_BBS1:LA BUSBAR_B3:LA,LB", 5);
    /* Refilled, both formats: the bytes looked at to tell them apart are read again. */
    expect_busbars_fp(BUSBAR_J, "BUSBAR_BBS1 BUSBAR_BBS2 BUSBAR_B2a BUSBAR_B2b BUSBAR_B3");
    expect_busbars_fp(BUSBAR, "BUSBAR_BBS1 BUSBAR_BBS2 BUSBAR_B2a BUSBAR_B2b BUSBAR_B3");
}

/* The topology of `json` read for `net` fails with `code`, `message` at `line`:`column`,
 * JSON path `path`. */
static void expect_json_error(const ctg_network *net, const char *json, int code,
                              unsigned line, unsigned column, const char *path,
                              const char *message)
{
    ctg_gen_topology *topo = (ctg_gen_topology *)1;
    ctg_source src = ctg_source_buffer(json, strlen(json));
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_gen_topology_read(&topo, net, &src, NULL, &err), code);
    CU_ASSERT_PTR_NULL(topo);
    if (strcmp(err.message, message) != 0 || strcmp(err.path, path) != 0 || err.line != line ||
        err.column != column)
        fprintf(stderr, "got %u:%u: %s: %s\n", err.line, err.column, err.path, err.message);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    CU_ASSERT_STRING_EQUAL(err.path, path);
    CU_ASSERT_EQUAL(err.line, line);
    CU_ASSERT_EQUAL(err.column, column);
}

CTG_TEST(generate, busbar_jiidm_errors)
{
    ctg_network *net = read_net(BUSBAR_J), *pairs = read_net(PAIRS);
    ctg_gen_topology *topo = (ctg_gen_topology *)1;
    ctg_source src = ctg_source_path(BUSBAR_J);
    ctg_error err;

    /* Another network's file: at the id, its path. */
    CU_ASSERT_EQUAL(ctg_gen_topology_read(&topo, pairs, &src, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(topo);
    CU_ASSERT_STRING_EQUAL(err.message, "\"VL1\" is not in the network (another network's "
                                        "file?)");
    CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0/id");
    CU_ASSERT_EQUAL(err.line, 12);
    CU_ASSERT_EQUAL(err.column, 14);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.source, "busbar.jiidm"));
    /* A switch of a node-breaker level without node2: at its '{'. */
    expect_json_error(net,
                      "{\"id\": \"busbar\", \"substations\": [{\"id\": \"S1\",\n"
                      " \"voltageLevels\": [{\"id\": \"VL1\", \"nodeBreakerTopology\": {\n"
                      "  \"switches\": [{\"id\": \"DISC_C1\", \"node1\": 0, \"node2\": 2},\n"
                      "   {\"id\": \"BRK_C\", \"kind\": \"BREAKER\", \"node1\": 2}]}}]}]}",
                      CTG_ESCHEMA, 4, 4,
                      "/substations/0/voltageLevels/0/nodeBreakerTopology/switches/1",
                      "switch needs node1 and node2");
    expect_json_error(net,
                      "{\"substations\": [{\"voltageLevels\": [{\"id\": \"VL1\",\n"
                      " \"nodeBreakerTopology\": {\"internalConnections\": [{\"node2\": 1}]}}]}]}",
                      CTG_ESCHEMA, 2, 50,
                      "/substations/0/voltageLevels/0/nodeBreakerTopology/internalConnections/0",
                      "internalConnection needs node1 and node2");
    expect_json_error(net,
                      "{\"substations\": [{\"voltageLevels\": [{\"id\": \"VL1\",\n"
                      " \"nodeBreakerTopology\": {\"switches\": [{\"node1\": -1}]}}]}]}",
                      CTG_ESCHEMA, 2, 49,
                      "/substations/0/voltageLevels/0/nodeBreakerTopology/switches/0/node1",
                      "\"node1\" must be a node number (0 to 4294967295)");
    expect_json_error(net, "{\"substations\": [{\"voltageLevels\": [{\"id\": \"VL1\",\n"
                           " \"nodeBreakerTopology\": {\"switches\": [{\"open\": 1}]}}]}]}",
                      CTG_ESCHEMA, 2, 48,
                      "/substations/0/voltageLevels/0/nodeBreakerTopology/switches/0/open",
                      "expected boolean for \"open\", got number");
    /* A bus-breaker level's switches join buses, not nodes: nothing to check there. */
    static const char bb[] = "{\"substations\": [{\"voltageLevels\": [{\"id\": \"VL2\", "
                             "\"busBreakerTopology\": {\"switches\": [{\"bus1\": \"B2a\"}]}}]}]}";

    src = ctg_source_buffer(bb, sizeof bb - 1);
    CU_ASSERT_EQUAL(ctg_gen_topology_read(&topo, net, &src, NULL, &err), CTG_OK);
    ctg_gen_topology_free(topo);
    /* A lexer's error gets the path it was found at. */
    expect_json_error(net, "{\"lines\": [{\"id\": \"LA\", \"node1\": 5,}]}", CTG_ESYNTAX, 1, 36,
                      "/lines/0", "expected a string key after ',', got '}'");
    ctg_network_free(net);
    ctg_network_free(pairs);
}

CTG_TEST(generate, busbar_errors)
{
    ctg_network *net = read_net(PAIRS), *other = read_net(BUSBAR);
    ctg_gen_topology *topo = (ctg_gen_topology *)1;
    ctg_source src = ctg_source_path(BUSBAR);
    ctg_gen_selection s = types_sel(branches, COUNT_OF(branches));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_BUSBAR);
    static const char json[] = " {\"version\":\"1.17\"}";
    ctg_error err;

    /* Another network's file. */
    CU_ASSERT_EQUAL(ctg_gen_topology_read(&topo, net, &src, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(topo);
    CU_ASSERT_STRING_EQUAL(err.message, "\"VL1\" is not in the network (another network's "
                                        "file?)");
    CU_ASSERT_EQUAL(err.line, 10);
    CU_ASSERT_EQUAL(err.column, 9);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.source, "busbar.xiidm"));
    /* JSON by its first significant byte: a network without levels has no busbar. */
    src = ctg_source_buffer(json, sizeof json - 1);
    CU_ASSERT_EQUAL_FATAL(ctg_gen_topology_read(&topo, net, &src, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_gen_topology_busbar_count(topo), 0);
    ctg_gen_topology_free(topo);
    src = ctg_source_buffer("<a><b></a>", 10);
    CU_ASSERT_EQUAL(ctg_gen_topology_read(&topo, net, &src, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_STRING_EQUAL(err.message, "malformed XML: mismatched tag");
    /* The rule needs the topology of the network it runs on. */
    expect_error(net, &o, CTG_EINVAL, "options: the busbar rule needs the topology of this "
                                      "network");
    src = ctg_source_path(BUSBAR);
    CU_ASSERT_EQUAL_FATAL(ctg_gen_topology_read(&topo, other, &src, NULL, &err), CTG_OK);
    o.topology = topo;
    expect_error(net, &o, CTG_EINVAL, "options: the busbar rule needs the topology of this "
                                      "network");
    expect_no_criterion(&o, "the rule busbar has no criterion equivalent (only a selection's "
                            "N-1 has one)");
    ctg_gen_topology_free(topo);
    ctg_gen_topology_free(NULL);
    ctg_network_free(net);
    ctg_network_free(other);
}

/* The topology read and the busbar rule under allocation failures. */
/* `refill`: through a FILE, so that the bytes peeked at to tell the format are kept too. */
static void busbar_sweep(const char *file, bool refill)
{
    ctg_network *net = read_net(file);
    ctg_gen_topology *topo = NULL;
    ctg_gen_selection s = types_sel(all_types, COUNT_OF(all_types));
    ctg_gen_options o = rule_opts(&s, CTG_GEN_BUSBAR);
    ctg_error err;
    size_t runs = 0;

    for (size_t at = 1;; at++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        FILE *fp = refill ? fopen(file, "rb") : NULL;
        ctg_source src = refill ? ctg_source_fp(fp) : ctg_source_path(file);
        int rc;

        CU_ASSERT_FATAL(!refill || fp != NULL);
        st.fail_at = at;
        rc = ctg_gen_topology_read(&topo, net, &src, &a, &err);
        if (fp != NULL)
            fclose(fp);
        if (rc == CTG_OK) {
            o.topology = topo;
            runs = sweep(net, &o, false);
            ctg_gen_topology_free(topo);
            o.topology = NULL;
        }
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        if (!st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            break;
        }
        if (rc != CTG_ENOMEM)
            ctg_test_report("topology sweep", &err);
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
    }
    CU_ASSERT(runs > 0);
    ctg_network_free(net);
}

CTG_TEST(generate, busbar_allocation_failures)
{
    busbar_sweep(BUSBAR, false);
    busbar_sweep(BUSBAR_J, false);
    busbar_sweep(BUSBAR, true);
    busbar_sweep(BUSBAR_J, true);
}

#include "test_generate.tests.h"
