/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_H
#define CTG_CLI_H

/* contingency-cli internals: the subcommand table and the helpers every subcommand shares. */

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "ctg/ctg.h"
#include "ctg/iidm.h"
#include "ctg/network.h"
#include "ctg/resolve.h"

#include "diag.h"

#define CLI_NAME "contingency-cli"

/* Exit statuses, the same for every subcommand. */
enum { CLI_OK = 0, CLI_INVALID = 1, CLI_FAILURE = 2 };

/* What messages call stdin and stdout ("-" on the command line). The library names a FILE *
 * it is given as it can; the CLI passes these names itself so that every message agrees. */
#define CLI_STDIN_NAME "<stdin>"
#define CLI_STDOUT_NAME "<stdout>"

/* A subcommand: `run` gets argv from the subcommand's name on (argv[0] is the name). */
typedef struct cli_command {
    const char *name;
    const char *args;    /* "[OPTION...] IN OUT" */
    const char *summary; /* one line for the command list */
    const char *details; /* printed by `NAME --help` after the usage line; may be NULL */
    const char *options; /* its own option lines for --help, before the common ones; or NULL */
    void (*more_help)(FILE *out); /* prints the end of its --help; may be NULL */
    int (*run)(const struct cli_command *cmd, int argc, char **argv);
} cli_command;

int cli_validate(const cli_command *cmd, int argc, char **argv);
int cli_convert(const cli_command *cmd, int argc, char **argv);
int cli_generate(const cli_command *cmd, int argc, char **argv);
/* generate --help's end: a pointer to the --network mode's own help. */
void cli_generate_more_help(FILE *out);
int cli_stats(const cli_command *cmd, int argc, char **argv);
int cli_filter(const cli_command *cmd, int argc, char **argv);
int cli_merge(const cli_command *cmd, int argc, char **argv);
int cli_split(const cli_command *cmd, int argc, char **argv);
/* diff A B: exit 0 when equal, 1 when they differ, 2 on any error (as diff(1)). */
int cli_diff(const cli_command *cmd, int argc, char **argv);
int cli_resolve(const cli_command *cmd, int argc, char **argv);
int cli_network(const cli_command *cmd, int argc, char **argv);
int cli_lint(const cli_command *cmd, int argc, char **argv);

/* How lint (cmd_lint.c) checks a file; validate --strict runs the same checks. */
typedef struct cli_lint_config {
    cli_diag_format format; /* of the findings and errors */
    bool dynaflow;          /* --target dynaflow: also what dynaflow-launcher drops */
    bool progress;          /* a progress bar is allowed */
    bool bar_names;         /* the bar names the file (there are several) */
} cli_lint_config;

/* Lints `path` ("-" is stdin) as it streams: prints each finding on stdout (a warning
 * diagnostic), an error as cli_diag_report does. Returns CLI_OK when clean, CLI_INVALID for a
 * finding or invalid input, CLI_FAILURE for I/O, memory or stdout failing. */
int cli_lint_file(const char *path, const cli_lint_config *cfg);
/* generate --network NET (cmd_generate_net.c): N-1 and N-2 lists generated from a network. */
int cli_generate_network(const cli_command *cmd, int argc, char **argv);
/* The command `generate --network` runs as: its usage, details and options (main.c). */
const cli_command *cli_generate_network_command(void);
/* Reads the network at `path` ("-" is stdin) with a progress bar when `progress_wanted`;
 * returns the exit status (the error printed). */
int cli_read_network(ctg_network **out, const char *path, bool progress_wanted);
/* convert's --help table of the format version each kind is written at. */
void cli_convert_versions(FILE *out);

/* The progress bar of one read: bytes read of the total (or so far, when the total is unknown),
 * rate and ETA, on one line of stderr, redrawn at most five times a second. */
typedef struct cli_progress {
    bool enabled; /* stderr is a terminal and the options allow it */
    bool drawn;
    const char *name; /* the input's name, shown when not NULL; borrowed */
    double start, last;
} cli_progress;

/* `wanted`: the options allow a bar; `name`: shown before it (with several inputs), or NULL. */
void cli_progress_init(cli_progress *p, bool wanted, const char *name);
/* A ctg_visitor progress callback; `payload` points to a cli_progress, or to a struct that
 * begins with one. Never stops the read. */
