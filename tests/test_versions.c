/* SPDX-License-Identifier: MPL-2.0 */
/* Writing older format versions (ctg_write_options.format_version) and one contingency alone
 * (ctg_contingency_write_buf): exact bytes, the refusals with their paths, and that a failed
 * write leaves the buffer as it was. */

#include <string.h>

#include <CUnit/CUnit.h>

#include "tests/test_common.h"

/* `json` read; fails the test when it cannot. */
static ctg_list *read_text(const char *json)
{
    ctg_list *list = NULL;
    ctg_error err;
    int rc = ctg_list_read_buffer(&list, json, strlen(json), NULL, &err);

    if (rc != CTG_OK)
        ctg_test_report("read", &err);
    CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
    return list;
}

/* `list` written compact at `version` into `buf`; the status. */
static int write_at(ctg_buf *buf, const ctg_list *list, const char *version, ctg_error *err)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;

    opts.flags = CTG_WRITE_COMPACT;
    opts.format_version = version;
    return ctg_list_write_buf(buf, list, &opts, err);
}

#define BOUNDARY_1_1                                                                           \
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"b\",\"contingencies\":[{\"id\":\"c\","   \
    "\"elements\":[{\"id\":\"X\",\"type\":\"BOUNDARY_LINE\"},{\"id\":\"L\",\"type\":\"LINE\"}]}]}"
#define BOUNDARY_1_0                                                                           \
    "{\"type\":\"default\",\"version\":\"1.0\",\"name\":\"b\",\"contingencies\":[{\"id\":\"c\","   \
    "\"elements\":[{\"id\":\"X\",\"type\":\"DANGLING_LINE\"},{\"id\":\"L\",\"type\":\"LINE\"}]}]}"

