/* SPDX-License-Identifier: MPL-2.0 */
/* The reading context and the helpers every handler shares. */

#include "json/reader.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "base/pages.h"
#include "json/lexer.h"
#include "json/lexer_fast.h"

/* Array items are plain structs of pointers and sizes, at most this aligned (checked for
 * each handler by CTG_HANDLER_DEFINE); arrays of them are word-copied when their size allows. */
#define ITEM_ALIGN CTG_ITEM_ALIGN
/* An outermost array at least this large is handed to the arena as it is, without a copy. */
#define ADOPT_MIN_BYTES 4096
#define INITIAL_FRAMES 16
/* The largest stack reserved up front; beyond it the stack doubles as it fills. */
#define RESERVE_MAX ((size_t)256 * 1024 * 1024)

int ctg_reader_init(ctg_reader *rd, const ctg_lex_source *src, const ctg_read_options *opts,
                    ctg_arena *arena, ctg_error *err)
{
    ctg_lex_limits lim = { opts->max_depth, opts->max_string_len, opts->max_document_size };

    memset(rd, 0, sizeof(*rd));
    rd->err = err;
    rd->arena = arena;
    rd->flags = opts->flags;
    if (ctg_lexer_init(&rd->lex, src, &lim, ctg_arena_allocator(arena)) != CTG_OK)
        return CTG_ENOMEM;
    rd->frames = ctg_mem_alloc(ctg_arena_allocator(arena), INITIAL_FRAMES * sizeof(*rd->frames));
    if (!rd->frames)
        return CTG_ENOMEM;
    rd->frame_cap = INITIAL_FRAMES;
    return CTG_OK;
}

/* The block the stack lies in, as the allocator gave it (NULL when there is none). */
static unsigned char *stack_block(const ctg_reader *rd)
{
    return rd->stack ? rd->stack - rd->stack_skip : NULL;
}

/* A fresh stack of at least `want` bytes starting on a huge-page boundary, inside a block with
 * a huge page of slack (never touched below the boundary): it then maps 2 MiB at a time from its
 * first item on. false, nothing done, without huge pages, when too small to gain, or on ENOMEM. */
static bool reserve_huge(ctg_reader *rd, size_t want)
{
    size_t huge = ctg_pages_huge_size(), total;
    unsigned char *p;
    uintptr_t at;

    if (huge == 0 || want < CTG_PAGES_HUGE_FROM || rd->stack != NULL
        || !ctg_mem_is_libc(ctg_arena_allocator(rd->arena)))
        return false;
    want = (size_t)ctg_align_up(want, huge); /* want <= RESERVE_MAX: no overflow */
    total = want + huge;
    p = ctg_mem_alloc(ctg_arena_allocator(rd->arena), total);
    if (!p)
        return false;
    at = ctg_align_up((uintptr_t)p, huge);
    rd->stack_skip = at - (uintptr_t)p;
    rd->stack = p + rd->stack_skip;
    rd->stack_cap = total - rd->stack_skip;
    ctg_pages_huge_whole(rd->stack, rd->stack + want);
    return true;
}

void ctg_reader_reserve(ctg_reader *rd, size_t input_size)
{
    /* A contingency takes 48 bytes and at least ~60 bytes of PowSyBl's layout; pages of the
     * reservation that are never touched cost nothing. A list's arena takes about half the
     * input too. */
    size_t want = input_size / 2, stack = want < RESERVE_MAX ? want : RESERVE_MAX;
    void *p;

    /* Both in one chunk of huge pages when they fit: a huge page is zeroed whole when it
     * first maps, so the fewer a read starts, the less it pays for pages it half fills. */
    if (rd->stack == NULL && stack >= CTG_PAGES_HUGE_FROM
        && (p = ctg_arena_expect_scratch(rd->arena, want, stack)) != NULL) {
        rd->stack = p;
        rd->stack_cap = stack;
        rd->stack_borrowed = true;
        return;
    }
    ctg_arena_expect(rd->arena, want);
    if (stack <= rd->stack_cap || stack < ADOPT_MIN_BYTES || reserve_huge(rd, stack))
        return;
    p = ctg_mem_resize(ctg_arena_allocator(rd->arena), stack_block(rd),
                       rd->stack_skip + rd->stack_cap, rd->stack_skip + stack);
    if (p) {
        rd->stack = (unsigned char *)p + rd->stack_skip;
        rd->stack_cap = stack;
        /* Filled from its start as items come: huge pages fault in 512 times fewer. */
        ctg_pages_huge(rd->stack, rd->stack + stack);
    }
}

