/* SPDX-License-Identifier: MPL-2.0 */
/* The XIIDM importer: the corpus against PowSyBl's own tables, one invalid network per error,
 * the XML defences, sources (memory, path, gzip, refills), names, locales and memory. */

#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <CUnit/CUnit.h>

#include "ctg/iidm.h"
#include "ctg/network.h"
#include "iidm/xiidm.h"
#include "tests/net_golden.h"
#include "tests/test_common.h"

/* ---- helpers ---- */

static ctg_iidm_read_options options(void)
{
    ctg_iidm_read_options o;

    memset(&o, 0, sizeof o);
    o.version = CTG_IIDM_READ_OPTIONS_VERSION;
    return o;
}

static const char *id_at(const ctg_network *net, ctg_identifiable_type t, size_t i)
{
    const ctg_net_object *o = ctg_network_object_at(net, t, i);
    return o ? o->id : "(none)";
}

#define HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
#define CASE "caseDate=\"2024-01-01T00:00:00.000Z\" forecastDistance=\"0\" sourceFormat=\"test\""

/* A small node-breaker network with a namespace prefix other than `iidm`, a subnetwork, an
 * extension, properties and aliases. */
static const char nb_doc[] =
    HEAD "<n:network xmlns:n=\"http://www.powsybl.org/schema/iidm/1_17\" "
         "xmlns:e=\"http://example.org/ext/1_0\" id=\"nb\" " CASE ">\n"
         "  <n:network id=\"sub\" " CASE ">\n"
         "    <n:substation id=\"S\" country=\"BE\">\n"
         "      <n:property name=\"zone\" value=\"south\"/>\n"
         "      <n:voltageLevel id=\"V\" nominalV=\"63.5\" topologyKind=\"NODE_BREAKER\">\n"
         "        <n:nodeBreakerTopology>\n"
         "          <n:busbarSection id=\"BBS\" node=\"0\"/>\n"
         "          <n:switch id=\"D\" kind=\"DISCONNECTOR\" retained=\"false\" open=\"false\" "
         "node1=\"0\" node2=\"1\"/>\n"
         "          <n:switch id=\"BR\" kind=\"BREAKER\" retained=\"true\" open=\"false\" "
         "node1=\"1\" node2=\"2\"/>\n"
         "          <n:internalConnection node1=\"2\" node2=\"3\"/>\n"
         "        </n:nodeBreakerTopology>\n"
         "        <n:load id=\"LD\" loadType=\"UNDEFINED\" p0=\"1\" q0=\"0\" node=\"7\">\n"
         "          <n:alias type=\"code\">LD-alias</n:alias>\n"
         "        </n:load>\n"
         "        <n:generator id=\"G\" energySource=\"OTHER\" node=\"3\">\n"
         "          <n:minMaxReactiveLimits minQ=\"0\" maxQ=\"1\"/>\n"
         "        </n:generator>\n"
         "      </n:voltageLevel>\n"
         "    </n:substation>\n"
         "  </n:network>\n"
         "  <n:extension id=\"LD\"><e:thing a=\"b\"><e:deeper/></e:thing></n:extension>\n"
         "</n:network>\n";

static void check_nb(const ctg_network *net)
{
    const ctg_net_object *v = ctg_network_find(net, "V", 1);
    const ctg_net_object *ld = ctg_network_find(net, "LD-alias", 8);

    CU_ASSERT_STRING_EQUAL(ctg_network_iidm_version(net), "1.17");
    CU_ASSERT_EQUAL(ctg_network_object_count(net), 9);
    CU_ASSERT_STRING_EQUAL(id_at(net, CTG_IDENTIFIABLE_NETWORK, 1), "sub");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->container->nominal_v, CTG_DOUBLE(63.5));
    CU_ASSERT_STRING_EQUAL(ctg_net_object_subnetwork(v)->id, "sub");
    /* Node order: the generator (node 3) before the load (node 7). */
    CU_ASSERT_EQUAL_FATAL(v->container->member_count, 3);
    CU_ASSERT_STRING_EQUAL(v->container->members[0]->id, "BBS");
    CU_ASSERT_STRING_EQUAL(v->container->members[1]->id, "G");
    CU_ASSERT_STRING_EQUAL(v->container->members[2]->id, "LD");
    /* Nodes 0-1 joined by the closed disconnector, 2-3 by the internal connection; the
     * retained breaker and node 7 stand alone. */
    CU_ASSERT_EQUAL_FATAL(v->container->calculated_bus_count, 3);
    CU_ASSERT_STRING_EQUAL(v->container->calculated_buses[0], "V_0");
    CU_ASSERT_STRING_EQUAL(v->container->calculated_buses[1], "V_2");
    CU_ASSERT_STRING_EQUAL(v->container->calculated_buses[2], "V_7");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ld);
    CU_ASSERT_STRING_EQUAL(ld->id, "LD");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(ctg_network_find(net, "S", 1), "zone"), "south");
    CU_ASSERT_STRING_EQUAL(ctg_network_find(net, "S", 1)->container->country, "BE");
}

