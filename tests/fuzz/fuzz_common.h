/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FUZZ_COMMON_H
#define CTG_FUZZ_COMMON_H

/* Helpers of the fuzz targets: a deep walk and compare of lists through the public API, and
 * a check of what a failed call left behind. Every check that fails calls ctg_fuzz_fail, which
 * prints why and aborts, so that libFuzzer (or the replay driver) reports the input. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/ctg.h"

/* What an equality may ignore, because the format loses it on purpose. */
enum {
    /* The "version" each list carried: a write always writes the current one. */
    CTG_FUZZ_IGNORE_VERSION = 1u << 0,
    /* A side of "" is read but never written (spec 2.2): "" and NULL compare equal. */
    CTG_FUZZ_EMPTY_SIDE_IS_ABSENT = 1u << 1
};

/* Prints "fuzz check failed: <why>" and aborts. */
void ctg_fuzz_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 1, 2)))
#endif
    ;

/* Reads every field reachable from `list` (every string to its end) and checks the model's
 * invariants (names of kinds and types in range, sides only on sided types). */
void ctg_fuzz_walk(const ctg_list *list);

/* Whether two contingencies are equal; on a difference, describes it in why[0..size). */
bool ctg_fuzz_contingency_equal(const ctg_contingency *a, const ctg_contingency *b,
                                unsigned ignore, char *why, size_t size);

/* Whether two lists are equal (kind, name, contingencies, identifiers, criteria, children). */
bool ctg_fuzz_list_equal(const ctg_list *a, const ctg_list *b, unsigned ignore, char *why,
                         size_t size);

/* Checks what a failed call left: `rc` negative and a known status, err->code == rc, the
 * message, source and path NUL-terminated, and ctg_error_format usable. */
void ctg_fuzz_check_error(int rc, const ctg_error *err);

/* Whether s[0..len) is valid UTF-8 (no overlong forms, no surrogates, <= U+10FFFF). */
bool ctg_fuzz_utf8_valid(const char *s, size_t len);

#endif
