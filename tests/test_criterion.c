/* SPDX-License-Identifier: MPL-2.0 */
/* The six criterion kinds (spec 5): PowSyBl's fixtures read and written back byte for byte,
 * json-c as an independent oracle for the structs, every slot rule, every interval constraint,
 * the country table, the builders, memory, and the double round trip through the lexer. */

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "base/arena.h"
#include "model/criterion.h"
#include "model/list_impl.h"
#include "json/emit.h"
#include "json/jdouble.h"
#include "json/lexer.h"
#include "format/read_internal.h"
#include "format/kinds.h"
#include "tests/test_common.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ---------------------------------------------------------------------------- */

typedef struct out_buf {
    char *data;
    size_t len;
} out_buf;

static int sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    out_buf *o = ctx;
    char *p = realloc(o->data, o->len + len + 1);

    (void)err;
    if (p == NULL)
        return CTG_ENOMEM;
    memcpy(p + o->len, data, len);
    o->data = p;
    o->len += len;
    p[o->len] = '\0';
    return CTG_OK;
}

/* The criterion writer driven directly through an emitter (malloc'd text; NULL on failure,
 * with the writer's status in *rc). */
static char *write_direct(const ctg_list *list, int *rc)
{
    out_buf o = { NULL, 0 };
    ctg_emitter e;
    ctg_error err;

    *rc = ctg_emit_init(&e, sink, &o, false, NULL, &err);
    if (*rc == CTG_OK)
        *rc = ctg_write_criterion_list(&e, list);
    if (*rc == CTG_OK)
        *rc = ctg_emit_finish(&e);
    ctg_emit_dispose(&e);
    if (*rc != CTG_OK || o.data == NULL) {
        free(o.data);
        return NULL;
    }
    return o.data;
}

/* Writes `list` through the emitter and through the public API: both must give `expect`. */
static bool writes_exactly(const ctg_list *list, const char *expect, size_t len)
{
    ctg_buf buf = CTG_BUF_INIT;
    int rc;
    char *direct = write_direct(list, &rc);
    bool same = direct != NULL && strlen(direct) == len && memcmp(direct, expect, len) == 0;
    int prc = ctg_list_write_buf(&buf, list, NULL, NULL);
    bool pub = prc == CTG_OK && buf.len == len && memcmp(buf.data, expect, len) == 0;

    if (!same)
        fprintf(stderr, "\n--- expected\n%.*s\n--- written\n%s\n", (int)len, expect,
                direct ? direct : "(nothing)");
    if (!pub)
        fprintf(stderr, "\n  ctg_list_write_buf: %s\n", ctg_status_name(prc));
    CU_ASSERT(pub);
    free(direct);
    ctg_buf_dispose(&buf);
    return same;
}

static ctg_list *read_text(const char *doc, ctg_error *err)
{
    ctg_list *list = NULL;
    ctg_error local;

    if (ctg_list_read_buffer(&list, doc, strlen(doc), NULL, err ? err : &local) != CTG_OK)
        return NULL;
    return list;
}

