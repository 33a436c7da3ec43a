/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_MODEL_IDENTIFIER_IMPL_H
#define CTG_MODEL_IDENTIFIER_IMPL_H

/* Private: the rules of `identifier` lists (spec 4) shared by the builders, the reader and the
 * writer, and the UTF-8 helpers they need for the one-character fields. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/model.h"
#include "base/arena.h"
#include "base/utf8.h"

/* An ID_WITH_WILDCARDS identifier holds its wildcard this many times. */
#define CTG_WILDCARD_MIN 1
#define CTG_WILDCARD_MAX 5
#define CTG_WILDCARD_DEFAULT 0x3Fu /* '?' */

/* LIST identifiers nest at most this deep (the top level is 0). Each level is an object and an
 * array, so the deepest identifier list still fits the emitter's 256 levels:
 * 4 + 2 * 126 = 256. It also bounds the recursion of the builders and the writer. */
#define CTG_IDENTIFIER_MAX_NESTING 126

/* Looks up an identifier kind by its exact name; true and `*out` set when found. */
bool ctg_identifier_kind_from_name(const char *name, size_t len, ctg_identifier_kind *out);

/* Whether the identifiers of one `identifier` list (the top level) follow spec 4, nested items
 * included; false for a NULL array with count > 0. */
bool ctg_identifiers_valid(const ctg_identifier *ids, size_t count);

/* Deep-copies `src` (valid) into `dst` in `arena`, as ctg_list_add_identifier copies it; false
 * when out of memory (what was copied stays in the arena). */
bool ctg_identifier_copy(ctg_arena *arena, ctg_identifier *dst, const ctg_identifier *src);

/* Decodes valid UTF-8 (as the lexer hands it out): the number of code points of s[0..len),
 * and the first one in `*first` (0 when empty). */
size_t ctg_utf8_decode(const char *s, size_t len, uint32_t *first);

/* How many times code point `cp` occurs in s[0..len) (valid UTF-8). */
size_t ctg_utf8_count_cp(const char *s, size_t len, uint32_t cp);

/* Whether `cp` is a Unicode scalar value: at most U+10FFFF and not a surrogate. */
static inline bool ctg_is_scalar(uint32_t cp)
{
    return cp <= 0x10FFFFu && (cp < 0xD800u || cp > 0xDFFFu);
}

/* Whether `cp` can be an "order": one UTF-16 unit (the BMP), not a surrogate, not U+0000. */
static inline bool ctg_order_valid(uint32_t cp)
{
    return cp != 0 && cp <= 0xFFFFu && ctg_is_scalar(cp);
}

#endif
