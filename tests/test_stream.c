/* SPDX-License-Identifier: MPL-2.0 */
/* Streaming reads: the same contingencies as a full read, in constant memory, stoppable, and
 * through gzip. */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#include <CUnit/CUnit.h>

#include "ctg/ctg.h"
#include "format/stream_valid.h"
#include "tests/counting_alloc.h"
#include "tests/test_common.h"

/* What a visitor saw: a digest of every contingency and header, and counters. */
typedef struct seen {
    char *log;
    size_t len, cap;
    size_t contingencies, lists, stop_after, progress_calls, last_total;
} seen;

static void append(seen *s, const char *text)
{
    size_t n = strlen(text);

    if (s->len + n + 1 > s->cap) {
        s->cap = (s->len + n + 1) * 2;
        s->log = realloc(s->log, s->cap);
    }
    memcpy(s->log + s->len, text, n + 1);
    s->len += n;
}

static void log_contingency(seen *s, const ctg_contingency *c)
{
    char line[512];

    snprintf(line, sizeof(line), "%s|%s|", c->id, c->name ? c->name : "-");
    append(s, line);
    for (size_t i = 0; i < c->element_count; i++) {
        const ctg_element *e = &c->elements[i];
        snprintf(line, sizeof(line), "%s:%s:%s,", e->id, ctg_element_type_name(e->type),
                 e->voltage_level_id ? e->voltage_level_id : "-");
        append(s, line);
    }
    append(s, "\n");
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    seen *s = payload;
    char line[256];

    snprintf(line, sizeof(line), "[%zu.%zu %s %s] ", h->depth, h->index,
             ctg_list_kind_name(h->kind), h->name ? h->name : "?");
    append(s, line);
    log_contingency(s, c);
    s->contingencies++;
    return s->stop_after && s->contingencies == s->stop_after;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    seen *s = payload;
    char line[256];

    snprintf(line, sizeof(line), "[%zu.%zu list %s]\n", h->depth, h->index, ctg_list_name(list));
    append(s, line);
    s->lists++;
    return 0;
}

static int on_progress(size_t consumed, size_t total, void *payload)
{
    seen *s = payload;

    s->progress_calls++;
    s->last_total = total;
    CU_ASSERT(total == 0 || consumed <= total);
    return 0;
}

/* The same digest from a full read of a `default` list. */
static void log_full(seen *s, const ctg_list *list)
{
    for (size_t i = 0; i < ctg_list_contingency_count(list); i++) {
        char line[256];
        snprintf(line, sizeof(line), "[0.0 default %s] ", ctg_list_name(list));
        append(s, line);
        log_contingency(s, ctg_list_contingency_at(list, i));
    }
}

static int stream(const ctg_source *src, seen *s, ctg_error *err)
{
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_contingency,
                      .list = on_list,
                      .progress = on_progress,
                      .payload = s };
    return ctg_read_stream(src, &v, NULL, err);
}

/* A generated list: n contingencies of 1-3 elements, every 7th named. */
static char *make_doc(size_t n)
{
    size_t cap = 256 + n * 300, len;
    char *doc = malloc(cap);

    len = (size_t)sprintf(doc, "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : "
                               "\"gen\",\n  \"contingencies\" : [ ");
    for (size_t i = 0; i < n; i++) {
        len += (size_t)sprintf(doc + len, "%s{\n    \"id\" : \"c%zu\",\n%s    \"elements\" : [ {\n"
                                          "      \"id\" : \"L%zu\",\n      \"type\" : \"LINE\",\n"
                                          "      \"voltageLevelId\" : \"VL%zu\"\n    }",
                               i ? ", " : "", i, i % 7 ? "" : "    \"name\" : \"seventh\",\n", i,
                               i % 3);
        for (size_t k = 0; k < i % 3; k++)
            len += (size_t)sprintf(doc + len, ", {\n      \"id\" : \"G%zu_%zu\",\n      \"type\" : "
                                              "\"GENERATOR\"\n    }", i, k);
        len += (size_t)sprintf(doc + len, " ]\n  }");
    }
    sprintf(doc + len, " ]\n}");
    return doc;
}

static void check_same_as_full(const char *doc, size_t len)
{
    seen a = { 0 }, b = { 0 };
    ctg_list *list = NULL;
    ctg_source src = ctg_source_buffer(doc, len);

    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, len, NULL, NULL), CTG_OK);
    log_full(&a, list);
    CU_ASSERT_EQUAL(stream(&src, &b, NULL), CTG_OK);
    CU_ASSERT_EQUAL(b.contingencies, ctg_list_contingency_count(list));
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b.log);
    CU_ASSERT_STRING_EQUAL(a.log, b.log);
    ctg_list_free(list);
    free(a.log);
    free(b.log);
}

CTG_TEST(stream, same_contingencies_as_full_read)
{
    char *doc = make_doc(5000);
    size_t len;
    char *own = ctg_test_slurp(CTG_TESTDATA("valid/sample.json"), &len);

    check_same_as_full(doc, strlen(doc));
    CU_ASSERT_PTR_NOT_NULL_FATAL(own);
    check_same_as_full(own, len);
    free(own);
    free(doc);
}

