/* SPDX-License-Identifier: MPL-2.0 */
/* Memory: every allocation goes through the hooks, absent optional fields cost nothing, and
 * a failure at any allocation is a clean CTG_ENOMEM that leaks nothing. */

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>
#include <zlib.h>

#include "ctg/ctg.h"
#include "ctg/extension.h"
#include "ctg/jsonc.h"
#include "ctg/stream.h"
#include "base/arena.h"
#include "format/read_internal.h"
#include "tests/test_common.h"

/* n contingencies of one LINE each; with `optionals`, each has a name and a side. */
static char *make_doc(size_t n, int optionals)
{
    char *doc = malloc(64 + n * 160);
    size_t len = (size_t)sprintf(doc, "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"l\","
                                      "\"contingencies\":[");

    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(doc + len,
                               "%s{\"id\":\"c%zu\",%s\"elements\":[{\"id\":\"L%zu\",\"type\":\"LINE\""
                               "%s}]}",
                               i ? "," : "", i, optionals ? "\"name\":\"n\"," : "", i,
                               optionals ? ",\"voltageLevelId\":\"VL\"" : "");
    sprintf(doc + len, "]}");
    return doc;
}

/* Allocator calls of one read in exact-arena mode (one call per arena request). */
static size_t calls_for(size_t n, int optionals)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    char *doc = make_doc(n, optionals);
    ctg_list *list = NULL;

    opts.allocator = &a;
    CU_ASSERT_EQUAL(ctg_list_read_buffer_ex(&list, doc, strlen(doc), &opts, NULL,
                                            CTG_ARENA_EXACT), CTG_OK);
    ctg_list_free(list);
    free(doc);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    return st.allocs;
}

/* A contingency costs three allocations (its id, its element array, the element's id); an
 * absent name or voltageLevelId adds none, a present one adds exactly its string. */
CTG_TEST(alloc, absent_optional_fields_allocate_nothing)
{
    size_t five = calls_for(5, 0), ten = calls_for(10, 0);

    CU_ASSERT_EQUAL(ten - five, 5 * 3);
    CU_ASSERT_EQUAL(calls_for(10, 1) - ten, 10 * 2);
}

CTG_TEST(alloc, failure_sweep_exact_arena)
{
    char *doc = make_doc(30, 1);
    ctg_test_sweep_spec how = { CTG_ARENA_EXACT, false, NULL, CTG_OK, NULL, NULL };

    CU_ASSERT(ctg_test_sweep(doc, strlen(doc), &how) > 30 * 4);
    free(doc);
}

CTG_TEST(alloc, failure_sweep_chunked_arena_from_file)
{
    char *doc = make_doc(2000, 1); /* > 64 KiB: refills, arena chunks, array hand-over */
    ctg_test_sweep_spec how = { 0, true, NULL, CTG_OK, NULL, NULL };

    CU_ASSERT(ctg_test_sweep(doc, strlen(doc), &how) > 5);
    free(doc);
}

/* Invalid input with a failing allocator still frees everything. */
CTG_TEST(alloc, failure_sweep_on_invalid_input)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"l\",\"contingencies\":[{\"id\":\"a\"},"
                              "{\"id\":\"b\",\"elements\":[{\"id\":\"x\"}]}]}";
    for (size_t n = 1; n < 40; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_read_options opts = CTG_READ_OPTIONS_INIT;
        ctg_list *list = NULL;
        int rc;

        st.fail_at = n;
        opts.allocator = &a;
        rc = ctg_list_read_buffer_ex(&list, doc, sizeof(doc) - 1, &opts, NULL, CTG_ARENA_EXACT);
        CU_ASSERT(rc == CTG_ENOMEM || rc == CTG_ESCHEMA);
        CU_ASSERT_PTR_NULL(list);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
    }
}

/* Without a resize hook, ctg falls back to alloc + copy + release. */
CTG_TEST(alloc, works_without_resize_hook)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator_noresize(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    char *doc = make_doc(3000, 0);
    ctg_list *list = NULL;

    opts.allocator = &a;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, strlen(doc), &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 3000);
    CU_ASSERT(st.allocs > 0);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    free(doc);
}

/* ---- random allocation failures over every reader and writer ------------------------------ */

/* A sweep that fails the Nth call never reaches a failure that needs an earlier one to have
 * failed first (the stream writer's use after free on a failed buffer did). Here every
 * operation runs for many seeds with each allocator call failing at random, and each run must
 * end either CTG_OK with exactly what the run without failures gave, or CTG_ENOMEM with the
 * error record filled; and nothing leaked, no size mismatch, no output or temporary file left,
 * a ctg_buf back at its old length. json-c's own allocations cannot be failed (it calls
 * malloc); ctg's scratch memory around them can. */

/* An application's typed extension, so that a handler's read and its strdup are failed too. */

/* Bytes an operation produced (never through the allocator under test). */
typedef ctg_test_text bytes;

