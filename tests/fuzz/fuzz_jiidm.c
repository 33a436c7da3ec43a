/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the JIIDM importer on a memory buffer, then the same bytes streamed through a
 * FILE * (the lexer refilling its window): both reads must give the same status, the same
 * error (offset, path, message) or the same table (its JSON dump). A success is walked to
 * every object; a failure must leave no network and a complete error. Strings are limited to
 * 4096 bytes. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/iidm.h"
#include "ctg/network.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touches every object and its references, so that ASan sees a dangling one. */
static void walk(const ctg_network *net)
{
    size_t n = ctg_network_object_count(net), bytes = 0;

    for (size_t i = 0; i < n; i++) {
        const ctg_net_object *o = ctg_network_object_by_doc(net, i);
        if (!o || !o->id || !o->id[0])
            ctg_fuzz_fail("object %zu without an id", i);
        if (ctg_network_find(net, o->id, strlen(o->id)) != o)
            ctg_fuzz_fail("object %s not found by its id", o->id);
        for (size_t k = 0; k < 3; k++)
            bytes += o->voltage_levels[k] ? strlen(o->voltage_levels[k]->id) : 0;
        for (size_t k = 0; k < ctg_net_object_alias_count(o); k++)
            if (ctg_network_find(net, ctg_net_object_alias_at(o, k), strlen(ctg_net_object_alias_at(o, k))) != o)
                ctg_fuzz_fail("alias %s of %s not found", ctg_net_object_alias_at(o, k), o->id);
        for (size_t k = 0; k < ctg_net_object_property_count(o); k++)
            bytes += strlen(ctg_net_object_property_at(o, k)->key) + strlen(ctg_net_object_property_at(o, k)->value);
    }
    if (bytes == SIZE_MAX)
        ctg_fuzz_fail("unreachable");
}

static int read_net(ctg_network **out, const uint8_t *data, size_t size, bool streamed,
                    ctg_error *err)
{
    ctg_iidm_read_options o = { 0 };
    ctg_source src = ctg_source_buffer(data, size);
    FILE *fp = NULL;
    int rc;

    o.format = CTG_IIDM_JSON;
    o.max_value_len = 4096;
    o.source_name = "fuzz";
    if (streamed) {
        if (size == 0 || !(fp = fmemopen((void *)data, size, "rb")))
            return read_net(out, data, size, false, err);
        src = ctg_source_fp(fp);
    }
    *out = (ctg_network *)&o; /* must be replaced */
    rc = ctg_iidm_read(out, &src, &o, err);
    if (fp)
        fclose(fp);
    if (rc == CTG_OK) {
        if (!*out)
            ctg_fuzz_fail("CTG_OK without a network");
        walk(*out);
    } else {
        if (*out)
            ctg_fuzz_fail("%s with a network left behind", ctg_status_name(rc));
        ctg_fuzz_check_error(rc, err);
        if (rc == CTG_ENOMEM || rc == CTG_EINVAL || rc == CTG_ESTOPPED || rc == CTG_EIO)
            ctg_fuzz_fail("a read failed with %s: %s", ctg_status_name(rc), err->message);
    }
    return rc;
}

static char *dump(const ctg_network *net)
{
    ctg_buf buf = { 0 };
    char *text;

    if (ctg_network_write_json(net, &buf, NULL) != CTG_OK)
        ctg_fuzz_fail("the dump of a network read failed");
    text = malloc(buf.len + 1);
    if (!text)
        ctg_fuzz_fail("out of memory");
    memcpy(text, buf.data, buf.len);
    text[buf.len] = '\0';
    ctg_buf_dispose(&buf);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctg_network *a, *b;
    ctg_error e1, e2;
    int rc1 = read_net(&a, data, size, false, &e1);
    int rc2 = read_net(&b, data, size, true, &e2);

    if (rc1 != rc2)
        ctg_fuzz_fail("memory read %s, streamed %s", ctg_status_name(rc1), ctg_status_name(rc2));
    if (rc1 != CTG_OK && (e1.offset != e2.offset || strcmp(e1.path, e2.path) != 0 ||
                          strcmp(e1.message, e2.message) != 0))
        ctg_fuzz_fail("memory read error at %zu %s: %s, streamed at %zu %s: %s", e1.offset, e1.path,
                      e1.message, e2.offset, e2.path, e2.message);
    if (rc1 == CTG_OK) {
        char *t1 = dump(a), *t2 = dump(b);
        if (strcmp(t1, t2) != 0)
            ctg_fuzz_fail("memory and streamed reads give different tables");
        free(t1);
        free(t2);
    }
    ctg_network_free(a);
    ctg_network_free(b);
    return 0;
}