void ctg_reader_dispose(ctg_reader *rd)
{
    const ctg_allocator *a = rd->arena ? ctg_arena_allocator(rd->arena) : NULL;

    ctg_lexer_dispose(&rd->lex);
    if (!rd->stack_borrowed)
        ctg_mem_release(a, stack_block(rd), rd->stack_skip + rd->stack_cap);
    ctg_mem_release(a, rd->frames, rd->frame_cap * sizeof(*rd->frames));
    rd->stack = NULL;
    rd->frames = NULL;
}

/* ---- errors ---------------------------------------------------------------------------- */

void ctg_reader_path(const ctg_reader *rd, char *buf)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < rd->frame_count; i++) {
        const ctg_path_frame *f = &rd->frames[i];
        char num[24];

        if (f->is_array) {
            int n = snprintf(num, sizeof(num), "%zu", f->index);
            len = ctg_error_path_append(buf, len, num, (size_t)n);
        } else if (f->key) {
            len = ctg_error_path_append(buf, len, f->key, f->key_len);
        }
    }
}

static void fill_error_path(ctg_reader *rd, const ctg_mark *m, const char *path, int code,
                            const char *fmt, va_list ap)
{
    ctg_error_place at = { m->offset, m->line, ctg_column(m->offset, m->line_start) };

    ctg_error_vset(rd->err, code, &at, path, fmt, ap);
    rd->failed = true;
}

static void fill_error(ctg_reader *rd, const ctg_mark *m, const char *key, int code,
                       const char *fmt, va_list ap)
{
    char path[CTG_ERROR_PATH_MAX];

    ctg_reader_path(rd, path);
    if (key)
        ctg_error_path_append(path, strlen(path), key, strlen(key));
    fill_error_path(rd, m, path, code, fmt, ap);
}

int ctg_reader_fail(ctg_reader *rd, int code, const char *fmt, ...)
{
    ctg_mark m = ctg_reader_mark(rd);
    va_list ap;

    va_start(ap, fmt);
    fill_error(rd, &m, NULL, code, fmt, ap);
    va_end(ap);
    return code;
}

int ctg_reader_fail_at(ctg_reader *rd, const ctg_mark *mark, const char *key, int code,
                       const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fill_error(rd, mark, key, code, fmt, ap);
    va_end(ap);
    return code;
}

int ctg_reader_fail_path(ctg_reader *rd, const ctg_mark *mark, const char *path, int code,
                         const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fill_error_path(rd, mark, path, code, fmt, ap);
    va_end(ap);
    return code;
}

int ctg_reader_nomem(ctg_reader *rd)
{
    return ctg_reader_fail(rd, CTG_ENOMEM, "out of memory");
}

static const char *token_kind(ctg_tok t)
{
    switch (t) {
    case CTG_TOK_OBJECT_BEGIN: return "object";
    case CTG_TOK_ARRAY_BEGIN: return "array";
    case CTG_TOK_STRING: return "string";
    case CTG_TOK_NUMBER: return "number";
    case CTG_TOK_TRUE:
    case CTG_TOK_FALSE: return "boolean";
    case CTG_TOK_NULL: return "null";
    default: return "end of input";
    }
}

int ctg_reader_type_error(ctg_reader *rd, const char *what)
{
    const ctg_path_frame *f = rd->frame_count ? ctg_reader_top_frame(rd) : NULL;

    if (f && !f->is_array && f->key)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "expected %s for \"%.*s\", got %s", what,
                               (int)f->key_len, f->key, token_kind(rd->tok.type));
    return ctg_reader_fail(rd, CTG_ESCHEMA, "expected %s, got %s", what,
                           token_kind(rd->tok.type));
}

int ctg_reader_missing(ctg_reader *rd, const ctg_mark *start, const char *key)
{
    return ctg_reader_fail_at(rd, start, key, CTG_ESCHEMA, "missing required field \"%s\"", key);
}

/* ---- path frames ----------------------------------------------------------------------- */

