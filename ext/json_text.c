/* SPDX-License-Identifier: MPL-2.0 */
/* Compact JSON text as the reader keeps extension values: walked token by token by the lexer,
 * without recursion, and written back through the emitter in PowSyBl's layout at any depth. */

#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "ext/ext.h"
#include "json/jdouble.h"
#include "json/lexer.h"

void ctg_jtext_init(ctg_jtext *w, const char *text, size_t len, const ctg_allocator *a)
{
    /* The text was read (or checked) within these limits; strings as long as a read allowed. */
    ctg_lex_limits lim = { CTG_MAX_DEPTH_LIMIT, SIZE_MAX, 0 };
    ctg_lex_source src = { text, len, NULL, NULL };

    w->status = ctg_lexer_init(&w->lx, &src, &lim, a);
}

void ctg_jtext_dispose(ctg_jtext *w)
{
    ctg_lexer_dispose(&w->lx);
}

int ctg_jtext_next(ctg_jtext *w, const char **s, size_t *n)
{
    static const int kinds[] = {
        [CTG_TOK_EOF] = CTG_JT_END,           [CTG_TOK_OBJECT_BEGIN] = CTG_JT_OBJECT_BEGIN,
        [CTG_TOK_OBJECT_END] = CTG_JT_OBJECT_END, [CTG_TOK_ARRAY_BEGIN] = CTG_JT_ARRAY_BEGIN,
        [CTG_TOK_ARRAY_END] = CTG_JT_ARRAY_END, [CTG_TOK_KEY] = CTG_JT_KEY,
        [CTG_TOK_STRING] = CTG_JT_STRING,     [CTG_TOK_NUMBER] = CTG_JT_NUMBER,
        [CTG_TOK_TRUE] = CTG_JT_TRUE,         [CTG_TOK_FALSE] = CTG_JT_FALSE,
        [CTG_TOK_NULL] = CTG_JT_NULL,
    };
    ctg_error err;

    if (w->status == CTG_OK)
        w->status = ctg_lexer_next(&w->lx, &w->tok, &err);
    if (w->status != CTG_OK)
        return w->status;
    if (w->tok.type == CTG_TOK_NUMBER) {
        *s = w->tok.raw;
        *n = w->tok.raw_len;
    } else {
        *s = w->tok.str;
        *n = w->tok.len;
    }
    return kinds[w->tok.type];
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
        if (t < 0) /* out of memory, or text that is not JSON (never what a read keeps) */
            ctg_emit_fail(e, t, t == CTG_ENOMEM ? "out of memory" : "invalid JSON text");
        else
            emit_token(e, t, s, n);
    }
    ctg_jtext_dispose(&w);
}
