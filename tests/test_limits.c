/* SPDX-License-Identifier: MPL-2.0 */
/* Limits, policies and pathological inputs, through the public read API.
 *
 * - The read limits (max_depth, max_string_len, max_document_size), each at exactly N
 *   (accepted) and N + 1 (rejected with CTG_ELIMIT), in memory and through a FILE *.
 * - The overflow-checked growth helpers of base/alloc.h near SIZE_MAX / 2 and SIZE_MAX.
 * - The input policies: duplicate keys, U+0000 in ids and names, lone surrogates, the BOM,
 *   trailing content, doubles that overflow, int64 overflow.
 * - Pathological inputs that must run in linear time (each is timed at two sizes).
 *   CTG_TEST_QUICK=1 in the environment shrinks them tenfold (the valgrind job sets it).
 * - Every prefix of each PowSyBl fixture is rejected cleanly (skipped visibly without the
 *   shared data).
 * - Allocation failure beyond the `default` reader: the writer, a write to a path, the CLI's
 *   convert path (read then write) over every list kind, and the streaming reader, each failing
 *   at every allocator call in turn. */

#include <dirent.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "json/lexer.h"
#include "format/read_internal.h"
#include "tests/test_common.h"

/* ---- helpers --------------------------------------------------------------------------- */

typedef ctg_test_text text;

static void put(text *t, const char *s)
{
    ctg_test_text_add(t, s, strlen(s));
}

static void put_rep(text *t, const char *s, size_t times)
{
    for (size_t i = 0; i < times; i++)
        put(t, s);
}


/* Reads `len` bytes from memory (use_fp = 0) or through a temporary FILE * (1); frees the list.
 * Fills *err on failure; with a non-NULL `out` hands the list over instead of freeing it. */
static int read_doc(const char *doc, size_t len, const ctg_read_options *opts, int use_fp,
                    ctg_error *err, ctg_list **out)
{
    ctg_list *list = NULL;
    int rc;

    memset(err, 0, sizeof *err);
    if (use_fp) {
        FILE *fp = tmpfile();
        CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
        CU_ASSERT_EQUAL_FATAL(fwrite(doc, 1, len, fp), len);
        rewind(fp);
        rc = ctg_list_read_fp(&list, fp, opts, err);
        fclose(fp);
    } else {
        rc = ctg_list_read_buffer(&list, doc, len, opts, err);
    }
    CU_ASSERT((rc == CTG_OK) == (list != NULL));
    if (out != NULL)
        *out = list;
    else
        ctg_list_free(list);
    return rc;
}

/* Both ways must give the same status (and error position); returns it. */
static int read_both(const char *doc, size_t len, const ctg_read_options *opts, ctg_error *err)
{
    ctg_error e2;
    int rc = read_doc(doc, len, opts, 0, err, NULL);
    int rc2 = read_doc(doc, len, opts, 1, &e2, NULL);

    CU_ASSERT_EQUAL(rc2, rc);
    if (rc != CTG_OK) {
        CU_ASSERT_EQUAL(e2.offset, err->offset);
        CU_ASSERT_STRING_EQUAL(e2.message, err->message);
    }
    return rc;
}

/* ---- max_depth ------------------------------------------------------------------------- */

/* `lists` nested `list` lists around a `default` list whose one contingency has an empty
 * elements array (depth 2 * lists + 4) or one element (2 * lists + 5). */
static char *nested_lists(size_t lists, int with_element, size_t *len)
{
    text t = { 0 };

    for (size_t i = 0; i < lists; i++)
        put(&t, "{\"type\":\"list\",\"name\":\"l\",\"contingencyLists\":[");
    put(&t, "{\"type\":\"default\",\"name\":\"d\",\"contingencies\":[{\"id\":\"c\",\"elements\":[");
    if (with_element)
        put(&t, "{\"id\":\"G\",\"type\":\"GENERATOR\"}");
    put(&t, "]}]}");
    put_rep(&t, "]}", lists);
    *len = t.len;
    return t.data;
}

static void check_depth(size_t max_depth, size_t depth_ok)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    size_t lists = (depth_ok - 4) / 2, len;
    int odd = (int)((depth_ok - 4) % 2);
    char *ok = nested_lists(lists, odd, &len);
    char *deep = nested_lists(lists + (size_t)odd, !odd, &len);
    ctg_error err;

    opts.max_depth = max_depth;
    len = strlen(ok);
    CU_ASSERT_EQUAL(read_both(ok, len, &opts, &err), CTG_OK);
    len = strlen(deep);
    CU_ASSERT_EQUAL(read_both(deep, len, &opts, &err), CTG_ELIMIT);
    /* The error points at the bracket that opens level N + 1. */
    CU_ASSERT(err.offset < len && (deep[err.offset] == '{' || deep[err.offset] == '['));
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, err.offset + 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nesting deeper than"));
    free(ok);
    free(deep);
}

