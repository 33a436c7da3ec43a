/* SPDX-License-Identifier: MPL-2.0 */
/* Reading `default` lists: what lands in the structs, for well-formed input. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "base/arena.h"
#include "format/root.h"
#include "format/scope.h"
#include "json/reader.h"
#include "model/list_impl.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

static ctg_list *read_ok(const char *doc, const ctg_read_options *opts)
{
    ctg_list *list = NULL;
    ctg_error err;
    int rc = ctg_list_read_buffer(&list, doc, strlen(doc), opts, &err);

    if (rc != CTG_OK) {
        char line[512];
        ctg_error_format(&err, line, sizeof(line));
        fprintf(stderr, "\n  unexpected failure: %s\n", line);
    }
    CU_ASSERT_EQUAL(rc, CTG_OK);
    return list;
}

static const char sample[] =
    "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"N-1\",\n"
    "  \"contingencies\" : [ {\n    \"id\" : \"c1\",\n    \"name\" : \"first\",\n"
    "    \"elements\" : [ {\n      \"id\" : \"L1\",\n      \"type\" : \"LINE\",\n"
    "      \"voltageLevelId\" : \"VL1\"\n    }, {\n      \"id\" : \"G1\",\n"
    "      \"type\" : \"GENERATOR\"\n    } ]\n  }, {\n    \"id\" : \"c2\",\n"
    "    \"elements\" : [ ]\n  } ]\n}";

CTG_TEST(reader, reads_every_field)
{
    ctg_list *list = read_ok(sample, NULL);
    const ctg_contingency *c;
    size_t n = 0;

    CU_ASSERT_FATAL(list != NULL);
    CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_DEFAULT);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "N-1");
    CU_ASSERT_STRING_EQUAL(ctg_list_version(list), "1.1");
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 2);
    c = ctg_list_contingencies(list, &n);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_STRING_EQUAL(c[0].id, "c1");
    CU_ASSERT_STRING_EQUAL(c[0].name, "first");
    CU_ASSERT_EQUAL(c[0].element_count, 2);
    CU_ASSERT_STRING_EQUAL(c[0].elements[0].id, "L1");
    CU_ASSERT_EQUAL(c[0].elements[0].type, CTG_ELEMENT_LINE);
    CU_ASSERT_STRING_EQUAL(c[0].elements[0].voltage_level_id, "VL1");
    CU_ASSERT_STRING_EQUAL(c[0].elements[1].id, "G1");
    CU_ASSERT_EQUAL(c[0].elements[1].type, CTG_ELEMENT_GENERATOR);
    CU_ASSERT_PTR_NULL(c[0].elements[1].voltage_level_id);
    CU_ASSERT_EQUAL(c[0].extension_count, 0);
    CU_ASSERT_STRING_EQUAL(c[1].id, "c2");
    CU_ASSERT_PTR_NULL(c[1].name);
    CU_ASSERT_EQUAL(c[1].element_count, 0);
    CU_ASSERT_PTR_NULL(c[1].elements);
    CU_ASSERT_PTR_EQUAL(ctg_list_contingency_at(list, 1), &c[1]);
    CU_ASSERT_PTR_NULL(ctg_list_contingency_at(list, 2));
    ctg_list_free(list);
}

/* PowSyBl keeps a side only for these five types; elsewhere it is dropped silently. */
CTG_TEST(reader, side_kept_only_where_powsybl_reads_it)
{
    static const char *const types[] = { "BRANCH", "HVDC_LINE", "LINE",
                                         "TWO_WINDINGS_TRANSFORMER", "TIE_LINE", "LOAD",
                                         "DC_LINE", "GENERATOR", "SWITCH" };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        char doc[256];
        ctg_list *list;

        snprintf(doc, sizeof(doc),
                 "{\"type\":\"default\",\"name\":\"l\",\"contingencies\":[{\"id\":\"c\","
                 "\"elements\":[{\"voltageLevelId\":\"VL\",\"id\":\"e\",\"type\":\"%s\"}]}]}",
                 types[i]);
        list = read_ok(doc, NULL);
        CU_ASSERT_FATAL(list != NULL);
        const ctg_element *el = &ctg_list_contingency_at(list, 0)->elements[0];
        if (i < 5) {
            CU_ASSERT_STRING_EQUAL(el->voltage_level_id, "VL");
        } else {
            CU_ASSERT_PTR_NULL(el->voltage_level_id);
        }
        ctg_list_free(list);
    }
}

/* CTG_READ_KEEP_SIDES keeps the side PowSyBl would drop, on every type, for a lint to flag;
 * writing the list leaves out the sides of the types that take none, as PowSyBl writes. */
