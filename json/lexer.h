/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_JSON_LEXER_H
#define CTG_JSON_LEXER_H

/* Private: a strict RFC 8259 pull lexer over a refillable buffer.
 *
 * The lexer validates the whole grammar (commas, colons, nesting, one root value, nothing but
 * whitespace after it), so its callers only see a well-formed token sequence. Strings are
 * checked for UTF-8 and decoded (escapes, surrogate pairs; lone surrogates rejected). One
 * leading UTF-8 BOM is skipped. Numbers are parsed independently of the locale.
 *
 * Positions are byte offsets from the first byte of the input, BOM included: after a BOM the
 * first token is at offset 3, line 1, column 4. Only '\n' starts a line (CRLF counts once; a
 * lone '\r' is plain whitespace). Errors point at the offending byte: the backslash of a bad
 * escape or lone surrogate, the first byte of an invalid UTF-8 sequence, the end of the input
 * when it ends too early, the opening quote of a string (or the first byte of a number) that
 * is longer than max_string_len. A number's text also counts against max_string_len, and a
 * string's raw text may not exceed 6 * max_string_len + 2 bytes (the refill buffer's bound).
 * In memory mode and with any refill size, a document gives the same tokens or the same
 * error. Memory mode allocates nothing unless a string has escapes or nesting passes 64. */

#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "base/internal.h"
#include "ctg/common.h"
#include "ctg/error.h"

typedef enum ctg_tok {
    CTG_TOK_EOF = 0, /* after the root value: only whitespace remained */
    CTG_TOK_OBJECT_BEGIN,
    CTG_TOK_OBJECT_END,
    CTG_TOK_ARRAY_BEGIN,
    CTG_TOK_ARRAY_END,
    CTG_TOK_KEY, /* an object member name; the ':' is consumed with it */
    CTG_TOK_STRING,
    CTG_TOK_NUMBER,
    CTG_TOK_TRUE,
    CTG_TOK_FALSE,
    CTG_TOK_NULL
} ctg_tok;

typedef struct ctg_token {
    ctg_tok type;
    /* KEY and STRING: decoded UTF-8, `len` bytes, not NUL-terminated. Points into the input
     * buffer or the lexer's scratch; valid until the next ctg_lexer_next call. */
    const char *str;
    size_t len;
    bool has_nul; /* the decoded string holds U+0000 */
    /* NUMBER: the value (finite; overflow is a syntax error) and its source text. */
    double number;
    bool is_integer; /* no fraction and no exponent */
    const char *raw;
    size_t raw_len;
    /* Position of the token's first byte. column = offset - line_start + 1. */
    size_t offset;
    size_t line_start; /* offset of the first byte of the token's line */
    unsigned line;     /* 1-based */
} ctg_token;

/* Where a token was, kept for errors reported later (missing fields, duplicate keys). Lines
 * and columns saturate at UINT_MAX (ctg_error says so), offsets never do. */
typedef struct ctg_mark {
    size_t offset;
    size_t line_start;
    unsigned line;
} ctg_mark;

/* The 1-based column of `offset` on the line starting at `line_start`, saturated. */
static inline unsigned ctg_column(size_t offset, size_t line_start)
{
    size_t col = offset - line_start + 1;

    return col > UINT_MAX ? UINT_MAX : (unsigned)col;
}

/* Pulls up to `cap` bytes into `dst`; sets *got (0 = end of input). Returns CTG_OK or
 * CTG_EIO (then it fills err->message; the lexer fills the rest). */
typedef int (*ctg_refill_fn)(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err);

typedef struct ctg_lex_source {
    /* Memory mode (refill == NULL): the whole input, used in place, never copied. */
    const char *data;
    size_t len;
    /* Refill mode. */
    ctg_refill_fn refill;
    void *ctx;
} ctg_lex_source;

typedef struct ctg_lex_limits {
    size_t max_depth;         /* 0 = CTG_DEFAULT_MAX_DEPTH (64) */
    size_t max_string_len;    /* decoded bytes; 0 = 64 MiB */
    size_t max_document_size; /* 0 = unlimited */
} ctg_lex_limits;

#define CTG_LEX_BUFFER_SIZE ((size_t)64 * 1024)