static bool bytes_eq(const bytes *a, const bytes *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Whether `a` is a prefix of `b`. */
static bool bytes_prefix(const bytes *a, const bytes *b)
{
    return a->len <= b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* One document, read once with malloc, and the files the operations use. */
typedef struct fixture {
    const char *name;
    char *text;                  /* the JSON text */
    char *doc;                   /* what the readers read: the text, or its gzip */
    size_t len;
    bool gz;                     /* doc is gzip, and the path writes compress */
    ctg_list *list;
    const ctg_list *dflt;        /* its first `default` list, for the stream writer */
    json_object *tree;           /* json-c's own tree of doc */
    FILE *in, *out;              /* doc, for the FILE * reads; the FILE * writes' target */
    char dir[256], in_path[300], out_dir[300], out_path[320];
} fixture;

/* One run of one operation. */
typedef struct run {
    const fixture *f;
    const char *op;
    uint64_t seed;
    double rate;
    ctg_test_alloc st;
    ctg_allocator a;
    ctg_error err;
    bool has_err;                /* the operation has an error record to check */
    bytes got;                   /* what it produced: written bytes, a digest, a tree's text */
    size_t shown;
} run;

typedef int (*op_fn)(run *r);

/* Records a check; the first few failures say which run it was (a seed replays the same
 * failures: the runs are deterministic). */
static bool expect_at(run *r, bool ok, const char *what, unsigned line)
{
    if (!ok && r->shown++ < 5)
        printf("\n  %s, %s, seed %llu, rate %g: %s (line %u)", r->f->name, r->op,
               (unsigned long long)r->seed, r->rate, what, line);
    CU_assertImplementation(ok, line, what, __FILE__, "", CU_FALSE);
    return ok;
}

#define EXPECT(r, cond) expect_at((r), (cond), #cond, __LINE__)

/* Stops the failures while a run sets up its target; returns the rate to restore. */
static double pause_failures(run *r)
{
    double rate = r->st.fail_rate;

    r->st.fail_rate = 0;
    return rate;
}

/* ---- readers ---- */

/* A read's outcome: on success the list's pretty text (written with malloc) goes to got. */
static int read_done(run *r, int rc, ctg_list *list)
{
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error e;

    if (rc == CTG_OK && EXPECT(r, list != NULL)) {
        EXPECT(r, ctg_list_write_buf(&buf, list, NULL, &e) == CTG_OK);
        ctg_test_text_add(&r->got, buf.data ? buf.data : "", buf.len);
        ctg_buf_dispose(&buf);
        ctg_list_free(list);
    } else if (rc != CTG_OK) {
        EXPECT(r, list == NULL);
    }
    return rc;
}

static ctg_read_options read_opts(run *r)
{
    ctg_read_options o = CTG_READ_OPTIONS_INIT;

    o.allocator = &r->a;
    return o;
}

#define STALE_LIST ((ctg_list *)&stale_list)
static char stale_list;

/* Odd seeds read with the chunked arena, even ones with one allocator call per request. */
static int op_read_buffer(run *r)
{
    ctg_read_options o = read_opts(r);
    ctg_list *list = STALE_LIST;
    int rc = r->seed & 1 ? ctg_list_read_buffer(&list, r->f->doc, r->f->len, &o, &r->err)
                         : ctg_list_read_buffer_ex(&list, r->f->doc, r->f->len, &o, &r->err,
                                                   CTG_ARENA_EXACT);

    return read_done(r, rc, list);
}

static int op_read_fp(run *r)
{
    ctg_read_options o = read_opts(r);
    ctg_list *list = STALE_LIST;
    int rc;

    rewind(r->f->in);
    rc = ctg_list_read_fp(&list, r->f->in, &o, &r->err);
    return read_done(r, rc, list);
}

static int op_read_file(run *r)
{
    ctg_read_options o = read_opts(r);
    ctg_list *list = STALE_LIST;
    int rc = ctg_list_read_file(&list, r->f->in_path, &o, &r->err);

    return read_done(r, rc, list);
}

static int op_from_json_object(run *r)
{
    ctg_read_options o = read_opts(r);
    ctg_list *list = STALE_LIST;
    int rc = ctg_list_from_json_object(&list, r->f->tree, &o, &r->err);

    return read_done(r, rc, list);
}

/* The registry too is made with the failing allocator; it has no error record. */
static int op_read_typed(run *r)
{
    ctg_read_options o = read_opts(r);
    ctg_extension_registry *reg = NULL;
    ctg_list *list = STALE_LIST;
    int rc = ctg_extension_registry_new(&reg, &r->a);

    if (rc == CTG_OK)
        rc = ctg_extension_registry_add(reg, &ctg_test_probability_handler);
    if (rc != CTG_OK) {
        r->has_err = false;
        EXPECT(r, rc == CTG_ENOMEM && ctg_extension_registry_count(reg) == 0);
        ctg_extension_registry_free(reg);
        return rc;
    }
    o.extensions = reg;
    rc = ctg_list_read_buffer(&list, r->f->doc, r->f->len, &o, &r->err);
    rc = read_done(r, rc, list);
    ctg_extension_registry_free(reg);
    return rc;
}

/* A streamed contingency, written with malloc by a stream writer: its whole text. */
static int digest_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    run *r = payload;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_stream_writer *w = NULL;
    ctg_error e;
    char head[64];

    snprintf(head, sizeof head, "C %d %zu %zu\n", (int)h->kind, h->depth, h->index);
    ctg_test_text_add(&r->got, head, strlen(head));
    if (EXPECT(r, ctg_stream_writer_open_buf(&w, &buf, h->name ? h->name : "?", NULL, &e)
                      == CTG_OK)) {
        EXPECT(r, ctg_stream_writer_add(w, c, &e) == CTG_OK);
        EXPECT(r, ctg_stream_writer_close(w, &e) == CTG_OK);
    }
    ctg_test_text_add(&r->got, buf.data ? buf.data : "", buf.len);
    ctg_buf_dispose(&buf);
    return 0;
}

static int digest_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    run *r = payload;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error e;
    char head[64];

    snprintf(head, sizeof head, "L %d %zu %zu\n", (int)h->kind, h->depth, h->index);
    ctg_test_text_add(&r->got, head, strlen(head));
    EXPECT(r, ctg_list_write_buf(&buf, list, NULL, &e) == CTG_OK);
    ctg_test_text_add(&r->got, buf.data ? buf.data : "", buf.len);
    ctg_buf_dispose(&buf);
    return 0;
}