int cli_progress_update(size_t consumed, size_t total, void *payload);
/* Erases the bar, if one was drawn. */
void cli_progress_done(cli_progress *p);

/* One frame of the bar as text, for a terminal `width` columns wide: at most width - 1 bytes
 * (and cap - 1), NUL-terminated, no control characters. `name` may be NULL; `total` 0 means
 * unknown; `elapsed` is in seconds since the read began. Depends on nothing else; returns the
 * length. */
size_t cli_progress_line(char *buf, size_t cap, int width, const char *name, size_t consumed,
                         size_t total, double elapsed);

/* Signals (signals.c). Installs the handlers of SIGINT, SIGTERM and SIGHUP (unless ignored):
 * they remove the temporary file cli_signals_temp_file was told of, erase the progress bar's
 * line, and exit with 128 + the signal. */
void cli_signals_install(void);
/* Catches SIGPIPE: a write to a closed pipe then fails with EPIPE, and this is noted. */
void cli_signals_catch_pipe(void);
/* Whether a SIGPIPE came since cli_signals_catch_pipe. */
bool cli_signals_pipe_broken(void);
/* A ctg_write_options.temp_file hook: the temporary file to remove on a signal (NULL: none). */
void cli_signals_temp_file(const char *path, void *payload);
/* Temporary files a signal removes: an output (slot 0), a second output or an input's copy
 * (1), and more copies of inputs (merge of several pipes); past them a copy is still made, but
 * a signal leaves it behind. */
#define CLI_TEMP_SLOTS 16
/* As cli_signals_temp_file, for the temporary file of slot `slot` (0 to CLI_TEMP_SLOTS - 1;
 * another slot is ignored): a command may have two outputs in progress at once (resolve's
 * list and its report), and copies of its inputs. cli_signals_temp_file is slot 0. */
void cli_signals_temp_file_at(int slot, const char *path);
/* Whether the progress bar is on the terminal's current line. */
void cli_signals_bar(bool on_line);

/* The source for a path argument ("-" is stdin). */
ctg_source cli_source(const char *path);
/* The default read options, whose errors name the path argument (CLI_STDIN_NAME for "-"), also
 * when its bytes are read from a kept copy or a spool. */
ctg_read_options cli_read_options(const char *path);

/* The most threads -j takes. */
#define CLI_MAX_JOBS 64
/* The value of -j/--jobs (NULL when absent: 1) into *out; CLI_OK, or a usage error printed. */
int cli_parse_jobs(const cli_command *cmd, const char *value, unsigned *out);
/* What messages call a path argument: CLI_STDIN_NAME for "-". */
const char *cli_input_name(const char *path);

/* What messages call an output argument: CLI_STDOUT_NAME for "-". */
const char *cli_output_name(const char *path);

/* LIST read once (listio.c), as convert and resolve read it: until the list's shape is known
 * every byte read from a pipe is kept, as a pipe cannot be read twice; the kept start can then
 * be replayed before the rest, or completed into the whole document. A regular file keeps
 * nothing (a long start before the first contingency would otherwise all be held): it is read
 * again from where it began instead. */
typedef struct cli_input {
    int fd;
    bool close_fd;
    const char *name; /* for errors: the path, or CLI_STDIN_NAME; borrowed */
    size_t size;      /* a regular file's size, for the progress bar; else 0 */
    size_t consumed;  /* bytes read from fd */
    bool eof;
    bool rewind;   /* a regular file, read again from `start` rather than kept */
    off_t start;   /* fd's offset when opened */
    bool keep;     /* keep a copy of what is read */
    size_t replay; /* > 0: the kept bytes from this offset - 1 are served first */
    char *kept;    /* the copy, owned */
    size_t kept_len, kept_cap;
    cli_progress *progress; /* updated at each read when not NULL; borrowed */
} cli_input;

/* Whether `path` is treated as readable once only, so that its bytes are kept (or spooled)
 * to be read again: "-" (stdin) or a path to anything but a regular file or a directory (a
 * FIFO as `<(cmd)` gives, /dev/stdin on a pipe, a device). A path that cannot be examined is
 * not: its read says why. */
