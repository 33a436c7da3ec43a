/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_sa_check: every kind of finding, in its order, with its exact path and message; the
 * planted broken references of a generated set, each found at its line and column. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

/* Every finding, one line each: "<code> <document> <path> <message>". */
typedef struct log {
    char text[8192];
    size_t len;
    size_t count, warnings, stop_after;
} findings_log;

static int keep(const ctg_sa_finding *f, void *payload)
{
    static const char *const codes[] = { "unknown-contingency", "unknown-action",
                                         "duplicate-stage", "duplicate-action", "unused-action" };
    findings_log *l = payload;
    int n = snprintf(l->text + l->len, sizeof l->text - l->len, "%s %d %s %s\n", codes[f->issue],
                     (int)f->document, f->path, f->message);

    if (n > 0 && (size_t)n < sizeof l->text - l->len)
        l->len += (size_t)n;
    l->count++;
    l->warnings += f->warning;
    return l->stop_after && l->count == l->stop_after;
}

static ctg_sa_doc *read_doc(const char *text, ctg_sa_kind kind)
{
    ctg_sa_doc *doc = NULL;
    ctg_error err;

    if (ctg_sa_read_buffer(&doc, kind, text, strlen(text), NULL, &err) != CTG_OK)
        fprintf(stderr, "%u:%u %s: %s\n", err.line, err.column, err.path, err.message);
    return doc;
}

static const char actions_doc[] =
    "{\"version\":\"1.3\",\"actions\":["
    "{\"type\":\"SWITCH\",\"id\":\"a1\",\"switchId\":\"s1\",\"open\":true},"
    "{\"type\":\"SWITCH\",\"id\":\"a2\",\"switchId\":\"s2\",\"open\":true},"
    "{\"type\":\"SWITCH\",\"id\":\"a1\",\"switchId\":\"s3\",\"open\":false},"
    "{\"type\":\"SWITCH\",\"id\":\"a3\",\"switchId\":\"s4\",\"open\":false}]}";

static const char strategies_doc[] =
    "{\"version\":\"1.2\",\"operatorStrategies\":["
    "{\"id\":\"os1\",\"contingencyContextType\":\"SPECIFIC\",\"contingencyId\":\"c1\","
    "\"conditionalActions\":[{\"id\":\"st\",\"condition\":{\"type\":\"TRUE_CONDITION\"},"
    "\"actionIds\":[\"a1\",\"zz\"]},{\"id\":\"st\",\"condition\":{\"type\":\"TRUE_CONDITION\"},"
    "\"actionIds\":[]}]},"
    "{\"id\":\"os2\",\"contingencyContextType\":\"SPECIFIC\",\"contingencyId\":\"c9\","
    "\"conditionalActions\":[{\"id\":\"st\",\"condition\":{\"type\":\"TRUE_CONDITION\"},"
    "\"actionIds\":[\"a2\"]}]},"
    "{\"id\":\"os3\",\"contingencyContextType\":\"SPECIFIC\",\"contingencyId\":\"c1\","
    "\"conditionalActions\":[{\"id\":\"st\",\"condition\":{\"type\":\"TRUE_CONDITION\"},"
    "\"actionIds\":[\"a2\"]}]},"
    "{\"id\":\"os4\",\"contingencyContextType\":\"ALL\","
    "\"conditionalActions\":[{\"id\":\"st\",\"condition\":{\"type\":\"TRUE_CONDITION\"},"
    "\"actionIds\":[\"a2\"]}]}]}";

static const char monitors_doc[] =
    "[{\"contingencyContext\":{\"contextType\":\"SPECIFIC\",\"contingencyId\":\"c7\"},"
    "\"branchIds\":[],\"voltageLevelIds\":[],\"threeWindingsTransformerIds\":[]},"
    "{\"contingencyContext\":{\"contextType\":\"NONE\"},"
    "\"branchIds\":[],\"voltageLevelIds\":[],\"threeWindingsTransformerIds\":[]}]";

