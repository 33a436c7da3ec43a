/* SPDX-License-Identifier: MPL-2.0 */
#include "json/emit.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/alloc.h"
#include "base/error_set.h"
#include "json/jdouble.h"

/* Output is assembled in one buffer and handed to the sink in large pieces. Every fast path
 * checks the room left once and then copies without further checks. After a failure `cap` is
 * 0, so every write takes the slow path, which sees the sticky status and does nothing. */

#define EMIT_BUF_SIZE ((size_t)64 * 1024)
/* CTG_EMIT_MAX_DEPTH (CTG_MAX_DEPTH_LIMIT + 64), spelled out for the message. */
#define EMIT_MAX_DEPTH_TEXT "4160"
_Static_assert(CTG_EMIT_MAX_DEPTH == 4160, "EMIT_MAX_DEPTH_TEXT must follow CTG_EMIT_MAX_DEPTH");
#define FIRST_WINDOW ((size_t)4096)

/* ",\n" and enough spaces for the deepest indent (2 per open object). */
#define SP16 "                "
#define SP64 SP16 SP16 SP16 SP16
#define SP256 SP64 SP64 SP64 SP64
#define SP2K SP256 SP256 SP256 SP256 SP256 SP256 SP256 SP256
const char ctg_emit_indent_text[] = ",\n" SP2K SP2K SP2K SP2K SP256;
_Static_assert(sizeof ctg_emit_indent_text >= 2 + 2 * CTG_EMIT_MAX_DEPTH + CTG_EMIT_COPY_BLOCK,
               "ctg_emit_indent_text must hold the deepest indent");

/* Bytes that a JSON string cannot hold as they are: 1 for a short escape, 2 for \u00XX. */
static const unsigned char escape_kind[256] = {
    2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 1, 1, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

static const char short_escape[0x60] = {
    ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
    ['"'] = '"', ['\\'] = '\\',
};

static const char hex_upper[] = "0123456789ABCDEF";

/* Records the first failure; `msg` (emitter failures) goes into err->message. */
void ctg_emit_fail(ctg_emitter *e, int code, const char *msg)
{
    if (e->status != CTG_OK)
        return;
    e->status = code;
    e->len = 0;
    e->cap = 0;
    if (e->err != NULL && msg != NULL)
        ctg_error_set(e->err, code, NULL, NULL, "%s", msg);
}

/* Window mode: commits what was written and takes a new window of at least `want` bytes. */
static bool next_window(ctg_emitter *e, size_t want)
{
    char *win = NULL;
    size_t avail = 0;
    int rc = e->window(e->ctx, e->len, want, &win, &avail, e->err);

    e->len = 0;
    if (rc != CTG_OK) {
        ctg_emit_fail(e, rc < 0 ? rc : CTG_EIO, NULL);
        return false;
    }
    e->buf = win;
    e->cap = avail;
    return true;
}

void ctg_emit_escape_astral(ctg_emitter *e)
{
    if (e->window == NULL)
        e->astral_escapes = true;
    else
        ctg_emit_fail(e, CTG_EINVAL, "surrogate escapes need an emitter with a sink");
}

/* Non-zero when one of the 8 bytes of `w` is 0xF0 or above, the lead byte of a character above
 * U+FFFF in valid UTF-8: its top four bits set (the shifts stay within each byte's bit 7). */
static inline uint64_t has_lead4(uint64_t w)
{
    return w & (w << 1) & (w << 2) & (w << 3) & 0x8080808080808080u;
}

static int sink_or_fail(ctg_emitter *e, const char *s, size_t n)
{
    int rc = n != 0 ? e->sink(e->ctx, s, n, e->err) : CTG_OK;

    if (rc != CTG_OK)
        ctg_emit_fail(e, rc < 0 ? rc : CTG_EIO, NULL); /* the sink wrote its own message */
    return rc;
}

/* The two escapes of the 4-byte UTF-8 sequence at `u` into `out` (12 bytes). */
static void surrogate_escapes(char *out, const unsigned char *u)
{
    uint32_t cp = ((uint32_t)(u[0] & 7) << 18 | (uint32_t)(u[1] & 63) << 12 |
                   (uint32_t)(u[2] & 63) << 6 | (u[3] & 63)) - 0x10000;
    uint32_t units[2] = { 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF) };

    for (int k = 0; k < 2; k++, out += 6) {
        memcpy(out, "\\u", 2);
        for (int d = 0; d < 4; d++)
            out[2 + d] = hex_upper[(units[k] >> (12 - 4 * d)) & 15];
    }
}

