/* SPDX-License-Identifier: MPL-2.0 */
/* The handler registry: const tables, a per-process slot index and the per-read cache. */

#include "format/registry.h"

#include <pthread.h>
#include <string.h>

static const ctg_handler *const handlers[] = {
    &ctg_contingency_handler,
    &ctg_element_handler,
};

/* The name each slot is resolved by. */
static const char *const slot_names[CTG_SLOT_COUNT] = {
    [CTG_SLOT_CONTINGENCY] = "contingency",
    [CTG_SLOT_ELEMENT] = "element",
};

/* Written once under pthread_once, read-only afterwards. (C11 call_once works too, but glibc
 * implements it out of ThreadSanitizer's sight, which then reports a race that cannot be.) */
static const ctg_handler *slot_index[CTG_SLOT_COUNT];
static pthread_once_t slot_once = PTHREAD_ONCE_INIT;

const ctg_handler *ctg_registry_find(const char *name)
{
    for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
        if (strcmp(handlers[i]->name, name) == 0)
            return handlers[i];
    return NULL;
}

static void build_slot_index(void)
{
    for (int s = 0; s < CTG_SLOT_COUNT; s++)
        slot_index[s] = ctg_registry_find(slot_names[s]);
}

const ctg_handler *ctg_registry_resolve(ctg_reader *rd, int slot)
{
    const ctg_handler *h;

    rd->resolves++;
    if (rd->flags & CTG_READ_NO_CACHE)
        return ctg_registry_find(slot_names[slot]);
    pthread_once(&slot_once, build_slot_index);
    h = slot_index[slot];
    rd->cache[slot] = h;
    return h;
}
