/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_EXT_EXT_H
#define CTG_EXT_EXT_H

/* Private: contingency extensions in JSON (read.c, write.c,
 * build.c), the compact JSON text that keeps their values (json_text.c), and the
 * json-c conversions of the bridge (jsonc_bridge.c), the only file that includes json-c; the
 * list-level conversions above them are format/jsonc.c's. */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/error.h"
#include "ctg/extension.h"
#include "base/arena.h"
#include "ext/registry.h"
#include "json/emit.h"
#include "json/lexer.h"
#include "json/reader.h"

/* Typed extension handlers a read remembers after resolving them by name. */
#define CTG_EXT_CACHE_SIZE 8

/* Places kept by a placed read, one per item (an element's brace, an extension's name): two
 * arrays of `cap` entries in one block (lines first), from `alloc`, reused by every
 * contingency and grown by a copy that keeps the places taken. */
typedef struct ctg_places {
    const ctg_allocator *alloc;
    unsigned *lines, *columns;
    size_t cap;
} ctg_places;

/* Room in `p` for `count` places; CTG_ENOMEM (nothing changed) when there is none. */
int ctg_places_reserve(ctg_places *p, size_t count);
/* Releases the block of `p`; accepts a `p` that never grew. */
void ctg_places_release(ctg_places *p);

/* The application's typed handlers for one read, and the ones it has resolved (no
 * allocation, so nothing to release). Zeroed but for `registry` (may be NULL) at the start;
 * `names`, set by a placed read only, receives the place of each extension's name. */
typedef struct ctg_ext_resolver {
    const struct ctg_extension_registry *registry;
    const struct ctg_extension_handler *cache[CTG_EXT_CACHE_SIZE];
    ctg_places *names;
} ctg_ext_resolver;

/* Reads a contingency's "extensions" object (rd->tok on '{') into `c`, with the typed
 * handlers of `ext`. */
int ctg_read_extensions(ctg_reader *rd, ctg_ext_resolver *ext, ctg_contingency *c);

/* Writes `key` ("extensions", from the contingency's key table) : { ... } for the extensions of
 * `c` that can be written (kept values, and typed ones whose handler has a write), after
 * "elements". Writes nothing when none can (PowSyBl never writes an empty "extensions"). A
 * failing handler fails the emitter. */
void ctg_write_extensions(ctg_emitter *e, const ctg_key *key, const ctg_contingency *c);

/* Reads the one JSON value that fills `len` bytes of `text` (whitespace around it allowed) with
 * the checks of an extension value (UTF-8, no duplicate key, integers within int64, nesting
 * within CTG_MAX_DEPTH_LIMIT), and keeps its compact text in `arena` (*json, *json_len; with
 * `json` NULL the text is only checked, and nothing is kept or copied). On
 * failure returns the status with `err` (may be NULL) filled: line and column in `text`, path
 * "", no source. */
int ctg_extension_text_read(ctg_arena *arena, const char *text, size_t len, const char **json,
                            size_t *json_len, ctg_error *err);

/* ---- compact JSON text ------------------------------------------------------------------ */

/* Tokens of compact JSON text (json_text.c): commas and colons are skipped, a string followed
 * by ':' is a key. Negative values are a ctg_status. */
enum {
    CTG_JT_END = 0,
    CTG_JT_OBJECT_BEGIN,
    CTG_JT_OBJECT_END,
    CTG_JT_ARRAY_BEGIN,
    CTG_JT_ARRAY_END,
    CTG_JT_KEY,
    CTG_JT_STRING,
    CTG_JT_NUMBER,
    CTG_JT_TRUE,
    CTG_JT_FALSE,
    CTG_JT_NULL
};

/* A walk over JSON text (what the reader keeps, or the emitter writes), by the lexer. */
typedef struct ctg_jtext {
    ctg_lexer lx;
    ctg_token tok;
    int status; /* the first failure, repeated */
} ctg_jtext;

