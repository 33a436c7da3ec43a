/* SPDX-License-Identifier: MPL-2.0 */
/* Limit-reduction lists (ctg/sa.h, spec 5): PowSyBl's fixtures written back byte for byte (and
 * its criterion tests' bare arrays), exact values, hand-made round trips, the builder checked
 * against the reader, and the allocation-failure sweep. The invalid cases are
 * testdata/invalid-sa/limits-*, walked by the sa suite. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "ctg/sa.h"
#include "format/sa_internal.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the shared fixtures (NOTICE.md) ------------------------------------------------------ */

/* RT: `in` == `out`; W: `in` (R) is written as `out`. */
static const struct {
    const char *in, *out;
    size_t count;
} documents[] = {
    { "LimitReductionsV1.2.json", "LimitReductionsV1.2.json", 6 },
    { "LimitReductionsV1.0.json", "LimitReductions_no_limits_groupV1.2.json", 4 },
    { "LimitReductions_no_limits_groupV1.2.json", "LimitReductions_no_limits_groupV1.2.json", 4 },
};

CTG_SHARED_TEST(sa_limit, documents_written_back_byte_for_byte)
{
    size_t passed = 0;

    for (size_t i = 0; i < COUNT_OF(documents); i++) {
        size_t len, out_len;
        char *in = ctg_test_sa_fixture(documents[i].in, &len);
        char *out = ctg_test_sa_fixture(documents[i].out, &out_len);
        ctg_sa_doc *typed, *any;

        CU_ASSERT_FATAL(in && out);
        typed = ctg_test_sa_read(in, len, CTG_SA_LIMIT_REDUCTIONS);
        any = ctg_test_sa_read(in, len, CTG_SA_ANY);
        CU_ASSERT_EQUAL(ctg_sa_doc_kind(any), CTG_SA_LIMIT_REDUCTIONS);
        CU_ASSERT_EQUAL(ctg_sa_limit_reduction_count(typed), documents[i].count);
        if (ctg_test_sa_writes(typed, out, out_len) && ctg_test_sa_writes(any, out, out_len))
            passed++;
        else
            fprintf(stderr, "\n  %s is not written as %s\n", documents[i].in, documents[i].out);
        ctg_sa_doc_free(typed);
        ctg_sa_doc_free(any);
        free(in);
        free(out);
    }
    CU_ASSERT_EQUAL(passed, COUNT_OF(documents));
}

/* PowSyBl's criterion tests read and write root arrays of criteria: the same objects. */
static const struct {
    const char *in, *out;
    bool durations;
} arrays[] = {
    { "line-criteria.json", NULL, false },
    { "tie-line-criteria.json", NULL, false },
    { "boundary-line-criteria.json", NULL, false },
    { "dangling-line-criteria-V1.0.json", "boundary-line-criteria.json", false },
    { "two-windings-transformer-criteria.json", NULL, false },
    { "three-windings-transformer-criteria.json", NULL, false },
    { "identifiable-criteria.json", NULL, false },
    { "network-element-id-list-criteria.json", NULL, false },
    { "permanent-duration-criteria.json", NULL, true },
    { "all-temporary-duration-criteria.json", NULL, true },
    { "equality-temporary-duration-criteria.json", NULL, true },
    { "interval-temporary-duration-criteria.json", NULL, true },
};

CTG_SHARED_TEST(sa_limit, criterion_arrays_written_back_byte_for_byte)
{
    size_t passed = 0;

    for (size_t i = 0; i < COUNT_OF(arrays); i++) {
        size_t len, out_len;
        char *in = ctg_test_sa_fixture(arrays[i].in, &len);
        char *out = ctg_test_sa_fixture(arrays[i].out ? arrays[i].out : arrays[i].in, &out_len);
        ctg_buf buf = CTG_BUF_INIT;
        ctg_error err;
        int rc;

        CU_ASSERT_FATAL(in && out);
        rc = ctg_sa_rewrite_criteria(in, len, arrays[i].durations, &buf, &err);
        if (rc != CTG_OK)
            ctg_test_report(arrays[i].in, &err);
        if (rc == CTG_OK && buf.len == out_len && memcmp(buf.data, out, out_len) == 0)
            passed++;
        else
            fprintf(stderr, "\n  %s: written %.*s\n", arrays[i].in, (int)buf.len,
                    buf.data ? buf.data : "");
        ctg_buf_dispose(&buf);
        free(in);
        free(out);
    }
    CU_ASSERT_EQUAL(passed, COUNT_OF(arrays));
}

