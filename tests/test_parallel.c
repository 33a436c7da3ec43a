/* SPDX-License-Identifier: MPL-2.0 */
/* The multi-threaded read (ctg_read_options.threads, format/read_parallel.c): it splits what it
 * should, never inside a string, and gives what one thread gives, list or error. */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "ctg/stream.h"
#include "format/read_internal.h"
#include "format/read_parallel.h"
#include "tests/test_common.h"

/* A `default` list of `n` contingencies in PowSyBl's layout, as the writer writes it; each id,
 * name and element id holds "}, {", a newline escaped, and the boundary line's text itself,
 * so that a split that looked inside strings would find one there. */
static char *tricky_list(size_t n, size_t *len)
{
    ctg_list *list = NULL;
    char *text;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "li}, {st\n  }, {", NULL),
                          CTG_OK);
    for (size_t i = 0; i < n; i++) {
        char id[96], el[96];
        ctg_element e = { el, CTG_ELEMENT_LINE, NULL };

        snprintf(id, sizeof id, "c%zu\n  }, {\n  }, {", i);
        snprintf(el, sizeof el, "L}, {%zu\n  } ]\n}", i);
        CU_ASSERT_EQUAL_FATAL(
            ctg_list_add_contingency(list, id, i % 3 ? "na}, {me" : NULL, &e, 1), CTG_OK);
    }
    text = ctg_test_write_text(list, len);
    ctg_list_free(list);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    return text;
}

/* The cut lands only on the lines between contingencies: with strings full of look-alikes the
 * read still splits into four parts, and gives the one-thread list. */
CTG_TEST(parallel, split_never_happens_inside_a_string)
{
    size_t len;
    char *doc = tricky_list(40, &len);
    ctg_source src = ctg_source_buffer(doc, len);

    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "\\n  }, {"));
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), 4);
    free(doc);
}

/* The same at every size from 2 to 12 contingencies. */
CTG_TEST(parallel, every_small_size_splits_and_matches)
{
    for (size_t n = 2; n <= 12; n++) {
        size_t len;
        char *doc = tricky_list(n, &len);
        ctg_source src = ctg_source_buffer(doc, len);
        size_t parts = ctg_test_same_in_parallel(&src, NULL);

        /* Near-equal sizes: a cut is the first boundary after each quarter, so that a few
         * items can give fewer parts than threads. */
        CU_ASSERT(parts >= 2 && parts <= (n < 4 ? n : 4));
        free(doc);
    }
}

/* A copy of `doc` with the first `what` after `anchor` replaced by `with`. */
static char *replace_after(const char *doc, const char *anchor, const char *what,
                           const char *with)
{
    const char *from = strstr(doc, anchor);
    const char *at = from ? strstr(from, what) : NULL;
    size_t head, n = strlen(with), tail;
    char *out;

    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    head = (size_t)(at - doc);
    tail = strlen(at + strlen(what));
    out = malloc(head + n + tail + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    memcpy(out, doc, head);
    memcpy(out + head, with, n);
    memcpy(out + head + n, at + strlen(what), tail + 1);
    return out;
}

/* A bad contingency in the last part: the parallel read gives the first error of one thread,
 * at the same line, column, offset and path. */
static void same_error_after(const char *anchor, const char *what, const char *with, int code)
{
    size_t len;
    char *good = tricky_list(20, &len);
    char *bad = replace_after(good, anchor, what, with);
    ctg_source src = ctg_source_buffer(bad, strlen(bad));
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, bad, strlen(bad), NULL, &err), code);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), code == CTG_OK ? 4 : 1);
    free(bad);
    free(good);
}

