/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the XIIDM importer over a memory buffer, with an allocator that counts and
 * checks sizes; then the same bytes read again through a FILE-like callback source, in small
 * refills. Both reads must agree (status, error place and message, object count); a success
 * is walked to every object and string; a failure must leave no network, a complete error and
 * no live memory. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctg/iidm.h"
#include "ctg/network.h"
#include "tests/counting_alloc.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct chunks {
    const uint8_t *data;
    size_t size, pos;
} chunks;

/* Refills of at most 7 bytes: every token of the input gets split somewhere. */
static int read_chunk(void *payload, void *dst, size_t cap, size_t *got)
{
    chunks *c = payload;
    size_t n = c->size - c->pos < cap ? c->size - c->pos : cap;

    n = n > 7 ? 7 : n;
    memcpy(dst, c->data + c->pos, n);
    c->pos += n;
    *got = n;
    return 0;
}

static void walk(const ctg_network *net)
{
    size_t n = ctg_network_object_count(net);

    for (size_t i = 0; i < n; i++) {
        const ctg_net_object *o = ctg_network_object_by_doc(net, i);
        if (!o || !o->id || !o->id[0] || ctg_network_find(net, o->id, strlen(o->id)) != o)
            ctg_fuzz_fail("object %zu is not found by its id", i);
        for (size_t p = 0; p < ctg_net_object_property_count(o); p++)
            if (strlen(ctg_net_object_property_at(o, p)->key) + strlen(ctg_net_object_property_at(o, p)->value) == SIZE_MAX)
                ctg_fuzz_fail("unterminated property");
        for (size_t a = 0; a < ctg_net_object_alias_count(o); a++)
            if (ctg_network_find(net, ctg_net_object_alias_at(o, a), strlen(ctg_net_object_alias_at(o, a))) != o)
                ctg_fuzz_fail("alias %s not found", ctg_net_object_alias_at(o, a));
    }
}

static int read_net(const ctg_source *src, size_t *objects, ctg_error *err)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_iidm_read_options o;
    ctg_network *net = NULL;
    int rc;

    memset(&o, 0, sizeof o);
    o.version = CTG_IIDM_READ_OPTIONS_VERSION;
    o.format = CTG_IIDM_XML;
    o.allocator = &a;
    o.max_depth = 64;
    o.max_value_len = 4096;
    rc = ctg_iidm_read(&net, src, &o, err);
    *objects = 0;
    if (rc == CTG_OK) {
        if (!net)
            ctg_fuzz_fail("CTG_OK without a network");
        walk(net);
        *objects = ctg_network_object_count(net);
        ctg_network_free(net);
    } else {
        if (net)
            ctg_fuzz_fail("%s with a network left behind", ctg_status_name(rc));
        ctg_fuzz_check_error(rc, err);
        if (rc == CTG_ENOMEM || rc == CTG_EINVAL || rc == CTG_ESTOPPED)
            ctg_fuzz_fail("a read failed with %s: %s", ctg_status_name(rc), err->message);
    }
    if (st.live_bytes != 0 || st.bad_sizes != 0)
        ctg_fuzz_fail("%zu bytes left, %zu size mismatches", st.live_bytes, st.bad_sizes);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    chunks c = { data, size, 0 };
    ctg_source mem = ctg_source_buffer(data, size);
    ctg_source cb = ctg_source_callback(read_chunk, &c, 0);
    ctg_error e1, e2;
    size_t n1, n2;
    int rc1 = read_net(&mem, &n1, &e1);
    int rc2 = read_net(&cb, &n2, &e2);

    if (rc1 != rc2 || n1 != n2)
        ctg_fuzz_fail("memory read %s (%zu objects), refilled %s (%zu)", ctg_status_name(rc1), n1,
                      ctg_status_name(rc2), n2);
    if (rc1 != CTG_OK && rc1 != CTG_EIO &&
        (e1.line != e2.line || e1.column != e2.column || strcmp(e1.path, e2.path) != 0 ||
         strcmp(e1.message, e2.message) != 0))
        ctg_fuzz_fail("errors differ: %u:%u %s: %s / %u:%u %s: %s", e1.line, e1.column, e1.path,
                      e1.message, e2.line, e2.column, e2.path, e2.message);
    return 0;
}
