/* SPDX-License-Identifier: MPL-2.0 */
/* The strict pull lexer: whitespace, tokens and the whole JSON grammar in one pass.
 *
 * The hot path (memory mode, pretty-printed ASCII) is: skip a whitespace run, dispatch on one
 * byte, and for a string scan to the first byte that needs attention. Everything else (escapes,
 * UTF-8, refills, errors) sits in functions off that path. A token is always scanned from one
 * contiguous window: in refill mode the window slides, and grows when one token fills it. */

#include "json/lexer.h"
#include "json/lexer_fast.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ctg/io.h"
#include "base/alloc.h"
#include "base/error_set.h"
#include "base/utf8.h"

#define DEFAULT_MAX_STRING ((size_t)64 * 1024 * 1024)

/* SQLite's convention for a condition that no input can make true: release builds keep the
 * check, debug builds assert it, and the coverage build drops it, as no test can reach it. */
#if defined(CTG_COVERAGE_BUILD)
#define NEVER(x) ((void)(x), 0)
#elif !defined(NDEBUG)
#define NEVER(x) ((x) ? (assert(!(x)), 1) : 0)
#else
#define NEVER(x) (x)
#endif

static void set_origin(ctg_lexer *lx)
{
    lx->origin = (uintptr_t)lx->base - (uintptr_t)lx->win;
}

static size_t sat_add(size_t a, size_t b)
{
    size_t r;

    return ctg_size_add(a, b, &r) ? r : SIZE_MAX;
}

/* ---- errors ---------------------------------------------------------------------------- */

static int vfail_at(ctg_lexer *lx, int code, size_t offset, const char *fmt, va_list ap)
{
    ctg_error_place at = { offset, lx->line, ctg_column(offset, lx->line_start) };

    /* No fmt: a read callback's message, already in place. */
    ctg_error_vset(&lx->err, code, &at, "", fmt, ap);
    ctg_error_set_source(&lx->err, "");
    lx->status = code;
    lx->state = S_FAILED;
    return code;
}

static int fail_at(ctg_lexer *lx, int code, size_t offset, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = vfail_at(lx, code, offset, fmt, ap);
    va_end(ap);
    return rc;
}

/* An error at byte `at` of the window. */
static int fail(ctg_lexer *lx, int code, const char *at, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = vfail_at(lx, code, pos(lx, at), fmt, ap);
    va_end(ap);
    return rc;
}

/* "'x'", "byte 0x01" or "end of input" (at == lx->end only once the input has ended). */
static const char *describe(const ctg_lexer *lx, const char *at, char *buf, size_t size)
{
    unsigned char c;

    if (at == lx->end)
        return "end of input";
    c = (unsigned char)*at;
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", c);
    return buf;
}

COLD static int unexpected(ctg_lexer *lx, const char *at, int st)
{
    const char *what;
    char buf[16];

    switch (st) {
    case S_ROOT: what = "expected a value"; break;
    case S_AFTER_COLON: what = "expected a value after ':'"; break;
    case S_ARRAY_NEXT: what = "expected a value after ','"; break;
    case S_ARRAY_FIRST: what = "expected a value or ']'"; break;
    case S_OBJECT_FIRST: what = "expected a string key or '}'"; break;
    case S_OBJECT_NEXT: what = "expected a string key after ','"; break;
    case S_ARRAY_AFTER: what = "expected ',' or ']' after array element"; break;
    case S_OBJECT_AFTER: what = "expected ',' or '}' after object member"; break;
    default: return fail(lx, CTG_ESYNTAX, at, "trailing content after the root value");
    }
    return fail(lx, CTG_ESYNTAX, at, "%s, got %s", what, describe(lx, at, buf, sizeof(buf)));
}

COLD static int string_too_long(ctg_lexer *lx, const char *quote)
{
    return fail(lx, CTG_ELIMIT, quote, "string longer than %zu bytes", lx->lim.max_string_len);
}

/* ---- the window ------------------------------------------------------------------------ */

/* Ends the window at max_document_size. Returns false when that leaves no new byte. */
static bool clip(ctg_lexer *lx, const char *old_end)
{
    size_t limit = lx->lim.max_document_size;

    if (pos(lx, lx->end) > limit) {
        lx->end = lx->win + (limit - lx->base);
        lx->over = true;
    }
    return lx->end != old_end;
}

/* Moves the bytes from `tok` on to the start of the buffer. */
static void slide(ctg_lexer *lx)
{
    size_t shift = (size_t)(lx->tok - lx->buf);

    if (shift == 0)
        return;
    memmove(lx->buf, lx->tok, (size_t)(lx->end - lx->tok));
    lx->base += shift;
    set_origin(lx);
    lx->cur -= shift;
    lx->tok -= shift;
    lx->end -= shift;
}

/* A full buffer holding one token grows, up to `limit` bytes. Every caller checks its token
 * against its own bound before asking for more bytes, with a `limit` one byte above that bound,
 * so the buffer can always grow: the check below is defensive (see NEVER). */
static int grow(ctg_lexer *lx, size_t limit)
{
    size_t cap = lx->cap;
    char *p;
    bool fits = ctg_grow_capacity(lx->cap, sat_add(lx->cap, 1), CTG_LEX_BUFFER_SIZE, limit, &cap);

    if (NEVER(!fits))
        return fail(lx, CTG_ELIMIT, lx->tok, "token longer than %zu bytes", limit);
    p = ctg_mem_resize(lx->alloc, lx->buf, lx->cap, cap);
    if (p == NULL)
        return fail(lx, CTG_ENOMEM, lx->tok, "out of memory");
    lx->cur = p + (lx->cur - lx->buf);
    lx->end = p + (lx->end - lx->buf);
    lx->tok = p;
    lx->win = p;
    set_origin(lx);
    lx->buf = p;
    lx->cap = cap;
    return CTG_OK;
}