CTG_TEST(parallel, bad_input_gives_the_sequential_error)
{
    same_error_after("{", "\"LINE\"", "\"LINE_X\"", CTG_ESCHEMA); /* the first element */
    same_error_after("\"c13", "\"LINE\"", "\"LINE_X\"", CTG_ESCHEMA); /* a later one */
    same_error_after("{", "c19\\n", "c19\\q", CTG_ESYNTAX);      /* a bad escape, last part */
    same_error_after("L}, {17", "\"type\"", "\"typo\"", CTG_ESCHEMA);
    same_error_after("{", "c12\\n", "c11\\n", CTG_OK);           /* equal ids: allowed */
    same_error_after("c19\\n", "  } ]\n}", "  } ]\n}]", CTG_ESYNTAX); /* trailing content */
    same_error_after("c5\\n", "\n  }, {", "\n  },, {", CTG_ESYNTAX);   /* at a boundary */
    same_error_after("c5\\n", "\n  }, {", "\n  } {", CTG_ESYNTAX);
    same_error_after("c9\\n", "L}, {9", "L}, {9\n", CTG_ESYNTAX);     /* a raw newline */
}

/* Version rules are judged in each part as at the root: BOUNDARY_LINE before 1.1 fails in
 * a middle part as in a sequential read, and DANGLING_LINE reads as BOUNDARY_LINE. */
CTG_TEST(parallel, version_rules_apply_in_every_part)
{
    size_t len;
    char *good = tricky_list(20, &len);
    char *old = replace_after(good, "{", "\"version\" : \"1.1\"", "\"version\" : \"1.0\"");
    char *dl;
    ctg_source src = ctg_source_buffer(old, strlen(old));
    ctg_list *list = NULL;
    ctg_error err;

    /* 1.0 with LINE elements only: fine, read in parts. */
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), 4);
    dl = replace_after(old, "\"c11", "\"LINE\"", "\"BOUNDARY_LINE\"");
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, dl, strlen(dl), NULL, &err), CTG_ESCHEMA);
    src = ctg_source_buffer(dl, strlen(dl));
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), 1);
    free(dl);
    dl = replace_after(old, "\"c11", "\"LINE\"", "\"DANGLING_LINE\"");
    src = ctg_source_buffer(dl, strlen(dl));
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), 4);
    free(dl);
    free(old);
    free(good);
}

/* A version after the array: the rules met in the parts are judged with it, as at the end of a
 * sequential read; BOUNDARY_LINE in a middle part of a 1.0 list is the sequential error. */
CTG_TEST(parallel, version_after_the_array_judges_every_part)
{
    size_t len;
    char *good = tricky_list(20, &len);
    char *moved = replace_after(good, "{", "  \"version\" : \"1.1\",\n", "");
    char *last = replace_after(moved, "c19", "  } ]\n}", "  } ],\n  \"version\" : \"1.0\"\n}");
    char *bad = replace_after(last, "\"c11", "\"LINE\"", "\"BOUNDARY_LINE\"");
    ctg_source src = ctg_source_buffer(last, strlen(last));
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), 4);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, bad, strlen(bad), NULL, &err), CTG_ESCHEMA);
    src = ctg_source_buffer(bad, strlen(bad));
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), 1);
    free(bad);
    free(last);
    free(moved);
    free(good);
}

/* Layouts the split cannot vouch for are read by one thread, with the same result: compact,
 * a boundary-looking line at another depth (inside an extension), no items. A root that goes
 * on after the array (its version last: judged for the parts as at the end) still splits. */
CTG_TEST(parallel, other_layouts_read_with_one_thread)
{
    static const char *docs[] = {
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n\",\"contingencies\":[{\"id\":\"a\","
        "\"elements\":[]},{\"id\":\"b\",\"elements\":[]}]}",
        "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"n\",\n"
        "  \"contingencies\" : [ {\n    \"id\" : \"a\",\n    \"elements\" : [ ],\n"
        "    \"extensions\" : { \"x\" : [ {\n  }, {\n  } ] }\n  }, {\n    \"id\" : \"b\",\n"
        "    \"elements\" : [ ]\n  } ]\n}\n",
        "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"n\",\n"
        "  \"contingencies\" : [ ]\n}\n",
        "{\n  \"type\" : \"default\",\n  \"name\" : \"n\",\n"
        "  \"contingencies\" : [ {\n    \"id\" : \"a\"\n  }, {\n    \"id\" : \"b\"\n  } ],\n"
        "  \"version\" : \"1.0\"\n}\n",
        "{\n  \"type\" : \"default\",\n  \"name\" : \"n\",\n"
        "  \"contingencies\" : [ {\n    \"id\" : \"a\"\n  }, {\n    \"id\" : \"b\"\n  } ]\n}\n",
    };
    static const size_t parts[] = { 1, 1, 1, 2, 2 };

    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        ctg_source src = ctg_source_buffer(docs[i], strlen(docs[i]));
        CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), parts[i]);
    }
}

