/* SPDX-License-Identifier: MPL-2.0 */
/* `identifier` lists (spec 4): names, every PowSyBl identifier fixture read and written back
 * byte for byte, the version rules, the identifier rules, the builders, and memory. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "base/arena.h"
#include "model/identifier_impl.h"
#include "json/emit.h"
#include "format/read_internal.h"
#include "format/kinds.h"
#include "tests/test_common.h"

/* ---- helpers ----------------------------------------------------------------------------- */

typedef struct out_buf {
    char *data;
    size_t len;
} out_buf;

static int out_sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    out_buf *b = ctx;
    char *p = realloc(b->data, b->len + len + 1);

    (void)err;
    if (p == NULL)
        return CTG_ENOMEM;
    memcpy(p + b->len, data, len);
    b->len += len;
    p[b->len] = '\0';
    b->data = p;
    return CTG_OK;
}

/* The identifier writer called through an emitter, as the list dispatcher calls it. Returns
 * a malloc'd NUL-terminated string (NULL on failure, with *rc set). */
static char *emit_list(const ctg_list *list, bool compact, size_t *len, int *rc_out)
{
    ctg_emitter e;
    ctg_error err = { 0 };
    out_buf b = { NULL, 0 };
    int rc = ctg_emit_init(&e, out_sink, &b, compact, NULL, &err);

    if (rc == CTG_OK)
        rc = ctg_write_identifier_list(&e, list);
    if (rc == CTG_OK)
        rc = ctg_emit_finish(&e);
    ctg_emit_dispose(&e);
    if (rc_out != NULL)
        *rc_out = rc;
    if (rc != CTG_OK || b.data == NULL) {
        free(b.data);
        return NULL;
    }
    *len = b.len;
    return b.data;
}

/* Whether `list` is written exactly as `expect`; on a difference, says where. */
static int writes_as(const ctg_list *list, const char *expect, size_t expect_len, const char *what)
{
    size_t len = 0, i = 0;
    char *got = emit_list(list, false, &len, NULL);
    int same = got != NULL && len == expect_len && memcmp(got, expect, len) == 0;

    if (!same && got != NULL) {
        while (i < len && i < expect_len && got[i] == expect[i])
            i++;
        fprintf(stderr, "\n  %s: output differs at byte %zu:\n%.*s\n", what, i,
                (int)(len - i < 200 ? len - i : 200), got + i);
    } else if (!same) {
        fprintf(stderr, "\n  %s: write failed\n", what);
    }
    free(got);
    return same;
}

static ctg_list *read_path(const char *path)
{
    ctg_list *list = NULL;
    ctg_error err;

    if (ctg_list_read_file(&list, path, NULL, &err) != CTG_OK) {
        char line[700];
        ctg_error_format(&err, line, sizeof(line));
        fprintf(stderr, "\n  %s\n", line);
    }
    return list;
}

static char *shared_path(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/powsybl/%s", ctg_test_shared_dir(), name);
    return buf;
}

static int read_doc(ctg_list **list, const char *doc, ctg_error *err)
{
    return ctg_list_read_buffer(list, doc, strlen(doc), NULL, err);
}

#define DOC_HEAD(version) \
    "{\"type\":\"identifier\",\"version\":\"" version "\",\"name\":\"l\",\"identifiers\":["

/* ---- names ------------------------------------------------------------------------------- */

CTG_TEST(identifier, identifiable_type_names_round_trip)
{
    ctg_identifiable_type t;

    for (int i = 0; i < CTG_IDENTIFIABLE_TYPE_COUNT; i++) {
        const char *name = ctg_identifiable_type_name((ctg_identifiable_type)i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(name);
        t = CTG_IDENTIFIABLE_TYPE_COUNT;
        CU_ASSERT_TRUE(ctg_identifiable_type_from_name(name, strlen(name), &t));
        CU_ASSERT_EQUAL(t, i);
    }
    CU_ASSERT_EQUAL(CTG_IDENTIFIABLE_TYPE_COUNT, 28);
    CU_ASSERT_STRING_EQUAL(ctg_identifiable_type_name(CTG_IDENTIFIABLE_NETWORK), "NETWORK");
    CU_ASSERT_STRING_EQUAL(ctg_identifiable_type_name(CTG_IDENTIFIABLE_BOUNDARY_LINE),
                           "BOUNDARY_LINE");
    CU_ASSERT_STRING_EQUAL(ctg_identifiable_type_name(CTG_IDENTIFIABLE_DC_BUS), "DC_BUS");
    CU_ASSERT_PTR_NULL(ctg_identifiable_type_name(CTG_IDENTIFIABLE_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_identifiable_type_name((ctg_identifiable_type)-1));
    /* Strict names: the renamed one, case, padding, prefixes and near misses are refused. */
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name("DANGLING_LINE", 13, &t));
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name("line", 4, &t));
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name(" LINE", 5, &t));
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name("LINX", 4, &t));
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name("LINE", 3, &t));
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name("", 0, &t));
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name(NULL, 4, &t));
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name("THREE_WINDINGS_TRANSFORMERS", 27, &t));
    /* Not NUL-terminated: only `len` bytes count. */
    CU_ASSERT_TRUE(ctg_identifiable_type_from_name("LOADS", 4, &t));
    CU_ASSERT_EQUAL(t, CTG_IDENTIFIABLE_LOAD);
}

CTG_TEST(identifier, kind_names)
{
    CU_ASSERT_STRING_EQUAL(ctg_identifier_kind_name(CTG_IDENTIFIER_ID_BASED), "ID_BASED");
    CU_ASSERT_STRING_EQUAL(ctg_identifier_kind_name(CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER),
                           "VOLTAGE_LEVELS_AND_ORDER");
    CU_ASSERT_STRING_EQUAL(ctg_identifier_kind_name(CTG_IDENTIFIER_LIST), "LIST");
    CU_ASSERT_STRING_EQUAL(ctg_identifier_kind_name(CTG_IDENTIFIER_ID_WITH_WILDCARDS),
                           "ID_WITH_WILDCARDS");
    CU_ASSERT_STRING_EQUAL(
        ctg_identifier_kind_name(CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS),
        "SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS");
    CU_ASSERT_PTR_NULL(ctg_identifier_kind_name(CTG_IDENTIFIER_KIND_COUNT));
    for (int k = 0; k < CTG_IDENTIFIER_KIND_COUNT; k++) {
        const char *name = ctg_identifier_kind_name((ctg_identifier_kind)k);
        ctg_identifier_kind got = CTG_IDENTIFIER_KIND_COUNT;
        CU_ASSERT_TRUE(ctg_identifier_kind_from_name(name, strlen(name), &got));
        CU_ASSERT_EQUAL(got, k);
    }
    CU_ASSERT_FALSE(ctg_identifier_kind_from_name("LIsT", 4, &(ctg_identifier_kind){ 0 }));
    CU_ASSERT_FALSE(ctg_identifier_kind_from_name("LISTS", 5, &(ctg_identifier_kind){ 0 }));
    CU_ASSERT_FALSE(ctg_identifier_kind_from_name("", 0, &(ctg_identifier_kind){ 0 }));
}

