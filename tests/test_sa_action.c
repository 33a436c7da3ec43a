/* SPDX-License-Identifier: MPL-2.0 */
/* Action lists (ctg/sa.h, spec 2): the PowSyBl fixtures (RT written back byte for byte, the
 * older versions written as the current one, the rejected ones with their positions), `type`
 * anywhere in an action, defaults and legacy names, the builders, and the allocation-failure
 * sweep. The invalid cases are testdata/invalid-sa/actions-*, walked by the sa suite. */

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "ctg/sa.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static char *slurp_shared(const char *name, size_t *len)
{
    char path[1024];

    snprintf(path, sizeof path, "%s/powsybl-sa/%s", ctg_test_shared_dir(), name);
    return ctg_test_slurp(path, len);
}

/* ---- the shared fixtures (NOTICE.md) ------------------------------------------------------ */

CTG_SHARED_TEST(sa_action, round_trip_fixture_is_written_back_byte_for_byte)
{
    size_t len;
    char *text = slurp_shared("action-api_ActionFileTest.json", &len);
    ctg_sa_doc *typed, *any;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    typed = ctg_test_sa_read(text, len, CTG_SA_ACTION_LIST);
    any = ctg_test_sa_read(text, len, CTG_SA_ANY);
    CU_ASSERT_EQUAL(ctg_sa_doc_kind(any), CTG_SA_ACTION_LIST);
    CU_ASSERT_EQUAL(ctg_sa_action_count(typed), 33);
    CU_ASSERT(typed && ctg_test_sa_writes(typed, text, len));
    CU_ASSERT(any && ctg_test_sa_writes(any, text, len));
    ctg_sa_doc_free(typed);
    ctg_sa_doc_free(any);
    free(text);
}

/* NOTICE.md: the 1.0, 1.1 and 1.2 files are written as the 1.3 round-trip file. */
CTG_SHARED_TEST(sa_action, older_versions_are_written_as_1_3)
{
    static const char *const old[] = { "ActionFileTestV1.0.json", "ActionFileTestV1.1.json",
                                       "ActionFileTestV1.2.json" };
    size_t len, passed = 0;
    char *expect = slurp_shared("action-api_ActionFileTest.json", &len);

    CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
    for (size_t i = 0; i < COUNT_OF(old); i++) {
        size_t n;
        char *text = slurp_shared(old[i], &n);
        ctg_sa_doc *doc = text ? ctg_test_sa_read(text, n, CTG_SA_ACTION_LIST) : NULL;

        if (doc && ctg_test_sa_writes(doc, expect, len))
            passed++;
        else
            fprintf(stderr, "\n  %s is not written as the 1.3 file\n", old[i]);
        ctg_sa_doc_free(doc);
        free(text);
    }
    CU_ASSERT_EQUAL(passed, COUNT_OF(old));
    free(expect);
}

/* The hand-written file (`}]` without a space) reads, and is written in PowSyBl's layout. */
CTG_SHARED_TEST(sa_action, hand_written_fixture_reads)
{
    static const char expect[] = "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ {\n"
                                 "    \"type\" : \"SWITCH\",\n    \"id\" : \"id1\",\n"
                                 "    \"switchId\" : \"switchId1\",\n    \"open\" : true\n"
                                 "  } ]\n}";
    size_t len;
    char *text = slurp_shared("security-analysis-api_ActionFileTest.json", &len);
    ctg_sa_doc *doc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    doc = ctg_test_sa_read(text, len, CTG_SA_ANY);
    CU_ASSERT_EQUAL(ctg_sa_action_count(doc), 1);
    CU_ASSERT(doc && ctg_test_sa_writes(doc, expect, sizeof expect - 1));
    ctg_sa_doc_free(doc);
    free(text);
}

static void check_rejected(const char *name, int code, unsigned line, unsigned column,
                           const char *path, const char *message)
{
    size_t len;
    char *text = slurp_shared(name, &len);
    ctg_sa_doc *doc = NULL;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_ANY, text, len, NULL, &err), code);
    CU_ASSERT_PTR_NULL(doc);
    CU_ASSERT_EQUAL(err.line, line);
    CU_ASSERT_EQUAL(err.column, column);
    CU_ASSERT_STRING_EQUAL(err.path, path);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    free(text);
}