/* The stream read from memory, a FILE * or a path (by seed): the same digest each way. What a
 * failed read delivered before failing must be a prefix of the whole. */
static int op_read_stream(run *r)
{
    ctg_read_options o = read_opts(r);
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = digest_contingency,
                      .list = digest_list, .payload = r };
    ctg_source src = ctg_source_buffer(r->f->doc, r->f->len);

    if (r->seed % 3 == 1) {
        rewind(r->f->in);
        src = ctg_source_fp(r->f->in);
    } else if (r->seed % 3 == 2) {
        src = ctg_source_path(r->f->in_path);
    }
    return ctg_read_stream(&src, &v, &o, &r->err);
}

/* ---- writers ---- */

static ctg_write_options write_opts(run *r, unsigned flags)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;

    o.allocator = &r->a;
    o.flags = flags;
    return o;
}

/* A buffer of the failing allocator that already holds some bytes (kept in *old). */
static void buf_with_old_bytes(run *r, ctg_buf *buf, bytes *old)
{
    ctg_write_options o = write_opts(r, CTG_WRITE_COMPACT);
    double rate = pause_failures(r);

    *buf = (ctg_buf)CTG_BUF_INIT;
    buf->allocator = &r->a;
    EXPECT(r, ctg_list_write_buf(buf, r->f->list, &o, &r->err) == CTG_OK);
    r->st.fail_rate = rate;
    *old = (bytes){ NULL, 0, 0 };
    ctg_test_text_add(old, buf->data, buf->len);
}

/* After a write into a buffer that held `old`: the new bytes to got, or the old length back. */
static void buf_done(run *r, int rc, ctg_buf *buf, bytes *old)
{
    if (rc == CTG_OK && EXPECT(r, buf->len >= old->len))
        ctg_test_text_add(&r->got, buf->data + old->len, buf->len - old->len);
    else if (rc != CTG_OK)
        EXPECT(r, buf->len == old->len);
    EXPECT(r, buf->len >= old->len && memcmp(buf->data, old->data, old->len) == 0);
    ctg_buf_dispose(buf);
    free(old->data);
}

static int op_write_buf(run *r)
{
    ctg_write_options o = write_opts(r, 0);
    ctg_buf buf;
    bytes old;
    int rc;

    buf_with_old_bytes(r, &buf, &old);
    rc = ctg_list_write_buf(&buf, r->f->list, &o, &r->err);
    buf_done(r, rc, &buf, &old);
    return rc;
}

/* The whole content of `fp` to got. */
static void file_bytes(run *r, FILE *fp)
{
    char chunk[4096];
    size_t n;

    rewind(fp);
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        ctg_test_text_add(&r->got, chunk, n);
}

/* A FILE * write is not atomic: what a failed one wrote must be a prefix of the whole. */
static int op_write_fp(run *r)
{
    ctg_write_options o = write_opts(r, CTG_WRITE_COMPACT);
    FILE *fp = r->f->out;
    int rc;

    rewind(fp);
    EXPECT(r, ftruncate(fileno(fp), 0) == 0);
    rc = ctg_list_write_fp(fp, r->f->list, &o, &r->err);
    fflush(fp);
    file_bytes(r, fp);
    return rc;
}

/* out_path holds "old"; afterwards it holds the whole output or still "old", and nothing else
 * is in its folder. */
static void put_old_file(run *r)
{
    FILE *fp = fopen(r->f->out_path, "wb");

    if (EXPECT(r, fp != NULL)) {
        fputs("old", fp);
        fclose(fp);
    }
}

static void path_done(run *r, int rc)
{
    size_t len, entries = 0;
    char *back = ctg_test_slurp(r->f->out_path, &len);
    DIR *d = opendir(r->f->out_dir);

    if (EXPECT(r, back != NULL) && rc == CTG_OK)
        ctg_test_text_add(&r->got, back, len);
    else if (back != NULL)
        EXPECT(r, strcmp(back, "old") == 0);
    free(back);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        entries += e->d_name[0] != '.';
    if (d != NULL)
        closedir(d);
    EXPECT(r, entries == 1);
}

static int op_write_file(run *r)
{
    ctg_write_options o = write_opts(r, 0);
    int rc;

    put_old_file(r);
    rc = ctg_list_write_file(r->f->out_path, r->f->list, &o, &r->err);
    path_done(r, rc);
    return rc;
}

/* open, add each contingency of the first `default` list, close; abort after a failure. */
static int stream_write(run *r, ctg_stream_writer *w, int rc)
{
    const ctg_list *l = r->f->dflt;

    if (rc != CTG_OK) {
        EXPECT(r, w == NULL);
        return rc;
    }
    for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(l); i++)
        rc = ctg_stream_writer_add(w, ctg_list_contingency_at(l, i), &r->err);
    if (rc != CTG_OK) {
        ctg_stream_writer_abort(w);
        return rc;
    }
    return ctg_stream_writer_close(w, &r->err);
}