/* Reads `doc` and checks that it is written as `expect`. */
static void check_round(const char *doc, const char *expect)
{
    ctg_error err;
    ctg_list *list = read_text(doc, &err);

    if (list == NULL)
        fprintf(stderr, "\n  %s\n  -> %s: %s\n", doc, err.path, err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT(writes_exactly(list, expect, strlen(expect)));
    ctg_list_free(list);
}

/* Reads `doc`, which must fail with `code` at line 1, at the column where `marker` first
 * occurs, with `path` and `message`. */
static void check_error(const char *doc, int code, const char *marker, const char *path,
                        const char *message)
{
    const char *at = strstr(doc, marker);
    ctg_list *list = (ctg_list *)1;
    ctg_error err;
    int rc = ctg_list_read_buffer(&list, doc, strlen(doc), NULL, &err);
    bool ok = rc == code && list == NULL && at != NULL && err.line == 1
              && err.column == (unsigned)(at - doc) + 1 && strcmp(err.path, path) == 0
              && strcmp(err.message, message) == 0;

    if (!ok)
        fprintf(stderr, "\n  %s\n  -> %s %u:%u %s: %s\n  want %s %s: %s\n", doc,
                ctg_status_name(rc), err.line, err.column, err.path, err.message,
                at ? "" : "(marker not found)", path, message);
    CU_ASSERT(ok);
    if (rc == CTG_OK)
        ctg_list_free(list);
}

/* ---- PowSyBl's fixtures ----------------------------------------------------------------- */

static const char *const fixtures[] = {
    "hvdclineCriterionContingencyList.json",
    "injectionCriterionContingencyList.json",
    "injectionCriterionContingencyListEmptyCountryList.json",
    "injectionCriterionContingencyListNoCountryCriterion.json",
    "injectionCriterionContingencyListNoCountryMatch.json",
    "lineCriterionContingencyList.json",
    "threeWindingsTransformerCriterionContingencyList.json",
    "tieLineCriterionContingencyList.json",
    "twoWindingsTransformerCriterionContingencyList.json",
};

static void shared_path(char *path, size_t cap, const char *name)
{
    snprintf(path, cap, "%s/powsybl/%s", ctg_test_shared_dir(), name);
}

static ctg_list *read_shared(const char *name)
{
    char path[1024], line[512];
    ctg_list *list = NULL;
    ctg_error err;

    shared_path(path, sizeof path, name);
    if (ctg_list_read_file(&list, path, NULL, &err) != CTG_OK) {
        ctg_error_format(&err, line, sizeof line);
        fprintf(stderr, "\n  %s\n", line);
    }
    return list;
}

CTG_SHARED_TEST(criterion, fixtures_round_trip_byte_for_byte)
{
    for (size_t i = 0; i < COUNT_OF(fixtures); i++) {
        char path[1024];
        size_t len;
        ctg_list *list = read_shared(fixtures[i]), *again = NULL;
        char *expect;

        shared_path(path, sizeof path, fixtures[i]);
        expect = ctg_test_slurp(path, &len);
        CU_ASSERT_FATAL(expect != NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        CU_ASSERT_EQUAL(ctg_list_criteria(list) != NULL, true);
        if (!writes_exactly(list, expect, len))
            fprintf(stderr, "\n  %s is not written back byte for byte\n", fixtures[i]);
        /* Read again from what was written: the same bytes once more. */
        again = read_text(expect, NULL);
        CU_ASSERT(again != NULL && writes_exactly(again, expect, len));
        ctg_list_free(again);
        ctg_list_free(list);
        free(expect);
    }
}

/* ---- json-c as the oracle ----------------------------------------------------------------- */

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;

    return o != NULL && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *member_str(json_object *o, const char *key)
{
    json_object *v = member(o, key);

    return v != NULL ? json_object_get_string(v) : NULL;
}

static int same_str(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Mismatches between a string array of the model and json-c's (absent = empty). */
static int compare_strings(const char *const *s, size_t n, json_object *arr)
{
    int bad = 0;

    if (n != (arr != NULL ? json_object_array_length(arr) : 0))
        return 1;
    for (size_t i = 0; i < n; i++)
        bad += !same_str(s[i], json_object_get_string(json_object_array_get_idx(arr, i)));
    return bad;
}

static int compare_interval(const ctg_voltage_interval *iv, json_object *jo)
{
    json_object *lo = member(jo, "nominalVoltageLowBound");
    json_object *hi = member(jo, "nominalVoltageHighBound");
    int bad = iv->set != (jo != NULL);

    if (jo == NULL)
        return bad;
    bad += iv->has_low != (lo != NULL) || iv->has_high != (hi != NULL);
    if (lo != NULL)
        bad += iv->low != json_object_get_double(lo)
               || iv->low_closed != json_object_get_boolean(member(jo, "lowClosed"));
    if (hi != NULL)
        bad += iv->high != json_object_get_double(hi)
               || iv->high_closed != json_object_get_boolean(member(jo, "highClosed"));
    return bad;
}

static int compare_fields(const ctg_criterion *c, json_object *jc)
{
    static const char *const numbered[3] = { "voltageInterval1", "voltageInterval2",
                                             "voltageInterval3" };
    int bad = 0;

    switch (c->type) {
    case CTG_CRITERION_SINGLE_COUNTRY:
        return compare_strings(c->countries[0], c->country_count[0], member(jc, "countries"));
    case CTG_CRITERION_TWO_COUNTRY:
        return compare_strings(c->countries[0], c->country_count[0], member(jc, "countries1"))
               + compare_strings(c->countries[1], c->country_count[1], member(jc, "countries2"));
    case CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE:
        return compare_interval(&c->intervals[0], member(jc, "voltageInterval"));
    case CTG_CRITERION_TWO_NOMINAL_VOLTAGE:
    case CTG_CRITERION_THREE_NOMINAL_VOLTAGE:
        for (int i = 0; i < 3; i++)
            bad += compare_interval(&c->intervals[i], member(jc, numbered[i]));
        return bad;
    case CTG_CRITERION_PROPERTY:
        return !same_str(c->property_key, member_str(jc, "propertyKey"))
               + compare_strings(c->property_values, c->property_value_count,
                                 member(jc, "propertyValue"))
               + !same_str(ctg_equipment_to_check_name(c->equipment_to_check),
                           member_str(jc, "equipmentToCheck"))
               + !same_str(ctg_side_to_check_name(c->side_to_check), member_str(jc, "sideToCheck"));
    case CTG_CRITERION_REGEX:
        return !same_str(c->regex, member_str(jc, "regex"));
    default:
        return 1;
    }
}

/* Mismatches between a criterion (NULL = absent) and json-c's object. */
static int compare_criterion(const ctg_criterion *c, json_object *jc)
{
    if (c == NULL || jc == NULL)
        return (c == NULL) != (jc == NULL);
    return !same_str(ctg_criterion_type_name(c->type), member_str(jc, "type"))
           + compare_fields(c, jc);
}

static int compare_list(const ctg_list *list, json_object *root)
{
    const ctg_criteria *cr = ctg_list_criteria(list);
    json_object *props = member(root, "propertyCriteria");
    size_t n = props != NULL ? json_object_array_length(props) : 0;
    int bad = !same_str(ctg_list_kind_name(ctg_list_get_kind(list)), member_str(root, "type"))
              + !same_str(ctg_list_name(list), member_str(root, "name"))
              + !same_str(ctg_list_version(list), member_str(root, "version"));

    if (ctg_list_get_kind(list) == CTG_LIST_INJECTION_CRITERION)
        bad += !same_str(ctg_identifiable_type_name(cr->identifiable_type),
                         member_str(root, "identifiableType"));
    bad += compare_criterion(cr->country, member(root, "countryCriterion"));
    bad += compare_criterion(cr->nominal_voltage, member(root, "nominalVoltageCriterion"));
    bad += compare_criterion(cr->regex, member(root, "regexCriterion"));
    if (cr->property_count != n)
        return bad + 1;
    for (size_t i = 0; i < n; i++)
        bad += compare_criterion(&cr->properties[i], json_object_array_get_idx(props, i));
    return bad;
}

CTG_SHARED_TEST(criterion, fixtures_agree_with_json_c)
{
    for (size_t i = 0; i < COUNT_OF(fixtures); i++) {
        char path[1024];
        char *text;
        json_object *root;
        ctg_list *list = read_shared(fixtures[i]);

        shared_path(path, sizeof path, fixtures[i]);
        text = ctg_test_slurp(path, NULL);
        root = json_tokener_parse(text);
        CU_ASSERT_FATAL(list != NULL && root != NULL);
        if (compare_list(list, root) != 0)
            fprintf(stderr, "\n  %s: structs differ from json-c\n", fixtures[i]);
        CU_ASSERT_EQUAL(compare_list(list, root), 0);
        json_object_put(root);
        ctg_list_free(list);
        free(text);
    }
}

/* A few exact values, so that the oracle itself is checked. */
CTG_SHARED_TEST(criterion, fixture_values)
{
    ctg_list *list;
    const ctg_criteria *cr;

    list = read_shared("threeWindingsTransformerCriterionContingencyList.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    cr = ctg_list_criteria(list);
    CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_THREE_WT_CRITERION);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "list1");
    CU_ASSERT_EQUAL(cr->country->type, CTG_CRITERION_SINGLE_COUNTRY);
    CU_ASSERT_EQUAL(cr->country->country_count[0], 1);
    CU_ASSERT_STRING_EQUAL(cr->country->countries[0][0], "FR");
    CU_ASSERT_EQUAL(cr->nominal_voltage->type, CTG_CRITERION_THREE_NOMINAL_VOLTAGE);
    CU_ASSERT(cr->nominal_voltage->intervals[2].set && cr->nominal_voltage->intervals[2].has_high);
    CU_ASSERT_EQUAL(cr->nominal_voltage->intervals[2].high, 420.0);
    CU_ASSERT_EQUAL(cr->nominal_voltage->intervals[0].low, 200.0);
    CU_ASSERT_EQUAL(cr->property_count, 1);
    CU_ASSERT_EQUAL(cr->properties[0].side_to_check, CTG_SIDE_ALL_THREE);
    CU_ASSERT_EQUAL(cr->properties[0].equipment_to_check, CTG_CHECK_VOLTAGE_LEVEL);
    CU_ASSERT_STRING_EQUAL(cr->regex->regex, "regex");
    ctg_list_free(list);

    list = read_shared("injectionCriterionContingencyListEmptyCountryList.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    cr = ctg_list_criteria(list);
    CU_ASSERT_EQUAL(cr->identifiable_type, CTG_IDENTIFIABLE_LINE);
    CU_ASSERT_EQUAL(cr->country->country_count[0], 0);
    CU_ASSERT_PTR_NULL(cr->country->countries[0]);
    CU_ASSERT_PTR_NULL(cr->nominal_voltage);
    CU_ASSERT_PTR_NULL(cr->regex);
    CU_ASSERT_EQUAL(cr->property_count, 0);
    CU_ASSERT_PTR_NULL(cr->properties);
    ctg_list_free(list);
}

/* ---- hand-made documents ------------------------------------------------------------------ */

/* Fields in any order, fields of other criterion types, integers as bounds, open-ended
 * intervals, absent optional fields: read, then written in PowSyBl's canonical form. */
CTG_TEST(criterion, canonical_form_of_a_hand_made_document)
{
    size_t len;
    char *expect = ctg_test_slurp(CTG_TESTDATA("expected/criterion-mixed.json"), &len);
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_FATAL(expect != NULL);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_file(&list, CTG_TESTDATA("valid/criterion-mixed.json"),
                                             NULL, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_list_version(list), "1.0");
    CU_ASSERT(writes_exactly(list, expect, len));
    ctg_list_free(list);
    free(expect);
}

/* A valid criterion of each type, for the slot tests. */
static const char *const criterion_json[CTG_CRITERION_TYPE_COUNT] = {
    "{\"type\":\"SINGLE_COUNTRY\",\"countries\":[\"FR\"]}",
    "{\"type\":\"TWO_COUNTRY\",\"countries1\":[\"FR\"],\"countries2\":[\"BE\"]}",
    "{\"type\":\"AT_LEAST_ONE_COUNTRY\",\"countries\":[\"FR\"]}",
    "{\"type\":\"SINGLE_NOMINAL_VOLTAGE\",\"voltageInterval\":{\"nominalVoltageLowBound\":380,"
    "\"lowClosed\":true}}",
    "{\"type\":\"TWO_NOMINAL_VOLTAGE\",\"voltageInterval2\":{\"nominalVoltageLowBound\":380,"
    "\"lowClosed\":true}}",
    "{\"type\":\"THREE_NOMINAL_VOLTAGE\",\"voltageInterval3\":{\"nominalVoltageLowBound\":380,"
    "\"lowClosed\":true}}",
    "{\"type\":\"AT_LEAST_ONE_NOMINAL_VOLTAGE\",\"voltageInterval\":{\"nominalVoltageLowBound\":"
    "380,\"lowClosed\":true}}",
    "{\"type\":\"PROPERTY\",\"propertyKey\":\"k\",\"equipmentToCheck\":\"SELF\"}",
    "{\"type\":\"REGEX\",\"regex\":\"L.*\"}",
};

/* `{"type":<kind>,"name":"n"[,"identifiableType":"LOAD"],<key>:<value>}` */
static void make_doc(char *doc, size_t cap, ctg_list_kind kind, const char *key,
                     const char *value)
{
    snprintf(doc, cap, "{\"type\":\"%s\",\"name\":\"n\",%s\"%s\":%s}", ctg_list_kind_name(kind),
             kind == CTG_LIST_INJECTION_CRITERION ? "\"identifiableType\":\"LOAD\"," : "", key,
             value);
}

static const ctg_criterion *slot_of(const ctg_list *list, ctg_criterion_slot slot)
{
    const ctg_criteria *cr = ctg_list_criteria(list);

    switch (slot) {
    case CTG_CSLOT_COUNTRY: return cr->country;
    case CTG_CSLOT_VOLTAGE: return cr->nominal_voltage;
    case CTG_CSLOT_PROPERTY: return cr->properties;
    default: return cr->regex;
    }
}

/* One slot of one kind against a criterion of one type: accepted when the type is the slot's,
 * else refused at the "type" value. Returns whether it was accepted. */
static bool try_slot(ctg_list_kind kind, ctg_criterion_slot slot, ctg_criterion_type t)
{
    const char *key = ctg_criterion_slot_key(slot), *name = ctg_criterion_type_name(t);
    ctg_criterion_type want = ctg_criterion_slot_type(kind, slot);
    char value[512], doc[1024], path[64], msg[256], marker[64];
    ctg_list *list;

    snprintf(value, sizeof value, slot == CTG_CSLOT_PROPERTY ? "[%s]" : "%s", criterion_json[t]);
    make_doc(doc, sizeof doc, kind, key, value);
    if (t != want) {
        snprintf(marker, sizeof marker, "\"%s\"", name);
        snprintf(path, sizeof path, slot == CTG_CSLOT_PROPERTY ? "/%s/0/type" : "/%s/type", key);
        if (slot == CTG_CSLOT_COUNTRY || slot == CTG_CSLOT_VOLTAGE)
            snprintf(msg, sizeof msg, "\"%s\" of %s lists must be %s, not %s", key,
                     ctg_list_kind_name(kind), ctg_criterion_type_name(want), name);
        else
            snprintf(msg, sizeof msg, "\"%s\" %s %s, not %s", key,
                     slot == CTG_CSLOT_PROPERTY ? "items must be" : "must be",
                     ctg_criterion_type_name(want), name);
        check_error(doc, CTG_ESCHEMA, marker, path, msg);
        return false;
    }
    list = read_text(doc, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT(slot_of(list, slot) != NULL && slot_of(list, slot)->type == t);
    ctg_list_free(list);
    return true;
}

/* Every kind x slot x criterion type (6 x 4 x 9): exactly the type of spec 5.1's table passes,
 * including inside propertyCriteria, where PowSyBl would accept any criterion. */
CTG_TEST(criterion, slot_rules_every_kind_slot_and_type)
{
    int accepted = 0;

    for (int k = CTG_LIST_INJECTION_CRITERION; k <= CTG_LIST_THREE_WT_CRITERION; k++)
        for (int s = 0; s < CTG_CSLOT_COUNT; s++)
            for (int t = 0; t < CTG_CRITERION_TYPE_COUNT; t++)
                accepted += try_slot((ctg_list_kind)k, (ctg_criterion_slot)s,
                                     (ctg_criterion_type)t);
    CU_ASSERT_EQUAL(accepted, 6 * 4);
    /* The table itself (spec 5.1). */
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_INJECTION_CRITERION, CTG_CSLOT_COUNTRY),
                    CTG_CRITERION_SINGLE_COUNTRY);
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_LINE_CRITERION, CTG_CSLOT_COUNTRY),
                    CTG_CRITERION_TWO_COUNTRY);
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_HVDC_CRITERION, CTG_CSLOT_VOLTAGE),
                    CTG_CRITERION_TWO_NOMINAL_VOLTAGE);
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_TIE_LINE_CRITERION, CTG_CSLOT_COUNTRY),
                    CTG_CRITERION_TWO_COUNTRY);
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_TIE_LINE_CRITERION, CTG_CSLOT_VOLTAGE),
                    CTG_CRITERION_SINGLE_NOMINAL_VOLTAGE);
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_TWT_CRITERION, CTG_CSLOT_COUNTRY),
                    CTG_CRITERION_SINGLE_COUNTRY);
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_TWT_CRITERION, CTG_CSLOT_VOLTAGE),
                    CTG_CRITERION_TWO_NOMINAL_VOLTAGE);
    CU_ASSERT_EQUAL(ctg_criterion_slot_type(CTG_LIST_THREE_WT_CRITERION, CTG_CSLOT_VOLTAGE),
                    CTG_CRITERION_THREE_NOMINAL_VOLTAGE);
}