/* ---- PowSyBl's fixtures ------------------------------------------------------------------ */

/* Every identifier fixture; older versions are written as 1.3, which PowSyBl's two reference
 * files hold (they are the 1.3 rendering of the 1.0-1.2 files). */
static const struct {
    const char *file;
    const char *written_as;
    const char *version;
    size_t count;
} fixtures[] = {
    { "identifierContingencyList.json", NULL, "1.3", 6 },
    { "identifierContingencyListReferenceForLessThan1_3.json", NULL, "1.3", 3 },
    { "identifierContingencyListReferenceForPreviousVersion.json", NULL, "1.3", 3 },
    { "identifierContingencyListv1_0.json",
      "identifierContingencyListReferenceForPreviousVersion.json", "1.0", 3 },
    { "identifierContingencyListv1_1.json",
      "identifierContingencyListReferenceForPreviousVersion.json", "1.1", 3 },
    { "identifierContingencyListv1_2.json", "identifierContingencyListReferenceForLessThan1_3.json",
      "1.2", 3 },
};
#define FIXTURE_COUNT (sizeof(fixtures) / sizeof(fixtures[0]))

CTG_SHARED_TEST(identifier, fixtures_round_trip_byte_for_byte)
{
    char path[1024];

    for (size_t i = 0; i < FIXTURE_COUNT; i++) {
        const char *out = fixtures[i].written_as ? fixtures[i].written_as : fixtures[i].file;
        size_t len, count = 99;
        char *expect = ctg_test_slurp(shared_path(path, sizeof(path), out), &len);
        ctg_list *list = read_path(shared_path(path, sizeof(path), fixtures[i].file));

        CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_IDENTIFIER);
        CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "list1");
        CU_ASSERT_STRING_EQUAL(ctg_list_version(list), fixtures[i].version);
        CU_ASSERT_PTR_NOT_NULL(ctg_list_identifiers(list, &count));
        CU_ASSERT_EQUAL(count, fixtures[i].count);
        CU_ASSERT(writes_as(list, expect, len, fixtures[i].file));
        ctg_list_free(list);
        free(expect);
    }
}

/* The compact layout loses nothing: read again, it gives the pretty bytes back. */
CTG_SHARED_TEST(identifier, compact_layout_round_trips)
{
    char path[1024];

    for (size_t i = 0; i < FIXTURE_COUNT; i++) {
        const char *out = fixtures[i].written_as ? fixtures[i].written_as : fixtures[i].file;
        size_t len, clen = 0;
        char *expect = ctg_test_slurp(shared_path(path, sizeof(path), out), &len);
        ctg_list *list = read_path(shared_path(path, sizeof(path), fixtures[i].file)), *again = NULL;
        char *compact = list ? emit_list(list, true, &clen, NULL) : NULL;

        CU_ASSERT_PTR_NOT_NULL_FATAL(compact);
        CU_ASSERT_PTR_NULL(memchr(compact, '\n', clen));
        CU_ASSERT_EQUAL(ctg_list_read_buffer(&again, compact, clen, NULL, NULL), CTG_OK);
        CU_ASSERT(again != NULL && writes_as(again, expect, len, fixtures[i].file));
        ctg_list_free(again);
        ctg_list_free(list);
        free(compact);
        free(expect);
    }
}

static void assert_only_kind_fields(const ctg_identifier *id)
{
    if (id->kind != CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER) {
        CU_ASSERT_PTR_NULL(id->voltage_level_id1);
        CU_ASSERT_PTR_NULL(id->voltage_level_id2);
        CU_ASSERT_EQUAL(id->order, 0);
    }
    if (id->kind != CTG_IDENTIFIER_LIST) {
        CU_ASSERT_PTR_NULL(id->items);
        CU_ASSERT_EQUAL(id->item_count, 0);
    }
    if (id->kind != CTG_IDENTIFIER_ID_WITH_WILDCARDS)
        CU_ASSERT_EQUAL(id->wildcard, 0);
    if (id->kind != CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS) {
        CU_ASSERT_PTR_NULL(id->types);
        CU_ASSERT_EQUAL(id->type_count, 0);
    }
}

