/* SPDX-License-Identifier: MPL-2.0 */
/* Identifier action lists (ctg/sa.h, spec 2.5): the PowSyBl fixture written back byte for byte,
 * the maps keyed by builder id in Java hash order, builders as PowSyBl's bean dumps, what
 * PowSyBl cannot write refused, the builder, deep MULTIPLE_ACTIONS nesting in a small thread
 * stack, and the allocation-failure sweep. The invalid cases are testdata/invalid-sa/idactions-*,
 * walked by the sa suite. */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "ctg/sa.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

static ctg_sa_doc *read_text(const char *text, ctg_sa_kind kind)
{
    return ctg_test_sa_read(text, strlen(text), kind);
}

static bool writes_exactly(const ctg_sa_doc *doc, const char *expect)
{
    return ctg_test_sa_writes(doc, expect, strlen(expect));
}

/* The fixture's content (NOTICE.md: RT), for the hand-made documents too. */
static const char fixture[] =
    "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ ],\n  \"elementIdentifiers\" : {\n"
    "    \"switchActionId\" : {\n      \"type\" : \"ID_BASED\",\n"
    "      \"identifier\" : \"switch 1 id\"\n    },\n    \"lineConnectionActionId\" : {\n"
    "      \"type\" : \"VOLTAGE_LEVELS_AND_ORDER\",\n      \"voltageLevelId1\" : \"VLHV1\",\n"
    "      \"voltageLevelId2\" : \"VLHV2\",\n      \"order\" : \"1\"\n    }\n  },\n"
    "  \"actionBuilders\" : {\n    \"switchActionId\" : {\n      \"id\" : \"switchActionId\",\n"
    "      \"type\" : \"SWITCH\"\n    },\n    \"lineConnectionActionId\" : {\n"
    "      \"id\" : \"lineConnectionActionId\",\n      \"type\" : \"TERMINALS_CONNECTION\"\n"
    "    }\n  }\n}";

/* ---- the shared fixture (NOTICE.md: RT) ---------------------------------------------------- */

CTG_SHARED_TEST(sa_idaction, fixture_is_written_back_byte_for_byte)
{
    char path[1024];
    size_t len;
    char *text;
    ctg_sa_doc *any = NULL, *typed = NULL, *plain = NULL;
    const ctg_identified_action *e;
    ctg_error err;

    snprintf(path, sizeof path, "%s/powsybl-sa/IdentifierActionListTest.json",
             ctg_test_shared_dir());
    text = ctg_test_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT(len == sizeof fixture - 1 && memcmp(text, fixture, len) == 0);
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&any, CTG_SA_ANY, text, len, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(
        ctg_sa_read_buffer(&typed, CTG_SA_IDENTIFIER_ACTION_LIST, text, len, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_doc_kind(any), CTG_SA_IDENTIFIER_ACTION_LIST);
    CU_ASSERT(any && writes_exactly(any, fixture));
    CU_ASSERT(typed && writes_exactly(typed, fixture));
    CU_ASSERT_EQUAL_FATAL(ctg_sa_identified_action_count(any), 2);
    CU_ASSERT_EQUAL(ctg_sa_action_count(any), 0);
    e = ctg_sa_identified_action_at(any, 1); /* in `actionBuilders` order */
    CU_ASSERT_STRING_EQUAL(e->builder.id, "lineConnectionActionId");
    CU_ASSERT_EQUAL(e->builder.type, CTG_ACTION_TERMINALS_CONNECTION);
    CU_ASSERT_EQUAL(e->identifier.kind, CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER);
    CU_ASSERT_STRING_EQUAL(e->identifier.voltage_level_id2, "VLHV2");
    CU_ASSERT_EQUAL(e->identifier.order, '1');
    CU_ASSERT_PTR_NULL(ctg_sa_identified_action_at(any, 2));
    /* Asked for a plain action list, the document is named. */
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&plain, CTG_SA_ACTION_LIST, text, len, NULL, &err),
                    CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(plain);
    CU_ASSERT_STRING_EQUAL(err.message, "this is an identifier action list, not an action list");
    CU_ASSERT(err.line == 1 && err.column == 1);
    ctg_sa_doc_free(any);
    ctg_sa_doc_free(typed);
    free(text);
}

