/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_JSON_READER_H
#define CTG_JSON_READER_H

/* Private: the reading context every handler works on, and the helpers they share: the object
 * field loop, the one array reader, string copies into the arena, and error reporting.
 *
 * Handlers read straight off the token stream into arena structs; no JSON tree is built.
 * Calling convention: a handler is entered with rd->tok on the first token of its value and
 * returns with rd->tok on that value's last token. */

#include <stdbool.h>
#include <stddef.h>

#include "base/internal.h"
#include "ctg/io.h"
#include "ctg/model.h"
#include "base/arena.h"
#include "json/key.h"
#include "json/lexer.h"

typedef struct ctg_reader ctg_reader;

/* A handler reads one JSON value of its type into a struct of `size` bytes. */
typedef struct ctg_handler {
    const char *name;                          /* the name it is registered under */
    size_t size;                               /* bytes of the struct it fills */
    int (*read)(ctg_reader *rd, void *out);
} ctg_handler;

/* The largest struct an array item handler may fill, and the most alignment it may need. */
#define CTG_ITEM_MAX_SIZE 256
#define CTG_ITEM_ALIGN 8

/* Defines handler `var` (`storage`: static or nothing) named `name`, reading items of type
 * `type` with `read`; the compiler checks that such an item fits the array reader's buffer
 * and the alignment of the arrays it makes. */
