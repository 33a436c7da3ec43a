/* SPDX-License-Identifier: MPL-2.0 */
/* Helpers shared by the CUnit suites: data folders, file slurping, allocation-failure sweeps
 * (the allocator hooks themselves are in counting_alloc.c). */

#include "tests/test_common.h"

#include <json-c/json.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "base/arena.h"
#include "format/read_internal.h"

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

bool ctg_test_quick(void)
{
    const char *quick = getenv("CTG_TEST_QUICK");

    return quick != NULL && strcmp(quick, "1") == 0;
}

size_t ctg_test_scaled(size_t n)
{
    if (!ctg_test_quick())
        return n;
    return n / 10 > 0 ? n / 10 : 1;
}

void ctg_test_text_add(ctg_test_text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *p = realloc(t->data, cap);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        t->data = p;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void ctg_test_scratch_make(char *dir, size_t size, const char *prefix)
{
    CU_ASSERT_FATAL((size_t)snprintf(dir, size, "%s-XXXXXX", prefix) < size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

void ctg_test_scratch_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    char path[4096];

    if (d == NULL)
        return;
    while ((ent = readdir(d)) != NULL) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        if (unlink(path) != 0)
            ctg_test_scratch_remove(path);
    }
    closedir(d);
    rmdir(dir);
}

void ctg_test_report(const char *what, const ctg_error *err)
{
    char line[1024];

    ctg_error_format(err, line, sizeof line);
    fprintf(stderr, "\n  %s: %s\n", what, line);
}

static bool same_error(const ctg_error *a, const ctg_error *b)
{
    return a->code == b->code && a->line == b->line && a->column == b->column
           && a->offset == b->offset && strcmp(a->path, b->path) == 0
           && strcmp(a->message, b->message) == 0 && strcmp(a->source, b->source) == 0;
}

/* Two reads of one input that both failed: the same error, and no list from the second; the
 * two errors printed (named `a` and `b`) when they differ. */
static void same_failure(const ctg_error *e1, const ctg_error *e2, const ctg_list *second,
                         const char *a, const char *b)
{
    CU_ASSERT(same_error(e1, e2));
    CU_ASSERT_PTR_NULL(second);
    if (!same_error(e1, e2)) {
        ctg_test_report(a, e1);
        ctg_test_report(b, e2);
    }
}

static bool same_stats(const ctg_read_stats *a, const ctg_read_stats *b)
{
    return a->handler_resolves == b->handler_resolves && a->contingencies == b->contingencies
           && a->bytes == b->bytes;
}

size_t ctg_test_same_in_parallel(const ctg_source *src, const ctg_read_options *opts)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_read_options one = opts ? *opts : defaults, four;
    ctg_read_stats s1 = { 1, 1, 1 }, s4 = { 2, 2, 2 };
    ctg_list *l1 = NULL, *l4 = NULL;
    ctg_error e1, e4;
    size_t parts = 0, n1 = 0, n4 = 0;
    int rc1, rc4;

    one.version = CTG_READ_OPTIONS_VERSION;
    one.threads = 1;
    one.stats = &s1;
    four = one;
    four.threads = 4;
    four.stats = &s4;
    rc1 = ctg_list_read_split(&l1, src, &one, &e1, 1, NULL);
    rc4 = ctg_list_read_split(&l4, src, &four, &e4, 1, &parts);
    CU_ASSERT_EQUAL(rc4, rc1);
    if (rc1 == CTG_OK && rc4 == CTG_OK) {
        char *t1 = ctg_test_write_text(l1, &n1), *t4 = ctg_test_write_text(l4, &n4);
        CU_ASSERT(t1 && t4 && n1 == n4 && memcmp(t1, t4, n1) == 0);
        CU_ASSERT(same_stats(&s1, &s4));
        CU_ASSERT_EQUAL(ctg_list_get_kind(l4), ctg_list_get_kind(l1));
        CU_ASSERT(ctg_list_version(l1) == NULL ? ctg_list_version(l4) == NULL
                  : ctg_list_version(l4) && !strcmp(ctg_list_version(l1), ctg_list_version(l4)));
        free(t1);
        free(t4);
    } else if (rc1 != CTG_OK && rc4 != CTG_OK) {
        same_failure(&e1, &e4, l4, "one thread", "four threads");
    }
    ctg_list_free(l1);
    ctg_list_free(l4);
    return parts;
}

static bool inside(const char *s, const char *buf, size_t len)
{
    return s && (uintptr_t)s >= (uintptr_t)buf && (uintptr_t)s < (uintptr_t)buf + len;
}