/* The options: a version-1 struct has no `threads` (whatever follows it is not read), and
 * reads that cannot split (extensions, a depth limit the parts could not honour) use one. */
CTG_TEST(parallel, options_version_and_limits)
{
    size_t len, parts = 0;
    char *doc = tricky_list(8, &len);
    ctg_source src = ctg_source_buffer(doc, len);
    ctg_read_options o = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;

    o.threads = 4;
    CU_ASSERT_EQUAL(ctg_list_read_split(&list, &src, &o, &err, 1, &parts), CTG_OK);
    CU_ASSERT_EQUAL(parts, 4);
    ctg_list_free(list);
    o.version = 1;
    CU_ASSERT_EQUAL(ctg_list_read_split(&list, &src, &o, &err, 1, &parts), CTG_OK);
    CU_ASSERT_EQUAL(parts, 1);
    ctg_list_free(list);
    o = (ctg_read_options)CTG_READ_OPTIONS_INIT;
    for (size_t depth = 1; depth <= 5; depth++) {
        o.max_depth = depth;
        CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, &o), depth < 5 ? 1 : 4);
    }
    o.max_depth = 0;
    o.max_document_size = len - 1;
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, &o), 1);
    o.max_document_size = len;
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, &o), 4);
    o.max_document_size = 0;
    o.flags = CTG_READ_NO_CACHE | CTG_READ_KEEP_SIDES;
    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, &o), 4);
    free(doc);
}

/* A file of over 8 MiB with the default part size: read into memory, split in two; and cut in
 * four, the same list. */
CTG_TEST(parallel, large_file_splits_with_the_default_threshold)
{
    const size_t n = 2 * CTG_SPLIT_MIN_PART / 80; /* each takes over 80 bytes */
    size_t len, parts = 0;
    char *doc = tricky_list(n, &len);
    char dir[256], path[300];
    ctg_source src;
    ctg_read_options o = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    FILE *f;

    CU_ASSERT_FATAL(len > 2 * CTG_SPLIT_MIN_PART);
    ctg_test_scratch_make(dir, sizeof dir, "parallel");
    snprintf(path, sizeof path, "%s/big.json", dir);
    f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL && fwrite(doc, 1, len, f) == len);
    fclose(f);
    src = ctg_source_path(path);
    o.threads = 2;
    CU_ASSERT_EQUAL(ctg_list_read_split(&list, &src, &o, &err, CTG_SPLIT_MIN_PART, &parts),
                    CTG_OK);
    CU_ASSERT_EQUAL(parts, 2);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), n);
    ctg_list_free(list);
    CU_ASSERT(ctg_test_same_in_parallel(&src, NULL) == 4);
    ctg_test_scratch_remove(dir);
    free(doc);
}

/* The tests' counting allocator behind a lock: the parts call it from several threads. */
typedef struct locked {
    pthread_mutex_t lock;
    ctg_allocator inner;
} locked;

static void *locked_alloc(void *ctx, size_t size)
{
    locked *l = ctx;
    void *p;

    pthread_mutex_lock(&l->lock);
    p = l->inner.alloc(l->inner.ctx, size);
    pthread_mutex_unlock(&l->lock);
    return p;
}

static void *locked_resize(void *ctx, void *ptr, size_t old, size_t size)
{
    locked *l = ctx;
    void *p;

    pthread_mutex_lock(&l->lock);
    p = l->inner.resize(l->inner.ctx, ptr, old, size);
    pthread_mutex_unlock(&l->lock);
    return p;
}