CTG_TEST(reader, keep_sides_keeps_every_side)
{
    static const char *const types[] = { "LINE", "LOAD", "DC_LINE", "GENERATOR", "SWITCH" };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;

    opts.flags = CTG_READ_KEEP_SIDES;
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        char doc[256], want[256];
        ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
        ctg_buf out = CTG_BUF_INIT;
        ctg_list *list;

        snprintf(doc, sizeof(doc),
                 "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"l\","
                 "\"contingencies\":[{\"id\":\"c\",\"elements\":[{\"id\":\"e\","
                 "\"type\":\"%s\",\"voltageLevelId\":\"VL\"}]}]}",
                 types[i]);
        list = read_ok(doc, &opts);
        CU_ASSERT_FATAL(list != NULL);
        CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->elements[0].voltage_level_id,
                               "VL");
        wopts.flags = CTG_WRITE_COMPACT;
        CU_ASSERT_EQUAL(ctg_list_write_buf(&out, list, &wopts, NULL), CTG_OK);
        snprintf(want, sizeof(want),
                 "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"l\","
                 "\"contingencies\":[{\"id\":\"c\",\"elements\":[{\"id\":\"e\","
                 "\"type\":\"%s\"%s}]}]}",
                 types[i], i < 3 && i != 1 ? ",\"voltageLevelId\":\"VL\"" : "");
        CU_ASSERT_EQUAL(out.len, strlen(want));
        CU_ASSERT(out.len == strlen(want) && memcmp(out.data, want, out.len) == 0);
        ctg_buf_dispose(&out);
        ctg_list_free(list);
    }
}

/* Fields come in any order; "version" after "contingencies" still gates the elements. */
CTG_TEST(reader, fields_in_any_order)
{
    static const char doc[] =
        "{\"contingencies\":[{\"elements\":[{\"type\":\"DANGLING_LINE\",\"id\":\"DL\"}],"
        "\"id\":\"c\"}],\"name\":\"l\",\"version\":\"1.0\",\"type\":\"default\"}";
    ctg_list *list = read_ok(doc, NULL);

    CU_ASSERT_FATAL(list != NULL);
    CU_ASSERT_STRING_EQUAL(ctg_list_version(list), "1.0");
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->elements[0].type,
                    CTG_ELEMENT_BOUNDARY_LINE);
    ctg_list_free(list);
}

/* Files from before "type" existed are `default` lists when they have "contingencies". */
CTG_TEST(reader, legacy_file_without_type)
{
    ctg_list *list = read_ok("{\"version\":\"1.0\",\"name\":\"old\",\"contingencies\":[]}", NULL);

    CU_ASSERT_FATAL(list != NULL);
    CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_DEFAULT);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 0);
    ctg_list_free(list);
}

CTG_TEST(reader, absent_and_null_optionals)
{
    ctg_list *list = read_ok("{\"type\":\"default\",\"name\":\"\",\"contingencies\":[{\"id\":\"c\","
                             "\"name\":null,\"elements\":[{\"id\":\"L\",\"type\":\"LINE\","
                             "\"voltageLevelId\":null}]}]}",
                             NULL);
    const ctg_contingency *c;

    CU_ASSERT_FATAL(list != NULL);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "");
    CU_ASSERT_PTR_NULL(ctg_list_version(list));
    c = ctg_list_contingency_at(list, 0);
    CU_ASSERT_PTR_NULL(c->name);
    CU_ASSERT_PTR_NULL(c->elements[0].voltage_level_id);
    ctg_list_free(list);

    list = read_ok("{\"type\":\"default\",\"name\":\"l\"}", NULL);
    CU_ASSERT_FATAL(list != NULL);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 0);
    CU_ASSERT_PTR_NULL(ctg_list_contingencies(list, NULL));
    ctg_list_free(list);
}

CTG_TEST(reader, escapes_and_bom)
{
    ctg_list *list = read_ok("\xEF\xBB\xBF{\"type\":\"default\",\"name\":\"a\\\"b\\u00e9\\ud83d\\ude00"
                             "\",\"contingencies\":[{\"id\":\"\xC3\xA9t\xC3\xA9\"}]}",
                             NULL);

    CU_ASSERT_FATAL(list != NULL);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "a\"b\xC3\xA9\xF0\x9F\x98\x80");
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->id, "\xC3\xA9t\xC3\xA9");
    ctg_list_free(list);
}

