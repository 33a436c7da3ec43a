/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_IO_SOURCE_H
#define CTG_IO_SOURCE_H

/* Private: turns a public ctg_source (memory, path, FILE *, descriptor, callback) into what the
 * lexer reads, decompressing gzip on the fly (detected by its magic bytes, whatever the name)
 * and reporting progress to a visitor. */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/internal.h"
#include "ctg/stream.h"
#include "json/lexer.h"

typedef struct ctg_input ctg_input;

/* Opens `src`. On success *out is the input (release with ctg_input_close) and `name` is what
 * errors call it. On failure returns CTG_EIO/CTG_ENOMEM/CTG_EINVAL with err->message set. */
CTG_INTERNAL int ctg_input_open(ctg_input **out, const ctg_source *src, const ctg_allocator *a,
                                ctg_error *err);
/* What errors call `src` when no source_name is given: its path, "<memory>", "<stdin>" (the
 * FILE * stdin or descriptor 0), "<stream>", "<fd N>", or "<input>" for a malformed source;
 * written to `dst` (`cap` bytes) unless it is the path, which is returned as is. The same name
 * whether the open succeeds or fails. */
CTG_INTERNAL const char *ctg_source_name(const ctg_source *src, char *dst, size_t cap);
/* Closes what the input opened (a path's descriptor, zlib) and frees it. Accepts NULL. */
CTG_INTERNAL void ctg_input_close(ctg_input *in);

/* What the lexer reads. */
CTG_INTERNAL const ctg_lex_source *ctg_input_lex_source(const ctg_input *in);
/* The input's name for errors: ctg_source_name() of its source. */
CTG_INTERNAL const char *ctg_input_name(const ctg_input *in);
/* The size of the input when known in advance (a regular file, uncompressed), else 0. */
CTG_INTERNAL size_t ctg_input_size_hint(const ctg_input *in);
/* Whether opening the source of `in` again gives the same bytes: memory, and a path that names
 * a regular file (not a pipe or a device, whose bytes a second open would not see again). */
CTG_INTERNAL bool ctg_input_rereadable(const ctg_input *in);
/* Reports progress to `v` after each refill (NULL: no reports). */
CTG_INTERNAL void ctg_input_set_progress(ctg_input *in, const ctg_visitor *v);

#endif
