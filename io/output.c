/* SPDX-License-Identifier: MPL-2.0 */
/* Outputs: a buffer, a FILE *, a descriptor, or a path (output_file.c), with gzip on the way
 * for ".gz" paths. Shared by whole-list writes and the streaming writer. */

/* 64-bit file offsets on 32-bit systems too: without them open() refuses a file of 2 GiB or
 * more (EOVERFLOW), fstat() cannot size it and write() stops at 2 GiB. Before any header. */
#define _FILE_OFFSET_BITS 64
/* fallocate() */
#define _GNU_SOURCE

#include "io/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clocale.h"
#include "base/error_set.h"
#include "io/zhooks.h"

#define ZOUT_SIZE ((size_t)64 * 1024)
/* What the emitter hands a descriptor or a stream at a time: one write(2) each. 256 KiB makes
 * the calls 4 times fewer than the emitter's 64 KiB default and still fits a core's L2 cache,
 * from which the kernel copies it into the page cache. */
#define DIRECT_PIECE_SIZE ((size_t)256 * 1024)

/* A temporary file that grows past PREALLOC_AFTER bytes gets its blocks PREALLOC_STEP at a
 * time ahead of the writes (on ext4 only: output_file.c), and is cut to its size before the
 * fsync. Without it, ext4's delayed allocation reserves each page's block as it is written and
 * allocates them at the fsync: 1 GB written in 256 KiB pieces cost 0.32 s of system time, 0.25
 * s with this, and the kernel's own threads did not take up the difference. Small files are
 * left alone: for them the two calls would cost more than they save. */
#define PREALLOC_AFTER ((uint64_t)16 * 1024 * 1024)
#define PREALLOC_STEP ((uint64_t)64 * 1024 * 1024)

_Static_assert(sizeof(off_t) == 8, "64-bit file offsets (_FILE_OFFSET_BITS)");

/* ---- errors ----------------------------------------------------------------------------- */

int ctg_output_error(ctg_error *err, ctg_error *w, int code, const char *source)
{
    if (err == NULL)
        return code;
    /* A write is about no place in a document: no position, no path. */
    ctg_error_set(w, code, NULL, "", w->message[0] == '\0' ? "write failed" : NULL);
    ctg_error_set_source(w, source);
    *err = *w;
    return code;
}

int ctg_output_message(ctg_error *w, int code, const char *msg)
{
    return ctg_error_set(w, code, NULL, NULL, "%s", msg);
}

int ctg_output_io_failure(ctg_error *w, const char *what)
{
    int saved = errno;

    return ctg_error_set(w, CTG_EIO, NULL, NULL, "%s: %s", what,
                         saved != 0 ? ctg_strerror(saved) : "unknown error");
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
            return ctg_output_io_failure(err, "cannot write");
        }
        data += n;
        len -= (size_t)n;
    }
    return CTG_OK;
}

/* Allocates the next step of a big temporary file before `len` more bytes go past its end.
 * Best effort: a file system without fallocate, or a full disk, stops the steps here, and a
 * write past the end reports what matters. A failed step may still have grown the file (ext4
 * sets the size as each extent is allocated, and a full disk stops it partway), so the step is
 * counted as reserved either way and trim cuts the file back to the bytes written. */
static void preallocate(ctg_output *o, size_t len)
{
    uint64_t end = o->written + len, from = o->reserved > o->written ? o->reserved : o->written;

    if (o->reserve_stopped || end <= o->reserved || end < PREALLOC_AFTER)
        return;
    if (fallocate(o->fd, 0, (off_t)from, (off_t)PREALLOC_STEP) != 0)
        o->reserve_stopped = true;
    o->reserved = from + PREALLOC_STEP;
}

static int raw_write(ctg_output *o, const char *data, size_t len, ctg_error *err)
{
    if (o->buf)
        return buf_write(o->buf, data, len, err);
    if (o->fp) {
        errno = 0;
        if (fwrite(data, 1, len, o->fp) != len)
            return ctg_output_io_failure(err, "cannot write");
        return CTG_OK;
    }
    if (o->preallocate) {
        preallocate(o, len);
        o->written += len;
    }
    return fd_write(o->fd, data, len, err);
}