/* The wrong kind deep in propertyCriteria: the path names the item. */
CTG_TEST(criterion, property_criteria_item_of_wrong_kind)
{
    check_error("{\"type\":\"lineCriterion\",\"name\":\"n\",\"propertyCriteria\":[{\"type\":"
                "\"PROPERTY\",\"propertyKey\":\"k\",\"equipmentToCheck\":\"SELF\"},{\"regex\":"
                "\"x\",\"type\":\"REGEX\"}]}",
                CTG_ESCHEMA, "\"REGEX\"", "/propertyCriteria/1/type",
                "\"propertyCriteria\" items must be PROPERTY, not REGEX");
    check_error("{\"type\":\"lineCriterion\",\"name\":\"n\",\"propertyCriteria\":[null]}",
                CTG_ESCHEMA, "null", "/propertyCriteria/0", "expected object, got null");
    check_error("{\"type\":\"lineCriterion\",\"name\":\"n\",\"propertyCriteria\":{}}", CTG_ESCHEMA,
                "{}", "/propertyCriteria", "expected array for \"propertyCriteria\", got object");
}

#define TIE_LINE_VOLTAGE(iv)                                                                    \
    "{\"type\":\"tieLineCriterion\",\"name\":\"t\",\"nominalVoltageCriterion\":{\"type\":"    \
    "\"SINGLE_NOMINAL_VOLTAGE\",\"voltageInterval\":" iv "}}"
#define TIE_LINE_WRITTEN(iv)                                                                    \
    "{\n  \"type\" : \"tieLineCriterion\",\n  \"version\" : \"1.1\",\n  \"name\" : \"t\",\n"   \
    "  \"nominalVoltageCriterion\" : {\n    \"type\" : \"SINGLE_NOMINAL_VOLTAGE\",\n"          \
    "    \"voltageInterval\" : {\n" iv "\n    }\n  }\n}"
#define LOW(v, c) "      \"nominalVoltageLowBound\" : " v ",\n      \"lowClosed\" : " c
#define HIGH(v, c) "      \"nominalVoltageHighBound\" : " v ",\n      \"highClosed\" : " c

/* Intervals that spec 5.3 allows, written low first, each bound with its flag. */
CTG_TEST(criterion, intervals_accepted)
{
    check_round(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":380,\"lowClosed\":true}"),
                TIE_LINE_WRITTEN(LOW("380.0", "true")));
    check_round(TIE_LINE_VOLTAGE("{\"highClosed\":false,\"nominalVoltageHighBound\":400.5}"),
                TIE_LINE_WRITTEN(HIGH("400.5", "false")));
    check_round(TIE_LINE_VOLTAGE("{\"highClosed\":true,\"nominalVoltageHighBound\":1E7,"
                                 "\"lowClosed\":false,\"nominalVoltageLowBound\":0}"),
                TIE_LINE_WRITTEN(LOW("0.0", "false") ",\n" HIGH("1.0E7", "true")));
    /* A point is allowed when closed on both sides. */
    check_round(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":225,\"lowClosed\":true,"
                                 "\"nominalVoltageHighBound\":225.0,\"highClosed\":true}"),
                TIE_LINE_WRITTEN(LOW("225.0", "true") ",\n" HIGH("225.0", "true")));
    /* A high bound of 0 alone, closed, holds 0; -0.0 is not below 0 (as in Java). */
    check_round(TIE_LINE_VOLTAGE("{\"nominalVoltageHighBound\":0,\"highClosed\":true}"),
                TIE_LINE_WRITTEN(HIGH("0.0", "true")));
    check_round(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":-0.0,\"lowClosed\":false}"),
                TIE_LINE_WRITTEN(LOW("-0.0", "false")));
    check_round(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1.7976931348623157E308,"
                                 "\"lowClosed\":true}"),
                TIE_LINE_WRITTEN(LOW("1.7976931348623157E308", "true")));
    check_round(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":0.00063,\"lowClosed\":true,"
                                 "\"nominalVoltageHighBound\":123456789,\"highClosed\":false}"),
                TIE_LINE_WRITTEN(LOW("6.3E-4", "true") ",\n" HIGH("1.23456789E8", "false")));
}

#define IV_PATH "/nominalVoltageCriterion/voltageInterval"

/* Every constraint of spec 5.3, each with its position, path and message. */
CTG_TEST(criterion, interval_constraints)
{
    check_error(TIE_LINE_VOLTAGE("{}"), CTG_ESCHEMA, "{}", IV_PATH,
                "a voltage interval needs \"nominalVoltageLowBound\" or "
                "\"nominalVoltageHighBound\"");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1}"), CTG_ESCHEMA,
                "{\"nominalVoltageLow", IV_PATH "/lowClosed",
                "missing field \"lowClosed\", required with \"nominalVoltageLowBound\"");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1,\"lowClosed\":true,"
                                 "\"nominalVoltageHighBound\":2}"),
                CTG_ESCHEMA, "{\"nominalVoltageLow", IV_PATH "/highClosed",
                "missing field \"highClosed\", required with \"nominalVoltageHighBound\"");
    check_error(TIE_LINE_VOLTAGE("{\"lowClosed\":true,\"nominalVoltageHighBound\":1,"
                                 "\"highClosed\":true}"),
                CTG_ESCHEMA, "true,", IV_PATH "/lowClosed",
                "\"lowClosed\" given without \"nominalVoltageLowBound\"");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1,\"lowClosed\":true,"
                                 "\"highClosed\":false}"),
                CTG_ESCHEMA, "false", IV_PATH "/highClosed",
                "\"highClosed\" given without \"nominalVoltageHighBound\"");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":-1,\"lowClosed\":true}"),
                CTG_ESCHEMA, "-1", IV_PATH "/nominalVoltageLowBound",
                "\"nominalVoltageLowBound\" must be >= 0, got -1.0");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageHighBound\":-4.9E-324,\"highClosed\":true}"),
                CTG_ESCHEMA, "-4.9E", IV_PATH "/nominalVoltageHighBound",
                "\"nominalVoltageHighBound\" must be >= 0, got -4.9E-324");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":230,\"lowClosed\":true,"
                                 "\"nominalVoltageHighBound\":200,\"highClosed\":true}"),
                CTG_ESCHEMA, "200", IV_PATH "/nominalVoltageHighBound",
                "\"nominalVoltageHighBound\" 200.0 is below \"nominalVoltageLowBound\" 230.0");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":225,\"lowClosed\":false,"
                                 "\"nominalVoltageHighBound\":225,\"highClosed\":true}"),
                CTG_ESCHEMA, "{\"nominalVoltageLow", IV_PATH,
                "empty interval: equal bounds (225.0) must both be closed");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":225,\"lowClosed\":true,"
                                 "\"nominalVoltageHighBound\":225,\"highClosed\":false}"),
                CTG_ESCHEMA, "{\"nominalVoltageLow", IV_PATH,
                "empty interval: equal bounds (225.0) must both be closed");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageHighBound\":0,\"highClosed\":false}"),
                CTG_ESCHEMA, "{\"nominalVoltageHigh", IV_PATH,
                "empty interval: \"nominalVoltageHighBound\" 0.0 must be closed");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1.7976931348623157e308,"
                                 "\"lowClosed\":false}"),
                CTG_ESCHEMA, "{\"nominalVoltageLow", IV_PATH,
                "empty interval: \"nominalVoltageLowBound\" 1.7976931348623157E308 must be "
                "closed");
    /* Not finite: JSON cannot say NaN or Infinity, and an overflowing number is malformed. */
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1e309,\"lowClosed\":true}"),
                CTG_ESYNTAX, "1e309", IV_PATH "/nominalVoltageLowBound", "number out of range");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":NaN,\"lowClosed\":true}"),
                CTG_ESYNTAX, "NaN", IV_PATH "/nominalVoltageLowBound",
                "expected a value after ':', got 'N'");
}

