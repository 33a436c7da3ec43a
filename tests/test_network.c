/* SPDX-License-Identifier: MPL-2.0 */
/* The equipment table of libctg_network: builders and their errors, the id and alias index,
 * enumeration, members in order, properties, the JSON dump, allocation failures. */

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#include "ctg/network.h"
#include "base/arena.h"
#include "network/table.h"
#include "tests/net_golden.h"
#include "tests/test_common.h"

/* Adds one object; `vl1`..`vl3` may be NULL. Returns the status. */
static int add(ctg_network *net, ctg_identifiable_type type, const char *id, const char *vl1,
               const char *vl2, const char *vl3, ctg_error *err)
{
    ctg_net_spec s = ctg_test_spec(type, id, vl1, vl2, vl3);
    return ctg_network_add(net, &s, NULL, err);
}

static int add_vl(ctg_network *net, const char *id, const char *substation, double nominal_v,
                  ctg_topology_kind topology, ctg_error *err)
{
    ctg_net_spec s = ctg_test_vl_spec(id, substation, nominal_v, topology);
    return ctg_network_add(net, &s, NULL, err);
}

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Asserts a call succeeded, printing the error when not. */
#define OK(call)                                                                                   \
    do {                                                                                           \
        ctg_error err_ = { 0 };                                                                    \
        ctg_error *err = &err_;                                                                    \
        int rc_ = (call);                                                                          \
        if (rc_ != CTG_OK)                                                                         \
            ctg_test_report(#call, err);                                                           \
        CU_ASSERT_EQUAL_FATAL(rc_, CTG_OK);                                                        \
    } while (0)

/* The network of PowSyBl's eurostag tutorial, example 1 (V1_0/eurostag-tutorial-example1.xml),
 * in the order its file declares it; NULL when a step fails (asserted). */
static ctg_network *eurostag_ex(const ctg_allocator *alloc, unsigned arena_flags, ctg_error *e)
{
    ctg_network *net = NULL;
    int rc = ctg_network_new_ex(&net, "sim1", alloc, arena_flags, e);

    for (size_t i = 0; i < CTG_TEST_EUROSTAG_COUNT && rc == CTG_OK; i++) {
        ctg_net_spec s = ctg_test_eurostag_spec(i);
        rc = ctg_network_add(net, &s, NULL, e);
    }
    if (rc != CTG_OK) {
        ctg_network_free(net);
        return NULL;
    }
    return net;
}

static ctg_network *eurostag(const ctg_allocator *alloc, ctg_error *e)
{
    return eurostag_ex(alloc, 0, e);
}

/* The dump of `net` in a malloc'd string (asserted to succeed). */
static char *dump_text(const ctg_network *net)
{
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err = { 0 };
    int rc = ctg_network_write_json(net, &buf, &err);
    if (rc != CTG_OK)
        ctg_test_report("ctg_network_write_json", &err);
    CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
    char *copy = malloc(buf.len + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
    memcpy(copy, buf.data, buf.len + 1);
    ctg_buf_dispose(&buf);
    return copy;
}

/* Whether the scan data's copy of the properties of every substation or voltage level is
 * theirs: the same count, and the same key and value pointers in the same order (every key,
 * and every value up to CTG_NET_SCAN_SHORT bytes, the network's one copy of its text). */
static bool scan_properties_match(const ctg_network *net, ctg_identifiable_type t)
{
    const ctg_net_prop_run *runs;
    const ctg_net_property *items = ctg_net_scan_properties(net, t, &runs);
    bool ok = true;

    for (size_t i = 0; i < ctg_network_count(net, t); i++) {
        const ctg_net_object *o = ctg_network_object_at(net, t, i);
        size_t n = ctg_net_object_property_count(o);
        ok = ok && (runs != NULL || n == 0) && (runs == NULL || runs[i].count == n);
        for (size_t j = 0; ok && j < n; j++) {
            const ctg_net_property *p = ctg_net_object_property_at(o, j);
            ok = items[runs[i].first + j].key == p->key &&
                 items[runs[i].first + j].value == p->value;
            ok = ok && ctg_net_scan_interned(net, p->key, strlen(p->key)) == p->key;
            ok = ok && (strlen(p->value) > CTG_NET_SCAN_SHORT ||
                        ctg_net_scan_interned(net, p->value, strlen(p->value)) == p->value);
        }
    }
    return ok;
}

/* Whether the compact scan data (network/table.h) says what the objects say, for every voltage
 * level and every object of a placed type; and whether the batch look-up finds every id. */
static bool scan_matches(const ctg_network *net)
{
    const ctg_net_vl_scan *vls = ctg_net_scan_voltage_levels(net);
    bool ok = scan_properties_match(net, CTG_IDENTIFIABLE_SUBSTATION) &&
              scan_properties_match(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL);

    for (size_t i = 0; i < ctg_network_count(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL); i++) {
        const ctg_net_object *vl = ctg_network_object_at(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, i);
        const char *c = vl->substation ? vl->substation->container->country : NULL;
        double v = vl->container->nominal_v;
        ok = ok && (vls[i].nominal_v == v || (isnan(v) && isnan(vls[i].nominal_v)));
        ok = ok &&
             vls[i].substation == (vl->substation ? vl->substation->type_index : CTG_NET_SCAN_NONE);
        ok = ok && vls[i].country[0] == (c ? c[0] : 0) && vls[i].country[1] == (c ? c[1] : 0);
        ok = ok && vls[i].topology == (uint8_t)vl->container->topology;
    }
    for (unsigned t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++) {
        size_t stride, n = ctg_network_count(net, (ctg_identifiable_type)t);
        const uint32_t *rec = ctg_net_scan_levels(net, (ctg_identifiable_type)t, &stride);
        for (size_t i = 0; i < n && rec != NULL; i++, rec += stride) {
            const ctg_net_object *o = ctg_network_object_at(net, (ctg_identifiable_type)t, i);
            size_t levels = stride >= 3 ? stride - 1 : stride;
            for (size_t k = 0; k < levels; k++)
                ok = ok && rec[k] == (o->voltage_levels[k] ? o->voltage_levels[k]->type_index
                                                           : CTG_NET_SCAN_NONE);
            if (levels < stride)
                ok = ok &&
                     rec[levels] == (o->substation ? o->substation->type_index : CTG_NET_SCAN_NONE);
        }
        ok =
            ok && (rec != NULL || n == 0 || t == CTG_IDENTIFIABLE_NETWORK ||
                   t == CTG_IDENTIFIABLE_SUBSTATION || t == CTG_IDENTIFIABLE_VOLTAGE_LEVEL ||
                   t == CTG_IDENTIFIABLE_AREA || t == CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM ||
                   t >= CTG_IDENTIFIABLE_DC_NODE);
    }
    for (size_t i = 0; i < ctg_network_object_count(net); i++) {
        const ctg_net_object *o = ctg_network_object_by_doc(net, i);
        uint64_t h = ctg_net_index_hash(o->id, strlen(o->id));
        ctg_net_index_prefetch(net, h);
        ctg_net_index_prefetch_object(net, h);
        ok = ok && ctg_net_index_find_hashed(net, o->id, strlen(o->id), h) == o;
        ok = ok && ctg_net_index_find_hashed(net, o->id, strlen(o->id) - 1,
                                             ctg_net_index_hash(o->id, strlen(o->id) - 1)) != o;
    }
    return ok;
}

CTG_TEST(network, new_has_a_root)
{
    ctg_network *net = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_network_new(&net, "n", NULL, NULL), CTG_OK);
    const ctg_net_object *root = ctg_network_root(net);
    CU_ASSERT_STRING_EQUAL(root->id, "n");
    CU_ASSERT_EQUAL(root->type, CTG_IDENTIFIABLE_NETWORK);
    CU_ASSERT_EQUAL(ctg_network_object_count(net), 1);
    CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_NETWORK), 1);
    CU_ASSERT_PTR_EQUAL(ctg_network_find(net, "n", 1), root);
    CU_ASSERT_PTR_EQUAL(ctg_network_object_by_doc(net, 0), root);
    CU_ASSERT_PTR_NULL(ctg_network_object_by_doc(net, 1));
    CU_ASSERT_PTR_NULL(ctg_network_iidm_version(net));
    ctg_network_free(net);
    ctg_network_free(NULL);
}

