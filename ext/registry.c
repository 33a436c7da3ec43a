/* SPDX-License-Identifier: MPL-2.0 */
/* Typed extension handlers: the application's registry, the context their read callbacks get,
 * and the look-up of a contingency's extension by name. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "ext/registry.h"
#include "base/utf8.h"

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
