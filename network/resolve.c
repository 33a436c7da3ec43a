/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_resolve: the evaluation's entry point, its state (path, reports, scratch memory) and the
 * dispatch by list kind, in the order of the spec's section 7. */

#include <stdio.h>
#include <string.h>

#include "ctg/extension.h"
#include "base/alloc.h"
#include "network/resolve_int.h"

void ctg_rs_init(rs_ctx *ctx, const ctg_network *net, const ctg_resolve_options *opts,
                 ctg_error *err)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->net = net;
    ctx->err = err;
    if (opts != NULL) {
        ctx->alloc = opts->allocator;
        ctx->report = opts->report;
        ctx->payload = opts->payload;
    }
}

void ctg_rs_dispose(rs_ctx *ctx)
{
    ctg_mem_release(ctx->alloc, ctx->elems, ctx->elem_cap * sizeof *ctx->elems);
    ctg_mem_release(ctx->alloc, ctx->objs, ctx->obj_cap * sizeof *ctx->objs);
    ctg_mem_release(ctx->alloc, ctx->stamps, ctx->stamp_count * sizeof *ctx->stamps);
    ctg_mem_release(ctx->alloc, ctx->text, ctx->text_cap);
    ctg_mem_release(ctx->alloc, ctx->buses.slots, (ctx->buses.mask + 1) * sizeof(char *));
    memset(ctx, 0, sizeof *ctx);
}

/* Appends "/" and `len` bytes that need no escaping, when they fit; else through the escaping,
 * cutting append of error_set.h. Paths are built for every item, used only on failure: the
 * common case must cost a copy, not a formatted print. */
static size_t push_plain(rs_ctx *ctx, const char *seg, size_t len)
{
    size_t old = ctx->path_len;

    if (old + 1 + len < CTG_ERROR_PATH_MAX) {
        ctx->path[old] = '/';
        memcpy(ctx->path + old + 1, seg, len);
        ctx->path_len = old + 1 + len;
        ctx->path[ctx->path_len] = '\0';
    } else {
        ctx->path_len = ctg_error_path_append(ctx->path, old, seg, len);
    }
    return old;
}

size_t ctg_rs_path_push(rs_ctx *ctx, const char *seg)
{
    size_t len = strlen(seg);

    if (memchr(seg, '~', len) != NULL || memchr(seg, '/', len) != NULL) {
        size_t old = ctx->path_len;

        ctx->path_len = ctg_error_path_append(ctx->path, old, seg, len);
        return old;
    }
    return push_plain(ctx, seg, len);
}

size_t ctg_rs_path_push_index(rs_ctx *ctx, size_t index)
{
    char num[24];
    size_t i = sizeof num;

    do {
        num[--i] = (char)('0' + index % 10);
        index /= 10;
    } while (index > 0);
    return push_plain(ctx, num + i, sizeof num - i);
}

void ctg_rs_path_pop(rs_ctx *ctx, size_t len)
{
    ctx->path_len = len;
    ctx->path[len] = '\0';
}

int ctg_rs_fail(rs_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = ctg_error_vset(ctx->err, CTG_ESCHEMA, NULL, ctx->path, fmt, ap);
    va_end(ap);
    return rc;
}

int ctg_rs_nomem(rs_ctx *ctx)
{
    return ctg_error_set(ctx->err, CTG_ENOMEM, NULL, ctx->path, "out of memory");
}

int ctg_rs_report(rs_ctx *ctx, ctg_resolve_event_kind kind, const char *contingency_id,
                  const char *element_id, ctg_element_type type, const char *fmt, ...)
{
    char message[CTG_ERROR_MESSAGE_MAX];
    ctg_resolve_event ev;
    va_list ap;

    if (ctx->report == NULL)
        return CTG_OK;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    ev.kind = kind;
    ev.path = ctx->path;
    ev.contingency_id = contingency_id;
    ev.element_id = element_id;
    ev.element_type = type;
    ev.message = message;
    if (ctx->report(&ev, ctx->payload) != 0)
        return ctg_error_set(ctx->err, CTG_ESTOPPED, NULL, ctx->path,
                             "stopped by the report callback");
    return CTG_OK;
}