CTG_SHARED_TEST(stream, every_shared_default_fixture)
{
    static const char *const files[] = {
        "contingencies.json", "contingenciesBatteries.json", "contingenciesWith3wt.json",
        "contingenciesWithDlAndTl.json", "contingenciesWithDlAndTlV1_0.json",
        "contingenciesWithOptionalName.json", "contingenciesWithSeveralElements.json",
    };
    const char *dir = ctg_test_shared_dir();
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[1024];
        size_t len;
        char *doc;

        snprintf(path, sizeof(path), "%s/powsybl/%s", dir, files[i]);
        doc = ctg_test_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        check_same_as_full(doc, len);
        free(doc);
    }
}

/* The stream log a full read implies: default lists give their contingencies, other kinds
 * (but `list`) are one line each, nested lists are walked in order. */
static void log_full_tree(seen *s, const ctg_list *list, size_t depth, size_t index)
{
    ctg_list_kind kind = ctg_list_get_kind(list);
    char line[256];

    if (kind == CTG_LIST_LIST) {
        for (size_t i = 0; i < ctg_list_child_count(list); i++)
            log_full_tree(s, ctg_list_child_at(list, i), depth + 1, i);
        return;
    }
    if (kind != CTG_LIST_DEFAULT && kind != CTG_LIST_CONTINGENCY) {
        snprintf(line, sizeof(line), "[%zu.%zu list %s]\n", depth, index, ctg_list_name(list));
        append(s, line);
        return;
    }
    for (size_t i = 0; i < ctg_list_contingency_count(list); i++) {
        snprintf(line, sizeof(line), "[%zu.%zu %s %s] ", depth, index, ctg_list_kind_name(kind),
                 kind == CTG_LIST_CONTINGENCY ? "?" : ctg_list_name(list));
        append(s, line);
        log_contingency(s, ctg_list_contingency_at(list, i));
    }
}

/* For every shared fixture of any kind, a stream read tells what a full read holds. */
CTG_SHARED_TEST(stream, every_shared_fixture_of_any_kind)
{
    static const char *const files[] = {
        "contingency.json", "contingencyListsList.json", "identifierContingencyList.json",
        "hvdclineCriterionContingencyList.json", "injectionCriterionContingencyList.json",
        "lineCriterionContingencyList.json", "tieLineCriterionContingencyList.json",
        "twoWindingsTransformerCriterionContingencyList.json",
        "threeWindingsTransformerCriterionContingencyList.json", "contingenciesWith3wt.json",
    };
    const char *dir = ctg_test_shared_dir();
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[1024];
        seen full = { 0 }, streamed = { 0 };
        ctg_list *list = NULL;
        ctg_source src;

        snprintf(path, sizeof(path), "%s/powsybl/%s", dir, files[i]);
        src = ctg_source_path(path);
        CU_ASSERT_EQUAL_FATAL(ctg_list_read_file(&list, path, NULL, NULL), CTG_OK);
        log_full_tree(&full, list, 0, 0);
        CU_ASSERT_EQUAL(stream(&src, &streamed, NULL), CTG_OK);
        CU_ASSERT_PTR_NOT_NULL_FATAL(full.log);
        CU_ASSERT_PTR_NOT_NULL_FATAL(streamed.log);
        if (strcmp(full.log, streamed.log) != 0)
            fprintf(stderr, "\n  %s:\n%s---\n%s", files[i], full.log, streamed.log);
        CU_ASSERT_STRING_EQUAL(full.log, streamed.log);
        ctg_list_free(list);
        free(full.log);
        free(streamed.log);
    }
}

/* Nested `default` lists stream with their own header; other kinds come whole. */
CTG_TEST(stream, nested_lists)
{
    static const char doc[] =
        "{\"type\":\"list\",\"version\":\"1.1\",\"name\":\"top\",\"contingencyLists\":["
        "{\"type\":\"default\",\"name\":\"a\",\"contingencies\":[{\"id\":\"a1\"},{\"id\":\"a2\"}]},"
        "{\"type\":\"list\",\"name\":\"inner\",\"contingencyLists\":["
        "{\"type\":\"default\",\"name\":\"b\",\"contingencies\":[{\"id\":\"b1\"}]}]},"
        "{\"contingencies\":[{\"id\":\"c1\"}],\"name\":\"late\",\"type\":\"default\"}]}";
    ctg_source src = ctg_source_buffer(doc, sizeof(doc) - 1);
    seen s = { 0 };

    CU_ASSERT_EQUAL(stream(&src, &s, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, 4);
    CU_ASSERT_STRING_EQUAL(s.log, "[1.0 default a] a1|-|\n[1.0 default a] a2|-|\n"
                                  "[2.0 default b] b1|-|\n[1.2 default ?] c1|-|\n");
    free(s.log);
}

CTG_TEST(stream, stop_early_leaks_nothing)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_contingency };
    char *doc = make_doc(3000);
    ctg_source src = ctg_source_buffer(doc, strlen(doc));
    seen s = { 0 };
    ctg_error err;

    s.stop_after = 1234;
    v.payload = &s;
    opts.allocator = &a;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, &err), CTG_ESTOPPED);
    CU_ASSERT_EQUAL(s.contingencies, 1234);
    CU_ASSERT_EQUAL(err.code, CTG_ESTOPPED);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/1233");
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    free(s.log);
    free(doc);
}

