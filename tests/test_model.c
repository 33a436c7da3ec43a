/* SPDX-License-Identifier: MPL-2.0 */
/* The model: builders, accessors, element types, the arena and the allocation helpers. */

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "model/criterion.h"
#include "model/list_impl.h"
#include "format/kinds.h"
#include "tests/test_common.h"

/* The 20 names of spec 2.3 in ordinal order, written out here rather than taken from the
 * library, so that a typo in either shows. */
static const char *const type_names[] = {
    "GENERATOR", "STATIC_VAR_COMPENSATOR", "SHUNT_COMPENSATOR", "BRANCH", "HVDC_LINE",
    "BUSBAR_SECTION", "DANGLING_LINE", "BOUNDARY_LINE", "LINE", "TWO_WINDINGS_TRANSFORMER",
    "THREE_WINDINGS_TRANSFORMER", "LOAD", "SWITCH", "BATTERY", "BUS", "TIE_LINE",
    "VOLTAGE_SOURCE_CONVERTER", "DC_LINE", "DC_GROUND", "DC_NODE",
};

CTG_TEST(model, new_list_is_empty)
{
    ctg_list *list = NULL;
    size_t count = 99;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "my list", NULL), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_DEFAULT);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "my list");
    CU_ASSERT_PTR_NULL(ctg_list_version(list));
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 0);
    CU_ASSERT_PTR_NULL(ctg_list_contingency_at(list, 0));
    CU_ASSERT_PTR_NULL(ctg_list_contingencies(list, &count));
    CU_ASSERT_EQUAL(count, 0);
    ctg_list_free(list);
}

CTG_TEST(model, new_copies_the_name)
{
    char name[] = "original";
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_LIST, name, NULL), CTG_OK);
    name[0] = 'X';
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "original");
    CU_ASSERT_EQUAL(ctg_list_get_kind(list), CTG_LIST_LIST);
    ctg_list_free(list);
}