/* Grows the array at *p (cap items of `size` bytes) to hold `need` items. */
static bool grow(const ctg_allocator *a, void **p, size_t *cap, size_t need, size_t size)
{
    size_t ncap, bytes;
    void *np;

    if (need <= *cap)
        return true;
    if (!ctg_grow_capacity(*cap, need, 16, SIZE_MAX / size, &ncap))
        return false;
    bytes = ncap * size;
    np = ctg_mem_resize(a, *p, *cap * size, bytes);
    if (np == NULL)
        return false;
    *p = np;
    *cap = ncap;
    return true;
}

bool ctg_rs_elems_room(rs_ctx *ctx, size_t n)
{
    return grow(ctx->alloc, (void **)&ctx->elems, &ctx->elem_cap, n, sizeof *ctx->elems);
}

bool ctg_rs_objs_push(rs_ctx *ctx, const ctg_net_object *obj)
{
    if (!grow(ctx->alloc, (void **)&ctx->objs, &ctx->obj_cap, ctx->obj_len + 1,
              sizeof *ctx->objs))
        return false;
    ctx->objs[ctx->obj_len++] = obj;
    return true;
}

bool ctg_rs_text_append(rs_ctx *ctx, const char *s, size_t len)
{
    size_t need;

    if (!ctg_size_add(ctx->text_len, len + 1, &need) ||
        !grow(ctx->alloc, (void **)&ctx->text, &ctx->text_cap, need, 1))
        return false;
    memcpy(ctx->text + ctx->text_len, s, len);
    ctx->text_len += len;
    ctx->text[ctx->text_len] = '\0';
    return true;
}

/* The stamps are made on first use: an evaluation without LIST or equipment identifiers
 * never pays for an array the size of the network. */
int ctg_rs_set_begin(rs_ctx *ctx)
{
    size_t n = ctg_network_object_count(ctx->net);

    ctx->obj_len = 0;
    if (ctx->stamp_count < n) {
        size_t bytes;
        uint32_t *s;

        if (!ctg_size_mul(n, sizeof *s, &bytes) || (s = ctg_mem_alloc(ctx->alloc, bytes)) == NULL)
            return ctg_rs_nomem(ctx);
        memset(s, 0, bytes);
        ctg_mem_release(ctx->alloc, ctx->stamps, ctx->stamp_count * sizeof *s);
        ctx->stamps = s;
        ctx->stamp_count = n;
        ctx->stamp = 0;
    }
    if (++ctx->stamp == 0) { /* wrapped: old stamps could look current */
        memset(ctx->stamps, 0, ctx->stamp_count * sizeof *ctx->stamps);
        ctx->stamp = 1;
    }
    return CTG_OK;
}

int ctg_rs_objs_add_unique(rs_ctx *ctx, const ctg_net_object *obj)
{
    uint32_t i = obj->doc_index;

    if (i < ctx->stamp_count) {
        if (ctx->stamps[i] == ctx->stamp)
            return CTG_OK;
        ctx->stamps[i] = ctx->stamp;
    }
    return ctg_rs_objs_push(ctx, obj) ? CTG_OK : ctg_rs_nomem(ctx);
}