/* The visitor's version is checked before anything is read: a newer one than the library's
 * has callbacks it would not call; 0 is a zeroed visitor, read as version 1. */
CTG_TEST(stream, visitor_version_is_checked)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":"
                              "[{\"id\":\"a\"},{\"id\":\"b\"}]}";
    ctg_source src = ctg_source_buffer(doc, sizeof(doc) - 1);
    ctg_visitor v = CTG_VISITOR_INIT;
    seen s = { 0 };
    ctg_error err;
    char line[256];

    CU_ASSERT_EQUAL(v.version, CTG_VISITOR_VERSION);
    v.contingency = on_contingency;
    v.payload = &s;
    v.version = CTG_VISITOR_VERSION + 1;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(s.contingencies, 0);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown ctg_visitor version");
    ctg_error_format(&err, line, sizeof(line));
    CU_ASSERT_STRING_EQUAL(line, "<input>: error: unknown ctg_visitor version");
    v.version = 0;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, 2);
    free(s.log);
}

/* Peak memory does not grow with the number of contingencies. */
static size_t peak_for(size_t n)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION };
    char *doc = make_doc(n);
    ctg_source src = ctg_source_buffer(doc, strlen(doc));

    opts.allocator = &a;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, &opts, NULL), CTG_OK);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    free(doc);
    return st.peak_bytes;
}

CTG_TEST(stream, memory_is_flat)
{
    size_t small = peak_for(1000), large = peak_for(100000);

    CU_ASSERT(small > 0);
    CU_ASSERT_EQUAL(large, small);
    CU_ASSERT(large < 256 * 1024);
}

static char *write_gz(const char *doc, size_t len, size_t cut)
{
    static char path[64];
    gzFile gz;
    int fd;

    snprintf(path, sizeof(path), "ctg-stream-XXXXXX");
    fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    gz = gzdopen(fd, "wb");
    gzwrite(gz, doc, (unsigned)len);
    gzclose(gz);
    if (cut) {
        FILE *f = fopen(path, "r+");
        fseek(f, 0, SEEK_END);
        CU_ASSERT_EQUAL(ftruncate(fileno(f), ftell(f) - (long)cut), 0);
        fclose(f);
    }
    return path;
}

CTG_TEST(stream, gzip_by_magic)
{
    char *doc = make_doc(2000);
    char *path = write_gz(doc, strlen(doc), 0);
    ctg_source src = ctg_source_path(path);
    ctg_list *list = NULL;
    seen s = { 0 };
    FILE *fp;

    CU_ASSERT_EQUAL(stream(&src, &s, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, 2000);
    CU_ASSERT(s.progress_calls > 0);
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, path, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 2000);
    ctg_list_free(list);
    fp = fopen(path, "rb");
    CU_ASSERT_EQUAL(ctg_list_read_fp(&list, fp, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 2000);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 1999)->elements[0].id, "L1999");
    ctg_list_free(list);
    fclose(fp);
    unlink(path);
    free(s.log);
    free(doc);
}

CTG_TEST(stream, gzip_in_memory)
{
    char *doc = make_doc(300);
    uLongf zlen = compressBound(strlen(doc)) + 32;
    unsigned char *z = malloc(zlen);
    z_stream zs = { 0 };
    ctg_list *list = NULL;

    deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    zs.next_in = (unsigned char *)doc;
    zs.avail_in = (uInt)strlen(doc);
    zs.next_out = z;
    zs.avail_out = (uInt)zlen;
    CU_ASSERT_EQUAL(deflate(&zs, Z_FINISH), Z_STREAM_END);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, z, zs.total_out, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 300);
    ctg_list_free(list);
    deflateEnd(&zs);
    free(z);
    free(doc);
}

/* Reads the gzip file at `path` whole and expects a CTG_ESYNTAX `message` placed after the
 * first `at` bytes of `doc`, the text that could be decompressed. */
static void expect_gzip_error(const char *path, const char *doc, size_t at, const char *message)
{
    ctg_list *list = NULL;
    ctg_error err;
    unsigned line = 1, column = 1;

    for (size_t i = 0; i < at; i++) {
        column = doc[i] == '\n' ? 1 : column + 1;
        line += doc[i] == '\n';
    }
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, path, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.code, CTG_ESYNTAX);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    CU_ASSERT_STRING_EQUAL(err.source, path);
    CU_ASSERT_EQUAL(err.offset, at);
    CU_ASSERT_EQUAL(err.line, line);
    CU_ASSERT_EQUAL(err.column, column);
}

/* How many bytes zlib alone inflates from the gzip file at `path`: the oracle of where a
 * truncated stream's error belongs. */
