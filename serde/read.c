/* The public read entry points: one document from memory, a FILE *, a descriptor or a path. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctg/io.h"
#include "model/list_impl.h"
#include "serde/read_internal.h"
#include "serde/read_root.h"


static int refill_fp(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err);
static int refill_fd(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err);

static void set_source(ctg_error *err, const char *name)
{
    size_t len = strlen(name);
    const size_t cap = sizeof(err->source) - 1;

    if (len <= cap) {
        memcpy(err->source, name, len + 1);
        return;
    }
    /* Keep the tail: the file name is the part worth reading. */
    memcpy(err->source, "...", 3);
    memcpy(err->source + 3, name + len - (cap - 3), cap - 3 + 1);
}

static void clear_error(ctg_error *err, int code)
{
    memset(err, 0, sizeof(*err));
    err->code = (ctg_status)code;
}

static int fail_plain(ctg_error *err, const char *source, int code, const char *msg)
{
    clear_error(err, code);
    set_source(err, source);
    snprintf(err->message, sizeof(err->message), "%s", msg);
    return code;
}

static bool options_valid(const ctg_read_options *o)
{
    const unsigned known = CTG_READ_NO_CACHE | CTG_READ_ALLOW_NEWER;
    return o->version == CTG_READ_OPTIONS_VERSION && (o->flags & ~known) == 0;
}

/* The size of a regular file behind a descriptor source, else 0. */
static size_t src_size_hint(const ctg_lex_source *src)
{
    struct stat st;
    int fd = src->refill == refill_fd ? *(const int *)src->ctx
                                      : src->refill == refill_fp ? fileno((FILE *)src->ctx) : -1;

    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return 0;
    return (size_t)st.st_size;
}

/* Completes the error of a failed read: the lexer knows no path, the reader no source. */
static void finish_error(ctg_reader *rd, ctg_error *err, const char *source)
{
    if (!rd->failed)
        ctg_reader_path(rd, err->path);
    set_source(err, source);
}

static void fill_stats(const ctg_reader *rd, ctg_read_stats *stats)
{
    if (!stats)
        return;
    stats->handler_resolves = rd->resolves;
    stats->contingencies = rd->contingencies;
    stats->bytes = ctg_lexer_offset(&rd->lex);
}

static int read_with(ctg_list **out, const ctg_lex_source *src, const char *source,
                     const ctg_read_options *opts, ctg_error *err, unsigned arena_flags)
{
    size_t size_hint = src->refill ? src_size_hint(src) : src->len;
    ctg_arena *arena = ctg_arena_new_ex(opts->allocator, arena_flags);
    ctg_reader rd;
    ctg_list *list;
    int rc;

    if (!arena)
        return fail_plain(err, source, CTG_ENOMEM, "out of memory");
    memset(&rd, 0, sizeof(rd));
    list = ctg_list_alloc_in(arena, CTG_LIST_DEFAULT, "");
    if (!list || (rc = ctg_reader_init(&rd, src, opts, arena, err)) != CTG_OK) {
        rc = fail_plain(err, source, CTG_ENOMEM, "out of memory");
    } else {
        list->owns_arena = true;
        ctg_reader_reserve(&rd, size_hint);
        rc = ctg_read_root(&rd, list);
        if (rc != CTG_OK)
            finish_error(&rd, err, source);
    }
    fill_stats(&rd, opts->stats);
    ctg_reader_dispose(&rd);
    if (rc != CTG_OK) {
        ctg_arena_release(arena);
        return rc;
    }
    *out = list;
    return CTG_OK;
}

/* Checks the arguments every entry point shares, then reads. */
static int read_checked(ctg_list **out, const ctg_lex_source *src, const char *source,
                        const ctg_read_options *opts, ctg_error *err, unsigned arena_flags)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_error scratch;

    if (!err)
        err = &scratch;
    if (!opts)
        opts = &defaults;
    if (opts->source_name)
        source = opts->source_name;
    if (!out)
        return fail_plain(err, source, CTG_EINVAL, "no place for the list (out is NULL)");
    *out = NULL;
    if (!options_valid(opts))
        return fail_plain(err, source, CTG_EINVAL, "unknown read options version or flags");
    return read_with(out, src, source, opts, err, arena_flags);
}

int ctg_list_read_buffer_ex(ctg_list **out, const void *data, size_t len,
                            const ctg_read_options *opts, ctg_error *err, unsigned arena_flags)
{
    ctg_lex_source src = { data, len, NULL, NULL };

    if (!data && len) {
        ctg_error scratch;
        if (out)
            *out = NULL;
        return fail_plain(err ? err : &scratch, "<memory>", CTG_EINVAL, "NULL data");
    }
    if (!data)
        src.data = "";
    return read_checked(out, &src, "<memory>", opts, err, arena_flags);
}

int ctg_list_read_buffer(ctg_list **out, const void *data, size_t len,
                         const ctg_read_options *opts, ctg_error *err)
{
    return ctg_list_read_buffer_ex(out, data, len, opts, err, 0);
}

static int refill_fp(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    FILE *fp = ctx;

    *got = fread(dst, 1, cap, fp);
    if (*got == 0 && ferror(fp)) {
        snprintf(err->message, sizeof(err->message), "read failed: %s", strerror(errno));
        return CTG_EIO;
    }
    return CTG_OK;
}

static int refill_fd(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    int fd = *(const int *)ctx;
    ssize_t n;

    do {
        n = read(fd, dst, cap);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        snprintf(err->message, sizeof(err->message), "read failed: %s", strerror(errno));
        return CTG_EIO;
    }
    *got = (size_t)n;
    return CTG_OK;
}

int ctg_list_read_fp(ctg_list **out, FILE *fp, const ctg_read_options *opts, ctg_error *err)
{
    ctg_lex_source src = { NULL, 0, refill_fp, fp };
    const char *name = fp == stdin ? "<stdin>" : "<stream>";

    if (!fp) {
        ctg_error scratch;
        if (out)
            *out = NULL;
        return fail_plain(err ? err : &scratch, name, CTG_EINVAL, "NULL stream");
    }
    return read_checked(out, &src, name, opts, err, 0);
}

int ctg_list_read_fd(ctg_list **out, int fd, const ctg_read_options *opts, ctg_error *err)
{
    ctg_lex_source src = { NULL, 0, refill_fd, &fd };
    char name[32];

    snprintf(name, sizeof(name), fd == 0 ? "<stdin>" : "<fd %d>", fd);
    return read_checked(out, &src, name, opts, err, 0);
}

int ctg_list_read_file(ctg_list **out, const char *path, const ctg_read_options *opts,
                       ctg_error *err)
{
    ctg_error scratch;
    int fd, rc;

    if (!err)
        err = &scratch;
    if (out)
        *out = NULL;
    if (!path)
        return fail_plain(err, "<null>", CTG_EINVAL, "NULL path");
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        char msg[CTG_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof(msg), "cannot open: %s", strerror(errno));
        return fail_plain(err, opts && opts->source_name ? opts->source_name : path, CTG_EIO,
                          msg);
    }
    ctg_lex_source src = { NULL, 0, refill_fd, &fd };
    rc = read_checked(out, &src, path, opts, err, 0);
    close(fd);
    return rc;
}
