/* SPDX-License-Identifier: MPL-2.0 */
/* Visitor version 2: where each streamed contingency sits in its text (contingency_at), and
 * lenient reads that report a bad contingency and go on with the next one. */

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

/* Appends printf output to `t`. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void text_printf(ctg_test_text *t, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    CU_ASSERT_FATAL(n >= 0 && (size_t)n < sizeof(buf));
    ctg_test_text_add(t, buf, (size_t)n);
}

/* What a version-2 visitor saw: one line per contingency with its place, one per error. */
typedef struct seen2 {
    ctg_test_text log;
    const char *doc; /* the text read, to check each offset against its line and column */
    size_t len;
    size_t contingencies, errors, stop_after_errors;
} seen2;

/* The 1-based line and byte column of `offset` in `doc` ('\n' starts a line). */
static void line_col(const char *doc, size_t offset, unsigned *line, unsigned *col)
{
    size_t start = 0;

    *line = 1;
    for (size_t i = 0; i < offset; i++)
        if (doc[i] == '\n') {
            (*line)++;
            start = i + 1;
        }
    *col = (unsigned)(offset - start + 1);
}

/* Asserts that a visitor's log is `expected`, showing both when it is not. */
static void expect_log(const char *actual, const char *expected)
{
    if (!actual || strcmp(actual, expected) != 0)
        fprintf(stderr, "\n--- expected:\n%s--- got:\n%s---\n", expected,
                actual ? actual : "(nothing)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(actual);
    CU_ASSERT_STRING_EQUAL(actual, expected);
}

static int on_at(const ctg_stream_header *h, const ctg_contingency *c, const ctg_stream_place *at,
                 void *payload)
{
    seen2 *s = payload;

    text_printf(&s->log, "%s/%zu %s#%zu@%u:%u id%u:%u [", h->name ? h->name : "?",
                         h->depth, c->id, at->index, at->line, at->column, at->id_line,
                         at->id_column);
    for (size_t i = 0; i < c->element_count; i++)
        text_printf(&s->log, "%s%u:%u", i ? " " : "", at->element_lines[i],
                             at->element_columns[i]);
    text_printf(&s->log, "]");
    for (size_t i = 0; i < c->extension_count; i++) /* the place of each name */
        text_printf(&s->log, "%s%s@%u:%u", i ? " " : " {", c->extensions[i].name,
                             at->extension_lines[i], at->extension_columns[i]);
    text_printf(&s->log, "%s\n", c->extension_count ? "}" : "");
    if (s->doc) {
        unsigned line, col;
        CU_ASSERT_FATAL(at->offset < s->len);
        CU_ASSERT_EQUAL(s->doc[at->offset], '{');
        line_col(s->doc, at->offset, &line, &col);
        CU_ASSERT_EQUAL(line, at->line);
        CU_ASSERT_EQUAL(col, at->column);
    }
    s->contingencies++;
    return 0;
}

static int on_plain(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    seen2 *s = payload;

    (void)h;
    text_printf(&s->log, "%s\n", c->id);
    s->contingencies++;
    return 0;
}

static int on_error(const ctg_error *err, void *payload)
{
    seen2 *s = payload;
    char line[1024];

    ctg_error_format(err, line, sizeof(line));
    text_printf(&s->log, "E %s (%s)\n", line, ctg_status_name(err->code));
    s->errors++;
    return s->stop_after_errors && s->errors == s->stop_after_errors;
}

static int read2(const char *doc, size_t len, seen2 *s, unsigned flags, ctg_error *err)
{
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency_at = on_at,
                      .error = on_error,
                      .payload = s };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_source src = ctg_source_buffer(doc, len);

    opts.flags = flags;
    s->doc = doc;
    s->len = len;
    return ctg_read_stream(&src, &v, &opts, err);
}

