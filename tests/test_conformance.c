/* SPDX-License-Identifier: MPL-2.0 */
/* The lexer over the JSONTestSuite corpus: y_ accepted, n_ rejected, i_ pinned, and the same
 * tokens or the same error whatever the refill size. */

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "tests/test_common.h"
#include "tests/test_lexer.h"

/* The corpus as documented in its NOTICE.md. */
#define Y_FILES 95
#define N_FILES 188
#define I_FILES 35

typedef struct verdict {
    const char *name;
    bool accept;
} verdict;

/* Our strict policy on the implementation-defined files: numbers that overflow a double are
 * errors, underflow and integers beyond int64 are accepted (as doubles); every lone or
 * UTF-8-encoded surrogate, invalid, overlong or truncated UTF-8 and non-UTF-8 input (UTF-16,
 * Latin-1) is rejected; one leading UTF-8 BOM is skipped; 500 levels exceed the default depth
 * limit of 64. */
static const verdict i_verdicts[I_FILES] = {
    { "i_number_double_huge_neg_exp.json", true },
    { "i_number_huge_exp.json", false },
    { "i_number_neg_int_huge_exp.json", false },
    { "i_number_pos_double_huge_exp.json", false },
    { "i_number_real_neg_overflow.json", false },
    { "i_number_real_pos_overflow.json", false },
    { "i_number_real_underflow.json", true },
    { "i_number_too_big_neg_int.json", true },
    { "i_number_too_big_pos_int.json", true },
    { "i_number_very_big_negative_int.json", true },
    { "i_object_key_lone_2nd_surrogate.json", false },
    { "i_string_1st_surrogate_but_2nd_missing.json", false },
    { "i_string_1st_valid_surrogate_2nd_invalid.json", false },
    { "i_string_UTF-16LE_with_BOM.json", false },
    { "i_string_UTF-8_invalid_sequence.json", false },
    { "i_string_UTF8_surrogate_U+D800.json", false },
    { "i_string_incomplete_surrogate_and_escape_valid.json", false },
    { "i_string_incomplete_surrogate_pair.json", false },
    { "i_string_incomplete_surrogates_escape_valid.json", false },
    { "i_string_invalid_lonely_surrogate.json", false },
    { "i_string_invalid_surrogate.json", false },
    { "i_string_invalid_utf-8.json", false },
    { "i_string_inverted_surrogates_U+1D11E.json", false },
    { "i_string_iso_latin_1.json", false },
    { "i_string_lone_second_surrogate.json", false },
    { "i_string_lone_utf8_continuation_byte.json", false },
    { "i_string_not_in_unicode_range.json", false },
    { "i_string_overlong_sequence_2_bytes.json", false },
    { "i_string_overlong_sequence_6_bytes.json", false },
    { "i_string_overlong_sequence_6_bytes_null.json", false },
    { "i_string_truncated-utf-8.json", false },
    { "i_string_utf16BE_no_BOM.json", false },
    { "i_string_utf16LE_no_BOM.json", false },
    { "i_structure_500_nested_arrays.json", false },
    { "i_structure_UTF-8_BOM_empty_object.json", true },
};

/* An assertion whose message names the file (CUnit copies the text). */
static void check(bool ok, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, (unsigned)line, msg, __FILE__, "",
                            CU_FALSE);
}

typedef struct corpus_file {
    char name[128];
    char *data;
    size_t len;
} corpus_file;

typedef void (*file_fn)(const corpus_file *f, void *payload);

/* Calls `fn` for each corpus file whose name starts with `prefix`; returns how many. */
static int for_each_file(const char *prefix, file_fn fn, void *payload)
{
    const char *shared = ctg_test_shared_dir();
    char dir[1024], path[1200];
    struct dirent *e;
    DIR *d;
    int n = 0;

    snprintf(dir, sizeof(dir), "%s/jsontestsuite", shared);
    d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    while ((e = readdir(d)) != NULL) {
        corpus_file f;
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < 5
            || strcmp(e->d_name + len - 5, ".json") != 0 || len >= sizeof(f.name))
            continue;
        memcpy(f.name, e->d_name, len + 1);
        snprintf(path, sizeof(path), "%s/%s", dir, f.name);
        f.data = ctg_test_slurp(path, &f.len);
        check(f.data != NULL, __LINE__, "%s: cannot be read", f.name);
        if (f.data != NULL)
            fn(&f, payload);
        free(f.data);
        n++;
    }
    closedir(d);
    return n;
}

/* The status of lexing `f` in memory mode, and its digest (caller frees). */
static char *lex_file(const corpus_file *f, int *status)
{
    char *d = ctg_test_lex_digest(f->data, f->len, 0, NULL, status);

    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    return d;
}

