/* SPDX-License-Identifier: MPL-2.0 */
/* The json-c bridge (jsonc.h), the one file of the library that calls json-c: a tree becomes
 * compact text for ctg's reader, ctg's compact output (a list, or an extension's kept text)
 * becomes a tree through a builder that checks every json-c call, and a typed handler's tree
 * is written through the emitter. One code path for reading and writing, whatever the input
 * looks like; no recursion on the depth of a value. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "ctg/jsonc.h"
#include "base/alloc.h"
#include "base/error_set.h"
#include "model/list_impl.h"
#include "ext/ext.h"
#include "json/lexer.h"

int ctg_jsonc_tree_error(ctg_error *err, int code)
{
    ctg_error_set(err, code, NULL, NULL, NULL); /* path and message: the walk wrote them */
    ctg_error_set_source(err, CTG_JSONC_SOURCE);
    return code;
}

int ctg_jsonc_plain_error(ctg_error *err, int code, const char *msg)
{
    ctg_error_set(err, code, NULL, "", "%s", msg);
    ctg_error_set_source(err, CTG_JSONC_SOURCE);
    return code;
}

/* ---- any json-c value, written -------------------------------------------------------------------- */

/* One open container of the walk. json-c's API takes non-const objects even to read them;
 * nothing here changes them. */
typedef struct frame {
    json_object *obj;
    bool is_object;
    struct json_object_iterator it, end; /* objects: the next member */
    size_t index, count;                 /* arrays: the next item */
    const char *key;                     /* the member or item being written, for errors */
} frame;

static void walk_path(const frame *stack, size_t depth, char *path)
{
    size_t len = 0;

    if (path == NULL)
        return;
    path[0] = '\0';
    for (size_t i = 0; i < depth; i++) {
        char num[24];
        if (stack[i].is_object) {
            len = ctg_error_path_append(path, len, stack[i].key, strlen(stack[i].key));
        } else {
            int n = snprintf(num, sizeof num, "%zu", stack[i].index - 1);
            len = ctg_error_path_append(path, len, num, (size_t)n);
        }
    }
}

/* A scalar; returns a message when it cannot be written. */
static const char *emit_scalar(ctg_emitter *e, json_object *v, unsigned flags)
{
    switch (json_object_get_type(v)) {
    case json_type_boolean:
        ctg_emit_bool(e, json_object_get_boolean(v) != 0);
        return NULL;
    case json_type_int: {
        int64_t i = json_object_get_int64(v);
        /* json-c holds integers above INT64_MAX as uint64, and then clamps this getter. */
        if (i == INT64_MAX && json_object_get_uint64(v) > (uint64_t)INT64_MAX)
            return "an integer beyond the 64-bit signed range cannot be written";
        ctg_emit_int(e, i);
        return NULL;
    }
    case json_type_double: {
        double d = json_object_get_double(v);
        if ((flags & CTG_EMIT_JSON_FINITE) && !isfinite(d))
            return "NaN and infinities cannot be read back";
        ctg_emit_double(e, d);
        return NULL;
    }
    case json_type_string:
        ctg_emit_string(e, json_object_get_string(v), (size_t)json_object_get_string_len(v));
        return NULL;
    default:
        ctg_emit_null(e);
        return NULL;
    }
}

/* Opens `v` as a new frame, or writes it when it is a scalar. */
static const char *emit_start(ctg_emitter *e, json_object *v, frame *f, bool *opened,
                              unsigned flags)
{
    *opened = false;
    if (json_object_is_type(v, json_type_object)) {
        ctg_emit_object_begin(e);
        f->is_object = true;
        f->it = json_object_iter_begin(v);
        f->end = json_object_iter_end(v);
    } else if (json_object_is_type(v, json_type_array)) {
        ctg_emit_array_begin(e);
        f->is_object = false;
        f->index = 0;
        f->count = json_object_array_length(v);
    } else {
        return emit_scalar(e, v, flags);
    }
    f->obj = v;
    f->key = NULL;
    *opened = true;
    return NULL;
}

/* The next child of the innermost container (its key emitted), or false when it has none
 * left (then it is closed). */
