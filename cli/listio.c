/* SPDX-License-Identifier: MPL-2.0 */
/* What convert and resolve share: LIST read once, its start kept (and replayed) until the
 * list's shape is known, and a list written to OUT ("-" is stdout), whole or as it streams. */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

bool cli_input_once(const char *path)
{
    struct stat st;

    if (strcmp(path, "-") == 0)
        return true;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int cli_input_open(cli_input *in, const char *path, cli_progress *progress, ctg_error *err)
{
    struct stat st;

    memset(in, 0, sizeof *in);
    in->keep = true;
    in->fd = STDIN_FILENO;
    in->name = CLI_STDIN_NAME;
    in->progress = progress;
    if (strcmp(path, "-") != 0) {
        in->name = path;
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0)
            return cli_io_failure(err, path, "cannot open", errno);
        in->close_fd = true;
    }
    if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode)) {
        in->start = lseek(in->fd, 0, SEEK_CUR);
        in->rewind = in->start >= 0;
        in->keep = !in->rewind;
        if (st.st_size > in->start && in->rewind)
            in->size = (size_t)(st.st_size - in->start);
    }
    return CTG_OK;
}

static int keep_bytes(cli_input *in, const void *data, size_t len)
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

/* Serves the kept bytes being replayed; false when there are none left. */
static bool replay_bytes(cli_input *in, void *buf, size_t cap, size_t *got)
{
    size_t from = in->replay - 1, n = in->kept_len - from;

    if (n == 0) {
        in->replay = 0;
        return false;
    }
    n = n < cap ? n : cap;
    memcpy(buf, in->kept + from, n);
    in->replay += n;
    *got = n;
    return true;
}

int cli_input_read(void *payload, void *buf, size_t cap, size_t *got)
{
    cli_input *in = payload;
    ssize_t n = 0;

    if (in->replay && replay_bytes(in, buf, cap, got))
        return 0;
    if (!in->eof) { /* a terminal is not read again after its end */
        do
            n = read(in->fd, buf, cap);
        while (n < 0 && errno == EINTR);
    }
    if (n < 0)
        return -1;
    in->eof = n == 0;
    in->consumed += (size_t)n;
    *got = (size_t)n;
    if (in->progress)
        cli_progress_update(in->consumed, in->size, in->progress);
    return in->keep && n > 0 ? keep_bytes(in, buf, (size_t)n) : 0;
}

void cli_input_forget(cli_input *in)
{
    in->keep = false;
    free(in->kept);
    in->kept = NULL;
    in->kept_len = in->kept_cap = 0;
}

/* A regular file positioned at its start again, its reads counted from there. */
static int rewind_file(cli_input *in, ctg_error *err)
{
    if (lseek(in->fd, in->start, SEEK_SET) < 0)
        return cli_io_failure(err, in->name, "cannot read again", errno);
    in->eof = false;
    in->consumed = 0;
    return CTG_OK;
}

int cli_input_restart(cli_input *in, ctg_error *err)
{
    in->keep = false;
    if (in->rewind)
        return rewind_file(in, err);
    in->replay = 1;
    return CTG_OK;
}

int cli_input_finish(cli_input *in, ctg_error *err)
{
    char chunk[65536];
    size_t got = 1;
    int rc;

    if (in->rewind && !in->keep) { /* nothing kept: the whole file, from its start */
        if ((rc = rewind_file(in, err)) != CTG_OK)
            return rc;
        cli_input_forget(in);
        in->keep = true;
    }
    while (got > 0) {
        if (cli_input_read(in, chunk, sizeof chunk, &got) != 0)
            return cli_io_failure(err, in->name, "read failed", errno);
    }
    return CTG_OK;
}

/* A regular file read again from an offset by pread: its own offset is left as it is. */
typedef struct reread {
    int fd;
    off_t at;
} reread;

static int reread_read(void *payload, void *buf, size_t cap, size_t *got)
{
    reread *r = payload;
    ssize_t n;

    do
        n = pread(r->fd, buf, cap, r->at);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return -1;
    r->at += n;
    *got = (size_t)n;
    return 0;
}

bool cli_input_locate(const cli_input *in, const char *pointer, ctg_location *at)
{
    reread again = { in->fd, in->start };
    bool kept = in->kept != NULL || !in->rewind; /* a regular file is read again, unless kept */
    ctg_source src = kept ? ctg_source_buffer(in->kept, in->kept_len)
                          : ctg_source_callback(reread_read, &again, in->size);
    ctg_read_options opts = cli_input_options(in);

    if (kept && in->kept == NULL)
        return false;
    return ctg_locate(&src, &pointer, 1, at, &opts, NULL) == CTG_OK && at->found;
}

void cli_input_place(const cli_input *in, ctg_error *err)
{
    ctg_location at;

    if (err->line != 0 || err->path[0] == '\0' || strcmp(err->source, in->name) != 0)
        return;
    if (cli_input_locate(in, err->path, &at)) {
        err->line = at.line;
        err->column = at.column;
        err->offset = at.offset;
    }
}

void cli_input_close(cli_input *in)
{
    if (in->close_fd)
        close(in->fd);
    cli_input_forget(in);
}

ctg_read_options cli_input_options(const cli_input *in)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;

    opts.source_name = in->name;
    return opts;
}

bool cli_list_streams(const ctg_stream_header *h)
{
    return h->depth == 0 && h->kind == CTG_LIST_DEFAULT && h->name;
}

int cli_on_nested_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    cli_list_job *j = payload;

    (void)h;
    (void)list;
    j->whole = true;
    return 1;
}

int cli_stdout_flushed(ctg_error *err)
{
    if (fflush(stdout) == 0)
        return CTG_OK;
    return cli_io_failure(err, CLI_STDOUT_NAME, "cannot write", errno);
}

int cli_list_write(const char *out, const ctg_list *list, const ctg_write_options *opts,
                   ctg_error *err)
{
    int rc;

    if (strcmp(out, "-") != 0)
        return ctg_list_write_file(out, list, opts, err);
    rc = ctg_list_write_fp(stdout, list, opts, err);
    return rc == CTG_OK ? cli_stdout_flushed(err) : rc;
}

int cli_list_writer_open(ctg_stream_writer **w, const char *out, const char *name,
                         const ctg_write_options *opts, ctg_error *err)
{
    if (strcmp(out, "-") == 0)
        return ctg_stream_writer_open_fp(w, stdout, name, opts, err);
    return ctg_stream_writer_open_path(w, out, name, opts, err);
}

bool cli_maybe_sa(int rc, const ctg_error *err)
{
    return rc == CTG_ESCHEMA
           && ((err->path[0] == '\0' && strcmp(err->message, "expected object, got array") == 0)
               || strncmp(err->message, "this is ", 8) == 0);
}