/* Each kind of finding, in the documented order. */
CTG_TEST(sa_check, every_finding_in_order)
{
    static const char *const ids[] = { "c1", "c2", "c1" };
    ctg_sa_check_set set = { CTG_SA_CHECK_SET_VERSION, ids, 3, NULL, NULL, NULL, NULL };
    findings_log l = { { 0 }, 0, 0, 0, 0 };
    ctg_error err;

    set.actions = read_doc(actions_doc, CTG_SA_ACTION_LIST);
    ctg_sa_doc *strategies = read_doc(strategies_doc, CTG_SA_OPERATOR_STRATEGIES);
    set.strategies = strategies;
    set.monitors = read_doc(monitors_doc, CTG_SA_STATE_MONITORS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set.actions);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set.strategies);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set.monitors);
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(
        l.text,
        "duplicate-action 1 /actions/2/id action id \"a1\" is already the id of /actions/0\n"
        "unknown-action 3 /operatorStrategies/0/conditionalActions/0/actionIds/1 no action "
        "\"zz\" in the action list\n"
        "unknown-contingency 3 /operatorStrategies/1/contingencyId no contingency \"c9\" in the "
        "contingency list\n"
        "duplicate-stage 3 /operatorStrategies/2/conditionalActions/0/id stage \"st\" for "
        "contingency \"c1\" is also in /operatorStrategies/0\n"
        "unknown-contingency 6 /0/contingencyContext/contingencyId no contingency \"c7\" in "
        "the contingency list\n"
        "unused-action 1 /actions/3/id action \"a3\" is used by no operator strategy\n");
    CU_ASSERT_EQUAL(l.count, 6);
    CU_ASSERT_EQUAL(l.warnings, 1);
    /* A callback that stops: CTG_ESTOPPED after the second finding. */
    memset(&l, 0, sizeof l);
    l.stop_after = 2;
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, &err), CTG_ESTOPPED);
    CU_ASSERT_EQUAL(l.count, 2);
    /* Without the contingency list, its ids are not checked; without strategies, nothing is
     * unused. */
    memset(&l, 0, sizeof l);
    set.contingency_ids = NULL;
    set.contingency_count = 0;
    set.strategies = NULL;
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(
        l.text, "duplicate-action 1 /actions/2/id action id \"a1\" is already the id of "
                "/actions/0\n");
    ctg_sa_doc_free((ctg_sa_doc *)set.actions);
    ctg_sa_doc_free((ctg_sa_doc *)set.monitors);
    ctg_sa_doc_free(strategies);
}

/* An identifier action list: its builders become actions of the builder's id when PowSyBl
 * resolves the list, so a stage may name them; they repeat and go unused like plain ones, and
 * are found under the key read ('/' escaped), which PowSyBl lets differ from the id. */
CTG_TEST(sa_check, builders_are_actions_by_their_id)
{
    static const char idactions[] =
        "{\"version\":\"1.3\",\"actions\":[{\"type\":\"SWITCH\",\"id\":\"s\","
        "\"switchId\":\"x\",\"open\":true}],\"elementIdentifiers\":{"
        "\"sw\":{\"type\":\"ID_BASED\",\"identifier\":\"x\"},"
        "\"dup\":{\"type\":\"ID_BASED\",\"identifier\":\"y\"},"
        "\"id/le\":{\"type\":\"ID_BASED\",\"identifier\":\"z\"}},\"actionBuilders\":{"
        "\"sw\":{\"id\":\"sw\",\"type\":\"SWITCH\"},\"dup\":{\"id\":\"s\",\"type\":\"SWITCH\"},"
        "\"id/le\":{\"id\":\"id/le\",\"type\":\"HVDC\"}}}";
    static const char strategies[] =
        "{\"version\":\"1.2\",\"operatorStrategies\":[{\"id\":\"os\","
        "\"contingencyContextType\":\"ALL\",\"conditionalActions\":[{\"id\":\"st\","
        "\"condition\":{\"type\":\"TRUE_CONDITION\"},\"actionIds\":[\"s\",\"sw\",\"nope\"]}]}]}";
    ctg_sa_check_set set = { CTG_SA_CHECK_SET_VERSION, NULL, 0, NULL, NULL, NULL, NULL };
    findings_log l = { { 0 }, 0, 0, 0, 0 };
    ctg_sa_doc *actions = read_doc(idactions, CTG_SA_IDENTIFIER_ACTION_LIST);
    ctg_sa_doc *os = read_doc(strategies, CTG_SA_OPERATOR_STRATEGIES);
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(actions);
    CU_ASSERT_PTR_NOT_NULL_FATAL(os);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_identified_action_count(actions), 3);
    CU_ASSERT_STRING_EQUAL(ctg_sa_identified_action_key(actions, 1), "dup");
    CU_ASSERT_STRING_EQUAL(ctg_sa_identified_action_at(actions, 1)->builder.id, "s");
    CU_ASSERT_PTR_NULL(ctg_sa_identified_action_key(actions, 3));
    set.actions = actions;
    set.strategies = os;
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(
        l.text,
        "duplicate-action 2 /actionBuilders/dup/id action id \"s\" is already the id of "
        "/actions/0\n"
        "unknown-action 3 /operatorStrategies/0/conditionalActions/0/actionIds/2 no action "
        "\"nope\" in the action list\n"
        "unused-action 2 /actionBuilders/id~1le/id action \"id/le\" is used by no operator "
        "strategy\n");
    CU_ASSERT_EQUAL(l.count, 3);
    CU_ASSERT_EQUAL(l.warnings, 1);
    ctg_sa_doc_free(actions);
    ctg_sa_doc_free(os);
}

