/* SPDX-License-Identifier: MPL-2.0 */
/* Resolving lists against a network (network/resolve*.c): the 225 golden cases PowSyBl
 * produced (../shared/testdata/resolve), the same eurostag cases on the network built in code,
 * and the rules whose edges the goldens do not pin down: wildcard splitting, the TWO_COUNTRY
 * asymmetry, interval bounds, property sides, regex find semantics and errors, the report
 * events, the stream form, and allocation failures. */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/iidm.h"
#include "ctg/network.h"
#include "ctg/resolve.h"
#include "ctg/stream.h"
#include "network/resolve_int.h"
#include "network/table.h"
#include "tests/net_golden.h"
#include "tests/test_common.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- networks built in code --------------------------------------------------------------- */

static void add(ctg_network *net, const ctg_net_spec *s)
{
    ctg_error err;
    int rc = ctg_network_add(net, s, NULL, &err);

    if (rc != CTG_OK)
        ctg_test_report(s->id, &err);
    CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
}

static void substation(ctg_network *net, const char *id, const char *country)
{
    ctg_net_spec s = CTG_NET_SPEC_INIT;

    s.type = CTG_IDENTIFIABLE_SUBSTATION;
    s.id = id;
    s.country = country;
    add(net, &s);
}

static void voltage_level(ctg_network *net, const char *id, const char *sub, double nominal_v)
{
    ctg_net_spec s = ctg_test_vl_spec(id, sub, nominal_v, CTG_TOPOLOGY_BUS_BREAKER);

    add(net, &s);
}

/* An object standing in up to three voltage levels (NULL for fewer). */
static void equipment(ctg_network *net, ctg_identifiable_type type, const char *id,
                      const char *vl1, const char *vl2, const char *sub)
{
    ctg_net_spec s = ctg_test_spec(type, id, vl1, vl2, NULL);

    s.substation = sub;
    add(net, &s);
}

static void three_wt(ctg_network *net, const char *id, const char *vl1, const char *vl2,
                     const char *vl3, const char *sub)
{
    ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER, id, vl1, vl2, vl3);

    s.substation = sub;
    add(net, &s);
}

static void property(ctg_network *net, const char *id, const char *key, const char *value)
{
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_network_set_property(net, id, key, value, &err), CTG_OK);
}

/* PowSyBl's "Eurostag tutorial example 1", as ../shared/testdata/resolve/eurostag.xiidm holds
 * it, in the same document order. */
static ctg_network *eurostag_in_code(const ctg_allocator *a)
{
    ctg_network *net = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_network_new(&net, "sim1", a, NULL), CTG_OK);
    for (size_t i = 0; i < CTG_TEST_EUROSTAG_COUNT; i++) {
        ctg_net_spec s = ctg_test_eurostag_spec(i);
        add(net, &s);
    }
    return net;
}

/* A small network for the rules: DE, NL and a substation without country, a voltage level
 * without substation, lines in every direction between them, a 3WT, properties. */
static ctg_network *unit_network(const ctg_allocator *a)
{
    ctg_network *net = NULL;

    if (ctg_network_new(&net, "unit", a, NULL) != CTG_OK)
        return NULL;
    substation(net, "SDE", "DE");
    voltage_level(net, "DE400", "SDE", 400.0);
    voltage_level(net, "DE220", "SDE", 220.0);
    voltage_level(net, "DE110", "SDE", 110.0);
    equipment(net, CTG_IDENTIFIABLE_GENERATOR, "GEN_DE", "DE220", NULL, NULL);
    equipment(net, CTG_IDENTIFIABLE_LOAD, "LOAD_DE", "DE110", NULL, NULL);
    three_wt(net, "T3", "DE400", "DE220", "DE110", "SDE");
    substation(net, "SNONE", NULL);
    voltage_level(net, "NONE220", "SNONE", 220.0);
    substation(net, "SNL", "NL");
    voltage_level(net, "NL220", "SNL", 220.0);
    equipment(net, CTG_IDENTIFIABLE_GENERATOR, "GEN_NL", "NL220", NULL, NULL);
    equipment(net, CTG_IDENTIFIABLE_LINE, "L_DE_NONE", "DE220", "NONE220", NULL);
    equipment(net, CTG_IDENTIFIABLE_LINE, "L_NONE_DE", "NONE220", "DE220", NULL);
    equipment(net, CTG_IDENTIFIABLE_LINE, "L_DE_NL", "DE220", "NL220", NULL);
    equipment(net, CTG_IDENTIFIABLE_LINE, "L_NL_DE", "NL220", "DE220", NULL);
    property(net, "DE220", "zone", "north");
    property(net, "NL220", "zone", "north");
    property(net, "NONE220", "zone", "south");
    property(net, "GEN_DE", "kind", "coal");
    return net;
}

/* ---- the golden cases --------------------------------------------------------------------- */

/* How the cases of a run ended. */
typedef struct golden_counts {
    size_t run, exact, unordered, load_errors, eval_errors, failed;
} golden_counts;

static char *resolve_dir_file(const char *rel)
{
    const char *dir = ctg_test_shared_dir();
    size_t n = strlen(dir) + strlen(rel) + 16;
    char *p = malloc(n);

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    snprintf(p, n, "%s/resolve/%s", dir, rel);
    return p;
}

/* The network file of the golden data, read by the XIIDM importer. */
static ctg_network *read_network(const char *name)
{
    char rel[64];
    char *path;
    ctg_network *net = NULL;
    ctg_source src;
    ctg_error err;
    int rc;

    snprintf(rel, sizeof rel, "%s.xiidm", name);
    path = resolve_dir_file(rel);
    src = ctg_source_path(path);
    rc = ctg_iidm_read(&net, &src, NULL, &err);
    if (rc != CTG_OK)
        ctg_test_report(path, &err);
    free(path);
    return net;
}

static int strcmp_ptr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A contingency as one comparable line; `unordered`: element order and the parts of a generated
 * id do not count (INDEX.md). */
static char *canonical(const ctg_contingency *c, bool unordered)
{
    static const char gen[] = "Contingency : ";
    ctg_test_text t = { NULL, 0, 0 };
    char **parts = calloc(c->element_count + 1, sizeof *parts);
    size_t n = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(parts);
    if (unordered && strncmp(c->id, gen, sizeof gen - 1) == 0) {
        char *ids = strdup(c->id + sizeof gen - 1), *save = NULL;
        size_t k = 0;
        char *words[256];

        for (char *w = strtok_r(ids, "+", &save); w != NULL && k < 256;
             w = strtok_r(NULL, "+", &save))
            words[k++] = w;
        for (size_t i = 0; i < k; i++) /* trim the spaces around " + " */
            while (*words[i] == ' ')
                words[i]++;
        for (size_t i = 0; i < k; i++) {
            size_t l = strlen(words[i]);
            while (l > 0 && words[i][l - 1] == ' ')
                words[i][--l] = '\0';
        }
        qsort(words, k, sizeof *words, strcmp_ptr);
        ctg_test_text_add(&t, gen, sizeof gen - 1);
        for (size_t i = 0; i < k; i++) {
            ctg_test_text_add(&t, words[i], strlen(words[i]));
            ctg_test_text_add(&t, "|", 1);
        }
        free(ids);
    } else {
        ctg_test_text_add(&t, c->id, strlen(c->id));
    }
    ctg_test_text_add(&t, " name=", 6);
    if (c->name != NULL)
        ctg_test_text_add(&t, c->name, strlen(c->name));
    for (size_t i = 0; i < c->element_count; i++) {
        const ctg_element *e = &c->elements[i];
        char line[600];

        snprintf(line, sizeof line, " {%s %s %s}", e->id, ctg_element_type_name(e->type),
                 e->voltage_level_id != NULL ? e->voltage_level_id : "-");
        parts[n++] = strdup(line);
    }
    if (unordered)
        qsort(parts, n, sizeof *parts, strcmp_ptr);
    for (size_t i = 0; i < n; i++) {
        ctg_test_text_add(&t, parts[i], strlen(parts[i]));
        free(parts[i]);
    }
    free(parts);
    return t.data;
}

