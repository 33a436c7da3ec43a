/* SPDX-License-Identifier: MPL-2.0 */
/* Table-driven invalid inputs: testdata/invalid/<case>.json with <case>.expected holding
 * "line:column path CODE" on its first line and the exact message on its second. Each case is
 * read from its path (refill mode), from memory and in situ, and all must fail identically. */

#include <limits.h>
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/jsonc.h"
#include "ctg/stream.h"
#include "base/error_set.h"
#include "tests/test_common.h"

#define INVALID_DIR CTG_TESTDATA("invalid")

typedef struct expected {
    unsigned line, column;
    char path[CTG_ERROR_PATH_MAX];
    char code[32];
    char message[CTG_ERROR_MESSAGE_MAX];
} expected;

static int parse_expected(const char *file, expected *e)
{
    size_t len;
    char *text = ctg_test_slurp(file, &len);
    char *nl;
    int ok;

    if (!text)
        return 0;
    ok = sscanf(text, "%u:%u %255s %31s", &e->line, &e->column, e->path, e->code) == 4;
    nl = strchr(text, '\n');
    if (ok && nl) {
        char *end = strchr(nl + 1, '\n');
        if (end)
            *end = '\0';
        snprintf(e->message, sizeof(e->message), "%s", nl + 1);
    }
    if (strcmp(e->path, "(root)") == 0)
        e->path[0] = '\0';
    free(text);
    return ok && nl;
}

static void report_mismatch(const char *name, const ctg_error *err, int rc)
{
    char line[1024];

    ctg_error_format(err, line, sizeof(line));
    fprintf(stderr, "\n  %s: got %s: %u:%u %s\n    %s\n", name, ctg_status_name(rc), err->line,
            err->column, err->path[0] ? err->path : "(root)", line);
}

/* Checks one case both ways; returns 1 when it matched. */
static bool check_case(const char *name)
{
    char json[512], exp_path[512];
    expected e = { 0 };
    ctg_error err, err_mem;
    ctg_list *list = (ctg_list *)1, *list_mem = (ctg_list *)1;
    ctg_source src;
    size_t len;
    char *bytes;
    int rc, rc_mem, ok;

    snprintf(json, sizeof(json), "%s/%s.json", INVALID_DIR, name);
    snprintf(exp_path, sizeof(exp_path), "%s/%s.expected", INVALID_DIR, name);
    CU_ASSERT_FATAL(parse_expected(exp_path, &e));
    rc = ctg_list_read_file(&list, json, NULL, &err);
    bytes = ctg_test_slurp(json, &len);
    CU_ASSERT_FATAL(bytes != NULL);
    rc_mem = ctg_list_read_buffer(&list_mem, bytes, len, NULL, &err_mem);
    ctg_test_same_in_situ(bytes, len, NULL); /* the same error in situ */
    src = ctg_source_buffer(bytes, len);
    ctg_test_same_in_parallel(&src, NULL);
    free(bytes);
    src = ctg_source_path(json);
    ok = rc != CTG_OK && list == NULL && list_mem == NULL
         && strcmp(ctg_status_name(rc), e.code) == 0 && err.line == e.line
         && err.column == e.column && strcmp(err.path, e.path) == 0
         && strcmp(err.message, e.message) == 0 && strcmp(err.source, json) == 0;
    /* The same failure from memory, but for the source name. */
    ok = ok && rc_mem == rc && err_mem.line == err.line && err_mem.column == err.column
         && err_mem.offset == err.offset && strcmp(err_mem.path, err.path) == 0
         && strcmp(err_mem.message, err.message) == 0 && strcmp(err_mem.source, "<memory>") == 0;
    if (!ok)
        report_mismatch(name, &err, rc);
    /* And from both with four threads, cut at every contingency the layout allows. */
    ctg_test_same_in_parallel(&src, NULL);
    ctg_list_free(rc == CTG_OK ? list : NULL);
    ctg_list_free(rc_mem == CTG_OK ? list_mem : NULL);
    return ok;
}