CTG_SHARED_TEST(identifier, fixture_values)
{
    char path[1024];
    size_t count = 0;
    ctg_list *list;
    const ctg_identifier *ids;

    list = read_path(shared_path(path, sizeof(path), "identifierContingencyList.json"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    ids = ctg_list_identifiers(list, &count);
    CU_ASSERT_EQUAL_FATAL(count, 6);
    for (size_t i = 0; i < count; i++)
        assert_only_kind_fields(&ids[i]);
    CU_ASSERT_EQUAL(ids[0].kind, CTG_IDENTIFIER_ID_BASED);
    CU_ASSERT_STRING_EQUAL(ids[0].contingency_id, "contingencyId1");
    CU_ASSERT_STRING_EQUAL(ids[0].id, "identifier");
    CU_ASSERT_EQUAL(ids[1].kind, CTG_IDENTIFIER_ID_BASED);
    CU_ASSERT_PTR_NULL(ids[1].contingency_id);
    CU_ASSERT_STRING_EQUAL(ids[1].id, "identifier2");
    CU_ASSERT_EQUAL(ids[2].kind, CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER);
    CU_ASSERT_STRING_EQUAL(ids[2].contingency_id, "contingencyId2");
    CU_ASSERT_PTR_NULL(ids[2].id);
    CU_ASSERT_STRING_EQUAL(ids[2].voltage_level_id1, "vl1");
    CU_ASSERT_STRING_EQUAL(ids[2].voltage_level_id2, "vl2");
    CU_ASSERT_EQUAL(ids[2].order, '1');
    CU_ASSERT_EQUAL(ids[3].kind, CTG_IDENTIFIER_LIST);
    CU_ASSERT_STRING_EQUAL(ids[3].contingency_id, "contingencyId3");
    CU_ASSERT_EQUAL_FATAL(ids[3].item_count, 1);
    CU_ASSERT_EQUAL(ids[3].items[0].kind, CTG_IDENTIFIER_ID_BASED);
    CU_ASSERT_PTR_NULL(ids[3].items[0].contingency_id);
    CU_ASSERT_STRING_EQUAL(ids[3].items[0].id, "identifier");
    CU_ASSERT_EQUAL(ids[4].kind, CTG_IDENTIFIER_ID_WITH_WILDCARDS);
    CU_ASSERT_STRING_EQUAL(ids[4].contingency_id, "contingencyId4");
    CU_ASSERT_STRING_EQUAL(ids[4].id, "identifier?");
    CU_ASSERT_EQUAL(ids[4].wildcard, '?');
    CU_ASSERT_EQUAL(ids[5].kind, CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS);
    /* Its "contingencyId" is PowSyBl's copy of the id: ignored on read, derived on write. */
    CU_ASSERT_PTR_NULL(ids[5].contingency_id);
    CU_ASSERT_STRING_EQUAL(ids[5].id, "substationId");
    CU_ASSERT_EQUAL_FATAL(ids[5].type_count, 1);
    CU_ASSERT_EQUAL(ids[5].types[0], CTG_IDENTIFIABLE_LINE);
    ctg_list_free(list);
}

/* Spec 10.13: "identifier" is an array there. Refused, naming the field. */
CTG_SHARED_TEST(identifier, malformed_fixture_is_rejected)
{
    char path[1024];
    ctg_list *list = (ctg_list *)1;
    ctg_error err;

    shared_path(path, sizeof(path), "identifierContingencyListTest.json");
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, path, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.code, CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.line, 17);
    CU_ASSERT_EQUAL(err.column, 22);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/2/identifierList/0/identifier");
    CU_ASSERT_STRING_EQUAL(err.message, "expected string for \"identifier\", got array");
}

/* ---- own fixtures ------------------------------------------------------------------------ */

static const struct {
    const char *input;
    const char *expected;
    const char *version;
} own_pairs[] = {
    { "valid/identifier-v1_0.json", "expected/identifier-v1_0.json", "1.0" },
    { "valid/identifier-v1_2-version-last.json", "expected/identifier-v1_2-version-last.json",
      "1.2" },
};

/* Hand-made pairs: legacy fields, fields in any order, foreign fields, duplicate types, the
 * version after the identifiers, nesting, non-ASCII and control characters. The expected
 * file, read again, writes itself. */
CTG_TEST(identifier, own_pairs_written_as_1_3)
{
    char in[512], out[512];

    for (size_t i = 0; i < sizeof(own_pairs) / sizeof(own_pairs[0]); i++) {
        size_t len;
        char *expect;
        ctg_list *list, *again;

        snprintf(in, sizeof(in), "%s/%s", CTG_TESTDATA_DIR, own_pairs[i].input);
        snprintf(out, sizeof(out), "%s/%s", CTG_TESTDATA_DIR, own_pairs[i].expected);
        expect = ctg_test_slurp(out, &len);
        list = read_path(in);
        again = read_path(out);
        CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        CU_ASSERT_PTR_NOT_NULL_FATAL(again);
        CU_ASSERT_STRING_EQUAL(ctg_list_version(list), own_pairs[i].version);
        CU_ASSERT(writes_as(list, expect, len, own_pairs[i].input));
        CU_ASSERT(writes_as(again, expect, len, own_pairs[i].expected));
        ctg_list_free(list);
        ctg_list_free(again);
        free(expect);
    }
}

CTG_TEST(identifier, own_pair_values)
{
    ctg_list *list = read_path(CTG_TESTDATA("valid/identifier-v1_2-version-last.json"));
    const ctg_identifier *ids, *inner;
    size_t count = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    ids = ctg_list_identifiers(list, &count);
    CU_ASSERT_EQUAL_FATAL(count, 3);
    CU_ASSERT_EQUAL_FATAL(ids[0].item_count, 2);
    inner = &ids[0].items[0];
    CU_ASSERT_EQUAL_FATAL(inner->item_count, 1);
    CU_ASSERT_STRING_EQUAL(inner->items[0].contingency_id, "inner");
    CU_ASSERT_STRING_EQUAL(inner->items[0].id, "tab\there");
    CU_ASSERT_EQUAL(ids[0].items[1].wildcard, 0x1F600);
    CU_ASSERT_STRING_EQUAL(ids[0].items[1].id, "\xF0\x9F\x98\x80" "A" "\xF0\x9F\x98\x80");
    CU_ASSERT_PTR_NULL(ids[1].contingency_id);
    CU_ASSERT_STRING_EQUAL(ids[1].id, "S1");
    CU_ASSERT_EQUAL(ids[1].type_count, 0);
    CU_ASSERT_PTR_NULL(ids[1].types);
    CU_ASSERT_PTR_NULL(ids[2].contingency_id);
    CU_ASSERT_STRING_EQUAL(ids[2].id, "\x01" "ctrl/\xC3\xA9");
    ctg_list_free(list);

    list = read_path(CTG_TESTDATA("valid/identifier-v1_0.json"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    ids = ctg_list_identifiers(list, &count);
    CU_ASSERT_EQUAL_FATAL(count, 6);
    for (size_t i = 0; i < count; i++)
        assert_only_kind_fields(&ids[i]);
    CU_ASSERT_EQUAL(ids[1].order, 0xE9);
    CU_ASSERT_EQUAL(ids[2].wildcard, '*');
    CU_ASSERT_EQUAL(ids[3].wildcard, '?');
    CU_ASSERT_PTR_NULL(ids[4].id);
    CU_ASSERT_EQUAL_FATAL(ids[4].type_count, 3);
    CU_ASSERT_EQUAL(ids[4].types[0], CTG_IDENTIFIABLE_LOAD);
    CU_ASSERT_EQUAL(ids[4].types[1], CTG_IDENTIFIABLE_GENERATOR);
    CU_ASSERT_EQUAL(ids[4].types[2], CTG_IDENTIFIABLE_BOUNDARY_LINE);
    CU_ASSERT_EQUAL(ids[5].kind, CTG_IDENTIFIER_LIST);
    CU_ASSERT_EQUAL(ids[5].item_count, 0);
    ctg_list_free(list);
}

/* ---- version rules ----------------------------------------------------------------------- */

static int read_versioned(const char *version_field, const char *list_field, const char *ident,
                          unsigned flags, ctg_error *err)
{
    char doc[512];
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    int rc;

    snprintf(doc, sizeof(doc), "{\"type\":\"identifier\",%s\"name\":\"l\",%s\"identifiers\":[%s]}",
             version_field, list_field, ident);
    opts.flags = flags;
    rc = ctg_list_read_buffer(&list, doc, strlen(doc), &opts, err);
    ctg_list_free(list);
    return rc;
}

#define WITH_CID "{\"type\":\"ID_BASED\",\"contingencyId\":\"c\",\"identifier\":\"x\"}"
#define WITH_NULL_CID "{\"type\":\"ID_BASED\",\"contingencyId\":null,\"identifier\":\"x\"}"
#define NESTED_CID "{\"type\":\"LIST\",\"identifierList\":[" WITH_CID "]}"
#define LEGACY "\"identifiableType\":\"LINE\","

/* contingencyId from 1.2 on (null too, nested too); identifiableType up to 1.0; compared as
 * PowSyBl compares versions ("1" is "1.0", "1.10" is after "1.9"). */
CTG_TEST(identifier, version_rules_at_each_version)
{
    static const struct {
        const char *version;
        int cid;    /* expected for a contingencyId */
        int legacy; /* expected for identifiableType */
    } rows[] = {
        { "\"version\":\"1.0\",", CTG_ESCHEMA, CTG_OK },
        { "\"version\":\"1\",", CTG_ESCHEMA, CTG_OK },
        { "\"version\":\"0.9\",", CTG_ESCHEMA, CTG_OK },
        { "\"version\":\"1.1\",", CTG_ESCHEMA, CTG_ESCHEMA },
        { "\"version\":\"1.2\",", CTG_OK, CTG_ESCHEMA },
        { "\"version\":\"1.2.0\",", CTG_OK, CTG_ESCHEMA },
        { "\"version\":\"1.3\",", CTG_OK, CTG_ESCHEMA },
        { "", CTG_ESCHEMA, CTG_ESCHEMA },
    };
    ctg_error err;

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        CU_ASSERT_EQUAL(read_versioned(rows[i].version, "", WITH_CID, 0, &err), rows[i].cid);
        CU_ASSERT_EQUAL(read_versioned(rows[i].version, "", WITH_NULL_CID, 0, &err),
                        rows[i].cid);
        CU_ASSERT_EQUAL(read_versioned(rows[i].version, "", NESTED_CID, 0, &err), rows[i].cid);
        CU_ASSERT_EQUAL(read_versioned(rows[i].version, LEGACY, "", 0, &err), rows[i].legacy);
        /* Without either, every version reads. */
        CU_ASSERT_EQUAL(read_versioned(rows[i].version, "", "", 0, &err), CTG_OK);
    }
    /* A newer version is refused, unless allowed; then contingencyId is fine. */
    CU_ASSERT_EQUAL(read_versioned("\"version\":\"1.10\",", "", WITH_CID, 0, &err),
                    CTG_EUNSUPPORTED);
    CU_ASSERT_EQUAL(read_versioned("\"version\":\"1.10\",", "", WITH_CID, CTG_READ_ALLOW_NEWER,
                                   &err), CTG_OK);
    CU_ASSERT_EQUAL(read_versioned("\"version\":\"1.10\",", LEGACY, "", CTG_READ_ALLOW_NEWER,
                                   &err), CTG_ESCHEMA);
    /* Any scalar is a legacy value. */
    CU_ASSERT_EQUAL(read_versioned("\"version\":\"1.0\",", "\"identifiableType\":7,", "", 0, &err),
                    CTG_OK);
    CU_ASSERT_EQUAL(read_versioned("\"version\":\"1.0\",", "\"identifiableType\":null,", "", 0,
                                   &err), CTG_OK);
    CU_ASSERT_EQUAL(read_versioned("\"version\":\"1.0\",", "\"identifiableType\":[],", "", 0,
                                   &err), CTG_ESCHEMA);
}

/* The version may come last: what came before it is judged by it. */
CTG_TEST(identifier, version_after_the_identifiers_is_honoured)
{
    static const char cid_doc[] = "{\"type\":\"identifier\",\"name\":\"l\",\"identifiers\":["
                                  NESTED_CID "],\"version\":\"1.2\"}";
    static const char legacy_doc[] = "{\"type\":\"identifier\",\"name\":\"l\","
                                     "\"identifiableType\":\"x\",\"identifiers\":[],"
                                     "\"version\":\"1.0\"}";
    static const char both_doc[] = "{\"type\":\"identifier\",\"name\":\"l\",\"identifiers\":["
                                   WITH_CID "],\"identifiableType\":\"x\",\"version\":\"1.0\"}";
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(read_doc(&list, cid_doc, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_list_version(list), "1.2");
    ctg_list_free(list);
    CU_ASSERT_EQUAL(read_doc(&list, legacy_doc, &err), CTG_OK);
    ctg_list_free(list);
    /* Both broken by a 1.0 that comes last: the first place in the input is reported. */
    CU_ASSERT_EQUAL(read_doc(&list, both_doc, &err), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, 83);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/0/contingencyId");
    CU_ASSERT_STRING_EQUAL(err.message, "\"contingencyId\" needs version 1.2 or later; the list "
                                        "has version 1.0");
}

/* ---- identifier rules -------------------------------------------------------------------- */

/* PowSyBl ignores fields of other kinds; they are still type-checked, and not kept. */
CTG_TEST(identifier, foreign_fields_are_checked_and_dropped)
{
    static const char *const docs[] = {
        DOC_HEAD("1.3") "{\"type\":\"ID_BASED\",\"identifier\":\"L1\",\"wildcard\":\"ab\","
        "\"identifierList\":[{\"type\":\"ID_BASED\",\"identifier\":\"x\"}],"
        "\"voltageLevelId1\":\"V\",\"order\":\"1\",\"substationOrVoltageLevelId\":null,"
        "\"voltageLevelIdentifiableTypes\":[\"LINE\"]}]}",
        /* The same with "type" last: the fields are kept until the kind is known. */
        DOC_HEAD("1.3") "{\"identifier\":\"L1\",\"wildcard\":\"ab\","
        "\"identifierList\":[{\"type\":\"ID_BASED\",\"identifier\":\"x\"}],"
        "\"voltageLevelId1\":\"V\",\"order\":\"1\",\"substationOrVoltageLevelId\":null,"
        "\"voltageLevelIdentifiableTypes\":[\"LINE\"],\"type\":\"ID_BASED\"}]}",
    };
    static const char expect[] = "{\n  \"type\" : \"identifier\",\n  \"version\" : \"1.3\",\n"
                                 "  \"name\" : \"l\",\n  \"identifiers\" : [ {\n"
                                 "    \"type\" : \"ID_BASED\",\n    \"identifier\" : \"L1\"\n"
                                 "  } ]\n}";
    ctg_list *list = NULL;
    ctg_error err;
    size_t count = 0;

    for (size_t i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL_FATAL(read_doc(&list, docs[i], &err), CTG_OK);
        const ctg_identifier *ids = ctg_list_identifiers(list, &count);
        CU_ASSERT_EQUAL_FATAL(count, 1);
        CU_ASSERT_STRING_EQUAL(ids[0].id, "L1");
        assert_only_kind_fields(&ids[0]);
        CU_ASSERT(writes_as(list, expect, sizeof(expect) - 1, "foreign fields"));
        ctg_list_free(list);
    }
    /* Type-checked all the same; "order" is judged wherever it stands, as PowSyBl does. */
    CU_ASSERT_EQUAL(read_doc(&list, DOC_HEAD("1.3") "{\"type\":\"ID_BASED\",\"identifier\":\"L\","
                                    "\"voltageLevelId1\":3}]}", &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.message, "expected string for \"voltageLevelId1\", got number");
    CU_ASSERT_EQUAL(read_doc(&list, DOC_HEAD("1.3") "{\"type\":\"ID_BASED\",\"identifier\":\"L\","
                                    "\"order\":\"12\"}]}", &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/0/order");
    CU_ASSERT_EQUAL(read_doc(&list, DOC_HEAD("1.3") "{\"type\":\"LIST\",\"identifier\":null}]}",
                             &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.message, "expected string for \"identifier\", got null");
}

CTG_TEST(identifier, types_collapse_in_read_order)
{
    static const char doc[] = DOC_HEAD("1.3")
        "{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\",\"contingencyId\":\"other\","
        "\"substationOrVoltageLevelId\":\"VL1\",\"voltageLevelIdentifiableTypes\":[\"LOAD\","
        "\"LINE\",\"LOAD\",\"GENERATOR\",\"LINE\",\"DC_BUS\",\"NETWORK\"]}]}";
    static const char expect[] =
        "{\n  \"type\" : \"identifier\",\n  \"version\" : \"1.3\",\n  \"name\" : \"l\",\n"
        "  \"identifiers\" : [ {\n"
        "    \"type\" : \"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\",\n"
        "    \"contingencyId\" : \"VL1\",\n"
        "    \"substationOrVoltageLevelId\" : \"VL1\",\n"
        "    \"voltageLevelIdentifiableTypes\" : [ \"LOAD\", \"LINE\", \"GENERATOR\", \"DC_BUS\", "
        "\"NETWORK\" ]\n  } ]\n}";
    ctg_list *list = NULL;
    ctg_error err;
    size_t count;

    CU_ASSERT_EQUAL_FATAL(read_doc(&list, doc, &err), CTG_OK);
    const ctg_identifier *ids = ctg_list_identifiers(list, &count);
    CU_ASSERT_EQUAL_FATAL(ids[0].type_count, 5);
    CU_ASSERT_EQUAL(ids[0].types[0], CTG_IDENTIFIABLE_LOAD);
    CU_ASSERT_EQUAL(ids[0].types[1], CTG_IDENTIFIABLE_LINE);
    CU_ASSERT_EQUAL(ids[0].types[2], CTG_IDENTIFIABLE_GENERATOR);
    CU_ASSERT_EQUAL(ids[0].types[3], CTG_IDENTIFIABLE_DC_BUS);
    CU_ASSERT_EQUAL(ids[0].types[4], CTG_IDENTIFIABLE_NETWORK);
    CU_ASSERT(writes_as(list, expect, sizeof(expect) - 1, "types"));
    ctg_list_free(list);
}

CTG_TEST(identifier, wildcard_rules)
{
    static const struct {
        const char *ident;
        int rc;
    } rows[] = {
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"?\"}", CTG_OK },
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"?????\"}", CTG_OK },
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"??????\"}", CTG_ESCHEMA },
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"abc\"}", CTG_ESCHEMA },
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"a?\",\"wildcard\":null}", CTG_OK },
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"a?\",\"wildcard\":\"*\"}", CTG_ESCHEMA },
        /* One code point, even outside the BMP (two UTF-16 units). */
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"a\\ud83d\\ude00\","
          "\"wildcard\":\"\\ud83d\\ude00\"}", CTG_OK },
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"a\\u00e9\\u0301\","
          "\"wildcard\":\"\\u00e9\\u0301\"}", CTG_ESCHEMA },
        { "{\"type\":\"ID_WITH_WILDCARDS\",\"wildcard\":\"?\"}", CTG_ESCHEMA },
        { "{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":\"a\","
          "\"voltageLevelId2\":\"b\",\"order\":\"\\uffff\"}", CTG_OK },
        { "{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":\"a\","
          "\"voltageLevelId2\":\"b\",\"order\":\"\"}", CTG_ESCHEMA },
    };
    char doc[512];
    ctg_list *list = NULL;
    ctg_error err;

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        snprintf(doc, sizeof(doc), DOC_HEAD("1.3") "%s]}", rows[i].ident);
        int rc = read_doc(&list, doc, &err);
        if (rc != rows[i].rc)
            fprintf(stderr, "\n  row %zu: got %s (%s)\n", i, ctg_status_name(rc), err.message);
        CU_ASSERT_EQUAL(rc, rows[i].rc);
        ctg_list_free(rc == CTG_OK ? list : NULL);
    }
}