/* The contingencies of `got` and `want` as multisets (unordered) or sequences; prints the first
 * difference. */
static bool same_contingencies(const ctg_list *got, const ctg_list *want, bool unordered,
                               const char *what)
{
    size_t ng = 0, nw = 0, kept = 0;
    const ctg_contingency *g = ctg_list_contingencies(got, &ng);
    const ctg_contingency *w = ctg_list_contingencies(want, &nw);
    char **gs = calloc(ng + 1, sizeof *gs), **ws = calloc(nw + 1, sizeof *ws);
    bool same;

    for (size_t i = 0; i < ng; i++)
        gs[i] = canonical(&g[i], unordered);
    for (size_t i = 0; i < nw; i++)
        ws[kept++] = canonical(&w[i], unordered);
    if (unordered) {
        qsort(gs, ng, sizeof *gs, strcmp_ptr);
        qsort(ws, kept, sizeof *ws, strcmp_ptr);
    }
    same = ng == kept;
    for (size_t i = 0; same && i < ng; i++)
        if (strcmp(gs[i], ws[i]) != 0) {
            fprintf(stderr, "%s: contingency %zu:\n  got  %s\n  want %s\n", what, i, gs[i],
                    ws[i]);
            same = false;
        }
    if (ng != kept)
        fprintf(stderr, "%s: %zu contingencies, want %zu\n", what, ng, kept);
    for (size_t i = 0; i < ng; i++)
        free(gs[i]);
    for (size_t i = 0; i < kept; i++)
        free(ws[i]);
    free(gs);
    free(ws);
    return same;
}

/* An expected list: the written bytes (exact) or the contingency multisets (unordered). */
static bool check_expected(json_object *row, const ctg_list *got,
                           golden_counts *n, const char *what)
{
    const char *order = json_object_get_string(json_object_object_get(row, "order"));
    char *path = resolve_dir_file(json_object_get_string(json_object_object_get(row, "expected")));
    ctg_list *want = ctg_test_read_path(path, NULL);
    bool unordered = strcmp(order, "unordered") == 0, ok = false;

    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    if (unordered) {
        ok = same_contingencies(got, want, true, what);
        n->unordered += ok;
    } else {
        size_t len = 0, wlen = 0;
        char *bytes = ctg_test_write_text(got, &len), *wbytes = ctg_test_slurp(path, &wlen);

        ok = bytes != NULL && wbytes != NULL && len == wlen && memcmp(bytes, wbytes, len) == 0;
        if (!ok)
            same_contingencies(got, want, false, what);
        n->exact += ok;
        free(bytes);
        free(wbytes);
    }
    ctg_list_free(want);
    free(path);
    return ok;
}

/* An expected error: the list cannot be read (load) or cannot be resolved (evaluate). */
static bool check_error(const ctg_network *net, const char *input, const char *phase,
                        golden_counts *n, const char *what)
{
    ctg_list *list = NULL, *out = NULL;
    ctg_error err;
    int rc = ctg_list_read_file(&list, input, NULL, &err);
    bool ok;

    if (strcmp(phase, "load") == 0) {
        ok = rc != CTG_OK && list == NULL;
        n->load_errors += ok;
        return ok;
    }
    if (rc != CTG_OK) {
        ctg_test_report(what, &err);
        return false;
    }
    rc = ctg_resolve(&out, net, list, NULL, &err);
    ok = rc == CTG_ESCHEMA && out == NULL && err.path[0] == '/' && err.message[0] != '\0';
    if (!ok)
        fprintf(stderr, "%s: resolve gave %d, want CTG_ESCHEMA with a path\n", what, rc);
    n->eval_errors += ok;
    ctg_list_free(list);
    ctg_list_free(out);
    return ok;
}

static bool run_case(const ctg_network *net, json_object *row, golden_counts *n)
{
    const char *network = json_object_get_string(json_object_object_get(row, "network"));
    const char *name = json_object_get_string(json_object_object_get(row, "list"));
    char *input = resolve_dir_file(json_object_get_string(json_object_object_get(row, "input")));
    json_object *experr = json_object_object_get(row, "expectedError");
    char what[160];
    bool ok = false;

    snprintf(what, sizeof what, "%s/%s", network, name);
    n->run++;
    if (experr != NULL) {
        char *epath = resolve_dir_file(json_object_get_string(experr));
        json_object *e = json_object_from_file(epath);

        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        ok = check_error(net, input, json_object_get_string(json_object_object_get(e, "phase")),
                         n, what);
        json_object_put(e);
        free(epath);
    } else {
        ctg_list *list = ctg_test_read_path(input, NULL), *out = NULL;
        ctg_error err;
        int rc = list != NULL ? ctg_resolve(&out, net, list, NULL, &err) : CTG_EINVAL;

        if (rc != CTG_OK && list != NULL)
            ctg_test_report(what, &err);
        ok = rc == CTG_OK && check_expected(row, out, n, what);
        ctg_list_free(list);
        ctg_list_free(out);
    }
    if (!ok) {
        fprintf(stderr, "golden case %s failed\n", what);
        n->failed++;
    }
    free(input);
    return ok;
}

/* Runs the rows of index.json for `only` (NULL: every network), on `given` or on each
 * network's file read once. */
