/* SPDX-License-Identifier: MPL-2.0 */
/* Runs one part of a CUnit suite, named in argv[1]; ctest has one entry per part. The part
 * SUITE is the suite's tests that need only this checkout, SUITE/shared those that read the
 * shared test data (CTG_SHARED_TEST); tests/suites.h lists the suites, and each suite's table
 * is generated from its source (tests/tests.cmake). An optional argv[2] runs only the tests
 * whose names contain it (for debugging). `ctg_tests --list` prints every test as "PART NAME".
 * Exit status: 0 all passed, 1 a test failed (or the part is empty), 2 bad usage or a CUnit
 * error, 77 skipped because the shared test data is absent (ctest's SKIP_RETURN_CODE). */

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "tests/test_common.h"

#define CTG_SUITE(name) extern const ctg_test_info name##_tests[];
#include "tests/suites.h"
#undef CTG_SUITE

typedef struct suite_entry {
    const char *name;
    const ctg_test_info *tests;
} suite_entry;

static const suite_entry suites[] = {
#define CTG_SUITE(name) { #name, name##_tests },
#include "tests/suites.h"
#undef CTG_SUITE
};

#define SUITE_COUNT (sizeof suites / sizeof suites[0])
#define SHARED_PART "/shared"

/* The suite a part names, and which of its tests the part holds. */
static const suite_entry *find_part(const char *part, bool *shared)
{
    size_t len = strlen(part), tail = sizeof SHARED_PART - 1;

    *shared = len > tail && strcmp(part + len - tail, SHARED_PART) == 0;
    if (*shared)
        len -= tail;
    for (size_t i = 0; i < SUITE_COUNT; i++) {
        if (strlen(suites[i].name) == len && memcmp(suites[i].name, part, len) == 0)
            return &suites[i];
    }
    return NULL;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: ctg_tests SUITE[" SHARED_PART "] [TEST-SUBSTRING] | ctg_tests --list\n"
                 "suites:");
    for (size_t i = 0; i < SUITE_COUNT; i++)
        fprintf(out, " %s", suites[i].name);
    fputc('\n', out);
}

static void print_tests(void)
{
    for (size_t i = 0; i < SUITE_COUNT; i++) {
        for (const ctg_test_info *t = suites[i].tests; t->name != NULL; t++)
            printf("%s%s %s\n", suites[i].name, t->needs_shared ? SHARED_PART : "", t->name);
    }
}

/* Registers the suite's tests; returns the number added, or -1 on a CUnit error. */
static int register_suite(const suite_entry *s, bool shared, const char *only)
{
    CU_pSuite suite = CU_add_suite(s->name, NULL, NULL);
    int n = 0;

    if (suite == NULL)
        return -1;
    for (const ctg_test_info *t = s->tests; t->name != NULL; t++) {
        if (t->needs_shared != shared || (only != NULL && strstr(t->name, only) == NULL))
            continue;
        if (CU_add_test(suite, t->name, t->run) == NULL)
            return -1;
        n++;
    }
    return n;
}

static int run_suite(const suite_entry *s, bool shared, const char *only)
{
    int added;
    int status;

    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "ctg_tests: %s\n", CU_get_error_msg());
        return 2;
    }
    added = register_suite(s, shared, only);
    if (added < 0) {
        fprintf(stderr, "ctg_tests: %s\n", CU_get_error_msg());
        status = 2;
    } else if (added == 0) {
        /* An empty part is a mistyped name or a missing test, not a pass. */
        fprintf(stderr, "ctg_tests: suite '%s%s' has no tests%s\n", s->name,
                shared ? SHARED_PART : "", only != NULL ? " of that name" : "");
        status = 1;
    } else {
        CU_basic_set_mode(CU_BRM_VERBOSE);
        if (CU_basic_run_tests() != CUE_SUCCESS)
            status = 2;
        else
            status = (CU_get_number_of_failures() != 0 || CU_get_number_of_tests_failed() != 0);
    }
    CU_cleanup_registry();
    return status;
}

int main(int argc, char **argv)
{
    const suite_entry *s;
    bool shared;

    /* The environment's locale, so that CI's LC_ALL=de_DE.UTF-8 run (scripts/ci-extra.sh)
     * proves that numbers parse and format the same under a decimal comma. */
    setlocale(LC_ALL, "");
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        print_tests();
        return 0;
    }
    if (argc != 2 && argc != 3) {
        usage(stderr);
        return 2;
    }
    s = find_part(argv[1], &shared);
    if (s == NULL) {
        fprintf(stderr, "ctg_tests: unknown suite '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if (shared && ctg_test_shared_dir() == NULL) {
        printf("SKIPPED: shared test data not found\n");
        return 77;
    }
    return run_suite(s, shared, argc == 3 ? argv[2] : NULL);
}
