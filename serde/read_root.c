/* The root of a document: which list kind it is, its common fields, and the version policy.
 *
 * Unlike PowSyBl's dispatcher, which only starts interpreting the object at "type" (and so
 * loses a "version" written before it), the root accepts its fields in any order: the kind is
 * taken from "type" or, failing that, from the first field only one kind has. */

#include "serde/read_root.h"

#include <string.h>

#include "model/list_impl.h"
#include "serde/read_default.h"
#include "serde/version.h"

enum { RK_TYPE, RK_VERSION, RK_NAME, RK_CONTINGENCIES, RK_COUNT };
static const ctg_key root_keys[] = { CTG_KEY("type"), CTG_KEY("version"), CTG_KEY("name"),
                                     CTG_KEY("contingencies") };

typedef struct kind_info {
    const char *name;
    const char *version;  /* newest known */
    unsigned own_keys;    /* RK_* bits only this kind accepts */
    bool supported;
} kind_info;

static const kind_info kinds[CTG_LIST_KIND_COUNT] = {
    [CTG_LIST_DEFAULT] = { "default", CTG_VERSION_DEFAULT, 1u << RK_CONTINGENCIES, true },
    [CTG_LIST_LIST] = { "list", CTG_VERSION_LIST, 0, false },
    [CTG_LIST_IDENTIFIER] = { "identifier", CTG_VERSION_IDENTIFIER, 0, false },
    [CTG_LIST_INJECTION_CRITERION] = { "injectionCriterion", CTG_VERSION_CRITERION, 0, false },
    [CTG_LIST_LINE_CRITERION] = { "lineCriterion", CTG_VERSION_CRITERION, 0, false },
    [CTG_LIST_HVDC_CRITERION] = { "hvdcCriterion", CTG_VERSION_CRITERION, 0, false },
    [CTG_LIST_TIE_LINE_CRITERION] = { "tieLineCriterion", CTG_VERSION_CRITERION, 0, false },
    [CTG_LIST_TWT_CRITERION] = { "twoWindingsTransformerCriterion", CTG_VERSION_CRITERION, 0,
                                 false },
    [CTG_LIST_THREE_WT_CRITERION] = { "threeWindingsTransformerCriterion",
                                      CTG_VERSION_CRITERION, 0, false },
};

typedef struct root_ctx {
    ctg_list *list;
    int kind;             /* -1 until known */
    bool kind_from_type;  /* known from "type" rather than inferred from a field */
    ctg_mark version_mark;
} root_ctx;

static int find_kind(const char *s, size_t len)
{
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++)
        if (strnlen(kinds[k].name, len + 1) == len && memcmp(kinds[k].name, s, len) == 0)
            return k;
    return -1;
}

static int read_type(ctg_reader *rd, root_ctx *rc)
{
    int k;

    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    k = find_kind(rd->tok.str, rd->tok.len);
    if (k < 0)
        return ctg_reader_fail(rd, CTG_EUNSUPPORTED, "unknown list type \"%.*s\"",
                               (int)rd->tok.len, rd->tok.str);
    if (rc->kind >= 0 && rc->kind != k)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "type \"%s\" does not match the fields of a "
                               "\"%s\" list read before it", kinds[k].name, kinds[rc->kind].name);
    if (!kinds[k].supported)
        return ctg_reader_fail(rd, CTG_EUNSUPPORTED, "list type \"%s\" is not supported yet",
                               kinds[k].name);
    rc->kind = k;
    rc->kind_from_type = true;
    rc->list->kind = (ctg_list_kind)k;
    return CTG_OK;
}

static int read_version(ctg_reader *rd, root_ctx *rc)
{
    int err = ctg_read_string(rd, &rc->list->version, "version");

    if (err == CTG_OK) {
        rc->version_mark = ctg_reader_mark(rd);
        ctg_gate_set_version(rd, rc->list->version);
    }
    return err;
}

/* A field only some kinds have: it fixes the kind when "type" has not been read yet. */
static int claim_kind(ctg_reader *rd, root_ctx *rc, unsigned index)
{
    int k;

    if (rc->kind >= 0) {
        if (kinds[rc->kind].own_keys & (1u << index))
            return CTG_OK;
        return ctg_reader_fail(rd, CTG_ESCHEMA, "field \"%s\" is not valid in a \"%s\" list",
                               root_keys[index].name, kinds[rc->kind].name);
    }
    for (k = 0; k < CTG_LIST_KIND_COUNT && !(kinds[k].own_keys & (1u << index)); k++)
        ;
    rc->kind = k;
    rc->list->kind = (ctg_list_kind)k;
    return CTG_OK;
}

static int root_field(ctg_reader *rd, unsigned index, void *ctx)
{
    root_ctx *rc = ctx;
    int err;

    switch (index) {
    case RK_TYPE:
        return read_type(rd, rc);
    case RK_VERSION:
        return read_version(rd, rc);
    case RK_NAME:
        return ctg_read_string(rd, &rc->list->name, "name");
    default:
        if ((err = claim_kind(rd, rc, index)) != CTG_OK)
            return err;
        return ctg_read_contingency_array(rd, &rc->list->items, &rc->list->count);
    }
}

static const ctg_object_def root_def = { root_keys, RK_COUNT, root_field };

static int check_version(ctg_reader *rd, const root_ctx *rc)
{
    const char *v = rc->list->version;
    const char *newest = kinds[rc->kind].version;

    if (v && !(rd->flags & CTG_READ_ALLOW_NEWER) && ctg_version_compare(v, strlen(v), newest) > 0)
        return ctg_reader_fail_at(rd, &rc->version_mark, "version", CTG_EUNSUPPORTED,
                                  "version %s is newer than %s, the newest this library reads "
                                  "for \"%s\" lists", v, newest, kinds[rc->kind].name);
    return CTG_OK;
}

static int finish_root(ctg_reader *rd, root_ctx *rc, const ctg_mark *start, unsigned seen)
{
    int err;

    if (rc->kind < 0)
        return ctg_reader_missing(rd, start, "type");
    if (!(seen & (1u << RK_NAME)))
        return ctg_reader_missing(rd, start, "name");
    if ((err = check_version(rd, rc)) != CTG_OK)
        return err;
    if (!(rd->gate & CTG_GATE_KNOWN))
        ctg_gate_set_version(rd, CTG_VERSION_DEFAULT); /* absent: the current version */
    return ctg_gate_check_deferred(rd);
}

int ctg_read_root(ctg_reader *rd, ctg_list *list)
{
    root_ctx rc = { list, -1, false, { 0, 0, 0 } };
    ctg_mark start;
    unsigned seen;
    int err;

    if ((err = ctg_reader_next(rd)) != CTG_OK)
        return err;
    start = ctg_reader_mark(rd);
    if ((err = ctg_read_object(rd, &root_def, &rc, &seen)) != CTG_OK)
        return err;
    if ((err = finish_root(rd, &rc, &start, seen)) != CTG_OK)
        return err;
    if ((err = ctg_reader_next(rd)) != CTG_OK)
        return err;
    return rd->tok.type == CTG_TOK_EOF ? CTG_OK
                                       : ctg_reader_fail(rd, CTG_ESYNTAX, "trailing content");
}