static int read_more(ctg_lexer *lx)
{
    size_t room = lx->cap - (size_t)(lx->end - lx->buf), got = 0;
    const char *old_end = lx->end;
    int rc;

    lx->err.message[0] = '\0';
    rc = lx->src.refill(lx->src.ctx, lx->buf + (lx->end - lx->buf), room, &got, &lx->err);
    if (rc != CTG_OK || got > room) {
        const char *why = rc == CTG_OK                ? "read callback overran its buffer"
                          : lx->err.message[0] == '\0' ? "read error"
                                                       : NULL;
        return fail_at(lx, rc == CTG_OK ? CTG_EIO : rc, pos(lx, lx->end), why);
    }
    if (got == 0) {
        lx->eof = true;
        return 0;
    }
    lx->end += got;
    if (!clip(lx, old_end))
        return fail(lx, CTG_ELIMIT, lx->end, "document larger than %zu bytes",
                    lx->lim.max_document_size);
    return 1;
}

/* Makes bytes past `end` available, keeping those from `tok` on (their address may change:
 * callers hold offsets from `tok`, not pointers). `limit` bounds the token being kept.
 * Returns 1 when bytes were added, 0 at the end of the input, or a negative status. */
static int more(ctg_lexer *lx, size_t limit)
{
    int rc;

    if (lx->over)
        return fail(lx, CTG_ELIMIT, lx->end, "document larger than %zu bytes",
                    lx->lim.max_document_size);
    if (lx->eof)
        return 0;
    slide(lx);
    if (lx->end == lx->buf + lx->cap && (rc = grow(lx, limit)) != CTG_OK)
        return rc;
    return read_more(lx);
}

/* ---- strings --------------------------------------------------------------------------- */

static int scratch_reserve(ctg_lexer *lx, size_t need)
{
    size_t cap;
    char *p;

    if (need <= lx->scratch_cap)
        return CTG_OK;
    if (!ctg_grow_capacity(lx->scratch_cap, need, 256, SIZE_MAX, &cap)
        || (p = ctg_mem_resize(lx->alloc, lx->scratch, lx->scratch_cap, cap)) == NULL)
        return fail(lx, CTG_ENOMEM, lx->tok, "out of memory");
    lx->scratch = p;
    lx->scratch_cap = cap;
    return CTG_OK;
}