CTG_SHARED_TEST(sa_action, rejected_fixtures_fail_at_their_place)
{
    check_rejected("ActionFileTestWrongVersion.json", CTG_ESCHEMA, 31, 5, "/actions/4/value",
                   "\"value\" needs version 1.0 or earlier; the list has version 1.1");
    /* PowSyBl says line 8, column 3 (the action's end); ctg names the action's start. */
    check_rejected("WrongActionFileTest.json", CTG_ESCHEMA, 3, 17, "/actions/0/relativeValue",
                   "missing required field \"relativeValue\"");
}

CTG_SHARED_TEST(sa_action, fixture_values)
{
    size_t len;
    char *text = slurp_shared("ActionFileTestV1.0.json", &len);
    ctg_sa_doc *doc;
    const ctg_action *a;
    size_t n, seen = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    doc = ctg_test_sa_read(text, len, CTG_SA_ACTION_LIST);
    free(text);
    n = ctg_sa_action_count(doc);
    CU_ASSERT_EQUAL_FATAL(n, 33);
    CU_ASSERT_PTR_NULL(ctg_sa_action_at(doc, n));
    a = ctg_sa_action_at(doc, 1);
    CU_ASSERT_EQUAL(a->type, CTG_ACTION_MULTIPLE_ACTIONS);
    CU_ASSERT_EQUAL_FATAL(a->action_count, 1);
    CU_ASSERT_STRING_EQUAL(a->actions[0].element_id, "switchId2");
    CU_ASSERT_PTR_NULL(a->element_id);
    for (size_t i = 0; i < n; i++) {
        a = ctg_sa_action_at(doc, i);
        if (strcmp(a->id, "id7") == 0) { /* legacy `value`, a negative tap */
            CU_ASSERT(a->tap_position == -5 && a->relative_value && a->side == CTG_ACTION_SIDE_ONE);
            seen++;
        } else if (strcmp(a->id, "id17") == 0 && a->type == CTG_ACTION_BOUNDARY_LINE) {
            CU_ASSERT_STRING_EQUAL(a->element_id, "dlId1"); /* DANGLING_LINE, danglingLineId */
            CU_ASSERT(!CTG_ACTION_HAS(a, CTG_ACTION_F_ACTIVE_POWER_VALUE));
            CU_ASSERT_EQUAL(a->reactive_power_value, 5.0);
            seen++;
        } else if (strcmp(a->id, "idDisabledTarget") == 0) {
            CU_ASSERT(!CTG_ACTION_HAS(a, CTG_ACTION_F_INTERCHANGE_TARGET));
            CU_ASSERT(isnan(a->interchange_target));
            seen++;
        } else if (strcmp(a->id, "id24") == 0 && a->type == CTG_ACTION_HVDC) {
            CU_ASSERT_EQUAL(a->converter_mode, CTG_CONVERTERS_SIDE_1_RECTIFIER_SIDE_2_INVERTER);
            CU_ASSERT(a->droop == 121.0 && a->p0 == 42.0 && !a->relative_value);
            CU_ASSERT(CTG_ACTION_HAS(a, CTG_ACTION_F_RELATIVE_VALUE));
            seen++;
        }
    }
    CU_ASSERT_EQUAL(seen, 4);
    CU_ASSERT_EQUAL(ctg_sa_context_count(doc), 0); /* no other kind's view */
    ctg_sa_doc_free(doc);
}

/* ---- hand-made documents ------------------------------------------------------------------ */

static void check_round(const char *in, const char *out)
{
    ctg_sa_doc *doc = ctg_test_sa_read(in, strlen(in), CTG_SA_ACTION_LIST);

    CU_ASSERT_PTR_NOT_NULL(doc);
    CU_ASSERT(doc && ctg_test_sa_writes(doc, out, strlen(out)));
    ctg_sa_doc_free(doc);
}

#define HEAD "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ "

/* Spec 9.1: `type` last, the members before it kept in order; written type first. */
CTG_TEST(sa_action, type_may_come_last)
{
    check_round("{\"actions\":[{\"id\":\"a\",\"open\":false,\"switchId\":\"s\",\"type\":\"SWITCH\"},"
                "{\"id\":\"m\",\"actions\":[{\"switchId\":\"x\",\"type\":\"SWITCH\",\"id\":\"n\","
                "\"open\":true}],\"type\":\"MULTIPLE_ACTIONS\"}],\"version\":\"1.3\"}",
                HEAD "{\n    \"type\" : \"SWITCH\",\n    \"id\" : \"a\",\n"
                     "    \"switchId\" : \"s\",\n    \"open\" : false\n  }, {\n"
                     "    \"type\" : \"MULTIPLE_ACTIONS\",\n    \"id\" : \"m\",\n"
                     "    \"actions\" : [ {\n      \"type\" : \"SWITCH\",\n"
                     "      \"id\" : \"n\",\n      \"switchId\" : \"x\",\n"
                     "      \"open\" : true\n    } ]\n  } ]\n}");
}

/* Spec 2.6: absent tapPosition, regulating and p0PercentChange are written as their defaults;
 * MULTIPLE_ACTIONS without `actions` is empty. */
CTG_TEST(sa_action, defaults_are_written)
{
    check_round("{\"version\":\"1.1\",\"actions\":["
                "{\"type\":\"RATIO_TAP_CHANGER_TAP_POSITION\",\"id\":\"t\",\"transformerId\":\"x\","
                "\"relativeValue\":true},"
                "{\"type\":\"RATIO_TAP_CHANGER_REGULATION\",\"id\":\"r\",\"transformerId\":\"x\"},"
                "{\"type\":\"PCT_LOAD_CHANGE\",\"id\":\"p\",\"loadId\":\"l\","
                "\"qModificationStrategy\":\"CONSTANT_PQ_RATIO\"},"
                "{\"type\":\"MULTIPLE_ACTIONS\",\"id\":\"m\"}]}",
                HEAD "{\n    \"type\" : \"RATIO_TAP_CHANGER_TAP_POSITION\",\n    \"id\" : \"t\",\n"
                     "    \"transformerId\" : \"x\",\n    \"tapPosition\" : 0,\n"
                     "    \"relativeValue\" : true\n  }, {\n"
                     "    \"type\" : \"RATIO_TAP_CHANGER_REGULATION\",\n    \"id\" : \"r\",\n"
                     "    \"transformerId\" : \"x\",\n    \"regulating\" : false\n  }, {\n"
                     "    \"type\" : \"PCT_LOAD_CHANGE\",\n    \"id\" : \"p\",\n"
                     "    \"loadId\" : \"l\",\n    \"p0PercentChange\" : 0.0,\n"
                     "    \"qModificationStrategy\" : \"CONSTANT_PQ_RATIO\"\n  }, {\n"
                     "    \"type\" : \"MULTIPLE_ACTIONS\",\n    \"id\" : \"m\",\n"
                     "    \"actions\" : [ ]\n  } ]\n}");
}

/* Spec 2.3.8-9: the load family's element names, each written under its type's name; an
 * integer is written as a double where the member is one. */
CTG_TEST(sa_action, load_family_aliases)
{
    check_round("{\"version\":\"1.2\",\"actions\":["
                "{\"type\":\"DANGLING_LINE\",\"id\":\"b\",\"loadId\":\"x\",\"relativeValue\":false,"
                "\"activePowerValue\":1},"
                "{\"type\":\"LOAD\",\"id\":\"l\",\"danglingLineId\":\"y\",\"relativeValue\":true,"
                "\"reactivePowerValue\":-2.5E-4}]}",
                HEAD "{\n    \"type\" : \"BOUNDARY_LINE\",\n    \"id\" : \"b\",\n"
                     "    \"boundaryLineId\" : \"x\",\n    \"relativeValue\" : false,\n"
                     "    \"activePowerValue\" : 1.0\n  }, {\n"
                     "    \"type\" : \"LOAD\",\n    \"id\" : \"l\",\n    \"loadId\" : \"y\",\n"
                     "    \"relativeValue\" : true,\n    \"reactivePowerValue\" : -2.5E-4\n"
                     "  } ]\n}");
}