CTG_SHARED_TEST(sa_limit, fixture_values)
{
    size_t len;
    char *text = ctg_test_sa_fixture("LimitReductionsV1.1.json", &len);
    ctg_sa_doc *doc;
    const ctg_limit_reduction *r;
    const ctg_element_criterion *c;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    doc = ctg_test_sa_read(text, len, CTG_SA_LIMIT_REDUCTIONS);
    free(text);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_limit_reduction_count(doc), 5);
    r = ctg_sa_limit_reduction_at(doc, 0);
    CU_ASSERT_DOUBLE_EQUAL(r->value, CTG_DOUBLE(0.9), 0); /* x87: the literal is wider */
    CU_ASSERT_EQUAL(r->limit_type, CTG_LIMIT_CURRENT);
    CU_ASSERT_FALSE(r->monitoring_only);
    CU_ASSERT(r->context.type == CTG_CONTEXT_SPECIFIC &&
              strcmp(r->context.contingency_id, "contingency1") == 0);
    CU_ASSERT_EQUAL_FATAL(r->equipment_count, 6);
    c = &r->equipment[1];
    CU_ASSERT_EQUAL(c->type, CTG_ECRIT_LINE);
    CU_ASSERT_EQUAL(c->country->type, CTG_CRITERION_TWO_COUNTRY);
    CU_ASSERT_STRING_EQUAL(c->country->countries[0][0], "FR");
    CU_ASSERT_EQUAL(c->country->country_count[1], 0);
    CU_ASSERT(c->nominal_voltage->intervals[0].low == 350.0 &&
              c->nominal_voltage->intervals[0].high == 410.0 &&
              !c->nominal_voltage->intervals[0].high_closed);
    CU_ASSERT_EQUAL(r->equipment[4].type, CTG_ECRIT_TIE_LINE);
    CU_ASSERT_EQUAL(r->equipment[4].nominal_voltage->type, CTG_CRITERION_TWO_NOMINAL_VOLTAGE);
    CU_ASSERT_EQUAL(r->equipment[5].type, CTG_ECRIT_BOUNDARY_LINE);
    CU_ASSERT_EQUAL_FATAL(r->duration_count, 2);
    CU_ASSERT(r->durations[0].type == CTG_DURATION_PERMANENT &&
              r->durations[1].type == CTG_DURATION_TEMPORARY_ALL);
    r = ctg_sa_limit_reduction_at(doc, 1);
    CU_ASSERT(r->durations[0].type == CTG_DURATION_TEMPORARY_INTERVAL &&
              r->durations[0].low == 600 && r->durations[0].high == 1200 &&
              r->durations[0].low_closed && r->durations[0].high_closed);
    CU_ASSERT_EQUAL(ctg_sa_limit_reduction_at(doc, 2)->equipment_count, 0);
    CU_ASSERT_PTR_NULL(ctg_sa_limit_reduction_at(doc, 2)->equipment);
    r = ctg_sa_limit_reduction_at(doc, 4);
    CU_ASSERT_EQUAL(r->limit_type, CTG_LIMIT_ACTIVE_POWER);
    CU_ASSERT_EQUAL_FATAL(r->limits_group_count, 3);
    CU_ASSERT_STRING_EQUAL(r->limits_groups[2], "activated_2_1");
    CU_ASSERT_EQUAL(r->equipment[0].identifier_count, 2);
    CU_ASSERT_PTR_NULL(ctg_sa_limit_reduction_at(doc, 5));
    CU_ASSERT_EQUAL(ctg_sa_context_count(doc), 0);
    ctg_sa_doc_free(doc);
}

/* ---- hand-made documents ------------------------------------------------------------------ */

static void check_round(const char *in, const char *out)
{
    ctg_sa_doc *doc = ctg_test_sa_read(in, strlen(in), CTG_SA_ANY);

    CU_ASSERT_PTR_NOT_NULL(doc);
    CU_ASSERT(ctg_test_sa_writes(doc, out, strlen(out)));
    ctg_sa_doc_free(doc);
}

#define HEAD "{\n  \"version\" : \"1.2\",\n  \"limitReductions\" : [ {\n"
#define CTX_ALL "    \"contingencyContext\" : {\n      \"contextType\" : \"ALL\"\n    }"

