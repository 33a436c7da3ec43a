/* SPDX-License-Identifier: MPL-2.0 */
/* The lexer's fast paths, as inline functions: the grammar states, the byte scans, and the
 * member path that an object loop runs for every member. json/lexer.c builds every token on
 * them; a loop that reads many members (the reader's objects) includes this header to have the
 * member path inlined into it, which saves a call and its register saves per member. Each fast
 * path only takes what the general path would accept, and leaves the lexer as it would; the
 * rest goes to the general path (ctg_lex_next_from), so a value fails at the same byte with the
 * same message whichever path read it. Internal to the json layer.
 *
 * Included after json/lexer.h, whose types it works on, and not including it: json/lexer.c
 * includes this header, and the layer check counts json/lexer.c and json/lexer.h as one
 * module, which would then include this one and be included by it. */
#ifndef CTG_JSON_LEXER_FAST_H
#define CTG_JSON_LEXER_FAST_H

#ifndef CTG_JSON_LEXER_H
#error "json/lexer_fast.h is included after json/lexer.h"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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
    /* As signed bytes, control characters and every byte >= 0x80 are below 0x20; xor 0x02
     * keeps them there and moves '"' (0x22) to 0x20, and no other byte below 0x21: one
     * compare finds the three. */
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i hit = _mm_or_si128(_mm_cmplt_epi8(_mm_xor_si128(v, _mm_set1_epi8(0x02)),
                                              _mm_set1_epi8(0x21)),
                               _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));

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

/* ---- containers ------------------------------------------------------------------------ */

static inline unsigned char *stack_bits(ctg_lexer *lx)
{
    return lx->stack != NULL ? lx->stack : lx->stack_small;
}

/* Opens the container at `p`, once its depth and the room for its bit are known to be fine. */
static inline void push_container(ctg_lexer *lx, ctg_token *t, const char *p, bool object)
{
    size_t byte = lx->depth / 8;
    unsigned char bit = (unsigned char)(1u << (lx->depth % 8)), *bits = stack_bits(lx);

    bits[byte] = (unsigned char)(object ? bits[byte] | bit : bits[byte] & ~bit);
    lx->depth++;
    lx->cur = p + 1;
    lx->state = object ? S_OBJECT_FIRST : S_ARRAY_FIRST;
    t->type = object ? CTG_TOK_OBJECT_BEGIN : CTG_TOK_ARRAY_BEGIN;
}

/* The state after a complete value, from the container it sits in. */
static inline int after_value(const ctg_lexer *lx)
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

/* ---- tokens ---------------------------------------------------------------------------- */

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
 * alone, offsets after a failure included. Out of line, off the fast paths. */
CTG_INTERNAL int ctg_lex_next_from(ctg_lexer *lx, ctg_token *t, ctg_error *err, const char *p,
                                   int st);

/* Whether the 2 bytes at `p` are `a` then `b` (", " or ",\n" between items and members): one
 * compare where the byte order allows. */
static inline bool two_bytes(const char *p, char a, char b)
{
#ifdef CTG_LEX_SWAR
    uint16_t w;

    memcpy(&w, p, sizeof(w));
    return w == (uint16_t)((unsigned char)a | (unsigned char)b << 8);
#else
    return p[0] == a && p[1] == b;
#endif
}

/* What lex() does before a token: skips whitespace (counting lines) and, in a state that takes
 * one, a ',' (*st becomes the state after it) and the whitespace after it. Returns the token's
 * first byte, or the end of the window. */
