/* SPDX-License-Identifier: MPL-2.0 */
/* Contingency extensions kept losslessly, typed extension handlers and the bare contingency
 * document (the json-c bridge is the suite `bridge`, lists of lists the suite `list`). */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/extension.h"
#include "ctg/jsonc.h"
#include "base/arena.h"
#include "json/emit.h"
#include "format/read_internal.h"
#include "format/kinds.h"
#include "tests/test_common.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static ctg_list *read_text(const char *text, size_t len, const ctg_read_options *opts)
{
    ctg_list *list = NULL;
    ctg_error err;

    if (ctg_list_read_buffer(&list, text, len, opts, &err) != CTG_OK)
        ctg_test_report("read", &err);
    return list;
}

/* Whether the pretty output of `list` is exactly the file at `expect_path`. */
static bool writes_file(const ctg_list *list, const char *expect_path)
{
    size_t want_len, got_len = 0;
    char *want = ctg_test_slurp(expect_path, &want_len);
    char *got = list ? ctg_test_write_text(list, &got_len) : NULL;
    bool same = want && got && want_len == got_len && memcmp(want, got, got_len) == 0;

    if (!same && got)
        fprintf(stderr, "\n  expected %s, got:\n%s\n", expect_path, got);
    free(want);
    free(got);
    return same;
}

static bool round_trips(const char *in_path, const char *expect_path,
                        const ctg_read_options *opts)
{
    ctg_list *list = ctg_test_read_path(in_path, opts);
    bool same = writes_file(list, expect_path);

    ctg_list_free(list);
    return same;
}

/* A file of the shared PowSyBl fixtures (CTG_SHARED_TEST only). */
static const char *shared_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/powsybl/%s", ctg_test_shared_dir(), name);
    return buf;
}

static const ctg_extension *ext_of(const ctg_list *list, size_t i, const char *name)
{
    return ctg_contingency_extension(ctg_list_contingency_at(list, i), name);
}

/* The json-c tree of a kept extension (the test puts it). */
static json_object *tree_of(const ctg_extension *x)
{
    json_object *v = NULL;

    CU_ASSERT_EQUAL(ctg_extension_to_json_object(&v, x, NULL), CTG_OK);
    return v;
}

/* ---- kept extensions -------------------------------------------------------------------- */

CTG_SHARED_TEST(extension, contingency_json_round_trips_byte_for_byte)
{
    char path[1024];
    ctg_list *list;
    const ctg_extension *x;

    list = ctg_test_read_path(shared_path("contingency.json", path, sizeof path), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_CONTINGENCY);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extension_count, 1);
    x = ext_of(list, 0, "dummy-contingency-extension");
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_NULL(x->handler);
    CU_ASSERT_PTR_NULL(x->value);
    CU_ASSERT_STRING_EQUAL(x->json, "{}");
    CU_ASSERT_EQUAL(x->json_len, 2);
    CU_ASSERT(writes_file(list, path));
    ctg_list_free(list);
}

CTG_TEST(extension, every_json_type_round_trips_byte_for_byte)
{
    CU_ASSERT(round_trips(CTG_TESTDATA("valid/extension-types.json"),
                          CTG_TESTDATA("valid/extension-types.json"), NULL));
    CU_ASSERT(round_trips(CTG_TESTDATA("valid/extension-contingency.json"),
                          CTG_TESTDATA("valid/extension-contingency.json"), NULL));
}

/* A kept value is its compact text, numbers as the input wrote them; json-c, given the
 * value, sees exactly what the input said. */