static void locked_release(void *ctx, void *ptr, size_t size)
{
    locked *l = ctx;

    pthread_mutex_lock(&l->lock);
    l->inner.release(l->inner.ctx, ptr, size);
    pthread_mutex_unlock(&l->lock);
}

/* Every allocation in turn fails, wherever its thread, in reads of `doc` with four threads:
 * each gives the one-thread list (read again by one thread) or CTG_ENOMEM, and every block
 * comes back at its size. */
static void fail_every_allocation(const char *doc, size_t len, size_t max_calls)
{
    ctg_source src = ctg_source_buffer(doc, len);
    ctg_list *list = NULL;
    char *want;
    size_t want_len, fail_at, ok = 0;

    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, len, NULL, NULL), CTG_OK);
    want = ctg_test_write_text(list, &want_len);
    ctg_list_free(list);
    for (fail_at = 1; fail_at < max_calls; fail_at++) {
        ctg_test_alloc st = { 0 };
        locked l = { PTHREAD_MUTEX_INITIALIZER, ctg_test_allocator(&st) };
        ctg_allocator a = { locked_alloc, locked_resize, locked_release, &l };
        ctg_read_options o = CTG_READ_OPTIONS_INIT;
        int rc;

        st.fail_at = fail_at;
        o.threads = 4;
        o.allocator = &a;
        list = NULL;
        rc = ctg_list_read_split(&list, &src, &o, NULL, 1, NULL);
        CU_ASSERT(rc == CTG_OK || rc == CTG_ENOMEM);
        if (rc == CTG_OK) {
            size_t n;
            char *got = ctg_test_write_text(list, &n);
            CU_ASSERT(got && n == want_len && memcmp(got, want, n) == 0);
            free(got);
            ok++;
        } else {
            CU_ASSERT_PTR_NULL(list);
        }
        ctg_list_free(list);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
        if (!st.failed)
            break;
    }
    CU_ASSERT(fail_at < max_calls && ok > 0);
    free(want);
}

CTG_TEST(parallel, allocation_failures_leave_nothing_behind)
{
    size_t len;
    char *doc = tricky_list(12, &len);

    fail_every_allocation(doc, len, 400);
    free(doc);
}

/* `n` contingencies of a short id and no elements, in PowSyBl's layout: under 96 bytes each,
 * more items than the first part's block is sized for (half the input, as one thread sizes
 * its stack), so that the stitch grows it. */
static char *dense_list(size_t n, size_t *len)
{
    ctg_list *list = NULL;
    char *text;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "dense", NULL), CTG_OK);
    for (size_t i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "c%zu", i);
        CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(list, id, NULL, NULL, 0), CTG_OK);
    }
    text = ctg_test_write_text(list, len);
    ctg_list_free(list);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_FATAL(*len / 2 / sizeof(ctg_contingency) < n);
    return text;
}

/* Items denser than the first part's block expects: the stitch grows it, the same list, and
 * a failure there or anywhere leaves nothing behind. */
CTG_TEST(parallel, dense_items_outgrow_the_first_block)
{
    size_t len;
    char *doc = dense_list(3000, &len);
    ctg_source src = ctg_source_buffer(doc, len);

    CU_ASSERT_EQUAL(ctg_test_same_in_parallel(&src, NULL), 4);
    fail_every_allocation(doc, len, 2000);
    free(doc);
}

/* The resize hook that records the largest size a block was grown to, behind the lock of
 * `l` (whose inner allocator counts): the parts call it from several threads. */
typedef struct growth {
    ctg_test_alloc st;
    locked l;
    size_t largest;
} growth;

static void *growth_alloc(void *ctx, size_t size)
{
    growth *g = ctx;
    return locked_alloc(&g->l, size);
}

