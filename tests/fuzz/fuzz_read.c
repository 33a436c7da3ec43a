/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the public read of a memory buffer, down to the structs, then free.
 *
 * Each input is read twice, with the handler cache and with CTG_READ_NO_CACHE: both reads must
 * give the same status and, on success, equal lists. A success is walked to every string; a
 * failure must leave no list and a complete error. Strings are limited to 4096 bytes, so that
 * the corpus can hold an id of exactly the maximum length (and one byte more). */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_STRING 4096

static int read_list(ctg_list **out, const uint8_t *data, size_t size, unsigned flags,
                     ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    int rc;

    opts.flags = flags;
    opts.max_string_len = FUZZ_MAX_STRING;
    *out = (ctg_list *)&opts; /* must be replaced: NULL on failure, the list on success */
    rc = ctg_list_read_buffer(out, data, size, &opts, err);
    if (rc == CTG_OK) {
        if (*out == NULL)
            ctg_fuzz_fail("CTG_OK without a list");
        ctg_fuzz_walk(*out);
    } else {
        if (*out != NULL)
            ctg_fuzz_fail("%s with a list left behind", ctg_status_name(rc));
        ctg_fuzz_check_error(rc, err);
        /* Nothing of a buffer read is an I/O error: corrupt or truncated gzip data is
         * CTG_ESYNTAX, as malformed JSON is. */
        if (rc == CTG_ENOMEM || rc == CTG_EINVAL || rc == CTG_ESTOPPED || rc == CTG_EIO)
            ctg_fuzz_fail("a read of a buffer failed with %s: %s", ctg_status_name(rc),
                          err->message);
    }
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctg_list *cached, *uncached;
    ctg_error e1, e2;
    char why[512];
    int rc1 = read_list(&cached, data, size, 0, &e1);
    int rc2 = read_list(&uncached, data, size, CTG_READ_NO_CACHE, &e2);

    if (rc1 != rc2)
        ctg_fuzz_fail("cached read %s, uncached %s", ctg_status_name(rc1), ctg_status_name(rc2));
    if (rc1 == CTG_OK && !ctg_fuzz_list_equal(cached, uncached, 0, why, sizeof why))
        ctg_fuzz_fail("cached and uncached reads differ: %s", why);
    if (rc1 != CTG_OK && (e1.offset != e2.offset || strcmp(e1.path, e2.path) != 0 ||
                          strcmp(e1.message, e2.message) != 0))
        ctg_fuzz_fail("cached and uncached errors differ: %s at %s / %s at %s", e1.message,
                      e1.path, e2.message, e2.path);
    ctg_list_free(cached);
    ctg_list_free(uncached);
    return 0;
}