/* One LIST per level, `levels` deep, around one ID_BASED. */
static char *deep_doc(size_t levels, size_t *inner_offset)
{
    static const char head[] = DOC_HEAD("1.3");
    static const char open[] = "{\"type\":\"LIST\",\"identifierList\":[";
    static const char leaf[] = "{\"type\":\"ID_BASED\",\"identifier\":\"x\"}";
    char *doc = malloc(sizeof(head) + levels * (sizeof(open) + 2) + sizeof(leaf) + 4);
    size_t len = 0;

    memcpy(doc, head, sizeof(head) - 1);
    len += sizeof(head) - 1;
    for (size_t i = 0; i < levels; i++, len += sizeof(open) - 1)
        memcpy(doc + len, open, sizeof(open) - 1);
    *inner_offset = len;
    memcpy(doc + len, leaf, sizeof(leaf) - 1);
    len += sizeof(leaf) - 1;
    for (size_t i = 0; i < levels; i++, len += 2)
        memcpy(doc + len, "]}", 2);
    memcpy(doc + len, "]}", 3);
    return doc;
}

/* Nesting is bounded by what can be written back (256 levels of JSON), whatever max_depth
 * allows; at the bound the list round-trips. */
CTG_TEST(identifier, nesting_limit)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL, *again = NULL;
    ctg_error err;
    size_t inner, len = 0;
    char *doc = deep_doc(127, &inner), *out;

    opts.max_depth = 1000;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, strlen(doc), &opts, &err), CTG_ELIMIT);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, inner + 1);
    CU_ASSERT_NSTRING_EQUAL(err.path, "/identifiers/0/identifierList/0/identifierList/0", 48);
    CU_ASSERT_STRING_EQUAL(err.message, "identifiers nested deeper than 255 levels of JSON");
    free(doc);

    doc = deep_doc(126, &inner);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, strlen(doc), &opts, &err), CTG_OK);
    out = emit_list(list, true, &len, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(len, strlen(doc));
    CU_ASSERT(memcmp(out, doc, len) == 0);
    free(out);
    out = emit_list(list, false, &len, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&again, out, len, &opts, &err), CTG_OK);
    CU_ASSERT(writes_as(again, out, len, "deep"));
    ctg_list_free(again);
    ctg_list_free(list);
    free(out);
    free(doc);
}

