/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_STREAM_VALID_H
#define CTG_FORMAT_STREAM_VALID_H

/* Private, for libctg_network's generator: a streaming add that trusts its caller's strings. */

#include "base/internal.h"
#include "ctg/stream.h"

/* ctg_stream_writer_add of a contingency the caller vouches for: every string valid UTF-8,
 * every element with an id and a known type, no extension (the generator's, made of a
 * network's ids, which the table keeps valid, and of a format checked once). The same bytes
 * and errors, without the UTF-8 pass over each string; a contingency with extensions, or a
 * writer that has failed, takes ctg_stream_writer_add's checked path. */
CTG_INTERNAL int ctg_stream_writer_add_valid(ctg_stream_writer *sw, const ctg_contingency *c,
                                             ctg_error *err);

#endif