/* Whether one of the `n` bytes at `u` is 0xF0 or above. Nearly every piece has none (names and
 * ids are ASCII): checking it whole first, 64 bytes a step, keeps the byte loop of
 * flush_astral for the pieces that need it. */
static bool any_lead4(const unsigned char *u, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i top = _mm_set1_epi8((char)0xF0);

    for (; n - i >= 64; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(u + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(u + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(u + i + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(u + i + 48));
        /* max(x, 0xF0) == x exactly when x >= 0xF0 (unsigned) */
        __m128i m = _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(m, top), m)) != 0)
            return true;
    }
#endif
    for (; n - i >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, u + i, 8);
        if (has_lead4(w) != 0)
            return true;
    }
    for (; i < n; i++)
        if (u[i] >= 0xF0)
            return true;
    return false;
}

/* Whether `p` starts a well-formed 4-byte UTF-8 sequence (U+10000..U+10FFFF); anything else
 * passes through as it is, so a stray byte never swallows the bytes after it. */
static bool is_astral(const unsigned char *p)
{
    if (p[0] < 0xF0 || p[0] > 0xF4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 ||
        (p[3] & 0xC0) != 0x80)
        return false;
    return (p[0] != 0xF0 || p[1] >= 0x90) && (p[0] != 0xF4 || p[1] < 0x90);
}

/* flush_for with astral escapes: the buffer goes to the sink with each 4-byte sequence
 * replaced. A piece never ends inside a character (put_string slices at character starts, the
 * rest is ASCII), so the buffer is always sent whole. */
static bool flush_astral(ctg_emitter *e)
{
    const unsigned char *u = (const unsigned char *)e->buf;
    size_t n = e->len, i = 0, from = 0;
    char esc[12];

    e->len = 0;
    if (!any_lead4(u, n))
        return sink_or_fail(e, e->buf, n) == CTG_OK;
    while (i < n) {
        uint64_t w;

        if (n - i >= 8 && (memcpy(&w, u + i, 8), has_lead4(w) == 0)) {
            i += 8;
            continue;
        }
        if (n - i < 4 || !is_astral(u + i)) {
            i++;
            continue;
        }
        surrogate_escapes(esc, u + i);
        if (sink_or_fail(e, e->buf + from, i - from) != CTG_OK ||
            sink_or_fail(e, esc, sizeof esc) != CTG_OK)
            return false;
        i += 4;
        from = i;
    }
    return sink_or_fail(e, e->buf + from, n - from) == CTG_OK;
}

/* Hands the buffer to the sink (window mode: makes room for `want` bytes); false after any
 * failure. */
static bool flush_for(ctg_emitter *e, size_t want)
{
    int rc;

    if (e->status != CTG_OK)
        return false;
    if (e->window != NULL)
        return next_window(e, want);
    if (e->len == 0)
        return true;
    if (e->astral_escapes)
        return flush_astral(e);
    rc = e->sink(e->ctx, e->buf, e->len, e->err);
    e->len = 0;
    if (rc != CTG_OK) {
        /* The sink wrote its own message. */
        ctg_emit_fail(e, rc < 0 ? rc : CTG_EIO, NULL);
        return false;
    }
    return true;
}

static bool flush(ctg_emitter *e)
{
    return flush_for(e, EMIT_BUF_SIZE); /* what a window is asked for; a buffer ignores it */
}

