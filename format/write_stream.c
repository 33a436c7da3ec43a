/* SPDX-License-Identifier: MPL-2.0 */
/* The streaming writer: a `default` list written one contingency at a time, byte-identical to
 * writing the whole list at once (the same emitter and the same pieces). */

#include <stdio.h>
#include <string.h>

#include "ctg/stream.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "model/list_impl.h"
#include "ext/ext.h"
#include "io/output.h"
#include "format/stream_valid.h"
#include "format/write.h"
#include "format/write_version.h"

struct ctg_stream_writer {
    const ctg_allocator *alloc;
    ctg_output out;
    ctg_emitter e;
    bool emitter_ready;
    int status;         /* first failure: after it, only abort is useful */
    /* The emitter's error record: it lives as long as the emitter does, so that a failure of
     * any later write has somewhere to put its message. */
    ctg_error werr;
    /* Lends the check of kept extension text its allocator (a check keeps nothing in it);
     * NULL until a contingency has such text. */
    ctg_arena *scratch;
    ctg_write_versions versions; /* the emitter's `above` for an older version */
    ctg_contingency_writer write; /* chosen at open for the version written */
    char source[CTG_ERROR_SOURCE_MAX];
};

/* The arguments of an open, checked before anything is made; `opts` the options to use. */
static int check_open(ctg_stream_writer **out, const char *name, const ctg_write_options *given,
                      ctg_write_options *opts, ctg_error *w)
{
    int rc = ctg_write_check_options(given, opts, w);

    if (rc == CTG_OK && (!out || !name))
        rc = ctg_output_message(w, CTG_EINVAL, !out ? "no place for the writer" : "no name");
    /* The reader refuses a name that is not UTF-8: a list it could not read back. */
    if (rc == CTG_OK && !ctg_utf8_valid(name))
        rc = ctg_output_message(w, CTG_EINVAL, "the list name is not valid UTF-8");
    return rc;
}

static int open_writer(ctg_stream_writer **out, const ctg_output_target *target,
                       const char *name, const ctg_write_options *given, ctg_error *err)
{
    ctg_write_options opts;
    ctg_error w = { 0 };
    const char *source = ctg_output_target_name(target); /* before the open, too */
    ctg_stream_writer *sw = NULL;
    bool opened = false;
    int rc;

    if (out)
        *out = NULL;
    rc = check_open(out, name, given, &opts, &w);
    if (rc == CTG_OK && (sw = ctg_mem_alloc(opts.allocator, sizeof(*sw))) == NULL)
        rc = ctg_output_message(&w, CTG_ENOMEM, "out of memory");
    if (rc != CTG_OK)
        goto done;
    memset(sw, 0, sizeof(*sw));
    sw->alloc = opts.allocator;
    /* Before the open: a version it cannot write leaves no trace. */
    if ((rc = ctg_write_versions_set(&sw->versions, CTG_LIST_DEFAULT, opts.format_version, &w))
        != CTG_OK)
        goto done;
    rc = ctg_output_open(&sw->out, target, &opts, &w);
    source = sw->out.source; /* the caller's path or a literal: it outlives sw */
    if (rc != CTG_OK)
        goto done; /* a failed open leaves nothing to close */
    opened = true;
    ctg_error_keep_tail(sw->source, sizeof sw->source, sw->out.source);
    rc = ctg_emit_init_sized(&sw->e, ctg_output_sink, &sw->out,
                             (opts.flags & CTG_WRITE_COMPACT) != 0,
                             ctg_output_piece_size(&sw->out), sw->alloc, &sw->werr);
    if (rc != CTG_OK) {
        w = sw->werr;
        goto done;
    }
    sw->emitter_ready = true;
    if (opts.format_version != NULL)
        sw->e.above = &sw->versions;
    sw->write = ctg_write_contingency_fn(&sw->e);
    ctg_write_default_begin(&sw->e, name);
    *out = sw;
done:
    if (rc != CTG_OK) {
        ctg_output_error(err, &w, rc, source);
        if (opened)
            ctg_stream_writer_abort(sw);
        else if (sw != NULL)
            ctg_mem_release(sw->alloc, sw, sizeof(*sw));
    }
    return rc;
}

int ctg_stream_writer_open_path(ctg_stream_writer **out, const char *path, const char *name,
                                const ctg_write_options *opts, ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_PATH, { .path = path } };
    return open_writer(out, &t, name, opts, err);
}

int ctg_stream_writer_open_fp(ctg_stream_writer **out, FILE *fp, const char *name,
                              const ctg_write_options *opts, ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_FP, { .fp = fp } };
    return open_writer(out, &t, name, opts, err);
}

int ctg_stream_writer_open_buf(ctg_stream_writer **out, ctg_buf *buf, const char *name,
                               const ctg_write_options *opts, ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_BUF, { .buf = buf } };
    return open_writer(out, &t, name, opts, err);
}

