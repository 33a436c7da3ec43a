#ifndef CTG_SERDE_EMIT_H
#define CTG_SERDE_EMIT_H

/* Private: a buffered JSON emitter producing PowSyBl's pretty layout (spec section 7) or a
 * compact one. Errors are sticky: every call after a failure is a no-op, and ctg_emit_finish
 * returns the first failure, so writers need not check each call. No printf on this path. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/io.h"

/* Receives the emitter's output in pieces; returns CTG_OK, or CTG_EIO/CTG_ENOMEM after filling
 * err->message. */
typedef int (*ctg_sink_fn)(void *ctx, const char *data, size_t len, ctg_error *err);

#define CTG_EMIT_MAX_DEPTH 256

typedef struct ctg_emitter {
    /* Private to emit.c; in the header only so that callers can embed the struct. */
    ctg_sink_fn sink;
    void *ctx;
    const ctg_allocator *alloc;
    bool compact;
    char *buf;
    size_t len;
    size_t cap;
    int status;                 /* first failure, sticky */
    ctg_error *err;
    unsigned obj_depth;         /* open objects: the indent level of the pretty layout */
    unsigned depth;             /* open containers */
    uint32_t first[CTG_EMIT_MAX_DEPTH / 32]; /* bit per open container: no item yet */
    uint32_t is_obj[CTG_EMIT_MAX_DEPTH / 32];
    bool after_key;             /* the next value follows a key */
} ctg_emitter;

/* Prepares `e` to emit to `sink`. `err` receives sink and memory failures. */
int ctg_emit_init(ctg_emitter *e, ctg_sink_fn sink, void *ctx, bool compact,
                  const ctg_allocator *a, ctg_error *err);
/* Flushes what is buffered; returns the first failure of the whole emission, or CTG_OK. */
int ctg_emit_finish(ctg_emitter *e);
/* Releases the emitter's buffer. Accepts a zeroed or disposed emitter. */
void ctg_emit_dispose(ctg_emitter *e);

/* Records a failure of a writer above the emitter (a rule broken, a handler's error): the
 * first failure sticks, `msg` goes to err->message, and later calls do nothing. */
void ctg_emit_fail(ctg_emitter *e, int code, const char *msg);

void ctg_emit_object_begin(ctg_emitter *e);
void ctg_emit_object_end(ctg_emitter *e);
void ctg_emit_array_begin(ctg_emitter *e);
void ctg_emit_array_end(ctg_emitter *e);
/* A member name; the next call emits its value. */
void ctg_emit_key(ctg_emitter *e, const char *key, size_t len);
void ctg_emit_string(ctg_emitter *e, const char *s, size_t len);
/* Java Double.toString layout (spec section 7). */
void ctg_emit_double(ctg_emitter *e, double v);
void ctg_emit_int(ctg_emitter *e, int64_t v);
void ctg_emit_bool(ctg_emitter *e, bool v);
void ctg_emit_null(ctg_emitter *e);

/* Convenience for NUL-terminated literals. */
#define CTG_EMIT_KEY(e, lit) ctg_emit_key((e), (lit), sizeof(lit) - 1)

#endif