bool cli_input_once(const char *path);

/* Opens `path` ("-" is stdin) keeping what is read. On failure nothing is left to close. */
int cli_input_open(cli_input *in, const char *path, cli_progress *progress, ctg_error *err);
/* A ctg_source_callback read on a cli_input: the replayed bytes first, then the input. */
int cli_input_read(void *payload, void *buf, size_t cap, size_t *got);
/* Stops keeping and frees the copy: the list streams. */
void cli_input_forget(cli_input *in);
/* The input served again from its start (the kept bytes replayed, or a regular file read
 * again), nothing more kept: the list streams from its beginning. CTG_EIO in `err`. */
int cli_input_restart(cli_input *in, ctg_error *err);
/* Reads the whole input into the copy (the rest of a pipe after what is kept, a regular file
 * again from its start): then `kept` is the whole document. */
int cli_input_finish(cli_input *in, ctg_error *err);
/* An error about the document `in` reads (its kept bytes, or a regular file read again) that
 * has a path but no place (an evaluation's, a writer's): given the line and column of the
 * value at its path, when found there. */
void cli_input_place(const cli_input *in, ctg_error *err);
/* Where the value at JSON Pointer `pointer` ("" for the root) of the document `in` reads
 * begins, into *at, as cli_input_place finds it; false when not found. */
bool cli_input_locate(const cli_input *in, const char *pointer, ctg_location *at);
/* Closes the input it opened and frees the copy. */
void cli_input_close(cli_input *in);
/* The default read options, whose errors name the input as `in->name` does (its kept bytes,
 * its replay and its stream alike). */
ctg_read_options cli_input_options(const cli_input *in);

/* The start of convert's and resolve's state, their visitor's payload: the progress bar first
 * (the payload is also the bar's), LIST, and whether it is to be read whole. */
typedef struct cli_list_job {
    cli_progress progress;
    cli_input in;
    bool whole;       /* not a `default` list with its name first */
    unsigned threads; /* -j: ctg_read_options.threads of a list read whole */
} cli_list_job;

/* Whether the list of the contingency `h` heads can stream: a `default` list at the top, its
 * name read before its first contingency. */
bool cli_list_streams(const ctg_stream_header *h);
/* A ctg_visitor list callback on a cli_list_job: a list holding lists is read whole; stops. */
int cli_on_nested_list(const ctg_stream_header *h, const ctg_list *list, void *payload);

/* Whether the list reader's error `rc`/`err` says the input is no contingency list but may be
 * a security-analysis document (ctg/sa.h): an array root, or a root member of one ("this is
 * an action list"). validate, convert and stats then read it as one. */
bool cli_maybe_sa(int rc, const ctg_error *err);
/* stats of the security-analysis document at `path` (stats_sa.c), or in the `len` bytes at
 * `data` when not NULL (read from `path`, "-" for stdin): its kind and counts, as text or as
 * stats' JSON entry, printed after `sep` on stdout. Returns the ctg status, `err` filled and
 * nothing printed on failure. */
int cli_stats_sa(const char *path, const void *data, size_t len, cli_diag_format format,
                 const char *sep, ctg_error *err);

/* Where the commands put their temporary files (pipeline.c): $TMPDIR, or /tmp when it is
 * unset or empty. */
const char *cli_temp_dir(void);
/* A malloc'd mkstemp(3) template "DIR/PREFIX-XXXXXX" in cli_temp_dir(); NULL when out of
 * memory. */
char *cli_temp_template(const char *prefix);

/* Copies what can be read from descriptor `from` to its end onto descriptor `to` (pipeline.c:
 * how a pipe that must be read twice is spooled to a file). Returns 0, or -1 with errno set. */
int cli_copy_fd(int from, int to);

/* What cli_spool did. */
typedef enum cli_spool_result {
    CLI_SPOOL_OK,
    CLI_SPOOL_NOMEM,
    CLI_SPOOL_CREATE,
    CLI_SPOOL_COPY
} cli_spool_result;

