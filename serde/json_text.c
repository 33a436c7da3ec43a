/* SPDX-License-Identifier: MPL-2.0 */
/* Compact JSON text as the reader keeps extension values: walked token by token without
 * recursion, and written back through the emitter in PowSyBl's layout at any depth. */

#include <stdint.h>
#include <string.h>

#include "model/alloc.h"
#include "model/utf8.h"
#include "serde/ext_internal.h"
#include "serde/jdouble.h"
#include "serde/lexer.h"

void ctg_jtext_init(ctg_jtext *w, const char *text, size_t len, const ctg_allocator *a)
{
    w->p = text;
    w->end = text + len;
    w->alloc = a;
    w->buf = NULL;
    w->cap = 0;
}

void ctg_jtext_dispose(ctg_jtext *w)
{
    ctg_mem_release(w->alloc, w->buf, w->cap);
    w->buf = NULL;
    w->cap = 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : 0;
}

static uint32_t hex4(const char *p)
{
    return (uint32_t)(hex_digit(p[0]) << 12 | hex_digit(p[1]) << 8 | hex_digit(p[2]) << 4
                      | hex_digit(p[3]));
}

static char unescape(char c)
{
    switch (c) {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return c; /* '"', '\\', '/' */
    }
}

/* Decodes the escapes of the string body [p, q) into w->buf; returns the decoded length. The
 * text is valid JSON (a surrogate pair is whole), so nothing is checked again here. */
static size_t decode(ctg_jtext *w, const char *p, const char *q)
{
    char *o = w->buf;

    while (p < q) {
        uint32_t cp;
        if (*p != '\\') {
            *o++ = *p++;
            continue;
        }
        if (p[1] != 'u') {
            *o++ = unescape(p[1]);
            p += 2;
            continue;
        }
        cp = hex4(p + 2);
        p += 6;
        if (cp >= 0xD800 && cp < 0xDC00 && q - p >= 6) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(p + 2) - 0xDC00);
            p += 6;
        }
        o += ctg_utf8_encode(cp, o);
    }
    return (size_t)(o - w->buf);
}

/* The string whose opening quote is at w->p: its bytes in *s, *n. */
static int string(ctg_jtext *w, const char **s, size_t *n)
{
    const char *p = w->p + 1, *q = p;
    bool escaped = false;

    while (q < w->end && *q != '"') {
        if (*q == '\\') {
            escaped = true;
            q++;
        }
        q++;
    }
    w->p = q + 1;
    if (!escaped) {
        *s = p;
        *n = (size_t)(q - p);
        return CTG_OK;
    }
    if ((size_t)(q - p) > w->cap) {
        char *b = ctg_mem_alloc(w->alloc, (size_t)(q - p));
        if (b == NULL)
            return CTG_ENOMEM;
        ctg_mem_release(w->alloc, w->buf, w->cap);
        w->buf = b;
        w->cap = (size_t)(q - p);
    }
    *s = w->buf;
    *n = decode(w, p, q);
    return CTG_OK;
}

static bool is_blank_or_separator(char c)
{
    return c == ',' || c == ':' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* A string followed by ':' is a key. */
static int string_token(ctg_jtext *w, const char **s, size_t *n)
{
    const char *after;
    int rc = string(w, s, n);

    if (rc != CTG_OK)
        return rc;
    for (after = w->p; after < w->end && (*after == ' ' || *after == '\n'); after++)
        ;
    return after < w->end && *after == ':' ? CTG_JT_KEY : CTG_JT_STRING;
}

static int number_token(ctg_jtext *w, const char **s, size_t *n)
{
    const char *q = w->p;

    do /* at least one byte, so that a walk always ends */
        q++;
    while (q < w->end && (*q == '-' || *q == '+' || *q == '.' || *q == 'e' || *q == 'E'
                          || (*q >= '0' && *q <= '9')));
    *s = w->p;
    *n = (size_t)(q - w->p);
    w->p = q;
    return CTG_JT_NUMBER;
}

int ctg_jtext_next(ctg_jtext *w, const char **s, size_t *n)
{
    while (w->p < w->end && is_blank_or_separator(*w->p))
        w->p++;
    if (w->p == w->end)
        return CTG_JT_END;
    switch (*w->p) {
    case '{': w->p++; return CTG_JT_OBJECT_BEGIN;
    case '}': w->p++; return CTG_JT_OBJECT_END;
    case '[': w->p++; return CTG_JT_ARRAY_BEGIN;
    case ']': w->p++; return CTG_JT_ARRAY_END;
    case '"': return string_token(w, s, n);
    case 't': w->p += 4; return CTG_JT_TRUE;
    case 'f': w->p += 5; return CTG_JT_FALSE;
    case 'n': w->p += 4; return CTG_JT_NULL;
    default: return number_token(w, s, n);
    }
}

bool ctg_jtext_is_integer(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E')
            return false;
    return true;
}

/* ---- writing ----------------------------------------------------------------------------- */

/* Integers as integers, doubles as Java's Double.toString writes them (as PowSyBl does). */
static void emit_number(ctg_emitter *e, const char *s, size_t n)
{
    int64_t i;
    double d;

    if (ctg_jtext_is_integer(s, n)) {
        /* JSON has no leading zeros: an integer's text is its own layout, but for "-0". */
        if (!ctg_parse_int64(s, n, &i))
            ctg_emit_fail(e, CTG_EINVAL, "an integer beyond the 64-bit signed range cannot be "
                                         "written");
        else if (n == 2 && s[0] == '-')
            ctg_emit_int(e, i);
        else
            ctg_emit_number_text(e, s, n);
    } else if (ctg_double_text_is_java(s, n)) {
        ctg_emit_number_text(e, s, n); /* as PowSyBl wrote it: no need to parse and format */
    } else if (ctg_parse_double(s, n, &d)) {
        ctg_emit_double(e, d);
    } else {
        ctg_emit_fail(e, CTG_EINVAL, "a number that is not finite cannot be written");
    }
}

static void emit_token(ctg_emitter *e, int t, const char *s, size_t n)
{
    switch (t) {
    case CTG_JT_OBJECT_BEGIN: ctg_emit_object_begin(e); break;
    case CTG_JT_OBJECT_END: ctg_emit_object_end(e); break;
    case CTG_JT_ARRAY_BEGIN: ctg_emit_array_begin(e); break;
    case CTG_JT_ARRAY_END: ctg_emit_array_end(e); break;
    case CTG_JT_KEY: ctg_emit_key(e, s, n); break;
    case CTG_JT_STRING: ctg_emit_string(e, s, n); break;
    case CTG_JT_NUMBER: emit_number(e, s, n); break;
    case CTG_JT_TRUE: ctg_emit_bool(e, true); break;
    case CTG_JT_FALSE: ctg_emit_bool(e, false); break;
    default: ctg_emit_null(e); break;
    }
}

void ctg_emit_json_text(ctg_emitter *e, const char *text, size_t len)
{
    ctg_jtext w;
    const char *s = NULL;
    size_t n = 0;
    int t;

    ctg_jtext_init(&w, text, len, e->alloc);
    while (e->status == CTG_OK && (t = ctg_jtext_next(&w, &s, &n)) != CTG_JT_END) {
        if (t < 0)
            ctg_emit_fail(e, t, "out of memory");
        else
            emit_token(e, t, s, n);
    }
    ctg_jtext_dispose(&w);
}