/* An identifier list inside a `list` list: it has its own version; one without cannot use
 * the gated fields (PowSyBl would use the version of the identifier list read before it). */
CTG_TEST(identifier, nested_in_a_list_of_lists)
{
    static const char doc[] =
        "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"all\",\"contingencyLists\":["
        "{\"type\":\"identifier\",\"version\":\"1.0\",\"name\":\"a\",\"identifiableType\":\"x\","
        "\"identifiers\":[]},"
        "{\"type\":\"identifier\",\"name\":\"b\",\"identifiers\":[],\"version\":\"1.2\"},"
        "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"c\",\"identifiers\":[" WITH_CID
        "]}]}";
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(read_doc(&list, doc, &err), CTG_OK);
    ctg_list_free(list);
}

/* ---- builders ---------------------------------------------------------------------------- */

static const ctg_identifier built_inner[2] = {
    { .kind = CTG_IDENTIFIER_ID_BASED, .id = "L1" },
    { .kind = CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER, .voltage_level_id1 = "VL1",
      .voltage_level_id2 = "VL2", .order = 0xE9 },
};
static const ctg_identifiable_type built_types[3] = {
    CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER, CTG_IDENTIFIABLE_LINE
};
static const ctg_identifier built[6] = {
    { .kind = CTG_IDENTIFIER_ID_BASED, .contingency_id = "c1", .id = "a\x01" "b",
      .voltage_level_id1 = "dropped: not this kind's" },
    { .kind = CTG_IDENTIFIER_LIST, .contingency_id = "group", .items = built_inner,
      .item_count = 2 },
    { .kind = CTG_IDENTIFIER_ID_WITH_WILDCARDS, .id = "G?" }, /* the default wildcard */
    { .kind = CTG_IDENTIFIER_ID_WITH_WILDCARDS, .id = "X\xF0\x9F\x98\x80", .wildcard = 0x1F600 },
    { .kind = CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS, .contingency_id = "ignored",
      .id = "S1", .types = built_types, .type_count = 3 },
    { .kind = CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS },
};
static const char built_json[] =
    "{\n"
    "  \"type\" : \"identifier\",\n"
    "  \"version\" : \"1.3\",\n"
    "  \"name\" : \"built\",\n"
    "  \"identifiers\" : [ {\n"
    "    \"type\" : \"ID_BASED\",\n"
    "    \"contingencyId\" : \"c1\",\n"
    "    \"identifier\" : \"a\\u0001b\"\n"
    "  }, {\n"
    "    \"type\" : \"LIST\",\n"
    "    \"contingencyId\" : \"group\",\n"
    "    \"identifierList\" : [ {\n"
    "      \"type\" : \"ID_BASED\",\n"
    "      \"identifier\" : \"L1\"\n"
    "    }, {\n"
    "      \"type\" : \"VOLTAGE_LEVELS_AND_ORDER\",\n"
    "      \"voltageLevelId1\" : \"VL1\",\n"
    "      \"voltageLevelId2\" : \"VL2\",\n"
    "      \"order\" : \"\xC3\xA9\"\n"
    "    } ]\n"
    "  }, {\n"
    "    \"type\" : \"ID_WITH_WILDCARDS\",\n"
    "    \"identifier\" : \"G?\",\n"
    "    \"wildcard\" : \"?\"\n"
    "  }, {\n"
    "    \"type\" : \"ID_WITH_WILDCARDS\",\n"
    "    \"identifier\" : \"X\xF0\x9F\x98\x80\",\n"
    "    \"wildcard\" : \"\xF0\x9F\x98\x80\"\n"
    "  }, {\n"
    "    \"type\" : \"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\",\n"
    "    \"contingencyId\" : \"S1\",\n"
    "    \"substationOrVoltageLevelId\" : \"S1\",\n"
    "    \"voltageLevelIdentifiableTypes\" : [ \"LINE\", \"TWO_WINDINGS_TRANSFORMER\" ]\n"
    "  }, {\n"
    "    \"type\" : \"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\",\n"
    "    \"substationOrVoltageLevelId\" : null,\n"
    "    \"voltageLevelIdentifiableTypes\" : [ ]\n"
    "  } ]\n"
    "}";