static bool next_child(ctg_emitter *e, frame *f, json_object **child)
{
    if (f->is_object) {
        if (json_object_iter_equal(&f->it, &f->end)) {
            ctg_emit_object_end(e);
            return false;
        }
        f->key = json_object_iter_peek_name(&f->it);
        *child = json_object_iter_peek_value(&f->it);
        json_object_iter_next(&f->it);
        ctg_emit_key(e, f->key, strlen(f->key));
        return true;
    }
    if (f->index == f->count) {
        ctg_emit_array_end(e);
        return false;
    }
    *child = json_object_array_get_idx(f->obj, f->index++);
    return true;
}

/* Room for frame `depth` of the walk: the stack grows on the heap, so that the walk takes any
 * depth the emitter does without a large frame on the C stack. */
static bool stack_room(ctg_emitter *e, frame **stack, size_t *cap, size_t depth)
{
    size_t n;
    frame *p;

    if (depth < *cap)
        return true;
    if (!ctg_grow_capacity(*cap, depth + 1, 16, SIZE_MAX / sizeof **stack, &n)
        || (p = ctg_mem_resize(e->alloc, *stack, *cap * sizeof **stack, n * sizeof **stack))
               == NULL)
        return false;
    *stack = p;
    *cap = n;
    return true;
}

/* Walks `cur` depth first: CTG_OK, CTG_ENOMEM, or CTG_EINVAL with *why set. */
static int walk(ctg_emitter *e, json_object *cur, unsigned flags, frame **stack, size_t *cap,
                size_t *depth, const char **why)
{
    bool opened;

    for (;;) {
        if (*depth == CTG_EMIT_MAX_DEPTH) {
            *why = "a value nested deeper than the writer allows";
            return CTG_EINVAL;
        }
        if (!stack_room(e, stack, cap, *depth))
            return CTG_ENOMEM;
        if ((*why = emit_start(e, cur, &(*stack)[*depth], &opened, flags)) != NULL)
            return CTG_EINVAL;
        *depth += opened;
        while (*depth > 0 && !next_child(e, &(*stack)[*depth - 1], &cur))
            (*depth)--;
        if (*depth == 0)
            return CTG_OK;
    }
}

int ctg_emit_json(ctg_emitter *e, const struct json_object *v, unsigned flags, char *path)
{
    frame *stack = NULL;
    size_t cap = 0, depth = 0;
    const char *why = NULL;
    int rc;

    if (path != NULL)
        path[0] = '\0';
    rc = walk(e, (json_object *)v, flags, &stack, &cap, &depth, &why);
    if (rc == CTG_EINVAL)
        walk_path(stack, depth, path);
    if (rc != CTG_OK)
        ctg_emit_fail(e, rc, rc == CTG_EINVAL ? why : "out of memory");
    ctg_mem_release(e->alloc, stack, cap * sizeof *stack);
    return rc;
}

/* ---- tree to text ------------------------------------------------------------------------- */

typedef struct text {
    const ctg_allocator *alloc;
    char *data;
    size_t len;
    size_t cap;
} text;

static int text_sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    text *t = ctx;
    size_t need, cap;
    char *p;

    if (!ctg_size_add(t->len, len, &need))
        return CTG_ENOMEM;
    if (need > t->cap) {
        if (!ctg_grow_capacity(t->cap, need, 4096, SIZE_MAX, &cap)
            || (p = ctg_mem_resize(t->alloc, t->data, t->cap, cap)) == NULL) {
            return ctg_error_set(err, CTG_ENOMEM, NULL, NULL, "out of memory");
        }
        t->data = p;
        t->cap = cap;
    }
    memcpy(t->data + t->len, data, len);
    t->len += len;
    return CTG_OK;
}

/* Walked read-only: json_object_to_json_string would write a cache into the object, which a
 * const tree shared between threads must not see. */
int ctg_jsonc_text_of(const struct json_object *obj, const ctg_allocator *a, char **data,
                      size_t *len, size_t *cap, ctg_error *err)
{
    text t = { a, NULL, 0, 0 };
    ctg_emitter e;
    int rc = ctg_emit_init(&e, text_sink, &t, true, a, err);

    if (rc == CTG_OK) {
        rc = ctg_emit_json(&e, obj, CTG_EMIT_JSON_FINITE, err->path);
        if (rc == CTG_OK)
            rc = ctg_emit_finish(&e);
    }
    ctg_emit_dispose(&e);
    if (rc != CTG_OK) {
        ctg_mem_release(a, t.data, t.cap);
        t = (text){ a, NULL, 0, 0 };
    }
    *data = t.data;
    *len = t.len;
    *cap = t.cap;
    return rc;
}