CTG_TEST(extension, kept_values_are_compact_text_and_json_c_values)
{
    ctg_list *list = ctg_test_read_path(CTG_TESTDATA("valid/extension-types.json"), NULL);
    const ctg_extension *scalars, *strings, *c2;
    json_object *tree, *v;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extension_count, 3);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 1)->extension_count, 9);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 2)->extension_count, 0);
    CU_ASSERT_PTR_NULL(ctg_list_contingency_at(list, 2)->extensions);
    /* In the order read. */
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->extensions[2].name, "containers");
    scalars = ext_of(list, 0, "scalars");
    strings = ext_of(list, 0, "strings");
    CU_ASSERT_PTR_NOT_NULL_FATAL(scalars);
    CU_ASSERT_PTR_NOT_NULL_FATAL(strings);
    CU_ASSERT_STRING_EQUAL(scalars->json,
        "{\"integer\":42,\"negative\":-7,\"largest\":9223372036854775807,"
        "\"smallest\":-9223372036854775808,\"double\":0.0125,\"small\":1.0E-5,"
        "\"large\":1.23456789E8,\"whole\":380.0,\"yes\":true,\"no\":false,\"nothing\":null}");
    CU_ASSERT_EQUAL(scalars->json_len, strlen(scalars->json));
    CU_ASSERT_STRING_EQUAL(strings->json,
        "{\"plain\":\"ENTSO-E\",\"escapes\":\"quote \\\" backslash \\\\ tab \\t newline \\n "
        "cr \\r bs \\b ff \\f nul \\u0000 us \\u001f\",\"slash\":\"a/b\","
        "\"unicode\":\"\xc3\x9c" "berlandleitung \xe2\x80\x93 \xe6\x9d\xb1\xe4\xba\xac "
        "\xf0\x9f\x98\x80\",\"empty\":\"\"}");
    tree = tree_of(scalars);
    CU_ASSERT(json_object_object_get_ex(tree, "largest", &v));
    CU_ASSERT_EQUAL(json_object_get_int64(v), INT64_MAX);
    CU_ASSERT(json_object_object_get_ex(tree, "smallest", &v));
    CU_ASSERT_EQUAL(json_object_get_int64(v), INT64_MIN);
    CU_ASSERT(json_object_object_get_ex(tree, "double", &v));
    CU_ASSERT(json_object_is_type(v, json_type_double));
    CU_ASSERT_EQUAL(json_object_get_double(v), CTG_DOUBLE(0.0125));
    CU_ASSERT_STRING_EQUAL(json_object_to_json_string(v), "0.0125");
    CU_ASSERT(json_object_object_get_ex(tree, "nothing", &v));
    CU_ASSERT_PTR_NULL(v);
    json_object_put(tree);
    tree = tree_of(strings);
    CU_ASSERT(json_object_object_get_ex(tree, "escapes", &v));
    CU_ASSERT_EQUAL(json_object_get_string_len(v), 61);
    CU_ASSERT(memcmp(json_object_get_string(v) + 51, "nul \0 us \x1f", 10) == 0);
    json_object_put(tree);
    /* JSON null is kept as the text "null", and its tree is NULL. */
    c2 = ext_of(list, 1, "a-null");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
    CU_ASSERT_PTR_NULL(c2->handler);
    CU_ASSERT_STRING_EQUAL(c2->json, "null");
    CU_ASSERT_PTR_NULL(tree_of(c2));
    CU_ASSERT_PTR_NULL(ext_of(list, 1, "absent"));
    ctg_list_free(list);
}

/* Numbers are written as PowSyBl writes them: integers as integers, doubles as Java does. */
CTG_TEST(extension, other_layouts_are_written_in_powsybl_layout)
{
    CU_ASSERT(round_trips(CTG_TESTDATA("valid/extension-compact.json"),
                          CTG_TESTDATA("expected/extension-compact.json"), NULL));
}

/* PowSyBl never writes "extensions" : { }: the key goes when nothing is in it. */
CTG_TEST(extension, empty_extensions_are_not_written)
{
    ctg_list *list = ctg_test_read_path(CTG_TESTDATA("valid/extension-empty.json"), NULL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extension_count, 0);
    CU_ASSERT(writes_file(list, CTG_TESTDATA("expected/extension-empty.json")));
    ctg_list_free(list);
}

