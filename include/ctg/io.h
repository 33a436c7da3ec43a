/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IO_H
#define CTG_IO_H

/**
 * @file io.h
 * Reading and writing contingency lists in PowSyBl's JSON format.
 *
 * gzip: every read (a path, a FILE *, a descriptor or a buffer) decompresses an input that
 * starts with the gzip magic, whatever its name; ctg_list_write_file compresses when the path
 * ends in ".gz". The other writes never compress.
 *
 * Threads: reads are independent of each other, each with its own options, error and list.
 * A list may be written from several threads at once (writers only read it), with one buffer,
 * stream or file per write. Allocator hooks passed in the options are called from the thread
 * of the call, and later from any thread that uses or frees the list.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/model.h"

CTG_BEGIN_DECL

/** Read flags (ctg_read_options.flags). */
enum {
    /** Look every handler up again for every object: the cache ablation for benchmarks. */
    CTG_READ_NO_CACHE = 1u << 0,
    /** Accept a "version" newer than the newest this library knows. */
    CTG_READ_ALLOW_NEWER = 1u << 1,
    /**
     * Check extension values (valid JSON, no duplicate key, integers within int64) but keep
     * only their names: ctg_extension.json and .value stay NULL, no typed handler is called,
     * and writing the list leaves those extensions out. For validating and counting: memory
     * then does not grow with what an extension holds, except for the keys of the objects
     * open at one time, kept to find duplicates.
     */
    CTG_READ_SKIP_EXTENSION_VALUES = 1u << 2,
    /**
     * Stream reads only (ctg_read_stream, stream.h), with a version-2 visitor whose `error` is
     * set; anywhere else CTG_EINVAL. A contingency of a `default` list (nested in a `list`
     * list or not) that breaks a rule of the format inside a well-formed JSON object (an
     * unknown field or element type, a missing id, a duplicate key, a type error, a version
     * rule known when it is met) is reported to `error` and skipped, and the read goes on
     * with the next one. Everything else stops the read as without the flag: broken JSON
     * syntax (even inside that contingency), read limits, I/O, memory, and errors outside a
     * contingency object: in the list's own fields ("type", "version", "name"), in a bare
     * contingency document, in identifier and criterion lists, and a version rule judged when
     * the list ends (elements read before the list's "version"). A read that skipped some
     * contingencies and met no other error returns CTG_OK: the caller counts the `error`
     * calls.
     */
    CTG_READ_LENIENT = 1u << 3,
    /**
     * Keep the "voltageLevelId" of every element, whatever its type: PowSyBl (and a read
     * without this flag) drops it on the types that take no side and on DC_LINE, leaving
     * ctg_element.voltage_level_id NULL. For linting: a side there is a mistake to report.
     * A list read with it may hold sides that writing it then leaves out (or, for DC_LINE,
     * writes as PowSyBl does).
     */
    CTG_READ_KEEP_SIDES = 1u << 4
};

/** The version of ctg_read_options these headers describe. */
#define CTG_READ_OPTIONS_VERSION 2
/** The nesting limit of arrays and objects when ctg_read_options.max_depth is 0. */
#define CTG_DEFAULT_MAX_DEPTH 64
/** The largest ctg_read_options.max_depth: a larger one is refused with CTG_EINVAL. Whatever
 *  is read within it can be written back. */
#define CTG_MAX_DEPTH_LIMIT 4096

/**
 * Counters a read fills in when ctg_read_options.stats points to one. They are reset at the
 * start of each read.
 */
typedef struct ctg_read_stats {
    size_t handler_resolves; /**< item handlers resolved: one per handler a read uses; with
                                  CTG_READ_NO_CACHE one (by name) per array read */
    size_t contingencies;    /**< contingencies read */
    size_t bytes;            /**< input bytes consumed; after a failure, up to the last token read
                                  (and whitespace after it) */
} ctg_read_stats;

/**
 * Options of a read; start from CTG_READ_OPTIONS_INIT. Borrowed for the call.
 * A zeroed struct (memset, `{0}`, or `{}` in C++) is the defaults too: `version` 0 is read as
 * version 1, and every field's zero means its default. A version-1 struct may end at
 * `extensions`: `threads` is read only from version 2 on. A version newer than the library's, or
 * an unknown flag, fails with CTG_EINVAL ("unknown read options version or flags").
 */
