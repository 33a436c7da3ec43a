/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: reads and writes with a randomly failing allocator.
 *
 * The input is first taken through every operation with an allocator that never fails: the
 * reference. Then, at failure rates of 0.5%, 2% and 10%, with seeds drawn from a hash of the
 * input (so that an input replays the same failures), each operation runs again with every
 * allocator call failing at random: the full read, the stream read (with a visitor), the list
 * written to a buffer, the stream writer, the list and its extensions turned into json-c
 * trees, and a tree read back. Each run must end as the reference did (the same list, the same
 * bytes, the same error) or with CTG_ENOMEM and "out of memory" in its error record; and leave
 * no live bytes, no release of the wrong size, a buffer at its old length. An extension named
 * "typed" is read by a typed handler, so that handlers see failures too. json-c's own
 * allocations are not failed (json-c calls malloc). */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ctg/extension.h"
#include "ctg/jsonc.h"
#include "ctg/stream.h"
#include "tests/counting_alloc.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_STRING 4096
/* Extensions turned into trees per input: json-c makes each tree, then prints it. */
#define MAX_EXTENSIONS 16

/* ---- bytes -------------------------------------------------------------------------------- */

/* What an operation produced, in malloc'd memory (never through the allocator under test). */
typedef struct bytes {
    char *data;
    size_t len, cap;
} bytes;

