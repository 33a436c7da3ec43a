/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_EXTENSION_H
#define CTG_EXTENSION_H

/**
 * @file extension.h
 * Contingency extensions: the "extensions" object of a contingency (spec section 8).
 *
 * No extension is ever lost. An extension that no handler knows is kept as a json-c value
 * (ctg_extension.handler is NULL, ctg_extension.value a `const struct json_object *`, NULL for
 * JSON null) and written back unchanged in PowSyBl's layout. An application that wants an
 * extension in a struct of its own registers a typed handler for its name in a
 * ctg_extension_registry and passes the registry in ctg_read_options.extensions; the reader then
 * resolves the handler once per read and gives it the value to convert, and the writer asks it
 * for the JSON to write back.
 *
 * Values reach a handler as json-c objects, so a handler includes <json-c/json.h> itself; this
 * header does not. Numbers: an integer outside the int64 range is refused on read (json-c would
 * clamp it); a double is written as Java's Double.toString writes it, as PowSyBl does, so
 * "0.0125" stays "0.0125" but a hand-written "1e-5" comes back as "1.0E-5" (the same value).
 *
 * Threads: a filled registry may be shared by reads on several threads, so a handler's `read`
 * and `write` may run on several threads at once, with the same `payload`: they must not
 * change shared state without their own locking.
 */

#include <stddef.h>

#include "ctg/common.h"
#include "ctg/model.h"

CTG_BEGIN_DECL

struct json_object;

/** What a handler's read callback gets to keep data in the list's memory. Opaque. */
typedef struct ctg_extension_ctx ctg_extension_ctx;

/**
 * A typed extension handler: how one extension name is read into a struct and written back.
 * The application owns it; the registry and every list read with it borrow it, so it must
 * outlive them (a static const handler is the usual choice).
 */
typedef struct ctg_extension_handler {
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
 * @return CTG_OK, CTG_EINVAL (NULL argument, NULL name or read, size 0, or a name already
 *         registered) or CTG_ENOMEM (registry unchanged).
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

CTG_END_DECL

#endif
