/* SPDX-License-Identifier: MPL-2.0 */
/* The json-c bridge (ctg/jsonc.h): lists to and from json-c trees, agreeing with the text
 * reader and writer on every fixture, and its errors. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/extension.h"
#include "ctg/jsonc.h"
#include "tests/test_common.h"

static ctg_extension_registry *probability_registry(void)
{
    ctg_extension_registry *reg = NULL;

    CU_ASSERT_EQUAL(ctg_extension_registry_new(&reg, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &ctg_test_probability_handler), CTG_OK);
    return reg;
}

/* Both trees print the same with json-c. */
static bool same_tree(json_object *a, json_object *b)
{
    return a && b && strcmp(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
                            json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN)) == 0;
}

/* text -> json-c -> ctg -> json-c -> ctg -> text gives what text -> ctg -> text gives, and the
 * json-c tree ctg made is the one json-c makes of ctg's text. Every kind is read and written:
 * any failure on the way is a difference, named on stderr. */
static bool bridge_round_trip(const char *path, const ctg_read_options *opts)
{
    size_t len, direct_len = 0, bridged_len = 0;
    char *text = ctg_test_slurp(path, &len), *direct = NULL, *bridged = NULL;
    json_object *first = NULL, *second = NULL, *oracle = NULL;
    ctg_list *list = NULL, *via1 = NULL, *via2 = NULL;
    ctg_error err;
    bool ok = false;
    int rc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    first = json_tokener_parse(text);
    rc = ctg_list_read_buffer(&list, text, len, opts, &err);
    if (rc == CTG_OK && (rc = ctg_list_from_json_object(&via1, first, opts, &err)) == CTG_OK
        && (rc = ctg_list_to_json_object(&second, via1, NULL, &err)) == CTG_OK
        && (rc = ctg_list_from_json_object(&via2, second, opts, &err)) == CTG_OK) {
        direct = ctg_test_write_text(list, &direct_len);
        bridged = ctg_test_write_text(via2, &bridged_len);
        oracle = direct ? json_tokener_parse(direct) : NULL;
        ok = direct && bridged && direct_len == bridged_len
             && memcmp(direct, bridged, direct_len) == 0 && same_tree(oracle, second);
    }
    if (!ok)
        fprintf(stderr, "\n  %s: bridge round trip differs (%s)\n", path, ctg_status_name(rc));
    free(direct);
    free(bridged);
    json_object_put(first);
    json_object_put(second);
    json_object_put(oracle);
    ctg_list_free(list);
    ctg_list_free(via1);
    ctg_list_free(via2);
    free(text);
    return ok;
}

CTG_TEST(bridge, round_trips_own_fixtures)
{
    static const char *const own[] = {
        "valid/extension-types.json", "valid/extension-contingency.json",
        "valid/extension-probability.json", "valid/extension-empty.json",
        "valid/nested-lists.json", "valid/sample.json", "valid/boundary-v1_0.json",
    };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_extension_registry *reg = probability_registry();
    char path[1024];

    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", CTG_TESTDATA_DIR, own[i]);
        CU_ASSERT(bridge_round_trip(path, NULL));
    }
    /* Through the typed handler as well. */
    opts.extensions = reg;
    CU_ASSERT(bridge_round_trip(CTG_TESTDATA("valid/extension-probability.json"), &opts));
    ctg_extension_registry_free(reg);
}

/* Every PowSyBl fixture that is a contingency list or a contingency (the others of the folder
 * are operator strategies and contexts): each one round-trips, none is left out. */
CTG_SHARED_TEST(bridge, round_trips_shared_fixtures)
{
    static const char *const fixtures[] = {
        "contingencies.json", "contingenciesBatteries.json", "contingenciesWith3wt.json",
        "contingenciesWithDlAndTl.json", "contingenciesWithDlAndTlV1_0.json",
        "contingenciesWithOptionalName.json", "contingenciesWithSeveralElements.json",
        "contingency.json", "contingencyListsList.json", "hvdclineCriterionContingencyList.json",
        "identifierContingencyList.json", "identifierContingencyListReferenceForLessThan1_3.json",
        "identifierContingencyListReferenceForPreviousVersion.json",
        "identifierContingencyListv1_0.json", "identifierContingencyListv1_1.json",
        "identifierContingencyListv1_2.json", "injectionCriterionContingencyList.json",
        "injectionCriterionContingencyListEmptyCountryList.json",
        "injectionCriterionContingencyListNoCountryCriterion.json",
        "injectionCriterionContingencyListNoCountryMatch.json", "lineCriterionContingencyList.json",
        "threeWindingsTransformerCriterionContingencyList.json",
        "tieLineCriterionContingencyList.json",
        "twoWindingsTransformerCriterionContingencyList.json",
    };
    char path[1024];
    size_t done = 0;

    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        snprintf(path, sizeof path, "%s/powsybl/%s", ctg_test_shared_dir(), fixtures[i]);
        if (bridge_round_trip(path, NULL))
            done++;
        else
            CU_FAIL("a shared fixture does not round-trip through json-c (named above)");
    }
    CU_ASSERT_EQUAL(done, 24);
    CU_ASSERT_EQUAL(sizeof fixtures / sizeof fixtures[0], 24);
}