CTG_TEST(xiidm, any_prefix_node_breaker_subnetwork)
{
    ctg_network *net = NULL;
    ctg_error err;
    ctg_iidm_read_options o = options();

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, nb_doc, &o, &err), CTG_OK);
    check_nb(net);
    ctg_network_free(net);
}

/* Node-breaker levels settle their topology when they end; the lines after them still count:
 * a terminal at a node its level never mentioned is a bus of its own (in node order, V2_3
 * before V2_4), one at a node of a group (V1_1, V1_2) adds nothing. */
static const char nb_late_doc[] =
    HEAD "<iidm:network xmlns:iidm=\"http://www.powsybl.org/schema/iidm/1_17\" id=\"late\" "
         CASE ">\n"
         "  <iidm:substation id=\"S1\">\n"
         "    <iidm:voltageLevel id=\"V1\" nominalV=\"225\" topologyKind=\"NODE_BREAKER\">\n"
         "      <iidm:nodeBreakerTopology>\n"
         "        <iidm:busbarSection id=\"BBS1\" node=\"0\"/>\n"
         "        <iidm:switch id=\"D1\" kind=\"DISCONNECTOR\" retained=\"false\" open=\"false\" "
         "node1=\"0\" node2=\"1\"/>\n"
         "        <iidm:switch id=\"B1\" kind=\"BREAKER\" retained=\"false\" open=\"true\" "
         "node1=\"1\" node2=\"2\"/>\n"
         "      </iidm:nodeBreakerTopology>\n"
         "    </iidm:voltageLevel>\n"
         "  </iidm:substation>\n"
         "  <iidm:substation id=\"S2\">\n"
         "    <iidm:voltageLevel id=\"V2\" nominalV=\"225\" topologyKind=\"NODE_BREAKER\">\n"
         "      <iidm:nodeBreakerTopology>\n"
         "        <iidm:switch id=\"D2\" kind=\"DISCONNECTOR\" retained=\"false\" open=\"false\" "
         "node1=\"4\" node2=\"5\"/>\n"
         "      </iidm:nodeBreakerTopology>\n"
         "    </iidm:voltageLevel>\n"
         "  </iidm:substation>\n"
         "  <iidm:line id=\"L1\" r=\"1\" x=\"1\" g1=\"0\" b1=\"0\" g2=\"0\" b2=\"0\" node1=\"2\" "
         "voltageLevelId1=\"V1\" node2=\"3\" voltageLevelId2=\"V2\"/>\n"
         "  <iidm:line id=\"L2\" r=\"1\" x=\"1\" g1=\"0\" b1=\"0\" g2=\"0\" b2=\"0\" node1=\"1\" "
         "voltageLevelId1=\"V1\" node2=\"9\" voltageLevelId2=\"V2\"/>\n"
         "</iidm:network>\n";

CTG_TEST(xiidm, node_breaker_later_terminals)
{
    ctg_network *net = NULL;
    ctg_error err;
    ctg_iidm_read_options o = options();

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, nb_late_doc, &o, &err), CTG_OK);
    const ctg_net_container *v1 = ctg_network_find(net, "V1", 2)->container;
    const ctg_net_container *v2 = ctg_network_find(net, "V2", 2)->container;
    CU_ASSERT_EQUAL_FATAL(v1->calculated_bus_count, 2);
    CU_ASSERT_STRING_EQUAL(v1->calculated_buses[0], "V1_0");
    CU_ASSERT_STRING_EQUAL(v1->calculated_buses[1], "V1_2");
    CU_ASSERT_EQUAL_FATAL(v2->calculated_bus_count, 3);
    CU_ASSERT_STRING_EQUAL(v2->calculated_buses[0], "V2_3");
    CU_ASSERT_STRING_EQUAL(v2->calculated_buses[1], "V2_4");
    CU_ASSERT_STRING_EQUAL(v2->calculated_buses[2], "V2_9");
    ctg_network_free(net);
}

