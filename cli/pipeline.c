/* SPDX-License-Identifier: MPL-2.0 */
/* The streamed read filter, merge and split share (see pipeline.h). An input without any
 * contingency is read whole again for its name (cli_input_finish: the bytes a pipe kept, a
 * regular file from its start). */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline.h"

static int vfail(int status, const char *source, unsigned line, unsigned column, const char *path,
                 const char *fmt, va_list ap)
{
    ctg_error err;
    char text[CTG_ERROR_SOURCE_MAX + CTG_ERROR_PATH_MAX + CTG_ERROR_MESSAGE_MAX + 64];

    memset(&err, 0, sizeof err);
    err.code = status == CLI_INVALID ? CTG_ESCHEMA : CTG_EIO;
    err.line = line;
    err.column = column;
    snprintf(err.source, sizeof err.source, "%s", source);
    snprintf(err.path, sizeof err.path, "%s", path);
    vsnprintf(err.message, sizeof err.message, fmt, ap);
    ctg_error_format(&err, text, sizeof text);
    fprintf(stderr, "%s\n", text);
    return status;
}

int pl_fail(int status, const char *source, const char *path, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    status = vfail(status, source, 0, 0, path, fmt, ap);
    va_end(ap);
    return status;
}

int pl_fail_at(int status, const char *source, unsigned line, unsigned column, const char *path,
               const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    status = vfail(status, source, line, column, path, fmt, ap);
    va_end(ap);
    return status;
}

/* The list at `list` (a JSON Pointer, "" for the root) has no name before its first
 * contingency: said at its name, after them, or as the reader says a missing one, at the
 * list's brace (the input read again for the place). */
static int name_not_first(pl_read *r, const char *list)
{
    ctg_location at;
    char name[80];

    snprintf(name, sizeof name, "%s/name", list);
    if (cli_input_locate(&r->in, name, &at))
        return pl_fail_at(CLI_INVALID, r->in.name, at.line, at.column, name,
                          "the list's name comes after its contingencies; convert writes it "
                          "first");
    if (!cli_input_locate(&r->in, list, &at))
        at.line = at.column = 0;
    return pl_fail_at(CLI_INVALID, r->in.name, at.line, at.column, name,
                      "missing required field \"name\"");
}

/* Where `c` sits (in `path`, when not NULL), and a check that its list is one these commands
 * can write. */
static int place(pl_read *r, const ctg_stream_header *h, char *path, size_t cap)
{
    char list[64] = ""; /* the JSON Pointer of a nested list */

    if (h->depth == 1)
        snprintf(list, sizeof list, "/contingencyLists/%zu", h->index);
    if (h->depth > 1 || (h->depth == 1 && !r->flatten))
        return pl_fail(
            CLI_INVALID, r->in.name, h->depth == 1 ? list : "", "lists nested in a list: %s",
            r->flatten ? "only one level of nesting is flattened" : "merge flattens them");
    if (h->kind != CTG_LIST_DEFAULT)
        return pl_fail(CLI_INVALID, r->in.name, list, "a list of type \"%s\", not \"default\"",
                       ctg_list_kind_name(h->kind));
    if (h->name == NULL)
        return name_not_first(r, list);
    if (r->seen == 0 || h->depth != r->list_depth || h->index != r->list_index) {
        r->in_list = 0;
        r->list_depth = h->depth;
        r->list_index = h->index;
    }
    if (path != NULL && r->places) /* its text costs, on every contingency */
        snprintf(path, cap, "%s/contingencies/%zu", list, r->in_list);
    return CLI_OK;
}

static int on_contingency_at(const ctg_stream_header *h, const ctg_contingency *c,
                             const ctg_stream_place *at, void *payload)
{
    pl_read *r = payload;
    char path[96];

    r->status = place(r, h, path, sizeof path);
    if (r->status != CLI_OK)
        return 1;
    if (r->seen++ == 0) {
        if (r->name == NULL) /* else the name of an empty list before it */
            r->name = strdup(h->name);
        if (r->name == NULL) {
            r->status = pl_fail(CLI_FAILURE, r->in.name, "", "out of memory");
            return 1;
        }
        cli_input_forget(&r->in);
    }
    r->in_list++;
    if (r->fn(h, c, r->places ? path : NULL, at, r->ctx) != 0)
        return r->stopped = true, 1;
    return 0;
}

/* Without places: after the first contingency of a top-level list, the next ones of that
 * list need none of place()'s checks (its kind and name were checked with the first), some 30
 * instructions a contingency for filter, split and merge. */
