/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_ERROR_H
#define CTG_ERROR_H

/**
 * @file error.h
 * Status codes and the caller-owned error record that every fallible call can fill.
 *
 * Threads: there is no global or thread-local "last error"; each call writes only the record
 * it is given, so each thread passes its own. ctg_error_format and ctg_status_name only read
 * and may be called from any thread.
 */

#include "ctg/common.h"

CTG_BEGIN_DECL

/** Status returned by every fallible ctg call: CTG_OK or one of the negative codes. */
typedef enum ctg_status {
    CTG_OK = 0,
    CTG_ENOMEM = -1,       /**< an allocation failed; nothing was changed */
    CTG_EINVAL = -2,       /**< a bad argument (NULL list, unknown flag, ...) */
    CTG_EIO = -3,          /**< reading or writing failed; message has the system's reason */
    CTG_ESYNTAX = -4,      /**< malformed JSON, or truncated or corrupt gzip data: line,
                                column and offset say where */
    CTG_ESCHEMA = -5,      /**< valid JSON of the wrong shape: path says where */
    CTG_EUNSUPPORTED = -6, /**< unknown "type", or a "version" newer than this library's */
    CTG_ELIMIT = -7,       /**< a read limit (depth, string length, document size) exceeded */
    CTG_ESTOPPED = -8      /**< a callback asked to stop; not an error of the input */
} ctg_status;

/** Bytes of ctg_error.source, its NUL included; a longer source keeps its tail. */
#define CTG_ERROR_SOURCE_MAX 256
/** Bytes of ctg_error.path, its NUL included. */
#define CTG_ERROR_PATH_MAX 256
/** Bytes of ctg_error.message, its NUL included. */
#define CTG_ERROR_MESSAGE_MAX 256

/**
 * What went wrong, where. The caller owns it (usually on the stack); a call writes it only
 * when it fails, and then writes every field. The first error of a call wins.
 */
typedef struct ctg_error {
    ctg_status code; /**< what failed: the call's return value */
    /** 1-based line of the offending token; 0 when there is none. Saturates: UINT_MAX means
     *  that line or a later one (the offset stays exact). */
    unsigned line;
    unsigned column; /**< 1-based column in bytes; 0 when unknown; saturates like `line` */
    size_t offset;   /**< bytes from the start of the input (after nothing is skipped) */
    char source[CTG_ERROR_SOURCE_MAX];   /**< file path, "<memory>" or "<stdin>"; tail kept */
    /** JSON Pointer of the offending value, "" for the root; "" too for an error about no
     *  place in a document (bad arguments or options, I/O, memory, a write): see
     *  ctg_error_format for how the two are told apart. */
    char path[CTG_ERROR_PATH_MAX];
    char message[CTG_ERROR_MESSAGE_MAX]; /**< lower case, no final period */
} ctg_error;

/**
 * Formats `err` as one line, always NUL-terminating when size > 0:
 * - "source:line:column: error: path: message" for an error in a text input (the root path ""
 *   shows as "/");
 * - "source: error: path: message" for an input without positions (a json-c tree): line 0 and
 *   a path, or the root for CTG_ESYNTAX and CTG_ESCHEMA;
 * - "source: error: message" for an error about no place in a document: line 0, path "" and
 *   another code (bad arguments or options, I/O such as a file that cannot be opened, memory,
 *   writes), e.g. "missing.json: error: cannot open: No such file or directory".
 * The fields hold raw bytes of the input (a key, an id, a file name); here each is escaped as
 * ctg_escape_text does, so that the line is one line and shows what the input said.
 * @return the length the full text needs, excluding the NUL, like snprintf.
 */
CTG_API size_t ctg_error_format(const ctg_error *err, char *buf, size_t size);

/**
 * Copies `len` bytes of `text` (NULL: none) to `buf` as text safe to show on a terminal or in a
 * log line: control characters become `\n`, `\t`, `\r` or `\u00XX`, a backslash is doubled,
 * invisible and reordering code points (C1 controls, zero-width and bidirectional formatting,
 * U+2028, U+2029, U+FEFF) become `\uXXXX`, and bytes that are not UTF-8 become `\xNN`.
 * @param buf   where the text goes; always NUL-terminated when size > 0 (output cut short
 *              may end inside an escape); may be NULL when size is 0.
 * @param size  bytes at `buf`.
 * @param text  the bytes to escape, borrowed for the call; NULL for none.
 * @param len   bytes at `text`.
 * @return the length the whole escaped text needs, excluding the NUL, like snprintf.
 */
CTG_API size_t ctg_escape_text(char *buf, size_t size, const char *text, size_t len);

/** A short constant name for `status`, e.g. "CTG_ESYNTAX"; static storage, never NULL. */
CTG_API const char *ctg_status_name(int status);

CTG_END_DECL

#endif
