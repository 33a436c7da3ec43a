/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_REGEX_H
#define CTG_NETWORK_REGEX_H

/* Private: the regular expressions of regexCriterion, RE2's (the engine behind PowSyBl's
 * RE2/J), behind a C interface so that the rest of ctg_network stays C. Patterns and inputs are
 * UTF-8, in RE2 syntax; matching has find semantics (a match anywhere in the input). */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ctg_regex ctg_regex;

/* Compiles the `len` bytes of `pattern`. On failure returns NULL and writes RE2's reason
 * (NUL-terminated, cut to `errsize` bytes) to `errbuf`: "out of memory" when the wrapper could
 * not be allocated. The wrapper comes from `a` (NULL: malloc); RE2's own memory comes from the
 * C++ runtime (operator new), which ctg's allocator hooks cannot reach. */
ctg_regex *ctg_regex_compile(const char *pattern, size_t len, const ctg_allocator *a,
                             char *errbuf, size_t errsize);

/* Whether `re` matches somewhere in the `len` bytes at `s` (RE2::PartialMatch). */
bool ctg_regex_find(const ctg_regex *re, const char *s, size_t len);

/* Releases `re`; accepts NULL. */
void ctg_regex_free(ctg_regex *re);

#ifdef __cplusplus
}
#endif

#endif
