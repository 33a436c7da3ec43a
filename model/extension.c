/* SPDX-License-Identifier: MPL-2.0 */
/* Typed extension handlers: the application's registry, the context their read callbacks get,
 * and the look-up of a contingency's extension by name. */

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/alloc.h"
#include "model/list_impl.h"
#include "model/utf8.h"
#include "serde/ext_internal.h"

/* Handlers sorted by name, so that a look-up is a binary search. */
struct ctg_extension_registry {
    ctg_allocator alloc;
    const ctg_extension_handler **items;
    size_t count;
    size_t cap;
};

int ctg_extension_registry_new(ctg_extension_registry **out, const ctg_allocator *allocator)
{
    ctg_extension_registry *r;

    if (out == NULL)
        return CTG_EINVAL;
    *out = NULL;
    r = ctg_mem_alloc(allocator, sizeof *r);
    if (r == NULL)
        return CTG_ENOMEM;
    memset(r, 0, sizeof *r);
    if (allocator != NULL)
        r->alloc = *allocator;
    *out = r;
    return CTG_OK;
}

void ctg_extension_registry_free(ctg_extension_registry *registry)
{
    ctg_allocator a;

    if (registry == NULL)
        return;
    a = registry->alloc;
    ctg_mem_release(&a, registry->items, registry->cap * sizeof *registry->items);
    ctg_mem_release(&a, registry, sizeof *registry);
}

bool ctg_extension_handler_valid(const ctg_extension_handler *h)
{
    return h != NULL && h->version == CTG_EXTENSION_HANDLER_VERSION && h->name != NULL
           && ctg_utf8_valid(h->name) && h->read != NULL && h->size > 0;
}

/* Compares the `len` bytes at `name` with the NUL-terminated `key`, as strcmp would. */
static int compare_name(const char *name, size_t len, const char *key)
{
    size_t klen = strlen(key);
    int c = memcmp(name, key, len < klen ? len : klen);

    if (c != 0)
        return c;
    return len < klen ? -1 : len > klen;
}

/* The index of `name` or, when absent, where it would go; *found tells which. */
static size_t search(const ctg_extension_registry *r, const char *name, size_t len, bool *found)
{
    size_t lo = 0, hi = r->count;

    *found = false;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = compare_name(name, len, r->items[mid]->name);

        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static bool grow(ctg_extension_registry *r)
{
    const size_t item = sizeof *r->items;
    size_t cap;
    void *p;

    if (r->count < r->cap)
        return true;
    if (!ctg_grow_capacity(r->cap, r->count + 1, 8, SIZE_MAX / item, &cap))
        return false;
    p = ctg_mem_resize(&r->alloc, r->items, r->cap * item, cap * item);
    if (p == NULL)
        return false;
    r->items = p;
    r->cap = cap;
    return true;
}

int ctg_extension_registry_add(ctg_extension_registry *registry,
                               const ctg_extension_handler *handler)
{
    size_t at;
    bool found;

    if (registry == NULL || !ctg_extension_handler_valid(handler))
        return CTG_EINVAL;
    at = search(registry, handler->name, strlen(handler->name), &found);
    if (found)
        return CTG_EINVAL;
    if (!grow(registry))
        return CTG_ENOMEM;
    memmove(registry->items + at + 1, registry->items + at,
            (registry->count - at) * sizeof *registry->items);
    registry->items[at] = handler;
    registry->count++;
    return CTG_OK;
}

const ctg_extension_handler *ctg_extension_lookup(const ctg_extension_registry *registry,
                                                  const char *name, size_t len)
{
    size_t at;
    bool found;

    if (registry == NULL || name == NULL)
        return NULL;
    at = search(registry, name, len, &found);
    return found ? registry->items[at] : NULL;
}

const ctg_extension_handler *ctg_extension_registry_find(const ctg_extension_registry *registry,
                                                         const char *name)
{
    return name == NULL ? NULL : ctg_extension_lookup(registry, name, strlen(name));
}

size_t ctg_extension_registry_count(const ctg_extension_registry *registry)
{
    return registry == NULL ? 0 : registry->count;
}

/* ---- the context of a handler's read ---------------------------------------------------- */

const char *ctg_extension_strdup(ctg_extension_ctx *ctx, const char *s)
{
    if (ctx == NULL || s == NULL)
        return NULL;
    return ctg_arena_strndup(ctx->arena, s, strlen(s));
}

void *ctg_extension_alloc(ctg_extension_ctx *ctx, size_t size)
{
    if (ctx == NULL || size == 0)
        return NULL;
    return ctg_arena_calloc(ctx->arena, 1, size);
}

int ctg_extension_fail(ctg_extension_ctx *ctx, int code, const char *message)
{
    if (ctx != NULL && message != NULL && !ctx->has_message) {
        snprintf(ctx->message, sizeof ctx->message, "%s", message);
        ctx->has_message = true;
    }
    return code;
}

const char *ctg_extension_ctx_name(const ctg_extension_ctx *ctx)
{
    return ctx == NULL ? NULL : ctx->name;
}

/* ---- look-up ---------------------------------------------------------------------------- */

const ctg_extension *ctg_contingency_extension(const ctg_contingency *c, const char *name)
{
    if (c == NULL || name == NULL)
        return NULL;
    for (size_t i = 0; i < c->extension_count; i++) {
        if (strcmp(c->extensions[i].name, name) == 0)
            return &c->extensions[i];
    }
    return NULL;
}

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
