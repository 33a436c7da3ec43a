/* SPDX-License-Identifier: MPL-2.0 */
/* The strict pull lexer: tokens, positions, strings, limits, numbers, refills. */

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CUnit/CUnit.h>

#include "base/alloc.h"
#include "tests/test_common.h"
#include "tests/test_lexer.h"
#include "json/lexer_fast.h"

/* ---- helpers --------------------------------------------------------------------------- */

typedef struct text {
    char *s;
    size_t len, cap;
    bool oom;
} text;

static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->oom = true;
            return;
        }
        if (t->s != NULL && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        char *p = realloc(t->s, t->cap = t->cap * 2 + (size_t)n + 64);
        if (p == NULL) {
            t->oom = true;
            return;
        }
        t->s = p;
    }
}

static void add_bytes(text *t, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            add(t, "%c", c);
        else
            add(t, "\\x%02x", c);
    }
}

static void add_token(text *t, const ctg_token *tok)
{
    static const char *const names[] = { "EOF", "{", "}", "[", "]", "K", "S", "N",
                                         "true", "false", "null" };

    add(t, "%s%s", t->len ? " " : "", names[tok->type]);
    if (tok->type == CTG_TOK_KEY || tok->type == CTG_TOK_STRING) {
        add(t, "\"");
        add_bytes(t, tok->str, tok->len);
        add(t, "\"%s", tok->has_nul ? "+nul" : "");
    } else if (tok->type == CTG_TOK_NUMBER) {
        char num[40], *comma;
        add_bytes(t, tok->raw, tok->raw_len);
        /* The digest must not change with the locale (the suite also runs under de_DE). */
        snprintf(num, sizeof(num), "%.17g", tok->number);
        if ((comma = strchr(num, ',')) != NULL)
            *comma = '.';
        add(t, "=%s%c", num, tok->is_integer ? 'i' : 'f');
    }
    add(t, "@%zu:%u:%zu", tok->offset, tok->line, tok->offset - tok->line_start + 1);
}

static void add_error(text *t, int rc, const ctg_error *err)
{
    add(t, "%serror(%d)@%zu:%u:%u: %s", t->len ? " " : "", rc, err->offset, err->line,
        err->column, err->message);
    if (err->code != rc || err->source[0] != '\0' || err->path[0] != '\0')
        add(t, " [bad error record]");
}

typedef struct chunked {
    const char *data;
    size_t len, pos, chunk;
} chunked;

static int chunk_refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    chunked *c = ctx;
    size_t n = c->len - c->pos;

    (void)err;
    if (n > cap)
        n = cap;
    if (n > c->chunk)
        n = c->chunk;
    memcpy(dst, c->data + c->pos, n);
    c->pos += n;
    *got = n;
    return CTG_OK;
}

static void lex_into(text *t, ctg_lexer *lx, int *status)
{
    ctg_token tok;
    ctg_error err;
    int rc;

    do {
        memset(&err, 0xFF, sizeof(err));
        rc = ctg_lexer_next(lx, &tok, &err);
        if (rc == CTG_OK)
            add_token(t, &tok);
        else
            add_error(t, rc, &err);
    } while (rc == CTG_OK && tok.type != CTG_TOK_EOF && !t->oom);
    *status = rc;
}

/* ctg_lexer_member as the reader's object loop runs it: inline, opening containers. */
static int opening_member(ctg_lexer *lx, const char *hint, size_t len, ctg_lex_member *m,
                          ctg_token *val, ctg_error *err)
{
    return ctg_lexer_member_inline(lx, hint, len, NULL, true, m, val, err);
}

/* One token through the reader's hot-path calls, ctg_lexer_item, ctg_lexer_member (with a
 * rotating key hint) and its inline copy that opens containers, and ctg_lexer_member_sifted
 * with a sieve that passes over nothing, in turn with ctg_lexer_next; a value read with its key
 * waits in *pending. The hints' period (6) and the calls' (5) are coprime: every call meets
 * every hint. */
static int next_fast(ctg_lexer *lx, ctg_token *tok, ctg_token *pending, bool *has_pending,
                     unsigned *turn, ctg_error *err)
{
    static const char *const hints[] = { "id", "type", NULL, "a", "k", "b" };
    const char *hint = hints[*turn % 6];
    ctg_key_sieve keep_all;
    ctg_lex_member m;
    int n;

    if (*has_pending) {
        *tok = *pending;
        *has_pending = false;
        return CTG_OK;
    }
    memset(&keep_all, 0xFF, sizeof keep_all);
    keep_all.plain = NULL;
    keep_all.scalars_only = false;
    switch ((*turn)++ % 5) {
    case 0:
        return ctg_lexer_next(lx, tok, err);
    case 1:
        return ctg_lexer_item(lx, tok, err);
    default:
        if (*turn % 5 == 4) /* this turn was 3 */
            n = ctg_lexer_member_sifted(lx, hint, hint ? strlen(hint) : 0, &keep_all, &m, pending,
                                        err);
        else if (*turn % 5 == 0) /* this turn was 4 */
            n = opening_member(lx, hint, hint ? strlen(hint) : 0, &m, pending, err);
        else
            n = ctg_lexer_member(lx, hint, hint ? strlen(hint) : 0, &m, pending, err);
        if (n < 0)
            return n;
        CU_ASSERT(n == CTG_LEX_KEY || n == CTG_LEX_OTHER);
        if (n == CTG_LEX_OTHER) {
            *tok = *pending;
            return CTG_OK;
        }
        if (m.hinted)
            CU_ASSERT(m.key.len == strlen(hint) && memcmp(m.key.str, hint, m.key.len) == 0);
        *tok = m.key;
        *has_pending = m.value_ready;
        return CTG_OK;
    }
}

static void lex_into_fast(text *t, ctg_lexer *lx, unsigned turn, int *status)
{
    ctg_token tok, pending;
    ctg_error err;
    bool has_pending = false;
    int rc;

    do {
        memset(&err, 0xFF, sizeof(err));
        rc = next_fast(lx, &tok, &pending, &has_pending, &turn, &err);
        if (rc == CTG_OK)
            add_token(t, &tok);
        else
            add_error(t, rc, &err);
    } while (rc == CTG_OK && tok.type != CTG_TOK_EOF && !t->oom);
    *status = rc;
}

/* The digest of a run: through ctg_lexer_next alone (turn < 0), or through the hot-path calls,
 * the first of them picked by `turn`. The input is copied to exactly `len` bytes, so that ASan
 * sees any read past them. */
static size_t last_offset; /* ctg_lexer_offset after the last digest_run's end */