/* Line 5 holds the list's first brace; the second element of c1, c2 and c3 share lines. */
static const char multi[] = "{\n"
                            "  \"type\" : \"default\",\n"
                            "  \"version\" : \"1.1\",\n"
                            "  \"name\" : \"n\",\n"
                            "  \"contingencies\" : [ {\n"
                            "    \"id\" : \"c1\",\n"
                            "    \"elements\" : [ {\n"
                            "      \"id\" : \"L1\",\n"
                            "      \"type\" : \"LINE\"\n"
                            "    }, { \"id\" : \"L2\", \"type\" : \"LINE\" } ]\n"
                            "  },\n"
                            "{\"id\":\"c2\",\"elements\":[]}, {\"elements\":[{\"id\":\"G\","
                            "\"type\":\"GENERATOR\"}],\n"
                            "   \"id\" : \"c3\"} ]\n"
                            "}\n";

static const char multi_log[] = "n/0 c1#0@5:23 id6:12 [7:20 10:8]\n"
                                "n/0 c2#1@12:1 id12:7 []\n"
                                "n/0 c3#2@12:28 id13:11 [12:41]\n";

CTG_TEST(stream_v2, places_multi_line)
{
    seen2 s = { 0 };

    CU_ASSERT_EQUAL(read2(multi, sizeof(multi) - 1, &s, 0, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, 3);
    expect_log(s.log.data, multi_log);
    free(s.log.data);
}

/* Each '\n' becomes "\r\n": the same lines and columns (a '\r' ends its line's bytes), other
 * offsets (each checked against the CRLF text itself). */
/* Each extension's name is placed at its opening quote, for each contingency afresh (the
 * second has more than the first, the third none), and with the values skipped too. */
CTG_TEST(stream_v2, places_of_extension_names)
{
    static const char doc[] = "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n\","
                              "\"contingencies\":[\n"
                              "{\"id\":\"a\",\"elements\":[],\"extensions\":{\"x\":1}},\n"
                              "{\"id\":\"b\",\"extensions\":{\n  \"y\" : {\"z\":[1]},\n"
                              "  \"w\" : 2},\"elements\":[]},\n"
                              "{\"id\":\"c\",\"elements\":[]}]}";
    static const char expected[] = "n/0 a#0@2:1 id2:7 [] {x@2:39}\n"
                                   "n/0 b#1@3:1 id3:7 [] {y@4:3 w@5:3}\n"
                                   "n/0 c#2@6:1 id6:7 []\n";

    for (int skip = 0; skip < 2; skip++) {
        seen2 s = { 0 };
        CU_ASSERT_EQUAL(read2(doc, sizeof(doc) - 1, &s,
                              skip ? CTG_READ_SKIP_EXTENSION_VALUES : 0, NULL), CTG_OK);
        expect_log(s.log.data, expected);
        free(s.log.data);
    }
}

CTG_TEST(stream_v2, places_crlf)
{
    char crlf[2 * sizeof(multi)];
    size_t n = 0;
    seen2 s = { 0 };

    for (const char *p = multi; *p; p++) {
        if (*p == '\n')
            crlf[n++] = '\r';
        crlf[n++] = *p;
    }
    CU_ASSERT_EQUAL(read2(crlf, n, &s, 0, NULL), CTG_OK);
    expect_log(s.log.data, multi_log);
    free(s.log.data);
}

/* Offsets and places are those of the decompressed text. */
CTG_TEST(stream_v2, places_gzip)
{
    char path[] = "ctg-v2-XXXXXX";
    int fd = mkstemp(path);
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency_at = on_at };
    ctg_source src = ctg_source_path(path);
    seen2 s = { 0 };
    gzFile gz;

    CU_ASSERT_FATAL(fd >= 0);
    gz = gzdopen(fd, "wb");
    CU_ASSERT_FATAL(gz != NULL);
    CU_ASSERT_EQUAL(gzwrite(gz, multi, (unsigned)(sizeof(multi) - 1)), (int)sizeof(multi) - 1);
    CU_ASSERT_EQUAL(gzclose(gz), Z_OK);
    s.doc = multi;
    s.len = sizeof(multi) - 1;
    v.payload = &s;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_OK);
    expect_log(s.log.data, multi_log);
    unlink(path);
    free(s.log.data);
}

