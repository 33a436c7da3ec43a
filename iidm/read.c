/* SPDX-License-Identifier: MPL-2.0 */
/* The public network read: checks the options, opens the source (gzip undone by its magic),
 * tells XML from JSON by the first byte after whitespace and a UTF-8 BOM, and hands the
 * bytes, from the first, to the XIIDM or JIIDM importer. */

#include <stdint.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "iidm/iidm_internal.h"
#include "io/source.h"

/* The deepest nesting a caller may ask for: the importers keep no stack per level, but a
 * limit above this says the options are wrong. */
#define IIDM_MAX_DEPTH_LIMIT ((size_t)1 << 20)
/* Bytes of a refilled input looked at to tell XML from JSON. */
#define PEEK_CAP ((size_t)4096)

int ctg_iidm_progress(const ctg_iidm_input *in, size_t consumed, ctg_error *err)
{
    const ctg_iidm_read_options *o = in->opts;

    if (o->progress && o->progress(consumed, in->size_hint, o->payload) != 0)
        return ctg_error_set(err, CTG_ESTOPPED, NULL, "", "stopped by the progress callback");
    return CTG_OK;
}

/* The options with their zero limits made the defaults; false when they are not valid. */
static bool complete_options(const ctg_iidm_read_options *in, ctg_iidm_read_options *o)
{
    if (in)
        *o = *in;
    else
        memset(o, 0, sizeof *o);
    if (o->version > CTG_IIDM_READ_OPTIONS_VERSION || o->format < CTG_IIDM_AUTO ||
        o->format > CTG_IIDM_JSON || o->max_depth > IIDM_MAX_DEPTH_LIMIT)
        return false;
    o->max_depth = o->max_depth ? o->max_depth : 256;
    o->max_name_len = o->max_name_len ? o->max_name_len : 1024;
    o->max_value_len = o->max_value_len ? o->max_value_len : (size_t)1 << 20;
    o->max_document_size = o->max_document_size ? o->max_document_size : SIZE_MAX;
    return true;
}

/* The format the bytes at `p` start with: '{' after whitespace (and a BOM) is JSON, anything
 * else is XML, whose parser then says what is wrong. */
static ctg_iidm_format sniff(const char *p, size_t n)
{
    size_t i = 0;

    if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i < n && p[i] == '{' ? CTG_IIDM_JSON : CTG_IIDM_XML;
}

/* A refilled input whose first bytes were read to sniff them: they are handed out again
 * first, then the rest. */
typedef struct replay {
    const ctg_lex_source *inner;
    char buf[PEEK_CAP];
    size_t len;
    size_t pos;
} replay;

static int replay_refill(void *ctx, char *dst, size_t cap, size_t *got, ctg_error *err)
{
    replay *rp = ctx;

    if (rp->pos < rp->len) {
        size_t n = rp->len - rp->pos < cap ? rp->len - rp->pos : cap;
        memcpy(dst, rp->buf + rp->pos, n);
        rp->pos += n;
        *got = n;
        return CTG_OK;
    }
    return rp->inner->refill(rp->inner->ctx, dst, cap, got, err);
}

