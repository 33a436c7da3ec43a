/* SPDX-License-Identifier: MPL-2.0 */
/* The `list` kind: lists of lists read, built in code, written by the public path and by the
 * kind's own writer, and the limits of nesting. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "base/arena.h"
#include "json/emit.h"
#include "model/list_impl.h"
#include "format/kinds.h"
#include "tests/test_common.h"

/* Whether the pretty output of `list`, through the public write path, is exactly the file at
 * `expect_path`. */
static bool writes_file(const ctg_list *list, const char *expect_path)
{
    size_t want_len;
    char *want = ctg_test_slurp(expect_path, &want_len);
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    bool same = false;

    if (list == NULL)
        fprintf(stderr, "\n  no list to write\n");
    else if (ctg_list_write_buf(&buf, list, NULL, &err) != CTG_OK)
        ctg_test_report("write", &err);
    else
        same = want && buf.len == want_len && memcmp(want, buf.data, want_len) == 0;
    if (!same && buf.data)
        fprintf(stderr, "\n  expected %s, got:\n%s\n", expect_path, buf.data);
    free(want);
    ctg_buf_dispose(&buf);
    return same;
}

static const ctg_extension *ext_of(const ctg_list *list, size_t i, const char *name)
{
    return ctg_contingency_extension(ctg_list_contingency_at(list, i), name);
}

typedef struct sink_buf {
    char *data;
    size_t len;
} sink_buf;

static int sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    sink_buf *b = ctx;

    (void)err;
    b->data = realloc(b->data, b->len + len + 1);
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return CTG_OK;
}

/* The `list` writer itself, called as the public write path calls it. */
static int write_nested(const ctg_list *list, sink_buf *out)
{
    ctg_emitter e;
    ctg_error err;
    int rc;

    memset(out, 0, sizeof *out);
    CU_ASSERT_EQUAL_FATAL(ctg_emit_init(&e, sink, out, false, NULL, &err), CTG_OK);
    rc = ctg_write_list_of_lists(&e, list);
    if (rc == CTG_OK)
        rc = ctg_emit_finish(&e);
    ctg_emit_dispose(&e);
    return rc;
}

static bool nested_writes_file(const ctg_list *list, const char *expect_path)
{
    size_t len;
    char *want = ctg_test_slurp(expect_path, &len);
    sink_buf got;
    bool same = write_nested(list, &got) == CTG_OK && want && got.len == len
                && memcmp(got.data, want, len) == 0;

    if (!same)
        fprintf(stderr, "\n  expected %s, got:\n%s\n", expect_path, got.data ? got.data : "");
    free(want);
    free(got.data);
    return same;
}

CTG_TEST(list, nested_lists_round_trip)
{
    ctg_list *list = ctg_test_read_path(CTG_TESTDATA("valid/nested-lists.json"), NULL);
    const ctg_list *inner;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_LIST);
    CU_ASSERT_EQUAL(ctg_list_child_count(list), 3);
    inner = ctg_list_child_at(list, 1);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(inner), "inner");
    CU_ASSERT_EQUAL(ctg_list_child_count(inner), 2);
    CU_ASSERT_PTR_NOT_NULL(ext_of(ctg_list_child_at(inner, 0), 0, "note"));
    CU_ASSERT_PTR_NULL(ctg_list_child_at(list, 3));
    CU_ASSERT_EQUAL(ctg_list_child_count(ctg_list_child_at(list, 0)), 0);
    CU_ASSERT(nested_writes_file(list, CTG_TESTDATA("valid/nested-lists.json")));
    CU_ASSERT(writes_file(list, CTG_TESTDATA("valid/nested-lists.json")));
    ctg_list_free(list);
    list = ctg_test_read_path(CTG_TESTDATA("valid/nested-lists-v1_0.json"), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT(nested_writes_file(list, CTG_TESTDATA("expected/nested-lists-v1_0.json")));
    ctg_list_free(list);
}

/* PowSyBl's list of lists holds criterion and identifier lists: it round-trips byte for byte,
 * through the kind's writer and through the public path. */
CTG_SHARED_TEST(list, powsybl_list_of_lists_round_trips)
{
    char path[1024];
    ctg_list *list;

    snprintf(path, sizeof path, "%s/powsybl/contingencyListsList.json", ctg_test_shared_dir());
    list = ctg_test_read_path(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_child_count(list), 9);
    CU_ASSERT(nested_writes_file(list, path));
    CU_ASSERT(writes_file(list, path));
    ctg_list_free(list);
}