CTG_TEST(sa_limit, defaults_sets_and_empty_lists)
{
    /* Any version (never checked), anywhere; an absent value is 0.0; an integer is a double;
     * empty lists disappear; identifiers are a sorted set; null group ids are kept. */
    check_round("{\"limitReductions\":[{\"limitType\":\"CURRENT\",\"monitoringOnly\":true,"
                "\"contingencyContext\":{\"contextType\":\"ALL\"},\"equipmentCriteria\":[],"
                "\"durationCriteria\":[]}],\"version\":\"7\"}",
                HEAD "    \"value\" : 0.0,\n    \"limitType\" : \"CURRENT\",\n"
                     "    \"monitoringOnly\" : true,\n" CTX_ALL "\n  } ]\n}");
    check_round("{\"version\":\"1.0\",\"limitReductions\":[{\"value\":3,\"limitType\":"
                "\"ACTIVE_POWER\",\"monitoringOnly\":false,\"contingencyContext\":{"
                "\"contextType\":\"ALL\"},\"equipmentCriteria\":[{\"type\":\"identifierCriterion\","
                "\"identifiers\":[\"b\",\"a\",\"B\",\"a\"]}],"
                "\"operationalLimitsGroupIdsSelection\":[\"g\",null,\"g\"]}]}",
                HEAD "    \"value\" : 3.0,\n    \"limitType\" : \"ACTIVE_POWER\",\n"
                     "    \"monitoringOnly\" : false,\n" CTX_ALL ",\n"
                     "    \"equipmentCriteria\" : [ {\n"
                     "      \"type\" : \"identifierCriterion\",\n"
                     "      \"version\" : \"1.1\",\n"
                     "      \"identifiers\" : [ \"B\", \"a\", \"b\" ]\n    } ],\n"
                     "    \"operationalLimitsGroupIdsSelection\" : [ \"g\", null, \"g\" ]\n"
                     "  } ]\n}");
    /* The rename's boundary (spec 5.3): "1.1.0" is 1.1, "1.0.9" and "0.9" are before it; both
     * names are written as boundaryLineCriterion at 1.1. */
    check_round("{\"version\":\"1.2\",\"limitReductions\":[{\"limitType\":\"CURRENT\","
                "\"monitoringOnly\":true,\"contingencyContext\":{\"contextType\":\"ALL\"},"
                "\"equipmentCriteria\":[{\"version\":\"1.1.0\",\"type\":\"boundaryLineCriterion\"},"
                "{\"type\":\"danglingLineCriterion\",\"version\":\"1.0.9\"},"
                "{\"type\":\"danglingLineCriterion\",\"version\":\"0.9\"}]}]}",
                HEAD "    \"value\" : 0.0,\n    \"limitType\" : \"CURRENT\",\n"
                     "    \"monitoringOnly\" : true,\n" CTX_ALL ",\n"
                     "    \"equipmentCriteria\" : [ {\n"
                     "      \"type\" : \"boundaryLineCriterion\",\n      \"version\" : \"1.1\"\n"
                     "    }, {\n"
                     "      \"type\" : \"boundaryLineCriterion\",\n      \"version\" : \"1.1\"\n"
                     "    }, {\n"
                     "      \"type\" : \"boundaryLineCriterion\",\n      \"version\" : \"1.1\"\n"
                     "    } ]\n  } ]\n}");
    check_round("{\"version\":\"1.2\",\"limitReductions\":[]}",
                "{\n  \"version\" : \"1.2\",\n  \"limitReductions\" : [ ]\n}");
}

/* UTF-16 order: U+1F600 (high surrogate D83D) sorts before U+FFFD, unlike UTF-8 bytes; both are
 * written as Jackson's byte stream does, the astral one as two uppercase escapes (spec 1.1). */
CTG_TEST(sa_limit, identifiers_in_utf16_order_astral_escaped)
{
    check_round("{\"version\":\"1.2\",\"limitReductions\":[{\"limitType\":\"CURRENT\","
                "\"monitoringOnly\":true,\"contingencyContext\":{\"contextType\":\"ALL\"},"
                "\"equipmentCriteria\":[{\"type\":\"identifierCriterion\",\"name\":\"n\","
                "\"identifiers\":[\"\xEF\xBF\xBD\",\"\\uD83D\\uDE00\"]}]}]}",
                HEAD "    \"value\" : 0.0,\n    \"limitType\" : \"CURRENT\",\n"
                     "    \"monitoringOnly\" : true,\n" CTX_ALL ",\n"
                     "    \"equipmentCriteria\" : [ {\n"
                     "      \"type\" : \"identifierCriterion\",\n"
                     "      \"version\" : \"1.1\",\n      \"name\" : \"n\",\n"
                     "      \"identifiers\" : [ \"\\uD83D\\uDE00\", \"\xEF\xBF\xBD\" ]\n    } ]\n"
                     "  } ]\n}");
}