/* Compact output read again gives the same pretty bytes: nothing lost in either layout. */
CTG_TEST(extension, compact_layout_round_trips)
{
    ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
    ctg_buf compact = CTG_BUF_INIT;
    ctg_list *list = ctg_test_read_path(CTG_TESTDATA("valid/extension-types.json"), NULL), *again;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    wo.flags = CTG_WRITE_COMPACT;
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&compact, list, &wo, NULL), CTG_OK);
    CU_ASSERT_PTR_NULL(memchr(compact.data, '\n', compact.len));
    CU_ASSERT_PTR_NOT_NULL(strstr(compact.data, "\"a-double\":-0.0,\"a-true\":true"));
    again = read_text(compact.data, compact.len, NULL);
    CU_ASSERT(writes_file(again, CTG_TESTDATA("valid/extension-types.json")));
    ctg_list_free(again);
    ctg_list_free(list);
    ctg_buf_dispose(&compact);
}

/* Deeply nested extension values stay within the reader's depth limit, and json-c's own
 * (32 by default) does not cut them short. */
CTG_TEST(extension, deep_values_within_the_depth_limit)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    char doc[1024];
    size_t n = 0;
    ctg_list *list;
    ctg_error err;
    int depth;

    n += (size_t)sprintf(doc, "{\"id\":\"c\",\"extensions\":{\"deep\":");
    for (depth = 0; depth < 58; depth++)
        doc[n++] = '[';
    for (depth = 0; depth < 58; depth++)
        doc[n++] = ']';
    n += (size_t)sprintf(doc + n, "}}");
    list = read_text(doc, n, NULL); /* 60 with the two objects around it: under 64 */
    CU_ASSERT_PTR_NOT_NULL(list);
    ctg_list_free(list);
    opts.max_depth = 40;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, n, &opts, &err), CTG_ELIMIT);
    CU_ASSERT_PTR_NULL(list);
}

/* Values larger than the reader's inline buffer: a 20 000-byte string and a 3 000-item array
 * come back exactly. */