/* The same bytes through a callback in refills of 3 bytes: every boundary is crossed. */
typedef struct drip {
    const char *data;
    size_t len, pos;
} drip;

static int drip_read(void *payload, void *buf, size_t cap, size_t *got)
{
    drip *d = payload;
    size_t n = d->len - d->pos < cap ? d->len - d->pos : cap;

    n = n > 3 ? 3 : n;
    memcpy(buf, d->data + d->pos, n);
    d->pos += n;
    *got = n;
    return 0;
}

CTG_TEST(xiidm, refilled_source_reads_the_same)
{
    drip d = { nb_doc, sizeof nb_doc - 1, 0 };
    ctg_source src = ctg_source_callback(drip_read, &d, 0);
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_iidm_read(&net, &src, NULL, &err), CTG_OK);
    check_nb(net);
    ctg_network_free(net);
}

/* gzip data is found by its magic, whatever the name; so are XML files of any extension. */
CTG_TEST(xiidm, gzip_and_any_file_name)
{
    static const char *const names[] = { "net.xiidm", "net.xml", "net.iidm", "net.json",
                                         "net.xiidm.gz" };
    char dir[256], path[512];

    ctg_test_scratch_make(dir, sizeof dir, "xiidm-names");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ctg_network *net = NULL;
        ctg_error err;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (strstr(names[i], ".gz")) {
            gzFile gz = gzopen(path, "wb");
            CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
            CU_ASSERT_EQUAL(gzwrite(gz, nb_doc, sizeof nb_doc - 1), (int)(sizeof nb_doc - 1));
            gzclose(gz);
        } else {
            ctg_test_put_file(path, nb_doc);
        }
        CU_ASSERT_EQUAL(ctg_test_read_net_path(&net, path, NULL, &err), CTG_OK);
        if (net)
            check_nb(net);
        ctg_network_free(net);
    }
    ctg_test_scratch_remove(dir);
}

/* A UTF-8 BOM and whitespace before the declaration-less document. */
CTG_TEST(xiidm, bom_then_xml)
{
    static const char doc[] = "\xEF\xBB\xBF<iidm:network xmlns:iidm=\"http://www.itesla_project"
                              ".eu/schema/iidm/1_0\" id=\"x\" " CASE "/>";
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_network_iidm_version(net), "1.0");
    CU_ASSERT_STRING_EQUAL(ctg_network_root(net)->id, "x");
    ctg_network_free(net);
}

/* Nominal voltages are read by ctg's own number parser: the same under a decimal comma. */
CTG_TEST(xiidm, nominal_voltage_under_de_locale)
{
    char *old = strdup(setlocale(LC_NUMERIC, NULL));
    ctg_network *net = NULL;
    ctg_error err;

    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
        printf("\n  note: de_DE.UTF-8 is not installed; read under the current locale only\n");
    }
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, nb_doc, NULL, &err), CTG_OK);
    if (net)
        CU_ASSERT_EQUAL(ctg_network_find(net, "V", 1)->container->nominal_v, CTG_DOUBLE(63.5));
    ctg_network_free(net);
    setlocale(LC_NUMERIC, old);
    free(old);
}