/* ---- compact text to tree ----------------------------------------------------------------- */

/* The containers open while a tree is built, and the key waiting for its value. json-c frees a
 * tree recursively (json_object_put), so the depth is bounded (CTG_JSONC_MAX_DEPTH). */
typedef struct builder {
    const ctg_allocator *alloc;
    json_object *root;
    json_object **open;
    size_t depth, cap;
    char *key;          /* NUL-terminated copy of the pending key */
    size_t key_cap;
} builder;

static int set_key(builder *b, const char *s, size_t n)
{
    char *p;

    if (memchr(s, '\0', n) != NULL)
        return CTG_EUNSUPPORTED;
    if (n + 1 > b->key_cap) {
        if ((p = ctg_mem_alloc(b->alloc, n + 1)) == NULL)
            return CTG_ENOMEM;
        ctg_mem_release(b->alloc, b->key, b->key_cap);
        b->key = p;
        b->key_cap = n + 1;
    }
    memcpy(b->key, s, n);
    b->key[n] = '\0';
    return CTG_OK;
}

/* Attaches `v` (NULL is JSON null) to the innermost container, or makes it the root. */
static int attach(builder *b, json_object *v)
{
    json_object *parent;
    int rc;

    if (b->depth == 0) {
        b->root = v;
        return CTG_OK;
    }
    parent = b->open[b->depth - 1];
    if (json_object_is_type(parent, json_type_object))
        rc = json_object_object_add_ex(parent, b->key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW);
    else
        rc = json_object_array_add(parent, v);
    if (rc != 0) {
        json_object_put(v);
        return CTG_ENOMEM;
    }
    return CTG_OK;
}

/* Room for one more open container. */
static int grow_open(builder *b)
{
    size_t cap;
    json_object **p;

    if (!ctg_grow_capacity(b->cap, b->depth + 1, 16, SIZE_MAX / sizeof *p, &cap)
        || (p = ctg_mem_resize(b->alloc, b->open, b->cap * sizeof *p, cap * sizeof *p)) == NULL)
        return CTG_ENOMEM;
    b->open = p;
    b->cap = cap;
    return CTG_OK;
}

/* Takes `v`: attached (then the tree owns it), or released. */
static int open_container(builder *b, json_object *v)
{
    int rc = CTG_OK;

    if (v == NULL)
        return CTG_ENOMEM;
    if (b->depth >= CTG_JSONC_MAX_DEPTH)
        rc = CTG_EUNSUPPORTED;
    else if (b->depth == b->cap)
        rc = grow_open(b);
    if (rc != CTG_OK) {
        json_object_put(v);
        return rc;
    }
    if ((rc = attach(b, v)) == CTG_OK) /* attach releases `v` when it fails */
        b->open[b->depth++] = v;
    return rc;
}

static json_object *number(const char *s, size_t n)
{
    int64_t i;
    double d;
    char raw[64];

    if (ctg_jtext_is_integer(s, n) && ctg_parse_int64(s, n, &i))
        return json_object_new_int64(i);
    if (!ctg_parse_double(s, n, &d))
        return NULL;
    if (n >= sizeof raw)
        return json_object_new_double(d);
    memcpy(raw, s, n); /* json-c writes the double back with this text */
    raw[n] = '\0';
    return json_object_new_double_s(d, raw);
}

/* A scalar: its value, created and attached. */
static int scalar(builder *b, int t, const char *s, size_t n)
{
    json_object *v = NULL;

    switch (t) {
    case CTG_JT_STRING: v = json_object_new_string_len(s, (int)n); break;
    case CTG_JT_NUMBER: v = number(s, n); break;
    case CTG_JT_TRUE: v = json_object_new_boolean(1); break;
    case CTG_JT_FALSE: v = json_object_new_boolean(0); break;
    default: return attach(b, NULL); /* null is json-c's NULL */
    }
    return v == NULL ? CTG_ENOMEM : attach(b, v);
}

