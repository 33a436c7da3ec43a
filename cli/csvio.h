/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_CSVIO_H
#define CTG_CLI_CSVIO_H

/* The text formats of convert and generate beside JSON (csvio.c): CSV (RFC 4180, through
 * libcsv) and JSON Lines, read from a file, stdin or gzip, and written to a file (atomically),
 * stdout or gzip. */

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* The formats of convert's IN and OUT. */
typedef enum cli_format { CLI_FORMAT_JSON, CLI_FORMAT_CSV, CLI_FORMAT_JSONL } cli_format;

/* A --from/--to value ("json", "csv" or "jsonl"); -1 if none of them. */
int cli_format_parse(const char *value, cli_format *out);
/* The format a path names by its extension, a final ".gz" aside: ".csv", ".jsonl" or
 * ".ndjson", else JSON ("-" too). */
cli_format cli_format_of_path(const char *path);
/* The name a list read from CSV or JSON Lines gets from its path: the file name without its
 * directory, ".gz" and the format's extension. NULL for "-". Owned by the caller (free). */
char *cli_name_of_path(const char *path);

/* The header of convert's CSV, and its columns. */
#define CLI_CSV_COLUMNS 5
extern const char *const cli_csv_header[CLI_CSV_COLUMNS];

/* Fills every field of `err` (source, line, column, path, message as printf) and returns
 * `code`. */