static int op_stream_write_buf(run *r)
{
    ctg_write_options o = write_opts(r, 0);
    ctg_stream_writer *w = (ctg_stream_writer *)&stale_list;
    ctg_buf buf;
    bytes old;
    int rc;

    buf_with_old_bytes(r, &buf, &old);
    rc = ctg_stream_writer_open_buf(&w, &buf, ctg_list_name(r->f->dflt), &o, &r->err);
    rc = stream_write(r, w, rc);
    buf_done(r, rc, &buf, &old);
    return rc;
}

static int op_stream_write_path(run *r)
{
    ctg_write_options o = write_opts(r, CTG_WRITE_COMPACT);
    ctg_stream_writer *w = (ctg_stream_writer *)&stale_list;
    int rc;

    put_old_file(r);
    rc = ctg_stream_writer_open_path(&w, r->f->out_path, ctg_list_name(r->f->dflt), &o,
                                     &r->err);
    rc = stream_write(r, w, rc);
    path_done(r, rc);
    return rc;
}

static void tree_bytes(run *r, json_object *t)
{
    const char *s = json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN);

    ctg_test_text_add(&r->got, s, strlen(s));
}

static int op_to_json_object(run *r)
{
    ctg_write_options o = write_opts(r, 0);
    json_object *t = (json_object *)&stale_list;
    int rc = ctg_list_to_json_object(&t, r->f->list, &o, &r->err);

    if (rc == CTG_OK && EXPECT(r, t != NULL))
        tree_bytes(r, t);
    else if (rc != CTG_OK)
        EXPECT(r, t == NULL);
    json_object_put(rc == CTG_OK ? t : NULL);
    return rc;
}

/* Every extension of every contingency of `l` and its children, converted; stops at the
 * first out of memory (what came before is a prefix of the whole). */
static int ext_to_json(run *r, const ctg_list *l)
{
    int rc = CTG_OK;

    for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(l); i++) {
        const ctg_contingency *c = ctg_list_contingency_at(l, i);
        for (size_t k = 0; rc == CTG_OK && k < c->extension_count; k++) {
            json_object *v = (json_object *)&stale_list;
            int x = ctg_extension_to_json_object(&v, &c->extensions[k], &r->a);
            if (x == CTG_ENOMEM) {
                rc = x;
                EXPECT(r, v == NULL);
                break;
            }
            ctg_test_text_add(&r->got, c->extensions[k].name, strlen(c->extensions[k].name));
            ctg_test_text_add(&r->got, x == CTG_OK ? "=" : " ", 1);
            if (x == CTG_OK)
                tree_bytes(r, v);
            else
                ctg_test_text_add(&r->got, ctg_status_name(x), strlen(ctg_status_name(x)));
            ctg_test_text_add(&r->got, "\n", 1);
            json_object_put(x == CTG_OK ? v : NULL);
        }
    }
    for (size_t i = 0; rc == CTG_OK && i < ctg_list_child_count(l); i++)
        rc = ext_to_json(r, ctg_list_child_at(l, i));
    return rc;
}

static int op_extension_to_json_object(run *r)
{
    r->has_err = false;
    return ext_to_json(r, r->f->list);
}

/* ---- the sweep ---- */

typedef struct op_def {
    const char *name;
    op_fn fn;
    bool partial; /* a failed run may have produced a prefix of the whole */
    bool slow;    /* writes a file to a path (fsync, rename): fewer seeds */
} op_def;

static const op_def random_ops[] = {
    { "read_buffer", op_read_buffer, false, false },
    { "read_fp", op_read_fp, false, false },
    { "read_file", op_read_file, false, false },
    { "read_stream", op_read_stream, true, false },
    { "list_from_json_object", op_from_json_object, false, false },
    { "read_typed_extensions", op_read_typed, false, false },
    { "write_buf", op_write_buf, false, false },
    { "write_fp", op_write_fp, true, false },
    { "write_file", op_write_file, false, true },
    { "stream_writer_buf", op_stream_write_buf, false, false },
    { "stream_writer_path", op_stream_write_path, false, true },
    { "list_to_json_object", op_to_json_object, false, false },
    { "extension_to_json_object", op_extension_to_json_object, true, false },
};

#define OP_COUNT (sizeof random_ops / sizeof random_ops[0])

static void run_op(run *r, const fixture *f, const op_def *op, uint64_t seed, double rate)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->op = op->name;
    r->seed = seed;
    r->rate = rate;
    r->a = ctg_test_random_allocator(&r->st, seed, rate);
    r->has_err = true;
    r->err.code = CTG_OK;
    snprintf(r->err.message, sizeof r->err.message, "stale");
}

/* Checks one failing run against the run without failures. */
static void check_run(run *r, int rc, const op_def *op, const run *ref, int ref_rc)
{
    EXPECT(r, r->st.live_bytes == 0);
    EXPECT(r, r->st.bad_sizes == 0);
    if (rc == ref_rc) {
        EXPECT(r, bytes_eq(&r->got, &ref->got));
        if (rc != CTG_OK && r->has_err)
            EXPECT(r, strcmp(r->err.message, ref->err.message) == 0);
        return;
    }
    EXPECT(r, rc == CTG_ENOMEM && r->st.failed);
    if (r->has_err)
        EXPECT(r, r->err.code == CTG_ENOMEM && strcmp(r->err.message, "out of memory") == 0
                      && r->err.source[0] != '\0');
    if (op->partial)
        EXPECT(r, bytes_prefix(&r->got, &ref->got));
    else
        EXPECT(r, r->got.len == 0);
}