static int build_token(builder *b, int t, const char *s, size_t n)
{
    switch (t) {
    case CTG_JT_OBJECT_BEGIN: return open_container(b, json_object_new_object());
    case CTG_JT_ARRAY_BEGIN: return open_container(b, json_object_new_array());
    case CTG_JT_OBJECT_END:
    case CTG_JT_ARRAY_END: b->depth--; return CTG_OK;
    case CTG_JT_KEY: return set_key(b, s, n);
    case CTG_JT_STRING: return n > INT32_MAX ? CTG_EUNSUPPORTED : scalar(b, t, s, n);
    default: return scalar(b, t, s, n);
    }
}

int ctg_json_text_to_jsonc(const char *json, size_t len, const ctg_allocator *a,
                           struct json_object **out)
{
    builder b = { a, NULL, NULL, 0, 0, NULL, 0 };
    ctg_jtext w;
    const char *s = NULL;
    size_t n = 0;
    int t, rc = CTG_OK;

    ctg_jtext_init(&w, json, len, a);
    while (rc == CTG_OK && (t = ctg_jtext_next(&w, &s, &n)) != CTG_JT_END)
        rc = t < 0 ? t : build_token(&b, t, s, n);
    ctg_jtext_dispose(&w);
    ctg_mem_release(a, b.open, b.cap * sizeof *b.open);
    ctg_mem_release(a, b.key, b.key_cap);
    if (rc != CTG_OK) {
        json_object_put(b.root); /* everything built hangs from the root */
        b.root = NULL;
    }
    *out = b.root;
    return rc;
}

const char *ctg_json_text_why(int rc)
{
    if (rc == CTG_ENOMEM)
        return "out of memory";
    if (rc == CTG_EUNSUPPORTED)
        return "a value json-c cannot hold (a key with U+0000, a string over 2 GiB, or nesting "
               "deeper than 512 levels)"; /* CTG_JSONC_MAX_DEPTH */
    return "the value cannot be converted";
}

void ctg_jsonc_release(struct json_object *obj)
{
    json_object_put(obj);
}

/* ---- text to tree, with an error ------------------------------------------------------- */

int ctg_jsonc_parse_text(struct json_object **out, const char *data, size_t len,
                         const ctg_allocator *a, ctg_error *err)
{
    int rc = ctg_json_text_to_jsonc(data, len, a, out);

    return rc == CTG_OK ? CTG_OK : ctg_jsonc_plain_error(err, rc, ctg_json_text_why(rc));
}

int ctg_extension_to_json_object(struct json_object **out, const ctg_extension *ext,
                                 const ctg_allocator *allocator)
{
    if (out == NULL || ext == NULL)
        return CTG_EINVAL;
    *out = NULL;
    if (ext->handler != NULL) {
        int rc;
        if (ext->handler->write == NULL)
            return CTG_EUNSUPPORTED;
        rc = ext->handler->write(out, ext->value, ext->handler->payload);
        if (rc != CTG_OK) {
            json_object_put(*out);
            *out = NULL;
            return rc > 0 || rc < CTG_ESTOPPED ? CTG_EINVAL : rc;
        }
        return CTG_OK;
    }
    if (ext->json == NULL)
        return CTG_EUNSUPPORTED; /* read with CTG_READ_SKIP_EXTENSION_VALUES */
    return ctg_json_text_to_jsonc(ext->json, ext->json_len, allocator, out);
}

int ctg_list_add_extension_jsonc(ctg_list *list, size_t index, const char *name,
                                 const struct json_object *value, ctg_error *err)
{
    const ctg_allocator *a;
    char *data;
    size_t len, cap;
    ctg_error w;
    int rc;

    if (list == NULL || name == NULL)
        return CTG_EINVAL;
    a = ctg_arena_allocator(list->arena);
    memset(&w, 0, sizeof w);
    rc = ctg_jsonc_text_of(value, a, &data, &len, &cap, &w);
    if (rc == CTG_OK)
        rc = ctg_list_add_extension_json(list, index, name, data ? data : "null",
                                         data ? len : 4, &w);
    ctg_mem_release(a, data, cap);
    if (rc != CTG_OK && err != NULL)
        *err = w;
    return rc == CTG_ENOMEM ? rc : rc == CTG_OK ? CTG_OK : CTG_EINVAL;
}
