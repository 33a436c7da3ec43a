/* SPDX-License-Identifier: MPL-2.0 */
/* Inputs: memory, paths, FILE *s, descriptors and callbacks, with gzip detected by its magic
 * bytes.
 *
 * Plain memory is handed to the lexer in place. Everything else goes through refill(): a raw
 * reader, behind it zlib's inflate when the first two bytes are the gzip magic. */

/* 64-bit file offsets on 32-bit systems too: without them open() refuses a file of 2 GiB or
 * more (EOVERFLOW), fstat() cannot size it and write() stops at 2 GiB. Before any header. */
#define _FILE_OFFSET_BITS 64

#include "io/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clocale.h"
#include "base/error_set.h"
#include "io/zhooks.h"

#define ZBUF_SIZE ((size_t)64 * 1024)

_Static_assert(sizeof(off_t) == 8, "64-bit file offsets (_FILE_OFFSET_BITS)");

/* Why a gzip stream ended early. */
typedef enum gz_status { GZ_NONE, GZ_TRUNCATED, GZ_CORRUPT, GZ_NOMEM, GZ_INTERNAL } gz_status;

struct ctg_input {
    ctg_lex_source lex;
    const ctg_allocator *alloc;
    char name[64];
    const char *path;       /* PATH sources: the name is the path */
    int fd;                 /* -1 when reading a FILE * or memory */
    bool close_fd;
    FILE *fp;
    ctg_source_read_fn read; /* CALLBACK sources */
    void *payload;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    unsigned char peek[2];  /* bytes read to detect gzip, served first */
    size_t peek_len, peek_pos;
    bool raw_eof;
    bool gz;
    bool z_ready;
    bool member_open;       /* inside a gzip member: its end has not been seen */
    gz_status gz_error;     /* once set, every later read returns it */
    const char *gz_msg;     /* zlib's static reason for GZ_CORRUPT */
    z_stream zs;
    unsigned char *zbuf;
    size_t total;           /* size of a regular file, for progress */
    size_t consumed;        /* raw bytes read so far */
    const ctg_visitor *visitor;
};

static int io_error(ctg_error *err, const char *what)
{
    return ctg_error_set(err, CTG_EIO, NULL, NULL, "%s: %s", what, ctg_strerror(errno));
}

/* A CALLBACK source's read: its failure, with errno's reason when it set one. */
static int callback_read(ctg_input *in, unsigned char *dst, size_t cap, size_t *got,
                         ctg_error *err)
{
    errno = 0;
    *got = 0;
    if (in->read(in->payload, dst, cap, got) != 0) {
        *got = 0;
        if (errno != 0)
            return io_error(err, "read failed");
        return ctg_error_set(err, CTG_EIO, NULL, NULL, "read failed");
    }
    if (*got > cap) {
        *got = 0;
        return ctg_error_set(err, CTG_EIO, NULL, NULL, "read failed: more bytes than asked for");
    }
    return CTG_OK;
}

/* Reads raw bytes from the underlying descriptor, FILE *, callback or memory. */
static int raw_read(ctg_input *in, unsigned char *dst, size_t cap, size_t *got, ctg_error *err)
{
    *got = 0;
    if (in->raw_eof || cap == 0)
        return CTG_OK;
    if (in->mem) {
        size_t n = in->mem_len - in->mem_pos < cap ? in->mem_len - in->mem_pos : cap;
        memcpy(dst, in->mem + in->mem_pos, n);
        in->mem_pos += n;
        *got = n;
    } else if (in->fp) {
        *got = fread(dst, 1, cap, in->fp);
        if (*got == 0 && ferror(in->fp))
            return io_error(err, "read failed");
    } else if (in->read) {
        int rc = callback_read(in, dst, cap, got, err);
        if (rc != CTG_OK)
            return rc;
    } else {
        ssize_t n;
        do {
            n = read(in->fd, dst, cap);
        } while (n < 0 && errno == EINTR);
        if (n < 0)
            return io_error(err, "read failed");
        *got = (size_t)n;
    }
    if (*got == 0)
        in->raw_eof = true;
    /* Saturates rather than wraps where size_t is 32 bits: progress never goes backwards. */
    in->consumed = in->consumed > SIZE_MAX - *got ? SIZE_MAX : in->consumed + *got;
    return CTG_OK;
}

/* Raw bytes, the peeked ones first. */
static int plain_read(ctg_input *in, unsigned char *dst, size_t cap, size_t *got, ctg_error *err)
{
    if (in->peek_pos < in->peek_len) {
        size_t n = in->peek_len - in->peek_pos < cap ? in->peek_len - in->peek_pos : cap;
        memcpy(dst, in->peek + in->peek_pos, n);
        in->peek_pos += n;
        *got = n;
        return CTG_OK;
    }
    return raw_read(in, dst, cap, got, err);
}