int ctg_reader_grow_frames(ctg_reader *rd)
{
    const ctg_allocator *a = ctg_arena_allocator(rd->arena);
    size_t cap, bytes;
    void *p;

    if (!ctg_grow_capacity(rd->frame_cap, rd->frame_count + 1, INITIAL_FRAMES,
                           SIZE_MAX / sizeof(*rd->frames), &cap)
        || !ctg_size_mul(cap, sizeof(*rd->frames), &bytes))
        return ctg_reader_nomem(rd);
    p = ctg_mem_resize(a, rd->frames, rd->frame_cap * sizeof(*rd->frames), bytes);
    if (!p)
        return ctg_reader_nomem(rd);
    rd->frames = p;
    rd->frame_cap = cap;
    return CTG_OK;
}

/* ---- strings --------------------------------------------------------------------------- */

/* The current string, decoded, over its own raw text in the input: a decoded string is never
 * longer than its text (an escape of 2, 6 or 12 bytes gives at most 1, 3 or 4), so it and its
 * NUL end at the closing quote at the latest, a byte the lexer has gone past. Only that text
 * is written: a key before it and whatever follows are left for the lexer as they were. */
static char *string_in_place(ctg_reader *rd)
{
    char *s = rd->in_place + rd->tok.offset + 1; /* memory mode: offsets index the input */

    if (rd->tok.str != s) /* it had escapes: decoded in the lexer's scratch */
        memcpy(s, rd->tok.str, rd->tok.len);
    s[rd->tok.len] = '\0';
    return s;
}

/* ctg_read_string but for a plain string with room in the current chunk: errors, in-situ
 * strings and a new chunk. Kept out of line, so that the common case saves no registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int read_string_slow(ctg_reader *rd, const char **out, const char *key)
{
    char *s;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (rd->tok.has_nul)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "\"%s\" must not contain U+0000", key);
    if (rd->in_place) {
        *out = string_in_place(rd);
        return CTG_OK;
    }
    s = ctg_arena_strndup(rd->arena, rd->tok.str, rd->tok.len);
    if (!s)
        return ctg_reader_nomem(rd);
    *out = s;
    return CTG_OK;
}

int ctg_read_string(ctg_reader *rd, const char **out, const char *key)
{
    ctg_arena_bump *b = (ctg_arena_bump *)rd->arena;
    size_t len = rd->tok.len;
    char *p = b->cur;

    /* ctg_arena_strndup_fast, for a string the reader may copy as it is. */
    if (rd->tok.type != CTG_TOK_STRING || rd->tok.has_nul || rd->in_place
        || (size_t)(b->end - p) <= len)
        return read_string_slow(rd, out, key);
    CTG_ARENA_UNPOISON(p, len + 1);
    ctg_copy_short(p, rd->tok.str, len);
    p[len] = '\0';
    b->cur = p + len + 1;
    *out = p;
    return CTG_OK;
}

int ctg_read_opt_string(ctg_reader *rd, const char **out, const char *key)
{
    if (rd->tok.type == CTG_TOK_NULL) {
        *out = NULL;
        return CTG_OK;
    }
    return ctg_read_string(rd, out, key);
}

/* ---- objects --------------------------------------------------------------------------- */

/* The key after key `i`, wrapping around: what `next` holds, always a valid index. */
static inline unsigned key_after(const ctg_object_def *def, unsigned i)
{
    return i + 1 < def->count ? i + 1 : 0;
}

/* Keys usually come in the order PowSyBl writes them, so `*next` (the key after the last
 * one matched) is tried first: one comparison per member in the common case. */
static int match_key(const ctg_object_def *def, const ctg_token *tok, unsigned *next)
{
    unsigned i = *next;

    for (unsigned n = 0; n < def->count; n++, i = key_after(def, i)) {
        const ctg_key *k = &def->keys[i];
        if (k->len == tok->len && ctg_short_eq(k->name, tok->str, tok->len)) {
            *next = key_after(def, i);
            return (int)i;
        }
    }
    return -1;
}

static int unknown_key(ctg_reader *rd, ctg_path_frame *f, const ctg_token *key)
{
    rd->tok = *key;
    f->key = key->str;
    f->key_len = key->len;
    return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown field \"%.*s\"", (int)key->len, key->str);
}