static void put_slow(ctg_emitter *e, const char *s, size_t n)
{
    int rc;

    if (!flush_for(e, n > EMIT_BUF_SIZE ? n : EMIT_BUF_SIZE))
        return;
    if (n <= e->cap) {
        memcpy(e->buf, s, n);
        e->len = n;
        return;
    }
    if (e->window != NULL) {
        /* A window lends at least what was asked: only a broken window gets here. */
        ctg_emit_fail(e, CTG_EIO, "output window too small");
        return;
    }
    rc = e->sink(e->ctx, s, n, e->err);
    if (rc != CTG_OK)
        ctg_emit_fail(e, rc < 0 ? rc : CTG_EIO, NULL);
}

static inline void put(ctg_emitter *e, const char *s, size_t n)
{
    if (e->cap - e->len >= n) {
        memcpy(e->buf + e->len, s, n);
        e->len += n;
        return;
    }
    put_slow(e, s, n);
}

/* Room for `n` contiguous bytes in the buffer, or NULL (after a failure, or when `n` exceeds
 * the buffer). The caller advances e->len by what it wrote. */
static inline char *room(ctg_emitter *e, size_t n)
{
    if (e->cap - e->len >= n)
        return e->buf + e->len;
    if (n > EMIT_BUF_SIZE || !flush(e)) /* a larger buffer makes no request fail here */
        return NULL;
    return e->buf;
}


int ctg_emit_init(ctg_emitter *e, ctg_sink_fn sink, void *ctx, bool compact,
                  const ctg_allocator *a, ctg_error *err)
{
    return ctg_emit_init_sized(e, sink, ctx, compact, EMIT_BUF_SIZE, a, err);
}

int ctg_emit_init_sized(ctg_emitter *e, ctg_sink_fn sink, void *ctx, bool compact, size_t size,
                        const ctg_allocator *a, ctg_error *err)
{
    memset(e, 0, sizeof *e);
    e->sink = sink;
    e->ctx = ctx;
    e->alloc = a;
    e->compact = compact;
    e->err = err;
    /* Never below the default: the fast paths' room (a slice escaped, 6 * SLICE + 2) must fit. */
    e->size = size > EMIT_BUF_SIZE ? size : EMIT_BUF_SIZE;
    e->buf = ctg_mem_alloc(a, e->size);
    if (e->buf == NULL) {
        ctg_emit_fail(e, CTG_ENOMEM, "out of memory");
        return CTG_ENOMEM;
    }
    e->cap = e->size;
    return CTG_OK;
}

int ctg_emit_init_window(ctg_emitter *e, ctg_window_fn window, void *ctx, bool compact,
                         const ctg_allocator *a, ctg_error *err)
{
    memset(e, 0, sizeof *e);
    e->alloc = a; /* for the writers' scratch (extension text), never the window */
    e->window = window;
    e->ctx = ctx;
    e->compact = compact;
    e->err = err;
    e->size = EMIT_BUF_SIZE;
    /* A first window now, so that `buf` is never NULL; small, for small outputs. */
    next_window(e, FIRST_WINDOW);
    return e->status;
}

int ctg_emit_finish(ctg_emitter *e)
{
    flush_for(e, 0);
    return e->status;
}

void ctg_emit_dispose(ctg_emitter *e)
{
    if (e == NULL || e->buf == NULL || e->window != NULL)
        return;
    ctg_mem_release(e->alloc, e->buf, e->size);
    e->buf = NULL;
    e->len = 0;
    e->cap = 0;
}

/* ---- containers ----------------------------------------------------------------------- */

/* ctg_emitter.frame bits: a byte per level, so that no shift or mask of a bitset is needed. */
enum { FRAME_FIRST = 1, FRAME_OBJ = 2 };

static inline bool is_object(const ctg_emitter *e, unsigned level)
{
    return (e->frame[level] & FRAME_OBJ) != 0;
}

