/* SPDX-License-Identifier: MPL-2.0 */
/* Reading `default` lists: what lands in the structs, for well-formed input. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
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

#include "test_reader.tests.h"