CTG_TEST(model, new_rejects_bad_arguments)
{
    ctg_list *list = (ctg_list *)&list;

    CU_ASSERT_EQUAL(ctg_list_new(NULL, CTG_LIST_DEFAULT, "x", NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_new(&list, CTG_LIST_DEFAULT, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(list);
    list = (ctg_list *)&list;
    CU_ASSERT_EQUAL(ctg_list_new(&list, CTG_LIST_KIND_COUNT, "x", NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(ctg_list_new(&list, (ctg_list_kind)-1, "x", NULL), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(list);
}

CTG_TEST(model, null_list_is_harmless)
{
    size_t count = 7;

    ctg_list_free(NULL);
    CU_ASSERT_EQUAL(ctg_list_get_kind(NULL), CTG_LIST_KIND_COUNT);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(NULL), "");
    CU_ASSERT_PTR_NULL(ctg_list_version(NULL));
    CU_ASSERT_EQUAL(ctg_list_contingency_count(NULL), 0);
    CU_ASSERT_PTR_NULL(ctg_list_contingency_at(NULL, 0));
    CU_ASSERT_PTR_NULL(ctg_list_contingencies(NULL, &count));
    CU_ASSERT_EQUAL(count, 0);
    CU_ASSERT_PTR_NULL(ctg_list_contingencies(NULL, NULL));
    CU_ASSERT_EQUAL(ctg_list_add_contingency(NULL, "c", NULL, NULL, 0), CTG_EINVAL);
}

CTG_TEST(model, add_contingency_copies_everything)
{
    char id[] = "N-1_A", name[] = "trip A", eid[] = "LINE_A", vl[] = "VL1";
    ctg_element els[2] = {
        { eid, CTG_ELEMENT_BRANCH, vl },
        { "GEN", CTG_ELEMENT_GENERATOR, NULL },
    };
    const ctg_contingency *c;
    ctg_list *list = NULL;
    size_t count = 0;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "l", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, id, name, els, 2), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "N-1_B", NULL, NULL, 0), CTG_OK);
    id[0] = name[0] = eid[0] = vl[0] = 'X';
    els[0].type = CTG_ELEMENT_LOAD;

    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 2);
    c = ctg_list_contingency_at(list, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_STRING_EQUAL(c->id, "N-1_A");
    CU_ASSERT_STRING_EQUAL(c->name, "trip A");
    CU_ASSERT_EQUAL_FATAL(c->element_count, 2);
    CU_ASSERT_PTR_NOT_EQUAL(c->elements, els);
    CU_ASSERT_STRING_EQUAL(c->elements[0].id, "LINE_A");
    CU_ASSERT_EQUAL(c->elements[0].type, CTG_ELEMENT_BRANCH);
    CU_ASSERT_STRING_EQUAL(c->elements[0].voltage_level_id, "VL1");
    CU_ASSERT_STRING_EQUAL(c->elements[1].id, "GEN");
    CU_ASSERT_PTR_NULL(c->elements[1].voltage_level_id);
    CU_ASSERT_PTR_NULL(c->extensions);
    CU_ASSERT_EQUAL(c->extension_count, 0);

    c = ctg_list_contingency_at(list, 1);
    CU_ASSERT_STRING_EQUAL(c->id, "N-1_B");
    CU_ASSERT_PTR_NULL(c->name);
    CU_ASSERT_PTR_NULL(c->elements);
    CU_ASSERT_EQUAL(c->element_count, 0);
    CU_ASSERT_PTR_NULL(ctg_list_contingency_at(list, 2));
    CU_ASSERT_PTR_EQUAL(ctg_list_contingencies(list, &count), ctg_list_contingency_at(list, 0));
    CU_ASSERT_EQUAL(count, 2);
    ctg_list_free(list);
}

CTG_TEST(model, empty_name_is_kept_as_empty)
{
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", "", NULL, 0), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_list_name(list), "");
    CU_ASSERT_PTR_NOT_NULL(ctg_list_contingency_at(list, 0)->name);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->name, "");
    ctg_list_free(list);
}

CTG_TEST(model, add_contingency_validates)
{
    ctg_element no_id = { NULL, CTG_ELEMENT_LOAD, NULL };
    ctg_element bad_type = { "X", CTG_ELEMENT_TYPE_COUNT, NULL };
    ctg_element neg_type = { "X", (ctg_element_type)-1, NULL };
    ctg_element ok[2] = { { "A", CTG_ELEMENT_LOAD, NULL }, { NULL, CTG_ELEMENT_LOAD, NULL } };
    ctg_list *list = NULL, *other = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "l", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, NULL, NULL, NULL, 0), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, &no_id, 1), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, &bad_type, 1), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, &neg_type, 1), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, ok, 2), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, NULL, 1), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 0);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", NULL, ok, 1), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 1);

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&other, CTG_LIST_IDENTIFIER, "i", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(other, "c", NULL, ok, 1), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(other), 0);
    ctg_list_free(other);
    ctg_list_free(list);
}

CTG_TEST(model, voltage_level_kept_only_when_sided)
{
    ctg_element in[CTG_ELEMENT_TYPE_COUNT];
    const ctg_contingency *c;
    ctg_list *list = NULL;
    int t;

    for (t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++) {
        in[t].id = type_names[t];
        in[t].type = (ctg_element_type)t;
        in[t].voltage_level_id = "VL";
    }
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "l", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(list, "all", NULL, in, 20), CTG_OK);
    c = ctg_list_contingency_at(list, 0);
    for (t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++) {
        const char *vl = c->elements[t].voltage_level_id;

        if (ctg_element_type_is_sided((ctg_element_type)t)) {
            CU_ASSERT_PTR_NOT_NULL(vl);
            CU_ASSERT(vl != NULL && strcmp(vl, "VL") == 0);
        } else {
            CU_ASSERT_PTR_NULL(vl);
        }
    }
    /* DC_LINE keeps its side in memory (PowSyBl writes it). */
    CU_ASSERT_PTR_NOT_NULL(c->elements[CTG_ELEMENT_DC_LINE].voltage_level_id);
    ctg_list_free(list);
}

CTG_TEST(model, dangling_line_is_stored_as_boundary_line)
{
    ctg_element dl = { "DL1", CTG_ELEMENT_DANGLING_LINE, NULL };
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "l", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(list, "c", NULL, &dl, 1), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_at(list, 0)->elements[0].type,
                    CTG_ELEMENT_BOUNDARY_LINE);
    ctg_list_free(list);
}