static int end_in_string(ctg_lexer *lx)
{
    return fail(lx, CTG_ESYNTAX, lx->end, "unexpected end of input in string");
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Longest raw text (quotes included) a string within max_string_len can have: an escape
 * spends at most 6 bytes per decoded byte. */
static size_t raw_string_max(const ctg_lexer *lx)
{
    size_t n;

    return ctg_size_mul(lx->lim.max_string_len, 6, &n) ? sat_add(n, 2) : SIZE_MAX;
}

/* Phase 1 of a string that needs attention: finds where it stops, from `i` bytes after its
 * opening quote (lx->tok). It stops at the closing quote, at a raw control character (an
 * error whatever follows), or at the end of the input (*at_eof).
 * The decoded length is bounded below as it goes: an escape counts as one byte (its hex digits
 * as none), anything else as itself. That bound only grows along the string, and it is checked
 * at the stop as at every window's end, so where the windows end cannot change the outcome. */
static int string_stop(ctg_lexer *lx, size_t i, size_t *stop, bool *at_eof)
{
    size_t raw_max = raw_string_max(lx), shrink = 0;
    bool too_long;
    int rc;

    for (;;) {
        const char *p = lx->tok + i, *end = lx->end;
        while ((p = scan_plain(p, end)) < end) {
            unsigned char c = (unsigned char)*p;
            size_t hex = 0;
            if (c == '"' || c < 0x20 || (c == '\\' && end - p < 2))
                break; /* a stop, or the escaped byte is in the next window */
            while (c == '\\' && p[1] == 'u' && hex < 4 && p + 2 + hex < end
                   && hex_value(p[2 + hex]) >= 0)
                hex++;
            if (hex < 4 && c == '\\' && p[1] == 'u' && p + 2 + hex == end)
                break; /* its hex digits go on in the next window */
            shrink += c != '\\' ? 0 : 1 + hex;
            p += c == '\\' ? 2 + hex : 1;
        }
        i = (size_t)(p - lx->tok);
        too_long = i - 1 > sat_add(lx->lim.max_string_len, shrink);
        if (p < end && *p != '\\') {
            *stop = i;
            *at_eof = false;
            return i + 1 > raw_max || too_long ? string_too_long(lx, lx->tok) : CTG_OK;
        }
        /* Stop as soon as the decoded length must pass the limit, before buffering more. */
        if ((size_t)(end - lx->tok) > raw_max || too_long)
            return string_too_long(lx, lx->tok);
        if ((rc = more(lx, sat_add(raw_max, 1))) <= 0) {
            *stop = (size_t)(lx->end - lx->tok);
            *at_eof = true;
            return rc;
        }
    }
}

/* The four hex digits at p (bounded by e); -1 when they are not all there. */
static long hex4(const char *p, const char *e)
{
    long v = 0;

    if (e - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        int d = hex_value(p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Whether [p, e) is a proper prefix of a "\uXXXX" escape: the input ended inside it. */
static bool escape_prefix(const char *p, const char *e)
{
    for (ptrdiff_t i = 0; i < e - p; i++) {
        if (i == 0 ? p[i] != '\\' : i == 1 ? p[i] != 'u' : hex_value(p[i]) < 0)
            return false;
    }
    return e - p < 6;
}

/* Decoding state of one string's phase 2. */
typedef struct decoder {
    const char *e;  /* where the string's content stops */
    bool at_eof;    /* ... because the input ended */
    char *out;      /* scratch, once an escape was met; NULL while the text is used in place */
    size_t n;       /* bytes in out */
    bool has_nul;
} decoder;

/* A "\u" escape at p; a high surrogate must be followed by an escaped low one. */
static int unicode_escape(ctg_lexer *lx, decoder *d, const char **pp)
{
    const char *p = *pp;
    long cp = hex4(p + 2, d->e), lo;
    bool lone = cp >= 0xDC00 && cp <= 0xDFFF;

    if (cp < 0) {
        if (d->at_eof && escape_prefix(p, d->e))
            return end_in_string(lx);
        return fail(lx, CTG_ESYNTAX, p, "invalid \\u escape in string");
    }
    *pp = p + 6;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        lo = d->e - p >= 8 && p[6] == '\\' && p[7] == 'u' ? hex4(p + 8, d->e) : -1;
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            *pp = p + 12;
        } else if (d->at_eof && escape_prefix(p + 6, d->e)) {
            return end_in_string(lx);
        } else {
            lone = true;
        }
    }
    if (lone)
        return fail(lx, CTG_ESYNTAX, p, "lone surrogate \\u%04lx", cp);
    d->has_nul |= cp == 0;
    d->n += ctg_utf8_encode((uint32_t)cp, d->out + d->n);
    return CTG_OK;
}

/* The escape at *pp (a backslash; phase 1 made sure one byte follows unless at_eof). */
static int escape(ctg_lexer *lx, decoder *d, const char **pp)
{
    const char *p = *pp;
    char c;

    if (d->e - p < 2)
        return end_in_string(lx);
    switch (p[1]) {
    case '"': c = '"'; break;
    case '\\': c = '\\'; break;
    case '/': c = '/'; break;
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'n': c = '\n'; break;
    case 'r': c = '\r'; break;
    case 't': c = '\t'; break;
    case 'u': return unicode_escape(lx, d, pp);
    default:
        if ((unsigned char)p[1] >= 0x20 && (unsigned char)p[1] < 0x7f)
            return fail(lx, CTG_ESYNTAX, p, "invalid escape '\\%c' in string", p[1]);
        return fail(lx, CTG_ESYNTAX, p, "invalid escape in string");
    }
    d->out[d->n++] = c;
    *pp = p + 2;
    return CTG_OK;
}

/* Validates the UTF-8 sequence at p (lead byte >= 0x80) and sets *len. Errors point at the
 * lead byte, or at the end of the input when it ends inside the sequence. */
static int utf8_seq(ctg_lexer *lx, const decoder *d, const char *p, size_t *len)
{
    unsigned char c = (unsigned char)p[0], lo = 0x80, hi = 0xBF;
    size_t n;

    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else if (c == 0xC0 || c == 0xC1)
        return fail(lx, CTG_ESYNTAX, p, "overlong UTF-8 sequence in string");
    else
        return fail(lx, CTG_ESYNTAX, p, "invalid UTF-8 byte 0x%02x in string", c);
    for (size_t i = 1; i < n; i++) {
        unsigned char b;
        if (p + i == d->e)
            return d->at_eof ? end_in_string(lx)
                             : fail(lx, CTG_ESYNTAX, p, "truncated UTF-8 sequence in string");
        b = (unsigned char)p[i];
        if (b < 0x80 || b > 0xBF)
            return fail(lx, CTG_ESYNTAX, p, "truncated UTF-8 sequence in string");
        if (i == 1 && b < lo)
            return fail(lx, CTG_ESYNTAX, p, "overlong UTF-8 sequence in string");
        if (i == 1 && b > hi)
            return fail(lx, CTG_ESYNTAX, p,
                        c == 0xED ? "UTF-8 encoded surrogate in string"
                                  : "UTF-8 code point above U+10FFFF in string");
    }
    *len = n;
    return CTG_OK;
}

/* Starts writing to scratch at the first escape: the text before it is copied once. */
static int start_output(ctg_lexer *lx, decoder *d, const char *p, size_t raw)
{
    int rc = scratch_reserve(lx, raw);

    if (rc != CTG_OK)
        return rc;
    d->out = lx->scratch;
    d->n = (size_t)(p - (lx->tok + 1));
    memcpy(d->out, lx->tok + 1, d->n);
    return CTG_OK;
}

/* Appends the plain run [p, q) to the output once there is one. */
static void copy_run(decoder *d, const char *p, const char *q)
{
    if (d->out != NULL) {
        memcpy(d->out + d->n, p, (size_t)(q - p));
        d->n += (size_t)(q - p);
    }
}

/* Phase 2: validates and decodes the content [tok + 1 + from, e), then the stop byte. The
 * content holds no raw quote or control character: phase 1 stopped at the first. */
static int string_decode(ctg_lexer *lx, ctg_token *t, decoder *d, size_t from)
{
    const char *p = lx->tok + 1 + from, *run;
    size_t len = 0;
    int rc;

    while (p < d->e) {
        copy_run(d, p, run = scan_plain(p, d->e));
        if ((p = run) == d->e)
            break;
        if (*p == '\\') {
            if (d->out == NULL && (rc = start_output(lx, d, p, (size_t)(d->e - lx->tok))) != CTG_OK)
                return rc;
            if ((rc = escape(lx, d, &p)) != CTG_OK)
                return rc;
            continue;
        }
        if ((rc = utf8_seq(lx, d, p, &len)) != CTG_OK)
            return rc;
        copy_run(d, p, p + len);
        p += len;
    }
    if (d->at_eof)
        return end_in_string(lx);
    if (*d->e != '"')
        return fail(lx, CTG_ESYNTAX, d->e, "invalid control character 0x%02x in string",
                    (unsigned char)*d->e);
    len = d->out ? d->n : (size_t)(d->e - lx->tok - 1);
    if (len > lx->lim.max_string_len)
        return string_too_long(lx, lx->tok);
    t->str = d->out ? d->out : lx->tok + 1;
    t->len = len;
    t->has_nul = d->has_nul;
    lx->cur = d->e + 1;
    return CTG_OK;
}

/* A string whose first `i` content bytes are plain and whose next byte needs attention (or
 * is past the window). */
COLD static int string_slow(ctg_lexer *lx, ctg_token *t, const char *quote, size_t i)
{
    decoder d = { NULL, false, NULL, 0, false };
    size_t stop = 0;
    int rc;

    lx->tok = quote;
    lx->cur = quote + 1 + i;
    if ((rc = string_stop(lx, i + 1, &stop, &d.at_eof)) != CTG_OK)
        return rc;
    d.e = lx->tok + stop;
    return string_decode(lx, t, &d, i);
}

static inline int lex_string(ctg_lexer *lx, ctg_token *t, const char *quote)
{
    const char *s = quote + 1, *p = scan_plain(s, lx->end);

    if (p < lx->end && *p == '"') {
        if ((size_t)(p - s) > lx->lim.max_string_len)
            return string_too_long(lx, quote);
        t->str = s;
        t->len = (size_t)(p - s);
        t->has_nul = false;
        lx->cur = p + 1;
        return CTG_OK;
    }
    return string_slow(lx, t, quote, (size_t)(p - s));
}

/* ---- keys ------------------------------------------------------------------------------ */

/* The ':' after a key, across refills: a key still in the window moves to scratch first. */
COLD static int key_colon_slow(ctg_lexer *lx, ctg_token *t, const char *p)
{
    char buf[16];
    int rc;

    for (;;) {
        p = skip_ws(lx, p, lx->end);
        if (p < lx->end)
            break;
        lx->tok = p; /* where an out-of-memory error points */
        if (lx->src.refill != NULL && t->str != lx->scratch) {
            if ((rc = scratch_reserve(lx, t->len + 1)) != CTG_OK)
                return rc;
            memcpy(lx->scratch, t->str, t->len);
            t->str = lx->scratch;
        }
        lx->tok = lx->cur = p;
        if ((rc = more(lx, CTG_LEX_BUFFER_SIZE)) < 0)
            return rc;
        p = lx->cur;
        if (rc == 0)
            break;
    }
    if (p == lx->end || *p != ':')
        return fail(lx, CTG_ESYNTAX, p, "expected ':' after object key, got %s",
                    describe(lx, p, buf, sizeof(buf)));
    lx->cur = p + 1;
    return CTG_OK;
}

static inline int lex_key(ctg_lexer *lx, ctg_token *t, const char *quote)
{
    const char *p;
    int rc = lex_string(lx, t, quote);

    if (rc != CTG_OK)
        return rc;
    t->type = CTG_TOK_KEY;
    p = skip_ws(lx, lx->cur, lx->end);
    if (p < lx->end && *p == ':')
        lx->cur = p + 1;
    else if ((rc = key_colon_slow(lx, t, p)) != CTG_OK)
        return rc;
    lx->state = S_AFTER_COLON;
    return CTG_OK;
}

/* ---- numbers and literals -------------------------------------------------------------- */

COLD static int lex_number(ctg_lexer *lx, ctg_token *t, const char *first)
{
    size_t n = 0, limit = lx->lim.max_string_len, bad;
    const char *why;
    int rc;

    lx->tok = first;
    for (;;) {
        const char *p = lx->tok + n, *end = lx->end;
        while (p < end && (byte_class[(unsigned char)*p] & C_NUM))
            p++;
        n = (size_t)(p - lx->tok);
        if (p < end || n > limit)
            break;
        if ((rc = more(lx, sat_add(limit, 1))) < 0)
            return rc;
        if (rc == 0)
            break;
    }
    if (n > limit)
        return fail(lx, CTG_ELIMIT, lx->tok, "number longer than %zu bytes", limit);
    if (!ctg_number_check(lx->tok, n, &t->is_integer, &bad, &why))
        return fail(lx, CTG_ESYNTAX, lx->tok + bad, "%s", why);
    if (!ctg_parse_double(lx->tok, n, &t->number))
        return fail(lx, CTG_ESYNTAX, lx->tok, "number out of range");
    t->type = CTG_TOK_NUMBER;
    t->raw = lx->tok;
    t->raw_len = n;
    lx->cur = lx->tok + n;
    return CTG_OK;
}

static int lex_literal(ctg_lexer *lx, ctg_token *t, const char *first, const char *word,
                       ctg_tok type)
{
    size_t n = strlen(word), i = 0;
    char buf[16];
    int rc = 0;

    lx->tok = first;
    for (;;) {
        size_t avail = (size_t)(lx->end - lx->tok);
        while (i < n && i < avail && lx->tok[i] == word[i])
            i++;
        if (i == n)
            break;
        if (i < avail || (rc = more(lx, n)) == 0)
            return fail(lx, CTG_ESYNTAX, lx->tok + i, "invalid literal, expected '%s', got %s",
                        word, describe(lx, lx->tok + i, buf, sizeof(buf)));
        if (rc < 0)
            return rc;
    }
    t->type = type;
    lx->cur = lx->tok + n;
    return CTG_OK;
}

/* ---- containers ------------------------------------------------------------------------ */

COLD static int stack_grow(ctg_lexer *lx)
{
    size_t cap, need = lx->depth / 8 + 1;
    unsigned char *p;

    if (!ctg_grow_capacity(lx->stack_cap, need, 2 * sizeof(lx->stack_small), SIZE_MAX, &cap)
        || (p = ctg_mem_resize(lx->alloc, lx->stack, lx->stack_cap, cap)) == NULL)
        return fail(lx, CTG_ENOMEM, lx->cur, "out of memory");
    if (lx->stack == NULL)
        memcpy(p, lx->stack_small, sizeof(lx->stack_small));
    lx->stack = p;
    lx->stack_cap = cap;
    return CTG_OK;
}

static HOT_INLINE int open_container(ctg_lexer *lx, ctg_token *t, const char *p, bool object)
{
    int rc;

    lx->cur = p;
    if (lx->depth >= lx->lim.max_depth)
        return fail(lx, CTG_ELIMIT, p, "nesting deeper than %zu levels", lx->lim.max_depth);
    if (lx->depth / 8 >= (lx->stack ? lx->stack_cap : sizeof(lx->stack_small))
        && (rc = stack_grow(lx)) != CTG_OK)
        return rc;
    push_container(lx, t, p, object);
    return CTG_OK;
}

/* ---- the token loop -------------------------------------------------------------------- */

/* No byte left: refill, or finish (EOF token or error). Returns 1 to go on scanning. */
COLD static int at_window_end(ctg_lexer *lx, ctg_token *t, const char **p, int st)
{
    int rc;

    lx->tok = lx->cur = *p;
    if ((rc = more(lx, CTG_LEX_BUFFER_SIZE)) != 0) {
        *p = lx->cur;
        return rc;
    }
    if (st == S_END) {
        lx->state = S_DONE;
        t->type = CTG_TOK_EOF;
        t->offset = pos(lx, lx->end);
        t->line = lx->line;
        t->line_start = lx->line_start;
        return CTG_OK;
    }
    if (st == S_ROOT)
        return fail(lx, CTG_ESYNTAX, lx->end, "empty input");
    return unexpected(lx, lx->end, st);
}

/* Dispatches on the first byte of a token, in state `st`. */
static int lex_token(ctg_lexer *lx, ctg_token *t, const char *p, int st)
{
    switch (*p) {
    case '"':
        if (st & F_KEY)
            return lex_key(lx, t, p);
        if (!(st & F_VALUE))
            break;
        lx->state = scalar_state(st);
        t->type = CTG_TOK_STRING;
        return lex_string(lx, t, p);
    case '{':
    case '[':
        if (!(st & F_VALUE))
            break;
        return open_container(lx, t, p, *p == '{');
    case '}':
        if (!(st & F_CLOSE_OBJECT))
            break;
        return close_container(lx, t, p, CTG_TOK_OBJECT_END);
    case ']':
        if (!(st & F_CLOSE_ARRAY))
            break;
        return close_container(lx, t, p, CTG_TOK_ARRAY_END);
    case 't':
    case 'f':
    case 'n':
        if (!(st & F_VALUE))
            break;
        lx->state = scalar_state(st);
        return *p == 't'   ? lex_literal(lx, t, p, "true", CTG_TOK_TRUE)
               : *p == 'f' ? lex_literal(lx, t, p, "false", CTG_TOK_FALSE)
                           : lex_literal(lx, t, p, "null", CTG_TOK_NULL);
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        if (!(st & F_VALUE))
            break;
        lx->state = scalar_state(st);
        return *p != '-' && small_integer(lx, t, p) ? CTG_OK : lex_number(lx, t, p);
    default:
        break;
    }
    return unexpected(lx, p, st);
}

/* The next token, scanning from `p` in state `st`: lx->cur and lx->state change only once a
 * token is read (lines are counted as whitespace is skipped). */
static inline int lex_from(ctg_lexer *lx, ctg_token *t, const char *p, int st)
{
    int rc;

    for (;;) {
        p = skip_ws(lx, p, lx->end);
        if (p == lx->end) {
            if ((rc = at_window_end(lx, t, &p, st)) <= 0)
                return rc;
            continue;
        }
        if (*p != ',' || !(st & F_COMMA))
            break;
        st = after_comma(st);
        p++;
    }
    t->offset = pos(lx, p);
    t->line = lx->line;
    t->line_start = lx->line_start;
    return lex_token(lx, t, p, st);
}

static int lex(ctg_lexer *lx, ctg_token *t)
{
    return lex_from(lx, t, lx->cur, lx->state);
}

/* The first call skips one UTF-8 BOM: it needs up to 3 bytes, fewer when they differ. */
static int skip_bom(ctg_lexer *lx)
{
    static const char bom[3] = { '\xEF', '\xBB', '\xBF' };
    size_t avail;
    int rc;

    lx->tok = lx->cur;
    while ((avail = (size_t)(lx->end - lx->cur)) < 3 && memcmp(lx->cur, bom, avail) == 0) {
        if ((rc = more(lx, CTG_LEX_BUFFER_SIZE)) < 0)
            return rc;
        if (rc == 0)
            break;
    }
    if (avail >= 3 && memcmp(lx->cur, bom, 3) == 0)
        lx->cur += 3;
    lx->state = S_ROOT;
    return CTG_OK;
}

COLD static int stopped(ctg_lexer *lx, ctg_token *t)
{
    if (lx->state == S_INIT)
        return skip_bom(lx);
    if (lx->state == S_DONE) {
        t->type = CTG_TOK_EOF;
        t->offset = pos(lx, lx->end);
        t->line = lx->line;
        t->line_start = lx->line_start;
        return 1;
    }
    return lx->status;
}

/* ---- public ---------------------------------------------------------------------------- */

int ctg_lexer_init(ctg_lexer *lx, const ctg_lex_source *src, const ctg_lex_limits *lim,
                   const ctg_allocator *a)
{
    static const char empty[1] = { 0 };

    memset(lx, 0, sizeof(*lx));
    lx->src = *src;
    lx->alloc = a;
    lx->lim.max_depth = lim && lim->max_depth ? lim->max_depth : CTG_DEFAULT_MAX_DEPTH;
    lx->lim.max_string_len = lim && lim->max_string_len ? lim->max_string_len : DEFAULT_MAX_STRING;
    lx->lim.max_document_size = lim && lim->max_document_size ? lim->max_document_size : SIZE_MAX;
    lx->line = 1;
    lx->state = S_INIT;
    if (src->refill != NULL) {
        lx->buf = ctg_mem_alloc(a, CTG_LEX_BUFFER_SIZE);
        lx->cap = lx->buf != NULL ? CTG_LEX_BUFFER_SIZE : 0;
        lx->win = lx->cur = lx->end = lx->tok = lx->buf;
        set_origin(lx);
        /* A lexer that failed to start still answers every call with the failure. */
        return lx->buf != NULL ? CTG_OK : fail_at(lx, CTG_ENOMEM, 0, "out of memory");
    }
    /* No pointer arithmetic on a NULL buffer, even with a length of 0. */
    lx->win = lx->cur = lx->tok = src->data != NULL ? src->data : empty;
    lx->end = lx->win + (src->data != NULL ? src->len : 0);
    set_origin(lx);
    lx->eof = true;
    clip(lx, NULL);
    return CTG_OK;
}

void ctg_lexer_enter_array(ctg_lexer *lx)
{
    lx->stack_small[0] = 0; /* bit 0 clear: the open container is an array */
    lx->depth = 1;
    lx->state = S_ARRAY_FIRST;
}

void ctg_lexer_dispose(ctg_lexer *lx)
{
    if (lx == NULL)
        return;
    ctg_mem_release(lx->alloc, lx->buf, lx->cap);
    ctg_mem_release(lx->alloc, lx->stack, lx->stack_cap);
    ctg_mem_release(lx->alloc, lx->scratch, lx->scratch_cap);
    lx->buf = NULL;
    lx->stack = NULL;
    lx->scratch = NULL;
    lx->cap = lx->stack_cap = lx->scratch_cap = 0;
}

int ctg_lexer_next(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    int rc;

    if (lx->state & F_STOPPED) {
        rc = stopped(lx, tok);
        if (rc > 0)
            return CTG_OK;
        if (rc < 0)
            goto failed;
    }
    if ((rc = lex(lx, tok)) == CTG_OK)
        return CTG_OK;
failed:
    if (err != NULL)
        *err = lx->err;
    return rc;
}

/* The fast paths' general path (json/lexer_fast.h). */
COLD int ctg_lex_next_from(ctg_lexer *lx, ctg_token *t, ctg_error *err, const char *p, int st)
{
    int rc = lex_from(lx, t, p, st);

    if (rc != CTG_OK && err != NULL)
        *err = lx->err;
    return rc;
}

int ctg_lex_member_value(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    const char *p;

    /* blanks() counts no line: when the bracket is not taken here, nothing has changed. */
    if (lx->state == S_AFTER_COLON && (p = blanks(lx->cur, lx->end)) != lx->end &&
        bracket(lx, tok, p, S_AFTER_COLON))
        return CTG_OK;
    return ctg_lexer_next(lx, tok, err);
}

int ctg_lexer_item(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    return ctg_lexer_item_inline(lx, tok, err);
}

int ctg_lexer_member(ctg_lexer *lx, const char *hint, size_t hint_len, ctg_lex_member *m,
                     ctg_token *val, ctg_error *err)
{
    return ctg_lexer_member_inline(lx, hint, hint_len, NULL, false, m, val, err);
}

int ctg_lexer_member_sifted(ctg_lexer *lx, const char *hint, size_t hint_len,
                            const ctg_key_sieve *sv, ctg_lex_member *m, ctg_token *val,
                            ctg_error *err)
{
    return ctg_lexer_member_inline(lx, hint, hint_len, sv, false, m, val, err);
}

/* ---- skipping -------------------------------------------------------------------------- */

/* Skipping a value reads it as ctg_lexer_next would, token by token and with the same grammar
 * states, but settles the common tokens without decoding them: a plain string is scanned to its
 * quote, a number is checked and not converted. Each fast path only takes what the general
 * path would accept, and then leaves the lexer exactly as it would (cur, state, depth, lines);
 * anything else (escapes, UTF-8, refills, limits, every error) goes to the general path from
 * where the fast one looked, so a skipped value fails at the same byte with the same message. */

static inline bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

static inline const char *digits(const char *p, const char *end)
{
    while (p < end && is_digit(*p))
        p++;
    return p;
}

/* An exponent the fast path takes: [eE][+-]?digits, at most 3 of them, the value certainly
 * finite when the integer part has `int_digits` digits (the mantissa is below 10^int_digits,
 * and 10^308 is below DBL_MAX). NULL otherwise. */
static inline const char *small_exponent(const char *p, const char *end, size_t int_digits)
{
    bool negative = false;
    const char *d, *q;
    unsigned e = 0;

    if (++p < end && (*p == '+' || *p == '-'))
        negative = *p++ == '-';
    d = p;
    q = digits(p, end);
    if (q == d || q - d > 3)
        return NULL;
    for (; d < q; d++)
        e = e * 10 + (unsigned)(*d - '0');
    return negative || int_digits + e <= 308 ? q : NULL;
}

/* The end of the number at `p` when lex_number would accept it as it is: valid, finite, within
 * max_string_len, and followed by a byte in the window that cannot extend it. NULL otherwise. */
const char *ctg_lex_number_end_any(const ctg_lexer *lx, const char *p)
{
    const char *s = p + (*p == '-'), *end = lx->end, *q;
    size_t int_digits;

    if (s == end || !is_digit(*s))
        return NULL;
    q = *s == '0' ? s + 1 : digits(s, end);
    int_digits = (size_t)(q - s);
    if (q < end && *q == '.') {
        s = q + 1;
        if ((q = digits(s, end)) == s)
            return NULL;
    }
    if (q < end && (*q | 0x20) == 'e')
        q = small_exponent(q, end, int_digits);
    else if (int_digits > 308)
        return NULL;
    if (q == NULL || q == end || (byte_class[(unsigned char)*q] & C_NUM)
        || (size_t)(q - p) > lx->lim.max_string_len)
        return NULL;
    return q;
}

/* The token at `p` in state `st`, settled without decoding when it is a plain string or key,
 * a number or a bracket that cannot fail. false: nothing changed. */
static inline bool skip_fast(ctg_lexer *lx, ctg_token *t, const char *p, int st)
{
    const char *q;

    switch (*p) {
    case '"':
        if (!(st & (F_KEY | F_VALUE)) || (q = string_end(lx, p)) == NULL)
            return false;
        /* A key's ':' only on its line: lines counted here could not be given back. */
        if ((st & F_KEY) && (q = colon_on_line(q, lx->end)) == NULL)
            return false;
        t->type = st & F_KEY ? CTG_TOK_KEY : CTG_TOK_STRING;
        lx->state = st & F_KEY ? S_AFTER_COLON : scalar_state(st);
        break;
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        if (!(st & F_VALUE) || (q = number_end(lx, p)) == NULL)
            return false;
        t->type = CTG_TOK_NUMBER;
        lx->state = scalar_state(st);
        break;
    default:
        return bracket(lx, t, p, st);
    }
    mark_token(lx, t, p);
    lx->cur = q;
    return true;
}

/* One token, as ctg_lexer_next reads it (the lexer not stopped). Forced inline: it is the skip
 * loop's whole body, and gcc stops inlining it on its own once skip_ws grows. */
static HOT_INLINE int skip_token(ctg_lexer *lx, ctg_token *t)
{
    int st = lx->state;
    const char *p = before_token(lx, &st);

    if (p != lx->end && skip_fast(lx, t, p, st))
        return CTG_OK;
    return lex_from(lx, t, p, st);
}

/* ---- the quick skip of a whole container ------------------------------------------------ */

/* Most skipped containers (limits, tap changers, curves, extensions) are plain: ASCII strings,
 * short numbers, whitespace, within every limit. The quick skip reads such a container to its
 * end in one scan that keeps its state in locals and validates the grammar as the token path
 * does, and commits only at the end (cur, lines, depth, state, the last token), exactly as
 * the token path would leave them. At anything else (an escape that needs decoding, a byte
 * >= 0x80, a control character, any syntax error, a limit, the end of the window) it gives up
 * having changed nothing, and the token path reads the container from its start: so a skipped
 * container fails at the same byte with the same message, whatever the refills. */

typedef struct quick {
    const char *p, *end;
    const char *ls;    /* first byte of the line, once a '\n' was passed; NULL before */
    size_t breaks;     /* line breaks passed, added to the lexer's line (saturating) at the end */
    unsigned d;        /* open containers, counted from the skipped one (1) */
    unsigned room;     /* the most the nesting may reach without a limit or a stack growth */
    uint64_t objects;  /* bit i - 1: the container at level i is an object */
} quick;

/* Whitespace, as skip_ws skips it. */
static HOT_INLINE void quick_ws(quick *q)
{
    const char *p = q->p, *end = q->end;

    if (p < end && (unsigned char)*p > ' ')
        return;
    /* A line break and an indentation, as before most tokens of a pretty-printed file. */
    if (p < end && *p == '\n') {
        q->breaks++;
        q->ls = ++p;
        p = indent(p, end);
        if (p < end && (unsigned char)*p > ' ') {
            q->p = p;
            return;
        }
    } else if (end - p >= 2 && p[0] == ' ' && (unsigned char)p[1] > ' ') {
        q->p = p + 1;
        return;
    }
    while (p < end) {
        if (*p == ' ' || *p == '\t' || *p == '\r') {
            p++;
        } else if (*p == '\n') {
            q->breaks++;
            q->ls = ++p;
            p = indent(p, end);
        } else {
            break;
        }
    }
    q->p = p;
}

/* The escapes whose decoded text is one byte: the string stays within its raw length. */
static inline bool short_escape(char c)
{
    return c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' ||
           c == 't';
}

/* The rest of a string from `p`, where a plain scan stopped short of its closing quote: taken
 * when its raw text needs no check beyond what is here (plain bytes, well-formed UTF-8 (names
 * in skipped parts of real files have accents) and short escapes). Its closing quote, or NULL.
 * Out of line: most strings of a skipped container end within quick_string's first step, and
 * this loop inlined took registers that the scan spilled for each of them. */
static COLD const char *quick_string_rest(const char *p, const char *e)
{
    uint32_t cp;
    size_t n;

    for (;;) {
        p = scan_plain(p, e);
        if (p == e)
            return NULL;
        if (*p == '"')
            return p;
        if ((unsigned char)*p >= 0x80) {
            if ((n = ctg_utf8_sequence((const unsigned char *)p, (size_t)(e - p), &cp)) == 0)
                return NULL;
            p += n;
            continue;
        }
        if (*p != '\\' || e - p < 2 || !short_escape(p[1]))
            return NULL;
        p += 2;
    }
}

/* The string at q->p (its quote), when its raw text passes quick_string_rest's checks and is
 * no longer than max_string_len. */
static HOT_INLINE bool quick_string(const ctg_lexer *lx, quick *q)
{
    const char *s = q->p + 1, *e = q->end, *p = s;

#ifdef CTG_LEX_SSE2
    /* Keys and values of skipped containers are short: 16 bytes settle most of them, 32 the
     * rest but a few. */
    if (e - s >= 32) {
        unsigned m = not_plain16(s);
        if (m != 0)
            p = s + __builtin_ctz(m);
        else if ((m = not_plain16(s + 16)) != 0)
            p = s + 16 + __builtin_ctz(m);
        else
            p = s + 32;
    }
#endif
    if ((p == e || *p != '"') && (p = quick_string_rest(p, e)) == NULL)
        return false;
    if ((size_t)(p - s) > lx->lim.max_string_len)
        return false;
    q->p = p + 1;
    return true;
}

/* A value's first byte at q->p: a scalar passed over, or a container opened. */
static HOT_INLINE bool quick_value(const ctg_lexer *lx, quick *q)
{
    const char *p = q->p;
    size_t left = (size_t)(q->end - p);

    switch (*p) {
    case '"':
        return quick_string(lx, q);
    case '{':
    case '[':
        if (q->d >= q->room)
            return false;
        q->objects = *p == '{' ? q->objects | (uint64_t)1 << q->d
                               : q->objects & ~((uint64_t)1 << q->d);
        q->d++;
        q->p = p + 1;
        return true;
    case 't':
        return left >= 4 && memcmp(p, "true", 4) == 0 && (q->p = p + 4, true);
    case 'f':
        return left >= 5 && memcmp(p, "false", 5) == 0 && (q->p = p + 5, true);
    case 'n':
        return left >= 4 && memcmp(p, "null", 4) == 0 && (q->p = p + 4, true);
    default:
        if ((*p != '-' && !is_digit(*p)) || (p = number_end(lx, p)) == NULL)
            return false;
        q->p = p;
        return true;
    }
}

static inline bool quick_in_object(const quick *q)
{
    return (q->objects >> (q->d - 1)) & 1;
}

/* At q->p, the byte that may close the innermost container: closes it if it does. */
static inline bool quick_close(quick *q)
{
    if (*q->p != (quick_in_object(q) ? '}' : ']'))
        return false;
    q->d--;
    q->p++;
    return true;
}

/* One member or item at q->p: a key and its ':' in an object, then the value's first token. */
static HOT_INLINE bool quick_element(const ctg_lexer *lx, quick *q)
{
    if (quick_in_object(q)) {
        if (*q->p != '"' || !quick_string(lx, q))
            return false;
        /* `" : ` and the value, as PowSyBl writes a member: what quick_ws would take. */
        if (q->end - q->p >= 4 && spaced_colon(q->p)) {
            q->p += 3;
            return quick_value(lx, q);
        }
        quick_ws(q);
        if (q->p == q->end || *q->p != ':')
            return false;
        q->p++;
        quick_ws(q);
        if (q->p == q->end)
            return false;
    }
    return quick_value(lx, q);
}

/* The scan of the container whose contents start at q->p to its end, `above` containers open
 * around it (the lexer's depth is within the limit and the stack's bytes). false: it needs the
 * token path, and nothing changed. */
static bool quick_scan(const ctg_lexer *lx, quick *qs, const char **close, size_t above)
{
    quick local = *qs, *q = &local; /* in registers, not in the caller's memory */
    bool open = true; /* right after an opening bracket: it may close at once */
    unsigned depth;
    size_t levels = 8 * (lx->stack ? lx->stack_cap : sizeof(lx->stack_small));
    size_t room = lx->lim.max_depth < levels ? lx->lim.max_depth : levels;

    /* Levels within the depth limit and the stack's bytes, at most the 64 bits of `objects`. */
    room -= above;
    q->room = room < 64 ? (unsigned)room : 64;
    for (;;) {
        quick_ws(q);
        if (q->p == q->end)
            return false;
        if (!open && *q->p == ',') {
            q->p++;
            quick_ws(q);
            if (q->p == q->end)
                return false;
        } else if (*q->p == '}' || *q->p == ']') {
            *close = q->p;
            if (!quick_close(q))
                return false;
            if (q->d == 0)
                return (*qs = local, true);
            open = false;
            continue;
        } else if (!open) {
            return false;
        }
        depth = q->d;
        if (!quick_element(lx, q))
            return false;
        open = q->d > depth;
    }
}

/* The lines the quick scan passed and its closing bracket, as the token path leaves them. */
static void quick_commit(ctg_lexer *lx, ctg_token *t, const quick *q, const char *close)
{
    lx->line = q->breaks < UINT_MAX - lx->line ? lx->line + (unsigned)q->breaks : UINT_MAX;
    if (q->ls != NULL)
        lx->line_start = pos(lx, q->ls);
    mark_token(lx, t, close);
    lx->cur = close + 1;
    lx->state = after_value(lx);
    t->type = *close == '}' ? CTG_TOK_OBJECT_END : CTG_TOK_ARRAY_END;
}

/* The container just opened, skipped whole by the quick scan and left as the token path would
 * leave it after its closing bracket. false: nothing changed. */
static bool quick_skip(ctg_lexer *lx, ctg_token *t)
{
    quick q = { lx->cur, lx->end, NULL, 0, 1, 0, lx->state == S_OBJECT_FIRST };
    const char *close = NULL;

    if (!quick_scan(lx, &q, &close, lx->depth - 1))
        return false;
    lx->depth--;
    quick_commit(lx, t, &q, close);
    return true;
}

/* The end of the literal at `p` (in the window) when it is whole in the window, as the token
 * path reads it (lex_literal, which leaves what follows to the next token); NULL otherwise. */
static const char *literal_end(const ctg_lexer *lx, const char *p)
{
    size_t left = (size_t)(lx->end - p);

    if (*p == 't' || *p == 'n')
        return left >= 4 && memcmp(p, *p == 't' ? "true" : "null", 4) == 0 ? p + 4 : NULL;
    return *p == 'f' && left >= 5 && memcmp(p, "false", 5) == 0 ? p + 5 : NULL;
}

int ctg_lex_skip_member_value(ctg_lexer *lx, ctg_token *t, ctg_error *err, const char *v)
{
    size_t levels = 8 * (lx->stack ? lx->stack_cap : sizeof(lx->stack_small));
    quick q = { v + 1, lx->end, NULL, 0, 1, 0, 0 };
    const char *close = NULL, *e;

    /* Booleans of limits and regulation flags: passed over as the token path leaves them,
     * without its call chain of some 500 instructions each. */
    if (v != lx->end && (e = literal_end(lx, v)) != NULL) {
        mark_token(lx, t, v);
        t->type = *v == 't' ? CTG_TOK_TRUE : *v == 'f' ? CTG_TOK_FALSE : CTG_TOK_NULL;
        lx->cur = e;
        lx->state = S_OBJECT_AFTER;
        return CTG_OK;
    }
    /* The bracket read as a token first, then the scan, would leave the lexer where one scan
     * from the bracket leaves it: that saves a token and a call for each container a sieve
     * passes over. Where the bracket could not be taken (depth, room), the token path fails. */
    if (v == lx->end || (*v != '[' && *v != '{') || lx->depth >= lx->lim.max_depth ||
        lx->depth >= levels)
        return ctg_lexer_skip_next(lx, t, err);
    q.objects = *v == '{';
    if (!quick_scan(lx, &q, &close, lx->depth))
        return ctg_lexer_skip_next(lx, t, err);
    quick_commit(lx, t, &q, close);
    return CTG_OK;
}

/* Tokens until the nesting is back to `target`; errors copied to `err` as ctg_lexer_next
 * does. */
static int skip_to(ctg_lexer *lx, ctg_token *t, ctg_error *err, size_t target)
{
    int rc = CTG_OK;

    /* Right after the container's opening bracket: first the quick way. */
    if ((lx->state == S_OBJECT_FIRST || lx->state == S_ARRAY_FIRST) && lx->depth == target + 1
        && quick_skip(lx, t))
        return CTG_OK;

    while (lx->depth > target && (rc = skip_token(lx, t)) == CTG_OK)
        continue;
    if (rc != CTG_OK && err != NULL)
        *err = lx->err;
    return rc;
}

int ctg_lexer_skip_value(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    size_t target;
    int rc = CTG_OK;

    if (tok->type != CTG_TOK_OBJECT_BEGIN && tok->type != CTG_TOK_ARRAY_BEGIN)
        return CTG_OK;
    target = lx->depth - 1;
    if (!(lx->state & F_STOPPED))
        return skip_to(lx, tok, err, target);
    /* Failed already: the failure repeats, as ctg_lexer_next has it. */
    while (rc == CTG_OK && lx->depth > target)
        rc = ctg_lexer_next(lx, tok, err);
    return rc;
}

int ctg_lexer_skip_next(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    size_t target = lx->depth;
    int rc;

    /* Before the first token (the BOM), after the end or an error: as ctg_lexer_next. */
    if (lx->state & F_STOPPED) {
        rc = ctg_lexer_next(lx, tok, err);
        return rc == CTG_OK ? ctg_lexer_skip_value(lx, tok, err) : rc;
    }
    if ((rc = skip_token(lx, tok)) != CTG_OK) {
        if (err != NULL)
            *err = lx->err;
        return rc;
    }
    return lx->depth > target ? skip_to(lx, tok, err, target) : CTG_OK;
}

size_t ctg_lexer_depth(const ctg_lexer *lx)
{
    return lx->depth;
}

size_t ctg_lexer_offset(const ctg_lexer *lx)
{
    return pos(lx, lx->cur);
}