/* Bad arguments: nothing is called. */
CTG_TEST(sa_check, bad_arguments)
{
    ctg_sa_check_set set = { CTG_SA_CHECK_SET_VERSION, NULL, 0, NULL, NULL, NULL, NULL };
    ctg_sa_doc *monitors = read_doc("[]", CTG_SA_STATE_MONITORS);
    findings_log l = { { 0 }, 0, 0, 0, 0 };
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_sa_check(NULL, keep, &l, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_check(&set, NULL, &l, NULL, &err), CTG_EINVAL);
    set.version = CTG_SA_CHECK_SET_VERSION + 1;
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, &err), CTG_EINVAL);
    set.version = CTG_SA_CHECK_SET_VERSION;
    set.contingency_count = 1;
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, &err), CTG_EINVAL);
    set.contingency_count = 0;
    set.actions = monitors; /* a monitor list where an action list belongs */
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "a document of another kind in the set");
    set.actions = NULL;
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep, &l, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(l.count, 0);
    ctg_sa_doc_free(monitors);
}

/* A generated set: 2,000 actions, 1,000 strategies over 500 contingencies, with broken
 * references planted at known strategies; each is found, and ctg_locate puts it on the line
 * of the planted id. */
static void put_strategy(char **p, size_t s, bool bad_contingency, bool bad_action)
{
    *p += sprintf(*p, "%s{\n    \"id\" : \"os%zu\",\n    \"contingencyContextType\" : "
                      "\"SPECIFIC\",\n    \"contingencyId\" : \"%s%zu\",\n"
                      "    \"conditionalActions\" : [ {\n      \"id\" : \"st%zu\",\n"
                      "      \"condition\" : {\n        \"type\" : \"TRUE_CONDITION\"\n      },\n"
                      "      \"actionIds\" : [ \"a%zu\", \"%s%zu\" ]\n    } ]\n  }",
                  s ? ", " : "", s, bad_contingency ? "missing" : "c", s % 500, s, (2 * s) % 2000,
                  bad_action ? "nope" : "a", (2 * s + 1) % 2000);
}

typedef struct planted {
    char paths[8][128];
    size_t count;
} planted;

static int keep_path(const ctg_sa_finding *f, void *payload)
{
    planted *p = payload;

    if (!f->warning && p->count < 8)
        snprintf(p->paths[p->count++], sizeof p->paths[0], "%s", f->path);
    return 0;
}

