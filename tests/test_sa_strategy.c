/* SPDX-License-Identifier: MPL-2.0 */
/* Operator-strategy lists (ctg/sa.h, spec 3): the PowSyBl fixtures written back byte for byte
 * (RT and W), the 1.0 and 1.1 inputs upgraded as PowSyBl upgrades them, hand-made documents
 * with exact values, the version rules, the builder with the reader's checks, and the
 * allocation-failure sweep. The invalid inputs are testdata/invalid-sa/strategies-*, run by
 * the sa suite's walker. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "ctg/sa.h"
#include "tests/test_common.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define SA_DATA CTG_TESTDATA("sa")

/* `text` with every `from` replaced by `to`, malloc'd; *len in and out. */
static char *replace_all(const char *text, size_t *len, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to), out = 0;
    char *r = malloc(*len * (tl > fl ? tl : 1) + 1);

    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    for (size_t i = 0; i < *len;) {
        if (i + fl <= *len && memcmp(text + i, from, fl) == 0) {
            memcpy(r + out, to, tl);
            out += tl;
            i += fl;
        } else {
            r[out++] = text[i++];
        }
    }
    r[out] = '\0';
    *len = out;
    return r;
}

/* ---- the shared fixtures ------------------------------------------------------------------ */

/* NOTICE.md: the two OperatorStrategyFileTest copies (RT, and R byte-identical to it), the
 * extension files (W: PowSyBl's output for an object equal to what they read as; RT). */
CTG_SHARED_TEST(sa_strategy, fixtures_written_back_byte_for_byte)
{
    static const struct {
        const char *name;
        size_t count;
    } files[] = {
        { "contingency-api_OperatorStrategyFileTest.json", 7 },
        { "security-analysis-api_OperatorStrategyFileTest.json", 7 },
        { "OperatorStrategyFileExtensionsTest.json", 1 },
        { "OperatorStrategyFileExtensionsTest2.json", 2 },
    };
    size_t passed = 0;

    for (size_t i = 0; i < COUNT_OF(files); i++) {
        size_t len;
        char *text = ctg_test_sa_fixture(files[i].name, &len);
        ctg_sa_doc *typed, *any;

        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        typed = ctg_test_sa_read(text, len, CTG_SA_OPERATOR_STRATEGIES);
        any = ctg_test_sa_read(text, len, CTG_SA_ANY);
        CU_ASSERT_EQUAL(ctg_sa_doc_kind(any), CTG_SA_OPERATOR_STRATEGIES);
        CU_ASSERT_EQUAL(ctg_sa_strategy_count(typed), files[i].count);
        if (typed && any && ctg_test_sa_writes(typed, text, len) && ctg_test_sa_writes(any, text, len))
            passed++;
        else
            fprintf(stderr, "\n  %s is not written back byte for byte\n", files[i].name);
        ctg_sa_doc_free(typed);
        ctg_sa_doc_free(any);
        free(text);
    }
    CU_ASSERT_EQUAL(passed, COUNT_OF(files));
}

/* R fixtures: 1.1 is written as the same strategies at 1.2; 1.0's single-stage strategies
 * become one stage named "default" each (the V1.1 file holds the same strategies with stage
 * "stage1"). */
CTG_SHARED_TEST(sa_strategy, old_versions_upgraded_as_powsybl_does)
{
    size_t len10, len11, len;
    char *v12, *v12d;
    char *v10 = ctg_test_sa_fixture("OperatorStrategyFileTestV1.0.json", &len10);
    char *v11 = ctg_test_sa_fixture("OperatorStrategyFileTestV1.1.json", &len11);
    ctg_sa_doc *d10, *d11;

    CU_ASSERT_PTR_NOT_NULL_FATAL(v10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v11);
    d10 = ctg_test_sa_read(v10, len10, CTG_SA_ANY);
    d11 = ctg_test_sa_read(v11, len11, CTG_SA_OPERATOR_STRATEGIES);
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(d10), 6);
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(d11), 6);
    len = len11;
    v12 = replace_all(v11, &len, "\"version\" : \"1.1\"", "\"version\" : \"1.2\"");
    CU_ASSERT(d11 && ctg_test_sa_writes(d11, v12, len));
    v12d = replace_all(v12, &len, "\"stage1\"", "\"default\"");
    CU_ASSERT(d10 && ctg_test_sa_writes(d10, v12d, len));
    free(v12);
    free(v12d);
    CU_ASSERT_STRING_EQUAL(ctg_sa_strategy_at(d10, 0)->stages[0].id, "default");
    ctg_sa_doc_free(d10);
    ctg_sa_doc_free(d11);
    free(v10);
    free(v11);
}