static void bytes_add(bytes *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *p = realloc(b->data, cap);
        if (p == NULL)
            ctg_fuzz_fail("out of memory in the fuzz target");
        b->data = p;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void bytes_free(bytes *b)
{
    free(b->data);
    *b = (bytes){ NULL, 0, 0 };
}

static bool bytes_eq(const bytes *a, const bytes *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static bool bytes_prefix(const bytes *a, const bytes *b)
{
    return a->len <= b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* ---- a typed handler ---------------------------------------------------------------------- */

/* Keeps the value's json-c text in the list's memory and writes it back as a JSON string. */
static int typed_read(ctg_extension_ctx *ctx, const struct json_object *value, void *out,
                      void *payload)
{
    const char **text = out;
    /* json-c's printer takes a non-const object; it only adds its own string cache. */
    const char *s = json_object_to_json_string_ext((json_object *)(uintptr_t)value,
                                                   JSON_C_TO_STRING_PLAIN);

    (void)payload;
    if (s == NULL)
        return ctg_extension_fail(ctx, CTG_ESCHEMA, "json-c cannot print the value");
    *text = ctg_extension_strdup(ctx, s);
    return *text != NULL ? CTG_OK : CTG_ENOMEM;
}

static int typed_write(struct json_object **out, const void *in, void *payload)
{
    (void)payload;
    *out = json_object_new_string(*(const char *const *)in);
    return *out != NULL ? CTG_OK : CTG_ENOMEM;
}

static const ctg_extension_handler typed_handler = {
    .version = CTG_EXTENSION_HANDLER_VERSION, .name = "typed", .size = sizeof(const char *),
    .read = typed_read, .write = typed_write
};

/* The registry every read uses; made once, with malloc, and only read after that. */
static const ctg_extension_registry *registry(void)
{
    static ctg_extension_registry *reg;

    if (reg == NULL && (ctg_extension_registry_new(&reg, NULL) != CTG_OK
                        || ctg_extension_registry_add(reg, &typed_handler) != CTG_OK))
        ctg_fuzz_fail("cannot make the extension registry");
    return reg;
}

/* ---- runs --------------------------------------------------------------------------------- */

/* One operation's run: its allocator and what it is, for the messages. */
typedef struct run {
    ctg_test_alloc st;
    ctg_allocator a;
    const char *op;
    double rate;
    uint64_t seed;
} run;

static void run_init(run *r, const char *op, uint64_t seed, double rate)
{
    r->a = ctg_test_random_allocator(&r->st, seed, rate);
    r->op = op;
    r->rate = rate;
    r->seed = seed;
}

/* Everything was released, each with its size. */
static void check_clean(const run *r)
{
    if (r->st.live_bytes != 0 || r->st.bad_sizes != 0)
        ctg_fuzz_fail("%s at rate %g: %zu live bytes, %zu releases of the wrong size", r->op,
                      r->rate, r->st.live_bytes, r->st.bad_sizes);
}

/* A failure that is not the reference's must be out of memory, with its record filled. */
static void check_nomem(const run *r, int rc, const ctg_error *err)
{
    if (rc != CTG_ENOMEM || !r->st.failed)
        ctg_fuzz_fail("%s at rate %g: %s (%s) after %zu failed calls", r->op, r->rate,
                      ctg_status_name(rc), err ? err->message : "", r->st.failures);
    if (err == NULL)
        return;
    ctg_fuzz_check_error(rc, err);
    if (strcmp(err->message, "out of memory") != 0)
        ctg_fuzz_fail("%s at rate %g: out of memory reported as \"%s\"", r->op, r->rate,
                      err->message);
}

/* The same failure as the reference's: the same status, message, path and offset. */
static bool same_error(int rc, const ctg_error *err, int want, const ctg_error *ref)
{
    return rc == want && (rc == CTG_OK || (err->offset == ref->offset
                                           && strcmp(err->path, ref->path) == 0
                                           && strcmp(err->message, ref->message) == 0));
}

static ctg_read_options read_opts(const ctg_allocator *a)
{
    ctg_read_options o = CTG_READ_OPTIONS_INIT;

    o.allocator = a;
    o.max_string_len = FUZZ_MAX_STRING;
    o.extensions = registry();
    return o;
}

/* ---- the reference ------------------------------------------------------------------------ */

typedef struct reference {
    const uint8_t *data;
    size_t size;
    int rc;                 /* the full read */
    ctg_error err;
    ctg_list *list;
    bytes pretty, compact;  /* the list written */
    int stream_rc;          /* the stream read, and the digest of what it delivered */
    ctg_error stream_err;
    bytes stream;
    int tree_rc;            /* the list as a json-c tree, and that tree's text */
    json_object *tree;
    bytes tree_text;
    int back_rc;            /* the tree read back, written */
    bytes back;
    bytes extensions;       /* the first extensions as trees */
} reference;

/* The text ctg writes for `list`, appended to `out` (malloc). */
static void write_text(const ctg_list *list, unsigned flags, bytes *out)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    int rc;

    o.flags = flags;
    rc = ctg_list_write_buf(&buf, list, &o, &err);
    if (rc != CTG_OK)
        ctg_fuzz_fail("a list that was read does not write: %s: %s", ctg_status_name(rc),
                      err.message);
    bytes_add(out, buf.data, buf.len);
    ctg_buf_dispose(&buf);
}

/* A streamed contingency, written whole with malloc: what the stream digest compares. */
static int digest_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    bytes *out = payload;
    ctg_stream_writer *w = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    char head[80];
    int rc = ctg_stream_writer_open_buf(&w, &buf, "s", NULL, &err);

    if (rc == CTG_OK && (rc = ctg_stream_writer_add(w, c, &err)) != CTG_OK)
        ctg_stream_writer_abort(w);
    else if (rc == CTG_OK)
        rc = ctg_stream_writer_close(w, &err);
    if (rc != CTG_OK)
        ctg_fuzz_fail("a streamed contingency does not write: %s", err.message);
    snprintf(head, sizeof head, "C %d %zu %zu %s\n", (int)h->kind, h->depth, h->index,
             h->name ? "named" : "-");
    bytes_add(out, head, strlen(head));
    bytes_add(out, buf.data, buf.len);
    ctg_buf_dispose(&buf);
    return 0;
}

static int digest_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    bytes *out = payload;
    char head[80];

    snprintf(head, sizeof head, "L %d %zu %zu\n", (int)h->kind, h->depth, h->index);
    bytes_add(out, head, strlen(head));
    write_text(list, CTG_WRITE_COMPACT, out);
    return 0;
}

static int stream(const reference *ref, const ctg_allocator *a, bytes *digest, ctg_error *err)
{
    ctg_read_options o = read_opts(a);
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = digest_contingency,
                      .list = digest_list, .payload = digest };
    ctg_source src = ctg_source_buffer(ref->data, ref->size);

    return ctg_read_stream(&src, &v, &o, err);
}

