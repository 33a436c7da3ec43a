/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_H
#define CTG_IIDM_H

/**
 * @file iidm.h
 * Reading PowSyBl IIDM networks into an equipment table (libctg_network): XIIDM (XML, every
 * version from 1.0 to 1.17, bus-breaker and node-breaker) and JIIDM (its JSON form).
 *
 * A read streams its input: memory grows with the network, never with the file. What the
 * table does not hold (limits, tap changers, reactive curves, extensions, ...) is skipped.
 * The format is told by the content, not the name, and gzip data is decompressed.
 * Errors are `source:line:column: error: <element path>: <message>`: ctg_error.path holds the
 * path of the offending element, as `/network/substation[2]/voltageLevel[1]/generator[3]`
 * for XML (local names; each index counts the siblings of that name, from 1; "" before the
 * root element), and as a JSON Pointer for JIIDM. XML with a DOCTYPE is refused (CTG_ESYNTAX):
 * IIDM has none, and no entity is ever declared or read from outside.
 *
 * Threads: different reads are independent.
 */

#include <stddef.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/network.h"
#include "ctg/stream.h"

CTG_BEGIN_DECL

/** Which IIDM form to read. */
typedef enum ctg_iidm_format {
    CTG_IIDM_AUTO = 0, /**< told by the first byte after whitespace: '<' XML, '{' JSON */
    CTG_IIDM_XML,      /**< XIIDM */
    CTG_IIDM_JSON      /**< JIIDM */
} ctg_iidm_format;

/** The version of ctg_iidm_read_options these headers describe. */
#define CTG_IIDM_READ_OPTIONS_VERSION 1

/**
 * Options of a network read; a zeroed struct is the defaults (a zero version is read as 1).
 * Borrowed for the call.
 */
typedef struct ctg_iidm_read_options {
    unsigned version;               /**< CTG_IIDM_READ_OPTIONS_VERSION; 0 = 1 */
    ctg_iidm_format format;         /**< CTG_IIDM_AUTO by default */
    const ctg_allocator *allocator; /**< NULL for malloc/free; the network keeps a copy */
    const char *source_name;        /**< name for errors; NULL = the path, "<memory>", ... */
    size_t max_depth;               /**< element nesting limit; 0 = 256 */
    size_t max_name_len;            /**< longest element or attribute name; 0 = 1 KiB */
    size_t max_value_len;           /**< longest attribute value or string; 0 = 1 MiB */
    size_t max_document_size;       /**< longest input in bytes; 0 = no limit */
    /** Called now and then with the bytes consumed and the total when known (else 0); a
     *  nonzero return stops the read with CTG_ESTOPPED. NULL for none. */
    int (*progress)(size_t consumed, size_t total, void *payload);
    void *payload;                  /**< passed to `progress` */
} ctg_iidm_read_options;

/**
 * Reads a network from `src`.
 * @param[out] out  the new network, NULL on failure; the caller owns it (ctg_network_free).
 * @param src       where the bytes come from; borrowed for the call.
 * @param opts      NULL for defaults.
 * @param[out] err  may be NULL; written only on failure.
 * @return CTG_OK; CTG_ESYNTAX (malformed XML or JSON), CTG_ESCHEMA (a missing or bad
 *         attribute, an unknown reference, a duplicate id, an element not allowed in the
 *         file's version), CTG_EUNSUPPORTED (an IIDM version newer than 1.17 or an unknown
 *         namespace), CTG_ELIMIT, CTG_EIO, CTG_ENOMEM, CTG_ESTOPPED or CTG_EINVAL (options);
 *         on failure nothing is left allocated.
 */
CTG_API int ctg_iidm_read(ctg_network **out, const ctg_source *src,
                          const ctg_iidm_read_options *opts, ctg_error *err);

CTG_END_DECL

#endif