static void check_threshold(const ctg_condition *c, ctg_condition_type type, const char *eq,
                            ctg_threshold_variable var, ctg_comparison_type cmp, double t)
{
    CU_ASSERT_EQUAL(c->type, type);
    CU_ASSERT_STRING_EQUAL(c->equipment_id, eq);
    CU_ASSERT_EQUAL(c->variable, var);
    CU_ASSERT_EQUAL(c->comparison, cmp);
    CU_ASSERT_DOUBLE_EQUAL(c->threshold, t, 0);
}

CTG_SHARED_TEST(sa_strategy, fixture_values)
{
    size_t len;
    char *text = ctg_test_sa_fixture("contingency-api_OperatorStrategyFileTest.json", &len);
    ctg_sa_doc *doc = ctg_test_sa_read(text, len, CTG_SA_OPERATOR_STRATEGIES);
    const ctg_operator_strategy *s;
    const ctg_conditional_actions *a;

    free(text);
    CU_ASSERT_PTR_NULL(ctg_sa_strategy_at(doc, 7));
    s = ctg_sa_strategy_at(doc, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s->id, "id5");
    CU_ASSERT(s->context.type == CTG_CONTEXT_SPECIFIC &&
              strcmp(s->context.contingency_id, "contingencyId4") == 0);
    a = &s->stages[0];
    CU_ASSERT_EQUAL_FATAL(s->stage_count, 1);
    CU_ASSERT(a->condition.type == CTG_CONDITION_ALL_VIOLATION &&
              a->condition.filter_count == 1 &&
              a->condition.filters[0] == CTG_VIOLATION_HIGH_VOLTAGE);
    CU_ASSERT_EQUAL_FATAL(a->condition.violation_id_count, 2);
    CU_ASSERT_STRING_EQUAL(a->condition.violation_ids[1], "violation2");
    CU_ASSERT_EQUAL_FATAL(a->action_id_count, 2);
    CU_ASSERT_STRING_EQUAL(a->action_ids[1], "actionId5");
    s = ctg_sa_strategy_at(doc, 6);
    CU_ASSERT_EQUAL_FATAL(s->stage_count, 4);
    CU_ASSERT(strcmp(s->stages[0].id, "stage1") == 0 && strcmp(s->stages[1].id, "stage1") == 0);
    check_threshold(&s->stages[0].condition, CTG_CONDITION_BRANCH_THRESHOLD, "Line1",
                    CTG_THRESHOLD_CURRENT, CTG_COMPARISON_GREATER_THAN, 2.0);
    CU_ASSERT_EQUAL(s->stages[0].condition.side, CTG_CONDITION_SIDE_ONE);
    check_threshold(&s->stages[1].condition, CTG_CONDITION_THREE_WINDINGS_TRANSFORMER_THRESHOLD,
                    "3WTransformer1", CTG_THRESHOLD_REACTIVE_POWER, CTG_COMPARISON_NOT_EQUAL,
                    52.0);
    CU_ASSERT_EQUAL(s->stages[1].condition.side, CTG_CONDITION_SIDE_THREE);
    check_threshold(&s->stages[2].condition, CTG_CONDITION_INJECTION_THRESHOLD, "Gen2",
                    CTG_THRESHOLD_ACTIVE_POWER, CTG_COMPARISON_GREATER_THAN_OR_EQUALS, 2.0);
    check_threshold(&s->stages[3].condition, CTG_CONDITION_AC_DC_CONVERTER_THRESHOLD,
                    "Converter1", CTG_THRESHOLD_CURRENT, CTG_COMPARISON_LESS_THAN_OR_EQUALS, 3.0);
    CU_ASSERT(s->stages[3].condition.ac_side && s->stages[3].condition.terminal_number == 2);
    CU_ASSERT_EQUAL(s->stages[3].action_id_count, 3);
    CU_ASSERT_EQUAL(s->extension_count, 0);
    ctg_sa_doc_free(doc);

    text = ctg_test_sa_fixture("OperatorStrategyFileExtensionsTest.json", &len);
    doc = ctg_test_sa_read(text, len, CTG_SA_ANY);
    free(text);
    s = ctg_sa_strategy_at(doc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL_FATAL(s->extension_count, 1);
    CU_ASSERT_STRING_EQUAL(s->extensions[0].name, "dummy-operator-strategy-extension");
    CU_ASSERT_PTR_NULL(s->extensions[0].handler);
    CU_ASSERT_STRING_EQUAL(s->extensions[0].json,
                           "{\"parameterDouble\":20.0,\"parameterBoolean\":true,"
                           "\"parameterString\":\"Hello\"}");
    ctg_sa_doc_free(doc);
}

/* ---- hand-made documents ------------------------------------------------------------------ */

static void check_round(const char *in, const char *out)
{
    ctg_sa_doc *doc = ctg_test_sa_read(in, strlen(in), CTG_SA_OPERATOR_STRATEGIES);

    CU_ASSERT_PTR_NOT_NULL(doc);
    CU_ASSERT(doc && ctg_test_sa_writes(doc, out, strlen(out)));
    ctg_sa_doc_free(doc);
}

#define HEAD "{\n  \"version\" : \"1.2\",\n  \"operatorStrategies\" : [ "
#define TRUE_STAGE                                                                          \
    "\"conditionalActions\" : [ {\n      \"id\" : \"s\",\n      \"condition\" : {\n"       \
    "        \"type\" : \"TRUE_CONDITION\"\n      },\n      \"actionIds\" : [ \"a\" ]\n    } ]"

/* Each file of testdata/sa/strategies-*.json is in PowSyBl's layout: read, then written to
 * the same bytes. */
CTG_TEST(sa_strategy, hand_made_files_round_trip)
{
    static const char *const names[] = { "strategies-conditions.json",
                                          "strategies-contexts.json",
                                          "strategies-extensions.json" };

    for (size_t i = 0; i < COUNT_OF(names); i++) {
        char path[512];
        size_t len;
        char *text;
        ctg_sa_doc *doc;

        snprintf(path, sizeof path, "%s/%s", SA_DATA, names[i]);
        text = ctg_test_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        doc = ctg_test_sa_read(text, len, CTG_SA_ANY);
        CU_ASSERT_EQUAL(ctg_sa_doc_kind(doc), CTG_SA_OPERATOR_STRATEGIES);
        if (!doc || !ctg_test_sa_writes(doc, text, len))
            CU_FAIL("not written back byte for byte");
        ctg_sa_doc_free(doc);
        free(text);
    }
}

/* PowSyBl's defaults and normal forms, each as it writes them. */
CTG_TEST(sa_strategy, defaults_and_normal_forms)
{
    /* Empty list: version after the list is fine, any version is written as 1.2. */
    check_round("{\"operatorStrategies\":[],\"version\":\"9.9\"}",
                "{\n  \"version\" : \"1.2\",\n  \"operatorStrategies\" : [ ]\n}");
    /* No contingencyContextType: SPECIFIC; an id with ALL is kept; empty extensions dropped. */
    check_round("{\"version\":\"1.2\",\"operatorStrategies\":[{\"id\":\"x\",\"contingencyId\":"
                "\"c\",\"conditionalActions\":[],\"extensions\":{}},{\"id\":\"y\",\"conting"
                "encyContextType\":\"ALL\",\"contingencyId\":\"c\",\"conditionalActions\":[]}]}",
                HEAD "{\n    \"id\" : \"x\",\n    \"contingencyContextType\" : \"SPECIFIC\",\n"
                     "    \"contingencyId\" : \"c\",\n    \"conditionalActions\" : [ ]\n  }, {\n"
                     "    \"id\" : \"y\",\n    \"contingencyContextType\" : \"ALL\",\n"
                     "    \"contingencyId\" : \"c\",\n    \"conditionalActions\" : [ ]\n  } ]\n}");
    /* Filters are a set (first place kept); missing threshold 0.0, integer 7 as 7.0; acSide
     * false; `type` may come last. */
    check_round("{\"version\":\"1.2\",\"operatorStrategies\":[{\"id\":\"x\",\"contingencyCon"
                "textType\":\"NONE\",\"conditionalActions\":[{\"id\":\"s\",\"actionIds\":[],"
                "\"condition\":{\"filters\":[\"OTHER\",\"CURRENT\",\"OTHER\"],\"type\":"
                "\"ANY_VIOLATION_CONDITION\"}},{\"id\":\"t\",\"actionIds\":[\"a\",\"a\"],"
                "\"condition\":{\"type\":\"AC_DC_CONVERTER_THRESHOLD_CONDITION\",\"equipmentId"
                "\":\"e\",\"variable\":\"TARGET_P\",\"comparisonType\":\"EQUALS\","
                "\"terminalNumber\":1}},{\"id\":\"u\",\"actionIds\":[],\"condition\":{\"type\":"
                "\"INJECTION_THRESHOLD_CONDITION\",\"threshold\":7,\"equipmentId\":\"g\","
                "\"variable\":\"CURRENT\",\"comparisonType\":\"LESS_THAN\"}}]}]}",
                HEAD "{\n    \"id\" : \"x\",\n    \"contingencyContextType\" : \"NONE\",\n"
                     "    \"conditionalActions\" : [ {\n      \"id\" : \"s\",\n"
                     "      \"condition\" : {\n        \"type\" : \"ANY_VIOLATION_CONDITION\",\n"
                     "        \"filters\" : [ \"OTHER\", \"CURRENT\" ]\n      },\n"
                     "      \"actionIds\" : [ ]\n    }, {\n      \"id\" : \"t\",\n"
                     "      \"condition\" : {\n"
                     "        \"type\" : \"AC_DC_CONVERTER_THRESHOLD_CONDITION\",\n"
                     "        \"equipmentId\" : \"e\",\n        \"variable\" : \"TARGET_P\",\n"
                     "        \"comparisonType\" : \"EQUALS\",\n        \"threshold\" : 0.0,\n"
                     "        \"acSide\" : false,\n        \"terminalNumber\" : 1\n      },\n"
                     "      \"actionIds\" : [ \"a\", \"a\" ]\n    }, {\n      \"id\" : \"u\",\n"
                     "      \"condition\" : {\n"
                     "        \"type\" : \"INJECTION_THRESHOLD_CONDITION\",\n"
                     "        \"equipmentId\" : \"g\",\n        \"variable\" : \"CURRENT\",\n"
                     "        \"comparisonType\" : \"LESS_THAN\",\n        \"threshold\" : 7.0\n"
                     "      },\n      \"actionIds\" : [ ]\n    } ]\n  } ]\n}");
}

/* Spec 3.6: the layout by a string comparison with "1.1", the member gates numerically. */
CTG_TEST(sa_strategy, versions_pick_the_layout)
{
    static const char single[] = "\"condition\":{\"type\":\"TRUE_CONDITION\"},\"actionIds\":"
                                 "[\"a\"]";
    static const char multi[] = "\"conditionalActions\":[{\"id\":\"s\",\"condition\":{\"type\":"
                                "\"TRUE_CONDITION\"},\"actionIds\":[\"a\"]}]";
    static const struct {
        const char *version;
        bool single;
    } ok[] = { { "1", true },    { "", true },    { "0.5", true }, { "1.0", true },
               { "1.1", false }, { "1.10", false }, { "9.9", false }, { "1.2", false } };
    static const char *const refused[] = { "01.1", "1.01", "1.0.5" };
    char text[512];

    for (size_t i = 0; i < COUNT_OF(ok); i++) {
        ctg_sa_doc *doc;
        snprintf(text, sizeof text,
                 "{\"version\":\"%s\",\"operatorStrategies\":[{\"id\":\"x\",\"contingencyId\":"
                 "\"c\",%s}]}",
                 ok[i].version, ok[i].single ? single : multi);
        doc = ctg_test_sa_read(text, strlen(text), CTG_SA_OPERATOR_STRATEGIES);
        CU_ASSERT_EQUAL(ctg_sa_strategy_count(doc), 1);
        if (doc)
            CU_ASSERT_STRING_EQUAL(ctg_sa_strategy_at(doc, 0)->stages[0].id,
                                   ok[i].single ? "default" : "s");
        ctg_sa_doc_free(doc);
    }
    /* Non-canonical versions fail with either layout. */
    for (size_t i = 0; i < COUNT_OF(refused); i++)
        for (int layout = 0; layout < 2; layout++) {
            ctg_sa_doc *doc = (ctg_sa_doc *)1;
            ctg_error err;
            snprintf(text, sizeof text,
                     "{\"version\":\"%s\",\"operatorStrategies\":[{\"id\":\"x\","
                     "\"contingencyId\":\"c\",%s}]}",
                     refused[i], layout ? single : multi);
            CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_OPERATOR_STRATEGIES, text,
                                               strlen(text), NULL, &err),
                            CTG_ESCHEMA);
            CU_ASSERT_PTR_NULL(doc);
        }
}