/* Builds a list of `n` contingencies through `a`; CTG_OK or the first failure. */
static int build(ctg_list **out, const ctg_allocator *a, int n)
{
    char id[32], eid[32];
    int rc = ctg_list_new(out, CTG_LIST_DEFAULT, "built", a);

    for (int i = 0; i < n && rc == CTG_OK; i++) {
        ctg_element els[2] = { { eid, CTG_ELEMENT_LINE, "VL" }, { "G", CTG_ELEMENT_LOAD, NULL } };

        snprintf(id, sizeof id, "N-1_%06d", i);
        snprintf(eid, sizeof eid, "LINE_%06d", i);
        rc = ctg_list_add_contingency(*out, id, i % 2 ? "named" : NULL, els, 2);
    }
    return rc;
}

CTG_TEST(model, allocator_hooks_see_everything)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(build(&list, &a, 5000), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 5000);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 4999)->id, "N-1_004999");
    CU_ASSERT(st.allocs > 0);
    CU_ASSERT(st.resizes > 0); /* items grew in place */
    CU_ASSERT(st.live_bytes > 5000 * sizeof(ctg_contingency));
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    CU_ASSERT_EQUAL(st.allocs, st.releases);
}

CTG_TEST(model, allocator_without_resize_hook)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator_noresize(&st);
    ctg_list *list = NULL;

    CU_ASSERT_EQUAL_FATAL(build(&list, &a, 1000), CTG_OK);
    CU_ASSERT_EQUAL(st.resizes, 0);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->id, "N-1_000000");
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 999)->elements[0].id, "LINE_000999");
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.allocs, st.releases);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
}

/* Fails the Nth allocation for every N until building succeeds: each failure is CTG_ENOMEM,
 * leaves the list as it was, and nothing leaks. */
CTG_TEST(model, out_of_memory_leaves_list_unchanged)
{
    size_t n;
    int rc = CTG_ENOMEM;

    for (n = 1; rc != CTG_OK && n < 10000; n++) {
        ctg_test_alloc st = { 0 };
        ctg_allocator a = ctg_test_allocator(&st);
        ctg_list *list = NULL;
        size_t before;

        st.fail_at = n;
        rc = build(&list, &a, 300);
        CU_ASSERT(rc == CTG_OK || rc == CTG_ENOMEM);
        CU_ASSERT_EQUAL(rc == CTG_OK, !st.failed);
        if (list != NULL) {
            before = ctg_list_contingency_count(list);
            CU_ASSERT(rc == CTG_OK ? before == 300 : before < 300);
            if (before > 0)
                CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, before - 1)->elements[1].id,
                                       "G");
            /* The list still works once memory is back. */
            st.fail_at = 0;
            CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "after", NULL, NULL, 0), CTG_OK);
            CU_ASSERT_EQUAL(ctg_list_contingency_count(list), before + 1);
        }
        ctg_list_free(list);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        CU_ASSERT_EQUAL(st.bad_sizes, 0);
    }
    CU_ASSERT_EQUAL(rc, CTG_OK);
    CU_ASSERT(n > 5); /* arena, list, chunks, items: several allocations were swept */
}

CTG_TEST(model, element_type_names_round_trip)
{
    char buf[40];

    CU_ASSERT_EQUAL(CTG_ELEMENT_TYPE_COUNT, 20);
    for (int t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++) {
        ctg_element_type got = CTG_ELEMENT_TYPE_COUNT;
        const char *name = ctg_element_type_name((ctg_element_type)t);
        size_t len = strlen(type_names[t]);

        CU_ASSERT_PTR_NOT_NULL_FATAL(name);
        CU_ASSERT_STRING_EQUAL(name, type_names[t]);
        CU_ASSERT(ctg_element_type_from_name(name, len, &got));
        CU_ASSERT_EQUAL(got, t);
        /* Not NUL-terminated: the length decides. */
        memcpy(buf, name, len);
        memcpy(buf + len, "_X", 3);
        got = CTG_ELEMENT_TYPE_COUNT;
        CU_ASSERT(ctg_element_type_from_name(buf, len, &got));
        CU_ASSERT_EQUAL(got, t);
        CU_ASSERT_FALSE(ctg_element_type_from_name(buf, len + 2, &got));
        CU_ASSERT_FALSE(ctg_element_type_from_name(buf, len - 1, &got));
        /* Exact case only. */
        buf[len - 1] = (char)(buf[len - 1] + ('a' - 'A'));
        CU_ASSERT_FALSE(ctg_element_type_from_name(buf, len, &got));
    }
    CU_ASSERT_PTR_NULL(ctg_element_type_name(CTG_ELEMENT_TYPE_COUNT));
    CU_ASSERT_PTR_NULL(ctg_element_type_name((ctg_element_type)-1));
}

