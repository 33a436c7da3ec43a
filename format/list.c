/* SPDX-License-Identifier: MPL-2.0 */
/* The `list` kind (spec 1.2): lists nested in a list, each read as a root object of its own
 * and written by its own kind's writer. */

#include "ctg/error.h"
#include "model/list_impl.h"
#include "format/kinds.h"
#include "format/registry.h"
#include "format/root.h"

static int read_child(ctg_reader *rd, void *out)
{
    ctg_list *child = ctg_list_alloc_in(rd->arena, CTG_LIST_DEFAULT, "");

    if (!child)
        return ctg_reader_nomem(rd);
    *(ctg_list **)out = child;
    return ctg_read_list_object(rd, child, true);
}

CTG_HANDLER_DEFINE(, ctg_list_item_handler, "list-item", ctg_list *, read_child);

int ctg_list_list_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    const ctg_handler *h = ctg_reader_handler(rd, CTG_HANDLER_LIST_ITEM);
    void *items;
    int rc;

    (void)key; /* "contingencyLists" is its only own key */
    rc = ctg_read_array(rd, h, &items, &list->child_count);
    list->children = items;
    return rc;
}

/* ==== writing ==================================================================== */

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

/* Each child goes through ctg_write_list_json (kinds.c); a `list` child comes back here
 * (the tree was checked once, at the top, so the check below passes again for it). */
int ctg_write_list_of_lists(ctg_emitter *e, const ctg_list *list)
{
    size_t n = ctg_list_child_count(list);
    int rc;

    if (ctg_list_get_kind(list) != CTG_LIST_LIST || (rc = check_tree(list, 0)) != CTG_OK)
        return CTG_EINVAL;
    ctg_write_list_head(e, CTG_LIST_LIST, ctg_list_name(list));
    ctg_emit_name_key(e, &ctg_root_keys[CTG_RK_CONTINGENCY_LISTS]);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++) {
        /* A child that cannot be written stops the whole write with its status. */
        rc = ctg_write_list_json(e, ctg_list_child_at(list, i));
        if (rc != CTG_OK)
            return rc;
    }
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
    return CTG_OK;
}