typedef struct ctg_read_options {
    /** CTG_READ_OPTIONS_VERSION (0 = 1); fields added later are read only when it says so */
    unsigned version;
    unsigned flags;                   /**< CTG_READ_* flags */
    size_t max_depth;                 /**< nesting limit of arrays and objects; 0 = 64; at
                                           most CTG_MAX_DEPTH_LIMIT */
    size_t max_string_len;            /**< longest string in bytes after decoding; 0 = 64 MiB */
    size_t max_document_size;         /**< longest input in bytes; 0 = no limit */
    const ctg_allocator *allocator;   /**< NULL for malloc/free; the list keeps a copy */
    ctg_read_stats *stats;            /**< NULL, or counters to fill */
    const char *source_name;          /**< name for errors; NULL = the path, "<memory>", ... */
    /** Typed extension handlers (extension.h); NULL for none, and then every extension is kept
     *  as JSON text. Borrowed for the call; its handlers must outlive the list. */
    const struct ctg_extension_registry *extensions;
    /**
     * Version 2: threads a whole-list read may use; 0 or 1 = one, the calling thread. A larger
     * number lets ctg_list_read_buffer and ctg_list_read_file split a large uncompressed
     * `default` list in PowSyBl's pretty layout at the lines between its contingencies, in
     * parts of at least 4 MiB (so from 8 MiB on), and read the parts in parallel. The result
     * is the one a single thread gives, the same list or the same error: any input the split
     * cannot vouch for (another layout, a compact file, a part that fails to read) is read
     * again by one thread. Reads with `extensions` and stream reads use one thread. With more
     * than one, `allocator`'s functions are called from several threads at once, and a path
     * is read into memory first.
     */
    unsigned threads;
} ctg_read_options;

/** The default read options, of the current version. */
#define CTG_READ_OPTIONS_INIT \
    { CTG_READ_OPTIONS_VERSION, 0u, CTG_DEFAULT_MAX_DEPTH, 0, 0, NULL, NULL, NULL, NULL, 0u }

/**
 * Reads a list of any kind from `len` bytes at `data` (need not be NUL-terminated).
 * @param[out] out  the new list, NULL on failure; the caller owns it (ctg_list_free).
 * @param data      the input, borrowed for the call; gzip data is decompressed.
 * @param len       bytes at `data`.
 * @param opts      NULL for defaults.
 * @param[out] err  may be NULL; written only on failure.
 * @return CTG_OK or a negative ctg_status; on failure nothing is left allocated.
 */
CTG_API int ctg_list_read_buffer(ctg_list **out, const void *data, size_t len,
                                 const ctg_read_options *opts, ctg_error *err);

/** As ctg_list_read_buffer, from the file at `path` ("-" is not special here); a gzip file is
 *  decompressed, whatever its name. */
CTG_API int ctg_list_read_file(ctg_list **out, const char *path, const ctg_read_options *opts,
                               ctg_error *err);

/** As ctg_list_read_buffer, from `fp` up to its end; `fp` stays open and owned by the caller. */
CTG_API int ctg_list_read_fp(ctg_list **out, FILE *fp, const ctg_read_options *opts,
                             ctg_error *err);

/** As ctg_list_read_buffer, from `fd` up to its end; `fd` stays open and owned by the caller. */
CTG_API int ctg_list_read_fd(ctg_list **out, int fd, const ctg_read_options *opts,
                             ctg_error *err);

/**
 * As ctg_list_read_buffer, reading in place: the strings of the list (ids, names, voltage
 * level ids, the version, the strings of identifiers and criteria) are unescaped inside
 * `data` and NUL-terminated there, each over its own closing quote or a byte of its own
 * escapes, instead of being copied into the list's memory. Object keys and extension values
 * are still copied. The list it gives, or the error, is the one ctg_list_read_buffer gives
 * for the same bytes.
 *
 * Lifetime: the list borrows `data`. The buffer must outlive the list (until ctg_list_free)
 * and must not be modified while the list lives; after the call it no longer holds the
 * document. On failure nothing is left allocated, but `data` may have been rewritten in part.
 * It saves the copies, not memory: the list holds no copy of the strings, but the whole
 * document stays in memory as long as the list, where a caller of ctg_list_read_buffer may
 * release it once the read returns (for a `default` list of short ids, about 1.7 times the
 * document in all, against about 0.9 times for ctg_list_read_buffer's list alone).
 * A gzip buffer is decompressed and read as ctg_list_read_buffer reads it: then `data` is
 * neither rewritten nor borrowed. The read uses one thread, whatever ctg_read_options.threads
 * says: a parallel read that declines reads the input again, which a rewrite would spoil.
 * `data` (`len` bytes, writable) stays the caller's, borrowed by the list; `out`, `opts` and
 * `err` are as for ctg_list_read_buffer.
 */
