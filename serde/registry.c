/* The handler registry: const tables, a per-process slot index and the per-read cache. */

#include "serde/registry.h"

#include <string.h>
#include <threads.h>

static const ctg_handler *const handlers[] = {
    &ctg_contingency_handler,
    &ctg_element_handler,
};

/* The name each slot is resolved by. */
static const char *const slot_names[CTG_SLOT_COUNT] = {
    [CTG_SLOT_CONTINGENCY] = "contingency",
    [CTG_SLOT_ELEMENT] = "element",
};

/* Written once under call_once, read-only afterwards. */
static const ctg_handler *slot_index[CTG_SLOT_COUNT];
static once_flag slot_once = ONCE_FLAG_INIT;

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
    call_once(&slot_once, build_slot_index);
    h = slot_index[slot];
    rd->cache[slot] = h;
    return h;
}
