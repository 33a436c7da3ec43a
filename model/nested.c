/* SPDX-License-Identifier: MPL-2.0 */
/* `list` lists: the lists nested in them, read or built in code. */

#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "ctg/error.h"
#include "base/alloc.h"
#include "model/list_impl.h"
#include "base/utf8.h"

size_t ctg_list_child_count(const ctg_list *list)
{
    if (list == NULL || list->kind != CTG_LIST_LIST)
        return 0;
    return list->child_count;
}

const ctg_list *ctg_list_child_at(const ctg_list *list, size_t i)
{
    if (i >= ctg_list_child_count(list))
        return NULL;
    return list->children[i];
}

/* Room for one more child. The array is in the arena, so it grows by copying; a list that was
 * read has child_cap 0 (the reader's array is exactly full) and is copied on the first add. */
static bool reserve_child(ctg_list *list)
{
    const size_t item = sizeof *list->children;
    size_t cap;
    ctg_list **p;

    if (list->child_count < list->child_cap)
        return true;
    if (!ctg_grow_capacity(list->child_cap, list->child_count + 1, 4, SIZE_MAX / item, &cap))
        return false;
    p = ctg_arena_alloc(list->arena, cap * item, alignof(ctg_list *));
    if (p == NULL)
        return false;
    if (list->child_count > 0)
        memcpy(p, list->children, list->child_count * item);
    list->children = p;
    list->child_cap = cap;
    return true;
}

int ctg_list_add_child(ctg_list *parent, ctg_list_kind kind, const char *name, ctg_list **out)
{
    ctg_list *child;

    if (out != NULL)
        *out = NULL;
    /* A bare contingency document is not a list: PowSyBl cannot nest one. */
    if (parent == NULL || parent->kind != CTG_LIST_LIST || name == NULL || !ctg_utf8_valid(name)
        || (unsigned)kind >= CTG_LIST_KIND_COUNT || kind == CTG_LIST_CONTINGENCY)
        return CTG_EINVAL;
    if (!reserve_child(parent))
        return CTG_ENOMEM;
    child = ctg_list_alloc_in(parent->arena, kind, name);
    if (child == NULL)
        return CTG_ENOMEM;
    /* owns_arena stays false: the child goes with its parent, and ctg_list_free ignores it. */
    parent->children[parent->child_count++] = child;
    if (out != NULL)
        *out = child;
    return CTG_OK;
}
