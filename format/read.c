/* SPDX-License-Identifier: MPL-2.0 */
/* The public read entry points: a whole list, or a stream of contingencies, from memory, a
 * path, a FILE * or a descriptor. */

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctg/io.h"
#include "ctg/stream.h"
#include "base/alloc.h"
#include "base/error_set.h"
#include "model/list_impl.h"
#include "format/read_internal.h"
#include "format/read_parallel.h"
#include "format/root.h"
#include "format/sa_internal.h"
#include "format/scope.h"
#include "io/source.h"

/* Version 0 is a zeroed struct (memset, or {} in C++): read as version 1, whose zero fields
 * all mean the defaults. A newer version than ours has fields this library cannot honour. */
static bool options_valid(const ctg_read_options *o)
{
    const unsigned known = CTG_READ_NO_CACHE | CTG_READ_ALLOW_NEWER
                           | CTG_READ_SKIP_EXTENSION_VALUES | CTG_READ_LENIENT
                           | CTG_READ_KEEP_SIDES;
    return o->version <= CTG_READ_OPTIONS_VERSION && (o->flags & ~known) == 0;
}

/* Completes the error of a failed read: the lexer knows no path, the reader no source. */
static void finish_error(ctg_reader *rd, ctg_error *err, const char *source)
{
    if (!rd->failed)
        ctg_reader_path(rd, err->path);
    ctg_error_set_source(err, source);
}

static void fill_stats(const ctg_reader *rd, ctg_read_stats *stats)
{
    if (!stats)
        return;
    stats->handler_resolves = rd->resolves;
    stats->contingencies = rd->contingencies;
    stats->bytes = ctg_lexer_offset(&rd->lex);
}

/* One read of a whole document into a new list; with `visitor`, contingencies are streamed
 * to it and the list is freed at the end. */
typedef struct read_job {
    const ctg_read_options *opts;
    const ctg_visitor *visitor;
    unsigned arena_flags;
    ctg_error *err;
    size_t min_part; /* a parallel read's smallest part; 0 = CTG_SPLIT_MIN_PART */
    size_t *parts;   /* NULL, or where to say how many parts were read in parallel */
    char *in_place;  /* an in-situ read's buffer (the source's bytes, writable), or NULL */
} read_job;

/* What a version-2 visitor asks for. A version-1 visitor's struct may end at `payload`: the
 * fields after it are not read. A lenient read's errors go to a scratch error first, so that
 * `err` is still written only when the read fails. */
static void set_visitor(ctg_format_reader *fr, const read_job *job, const ctg_input *in)
{
    const ctg_visitor *v = job->visitor;

    fr->visitor = v;
    if (v->version < 2)
        return;
    fr->placed = v->contingency_at != NULL;
    if (job->opts->flags & CTG_READ_LENIENT) {
        fr->lenient = true;
        fr->source_name = job->opts->source_name ? job->opts->source_name : ctg_input_name(in);
        fr->json.err = &fr->lenient_err;
    }
}

static int run_reader(ctg_format_reader *fr, const read_job *job, ctg_input *in, ctg_list *list)
{
    ctg_reader *rd = &fr->json;
    int rc = ctg_reader_init(rd, ctg_input_lex_source(in), job->opts, list->arena, job->err);

    if (rc != CTG_OK)
        return ctg_error_set_plain(job->err, ctg_input_name(in), CTG_ENOMEM, "out of memory");
    fr->ext.registry = job->opts->extensions;
    /* Only the caller's own bytes: a gzip input is decompressed into a buffer of ours. */
    if (job->in_place && ctg_input_lex_source(in)->data == job->in_place)
        rd->in_place = job->in_place;
    if (job->visitor) {
        set_visitor(fr, job, in);
        fr->item_arena = ctg_arena_new_ex(job->opts->allocator, job->arena_flags);
        if (!fr->item_arena)
            return ctg_error_set_plain(job->err, ctg_input_name(in), CTG_ENOMEM, "out of memory");
        fr->elements.alloc = fr->ext_names.alloc = ctg_arena_allocator(fr->item_arena);
        if (fr->placed)
            fr->ext.names = &fr->ext_names;
        ctg_input_set_progress(in, job->visitor);
    } else {
        ctg_reader_reserve(rd, ctg_input_size_hint(in));
    }
    rc = ctg_read_root(rd, list);
    if (rc != CTG_OK && rd->err != job->err)
        *job->err = *rd->err;
    if (rc != CTG_OK) {
        finish_error(rd, job->err, ctg_input_name(in));
        ctg_sa_explain_list_error(job->err);
    }
    return rc;
}