/* Copies descriptor `fd` to its end into a new temporary file "PREFIX-XXXXXX" in
 * cli_temp_dir(), which a signal removes (slot `slot` of cli_signals_temp_file_at): how an
 * input that cannot be read twice (stdin, a pipe) is read again. CLI_SPOOL_OK: `*path` (owned)
 * names the copy, for cli_spool_remove. On failure errno is set: CLI_SPOOL_NOMEM and
 * CLI_SPOOL_CREATE leave `*path` NULL; CLI_SPOOL_COPY (reading `fd`, writing or closing the
 * copy) leaves it naming the copy, for the message, to be given to cli_spool_remove too. */
cli_spool_result cli_spool(int fd, const char *prefix, int slot, char **path);
/* Removes the copy `path` (NULL: none) and its signal slot `slot`, and frees `path`. */
void cli_spool_remove(char *path, int slot);

/* Flushes stdout, so that a full disk or a closed pipe is reported, not lost at exit. */
int cli_stdout_flushed(ctg_error *err);
/* Writes `list` whole to `out` ("-" is stdout, flushed; a file is replaced atomically). */
int cli_list_write(const char *out, const ctg_list *list, const ctg_write_options *opts,
                   ctg_error *err);
/* Opens a streaming writer of the list `name` on `out` ("-" is stdout); the caller owns it. */
int cli_list_writer_open(ctg_stream_writer **w, const char *out, const char *name,
                         const ctg_write_options *opts, ctg_error *err);

/* A text output that is not a list (outfile.c): "-" is stdout, a device or FIFO is written
 * through, any other path is replaced atomically at commit through a temporary file beside it
 * (its signal slot given to cli_signals_temp_file_at). Write failures are kept for commit. */
typedef struct cli_outfile {
    FILE *fp;
    const char *name; /* for messages; borrowed */
    char *target;     /* the file replaced at commit; NULL when written through */
    char *temp;       /* the temporary file, NULL when written through */
    int slot;
    bool failed;
} cli_outfile;

/* Opens `path` (borrowed until commit or abort). A file with other hard links is refused
 * (CTG_EINVAL), as the library refuses it, unless `break_links`. On failure nothing is left
 * to abort. */
int cli_outfile_open(cli_outfile *o, const char *path, int slot, bool break_links,
                     ctg_error *err);
/* Appends bytes; returns -1 once a write failed (and commit then fails). */
int cli_outfile_write(cli_outfile *o, const void *data, size_t len);
int cli_outfile_puts(cli_outfile *o, const char *text);
/* What of a commit can fail but the rename: flushes (and syncs) every byte, so that a second
 * output can be committed first and this one then only renamed. On failure the file is left
 * as it was and `o` is done. */
int cli_outfile_prepare(cli_outfile *o, ctg_error *err);
/* Prepares (when not yet), and for a file renames the temporary file over it. On failure the
 * file is left as it was. Either way `o` is done. */
int cli_outfile_commit(cli_outfile *o, ctg_error *err);
/* Removes the temporary file: a file is left as it was. Accepts an `o` already done. */
void cli_outfile_abort(cli_outfile *o);
/* Whether two paths ("-" is stdout) name one file: both stdout, one existing file (stdout
 * redirected to it included; a character device is none), or two names of one file not there
 * yet (one name in one folder). A report written over its list would replace it at commit. */
bool cli_same_output(const char *a, const char *b);
/* Whether the output `out` would replace the input `in` ("-" is stdout for one, stdin for the
 * other: never the same). */
bool cli_replaces_input(const char *out, const char *in);

/* Arguments of a subcommand after option parsing. */
typedef struct cli_args {
    char **pos; /* the positional arguments, in order ("-" is one) */
    int npos;
    unsigned flags;   /* bit i set when flag_names[i] was given */
    bool help;        /* -h or --help */
    bool quiet;       /* -q or --quiet: errors and results only */
    bool no_progress; /* --no-progress, or --quiet */
} cli_args;

/* Splits argv[1..] into `flag_names` (NULL-terminated, e.g. "--compact"), the options every
 * command takes (-h/--help, -q/--quiet, --no-progress) and positionals; "--" ends the options.
 * Reorders argv in place. On an unknown option prints a usage error and returns CLI_FAILURE,
 * else CLI_OK. */
int cli_parse_args(const cli_command *cmd, int argc, char **argv, const char *const *flag_names,
                   cli_args *out);

