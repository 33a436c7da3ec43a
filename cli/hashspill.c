/* SPDX-License-Identifier: MPL-2.0 */
/* Repeated 64-bit values in bounded memory: sorted runs on a temporary file, merged. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "hashspill.h"

/* The radix sort's digit: the top bits of each value. */
#define RADIX_BITS 18
#define RADIX_DIGITS ((size_t)1 << RADIX_BITS)

/* Values read at a time from each run during the merge. */
#define CURSOR_VALUES 2048

typedef struct cursor {
    uint64_t buf[CURSOR_VALUES];
    size_t len, pos;
    size_t left; /* values of the run not read yet */
    off_t next;  /* where they start */
} cursor;

static uint64_t mix(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    return h ^ (h >> 31);
}

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t w;

    memcpy(&w, p, 8);
    return w;
}

static inline uint64_t load32(const unsigned char *p)
{
    uint32_t w;

    memcpy(&w, p, 4);
    return w;
}

/* Ids are 8 to 16 bytes mostly: they take two overlapping words, two mixes and no copy of
 * a variable length (the length goes in first: with it, the overlapping words, or the three
 * bytes of a shorter key, tell every key of that length apart). Longer
 * keys take 16 bytes a round, then the last 16 (overlapping the round before). */
uint64_t cli_hash64(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data, *end = p + len;
    uint64_t h = seed * 0xd6e8feb86659fd93u ^ len * 0x9e3779b97f4a7c15u, a = 0, b = 0;

    if (len > 16) {
        for (; end - p > 16; p += 16)
            h = mix(mix(h ^ load64(p)) ^ load64(p + 8)) + 0x9e3779b97f4a7c15u;
        a = load64(end - 16);
        b = load64(end - 8);
    } else if (len >= 8) {
        a = load64(p);
        b = load64(end - 8);
    } else if (len >= 4) {
        a = load32(p);
        b = load32(end - 4);
    } else if (len > 0) {
        a = (uint64_t)p[0] | (uint64_t)p[len / 2] << 8 | (uint64_t)p[len - 1] << 16;
    }
    return mix(mix(h ^ a) ^ b);
}