/* Up to 1.9, a tie line holds its halves: they become boundary lines after the others. */
CTG_TEST(xiidm, inline_tie_line_halves)
{
    static const char doc[] = HEAD
        "<iidm:network xmlns:iidm=\"http://www.powsybl.org/schema/iidm/1_9\" id=\"t\" " CASE ">\n"
        "  <iidm:substation id=\"S\">\n"
        "    <iidm:voltageLevel id=\"A\" nominalV=\"400\" topologyKind=\"BUS_BREAKER\">\n"
        "      <iidm:busBreakerTopology><iidm:bus id=\"BA\"/><iidm:bus id=\"BA2\"/>"
        "</iidm:busBreakerTopology>\n"
        "      <iidm:danglingLine id=\"DL\" bus=\"BA2\" connectableBus=\"BA2\"/>\n"
        "      <iidm:load id=\"LA\" connectableBus=\"BA\"/>\n"
        "    </iidm:voltageLevel>\n"
        "    <iidm:voltageLevel id=\"B\" nominalV=\"400\" topologyKind=\"BUS_BREAKER\">\n"
        "      <iidm:busBreakerTopology><iidm:bus id=\"BB\"/></iidm:busBreakerTopology>\n"
        "    </iidm:voltageLevel>\n"
        "  </iidm:substation>\n"
        "  <iidm:tieLine id=\"TL\" voltageLevelId1=\"A\" bus1=\"BA\" voltageLevelId2=\"B\" "
        "bus2=\"BB\" id_1=\"TL.1\" name_1=\"half one\" id_2=\"TL.2\" ucteXnodeCode=\"X\">\n"
        "    <iidm:alias>TL-alias</iidm:alias>\n"
        "  </iidm:tieLine>\n"
        "</iidm:network>\n";
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_BOUNDARY_LINE), 3);
    CU_ASSERT_STRING_EQUAL(id_at(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, 0), "DL");
    CU_ASSERT_STRING_EQUAL(id_at(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, 1), "TL.1");
    CU_ASSERT_STRING_EQUAL(id_at(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, 2), "TL.2");
    CU_ASSERT_STRING_EQUAL(ctg_network_find(net, "TL-alias", 8)->id, "TL");
    /* Bus order in A: the load on BA first, then DL and TL.1 on BA2 and BA. */
    const ctg_net_container *a = ctg_network_find(net, "A", 1)->container;
    CU_ASSERT_EQUAL_FATAL(a->member_count, 3);
    CU_ASSERT_STRING_EQUAL(a->members[0]->id, "LA");
    CU_ASSERT_STRING_EQUAL(a->members[1]->id, "TL.1");
    CU_ASSERT_STRING_EQUAL(a->members[2]->id, "DL");
    ctg_network_free(net);
}

/* A branch's terminal is placed by what its level's topology needs: a node in a bus-breaker
 * level, a bus of another level or a bus in a node-breaker level is refused. */
CTG_TEST(xiidm, branch_terminals_match_their_levels)
{
    static const char fmt[] =
        HEAD "<iidm:network xmlns:iidm=\"http://www.powsybl.org/schema/iidm/1_12\" id=\"b\" "
        CASE ">\n"
        "  <iidm:substation id=\"S\">\n"
        "    <iidm:voltageLevel id=\"A\" nominalV=\"400\" topologyKind=\"BUS_BREAKER\">\n"
        "      <iidm:busBreakerTopology><iidm:bus id=\"BA\"/></iidm:busBreakerTopology>\n"
        "    </iidm:voltageLevel>\n"
        "    <iidm:voltageLevel id=\"N\" nominalV=\"400\" topologyKind=\"NODE_BREAKER\">\n"
        "      <iidm:nodeBreakerTopology/>\n"
        "    </iidm:voltageLevel>\n"
        "  </iidm:substation>\n"
        "  <iidm:line id=\"L\" voltageLevelId1=\"A\" %s voltageLevelId2=\"N\" %s/>\n"
        "</iidm:network>\n";
    static const struct {
        const char *side1, *side2, *message;
    } cases[] = {
        { "bus1=\"BA\"", "node2=\"4\"", NULL },
        { "node1=\"3\"", "node2=\"4\"", "missing attribute 'connectableBus1'" },
        { "bus1=\"BX\"", "node2=\"4\"", "unknown bus 'BX' in voltage level 'A'" },
        { "bus1=\"BA\"", "bus2=\"BA\"", "missing attribute 'node2'" },
    };
    char doc[2048];

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ctg_network *net = NULL;
        ctg_error err;
        snprintf(doc, sizeof doc, fmt, cases[i].side1, cases[i].side2);
        int rc = ctg_test_read_net(&net, doc, NULL, &err);
        CU_ASSERT_EQUAL(rc, cases[i].message ? CTG_ESCHEMA : CTG_OK);
        if (cases[i].message && rc != CTG_OK) {
            CU_ASSERT_STRING_EQUAL(err.message, cases[i].message);
            CU_ASSERT_STRING_EQUAL(err.path, "/network/line[1]");
            CU_ASSERT_EQUAL(err.line, 11);
        }
        if (!cases[i].message && net)
            CU_ASSERT_STRING_EQUAL(ctg_network_find(net, "N", 1)->container->calculated_buses[0],
                                   "N_4");
        ctg_network_free(net);
    }
}