/* A `list` list: each nested `default` list counts its own indices from 0. */
CTG_TEST(stream_v2, places_nested_lists)
{
    static const char doc[] =
        "{\n"
        "  \"type\" : \"list\",\n"
        "  \"name\" : \"outer\",\n"
        "  \"contingencyLists\" : [ {\n"
        "    \"type\" : \"default\",\n"
        "    \"name\" : \"a\",\n"
        "    \"contingencies\" : [ { \"id\" : \"a1\", \"elements\" : [ ] } ]\n"
        "  }, {\n"
        "    \"type\" : \"default\",\n"
        "    \"name\" : \"b\",\n"
        "    \"contingencies\" : [\n"
        "      { \"id\" : \"b1\", \"elements\" : [ { \"id\" : \"X\", \"type\" : \"LINE\" } ] },\n"
        "      { \"id\" : \"b2\", \"elements\" : [ ] } ]\n"
        "  } ]\n"
        "}\n";
    seen2 s = { 0 };

    CU_ASSERT_EQUAL(read2(doc, sizeof(doc) - 1, &s, 0, NULL), CTG_OK);
    expect_log(s.log.data, "a/1 a1#0@7:25 id7:34 []\n"
                                       "b/1 b1#0@12:7 id12:16 [12:37]\n"
                                       "b/1 b2#1@13:7 id13:16 []\n");
    free(s.log.data);
}

/* A bare contingency document: index 0, the root object's brace. */
CTG_TEST(stream_v2, places_bare_contingency)
{
    static const char doc[] = "\n  {\"id\" : \"x\",\n"
                              " \"elements\":[ {\"id\":\"L\",\"type\":\"LINE\"}]}";
    seen2 s = { 0 };

    CU_ASSERT_EQUAL(read2(doc, sizeof(doc) - 1, &s, 0, NULL), CTG_OK);
    expect_log(s.log.data, "?/0 x#0@2:3 id2:11 [3:15]\n");
    free(s.log.data);
}

/* Without contingency_at, a version-2 visitor gets `contingency`; a version-1 visitor's fields
 * after `payload` are not read (they may not exist): here they hold pointers that would crash. */
CTG_TEST(stream_v2, v1_fields_after_payload_unread)
{
    seen2 s = { 0 };
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_plain, .payload = &s };
    ctg_source src = ctg_source_buffer(multi, sizeof(multi) - 1);

    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_OK);
    expect_log(s.log.data, "c1\nc2\nc3\n");
    v.version = 1;
    memset(&v.contingency_at, 0x5a, sizeof(v.contingency_at));
    memset(&v.error, 0x5a, sizeof(v.error));
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_OK);
    expect_log(s.log.data, "c1\nc2\nc3\nc1\nc2\nc3\n");
    free(s.log.data);
}

/* n contingencies of i % 5 elements each. */
static char *gen_doc(size_t n)
{
    ctg_test_text t = { 0 };

    text_printf(&t, "{\"type\":\"default\",\"name\":\"g\",\"contingencies\":[");
    for (size_t i = 0; i < n; i++) {
        text_printf(&t, "%s{\"id\":\"c%zu\",\"elements\":[", i ? "," : "", i);
        for (size_t k = 0; k < i % 5; k++)
            text_printf(&t, "%s{\"id\":\"L%zu\",\"type\":\"LINE\"}", k ? "," : "", k);
        text_printf(&t, "]}");
    }
    text_printf(&t, "]}");
    return t.data;
}

static size_t allocs_for(size_t n)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency_at = on_at };
    char *doc = gen_doc(n);
    ctg_source src = ctg_source_buffer(doc, strlen(doc));
    seen2 s = { 0 };

    v.payload = &s;
    opts.allocator = &a;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, n);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    free(doc);
    free(s.log.data);
    return st.calls;
}

/* The element places are reused: allocator calls do not grow with the contingencies. */
CTG_TEST(stream_v2, places_allocate_nothing_per_contingency)
{
    size_t few = allocs_for(10), many = allocs_for(5000);

    CU_ASSERT(few > 0);
    CU_ASSERT_EQUAL(many, few);
}