/* testdata/sa: every type with the number forms of spec 1.1, from compact input and back. */
CTG_TEST(sa_action, every_type_round_trips)
{
    size_t len, clen;
    char *text = ctg_test_slurp(CTG_TESTDATA("sa/actions-every-type.json"), &len);
    char *compact = ctg_test_slurp(CTG_TESTDATA("sa/actions-compact.json"), &clen);
    ctg_sa_doc *doc = text ? ctg_test_sa_read(text, len, CTG_SA_ACTION_LIST) : NULL;
    ctg_sa_doc *from = compact ? ctg_test_sa_read(compact, clen, CTG_SA_ANY) : NULL;

    CU_ASSERT_EQUAL(ctg_sa_action_count(doc), 10);
    CU_ASSERT(doc && ctg_test_sa_writes(doc, text, len));
    CU_ASSERT(from && ctg_test_sa_writes(from, text, len));
    CU_ASSERT(doc && ctg_sa_action_at(doc, 3)->tap_position == -2147483647 - 1);
    ctg_sa_doc_free(doc);
    ctg_sa_doc_free(from);
    free(text);
    free(compact);
}

CTG_TEST(sa_action, empty_list_and_kinds)
{
    ctg_sa_doc *doc = NULL;
    ctg_error err;
    static const char text[] = "{\"actions\":[],\"version\":\"\"}"; /* no lower bound */

    check_round(text, "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ ]\n}");
    /* No builders: a plain action list (D1b's own tests are test_sa_idaction.c's). */
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_IDENTIFIER_ACTION_LIST, text,
                                       sizeof text - 1, NULL, &err),
                    CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.message, "this is an action list, not an identifier action list");
    CU_ASSERT_PTR_NULL(doc);
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_OPERATOR_STRATEGIES, text, sizeof text - 1,
                                       NULL, &err),
                    CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.message, "this is an action list, not an operator-strategy list");
    CU_ASSERT_EQUAL(ctg_sa_action_count(NULL), 0);
    CU_ASSERT_PTR_NULL(ctg_sa_action_at(NULL, 0));
}

/* ---- builders ----------------------------------------------------------------------------- */

static ctg_action make(ctg_action_type type, const char *id, const char *element)
{
    ctg_action a;

    memset(&a, 0, sizeof a);
    a.struct_version = CTG_ACTION_STRUCT_VERSION;
    a.type = type;
    a.id = id;
    a.element_id = element;
    return a;
}

CTG_TEST(sa_action, builders_write_what_a_read_document_would)
{
    static const char empty[] = "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ ]\n}";
    static const char built[] =
        HEAD "{\n    \"type\" : \"MULTIPLE_ACTIONS\",\n    \"id\" : \"m\",\n"
             "    \"actions\" : [ {\n      \"type\" : \"SWITCH\",\n      \"id\" : \"s\",\n"
             "      \"switchId\" : \"sw\",\n      \"open\" : true\n    }, {\n"
             "      \"type\" : \"AREA_INTERCHANGE_TARGET_ACTION\",\n      \"id\" : \"a\",\n"
             "      \"areaId\" : \"area\"\n    } ]\n  }, {\n"
             "    \"type\" : \"STATIC_VAR_COMPENSATOR\",\n    \"id\" : \"v\",\n"
             "    \"staticVarCompensatorId\" : \"svc\",\n"
             "    \"regulationMode\" : \"REACTIVE_POWER\",\n"
             "    \"reactivePowerSetpoint\" : 1.0E21,\n    \"voltageSetpoint\" : 400.0\n  } ]\n}";
    ctg_sa_doc *doc = NULL;
    ctg_error err;
    ctg_action sw = make(CTG_ACTION_SWITCH, "s", "sw"), nested[2], multi, svc;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_ACTION_LIST, NULL), CTG_OK);
    CU_ASSERT(ctg_test_sa_writes(doc, empty, sizeof empty - 1));
    sw.set = 1u << CTG_ACTION_F_OPEN;
    sw.open = true;
    nested[0] = sw;
    nested[1] = make(CTG_ACTION_AREA_INTERCHANGE_TARGET, "a", "area");
    multi = make(CTG_ACTION_MULTIPLE_ACTIONS, "m", NULL);
    multi.actions = nested;
    multi.action_count = 2;
    svc = make(CTG_ACTION_STATIC_VAR_COMPENSATOR, "v", "svc");
    svc.set = (1u << CTG_ACTION_F_REGULATION_MODE) | (1u << CTG_ACTION_F_VOLTAGE_SETPOINT) |
              (1u << CTG_ACTION_F_REACTIVE_POWER_SETPOINT);
    svc.regulation_mode = CTG_SVC_REGULATION_REACTIVE_POWER;
    svc.voltage_setpoint = 400;
    svc.reactive_power_setpoint = 1e21;
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, &multi, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, &svc, &err), CTG_OK);
    nested[0].id = "changed after the call";
    CU_ASSERT(ctg_test_sa_writes(doc, built, sizeof built - 1));
    CU_ASSERT_EQUAL(ctg_sa_action_count(doc), 2);
    ctg_sa_doc_free(doc);
}

