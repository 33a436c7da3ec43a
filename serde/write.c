/* The public write API (io.h): sinks for a memory buffer, a FILE *, a descriptor and an atomic
 * file replacement, all fed by the one emitter. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctg/io.h"
#include "model/alloc.h"
#include "serde/emit.h"
#include "serde/write_list.h"

/* ---- errors ----------------------------------------------------------------------------- */

static void copy_text(char *dst, size_t cap, const char *s)
{
    size_t n = strlen(s);

    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* A long source keeps its tail behind "...", where the file name is. */
static void copy_source(char *dst, size_t cap, const char *s)
{
    size_t n = strlen(s);

    if (n < cap) {
        memcpy(dst, s, n + 1);
        return;
    }
    memcpy(dst, "...", 3);
    memcpy(dst + 3, s + n - (cap - 4), cap - 4 + 1);
}

/* Fills every field of `err` (when not NULL) from the call's working record `w`, whose message
 * the emitter or a sink may already have written. */
static int finish_error(ctg_error *err, ctg_error *w, int code, const char *source)
{
    if (err == NULL)
        return code;
    w->code = (ctg_status)code;
    w->line = 0;
    w->column = 0;
    w->offset = 0;
    copy_source(w->source, sizeof w->source, source);
    w->path[0] = '\0';
    if (w->message[0] == '\0')
        copy_text(w->message, sizeof w->message, "write failed");
    *err = *w;
    return code;
}

static int set_message(ctg_error *w, int code, const char *msg)
{
    copy_text(w->message, sizeof w->message, msg);
    return code;
}

/* "what: <the system's reason>" for the errno at hand. */
static int io_failure(ctg_error *w, const char *what)
{
    int saved = errno;

    snprintf(w->message, sizeof w->message, "%s: %s", what,
             saved != 0 ? strerror(saved) : "unknown error");
    return CTG_EIO;
}

/* ---- the shared emission ---------------------------------------------------------------- */

static const ctg_write_options default_options = CTG_WRITE_OPTIONS_INIT;

static int check_args(const ctg_list *list, const ctg_write_options **opts, ctg_error *w)
{
    if (*opts == NULL)
        *opts = &default_options;
    if (list == NULL)
        return set_message(w, CTG_EINVAL, "no list to write");
    if ((*opts)->version != CTG_WRITE_OPTIONS_VERSION)
        return set_message(w, CTG_EINVAL, "unknown ctg_write_options version");
    if (((*opts)->flags & ~(unsigned)CTG_WRITE_COMPACT) != 0)
        return set_message(w, CTG_EINVAL, "unknown write flag");
    return CTG_OK;
}

static int emit_list(ctg_sink_fn sink, void *ctx, const ctg_list *list,
                     const ctg_write_options *opts, ctg_error *w)
{
    ctg_emitter e;
    int rc = ctg_emit_init(&e, sink, ctx, (opts->flags & CTG_WRITE_COMPACT) != 0,
                           opts->allocator, w);

    if (rc == CTG_OK) {
        rc = ctg_write_list_json(&e, list);
        if (rc == CTG_OK)
            rc = ctg_emit_finish(&e);
        else
            set_message(w, rc, rc == CTG_EUNSUPPORTED ? "this list kind cannot be written yet"
                                                      : "a contingency document needs exactly "
                                                        "one contingency");
    }
    ctg_emit_dispose(&e);
    return rc;
}

/* ---- memory ----------------------------------------------------------------------------- */

void ctg_buf_dispose(ctg_buf *buf)
{
    if (buf == NULL)
        return;
    ctg_mem_release(buf->allocator, buf->data, buf->cap);
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
}

/* Appends, always keeping room for the final NUL. */
static int buf_sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    ctg_buf *b = ctx;
    size_t need, cap;
    void *p;

    if (!ctg_size_add(b->len, len, &need) || !ctg_size_add(need, 1, &need))
        return set_message(err, CTG_ENOMEM, "output too large");
    if (need > b->cap) {
        if (!ctg_grow_capacity(b->cap, need, 4096, SIZE_MAX, &cap))
            return set_message(err, CTG_ENOMEM, "output too large");
        p = ctg_mem_resize(b->allocator, b->data, b->cap, cap);
        if (p == NULL)
            return set_message(err, CTG_ENOMEM, "out of memory");
        b->data = p;
        b->cap = cap;
    }
    if (len > 0)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    return CTG_OK;
}

int ctg_list_write_buf(ctg_buf *buf, const ctg_list *list, const ctg_write_options *opts,
                       ctg_error *err)
{
    ctg_error w = { 0 };
    size_t old_len;
    int rc;

    if (buf == NULL)
        return finish_error(err, &w, set_message(&w, CTG_EINVAL, "no buffer"), "<memory>");
    old_len = buf->len;
    rc = check_args(list, &opts, &w);
    if (rc == CTG_OK)
        rc = emit_list(buf_sink, buf, list, opts, &w);
    if (rc == CTG_OK)
        rc = buf_sink(buf, "", 0, &w); /* the room for the NUL, if nothing was written */
    if (rc != CTG_OK) {
        buf->len = old_len;
        if (buf->data != NULL && old_len < buf->cap)
            buf->data[old_len] = '\0';
        return finish_error(err, &w, rc, "<memory>");
    }
    buf->data[buf->len] = '\0';
    return CTG_OK;
}

/* ---- streams ---------------------------------------------------------------------------- */

