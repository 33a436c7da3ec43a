/* Outputs: a buffer, a FILE *, a descriptor, or a path replaced atomically, with gzip on the
 * way for ".gz" paths. Shared by whole-list writes and the streaming writer. */

#include "serde/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/alloc.h"
#include "serde/clocale.h"
#include "serde/zhooks.h"

#define ZOUT_SIZE ((size_t)64 * 1024)

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

int ctg_output_error(ctg_error *err, ctg_error *w, int code, const char *source)
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

int ctg_output_message(ctg_error *w, int code, const char *msg)
{
    copy_text(w->message, sizeof w->message, msg);
    return code;
}

/* "what: <the system's reason>" for the errno at hand. */
static int io_failure(ctg_error *w, const char *what)
{
    int saved = errno;

    snprintf(w->message, sizeof w->message, "%s: %s", what,
             saved != 0 ? ctg_strerror(saved) : "unknown error");
    return CTG_EIO;
}

/* ---- raw sinks -------------------------------------------------------------------------- */

/* Commits the `done` bytes written in place after b->len and makes room for `want` more (and the
 * final NUL): the window an emitter writes into directly. */
static int buf_window(ctg_buf *b, size_t done, size_t want, char **win, size_t *avail,
                      ctg_error *err)
{
    size_t need, cap;
    void *p;

    b->len += done;
    if (!ctg_size_add(b->len, want, &need) || !ctg_size_add(need, 1, &need))
        return ctg_output_message(err, CTG_ENOMEM, "output too large");
    if (need > b->cap) {
        if (!ctg_grow_capacity(b->cap, need, 4096, SIZE_MAX, &cap))
            return ctg_output_message(err, CTG_ENOMEM, "output too large");
        p = ctg_mem_resize(b->allocator, b->data, b->cap, cap);
        if (p == NULL)
            return ctg_output_message(err, CTG_ENOMEM, "out of memory");
        b->data = p;
        b->cap = cap;
    }
    *win = b->data + b->len;
    *avail = b->cap - b->len - 1;
    return CTG_OK;
}

/* Appends, always keeping room for the final NUL. */
static int buf_write(ctg_buf *b, const char *data, size_t len, ctg_error *err)
{
    char *win;
    size_t avail;
    int rc = buf_window(b, 0, len, &win, &avail, err);

    if (rc != CTG_OK)
        return rc;
    if (len > 0)
        memcpy(win, data, len);
    b->len += len;
    return CTG_OK;
}

/* Writes everything, through EINTR and partial writes. */
static int fd_write(int fd, const char *data, size_t len, ctg_error *err)
{
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

static int raw_write(ctg_output *o, const char *data, size_t len, ctg_error *err)
{
    if (o->buf)
        return buf_write(o->buf, data, len, err);
    if (o->fp) {
        errno = 0;
        return fwrite(data, 1, len, o->fp) == len ? CTG_OK : io_failure(err, "cannot write");
    }
    return fd_write(o->fd, data, len, err);
}

/* ---- gzip ------------------------------------------------------------------------------- */

static int gz_start(ctg_output *o, ctg_error *w)
{
    int zrc;

    o->zout = ctg_mem_alloc(o->alloc, ZOUT_SIZE);
    if (!o->zout)
        return ctg_output_message(w, CTG_ENOMEM, "out of memory");
    ctg_zlib_use_allocator(&o->zs, o->alloc);
    zrc = deflateInit2(&o->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                       Z_DEFAULT_STRATEGY);
    /* Out of memory says so, as everywhere; anything else is zlib's own trouble. */
    if (zrc == Z_MEM_ERROR)
        return ctg_output_message(w, CTG_ENOMEM, "out of memory");
    if (zrc != Z_OK)
        return ctg_output_message(w, CTG_EIO, "cannot start gzip compression");
    o->z_ready = true;
    return CTG_OK;
}

/* Compresses `len` bytes (or, with Z_FINISH, the end of the stream) to the raw sink. */
static int gz_write(ctg_output *o, const char *data, size_t len, int flush, ctg_error *err)
{
    int z, rc;

    o->zs.next_in = (unsigned char *)(uintptr_t)data;
    o->zs.avail_in = (uInt)len;
    do {
        o->zs.next_out = o->zout;
        o->zs.avail_out = (uInt)ZOUT_SIZE;
        z = deflate(&o->zs, flush);
        if (z == Z_STREAM_ERROR)
            return ctg_output_message(err, CTG_EIO, "gzip compression failed");
        rc = raw_write(o, (const char *)o->zout, ZOUT_SIZE - o->zs.avail_out, err);
        if (rc != CTG_OK)
            return rc;
    } while (o->zs.avail_out == 0 || (flush == Z_FINISH && z != Z_STREAM_END));
    return CTG_OK;
}

int ctg_output_sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    ctg_output *o = ctx;

    if (!o->gz)
        return raw_write(o, data, len, err);
    /* The emitter hands over at most its buffer at a time: far below zlib's uInt. */
    return gz_write(o, data, len, Z_NO_FLUSH, err);
}

bool ctg_output_has_window(const ctg_output *o)
{
    return o->buf != NULL && !o->gz;
}

