/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: a fuzzed list, read from memory, resolved against a fixed network built in
 * code for each input (every placement the evaluation looks at: countries and none, a voltage
 * level without substation, a 3WT, a tie line, LCC and VSC stations, a ground, properties, an
 * alias, a calculated bus). A success must be a `default` list of the input's name whose
 * produced elements all exist; a failure must leave no list and a complete error, with a path
 * for CTG_ESCHEMA. The stream form must give the same bytes or the same error. */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/network.h"
#include "ctg/resolve.h"
#include "ctg/stream.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void add(ctg_network *net, ctg_identifiable_type type, const char *id, const char *vl1,
                const char *vl2, const char *ref)
{
    ctg_net_spec s = CTG_NET_SPEC_INIT;
    ctg_error err;

    s.type = type;
    s.id = id;
    s.voltage_levels[0] = vl1;
    s.voltage_levels[1] = vl2;
    if (type == CTG_IDENTIFIABLE_VOLTAGE_LEVEL) {
        s.substation = ref;
        s.nominal_v = vl1 != NULL ? 400.0 : 63.0;
        s.voltage_levels[0] = NULL;
        s.topology = strcmp(id, "NB") == 0 ? CTG_TOPOLOGY_NODE_BREAKER : CTG_TOPOLOGY_BUS_BREAKER;
    } else if (type == CTG_IDENTIFIABLE_SUBSTATION) {
        s.country = ref;
    } else if (type == CTG_IDENTIFIABLE_TIE_LINE || type == CTG_IDENTIFIABLE_HVDC_LINE) {
        s.voltage_levels[0] = s.voltage_levels[1] = NULL;
        s.refs[0] = vl1;
        s.refs[1] = vl2;
    } else if (type == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION) {
        s.converter_kind = ref[0] == 'L' ? CTG_CONVERTER_LCC : CTG_CONVERTER_VSC;
    } else if (type == CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER) {
        s.voltage_levels[2] = ref;
    }
    if (ctg_network_add(net, &s, NULL, &err) != CTG_OK)
        ctg_fuzz_fail("network: %s: %s", id, err.message);
}

static void build(ctg_network *net)
{
    add(net, CTG_IDENTIFIABLE_SUBSTATION, "S1", NULL, NULL, "DE");
    add(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "V1", "x", NULL, "S1");
    add(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "V2", NULL, NULL, "S1");
    add(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "NB", "x", NULL, "S1");
    add(net, CTG_IDENTIFIABLE_SUBSTATION, "S2", NULL, NULL, NULL);
    add(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "V3", "x", NULL, "S2");
    add(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "V4", "x", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_BUS, "B1", "V1", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_GENERATOR, "G1", "V1", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_LOAD, "L1", "V2", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_BUSBAR_SECTION, "BBS", "NB", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_SWITCH, "SW", "NB", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_GROUND, "GR", "V4", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER, "T3", "V1", "V2", "NB");
    add(net, CTG_IDENTIFIABLE_LINE, "LN1", "V1", "V3", NULL);
    add(net, CTG_IDENTIFIABLE_LINE, "LN2", "V4", "V1", NULL);
    add(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, "BL1", "V1", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, "BL2", "V3", NULL, NULL);
    add(net, CTG_IDENTIFIABLE_TIE_LINE, "TL", "BL1", "BL2", NULL);
    add(net, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, "CS1", "V1", NULL, "LCC");
    add(net, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, "CS2", "V3", NULL, "VSC");
    add(net, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, "CS3", "V4", NULL, "VSC");
    add(net, CTG_IDENTIFIABLE_HVDC_LINE, "HV", "CS1", "CS2", NULL);
    if (ctg_network_add_alias(net, "G1", "G1-alias", NULL) != CTG_OK ||
        ctg_network_set_property(net, "V1", "zone", "a", NULL) != CTG_OK ||
        ctg_network_set_property(net, "S1", "zone", "b", NULL) != CTG_OK ||
        ctg_network_set_property(net, "LN1", "owner", "x", NULL) != CTG_OK ||
        ctg_network_add_calculated_bus(net, "NB", "NB_0", NULL) != CTG_OK)
        ctg_fuzz_fail("network: alias, property or calculated bus refused");
}

/* Built anew for each input (a few microseconds), so that nothing outlives a run. */
static ctg_network *network(void)
{
    ctg_network *net = NULL;

    if (ctg_network_new(&net, "fuzz", NULL, NULL) != CTG_OK)
        ctg_fuzz_fail("network: cannot create");
    build(net);
    return net;
}

