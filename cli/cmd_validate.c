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
    /* stdin: its bytes kept until a contingency or a list shows it is a contingency list, so
     * that a security-analysis document can be read from them; else NULL */
    cli_input *in;
} validate_file;

static bool limit_reached(const validate_run *run)
{
    return run->max_errors != 0 && run->errors >= run->max_errors;
}

/* The input is a contingency list: what was kept of stdin is not needed. */
static int seen_list(void *payload)
{
    validate_file *f = payload;

    if (f->in != NULL && f->in->keep)
        cli_input_forget(f->in);
    return 0;
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
    seen_list(payload); /* a contingency was skipped: the input is a contingency list */
    return limit_reached(f->run) || cli_signals_pipe_broken(); /* nobody reads the rest */
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    (void)h, (void)c;
    return seen_list(payload);
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    (void)h, (void)list;
    return seen_list(payload);
}

/* A file that is no contingency list may be a security-analysis document (ctg/sa.h): an array
 * root, or a root member of one. Read again as that (stdin, `in`, from the bytes kept and the
 * rest of it); its verdict replaces the list reader's: its exit status. */
static int validate_sa(const char *path, cli_input *in, const cli_args *args, validate_run *run)
{
    ctg_read_options opts = cli_read_options(path);
    ctg_sa_doc *doc = NULL;
    ctg_error err;
    int rc = in ? cli_input_finish(in, &err) : CTG_OK;

    if (rc == CTG_OK)
        rc = in ? ctg_sa_read_buffer(&doc, CTG_SA_ANY, in->kept, in->kept_len, &opts, &err)
                : ctg_sa_read_file(&doc, CTG_SA_ANY, path, &opts, &err);
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

/* Reads one file; returns the ctg status, `err` filled on failure. Stdin or a pipe is read
 * through `in`, keeping its bytes until it shows it is a contingency list. */
static int read_one(const char *path, const cli_args *args, validate_file *f, cli_input *in,
                    ctg_error *err)
{
    ctg_source src = cli_source(path);
    ctg_read_options opts = cli_read_options(path);
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .progress = cli_progress_update,
                      .error = on_error,
                      .payload = f };
    int rc;

    if (cli_input_once(path)) {
        if ((rc = cli_input_open(in, path, NULL, err)) != CTG_OK)
            return rc;
        f->in = in;
        src = ctg_source_callback(cli_input_read, in, 0);
        v.contingency = on_contingency;
        v.list = on_list;
    }
    /* Extension values are checked, not kept: constant memory whatever they hold. */
    opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES;
    if (f->run->lenient)
        opts.flags |= CTG_READ_LENIENT;
    cli_progress_init(&f->progress, !args->no_progress,
                      args->npos > 1 ? cli_input_name(path) : NULL);
    rc = ctg_read_stream(&src, &v, &opts, err);
    cli_progress_done(&f->progress);
    return rc;
}

/* The verdict on `path`, whose read returned `rc` (`err`), the run's errors having been
 * `before` at its start: its exit status. */
static int verdict(const char *path, const cli_args *args, validate_file *f, int rc,
                   const ctg_error *err, size_t before)
{
    validate_run *run = f->run;
    /* Stdin or a pipe can be read as a security-analysis document while all its bytes are
     * kept. Such a document is read strictly, --lenient or not: it has no contingency to skip
     * (and none was: no error of this file was reported). */
    bool rereadable = f->in ? f->in->keep || f->in->rewind : !cli_input_once(path);

    /* Stopped by on_error: the limit is reached, every error already printed. */
    if (rc == CTG_ESTOPPED) {
        run->cut = limit_reached(run); /* else a closed stdout stopped it: said at the end */
        return CLI_INVALID;
    }
    if (rc != CTG_OK && run->errors == before && rereadable && cli_maybe_sa(rc, err))
        return validate_sa(path, f->in, args, run);
    if (rc != CTG_OK) {
        run->errors++;
        return cli_diag_report(run->format, rc, err);
    }
    if (run->errors > before)
        return CLI_INVALID;
    if (!args->quiet && run->format == CLI_DIAG_TEXT) {
        cli_put_escaped(stdout, cli_input_name(path));
        fputs(": ok\n", stdout);
    }
    return CLI_OK;
}

/* Reads one file ("-" is stdin); returns its exit status. With several files the progress
 * bar names the one it is reading. */
static int validate_one(const char *path, const cli_args *args, validate_run *run)
{
    validate_file f = { .run = run };
    size_t before = run->errors;
    cli_input in;
    ctg_error err;
    int rc = read_one(path, args, &f, &in, &err);
    int status = verdict(path, args, &f, rc, &err, before);

    if (f.in != NULL)
        cli_input_close(f.in);
    return status;
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
    /* A closed stdout (the reader of the "ok" lines is gone) ends the run: said at the end. */
    for (int i = 0; i < args.npos && !cli_signals_pipe_broken(); i++) {
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