int cli_spill_init(cli_spill *s)
{
    memset(s, 0, sizeof *s);
    s->buf = malloc(CLI_SPILL_RUN * sizeof *s->buf);
    s->tmp = malloc(CLI_SPILL_RUN * sizeof *s->tmp);
    s->counts = malloc((RADIX_DIGITS + 1) * sizeof *s->counts);
    return s->buf && s->tmp && s->counts ? 0 : (s->error = ENOMEM, -1);
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* Sorts `n` values (a bucket: a handful, the hashes being well mixed) by insertion, or by
 * qsort when there are many (hashes chosen to collide). */
static void sort_bucket(uint64_t *v, size_t n)
{
    if (n > 64) {
        qsort(v, n, sizeof *v, by_value);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        size_t j = i;

        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Radix sort of `n` values by their top RADIX_BITS bits, one counting pass and one scatter
 * into `tmp` (`n` values), then each bucket sorted on its own: where four 16-bit passes each
 * scattered the run over 65,536 places (a third of merge's time beside the hashing). 18 bits:
 * merge's id hashes leave the top one clear, so that a run of 2^20 of them falls into 131,072
 * buckets of some 8 values, whose insertion sorts cost far less than those of 16 (17 bits:
 * 106M instructions for the two sorts of a 256 MB merge, 84M with 18). `counts` has
 * RADIX_DIGITS + 1 places and is the spill's, not allocated (and faulted in) for each sort,
 * and the sorted values are used where they are, not copied back. Returns where they are:
 * `tmp`, or `v` itself. */
static uint64_t *radix_sort(uint64_t *v, uint64_t *tmp, size_t n, uint32_t *counts)
{
    uint32_t *end = counts + 1; /* end[k]: where bucket k ends, once scattered */

    if (n > UINT32_MAX) { /* beyond the counts' width: more than a run ever holds */
        qsort(v, n, sizeof *v, by_value);
        return v;
    }
    memset(counts, 0, (RADIX_DIGITS + 1) * sizeof *counts);
    for (size_t i = 0; i < n; i++)
        end[v[i] >> (64 - RADIX_BITS)]++;
    for (size_t k = 1; k < RADIX_DIGITS; k++)
        end[k] += end[k - 1];
    /* each bucket's start, moved to its end as the scatter fills it */
    memmove(end, counts, RADIX_DIGITS * sizeof *counts);
    counts[0] = 0;
    for (size_t i = 0; i < n; i++)
        tmp[end[v[i] >> (64 - RADIX_BITS)]++] = v[i];
    for (size_t k = 0; k < RADIX_DIGITS; k++)
        sort_bucket(tmp + counts[k], end[k] - counts[k]);
    return tmp;
}

/* Sorts the buffer and appends it to the file as a run. */
static int flush_run(cli_spill *s)
{
    const uint64_t *sorted;

    if (s->len == 0)
        return 0;
    if (s->fp == NULL && (s->fp = tmpfile()) == NULL)
        return s->error = errno ? errno : EIO, -1;
    if (s->runs == s->runs_cap) {
        size_t cap = s->runs_cap ? s->runs_cap * 2 : 16;
        size_t *p = realloc(s->run_len, cap * sizeof *p);

        if (p == NULL)
            return s->error = ENOMEM, -1;
        s->run_len = p;
        s->runs_cap = cap;
    }
    sorted = radix_sort(s->buf, s->tmp, s->len, s->counts);
    if (fseeko(s->fp, 0, SEEK_END) != 0 || fwrite(sorted, sizeof *sorted, s->len, s->fp) != s->len)
        return s->error = errno ? errno : EIO, -1;
    s->run_len[s->runs++] = s->len;
    s->len = 0;
    return 0;
}

int cli_spill_add_slow(cli_spill *s, uint64_t value)
{
    if (s->error)
        return -1;
    if (s->len == CLI_SPILL_RUN && flush_run(s) != 0)
        return -1;
    s->buf[s->len++] = value;
    return 0;
}

static int refill(cli_spill *s, cursor *c)
{
    size_t n = c->left < CURSOR_VALUES ? c->left : CURSOR_VALUES;

    if (fseeko(s->fp, c->next, SEEK_SET) != 0 || fread(c->buf, sizeof *c->buf, n, s->fp) != n)
        return s->error = errno ? errno : EIO, -1;
    c->len = n;
    c->pos = 0;
    c->left -= n;
    c->next += (off_t)(n * sizeof *c->buf);
    return 0;
}

static int push(uint64_t **out, size_t *count, size_t *cap, uint64_t v)
{
    if (*count == *cap) {
        size_t n = *cap ? *cap * 2 : 64;
        uint64_t *p = realloc(*out, n * sizeof *p);

        if (p == NULL)
            return -1;
        *out = p;
        *cap = n;
    }
    (*out)[(*count)++] = v;
    return 0;
}

/* The cursor with the smallest next value, or NULL when all are done. */
static cursor *smallest(cli_spill *s, cursor *cs)
{
    cursor *best = NULL;

    for (size_t i = 0; i < s->runs; i++) {
        cursor *c = &cs[i];

        if (c->pos == c->len && (c->left == 0 || refill(s, c) != 0))
            continue;
        if (best == NULL || c->buf[c->pos] < best->buf[best->pos])
            best = c;
    }
    return best;
}

static int merge_runs(cli_spill *s, cursor *cs, uint64_t **out, size_t *count)
{
    size_t cap = 0, seen = 0;
    uint64_t prev = 0;
    cursor *c;

    while ((c = smallest(s, cs)) != NULL && !s->error) {
        uint64_t v = c->buf[c->pos++];

        if (seen > 0 && v == prev && (*count == 0 || (*out)[*count - 1] != v) &&
            push(out, count, &cap, v) != 0)
            return s->error = ENOMEM, -1;
        prev = v;
        seen++;
    }
    return s->error ? -1 : 0;
}

/* All the values fit in the buffer: no file. */
static int repeated_in_buffer(cli_spill *s, uint64_t **out, size_t *count)
{
    const uint64_t *sorted = radix_sort(s->buf, s->tmp, s->len, s->counts);
    size_t cap = 0;

    for (size_t i = 1; i < s->len; i++) {
        uint64_t v = sorted[i];

        if (v == sorted[i - 1] && (*count == 0 || (*out)[*count - 1] != v) &&
            push(out, count, &cap, v) != 0) {
            free(*out);
            *out = NULL;
            *count = 0;
            return s->error = ENOMEM, -1;
        }
    }
    return 0;
}

int cli_spill_repeated(cli_spill *s, uint64_t **out, size_t *count)
{
    cursor *cs;
    off_t at = 0;
    int rc;

    *out = NULL;
    *count = 0;
    if (s->error)
        return -1;
    if (s->fp == NULL)
        return repeated_in_buffer(s, out, count);
    if (flush_run(s) != 0)
        return -1;
    cs = calloc(s->runs ? s->runs : 1, sizeof *cs);
    if (cs == NULL)
        return s->error = ENOMEM, -1;
    for (size_t i = 0; i < s->runs; i++) {
        cs[i].left = s->run_len[i];
        cs[i].next = at;
        at += (off_t)(s->run_len[i] * sizeof(uint64_t));
    }
    rc = merge_runs(s, cs, out, count);
    free(cs);
    if (rc != 0) {
        free(*out);
        *out = NULL;
        *count = 0;
    }
    return rc;
}

void cli_spill_dispose(cli_spill *s)
{
    free(s->buf);
    free(s->tmp);
    free(s->counts);
    free(s->run_len);
    if (s->fp != NULL)
        fclose(s->fp);
    memset(s, 0, sizeof *s);
}
