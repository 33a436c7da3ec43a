/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_EXTENSION_H
#define CTG_EXTENSION_H

/**
 * @file extension.h
 * Contingency extensions: the "extensions" object of a contingency (spec section 8).
 *
 * No extension is ever lost. An extension that no handler knows is kept as compact JSON text in
 * the list's memory (ctg_extension.handler is NULL, ctg_extension.json its text) and written
 * back in PowSyBl's layout, at any depth the read allowed. ctg_extension_to_json_object
 * (jsonc.h) turns it into a json-c tree on request. An application that wants an extension in
 * a struct of its own registers a typed handler for its name in a ctg_extension_registry and
 * passes the registry in ctg_read_options.extensions; the reader then resolves the handler once
 * per read and gives it the value to convert, and the writer asks it for the JSON to write
 * back.
 *
 * Values reach a handler as json-c objects, so a handler includes <json-c/json.h> itself; this
 * header does not. Numbers: an integer outside the int64 range is refused on read (json-c would
 * clamp it); a double is written as Java's Double.toString writes it, as PowSyBl does, so
 * "0.0125" stays "0.0125" but a hand-written "1e-5" comes back as "1.0E-5" (the same value).
 * Keys are unique in every object of a value (a duplicate is an error naming both places).
 *
 * Threads: a filled registry may be shared by reads on several threads, so a handler's `read`
 * and `write` may run on several threads at once, with the same `payload`: they must not
 * change shared state without their own locking.
 */

#include <stddef.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/model.h"

CTG_BEGIN_DECL

struct json_object;

/** What a handler's read callback gets to keep data in the list's memory. Opaque. */
typedef struct ctg_extension_ctx ctg_extension_ctx;

/** The value of ctg_extension_handler.version this header describes. */
#define CTG_EXTENSION_HANDLER_VERSION 1

/**
 * A typed extension handler: how one extension name is read into a struct and written back.
 * The application owns it; the registry and every list read with it borrow it, so it must
 * outlive them (a static const handler is the usual choice). Fill it with designated
 * initializers, `.version = CTG_EXTENSION_HANDLER_VERSION` first: fields may be added at the
 * end in later versions.
 */
typedef struct ctg_extension_handler {
    /** CTG_EXTENSION_HANDLER_VERSION; any other value is refused (CTG_EINVAL). */
    unsigned version;
    /** The extension's name, the key in "extensions"; never NULL. */
    const char *name;
    /** Bytes of the struct `read` fills (> 0); it gets them zeroed and max-aligned. */
    size_t size;
    /**
     * Reads `value` (borrowed for the call; NULL for JSON null) into `out`, which lives in the
     * list's memory until ctg_list_free. Strings and arrays it keeps must be copied with
     * ctg_extension_strdup / ctg_extension_alloc, never pointed into `value`.
     * @return CTG_OK, or a negative ctg_status (CTG_ESCHEMA for a value of the wrong shape,
     *         ideally through ctg_extension_fail so that the error has a message).
     */
    int (*read)(ctg_extension_ctx *ctx, const struct json_object *value, void *out,
                void *payload);
    /**
     * Builds the JSON value to write for `in` (the struct `read` filled, borrowed) in `*out`:
     * a new json-c value the caller owns and releases with json_object_put (NULL writes JSON
     * null). May be NULL: the extension is then left out when writing, as PowSyBl leaves out
     * an extension without a serializer.
     * @return CTG_OK, or a negative ctg_status (the write then fails with it).
     */
    int (*write)(struct json_object **out, const void *in, void *payload);
    /** Passed back to `read` and `write`. */
    void *payload;
} ctg_extension_handler;

/**
 * A set of typed handlers, by extension name. Opaque; the application owns it. Once filled it
 * is only read, so reads on several threads may share it; ctg_extension_registry_add must not
 * run while a read uses the registry.
 */
typedef struct ctg_extension_registry ctg_extension_registry;

/**
 * Creates an empty registry.
 * @param[out] out  the new registry, NULL on failure; the caller owns it
 *                  (ctg_extension_registry_free).
 * @param allocator NULL for malloc/free; otherwise copied and used for the registry's memory.
 * @return CTG_OK, CTG_EINVAL (out is NULL) or CTG_ENOMEM.
 */
CTG_API int ctg_extension_registry_new(ctg_extension_registry **out,
                                       const ctg_allocator *allocator);

/** Frees `registry` (not the handlers, which it only borrows). Accepts NULL. */
CTG_API void ctg_extension_registry_free(ctg_extension_registry *registry);