/* Whether the container at `level` has no item yet; it has one from now on. */
static inline bool take_first(ctg_emitter *e, unsigned level)
{
    bool first = (e->frame[level] & FRAME_FIRST) != 0;

    e->frame[level] &= (unsigned char)~FRAME_FIRST;
    return first;
}

/* The separator before a value at `p` (room for 2 bytes): nothing after a key or at the root;
 * in an array " " before the first item and ", " before the others (compact: "," only). NULL on
 * misuse (a value in an object without a key), with nothing written or changed. */
static inline char *sep_into(ctg_emitter *e, char *p)
{
    unsigned top;

    if (e->after_key) {
        e->after_key = false;
        return p;
    }
    if (e->depth == 0)
        return p;
    top = e->depth - 1;
    if (is_object(e, top))
        return NULL;
    if (!take_first(e, top))
        *p++ = ',';
    if (!e->compact)
        *p++ = ' ';
    return p;
}

static inline void before_value(ctg_emitter *e)
{
    char *p = room(e, 2), *q;

    if (p == NULL)
        return; /* a failure already: nothing more is written */
    q = sep_into(e, p);
    if (q == NULL) {
        ctg_emit_fail(e, CTG_EINVAL, "emitter: a value in an object needs a key");
        return;
    }
    e->len = (size_t)(q - e->buf);
}
static inline void push(ctg_emitter *e, bool is_obj)
{
    if (e->depth >= CTG_EMIT_MAX_DEPTH) {
        ctg_emit_fail(e, CTG_EINVAL, "emitter: nesting deeper than " EMIT_MAX_DEPTH_TEXT " levels");
        return;
    }
    e->frame[e->depth] = (unsigned char)(FRAME_FIRST | (is_obj ? FRAME_OBJ : 0));
    e->depth++;
    e->obj_depth += is_obj;
}

/* Closes the innermost container if it is of the kind asked; false otherwise. *empty tells
 * whether it had no item. */
static inline bool pop(ctg_emitter *e, bool is_obj, bool *empty)
{
    unsigned top;

    if (e->depth == 0 || e->after_key || is_object(e, e->depth - 1) != is_obj) {
        ctg_emit_fail(e, CTG_EINVAL,
                      is_obj ? "emitter: no object to end" : "emitter: no array to end");
        return false;
    }
    top = --e->depth;
    e->obj_depth -= is_obj;
    *empty = (e->frame[top] & FRAME_FIRST) != 0;
    return true;
}

void ctg_emit_object_begin(ctg_emitter *e)
{
    before_value(e);
    push(e, true);
    put(e, "{", 1);
}

/* "\n" + indent + "}" after the last member of an object. */
static void put_close(ctg_emitter *e)
{
    size_t n = 1 + 2 * (size_t)e->obj_depth;
    char *p = room(e, n + CTG_EMIT_COPY_BLOCK + 1);

    if (p == NULL) {
        put(e, ctg_emit_indent_text + 1, n);
        put(e, "}", 1);
        return;
    }
    p = ctg_emit_copy_upto32(p, ctg_emit_indent_text + 1, n);
    *p++ = '}';
    e->len = (size_t)(p - e->buf);
}

void ctg_emit_object_end(ctg_emitter *e)
{
    bool empty;

    if (!pop(e, true, &empty))
        return;
    if (e->compact)
        put(e, "}", 1);
    else if (empty)
        put(e, " }", 2);
    else
        put_close(e);
}

void ctg_emit_array_begin(ctg_emitter *e)
{
    before_value(e);
    push(e, false);
    put(e, "[", 1);
}

void ctg_emit_array_end(ctg_emitter *e)
{
    bool empty;

    if (!pop(e, false, &empty))
        return;
    if (e->compact)
        put(e, "]", 1);
    else
        put(e, " ]", 2);
}

/* ---- strings -------------------------------------------------------------------------- */