int ctg_output_window(void *ctx, size_t done, size_t want, char **win, size_t *avail,
                      ctg_error *err)
{
    ctg_output *o = ctx;

    return buf_window(o->buf, done, want, win, avail, err);
}

/* ---- opening ---------------------------------------------------------------------------- */

static void init(ctg_output *o, const ctg_allocator *a, const char *source)
{
    memset(o, 0, sizeof(*o));
    o->alloc = a;
    o->fd = -1;
    o->source = source;
}

int ctg_output_open_buf(ctg_output *o, ctg_buf *buf, const ctg_allocator *a, ctg_error *w)
{
    init(o, a, "<memory>");
    if (!buf)
        return ctg_output_message(w, CTG_EINVAL, "no buffer");
    o->buf = buf;
    o->buf_old_len = buf->len;
    return CTG_OK;
}

int ctg_output_open_fp(ctg_output *o, FILE *fp, const ctg_allocator *a, ctg_error *w)
{
    init(o, a, "<stream>");
    if (!fp)
        return ctg_output_message(w, CTG_EINVAL, "no stream");
    o->fp = fp;
    return CTG_OK;
}

int ctg_output_open_fd(ctg_output *o, int fd, const ctg_allocator *a, ctg_error *w)
{
    (void)w; /* a bad descriptor fails at the first write, as CTG_EIO */
    init(o, a, "<fd>");
    o->fd = fd;
    return CTG_OK;
}

static bool ends_with_gz(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* ---- atomic file replacement ------------------------------------------------------------
 * The bytes go to "<path>.tmpXXXXXX" beside the target (same file system, so the rename is
 * atomic), are flushed to disk, then renamed over the target. A symbolic link at `path` is
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

int ctg_output_open_path(ctg_output *o, const char *path, const ctg_allocator *a, ctg_error *w)
{
    static const char suffix[] = ".tmpXXXXXX";
    size_t len;
    int rc;

    init(o, a, path ? path : "");
    if (path == NULL || path[0] == '\0')
        return ctg_output_message(w, CTG_EINVAL, "no path");
    len = strlen(path);
    if (!ctg_size_add(len, sizeof suffix, &o->tmp_size))
        return ctg_output_message(w, CTG_EINVAL, "path too long");
    o->tmp = ctg_mem_alloc(a, o->tmp_size);
    if (o->tmp == NULL)
        return ctg_output_message(w, CTG_ENOMEM, "out of memory");
    memcpy(o->tmp, path, len);
    memcpy(o->tmp + len, suffix, sizeof suffix);
    o->path = path;
    o->fd = mkstemp(o->tmp);
    if (o->fd < 0) {
        rc = io_failure(w, "cannot create a temporary file");
        ctg_mem_release(a, o->tmp, o->tmp_size);
        o->tmp = NULL;
        return rc;
    }
    set_mode(o->fd, path);
    o->gz = ends_with_gz(path);
    if (o->gz && (rc = gz_start(o, w)) != CTG_OK) {
        ctg_output_abort(o);
        return rc;
    }
    return CTG_OK;
}

/* ---- closing ---------------------------------------------------------------------------- */

static void release(ctg_output *o)
{
    if (o->z_ready)
        deflateEnd(&o->zs);
    o->z_ready = false;
    ctg_mem_release(o->alloc, o->zout, ZOUT_SIZE);
    o->zout = NULL;
    ctg_mem_release(o->alloc, o->tmp, o->tmp_size);
    o->tmp = NULL;
}

/* Flushes, closes and renames the temporary file into place. */
static int commit_path(ctg_output *o, ctg_error *w)
{
    int rc = CTG_OK;

    if (fsync(o->fd) != 0)
        rc = io_failure(w, "cannot flush the temporary file");
    if (close(o->fd) != 0 && rc == CTG_OK)
        rc = io_failure(w, "cannot close the temporary file");
    o->fd = -1;
    if (rc == CTG_OK && rename(o->tmp, o->path) != 0)
        rc = io_failure(w, "cannot rename the temporary file");
    if (rc != CTG_OK) {
        unlink(o->tmp);
        return rc;
    }
    sync_dir(o->path);
    return CTG_OK;
}

int ctg_output_commit(ctg_output *o, ctg_error *w)
{
    int rc = o->gz ? gz_write(o, "", 0, Z_FINISH, w) : CTG_OK;

    if (rc == CTG_OK && o->buf)
        rc = buf_write(o->buf, "", 0, w); /* the room for the NUL, if nothing was written */
    if (rc != CTG_OK) {
        ctg_output_abort(o);
        return rc;
    }
    if (o->buf)
        o->buf->data[o->buf->len] = '\0';
    if (o->tmp)
        rc = commit_path(o, w);
    release(o);
    return rc;
}

void ctg_output_abort(ctg_output *o)
{
    if (o->buf) {
        o->buf->len = o->buf_old_len;
        if (o->buf->data != NULL && o->buf_old_len < o->buf->cap)
            o->buf->data[o->buf_old_len] = '\0';
    }
    if (o->tmp && o->fd >= 0) {
        close(o->fd);
        unlink(o->tmp);
        o->fd = -1;
    }
    release(o);
}
