/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_STREAM_H
#define CTG_STREAM_H

/**
 * @file stream.h
 * Reading and writing contingency lists one contingency at a time, in constant memory.
 *
 * A stream read delivers each contingency of a `default` list (including lists nested in
 * `list` lists) to a callback as soon as it is complete, then reuses its memory: peak memory
 * does not grow with the number of contingencies. Lists of other kinds are small and are
 * delivered whole. Any input that starts with the gzip magic is decompressed on the fly (a
 * truncated or corrupt gzip stream is CTG_ESYNTAX, placed at the end of the text that could be
 * decompressed); the streaming writer compresses a path ending in ".gz".
 *
 * Threads: a stream read runs on the calling thread, and so do its callbacks; several reads
 * may run at once on different threads. A stream writer belongs to one thread at a time (it
 * may move between threads between calls); the contingencies it is given are only read.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/io.h"
#include "ctg/model.h"

CTG_BEGIN_DECL

/** The kinds of ctg_source. */
typedef enum ctg_source_kind {
    CTG_SOURCE_BUFFER,
    CTG_SOURCE_PATH,
    CTG_SOURCE_FP,
    CTG_SOURCE_FD,
    CTG_SOURCE_CALLBACK
} ctg_source_kind;

/**
 * A CALLBACK source's reader: reads up to `cap` bytes into `buf` and sets `*got` to their
 * number, 0 at the end of the input. Returns 0, or nonzero on failure (the read then fails
 * with CTG_EIO, and errno, when the callback leaves it set, gives the reason).
 */
typedef int (*ctg_source_read_fn)(void *payload, void *buf, size_t cap, size_t *got);

/** Where a stream read takes its bytes from; build one with the ctg_source_* helpers. */
typedef struct ctg_source {
    ctg_source_kind kind; /**< which of the fields below is read */
    const void *data; /**< BUFFER: `len` bytes, borrowed for the read */
    size_t len;       /**< BUFFER: the bytes at `data`; CALLBACK: the input's size for
                           progress reports, 0 when unknown */
    const char *path; /**< PATH: borrowed for the read */
    FILE *fp;         /**< FP: read to its end, left open */
    int fd;           /**< FD: read to its end, left open */
    ctg_source_read_fn read; /**< CALLBACK: called until it reports the end */
    void *payload;           /**< CALLBACK: passed to `read` */
} ctg_source;

/** A source over `len` bytes at `data` (borrowed; need not be NUL-terminated). */
CTG_API ctg_source ctg_source_buffer(const void *data, size_t len);
/** A source that opens `path` (borrowed); gzip data is decompressed, whatever the name. */
CTG_API ctg_source ctg_source_path(const char *path);
/** A source reading `fp` to its end; the caller keeps and closes it. */
CTG_API ctg_source ctg_source_fp(FILE *fp);
/** A source reading `fd` to its end; the caller keeps and closes it. */
CTG_API ctg_source ctg_source_fd(int fd);
/**
 * A source whose bytes come from `read` (called with `payload`) until it reports the end:
 * for inputs that are none of the above, or to see the bytes as the read takes them (to keep
 * a copy of a pipe's, say). `size` is the input's size for progress reports, 0 when unknown.
 * Errors name it "<input>" unless ctg_read_options.source_name says otherwise.
 */
CTG_API ctg_source ctg_source_callback(ctg_source_read_fn read, void *payload, size_t size);

/** Where a value of a document begins, as ctg_locate finds it. */
typedef struct ctg_location {
    bool found;     /**< the document has a value at this pointer */
    unsigned line;  /**< 1-based, as ctg_error's; 0 when not found */
    unsigned column; /**< 1-based, in bytes; 0 when not found */
    size_t offset;  /**< bytes from the start of the input */
} ctg_location;

/**
 * Finds where the values named by `n` JSON Pointers (RFC 6901, "" for the root: the `path` of
 * a ctg_error, say) begin in the document of `src`, in one pass that builds nothing: for
 * tools that check a document after reading it and want to show a line and column. A pointer
 * longer than CTG_ERROR_PATH_MAX - 1 bytes is compared as ctg_error cuts it.
 * @param src       the document, borrowed for the call (read once: a pipe works).
 * @param pointers  `n` NUL-terminated pointers, borrowed for the call; repeats are fine.
 * @param n         how many.
 * @param out       `n` places, filled: out[i] for pointers[i] (the first value with that
 *                  pointer); all not found on failure.
 * @param opts      read options (NULL: defaults); the allocator, max_depth and source_name
 *                  apply.
 * @param err       receives the error on failure (NULL: not reported).
 * @return CTG_OK (also when some pointers are not found); CTG_EINVAL for a NULL argument;
 *         the lexer's error for a document that is not well-formed JSON; CTG_EIO; CTG_ENOMEM.
 */
CTG_API int ctg_locate(const ctg_source *src, const char *const *pointers, size_t n,
                       ctg_location *out, const ctg_read_options *opts, ctg_error *err);

