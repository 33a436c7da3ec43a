/* SPDX-License-Identifier: MPL-2.0 */
/* PowSyBl's own `default` fixtures: read, then written back byte for byte; json-c, parsing the
 * same bytes, is the independent oracle for what the reader put in the structs. */

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <json-c/json.h>

#include "ctg/ctg.h"
#include "ctg/stream.h"
#include "tests/test_common.h"

/* Every `default` list among the fixtures; the 1.0 one is written as 1.1, which PowSyBl's own
 * 1.1 fixture holds. */
static const struct {
    const char *file;
    const char *written_as;
} fixtures[] = {
    { "contingencies.json", NULL },
    { "contingenciesBatteries.json", NULL },
    { "contingenciesWith3wt.json", NULL },
    { "contingenciesWithDlAndTl.json", NULL },
    { "contingenciesWithDlAndTlV1_0.json", "contingenciesWithDlAndTl.json" },
    { "contingenciesWithOptionalName.json", NULL },
    { "contingenciesWithSeveralElements.json", NULL },
};
#define FIXTURE_COUNT (sizeof(fixtures) / sizeof(fixtures[0]))

static char *shared_file(const char *name, size_t *len)
{
    char path[1024];

    snprintf(path, sizeof(path), "%s/powsybl/%s", ctg_test_shared_dir(), name);
    return ctg_test_slurp(path, len);
}

static ctg_list *read_shared(const char *name)
{
    char path[1024];
    ctg_list *list = NULL;
    ctg_error err;

    snprintf(path, sizeof(path), "%s/powsybl/%s", ctg_test_shared_dir(), name);
    if (ctg_list_read_file(&list, path, NULL, &err) != CTG_OK) {
        char line[512];
        ctg_error_format(&err, line, sizeof(line));
        fprintf(stderr, "\n  %s\n", line);
    }
    return list;
}

static int write_equals(const ctg_list *list, unsigned flags, const char *expect, size_t len)
{
    ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    int same;

    wo.flags = flags;
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&buf, list, &wo, NULL), CTG_OK);
    same = buf.len == len && memcmp(buf.data, expect, len) == 0;
    ctg_buf_dispose(&buf);
    return same;
}