/* PowSyBl reads interval values leniently ("value as"); we take JSON numbers and booleans
 * only, and say what was found. */
CTG_TEST(criterion, interval_values_are_strictly_typed)
{
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":\"380\",\"lowClosed\":true}"),
                CTG_ESCHEMA, "\"380\"", IV_PATH "/nominalVoltageLowBound",
                "expected number for \"nominalVoltageLowBound\", got string");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":null,\"lowClosed\":true}"),
                CTG_ESCHEMA, "null", IV_PATH "/nominalVoltageLowBound",
                "expected number for \"nominalVoltageLowBound\", got null");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageHighBound\":true,\"highClosed\":true}"),
                CTG_ESCHEMA, "true", IV_PATH "/nominalVoltageHighBound",
                "expected number for \"nominalVoltageHighBound\", got boolean");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1,\"lowClosed\":1}"),
                CTG_ESCHEMA, "1}", IV_PATH "/lowClosed",
                "expected boolean for \"lowClosed\", got number");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1,\"lowClosed\":\"true\"}"),
                CTG_ESCHEMA, "\"true\"", IV_PATH "/lowClosed",
                "expected boolean for \"lowClosed\", got string");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1,\"lowClosed\":null}"),
                CTG_ESCHEMA, "null", IV_PATH "/lowClosed",
                "expected boolean for \"lowClosed\", got null");
    check_error(TIE_LINE_VOLTAGE("null"), CTG_ESCHEMA, "null", IV_PATH,
                "expected object for \"voltageInterval\", got null");
    check_error(TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":1,\"lowClosed\":true,\"x\":1}"),
                CTG_ESCHEMA, "\"x\"", IV_PATH "/x", "unknown field \"x\"");
}

/* ---- criterion fields ---------------------------------------------------------------------- */

#define LINE_COUNTRY(c)                                                                         \
    "{\"type\":\"lineCriterion\",\"name\":\"l\",\"countryCriterion\":" c "}"
#define LINE_PROPERTY(c) "{\"type\":\"lineCriterion\",\"name\":\"l\",\"propertyCriteria\":[" c "]}"
#define LINE_REGEX(c) "{\"type\":\"lineCriterion\",\"name\":\"l\",\"regexCriterion\":" c "}"
#define HEAD_ONLY(kind, name)                                                                   \
    "{\n  \"type\" : \"" kind "\",\n  \"version\" : \"1.1\",\n  \"name\" : \"" name "\""
#define HEAD(kind, name) HEAD_ONLY(kind, name) ",\n"

CTG_TEST(criterion, criterion_type_rules)
{
    check_error(LINE_COUNTRY("{\"countries1\":[]}"), CTG_ESCHEMA, "{\"countries1",
                "/countryCriterion/type", "missing required field \"type\"");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRIES\"}"), CTG_ESCHEMA, "\"TWO_COUNTRIES\"",
                "/countryCriterion/type", "unknown criterion type \"TWO_COUNTRIES\"");
    check_error(LINE_COUNTRY("{\"type\":\"two_country\"}"), CTG_ESCHEMA, "\"two_country\"",
                "/countryCriterion/type", "unknown criterion type \"two_country\"");
    check_error(LINE_COUNTRY("{\"type\":null}"), CTG_ESCHEMA, "null", "/countryCriterion/type",
                "expected string for \"type\", got null");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"countries3\":[]}"), CTG_ESCHEMA,
                "\"countries3\"", "/countryCriterion/countries3", "unknown field \"countries3\"");
    check_error(LINE_COUNTRY("null"), CTG_ESCHEMA, "null", "/countryCriterion",
                "expected object for \"countryCriterion\", got null");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"type\":\"TWO_COUNTRY\"}"), CTG_ESCHEMA,
                "\"type\":\"TWO_COUNTRY\"}", "/countryCriterion/type",
                "duplicate key \"type\" (first at line 1, column 56)");
}

CTG_TEST(criterion, countries)
{
    check_round(LINE_COUNTRY("{\"countries2\":[\"XK\",\"FR\",\"FR\"],\"type\":\"TWO_COUNTRY\"}"),
                HEAD("lineCriterion", "l")
                "  \"countryCriterion\" : {\n    \"type\" : \"TWO_COUNTRY\",\n"
                "    \"countries1\" : [ ],\n"
                "    \"countries2\" : [ \"XK\", \"FR\", \"FR\" ]\n  }\n}");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"countries1\":[\"FR\",\"ZZ\"]}"),
                CTG_ESCHEMA, "\"ZZ\"", "/countryCriterion/countries1/1",
                "unknown country \"ZZ\" (expected an ISO 3166-1 alpha-2 code or XK)");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"countries1\":[\"fr\"]}"), CTG_ESCHEMA,
                "\"fr\"", "/countryCriterion/countries1/0",
                "unknown country \"fr\" (expected an ISO 3166-1 alpha-2 code or XK)");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"countries2\":[\"FRA\"]}"), CTG_ESCHEMA,
                "\"FRA\"", "/countryCriterion/countries2/0",
                "unknown country \"FRA\" (expected an ISO 3166-1 alpha-2 code or XK)");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"countries2\":[null]}"), CTG_ESCHEMA,
                "null", "/countryCriterion/countries2/0", "expected string, got null");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"countries2\":\"FR\"}"), CTG_ESCHEMA,
                "\"FR\"", "/countryCriterion/countries2",
                "expected array for \"countries2\", got string");
    check_error(LINE_COUNTRY("{\"type\":\"TWO_COUNTRY\",\"countries2\":null}"), CTG_ESCHEMA,
                "null", "/countryCriterion/countries2",
                "expected array for \"countries2\", got null");
}

/* Fields of another criterion type are ignored, as PowSyBl does, but checked as if they
 * counted: a wrong value there is still an error. */
CTG_TEST(criterion, fields_of_other_types_are_checked_and_dropped)
{
    static const char written[] = HEAD("lineCriterion", "l")
        "  \"regexCriterion\" : {\n    \"type\" : \"REGEX\",\n    \"regex\" : \"^L\"\n  }\n}";
    ctg_list *list = read_text(LINE_REGEX("{\"type\":\"REGEX\",\"countries\":[\"DE\"],"
                                          "\"propertyKey\":\"k\",\"propertyValue\":[\"v\"],"
                                          "\"equipmentToCheck\":\"SELF\",\"sideToCheck\":\"ONE\","
                                          "\"voltageInterval2\":{\"nominalVoltageLowBound\":1,"
                                          "\"lowClosed\":true},\"regex\":\"^L\"}"),
                               NULL);
    const ctg_criterion *c;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    c = ctg_list_criteria(list)->regex;
    CU_ASSERT_EQUAL(c->type, CTG_CRITERION_REGEX);
    CU_ASSERT_STRING_EQUAL(c->regex, "^L");
    CU_ASSERT(c->country_count[0] == 0 && c->countries[0] == NULL);
    CU_ASSERT(c->property_key == NULL && c->property_value_count == 0);
    CU_ASSERT(c->side_to_check == CTG_SIDE_NONE && !c->intervals[1].set);
    CU_ASSERT(writes_exactly(list, written, strlen(written)));
    ctg_list_free(list);
    check_error(LINE_REGEX("{\"type\":\"REGEX\",\"countries\":[\"EU\"]}"), CTG_ESCHEMA, "\"EU\"",
                "/regexCriterion/countries/0",
                "unknown country \"EU\" (expected an ISO 3166-1 alpha-2 code or XK)");
    check_error(LINE_REGEX("{\"type\":\"REGEX\",\"voltageInterval\":{}}"), CTG_ESCHEMA, "{}}",
                "/regexCriterion/voltageInterval",
                "a voltage interval needs \"nominalVoltageLowBound\" or "
                "\"nominalVoltageHighBound\"");
    check_error(LINE_REGEX("{\"type\":\"REGEX\",\"sideToCheck\":\"TWO\"}"), CTG_ESCHEMA,
                "\"TWO\"", "/regexCriterion/sideToCheck",
                "unknown sideToCheck \"TWO\" (expected ONE, BOTH or ALL_THREE)");
}