CTG_TEST(bridge, errors_carry_the_path_only)
{
    static const char text[] = "{\"type\":\"default\",\"name\":\"l\",\"contingencies\":["
                               "{\"id\":\"c\",\"elements\":[{\"id\":\"x\",\"type\":"
                               "\"TRANSFORMER\"}]}]}";
    json_object *tree = json_tokener_parse(text), *bad;
    ctg_list *list = (ctg_list *)1;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(tree);
    memset(&err, 0xFF, sizeof err);
    CU_ASSERT_EQUAL(ctg_list_from_json_object(&list, tree, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.code, CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_EQUAL(err.column, 0);
    CU_ASSERT_EQUAL(err.offset, 0);
    CU_ASSERT_STRING_EQUAL(err.source, "<json-c>");
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/0/elements/0/type");
    CU_ASSERT_STRING_EQUAL(err.message, "unknown element type \"TRANSFORMER\"");
    json_object_put(tree);

    /* A tree can hold what JSON text cannot: refused with the value's path. */
    tree = json_tokener_parse("{\"id\":\"c\",\"extensions\":{\"x\":[1,{\"v\":0}]}}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(tree);
    json_object_object_get_ex(tree, "extensions", &bad);
    json_object_object_get_ex(bad, "x", &bad);
    json_object_object_add(json_object_array_get_idx(bad, 1), "v", json_object_new_double(NAN));
    CU_ASSERT_EQUAL(ctg_list_from_json_object(&list, tree, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "/extensions/x/1/v");
    CU_ASSERT_STRING_EQUAL(err.source, "<json-c>");
    CU_ASSERT_EQUAL(err.line, 0);
    json_object_object_add(json_object_array_get_idx(bad, 1), "v",
                           json_object_new_uint64(UINT64_MAX));
    CU_ASSERT_EQUAL(ctg_list_from_json_object(&list, tree, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "/extensions/x/1/v");
    json_object_put(tree);

    CU_ASSERT_EQUAL(ctg_list_from_json_object(&list, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_from_json_object(NULL, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_to_json_object(NULL, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_to_json_object(&bad, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(bad);
}

/* A tree in a bigger document: the bridge reads a member of it, and json-c's own values come
 * back from ctg with the same types. */
CTG_TEST(bridge, reads_an_embedded_list)
{
    json_object *doc = json_tokener_parse(
        "{\"study\":\"s\",\"contingencies\":{\"type\":\"default\",\"version\":\"1.1\","
        "\"name\":\"e\",\"contingencies\":[{\"id\":\"c\",\"elements\":[],\"extensions\":"
        "{\"w\":{\"f\":2.5,\"i\":3}}}]}}");
    json_object *sub, *back, *v;
    ctg_list *list = NULL;
    ctg_error err, untouched;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT(json_object_object_get_ex(doc, "contingencies", &sub));
    memset(&err, 0xFF, sizeof err);
    memset(&untouched, 0xFF, sizeof untouched);
    CU_ASSERT_EQUAL_FATAL(ctg_list_from_json_object(&list, sub, NULL, &err), CTG_OK);
    CU_ASSERT(memcmp(&err, &untouched, sizeof err) == 0); /* written only on failure */
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "e");
    CU_ASSERT_EQUAL_FATAL(ctg_list_to_json_object(&back, list, NULL, NULL), CTG_OK);
    CU_ASSERT(json_object_equal(sub, back));
    v = json_object_object_get(json_object_object_get(json_object_object_get(
            json_object_array_get_idx(json_object_object_get(back, "contingencies"), 0),
            "extensions"), "w"), "i");
    CU_ASSERT(json_object_is_type(v, json_type_int));
    json_object_put(back);
    json_object_put(doc);
    ctg_list_free(list);
}

#include "test_bridge.tests.h"
