/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_JSON_JDOUBLE_H
#define CTG_JSON_JDOUBLE_H

/* Private: doubles laid out as Java's Double.toString does on JDK 19 and later (spec
 * section 7), independently of the locale. */

#include <stdbool.h>
#include <stddef.h>

#include "base/internal.h"

/* The longest output is "-2.2250738585072014E-308" (24 bytes); 32 leaves room. */
#define CTG_DOUBLE_BUF 32

/* Writes `v` into `out` (NUL-terminated): the shortest decimal that reads back as `v` (among
 * equally short ones the nearest; a one-digit result may become two digits when that is
 * nearer, as in "4.9E-324"), plain when 1e-3 <= |v| < 1e7 ("200.0", "0.001"), otherwise
 * "d.dddE<exp>" ("1.0E7", "1.0E-4"); "-0.0", "NaN", "Infinity", "-Infinity".
 * @return the length, without the NUL. */
CTG_INTERNAL size_t ctg_format_double(double v, char out[CTG_DOUBLE_BUF]);

/* Whether the JSON number text s[0..n) (a fraction or an exponent, valid JSON) is exactly
 * what ctg_format_double writes for its value, decided from the text alone: with at most 15
 * significant digits, a normal double's shortest decimal is the text's own digits, so only the
 * layout needs checking. false means "not sure" as well as "no": format it then. */
CTG_INTERNAL bool ctg_double_text_is_java(const char *s, size_t n);

#endif
