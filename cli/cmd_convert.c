/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli convert [--compact] [--break-links] IN OUT: reads a list and writes it back.
 *
 * The input is read once, as it streams. A `default` list with its name first (PowSyBl's
 * layout) is written one contingency at a time, in constant memory, from a file, a pipe or
 * stdin to a file, a device, a pipe or stdout. Until its first contingency shows that it is
 * one, every byte read is kept: any other list (another kind, nested lists, the name last) is
 * then read whole from those bytes and the rest of the input, never from the input again, as
 * a pipe cannot be read twice. */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* FLAG_NO_PROGRESS is not an option name's bit: it is set from cli_args.no_progress. */
enum { FLAG_COMPACT = 1u << 0, FLAG_BREAK_LINKS = 1u << 1, FLAG_NO_PROGRESS = 1u << 31 };

static const char *const convert_flags[] = { "--compact", "--break-links", NULL };

/* ---- the input: read once, its start kept until the list's shape is known ------------ */

typedef struct input {
    int fd;
    bool close_fd;
    const char *name; /* for errors: the path, or "<stdin>" */
    size_t size;      /* a regular file's size, for the progress bar; else 0 */
    bool eof;         /* a terminal is not read again after its end */
    bool keep;        /* keep a copy of what is read */
    char *kept;
    size_t kept_len, kept_cap;
} input;

static int input_open(input *in, const char *path, ctg_error *err)
{
    struct stat st;

    memset(in, 0, sizeof *in);
    in->keep = true;
    in->fd = STDIN_FILENO;
    in->name = CLI_STDIN_NAME;
    if (strcmp(path, "-") != 0) {
        in->name = path;
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0)
            return cli_io_failure(err, path, "cannot open", errno);
        in->close_fd = true;
    }
    if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        in->size = (size_t)st.st_size;
    return CTG_OK;
}

static int keep_bytes(input *in, const void *data, size_t len)
{
    if (len > in->kept_cap - in->kept_len) {
        size_t cap = in->kept_cap ? in->kept_cap : 65536;
        char *p;

        while (cap - in->kept_len < len && cap <= SIZE_MAX / 2)
            cap *= 2;
        p = cap - in->kept_len >= len ? realloc(in->kept, cap) : NULL;
        if (p == NULL) {
            errno = ENOMEM;
            return -1;
        }
        in->kept = p;
        in->kept_cap = cap;
    }
    memcpy(in->kept + in->kept_len, data, len);
    in->kept_len += len;
    return 0;
}

/* The stream read's source (ctg_source_callback): the input, a copy kept while `keep`. */
static int input_read(void *payload, void *buf, size_t cap, size_t *got)
{
    input *in = payload;
    ssize_t n = 0;

    if (!in->eof) {
        do
            n = read(in->fd, buf, cap);
        while (n < 0 && errno == EINTR);
    }
    if (n < 0)
        return -1;
    in->eof = n == 0;
    *got = (size_t)n;
    return in->keep && n > 0 ? keep_bytes(in, buf, (size_t)n) : 0;
}

/* The list streams: the copy is not needed. */
static void input_forget(input *in)
{
    in->keep = false;
    free(in->kept);
    in->kept = NULL;
    in->kept_len = in->kept_cap = 0;
}

/* Adds the rest of the input to what was kept: then the copy is the whole document. */
static int input_finish(input *in, ctg_error *err)
{
    char chunk[65536];
    size_t got = 1;

    while (got > 0) {
        if (input_read(in, chunk, sizeof chunk, &got) != 0)
            return cli_io_failure(err, in->name, "read failed", errno);
    }
    return CTG_OK;
}

static void input_close(input *in)
{
    if (in->close_fd)
        close(in->fd);
    input_forget(in);
}

/* ---- the output ----------------------------------------------------------------------- */

typedef struct job {
    cli_progress progress; /* first: the visitor's payload is also the progress bar's */
    input in;
    const char *out;       /* "-" is stdout */
    ctg_write_options opts;
    ctg_stream_writer *writer;
    bool whole;            /* not a `default` list with its name first: convert it whole */
    int write_rc;
    ctg_error write_err;
} job;

static bool to_stdout(const job *j)
{
    return strcmp(j->out, "-") == 0;
}

/* stdout is flushed so that a full disk or a closed pipe is reported, not lost at exit. */
static int flush_stdout(ctg_error *err)
{
    return fflush(stdout) == 0 ? CTG_OK : cli_io_failure(err, CLI_STDOUT_NAME, "cannot write", errno);
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

static int write_whole(const job *j, const ctg_list *list, ctg_error *err)
{
    int rc;

    if (!to_stdout(j))
        return ctg_list_write_file(j->out, list, &j->opts, err);
    rc = ctg_list_write_fp(stdout, list, &j->opts, err);
    return rc == CTG_OK ? flush_stdout(err) : rc;
}

/* Any list but a streamable one: read whole from the kept bytes and the rest. */
static int convert_whole(job *j)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    int rc = input_finish(&j->in, &err);

    opts.source_name = j->in.name;
    if (rc == CTG_OK)
        rc = ctg_list_read_buffer(&list, j->in.kept, j->in.kept_len, &opts, &err);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    rc = write_whole(j, list, &err);
    ctg_list_free(list);
    return rc == CTG_OK ? CLI_OK : report_write(j, rc, &err);
}

/* ---- streaming ------------------------------------------------------------------------ */

static int open_writer(job *j, const char *name)
{
    if (to_stdout(j))
        return ctg_stream_writer_open_fp(&j->writer, stdout, name, &j->opts, &j->write_err);
    return ctg_stream_writer_open_path(&j->writer, j->out, name, &j->opts, &j->write_err);
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    job *j = payload;

    if (h->depth != 0 || h->kind != CTG_LIST_DEFAULT || !h->name) {
        j->whole = true;
        return 1;
    }
    if (!j->writer) {
        j->write_rc = open_writer(j, h->name);
        if (j->write_rc != CTG_OK)
            return 1;
        input_forget(&j->in);
    }
    j->write_rc = ctg_stream_writer_add(j->writer, c, &j->write_err);
    return j->write_rc != CTG_OK;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    job *j = payload;

    (void)h;
    (void)list;
    j->whole = true;
    return 1;
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
            rc = flush_stdout(err);
        return rc == CTG_OK ? CLI_OK : report_write(j, rc, err);
    }
    if (rc == CTG_OK || (rc == CTG_ESTOPPED && j->whole))
        return convert_whole(j);
    return cli_report(rc, err);
}

static int convert(const char *in, const char *out, unsigned flags)
{
    job j;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_contingency,
                      .list = on_list, .progress = cli_progress_update, .payload = &j };
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
    if (input_open(&j.in, in, &err) != CTG_OK)
        return cli_report(CTG_EIO, &err);
    opts.source_name = j.in.name;
    src = ctg_source_callback(input_read, &j.in, j.in.size);
    cli_progress_init(&j.progress, !(flags & FLAG_NO_PROGRESS), NULL);
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&j.progress);
    rc = finish(&j, rc, &err);
    input_close(&j.in);
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
