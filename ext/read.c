/* SPDX-License-Identifier: MPL-2.0 */
/* A contingency's "extensions" object (spec 8). Nothing in it is lost: a value no typed handler
 * claims is kept as compact JSON text in the list's arena, rebuilt from the tokens while the
 * reader moves past it (so it is at most about its size in the input, and freeing it is freeing
 * the arena). A typed handler gets the value as a json-c tree built from that text, with every
 * json-c call checked. With CTG_READ_SKIP_EXTENSION_VALUES the value is checked and not kept,
 * so a stream read stays in constant memory whatever an extension holds. Nothing here recurses
 * on the depth of the input. */

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "ext/ext.h"
#include "json/keyset.h"

/* ---- the text of one value -------------------------------------------------------------- */

#define OPEN_SMALL 16

typedef struct capture {
    const ctg_allocator *alloc;
    bool store;      /* keep the text; false: only check the value */
    char *data;
    size_t len;
    size_t cap;
    /* Keys of the objects open on the way to the current token: json-c would keep the last of
     * two silently, we refuse. An object's keys go when it closes. */
    ctg_keyset keys;
    size_t *open;    /* per depth: how many keys the set held when that object opened */
    size_t open_cap;
    char small[256]; /* most values are a few dozen bytes: no allocation */
    size_t small_open[OPEN_SMALL];
} capture;

static void capture_init(capture *c, const ctg_allocator *a, bool store)
{
    c->alloc = a;
    c->store = store;
    c->data = c->small;
    c->cap = sizeof c->small;
    c->len = 0;
    ctg_keyset_init(&c->keys, a);
    c->open = c->small_open;
    c->open_cap = OPEN_SMALL;
}

static void capture_dispose(capture *c)
{
    if (c->data != c->small)
        ctg_mem_release(c->alloc, c->data, c->cap);
    ctg_keyset_dispose(&c->keys);
    if (c->open != c->small_open)
        ctg_mem_release(c->alloc, c->open, c->open_cap * sizeof *c->open);
}

/* Room for `n` more bytes; false when out of memory. */
static bool capture_room(capture *c, size_t n)
{
    return ctg_bytes_room(c->alloc, &c->data, &c->cap, c->len, n, c->small);
}

static bool put(capture *c, const char *s, size_t n)
{
    if (!c->store)
        return true;
    if (!capture_room(c, n))
        return false;
    memcpy(c->data + c->len, s, n);
    c->len += n;
    return true;
}

/* The escape of byte `ch` in the kept text, or 0 when it needs none. The short forms keep the
 * text no longer than the input's, which had to escape these bytes too. */
static char short_escape(unsigned char ch)
{
    switch (ch) {
    case '"': return '"';
    case '\\': return '\\';
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    default: return 0;
    }
}

/* The quoted string, with '"', '\\' and control characters escaped; the rest is UTF-8 the lexer
 * has checked. */
static bool put_string(capture *c, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t worst;
    char *p;

    if (!c->store)
        return true;
    if (!ctg_size_mul(n, 6, &worst) || !ctg_size_add(worst, 2, &worst) || !capture_room(c, worst))
        return false;
    p = c->data + c->len;
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        char esc = short_escape(ch);
        if (esc != 0) {
            *p++ = '\\';
            *p++ = esc;
        } else if (ch < 0x20) {
            memcpy(p, "\\u00", 4);
            p[4] = hex[ch >> 4];
            p[5] = hex[ch & 15];
            p += 6;
        } else {
            *p++ = (char)ch;
        }
    }
    *p++ = '"';
    c->len = (size_t)(p - c->data);
    return true;
}

/* A value or a key after a complete value needs a comma first. */
static bool put_separator(capture *c)
{
    char last = c->len ? c->data[c->len - 1] : '[';

    return !c->store || last == '{' || last == '[' || last == ':' || put(c, ",", 1);
}

/* Kept as it is, an integer beyond int64 would be clamped by json-c (and so by any handler):
 * refuse it rather than change it. */