int ctg_write_check_contingency(ctg_arena **scratch, const ctg_allocator *a,
                                const ctg_contingency *c, ctg_error *w)
{
    if (c == NULL)
        return ctg_output_message(w, CTG_EINVAL, "no contingency");
    if (!ctg_contingency_valid(c))
        return ctg_output_message(w, CTG_EINVAL, "a contingency the reader would refuse (a NULL "
                                  "or invalid string, a missing element or extension array)");
    for (size_t i = 0; i < c->extension_count; i++) {
        const ctg_extension *x = &c->extensions[i];
        if (x->json == NULL)
            continue;
        if (*scratch == NULL && (*scratch = ctg_arena_new(a)) == NULL)
            return ctg_output_message(w, CTG_ENOMEM, "out of memory");
        int rc = ctg_extension_text_read(*scratch, x->json, x->json_len, NULL, NULL, w);
        if (rc == CTG_ENOMEM)
            return ctg_output_message(w, rc, "out of memory");
        if (rc != CTG_OK) {
            char why[CTG_ERROR_MESSAGE_MAX]; /* the text check's message, quoted in w's */
            memcpy(why, w->message, sizeof why);
            return ctg_error_set(w, CTG_EINVAL, NULL, NULL, "extension \"%.64s\": %.160s",
                                 x->name, why);
        }
    }
    return CTG_OK;
}

/* Whether a valid `c` has no kept extension text: then ctg_contingency_valid was its whole
 * check. */
static bool no_kept_text(const ctg_contingency *c)
{
    for (size_t i = 0; i < c->extension_count; i++) {
        if (c->extensions[i].json != NULL)
            return false;
    }
    return true;
}

/* An add with every check and its error record: ctg_stream_writer_add's general case. */
static int add_checked(ctg_stream_writer *sw, const ctg_contingency *c, ctg_error *err)
{
    ctg_error w = { 0 };
    int rc;

    if (!sw)
        return ctg_output_error(err, &w, ctg_output_message(&w, CTG_EINVAL, "no writer"),
                                "<writer>");
    if ((rc = ctg_write_check_contingency(&sw->scratch, sw->alloc, c, &w)) != CTG_OK)
        return ctg_output_error(err, &w, rc, sw->source);
    if (sw->status == CTG_OK) {
        sw->write(&sw->e, c);
        sw->status = sw->e.status;
    }
    if (sw->status != CTG_OK) {
        w = *sw->e.err;
        return ctg_output_error(err, &w, sw->status, sw->source);
    }
    return CTG_OK;
}

int ctg_stream_writer_add(ctg_stream_writer *sw, const ctg_contingency *c, ctg_error *err)
{
    /* The common case without a ctg_error to clear (some 800 bytes, for each contingency): a
     * valid contingency with no kept text, to a writer that has not failed. */
    if (sw != NULL && sw->status == CTG_OK && ctg_contingency_valid(c) && no_kept_text(c)) {
        sw->write(&sw->e, c);
        sw->status = sw->e.status;
        if (sw->status == CTG_OK)
            return CTG_OK;
    }
    return add_checked(sw, c, err); /* says what failed: nothing is written twice */
}

int ctg_stream_writer_add_valid(ctg_stream_writer *sw, const ctg_contingency *c, ctg_error *err)
{
    if (sw != NULL && sw->status == CTG_OK && c != NULL && c->id != NULL &&
        c->extension_count == 0) {
        sw->write(&sw->e, c);
        sw->status = sw->e.status;
        if (sw->status == CTG_OK)
            return CTG_OK;
    }
    return ctg_stream_writer_add(sw, c, err);
}

int ctg_stream_writer_add_read(ctg_stream_writer *sw, const ctg_stream_header *h,
                               const ctg_contingency *c, ctg_error *err)
{
    /* The reader's own contingency, while it is delivered: every string was checked as it
     * was read (some 15% of a write went to checking it again). With extensions, whose
     * values a read may have skipped, the general case decides. */
    if (h != NULL && c != NULL && h->delivered == c)
        return ctg_stream_writer_add_valid(sw, c, err);
    return ctg_stream_writer_add(sw, c, err);
}

int ctg_stream_writer_close(ctg_stream_writer *sw, ctg_error *err)
{
    ctg_error w = { 0 };
    int rc;

    if (!sw)
        return ctg_output_error(err, &w, ctg_output_message(&w, CTG_EINVAL, "no writer"),
                                "<writer>");
    ctg_write_default_end(&sw->e);
    rc = ctg_emit_finish(&sw->e);
    if (rc != CTG_OK)
        w = *sw->e.err;
    ctg_emit_dispose(&sw->e);
    sw->emitter_ready = false;
    if (rc == CTG_OK)
        rc = ctg_output_commit(&sw->out, &w);
    else
        ctg_output_abort(&sw->out);
    if (rc != CTG_OK)
        ctg_output_error(err, &w, rc, sw->source);
    ctg_arena_release(sw->scratch);
    ctg_mem_release(sw->alloc, sw, sizeof(*sw));
    return rc;
}

void ctg_stream_writer_abort(ctg_stream_writer *sw)
{
    if (!sw)
        return;
    if (sw->emitter_ready)
        ctg_emit_dispose(&sw->e);
    ctg_output_abort(&sw->out);
    ctg_arena_release(sw->scratch);
    ctg_mem_release(sw->alloc, sw, sizeof(*sw));
}

const char *ctg_stream_writer_temp_path(const ctg_stream_writer *sw)
{
    /* Direct outputs have no temporary file; tmp is set only once mkstemp made it. */
    return sw && sw->out.tmp && !sw->out.direct ? sw->out.tmp : NULL;
}