CTG_API int ctg_list_read_in_situ(ctg_list **out, char *data, size_t len,
                                  const ctg_read_options *opts, ctg_error *err);

/**
 * The format version the writers write for a list of `kind`: every list is written at the
 * newest version this library knows for its kind ("1.1" for `default`, "1.3" for
 * `identifier`, ...), whatever version it was read at.
 * @return static storage; NULL for CTG_LIST_CONTINGENCY (a bare contingency document has no
 *         version) and for a `kind` out of range.
 */
CTG_API const char *ctg_list_kind_version(ctg_list_kind kind);

/** Write flags (ctg_write_options.flags). */
enum {
    /** No whitespace at all, instead of PowSyBl's pretty layout. */
    CTG_WRITE_COMPACT = 1u << 0,
    /** Let a path write replace a regular file that has other hard links: the new file gets
     *  the name written to, and the other names keep the old content. Without this flag such
     *  a write fails with CTG_EINVAL before anything is written. */
    CTG_WRITE_BREAK_LINKS = 1u << 1
};

/** The version of ctg_write_options these headers describe. Version 2 added temp_file and
 *  payload, version 3 format_version; versions 0 (a zeroed struct), 1 (the first three fields)
 *  and 2 are accepted. */
#define CTG_WRITE_OPTIONS_VERSION 3

/**
 * Options of a write; start from CTG_WRITE_OPTIONS_INIT. Borrowed for the call. A zeroed
 * struct is the defaults (`version` 0 is read as 1); a newer version or an unknown flag fails
 * with CTG_EINVAL.
 */
typedef struct ctg_write_options {
    unsigned version;               /**< CTG_WRITE_OPTIONS_VERSION (0 = 1) */
    unsigned flags;                 /**< CTG_WRITE_* flags */
    const ctg_allocator *allocator; /**< for the writer's own buffers; NULL = malloc/free */
    /**
     * NULL, or called by a path write (ctg_list_write_file, ctg_stream_writer_open_path) with
     * the temporary file's path as soon as that file exists, before anything is written to
     * it, and with NULL once it is gone (renamed into place or removed); never for a target
     * written through directly. The path is borrowed until the NULL call returns: copy it,
     * e.g. into a static buffer, for a signal handler, which may then unlink() the copy to
     * clean up before the process exits (see ctg_stream_writer_temp_path). Called on the
     * writing thread.
     */
    void (*temp_file)(const char *path, void *payload);
    void *payload; /**< passed to temp_file */
    /**
     * Version 3. NULL: the newest format version of the list's kind (ctg_list_kind_version).
     * Else the older version to write the list at, for older PowSyBl readers; borrowed for
     * the call. What each kind can be written at, and how it differs:
     * - `default` "1.0": BOUNDARY_LINE elements are written as DANGLING_LINE, their name
     *   before 1.1; "1.1";
     * - the six criterion kinds "1.0" (a BOUNDARY_LINE identifiableType cannot be written:
     *   its 1.0 name, DANGLING_LINE, is refused by current readers) and "1.1";
     * - `identifier` "1.1" (no contingencyId, no ID_WITH_WILDCARDS or
     *   SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS identifiers), "1.2" (no "wildcard" field: an
     *   ID_WITH_WILDCARDS identifier must use the default '?'; no
     *   SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS) and "1.3";
     * - `list` "1.0": written as PowSyBl wrote it before June 2025, its nested lists too
     *   (`default`, criterion and `list` lists at 1.0, `identifier` lists at 1.2); "1.1":
     *   every nested list at its newest version.
     * Any other version, or one given for a bare contingency, is CTG_EINVAL. Content the
     * version cannot express fails with CTG_EUNSUPPORTED before anything is written, with
     * the JSON Pointer of the first such item in ctg_error.path (ctg_stream_writer_open
     * checks the version, ctg_stream_writer_add each contingency); nothing is dropped.
     */
    const char *format_version;
} ctg_write_options;

/** The default write options, of the current version. */
#define CTG_WRITE_OPTIONS_INIT { CTG_WRITE_OPTIONS_VERSION, 0u, NULL, NULL, NULL, NULL }

/**
 * A growable byte buffer owned by the caller, released with ctg_buf_dispose. Set `allocator`
 * (or leave it NULL for malloc) before first use; CTG_BUF_INIT gives an empty one.
 */
