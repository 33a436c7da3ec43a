/* SPDX-License-Identifier: MPL-2.0 */
/* Input written by an attacker: values that once blew memory up, nested deep enough to
 * overflow a recursive free, keys chosen to collide, strings far past the limit, lines past
 * 2^32. Each test here failed on the code before the fix it guards. */

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "bench/gen_hostile.h"
#include "ctg/ctg.h"
#include "json/keyset.h"
#include "json/lexer.h"
#include "tests/test_common.h"

/* ---- memory ------------------------------------------------------------------------------ */

/* A `default` list of `n` contingencies in PowSyBl's layout, each with {"e" : { }}. */
static char *empty_extension_doc(size_t n, size_t *len)
{
    bench_bytes b = BENCH_BYTES_INIT;

    BENCH_PUT(&b, "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"e\",\n"
                  "  \"contingencies\" : [ ");
    for (size_t i = 0; i < n; i++) {
        bench_put_str(&b, i ? ", {\n    \"id\" : \"c" : "{\n    \"id\" : \"c");
        bench_put_number(&b, i, 7);
        BENCH_PUT(&b, "\",\n    \"elements\" : [ ],\n    \"extensions\" : {\n      \"e\" : { }\n"
                      "    }\n  }");
    }
    BENCH_PUT(&b, " ]\n}");
    *len = b.len;
    return b.failed ? NULL : b.data;
}

/* One contingency whose extension "e" is [{},{},...] of `items` items, compact. */
static char *big_array_doc(size_t items, size_t *len)
{
    bench_bytes b = BENCH_BYTES_INIT;

    BENCH_PUT(&b, "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"e\",\"contingencies\":[{"
                  "\"id\":\"c\",\"elements\":[],\"extensions\":{\"e\":[");
    for (size_t i = 0; i < items; i++)
        bench_put_str(&b, i ? ",{}" : "{}");
    BENCH_PUT(&b, "]}}]}");
    *len = b.len;
    return b.failed ? NULL : b.data;
}

/* A full read of many small extensions takes memory near the file's size, not json-c's 18x. */
CTG_TEST(hostile, many_small_extensions_stay_near_the_file_size)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    size_t len;
    char *doc = empty_extension_doc(20000, &len);
    ctg_list *list = NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    opts.allocator = &a;
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, len, &opts, NULL), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 19999)->extensions[0].json, "{}");
    /* A contingency's structs, id, name and text take about 110 bytes, for the 95 of its
     * layout; the reader's item stack and the arena's last chunk add slack. */
    CU_ASSERT(st.peak_bytes < 5 * len / 2); /* json-c's trees took 18.5 times the file */
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    free(doc);
}

typedef struct counted {
    size_t contingencies;
    size_t skipped;
} counted;

static int count_skipped(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    counted *n = payload;

    (void)h;
    n->contingencies++;
    for (size_t i = 0; i < c->extension_count; i++)
        n->skipped += c->extensions[i].json == NULL && c->extensions[i].handler == NULL;
    return 0;
}

/* A stream read that skips extension values stays in constant memory whatever one holds; a
 * full read keeps the value in about its size. */
CTG_TEST(hostile, a_huge_extension_value_is_checked_in_constant_memory)
{
    size_t len;
    char *doc = big_array_doc(2000000, &len); /* 6 MB of [{},{},...] */
    ctg_source src = ctg_source_buffer(doc, len);
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = count_skipped };
    ctg_test_alloc st = { 0 }, full = { 0 };
    ctg_allocator a = ctg_test_allocator(&st), b = ctg_test_allocator(&full);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    counted n = { 0, 0 };
    ctg_list *list = NULL;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    v.payload = &n;
    opts.allocator = &a;
    opts.flags = CTG_READ_SKIP_EXTENSION_VALUES;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(n.contingencies, 1);
    CU_ASSERT_EQUAL(n.skipped, 1);
    CU_ASSERT(st.peak_bytes < 256 * 1024);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    opts.allocator = &b;
    opts.flags = 0;
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, len, &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->extensions[0].json_len, 2000000 * 3 + 1);
    /* The capture buffer (doubling) and the arena copy of the text. */
    CU_ASSERT(full.peak_bytes < 3 * len);
    ctg_list_free(list);
    free(doc);
}

/* ---- depth --------------------------------------------------------------------------------- */

/* A contingency whose extension nests objects and arrays in turn down to JSON depth `depth`,
 * in the writer's compact layout. */
