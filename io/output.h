/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IO_OUTPUT_H
#define CTG_IO_OUTPUT_H

/* Private: where written bytes go. One output for a whole-list write and for a streaming
 * writer: a ctg_buf, a FILE *, a descriptor, or a path: a regular file replaced atomically (a
 * temporary file beside it, flushed, then renamed), a device, FIFO or socket written through
 * (output_file.c); a path ending in ".gz" is gzip-compressed on the way. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/internal.h"
#include "ctg/io.h"
#include "json/emit.h"
#include "io/zhooks.h"

typedef struct ctg_output {
    /* Private to output.c; in the header only so that callers can embed the struct. */
    const ctg_allocator *alloc;
    const char *source; /* for errors: the path, "<memory>", "<stream>", "<fd>" */
    ctg_buf *buf;
    size_t buf_old_len;
    FILE *fp;
    int fd;    /* the descriptor written to: the caller's, the temp file's or
                  a device's */
    char *tmp; /* atomic path writes: "<dir>/.<base>.ctg-tmp-XXXXXX", renamed
                  over `target` at the commit */
    size_t tmp_size;
    char *target; /* path writes: the path, or the file its symbolic links lead to */
    size_t target_size;
    bool direct; /* a device, FIFO or socket: written through, not replaced */
    bool sync;   /* direct: fsync at the commit (a block device) */
    void (*temp_file)(const char *path, void *payload); /* ctg_write_options.temp_file */
    void *temp_payload;
    bool preallocate;  /* a temporary file: its blocks are allocated ahead (output.c) */
    uint64_t written;  /* bytes written to the temporary file so far */
    uint64_t reserved; /* its size as fallocate may have made it, ahead of `written` */
    bool reserve_stopped; /* fallocate failed once: no more steps, `written` still counted */
    bool gz;
    bool z_ready;
    z_stream zs;
    unsigned char *zout;
} ctg_output;

/* Where a write goes, as the public entry points name it: the one target of `kind`. */
typedef enum ctg_output_kind {
    CTG_OUTPUT_BUF,
    CTG_OUTPUT_FP,
    CTG_OUTPUT_FD,
    CTG_OUTPUT_PATH
} ctg_output_kind;

typedef struct ctg_output_target {
    ctg_output_kind kind;
    union {
        ctg_buf *buf;
        FILE *fp;
        int fd;
        const char *path;
    } to;
} ctg_output_target;

/* What errors call the output `t`, before and after its open: the path of a PATH, else
 * "<memory>", "<stream>" or "<fd>" as the opens below say. Static or the caller's. */
CTG_INTERNAL const char *ctg_output_target_name(const ctg_output_target *t);

/* Opens the output `t` names, with the open of its kind below. `opts` has been checked
 * (ctg_write_check_options). */
CTG_INTERNAL int ctg_output_open(ctg_output *o, const ctg_output_target *t,
                                 const ctg_write_options *opts, ctg_error *w);

/* Opens an output; on failure returns the status with w->message set, and nothing remains
 * to be closed. */
CTG_INTERNAL int ctg_output_open_buf(ctg_output *o, ctg_buf *buf, const ctg_allocator *a,
                                     ctg_error *w);
CTG_INTERNAL int ctg_output_open_fp(ctg_output *o, FILE *fp, const ctg_allocator *a, ctg_error *w);
CTG_INTERNAL int ctg_output_open_fd(ctg_output *o, int fd, const ctg_allocator *a, ctg_error *w);
/* `opts` has been checked (ctg_write_check_options); its flags, allocator and temp_file apply. */
CTG_INTERNAL int ctg_output_open_path(ctg_output *o, const char *path,
                                      const ctg_write_options *opts, ctg_error *w);

/* The sink to give the emitter, with `o` as its context. */
CTG_INTERNAL int ctg_output_sink(void *ctx, const char *data, size_t len, ctg_error *err);

/* The size of the pieces the emitter should hand to ctg_output_sink: large for a descriptor or
 * a stream, where each piece is a system call (fewer calls, less of the kernel's time per byte);
 * the emitter's default for a buffer or gzip, where a piece costs no call. */
CTG_INTERNAL size_t ctg_output_piece_size(const ctg_output *o);

/* Whether the output can lend its own memory to the emitter (a buffer): then the emitter
 * writes in place through ctg_output_window, with `o` as its context, and nothing is copied. */
CTG_INTERNAL bool ctg_output_has_window(const ctg_output *o);
CTG_INTERNAL int ctg_output_window(void *ctx, size_t done, size_t want, char **win, size_t *avail,
                                   ctg_error *err);

/* Ends the output: finishes the compression, flushes, and puts a path's file in place (or, for
 * a buffer, adds the terminating NUL). On failure it aborts. Either way `o` is closed. */
CTG_INTERNAL int ctg_output_commit(ctg_output *o, ctg_error *w);
/* Discards the output: a buffer gets its old length back, a temporary file is removed. */
CTG_INTERNAL void ctg_output_abort(ctg_output *o);

/* Fills every field of `err` (when not NULL) from the working record `w` for a write error. */
CTG_INTERNAL int ctg_output_error(ctg_error *err, ctg_error *w, int code, const char *source);
/* Sets w->message; returns `code`. */
CTG_INTERNAL int ctg_output_message(ctg_error *w, int code, const char *msg);
/* Sets w->message to "what: <the system's reason for errno>"; returns CTG_EIO. */
CTG_INTERNAL int ctg_output_io_failure(ctg_error *w, const char *what);

/* output_file.c: a path's target. Opens what `o->target` leads to: a temporary file beside a
 * regular file (or where a new one goes), or a device, FIFO or socket directly. */
CTG_INTERNAL int ctg_output_open_target(ctg_output *o, unsigned flags, ctg_error *w);
/* Commits a path output: the rename of the temporary file, or the close of a direct one. */
CTG_INTERNAL int ctg_output_commit_target(ctg_output *o, ctg_error *w);
/* Closes a path output's descriptor and removes its temporary file, if any. */
CTG_INTERNAL void ctg_output_abort_target(ctg_output *o);

/* Checks the version and flags of `in` (NULL: the defaults) and copies it to `out` in the
 * current layout, version 1's missing fields as NULL (message in w on failure). */
CTG_INTERNAL int ctg_write_check_options(const ctg_write_options *in, ctg_write_options *out,
                                         ctg_error *w);

#endif