/* Before 1.8 a switch with the same bus at both ends is dropped, as PowSyBl does. */
CTG_TEST(xiidm, same_ends_switch_dropped_before_1_8)
{
    static const char fmt[] = HEAD
        "<iidm:network xmlns:iidm=\"http://www.powsybl.org/schema/iidm/1_%d\" id=\"s\" " CASE ">\n"
        "  <iidm:substation id=\"S\">\n"
        "    <iidm:voltageLevel id=\"A\" nominalV=\"400\" topologyKind=\"BUS_BREAKER\">\n"
        "      <iidm:busBreakerTopology><iidm:bus id=\"B\"/>\n"
        "        <iidm:switch id=\"SW\" kind=\"BREAKER\" open=\"false\" bus1=\"B\" bus2=\"B\">"
        "<iidm:property name=\"k\" value=\"v\"/></iidm:switch>\n"
        "      </iidm:busBreakerTopology>\n"
        "    </iidm:voltageLevel>\n"
        "  </iidm:substation>\n"
        "</iidm:network>\n";
    char doc[1024];

    for (int minor = 7; minor <= 8; minor++) {
        ctg_network *net = NULL;
        ctg_error err;
        snprintf(doc, sizeof doc, fmt, minor);
        CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_OK);
        CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_SWITCH), minor == 7 ? 0u : 1u);
        ctg_network_free(net);
    }
}

/* Every element and attribute name the importer knows is found by its look-up (the tables
 * of candidates and lengths are written by hand), and a near miss is not. */
CTG_TEST(xiidm, every_known_name_is_found)
{
    for (int k = 0; k < XK_OTHER; k++) {
        const char *n = ctg_xiidm_kind_name((xkind)k);
        CU_ASSERT_EQUAL(ctg_xiidm_kind(n, strlen(n)), (xkind)k);
        CU_ASSERT_EQUAL(ctg_xiidm_kind(n, strlen(n) - 1), XK_OTHER);
    }
    for (int a = 0; a < XA_COUNT; a++) {
        char near[64];
        const char *n = ctg_xiidm_attr_name((xattr)a);
        CU_ASSERT_EQUAL(ctg_xiidm_attr(n), (xattr)a);
        snprintf(near, sizeof near, "%sx", n);
        CU_ASSERT_EQUAL(ctg_xiidm_attr(near), XA_COUNT);
    }
    CU_ASSERT_EQUAL(ctg_xiidm_kind("Network", 7), XK_OTHER);
    CU_ASSERT_EQUAL(ctg_xiidm_attr("ID"), XA_COUNT);
}

/* ---- invalid networks: one per error ---- */

typedef struct invalid_case {
    const char *file; /* under testdata/iidm/invalid/ */
    int code;
    unsigned line, column;
    const char *path;
    const char *message;
} invalid_case;

static const invalid_case invalid_cases[] = {
    { "malformed.xml", CTG_ESYNTAX, 5, 7, "/network/substation[1]/voltageLevel[1]",
      "malformed XML: mismatched tag" },
    { "missing-attribute.xml", CTG_ESCHEMA, 4, 9, "/network/substation[1]/voltageLevel[1]",
      "missing attribute 'nominalV'" },
    { "unknown-voltage-level.xml", CTG_ESCHEMA, 10, 5, "/network/line[1]",
      "unknown voltage level 'VL2'" },
    /* XIIDM names a substation only by nesting: the one reference a file can get wrong is a
     * transformer's voltage level outside the substation it stands in. */
    { "transformer-outside-substation.xml", CTG_ESCHEMA, 16, 9,
      "/network/substation[2]/twoWindingsTransformer[1]",
      "TWO_WINDINGS_TRANSFORMER \"T1\": voltage level \"VL1\" is not in substation \"S2\"" },
    { "unknown-boundary-line.xml", CTG_ESCHEMA, 10, 5, "/network/tieLine[1]",
      "unknown boundary line 'BL2'" },
    { "unknown-converter-station.xml", CTG_ESCHEMA, 10, 5, "/network/hvdcLine[1]",
      "unknown converter station 'CS9'" },
    { "duplicate-id.xml", CTG_ESCHEMA, 9, 13, "/network/substation[1]/voltageLevel[1]/generator[2]",
      "duplicate id 'G1'" },
    { "version-1-18.xml", CTG_EUNSUPPORTED, 2, 1, "",
      "IIDM version 1.18 is newer than this library's (1.17)" },
    { "too-deep.xml", CTG_ELIMIT, 3, 1298, "/network", "elements nested deeper than 256 levels" },
    { "long-name.xml", CTG_ELIMIT, 3, 5, "/network", "attribute name longer than 32 bytes" },
    { "long-value.xml", CTG_ELIMIT, 4, 9, "/network/substation[1]",
      "value of attribute 'value' longer than 64 bytes" },
    { "external-entity.xml", CTG_ESYNTAX, 2, 19, "", "DOCTYPE declarations are not accepted" },
    { "network-level-transformer.xml", CTG_ESCHEMA, 3, 5, "/network/twoWindingsTransformer[1]",
      "unknown element 'twoWindingsTransformer' in 'network'" },
    { "renamed-element.xml", CTG_ESCHEMA, 8, 13,
      "/network/substation[1]/voltageLevel[1]/danglingLine[1]",
      "danglingLine is not supported for IIDM version 1.17 (1.15 or older)" },
    { "nested-subnetwork.xml", CTG_ESCHEMA, 4, 9, "/network/network[1]/network[1]",
      "only one level of subnetworks is supported" },
};