/**
 * Adds `handler`, borrowed: it must outlive the registry and every list read with it.
 * @return CTG_OK, CTG_EINVAL (NULL argument, unknown version, NULL name or read, size 0, or a
 *         name already registered) or CTG_ENOMEM (registry unchanged).
 */
CTG_API int ctg_extension_registry_add(ctg_extension_registry *registry,
                                       const ctg_extension_handler *handler);

/** The handler registered for `name`, or NULL. Borrowed from the application. */
CTG_API const ctg_extension_handler *
ctg_extension_registry_find(const ctg_extension_registry *registry, const char *name);

/** Number of handlers in `registry` (0 for NULL). */
CTG_API size_t ctg_extension_registry_count(const ctg_extension_registry *registry);

/**
 * For a handler's read: a NUL-terminated copy of `s` in the list's memory, freed with the
 * list; NULL when out of memory (the handler then returns CTG_ENOMEM) or when `s` is NULL.
 */
CTG_API const char *ctg_extension_strdup(ctg_extension_ctx *ctx, const char *s);

/**
 * For a handler's read: `size` zeroed, max-aligned bytes in the list's memory, freed with the
 * list; NULL when out of memory (return CTG_ENOMEM) or when size is 0.
 */
CTG_API void *ctg_extension_alloc(ctg_extension_ctx *ctx, size_t size);

/**
 * For a handler's read: records why the value is refused (`message` is copied, lower case,
 * no final period) and returns `code`, so that a handler can `return ctg_extension_fail(...)`.
 * The reader reports it at the extension's value, with its path.
 */
CTG_API int ctg_extension_fail(ctg_extension_ctx *ctx, int code, const char *message);

/** The name of the extension being read ("extensions" key); borrowed for the call. */
CTG_API const char *ctg_extension_ctx_name(const ctg_extension_ctx *ctx);

/**
 * The extension of `c` named `name`, or NULL. Borrowed from the list `c` belongs to.
 */
CTG_API const ctg_extension *ctg_contingency_extension(const ctg_contingency *c,
                                                       const char *name);

/* ---- building ------------------------------------------------------------------------ */

/**
 * Adds to the `index`-th contingency of a `default` list (or a bare contingency document) an
 * extension named `name` (copied) whose value is the JSON text `json` (`len` bytes, any valid
 * JSON value, whitespace allowed; kept in compact form). It is read with the rules of a read:
 * UTF-8, no duplicate key, integers within int64, nesting within CTG_MAX_DEPTH_LIMIT.
 * @param list      the list to change.
 * @param index     the contingency's position in the list.
 * @param name      the extension's name (its key in "extensions"), copied.
 * @param json      the value's JSON text, borrowed for the call.
 * @param len       bytes at `json`.
 * @param[out] err  may be NULL; on CTG_EINVAL for bad text, where in `json` (line, column,
 *                  message; no source, path "").
 * @return CTG_OK, CTG_EINVAL (no such contingency, NULL or invalid name, a name the contingency
 *         has already, invalid text) or CTG_ENOMEM; the list unchanged on failure.
 */
CTG_API int ctg_list_add_extension_json(ctg_list *list, size_t index, const char *name,
                                        const char *json, size_t len, ctg_error *err);

/**
 * Adds to the `index`-th contingency a typed extension named handler->name. `value` (the
 * handler's struct, borrowed for the call) is copied into the list's memory through the
 * handler: its write, then its read, so that nothing in the list points into the caller's
 * memory. `handler` is borrowed and must outlive the list.
 * @return CTG_OK, CTG_EINVAL (no such contingency, a bad handler or one without write, a name
 *         the contingency has already, NULL value, or the handler's own failure) or CTG_ENOMEM;
 *         the list unchanged on failure.
 */
CTG_API int ctg_list_add_extension_typed(ctg_list *list, size_t index,
                                         const ctg_extension_handler *handler, const void *value);

/**
 * Appends a copy of `c` to a `default` list: as ctg_list_add_contingency, with its extensions
 * too (kept text checked and copied, typed values copied through their handler as
 * ctg_list_add_extension_typed does). `c` may come from any list, or be built by hand.
 * @return CTG_OK, CTG_EINVAL (what ctg_list_add_contingency refuses, an extension without a
 *         name or with a name twice, invalid text, a typed value whose handler cannot write or
 *         refuses it) or CTG_ENOMEM; the list unchanged on failure.
 */
CTG_API int ctg_list_add_contingency_copy(ctg_list *list, const ctg_contingency *c);

CTG_END_DECL

#endif