/* Strings up to this length are escaped straight into the buffer in one piece. */
#define SLICE (EMIT_BUF_SIZE / 8)
_Static_assert(SLICE == CTG_EMIT_RAW_SLICE, "one slice for the emitter and its header");

/* Non-zero when one of the 8 bytes of `w` needs escaping (< 0x20, '"' or '\\'). The borrows
 * of these tests can flag a byte next to one that needs escaping, never a word without one,
 * so zero is exact: the word can be copied as it is. */
static inline uint64_t needs_escape(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t quote = w ^ (ones * '"'), bslash = w ^ (ones * '\\');

    return ((w - ones * 0x20) | (quote - ones) | (bslash - ones)) & ~w & high;
}

static char *escape_byte(char *p, unsigned char c)
{
    switch (escape_kind[c]) {
    case 0:
        *p++ = (char)c;
        break;
    case 1:
        *p++ = '\\';
        *p++ = short_escape[c];
        break;
    default:
        memcpy(p, "\\u00", 4);
        p[4] = hex_upper[c >> 4];
        p[5] = hex_upper[c & 15];
        p += 6;
    }
    return p;
}

#if defined(__SSE2__)
/* Bit k set when byte k of `v` needs escaping: '"', '\\', or at most 0x1F (unsigned: the
 * bytes of non-ASCII characters are written as they are). */
static inline unsigned escape_mask16(__m128i v)
{
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash));

    return (unsigned)_mm_movemask_epi8(_mm_or_si128(m, ctl));
}

static inline __m128i load16(const char *s)
{
    return _mm_loadu_si128((const __m128i *)(const void *)s);
}

static inline void store16(char *p, __m128i v)
{
    _mm_storeu_si128((__m128i *)(void *)p, v);
}
#endif

/* The general case of escape_into, from byte `i` on. Blocks without a byte to escape are
 * copied whole; a block with one is copied whole too (the output has room for 6 bytes per
 * input byte, and the bytes after the escape are written again), then the escape. */
static char *escape_from(char *p, const char *s, size_t n, size_t i)
{
    while (i < n) {
#if defined(__SSE2__)
        if (n - i >= 16) {
            __m128i v = load16(s + i);
            unsigned m = escape_mask16(v);
            size_t k = m == 0 ? 16 : (size_t)__builtin_ctz(m);

            store16(p, v);
            p += k;
            i += k;
            if (m != 0)
                p = escape_byte(p, (unsigned char)s[i++]);
            continue;
        }
#endif
        if (n - i >= 8) {
            uint64_t w;

            memcpy(&w, s + i, 8);
            if (needs_escape(w) == 0) {
                memcpy(p, &w, 8);
                p += 8;
                i += 8;
                continue;
            }
        }
        p = escape_byte(p, (unsigned char)s[i++]);
    }
    return p;
}

#if defined(__SSE2__)
/* The 8 to 16 bytes at `s` copied to `p` as two overlapping words, checked at once; false,
 * nothing written, when one needs escaping. */
static inline bool plain_8to16(char *p, const char *s, size_t n)
{
    __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)s);
    __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(s + n - 8));

    if (escape_mask16(_mm_unpacklo_epi64(a, b)) != 0)
        return false;
    _mm_storel_epi64((__m128i *)(void *)p, a);
    _mm_storel_epi64((__m128i *)(void *)(p + n - 8), b);
    return true;
}

/* escape_into for 8 bytes or more: one 16-byte check covers up to 16 bytes (two overlapping
 * words up to 16, the last block overlapping the one before above), with no read outside
 * the string. Nothing escaped so far means output and input offsets agree. */
static char *escape_long(char *p, const char *s, size_t n)
{
    size_t i = 0;
    __m128i v;

    if (n <= 16)
        return plain_8to16(p, s, n) ? p + n : escape_from(p, s, n, 0);
    for (; n - i > 16; i += 16) {
        v = load16(s + i);
        if (escape_mask16(v) != 0)
            return escape_from(p + i, s, n, i);
        store16(p + i, v);
    }
    v = load16(s + n - 16);
    if (escape_mask16(v) != 0)
        return escape_from(p + i, s, n, i);
    store16(p + n - 16, v);
    return p + n;
}
#else
/* escape_into for 8 bytes or more, a word of 8 at a time; the last word overlaps the one
 * before. */