static char *digest_run(const void *data, size_t len, size_t chunk, const ctg_lex_limits *lim,
                        int turn, int *status)
{
    char *copy = malloc(len ? len : 1);
    chunked c = { copy, len, 0, chunk };
    ctg_lex_source src = { copy, len, chunk ? chunk_refill : NULL, &c };
    ctg_lexer lx;
    text t = { NULL, 0, 0, false };

    *status = CTG_ENOMEM;
    if (copy == NULL)
        return NULL;
    if (len)
        memcpy(copy, data, len);
    if (ctg_lexer_init(&lx, &src, lim, NULL) == CTG_OK) {
        if (turn < 0)
            lex_into(&t, &lx, status);
        else
            lex_into_fast(&t, &lx, (unsigned)turn, status);
    }
    last_offset = ctg_lexer_offset(&lx);
    ctg_lexer_dispose(&lx);
    free(copy);
    if (t.oom) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

char *ctg_test_lex_digest(const void *data, size_t len, size_t chunk, const ctg_lex_limits *lim,
                          int *status)
{
    return digest_run(data, len, chunk, lim, -1, status);
}

size_t ctg_test_last_offset(void)
{
    return last_offset;
}

/* A step of CTG_TEST_SKIP_SIFTED: the members whose key starts with 'k' are kept, the hint "a"
 * (which the sieve passes over) is matched in place. */
static int sifted_step(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    ctg_key_sieve sv;
    ctg_lex_member m;
    int rc;

    memset(&sv, 0, sizeof sv);
    for (size_t i = 0; i < sizeof(sv.keep) / sizeof(sv.keep[0]); i++)
        sv.keep[i] = 1u << ('k' - 'a');
    sv.max_len = SIZE_MAX;
    rc = ctg_lexer_member_sifted(lx, "a", 1, &sv, &m, tok, err);
    if (rc == CTG_LEX_KEY)
        *tok = m.key;
    return rc < 0 ? rc : CTG_OK;
}

/* One step of a skipping run: see ctg_test_skip_end. */
static int skip_step(ctg_lexer *lx, ctg_token *tok, ctg_error *err, int pattern, bool *skip)
{
    int rc;

    if (pattern == CTG_TEST_SKIP_SIFTED)
        return sifted_step(lx, tok, err);
    if (*skip)
        rc = ctg_lexer_skip_next(lx, tok, err);
    else if ((rc = ctg_lexer_next(lx, tok, err)) == CTG_OK && pattern == CTG_TEST_SKIP_CONTAINERS)
        rc = ctg_lexer_skip_value(lx, tok, err);
    *skip = pattern == CTG_TEST_SKIP_AFTER_KEYS && rc == CTG_OK && tok->type == CTG_TOK_KEY;
    return rc;
}

char *ctg_test_skip_end(const void *data, size_t len, size_t chunk, const ctg_lex_limits *lim,
                        int pattern, int *status)
{
    char *copy = malloc(len ? len : 1);
    chunked c = { copy, len, 0, chunk };
    ctg_lex_source src = { copy, len, chunk ? chunk_refill : NULL, &c };
    bool skip = pattern == CTG_TEST_SKIP_ROOT;
    text t = { NULL, 0, 0, false };
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;
    int rc;

    *status = CTG_ENOMEM;
    if (copy == NULL)
        return NULL;
    if (len)
        memcpy(copy, data, len);
    if (ctg_lexer_init(&lx, &src, lim, NULL) == CTG_OK) {
        do {
            memset(&err, 0xFF, sizeof(err));
            rc = skip_step(&lx, &tok, &err, pattern, &skip);
        } while (rc == CTG_OK && tok.type != CTG_TOK_EOF);
        if (rc == CTG_OK)
            add_token(&t, &tok);
        else
            add_error(&t, rc, &err);
        add(&t, " at %zu", ctg_lexer_offset(&lx));
        *status = rc;
    }
    ctg_lexer_dispose(&lx);
    free(copy);
    if (t.oom) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

/* The last entry of a digest: "EOF@..." or the error. */
static const char *last_entry(const char *d)
{
    const char *e = strstr(d, "error(");

    if (e != NULL)
        return e;
    e = strrchr(d, ' ');
    return e ? e + 1 : d;
}

/* Skipping values (every pattern, memory mode and refills of `chunk` bytes) ends as reading
 * every token does: the same EOF or error, and the input left at `offset`. */
static void assert_skips_agree(const char *json, size_t len, size_t chunk,
                               const ctg_lex_limits *lim, const char *end, size_t offset)
{
    char want[1024];

    snprintf(want, sizeof(want), "%s at %zu", end, offset);
    for (int pattern = 0; pattern < CTG_TEST_SKIP_PATTERNS; pattern++) {
        int rc;
        char *r = ctg_test_skip_end(json, len, chunk, lim, pattern, &rc);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        if (strcmp(r, want) != 0)
            printf("\nskip pattern %d, chunk %zu:\n  %s\nread:\n  %s\n", pattern, chunk, r, want);
        CU_ASSERT_STRING_EQUAL(r, want);
        free(r);
    }
}

/* The digest of a NUL-terminated document in memory mode, checked against the digest of every
 * refill size. Caller frees. */
static char *digest_lim(const char *json, const ctg_lex_limits *lim)
{
    static const size_t chunks[] = CTG_TEST_CHUNKS;
    size_t len = strlen(json);
    int rc, rc2;
    char *d = ctg_test_lex_digest(json, len, 0, lim, &rc);
    size_t end_offset = last_offset;

    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
        char *r = ctg_test_lex_digest(json, len, chunks[i], lim, &rc2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        if (strcmp(r, d) != 0)
            printf("\nchunk %zu:\n  %s\nmemory:\n  %s\n", chunks[i], r, d);
        CU_ASSERT_STRING_EQUAL(r, d);
        CU_ASSERT_EQUAL(rc2, rc);
        /* Skipping values ends as reading every token does, offset included, in refill mode
         * (this chunk size) as in memory mode. */
        assert_skips_agree(json, len, chunks[i], lim, last_entry(r), last_offset);
        if (i == 0)
            assert_skips_agree(json, len, 0, lim, last_entry(d), end_offset);
        free(r);
        /* The reader's hot-path calls give the same tokens and end, whichever token each of
         * them meets (the first chunk size stands for memory mode here). */
        for (unsigned turn = 0; turn < 4; turn++) {
            size_t chunk = i == 0 ? 0 : chunks[i];
            r = digest_run(json, len, chunk, lim, (int)turn, &rc2);
            CU_ASSERT_PTR_NOT_NULL_FATAL(r);
            if (strcmp(r, d) != 0)
                printf("\nhot path %u, chunk %zu:\n  %s\nmemory:\n  %s\n", turn, chunk, r, d);
            CU_ASSERT_STRING_EQUAL(r, d);
            CU_ASSERT_EQUAL(rc2, rc);
            /* Where the input was left after the end or the error (ctg_read_stats.bytes). */
            if (chunk == 0)
                CU_ASSERT_EQUAL(last_offset, end_offset);
            free(r);
        }
    }
    return d;
}

static char *digest(const char *json)
{
    return digest_lim(json, NULL);
}

/* Asserts the full digest of `json` (in memory and through every refill size). */
#define ASSERT_DIGEST(json, expected)                                                            \
    do {                                                                                         \
        char *d_ = digest(json);                                                                 \
        if (strcmp(d_, expected) != 0)                                                           \
            printf("\n  got:      %s\n  expected: %s\n", d_, expected);                          \
        CU_ASSERT_STRING_EQUAL(d_, expected);                                                    \
        free(d_);                                                                                \
    } while (0)

static void assert_end(const char *json, const ctg_lex_limits *lim, const char *expected)
{
    char *d = digest_lim(json, lim);

    if (strcmp(last_entry(d), expected) != 0)
        printf("\n  %s\n  got:      %s\n  expected: %s\n", json, last_entry(d), expected);
    CU_ASSERT_STRING_EQUAL(last_entry(d), expected);
    free(d);
}

/* ---- token sequences ------------------------------------------------------------------- */

CTG_TEST(lexer, token_sequence)
{
    ASSERT_DIGEST("{\"a\":[1,-2.5e3,true,false,null,\"x\"],\"b\":{},\"c\":[]}",
                  "{@0:1:1 K\"a\"@1:1:2 [@5:1:6 N1=1i@6:1:7 N-2.5e3=-2500f@8:1:9 true@15:1:16 "
                  "false@20:1:21 null@26:1:27 S\"x\"@31:1:32 ]@34:1:35 K\"b\"@36:1:37 {@40:1:41 "
                  "}@41:1:42 K\"c\"@43:1:44 [@47:1:48 ]@48:1:49 }@49:1:50 EOF@50:1:51");
}

CTG_TEST(lexer, scalar_roots)
{
    ASSERT_DIGEST("  \"s\"  ", "S\"s\"@2:1:3 EOF@7:1:8");
    ASSERT_DIGEST("-0", "N-0=-0i@0:1:1 EOF@2:1:3");
    ASSERT_DIGEST("123", "N123=123i@0:1:1 EOF@3:1:4");
    ASSERT_DIGEST("true", "true@0:1:1 EOF@4:1:5");
    ASSERT_DIGEST("null\n", "null@0:1:1 EOF@5:2:1");
    ASSERT_DIGEST("[[[]],{}]", "[@0:1:1 [@1:1:2 [@2:1:3 ]@3:1:4 ]@4:1:5 {@6:1:7 }@7:1:8 ]@8:1:9 "
                               "EOF@9:1:10");
}

CTG_TEST(lexer, pretty_positions)
{
    ASSERT_DIGEST("{\n  \"id\" : \"a\",\n  \"list\" : [ 1, true ]\n}",
                  "{@0:1:1 K\"id\"@4:2:3 S\"a\"@11:2:10 K\"list\"@18:3:3 [@27:3:12 N1=1i@29:3:14 "
                  "true@32:3:17 ]@37:3:22 }@39:4:1 EOF@40:4:2");
}

CTG_TEST(lexer, deep_indentation)
{
    ASSERT_DIGEST("[\n                  1,\n        2,\n\n                       \t 3]",
                  "[@0:1:1 N1=1i@20:2:19 N2=2i@31:3:9 N3=3i@60:5:26 ]@61:5:27 EOF@62:5:28");
}

CTG_TEST(lexer, crlf_positions)
{
    ASSERT_DIGEST("{\r\n  \"a\" : 1,\r\n  \"b\" : x\r\n}",
                  "{@0:1:1 K\"a\"@5:2:3 N1=1i@11:2:9 K\"b\"@17:3:3 "
                  "error(-4)@23:3:9: expected a value after ':', got 'x'");
    /* A lone CR is whitespace but does not start a line. */
    ASSERT_DIGEST("[1,\r2]", "[@0:1:1 N1=1i@1:1:2 N2=2i@4:1:5 ]@5:1:6 EOF@6:1:7");
    ASSERT_DIGEST("[\r\n\r\n\t1 ]\r\n", "[@0:1:1 N1=1i@6:3:2 ]@8:3:4 EOF@11:4:1");
}

/* ---- errors ---------------------------------------------------------------------------- */

typedef struct error_case {
    const char *json;
    const char *expected; /* last digest entry */
} error_case;

static const error_case syntax_errors[] = {
    { "[1,]", "error(-4)@3:1:4: expected a value after ',', got ']'" },
    { "{\"a\":1,}", "error(-4)@7:1:8: expected a string key after ',', got '}'" },
    { "{\"a\" 1}", "error(-4)@5:1:6: expected ':' after object key, got '1'" },
    { "{\"a\"", "error(-4)@4:1:5: expected ':' after object key, got end of input" },
    { "[1 2]", "error(-4)@3:1:4: expected ',' or ']' after array element, got '2'" },
    { "{\"a\":1 \"b\":2}", "error(-4)@7:1:8: expected ',' or '}' after object member, got '\"'" },
    { "{\"a\":1x}", "error(-4)@6:1:7: expected ',' or '}' after object member, got 'x'" },
    { "[1, 2", "error(-4)@5:1:6: expected ',' or ']' after array element, got end of input" },
    { "{\"a\":", "error(-4)@5:1:6: expected a value after ':', got end of input" },
    { "[", "error(-4)@1:1:2: expected a value or ']', got end of input" },
    { "{", "error(-4)@1:1:2: expected a string key or '}', got end of input" },
    { "[1] x", "error(-4)@4:1:5: trailing content after the root value" },
    { "[1][2]", "error(-4)@3:1:4: trailing content after the root value" },
    { " [1] \n x", "error(-4)@7:2:2: trailing content after the root value" },
    { "{\"a\":1}}", "error(-4)@7:1:8: trailing content after the root value" },
    { "123abc", "error(-4)@3:1:4: trailing content after the root value" },
    { "", "error(-4)@0:1:1: empty input" },
    { " \n\t ", "error(-4)@4:2:3: empty input" },
    { "[}", "error(-4)@1:1:2: expected a value or ']', got '}'" },
    { "{]", "error(-4)@1:1:2: expected a string key or '}', got ']'" },
    { "{1:2}", "error(-4)@1:1:2: expected a string key or '}', got '1'" },
    { "[1,,2]", "error(-4)@3:1:4: expected a value after ',', got ','" },
    { "[.5]", "error(-4)@1:1:2: expected a value or ']', got '.'" },
    { "[+1]", "error(-4)@1:1:2: expected a value or ']', got '+'" },
    { "[NaN]", "error(-4)@1:1:2: expected a value or ']', got 'N'" },
    { "x", "error(-4)@0:1:1: expected a value, got 'x'" },
    { "[01]", "error(-4)@2:1:3: leading zero in number" },
    { "[-]", "error(-4)@2:1:3: expected a digit after '-'" },
    { "-", "error(-4)@1:1:2: expected a digit after '-'" },
    { "[1.]", "error(-4)@3:1:4: expected a digit after '.' in number" },
    { "[1e]", "error(-4)@3:1:4: expected a digit in the exponent of a number" },
    { "[1e+]", "error(-4)@4:1:5: expected a digit in the exponent of a number" },
    { "[1.5e3.2]", "error(-4)@6:1:7: unexpected character in number" },
    { "[1-2]", "error(-4)@2:1:3: unexpected character in number" },
    { "[1e309]", "error(-4)@1:1:2: number out of range" },
    { "[-1e309]", "error(-4)@1:1:2: number out of range" },
    { "[tru]", "error(-4)@4:1:5: invalid literal, expected 'true', got ']'" },
    { "[nul", "error(-4)@4:1:5: invalid literal, expected 'null', got end of input" },
    { "[fals e]", "error(-4)@5:1:6: invalid literal, expected 'false', got ' '" },
    { "[True]", "error(-4)@1:1:2: expected a value or ']', got 'T'" },
    { "[\"a\\qb\"]", "error(-4)@3:1:4: invalid escape '\\q' in string" },
    { "[\"a\\\x01\"]", "error(-4)@3:1:4: invalid escape in string" },
    { "[\"\\u12\"]", "error(-4)@2:1:3: invalid \\u escape in string" },
    { "[\"\\u12x4\"]", "error(-4)@2:1:3: invalid \\u escape in string" },
    { "[\"\\u12", "error(-4)@6:1:7: unexpected end of input in string" },
    { "[\"\\", "error(-4)@3:1:4: unexpected end of input in string" },
    { "[\"abc", "error(-4)@5:1:6: unexpected end of input in string" },
    { "[\"a\n\"]", "error(-4)@3:1:4: invalid control character 0x0a in string" },
    { "[\"a\tb\"]", "error(-4)@3:1:4: invalid control character 0x09 in string" },
    { "[\"a\x1f", "error(-4)@3:1:4: invalid control character 0x1f in string" },
    { "[1]\f", "error(-4)@3:1:4: trailing content after the root value" },
    { "[\f1]", "error(-4)@1:1:2: expected a value or ']', got byte 0x0c" },
    { "[\x7f]", "error(-4)@1:1:2: expected a value or ']', got byte 0x7f" },
};

CTG_TEST(lexer, syntax_errors)
{
    for (size_t i = 0; i < sizeof(syntax_errors) / sizeof(syntax_errors[0]); i++)
        assert_end(syntax_errors[i].json, NULL, syntax_errors[i].expected);
}

CTG_TEST(lexer, nul_byte_outside_strings)
{
    static const char doc[] = { '[', '1', ']', '\0' };
    static const char doc2[] = { '[', '\0', ']' };
    int rc;
    char *d = ctg_test_lex_digest(doc, sizeof(doc), 0, NULL, &rc);

    CU_ASSERT_EQUAL(rc, CTG_ESYNTAX);
    CU_ASSERT_STRING_EQUAL(last_entry(d), "error(-4)@3:1:4: trailing content after the root value");
    free(d);
    d = ctg_test_lex_digest(doc2, sizeof(doc2), 1, NULL, &rc);
    CU_ASSERT_STRING_EQUAL(last_entry(d), "error(-4)@1:1:2: expected a value or ']', got byte 0x00");
    free(d);
}

CTG_TEST(lexer, error_record_fully_written)
{
    static const char doc[] = "{\n  \"a\" : tru }";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;
    int rc;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    while ((rc = ctg_lexer_next(&lx, &tok, &err)) == CTG_OK)
        ;
    memset(&err, 0xFF, sizeof(err));
    /* After an error every call repeats it, filling the whole record again. */
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.code, CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(err.column, 12);
    CU_ASSERT_EQUAL(err.offset, 13);
    CU_ASSERT_STRING_EQUAL(err.message, "invalid literal, expected 'true', got ' '");
    CU_ASSERT_STRING_EQUAL(err.source, "");
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_EQUAL(rc, CTG_ESYNTAX);
    ctg_lexer_dispose(&lx);
}

CTG_TEST(lexer, eof_repeats)
{
    ctg_lex_source src = { "[]", 2, NULL, NULL };
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_depth(&lx), 0);
    for (int i = 0; i < 3; i++) {
        memset(&tok, 0xFF, sizeof(tok));
        CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
        CU_ASSERT_EQUAL(tok.type, CTG_TOK_EOF);
        CU_ASSERT_EQUAL(tok.offset, 2);
        CU_ASSERT_EQUAL(tok.line, 1);
        CU_ASSERT_EQUAL(tok.line_start, 0);
    }
    CU_ASSERT_EQUAL(ctg_lexer_offset(&lx), 2);
    ctg_lexer_dispose(&lx);
    ctg_lexer_dispose(&lx); /* a disposed lexer may be disposed again */
}

/* ---- BOM ------------------------------------------------------------------------------- */

CTG_TEST(lexer, bom)
{
    /* The BOM is skipped but counted: the first token is at offset 3, column 4. */
    ASSERT_DIGEST("\xEF\xBB\xBF[1]", "[@3:1:4 N1=1i@4:1:5 ]@5:1:6 EOF@6:1:7");
    ASSERT_DIGEST("\xEF\xBB\xBF \n{}", "{@5:2:1 }@6:2:2 EOF@7:2:3");
    ASSERT_DIGEST("\xEF\xBB\xBF", "error(-4)@3:1:4: empty input");
    ASSERT_DIGEST("\xEF\xBB\xBF\xEF\xBB\xBF[]",
                  "error(-4)@3:1:4: expected a value, got byte 0xef");
    ASSERT_DIGEST("\xEF\xBB", "error(-4)@0:1:1: expected a value, got byte 0xef");
    ASSERT_DIGEST(" \xEF\xBB\xBF[]", "error(-4)@1:1:2: expected a value, got byte 0xef");
    ASSERT_DIGEST("[\xEF\xBB\xBF]", "[@0:1:1 error(-4)@1:1:2: expected a value or ']', got byte 0xef");
    /* Inside a string it is just U+FEFF. */
    ASSERT_DIGEST("[\"\xEF\xBB\xBF\"]",
                  "[@0:1:1 S\"\\xef\\xbb\\xbf\"@1:1:2 ]@6:1:7 EOF@7:1:8");
}

/* ---- strings --------------------------------------------------------------------------- */

CTG_TEST(lexer, escapes)
{
    ASSERT_DIGEST("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]",
                  "[@0:1:1 S\"\\x22\\x5c/\\x08\\x0c\\x0a\\x0d\\x09\"@1:1:2 ]@19:1:20 EOF@20:1:21");
    ASSERT_DIGEST("\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\\uDBFF\\uDFFF\"",
                  "S\"A\\xc3\\xa9\\xe2\\x82\\xac\\xf0\\x9f\\x98\\x80\\xf4\\x8f\\xbf\\xbf\"@0:1:1 "
                  "EOF@44:1:45");
    ASSERT_DIGEST("\"\\u007f\\u0080\\u07FF\\u0800\\uFFFF\"",
                  "S\"\\x7f\\xc2\\x80\\xdf\\xbf\\xe0\\xa0\\x80\\xef\\xbf\\xbf\"@0:1:1 EOF@32:1:33");
    ASSERT_DIGEST("{\"k\\u0065y\":\"a\\u0000b\"}",
                  "{@0:1:1 K\"key\"@1:1:2 S\"a\\x00b\"+nul@12:1:13 }@22:1:23 EOF@23:1:24");
    ASSERT_DIGEST("[\"\\u0000\",\"x\"]",
                  "[@0:1:1 S\"\\x00\"+nul@1:1:2 S\"x\"@10:1:11 ]@13:1:14 EOF@14:1:15");
    ASSERT_DIGEST("[\"\",{\"\":\"\"}]",
                  "[@0:1:1 S\"\"@1:1:2 {@4:1:5 K\"\"@5:1:6 S\"\"@8:1:9 }@10:1:11 ]@11:1:12 "
                  "EOF@12:1:13");
}

static const error_case lone_surrogates[] = {
    { "[\"\\ud800\"]", "error(-4)@2:1:3: lone surrogate \\ud800" },
    { "[\"\\uD800x\"]", "error(-4)@2:1:3: lone surrogate \\ud800" },
    { "[\"\\ud800\\n\"]", "error(-4)@2:1:3: lone surrogate \\ud800" },
    { "[\"\\ud800\\ud800\"]", "error(-4)@2:1:3: lone surrogate \\ud800" },
    { "[\"\\udbff\\u0041\"]", "error(-4)@2:1:3: lone surrogate \\udbff" },
    { "[\"\\ud800\\u\"]", "error(-4)@2:1:3: lone surrogate \\ud800" },
    { "[\"\\ud800\\uZZZZ\"]", "error(-4)@2:1:3: lone surrogate \\ud800" },
    { "[\"\\udc00\"]", "error(-4)@2:1:3: lone surrogate \\udc00" },
    { "[\"a\\uDFFF\"]", "error(-4)@3:1:4: lone surrogate \\udfff" },
    { "[\"\\udc00\\ud800\"]", "error(-4)@2:1:3: lone surrogate \\udc00" },
    { "[\"\\ud83d\\ude00\\ude00\"]", "error(-4)@14:1:15: lone surrogate \\ude00" },
    { "{\"\\ud800\":1}", "error(-4)@2:1:3: lone surrogate \\ud800" },
    { "{\"a\":\"b\\udc01\"}", "error(-4)@7:1:8: lone surrogate \\udc01" },
    /* The input ends where the low half should be: that is the error. */
    { "[\"\\ud800", "error(-4)@8:1:9: unexpected end of input in string" },
    { "[\"\\ud800\\udc", "error(-4)@12:1:13: unexpected end of input in string" },
};

CTG_TEST(lexer, lone_surrogates)
{
    for (size_t i = 0; i < sizeof(lone_surrogates) / sizeof(lone_surrogates[0]); i++)
        assert_end(lone_surrogates[i].json, NULL, lone_surrogates[i].expected);
}

static const error_case bad_utf8[] = {
    { "[\"ab\xff\"]", "error(-4)@4:1:5: invalid UTF-8 byte 0xff in string" },
    { "[\"\x80\"]", "error(-4)@2:1:3: invalid UTF-8 byte 0x80 in string" },
    { "[\"\xbf\"]", "error(-4)@2:1:3: invalid UTF-8 byte 0xbf in string" },
    { "[\"\xf5\x80\x80\x80\"]", "error(-4)@2:1:3: invalid UTF-8 byte 0xf5 in string" },
    { "[\"\xf8\x88\x80\x80\x80\"]", "error(-4)@2:1:3: invalid UTF-8 byte 0xf8 in string" },
    { "[\"\xc0\xaf\"]", "error(-4)@2:1:3: overlong UTF-8 sequence in string" },
    { "[\"\xc1\xbf\"]", "error(-4)@2:1:3: overlong UTF-8 sequence in string" },
    { "[\"\xe0\x80\xaf\"]", "error(-4)@2:1:3: overlong UTF-8 sequence in string" },
    { "[\"\xe0\x9f\xbf\"]", "error(-4)@2:1:3: overlong UTF-8 sequence in string" },
    { "[\"\xf0\x8f\xbf\xbf\"]", "error(-4)@2:1:3: overlong UTF-8 sequence in string" },
    { "[\"\xed\xa0\x80\"]", "error(-4)@2:1:3: UTF-8 encoded surrogate in string" },
    { "[\"\xed\xbf\xbf\"]", "error(-4)@2:1:3: UTF-8 encoded surrogate in string" },
    { "[\"\xf4\x90\x80\x80\"]", "error(-4)@2:1:3: UTF-8 code point above U+10FFFF in string" },
    { "[\"\xc3\"]", "error(-4)@2:1:3: truncated UTF-8 sequence in string" },
    { "[\"\xe2\x82\"]", "error(-4)@2:1:3: truncated UTF-8 sequence in string" },
    { "[\"\xf0\x9f\x98\"]", "error(-4)@2:1:3: truncated UTF-8 sequence in string" },
    { "[\"\xe2\x82x\"]", "error(-4)@2:1:3: truncated UTF-8 sequence in string" },
    { "[\"\xc3\xc3\xa9\"]", "error(-4)@2:1:3: truncated UTF-8 sequence in string" },
    { "[\"\xe2\x82", "error(-4)@4:1:5: unexpected end of input in string" },
    { "{\"\xff\":1}", "error(-4)@2:1:3: invalid UTF-8 byte 0xff in string" },
    /* The first error of the string wins, even before an escape or a control character. */
    { "[\"\xff\\q\n", "error(-4)@2:1:3: invalid UTF-8 byte 0xff in string" },
};

CTG_TEST(lexer, invalid_utf8)
{
    for (size_t i = 0; i < sizeof(bad_utf8) / sizeof(bad_utf8[0]); i++)
        assert_end(bad_utf8[i].json, NULL, bad_utf8[i].expected);
}

CTG_TEST(lexer, valid_utf8)
{
    /* The boundaries of each sequence length and around the surrogates. */
    ASSERT_DIGEST("[\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf"
                  "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"]",
                  "[@0:1:1 S\"\\xc2\\x80\\xdf\\xbf\\xe0\\xa0\\x80\\xed\\x9f\\xbf\\xee\\x80\\x80"
                  "\\xef\\xbf\\xbf\\xf0\\x90\\x80\\x80\\xf4\\x8f\\xbf\\xbf\"@1:1:2 ]@27:1:28 "
                  "EOF@28:1:29");
    /* Escapes and raw UTF-8 mixed. */
    ASSERT_DIGEST("\"\xc3\xa9\\n\xe2\x82\xac\"", "S\"\\xc3\\xa9\\x0a\\xe2\\x82\\xac\"@0:1:1 EOF@9:1:10");
}