CTG_TEST(sa_check, planted_references_are_found_where_they_are)
{
    static const size_t bad_c[] = { 17, 640 }, bad_a[] = { 3, 999 };
    size_t cap = 1000 * 420 + 64, nids = 500;
    char *text = malloc(cap), *p = text, **ids = malloc(nids * sizeof *ids);
    char actions[2000 * 80 + 64], *q = actions;
    ctg_sa_check_set set = { CTG_SA_CHECK_SET_VERSION, NULL, 0, NULL, NULL, NULL, NULL };
    planted got = { { { 0 } }, 0 };
    ctg_location at[4];
    const char *ptrs[4];
    ctg_source src;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    p += sprintf(p, "{\n  \"version\" : \"1.2\",\n  \"operatorStrategies\" : [ ");
    for (size_t s = 0; s < 1000; s++)
        put_strategy(&p, s, s == bad_c[0] || s == bad_c[1], s == bad_a[0] || s == bad_a[1]);
    sprintf(p, " ]\n}");
    q += sprintf(q, "{\"version\":\"1.3\",\"actions\":[");
    for (size_t a = 0; a < 2000; a++)
        q += sprintf(q, "%s{\"type\":\"SWITCH\",\"id\":\"a%zu\",\"switchId\":\"s\",\"open\":true}",
                     a ? "," : "", a);
    sprintf(q, "]}");
    for (size_t i = 0; i < nids; i++) {
        ids[i] = malloc(16);
        sprintf(ids[i], "c%zu", i);
    }
    set.contingency_ids = (const char *const *)ids;
    set.contingency_count = nids;
    set.actions = read_doc(actions, CTG_SA_ACTION_LIST);
    set.strategies = read_doc(text, CTG_SA_OPERATOR_STRATEGIES);
    CU_ASSERT_PTR_NOT_NULL_FATAL(set.strategies);
    CU_ASSERT_EQUAL(ctg_sa_check(&set, keep_path, &got, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(got.count, 4);
    CU_ASSERT_STRING_EQUAL(got.paths[0], "/operatorStrategies/3/conditionalActions/0/actionIds/1");
    CU_ASSERT_STRING_EQUAL(got.paths[1], "/operatorStrategies/17/contingencyId");
    CU_ASSERT_STRING_EQUAL(got.paths[2], "/operatorStrategies/640/contingencyId");
    CU_ASSERT_STRING_EQUAL(got.paths[3], "/operatorStrategies/999/conditionalActions/0/actionIds/1");
    for (size_t i = 0; i < 4; i++)
        ptrs[i] = got.paths[i];
    src = ctg_source_buffer(text, strlen(text));
    CU_ASSERT_EQUAL_FATAL(ctg_locate(&src, ptrs, 4, at, NULL, NULL), CTG_OK);
    /* Strategy s starts on line 3 + 11 s (its last line is the next one's first); its
     * contingency id is 3 lines below, after `    "contingencyId" : ` (column 23), its action
     * ids 9 lines below, the second after `      "actionIds" : [ "a<n>", `. */
    CU_ASSERT_EQUAL(at[0].line, 3 + 11 * 3 + 9);
    CU_ASSERT_EQUAL(at[0].column, 27 + (unsigned)strlen("a6"));
    CU_ASSERT_EQUAL(at[1].line, 3 + 11 * 17 + 3);
    CU_ASSERT_EQUAL(at[1].column, 23);
    CU_ASSERT_EQUAL(at[2].line, 3 + 11 * 640 + 3);
    CU_ASSERT_EQUAL(at[3].line, 3 + 11 * 999 + 9);
    CU_ASSERT_EQUAL(at[3].column, 27 + (unsigned)strlen("a1998"));
    for (size_t i = 0; i < nids; i++)
        free(ids[i]);
    free(ids);
    free(text);
    ctg_sa_doc_free((ctg_sa_doc *)set.actions);
    ctg_sa_doc_free((ctg_sa_doc *)set.strategies);
}

/* Every allocation of the check made to fail in turn: CTG_ENOMEM, nothing left, and the
 * findings given before the failure are a prefix of the complete ones. */
CTG_TEST(sa_check, allocation_failure_sweep)
{
    static const char *const ids[] = { "c1", "c2" };
    ctg_sa_check_set set = { CTG_SA_CHECK_SET_VERSION, ids, 2, NULL, NULL, NULL, NULL };
    ctg_sa_doc *actions = read_doc(actions_doc, CTG_SA_ACTION_LIST);
    ctg_sa_doc *strategies = read_doc(strategies_doc, CTG_SA_OPERATOR_STRATEGIES);
    findings_log all = { { 0 }, 0, 0, 0, 0 };
    size_t failures = 0;

    set.actions = actions;
    set.strategies = strategies;
    CU_ASSERT_EQUAL_FATAL(ctg_sa_check(&set, keep, &all, NULL, NULL), CTG_OK);
    for (size_t at = 1;; at++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        findings_log l = { { 0 }, 0, 0, 0, 0 };
        ctg_error err;
        int rc;

        st.fail_at = at;
        rc = ctg_sa_check(&set, keep, &l, &a, &err);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        CU_ASSERT(strncmp(all.text, l.text, l.len) == 0);
        if (!st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            CU_ASSERT_STRING_EQUAL(l.text, all.text);
            break;
        }
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_STRING_EQUAL(err.message, "out of memory");
        failures++;
    }
    CU_ASSERT(failures >= 3);
    ctg_sa_doc_free(actions);
    ctg_sa_doc_free(strategies);
}

#include "test_sa_check.tests.h"