static char *escape_long(char *p, const char *s, size_t n)
{
    size_t i = 0;
    uint64_t w;

    for (; n - i >= 8; i += 8) {
        memcpy(&w, s + i, 8);
        if (needs_escape(w) != 0)
            return escape_from(p + i, s, n, i);
        memcpy(p + i, &w, 8);
    }
    if (i < n) {
        memcpy(&w, s + n - 8, 8);
        if (needs_escape(w) != 0)
            return escape_from(p + i, s, n, i);
        memcpy(p + n - 8, &w, 8);
    }
    return p + n;
}
#endif

/* Writes the escaped form of `n` bytes at `s` to `p` (room for 6 * n bytes); returns the end.
 * Ids and names rarely need escaping, so the fast paths check whole blocks and hand over to
 * escape_from at the first block that holds a byte to escape. */
static inline char *escape_into(char *p, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    if (n >= 8)
        return escape_long(p, s, n);
    if (n >= 4) {
        /* Element type names and short ids: two overlapping words of 4 bytes. */
        uint32_t a, b;

        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        if (needs_escape(a | (uint64_t)b << 32) != 0)
            return escape_from(p, s, n, 0);
        memcpy(p, &a, 4);
        memcpy(p + n - 4, &b, 4);
        return p + n;
    }
    while (i < n && escape_kind[u[i]] == 0) {
        p[i] = s[i];
        i++;
    }
    return i == n ? p + n : escape_from(p + i, s, n, i);
}

/* The quoted string, escaped, at `p` (room for 6 * n + 2 bytes); returns the end. */
static inline char *quote_into(char *p, const char *s, size_t n)
{
    *p++ = '"';
    p = escape_into(p, s, n);
    *p++ = '"';
    return p;
}

/* The quoted string, escaped. A string too long for the buffer goes through in slices. */
static inline void put_string(ctg_emitter *e, const char *s, size_t n)
{
    char *p;

    if (n <= SLICE) {
        p = room(e, 6 * n + 2);
        if (p != NULL)
            e->len = (size_t)(quote_into(p, s, n) - e->buf);
        return;
    }
    put(e, "\"", 1);
    for (size_t off = 0, k; off < n; off += k) {
        k = n - off < SLICE ? n - off : SLICE;
        /* Slices start at a character (a continuation byte is 10xxxxxx), so that a character
         * is never split between two pieces of the output (flush_astral needs it whole). */
        while (off + k < n && k > 4 && ((unsigned char)s[off + k] & 0xC0) == 0x80)
            k--;
        p = room(e, 6 * (size_t)SLICE);
        if (p == NULL)
            return;
        e->len = (size_t)(escape_into(p, s + off, k) - e->buf);
    }
    put(e, "\"", 1);
}

/* The separator and indent before a member, the quoted key and its colon, in one piece. */
/* The separator and indent before a member of an object at `depth` (objects open, itself
 * included), at `p` (room: CTG_EMIT_BREAK_ROOM). */
static inline char *member_sep_into(const ctg_emitter *e, char *p, bool first, size_t depth)
{
    if (e->compact) {
        *p = ',';
        return p + !first;
    }
    return ctg_emit_copy_upto32(p, ctg_emit_indent_text + first, 2 + 2 * depth - first);
}

/* The colon after a member's name. */
static inline char *colon_into(const ctg_emitter *e, char *p)
{
    if (e->compact) {
        *p = ':';
        return p + 1;
    }
    memcpy(p, " : ", 3);
    return p + 3;
}

