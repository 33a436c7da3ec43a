/* SPDX-License-Identifier: MPL-2.0 */
/* The `list` kind: lists nested in a list, each read as a root object of its own. */

#include "model/list_impl.h"
#include "serde/read_default.h"
#include "serde/read_root.h"
#include "serde/version.h"

static int read_child(ctg_reader *rd, void *out)
{
    ctg_list *child = ctg_list_alloc_in(rd->arena, CTG_LIST_DEFAULT, "");

    if (!child)
        return ctg_reader_nomem(rd);
    *(ctg_list **)out = child;
    return ctg_read_list_object(rd, child, true);
}

static const ctg_handler child_handler = { "list-item", sizeof(ctg_list *), read_child };

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