/* ---- the builder -------------------------------------------------------------------------- */

static const char *const built_actions[] = { "a1", "a2" };
static const ctg_violation_type built_filters[] = { CTG_VIOLATION_CURRENT };
static const ctg_extension built_ext[] = {
    { "e", NULL, NULL, "{ \"k\" : [1, 2.5] }", 18 },
};

static ctg_conditional_actions built_stage(void)
{
    ctg_conditional_actions a;

    memset(&a, 0, sizeof a);
    a.id = "st";
    a.condition.type = CTG_CONDITION_BRANCH_THRESHOLD;
    a.condition.equipment_id = "L1";
    a.condition.variable = CTG_THRESHOLD_ACTIVE_POWER;
    a.condition.comparison = CTG_COMPARISON_NOT_EQUAL;
    a.condition.threshold = 1e21;
    a.condition.side = CTG_CONDITION_SIDE_TWO;
    a.action_ids = built_actions;
    a.action_id_count = 2;
    return a;
}

static ctg_operator_strategy built_strategy(const ctg_conditional_actions *stages, size_t n)
{
    ctg_operator_strategy s;

    memset(&s, 0, sizeof s);
    s.id = "s1";
    s.context.type = CTG_CONTEXT_ONLY_CONTINGENCIES;
    s.stages = stages;
    s.stage_count = n;
    s.extensions = built_ext;
    s.extension_count = 1;
    return s;
}