static char *deep_doc(size_t depth, size_t *len)
{
    bench_bytes b = BENCH_BYTES_INIT;
    size_t levels = depth - 4; /* root, contingencies, the contingency, extensions */

    BENCH_PUT(&b, "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"deep\",\"contingencies\":"
                  "[{\"id\":\"c\",\"elements\":[],\"extensions\":{\"e\":");
    for (size_t i = 0; i < levels; i++)
        bench_put_str(&b, i % 2 ? "{\"k\":" : "[");
    BENCH_PUT(&b, "7");
    for (size_t i = levels; i-- > 0;)
        bench_put_str(&b, i % 2 ? "}" : "]");
    BENCH_PUT(&b, "}}]}");
    *len = b.len;
    return b.failed ? NULL : b.data;
}

typedef struct deep_job {
    const char *doc;
    size_t len;
    int read_rc, write_rc;
    ctg_buf out;
} deep_job;

static void *deep_round_trip(void *arg)
{
    deep_job *j = arg;
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
    ctg_list *list = NULL;

    opts.max_depth = CTG_MAX_DEPTH_LIMIT;
    wo.flags = CTG_WRITE_COMPACT;
    j->read_rc = ctg_list_read_buffer(&list, j->doc, j->len, &opts, NULL);
    j->write_rc = list ? ctg_list_write_buf(&j->out, list, &wo, NULL) : -100;
    ctg_list_free(list); /* a recursive free of 4 092 levels overflowed this thread's stack */
    return NULL;
}

/* The deepest document max_depth allows reads, writes back byte for byte and frees, on a
 * thread with a 256 KiB stack: nothing recurses on the depth. */
CTG_TEST(hostile, the_deepest_extension_reads_writes_and_frees)
{
    deep_job j = { NULL, 0, -100, -100, CTG_BUF_INIT };
    char *doc = deep_doc(CTG_MAX_DEPTH_LIMIT, &j.len);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    pthread_attr_t attr;
    pthread_t t;
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    j.doc = doc;
    CU_ASSERT_EQUAL_FATAL(pthread_attr_init(&attr), 0);
    CU_ASSERT_EQUAL(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, &attr, deep_round_trip, &j), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    CU_ASSERT_EQUAL(j.read_rc, CTG_OK);
    CU_ASSERT_EQUAL(j.write_rc, CTG_OK);
    CU_ASSERT(j.out.len == j.len && memcmp(j.out.data, doc, j.len) == 0);
    ctg_buf_dispose(&j.out);
    /* One level more is refused by the lexer, and a larger max_depth by the options. */
    free(doc);
    doc = deep_doc(CTG_MAX_DEPTH_LIMIT + 1, &j.len);
    opts.max_depth = CTG_MAX_DEPTH_LIMIT;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, j.len, &opts, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "nesting deeper than 4096 levels");
    opts.max_depth = CTG_MAX_DEPTH_LIMIT + 1;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, j.len, &opts, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message,
                           "max_depth above the limit of 4096 levels (CTG_MAX_DEPTH_LIMIT)");
    CU_ASSERT_PTR_NULL(list);
    free(doc);
}

/* ---- hash flooding ----------------------------------------------------------------------- */

/* SipHash-2-4's published test vector (key 00..0f, message 00..0e): the keyed hash is the
 * real one, with 1-3 rounds used for the tables. */
CTG_TEST(hostile, siphash_matches_its_test_vector)
{
    unsigned char msg[15];

    for (int i = 0; i < 15; i++)
        msg[i] = (unsigned char)i;
    CU_ASSERT_EQUAL(ctg_siphash(0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull, msg, 15, 2, 4),
                    0xa129ca6149be45e5ull);
    CU_ASSERT_EQUAL(ctg_siphash(0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull, msg, 0, 2, 4),
                    0x726fdb47dd0e0e31ull);
}

/* Slots probed to add `count` keys to a key set. */
static size_t probes_for(const char *keys, size_t count)
{
    ctg_keyset set;
    const ctg_keyset_entry *first;
    ctg_mark m = { 0, 0, 1 };
    size_t probes;

    ctg_keyset_init(&set, NULL);
    for (size_t i = 0; i < count; i++)
        CU_ASSERT_EQUAL(ctg_keyset_add(&set, 3, keys + i * BENCH_KEY_LEN, BENCH_KEY_LEN, &m,
                                       &first), CTG_OK);
    CU_ASSERT_EQUAL(set.count, count);
    probes = set.probes;
    ctg_keyset_dispose(&set);
    return probes;
}

/* A find sees what was added, in its own group only, through growth and after a truncate,
 * and adds nothing. */
