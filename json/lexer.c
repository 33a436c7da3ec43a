/* SPDX-License-Identifier: MPL-2.0 */
/* The strict pull lexer: whitespace, tokens and the whole JSON grammar in one pass.
 *
 * The hot path (memory mode, pretty-printed ASCII) is: skip a whitespace run, dispatch on one
 * byte, and for a string scan to the first byte that needs attention. Everything else (escapes,
 * UTF-8, refills, errors) sits in functions off that path. A token is always scanned from one
 * contiguous window: in refill mode the window slides, and grows when one token fills it. */

#include "json/lexer.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ctg/io.h"
#include "base/alloc.h"
#include "base/error_set.h"
#include "base/utf8.h"

#define DEFAULT_MAX_STRING ((size_t)64 * 1024 * 1024)

/* What may come next: a state is a set of these bits (plus tag bits that only pick a message).
 * F_STOPPED marks the states handled off the hot path. */
enum {
    F_VALUE = 1 << 0,
    F_KEY = 1 << 1,
    F_CLOSE_ARRAY = 1 << 2,
    F_CLOSE_OBJECT = 1 << 3,
    F_COMMA = 1 << 4,
    F_END = 1 << 5,
    F_STOPPED = 1 << 6,
    TAG_1 = 1 << 8,
    TAG_2 = 1 << 9
};

enum {
    S_ROOT = F_VALUE,
    S_AFTER_COLON = F_VALUE | TAG_1,
    S_ARRAY_NEXT = F_VALUE | TAG_2, /* after ',' in an array */
    S_ARRAY_FIRST = F_VALUE | F_CLOSE_ARRAY,
    S_OBJECT_FIRST = F_KEY | F_CLOSE_OBJECT,
    S_OBJECT_NEXT = F_KEY, /* after ',' in an object */
    S_ARRAY_AFTER = F_COMMA | F_CLOSE_ARRAY,
    S_OBJECT_AFTER = F_COMMA | F_CLOSE_OBJECT,
    S_END = F_END,
    S_INIT = F_STOPPED,
    S_DONE = F_STOPPED | TAG_1,
    S_FAILED = F_STOPPED | TAG_2
};

/* Byte classes: C_STR stops the plain string scan, C_NUM may appear in a number's text. */
enum { C_STR = 1, C_NUM = 2 };

static const unsigned char byte_class[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 2, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* Eight bytes at a time where the byte order allows finding the first match cheaply. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CTG_LEX_SWAR 1
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* SSE2 is part of x86-64: sixteen bytes a step for string contents and indentation. */
#if defined(__SSE2__)
#define CTG_LEX_SSE2 1
#include <emmintrin.h>
#endif

static inline uint64_t load8(const char *p)
{
    uint64_t w;

    memcpy(&w, p, sizeof(w));
    return w;
}

/* Index of the lowest byte flagged in `m` (bit 7 of each byte; m != 0). Borrows of the
 * subtractions below can only flag bytes above a true match, never below it. */
static inline size_t first_flagged(uint64_t m)
{
    return (size_t)__builtin_ctzll(m) >> 3;
}

/* Bit 4 of each byte of `w` that is not an ASCII digit, and maybe other bits of those bytes:
 * a digit xor '0' is 0..9, with no high nibble and no carry out of its low nibble + 6. */
static inline uint64_t non_digits(uint64_t w)
{
    uint64_t x = w ^ (ONES * '0');

    return (x & (ONES * 0xF0)) | (((x & (ONES * 0x0F)) + ONES * 6) & (ONES * 0x10));
}

/* The value of the n digits (1 <= n <= 7) at the start of `w`, the first the most significant:
 * moved to the top of the word behind zeros, then summed pairwise in three multiplies. */
static inline uint64_t digits_value(uint64_t w, size_t n)
{
    uint64_t x = (w ^ (ONES * '0')) << (8 * (8 - n));

    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFULL;
    x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFULL;
    return (x * 10000 + (x >> 32)) & 0xFFFFFFFFULL;
}
#endif

/* SQLite's convention for a condition that no input can make true: release builds keep the
 * check, debug builds assert it, and the coverage build drops it, as no test can reach it. */
#if defined(CTG_COVERAGE_BUILD)
#define NEVER(x) ((void)(x), 0)
#elif !defined(NDEBUG)
#define NEVER(x) ((x) ? (assert(!(x)), 1) : 0)
#else
#define NEVER(x) (x)
#endif

/* COLD: off the hot path, kept out of the token loop so that it stays small (fewer registers to
 * save on every call). HOT_INLINE: on it, in every fast path; not forced in the coverage build
 * (-O0), where each forced copy would count its branches apart, and a copy whose caller fixes
 * an argument (ctg_lexer_member's NULL sieve) would show branches no input can take. */
#if defined(__GNUC__)
#define COLD __attribute__((noinline))
#else
#define COLD
#endif
#if defined(__GNUC__) && !defined(CTG_COVERAGE_BUILD)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

/* base + (p - win), with what does not change within a window summed once. */
static inline size_t pos(const ctg_lexer *lx, const char *p)
{
    return (size_t)((uintptr_t)p + lx->origin);
}

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

/* ---- whitespace ------------------------------------------------------------------------ */

/* The first byte at or after `p` that is not a space: the indentation pretty printers put
 * after a line break. */
static inline const char *indent(const char *p, const char *end)
{
#ifdef CTG_LEX_SSE2
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))) ^ 0xFFFFu;
        if (m != 0)
            return p + __builtin_ctz(m);
        p += 16;
    }
