/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_RESOLVE_INT_H
#define CTG_NETWORK_RESOLVE_INT_H

/* Private: the state of one evaluation (ctg_resolve, ctg_resolve_stream), shared by the files
 * that resolve each list kind: where the contingencies go, the JSON path of the item being
 * resolved, the report callback and scratch memory reused from item to item, so that resolving
 * an identifier allocates nothing but its output. */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/error.h"
#include "ctg/model.h"
#include "ctg/network.h"
#include "ctg/resolve.h"
#include "base/error_set.h"

/* A hint that `p` will be read soon; nothing where the compiler has no such built-in. */
#if defined(__GNUC__) || defined(__clang__)
#define CTG_RS_PREFETCH(p) __builtin_prefetch(p)
#else
#define CTG_RS_PREFETCH(p) ((void)(p))
#endif

/* Where resolved contingencies go: a list being built or a stream writer. */
typedef struct rs_sink {
    int (*add)(void *target, const ctg_contingency *c, ctg_error *err);
    void *target;
    ctg_list *list; /* the target when it is a list being built: its fast append is open */
} rs_sink;

/* The ids of the calculated buses of node-breaker voltage levels, hashed once per evaluation
 * when the first BUS element is not a declared bus. */
typedef struct rs_bus_set {
    const char **slots; /* open addressing, NULL = empty */
    size_t mask;        /* slot count - 1; 0 before it is built */
    bool built;
} rs_bus_set;

typedef struct rs_ctx {
    const ctg_network *net;
    const ctg_allocator *alloc; /* the caller's hooks for every block below (NULL: malloc) */
    int (*report)(const ctg_resolve_event *event, void *payload);
    void *payload;
    ctg_error *err;
    rs_sink sink;
    char path[CTG_ERROR_PATH_MAX]; /* JSON Pointer of the item being resolved */
    size_t path_len;
    ctg_element *elems; /* the elements of the contingency being built */
    size_t elem_cap;
    const ctg_net_object **objs; /* an identifier's match set */
    size_t obj_len, obj_cap;
    uint32_t *stamps; /* per document index: == stamp when in the current match set */
    size_t stamp_count;
    uint32_t stamp;
    char *text; /* a generated contingency id */
    size_t text_len, text_cap;
    rs_bus_set buses;
} rs_ctx;

/* resolve.c */
void ctg_rs_init(rs_ctx *ctx, const ctg_network *net, const ctg_resolve_options *opts,
                 ctg_error *err);
void ctg_rs_dispose(rs_ctx *ctx);
/* Names the input of a failed evaluation in err->source (the list itself has no file name:
 * "<list>"; a stream read names its source); returns `rc`. */
int ctg_rs_finish(ctg_error *err, int rc, const char *source);
/* CTG_EINVAL for a NULL network or list, or options newer than the library. */
int ctg_rs_check_args(const ctg_network *net, const void *what,
                      const ctg_resolve_options *opts, ctg_error *err);
/* Resolves `list` (any kind) into the sink. */
int ctg_rs_list(rs_ctx *ctx, const ctg_list *list);
/* Appends "/seg" (or "/N") to the path; returns the length to restore with ctg_rs_path_pop. */
size_t ctg_rs_path_push(rs_ctx *ctx, const char *seg);
size_t ctg_rs_path_push_index(rs_ctx *ctx, size_t index);
void ctg_rs_path_pop(rs_ctx *ctx, size_t len);
/* Fails the evaluation at the current path: CTG_ESCHEMA with the formatted message. */
int ctg_rs_fail(rs_ctx *ctx, const char *fmt, ...) CTG_PRINTF(2, 3);
/* CTG_ENOMEM with a message. */
int ctg_rs_nomem(rs_ctx *ctx);
/* Reports an event at the current path when a callback is set (the message is formatted only
 * then); CTG_ESTOPPED when the callback asks to stop. */
int ctg_rs_report(rs_ctx *ctx, ctg_resolve_event_kind kind, const char *contingency_id,
                  const char *element_id, ctg_element_type type, const char *fmt, ...)
    CTG_PRINTF(6, 7);
/* Room for `n` elements / match-set objects / text bytes in the scratch arrays. */
bool ctg_rs_elems_room(rs_ctx *ctx, size_t n);
bool ctg_rs_objs_push(rs_ctx *ctx, const ctg_net_object *obj);
bool ctg_rs_text_append(rs_ctx *ctx, const char *s, size_t len);
/* Starts a new match set with per-object deduplication (ctg_rs_objs_add_unique). */
int ctg_rs_set_begin(rs_ctx *ctx);
int ctg_rs_objs_add_unique(rs_ctx *ctx, const ctg_net_object *obj);

/* resolve_map.c: spec 3 and the contingencies built from objects. */
/* What a generated contingency id starts with; the element ids follow, joined by " + ". */
#define CTG_RS_GENERATED "Contingency : "
/* The element an object becomes; fails (ctg_rs_fail) for an object that cannot be one. */
int ctg_rs_map(rs_ctx *ctx, const ctg_net_object *obj, ctg_element *out);
/* ctg_rs_map without the message: false for an object that cannot be an element. */
bool ctg_rs_map_element(const ctg_net_object *obj, ctg_element *out);
/* One contingency of the one element `e` (its side NULL), id `prefix_len` bytes of `prefix`
 * then e->id. `id_len`: strlen(e->id) when the caller knows that id to be UTF-8 (it is the
 * text of a list's identifier), else CTG_RS_UNCHECKED. A failure's message is set, its path
 * is the current one. */
#define CTG_RS_UNCHECKED SIZE_MAX
int ctg_rs_emit_element(rs_ctx *ctx, const ctg_element *e, const char *prefix, size_t prefix_len,
                        size_t id_len);
/* One contingency with one element per object of the match set, id `id` or, when NULL, the
 * generated "Contingency : a + b" one. */
int ctg_rs_emit_set(rs_ctx *ctx, const char *id);
/* One contingency of one element, the object's, with id `id` (NULL: the element's id). */
int ctg_rs_emit_one(rs_ctx *ctx, const ctg_net_object *obj, const char *id);

/* resolve_default.c */
int ctg_rs_default(rs_ctx *ctx, const ctg_list *list);
/* The validity check of one contingency at the current path (its "/contingencies/N"). */
int ctg_rs_check(rs_ctx *ctx, const ctg_contingency *c, bool *valid);

/* resolve_criterion.c */
int ctg_rs_criterion(rs_ctx *ctx, const ctg_list *list);
/* The filter pipeline of 5.2 on one object, for a caller that enumerates the objects itself
 * (the generator): *pass when every criterion of `cr` accepts `obj`. `*re` is the regex of
 * cr->regex, compiled at its first use when NULL; the caller releases it (ctg_regex_free). */
struct ctg_regex;
int ctg_rs_criteria_accept(rs_ctx *ctx, const ctg_criteria *cr, const ctg_net_object *obj,
                           struct ctg_regex **re, bool *pass);

/* resolve_identifier.c */
int ctg_rs_identifier(rs_ctx *ctx, const ctg_list *list);
/* The ID_WITH_WILDCARDS match of `id` against `pattern` with wildcard code point `w`. */
bool ctg_rs_wildcard_match(const char *pattern, unsigned w, const char *id);

#endif
