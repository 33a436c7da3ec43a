/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli validate FILE...: reads each file and says whether it is a valid list.
 * The read streams, so a file of any size is checked in constant memory. With --lenient (or
 * --max-errors) a bad contingency is reported and skipped, and the read goes on: every error
 * of a file is reported in one run, up to the limit. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/sa.h"

#include "cli.h"
#include "diag.h"

/* What one run of validate is told and has found, over all its files. */
typedef struct validate_run {
    cli_diag_format format;
    bool lenient;      /* go on after a skippable error */
    size_t max_errors; /* stop after this many errors; 0: no limit */
    size_t errors;     /* reported so far */
    bool cut;          /* the limit left something unread */
} validate_run;

/* The visitor's payload for one file: the progress bar first (it is also the bar's). */
typedef struct validate_file {
    cli_progress progress;
    validate_run *run;
} validate_file;

static bool limit_reached(const validate_run *run)
{
    return run->max_errors != 0 && run->errors >= run->max_errors;
}

/* A contingency the lenient read skipped: its error, printed as it comes. Stops the read once
 * the limit is reached. */
static int on_error(const ctg_error *err, void *payload)
{
    validate_file *f = payload;
    cli_diag d = cli_diag_from_error(err);

    cli_progress_done(&f->progress); /* the line is the diagnostic's; the bar comes back */
    cli_diag_print(f->run->format == CLI_DIAG_JSON ? stdout : stderr, f->run->format, &d);
    f->run->errors++;
    return limit_reached(f->run);
}

/* A file that is no contingency list may be a security-analysis document (ctg/sa.h): an array
 * root, or a root member of one. Read again as that (not for stdin, which cannot be re-read);
 * its verdict replaces the list reader's: its exit status. */
static int validate_sa(const char *path, const cli_args *args, validate_run *run)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_sa_doc *doc = NULL;
    ctg_error err;
    int rc;

    rc = ctg_sa_read_file(&doc, CTG_SA_ANY, path, &opts, &err);
    if (rc != CTG_OK) {
        run->errors++;
        return cli_diag_report(run->format, rc, &err);
    }
    if (!args->quiet && run->format == CLI_DIAG_TEXT) {
        cli_put_escaped(stdout, cli_input_name(path));
        printf(": ok (%s)\n", ctg_sa_kind_name(ctg_sa_doc_kind(doc)));
    }
    ctg_sa_doc_free(doc);
    return CLI_OK;
}

/* Reads one file ("-" is stdin); returns its exit status. With several files the progress
 * bar names the one it is reading. */
static int validate_one(const char *path, const cli_args *args, validate_run *run)
{
    ctg_source src = cli_source(path);
    ctg_read_options opts = cli_read_options(path);
    validate_file f = { .run = run };
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .progress = cli_progress_update,
                      .error = on_error,
                      .payload = &f };
    size_t before = run->errors;
    ctg_error err;
    int rc;

    /* Extension values are checked, not kept: constant memory whatever they hold. */
    opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES;
    if (run->lenient)
        opts.flags |= CTG_READ_LENIENT;
    cli_progress_init(&f.progress, !args->no_progress,
                      args->npos > 1 ? cli_input_name(path) : NULL);
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&f.progress);
    /* Stopped by on_error: the limit is reached, every error already printed. */
    if (rc == CTG_ESTOPPED) {
        run->cut = true;
        return CLI_INVALID;
    }
    if (rc != CTG_OK && !run->lenient && strcmp(path, "-") != 0 && cli_maybe_sa(rc, &err))
        return validate_sa(path, args, run);
    if (rc != CTG_OK) {
        run->errors++;
        return cli_diag_report(run->format, rc, &err);
    }
    if (run->errors > before)
        return CLI_INVALID;
    if (!args->quiet && run->format == CLI_DIAG_TEXT) {
        cli_put_escaped(stdout, cli_input_name(path));
        fputs(": ok\n", stdout);
    }
    return CLI_OK;
}

/* --max-errors N: a decimal count, 0 for no limit. */
static int parse_count(const char *text, size_t *out)
{
    char *end;
    unsigned long long n;

    if (text[0] < '0' || text[0] > '9')
        return -1;
    errno = 0;
    n = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || n > SIZE_MAX)
        return -1;
    *out = (size_t)n;
    return 0;
}

enum { OPT_LENIENT, OPT_STRICT };
enum { VAL_MAX_ERRORS, VAL_FORMAT, VAL_COUNT };

/* Reads validate's own options into `run`; returns CLI_OK or the usage error's status. */
static int parse_run(const cli_command *cmd, const cli_args *args, const char **values,
                     validate_run *run)
{
    if (cli_diag_format_parse(values[VAL_FORMAT], &run->format) != 0)
        return cli_usage_error(cmd, "unknown --format (text or json)", values[VAL_FORMAT]);
    if (values[VAL_MAX_ERRORS] && parse_count(values[VAL_MAX_ERRORS], &run->max_errors) != 0)
        return cli_usage_error(cmd, "--max-errors needs a count", values[VAL_MAX_ERRORS]);
    /* A limit means going on after an error: it implies --lenient. */
    run->lenient = (args->flags & (1u << OPT_LENIENT)) || values[VAL_MAX_ERRORS] != NULL;
    if (run->lenient && (args->flags & (1u << OPT_STRICT)))
        return cli_usage_error(cmd, "--strict reads strictly: not with --lenient or --max-errors",
                               NULL);
    return CLI_OK;
}

/* --strict: lint's checks instead (cmd_lint.c), its findings printed as lint prints them. */
static int validate_strict(const char *path, const cli_args *args, const validate_run *run)
{
    cli_lint_config cfg = { run->format, false, !args->no_progress, args->npos > 1 };
    int rc = cli_lint_file(path, &cfg);

    if (rc == CLI_OK && !args->quiet && run->format == CLI_DIAG_TEXT) {
        cli_put_escaped(stdout, cli_input_name(path));
        fputs(": ok\n", stdout);
    }
    return rc;
}

int cli_validate(const cli_command *cmd, int argc, char **argv)
{
    static const char *const flags[] = { "--lenient", "--strict", NULL };
    static const char *const valued[] = { "--max-errors", "--format", NULL };
    const char *values[VAL_COUNT] = { NULL, NULL };
    cli_options opts = { flags, valued, values };
    validate_run run = { CLI_DIAG_TEXT, false, 0, 0, false };
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    if ((status = parse_run(cmd, &args, values, &run)) != CLI_OK)
        return status;
    if (args.npos == 0)
        return cli_usage_error(cmd, "no file given", NULL);
    /* Every file is checked, up to the limit; the worst outcome decides the exit status. */
    for (int i = 0; i < args.npos; i++) {
        int one;
        if (limit_reached(&run)) {
            run.cut = true;
            break;
        }
        one = args.flags & (1u << OPT_STRICT) ? validate_strict(args.pos[i], &args, &run)
                                              : validate_one(args.pos[i], &args, &run);
        if (one > status)
            status = one;
    }
    if (run.cut && !args.quiet)
        fprintf(stderr, "%s validate: stopped after %zu errors (--max-errors)\n", CLI_NAME,
                run.errors);
    return cli_flush_stdout(status);
}