CTG_TEST(limits, max_depth_default_is_64)
{
    CU_ASSERT_EQUAL(CTG_DEFAULT_MAX_DEPTH, 64);
    check_depth(0, 64); /* 0 means the default */
    check_depth(CTG_DEFAULT_MAX_DEPTH, 64);
}

CTG_TEST(limits, max_depth_option)
{
    check_depth(5, 5);
    check_depth(10, 10);
    check_depth(65, 65);
    check_depth(211, 211); /* past the lexer's 64-level inline stack */
}

/* ---- max_string_len -------------------------------------------------------------------- */

static char *named_list(const char *name)
{
    text t = { 0 };

    put(&t, "{\"type\":\"default\",\"name\":\"");
    put(&t, name);
    put(&t, "\",\"contingencies\":[]}");
    return t.data;
}

static void check_name_limit(const char *name, size_t limit, int expected)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    char *doc = named_list(name);
    ctg_error err;

    opts.max_string_len = limit;
    CU_ASSERT_EQUAL(read_both(doc, strlen(doc), &opts, &err), expected);
    if (expected == CTG_ELIMIT) {
        CU_ASSERT_EQUAL(err.column, 26); /* the opening quote of the name */
        CU_ASSERT_STRING_EQUAL(err.path, "/name");
    }
    free(doc);
}

CTG_TEST(limits, max_string_len)
{
    text name = { 0 };

    put_rep(&name, "x", 100);
    check_name_limit(name.data, 100, CTG_OK);
    check_name_limit(name.data, 99, CTG_ELIMIT);
    free(name.data);
    /* The limit counts decoded bytes: 50 escapes of U+00E9 are 100 bytes, in 300 of text. */
    name = (text){ 0 };
    put_rep(&name, "\\u00e9", 50);
    check_name_limit(name.data, 100, CTG_OK);
    check_name_limit(name.data, 99, CTG_ELIMIT);
    free(name.data);
}

CTG_TEST(limits, max_string_len_applies_to_keys_and_numbers)
{
    static const char key[] = "{\"type\":\"default\",\"name\":\"n\",\"contingenciesX\":[]}";
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_error err;

    opts.max_string_len = 13;
    CU_ASSERT_EQUAL(read_both(key, strlen(key), &opts, &err), CTG_ELIMIT);
    CU_ASSERT_EQUAL(err.column, 30);
    opts.max_string_len = 14;
    CU_ASSERT_EQUAL(read_both(key, strlen(key), &opts, &err), CTG_ESCHEMA);
}

/* ---- max_document_size ----------------------------------------------------------------- */

CTG_TEST(limits, max_document_size)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"n\"}  ";
    const size_t n = sizeof doc - 1;
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_error err;

    opts.max_document_size = n;
    CU_ASSERT_EQUAL(read_both(doc, n, &opts, &err), CTG_OK);
    opts.max_document_size = n - 1;
    CU_ASSERT_EQUAL(read_both(doc, n, &opts, &err), CTG_ELIMIT);
    CU_ASSERT_EQUAL(err.offset, n - 1);
    /* Without the trailing spaces: the value ends exactly at the limit. */
    opts.max_document_size = n - 2;
    CU_ASSERT_EQUAL(read_both(doc, n - 2, &opts, &err), CTG_OK);
    opts.max_document_size = n - 3;
    CU_ASSERT_EQUAL(read_both(doc, n - 2, &opts, &err), CTG_ELIMIT);
}

/* ---- growth helpers -------------------------------------------------------------------- */

