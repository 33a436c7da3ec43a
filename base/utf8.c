/* SPDX-License-Identifier: MPL-2.0 */
/* UTF-8 encoding, shared by the lexer (escapes) and the identifier model (code points). */

#include "base/utf8.h"

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

size_t ctg_utf8_sequence(const unsigned char *s, size_t n, uint32_t *cp)
{
    static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    size_t len;
    uint32_t v;

    if (n == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : 2;
    if (s[0] < 0xC2 || s[0] > 0xF4 || n < len)
        return 0;
    v = s[0] & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3Fu);
    }
    if (v < min[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
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
        uint32_t cp;
        size_t n = ctg_utf8_sequence(s, (size_t)(end - s), &cp);
        if (n == 0)
            return false;
        s += n;
    }
    return true;
}