/* ---- limits ---------------------------------------------------------------------------- */

static char *nested(size_t depth, const char *open, const char *inner, const char *close)
{
    size_t lo = strlen(open), li = strlen(inner), lc = strlen(close);
    char *s = malloc(depth * (lo + lc) + li + 1), *p = s;

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    for (size_t i = 0; i < depth; i++, p += lo)
        memcpy(p, open, lo);
    memcpy(p, inner, li);
    p += li;
    for (size_t i = 0; i < depth; i++, p += lc)
        memcpy(p, close, lc);
    *p = '\0';
    return s;
}

static void assert_depth(size_t depth, size_t max_depth, const char *expected_end)
{
    ctg_lex_limits lim = { max_depth, 0, 0 };
    char *s = nested(depth, "[", "", "]");

    assert_end(s, max_depth ? &lim : NULL, expected_end);
    free(s);
}

CTG_TEST(lexer, depth_limit_default)
{
    char buf[96];
    char *s;

    snprintf(buf, sizeof(buf), "EOF@%d:1:%d", 128, 129);
    assert_depth(64, 0, buf);
    assert_depth(65, 0, "error(-7)@64:1:65: nesting deeper than 64 levels");
    /* Objects count the same. */
    s = nested(64, "{\"k\":", "1", "}");
    assert_end(s, NULL, "EOF@385:1:386");
    free(s);
    s = nested(65, "{\"k\":", "1", "}");
    assert_end(s, NULL, "error(-7)@320:1:321: nesting deeper than 64 levels");
    free(s);
}

CTG_TEST(lexer, depth_limit_custom)
{
    assert_depth(3, 3, "EOF@6:1:7");
    assert_depth(4, 3, "error(-7)@3:1:4: nesting deeper than 3 levels");
    assert_depth(1, 1, "EOF@2:1:3");
    assert_depth(2, 1, "error(-7)@1:1:2: nesting deeper than 1 levels");
    /* Beyond 64 levels the container stack moves to the heap. */
    assert_depth(1000, 1000, "EOF@2000:1:2001");
    assert_depth(1001, 1000, "error(-7)@1000:1:1001: nesting deeper than 1000 levels");
}

CTG_TEST(lexer, depth_tracks_mixed_containers)
{
    static const char doc[] = "[{\"a\":[{},[]]},{\"b\":{\"c\":[1]}}]";
    ctg_lex_limits lim = { 100, 0, 0 };
    char *s = nested(70, "[{\"x\":", "", "}]");
    char *d;

    ASSERT_DIGEST(doc, "[@0:1:1 {@1:1:2 K\"a\"@2:1:3 [@6:1:7 {@7:1:8 }@8:1:9 [@10:1:11 "
                       "]@11:1:12 ]@12:1:13 }@13:1:14 {@15:1:16 K\"b\"@16:1:17 {@20:1:21 "
                       "K\"c\"@21:1:22 [@25:1:26 N1=1i@26:1:27 ]@27:1:28 }@28:1:29 }@29:1:30 "
                       "]@30:1:31 EOF@31:1:32");
    /* 140 levels of alternating arrays and objects against a limit of 100. */
    d = digest_lim(s, &lim);
    CU_ASSERT_STRING_EQUAL(last_entry(d),
                           "error(-7)@300:1:301: nesting deeper than 100 levels");
    free(d);
    free(s);
}