#endif
#ifdef CTG_LEX_SWAR
    while (end - p >= 8) {
        uint64_t x = load8(p) ^ (ONES * ' ');
        if (x != 0)
            return p + first_flagged(x); /* the lowest set bit is in the first non-space */
        p += 8;
    }
#else
    (void)end;
#endif
    return p;
}

/* After a '\n': counts the line and skips the indentation. */
static inline const char *newline(ctg_lexer *lx, const char *p, const char *end)
{
    lx->line += lx->line != UINT_MAX; /* saturates, as columns do */
    lx->line_start = pos(lx, p);
    return indent(p, end);
}

static inline const char *skip_ws(ctg_lexer *lx, const char *p, const char *end)
{
    /* Most often there is nothing to skip: a ',' or a '}' right after a value. */
    if (p < end && (unsigned char)*p > ' ')
        return p;
    /* Pretty printers put a line break and an indentation before most tokens. */
    if (p < end && *p == '\n' && (p = newline(lx, p + 1, end)) < end && (unsigned char)*p > ' ')
        return p;
    /* PowSyBl puts one space after ':', '[' and '{': settle that without the loop. */
    if (end - p >= 2 && p[0] == ' ' && (unsigned char)p[1] > ' ')
        return p + 1;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c > ' ')
            break;
        if (c == ' ' || c == '\t' || c == '\r')
            p++;
        else if (c == '\n')
            p = newline(lx, p + 1, end);
        else
            break;
    }
    return p;
}

/* ---- strings --------------------------------------------------------------------------- */

#ifdef CTG_LEX_SSE2
/* Bit i set: byte i of the 16 at `p` is one a plain string cannot hold as is. */
static inline unsigned not_plain16(const char *p)
{
    /* As signed bytes, control characters and every byte >= 0x80 are below 0x20. */
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                            _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                               _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));

    return (unsigned)_mm_movemask_epi8(hit);
}
#endif

/* The first byte at or after `p` that a plain string cannot hold as is. */
static inline const char *scan_plain(const char *p, const char *end)
{
#ifdef CTG_LEX_SSE2
    while (end - p >= 16) {
        unsigned m = not_plain16(p);
        if (m != 0)
            return p + __builtin_ctz(m);
        p += 16;
    }
#endif
#ifdef CTG_LEX_SWAR
    while (end - p >= 8) {
        uint64_t w = load8(p);
        uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
        uint64_t m = ((q - ONES) & ~q) | ((b - ONES) & ~b) | (w - ONES * 0x20) | w;
        if ((m &= HIGHS) != 0)
            return p + first_flagged(m);
        p += 8;
    }
#endif
    while (p < end && !(byte_class[(unsigned char)*p] & C_STR))
        p++;
    return p;
}

