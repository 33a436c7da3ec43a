/* SPDX-License-Identifier: MPL-2.0 */
/* Runs one CUnit suite, named in argv[1]; ctest has one entry per suite (tests/suites.h).
 * An optional argv[2] runs only the tests whose names contain it (for debugging).
 * Exit status: 0 all passed, 1 a test failed (or the suite is empty), 2 bad usage or a CUnit
 * error, 77 skipped because the shared test data is absent (ctest's SKIP_RETURN_CODE). */

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "tests/test_common.h"

#define CTG_SUITE(name, needs_shared) extern CU_TestInfo name##_tests[];
#include "tests/suites.h"
#undef CTG_SUITE

typedef struct suite_entry {
    const char *name;
    CU_TestInfo *tests;
    bool needs_shared;
} suite_entry;

static const suite_entry suites[] = {
#define CTG_SUITE(name, needs_shared) { #name, name##_tests, (needs_shared) != 0 },
#include "tests/suites.h"
#undef CTG_SUITE
};

#define SUITE_COUNT (sizeof suites / sizeof suites[0])

static const suite_entry *find_suite(const char *name)
{
    for (size_t i = 0; i < SUITE_COUNT; i++) {
        if (strcmp(suites[i].name, name) == 0)
            return &suites[i];
    }
    return NULL;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: ctg_tests SUITE [TEST-SUBSTRING]\nsuites:");
    for (size_t i = 0; i < SUITE_COUNT; i++)
        fprintf(out, " %s", suites[i].name);
    fputc('\n', out);
}

/* Registers the suite's tests; returns the number added, or -1 on a CUnit error. */
static int register_suite(const suite_entry *s, const char *only)
{
    CU_pSuite suite = CU_add_suite(s->name, NULL, NULL);
    int n = 0;

    if (suite == NULL)
        return -1;
    for (const CU_TestInfo *t = s->tests; t->pName != NULL; t++) {
        if (only != NULL && strstr(t->pName, only) == NULL)
            continue;
        if (CU_add_test(suite, t->pName, t->pTestFunc) == NULL)
            return -1;
        n++;
    }
    return n;
}

static int run_suite(const suite_entry *s, const char *only)
{
    int added;
    int status;

    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "ctg_tests: %s\n", CU_get_error_msg());
        return 2;
    }
    added = register_suite(s, only);
    if (added < 0) {
        fprintf(stderr, "ctg_tests: %s\n", CU_get_error_msg());
        status = 2;
    } else if (added == 0) {
        /* An empty suite is a missing test file, not a pass. */
        fprintf(stderr, "ctg_tests: suite '%s' has no tests\n", s->name);
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

    /* The environment's locale, so that CI's LC_ALL=de_DE.UTF-8 run (scripts/ci-extra.sh)
     * proves that numbers parse and format the same under a decimal comma. */
    setlocale(LC_ALL, "");
    if (argc != 2 && argc != 3) {
        usage(stderr);
        return 2;
    }
    s = find_suite(argv[1]);
    if (s == NULL) {
        fprintf(stderr, "ctg_tests: unknown suite '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if (s->needs_shared && ctg_test_shared_dir() == NULL) {
        printf("SKIPPED: shared test data not found\n");
        return 77;
    }
    return run_suite(s, argc == 3 ? argv[2] : NULL);
}