CTG_TEST(lexer, hundred_thousand_nested_arrays)
{
    const size_t n = 100000;
    char *s = malloc(n);
    ctg_lex_limits deep = { n + 1, 0, 0 };
    clock_t t0 = clock();
    int rc;
    char *d;

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    memset(s, '[', n);
    d = ctg_test_lex_digest(s, n, 0, NULL, &rc);
    CU_ASSERT_EQUAL(rc, CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(last_entry(d), "error(-7)@64:1:65: nesting deeper than 64 levels");
    free(d);
    d = ctg_test_lex_digest(s, n, 1, NULL, &rc);
    CU_ASSERT_STRING_EQUAL(last_entry(d), "error(-7)@64:1:65: nesting deeper than 64 levels");
    free(d);
    /* With the limit out of the way, all 100,000 levels are opened without recursion. */
    d = ctg_test_lex_digest(s, n, 4096, &deep, &rc);
    CU_ASSERT_EQUAL(rc, CTG_ESYNTAX);
    CU_ASSERT_STRING_EQUAL(last_entry(d),
                           "error(-4)@100000:1:100001: expected a value or ']', got end of input");
    free(d);
    CU_ASSERT(clock() - t0 < 5 * CLOCKS_PER_SEC);
    free(s);
}

/* "[\"" + n copies of `unit` + "\"]" */
static char *string_doc(size_t n, const char *unit)
{
    size_t lu = strlen(unit);
    char *s = malloc(n * lu + 5), *p = s;

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    *p++ = '[';
    *p++ = '"';
    for (size_t i = 0; i < n; i++, p += lu)
        memcpy(p, unit, lu);
    memcpy(p, "\"]", 3);
    return s;
}

static void assert_string_limit(size_t n, size_t limit, const char *unit, bool ok)
{
    ctg_lex_limits lim = { 0, limit, 0 };
    char *s = string_doc(n, unit), *d = digest_lim(s, &lim);
    char expected[96];

    if (ok)
        snprintf(expected, sizeof(expected), "EOF@%zu:1:%zu", strlen(s), strlen(s) + 1);
    else
        snprintf(expected, sizeof(expected), "error(-7)@1:1:2: string longer than %zu bytes",
                 limit);
    CU_ASSERT_STRING_EQUAL(last_entry(d), expected);
    free(d);
    free(s);
}

CTG_TEST(lexer, max_string_len)
{
    assert_string_limit(10, 10, "a", true);
    assert_string_limit(11, 10, "a", false);
    /* The limit is on decoded bytes: 6 escaped bytes make 1. */
    assert_string_limit(10, 10, "\\u0041", true);
    assert_string_limit(11, 10, "\\u0041", false);
    assert_string_limit(5, 10, "\xc3\xa9", true);
    assert_string_limit(6, 10, "\xc3\xa9", false);
    assert_string_limit(2, 8, "\\ud83d\\ude00", true);
    assert_string_limit(3, 8, "\\ud83d\\ude00", false);
    /* Large enough to grow the refill buffer past its 64 KiB. */
    assert_string_limit(100000, 100000, "x", true);
    assert_string_limit(100001, 100000, "x", false);
    assert_string_limit(30000, 30000, "\\n", true);
    assert_string_limit(30001, 30000, "\\n", false);
}

CTG_TEST(lexer, max_string_len_keys_and_numbers)
{
    ctg_lex_limits lim = { 0, 4, 0 };

    assert_end("{\"abcd\":1234}", &lim, "EOF@13:1:14");
    assert_end("{\"abcde\":1}", &lim, "error(-7)@1:1:2: string longer than 4 bytes");
    assert_end("[12345]", &lim, "error(-7)@1:1:2: number longer than 4 bytes");
    assert_end("[-1.5]", &lim, "EOF@6:1:7");
    /* An unterminated string far over the limit is reported as too long. */
    assert_end("[\"abcdefghijklmnopqrstuvwxyzabcdefghijk", &lim,
               "error(-7)@1:1:2: string longer than 4 bytes");
}

/* A string over the limit that also holds an error: the outcome must not depend on where the
 * refills end. The lexer bounds the decoded length from below while it scans (an escape counts
 * one byte), at every window's end and at the closing quote alike; an error within a string
 * that stays under that bound is reported as the error. */
CTG_TEST(lexer, string_limit_or_error_whatever_the_refills)
{
    ctg_lex_limits lim = { 0, 16, 0 };
    char doc[128];

    /* A bad \u escape in a string far over the limit (found by fuzz_lexer: in memory it was
     * the escape, through 3-byte refills the limit). */
    snprintf(doc, sizeof doc, "[\"\\uD8%s01\"]", "........................................");
    assert_end(doc, &lim, "error(-7)@1:1:2: string longer than 16 bytes");
    /* A control character after 20 plain bytes. */
    assert_end("[\"aaaaaaaaaaaaaaaaaaaa\x01\"]", &lim,
               "error(-7)@1:1:2: string longer than 16 bytes");
    /* Twenty broken \u escapes: each decodes to at least one byte. */
    assert_end("[\"\\u\\u\\u\\u\\u\\u\\u\\u\\u\\u"
               "\\u\\u\\u\\u\\u\\u\\u\\u\\u\\u\"]",
               &lim, "error(-7)@1:1:2: string longer than 16 bytes");
    /* Within the bound, the error is the error: 15 bytes, then a \u cut short by the quote or
     * a control character. */
    assert_end("[\"aaaaaaaaaaaaaaa\\u12\"]", &lim,
               "error(-4)@17:1:18: invalid \\u escape in string");
    assert_end("[\"aaaaaaaaaaaaaaa\x01\"]", &lim,
               "error(-4)@17:1:18: invalid control character 0x01 in string");
}

static void assert_document_limit(const char *json, size_t limit, const char *expected)
{
    ctg_lex_limits lim = { 0, 0, limit };

    assert_end(json, &lim, expected);
}

CTG_TEST(lexer, max_document_size)
{
    static const char doc[] = "{\"a\" : [1, 2]}";
    char buf[96];

    assert_document_limit(doc, sizeof(doc) - 1, "EOF@14:1:15");
    snprintf(buf, sizeof(buf), "error(-7)@13:1:14: document larger than %zu bytes",
             sizeof(doc) - 2);
    assert_document_limit(doc, sizeof(doc) - 2, buf);
    /* Trailing whitespace counts. */
    assert_document_limit("[] \n", 4, "EOF@4:2:1");
    assert_document_limit("[] \n", 3, "error(-7)@3:1:4: document larger than 3 bytes");
    assert_document_limit("[\"abc\"]", 4, "error(-7)@4:1:5: document larger than 4 bytes");
    assert_document_limit("[12345]", 4, "error(-7)@4:1:5: document larger than 4 bytes");
    assert_document_limit("[true]", 3, "error(-7)@3:1:4: document larger than 3 bytes");
    assert_document_limit("1", 1, "EOF@1:1:2");
    assert_document_limit("{\"a\"   :1}", 6, "error(-7)@6:1:7: document larger than 6 bytes");
    assert_document_limit("12", 1, "error(-7)@1:1:2: document larger than 1 bytes");
}

/* ---- numbers --------------------------------------------------------------------------- */

typedef struct number_case {
    const char *text;
    double value;
} number_case;

CTG_TEST(lexer, parse_double)
{
    static const number_case cases[] = {
        { "0", 0.0 },
        { "1", 1.0 },
        { "-1", -1.0 },
        { "0.1", 0.1 },
        { "0.30000000000000004", 0.30000000000000004 },
        { "1e23", 1e23 },
        { "1E+2", 100.0 },
        { "1.5e-3", 1.5e-3 },
        { "2.2250738585072014e-308", DBL_MIN },
        { "2.2250738585072011e-308", 2.2250738585072011e-308 },
        { "4.9e-324", 4.9e-324 },
        { "2.4703282292062328e-324", 4.9e-324 },
        { "1.7976931348623157e308", DBL_MAX },
        { "9007199254740993", 9007199254740992.0 },
        { "9007199254740995", 9007199254740996.0 },
        { "123456789012345678901234567890", 1.2345678901234568e29 },
        { "0.000001", 1e-6 },
        { "100000000000000000000000", 1e23 },
        { "1e-400", 0.0 },
        { "3.14159265358979323846264338327950288", 3.141592653589793 },
        { "-123.456e-7", -1.23456e-5 },
    };
    double v;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        v = -42.0;
        CU_ASSERT_TRUE(ctg_parse_double(cases[i].text, strlen(cases[i].text), &v));
        if (v != cases[i].value)
            printf("\n  %s -> %.17g, expected %.17g\n", cases[i].text, v, cases[i].value);
        CU_ASSERT_EQUAL(v, cases[i].value);
    }
    CU_ASSERT_TRUE(ctg_parse_double("-0", 2, &v));
    CU_ASSERT_TRUE(v == 0.0 && signbit(v));
    CU_ASSERT_TRUE(ctg_parse_double("-0.0", 4, &v));
    CU_ASSERT_TRUE(v == 0.0 && signbit(v));
    CU_ASSERT_TRUE(ctg_parse_double("-1e-400", 7, &v));
    CU_ASSERT_TRUE(v == 0.0 && signbit(v));
}

CTG_TEST(lexer, parse_double_long_mantissa)
{
    /* 1 followed by 1000 zeros, then e-1000: exactly 1. More than 800 digits are rounded
     * with a sticky digit, so a non-zero tail still nudges a halfway case up. */
    char buf[1100];
    double v = 0;

    buf[0] = '1';
    memset(buf + 1, '0', 1000);
    memcpy(buf + 1001, "e-1000", 6);
    CU_ASSERT_TRUE(ctg_parse_double(buf, 1007, &v));
    CU_ASSERT_EQUAL(v, 1.0);
    /* 2^53 + 1 (a halfway case) rounds down to even; with a non-zero digit far away, up. */
    memset(buf, '0', sizeof(buf));
    memcpy(buf, "9007199254740993.", 17);
    CU_ASSERT_TRUE(ctg_parse_double(buf, 17 + 900, &v));
    CU_ASSERT_EQUAL(v, 9007199254740992.0);
    buf[17 + 899] = '1';
    CU_ASSERT_TRUE(ctg_parse_double(buf, 17 + 900, &v));
    CU_ASSERT_EQUAL(v, 9007199254740994.0);
}

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64*: reproducible digits and exponents. */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1DULL;
}

/* Whether `s` reads as strtod in the C locale (the oracle, independent of ctg) reads it, bit
 * for bit; says so when not. */
static bool reads_as_strtod(const char *s, locale_t c)
{
    locale_t old = uselocale(c);
    double v = -42.0, want = strtod(s, NULL);

    uselocale(old);
    if (!ctg_parse_double(s, strlen(s), &v) || memcmp(&v, &want, sizeof v) != 0) {
        printf("\n  %s -> %a, strtod gives %a\n", s, v, want);
        return false;
    }
    return true;
}

/* The fast path's domain (up to 19 digits, exponents -22..22), bit for bit against strtod. Its
 * one multiplication or division rounds correctly only where doubles are computed as doubles:
 * the first four texts came out one unit too far in the last place under x87's double
 * rounding (32-bit x86). */
CTG_TEST(lexer, parse_double_matches_strtod)
{
    static const char *const known[] = { "8.64310789402888E8", "3.747628563042273E7",
                                         "0.2554332381256397", "0.4139826185060482",
                                         "0.0125", "1.0E-4", "0.30000000000000004" };
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    int failures = 0;
    char buf[64];

    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        failures += !reads_as_strtod(known[i], c);
    for (int i = 0; i < 100000 && failures < 5; i++) {
        uint64_t shape = next_random(&state), m = next_random(&state), ten = 1;
        int digits = 1 + (int)(shape % 19), exp = (int)((shape >> 8) % 45) - 22;

        while (digits-- > 0)
            ten *= 10;
        snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)(m % ten), exp);
        failures += !reads_as_strtod(buf, c);
    }
    CU_ASSERT_EQUAL(failures, 0);
    freelocale(c);
}

CTG_TEST(lexer, parse_double_rejects)
{
    static const char *const bad[] = { "",     "-",   "+1",  ".5",   "1.",  "01",  "1e",
                                       "1e+",  "0x10", "1 ", " 1",  "Infinity", "NaN",
                                       "1e309", "-1e309", "1.7976931348623159e308", "--1" };
    double v = 7.0;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        CU_ASSERT_FALSE(ctg_parse_double(bad[i], strlen(bad[i]), &v));
    CU_ASSERT_EQUAL(v, 7.0);
    /* The length bounds the text: "12" of "123". */
    CU_ASSERT_TRUE(ctg_parse_double("123", 2, &v));
    CU_ASSERT_EQUAL(v, 12.0);
}