static int check_integer(ctg_reader *rd)
{
    int64_t v;

    if (!rd->tok.is_integer || ctg_parse_int64(rd->tok.raw, rd->tok.raw_len, &v))
        return CTG_OK;
    return ctg_reader_fail(rd, CTG_ESCHEMA, "integer %.*s in an extension is outside the 64-bit "
                           "range", (int)(rd->tok.raw_len < 40 ? rd->tok.raw_len : 40),
                           rd->tok.raw);
}

/* ---- duplicate keys inside a value ------------------------------------------------------ */

/* An object opens at `depth`: its keys start after those already in the set. */
static bool open_object(capture *c, size_t depth)
{
    if (depth >= c->open_cap) {
        size_t cap;
        size_t *p;

        if (!ctg_grow_capacity(c->open_cap, depth + 1, 2 * OPEN_SMALL, SIZE_MAX / sizeof *p, &cap))
            return false;
        if ((p = ctg_mem_alloc(c->alloc, cap * sizeof *p)) == NULL)
            return false;
        memcpy(p, c->open, c->open_cap * sizeof *p);
        if (c->open != c->small_open)
            ctg_mem_release(c->alloc, c->open, c->open_cap * sizeof *c->open);
        c->open = p;
        c->open_cap = cap;
    }
    c->open[depth] = c->keys.count;
    return true;
}

/* The key in rd->tok, of the object open at `depth` (the only one open there, so the depth
 * names it); a second one of the same object fails, naming both places. */
static int add_key(ctg_reader *rd, capture *c, size_t depth)
{
    const ctg_token *t = &rd->tok;
    const ctg_keyset_entry *first;
    ctg_mark here = ctg_reader_mark(rd);
    int rc = ctg_keyset_add(&c->keys, (uint32_t)depth, t->str, t->len, &here, &first);

    if (rc != 1)
        return rc;
    return ctg_reader_fail(rd, CTG_ESCHEMA, "duplicate key \"%.*s\" (first at line %u, column %u)",
                           (int)(t->len < 64 ? t->len : 64), t->str, first->mark.line,
                           ctg_column(first->mark.offset, first->mark.line_start));
}

/* ---- the tokens ------------------------------------------------------------------------- */

static bool put_scalar(capture *c, const ctg_token *t)
{
    switch (t->type) {
    case CTG_TOK_STRING: return put_string(c, t->str, t->len);
    case CTG_TOK_NUMBER: return put(c, t->raw, t->raw_len); /* the exact text */
    case CTG_TOK_TRUE: return put(c, "true", 4);
    case CTG_TOK_FALSE: return put(c, "false", 5);
    default: return put(c, "null", 4);
    }
}

/* Appends the current token; *depth follows the nesting. */
static int put_token(ctg_reader *rd, capture *c, size_t *depth)
{
    const ctg_token *t = &rd->tok;
    int rc;

    if (t->type == CTG_TOK_OBJECT_END || t->type == CTG_TOK_ARRAY_END) {
        if (t->type == CTG_TOK_OBJECT_END)
            ctg_keyset_truncate(&c->keys, c->open[*depth]);
        (*depth)--;
        return put(c, t->type == CTG_TOK_OBJECT_END ? "}" : "]", 1) ? CTG_OK : CTG_ENOMEM;
    }
    if (t->type == CTG_TOK_NUMBER && (rc = check_integer(rd)) != CTG_OK)
        return rc;
    if (!put_separator(c))
        return CTG_ENOMEM;
    if (t->type == CTG_TOK_OBJECT_BEGIN || t->type == CTG_TOK_ARRAY_BEGIN) {
        ++*depth;
        if (t->type == CTG_TOK_OBJECT_BEGIN && !open_object(c, *depth))
            return CTG_ENOMEM;
        return put(c, t->type == CTG_TOK_OBJECT_BEGIN ? "{" : "[", 1) ? CTG_OK : CTG_ENOMEM;
    }
    if (t->type == CTG_TOK_KEY) {
        if ((rc = add_key(rd, c, *depth)) != CTG_OK)
            return rc;
        return put_string(c, t->str, t->len) && put(c, ":", 1) ? CTG_OK : CTG_ENOMEM;
    }
    return put_scalar(c, t) ? CTG_OK : CTG_ENOMEM;
}