CTG_TEST(extension, large_values)
{
    size_t n = 0, len;
    char *doc = malloc(60000), *out;
    ctg_list *list;
    json_object *tree, *v;

    n += (size_t)sprintf(doc, "{\n  \"id\" : \"c\",\n  \"elements\" : [ ],\n  \"extensions\" : {\n"
                              "    \"big\" : {\n      \"text\" : \"");
    for (int i = 0; i < 20000; i++)
        doc[n++] = (char)('a' + i % 26);
    n += (size_t)sprintf(doc + n, "\",\n      \"items\" : [ ");
    for (int i = 0; i < 3000; i++)
        n += (size_t)sprintf(doc + n, "%s%d", i ? ", " : "", i);
    n += (size_t)sprintf(doc + n, " ]\n    }\n  }\n}");
    list = read_text(doc, n, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    tree = tree_of(ext_of(list, 0, "big"));
    CU_ASSERT(json_object_object_get_ex(tree, "items", &v));
    CU_ASSERT_EQUAL(json_object_array_length(v), 3000);
    json_object_put(tree);
    out = ctg_test_write_text(list, &len);
    CU_ASSERT(out != NULL && len == n && memcmp(out, doc, n) == 0);
    free(out);
    ctg_list_free(list);
    free(doc);
}

/* ---- typed handlers --------------------------------------------------------------------- */


static ctg_extension_registry *probability_registry(void)
{
    ctg_extension_registry *reg = NULL;

    CU_ASSERT_EQUAL(ctg_extension_registry_new(&reg, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &ctg_test_probability_handler), CTG_OK);
    return reg;
}

CTG_TEST(extension, typed_handler_round_trips)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_extension_registry *reg = probability_registry();
    const ctg_extension *x;
    const probability *p;
    ctg_list *list;

    opts.extensions = reg;
    list = ctg_test_read_path(CTG_TESTDATA("valid/extension-probability.json"), &opts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    x = ext_of(list, 0, "contingency-probability");
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_PTR_EQUAL(x->handler, &ctg_test_probability_handler);
    p = x->value;
    CU_ASSERT_EQUAL(p->probability, CTG_DOUBLE(0.0125));
    CU_ASSERT_STRING_EQUAL(p->source, "ENTSO-E");
    p = ext_of(list, 1, "contingency-probability")->value;
    CU_ASSERT_EQUAL(p->probability, CTG_DOUBLE(1.0e-4));
    CU_ASSERT_STRING_EQUAL(p->source, "TSO \"Nord\"");
    /* The one the application does not know is kept as it was. */
    CU_ASSERT_PTR_NULL(ext_of(list, 1, "unknown-to-the-app")->handler);
    CU_ASSERT(writes_file(list, CTG_TESTDATA("valid/extension-probability.json")));
    /* The list keeps the handler's struct, not the registry: it may go first. */
    ctg_extension_registry_free(reg);
    CU_ASSERT(writes_file(list, CTG_TESTDATA("valid/extension-probability.json")));
    ctg_list_free(list);
    /* Without the registry, the same file is kept as json-c values and written the same. */
    CU_ASSERT(round_trips(CTG_TESTDATA("valid/extension-probability.json"),
                          CTG_TESTDATA("valid/extension-probability.json"), NULL));
}

/* `n` contingencies, each with the probability extension when `with_ext`. */
static char *probability_doc(size_t n, bool with_ext)
{
    char *doc = malloc(64 + n * 200);
    size_t len = (size_t)sprintf(doc, "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[");

    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(doc + len, "%s{\"id\":\"c%zu\",\"elements\":[{\"id\":\"L\",\"type\":"
                               "\"LINE\"}]%s}", i ? "," : "", i,
                               with_ext ? ",\"extensions\":{\"contingency-probability\":"
                                          "{\"probability\":0.5}}" : "");
    sprintf(doc + len, "]}");
    return doc;
}

static size_t resolves(const char *doc, unsigned flags, const ctg_extension_registry *reg)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_read_stats stats = { 0 };
    ctg_list *list;

    opts.flags = flags;
    opts.stats = &stats;
    opts.extensions = reg;
    list = read_text(doc, strlen(doc), &opts);
    CU_ASSERT_PTR_NOT_NULL(list);
    CU_ASSERT_EQUAL(stats.contingencies, 200);
    ctg_list_free(list);
    return stats.handler_resolves;
}

CTG_TEST(extension, handler_resolved_once_per_read)
{
    ctg_extension_registry *reg = probability_registry();
    char *with = probability_doc(200, true), *without = probability_doc(200, false);
    size_t base = resolves(without, 0, reg);

    CU_ASSERT_EQUAL(resolves(with, 0, reg), base + 1);
    /* No registry: no look-up at all, the values are kept. */
    CU_ASSERT_EQUAL(resolves(with, 0, NULL), base);
    /* The cache ablation looks it up for every contingency. */
    CU_ASSERT_EQUAL(resolves(with, CTG_READ_NO_CACHE, reg) - resolves(without, CTG_READ_NO_CACHE,
                                                                      reg), 200);
    ctg_extension_registry_free(reg);
    free(with);
    free(without);
}

CTG_TEST(extension, handler_refusal_has_position_and_path)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[\n"
                              "{\"id\":\"a\",\"extensions\":{\"contingency-probability\":"
                              "{\"probability\":0.5}}},\n"
                              "{\"id\":\"b\",\"extensions\":{\"contingency-probability\":"
                              "{\"probability\":1.5}}}]}";
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_extension_registry *reg = probability_registry();
    ctg_list *list = (ctg_list *)1;
    ctg_error err;

    opts.extensions = reg;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof doc - 1, &opts, &err), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.line, 3);
    CU_ASSERT_EQUAL(err.column, 51);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/1/extensions/contingency-probability");
    CU_ASSERT_STRING_EQUAL(err.message, "probability must be within [0, 1]");
    ctg_extension_registry_free(reg);
}

static int silent_read(ctg_extension_ctx *ctx, const struct json_object *value, void *out,
                       void *payload)
{
    (void)ctx;
    (void)value;
    (void)out;
    return *(const int *)payload;
}

