/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_JSONC_H
#define CTG_JSONC_H

/**
 * @file jsonc.h
 * The json-c bridge, for applications that already hold a contingency list as a json-c tree
 * (for example inside a bigger document), and for extension values wanted as json-c trees.
 *
 * Both directions go through the same code as text: a tree is turned into compact JSON text
 * and read by ctg's reader, with every rule and handler of a read; a list is written as
 * compact JSON text and built into a tree, every json-c call checked. Nothing here recurses on
 * the depth of a value (json-c's own json_object_put does). This header does not include
 * json-c: include <json-c/json.h> to work with the trees.
 *
 * A tree has no line numbers: errors of ctg_list_from_json_object carry the JSON path only
 * (line, column and offset 0) and the source "<json-c>".
 *
 * Threads: both directions only read their input (the tree, the list), so one tree or one
 * list may be converted on several threads at once; each call returns a new list or tree of
 * its own.
 */

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/io.h"
#include "ctg/model.h"

CTG_BEGIN_DECL

struct json_object;

/**
 * Reads a list of any kind from the json-c tree `obj`, which is only read (not even its
 * internal string cache is touched, so several threads may convert one tree at once).
 * @param[out] out  the new list, NULL on failure; the caller owns it (ctg_list_free). The list
 *                  does not refer to `obj`.
 * @param obj       the tree, borrowed for the call.
 * @param opts      NULL for defaults; source_name is ignored.
 * @param[out] err  may be NULL; written only on failure, with the path only.
 * @return CTG_OK or a negative ctg_status (CTG_EINVAL for a NULL argument).
 */
CTG_API int ctg_list_from_json_object(ctg_list **out, const struct json_object *obj,
                                      const ctg_read_options *opts, ctg_error *err);

/**
 * Builds a json-c tree holding `list` as ctg writes it (current format version, the same keys
 * in the same order; doubles keep the text ctg writes, e.g. 380.0). Every json-c call is
 * checked: out of memory inside json-c is CTG_ENOMEM, never a partial tree.
 * @param[out] out  the new tree, NULL on failure; the caller owns it (json_object_put).
 * @param list      the list, only read.
 * @param opts      NULL for defaults; the layout flags do not matter here.
 * @param[out] err  may be NULL; written only on failure.
 * @return CTG_OK, CTG_EINVAL, CTG_EUNSUPPORTED (a value json-c cannot hold, as for
 *         ctg_extension_to_json_object) or CTG_ENOMEM.
 */
CTG_API int ctg_list_to_json_object(struct json_object **out, const ctg_list *list,
                                    const ctg_write_options *opts, ctg_error *err);

/** The deepest value the conversions to json-c build: json-c frees a tree recursively
 *  (json_object_put), so deeper values are refused with CTG_EUNSUPPORTED rather than risk the
 *  stack of the thread that frees them. */
#define CTG_JSONC_MAX_DEPTH 512

/**
 * The json-c value of extension `ext`: for a kept value, the tree of its JSON text, built with
 * every json-c call checked; for a typed one, what its handler's write returns.
 * @param[out] out  the new value, NULL for JSON null or on failure; the caller owns it
 *                  (json_object_put).
 * @param ext       the extension, borrowed for the call (from any list, or built by hand).
 * @param allocator for the conversion's own scratch memory; NULL for malloc/free (json-c
 *                  allocates the tree with its own malloc).
 * @return CTG_OK, CTG_EINVAL (NULL out or ext; or the handler's failure), CTG_ENOMEM, or
 *         CTG_EUNSUPPORTED: a typed extension without write, a value read with
 *         CTG_READ_SKIP_EXTENSION_VALUES, or what json-c cannot hold (a key with U+0000, a
 *         string over 2 GiB, nesting deeper than CTG_JSONC_MAX_DEPTH).
 */
CTG_API int ctg_extension_to_json_object(struct json_object **out, const ctg_extension *ext,
                                         const ctg_allocator *allocator);

/**
 * As ctg_list_add_extension_json (extension.h), with the value given as a json-c tree (`value`,
 * only read; NULL for JSON null), written as ctg writes it: doubles as Java's Double.toString
 * writes them. NaN, infinities and integers beyond int64 are refused (CTG_EINVAL).
 * @param list      the list to change.
 * @param index     the contingency's position in the list.
 * @param name      the extension's name, copied.
 * @param value     the value, only read for the call; NULL for JSON null.
 * @param[out] err  may be NULL; filled on failure.
 * @return CTG_OK, CTG_EINVAL or CTG_ENOMEM; the list unchanged on failure.
 */
CTG_API int ctg_list_add_extension_jsonc(ctg_list *list, size_t index, const char *name,
                                         const struct json_object *value, ctg_error *err);

CTG_END_DECL

#endif