static void *growth_resize(void *ctx, void *ptr, size_t old, size_t size)
{
    growth *g = ctx;

    pthread_mutex_lock(&g->l.lock);
    if (size > old && size > g->largest)
        g->largest = size;
    pthread_mutex_unlock(&g->l.lock);
    return locked_resize(&g->l, ptr, old, size);
}

static void growth_release(void *ctx, void *ptr, size_t size)
{
    growth *g = ctx;
    locked_release(&g->l, ptr, size);
}

/* The first part's block has room for every part's items, which the stitch copies after its
 * own: no block is grown to the whole array, which would copy the first part's items too. */
CTG_TEST(parallel, stitch_grows_no_block_to_the_whole_array)
{
    const size_t n = 400;
    size_t len, parts = 0;
    char *doc = tricky_list(n, &len);
    ctg_source src = ctg_source_buffer(doc, len);
    growth g = { { 0 }, { PTHREAD_MUTEX_INITIALIZER, { 0 } }, 0 };
    ctg_allocator a = { growth_alloc, growth_resize, growth_release, &g };
    ctg_read_options o = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;

    g.l.inner = ctg_test_allocator(&g.st);
    o.threads = 4;
    o.allocator = &a;
    CU_ASSERT_EQUAL(ctg_list_read_split(&list, &src, &o, NULL, 1, &parts), CTG_OK);
    CU_ASSERT_EQUAL(parts, 4);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), n);
    CU_ASSERT(g.largest < n * sizeof(ctg_contingency));
    if (g.largest >= n * sizeof(ctg_contingency))
        fprintf(stderr, " (a block grown to %zu bytes) ", g.largest);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(g.st.live_bytes, 0);
    free(doc);
}

/* The hooks that record the largest block asked for by a thread other than `caller`. */
typedef struct by_thread {
    locked l;
    pthread_t caller;
    size_t largest_elsewhere;
} by_thread;

static void note_thread(by_thread *b, size_t size)
{
    pthread_mutex_lock(&b->l.lock);
    if (!pthread_equal(pthread_self(), b->caller) && size > b->largest_elsewhere)
        b->largest_elsewhere = size;
    pthread_mutex_unlock(&b->l.lock);
}

static void *by_thread_alloc(void *ctx, size_t size)
{
    note_thread(ctx, size);
    return locked_alloc(&((by_thread *)ctx)->l, size);
}

static void *by_thread_resize(void *ctx, void *ptr, size_t old, size_t size)
{
    note_thread(ctx, size);
    return locked_resize(&((by_thread *)ctx)->l, ptr, old, size);
}

static void by_thread_release(void *ctx, void *ptr, size_t size)
{
    locked_release(&((by_thread *)ctx)->l, ptr, size);
}

/* Every part's items and arena chunk come from the calling thread, whose malloc arena a
 * long-running program keeps between reads (a thread's own arena gives its heaps back): the
 * reading threads ask only for their readers' small blocks, well under a part's size. */
CTG_TEST(parallel, parts_take_their_memory_on_the_calling_thread)
{
    const size_t n = 400;
    size_t len, parts = 0;
    char *doc = tricky_list(n, &len);
    ctg_source src = ctg_source_buffer(doc, len);
    ctg_test_alloc st = { 0 };
    by_thread b = { { PTHREAD_MUTEX_INITIALIZER, ctg_test_allocator(&st) }, pthread_self(), 0 };
    ctg_allocator a = { by_thread_alloc, by_thread_resize, by_thread_release, &b };
    ctg_read_options o = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;

    o.threads = 4;
    o.allocator = &a;
    CU_ASSERT_EQUAL(ctg_list_read_split(&list, &src, &o, NULL, 1, &parts), CTG_OK);
    CU_ASSERT_EQUAL(parts, 4);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), n);
    CU_ASSERT(b.largest_elsewhere > 0 && b.largest_elsewhere < len / 4 / 8);
    if (b.largest_elsewhere >= len / 4 / 8)
        fprintf(stderr, " (a block of %zu bytes from a part's thread) ", b.largest_elsewhere);
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    free(doc);
}

#include "test_parallel.tests.h"