#define CTG_HANDLER_DEFINE(storage, var, name, type, read)                                  \
    _Static_assert(sizeof(type) <= CTG_ITEM_MAX_SIZE, #type " fits CTG_ITEM_MAX_SIZE");      \
    _Static_assert(_Alignof(type) <= CTG_ITEM_ALIGN, #type " needs at most CTG_ITEM_ALIGN"); \
    storage const ctg_handler var = { name, sizeof(type), read }

/* One level of the JSON path being read: a key or an array index. */
typedef struct ctg_path_frame {
    const char *key;  /* objects: the member being read, NULL before the first */
    size_t key_len;
    size_t index;     /* arrays: the item being read */
    bool is_array;
} ctg_path_frame;

/* Handlers a read remembers after resolving them (format/registry.h checks it is enough). */
#define CTG_HANDLER_SLOTS 8

struct ctg_reader {
    ctg_lexer lex;
    ctg_token tok;                 /* the current token */
    ctg_error *err;
    ctg_arena *arena;
    unsigned flags;
    const ctg_handler *cache[CTG_HANDLER_SLOTS];
    size_t resolves;               /* handler look-ups made by this read */
    size_t contingencies;          /* contingencies read */
    bool failed;                   /* an error with a path was reported (not the lexer's) */
    /* An in-situ read (ctg_list_read_in_situ): the lexer's memory-mode input, writable, where
     * ctg_read_string leaves its strings; NULL: they are copied into the arena. */
    char *in_place;
    /* The shared array reader stacks finished items here until their array closes. */
    unsigned char *stack;
    size_t stack_len;
    size_t stack_cap;
    /* Bytes of the stack's block below `stack`, which ctg_reader_reserve may start on a
     * huge-page boundary inside it. */
    size_t stack_skip;
    /* The stack is the scratch of the arena's first big chunk (ctg_reader_reserve): the arena
     * owns it, so it grows by a copy into a block of its own and is never released. */
    bool stack_borrowed;
    /* The live JSON path, for error messages. */
    ctg_path_frame *frames;
    size_t frame_count;
    size_t frame_cap;
};

/* Prepares `rd` over `src`; `err` must be non-NULL. Returns CTG_OK or CTG_ENOMEM. */
CTG_INTERNAL int ctg_reader_init(ctg_reader *rd, const ctg_lex_source *src, const ctg_read_options *opts,
                    ctg_arena *arena, ctg_error *err);
/* Sizes the item stack for an input of about `input_size` bytes, so that the contingency array
 * does not grow (and get copied) a dozen times. Only a hint: failure is not an error. */
CTG_INTERNAL void ctg_reader_reserve(ctg_reader *rd, size_t input_size);
/* Releases the reader's own buffers (not the arena). Accepts a zeroed reader. */
CTG_INTERNAL void ctg_reader_dispose(ctg_reader *rd);

/* Moves to the next token. */
static inline int ctg_reader_next(ctg_reader *rd)
{
    return ctg_lexer_next(&rd->lex, &rd->tok, rd->err);
}

/* The current token's position. */
static inline ctg_mark ctg_reader_mark(const ctg_reader *rd)
{
    ctg_mark m = { rd->tok.offset, rd->tok.line_start, rd->tok.line };
    return m;
}

/* Fails with `code` at the current token and the current path; formats `fmt` only now. */
CTG_INTERNAL int ctg_reader_fail(ctg_reader *rd, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* As ctg_reader_fail, at `mark`, with `key` appended to the current path (NULL: none). */
CTG_INTERNAL int ctg_reader_fail_at(ctg_reader *rd, const ctg_mark *mark, const char *key, int code,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* As ctg_reader_fail_at, with the path `path` (a JSON Pointer kept from earlier in the read,
 * ctg_reader_path's output) in place of the current one: an error found after the fact. */
CTG_INTERNAL int ctg_reader_fail_path(ctg_reader *rd, const ctg_mark *mark, const char *path, int code,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Fails with CTG_ESCHEMA: "expected <what> for "<key>", got <current token>". */
CTG_INTERNAL int ctg_reader_type_error(ctg_reader *rd, const char *what);
/* Writes the current path as a JSON Pointer into `buf` (CTG_ERROR_PATH_MAX bytes). */
CTG_INTERNAL void ctg_reader_path(const ctg_reader *rd, char *buf);
/* Fails with CTG_ENOMEM. */
CTG_INTERNAL int ctg_reader_nomem(ctg_reader *rd);

/* The object field loop: with rd->tok on '{', reads every member. Unknown and duplicate keys
 * are rejected (a duplicate names both positions); for each known key it moves to the value,
 * keeps the path, and calls field(rd, index into names, ctx). `seen` (may be NULL) receives a
 * bit per key present. A caller that needs the '{' position takes ctg_reader_mark first. */
typedef int (*ctg_field_fn)(ctg_reader *rd, unsigned index, void *ctx);
typedef struct ctg_object_def {
    const ctg_key *keys;         /* in the order PowSyBl writes them: tried in that order first */
    unsigned count;              /* at most 32 */
    ctg_field_fn field;
} ctg_object_def;
CTG_INTERNAL int ctg_read_object(ctg_reader *rd, const ctg_object_def *def, void *ctx, unsigned *seen);

/* Fails with CTG_ESCHEMA "missing required field" for `key` of the object that began at
 * `start` (path: current path + key). */
CTG_INTERNAL int ctg_reader_missing(ctg_reader *rd, const ctg_mark *start, const char *key);

/* The shared array reader: with rd->tok on '[', reads every item with `h` and returns them
 * as one contiguous, arena-owned array (NULL when empty). */
CTG_INTERNAL int ctg_read_array(ctg_reader *rd, const ctg_handler *h, void **items, size_t *count);

/* Where the items of an array go instead of being kept: each finished item (in a scratch
 * buffer, valid for the call) is handed to `each`. With `arena` (may be NULL), every item is
 * read into that arena instead of rd->arena, and the arena is reset after the item has been
 * handed over: constant memory for streaming. */
typedef int (*ctg_item_fn)(ctg_reader *rd, void *item, void *ctx);
typedef struct ctg_item_sink {
    ctg_item_fn each;
    void *ctx;
    ctg_arena *arena;
} ctg_item_sink;

/* The same array reader, handing the items to `sink`; rd->arena is rd->arena again on return,
 * whatever happened. */
CTG_INTERNAL int ctg_read_array_to(ctg_reader *rd, const ctg_handler *h, const ctg_item_sink *sink,
                      size_t *count);

/* Copies the current string token into the arena, or in an in-situ read leaves it in the
 * input (rd->in_place). `key` names the field for errors; U+0000 inside the string is
 * rejected. */
CTG_INTERNAL int ctg_read_string(ctg_reader *rd, const char **out, const char *key);
/* As ctg_read_string, but null gives NULL. */
CTG_INTERNAL int ctg_read_opt_string(ctg_reader *rd, const char **out, const char *key);

/* Path bookkeeping used by the object loop and the array reader. */
CTG_INTERNAL int ctg_reader_grow_frames(ctg_reader *rd);
static inline int ctg_reader_push_frame(ctg_reader *rd)
{
    ctg_path_frame *f;

    if (rd->frame_count == rd->frame_cap) {
        int rc = ctg_reader_grow_frames(rd);
        if (rc != 0)
            return rc;
    }
    f = &rd->frames[rd->frame_count++];
    f->key = NULL;
    f->key_len = 0;
    f->index = 0;
    f->is_array = false;
    return 0;
}
static inline void ctg_reader_pop_frame(ctg_reader *rd)
{
    rd->frame_count--;
}
static inline ctg_path_frame *ctg_reader_top_frame(ctg_reader *rd)
{
    return &rd->frames[rd->frame_count - 1];
}

#endif