/* A placed read whose allocations fail one after the other: each fails cleanly. */
CTG_TEST(stream_v2, places_allocation_failures)
{
    char *doc = gen_doc(40);
    size_t ok = 0;

    for (size_t fail = 1; fail < 200 && !ok; fail++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_read_options opts = CTG_READ_OPTIONS_INIT;
        ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency_at = on_at };
        ctg_source src = ctg_source_buffer(doc, strlen(doc));
        seen2 s = { 0 };
        int rc;

        st.fail_at = fail;
        v.payload = &s;
        opts.allocator = &a;
        rc = ctg_read_stream(&src, &v, &opts, NULL);
        CU_ASSERT(rc == (st.failed ? CTG_ENOMEM : CTG_OK));
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        if (!st.failed)
            ok = fail;
        free(s.log.data);
    }
    CU_ASSERT(ok > 1);
    free(doc);
}

/* ---- lenient reads --------------------------------------------------------------------- */

/* Three bad contingencies among good ones: an unknown element type, a missing id, a duplicate
 * key followed by nested values the skip must get past. */
static const char three_bad[] =
    "{\n"
    "  \"type\" : \"default\",\n"
    "  \"version\" : \"1.1\",\n"
    "  \"name\" : \"n\",\n"
    "  \"contingencies\" : [ {\n"
    "    \"id\" : \"ok1\",\n"
    "    \"elements\" : [ ]\n"
    "  }, {\n"
    "    \"id\" : \"bad1\",\n"
    "    \"elements\" : [ { \"id\" : \"X\", \"type\" : \"NOPE\" } ]\n"
    "  }, {\n"
    "    \"elements\" : [ { \"id\" : \"Z\", \"type\" : \"LINE\" } ]\n"
    "  }, {\n"
    "    \"id\" : \"ok2\",\n"
    "    \"elements\" : [ { \"id\" : \"L\", \"type\" : \"LINE\" } ]\n"
    "  }, {\n"
    "    \"id\" : \"bad3\",\n"
    "    \"elements\" : [ { \"id\" : \"Y\", \"type\" : \"LINE\", \"id\" : [ { \"a\" : [ 1, {} ] } ]"
    " } ],\n"
    "    \"extensions\" : { \"x\" : { \"y\" : [ [ ], { } ] } }\n"
    "  }, {\n"
    "    \"id\" : \"ok3\"\n"
    "  } ]\n"
    "}\n";

static const char three_bad_log[] =
    "n/0 ok1#0@5:23 id6:12 []\n"
    "E <memory>:10:43: error: /contingencies/1/elements/0/type: unknown element type \"NOPE\" "
    "(CTG_ESCHEMA)\n"
    "E <memory>:11:6: error: /contingencies/2/id: missing required field \"id\" (CTG_ESCHEMA)\n"
    "n/0 ok2#3@13:6 id14:12 [15:20]\n"
    "E <memory>:18:51: error: /contingencies/4/elements/0/id: duplicate key \"id\" (first at line "
    "18, column 22) (CTG_ESCHEMA)\n"
    "n/0 ok3#5@20:6 id21:12 []\n";

CTG_TEST(stream_v2, lenient_reports_and_skips)
{
    seen2 s = { 0 };
    ctg_error err;

    err.code = CTG_OK;
    strcpy(err.message, "untouched");
    CU_ASSERT_EQUAL(read2(three_bad, sizeof(three_bad) - 1, &s, CTG_READ_LENIENT, &err), CTG_OK);
    CU_ASSERT_EQUAL(s.errors, 3);
    CU_ASSERT_EQUAL(s.contingencies, 3);
    expect_log(s.log.data, three_bad_log);
    CU_ASSERT_STRING_EQUAL(err.message, "untouched"); /* written only on failure */
    free(s.log.data);
}

