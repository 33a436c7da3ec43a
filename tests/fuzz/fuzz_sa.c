/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the security-analysis documents (ctg/sa.h). Read as any kind; whatever is read
 * must be written, read back as the same kind, and written again to the same bytes (the ids of
 * a monitor are a set in hash order: a second read must not reorder them). A failed read must
 * leave no document and a complete error. */

#include <stdint.h>
#include <string.h>

#include "ctg/sa.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_doc(ctg_buf *buf, const ctg_sa_doc *doc)
{
    ctg_error err;
    int rc = ctg_sa_write_buf(buf, doc, NULL, &err);

    if (rc != CTG_OK)
        ctg_fuzz_fail("writing a document that was read failed: %s: %s", ctg_status_name(rc),
                      err.message);
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
    write_doc(&one, first);
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