CTG_TEST(reader, newer_version_allowed_by_option)
{
    static const char doc[] = "{\"type\":\"default\",\"version\":\"1.2\",\"name\":\"l\"}";
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof(doc) - 1, NULL, &err),
                    CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.message, "version 1.2 is newer than 1.1, the newest this library "
                                        "reads for \"default\" lists");
    opts.flags = CTG_READ_ALLOW_NEWER;
    list = read_ok(doc, &opts);
    CU_ASSERT_PTR_NOT_NULL(list);
    ctg_list_free(list);
    /* "1.10" is newer than "1.1" part by part, and "1.1.0" equals it. */
    list = read_ok("{\"type\":\"default\",\"version\":\"1.1.0\",\"name\":\"l\"}", NULL);
    CU_ASSERT_PTR_NOT_NULL(list);
    ctg_list_free(list);
    {
        static const char newer[] = "{\"type\":\"default\",\"version\":\"1.10\",\"name\":\"l\"}";
        CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, newer, sizeof(newer) - 1, NULL, &err),
                        CTG_EUNSUPPORTED);
    }
}

static char *write_temp(const char *doc)
{
    static char path[64];
    int fd;

    snprintf(path, sizeof(path), "ctg-reader-XXXXXX");
    fd = mkstemp(path);
    if (fd < 0 || write(fd, doc, strlen(doc)) != (ssize_t)strlen(doc))
        return NULL;
    close(fd);
    return path;
}

/* The same list from memory, a path, a FILE * and a descriptor. */
CTG_TEST(reader, every_source_gives_the_same_list)
{
    char *path = write_temp(sample);
    ctg_list *a = NULL, *b = NULL, *c = NULL;
    FILE *fp;

    CU_ASSERT_FATAL(path != NULL);
    CU_ASSERT_EQUAL(ctg_list_read_file(&a, path, NULL, NULL), CTG_OK);
    fp = fopen(path, "rb");
    CU_ASSERT_FATAL(fp != NULL);
    CU_ASSERT_EQUAL(ctg_list_read_fp(&b, fp, NULL, NULL), CTG_OK);
    rewind(fp);
    CU_ASSERT_EQUAL(ctg_list_read_fd(&c, fileno(fp), NULL, NULL), CTG_OK);
    fclose(fp);
    unlink(path);
    CU_ASSERT_FATAL(a && b && c);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(a), 2);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(b), 2);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(c), 2);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(c, 0)->elements[0].voltage_level_id, "VL1");
    ctg_list_free(a);
    ctg_list_free(b);
    ctg_list_free(c);
}

/* A generated list of n single-BRANCH contingencies, PowSyBl layout. */
static char *make_list(size_t n)
{
    size_t cap = 128 + n * 128, len = 0;
    char *doc = malloc(cap);

    len += (size_t)sprintf(doc, "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n"
                                "  \"name\" : \"gen\",\n  \"contingencies\" : [ ");
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(doc + len, "%s{\n    \"id\" : \"N-1_LINE_%06zu\",\n    \"elements\" "
                                          ": [ {\n      \"id\" : \"LINE_%06zu\",\n      \"type\" : "
                                          "\"BRANCH\"\n    } ]\n  }",
                               i ? ", " : "", i, i);
    sprintf(doc + len, " ]\n}");
    return doc;
}

static size_t resolves_for(size_t n, unsigned flags)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_read_stats stats = { 0, 0, 0 };
    char *doc = make_list(n);
    ctg_list *list = NULL;

    opts.flags = flags;
    opts.stats = &stats;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, strlen(doc), &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(stats.contingencies, n);
    CU_ASSERT_EQUAL(stats.bytes, strlen(doc));
    ctg_list_free(list);
    free(doc);
    return stats.handler_resolves;
}

/* Each handler is resolved once per read, however many contingencies there are; without the
 * cache the element handler is looked up again for every contingency. */
CTG_TEST(reader, each_handler_resolved_once_per_read)
{
    CU_ASSERT_EQUAL(resolves_for(1, 0), 2);
    CU_ASSERT_EQUAL(resolves_for(1000, 0), 2);
    CU_ASSERT_EQUAL(resolves_for(1000, 0), 2); /* again: the cache is per read */
    CU_ASSERT_EQUAL(resolves_for(1, CTG_READ_NO_CACHE), 2);
    CU_ASSERT_EQUAL(resolves_for(1000, CTG_READ_NO_CACHE), 1001);
}

static size_t resolves_of(const char *doc, unsigned flags)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_read_stats stats = { 0, 0, 0 };
    ctg_list *list = NULL;

    opts.flags = flags;
    opts.stats = &stats;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, strlen(doc), &opts, NULL), CTG_OK);
    ctg_list_free(list);
    return stats.handler_resolves;
}

/* Every item handler of every kind is counted: once per read, or once per array read without
 * the cache. */