/* 300 seeds per rate; CTG_TEST_QUICK=1 (valgrind, ~30 times slower; coverage; m32-asan) 60, and
 * CTG_TEST_SEEDS=n any number, for a longer hunt by hand. */
static size_t seed_count(void)
{
    const char *seeds = getenv("CTG_TEST_SEEDS");

    if (seeds != NULL && strtoul(seeds, NULL, 10) >= 6)
        return strtoul(seeds, NULL, 10);
    return ctg_test_quick() ? 60 : 300;
}

/* One operation on `f`, `seeds` seeds at each rate; its run without failures goes to *want
 * (the caller frees it). Returns the number of runs. */
static size_t sweep_op(const fixture *f, unsigned fixture_no, size_t k, bytes *want)
{
    static const double rates[] = { 0.005, 0.02, 0.10 };
    const op_def *op = &random_ops[k];
    const size_t seeds = op->slow ? seed_count() / 6 : seed_count();
    size_t same = 0, nomem = 0, shown = 0;
    run ref, r;
    int ref_rc, rc;

    run_op(&ref, f, op, 0, 0);
    ref_rc = op->fn(&ref);
    /* The one list json-c cannot hold (a key with U+0000) fails alike with failures: only a
     * conversion to json-c, and only of a document with U+0000, may be unsupported. */
    EXPECT(&ref, ref_rc == CTG_OK ? ref.got.len > 0
                                  : ref_rc == CTG_EUNSUPPORTED
                                        && strstr(op->name, "to_json_object") != NULL
                                        && strstr(f->text, "\\u0000") != NULL);
    EXPECT(&ref, !ref.st.failed && ref.st.live_bytes == 0 && ref.st.bad_sizes == 0);
    for (uint64_t i = 0; i < 3; i++) {
        for (uint64_t n = 1; n <= seeds; n++) {
            run_op(&r, f, op, (uint64_t)fixture_no << 48 | (uint64_t)k << 40 | i << 32 | n,
                   rates[i]);
            r.shown = shown;
            rc = op->fn(&r);
            check_run(&r, rc, op, &ref, ref_rc);
            shown = r.shown;
            same += rc == ref_rc;
            nomem += rc == CTG_ENOMEM;
            free(r.got.data);
        }
    }
    printf("\n  %-10s %-25s %4zu %s, %4zu out of memory", f->name, op->name, same,
           ref_rc == CTG_OK ? "ok" : ctg_status_name(ref_rc), nomem);
    /* Both outcomes, or the failures did not reach the operation. */
    CU_ASSERT(same > 0 && nomem > 0);
    *want = ref.got;
    return 3 * seeds;
}

/* The text ctg writes for `l`, with malloc. */
static bytes written(const ctg_list *l, unsigned flags)
{
    ctg_write_options o = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    bytes b = { NULL, 0, 0 };
    ctg_error e;

    o.flags = flags;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, l, &o, &e), CTG_OK);
    ctg_test_text_add(&b, buf.data ? buf.data : "", buf.len);
    ctg_buf_dispose(&buf);
    return b;
}

static const bytes *want_of(const bytes *want, const char *op)
{
    for (size_t k = 0; k < OP_COUNT; k++) {
        if (strcmp(random_ops[k].name, op) == 0)
            return &want[k];
    }
    CU_FAIL_FATAL("no such operation");
    return NULL;
}

/* The runs without failures agree with each other and with plain writes of the list: every
 * reader reads the same list, the stream writer writes what the list writer does. */
static void check_references(const fixture *f, const bytes *want)
{
    static const char *const pretty[] = { "read_buffer", "read_fp", "read_file", "write_buf" };
    bytes list_pretty = written(f->list, 0), list_compact = written(f->list, CTG_WRITE_COMPACT);
    bytes dflt_pretty = written(f->dflt, 0), dflt_compact = written(f->dflt, CTG_WRITE_COMPACT);

    for (size_t i = 0; i < sizeof pretty / sizeof *pretty; i++)
        CU_ASSERT(bytes_eq(want_of(want, pretty[i]), &list_pretty));
    CU_ASSERT(bytes_eq(want_of(want, "write_fp"), &list_compact));
    CU_ASSERT(bytes_eq(want_of(want, "stream_writer_buf"), &dflt_pretty));
    /* A path ending in .gz gets compressed bytes. */
    CU_ASSERT(f->gz || bytes_eq(want_of(want, "write_file"), &list_pretty));
    CU_ASSERT(f->gz || bytes_eq(want_of(want, "stream_writer_path"), &dflt_compact));
    free(list_pretty.data);
    free(list_compact.data);
    free(dflt_pretty.data);
    free(dflt_compact.data);
}

/* Every operation on `f`; *runs counts the runs. */
static void sweep_fixture(const fixture *f, unsigned fixture_no, size_t *runs)
{
    bytes want[OP_COUNT];

    for (size_t k = 0; k < OP_COUNT; k++)
        *runs += sweep_op(f, fixture_no, k, &want[k]);
    check_references(f, want);
    for (size_t k = 0; k < OP_COUNT; k++)
        free(want[k].data);
}

/* ---- the documents ---- */

static void add_str(bytes *b, const char *s)
{
    ctg_test_text_add(b, s, strlen(s));
}

/* Extensions of every JSON type: int64 edges, doubles in every notation, escapes and U+0000,
 * a string longer than the reader's inline buffer, empty containers, nesting, many keys, and
 * a typed one (contingency-probability). */