/**
 * The list a streamed item belongs to, as far as it has been read. PowSyBl writes "type",
 * "version" and "name" first, so they are normally known; a field that comes after the
 * contingencies in the input is NULL here. Borrowed until the callback returns.
 */
typedef struct ctg_stream_header {
    ctg_list_kind kind;   /**< the list's kind, known from its fields */
    const char *name;     /**< NULL when not read yet */
    const char *version;  /**< NULL when absent or not read yet */
    size_t depth;         /**< 0 for the document's root list, 1 for a list nested in it... */
    size_t index;         /**< position among its siblings in a `list` list (0 at the root) */
    /** While a contingency callback runs, the contingency it is given (the reader's own, its
     *  strings and kept extension text checked as they were read); NULL otherwise. What
     *  ctg_stream_writer_add_read compares with. */
    const struct ctg_contingency *delivered;
} ctg_stream_header;

/**
 * Where a contingency delivered to a visitor sits in its text (visitor version 2).
 * Borrowed until the callback returns. Lines and columns are 1-based and saturate as
 * ctg_error's do; columns are in bytes. Offsets count bytes of the text as read, after gzip
 * decompression for a compressed input (a UTF-8 BOM included).
 */
typedef struct ctg_stream_place {
    size_t index;            /**< its index in its list's "contingencies" array, from 0 */
    unsigned line;           /**< of its opening brace */
    unsigned column;         /**< of its opening brace */
    size_t offset;           /**< bytes of input before its opening brace */
    unsigned id_line;        /**< of its "id" value (the string's opening quote) */
    unsigned id_column;      /**< of its "id" value */
    /** c->element_count entries: the line of the opening brace of each element, in input
     *  order */
    const unsigned *element_lines;
    const unsigned *element_columns; /**< the same elements' columns */
    /** c->extension_count entries: the line of each extension's name (its opening quote), in
     *  input order; added after the fields above, which keep their offsets */
    const unsigned *extension_lines;
    const unsigned *extension_columns; /**< the same names' columns */
} ctg_stream_place;

/** The version of ctg_visitor these headers describe. */
#define CTG_VISITOR_VERSION 2

/**
 * Callbacks of a stream read; any may be NULL. A callback returns 0 to go on, anything else
 * to stop: the read then returns CTG_ESTOPPED, leaking nothing. Fill it with designated
 * initializers, `{ .version = CTG_VISITOR_VERSION, .contingency = f, .payload = p }`, or start
 * from CTG_VISITOR_INIT, so that callbacks added in later versions do not shift the others.
 */
typedef struct ctg_visitor {
    /** CTG_VISITOR_VERSION; 0 (a zeroed struct) is read as 1. A newer version than the
     *  library's fails with CTG_EINVAL: its callbacks could not all be called. */
    unsigned version;
    /** A complete contingency of a `default` list (or of a bare contingency document).
     *  `c` and everything it points to are borrowed until the callback returns. */
    int (*contingency)(const ctg_stream_header *list, const ctg_contingency *c, void *payload);
    /** A whole list that is not a `default` or `list` list (identifier, criterion kinds).
     *  Borrowed until the callback returns. */
    int (*list)(const ctg_stream_header *header, const ctg_list *list, void *payload);
    /** Progress, called after each refill: bytes consumed so far and the total when known
     *  (a regular file, uncompressed), else 0. */
    int (*progress)(size_t consumed, size_t total, void *payload);
    /** Passed back to every callback. */
    void *payload;
    /** Version 2. When not NULL it is called instead of `contingency`, with where `c` sits
     *  (`at`, borrowed until it returns). A bare contingency document has index 0 and the
     *  place of its root object. Left NULL, the read costs what a version-1 read does. */
    int (*contingency_at)(const ctg_stream_header *list, const ctg_contingency *c,
                          const ctg_stream_place *at, void *payload);
    /** Version 2. With CTG_READ_LENIENT: called for each error that made the read skip a
     *  contingency (a rule broken inside a well-formed contingency object: unknown type,
     *  missing id, duplicate key, bad version rule...). Return 0 to go on, nonzero to stop
     *  (the read then returns CTG_ESTOPPED). Broken JSON syntax, I/O, memory and errors
     *  outside a contingency are not skippable: the read returns them as usual, without
     *  calling `error`. `err` is complete (source, place, path, message: what a strict read
     *  would have returned had that contingency been the first bad one) and borrowed until
     *  it returns. */
    int (*error)(const ctg_error *err, void *payload);
    /** Version 2. Called when each list object of the document has ended and is valid (the
     *  root, each list nested in a `list` list, empty ones included; a bare contingency
     *  document, kind CTG_LIST_CONTINGENCY, too), after its contingencies or its whole-list
     *  call: its header then has every field the list has, wherever they were in the input.
     *  `header` is borrowed until it returns. */
    int (*list_end)(const ctg_stream_header *header, void *payload);
} ctg_visitor;