/* scan_plain for a string value: 32 bytes in the first step, as ids and names are often a few
 * bytes either side of 16, where the loop's exit would be a guess each time. */
static inline const char *scan_plain_value(const char *p, const char *end)
{
#ifdef CTG_LEX_SSE2
    if (end - p >= 32) {
        uint32_t m = not_plain16(p) | (uint32_t)not_plain16(p + 16) << 16;
        if (m != 0)
            return p + __builtin_ctz(m);
        p += 32;
    }
#endif
    return scan_plain(p, end);
}

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

static unsigned char *stack_bits(ctg_lexer *lx)
{
    return lx->stack != NULL ? lx->stack : lx->stack_small;
}

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
    size_t byte = lx->depth / 8;
    unsigned char bit = (unsigned char)(1u << (lx->depth % 8)), *bits;
    int rc;

    lx->cur = p;
    if (lx->depth >= lx->lim.max_depth)
        return fail(lx, CTG_ELIMIT, p, "nesting deeper than %zu levels", lx->lim.max_depth);
    if (byte >= (lx->stack ? lx->stack_cap : sizeof(lx->stack_small))
        && (rc = stack_grow(lx)) != CTG_OK)
        return rc;
    bits = stack_bits(lx);
    bits[byte] = (unsigned char)(object ? bits[byte] | bit : bits[byte] & ~bit);
    lx->depth++;
    lx->cur = p + 1;
    lx->state = object ? S_OBJECT_FIRST : S_ARRAY_FIRST;
    t->type = object ? CTG_TOK_OBJECT_BEGIN : CTG_TOK_ARRAY_BEGIN;
    return CTG_OK;
}

/* The state after a complete value, from the container it sits in. */
static int after_value(const ctg_lexer *lx)
{
    size_t top;

    if (lx->depth == 0)
        return S_END;
    top = lx->depth - 1;
    return (lx->stack != NULL ? lx->stack : lx->stack_small)[top / 8] & (1u << (top % 8))
               ? S_OBJECT_AFTER
               : S_ARRAY_AFTER;
}