CTG_TEST(criterion, regex_absent_or_null_is_written_as_null)
{
    static const char written[] = HEAD("lineCriterion", "l")
        "  \"regexCriterion\" : {\n    \"type\" : \"REGEX\",\n    \"regex\" : null\n  }\n}";
    ctg_list *list = read_text(LINE_REGEX("{\"type\":\"REGEX\"}"), NULL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_PTR_NULL(ctg_list_criteria(list)->regex->regex);
    ctg_list_free(list);
    check_round(LINE_REGEX("{\"type\":\"REGEX\"}"), written);
    check_round(LINE_REGEX("{\"regex\":null,\"type\":\"REGEX\"}"), written);
    check_round(LINE_REGEX("{\"type\":\"REGEX\",\"regex\":\"\"}"),
                HEAD("lineCriterion", "l") "  \"regexCriterion\" : {\n    \"type\" : \"REGEX\",\n"
                "    \"regex\" : \"\"\n  }\n}");
    check_error(LINE_REGEX("{\"type\":\"REGEX\",\"regex\":5}"), CTG_ESCHEMA, "5}",
                "/regexCriterion/regex", "expected string for \"regex\", got number");
}

CTG_TEST(criterion, property_fields)
{
    /* propertyValue defaults to empty and is always written; sideToCheck only when set. */
    check_round(LINE_PROPERTY("{\"equipmentToCheck\":\"SUBSTATION\",\"propertyKey\":\"k\","
                              "\"type\":\"PROPERTY\"},{\"type\":\"PROPERTY\",\"propertyKey\":\"\","
                              "\"propertyValue\":[\"a\",\"\\u00e9\\n\"],\"equipmentToCheck\":"
                              "\"SELF\",\"sideToCheck\":\"ONE\"}"),
                HEAD("lineCriterion", "l")
                "  \"propertyCriteria\" : [ {\n    \"type\" : \"PROPERTY\",\n"
                "    \"propertyKey\" : \"k\",\n    \"propertyValue\" : [ ],\n"
                "    \"equipmentToCheck\" : \"SUBSTATION\"\n  }, {\n"
                "    \"type\" : \"PROPERTY\",\n    \"propertyKey\" : \"\",\n"
                "    \"propertyValue\" : [ \"a\", \"\xc3\xa9\\n\" ],\n"
                "    \"equipmentToCheck\" : \"SELF\",\n    \"sideToCheck\" : \"ONE\"\n  } ]\n}");
    check_round(LINE_PROPERTY(""), HEAD_ONLY("lineCriterion", "l") "\n}");
    check_error(LINE_PROPERTY("{\"type\":\"PROPERTY\",\"equipmentToCheck\":\"SELF\"}"),
                CTG_ESCHEMA, "{\"type\":\"PROPERTY", "/propertyCriteria/0/propertyKey",
                "missing required field \"propertyKey\"");
    check_error(LINE_PROPERTY("{\"type\":\"PROPERTY\",\"propertyKey\":\"k\"}"), CTG_ESCHEMA,
                "{\"type\":\"PROPERTY", "/propertyCriteria/0/equipmentToCheck",
                "missing required field \"equipmentToCheck\"");
    check_error(LINE_PROPERTY("{\"type\":\"PROPERTY\",\"propertyKey\":null}"), CTG_ESCHEMA,
                "null", "/propertyCriteria/0/propertyKey",
                "expected string for \"propertyKey\", got null");
    check_error(LINE_PROPERTY("{\"type\":\"PROPERTY\",\"propertyKey\":\"k\","
                              "\"equipmentToCheck\":\"BRANCH\"}"),
                CTG_ESCHEMA, "\"BRANCH\"", "/propertyCriteria/0/equipmentToCheck",
                "unknown equipmentToCheck \"BRANCH\" (expected SELF, VOLTAGE_LEVEL or SUBSTATION)");
    check_error(LINE_PROPERTY("{\"type\":\"PROPERTY\",\"propertyKey\":\"k\","
                              "\"equipmentToCheck\":\"SELF\",\"sideToCheck\":null}"),
                CTG_ESCHEMA, "null", "/propertyCriteria/0/sideToCheck",
                "expected string for \"sideToCheck\", got null");
    check_error(LINE_PROPERTY("{\"type\":\"PROPERTY\",\"propertyValue\":[\"a\",1]}"), CTG_ESCHEMA,
                "1]", "/propertyCriteria/0/propertyValue/1", "expected string, got number");
}

/* injectionCriterion needs its identifiableType, any of spec 4's names; no other kind has one. */
CTG_TEST(criterion, identifiable_type)
{
    char doc[256], expect[512];

    for (int t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++) {
        const char *name = ctg_identifiable_type_name((ctg_identifiable_type)t);

        snprintf(doc, sizeof doc, "{\"type\":\"injectionCriterion\",\"identifiableType\":\"%s\","
                                  "\"name\":\"i\"}", name);
        snprintf(expect, sizeof expect, HEAD("injectionCriterion", "i")
                 "  \"identifiableType\" : \"%s\"\n}", name);
        check_round(doc, expect);
    }
    check_error("{\"type\":\"injectionCriterion\",\"name\":\"i\"}", CTG_ESCHEMA, "{",
                "/identifiableType", "missing required field \"identifiableType\"");
    check_error("{\"type\":\"injectionCriterion\",\"name\":\"i\",\"identifiableType\":\"GEN\"}",
                CTG_ESCHEMA, "\"GEN\"", "/identifiableType", "unknown identifiable type \"GEN\"");
    check_error("{\"type\":\"injectionCriterion\",\"name\":\"i\",\"identifiableType\":"
                "\"DANGLING_LINE\"}", CTG_ESCHEMA, "\"DANGLING_LINE\"", "/identifiableType",
                "unknown identifiable type \"DANGLING_LINE\" (now BOUNDARY_LINE)");
    check_error("{\"type\":\"injectionCriterion\",\"name\":\"i\",\"identifiableType\":null}",
                CTG_ESCHEMA, "null", "/identifiableType",
                "expected string for \"identifiableType\", got null");
    for (int k = CTG_LIST_LINE_CRITERION; k <= CTG_LIST_THREE_WT_CRITERION; k++) {
        char msg[128];

        make_doc(doc, sizeof doc, (ctg_list_kind)k, "identifiableType", "\"LINE\"");
        snprintf(msg, sizeof msg, "unknown field \"identifiableType\" in a \"%s\"",
                 ctg_list_kind_name((ctg_list_kind)k));
        check_error(doc, CTG_ESCHEMA, "\"LINE\"", "/identifiableType", msg);
    }
}

/* A criterion list nested in a `list` list reads through the same handlers. */
CTG_TEST(criterion, nested_in_a_list_of_lists)
{
    static const char doc[] =
        "{\"type\":\"list\",\"name\":\"all\",\"contingencyLists\":[{\"type\":\"lineCriterion\","
        "\"name\":\"l\",\"regexCriterion\":{\"type\":\"REGEX\",\"regex\":\"x\"}},{\"type\":"
        "\"hvdcCriterion\",\"name\":\"h\",\"countryCriterion\":{\"type\":\"SINGLE_COUNTRY\"}}]}";
    ctg_list *list;

    check_error(doc, CTG_ESCHEMA, "\"SINGLE_COUNTRY\"", "/contingencyLists/1/countryCriterion/type",
                "\"countryCriterion\" of hvdcCriterion lists must be TWO_COUNTRY, not "
                "SINGLE_COUNTRY");
    list = read_text("{\"type\":\"list\",\"name\":\"all\",\"contingencyLists\":[{\"type\":"
                     "\"lineCriterion\",\"name\":\"l\",\"regexCriterion\":{\"type\":\"REGEX\","
                     "\"regex\":\"x\"}}]}", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_child_count(list), 1);
    CU_ASSERT_STRING_EQUAL(ctg_list_criteria(ctg_list_child_at(list, 0))->regex->regex, "x");
    ctg_list_free(list);
}

/* ---- names and the country table ------------------------------------------------------------ */

CTG_TEST(criterion, type_names)
{
    static const char *const names[] = {
        "SINGLE_COUNTRY", "TWO_COUNTRY", "AT_LEAST_ONE_COUNTRY", "SINGLE_NOMINAL_VOLTAGE",
        "TWO_NOMINAL_VOLTAGE", "THREE_NOMINAL_VOLTAGE", "AT_LEAST_ONE_NOMINAL_VOLTAGE",
        "PROPERTY", "REGEX",
    };
    ctg_criterion_type t;

    CU_ASSERT_EQUAL_FATAL(COUNT_OF(names), CTG_CRITERION_TYPE_COUNT);
    for (size_t i = 0; i < COUNT_OF(names); i++) {
        CU_ASSERT_STRING_EQUAL(ctg_criterion_type_name((ctg_criterion_type)i), names[i]);
        CU_ASSERT(ctg_criterion_type_from_name(names[i], strlen(names[i]), &t)
                  && t == (ctg_criterion_type)i);
    }
    CU_ASSERT_PTR_NULL(ctg_criterion_type_name(CTG_CRITERION_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_criterion_type_name((ctg_criterion_type)-1));
    CU_ASSERT_FALSE(ctg_criterion_type_from_name("REGEXP", 6, &t));
    CU_ASSERT_FALSE(ctg_criterion_type_from_name("REGEX", 4, &t));
    CU_ASSERT_STRING_EQUAL(ctg_equipment_to_check_name(CTG_CHECK_SUBSTATION), "SUBSTATION");
    CU_ASSERT_STRING_EQUAL(ctg_side_to_check_name(CTG_SIDE_ALL_THREE), "ALL_THREE");
    CU_ASSERT_PTR_NULL(ctg_side_to_check_name(CTG_SIDE_NONE));
}

/* iidm-api's Country constants in its own (not alphabetical) order: an independent copy of the
 * ISO 3166-1 alpha-2 list plus XK. */
static const char iidm_countries[] =
    "AF AX AL DZ AS AD AO AI AQ AG AR AM AW AU AT AZ BS BH BD BB BY BE BZ BJ BM BT BO BQ BA BW "
    "BV BR IO BN BG BF BI KH CM CA CV KY CF TD CL CN CX CC CO KM CG CD CK CR CI HR CU CW CY CZ "
    "DK DJ DM DO EC EG SV GQ ER EE ET FK FO FJ FI FR GF PF TF GA GM GE DE GH GI GR GL GD GP GU "
    "GT GG GN GW GY HT HM VA HN HK HU IS IN ID IR IQ IE IM IL IT JM JP JE JO KZ KE KI KP KR XK "
    "KW KG LA LV LB LS LR LY LI LT LU MO MK MG MW MY MV ML MT MH MQ MR MU YT MX FM MD MC MN ME "
    "MS MA MZ MM NA NR NP NL NC NZ NI NE NG NU NF MP NO OM PK PW PS PA PG PY PE PH PN PL PT PR "
    "QA RE RO RU RW BL SH KN LC MF PM VC WS SM ST SA SN RS SC SL SG SX SK SI SB SO ZA GS SS ES "
    "LK SD SR SJ SZ SE CH SY TW TJ TZ TH TL TG TK TO TT TN TR TM TC TV UG UA AE GB US UM UY UZ "
    "VU VE VN VG VI WF EH YE ZM ZW";

CTG_TEST(criterion, country_table)
{
    size_t listed = 0, valid = 0;
    char code[3] = { 0 };

    for (const char *p = iidm_countries; *p != '\0'; p += p[2] == ' ' ? 3 : 2) {
        const char *own = ctg_country_code(p, 2);
        CU_ASSERT(own != NULL && memcmp(own, p, 2) == 0 && own[2] == '\0');
        listed++;
    }
    CU_ASSERT_EQUAL(listed, CTG_COUNTRY_COUNT);
    /* Every pair of capitals: exactly the listed ones are valid, and the lookup gives the
     * table's entry, in alphabetical order. */
    for (code[0] = 'A'; code[0] <= 'Z'; code[0]++) {
        for (code[1] = 'A'; code[1] <= 'Z'; code[1]++) {
            bool in_list = strstr(iidm_countries, code) != NULL
                           && (strstr(iidm_countries, code) - iidm_countries) % 3 == 0;
            CU_ASSERT_EQUAL(ctg_country_is_valid(code, 2), in_list);
            if (in_list) {
                CU_ASSERT_PTR_EQUAL(ctg_country_code(code, 2), ctg_country_at(valid));
                valid++;
            }
        }
    }
    CU_ASSERT_EQUAL(valid, CTG_COUNTRY_COUNT);
    CU_ASSERT_PTR_NULL(ctg_country_at(CTG_COUNTRY_COUNT));
    CU_ASSERT_TRUE(ctg_country_is_valid("XK", 2));
    CU_ASSERT_FALSE(ctg_country_is_valid("UK", 2));
    CU_ASSERT_FALSE(ctg_country_is_valid("EU", 2));
    CU_ASSERT_FALSE(ctg_country_is_valid("fr", 2));
    CU_ASSERT_FALSE(ctg_country_is_valid("FR", 1));
    CU_ASSERT_FALSE(ctg_country_is_valid("FRA", 3));
    CU_ASSERT_FALSE(ctg_country_is_valid("F\0", 2));
    CU_ASSERT_FALSE(ctg_country_is_valid("[A", 2));
    CU_ASSERT_FALSE(ctg_country_is_valid(NULL, 2));
}

/* ---- builders ------------------------------------------------------------------------------ */

static const char line_fixture[] =
    HEAD("lineCriterion", "list2")
    "  \"countryCriterion\" : {\n    \"type\" : \"TWO_COUNTRY\",\n"
    "    \"countries1\" : [ \"FR\" ],\n    \"countries2\" : [ \"BE\" ]\n  },\n"
    "  \"nominalVoltageCriterion\" : {\n    \"type\" : \"TWO_NOMINAL_VOLTAGE\",\n"
    "    \"voltageInterval1\" : {\n      \"nominalVoltageLowBound\" : 200.0,\n"
    "      \"lowClosed\" : true,\n      \"nominalVoltageHighBound\" : 230.0,\n"
    "      \"highClosed\" : true\n    }\n  },\n"
    "  \"propertyCriteria\" : [ {\n    \"type\" : \"PROPERTY\",\n"
    "    \"propertyKey\" : \"propertyKey\",\n    \"propertyValue\" : [ \"value\" ],\n"
    "    \"equipmentToCheck\" : \"VOLTAGE_LEVEL\",\n    \"sideToCheck\" : \"BOTH\"\n  } ],\n"
    "  \"regexCriterion\" : {\n    \"type\" : \"REGEX\",\n    \"regex\" : \"regex\"\n  }\n}";

/* The criteria of lineCriterionContingencyList.json, built in code. */
typedef struct line_criteria {
    const char *fr[1], *be[1], *values[1];
    ctg_criterion country, voltage, property, regex;
    ctg_criteria all;
} line_criteria;

static void make_line_criteria(line_criteria *lc)
{
    memset(lc, 0, sizeof *lc);
    lc->fr[0] = "FR";
    lc->be[0] = "BE";
    lc->values[0] = "value";
    lc->country.type = CTG_CRITERION_TWO_COUNTRY;
    lc->country.countries[0] = lc->fr;
    lc->country.countries[1] = lc->be;
    lc->country.country_count[0] = lc->country.country_count[1] = 1;
    lc->voltage.type = CTG_CRITERION_TWO_NOMINAL_VOLTAGE;
    lc->voltage.intervals[0] = (ctg_voltage_interval){ true, true, 200, true, true, 230, true };
    lc->property.type = CTG_CRITERION_PROPERTY;
    lc->property.property_key = "propertyKey";
    lc->property.property_values = lc->values;
    lc->property.property_value_count = 1;
    lc->property.equipment_to_check = CTG_CHECK_VOLTAGE_LEVEL;
    lc->property.side_to_check = CTG_SIDE_BOTH;
    lc->regex.type = CTG_CRITERION_REGEX;
    lc->regex.regex = "regex";
    lc->all.country = &lc->country;
    lc->all.nominal_voltage = &lc->voltage;
    lc->all.properties = &lc->property;
    lc->all.property_count = 1;
    lc->all.regex = &lc->regex;
}

CTG_TEST(criterion, builder_writes_exact_bytes)
{
    line_criteria lc;
    ctg_list *list = NULL;

    make_line_criteria(&lc);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_LINE_CRITERION, "list2", NULL), CTG_OK);
    /* A new list has no criteria: type, version and name only. */
    CU_ASSERT(writes_exactly(list, HEAD_ONLY("lineCriterion", "list2") "\n}",
                             strlen(HEAD_ONLY("lineCriterion", "list2") "\n}")));
    CU_ASSERT_EQUAL(ctg_list_set_criteria(list, &lc.all), CTG_OK);
    CU_ASSERT(writes_exactly(list, line_fixture, strlen(line_fixture)));
    ctg_list_free(list);
}