CTG_TEST(reader, every_kinds_handlers_are_counted)
{
    static const char identifiers[] =
        "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"i\",\"identifiers\":["
        "{\"type\":\"ID_BASED\",\"identifier\":\"a\"},"
        "{\"type\":\"LIST\",\"identifierList\":[{\"type\":\"ID_BASED\",\"identifier\":\"b\"}]}]}";
    static const char criterion[] =
        "{\"type\":\"lineCriterion\",\"version\":\"1.1\",\"name\":\"l\","
        "\"countryCriterion\":{\"type\":\"TWO_COUNTRY\",\"countries1\":[\"FR\"],"
        "\"countries2\":[\"BE\"]}}";
    static const char nested[] =
        "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"l\",\"contingencyLists\":["
        "{\"type\":\"list\",\"name\":\"m\",\"contingencyLists\":["
        "{\"type\":\"default\",\"name\":\"d\",\"contingencies\":["
        "{\"id\":\"c\",\"elements\":[{\"id\":\"e\",\"type\":\"LINE\"}]}]}]}]}";

    /* identifier, then the LIST's own identifier array: one handler. */
    CU_ASSERT_EQUAL(resolves_of(identifiers, 0), 1);
    CU_ASSERT_EQUAL(resolves_of(identifiers, CTG_READ_NO_CACHE), 2);
    /* The country arrays. */
    CU_ASSERT_EQUAL(resolves_of(criterion, 0), 1);
    CU_ASSERT_EQUAL(resolves_of(criterion, CTG_READ_NO_CACHE), 2);
    /* list-item, contingency, element. */
    CU_ASSERT_EQUAL(resolves_of(nested, 0), 3);
    CU_ASSERT_EQUAL(resolves_of(nested, CTG_READ_NO_CACHE), 4);
}

/* A big list goes through the refill path (64 KiB windows) and the array hand-over. */
CTG_TEST(reader, large_list_through_refills)
{
    char *doc = make_list(20000);
    char *path = write_temp(doc);
    ctg_list *list = NULL;
    const ctg_contingency *c;

    CU_ASSERT_FATAL(path != NULL);
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, path, NULL, NULL), CTG_OK);
    unlink(path);
    CU_ASSERT_FATAL(list != NULL);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 20000);
    c = ctg_list_contingency_at(list, 12345);
    CU_ASSERT_STRING_EQUAL(c->id, "N-1_LINE_012345");
    CU_ASSERT_STRING_EQUAL(c->elements[0].id, "LINE_012345");
    CU_ASSERT_EQUAL(c->elements[0].type, CTG_ELEMENT_BRANCH);
    ctg_list_free(list);
    free(doc);
}

/* A successful read leaves the caller's error untouched: nothing was formatted. */
CTG_TEST(reader, success_writes_no_error)
{
    ctg_list *list = NULL;
    ctg_error err, pristine;

    memset(&err, 0xA5, sizeof(err));
    memcpy(&pristine, &err, sizeof(err));
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, sample, strlen(sample), NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(memcmp(&err, &pristine, sizeof(err)), 0);
    ctg_list_free(list);
}

/* A 1.0 file with DANGLING_LINE is written as 1.1 with BOUNDARY_LINE (own fixture pair). */
CTG_TEST(reader, format_1_0_written_as_1_1)
{
    ctg_list *list = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    size_t len;
    char *expect = ctg_test_slurp(CTG_TESTDATA("expected/boundary-v1_0.json"), &len);

    CU_ASSERT_FATAL(expect != NULL);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_file(&list, CTG_TESTDATA("valid/boundary-v1_0.json"),
                                             NULL, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_list_version(list), "1.0");
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 1)->elements[1].type, CTG_ELEMENT_BOUNDARY_LINE);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(buf.len, len);
    CU_ASSERT(buf.len == len && memcmp(buf.data, expect, len) == 0);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
    free(expect);
}


/* ---- version rules of nested lists ------------------------------------------------------- */

/* Reads `doc`, expecting `code` and, on failure, exactly `message` (NULL: success). */
static void assert_read(const char *doc, int code, const char *message)
{
    ctg_list *list = NULL;
    ctg_error err;
    int rc = ctg_list_read_buffer(&list, doc, strlen(doc), NULL, &err);

    CU_ASSERT_EQUAL(rc, code);
    if (rc != CTG_OK && message)
        CU_ASSERT_STRING_EQUAL(err.message, message);
    ctg_list_free(list);
}

#define DANGLING_CONTINGENCIES \
    "\"contingencies\":[{\"id\":\"c\",\"elements\":[{\"id\":\"D\",\"type\":\"DANGLING_LINE\"}]}]"
#define DANGLING_AT_1_1 \
    "DANGLING_LINE is not valid for version 1.1, should be <= 1.0 (use BOUNDARY_LINE)"

/* A list without "version" reads with its parent's own version, known before it starts; not
 * with a grandparent's, not with a sibling's, and not with one its parent states after it. */