CTG_TEST(lexer, parse_int64)
{
    int64_t v = 0;

    CU_ASSERT_TRUE(ctg_parse_int64("0", 1, &v) && v == 0);
    CU_ASSERT_TRUE(ctg_parse_int64("-0", 2, &v) && v == 0);
    CU_ASSERT_TRUE(ctg_parse_int64("42", 2, &v) && v == 42);
    CU_ASSERT_TRUE(ctg_parse_int64("9223372036854775807", 19, &v) && v == INT64_MAX);
    CU_ASSERT_TRUE(ctg_parse_int64("-9223372036854775808", 20, &v) && v == INT64_MIN);
    CU_ASSERT_TRUE(ctg_parse_int64("-9223372036854775807", 20, &v) && v == -INT64_MAX);
    v = 5;
    CU_ASSERT_FALSE(ctg_parse_int64("9223372036854775808", 19, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("-9223372036854775809", 20, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("99999999999999999999", 20, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("1.0", 3, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("1e2", 3, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("01", 2, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("", 0, &v));
    CU_ASSERT_FALSE(ctg_parse_int64("+1", 2, &v));
    CU_ASSERT_EQUAL(v, 5);
}

CTG_TEST(lexer, number_tokens)
{
    ASSERT_DIGEST("[0,-0,0.5,1e2,1E-2,-12.5e+1,4.9e-324,1e-400]",
                  "[@0:1:1 N0=0i@1:1:2 N-0=-0i@3:1:4 N0.5=0.5f@6:1:7 N1e2=100f@10:1:11 "
                  "N1E-2=0.01f@14:1:15 N-12.5e+1=-125f@19:1:20 "
                  "N4.9e-324=4.9406564584124654e-324f@28:1:29 N1e-400=0f@37:1:38 ]@43:1:44 "
                  "EOF@44:1:45");
    ASSERT_DIGEST("[1.7976931348623157e308,1.7976931348623159e308]",
                  "[@0:1:1 N1.7976931348623157e308=1.7976931348623157e+308f@1:1:2 "
                  "error(-4)@24:1:25: number out of range");
}

/* A locale whose decimal point is ',' (the test environment may provide one, e.g. through
 * LC_ALL), or NULL. */
static const char *comma_locale(void)
{
    static const char *const names[] = { "", "de_DE.UTF-8", "de_DE.utf8", "de_DE",
                                          "fr_FR.UTF-8", "fr_FR.utf8", "nl_NL.UTF-8" };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *got = setlocale(LC_NUMERIC, names[i]);
        if (got != NULL && strcmp(localeconv()->decimal_point, ",") == 0)
            return got;
    }
    return NULL;
}

CTG_TEST(lexer, locale_independent)
{
    char *saved = strdup(setlocale(LC_NUMERIC, NULL));
    double v = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(saved);
    if (comma_locale() == NULL) {
        CU_PASS("no locale with a decimal comma is installed: locale independence not checked");
        printf("\n  [skipped] no locale with a decimal comma (de_DE.UTF-8) is installed\n");
    } else {
        CU_ASSERT_TRUE(ctg_parse_double("1.5", 3, &v));
        CU_ASSERT_EQUAL(v, 1.5);
        CU_ASSERT_TRUE(ctg_parse_double("0.1e1", 5, &v));
        CU_ASSERT_EQUAL(v, 1.0);
        /* The slow path (strtod_l) too: more digits than the fast path takes. */
        CU_ASSERT_TRUE(ctg_parse_double("2.2250738585072014e-308", 23, &v));
        CU_ASSERT_EQUAL(v, DBL_MIN);
        CU_ASSERT_FALSE(ctg_parse_double("1,5", 3, &v));
        ASSERT_DIGEST("[2.5]", "[@0:1:1 N2.5=2.5f@1:1:2 ]@4:1:5 EOF@5:1:6");
    }
    setlocale(LC_NUMERIC, saved);
    free(saved);
}

/* ---- memory and refill modes ----------------------------------------------------------- */

CTG_TEST(lexer, input_not_nul_terminated)
{
    /* Every document ends right where its block ends (see ctg_test_lex_digest). */
    static const error_case cases[] = {
        { "123", "EOF@3:1:4" },
        { "-", "error(-4)@1:1:2: expected a digit after '-'" },
        { "1e", "error(-4)@2:1:3: expected a digit in the exponent of a number" },
        { "tru", "error(-4)@3:1:4: invalid literal, expected 'true', got end of input" },
        { "\"ab", "error(-4)@3:1:4: unexpected end of input in string" },
        { "\"ab\\", "error(-4)@4:1:5: unexpected end of input in string" },
        { "\"\\u00", "error(-4)@5:1:6: unexpected end of input in string" },
        { "\"\xe2\x82", "error(-4)@3:1:4: unexpected end of input in string" },
        { "{\"a\"  ", "error(-4)@6:1:7: expected ':' after object key, got end of input" },
        { "[1]   \n  ", "EOF@9:2:3" },
        { "\xef\xbb", "error(-4)@0:1:1: expected a value, got byte 0xef" },
    };
    int rc;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *d = ctg_test_lex_digest(cases[i].json, strlen(cases[i].json), 0, NULL, &rc);
        CU_ASSERT_STRING_EQUAL(last_entry(d), cases[i].expected);
        free(d);
        assert_end(cases[i].json, NULL, cases[i].expected);
    }
}

/* Documents whose tokens straddle refills in every way: each is compared across refill sizes by
 * digest(), and pinned here by its end. */
CTG_TEST(lexer, refill_sizes_agree)
{
    static const error_case docs[] = {
        { "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"list\",\n"
          "  \"contingencies\" : [ {\n    \"id\" : \"N-1\",\n    \"elements\" : [ {\n"
          "      \"id\" : \"LINE\",\n      \"type\" : \"BRANCH\"\n    } ]\n  } ]\n}",
          "EOF@187:12:2" },
        { "\xEF\xBB\xBF{\"k\\u00e9y\"\r\n:\t[\"\\ud83d\\ude00\",-1.25e-2,true,null,false]}",
          "EOF@60:2:45" },
        { "[\"a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z\", 12345678901234567890, \"\\\\\\\"\"]",
          "EOF@45:1:46" },
        { "{\"a\":[1,2,{\"b\":null}],\"c\":\"\\u0000\"} ",
          "EOF@36:1:37" },
        { "[\"abc\\ud800\\u0041\"]", "error(-4)@5:1:6: lone surrogate \\ud800" },
        { "{\"key\"    \n    \n   :    1 ,  \"k2\" }",
          "error(-4)@34:3:19: expected ':' after object key, got '}'" },
        { "[1, 2, 3,\n 4, \"x\xf0\x9f\x98\"]", "error(-4)@16:2:7: truncated UTF-8 sequence in string" },
        { "[truex]", "error(-4)@5:1:6: expected ',' or ']' after array element, got 'x'" },
        { "  [ 1.5e ]", "error(-4)@8:1:9: expected a digit in the exponent of a number" },
        /* Trailing commas, met by the hot-path calls after they consumed the comma. */
        { "[ {\"a\" : \"b\"}, ]", "error(-4)@15:1:16: expected a value after ',', got ']'" },
        { "{ \"a\" : \"b\", }", "error(-4)@13:1:14: expected a string key after ',', got '}'" },
        { "{ \"a\" : \"b\" \"k\" : \"c\" }", "error(-4)@12:1:13: expected ',' or '}' after object member, got '\"'" },
        /* A value on the line after its key, and errors after blanks the hot path peeks at. */
        { "{\"a\" :\n    1}", "EOF@13:2:7" },
        { "[ {\n  \"id\" : \"c1\"   x } ]", "error(-4)@20:2:17: expected ',' or '}' after object member, got 'x'" },
        { "[ {\"id\":\"c\",\"k\":[]}  ,  x ]", "error(-4)@24:1:25: expected a value after ',', got 'x'" },
    };

    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
        assert_end(docs[i].json, NULL, docs[i].expected);
}

/* Tokens and whitespace larger than the 64 KiB refill buffer. */
CTG_TEST(lexer, refill_large_tokens)
{
    const size_t n = 150000;
    char *s = malloc(3 * n + 64), *p = s;
    char *d, expected[128];

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    *p++ = '{';
    *p++ = '"';
    memset(p, 'k', n), p += n;     /* a key larger than the buffer ... */
    *p++ = '"';
    memset(p, ' ', n), p += n;     /* ... followed by more whitespace than the buffer */
    *p++ = ':';
    *p++ = '[';
    *p++ = '1';
    memset(p, '0', n / 2), p += n / 2; /* a long number: 1e75000 is out of range */
    memcpy(p, "e-75000]}", 10);
    d = digest(s);
    snprintf(expected, sizeof(expected), "0e-75000=1f@%zu:1:%zu", 2 * n + 5, 2 * n + 6);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, expected));
    snprintf(expected, sizeof(expected), "EOF@%zu:1:%zu", strlen(s), strlen(s) + 1);
    CU_ASSERT_STRING_EQUAL(last_entry(d), expected);
    CU_ASSERT_EQUAL(strncmp(d, "{@0:1:1 K\"kkkk", 14), 0);
    free(d);
    free(s);
}

static int failing_refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    size_t *calls = ctx;

    if ((*calls)++ == 0) {
        *got = cap < 4 ? cap : 4;
        memcpy(dst, "[1, ", *got);
        return CTG_OK;
    }
    snprintf(err->message, sizeof(err->message), "disk on fire");
    return CTG_EIO;
}

static int mute_refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    (void)ctx;
    (void)dst;
    (void)cap;
    (void)got;
    (void)err;
    return CTG_EIO;
}

static int greedy_refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    (void)ctx;
    (void)dst;
    (void)err;
    *got = cap + 1;
    return CTG_OK;
}

CTG_TEST(lexer, refill_errors)
{
    size_t calls = 0;
    ctg_lex_source src = { NULL, 0, failing_refill, &calls };
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_NUMBER);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_EIO);
    CU_ASSERT_EQUAL(err.code, CTG_EIO);
    CU_ASSERT_EQUAL(err.offset, 4);
    CU_ASSERT_EQUAL(err.column, 5);
    CU_ASSERT_STRING_EQUAL(err.message, "disk on fire");
    /* Repeated, without calling the callback again. */
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "disk on fire");
    CU_ASSERT_EQUAL(calls, 2);
    ctg_lexer_dispose(&lx);

    src.refill = greedy_refill;
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "read callback overran its buffer");
    ctg_lexer_dispose(&lx);

    /* A callback that says nothing still leaves a message. */
    src.refill = mute_refill;
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "read error");
    CU_ASSERT_EQUAL(err.offset, 0);
    ctg_lexer_dispose(&lx);
    ctg_lexer_dispose(NULL);
}

/* ---- allocations ----------------------------------------------------------------------- */

static int lex_with_allocator(const char *json, size_t chunk, const ctg_allocator *a,
                              const ctg_lex_limits *lim)
{
    chunked c = { json, strlen(json), 0, chunk };
    ctg_lex_source src = { json, strlen(json), chunk ? chunk_refill : NULL, &c };
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;
    int rc = ctg_lexer_init(&lx, &src, lim, a);

    if (rc != CTG_OK) {
        /* The failed lexer answers every call with the failure. */
        CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), rc);
        CU_ASSERT_EQUAL(err.code, rc);
        ctg_lexer_dispose(&lx);
        return rc;
    }
    while ((rc = ctg_lexer_next(&lx, &tok, &err)) == CTG_OK && tok.type != CTG_TOK_EOF)
        ;
    if (rc != CTG_OK) {
        CU_ASSERT_EQUAL(err.code, rc);
        CU_ASSERT_STRING_EQUAL(err.message, "out of memory");
    }
    ctg_lexer_dispose(&lx);
    return rc;
}

CTG_TEST(lexer, memory_mode_plain_document_allocates_nothing)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);

    CU_ASSERT_EQUAL(lex_with_allocator("{\"a\" : [1, \"b\", {\"c\" : null}]}", 0, &a, NULL),
                    CTG_OK);
    CU_ASSERT_EQUAL(st.allocs + st.resizes, 0);
}

/* Fails every allocation in turn while lexing `inner` nested 80 deep (heap stack) in refills of
 * 3 bytes; returns how many attempts it took to succeed. */
static size_t allocation_sweep(const char *inner)
{
    ctg_lex_limits lim = { 100, 0, 0 };
    char *deep = nested(80, "[", inner, "]");
    size_t n = 0;
    int rc;

    do {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        st.fail_at = ++n;
        rc = lex_with_allocator(deep, 3, &a, &lim);
        CU_ASSERT(rc == CTG_OK || rc == CTG_ENOMEM);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
    } while (rc == CTG_ENOMEM && n < 100);
    CU_ASSERT_EQUAL(rc, CTG_OK);
    free(deep);
    return n;
}

CTG_TEST(lexer, allocation_failures)
{
    /* The refill buffer, the stack, then scratch for an escape ... */
    CU_ASSERT_EQUAL(allocation_sweep("{\"k\\n\" :\"\\u00e9\", \"plain\"    :1}"), 4);
    /* ... or for a plain key kept across a refill before its ':'. */
    CU_ASSERT_EQUAL(allocation_sweep("{\"plain\"    :1, \"k\\n\" :\"\\u00e9\"}"), 4);
}

CTG_TEST(lexer, buffer_growth_failure)
{
    char *s = string_doc(200000, "y");
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator_noresize(&st);

    CU_ASSERT_EQUAL(lex_with_allocator(s, 4096, &a, NULL), CTG_OK);
    CU_ASSERT(st.allocs >= 2);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    st = (ctg_test_alloc){ 0 };
    st.fail_at = 2;
    CU_ASSERT_EQUAL(lex_with_allocator(s, 4096, &a, NULL), CTG_ENOMEM);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    free(s);
}

/* ---- skip_value ------------------------------------------------------------------------ */

CTG_TEST(lexer, skip_value)
{
    static const char doc[] = "{\"a\":{\"x\":[1,{\"y\":[[]]}],\"z\":\"s\"},\"b\":3,\"c\":[true]}";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK); /* { */
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK); /* "a" */
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK); /* { */
    CU_ASSERT_EQUAL(ctg_lexer_depth(&lx), 2);
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_OBJECT_END);
    CU_ASSERT_EQUAL(tok.offset, 32);
    CU_ASSERT_EQUAL(ctg_lexer_depth(&lx), 1);
    CU_ASSERT_EQUAL(ctg_lexer_offset(&lx), 33);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_KEY);
    CU_ASSERT_EQUAL(tok.len, 1);
    CU_ASSERT_EQUAL(tok.str[0], 'b');
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK); /* 3 */
    /* A scalar is already a whole value. */
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_NUMBER);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK); /* "c" */
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK); /* [ */
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_ARRAY_END);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_OBJECT_END);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_EOF);
    ctg_lexer_dispose(&lx);
}