static inline const char *before_token(ctg_lexer *lx, int *st)
{
    const char *p = lx->cur, *end = lx->end;

    /* ",\n" and an indentation: what comes between two members or items of a pretty file. */
    if (end - p >= 2 && two_bytes(p, ',', '\n') && (*st & F_COMMA)) {
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
static HOT_INLINE bool bracket(ctg_lexer *lx, ctg_token *t, const char *p, int st)
{
    switch (*p) {
    case '{':
    case '[':
        if (!(st & F_VALUE) || lx->depth >= lx->lim.max_depth
            || lx->depth / 8 >= (lx->stack ? lx->stack_cap : sizeof(lx->stack_small)))
            return false;
        mark_token(lx, t, p);
        push_container(lx, t, p, *p == '{');
        return true;
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

/* ctg_lexer_item, inline, for the reader's array loop. */
static HOT_INLINE int ctg_lexer_item_inline(ctg_lexer *lx, ctg_token *tok, ctg_error *err)
{
    int st = lx->state;
    const char *p;

    if (st != S_ARRAY_AFTER && st != S_ARRAY_FIRST)
        return ctg_lexer_next(lx, tok, err);
    p = lx->cur;
    /* "}, {", "[ {" and "} ]", as PowSyBl writes an array of objects, settled before the
     * general skip (which reaches the same position and state). */
    if (lx->end - p >= 3 && two_bytes(p, ',', ' ') && p[2] == '{' && (st & F_COMMA)) {
        st = after_comma(st);
        p += 2;
    } else if (lx->end - p >= 2 && p[0] == ' ' && (p[1] == '{' || p[1] == ']')) {
        p++;
    } else {
        p = before_token(lx, &st);
    }
    if (p != lx->end && bracket(lx, tok, p, st))
        return CTG_OK;
    return ctg_lex_next_from(lx, tok, err, p, st);
}

/* ctg_lexer_next for a member's value (lx->state just past its ':'): a bracket on the key's
 * line, a child array or an object that an importer reads, settled without the general
 * path's call chain; any other token as ctg_lexer_next reads it. */
CTG_INTERNAL int ctg_lex_member_value(ctg_lexer *lx, ctg_token *tok, ctg_error *err);

/* ---- members ---------------------------------------------------------------------------- */

/* The end of the number at `p` when lex_number would accept it as it is (see number_end). */
CTG_INTERNAL const char *ctg_lex_number_end_any(const ctg_lexer *lx, const char *p);

/* ctg_lex_number_end_any, settled from one load of eight bytes for what PowSyBl writes most: an
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
        return ctg_lex_number_end_any(lx, p);
    i = first_flagged(bad);
    if (i == 0 || (i > 1 && *s == '0'))
        return ctg_lex_number_end_any(lx, p);
    if (s[i] == '.' && i < 7 && (bad &= ~(uint64_t)0 << (8 * (i + 1))) != 0
        && (j = first_flagged(bad)) > i + 1)
        i = j;
    if ((byte_class[(unsigned char)s[i]] & C_NUM) || (size_t)(s + i - p) > lx->lim.max_string_len)
        return ctg_lex_number_end_any(lx, p);
    return s + i;
#else
    return ctg_lex_number_end_any(lx, p);
#endif
}

/* Past the closing quote of the plain string at `quote`, when lex_string would take it as it
 * is (whole in the window, within max_string_len). NULL otherwise. */
static inline const char *string_end(const ctg_lexer *lx, const char *quote)
{
    const char *s = quote + 1, *q = scan_plain_value(s, lx->end);

    return q < lx->end && *q == '"' && (size_t)(q - s) <= lx->lim.max_string_len ? q + 1 : NULL;
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

/* A member's value that the sieve passes over and that is no scalar the fast path takes, at
 * `v` (the first byte after the blanks that follow its ':', lx->cur just past it): skipped as
 * ctg_lexer_skip_next skips it, a literal in place and a container in one scan from its
 * bracket when they can. */
CTG_INTERNAL int ctg_lex_skip_member_value(ctg_lexer *lx, ctg_token *t, ctg_error *err,
                                           const char *v);

/* The value of a member the sieve passes over, lx->cur just past its ':', `q` its end when
 * scalar_end found one at `v`: skipped as ctg_lexer_skip_next skips it, a plain string or a
 * number on the colon's line in place. */
static HOT_INLINE int sift(ctg_lexer *lx, const ctg_key_sieve *sv, ctg_token *val,
                           ctg_error *err, const char *v, const char *q)
{
    if (q == NULL)
        return ctg_lex_skip_member_value(lx, val, err, v);
    /* With scalars_only (a container, whose caller read such a value before the sieve took
     * it), the value becomes the current token, its type and place as a skip leaves them, for
     * an error placed there; else `val` is not set: the member loop reads the next token into
     * it, or fails. */
    if (sv->scalars_only) {
        val->type = *v == '"' ? CTG_TOK_STRING : CTG_TOK_NUMBER;
        mark_token(lx, val, v);
    }
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
 * string; with `opens`, the bracket that opens an array or object value; with a sieve, a short
 * scalar. Else the caller reads it. */
static HOT_INLINE int member_value(ctg_lexer *lx, const ctg_key_sieve *sv, bool opens,
                                   ctg_lex_member *m, ctg_token *val, const char *colon,
                                   const char *p)
{
    m->key.type = CTG_TOK_KEY;
    lx->state = S_AFTER_COLON;
    lx->cur = colon;
    if (p != lx->end && *p == '"' && plain_string(lx, val, p)) {
        val->type = CTG_TOK_STRING;
        lx->cur = val->str + val->len + 1;
    } else if (opens && p != lx->end && (*p == '[' || *p == '{')) {
        /* bracket leaves the state inside the container; when it cannot take the bracket
         * (depth, room), nothing has changed and the caller's next call fails there. */
        m->value_ready = bracket(lx, val, p, S_AFTER_COLON);
        return CTG_LEX_KEY;
    } else if (sv == NULL || p == lx->end || !scalar(lx, val, p)) {
        m->value_ready = false;
        return CTG_LEX_KEY;
    }
    lx->state = S_OBJECT_AFTER;
    m->value_ready = true;
    return CTG_LEX_KEY;
}

/* ctg_lexer_member (sv NULL) or ctg_lexer_member_sifted, inline, and with `opens` (for a caller
 * that reads every value it is given, never passing over one whole) m->value_ready also when
 * the value opens an array or an object on the key's line: then its bracket is in `val` and the
 * lexer inside the container, as after the next call. The common case: a plain key (often the
 * hint) and its ':' on one line, then, when it follows on the same line, a plain string value.
 * With a sieve, the members it passes over are skipped here, each as ctg_lexer_skip_next would
 * skip its value. */
static HOT_INLINE int ctg_lexer_member_inline(ctg_lexer *lx, const char *hint, size_t hint_len,
                                              const ctg_key_sieve *sv, bool opens,
                                              ctg_lex_member *m, ctg_token *val, ctg_error *err)
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
        return bracket(lx, val, p, st) ? CTG_LEX_OTHER : ctg_lex_next_from(lx, val, err, p, st);
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
        if ((rc = sift(lx, sv, val, err, v, end)) != CTG_OK)
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
    return member_value(lx, sv, opens, m, val, colon, p);
general:
    return as_member(m, val, ctg_lex_next_from(lx, val, err, p, st));
}

#endif
