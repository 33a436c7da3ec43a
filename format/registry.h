/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_SERDE_REGISTRY_H
#define CTG_SERDE_REGISTRY_H

/* Private: the registry maps type names to handlers, all in const tables.
 *
 * Resolve once, then reuse: a reader asks for a slot's handler through ctg_reader_handler(),
 * which looks it up by name on first use and keeps the pointer in the reader. The by-name
 * look-up itself is served from an index built once per process (pthread_once), so readers on
 * several threads share it without locks. CTG_READ_NO_CACHE skips both caches and walks the
 * table by name every time: the ablation the benchmark measures. */

#include "json/reader.h"

/* Item handlers, by the name they are registered under. */
extern const ctg_handler ctg_contingency_handler; /* "contingency" */
extern const ctg_handler ctg_element_handler;     /* "element" */

/* The handler registered under `name`, walking the table (no cache); NULL when none. */
const ctg_handler *ctg_registry_find(const char *name);

#endif