CTG_TEST(invalid, every_case_matches_its_expectation)
{
    ctg_test_each_case(INVALID_DIR, 45, check_case);
}

/* 100,000 nested arrays: rejected at once, without recursion (the root must be an object;
 * the lexer's own depth limit is tested in the lexer suite). */
CTG_TEST(invalid, deep_nesting_is_a_limit_error)
{
    const size_t depth = 100000;
    char *doc = malloc(depth);
    ctg_list *list = NULL;
    ctg_error err;
    int rc;

    CU_ASSERT_FATAL(doc != NULL);
    memset(doc, '[', depth);
    rc = ctg_list_read_buffer(&list, doc, depth, NULL, &err);
    free(doc);
    CU_ASSERT_EQUAL(rc, CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, 1);
    CU_ASSERT_STRING_EQUAL(err.message, "expected object, got array");
}

/* Every field of the error is written, whatever the struct held before. */
CTG_TEST(invalid, every_error_field_is_written)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"l\",\"x\":1}";
    ctg_list *list = NULL;
    ctg_error err;
    char line[512];

    memset(&err, 0xFF, sizeof(err));
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof(doc) - 1, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.code, CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, 30);
    CU_ASSERT_EQUAL(err.offset, 29);
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    CU_ASSERT_STRING_EQUAL(err.path, "/x");
    CU_ASSERT_STRING_EQUAL(err.message, "unknown field \"x\"");
    ctg_error_format(&err, line, sizeof(line));
    CU_ASSERT_STRING_EQUAL(line, "<memory>:1:30: error: /x: unknown field \"x\"");
}

CTG_TEST(invalid, missing_file_is_an_io_error)
{
    ctg_list *list = (ctg_list *)1;
    ctg_error err;
    char line[512];

    CU_ASSERT_EQUAL(ctg_list_read_file(&list, "no/such/file.json", NULL, &err), CTG_EIO);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_STRING_EQUAL(err.source, "no/such/file.json");
    /* The system's reason is in English whatever the locale (the suite also runs under
     * de_DE.UTF-8), like the rest of the message. */
    CU_ASSERT_STRING_EQUAL(err.message, "cannot open: No such file or directory");
    ctg_error_format(&err, line, sizeof(line));
    /* Not a place in a document: no JSON path, not even the root's "/". */
    CU_ASSERT_STRING_EQUAL(line, "no/such/file.json: error: cannot open: No such file or directory");
}

/* A stream that fails at its first read (here, a directory) is named as a stream that fails
 * later is, "<stream>" or "<fd N>", or by source_name; not by a placeholder. */
CTG_TEST(invalid, unreadable_stream_keeps_its_name)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    FILE *fp = fopen(".", "r");
    int fd = open(".", O_RDONLY);
    ctg_list *list = NULL;
    ctg_error err;
    char want[32];

    CU_ASSERT_FATAL(fp != NULL && fd >= 0);
    CU_ASSERT_EQUAL(ctg_list_read_fp(&list, fp, NULL, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "<stream>");
    CU_ASSERT_STRING_EQUAL(err.message, "read failed: Is a directory");
    CU_ASSERT_EQUAL(ctg_list_read_fd(&list, fd, NULL, &err), CTG_EIO);
    snprintf(want, sizeof want, "<fd %d>", fd);
    CU_ASSERT_STRING_EQUAL(err.source, want);
    opts.source_name = "<stdin>";
    CU_ASSERT_EQUAL(ctg_list_read_fd(&list, fd, &opts, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "<stdin>");
    CU_ASSERT_PTR_NULL(list);
    close(fd);
    fclose(fp);
}

/* A long source keeps its tail, where the file name is. */
CTG_TEST(invalid, long_source_keeps_its_tail)
{
    char path[600];
    ctg_list *list = NULL;
    ctg_error err;
    size_t n;

    memset(path, 'd', sizeof(path));
    memcpy(path + sizeof(path) - 12, "/x/last.json", 12);
    path[sizeof(path) - 1] = '\0';
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, path, NULL, &err), CTG_EIO);
    n = strlen(err.source);
    CU_ASSERT_EQUAL(n, CTG_ERROR_SOURCE_MAX - 1);
    CU_ASSERT_NSTRING_EQUAL(err.source, "...", 3);
    CU_ASSERT_STRING_EQUAL(err.source + n - 9, "/last.jso");
}

