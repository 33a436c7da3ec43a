/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_resolve_stream: a list resolved as it is read. Contingencies of `default` lists pass the
 * validity filter one at a time, straight from the stream reader to the stream writer, so that
 * memory does not grow with the list; other kinds arrive whole and are resolved whole. */

#include <string.h>

#include "network/resolve_int.h"

typedef struct rs_stream {
    rs_ctx ctx;
    ctg_error err;          /* the evaluation's error, kept apart from the reader's */
    int rc;                 /* the evaluation's status once a callback failed */
    size_t depth, index;    /* the list whose contingencies are being counted */
    size_t count;           /* contingencies of that list seen so far */
    bool counting;
} rs_stream;

static int add_to_writer(void *target, const ctg_contingency *c, ctg_error *err)
{
    return ctg_stream_writer_add(target, c, err);
}

/* The path of the list `h` describes: "" for the root, "/contingencyLists/i" for a list in it.
 * A stream header names its own position only, not its parents': a list nested deeper has the
 * paths of its items relative to itself (resolve.h says so). */
static void list_path(rs_stream *s, const ctg_stream_header *h)
{
    ctg_rs_path_pop(&s->ctx, 0);
    if (h->depth == 1) {
        ctg_rs_path_push(&s->ctx, "contingencyLists");
        ctg_rs_path_push_index(&s->ctx, h->index);
    }
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    rs_stream *s = payload;
    bool valid = false;
    int rc;

    if (!s->counting || h->depth != s->depth || h->index != s->index) {
        s->counting = true;
        s->depth = h->depth;
        s->index = h->index;
        s->count = 0;
    }
    list_path(s, h);
    if (h->kind == CTG_LIST_DEFAULT) {
        ctg_rs_path_push(&s->ctx, "contingencies");
        ctg_rs_path_push_index(&s->ctx, s->count);
    }
    s->count++;
    rc = ctg_rs_check(&s->ctx, c, &valid);
    if (rc == CTG_OK && valid) {
        rc = add_to_writer(s->ctx.sink.target, c, &s->err);
        if (rc != CTG_OK)
            ctg_error_set(&s->err, rc, NULL, s->ctx.path, NULL);
    }
    s->rc = rc;
    return rc != CTG_OK;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    rs_stream *s = payload;

    s->counting = false;
    list_path(s, h);
    s->rc = ctg_rs_list(&s->ctx, list);
    return s->rc != CTG_OK;
}

int ctg_resolve_stream(const ctg_network *net, const ctg_source *src,
                       const ctg_read_options *read_opts, ctg_stream_writer *w,
                       const ctg_resolve_options *opts, ctg_error *err)
{
    ctg_visitor v = CTG_VISITOR_INIT;
    ctg_error local;
    rs_stream s;
    int rc;

    if (err == NULL)
        err = &local;
    rc = ctg_rs_check_args(net, src, opts, err);
    if (rc == CTG_OK && w == NULL)
        rc = ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL stream writer");
    if (rc != CTG_OK)
        return ctg_rs_finish(err, rc, "<input>");
    memset(&s, 0, sizeof s);
    ctg_rs_init(&s.ctx, net, opts, &s.err);
    s.ctx.sink.add = add_to_writer;
    s.ctx.sink.target = w;
    v.contingency = on_contingency;
    v.list = on_list;
    v.payload = &s;
    rc = ctg_read_stream(src, &v, read_opts, err);
    ctg_rs_dispose(&s.ctx);
    if (s.rc != CTG_OK) { /* the evaluation stopped the read: its error, not "stopped" */
        char source[CTG_ERROR_SOURCE_MAX];

        memcpy(source, err->source, sizeof source); /* the reader's name for the input */
        *err = s.err;
        memcpy(err->source, source, sizeof source);
        return s.rc;
    }
    return rc;
}
