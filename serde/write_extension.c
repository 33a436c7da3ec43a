/* SPDX-License-Identifier: MPL-2.0 */
/* Writing a contingency's extensions (spec 8), and any json-c value, in PowSyBl's layout: the
 * emitter's rules (spec 7) apply inside extension values as everywhere else. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "serde/ext_internal.h"


/* ---- any json-c value -------------------------------------------------------------------- */

/* One open container of the walk. json-c's API takes non-const objects even to read them;
 * nothing here changes them. */
typedef struct frame {
    json_object *obj;
    bool is_object;
    struct json_object_iterator it, end; /* objects: the next member */
    size_t index, count;                 /* arrays: the next item */
    const char *key;                     /* the member or item being written, for errors */
} frame;

/* Appends "/" + `seg` as a JSON Pointer segment (~ and / escaped), truncating. */
static size_t append_segment(char *buf, size_t len, const char *seg)
{
    const size_t cap = CTG_ERROR_PATH_MAX - 1;

    if (len < cap)
        buf[len++] = '/';
    for (; *seg != '\0' && len < cap; seg++) {
        char ch = *seg;
        if ((ch == '~' || ch == '/') && len + 1 < cap) {
            buf[len++] = '~';
            ch = ch == '~' ? '0' : '1';
        }
        buf[len++] = ch;
    }
    buf[len] = '\0';
    return len;
}

static void walk_path(const frame *stack, size_t depth, char *path)
{
    size_t len = 0;

    if (path == NULL)
        return;
    path[0] = '\0';
    for (size_t i = 0; i < depth; i++) {
        char num[24];
        if (stack[i].is_object) {
            len = append_segment(path, len, stack[i].key);
        } else {
            snprintf(num, sizeof num, "%zu", stack[i].index - 1);
            len = append_segment(path, len, num);
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

int ctg_emit_json(ctg_emitter *e, const struct json_object *v, unsigned flags, char *path)
{
    frame stack[CTG_EMIT_MAX_DEPTH];
    size_t depth = 0;
    const char *why;
    json_object *cur = (json_object *)v;
    bool opened;

    if (path != NULL)
        path[0] = '\0';
    for (;;) {
        if (depth == CTG_EMIT_MAX_DEPTH) {
            why = "a value nested deeper than the writer allows";
            break;
        }
        why = emit_start(e, cur, &stack[depth], &opened, flags);
        if (why != NULL)
            break;
        depth += opened;
        while (depth > 0 && !next_child(e, &stack[depth - 1], &cur))
            depth--;
        if (depth == 0)
            return CTG_OK;
    }
    walk_path(stack, depth, path);
    ctg_emit_fail(e, CTG_EINVAL, why);
    return CTG_EINVAL;
}

/* ---- extensions ---------------------------------------------------------------------------- */

/* PowSyBl writes an extension only when it has a serializer: a kept value always has one (its
 * own JSON), a typed one when its handler can write. */
static bool writable(const ctg_extension *x)
{
    return x->handler == NULL || x->handler->write != NULL;
}

static void write_typed(ctg_emitter *e, const ctg_extension *x)
{
    json_object *obj = NULL;
    char msg[CTG_ERROR_MESSAGE_MAX];
    int rc = x->handler->write(&obj, x->value, x->handler->payload);

    if (rc != CTG_OK) {
        json_object_put(obj);
        if (rc > 0 || rc < CTG_ESTOPPED)
            rc = CTG_EINVAL;
        snprintf(msg, sizeof msg, "extension \"%s\" could not be written", x->name);
        ctg_emit_fail(e, rc, rc == CTG_ENOMEM ? "out of memory" : msg);
        return;
    }
    ctg_emit_json(e, obj, 0, NULL);
    json_object_put(obj);
}

void ctg_write_extensions(ctg_emitter *e, const ctg_contingency *c)
{
    size_t i, n = 0;

    for (i = 0; i < c->extension_count; i++)
        n += writable(&c->extensions[i]);
    if (n == 0)
        return;
    CTG_EMIT_KEY(e, "extensions");
    ctg_emit_object_begin(e);
    for (i = 0; i < c->extension_count; i++) {
        const ctg_extension *x = &c->extensions[i];
        if (!writable(x))
            continue;
        ctg_emit_key(e, x->name, strlen(x->name));
        if (x->handler != NULL)
            write_typed(e, x);
        else
            ctg_emit_json(e, x->value, 0, NULL);
    }
    ctg_emit_object_end(e);
}
