/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_PIPELINE_H
#define CTG_CLI_PIPELINE_H

/* What filter, merge and split share: a `default` list read as it streams, one contingency at
 * a time, with the position of each; stdin copied to a file that can be read again. */

#include <stdint.h>

#include "cli.h"

/* Called for each contingency; when pl_read.places asks for them, `path` is its JSON Pointer
 * ("/contingencies/3", or "/contingencyLists/1/contingencies/3" in a flattened `list`) and
 * `at` its place in the text, else both are NULL. Nonzero stops the read. */
typedef int (*pl_contingency_fn)(const ctg_stream_header *h, const ctg_contingency *c,
                                 const char *path, const ctg_stream_place *at, void *ctx);

/* One read of one input. Fill `fn`, `ctx`, `flatten`, `skip_extensions` and `quiet`, then
 * call pl_read_run. */
typedef struct pl_read {
    cli_progress progress; /* first: the visitor's payload is also the bar's */
    cli_input in;
    const cli_command *cmd;
    pl_contingency_fn fn;
    void *ctx;
    bool flatten;         /* merge: a `list` of `default` lists is read as those lists */
    bool skip_extensions; /* their values are not needed (counting, hashing) */
    bool no_progress;
    bool places;         /* pass `path` and `at` (a version-2 read, which costs a little more) */
    const char *display; /* what messages call the input, when not its path; or NULL */
    char *name;          /* the list's name once known (owned); the first list's when flattened */
    size_t seen;         /* contingencies delivered */
    size_t in_list;      /* index of the next one in its list */
    size_t list_index;   /* h->index of the list being read */
    size_t list_depth;
    int status;   /* CLI_OK, or the exit status of a failure already reported */
    bool stopped; /* `fn` stopped the read */
} pl_read;

/* Reads `path` ("-" is stdin) calling r->fn for each contingency; a list of another kind, a
 * name after the contingencies (when some come) or nesting deeper than one `list` is an
 * error (reported). Returns the exit status: CLI_OK, or the status of what was reported;
 * when r->fn stopped the read, CLI_OK with r->stopped set. r->name is freed by
 * pl_read_dispose. */
int pl_read_run(pl_read *r, const char *path);
void pl_read_dispose(pl_read *r);

/* Reports a failure of the command at `source` (an input or output name) with `path` and a
 * message (printf-like) as the library's errors read, and returns `status`. */
int pl_fail(int status, const char *source, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* As pl_fail, at `line` and `column` of `source` (0: unknown). */
int pl_fail_at(int status, const char *source, unsigned line, unsigned column, const char *path,
               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* A `default` list written to OUT ("-" is stdout) as it streams: a file is replaced
 * atomically at pl_out_close; a write failure is reported as convert reports it (a closed
 * pipe is exit status 1). */
typedef struct pl_out {
    const char *path;
    ctg_write_options opts;
    ctg_stream_writer *w;
} pl_out;

/* `compact`: --compact; `break_links`: --break-links. */
void pl_out_init(pl_out *o, const char *path, bool compact, bool break_links);
/* Opens the writer of the list `name` unless open. Returns the exit status (reported). */
int pl_out_open(pl_out *o, const char *name);
/* Reports the failure `rc` (`err`) of a write to `o` and discards it; returns the exit status. */
int pl_out_failed(pl_out *o, int rc, ctg_error *err);
/* Writes `c`, the contingency a read delivered with header `h` (the read's checks are not
 * made again: ctg_stream_writer_add_read). Inline: it runs for every contingency written. */
static inline int pl_out_add(pl_out *o, const ctg_stream_header *h, const ctg_contingency *c)
{
    ctg_error err;
    int rc = ctg_stream_writer_add_read(o->w, h, c, &err);

    return rc == CTG_OK ? CLI_OK : pl_out_failed(o, rc, &err);
}
/* Ends the list and puts the file in place. Returns the exit status (reported). */
int pl_out_close(pl_out *o);
/* Discards the output: a file OUT is left as it was. */
void pl_out_abort(pl_out *o);

/* An input that cannot be read twice (stdin for "-", a pipe, a FIFO) copied to a temporary
 * file in $TMPDIR (or /tmp) that can then be read several times; `*spool` (owned) names it,
 * NULL for an input read in place. The copy is removed by pl_spool_remove and on a signal
 * (signal slot `slot`, 1 to CLI_TEMP_SLOTS - 1; -1: none, a signal leaves the copy).
 * Returns the exit status (failure reported, under the input's name). */
int pl_spool_input(const char *path, int slot, char **spool);
void pl_spool_remove(char *spool, int slot);

/* Appends `out` (the value of --output/-o; NULL when absent) to the positionals: OUT given as
 * an option is the last positional. */
void pl_output_last(cli_args *args, const char *out);

/* Parses a decimal count of at least `min` for option `name`; false when it is not one
 * (the usage error printed). */
bool pl_parse_count(const cli_command *cmd, const char *name, const char *text, size_t min,
                    size_t *out);

#endif
