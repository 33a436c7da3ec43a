/* SPDX-License-Identifier: MPL-2.0 */
/* The json-c bridge (jsonc.h): a tree becomes compact text for ctg's reader, and ctg's output
 * becomes a tree through json_tokener. One code path for reading and writing, whatever the
 * input looks like. */

#include <limits.h>
#include <string.h>

#include <json-c/json.h>

#include "ctg/jsonc.h"
#include "model/alloc.h"
#include "serde/ext_internal.h"

#define SOURCE "<json-c>"

/* Errors of a tree have no position: only the path and the message are kept. */
static int tree_error(ctg_error *err, int code)
{
    err->code = (ctg_status)code;
    err->line = 0;
    err->column = 0;
    err->offset = 0;
    snprintf(err->source, sizeof err->source, "%s", SOURCE);
    return code;
}

static int plain_error(ctg_error *err, int code, const char *msg)
{
    memset(err, 0, sizeof *err);
    snprintf(err->message, sizeof err->message, "%s", msg);
    return tree_error(err, code);
}

/* ---- tree to list ------------------------------------------------------------------------- */

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
            snprintf(err->message, sizeof err->message, "out of memory");
            return CTG_ENOMEM;
        }
        t->data = p;
        t->cap = cap;
    }
    memcpy(t->data + t->len, data, len);
    t->len += len;
    return CTG_OK;
}

/* The compact text of `obj`, walked read-only: json_object_to_json_string would write a cache
 * into the object, which a const tree shared between threads must not see. */
static int tree_text(text *t, const struct json_object *obj, ctg_error *err)
{
    ctg_emitter e;
    int rc = ctg_emit_init(&e, text_sink, t, true, t->alloc, err);

    if (rc == CTG_OK) {
        rc = ctg_emit_json(&e, obj, CTG_EMIT_JSON_FINITE, err->path);
        if (rc == CTG_OK)
            rc = ctg_emit_finish(&e);
    }
    ctg_emit_dispose(&e);
    return rc;
}

int ctg_list_from_json_object(ctg_list **out, const struct json_object *obj,
                              const ctg_read_options *opts, ctg_error *err)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_read_options o = opts != NULL ? *opts : defaults;
    text t = { o.allocator, NULL, 0, 0 };
    ctg_error w; /* the caller's record is written only on failure */
    int rc;

    if (out != NULL)
        *out = NULL;
    if (out == NULL || obj == NULL) {
        rc = plain_error(&w, CTG_EINVAL, out == NULL ? "no place for the list (out is NULL)"
                                                     : "no json-c value (NULL)");
    } else {
        memset(&w, 0, sizeof w);
        rc = tree_text(&t, obj, &w);
        o.source_name = SOURCE;
        if (rc == CTG_OK)
            rc = ctg_list_read_buffer(out, t.data ? t.data : "", t.len, &o, &w);
        ctg_mem_release(t.alloc, t.data, t.cap);
    }
    if (rc != CTG_OK && err != NULL)
        *err = w;
    return rc == CTG_OK ? CTG_OK : tree_error(err != NULL ? err : &w, rc);
}

/* ---- list to tree ------------------------------------------------------------------------- */

/* ctg writes nothing deeper than its emitter allows. */
#define TREE_DEPTH (CTG_EMIT_MAX_DEPTH + 1)

static int parse_text(struct json_object **out, const ctg_buf *buf, ctg_error *err)
{
    struct json_tokener *tok;
    enum json_tokener_error jerr;

    if (buf->len >= INT_MAX)
        return plain_error(err, CTG_ELIMIT, "list too large for json-c (2 GiB of JSON)");
    tok = json_tokener_new_ex(TREE_DEPTH);
    if (tok == NULL)
        return plain_error(err, CTG_ENOMEM, "out of memory");
    *out = json_tokener_parse_ex(tok, buf->data, (int)buf->len + 1); /* with the NUL */
    jerr = json_tokener_get_error(tok);
    json_tokener_free(tok);
    if (jerr == json_tokener_success && *out != NULL)
        return CTG_OK;
    json_object_put(*out);
    *out = NULL;
    /* ctg's output is valid JSON of a bounded depth: json-c fails only for want of memory. */
    return plain_error(err, CTG_ENOMEM, "out of memory");
}

int ctg_list_to_json_object(struct json_object **out, const ctg_list *list,
                            const ctg_write_options *opts, ctg_error *err)
{
    static const ctg_write_options defaults = CTG_WRITE_OPTIONS_INIT;
    ctg_write_options o = opts != NULL ? *opts : defaults;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error scratch;
    int rc;

    if (err == NULL)
        err = &scratch;
    if (out == NULL)
        return plain_error(err, CTG_EINVAL, "no place for the tree (out is NULL)");
    *out = NULL;
    o.flags |= CTG_WRITE_COMPACT; /* the layout is lost in a tree anyway */
    buf.allocator = o.allocator;
    rc = ctg_list_write_buf(&buf, list, &o, err);
    if (rc == CTG_OK)
        rc = parse_text(out, &buf, err);
    ctg_buf_dispose(&buf);
    return rc;
}
