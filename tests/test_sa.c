/* SPDX-License-Identifier: MPL-2.0 */
/* The security-analysis documents (ctg/sa.h): the PowSyBl fixtures of the kinds read so far
 * written back byte for byte, table-driven invalid inputs (testdata/invalid-sa/<case>.json,
 * <case>.expected as in the invalid suite; the prefix of the name says which kind is asked
 * for), Java hash order, the kinds not read yet, and the allocation-failure sweep. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "ctg/sa.h"
#include "base/arena.h"
#include "format/sa_internal.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

#define INVALID_DIR CTG_TESTDATA("invalid-sa")
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the shared fixtures (NOTICE.md: both RT) -------------------------------------------- */

static const struct fixture {
    const char *name;
    ctg_sa_kind kind;
    size_t count;
} fixtures[] = {
    { "MonitoringFileTest.json", CTG_SA_STATE_MONITORS, 1 },
    { "contingencyContexts.json", CTG_SA_CONTINGENCY_CONTEXTS, 4 },
};

CTG_SHARED_TEST(sa, fixtures_round_trip_byte_for_byte)
{
    size_t passed = 0;

    for (size_t i = 0; i < COUNT_OF(fixtures); i++) {
        char path[1024];
        size_t len;
        char *text;
        ctg_sa_doc *typed, *any;

        snprintf(path, sizeof path, "%s/powsybl-sa/%s", ctg_test_shared_dir(), fixtures[i].name);
        text = ctg_test_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        typed = ctg_test_sa_read(text, len, fixtures[i].kind);
        any = ctg_test_sa_read(text, len, CTG_SA_ANY);
        CU_ASSERT_EQUAL(ctg_sa_doc_kind(any), fixtures[i].kind);
        CU_ASSERT_EQUAL(ctg_sa_context_count(typed) + ctg_sa_monitor_count(typed),
                        fixtures[i].count);
        if (typed && any && ctg_test_sa_writes(typed, text, len) && ctg_test_sa_writes(any, text, len))
            passed++;
        else
            fprintf(stderr, "\n  %s is not written back byte for byte\n", fixtures[i].name);
        ctg_sa_doc_free(typed);
        ctg_sa_doc_free(any);
        free(text);
    }
    CU_ASSERT_EQUAL(passed, COUNT_OF(fixtures));
}

CTG_SHARED_TEST(sa, fixture_values)
{
    char path[1024];
    size_t len;
    char *text;
    ctg_sa_doc *doc;
    const ctg_state_monitor *m;
    const ctg_contingency_context *c;

    snprintf(path, sizeof path, "%s/powsybl-sa/MonitoringFileTest.json", ctg_test_shared_dir());
    text = ctg_test_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    doc = ctg_test_sa_read(text, len, CTG_SA_STATE_MONITORS);
    free(text);
    m = ctg_sa_monitor_at(doc, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_PTR_NULL(ctg_sa_monitor_at(doc, 1));
    CU_ASSERT_PTR_NULL(ctg_sa_context_at(doc, 0)); /* not a context list */
    CU_ASSERT_EQUAL(m->context.type, CTG_CONTEXT_SPECIFIC);
    CU_ASSERT_STRING_EQUAL(m->context.contingency_id, "contingency1");
    CU_ASSERT_EQUAL(m->branch_ids.count, 1);
    CU_ASSERT_STRING_EQUAL(m->branch_ids.ids[0], "Branch1");
    CU_ASSERT_STRING_EQUAL(m->voltage_level_ids.ids[0], "Bus1");
    CU_ASSERT_STRING_EQUAL(m->three_windings_transformer_ids.ids[0], "ThreeWindingsTransformer1");
    ctg_sa_doc_free(doc);

    snprintf(path, sizeof path, "%s/powsybl-sa/contingencyContexts.json", ctg_test_shared_dir());
    text = ctg_test_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    doc = ctg_test_sa_read(text, len, CTG_SA_CONTINGENCY_CONTEXTS);
    free(text);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_context_count(doc), 4);
    c = ctg_sa_context_at(doc, 0);
    CU_ASSERT(c->type == CTG_CONTEXT_NONE && c->contingency_id == NULL);
    CU_ASSERT_EQUAL(ctg_sa_context_at(doc, 2)->type, CTG_CONTEXT_ONLY_CONTINGENCIES);
    c = ctg_sa_context_at(doc, 3);
    CU_ASSERT(c->type == CTG_CONTEXT_SPECIFIC && strcmp(c->contingency_id, "lineId") == 0);
    CU_ASSERT_PTR_NULL(ctg_sa_context_at(doc, 4));
    ctg_sa_doc_free(doc);
}