/* ---- hand-made documents ------------------------------------------------------------------ */

CTG_TEST(sa_idaction, keys_are_builder_ids_in_hash_order)
{
    /* Both maps in the other order, the builders' map first, and keys that are not the ids:
     * written keyed by the ids, in HashMap order (lineConnectionActionId after
     * switchActionId), as the fixture. */
    static const char in[] =
        "{\"actionBuilders\":{\"k2\":{\"type\":\"TERMINALS_CONNECTION\","
        "\"id\":\"lineConnectionActionId\",\"elementId\":\"lost\",\"open\":true},"
        "\"k1\":{\"id\":\"switchActionId\",\"type\":\"SWITCH\",\"open\":false}},"
        "\"version\":\"1.3\",\"actions\":[],"
        "\"elementIdentifiers\":{\"k1\":{\"type\":\"ID_BASED\",\"identifier\":\"switch 1 id\"},"
        "\"k2\":{\"order\":\"1\",\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":"
        "\"VLHV1\",\"voltageLevelId2\":\"VLHV2\"}}}";
    ctg_sa_doc *doc = read_text(in, CTG_SA_ANY);
    const ctg_identified_action *e;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT(writes_exactly(doc, fixture));
    e = ctg_sa_identified_action_at(doc, 0);
    CU_ASSERT_STRING_EQUAL(e->builder.id, "lineConnectionActionId");
    CU_ASSERT_EQUAL(e->identifier.kind, CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER);
    /* What was read is kept, though PowSyBl writes only `id` and `type`. */
    CU_ASSERT_STRING_EQUAL(e->builder.element_id, "lost");
    CU_ASSERT(CTG_ACTION_HAS(&e->builder, CTG_ACTION_F_OPEN) && e->builder.open);
    ctg_sa_doc_free(doc);
}

CTG_TEST(sa_idaction, builders_are_not_checked_as_built_actions)
{
    /* No switchId, no open, no relativeValue: builders are not built (spec 2.5). LOAD is
     * PowSyBl's bean dump, unset values null, loadId as elementId. Hash order: "b" (98)
     * before "c" (99). Neither PowSyBl nor ctg reads this output back: the bean dump has
     * elementId, and SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS is written with a contingencyId
     * (CTG §4), which identifiers of action lists never take. */
    static const char in[] =
        "{\"version\":\"1.3\",\"actions\":[{\"type\":\"SWITCH\",\"id\":\"s\",\"switchId\":\"x\","
        "\"open\":true}],\"elementIdentifiers\":{\"c\":{\"type\":\"ID_WITH_WILDCARDS\","
        "\"identifier\":\"L?\"},\"b\":{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\","
        "\"substationOrVoltageLevelId\":\"S\",\"voltageLevelIdentifiableTypes\":[\"LOAD\"]}},"
        "\"actionBuilders\":{\"c\":{\"type\":\"LOAD\",\"id\":\"c\",\"loadId\":\"l\","
        "\"activePowerValue\":1},\"b\":{\"type\":\"SWITCH\",\"id\":\"b\"}}}";
    static const char out[] =
        "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ {\n    \"type\" : \"SWITCH\",\n"
        "    \"id\" : \"s\",\n    \"switchId\" : \"x\",\n    \"open\" : true\n  } ],\n"
        "  \"elementIdentifiers\" : {\n    \"b\" : {\n"
        "      \"type\" : \"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\",\n"
        "      \"contingencyId\" : \"S\",\n      \"substationOrVoltageLevelId\" : \"S\",\n"
        "      \"voltageLevelIdentifiableTypes\" : [ \"LOAD\" ]\n    },\n    \"c\" : {\n"
        "      \"type\" : \"ID_WITH_WILDCARDS\",\n      \"identifier\" : \"L?\",\n"
        "      \"wildcard\" : \"?\"\n    }\n  },\n  \"actionBuilders\" : {\n    \"b\" : {\n"
        "      \"id\" : \"b\",\n      \"type\" : \"SWITCH\"\n    },\n    \"c\" : {\n"
        "      \"id\" : \"c\",\n      \"elementId\" : \"l\",\n      \"relativeValue\" : null,\n"
        "      \"activePowerValue\" : 1.0,\n      \"reactivePowerValue\" : null,\n"
        "      \"type\" : \"LOAD\"\n    }\n  }\n}";
    ctg_sa_doc *doc = read_text(in, CTG_SA_IDENTIFIER_ACTION_LIST);

    ctg_sa_doc *again = NULL;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(ctg_sa_action_count(doc), 1);
    CU_ASSERT(writes_exactly(doc, out));
    CU_ASSERT_EQUAL(ctg_sa_read_buffer(&again, CTG_SA_ANY, out, sizeof out - 1, NULL, &err),
                    CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/elementIdentifiers/b/contingencyId");
    ctg_sa_doc_free(doc);
}

CTG_TEST(sa_idaction, hand_made_document_round_trips)
{
    size_t len;
    char *text = ctg_test_slurp(CTG_TESTDATA("sa/idactions-builders.json"), &len);
    ctg_sa_doc *doc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(strlen(text), len);
    doc = read_text(text, CTG_SA_ANY);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_count(doc), 3);
    CU_ASSERT(doc && writes_exactly(doc, text));
    ctg_sa_doc_free(doc);
    free(text);
}