/* The golden of the eurostag tutorial network, in the shared data. */
static void golden_path(char *path, size_t size)
{
    snprintf(path, size, "%s/iidm-golden/V1_0/eurostag-tutorial-example1.xml.json",
             ctg_test_shared_dir());
}

CTG_SHARED_TEST(network, built_eurostag_matches_its_golden)
{
    char path[4096], diff[512] = "";
    ctg_network *net = eurostag(NULL, NULL);

    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    golden_path(path, sizeof path);
    bool ok = ctg_test_net_matches_golden(net, path, diff, sizeof diff);
    if (!ok)
        fprintf(stderr, "%s\n", diff);
    CU_ASSERT_TRUE(ok);
    ctg_network_free(net);
}

/* One change to the built network, and the comparator names the first difference. */
CTG_SHARED_TEST(network, golden_diff_names_the_first_difference)
{
    char path[4096], diff[512] = "";
    ctg_network *net = NULL;

    golden_path(path, sizeof path);
    /* A generator more in VLGEN: its connectables and the counts differ; counts come first. */
    net = eurostag(NULL, NULL);
    OK(add(net, CTG_IDENTIFIABLE_GENERATOR, "GEN2", "VLGEN", NULL, NULL, err));
    CU_ASSERT_FALSE(ctg_test_net_matches_golden(net, path, diff, sizeof diff));
    CU_ASSERT_STRING_EQUAL(diff, "counts/GENERATOR: expected 1, got 2");
    ctg_network_free(net);

    /* A property the golden does not have. */
    net = eurostag(NULL, NULL);
    OK(ctg_network_set_property(net, "VLHV1", "k", "v", err));
    CU_ASSERT_FALSE(ctg_test_net_matches_golden(net, path, diff, sizeof diff));
    CU_ASSERT_STRING_EQUAL(diff, "objects/VOLTAGE_LEVEL[1]/properties: expected nothing, got "
                                 "{\"k\":\"v\"}");
    ctg_network_free(net);
}

CTG_SHARED_TEST(network, golden_diff_in_connectables)
{
    char path[4096], diff[512] = "";
    ctg_network *net = NULL;
    ctg_net_spec s = CTG_NET_SPEC_INIT;

    golden_path(path, sizeof path);
    /* VLHV2 lists a line before its transformer: built with orders. */
    CU_ASSERT_EQUAL_FATAL(ctg_network_new(&net, "sim1", NULL, NULL), CTG_OK);
    for (size_t i = 0; i < CTG_TEST_EUROSTAG_COUNT; i++) {
        s = ctg_test_eurostag_spec(i);
        if (strcmp(s.id, "NHV2_NLOAD") == 0)
            s.order[0] = 5;
        if (strcmp(s.id, "NHV1_NHV2_2") == 0)
            s.order[1] = 1;
        OK(ctg_network_add(net, &s, NULL, err));
    }
    CU_ASSERT_FALSE(ctg_test_net_matches_golden(net, path, diff, sizeof diff));
    CU_ASSERT_STRING_EQUAL(diff, "objects/VOLTAGE_LEVEL[2]/connectables[0]: expected "
                                 "\"NHV2_NLOAD\", got \"NHV1_NHV2_2\"");
    ctg_network_free(net);
}

/* Counts, objects and look-ups of `net` as one line, to show a failed add changed nothing. */
static void snapshot(const ctg_network *net, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "%zu:", ctg_network_object_count(net));
    for (unsigned t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT && len < size; t++)
        len += (size_t)snprintf(out + len, size - len, "%zu,",
                                ctg_network_count(net, (ctg_identifiable_type)t));
    for (size_t i = 0; i < ctg_network_object_count(net) && len < size; i++) {
        const ctg_net_object *o = ctg_network_object_by_doc(net, i);
        len += (size_t)snprintf(out + len, size - len, "%s/%zu/%zu/%zu;", o->id,
                                o->container ? o->container->member_count : 0,
                                o->container ? o->container->bus_count : 0,
                                ctg_net_object_alias_count(o));
    }
}

/* Adds `s` expecting CTG_EINVAL with `message`, and the network unchanged. */
static void expect_rejected(ctg_network *net, const ctg_net_spec *s, const char *message)
{
    char before[4096], after[4096];
    ctg_error err = { 0 };
    const ctg_net_object *out = (const ctg_net_object *)net;

    snapshot(net, before, sizeof before);
    CU_ASSERT_EQUAL(ctg_network_add(net, s, &out, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    if (strcmp(err.message, message) != 0)
        fprintf(stderr, "got: %s\n", err.message);
    snapshot(net, after, sizeof after);
    CU_ASSERT_STRING_EQUAL(before, after);
    if (s->id && *s->id && ctg_network_find(net, s->id, strlen(s->id)) == NULL)
        CU_ASSERT_PTR_NULL(ctg_network_find(net, s->id, strlen(s->id)));
}

CTG_TEST(network, builder_errors)
{
    ctg_network *net = eurostag(NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    OK(add_vl(net, "VLNB", "P1", 20.0, CTG_TOPOLOGY_NODE_BREAKER, err));
    OK(add_vl(net, "VLFREE", NULL, 20.0, CTG_TOPOLOGY_BUS_BREAKER, err));
    ctg_net_spec s;

    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "", "VLGEN", NULL, NULL);
    expect_rejected(net, &s, "a LOAD needs a non-empty id");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L\xc3(", "VLGEN", NULL, NULL);
    expect_rejected(net, &s, "a LOAD id that is not valid UTF-8");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "GEN", "VLGEN", NULL, NULL);
    expect_rejected(net, &s, "LOAD \"GEN\": the id is already used by a GENERATOR");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLX", NULL, NULL);
    expect_rejected(net, &s, "LOAD \"L2\": unknown voltage level \"VLX\"");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "P1", NULL, NULL);
    expect_rejected(net, &s, "LOAD \"L2\": \"P1\" is a SUBSTATION, not a VOLTAGE_LEVEL");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", NULL, NULL, NULL);
    expect_rejected(net, &s, "LOAD \"L2\": needs voltage level 1 (voltage_levels[0])");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLGEN", "VLHV1", NULL);
    expect_rejected(net, &s, "LOAD \"L2\": has no voltage level 2 (voltage_levels[1] is set)");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LINE, "L2", "VLGEN", NULL, NULL);
    expect_rejected(net, &s, "LINE \"L2\": needs voltage level 2 (voltage_levels[1])");
    s = ctg_test_spec(CTG_IDENTIFIABLE_SUBSTATION, "S3", "VLGEN", NULL, NULL);
    expect_rejected(net, &s,
                    "SUBSTATION \"S3\": stands in no voltage level (voltage_levels[0] is set)");
    s = ctg_test_spec(CTG_IDENTIFIABLE_BUS, "B2", "VLNB", NULL, NULL);
    expect_rejected(net, &s,
                    "BUS \"B2\": voltage level \"VLNB\" is NODE_BREAKER; a BUS stands "
                    "in a BUS_BREAKER one");
    s = ctg_test_spec(CTG_IDENTIFIABLE_BUSBAR_SECTION, "BBS", "VLGEN", NULL, NULL);
    expect_rejected(net, &s,
                    "BUSBAR_SECTION \"BBS\": voltage level \"VLGEN\" is BUS_BREAKER; a "
                    "BUSBAR_SECTION stands in a NODE_BREAKER one");
    s = ctg_test_spec(CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER, "T", "VLGEN", "VLHV2", NULL);
    s.substation = "P1";
    expect_rejected(net, &s,
                    "TWO_WINDINGS_TRANSFORMER \"T\": voltage level \"VLHV2\" is not in "
                    "substation \"P1\"");
    s.voltage_levels[1] = "VLFREE";
    expect_rejected(net, &s,
                    "TWO_WINDINGS_TRANSFORMER \"T\": voltage level \"VLFREE\" is not in "
                    "substation \"P1\"");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLGEN", NULL, NULL);
    s.substation = "P1";
    expect_rejected(net, &s, "LOAD \"L2\": stands in no substation (substation is set)");
    s = ctg_test_spec(CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "V", NULL, NULL, NULL);
    s.substation = "PX";
    expect_rejected(net, &s, "VOLTAGE_LEVEL \"V\": unknown substation \"PX\"");
    s = ctg_test_spec(CTG_IDENTIFIABLE_SUBSTATION, "S3", NULL, NULL, NULL);
    s.country = "ZZ";
    expect_rejected(net, &s,
                    "SUBSTATION \"S3\": \"ZZ\" is not an ISO 3166-1 alpha-2 country "
                    "code");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLGEN", NULL, NULL);
    s.country = "FR";
    expect_rejected(net, &s, "LOAD \"L2\": has no country of its own (country is set)");
    s = ctg_test_spec(CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, "C", "VLGEN", NULL, NULL);
    expect_rejected(net, &s, "HVDC_CONVERTER_STATION \"C\": needs its converter kind, LCC or VSC");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLGEN", NULL, NULL);
    s.converter_kind = CTG_CONVERTER_VSC;
    expect_rejected(net, &s, "LOAD \"L2\": is no converter station (converter_kind is set)");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLGEN", NULL, NULL);
    s.subnetwork = "NX";
    expect_rejected(net, &s, "LOAD \"L2\": unknown subnetwork \"NX\"");
    s.subnetwork = "GEN";
    expect_rejected(net, &s, "LOAD \"L2\": \"GEN\" is a GENERATOR, not a NETWORK");
    s = ctg_test_spec(CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM, "O", NULL, NULL, NULL);
    expect_rejected(net, &s, "OVERLOAD_MANAGEMENT_SYSTEM \"O\": needs its substation");
    s = ctg_test_spec(CTG_IDENTIFIABLE_TIE_LINE, "TL", NULL, NULL, NULL);
    expect_rejected(net, &s, "TIE_LINE \"TL\": needs boundary line 1 (refs[0])");
    s.refs[0] = "GEN";
    expect_rejected(net, &s, "TIE_LINE \"TL\": \"GEN\" is a GENERATOR, not a BOUNDARY_LINE");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLGEN", NULL, NULL);
    s.refs[1] = "GEN";
    expect_rejected(net, &s, "LOAD \"L2\": takes no references (refs is set)");
    s = ctg_test_spec(CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "V", NULL, NULL, NULL);
    s.topology = (ctg_topology_kind)7;
    expect_rejected(net, &s, "VOLTAGE_LEVEL \"V\": unknown topology kind 7");
    s = ctg_test_spec((ctg_identifiable_type)99, "X", NULL, NULL, NULL);
    expect_rejected(net, &s, "unknown identifiable type 99");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLGEN", NULL, NULL);
    s.version = 2;
    expect_rejected(net, &s, "unknown ctg_net_spec version 2");
    ctg_network_free(net);
}