/* ---- hand-made documents ------------------------------------------------------------------ */

static void check_round(ctg_sa_kind kind, const char *in, const char *out)
{
    ctg_sa_doc *doc = ctg_test_sa_read(in, strlen(in), kind);

    CU_ASSERT_PTR_NOT_NULL(doc);
    CU_ASSERT(doc && ctg_test_sa_writes(doc, out, strlen(out)));
    ctg_sa_doc_free(doc);
}

CTG_TEST(sa, contexts_written_in_powsybl_layout)
{
    check_round(CTG_SA_CONTINGENCY_CONTEXTS, "[]", "[ ]");
    check_round(CTG_SA_ANY, "[]", "[ ]");
    /* The id is kept for non-SPECIFIC types, and always follows the type. */
    check_round(CTG_SA_ANY, "[{\"contingencyId\":\"c\",\"contextType\":\"ALL\"}]",
                "[ {\n  \"contextType\" : \"ALL\",\n  \"contingencyId\" : \"c\"\n} ]");
    /* Null id = absent. */
    check_round(CTG_SA_ANY, "[{\"contextType\":\"NONE\",\"contingencyId\":null}]",
                "[ {\n  \"contextType\" : \"NONE\"\n} ]");
}

CTG_TEST(sa, monitors_are_compact_sets_in_hash_order)
{
    /* Spec 6's probe: duplicates collapse, the order is the HashSet's. */
    check_round(CTG_SA_STATE_MONITORS,
                "[ {\"contingencyContext\": {\"contextType\": \"ALL\"},\n"
                "   \"branchIds\": [\"b\", \"a\", \"b\"], \"voltageLevelIds\": [],\n"
                "   \"threeWindingsTransformerIds\": [\"x\"]} ]",
                "[{\"contingencyContext\":{\"contextType\":\"ALL\"},\"branchIds\":[\"a\",\"b\"],"
                "\"voltageLevelIds\":[],\"threeWindingsTransformerIds\":[\"x\"]}]");
    check_round(CTG_SA_STATE_MONITORS, "[ ]", "[]");
}

/* Spec 1.1: every writer of the family writes a character above U+FFFF as its two UTF-16
 * surrogates, escaped in uppercase hex (Jackson's byte-stream generator), the compact monitors
 * too; other non-ASCII characters stay literal UTF-8. A string longer than the emitter's slices
 * (8 KiB) with the character across a slice boundary comes out whole. */
CTG_TEST(sa, astral_characters_written_as_surrogate_escapes)
{
    char *in, *out;
    size_t n = 8191;

    check_round(CTG_SA_CONTINGENCY_CONTEXTS,
                "[{\"contextType\":\"SPECIFIC\",\"contingencyId\":\"a\xF0\x9F\x98\x80\xC3\xA9\"}]",
                "[ {\n  \"contextType\" : \"SPECIFIC\",\n"
                "  \"contingencyId\" : \"a\\uD83D\\uDE00\xC3\xA9\"\n} ]");
    check_round(CTG_SA_STATE_MONITORS,
                "[{\"contingencyContext\":{\"contextType\":\"ALL\"},\"branchIds\":"
                "[\"\\uDBFF\\uDFFF\"],\"voltageLevelIds\":[],\"threeWindingsTransformerIds\":[]}]",
                "[{\"contingencyContext\":{\"contextType\":\"ALL\"},\"branchIds\":"
                "[\"\\uDBFF\\uDFFF\"],\"voltageLevelIds\":[],\"threeWindingsTransformerIds\":[]}]");
    /* A first context of more than a slice, so that the buffer is flushed between the
     * second one's slices. */
    in = calloc(1, 2 * n + 2048);
    out = calloc(1, 2 * n + 2048);
    CU_ASSERT_FATAL(in && out);
    strcpy(in, "[{\"contextType\":\"ALL\",\"contingencyId\":\"");
    strcpy(out, "[ {\n  \"contextType\" : \"ALL\",\n  \"contingencyId\" : \"");
    memset(in + strlen(in), 'y', n + 1000);
    memset(out + strlen(out), 'y', n + 1000);
    strcat(in, "\"},{\"contextType\":\"ALL\",\"contingencyId\":\"");
    strcat(out, "\"\n}, {\n  \"contextType\" : \"ALL\",\n  \"contingencyId\" : \"");
    memset(in + strlen(in), 'x', n);
    memset(out + strlen(out), 'x', n);
    strcat(in, "\xF0\x9F\x98\x80\"}]");
    strcat(out, "\\uD83D\\uDE00\"\n} ]");
    check_round(CTG_SA_CONTINGENCY_CONTEXTS, in, out);
    free(in);
    free(out);
}

