/* SPDX-License-Identifier: MPL-2.0 */
#include "json/jdouble.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json/lexer.h"

/* Doubles are rare in contingency lists (voltage bounds, thresholds), so this favours being
 * obviously right over speed: the C library's correctly rounded "%.*e" proposes digits, our
 * own locale-independent parser checks that they read back, and the layout is ours. Action
 * lists hold one or two per action, nearly all short exact decimals: those take exact_short. */

#define MAX_DIGITS 17

/* A positive decimal d[0].d[1]...d[n-1] x 10^exp, digits as ASCII. */
typedef struct decimal {
    char d[MAX_DIGITS + 1];
    int n;
    int exp;
} decimal;

/* The correctly rounded n-digit decimal of x > 0. The text of "%e" is read digit by digit,
 * skipping whatever the locale uses as its decimal point. */
static void round_to(double x, int n, decimal *out)
{
    char buf[64];
    const char *p = buf;
    int e = 0, sign = 1;

    snprintf(buf, sizeof buf, "%.*e", n - 1, x);
    out->n = 0;
    for (; *p != '\0' && *p != 'e' && *p != 'E'; p++) {
        if (*p >= '0' && *p <= '9' && out->n < MAX_DIGITS)
            out->d[out->n++] = *p;
    }
    if (*p != '\0')
        p++;
    if (*p == '-' || *p == '+')
        sign = *p++ == '-' ? -1 : 1;
    for (; *p >= '0' && *p <= '9'; p++)
        e = e * 10 + (*p - '0');
    out->exp = sign * e;
}

/* The value of `dec` read back by the library's own parser; false when it does not parse. */
static bool value_of(const decimal *dec, double *out)
{
    char buf[48];
    size_t len = 0;
    int e = dec->exp, i;
    char ebuf[8];
    int elen = 0;

    buf[len++] = dec->d[0];
    buf[len++] = '.';
    buf[len++] = dec->n > 1 ? dec->d[1] : '0';
    for (i = 2; i < dec->n; i++)
        buf[len++] = dec->d[i];
    buf[len++] = 'e';
    if (e < 0) {
        buf[len++] = '-';
        e = -e;
    }
    do {
        ebuf[elen++] = (char)('0' + e % 10);
        e /= 10;
    } while (e > 0);
    while (elen > 0)
        buf[len++] = ebuf[--elen];
    return ctg_parse_double(buf, len, out);
}

/* The next n-digit decimal above `dec`: 9.99e4 becomes 1.00e5. */
static void step_up(decimal *dec)
{
    int i = dec->n - 1;

    while (i >= 0 && dec->d[i] == '9')
        dec->d[i--] = '0';
    if (i >= 0) {
        dec->d[i]++;
        return;
    }
    dec->d[0] = '1';
    dec->exp++;
}

/* The next n-digit decimal below `dec`: 1.00e5 becomes 9.99e4. */
static void step_down(decimal *dec)
{
    int i = dec->n - 1;

    while (i >= 0 && dec->d[i] == '0')
        dec->d[i--] = '9';
    dec->d[i]--; /* d[0] is never '0', so i >= 0 here */
    if (dec->d[0] == '0') {
        memset(dec->d, '9', (size_t)dec->n);
        dec->exp--;
    }
}

/* Finds an n-digit decimal that reads back as x, nearest first: the correctly rounded one,
 * else its neighbour on the other side of x (the rounding interval of x is lopsided at powers
 * of two, so that neighbour may read back when the nearer one does not). */
static bool find_digits(double x, int n, decimal *out)
{
    decimal alt;
    double y;

    round_to(x, n, out);
    if (!value_of(out, &y))
        y = INFINITY; /* beyond DBL_MAX: the neighbour below may still read back */
    if (y == x)
        return true;
    alt = *out;
    if (y < x)
        step_up(&alt);
    else
        step_down(&alt);
    if (!value_of(&alt, &y) || y != x)
        return false;
    *out = alt;
    return true;
}

/* The decimal Java's Double.toString selects for x > 0 (finite). */
static void shortest(double x, decimal *out)
{
    int n;

    for (n = 1; n < MAX_DIGITS; n++) {
        if (find_digits(x, n, out))
            break;
    }
    if (n == MAX_DIGITS)
        round_to(x, MAX_DIGITS, out); /* 17 digits always read back */
    /* Java picks the nearest among decimals of length 1 or 2 when one digit suffices. */
    if (n == 1)
        find_digits(x, 2, out);
    while (out->n > 1 && out->d[out->n - 1] == '0')
        out->n--;
}

static size_t put_exp(char *p, int e)
{
    char tmp[8];
    size_t len = 0, k = 0;

    if (e < 0) {
        p[len++] = '-';
        e = -e;
    }
    do {
        tmp[k++] = (char)('0' + e % 10);
        e /= 10;
    } while (e > 0);
    while (k > 0)
        p[len++] = tmp[--k];
    return len;
}

/* 1e-3 <= value < 1e7: "123.45", "0.001", "200.0". */
static size_t layout_plain(const decimal *dec, char *p)
{
    size_t len = 0;
    int i;

    if (dec->exp < 0) {
        p[len++] = '0';
        p[len++] = '.';
        for (i = -1; i > dec->exp; i--)
            p[len++] = '0';
        memcpy(p + len, dec->d, (size_t)dec->n);
        return len + (size_t)dec->n;
    }
    for (i = 0; i <= dec->exp; i++)
        p[len++] = i < dec->n ? dec->d[i] : '0';
    p[len++] = '.';
    if (dec->n <= dec->exp + 1)
        p[len++] = '0';
    for (i = dec->exp + 1; i < dec->n; i++)
        p[len++] = dec->d[i];
    return len;
}

