/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli convert [--compact] [--break-links] IN OUT: reads a list and writes it back.
 *
 * The input is read once, as it streams. A `default` list with its name first (PowSyBl's
 * layout) is written one contingency at a time, in constant memory, from a file, a pipe or
 * stdin to a file, a device, a pipe or stdout. Until its first contingency shows that it is
 * one, every byte read is kept: any other list (another kind, nested lists, the name last) is
 * then read whole from those bytes and the rest of the input, never from the input again, as
 * a pipe cannot be read twice. */

#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* FLAG_NO_PROGRESS is not an option name's bit: it is set from cli_args.no_progress. */
enum { FLAG_COMPACT = 1u << 0, FLAG_BREAK_LINKS = 1u << 1, FLAG_NO_PROGRESS = 1u << 31 };

static const char *const convert_flags[] = { "--compact", "--break-links", NULL };

/* ---- the output ----------------------------------------------------------------------- */

typedef struct job {
    cli_list_job base; /* first: the visitor's payload */
    const char *out;   /* "-" is stdout */
    ctg_write_options opts;
    ctg_stream_writer *writer;
    int write_rc;
    ctg_error write_err;
} job;

static bool to_stdout(const job *j)
{
    return strcmp(j->out, "-") == 0;
}

/* A write failure. A closed pipe is exit 1 (whoever read the output stopped: `| head`), in
 * one line; a file with other hard links says how to replace it anyway. */
static int report_write(const job *j, int rc, ctg_error *err)
{
    struct stat st;
    int status;

    if (to_stdout(j))
        snprintf(err->source, sizeof err->source, CLI_STDOUT_NAME);
    status = cli_report(rc, err);
    if (cli_signals_pipe_broken())
        return CLI_INVALID;
    if (rc == CTG_EINVAL && !(j->opts.flags & CTG_WRITE_BREAK_LINKS) && stat(j->out, &st) == 0
        && S_ISREG(st.st_mode) && st.st_nlink > 1)
        fprintf(stderr, "%s convert: --break-links replaces it anyway\n", CLI_NAME);
    return status;
}

/* Any list but a streamable one: read whole from the kept bytes and the rest. */
static int convert_whole(job *j)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    int rc = cli_input_finish(&j->base.in, &err);

    opts.source_name = j->base.in.name;
    if (rc == CTG_OK)
        rc = ctg_list_read_buffer(&list, j->base.in.kept, j->base.in.kept_len, &opts, &err);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    rc = cli_list_write(j->out, list, &j->opts, &err);
    ctg_list_free(list);
    return rc == CTG_OK ? CLI_OK : report_write(j, rc, &err);
}

/* ---- streaming ------------------------------------------------------------------------ */

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    job *j = payload;

    if (!cli_list_streams(h)) {
        j->base.whole = true;
        return 1;
    }
    if (!j->writer) {
        j->write_rc = cli_list_writer_open(&j->writer, j->out, h->name, &j->opts, &j->write_err);
        if (j->write_rc != CTG_OK)
            return 1;
        cli_input_forget(&j->base.in);
    }
    j->write_rc = ctg_stream_writer_add(j->writer, c, &j->write_err);
    return j->write_rc != CTG_OK;
}

/* What the stream read left to do: close the writer, or convert whole, or report. */
static int finish(job *j, int rc, ctg_error *err)
{
    if (j->write_rc != CTG_OK) {
        ctg_stream_writer_abort(j->writer);
        return report_write(j, j->write_rc, &j->write_err);
    }
    if (j->writer && rc != CTG_OK) {
        ctg_stream_writer_abort(j->writer); /* a file OUT is left as it was */
        return cli_report(rc, err);
    }
    if (j->writer) {
        rc = ctg_stream_writer_close(j->writer, err);
        if (rc == CTG_OK && to_stdout(j))
            rc = cli_stdout_flushed(err);
        return rc == CTG_OK ? CLI_OK : report_write(j, rc, err);
    }
    if (rc == CTG_OK || (rc == CTG_ESTOPPED && j->base.whole))
        return convert_whole(j);
    return cli_report(rc, err);
}

static int convert(const char *in, const char *out, unsigned flags)
{
    job j;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_contingency,
                      .list = cli_on_nested_list, .progress = cli_progress_update, .payload = &j };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    ctg_source src;
    ctg_error err;
    int rc;

    memset(&j, 0, sizeof j);
    j.out = out;
    wopts.flags = (flags & FLAG_COMPACT ? CTG_WRITE_COMPACT : 0)
                  | (flags & FLAG_BREAK_LINKS ? CTG_WRITE_BREAK_LINKS : 0);
    wopts.temp_file = cli_signals_temp_file; /* removed if a signal ends us */
    j.opts = wopts;
    if (cli_input_open(&j.base.in, in, NULL, &err) != CTG_OK)
        return cli_report(CTG_EIO, &err);
    opts.source_name = j.base.in.name;
    src = ctg_source_callback(cli_input_read, &j.base.in, j.base.in.size);
    cli_progress_init(&j.base.progress, !(flags & FLAG_NO_PROGRESS), NULL);
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&j.base.progress);
    rc = finish(&j, rc, &err);
    cli_input_close(&j.base.in);
    return rc;
}

int cli_convert(const cli_command *cmd, int argc, char **argv)
{
    cli_args args;
    int status = cli_parse_args(cmd, argc, argv, convert_flags, &args);

    if (status != CLI_OK)
        return status;
    if (args.help)
        return cli_help(cmd);
    if (args.npos != 2)
        return cli_usage_error(cmd, args.npos < 2 ? "missing IN or OUT" : "too many arguments",
                               NULL);
    if (args.no_progress)
        args.flags |= FLAG_NO_PROGRESS;
    cli_signals_catch_pipe();
    return convert(args.pos[0], args.pos[1], args.flags);
}

void cli_convert_versions(FILE *out)
{
    fputs("\nformat version written, by kind of list (whatever the version of IN):\n", out);
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++) {
        const char *version = ctg_list_kind_version((ctg_list_kind)k);
        fprintf(out, "  %-34s %s\n", ctg_list_kind_name((ctg_list_kind)k),
                version ? version : "none (a bare contingency has no version)");
    }
}