/* Whether the `n` bytes at `p` hold a byte other than whitespace after a BOM. */
static bool decided(const char *p, size_t n)
{
    size_t i = 0;

    if (n < 3 && memcmp(p, "\xEF\xBB\xBF", n) == 0)
        return false;
    if (memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i < n;
}

/* Reads into the replay buffer until its first significant byte, the end or PEEK_CAP. */
static int peek(replay *rp, ctg_error *err)
{
    size_t got;

    do {
        got = 0;
        int rc =
            rp->inner->refill(rp->inner->ctx, rp->buf + rp->len, PEEK_CAP - rp->len, &got, err);
        if (rc != CTG_OK)
            return rc;
        if (got > PEEK_CAP - rp->len)
            return ctg_error_set(err, CTG_EIO, NULL, "", "read callback overran its buffer");
        rp->len += got;
    } while (got != 0 && rp->len < PEEK_CAP && !decided(rp->buf, rp->len));
    return CTG_OK;
}

int ctg_iidm_sniffed(const ctg_lex_source *src, const ctg_allocator *a, ctg_iidm_sniffed_fn fn,
                     void *ctx, ctg_error *err)
{
    static const ctg_error_place start = { 0, 1, 1 };

    if (!src->refill)
        return fn(ctx, src, sniff(src->data, src->len), err);
    replay *rp = ctg_mem_alloc(a, sizeof *rp);
    if (!rp)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    rp->inner = src;
    rp->len = rp->pos = 0;
    int rc = peek(rp, err);
    /* A refill fills only the message (the lexer, which is not running yet, the rest); corrupt
     * data is at the start of the document, as the list reader places it. */
    if (rc != CTG_OK)
        ctg_error_set(err, rc, rc == CTG_ESYNTAX ? &start : NULL, "", NULL);
    if (rc == CTG_OK) {
        ctg_lex_source again = { NULL, 0, replay_refill, rp };
        rc = fn(ctx, &again, sniff(rp->buf, rp->len), err);
    }
    ctg_mem_release(a, rp, sizeof *rp);
    return rc;
}

/* What read_input hands the importer it picks. */
typedef struct dispatch_ctx {
    ctg_network **out;
    ctg_iidm_input *in;
} dispatch_ctx;

/* The importer of the format the options force, else of the one the bytes start with. */
static int dispatch(void *ctx, const ctg_lex_source *src, ctg_iidm_format sniffed, ctg_error *err)
{
    dispatch_ctx *d = ctx;
    ctg_iidm_format f = d->in->opts->format ? d->in->opts->format : sniffed;

    d->in->src = src;
    return f == CTG_IIDM_JSON ? ctg_jiidm_read(d->out, d->in, err)
                              : ctg_xiidm_read(d->out, d->in, err);
}

/* Reads from the opened input: the format told, refilled bytes peeked at replayed. */
static int read_input(ctg_network **out, ctg_input *in, const ctg_iidm_read_options *o,
                      ctg_error *err)
{
    const ctg_lex_source *src = ctg_input_lex_source(in);
    ctg_iidm_input ii = { src, ctg_input_name(in), ctg_input_size_hint(in), o };
    ctg_visitor progress = CTG_VISITOR_INIT;
    dispatch_ctx d = { out, &ii };
    int rc;

    progress.progress = o->progress;
    progress.payload = o->payload;
    ctg_input_set_progress(in, src->refill && o->progress ? &progress : NULL);
    rc = ctg_iidm_sniffed(src, o->allocator, dispatch, &d, err);
    ctg_input_set_progress(in, NULL);
    return rc;
}

int ctg_iidm_read(ctg_network **out, const ctg_source *src, const ctg_iidm_read_options *opts,
                  ctg_error *err)
{
    ctg_error scratch;
    ctg_iidm_read_options o;
    ctg_input *in;
    char own[64];
    int rc;

    err = err ? err : &scratch;
    if (out)
        *out = NULL;
    if (!out)
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL,
                                   "no place for the network (out is NULL)");
    if (!src)
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL, "NULL source");
    if (!complete_options(opts, &o))
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL,
                                   "unknown read options version or format, "
                                   "or max_depth above 1048576");
    rc = ctg_input_open(&in, src, o.allocator, err);
    if (rc != CTG_OK)
        return ctg_error_set_plain(
            err, o.source_name ? o.source_name : ctg_source_name(src, own, sizeof own), rc, NULL);
    rc = read_input(out, in, &o, err);
    if (rc != CTG_OK)
        ctg_error_set_source(err, o.source_name ? o.source_name : ctg_input_name(in));
    ctg_input_close(in);
    return rc;
}
