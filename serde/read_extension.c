/* SPDX-License-Identifier: MPL-2.0 */
/* A contingency's "extensions" object (spec 8). Nothing in it is lost: each value is rebuilt as
 * compact JSON text from the tokens while the reader moves past it (the lexer keeps no spans),
 * parsed by json_tokener, then either given to the application's typed handler or kept as the
 * json-c value itself, released with the list's memory. */

#include <limits.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/json_visit.h>

#include "model/alloc.h"
#include "serde/ext_internal.h"
#include "serde/read_default.h"

/* ---- the text of one value -------------------------------------------------------------- */

/* Most values are a few dozen bytes: they stay in `small`, without an allocation. */
/* A key met in the value: the object it belongs to, its (escaped) text in the capture, and
 * where it stood, so that a duplicate can name both places. */
typedef struct vkey {
    size_t off;
    size_t len;
    uint32_t object;
    ctg_mark mark;
} vkey;

#define KEYS_SMALL 8

typedef struct capture {
    const ctg_allocator *alloc;
    char *data;
    size_t len;
    size_t cap;
    size_t max_depth; /* deepest nesting of the value */
    char small[256];
    /* Keys, hashed by (object, text): json-c keeps the last of two silently, we refuse. */
    vkey *keys;
    size_t nkeys, keys_cap;      /* keys_cap a power of two; slots has twice as many */
    uint32_t *slots;             /* index + 1 into keys, 0 = free */
    uint32_t *open;              /* the serial of the object open at each depth */
    size_t open_cap;
    uint32_t serial;
    vkey small_keys[KEYS_SMALL];
    uint32_t small_slots[2 * KEYS_SMALL];
    uint32_t small_open[16];
} capture;

static void keys_release(capture *c)
{
    if (c->keys != c->small_keys) {
        ctg_mem_release(c->alloc, c->keys, c->keys_cap * sizeof *c->keys);
        ctg_mem_release(c->alloc, c->slots, 2 * c->keys_cap * sizeof *c->slots);
    }
    c->keys = c->small_keys;
    c->slots = c->small_slots;
    c->keys_cap = KEYS_SMALL;
    c->nkeys = 0;
    memset(c->small_slots, 0, sizeof c->small_slots);
}

static void capture_init(capture *c, const ctg_allocator *a)
{
    c->alloc = a;
    c->data = c->small;
    c->cap = sizeof c->small;
    c->len = 0;
    c->keys = c->small_keys;
    c->slots = c->small_slots;
    c->keys_cap = KEYS_SMALL;
    c->nkeys = 0;
    memset(c->small_slots, 0, sizeof c->small_slots);
    c->open = c->small_open;
    c->open_cap = sizeof c->small_open / sizeof c->small_open[0];
}

/* A large value's key index goes back to the inline one, so that the next small value does
 * not clear a large table. */
static void capture_reset(capture *c)
{
    c->len = 0;
    c->max_depth = 0;
    c->serial = 0;
    if (c->keys != c->small_keys)
        keys_release(c);
    else if (c->nkeys > 0)
        memset(c->small_slots, 0, sizeof c->small_slots);
    c->nkeys = 0;
}

static void capture_dispose(capture *c)
{
    if (c->data != c->small)
        ctg_mem_release(c->alloc, c->data, c->cap);
    keys_release(c);
    if (c->open != c->small_open)
        ctg_mem_release(c->alloc, c->open, c->open_cap * sizeof *c->open);
}

/* ---- duplicate keys inside a value ------------------------------------------------------ */