static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    pl_read *r = payload;

    if (r->seen == 0 || h->depth != 0 || r->list_depth != 0 || h->index != r->list_index)
        return on_contingency_at(h, c, NULL, payload);
    r->seen++;
    r->in_list++;
    if (r->fn(h, c, NULL, NULL, r->ctx) != 0)
        return r->stopped = true, 1;
    return 0;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    pl_read *r = payload;

    (void)list;
    r->status = place(r, h, NULL, 0);
    return 1;
}

/* A `default` list that ends before any contingency came: its name is the input's, when
 * it is the first (merge names its output after the first list, empty or not). */
static int on_list_end(const ctg_stream_header *h, void *payload)
{
    pl_read *r = payload;

    if (r->name != NULL || r->seen != 0 || h->kind != CTG_LIST_DEFAULT || h->name == NULL ||
        h->depth > 1 || (h->depth == 1 && !r->flatten)) /* what place() refuses */
        return 0;
    if ((r->name = strdup(h->name)) == NULL) {
        r->status = pl_fail(CLI_FAILURE, r->in.name, "", "out of memory");
        return 1;
    }
    return 0;
}

/* An input without contingencies: its kind and name, from the whole input read again. */
static int read_empty(pl_read *r)
{
    ctg_read_options opts = cli_input_options(&r->in);
    ctg_list *list = NULL;
    ctg_error err;
    int rc = cli_input_finish(&r->in, &err);

    if (rc == CTG_OK)
        rc = ctg_list_read_buffer(&list, r->in.kept, r->in.kept_len, &opts, &err);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    if (ctg_list_get_kind(list) == CTG_LIST_DEFAULT ||
        (r->flatten && ctg_list_get_kind(list) == CTG_LIST_LIST))
        r->name = strdup(ctg_list_name(list));
    else
        r->status = pl_fail(CLI_INVALID, r->in.name, "", "a list of type \"%s\", not \"default\"",
                            ctg_list_kind_name(ctg_list_get_kind(list)));
    ctg_list_free(list);
    if (r->status == CLI_OK && r->name == NULL)
        r->status = pl_fail(CLI_FAILURE, r->in.name, "", "out of memory");
    return r->status;
}

int pl_read_run(pl_read *r, const char *path)
{
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_contingency,
                      .list = on_list,
                      .progress = cli_progress_update,
                      .payload = r,
                      .list_end = on_list_end };
    ctg_read_options opts; /* once the input is open, named as it is */
    ctg_source src;
    ctg_error err;
    int rc;

    r->seen = 0;
    r->status = CLI_OK;
    r->stopped = false;
    free(r->name);
    r->name = NULL;
    if (cli_input_open(&r->in, path, NULL, &err) != CTG_OK)
        return cli_report(CTG_EIO, &err);
    if (r->display != NULL)
        r->in.name = r->display;
    if (r->places) /* the version-1 callback otherwise: a read without places costs less */
        v.contingency_at = on_contingency_at;
    opts = cli_input_options(&r->in);
    if (r->skip_extensions)
        opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES;
    src = ctg_source_callback(cli_input_read, &r->in, r->in.size);
    cli_progress_init(&r->progress, !r->no_progress, NULL);
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&r->progress);
    if (rc != CTG_OK && rc != CTG_ESTOPPED)
        r->status = cli_report(rc, &err);
    else if (rc == CTG_OK && r->seen == 0 && r->name == NULL)
        read_empty(r);
    cli_input_close(&r->in);
    return r->status;
}

void pl_read_dispose(pl_read *r)
{
    free(r->name);
    r->name = NULL;
}

/* ---- the output ----------------------------------------------------------------------- */

void pl_out_init(pl_out *o, const char *path, bool compact, bool break_links)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;

    opts.flags = (compact ? CTG_WRITE_COMPACT : 0) | (break_links ? CTG_WRITE_BREAK_LINKS : 0);
    opts.temp_file = cli_signals_temp_file; /* removed if a signal ends us */
    o->path = path;
    o->opts = opts;
    o->w = NULL;
}

int pl_out_failed(pl_out *o, int rc, ctg_error *err)
{
    int status;

    if (strcmp(o->path, "-") == 0)
        snprintf(err->source, sizeof err->source, CLI_STDOUT_NAME);
    status = cli_report(rc, err);
    pl_out_abort(o);
    return cli_signals_pipe_broken() ? CLI_INVALID : status;
}

int pl_out_open(pl_out *o, const char *name)
{
    ctg_error err;
    int rc;

    if (o->w != NULL)
        return CLI_OK;
    rc = cli_list_writer_open(&o->w, o->path, name, &o->opts, &err);
    return rc == CTG_OK ? CLI_OK : pl_out_failed(o, rc, &err);
}