typedef struct ctg_lexer {
    /* Private to lexer.c; in the header only so that callers can embed the struct. */
    ctg_lex_source src;
    ctg_lex_limits lim; /* with the defaults filled in (no limit = SIZE_MAX) */
    const ctg_allocator *alloc;
    const char *win; /* first byte of the window: src.data or buf */
    const char *cur; /* next byte to scan */
    const char *end; /* end of valid bytes */
    const char *tok; /* start of the token being scanned: a refill keeps it */
    char *buf;       /* refill mode: owned buffer */
    size_t cap;
    size_t base; /* stream offset of the first byte of the window */
    uintptr_t origin; /* base - (uintptr_t)win: a pointer plus it is its stream offset */
    bool eof;    /* nothing follows `end` */
    bool over;   /* input goes on past max_document_size */
    unsigned line;
    size_t line_start;
    size_t depth;
    unsigned char stack_small[8]; /* the container stack while it fits in 64 bits */
    unsigned char *stack;         /* one bit per open container: 1 = object; NULL = stack_small */
    size_t stack_cap;             /* bytes */
    int state;                    /* what the grammar expects next */
    char *scratch;                /* decoded strings with escapes, keys kept across a refill */
    size_t scratch_cap;
    int status;    /* after EOF or an error: the result that repeats */
    ctg_error err; /* the error that repeats */
} ctg_lexer;

/* Prepares `lx` over `src`; `a` may be NULL (malloc) and must outlive the lexer.
 * Returns CTG_OK or CTG_ENOMEM. */
CTG_INTERNAL int ctg_lexer_init(ctg_lexer *lx, const ctg_lex_source *src, const ctg_lex_limits *lim,
                                const ctg_allocator *a);
/* For a lexer in memory mode before its first token: reads the input as the items of an array
 * whose '[' came before it (depth 1, a value or ']' next), for a reader of one part of an
 * array. The end of the input is then an error unless the caller stops at an item's end. */
CTG_INTERNAL void ctg_lexer_enter_array(ctg_lexer *lx);
/* Releases the lexer's buffers. Accepts a zeroed or disposed lexer. */
CTG_INTERNAL void ctg_lexer_dispose(ctg_lexer *lx);

/* Reads the next token into `tok`. On failure returns CTG_ESYNTAX, CTG_ELIMIT, CTG_EIO or
 * CTG_ENOMEM and fills `err` (code, line, column, offset, message; not source or path).
 * After EOF or an error, further calls repeat the same result. */
CTG_INTERNAL int ctg_lexer_next(ctg_lexer *lx, ctg_token *tok, ctg_error *err);

/* The hot path of an array: ctg_lexer_next, quicker on an item's opening bracket and on the
 * array's end. */
CTG_INTERNAL int ctg_lexer_item(ctg_lexer *lx, ctg_token *tok, ctg_error *err);

/* What ctg_lexer_member returns when it read a member's key, or another token. */
enum { CTG_LEX_OTHER = 0, CTG_LEX_KEY = 1 };

/* A member's key as ctg_lexer_member read it. */
typedef struct ctg_lex_member {
    ctg_token key;
    bool hinted;      /* the key is the hint, matched in place: no look-up needed */
    bool value_ready; /* its value's first token is in `val` already (a plain string; with
                         a sieve a short scalar; in the reader's inline copy an opening
                         bracket); false: the next call reads it */
} ctg_lex_member;

/* The hot path of an object: reads the next token as ctg_lexer_next does. A key goes into
 * m->key and, when its value is a plain string already in the window, that string into `val`
 * too (both then stay valid until the next call); any other token goes into `val`. `hint`
 * (`hint_len` bytes, plain ASCII, may be NULL) is the key expected next: when the input holds
 * exactly it, it is matched in place. Returns CTG_LEX_KEY (with every field of `m` set),
 * CTG_LEX_OTHER (the token in `val`; `m` not written) or a negative status (filling `err` as
 * ctg_lexer_next does). */
CTG_INTERNAL int ctg_lexer_member(ctg_lexer *lx, const char *hint, size_t hint_len,
                                  ctg_lex_member *m, ctg_token *val, ctg_error *err);

