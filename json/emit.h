/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_JSON_EMIT_H
#define CTG_JSON_EMIT_H

/* Private: a buffered JSON emitter producing PowSyBl's pretty layout (spec section 7) or a
 * compact one. Errors are sticky: every call after a failure is a no-op, and ctg_emit_finish
 * returns the first failure, so writers need not check each call. No printf on this path. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/internal.h"
#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/io.h"
#include "json/key.h"

/* Receives the emitter's output in pieces; returns CTG_OK, or CTG_EIO/CTG_ENOMEM after filling
 * err->message. */
typedef int (*ctg_sink_fn)(void *ctx, const char *data, size_t len, ctg_error *err);

/* Lends the emitter memory to write into: commits the `done` bytes written in the previous
 * window and sets *win to at least `want` writable bytes (*avail of them). Returns CTG_OK, or
 * CTG_ENOMEM after filling err->message. */
typedef int (*ctg_window_fn)(void *ctx, size_t done, size_t want, char **win, size_t *avail,
                             ctg_error *err);

/* Whatever a read within CTG_MAX_DEPTH_LIMIT gives can be written back: the root object, the
 * nesting of `list` lists and a contingency's own levels add a few levels at most. */
#define CTG_EMIT_MAX_DEPTH (CTG_MAX_DEPTH_LIMIT + 64)

typedef struct ctg_emitter {
    /* Private to emit.c; in the header only so that callers can embed the struct. */
    ctg_sink_fn sink;
    ctg_window_fn window; /* set: `buf` is the window's memory, not the emitter's */
    void *ctx;
    const ctg_allocator *alloc;
    bool compact;
    char *buf;
    size_t len;
    size_t cap;
    size_t size; /* the buffer's size (at least the default, which windows are asked for) */
    int status; /* first failure, sticky */
    ctg_error *err;
    unsigned obj_depth; /* open objects: the indent level of the pretty layout */
    unsigned depth;     /* open containers */
    unsigned char frame[CTG_EMIT_MAX_DEPTH]; /* per open container: no item yet, is an object */
    bool after_key;                          /* the next value follows a key */
    bool astral_escapes; /* ctg_emit_escape_astral: checked per flushed piece, not per string */
    /* Not the emitter's: the writers above it keep here what they write for (format/: the
     * format versions, format/version.h); NULL after init. */
    const void *above;
} ctg_emitter;

/* Prepares `e` to emit to `sink`. `err` receives sink and memory failures. */
CTG_INTERNAL int ctg_emit_init(ctg_emitter *e, ctg_sink_fn sink, void *ctx, bool compact,
                               const ctg_allocator *a, ctg_error *err);
/* As ctg_emit_init with a buffer of `size` bytes (at least the default, 64 KiB): the sink gets
 * pieces that large, for outputs where each piece is a system call. */
CTG_INTERNAL int ctg_emit_init_sized(ctg_emitter *e, ctg_sink_fn sink, void *ctx, bool compact,
                                     size_t size, const ctg_allocator *a, ctg_error *err);
/* As ctg_emit_init, writing in place into the memory `window` lends, with no buffer of its own
 * (for outputs that are memory already). Asks for a first window: CTG_OK or its failure. */
CTG_INTERNAL int ctg_emit_init_window(ctg_emitter *e, ctg_window_fn window, void *ctx, bool compact,
                                      const ctg_allocator *a, ctg_error *err);
/* Flushes what is buffered; returns the first failure of the whole emission, or CTG_OK. */
CTG_INTERNAL int ctg_emit_finish(ctg_emitter *e);
/* Releases the emitter's buffer. Accepts a zeroed or disposed emitter. */
CTG_INTERNAL void ctg_emit_dispose(ctg_emitter *e);

/* Sink mode only (not a window): from now on every character above U+FFFF leaves as its two
 * UTF-16 surrogates, each a `\uXXXX` escape with uppercase hex (U+1F600: `\uD83D\uDE00`), as
 * Jackson's byte-stream generator writes them (security-analysis spec 1.1). Everything the
 * emitter writes outside strings is ASCII, so the rewrite is made on each piece handed to the
 * sink: no cost on the string paths, none at all for an emitter that does not ask for it. */
