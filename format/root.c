/* SPDX-License-Identifier: MPL-2.0 */
/* The root of a document and of every nested list: which kind it is, the fields all kinds
 * share ("type", "version", "name"), and the version policy. Kind-specific fields go to the
 * kind's reader (its entry of ctg_kinds). */

#include "format/root.h"

#include <string.h>

#include "model/list_impl.h"
#include "format/default.h"
#include "format/kinds.h"
#include "format/scope.h"
#include "format/version.h"

typedef struct root_ctx {
    ctg_list *list;
    int kind;              /* -1 until known */
    bool nested;
    bool name_null;        /* "name": null, an error for every kind but a contingency */
    ctg_mark name_mark;
    ctg_scope *scope;      /* the list's: its version, version rules and stream header */
} root_ctx;

static void set_kind(root_ctx *rc, int k)
{
    rc->kind = k;
    rc->list->kind = (ctg_list_kind)k;
    rc->scope->header.kind = (ctg_list_kind)k;
}

static int read_type(ctg_reader *rd, root_ctx *rc)
{
    ctg_list_kind k;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    /* A bare contingency has no "type": it cannot be named by one. */
    if (!ctg_list_kind_from_name(rd->tok.str, rd->tok.len, &k))
        return ctg_reader_fail(rd, CTG_EUNSUPPORTED, "unknown list type \"%.*s\"",
                               (int)rd->tok.len, rd->tok.str);
    if (rc->kind >= 0 && rc->kind != (int)k)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "type \"%s\" does not match the fields of a \"%s\" read before it",
                               ctg_list_kind_name(k),
                               ctg_list_kind_name((ctg_list_kind)rc->kind));
    set_kind(rc, (int)k);
    return CTG_OK;
}

static int read_version(ctg_reader *rd, root_ctx *rc)
{
    int err = ctg_read_string(rd, &rc->list->version, "version");

    if (err == CTG_OK) {
        ctg_mark m = ctg_reader_mark(rd);
        ctg_scope_set_version(rd, rc->list->version, &m);
    }
    return err;
}

static int read_name(ctg_reader *rd, root_ctx *rc)
{
    int err;

    rc->name_mark = ctg_reader_mark(rd);
    rc->name_null = rd->tok.type == CTG_TOK_NULL;
    if (rc->kind == CTG_LIST_CONTINGENCY || (rc->kind < 0 && rc->name_null))
        err = ctg_read_opt_string(rd, &rc->list->name, "name");
    else
        err = ctg_read_string(rd, &rc->list->name, "name");
    rc->scope->header.name = rc->list->name;
    return err;
}

/* The kind a key met before "type" implies, or -1 when it implies none (or several). */
static int infer_kind(unsigned key, bool nested)
{
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++)
        if (ctg_kinds[k].infer_keys & CTG_RK_BIT(key))
            return nested && k == CTG_LIST_CONTINGENCY ? -1 : k;
    return -1;
}

static int own_field(ctg_reader *rd, root_ctx *rc, unsigned key)
{
    if (rc->kind < 0) {
        int k = infer_kind(key, rc->nested);
        if (k < 0)
            return ctg_reader_fail(rd, CTG_ESCHEMA, "field \"%s\" needs \"type\" before it",
                                   ctg_root_keys[key].name);
        set_kind(rc, k);
    }
    if (!(ctg_kinds[rc->kind].own_keys & CTG_RK_BIT(key)))
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown field \"%s\" in a \"%s\"",
                               ctg_root_keys[key].name, ctg_list_kind_name(rc->list->kind));
    return ctg_kinds[rc->kind].field(rd, rc->list, key);
}

static int root_field(ctg_reader *rd, unsigned index, void *ctx)
{
    root_ctx *rc = ctx;

    switch (index) {
    case CTG_RK_TYPE:
        return read_type(rd, rc);
    case CTG_RK_VERSION:
        return read_version(rd, rc);
    case CTG_RK_NAME:
        return read_name(rd, rc);
    default:
        return own_field(rd, rc, index);
    }
}

static const ctg_object_def root_def = { ctg_root_keys, CTG_RK_COUNT, root_field };

