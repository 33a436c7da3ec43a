/* SPDX-License-Identifier: MPL-2.0 */
/* The equipment table of libctg_network: builders and their errors, the id and alias index,
 * enumeration, members in order, properties, the JSON dump, allocation failures. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "ctg/network.h"
#include "network/table.h"
#include "tests/net_golden.h"
#include "tests/test_common.h"

/* Adds one object; `vl1`..`vl3` may be NULL. Returns the status. */
static int add(ctg_network *net, ctg_identifiable_type type, const char *id, const char *vl1,
               const char *vl2, const char *vl3, ctg_error *err)
{
    ctg_net_spec s = CTG_NET_SPEC_INIT;
    s.type = type;
    s.id = id;
    s.voltage_levels[0] = vl1;
    s.voltage_levels[1] = vl2;
    s.voltage_levels[2] = vl3;
    return ctg_network_add(net, &s, NULL, err);
}

static int add_substation(ctg_network *net, const char *id, const char *country, ctg_error *err)
{
    ctg_net_spec s = CTG_NET_SPEC_INIT;
    s.type = CTG_IDENTIFIABLE_SUBSTATION;
    s.id = id;
    s.country = country;
    return ctg_network_add(net, &s, NULL, err);
}

static int add_vl(ctg_network *net, const char *id, const char *substation, double nominal_v,
                  ctg_topology_kind topology, ctg_error *err)
{
    ctg_net_spec s = CTG_NET_SPEC_INIT;
    s.type = CTG_IDENTIFIABLE_VOLTAGE_LEVEL;
    s.id = id;
    s.substation = substation;
    s.nominal_v = nominal_v;
    s.topology = topology;
    return ctg_network_add(net, &s, NULL, err);
}

static int add_2wt(ctg_network *net, const char *id, const char *vl1, const char *vl2,
                   const char *substation, ctg_error *err)
{
    ctg_net_spec s = CTG_NET_SPEC_INIT;
    s.type = CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER;
    s.id = id;
    s.voltage_levels[0] = vl1;
    s.voltage_levels[1] = vl2;
    s.substation = substation;
    return ctg_network_add(net, &s, NULL, err);
}

/* Asserts a call succeeded, printing the error when not. */
#define OK(call)                                                                                \
    do {                                                                                        \
        ctg_error err_ = { 0 };                                                                 \
        ctg_error *err = &err_;                                                                 \
        int rc_ = (call);                                                                       \
        if (rc_ != CTG_OK)                                                                      \
            ctg_test_report(#call, err);                                                        \
        CU_ASSERT_EQUAL_FATAL(rc_, CTG_OK);                                                     \
    } while (0)

/* The network of PowSyBl's eurostag tutorial, example 1 (V1_0/eurostag-tutorial-example1.xml),
 * in the order its file declares it; NULL when a step fails (asserted). */
static ctg_network *eurostag(const ctg_allocator *alloc, ctg_error *e)
{
    ctg_network *net = NULL;
    int rc = ctg_network_new(&net, "sim1", alloc, e);
#define STEP(call)                                                                              \
    do {                                                                                        \
        if (rc == CTG_OK)                                                                       \
            rc = (call);                                                                        \
    } while (0)
    STEP(add_substation(net, "P1", "FR", e));
    STEP(add_vl(net, "VLGEN", "P1", 24.0, CTG_TOPOLOGY_BUS_BREAKER, e));
    STEP(add(net, CTG_IDENTIFIABLE_BUS, "NGEN", "VLGEN", NULL, NULL, e));
    STEP(add(net, CTG_IDENTIFIABLE_GENERATOR, "GEN", "VLGEN", NULL, NULL, e));
    STEP(add_vl(net, "VLHV1", "P1", 380.0, CTG_TOPOLOGY_BUS_BREAKER, e));
    STEP(add(net, CTG_IDENTIFIABLE_BUS, "NHV1", "VLHV1", NULL, NULL, e));
    STEP(add_2wt(net, "NGEN_NHV1", "VLGEN", "VLHV1", "P1", e));
    STEP(add_substation(net, "P2", "FR", e));
    STEP(add_vl(net, "VLHV2", "P2", 380.0, CTG_TOPOLOGY_BUS_BREAKER, e));
    STEP(add(net, CTG_IDENTIFIABLE_BUS, "NHV2", "VLHV2", NULL, NULL, e));
    STEP(add_vl(net, "VLLOAD", "P2", 150.0, CTG_TOPOLOGY_BUS_BREAKER, e));
    STEP(add(net, CTG_IDENTIFIABLE_BUS, "NLOAD", "VLLOAD", NULL, NULL, e));
    STEP(add(net, CTG_IDENTIFIABLE_LOAD, "LOAD", "VLLOAD", NULL, NULL, e));
    STEP(add_2wt(net, "NHV2_NLOAD", "VLHV2", "VLLOAD", "P2", e));
    STEP(add(net, CTG_IDENTIFIABLE_LINE, "NHV1_NHV2_1", "VLHV1", "VLHV2", NULL, e));
    STEP(add(net, CTG_IDENTIFIABLE_LINE, "NHV1_NHV2_2", "VLHV1", "VLHV2", NULL, e));
#undef STEP
    if (rc != CTG_OK) {
        ctg_network_free(net);
        return NULL;
    }
    return net;
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

CTG_TEST(network, eurostag_dump)
{
    ctg_network *net = eurostag(NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    char *text = dump_text(net);
    printf("%s\n", text);
    free(text);
    ctg_network_free(net);
}

#include "test_network.tests.h"