int cli_fail_at(ctg_error *err, int code, const char *source, unsigned line, unsigned column,
                const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* ---- text input ---------------------------------------------------------------------- */

/* Bytes from a path or stdin, gunzipped when they start with the gzip magic. */
typedef struct cli_textin {
    void *gz;         /* zlib's gzFile */
    const char *name; /* for errors; borrowed */
    size_t size;      /* a regular file's size, for the progress bar; else 0 */
    size_t consumed;  /* bytes of the input read */
    cli_progress progress;
} cli_textin;

/* `progress_wanted`: a progress bar of the bytes read (compressed ones for gzip) when the
 * options allow one; cli_textin_close erases it. */
int cli_textin_open(cli_textin *in, const char *path, bool progress_wanted, ctg_error *err);
/* Up to `cap` bytes: *got 0 at the end. CTG_OK or CTG_EIO (err filled). */
int cli_textin_read(cli_textin *in, void *buf, size_t cap, size_t *got, ctg_error *err);
void cli_textin_close(cli_textin *in);

/* ---- text output --------------------------------------------------------------------- */

/* A cli_outfile, gzip-compressed when its name ends in ".gz". */
typedef struct cli_textout {
    cli_outfile file;
    void *z; /* zlib's z_stream when compressing, else NULL */
    unsigned char *zbuf;
} cli_textout;

int cli_textout_open(cli_textout *t, const char *path, bool break_links, ctg_error *err);
/* Returns -1 once a write failed: commit then reports it. */
int cli_textout_write(cli_textout *t, const void *data, size_t len);
int cli_textout_commit(cli_textout *t, ctg_error *err);
void cli_textout_abort(cli_textout *t);

/* ---- CSV ----------------------------------------------------------------------------- */

/* One row: `n` fields, each NUL-terminated, NULL for an empty field that was not quoted ("" is
 * a quoted empty one), `lens` their lengths. `line` is the row's first line. Borrowed until
 * the callback returns. Returns CTG_OK to go on, or a status with err filled to stop. */
typedef int (*cli_csv_row_fn)(void *payload, unsigned line, char *const *fields,
                              const size_t *lens, size_t n, ctg_error *err);

/* Reads every row of `in` split at `delimiter`, strictly (RFC 4180: a quote only around a
 * field or doubled inside one), spaces kept, blank lines skipped. A malformed row is
 * CTG_ESYNTAX at its line and column; a field holding a NUL byte is CTG_ESYNTAX too. */
int cli_csv_read(cli_textin *in, char delimiter, cli_csv_row_fn row, void *payload,
                 ctg_error *err);

/* Appends one field: quoted (through libcsv) when it holds the delimiter, a quote, a line
 * break, or spaces at either end, or when it is "" and `quote_empty`; NULL is an empty
 * unquoted field. `first`: no delimiter before it. */
int cli_csv_field(cli_textout *t, char delimiter, const char *s, bool quote_empty, bool first);
/* Ends a row ("\n"). */
int cli_csv_end_row(cli_textout *t);

/* An element_type field (`len` bytes): 0 and *t for a type a list can hold (not the pre-1.1
 * DANGLING_LINE), -1 for none (NULL included). */
int cli_element_type_of(const char *name, size_t len, ctg_element_type *t);
/* Where a CSV row's element lands: the row's `line` in `source`, element `element` of the
 * list's contingency `index`. Its JSON Pointer is built only for an error. */
typedef struct cli_row_place {
    const char *source;
    unsigned line;
    size_t index, element;
} cli_row_place;

/* Checks the element of a CSV row at `at`: an id, a known type (set in *t), no side for an
 * unsided type. CTG_OK or CTG_ESCHEMA (err). */
int cli_check_element(const cli_row_place *at, const char *id, const char *type, size_t type_len,
                      const char *vl, ctg_element_type *t, ctg_error *err);

/* ---- where convert's contingencies go (convert_text.c) --------------------------------- */

/* A `default` list written as it comes: JSON through the stream writer, CSV rows (a header,
 * then a row per element; a contingency with extensions or without elements is an error
 * naming it), or one compact contingency object per line. Set the fields before open. */
typedef struct cli_sink {
    cli_format format;
    const char *out; /* "-" is stdout */
    char delim;      /* CSV */
    bool break_links;
    ctg_write_options opts; /* JSON: the writer's; JSON Lines: its format_version */
    const char *in_name;    /* errors about an item name the input; borrowed */
    size_t index;           /* contingencies added */
    /* Where the contingency being added sits, for an error about it: its opening brace (0
     * when unknown), and whether it is the document's root (a bare contingency, whose
     * members' paths have no "/contingencies/N"). Set by the caller before each add. */
    unsigned at_line, at_column;
    bool bare;
    /* private */
    bool open;
    ctg_stream_writer *w;
    cli_textout t;
    ctg_buf line;
} cli_sink;

/* `name`: the list's (JSON; may be NULL for the others). */
/* The longest CSV field and JSON Lines line read, in bytes: the list reader's longest string
 * by default (64 MiB); CTG_TEXT_LIMIT_BYTES sets it, for tests only (a 64 MiB input is slow
 * under the sanitizers). */
size_t cli_text_limit(void);

int cli_sink_open(cli_sink *s, const char *name, ctg_error *err);
int cli_sink_add(cli_sink *s, const ctg_contingency *c, ctg_error *err);
/* Commits the output; either way the sink is done. */
int cli_sink_close(cli_sink *s, ctg_error *err);
/* Leaves a file OUT as it was. Accepts a sink never opened, or closed. */
void cli_sink_abort(cli_sink *s);

/* `progress`: a progress bar of the read is allowed. */
/* Reads the CSV at `path` (the header required; rows grouped by contingency_id in order of
 * first appearance, wherever they are) and writes it to `s` as the list `name`. It is read
 * twice (stdin or a pipe is first copied to $TMPDIR): in constant memory when each
 * contingency's rows are adjacent, else grouped in memory up to a 16 MB budget, beyond which
 * it is refused with CTG_ELIMIT at the row that crossed it (convert_text.c). */
int cli_convert_csv(const char *path, char delim, bool progress, cli_sink *s, const char *name,
                    ctg_error *err);
/* Reads JSON Lines at `path` (one contingency object per line; blank lines skipped) and
 * writes each to `s` as it comes, as the list `name`. */
int cli_convert_jsonl(const char *path, bool progress, cli_sink *s, const char *name,
                      ctg_error *err);

#endif