static char *extension_doc(size_t *len)
{
    bytes b = { NULL, 0, 0 };
    char key[32];

    add_str(&b, "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"ext \\\"kinds\\\"\","
                "\"contingencies\":[{\"id\":\"c1\",\"name\":\"first\",\"elements\":["
                "{\"id\":\"L1\",\"type\":\"LINE\",\"voltageLevelId\":\"VL1\"},"
                "{\"id\":\"G1\",\"type\":\"GENERATOR\"}],\"extensions\":{\"scalars\":{"
                "\"integer\":42,\"negative\":-7,\"largest\":9223372036854775807,"
                "\"smallest\":-9223372036854775808,\"double\":0.0125,\"small\":1e-5,"
                "\"large\":1.23456789E8,\"whole\":380.0,\"zero\":-0.0,\"big\":2.5E+300,"
                "\"tiny\":4.9e-324,\"yes\":true,\"no\":false,\"nothing\":null},"
                "\"strings\":{\"plain\":\"ENTSO-E\",\"escapes\":\"q \\\" b \\\\ s \\/ t \\t "
                "n \\n r \\r b \\b f \\f nul \\u0000 us \\u001F\",\"unicode\":"
                "\"\\u00dcberlandleitung \xe6\x9d\xb1\\u4eac \\ud83d\\ude00\",\"empty\":\"\","
                "\"long\":\"");
    for (int i = 0; i < 1500; i++)
        add_str(&b, i % 100 == 99 ? "\\n" : "v");
    add_str(&b, "\"},\"nul-key\":{\"a\\u0000b\":1},\"containers\":{\"empty object\":{},"
                "\"empty array\":[],\"objects\":[{\"a\":1},{\"b\":[[],[{}]]}],\"deep\":");
    for (int i = 0; i < 40; i++)
        add_str(&b, i % 2 ? "{\"d\":" : "[");
    add_str(&b, "null");
    for (int i = 39; i >= 0; i--)
        add_str(&b, i % 2 ? "}" : "]");
    add_str(&b, "},\"many\":{");
    for (int i = 0; i < 64; i++) {
        snprintf(key, sizeof key, "%s\"k%d\":%d", i ? "," : "", i, i * 1000003);
        add_str(&b, key);
    }
    add_str(&b, "},\"a-null\":null,\"a-true\":true,\"a-string\":\"s\",\"an-int\":0,"
                "\"a-double\":-1.5}},{\"id\":\"c2\",\"elements\":[],\"extensions\":{"
                "\"contingency-probability\":{\"probability\":0.25,\"source\":"
                "\"TSO \\\"Nord\\\"\"}}},{\"id\":\"c3\",\"elements\":[{\"id\":\"B\","
                "\"type\":\"BRANCH\"}]}]}");
    *len = b.len;
    return b.data;
}

/* Every kind of list, nested two deep, with extensions in both `default` lists. */
static char *every_kind_doc(size_t *len)
{
    bytes b = { NULL, 0, 0 };

    add_str(&b, "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"all\",\"contingencyLists\":["
                "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"d\",\"contingencies\":["
                "{\"id\":\"c\",\"elements\":[{\"id\":\"L\",\"type\":\"LINE\",\"voltageLevelId\":"
                "\"V\"}],\"extensions\":{\"e\":{\"a\":[1,2.5,\"s\",true,null],\"b\":{}},"
                "\"contingency-probability\":{\"probability\":1e-4}}},{\"id\":\"c2\","
                "\"elements\":[{\"id\":\"T\",\"type\":\"TWO_WINDINGS_TRANSFORMER\"}]}]},"
                "{\"type\":\"identifier\",\"version\":\"1.3\",\"name\":\"i\",\"identifiers\":["
                "{\"type\":\"ID_BASED\",\"contingencyId\":\"c1\",\"identifier\":\"x\"},"
                "{\"type\":\"LIST\",\"identifierList\":[{\"type\":\"VOLTAGE_LEVELS_AND_ORDER\","
                "\"voltageLevelId1\":\"a\",\"voltageLevelId2\":\"b\",\"order\":\"1\"}]},"
                "{\"type\":\"ID_WITH_WILDCARDS\",\"identifier\":\"x?\",\"wildcard\":\"?\"},"
                "{\"type\":\"SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS\","
                "\"substationOrVoltageLevelId\":\"S\",\"voltageLevelIdentifiableTypes\":"
                "[\"LINE\",\"LOAD\"]}]},"
                "{\"type\":\"injectionCriterion\",\"name\":\"j\",\"identifiableType\":\"LOAD\","
                "\"countryCriterion\":{\"type\":\"SINGLE_COUNTRY\",\"countries\":[\"FR\",\"BE\"]}},"
                "{\"type\":\"lineCriterion\",\"name\":\"l\",\"nominalVoltageCriterion\":{\"type\":"
                "\"TWO_NOMINAL_VOLTAGE\",\"voltageInterval1\":{\"nominalVoltageLowBound\":200.0,"
                "\"lowClosed\":true}},\"propertyCriteria\":[{\"type\":\"PROPERTY\","
                "\"propertyKey\":\"k\",\"propertyValue\":[\"v\",\"w\"],\"equipmentToCheck\":"
                "\"SELF\"}],\"regexCriterion\":{\"type\":\"REGEX\",\"regex\":\"L.*\"}},"
                "{\"type\":\"hvdcCriterion\",\"name\":\"h\"},{\"type\":\"tieLineCriterion\","
                "\"name\":\"t\"},{\"type\":\"twoWindingsTransformerCriterion\",\"name\":\"w\"},"
                "{\"type\":\"threeWindingsTransformerCriterion\",\"name\":\"3\","
                "\"nominalVoltageCriterion\":{\"type\":\"THREE_NOMINAL_VOLTAGE\","
                "\"voltageInterval2\":{\"nominalVoltageHighBound\":400.0,\"highClosed\":false}}},"
                "{\"type\":\"list\",\"name\":\"inner\",\"contingencyLists\":[{\"type\":\"default\","
                "\"name\":\"d2\",\"contingencies\":[{\"id\":\"x\",\"elements\":[{\"id\":\"B\","
                "\"type\":\"BRANCH\"}],\"extensions\":{\"n\":[[],[{\"z\":-1E-7}],\"\\u0000\"]}}]}]}"
                "]}");
    *len = b.len;
    return b.data;
}

