/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: read, write, read again.
 *
 * Whatever the reader accepts, the writer must write, and the reader must read back an equal
 * list (deep compare of everything the public API shows, except what the format drops on
 * purpose: the input's "version" and an empty side). Writing that second list must give the
 * same bytes again. Both layouts are checked: pretty (PowSyBl's) and compact. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_STRING 4096

static int read_list(ctg_list **out, const void *data, size_t size, ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;

    opts.max_string_len = FUZZ_MAX_STRING;
    return ctg_list_read_buffer(out, data, size, &opts, err);
}

static void write_list(ctg_buf *buf, const ctg_list *list, unsigned flags)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_error err;
    int rc;

    opts.flags = flags;
    rc = ctg_list_write_buf(buf, list, &opts, &err);
    if (rc != CTG_OK)
        ctg_fuzz_fail("writing a list that was read failed: %s: %s", ctg_status_name(rc),
                      err.message);
    if (buf->data == NULL || strlen(buf->data) != buf->len)
        ctg_fuzz_fail("written bytes are not a NUL-terminated text of %zu bytes", buf->len);
}

static void roundtrip(const ctg_list *first, unsigned flags)
{
    ctg_buf one = CTG_BUF_INIT, two = CTG_BUF_INIT;
    ctg_list *second = NULL;
    ctg_error err;
    char why[512];
    int rc;

    write_list(&one, first, flags);
    rc = read_list(&second, one.data, one.len, &err);
    if (rc != CTG_OK)
        ctg_fuzz_fail("the written list does not read back: %s %u:%u %s: %s\n%s",
                      ctg_status_name(rc), err.line, err.column, err.path, err.message,
                      one.data);
    if (!ctg_fuzz_list_equal(first, second,
                             CTG_FUZZ_IGNORE_VERSION | CTG_FUZZ_EMPTY_SIDE_IS_ABSENT, why,
                             sizeof why))
        ctg_fuzz_fail("the list read back differs: %s\n%s", why, one.data);
    write_list(&two, second, flags);
    if (two.len != one.len || memcmp(one.data, two.data, one.len) != 0)
        ctg_fuzz_fail("the second write differs from the first:\n%s\n----\n%s", one.data,
                      two.data);
    ctg_list_free(second);
    ctg_buf_dispose(&one);
    ctg_buf_dispose(&two);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctg_list *first = NULL;
    ctg_error err;

    if (read_list(&first, data, size, &err) != CTG_OK)
        return 0;
    roundtrip(first, 0);
    roundtrip(first, CTG_WRITE_COMPACT);
    ctg_list_free(first);
    return 0;
}
