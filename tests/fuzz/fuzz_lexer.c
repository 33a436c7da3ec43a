/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: raw bytes into the pull lexer.
 *
 * The first byte is a control byte: its low 7 bits modulo 65 pick the refill size (1-64, or 0
 * for the whole rest in one refill), its high bit tight limits (depth 4, strings of 16 bytes,
 * documents of 512 bytes). The rest is lexed twice, in memory mode and through the refill
 * callback, and both runs must give the same tokens and the same end (EOF, or the same error at
 * the same place): that is the lexer's promise. Every token is checked on its own too: strings
 * are valid UTF-8, numbers parse to the value strtod gives in the C locale (whatever the
 * process's locale: the replay runs under de_DE.UTF-8 too), positions move
 * forward. After a key starting with 's' the value is skipped with ctg_lexer_skip_value, so
 * that path is fuzzed as well. Two more runs (in memory and through refills) take the tokens
 * through the reader's hot-path calls, ctg_lexer_member (with a rotating key hint; every other
 * time the reader's inline copy, which opens containers too) and ctg_lexer_item, in turn with
 * ctg_lexer_next: they must give the very same tokens and end. */

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/lexer.h"
#include "json/lexer_fast.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a run saw of one token, enough to compare two runs. */
typedef struct seen {
    ctg_tok type;
    size_t offset, line_start, len, raw_len;
    unsigned line;
    uint64_t str_hash, number_bits;
    bool has_nul, is_integer;
} seen;

typedef struct run {
    seen *toks;
    size_t count, cap;
    int status;
    ctg_error err;
    size_t end_offset; /* ctg_lexer_offset at the end: what a failed read reports as consumed */
} run;

typedef struct chunker {
    const uint8_t *data;
    size_t len, pos, chunk;
} chunker;

static int refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    chunker *c = ctx;
    size_t n = c->len - c->pos;

    (void)err;
    if (n > c->chunk)
        n = c->chunk;
    if (n > cap)
        n = cap;
    if (n > 0)
        memcpy(dst, c->data + c->pos, n);
    c->pos += n;
    *got = n;
    return CTG_OK;
}

static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;

    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The number checks: the token's value is what the grammar check, the locale-independent parse,
 * the C library's strtod in the C locale and the int64 parse agree on. */
static void check_number(const ctg_token *t)
{
    char text[4200];
    bool is_int = false;
    size_t bad = 0;
    const char *why = NULL;
    double d = 0;
    int64_t i64 = 0;

    if (!isfinite(t->number))
        ctg_fuzz_fail("number token with a non-finite value");
    if (!ctg_number_check(t->raw, t->raw_len, &is_int, &bad, &why) || is_int != t->is_integer)
        ctg_fuzz_fail("number token that ctg_number_check rejects (%s)", why ? why : "");
    if (!ctg_parse_double(t->raw, t->raw_len, &d) || memcmp(&d, &t->number, sizeof d) != 0)
        ctg_fuzz_fail("ctg_parse_double disagrees with the token");
    if (t->raw_len < sizeof text) {
        static locale_t c_locale;
        locale_t old;

        if (c_locale == (locale_t)0 &&
            (c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0)) == (locale_t)0)
            ctg_fuzz_fail("newlocale failed");
        memcpy(text, t->raw, t->raw_len);
        text[t->raw_len] = '\0';
        old = uselocale(c_locale);
        d = strtod(text, NULL);
        uselocale(old);
        if (memcmp(&d, &t->number, sizeof d) != 0)
            ctg_fuzz_fail("%s: strtod gives %.17g, ctg %.17g", text, d, t->number);
    }
    if (t->is_integer && ctg_parse_int64(t->raw, t->raw_len, &i64) && (double)i64 != t->number)
        ctg_fuzz_fail("ctg_parse_int64 gives %lld for %.17g", (long long)i64, t->number);
    if (!t->is_integer && ctg_parse_int64(t->raw, t->raw_len, &i64))
        ctg_fuzz_fail("ctg_parse_int64 accepts a number with a fraction or exponent");
}

