/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_DIAG_H
#define CTG_CLI_DIAG_H

/* contingency-cli's diagnostics: one printer for the errors and warnings of every command, as
 * text for people or as JSON Lines for editors and CI. Depends on the public headers only. */

#include <stdio.h>

#include "ctg/error.h"

/* How a command prints its diagnostics: --format text (the default) or json. */
typedef enum cli_diag_format { CLI_DIAG_TEXT, CLI_DIAG_JSON } cli_diag_format;

/* Parses a --format value ("text" or "json"); NULL means text. Returns -1 if neither (`out`
 * then unchanged), else 0. */
int cli_diag_format_parse(const char *value, cli_diag_format *out);

/* One diagnostic; every string borrowed. `severity` "error" or "warning"; `code` a stable
 * kebab-case name ("duplicate-id", ... for errors the ctg_status name lower-cased without
 * CTG_E: "syntax", "schema", "io", "nomem", "inval", "unsupported", "limit"...). */
typedef struct cli_diag {
    const char *file;      /* as messages name it (CLI_STDIN_NAME for "-") */
    unsigned line, column; /* 0 when unknown */
    const char *path;      /* JSON Pointer, "" for the root; NULL is read as "" */
    const char *code;
    const char *severity;
    const char *message;
} cli_diag;

/* Prints one diagnostic on `out`, with its newline.
 * text: "file:line:column: severity: path: message", as ctg_error_format lays an error out
 * (":line:column" left out when line is 0; the root path shown as "/"; "path: " left out for
 * a diagnostic about no place in a document: no line, path "" and a code other than "syntax"
 * or "schema"). Each string is escaped by ctg_escape_text, so the line is one line.
 * json: one compact object per line, keys in this order:
 * {"file":..,"line":..,"column":..,"path":..,"code":..,"severity":..,"message":..}
 * (line and column are 0 when unknown). Strings are escaped for JSON: `"` and `\` with a
 * backslash; control characters (C0, DEL, C1) and the invisible or reordering code points
 * ctg_escape_text escapes (zero-width and bidirectional formatting, U+2028, U+2029, U+FEFF)
 * as \u00XX or \uXXXX, so a value decodes to exactly the bytes given; every byte that does not
 * begin a valid UTF-8 sequence (overlong forms, surrogates and code points over U+10FFFF
 * included) is replaced by \ufffd, one per byte: the output is always valid UTF-8 JSON.
 * Returns 0, or -1 on a write error. */
int cli_diag_print(FILE *out, cli_diag_format format, const cli_diag *d);

/* A cli_diag from a ctg_error (borrowing its strings: valid while `err` is), severity
 * "error". Printed as text it is the line ctg_error_format makes. */
cli_diag cli_diag_from_error(const ctg_error *err);

/* The code of a ctg_status, as cli_diag_from_error names it: "syntax" for CTG_ESYNTAX...;
 * static storage, never NULL ("error" for a status it does not know). */
const char *cli_diag_status_code(int status);

/* Prints `err` as a diagnostic: on stderr as text, on stdout as JSON (so that a script reads
 * stdout alone). Returns the exit status of `rc` as cli_report does: CLI_INVALID (1) for bad
 * input, CLI_FAILURE (2) for I/O, memory or misuse. */
int cli_diag_report(cli_diag_format format, int rc, const ctg_error *err);

/* Writes `text` (NULL is "") as a JSON string, quotes included, escaped as cli_diag_print
 * escapes the strings of a JSON diagnostic; for other JSON a command prints (stats). Returns
 * 0, or -1 on a write error. */
int cli_diag_json_string(FILE *out, const char *text);

/* The offset of the first byte of the `len` at `s` that begins no valid UTF-8 sequence
 * (RFC 3629: no overlong form, no surrogate), or `len` when all are valid. */
size_t cli_utf8_invalid_at(const char *s, size_t len);

#endif