/* Refills zlib's input; a member that ended with more input behind it starts the next one. */
static int gz_feed(ctg_input *in, ctg_error *err)
{
    size_t got;
    int rc = plain_read(in, in->zbuf, ZBUF_SIZE, &got, err);

    in->zs.next_in = in->zbuf;
    in->zs.avail_in = (uInt)got;
    return rc;
}

/* A truncated or corrupt gzip stream is bad input, as a truncated JSON text is: CTG_ESYNTAX,
 * placed by the lexer at the end of the text that could be decompressed. */
static int gz_failure(const ctg_input *in, ctg_error *err)
{
    switch (in->gz_error) {
    case GZ_TRUNCATED:
        return ctg_error_set(err, CTG_ESYNTAX, NULL, NULL, "truncated gzip data");
    case GZ_CORRUPT:
        return ctg_error_set(err, CTG_ESYNTAX, NULL, NULL, "corrupt gzip data: %s", in->gz_msg);
    case GZ_NOMEM:
        return ctg_error_set(err, CTG_ENOMEM, NULL, NULL, "out of memory");
    default:
        return ctg_error_set(err, CTG_EIO, NULL, NULL, "gzip decompression failed");
    }
}

/* One step: feeds zlib, or inflates what it has. Returns CTG_OK to go on, 1 when no more bytes
 * will come (the end of the input, or a gzip error now in in->gz_error), or a read error. */
static int gz_step(ctg_input *in, ctg_error *err)
{
    int z;

    if (in->gz_error != GZ_NONE)
        return 1;
    if (in->zs.avail_in == 0) {
        if (!in->raw_eof)
            return gz_feed(in, err);
        if (in->member_open)
            in->gz_error = GZ_TRUNCATED;
        return 1;
    }
    z = inflate(&in->zs, Z_NO_FLUSH);
    in->member_open = true;
    if (z == Z_STREAM_END) {
        /* Concatenated members (gzip -c a b > ab) are one stream of bytes. */
        in->member_open = false;
        if (inflateReset(&in->zs) != Z_OK)
            in->gz_error = GZ_INTERNAL;
    } else if (z == Z_MEM_ERROR) {
        in->gz_error = GZ_NOMEM;
    } else if (z != Z_OK && z != Z_BUF_ERROR) {
        in->gz_error = GZ_CORRUPT;
        in->gz_msg = in->zs.msg ? in->zs.msg : "invalid stream";
    }
    return in->gz_error == GZ_NONE ? CTG_OK : 1;
}

/* Inflates until some bytes come out. The bytes inflated before a gzip error are handed over
 * first and the error comes with the next call, so that it is placed after them. */
static int gz_read(ctg_input *in, unsigned char *dst, size_t cap, size_t *got, ctg_error *err)
{
    uInt want = cap > UINT_MAX ? UINT_MAX : (uInt)cap;
    int rc = CTG_OK;

    in->zs.next_out = dst;
    in->zs.avail_out = want;
    while (in->zs.avail_out == want && (rc = gz_step(in, err)) == CTG_OK)
        continue;
    *got = want - in->zs.avail_out;
    if (rc < 0)
        return rc;
    if (in->gz_error != GZ_NONE && *got == 0)
        return gz_failure(in, err);
    return CTG_OK;
}

static int refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    ctg_input *in = ctx;
    int rc = in->gz ? gz_read(in, (unsigned char *)dst, cap, got, err)
                    : plain_read(in, (unsigned char *)dst, cap, got, err);

    if (rc == CTG_OK && in->visitor && in->visitor->progress
        && in->visitor->progress(in->consumed, in->total, in->visitor->payload) != 0) {
        return ctg_error_set(err, CTG_ESTOPPED, NULL, NULL, "stopped by the visitor");
    }
    return rc;
}

/* gzip's magic: the first two bytes of every gzip member. */
static bool is_gzip(const unsigned char *p, size_t len)
{
    return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* Reads up to two bytes to see whether the input is gzip. */
static int detect_gzip(ctg_input *in, ctg_error *err)
{
    size_t got;
    int rc;

    while (in->peek_len < 2 && !in->raw_eof) {
        rc = raw_read(in, in->peek + in->peek_len, 2 - in->peek_len, &got, err);
        if (rc != CTG_OK)
            return rc;
        in->peek_len += got;
    }
    in->gz = is_gzip(in->peek, in->peek_len);
    return CTG_OK;
}

static int start_gzip(ctg_input *in, ctg_error *err)
{
    int zrc;

    in->zbuf = ctg_mem_alloc(in->alloc, ZBUF_SIZE);
    if (!in->zbuf)
        return ctg_error_set(err, CTG_ENOMEM, NULL, NULL, "out of memory");
    ctg_zlib_use_allocator(&in->zs, in->alloc);
    zrc = inflateInit2(&in->zs, 15 + 16);
    if (zrc != Z_OK) {
        /* Out of memory says so, as everywhere; anything else is zlib's own trouble. */
        if (zrc == Z_MEM_ERROR)
            return ctg_error_set(err, CTG_ENOMEM, NULL, NULL, "out of memory");
        return ctg_error_set(err, CTG_EIO, NULL, NULL, "cannot start gzip decompression");
    }
    in->z_ready = true;
    in->total = 0; /* the progress total is of the compressed file: keep it simple, unknown */
    return CTG_OK;
}

static void set_total(ctg_input *in)
{
    struct stat st;
    int fd = in->fp ? fileno(in->fp) : in->fd;

    /* A size that does not fit a size_t (4 GiB and more on 32-bit) is reported as unknown. */
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0
        && (uintmax_t)st.st_size <= SIZE_MAX)
        in->total = (size_t)st.st_size;
}