CTG_TEST(hostile, keyset_find)
{
    static const ctg_mark m = { 0, 0, 0 };
    const ctg_keyset_entry *first;
    ctg_keyset set;
    char key[16];

    ctg_keyset_init(&set, NULL);
    CU_ASSERT_PTR_NULL(ctg_keyset_find(&set, 0, "", 0));
    for (int i = 0; i < 40; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        CU_ASSERT_EQUAL(ctg_keyset_add(&set, (uint32_t)(i % 2), key, (size_t)n, &m, &first),
                        CTG_OK);
    }
    for (int i = 0; i < 40; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        const ctg_keyset_entry *e = ctg_keyset_find(&set, (uint32_t)(i % 2), key, (size_t)n);
        CU_ASSERT_PTR_EQUAL(e, &set.items[i]);
        CU_ASSERT_PTR_NULL(ctg_keyset_find(&set, (uint32_t)(1 - i % 2), key, (size_t)n));
    }
    CU_ASSERT_PTR_NULL(ctg_keyset_find(&set, 0, "k40", 3));
    CU_ASSERT_PTR_NULL(ctg_keyset_find(&set, 0, "k", 1));
    CU_ASSERT_EQUAL(set.count, 40);
    ctg_keyset_truncate(&set, 10);
    CU_ASSERT_PTR_EQUAL(ctg_keyset_find(&set, 1, "k9", 2), &set.items[9]);
    CU_ASSERT_PTR_NULL(ctg_keyset_find(&set, 0, "k10", 3));
    CU_ASSERT_EQUAL(set.count, 10);
    ctg_keyset_dispose(&set);
}

/* 65 536 keys that all collide in the old table's FNV-1a cost what random keys cost. */
CTG_TEST(hostile, colliding_keys_cost_what_random_keys_cost)
{
    bench_bytes bad = BENCH_BYTES_INIT, good = BENCH_BYTES_INIT;
    const uint32_t mask = (1u << BENCH_KEY_COLLIDING_BITS) - 1;
    uint32_t low;
    size_t p_bad, p_good;

    CU_ASSERT_EQUAL_FATAL(bench_gen_keys(&bad, BENCH_KEY_MAX, true, 0), 0);
    CU_ASSERT_EQUAL_FATAL(bench_gen_keys(&good, BENCH_KEY_MAX, false, 42), 0);
    /* The attack is real: every key lands in one slot of the old unkeyed table. */
    low = bench_fnv1a(BENCH_KEY_FNV_STATE, bad.data, BENCH_KEY_LEN) & mask;
    for (size_t i = 1; i < BENCH_KEY_MAX; i++)
        if ((bench_fnv1a(BENCH_KEY_FNV_STATE, bad.data + i * BENCH_KEY_LEN, BENCH_KEY_LEN) & mask)
            != low)
            CU_FAIL_FATAL("a generated key does not collide");
    p_bad = probes_for(bad.data, BENCH_KEY_MAX);
    p_good = probes_for(good.data, BENCH_KEY_MAX);
    /* Linear probing at most half full: three probes a key with the rehashes of each doubling,
     * whatever the keys (the unkeyed table probed count^2 / 2 = 2^31 times for these). */
    CU_ASSERT(p_bad < 4 * BENCH_KEY_MAX);
    CU_ASSERT(p_good < 4 * BENCH_KEY_MAX);
    CU_ASSERT(2 * p_bad > p_good && p_bad < 2 * p_good);
    bench_bytes_dispose(&bad);
    bench_bytes_dispose(&good);
}

/* The colliding keys read as an extension: all kept, in order, and a duplicate still found. */
CTG_TEST(hostile, colliding_keys_read_as_an_extension)
{
    bench_bytes keys = BENCH_BYTES_INIT, doc = BENCH_BYTES_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    const ctg_extension *x;

    CU_ASSERT_EQUAL_FATAL(bench_gen_keys(&keys, 4096, true, 0), 0);
    CU_ASSERT_EQUAL_FATAL(bench_gen_key_doc(&doc, keys.data, 4096), 0);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc.data, doc.len, NULL, NULL), CTG_OK);
    x = ctg_contingency_extension(ctg_list_contingency_at(list, 0), "keys");
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_EQUAL(x->json_len, 2 + 4096 * (BENCH_KEY_LEN + 4) + 4095); /* {"k":0,...} */
    ctg_list_free(list);
    /* The last key again: refused, naming the first. */
    memcpy(keys.data + 4095 * BENCH_KEY_LEN, keys.data, BENCH_KEY_LEN);
    doc.len = 0;
    CU_ASSERT_EQUAL_FATAL(bench_gen_key_doc(&doc, keys.data, 4096), 0);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc.data, doc.len, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.line, 10 + 4095);
    CU_ASSERT_EQUAL(err.column, 9);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "(first at line 10, column 9)"));
    bench_bytes_dispose(&keys);
    bench_bytes_dispose(&doc);
}

/* ---- the string limit and line numbers ------------------------------------------------------ */

