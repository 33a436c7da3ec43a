/* SPDX-License-Identifier: MPL-2.0 */
/* The quick count of split --parts (see splitcount.h). In a `default` list of the plain
 * shape, the root and every contingency and element are objects and every contingency has
 * one "elements" array: the elements number the '{' less the '[' of the document, and the
 * contingencies the '[' less one. The count takes neither strings nor structure into account
 * (a '{' in an id makes it wrong, which the read that writes finds); it is fast for that: a
 * few memchr passes over each chunk. It is unsure when the shape may not be
 * plain in the way that matters: a first byte other than '{' or a blank (gzip, a byte order
 * mark), a backslash anywhere (a key spelt with escapes) or the word "extensions" anywhere. */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "splitcount.h"

/* 64 KiB a read(2), as the list reader's: the kernel's copy into a buffer this size costs a
 * quarter of its copy into one of 256 KiB (118 MB: 11 ms of system time against 45). */
#define SCAN_CHUNK (64 * 1024)
#define WORD "extensions"
#define WORD_LEN (sizeof WORD - 1)

typedef struct scan {
    uint64_t braces, brackets;
    bool started, unsure;
} scan;

/* How many `c` in `n` bytes at `p`: by memchr, which the C library vectorises; brackets are
 * some tens of bytes apart. */
static uint64_t count_byte(const char *p, size_t n, char c)
{
    const char *end = p + n;
    uint64_t count = 0;

    while ((p = memchr(p, c, (size_t)(end - p))) != NULL) {
        count++;
        p++;
    }
    return count;
}

/* What a chunk's pass finds besides the counts: a backslash (the scan is then unsure), an
 * 'x' (the word may be there). */
typedef struct seen {
    bool backslash, x;
} seen;

#if defined(__SSE2__)
/* The 16 bytes at `p`: their braces and brackets subtracted from the byte counters (a match
 * is -1), their backslashes and x's or-ed into `bs` and `ex`. One load for the four tests. */
#define TALLY16(p)                                                                             \
    do {                                                                                       \
        __m128i v_ = _mm_loadu_si128((const __m128i *)(const void *)(p));                      \
        cb = _mm_sub_epi8(cb, _mm_cmpeq_epi8(v_, brace));                                      \
        ck = _mm_sub_epi8(ck, _mm_cmpeq_epi8(v_, bracket));                                    \
        bs = _mm_or_si128(bs, _mm_cmpeq_epi8(v_, backslash));                                  \
        ex = _mm_or_si128(ex, _mm_cmpeq_epi8(v_, x));                                          \
    } while (0)

/* The 16 byte counters of `acc`, summed. */
static inline uint64_t total(__m128i acc)
{
    __m128i t = _mm_sad_epu8(acc, _mm_setzero_si128());

    return (uint64_t)_mm_cvtsi128_si32(t) + (uint64_t)_mm_extract_epi16(t, 4);
}

/* Both counts in one pass, 64 bytes a step with no call per brace (memchr's cost, a call for
 * every brace some tens of bytes apart, was most of the scan): each step subtracts its
 * matches (0 or -1 per byte) from byte counters, summed into the totals every 252 steps of
 * 16 bytes, before a counter can wrap. The same loads say whether a backslash or an 'x' is
 * there, which took two memchr passes more (18% of the scan's instructions); the step is
 * written out, 4 loads of 16 bytes, as the compiler left a loop of 16 bytes reloading each. */
static seen count_braces(scan *s, const char *p, size_t n)
{
    const __m128i brace = _mm_set1_epi8('{'), bracket = _mm_set1_epi8('[');
    const __m128i backslash = _mm_set1_epi8('\\'), x = _mm_set1_epi8('x');
    __m128i bs = _mm_setzero_si128(), ex = bs;
    size_t i = 0;
    seen found;

    while (n - i >= 64) {
        __m128i cb = _mm_setzero_si128(), ck = cb;
        size_t stop = i + ((n - i) / 64 < 63 ? (n - i) / 64 : 63) * 64;

        for (; i < stop; i += 64) {
            TALLY16(p + i);
            TALLY16(p + i + 16);
            TALLY16(p + i + 32);
            TALLY16(p + i + 48);
        }
        s->braces += total(cb);
        s->brackets += total(ck);
    }
    s->braces += count_byte(p + i, n - i, '{');
    s->brackets += count_byte(p + i, n - i, '[');
    found.backslash = _mm_movemask_epi8(bs) != 0 || memchr(p + i, '\\', n - i) != NULL;
    found.x = _mm_movemask_epi8(ex) != 0 || memchr(p + i, 'x', n - i) != NULL;
    return found;
}
#undef TALLY16
#else
static seen count_braces(scan *s, const char *p, size_t n)
{
    seen found = { memchr(p, '\\', n) != NULL, memchr(p, 'x', n) != NULL };

    s->braces += count_byte(p, n, '{');
    s->brackets += count_byte(p, n, '[');
    return found;
}
#endif

/* Whether the word is in `n` bytes at `p`: found by its 'x', a rare letter in ids. */
static bool has_word(const char *p, size_t n)
{
    const char *start = p, *end = p + n;

    while ((p = memchr(p, 'x', (size_t)(end - p))) != NULL) {
        if (p > start && (size_t)(end - p) >= WORD_LEN - 1 && memcmp(p - 1, WORD, WORD_LEN) == 0)
            return true;
        p++;
    }
    return false;
}

/* `n` new bytes at `p`, after `keep` bytes of the previous chunk (for a word across both). */
static void scan_chunk(scan *s, const char *p, size_t keep, size_t n)
{
    const char *fresh = p + keep;

    if (!s->started && n > 0) {
        s->started = true;
        s->unsure =
            *fresh != '{' && *fresh != ' ' && *fresh != '\t' && *fresh != '\n' && *fresh != '\r';
    }
    seen found = count_braces(s, fresh, n);

    /* an 'x' in the bytes kept from the chunk before may begin the word across both */
    found.x = found.x || memchr(p, 'x', keep) != NULL;
    s->unsure |= found.backslash || (found.x && has_word(p, keep + n));
}

bool cli_split_count(const char *path, uint64_t *elements, uint64_t *contingencies)
{
    scan s;
    char *chunk = malloc(WORD_LEN + SCAN_CHUNK);
    int fd = chunk ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    size_t keep = 0;
    ssize_t n = 1;
    struct stat st;

    memset(&s, 0, sizeof s);
    /* only a regular file: a FIFO read here would lose what the writing read needs */
    s.unsure = fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode));
    while (fd >= 0 && !s.unsure && n != 0) {
        n = read(fd, chunk + keep, SCAN_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        scan_chunk(&s, chunk, keep, (size_t)n);
        /* the last bytes, in case the word begins in them */
        size_t len = keep + (size_t)n, tail = len < WORD_LEN - 1 ? len : WORD_LEN - 1;
        memmove(chunk, chunk + len - tail, tail);
        keep = tail;
    }
    if (fd >= 0)
        close(fd);
    free(chunk);
    *elements = s.braces - s.brackets; /* checked by the caller's read, as a guess */
    *contingencies = s.brackets - 1;
    return fd >= 0 && n == 0 && !s.unsure && s.started && s.brackets > 0 && s.braces >= s.brackets;
}