CTG_INTERNAL void ctg_emit_escape_astral(ctg_emitter *e);

/* Records a failure of a writer above the emitter (a rule broken, a handler's error): the
 * first failure sticks, `msg` goes to err->message, and later calls do nothing. */
CTG_INTERNAL void ctg_emit_fail(ctg_emitter *e, int code, const char *msg);

CTG_INTERNAL void ctg_emit_object_begin(ctg_emitter *e);
CTG_INTERNAL void ctg_emit_object_end(ctg_emitter *e);
CTG_INTERNAL void ctg_emit_array_begin(ctg_emitter *e);
CTG_INTERNAL void ctg_emit_array_end(ctg_emitter *e);
/* A member name; the next call emits its value. */
CTG_INTERNAL void ctg_emit_key(ctg_emitter *e, const char *key, size_t len);
CTG_INTERNAL void ctg_emit_string(ctg_emitter *e, const char *s, size_t len);
/* Java Double.toString layout (spec section 7). */
CTG_INTERNAL void ctg_emit_double(ctg_emitter *e, double v);
CTG_INTERNAL void ctg_emit_int(ctg_emitter *e, int64_t v);
/* A number whose text `s` (`n` bytes) is already what ctg_emit_int or ctg_emit_double would
 * write for its value: written as it is. */
CTG_INTERNAL void ctg_emit_number_text(ctg_emitter *e, const char *s, size_t n);
CTG_INTERNAL void ctg_emit_bool(ctg_emitter *e, bool v);
CTG_INTERNAL void ctg_emit_null(ctg_emitter *e);

/* As ctg_emit_key for a name of the format's key tables (json/key.h): the writers' hot path. */
CTG_INTERNAL void ctg_emit_name_key(ctg_emitter *e, const ctg_key *name);
/* A member whose value is a string: ctg_emit_name_key then ctg_emit_string, in one piece. */
CTG_INTERNAL void ctg_emit_member_string(ctg_emitter *e, const ctg_key *name, const char *s,
                                         size_t len);

/* A member of an object whose members are all strings. */
typedef struct ctg_emit_member {
    const ctg_key *name;
    const char *value;
    size_t len;
} ctg_emit_member;
/* An object of `count` string members, in one piece: as ctg_emit_object_begin, then
 * ctg_emit_member_string for each, then ctg_emit_object_end, with the same output. */
CTG_INTERNAL void ctg_emit_string_object(ctg_emitter *e, const ctg_emit_member *members,
                                         size_t count);

/* ---- values the writer above lays out itself (pretty layout only) ----------------------
 * For the writers' hottest values (format/default.c's contingencies): the writer writes the
 * bytes of one whole value in place, with one room check per member instead of the calls'
 * checks and state, and must write exactly what the calls above would. Between
 * ctg_emit_raw_begin and ctg_emit_raw_end no other emitter call is made; `p` is the end of
 * what is written so far, and NULL after a failure (then the writer stops: the failure is
 * the emitter's, sticky, and ctg_emit_raw_end is not called). */

/* ",\n" then the spaces of the deepest indent and the block copy's slack, for the
 * separators. */
extern const char ctg_emit_indent_text[];
#define CTG_EMIT_COPY_BLOCK 32

/* Begins a value nested `levels` deep (its own containers) at the current place: writes its
 * separator and returns where the value goes, with room for `need` bytes (at most 4 KiB).
 * NULL, with nothing written or changed, when the calls above must write it (compact layout,
 * misuse, too deep) or the full buffer cannot be flushed (the sink failed, now or before). */
char *ctg_emit_raw_begin(ctg_emitter *e, unsigned levels, size_t need);
/* Ends the value at `p`. */
void ctg_emit_raw_end(ctg_emitter *e, char *p);
/* Room for `need` more bytes at `p` (at most the emitter's 64 KiB buffer; the callers ask for
 * a member's, CTG_EMIT_NAME_ROOM, up to some 8 KiB): the buffer flushed when it is full. NULL
 * when the flush fails. */
