/* SPDX-License-Identifier: MPL-2.0 */
/* cli_glob_match (glob.h): the matcher of filter's --id and --element, a loop that keeps the
 * place after the last `*` and retries from one character further on a mismatch (a later `*`
 * makes the earlier one's choice final, so one place is enough): linear in practice, at worst
 * the pattern's length times the string's. */

#include <stdint.h>
#include <string.h>

#include "glob.h"

/* The character at *s, whose bytes are then passed: the code point of a well-formed UTF-8
 * sequence, or for a byte that starts none, 0x110000 plus the byte (no code point: a stray
 * byte equals only itself). */
static uint32_t next_char(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    unsigned n = p[0] < 0xC2 ? 0 : p[0] < 0xE0 ? 1 : p[0] < 0xF0 ? 2 : p[0] < 0xF5 ? 3 : 0;
    unsigned char lo = p[0] == 0xE0 ? 0xA0 : p[0] == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = p[0] == 0xED ? 0x9F : p[0] == 0xF4 ? 0x8F : 0xBF;
    uint32_t c = p[0] & (0x3F >> n);

    if (n > 0 && (p[1] < lo || p[1] > hi))
        n = 0; /* overlong, surrogate or past U+10FFFF */
    for (unsigned i = 2; i <= n; i++)
        if ((p[i] & 0xC0) != 0x80)
            n = 0;
    for (unsigned i = 1; i <= n; i++)
        c = c << 6 | (p[i] & 0x3F);
    *s += n + 1;
    return n > 0 || p[0] < 0x80 ? (n > 0 ? c : p[0]) : 0x110000u + p[0];
}

static bool in_class(const char *name, size_t len, uint32_t c)
{
    static const char *const names[] = { "alpha", "digit", "alnum", "upper",
                                         "lower", "space", "punct", "xdigit" };
    bool up = c >= 'A' && c <= 'Z', low = c >= 'a' && c <= 'z', dig = c >= '0' && c <= '9';
    const bool is[] = { up || low, dig, up || low || dig, up, low,
                        c == ' ' || (c >= '\t' && c <= '\r'),
                        c > ' ' && c < 0x7F && !up && !low && !dig,
                        dig || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return is[i];
    return false;
}

/* One item of a set at *p (a class, a range or a character), whose bytes are passed: whether
 * `c` is in it. */
static bool set_item(const char **p, uint32_t c)
{
    const char *end;
    uint32_t lo, hi;

    if ((*p)[0] == '[' && (*p)[1] == ':' && (end = strstr(*p + 2, ":]")) != NULL) {
        bool yes = in_class(*p + 2, (size_t)(end - *p - 2), c);
        *p = end + 2;
        return yes;
    }
    if (**p == '\\' && (*p)[1] != '\0')
        (*p)++;
    lo = hi = next_char(p);
    if ((*p)[0] == '-' && (*p)[1] != ']' && (*p)[1] != '\0') {
        (*p)++;
        if (**p == '\\' && (*p)[1] != '\0')
            (*p)++;
        hi = next_char(p);
    }
    return c >= lo && c <= hi;
}

/* The set at *p (after its `[`): whether `c` is in it, *p then past its `]`. False with *p
 * unchanged when the set has no `]`: the `[` is then a character. */
static bool set_match(const char **p, uint32_t c, bool *closed)
{
    const char *q = *p;
    bool negate = *q == '!' || *q == '^', yes = false;

    q += negate;
    *closed = false;
    for (bool first = true; *q != '\0' && (first || *q != ']'); first = false)
        yes |= set_item(&q, c);
    if (*q != ']')
        return false;
    *closed = true;
    *p = q + 1;
    return yes != negate;
}

/* Whether the character at *s matches the pattern item at *p; both passed when it does. */
static bool item_match(const char **p, const char **s)
{
    const char *q = *p + 1, *t = *s;
    uint32_t c = next_char(&t);
    bool closed;

    if (**p == '?') {
        *p = q, *s = t;
        return true;
    }
    if (**p == '[') {
        bool yes = set_match(&q, c, &closed);
        if (closed) {
            *p = q, *s = t;
            return yes;
        }
    }
    q = *p;
    if (*q == '\\' && q[1] == '\0')
        return false; /* a pattern ending in `\` matches nothing, as in fnmatch */
    q += *q == '\\';
    if (next_char(&q) != c)
        return false;
    *p = q, *s = t;
    return true;
}

bool cli_glob_match(const char *glob, const char *str)
{
    const char *p = glob, *s = str, *star = NULL, *retry = NULL;

    while (*s != '\0') {
        if (*p == '*') {
            star = ++p;
            retry = s;
        } else if (*p == '\0' || !item_match(&p, &s)) {
            if (star == NULL)
                return false;
            p = star; /* the last `*` takes one character more */
            next_char(&retry);
            s = retry;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}