CTG_TEST(reader, nested_list_reads_with_its_parents_version)
{
    assert_read("{\"type\":\"list\",\"version\":\"1.0\",\"name\":\"p\",\"contingencyLists\":["
                "{\"type\":\"default\",\"name\":\"a\"," DANGLING_CONTINGENCIES "}]}",
                CTG_OK, NULL);
    assert_read("{\"type\":\"list\",\"version\":\"1.0\",\"name\":\"p\",\"contingencyLists\":["
                "{\"type\":\"list\",\"name\":\"q\",\"contingencyLists\":["
                "{\"type\":\"default\",\"name\":\"a\"," DANGLING_CONTINGENCIES "}]}]}",
                CTG_ESCHEMA, DANGLING_AT_1_1);
    assert_read("{\"type\":\"list\",\"name\":\"p\",\"contingencyLists\":["
                "{\"type\":\"default\",\"version\":\"1.0\",\"name\":\"a\"," DANGLING_CONTINGENCIES
                "},{\"type\":\"default\",\"name\":\"b\"," DANGLING_CONTINGENCIES "}]}",
                CTG_ESCHEMA, DANGLING_AT_1_1);
    assert_read("{\"type\":\"list\",\"name\":\"p\",\"contingencyLists\":["
                "{\"type\":\"default\",\"name\":\"a\"," DANGLING_CONTINGENCIES "}],"
                "\"version\":\"1.0\"}",
                CTG_ESCHEMA, DANGLING_AT_1_1);
    /* A nested list's own version, stated after its elements, wins over its parent's. */
    assert_read("{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"p\",\"contingencyLists\":["
                "{\"type\":\"default\",\"name\":\"a\"," DANGLING_CONTINGENCIES
                ",\"version\":\"1.0\"}]}",
                CTG_OK, NULL);
}

/* A format reader over `doc` as format/read.c sets one up, positioned on its first token. */
static void open_format_reader(ctg_format_reader *fr, ctg_arena *arena, const char *doc,
                               ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_lex_source src = { doc, strlen(doc), NULL, NULL };

    memset(fr, 0, sizeof(*fr));
    CU_ASSERT_EQUAL_FATAL(ctg_reader_init(&fr->json, &src, &opts, arena, err), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_reader_next(&fr->json), CTG_OK);
}

static int stop_at_once(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    (void)h;
    (void)c;
    (void)payload;
    return 1;
}

/* Reads `doc` as a list nested in a parent scope at version 1.0 that has deferred a rule of
 * its own: whichever way the nested read fails, the parent's scope is current again, with
 * its version, its deferred rule and its header as they were, and rd->arena is the list's. */
