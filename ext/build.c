/* SPDX-License-Identifier: MPL-2.0 */
/* Extensions added to built contingencies, and contingencies copied with theirs: kept values go
 * through the reader's checks of JSON text, typed ones through their handler's write and read. */

#include <stdalign.h>
#include <string.h>

#include "base/alloc.h"
#include "model/list_impl.h"
#include "base/utf8.h"
#include "ext/ext.h"

/* ---- building ----------------------------------------------------------------------------- */

/* The contingency at `index` of a list that holds contingencies, for changing; NULL if none. */
static ctg_contingency *contingency_at(ctg_list *list, size_t index)
{
    return index < ctg_list_contingency_count(list) ? &list->items[index] : NULL;
}

/* Copies a typed value into the list's memory through its handler: write, then read. A value
 * of the application's own struct may point anywhere; its handler knows what it holds. */
static int copy_typed(ctg_arena *arena, const ctg_extension_handler *h, const char *name,
                      const void *value, const void **out)
{
    ctg_extension_ctx ctx = { arena, name, false, { 0 } };
    struct json_object *tree = NULL;
    void *dst;
    int rc;

    if (h->write == NULL)
        return CTG_EINVAL; /* nothing to copy it through */
    if ((rc = h->write(&tree, value, h->payload)) == CTG_OK) {
        if ((dst = ctg_arena_calloc(arena, 1, h->size)) == NULL)
            rc = CTG_ENOMEM;
        else if ((rc = h->read(&ctx, tree, dst, h->payload)) == CTG_OK)
            *out = dst;
    }
    ctg_jsonc_release(tree);
    return rc == CTG_OK || rc == CTG_ENOMEM ? rc : CTG_EINVAL;
}

/* Copies extension `src` into `dst`, in `arena`: kept text read again (checked and compact),
 * typed values through their handler. */
static int copy_extension(ctg_arena *arena, ctg_extension *dst, const ctg_extension *src,
                          ctg_error *err)
{
    memset(dst, 0, sizeof *dst);
    if ((dst->name = ctg_arena_strndup(arena, src->name, strlen(src->name))) == NULL)
        return CTG_ENOMEM;
    if (src->handler != NULL) {
        dst->handler = src->handler;
        return copy_typed(arena, src->handler, dst->name, src->value, &dst->value);
    }
    if (src->json == NULL)
        return CTG_OK; /* skipped by its read: nothing to copy, as nothing is written */
    return ctg_extension_text_read(arena, src->json, src->json_len, &dst->json, &dst->json_len,
                                   err);
}

/* Gives contingency `c` its extensions plus `x` (not yet in the list), in one new array. */
static int append(ctg_arena *arena, ctg_contingency *c, const ctg_extension *x)
{
    size_t n = c->extension_count, bytes;
    ctg_extension *all;

    if (ctg_contingency_extension(c, x->name) != NULL)
        return CTG_EINVAL;
    if (!ctg_size_mul(n + 1, sizeof *all, &bytes)
        || (all = ctg_arena_alloc(arena, bytes, alignof(ctg_extension))) == NULL)
        return CTG_ENOMEM;
    if (n > 0)
        memcpy(all, c->extensions, n * sizeof *all);
    all[n] = *x;
    c->extensions = all;
    c->extension_count = n + 1;
    return CTG_OK;
}

int ctg_list_add_extension_json(ctg_list *list, size_t index, const char *name,
                                const char *json, size_t len, ctg_error *err)
{
    ctg_contingency *c = contingency_at(list, index);
    ctg_extension x = { 0 };
    int rc;

    if (c == NULL || name == NULL || !ctg_utf8_valid(name) || json == NULL
        || ctg_contingency_extension(c, name) != NULL)
        return CTG_EINVAL;
    rc = ctg_extension_text_read(list->arena, json, len, &x.json, &x.json_len, err);
    if (rc != CTG_OK)
        return rc == CTG_ENOMEM ? rc : CTG_EINVAL;
    if ((x.name = ctg_arena_strndup(list->arena, name, strlen(name))) == NULL)
        return CTG_ENOMEM;
    return append(list->arena, c, &x);
}

int ctg_list_add_extension_typed(ctg_list *list, size_t index,
                                 const ctg_extension_handler *handler, const void *value)
{
    ctg_contingency *c = contingency_at(list, index);
    ctg_extension x = { 0 }, src = { 0 };
    int rc;

    if (c == NULL || !ctg_extension_handler_valid(handler) || value == NULL
        || ctg_contingency_extension(c, handler->name) != NULL)
        return CTG_EINVAL;
    src.name = handler->name;
    src.handler = handler;
    src.value = value;
    if ((rc = copy_extension(list->arena, &x, &src, NULL)) != CTG_OK)
        return rc;
    return append(list->arena, c, &x);
}

/* The extensions of `src`, copied for the contingency just appended at the end of `list`. */
static int copy_extensions(ctg_list *list, const ctg_contingency *src)
{
    ctg_contingency *c = &list->items[list->count - 1];
    size_t bytes;
    ctg_extension *all;
    int rc = CTG_OK;

    if (src->extension_count == 0)
        return CTG_OK;
    if (!ctg_size_mul(src->extension_count, sizeof *all, &bytes)
        || (all = ctg_arena_alloc(list->arena, bytes, alignof(ctg_extension))) == NULL)
        return CTG_ENOMEM;
    for (size_t i = 0; i < src->extension_count && rc == CTG_OK; i++)
        rc = copy_extension(list->arena, &all[i], &src->extensions[i], NULL);
    if (rc != CTG_OK)
        return rc == CTG_ENOMEM ? rc : CTG_EINVAL;
    c->extensions = all;
    c->extension_count = src->extension_count;
    return CTG_OK;
}

int ctg_list_add_contingency_copy(ctg_list *list, const ctg_contingency *c)
{
    int rc;

    if (list == NULL || !ctg_contingency_valid(c))
        return CTG_EINVAL;
    for (size_t i = 0; i < c->extension_count; i++)
        if (ctg_contingency_extension(c, c->extensions[i].name) != &c->extensions[i])
            return CTG_EINVAL; /* a name twice */
    rc = ctg_list_add_contingency(list, c->id, c->name, c->elements, c->element_count);
    if (rc == CTG_OK && (rc = copy_extensions(list, c)) != CTG_OK)
        list->count--; /* the list as it was: what was copied stays in the arena */
    return rc;
}