CTG_TEST(invalid, bad_arguments)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = (ctg_list *)1;
    ctg_error err;
    char line[512];

    CU_ASSERT_EQUAL(ctg_list_read_buffer(NULL, "{}", 2, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, NULL, 2, NULL, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(ctg_list_read_fp(&list, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_read_file(&list, NULL, NULL, NULL), CTG_EINVAL);
    opts.flags = 1u << 20;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, "{}", 2, &opts, &err), CTG_EINVAL);
    opts.flags = 0;
    opts.version = CTG_READ_OPTIONS_VERSION + 1;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, "{}", 2, &opts, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown read options version or flags");
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_STRING_EQUAL(err.path, "");
    ctg_error_format(&err, line, sizeof(line));
    CU_ASSERT_STRING_EQUAL(line, "<input>: error: unknown read options version or flags");
}

/* A zeroed options struct (memset, or {} in C++) is the defaults: version 0 reads as 1. */
CTG_TEST(invalid, zeroed_options_are_the_defaults)
{
    static const char doc[] = "{\"type\":\"default\",\"name\":\"n\",\"contingencies\":[]}";
    ctg_read_options opts;
    ctg_read_stats stats;
    ctg_list *list = NULL;
    ctg_error err;

    memset(&opts, 0, sizeof(opts));
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof(doc) - 1, &opts, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(list ? ctg_list_name(list) : "", "n");
    ctg_list_free(list);
    /* Its fields are read, as those of version 1. */
    opts.stats = &stats;
    opts.max_document_size = 10;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof(doc) - 1, &opts, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "document larger than 10 bytes");
    opts.max_document_size = 0;
    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof(doc) - 1, &opts, &err), CTG_OK);
    CU_ASSERT_EQUAL(stats.bytes, sizeof(doc) - 1);
    ctg_list_free(list);
}

/* The three layouts of ctg_error_format: a place in a text, a place in a tree, no place. */
CTG_TEST(invalid, format_shows_a_path_only_for_a_place)
{
    static const struct {
        ctg_status code;
        unsigned line;
        const char *path;
        const char *want;
    } rows[] = {
        { CTG_ESCHEMA, 1, "", "s:1:2: error: /: m" },
        { CTG_ESYNTAX, 3, "", "s:3:2: error: /: m" },
        { CTG_EIO, 7, "", "s:7:2: error: /: m" },
        { CTG_ESCHEMA, 0, "", "s: error: /: m" },
        { CTG_ESYNTAX, 0, "", "s: error: /: m" },
        { CTG_EUNSUPPORTED, 0, "/type", "s: error: /type: m" },
        { CTG_ENOMEM, 0, "/contingencies/2", "s: error: /contingencies/2: m" },
        { CTG_EIO, 0, "", "s: error: m" },
        { CTG_EINVAL, 0, "", "s: error: m" },
        { CTG_ENOMEM, 0, "", "s: error: m" },
        { CTG_EUNSUPPORTED, 0, "", "s: error: m" },
        { CTG_ELIMIT, 0, "", "s: error: m" },
    };
    char line[64];

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        ctg_error err;

        memset(&err, 0, sizeof(err));
        err.code = rows[i].code;
        err.line = rows[i].line;
        err.column = 2;
        snprintf(err.source, sizeof(err.source), "s");
        snprintf(err.path, sizeof(err.path), "%s", rows[i].path);
        snprintf(err.message, sizeof(err.message), "m");
        CU_ASSERT_EQUAL(ctg_error_format(&err, line, sizeof(line)), strlen(rows[i].want));
        CU_ASSERT_STRING_EQUAL(line, rows[i].want);
    }
}