static HOT_INLINE int close_container(ctg_lexer *lx, ctg_token *t, const char *p, ctg_tok type)
{
    lx->depth--;
    lx->cur = p + 1;
    lx->state = after_value(lx);
    t->type = type;
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

/* The state after the ',' that follows a value in state `st` (one that takes a comma). */
static inline int after_comma(int st)
{
    return st == S_OBJECT_AFTER ? S_OBJECT_NEXT : S_ARRAY_NEXT;
}

static inline int scalar_state(int st)
{
    return st == S_AFTER_COLON ? S_OBJECT_AFTER : st == S_ROOT ? S_END : S_ARRAY_AFTER;
}

/* `t` and the lexer after the integer [p, q) of value v. */
static inline bool integer_token(ctg_lexer *lx, ctg_token *t, const char *p, const char *q,
                                 uint64_t v)
{
    t->type = CTG_TOK_NUMBER;
    t->number = (double)v;
    t->is_integer = true;
    t->raw = p;
    t->raw_len = (size_t)(q - p);
    lx->cur = q;
    return true;
}

/* The non-negative integer at `p` (a digit) when it has at most 15 digits (so that it is exact
 * as a double), is whole in the window, within max_string_len and valid: read in one pass, as
 * lex_number would read it (node numbers of networks, mostly). false: nothing changed. */
static inline bool small_integer(ctg_lexer *lx, ctg_token *t, const char *p)
{
    const char *q = p, *end = lx->end;
    uint64_t v = 0;

#ifdef CTG_LEX_SWAR
    /* Up to 7 digits from one load: node numbers vary in length, and a digit loop's exit would
     * be a guess each time. */
    uint64_t w, bad;

    if (end - p >= 8 && (bad = non_digits(w = load8(p))) != 0) {
        size_t n = first_flagged(bad); /* >= 1: p is a digit */
        if ((n > 1 && *p == '0') || (byte_class[(unsigned char)p[n]] & C_NUM)
            || n > lx->lim.max_string_len)
            return false;
        return integer_token(lx, t, p, p + n, digits_value(w, n));
    }
#endif
    if (*q == '0')
        q++;
    else
        while (q < end && (unsigned char)(*q - '0') < 10 && q - p < 16)
            v = v * 10 + (uint64_t)(*q++ - '0');
    if (q == end || q - p > 15 || (byte_class[(unsigned char)*q] & C_NUM)
        || (size_t)(q - p) > lx->lim.max_string_len)
        return false;
    return integer_token(lx, t, p, q, v);
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

/* Blanks without a line break: PowSyBl writes one space on each side of a ':', and the fast
 * paths may not count lines they might have to give back. */
static inline const char *blanks(const char *p, const char *end)
{
    if (end - p >= 2 && p[0] == ' ' && (unsigned char)p[1] > ' ')
        return p + 1;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    return p;
}

/* A key's closing quote to just past its ':', on one line. NULL: not that shape. */
static inline const char *colon_on_line(const char *p, const char *end)
{
    p = blanks(p, end);
    return p < end && *p == ':' ? p + 1 : NULL;
}

/* Whether the 4 bytes at `p` are " : " and a byte that can start a value: one load and two
 * compares where the byte order allows (every key of a PowSyBl file passes here). */
static inline bool spaced_colon(const char *p)
{
#ifdef CTG_LEX_SWAR
    uint32_t w;

    memcpy(&w, p, sizeof(w));
    return (w & 0xFFFFFFu) == (' ' | ':' << 8 | ' ' << 16) && w >> 24 > ' ';
#else
    return p[0] == ' ' && p[1] == ':' && p[2] == ' ' && (unsigned char)p[3] > ' ';
#endif
}

/* A key's closing quote to just past its ':', on one line, with *value the first byte after
 * the blanks that follow: `" : v`, as PowSyBl writes a member, settled in one test. NULL: not
 * that shape. */
static inline const char *colon_and_value(const char *p, const char *end, const char **value)
{
    if (end - p >= 4 && spaced_colon(p)) {
        *value = p + 3;
        return p + 2;
    }
    if ((p = colon_on_line(p, end)) != NULL)
        *value = blanks(p, end);
    return p;
}

/* The plain string at `quote`, whole in the window and within max_string_len, as `t`.
 * false (nothing touched) when it needs the general path. */
static inline bool plain_string(const ctg_lexer *lx, ctg_token *t, const char *quote)
{
    const char *s = quote + 1, *q = scan_plain_value(s, lx->end);

    if (q == lx->end || *q != '"' || (size_t)(q - s) > lx->lim.max_string_len)
        return false;
    t->str = s;
    t->len = (size_t)(q - s);
    t->has_nul = false;
    t->offset = pos(lx, quote);
    t->line = lx->line;
    t->line_start = lx->line_start;
    return true;
}

/* The general path from where a fast path stopped: `p` (whitespace and a comma skipped, lines
 * counted) in state `st`, with lx->cur and lx->state still where the last token left them, as
 * ctg_lexer_next would have them at that point. So it reads or fails exactly as ctg_lexer_next
 * alone, offsets after a failure included. */
COLD static int next_from(ctg_lexer *lx, ctg_token *t, ctg_error *err, const char *p, int st)
{
    int rc = lex_from(lx, t, p, st);

    if (rc != CTG_OK && err != NULL)
        *err = lx->err;
    return rc;
}

/* Whether the 2 bytes at `p` are ", ": one compare where the byte order allows. */
static inline bool comma_space(const char *p)
{
#ifdef CTG_LEX_SWAR
    uint16_t w;

    memcpy(&w, p, sizeof(w));
    return w == (',' | ' ' << 8);
#else
    return p[0] == ',' && p[1] == ' ';
#endif
}

/* Whether the 2 bytes at `p` are ",\n": one compare where the byte order allows. */
static inline bool comma_newline(const char *p)
{
#ifdef CTG_LEX_SWAR
    uint16_t w;

    memcpy(&w, p, sizeof(w));
    return w == (',' | '\n' << 8);
#else
    return p[0] == ',' && p[1] == '\n';
#endif
}

/* What lex() does before a token: skips whitespace (counting lines) and, in a state that takes
 * one, a ',' (*st becomes the state after it) and the whitespace after it. Returns the token's
 * first byte, or the end of the window. */
static inline const char *before_token(ctg_lexer *lx, int *st)
{
    const char *p = lx->cur, *end = lx->end;

    /* ",\n" and an indentation: what comes between two members or items of a pretty file. */
    if (end - p >= 2 && comma_newline(p) && (*st & F_COMMA)) {
        *st = after_comma(*st);
        p = newline(lx, p + 2, end);
        return p < end && (unsigned char)*p > ' ' ? p : skip_ws(lx, p, end);
    }
    p = skip_ws(lx, p, end);
    if (p != lx->end && *p == ',' && (*st & F_COMMA)) {
        *st = after_comma(*st);
        p = skip_ws(lx, p + 1, lx->end);
    }
    return p;
}

static inline void mark_token(const ctg_lexer *lx, ctg_token *t, const char *p)
{
    t->offset = pos(lx, p);
    t->line = lx->line;
    t->line_start = lx->line_start;
}

/* A bracket at `p` that the state allows and that cannot fail (depth within the limit, room on
 * the container stack): read as lex_token would. false: leave it to the general path. */
static inline bool bracket(ctg_lexer *lx, ctg_token *t, const char *p, int st)
{
    switch (*p) {
    case '{':
    case '[':
        if (!(st & F_VALUE) || lx->depth >= lx->lim.max_depth
            || lx->depth / 8 >= (lx->stack ? lx->stack_cap : sizeof(lx->stack_small)))
            return false;
        mark_token(lx, t, p);
        return open_container(lx, t, p, *p == '{') == CTG_OK;
    case '}':
        if (!(st & F_CLOSE_OBJECT))
            return false;
        mark_token(lx, t, p);
        return close_container(lx, t, p, CTG_TOK_OBJECT_END) == CTG_OK;
    case ']':
        if (!(st & F_CLOSE_ARRAY))
            return false;
        mark_token(lx, t, p);
        return close_container(lx, t, p, CTG_TOK_ARRAY_END) == CTG_OK;
    default:
        return false;
    }
}

int ctg_lexer_item(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    int st = lx->state;
    const char *p;

    if (st != S_ARRAY_AFTER && st != S_ARRAY_FIRST)
        return ctg_lexer_next(lx, tok, err);
    p = lx->cur;
    /* "}, {", "[ {" and "} ]", as PowSyBl writes an array of objects, settled before the
     * general skip (which reaches the same position and state). */
    if (lx->end - p >= 3 && comma_space(p) && p[2] == '{' && (st & F_COMMA)) {
        st = after_comma(st);
        p += 2;
    } else if (lx->end - p >= 2 && p[0] == ' ' && (p[1] == '{' || p[1] == ']')) {
        p++;
    } else {
        p = before_token(lx, &st);
    }
    if (p != lx->end && bracket(lx, tok, p, st))
        return CTG_OK;
    return next_from(lx, tok, err, p, st);
}

/* Whether the key at `quote` is exactly the hint: no scan for its end. Any byte but the
 * hint's own or a '"' ends the match, so a key that needs decoding never matches. */
static inline bool hinted_key(const ctg_lexer *lx, const char *quote, const char *hint, size_t len)
{
    /* quote[len + 1] must be in the window: len + 1 < end - quote, written without overflow. */
    return hint != NULL && len < (size_t)(lx->end - quote) - 1 && quote[len + 1] == '"'
           && len <= lx->lim.max_string_len && ctg_short_eq(quote + 1, hint, len);
}

/* ctg_lexer_member's general path: `rc` is the status of reading the next token into `val`,
 * which is copied to `key` when it is a key. */
static int as_member(ctg_lex_member *m, const ctg_token *val, int rc)
{
    ctg_token *key = &m->key;

    if (rc != CTG_OK || val->type != CTG_TOK_KEY)
        return rc; /* CTG_OK is CTG_LEX_OTHER */
    /* Field by field: a whole-struct copy of what was just stored stalls store forwarding. */
    key->type = CTG_TOK_KEY;
    key->str = val->str;
    key->len = val->len;
    key->has_nul = val->has_nul;
    key->offset = val->offset;
    key->line_start = val->line_start;
    key->line = val->line;
    m->hinted = false;
    m->value_ready = false;
    return CTG_LEX_KEY;
}

/* The member value at `p` (in the window) when it is a boolean or an integer small_integer
 * takes, read as lex_token would read it; lx->state is the caller's. false: nothing changed. */
static inline bool scalar(ctg_lexer *lx, ctg_token *t, const char *p)
{
    size_t left = (size_t)(lx->end - p);

    if (*p == 't' && left >= 4 && memcmp(p, "true", 4) == 0) {
        t->type = CTG_TOK_TRUE;
        lx->cur = p + 4;
    } else if (*p == 'f' && left >= 5 && memcmp(p, "false", 5) == 0) {
        t->type = CTG_TOK_FALSE;
        lx->cur = p + 5;
    } else if ((unsigned char)(*p - '0') >= 10 || !small_integer(lx, t, p)) {
        return false;
    }
    mark_token(lx, t, p);
    return true;
}

static inline const char *number_end(const ctg_lexer *lx, const char *p);
static inline const char *string_end(const ctg_lexer *lx, const char *quote);

/* The end of the value at `p` (a member's, after the blanks that follow its ':') when it is a
 * plain string or a number the fast path takes; NULL otherwise. */
static inline const char *scalar_end(const ctg_lexer *lx, const char *p)
{
    if (p == lx->end)
        return NULL;
    return *p == '"'                                       ? string_end(lx, p)
           : *p == '-' || (unsigned char)(*p - '0') < 10 ? number_end(lx, p)
                                                           : NULL;
}

/* The value of a member the sieve passes over, lx->cur just past its ':', `q` its end when
 * scalar_end found one: skipped as ctg_lexer_skip_next skips it, a plain string or a number
 * on the colon's line in place. */
static HOT_INLINE int sift(ctg_lexer *lx, ctg_token *val, ctg_error *err, const char *q)
{
    if (q == NULL)
        return ctg_lexer_skip_next(lx, val, err);
    /* `val` is not set: the member loop reads the next token into it, or fails. */
    lx->cur = q;
    lx->state = S_OBJECT_AFTER;
    return CTG_OK;
}

/* Whether the sieve passes over the member whose key is the `len` bytes at `s`. */
static inline bool sifted(const ctg_key_sieve *sv, const char *s, size_t len)
{
    unsigned letter = (unsigned char)s[0] - (unsigned)'a';

    return len < 64 && len <= sv->max_len && letter < 26 && !((sv->keep[len] >> letter) & 1u);
}

/* Whether the key from `s` to its quote `q` is the sieve's `plain` one and its value, on the
 * key's line, a plain string, in the window and within max_string_len: then passed over (the
 * string, as lex_string would read it, has no U+0000), lx left after it and the string in
 * `val`, the current token as when the caller read it (a failure before the next token is
 * placed there). false: nothing changed. */
static inline bool plain_member(ctg_lexer *lx, const ctg_key_sieve *sv, ctg_token *val,
                                const char *s, const char *q)
{
    size_t len = (size_t)(q - s);
    const char *colon, *p;

    if (sv->plain == NULL || len != sv->plain_len || len > sv->max_len
        || !ctg_short_eq(s, sv->plain, len)
        || (colon = colon_and_value(q + 1, lx->end, &p)) == NULL || p == lx->end || *p != '"'
        || !plain_string(lx, val, p))
        return false;
    val->type = CTG_TOK_STRING;
    lx->cur = val->str + val->len + 1;
    lx->state = S_OBJECT_AFTER;
    return true;
}

/* member's key, whose ':' ends at `colon`, and its value at `p` when it is read here: a plain
 * string, or with a sieve a short scalar (else the caller reads it). */
static HOT_INLINE int member_value(ctg_lexer *lx, const ctg_key_sieve *sv, ctg_lex_member *m,
                                   ctg_token *val, const char *colon, const char *p)
{
    m->key.type = CTG_TOK_KEY;
    lx->state = S_AFTER_COLON;
    lx->cur = colon;
    if (p != lx->end && *p == '"' && plain_string(lx, val, p)) {
        val->type = CTG_TOK_STRING;
        lx->cur = val->str + val->len + 1;
    } else if (sv == NULL || p == lx->end || !scalar(lx, val, p)) {
        m->value_ready = false;
        return CTG_LEX_KEY;
    }
    lx->state = S_OBJECT_AFTER;
    m->value_ready = true;
    return CTG_LEX_KEY;
}

/* The common case: a plain key (often the hint) and its ':' on one line, then, when it follows
 * on the same line, a plain string value. With a sieve, the members it passes over are skipped
 * here, each as ctg_lexer_skip_next would skip its value. */
static HOT_INLINE int member(ctg_lexer *lx, const char *hint, size_t hint_len,
                             const ctg_key_sieve *sv, ctg_lex_member *m, ctg_token *val,
                             ctg_error *err)
{
    int st = lx->state, rc;
    ctg_token *key = &m->key;
    const char *p, *colon, *s, *q, *v, *end;

again:
    if (st != S_OBJECT_AFTER && st != S_OBJECT_FIRST)
        return as_member(m, val, ctg_lexer_next(lx, val, err));
    p = before_token(lx, &st);
    if (p == lx->end)
        goto general;
    if (*p == '}')
        return bracket(lx, val, p, st) ? CTG_LEX_OTHER : next_from(lx, val, err, p, st);
    if (*p != '"' || !(st & F_KEY))
        goto general;
    s = p + 1;
    if ((m->hinted = hinted_key(lx, p, hint, hint_len)))
        q = s + hint_len;
    else if ((q = scan_plain(s, lx->end)) == lx->end || *q != '"'
             || (size_t)(q - s) > lx->lim.max_string_len)
        goto general;
    /* A member the sieve passes over is settled before its key becomes a token (`end` is its
     * value's, or NULL: skipped token by token; with scalars_only, kept). */
    if (sv != NULL && sifted(sv, s, (size_t)(q - s))
        && (colon = colon_and_value(q + 1, lx->end, &v)) != NULL
        && ((end = scalar_end(lx, v)) != NULL || !sv->scalars_only)) {
        lx->state = S_AFTER_COLON;
        lx->cur = colon;
        if ((rc = sift(lx, val, err, end)) != CTG_OK)
            return rc;
        st = lx->state;
        goto again;
    }
    if (sv != NULL && plain_member(lx, sv, val, s, q)) {
        st = lx->state;
        goto again;
    }
    key->str = s;
    key->len = (size_t)(q - s);
    key->has_nul = false;
    mark_token(lx, key, p);
    if ((colon = colon_and_value(q + 1, lx->end, &p)) == NULL)
        goto general;
    return member_value(lx, sv, m, val, colon, p);
general:
    return as_member(m, val, next_from(lx, val, err, p, st));
}

int ctg_lexer_member(ctg_lexer *lx, const char *hint, size_t hint_len, ctg_lex_member *m,
                     ctg_token *val, ctg_error *err)
{
    return member(lx, hint, hint_len, NULL, m, val, err);
}

int ctg_lexer_member_sifted(ctg_lexer *lx, const char *hint, size_t hint_len,
                            const ctg_key_sieve *sv, ctg_lex_member *m, ctg_token *val,
                            ctg_error *err)
{
    return member(lx, hint, hint_len, sv, m, val, err);
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
static const char *number_end_any(const ctg_lexer *lx, const char *p)
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

/* number_end_any, settled from one load of eight bytes for what PowSyBl writes most: an
 * integer or a decimal of at most seven bytes after the sign, with no exponent and no leading
 * zero before another digit. Numbers of varying length would make a byte loop's exit branch a
 * guess each time. */
static inline const char *number_end(const ctg_lexer *lx, const char *p)
{
#ifdef CTG_LEX_SWAR
    const char *s = p + (*p == '-');
    uint64_t bad;
    size_t i, j;

    if (lx->end - s < 8 || (bad = non_digits(load8(s))) == 0)
        return number_end_any(lx, p);
    i = first_flagged(bad);
    if (i == 0 || (i > 1 && *s == '0'))
        return number_end_any(lx, p);
    if (s[i] == '.' && i < 7 && (bad &= ~(uint64_t)0 << (8 * (i + 1))) != 0
        && (j = first_flagged(bad)) > i + 1)
        i = j;
    if ((byte_class[(unsigned char)s[i]] & C_NUM) || (size_t)(s + i - p) > lx->lim.max_string_len)
        return number_end_any(lx, p);
    return s + i;
#else
    return number_end_any(lx, p);
#endif
}

/* Past the closing quote of the plain string at `quote`, when lex_string would take it as it
 * is (whole in the window, within max_string_len). NULL otherwise. */
static inline const char *string_end(const ctg_lexer *lx, const char *quote)
{
    const char *s = quote + 1, *q = scan_plain_value(s, lx->end);

    return q < lx->end && *q == '"' && (size_t)(q - s) <= lx->lim.max_string_len ? q + 1 : NULL;
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
    unsigned line;
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
        q->line += q->line != UINT_MAX;
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
            q->line += q->line != UINT_MAX;
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

/* The string at q->p (its quote), when its raw text needs no check beyond what is here:
 * plain bytes, well-formed UTF-8 (names in skipped parts of real files have accents) and short
 * escapes, no longer than max_string_len. */
static HOT_INLINE bool quick_string(const ctg_lexer *lx, quick *q)
{
    const char *s = q->p + 1, *e = q->end, *p = s;
    uint32_t cp;
    size_t n;

    for (;;) {
        p = scan_plain(p, e);
        if (p == e)
            return false;
        if (*p == '"')
            break;
        if ((unsigned char)*p >= 0x80) {
            if ((n = ctg_utf8_sequence((const unsigned char *)p, (size_t)(e - p), &cp)) == 0)
                return false;
            p += n;
            continue;
        }
        if (*p != '\\' || e - p < 2 || !short_escape(p[1]))
            return false;
        p += 2;
    }
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
        if (q->end - q->p >= 4 && q->p[0] == ' ' && q->p[1] == ':' && q->p[2] == ' '
            && (unsigned char)q->p[3] > ' ') {
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

/* The scan of the container just opened (lx->state S_OBJECT_FIRST or S_ARRAY_FIRST) to its
 * end. false: it needs the token path, and nothing changed. */
static bool quick_scan(const ctg_lexer *lx, quick *q, const char **close)
{
    bool open = true; /* right after an opening bracket: it may close at once */
    unsigned depth;
    size_t levels = 8 * (lx->stack ? lx->stack_cap : sizeof(lx->stack_small));
    size_t room = lx->lim.max_depth < levels ? lx->lim.max_depth : levels;

    /* Levels within the depth limit and the stack's bytes, at most the 64 bits of `objects`. */
    room -= lx->depth - 1;
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
                return true;
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

/* The container just opened, skipped whole by the quick scan and left as the token path would
 * leave it after its closing bracket. false: nothing changed. */
static bool quick_skip(ctg_lexer *lx, ctg_token *t)
{
    quick q = { lx->cur, lx->end, NULL, lx->line, 1, 0, lx->state == S_OBJECT_FIRST };
    const char *close = NULL;

    if (!quick_scan(lx, &q, &close))
        return false;
    lx->line = q.line;
    if (q.ls != NULL)
        lx->line_start = pos(lx, q.ls);
    mark_token(lx, t, close);
    close_container(lx, t, close, *close == '}' ? CTG_TOK_OBJECT_END : CTG_TOK_ARRAY_END);
    return true;
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