/* A handler without a write is left out, as PowSyBl leaves out an extension it cannot
 * serialize; a refusal without a message gets one. */
CTG_TEST(extension, handler_without_write_and_silent_refusal)
{
    static const char doc[] = "{\"id\":\"c\",\"extensions\":{\"mine\":[1,2]}}";
    static int result = CTG_OK;
    static const ctg_extension_handler mine = { .version = CTG_EXTENSION_HANDLER_VERSION,
                                                .name = "mine", .size = 8, .read = silent_read,
                                                .payload = &result };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_extension_registry *reg = NULL;
    ctg_list *list;
    ctg_error err;
    size_t len;
    char *out;

    CU_ASSERT_EQUAL(ctg_extension_registry_new(&reg, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &mine), CTG_OK);
    opts.extensions = reg;
    list = read_text(doc, sizeof doc - 1, &opts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extension_count, 1);
    out = ctg_test_write_text(list, &len);
    CU_ASSERT_STRING_EQUAL(out, "{\n  \"id\" : \"c\",\n  \"elements\" : [ ]\n}");
    free(out);
    ctg_list_free(list);
    result = 1; /* not a ctg_status: reported as a schema error */
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof doc - 1, &opts, &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.message, "extension \"mine\" refused its value");
    CU_ASSERT_STRING_EQUAL(err.path, "/extensions/mine");
    CU_ASSERT_EQUAL(err.column, 32);
    result = CTG_ENOMEM;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof doc - 1, &opts, &err), CTG_ENOMEM);
    result = CTG_OK;
    ctg_extension_registry_free(reg);
}

static int failing_write(struct json_object **out, const void *in, void *payload)
{
    (void)out;
    (void)in;
    (void)payload;
    return CTG_ENOMEM;
}

CTG_TEST(extension, failing_handler_write_fails_the_write)
{
    static const char doc[] = "{\"id\":\"c\",\"extensions\":{\"contingency-probability\":"
                              "{\"probability\":0.5}}}";
    ctg_extension_handler h = ctg_test_probability_handler;
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_extension_registry *reg = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_list *list;
    ctg_error err;

    h.write = failing_write;
    CU_ASSERT_EQUAL(ctg_extension_registry_new(&reg, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &h), CTG_OK);
    opts.extensions = reg;
    list = read_text(doc, sizeof doc - 1, &opts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, &err), CTG_ENOMEM);
    CU_ASSERT_EQUAL(buf.len, 0);
    CU_ASSERT_STRING_EQUAL(err.message, "out of memory");
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
    ctg_extension_registry_free(reg);
}

CTG_TEST(extension, registry_rules)
{
    ctg_extension_handler nameless = ctg_test_probability_handler, sizeless = ctg_test_probability_handler;
    ctg_extension_handler other = ctg_test_probability_handler, future = ctg_test_probability_handler;
    ctg_extension_registry *reg = NULL;

    nameless.name = NULL;
    sizeless.size = 0;
    future.version = CTG_EXTENSION_HANDLER_VERSION + 1;
    other.name = "a-first-one";
    CU_ASSERT_EQUAL(ctg_extension_registry_new(NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_registry_new(&reg, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &nameless), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &sizeless), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &future), CTG_EINVAL); /* a newer layout */
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &ctg_test_probability_handler), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &ctg_test_probability_handler), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &other), CTG_OK);
    CU_ASSERT_EQUAL(ctg_extension_registry_count(reg), 2);
    CU_ASSERT_PTR_EQUAL(ctg_extension_registry_find(reg, "contingency-probability"),
                        &ctg_test_probability_handler);
    CU_ASSERT_PTR_EQUAL(ctg_extension_registry_find(reg, "a-first-one"), &other);
    CU_ASSERT_PTR_NULL(ctg_extension_registry_find(reg, "contingency"));
    CU_ASSERT_PTR_NULL(ctg_extension_registry_find(reg, "contingency-probability2"));
    CU_ASSERT_PTR_NULL(ctg_extension_registry_find(NULL, "a-first-one"));
    CU_ASSERT_EQUAL(ctg_extension_registry_count(NULL), 0);
    ctg_extension_registry_free(reg);
    ctg_extension_registry_free(NULL);
    CU_ASSERT_PTR_NULL(ctg_contingency_extension(NULL, "x"));
}