/* The list builder_writes_exact_bytes builds is PowSyBl's own fixture, byte for byte. */
CTG_SHARED_TEST(criterion, builder_writes_the_shared_fixture)
{
    line_criteria lc;
    ctg_list *list = NULL;
    char path[1024], *shared;
    size_t len;

    make_line_criteria(&lc);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_LINE_CRITERION, "list2", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_set_criteria(list, &lc.all), CTG_OK);
    shared_path(path, sizeof path, "lineCriterionContingencyList.json");
    shared = ctg_test_slurp(path, &len);
    CU_ASSERT(shared != NULL && writes_exactly(list, shared, len));
    free(shared);
    ctg_list_free(list);
}

CTG_TEST(criterion, builder_injection_and_three_windings)
{
    static const char injection[] = HEAD("injectionCriterion", "inj")
        "  \"identifiableType\" : \"HVDC_CONVERTER_STATION\",\n"
        "  \"countryCriterion\" : {\n    \"type\" : \"SINGLE_COUNTRY\",\n"
        "    \"countries\" : [ ]\n  }\n}";
    static const char three[] = HEAD("threeWindingsTransformerCriterion", "3")
        "  \"nominalVoltageCriterion\" : {\n    \"type\" : \"THREE_NOMINAL_VOLTAGE\",\n"
        "    \"voltageInterval2\" : {\n      \"nominalVoltageHighBound\" : 1.0E-4,\n"
        "      \"highClosed\" : false\n    }\n  }\n}";
    ctg_criterion country = { .type = CTG_CRITERION_SINGLE_COUNTRY };
    ctg_criterion voltage = { .type = CTG_CRITERION_THREE_NOMINAL_VOLTAGE };
    ctg_criteria cr = { .identifiable_type = CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION,
                        .country = &country };
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_INJECTION_CRITERION, "inj", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_set_criteria(list, &cr), CTG_OK);
    CU_ASSERT(writes_exactly(list, injection, strlen(injection)));
    ctg_list_free(list);

    voltage.intervals[1] = (ctg_voltage_interval){ .set = true, .has_high = true, .high = 1e-4 };
    /* A bound that is absent keeps whatever its fields held out of the list. */
    voltage.intervals[1].low = -5;
    voltage.intervals[1].low_closed = true;
    cr = (ctg_criteria){ .identifiable_type = CTG_IDENTIFIABLE_LOAD, .nominal_voltage = &voltage };
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_THREE_WT_CRITERION, "3", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_set_criteria(list, &cr), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_criteria(list)->identifiable_type, 0); /* injection only */
    CU_ASSERT_EQUAL(ctg_list_criteria(list)->nominal_voltage->intervals[1].low, 0);
    CU_ASSERT(writes_exactly(list, three, strlen(three)));
    ctg_list_free(list);
}

