/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the security-analysis documents (ctg/sa.h). Read as any kind; whatever is read
 * must be written, read back as the same kind, and written again to the same bytes (the ids of
 * a monitor are a set in hash order: a second read must not reorder them). A failed read must
 * leave no document and a complete error. Identifier action lists are written as PowSyBl writes
 * them (spec 2.5): refused with CTG_EUNSUPPORTED where PowSyBl cannot write them, and not read
 * back where PowSyBl's own output is not (a LOAD builder's bean dump, the contingencyId written
 * for SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS). */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ctg/sa.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether writing `doc` may be refused as unsupported, which only identifier action lists
 * are. */
static bool write_doc(ctg_buf *buf, const ctg_sa_doc *doc)
{
    ctg_error err;
    int rc = ctg_sa_write_buf(buf, doc, NULL, &err);

    if (rc == CTG_EUNSUPPORTED && ctg_sa_doc_kind(doc) == CTG_SA_IDENTIFIER_ACTION_LIST)
        return false;
    if (rc != CTG_OK)
        ctg_fuzz_fail("writing a document that was read failed: %s: %s", ctg_status_name(rc),
                      err.message);
    return true;
}

static bool has_substation_identifier(const ctg_identifier *id)
{
    if (id->kind == CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS)
        return true;
    for (size_t i = 0; id->kind == CTG_IDENTIFIER_LIST && i < id->item_count; i++)
        if (has_substation_identifier(&id->items[i]))
            return true;
    return false;
}

/* Whether what PowSyBl writes of `doc` reads back (spec 2.5). */
static bool reads_back(const ctg_sa_doc *doc)
{
    for (size_t i = 0; i < ctg_sa_identified_action_count(doc); i++) {
        const ctg_identified_action *e = ctg_sa_identified_action_at(doc, i);
        if (e->builder.type == CTG_ACTION_LOAD || has_substation_identifier(&e->identifier))
            return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_sa_doc *first = NULL, *second = NULL;
    ctg_buf one = CTG_BUF_INIT, two = CTG_BUF_INIT;
    ctg_error err;
    int rc;

    opts.max_string_len = 4096;
    rc = ctg_sa_read_buffer(&first, CTG_SA_ANY, data, size, &opts, &err);
    if (rc != CTG_OK) {
        if (first != NULL)
            ctg_fuzz_fail("a failed read left a document");
        ctg_fuzz_check_error(rc, &err);
        return 0;
    }
    if (!write_doc(&one, first) || !reads_back(first)) {
        ctg_buf_dispose(&one);
        ctg_sa_doc_free(first);
        return 0;
    }
    rc = ctg_sa_read_buffer(&second, ctg_sa_doc_kind(first), one.data, one.len, &opts, &err);
    if (rc != CTG_OK)
        ctg_fuzz_fail("the written document does not read back: %s %u:%u %s: %s\n%s",
                      ctg_status_name(rc), err.line, err.column, err.path, err.message, one.data);
    write_doc(&two, second);
    if (one.len != two.len || memcmp(one.data, two.data, one.len) != 0)
        ctg_fuzz_fail("writing the document read back gives other bytes:\n%s\n%s", one.data,
                      two.data);
    ctg_buf_dispose(&one);
    ctg_buf_dispose(&two);
    ctg_sa_doc_free(first);
    ctg_sa_doc_free(second);
    return 0;
}