CTG_TEST(model, element_type_from_name_rejects_near_misses)
{
    static const char *const bad[] = {
        "", "B", "BU ", " BUS", "LIME", "LOAF", "BRANCX", "SWITCX", "DC_LINX", "DC_NODX",
        "BATTERX", "TIE_LINX", "GENERATOX", "HVDC_LINX", "DC_GROUNX", "DANGLING_LINX",
        "BOUNDARY_LINX", "BUSBAR_SECTIOX", "SHUNT_COMPENSATOX", "STATIC_VAR_COMPENSATOX",
        "TWO_WINDINGS_TRANSFORMEX", "VOLTAGE_SOURCE_CONVERTEX", "THREE_WINDINGS_TRANSFORMEX",
        "XWO_WINDINGS_TRANSFORMER", "generator", "0", "BRANCH ",
        /* A type's slot (same two first bytes, two last, length) but not its name. */
        "BRXNCH", "LIXE", "BUX", "DC_NOXE", "GENXRATOR", "TWO_WINDINGS_XRANSFORMER",
    };
    ctg_element_type got = CTG_ELEMENT_LOAD;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_FALSE(ctg_element_type_from_name(bad[i], strlen(bad[i]), &got));
        CU_ASSERT_EQUAL(got, CTG_ELEMENT_LOAD);
    }
    CU_ASSERT_FALSE(ctg_element_type_from_name(NULL, 0, &got));
}

CTG_TEST(model, sidedness_table)
{
    static const bool sided[CTG_ELEMENT_TYPE_COUNT] = {
        [CTG_ELEMENT_BRANCH] = true,
        [CTG_ELEMENT_HVDC_LINE] = true,
        [CTG_ELEMENT_LINE] = true,
        [CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER] = true,
        [CTG_ELEMENT_TIE_LINE] = true,
        [CTG_ELEMENT_DC_LINE] = true,
    };
    int n = 0;

    for (int t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++) {
        CU_ASSERT_EQUAL(ctg_element_type_is_sided((ctg_element_type)t), sided[t]);
        n += ctg_element_type_is_sided((ctg_element_type)t);
    }
    CU_ASSERT_EQUAL(n, 6);
    CU_ASSERT_FALSE(ctg_element_type_is_sided(CTG_ELEMENT_TYPE_COUNT));
}

CTG_TEST(model, list_kind_names)
{
    static const char *const names[] = {
        "default", "list", "identifier", "injectionCriterion", "lineCriterion",
        "hvdcCriterion", "tieLineCriterion", "twoWindingsTransformerCriterion",
        "threeWindingsTransformerCriterion", "contingency",
    };

    CU_ASSERT_EQUAL(CTG_LIST_KIND_COUNT, 10);
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(ctg_list_kind_name((ctg_list_kind)k));
        CU_ASSERT_STRING_EQUAL(ctg_list_kind_name((ctg_list_kind)k), names[k]);
    }
    CU_ASSERT_PTR_NULL(ctg_list_kind_name(CTG_LIST_KIND_COUNT));
}

/* The one name look-up (base/names.h) on the tables not covered by their own suites: every
 * name is found as its value, and a name one byte short, one byte long or with its last byte
 * changed is not. A value filed under the wrong length in a table's index fails here. */
static void check_name(bool (*find)(const char *, size_t, unsigned *), const char *name,
                       unsigned want)
{
    char buf[64];
    size_t len = strlen(name);
    unsigned got = ~0u;

    CU_ASSERT_FATAL(len + 1 < sizeof buf);
    CU_ASSERT(find(name, len, &got) && got == want);
    CU_ASSERT_FALSE(find(name, len - 1, &got));
    memcpy(buf, name, len);
    buf[len] = name[len - 1];
    CU_ASSERT_FALSE(find(buf, len + 1, &got));
    buf[len - 1] ^= 0x20;
    CU_ASSERT_FALSE(find(buf, len, &got));
}

static bool find_kind(const char *s, size_t n, unsigned *out)
{
    ctg_list_kind k;
    bool ok = ctg_list_kind_from_name(s, n, &k);

    *out = (unsigned)k;
    return ok;
}

static bool find_equipment(const char *s, size_t n, unsigned *out)
{
    ctg_equipment_to_check v;
    bool ok = ctg_equipment_to_check_from_name(s, n, &v);

    *out = (unsigned)v;
    return ok;
}

