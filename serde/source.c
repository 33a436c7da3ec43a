/* Inputs: memory, paths, FILE *s and descriptors, with gzip detected by its magic bytes.
 *
 * Plain memory is handed to the lexer in place. Everything else goes through refill(): a raw
 * reader, behind it zlib's inflate when the first two bytes are the gzip magic. */

#include "serde/source.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "model/alloc.h"
#include "serde/clocale.h"
#include "serde/zhooks.h"

#define ZBUF_SIZE ((size_t)64 * 1024)

struct ctg_input {
    ctg_lex_source lex;
    const ctg_allocator *alloc;
    char name[64];
    const char *path;       /* PATH sources: the name is the path */
    int fd;                 /* -1 when reading a FILE * or memory */
    bool close_fd;
    FILE *fp;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    unsigned char peek[2];  /* bytes read to detect gzip, served first */
    size_t peek_len, peek_pos;
    bool raw_eof;
    bool gz;
    bool z_ready;
    bool member_open;       /* inside a gzip member: its end has not been seen */
    z_stream zs;
    unsigned char *zbuf;
    size_t total;           /* size of a regular file, for progress */
    size_t consumed;        /* raw bytes read so far */
    const ctg_visitor *visitor;
};

static int io_error(ctg_error *err, const char *what)
{
    snprintf(err->message, sizeof(err->message), "%s: %s", what, ctg_strerror(errno));
    return CTG_EIO;
}

/* Reads raw bytes from the underlying descriptor, FILE * or memory. */
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
    in->consumed += *got;
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

static int gz_error(ctg_input *in, ctg_error *err, const char *what)
{
    snprintf(err->message, sizeof(err->message), "gzip data error: %s",
             in->zs.msg ? in->zs.msg : what);
    return CTG_EIO;
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

static int gz_read(ctg_input *in, unsigned char *dst, size_t cap, size_t *got, ctg_error *err)
{
    uInt want = cap > UINT_MAX ? UINT_MAX : (uInt)cap;
    int rc, z;

    in->zs.next_out = dst;
    in->zs.avail_out = want;
    while (in->zs.avail_out == want) {
        if (in->zs.avail_in == 0) {
            if (in->raw_eof) {
                if (in->member_open)
                    return gz_error(in, err, "unexpected end of file");
                break;
            }
            if ((rc = gz_feed(in, err)) != CTG_OK)
                return rc;
            continue;
        }
        z = inflate(&in->zs, Z_NO_FLUSH);
        in->member_open = true;
        if (z == Z_STREAM_END) {
            /* Concatenated members (gzip -c a b > ab) are one stream of bytes. */
            in->member_open = false;
            if (inflateReset(&in->zs) != Z_OK)
                return gz_error(in, err, "reset failed");
        } else if (z == Z_MEM_ERROR) {
            snprintf(err->message, sizeof(err->message), "out of memory");
            return CTG_ENOMEM;
        } else if (z != Z_OK && z != Z_BUF_ERROR) {
            return gz_error(in, err, "corrupt data");
        }
    }
    *got = want - in->zs.avail_out;
    return CTG_OK;
}

static int refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    ctg_input *in = ctx;
    int rc = in->gz ? gz_read(in, (unsigned char *)dst, cap, got, err)
                    : plain_read(in, (unsigned char *)dst, cap, got, err);

    if (rc == CTG_OK && in->visitor && in->visitor->progress
        && in->visitor->progress(in->consumed, in->total, in->visitor->payload) != 0) {
        snprintf(err->message, sizeof(err->message), "stopped by the visitor");
        return CTG_ESTOPPED;
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
        return snprintf(err->message, sizeof(err->message), "out of memory"), CTG_ENOMEM;
    ctg_zlib_use_allocator(&in->zs, in->alloc);
    zrc = inflateInit2(&in->zs, 15 + 16);
    if (zrc != Z_OK) {
        /* Out of memory says so, as everywhere; anything else is zlib's own trouble. */
        snprintf(err->message, sizeof(err->message), "%s",
                 zrc == Z_MEM_ERROR ? "out of memory" : "cannot start gzip decompression");
        return zrc == Z_MEM_ERROR ? CTG_ENOMEM : CTG_EIO;
    }
    in->z_ready = true;
    in->total = 0; /* the progress total is of the compressed file: keep it simple, unknown */
    return CTG_OK;
}

static void set_total(ctg_input *in)
{
    struct stat st;
    int fd = in->fp ? fileno(in->fp) : in->fd;

    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        in->total = (size_t)st.st_size;
}

static int open_kind(ctg_input *in, const ctg_source *src, ctg_error *err)
{
    switch (src->kind) {
    case CTG_SOURCE_BUFFER:
        if (!src->data && src->len)
            return snprintf(err->message, sizeof(err->message), "NULL data"), CTG_EINVAL;
        in->mem = src->data ? src->data : (const unsigned char *)"";
        in->mem_len = src->len;
        snprintf(in->name, sizeof(in->name), "<memory>");
        return CTG_OK;
    case CTG_SOURCE_PATH:
        if (!src->path)
            return snprintf(err->message, sizeof(err->message), "NULL path"), CTG_EINVAL;
        in->path = src->path;
        in->fd = open(src->path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0)
            return io_error(err, "cannot open");
        in->close_fd = true;
        return CTG_OK;
    case CTG_SOURCE_FP:
        if (!src->fp)
            return snprintf(err->message, sizeof(err->message), "NULL stream"), CTG_EINVAL;
        in->fp = src->fp;
        snprintf(in->name, sizeof(in->name), "%s", src->fp == stdin ? "<stdin>" : "<stream>");
        return CTG_OK;
    case CTG_SOURCE_FD:
        in->fd = src->fd;
        snprintf(in->name, sizeof(in->name), src->fd == 0 ? "<stdin>" : "<fd %d>", src->fd);
        return CTG_OK;
    }
    snprintf(err->message, sizeof(err->message), "unknown source kind");
    return CTG_EINVAL;
}

int ctg_input_open(ctg_input **out, const ctg_source *src, const ctg_allocator *a,
                   ctg_error *err)
{
    ctg_input *in = ctg_mem_alloc(a, sizeof(*in));
    int rc;

    *out = NULL;
    if (!in)
        return snprintf(err->message, sizeof(err->message), "out of memory"), CTG_ENOMEM;
    memset(in, 0, sizeof(*in));
    in->alloc = a;
    in->fd = -1;
    rc = open_kind(in, src, err);
    if (rc == CTG_OK && in->mem && !is_gzip(in->mem, in->mem_len)) {
        /* Plain memory: the lexer reads it in place. */
        in->lex.data = (const char *)in->mem;
        in->lex.len = in->mem_len;
        *out = in;
        return CTG_OK;
    }
    if (rc == CTG_OK) {
        set_total(in);
        rc = detect_gzip(in, err);
    }
    if (rc == CTG_OK && in->gz)
        rc = start_gzip(in, err);
    if (rc != CTG_OK) {
        ctg_input_close(in);
        return rc;
    }
    in->lex.refill = refill;
    in->lex.ctx = in;
    *out = in;
    return CTG_OK;
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

void ctg_input_set_progress(ctg_input *in, const ctg_visitor *v)
{
    in->visitor = v;
}