CTG_TEST(sa_idaction, empty_builders_make_a_plain_action_list)
{
    /* PowSyBl drops the identifiers silently (spec 2.5); they are still read, so a bad one
     * is still refused. */
    ctg_sa_doc *doc = read_text("{\"version\":\"1.3\",\"elementIdentifiers\":{\"a\":{\"type\":"
                                "\"ID_BASED\",\"identifier\":\"x\"}},\"actionBuilders\":{},"
                                "\"actions\":[]}",
                                CTG_SA_ANY);

    CU_ASSERT_EQUAL(ctg_sa_doc_kind(doc), CTG_SA_ACTION_LIST);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_count(doc), 0);
    CU_ASSERT(doc && writes_exactly(doc, "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ ]\n}"));
    ctg_sa_doc_free(doc);
}

/* Reads `in` (fine) and checks that writing it fails with CTG_EUNSUPPORTED and `message`,
 * leaving the buffer as it was. */
static void check_unwritable(const char *in, const char *message)
{
    ctg_sa_doc *doc = read_text(in, CTG_SA_ANY), *empty = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    size_t len;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&empty, CTG_SA_ACTION_LIST, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&buf, empty, NULL, &err), CTG_OK);
    len = buf.len;
    CU_ASSERT_EQUAL(ctg_sa_write_buf(&buf, doc, NULL, &err), CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    CU_ASSERT_EQUAL(buf.len, len);
    ctg_buf_dispose(&buf);
    ctg_sa_doc_free(empty);
    ctg_sa_doc_free(doc);
}

#define IDS2                                                                                       \
    "\"elementIdentifiers\":{\"a\":{\"type\":\"ID_BASED\",\"identifier\":\"x\"},"                  \
    "\"b\":{\"type\":\"ID_BASED\",\"identifier\":\"y\"}}"

CTG_TEST(sa_idaction, what_powsybl_cannot_write_is_refused)
{
    check_unwritable("{\"version\":\"1.3\",\"actions\":[]," IDS2 ",\"actionBuilders\":{"
                     "\"a\":{\"type\":\"SWITCH\",\"id\":\"a\"},\"b\":{\"type\":"
                     "\"RATIO_TAP_CHANGER_REGULATION\",\"id\":\"b\",\"side\":\"ONE\"}}}",
                     "builder \"b\" is a RATIO_TAP_CHANGER_REGULATION builder, which PowSyBl "
                     "writes differently with each Jackson version (spec 2.5): not written");
    check_unwritable("{\"version\":\"1.3\",\"actions\":[]," IDS2 ",\"actionBuilders\":{"
                     "\"a\":{\"type\":\"SWITCH\",\"id\":\"a\"},\"b\":{\"type\":\"HVDC\"}}}",
                     "builder 1 has no id, which PowSyBl writes as its key");
    check_unwritable("{\"version\":\"1.3\",\"actions\":[]," IDS2 ",\"actionBuilders\":{"
                     "\"a\":{\"type\":\"SWITCH\",\"id\":\"same\"},\"b\":{\"type\":\"HVDC\","
                     "\"id\":\"same\"}}}",
                     "two builders have the id \"same\", the key PowSyBl writes them under (its "
                     "writer fails: duplicate key)");
}