static bool find_side(const char *s, size_t n, unsigned *out)
{
    ctg_side_to_check v;
    bool ok = ctg_side_to_check_from_name(s, n, &v);

    *out = (unsigned)v;
    return ok;
}

CTG_TEST(model, one_name_look_up_serves_every_table)
{
    ctg_list_kind k;
    unsigned v;

    for (int i = 0; i < CTG_LIST_KIND_COUNT; i++)
        if (i != CTG_LIST_CONTINGENCY)
            check_name(find_kind, ctg_list_kind_name((ctg_list_kind)i), (unsigned)i);
    /* A bare contingency has no "type": its name is not one. */
    CU_ASSERT_FALSE(ctg_list_kind_from_name("contingency", 11, &k));
    CU_ASSERT_FALSE(ctg_list_kind_from_name("", 0, &k));
    for (unsigned i = CTG_CHECK_SELF; i <= CTG_CHECK_SUBSTATION; i++)
        check_name(find_equipment, ctg_equipment_to_check_name((ctg_equipment_to_check)i), i);
    for (unsigned i = CTG_SIDE_ONE; i <= CTG_SIDE_ALL_THREE; i++)
        check_name(find_side, ctg_side_to_check_name((ctg_side_to_check)i), i);
    CU_ASSERT_FALSE(find_side("NONE", 4, &v)); /* CTG_SIDE_NONE has no name */
    CU_ASSERT_FALSE(find_side(NULL, 3, &v));
}

CTG_TEST(model, version_string)
{
    char expect[32];

    snprintf(expect, sizeof expect, "%d.%d.%d", CTG_VERSION_MAJOR, CTG_VERSION_MINOR,
             CTG_VERSION_PATCH);
    CU_ASSERT_STRING_EQUAL(ctg_version_string(), expect);
    CU_ASSERT_STRING_EQUAL(ctg_version_string(), CTG_VERSION_STRING);
}

/* ---- arena ---------------------------------------------------------------------------- */

CTG_TEST(model, arena_alignment)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_arena *arena = ctg_arena_new(&a);
    size_t i;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    CU_ASSERT_PTR_NOT_NULL(ctg_arena_allocator(arena));
    CU_ASSERT_PTR_EQUAL(ctg_arena_allocator(arena)->ctx, &st);
    for (i = 0; i < 3000; i++) {
        size_t align = (size_t)1 << (i % 5); /* 1, 2, 4, 8, 16 */
        size_t size = i % 7 == 0 ? 1500 + i : 1 + i % 37; /* some beyond a quarter chunk */
        unsigned char *p = ctg_arena_alloc(arena, size, align);

        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_EQUAL((uintptr_t)p % align, 0);
        memset(p, 0xAB, size); /* ASan checks the bounds */
    }
    for (i = 0; i < 100; i++) {
        unsigned char *z = ctg_arena_calloc(arena, i + 1, 3);

        CU_ASSERT_PTR_NOT_NULL_FATAL(z);
        CU_ASSERT_EQUAL((uintptr_t)z % alignof(max_align_t), 0);
        for (size_t k = 0; k < (i + 1) * 3; k++)
            CU_ASSERT_EQUAL_FATAL(z[k], 0);
    }
    CU_ASSERT_EQUAL(ctg_arena_footprint(arena), st.live_bytes);
    CU_ASSERT(ctg_arena_footprint(arena) > 3000);
    ctg_arena_release(arena);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.allocs, st.releases);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
}

/* Under ASan the room between and after arena objects is poisoned: an overrun such as 16
 * bytes copied into a 12-byte object is reported, although it stays inside one chunk. Without
 * ASan the same layout is checked: the next 8-aligned object starts 16 bytes on. */