static int duplicate_key(ctg_reader *rd, ctg_path_frame *f, const ctg_token *key,
                         const ctg_mark *first)
{
    unsigned col = ctg_column(first->offset, first->line_start);

    rd->tok = *key;
    return ctg_reader_fail(rd, CTG_ESCHEMA, "duplicate key \"%.*s\" (first at line %u, column %u)",
                           (int)f->key_len, f->key, first->line, col);
}

/* The next member, with the key PowSyBl writes next (`next`, a valid index when there are
 * keys) as the lexer's hint, and its value's first token with it where the lexer can take it
 * (an opening bracket too: every value this loop is given is read by a field). */
static inline int next_member(ctg_reader *rd, const ctg_object_def *def, unsigned next,
                              ctg_lex_member *m)
{
    if (def->count == 0)
        return ctg_lexer_member(&rd->lex, NULL, 0, m, &rd->tok, rd->err);
    return ctg_lexer_member_inline(&rd->lex, def->keys[next].name, def->keys[next].len, NULL,
                                   true, m, &rd->tok, rd->err);
}

/* The index of the member's key: the hint's when the lexer matched it, else looked up. */
static inline int key_index(const ctg_object_def *def, bool hinted, const ctg_token *key,
                            unsigned *next)
{
    unsigned hint = *next;

    if (!hinted)
        return match_key(def, key, next);
    *next = key_after(def, hint);
    return (int)hint;
}

int ctg_read_object(ctg_reader *rd, const ctg_object_def *def, void *ctx, unsigned *seen_out)
{
    ctg_mark marks[32];
    ctg_lex_member m;
    unsigned seen = 0, next = 0;
    ctg_path_frame *f;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    /* Ends with CTG_LEX_OTHER and rd->tok on the closing brace, or with an error. */
    while ((rc = next_member(rd, def, next, &m)) == CTG_LEX_KEY) {
        int i = key_index(def, m.hinted, &m.key, &next);
        f = ctg_reader_top_frame(rd);
        if (i < 0)
            return unknown_key(rd, f, &m.key);
        f->key = def->keys[i].name;
        f->key_len = def->keys[i].len;
        if (seen & (1u << i))
            return duplicate_key(rd, f, &m.key, &marks[i]);
        seen |= 1u << i;
        marks[i] = (ctg_mark){ m.key.offset, m.key.line_start, m.key.line };
        if (!m.value_ready && (rc = ctg_reader_next(rd)) != CTG_OK)
            return rc;
        if ((rc = def->field(rd, (unsigned)i, ctx)) != CTG_OK)
            return rc;
        /* Between members the path is the object's (the frames may have moved). */
        ctg_reader_top_frame(rd)->key = NULL;
    }
    if (rc != CTG_LEX_OTHER)
        return rc;
    ctg_reader_pop_frame(rd);
    if (seen_out)
        *seen_out = seen;
    return CTG_OK;
}

/* ---- arrays ---------------------------------------------------------------------------- */

/* Room for `size` more bytes on the stack; a borrowed stack moves to a block of its own. */
static int grow_stack(ctg_reader *rd, size_t size)
{
    const ctg_allocator *a = ctg_arena_allocator(rd->arena);
    size_t need, cap, skip = rd->stack_skip;
    unsigned char *p;

    if (!ctg_size_add(rd->stack_len, size, &need)
        || !ctg_grow_capacity(rd->stack_cap, need, 1024, SIZE_MAX - skip, &cap))
        return ctg_reader_nomem(rd);
    if (rd->stack_borrowed) {
        if ((p = ctg_mem_alloc(a, cap)) != NULL)
            memcpy(p, rd->stack, rd->stack_len);
        skip = rd->stack_skip = 0;
    } else {
        p = ctg_mem_resize(a, stack_block(rd), skip + rd->stack_cap, skip + cap);
    }
    if (!p)
        return ctg_reader_nomem(rd);
    rd->stack_borrowed = false;
    rd->stack = p + skip;
    rd->stack_cap = cap;
    return CTG_OK;
}

static int stack_push(ctg_reader *rd, const void *item, size_t size)
{
    unsigned char *to;
    int rc;

    if (rd->stack_cap - rd->stack_len < size && (rc = grow_stack(rd, size)) != CTG_OK)
        return rc;
    to = rd->stack + rd->stack_len;
    /* Nearly every push is a contingency or an element: copies of a constant size are a few
     * moves, where a call to memcpy costs more than the copy. */
    if (size == sizeof(ctg_contingency))
        memcpy(to, item, sizeof(ctg_contingency));
    else if (size == sizeof(ctg_element))
        memcpy(to, item, sizeof(ctg_element));
    else
        memcpy(to, item, size);
    rd->stack_len += size;
    return CTG_OK;
}