static void check_invalid(const invalid_case *c, const ctg_source *src, const char *source)
{
    ctg_iidm_read_options o = options();
    ctg_network *net = (ctg_network *)&o;
    ctg_error err;
    char text[1024];

    o.max_name_len = 32;
    o.max_value_len = 64;
    CU_ASSERT_EQUAL(ctg_iidm_read(&net, src, &o, &err), c->code);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_EQUAL(err.code, c->code);
    CU_ASSERT_EQUAL(err.line, c->line);
    CU_ASSERT_EQUAL(err.column, c->column);
    CU_ASSERT_STRING_EQUAL(err.path, c->path);
    CU_ASSERT_STRING_EQUAL(err.message, c->message);
    CU_ASSERT_STRING_EQUAL(err.source, source);
    if (err.code != c->code || err.line != c->line || err.column != c->column ||
        strcmp(err.message, c->message) != 0 || strcmp(err.path, c->path) != 0) {
        ctg_error_format(&err, text, sizeof text);
        printf("\n  %s: %s\n", c->file, text);
    }
}

CTG_TEST(xiidm, invalid_networks)
{
    char path[512];

    for (size_t i = 0; i < sizeof invalid_cases / sizeof invalid_cases[0]; i++) {
        const invalid_case *c = &invalid_cases[i];
        snprintf(path, sizeof path, "%s/%s", CTG_TESTDATA("iidm/invalid"), c->file);
        ctg_source src = ctg_source_path(path);
        check_invalid(c, &src, path);
        /* The same from memory, in one buffer. */
        size_t len;
        char *doc = ctg_test_slurp(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        src = ctg_source_buffer(doc, len);
        check_invalid(c, &src, "<memory>");
        free(doc);
    }
}

/* The error's text as a user sees it. */
CTG_TEST(xiidm, error_text)
{
    ctg_iidm_read_options o = options();
    ctg_network *net = NULL;
    ctg_error err;
    char text[512];

    o.source_name = "grid.xiidm";
    CU_ASSERT_EQUAL(ctg_test_read_net_path(
                        &net, CTG_TESTDATA("iidm/invalid/unknown-voltage-level.xml"), &o, &err),
                    CTG_ESCHEMA);
    ctg_error_format(&err, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "grid.xiidm:10:5: error: /network/line[1]: unknown voltage "
                                 "level 'VL2'");
}

/* An entity declared in the internal subset is refused with the DOCTYPE, before any
 * expansion; so is a document with no IIDM namespace. */
CTG_TEST(xiidm, doctype_and_namespace_refused)
{
    static const char laughs[] = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">"
                                 "<!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">]>\n"
                                 "<lolz>&lol2;</lolz>\n";
    static const char plain[] = "<network id=\"n\"/>";
    static const char other[] = "<x:network xmlns:x=\"http://example.org/iidm/1_0\" id=\"n\"/>";
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_EQUAL(ctg_test_read_net(&net, laughs, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_STRING_EQUAL(err.message, "DOCTYPE declarations are not accepted");
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, plain, NULL, &err), CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.message, "root element 'network' has no namespace: not an IIDM "
                                        "network");
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, other, NULL, &err), CTG_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown namespace 'http://example.org/iidm/1_0': not "
                                        "an IIDM network");
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, "", NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_PTR_NULL(net);
}