static void run_golden(const char *only, const ctg_network *given, golden_counts *n)
{
    char *ipath = resolve_dir_file("index.json");
    json_object *index = json_object_from_file(ipath);
    static const char *const names[] = { "eurostag", "four-substations", "three-windings",
                                         "mixed" };
    ctg_network *nets[COUNT_OF(names)] = { NULL };

    CU_ASSERT_PTR_NOT_NULL_FATAL(index);
    for (size_t k = 0; given == NULL && k < COUNT_OF(names); k++) {
        nets[k] = read_network(names[k]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(nets[k]);
    }
    for (size_t i = 0; i < json_object_array_length(index); i++) {
        json_object *row = json_object_array_get_idx(index, i);
        const char *network = json_object_get_string(json_object_object_get(row, "network"));
        const ctg_network *net = given;

        if (only != NULL && strcmp(network, only) != 0)
            continue;
        for (size_t k = 0; net == NULL && k < COUNT_OF(names); k++)
            if (strcmp(names[k], network) == 0)
                net = nets[k];
        CU_ASSERT_PTR_NOT_NULL_FATAL(net);
        CU_ASSERT(run_case(net, row, n));
    }
    for (size_t k = 0; k < COUNT_OF(names); k++)
        ctg_network_free(nets[k]);
    json_object_put(index);
    free(ipath);
}

/* The golden cases' outcome: `run` cases, none failed, so many of each kind. */
static void expect_counts(const golden_counts *n, size_t run, size_t exact, size_t unordered,
                          size_t load_errors, size_t eval_errors)
{
    CU_ASSERT_EQUAL(n->run, run);
    CU_ASSERT_EQUAL(n->failed, 0);
    CU_ASSERT_EQUAL(n->exact, exact);
    CU_ASSERT_EQUAL(n->unordered, unordered);
    CU_ASSERT_EQUAL(n->load_errors, load_errors);
    CU_ASSERT_EQUAL(n->eval_errors, eval_errors);
}

CTG_SHARED_TEST(resolve, golden_cases)
{
    golden_counts n = { 0 };

    run_golden(NULL, NULL, &n);
    printf("\n  golden: %zu run, %zu exact, %zu unordered, %zu load errors, %zu evaluation "
           "errors, %zu failed\n", n.run, n.exact, n.unordered, n.load_errors, n.eval_errors,
           n.failed);
    expect_counts(&n, 225, 189, 15, 4, 17);
}

CTG_SHARED_TEST(resolve, golden_eurostag_built_in_code)
{
    golden_counts n = { 0 };
    ctg_network *net = eurostag_in_code(NULL);

    run_golden("eurostag", net, &n);
    expect_counts(&n, 54, 41, 3, 1, 9);
    ctg_network_free(net);
}

/* The written result of `list` on `net`, or the error as "error CODE PATH: MESSAGE". */
static char *outcome(const ctg_network *net, const ctg_list *list)
{
    ctg_list *out = NULL;
    ctg_error err;
    int rc = ctg_resolve(&out, net, list, NULL, &err);
    char *text;
    size_t len;

    if (rc != CTG_OK) {
        text = malloc(CTG_ERROR_PATH_MAX + CTG_ERROR_MESSAGE_MAX + 32);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        sprintf(text, "error %d %s: %s", rc, err.path, err.message);
        return text;
    }
    text = ctg_test_write_text(out, &len);
    ctg_list_free(out);
    return text;
}

/* The network built in code and the imported file give the same bytes (or the same error) on
 * every eurostag case. */
CTG_SHARED_TEST(resolve, built_and_imported_eurostag_agree)
{
    char *ipath = resolve_dir_file("index.json");
    json_object *index = json_object_from_file(ipath);
    ctg_network *built = eurostag_in_code(NULL), *read = read_network("eurostag");
    size_t compared = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(index);
    CU_ASSERT_PTR_NOT_NULL_FATAL(read);
    for (size_t i = 0; i < json_object_array_length(index); i++) {
        json_object *row = json_object_array_get_idx(index, i);
        char *input;
        ctg_list *list = NULL;

        if (strcmp(json_object_get_string(json_object_object_get(row, "network")), "eurostag"))
            continue;
        input = resolve_dir_file(json_object_get_string(json_object_object_get(row, "input")));
        if (ctg_list_read_file(&list, input, NULL, NULL) == CTG_OK) {
            char *a = outcome(built, list), *b = outcome(read, list);

            CU_ASSERT_STRING_EQUAL(a, b);
            compared++;
            free(a);
            free(b);
        }
        ctg_list_free(list);
        free(input);
    }
    CU_ASSERT_EQUAL(compared, 53);
    ctg_network_free(built);
    ctg_network_free(read);
    json_object_put(index);
    free(ipath);
}

/* ---- the rules, on networks built in code ------------------------------------------------- */

/* The list in `json`, read; fails the test when it cannot be. */
static ctg_list *list_of(const char *json)
{
    ctg_list *list = NULL;
    ctg_error err;
    int rc = ctg_list_read_buffer(&list, json, strlen(json), NULL, &err);

    if (rc != CTG_OK)
        ctg_test_report(json, &err);
    CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
    return list;
}

/* The resolved contingencies of `json` on `net` as "id[el,el] id[el]", or the error as
 * "error PATH: MESSAGE". malloc'd. */
static char *resolved(const ctg_network *net, const char *json)
{
    ctg_list *list = list_of(json), *out = NULL;
    ctg_test_text t = { NULL, 0, 0 };
    ctg_error err;
    int rc = ctg_resolve(&out, net, list, NULL, &err);
    size_t n = 0;
    const ctg_contingency *cs;

    ctg_list_free(list);
    if (rc != CTG_OK) {
        char line[CTG_ERROR_PATH_MAX + CTG_ERROR_MESSAGE_MAX + 16];

        CU_ASSERT_PTR_NULL(out);
        CU_ASSERT_STRING_EQUAL(err.source, "<list>");
        snprintf(line, sizeof line, "error %s: %s", err.path, err.message);
        ctg_test_text_add(&t, line, strlen(line));
        return t.data;
    }
    cs = ctg_list_contingencies(out, &n);
    ctg_test_text_add(&t, "", 0);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            ctg_test_text_add(&t, " ", 1);
        ctg_test_text_add(&t, cs[i].id, strlen(cs[i].id));
        ctg_test_text_add(&t, "[", 1);
        for (size_t j = 0; j < cs[i].element_count; j++) {
            const char *id = cs[i].elements[j].id;

            if (j > 0)
                ctg_test_text_add(&t, ",", 1);
            ctg_test_text_add(&t, id, strlen(id));
        }
        ctg_test_text_add(&t, "]", 1);
    }
    ctg_list_free(out);
    if (t.data == NULL)
        ctg_test_text_add(&t, "", 0);
    return t.data;
}

static void expect(const ctg_network *net, const char *json, const char *want)
{
    char *got = resolved(net, json);

    if (strcmp(got, want) != 0)
        fprintf(stderr, "\n%s\n  got  %s\n  want %s\n", json, got, want);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
}

#define LINE_CRIT(c1, c2)                                                                    \
    "{\"type\":\"lineCriterion\",\"name\":\"l\",\"countryCriterion\":{\"type\":\"TWO_COUNTRY\"," \
    "\"countries1\":[" c1 "],\"countries2\":[" c2 "]}}"