void ctg_jtext_init(ctg_jtext *w, const char *text, size_t len, const ctg_allocator *a);
void ctg_jtext_dispose(ctg_jtext *w);
/* The next token; KEY and STRING set *s, *n to the decoded bytes (valid until the next call),
 * NUMBER to its text. Returns a CTG_JT_* value, or the lexer's failure (CTG_ENOMEM; a syntax
 * error for text that is not JSON). */
int ctg_jtext_next(ctg_jtext *w, const char **s, size_t *n);
/* Whether a JSON number's text has no fraction and no exponent. */
bool ctg_jtext_is_integer(const char *s, size_t n);

/* Emits the value held in `len` bytes of compact JSON `text` as the emitter's next value, in
 * the emitter's layout; doubles as Java's Double.toString writes them. Iterative, so any depth
 * the emitter takes. A failure fails the emitter. */
void ctg_emit_json_text(ctg_emitter *e, const char *text, size_t len);

/* ---- json-c ----------------------------------------------------------------------------- */

/* Builds the json-c tree of the value in compact JSON `text` (*out NULL for JSON null), with
 * every json-c call checked: CTG_OK, CTG_ENOMEM (no tree), or CTG_EUNSUPPORTED for what json-c
 * cannot hold (a key with U+0000, a value nested deeper than CTG_JSONC_MAX_DEPTH). */
int ctg_json_text_to_jsonc(const char *text, size_t len, const ctg_allocator *a,
                           struct json_object **out);
/* The message for a failure of ctg_json_text_to_jsonc. */
const char *ctg_json_text_why(int rc);
/* json_object_put, for callers that do not include json-c. */
void ctg_jsonc_release(struct json_object *obj);

/* The compact JSON text of the json-c value `obj`, in memory from `a`: *data (*len bytes,
 * *cap allocated; release with ctg_mem_release(a, *data, *cap); NULL for no bytes). CTG_OK,
 * or CTG_EINVAL / CTG_ENOMEM with err->message and err->path (the value's JSON Pointer) set
 * and nothing allocated. */
int ctg_jsonc_text_of(const struct json_object *obj, const ctg_allocator *a, char **data,
                      size_t *len, size_t *cap, ctg_error *err);
/* The json-c tree of compact JSON text, as ctg_json_text_to_jsonc; a failure also fills `err`
 * (ctg_jsonc_plain_error). */
int ctg_jsonc_parse_text(struct json_object **out, const char *data, size_t len,
                         const ctg_allocator *a, ctg_error *err);
/* The source name of errors about a json-c tree. */
#define CTG_JSONC_SOURCE "<json-c>"
/* Completes an error about a json-c tree, which has no position: the source "<json-c>", no
 * line or column; path and message as an earlier step wrote them. Returns `code`. */
int ctg_jsonc_tree_error(ctg_error *err, int code);
/* As ctg_jsonc_tree_error, with no path and the message `msg` (not err->message). */
int ctg_jsonc_plain_error(ctg_error *err, int code, const char *msg);

/* ctg_emit_json flags. */
enum {
    /* Refuse NaN and infinities (the bridge: ctg's reader would not read them back). */
    CTG_EMIT_JSON_FINITE = 1u << 0
};

/* Emits the json-c value `v` (NULL is JSON null) as the emitter's next value: members in the
 * json-c object's order, integers as integers, doubles as Java's Double.toString writes them.
 * Returns CTG_OK, or CTG_EINVAL for a value that cannot be written (nested deeper than the
 * emitter allows, an integer beyond int64, a non-finite double with CTG_EMIT_JSON_FINITE), or
 * CTG_ENOMEM; the emitter is then failed with that message, and `path` (CTG_ERROR_PATH_MAX
 * bytes, may be NULL) receives the offending value's JSON Pointer relative to `v`. */
int ctg_emit_json(ctg_emitter *e, const struct json_object *v, unsigned flags, char *path);

#endif