/** A visitor without callbacks, of the current version. */
#define CTG_VISITOR_INIT { CTG_VISITOR_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL }

/**
 * Reads a document from `src`, calling `visitor` for each contingency and non-default list.
 * Errors carry line, column and path as for a full read; an error in the input can come after
 * some contingencies were delivered (and a version rule broken by elements read before the
 * "version" field is only known when the list ends).
 * @param src     where the bytes come from; borrowed for the call.
 * @param visitor NULL for none (the document is only checked).
 * @param opts    NULL for defaults; CTG_READ_NO_CACHE, CTG_READ_LENIENT and the limits
 *                apply.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_ESTOPPED when a callback stopped it, or a negative ctg_status
 *         (CTG_EINVAL for a visitor or options version newer than the library's).
 */
CTG_API int ctg_read_stream(const ctg_source *src, const ctg_visitor *visitor,
                            const ctg_read_options *opts, ctg_error *err);

/** A streaming writer of one `default` list. Opaque; see ctg_stream_writer_open_*. */
typedef struct ctg_stream_writer ctg_stream_writer;

/**
 * Opens a writer that writes a `default` list named `name` (copied) to `path`, as
 * ctg_list_write_file does (io.h): a regular file (or the file a symbolic link leads to) is
 * replaced atomically by ctg_stream_writer_close, through a temporary file
 * `.NAME.ctg-tmp-XXXXXX` beside it; a device, FIFO or socket is written through as the
 * contingencies come; a directory or a file with several hard links (without
 * CTG_WRITE_BREAK_LINKS) fails here, before anything is written. A path ending in ".gz" is
 * gzip-compressed.
 * @param[out] out the writer; the caller owns it and must close or abort it.
 * @param path     the file to replace, borrowed until close or abort.
 * @param name     the list's "name", copied; NULL or not valid UTF-8: CTG_EINVAL, nothing
 *                 written.
 * @param opts     NULL for defaults; the layout flag applies.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL, CTG_EIO or CTG_ENOMEM.
 */
CTG_API int ctg_stream_writer_open_path(ctg_stream_writer **out, const char *path,
                                        const char *name, const ctg_write_options *opts,
                                        ctg_error *err);
/** As ctg_stream_writer_open_path, to `fp` (not closed; written as it goes, not atomic). */
CTG_API int ctg_stream_writer_open_fp(ctg_stream_writer **out, FILE *fp, const char *name,
                                      const ctg_write_options *opts, ctg_error *err);
/** As ctg_stream_writer_open_path, appending to `buf` (borrowed until close or abort). */
CTG_API int ctg_stream_writer_open_buf(ctg_stream_writer **out, ctg_buf *buf, const char *name,
                                       const ctg_write_options *opts, ctg_error *err);

/** Writes one contingency (borrowed for the call). After a failure, only abort is useful. */
CTG_API int ctg_stream_writer_add(ctg_stream_writer *w, const ctg_contingency *c,
                                  ctg_error *err);

/**
 * As ctg_stream_writer_add, from inside a stream read's contingency callback, `h` being the
 * header the callback was given (borrowed for the call): when `c` is h->delivered, the
 * reader's own contingency without extensions, the checks the read already made (valid UTF-8
 * in every string, the ids present, the types known) are not made again. Any other `c` (a
 * copy, one the caller built or changed) gets every check, as ctg_stream_writer_add does.
 * The bytes written are the same either way.
 * @return as ctg_stream_writer_add.
 */
CTG_API int ctg_stream_writer_add_read(ctg_stream_writer *w, const ctg_stream_header *h,
                                       const ctg_contingency *c, ctg_error *err);

/**
 * Ends the list, flushes, and (for a path) renames the temporary file into place; then frees
 * the writer. The output is byte-identical to writing the same list at once. On failure the
 * temporary file is removed and `path` is untouched; the writer is freed either way.
 */
CTG_API int ctg_stream_writer_close(ctg_stream_writer *w, ctg_error *err);

/** Discards a writer: no output file appears (a temporary one is removed). Accepts NULL. */
CTG_API void ctg_stream_writer_abort(ctg_stream_writer *w);

/**
 * The path of the writer's temporary file, or NULL when it has none (a buffer, a FILE *, or a
 * path written through directly). Borrowed: valid until ctg_stream_writer_close or
 * ctg_stream_writer_abort, which free it. It exists so that a program can clean up when a
 * signal ends it: copy the path after the open (e.g. into a static buffer) and let the
 * signal handler unlink() the copy, which is async-signal-safe; if the signal comes after
 * the close renamed the file into place, that unlink fails harmlessly (ENOENT), the name
 * being unique. After SIGKILL nothing can clean up, and `.NAME.ctg-tmp-XXXXXX` stays beside
 * the output. ctg_write_options.temp_file gives the same path for whole-list writes.
 */
CTG_API const char *ctg_stream_writer_temp_path(const ctg_stream_writer *w);

CTG_END_DECL

#endif