/* The one setter: the message is cut at the field's size, the place is copied or zeroed, NULL
 * keeps what an earlier stage wrote. */
CTG_TEST(invalid, error_setter_fields)
{
    ctg_error_place at = { 12, 3, 4 };
    char big[400];
    ctg_error err;

    memset(big, 'm', sizeof big);
    big[sizeof big - 1] = '\0';
    memset(&err, 0x55, sizeof err);
    CU_ASSERT_EQUAL(ctg_error_set(&err, CTG_ESCHEMA, &at, "/a", "x%sy", big), CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.code, CTG_ESCHEMA);
    CU_ASSERT_EQUAL(err.offset, 12);
    CU_ASSERT_EQUAL(err.line, 3);
    CU_ASSERT_EQUAL(err.column, 4);
    CU_ASSERT_STRING_EQUAL(err.path, "/a");
    CU_ASSERT_EQUAL(strlen(err.message), CTG_ERROR_MESSAGE_MAX - 1);
    CU_ASSERT_EQUAL(err.message[0], 'x');
    CU_ASSERT_EQUAL(strspn(err.message + 1, "m"), CTG_ERROR_MESSAGE_MAX - 2);
    /* No place, path and message kept. */
    CU_ASSERT_EQUAL(ctg_error_set(&err, CTG_EIO, NULL, NULL, NULL), CTG_EIO);
    CU_ASSERT_EQUAL(err.code, CTG_EIO);
    CU_ASSERT_EQUAL(err.offset, 0);
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_EQUAL(err.column, 0);
    CU_ASSERT_STRING_EQUAL(err.path, "/a");
    CU_ASSERT_EQUAL(strlen(err.message), CTG_ERROR_MESSAGE_MAX - 1);
    CU_ASSERT_EQUAL(ctg_error_set(&err, CTG_EINVAL, NULL, "", "no %s", "list"), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_STRING_EQUAL(err.message, "no list");
}

/* JSON Pointer segments: ~ and / escaped (RFC 6901), cut at the field's size. */
CTG_TEST(invalid, error_path_segments)
{
    char path[CTG_ERROR_PATH_MAX], seg[CTG_ERROR_PATH_MAX];
    size_t len = ctg_error_path_append(path, 0, "a~b/c", 5);

    CU_ASSERT_EQUAL(len, 8);
    CU_ASSERT_STRING_EQUAL(path, "/a~0b~1c");
    len = ctg_error_path_append(path, len, "", 0);
    CU_ASSERT_STRING_EQUAL(path, "/a~0b~1c/");
    /* Cut at 255 bytes; a "~" with room for one byte only stays as it is. */
    memset(seg, 'k', sizeof seg);
    seg[CTG_ERROR_PATH_MAX - 12] = '/';
    len = ctg_error_path_append(path, 0, seg, sizeof seg);
    CU_ASSERT_EQUAL(len, CTG_ERROR_PATH_MAX - 1);
    CU_ASSERT_EQUAL(strlen(path), CTG_ERROR_PATH_MAX - 1);
    CU_ASSERT_NSTRING_EQUAL(path + CTG_ERROR_PATH_MAX - 11, "~1kk", 4);
    CU_ASSERT_EQUAL(path[CTG_ERROR_PATH_MAX - 2], 'k');
    memset(seg, 'k', sizeof seg);
    seg[CTG_ERROR_PATH_MAX - 3] = '~';
    len = ctg_error_path_append(path, 0, seg, sizeof seg);
    CU_ASSERT_EQUAL(len, CTG_ERROR_PATH_MAX - 1);
    CU_ASSERT_EQUAL(path[CTG_ERROR_PATH_MAX - 2], '~');
}

/* The reader's path and the json-c bridge's path escape the same way. */
CTG_TEST(invalid, error_paths_escape_keys)
{
    static const char doc[] = "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n\","
                              "\"contingencies\":[{\"id\":\"c\",\"elements\":[],\"a~b/c\":1}]}";
    json_object *tree = json_object_new_object();
    ctg_list *list = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_list_read_buffer(&list, doc, sizeof doc - 1, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/contingencies/0/a~0b~1c");
    CU_ASSERT_STRING_EQUAL(err.message, "unknown field \"a~b/c\"");
    json_object_object_add(tree, "n/a~", json_object_new_double(NAN));
    CU_ASSERT_NOT_EQUAL(ctg_list_from_json_object(&list, tree, NULL, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(err.source, "<json-c>");
    CU_ASSERT_STRING_EQUAL(err.path, "/n~1a~0");
    CU_ASSERT_STRING_EQUAL(err.message, "NaN and infinities cannot be read back");
    CU_ASSERT_PTR_NULL(list);
    json_object_put(tree);
}

/* The one tail keeper: 255 bytes, "..." and the last 252 of the name. */
CTG_TEST(invalid, error_source_keeps_its_tail)
{
    char name[CTG_ERROR_SOURCE_MAX + 40], want[CTG_ERROR_SOURCE_MAX];
    ctg_error err;

    for (size_t i = 0; i < sizeof name; i++)
        name[i] = (char)('a' + i % 26);
    name[CTG_ERROR_SOURCE_MAX - 1] = '\0'; /* 255 bytes: fits */
    ctg_error_set_source(&err, name);
    CU_ASSERT_STRING_EQUAL(err.source, name);
    name[CTG_ERROR_SOURCE_MAX - 1] = 'x';
    name[sizeof name - 1] = '\0';
    snprintf(want, sizeof want, "...%s", name + (sizeof name - 1) - (CTG_ERROR_SOURCE_MAX - 4));
    ctg_error_set_source(&err, name);
    CU_ASSERT_EQUAL(strlen(err.source), CTG_ERROR_SOURCE_MAX - 1);
    CU_ASSERT_STRING_EQUAL(err.source, want);
}

/* A streaming writer's later errors keep the tail of a long path too, not its head. */
CTG_TEST(invalid, stream_writer_keeps_the_tail_of_its_path)
{
    char dir[64], path[PATH_MAX], want[CTG_ERROR_SOURCE_MAX];
    ctg_stream_writer *w = NULL;
    size_t len, ends[6];
    ctg_error err;

    ctg_test_scratch_make(dir, sizeof dir, "ctg-tail");
    len = (size_t)snprintf(path, sizeof path, "%s", dir);
    for (int i = 0; i < 6; i++) { /* six 61-byte directories: a path of ~400 bytes */
        len += (size_t)snprintf(path + len, sizeof path - len, "/%060d", i);
        CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
        ends[i] = len;
    }
    snprintf(path + len, sizeof path - len, "/out.json");
    CU_ASSERT_EQUAL_FATAL(ctg_stream_writer_open_path(&w, path, "n", NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_stream_writer_add(w, NULL, &err), CTG_EINVAL);
    snprintf(want, sizeof want, "...%s", path + strlen(path) - (CTG_ERROR_SOURCE_MAX - 4));
    CU_ASSERT_STRING_EQUAL(err.source, want);
    CU_ASSERT_STRING_EQUAL(err.message, "no contingency");
    ctg_stream_writer_abort(w);
    for (int i = 5; i >= 0; i--) {
        path[ends[i]] = '\0';
        CU_ASSERT_EQUAL(rmdir(path), 0);
    }
    CU_ASSERT_EQUAL(rmdir(dir), 0);
}

#include "test_invalid.tests.h"
