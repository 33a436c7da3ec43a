/* SPDX-License-Identifier: MPL-2.0 */
/* The `list` kind: lists nested in a list, each read as a root object of its own. */

#include "model/list_impl.h"
#include "format/default.h"
#include "format/root.h"
#include "format/version.h"
#include <string.h>
#include "ctg/error.h"
#include "format/write_kinds.h"
#include "format/write.h"

static int read_child(ctg_reader *rd, void *out)
{
    ctg_list *child = ctg_list_alloc_in(rd->arena, CTG_LIST_DEFAULT, "");

    if (!child)
        return ctg_reader_nomem(rd);
    *(ctg_list **)out = child;
    return ctg_read_list_object(rd, child, true);
}

CTG_HANDLER_DEFINE(static, child_handler, "list-item", ctg_list *, read_child);

static int list_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    void *items;
    int rc;

    (void)key; /* "contingencyLists" is its only own key */
    rc = ctg_read_array(rd, &child_handler, &items, &list->child_count);
    list->children = items;
    return rc;
}

const ctg_kind_reader ctg_kind_list = {
    CTG_VERSION_LIST, CTG_RK_BIT(CTG_RK_CONTINGENCY_LISTS), CTG_RK_BIT(CTG_RK_CONTINGENCY_LISTS),
    list_field, NULL,
};

/* ==== writing ==================================================================== */

/* The `list` kind (spec 1.2): its nested lists, each written by its own kind's writer. */



/* As deep as the reader takes: each level opens an object and an array, well within the
 * emitter's depth. Checking first also bounds the recursion for lists built in code, which
 * have no depth limit of their own. */
#define MAX_NESTING CTG_LIST_MAX_NESTING
_Static_assert(2 * MAX_NESTING + 16 < CTG_EMIT_MAX_DEPTH, "nested lists fit the emitter");

/* CTG_EINVAL when something below `list` cannot be written as a `list` item. */
static int check_tree(const ctg_list *list, size_t depth)
{
    size_t n = ctg_list_child_count(list);

    if (depth > MAX_NESTING)
        return CTG_EINVAL;
    for (size_t i = 0; i < n; i++) {
        const ctg_list *child = ctg_list_child_at(list, i);
        ctg_list_kind kind = ctg_list_get_kind(child);
        int rc;

        if (kind == CTG_LIST_CONTINGENCY || kind >= CTG_LIST_KIND_COUNT)
            return CTG_EINVAL;
        if (kind == CTG_LIST_LIST && (rc = check_tree(child, depth + 1)) != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

static void emit_str(ctg_emitter *e, const char *s)
{
    ctg_emit_string(e, s, strlen(s));
}

int ctg_write_list_of_lists(ctg_emitter *e, const ctg_list *list)
{
    size_t n = ctg_list_child_count(list);
    int rc;

    if (ctg_list_get_kind(list) != CTG_LIST_LIST || (rc = check_tree(list, 0)) != CTG_OK)
        return CTG_EINVAL;
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "type");
    emit_str(e, ctg_list_kind_name(CTG_LIST_LIST));
    CTG_EMIT_KEY(e, "version");
    emit_str(e, CTG_VERSION_LIST);
    CTG_EMIT_KEY(e, "name");
    emit_str(e, ctg_list_name(list));
    CTG_EMIT_KEY(e, "contingencyLists");
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++) {
        const ctg_list *child = ctg_list_child_at(list, i);
        /* A child that cannot be written stops the whole write with its status. */
        rc = ctg_list_get_kind(child) == CTG_LIST_LIST ? ctg_write_list_of_lists(e, child)
                                                       : ctg_write_list_json(e, child);
        if (rc != CTG_OK)
            return rc;
    }
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
    return CTG_OK;
}