/* ---- the builder --------------------------------------------------------------------------- */

static ctg_identified_action entry(ctg_action_type type, const char *id, const char *element)
{
    ctg_identified_action e;

    memset(&e, 0, sizeof e);
    e.builder.struct_version = CTG_ACTION_STRUCT_VERSION;
    e.builder.type = type;
    e.builder.id = id;
    e.identifier.kind = CTG_IDENTIFIER_ID_BASED;
    e.identifier.id = element;
    return e;
}

CTG_TEST(sa_idaction, built_document_writes_the_fixture)
{
    ctg_sa_doc *doc = NULL;
    ctg_identified_action sw = entry(CTG_ACTION_SWITCH, "switchActionId", "switch 1 id");
    ctg_identified_action line =
        entry(CTG_ACTION_TERMINALS_CONNECTION, "lineConnectionActionId", NULL);
    char id[] = "switchActionId";
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_IDENTIFIER_ACTION_LIST, NULL), CTG_OK);
    CU_ASSERT(writes_exactly(doc,
                             "{\n  \"version\" : \"1.3\",\n  \"actions\" : [ ],\n"
                             "  \"elementIdentifiers\" : { },\n  \"actionBuilders\" : { }\n}"));
    line.identifier.kind = CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER;
    line.identifier.voltage_level_id1 = "VLHV1";
    line.identifier.voltage_level_id2 = "VLHV2";
    line.identifier.order = '1';
    sw.builder.id = id;
    CU_ASSERT_EQUAL(ctg_sa_identified_action_add(doc, &line, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_add(doc, &sw, &err), CTG_OK);
    id[0] = 'X'; /* copied */
    CU_ASSERT(writes_exactly(doc, fixture));
    /* Added in code: no key read; it is written under its builder's id. */
    CU_ASSERT_PTR_NULL(ctg_sa_identified_action_key(doc, 0));
    CU_ASSERT_PTR_NULL(ctg_sa_identified_action_key(doc, 1));
    CU_ASSERT_PTR_NULL(ctg_sa_identified_action_key(NULL, 0));
    ctg_sa_doc_free(doc);
}

static void check_refused(ctg_sa_doc *doc, const ctg_identified_action *e, const char *path,
                          const char *message)
{
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_sa_identified_action_add(doc, e, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, path);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    CU_ASSERT_STRING_EQUAL(err.source, "<builder>");
}