/* With rd->tok on a value's first token, rebuilds (or only checks) the value's text, leaving
 * rd->tok on its last token. Iterative: the lexer's depth limit bounds the nesting. */
static int capture_value(ctg_reader *rd, capture *c)
{
    size_t depth = 0;
    int rc;

    c->len = 0;
    ctg_keyset_truncate(&c->keys, 0);
    for (;;) {
        rc = put_token(rd, c, &depth);
        if (rc == CTG_ENOMEM)
            return ctg_reader_nomem(rd);
        if (rc != CTG_OK || depth == 0)
            return rc;
        if ((rc = ctg_reader_next(rd)) != CTG_OK)
            return rc;
    }
}

/* ---- handlers --------------------------------------------------------------------------- */

/* The typed handler for `name`: looked up in the application's registry once per read, then
 * found among the ones already resolved. Names no handler knows cost a look-up each time, and
 * none at all without a registry. */
static const ctg_extension_handler *resolve(ctg_reader *rd, ctg_ext_resolver *ext,
                                            const char *name, size_t len)
{
    const ctg_extension_handler *h;
    bool cached = !(rd->flags & CTG_READ_NO_CACHE);
    size_t i = 0;

    if (ext->registry == NULL)
        return NULL;
    for (; cached && i < CTG_EXT_CACHE_SIZE && ext->cache[i] != NULL; i++) {
        h = ext->cache[i];
        if (strncmp(h->name, name, len) == 0 && h->name[len] == '\0')
            return h;
    }
    rd->resolves++;
    h = ctg_extension_lookup(ext->registry, name, len);
    if (h != NULL && cached && i < CTG_EXT_CACHE_SIZE)
        ext->cache[i] = h;
    return h;
}

static int handler_failed(ctg_reader *rd, const ctg_mark *at, const ctg_extension_ctx *ctx,
                          int rc)
{
    if (rc > 0 || rc < CTG_ESTOPPED)
        rc = CTG_ESCHEMA;
    if (ctx->has_message)
        return ctg_reader_fail_at(rd, at, NULL, rc, "%s", ctx->message);
    if (rc == CTG_ENOMEM)
        return ctg_reader_fail_at(rd, at, NULL, rc, "out of memory");
    return ctg_reader_fail_at(rd, at, NULL, rc, "extension \"%s\" refused its value", ctx->name);
}

/* Gives the captured value to the typed handler `h`, as a json-c tree released here. */
static int read_typed(ctg_reader *rd, const ctg_mark *at, const ctg_extension_handler *h,
                      const capture *c, ctg_extension *ext)
{
    ctg_extension_ctx ctx = { rd->arena, ext->name, false, { 0 } };
    struct json_object *value = NULL;
    void *out = ctg_arena_calloc(rd->arena, 1, h->size);
    int rc;

    if (out == NULL)
        return ctg_reader_nomem(rd);
    rc = ctg_json_text_to_jsonc(c->data, c->len, ctg_arena_allocator(rd->arena), &value);
    if (rc == CTG_ENOMEM)
        return ctg_reader_nomem(rd);
    if (rc != CTG_OK)
        return ctg_reader_fail_at(rd, at, NULL, rc, "%s", ctg_json_text_why(rc));
    rc = h->read(&ctx, value, out, h->payload);
    ctg_jsonc_release(value);
    if (rc != CTG_OK)
        return handler_failed(rd, at, &ctx, rc);
    ext->value = out;
    ext->handler = h;
    return CTG_OK;
}

/* With rd->tok on the value of extension `ext` (name set), reads it into `ext`. */
static int read_value(ctg_reader *rd, ctg_ext_resolver *x, capture *c, ctg_extension *ext,
                      size_t name_len)
{
    const ctg_extension_handler *h = c->store ? resolve(rd, x, ext->name, name_len) : NULL;
    ctg_mark at = ctg_reader_mark(rd);
    char *text;
    int rc;

    if ((rc = capture_value(rd, c)) != CTG_OK)
        return rc;
    if (!c->store)
        return CTG_OK; /* checked, not kept: name only */
    if (h != NULL)
        return read_typed(rd, &at, h, c, ext);
    if ((text = ctg_arena_strndup(rd->arena, c->data, c->len)) == NULL)
        return ctg_reader_nomem(rd);
    ext->json = text;
    ext->json_len = c->len;
    return CTG_OK;
}