static void check_refused(ctg_sa_doc *doc, const ctg_action *a, const char *path,
                          const char *message)
{
    ctg_error err;
    size_t before = ctg_sa_action_count(doc);

    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, a, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, path);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    CU_ASSERT_EQUAL(ctg_sa_action_count(doc), before);
}

CTG_TEST(sa_action, builders_check_as_the_reader)
{
    ctg_sa_doc *doc = NULL, *other = NULL;
    ctg_action a = make(CTG_ACTION_SWITCH, "s", "sw"), inner[1], multi;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_ACTION_LIST, NULL), CTG_OK);
    check_refused(doc, &a, "/actions/0/open", "missing required field \"open\"");
    a.set = 1u << CTG_ACTION_F_OPEN;
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, &a, NULL), CTG_OK);
    a.set |= 1u << CTG_ACTION_F_TARGET_V;
    check_refused(doc, &a, "/actions/1/targetV", "does not apply to this action type");
    a = make(CTG_ACTION_GENERATOR, "g", "gen");
    a.set = 1u << CTG_ACTION_F_TARGET_Q;
    a.target_q = NAN;
    check_refused(doc, &a, "/actions/1/targetQ", "must be a finite number");
    a = make(CTG_ACTION_HVDC, "h", "hvdc");
    a.set = 1u << CTG_ACTION_F_CONVERTER_MODE;
    a.converter_mode = CTG_CONVERTERS_MODE_COUNT;
    check_refused(doc, &a, "/actions/1/converterMode", "is out of range");
    a = make(CTG_ACTION_SHUNT_COMPENSATOR_POSITION, "c", "shunt");
    a.set = 1u << CTG_ACTION_F_SECTION_COUNT;
    a.section_count = -1;
    check_refused(doc, &a, "/actions/1/sectionCount", "\"sectionCount\" must be 0 or more");
    a.struct_version = 2;
    check_refused(doc, &a, "/actions/1/struct_version", "unknown struct_version");
    inner[0] = make(CTG_ACTION_LOAD, NULL, "l");
    multi = make(CTG_ACTION_MULTIPLE_ACTIONS, "m", NULL);
    multi.actions = inner;
    multi.action_count = 1;
    check_refused(doc, &multi, "/actions/1/actions/0/id", "missing required field \"id\"");
    multi.actions = NULL;
    check_refused(doc, &multi, "/actions/1/actions", "has a count but no actions");
    inner[0] = make(CTG_ACTION_SWITCH, "s", "sw\xc3");
    inner[0].set = 1u << CTG_ACTION_F_OPEN;
    multi.actions = inner;
    check_refused(doc, &multi, "/actions/1/actions/0/switchId", "is not valid UTF-8");
    multi.id = "bad\xff";
    check_refused(doc, &multi, "/actions/1/id", "is not valid UTF-8");
    /* A MULTIPLE_ACTIONS writes no element id: a stray one is not looked at. */
    inner[0].element_id = "sw";
    multi.id = "m";
    multi.element_id = "x\xff";
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, &multi, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_action_count(doc), 2);
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(NULL, &a, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&other, CTG_SA_STATE_MONITORS, NULL), CTG_OK);
    a = make(CTG_ACTION_SWITCH, "s", "sw");
    a.set = 1u << CTG_ACTION_F_OPEN;
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(other, &a, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_action_count(doc), 2);
    ctg_sa_doc_free(other);
    ctg_sa_doc_free(doc);
}