/* The registry's memory goes through the application's allocator too. */
CTG_TEST(extension, registry_uses_the_allocator)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_extension_registry *reg = NULL;
    char names[40][8];
    ctg_extension_handler hs[40];

    CU_ASSERT_EQUAL(ctg_extension_registry_new(&reg, &a), CTG_OK);
    for (int i = 0; i < 40; i++) {
        hs[i] = ctg_test_probability_handler;
        snprintf(names[i], sizeof names[i], "e%02d", 39 - i);
        hs[i].name = names[i];
        CU_ASSERT_EQUAL(ctg_extension_registry_add(reg, &hs[i]), CTG_OK);
    }
    for (int i = 0; i < 40; i++)
        CU_ASSERT_PTR_EQUAL(ctg_extension_registry_find(reg, names[i]), &hs[i]);
    CU_ASSERT(st.allocs >= 2);
    ctg_extension_registry_free(reg);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
}

/* Many extensions on one contingency: order kept, duplicates found past the inline set. */
CTG_TEST(extension, many_extensions)
{
    char *doc = malloc(100 * 40 + 64);
    size_t len = (size_t)sprintf(doc, "{\"id\":\"c\",\"extensions\":{");
    ctg_list *list;
    ctg_error err;

    for (int i = 0; i < 100; i++)
        len += (size_t)sprintf(doc + len, "%s\"x%d\":%d", i ? "," : "", 99 - i, i);
    strcpy(doc + len, "}}");
    list = read_text(doc, len + 2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extension_count, 100);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->extensions[99].name, "x0");
    CU_ASSERT_STRING_EQUAL(ext_of(list, 0, "x0")->json, "99");
    ctg_list_free(list);
    strcpy(doc + len, ",\"x42\":0}}");
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, strlen(doc), NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/extensions/x42");
    CU_ASSERT_EQUAL(err.column, len + 2);
    free(doc);
}

/* ---- allocation failures ------------------------------------------------------------------ */

/* The document a sweep reads, which a read that survived must write back exactly. */
typedef struct sweep_text {
    const char *doc;
    size_t len;
} sweep_text;

static void writes_back(const ctg_list *list, void *ctx)
{
    const sweep_text *t = ctx;
    size_t out_len;
    char *out = ctg_test_write_text(list, &out_len);

    CU_ASSERT(out != NULL && out_len == t->len && memcmp(out, t->doc, t->len) == 0);
    free(out);
}

static size_t sweep_doc(const char *doc, size_t len, unsigned arena_flags,
                        const ctg_extension_registry *reg)
{
    sweep_text text = { doc, len };
    ctg_test_sweep_spec how = { arena_flags, false, reg, CTG_OK, writes_back, &text };

    return ctg_test_sweep(doc, len, &how);
}

static size_t sweep(const char *path, unsigned arena_flags, const ctg_extension_registry *reg)
{
    size_t len, calls;
    char *doc = ctg_test_slurp(path, &len);

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    calls = sweep_doc(doc, len, arena_flags, reg);
    free(doc);
    return calls;
}

/* json-c's own allocations are not counted here; the ASan build checks that they do not
 * leak either, whichever allocation fails. */