static inline void put_key(ctg_emitter *e, bool first, const char *key, size_t len)
{
    size_t indent = e->compact ? 0 : 2 + 2 * (size_t)e->obj_depth - first;
    char *p = len <= SLICE ? room(e, indent + CTG_EMIT_COPY_BLOCK + 6 * len + 2 + 3) : NULL;

    if (p == NULL) {
        /* A huge key, or a failure already (then these do nothing). */
        if (e->compact)
            put(e, ",", first ? 0 : 1);
        else
            put(e, ctg_emit_indent_text + first, indent);
        put_string(e, key, len);
        put(e, e->compact ? ":" : " : ", e->compact ? 1 : 3);
        return;
    }
    p = member_sep_into(e, p, first, e->obj_depth);
    p = quote_into(p, key, len);
    e->len = (size_t)(colon_into(e, p) - e->buf);
}

void ctg_emit_key(ctg_emitter *e, const char *key, size_t len)
{
    unsigned top = e->depth - 1;
    bool first;

    if (e->depth == 0 || !is_object(e, top) || e->after_key) {
        ctg_emit_fail(e, CTG_EINVAL, "emitter: a key outside an object");
        return;
    }
    first = take_first(e, top);
    put_key(e, first, key, len);
    e->after_key = true;
}

/* The separator, indent, quoted name and colon of a member at `p` (room: CTG_EMIT_NAME_ROOM). */
static inline char *name_into(const ctg_emitter *e, char *p, bool first, size_t depth,
                              const ctg_key *name)
{
    p = member_sep_into(e, p, first, depth);
    memcpy(p, name->quoted, sizeof name->quoted); /* one fixed-size copy: the name is padded */
    return colon_into(e, p + name->len + 2);
}

/* Room for a member's name and `value` more bytes, the name written; NULL when the caller
 * must take the general path (misuse, a huge value, or a failure already). */
static inline char *member_room(ctg_emitter *e, const ctg_key *name, size_t value)
{
    unsigned top = e->depth - 1;
    bool first;
    char *p;

    if (e->depth == 0 || !is_object(e, top) || e->after_key || value > 6 * (size_t)SLICE + 2)
        return NULL;
    p = room(e, CTG_EMIT_NAME_ROOM(e->obj_depth) + value);
    if (p == NULL)
        return NULL;
    first = take_first(e, top);
    return name_into(e, p, first, e->obj_depth, name);
}

void ctg_emit_name_key(ctg_emitter *e, const ctg_key *name)
{
    char *p = member_room(e, name, 0);

    if (p == NULL) {
        ctg_emit_key(e, name->name, name->len);
        return;
    }
    e->len = (size_t)(p - e->buf);
    e->after_key = true;
}

void ctg_emit_member_string(ctg_emitter *e, const ctg_key *name, const char *s, size_t len)
{
    char *p = len <= SLICE ? member_room(e, name, 6 * len + 2) : NULL;

    if (p == NULL) {
        ctg_emit_key(e, name->name, name->len);
        ctg_emit_string(e, s, len);
        return;
    }
    e->len = (size_t)(quote_into(p, s, len) - e->buf);
}

/* Bytes string_object_into may write; 0 when the object must take the general path. */
static size_t string_object_room(const ctg_emitter *e, const ctg_emit_member *m, size_t count)
{
    size_t depth = (size_t)e->obj_depth + 1;
    /* The separator and "{", then the closing indent (shorter than a separator) and "}". */
    size_t need = 3 + CTG_EMIT_BREAK_ROOM(depth) + 1;

    if (count == 0 || e->depth >= CTG_EMIT_MAX_DEPTH)
        return 0;
    for (size_t i = 0; i < count; i++) {
        if (m[i].len > SLICE)
            return 0;
        need += CTG_EMIT_NAME_ROOM(depth) + 6 * m[i].len + 2;
    }
    return need <= EMIT_BUF_SIZE ? need : 0;
}