static size_t inflatable_bytes(const char *path)
{
    unsigned char in[1 << 16], out[1 << 16];
    z_stream zs = { 0 };
    FILE *fp = fopen(path, "rb");
    size_t n = fread(in, 1, sizeof in, fp), total = 0;
    int z = Z_OK;

    fclose(fp);
    CU_ASSERT_FATAL(n < sizeof in);
    CU_ASSERT_FATAL(inflateInit2(&zs, 15 + 16) == Z_OK);
    zs.next_in = in;
    zs.avail_in = (uInt)n;
    while (z == Z_OK) {
        zs.next_out = out;
        zs.avail_out = sizeof out;
        z = inflate(&zs, Z_NO_FLUSH);
        total += sizeof out - zs.avail_out;
    }
    CU_ASSERT_EQUAL(z, Z_BUF_ERROR); /* out of input, not at the stream's end */
    inflateEnd(&zs);
    return total;
}

/* A truncated .gz is bad input like a truncated .json, placed at the end of what could be
 * decompressed: in the middle of the text, or after all of it when only the trailer is cut. */
CTG_TEST(stream, truncated_gzip_is_a_syntax_error)
{
    char *doc = make_doc(2000);
    char *path = write_gz(doc, strlen(doc), 100);
    size_t at = inflatable_bytes(path);

    CU_ASSERT(at > 0 && at < strlen(doc));
    expect_gzip_error(path, doc, at, "truncated gzip data");
    unlink(path);
    path = write_gz(doc, strlen(doc), 4); /* the length field of the trailer */
    expect_gzip_error(path, doc, strlen(doc), "truncated gzip data");
    unlink(path);
    free(doc);
}

/* A corrupt .gz is bad input too: a wrong CRC is found after the whole text came out. */
CTG_TEST(stream, corrupt_gzip_is_a_syntax_error)
{
    char *doc = make_doc(50);
    char *path = write_gz(doc, strlen(doc), 0);
    FILE *f = fopen(path, "r+b");
    int c;

    CU_ASSERT_FATAL(f != NULL);
    fseek(f, -8, SEEK_END); /* the first byte of the CRC-32 */
    c = fgetc(f);
    fseek(f, -8, SEEK_END);
    fputc(c ^ 0xff, f);
    fclose(f);
    expect_gzip_error(path, doc, strlen(doc), "corrupt gzip data: incorrect data check");
    unlink(path);
    free(doc);
}

/* The large-file test sizes its file with ftruncate: 64-bit offsets (CMakeLists.txt). */
_Static_assert(sizeof(off_t) == 8, "64-bit file offsets (_FILE_OFFSET_BITS)");

/* A file of 4 GiB and more opens and streams where size_t and long are 32 bits too: a small
 * document, then a hole up to 4 GiB + 1 KiB (sparse: no disk space, nothing but the first
 * NUL byte after the document is read). Without 64-bit file offsets open() fails with
 * EOVERFLOW and the read is a CTG_EIO; with them it is the trailing NUL, CTG_ESYNTAX. The
 * size goes to the progress callback only where it fits a size_t. */
CTG_TEST(stream, file_of_4_gib_and_more)
{
    char *doc = make_doc(3), path[] = "ctg-large-XXXXXX";
    const off_t size = ((off_t)4 << 30) + 1024;
    size_t len = strlen(doc);
    int fd = mkstemp(path);
    ctg_source src = ctg_source_path(path);
    ctg_list *list = NULL;
    ctg_error err;
    seen s = { 0 };

    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, doc, len) == (ssize_t)len);
    if (ftruncate(fd, size) != 0) {
        printf("\n  SKIP: this file system refuses a sparse file of 4 GiB (%s)\n",
               strerror(errno));
        close(fd);
        unlink(path);
        free(doc);
        return;
    }
    close(fd);
    CU_ASSERT_EQUAL(stream(&src, &s, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(s.contingencies, 3);
    CU_ASSERT(s.progress_calls > 0);
    CU_ASSERT_EQUAL(s.last_total, (uintmax_t)size <= SIZE_MAX ? (size_t)size : 0);
    CU_ASSERT_EQUAL(err.offset, len);
    CU_ASSERT_STRING_EQUAL(err.message, "trailing content after the root value");
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, path, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.offset, len);
    CU_ASSERT_STRING_EQUAL(err.message, "trailing content after the root value");
    CU_ASSERT_STRING_EQUAL(err.source, path);
    unlink(path);
    free(s.log);
    free(doc);
}

/* Errors in a stream carry the position and the path, as for a full read. */
CTG_TEST(stream, error_position_and_path)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"l\",\"contingencies\":[{\"id\":\"a\"},"
                              "\n{\"id\":\"b\",\"elements\":[{\"id\":\"x\",\"type\":\"NOPE\"}]}]}";
    ctg_source src = ctg_source_buffer(doc, sizeof(doc) - 1);
    seen s = { 0 };
    ctg_error err;

    CU_ASSERT_EQUAL(stream(&src, &s, &err), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(s.contingencies, 1);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(err.column, 40);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/1/elements/0/type");
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    free(s.log);
}