static const char built_text[] =
    HEAD "{\n    \"id\" : \"s1\",\n    \"contingencyContextType\" : \"ONLY_CONTINGENCIES\",\n"
         "    \"conditionalActions\" : [ {\n      \"id\" : \"st\",\n      \"condition\" : {\n"
         "        \"type\" : \"BRANCH_THRESHOLD_CONDITION\",\n        \"equipmentId\" : \"L1\",\n"
         "        \"variable\" : \"ACTIVE_POWER\",\n        \"comparisonType\" : \"NOT_EQUAL\",\n"
         "        \"threshold\" : 1.0E21,\n        \"side\" : \"TWO\"\n      },\n"
         "      \"actionIds\" : [ \"a1\", \"a2\" ]\n    } ],\n    \"extensions\" : {\n"
         "      \"e\" : {\n        \"k\" : [ 1, 2.5 ]\n      }\n    }\n  } ]\n}";

static const char empty_text[] = "{\n  \"version\" : \"1.2\",\n  \"operatorStrategies\" : [ ]\n}";

CTG_TEST(sa_strategy, builder_writes_what_a_read_would)
{
    ctg_conditional_actions stage = built_stage();
    ctg_operator_strategy s = built_strategy(&stage, 1);
    ctg_sa_doc *doc, *back;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_OPERATOR_STRATEGIES, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(doc), 0);
    CU_ASSERT(ctg_test_sa_writes(doc, empty_text, sizeof empty_text - 1));
    CU_ASSERT_EQUAL(ctg_sa_strategies_add_strategy(doc, &s, &err), CTG_OK);
    stage.id = "changed"; /* copied: the document does not see it */
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(doc), 1);
    CU_ASSERT_STRING_EQUAL(ctg_sa_strategy_at(doc, 0)->stages[0].id, "st");
    CU_ASSERT(ctg_test_sa_writes(doc, built_text, sizeof built_text - 1));
    back = ctg_test_sa_read(built_text, sizeof built_text - 1, CTG_SA_OPERATOR_STRATEGIES);
    CU_ASSERT(back && ctg_test_sa_writes(back, built_text, sizeof built_text - 1));
    ctg_sa_doc_free(back);
    /* Many: the array grows and keeps every item. */
    stage.id = "st";
    for (int i = 0; i < 40; i++)
        CU_ASSERT_EQUAL(ctg_sa_strategies_add_strategy(doc, &s, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(doc), 41);
    CU_ASSERT_STRING_EQUAL(ctg_sa_strategy_at(doc, 40)->extensions[0].json, "{\"k\":[1,2.5]}");
    ctg_sa_doc_free(doc);
}