/* ---- allocation failures ------------------------------------------------------------------ */

static const char sweep_doc[] =
    "{\"version\":\"1.3\",\"actions\":[{\"id\":\"a\",\"switchId\":\"s\",\"open\":true,\"type\":\"SWITCH\"},"
    "{\"type\":\"MULTIPLE_ACTIONS\",\"id\":\"m\",\"actions\":[{\"type\":\"HVDC\",\"id\":\"h\","
    "\"hvdcId\":\"x\",\"droop\":1.5}]},"
    "{\"type\":\"PHASE_TAP_CHANGER_TAP_POSITION\",\"id\":\"t\",\"transformerId\":\"x\","
    "\"tapPosition\":3,\"relativeValue\":false,\"side\":\"TWO\"}]}";

/* Builds a copy of the sweep document's first two actions into `doc`. */
static int build_some(ctg_sa_doc *doc)
{
    ctg_action sw = make(CTG_ACTION_SWITCH, "a", "s"), h = make(CTG_ACTION_HVDC, "h", "x");
    ctg_action m = make(CTG_ACTION_MULTIPLE_ACTIONS, "m", NULL);
    int rc;

    sw.set = 1u << CTG_ACTION_F_OPEN;
    h.set = 1u << CTG_ACTION_F_DROOP;
    h.droop = 1.5;
    m.actions = &h;
    m.action_count = 1;
    for (int i = 0; i < 10; i++)
        if ((rc = ctg_sa_action_list_add(doc, i % 2 ? &m : &sw, NULL)) != CTG_OK)
            return rc;
    return CTG_OK;
}

CTG_TEST(sa_action, allocation_failure_sweep)
{
    size_t failed[3];

    ctg_test_sa_sweep(sweep_doc, sizeof sweep_doc - 1, CTG_SA_ACTION_LIST, build_some, failed);
    CU_ASSERT(failed[0] >= 3);
    CU_ASSERT(failed[1] >= 1);
    CU_ASSERT(failed[2] >= 1);
}

/* ---- a duplicate member's first place, found again -------------------------------------- */

/* An action list whose one action holds more than the lexer's 64 KiB window of nested actions
 * before it repeats its `id` (given first in escaped form): from a file, the first `id` is out
 * of the window when the second is met. `nested`: the repeat is in the last nested action
 * instead. */
static char *long_action(bool nested, size_t *len)
{
    ctg_test_text t = { NULL, 0, 0 };
    static const char head[] = "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ {\n"
                               "    \"type\" : \"MULTIPLE_ACTIONS\",\n    \"\\u0069d\" : \"m\",\n"
                               "    \"actions\" : [ ";
    static const char inner_end[] = " ]\n  } ]\n}\n";
    static const char outer_end[] = " ],\n    \"id\" : \"again\"\n  } ]\n}\n";
    const char *tail;
    char item[160];

    ctg_test_text_add(&t, head, sizeof head - 1);
    for (int i = 0; i < 1200; i++) {
        int n = snprintf(item, sizeof item,
                         "{\n      \"type\" : \"SWITCH\",\n      \"id\" : \"s%04d\",\n"
                         "      \"switchId\" : \"SW%04d\",\n      \"open\" : true%s\n    }, ",
                         i, i, nested && i == 1199 ? ",\n      \"id\" : \"again\"" : "");
        ctg_test_text_add(&t, item, (size_t)n);
    }
    t.len -= 2; /* the last ", " */
    tail = nested ? inner_end : outer_end;
    ctg_test_text_add(&t, tail, strlen(tail));
    *len = t.len;
    return t.data;
}