/* Writes `list` through a stream writer into `buf`, one contingency at a time. */
static int stream_write(const ctg_list *list, ctg_buf *buf, unsigned flags)
{
    ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
    ctg_stream_writer *w = NULL;
    int rc;

    wo.flags = flags;
    rc = ctg_stream_writer_open_buf(&w, buf, ctg_list_name(list), &wo, NULL);
    for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(list); i++)
        rc = ctg_stream_writer_add(w, ctg_list_contingency_at(list, i), NULL);
    if (rc != CTG_OK) {
        ctg_stream_writer_abort(w);
        return rc;
    }
    return ctg_stream_writer_close(w, NULL);
}

static void check_stream_write(const char *doc, size_t len)
{
    static const unsigned layouts[] = { 0, CTG_WRITE_COMPACT };
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, len, NULL, NULL), CTG_OK);
    for (size_t i = 0; i < 2; i++) {
        ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
        ctg_buf whole = CTG_BUF_INIT, streamed = CTG_BUF_INIT;

        wo.flags = layouts[i];
        CU_ASSERT_EQUAL(ctg_list_write_buf(&whole, list, &wo, NULL), CTG_OK);
        CU_ASSERT_EQUAL(stream_write(list, &streamed, layouts[i]), CTG_OK);
        CU_ASSERT_EQUAL(whole.len, streamed.len);
        CU_ASSERT(whole.len == streamed.len && memcmp(whole.data, streamed.data, whole.len) == 0);
        if (i == 0)
            CU_ASSERT(whole.len == len && memcmp(whole.data, doc, len) == 0);
        ctg_buf_dispose(&whole);
        ctg_buf_dispose(&streamed);
    }
    ctg_list_free(list);
}

/* A stream write gives the bytes of a whole write, in both layouts. */
CTG_TEST(stream, writer_matches_whole_write)
{
    char *doc = make_doc(3000);
    size_t len;
    char *own = ctg_test_slurp(CTG_TESTDATA("valid/sample.json"), &len);
    static const char empty[] = "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  "
                                "\"name\" : \"none\",\n  \"contingencies\" : [ ]\n}";

    check_stream_write(doc, strlen(doc));
    check_stream_write(own, len);
    check_stream_write(empty, sizeof(empty) - 1);
    free(own);
    free(doc);
}

/* A read whose visitor writes each contingency with ctg_stream_writer_add_read, and tries a
 * changed copy of the first with the same header. */
typedef struct relay {
    ctg_stream_writer *w;
    int rc, copy_rc, delivered_ok;
    ctg_error copy_err;
} relay;

static int relay_one(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    relay *r = payload;

    r->delivered_ok += h->delivered == c;
    if (r->copy_rc == -1) {
        ctg_contingency copy = *c; /* the caller's, with a string the reader would refuse */

        copy.id = "\xff";
        r->copy_rc = ctg_stream_writer_add_read(r->w, h, &copy, &r->copy_err);
    }
    if (r->rc == CTG_OK)
        r->rc = ctg_stream_writer_add_read(r->w, h, c, NULL);
    return r->rc != CTG_OK;
}

/* What a stream read relays through add_read is what a whole write of the list gives; a copy
 * with a bad string is refused (its checks are not skipped), and writes nothing. */