CTG_TEST(sa_idaction, builder_checks_as_the_reader)
{
    ctg_sa_doc *doc = NULL, *d1 = NULL;
    ctg_identifier items[2] = { { .kind = CTG_IDENTIFIER_ID_BASED, .id = "x" },
                                { .kind = CTG_IDENTIFIER_ID_BASED, .id = "y" } };
    ctg_identified_action e = entry(CTG_ACTION_SWITCH, "a", "x");
    ctg_action nested[1];

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_IDENTIFIER_ACTION_LIST, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_add(doc, &e, NULL), CTG_OK);
    e.identifier.kind = CTG_IDENTIFIER_LIST;
    e.identifier.items = items;
    e.identifier.item_count = 2;
    items[1].contingency_id = "c";
    check_refused(doc, &e, "/elementIdentifiers/1/contingencyId",
                  "\"contingencyId\" needs an identifier-list version of 1.2 or later; an "
                  "action list's identifiers have none");
    e.identifier.kind = CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS;
    e.identifier.contingency_id = "c"; /* unused by this kind, refused by the reader all the same */
    check_refused(doc, &e, "/elementIdentifiers/1/contingencyId",
                  "\"contingencyId\" needs an identifier-list version of 1.2 or later; an "
                  "action list's identifiers have none");
    e.identifier.kind = CTG_IDENTIFIER_LIST;
    e.identifier.contingency_id = NULL;
    items[1].id = NULL;
    check_refused(doc, &e, "/elementIdentifiers/1",
                  "breaks a rule of network-element identifiers (contingency-list spec 4)");
    e = entry(CTG_ACTION_BOUNDARY_LINE, "b", "x");
    check_refused(doc, &e, "/actionBuilders/1/type",
                  "type BOUNDARY_LINE needs a version, which the actions of \"actionBuilders\" "
                  "never have");
    e = entry(CTG_ACTION_SWITCH, "b", "x");
    e.builder.set = 1u << CTG_ACTION_F_TARGET_Q;
    check_refused(doc, &e, "/actionBuilders/1/targetQ", "does not apply to this action type");
    e = entry(CTG_ACTION_MULTIPLE_ACTIONS, "m", "x");
    nested[0] = entry(CTG_ACTION_SWITCH, "s", NULL).builder; /* a built action: needs more */
    e.builder.actions = nested;
    e.builder.action_count = 1;
    check_refused(doc, &e, "/actionBuilders/1/actions/0/switchId", "missing required field");
    nested[0].element_id = "sw";
    nested[0].set = 1u << CTG_ACTION_F_OPEN;
    nested[0].id = "s\xe2\x82";
    check_refused(doc, &e, "/actionBuilders/1/actions/0/id", "is not valid UTF-8");
    e.builder.id = "m\xf8\x88\x80\x80\x80";
    check_refused(doc, &e, "/actionBuilders/1/id", "is not valid UTF-8");
    e = entry(CTG_ACTION_SWITCH, "b", "x");
    e.builder.element_id = "\xc0\xaf";
    check_refused(doc, &e, "/actionBuilders/1/switchId", "is not valid UTF-8");
    e = entry(CTG_ACTION_SWITCH, "b", "x\xed\xa0\x80");
    check_refused(doc, &e, "/elementIdentifiers/1",
                  "breaks a rule of network-element identifiers (contingency-list spec 4)");
    e = entry(CTG_ACTION_MULTIPLE_ACTIONS, "m", "x");
    e.builder.struct_version = 7;
    check_refused(doc, &e, "/actionBuilders/1/struct_version", "unknown struct_version");
    CU_ASSERT_EQUAL(ctg_sa_identified_action_count(doc), 1);
    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&d1, CTG_SA_ACTION_LIST, NULL), CTG_OK);
    e = entry(CTG_ACTION_SWITCH, "a", "x");
    CU_ASSERT_EQUAL(ctg_sa_identified_action_add(d1, &e, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_add(NULL, &e, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_add(doc, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_count(d1), 0);
    CU_ASSERT_EQUAL(ctg_sa_identified_action_count(NULL), 0);
    ctg_sa_doc_free(d1);
    ctg_sa_doc_free(doc);
}

/* ---- deep nesting in a small stack --------------------------------------------------------- */

/* An action list of MULTIPLE_ACTIONS nested `levels` deep (the top level is 1). */
static char *nested_doc(size_t levels)
{
    static const char open[] = "{\"type\":\"MULTIPLE_ACTIONS\",\"id\":\"m\",\"actions\":[";
    size_t n = 40 + levels * (sizeof open + 2);
    char *s = malloc(n), *p = s;

    if (!s)
        return NULL;
    p += sprintf(p, "{\"version\":\"1.3\",\"actions\":[");
    for (size_t i = 0; i < levels; i++)
        p += sprintf(p, "%s", open);
    for (size_t i = 0; i < levels; i++)
        p += sprintf(p, "]}");
    sprintf(p, "]}");
    return s;
}

typedef struct deep_read {
    const char *text;
    int rc;
    ctg_error err;
} deep_read;

static void *read_deep(void *arg)
{
    deep_read *d = arg;
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_sa_doc *doc = NULL;

    opts.max_depth = CTG_MAX_DEPTH_LIMIT;
    d->rc = ctg_sa_read_buffer(&doc, CTG_SA_ANY, d->text, strlen(d->text), &opts, &d->err);
    ctg_sa_doc_free(doc);
    return NULL;
}

/* A small thread stack: 256 KiB; 4 MiB under AddressSanitizer, whose redzones make every
 * frame several times larger (what is tested is that the depth is bounded, not ASan's
 * frame sizes). */
#if defined(__SANITIZE_ADDRESS__)
#define SMALL_STACK ((size_t)4 * 1024 * 1024)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SMALL_STACK ((size_t)4 * 1024 * 1024)
#endif
#endif
#ifndef SMALL_STACK
#define SMALL_STACK ((size_t)256 * 1024)
#endif

/* Reads `levels` of nesting at max_depth 4096 in a thread with a small stack. */
static int read_in_small_stack(size_t levels, ctg_error *err)
{
    deep_read d = { nested_doc(levels), -1, { 0 } };
    pthread_attr_t attr;
    pthread_t t;

    CU_ASSERT_PTR_NOT_NULL_FATAL(d.text);
    CU_ASSERT_EQUAL_FATAL(pthread_attr_init(&attr), 0);
    CU_ASSERT_EQUAL_FATAL(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, &attr, read_deep, &d), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    free((void *)d.text);
    *err = d.err;
    return d.rc;
}

CTG_TEST(sa_idaction, deep_nesting_fits_a_small_thread_stack)
{
    ctg_error err;

    /* 2047 levels: every level of JSON max_depth allows; the action bound says no first. */
    CU_ASSERT_EQUAL(read_in_small_stack(2047, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "actions nested more than 126 deep");
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, 28 + 127 * 47 + 1);
    /* The deepest nesting that reads: 127 levels (126 below the top one). */
    CU_ASSERT_EQUAL(read_in_small_stack(127, &err), CTG_OK);
    CU_ASSERT_EQUAL(read_in_small_stack(128, &err), CTG_ELIMIT);
}

CTG_TEST(sa_idaction, builder_nests_as_deep_as_the_reader)
{
    static ctg_action chain[128];
    ctg_sa_doc *doc = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_sa_doc_new(&doc, CTG_SA_ACTION_LIST, NULL), CTG_OK);
    for (size_t i = 0; i < 128; i++) {
        memset(&chain[i], 0, sizeof chain[i]);
        chain[i].struct_version = CTG_ACTION_STRUCT_VERSION;
        chain[i].type = CTG_ACTION_MULTIPLE_ACTIONS;
        chain[i].id = "m";
        chain[i].actions = i + 1 < 128 ? &chain[i + 1] : NULL;
        chain[i].action_count = i + 1 < 128;
    }
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, &chain[0], &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "actions nested too deep");
    CU_ASSERT_EQUAL(ctg_sa_action_list_add(doc, &chain[1], &err), CTG_OK); /* 127 levels */
    ctg_sa_doc_free(doc);
}