CTG_TEST(network, tie_lines_and_hvdc_lines)
{
    ctg_network *net = eurostag(NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    ctg_net_spec s;

    OK(add(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, "DL1", "VLHV1", NULL, NULL, err));
    OK(add(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, "DL2", "VLHV2", NULL, NULL, err));
    OK(add(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, "DL3", "VLHV2", NULL, NULL, err));
    s = ctg_test_spec(CTG_IDENTIFIABLE_TIE_LINE, "TL", NULL, NULL, NULL);
    s.refs[0] = "DL1";
    s.refs[1] = "DL1";
    expect_rejected(net, &s, "TIE_LINE \"TL\": boundary line 1 and 2 are both \"DL1\"");
    s.voltage_levels[0] = "VLHV1";
    expect_rejected(net, &s,
                    "TIE_LINE \"TL\": stands in no voltage level (voltage_levels[0] is set)");
    s.voltage_levels[0] = NULL;
    s.refs[1] = "DL2";
    const ctg_net_object *tl = NULL;
    OK(ctg_network_add(net, &s, &tl, err));
    CU_ASSERT_STRING_EQUAL(tl->voltage_levels[0]->id, "VLHV1");
    CU_ASSERT_STRING_EQUAL(tl->voltage_levels[1]->id, "VLHV2");
    CU_ASSERT_PTR_EQUAL(ctg_network_find(net, "DL1", 3)->refs[0], tl);
    CU_ASSERT_PTR_EQUAL(ctg_network_find(net, "DL2", 3)->refs[0], tl);
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "DL3", 3)->refs[0]);
    s.id = "TL2";
    s.refs[0] = "DL3";
    expect_rejected(net, &s,
                    "TIE_LINE \"TL2\": boundary line \"DL2\" is already paired in tie "
                    "line \"TL\"");
    /* Stations: VSC first, then LCC; LCC stations are enumerated first. */
    const char *ids[] = { "V1", "L1", "V2", "L2" };
    for (unsigned i = 0; i < 4; i++) {
        s = ctg_test_spec(CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, ids[i], "VLHV1", NULL, NULL);
        s.converter_kind = ids[i][0] == 'V' ? CTG_CONVERTER_VSC : CTG_CONVERTER_LCC;
        OK(ctg_network_add(net, &s, NULL, err));
    }
    const char *order[] = { "L1", "L2", "V1", "V2" };
    CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION), 4);
    for (unsigned i = 0; i < 4; i++) {
        const ctg_net_object *o =
            ctg_network_object_at(net, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, i);
        CU_ASSERT_STRING_EQUAL(o->id, order[i]);
        CU_ASSERT_EQUAL(o->type_index, i);
    }
    CU_ASSERT_PTR_NULL(ctg_network_object_at(net, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, 4));
    s = ctg_test_spec(CTG_IDENTIFIABLE_HVDC_LINE, "H", NULL, NULL, NULL);
    s.refs[0] = "V1";
    s.refs[1] = "DL3";
    expect_rejected(net, &s,
                    "HVDC_LINE \"H\": \"DL3\" is a BOUNDARY_LINE, not a "
                    "HVDC_CONVERTER_STATION");
    s.refs[1] = "L1";
    OK(ctg_network_add(net, &s, NULL, err));
    s.id = "H2";
    s.refs[1] = "L2";
    expect_rejected(net, &s,
                    "HVDC_LINE \"H2\": converter station \"V1\" is already on HVDC line "
                    "\"H\"");
    CU_ASSERT_STRING_EQUAL(ctg_network_find(net, "L1", 2)->refs[0]->id, "H");
    size_t stride;
    const uint32_t *st = ctg_net_scan_levels(net, CTG_IDENTIFIABLE_HVDC_LINE, &stride);
    CU_ASSERT_EQUAL(stride, 2);
    CU_ASSERT_EQUAL(st[0], ctg_network_find(net, "VLHV1", 5)->type_index);
    CU_ASSERT_TRUE(scan_matches(net)); /* the LCC stations added after VSC ones moved them */
    ctg_network_free(net);
}