CTG_TEST(model, arena_room_beyond_each_object_is_poisoned)
{
    ctg_arena *arena = ctg_arena_new(NULL);
    char *a, *b, *s;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    a = ctg_arena_alloc_fast(arena, 12, 8);
    b = ctg_arena_alloc_fast(arena, 12, 8);
    s = ctg_arena_strndup_fast(arena, "abc", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_EQUAL(b, a + 16);
    CU_ASSERT_PTR_EQUAL(s, b + 12);
#ifdef CTG_ARENA_ASAN
    CU_ASSERT_EQUAL(__asan_address_is_poisoned(a + 11), 0);
    CU_ASSERT_EQUAL(__asan_address_is_poisoned(a + 12), 1); /* the padding up to b */
    CU_ASSERT_EQUAL(__asan_address_is_poisoned(a + 15), 1);
    CU_ASSERT_EQUAL(__asan_address_is_poisoned(s + 3), 0);  /* the NUL */
    CU_ASSERT_EQUAL(__asan_address_is_poisoned(s + 4), 1);  /* the chunk's free room */
#endif
    ctg_arena_reset(arena);
    a = ctg_arena_alloc_fast(arena, 4, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
#ifdef CTG_ARENA_ASAN
    CU_ASSERT_EQUAL(__asan_address_is_poisoned(a + 4), 1); /* poisoned again by the reset */
#endif
    ctg_arena_release(arena);
}

CTG_TEST(model, arena_calloc_overflow)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_arena *arena = ctg_arena_new(&a);
    size_t allocs;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    allocs = st.allocs;
    CU_ASSERT_PTR_NULL(ctg_arena_calloc(arena, SIZE_MAX / 2 + 1, 2));
    CU_ASSERT_PTR_NULL(ctg_arena_calloc(arena, SIZE_MAX, SIZE_MAX));
    CU_ASSERT_PTR_NULL(ctg_arena_calloc(arena, 2, SIZE_MAX / 2 + 1));
    CU_ASSERT_EQUAL(st.allocs, allocs); /* refused before asking the allocator */
    CU_ASSERT_PTR_NULL(ctg_arena_alloc(arena, SIZE_MAX - 8, 16));
    CU_ASSERT_PTR_NULL(ctg_arena_strndup(arena, "x", SIZE_MAX));
    CU_ASSERT_PTR_NOT_NULL(ctg_arena_calloc(arena, 0, 8));
    ctg_arena_release(arena);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
}

CTG_TEST(model, arena_strings_and_copies)
{
    ctg_arena *arena = ctg_arena_new(NULL);
    const char src[] = "abcdef";
    double d[3] = { 1.5, 2.5, 3.5 };
    char *s;
    double *dc;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    s = ctg_arena_strndup(arena, src, 3);
    CU_ASSERT_STRING_EQUAL(s, "abc");
    s = ctg_arena_strndup(arena, src, 0);
    CU_ASSERT_STRING_EQUAL(s, "");
    dc = ctg_arena_memdup(arena, d, sizeof d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc);
    CU_ASSERT(dc != d && dc[2] == 3.5);
    CU_ASSERT_PTR_NULL(ctg_arena_memdup(arena, d, 0));
    ctg_arena_release(arena);
    ctg_arena_release(NULL);
    CU_ASSERT_EQUAL(ctg_arena_footprint(NULL), 0);
}

CTG_TEST(model, arena_adopts_blocks)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_arena *arena = ctg_arena_new(&a);
    size_t before;
    void *block;

    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    before = ctg_arena_footprint(arena);
    block = ctg_mem_alloc(&a, 1000);
    CU_ASSERT_EQUAL(ctg_arena_adopt(arena, block, 1000), CTG_OK);
    CU_ASSERT(ctg_arena_footprint(arena) >= before + 1000);
    ctg_arena_release(arena);
    /* The node that records a block comes from the arena: fail that allocation. */
    arena = ctg_arena_new(&a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(arena);
    block = ctg_mem_alloc(&a, 500);
    st.fail_at = st.calls + 1;
    CU_ASSERT_EQUAL(ctg_arena_adopt(arena, block, 500), CTG_ENOMEM);
    st.fail_at = 0;
    ctg_arena_release(arena);
    CU_ASSERT_EQUAL(st.live_bytes, 0); /* the refused block was released at once */
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
}

CTG_TEST(model, arena_new_out_of_memory)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_list *list = (ctg_list *)&st;

    st.fail_at = 1;
    CU_ASSERT_PTR_NULL(ctg_arena_new(&a));
    st.fail_at = st.calls + 1;
    CU_ASSERT_EQUAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "x", &a), CTG_ENOMEM);
    CU_ASSERT_PTR_NULL(list);
    st.fail_at = st.calls + 2; /* the arena succeeds, its first chunk fails */
    CU_ASSERT_EQUAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "x", &a), CTG_ENOMEM);
    CU_ASSERT_PTR_NULL(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
}

/* ---- allocation helpers --------------------------------------------------------------- */