/* ---- allocation failures ------------------------------------------------------------------ */

static const char sweep_doc[] =
    "{\"version\":\"1.3\",\"actions\":[{\"type\":\"SWITCH\",\"id\":\"s\",\"switchId\":\"x\","
    "\"open\":true}],\"elementIdentifiers\":{\"c\":{\"type\":\"LIST\",\"identifierList\":"
    "[{\"type\":\"ID_BASED\",\"identifier\":\"y\"}]},\"b\":{\"type\":\"ID_BASED\","
    "\"identifier\":\"z\"}},\"actionBuilders\":{\"b\":{\"type\":\"LOAD\",\"id\":\"b\","
    "\"loadId\":\"l\",\"activePowerValue\":1},\"c\":{\"id\":\"c\",\"type\":\"SWITCH\"}}}";

static int build_some(ctg_sa_doc *doc)
{
    ctg_identified_action e = entry(CTG_ACTION_SWITCH, "a", "x");
    char id[16];
    int rc;

    for (int i = 0; i < 10; i++) {
        snprintf(id, sizeof id, "a%d", i);
        e.builder.id = id;
        if ((rc = ctg_sa_identified_action_add(doc, &e, NULL)) != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

CTG_TEST(sa_idaction, allocation_failure_sweep)
{
    size_t failed[3];

    ctg_test_sa_sweep(sweep_doc, sizeof sweep_doc - 1, CTG_SA_IDENTIFIER_ACTION_LIST, build_some,
                      failed);
    CU_ASSERT(failed[0] >= 3);
    CU_ASSERT(failed[1] >= 2); /* the emitter's buffer and the write order's scratch */
    CU_ASSERT(failed[2] >= 1);
}

#include "test_sa_idaction.tests.h"