/* The first error a lenient read reports is, to the byte, the error of a strict read. */
CTG_TEST(stream_v2, lenient_first_error_is_the_strict_one)
{
    seen2 s = { 0 };
    ctg_error err;
    char line[1024], expected[1100];

    CU_ASSERT_EQUAL(read2(three_bad, sizeof(three_bad) - 1, &s, 0, &err), CTG_ESCHEMA);
    ctg_error_format(&err, line, sizeof(line));
    snprintf(expected, sizeof(expected), "n/0 ok1#0@5:23 id6:12 []\nE %s (CTG_ESCHEMA)\n", line);
    free(s.log.data);
    memset(&s, 0, sizeof(s));
    s.stop_after_errors = 1;
    CU_ASSERT_EQUAL(read2(three_bad, sizeof(three_bad) - 1, &s, CTG_READ_LENIENT, &err),
                    CTG_ESTOPPED);
    expect_log(s.log.data, expected);
    CU_ASSERT_STRING_EQUAL(err.message, "stopped by the visitor");
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/1");
    free(s.log.data);
}

/* Broken syntax after a skipped contingency stops the read with the error a strict read gives
 * once the skipped contingency is fixed. */
CTG_TEST(stream_v2, lenient_syntax_error_stops)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[\n"
                              "{\"id\":\"a\"},\n"
                              "{\"id\":\"b\",\"oops\":1},\n"
                              "{\"id\":\"c\"},\n"
                              "{\"id\":\"d\",,}]}";
    seen2 s = { 0 };
    ctg_error err;
    char line[512];

    CU_ASSERT_EQUAL(read2(doc, sizeof(doc) - 1, &s, CTG_READ_LENIENT, &err), CTG_ESYNTAX);
    expect_log(s.log.data,
                           "n/0 a#0@2:1 id2:7 []\n"
                           "E <memory>:3:11: error: /contingencies/1/oops: unknown field \"oops\" "
                           "(CTG_ESCHEMA)\n"
                           "n/0 c#2@4:1 id4:7 []\n");
    ctg_error_format(&err, line, sizeof(line));
    /* As a strict read of the document without "oops" says. */
    CU_ASSERT_STRING_EQUAL(line, "<memory>:5:11: error: /contingencies/3: expected a string key "
                                 "after ',', got ','");
    free(s.log.data);
}

/* Broken syntax inside the bad contingency itself: that contingency is not well formed, so
 * nothing is reported and the syntax error stops the read. */