/* The list keeps its own copies: the caller's criteria may change or go away. */
CTG_TEST(criterion, set_criteria_copies_deeply)
{
    char fr[] = "FR", key[] = "propertyKey", value[] = "value", regex[] = "regex";
    line_criteria lc;
    ctg_list *list = NULL;
    const ctg_criteria *got;

    make_line_criteria(&lc);
    lc.fr[0] = fr;
    lc.property.property_key = key;
    lc.values[0] = value;
    lc.regex.regex = regex;
    lc.regex.countries[0] = lc.be; /* not a REGEX field: dropped */
    lc.regex.country_count[0] = 1;
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_LINE_CRITERION, "list2", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_set_criteria(list, &lc.all), CTG_OK);
    got = ctg_list_criteria(list);
    CU_ASSERT(got->country != &lc.country && got->regex->regex != regex);
    CU_ASSERT_PTR_EQUAL(got->country->countries[0][0], ctg_country_code("FR", 2));
    CU_ASSERT_EQUAL(got->regex->country_count[0], 0);
    memcpy(fr, "DE", 2);
    memcpy(key, "x", 2);
    memcpy(value, "y", 2);
    memset(&lc, 0xAB, sizeof lc);
    CU_ASSERT(writes_exactly(list, line_fixture, strlen(line_fixture)));
    ctg_list_free(list);
}

/* The rules ctg_list_set_criteria checks, each broken by break_rule(). */
static const char *const rules[] = {
    "PROPERTY without key", "unknown country", "NULL country", "lower-case country",
    "countries without array", "SINGLE_COUNTRY in a line list",
    "THREE_NOMINAL_VOLTAGE in a line list",
    "REGEX in propertyCriteria", "PROPERTY as regexCriterion", "criterion type out of range",
    "property_count without array", "NULL property value", "equipmentToCheck out of range",
    "sideToCheck out of range", "interval without bound", "negative bound", "NaN bound",
    "infinite bound", "low above high", "open point", "open high bound 0 alone",
    "open low bound DBL_MAX alone",
};

static void break_interval(ctg_voltage_interval *iv, size_t rule)
{
    static const ctg_voltage_interval empty_high = { .set = true, .has_high = true };
    static const ctg_voltage_interval empty_low = { .set = true, .has_low = true, .low = DBL_MAX };

    switch (rule) {
    case 14: iv->has_low = iv->has_high = false; break;
    case 15: iv->low = -1; break;
    case 16: iv->high = NAN; break;
    case 17: iv->high = INFINITY; break;
    case 18: iv->low = 231; break;
    case 19: iv->low = 230, iv->low_closed = false; break;
    case 20: *iv = empty_high; break;
    default: *iv = empty_low; break;
    }
}

static void break_rule(line_criteria *lc, size_t rule)
{
    switch (rule) {
    case 0: lc->property.property_key = NULL; break;
    case 1: lc->be[0] = "EU"; break;
    case 2: lc->be[0] = NULL; break;
    case 3: lc->be[0] = "be"; break;
    case 4: lc->country.countries[1] = NULL; break;
    case 5: lc->country.type = CTG_CRITERION_SINGLE_COUNTRY; break;
    case 6: lc->voltage.type = CTG_CRITERION_THREE_NOMINAL_VOLTAGE; break;
    case 7: lc->all.properties = &lc->regex; break;
    case 8: lc->all.regex = &lc->property; break;
    case 9: lc->regex.type = CTG_CRITERION_TYPE_COUNT; break;
    case 10: lc->all.properties = NULL; break;
    case 11: lc->values[0] = NULL; break;
    case 12: lc->property.equipment_to_check = (ctg_equipment_to_check)3; break;
    case 13: lc->property.side_to_check = (ctg_side_to_check)4; break;
    default: break_interval(&lc->voltage.intervals[0], rule); break;
    }
}

/* Each rule the reader enforces, the builder enforces too; a refused call changes nothing. */
CTG_TEST(criterion, set_criteria_rejects_what_the_reader_rejects)
{
    line_criteria lc;
    ctg_list *list = NULL, *other = NULL;
    const ctg_criterion *before;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_LINE_CRITERION, "list2", NULL), CTG_OK);
    make_line_criteria(&lc);
    CU_ASSERT_EQUAL_FATAL(ctg_list_set_criteria(list, &lc.all), CTG_OK);
    before = ctg_list_criteria(list)->country;
    for (size_t i = 0; i < COUNT_OF(rules); i++) {
        make_line_criteria(&lc);
        break_rule(&lc, i);
        if (ctg_list_set_criteria(list, &lc.all) != CTG_EINVAL)
            fprintf(stderr, "\n  accepted: %s\n", rules[i]);
        CU_ASSERT_EQUAL(ctg_list_set_criteria(list, &lc.all), CTG_EINVAL);
    }
    CU_ASSERT_PTR_EQUAL(ctg_list_criteria(list)->country, before);
    CU_ASSERT(writes_exactly(list, line_fixture, strlen(line_fixture)));
    CU_ASSERT_EQUAL(ctg_list_set_criteria(list, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_set_criteria(NULL, &lc.all), CTG_EINVAL);
    make_line_criteria(&lc);
    lc.all.identifiable_type = CTG_IDENTIFIABLE_TYPE_COUNT; /* ignored: not an injection list */
    CU_ASSERT_EQUAL(ctg_list_set_criteria(list, &lc.all), CTG_OK);
    ctg_list_free(list);

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&other, CTG_LIST_DEFAULT, "d", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_set_criteria(other, &lc.all), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(ctg_list_criteria(other));
    CU_ASSERT_PTR_NULL(ctg_list_criteria(NULL));
    ctg_list_free(other);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&other, CTG_LIST_INJECTION_CRITERION, "i", NULL), CTG_OK);
    lc.all = (ctg_criteria){ .identifiable_type = CTG_IDENTIFIABLE_TYPE_COUNT };
    CU_ASSERT_EQUAL(ctg_list_set_criteria(other, &lc.all), CTG_EINVAL);
    ctg_list_free(other);
}

/* ---- memory ------------------------------------------------------------------------------- */

/* A list whose arena makes one allocator call per request, so that a sweep reaches each. */
static ctg_list *exact_list(ctg_list_kind kind, const ctg_allocator *a)
{
    ctg_arena *arena = ctg_arena_new_ex(a, CTG_ARENA_EXACT);
    ctg_list *list = arena != NULL ? ctg_list_alloc_in(arena, kind, "list2") : NULL;

    if (list == NULL) {
        ctg_arena_release(arena);
        return NULL;
    }
    list->owns_arena = true;
    return list;
}

/* Out of memory anywhere in ctg_list_set_criteria: CTG_ENOMEM, the list as it was, no leak. */
CTG_TEST(criterion, set_criteria_out_of_memory_leaves_the_list_unchanged)
{
    static const char first[] = HEAD("lineCriterion", "list2")
        "  \"regexCriterion\" : {\n    \"type\" : \"REGEX\",\n    \"regex\" : null\n  }\n}";
    ctg_criterion regex = { .type = CTG_CRITERION_REGEX };
    ctg_criteria only_regex = { .regex = &regex };
    size_t n, failures = 0;
    line_criteria lc;

    make_line_criteria(&lc);
    for (n = 1; n < 1000; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_list *list = exact_list(CTG_LIST_LINE_CRITERION, &a);
        int rc;

        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        CU_ASSERT_EQUAL_FATAL(ctg_list_set_criteria(list, &only_regex), CTG_OK);
        st.fail_at = st.calls + n;
        rc = ctg_list_set_criteria(list, &lc.all);
        if (rc == CTG_ENOMEM) {
            failures++;
            CU_ASSERT(writes_exactly(list, first, strlen(first)));
        } else {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            CU_ASSERT(writes_exactly(list, line_fixture, strlen(line_fixture)));
        }
        ctg_list_free(list);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        if (rc == CTG_OK)
            break;
    }
    /* 4 criteria, 2 country arrays, the value array, the key, the value, the regex. */
    CU_ASSERT_EQUAL(failures, 10);
}

/* A read that survived the failure is the fixture, byte for byte. */
static void writes_line_fixture(const ctg_list *list, void *ctx)
{
    (void)ctx;
    CU_ASSERT(writes_exactly(list, line_fixture, strlen(line_fixture)));
}

/* Failing the 1st, 2nd, ... allocation of a read until one succeeds. */
CTG_TEST(criterion, read_allocation_failure_sweep)
{
    ctg_test_sweep_spec exact = { CTG_ARENA_EXACT, false, NULL, CTG_OK, writes_line_fixture,
                                  NULL };
    ctg_test_sweep_spec file = { 0, true, NULL, CTG_OK, writes_line_fixture, NULL };

    CU_ASSERT(ctg_test_sweep(line_fixture, strlen(line_fixture), &exact) > 11);
    CU_ASSERT(ctg_test_sweep(line_fixture, strlen(line_fixture), &file) > 1);
}