static uint32_t key_hash(uint32_t object, const char *s, size_t n)
{
    uint32_t h = 2166136261u ^ object;

    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The slot of the key (object, text): where it is, or the free one where it would go. */
static uint32_t *key_slot(const capture *c, uint32_t object, const char *text, size_t len)
{
    size_t mask = 2 * c->keys_cap - 1, i = key_hash(object, text, len) & mask;

    for (;; i = (i + 1) & mask) {
        uint32_t *slot = &c->slots[i];
        const vkey *k = *slot ? &c->keys[*slot - 1] : NULL;
        if (k == NULL || (k->object == object && k->len == len
                          && memcmp(c->data + k->off, text, len) == 0))
            return slot;
    }
}

static bool keys_grow(capture *c)
{
    size_t cap = 2 * c->keys_cap, bytes;
    vkey *keys;
    uint32_t *slots;

    if (cap > UINT32_MAX / 2 || !ctg_size_mul(2 * cap, sizeof *slots, &bytes))
        return false;
    keys = ctg_mem_alloc(c->alloc, cap * sizeof *keys);
    slots = ctg_mem_alloc(c->alloc, bytes);
    if (keys == NULL || slots == NULL) {
        ctg_mem_release(c->alloc, keys, cap * sizeof *keys);
        ctg_mem_release(c->alloc, slots, bytes);
        return false;
    }
    memcpy(keys, c->keys, c->nkeys * sizeof *keys);
    memset(slots, 0, bytes);
    if (c->keys != c->small_keys) {
        ctg_mem_release(c->alloc, c->keys, c->keys_cap * sizeof *c->keys);
        ctg_mem_release(c->alloc, c->slots, 2 * c->keys_cap * sizeof *c->slots);
    }
    c->keys = keys;
    c->slots = slots;
    c->keys_cap = cap;
    for (size_t i = 0; i < c->nkeys; i++)
        *key_slot(c, keys[i].object, c->data + keys[i].off, keys[i].len) = (uint32_t)(i + 1);
    return true;
}

/* A new object opens at `depth`: it gets the next serial. */
static bool open_object(capture *c, size_t depth)
{
    if (depth >= c->open_cap) {
        size_t cap;
        uint32_t *p;

        if (!ctg_grow_capacity(c->open_cap, depth + 1, 16, SIZE_MAX / sizeof *p, &cap))
            return false;
        p = ctg_mem_alloc(c->alloc, cap * sizeof *p);
        if (p == NULL)
            return false;
        memcpy(p, c->open, c->open_cap * sizeof *p);
        if (c->open != c->small_open)
            ctg_mem_release(c->alloc, c->open, c->open_cap * sizeof *c->open);
        c->open = p;
        c->open_cap = cap;
    }
    c->open[depth] = ++c->serial;
    return true;
}

/* Records the key just captured at [off, c->len) of the object open at `depth`; a second one
 * of the same object fails, naming both places. */
static int add_key(ctg_reader *rd, capture *c, size_t depth, size_t off)
{
    uint32_t object = c->open[depth], *slot;
    size_t len = c->len - off;
    vkey *k;

    if (c->nkeys == c->keys_cap && !keys_grow(c))
        return CTG_ENOMEM;
    slot = key_slot(c, object, c->data + off, len);
    if (*slot != 0) {
        const ctg_mark *m = &c->keys[*slot - 1].mark;
        return ctg_reader_fail(rd, CTG_ESCHEMA, "duplicate key %.*s (first at line %u, column %u)",
                               (int)(len < 64 ? len : 64), c->data + off, m->line,
                               (unsigned)(m->offset - m->line_start + 1));
    }
    k = &c->keys[c->nkeys];
    k->off = off;
    k->len = len;
    k->object = object;
    k->mark = ctg_reader_mark(rd);
    *slot = (uint32_t)(++c->nkeys);
    return CTG_OK;
}

/* Room for `n` more bytes and a final NUL; false when out of memory. */
static bool capture_room(capture *c, size_t n)
{
    size_t need, cap;
    char *p;

    if (!ctg_size_add(c->len, n, &need) || !ctg_size_add(need, 1, &need))
        return false;
    if (need <= c->cap)
        return true;
    if (!ctg_grow_capacity(c->cap, need, 1024, SIZE_MAX, &cap))
        return false;
    if (c->data == c->small) {
        p = ctg_mem_alloc(c->alloc, cap);
        if (p != NULL)
            memcpy(p, c->small, c->len);
    } else {
        p = ctg_mem_resize(c->alloc, c->data, c->cap, cap);
    }
    if (p == NULL)
        return false;
    c->data = p;
    c->cap = cap;
    return true;
}

static bool put(capture *c, const char *s, size_t n)
{
    if (!capture_room(c, n))
        return false;
    memcpy(c->data + c->len, s, n);
    c->len += n;
    return true;
}

/* The quoted string, with '"', '\\' and control characters escaped; the rest is UTF-8 the lexer
 * has checked, which json-c takes as it is. */
static bool put_string(capture *c, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t worst;
    char *p;

    if (!ctg_size_mul(n, 6, &worst) || !ctg_size_add(worst, 2, &worst) || !capture_room(c, worst))
        return false;
    p = c->data + c->len;
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') {
            *p++ = '\\';
            *p++ = (char)ch;
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

    return last == '{' || last == '[' || last == ':' || put(c, ",", 1);
}

/* json-c clamps an integer beyond int64 without a word: refuse it rather than change it. */
static int check_integer(ctg_reader *rd)
{
    int64_t v;

    if (!rd->tok.is_integer || ctg_parse_int64(rd->tok.raw, rd->tok.raw_len, &v))
        return CTG_OK;
    return ctg_reader_fail(rd, CTG_ESCHEMA, "integer %.*s in an extension is outside the 64-bit "
                           "range", (int)(rd->tok.raw_len < 40 ? rd->tok.raw_len : 40),
                           rd->tok.raw);
}

static bool put_literal(capture *c, ctg_tok type)
{
    if (type == CTG_TOK_TRUE)
        return put(c, "true", 4);
    if (type == CTG_TOK_FALSE)
        return put(c, "false", 5);
    return put(c, "null", 4);
}

/* Appends the current token; *depth follows the nesting. */
static int put_token(ctg_reader *rd, capture *c, size_t *depth)
{
    const ctg_token *t = &rd->tok;
    bool ok;
    int rc;

    if (t->type == CTG_TOK_OBJECT_END || t->type == CTG_TOK_ARRAY_END) {
        (*depth)--;
        return put(c, t->type == CTG_TOK_OBJECT_END ? "}" : "]", 1) ? CTG_OK : CTG_ENOMEM;
    }
    if (t->type == CTG_TOK_NUMBER && (rc = check_integer(rd)) != CTG_OK)
        return rc;
    if (!put_separator(c))
        return CTG_ENOMEM;
    switch (t->type) {
    case CTG_TOK_OBJECT_BEGIN:
    case CTG_TOK_ARRAY_BEGIN:
        if (++*depth > c->max_depth)
            c->max_depth = *depth;
        ok = put(c, t->type == CTG_TOK_OBJECT_BEGIN ? "{" : "[", 1);
        if (ok && t->type == CTG_TOK_OBJECT_BEGIN)
            ok = open_object(c, *depth);
        break;
    case CTG_TOK_KEY: {
        size_t off = c->len;
        if (!put_string(c, t->str, t->len))
            return CTG_ENOMEM;
        if ((rc = add_key(rd, c, *depth, off)) != CTG_OK)
            return rc;
        ok = put(c, ":", 1);
        break;
    }
    case CTG_TOK_STRING:
        ok = put_string(c, t->str, t->len);
        break;
    case CTG_TOK_NUMBER:
        ok = put(c, t->raw, t->raw_len); /* the exact text, for json-c to parse */
        break;
    default:
        ok = put_literal(c, t->type);
        break;
    }
    return ok ? CTG_OK : CTG_ENOMEM;
}

/* With rd->tok on a value's first token, rebuilds the value's text, leaving rd->tok on its last
 * token. Iterative: the lexer's depth limit already bounds the nesting. */
static int capture_value(ctg_reader *rd, capture *c)
{
    size_t depth = 0;
    int rc;

    capture_reset(c);
    for (;;) {
        rc = put_token(rd, c, &depth);
        if (rc == CTG_ENOMEM)
            return ctg_reader_nomem(rd);
        if (rc != CTG_OK || depth == 0)
            break;
        if ((rc = ctg_reader_next(rd)) != CTG_OK)
            break;
    }
    if (rc == CTG_OK)
        c->data[c->len] = '\0';
    return rc;
}

/* ---- json-c ----------------------------------------------------------------------------- */

/* Parses the captured text. The text is valid JSON of a known depth, so json-c can only fail
 * for want of memory. */
static int parse(ctg_reader *rd, const ctg_mark *at, const capture *c, json_object **out)
{
    struct json_tokener *tok;
    enum json_tokener_error jerr;

    *out = NULL;
    if (c->len >= INT_MAX || c->max_depth >= INT_MAX - 1)
        return ctg_reader_fail_at(rd, at, NULL, CTG_ELIMIT, "extension value too large for json-c");
    tok = json_tokener_new_ex((int)c->max_depth + 1);
    if (tok == NULL)
        return ctg_reader_nomem(rd);
    *out = json_tokener_parse_ex(tok, c->data, (int)c->len + 1); /* the NUL ends a number */
    jerr = json_tokener_get_error(tok);
    json_tokener_free(tok);
    if (jerr != json_tokener_success) {
        json_object_put(*out);
        *out = NULL;
        return ctg_reader_nomem(rd);
    }
    return CTG_OK;
}

/* ---- handlers --------------------------------------------------------------------------- */

/* The typed handler for `name`: looked up in the application's registry once per read, then
 * found among the ones already resolved. Names no handler knows cost a look-up each time, and
 * none at all without a registry. */
static const ctg_extension_handler *resolve(ctg_reader *rd, const char *name, size_t len)
{
    const ctg_extension_handler *h;
    bool cached = !(rd->flags & CTG_READ_NO_CACHE);
    size_t i = 0;

    if (rd->ext_registry == NULL)
        return NULL;
    for (; cached && i < CTG_EXT_CACHE_SIZE && rd->ext_cache[i] != NULL; i++) {
        h = rd->ext_cache[i];
        if (strncmp(h->name, name, len) == 0 && h->name[len] == '\0')
            return h;
    }
    rd->resolves++;
    h = ctg_extension_lookup(rd->ext_registry, name, len);
    if (h != NULL && cached && i < CTG_EXT_CACHE_SIZE)
        rd->ext_cache[i] = h;
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

/* Gives `value` to the typed handler `h`; the value is released here either way. */
static int read_typed(ctg_reader *rd, const ctg_mark *at, const ctg_extension_handler *h,
                      json_object *value, ctg_extension *ext)
{
    ctg_extension_ctx ctx = { rd->arena, ext->name, false, { 0 } };
    void *out = ctg_arena_calloc(rd->arena, 1, h->size);
    int rc;

    if (out == NULL) {
        json_object_put(value);
        return ctg_reader_nomem(rd);
    }
    rc = h->read(&ctx, value, out, h->payload);
    json_object_put(value);
    if (rc != CTG_OK)
        return handler_failed(rd, at, &ctx, rc);
    ext->value = out;
    ext->handler = h;
    return CTG_OK;
}

/* With rd->tok on the value of extension `ext` (name set), reads it into `ext`. */
static int read_value(ctg_reader *rd, capture *c, ctg_extension *ext, size_t name_len)
{
    const ctg_extension_handler *h = resolve(rd, ext->name, name_len);
    ctg_mark at = ctg_reader_mark(rd);
    json_object *value;
    int rc;

    if ((rc = capture_value(rd, c)) != CTG_OK || (rc = parse(rd, &at, c, &value)) != CTG_OK)
        return rc;
    if (h != NULL)
        return read_typed(rd, &at, h, value, ext);
    if (ctg_arena_keep_json(rd->arena, value) != CTG_OK)
        return ctg_reader_nomem(rd);
    ext->value = value;
    ext->handler = NULL;
    return CTG_OK;
}

/* ---- the names: kept in order, duplicates found by hashing ------------------------------- */

typedef struct entry {
    ctg_extension ext;
    size_t len;
    ctg_mark mark;
} entry;

/* A set of the names read so far: `items` in order, `slots` an open-addressing index into it
 * (index + 1; 0 = free), twice as large. Small objects stay in the inline arrays. */
typedef struct name_set {
    const ctg_allocator *alloc;
    entry *items;
    size_t count;
    size_t cap;
    uint32_t *slots;
    entry small_items[4];
    uint32_t small_slots[8];
} name_set;

static void set_init(name_set *s, const ctg_allocator *a)
{
    memset(s, 0, sizeof *s);
    s->alloc = a;
    s->items = s->small_items;
    s->slots = s->small_slots;
    s->cap = 4;
}

static void set_dispose(name_set *s)
{
    if (s->items != s->small_items) {
        ctg_mem_release(s->alloc, s->items, s->cap * sizeof *s->items);
        ctg_mem_release(s->alloc, s->slots, 2 * s->cap * sizeof *s->slots);
    }
}

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The slot of `name`: where it is, or the free one where it would go. */
static uint32_t *slot_of(const name_set *s, const char *name, size_t len)
{
    size_t mask = 2 * s->cap - 1, i = hash(name, len) & mask;

    for (;; i = (i + 1) & mask) {
        uint32_t *slot = &s->slots[i];
        const entry *e = *slot ? &s->items[*slot - 1] : NULL;
        if (e == NULL || (e->len == len && memcmp(e->ext.name, name, len) == 0))
            return slot;
    }
}

static bool set_grow(name_set *s)
{
    size_t cap = 2 * s->cap, bytes;
    entry *items;
    uint32_t *slots;

    if (cap > UINT32_MAX / 2 || !ctg_size_mul(2 * cap, sizeof *slots, &bytes))
        return false;
    items = ctg_mem_alloc(s->alloc, cap * sizeof *items);
    slots = ctg_mem_alloc(s->alloc, bytes);
    if (items == NULL || slots == NULL) {
        ctg_mem_release(s->alloc, items, cap * sizeof *items);
        ctg_mem_release(s->alloc, slots, bytes);
        return false;
    }
    memcpy(items, s->items, s->count * sizeof *items);
    memset(slots, 0, bytes);
    set_dispose(s);
    s->items = items;
    s->slots = slots;
    s->cap = cap;
    for (size_t i = 0; i < s->count; i++)
        *slot_of(s, items[i].ext.name, items[i].len) = (uint32_t)(i + 1);
    return true;
}

/* ---- the object ------------------------------------------------------------------------- */

static int duplicate(ctg_reader *rd, const entry *first)
{
    unsigned col = (unsigned)(first->mark.offset - first->mark.line_start + 1);

    return ctg_reader_fail(rd, CTG_ESCHEMA, "duplicate key \"%s\" (first at line %u, column %u)",
                           first->ext.name, first->mark.line, col);
}

/* With rd->tok on an extension's name: records it and reads its value. */
static int read_member(ctg_reader *rd, name_set *s, capture *c)
{
    ctg_path_frame *f = ctg_reader_top_frame(rd);
    entry *e;
    uint32_t *slot;
    char *name;
    int rc;

    if (rd->tok.has_nul)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "an extension name must not contain U+0000");
    if (s->count == s->cap && !set_grow(s))
        return ctg_reader_nomem(rd);
    if ((name = ctg_arena_strndup(rd->arena, rd->tok.str, rd->tok.len)) == NULL)
        return ctg_reader_nomem(rd);
    f->key = name;
    f->key_len = rd->tok.len;
    slot = slot_of(s, name, rd->tok.len);
    if (*slot != 0)
        return duplicate(rd, &s->items[*slot - 1]);
    e = &s->items[s->count];
    e->ext.name = name;
    e->len = rd->tok.len;
    e->mark = ctg_reader_mark(rd);
    if ((rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    rc = read_value(rd, c, &e->ext, e->len);
    if (rc == CTG_OK)
        *slot = (uint32_t)(++s->count);
    return rc;
}

/* The extensions, in the order read, into one arena array. */
static int finish(ctg_reader *rd, const name_set *s, ctg_contingency *c)
{
    ctg_extension *out;

    c->extensions = NULL;
    c->extension_count = 0;
    if (s->count == 0)
        return CTG_OK;
    out = ctg_arena_alloc(rd->arena, s->count * sizeof *out, alignof(ctg_extension));
    if (out == NULL)
        return ctg_reader_nomem(rd);
    for (size_t i = 0; i < s->count; i++)
        out[i] = s->items[i].ext;
    c->extensions = out;
    c->extension_count = s->count;
    return CTG_OK;
}

static int read_members(ctg_reader *rd, name_set *s, capture *c)
{
    int rc;

    while ((rc = ctg_reader_next(rd)) == CTG_OK && rd->tok.type == CTG_TOK_KEY) {
        if ((rc = read_member(rd, s, c)) != CTG_OK)
            return rc;
        ctg_reader_top_frame(rd)->key = NULL;
    }
    return rc;
}

int ctg_read_extensions(ctg_reader *rd, ctg_contingency *c)
{
    const ctg_allocator *a = ctg_arena_allocator(rd->arena);
    name_set names;
    capture text;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    set_init(&names, a);
    capture_init(&text, a);
    rc = read_members(rd, &names, &text);
    if (rc == CTG_OK) {
        ctg_reader_pop_frame(rd);
        rc = finish(rd, &names, c);
    }
    capture_dispose(&text);
    set_dispose(&names);
    return rc;
}