/* `text` gzip-compressed (malloc); NULL on failure. */
static char *gzip_text(const char *text, size_t len, size_t *out_len)
{
    uLongf cap = compressBound((uLong)len) + 32;
    char *out = malloc(cap);
    z_stream zs;

    memset(&zs, 0, sizeof zs);
    if (!out || deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(out);
        return NULL;
    }
    zs.next_in = (Bytef *)(uintptr_t)text;
    zs.avail_in = (uInt)len;
    zs.next_out = (Bytef *)out;
    zs.avail_out = (uInt)cap;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
        deflateEnd(&zs);
        free(out);
        return NULL;
    }
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return out;
}

static void put_bytes(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");

    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, len, f), len);
    fclose(f);
}

typedef struct fifo_writer {
    const char *path, *text;
    size_t len;
} fifo_writer;

static void *write_fifo(void *arg)
{
    const fifo_writer *w = arg;
    int fd = open(w->path, O_WRONLY);

    if (fd >= 0) {
        for (size_t off = 0; off < w->len;) {
            ssize_t n = write(fd, w->text + off, w->len - off);
            if (n <= 0)
                break;
            off += (size_t)n;
        }
        close(fd);
    }
    return NULL;
}

/* The error of reading `path` (a FIFO fed `text` when `fifo`). */
static void read_path(const char *path, const char *text, size_t len, bool fifo, ctg_error *err)
{
    fifo_writer w = { path, text, len };
    ctg_sa_doc *doc = NULL;
    pthread_t th;

    if (fifo)
        CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, write_fifo, &w), 0);
    CU_ASSERT_EQUAL(ctg_sa_read_file(&doc, CTG_SA_ACTION_LIST, path, NULL, err), CTG_ESCHEMA);
    if (fifo)
        pthread_join(th, NULL);
    CU_ASSERT_PTR_NULL(doc);
}

static void same_error(const ctg_error *e, unsigned line, unsigned column, const char *path,
                       const char *message)
{
    CU_ASSERT_EQUAL(e->line, line);
    CU_ASSERT_EQUAL(e->column, column);
    CU_ASSERT_STRING_EQUAL(e->path, path);
    CU_ASSERT_STRING_EQUAL(e->message, message);
    if (e->line != line || e->column != column || strcmp(e->message, message) != 0)
        fprintf(stderr, "\n  got %u:%u %s %s\n", e->line, e->column, e->path, e->message);
}

/* The place of the first of two equal members, the same from memory, gzip memory, a file, a
 * gzip file (read again to find it) and a FIFO (which cannot be, so the reader kept it). */
static void check_long_duplicate(bool nested, unsigned line, unsigned column, const char *path,
                                 const char *message)
{
    char dir[256], file[300], gz[300], fifo[300];
    size_t len = 0, gz_len = 0;
    char *text = long_action(nested, &len), *packed = gzip_text(text, len, &gz_len);
    ctg_sa_doc *doc = NULL;
    ctg_error err;

    CU_ASSERT_FATAL(text != NULL && packed != NULL && len > 96 * 1024);
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_ACTION_LIST, text, len, NULL, &err),
                    CTG_ESCHEMA);
    same_error(&err, line, column, path, message);
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&doc, CTG_SA_ACTION_LIST, packed, gz_len, NULL, &err),
                    CTG_ESCHEMA);
    same_error(&err, line, column, path, message);
    ctg_test_scratch_make(dir, sizeof dir, "sa-dup");
    snprintf(file, sizeof file, "%s/a.json", dir);
    snprintf(gz, sizeof gz, "%s/a.json.gz", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    put_bytes(file, text, len);
    read_path(file, text, len, false, &err);
    same_error(&err, line, column, path, message);
    put_bytes(gz, packed, gz_len);
    read_path(gz, text, len, false, &err);
    same_error(&err, line, column, path, message);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    read_path(fifo, text, len, true, &err);
    same_error(&err, line, column, path, message);
    ctg_test_scratch_remove(dir);
    free(packed);
    free(text);
}

CTG_TEST(sa_action, duplicate_found_again_past_the_window)
{
    check_long_duplicate(false, 6007, 5, "/actions/0/id",
                         "duplicate key \"id\" (first at line 5, column 5)");
    check_long_duplicate(true, 6006, 7, "/actions/0/actions/1199/id",
                         "duplicate key \"id\" (first at line 6003, column 7)");
}

#include "test_sa_action.tests.h"