CTG_TEST(model, size_helpers_detect_overflow)
{
    size_t out = 0;

    CU_ASSERT(ctg_size_mul(3, 4, &out) && out == 12);
    CU_ASSERT(ctg_size_mul(SIZE_MAX, 0, &out) && out == 0);
    CU_ASSERT(ctg_size_mul(SIZE_MAX / 2, 2, &out));
    CU_ASSERT_FALSE(ctg_size_mul(SIZE_MAX / 2 + 1, 2, &out));
    CU_ASSERT_FALSE(ctg_size_mul(SIZE_MAX, SIZE_MAX, &out));
    CU_ASSERT(ctg_size_add(SIZE_MAX - 1, 1, &out) && out == SIZE_MAX);
    CU_ASSERT_FALSE(ctg_size_add(SIZE_MAX, 1, &out));
    CU_ASSERT_FALSE(ctg_size_add(1, SIZE_MAX, &out));
}

CTG_TEST(model, grow_capacity)
{
    size_t out = 0;

    CU_ASSERT(ctg_grow_capacity(0, 1, 16, 1000, &out) && out == 16);
    CU_ASSERT(ctg_grow_capacity(16, 17, 16, 1000, &out) && out == 32);
    CU_ASSERT(ctg_grow_capacity(16, 100, 16, 1000, &out) && out == 128);
    CU_ASSERT(ctg_grow_capacity(16, 10, 16, 1000, &out) && out == 16);
    CU_ASSERT(ctg_grow_capacity(600, 601, 16, 1000, &out) && out == 1000);
    CU_ASSERT_FALSE(ctg_grow_capacity(1000, 1001, 16, 1000, &out));
    CU_ASSERT(ctg_grow_capacity(SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 2, 1, SIZE_MAX, &out));
    CU_ASSERT_EQUAL(out, SIZE_MAX);
    CU_ASSERT(ctg_grow_capacity(SIZE_MAX / 2, SIZE_MAX - 1, 1, SIZE_MAX, &out));
    CU_ASSERT(out >= SIZE_MAX - 1);
    CU_ASSERT_FALSE(ctg_grow_capacity(0, SIZE_MAX, 1, SIZE_MAX - 1, &out));
}

CTG_TEST(model, mem_resize_fallback_copies)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator_noresize(&st);
    char *p = ctg_mem_alloc(&a, 4);
    char *q;

    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    memcpy(p, "abc", 4);
    q = ctg_mem_resize(&a, p, 4, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_STRING_EQUAL(q, "abc");
    st.fail_at = st.calls + 1;
    CU_ASSERT_PTR_NULL(ctg_mem_resize(&a, q, 100, 200));
    CU_ASSERT_STRING_EQUAL(q, "abc"); /* still valid */
    ctg_mem_release(&a, q, 100);
    ctg_mem_release(&a, NULL, 5);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    /* The C library when there are no hooks. */
    p = ctg_mem_resize(NULL, NULL, 0, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p = ctg_mem_resize(NULL, p, 10, 0);
    CU_ASSERT_PTR_NOT_NULL(p);
    ctg_mem_release(NULL, p, 1);
    p = ctg_mem_alloc(NULL, 0);
    CU_ASSERT_PTR_NOT_NULL(p);
    ctg_mem_release(NULL, p, 0);
}

/* A list that was read holds its contingencies in the arena (cap 0); adding to it moves them
 * into a block of the list's own. */
CTG_TEST(model, add_to_a_list_that_was_read)
{
    static const char json[] =
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"r\",\"contingencies\":["
        "{\"id\":\"a\",\"elements\":[{\"id\":\"L\",\"type\":\"LINE\"}]},{\"id\":\"b\"}]}";
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;

    opts.allocator = &a;
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, json, sizeof json - 1, &opts, NULL),
                          CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_contingency_count(list), 2);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(list, "c", "added", NULL, 0), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(list), 3);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 0)->elements[0].id, "L");
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 1)->id, "b");
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(list, 2)->name, "added");
    ctg_list_free(list);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
}

CTG_TEST(model, contingency_document_holds_one)
{
    ctg_list *doc = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&doc, CTG_LIST_CONTINGENCY, "", NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(doc), 0);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(doc, "only", NULL, NULL, 0), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_add_contingency(doc, "second", NULL, NULL, 0), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_contingency_count(doc), 1);
    CU_ASSERT_STRING_EQUAL(ctg_list_contingency_at(doc, 0)->id, "only");
    ctg_list_free(doc);
}


#include "test_model.tests.h"