CTG_TEST(stream_v2, lenient_syntax_error_in_the_bad_one)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[\n"
                              "{\"id\":\"b\",\"oops\":[1 2]}]}";
    seen2 s = { 0 };
    ctg_error err;

    CU_ASSERT_EQUAL(read2(doc, sizeof(doc) - 1, &s, CTG_READ_LENIENT, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(s.errors, 0);
    CU_ASSERT_PTR_NULL(s.log.data);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(err.column, 21);
}

/* Errors outside a contingency are not skippable: the list's "version", an identifier list. */
CTG_TEST(stream_v2, lenient_errors_outside_contingencies_stop)
{
    static const char bad_version[] = "{\"type\":\"default\",\"version\":7,\"name\":\"n\","
                                      "\"contingencies\":[{\"id\":\"a\"}]}";
    static const char bad_identifier[] =
        "{\"type\":\"identifier\",\"version\":\"1.2\",\"name\":\"i\",\"identifiers\":"
        "[{\"type\":\"NOPE\"}]}";
    static const char late_rule[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":["
                                    "{\"id\":\"a\",\"elements\":[{\"id\":\"D\",\"type\":"
                                    "\"DANGLING_LINE\"}]}],\"version\":\"1.1\"}";
    seen2 s = { 0 };
    ctg_error err;

    CU_ASSERT_EQUAL(read2(bad_version, sizeof(bad_version) - 1, &s, CTG_READ_LENIENT, &err),
                    CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/version");
    CU_ASSERT_EQUAL(read2(bad_identifier, sizeof(bad_identifier) - 1, &s, CTG_READ_LENIENT, &err),
                    CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/identifiers/0/type");
    /* A version rule judged when the list ends: the contingency was delivered already. */
    CU_ASSERT_EQUAL(read2(late_rule, sizeof(late_rule) - 1, &s, CTG_READ_LENIENT, &err),
                    CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/0/elements/0/type");
    CU_ASSERT_EQUAL(s.errors, 0);
    expect_log(s.log.data, "n/0 a#0@1:47 id1:53 [1:69]\n");
    free(s.log.data);
}

/* A version rule known when it is met is skippable; one met in a skipped contingency before
 * the version is forgotten with it; contingencies of nested lists are skipped too. */
CTG_TEST(stream_v2, lenient_version_rules_and_nested_lists)
{
    static const char doc[] =
        "{\"type\":\"list\",\"name\":\"top\",\"contingencyLists\":[\n"
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"a\",\"contingencies\":[\n"
        "{\"id\":\"a1\",\"elements\":[{\"id\":\"D\",\"type\":\"DANGLING_LINE\"}]},\n"
        "{\"id\":\"a2\"}]},\n"
        "{\"type\":\"default\",\"name\":\"b\",\"contingencies\":[\n"
        "{\"id\":\"b1\",\"elements\":[{\"id\":\"D\",\"type\":\"DANGLING_LINE\"}],\"x\":0},\n"
        "{\"id\":\"b2\"}],\"version\":\"1.1\"}]}";
    seen2 s = { 0 };
    ctg_error err;

    CU_ASSERT_EQUAL(read2(doc, sizeof(doc) - 1, &s, CTG_READ_LENIENT, &err), CTG_OK);
    expect_log(
        s.log.data,
        "E <memory>:3:41: error: /contingencyLists/0/contingencies/0/elements/0/type: "
        "DANGLING_LINE is not valid for version 1.1, should be <= 1.0 (use BOUNDARY_LINE) "
        "(CTG_ESCHEMA)\n"
        "a/1 a2#1@4:1 id4:7 []\n"
        "E <memory>:6:59: error: /contingencyLists/1/contingencies/0/x: unknown field \"x\" "
        "(CTG_ESCHEMA)\n"
        "b/1 b2#1@7:1 id7:7 []\n");
    free(s.log.data);
}

/* Without places: a lenient read delivers to `contingency`. */
CTG_TEST(stream_v2, lenient_without_places)
{
    seen2 s = { 0 };
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_plain,
                      .error = on_error,
                      .payload = &s };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_source src = ctg_source_buffer(three_bad, sizeof(three_bad) - 1);

    opts.flags = CTG_READ_LENIENT;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.errors, 3);
    CU_ASSERT_STRING_EQUAL(s.log.data + s.log.len - 4, "ok3\n");
    CU_ASSERT_EQUAL(s.contingencies, 3);
    free(s.log.data);
}

/* The flag needs a stream read and a version-2 visitor with `error`: else CTG_EINVAL. */
CTG_TEST(stream_v2, lenient_needs_an_error_callback)
{
    static const char msg[] = "CTG_READ_LENIENT needs a stream read with a version-2 visitor "
                              "whose error callback is set";
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_source src = ctg_source_buffer(multi, sizeof(multi) - 1);
    seen2 s = { 0 };
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_plain, .payload = &s };
    ctg_list *list = (ctg_list *)&s;
    ctg_error err;

    opts.flags = CTG_READ_LENIENT;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, msg);
    v.version = 1;
    v.error = on_error; /* not read: a version-1 visitor has no such field */
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_read_stream(&src, NULL, &opts, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, multi, sizeof(multi) - 1, &opts, &err),
                    CTG_EINVAL);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_STRING_EQUAL(err.message, msg);
    CU_ASSERT_EQUAL(s.contingencies, 0);
    v.version = 2;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, &err), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, 3);
    free(s.log.data);
}

/* Every allocation of a lenient read failing in turn: a clean CTG_ENOMEM, nothing leaked,
 * and the errors reported before the failure are the first ones of the full run. */
CTG_TEST(stream_v2, lenient_allocation_failures)
{
    size_t ok = 0;

    for (size_t fail = 1; fail < 400 && !ok; fail++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_read_options opts = CTG_READ_OPTIONS_INIT;
        ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency_at = on_at,
                          .error = on_error };
        ctg_source src = ctg_source_buffer(three_bad, sizeof(three_bad) - 1);
        seen2 s = { 0 };
        int rc;

        st.fail_at = fail;
        v.payload = &s;
        opts.allocator = &a;
        opts.flags = CTG_READ_LENIENT;
        rc = ctg_read_stream(&src, &v, &opts, NULL);
        CU_ASSERT(rc == (st.failed ? CTG_ENOMEM : CTG_OK));
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        CU_ASSERT(s.log.len <= sizeof(three_bad_log) - 1);
        if (s.log.data) {
            CU_ASSERT(memcmp(s.log.data, three_bad_log, s.log.len) == 0);
        }
        if (!st.failed) {
            ok = fail;
            expect_log(s.log.data, three_bad_log);
        }
        free(s.log.data);
    }
    CU_ASSERT(ok > 1);
}

