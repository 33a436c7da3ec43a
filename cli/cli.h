#ifndef CTG_CLI_H
#define CTG_CLI_H

/* contingency-cli internals: the subcommand table and the helpers every subcommand shares. */

#include <stdbool.h>
#include <stdio.h>

#include "ctg/ctg.h"

#define CLI_NAME "contingency-cli"

/* Exit statuses, the same for every subcommand. */
enum { CLI_OK = 0, CLI_INVALID = 1, CLI_FAILURE = 2 };

/* A subcommand: `run` gets argv from the subcommand's name on (argv[0] is the name). */
typedef struct cli_command {
    const char *name;
    const char *args;    /* "[--compact] IN OUT" */
    const char *summary; /* one line for the command list */
    const char *details; /* printed by `NAME --help` after the usage line; may be NULL */
    int (*run)(const struct cli_command *cmd, int argc, char **argv);
} cli_command;

int cli_validate(const cli_command *cmd, int argc, char **argv);
int cli_convert(const cli_command *cmd, int argc, char **argv);
int cli_stats(const cli_command *cmd, int argc, char **argv);

/* The progress bar: bytes read of total, rate and ETA, redrawn at most five times a second. */
typedef struct cli_progress {
    bool enabled; /* stderr is a terminal and --quiet was not given */
    bool drawn;
    double start, last;
} cli_progress;

void cli_progress_init(cli_progress *p, bool quiet);
/* A ctg_visitor progress callback; `payload` points to a cli_progress, or to a struct that
 * begins with one. Never stops the read. */
int cli_progress_update(size_t consumed, size_t total, void *payload);
/* Erases the bar, if one was drawn. */
void cli_progress_done(cli_progress *p);

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
/* Whether the progress bar is on the terminal's current line. */
void cli_signals_bar(bool on_line);

/* The source for a path argument ("-" is stdin). */
ctg_source cli_source(const char *path);

/* Arguments of a subcommand after option parsing. */
typedef struct cli_args {
    char **pos; /* the positional arguments, in order ("-" is one) */
    int npos;
    unsigned flags; /* bit i set when flag_names[i] was given */
    bool help;      /* -h or --help */
} cli_args;

/* Splits argv[1..] into `flag_names` (NULL-terminated, e.g. "--compact"), -h/--help and
 * positionals; "--" ends the options. Reorders argv in place. On an unknown option prints a
 * usage error and returns CLI_FAILURE, else CLI_OK. */
int cli_parse_args(const cli_command *cmd, int argc, char **argv, const char *const *flag_names,
                   cli_args *out);

/* Prints "usage: contingency-cli NAME ARGS" and the details to `out`. */
void cli_print_usage(const cli_command *cmd, FILE *out);

/* Prints "contingency-cli NAME: MESSAGE" and a pointer to --help on stderr; returns
 * CLI_FAILURE. */
int cli_usage_error(const cli_command *cmd, const char *message, const char *arg);

/* Prints `err` as ctg_error_format() does, one line on stderr, and returns the exit status
 * of the ctg status `rc`: CLI_INVALID for bad input, CLI_FAILURE for I/O, memory, or misuse. */
int cli_report(int rc, const ctg_error *err);

#endif