CTG_TEST(network, members_in_order)
{
    ctg_network *net = NULL;
    ctg_net_spec s;
    CU_ASSERT_EQUAL_FATAL(ctg_network_new(&net, "n", NULL, NULL), CTG_OK);
    OK(add_vl(net, "VL", NULL, 400.0, CTG_TOPOLOGY_NODE_BREAKER, err));
    OK(add_vl(net, "VL2", NULL, 400.0, CTG_TOPOLOGY_NODE_BREAKER, err));
    struct {
        const char *id;
        uint32_t order;
    } items[] = { { "A", 5 }, { "B", 2 }, { "C", 5 }, { "D", CTG_NET_NO_ORDER },
                  { "E", 0 }, { "F", 7 } };
    for (unsigned i = 0; i < 6; i++) {
        s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, items[i].id, "VL", NULL, NULL);
        s.order[0] = items[i].order;
        OK(ctg_network_add(net, &s, NULL, err));
    }
    /* A line with both ends in VL: once, at its lower node. */
    s = ctg_test_spec(CTG_IDENTIFIABLE_LINE, "LL", "VL", "VL", NULL);
    s.order[0] = 6;
    s.order[1] = 1;
    OK(ctg_network_add(net, &s, NULL, err));
    s = ctg_test_spec(CTG_IDENTIFIABLE_LINE, "LX", "VL2", "VL", NULL);
    s.order[0] = 1;
    s.order[1] = 3;
    OK(ctg_network_add(net, &s, NULL, err));
    const ctg_net_container *c = ctg_network_find(net, "VL", 2)->container;
    const char *want[] = { "E", "LL", "B", "LX", "A", "C", "F", "D" };
    CU_ASSERT_EQUAL_FATAL(c->member_count, 8);
    for (unsigned i = 0; i < 8; i++)
        CU_ASSERT_STRING_EQUAL(c->members[i]->id, want[i]);
    CU_ASSERT_EQUAL(ctg_network_find(net, "VL2", 3)->container->member_count, 1);
    ctg_network_free(net);
}

CTG_TEST(network, aliases_and_properties)
{
    ctg_network *net = eurostag(NULL, NULL);
    ctg_error e = { 0 };
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);

    OK(ctg_network_add_alias(net, "GEN", "G-alias", err));
    CU_ASSERT_PTR_EQUAL(ctg_network_find(net, "G-alias", 7), ctg_network_find(net, "GEN", 3));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "G-alias", 6));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "G-aliasX", 8));
    /* The bytes given, all of them: a NUL among them is in no id or alias. */
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "G-alias\0", 8));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "GEN\0", 4));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "GE\0", 3));
    CU_ASSERT_PTR_EQUAL(ctg_network_find(net, "GENX", 3), ctg_network_find(net, "GEN", 3));
    CU_ASSERT_EQUAL(ctg_network_add_alias(net, "LOAD", "G-alias", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "LOAD \"LOAD\": the alias \"G-alias\" is already an alias "
                                      "of GENERATOR \"GEN\"");
    CU_ASSERT_EQUAL(ctg_network_add_alias(net, "LOAD", "GEN", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "LOAD \"LOAD\": the alias \"GEN\" is already the id of "
                                      "GENERATOR \"GEN\"");
    CU_ASSERT_EQUAL(ctg_network_add_alias(net, "NOPE", "x", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "no object with the id or alias \"NOPE\"");
    CU_ASSERT_EQUAL(ctg_network_add_alias(net, "LOAD", "", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "LOAD \"LOAD\": an alias cannot be empty");
    CU_ASSERT_EQUAL(ctg_net_object_alias_count(ctg_network_find(net, "LOAD", 4)), 0);
    /* Absent is free: no attributes record until an alias or a property comes. */
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "LOAD", 4)->attrs);
    CU_ASSERT_PTR_NULL(ctg_net_object_alias_at(ctg_network_find(net, "LOAD", 4), 0));
    CU_ASSERT_PTR_NULL(ctg_net_object_property_at(ctg_network_find(net, "LOAD", 4), 0));
    CU_ASSERT_PTR_NULL(ctg_net_object_subnetwork(ctg_network_find(net, "LOAD", 4)));
    CU_ASSERT_EQUAL(ctg_net_object_alias_count(ctg_network_find(net, "GEN", 3)), 1);
    CU_ASSERT_STRING_EQUAL(ctg_net_object_alias_at(ctg_network_find(net, "GEN", 3), 0), "G-alias");
    CU_ASSERT_PTR_NULL(ctg_net_object_alias_at(ctg_network_find(net, "GEN", 3), 1));
    if (sizeof(void *) == 8) /* what the memory target counts on: 286k objects in net10k */
        CU_ASSERT_EQUAL(sizeof(ctg_net_object), 88);
    /* An add whose id is an alias. */
    ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "G-alias", "VLLOAD", NULL, NULL);
    expect_rejected(net, &s, "LOAD \"G-alias\": the id is already an alias of GENERATOR \"GEN\"");
    /* Properties: set, replaced, looked up through an alias. */
    OK(ctg_network_set_property(net, "G-alias", "b", "1", err));
    OK(ctg_network_set_property(net, "GEN", "a", "2", err));
    OK(ctg_network_set_property(net, "GEN", "b", "3", err));
    const ctg_net_object *gen = ctg_network_find(net, "GEN", 3);
    CU_ASSERT_EQUAL(ctg_net_object_property_count(gen), 2);
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property_at(gen, 0)->key, "b");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property_at(gen, 1)->value, "2");
    CU_ASSERT_PTR_NULL(ctg_net_object_property_at(gen, 2));
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(gen, "b"), "3");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(gen, "a"), "2");
    CU_ASSERT_PTR_NULL(ctg_net_object_property(gen, "c"));
    CU_ASSERT_EQUAL(ctg_network_set_property(net, "GEN", "", "x", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "GENERATOR \"GEN\": a property key cannot be empty");
    /* Calculated buses. */
    OK(add_vl(net, "NB", NULL, 1.0, CTG_TOPOLOGY_NODE_BREAKER, err));
    OK(ctg_network_add_calculated_bus(net, "NB", "NB_0", err));
    CU_ASSERT_EQUAL(ctg_network_add_calculated_bus(net, "NB", "NB_0", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "VOLTAGE_LEVEL \"NB\": the calculated bus \"NB_0\" is "
                                      "there already");
    CU_ASSERT_EQUAL(ctg_network_add_alias(net, "GEN", "G\xed\xa0\x80", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "an alias that is not valid UTF-8"); /* a lone surrogate */
    CU_ASSERT_EQUAL(ctg_network_add_calculated_bus(net, "NB", "NB_\xe2\x82", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "a calculated bus id that is not valid UTF-8");
    CU_ASSERT_EQUAL(ctg_network_add_calculated_bus(net, "VLGEN", "X", &e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(e.message, "VOLTAGE_LEVEL \"VLGEN\": only a node-breaker voltage "
                                      "level has calculated buses");
    CU_ASSERT_EQUAL(ctg_network_find(net, "NB", 2)->container->calculated_bus_count, 1);
    ctg_network_free(net);
}

/* Substations S0..S<n-1>, each with voltage levels V<i>a and V<i>b, and a generator in V<i>a;
 * NULL when a step fails (then *err says why). */
static ctg_network *containers(size_t n, const ctg_allocator *alloc, ctg_error *err)
{
    ctg_network *net = NULL;
    int rc = ctg_network_new(&net, "c", alloc, err);

    for (size_t i = 0; i < n && rc == CTG_OK; i++) {
        char sub[32], vla[32], vlb[32], gen[32];
        snprintf(sub, sizeof sub, "S%zu", i);
        snprintf(vla, sizeof vla, "V%zua", i);
        snprintf(vlb, sizeof vlb, "V%zub", i);
        snprintf(gen, sizeof gen, "G%zu", i);
        ctg_net_spec s = CTG_NET_SPEC_INIT;
        s.type = CTG_IDENTIFIABLE_SUBSTATION;
        s.id = sub;
        rc = ctg_network_add(net, &s, NULL, err);
        if (rc == CTG_OK)
            rc = add_vl(net, vla, sub, 400.0, CTG_TOPOLOGY_BUS_BREAKER, err);
        if (rc == CTG_OK)
            rc = add_vl(net, vlb, sub, 225.0, CTG_TOPOLOGY_BUS_BREAKER, err);
        s = ctg_test_spec(CTG_IDENTIFIABLE_GENERATOR, gen, vla, NULL, NULL);
        if (rc == CTG_OK)
            rc = ctg_network_add(net, &s, NULL, err);
    }
    if (rc != CTG_OK) {
        ctg_network_free(net);
        return NULL;
    }
    return net;
}

#define LONG_KEY "a key longer than the pool's limit of thirty-two bytes"
#define LONG_VALUE "a value longer than the pool's limit of thirty-two bytes"

/* Step `k` of setting properties after the build, in no order the scan data would like: keys
 * in rounds over the objects from the last to the first (each append moves a run to the end
 * of its array, and the outgrown copies are compacted), a long key, long values, values
 * replaced, keys on generators too. */
static int property_step(ctg_network *net, size_t n, size_t k, ctg_error *err)
{
    static const char *const keys[] = { "zone", LONG_KEY, "k2", "zone", "k3" };
    size_t round = k / (3 * n), i = n - 1 - (k / 3) % n, which = k % 3;
    char id[32], value[80];

    if (round >= COUNT_OF(keys))
        return CTG_OK;
    snprintf(id, sizeof id, which == 0 ? "S%zu" : which == 1 ? "V%zua" : "G%zu", i);
    if (which == 2 && i % 2)
        snprintf(id, sizeof id, "V%zub", i);
    snprintf(value, sizeof value, "%s%zu", i % 4 == 0 ? LONG_VALUE : "v", (i + round) % 5);
    return ctg_network_set_property(net, id, keys[round], value, err);
}

CTG_TEST(network, container_properties_kept_for_the_scans)
{
    ctg_error e = { 0 };
    ctg_network *net = containers(30, NULL, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    const ctg_net_prop_run *runs;

    /* Nothing is kept for a type none of whose objects has a property. */
    CU_ASSERT_PTR_NULL(ctg_net_scan_properties(net, CTG_IDENTIFIABLE_SUBSTATION, &runs));
    CU_ASSERT_PTR_NULL(runs);
    for (size_t k = 0; k < 5 * 3 * 30; k++) {
        OK(property_step(net, 30, k, err));
        if (k % 41 == 0)
            CU_ASSERT_TRUE(scan_matches(net));
    }
    CU_ASSERT_TRUE(scan_matches(net));
    /* Other types keep theirs in their attributes records only. */
    CU_ASSERT_PTR_NULL(ctg_net_scan_properties(net, CTG_IDENTIFIABLE_GENERATOR, &runs));
    CU_ASSERT_PTR_NULL(runs);
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(ctg_network_find(net, "G2", 2), "zone"), "v0");
    /* One copy of a key for all its objects, long or not; of a short value, not of a long one. */
    const ctg_net_object *s0 = ctg_network_find(net, "S0", 2), *s1 = ctg_network_find(net, "S1", 2);
    const ctg_net_object *s4 = ctg_network_find(net, "S4", 2),
                         *v3 = ctg_network_find(net, "V3a", 3);
    CU_ASSERT_EQUAL_FATAL(ctg_net_object_property_count(s1), 4);
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property_at(s1, 1)->key, LONG_KEY);
    CU_ASSERT_PTR_EQUAL(ctg_net_object_property_at(s1, 1)->key,
                        ctg_net_object_property_at(v3, 1)->key);
    CU_ASSERT_PTR_EQUAL(ctg_net_object_property_at(s1, 0)->key,
                        ctg_net_object_property_at(v3, 0)->key);
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(s0, "zone"), LONG_VALUE "3"); /* replaced */
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(s4, "zone"), LONG_VALUE "2");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(s0, "k2"), LONG_VALUE "2");
    CU_ASSERT_PTR_NOT_EQUAL(ctg_net_object_property(s0, "k2"), ctg_net_object_property(s4, "zone"));
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(s1, "zone"), "v4");
    CU_ASSERT_PTR_EQUAL(ctg_net_object_property(s1, "zone"), ctg_net_object_property(v3, LONG_KEY));
    CU_ASSERT_PTR_NULL(ctg_net_scan_interned(net, LONG_VALUE "0", strlen(LONG_VALUE "0")));
    CU_ASSERT_PTR_NULL(ctg_net_scan_interned(net, "nokey", 5));
    /* A key or value holding a NUL is kept up to it, as its C string reads. */
    ctg_net_object *v0 = ctg_network_find_mut(net, "V0b", 3);
    CU_ASSERT_EQUAL(ctg_network_set_property_obj(net, v0, "nul\0x", 5, "v1\0y", 4, &e), CTG_OK);
    CU_ASSERT_PTR_EQUAL(ctg_net_object_property(v0, "nul"), ctg_net_object_property(v3, "zone"));
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(v0, "nul"), "v1");
    CU_ASSERT_PTR_EQUAL(ctg_net_object_property_at(v0, 0)->key,
                        ctg_net_scan_interned(net, "nul", 3));
    /* Objects added after the properties have none, and the copies still match. */
    ctg_net_spec s = CTG_NET_SPEC_INIT;
    s.type = CTG_IDENTIFIABLE_SUBSTATION;
    s.id = "LATE";
    OK(ctg_network_add(net, &s, NULL, err));
    OK(add_vl(net, "LATEV", "LATE", 63.0, CTG_TOPOLOGY_BUS_BREAKER, err));
    OK(ctg_network_set_property(net, "LATEV", "zone", "v0", err));
    CU_ASSERT_TRUE(scan_matches(net));
    const ctg_net_property *items =
        ctg_net_scan_properties(net, CTG_IDENTIFIABLE_SUBSTATION, &runs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(items);
    CU_ASSERT_EQUAL(runs[30].count, 0);
    CU_ASSERT_EQUAL(runs[0].count, 4);
    CU_ASSERT_PTR_EQUAL(items[runs[0].first].value, ctg_net_object_property(s0, "zone"));
    ctg_network_free(net);
}