static int check_version(ctg_reader *rd, const root_ctx *rc)
{
    const char *v = rc->list->version;
    const char *newest = ctg_kinds[rc->kind].newest;

    if (v && !(rd->flags & CTG_READ_ALLOW_NEWER) && ctg_version_compare(v, strlen(v), newest) > 0)
        return ctg_reader_fail_at(rd, &rc->scope->version_mark, "version", CTG_EUNSUPPORTED,
                                  "version %s is newer than %s, the newest this library reads "
                                  "for \"%s\" lists", v, newest,
                                  ctg_list_kind_name(rc->list->kind));
    return CTG_OK;
}

static int finish_list(ctg_reader *rd, root_ctx *rc, const ctg_mark *start, unsigned seen)
{
    const ctg_kind *kr;
    int err;

    if (rc->kind < 0)
        return ctg_reader_missing(rd, start, "type");
    kr = &ctg_kinds[rc->kind];
    if (rc->kind != CTG_LIST_CONTINGENCY) {
        if (!(seen & CTG_RK_BIT(CTG_RK_NAME)))
            return ctg_reader_missing(rd, start, "name");
        if (rc->name_null)
            return ctg_reader_fail_at(rd, &rc->name_mark, NULL, CTG_ESCHEMA,
                                      "expected string for \"name\", got null");
    }
    if ((err = check_version(rd, rc)) != CTG_OK)
        return err;
    if (kr->finish && (err = kr->finish(rd, rc->list, start, seen)) != CTG_OK)
        return err;
    /* The version may have come after what its rules apply to: they are judged now. A list
     * without one reads as its kind's current version (a bare contingency: `default`'s). */
    return ctg_scope_judge(rd, kr->version ? kr->version : kr->newest);
}

/* Streaming: lists that are neither `default` nor `list` are delivered whole, a bare
 * contingency as a contingency. */
static int deliver_whole(ctg_reader *rd, const root_ctx *rc)
{
    const ctg_visitor *v = ctg_format_of(rd)->visitor;
    ctg_list_kind k = rc->list->kind;

    if (k == CTG_LIST_CONTINGENCY)
        return ctg_deliver_bare_contingency(rd, rc->list);
    if (!v || !v->list || k == CTG_LIST_DEFAULT || k == CTG_LIST_LIST)
        return CTG_OK;
    if (v->list(&rc->scope->header, rc->list, v->payload) != 0)
        return ctg_reader_fail(rd, CTG_ESTOPPED, "stopped by the visitor");
    return CTG_OK;
}

/* Streaming, visitor version 2: the list has ended, its header complete. */
static int deliver_end(ctg_reader *rd, const root_ctx *rc)
{
    const ctg_visitor *v = ctg_format_of(rd)->visitor;

    if (!v || v->version < 2 || !v->list_end)
        return CTG_OK;
    if (v->list_end(&rc->scope->header, v->payload) != 0)
        return ctg_reader_fail(rd, CTG_ESTOPPED, "stopped by the visitor");
    return CTG_OK;
}

int ctg_read_list_object(ctg_reader *rd, ctg_list *list, bool nested)
{
    ctg_scope scope;
    root_ctx rc = { list, -1, nested, false, { 0, 0, 0 }, &scope };
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen;
    int err;

    /* Everything the list's fields set goes to its scope, gone with it on every way out. */
    err = ctg_scope_push(rd, &scope, nested ? ctg_reader_top_frame(rd)->index : 0);
    if (err != CTG_OK)
        return err;
    if ((err = ctg_read_object(rd, &root_def, &rc, &seen)) != CTG_OK)
        goto done;
    if ((err = finish_list(rd, &rc, &start, seen)) != CTG_OK)
        goto done;
    if ((err = deliver_whole(rd, &rc)) != CTG_OK)
        goto done;
    err = deliver_end(rd, &rc);
done:
    ctg_scope_pop(rd, &scope);
    return err;
}

int ctg_read_root(ctg_reader *rd, ctg_list *list)
{
    int err;

    if ((err = ctg_reader_next(rd)) != CTG_OK)
        return err;
    if ((err = ctg_read_list_object(rd, list, false)) != CTG_OK)
        return err;
    if ((err = ctg_reader_next(rd)) != CTG_OK)
        return err;
    return rd->tok.type == CTG_TOK_EOF ? CTG_OK
                                       : ctg_reader_fail(rd, CTG_ESYNTAX, "trailing content");
}