static void check_relay(const char *doc, size_t len)
{
    size_t count;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = relay_one };
    ctg_source src = ctg_source_buffer(doc, len);
    ctg_buf whole = CTG_BUF_INIT, relayed = CTG_BUF_INIT;
    ctg_list *list = NULL;
    relay r = { NULL, CTG_OK, -1, 0, { 0 } };

    v.payload = &r;
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, len, NULL, NULL), CTG_OK);
    count = ctg_list_contingency_count(list);
    CU_ASSERT_FATAL(count > 0);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&whole, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(
        ctg_stream_writer_open_buf(&r.w, &relayed, ctg_list_name(list), NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_read_stream(&src, &v, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(r.rc, CTG_OK);
    CU_ASSERT_EQUAL(r.delivered_ok, count);
    CU_ASSERT_EQUAL(r.copy_rc, CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(r.copy_err.message,
                           "a contingency the reader would refuse (a NULL or invalid string, "
                           "a missing element or extension array)");
    CU_ASSERT_EQUAL(ctg_stream_writer_close(r.w, NULL), CTG_OK);
    CU_ASSERT_EQUAL(whole.len, relayed.len);
    CU_ASSERT(whole.len == relayed.len && memcmp(whole.data, relayed.data, whole.len) == 0);
    ctg_buf_dispose(&whole);
    ctg_buf_dispose(&relayed);
    ctg_list_free(list);
}

CTG_TEST(stream, writer_add_read_relays_the_reader_s_contingencies)
{
    char *doc = make_doc(3000);
    size_t len, ext_len;
    char *own = ctg_test_slurp(CTG_TESTDATA("valid/sample.json"), &len);
    char *ext = ctg_test_slurp(CTG_TESTDATA("valid/extension-types.json"), &ext_len);
    ctg_contingency plain = { 0 };
    ctg_stream_header h = { 0 };
    ctg_stream_writer *w = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    check_relay(doc, strlen(doc));
    check_relay(own, len);
    check_relay(ext, ext_len); /* with extensions: the general case */
    /* Outside a read: a header that names no contingency, a NULL one, get every check. */
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&w, &buf, "x", NULL, NULL), CTG_OK);
    plain.id = "\xc3";
    CU_ASSERT_EQUAL(ctg_stream_writer_add_read(w, &h, &plain, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_add_read(w, NULL, &plain, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_add_read(w, &h, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_stream_writer_add_read(NULL, &h, &plain, NULL), CTG_EINVAL);
    ctg_stream_writer_abort(w);
    /* A name the reader would refuse: no writer, nothing written. */
    w = NULL;
    buf.len = 0;
    CU_ASSERT_EQUAL(ctg_stream_writer_open_buf(&w, &buf, "n\xff", NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "the list name is not valid UTF-8");
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(buf.len, 0);
    ctg_buf_dispose(&buf);
    free(ext);
    free(own);
    free(doc);
}

/* Every contingency of `doc` added with ctg_stream_writer_add and with _add_valid: the same
 * bytes (with extensions _add_valid takes the checked path). */
static void check_add_valid(const char *doc, size_t len)
{
    ctg_buf checked = CTG_BUF_INIT, trusted = CTG_BUF_INIT;
    ctg_stream_writer *a = NULL, *b = NULL;
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, len, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&a, &checked, "n", NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_buf(&b, &trusted, "n", NULL, NULL), CTG_OK);
    for (size_t i = 0; i < ctg_list_contingency_count(list); i++) {
        const ctg_contingency *c = ctg_list_contingency_at(list, i);
        CU_ASSERT_EQUAL(ctg_stream_writer_add(a, c, NULL), CTG_OK);
        CU_ASSERT_EQUAL(ctg_stream_writer_add_valid(b, c, NULL), CTG_OK);
    }
    CU_ASSERT_EQUAL(ctg_stream_writer_close(a, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(b, NULL), CTG_OK);
    CU_ASSERT(checked.len > 0 && checked.len == trusted.len &&
              memcmp(checked.data, trusted.data, checked.len) == 0);
    ctg_buf_dispose(&checked);
    ctg_buf_dispose(&trusted);
    ctg_list_free(list);
}

CTG_TEST(stream, writer_add_valid_writes_what_add_writes)
{
    size_t len, ext_len;
    char *own = ctg_test_slurp(CTG_TESTDATA("valid/sample.json"), &len);
    char *ext = ctg_test_slurp(CTG_TESTDATA("valid/extension-types.json"), &ext_len);
    ctg_contingency plain = { 0 };
    ctg_error err;

    check_add_valid(own, len);
    check_add_valid(ext, ext_len);
    /* What it cannot write takes the checked path, with its message. */
    CU_ASSERT_EQUAL(ctg_stream_writer_add_valid(NULL, &plain, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "no writer");
    free(ext);
    free(own);
}

static int count_files_with(const char *prefix)
{
    FILE *p;
    char cmd[256], line[256];
    int n = 0;

    snprintf(cmd, sizeof(cmd), "ls -a | grep -c '^%s' || true", prefix);
    p = popen(cmd, "r");
    if (p && fgets(line, sizeof(line), p))
        n = atoi(line);
    if (p)
        pclose(p);
    return n;
}

/* A CALLBACK source: hands out its bytes a few at a time, and can fail after `fail_at`. */
typedef struct chunks {
    const char *data;
    size_t len, pos, step, fail_at, calls;
    int fail_errno;
} chunks;

static int chunk_read(void *payload, void *buf, size_t cap, size_t *got)
{
    chunks *c = payload;
    size_t n = c->len - c->pos;

    c->calls++;
    if (c->fail_at && c->pos >= c->fail_at) {
        errno = c->fail_errno;
        return -1;
    }
    if (n > cap)
        n = cap;
    if (n > c->step)
        n = c->step;
    memcpy(buf, c->data + c->pos, n);
    c->pos += n;
    *got = n;
    return 0;
}

/* The same contingencies and progress as from memory, 7 bytes a call; gzip detected by its
 * magic; a failing callback is an I/O error with its errno, named as the options say. */
CTG_TEST(stream, callback_source)
{
    char *doc = make_doc(300);
    chunks c = { doc, strlen(doc), 0, 7, 0, 0, 0 };
    ctg_source src = ctg_source_callback(chunk_read, &c, c.len);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    seen a = { 0 }, b = { 0 };
    ctg_source mem = ctg_source_buffer(doc, c.len);
    ctg_error err;

    CU_ASSERT_EQUAL(src.kind, CTG_SOURCE_CALLBACK);
    CU_ASSERT_EQUAL(stream(&mem, &a, NULL), CTG_OK);
    CU_ASSERT_EQUAL(stream(&src, &b, NULL), CTG_OK);
    CU_ASSERT_EQUAL(b.contingencies, 300);
    CU_ASSERT_STRING_EQUAL(a.log, b.log);
    CU_ASSERT(c.calls > c.len / 7);
    CU_ASSERT_EQUAL(b.last_total, c.len); /* the size given is the progress total */
    c.pos = 0;
    c.fail_at = 1000;
    c.fail_errno = ECONNRESET;
    opts.source_name = "net";
    CU_ASSERT_EQUAL(ctg_read_stream(&src, NULL, &opts, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "net");
    CU_ASSERT_STRING_EQUAL(err.message, "read failed: Connection reset by peer");
    c.pos = 0;
    c.fail_errno = 0;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, NULL, NULL, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "<input>");
    CU_ASSERT_STRING_EQUAL(err.message, "read failed");
    src.read = NULL;
    CU_ASSERT_EQUAL(ctg_read_stream(&src, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "NULL read callback");
    free(a.log);
    free(b.log);
    free(doc);
}

CTG_TEST(stream, callback_source_gzip)
{
    char *doc = make_doc(200);
    uLongf zlen = compressBound((uLong)strlen(doc)) + 32;
    unsigned char *z = malloc(zlen);
    z_stream zs;
    chunks c;
    ctg_source src;
    seen s = { 0 };

    /* A gzip member (windowBits 15 + 16), as gzip(1) writes. */
    memset(&zs, 0, sizeof zs);
    CU_ASSERT_EQUAL_FATAL(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (unsigned char *)doc;
    zs.avail_in = (uInt)strlen(doc);
    zs.next_out = z;
    zs.avail_out = (uInt)zlen;
    CU_ASSERT_EQUAL_FATAL(deflate(&zs, Z_FINISH), Z_STREAM_END);
    c = (chunks){ (const char *)z, zs.total_out, 0, 1000, 0, 0, 0 };
    deflateEnd(&zs);
    src = ctg_source_callback(chunk_read, &c, 0);
    CU_ASSERT_EQUAL(stream(&src, &s, NULL), CTG_OK);
    CU_ASSERT_EQUAL(s.contingencies, 200);
    free(s.log);
    free(z);
    free(doc);
}

/* A stream written to a .gz path reads back the same; an aborted one leaves nothing. */
CTG_TEST(stream, writer_to_gz_path_and_abort)
{
    char *doc = make_doc(1500);
    ctg_list *list = NULL, *back = NULL;
    ctg_stream_writer *w = NULL;
    ctg_buf a = CTG_BUF_INIT, b = CTG_BUF_INIT;
    const char *path = "ctg-stream-out.json.gz";
    unsigned char magic[2] = { 0, 0 };
    FILE *f;

    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, strlen(doc), NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "gen", NULL, NULL), CTG_OK);
    /* Only the temporary file, hidden and named after its target. */
    CU_ASSERT_EQUAL(count_files_with("ctg-stream-out.json.gz"), 0);
    CU_ASSERT_EQUAL(count_files_with("\\.ctg-stream-out\\.json\\.gz\\.ctg-tmp-......$"), 1);
    for (size_t i = 0; i < ctg_list_contingency_count(list); i++)
        CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(list, i), NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_close(w, NULL), CTG_OK);
    f = fopen(path, "rb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(fread(magic, 1, 2, f), 2);
    fclose(f);
    CU_ASSERT(magic[0] == 0x1f && magic[1] == 0x8b);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_file(&back, path, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&a, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&b, back, NULL, NULL), CTG_OK);
    CU_ASSERT(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    unlink(path);
    /* Whole-list writes to .gz compress too. */
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, NULL), CTG_OK);
    ctg_list_free(back);
    CU_ASSERT_EQUAL(ctg_list_read_file(&back, path, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(back), 1500);
    unlink(path);
    /* Abort: no file at all. */
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "gen", NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, ctg_list_contingency_at(list, 0), NULL), CTG_OK);
    ctg_stream_writer_abort(w);
    ctg_stream_writer_abort(NULL);
    CU_ASSERT_EQUAL(count_files_with("\\.\\{0,1\\}ctg-stream-out"), 0);
    ctg_buf_dispose(&a);
    ctg_buf_dispose(&b);
    ctg_list_free(back);
    ctg_list_free(list);
    free(doc);
}

/* Failing each allocation of a stream write in turn: a clean error, nothing leaked, and the
 * buffer back to what it held. */
CTG_TEST(stream, writer_allocation_failures)
{
    char *doc = make_doc(200);
    ctg_list *list = NULL;
    size_t n = 1;
    bool failed = true;

    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, strlen(doc), NULL, NULL), CTG_OK);
    for (; failed && n < 1000; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
        ctg_buf buf = CTG_BUF_INIT;
        ctg_stream_writer *w = NULL;
        int rc;

        ctg_error err;

        st.fail_at = n;
        wo.allocator = &a;
        buf.allocator = &a;
        memset(&err, 0, sizeof err);
        /* With an error record, so that every failure path formats its error (the open's once
         * read a freed writer for it). */
        rc = ctg_stream_writer_open_buf(&w, &buf, "gen", &wo, &err);
        for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(list); i++)
            rc = ctg_stream_writer_add(w, ctg_list_contingency_at(list, i), &err);
        if (rc == CTG_OK)
            rc = ctg_stream_writer_close(w, &err);
        else
            ctg_stream_writer_abort(w);
        failed = st.failed;
        CU_ASSERT(rc == (failed ? CTG_ENOMEM : CTG_OK));
        if (failed) {
            CU_ASSERT_EQUAL(buf.len, 0);
            CU_ASSERT_EQUAL(err.code, CTG_ENOMEM);
            /* The first call allocates the writer itself, before it has an output: the
             * error names the output all the same. */
            CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
            CU_ASSERT_STRING_EQUAL(err.message, "out of memory");
        }
        ctg_buf_dispose(&buf);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
    }
    CU_ASSERT(n > 3);
    ctg_list_free(list);
    free(doc);
}