/* Allocator calls of one read in exact-arena mode. */
static size_t allocs_for(const char *doc)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;

    opts.allocator = &a;
    if (ctg_list_read_buffer_ex(&list, doc, strlen(doc), &opts, &err, CTG_ARENA_EXACT) != CTG_OK)
        fprintf(stderr, "\n  %s: %s\n", doc, err.message);
    CU_ASSERT_PTR_NOT_NULL(list);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    return st.allocs;
}

#define BASE_DOC(more)                                                                          \
    "{\"type\":\"lineCriterion\",\"name\":\"l\",\"propertyCriteria\":[{\"type\":\"PROPERTY\","   \
    "\"propertyKey\":\"k\",\"equipmentToCheck\":\"SELF\"" more "}]"

/* An absent optional field costs nothing; a present one exactly what it holds. Countries are
 * the library's own strings: a country array costs one allocation, whatever its length. */
CTG_TEST(criterion, absent_optional_fields_allocate_nothing)
{
    size_t base = allocs_for(BASE_DOC("") "}");

    CU_ASSERT_EQUAL(allocs_for(BASE_DOC(",\"sideToCheck\":\"ONE\"") "}"), base);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC(",\"propertyValue\":[]") "}"), base);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC(",\"propertyValue\":[\"a\",\"b\"]") "}"), base + 3);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC("") ",\"regexCriterion\":{\"type\":\"REGEX\"}}"), base + 1);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC("") ",\"regexCriterion\":{\"type\":\"REGEX\","
                                            "\"regex\":\"x\"}}"), base + 2);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC("") ",\"countryCriterion\":{\"type\":\"TWO_COUNTRY\"}}"),
                    base + 1);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC("") ",\"countryCriterion\":{\"type\":\"TWO_COUNTRY\","
                                            "\"countries1\":[\"FR\",\"BE\",\"DE\"]}}"), base + 2);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC("") ",\"nominalVoltageCriterion\":{\"type\":"
                                            "\"TWO_NOMINAL_VOLTAGE\"}}"), base + 1);
    CU_ASSERT_EQUAL(allocs_for(BASE_DOC("") ",\"nominalVoltageCriterion\":{\"type\":"
                                            "\"TWO_NOMINAL_VOLTAGE\",\"voltageInterval2\":{"
                                            "\"nominalVoltageLowBound\":1,\"lowClosed\":true}}}"),
                    base + 1);
}

/* ---- doubles: the lexer's parser and the Java layout round-trip --------------------------- */

/* A number's text, its value, and what Java's Double.toString prints for that value. */
static const struct {
    const char *text;
    double v;
    const char *java;
} java_doubles[] = {
    { "380.0", 380.0, "380.0" },
    { "1.0E7", 1.0E7, "1.0E7" },
    { "1.0E-4", 1.0E-4, "1.0E-4" },
    { "1.23456789E8", 1.23456789E8, "1.23456789E8" },
    { "0.001", 0.001, "0.001" },
    { "9.99E-4", 9.99E-4, "9.99E-4" },
    { "1234567.0", 1234567.0, "1234567.0" },
    { "9999999.999999998", 9999999.999999998, "9999999.999999998" },
    { "4.9E-324", 4.9E-324, "4.9E-324" },
    { "1.7976931348623157E308", 1.7976931348623157E308, "1.7976931348623157E308" },
    { "2.2250738585072014E-308", 2.2250738585072014E-308, "2.2250738585072014E-308" },
    { "2.225073858507201E-308", 2.225073858507201E-308, "2.225073858507201E-308" },
    { "-0.0", -0.0, "-0.0" },
    { "0.0", 0.0, "0.0" },
    { "0.1", 0.1, "0.1" },
    { "0.30000000000000004", 0.30000000000000004, "0.30000000000000004" },
    { "123456.789", 123456.789, "123456.789" },
    { "1.0E23", 1.0E23, "1.0E23" },
    /* Other texts of the same values. */
    { "5E-324", 4.9E-324, "4.9E-324" },
    { "1.0E-323", 9.9E-324, "9.9E-324" }, /* of the 2-digit decimals, 9.9E-324 is nearer */
    { "380", 380.0, "380.0" },
    { "0.10000000000000001", 0.1, "0.1" },
    { "1e-3", 0.001, "0.001" },
    { "10000000", 1.0E7, "1.0E7" },
};

/* Each text parses (with the lexer's own parser, and through a whole document) to the exact
 * value, and the value is written back as the Java text. */
CTG_TEST(criterion, doubles_java_table_round_trip)
{
    char out[CTG_DOUBLE_BUF], doc[256], expect[512];

    for (size_t i = 0; i < COUNT_OF(java_doubles); i++) {
        const char *text = java_doubles[i].text, *java = java_doubles[i].java;
        double v = 12345;

        CU_ASSERT(ctg_parse_double(text, strlen(text), &v));
        CU_ASSERT(memcmp(&v, &java_doubles[i].v, sizeof v) == 0);
        ctg_format_double(v, out);
        CU_ASSERT_STRING_EQUAL(out, java);
        snprintf(doc, sizeof doc, TIE_LINE_VOLTAGE("{\"nominalVoltageLowBound\":%s,"
                                                   "\"lowClosed\":true}"), text);
        snprintf(expect, sizeof expect, TIE_LINE_WRITTEN(LOW("%s", "true")), java);
        check_round(doc, expect);
    }
}

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12; /* xorshift64*: the same patterns on every run */
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1DULL;
}

/* The decimal m x 10^e that the Java text `s` shows, without leading or trailing zeros;
 * returns its number of digits. */
static int decimal_of(const char *s, uint64_t *m, int *e)
{
    int digits = 0, frac = 0, exp10 = 0;
    bool after_point = false;

    *m = 0;
    for (; *s != '\0' && *s != 'E'; s++) {
        if (*s == '.') {
            after_point = true;
        } else if (*s >= '0' && *s <= '9') {
            if (digits > 0 || *s != '0') {
                *m = *m * 10 + (uint64_t)(*s - '0');
                digits++;
            }
            frac += after_point;
        }
    }
    if (*s == 'E')
        exp10 = atoi(s + 1);
    *e = exp10 - frac;
    while (digits > 1 && *m % 10 == 0) {
        *m /= 10;
        (*e)++;
        digits--;
    }
    return digits;
}

static bool parses_to(uint64_t m, int e, double x)
{
    char buf[48];
    int n = snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)m, e);
    double y;

    return ctg_parse_double(buf, (size_t)n, &y) && y == x;
}

/* Whether some decimal with one digit fewer than `s` also reads back as x > 0: the two such
 * decimals around the text are the only candidates (the set of decimals that read back as x
 * is an interval containing the text). */
static bool shorter_reads_back(const char *s, double x)
{
    uint64_t m;
    int e, digits = decimal_of(s, &m, &e);

    if (digits < 3) /* Java writes at least two digits ("1.0E7") */
        return false;
    return parses_to(m / 10, e + 1, x) || parses_to(m / 10 + 1, e + 1, x);
}

/* Random bit patterns: the text of every finite double reads back, through the lexer's parser,
 * as exactly that double, and no shorter decimal would; every 64th goes through a whole
 * criterion document and comes out with the same text. */
CTG_TEST(criterion, doubles_random_bits_round_trip_through_the_lexer)
{
    uint64_t state = 0xD1B54A32D192ED03ULL;
    int failures = 0;
    size_t checked = 0, documents = 0, n = ctg_test_scaled(100000);
    char out[CTG_DOUBLE_BUF];

    for (size_t i = 0; i < n && failures < 5; i++) {
        uint64_t bits = next_random(&state);
        double x, back;

        if (i % 3 == 1) /* around the plain range */
            bits = (bits & 0x800FFFFFFFFFFFFFULL) | ((uint64_t)(1000 + (bits >> 52) % 60) << 52);
        memcpy(&x, &bits, sizeof x);
        if (!isfinite(x))
            continue;
        checked++;
        ctg_format_double(x, out);
        if (!ctg_parse_double(out, strlen(out), &back) || memcmp(&back, &x, sizeof x) != 0
            || (x != 0 && shorter_reads_back(out[0] == '-' ? out + 1 : out, fabs(x)))) {
            fprintf(stderr, "\n  %a written as %s\n", x, out);
            failures++;
        }
        if (i % 64 == 0 && x >= 0) {
            char doc[256], expect[512];
            snprintf(doc, sizeof doc, TIE_LINE_VOLTAGE("{\"nominalVoltageHighBound\":%s,"
                                                       "\"highClosed\":true}"), out);
            snprintf(expect, sizeof expect, TIE_LINE_WRITTEN(HIGH("%s", "true")), out);
            check_round(doc, expect);
            documents++;
        }
    }
    CU_ASSERT_EQUAL(failures, 0);
    CU_ASSERT(checked > n - n / 100);
    CU_ASSERT(documents > n / 200);
}

/* The shortest-digit check itself must be able to fail. */
CTG_TEST(criterion, shortest_check_detects_long_text)
{
    CU_ASSERT_TRUE(shorter_reads_back("0.10000000000000001", 0.1));
    CU_ASSERT_TRUE(shorter_reads_back("380.00000000000001", 380.0));
    CU_ASSERT_TRUE(shorter_reads_back("1.00000000000000001E7", 1.0E7));
    CU_ASSERT_FALSE(shorter_reads_back("0.30000000000000004", 0.30000000000000004));
    CU_ASSERT_FALSE(shorter_reads_back("380.0", 380.0));
}

#include "test_criterion.tests.h"