CTG_TEST(limits, size_add_and_mul_near_size_max)
{
    size_t r = 0;

    CU_ASSERT_TRUE(ctg_size_add(SIZE_MAX - 1, 1, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX);
    CU_ASSERT_FALSE(ctg_size_add(SIZE_MAX, 1, &r));
    CU_ASSERT_FALSE(ctg_size_add(1, SIZE_MAX, &r));
    CU_ASSERT_FALSE(ctg_size_add(SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1, &r));
    CU_ASSERT_TRUE(ctg_size_add(SIZE_MAX / 2, SIZE_MAX / 2 + 1, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX);
    CU_ASSERT_TRUE(ctg_size_add(SIZE_MAX, 0, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX);

    CU_ASSERT_TRUE(ctg_size_mul(SIZE_MAX / 2, 2, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX - 1);
    CU_ASSERT_FALSE(ctg_size_mul(SIZE_MAX / 2 + 1, 2, &r));
    CU_ASSERT_FALSE(ctg_size_mul(2, SIZE_MAX / 2 + 1, &r));
    CU_ASSERT_FALSE(ctg_size_mul(SIZE_MAX, SIZE_MAX, &r));
    CU_ASSERT_TRUE(ctg_size_mul(SIZE_MAX, 1, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX);
    CU_ASSERT_TRUE(ctg_size_mul(SIZE_MAX, 0, &r));
    CU_ASSERT_EQUAL(r, 0);
    CU_ASSERT_TRUE(ctg_size_mul(0, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, 0);
    /* 2^(w/2) squared overflows a w-bit size_t by one bit (w = 64, or 32 on 32-bit). A
     * shift by the width itself would be undefined, so the shifts stay below it. */
    const unsigned half = (unsigned)(sizeof(size_t) * CHAR_BIT / 2);
    CU_ASSERT_FALSE(ctg_size_mul((size_t)1 << half, (size_t)1 << half, &r));
    CU_ASSERT_TRUE(ctg_size_mul((size_t)1 << (half - 1), (size_t)1 << half, &r));
    CU_ASSERT_EQUAL(r, (size_t)1 << (2 * half - 1));
}

CTG_TEST(limits, grow_capacity_near_size_max)
{
    size_t r = 0;

    CU_ASSERT_TRUE(ctg_grow_capacity(0, 1, 16, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, 16);
    CU_ASSERT_TRUE(ctg_grow_capacity(16, 17, 16, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, 32);
    CU_ASSERT_TRUE(ctg_grow_capacity(16, 100, 16, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, 128);
    CU_ASSERT_TRUE(ctg_grow_capacity(32, 20, 16, SIZE_MAX, &r)); /* fits: unchanged */
    CU_ASSERT_EQUAL(r, 32);
    /* Doubling SIZE_MAX / 2 still fits; one more and the limit itself is the answer. */
    CU_ASSERT_TRUE(ctg_grow_capacity(SIZE_MAX / 2, SIZE_MAX / 2 + 1, 1, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX - 1);
    CU_ASSERT_TRUE(ctg_grow_capacity(SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 2, 1, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX);
    CU_ASSERT_TRUE(ctg_grow_capacity(SIZE_MAX - 1, SIZE_MAX, 1, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX);
    CU_ASSERT_TRUE(ctg_grow_capacity(0, SIZE_MAX, 1, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX);
    /* Past the limit: refused, whatever the sizes. */
    CU_ASSERT_FALSE(ctg_grow_capacity(SIZE_MAX / 2, SIZE_MAX / 2 + 1, 1, SIZE_MAX / 2, &r));
    CU_ASSERT_FALSE(ctg_grow_capacity(10, 11, 1, 10, &r));
    /* A limit that is not a power of two is reached exactly. */
    CU_ASSERT_TRUE(ctg_grow_capacity(8, 9, 1, 10, &r));
    CU_ASSERT_EQUAL(r, 10);
    CU_ASSERT_TRUE(ctg_grow_capacity(SIZE_MAX / 3, SIZE_MAX / 3 + 1, 1, SIZE_MAX / 2, &r));
    CU_ASSERT_EQUAL(r, SIZE_MAX / 2);
    /* min larger than need wins; zero everything asks for nothing. */
    CU_ASSERT_TRUE(ctg_grow_capacity(0, 3, 4096, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, 4096);
    CU_ASSERT_TRUE(ctg_grow_capacity(0, 0, 0, SIZE_MAX, &r));
    CU_ASSERT_EQUAL(r, 0);
}

/* ---- policies -------------------------------------------------------------------------- */

static int read_text(const char *doc, ctg_error *err)
{
    return read_both(doc, strlen(doc), NULL, err);
}

CTG_TEST(limits, duplicate_keys_name_both_positions)
{
    static const char root[] = "{\"type\":\"default\",\n\"name\":\"a\",\n  \"name\":\"b\"}";
    static const char element[] =
        "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\",\"elements\":[\n"
        "{\"id\":\"x\",\"type\":\"LINE\",\"id\":\"y\"}]}]}";
    ctg_error err;

    CU_ASSERT_EQUAL(read_text(root, &err), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.line, 3);
    CU_ASSERT_EQUAL(err.column, 3);
    CU_ASSERT_STRING_EQUAL(err.path, "/name");
    CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"name\" (first at line 2, column 1)");
    CU_ASSERT_EQUAL(read_text(element, &err), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(err.column, 25);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/0/elements/0/id");
    CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"id\" (first at line 2, column 2)");
}

/* Inside an extension's value too (it is kept as a json-c value, which would keep the last). */
CTG_TEST(limits, duplicate_keys_in_extension_values_name_both_positions)
{
    static const char doc[] =
        "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\",\"extensions\":"
        "{\"e\":{\"a\":1,\n \"a\":2}}}]}";
    ctg_error err;

    CU_ASSERT_EQUAL(read_text(doc, &err), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(err.column, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "(first at line 1, column 76)"));
}

CTG_TEST(limits, nul_in_ids_and_names_rejected)
{
    static const char *const docs[] = {
        "{\"type\":\"default\",\"name\":\"a\\u0000b\"}",
        "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"\\u0000\"}]}",
        "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\",\"name\":\"x\\u0000\"}]}",
        "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\",\"elements\":"
        "[{\"id\":\"L\\u0000\",\"type\":\"LINE\"}]}]}",
        "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\",\"elements\":"
        "[{\"id\":\"L\",\"type\":\"LINE\",\"voltageLevelId\":\"\\u0000\"}]}]}",
    };
    static const char *const paths[] = { "/name", "/contingencies/0/id", "/contingencies/0/name",
                                          "/contingencies/0/elements/0/id",
                                          "/contingencies/0/elements/0/voltageLevelId" };
    ctg_error err;

    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        CU_ASSERT_EQUAL(read_text(docs[i], &err), CTG_ESCHEMA);
        CU_ASSERT_STRING_EQUAL(err.path, paths[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "U+0000"));
    }
}

CTG_TEST(limits, lone_surrogates_rejected)
{
    static const char *const names[] = { "\\ud800", "\\udfff", "a\\udc00b", "\\ud800\\ud800",
                                         "\\udc00\\ud800", "\\ud83d\\u0041", "\\ud83d" };
    ctg_error err;

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *doc = named_list(names[i]);
        CU_ASSERT_EQUAL(read_text(doc, &err), CTG_ESYNTAX);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "surrogate"));
        free(doc);
    }
    /* A proper pair is one code point, U+1F600, four bytes of UTF-8. */
    char *doc = named_list("\\ud83d\\ude00");
    ctg_list *list = NULL;
    CU_ASSERT_EQUAL(read_doc(doc, strlen(doc), NULL, 0, &err, &list), CTG_OK);
    if (list != NULL)
        CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "\xf0\x9f\x98\x80");
    ctg_list_free(list);
    free(doc);
}

CTG_TEST(limits, one_bom_accepted_two_rejected)
{
    static const char one[] = "\xef\xbb\xbf{\"type\":\"default\",\"name\":\"n\"}";
    static const char two[] = "\xef\xbb\xbf\xef\xbb\xbf{\"type\":\"default\",\"name\":\"n\"}";
    static const char late[] = " \xef\xbb\xbf{\"type\":\"default\",\"name\":\"n\"}";
    ctg_error err;

    CU_ASSERT_EQUAL(read_text(one, &err), CTG_OK);
    CU_ASSERT_EQUAL(read_text(two, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 3);
    CU_ASSERT_EQUAL(err.column, 4);
    CU_ASSERT_EQUAL(read_text(late, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 1);
}

CTG_TEST(limits, trailing_content_rejected)
{
    static const char *const tails[] = { "x", "{}", "\"s\"", "0", "]", "}", ",", "\x00",
                                         "\xef\xbb\xbf", "/" };
    static const char base[] = "{\"type\":\"default\",\"name\":\"n\"}";
    ctg_error err;

    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        char doc[64];
        size_t len = sizeof base - 1, tail = tails[i][0] ? strlen(tails[i]) : 1;
        memcpy(doc, base, len);
        memcpy(doc + len, " \n ", 3);
        memcpy(doc + len + 3, tails[i], tail);
        CU_ASSERT_EQUAL(read_both(doc, len + 3 + tail, NULL, &err), CTG_ESYNTAX);
        CU_ASSERT_EQUAL(err.offset, len + 3);
        CU_ASSERT_EQUAL(err.line, 2);
        CU_ASSERT_EQUAL(err.column, 2);
    }
    /* Whitespace alone may follow. */
    CU_ASSERT_EQUAL(read_text("{\"type\":\"default\",\"name\":\"n\"} \r\n\t ", &err), CTG_OK);
}

/* First token status of `json` through the lexer (memory mode), skipping '[' tokens. */
static int lex_first_value(const char *json, ctg_token *tok, ctg_error *err)
{
    ctg_lex_source src = { json, strlen(json), NULL, NULL };
    ctg_lexer lx;
    int rc = ctg_lexer_init(&lx, &src, NULL, NULL);

    while (rc == CTG_OK && (rc = ctg_lexer_next(&lx, tok, err)) == CTG_OK &&
           tok->type == CTG_TOK_ARRAY_BEGIN)
        ;
    ctg_lexer_dispose(&lx);
    return rc;
}

CTG_TEST(limits, double_overflow_is_an_error)
{
    static const char criterion[] =
        "{\"type\":\"lineCriterion\",\"version\":\"1.1\",\"name\":\"n\",\"nominalVoltageCriterion\":"
        "{\"type\":\"TWO_NOMINAL_VOLTAGE\",\"voltageInterval1\":{\"nominalVoltageLowBound\":"
        "1e400,\"lowClosed\":true}}}";
    static const char *const big[] = { "[1e400]", "[-1e400]", "[1.8e308]",
                                       "[179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792]" };
    ctg_token tok;
    ctg_error err;

    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        CU_ASSERT_EQUAL(lex_first_value(big[i], &tok, &err), CTG_ESYNTAX);
        CU_ASSERT_EQUAL(err.offset, 1);
        CU_ASSERT_STRING_EQUAL(err.message, "number out of range");
    }
    /* The largest double and underflow to zero are fine. */
    CU_ASSERT_EQUAL(lex_first_value("[1.7976931348623157e308]", &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.number, DBL_MAX);
    CU_ASSERT_EQUAL(lex_first_value("[1e-400]", &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.number, 0.0);
    /* And through the public read, as a voltage bound of a criterion list. */
    CU_ASSERT_EQUAL(read_text(criterion, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, strstr(criterion, "1e400") - criterion);
    CU_ASSERT_STRING_EQUAL(err.message, "number out of range");
}

CTG_TEST(limits, int64_overflow_is_an_error)
{
    int64_t v = 0;

    CU_ASSERT_TRUE(ctg_parse_int64("9223372036854775807", 19, &v));
    CU_ASSERT_EQUAL(v, INT64_MAX);
    CU_ASSERT_TRUE(ctg_parse_int64("-9223372036854775808", 20, &v));
    CU_ASSERT_EQUAL(v, INT64_MIN);
    CU_ASSERT_FALSE(ctg_parse_int64("9223372036854775808", 19, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("-9223372036854775809", 20, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("18446744073709551616", 20, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("99999999999999999999999", 23, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("1e3", 3, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("1.0", 3, &v));
    CU_ASSERT_TRUE(ctg_parse_int64("-0", 2, &v));
    CU_ASSERT_EQUAL(v, 0);
}

/* ---- pathological inputs ----------------------------------------------------------------- */

/* Runs at n / 4 and at n; each run checks its own result. How the time grows is measured by
 * contingency-bench (its scaling and flooding sections, and the key set's probe counts in the
 * hostile suite), not here: a timed unit test is noise on a shared machine. */
static void run_sizes(void (*run)(size_t), size_t n)
{
    run(n / 4);
    run(n);
}

static void nested_arrays(size_t n)
{
    text t = { 0 };
    ctg_lex_limits lim = { n + 1, 0, 0 };
    ctg_lex_source src;
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;
    size_t tokens = 0;
    int rc;

    put_rep(&t, "[", n);
    put_rep(&t, "]", n);
    src = (ctg_lex_source){ t.data, t.len, NULL, NULL };
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, &lim, NULL), CTG_OK);
    while ((rc = ctg_lexer_next(&lx, &tok, &err)) == CTG_OK && tok.type != CTG_TOK_EOF)
        tokens++;
    CU_ASSERT_EQUAL(rc, CTG_OK);
    CU_ASSERT_EQUAL(tokens, 2 * n);
    ctg_lexer_dispose(&lx);
    free(t.data);
}

/* 100,000 nested arrays: the lexer with the limit raised takes them; the reader stops at the
 * default limit, in a contingency's extensions where any value is allowed. */
CTG_TEST(limits, 100k_nested_arrays)
{
    static const char head[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\","
                               "\"extensions\":{\"deep\":";
    const size_t n = ctg_test_scaled(100000);
    text t = { 0 };
    ctg_error err;

    run_sizes(nested_arrays, n);
    put(&t, head);
    put_rep(&t, "[", n);
    put_rep(&t, "]", n);
    put(&t, "}}]}");
    CU_ASSERT_EQUAL(read_both(t.data, t.len, NULL, &err), CTG_ELIMIT);
    CU_ASSERT_EQUAL(err.offset, sizeof head - 1 + 64 - 4);
    free(t.data);
}

static char *big_name_doc(size_t n, size_t *len)
{
    text t = { 0 };
    char *name = malloc(n + 1);

    CU_ASSERT_PTR_NOT_NULL_FATAL(name);
    for (size_t i = 0; i < n; i++)
        name[i] = (char)('a' + i % 26);
    name[n] = '\0';
    put(&t, "{\"type\":\"default\",\"name\":\"");
    ctg_test_text_add(&t, name, n);
    put(&t, "\"}");
    free(name);
    *len = t.len;
    return t.data;
}

static void read_big_name(size_t n)
{
    size_t len;
    char *doc = big_name_doc(n, &len);
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(read_doc(doc, len, NULL, 1, &err, &list), CTG_OK);
    if (list != NULL)
        CU_ASSERT_EQUAL(strlen(ctg_list_name(list)), n);
    ctg_list_free(list);
    free(doc);
}

/* A 10 MB list name: read whole (memory and FILE *) under the default 64 MiB limit, refused
 * under a smaller one. */
CTG_TEST(limits, 10mb_single_string)
{
    const size_t n = ctg_test_scaled(10u * 1000 * 1000);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    size_t len;
    char *doc;
    ctg_error err;

    run_sizes(read_big_name, n);
    doc = big_name_doc(n, &len);
    CU_ASSERT_EQUAL(read_doc(doc, len, NULL, 0, &err, NULL), CTG_OK);
    opts.max_string_len = n;
    CU_ASSERT_EQUAL(read_both(doc, len, &opts, &err), CTG_OK);
    opts.max_string_len = n - 1;
    CU_ASSERT_EQUAL(read_both(doc, len, &opts, &err), CTG_ELIMIT);
    CU_ASSERT_EQUAL(err.column, 26);
    opts.max_string_len = 1000;
    CU_ASSERT_EQUAL(read_both(doc, len, &opts, &err), CTG_ELIMIT);
    free(doc);
}

static char *many_keys_doc(size_t n, int as_extensions)
{
    text t = { 0 };
    char key[48];

    put(&t, "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\",\"extensions\":{");
    if (!as_extensions)
        put(&t, "\"big\":{");
    for (size_t i = 0; i < n; i++) {
        int k = snprintf(key, sizeof key, "%s\"k%zu\":%s", i ? "," : "", i,
                         as_extensions ? "{}" : "1");
        ctg_test_text_add(&t, key, (size_t)k);
    }
    put(&t, as_extensions ? "}}]}" : "}}}]}");
    return t.data;
}

static void read_many_keys(size_t n)
{
    char *doc = many_keys_doc(n, 0);
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(read_doc(doc, strlen(doc), NULL, 0, &err, &list), CTG_OK);
    if (list != NULL) {
        const ctg_contingency *c = ctg_list_contingency_at(list, 0);
        CU_ASSERT_EQUAL(c->extension_count, 1);
    } else {
        printf("\n  1M keys: %s %s: %s", ctg_status_name(err.code), err.path, err.message);
    }
    ctg_list_free(list);
    free(doc);
}

/* 1,000,000 keys in one extension's object, and 100,000 extensions in one contingency: the
 * duplicate-key checks must not be quadratic. */
CTG_TEST(limits, 1m_keys_in_one_extension_object)
{
    const size_t n = ctg_test_scaled(1000000);
    char *doc;
    ctg_list *list = NULL;
    ctg_error err;

    run_sizes(read_many_keys, n);
    doc = many_keys_doc(n / 10, 1);
    CU_ASSERT_EQUAL(read_doc(doc, strlen(doc), NULL, 0, &err, &list), CTG_OK);
    if (list != NULL)
        CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extension_count, n / 10);
    ctg_list_free(list);
    free(doc);
}

static void read_whitespace(size_t n)
{
    text t = { 0 };
    ctg_error err;

    put(&t, "{\"type\":\"default\",\"name\":\"n\"}");
    for (size_t i = 0; i < n; i++)
        ctg_test_text_add(&t, &" \n\t\r"[i % 4], 1);
    CU_ASSERT_EQUAL(read_both(t.data, t.len, NULL, &err), CTG_OK);
    put(&t, "x");
    CU_ASSERT_EQUAL(read_doc(t.data, t.len, NULL, 1, &err, NULL), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, t.len - 1);
    CU_ASSERT_EQUAL(err.line, (unsigned)(1 + (n + 2) / 4));
    free(t.data);
}

/* 10 MB of whitespace, alone (an empty document) and after a list. */
CTG_TEST(limits, 10mb_whitespace)
{
    const size_t n = ctg_test_scaled(10u * 1000 * 1000);
    char *ws = malloc(n);
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(ws);
    memset(ws, ' ', n);
    CU_ASSERT_EQUAL(read_both(ws, n, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, n);
    free(ws);
    run_sizes(read_whitespace, n);
}

/* ---- prefixes of the PowSyBl fixtures ---------------------------------------------------- */

/* Every proper prefix fails, with CTG_ESYNTAX at or before its end when the whole file reads,
 * and the counting allocator sees everything released. Returns the prefixes checked. */
static size_t check_prefixes(const char *path)
{
    size_t len, bad = 0;
    char *doc = ctg_test_slurp(path, &len);
    ctg_error err;
    int whole;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    whole = read_doc(doc, len, NULL, 0, &err, NULL);
    for (size_t n = 0; n < len; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_read_options opts = CTG_READ_OPTIONS_INIT;
        ctg_list *list = NULL;
        int rc;

        opts.allocator = &a;
        rc = ctg_list_read_buffer(&list, doc, n, &opts, &err);
        if (rc == CTG_OK || list != NULL || st.live_bytes != 0 || st.bad_sizes != 0 ||
            err.code != rc || (whole == CTG_OK && (rc != CTG_ESYNTAX || err.offset > n))) {
            if (bad++ == 0)
                printf("\n  %s: prefix of %zu bytes: %s at %zu: %s", path, n,
                       ctg_status_name(rc), err.offset, err.message);
        }
        ctg_list_free(list);
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(doc);
    return len;
}

CTG_SHARED_TEST(limits, every_prefix_of_the_fixtures_rejected)
{
    const char *shared = ctg_test_shared_dir();
    char dir[1024];
    DIR *d;
    struct dirent *ent;
    size_t files = 0, prefixes = 0;

    snprintf(dir, sizeof dir, "%s/powsybl", shared);
    d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        char path[2048];

        if (n < 5 || strcmp(ent->d_name + n - 5, ".json") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        prefixes += check_prefixes(path);
        files++;
    }
    closedir(d);
    printf("\n  %zu prefixes of %zu fixtures", prefixes, files);
    CU_ASSERT(files >= 30);
}

/* ---- allocation failure beyond the reader ------------------------------------------------ */

static const char sample[] =
    "{\"type\":\"default\",\"version\":\"1.0\",\"name\":\"sample\",\"contingencies\":["
    "{\"id\":\"c1\",\"name\":\"first \\\"one\\\"\",\"elements\":[{\"id\":\"L1\",\"type\":\"LINE\","
    "\"voltageLevelId\":\"VL1\"},{\"id\":\"D\",\"type\":\"DANGLING_LINE\"}]},"
    "{\"id\":\"c2\",\"elements\":[]},{\"id\":\"c3\",\"elements\":[{\"id\":\"G\\u00e9\\t\","
    "\"type\":\"GENERATOR\"}]}]}";

/* Every kind in one document: a `list` of a `default` list with extensions, an identifier list
 * and each criterion kind, so that a sweep goes through every reader and writer. */
static const char every_kind[] =
    "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"all\",\"contingencyLists\":["
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"d\",\"contingencies\":[{\"id\":\"c\","
    "\"elements\":[{\"id\":\"L\",\"type\":\"LINE\",\"voltageLevelId\":\"V\"}],"
    "\"extensions\":{\"e\":{\"a\":[1,2.5,\"s\",true,null],\"b\":{}}}}]},"
    "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"i\",\"identifiers\":["
    "{\"type\":\"ID_BASED\",\"contingencyId\":\"c1\",\"identifier\":\"x\"},"
    "{\"type\":\"LIST\",\"identifierList\":[{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\","
    "\"voltageLevelId1\":\"a\",\"voltageLevelId2\":\"b\",\"order\":\"1\"}]},"
    "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"x?\",\"wildcard\":\"?\"},"
    "{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\",\"substationOrVoltageLevelId\":\"S\","
    "\"voltageLevelIdentifiableTypes\":[\"LINE\"]}]},"
    "{\"type\":\"injectionCriterion\",\"name\":\"j\",\"identifiableType\":\"LOAD\","
    "\"countryCriterion\":{\"type\":\"SINGLE_COUNTRY\",\"countries\":[\"FR\"]}},"
    "{\"type\":\"lineCriterion\",\"name\":\"l\",\"nominalVoltageCriterion\":{\"type\":"
    "\"TWO_NOMINAL_VOLTAGE\",\"voltageInterval1\":{\"nominalVoltageLowBound\":200.0,"
    "\"lowClosed\":true}},\"propertyCriteria\":[{\"type\":\"PROPERTY\",\"propertyKey\":\"k\","
    "\"propertyValue\":[\"v\"],\"equipmentToCheck\":\"SELF\"}],\"regexCriterion\":"
    "{\"type\":\"REGEX\",\"regex\":\"L.*\"}},"
    "{\"type\":\"hvdcCriterion\",\"name\":\"h\"},{\"type\":\"tieLineCriterion\",\"name\":\"t\"},"
    "{\"type\":\"twoWindingsTransformerCriterion\",\"name\":\"w\"},"
    "{\"type\":\"threeWindingsTransformerCriterion\",\"name\":\"3\",\"nominalVoltageCriterion\":"
    "{\"type\":\"THREE_NOMINAL_VOLTAGE\",\"voltageInterval2\":{\"nominalVoltageHighBound\":"
    "400.0,\"highClosed\":false}}}]}";

static ctg_list *list_of(const char *doc)
{
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(read_doc(doc, strlen(doc), NULL, 0, &err, &list), CTG_OK);
    return list;
}

static ctg_list *sample_list(void)
{
    return list_of(sample);
}

/* ctg_list_write_buf with the Nth allocator call failing, for every N: CTG_ENOMEM, the buffer
 * keeps its bytes and length, nothing leaks; then the write that succeeds appends the same
 * bytes as a write without a failing allocator. */
static void write_sweep(const char *doc, unsigned flags)
{
    ctg_list *list = list_of(doc);
    ctg_write_options plain = CTG_WRITE_OPTIONS_INIT;
    ctg_buf want = CTG_BUF_INIT;
    size_t n;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    plain.flags = flags;
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&want, list, &plain, NULL), CTG_OK);
    for (n = 1; n < 10000; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_write_options opts = plain;
        ctg_buf buf = CTG_BUF_INIT;
        ctg_error err;
        int rc;

        buf.allocator = &a;
        opts.allocator = &a;
        CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&buf, list, &opts, &err), CTG_OK); /* "old" */
        st.fail_at = st.calls + n;
        rc = ctg_list_write_buf(&buf, list, &opts, &err);
        if (!st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            CU_ASSERT_EQUAL(buf.len, 2 * want.len);
            CU_ASSERT(buf.len == 2 * want.len && memcmp(buf.data + want.len, want.data,
                                                        want.len) == 0);
        } else {
            CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
            CU_ASSERT_EQUAL(err.code, CTG_ENOMEM);
            CU_ASSERT_EQUAL(buf.len, want.len);
            CU_ASSERT(buf.len == want.len && memcmp(buf.data, want.data, want.len) == 0);
        }
        ctg_buf_dispose(&buf);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        if (!st.failed)
            break;
    }
    printf("\n  write (flags %u): %zu failure points", flags, n - 1);
    ctg_buf_dispose(&want);
    ctg_list_free(list);
}

CTG_TEST(limits, write_buf_allocation_failure_sweep)
{
    write_sweep(sample, 0);
    write_sweep(sample, CTG_WRITE_COMPACT);
    write_sweep(every_kind, 0);
    write_sweep(every_kind, CTG_WRITE_COMPACT);
}

/* ctg_list_write_file with a failing allocator: the old file stays as it was, no temporary
 * file is left beside it. */
CTG_TEST(limits, write_file_allocation_failure_sweep)
{
    const char *tmp = getenv("TMPDIR");
    ctg_list *list = sample_list();
    char dir[512], path[600];
    size_t n, len, entries;

    snprintf(dir, sizeof dir, "%s/ctg-limits-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.json", dir);
    for (n = 1; n < 10000; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
        FILE *fp = fopen(path, "wb");
        char *back;
        int rc;

        CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
        fputs("old", fp);
        fclose(fp);
        opts.allocator = &a;
        st.fail_at = n;
        rc = ctg_list_write_file(path, list, &opts, NULL);
        back = ctg_test_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(back);
        if (st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
            CU_ASSERT_STRING_EQUAL(back, "old");
        } else {
            CU_ASSERT_EQUAL(rc, CTG_OK);
        }
        free(back);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        DIR *d = opendir(dir);
        entries = 0;
        /* Every entry but "." and "..": the temporary files are hidden ones. */
        for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
            entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
        closedir(d);
        CU_ASSERT_EQUAL(entries, 1);
        if (!st.failed)
            break;
    }
    printf("\n  write to a path: %zu failure points", n - 1);
    remove(path);
    rmdir(dir);
    ctg_list_free(list);
}

/* One read then write (the CLI's convert) with the fail_at-th allocator call failing; returns
 * whether that call was made. `want` is the output without failures. */
static bool convert_once(const char *doc, const ctg_buf *want, unsigned flags, size_t fail_at)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options ropts = CTG_READ_OPTIONS_INIT;
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    int rc;

    ropts.allocator = &a;
    wopts.allocator = &a;
    wopts.flags = flags;
    buf.allocator = &a;
    st.fail_at = fail_at;
    rc = ctg_list_read_buffer_ex(&list, doc, strlen(doc), &ropts, &err, CTG_ARENA_EXACT);
    if (rc == CTG_OK)
        rc = ctg_list_write_buf(&buf, list, &wopts, &err);
    if (st.failed) {
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_EQUAL(buf.len, 0);
    } else {
        CU_ASSERT_EQUAL(rc, CTG_OK);
        CU_ASSERT(buf.len == want->len && memcmp(buf.data, want->data, want->len) == 0);
    }
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    return st.failed;
}

static size_t convert_sweep(const char *doc, unsigned flags)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf want = CTG_BUF_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    size_t n = 1;

    opts.flags = flags;
    CU_ASSERT_EQUAL_FATAL(read_doc(doc, strlen(doc), NULL, 0, &err, &list), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&want, list, &opts, NULL), CTG_OK);
    ctg_list_free(list);
    while (convert_once(doc, &want, flags, n) && n < 100000)
        n++;
    ctg_buf_dispose(&want);
    return n - 1;
}

/* The CLI's convert path at library level: read then write with one failing allocator, over
 * a `default` list and over a document of every kind (every reader and writer). */
CTG_TEST(limits, convert_allocation_failure_sweep)
{
    size_t a = convert_sweep(sample, 0), b = convert_sweep(every_kind, 0);
    size_t c = convert_sweep(every_kind, CTG_WRITE_COMPACT);

    printf("\n  convert: %zu, %zu and %zu failure points", a, b, c);
    CU_ASSERT(a > 10);
    CU_ASSERT(b > 50);
    CU_ASSERT_EQUAL(c, b);
}

static int count_item(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    (void)h;
    (void)c;
    (*(size_t *)payload)++;
    return 0;
}

static int count_list(const ctg_stream_header *h, const ctg_list *l, void *payload)
{
    (void)h;
    (void)l;
    (*(size_t *)payload)++;
    return 0;
}

/* The streaming reader over the document of every kind, failing at every allocator call. */
CTG_TEST(limits, stream_allocation_failure_sweep)
{
    size_t n;

    for (n = 1; n < 100000; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_read_options opts = CTG_READ_OPTIONS_INIT;
        ctg_source src = ctg_source_buffer(every_kind, sizeof every_kind - 1);
        size_t items = 0;
        ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                          .contingency = count_item,
                          .list = count_list,
                          .payload = &items };
        int rc;

        opts.allocator = &a;
        st.fail_at = n;
        rc = ctg_read_stream(&src, &v, &opts, NULL);
        CU_ASSERT_EQUAL(rc, st.failed ? CTG_ENOMEM : CTG_OK);
        if (!st.failed)
            CU_ASSERT_EQUAL(items, 8); /* one contingency and seven whole lists */
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        if (!st.failed)
            break;
    }
    printf("\n  stream: %zu failure points", n - 1);
    CU_ASSERT(n > 5);
}

#include "test_limits.tests.h"
