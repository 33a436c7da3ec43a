/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_SERDE_EXT_INTERNAL_H
#define CTG_SERDE_EXT_INTERNAL_H

/* Private: contingency extensions (read_extension.c, write_extension.c, model/extension.c) and
 * the json-c value writer shared with the json-c bridge (jsonc_bridge.c). */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/error.h"
#include "ctg/extension.h"
#include "model/arena.h"
#include "serde/emit.h"

/* What a typed handler's read gets: where its memory goes, and room for its refusal. */
struct ctg_extension_ctx {
    ctg_arena *arena;
    const char *name;
    bool has_message;
    char message[CTG_ERROR_MESSAGE_MAX];
};

/* The handler registered under the `len` bytes at `name` (not NUL-terminated), or NULL. */
const ctg_extension_handler *ctg_extension_lookup(const ctg_extension_registry *registry,
                                                  const char *name, size_t len);

/* Has `obj` released (json_object_put) when `arena` is released or reset. On failure
 * (CTG_ENOMEM) it is released at once. NULL is accepted and needs nothing. */
int ctg_arena_keep_json(ctg_arena *arena, struct json_object *obj);

/* Writes "extensions" : { ... } for the extensions of `c` that can be written (kept json-c
 * values, and typed ones whose handler has a write), after "elements". Writes nothing when
 * none can (PowSyBl never writes an empty "extensions"). A failing handler fails the emitter. */
void ctg_write_extensions(ctg_emitter *e, const ctg_contingency *c);

/* ctg_emit_json flags. */
enum {
    /* Refuse NaN and infinities (the bridge: ctg's reader would not read them back). */
    CTG_EMIT_JSON_FINITE = 1u << 0
};

/* Emits the json-c value `v` (NULL is JSON null) as the emitter's next value: members in the
 * json-c object's order, integers as integers, doubles as Java's Double.toString writes them.
 * Returns CTG_OK, or CTG_EINVAL for a value that cannot be written (nested deeper than the
 * emitter allows, an integer beyond int64, a non-finite double with CTG_EMIT_JSON_FINITE); the
 * emitter is then failed with that message, and `path` (CTG_ERROR_PATH_MAX bytes, may be NULL)
 * receives the offending value's JSON Pointer relative to `v`. */
int ctg_emit_json(ctg_emitter *e, const struct json_object *v, unsigned flags, char *path);

#endif