CTG_TEST(xiidm, bad_arguments_and_limits)
{
    ctg_iidm_read_options o = options();
    ctg_network *net = NULL;
    ctg_error err;
    ctg_source src = ctg_source_buffer(nb_doc, sizeof nb_doc - 1);

    CU_ASSERT_EQUAL(ctg_iidm_read(NULL, &src, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_iidm_read(&net, NULL, NULL, &err), CTG_EINVAL);
    o.version = CTG_IIDM_READ_OPTIONS_VERSION + 1;
    CU_ASSERT_EQUAL(ctg_iidm_read(&net, &src, &o, &err), CTG_EINVAL);
    o = options();
    o.max_document_size = 100;
    CU_ASSERT_EQUAL(ctg_iidm_read(&net, &src, &o, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "document longer than 100 bytes");
    o = options();
    o.max_depth = 4;
    CU_ASSERT_EQUAL(ctg_iidm_read(&net, &src, &o, &err), CTG_ELIMIT);
    CU_ASSERT_EQUAL(err.line, 7);
    CU_ASSERT_STRING_EQUAL(err.path, "/network/network[1]/substation[1]/voltageLevel[1]");
    CU_ASSERT_PTR_NULL(net);
}

static int stop_at_once(size_t consumed, size_t total, void *payload)
{
    (void)consumed;
    (void)total;
    ++*(int *)payload;
    return 1;
}

CTG_TEST(xiidm, progress_can_stop)
{
    ctg_iidm_read_options o = options();
    drip d = { nb_doc, sizeof nb_doc - 1, 0 };
    ctg_source src = ctg_source_callback(drip_read, &d, 0);
    ctg_network *net = NULL;
    ctg_error err;
    int calls = 0;

    o.progress = stop_at_once;
    o.payload = &calls;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, nb_doc, &o, &err), CTG_ESTOPPED);
    CU_ASSERT_EQUAL(calls, 1);
    CU_ASSERT_EQUAL(ctg_iidm_read(&net, &src, &o, &err), CTG_ESTOPPED);
    CU_ASSERT_EQUAL(calls, 2);
    CU_ASSERT_PTR_NULL(net);
}

/* ---- memory ---- */

static bool sweep_once(const ctg_source *src, size_t fail_at)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_iidm_read_options o = options();
    ctg_network *net = NULL;
    ctg_error err;
    int rc;

    st.fail_at = fail_at;
    o.allocator = &a;
    rc = ctg_iidm_read(&net, src, &o, &err);
    if (rc == CTG_OK) {
        check_nb(net);
        ctg_network_free(net);
    } else {
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_EQUAL(err.code, CTG_ENOMEM);
        if (rc != CTG_ENOMEM)
            ctg_test_report("the sweep's read", &err);
        CU_ASSERT_PTR_NULL(net);
    }
    if (!st.failed)
        CU_ASSERT_EQUAL(rc, CTG_OK);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    return st.failed;
}

/* Every allocation of a read, libexpat's included, goes through the hooks: failing each one in
 * turn gives CTG_ENOMEM and leaks nothing, from memory and from refills. */
CTG_TEST(xiidm, allocation_failure_sweep)
{
    size_t n = 1;
    ctg_source mem = ctg_source_buffer(nb_doc, sizeof nb_doc - 1);

    while (sweep_once(&mem, n) && n < 100000)
        n++;
    CU_ASSERT(n > 30);
    for (n = 1; n < 100000; n++) {
        drip d = { nb_doc, sizeof nb_doc - 1, 0 };
        ctg_source cb = ctg_source_callback(drip_read, &d, 0);
        if (!sweep_once(&cb, n))
            break;
    }
    CU_ASSERT(n > 30);
}

/* ---- the corpus ---- */

/* Files PowSyBl rejects only for content the table does not hold: ctg accepts them (the test
 * checks that it does, so the list cannot go stale). docs/compatibility.md lists them too. */
typedef struct allowed_case {
    const char *name; /* the file name, in every version folder it is in */
    const char *why;  /* what PowSyBl rejects */
    size_t expected;  /* files of that name in the corpus with a rejecting golden */
    size_t seen;
} allowed_case;

static allowed_case allowed_cases[] = {
    { "faultyThreeWindingsTransformerRoundTripRef.xml",
      "tap changer validation: undefined target deadband of a regulating ratio tap changer", 16,
      0 },
    { "terminalRefNotFound.xiidm", "regulation data: a terminalRef to an unknown identifiable", 13,
      0 },
    { "branchObservabilityRoundTripRefInvalid.xml",
      "extension content: unknown element 'qualityV' in 'branchObservability'", 12, 0 },
    { "injectionObservabilityRoundTripRefInvalid.xml",
      "extension content: unknown element 'qualityZ' in 'injectionObservability'", 12, 0 },
    { "withoutPermanentLimit.xml", "limits: permanentLimit absent in 'currentLimits' (>= 1.12)", 6,
      0 },
    { "activePowerControlRoundTripRef.xml",
      "extension version: activePowerControl namespace not compatible with the IIDM version", 5,
      0 },
    { "remoteReactivePowerControlNotSupported.xml",
      "extension version: generatorRemoteReactivePowerControl needs IIDM 1.5", 5, 0 },
    { "faultyRegulatingStaticVarCompensatorRoundTripRef.xml",
      "regulation data: staticVarCompensator.regulatingTerminal needs IIDM 1.1", 1, 0 },
    { "gen_enum_not_supported.xml", "value validation: energySource TEST is no EnergySource", 1,
      0 },
};