CTG_TEST(identifier, builders_write_exact_bytes)
{
    static const char empty_json[] = "{\n  \"type\" : \"identifier\",\n  \"version\" : \"1.3\",\n"
                                     "  \"name\" : \"empty\",\n  \"identifiers\" : [ ]\n}";
    ctg_list *list = NULL, *again = NULL;
    size_t count = 0;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_IDENTIFIER, "empty", NULL), CTG_OK);
    CU_ASSERT_PTR_NULL(ctg_list_identifiers(list, &count));
    CU_ASSERT_EQUAL(count, 0);
    CU_ASSERT(writes_as(list, empty_json, sizeof(empty_json) - 1, "empty"));
    ctg_list_free(list);

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_IDENTIFIER, "built", NULL), CTG_OK);
    for (size_t i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(ctg_list_add_identifier(list, &built[i]), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL(ctg_list_identifiers(list, &count));
    CU_ASSERT_EQUAL(count, 6);
    CU_ASSERT(writes_as(list, built_json, sizeof(built_json) - 1, "built"));
    /* And it reads back to the same bytes. */
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&again, built_json, sizeof(built_json) - 1, NULL, NULL),
                    CTG_OK);
    CU_ASSERT(again != NULL && writes_as(again, built_json, sizeof(built_json) - 1, "again"));
    ctg_list_free(again);
    ctg_list_free(list);
}

/* The list owns deep copies, normalised as the reader leaves them. */
CTG_TEST(identifier, builder_copies_deeply)
{
    char id[8] = "X1", vl[8] = "VL9";
    ctg_identifier item = { .kind = CTG_IDENTIFIER_ID_BASED, .id = id };
    ctg_identifier outer = { .kind = CTG_IDENTIFIER_LIST, .items = &item, .item_count = 1,
                             .voltage_level_id1 = vl, .order = 'x' };
    ctg_identifiable_type types[2] = { CTG_IDENTIFIABLE_LOAD, CTG_IDENTIFIABLE_LOAD };
    ctg_identifier sub = { .kind = CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS,
                           .contingency_id = "c", .id = id, .types = types, .type_count = 2 };
    ctg_list *list = NULL;
    const ctg_identifier *ids;
    size_t count;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_IDENTIFIER, "l", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_identifier(list, &outer), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_identifier(list, &sub), CTG_OK);
    memcpy(id, "ZZ", 3);
    types[0] = CTG_IDENTIFIABLE_BUS;
    item.kind = CTG_IDENTIFIER_LIST;
    ids = ctg_list_identifiers(list, &count);
    CU_ASSERT_EQUAL_FATAL(count, 2);
    CU_ASSERT(ids[0].items != &item);
    CU_ASSERT_EQUAL(ids[0].items[0].kind, CTG_IDENTIFIER_ID_BASED);
    CU_ASSERT_STRING_EQUAL(ids[0].items[0].id, "X1");
    assert_only_kind_fields(&ids[0]);
    CU_ASSERT_PTR_NULL(ids[1].contingency_id);
    CU_ASSERT_STRING_EQUAL(ids[1].id, "X1");
    CU_ASSERT_EQUAL_FATAL(ids[1].type_count, 1);
    CU_ASSERT_EQUAL(ids[1].types[0], CTG_IDENTIFIABLE_LOAD);
    ctg_list_free(list);
}

static ctg_identifier *nest(ctg_identifier *levels, size_t depth)
{
    memset(&levels[depth], 0, sizeof(levels[depth]));
    levels[depth].kind = CTG_IDENTIFIER_ID_BASED;
    levels[depth].id = "leaf";
    for (size_t i = depth; i-- > 0;) {
        memset(&levels[i], 0, sizeof(levels[i]));
        levels[i].kind = CTG_IDENTIFIER_LIST;
        levels[i].items = &levels[i + 1];
        levels[i].item_count = 1;
    }
    return levels;
}

