/* SPDX-License-Identifier: MPL-2.0 */
/* Diagnostics as text or JSON Lines (diag.h). Every string may hold bytes of the input (an id,
 * a key, a file name): text goes through ctg_escape_text, JSON through json_string below, so
 * that no input can forge a second diagnostic or break the JSON a script parses. */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"

int cli_diag_format_parse(const char *value, cli_diag_format *out)
{
    if (value == NULL || strcmp(value, "text") == 0)
        *out = CLI_DIAG_TEXT;
    else if (strcmp(value, "json") == 0)
        *out = CLI_DIAG_JSON;
    else
        return -1;
    return 0;
}

/* ---- text --------------------------------------------------------------------------------- */

/* Writes `text` escaped by ctg_escape_text; -1 on a write error or when out of memory. */
static int put_escaped(FILE *out, const char *text)
{
    size_t len = strlen(text), need = ctg_escape_text(NULL, 0, text, len);
    char small[512], *buf = need < sizeof small ? small : malloc(need + 1);
    int rc;

    if (buf == NULL)
        return -1;
    ctg_escape_text(buf, need + 1, text, len);
    rc = fwrite(buf, 1, need, out) == need ? 0 : -1;
    if (buf != small)
        free(buf);
    return rc;
}

/* Whether `d` is about a place in a document, as ctg_error_format tells it for an error. */
static bool has_place(const cli_diag *d, const char *path)
{
    return d->line != 0 || path[0] != '\0' || strcmp(d->code, "syntax") == 0
           || strcmp(d->code, "schema") == 0;
}

static int print_text(FILE *out, const cli_diag *d)
{
    const char *path = d->path != NULL ? d->path : "";
    int rc = put_escaped(out, d->file);

    if (rc == 0 && d->line != 0 && fprintf(out, ":%u:%u", d->line, d->column) < 0)
        rc = -1;
    if (rc == 0 && (fputs(": ", out) < 0 || put_escaped(out, d->severity) < 0
                    || fputs(": ", out) < 0))
        rc = -1;
    if (rc == 0 && has_place(d, path)
        && (put_escaped(out, path[0] != '\0' ? path : "/") < 0 || fputs(": ", out) < 0))
        rc = -1;
    if (rc == 0 && (put_escaped(out, d->message) < 0 || putc('\n', out) == EOF))
        rc = -1;
    return rc;
}

/* ---- json --------------------------------------------------------------------------------- */

/* The length of the valid UTF-8 sequence at `s` (`n` bytes left) and its code point, or 0 when
 * the byte at `s` begins none: RFC 3629, no overlong forms, no surrogates, up to U+10FFFF. */
static size_t utf8_sequence(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3
                                                 : s[0] < 0xF5 ? 4 : 0;
    unsigned char lo = 0x80, hi = 0xBF;
    uint32_t v;

    if (len == 0 || len > n)
        return 0;
    if (s[0] == 0xE0)
        lo = 0xA0;
    else if (s[0] == 0xED)
        hi = 0x9F;
    else if (s[0] == 0xF0)
        lo = 0x90;
    else if (s[0] == 0xF4)
        hi = 0x8F;
    v = len == 1 ? s[0] : s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        unsigned char lim_lo = i == 1 ? lo : 0x80, lim_hi = i == 1 ? hi : 0xBF;
        if (s[i] < lim_lo || s[i] > lim_hi)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return len;
}

size_t cli_utf8_invalid_at(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, n;
    uint32_t cp;

    while (i < len && (n = u[i] < 0x80 ? 1 : utf8_sequence(u + i, len - i, &cp)) != 0)
        i += n;
    return i;
}

/* The code points escaped although JSON allows them raw: C0 and C1 controls, DEL, and the
 * invisible or reordering ones ctg_escape_text escapes (a terminal showing the JSON). */
static bool json_escaped(uint32_t cp)
{
    return cp < 0x20 || cp == '"' || cp == '\\' || (cp >= 0x7F && cp <= 0x9F)
           || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E)
           || (cp >= 0x2060 && cp <= 0x2069) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB);
}

static int put_json_escape(FILE *out, uint32_t cp)
{
    if (cp == '"' || cp == '\\')
        return putc('\\', out) == EOF || putc((int)cp, out) == EOF ? -1 : 0;
    return fprintf(out, "\\u%04x", (unsigned)cp) < 0 ? -1 : 0;
}

/* Writes `text` as a JSON string, quotes included; invalid UTF-8 bytes become \ufffd. */
static int json_string(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text != NULL ? text : "");
    size_t len = strlen((const char *)s), i = 0, run = 0;
    int rc = putc('"', out) == EOF ? -1 : 0;

    while (rc == 0 && i < len) {
        uint32_t cp = 0xFFFD;
        size_t n = utf8_sequence(s + i, len - i, &cp);
        if (n != 0 && !json_escaped(cp)) {
            i += n;
            continue;
        }
        if (fwrite(s + run, 1, i - run, out) != i - run || put_json_escape(out, cp) < 0)
            rc = -1;
        i += n != 0 ? n : 1;
        run = i;
    }
    if (rc == 0 && (fwrite(s + run, 1, len - run, out) != len - run || putc('"', out) == EOF))
        rc = -1;
    return rc;
}

static int json_member(FILE *out, const char *key, const char *value)
{
    return fprintf(out, ",\"%s\":", key) < 0 || json_string(out, value) < 0 ? -1 : 0;
}

static int print_json(FILE *out, const cli_diag *d)
{
    if (fputs("{\"file\":", out) < 0 || json_string(out, d->file) < 0)
        return -1;
    if (fprintf(out, ",\"line\":%u,\"column\":%u", d->line, d->column) < 0)
        return -1;
    if (json_member(out, "path", d->path) < 0 || json_member(out, "code", d->code) < 0
        || json_member(out, "severity", d->severity) < 0
        || json_member(out, "message", d->message) < 0)
        return -1;
    return fputs("}\n", out) < 0 ? -1 : 0;
}

int cli_diag_print(FILE *out, cli_diag_format format, const cli_diag *d)
{
    return format == CLI_DIAG_JSON ? print_json(out, d) : print_text(out, d);
}

/* ---- from a ctg_error --------------------------------------------------------------------- */

const char *cli_diag_status_code(int status)
{
    switch (status) {
    case CTG_OK:
        return "ok";
    case CTG_ENOMEM:
        return "nomem";
    case CTG_EINVAL:
        return "inval";
    case CTG_EIO:
        return "io";
    case CTG_ESYNTAX:
        return "syntax";
    case CTG_ESCHEMA:
        return "schema";
    case CTG_EUNSUPPORTED:
        return "unsupported";
    case CTG_ELIMIT:
        return "limit";
    case CTG_ESTOPPED:
        return "stopped";
    default:
        return "error";
    }
}

cli_diag cli_diag_from_error(const ctg_error *err)
{
    cli_diag d = { err->source, err->line, err->column, err->path,
                   cli_diag_status_code(err->code), "error", err->message };

    return d;
}

int cli_diag_report(cli_diag_format format, int rc, const ctg_error *err)
{
    cli_diag d = cli_diag_from_error(err);

    cli_diag_print(format == CLI_DIAG_JSON ? stdout : stderr, format, &d);
    return cli_status_of(rc);
}

int cli_diag_json_string(FILE *out, const char *text)
{
    return json_string(out, text);
}