/* The options of a subcommand beyond the common ones. `flags`: NULL-terminated names of the
 * options without a value (bit i of cli_args.flags). `valued`: NULL-terminated names of the
 * options that take one ("--name VALUE" or "--name=VALUE"); the value of valued[i] is stored
 * in values[i] (borrowed from argv; left as it was when the option is absent). Each takes one
 * value: one given twice is a usage error (the first 64 names are checked; no command has
 * more). A command whose `valued` has "--output" takes `-o OUT` as `--output OUT`,
 * the short option common to the commands that write a file. */
typedef struct cli_options {
    const char *const *flags;
    const char *const *valued;
    const char **values;
} cli_options;

/* As cli_parse_args, with valued options. A valued option without its value, or given twice
 * ("--output", "-o" and "--output=" are one option), is a usage error. */
int cli_parse_options(const cli_command *cmd, int argc, char **argv, const cli_options *opts,
                      cli_args *out);

/* The start of every command: parses its options (cli_parse_options) and answers --help.
 * Returns true when the command is done, `*status` then its exit status (a usage error, or
 * the help printed); false with `*status` CLI_OK to go on with `out`. */
bool cli_begin(const cli_command *cmd, int argc, char **argv, const cli_options *opts,
               cli_args *out, int *status);

/* Prints "usage: contingency-cli NAME ARGS", the details and the options to `out`. */
void cli_print_usage(const cli_command *cmd, FILE *out);
/* Prints the usage on stdout for --help; returns the exit status (cli_flush_stdout). */
int cli_help(const cli_command *cmd);

/* Prints "contingency-cli NAME: MESSAGE" and a pointer to --help on stderr; returns
 * CLI_FAILURE. */
int cli_usage_error(const cli_command *cmd, const char *message, const char *arg);

/* Prints `err` as ctg_error_format() does, one line on stderr, and returns the exit status
 * of the ctg status `rc`: CLI_INVALID for bad input, CLI_FAILURE for I/O, memory, or misuse. */
int cli_report(int rc, const ctg_error *err);

/* The exit status of the ctg status `rc` of a failed call: CLI_INVALID for bad input,
 * CLI_FAILURE for I/O, memory, or misuse. Inline: the diagnostics printer's unit test links
 * diag.c alone. */
static inline int cli_status_of(int rc)
{
    switch (rc) {
    case CTG_ESYNTAX:
    case CTG_ESCHEMA:
    case CTG_EUNSUPPORTED:
    case CTG_ELIMIT:
        return CLI_INVALID;
    default:
        /* CTG_EIO, CTG_ENOMEM, CTG_EINVAL: the input may be fine; it could not be judged. */
        return CLI_FAILURE;
    }
}

/* Fills `err` as the library does for an I/O failure: "WHAT: <reason for errnum>" from
 * `source` (errnum 0: "WHAT" alone). Returns CTG_EIO. */
int cli_io_failure(ctg_error *err, const char *source, const char *what, int errnum);

/* Flushes stdout and checks that nothing written to it was lost (a full disk, a closed
 * descriptor): then reports it and returns CLI_FAILURE (for a closed pipe, whose reader
 * stopped, CLI_INVALID or a worse `status`), else `status`. Every command that writes to stdout ends with it, so that a
 * lost result never goes unsaid. */
int cli_flush_stdout(int status);
/* After a write failure on stdout has been reported: the rest of the output goes to
 * /dev/null, so that cli_flush_stdout does not report the same failure a second time. */
void cli_stdout_drop(void);
/* Reports the failure `rc` of a run whose list goes to stdout when `to_stdout` (the writer's
 * "<stream>", or an I/O error without a source, is then <stdout>), once: a failure of stdout's
 * drops it (cli_stdout_drop). Returns the exit status: a closed pipe is exit 1 (whoever read
 * the output stopped: `| head`), as convert has it. */
int cli_report_output(int rc, bool to_stdout, ctg_error *err);

/* Prints `text` (a name or an id from the input) escaped by ctg_escape_text, so that no
 * file or argument can put control sequences on the terminal. Returns what fputs returns. */
int cli_put_escaped(FILE *out, const char *text);

#endif