CTG_TEST(identifier, builder_rejects_rule_violations)
{
    static const ctg_identifiable_type bad_type[1] = { CTG_IDENTIFIABLE_TYPE_COUNT };
    const ctg_identifier bad[] = {
        { .kind = CTG_IDENTIFIER_ID_BASED },
        { .kind = CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER, .voltage_level_id1 = "a",
          .voltage_level_id2 = "b" }, /* order 0: PowSyBl's "absent", refused */
        { .kind = CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER, .voltage_level_id1 = "a",
          .voltage_level_id2 = "b", .order = 0x1F600 },
        { .kind = CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER, .voltage_level_id1 = "a",
          .voltage_level_id2 = "b", .order = 0xD800 },
        { .kind = CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER, .voltage_level_id1 = "a",
          .order = '1' },
        { .kind = CTG_IDENTIFIER_LIST, .item_count = 1 },
        { .kind = CTG_IDENTIFIER_LIST, .items = bad, .item_count = 1 },
        { .kind = CTG_IDENTIFIER_ID_WITH_WILDCARDS, .id = "abc" },
        { .kind = CTG_IDENTIFIER_ID_WITH_WILDCARDS, .id = "??????" },
        { .kind = CTG_IDENTIFIER_ID_WITH_WILDCARDS, .id = "a?", .wildcard = 0xD800 },
        { .kind = CTG_IDENTIFIER_ID_WITH_WILDCARDS, .id = "a?", .wildcard = 0x110000 },
        { .kind = CTG_IDENTIFIER_ID_WITH_WILDCARDS },
        { .kind = CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS, .type_count = 1 },
        { .kind = CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS, .types = bad_type,
          .type_count = 1 },
        { .kind = CTG_IDENTIFIER_KIND_COUNT, .id = "x" },
    };
    ctg_identifier ok = { .kind = CTG_IDENTIFIER_ID_BASED, .id = "x" };
    ctg_identifier levels[130];
    ctg_list *list = NULL, *other = NULL;
    size_t count = 9;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_IDENTIFIER, "l", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_identifier(list, &ok), CTG_OK);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int rc = ctg_list_add_identifier(list, &bad[i]);
        if (rc != CTG_EINVAL)
            fprintf(stderr, "\n  bad[%zu] accepted\n", i);
        CU_ASSERT_EQUAL(rc, CTG_EINVAL);
    }
    CU_ASSERT_EQUAL(ctg_list_add_identifier(list, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_identifier(NULL, &ok), CTG_EINVAL);
    /* 126 LIST levels fit the writer; 127 do not. */
    CU_ASSERT_EQUAL(ctg_list_add_identifier(list, nest(levels, 126)), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_identifier(list, nest(levels, 127)), CTG_EINVAL);
    ctg_list_identifiers(list, &count);
    CU_ASSERT_EQUAL(count, 2);
    CU_ASSERT_EQUAL(ctg_list_new(&other, CTG_LIST_DEFAULT, "d", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_identifier(other, &ok), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(ctg_list_identifiers(other, &count));
    CU_ASSERT_EQUAL(count, 0);
    CU_ASSERT_PTR_NULL(ctg_list_identifiers(NULL, &count));
    CU_ASSERT_EQUAL(count, 0);
    /* The writer refuses what is not an identifier list, and emits nothing. */
    CU_ASSERT_PTR_NULL(emit_list(other, false, &count, NULL));
    ctg_list_free(other);
    ctg_list_free(list);
}

/* Adding to a list that was read: the reader's array is copied on the first growth. */
CTG_TEST(identifier, builder_extends_a_read_list)
{
    static const char end[] = "  } ]\n}";
    static const char item[] = "  }, {\n    \"type\" : \"ID_BASED\",\n    \"identifier\" : \"L9\"\n";
    ctg_list *list = read_path(CTG_TESTDATA("expected/identifier-v1_0.json"));
    ctg_identifier extra = { .kind = CTG_IDENTIFIER_ID_BASED, .id = "L9" };
    size_t len, count;
    char *expect = ctg_test_slurp(CTG_TESTDATA("expected/identifier-v1_0.json"), &len);
    char *want;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
    for (int i = 0; i < 20; i++)
        CU_ASSERT_EQUAL(ctg_list_add_identifier(list, &extra), CTG_OK);
    ctg_list_identifiers(list, &count);
    CU_ASSERT_EQUAL(count, 26);
    /* The file without its closing "  } ]\n}", twenty more items, then the closing. */
    want = malloc(len + 20 * sizeof(item));
    len -= sizeof(end) - 1;
    CU_ASSERT_STRING_EQUAL(expect + len, end);
    memcpy(want, expect, len);
    for (int i = 0; i < 20; i++, len += sizeof(item) - 1)
        memcpy(want + len, item, sizeof(item) - 1);
    memcpy(want + len, end, sizeof(end) - 1);
    len += sizeof(end) - 1;
    CU_ASSERT(writes_as(list, want, len, "extended"));
    free(want);
    free(expect);
    ctg_list_free(list);
}

/* ---- memory ------------------------------------------------------------------------------ */

/* One build with the fail_at-th allocator call failing, on a list made by ctg_list_new, or
 * read from an empty document into an exact arena (one allocator call per request, so that
 * every copy the builder makes can be made to fail). Returns whether that call was made. */
static bool build_once(size_t fail_at, bool exact)
{
    static const char empty[] = DOC_HEAD("1.3") "]}";
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    size_t count = 0, before, len;
    int rc;
    char *out;

    st.fail_at = fail_at;
    opts.allocator = &a;
    rc = exact ? ctg_list_read_buffer_ex(&list, empty, sizeof(empty) - 1, &opts, NULL,
                                         CTG_ARENA_EXACT)
               : ctg_list_new(&list, CTG_LIST_IDENTIFIER, "built", &a);
    if (rc != CTG_OK) {
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_PTR_NULL(list);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        return st.failed;
    }
    for (size_t i = 0; i < 6; i++) {
        ctg_list_identifiers(list, &before);
        rc = ctg_list_add_identifier(list, &built[i]);
        ctg_list_identifiers(list, &count);
        CU_ASSERT(rc == CTG_OK || rc == CTG_ENOMEM);
        CU_ASSERT_EQUAL(count, rc == CTG_OK ? before + 1 : before);
    }
    out = emit_list(list, false, &len, NULL); /* what it kept is whole */
    CU_ASSERT_PTR_NOT_NULL(out);
    if (!st.failed)
        CU_ASSERT(out != NULL && strstr(out, "\"identifiers\" : [ {") != NULL && count == 6);
    free(out);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    return st.failed;
}

/* The six builds cost one allocation per copied string or array, one for the growth of the
 * list's array (to 8), and nothing for what is absent. */
CTG_TEST(identifier, builder_allocations_are_exact)
{
    static const char empty[] = DOC_HEAD("1.3") "]}";
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    size_t before;

    opts.allocator = &a;
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer_ex(&list, empty, sizeof(empty) - 1, &opts, NULL,
                                                  CTG_ARENA_EXACT), CTG_OK);
    before = st.calls;
    for (size_t i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(ctg_list_add_identifier(list, &built[i]), CTG_OK);
    /* array 1; "c1", "a\x01b" 2; "group", items, "L1", "VL1", "VL2" 5; "G?" 1; "X.." 1;
     * types, "S1" 2; the empty one 0. */
    CU_ASSERT_EQUAL(st.calls - before, 12);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
}

/* Out of memory at any allocation of a build: the add fails with CTG_ENOMEM, the list keeps
 * what it had (and still writes), and nothing leaks. */
CTG_TEST(identifier, builder_out_of_memory_leaves_the_list_unchanged)
{
    size_t n = 1;

    while (build_once(n, true) && n < 10000)
        n++;
    /* The read of the empty list, then at least one call per string, array and growth. */
    CU_ASSERT(n > 13 && n < 10000);
    n = 1;
    while (build_once(n, false) && n < 10000)
        n++;
    CU_ASSERT(n > 1 && n < 10000);
}

/* Every kind, nested lists, a type set, and the version last. */
#define SWEEP_BODY \
    "\"identifiers\":[" \
    "{\"type\":\"ID_BASED\",\"contingencyId\":\"c1\",\"identifier\":\"L1\"}," \
    "{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\",\"voltageLevelId1\":\"V1\",\"voltageLevelId2\":\"V2\"," \
    "\"order\":\"1\"}," \
    "{\"type\":\"LIST\",\"identifierList\":[{\"type\":\"LIST\",\"identifierList\":[" \
    "{\"type\":\"ID_BASED\",\"identifier\":\"deep\"}]},{\"type\":\"ID_WITH_WILDCARDS\"," \
    "\"identifier\":\"a\\u00e9?\"}]}," \
    "{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\",\"substationOrVoltageLevelId\":\"S\"," \
    "\"voltageLevelIdentifiableTypes\":[\"LINE\",\"LOAD\",\"LINE\"]}],"
static const char sweep_doc[] =
    "{\"type\":\"identifier\",\"name\":\"sweep\"," SWEEP_BODY "\"version\":\"1.2\"}";
/* The same at 1.0 with the legacy field: the deferred contingencyId is refused at the end. */
static const char sweep_bad_doc[] =
    "{\"type\":\"identifier\",\"name\":\"sweep\",\"identifiableType\":null," SWEEP_BODY
    "\"version\":\"1.0\"}";

static size_t sweep(const char *doc, unsigned arena_flags, int expect_ok)
{
    ctg_test_sweep_spec how = { arena_flags, false, NULL, expect_ok ? CTG_OK : CTG_ESCHEMA,
                                NULL, NULL };

    return ctg_test_sweep(doc, strlen(doc), &how);
}

CTG_TEST(identifier, allocation_failure_sweep)
{
    CU_ASSERT(sweep(sweep_doc, CTG_ARENA_EXACT, 1) > 15);
    CU_ASSERT(sweep(sweep_doc, 0, 1) > 2);
    CU_ASSERT(sweep(sweep_bad_doc, CTG_ARENA_EXACT, 0) > 15);
}

/* Allocator calls of one read in exact-arena mode; `item` is a printf format of one
 * identifier with a %zu. */
static size_t calls_for(size_t n, const char *item)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    char doc[4096];
    size_t len = (size_t)snprintf(doc, sizeof(doc), DOC_HEAD("1.3"));

    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            doc[len++] = ',';
        len += (size_t)snprintf(doc + len, sizeof(doc) - len, item, i);
    }
    len += (size_t)snprintf(doc + len, sizeof(doc) - len, "]}");
    opts.allocator = &a;
    CU_ASSERT_EQUAL(ctg_list_read_buffer_ex(&list, doc, len, &opts, NULL, CTG_ARENA_EXACT),
                    CTG_OK);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    return st.allocs;
}