static int fp_sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    FILE *fp = ctx;

    errno = 0;
    if (fwrite(data, 1, len, fp) != len)
        return io_failure(err, "cannot write");
    return CTG_OK;
}

int ctg_list_write_fp(FILE *fp, const ctg_list *list, const ctg_write_options *opts,
                      ctg_error *err)
{
    ctg_error w = { 0 };
    int rc = check_args(list, &opts, &w);

    if (rc == CTG_OK && fp == NULL)
        rc = set_message(&w, CTG_EINVAL, "no stream");
    if (rc == CTG_OK)
        rc = emit_list(fp_sink, fp, list, opts, &w);
    return rc == CTG_OK ? CTG_OK : finish_error(err, &w, rc, "<stream>");
}

/* Writes everything, through EINTR and partial writes. */
static int fd_sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    int fd = *(const int *)ctx;

    while (len > 0) {
        ssize_t n = write(fd, data, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return io_failure(err, "cannot write");
        }
        data += n;
        len -= (size_t)n;
    }
    return CTG_OK;
}

int ctg_list_write_fd(int fd, const ctg_list *list, const ctg_write_options *opts,
                      ctg_error *err)
{
    ctg_error w = { 0 };
    int rc = check_args(list, &opts, &w);

    if (rc == CTG_OK)
        rc = emit_list(fd_sink, &fd, list, opts, &w);
    return rc == CTG_OK ? CTG_OK : finish_error(err, &w, rc, "<fd>");
}

/* ---- atomic file replacement ------------------------------------------------------------
 * The list goes to "<path>.tmpXXXXXX" beside the target (same file system, so the rename is
 * atomic), is flushed to disk, then renamed over the target. A symbolic link at `path` is
 * replaced by the new file, not followed. */

/* The process umask from /proc (reading it with umask() would change it for a moment, for
 * every thread); -1 when unknown. */
static int read_umask(void)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[128];
    unsigned mask;
    int found = -1;

    if (fp == NULL)
        return -1;
    while (found < 0 && fgets(line, sizeof line, fp) != NULL) {
        if (sscanf(line, "Umask: %o", &mask) == 1)
            found = (int)(mask & 0777);
    }
    fclose(fp);
    return found;
}

/* mkstemp makes the file 0600: give it the mode of the file it replaces, or of a new file
 * (0666 less the umask). When neither is known it stays 0600, the safe side. */
static void set_mode(int fd, const char *path)
{
    struct stat st;
    int mask;

    if (stat(path, &st) == 0) {
        (void)fchmod(fd, st.st_mode & 07777);
        return;
    }
    mask = read_umask();
    if (mask >= 0)
        (void)fchmod(fd, (mode_t)(0666 & ~mask));
}

/* After the rename, makes the new directory entry durable. Best effort: some file systems
 * refuse fsync on a directory, and the data is already safe. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    size_t n;
    int fd;

    if (slash == NULL) {
        dir[0] = '.';
        n = 1;
    } else {
        n = slash == path ? 1 : (size_t)(slash - path);
        if (n >= sizeof dir)
            return;
        memcpy(dir, path, n);
    }
    dir[n] = '\0';
    fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* Writes, flushes and closes the temporary file `fd`; it is closed whatever happens. */
static int write_temp(int fd, const ctg_list *list, const ctg_write_options *opts,
                      ctg_error *w)
{
    int rc = emit_list(fd_sink, &fd, list, opts, w);

    if (rc == CTG_OK && fsync(fd) != 0)
        rc = io_failure(w, "cannot flush the temporary file");
    if (close(fd) != 0 && rc == CTG_OK)
        rc = io_failure(w, "cannot close the temporary file");
    return rc;
}

static int replace_file(const char *path, char *tmp, const ctg_list *list,
                        const ctg_write_options *opts, ctg_error *w)
{
    int fd = mkstemp(tmp);
    int rc;

    if (fd < 0)
        return io_failure(w, "cannot create a temporary file");
    set_mode(fd, path);
    rc = write_temp(fd, list, opts, w);
    if (rc == CTG_OK && rename(tmp, path) != 0)
        rc = io_failure(w, "cannot rename the temporary file");
    if (rc != CTG_OK) {
        unlink(tmp);
        return rc;
    }
    sync_dir(path);
    return CTG_OK;
}

int ctg_list_write_file(const char *path, const ctg_list *list, const ctg_write_options *opts,
                        ctg_error *err)
{
    static const char suffix[] = ".tmpXXXXXX";
    ctg_error w = { 0 };
    size_t len, size;
    char *tmp;
    int rc;

    if (path == NULL || path[0] == '\0')
        return finish_error(err, &w, set_message(&w, CTG_EINVAL, "no path"), "");
    rc = check_args(list, &opts, &w);
    len = strlen(path);
    if (rc == CTG_OK && !ctg_size_add(len, sizeof suffix, &size))
        rc = set_message(&w, CTG_EINVAL, "path too long");
    if (rc != CTG_OK)
        return finish_error(err, &w, rc, path);
    tmp = ctg_mem_alloc(opts->allocator, size);
    if (tmp == NULL)
        return finish_error(err, &w, set_message(&w, CTG_ENOMEM, "out of memory"), path);
    memcpy(tmp, path, len);
    memcpy(tmp + len, suffix, sizeof suffix);
    rc = replace_file(path, tmp, list, opts, &w);
    ctg_mem_release(opts->allocator, tmp, size);
    return rc == CTG_OK ? CTG_OK : finish_error(err, &w, rc, path);
}
