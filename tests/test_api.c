/* SPDX-License-Identifier: MPL-2.0 */
/* The public API against hand-built structs and bad arguments: every entry point returns an
 * error (or documented emptiness), never crashes, and changes nothing. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/extension.h"
#include "ctg/jsonc.h"
#include "ctg/stream.h"
#include "tests/test_common.h"

static const char doc[] = "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n\","
                          "\"contingencies\":[{\"id\":\"c1\",\"elements\":[{\"id\":\"L1\","
                          "\"type\":\"LINE\"}],\"extensions\":{\"x\":{\"a\":[1,2.5]}}}]}";

static ctg_list *sample(void)
{
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof doc - 1, NULL, NULL), CTG_OK);
    return list;
}

/* ---- NULL everywhere the headers do not ask for non-NULL --------------------------------- */

static void null_readers(void)
{
    ctg_list *list = (ctg_list *)&list; /* must be set to NULL */
    ctg_source src = ctg_source_buffer(NULL, 0);
    ctg_visitor v = CTG_VISITOR_INIT;

    CU_ASSERT_EQUAL(ctg_list_read_buffer(NULL, doc, sizeof doc - 1, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, NULL, 0, NULL, NULL), CTG_ESYNTAX);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, NULL, 10, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_file(NULL, "x", NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_fp(&list, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_fd(&list, -1, NULL, NULL), CTG_EIO);
    CU_ASSERT_EQUAL(ctg_read_stream(NULL, &v, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_read_stream(&src, NULL, NULL, NULL), CTG_ESYNTAX); /* checks only */
    src = ctg_source_path(NULL);
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_EINVAL);
    src = ctg_source_fp(NULL);
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_EINVAL);
    src.kind = (ctg_source_kind)99;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_from_json_object(&list, NULL, NULL, NULL), CTG_EINVAL);
}