/* testdata/sa/limits-*.json: hand-made documents in PowSyBl's layout, written back as they
 * are (every criterion and duration kind, kept ids of non-SPECIFIC contexts, null and repeated
 * group ids, non-ASCII names, bound extremes, a Java double). */
CTG_TEST(sa_limit, hand_made_files_round_trip)
{
    static const char *const files[] = { "limits-roundtrip.json", "limit-reductions.json" };

    for (size_t i = 0; i < COUNT_OF(files); i++) {
        char path[1024];
        size_t len;
        char *text;
        ctg_sa_doc *doc;

        snprintf(path, sizeof path, "%s/%s", CTG_TESTDATA("sa"), files[i]);
        text = ctg_test_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        doc = ctg_test_sa_read(text, len, CTG_SA_LIMIT_REDUCTIONS);
        if (i == 0) {
            CU_ASSERT(ctg_test_sa_writes(doc, text, len));
            CU_ASSERT_EQUAL(ctg_sa_limit_reduction_count(doc), 2);
        } else {
            static const char empty[] =
                "{\n  \"version\" : \"1.2\",\n  \"limitReductions\" : [ ]\n}";
            CU_ASSERT(ctg_test_sa_writes(doc, empty, sizeof empty - 1));
        }
        ctg_sa_doc_free(doc);
        free(text);
    }
}

/* ---- builders ------------------------------------------------------------------------------ */

static const char *const fr[] = { "FR" };
static const char *const ids[] = { "l2", "l1" };

static void sample(ctg_limit_reduction *r, ctg_criterion *country, ctg_element_criterion *el,
                   ctg_duration_criterion *d)
{
    memset(r, 0, sizeof *r);
    memset(country, 0, sizeof *country);
    memset(el, 0, 2 * sizeof *el);
    memset(d, 0, sizeof *d);
    country->type = CTG_CRITERION_SINGLE_COUNTRY;
    country->countries[0] = fr;
    country->country_count[0] = 1;
    el[0].type = CTG_ECRIT_TWO_WINDINGS_TRANSFORMER;
    el[0].country = country;
    el[1].type = CTG_ECRIT_IDENTIFIER;
    el[1].identifiers = ids;
    el[1].identifier_count = 2;
    d->type = CTG_DURATION_TEMPORARY_EQUALITY;
    d->value = 60;
    r->value = 0.9;
    r->limit_type = CTG_LIMIT_CURRENT;
    r->context.type = CTG_CONTEXT_SPECIFIC;
    r->context.contingency_id = "c1";
    r->equipment = el;
    r->equipment_count = 2;
    r->durations = d;
    r->duration_count = 1;
}

static const char built_text[] =
    "{\n  \"version\" : \"1.2\",\n  \"limitReductions\" : [ {\n"
    "    \"value\" : 0.9,\n    \"limitType\" : \"CURRENT\",\n    \"monitoringOnly\" : false,\n"
    "    \"contingencyContext\" : {\n      \"contextType\" : \"SPECIFIC\",\n"
    "      \"contingencyId\" : \"c1\"\n    },\n"
    "    \"equipmentCriteria\" : [ {\n      \"type\" : \"twoWindingsTransformerCriterion\",\n"
    "      \"version\" : \"1.1\",\n      \"countryCriterion\" : {\n"
    "        \"type\" : \"SINGLE_COUNTRY\",\n        \"countries\" : [ \"FR\" ]\n      }\n"
    "    }, {\n      \"type\" : \"identifierCriterion\",\n      \"version\" : \"1.1\",\n"
    "      \"identifiers\" : [ \"l1\", \"l2\" ]\n    } ],\n"
    "    \"durationCriteria\" : [ {\n      \"type\" : \"TEMPORARY_EQUALITY\",\n"
    "      \"version\" : \"1.0\",\n      \"value\" : 60\n    } ]\n  } ]\n}";