typedef struct corpus_counts {
    size_t read, matched, rejected, allowed, failures;
} corpus_counts;

static allowed_case *allowed_for(const char *rel)
{
    const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;

    for (size_t i = 0; i < sizeof allowed_cases / sizeof allowed_cases[0]; i++)
        if (strcmp(allowed_cases[i].name, base) == 0)
            return &allowed_cases[i];
    return NULL;
}

static void corpus_file(const char *path, const char *rel, const char *golden, corpus_counts *n)
{
    size_t len;
    char *g = ctg_test_slurp(golden, &len);
    ctg_network *net = NULL;
    ctg_error err;
    char diff[1024], text[1024];

    if (!g || !strstr(g, "\"format\" : \"XIIDM\"")) {
        free(g);
        return;
    }
    bool ok = strstr(g, "\"ok\" : true") != NULL;
    free(g);
    n->read++;
    int rc = ctg_test_read_net_path(&net, path, NULL, &err);
    if (ok && rc != CTG_OK) {
        ctg_error_format(&err, text, sizeof text);
        printf("\n  %s: rejected: %s\n", rel, text);
        n->failures++;
    } else if (ok && !ctg_test_net_matches_golden(net, golden, diff, sizeof diff)) {
        printf("\n  %s: differs from its golden: %s\n", rel, diff);
        n->failures++;
    } else if (ok) {
        n->matched++;
    } else if (rc != CTG_OK) {
        n->rejected++;
    } else if (allowed_for(rel)) {
        allowed_for(rel)->seen++;
        n->allowed++;
    } else {
        printf("\n  %s: accepted, but PowSyBl rejects it\n", rel);
        n->failures++;
    }
    ctg_network_free(net);
}

static void corpus_dir(const char *root, const char *groot, const char *rel, corpus_counts *n)
{
    char dir[2048], path[2048], golden[2100], sub[1024];
    DIR *d;
    struct dirent *e;

    snprintf(dir, sizeof dir, "%s%s%s", root, rel[0] ? "/" : "", rel);
    d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        snprintf(path, sizeof path, "%s/%s", root, sub);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            corpus_dir(root, groot, sub, n);
            continue;
        }
        snprintf(golden, sizeof golden, "%s/%s.json", groot, sub);
        if (access(golden, R_OK) == 0)
            corpus_file(path, sub, golden, n);
    }
    closedir(d);
}

CTG_SHARED_TEST(xiidm, corpus_matches_powsybl)
{
    char root[512], groot[512];
    corpus_counts n = { 0 };

    snprintf(root, sizeof root, "%s/iidm", ctg_test_shared_dir());
    snprintf(groot, sizeof groot, "%s/iidm-golden", ctg_test_shared_dir());
    corpus_dir(root, groot, "", &n);
    printf("\n  XIIDM corpus: %zu files with a golden, %zu equal, %zu rejected as by PowSyBl, "
           "%zu accepted by design, %zu failures\n",
           n.read, n.matched, n.rejected, n.allowed, n.failures);
    CU_ASSERT_EQUAL(n.failures, 0);
    CU_ASSERT_EQUAL(n.read, 1073);
    CU_ASSERT_EQUAL(n.matched, 976);
    CU_ASSERT_EQUAL(n.rejected, 26);
    CU_ASSERT_EQUAL(n.allowed, 71);
    for (size_t i = 0; i < sizeof allowed_cases / sizeof allowed_cases[0]; i++) {
        CU_ASSERT_EQUAL(allowed_cases[i].seen, allowed_cases[i].expected);
        if (allowed_cases[i].seen != allowed_cases[i].expected)
            printf("\n  %s: accepted %zu times, expected %zu\n", allowed_cases[i].name,
                   allowed_cases[i].seen, allowed_cases[i].expected);
        allowed_cases[i].seen = 0;
    }
}

#include "test_xiidm.tests.h"