CTG_SHARED_TEST(fixtures, default_lists_round_trip_byte_for_byte)
{
    for (size_t i = 0; i < FIXTURE_COUNT; i++) {
        const char *out_name = fixtures[i].written_as ? fixtures[i].written_as : fixtures[i].file;
        size_t len;
        char *expect = shared_file(out_name, &len);
        ctg_list *list = read_shared(fixtures[i].file);

        CU_ASSERT_FATAL(expect != NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        if (!write_equals(list, 0, expect, len))
            fprintf(stderr, "\n  %s is not written back byte for byte\n", fixtures[i].file);
        CU_ASSERT(write_equals(list, 0, expect, len));
        ctg_list_free(list);
        free(expect);
    }
}

/* Compact output read again gives the pretty bytes back: nothing is lost in either layout. */
CTG_SHARED_TEST(fixtures, compact_layout_round_trips)
{
    for (size_t i = 0; i < FIXTURE_COUNT; i++) {
        const char *out_name = fixtures[i].written_as ? fixtures[i].written_as : fixtures[i].file;
        ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
        ctg_buf compact = CTG_BUF_INIT;
        ctg_list *list = read_shared(fixtures[i].file), *again = NULL;
        size_t len;
        char *expect = shared_file(out_name, &len);

        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        wo.flags = CTG_WRITE_COMPACT;
        CU_ASSERT_EQUAL(ctg_list_write_buf(&compact, list, &wo, NULL), CTG_OK);
        CU_ASSERT_PTR_NULL(memchr(compact.data, '\n', compact.len));
        CU_ASSERT_EQUAL(ctg_list_read_buffer(&again, compact.data, compact.len, NULL, NULL), CTG_OK);
        CU_ASSERT(again && write_equals(again, 0, expect, len));
        ctg_list_free(again);
        again = NULL; /* and in situ, the compact text rewritten by the read */
        CU_ASSERT_EQUAL(ctg_list_read_in_situ(&again, compact.data, compact.len, NULL, NULL),
                        CTG_OK);
        CU_ASSERT(again && write_equals(again, 0, expect, len));
        ctg_list_free(again);
        ctg_list_free(list);
        ctg_buf_dispose(&compact);
        free(expect);
    }
}

static const char *jstr(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Compares one contingency with json-c's view of it; returns the mismatches. */
static int compare_contingency(const ctg_contingency *c, json_object *jc)
{
    json_object *jels = NULL;
    int bad = !same_str(c->id, jstr(jc, "id")) + !same_str(c->name, jstr(jc, "name"));

    json_object_object_get_ex(jc, "elements", &jels);
    if (c->element_count != json_object_array_length(jels))
        return bad + 1;
    for (size_t e = 0; e < c->element_count; e++) {
        json_object *je = json_object_array_get_idx(jels, e);
        const char *type = jstr(je, "type");
        const char *side = jstr(je, "voltageLevelId");

        if (strcmp(type, "DANGLING_LINE") == 0)
            type = "BOUNDARY_LINE";
        bad += !same_str(c->elements[e].id, jstr(je, "id"));
        bad += !same_str(ctg_element_type_name(c->elements[e].type), type);
        bad += !same_str(c->elements[e].voltage_level_id, side);
    }
    return bad;
}

CTG_SHARED_TEST(fixtures, structs_agree_with_json_c)
{
    for (size_t i = 0; i < FIXTURE_COUNT; i++) {
        size_t len;
        char *text = shared_file(fixtures[i].file, &len);
        json_object *root = json_tokener_parse(text), *jcs = NULL;
        ctg_list *list = read_shared(fixtures[i].file);
        int bad = 0;

        CU_ASSERT_FATAL(root != NULL && list != NULL);
        CU_ASSERT_STRING_EQUAL(ctg_list_name(list), jstr(root, "name"));
        CU_ASSERT_STRING_EQUAL(ctg_list_version(list), jstr(root, "version"));
        json_object_object_get_ex(root, "contingencies", &jcs);
        CU_ASSERT_EQUAL_FATAL(ctg_list_contingency_count(list), json_object_array_length(jcs));
        for (size_t k = 0; k < ctg_list_contingency_count(list); k++)
            bad += compare_contingency(ctg_list_contingency_at(list, k),
                                       json_object_array_get_idx(jcs, k));
        CU_ASSERT_EQUAL(bad, 0);
        json_object_put(root);
        ctg_list_free(list);
        free(text);
    }
}

/* Every file of the PowSyBl folder, and what we do with it: write it back as itself, as another
 * file (older versions are written as the current one), or reject it. */
static const struct {
    const char *file;
    const char *written_as; /* NULL: itself; "" : rejected */
} every_file[] = {
    { "OperatorStrategyFileExtensionsTest.json", "-" },
    { "OperatorStrategyFileExtensionsTest2.json", "-" },
    { "OperatorStrategyFileTest.json", "-" },
    { "OperatorStrategyFileTestV1.0.json", "-" },
    { "OperatorStrategyFileTestV1.1.json", "-" },
    { "contingencies.json", NULL },
    { "contingenciesBatteries.json", NULL },
    { "contingenciesWith3wt.json", NULL },
    { "contingenciesWithDlAndTl.json", NULL },
    { "contingenciesWithDlAndTlV1_0.json", "contingenciesWithDlAndTl.json" },
    { "contingenciesWithOptionalName.json", NULL },
    { "contingenciesWithSeveralElements.json", NULL },
    { "contingency.json", NULL },
    { "contingencyContexts.json", "-" },
    { "contingencyListsList.json", NULL },
    { "hvdclineCriterionContingencyList.json", NULL },
    { "identifierContingencyList.json", NULL },
    { "identifierContingencyListReferenceForLessThan1_3.json", NULL },
    { "identifierContingencyListReferenceForPreviousVersion.json", NULL },
    { "identifierContingencyListTest.json", "" },
    { "identifierContingencyListv1_0.json", "identifierContingencyListReferenceForLessThan1_3.json" },
    { "identifierContingencyListv1_1.json", "identifierContingencyListReferenceForLessThan1_3.json" },
    { "identifierContingencyListv1_2.json", "identifierContingencyListReferenceForLessThan1_3.json" },
    { "injectionCriterionContingencyList.json", NULL },
    { "injectionCriterionContingencyListEmptyCountryList.json", NULL },
    { "injectionCriterionContingencyListNoCountryCriterion.json", NULL },
    { "injectionCriterionContingencyListNoCountryMatch.json", NULL },
    { "lineCriterionContingencyList.json", NULL },
    { "threeWindingsTransformerCriterionContingencyList.json", NULL },
    { "tieLineCriterionContingencyList.json", NULL },
    { "twoWindingsTransformerCriterionContingencyList.json", NULL },
};
#define EVERY_COUNT (sizeof(every_file) / sizeof(every_file[0]))

/* Byte order, not alphasort's strcoll: the suite also runs under de_DE.UTF-8. */
static int by_bytes(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_json(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

/* The table above names every JSON file of the folder, no more, no less: a new fixture
 * cannot be skipped silently. */
CTG_SHARED_TEST(fixtures, table_covers_the_folder)
{
    char dir[1024];
    struct dirent **entries;
    int n;

    snprintf(dir, sizeof(dir), "%s/powsybl", ctg_test_shared_dir());
    n = scandir(dir, &entries, is_json, by_bytes);
    CU_ASSERT_EQUAL_FATAL((size_t)n, EVERY_COUNT);
    for (int i = 0; i < n; i++) {
        CU_ASSERT_STRING_EQUAL(entries[i]->d_name, every_file[i].file);
        free(entries[i]);
    }
    free(entries);
}

/* Reads fixture i of every_file from its path, or in situ from a copy in *buf (free it after
 * the list). */
static int read_every(size_t i, bool in_situ, ctg_list **list, ctg_error *err, char **buf)
{
    char path[1024];
    size_t len;

    snprintf(path, sizeof(path), "%s/powsybl/%s", ctg_test_shared_dir(), every_file[i].file);
    *buf = NULL;
    if (!in_situ)
        return ctg_list_read_file(list, path, NULL, err);
    *buf = ctg_test_slurp(path, &len);
    CU_ASSERT_FATAL(*buf != NULL);
    ctg_test_same_in_situ(*buf, len, NULL); /* before the read rewrites it */
    return ctg_list_read_in_situ(list, *buf, len, NULL, err);
}

/* Every contingency list and contingency is written back byte for byte (operator strategies
 * and contexts are other formats: a list reader must refuse them). */
static void every_list_round_trips_when(bool in_situ)
{
    int done = 0;

    for (size_t i = 0; i < EVERY_COUNT; i++) {
        const char *as = every_file[i].written_as;
        ctg_list *list = NULL;
        ctg_error err;
        char *buf;
        int rc = read_every(i, in_situ, &list, &err, &buf);

        if (as && (as[0] == '\0' || as[0] == '-')) {
            CU_ASSERT(rc == CTG_ESCHEMA || rc == CTG_EUNSUPPORTED);
            CU_ASSERT_PTR_NULL(list);
            free(buf);
            done++;
            continue;
        }
        if (rc != CTG_OK) {
            char line[512];
            ctg_error_format(&err, line, sizeof(line));
            fprintf(stderr, "\n  %s\n", line);
        }
        CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
        size_t len;
        char *expect = shared_file(as ? as : every_file[i].file, &len);
        CU_ASSERT_FATAL(expect != NULL);
        if (!write_equals(list, 0, expect, len))
            fprintf(stderr, "\n  %s is not written back byte for byte\n", every_file[i].file);
        else
            done++;
        ctg_list_free(list);
        free(buf); /* after the list that borrows it */
        free(expect);
    }
    CU_ASSERT_EQUAL(done, (int)EVERY_COUNT);
}

CTG_SHARED_TEST(fixtures, every_list_round_trips)
{
    every_list_round_trips_when(false);
}

/* The same, each read in situ: its strings left in the bytes read. */
CTG_SHARED_TEST(fixtures, every_list_round_trips_in_situ)
{
    every_list_round_trips_when(true);
}

/* Every fixture read with one thread and with four (cut at every contingency): the same list,
 * or the same error. The lists of several contingencies are PowSyBl's layout: they split. */
CTG_SHARED_TEST(fixtures, every_file_reads_the_same_in_parallel)
{
    size_t split = 0;

    for (size_t i = 0; i < EVERY_COUNT; i++) {
        char path[1024];
        ctg_source src;

        snprintf(path, sizeof(path), "%s/powsybl/%s", ctg_test_shared_dir(), every_file[i].file);
        src = ctg_source_path(path);
        split += ctg_test_same_in_parallel(&src, NULL) > 1;
    }
    CU_ASSERT(split >= 5);
    fprintf(stderr, " (%zu of %zu split) ", split, (size_t)EVERY_COUNT);
}

#include "test_fixtures.tests.h"