static void check_token(const ctg_token *t, size_t len, size_t prev_offset)
{
    if (t->offset > len || t->line == 0 || t->line_start > t->offset || t->offset < prev_offset)
        ctg_fuzz_fail("token at offset %zu (previous %zu), line %u, line start %zu of %zu",
                      t->offset, prev_offset, t->line, t->line_start, len);
    if (t->type == CTG_TOK_KEY || t->type == CTG_TOK_STRING) {
        if (!ctg_fuzz_utf8_valid(t->str, t->len))
            ctg_fuzz_fail("decoded string at %zu is not valid UTF-8", t->offset);
        if (t->has_nul != (t->len > 0 && memchr(t->str, '\0', t->len) != NULL))
            ctg_fuzz_fail("has_nul wrong for the string at %zu", t->offset);
    } else if (t->type == CTG_TOK_NUMBER) {
        check_number(t);
    }
}

static void record(run *r, const ctg_token *t)
{
    seen s;

    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 256;
        seen *p = realloc(r->toks, cap * sizeof *p);
        if (p == NULL)
            ctg_fuzz_fail("out of memory in the fuzz target");
        r->toks = p;
        r->cap = cap;
    }
    memset(&s, 0, sizeof s);
    s.type = t->type;
    s.offset = t->offset;
    s.line_start = t->line_start;
    s.line = t->line;
    if (t->type == CTG_TOK_KEY || t->type == CTG_TOK_STRING) {
        s.len = t->len;
        s.str_hash = hash(t->str, t->len);
        s.has_nul = t->has_nul;
    } else if (t->type == CTG_TOK_NUMBER) {
        s.raw_len = t->raw_len;
        s.str_hash = hash(t->raw, t->raw_len);
        memcpy(&s.number_bits, &t->number, sizeof s.number_bits);
        s.is_integer = t->is_integer;
    }
    r->toks[r->count++] = s;
}

/* One token through the plain call, or (fast runs) through the reader's hot-path calls in
 * turn, which must give the same tokens: a key read with its value leaves that value in
 * *pending, for the next pull. Returns a status. */
static int next_token(ctg_lexer *lx, ctg_token *t, ctg_token *pending, bool *has_pending,
                      unsigned *turn, bool fast, ctg_error *err)
{
    static const char *const hints[] = { "id", "type", NULL, "a", "elements", "" };
    const char *hint;
    ctg_lex_member m;
    int n;

    if (*has_pending) {
        *t = *pending;
        *has_pending = false;
        return CTG_OK;
    }
    if (!fast || *turn % 3 == 0)
        return ++*turn, ctg_lexer_next(lx, t, err);
    if ((*turn)++ % 3 == 1)
        return ctg_lexer_item(lx, t, err);
    memset(&m, 0, sizeof m);
    hint = hints[*turn % (sizeof hints / sizeof hints[0])];
    /* Every other member turn, the reader's own inline copy, which also opens containers. */
    if ((*turn / 3) % 2)
        n = ctg_lexer_member_inline(lx, hint, hint ? strlen(hint) : 0, NULL, true, &m, pending,
                                    err);
    else
        n = ctg_lexer_member(lx, hint, hint ? strlen(hint) : 0, &m, pending, err);
    if (n < 0)
        return n;
    if (n == CTG_LEX_OTHER) {
        *t = *pending;
        return CTG_OK;
    }
    if (n != CTG_LEX_KEY || m.key.type != CTG_TOK_KEY)
        ctg_fuzz_fail("ctg_lexer_member returned %d with a token that is not a key", n);
    if (m.hinted && (m.key.len != strlen(hint) || memcmp(m.key.str, hint, m.key.len) != 0))
        ctg_fuzz_fail("ctg_lexer_member matched a key that is not its hint");
    *t = m.key;
    *has_pending = m.value_ready;
    return CTG_OK;
}

/* Pulls tokens to the end; after a key starting with 's', skips its value. */
static void pull(ctg_lexer *lx, run *r, size_t len, bool fast)
{
    ctg_token t, again, pending;
    bool skip_next = false, has_pending = false;
    unsigned turn = 0;
    size_t prev = 0;

    for (;;) {
        memset(&t, 0, sizeof t);
        r->status = next_token(lx, &t, &pending, &has_pending, &turn, fast, &r->err);
        if (r->status == CTG_OK && skip_next)
            r->status = ctg_lexer_skip_value(lx, &t, &r->err);
        if (r->status != CTG_OK)
            break;
        check_token(&t, len, prev);
        prev = t.offset;
        record(r, &t);
        if (t.type == CTG_TOK_EOF)
            break;
        skip_next = t.type == CTG_TOK_KEY && t.len > 0 && t.str[0] == 's';
    }
    /* After the end, the same result repeats. */
    ctg_error err2;
    int again_rc = ctg_lexer_next(lx, &again, &err2);
    if (again_rc != r->status || (r->status == CTG_OK && again.type != CTG_TOK_EOF) ||
        (r->status != CTG_OK && err2.offset != r->err.offset))
        ctg_fuzz_fail("the end does not repeat: %d then %d", r->status, again_rc);
}