CTG_TEST(sa_limit, built_document_writes_what_a_read_one_does)
{
    ctg_sa_doc *doc, *read;
    ctg_limit_reduction r;
    ctg_criterion country;
    ctg_element_criterion el[2];
    ctg_duration_criterion d;
    ctg_error err;

    sample(&r, &country, el, &d);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_LIMIT_REDUCTIONS, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_limit_reduction_count(doc), 0);
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_OK);
    CU_ASSERT(ctg_test_sa_writes(doc, built_text, sizeof built_text - 1));
    read = ctg_test_sa_read(built_text, sizeof built_text - 1, CTG_SA_LIMIT_REDUCTIONS);
    CU_ASSERT(ctg_test_sa_writes(read, built_text, sizeof built_text - 1));
    /* Deep copies: the caller's arrays are not the document's. */
    CU_ASSERT_PTR_NOT_EQUAL(ctg_sa_limit_reduction_at(doc, 0)->equipment, el);
    CU_ASSERT_STRING_EQUAL(ctg_sa_limit_reduction_at(doc, 0)->equipment[1].identifiers[0], "l1");
    ctg_sa_doc_free(read);
    ctg_sa_doc_free(doc);
}

/* Each rule the reader enforces, refused by the builder with the document unchanged. */
CTG_TEST(sa_limit, builder_refuses_what_the_reader_refuses)
{
    ctg_sa_doc *doc, *other;
    ctg_limit_reduction r;
    ctg_criterion country;
    ctg_element_criterion el[2];
    ctg_duration_criterion d;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_LIMIT_REDUCTIONS, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&other, CTG_SA_STATE_MONITORS, NULL), CTG_OK);
    sample(&r, &country, el, &d);
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(other, &r, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(NULL, &r, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, NULL, NULL), CTG_EINVAL);
    r.version = CTG_LIMIT_REDUCTION_VERSION + 1;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    r.version = CTG_LIMIT_REDUCTION_VERSION;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(other, &r, &err), CTG_EINVAL);
    r.value = -0.1;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "a limit reduction \"value\" must be >= 0");
    sample(&r, &country, el, &d);
    r.limit_type = CTG_LIMIT_VOLTAGE;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    sample(&r, &country, el, &d);
    r.context.contingency_id = NULL;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    sample(&r, &country, el, &d);
    el[0].type = CTG_ECRIT_LINE; /* takes TWO_COUNTRY */
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "/equipmentCriteria/0");
    sample(&r, &country, el, &d);
    el[0].type = CTG_ECRIT_IDENTIFIABLE;
    el[0].country = NULL;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    sample(&r, &country, el, &d);
    el[1].identifiers = NULL;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    sample(&r, &country, el, &d);
    d.type = CTG_DURATION_TEMPORARY_INTERVAL;
    d.has_high = true; /* an open high bound of 0: empty */
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "/durationCriteria/0");
    CU_ASSERT_STRING_EQUAL(err.message, "empty interval: no duration is in it");
    d.has_high = false; /* no bound */
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    sample(&r, &country, el, &d);
    d.value = -1;
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    sample(&r, &country, el, &d);
    r.context.contingency_id = "\xC3"; /* cut UTF-8 */
    CU_ASSERT_EQUAL(ctg_sa_limit_reductions_add(doc, &r, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_limit_reduction_count(doc), 0);
    ctg_sa_doc_free(doc);
    ctg_sa_doc_free(other);
}

/* ---- allocation failures -------------------------------------------------------------------- */

/* The sweep's build: one reduction, kept only when it all went in. */
static int build_one_reduction(ctg_sa_doc *doc)
{
    ctg_limit_reduction r;
    ctg_criterion country;
    ctg_element_criterion el[2];
    ctg_duration_criterion dc;
    int rc;

    sample(&r, &country, el, &dc);
    rc = ctg_sa_limit_reductions_add(doc, &r, NULL);
    CU_ASSERT_EQUAL(ctg_sa_limit_reduction_count(doc), rc == CTG_OK ? 1 : 0);
    return rc;
}

CTG_TEST(sa_limit, allocation_failure_sweep)
{
    size_t failed[3];

    ctg_test_sa_sweep(built_text, sizeof built_text - 1, CTG_SA_LIMIT_REDUCTIONS,
                      build_one_reduction, failed);
    CU_ASSERT(failed[0] >= 3);
    CU_ASSERT(failed[1] >= 1);
    CU_ASSERT(failed[2] >= 1);
}

#include "test_sa_limit.tests.h"