/* The first `default` list of `l`, depth first. */
static const ctg_list *first_default(const ctg_list *l)
{
    const ctg_list *found = NULL;

    if (ctg_list_get_kind(l) == CTG_LIST_DEFAULT)
        return l;
    for (size_t i = 0; found == NULL && i < ctg_list_child_count(l); i++)
        found = first_default(ctg_list_child_at(l, i));
    return found;
}

/* json-c's tree of `doc`, deeper than json-c's default limit of 32 levels. */
static json_object *parse_tree(const char *doc, size_t len)
{
    json_tokener *tok = json_tokener_new_ex(CTG_DEFAULT_MAX_DEPTH);
    json_object *tree = tok ? json_tokener_parse_ex(tok, doc, (int)len) : NULL;

    json_tokener_free(tok);
    return tree;
}

/* The folder the path writes go to: on tmpfs when there is one, where the fsync of each
 * successful write costs nothing (on a disk it would take most of the test's time). */
static bool make_out_dir(fixture *f)
{
    struct stat st;

    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0)
        snprintf(f->out_dir, sizeof f->out_dir, "/dev/shm/ctg-alloc-XXXXXX");
    else
        snprintf(f->out_dir, sizeof f->out_dir, "%s/out-XXXXXX", f->dir);
    if (mkdtemp(f->out_dir) == NULL)
        return false;
    snprintf(f->out_path, sizeof f->out_path, "%s/out.json%s", f->out_dir, f->gz ? ".gz" : "");
    return true;
}

/* `text` gzip-compressed, as in a .gz file (malloc); NULL on failure. */
static char *gzip_of(const char *text, size_t len, size_t *out_len)
{
    z_stream zs;
    char *out = NULL;
    size_t cap;
    int rc = Z_ERRNO;

    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
        != Z_OK)
        return NULL;
    cap = deflateBound(&zs, (uLong)len);
    if ((out = malloc(cap)) != NULL) {
        zs.next_in = (Bytef *)(uintptr_t)text;
        zs.avail_in = (uInt)len;
        zs.next_out = (Bytef *)out;
        zs.avail_out = (uInt)cap;
        rc = deflate(&zs, Z_FINISH);
        *out_len = zs.total_out;
    }
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

/* Reads `text` once with malloc; writes the input file (gzip-compressed with `gz`). */
static bool fixture_open(fixture *f, const char *name, char *text, size_t len, bool gz)
{
    const char *tmp = getenv("TMPDIR");
    ctg_error err;
    FILE *fp;

    memset(f, 0, sizeof *f);
    f->name = name;
    f->text = text;
    f->doc = gz ? gzip_of(text, len, &f->len) : text;
    f->len = gz ? f->len : len;
    f->gz = gz;
    if (f->doc == NULL || ctg_list_read_buffer(&f->list, f->doc, f->len, NULL, &err) != CTG_OK) {
        printf("\n  %s: %s", name, f->doc ? err.message : "no gzip");
        return false;
    }
    f->dflt = first_default(f->list);
    f->tree = parse_tree(text, len);
    snprintf(f->dir, sizeof f->dir, "%s/ctg-alloc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (f->dflt == NULL || f->tree == NULL || mkdtemp(f->dir) == NULL || !make_out_dir(f))
        return false;
    snprintf(f->in_path, sizeof f->in_path, "%s/in.json", f->dir);
    if ((fp = fopen(f->in_path, "wb")) == NULL)
        return false;
    fwrite(f->doc, 1, f->len, fp);
    fclose(fp);
    f->in = fopen(f->in_path, "rb");
    f->out = tmpfile();
    return f->in != NULL && f->out != NULL;
}

static void fixture_close(fixture *f)
{
    if (f->in != NULL)
        fclose(f->in);
    if (f->out != NULL)
        fclose(f->out);
    if (f->out_dir[0] != '\0') {
        remove(f->out_path);
        rmdir(f->out_dir);
    }
    remove(f->in_path);
    rmdir(f->dir);
    json_object_put(f->tree);
    ctg_list_free(f->list);
    if (f->doc != f->text)
        free(f->doc);
    free(f->text);
}

CTG_TEST(alloc, random_failures_every_reader_and_writer)
{
    char *(*docs[])(size_t *) = { extension_doc, every_kind_doc, extension_doc };
    static const char *const names[] = { "extensions", "every kind", "gzip" };
    size_t runs = 0;

    for (unsigned i = 0; i < 3; i++) {
        fixture f;
        size_t len;
        char *doc = docs[i](&len);

        if (fixture_open(&f, names[i], doc, len, i == 2))
            sweep_fixture(&f, i, &runs);
        else
            CU_FAIL("fixture not set up");
        fixture_close(&f);
    }
    printf("\n  %zu runs, %zu seeds per rate", runs, seed_count());
}

/* ---- in-situ reads --------------------------------------------------------------------- */

/* Allocator calls and peak bytes of one read of `doc` (copied first, since an in-situ read
 * rewrites it), its strings copied or left in situ. */
static void read_cost(const char *doc, bool in_situ, unsigned arena_flags, size_t *allocs,
                      size_t *peak)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    size_t len = strlen(doc);
    char *buf = malloc(len);
    ctg_list *list = NULL;

    CU_ASSERT_FATAL(buf != NULL);
    memcpy(buf, doc, len);
    opts.allocator = &a;
    CU_ASSERT_EQUAL(in_situ ? ctg_list_read_in_situ_ex(&list, buf, len, &opts, NULL, arena_flags)
                            : ctg_list_read_buffer_ex(&list, buf, len, &opts, NULL, arena_flags),
                    CTG_OK);
    ctg_list_free(list);
    free(buf);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    *allocs = st.allocs;
    *peak = st.peak_bytes;
}