static void lex(const uint8_t *data, size_t len, size_t chunk, const ctg_lex_limits *lim,
                bool fast, run *r)
{
    chunker c = { data, len, 0, chunk };
    ctg_lex_source src = { (const char *)data, len, chunk ? refill : NULL, &c };
    ctg_lexer lx;

    memset(r, 0, sizeof *r);
    if (ctg_lexer_init(&lx, &src, lim, NULL) != CTG_OK)
        ctg_fuzz_fail("ctg_lexer_init failed");
    pull(&lx, r, len, fast);
    r->end_offset = ctg_lexer_offset(&lx);
    if (ctg_lexer_offset(&lx) > len)
        ctg_fuzz_fail("offset %zu past the input (%zu)", ctg_lexer_offset(&lx), len);
    ctg_lexer_dispose(&lx);
    if (r->status != CTG_OK && r->status != CTG_ESYNTAX && r->status != CTG_ELIMIT)
        ctg_fuzz_fail("lexer status %d", r->status);
    if (r->status != CTG_OK && (r->err.code != r->status || r->err.offset > len ||
                                r->err.line == 0 || r->err.column == 0 ||
                                r->err.message[0] == '\0'))
        ctg_fuzz_fail("error %d at %zu:%u:%u", (int)r->err.code, r->err.offset, r->err.line,
                      r->err.column);
}

static void compare(const run *m, const run *c, size_t chunk)
{
    if (m->count != c->count || m->status != c->status)
        ctg_fuzz_fail("refill %zu: %zu tokens, status %d; memory: %zu tokens, status %d",
                      chunk, c->count, c->status, m->count, m->status);
    for (size_t i = 0; i < m->count; i++) {
        if (memcmp(&m->toks[i], &c->toks[i], sizeof m->toks[i]) != 0)
            ctg_fuzz_fail("refill %zu: token %zu (at %zu) differs from memory mode (at %zu)",
                          chunk, i, c->toks[i].offset, m->toks[i].offset);
    }
    if (m->status != CTG_OK &&
        (m->err.offset != c->err.offset || m->err.line != c->err.line ||
         m->err.column != c->err.column || strcmp(m->err.message, c->err.message) != 0))
        ctg_fuzz_fail("refill %zu: error %zu:%u:%u \"%s\"; memory: %zu:%u:%u \"%s\"", chunk,
                      c->err.offset, c->err.line, c->err.column, c->err.message, m->err.offset,
                      m->err.line, m->err.column, m->err.message);
}

static void same_end(const run *plain, const run *fast, size_t chunk)
{
    if (plain->end_offset != fast->end_offset)
        ctg_fuzz_fail("refill %zu: the hot-path calls end at offset %zu, ctg_lexer_next at %zu",
                      chunk, fast->end_offset, plain->end_offset);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ctg_lex_limits tight = { 4, 16, 512 };
    run mem, chunked, fast;
    size_t chunk;
    const ctg_lex_limits *lim;

    if (size == 0)
        return 0;
    chunk = (size_t)(data[0] & 0x7f) % 65;
    lim = (data[0] & 0x80) ? &tight : NULL;
    data++;
    size--;
    if (chunk == 0)
        chunk = size > 0 ? size : 1;
    lex(data, size, 0, lim, false, &mem);
    lex(data, size, chunk, lim, false, &chunked);
    compare(&mem, &chunked, chunk);
    /* The hot-path calls, in the same mode: the same tokens, end and final offset. */
    lex(data, size, 0, lim, true, &fast);
    compare(&mem, &fast, 0);
    same_end(&mem, &fast, 0);
    free(fast.toks);
    lex(data, size, chunk, lim, true, &fast);
    compare(&chunked, &fast, chunk);
    same_end(&chunked, &fast, chunk);
    free(mem.toks);
    free(chunked.toks);
    free(fast.toks);
    return 0;
}