CTG_TEST(versions, default_1_0_writes_dangling_line_and_reads_back)
{
    ctg_list *list = read_text(BOUNDARY_1_1), *back;
    ctg_buf old = CTG_BUF_INIT, now = CTG_BUF_INIT;

    CU_ASSERT_EQUAL_FATAL(write_at(&old, list, "1.0", NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(old.data, BOUNDARY_1_0);
    back = read_text(old.data);
    CU_ASSERT_EQUAL(write_at(&now, back, NULL, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(now.data, BOUNDARY_1_1);
    now.len = 0;
    CU_ASSERT_EQUAL(write_at(&now, list, "1.1", NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(now.data, BOUNDARY_1_1);
    ctg_buf_dispose(&old);
    ctg_buf_dispose(&now);
    ctg_list_free(back);
    ctg_list_free(list);
}

CTG_TEST(versions, stream_writer_at_1_0_is_the_whole_write)
{
    ctg_list *list = read_text(BOUNDARY_1_1);
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_stream_writer *w = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    opts.flags = CTG_WRITE_COMPACT;
    opts.format_version = "1.0";
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &buf, "b", &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(list, 0), NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(buf.data, BOUNDARY_1_0);
    opts.format_version = "1.3";
    w = (ctg_stream_writer *)&buf; /* set to NULL on failure */
    CU_ASSERT_EQUAL(ctg_stream_writer_open_buf(&w, &buf, "b", &opts, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "cannot write default lists at format version \"1.3\" (1.0, 1.1)");
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(versions, unknown_version_or_bare_contingency_is_einval)
{
    ctg_list *list = read_text(BOUNDARY_1_1);
    ctg_list *bare = read_text("{\"id\":\"c\",\"elements\":[]}");
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL(write_at(&buf, list, "0.9", &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "cannot write default lists at format version \"0.9\" (1.0, 1.1)");
    CU_ASSERT_EQUAL(write_at(&buf, bare, "1.0", &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "a bare contingency has no format version");
    CU_ASSERT_EQUAL(write_at(&buf, bare, NULL, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(buf.data, "{\"id\":\"c\",\"elements\":[]}");
    ctg_buf_dispose(&buf);
    ctg_list_free(bare);
    ctg_list_free(list);
}

#define IDENTIFIERS(wildcard, contingency_id)                                                  \
    "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"i\",\"identifiers\":["              \
    "{\"type\":\"ID_BASED\",\"identifier\":\"A\"},{\"type\":\"LIST\"" contingency_id             \
    ",\"identifierList\":[{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"L" wildcard "1\","    \
    "\"wildcard\":\"" wildcard "\"}]}]}"

CTG_TEST(versions, identifier_1_2_has_no_wildcard_field)
{
    ctg_list *list = read_text(IDENTIFIERS("?", ""));
    ctg_list *star = read_text(IDENTIFIERS("*", ""));
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(write_at(&buf, list, "1.2", NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(buf.data,
                           "{\"type\":\"identifier\",\"version\":\"1.2\",\"name\":\"i\","
                           "\"identifiers\":[{\"type\":\"ID_BASED\",\"identifier\":\"A\"},"
                           "{\"type\":\"LIST\",\"identifierList\":[{\"type\":"
                           "\"ID_WITH_WILDCARDS\",\"identifier\":\"L?1\"}]}]}");
    CU_ASSERT_EQUAL(write_at(&buf, star, "1.2", &err), CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/1/identifierList/0/wildcard");
    CU_ASSERT_STRING_EQUAL(err.message, "a wildcard other than '?' cannot be written at "
                                        "identifier format version 1.2");
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    CU_ASSERT_EQUAL(write_at(&buf, list, "1.1", &err), CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/1/identifierList/0/type");
    CU_ASSERT_STRING_EQUAL(err.message, "an ID_WITH_WILDCARDS identifier cannot be written at "
                                        "identifier format version 1.1");
    ctg_buf_dispose(&buf);
    ctg_list_free(star);
    ctg_list_free(list);
}

CTG_TEST(versions, identifier_1_1_refuses_the_first_contingency_id)
{
    ctg_list *list = read_text(IDENTIFIERS("?", ",\"contingencyId\":\"x\""));
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL(write_at(&buf, list, "1.2", NULL), CTG_OK);
    size_t len = buf.len;
    CU_ASSERT_EQUAL(write_at(&buf, list, "1.1", &err), CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/1/contingencyId");
    CU_ASSERT_EQUAL(buf.len, len); /* nothing appended */
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(versions, list_1_0_writes_its_nested_lists_as_then)
{
    ctg_list *list = read_text(
        "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"o\",\"contingencyLists\":["
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"d\",\"contingencies\":[]},"
        "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"i\",\"identifiers\":[]},"
        "{\"type\":\"lineCriterion\",\"version\":\"1.1\",\"name\":\"l\"}]}");
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_EQUAL_FATAL(write_at(&buf, list, "1.0", NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(
        buf.data,
        "{\"type\":\"list\",\"version\":\"1.0\",\"name\":\"o\",\"contingencyLists\":["
        "{\"type\":\"default\",\"version\":\"1.0\",\"name\":\"d\",\"contingencies\":[]},"
        "{\"type\":\"identifier\",\"version\":\"1.2\",\"name\":\"i\",\"identifiers\":[]},"
        "{\"type\":\"lineCriterion\",\"version\":\"1.0\",\"name\":\"l\"}]}");
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(versions, criterion_1_0_refuses_boundary_line)
{
    ctg_list *list = read_text("{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"o\","
                               "\"contingencyLists\":[{\"type\":\"lineCriterion\",\"version\":"
                               "\"1.1\",\"name\":\"l\"},{\"type\":\"injectionCriterion\","
                               "\"version\":\"1.1\",\"name\":\"i\",\"identifiableType\":"
                               "\"BOUNDARY_LINE\"}]}");
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL(write_at(&buf, list, "1.0", &err), CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencyLists/1/identifiableType");
    CU_ASSERT_PTR_NULL(buf.data);
    CU_ASSERT_EQUAL(write_at(&buf, list, "1.1", NULL), CTG_OK);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(versions, version_2_options_ignore_format_version)
{
    ctg_list *list = read_text(BOUNDARY_1_1);
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;

    opts.version = 2;
    opts.flags = CTG_WRITE_COMPACT;
    opts.format_version = "1.0"; /* beyond a version 2 struct: never read */
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, &opts, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(buf.data, BOUNDARY_1_1);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(versions, one_contingency_as_in_a_list)
{
    ctg_list *list = read_text(
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"x\",\"contingencies\":[{\"id\":\"c\","
        "\"name\":\"n\",\"elements\":[{\"id\":\"X\",\"type\":\"BOUNDARY_LINE\"}],"
        "\"extensions\":{\"k\":{\"a\":[1,2.50]}}}]}");
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;

    opts.flags = CTG_WRITE_COMPACT;
    CU_ASSERT_EQUAL_FATAL(
        ctg_contingency_write_buf(&buf, ctg_list_contingency_at(list, 0), &opts, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(buf.data, "{\"id\":\"c\",\"name\":\"n\",\"elements\":[{\"id\":\"X\","
                                     "\"type\":\"BOUNDARY_LINE\"}],\"extensions\":{\"k\":{\"a\":"
                                     "[1,2.5]}}}");
    buf.len = 0;
    opts.format_version = "1.0";
    CU_ASSERT_EQUAL(
        ctg_contingency_write_buf(&buf, ctg_list_contingency_at(list, 0), &opts, NULL), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf.data, "\"type\":\"DANGLING_LINE\""));
    buf.len = 0;
    CU_ASSERT_EQUAL(ctg_contingency_write_buf(&buf, ctg_list_contingency_at(list, 0), NULL, NULL),
                    CTG_OK);
    CU_ASSERT_STRING_EQUAL(buf.data, "{\n  \"id\" : \"c\",\n  \"name\" : \"n\",\n  \"elements\" : "
                                     "[ {\n    \"id\" : \"X\",\n    \"type\" : \"BOUNDARY_LINE\"\n"
                                     "  } ],\n  \"extensions\" : {\n    \"k\" : {\n      \"a\" : "
                                     "[ 1, 2.5 ]\n    }\n  }\n}");
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(versions, one_invalid_contingency_leaves_the_buffer)
{
    ctg_element el = { "L", CTG_ELEMENT_LINE, NULL };
    ctg_contingency bad = { NULL, NULL, &el, 1, NULL, 0 };
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_contingency_write_buf(&buf, &bad, NULL, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(buf.data);
    CU_ASSERT_EQUAL(ctg_contingency_write_buf(&buf, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "no contingency to write");
    bad.id = "c";
    CU_ASSERT_EQUAL(ctg_contingency_write_buf(&buf, &bad, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(buf.len, strlen(buf.data));
    ctg_buf_dispose(&buf);
}

#include "test_versions.tests.h"