/* A preallocated file is cut to what was written. */
static int trim(ctg_output *o, ctg_error *w)
{
    if (o->reserved <= o->written || ftruncate(o->fd, (off_t)o->written) == 0)
        return CTG_OK;
    return ctg_output_io_failure(w, "cannot write");
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

    o->zs.next_in = (const unsigned char *)data;
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

size_t ctg_output_piece_size(const ctg_output *o)
{
    return o->buf != NULL || o->gz ? 0 : DIRECT_PIECE_SIZE; /* 0: the emitter's default */
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

int ctg_output_open_path(ctg_output *o, const char *path, const ctg_write_options *opts,
                         ctg_error *w)
{
    size_t len;
    int rc;

    init(o, opts->allocator, path ? path : "");
    if (path == NULL || path[0] == '\0')
        return ctg_output_message(w, CTG_EINVAL, "no path");
    o->temp_file = opts->temp_file;
    o->temp_payload = opts->payload;
    len = strlen(path);
    o->target_size = len + 1;
    o->target = ctg_mem_alloc(o->alloc, o->target_size);
    if (o->target == NULL)
        return ctg_output_message(w, CTG_ENOMEM, "out of memory");
    memcpy(o->target, path, len + 1);
    /* The name given decides compression, not where its links lead. */
    o->gz = ends_with_gz(path);
    rc = ctg_output_open_target(o, opts->flags, w);
    if (rc == CTG_OK && o->gz)
        rc = gz_start(o, w);
    if (rc != CTG_OK)
        ctg_output_abort(o);
    return rc;
}

const char *ctg_output_target_name(const ctg_output_target *t)
{
    switch (t->kind) {
    case CTG_OUTPUT_BUF: return "<memory>";
    case CTG_OUTPUT_FP: return "<stream>";
    case CTG_OUTPUT_FD: return "<fd>";
    case CTG_OUTPUT_PATH: return t->to.path != NULL ? t->to.path : "";
    }
    return "<output>";
}

int ctg_output_open(ctg_output *o, const ctg_output_target *t, const ctg_write_options *opts,
                    ctg_error *w)
{
    switch (t->kind) {
    case CTG_OUTPUT_BUF: return ctg_output_open_buf(o, t->to.buf, opts->allocator, w);
    case CTG_OUTPUT_FP: return ctg_output_open_fp(o, t->to.fp, opts->allocator, w);
    case CTG_OUTPUT_FD: return ctg_output_open_fd(o, t->to.fd, opts->allocator, w);
    case CTG_OUTPUT_PATH: return ctg_output_open_path(o, t->to.path, opts, w);
    }
    init(o, opts->allocator, "<output>");
    return ctg_output_message(w, CTG_EINVAL, "unknown output kind");
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
    ctg_mem_release(o->alloc, o->target, o->target_size);
    o->target = NULL;
}

int ctg_output_commit(ctg_output *o, ctg_error *w)
{
    int rc = o->gz ? gz_write(o, "", 0, Z_FINISH, w) : CTG_OK;

    if (rc == CTG_OK)
        rc = trim(o, w);
    if (rc == CTG_OK && o->buf)
        rc = buf_write(o->buf, "", 0, w); /* the room for the NUL, if nothing was written */
    if (rc != CTG_OK) {
        ctg_output_abort(o);
        return rc;
    }
    if (o->buf)
        o->buf->data[o->buf->len] = '\0';
    if (o->target)
        rc = ctg_output_commit_target(o, w);
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
    if (o->target)
        ctg_output_abort_target(o);
    release(o);
}

/* ---- options ---------------------------------------------------------------------------- */

static const ctg_write_options default_options = CTG_WRITE_OPTIONS_INIT;

int ctg_write_check_options(const ctg_write_options *in, ctg_write_options *out, ctg_error *w)
{
    const unsigned known = CTG_WRITE_COMPACT | CTG_WRITE_BREAK_LINKS;

    *out = default_options;
    if (in == NULL)
        return CTG_OK;
    /* 0 is a zeroed struct, read as version 1 (its zero fields are the defaults). */
    if (in->version > CTG_WRITE_OPTIONS_VERSION)
        return ctg_output_message(w, CTG_EINVAL, "unknown ctg_write_options version");
    if ((in->flags & ~known) != 0)
        return ctg_output_message(w, CTG_EINVAL, "unknown write flag");
    /* A version 1 struct ends after the allocator: nothing beyond it may be read. */
    out->flags = in->flags;
    out->allocator = in->allocator;
    if (in->version >= 2) {
        out->temp_file = in->temp_file;
        out->payload = in->payload;
    }
    if (in->version >= 3)
        out->format_version = in->format_version;
    return CTG_OK;
}
