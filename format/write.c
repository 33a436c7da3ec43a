/* SPDX-License-Identifier: MPL-2.0 */
/* The public write API (io.h): one emitter feeding an output (a buffer, a FILE *, a
 * descriptor, or an atomically replaced file). */

#include <stdio.h>
#include <string.h>

#include "ctg/io.h"
#include "base/alloc.h"
#include "json/emit.h"
#include "base/arena.h"
#include "io/output.h"
#include "format/kinds.h"
#include "format/write.h"
#include "format/write_version.h"

/* What one write emits: a whole list, or one contingency. */
typedef struct what {
    const ctg_list *list;
    const ctg_contingency *contingency;
    bool one; /* a contingency is asked for */
} what;

/* `versions`: the emitter's `above`, NULL for the newest of every kind. */
static int emit(ctg_output *o, what x, const ctg_write_versions *versions,
                const ctg_write_options *opts, ctg_error *w)
{
    bool compact = (opts->flags & CTG_WRITE_COMPACT) != 0;
    ctg_emitter e;
    int rc = CTG_OK;

    /* A buffer is written in place: no second copy of the whole output. */
    if (ctg_output_has_window(o))
        rc = ctg_emit_init_window(&e, ctg_output_window, o, compact, opts->allocator, w);
    else
        rc = ctg_emit_init_sized(&e, ctg_output_sink, o, compact, ctg_output_piece_size(o),
                                 opts->allocator, w);

    if (rc == CTG_OK) {
        e.above = versions;
        if (x.list != NULL)
            rc = ctg_write_list_json(&e, x.list);
        else
            ctg_write_contingency_fn(&e)(&e, x.contingency);
        if (rc == CTG_OK)
            rc = ctg_emit_finish(&e);
        else /* every kind has a writer (kinds.c): only a broken rule stops one */
            ctg_output_message(w, rc,
                               "the list breaks a rule of the format and cannot be written");
    }
    ctg_emit_dispose(&e);
    return rc;
}

/* Whether `x` can be written with `opts`: the versions it is written at set in `v`. */
static int check(what x, const ctg_write_options *opts, ctg_write_versions *v, ctg_error *w)
{
    ctg_arena *scratch = NULL;
    int rc;

    if (x.list == NULL && x.contingency == NULL)
        return ctg_output_message(w, CTG_EINVAL,
                                  x.one ? "no contingency to write" : "no list to write");
    rc = ctg_write_versions_set(v, x.list ? ctg_list_get_kind(x.list) : CTG_LIST_DEFAULT,
                                opts->format_version, w);
    if (rc == CTG_OK && x.list != NULL)
        rc = ctg_write_versions_check(v, x.list, w);
    if (rc == CTG_OK && x.contingency != NULL) {
        rc = ctg_write_check_contingency(&scratch, opts->allocator, x.contingency, w);
        ctg_arena_release(scratch);
    }
    return rc;
}

/* Checks, opens, emits, commits; any failure leaves no trace in the output. */
static int write_to(const ctg_output_target *target, const char *source, what x,
                    const ctg_write_options *given, ctg_error *err)
{
    ctg_write_options opts;
    ctg_write_versions versions;
    ctg_error w = { 0 };
    ctg_output o;
    char path[CTG_ERROR_PATH_MAX];
    int rc = ctg_write_check_options(given, &opts, &w);

    if (rc == CTG_OK)
        rc = check(x, &opts, &versions, &w);
    if (rc != CTG_OK)
        goto done;
    /* A failed open leaves nothing to close. */
    if ((rc = ctg_output_open(&o, target, &opts, &w)) != CTG_OK)
        goto done;
    rc = emit(&o, x, opts.format_version ? &versions : NULL, &opts, &w);
    if (rc == CTG_OK)
        rc = ctg_output_commit(&o, &w); /* which aborts when it fails */
    else
        ctg_output_abort(&o);
done:
    if (rc == CTG_OK)
        return CTG_OK;
    /* What an older version cannot express is named by its place in the list. */
    memcpy(path, w.path, sizeof path);
    ctg_output_error(err, &w, rc, source);
    if (rc == CTG_EUNSUPPORTED && err != NULL)
        memcpy(err->path, path, sizeof path);
    return rc;
}

void ctg_buf_dispose(ctg_buf *buf)
{
    if (buf == NULL)
        return;
    ctg_mem_release(buf->allocator, buf->data, buf->cap);
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
}

int ctg_list_write_buf(ctg_buf *buf, const ctg_list *list, const ctg_write_options *opts,
                       ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_BUF, { .buf = buf } };
    return write_to(&t, "<memory>", (what){ list, NULL, false }, opts, err);
}

int ctg_list_write_fp(FILE *fp, const ctg_list *list, const ctg_write_options *opts,
                      ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_FP, { .fp = fp } };
    return write_to(&t, "<stream>", (what){ list, NULL, false }, opts, err);
}

int ctg_list_write_fd(int fd, const ctg_list *list, const ctg_write_options *opts,
                      ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_FD, { .fd = fd } };
    return write_to(&t, "<fd>", (what){ list, NULL, false }, opts, err);
}

int ctg_list_write_file(const char *path, const ctg_list *list, const ctg_write_options *opts,
                        ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_PATH, { .path = path } };
    return write_to(&t, path ? path : "", (what){ list, NULL, false }, opts, err);
}

int ctg_contingency_write_buf(ctg_buf *buf, const ctg_contingency *c,
                              const ctg_write_options *opts, ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_BUF, { .buf = buf } };
    return write_to(&t, "<memory>", (what){ NULL, c, true }, opts, err);
}