static void assert_nested_failure_restores(const char *doc, bool stream, int code,
                                           const char *message)
{
    static const ctg_visitor stopping = { .version = CTG_VISITOR_VERSION,
                                          .contingency = stop_at_once };
    ctg_arena *arena = ctg_arena_new(NULL);
    ctg_format_reader fr;
    ctg_scope parent;
    ctg_mark at = { 3, 0, 1 };
    ctg_list *child;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    open_format_reader(&fr, arena, doc, &err);
    if (stream) {
        fr.visitor = &stopping;
        fr.item_arena = ctg_arena_new(NULL);
    }
    CU_ASSERT_EQUAL_FATAL(ctg_scope_push(&fr.json, &parent, 0), CTG_OK);
    parent.header.kind = CTG_LIST_LIST;
    parent.header.name = "parent";
    ctg_scope_set_version(&fr.json, "1.0", &at);
    parent.deferred = 1u << CTG_RULE_CONTINGENCY_ID;
    child = ctg_list_alloc_in(arena, CTG_LIST_DEFAULT, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(child);

    CU_ASSERT_EQUAL(ctg_read_list_object(&fr.json, child, false), code);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    CU_ASSERT_PTR_EQUAL(fr.scope, &parent);
    CU_ASSERT_PTR_NULL(parent.parent);
    CU_ASSERT_STRING_EQUAL(parent.version, "1.0");
    CU_ASSERT_EQUAL(parent.version_mark.offset, 3);
    CU_ASSERT_EQUAL(parent.deferred, 1u << CTG_RULE_CONTINGENCY_ID);
    CU_ASSERT_EQUAL(parent.header.kind, CTG_LIST_LIST);
    CU_ASSERT_STRING_EQUAL(parent.header.name, "parent");
    CU_ASSERT_STRING_EQUAL(parent.header.version, "1.0");
    CU_ASSERT_EQUAL(parent.header.depth, 0);
    CU_ASSERT_PTR_EQUAL(fr.json.arena, arena);
    ctg_scope_pop(&fr.json, &parent);
    CU_ASSERT_PTR_NULL(fr.scope);
    ctg_reader_dispose(&fr.json);
    ctg_arena_release(fr.item_arena);
    ctg_arena_release(arena);
}

/* Before the scope, a failed nested read left the gate and the deferred rules of the nested
 * list in the reader, and the stream header pointing at the failed read's stack frame. No
 * public call reads them after a failure, so this checks the restored state directly. */
CTG_TEST(reader, failed_nested_read_restores_the_parent_scope)
{
    /* Judged at the end of the nested list (its version after its DANGLING_LINE). */
    assert_nested_failure_restores("{\"type\":\"default\",\"name\":\"a\"," DANGLING_CONTINGENCIES
                                   ",\"version\":\"1.1\"}",
                                   false, CTG_ESCHEMA, DANGLING_AT_1_1);
    /* In the middle of an element. */
    assert_nested_failure_restores("{\"type\":\"default\",\"name\":\"a\",\"contingencies\":[{"
                                   "\"id\":\"c\",\"elements\":[{\"id\":\"D\",\"type\":7}]}]}",
                                   false, CTG_ESCHEMA,
                                   "expected string for \"type\", got number");
    /* Stopped by the visitor, with the item arena in place of the list's. */
    assert_nested_failure_restores("{\"type\":\"default\",\"name\":\"a\",\"contingencies\":["
                                   "{\"id\":\"c\",\"elements\":[]}]}",
                                   true, CTG_ESTOPPED, "stopped by the visitor");
}

/* A list nested CTG_LIST_MAX_NESTING deep is refused and leaves the current scope alone. */
CTG_TEST(reader, scope_refused_at_the_nesting_limit)
{
    ctg_arena *arena = ctg_arena_new(NULL);
    ctg_format_reader fr;
    ctg_scope deepest, extra;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    open_format_reader(&fr, arena, "{}", &err);
    CU_ASSERT_EQUAL_FATAL(ctg_scope_push(&fr.json, &deepest, 0), CTG_OK);
    deepest.header.depth = CTG_LIST_MAX_NESTING - 1;
    CU_ASSERT_EQUAL(ctg_scope_push(&fr.json, &extra, 0), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "lists nested more than 256 deep");
    CU_ASSERT_PTR_EQUAL(fr.scope, &deepest);
    ctg_scope_pop(&fr.json, &deepest);
    CU_ASSERT_PTR_NULL(fr.scope);
    ctg_reader_dispose(&fr.json);
    ctg_arena_release(arena);
}

/* ---- the array reader -------------------------------------------------------------------- */

/* A 12-byte item, as ctg_element is on 32-bit targets: not a multiple of 8 on any target. */
typedef struct three_words {
    uint32_t w[3];
} three_words;

static int read_three_words(ctg_reader *rd, void *out)
{
    three_words *t = out;

    if (rd->tok.type != CTG_TOK_NUMBER)
        return ctg_reader_type_error(rd, "number");
    t->w[0] = t->w[1] = t->w[2] = (uint32_t)rd->tok.number;
    return CTG_OK;
}

CTG_HANDLER_DEFINE(static, three_words_handler, "three-words", three_words, read_three_words);

/* An array is copied into exactly its size: the old word copy wrote up to 7 bytes past it,
 * from stale items of the stack, which the arena's next object would have been given. Here
 * the arena's memory is known (filled, then the arena reset), so any byte past is seen. */
CTG_TEST(reader, array_copied_into_exactly_its_size)
{
    ctg_arena *arena = ctg_arena_new(NULL);
    ctg_format_reader fr;
    unsigned char *fill;
    void *items;
    size_t count;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    open_format_reader(&fr, arena, "[[1,2],[3]]", &err);
    fill = ctg_arena_alloc(arena, 64, 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fill);
    memset(fill, 0xAA, 64);
    ctg_arena_reset(arena); /* keeps the chunk: the next allocation is `fill` again */
    CU_ASSERT_EQUAL_FATAL(ctg_reader_next(&fr.json), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_read_array(&fr.json, &three_words_handler, &items, &count), CTG_OK);
    CU_ASSERT_EQUAL(count, 2);
    CU_ASSERT_EQUAL_FATAL(ctg_reader_next(&fr.json), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_read_array(&fr.json, &three_words_handler, &items, &count), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(count, 1);
    CU_ASSERT_EQUAL(((three_words *)items)->w[2], 3);
    /* The second array went right after the first (24 bytes, 8-aligned). */
    CU_ASSERT_PTR_EQUAL(items, fill + 24);
    /* Under ASan the bytes past it are poisoned (an overrun is reported where it is written);
     * elsewhere they keep the fill. */
    for (size_t i = 24 + sizeof(three_words); i < 40; i++) {
#ifdef CTG_ARENA_ASAN
        CU_ASSERT_EQUAL(__asan_address_is_poisoned(fill + i), 1);
#else
        CU_ASSERT_EQUAL(fill[i], 0xAA);
#endif
    }
    ctg_reader_dispose(&fr.json);
    ctg_arena_release(arena);
}

/* An element array that ends exactly at the end of the item stack. On 32-bit targets (a
 * 4-byte list pointer, 24-byte contingencies, a 12-byte element) 42 contingencies before it
 * in the second nested list fill the 1024-byte stack to the byte; the old word copy read past
 * it (an ASan heap overflow). Every count up to 90 is read, whatever the sizes. */
CTG_TEST(reader, element_array_at_the_end_of_the_item_stack)
{
    static const char head[] =
        "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"l\",\"contingencyLists\":["
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"a\",\"contingencies\":[]},"
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"b\",\"contingencies\":[";
    static const char item[] = "{\"id\":\"c\",\"elements\":[]},";
    static const char tail[] = "{\"id\":\"last\",\"elements\":[{\"id\":\"L\",\"type\":\"LINE\"}]}]}]}";
    char doc[sizeof head + 90 * (sizeof item - 1) + sizeof tail];

    for (size_t k = 0; k <= 90; k++) {
        size_t len = sizeof head - 1;
        ctg_list *list = NULL;
        const ctg_contingency *last;

        memcpy(doc, head, len);
        for (size_t i = 0; i < k; i++, len += sizeof item - 1)
            memcpy(doc + len, item, sizeof item - 1);
        memcpy(doc + len, tail, sizeof tail);
        list = read_ok(doc, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        CU_ASSERT_EQUAL_FATAL(ctg_list_contingency_count(ctg_list_child_at(list, 1)), k + 1);
        last = ctg_list_contingency_at(ctg_list_child_at(list, 1), k);
        CU_ASSERT_EQUAL(last->element_count, 1);
        CU_ASSERT_STRING_EQUAL(last->elements[0].id, "L");
        CU_ASSERT_EQUAL(last->elements[0].type, CTG_ELEMENT_LINE);
        ctg_list_free(list);
    }
}

/* ---- in-situ reads --------------------------------------------------------------------- */

/* Compact, with escapes next to keys and structure: the strings end up in the buffer, and
 * only the raw text of values (between and on their quotes) is rewritten; keys, structure
 * and every other byte stay as they were. */
CTG_TEST(reader, in_situ_rewrites_only_value_strings)
{
    static const char doc[] =
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"a\\\"b\\u00e9\",\"contingencies\":"
        "[{\"id\":\"c\\\\1\",\"name\":\"\\ud83d\\ude00\",\"elements\":[{\"id\":\"L1\","
        "\"type\":\"LINE\",\"voltageLevelId\":\"\\n\"}]},{\"id\":\"\",\"elements\":[]}]}";
    size_t len = sizeof(doc) - 1;
    char *buf = malloc(len);
    const ctg_contingency *c;
    ctg_list *list = NULL;
    bool in_value = false, in_string = false;

    CU_ASSERT_FATAL(buf != NULL);
    memcpy(buf, doc, len);
    CU_ASSERT_EQUAL(ctg_test_same_in_situ(doc, len, NULL), 3);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_in_situ(&list, buf, len, NULL, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "a\"b\xC3\xA9");
    CU_ASSERT_PTR_EQUAL(ctg_list_name(list), buf + (strstr(doc, "a\\\"b") - doc));
    CU_ASSERT_EQUAL(buf[strstr(doc, "L1") - doc + 2], '\0'); /* over its closing quote */
    c = ctg_list_contingency_at(list, 0);
    CU_ASSERT_STRING_EQUAL(c->id, "c\\1");
    CU_ASSERT_STRING_EQUAL(c->name, "\xF0\x9F\x98\x80");
    CU_ASSERT_STRING_EQUAL(c->elements[0].id, "L1");
    CU_ASSERT_STRING_EQUAL(c->elements[0].voltage_level_id, "\n");
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 1)->id, "");
    for (size_t i = 0; i < len; i++) { /* the original's strings: keys, then values */
        bool quote = doc[i] == '"' && (i == 0 || doc[i - 1] != '\\' || doc[i - 2] == '\\');
        if (quote && in_string) {
            CU_ASSERT(in_value || buf[i] == '"');
            in_string = false;
        } else if (quote) {
            in_string = true;
            in_value = doc[i - 1] == ':';
            CU_ASSERT_EQUAL(buf[i], '"');
        } else if (!in_string || !in_value) {
            CU_ASSERT_EQUAL(buf[i], doc[i]);
        }
    }
    ctg_list_free(list);
    free(buf);
}

/* Every valid document, pretty and compact, and a long generated list: the same list in situ,
 * its ids in the buffer. */
CTG_TEST(reader, in_situ_reads_the_same_list)
{
    static const char *const files[] = { "valid/sample.json", "valid/boundary-v1_0.json",
                                         "valid/criterion-mixed.json",
                                         "valid/extension-types.json",
                                         "valid/identifier-v1_0.json",
                                         "valid/nested-lists.json" };
    char *doc = make_list(5000);
    size_t len;

    static const char bom[] = "\xEF\xBB\xBF{\"type\":\"default\",\"name\":\"a\\\"b\",\"contingencies\":"
                              "[{\"id\":\"\\u00e9t\xC3\xA9\",\"name\":\"x\"}]}";

    CU_ASSERT_EQUAL(ctg_test_same_in_situ(sample, sizeof(sample) - 1, NULL), 3);
    CU_ASSERT_EQUAL(ctg_test_same_in_situ(bom, sizeof(bom) - 1, NULL), 2); /* offsets count it */
    CU_ASSERT_EQUAL(ctg_test_same_in_situ(doc, strlen(doc), NULL), 5000);
    free(doc);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[512];

        snprintf(path, sizeof path, "%s/%s", CTG_TESTDATA_DIR, files[i]);
        doc = ctg_test_slurp(path, &len);
        CU_ASSERT_FATAL(doc != NULL);
        ctg_test_same_in_situ(doc, len, NULL);
        free(doc);
    }
}

