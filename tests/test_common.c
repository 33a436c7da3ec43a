/* SPDX-License-Identifier: MPL-2.0 */
/* Helpers shared by the CUnit suites: data folders, file slurping, the counting allocator. */

#include "tests/test_common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#include "model/arena.h"
#include "serde/read_internal.h"

#ifndef CTG_SHARED_TESTDATA
#define CTG_SHARED_TESTDATA ""
#endif

static bool is_directory(const char *path)
{
    struct stat st;

    return path[0] != '\0' && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *ctg_test_shared_dir(void)
{
    /* The environment wins, so one build can be run with and without the shared data
     * (CTG_SHARED_TESTDATA= ctest shows the skips). */
    const char *dir = getenv("CTG_SHARED_TESTDATA");

    if (dir == NULL)
        dir = CTG_SHARED_TESTDATA;
    return is_directory(dir) ? dir : NULL;
}

char *ctg_test_slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *data = NULL;
    size_t cap = 0, n = 0;

    if (fp == NULL)
        return NULL;
    for (;;) {
        if (cap - n < 4096) {
            char *p = realloc(data, cap = cap * 2 + 4096 + 1);
            if (p == NULL)
                goto fail;
            data = p;
        }
        size_t got = fread(data + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(fp))
        goto fail;
    fclose(fp);
    data[n] = '\0';
    if (len != NULL)
        *len = n;
    return data;
fail:
    free(data);
    fclose(fp);
    return NULL;
}

/* Every block carries its size in a header, so that a release or resize with a size other than
 * the one allocated is caught (bad_sizes) instead of silently skewing live_bytes. */
#define HDR sizeof(max_align_t)

static void *block_of(void *user)
{
    return (char *)user - HDR;
}

static bool inject_failure(ctg_test_alloc *st)
{
    st->calls++;
    if (st->fail_at != 0 && st->calls == st->fail_at) {
        st->failed = true;
        return true;
    }
    return false;
}

static void *user_of(void *block, size_t size)
{
    memcpy(block, &size, sizeof size);
    return (char *)block + HDR;
}

static void check_size(ctg_test_alloc *st, void *user, size_t size)
{
    size_t stored;

    memcpy(&stored, block_of(user), sizeof stored);
    if (stored != size || size > st->live_bytes)
        st->bad_sizes++;
}

static void add_live(ctg_test_alloc *st, size_t size)
{
    st->live_bytes += size;
    if (st->live_bytes > st->peak_bytes)
        st->peak_bytes = st->live_bytes;
}

static void sub_live(ctg_test_alloc *st, size_t size)
{
    /* A bad size was already counted by check_size; keep the counter from wrapping. */
    st->live_bytes -= size <= st->live_bytes ? size : st->live_bytes;
}

static void *counting_alloc(void *ctx, size_t size)
{
    ctg_test_alloc *st = ctx;
    void *block;

    st->allocs++;
    if (inject_failure(st) || size > SIZE_MAX - HDR || (block = malloc(HDR + size)) == NULL)
        return NULL;
    add_live(st, size);
    return user_of(block, size);
}

static void *counting_resize(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    ctg_test_alloc *st = ctx;
    void *block;

    st->resizes++;
    if (inject_failure(st) || new_size > SIZE_MAX - HDR)
        return NULL;
    if (ptr == NULL) {
        if (old_size != 0)
            st->bad_sizes++;
        block = malloc(HDR + new_size);
    } else {
        check_size(st, ptr, old_size);
        block = realloc(block_of(ptr), HDR + new_size);
    }
    if (block == NULL)
        return NULL;
    if (ptr != NULL)
        sub_live(st, old_size);
    add_live(st, new_size);
    return user_of(block, new_size);
}

static void counting_release(void *ctx, void *ptr, size_t size)
{
    ctg_test_alloc *st = ctx;

    st->releases++;
    if (ptr == NULL) {
        /* The hook contract says never NULL. */
        st->bad_sizes++;
        return;
    }
    check_size(st, ptr, size);
    sub_live(st, size);
    free(block_of(ptr));
}

ctg_allocator ctg_test_allocator(ctg_test_alloc *state)
{
    ctg_allocator a = { counting_alloc, counting_resize, counting_release, state };

    return a;
}

ctg_allocator ctg_test_allocator_noresize(ctg_test_alloc *state)
{
    ctg_allocator a = { counting_alloc, NULL, counting_release, state };

    return a;
}

/* ---- allocation-failure sweeps ----------------------------------------------------------- */

static int sweep_read(const char *doc, size_t len, const ctg_read_options *opts,
                      const ctg_test_sweep_spec *how, ctg_list **list, ctg_error *err)
{
    FILE *fp;
    int rc;

    if (!how->from_file)
        return ctg_list_read_buffer_ex(list, doc, len, opts, err, how->arena_flags);
    fp = tmpfile();
    if (fp == NULL)
        return CTG_EIO;
    fwrite(doc, 1, len, fp);
    rewind(fp);
    rc = ctg_list_read_fp(list, fp, opts, err);
    fclose(fp);
    return rc;
}

bool ctg_test_sweep_once(const char *doc, size_t len, size_t fail_at,
                         const ctg_test_sweep_spec *how)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = (ctg_list *)1;
    ctg_error err;
    int rc;

    st.fail_at = fail_at;
    opts.allocator = &a;
    opts.extensions = how->extensions;
    rc = sweep_read(doc, len, &opts, how, &list, &err);
    if (rc == CTG_OK) {
        CU_ASSERT_PTR_NOT_NULL(list);
        if (how->check)
            how->check(list, how->ctx);
        ctg_list_free(list);
    } else {
        CU_ASSERT(rc == CTG_ENOMEM || rc == how->expect);
        CU_ASSERT_EQUAL(err.code, rc);
        CU_ASSERT_PTR_NULL(list);
    }
    /* A failed optional reservation may still give a list; a failed needed one never does. */
    if (!st.failed)
        CU_ASSERT_EQUAL(rc, how->expect);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    return st.failed;
}

size_t ctg_test_sweep(const char *doc, size_t len, const ctg_test_sweep_spec *how)
{
    size_t n = 1;

    while (ctg_test_sweep_once(doc, len, n, how) && n < 100000)
        n++;
    return n - 1;
}