/* ---- the names: kept in order, duplicates found by hashing ------------------------------- */

#define NAMES_SMALL 4

/* The extensions read so far, in order, and their names in a key set. */
typedef struct name_list {
    const ctg_allocator *alloc;
    ctg_ext_resolver *resolver; /* the typed handlers of this read */
    ctg_extension *items;
    size_t count, cap;
    ctg_keyset names;
    ctg_extension small[NAMES_SMALL];
} name_list;

static void names_init(name_list *s, const ctg_allocator *a, ctg_ext_resolver *x)
{
    s->alloc = a;
    s->resolver = x;
    s->items = s->small;
    s->count = 0;
    s->cap = NAMES_SMALL;
    ctg_keyset_init(&s->names, a);
}

static void names_dispose(name_list *s)
{
    if (s->items != s->small)
        ctg_mem_release(s->alloc, s->items, s->cap * sizeof *s->items);
    ctg_keyset_dispose(&s->names);
}

static bool names_grow(name_list *s)
{
    size_t cap;
    ctg_extension *p;

    if (s->count < s->cap)
        return true;
    if (!ctg_grow_capacity(s->cap, s->count + 1, 2 * NAMES_SMALL, SIZE_MAX / sizeof *p, &cap))
        return false;
    if ((p = ctg_mem_alloc(s->alloc, cap * sizeof *p)) == NULL)
        return false;
    memcpy(p, s->items, s->count * sizeof *p);
    if (s->items != s->small)
        ctg_mem_release(s->alloc, s->items, s->cap * sizeof *s->items);
    s->items = p;
    s->cap = cap;
    return true;
}

/* ---- places ------------------------------------------------------------------------------ */

int ctg_places_reserve(ctg_places *p, size_t count)
{
    size_t cap, bytes, old = p->cap * sizeof(unsigned);
    unsigned *block;

    if (count <= p->cap)
        return CTG_OK;
    if (!ctg_grow_capacity(p->cap, count, 16, SIZE_MAX / (2 * sizeof(unsigned)), &cap)
        || !ctg_size_mul(cap, 2 * sizeof(unsigned), &bytes)
        || !(block = ctg_mem_alloc(p->alloc, bytes)))
        return CTG_ENOMEM;
    if (old) {
        memcpy(block, p->lines, old);
        memcpy(block + cap, p->columns, old);
    }
    ctg_mem_release(p->alloc, p->lines, 2 * old);
    p->lines = block;
    p->columns = block + cap;
    p->cap = cap;
    return CTG_OK;
}

void ctg_places_release(ctg_places *p)
{
    if (p->lines)
        ctg_mem_release(p->alloc, p->lines, 2 * p->cap * sizeof(unsigned));
    p->lines = p->columns = NULL;
    p->cap = 0;
}

/* ---- the object ------------------------------------------------------------------------- */

static int duplicate(ctg_reader *rd, const ctg_keyset_entry *first, const char *name)
{
    unsigned col = ctg_column(first->mark.offset, first->mark.line_start);

    return ctg_reader_fail(rd, CTG_ESCHEMA, "duplicate key \"%s\" (first at line %u, column %u)",
                           name, first->mark.line, col);
}

