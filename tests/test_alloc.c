/* SPDX-License-Identifier: MPL-2.0 */
/* Memory: every allocation goes through the hooks, absent optional fields cost nothing, and
 * a failure at any allocation is a clean CTG_ENOMEM that leaks nothing. */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "model/arena.h"
#include "serde/read_internal.h"
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
static void test_alloc__absent_optional_fields_allocate_nothing(void)
{
    size_t five = calls_for(5, 0), ten = calls_for(10, 0);

    CU_ASSERT_EQUAL(ten - five, 5 * 3);
    CU_ASSERT_EQUAL(calls_for(10, 1) - ten, 10 * 2);
}

static void test_alloc__failure_sweep_exact_arena(void)
{
    char *doc = make_doc(30, 1);
    ctg_test_sweep_spec how = { CTG_ARENA_EXACT, false, NULL, CTG_OK, NULL, NULL };

    CU_ASSERT(ctg_test_sweep(doc, strlen(doc), &how) > 30 * 4);
    free(doc);
}

static void test_alloc__failure_sweep_chunked_arena_from_file(void)
{
    char *doc = make_doc(2000, 1); /* > 64 KiB: refills, arena chunks, array hand-over */
    ctg_test_sweep_spec how = { 0, true, NULL, CTG_OK, NULL, NULL };

    CU_ASSERT(ctg_test_sweep(doc, strlen(doc), &how) > 5);
    free(doc);
}

/* Invalid input with a failing allocator still frees everything. */
static void test_alloc__failure_sweep_on_invalid_input(void)
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
static void test_alloc__works_without_resize_hook(void)
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

CU_TestInfo alloc_tests[] = {
    { "absent_optional_fields_allocate_nothing",
      test_alloc__absent_optional_fields_allocate_nothing },
    { "failure_sweep_exact_arena", test_alloc__failure_sweep_exact_arena },
    { "failure_sweep_chunked_arena_from_file", test_alloc__failure_sweep_chunked_arena_from_file },
    { "failure_sweep_on_invalid_input", test_alloc__failure_sweep_on_invalid_input },
    { "works_without_resize_hook", test_alloc__works_without_resize_hook },
    CU_TEST_INFO_NULL
};
