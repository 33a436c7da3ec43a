/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_REGISTRY_H
#define CTG_FORMAT_REGISTRY_H

/* Private: every item handler of the format, in one const table indexed by ctg_handler_id,
 * each under its name.
 *
 * A reader takes a handler with ctg_reader_handler(): the table's entry, kept in the reader on
 * first use so that rd->resolves counts one resolution per handler and read. With
 * CTG_READ_NO_CACHE it instead looks the handler up by name, walking the table, every time it
 * needs one (once per array read): that is how PowSyBl's uncached reader finds its
 * deserializers, and the ablation `contingency-bench` measures as ctg-read-nocache. */

#include "json/reader.h"

typedef enum ctg_handler_id {
    CTG_HANDLER_CONTINGENCY,        /* "contingency": an item of "contingencies" (default.c) */
    CTG_HANDLER_ELEMENT,            /* "element": an item of "elements" (default.c) */
    CTG_HANDLER_LIST_ITEM,          /* "list-item": a list nested in a `list` (list.c) */
    CTG_HANDLER_IDENTIFIER,         /* "identifier": also an item of a LIST one (identifier.c) */
    CTG_HANDLER_IDENTIFIABLE_TYPE,  /* "identifiable-type" (identifier.c) */
    CTG_HANDLER_COUNTRY,            /* "country": of a country criterion (criterion.c) */
    CTG_HANDLER_PROPERTY_VALUE,     /* "propertyValue" (criterion.c) */
    CTG_HANDLER_PROPERTY_CRITERION, /* "propertyCriterion" (criterion.c) */
    CTG_HANDLER_COUNT
} ctg_handler_id;

_Static_assert(CTG_HANDLER_COUNT <= CTG_HANDLER_SLOTS, "the reader has a slot for each handler");

/* Defined beside the code they call, registered in registry.c. */
extern const ctg_handler ctg_contingency_handler;
extern const ctg_handler ctg_element_handler;
extern const ctg_handler ctg_list_item_handler;
extern const ctg_handler ctg_identifier_handler;
extern const ctg_handler ctg_identifiable_type_handler;
extern const ctg_handler ctg_country_handler;
extern const ctg_handler ctg_property_value_handler;
extern const ctg_handler ctg_property_criterion_handler;

/* The handler registered under `name`, walking the table (no cache); NULL when none. */
const ctg_handler *ctg_registry_find(const char *name);

/* The first use of `id` in a read (or every use, with CTG_READ_NO_CACHE): counts it in
 * rd->resolves and returns the handler. */
const ctg_handler *ctg_registry_resolve(ctg_reader *rd, ctg_handler_id id);

/* The handler `id`, for reading with rd. */
static inline const ctg_handler *ctg_reader_handler(ctg_reader *rd, ctg_handler_id id)
{
    const ctg_handler *h = rd->cache[id];

    return h ? h : ctg_registry_resolve(rd, id);
}

#endif