/* Hands the whole stack block to the arena: the outermost array is usually the big one
 * (the contingencies), and copying it would double its peak memory. */
static int adopt_stack(ctg_reader *rd, size_t bytes, void **items)
{
    const ctg_allocator *a = ctg_arena_allocator(rd->arena);
    unsigned char *block = stack_block(rd);
    size_t skip = rd->stack_skip, size = skip + rd->stack_cap;
    void *shrunk;

    if (rd->stack_borrowed) { /* in the arena already */
        *items = rd->stack;
        rd->stack = NULL;
        rd->stack_cap = rd->stack_len = 0;
        rd->stack_borrowed = false;
        return CTG_OK;
    }
    shrunk = ctg_mem_resize(a, block, size, skip + bytes);
    if (shrunk) {
        block = shrunk;
        size = skip + bytes;
    }
    rd->stack = NULL;
    rd->stack_cap = rd->stack_len = rd->stack_skip = 0;
    if (ctg_arena_adopt(rd->arena, block, size) != CTG_OK)
        return ctg_reader_nomem(rd);
    *items = block + skip;
    return CTG_OK;
}

static int finish_array(ctg_reader *rd, size_t base, size_t count, void **items)
{
    size_t bytes = rd->stack_len - base;
    void *p;

    *items = NULL;
    if (count == 0)
        return CTG_OK;
    if (base == 0 && bytes >= ADOPT_MIN_BYTES)
        return adopt_stack(rd, bytes, items);
    p = ctg_arena_alloc_fast(rd->arena, bytes, ITEM_ALIGN);
    if (!p)
        return ctg_reader_nomem(rd);
    /* Element arrays are a few items: word moves beat a call to memcpy. Only whole words: an
     * item may be smaller than one or not a multiple of one (a pointer, a 12-byte element on
     * 32-bit targets), and the block is exactly `bytes`. */
    if (bytes <= 128 && bytes % ITEM_ALIGN == 0) {
        for (size_t i = 0; i < bytes; i += ITEM_ALIGN)
            memcpy((char *)p + i, rd->stack + base + i, ITEM_ALIGN);
    } else {
        memcpy(p, rd->stack + base, bytes);
    }
    rd->stack_len = base;
    *items = p;
    return CTG_OK;
}

/* The one loop over array items: each finished item goes to the sink, or onto the stack. */
static int read_items(ctg_reader *rd, const ctg_handler *h, const ctg_item_sink *sink,
                      size_t *count)
{
    _Alignas(16) unsigned char item[CTG_ITEM_MAX_SIZE];
    size_t n = 0;
    int rc;

    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    ctg_reader_top_frame(rd)->is_array = true;
    while ((rc = ctg_lexer_item_inline(&rd->lex, &rd->tok, rd->err)) == CTG_OK
           && rd->tok.type != CTG_TOK_ARRAY_END) {
        ctg_reader_top_frame(rd)->index = n;
        if ((rc = h->read(rd, item)) != CTG_OK)
            return rc;
        rc = sink ? sink->each(rd, item, sink->ctx) : stack_push(rd, item, h->size);
        if (sink && sink->arena)
            ctg_arena_reset(sink->arena); /* the next item reuses its memory */
        if (rc != CTG_OK)
            return rc;
        n++;
    }
    if (rc != CTG_OK)
        return rc;
    ctg_reader_pop_frame(rd);
    *count = n;
    return CTG_OK;
}

int ctg_read_array(ctg_reader *rd, const ctg_handler *h, void **items, size_t *count)
{
    size_t base = rd->stack_len;
    int rc = read_items(rd, h, NULL, count);

    return rc != CTG_OK ? rc : finish_array(rd, base, *count, items);
}

int ctg_read_array_to(ctg_reader *rd, const ctg_handler *h, const ctg_item_sink *sink,
                      size_t *count)
{
    ctg_arena *keep = rd->arena;
    int rc;

    /* The items' strings and arrays go to the sink's arena. */
    if (sink->arena)
        rd->arena = sink->arena;
    rc = read_items(rd, h, sink, count);
    rd->arena = keep;
    return rc;
}