/* Every element a criterion or identifier list produces names an object of the network. */
static void check_result(const ctg_network *net, const ctg_list *in, const ctg_list *out)
{
    size_t n = 0;
    const ctg_contingency *cs = ctg_list_contingencies(out, &n);

    if (ctg_list_get_kind(out) != CTG_LIST_DEFAULT || strcmp(ctg_list_name(out),
                                                             ctg_list_name(in)) != 0)
        ctg_fuzz_fail("the result is not a default list of the input's name");
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < cs[i].element_count; j++) {
            const char *id = cs[i].elements[j].id;

            if (id[0] == '\0')
                ctg_fuzz_fail("contingency %zu: an empty element id was kept", i);
            if (ctg_list_get_kind(in) != CTG_LIST_DEFAULT &&
                ctg_list_get_kind(in) != CTG_LIST_LIST &&
                ctg_network_find(net, id, strlen(id)) == NULL)
                ctg_fuzz_fail("contingency %zu: element \"%s\" is not in the network", i, id);
        }
}

static int count_events(const ctg_resolve_event *ev, void *payload)
{
    if (ev->path == NULL || ev->message == NULL || ev->message[0] == '\0')
        ctg_fuzz_fail("an event without a path or a message");
    ++*(size_t *)payload;
    return 0;
}

/* The stream form on the same bytes: the same output, or an error too. */
static void check_stream(const ctg_network *net, const uint8_t *data, size_t size,
                         const ctg_list *in, const ctg_list *out, int rc)
{
    ctg_buf whole = CTG_BUF_INIT, streamed = CTG_BUF_INIT;
    ctg_source src = ctg_source_buffer(data, size);
    ctg_stream_writer *w = NULL;
    ctg_error err;
    int src_rc;

    if (ctg_stream_writer_open_buf(&w, &streamed, ctg_list_name(in), NULL, &err) != CTG_OK)
        ctg_fuzz_fail("stream writer: %s", err.message);
    src_rc = ctg_resolve_stream(net, &src, NULL, w, NULL, &err);
    if (src_rc == CTG_OK)
        src_rc = ctg_stream_writer_close(w, &err);
    else
        ctg_stream_writer_abort(w);
    if (src_rc != CTG_OK)
        ctg_fuzz_check_error(src_rc, &err);
    if ((rc == CTG_OK) != (src_rc == CTG_OK))
        ctg_fuzz_fail("resolve %s, resolve_stream %s", ctg_status_name(rc),
                      ctg_status_name(src_rc));
    if (rc == CTG_OK && ctg_list_write_buf(&whole, out, NULL, &err) == CTG_OK &&
        (whole.len != streamed.len || memcmp(whole.data, streamed.data, whole.len) != 0))
        ctg_fuzz_fail("resolve and resolve_stream wrote different bytes");
    ctg_buf_dispose(&whole);
    ctg_buf_dispose(&streamed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctg_network *net;
    ctg_resolve_options opts = { CTG_RESOLVE_OPTIONS_VERSION, NULL, count_events, NULL };
    ctg_list *in = NULL, *out = NULL;
    size_t events = 0;
    ctg_error err;
    int rc;

    if (ctg_list_read_buffer(&in, data, size, NULL, &err) != CTG_OK)
        return 0;
    net = network();
    opts.payload = &events;
    out = (ctg_list *)&opts; /* must be replaced */
    rc = ctg_resolve(&out, net, in, &opts, &err);
    if (rc == CTG_OK) {
        if (out == NULL)
            ctg_fuzz_fail("CTG_OK without a list");
        check_result(net, in, out);
    } else {
        if (out != NULL)
            ctg_fuzz_fail("%s with a list left behind", ctg_status_name(rc));
        ctg_fuzz_check_error(rc, &err);
        if (rc != CTG_ESCHEMA || err.path[0] != '/')
            ctg_fuzz_fail("resolve failed with %s at \"%s\": %s", ctg_status_name(rc), err.path,
                          err.message);
    }
    /* Only a bare contingency document is not streamed as its kind; and a list whose root
     * name comes after its items would name the writer differently. */
    if (ctg_list_get_kind(in) != CTG_LIST_CONTINGENCY)
        check_stream(net, data, size, in, out, rc);
    ctg_list_free(out);
    ctg_list_free(in);
    ctg_network_free(net);
    return 0;
}