/* The properties of every object, for a before/after comparison. */
static void property_snapshot(const ctg_network *net, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < ctg_network_object_count(net) && len < size; i++) {
        const ctg_net_object *o = ctg_network_object_by_doc(net, i);
        for (size_t j = 0; j < ctg_net_object_property_count(o) && len < size; j++)
            len += (size_t)snprintf(out + len, size - len, "%s.%s=%s;", o->id,
                                    ctg_net_object_property_at(o, j)->key,
                                    ctg_net_object_property_at(o, j)->value);
    }
}

/* Fails the n-th allocation of a build then property_step's properties: CTG_ENOMEM from the
 * call that met it, the properties and their scan copies as they were; nothing leaked.
 * Returns whether nothing failed. */
static bool property_sweep_once(size_t n, size_t *in_properties)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_error err = { 0 };
    static char before[65536], after[65536];
    int rc = CTG_OK;

    st.fail_at = n;
    ctg_network *net = containers(6, &a, &err);
    if (net == NULL) {
        CU_ASSERT_EQUAL(err.code, CTG_ENOMEM);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        return false;
    }
    for (size_t k = 0; k < 5 * 3 * 6 && rc == CTG_OK; k++) {
        property_snapshot(net, before, sizeof before);
        rc = property_step(net, 6, k, &err);
        if (rc != CTG_OK) {
            (*in_properties)++;
            CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
            property_snapshot(net, after, sizeof after);
            CU_ASSERT_STRING_EQUAL(before, after);
        }
        CU_ASSERT_TRUE(scan_matches(net));
    }
    ctg_network_free(net);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    return rc == CTG_OK && !st.failed;
}

CTG_TEST(network, property_allocation_failures)
{
    size_t n = 1, in_properties = 0;
    while (!property_sweep_once(n, &in_properties) && n < 100000)
        n++;
    CU_ASSERT(n < 100000);
    /* The pool, the runs and the items grow several times over the 90 properties. */
    CU_ASSERT(in_properties >= 8);
}

/* A network "root" with one subnetwork, "sub" (asserted). */
static ctg_network *root_with_sub(void)
{
    ctg_network *net = NULL;
    ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_NETWORK, "sub", NULL, NULL, NULL);

    CU_ASSERT_EQUAL_FATAL(ctg_network_new(&net, "root", NULL, NULL), CTG_OK);
    OK(ctg_network_add(net, &s, NULL, err));
    return net;
}