static int read_input(ctg_list **out, ctg_input *in, const read_job *job)
{
    ctg_arena *arena = ctg_arena_new_ex(job->opts->allocator, job->arena_flags);
    ctg_list *list = arena ? ctg_list_alloc_in(arena, CTG_LIST_DEFAULT, "") : NULL;
    ctg_format_reader fr;
    int rc;

    memset(&fr, 0, sizeof(fr));
    if (!list) {
        rc = ctg_error_set_plain(job->err, ctg_input_name(in), CTG_ENOMEM, "out of memory");
    } else {
        list->owns_arena = true;
        rc = run_reader(&fr, job, in, list);
    }
    fill_stats(&fr.json, job->opts->stats);
    ctg_places_release(&fr.elements); /* the places of a placed read (format/default.c) */
    ctg_places_release(&fr.ext_names);
    ctg_arena_release(fr.item_arena);
    ctg_reader_dispose(&fr.json);
    if (rc != CTG_OK || !out) {
        ctg_arena_release(arena);
        return rc;
    }
    *out = list;
    return CTG_OK;
}

static int read_source(ctg_list **out, const ctg_source *src, const read_job *job)
{
    ctg_input *in;
    int rc = ctg_input_open(&in, src, job->opts->allocator, job->err);

    if (rc != CTG_OK) {
        char own[64];
        const char *name =
            job->opts->source_name ? job->opts->source_name : ctg_source_name(src, own, sizeof own);
        return ctg_error_set_plain(job->err, name, rc, NULL);
    }
    rc = read_input(out, in, job);
    if (rc != CTG_OK && job->opts->source_name)
        ctg_error_set_source(job->err, job->opts->source_name);
    ctg_input_close(in);
    return rc;
}

/* ---- more than one thread (format/read_parallel.c) ------------------------------------- */

/* The threads the options ask for; a version-1 struct has no such field. */
static unsigned threads_of(const ctg_read_options *o)
{
    return o->version >= 2 ? o->threads : 0;
}

/* The whole regular file at `path`, when it is large enough to split; false otherwise, or on
 * any failure, which the sequential read of the path then meets and reports itself. */
static bool load_file(const char *path, const read_job *job, char **data, size_t *len)
{
    size_t min = job->min_part ? job->min_part : CTG_SPLIT_MIN_PART, got = 0;
    int fd = open(path, O_RDONLY);
    struct stat st;

    if (fd < 0)
        return false;
    *data = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size >= 2 * (uintmax_t)min
        && (uintmax_t)st.st_size <= SIZE_MAX)
        *data = ctg_mem_alloc(job->opts->allocator, *len = (size_t)st.st_size);
    while (*data && got < *len) {
        ssize_t r = read(fd, *data + got, *len - got);
        if (r <= 0) {
            ctg_mem_release(job->opts->allocator, *data, *len);
            *data = NULL;
        }
        got += r > 0 ? (size_t)r : 0;
    }
    close(fd);
    return *data != NULL;
}

/* A file is read into memory, and read from there by one thread when the split declines, its
 * errors named by the path as they would be. */
static int read_path_parallel(ctg_list **out, const ctg_source *src, const read_job *job)
{
    ctg_read_options o = *job->opts; /* version 2 or later: it has `threads` */
    read_job mem = *job;
    ctg_source buf;
    char *data;
    size_t len;
    int rc;

    if (!load_file(src->path, job, &data, &len))
        return CTG_PARALLEL_DECLINED;
    rc = ctg_read_parallel(out, data, len, job->opts, o.threads, job->min_part, job->arena_flags,
                           job->parts);
    if (rc == CTG_PARALLEL_DECLINED) {
        o.source_name = o.source_name ? o.source_name : src->path;
        mem.opts = &o;
        buf = ctg_source_buffer(data, len);
        rc = read_source(out, &buf, &mem);
    }
    ctg_mem_release(job->opts->allocator, data, len);
    return rc;
}

/* A whole list with more than one thread, when the source is in memory or a file; otherwise,
 * or when the split declines, with one. An in-situ read uses one: a declined split reads the
 * input again, and the parts would have rewritten it. */
static int read_maybe_parallel(ctg_list **out, const ctg_source *src, const read_job *job)
{
    unsigned threads = job->in_place ? 1 : threads_of(job->opts);
    int rc = CTG_PARALLEL_DECLINED;

    if (threads > 1 && !job->visitor && src->kind == CTG_SOURCE_BUFFER && src->data)
        rc = ctg_read_parallel(out, src->data, src->len, job->opts, threads, job->min_part,
                               job->arena_flags, job->parts);
    else if (threads > 1 && !job->visitor && src->kind == CTG_SOURCE_PATH && src->path)
        rc = read_path_parallel(out, src, job);
    return rc == CTG_PARALLEL_DECLINED ? read_source(out, src, job) : rc;
}

/* A lenient read reports what it skips to the visitor's `error`: without one, skipping would
 * lose errors silently. */
static bool lenient_possible(const ctg_visitor *v)
{
    return v && v->version >= 2 && v->error;
}