/* The contingency ids and names of `list` and its children that lie in buf[0..len). */
static size_t borrowed(const ctg_list *list, const char *buf, size_t len)
{
    size_t n = 0;

    for (size_t i = 0; i < ctg_list_contingency_count(list); i++) {
        const ctg_contingency *c = ctg_list_contingency_at(list, i);
        n += inside(c->id, buf, len) + inside(c->name, buf, len);
    }
    for (size_t i = 0; i < ctg_list_child_count(list); i++)
        n += borrowed(ctg_list_child_at(list, i), buf, len);
    return n;
}

/* The outcome of two reads of the same bytes, one of them in situ, compared. */
static void same_lists(const ctg_list *a, const ctg_list *b, const ctg_read_stats *sa,
                       const ctg_read_stats *sb)
{
    size_t na = 0, nb = 0;
    char *ta = ctg_test_write_text(a, &na), *tb = ctg_test_write_text(b, &nb);

    CU_ASSERT(ta && tb && na == nb && memcmp(ta, tb, na) == 0);
    CU_ASSERT(same_stats(sa, sb));
    CU_ASSERT_EQUAL(ctg_list_get_kind(b), ctg_list_get_kind(a));
    CU_ASSERT_STRING_EQUAL(ctg_list_name(b), ctg_list_name(a));
    CU_ASSERT(ctg_list_version(a) == NULL ? ctg_list_version(b) == NULL
              : ctg_list_version(b) && !strcmp(ctg_list_version(a), ctg_list_version(b)));
    free(ta);
    free(tb);
}

size_t ctg_test_same_in_situ(const char *doc, size_t len, const ctg_read_options *opts)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_read_options copy = opts ? *opts : defaults, situ;
    ctg_read_stats s1 = { 1, 1, 1 }, s2 = { 2, 2, 2 };
    ctg_list *l1 = NULL, *l2 = (ctg_list *)&copy;
    char *buf = malloc(len ? len : 1);
    ctg_error e1, e2;
    size_t n = 0;
    int rc1, rc2;

    CU_ASSERT_FATAL(buf != NULL);
    memcpy(buf, doc, len);
    copy.stats = &s1;
    situ = copy;
    situ.stats = &s2;
    rc1 = ctg_list_read_buffer(&l1, doc, len, &copy, &e1);
    rc2 = ctg_list_read_in_situ(&l2, buf, len, &situ, &e2);
    CU_ASSERT_EQUAL(rc2, rc1);
    if (rc1 == CTG_OK && rc2 == CTG_OK) {
        same_lists(l1, l2, &s1, &s2);
        n = borrowed(l2, buf, len);
    } else if (rc1 != CTG_OK && rc2 != CTG_OK) {
        same_failure(&e1, &e2, l2, "copied", "in situ");
    }
    ctg_list_free(l1);
    ctg_list_free(rc2 == CTG_OK ? l2 : NULL);
    free(buf); /* after the list that borrows it */
    return n;
}

ctg_list *ctg_test_read_path(const char *path, const ctg_read_options *opts)
{
    ctg_list *list = NULL;
    ctg_error err;

    if (ctg_list_read_file(&list, path, opts, &err) != CTG_OK)
        ctg_test_report(path, &err);
    return list;
}

