/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_ERROR_SET_H
#define CTG_BASE_ERROR_SET_H

/* Private: the one way the library fills a ctg_error.
 *
 * An error is completed in stages, because no one stage knows all of it: the lexer knows the
 * place, the reader the JSON path, the entry point the source name, and a read callback or an
 * output its own message. Each stage sets what it knows and passes NULL for a field an earlier
 * stage already wrote. The message is formatted here, when the error happens: a call that
 * succeeds formats nothing. */

#include <stdarg.h>
#include <stddef.h>

#include "base/internal.h"
#include "ctg/error.h"

#if defined(__GNUC__)
#define CTG_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CTG_PRINTF(fmt, args)
#endif

/* A place in a text input: bytes from its start, 1-based line and column (0: unknown). */
typedef struct ctg_error_place {
    size_t offset;
    unsigned line;
    unsigned column;
} ctg_error_place;

/* Sets err->code to `code`, the place to `at` (NULL: no place, line, column and offset 0),
 * err->path to `path` (NULL: kept; "" for the root or for an error about no place) and the
 * message to `fmt` formatted, cut at CTG_ERROR_MESSAGE_MAX - 1 bytes (NULL: kept; the
 * arguments may not point into err->message). err->source is left alone. Returns `code`. */
CTG_INTERNAL int ctg_error_set(ctg_error *err, int code, const ctg_error_place *at,
                               const char *path, const char *fmt, ...) CTG_PRINTF(5, 6);
/* ctg_error_set with the arguments of `fmt` in `ap`. */
CTG_INTERNAL int ctg_error_vset(ctg_error *err, int code, const ctg_error_place *at,
                                const char *path, const char *fmt, va_list ap) CTG_PRINTF(5, 0);

/* Sets err->source to `name`; a name longer than the field keeps its tail behind "...",
 * where the file name is. */
CTG_INTERNAL void ctg_error_set_source(ctg_error *err, const char *name);

/* An error with no place in the document (bad arguments, I/O, memory) from `source`: sets
 * `code` and `msg` (NULL keeps the message already written, e.g. by an input's open) and the
 * source, and returns `code`. */
CTG_INTERNAL int ctg_error_set_plain(ctg_error *err, const char *source, int code, const char *msg);
/* The same into the `cap` (at least 4) bytes at `dst`, for a name kept until an error. */
CTG_INTERNAL void ctg_error_keep_tail(char *dst, size_t cap, const char *name);

/* Appends "/" and the `seg_len` bytes of `seg` as one JSON Pointer segment (RFC 6901: "~" as
 * "~0", "/" as "~1") to the `len` bytes of `path`, a CTG_ERROR_PATH_MAX buffer; what does
 * not fit is cut (a "~" or "/" with room for one byte left stays as it is). Keeps `path`
 * terminated; returns its new length. */
CTG_INTERNAL size_t ctg_error_path_append(char *path, size_t len, const char *seg, size_t seg_len);

#endif