/* One extension as a tree: its status and the tree's text to `out`, unless out of memory. */
static int extension_tree(const ctg_extension *x, const ctg_allocator *a, bytes *out)
{
    json_object *v = (json_object *)(uintptr_t)x;
    int rc = ctg_extension_to_json_object(&v, x, a);
    const char *s;

    if (rc != CTG_OK && v != NULL)
        ctg_fuzz_fail("ctg_extension_to_json_object: %s and a tree", ctg_status_name(rc));
    if (rc == CTG_ENOMEM)
        return rc;
    s = rc == CTG_OK ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "";
    bytes_add(out, ctg_status_name(rc), strlen(ctg_status_name(rc)));
    bytes_add(out, s, strlen(s));
    bytes_add(out, "\n", 1);
    json_object_put(v);
    return CTG_OK;
}

/* The first MAX_EXTENSIONS extensions of the `default` lists in `l` as trees (*left counts
 * down); stops at the first out of memory. */
static int extension_trees(const ctg_list *l, const ctg_allocator *a, bytes *out, size_t *left)
{
    int rc = CTG_OK;

    for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(l); i++) {
        const ctg_contingency *c = ctg_list_contingency_at(l, i);
        for (size_t k = 0; rc == CTG_OK && k < c->extension_count && *left > 0; k++, (*left)--)
            rc = extension_tree(&c->extensions[k], a, out);
    }
    for (size_t i = 0; rc == CTG_OK && i < ctg_list_child_count(l); i++)
        rc = extension_trees(ctg_list_child_at(l, i), a, out, left);
    return rc;
}

/* The tree of the list, and its text; the caller keeps the tree. */
static int to_tree(const ctg_list *list, const ctg_allocator *a, json_object **tree,
                   bytes *text, ctg_error *err)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;
    const char *s;
    int rc;

    o.allocator = a;
    *tree = (json_object *)&o;
    rc = ctg_list_to_json_object(tree, list, &o, err);
    if ((rc == CTG_OK) != (*tree != NULL))
        ctg_fuzz_fail("ctg_list_to_json_object: %s and tree %p", ctg_status_name(rc),
                      (void *)*tree);
    if (rc == CTG_OK) {
        s = json_object_to_json_string_ext(*tree, JSON_C_TO_STRING_PLAIN);
        bytes_add(text, s, strlen(s));
    }
    return rc;
}

/* The list read from the reference tree, written (pretty). */
static int from_tree(const reference *ref, const ctg_allocator *a, bytes *out, ctg_error *err)
{
    ctg_read_options o = read_opts(a);
    ctg_list *list = (ctg_list *)&o;
    int rc = ctg_list_from_json_object(&list, ref->tree, &o, err);

    if ((rc == CTG_OK) != (list != NULL))
        ctg_fuzz_fail("ctg_list_from_json_object: %s and list %p", ctg_status_name(rc),
                      (void *)list);
    if (rc == CTG_OK)
        write_text(list, 0, out);
    ctg_list_free(list);
    return rc;
}

static void reference_make(reference *ref, const uint8_t *data, size_t size)
{
    ctg_read_options o = read_opts(NULL);
    size_t left = MAX_EXTENSIONS;
    ctg_error err;

    memset(ref, 0, sizeof *ref);
    ref->data = data;
    ref->size = size;
    ref->rc = ctg_list_read_buffer(&ref->list, data, size, &o, &ref->err);
    ref->stream_rc = stream(ref, NULL, &ref->stream, &ref->stream_err);
    if (ref->rc != CTG_OK)
        return;
    ctg_fuzz_walk(ref->list);
    write_text(ref->list, 0, &ref->pretty);
    write_text(ref->list, CTG_WRITE_COMPACT, &ref->compact);
    if (extension_trees(ref->list, NULL, &ref->extensions, &left) != CTG_OK)
        ctg_fuzz_fail("an extension tree failed without a failing allocator");
    ref->tree_rc = to_tree(ref->list, NULL, &ref->tree, &ref->tree_text, &err);
    if (ref->tree_rc == CTG_OK)
        ref->back_rc = from_tree(ref, NULL, &ref->back, &err);
}

static void reference_free(reference *ref)
{
    ctg_list_free(ref->list);
    json_object_put(ref->tree);
    bytes_free(&ref->pretty);
    bytes_free(&ref->compact);
    bytes_free(&ref->stream);
    bytes_free(&ref->tree_text);
    bytes_free(&ref->back);
    bytes_free(&ref->extensions);
}