/* threads = 4 on an input large enough to split: one thread reads it in situ, the same list. */
CTG_TEST(reader, in_situ_reads_with_one_thread)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    char *doc = make_list(80000); /* over 8 MiB */
    size_t len = strlen(doc);

    CU_ASSERT_FATAL(len > 2 * (size_t)4 * 1024 * 1024);
    opts.threads = 4;
    CU_ASSERT_EQUAL(ctg_test_same_in_situ(doc, len, &opts), 80000);
    free(doc);
}

/* The arguments are checked as ctg_list_read_buffer checks them. */
CTG_TEST(reader, in_situ_arguments)
{
    char doc[] = "{\"type\":\"default\",\"name\":\"l\"}";
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = (ctg_list *)1;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_list_read_in_situ(NULL, doc, sizeof(doc) - 1, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "no place for the list (out is NULL)");
    CU_ASSERT_EQUAL(ctg_list_read_in_situ(&list, NULL, 0, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_PTR_NULL(list);
    opts.flags = 1u << 30;
    CU_ASSERT_EQUAL(ctg_list_read_in_situ(&list, doc, sizeof(doc) - 1, &opts, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(doc, "{\"type\":\"default\",\"name\":\"l\"}");
}

/* ---- memory layouts ---------------------------------------------------------------------- */

/* `n` contingencies without elements, compact: 31 bytes each, whose 48-byte structs outgrow the
 * half of the input a read reserves for its items' stack. */
static char *compact_list(size_t n)
{
    char *doc = malloc(128 + n * 32);
    size_t len = (size_t)sprintf(doc, "{\"type\":\"default\",\"version\":\"1.1\",\"name\":"
                                      "\"c\",\"contingencies\":[");

    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(doc + len, "%s{\"id\":\"c%07zu\",\"elements\":[]}", i ? "," : "",
                               i);
    sprintf(doc + len, "]}");
    return doc;
}

/* Reads `doc` with malloc and with a caller's hooks, which get the plain layout, and asserts
 * the same list of `count` contingencies, all memory given back. */
static void same_with_hooks(char *doc, size_t count)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *mine = NULL, *hooked = NULL;
    char *text_mine, *text_hooked;
    size_t len_mine = 0, len_hooked = 0;

    opts.allocator = &a;
    CU_ASSERT_FATAL(doc != NULL);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&mine, doc, strlen(doc), NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&hooked, doc, strlen(doc), &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(mine), count);
    text_mine = ctg_test_write_text(mine, &len_mine);
    text_hooked = ctg_test_write_text(hooked, &len_hooked);
    CU_ASSERT_FATAL(text_mine != NULL && text_hooked != NULL);
    CU_ASSERT_EQUAL(len_mine, len_hooked);
    CU_ASSERT(len_mine == len_hooked && memcmp(text_mine, text_hooked, len_mine) == 0);
    ctg_list_free(mine);
    ctg_list_free(hooked);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    free(text_mine);
    free(text_hooked);
    free(doc);
}

/* With malloc, a read of 512 KiB of input and more lays its memory out for huge pages: the
 * arena and the items' stack in one chunk up to 32 MB of input (0.9 MB here; on the compact
 * input the stack outgrows its share and moves out), apart above (35 MB). The list is the one
 * the plain layout gives. */
CTG_TEST(reader, huge_page_layouts_read_the_same_list)
{
    same_with_hooks(make_list(8000), 8000);
    same_with_hooks(compact_list(40000), 40000);
    same_with_hooks(make_list(300000), 300000);
}

#include "test_reader.tests.h"