CTG_TEST(lexer, skip_value_deep_and_errors)
{
    char *deep = nested(64, "[", "1", "]");
    ctg_lex_source src = { deep, strlen(deep), NULL, NULL };
    ctg_lexer lx;
    ctg_token tok;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_ARRAY_END);
    CU_ASSERT_EQUAL(tok.offset, 128);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(tok.type, CTG_TOK_EOF);
    ctg_lexer_dispose(&lx);
    free(deep);

    src.data = "[[1,2],[3,]]";
    src.len = strlen(src.data);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &tok, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 10);
    CU_ASSERT_STRING_EQUAL(err.message, "expected a value after ',', got ']'");
    /* After the error, skipping from an opening token (as a caller still holding one would)
     * repeats it, as ctg_lexer_next does, and so does skipping the next value. */
    memset(&err, 0, sizeof(err));
    tok.type = CTG_TOK_ARRAY_BEGIN;
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &tok, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 10);
    CU_ASSERT_STRING_EQUAL(err.message, "expected a value after ',', got ']'");
    memset(&err, 0, sizeof(err));
    CU_ASSERT_EQUAL(ctg_lexer_skip_next(&lx, &tok, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 10);
    CU_ASSERT_STRING_EQUAL(err.message, "expected a value after ',', got ']'");
    ctg_lexer_dispose(&lx);
}

/* Integers of up to 15 digits are read in one pass, longer ones and the others as before: the
 * same values and texts either way, and the same errors. */
CTG_TEST(lexer, small_integers)
{
    ctg_lex_limits lim = { 0, 2, 0 };

    ASSERT_DIGEST("[0,7,123456789012345,1234567890123456,10.5,0e1,-3]",
                  "[@0:1:1 N0=0i@1:1:2 N7=7i@3:1:4 N123456789012345=123456789012345i@5:1:6 "
                  "N1234567890123456=1234567890123456i@21:1:22 N10.5=10.5f@38:1:39 "
                  "N0e1=0f@43:1:44 N-3=-3i@47:1:48 ]@49:1:50 EOF@50:1:51");
    assert_end("[12,123]", &lim, "error(-7)@4:1:5: number longer than 2 bytes");
    assert_end("[00]", NULL, "error(-4)@2:1:3: leading zero in number");
}

/* ---- the quick skip of a whole container ----------------------------------------------- */

/* Skipped containers that the quick scan takes, or gives back to the token path at every
 * kind of byte it does not settle itself: each ends (EOF or error, offset, line, column) as
 * reading every token does, with every skip pattern, in memory mode and through every refill
 * size (assert_end checks all of that). The value after the skipped one is what shows that
 * the lines and columns counted inside it were exact. */
static const error_case quick_cases[] = {
    /* Strings holding brackets, quotes and every short escape. */
    { "{\"a\":[{\"s\":\"x]}[{\\\"y\\\\\",\"t\":\"\\/\\b\\f\\n\\r\\t\"}],\n \"b\":tru}",
      "error(-4)@54:2:9: invalid literal, expected 'true', got '}'" },
    { "[{\"a\" :\n [ 1 , -2.5e-3 , 0 , 10E+2 , true , false , null , { } , [ ] ] } ,\n x]",
      "error(-4)@76:3:2: expected a value after ',', got 'x'" },
    { "[\n  {\n    \"k\" : \"v\"\r\n  }\t]\n", "EOF@27:5:1" },
    { "[[],{},[[]],{\"\":{}}]", "EOF@20:1:21" },
    /* Members written `"key" : value`, the shape taken in one step, and its near misses. */
    { "[{\"a\" : 1 , \"b\" : \"x\" , \"c\" : {\"d\" : [ ]}},\n x]",
      "error(-4)@45:2:2: expected a value after ',', got 'x'" },
    { "[{\"a\" :  1, \"b\" : \n 2, \"c\" :\t3, \"d\" : -4},\n x]",
      "error(-4)@44:3:2: expected a value after ',', got 'x'" },
    { "[{\"a\\\"b\" : 1, \"\\u0063\" : 2},x]",
      "error(-4)@28:1:29: expected a value after ',', got 'x'" },
    { "[{\"a\" : }]", "error(-4)@8:1:9: expected a value after ':', got '}'" },
    { "[{\"a\" : tru}]", "error(-4)@11:1:12: invalid literal, expected 'true', got '}'" },
    { "[{\"a\" : \"\\q\"}]", "error(-4)@9:1:10: invalid escape '\\q' in string" },
    { "[{\"a\" : ", "error(-4)@8:1:9: expected a value after ':', got end of input" },
    { "[{\"a\" : 1",
      "error(-4)@9:1:10: expected ',' or '}' after object member, got end of input" },
    /* What the token path settles. */
    { "[{\"a\":\"\\u0041\"},x]", "error(-4)@16:1:17: expected a value after ',', got 'x'" },
    { "[{\"a\":\"\\q\"}]", "error(-4)@7:1:8: invalid escape '\\q' in string" },
    { "[{\"a\":\"caf\xc3\xa9\"},x]", "error(-4)@15:1:16: expected a value after ',', got 'x'" },
    { "[{\"a\":\"\xff\"}]", "error(-4)@7:1:8: invalid UTF-8 byte 0xff in string" },
    { "[[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"],x]",
      "error(-4)@15:1:16: expected a value after ',', got 'x'" },
    { "[[\"\xc3\"]]", "error(-4)@3:1:4: truncated UTF-8 sequence in string" },
    { "[[\"\xc0\x80\"]]", "error(-4)@3:1:4: overlong UTF-8 sequence in string" },
    { "[[\"\xed\xa0\x80\"]]", "error(-4)@3:1:4: UTF-8 encoded surrogate in string" },
    { "[[\"\xf4\x90\x80\x80\"]]",
      "error(-4)@3:1:4: UTF-8 code point above U+10FFFF in string" },
    { "[[\"\xe2\x82", "error(-4)@5:1:6: unexpected end of input in string" },
    /* Line breaks followed by another blank, not by a token. */
    { "[[\n\n\t 1,\n\r\n 2],\n x]", "error(-4)@17:6:2: expected a value after ',', got 'x'" },
    { "[{\"a\":\"\x01\"}]", "error(-4)@7:1:8: invalid control character 0x01 in string" },
    { "[{\"\\u0041\":1},x]", "error(-4)@14:1:15: expected a value after ',', got 'x'" },
    { "[{\"a\" 1}]", "error(-4)@6:1:7: expected ':' after object key, got '1'" },
    { "[{\"a\":}]", "error(-4)@6:1:7: expected a value after ':', got '}'" },
    { "[{\"a\":1,}]", "error(-4)@8:1:9: expected a string key after ',', got '}'" },
    { "[{1:1}]", "error(-4)@2:1:3: expected a string key or '}', got '1'" },
    { "[{,}]", "error(-4)@2:1:3: expected a string key or '}', got ','" },
    { "[[1 2]]", "error(-4)@4:1:5: expected ',' or ']' after array element, got '2'" },
    { "[[1,]]", "error(-4)@4:1:5: expected a value after ',', got ']'" },
    { "[[}]", "error(-4)@2:1:3: expected a value or ']', got '}'" },
    { "[{]}", "error(-4)@2:1:3: expected a string key or '}', got ']'" },
    { "[[1}]", "error(-4)@3:1:4: expected ',' or ']' after array element, got '}'" },
    { "[[01]]", "error(-4)@3:1:4: leading zero in number" },
    { "[[1e999]]", "error(-4)@2:1:3: number out of range" },
    { "[[-x]]", "error(-4)@3:1:4: expected a digit after '-'" },
    { "[[.5]]", "error(-4)@2:1:3: expected a value or ']', got '.'" },
    { "[[tru]]", "error(-4)@5:1:6: invalid literal, expected 'true', got ']'" },
    { "[[fals]]", "error(-4)@6:1:7: invalid literal, expected 'false', got ']'" },
    { "[[nul]]", "error(-4)@5:1:6: invalid literal, expected 'null', got ']'" },
    { "[[\f]]", "error(-4)@2:1:3: expected a value or ']', got byte 0x0c" },
    { "[[1\f]]", "error(-4)@3:1:4: expected ',' or ']' after array element, got byte 0x0c" },
    /* The end of the input inside the container, at each kind of place. */
    { "[[", "error(-4)@2:1:3: expected a value or ']', got end of input" },
    { "[[1", "error(-4)@3:1:4: expected ',' or ']' after array element, got end of input" },
    { "[[1,", "error(-4)@4:1:5: expected a value after ',', got end of input" },
    { "[{\"a\"", "error(-4)@5:1:6: expected ':' after object key, got end of input" },
    { "[{\"a\":", "error(-4)@6:1:7: expected a value after ':', got end of input" },
    { "[{\"a", "error(-4)@4:1:5: unexpected end of input in string" },
    { "[[\"a\\", "error(-4)@5:1:6: unexpected end of input in string" },
    { "[[t", "error(-4)@3:1:4: invalid literal, expected 'true', got end of input" },
    { "[[f", "error(-4)@3:1:4: invalid literal, expected 'false', got end of input" },
    { "[[n", "error(-4)@3:1:4: invalid literal, expected 'null', got end of input" },
};

CTG_TEST(lexer, skip_quick_scan)
{
    for (size_t i = 0; i < sizeof(quick_cases) / sizeof(quick_cases[0]); i++)
        assert_end(quick_cases[i].json, NULL, quick_cases[i].expected);
}

/* The byte that ends a run of plain string bytes or of indentation, at every position of the
 * 16-byte blocks that scan them (and past the first block, and at the end of the input, which
 * a block reaches exactly at k = 16 and 32): each ends as reading every token does. */
CTG_TEST(lexer, skip_quick_scan_lanes)
{
    char a[48], json[128], want[128];

    for (size_t k = 0; k <= 40; k++) {
        memset(a, 'a', k);
        a[k] = '\0';
        snprintf(json, sizeof json, "[[\"%s\"],x]", a);
        snprintf(want, sizeof want, "error(-4)@%zu:1:%zu: expected a value after ',', got 'x'",
                 k + 6, k + 7);
        assert_end(json, NULL, want);
        snprintf(json, sizeof json, "[[\"%s\x01\"]]", a);
        snprintf(want, sizeof want, "error(-4)@%zu:1:%zu: invalid control character 0x01 in string",
                 k + 3, k + 4);
        assert_end(json, NULL, want);
        snprintf(json, sizeof json, "[[\"%s\\naaaaaaaaaaaaaaaaaaaa\"],x]", a);
        snprintf(want, sizeof want, "error(-4)@%zu:1:%zu: expected a value after ',', got 'x'",
                 k + 28, k + 29);
        assert_end(json, NULL, want);
        snprintf(json, sizeof json, "[[\"%s\303\251aaaaaaaaaaaaaaaaaaaa\"],x]", a);
        assert_end(json, NULL, want);
        snprintf(json, sizeof json, "[{\"%s\":1},x]", a);
        snprintf(want, sizeof want, "error(-4)@%zu:1:%zu: expected a value after ',', got 'x'",
                 k + 8, k + 9);
        assert_end(json, NULL, want);
        snprintf(json, sizeof json, "[[\"%s", a);
        snprintf(want, sizeof want, "error(-4)@%zu:1:%zu: unexpected end of input in string", k + 3,
                 k + 4);
        assert_end(json, NULL, want);
        memset(a, ' ', k);
        snprintf(json, sizeof json, "[[\n%s1],x]", a);
        snprintf(want, sizeof want, "error(-4)@%zu:2:%zu: expected a value after ',', got 'x'",
                 k + 6, k + 4);
        assert_end(json, NULL, want);
    }
}

/* The numbers of skipped values, settled from one 8-byte load when they are short: every shape
 * it takes or must leave to the general path (leading zeros, a bare '.', an exponent, 8 digits
 * and more, a byte that extends the number), each followed by 0 to 9 bytes before the end of
 * the input, so that the load sees the end at every position of its lane. Each is read as a
 * skipped member (the sieve), inside a skipped container (the quick scan) and token by token,
 * and must end as reading every token does (digest_lim checks that); the valid ones also end
 * at the byte they must. */
