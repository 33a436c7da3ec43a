/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IIDM_IIDM_INTERNAL_H
#define CTG_IIDM_IIDM_INTERNAL_H

/* Private: what the public entry point (iidm/read.c) hands each importer once it has opened
 * the source, told XML from JSON and checked the options.
 *
 * read.c owns the input: it opens the ctg_source (gzip undone), peeks at its first
 * non-whitespace byte (after a UTF-8 BOM) and gives the importer a ctg_lex_source that
 * delivers every byte from the start, the peeked ones included (memory mode: the whole
 * buffer in place; refill mode: the peeked bytes replayed, then the rest). In refill mode
 * read.c reports progress after each refill itself (the refill returns CTG_ESTOPPED when the
 * callback asks to stop); in memory mode the importer calls ctg_iidm_progress now and then.
 *
 * An importer returns CTG_OK with *out set, or an error code with `err` filled (code, line,
 * column, offset, path, message); read.c sets err->source afterwards. On failure the importer
 * leaves nothing allocated and *out NULL. */

#include <stddef.h>

#include "ctg/iidm.h"
#include "ctg/network.h"
#include "json/lexer.h"

/* What an importer reads. `opts` has its zero limits replaced by the defaults (max_depth 256,
 * max_name_len 1 KiB, max_value_len 1 MiB, max_document_size SIZE_MAX for none). */
typedef struct ctg_iidm_input {
    const ctg_lex_source *src;         /* the bytes, from the first */
    const char *name;                  /* what errors call the input */
    size_t size_hint;                  /* total bytes when known, else 0 (progress) */
    const ctg_iidm_read_options *opts; /* never NULL, defaults filled in */
} ctg_iidm_input;

/* Reports `consumed` bytes to the options' progress callback, if any (memory mode only).
 * Returns CTG_OK or CTG_ESTOPPED (with err filled, no place) when the callback said stop. */
int ctg_iidm_progress(const ctg_iidm_input *in, size_t consumed, ctg_error *err);

/* Called with the input's bytes from the first (`src`) and the format they start with: JSON
 * when the first byte after a UTF-8 BOM and whitespace is '{', else XML. */
typedef int (*ctg_iidm_sniffed_fn)(void *ctx, const ctg_lex_source *src, ctg_iidm_format f,
                                   ctg_error *err);

/* Tells the format of `src` and hands it on to `fn`, with `ctx`: in memory mode `src` itself,
 * in refill mode a source replaying the bytes peeked at (up to 4 KiB, in a block of `a`),
 * then the rest. Returns what `fn` returns, or CTG_ENOMEM or the refill's error (`err`
 * filled, no place) before calling it. */
int ctg_iidm_sniffed(const ctg_lex_source *src, const ctg_allocator *a, ctg_iidm_sniffed_fn fn,
                     void *ctx, ctg_error *err);

/* XIIDM, through libexpat (iidm/xiidm.c). */
int ctg_xiidm_read(ctg_network **out, const ctg_iidm_input *in, ctg_error *err);

/* JIIDM, through ctg's lexer (iidm/jiidm.c). */
int ctg_jiidm_read(ctg_network **out, const ctg_iidm_input *in, ctg_error *err);

#endif
