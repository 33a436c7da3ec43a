/* SPDX-License-Identifier: MPL-2.0 */
/* Version strings compared the way PowSyBl compares them. */

#include "format/version.h"

#include <stdbool.h>
#include <string.h>

typedef struct part {
    const char *s;
    size_t len;
} part;

/* The next '.'-separated part of [*p, end); an exhausted input yields "" (counts as 0). */
static part next_part(const char **p, const char *end)
{
    part r = { *p, 0 };

    while (*p < end && **p != '.')
        (*p)++;
    r.len = (size_t)(*p - r.s);
    if (*p < end)
        (*p)++;
    return r;
}

static bool numeric(part x)
{
    for (size_t i = 0; i < x.len; i++)
        if (x.s[i] < '0' || x.s[i] > '9')
            return false;
    return true;
}

static int compare_parts(part x, part y)
{
    if (numeric(x) && numeric(y)) {
        /* Compare digit strings without converting, so no length overflows. */
        while (x.len > 1 && x.s[0] == '0') x.s++, x.len--;
        while (y.len > 1 && y.s[0] == '0') y.s++, y.len--;
        if (x.len == 0 || y.len == 0)
            return (x.len != 0 && x.s[0] != '0') - (y.len != 0 && y.s[0] != '0');
        if (x.len != y.len)
            return x.len < y.len ? -1 : 1;
    }
    int c = memcmp(x.s, y.s, x.len < y.len ? x.len : y.len);
    if (c == 0 && x.len != y.len)
        c = x.len < y.len ? -1 : 1;
    return c;
}

int ctg_version_compare(const char *a, size_t alen, const char *b)
{
    const char *ae = a + alen, *be = b + strlen(b);

    while (a < ae || b < be) {
        int c = compare_parts(next_part(&a, ae), next_part(&b, be));
        if (c != 0)
            return c < 0 ? -1 : 1;
    }
    return 0;
}