char *ctg_emit_raw_room_slow(ctg_emitter *e, char *p, size_t need);
/* The bytes left at `p`. */
static inline size_t ctg_emit_raw_left(const ctg_emitter *e, const char *p)
{
    return (size_t)(e->buf + e->cap - p);
}
/* ctg_emit_raw_room_slow's inline front: `p` itself while `need` bytes fit (or p is NULL). */
static inline char *ctg_emit_raw_room(ctg_emitter *e, char *p, size_t need)
{
    if (p == NULL || ctg_emit_raw_left(e, p) >= need)
        return p;
    return ctg_emit_raw_room_slow(e, p, need);
}
/* The longest string ctg_emit_quoted_into takes (the emitter's slice), so that 6 * n + 2 cannot
 * wrap. */
#define CTG_EMIT_RAW_SLICE ((size_t)8192)
/* The quoted, escaped string at `p`, with room for 6 * n + 2 bytes; returns the end. */
char *ctg_emit_quoted_into(char *p, const char *s, size_t n);
/* ctg_emit_raw_string where the room is short or the string long. */
char *ctg_emit_raw_string_slow(ctg_emitter *e, char *p, const char *s, size_t n);
/* The quoted, escaped string, of any length (room is checked, long ones go in slices). */
static inline char *ctg_emit_raw_string(ctg_emitter *e, char *p, const char *s, size_t n)
{
    if (p != NULL && n <= CTG_EMIT_RAW_SLICE && ctg_emit_raw_left(e, p) >= 6 * n + 2)
        return ctg_emit_quoted_into(p, s, n);
    return ctg_emit_raw_string_slow(e, p, s, n);
}

/* Bytes a separator (",\n" and the indent: ctg_emit_raw_break) and a member's name (the
 * separator, the padded name copied as one block of sizeof quoted bytes, then " : ":
 * ctg_emit_raw_name) may write at `depth` (open objects, the member's own included), the
 * slack of the fixed-size copies counted: the emitter's calls count their room with these
 * too. */
#define CTG_EMIT_BREAK_ROOM(depth) (2 + 2 * (size_t)(depth) + CTG_EMIT_COPY_BLOCK)
#define CTG_EMIT_NAME_ROOM(depth) (CTG_EMIT_BREAK_ROOM(depth) + sizeof(((ctg_key *)0)->quoted) + 3)

/* `n` bytes of `src` to `p`; `src` must be readable for CTG_EMIT_COPY_BLOCK bytes. Up to that
 * many (indents to depth 15) the copy has a fixed size, which the compiler inlines; the caller
 * reserved the slack (the _ROOM macros above count it). */
static inline char *ctg_emit_copy_upto32(char *p, const char *src, size_t n)
{
    if (n <= CTG_EMIT_COPY_BLOCK)
        memcpy(p, src, CTG_EMIT_COPY_BLOCK);
    else
        memcpy(p, src, n);
    return p + n;
}

/* A line break then the indent of `depth`, after a comma when `comma`. */
static inline char *ctg_emit_raw_break(char *p, bool comma, size_t depth)
{
    return ctg_emit_copy_upto32(p, ctg_emit_indent_text + !comma, 1 + comma + 2 * depth);
}

/* The separator of a member at `depth` (none before the first but the line break), its
 * quoted name and " : ". */
static inline char *ctg_emit_raw_name(char *p, bool first, size_t depth, const ctg_key *name)
{
    p = ctg_emit_raw_break(p, !first, depth);
    memcpy(p, name->quoted, sizeof name->quoted); /* one fixed-size copy: the name is padded */
    p += name->len + 2;
    memcpy(p, " : ", 3);
    return p + 3;
}

/* Convenience for NUL-terminated literals. */
#define CTG_EMIT_KEY(e, lit) ctg_emit_key((e), (lit), sizeof(lit) - 1)

#endif