/* ---- the end of each list ---------------------------------------------------------------- */

static int on_list_end(const ctg_stream_header *h, void *payload)
{
    seen2 *s = payload;

    text_printf(&s->log, "end %s %s %s %zu.%zu\n", ctg_list_kind_name(h->kind),
                h->name ? h->name : "?", h->version ? h->version : "-", h->depth, h->index);
    return s->stop_after_errors && ++s->errors == s->stop_after_errors;
}

/* Every list object ends with its whole header, fields after the contingencies included; an
 * empty list and a list of lists too; a version-1 visitor is not told. */
CTG_TEST(stream_v2, list_end_has_the_whole_header)
{
    static const char doc[] =
        "{\"type\":\"list\",\"name\":\"top\",\"contingencyLists\":["
        "{\"contingencies\":[{\"id\":\"a1\"}],\"type\":\"default\",\"name\":\"late\","
        "\"version\":\"1.0\"},"
        "{\"type\":\"default\",\"name\":\"empty\",\"contingencies\":[]},"
        "{\"type\":\"identifier\",\"version\":\"1.2\",\"name\":\"ids\",\"identifiers\":[]}],"
        "\"version\":\"1.1\"}";
    static const char bare[] = "{\"id\":\"x\"}";
    seen2 s = { 0 };
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_plain,
                      .list_end = on_list_end,
                      .payload = &s };
    ctg_source src = ctg_source_buffer(doc, sizeof(doc) - 1);
    ctg_source src_bare = ctg_source_buffer(bare, sizeof(bare) - 1);
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_OK);
    expect_log(s.log.data, "a1\n"
                           "end default late 1.0 1.0\n"
                           "end default empty - 1.1\n"
                           "end identifier ids 1.2 1.2\n"
                           "end list top 1.1 0.0\n");
    free(s.log.data);
    memset(&s, 0, sizeof(s));
    CU_ASSERT_EQUAL(ctg_read_stream(&src_bare, &v, NULL, NULL), CTG_OK);
    expect_log(s.log.data, "x\nend contingency ? - 0.0\n");
    free(s.log.data);
    memset(&s, 0, sizeof(s));
    s.stop_after_errors = 2; /* here: stop at the second end */
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, &err), CTG_ESTOPPED);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencyLists/1");
    free(s.log.data);
    memset(&s, 0, sizeof(s));
    v.version = 1;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_OK);
    expect_log(s.log.data, "a1\n");
    free(s.log.data);
}

/* Items that are not objects are skipped whole, not a token more: the next item is read. */
CTG_TEST(stream_v2, lenient_skips_items_that_are_not_objects)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[1,"
                              "{\"id\":\"a\"},[2,{\"id\":\"x\"}],\"s\",{\"id\":\"b\"},null]}";
    seen2 s = { 0 };

    CU_ASSERT_EQUAL(read2(doc, sizeof(doc) - 1, &s, CTG_READ_LENIENT, NULL), CTG_OK);
    expect_log(s.log.data,
               "E <memory>:1:47: error: /contingencies/0: expected object, got number "
               "(CTG_ESCHEMA)\n"
               "n/0 a#1@1:49 id1:55 []\n"
               "E <memory>:1:60: error: /contingencies/2: expected object, got array "
               "(CTG_ESCHEMA)\n"
               "E <memory>:1:75: error: /contingencies/3: expected object, got string "
               "(CTG_ESCHEMA)\n"
               "n/0 b#4@1:79 id1:85 []\n"
               "E <memory>:1:90: error: /contingencies/5: expected object, got null "
               "(CTG_ESCHEMA)\n");
    free(s.log.data);
}

#include "test_stream_v2.tests.h"