/* One bad strategy: CTG_EINVAL with its path and message, the document unchanged. */
static void check_refused(const ctg_operator_strategy *s, const char *path, const char *msg)
{
    ctg_conditional_actions stage = built_stage();
    ctg_operator_strategy good = built_strategy(&stage, 1);
    ctg_sa_doc *doc;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_OPERATOR_STRATEGIES, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_strategies_add_strategy(doc, &good, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_strategies_add_strategy(doc, s, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, path);
    CU_ASSERT_STRING_EQUAL(err.message, msg);
    CU_ASSERT_STRING_EQUAL(err.source, "<builder>");
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(doc), 1);
    CU_ASSERT(ctg_test_sa_writes(doc, built_text, sizeof built_text - 1));
    ctg_sa_doc_free(doc);
}

CTG_TEST(sa_strategy, builder_refuses_what_the_reader_refuses)
{
    ctg_conditional_actions stage = built_stage();
    ctg_operator_strategy s = built_strategy(&stage, 1);
    const char *null_ids[] = { "a", NULL };
    ctg_extension twice[] = { built_ext[0], built_ext[0] };
    ctg_extension bad_json[] = { { "e", NULL, NULL, "{", 1 } };
    ctg_sa_doc *other;

    s.context.type = CTG_CONTEXT_SPECIFIC;
    check_refused(&s, "/contingencyId", "a SPECIFIC contingency context needs a contingencyId");
    s = built_strategy(&stage, 1);
    s.id = NULL;
    check_refused(&s, "/id", "a strategy needs an \"id\" (valid UTF-8)");
    s = built_strategy(&stage, 1);
    stage.condition.side = CTG_CONDITION_SIDE_THREE;
    check_refused(&s, "/conditionalActions/0/condition/side",
                  "a BRANCH_THRESHOLD_CONDITION has side ONE or TWO, got THREE");
    stage = built_stage();
    stage.condition.type = CTG_CONDITION_TRUE;
    check_refused(&s, "/conditionalActions/0/condition/equipmentId",
                  "\"equipmentId\" does not apply to this condition type");
    stage = built_stage();
    stage.condition.type = CTG_CONDITION_AC_DC_CONVERTER_THRESHOLD;
    check_refused(&s, "/conditionalActions/0/condition/terminalNumber",
                  "\"terminalNumber\" must be 1 or 2");
    stage = built_stage();
    stage.condition.threshold = stage.condition.threshold * 1e300 * 1e300;
    check_refused(&s, "/conditionalActions/0/condition/threshold",
                  "\"threshold\" must be a finite number");
    stage = built_stage();
    stage.condition.type = CTG_CONDITION_ANY_VIOLATION;
    stage.condition.equipment_id = NULL;
    stage.condition.filters = (const ctg_violation_type[]){ CTG_VIOLATION_OTHER,
                                                            CTG_VIOLATION_OTHER };
    stage.condition.filter_count = 2;
    check_refused(&s, "/conditionalActions/0/condition/filters",
                  "violation type OTHER twice in \"filters\" (a set)");
    stage.condition.filters = built_filters;
    stage.condition.filter_count = 1;
    stage.action_ids = null_ids;
    check_refused(&s, "/conditionalActions/0/actionIds",
                  "an \"actionIds\" item is NULL or not valid UTF-8");
    stage = built_stage();
    s.extensions = twice;
    s.extension_count = 2;
    check_refused(&s, "/extensions/1", "extension \"e\" twice");
    s.extensions = bad_json;
    s.extension_count = 1;
    check_refused(&s, "/extensions/0", "the value of extension \"e\" is not valid JSON");
    s = built_strategy(&stage, 1);
    CU_ASSERT_EQUAL(ctg_sa_strategies_add_strategy(NULL, &s, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&other, CTG_SA_STATE_MONITORS, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_strategies_add_strategy(other, &s, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(other), 0);
    CU_ASSERT_PTR_NULL(ctg_sa_strategy_at(other, 0));
    CU_ASSERT_EQUAL(ctg_sa_strategy_count(NULL), 0);
    ctg_sa_doc_free(other);
}

/* ---- allocation failures ------------------------------------------------------------------ */

/* Every allocation of a read, a write and a build made to fail in turn: CTG_ENOMEM, nothing
 * left. */
/* The sweep's build: one strategy, kept only when it all went in. */
static int build_one_strategy(ctg_sa_doc *doc)
{
    ctg_conditional_actions stage = built_stage();
    ctg_operator_strategy s = built_strategy(&stage, 1);
    int rc = ctg_sa_strategies_add_strategy(doc, &s, NULL);

    CU_ASSERT_EQUAL(ctg_sa_strategy_count(doc), rc == CTG_OK ? 1 : 0);
    return rc;
}

CTG_TEST(sa_strategy, allocation_failure_sweep)
{
    static const char doc[] =
        "{\"version\":\"1.0\",\"operatorStrategies\":[{\"id\":\"x\",\"contingencyId\":\"c\","
        "\"condition\":{\"type\":\"ALL_VIOLATION\",\"filters\":[\"CURRENT\"],\"violationIds\":"
        "[\"v1\",\"v2\"]},\"actionIds\":[\"a\",\"b\"],\"extensions\":{\"e\":{\"k\":[1]}}},"
        "{\"id\":\"y\",\"contingencyId\":\"c\",\"condition\":{\"type\":\"TRUE_CONDITION\"},"
        "\"actionIds\":[]}]}";
    size_t failed[3];

    ctg_test_sa_sweep(doc, sizeof doc - 1, CTG_SA_OPERATOR_STRATEGIES, build_one_strategy,
                      failed);
    CU_ASSERT(failed[0] >= 3);
    CU_ASSERT(failed[1] >= 1);
    CU_ASSERT(failed[2] >= 1);
}

#include "test_sa_strategy.tests.h"