/* A 16 MiB string with a 1 MiB limit is refused once 1 MiB is scanned, not 6 MiB later. */
CTG_TEST(hostile, the_string_limit_stops_the_scan)
{
    const size_t n = (size_t)16 << 20;
    char *doc = malloc(n + 64);
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_error err;
    ctg_source src;
    FILE *fp;
    size_t len;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    len = (size_t)sprintf(doc, "{\"type\":\"default\",\"name\":\"");
    memset(doc + len, 'a', n);
    len += n;
    len += (size_t)sprintf(doc + len, "\",\"contingencies\":[]}");
    fp = fmemopen(doc, len, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    opts.allocator = &a;
    opts.max_string_len = (size_t)1 << 20;
    CU_ASSERT_EQUAL(ctg_list_read_fp(NULL, fp, &opts, &err), CTG_EINVAL); /* no place */
    src = ctg_source_fp(fp);
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &(ctg_visitor)CTG_VISITOR_INIT, &opts, &err),
                    CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "string longer than 1048576 bytes");
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, 26); /* the opening quote */
    /* The window grows by doubling past the limit once, and no further. */
    CU_ASSERT(st.peak_bytes <= 2 * ((size_t)1 << 20) + 256 * 1024);
    fclose(fp);
    free(doc);
}

/* A line past 2^32 reports UINT_MAX, and the column keeps counting on that line. */
CTG_TEST(hostile, line_numbers_saturate)
{
    static const char text[] = "\n\n\n  @";
    ctg_lex_source src = { text, sizeof text - 1, NULL, NULL };
    ctg_lexer lx;
    ctg_token t;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    lx.line = UINT_MAX - 1; /* as after 4 294 967 293 newlines */
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &t, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.line, UINT_MAX);
    CU_ASSERT_EQUAL(err.column, 3);
    CU_ASSERT_EQUAL(err.offset, 5);
    ctg_lexer_dispose(&lx);
}

/* ---- diagnostics -------------------------------------------------------------------------- */

/* A document cannot forge a diagnostic line or drive the terminal: the message, the path and
 * the source name come out escaped, on one line. */
CTG_TEST(hostile, diagnostics_escape_what_the_input_said)
{
    static const char doc[] =
        "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\",\"elements\":[{"
        "\"id\":\"L\",\"type\":\"X\\u001b[2J\\nfake.json:1:1: error: \\u202e\\\\\"}]}]}";
    static const char bad_key[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[],"
                                  "\"a\\nb\":1}";
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    char line[1024];

    opts.source_name = "in\x1b[31m\xff.json";
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, sizeof doc - 1, &opts, &err),
                          CTG_ESCHEMA);
    CU_ASSERT_PTR_NOT_NULL(strchr(err.message, '\n')); /* the record keeps the raw bytes */
    CU_ASSERT_EQUAL(ctg_error_format(&err, line, sizeof line), strlen(line));
    CU_ASSERT_STRING_EQUAL(line, "in\\u001b[31m\\xff.json:1:86: error: "
                                 "/contingencies/0/elements/0/type: unknown element type "
                                 "\"X\\u001b[2J\\nfake.json:1:1: error: \\u202e\\\\\"");
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, bad_key, sizeof bad_key - 1, NULL, &err),
                    CTG_ESCHEMA);
    ctg_error_format(&err, line, sizeof line);
    CU_ASSERT_PTR_NULL(strchr(line, '\n'));
    CU_ASSERT_PTR_NOT_NULL(strstr(line, ": error: /a\\nb: "));
}

/* The escaper on its own: every class of byte, and the snprintf contract when cut short. */
CTG_TEST(hostile, escape_text_classes_and_truncation)
{
    static const char in[] = "ok \t\r\n\x01\x7f\\ \xc2\x85 \xe2\x80\x8b \xef\xbb\xbf "
                             "\xc3\xa9 \xf0\x9f\x98\x80 \xc0\xaf \xed\xa0\x80 \xe2\x82";
    static const char want[] = "ok \\t\\r\\n\\u0001\\u007f\\\\ \\u0085 \\u200b \\ufeff "
                               "\xc3\xa9 \xf0\x9f\x98\x80 \\xc0\\xaf \\xed\\xa0\\x80 \\xe2\\x82";
    char buf[256], small[8];

    CU_ASSERT_EQUAL(ctg_escape_text(buf, sizeof buf, in, sizeof in - 1), sizeof want - 1);
    CU_ASSERT_STRING_EQUAL(buf, want);
    CU_ASSERT_EQUAL(ctg_escape_text(small, sizeof small, in, sizeof in - 1), sizeof want - 1);
    CU_ASSERT_STRING_EQUAL(small, "ok \\t\\r");
    CU_ASSERT_EQUAL(ctg_escape_text(NULL, 0, in, 3), 3);
    CU_ASSERT_EQUAL(ctg_escape_text(buf, sizeof buf, NULL, 5), 0);
    CU_ASSERT_STRING_EQUAL(buf, "");
}

#include "test_hostile.tests.h"
