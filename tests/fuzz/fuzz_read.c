/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the public read of a memory buffer, down to the structs, then free.
 *
 * Each input is read four times, with the handler cache, with CTG_READ_NO_CACHE, with four
 * threads in parts as small as the layout allows (format/read_parallel.c), and in situ from a
 * writable copy (ctg_list_read_in_situ): all must give the same status and, on success, equal
 * lists; the parallel and in-situ reads the same error as the first. A
 * success is walked to every string; a failure must leave no list and a complete error. Strings
 * are limited to 4096 bytes, so that the corpus can hold an id of exactly the maximum length
 * (and one byte more). */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/read_internal.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_STRING 4096

static int read_list(ctg_list **out, const uint8_t *data, size_t size, unsigned flags,
                     unsigned threads, ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_source src = ctg_source_buffer(data, size);
    int rc;

    opts.flags = flags;
    opts.max_string_len = FUZZ_MAX_STRING;
    opts.threads = threads;
    *out = (ctg_list *)&opts; /* must be replaced: NULL on failure, the list on success */
    rc = threads > 1 ? ctg_list_read_split(out, &src, &opts, err, 1, NULL)
                     : ctg_list_read_buffer(out, data, size, &opts, err);
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

/* The in-situ read of a copy against the first read: the same list, or the same error. */
static void check_in_situ(const uint8_t *data, size_t size, int rc1, const ctg_list *seq,
                          const ctg_error *e1)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    char *buf = malloc(size ? size : 1);
    ctg_list *situ = (ctg_list *)&opts;
    ctg_error e;
    char why[512];
    int rc;

    if (!buf)
        ctg_fuzz_fail("out of memory for the in-situ copy");
    memcpy(buf, data, size);
    opts.max_string_len = FUZZ_MAX_STRING;
    rc = ctg_list_read_in_situ(&situ, buf, size, &opts, &e);
    if (rc != rc1)
        ctg_fuzz_fail("copying read %s, in situ %s", ctg_status_name(rc1), ctg_status_name(rc));
    if (rc == CTG_OK) {
        ctg_fuzz_walk(situ);
        if (!ctg_fuzz_list_equal(seq, situ, 0, why, sizeof why))
            ctg_fuzz_fail("copying and in-situ reads differ: %s", why);
    } else if (situ != NULL) {
        ctg_fuzz_fail("in situ: %s with a list left behind", ctg_status_name(rc));
    }
    if (rc != CTG_OK && (e.offset != e1->offset || e.line != e1->line || e.column != e1->column
                         || strcmp(e.path, e1->path) != 0 || strcmp(e.message, e1->message) != 0))
        ctg_fuzz_fail("copying and in-situ errors differ: %s at %s / %s at %s", e1->message,
                      e1->path, e.message, e.path);
    ctg_list_free(rc == CTG_OK ? situ : NULL);
    free(buf); /* after the list that borrows it */
}

/* The parallel read against the sequential one: the same list, or the same error. */
static void check_parallel(const uint8_t *data, size_t size, int rc1, const ctg_list *seq,
                           const ctg_error *e1)
{
    ctg_list *par;
    ctg_error e;
    char why[512];
    int rc = read_list(&par, data, size, 0, 4, &e);

    if (rc != rc1)
        ctg_fuzz_fail("sequential read %s, parallel %s", ctg_status_name(rc1), ctg_status_name(rc));
    if (rc == CTG_OK && !ctg_fuzz_list_equal(seq, par, 0, why, sizeof why))
        ctg_fuzz_fail("sequential and parallel reads differ: %s", why);
    if (rc != CTG_OK && (e.offset != e1->offset || e.line != e1->line || e.column != e1->column
                         || strcmp(e.path, e1->path) != 0 || strcmp(e.message, e1->message) != 0))
        ctg_fuzz_fail("sequential and parallel errors differ: %s at %s / %s at %s", e1->message,
                      e1->path, e.message, e.path);
    ctg_list_free(rc == CTG_OK ? par : NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctg_list *cached, *uncached;
    ctg_error e1, e2;
    char why[512];
    int rc1 = read_list(&cached, data, size, 0, 0, &e1);
    int rc2 = read_list(&uncached, data, size, CTG_READ_NO_CACHE, 0, &e2);

    if (rc1 != rc2)
        ctg_fuzz_fail("cached read %s, uncached %s", ctg_status_name(rc1), ctg_status_name(rc2));
    if (rc1 == CTG_OK && !ctg_fuzz_list_equal(cached, uncached, 0, why, sizeof why))
        ctg_fuzz_fail("cached and uncached reads differ: %s", why);
    if (rc1 != CTG_OK && (e1.offset != e2.offset || strcmp(e1.path, e2.path) != 0 ||
                          strcmp(e1.message, e2.message) != 0))
        ctg_fuzz_fail("cached and uncached errors differ: %s at %s / %s at %s", e1.message,
                      e1.path, e2.message, e2.path);
    check_parallel(data, size, rc1, cached, &e1);
    check_in_situ(data, size, rc1, cached, &e1);
    ctg_list_free(cached);
    ctg_list_free(uncached);
    return 0;
}