/* What an exact arena's block costs beyond the bytes asked for: its header. */
static size_t exact_block_overhead(void)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_arena *arena = ctg_arena_new_ex(&a, CTG_ARENA_EXACT);
    size_t before;

    CU_ASSERT_FATAL(arena != NULL);
    before = st.live_bytes;
    CU_ASSERT(ctg_arena_strndup(arena, "x", 1) != NULL);
    before = st.live_bytes - before - 2;
    ctg_arena_release(arena);
    return before;
}

/* In an exact arena a string is one call of its length + 1 and a block header: in situ, a list
 * of n contingencies with a name and a side each makes 4 n + 2 calls fewer (the version, the
 * list's name, and per contingency its id, name, element id and side) and needs exactly their
 * bytes and headers less. */
CTG_TEST(alloc, in_situ_read_copies_no_string)
{
    char *doc = make_doc(100, 1);
    size_t copied, situ, copied_peak, situ_peak, text = 4 + 2; /* "1.1", "l" */

    for (size_t i = 0; i < 100; i++) /* "c<i>", "n", "L<i>", "VL", each with its NUL */
        text += 2 * ((size_t)snprintf(NULL, 0, "%zu", i) + 2) + 2 + 3;
    read_cost(doc, false, CTG_ARENA_EXACT, &copied, &copied_peak);
    read_cost(doc, true, CTG_ARENA_EXACT, &situ, &situ_peak);
    CU_ASSERT_EQUAL(copied - situ, 4 * 100 + 2);
    CU_ASSERT_EQUAL(copied_peak - situ_peak, text + (4 * 100 + 2) * exact_block_overhead());
    free(doc);
}

/* With the arena's chunks, as users read: fewer chunks for 20,000 contingencies. */
CTG_TEST(alloc, in_situ_read_takes_fewer_chunks)
{
    char *doc = make_doc(20000, 1);
    size_t copied, situ, copied_peak, situ_peak;

    read_cost(doc, false, 0, &copied, &copied_peak);
    read_cost(doc, true, 0, &situ, &situ_peak);
    CU_ASSERT(situ < copied);
    CU_ASSERT(situ_peak < copied_peak);
    fprintf(stderr, " (%zu calls, %zu bytes copied; %zu, %zu in situ) ", copied, copied_peak,
            situ, situ_peak);
    free(doc);
}

/* A failure at any allocation of an in-situ read is a clean CTG_ENOMEM that leaks nothing. */
CTG_TEST(alloc, in_situ_failure_sweep)
{
    char *doc = make_doc(30, 1);
    size_t len = strlen(doc), n;
    char *buf = malloc(len);
    int rc = CTG_ENOMEM;

    CU_ASSERT_FATAL(buf != NULL);
    for (n = 1; rc == CTG_ENOMEM; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_read_options opts = CTG_READ_OPTIONS_INIT;
        ctg_list *list = NULL;

        memcpy(buf, doc, len);
        st.fail_at = n;
        opts.allocator = &a;
        rc = ctg_list_read_in_situ_ex(&list, buf, len, &opts, NULL, CTG_ARENA_EXACT);
        CU_ASSERT(rc == CTG_ENOMEM ? list == NULL : rc == CTG_OK && list != NULL);
        ctg_list_free(list);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
    }
    CU_ASSERT_EQUAL(rc, CTG_OK);
    CU_ASSERT(n > 30);
    free(buf);
    free(doc);
}

/* A gzip buffer is decompressed into memory of the library's: read as a copy would read it,
 * and left as it was. */
CTG_TEST(alloc, in_situ_read_of_gzip_copies)
{
    char *doc = make_doc(50, 1), *gz, *keep;
    size_t len = 0;
    ctg_list *list = NULL;

    gz = gzip_of(doc, strlen(doc), &len);
    CU_ASSERT_FATAL(gz != NULL);
    keep = malloc(len);
    CU_ASSERT_FATAL(keep != NULL);
    memcpy(keep, gz, len);
    CU_ASSERT_EQUAL(ctg_test_same_in_situ(gz, len, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_in_situ(&list, gz, len, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(memcmp(gz, keep, len), 0);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 50);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 49)->id, "c49");
    ctg_list_free(list);
    free(keep);
    free(gz);
    free(doc);
}

#include "test_alloc.tests.h"