/* A write that fails after the open (here a full device) reports the system's reason: the
 * writer once kept a pointer to a record on the open's stack, and wrote the message there. */
CTG_TEST(stream, writer_failure_after_open)
{
    char *doc = make_doc(3000);
    ctg_list *list = NULL;
    ctg_stream_writer *w = NULL;
    ctg_error err;
    FILE *full = fopen("/dev/full", "wb");
    int rc = CTG_OK;

    if (full == NULL) {
        free(doc);
        printf("\n  SKIP: no /dev/full here (not Linux): nothing to fill\n");
        return;
    }
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, strlen(doc), NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_fp(&w, full, "gen", NULL, &err), CTG_OK);
    memset(&err, 0x55, sizeof err);
    for (size_t i = 0; rc == CTG_OK && i < ctg_list_contingency_count(list); i++)
        rc = ctg_stream_writer_add(w, ctg_list_contingency_at(list, i), &err);
    if (rc == CTG_OK)
        rc = ctg_stream_writer_close(w, &err);
    else
        ctg_stream_writer_abort(w);
    CU_ASSERT_EQUAL(rc, CTG_EIO);
    CU_ASSERT_EQUAL(err.code, CTG_EIO);
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: No space left on device");
    fclose(full);
    ctg_list_free(list);
    free(doc);
}