/* ---- the runs with failures --------------------------------------------------------------- */

static void fail_read(run *r, const reference *ref)
{
    ctg_read_options o = read_opts(&r->a);
    ctg_list *list = (ctg_list *)&o;
    ctg_error err;
    char why[512];
    int rc = ctg_list_read_buffer(&list, ref->data, ref->size, &o, &err);

    if ((rc == CTG_OK) != (list != NULL))
        ctg_fuzz_fail("read: %s and list %p", ctg_status_name(rc), (void *)list);
    if (rc == CTG_OK && ref->rc == CTG_OK) {
        ctg_fuzz_walk(list);
        if (!ctg_fuzz_list_equal(ref->list, list, 0, why, sizeof why))
            ctg_fuzz_fail("read at rate %g: the list differs: %s", r->rate, why);
        ctg_list_free(list);
    } else if (!same_error(rc, &err, ref->rc, &ref->err)) {
        check_nomem(r, rc, &err);
    }
    check_clean(r);
}

static void fail_stream(run *r, const reference *ref)
{
    bytes digest = { NULL, 0, 0 };
    ctg_error err;
    int rc = stream(ref, &r->a, &digest, &err);

    if (same_error(rc, &err, ref->stream_rc, &ref->stream_err)) {
        if (!bytes_eq(&digest, &ref->stream))
            ctg_fuzz_fail("stream at rate %g: other items delivered", r->rate);
    } else {
        check_nomem(r, rc, &err);
        if (!bytes_prefix(&digest, &ref->stream))
            ctg_fuzz_fail("stream at rate %g: a failed stream delivered other items", r->rate);
    }
    bytes_free(&digest);
    check_clean(r);
}

/* A buffer of the failing allocator that already holds the list's compact text; returns its
 * length. */
static size_t old_buffer(run *r, const reference *ref, ctg_buf *buf)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;
    double rate = r->st.fail_rate;
    ctg_error err;

    *buf = (ctg_buf)CTG_BUF_INIT;
    buf->allocator = &r->a;
    o.allocator = &r->a;
    o.flags = CTG_WRITE_COMPACT;
    r->st.fail_rate = 0; /* the set-up must not fail */
    if (ctg_list_write_buf(buf, ref->list, &o, &err) != CTG_OK)
        ctg_fuzz_fail("%s: the first write failed: %s", r->op, err.message);
    r->st.fail_rate = rate;
    return buf->len;
}

/* After a write to a buffer that held `old_len` bytes: exactly `want` appended, or out of
 * memory with the buffer at its old length; the old bytes unchanged either way. */
static void buffer_done(run *r, int rc, const ctg_error *err, ctg_buf *buf,
                        const reference *ref, const bytes *want)
{
    size_t old_len = ref->compact.len;

    if (rc == CTG_OK) {
        if (buf->len != old_len + want->len
            || memcmp(buf->data + old_len, want->data, want->len) != 0)
            ctg_fuzz_fail("%s at rate %g: other bytes written", r->op, r->rate);
    } else {
        check_nomem(r, rc, err);
        if (buf->len != old_len)
            ctg_fuzz_fail("%s at rate %g: a failed write left %zu bytes, not %zu", r->op,
                          r->rate, buf->len, old_len);
    }
    if (memcmp(buf->data, ref->compact.data, old_len) != 0)
        ctg_fuzz_fail("%s at rate %g: the bytes already in the buffer changed", r->op, r->rate);
    ctg_buf_dispose(buf);
    check_clean(r);
}

/* The pretty layout on even seeds, the compact one on odd ones. */
static void fail_write(run *r, const reference *ref)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf;
    ctg_error err;
    int rc;

    old_buffer(r, ref, &buf);
    o.allocator = &r->a;
    o.flags = r->seed & 1 ? CTG_WRITE_COMPACT : 0;
    rc = ctg_list_write_buf(&buf, ref->list, &o, &err);
    buffer_done(r, rc, &err, &buf, ref, r->seed & 1 ? &ref->compact : &ref->pretty);
}