/* The members ctg_lexer_member_sifted passes over: those whose key, plain and on one line with
 * its ':', is shorter than 64 bytes and than max_len + 1, starts with a lowercase letter c and
 * has bit (c - 'a') of keep[its length] clear; and those whose key is exactly `plain`
 * (`plain_len` bytes, at most max_len; NULL for none) and whose value, on the key's line, is a
 * plain string: a member that is only checked to be a string without U+0000 (that string is
 * left in `val`, the current token, as if it had been read). With `scalars_only`, only the
 * members of the first kind whose value, on the key's line, is a plain string or a number the
 * fast path takes are passed over; any other is handed over as when it is kept (for a
 * container, where an unknown array is an error at its '['). */
typedef struct ctg_key_sieve {
    uint32_t keep[64];
    size_t max_len;
    const char *plain;
    size_t plain_len;
    bool scalars_only;
} ctg_key_sieve;

/* ctg_lexer_member, but the members `sv` passes over are skipped as ctg_lexer_skip_next skips a
 * value (the same tokens, the same errors), and the next member or token is read instead; and
 * m->value_ready is also set when the value is a boolean or a non-negative integer of at most
 * 15 digits, then in `val` as ctg_lexer_next reads it. */
CTG_INTERNAL int ctg_lexer_member_sifted(ctg_lexer *lx, const char *hint, size_t hint_len,
                                         const ctg_key_sieve *sv, ctg_lex_member *m, ctg_token *val,
                                         ctg_error *err);

/* With `tok` the first token of a value, consumes the rest of that value (nested containers
 * included), leaving `tok` on its last token. It accepts and rejects exactly what reading the
 * value with ctg_lexer_next would, with the same errors, but does not decode what it skips:
 * plain strings are only scanned, numbers only checked. */
CTG_INTERNAL int ctg_lexer_skip_value(ctg_lexer *lx, ctg_token *tok, ctg_error *err);

/* Reads the next token as ctg_lexer_next does and, when it opens a container, the rest of that
 * container as ctg_lexer_skip_value does: the quick way past a value nobody needs. `tok` is
 * left with the type and position of the last token read; a skipped string's text and a
 * skipped number's value and text are not set. */
CTG_INTERNAL int ctg_lexer_skip_next(ctg_lexer *lx, ctg_token *tok, ctg_error *err);

/* Current nesting depth (open containers). */
CTG_INTERNAL size_t ctg_lexer_depth(const ctg_lexer *lx);

/* Bytes consumed so far (stream offset of the next unread byte). */
CTG_INTERNAL size_t ctg_lexer_offset(const ctg_lexer *lx);

/* Locale-independent, correctly rounded parse of a JSON number's text. false when the text is
 * not a JSON number or the value overflows to infinity. */
CTG_INTERNAL bool ctg_parse_double(const char *s, size_t len, double *out);

/* Checks that s[0..len) is exactly one JSON number (RFC 8259 grammar). On failure sets *bad to
 * the index of the offending byte (len when the text ends too early) and *why to a constant
 * message. *is_integer: no fraction and no exponent. */
CTG_INTERNAL bool ctg_number_check(const char *s, size_t len, bool *is_integer, size_t *bad,
                                   const char **why);

/* Parses a JSON integer's text into int64; false when it is not an integer or overflows. */
CTG_INTERNAL bool ctg_parse_int64(const char *s, size_t len, int64_t *out);

/* Equality of two byte runs of length n, for keys a few bytes long: two overlapping word
 * compares beat a call to memcmp. */
static inline bool ctg_short_eq(const char *a, const char *b, size_t n)
{
    uint64_t x, y, u, v;
    uint32_t p, q, r, t;

    if (n >= 8 && n <= 16) {
        memcpy(&x, a, 8), memcpy(&y, b, 8), memcpy(&u, a + n - 8, 8), memcpy(&v, b + n - 8, 8);
        return ((x ^ y) | (u ^ v)) == 0;
    }
    if (n >= 4 && n < 8) {
        memcpy(&p, a, 4), memcpy(&q, b, 4), memcpy(&r, a + n - 4, 4), memcpy(&t, b + n - 4, 4);
        return ((p ^ q) | (r ^ t)) == 0;
    }
    if (n == 2) { /* "id", the key of every contingency and element */
        uint16_t g, h;
        memcpy(&g, a, 2), memcpy(&h, b, 2);
        return g == h;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

#endif
