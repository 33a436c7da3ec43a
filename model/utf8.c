/* SPDX-License-Identifier: MPL-2.0 */
/* UTF-8 encoding, shared by the lexer (escapes) and the identifier model (code points). */

#include "model/utf8.h"

#include <string.h>

size_t ctg_utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The length of the well-formed sequence starting with lead byte `c` at `s` (RFC 3629: no
 * overlong form, no surrogate, nothing above U+10FFFF), or 0. */
static size_t sequence(const unsigned char *s)
{
    unsigned char c = s[0], d = s[1];

    if (c >= 0xC2 && c <= 0xDF)
        return (d & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        bool ok = c == 0xE0 ? d >= 0xA0 && d <= 0xBF : c == 0xED ? d >= 0x80 && d <= 0x9F
                                                                 : (d & 0xC0) == 0x80;
        return ok && (s[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        bool ok = c == 0xF0 ? d >= 0x90 && d <= 0xBF : c == 0xF4 ? d >= 0x80 && d <= 0x8F
                                                                 : (d & 0xC0) == 0x80;
        return ok && (s[2] & 0xC0) == 0x80 && (s[3] & 0xC0) == 0x80 ? 4 : 0;
    }
    return 0;
}

/* Whether the `n` bytes at `s` are all ASCII, eight at a time: ids are ASCII, and the writer
 * checks every string it is handed. */
static bool ascii(const unsigned char *s, size_t n)
{
    uint64_t acc = 0, w;
    size_t i = 0;

    for (; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        acc |= w;
    }
    for (; i < n; i++)
        acc |= s[i];
    return (acc & 0x8080808080808080ull) == 0;
}

bool ctg_utf8_valid(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len;

    if (s == NULL)
        return true;
    len = strlen(str);
    if (ascii(s, len))
        return true;
    for (const unsigned char *end = s + len; s < end;) {
        size_t n = *s < 0x80 ? 1 : sequence(s);
        /* A NUL ends a sequence early and fails its continuation test: nothing reads past it. */
        if (n == 0)
            return false;
        s += n;
    }
    return true;
}
