/* SPDX-License-Identifier: MPL-2.0 */
/* The handler registry (registry.h): one const table, no state of its own. */

#include "format/registry.h"

#include <string.h>

static const ctg_handler *const handlers[CTG_HANDLER_COUNT] = {
    [CTG_HANDLER_CONTINGENCY] = &ctg_contingency_handler,
    [CTG_HANDLER_ELEMENT] = &ctg_element_handler,
    [CTG_HANDLER_LIST_ITEM] = &ctg_list_item_handler,
    [CTG_HANDLER_IDENTIFIER] = &ctg_identifier_handler,
    [CTG_HANDLER_IDENTIFIABLE_TYPE] = &ctg_identifiable_type_handler,
    [CTG_HANDLER_COUNTRY] = &ctg_country_handler,
    [CTG_HANDLER_PROPERTY_VALUE] = &ctg_property_value_handler,
    [CTG_HANDLER_PROPERTY_CRITERION] = &ctg_property_criterion_handler,
};

const ctg_handler *ctg_registry_find(const char *name)
{
    for (size_t i = 0; i < CTG_HANDLER_COUNT; i++)
        if (strcmp(handlers[i]->name, name) == 0)
            return handlers[i];
    return NULL;
}

const ctg_handler *ctg_registry_resolve(ctg_reader *rd, ctg_handler_id id)
{
    rd->resolves++;
    if (rd->flags & CTG_READ_NO_CACHE)
        return ctg_registry_find(handlers[id]->name); /* the ablation: by name, every time */
    rd->cache[id] = handlers[id];
    return handlers[id];
}