/* The members and the closing brace of a string object that opened at `p`. */
static char *string_object_into(const ctg_emitter *e, char *p, const ctg_emit_member *m,
                                size_t count)
{
    for (size_t i = 0; i < count; i++) {
        p = name_into(e, p, i == 0, (size_t)e->obj_depth + 1, m[i].name);
        p = quote_into(p, m[i].value, m[i].len);
    }
    if (!e->compact)
        p = ctg_emit_copy_upto32(p, ctg_emit_indent_text + 1, 1 + 2 * (size_t)e->obj_depth);
    *p++ = '}';
    return p;
}

void ctg_emit_string_object(ctg_emitter *e, const ctg_emit_member *m, size_t count)
{
    size_t need = string_object_room(e, m, count);
    char *p = need != 0 ? room(e, need) : NULL;

    if (p != NULL && (p = sep_into(e, p)) != NULL) {
        *p++ = '{';
        e->len = (size_t)(string_object_into(e, p, m, count) - e->buf);
        return;
    }
    ctg_emit_object_begin(e);
    for (size_t i = 0; i < count; i++)
        ctg_emit_member_string(e, m[i].name, m[i].value, m[i].len);
    ctg_emit_object_end(e);
}

void ctg_emit_string(ctg_emitter *e, const char *s, size_t len)
{
    before_value(e);
    put_string(e, s, len);
}

/* ---- scalars -------------------------------------------------------------------------- */

void ctg_emit_double(ctg_emitter *e, double v)
{
    char buf[CTG_DOUBLE_BUF];
    size_t n = ctg_format_double(v, buf);

    before_value(e);
    put(e, buf, n);
}

void ctg_emit_number_text(ctg_emitter *e, const char *s, size_t n)
{
    before_value(e);
    put(e, s, n);
}

void ctg_emit_int(ctg_emitter *e, int64_t v)
{
    char buf[24];
    char *p = buf + sizeof buf;
    /* Through uint64_t, so that INT64_MIN has a magnitude. */
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

    do {
        *--p = (char)('0' + m % 10);
        m /= 10;
    } while (m != 0);
    if (v < 0)
        *--p = '-';
    before_value(e);
    put(e, p, (size_t)(buf + sizeof buf - p));
}

void ctg_emit_bool(ctg_emitter *e, bool v)
{
    before_value(e);
    if (v)
        put(e, "true", 4);
    else
        put(e, "false", 5);
}

void ctg_emit_null(ctg_emitter *e)
{
    before_value(e);
    put(e, "null", 4);
}

/* ---- values laid out above -------------------------------------------------------------- */

/* The most a raw piece may ask for: far below the buffer, so that an empty buffer has it. */
#define RAW_MAX_NEED ((size_t)4096)

char *ctg_emit_raw_begin(ctg_emitter *e, unsigned levels, size_t need)
{
    char *p;

    if (e->compact || need > RAW_MAX_NEED || e->depth + levels > CTG_EMIT_MAX_DEPTH)
        return NULL;
    p = room(e, 2 + need);
    return p != NULL ? sep_into(e, p) : NULL;
}

void ctg_emit_raw_end(ctg_emitter *e, char *p)
{
    e->len = (size_t)(p - e->buf);
}

char *ctg_emit_raw_room_slow(ctg_emitter *e, char *p, size_t need)
{
    e->len = (size_t)(p - e->buf);
    return room(e, need);
}

char *ctg_emit_quoted_into(char *p, const char *s, size_t n)
{
#if defined(__SSE2__)
    /* Most ids: 8 to 16 bytes, two overlapping words checked at once, here rather than behind
     * another call. */
    if (n - 8 <= 8 && plain_8to16(p + 1, s, n)) {
        p[0] = '"';
        p[n + 1] = '"';
        return p + n + 2;
    }
#endif
    return quote_into(p, s, n);
}

char *ctg_emit_raw_string_slow(ctg_emitter *e, char *p, const char *s, size_t n)
{
    if (p == NULL)
        return NULL;
    e->len = (size_t)(p - e->buf);
    put_string(e, s, n);
    return e->status == CTG_OK ? e->buf + e->len : NULL;
}