CTG_TEST(lexer, skip_number_lanes)
{
    static const char *const valid[] = {
        "0", "7", "-0", "-7", "12", "1234567", "-1234567", "12345678", "123456789012", "0.5",
        "-547.6", "1.93E-4", "12345.6", "1234.567", "0.000001", "-0.25", "1e5", "0.1234567",
    };
    static const char *const invalid[] = {
        "01", "-01", "00.1", "1.", "-", "-.5", "1.2.3", "1.e5", "1-", "1+2", "1..2", "-a",
        "0012345", "1234567.", "123456.x", "1e", "-0x",
    };
    ctg_lex_limits lim = { 0, 3, 0 };
    char json[96], want[128], pad[16];

    for (size_t k = 0; k <= 9; k++) {
        memset(pad, ' ', k);
        pad[k] = '\0';
        for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
            size_t n = strlen(valid[i]);
            snprintf(json, sizeof json, "{\"zz\" : %s,\"a\":[[%s]%s,x]}", valid[i], valid[i], pad);
            snprintf(want, sizeof want, "error(-4)@%zu:1:%zu: expected a value after ',', got 'x'",
                     2 * n + 17 + k, 2 * n + 18 + k);
            assert_end(json, NULL, want);
            snprintf(json, sizeof json, "[[%s%s", valid[i], pad);
            snprintf(want, sizeof want,
                     "error(-4)@%zu:1:%zu: expected ',' or ']' after array element, got end of input",
                     n + 2 + k, n + 3 + k);
            assert_end(json, NULL, want);
        }
        /* Longer than max_string_len: the fast paths leave the error to the general one. */
        snprintf(json, sizeof json, "[[1234]%s,x]", pad);
        assert_end(json, &lim, "error(-7)@2:1:3: number longer than 3 bytes");
        snprintf(json, sizeof json, "[[-1.5]%s,x]", pad);
        assert_end(json, &lim, "error(-7)@2:1:3: number longer than 3 bytes");
        snprintf(json, sizeof json, "{\"id\" : 1234%s}", pad);
        assert_end(json, &lim, "error(-7)@8:1:9: number longer than 3 bytes");
        snprintf(json, sizeof json, "{\"type\" : 1%s}", pad);
        assert_end(json, &lim, "error(-7)@1:1:2: string longer than 3 bytes");
        for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
            char *d;
            snprintf(json, sizeof json, "{\"zz\" : %s%s,\"k\":1}", invalid[i], pad);
            d = digest(json);
            CU_ASSERT(strstr(d, "error(-4)") != NULL);
            free(d);
            snprintf(json, sizeof json, "[[%s]%s]", invalid[i], pad);
            d = digest(json);
            CU_ASSERT(strstr(d, "error(-4)") != NULL);
            free(d);
        }
    }
}

/* ",\n" between two values is settled in one step: what follows the line break (a token, more
 * blanks, a closing bracket the comma does not allow, the end of the input) ends as reading
 * every token does. */
CTG_TEST(lexer, comma_newline)
{
    assert_end("[1,\n\n 2,\nx]", NULL, "error(-4)@9:4:1: expected a value after ',', got 'x'");
    assert_end("{\"a\" : 1,\n\t\"b\" : 2,\n  }", NULL,
               "error(-4)@22:3:3: expected a string key after ',', got '}'");
    assert_end("[1,\n", NULL, "error(-4)@4:2:1: expected a value after ',', got end of input");
    assert_end("[[1],\n [2],\n\r\n 3]", NULL, "EOF@17:4:4");
    /* Where no comma may come. */
    assert_end("[,\n1]", NULL, "error(-4)@1:1:2: expected a value or ']', got ','");
    assert_end("{,\n\"a\":1}", NULL, "error(-4)@1:1:2: expected a string key or '}', got ','");
    assert_end("{\"a\":,\n1}", NULL, "error(-4)@5:1:6: expected a value after ':', got ','");
}

/* A key that is the hint but longer than max_string_len is not matched in place: the general
 * path reports it. */
CTG_TEST(lexer, member_hint_over_limit)
{
    static const char doc[] = "{\"id\" : 1}";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_lex_limits lim = { 0, 1, 0 };
    ctg_lex_member m;
    ctg_lexer lx;
    ctg_token val;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, &lim, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_member(&lx, "id", 2, &m, &val, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "string longer than 1 bytes");
    CU_ASSERT_EQUAL(err.offset, 1);
    ctg_lexer_dispose(&lx);
}

/* The values of short integers, read from one 8-byte load when 8 bytes are in the window and
 * digit by digit near its end: 1 to 16 digits, each digit at each place. */
CTG_TEST(lexer, small_integer_values)
{
    static const char *const tails[] = { "]", ",          0]" };
    char json[64];

    for (size_t n = 1; n <= 16; n++) {
        for (unsigned d = 0; d < 10; d++) {
            for (size_t t = 0; t < 2; t++) {
                char num[20];
                double want = 0;
                ctg_lex_source src = { json, 0, NULL, NULL };
                ctg_lexer lx;
                ctg_token tok;
                ctg_error err;
                /* Digits n-1, n-2, ..., then d in the last place; the first is never 0. */
                for (size_t i = 0; i < n; i++) {
                    num[i] = (char)('0' + (i + 1 == n ? (n == 1 && d == 0 ? 5 : d) : (n - i) % 10));
                    if (i == 0 && num[0] == '0')
                        num[0] = '9';
                    want = want * 10 + (num[i] - '0');
                }
                num[n] = '\0';
                snprintf(json, sizeof json, "[%s%s", num, tails[t]);
                src.len = strlen(json);
                CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
                CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
                CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &tok, &err), CTG_OK);
                CU_ASSERT(tok.type == CTG_TOK_NUMBER && tok.is_integer && tok.raw_len == n);
                if (tok.number != want)
                    printf("\n  %s: got %.17g\n", json, tok.number);
                CU_ASSERT(tok.number == want);
                ctg_lexer_dispose(&lx);
            }
        }
    }
}

/* A member's string value, read with its key or passed over by the sieve, is scanned 32 bytes
 * in its first step: the byte that ends it (its quote, an escape, a control character, a UTF-8
 * lead byte, the end of the input) at every position of both 16-byte halves and past them,
 * each ending as reading every token does. */
CTG_TEST(lexer, member_string_lanes)
{
    static const char *const stops[] = { "\"", "\\n\"", "\x01\"", "\303\251\"", "" };
    char a[48], json[128], want[160];

    for (size_t k = 0; k <= 40; k++) {
        memset(a, 'a', k);
        a[k] = '\0';
        for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
            char *d;
            snprintf(json, sizeof json, "{\"zz\" : \"%s%s, \"k\" : \"%s%s}", a, stops[i], a,
                     stops[i]);
            d = digest(json);
            free(d);
        }
        snprintf(json, sizeof json, "{\"zz\" : \"%s\",\n\"k\" : \"%s\", x}", a, a);
        snprintf(want, sizeof want,
                 "error(-4)@%zu:2:%zu: expected a string key after ',', got 'x'", 2 * k + 22,
                 k + 11);
        assert_end(json, NULL, want);
        snprintf(json, sizeof json, "{\"k\" : \"%s\x01\"}", a);
        snprintf(want, sizeof want, "error(-4)@%zu:1:%zu: invalid control character 0x01 in string",
                 k + 8, k + 9);
        assert_end(json, NULL, want);
    }
}

/* The limits the quick scan must leave to the token path: a string or a number longer than
 * max_string_len (the raw text counts, escapes included), nesting at max_depth, and nesting
 * past 64 levels (the container stack grows there). */