/* Checks the arguments every entry point shares, then reads. */
static int read_checked(ctg_list **out, const ctg_source *src, const ctg_visitor *visitor,
                        const ctg_read_options *opts, ctg_error *err, const read_job *knobs)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_error scratch;
    read_job job = { opts ? opts : &defaults, visitor, knobs->arena_flags, err ? err : &scratch,
                     knobs->min_part, knobs->parts, knobs->in_place };

    if (out)
        *out = NULL;
    if (!visitor && !out)
        return ctg_error_set_plain(job.err, "<input>", CTG_EINVAL,
                                   "no place for the list (out is NULL)");
    if (!src)
        return ctg_error_set_plain(job.err, "<input>", CTG_EINVAL, "NULL source");
    if (!options_valid(job.opts))
        return ctg_error_set_plain(job.err, "<input>", CTG_EINVAL,
                                   "unknown read options version or flags");
    if (job.opts->max_depth > CTG_MAX_DEPTH_LIMIT)
        return ctg_error_set_plain(job.err, "<input>", CTG_EINVAL,
                                   "max_depth above the limit of 4096 "
                                   "levels (CTG_MAX_DEPTH_LIMIT)");
    /* As for the options, 0 is a zeroed visitor, read as version 1. */
    if (visitor && visitor->version > CTG_VISITOR_VERSION)
        return ctg_error_set_plain(job.err, "<input>", CTG_EINVAL, "unknown ctg_visitor version");
    if ((job.opts->flags & CTG_READ_LENIENT) && !lenient_possible(visitor))
        return ctg_error_set_plain(job.err, "<input>", CTG_EINVAL,
                                   "CTG_READ_LENIENT needs a stream read with a version-2 "
                                   "visitor whose error callback is set");
    return read_maybe_parallel(out, src, &job);
}

static const read_job plain = { NULL, NULL, 0, NULL, 0, NULL, NULL };

int ctg_list_read_buffer_ex(ctg_list **out, const void *data, size_t len,
                            const ctg_read_options *opts, ctg_error *err, unsigned arena_flags)
{
    ctg_source src = ctg_source_buffer(data, len);
    read_job knobs = { NULL, NULL, arena_flags, NULL, 0, NULL, NULL };
    return read_checked(out, &src, NULL, opts, err, &knobs);
}

int ctg_list_read_in_situ_ex(ctg_list **out, char *data, size_t len, const ctg_read_options *opts,
                             ctg_error *err, unsigned arena_flags)
{
    ctg_source src = ctg_source_buffer(data, len);
    read_job knobs = { NULL, NULL, arena_flags, NULL, 0, NULL, data };
    return read_checked(out, &src, NULL, opts, err, &knobs);
}

int ctg_list_read_in_situ(ctg_list **out, char *data, size_t len, const ctg_read_options *opts,
                          ctg_error *err)
{
    return ctg_list_read_in_situ_ex(out, data, len, opts, err, 0);
}

int ctg_list_read_split(ctg_list **out, const ctg_source *src, const ctg_read_options *opts,
                        ctg_error *err, size_t min_part, size_t *parts)
{
    read_job knobs = { NULL, NULL, 0, NULL, min_part ? min_part : 1, parts, NULL };

    if (parts)
        *parts = 1;
    return read_checked(out, src, NULL, opts, err, &knobs);
}

int ctg_list_read_buffer(ctg_list **out, const void *data, size_t len, const ctg_read_options *opts,
                         ctg_error *err)
{
    return ctg_list_read_buffer_ex(out, data, len, opts, err, 0);
}

int ctg_list_read_fp(ctg_list **out, FILE *fp, const ctg_read_options *opts, ctg_error *err)
{
    ctg_source src = ctg_source_fp(fp);
    return read_checked(out, &src, NULL, opts, err, &plain);
}

int ctg_list_read_fd(ctg_list **out, int fd, const ctg_read_options *opts, ctg_error *err)
{
    ctg_source src = ctg_source_fd(fd);
    return read_checked(out, &src, NULL, opts, err, &plain);
}

int ctg_list_read_file(ctg_list **out, const char *path, const ctg_read_options *opts,
                       ctg_error *err)
{
    ctg_source src = ctg_source_path(path);
    return read_checked(out, &src, NULL, opts, err, &plain);
}

int ctg_read_stream(const ctg_source *src, const ctg_visitor *visitor, const ctg_read_options *opts,
                    ctg_error *err)
{
    static const ctg_visitor none = CTG_VISITOR_INIT;
    return read_checked(NULL, src, visitor ? visitor : &none, opts, err, &plain);
}

ctg_source ctg_source_buffer(const void *data, size_t len)
{
    ctg_source s = { CTG_SOURCE_BUFFER, data, len, NULL, NULL, -1, NULL, NULL };
    return s;
}

ctg_source ctg_source_path(const char *path)
{
    ctg_source s = { CTG_SOURCE_PATH, NULL, 0, path, NULL, -1, NULL, NULL };
    return s;
}

ctg_source ctg_source_fp(FILE *fp)
{
    ctg_source s = { CTG_SOURCE_FP, NULL, 0, NULL, fp, -1, NULL, NULL };
    return s;
}

ctg_source ctg_source_fd(int fd)
{
    ctg_source s = { CTG_SOURCE_FD, NULL, 0, NULL, NULL, fd, NULL, NULL };
    return s;
}

ctg_source ctg_source_callback(ctg_source_read_fn read, void *payload, size_t size)
{
    ctg_source s = { CTG_SOURCE_CALLBACK, NULL, size, NULL, NULL, -1, read, payload };
    return s;
}