/* A `default` list again through the stream writer: the same bytes as the whole write. */
static void fail_stream_writer(run *r, const reference *ref)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;
    ctg_stream_writer *w = (ctg_stream_writer *)&o;
    ctg_buf buf;
    ctg_error err;
    int rc;

    old_buffer(r, ref, &buf);
    o.allocator = &r->a;
    rc = ctg_stream_writer_open_buf(&w, &buf, ctg_list_name(ref->list), &o, &err);
    if ((rc == CTG_OK) != (w != NULL))
        ctg_fuzz_fail("stream writer: %s and writer %p", ctg_status_name(rc), (void *)w);
    for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(ref->list); i++)
        rc = ctg_stream_writer_add(w, ctg_list_contingency_at(ref->list, i), &err);
    if (rc == CTG_OK)
        rc = ctg_stream_writer_close(w, &err);
    else if (w != NULL)
        ctg_stream_writer_abort(w);
    buffer_done(r, rc, &err, &buf, ref, &ref->pretty);
}

static void fail_to_tree(run *r, const reference *ref)
{
    json_object *tree;
    bytes text = { NULL, 0, 0 };
    ctg_error err;
    int rc = to_tree(ref->list, &r->a, &tree, &text, &err);

    if (rc == ref->tree_rc) {
        if (!bytes_eq(&text, &ref->tree_text))
            ctg_fuzz_fail("to json-c at rate %g: another tree", r->rate);
    } else {
        check_nomem(r, rc, &err);
    }
    json_object_put(tree);
    bytes_free(&text);
    check_clean(r);
}

static void fail_from_tree(run *r, const reference *ref)
{
    bytes text = { NULL, 0, 0 };
    ctg_error err;
    int rc = from_tree(ref, &r->a, &text, &err);

    if (rc == ref->back_rc) {
        if (!bytes_eq(&text, &ref->back))
            ctg_fuzz_fail("from json-c at rate %g: another list", r->rate);
    } else {
        check_nomem(r, rc, &err);
    }
    bytes_free(&text);
    check_clean(r);
}

/* ctg_extension_to_json_object has no error record: only its status is checked. */
static void fail_extensions(run *r, const reference *ref)
{
    bytes text = { NULL, 0, 0 };
    size_t left = MAX_EXTENSIONS;
    int rc = extension_trees(ref->list, &r->a, &text, &left);

    if (rc == CTG_OK ? !bytes_eq(&text, &ref->extensions)
                     : !bytes_prefix(&text, &ref->extensions))
        ctg_fuzz_fail("extension trees at rate %g: other trees", r->rate);
    if (rc != CTG_OK)
        check_nomem(r, rc, NULL);
    bytes_free(&text);
    check_clean(r);
}

/* ---- the target --------------------------------------------------------------------------- */

/* FNV-1a of the input: its failures depend on its bytes only, so a crash replays. */
static uint64_t hash(const uint8_t *data, size_t size)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);

    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * UINT64_C(0x100000001b3);
    return h;
}

typedef void (*fail_fn)(run *r, const reference *ref);

typedef struct op {
    const char *name;
    fail_fn fn;
    bool needs_list;   /* runs only when the reference read succeeded */
} op;

static const op ops[] = {
    { "read", fail_read, false },
    { "stream", fail_stream, false },
    { "write", fail_write, true },
    { "stream writer", fail_stream_writer, true },
    { "list to json-c", fail_to_tree, true },
    { "list from json-c", fail_from_tree, true },
    { "extensions to json-c", fail_extensions, true },
};

/* Whether `o` has something to work on: a list that was read, a `default` one for the
 * stream writer, a tree for the read of a tree. */
static bool applies(const op *o, const reference *ref)
{
    if (o->needs_list && ref->rc != CTG_OK)
        return false;
    if (o->fn == fail_stream_writer)
        return ctg_list_get_kind(ref->list) == CTG_LIST_DEFAULT;
    return o->fn != fail_from_tree || ref->tree_rc == CTG_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const double rates[] = { 0.005, 0.02, 0.10 };
    const uint64_t h = hash(data, size);
    reference ref;

    reference_make(&ref, data, size);
    for (size_t i = 0; i < sizeof rates / sizeof *rates; i++) {
        for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
            run r;
            if (!applies(&ops[k], &ref))
                continue;
            run_init(&r, ops[k].name, h ^ (i << 8 | k) * UINT64_C(0x9e3779b97f4a7c15), rates[i]);
            ops[k].fn(&r, &ref);
        }
    }
    reference_free(&ref);
    return 0;
}