CTG_TEST(lexer, skip_quick_scan_limits)
{
    ctg_lex_limits lim = { 3, 3, 0 };
    char *deep = nested(70, "[", "1", "]");
    char *over;

    assert_end("[[\"abc\",\"\\n\\n\\n\",1e3],x]", &lim,
               "error(-4)@22:1:23: expected a value after ',', got 'x'");
    assert_end("[[\"abcd\"]]", &lim, "error(-7)@2:1:3: string longer than 3 bytes");
    assert_end("[[\"a\\n\\n\"],x]", &lim, "error(-4)@11:1:12: expected a value after ',', got 'x'");
    assert_end("[[1234]]", &lim, "error(-7)@2:1:3: number longer than 3 bytes");
    assert_end("[[[]]]", &lim, "EOF@6:1:7");
    assert_end("[[[[]]]]", &lim, "error(-7)@3:1:4: nesting deeper than 3 levels");
    lim = (ctg_lex_limits){ 100, 0, 0 };
    assert_end(deep, &lim, "EOF@141:1:142");
    free(deep);
    deep = nested(101, "[", "1", "]");
    over = malloc(strlen(deep) + 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(over);
    snprintf(over, strlen(deep) + 3, "[%s]", deep);
    assert_end(over, &lim, "error(-7)@100:1:101: nesting deeper than 100 levels");
    free(over);
    free(deep);
}

/* A container of about 100 KiB skipped whole: longer than the refill window (64 KiB) and
 * than every refill size, so that in refill mode it always spans a refill; then an error
 * after it, whose line and column count every line break inside it. */
CTG_TEST(lexer, skip_quick_scan_across_refills)
{
    static const char item[] =
        "\n    { \"s\" : \"x]}\\\"[{\", \"n\" : [ 1.5e3, -2, true, null ] },";
    size_t n = 1700, len = 0, cap = 16 + n * (sizeof(item) - 1) + 64;
    char *doc = malloc(cap), want[128];

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    len += (size_t)snprintf(doc + len, cap - len, "{\"a\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(doc + len, cap - len, "%s", item);
    len += (size_t)snprintf(doc + len, cap - len, "\n 0],\n  \"b\" : nul }");
    CU_ASSERT(len > 64 * 1024 + 4096);
    snprintf(want, sizeof want,
             "error(-4)@%zu:%zu:12: invalid literal, expected 'null', got ' '", len - 2, n + 3);
    assert_end(doc, NULL, want);
    free(doc);
}

/* ctg_lexer_member's result, case by case: the hint matched in place, a key that is not the
 * hint, a value read with its key or left for the next call, the closing brace, an error. */
CTG_TEST(lexer, member_result)
{
    static const char doc[] = "{\"id\":\"x\",\"type\" : 1,\"k\"\n:\"v\",\"a~\":\"w\",}";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_lex_member m;
    ctg_lexer lx;
    ctg_token val;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    memset(&m, 0xFF, sizeof m);
    CU_ASSERT_EQUAL(ctg_lexer_member(&lx, "id", 2, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.hinted && m.value_ready);
    CU_ASSERT_EQUAL(m.key.type, CTG_TOK_KEY);
    CU_ASSERT(m.key.len == 2 && memcmp(m.key.str, "id", 2) == 0);
    CU_ASSERT(val.type == CTG_TOK_STRING && val.len == 1 && val.str[0] == 'x');
    /* Not the hint; the number is the next call's. */
    memset(&m, 0xFF, sizeof m);
    CU_ASSERT_EQUAL(ctg_lexer_member(&lx, "id", 2, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(!m.hinted && !m.value_ready);
    CU_ASSERT(m.key.len == 4 && memcmp(m.key.str, "type", 4) == 0);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_NUMBER);
    /* The hint, but its colon on the next line: the general path, no hint reported. */
    memset(&m, 0xFF, sizeof m);
    CU_ASSERT_EQUAL(ctg_lexer_member(&lx, "k", 1, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(!m.hinted && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_STRING);
    /* A hint that is a prefix of the key does not match. */
    memset(&m, 0xFF, sizeof m);
    CU_ASSERT_EQUAL(ctg_lexer_member(&lx, "a", 1, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(!m.hinted && m.value_ready);
    CU_ASSERT(m.key.len == 2 && memcmp(m.key.str, "a~", 2) == 0);
    /* A trailing comma: an error, with no key. */
    CU_ASSERT_EQUAL(ctg_lexer_member(&lx, NULL, 0, &m, &val, &err), CTG_ESYNTAX);
    ctg_lexer_dispose(&lx);
    /* The closing brace: CTG_LEX_OTHER, the token in val. */
    src.data = "{ }";
    src.len = 3;
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_member(&lx, "id", 2, &m, &val, &err), CTG_LEX_OTHER);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_OBJECT_END);
    ctg_lexer_dispose(&lx);
}

/* The member path with `opens` (the reader's) opens an array or object value on the key's
 * line with the key, as the next call would: the bracket's token in val, the lexer inside the
 * container. */
CTG_TEST(lexer, member_opens_containers)
{
    static const char doc[] = "{\"a\" : [ 1 ], \"b\" : {\"c\" : 2}, \"d\" :\n[]}";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_lex_member m;
    ctg_lexer lx;
    ctg_token val;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(opening_member(&lx, "a", 1, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.hinted && m.value_ready);
    CU_ASSERT(val.type == CTG_TOK_ARRAY_BEGIN && val.offset == 7 && val.line == 1);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_NUMBER && val.number == 1 && val.offset == 9);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_ARRAY_END);
    CU_ASSERT_EQUAL(opening_member(&lx, "x", 1, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(!m.hinted && m.value_ready && m.key.offset == 14);
    CU_ASSERT(val.type == CTG_TOK_OBJECT_BEGIN && val.offset == 20);
    CU_ASSERT_EQUAL(opening_member(&lx, NULL, 0, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 1 && m.key.str[0] == 'c' && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(opening_member(&lx, NULL, 0, &m, &val, &err), CTG_LEX_OTHER);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_OBJECT_END);
    /* A bracket on the next line is the next call's, which counts the line. */
    CU_ASSERT_EQUAL(opening_member(&lx, "d", 1, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.hinted && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_ARRAY_BEGIN && val.line == 2 && val.offset == 37);
    ctg_lexer_dispose(&lx);
}

/* A bracket the member path cannot take is left to the next call, which fails or grows the
 * container stack as ctg_lexer_next alone would: the depth limit, then the stack's first
 * 64 levels (the next call grows it; the member path takes the levels after). The k-th
 * object opens at offset 5k of {"a":{"a":...}}. */
CTG_TEST(lexer, member_bracket_limits)
{
    enum { LEVELS = 100 };
    char doc[5 * LEVELS + LEVELS + 1], *p = doc;
    ctg_lex_limits lim = { 3, 0, 0 };
    ctg_lex_source src;
    ctg_lex_member m;
    ctg_lexer lx;
    ctg_token val;
    ctg_error err;
    unsigned waited = 0;

    *p++ = '{';
    for (int k = 1; k < LEVELS; k++)
        p += sprintf(p, "\"a\":{");
    memset(p, '}', LEVELS);
    src = (ctg_lex_source){ doc, (size_t)(p - doc) + LEVELS, NULL, NULL };
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, &lim, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    for (int k = 1; k < 3; k++) {
        CU_ASSERT_EQUAL(opening_member(&lx, "a", 1, &m, &val, &err), CTG_LEX_KEY);
        CU_ASSERT(m.value_ready && val.offset == (size_t)(5 * k));
    }
    CU_ASSERT_EQUAL(opening_member(&lx, "a", 1, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT_FALSE(m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "nesting deeper than 3 levels");
    CU_ASSERT_EQUAL(err.offset, 15);
    ctg_lexer_dispose(&lx);
    lim.max_depth = LEVELS;
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, &lim, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    for (int k = 1; k < LEVELS; k++) {
        CU_ASSERT_EQUAL_FATAL(opening_member(&lx, "a", 1, &m, &val, &err), CTG_LEX_KEY);
        if (!m.value_ready) {
            CU_ASSERT_EQUAL(k, 64);
            waited++;
            CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
        }
        CU_ASSERT(val.type == CTG_TOK_OBJECT_BEGIN && val.offset == (size_t)(5 * k));
    }
    CU_ASSERT_EQUAL(waited, 1);
    CU_ASSERT_EQUAL(lx.depth, LEVELS);
    ctg_lexer_dispose(&lx);
}

/* ctg_lexer_member_sifted, case by case: the members its sieve passes over (by length and first
 * letter, up to max_len) are skipped whatever their value, the others returned, with a boolean
 * or a short non-negative integer read with its key. */
CTG_TEST(lexer, member_sifted)
{
    static const char doc[] =
        "{\"p\" : 1.5, \"kind\" : \"A\", \"x\" : {\"k\" : [1, {}]}, \"k\" : 12, "
        "\"q\" :\n -3e2, \"k\" : true, \"r\" : null, \"k\" : false, \"k\" : -1,"
        " \"rr\" : 7, \"k\" : 1234567890123456, \"k\" : \"s\", \"zzz\" : 0}";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_key_sieve sv;
    ctg_lex_member m;
    ctg_lexer lx;
    ctg_token val;
    ctg_error err;

    memset(&sv, 0, sizeof sv);
    sv.keep[1] = 1u << ('k' - 'a'); /* "k" is kept, "p", "q", "x", "r" are not */
    sv.keep[3] = 1u << ('z' - 'a'); /* "zzz" is kept */
    sv.max_len = 1;                 /* "kind", "rr" and "zzz" are too long to be passed over */
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, "p", 1, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 4 && memcmp(m.key.str, "kind", 4) == 0 && m.value_ready);
    CU_ASSERT(val.type == CTG_TOK_STRING && val.len == 1 && val.offset == 21);
    /* "x" and its object skipped: a short integer comes with its key. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 1 && m.key.str[0] == 'k' && m.key.offset == 49 && m.value_ready);
    CU_ASSERT(val.type == CTG_TOK_NUMBER && val.number == 12 && val.is_integer);
    CU_ASSERT(val.raw_len == 2 && memcmp(val.raw, "12", 2) == 0 && val.offset == 55);
    /* "q", its value on the next line, skipped: the line is counted. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.value_ready && val.type == CTG_TOK_TRUE && val.line == 2 && m.key.line == 2);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.value_ready && val.type == CTG_TOK_FALSE);
    /* A negative number is the next call's. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(!m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_NUMBER && val.number == -1);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 2 && m.value_ready && val.number == 7);
    /* 16 digits: beyond small_integer, the next call's too. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(!m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_NUMBER && val.raw_len == 16);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.value_ready && val.type == CTG_TOK_STRING);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 3 && m.value_ready && val.type == CTG_TOK_NUMBER && val.number == 0);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_OTHER);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_OBJECT_END);
    ctg_lexer_dispose(&lx);
    /* An error in a skipped value: ctg_lexer_skip_next's, at the same byte. */
    src.data = "{\"p\" : 1.}";
    src.len = strlen(src.data);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 9);
    CU_ASSERT_STRING_EQUAL(err.message, "expected a digit after '.' in number");
    ctg_lexer_dispose(&lx);
}

/* With scalars_only, a member the sieve would pass over is passed over only when its value is a
 * plain string or a number the fast path takes, on the key's line; any other comes back as a
 * kept member does (its value the next call's, or with it when it is a boolean). */
CTG_TEST(lexer, member_sifted_scalars_only)
{
    static const char doc[] = "{\"p\" : 1.5, \"q\" : \"s\", \"r\" : true, \"x\" : [1], \"p\" : -7,"
                              " \"y\" : {\"a\" : 1}, \"z\" : \"a\\nb\", \"n\" : null, \"q\" :\n 2,"
                              " \"k\" : 3}";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_key_sieve sv;
    ctg_lex_member m;
    ctg_lexer lx;
    ctg_token val;
    ctg_error err;

    memset(&sv, 0, sizeof sv);
    sv.keep[1] = 1u << ('k' - 'a'); /* only "k" is kept */
    sv.max_len = 1;
    sv.scalars_only = true;
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    /* "p" and "q" passed over; "r" comes back with its boolean. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 1 && m.key.str[0] == 'r' && m.value_ready);
    CU_ASSERT(val.type == CTG_TOK_TRUE && val.offset == 29);
    /* "x": its array the next call's, at its '['. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.str[0] == 'x' && m.key.offset == 35 && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_ARRAY_BEGIN && val.offset == 41);
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &val, &err), CTG_OK);
    /* "p" : -7 passed over; "y" and its object, "z" and its escape, "n" and null come back. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.str[0] == 'y' && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_OBJECT_BEGIN);
    CU_ASSERT_EQUAL(ctg_lexer_skip_value(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.str[0] == 'z' && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_STRING && val.len == 3 && memcmp(val.str, "a\nb", 3) == 0);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.str[0] == 'n' && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_NULL);
    /* "q", its number on the next line: not on the key's line, so it comes back. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.str[0] == 'q' && m.key.line == 1 && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_NUMBER && val.number == 2 && val.line == 2);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.str[0] == 'k' && m.value_ready && val.number == 3);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_OTHER);
    CU_ASSERT_EQUAL(val.type, CTG_TOK_OBJECT_END);
    ctg_lexer_dispose(&lx);
}

/* The sieve's plain key: passed over when its value is a plain string on its line, returned
 * with any other value (an escape, a number, a string on the next line), and only when it is
 * exactly that key within max_len. */
CTG_TEST(lexer, member_sifted_plain_key)
{
    static const char doc[] = "{\"name\" : \"a b\", \"name\" : \"a\\u0000\", \"name\" : 5, "
                              "\"name\" :\n \"c\", \"names\" : \"d\", \"k\" : \"e\"}";
    ctg_lex_source src = { doc, sizeof(doc) - 1, NULL, NULL };
    ctg_key_sieve sv;
    ctg_lex_member m;
    ctg_lexer lx;
    ctg_token val;
    ctg_error err;

    memset(&sv, 0, sizeof sv);
    for (size_t i = 0; i < sizeof(sv.keep) / sizeof(sv.keep[0]); i++)
        sv.keep[i] = ~0u; /* every key kept but the plain one */
    sv.max_len = 8;
    sv.plain = "name";
    sv.plain_len = 4;
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    /* The first "name" passed over; the escaped one returned, its value the next call's. */
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 4 && m.key.offset == 17 && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_STRING && val.has_nul);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 4 && m.value_ready && val.type == CTG_TOK_NUMBER && val.number == 5);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 4 && m.key.line == 1 && !m.value_ready);
    CU_ASSERT_EQUAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT(val.type == CTG_TOK_STRING && val.line == 2 && val.len == 1);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 5 && m.value_ready && val.str[0] == 'd');
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 1 && m.value_ready && val.str[0] == 'e');
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_OTHER);
    ctg_lexer_dispose(&lx);
    /* Longer than max_len: returned, as the caller reports such a name. */
    sv.max_len = 3;
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, &val, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_lexer_member_sifted(&lx, NULL, 0, &sv, &m, &val, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.len == 4 && m.key.offset == 1 && m.value_ready && val.len == 3);
    ctg_lexer_dispose(&lx);
}

/* One call of ctg_lexer_member_sifted after the '{' of `doc`, with the sieve of member_sifted
 * ("k" kept, every other one-letter key passed over); then the token after, in *next. */
static int sift_once(const char *doc, ctg_lex_member *m, ctg_token *val, ctg_token *next,
                     ctg_error *err)
{
    ctg_lex_source src = { doc, strlen(doc), NULL, NULL };
    ctg_key_sieve sv;
    ctg_lexer lx;
    int rc;

    memset(&sv, 0, sizeof sv);
    sv.keep[1] = 1u << ('k' - 'a');
    sv.max_len = 1;
    memset(next, 0, sizeof *next);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_init(&lx, &src, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_lexer_next(&lx, val, err), CTG_OK);
    rc = ctg_lexer_member_sifted(&lx, NULL, 0, &sv, m, val, err);
    if (rc == CTG_LEX_KEY && ctg_lexer_next(&lx, next, err) != CTG_OK)
        next->type = CTG_TOK_EOF; /* marks the error, in *err */
    ctg_lexer_dispose(&lx);
    return rc;
}

/* The edges of the sieve's fast paths: a kept key whose value only starts like a boolean, or
 * ends the input, is the next call's; a passed-over value that is negative, escaped, broken or
 * missing is skipped, or fails, as ctg_lexer_skip_next would. */
CTG_TEST(lexer, member_sifted_edges)
{
    /* A kept key whose value the next call fails on: where, and why. */
    static const struct {
        const char *doc;
        size_t offset;
        const char *message;
    } kept_bad[] = {
        { "{\"k\" : tru}", 10, "invalid literal, expected 'true', got '}'" },
        { "{\"k\" : fals}", 11, "invalid literal, expected 'false', got '}'" },
        { "{\"k\" : t", 8, "invalid literal, expected 'true', got end of input" },
        { "{\"k\" : ", 7, "expected a value after ':', got end of input" },
    };
    ctg_lex_member m;
    ctg_token val, next;
    ctg_error err;

    for (size_t i = 0; i < sizeof kept_bad / sizeof *kept_bad; i++) {
        CU_ASSERT_EQUAL(sift_once(kept_bad[i].doc, &m, &val, &next, &err), CTG_LEX_KEY);
        CU_ASSERT(!m.value_ready && next.type == CTG_TOK_EOF);
        CU_ASSERT_EQUAL(err.offset, kept_bad[i].offset);
        CU_ASSERT_STRING_EQUAL(err.message, kept_bad[i].message);
    }
    CU_ASSERT_EQUAL(sift_once("{\"p\" : -3, \"k\" : 1}", &m, &val, &next, &err), CTG_LEX_KEY);
    CU_ASSERT(m.key.offset == 11 && m.value_ready && val.number == 1);
    CU_ASSERT_EQUAL(next.type, CTG_TOK_OBJECT_END);
    CU_ASSERT_EQUAL(sift_once("{\"p\" : \"a\\nb\", \"k\" : 2}", &m, &val, &next, &err),
                    CTG_LEX_KEY);
    CU_ASSERT(m.key.offset == 15 && m.value_ready && val.number == 2);
    CU_ASSERT_EQUAL(sift_once("{\"p\" : tru}", &m, &val, &next, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 10);
    CU_ASSERT_STRING_EQUAL(err.message, "invalid literal, expected 'true', got '}'");
    CU_ASSERT_EQUAL(sift_once("{\"p\" : ", &m, &val, &next, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, 7);
    CU_ASSERT_STRING_EQUAL(err.message, "expected a value after ':', got end of input");
}

#include "test_lexer.tests.h"
