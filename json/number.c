/* SPDX-License-Identifier: MPL-2.0 */
/* JSON number text: grammar check, locale-independent double and exact int64 conversion. */

/* strtod_l is a GNU (and BSD) extension; newlocale is POSIX 2008. */
#define _GNU_SOURCE

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clocale.h"
#include "json/lexer.h"

#define IS_DIGIT(c) ((unsigned char)((c) - '0') < 10)

/* Every halfway point between two doubles has at most 767 significant decimal digits, so
 * digits past this count only matter as "something non-zero follows" (a sticky digit). */
#define MAX_SIG_DIGITS 800
/* With at most MAX_SIG_DIGITS digits, an exponent beyond this is infinity or zero anyway. */
#define EXP_CLAMP 100000
#define EXP_SATURATE 100000000000000000LL

bool ctg_number_check(const char *s, size_t len, bool *is_integer, size_t *bad, const char **why)
{
    size_t i = 0;

    *is_integer = true;
    if (i < len && s[i] == '-')
        i++;
    if (i == len || !IS_DIGIT(s[i])) {
        *why = i == 0 ? "expected a digit" : "expected a digit after '-'";
        goto fail;
    }
    if (s[i++] == '0') {
        if (i < len && IS_DIGIT(s[i])) {
            *why = "leading zero in number";
            goto fail;
        }
    } else {
        while (i < len && IS_DIGIT(s[i]))
            i++;
    }
    if (i < len && s[i] == '.') {
        *is_integer = false;
        if (++i == len || !IS_DIGIT(s[i])) {
            *why = "expected a digit after '.' in number";
            goto fail;
        }
        while (i < len && IS_DIGIT(s[i]))
            i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        *is_integer = false;
        if (++i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i == len || !IS_DIGIT(s[i])) {
            *why = "expected a digit in the exponent of a number";
            goto fail;
        }
        while (i < len && IS_DIGIT(s[i]))
            i++;
    }
    if (i == len)
        return true;
    *why = "unexpected character in number";
fail:
    *bad = i;
    return false;
}

/* The digits of a checked number, normalised: value = [-] digits * 10^exp, no leading zeros. */
typedef struct decimal {
    char digits[MAX_SIG_DIGITS + 2];
    size_t ndigits;
    long long exp;
    bool negative;
} decimal;

static void add_digit(decimal *d, char c, bool in_fraction, bool *sticky)
{
    if (d->ndigits == 0 && c == '0') {
        d->exp -= in_fraction; /* a leading zero only moves the point */
    } else if (d->ndigits < MAX_SIG_DIGITS) {
        d->digits[d->ndigits++] = c;
        d->exp -= in_fraction;
    } else {
        *sticky |= c != '0';
        d->exp += !in_fraction; /* a dropped integer digit scales the kept ones */
    }
}

/* Saturates far beyond any digit count, so the sum with the digits' shift stays exact. */
static long long parse_exponent(const char *s, size_t len, size_t i)
{
    bool neg = false;
    long long e = 0;

    if (s[i] == '+' || s[i] == '-')
        neg = s[i++] == '-';
    for (; i < len; i++) {
        if (e < EXP_SATURATE)
            e = e * 10 + (s[i] - '0');
    }
    return neg ? -e : e;
}

/* Splits an already checked number into its decimal form. */
static void to_decimal(const char *s, size_t len, decimal *d)
{
    bool sticky = false, frac = false;
    size_t i = 0;

    d->ndigits = 0;
    d->exp = 0;
    d->negative = s[0] == '-';
    i += d->negative;
    for (; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.')
            frac = true;
        else
            add_digit(d, s[i], frac, &sticky);
    }
    if (i < len)
        d->exp += parse_exponent(s, len, i + 1);
    if (sticky) {
        d->digits[d->ndigits++] = '1';
        d->exp--;
    }
    /* Trailing zeros move into the exponent, so "1.0" and "100" stay on the fast path. */
    while (!sticky && d->ndigits > 0 && d->digits[d->ndigits - 1] == '0') {
        d->ndigits--;
        d->exp++;
    }
    if (d->exp > EXP_CLAMP)
        d->exp = EXP_CLAMP;
    if (d->exp < -EXP_CLAMP)
        d->exp = -EXP_CLAMP;
}

static const double exact_pow10[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#if FLT_EVAL_METHOD == 0 || FLT_EVAL_METHOD == 1
/* Doubles are computed as doubles: the fast path's one rounding is the correct one. */
static bool rounds_correctly(unsigned long long m, long long exp)
{
    (void)m;
    (void)exp;
    return true;
}
#else
/* x87 code (32-bit x86 without SSE2 math, FLT_EVAL_METHOD 2) rounds each result to a 64-bit
 * significand and again to 53 bits when it is stored; that double rounding is one unit in the
 * last place off for about one number in ten thousand. Only results that need no rounding at
 * all are safe: integers up to 2^53. */
static bool rounds_correctly(unsigned long long m, long long exp)
{
    for (; exp > 0; exp--) {
        if (m > (1ULL << 53) / 10)
            return false;
        m *= 10;
    }
    return exp == 0;
}
#endif

/* Clinger's fast path: with an exact mantissa (< 2^53) and an exact power of ten, one IEEE
 * multiplication or division rounds correctly, where doubles are computed as doubles. */
static bool fast_path(const decimal *d, double *out)
{
    unsigned long long m = 0;

    if (d->ndigits > 19 || d->exp > 22 || d->exp < -22)
        return false;
    for (size_t i = 0; i < d->ndigits; i++)
        m = m * 10 + (unsigned long long)(d->digits[i] - '0');
    if (m > (1ULL << 53) || !rounds_correctly(m, d->exp))
        return false;
    *out = d->exp >= 0 ? (double)m * exact_pow10[d->exp] : (double)m / exact_pow10[-d->exp];
    return true;
}

/* Correct rounding by the C library, in the "C" locale. The text has no radix character,
 * so even plain strtod (used only if newlocale failed) reads it the same in any locale. */
static double slow_path(const decimal *d)
{
    char text[MAX_SIG_DIGITS + 32];
    size_t n = d->ndigits;

    memcpy(text, d->digits, n);
    text[n++] = 'e';
    snprintf(text + n, sizeof(text) - n, "%lld", d->exp);
    if (ctg_c_locale() != (locale_t)0)
        return strtod_l(text, NULL, ctg_c_locale());
    return strtod(text, NULL);
}

bool ctg_parse_double(const char *s, size_t len, double *out)
{
    decimal d;
    double v;
    bool is_int;
    size_t bad;
    const char *why;

    if (!ctg_number_check(s, len, &is_int, &bad, &why))
        return false;
    to_decimal(s, len, &d);
    if (d.ndigits == 0)
        v = 0.0;
    else if (!fast_path(&d, &v))
        v = slow_path(&d);
    if (isinf(v))
        return false;
    *out = d.negative ? -v : v;
    return true;
}

bool ctg_parse_int64(const char *s, size_t len, int64_t *out)
{
    bool is_int, neg;
    size_t bad, i;
    const char *why;
    uint64_t v = 0, limit;

    if (!ctg_number_check(s, len, &is_int, &bad, &why) || !is_int)
        return false;
    neg = s[0] == '-';
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (i = neg; i < len; i++) {
        uint64_t digit = (uint64_t)(s[i] - '0');
        if (v > (limit - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    /* -(v - 1) - 1 stays in range even for INT64_MIN. */
    *out = neg ? (v == 0 ? 0 : -(int64_t)(v - 1) - 1) : (int64_t)v;
    return true;
}