static void expect_accept(const corpus_file *f, void *payload)
{
    int rc;
    char *d = lex_file(f, &rc);

    (void)payload;
    check(rc == CTG_OK && strstr(d, "EOF@") != NULL, __LINE__, "%s: expected EOF, got %s",
          f->name, d);
    free(d);
}

static void expect_reject(const corpus_file *f, void *payload)
{
    int rc;
    char *d = lex_file(f, &rc);

    (void)payload;
    check(rc == CTG_ESYNTAX || rc == CTG_ELIMIT, __LINE__, "%s: expected an error, got %s",
          f->name, d);
    free(d);
}

CTG_SHARED_TEST(conformance, y_files_accepted)
{
    int n = for_each_file("y_", expect_accept, NULL);

    CU_ASSERT_EQUAL(n, Y_FILES);
}

CTG_SHARED_TEST(conformance, n_files_rejected)
{
    int n = for_each_file("n_", expect_reject, NULL);

    CU_ASSERT_EQUAL(n, N_FILES);
}

static void expect_pinned(const corpus_file *f, void *payload)
{
    bool *seen = payload;
    int rc;
    char *d = lex_file(f, &rc);

    for (size_t i = 0; i < I_FILES; i++) {
        if (strcmp(i_verdicts[i].name, f->name) != 0)
            continue;
        seen[i] = true;
        check(i_verdicts[i].accept ? rc == CTG_OK : rc == CTG_ESYNTAX || rc == CTG_ELIMIT,
              __LINE__, "%s: pinned %s, got %s", f->name,
              i_verdicts[i].accept ? "accept" : "reject", d);
        free(d);
        return;
    }
    check(false, __LINE__, "%s: no verdict pinned in the table", f->name);
    free(d);
}

CTG_SHARED_TEST(conformance, i_files_pinned)
{
    bool seen[I_FILES] = { false };
    int n = for_each_file("i_", expect_pinned, seen);

    CU_ASSERT_EQUAL(n, I_FILES);
    for (size_t i = 0; i < I_FILES; i++)
        check(seen[i], __LINE__, "%s: pinned but not in the corpus", i_verdicts[i].name);
}

static void expect_same_for_refills(const corpus_file *f, void *payload)
{
    static const size_t chunks[] = CTG_TEST_CHUNKS;
    int rc, rc2;
    char *d = lex_file(f, &rc);

    (void)payload;
    for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
        char *r = ctg_test_lex_digest(f->data, f->len, chunks[i], NULL, &rc2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        check(rc2 == rc && strcmp(r, d) == 0, __LINE__, "%s: refills of %zu give %.160s",
              f->name, chunks[i], strcmp(r, d) == 0 ? "the same tokens, another status" : r);
        free(r);
    }
    free(d);
}

/* The end of a digest: the EOF token or the error (see tests/test_lexer.h). */
static const char *digest_end(const char *d)
{
    const char *e = strstr(d, "error(");

    if (e != NULL)
        return e;
    e = strrchr(d, ' ');
    return e ? e + 1 : d;
}

/* Skipping values, in every pattern, in memory mode and with every refill size, ends as
 * reading every token does: same EOF or same error, and the input left at the same offset. */
static void expect_same_when_skipped(const corpus_file *f, void *payload)
{
    static const size_t chunks[] = CTG_TEST_CHUNKS;

    (void)payload;
    for (size_t i = 0; i <= sizeof(chunks) / sizeof(chunks[0]); i++) {
        size_t chunk = i == 0 ? 0 : chunks[i - 1];
        int rc, rc2;
        char *d = ctg_test_lex_digest(f->data, f->len, chunk, NULL, &rc), want[1024];
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        snprintf(want, sizeof(want), "%s at %zu", digest_end(d), ctg_test_last_offset());
        for (int pattern = 0; pattern < CTG_TEST_SKIP_PATTERNS; pattern++) {
            char *r = ctg_test_skip_end(f->data, f->len, chunk, NULL, pattern, &rc2);
            CU_ASSERT_PTR_NOT_NULL_FATAL(r);
            check(rc2 == rc && strcmp(r, want) == 0, __LINE__,
                  "%s: skipping (pattern %d, chunk %zu) ends with %.160s, reading with %.160s",
                  f->name, pattern, chunk, r, want);
            free(r);
        }
        free(d);
    }
}

CTG_SHARED_TEST(conformance, skipping_agrees)
{
    int n = for_each_file("", expect_same_when_skipped, NULL);

    CU_ASSERT_EQUAL(n, Y_FILES + N_FILES + I_FILES);
}

CTG_SHARED_TEST(conformance, refill_sizes_agree)
{
    int n = for_each_file("", expect_same_for_refills, NULL);

    CU_ASSERT_EQUAL(n, Y_FILES + N_FILES + I_FILES);
}

#include "test_conformance.tests.h"