CTG_TEST(resolve, two_country_is_asymmetric_on_absent_countries)
{
    ctg_network *net = unit_network(NULL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    expect(net, LINE_CRIT("\"DE\"", ""),
           "L_DE_NONE[L_DE_NONE] L_DE_NL[L_DE_NL] L_NL_DE[L_NL_DE]");
    expect(net, LINE_CRIT("", "\"DE\""),
           "L_NONE_DE[L_NONE_DE] L_DE_NL[L_DE_NL] L_NL_DE[L_NL_DE]");
    expect(net, LINE_CRIT("\"DE\"", "\"NL\""), "L_DE_NL[L_DE_NL] L_NL_DE[L_NL_DE]");
    expect(net, LINE_CRIT("\"DE\"", "\"DE\""), "");
    expect(net, LINE_CRIT("", ""),
           "L_DE_NONE[L_DE_NONE] L_NONE_DE[L_NONE_DE] L_DE_NL[L_DE_NL] L_NL_DE[L_NL_DE]");
    ctg_network_free(net);
}

#define GEN_VOLTAGE(interval)                                                                \
    "{\"type\":\"injectionCriterion\",\"name\":\"g\",\"identifiableType\":\"GENERATOR\","      \
    "\"nominalVoltageCriterion\":{\"type\":\"SINGLE_NOMINAL_VOLTAGE\",\"voltageInterval\":{"  \
    interval "}}}"

CTG_TEST(resolve, interval_bounds)
{
    ctg_network *net = unit_network(NULL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    expect(net, GEN_VOLTAGE("\"nominalVoltageLowBound\":200,\"lowClosed\":true,"
                            "\"nominalVoltageHighBound\":220,\"highClosed\":true"),
           "GEN_DE[GEN_DE] GEN_NL[GEN_NL]");
    expect(net, GEN_VOLTAGE("\"nominalVoltageLowBound\":200,\"lowClosed\":true,"
                            "\"nominalVoltageHighBound\":220,\"highClosed\":false"), "");
    expect(net, GEN_VOLTAGE("\"nominalVoltageLowBound\":220,\"lowClosed\":false"), "");
    expect(net, GEN_VOLTAGE("\"nominalVoltageLowBound\":220,\"lowClosed\":true"),
           "GEN_DE[GEN_DE] GEN_NL[GEN_NL]");
    expect(net, GEN_VOLTAGE("\"nominalVoltageLowBound\":220,\"lowClosed\":true,"
                            "\"nominalVoltageHighBound\":220,\"highClosed\":true"),
           "GEN_DE[GEN_DE] GEN_NL[GEN_NL]");
    expect(net, GEN_VOLTAGE("\"nominalVoltageHighBound\":219.999,\"highClosed\":true"), "");
    ctg_network_free(net);
}

#define LINE_PROPERTY(side)                                                                  \
    "{\"type\":\"lineCriterion\",\"name\":\"l\",\"propertyCriteria\":[{\"type\":\"PROPERTY\","  \
    "\"propertyKey\":\"zone\",\"propertyValue\":[\"north\"],\"equipmentToCheck\":"            \
    "\"VOLTAGE_LEVEL\"" side "}]}"

CTG_TEST(resolve, property_sides)
{
    ctg_network *net = unit_network(NULL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    expect(net, LINE_PROPERTY(",\"sideToCheck\":\"ONE\""),
           "L_DE_NONE[L_DE_NONE] L_NONE_DE[L_NONE_DE] L_DE_NL[L_DE_NL] L_NL_DE[L_NL_DE]");
    expect(net, LINE_PROPERTY(",\"sideToCheck\":\"BOTH\""), "L_DE_NL[L_DE_NL] L_NL_DE[L_NL_DE]");
    expect(net, LINE_PROPERTY(",\"sideToCheck\":\"ALL_THREE\""),
           "error /propertyCriteria/0: property criterion on \"L_DE_NONE\": only ONE or BOTH "
           "sides can be checked on LINE");
    expect(net, LINE_PROPERTY(""), "error /propertyCriteria/0: property criterion on "
                                   "\"L_DE_NONE\": sideToCheck is required for LINE");
    /* On a 3WT, BOTH is two legs of three: DE220 has the property, DE400 and DE110 not. */
    expect(net,
           "{\"type\":\"threeWindingsTransformerCriterion\",\"name\":\"t\",\"propertyCriteria\":"
           "[{\"type\":\"PROPERTY\",\"propertyKey\":\"zone\",\"propertyValue\":[\"north\"],"
           "\"equipmentToCheck\":\"VOLTAGE_LEVEL\",\"sideToCheck\":\"ONE\"}]}",
           "T3[T3]");
    expect(net,
           "{\"type\":\"threeWindingsTransformerCriterion\",\"name\":\"t\",\"propertyCriteria\":"
           "[{\"type\":\"PROPERTY\",\"propertyKey\":\"zone\",\"propertyValue\":[\"north\"],"
           "\"equipmentToCheck\":\"VOLTAGE_LEVEL\",\"sideToCheck\":\"BOTH\"}]}",
           "");
    ctg_network_free(net);
}

/* A ring of four substations S1..S4 (a voltage level V<i> each) and lines L12, L23, L34, L41
 * between them, with `extra` substations more that nothing stands in and `levels` voltage
 * levels more in no substation (enough of either, and a scan's memo of them is filled on
 * first use, not at once; of the levels, and a substations' memo is not made one of the
 * levels), and properties set after the build, in no order: a value replaced, a long value,
 * a long key, a key up to a NUL. */
static ctg_network *property_ring(size_t extra, size_t levels)
{
    static const char *const lines[][3] = {
        { "L12", "V1", "V2" }, { "L23", "V2", "V3" }, { "L34", "V3", "V4" }, { "L41", "V4", "V1" }
    };
    ctg_network *net = NULL;
    ctg_error err;
    char id[32];

    CU_ASSERT_EQUAL_FATAL(ctg_network_new(&net, "ring", NULL, NULL), CTG_OK);
    for (size_t i = 0; i < levels; i++) { /* first: a level's type_index is not its substation's */
        snprintf(id, sizeof id, "XV%zu", i);
        voltage_level(net, id, NULL, 63.0);
    }
    for (int i = 1; i <= 4; i++) {
        char vl[8];
        snprintf(id, sizeof id, "S%d", i);
        snprintf(vl, sizeof vl, "V%d", i);
        substation(net, id, "FR");
        voltage_level(net, vl, id, 400.0);
    }
    for (size_t i = 0; i < extra; i++) {
        snprintf(id, sizeof id, "X%zu", i);
        substation(net, id, "FR");
    }

    for (size_t i = 0; i < COUNT_OF(lines); i++)
        equipment(net, CTG_IDENTIFIABLE_LINE, lines[i][0], lines[i][1], lines[i][2], NULL);
    property(net, "S3", "zone", "north");
    property(net, "V2", "a key longer than thirty-two bytes, kept once", "x");
    property(net, "S1", "zone", "north");
    property(net, "S2", "zone", "south");
    property(net, "S4", "zone", "north, and a value longer than thirty-two bytes");
    property(net, "V3", "a key longer than thirty-two bytes, kept once", "x");
    property(net, "S2", "zone", "north"); /* replaced */
    CU_ASSERT_EQUAL_FATAL(ctg_network_set_property_obj(net, ctg_network_find_mut(net, "V1", 2),
                                                       "k\0z", 3, "y", 1, &err),
                          CTG_OK);
    return net;
}

#define RING_PROPERTY(check, side, key, values)                                              \
    "{\"type\":\"lineCriterion\",\"name\":\"l\",\"propertyCriteria\":[{\"type\":\"PROPERTY\","  \
    "\"propertyKey\":\"" key "\",\"propertyValue\":[" values "],\"equipmentToCheck\":\""      \
    check "\",\"sideToCheck\":\"" side "\"}]}"

/* The scans test the containers' properties on the scan data's copies, by pointer: the same
 * result as the objects' own properties, whether the memo is filled at once or on first use. */
CTG_TEST(resolve, property_criteria_on_the_scan_copies)
{
    static const size_t more[][2] = { { 0, 0 }, { 20, 0 }, { 0, 4 }, { 0, 20 } };

    for (size_t m = 0; m < COUNT_OF(more); m++) {
        ctg_network *net = property_ring(more[m][0], more[m][1]);

        expect(net, RING_PROPERTY("SUBSTATION", "BOTH", "zone", "\"north\""),
               "L12[L12] L23[L23]");
        expect(net, RING_PROPERTY("SUBSTATION", "ONE", "zone", "\"east\",\"north\""),
               "L12[L12] L23[L23] L34[L34] L41[L41]");
        expect(net,
               RING_PROPERTY("SUBSTATION", "ONE", "zone",
                             "\"north, and a value longer than thirty-two bytes\""),
               "L34[L34] L41[L41]");
        expect(net,
               RING_PROPERTY("VOLTAGE_LEVEL", "BOTH",
                             "a key longer than thirty-two bytes, kept once", "\"x\""),
               "L23[L23]");
        expect(net, RING_PROPERTY("VOLTAGE_LEVEL", "ONE", "k", "\"y\""), "L12[L12] L41[L41]");
        expect(net, RING_PROPERTY("SUBSTATION", "ONE", "zone", "\"south\""), "");
        expect(net, RING_PROPERTY("SUBSTATION", "ONE", "no such key", "\"north\""), "");
        expect(net, RING_PROPERTY("VOLTAGE_LEVEL", "ONE", "zone", "\"north\""), "");
        ctg_network_free(net);
    }
}

#define LINE_REGEX(re)                                                                       \
    "{\"type\":\"lineCriterion\",\"name\":\"l\",\"regexCriterion\":{\"type\":\"REGEX\","       \
    "\"regex\":\"" re "\"}}"

CTG_TEST(resolve, regex_find_and_anchors)
{
    ctg_network *net = unit_network(NULL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    expect(net, LINE_REGEX("NL"), "L_DE_NL[L_DE_NL] L_NL_DE[L_NL_DE]");
    expect(net, LINE_REGEX("^NL"), "");
    expect(net, LINE_REGEX("NL$"), "L_DE_NL[L_DE_NL]");
    expect(net, LINE_REGEX("^L_(DE|NL)_N[A-Z]+$"), "L_DE_NONE[L_DE_NONE] L_DE_NL[L_DE_NL]");
    expect(net, LINE_REGEX("(?i)l_de_nl"), "L_DE_NL[L_DE_NL]");
    expect(net, LINE_REGEX("L_\\\\w{2}_DE"), "L_NL_DE[L_NL_DE]");
    expect(net, LINE_REGEX("L_(DE"),
           "error /regexCriterion: invalid regex \"L_(DE\" (reached by \"L_DE_NONE\"): missing ): "
           "L_(DE");
    /* RE2 syntax, not Java's: no back-references. */
    expect(net, LINE_REGEX("(L)\\\\1"),
           "error /regexCriterion: invalid regex \"(L)\\1\" (reached by \"L_DE_NONE\"): invalid "
           "escape sequence: \\1");
    /* Nothing reaches the regex: no error. */
    expect(net,
           "{\"type\":\"lineCriterion\",\"name\":\"l\",\"countryCriterion\":{\"type\":"
           "\"TWO_COUNTRY\",\"countries1\":[\"FR\"],\"countries2\":[]},\"regexCriterion\":{"
           "\"type\":\"REGEX\",\"regex\":\"(\"}}",
           "");
    /* Nested: the path says which list. */
    expect(net,
           "{\"type\":\"list\",\"name\":\"n\",\"contingencyLists\":[{\"type\":\"default\","
           "\"name\":\"d\",\"contingencies\":[]}," LINE_REGEX("[") "]}",
           "error /contingencyLists/1/regexCriterion: invalid regex \"[\" (reached by "
           "\"L_DE_NONE\"): missing ]: [");
    ctg_network_free(net);
}

CTG_TEST(resolve, wildcard_splitting)
{
    /* Inner and leading wildcards stand for one character each. */
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("A?B", '?', "AxB"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("A?B", '?', "AB"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("A?B", '?', "AxyB"));
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("A??B", '?', "AxyB"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("A??B", '?', "AxB"));
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("??EN", '?', "NGEN"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("??EN", '?', "GEN"));
    /* A trailing run is one character (Java's split drops the trailing empty pieces). */
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("NGEN_NHV??", '?', "NGEN_NHV1"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("NGEN_NHV??", '?', "NGEN_NHV12"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("NHV1_NHV2??", '?', "NHV1_NHV2_1"));
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("NHV1_NHV2??", '?', "NHV1_NHV2_"));
    /* Wildcards only: no piece, one trailing character. */
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("?", '?', "NGEN"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("???", '?', "ABC"));
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("???", '?', "A"));
    /* The whole id, literally: regex metacharacters are plain characters. */
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("LOAD.DE2[?]", '?', "LOAD.DE2[1]"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("LOAD.DE2[?]", '?', "LOADxDE2[1]"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("GEN?", '?', "GEN12"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("GEN?", '?', "XGEN1"));
    /* A custom wildcard, one code point, UTF-8 on both sides; '?' is then a character. */
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("NHV2_NLOA*", '*', "NHV2_NLOAD"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("NHV2_NLOA?", '*', "NHV2_NLOAD"));
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("A\xc3\xa9" "B", 0xE9, "A\xe2\x82\xac" "B"));
    CU_ASSERT_TRUE(ctg_rs_wildcard_match("A?B", '?', "A\xc3\xa9" "B"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("A??B", '?', "A\xc3\xa9" "B"));
    /* "Any character" is not a line terminator. */
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("A?B", '?', "A\nB"));
    CU_ASSERT_FALSE(ctg_rs_wildcard_match("A?B", '?', "A\xe2\x80\xa8" "B"));
}

#define IDENT(items)                                                                         \
    "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"i\",\"identifiers\":[" items "]}"

CTG_TEST(resolve, identifier_kinds)
{
    ctg_network *net = eurostag_in_code(NULL);

    expect(net, IDENT("{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"NHV1_NHV2_?\"}"),
           "Contingency : NHV1_NHV2_1 + NHV1_NHV2_2[NHV1_NHV2_1,NHV1_NHV2_2]");
    expect(net, IDENT("{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"VLHV?\"}"),
           "error /identifiers/0: \"VLHV1\" (VOLTAGE_LEVEL) cannot be a contingency element");
    /* Equipments in document order, one contingency each, duplicates once. */
    expect(net, IDENT("{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\","
                      "\"substationOrVoltageLevelId\":\"P2\"}"),
           "LOAD[LOAD] NHV2_NLOAD[NHV2_NLOAD] NHV1_NHV2_1[NHV1_NHV2_1] "
           "NHV1_NHV2_2[NHV1_NHV2_2]");
    expect(net, IDENT("{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\","
                      "\"substationOrVoltageLevelId\":\"\"}"),
           "error /identifiers/0: invalid id \"\" in substationOrVoltageLevelId");
    expect(net, IDENT("{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":\"VLHV2\","
                      "\"voltageLevelId2\":\"VLHV1\",\"order\":\"2\"}"),
           "Contingency : NHV1_NHV2_2[NHV1_NHV2_2]");
    expect(net, IDENT("{\"type\":\"LIST\",\"contingencyId\":\"c\",\"identifierList\":["
                      "{\"type\":\"ID_BASED\",\"identifier\":\"GEN\"},{\"type\":\"LIST\","
                      "\"identifierList\":[{\"type\":\"ID_BASED\",\"identifier\":\"LOAD\"},"
                      "{\"type\":\"ID_BASED\",\"identifier\":\"GEN\"}]},"
                      "{\"type\":\"ID_BASED\",\"identifier\":\"\"}]}"),
           "error /identifiers/0/identifierList/2: invalid id \"\" in identifier");
    ctg_network_free(net);
}

/* ---- reports ---------------------------------------------------------------------------- */

static int record(const ctg_resolve_event *ev, void *payload)
{
    ctg_test_text *t = payload;
    char line[900];

    snprintf(line, sizeof line, "%d %s c=%s e=%s %s: %s\n", (int)ev->kind, ev->path,
             ev->contingency_id != NULL ? ev->contingency_id : "-",
             ev->element_id != NULL ? ev->element_id : "-",
             ev->kind == CTG_RESOLVE_DROPPED ? ctg_element_type_name(ev->element_type) : "-",
             ev->message);
    ctg_test_text_add(t, line, strlen(line));
    return 0;
}

static int stop_at_first(const ctg_resolve_event *ev, void *payload)
{
    (void)ev;
    ++*(int *)payload;
    return 1;
}

CTG_TEST(resolve, report_events_in_order)
{
    ctg_network *net = eurostag_in_code(NULL);
    ctg_test_text t = { NULL, 0, 0 };
    ctg_resolve_options opts = { CTG_RESOLVE_OPTIONS_VERSION, NULL, record, &t };
    ctg_list *list = list_of(
        "{\"type\":\"list\",\"name\":\"all\",\"contingencyLists\":["
        "{\"type\":\"default\",\"name\":\"d\",\"contingencies\":["
        "{\"id\":\"ok\",\"elements\":[{\"id\":\"GEN\",\"type\":\"GENERATOR\"}]},"
        "{\"id\":\"gone\",\"elements\":[{\"id\":\"NOPE\",\"type\":\"GENERATOR\"}]},"
        "{\"id\":\"typed\",\"elements\":[{\"id\":\"GEN\",\"type\":\"GENERATOR\"},"
        "{\"id\":\"LOAD\",\"type\":\"GENERATOR\"}]},"
        "{\"id\":\"side\",\"elements\":[{\"id\":\"NHV1_NHV2_1\",\"type\":\"LINE\","
        "\"voltageLevelId\":\"VLGEN\"}]}]},"
        IDENT("{\"type\":\"ID_BASED\",\"identifier\":\"MISSING\"},"
              "{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":\"VLHV1\","
              "\"voltageLevelId2\":\"VLHV2\",\"order\":\"9\"},"
              "{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":\"VLHV1\","
              "\"voltageLevelId2\":\"VLNOPE\",\"order\":\"1\"},"
              "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"ZZ?\"},"
              "{\"type\":\"LIST\",\"identifierList\":[]}") "]}");
    ctg_list *out = NULL;
    ctg_error err;
    int stops = 0;

    CU_ASSERT_EQUAL_FATAL(ctg_resolve(&out, net, list, &opts, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(out), 1);
    CU_ASSERT_STRING_EQUAL(t.data,
        "0 /contingencyLists/0/contingencies/1 c=gone e=NOPE GENERATOR: no generator with this id\n"
        "0 /contingencyLists/0/contingencies/2 c=typed e=LOAD GENERATOR: \"LOAD\" is not a "
        "generator\n"
        "0 /contingencyLists/0/contingencies/3 c=side e=NHV1_NHV2_1 LINE: voltage level "
        "\"VLGEN\" is on no side of line \"NHV1_NHV2_1\"\n"
        "1 /contingencyLists/1/identifiers/0 c=- e=MISSING -: no object with this id\n"
        "2 /contingencyLists/1/identifiers/1 c=- e=- -: found 0 connectables between voltage "
        "levels \"VLHV1\" and \"VLHV2\" with order '9'\n"
        "1 /contingencyLists/1/identifiers/2 c=- e=VLNOPE -: no voltage level with this id\n"
        "1 /contingencyLists/1/identifiers/3 c=- e=ZZ? -: no id matches\n"
        "1 /contingencyLists/1/identifiers/4 c=- e=- -: an empty identifier list\n");
    ctg_list_free(out);
    /* A nonzero return stops the resolve, leaving nothing. */
    opts.report = stop_at_first;
    opts.payload = &stops;
    out = NULL;
    CU_ASSERT_EQUAL(ctg_resolve(&out, net, list, &opts, &err), CTG_ESTOPPED);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_EQUAL(stops, 1);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencyLists/0/contingencies/1");
    free(t.data);
    ctg_list_free(list);
    ctg_network_free(net);
}

#define ID_GEN "{\"type\":\"ID_BASED\",\"identifier\":\"GEN\"},"
#define ID_GEN4 ID_GEN ID_GEN ID_GEN ID_GEN
#define GEN_C "Contingency : GEN[GEN] "
#define GEN_C4 GEN_C GEN_C GEN_C GEN_C

/* ID_BASED identifiers are looked up 16 at a time: what fails or matches nothing in a later
 * batch, or at a batch's edge, keeps its own path, and the output keeps the list's order. */
CTG_TEST(resolve, id_based_batches_keep_paths_and_order)
{
    ctg_network *net = eurostag_in_code(NULL);
    ctg_test_text t = { NULL, 0, 0 };
    ctg_resolve_options opts = { CTG_RESOLVE_OPTIONS_VERSION, NULL, record, &t };
    ctg_list *list = list_of(IDENT(ID_GEN4 ID_GEN4 ID_GEN4 ID_GEN ID_GEN ID_GEN
                                   "{\"type\":\"ID_BASED\",\"identifier\":\"MISSING\"},"
                                   "{\"type\":\"ID_BASED\",\"identifier\":\"LOAD\"},"
                                   "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"NOPE?\"},"
                                   "{\"type\":\"ID_BASED\",\"identifier\":\"NOPE\"}"));
    ctg_list *out = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_resolve(&out, net, list, &opts, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(out), 16);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(out, 15)->id, "Contingency : LOAD");
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(out, 15)->elements[0].id, "LOAD");
    CU_ASSERT_STRING_EQUAL(t.data, "1 /identifiers/15 c=- e=MISSING -: no object with this id\n"
                                   "1 /identifiers/17 c=- e=NOPE? -: no id matches\n"
                                   "1 /identifiers/18 c=- e=NOPE -: no object with this id\n");
    free(t.data);
    ctg_list_free(out);
    ctg_list_free(list);
    expect(net, IDENT(ID_GEN4 ID_GEN4 ID_GEN4 ID_GEN4 ID_GEN
                      "{\"type\":\"ID_BASED\",\"contingencyId\":\"c\",\"identifier\":\"GEN\"},"
                      "{\"type\":\"ID_BASED\",\"identifier\":\"\"}"),
           "error /identifiers/18: invalid id \"\" in identifier");
    expect(net, IDENT(ID_GEN4 ID_GEN4 ID_GEN4 ID_GEN4 ID_GEN
                      "{\"type\":\"ID_BASED\",\"contingencyId\":\"c\",\"identifier\":\"GEN\"}"),
           GEN_C4 GEN_C4 GEN_C4 GEN_C4 GEN_C "c[GEN]");
    expect(net, IDENT(ID_GEN4 ID_GEN4 ID_GEN4 ID_GEN4
                      "{\"type\":\"ID_BASED\",\"identifier\":\"P1\"}"),
           "error /identifiers/16: \"P1\" (SUBSTATION) cannot be a contingency element");
    ctg_network_free(net);
}

/* ---- default lists, the check, the stream form -------------------------------------------- */

#define DEFAULT_LIST                                                                         \
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"d\",\"contingencies\":["            \
    "{\"id\":\"a\",\"name\":\"A\",\"elements\":[{\"id\":\"NHV1_NHV2_1\",\"type\":\"BRANCH\","    \
    "\"voltageLevelId\":\"VLHV2\"}],\"extensions\":{\"x\":{\"v\":[1,2.50]}}},"                   \
    "{\"id\":\"b\",\"elements\":[{\"id\":\"NHV1_NHV2_1\",\"type\":\"TIE_LINE\"}]},"           \
    "{\"id\":\"c\",\"elements\":[{\"id\":\"NHV1\",\"type\":\"BUS\"},"                          \
    "{\"id\":\"NGEN_NHV1\",\"type\":\"BRANCH\"}]},"                                            \
    "{\"id\":\"empty\",\"elements\":[]},"                                                     \
    "{\"id\":\"d\",\"elements\":[{\"id\":\"GEN\",\"type\":\"LOAD\"}]}]}"

CTG_TEST(resolve, default_list_kept_unchanged)
{
    ctg_network *net = eurostag_in_code(NULL);
    ctg_list *list = list_of(DEFAULT_LIST), *out = NULL;
    ctg_error err;
    size_t len = 0;
    char *text;

    CU_ASSERT_EQUAL_FATAL(ctg_resolve(&out, net, list, NULL, &err), CTG_OK);
    text = ctg_test_write_text(out, &len);
    CU_ASSERT_STRING_EQUAL(text,
        "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"d\",\n"
        "  \"contingencies\" : [ {\n    \"id\" : \"a\",\n    \"name\" : \"A\",\n"
        "    \"elements\" : [ {\n      \"id\" : \"NHV1_NHV2_1\",\n      \"type\" : \"BRANCH\",\n"
        "      \"voltageLevelId\" : \"VLHV2\"\n    } ],\n    \"extensions\" : {\n"
        "      \"x\" : {\n        \"v\" : [ 1, 2.5 ]\n      }\n    }\n  }, {\n"
        "    \"id\" : \"c\",\n    \"elements\" : [ {\n      \"id\" : \"NHV1\",\n"
        "      \"type\" : \"BUS\"\n    }, {\n      \"id\" : \"NGEN_NHV1\",\n"
        "      \"type\" : \"BRANCH\"\n    } ]\n  }, {\n    \"id\" : \"empty\",\n"
        "    \"elements\" : [ ]\n  } ]\n}");
    free(text);
    ctg_list_free(out);
    ctg_list_free(list);
    ctg_network_free(net);
}

CTG_TEST(resolve, check_one_contingency)
{
    ctg_network *net = eurostag_in_code(NULL);
    ctg_element ok[] = { { "NHV1_NHV2_2", CTG_ELEMENT_LINE, "VLHV1" } };
    ctg_element side[] = { { "NHV1_NHV2_2", CTG_ELEMENT_LINE, "VLLOAD" } };
    ctg_element empty[] = { { "GEN", CTG_ELEMENT_LOAD, NULL }, { "", CTG_ELEMENT_LOAD, NULL } };
    ctg_contingency c = { "c", NULL, ok, 1, NULL, 0 };
    ctg_error err;
    bool valid = false;

    CU_ASSERT_EQUAL(ctg_resolve_check(net, &c, NULL, &valid, &err), CTG_OK);
    CU_ASSERT_TRUE(valid);
    c.elements = side;
    CU_ASSERT_EQUAL(ctg_resolve_check(net, &c, NULL, &valid, &err), CTG_OK);
    CU_ASSERT_FALSE(valid);
    /* An empty id fails, even after an invalid element. */
    c.elements = empty;
    c.element_count = 2;
    CU_ASSERT_EQUAL(ctg_resolve_check(net, &c, NULL, &valid, &err), CTG_ESCHEMA);
    CU_ASSERT_FALSE(valid);
    CU_ASSERT_STRING_EQUAL(err.path, "/elements/1");
    CU_ASSERT_STRING_EQUAL(err.message, "invalid id \"\" in contingency \"c\"");
    CU_ASSERT_EQUAL(ctg_resolve_check(NULL, &c, NULL, &valid, &err), CTG_EINVAL);
    expect(net, "{\"type\":\"default\",\"name\":\"d\",\"contingencies\":[{\"id\":\"x\","
                "\"elements\":[]},{\"id\":\"y\",\"elements\":[{\"id\":\"\",\"type\":"
                "\"LOAD\"}]}]}",
           "error /contingencies/1/elements/0: invalid id \"\" in contingency \"y\"");
    ctg_network_free(net);
}

/* `doc` resolved by ctg_resolve and written, and through ctg_resolve_stream: the same bytes. */
static void stream_same_as_whole(const ctg_network *net, const char *doc)
{
    ctg_list *list = list_of(doc), *out = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_stream_writer *w = NULL;
    ctg_source src = ctg_source_buffer(doc, strlen(doc));
    ctg_error err;
    size_t len = 0;
    char *whole;

    CU_ASSERT_EQUAL_FATAL(ctg_resolve(&out, net, list, NULL, &err), CTG_OK);
    whole = ctg_test_write_text(out, &len);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &buf, ctg_list_name(list), NULL, &err),
                          CTG_OK);
    CU_ASSERT_EQUAL(ctg_resolve_stream(net, &src, NULL, w, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, &err), CTG_OK);
    CU_ASSERT_EQUAL(buf.len, len);
    CU_ASSERT(buf.data != NULL && memcmp(buf.data, whole, len) == 0);
    free(whole);
    ctg_buf_dispose(&buf);
    ctg_list_free(out);
    ctg_list_free(list);
}

CTG_TEST(resolve, stream_equals_whole)
{
    ctg_network *net = eurostag_in_code(NULL);
    ctg_buf buf = CTG_BUF_INIT;
    ctg_stream_writer *w = NULL;
    const char *bad = "{\"type\":\"list\",\"name\":\"n\",\"contingencyLists\":["
                      "{\"type\":\"default\",\"name\":\"d\",\"contingencies\":[{\"id\":\"x\","
                      "\"elements\":[]},{\"id\":\"y\",\"elements\":[{\"id\":\"\",\"type\":"
                      "\"LOAD\"}]}]}]}";
    ctg_source src = ctg_source_buffer(bad, strlen(bad));
    ctg_error err;

    stream_same_as_whole(net, DEFAULT_LIST);
    stream_same_as_whole(net, "{\"type\":\"list\",\"name\":\"n\",\"contingencyLists\":["
                              DEFAULT_LIST "," LINE_REGEX("_2$") "," DEFAULT_LIST "]}");
    /* An evaluation error of a streamed contingency has its place in the input. */
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &buf, "n", NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_resolve_stream(net, &src, NULL, w, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencyLists/0/contingencies/1/elements/0");
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    ctg_stream_writer_abort(w);
    ctg_buf_dispose(&buf);
    ctg_network_free(net);
}

/* A default list of `n` contingencies, every other one invalid, as JSON (malloc'd). */
static char *big_default(size_t n)
{
    ctg_test_text t = { NULL, 0, 0 };
    static const char head[] = "{\"type\":\"default\",\"name\":\"big\",\"contingencies\":[";
    static const char tail[] = "]}";

    ctg_test_text_add(&t, head, sizeof head - 1);
    for (size_t i = 0; i < n; i++) {
        char item[160];

        snprintf(item, sizeof item, "%s{\"id\":\"c%zu\",\"elements\":[{\"id\":\"%s\",\"type\":"
                 "\"GENERATOR\"}]}", i > 0 ? "," : "", i, i % 2 ? "GEN" : "NOPE");
        ctg_test_text_add(&t, item, strlen(item));
    }
    ctg_test_text_add(&t, tail, sizeof tail - 1);
    return t.data;
}

/* The peak memory of a stream resolve (reader and evaluation) of `n` contingencies. */
static size_t stream_peak(const ctg_network *net, size_t n, size_t *written)
{
    char *doc = big_default(n);
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options ropts = CTG_READ_OPTIONS_INIT;
    ctg_resolve_options opts = { CTG_RESOLVE_OPTIONS_VERSION, &a, NULL, NULL };
    ctg_source src = ctg_source_buffer(doc, strlen(doc));
    ctg_stream_writer *w = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    ropts.allocator = &a;
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &buf, "big", NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_resolve_stream(net, &src, &ropts, w, &opts, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, &err), CTG_OK);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    *written = buf.len;
    ctg_buf_dispose(&buf);
    free(doc);
    return st.peak_bytes;
}

CTG_TEST(resolve, stream_memory_is_constant)
{
    ctg_network *net = eurostag_in_code(NULL);
    size_t w1 = 0, w2 = 0;
    size_t small = stream_peak(net, 1000, &w1), large = stream_peak(net, 20000, &w2);

    /* Twenty times the contingencies, the same memory: the reader's and the evaluation's. */
    CU_ASSERT(w2 > 15 * w1);
    CU_ASSERT(small > 0);
    CU_ASSERT_EQUAL(large, small);
    ctg_network_free(net);
}

/* ---- threads ------------------------------------------------------------------------------ */

typedef struct shared_work {
    const ctg_network *net;
    const ctg_list *list;
    char *text;
} shared_work;

static void *resolve_in_thread(void *arg)
{
    shared_work *sw = arg;

    sw->text = outcome(sw->net, sw->list);
    return NULL;
}

/* One network and one list, resolved from four threads at once: the same output each time. */
CTG_TEST(resolve, threads_share_network_and_list)
{
    ctg_network *net = unit_network(NULL);
    ctg_list *list = list_of("{\"type\":\"list\",\"name\":\"n\",\"contingencyLists\":["
                             LINE_REGEX("N") "," LINE_CRIT("\"DE\"", "") "]}");
    shared_work work[4];
    pthread_t th[4];
    char *alone = outcome(net, list);

    for (int i = 0; i < 4; i++) {
        work[i].net = net;
        work[i].list = list;
        work[i].text = NULL;
        CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, resolve_in_thread, &work[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CU_ASSERT_STRING_EQUAL(work[i].text, alone);
        free(work[i].text);
    }
    free(alone);
    ctg_list_free(list);
    ctg_network_free(net);
}

/* ---- allocation failures ------------------------------------------------------------------ */

/* Every allocation of a resolve failed in turn: CTG_ENOMEM, no list, nothing leaked. */
static size_t sweep(const ctg_network *net, const char *doc)
{
    ctg_list *list = list_of(doc);
    size_t n = 0;

    for (size_t at = 1;; at++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_resolve_options opts = { CTG_RESOLVE_OPTIONS_VERSION, &a, NULL, NULL };
        ctg_list *out = NULL;
        ctg_error err;
        int rc;

        st.fail_at = at;
        rc = ctg_resolve(&out, net, list, &opts, &err);
        ctg_list_free(out);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        if (!st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            n = at - 1;
            break;
        }
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_PTR_NULL(out);
    }
    ctg_list_free(list);
    return n;
}

CTG_TEST(resolve, allocation_failures)
{
    ctg_network *net = eurostag_in_code(NULL);

    CU_ASSERT(sweep(net, DEFAULT_LIST) > 0);
    CU_ASSERT(sweep(net, LINE_REGEX("NHV") ) > 0);
    /* The property memo of a criterion scan. */
    CU_ASSERT(sweep(net, "{\"type\":\"lineCriterion\",\"name\":\"p\",\"propertyCriteria\":[{"
                         "\"type\":\"PROPERTY\",\"propertyKey\":\"k\",\"propertyValue\":[\"v\"],"
                         "\"equipmentToCheck\":\"SUBSTATION\",\"sideToCheck\":\"ONE\"}]}") > 0);
    CU_ASSERT(sweep(net, IDENT("{\"type\":\"ID_BASED\",\"identifier\":\"GEN\"},"
                               "{\"type\":\"LIST\",\"identifierList\":[{\"type\":\"ID_BASED\","
                               "\"identifier\":\"LOAD\"},{\"type\":\"ID_WITH_WILDCARDS\","
                               "\"identifier\":\"NHV1_NHV2_?\"}]},"
                               "{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\","
                               "\"substationOrVoltageLevelId\":\"P1\"},"
                               "{\"type\":\"ID_BASED\",\"identifier\":\"NHV1\"}")) > 0);
    ctg_network_free(net);
}

#include "test_resolve.tests.h"