CTG_TEST(list, lists_built_in_code)
{
    static const ctg_element gen = { "GEN", CTG_ELEMENT_GENERATOR, NULL };
    ctg_list *root = NULL, *a = NULL, *b = NULL, *c = NULL;
    sink_buf out;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&root, CTG_LIST_LIST, "root", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_child(root, CTG_LIST_CONTINGENCY, "x", &a), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(a);
    CU_ASSERT_EQUAL(ctg_list_add_child(root, CTG_LIST_DEFAULT, NULL, &a), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_child(root, CTG_LIST_KIND_COUNT, "x", &a), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_child(NULL, CTG_LIST_DEFAULT, "x", &a), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_child(root, CTG_LIST_DEFAULT, "a", &a), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_child(a, CTG_LIST_DEFAULT, "x", &b), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(a, "c1", NULL, &gen, 1), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_child(root, CTG_LIST_LIST, "b", &b), CTG_OK);
    for (int i = 0; i < 6; i++) /* past the first capacity */
        CU_ASSERT_EQUAL(ctg_list_add_child(b, CTG_LIST_LIST, "c", &c), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_child_count(b), 6);
    ctg_list_free(c); /* a child is freed with its parent: this does nothing */
    CU_ASSERT_EQUAL_FATAL(write_nested(root, &out), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "\"name\" : \"a\",\n    \"contingencies\" : [ {\n"
                                            "      \"id\" : \"c1\","));
    CU_ASSERT_PTR_NOT_NULL(strstr(out.data, "\"name\" : \"c\",\n      \"contingencyLists\" : [ ]"
                                            "\n    }, {"));
    free(out.data);
    /* A kind that is not a list cannot be nested. */
    CU_ASSERT_EQUAL(write_nested(a, &out), CTG_EINVAL);
    free(out.data);
    /* What was read can be added to. */
    ctg_list_free(root);
    root = ctg_test_read_path(CTG_TESTDATA("valid/nested-lists.json"), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_EQUAL(ctg_list_add_child(root, CTG_LIST_DEFAULT, "added", &a), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_child_count(root), 4);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(ctg_list_child_at(root, 0)), "first");
    CU_ASSERT_PTR_EQUAL(ctg_list_child_at(root, 3), a);
    ctg_list_free(root);
}

/* Lists nested deeper than the writer can lay out are refused before anything is written,
 * without deep recursion. */
CTG_TEST(list, too_deep_nesting_is_refused)
{
    ctg_list *root = NULL, *cur;
    sink_buf out;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&root, CTG_LIST_LIST, "0", NULL), CTG_OK);
    cur = root;
    for (int i = 0; i < 1000; i++)
        CU_ASSERT_EQUAL_FATAL(ctg_list_add_child(cur, CTG_LIST_LIST, "n", &cur), CTG_OK);
    CU_ASSERT_EQUAL(write_nested(root, &out), CTG_EINVAL);
    CU_ASSERT_EQUAL(out.len, 0);
    free(out.data);
    ctg_list_free(root);
}

/* Every kind has a writer now; an empty list of lists is the smallest of them. */
CTG_TEST(list, empty_list_of_lists)
{
    static const char expect[] = "{\n  \"type\" : \"list\",\n  \"version\" : \"1.1\",\n  "
                                 "\"name\" : \"l\",\n  \"contingencyLists\" : [ ]\n}";
    ctg_list *list = NULL;
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_LIST, "l", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(buf.len, sizeof(expect) - 1);
    CU_ASSERT(buf.len == sizeof(expect) - 1 && memcmp(buf.data, expect, buf.len) == 0);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(list, nested_list_is_not_freed_alone)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_list *parent = NULL, *child;
    size_t live;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&parent, CTG_LIST_LIST, "p", &a), CTG_OK);
    child = ctg_list_alloc_in(parent->arena, CTG_LIST_DEFAULT, "child");
    CU_ASSERT_PTR_NOT_NULL_FATAL(child);
    CU_ASSERT_FALSE(child->owns_arena);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(child), "child");
    CU_ASSERT_PTR_NULL(child->items);
    /* A nested list grows inside the arena: nothing of its own to free. */
    for (int i = 0; i < 100; i++)
        CU_ASSERT_EQUAL(ctg_list_add_contingency(child, "c", NULL, NULL, 0), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(child), 100);
    live = st.live_bytes;
    ctg_list_free(child); /* a no-op: the parent owns the arena */
    CU_ASSERT_EQUAL(st.live_bytes, live);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(child, 99)->id, "c");
    ctg_list_free(parent);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
}

#include "test_list.tests.h"