/* A `list` list: its lists in order, each resolved by its kind, as blocks. */
static int resolve_lists(rs_ctx *ctx, const ctg_list *list)
{
    size_t n = ctg_list_child_count(list);

    for (size_t i = 0; i < n; i++) {
        size_t mark = ctg_rs_path_push(ctx, "contingencyLists");
        int rc;

        ctg_rs_path_push_index(ctx, i);
        rc = ctg_rs_list(ctx, ctg_list_child_at(list, i));
        ctg_rs_path_pop(ctx, mark);
        if (rc != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

int ctg_rs_list(rs_ctx *ctx, const ctg_list *list)
{
    switch (ctg_list_get_kind(list)) {
    case CTG_LIST_DEFAULT:
    case CTG_LIST_CONTINGENCY:
        return ctg_rs_default(ctx, list);
    case CTG_LIST_LIST:
        return resolve_lists(ctx, list);
    case CTG_LIST_IDENTIFIER:
        return ctg_rs_identifier(ctx, list);
    case CTG_LIST_INJECTION_CRITERION:
    case CTG_LIST_LINE_CRITERION:
    case CTG_LIST_HVDC_CRITERION:
    case CTG_LIST_TIE_LINE_CRITERION:
    case CTG_LIST_TWT_CRITERION:
    case CTG_LIST_THREE_WT_CRITERION:
        return ctg_rs_criterion(ctx, list);
    default:
        return ctg_error_set(ctx->err, CTG_EINVAL, NULL, ctx->path, "unknown list kind %d",
                             (int)ctg_list_get_kind(list));
    }
}

/* A contingency without extensions (every produced one) skips the extension copy. */
static int add_to_list(void *target, const ctg_contingency *c, ctg_error *err)
{
    int rc = c->extension_count == 0
                 ? ctg_list_add_contingency(target, c->id, c->name, c->elements, c->element_count)
                 : ctg_list_add_contingency_copy(target, c);

    if (rc == CTG_ENOMEM)
        return ctg_error_set(err, rc, NULL, NULL, "out of memory");
    if (rc != CTG_OK)
        return ctg_error_set(err, rc, NULL, NULL, "contingency \"%.64s\" cannot be copied",
                             c->id);
    return CTG_OK;
}

int ctg_rs_finish(ctg_error *err, int rc, const char *source)
{
    if (rc != CTG_OK)
        ctg_error_set_source(err, source);
    return rc;
}

/* Checks what ctg_resolve and ctg_resolve_check are given. */
int ctg_rs_check_args(const ctg_network *net, const void *what,
                      const ctg_resolve_options *opts, ctg_error *err)
{
    if (net == NULL || what == NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL network or list");
    if (opts != NULL && opts->version > CTG_RESOLVE_OPTIONS_VERSION)
        return ctg_error_set(err, CTG_EINVAL, NULL, "",
                             "resolve options version %u is newer than this library's (%u)",
                             opts->version, (unsigned)CTG_RESOLVE_OPTIONS_VERSION);
    return CTG_OK;
}

int ctg_resolve(ctg_list **out, const ctg_network *net, const ctg_list *list,
                const ctg_resolve_options *opts, ctg_error *err)
{
    ctg_error local;
    ctg_list *res = NULL;
    rs_ctx ctx;
    int rc;

    if (err == NULL)
        err = &local;
    if (out == NULL)
        return ctg_rs_finish(err, ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL out"), "<list>");
    *out = NULL;
    rc = ctg_rs_check_args(net, list, opts, err);
    if (rc != CTG_OK)
        return ctg_rs_finish(err, rc, "<list>");
    rc = ctg_list_new(&res, CTG_LIST_DEFAULT, ctg_list_name(list),
                      opts != NULL ? opts->allocator : NULL);
    if (rc != CTG_OK)
        return ctg_rs_finish(err, ctg_error_set(err, rc, NULL, "", "out of memory"), "<list>");
    ctg_rs_init(&ctx, net, opts, err);
    ctx.sink.add = add_to_list;
    ctx.sink.target = res;
    ctx.sink.list = res;
    rc = ctg_rs_list(&ctx, list);
    ctg_rs_dispose(&ctx);
    if (rc != CTG_OK) {
        ctg_list_free(res);
        return ctg_rs_finish(err, rc, "<list>");
    }
    *out = res;
    return CTG_OK;
}