typedef struct ctg_buf {
    char *data;                     /**< `len` bytes, NUL-terminated after a successful write */
    size_t len;                     /**< bytes written so far */
    size_t cap;                     /**< bytes allocated at `data` */
    const ctg_allocator *allocator; /**< borrowed; must outlive the buffer */
} ctg_buf;

/** An empty buffer using malloc/free. */
#define CTG_BUF_INIT { NULL, 0, 0, NULL }

/** Releases the buffer's memory and empties it. Accepts NULL. */
CTG_API void ctg_buf_dispose(ctg_buf *buf);

/**
 * Appends `list` as PowSyBl JSON (current format version, or opts->format_version) to `buf`.
 * On failure `buf` keeps its previous length.
 * @return CTG_OK, CTG_EINVAL, CTG_EUNSUPPORTED (see format_version) or CTG_ENOMEM.
 */
CTG_API int ctg_list_write_buf(ctg_buf *buf, const ctg_list *list,
                               const ctg_write_options *opts, ctg_error *err);

/** Writes `list` to `fp` (not closed, not flushed beyond what stdio does). */
CTG_API int ctg_list_write_fp(FILE *fp, const ctg_list *list, const ctg_write_options *opts,
                              ctg_error *err);

/** Writes `list` to `fd` (not closed). */
CTG_API int ctg_list_write_fd(int fd, const ctg_list *list, const ctg_write_options *opts,
                              ctg_error *err);

/**
 * Writes `list` to `path`. What happens depends on what `path` is (lstat first):
 * - nothing (or a symbolic link to nothing): a new regular file is created, with mode 0666
 *   less the umask; a dangling link is kept and its target created, as a shell's `>` does;
 * - a regular file: replaced atomically. The bytes go to a temporary file
 *   `.NAME.ctg-tmp-XXXXXX` (hidden, NAME shortened when needed so that the temporary name
 *   fits wherever NAME does) in the same directory, which is flushed (fsync), given the old
 *   file's mode and, where the process may set them, its owner and group, then renamed over
 *   `path`, and the directory is flushed. Other attributes (ACLs, extended attributes) are
 *   not copied. A file with several hard links is refused (CTG_EINVAL) unless
 *   CTG_WRITE_BREAK_LINKS is set, as replacing it would break the other names;
 * - a symbolic link: the file it leads to (through up to 40 links) is replaced as above, in
 *   that file's directory; the links stay;
 * - a character or block device, a FIFO or a Unix stream socket: written through directly
 *   (opened for writing, never truncated, created or replaced; a socket is connected to).
 *   This is not atomic: a failure can leave part of the output written. Opening a FIFO waits
 *   for a reader. Writing to a FIFO or socket without a reader raises SIGPIPE, as any write
 *   does; an application that ignores or catches it gets CTG_EIO;
 * - a name of one of the process's own descriptors ("/dev/stdout", "/dev/stderr",
 *   "/dev/fd/N", "/proc/self/fd/N"): that descriptor, written through at its offset as a
 *   shell redirection would (flush a FILE * on it first), not closed; a link only the kernel
 *   can follow (under /proc, "pipe:[N]") is opened as the path given and written through;
 * - a directory: CTG_EIO ("Is a directory") before anything is written.
 * On failure a replaced file is untouched and no temporary file remains, except after the
 * process is killed (SIGKILL, a crash, or a signal whose handler does not remove it: see
 * ctg_write_options.temp_file): then `.NAME.ctg-tmp-XXXXXX` is left and may be deleted.
 * A path ending in ".gz" is gzip-compressed.
 * @return CTG_OK, CTG_EINVAL, CTG_EIO or CTG_ENOMEM.
 */
CTG_API int ctg_list_write_file(const char *path, const ctg_list *list,
                                const ctg_write_options *opts, ctg_error *err);

/**
 * Appends the contingency `c` to `buf` as one JSON object, byte for byte as the writers write
 * it inside a `default` list's "contingencies" (compact with CTG_WRITE_COMPACT; extensions
 * included), e.g. for JSON Lines. It is checked as ctg_stream_writer_add checks it.
 * opts->format_version, when set, is that of the `default` list it belongs to ("1.0" writes
 * BOUNDARY_LINE as DANGLING_LINE). On failure `buf` keeps its previous length.
 * @param buf   the caller's buffer; NUL-terminated after a successful write.
 * @param c     borrowed for the call.
 * @param opts  NULL for defaults.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL (an invalid contingency, a bad option) or CTG_ENOMEM.
 */
CTG_API int ctg_contingency_write_buf(ctg_buf *buf, const ctg_contingency *c,
                                      const ctg_write_options *opts, ctg_error *err);

CTG_END_DECL

#endif