/* A small network with every placement field: its dump, byte for byte. */
CTG_TEST(network, dump_is_exact)
{
    ctg_network *net = root_with_sub();
    ctg_net_spec s;
    s = ctg_test_spec(CTG_IDENTIFIABLE_SUBSTATION, "S", NULL, NULL, NULL);
    s.subnetwork = "sub";
    OK(ctg_network_add(net, &s, NULL, err));
    OK(add_vl(net, "VL", "S", 225.0, CTG_TOPOLOGY_NODE_BREAKER, err));
    OK(ctg_network_add_calculated_bus(net, "VL", "VL_0", err));
    s = ctg_test_spec(CTG_IDENTIFIABLE_BOUNDARY_LINE, "DL", "VL", NULL, NULL);
    s.order[0] = 2;
    OK(ctg_network_add(net, &s, NULL, err));
    s = ctg_test_spec(CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, "C", "VL", NULL, NULL);
    s.converter_kind = CTG_CONVERTER_LCC;
    s.order[0] = 1;
    s.name = "conv"; /* accepted, not kept: the dump has no name */
    OK(ctg_network_add(net, &s, NULL, err));
    OK(ctg_network_add_alias(net, "C", "c2", err));
    OK(ctg_network_add_alias(net, "C", "c1", err));
    OK(ctg_network_set_property(net, "C", "z", "1", err));
    OK(ctg_network_set_property(net, "C", "a", "\"q\"", err));
    OK(ctg_network_set_iidm_version(net, "1.17"));
    char *text = dump_text(net);
    const char *want =
        "{\n  \"iidmVersion\" : \"1.17\",\n  \"ok\" : true,\n  \"network\" : {\n"
        "    \"id\" : \"root\"\n  },\n  \"counts\" : {\n    \"NETWORK\" : 2,\n"
        "    \"SUBSTATION\" : 1,\n    \"VOLTAGE_LEVEL\" : 1,\n    \"BOUNDARY_LINE\" : 1,\n"
        "    \"HVDC_CONVERTER_STATION\" : 1\n  },\n  \"objects\" : {\n"
        "    \"NETWORK\" : [ {\n      \"id\" : \"root\",\n      \"type\" : \"NETWORK\",\n"
        "      \"subnetworks\" : [ \"sub\" ]\n    }, {\n      \"id\" : \"sub\",\n"
        "      \"type\" : \"NETWORK\"\n    } ],\n    \"SUBSTATION\" : [ {\n"
        "      \"id\" : \"S\",\n      \"type\" : \"SUBSTATION\",\n"
        "      \"subnetwork\" : \"sub\",\n      \"country\" : null,\n"
        "      \"voltageLevels\" : [ \"VL\" ]\n    } ],\n    \"VOLTAGE_LEVEL\" : [ {\n"
        "      \"id\" : \"VL\",\n      \"type\" : \"VOLTAGE_LEVEL\",\n"
        "      \"nominalV\" : 225.0,\n      \"substation\" : \"S\",\n"
        "      \"topologyKind\" : \"NODE_BREAKER\",\n      \"connectables\" : [ \"C\", \"DL\" ],\n"
        "      \"connectableTypes\" : [ \"HVDC_CONVERTER_STATION\", \"BOUNDARY_LINE\" ],\n"
        "      \"calculatedBusBreakerBuses\" : [ \"VL_0\" ]\n    } ],\n"
        "    \"BOUNDARY_LINE\" : [ {\n      \"id\" : \"DL\",\n"
        "      \"type\" : \"BOUNDARY_LINE\",\n      \"voltageLevel\" : \"VL\",\n"
        "      \"paired\" : false,\n      \"tieLine\" : null\n    } ],\n"
        "    \"HVDC_CONVERTER_STATION\" : [ {\n      \"id\" : \"C\",\n"
        "      \"type\" : \"HVDC_CONVERTER_STATION\",\n"
        "      \"aliases\" : [ {\n        \"alias\" : \"c1\"\n      }, {\n"
        "        \"alias\" : \"c2\"\n      } ],\n      \"properties\" : {\n"
        "        \"a\" : \"\\\"q\\\"\",\n        \"z\" : \"1\"\n      },\n"
        "      \"voltageLevel\" : \"VL\",\n      \"converterKind\" : \"LCC\",\n"
        "      \"hvdcLine\" : null\n    } ]\n  },\n  \"identifiables\" : [ {\n"
        "    \"id\" : \"C\",\n    \"type\" : \"HVDC_CONVERTER_STATION\"\n  }, {\n"
        "    \"id\" : \"DL\",\n    \"type\" : \"BOUNDARY_LINE\"\n  }, {\n"
        "    \"id\" : \"S\",\n    \"type\" : \"SUBSTATION\"\n  }, {\n"
        "    \"id\" : \"VL\",\n    \"type\" : \"VOLTAGE_LEVEL\"\n  }, {\n"
        "    \"id\" : \"root\",\n    \"type\" : \"NETWORK\"\n  }, {\n"
        "    \"id\" : \"sub\",\n    \"type\" : \"NETWORK\"\n  } ],\n  \"aliasToId\" : {\n"
        "    \"c1\" : \"C\",\n    \"c2\" : \"C\"\n  },\n  \"subnetworks\" : [ {\n"
        "    \"id\" : \"sub\",\n    \"objects\" : {\n      \"SUBSTATION\" : [ \"S\" ]\n"
        "    }\n  } ]\n}";
    CU_ASSERT_STRING_EQUAL(text, want);
    if (strcmp(text, want) != 0)
        fprintf(stderr, "%s\n", text);
    free(text);
    ctg_network_free(net);
}