static void check_order(const char *const *in, size_t n, const char *const *expect, size_t m)
{
    ctg_arena *arena = ctg_arena_new(NULL);
    const char *ids[64];
    size_t count = n;

    CU_ASSERT_FATAL(arena != NULL && n <= 64);
    memcpy(ids, in, n * sizeof *ids);
    CU_ASSERT_EQUAL(ctg_sa_hash_order(arena, ids, &count), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(count, m);
    for (size_t i = 0; i < m; i++)
        CU_ASSERT_STRING_EQUAL(ids[i], expect[i]);
    ctg_arena_release(arena);
}

/* Orders worked out by hand from String.hashCode: "Aa" and "BB" collide (2112, bucket 0 of
 * 16: insertion order); "a" 97 -> 1, "b" 98 -> 2, "z" 122 -> 10, "é" 233 -> 9;
 * U+1F600 = \uD83D\uDE00 -> 0x1B0D63, spread 0x1B0D78 -> 8: before "é", which UTF-8 order would
 * put first. */
CTG_TEST(sa, java_hash_order)
{
    static const char *const a[] = { "z", "BB", "b", "Aa", "a" };
    static const char *const a_out[] = { "BB", "Aa", "a", "b", "z" };
    static const char *const u[] = { "\xF0\x9F\x98\x80", "z", "\xC3\xA9" };
    static const char *const u_out[] = { "\xF0\x9F\x98\x80", "\xC3\xA9", "z" };

    check_order(a, COUNT_OF(a), a_out, COUNT_OF(a_out));
    check_order(u, COUNT_OF(u), u_out, COUNT_OF(u_out));
}

/* 13 distinct keys need 32 buckets: "a".."l" are 97..108, buckets 1..12 either way, but "q"
 * (113) shares bucket 1 of 16 with "a" and, inserted first, comes first; of 32 it is bucket
 * 17: after "l" only once the table has grown. */
CTG_TEST(sa, java_hash_order_grows_at_three_quarters)
{
    static const char *const twelve[] = {
        "q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"
    };
    static const char *const twelve_out[] = { "q", "a", "b", "c", "d", "e",
                                              "f", "g", "h", "i", "j", "k" };
    static const char *const thirteen[] = { "q", "a", "b", "c", "d", "e", "f",
                                            "g", "h", "i", "j", "k", "l" };
    static const char *const thirteen_out[] = { "a", "b", "c", "d", "e", "f", "g",
                                                "h", "i", "j", "k", "l", "q" };

    check_order(twelve, 12, twelve_out, 12);
    check_order(thirteen, 13, thirteen_out, 13);
}

/* ---- invalid inputs ------------------------------------------------------------------------ */

static ctg_sa_kind kind_of_case(const char *name)
{
    if (strncmp(name, "context-", 8) == 0)
        return CTG_SA_CONTINGENCY_CONTEXTS;
    if (strncmp(name, "monitor-", 8) == 0)
        return CTG_SA_STATE_MONITORS;
    if (strncmp(name, "limits-", 7) == 0)
        return CTG_SA_LIMIT_REDUCTIONS;
    if (strncmp(name, "strategies-", 11) == 0)
        return CTG_SA_OPERATOR_STRATEGIES;
    return CTG_SA_ANY;
}

typedef struct expected {
    unsigned line, column;
    char path[CTG_ERROR_PATH_MAX];
    char code[32];
    char message[CTG_ERROR_MESSAGE_MAX];
} expected;

static bool parse_expected(const char *file, expected *e)
{
    size_t len;
    char *text = ctg_test_slurp(file, &len);
    char *nl, *end;
    bool ok;

    if (!text)
        return false;
    ok = sscanf(text, "%u:%u %255s %31s", &e->line, &e->column, e->path, e->code) == 4;
    nl = strchr(text, '\n');
    ok = ok && nl;
    if (ok && (end = strchr(nl + 1, '\n')) != NULL)
        *end = '\0';
    if (ok)
        snprintf(e->message, sizeof e->message, "%s", nl + 1);
    if (strcmp(e->path, "(root)") == 0)
        e->path[0] = '\0';
    free(text);
    return ok;
}

/* One case, from its path and from memory: both fail as expected. */
static bool check_case(const char *name)
{
    char json[512], exp[512];
    expected e = { 0 };
    ctg_error err, mem;
    ctg_sa_doc *doc = NULL, *doc_mem = NULL;
    size_t len;
    char *bytes;
    int rc, rc_mem;
    bool ok;

    snprintf(json, sizeof json, "%s/%s.json", INVALID_DIR, name);
    snprintf(exp, sizeof exp, "%s/%s.expected", INVALID_DIR, name);
    CU_ASSERT_FATAL(parse_expected(exp, &e));
    rc = ctg_sa_read_file(&doc, kind_of_case(name), json, NULL, &err);
    bytes = ctg_test_slurp(json, &len);
    CU_ASSERT_FATAL(bytes != NULL);
    rc_mem = ctg_sa_read_buffer(&doc_mem, kind_of_case(name), bytes, len, NULL, &mem);
    free(bytes);
    ok = rc != CTG_OK && !doc && !doc_mem && strcmp(ctg_status_name(rc), e.code) == 0 &&
         err.line == e.line && err.column == e.column && strcmp(err.path, e.path) == 0 &&
         strcmp(err.message, e.message) == 0 && strcmp(err.source, json) == 0;
    ok = ok && rc_mem == rc && mem.line == err.line && mem.column == err.column &&
         strcmp(mem.path, err.path) == 0 && strcmp(mem.message, err.message) == 0 &&
         strcmp(mem.source, "<memory>") == 0;
    if (!ok)
        fprintf(stderr, "\n  %s: got %u:%u %s %s\n  %s\n", name, err.line, err.column,
                err.path[0] ? err.path : "(root)", ctg_status_name(rc), err.message);
    ctg_sa_doc_free(doc);
    ctg_sa_doc_free(doc_mem);
    return ok;
}

CTG_TEST(sa, every_invalid_case_matches_its_expectation)
{
    ctg_test_each_case(INVALID_DIR, 33, check_case);
}

/* ---- the API's edges ------------------------------------------------------------------------ */

CTG_TEST(sa, bad_arguments_and_names)
{
    ctg_sa_doc *doc = (ctg_sa_doc *)1;
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_sa_read_buffer(NULL, CTG_SA_ANY, "[]", 2, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_KIND_COUNT, "[]", 2, NULL, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(doc);
    opts.flags = CTG_READ_LENIENT;
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_ANY, "[]", 2, &opts, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&buf, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&buf, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(buf.len, 0);
    CU_ASSERT_EQUAL(ctg_sa_read_file(&doc, CTG_SA_ANY, "/nonexistent/x.json", NULL, &err), CTG_EIO);
    CU_ASSERT_PTR_NULL(doc);
    ctg_sa_doc_free(NULL);
    CU_ASSERT_EQUAL(ctg_sa_doc_kind(NULL), CTG_SA_ANY);
    CU_ASSERT_EQUAL(ctg_sa_monitor_count(NULL), 0);
    CU_ASSERT_PTR_NULL(ctg_sa_context_at(NULL, 0));
    CU_ASSERT_STRING_EQUAL(ctg_sa_kind_name(CTG_SA_LIMIT_REDUCTIONS), "limit-reduction list");
    CU_ASSERT_PTR_NULL(ctg_sa_kind_name(CTG_SA_KIND_COUNT));
}

/* Every name of every type, exactly, in enum order, and NULL past the end (and below 0). */
CTG_TEST(sa, type_names)
{
    static const char *const kinds[] = { "security-analysis document", "action list",
                                         "identifier action list", "operator-strategy list",
                                         "contingency-context list", "limit-reduction list",
                                         "state-monitor list" };
    static const char *const articles[] = { "a", "an", "an", "an", "a", "a", "a" };
    static const char *const contexts[] = { "ALL", "NONE", "SPECIFIC", "ONLY_CONTINGENCIES" };
    static const char *const limits[] = { "ACTIVE_POWER", "APPARENT_POWER", "CURRENT", "VOLTAGE",
                                          "VOLTAGE_ANGLE" };
    static const char *const conditions[] = {
        "TRUE_CONDITION", "ANY_VIOLATION_CONDITION", "ALL_VIOLATION", "AT_LEAST_ONE_VIOLATION",
        "INJECTION_THRESHOLD_CONDITION", "BRANCH_THRESHOLD_CONDITION",
        "THREE_WINDINGS_TRANSFORMER_THRESHOLD_CONDITION", "AC_DC_CONVERTER_THRESHOLD_CONDITION"
    };
    static const char *const actions[] = {
        "SWITCH", "TERMINALS_CONNECTION", "MULTIPLE_ACTIONS", "PHASE_TAP_CHANGER_TAP_POSITION",
        "RATIO_TAP_CHANGER_TAP_POSITION", "PHASE_TAP_CHANGER_REGULATION",
        "RATIO_TAP_CHANGER_REGULATION", "LOAD", "BOUNDARY_LINE", "PCT_LOAD_CHANGE", "GENERATOR",
        "HVDC", "SHUNT_COMPENSATOR_POSITION", "STATIC_VAR_COMPENSATOR",
        "AREA_INTERCHANGE_TARGET_ACTION"
    };

    CU_ASSERT_EQUAL(sizeof kinds / sizeof *kinds, CTG_SA_KIND_COUNT);
    CU_ASSERT_EQUAL(sizeof contexts / sizeof *contexts, CTG_CONTEXT_TYPE_COUNT);
    CU_ASSERT_EQUAL(sizeof limits / sizeof *limits, CTG_LIMIT_TYPE_COUNT);
    CU_ASSERT_EQUAL(sizeof conditions / sizeof *conditions, CTG_CONDITION_TYPE_COUNT);
    CU_ASSERT_EQUAL(sizeof actions / sizeof *actions, CTG_ACTION_TYPE_COUNT);
    for (int i = 0; i < CTG_SA_KIND_COUNT; i++) {
        CU_ASSERT_STRING_EQUAL(ctg_sa_kind_name((ctg_sa_kind)i), kinds[i]);
        CU_ASSERT_STRING_EQUAL(ctg_sa_kind_article((ctg_sa_kind)i), articles[i]);
    }
    for (int i = 0; i < CTG_CONTEXT_TYPE_COUNT; i++)
        CU_ASSERT_STRING_EQUAL(ctg_context_type_name((ctg_context_type)i), contexts[i]);
    for (int i = 0; i < CTG_LIMIT_TYPE_COUNT; i++)
        CU_ASSERT_STRING_EQUAL(ctg_limit_type_name((ctg_limit_type)i), limits[i]);
    for (int i = 0; i < CTG_CONDITION_TYPE_COUNT; i++)
        CU_ASSERT_STRING_EQUAL(ctg_condition_type_name((ctg_condition_type)i), conditions[i]);
    for (int i = 0; i < CTG_ACTION_TYPE_COUNT; i++)
        CU_ASSERT_STRING_EQUAL(ctg_action_type_name((ctg_action_type)i), actions[i]);
    CU_ASSERT_PTR_NULL(ctg_sa_kind_article(CTG_SA_KIND_COUNT));
    CU_ASSERT_PTR_NULL(ctg_sa_kind_article((ctg_sa_kind)-1));
    CU_ASSERT_PTR_NULL(ctg_context_type_name(CTG_CONTEXT_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_context_type_name((ctg_context_type)-1));
    CU_ASSERT_PTR_NULL(ctg_limit_type_name(CTG_LIMIT_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_limit_type_name((ctg_limit_type)-1));
    CU_ASSERT_PTR_NULL(ctg_condition_type_name(CTG_CONDITION_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_condition_type_name((ctg_condition_type)-1));
    CU_ASSERT_PTR_NULL(ctg_action_type_name(CTG_ACTION_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_action_type_name((ctg_action_type)-1));
}

/* An empty document of each kind: nothing in it, and written as PowSyBl writes an empty one. */
CTG_TEST(sa, new_documents)
{
    ctg_sa_doc *doc = (ctg_sa_doc *)1;
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_EQUAL(ctg_sa_doc_new(NULL, CTG_SA_STATE_MONITORS, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_doc_new(&doc, CTG_SA_ANY, NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(doc);
    CU_ASSERT_EQUAL(ctg_sa_doc_new(&doc, CTG_SA_KIND_COUNT, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_doc_new(&doc, CTG_SA_STATE_MONITORS, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_doc_kind(doc), CTG_SA_STATE_MONITORS);
    CU_ASSERT_EQUAL(ctg_sa_monitor_count(doc), 0);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&buf, doc, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(buf.len, 2);
    CU_ASSERT_NSTRING_EQUAL(buf.data, "[]", 2);
    ctg_sa_doc_free(doc);
    ctg_buf_dispose(&buf);
    CU_ASSERT_EQUAL(ctg_sa_doc_new(&doc, CTG_SA_CONTINGENCY_CONTEXTS, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&buf, doc, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(buf.len, 3);
    CU_ASSERT_NSTRING_EQUAL(buf.data, "[ ]", 3);
    ctg_sa_doc_free(doc);
    ctg_buf_dispose(&buf);
}

/* ---- allocation failures -------------------------------------------------------------------- */

/* Every allocation of a read and of a write made to fail in turn: CTG_ENOMEM, nothing left. */
CTG_TEST(sa, allocation_failure_sweep)
{
    static const char doc[] =
        "[{\"contingencyContext\":{\"contextType\":\"SPECIFIC\",\"contingencyId\":\"c1\"},"
        "\"branchIds\":[\"b\",\"a\",\"c\",\"a\"],\"voltageLevelIds\":[\"v\"],"
        "\"threeWindingsTransformerIds\":[]},"
        "{\"contingencyContext\":{\"contextType\":\"ALL\"},\"branchIds\":[],"
        "\"voltageLevelIds\":[],\"threeWindingsTransformerIds\":[\"t1\",\"t2\"]}]";
    size_t failed[3];

    ctg_test_sa_sweep(doc, sizeof doc - 1, CTG_SA_STATE_MONITORS, NULL, failed);
    CU_ASSERT(failed[0] >= 3);
    CU_ASSERT(failed[1] >= 1);
}

/* The builders of contexts and monitors: what a read of the same text gives, written the same;
 * each refusal exact, the document unchanged. */
CTG_TEST(sa, context_and_monitor_builders)
{
    static const char monitors_text[] =
        "[{\"contingencyContext\":{\"contextType\":\"SPECIFIC\",\"contingencyId\":\"c1\"},"
        "\"branchIds\":[\"b\",\"a\",\"b\"],\"voltageLevelIds\":[],"
        "\"threeWindingsTransformerIds\":[\"t\"]}]";
    static const char *const branches[] = { "b", "a", "b" };
    static const char *const tw[] = { "t" };
    static const char *const bad_ids[] = { "x", NULL };
    ctg_state_monitor m = { { CTG_CONTEXT_SPECIFIC, "c1" }, { branches, 3 }, { NULL, 0 },
                            { tw, 1 } };
    ctg_contingency_context c = { CTG_CONTEXT_SPECIFIC, NULL };
    ctg_sa_doc *built = NULL, *read = NULL, *contexts = NULL;
    ctg_buf a = CTG_BUF_INIT, b = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&built, CTG_SA_STATE_MONITORS, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_monitor_add(built, &m, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_monitor_count(built), 1);
    CU_ASSERT_EQUAL(ctg_sa_monitor_at(built, 0)->branch_ids.count, 2);
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&read, CTG_SA_STATE_MONITORS, monitors_text,
                                       sizeof monitors_text - 1, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&a, built, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&b, read, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(a.len, b.len);
    CU_ASSERT(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    /* Refusals: the document keeps its one monitor. */
    m.context.contingency_id = NULL;
    CU_ASSERT_EQUAL(ctg_sa_monitor_add(built, &m, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "a SPECIFIC contingency context needs a contingencyId");
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencyContext");
    CU_ASSERT_STRING_EQUAL(err.source, "<builder>");
    m.context.contingency_id = "c1";
    m.voltage_level_ids = (ctg_id_set){ bad_ids, 2 };
    CU_ASSERT_EQUAL(ctg_sa_monitor_add(built, &m, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "an id set with a NULL or non-UTF-8 id, or NULL ids");
    m.voltage_level_ids = (ctg_id_set){ NULL, 0 };
    m.context.type = CTG_CONTEXT_TYPE_COUNT;
    CU_ASSERT_EQUAL(ctg_sa_monitor_add(built, &m, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown contextType");
    CU_ASSERT_EQUAL(ctg_sa_context_add(built, &c, &err), CTG_EINVAL); /* a monitor list */
    CU_ASSERT_EQUAL(ctg_sa_monitor_count(built), 1);
    /* A read document grows past its read items (nine items, then more). */
    m.context.type = CTG_CONTEXT_ALL;
    for (int i = 0; i < 9; i++)
        CU_ASSERT_EQUAL(ctg_sa_monitor_add(read, &m, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_monitor_count(read), 10);
    CU_ASSERT_EQUAL(ctg_sa_monitor_at(read, 0)->context.type, CTG_CONTEXT_SPECIFIC);
    CU_ASSERT_EQUAL(ctg_sa_monitor_at(read, 9)->context.type, CTG_CONTEXT_ALL);
    /* Contexts. */
    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&contexts, CTG_SA_CONTINGENCY_CONTEXTS, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_context_add(contexts, &c, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "a SPECIFIC contingency context needs a contingencyId");
    c.contingency_id = "c\xc3\xa9";
    CU_ASSERT_EQUAL(ctg_sa_context_add(contexts, &c, &err), CTG_OK);
    c = (ctg_contingency_context){ CTG_CONTEXT_NONE, NULL };
    CU_ASSERT_EQUAL(ctg_sa_context_add(contexts, &c, &err), CTG_OK);
    ctg_buf_dispose(&a);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&a, contexts, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(a.len, strlen("[ {\n  \"contextType\" : \"SPECIFIC\",\n  \"contingencyId\" : "
                                  "\"c\xc3\xa9\"\n}, {\n  \"contextType\" : \"NONE\"\n} ]"));
    CU_ASSERT_NSTRING_EQUAL(a.data, "[ {\n  \"contextType\" : \"SPECIFIC\",\n  \"contingencyId\" : "
                                    "\"c\xc3\xa9\"\n}, {\n  \"contextType\" : \"NONE\"\n} ]", a.len);
    ctg_buf_dispose(&a);
    ctg_buf_dispose(&b);
    ctg_sa_doc_free(built);
    ctg_sa_doc_free(read);
    ctg_sa_doc_free(contexts);
}

/* Every allocation of a monitor's build made to fail in turn: CTG_ENOMEM, the document as it
 * was (its count), nothing leaked once freed. */
CTG_TEST(sa, monitor_builder_allocation_failures)
{
    static const char *const ids[] = { "b1", "b2", "b1" };
    ctg_state_monitor m = { { CTG_CONTEXT_SPECIFIC, "c" }, { ids, 3 }, { ids, 1 }, { NULL, 0 } };
    size_t failures = 0;

    for (size_t at = 1;; at++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_sa_doc *doc = NULL;
        int rc;

        st.fail_at = at;
        rc = ctg_sa_doc_new(&doc, CTG_SA_STATE_MONITORS, &a);
        if (rc == CTG_OK)
            rc = ctg_sa_monitor_add(doc, &m, NULL);
        if (doc)
            CU_ASSERT_EQUAL(ctg_sa_monitor_count(doc), rc == CTG_OK ? 1 : 0);
        ctg_sa_doc_free(doc);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        if (!st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            break;
        }
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        failures++;
    }
    CU_ASSERT(failures >= 1);
}

#include "test_sa.tests.h"