/* An identifier costs its strings and nothing more: an absent contingencyId, wildcard or
 * type set allocates nothing; a present contingencyId adds exactly its string. */
CTG_TEST(identifier, absent_optional_fields_allocate_nothing)
{
    static const char plain[] = "{\"type\":\"ID_BASED\",\"identifier\":\"L%zu\"}";
    static const char with_cid[] = "{\"type\":\"ID_BASED\",\"contingencyId\":\"c\","
                                   "\"identifier\":\"L%zu\"}";
    static const char null_cid[] = "{\"type\":\"ID_BASED\",\"contingencyId\":null,"
                                   "\"identifier\":\"L%zu\"}";
    static const char wild[] = "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"L%zu?\"}";
    static const char sub[] = "{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\","
                              "\"substationOrVoltageLevelId\":\"S%zu\"}";
    size_t four = calls_for(4, plain), eight = calls_for(8, plain);

    CU_ASSERT_EQUAL(eight - four, 4 * 1);
    CU_ASSERT_EQUAL(calls_for(8, with_cid) - eight, 8 * 1);
    CU_ASSERT_EQUAL(calls_for(8, null_cid), eight);
    CU_ASSERT_EQUAL(calls_for(8, wild), eight);
    CU_ASSERT_EQUAL(calls_for(8, sub), eight);
}

/* ---- streaming ---------------------------------------------------------------------------- */

static int count_identifiers(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    size_t count = 0;

    CU_ASSERT_EQUAL(h->kind, CTG_LIST_IDENTIFIER);
    CU_ASSERT_STRING_EQUAL(h->version, "1.0");
    ctg_list_identifiers(list, &count);
    *(size_t *)payload += count;
    return 0;
}

/* A stream read hands an identifier list over whole, rules applied. */
CTG_TEST(identifier, stream_read_delivers_the_whole_list)
{
    size_t seen = 0;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .list = count_identifiers, .payload = &seen };
    ctg_source src = ctg_source_path(CTG_TESTDATA("valid/identifier-v1_0.json"));
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(seen, 6);
    seen = 0;
    src = ctg_source_path(CTG_TESTDATA("invalid/identifier-wildcard-count-6.json"));
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(seen, 0);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/0/identifier");
}

/* ---- public write path ------------------------------------------------------------------- */

/* ctg_list_write_buf reaches the identifier writer (through the kind dispatcher). */
CTG_TEST(identifier, public_write_api)
{
    ctg_list *list = read_path(CTG_TESTDATA("valid/identifier-v1_0.json"));
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    size_t len;
    char *expect = ctg_test_slurp(CTG_TESTDATA("expected/identifier-v1_0.json"), &len);

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(buf.len, len);
    CU_ASSERT(buf.data != NULL && memcmp(buf.data, expect, len) == 0);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
    free(expect);
}

#include "test_identifier.tests.h"