/* Otherwise "d.dddE<exp>", at least one fractional digit. */
static size_t layout_sci(const decimal *dec, char *p)
{
    size_t len = 0;

    p[len++] = dec->d[0];
    p[len++] = '.';
    if (dec->n == 1) {
        p[len++] = '0';
    } else {
        memcpy(p + len, dec->d + 1, (size_t)dec->n - 1);
        len += (size_t)dec->n - 1;
    }
    p[len++] = 'E';
    return len + put_exp(p + len, dec->exp);
}

static size_t put_literal(char *out, const char *s)
{
    size_t len = strlen(s);

    memcpy(out, s, len + 1);
    return len;
}

/* The decimal of x > 0 when x is exactly m / 10^k for an integer m < 2^53 and k <= 17 (100.0,
 * 12.5, 0.25: the values lists and actions hold), else false. That decimal is the one shortest()
 * finds: any decimal with fewer digits is a multiple of 10^(1-k), so at least 10^-k from x,
 * more than half an ulp of x (x < 2^53 * 10^-k), and does not read back as x. */
static bool exact_short(double x, decimal *out)
{
    static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,
                                    1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17 };
    uint64_t pow5 = 1;

    for (int k = 0; k < (int)(sizeof pow10 / sizeof pow10[0]); k++, pow5 *= 5) {
        double p = x * pow10[k];
        uint64_t m;
        char tmp[20];
        int n = 0;

        if (p >= 9007199254740992.0) /* 2^53 */
            return false;
        if (p != (double)(uint64_t)p)
            continue;
        m = (uint64_t)p;
        /* The product may have been rounded: x == m / 10^k holds when m / 5^k is an integer
         * and that integer times 2^-k (both exact) gives back x. */
        if (m == 0 || m % pow5 != 0 || ldexp((double)(m / pow5), -k) != x)
            continue;
        while (m % 10 == 0) /* k == 0 only: a smaller k would have matched */
            m /= 10, k--;
        for (; m > 0; m /= 10)
            tmp[n++] = (char)('0' + m % 10);
        out->n = n;
        out->exp = n - 1 - k;
        for (int i = 0; i < n; i++)
            out->d[i] = tmp[n - 1 - i];
        return true;
    }
    return false;
}

size_t ctg_format_double(double v, char out[CTG_DOUBLE_BUF])
{
    decimal dec;
    size_t len = 0;

    if (isnan(v))
        return put_literal(out, "NaN");
    if (isinf(v))
        return put_literal(out, v < 0 ? "-Infinity" : "Infinity");
    if (v == 0)
        return put_literal(out, signbit(v) ? "-0.0" : "0.0");
    if (v < 0) {
        out[len++] = '-';
        v = -v;
    }
    if (!exact_short(v, &dec))
        shortest(v, &dec);
    if (dec.exp >= -3 && dec.exp < 7)
        len += layout_plain(&dec, out + len);
    else
        len += layout_sci(&dec, out + len);
    out[len] = '\0';
    return len;
}

/* ---- text already in Java's form ---------------------------------------------------------- */

/* The significant digits and decimal exponent of a JSON number's text: [-]int[.frac][e[+-]n]. */
typedef struct parsed {
    bool negative;
    decimal dec;
} parsed;

/* Reads the exponent after 'e'/'E' at s[i..n); false when it is too large to matter here. */
static bool read_exp(const char *s, size_t n, size_t i, int *exp)
{
    int sign = 1, e = 0;

    if (i < n && (s[i] == '-' || s[i] == '+'))
        sign = s[i++] == '-' ? -1 : 1;
    for (; i < n; i++) {
        if (e > 1000)
            return false;
        e = e * 10 + (s[i] - '0');
    }
    *exp = sign * e;
    return true;
}

/* Fills `p` from the text; false for zero, more than 15 significant digits, or exponents far
 * from the normal range (where the shortest digits might not be the text's). */
static bool parse_text(const char *s, size_t n, parsed *p)
{
    size_t start = s[0] == '-', end = start, dot = n;
    int first = -1, last = -1, seen = 0, e = 0, int_digits;

    p->negative = start == 1;
    for (; end < n && s[end] != 'e' && s[end] != 'E'; end++) {
        if (s[end] == '.') {
            dot = end;
            continue;
        }
        if (s[end] != '0') {
            first = first < 0 ? seen : first;
            last = seen;
        }
        if (first >= 0 && seen - first < MAX_DIGITS)
            p->dec.d[seen - first] = s[end];
        seen++;
    }
    if (first < 0 || last - first + 1 > 15 || (end < n && !read_exp(s, n, end + 1, &e)))
        return false;
    int_digits = (int)((dot < n ? dot : end) - start);
    p->dec.n = last - first + 1;
    p->dec.exp = int_digits - 1 - first + e;
    return p->dec.exp > -300 && p->dec.exp < 300;
}

bool ctg_double_text_is_java(const char *s, size_t n)
{
    parsed p;
    char want[CTG_DOUBLE_BUF];
    size_t len = 0;

    if (n == 0 || n > 24 || !parse_text(s, n, &p))
        return false;
    if (p.negative)
        want[len++] = '-';
    if (p.dec.exp >= -3 && p.dec.exp < 7)
        len += layout_plain(&p.dec, want + len);
    else
        len += layout_sci(&p.dec, want + len);
    return len == n && memcmp(want, s, n) == 0;
}