static void null_writers(void)
{
    ctg_list *list = sample();
    ctg_buf buf = CTG_BUF_INIT;
    ctg_stream_writer *w = (ctg_stream_writer *)&w;
    struct json_object *obj = NULL;

    CU_ASSERT_EQUAL(ctg_list_write_buf(NULL, list, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(buf.len, 0);
    CU_ASSERT_EQUAL(ctg_list_write_fp(NULL, list, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_write_fp(stdout, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_write_fd(-1, list, NULL, NULL), CTG_EIO);
    CU_ASSERT_EQUAL(ctg_list_write_file(NULL, list, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_write_file("never-written.json", NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(access("never-written.json", F_OK), -1);
    CU_ASSERT_EQUAL(ctg_stream_writer_open_buf(&w, NULL, "n", NULL, NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(ctg_stream_writer_open_buf(&w, &buf, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_open_buf(NULL, &buf, "n", NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_open_fp(&w, NULL, "n", NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_open_path(&w, NULL, "n", NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(NULL, ctg_list_contingency_at(list, 0), NULL),
                    CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(NULL, NULL), CTG_EINVAL);
    ctg_stream_writer_abort(NULL);
    CU_ASSERT_EQUAL(ctg_list_to_json_object(NULL, list, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_to_json_object(&obj, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_to_json_object(NULL, ctg_list_contingency_at(list, 0)->extensions,
                                                 NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_to_json_object(&obj, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(obj);
    ctg_buf_dispose(NULL);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

static void null_model(void)
{
    ctg_list *list = (ctg_list *)&list, *child = (ctg_list *)&child;
    ctg_element_type t = CTG_ELEMENT_LOAD;
    ctg_identifiable_type it = CTG_IDENTIFIABLE_BUS;
    size_t count = 7;

    CU_ASSERT_EQUAL(ctg_list_new(NULL, CTG_LIST_DEFAULT, "n", NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_new(&list, CTG_LIST_DEFAULT, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(ctg_list_new(&list, (ctg_list_kind)-1, "n", NULL), CTG_EINVAL);
    /* The accessors of a NULL list: test_model's null_list_is_harmless. */
    CU_ASSERT_PTR_NULL(ctg_list_identifiers(NULL, NULL));
    CU_ASSERT_EQUAL(ctg_list_child_count(NULL), 0);
    CU_ASSERT_PTR_NULL(ctg_list_child_at(NULL, 0));
    CU_ASSERT_EQUAL(ctg_list_add_child(NULL, CTG_LIST_DEFAULT, "n", &child), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(child);
    CU_ASSERT_PTR_NULL(ctg_list_identifiers(NULL, &count));
    CU_ASSERT_EQUAL(ctg_list_add_identifier(NULL, NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(ctg_list_criteria(NULL));
    CU_ASSERT_EQUAL(ctg_list_set_criteria(NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_contingency_copy(NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_extension_json(NULL, 0, "x", "1", 1, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_extension_typed(NULL, 0, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_extension_jsonc(NULL, 0, "x", NULL, NULL), CTG_EINVAL);
    /* Look-ups by name: NULL names and NULL outs. */
    CU_ASSERT_FALSE(ctg_element_type_from_name(NULL, 4, &t));
    CU_ASSERT_TRUE(ctg_element_type_from_name("LINE", 4, NULL));
    CU_ASSERT_EQUAL(t, CTG_ELEMENT_LOAD);
    CU_ASSERT_FALSE(ctg_identifiable_type_from_name(NULL, 3, &it));
    CU_ASSERT_TRUE(ctg_identifiable_type_from_name("BUS", 3, NULL));
    CU_ASSERT_FALSE(ctg_country_is_valid(NULL, 2));
    CU_ASSERT_PTR_NULL(ctg_element_type_name((ctg_element_type)-1));
    CU_ASSERT_PTR_NULL(ctg_list_kind_name(CTG_LIST_KIND_COUNT));
    CU_ASSERT_PTR_NULL(ctg_identifiable_type_name(CTG_IDENTIFIABLE_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_identifier_kind_name(CTG_IDENTIFIER_KIND_COUNT));
    CU_ASSERT_PTR_NULL(ctg_criterion_type_name(CTG_CRITERION_TYPE_COUNT));
    CU_ASSERT_FALSE(ctg_element_type_is_sided((ctg_element_type)-1));
    CU_ASSERT_STRING_EQUAL(ctg_status_name(12345), "CTG_UNKNOWN");
    CU_ASSERT_PTR_NOT_NULL(ctg_version_string());
}

static void null_extensions(void)
{
    ctg_extension_registry *r = (ctg_extension_registry *)&r;
    char buf[16];

    CU_ASSERT_EQUAL(ctg_extension_registry_new(NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL_FATAL(ctg_extension_registry_new(&r, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(r, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(NULL, NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(ctg_extension_registry_find(r, NULL));
    CU_ASSERT_PTR_NULL(ctg_extension_registry_find(NULL, "x"));
    CU_ASSERT_EQUAL(ctg_extension_registry_count(NULL), 0);
    ctg_extension_registry_free(r);
    ctg_extension_registry_free(NULL);
    CU_ASSERT_PTR_NULL(ctg_extension_strdup(NULL, "x"));
    CU_ASSERT_PTR_NULL(ctg_extension_alloc(NULL, 8));
    CU_ASSERT_EQUAL(ctg_extension_fail(NULL, CTG_ESCHEMA, "m"), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(ctg_extension_ctx_name(NULL));
    CU_ASSERT_PTR_NULL(ctg_contingency_extension(NULL, "x"));
    CU_ASSERT_EQUAL(ctg_error_format(NULL, buf, sizeof buf), 10);
    CU_ASSERT_STRING_EQUAL(buf, "<no error>");
    CU_ASSERT_EQUAL(ctg_error_format(NULL, NULL, 0), 10);
}

CTG_TEST(api, null_arguments_are_errors_not_crashes)
{
    null_readers();
    null_writers();
    null_model();
    null_extensions();
}

/* ---- hand-built contingencies ------------------------------------------------------------- */

/* What the stream writer and the copying builder say about a contingency. */
static void expect_refused(const ctg_contingency *c, const char *why)
{
    ctg_buf buf = CTG_BUF_INIT;
    ctg_stream_writer *w = NULL;
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &buf, "n", NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, c, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, why);
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    /* The writer is still usable: nothing of the refused contingency was written. */
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, NULL), CTG_OK);
    CU_ASSERT_PTR_NULL(strstr(buf.data, "\"id\""));
    ctg_buf_dispose(&buf);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "n", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency_copy(list, c), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 0);
    ctg_list_free(list);
}

CTG_TEST(api, hand_built_contingencies_are_checked)
{
    static const char shape[] = "a contingency the reader would refuse (a NULL or invalid "
                                "string, a missing element or extension array)";
    ctg_element good = { "L1", CTG_ELEMENT_LINE, NULL };
    ctg_element bad_id = { NULL, CTG_ELEMENT_LINE, NULL };
    ctg_element bad_type = { "L1", (ctg_element_type)99, NULL };
    ctg_element bad_side = { "L1", CTG_ELEMENT_LINE, "VL\xff" };
    ctg_extension ext = { "x", NULL, NULL, "[1,", 3 }, unnamed = { NULL, NULL, NULL, "1", 1 };
    ctg_contingency c = { "c1", NULL, NULL, 1, NULL, 0 };

    expect_refused(&c, shape); /* NULL elements, count 1 */
    c.elements = &bad_id;
    expect_refused(&c, shape);
    c.elements = &bad_type;
    expect_refused(&c, shape);
    c.elements = &bad_side;
    expect_refused(&c, shape);
    c.elements = &good;
    c.id = NULL;
    expect_refused(&c, shape);
    c.id = "c\xc0\xaf"; /* an overlong '/' */
    expect_refused(&c, shape);
    c.id = "c1";
    c.name = "\xed\xa0\x80"; /* a surrogate */
    expect_refused(&c, shape);
    c.name = NULL;
    c.extension_count = 1; /* NULL extensions */
    expect_refused(&c, shape);
    c.extensions = &unnamed;
    expect_refused(&c, shape);
    c.extensions = &ext;
    expect_refused(&c, "extension \"x\": expected a value after ',', got end of input");
    ext.json = "{\"a\":1,\"a\":2}";
    ext.json_len = strlen(ext.json);
    expect_refused(&c, "extension \"x\": duplicate key \"a\" (first at line 1, column 2)");
    expect_refused(NULL, "no contingency");
}

/* ---- builders ------------------------------------------------------------------------------ */

/* Every builder refuses a string the reader would refuse, and leaves the list as it was. */
CTG_TEST(api, builders_refuse_invalid_utf8)
{
    static const char *const bad[] = { "\xff", "a\xc3", "\xe2\x82", "\xf4\x90\x80\x80",
                                       "\xc1\xbf", "\xed\xbf\xbf" };
    ctg_list *list = NULL, *child = NULL, *ids = NULL, *crit = NULL;
    ctg_element e = { "L1", CTG_ELEMENT_LINE, "VL1" };
    ctg_identifier id = { 0 };
    ctg_criterion regex = { 0 };
    ctg_criteria cr = { 0 };

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "ok", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&child, CTG_LIST_LIST, "ok", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&ids, CTG_LIST_IDENTIFIER, "ok", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&crit, CTG_LIST_LINE_CRITERION, "ok", NULL), CTG_OK);
    regex.type = CTG_CRITERION_REGEX;
    cr.regex = &regex;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ctg_list *none = NULL;
        CU_ASSERT_EQUAL(ctg_list_new(&none, CTG_LIST_DEFAULT, bad[i], NULL), CTG_EINVAL);
        CU_ASSERT_EQUAL(ctg_list_add_child(child, CTG_LIST_DEFAULT, bad[i], &none), CTG_EINVAL);
        CU_ASSERT_EQUAL(ctg_list_add_contingency(list, bad[i], NULL, NULL, 0), CTG_EINVAL);
        CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", bad[i], NULL, 0), CTG_EINVAL);
        e.voltage_level_id = bad[i];
        CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, &e, 1), CTG_EINVAL);
        e.voltage_level_id = NULL;
        e.id = bad[i];
        CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, &e, 1), CTG_EINVAL);
        e.id = "L1";
        id.kind = CTG_IDENTIFIER_ID_BASED;
        id.id = bad[i];
        CU_ASSERT_EQUAL(ctg_list_add_identifier(ids, &id), CTG_EINVAL);
        regex.regex = bad[i];
        CU_ASSERT_EQUAL(ctg_list_set_criteria(crit, &cr), CTG_EINVAL);
        CU_ASSERT_PTR_NULL(none);
    }
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 0);
    CU_ASSERT_EQUAL(ctg_list_child_count(child), 0);
    CU_ASSERT_PTR_NULL(ctg_list_identifiers(ids, NULL));
    CU_ASSERT_PTR_NULL(ctg_list_criteria(crit)->regex);
    /* Valid multi-byte text is taken. */
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "\xc3\x9c \xf0\x9f\x98\x80", NULL, &e, 1),
                    CTG_OK);
    ctg_list_free(list);
    ctg_list_free(child);
    ctg_list_free(ids);
    ctg_list_free(crit);
}

/* A typed extension for the copies: a number kept in a struct. */
typedef struct weight {
    double value;
} weight;

static int weight_read(ctg_extension_ctx *ctx, const struct json_object *v, void *out, void *p)
{
    (void)p;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return ctg_extension_fail(ctx, CTG_ESCHEMA, "weight: a number expected");
    ((weight *)out)->value = json_object_get_double(v);
    return CTG_OK;
}

static int weight_write(struct json_object **out, const void *in, void *p)
{
    (void)p;
    *out = json_object_new_double(((const weight *)in)->value);
    return *out != NULL ? CTG_OK : CTG_ENOMEM;
}

static const ctg_extension_handler weight_handler = { .version = CTG_EXTENSION_HANDLER_VERSION,
                                                      .name = "weight", .size = sizeof(weight),
                                                      .read = weight_read, .write = weight_write };

/* Extensions added by the builders, kept and typed, write what a read of the same text
 * gives; a contingency copied with its extensions writes the bytes the stream writer writes. */
CTG_TEST(api, extensions_added_and_copied)
{
    static const char want[] =
        "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"n\",\n"
        "  \"contingencies\" : [ {\n    \"id\" : \"c1\",\n    \"elements\" : [ {\n"
        "      \"id\" : \"L1\",\n      \"type\" : \"LINE\"\n    } ],\n"
        "    \"extensions\" : {\n      \"x\" : {\n        \"a\" : [ 1, 2.5 ]\n      },\n"
        "      \"note\" : \"\\u001F\",\n      \"weight\" : 0.25,\n"
        "      \"tree\" : {\n        \"k\" : [ true, null ]\n      }\n    }\n  } ]\n}";
    ctg_list *list = sample(), *copy = NULL;
    weight w = { 0.25 };
    json_object *tree = json_tokener_parse("{\"k\":[true,null]}");
    ctg_buf a = CTG_BUF_INIT, b = CTG_BUF_INIT;
    ctg_stream_writer *sw = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_list_add_extension_json(list, 0, "note", " \"\\u001f\" ", 10, NULL),
                    CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->extensions[1].json, "\"\\u001f\"");
    CU_ASSERT_EQUAL(ctg_list_add_extension_typed(list, 0, &weight_handler, &w), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_extension_jsonc(list, 0, "tree", tree, NULL), CTG_OK);
    /* Refused, and the contingency keeps its four. */
    CU_ASSERT_EQUAL(ctg_list_add_extension_json(list, 0, "x", "1", 1, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_extension_json(list, 0, "bad", "[1 2]", 5, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(err.column, 4);
    CU_ASSERT_EQUAL(ctg_list_add_extension_json(list, 1, "y", "1", 1, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_extension_typed(list, 0, &weight_handler, &w), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extension_count, 4);
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&a, list, NULL, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(a.data, want);
    /* The copy, into a list of its own, then the original list freed first. */
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&copy, CTG_LIST_DEFAULT, "n", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency_copy(copy, ctg_list_contingency_at(list, 0)),
                    CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&sw, &b, "n", NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(sw, ctg_list_contingency_at(list, 0), NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(sw, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(b.data, want);
    ctg_list_free(list);
    ctg_buf_dispose(&a);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&a, copy, NULL, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(a.data, want);
    ctg_list_free(copy);
    json_object_put(tree);
    ctg_buf_dispose(&a);
    ctg_buf_dispose(&b);
}

#include "test_api.tests.h"