int pl_out_close(pl_out *o)
{
    ctg_error err;
    int rc = ctg_stream_writer_close(o->w, &err);

    o->w = NULL;
    if (rc == CTG_OK && strcmp(o->path, "-") == 0)
        rc = cli_stdout_flushed(&err);
    return rc == CTG_OK ? CLI_OK : pl_out_failed(o, rc, &err);
}

void pl_out_abort(pl_out *o)
{
    ctg_stream_writer_abort(o->w);
    o->w = NULL;
}

/* ---- stdin spooled -------------------------------------------------------------------- */

const char *cli_temp_dir(void)
{
    const char *dir = getenv("TMPDIR");

    return dir != NULL && *dir != '\0' ? dir : "/tmp";
}

char *cli_temp_template(const char *prefix)
{
    const char *dir = cli_temp_dir();
    size_t len = strlen(dir) + 1 + strlen(prefix) + sizeof "-XXXXXX";
    char *path = malloc(len);

    if (path != NULL)
        snprintf(path, len, "%s/%s-XXXXXX", dir, prefix);
    return path;
}

int cli_copy_fd(int from, int to)
{
    char chunk[65536];
    ssize_t n;

    while ((n = read(from, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(to, chunk + done, (size_t)(n - done));

            if (w < 0 && errno != EINTR)
                return -1;
            done += w > 0 ? w : 0;
        }
    }
    return 0;
}

cli_spool_result cli_spool(int fd, const char *prefix, int slot, char **path)
{
    int to, failed, saved;

    if ((*path = cli_temp_template(prefix)) == NULL) {
        errno = ENOMEM;
        return CLI_SPOOL_NOMEM;
    }
    if ((to = mkstemp(*path)) < 0) {
        saved = errno;
        free(*path);
        *path = NULL;
        errno = saved;
        return CLI_SPOOL_CREATE;
    }
    cli_signals_temp_file_at(slot, *path);
    failed = cli_copy_fd(fd, to);
    saved = errno;
    if (close(to) != 0 && !failed) {
        failed = -1;
        saved = errno;
    }
    errno = saved;
    return failed ? CLI_SPOOL_COPY : CLI_SPOOL_OK;
}

void cli_spool_remove(char *path, int slot)
{
    if (path == NULL)
        return;
    unlink(path);
    cli_signals_temp_file_at(slot, NULL);
    free(path);
}

/* The copy of `path` (stdin for "-"), a descriptor `fd`, into *spool; reported as pl_fail. */
static int spool_fd(int fd, const char *path, int slot, char **spool)
{
    const char *name = cli_input_name(path);
    const char *what = strcmp(path, "-") == 0 ? "stdin" : "it";
    int status;

    switch (cli_spool(fd, "ctg-input", slot, spool)) {
    case CLI_SPOOL_OK:
        return CLI_OK;
    case CLI_SPOOL_NOMEM:
        return pl_fail(CLI_FAILURE, name, "", "out of memory");
    case CLI_SPOOL_CREATE:
        return pl_fail(CLI_FAILURE, name, "", "cannot create a copy of %s in %s: %s",
                       what, cli_temp_dir(), strerror(errno));
    default:
        status = pl_fail(CLI_FAILURE, name, "", "cannot copy %s: %s", what, strerror(errno));
        cli_spool_remove(*spool, slot);
        *spool = NULL;
        return status;
    }
}

/* Whether `path` names a pipe or a FIFO. A character device is read in place: one that never
 * ends (/dev/zero) must fail at its first byte, not fill $TMPDIR with a copy. */
static bool is_fifo(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
}

int pl_spool_input(const char *path, int slot, char **spool)
{
    bool in_stdin = strcmp(path, "-") == 0;
    int fd, status, saved;

    *spool = NULL;
    if (!in_stdin && !is_fifo(path))
        return CLI_OK;
    fd = in_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0)
        return pl_fail(CLI_FAILURE, path, "", "cannot open: %s", strerror(errno));
    status = spool_fd(fd, path, slot, spool);
    saved = errno;
    if (!in_stdin)
        close(fd);
    errno = saved;
    return status;
}

void pl_spool_remove(char *path, int slot)
{
    cli_spool_remove(path, slot);
}

bool pl_parse_count(const cli_command *cmd, const char *name, const char *text, size_t min,
                    size_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0 || v < min ||
        v > (unsigned long long)SIZE_MAX) {
        cli_usage_error(cmd, min ? "not a positive count" : "not a count", name);
        return false;
    }
    *out = (size_t)v;
    return true;
}

void pl_output_last(cli_args *args, const char *out)
{
    /* -o OUT took two of argv's slots, so pos (argv + 1) has room for one more */
    if (out != NULL)
        args->pos[args->npos++] = (char *)out;
}