const char *ctg_source_name(const ctg_source *src, char *dst, size_t cap)
{
    switch (src->kind) {
    case CTG_SOURCE_PATH:
        return src->path ? src->path : "<input>";
    case CTG_SOURCE_FP:
        snprintf(dst, cap, "%s", src->fp == stdin ? "<stdin>" : "<stream>");
        break;
    case CTG_SOURCE_FD:
        snprintf(dst, cap, src->fd == 0 ? "<stdin>" : "<fd %d>", src->fd);
        break;
    case CTG_SOURCE_BUFFER:
        snprintf(dst, cap, "<memory>");
        break;
    default:
        snprintf(dst, cap, "<input>"); /* an unknown kind, refused by the open */
        break;
    }
    return dst;
}

static int open_kind(ctg_input *in, const ctg_source *src, ctg_error *err)
{
    switch (src->kind) {
    case CTG_SOURCE_BUFFER:
        if (!src->data && src->len)
            return ctg_error_set(err, CTG_EINVAL, NULL, NULL, "NULL data");
        in->mem = src->data ? src->data : (const unsigned char *)"";
        in->mem_len = src->len;
        return CTG_OK;
    case CTG_SOURCE_PATH:
        if (!src->path)
            return ctg_error_set(err, CTG_EINVAL, NULL, NULL, "NULL path");
        in->path = src->path;
        in->fd = open(src->path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0)
            return io_error(err, "cannot open");
        in->close_fd = true;
        return CTG_OK;
    case CTG_SOURCE_FP:
        if (!src->fp)
            return ctg_error_set(err, CTG_EINVAL, NULL, NULL, "NULL stream");
        in->fp = src->fp;
        return CTG_OK;
    case CTG_SOURCE_FD:
        in->fd = src->fd;
        return CTG_OK;
    case CTG_SOURCE_CALLBACK:
        if (!src->read)
            return ctg_error_set(err, CTG_EINVAL, NULL, NULL, "NULL read callback");
        in->read = src->read;
        in->payload = src->payload;
        in->total = src->len;
        snprintf(in->name, sizeof(in->name), "<input>");
        return CTG_OK;
    }
    return ctg_error_set(err, CTG_EINVAL, NULL, NULL, "unknown source kind");
}

int ctg_input_open(ctg_input **out, const ctg_source *src, const ctg_allocator *a,
                   ctg_error *err)
{
    ctg_input *in = ctg_mem_alloc(a, sizeof(*in));
    int rc;

    *out = NULL;
    if (!in)
        return ctg_error_set(err, CTG_ENOMEM, NULL, NULL, "out of memory");
    memset(in, 0, sizeof(*in));
    in->alloc = a;
    in->fd = -1;
    (void)ctg_source_name(src, in->name, sizeof(in->name));
    if ((rc = open_kind(in, src, err)) != CTG_OK)
        goto done;
    if (in->mem && !is_gzip(in->mem, in->mem_len)) {
        /* Plain memory: the lexer reads it in place. */
        in->lex.data = (const char *)in->mem;
        in->lex.len = in->mem_len;
        goto done;
    }
    set_total(in);
    if ((rc = detect_gzip(in, err)) == CTG_OK && in->gz)
        rc = start_gzip(in, err);
    in->lex.refill = refill;
    in->lex.ctx = in;
done:
    if (rc != CTG_OK) {
        ctg_input_close(in);
        in = NULL;
    }
    *out = in;
    return rc;
}

void ctg_input_close(ctg_input *in)
{
    if (!in)
        return;
    if (in->z_ready)
        inflateEnd(&in->zs);
    ctg_mem_release(in->alloc, in->zbuf, ZBUF_SIZE);
    if (in->close_fd)
        close(in->fd);
    ctg_mem_release(in->alloc, in, sizeof(*in));
}

const ctg_lex_source *ctg_input_lex_source(const ctg_input *in)
{
    return &in->lex;
}

const char *ctg_input_name(const ctg_input *in)
{
    return in->path ? in->path : in->name;
}

size_t ctg_input_size_hint(const ctg_input *in)
{
    return in->gz ? 0 : in->lex.refill ? in->total : in->mem_len;
}

bool ctg_input_rereadable(const ctg_input *in)
{
    struct stat st;

    if (in->mem)
        return true;
    return in->path && in->fd >= 0 && fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
}

void ctg_input_set_progress(ctg_input *in, const ctg_visitor *v)
{
    in->visitor = v;
}