char *ctg_test_write_text(const ctg_list *list, size_t *len)
{
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    char *copy;

    if (ctg_list_write_buf(&buf, list, NULL, &err) != CTG_OK) {
        ctg_test_report("write", &err);
        ctg_buf_dispose(&buf);
        return NULL;
    }
    copy = malloc(buf.len + 1);
    if (copy != NULL) {
        memcpy(copy, buf.data, buf.len + 1);
        *len = buf.len;
    }
    ctg_buf_dispose(&buf);
    return copy;
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

/* ---- a typed extension ----------------------------------------------------------------- */

/* An application's extension: the probability of a contingency and who estimated it. */
static int probability_read(ctg_extension_ctx *ctx, const struct json_object *value, void *out,
                            void *payload)
{
    probability *p = out;
    json_object *v;

    (void)payload;
    if (!json_object_is_type(value, json_type_object)
        || !json_object_object_get_ex(value, "probability", &v)
        || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return ctg_extension_fail(ctx, CTG_ESCHEMA, "expected a number for \"probability\"");
    p->probability = json_object_get_double(v);
    if (p->probability < 0 || p->probability > 1)
        return ctg_extension_fail(ctx, CTG_ESCHEMA, "probability must be within [0, 1]");
    if (json_object_object_get_ex(value, "source", &v)) {
        p->source = ctg_extension_strdup(ctx, json_object_get_string(v));
        if (p->source == NULL)
            return CTG_ENOMEM;
    }
    return CTG_OK;
}

static int probability_write(struct json_object **out, const void *in, void *payload)
{
    const probability *p = in;
    json_object *o = json_object_new_object();

    (void)payload;
    if (o == NULL)
        return CTG_ENOMEM;
    json_object_object_add(o, "probability", json_object_new_double(p->probability));
    if (p->source != NULL)
        json_object_object_add(o, "source", json_object_new_string(p->source));
    *out = o;
    return CTG_OK;
}

const ctg_extension_handler ctg_test_probability_handler = {
    .version = CTG_EXTENSION_HANDLER_VERSION,
    .name = "contingency-probability",
    .size = sizeof(probability),
    .read = probability_read,
    .write = probability_write,
};

void ctg_test_put_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");

    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fputs(text, fp);
    fclose(fp);
}

static int is_json_case(const struct dirent *d)
{
    size_t n = strlen(d->d_name);

    return n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

void ctg_test_each_case(const char *dir, int min, bool (*check)(const char *name))
{
    struct dirent **entries;
    int n = scandir(dir, &entries, is_json_case, alphasort);
    int matched = 0;

    CU_ASSERT_FATAL(n >= min);
    for (int i = 0; i < n; i++) {
        entries[i]->d_name[strlen(entries[i]->d_name) - 5] = '\0';
        matched += check(entries[i]->d_name) ? 1 : 0;
        free(entries[i]);
    }
    free(entries);
    CU_ASSERT_EQUAL(matched, n);
}

ctg_sa_doc *ctg_test_sa_read(const char *text, size_t len, int kind)
{
    ctg_sa_doc *doc = NULL;
    ctg_error err;

    if (ctg_sa_read_buffer(&doc, (ctg_sa_kind)kind, text, len, NULL, &err) != CTG_OK)
        ctg_test_report("read", &err);
    return doc;
}

bool ctg_test_sa_writes(const ctg_sa_doc *doc, const char *expect, size_t len)
{
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    bool same = doc && ctg_sa_write_buf(&buf, doc, NULL, &err) == CTG_OK && buf.len == len &&
                memcmp(buf.data, expect, len) == 0;

    if (!same)
        fprintf(stderr, "\n  written: %.*s\n  expected: %.*s\n", (int)buf.len,
                buf.data ? buf.data : "", (int)len, expect);
    ctg_buf_dispose(&buf);
    return same;
}

char *ctg_test_sa_fixture(const char *name, size_t *len)
{
    char path[1024];

    snprintf(path, sizeof path, "%s/powsybl-sa/%s", ctg_test_shared_dir(), name);
    return ctg_test_slurp(path, len);
}

/* One round of ctg_test_sa_sweep under `a`; whether it is the last (nothing failed). */
static bool sa_sweep_round(const char *doc, size_t len, int kind, int (*build)(ctg_sa_doc *),
                           ctg_test_alloc *st, ctg_allocator *a, size_t failed[3])
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    ctg_sa_doc *d = NULL, *b = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    int rc;

    opts.allocator = wopts.allocator = buf.allocator = a;
    rc = ctg_sa_read_buffer(&d, CTG_SA_ANY, doc, len, &opts, &err);
    if (rc != CTG_OK) {
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_PTR_NULL(d);
        CU_ASSERT_EQUAL(st->live_bytes, 0);
        failed[0]++;
        return false;
    }
    rc = ctg_sa_write_buf(&buf, d, &wopts, &err);
    CU_ASSERT(rc == CTG_OK || rc == CTG_ENOMEM);
    failed[1] += rc != CTG_OK;
    ctg_buf_dispose(&buf);
    ctg_sa_doc_free(d);
    if (!st->failed && build) {
        rc = ctg_sa_doc_new(&b, (ctg_sa_kind)kind, a);
        if (rc == CTG_OK)
            rc = build(b);
        CU_ASSERT(rc == CTG_OK || rc == CTG_ENOMEM);
        failed[2] += rc != CTG_OK;
        ctg_sa_doc_free(b);
    }
    CU_ASSERT_EQUAL(st->live_bytes, 0);
    CU_ASSERT_EQUAL(st->bad_sizes, 0);
    return !st->failed;
}

void ctg_test_sa_sweep(const char *doc, size_t len, int kind, int (*build)(ctg_sa_doc *),
                       size_t failed[3])
{
    failed[0] = failed[1] = failed[2] = 0;
    for (size_t at = 1;; at++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a;

        st.fail_at = at;
        a = ctg_test_allocator(&st);
        if (sa_sweep_round(doc, len, kind, build, &st, &a, failed))
            break;
    }
}