#include "test_stream.tests.h"

/* ---- ctg_locate ----------------------------------------------------------------------------- */

static const char located_doc[] = "{\n"
                                  "  \"version\" : \"1.3\",\n"
                                  "  \"a/b~c\" : [ 1, { \"k\" : null }, [ ] ],\n"
                                  "  \"actions\" : [ {\n"
                                  "    \"id\" : \"x\"\n"
                                  "  } ]\n"
                                  "}";

/* Every kind of value, escaped keys, array indices, the root, a repeat and a miss. */
CTG_TEST(stream, locate_finds_each_value)
{
    static const char *const ptrs[] = { "/actions/0/id", "", "/a~1b~0c/1/k", "/a~1b~0c/2",
                                        "/actions/1",    "/version", "/actions/0/id", "/a~1b~0c/0" };
    static const unsigned want[][2] = { { 5, 12 }, { 1, 1 }, { 3, 26 }, { 3, 34 },
                                        { 0, 0 },  { 2, 15 }, { 5, 12 }, { 3, 15 } };
    ctg_source src = ctg_source_buffer(located_doc, sizeof located_doc - 1);
    ctg_location at[8];
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_locate(&src, ptrs, 8, at, NULL, &err), CTG_OK);
    for (size_t i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL(at[i].found, want[i][0] != 0);
        CU_ASSERT_EQUAL(at[i].line, want[i][0]);
        CU_ASSERT_EQUAL(at[i].column, want[i][1]);
    }
    CU_ASSERT_EQUAL(at[0].offset, (size_t)(strstr(located_doc, "\"x\"") - located_doc));
}

/* A pipe is read once; a broken document fails with the lexer's position and nothing found. */
CTG_TEST(stream, locate_errors)
{
    static const char *const ptrs[] = { "/a" };
    static const char bad[] = "{\"a\": 1,\n \"b\": }";
    ctg_source src = ctg_source_buffer(bad, sizeof bad - 1);
    ctg_location at[1] = { { true, 9, 9, 9 } };
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_locate(&src, ptrs, 1, at, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_FALSE(at[0].found);
    CU_ASSERT_EQUAL(at[0].line, 0);
    CU_ASSERT_EQUAL(err.line, 2);
    CU_ASSERT_EQUAL(err.column, 7);
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_EQUAL(ctg_locate(NULL, ptrs, 1, at, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_locate(&src, NULL, 1, at, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_locate(&src, ptrs, 0, NULL, NULL, NULL), CTG_ESYNTAX);
    src = ctg_source_path("/nonexistent/x.json");
    CU_ASSERT_EQUAL(ctg_locate(&src, ptrs, 1, at, NULL, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "/nonexistent/x.json");
}

/* Every allocation made to fail in turn: CTG_ENOMEM and nothing left; the rest finds all. */
CTG_TEST(stream, locate_allocation_failures)
{
    static const char *const ptrs[] = { "/actions/0/id", "/version" };
    size_t failures = 0;

    for (size_t n = 1;; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_read_options opts = CTG_READ_OPTIONS_INIT;
        ctg_source src = ctg_source_buffer(located_doc, sizeof located_doc - 1);
        ctg_location at[2];
        ctg_error err;
        int rc;

        st.fail_at = n;
        opts.allocator = &a;
        rc = ctg_locate(&src, ptrs, 2, at, &opts, &err);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        if (!st.failed) {
            CU_ASSERT_EQUAL(rc, CTG_OK);
            CU_ASSERT(at[0].found && at[1].found);
            break;
        }
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_FALSE(at[0].found);
        failures++;
    }
    CU_ASSERT(failures >= 2);
}