CTG_TEST(extension, allocation_failure_sweep)
{
    ctg_extension_registry *reg = probability_registry();

    CU_ASSERT(sweep(CTG_TESTDATA("valid/extension-types.json"), CTG_ARENA_EXACT, NULL) > 40);
    CU_ASSERT(sweep(CTG_TESTDATA("valid/extension-types.json"), 0, NULL) > 3);
    CU_ASSERT(sweep(CTG_TESTDATA("valid/extension-probability.json"), CTG_ARENA_EXACT, reg) > 20);
    ctg_extension_registry_free(reg);
    /* A value too large for the reader's inline buffer grows one of its own. */
    {
        char doc[2100];
        size_t n = (size_t)sprintf(doc, "{\n  \"id\" : \"c\",\n  \"elements\" : [ ],\n"
                                        "  \"extensions\" : {\n    \"x\" : \"");
        memset(doc + n, 'v', 1500);
        n += 1500;
        n += (size_t)sprintf(doc + n, "\"\n  }\n}");
        CU_ASSERT(sweep_doc(doc, n, CTG_ARENA_EXACT, NULL) > 5);
    }
}

/* ---- streaming ----------------------------------------------------------------------------- */

typedef struct seen {
    size_t contingencies;
    size_t extensions;
    double probability;
} seen;

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    seen *s = payload;
    const ctg_extension *x = ctg_contingency_extension(c, "contingency-probability");

    (void)h;
    s->contingencies++;
    s->extensions += c->extension_count;
    if (x != NULL && x->handler != NULL)
        s->probability += ((const probability *)x->value)->probability;
    return 0;
}

/* A streamed contingency has its extensions; their json-c values go with the item's memory
 * (the ASan build checks that nothing leaks). */
CTG_TEST(extension, streamed_contingencies_keep_extensions)
{
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_contingency };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_extension_registry *reg = probability_registry();
    size_t len;
    char *doc = ctg_test_slurp(CTG_TESTDATA("valid/extension-probability.json"), &len);
    ctg_source src = ctg_source_buffer(doc, len);
    seen s = { 0, 0, 0 };

    v.payload = &s;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, 3);
    CU_ASSERT_EQUAL(s.extensions, 3);
    CU_ASSERT_EQUAL(s.probability, 0);
    opts.extensions = reg;
    memset(&s, 0, sizeof s);
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.extensions, 3);
    CU_ASSERT_EQUAL(s.probability, CTG_DOUBLE(CTG_DOUBLE(0.0125) + CTG_DOUBLE(1.0e-4)));
    ctg_extension_registry_free(reg);
    free(doc);
}

/* ---- the command line --------------------------------------------------------------------- */

/* The contingency-cli built beside this test program, or NULL. */
static const char *cli_path(char *buf, size_t size)
{
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;
    struct stat st;

    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (slash == NULL)
        return NULL;
    *slash = '\0';
    snprintf(buf, size, "%s/../cli/contingency-cli", exe);
    return stat(buf, &st) == 0 ? buf : NULL;
}

static int run(const char *cli, const char *in, const char *out)
{
    int status;
    pid_t pid = fork();

    if (pid == 0) {
        execl(cli, cli, "convert", in, out, (char *)NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* `contingency-cli convert` gives back the file `in` byte for byte, extensions included. */
static void convert_keeps(const char *in)
{
    char cli[1100], out[64];
    size_t a_len, b_len;
    char *a, *b;

    if (cli_path(cli, sizeof cli) == NULL) {
        fprintf(stderr, "\n  contingency-cli not built: convert not checked");
        return;
    }
    snprintf(out, sizeof out, "ctg-ext-%ld.json", (long)getpid());
    CU_ASSERT_EQUAL(run(cli, in, out), 0);
    a = ctg_test_slurp(in, &a_len);
    b = ctg_test_slurp(out, &b_len);
    CU_ASSERT(a && b && a_len == b_len && memcmp(a, b, a_len) == 0);
    free(a);
    free(b);
    remove(out);
}

CTG_TEST(extension, cli_convert_keeps_extensions)
{
    convert_keeps(CTG_TESTDATA("valid/extension-contingency.json"));
}

CTG_SHARED_TEST(extension, cli_convert_keeps_shared_extensions)
{
    char path[1024];

    convert_keeps(shared_path("contingency.json", path, sizeof path));
}

#include "test_extension.tests.h"
