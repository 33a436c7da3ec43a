/* SPDX-License-Identifier: MPL-2.0 */
/* Filling a ctg_error (error_set.h), and turning it into the one line users see. Every field
 * may hold bytes of the input (a key, an id, a file name), so each is escaped on the way out:
 * a document cannot forge a second diagnostic line or drive the terminal that shows it. */

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctg/error.h"
#include "base/error_set.h"
#include "base/utf8.h"

/* Where escaped text goes: `size` bytes at `buf`, and the length the whole text needs. */
typedef struct out {
    char *buf;
    size_t size;
    size_t len;
} out;

static void emit(out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - 1 - o->len, k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->buf[o->len + k] = '\0';
    }
    o->len += n;
}

/* Code points that print nothing and can reorder or break a line: C1 controls, zero-width and
 * bidirectional formatting, line and paragraph separators, the BOM, annotation marks. */
static bool invisible(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x200B && cp <= 0x200F)
           || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF
           || (cp >= 0xFFF9 && cp <= 0xFFFB);
}

static void emit_escape(out *o, const unsigned char *s, size_t n, uint32_t cp)
{
    static const char hex[] = "0123456789abcdef";
    char e[8] = { '\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
                  hex[cp & 15], 0, 0 };

    if (n == 0) { /* a byte that is not UTF-8 */
        char x[4] = { '\\', 'x', hex[s[0] >> 4], hex[s[0] & 15] };
        emit(o, x, 4);
    } else if (cp == '\n' || cp == '\t' || cp == '\r' || cp == '\\') {
        e[1] = cp == '\n' ? 'n' : cp == '\t' ? 't' : cp == '\r' ? 'r' : '\\';
        emit(o, e, 2);
    } else {
        emit(o, e, 6);
    }
}

/* Appends `text`, escaped: control characters as \n, \t, \r or \u00XX, a backslash doubled,
 * invisible code points as \uXXXX, bytes that are not UTF-8 as \xNN. */
static void emit_escaped(out *o, const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0;

    while (i < len) {
        uint32_t cp = s[i];
        size_t n = ctg_utf8_sequence(s + i, len - i, &cp);

        if (n != 0 && cp >= 0x20 && cp != 0x7F && cp != '\\' && !invisible(cp)) {
            i += n;
            continue;
        }
        emit(o, text + run, i - run);
        emit_escape(o, s + i, n, cp);
        i += n != 0 ? n : 1;
        run = i;
    }
    emit(o, text + run, len - run);
}

size_t ctg_escape_text(char *buf, size_t size, const char *text, size_t len)
{
    out o = { buf, size, 0 };

    if (size > 0)
        buf[0] = '\0';
    if (text != NULL)
        emit_escaped(&o, text, len);
    return o.len;
}

/* The bounded fields of `err`: a record filled by hand may lack its NUL. */
static size_t field_len(const char *s, size_t cap)
{
    const char *nul = memchr(s, '\0', cap);

    return nul != NULL ? (size_t)(nul - s) : cap;
}

/* Whether `err` is about a place in a document, so that its path means something ("" is then
 * the root, shown as "/"): an error with a line, with a path below the root, or a shape error
 * of an input without positions (a json-c tree). Bad arguments or options, I/O, memory and
 * writes have neither line nor path: printing "/" for them would point into no document. */
static bool has_place(const ctg_error *err)
{
    return err->line != 0 || err->path[0] != '\0' || err->code == CTG_ESYNTAX
           || err->code == CTG_ESCHEMA;
}

size_t ctg_error_format(const ctg_error *err, char *buf, size_t size)
{
    out o = { buf, size, 0 };
    char pos[48];

    if (size > 0)
        buf[0] = '\0';
    if (!err) {
        emit(&o, "<no error>", 10);
        return o.len;
    }
    emit_escaped(&o, err->source, field_len(err->source, sizeof err->source));
    if (err->line) {
        int n = snprintf(pos, sizeof pos, ":%u:%u", err->line, err->column);
        emit(&o, pos, (size_t)n);
    }
    emit(&o, ": error: ", 9);
    if (has_place(err)) {
        if (err->path[0])
            emit_escaped(&o, err->path, field_len(err->path, sizeof err->path));
        else
            emit(&o, "/", 1);
        emit(&o, ": ", 2);
    }
    emit_escaped(&o, err->message, field_len(err->message, sizeof err->message));
    return o.len;
}

/* ---- setting ------------------------------------------------------------------------------ */

int ctg_error_vset(ctg_error *err, int code, const ctg_error_place *at, const char *path,
                   const char *fmt, va_list ap)
{
    static const ctg_error_place nowhere = { 0, 0, 0 };

    if (at == NULL)
        at = &nowhere;
    err->code = (ctg_status)code;
    err->offset = at->offset;
    err->line = at->line;
    err->column = at->column;
    if (path != NULL && path != err->path) {
        size_t n = strlen(path);
        if (n >= sizeof err->path)
            n = sizeof err->path - 1;
        memcpy(err->path, path, n);
        err->path[n] = '\0';
    }
    if (fmt != NULL)
        vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

int ctg_error_set(ctg_error *err, int code, const ctg_error_place *at, const char *path,
                  const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    code = ctg_error_vset(err, code, at, path, fmt, ap);
    va_end(ap);
    return code;
}

void ctg_error_keep_tail(char *dst, size_t cap, const char *name)
{
    size_t len = strlen(name);

    if (len < cap) {
        memmove(dst, name, len + 1);
        return;
    }
    memcpy(dst, "...", 3);
    memcpy(dst + 3, name + len - (cap - 4), cap - 4 + 1);
}

void ctg_error_set_source(ctg_error *err, const char *name)
{
    ctg_error_keep_tail(err->source, sizeof err->source, name);
}

size_t ctg_error_path_append(char *path, size_t len, const char *seg, size_t seg_len)
{
    const size_t cap = CTG_ERROR_PATH_MAX - 1;

    if (len < cap)
        path[len++] = '/';
    for (size_t i = 0; i < seg_len && len < cap; i++) {
        char c = seg[i];
        if ((c == '~' || c == '/') && len + 1 < cap) {
            path[len++] = '~';
            c = c == '~' ? '0' : '1';
        }
        path[len++] = c;
    }
    path[len] = '\0';
    return len;
}

/* ---- naming ------------------------------------------------------------------------------- */

const char *ctg_status_name(int status)
{
    switch (status) {
    case CTG_OK: return "CTG_OK";
    case CTG_ENOMEM: return "CTG_ENOMEM";
    case CTG_EINVAL: return "CTG_EINVAL";
    case CTG_EIO: return "CTG_EIO";
    case CTG_ESYNTAX: return "CTG_ESYNTAX";
    case CTG_ESCHEMA: return "CTG_ESCHEMA";
    case CTG_EUNSUPPORTED: return "CTG_EUNSUPPORTED";
    case CTG_ELIMIT: return "CTG_ELIMIT";
    case CTG_ESTOPPED: return "CTG_ESTOPPED";
    default: return "CTG_UNKNOWN";
    }
}

int ctg_error_set_plain(ctg_error *err, const char *source, int code, const char *msg)
{
    if (msg != NULL)
        ctg_error_set(err, code, NULL, "", "%s", msg);
    else
        ctg_error_set(err, code, NULL, "", NULL);
    ctg_error_set_source(err, source);
    return code;
}
