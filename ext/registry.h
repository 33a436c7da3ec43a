/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_EXT_REGISTRY_H
#define CTG_EXT_REGISTRY_H

/* Private: the typed-handler side of extensions that knows no JSON (ext/registry.c): the
 * context a handler's read gets, handler checks and the registry's look-up. */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/error.h"
#include "ctg/extension.h"
#include "base/arena.h"

/* What a typed handler's read gets: where its memory goes, and room for its refusal. */
struct ctg_extension_ctx {
    ctg_arena *arena;
    const char *name;
    bool has_message;
    char message[CTG_ERROR_MESSAGE_MAX];
};

/* Whether `h` is a handler of this version with what a handler needs (name, read, size). */
bool ctg_extension_handler_valid(const ctg_extension_handler *h);

/* The handler registered under the `len` bytes at `name` (not NUL-terminated), or NULL. */
const ctg_extension_handler *ctg_extension_lookup(const ctg_extension_registry *registry,
                                                  const char *name, size_t len);

#endif