CTG_TEST(network, bad_arguments)
{
    ctg_network *net = (ctg_network *)&net;
    ctg_error err = { 0 };
    ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L", "VL", NULL, NULL);

    CU_ASSERT_EQUAL(ctg_network_new(NULL, "n", NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_new(&net, "", NULL, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_STRING_EQUAL(err.message, "a network needs a non-empty id");
    CU_ASSERT_EQUAL(ctg_network_new(&net, "n\xff", NULL, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_STRING_EQUAL(err.message, "the network's id is not valid UTF-8");
    CU_ASSERT_EQUAL(ctg_network_new(&net, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_add(NULL, &s, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_add_alias(NULL, "a", "b", &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_set_property(NULL, "a", "k", "v", &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_add_calculated_bus(NULL, "a", "b", &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_write_json(NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(ctg_network_root(NULL));
    CU_ASSERT_EQUAL(ctg_network_count(NULL, CTG_IDENTIFIABLE_LOAD), 0);
    CU_ASSERT_PTR_NULL(ctg_network_object_at(NULL, CTG_IDENTIFIABLE_LOAD, 0));
    CU_ASSERT_EQUAL(ctg_network_object_count(NULL), 0);
    CU_ASSERT_PTR_NULL(ctg_network_object_by_doc(NULL, 0));
    CU_ASSERT_PTR_NULL(ctg_network_find(NULL, "a", 1));
    CU_ASSERT_PTR_NULL(ctg_net_object_property(NULL, "a"));
    CU_ASSERT_PTR_NULL(ctg_network_iidm_version(NULL));
    CU_ASSERT_EQUAL(ctg_network_memory_size(NULL), 0);

    net = eurostag(NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    CU_ASSERT_EQUAL(ctg_network_add(net, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_count(net, (ctg_identifiable_type)-1), 0);
    CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_TYPE_COUNT), 0);
    CU_ASSERT_PTR_NULL(ctg_network_object_at(net, CTG_IDENTIFIABLE_TYPE_COUNT, 0));
    CU_ASSERT_PTR_NULL(ctg_network_object_at(net, CTG_IDENTIFIABLE_LINE, 2));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, NULL, 0));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "", 0));
    /* A length: the id need not end there; a NUL inside is no id. */
    CU_ASSERT_PTR_EQUAL(ctg_network_find(net, "GENERATOR", 3), ctg_network_find(net, "GEN", 3));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "GEN\0X", 5));
    CU_ASSERT_PTR_NULL(ctg_network_find(net, "GE", 2));
    CU_ASSERT_EQUAL(ctg_network_set_property(net, "GEN", "k", NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_network_set_property(net, NULL, "k", "v", &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "no object with the id or alias \"(null)\"");
    CU_ASSERT_EQUAL(ctg_network_add_calculated_bus(net, "NOPE", "b", &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "no object with the id or alias \"NOPE\"");
    ctg_network_free(net);
}

CTG_TEST(network, subnetworks)
{
    ctg_network *net = root_with_sub();
    ctg_net_spec s;
    s = ctg_test_spec(CTG_IDENTIFIABLE_NETWORK, "sub2", NULL, NULL, NULL);
    s.subnetwork = "sub";
    expect_rejected(net, &s,
                    "NETWORK \"sub2\": a subnetwork cannot own subnetworks (\"sub\" is "
                    "one)");
    s.subnetwork = "root"; /* the root owns what has no subnetwork */
    const ctg_net_object *sub2 = NULL;
    OK(ctg_network_add(net, &s, &sub2, err));
    CU_ASSERT_PTR_NULL(ctg_net_object_subnetwork(sub2));
    s = ctg_test_spec(CTG_IDENTIFIABLE_SUBSTATION, "S", NULL, NULL, NULL);
    s.subnetwork = "sub2";
    const ctg_net_object *sub = NULL;
    OK(ctg_network_add(net, &s, &sub, err));
    CU_ASSERT_STRING_EQUAL(ctg_net_object_subnetwork(sub)->id, "sub2");
    CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_NETWORK), 3);
    CU_ASSERT_STRING_EQUAL(ctg_network_object_at(net, CTG_IDENTIFIABLE_NETWORK, 0)->id, "root");
    CU_ASSERT_STRING_EQUAL(ctg_network_object_at(net, CTG_IDENTIFIABLE_NETWORK, 2)->id, "sub2");
    ctg_network_free(net);
}

/* The importers' calls of network/table.h. */
/* ctg_network_reserve sizes the index and the document order to the hint, not to the next power
 * of two, and the adds it was made for then grow neither. */
CTG_TEST(network, reserve_sizes_to_the_hint)
{
    ctg_network *net = eurostag(NULL, NULL);
    ctg_error err = { 0 };
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);

    size_t before = ctg_network_memory_size(net);
    CU_ASSERT_EQUAL(ctg_network_reserve(net, 3000), CTG_OK);
    size_t reserved = ctg_network_memory_size(net);
    /* 3000 locators (4 bytes) and about 4/3 slots (8 bytes) a key; a power of two would be
     * 8192 slots, 64 KiB alone. */
    CU_ASSERT(reserved - before > 3000 * 4 + 4000 * 8 - 2048);
    CU_ASSERT(reserved - before < 3000 * 4 + 4100 * 8);
    char id[32];
    for (int i = 0; i < 2900; i++) {
        snprintf(id, sizeof id, "R%d", i);
        ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_BUS, id, "VLGEN", NULL, NULL);
        s.type = CTG_IDENTIFIABLE_SWITCH;
        CU_ASSERT_EQUAL(ctg_network_add(net, &s, NULL, &err), CTG_OK);
    }
    size_t added = ctg_network_memory_size(net) - reserved;
    CU_ASSERT(added < 2900 * (sizeof(ctg_net_object) + 16)); /* objects, ids, scan data only */
    CU_ASSERT_TRUE(scan_matches(net));
    CU_ASSERT_EQUAL(ctg_network_reserve(NULL, 1), CTG_EINVAL);
    ctg_network_free(net);
}

CTG_TEST(network, internal_fast_paths)
{
    ctg_network *net = eurostag(NULL, NULL);
    ctg_error err = { 0 };
    ctg_net_object *load = NULL;
    ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "VLLOAD", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);

    CU_ASSERT_EQUAL(ctg_network_add_obj(net, &s, &load, &err), CTG_OK);
    CU_ASSERT_PTR_EQUAL(ctg_network_find_mut(net, "L2xyz", 2), load);
    CU_ASSERT_PTR_NULL(ctg_network_find_mut(net, "L3", 2));
    CU_ASSERT_EQUAL(ctg_network_add_alias_obj(net, load, "aliasXYZ", 5, &err), CTG_OK);
    CU_ASSERT_PTR_EQUAL(ctg_network_find(net, "alias", 5), load);
    CU_ASSERT_EQUAL(ctg_network_add_alias_obj(net, load, "a\0b", 3, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "LOAD \"L2\": an alias cannot hold a NUL");
    CU_ASSERT_EQUAL(ctg_network_set_property_obj(net, load, "keyX", 3, "valueX", 5, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(load, "key"), "value");
    ctg_net_object *vl = NULL;
    s = ctg_test_spec(CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "NB", NULL, NULL, NULL);
    s.topology = CTG_TOPOLOGY_NODE_BREAKER;
    CU_ASSERT_EQUAL(ctg_network_add_obj(net, &s, &vl, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_net_add_calculated_bus_obj(net, vl, "NB_0xx", 4, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(vl->container->calculated_buses[0], "NB_0");
    CU_ASSERT_EQUAL(ctg_network_set_iidm_version(net, "1.9"), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_network_iidm_version(net), "1.9");
    CU_ASSERT_EQUAL(ctg_network_set_iidm_version(net, NULL), CTG_EINVAL);
    size_t before = ctg_network_memory_size(net);
    CU_ASSERT(before > sizeof(ctg_net_object) * ctg_network_object_count(net));
    for (int i = 0; i < 2000; i++) {
        char id[16];
        snprintf(id, sizeof id, "X%d", i);
        s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, id, "VLLOAD", NULL, NULL);
        CU_ASSERT_EQUAL(ctg_network_add(net, &s, NULL, &err), CTG_OK);
    }
    CU_ASSERT(ctg_network_memory_size(net) > before + 2000 * sizeof(ctg_net_object));
    CU_ASSERT_EQUAL(ctg_network_find(net, "X1999", 5)->doc_index,
                    ctg_network_object_count(net) - 1);
    CU_ASSERT_EQUAL(ctg_network_find(net, "VLLOAD", 6)->container->member_count, 2003);
    ctg_network_free(net);
}

/* What ctg_network_add_known is told about `s`: every object it names, found by its id, and
 * the id's length and hash. */
static ctg_net_known known_of(ctg_network *net, const ctg_net_spec *s)
{
    ctg_net_known kn = { 0 };

    kn.id_len = strlen(s->id);
    kn.id_hash = ctg_net_index_hash(s->id, kn.id_len);
    for (unsigned i = 0; i < 3; i++)
        if (s->voltage_levels[i])
            kn.vl[i] =
                ctg_network_find_mut(net, s->voltage_levels[i], strlen(s->voltage_levels[i]));
    if (s->substation)
        kn.substation = ctg_network_find_mut(net, s->substation, strlen(s->substation));
    if (s->subnetwork)
        kn.subnetwork = ctg_network_find_mut(net, s->subnetwork, strlen(s->subnetwork));
    return kn;
}

/* add_known of `s` with `kn` expecting CTG_EINVAL with `message`, the network unchanged. */
static void expect_known_rejected(ctg_network *net, const ctg_net_spec *s, const ctg_net_known *kn,
                                  const char *message)
{
    char before[4096], after[4096];
    ctg_error err = { 0 };
    ctg_net_object *out = (ctg_net_object *)net;

    snapshot(net, before, sizeof before);
    CU_ASSERT_EQUAL(ctg_network_add_known(net, s, kn, &out, &err), CTG_EINVAL);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_STRING_EQUAL(err.message, message);
    snapshot(net, after, sizeof after);
    CU_ASSERT_STRING_EQUAL(before, after);
}

/* The importers' add, told the objects it names: the same table as the add by ids, and the
 * same refusals with the same messages (the known object is checked as the id's would be). */
CTG_TEST(network, add_known_is_add_by_id)
{
    ctg_network *by_id = eurostag(NULL, NULL), *known = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(by_id);
    OK(ctg_network_new(&known, "sim1", NULL, err));
    for (size_t i = 0; i < CTG_TEST_EUROSTAG_COUNT; i++) {
        ctg_net_spec s = ctg_test_eurostag_spec(i);
        ctg_net_known kn = known_of(known, &s);
        ctg_net_object *obj = NULL;
        OK(ctg_network_add_known(known, &s, &kn, &obj, err));
        CU_ASSERT_PTR_EQUAL(ctg_network_find_mut(known, s.id, kn.id_len), obj);
    }
    char *a = dump_text(by_id), *b = dump_text(known);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);

    ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L2", "P1", NULL, NULL);
    ctg_net_known kn = known_of(known, &s);
    CU_ASSERT_PTR_NOT_NULL(kn.vl[0]);
    expect_known_rejected(known, &s, &kn,
                          "LOAD \"L2\": \"P1\" is a SUBSTATION, not a VOLTAGE_LEVEL");
    expect_rejected(known, &s, "LOAD \"L2\": \"P1\" is a SUBSTATION, not a VOLTAGE_LEVEL");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "GEN", "VLGEN", NULL, NULL);
    kn = known_of(known, &s);
    expect_known_rejected(known, &s, &kn, "LOAD \"GEN\": the id is already used by a GENERATOR");
    /* A substation known as the wrong type; a subnetwork known as a voltage level. */
    s = ctg_test_vl_spec("VLNEW", "VLGEN", 20.0, CTG_TOPOLOGY_BUS_BREAKER);
    kn = known_of(known, &s);
    expect_known_rejected(
        known, &s, &kn, "VOLTAGE_LEVEL \"VLNEW\": \"VLGEN\" is a VOLTAGE_LEVEL, not a SUBSTATION");
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L3", "VLGEN", NULL, NULL);
    s.subnetwork = "VLLOAD";
    kn = known_of(known, &s);
    expect_known_rejected(known, &s, &kn,
                          "LOAD \"L3\": \"VLLOAD\" is a VOLTAGE_LEVEL, not a NETWORK");
    /* Nothing known: the add by ids. */
    s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, "L4", "VLX", NULL, NULL);
    expect_known_rejected(known, &s, NULL, "LOAD \"L4\": unknown voltage level \"VLX\"");
    ctg_network_free(by_id);
    ctg_network_free(known);
}

/* One step of the sweep's build: adds load `i` (every third with an alias and a property,
 * orders descending so that members move). */
static int sweep_step(ctg_network *net, unsigned i, ctg_error *err)
{
    char id[32] = "", alias[32];
    ctg_net_spec s = ctg_test_spec(CTG_IDENTIFIABLE_LOAD, id, "VLLOAD", NULL, NULL);

    snprintf(id, sizeof id, "LOAD_%u", i);
    snprintf(alias, sizeof alias, "alias_%u", i);
    s.order[0] = 1000 - i;
    /* Every other one by the importers' add, told the voltage level and the hash. */
    ctg_net_known kn = known_of(net, &s);
    int rc = i % 2 ? ctg_network_add_known(net, &s, &kn, NULL, err)
                   : ctg_network_add(net, &s, NULL, err);
    if (rc == CTG_OK && i % 3 == 0)
        rc = ctg_network_add_alias(net, id, alias, err);
    if (rc == CTG_OK && i % 3 == 0)
        rc = ctg_network_set_property(net, id, "key", "value", err);
    return rc;
}

/* Fails the n-th allocation of building and dumping a network: CTG_ENOMEM from the call that
 * met it, the network unchanged by that call, nothing leaked. Returns whether all succeeded. */
static bool sweep_once(size_t n, unsigned arena_flags)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_network *net = NULL;
    ctg_error err = { 0 };
    char before[8192], after[8192];
    int rc = CTG_OK;

    st.fail_at = n;
    net = eurostag_ex(&a, arena_flags, &err);
    if (net == NULL) {
        CU_ASSERT_EQUAL(err.code, CTG_ENOMEM);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
        return false;
    }
    /* A hint only: when it fails, the build goes on without it. */
    snapshot(net, before, sizeof before);
    if (ctg_network_reserve(net, 200) != CTG_OK) {
        CU_ASSERT_TRUE(st.failed);
        snapshot(net, after, sizeof after);
        CU_ASSERT_STRING_EQUAL(before, after);
    }
    for (unsigned i = 0; i < 300 && rc == CTG_OK; i++) {
        snapshot(net, before, sizeof before);
        rc = sweep_step(net, i, &err);
        if (i % 50 == 0)
            CU_ASSERT_TRUE(scan_matches(net));
        if (rc != CTG_OK && i % 3 != 0) {
            snapshot(net, after, sizeof after);
            CU_ASSERT_STRING_EQUAL(before, after);
        }
    }
    ctg_buf buf = CTG_BUF_INIT;
    buf.allocator = &a;
    if (rc == CTG_OK)
        rc = ctg_network_write_json(net, &buf, &err);
    CU_ASSERT(rc == CTG_OK || rc == CTG_ENOMEM);
    CU_ASSERT(rc == CTG_OK || st.failed);
    CU_ASSERT(rc != CTG_OK || buf.len > 10000);
    ctg_buf_dispose(&buf);
    ctg_network_free(net);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    return rc == CTG_OK && !st.failed;
}

/* The next allocation to fail after `n`: each of them, but under CTG_TEST_QUICK=1 (valgrind,
 * where each round costs a second) every seventh past the first hundred. */
static size_t sweep_next(size_t n)
{
    return n + (ctg_test_quick() && n >= 100 ? 7 : 1);
}

CTG_TEST(network, allocation_failure_sweep)
{
    size_t n = 1;
    while (!sweep_once(n, 0) && n < 100000)
        n = sweep_next(n);
    CU_ASSERT(n > 20); /* the build made that many allocations, each made to fail once */
    CU_ASSERT(n < 100000);
    /* Every arena request an allocation of its own: each string, container, member array
     * (objects come in chunks of 64). */
    size_t exact = 1;
    while (!sweep_once(exact, CTG_ARENA_EXACT) && exact < 100000)
        exact = sweep_next(exact);
    CU_ASSERT(exact > 500);
    CU_ASSERT(exact < 100000);
}

/* Rebuilds the table of one golden (if PowSyBl imported it) and compares; counts the files. */
static void rebuild_one(const char *path, size_t *files, size_t *failed)
{
    char why[1024] = "", diff[1024] = "";
    char *text = ctg_test_slurp(path, NULL);
    bool ok_golden = text && strstr(text, "\"ok\" : true") != NULL;

    free(text);
    if (!ok_golden)
        return;
    (*files)++;
    ctg_network *net = ctg_test_net_from_golden(path, why, sizeof why);
    if (net != NULL && !scan_matches(net))
        snprintf(diff, sizeof diff, "the scan data differ from the objects");
    if (net == NULL || diff[0] || !ctg_test_net_matches_golden(net, path, diff, sizeof diff)) {
        if ((*failed)++ < 10)
            fprintf(stderr, "%s: %s\n", path, net ? diff : why);
    }
    ctg_network_free(net);
}

static void rebuild_dir(const char *dir, size_t *files, size_t *failed)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    char path[4096];

    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (ent->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            rebuild_dir(path, files, failed);
        else if (n > 5 && strcmp(ent->d_name + n - 5, ".json") == 0)
            rebuild_one(path, files, failed);
    }
    closedir(d);
}

/* Every golden of an imported network, rebuilt with the builders from its own data, matches
 * itself: the builders can say everything the goldens hold, the dump writes it in their
 * schema, and the comparator finds no difference where there is none. */
CTG_SHARED_TEST(network, every_golden_rebuilt_matches_itself)
{
    char dir[4096];
    size_t files = 0, failed = 0;

    snprintf(dir, sizeof dir, "%s/iidm-golden", ctg_test_shared_dir());
    rebuild_dir(dir, &files, &failed);
    printf("\n%zu goldens rebuilt, %zu differ\n", files, failed);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT(files > 900);
}

#include "test_network.tests.h"