/* With rd->tok on an extension's name: records it and reads its value. */
static int read_member(ctg_reader *rd, name_list *s, capture *c)
{
    ctg_path_frame *f = ctg_reader_top_frame(rd);
    const ctg_keyset_entry *first;
    ctg_mark here = ctg_reader_mark(rd);
    ctg_extension *e;
    char *name;
    int rc;

    if (rd->tok.has_nul)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "an extension name must not contain U+0000");
    if (!names_grow(s) || (name = ctg_arena_strndup(rd->arena, rd->tok.str, rd->tok.len)) == NULL)
        return ctg_reader_nomem(rd);
    f->key = name;
    f->key_len = rd->tok.len;
    rc = ctg_keyset_add(&s->names, 0, name, rd->tok.len, &here, &first);
    if (rc == 1)
        return duplicate(rd, first, name);
    if (rc != CTG_OK)
        return ctg_reader_nomem(rd);
    if (s->resolver->names) { /* a placed read: where the name is, for the visitor */
        ctg_places *p = s->resolver->names;
        if (ctg_places_reserve(p, s->count + 1) != CTG_OK)
            return ctg_reader_nomem(rd);
        p->lines[s->count] = here.line;
        p->columns[s->count] = ctg_column(here.offset, here.line_start);
    }
    e = &s->items[s->count];
    memset(e, 0, sizeof *e);
    e->name = name;
    if ((rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    rc = read_value(rd, s->resolver, c, e, f->key_len);
    if (rc == CTG_OK)
        s->count++;
    return rc;
}

/* The extensions, in the order read, into one arena array. */
static int finish(ctg_reader *rd, const name_list *s, ctg_contingency *c)
{
    ctg_extension *out;

    c->extensions = NULL;
    c->extension_count = 0;
    if (s->count == 0)
        return CTG_OK;
    out = ctg_arena_alloc(rd->arena, s->count * sizeof *out, alignof(ctg_extension));
    if (out == NULL)
        return ctg_reader_nomem(rd);
    memcpy(out, s->items, s->count * sizeof *out);
    c->extensions = out;
    c->extension_count = s->count;
    return CTG_OK;
}

static int read_members(ctg_reader *rd, name_list *s, capture *c)
{
    int rc;

    while ((rc = ctg_reader_next(rd)) == CTG_OK && rd->tok.type == CTG_TOK_KEY) {
        if ((rc = read_member(rd, s, c)) != CTG_OK)
            return rc;
        ctg_reader_top_frame(rd)->key = NULL;
    }
    return rc;
}

int ctg_read_extensions(ctg_reader *rd, ctg_ext_resolver *ext, ctg_contingency *c)
{
    const ctg_allocator *a = ctg_arena_allocator(rd->arena);
    name_list names;
    capture text;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    names_init(&names, a, ext);
    capture_init(&text, a, !(rd->flags & CTG_READ_SKIP_EXTENSION_VALUES));
    rc = read_members(rd, &names, &text);
    if (rc == CTG_OK) {
        ctg_reader_pop_frame(rd);
        rc = finish(rd, &names, c);
    }
    capture_dispose(&text);
    names_dispose(&names);
    return rc;
}

/* ---- a value on its own ------------------------------------------------------------------- */

/* Reads the value that fills `len` bytes of `text`, with the checks of an extension value,
 * into its compact text in `arena`. */
static int read_alone(ctg_reader *rd, capture *c, const char **json, size_t *json_len)
{
    char *copy;
    int rc;

    if ((rc = ctg_reader_next(rd)) != CTG_OK || (rc = capture_value(rd, c)) != CTG_OK)
        return rc;
    if ((rc = ctg_reader_next(rd)) != CTG_OK)
        return rc; /* the lexer refuses anything after the value */
    if (json == NULL)
        return CTG_OK; /* checked only */
    if ((copy = ctg_arena_strndup(rd->arena, c->data, c->len)) == NULL)
        return ctg_reader_nomem(rd);
    *json = copy;
    *json_len = c->len;
    return CTG_OK;
}

int ctg_extension_text_read(ctg_arena *arena, const char *text, size_t len, const char **json,
                            size_t *json_len, ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_lex_source src = { text, len, NULL, NULL };
    ctg_error scratch;
    ctg_reader rd;
    capture c;
    int rc;

    if (err == NULL)
        err = &scratch;
    opts.max_depth = CTG_MAX_DEPTH_LIMIT; /* whatever any read may keep, a builder may add */
    if ((rc = ctg_reader_init(&rd, &src, &opts, arena, err)) != CTG_OK) {
        ctg_error_set(err, rc, NULL, NULL, "out of memory");
        goto done; /* a reader that failed to start is disposed all the same */
    }
    capture_init(&c, ctg_arena_allocator(arena), json != NULL);
    rc = read_alone(&rd, &c, json, json_len); /* errors are at the root: path "" */
    capture_dispose(&c);
done:
    ctg_reader_dispose(&rd);
    return rc;
}
