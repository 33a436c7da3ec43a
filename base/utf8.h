/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_UTF8_H
#define CTG_BASE_UTF8_H

/* Private: UTF-8 encoding of one code point, and checking a string. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/internal.h"

/* Writes `cp` (at most U+10FFFF, not a surrogate) as 1 to 4 bytes; returns how many. */
CTG_INTERNAL size_t ctg_utf8_encode(uint32_t cp, char out[4]);

/* Checks and decodes the sequence at the start of the `n` bytes at `s` into *cp (unlike
 * ctg_utf8_decode of identifier_impl.h, which trusts its input); returns its length, or 0
 * when those bytes do not start a well-formed one (RFC 3629: no overlong form, no surrogate,
 * nothing above U+10FFFF, not cut short by the end). */
CTG_INTERNAL size_t ctg_utf8_sequence(const unsigned char *s, size_t n, uint32_t *cp);

/* Whether the NUL-terminated `s` is well-formed UTF-8 as the reader accepts it (no overlong
 * form, no surrogate, nothing above U+10FFFF); NULL counts as valid (an absent string). */
CTG_INTERNAL bool ctg_utf8_valid(const char *s);

#endif
