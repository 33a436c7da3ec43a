/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli convert [--compact] IN OUT: reads a list and writes it back. */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"

/* FLAG_NO_PROGRESS is not an option name's bit: it is set from cli_args.no_progress. */
enum { FLAG_COMPACT = 1u << 0, FLAG_NO_PROGRESS = 1u << 31 };

static const char *const convert_flags[] = { "--compact", NULL };

static int read_input(ctg_list **list, const char *path, ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;

    if (strcmp(path, "-") != 0)
        return ctg_list_read_file(list, path, &opts, err);
    opts.source_name = CLI_STDIN_NAME;
    return ctg_list_read_fp(list, stdin, &opts, err);
}

/* Writes to a path atomically, or to stdout; stdout is flushed so that a full disk or a
 * closed pipe is reported here and not lost at exit. */
static int write_output(const char *path, const ctg_list *list, unsigned flags, ctg_error *err)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    int rc;

    if (flags & FLAG_COMPACT)
        opts.flags |= CTG_WRITE_COMPACT;
    if (strcmp(path, "-") != 0)
        return ctg_list_write_file(path, list, &opts, err);
    rc = ctg_list_write_fp(stdout, list, &opts, err);
    if (rc != CTG_OK) /* the library calls every FILE * "<stream>" */
        snprintf(err->source, sizeof err->source, "%s", CLI_STDOUT_NAME);
    else if (fflush(stdout) != 0)
        rc = cli_io_failure(err, CLI_STDOUT_NAME, "cannot write", errno);
    return rc;
}

static int convert_whole(const char *in, const char *out, unsigned flags)
{
    ctg_list *list = NULL;
    ctg_error err;
    int rc = read_input(&list, in, &err);

    if (rc == CTG_OK)
        rc = write_output(out, list, flags, &err);
    ctg_list_free(list);
    return rc == CTG_OK ? CLI_OK : cli_report(rc, &err);
}

/* Streaming a `default` list from a file to a file: constant memory whatever its size. */
typedef struct stream_job {
    cli_progress progress; /* first: the visitor's payload is also the progress bar's */
    const char *out;
    unsigned flags;
    ctg_stream_writer *writer;
    bool fallback;         /* not a plain `default` list with its name first: convert whole */
    int write_rc;
    ctg_error write_err;
} stream_job;

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    stream_job *job = payload;
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;

    if (h->depth != 0 || h->kind != CTG_LIST_DEFAULT || !h->name) {
        job->fallback = true;
        return 1;
    }
    if (job->flags & FLAG_COMPACT)
        opts.flags |= CTG_WRITE_COMPACT;
    if (!job->writer)
        job->write_rc = ctg_stream_writer_open_path(&job->writer, job->out, h->name, &opts,
                                                    &job->write_err);
    if (job->write_rc == CTG_OK)
        job->write_rc = ctg_stream_writer_add(job->writer, c, &job->write_err);
    return job->write_rc != CTG_OK;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    stream_job *job = payload;

    (void)h;
    (void)list;
    job->fallback = true;
    return 1;
}

static int convert_stream(const char *in, const char *out, unsigned flags)
{
    stream_job job = { .out = out, .flags = flags };
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_contingency,
                      .list = on_list,
                      .progress = cli_progress_update,
                      .payload = &job };
    ctg_source src = ctg_source_path(in);
    ctg_error err;
    int rc;

    cli_progress_init(&job.progress, !(flags & FLAG_NO_PROGRESS), NULL);
    rc = ctg_read_stream(&src, &v, NULL, &err);
    cli_progress_done(&job.progress);
    if (job.write_rc != CTG_OK) {
        ctg_stream_writer_abort(job.writer);
        return cli_report(job.write_rc, &job.write_err);
    }
    if (rc == CTG_OK && job.writer) {
        rc = ctg_stream_writer_close(job.writer, &err);
        return rc == CTG_OK ? CLI_OK : cli_report(rc, &err);
    }
    ctg_stream_writer_abort(job.writer);
    if (rc == CTG_OK || (rc == CTG_ESTOPPED && job.fallback))
        return convert_whole(in, out, flags);
    return cli_report(rc, &err);
}

static int convert(const char *in, const char *out, unsigned flags)
{
    /* stdin cannot be read twice, and stdout cannot be taken back after an error. */
    if (strcmp(in, "-") == 0 || strcmp(out, "-") == 0)
        return convert_whole(in, out, flags);
    return convert_stream(in, out, flags);
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
