/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli diff [--match-elements] [--format text|json] A B: compares two `default`
 * lists by contingency id.
 *
 * Memory does not hold either list whole. One side, T (A, or B when A is stdin or not a
 * regular file), streams into a table of one small entry per contingency (32 bytes, the id in
 * a pool, a slot in a hash index): its id, a 64-bit keyed digest of its content (name, element
 * multiset, extensions by name with their JSON text in canonical form) and with
 * --match-elements one of its element set. The other side, S, then streams once against the
 * table: a contingency whose digest matches is equal and forgotten; only those that differ
 * (and, with --match-elements, those only in S) are copied. A second read of T then describes
 * each change against those copies. stdin and pipes, which cannot be read twice, are first
 * copied to a temporary file in $TMPDIR (removed at the end and on a signal).
 *
 * That table (about 50 bytes and the id per contingency of T) and those copies grow with the
 * lists: beyond 16 MB of input, the spill path below does the same work through temporary
 * files, in memory bounded on any size. */

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "elemset.h"

#define NONE SIZE_MAX

enum { FLAG_MATCH_ELEMENTS = 1u << 0 };

static const char *const diff_flags[] = { "--match-elements", NULL };
static const char *const diff_valued[] = { "--format", NULL };

/* ---- digests ----------------------------------------------------------------------------- */

/* SipHash (Aumasson and Bernstein), keyed with random bytes drawn at each run: a digest
 * decides that two contingencies are equal, so a list must not be able to forge a collision
 * (nor flood the id table) with a hash it could compute in advance. SipHash-1-3, the rounds
 * Rust's HashMap uses (SIP_C_ROUNDS 2 and SIP_D_ROUNDS 4 give SipHash-2-4 and its published
 * test vectors). Streamed, so that fields go in one after the other without a buffer. */
#define SIP_C_ROUNDS 1
#define SIP_D_ROUNDS 3

typedef struct sip_key {
    uint64_t k0, k1;
} sip_key;

typedef struct sip {
    uint64_t v0, v1, v2, v3;
    uint64_t tail; /* the bytes of an incomplete word, little-endian */
    size_t len;    /* bytes taken so far */
} sip;

static uint64_t rotl(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

static void sip_round(sip *h)
{
    h->v0 += h->v1, h->v1 = rotl(h->v1, 13), h->v1 ^= h->v0, h->v0 = rotl(h->v0, 32);
    h->v2 += h->v3, h->v3 = rotl(h->v3, 16), h->v3 ^= h->v2;
    h->v0 += h->v3, h->v3 = rotl(h->v3, 21), h->v3 ^= h->v0;
    h->v2 += h->v1, h->v1 = rotl(h->v1, 17), h->v1 ^= h->v2, h->v2 = rotl(h->v2, 32);
}

static void sip_init(sip *h, const sip_key *k)
{
    h->v0 = k->k0 ^ 0x736f6d6570736575u;
    h->v1 = k->k1 ^ 0x646f72616e646f6du;
    h->v2 = k->k0 ^ 0x6c7967656e657261u;
    h->v3 = k->k1 ^ 0x7465646279746573u;
    h->tail = 0;
    h->len = 0;
}

static void sip_word(sip *h, uint64_t m)
{
    h->v3 ^= m;
    for (int i = 0; i < SIP_C_ROUNDS; i++)
        sip_round(h);
    h->v0 ^= m;
}

static void sip_byte(sip *h, unsigned char b)
{
    h->tail |= (uint64_t)b << (8 * (h->len & 7));
    if ((++h->len & 7) == 0) {
        sip_word(h, h->tail);
        h->tail = 0;
    }
}

/* The 8 bytes at `p` as a little-endian word, on any host (compilers make it one load). */
static uint64_t load_le(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24
           | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48
           | (uint64_t)p[7] << 56;
}

static void sip_bytes(sip *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t i = 0;

    for (; i < len && (h->len & 7) != 0; i++)
        sip_byte(h, p[i]);
    for (; len - i >= 8; i += 8, h->len += 8)
        sip_word(h, load_le(p + i));
    for (; i < len; i++)
        sip_byte(h, p[i]);
}

static uint64_t sip_final(sip *h)
{
    sip_word(h, h->tail | (uint64_t)h->len << 56);
    h->v2 ^= 0xff;
    for (int i = 0; i < SIP_D_ROUNDS; i++)
        sip_round(h);
    return h->v0 ^ h->v1 ^ h->v2 ^ h->v3;
}

/* The key of one run: random bytes, or where the kernel has none to give yet, the clock and
 * the process id, which a list cannot know in advance either. */
static void draw_key(sip_key *k)
{
    struct timespec ts;

    if (getrandom(k, sizeof *k, GRND_NONBLOCK) == (ssize_t)sizeof *k)
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    k->k0 = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
    k->k1 = (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)k;
}

/* A word; the digests take theirs first, where they go in whole. */
static void sip_u64(sip *h, uint64_t v)
{
    if ((h->len & 7) != 0) {
        sip_bytes(h, &v, sizeof v);
        return;
    }
    sip_word(h, v);
    h->len += 8;
}

/* Each digest starts with whole words (the fast path) saying how long its strings are and
 * whether they are there, so that no two inputs give the same bytes. */
static uint64_t element_hash(const sip_key *k, const ctg_element *e)
{
    size_t id_len = strlen(e->id);
    sip h;

    sip_init(&h, k);
    sip_u64(&h, (uint64_t)e->type | (uint64_t)(e->voltage_level_id != NULL) << 8
                    | (uint64_t)id_len << 16);
    sip_bytes(&h, e->id, id_len);
    if (e->voltage_level_id) /* the rest: the final word counts every byte */
        sip_bytes(&h, e->voltage_level_id, strlen(e->voltage_level_id));
    return sip_final(&h);
}

/* ---- extensions in canonical form ------------------------------------------------------ */

/* A growing byte buffer. */
typedef struct sbuf {
    char *data;
    size_t len, cap;
} sbuf;

/* Room for `n` more bytes. */
static int sbuf_reserve(sbuf *b, size_t n)
{
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 256;
        char *p;

        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2)
                return -1;
            cap *= 2;
        }
        if ((p = realloc(b->data, cap)) == NULL)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    return 0;
}

static int sbuf_put(sbuf *b, const char *s, size_t n)
{
    if (sbuf_reserve(b, n) != 0)
        return -1;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}

/* The end of the string whose opening quote is at `p`, in the library's compact text. */
static const char *string_end(const char *p)
{
    for (p++; *p != '"'; p++) {
        if (*p == '\\')
            p++;
    }
    return p + 1;
}

/* One member of an object being put in canonical form. */
typedef struct member {
    const char *key; /* the quoted key, escaped as the library escapes every string */
    size_t key_len;
    sbuf value; /* its value, in canonical form */
} member;

static int member_cmp(const void *x, const void *y)
{
    const member *a = x, *b = y;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);

    return c != 0 ? c : (a->key_len > b->key_len) - (a->key_len < b->key_len);
}

static int canon_value(sbuf *out, const char *p, const char **end, unsigned depth);

/* Appends members[0..n) to `out` as {"k":v,...} and frees their values. */
static int put_members(sbuf *out, member *m, size_t n)
{
    int rc = sbuf_put(out, "{", 1);

    if (n > 1) /* m is NULL for {} */
        qsort(m, n, sizeof *m, member_cmp);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && i > 0)
            rc = sbuf_put(out, ",", 1);
        if (rc == 0)
            rc = sbuf_put(out, m[i].key, m[i].key_len);
        if (rc == 0)
            rc = sbuf_put(out, ":", 1);
        if (rc == 0)
            rc = sbuf_put(out, m[i].value.data, m[i].value.len);
        free(m[i].value.data);
    }
    return rc == 0 ? sbuf_put(out, "}", 1) : rc;
}

/* The object at `p`, its members sorted by key: JSON objects are unordered, and PowSyBl reads
 * extensions into maps and beans, so key order carries no meaning. */
static int canon_object(sbuf *out, const char *p, const char **end, unsigned depth)
{
    member *m = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;

    for (p++; rc == 0 && *p != '}'; n++) {
        if (n == cap) {
            member *grown = realloc(m, (cap = cap ? cap * 2 : 8) * sizeof *m);
            if (grown == NULL) {
                rc = -1;
                break;
            }
            m = grown;
        }
        m[n].key = p;
        p = string_end(p);
        m[n].key_len = (size_t)(p - m[n].key);
        m[n].value = (sbuf){ NULL, 0, 0 };
        rc = canon_value(&m[n].value, p + 1, &p, depth + 1);
        p += *p == ',';
    }
    rc = rc == 0 ? put_members(out, m, n) : rc;
    if (rc != 0) { /* put_members frees the values it reaches; on failure free them all */
        for (size_t i = 0; i < n && i < cap; i++)
            free(m[i].value.data);
    }
    free(m);
    *end = p + 1;
    return rc;
}

/* The value at `p` (the library's compact text, hence valid) in canonical form: objects with
 * their keys sorted, the rest as it is (strings escaped one way, numbers as written). The
 * read already refused nesting beyond its depth limit, so the recursion is bounded. */
static int canon_value(sbuf *out, const char *p, const char **end, unsigned depth)
{
    const char *start = p;
    int rc = 0;

    if (depth > CTG_MAX_DEPTH_LIMIT)
        return -1;
    if (*p == '{')
        return canon_object(out, p, end, depth);
    if (*p == '[') {
        rc = sbuf_put(out, "[", 1);
        for (p++; rc == 0 && *p != ']';) {
            rc = canon_value(out, p, &p, depth + 1);
            if (rc == 0 && *p == ',')
                rc = sbuf_put(out, ",", 1), p++;
        }
        *end = p + 1;
        return rc == 0 ? sbuf_put(out, "]", 1) : rc;
    }
    if (*p == '"')
        p = string_end(p);
    else
        while (*p != '\0' && *p != ',' && *p != ']' && *p != '}')
            p++;
    *end = p;
    return sbuf_put(out, start, (size_t)(p - start));
}

/* The canonical text of extension `x` in `out` (cleared first), NUL-terminated. */
static int canon_extension(sbuf *out, const ctg_extension *x)
{
    const char *end;

    out->len = 0;
    /* Without a registry every extension is kept as text; "null" stands for a value the read
     * did not keep, which a diff never asks for. */
    if (canon_value(out, x->json ? x->json : "null", &end, 0) != 0)
        return -1;
    return sbuf_put(out, "", 1) == 0 ? (out->len--, 0) : -1;
}

typedef struct digests {
    uint64_t content; /* name, element multiset, extensions; the id is not in it */
    uint64_t elems;   /* with --match-elements, the element set's (elemset.h); else 0 */
} digests;

/* The content digest of `c`. The elements' hashes are added, so their order does not count
 * and a duplicate counts twice; so are the extensions', which the read keeps unique by name. */
static int digest_of(const sip_key *k, const ctg_contingency *c, sbuf *scratch,
                     digests *out)
{
    uint64_t elems = 0, exts = 0;
    sip h;

    for (size_t i = 0; i < c->element_count; i++)
        elems += element_hash(k, &c->elements[i]);
    for (size_t i = 0; i < c->extension_count; i++) {
        if (canon_extension(scratch, &c->extensions[i]) != 0)
            return -1;
        sip_init(&h, k);
        sip_u64(&h, (uint64_t)strlen(c->extensions[i].name));
        sip_bytes(&h, c->extensions[i].name, strlen(c->extensions[i].name));
        sip_bytes(&h, scratch->data, scratch->len);
        exts += sip_final(&h);
    }
    sip_init(&h, k);
    sip_u64(&h, elems);
    sip_u64(&h, (uint64_t)c->element_count);
    sip_u64(&h, exts);
    sip_u64(&h, c->name != NULL);
    if (c->name)
        sip_bytes(&h, c->name, strlen(c->name));
    out->content = sip_final(&h);
    return 0;
}

/* ---- the table of ids -------------------------------------------------------------------- */

enum { IN_T = 1, IN_S = 2, CHANGED = 4, PAIRED = 8 };

/* One id. T's come first, in T's order, so that an entry of T's index is its position in T;
 * an id only in S has its position in its event. */
typedef struct entry {
    uint64_t digest; /* digests.content */
    uint64_t elems;  /* digests.elems: the element set's hash, with --match-elements */
    size_t id;       /* offset of the id in the pool */
    unsigned flags;
} entry;

typedef struct table {
    entry *e;
    size_t count, cap;
    size_t *slots; /* entry index + 1, 0 when free; a power of two, at most half full */
    size_t nslots;
    sbuf pool; /* the ids, each NUL-terminated */
    sip_key key; /* of every digest of this comparison */
} table;

static const char *entry_id(const table *t, size_t i)
{
    return t->pool.data + t->e[i].id;
}

static uint64_t id_hash(const table *t, const char *id)
{
    sip h;

    sip_init(&h, &t->key);
    sip_bytes(&h, id, strlen(id));
    return sip_final(&h);
}

/* The slot of `id`: the one holding its entry, or the free one where it would go. */
static size_t find_slot(const table *t, const char *id, uint64_t h)
{
    size_t mask = t->nslots - 1, s = (size_t)h & mask;

    while (t->slots[s] != 0 && strcmp(entry_id(t, t->slots[s] - 1), id) != 0)
        s = (s + 1) & mask;
    return s;
}

/* The entry of `id` (whose id_hash is `h`), or NONE. */
static size_t table_find(const table *t, const char *id, uint64_t h)
{
    return t->nslots ? t->slots[find_slot(t, id, h)] - 1 : NONE;
}

static int table_rehash(table *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 1024, *old = t->slots, oldn = t->nslots;

    if (n > SIZE_MAX / sizeof *t->slots || (t->slots = calloc(n, sizeof *t->slots)) == NULL) {
        t->slots = old;
        return -1;
    }
    t->nslots = n;
    for (size_t i = 0; i < oldn; i++) {
        if (old[i] != 0)
            t->slots[find_slot(t, entry_id(t, old[i] - 1), id_hash(t, entry_id(t, old[i] - 1)))] =
                old[i];
    }
    free(old);
    return 0;
}

/* Appends an entry for `id` (known absent; its id_hash is `h`). */
static int table_add(table *t, const char *id, uint64_t h, const digests *d, unsigned flags)
{
    size_t off = t->pool.len;

    if ((t->count + 1) * 2 > t->nslots && table_rehash(t) != 0)
        return -1;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        entry *e = cap <= SIZE_MAX / sizeof *e ? realloc(t->e, cap * sizeof *e) : NULL;
        if (e == NULL)
            return -1;
        t->e = e;
        t->cap = cap;
    }
    if (sbuf_put(&t->pool, id, strlen(id) + 1) != 0)
        return -1;
    t->e[t->count] = (entry){ d->content, d->elems, off, flags };
    t->slots[find_slot(t, id, h)] = ++t->count;
    return 0;
}

static void table_dispose(table *t)
{
    free(t->e);
    free(t->slots);
    free(t->pool.data);
}

/* ---- the comparison's state ------------------------------------------------------------ */

enum kind { EV_ADDED, EV_REMOVED, EV_CHANGED, EV_RENAMED };

/* One difference to print. */
typedef struct event {
    enum kind kind;
    size_t t_entry;      /* the entry of T's contingency, or NONE */
    size_t s_entry;      /* the entry of S's (the same as t_entry for EV_CHANGED), or NONE */
    size_t s_copy;       /* S's contingency in diff.kept_s, or NONE */
    size_t a_pos, b_pos; /* positions in A and B, NONE when absent there */
    char *details;       /* the lines that say what changed (open_memstream's) */
    size_t details_len;
    bool unpaired;       /* renamed on equal hashes of different element sets: undone */
} event;

/* An event whose description needs T's content, by T position. */
typedef struct need {
    size_t t_pos, event;
} need;

static int need_cmp(const void *x, const void *y)
{
    const need *a = x, *b = y;

    return (a->t_pos > b->t_pos) - (a->t_pos < b->t_pos);
}

typedef struct diff {
    cli_progress progress; /* first: the visitor's payload is also the bar's */
    cli_diag_format format;
    bool json, match, t_is_a, quiet, bar;
    const char *t_path, *s_path; /* as named on the command line */
    const char *path[2];         /* A and B, as named on the command line */
    char *spool[2];  /* A's and B's copies when they are stdin or a pipe; else NULL */
    char *t_spool, *s_spool; /* T's and S's of them */
    bool defer;      /* read_side leaves its error in rc and err, unprinted */
    struct spill *sp; /* the spill path's state, or NULL */
    const char *reading; /* the path being read, for errors */
    table t;
    sbuf scratch, scratch2;
    cli_elemset set, set2; /* --match-elements: the element sets being compared */
    ctg_list *kept_s; /* copies of S's contingencies that differ */
    event *ev;
    size_t nev, ev_cap;
    size_t pos;     /* position of the next contingency of the side being read */
    need *need;     /* pass 3: the events that need T's content, by T position */
    size_t nneed, cursor;
    const ctg_stream_place *at; /* where the contingency being read is */
    int (*on)(const ctg_stream_header *, const ctg_contingency *, void *); /* this read's */
    const char *code; /* the diagnostic code of the error, when not the status's */
    int rc;         /* why a callback stopped the read (a ctg status) */
    ctg_error err;  /* and its error */
} diff;

static void spill_free(struct spill *sp);

/* Stops a read: out of memory. */
static int fail_nomem(diff *d)
{
    d->rc = CTG_ENOMEM;
    memset(&d->err, 0, sizeof d->err);
    d->err.code = CTG_ENOMEM;
    snprintf(d->err.source, sizeof d->err.source, "%s", CLI_NAME " diff");
    snprintf(d->err.message, sizeof d->err.message, "out of memory");
    return 1;
}

/* Stops a read with an error about `path`'s content as a whole (no place in the text). */
static int fail_input(diff *d, const char *path, int code, const char *message)
{
    d->rc = code;
    memset(&d->err, 0, sizeof d->err);
    d->err.code = code;
    snprintf(d->err.source, sizeof d->err.source, "%s", cli_input_name(path));
    snprintf(d->err.message, sizeof d->err.message, "%s", message);
    return 1;
}

static int push_event(diff *d, const event *ev)
{
    if (d->nev == d->ev_cap) {
        size_t cap = d->ev_cap ? d->ev_cap * 2 : 64;
        event *p = cap <= SIZE_MAX / sizeof *p ? realloc(d->ev, cap * sizeof *p) : NULL;
        if (p == NULL)
            return -1;
        d->ev = p;
        d->ev_cap = cap;
    }
    d->ev[d->nev++] = *ev;
    return 0;
}

/* Copies `c` into `*list` (created on first use); its index in `*index`. */
static int keep_copy(ctg_list **list, const ctg_contingency *c, size_t *index)
{
    if (*list == NULL && ctg_list_new(list, CTG_LIST_DEFAULT, "kept", NULL) != CTG_OK)
        return -1;
    *index = ctg_list_contingency_count(*list);
    return ctg_list_add_contingency_copy(*list, c) == CTG_OK ? 0 : -1;
}

/* A ctg_visitor list callback: identifier and criterion lists name equipment by rules, not
 * contingencies by id, so there is nothing to match them by; refused rather than skipped. */
static int on_other_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    diff *d = payload;
    char message[160];

    (void)list;
    snprintf(message, sizeof message,
             "diff compares default lists only: this holds a list of kind \"%s\"",
             ctg_list_kind_name(h->kind));
    return fail_input(d, d->reading, CTG_EUNSUPPORTED, message);
}

/* A second contingency with the same id: diff matches by id, so it is refused, at the id's
 * place. Its path is known in a root `default` list and in one nested a level down. */
static int fail_duplicate(diff *d, const ctg_stream_header *h, const char *id)
{
    char message[CTG_ERROR_MESSAGE_MAX];

    snprintf(message, sizeof message,
             "contingency id \"%s\" is there twice: diff matches contingencies by id", id);
    fail_input(d, d->reading, CTG_ESCHEMA, message);
    d->code = "duplicate-id";
    d->err.line = d->at->id_line;
    d->err.column = d->at->id_column;
    if (h->depth == 0 && h->kind == CTG_LIST_DEFAULT)
        snprintf(d->err.path, sizeof d->err.path, "/contingencies/%zu/id", d->at->index);
    else if (h->depth == 1)
        snprintf(d->err.path, sizeof d->err.path, "/contingencyLists/%zu/contingencies/%zu/id",
                 h->index, d->at->index);
    return 1;
}

/* Sets the A and B positions of `ev` from T's and S's. */
static void set_positions(const diff *d, event *ev, size_t t_pos, size_t s_pos)
{
    ev->a_pos = d->t_is_a ? t_pos : s_pos;
    ev->b_pos = d->t_is_a ? s_pos : t_pos;
}

/* The position of S's contingency of `ev`. */
static size_t s_position(const diff *d, const event *ev)
{
    return d->t_is_a ? ev->b_pos : ev->a_pos;
}

static size_t a_entry(const diff *d, const event *ev)
{
    return d->t_is_a ? ev->t_entry : ev->s_entry;
}

static size_t b_entry(const diff *d, const event *ev)
{
    return d->t_is_a ? ev->s_entry : ev->t_entry;
}

/* ---- the reads ------------------------------------------------------------------------- */

/* The digests of `c`: its content's, and with --match-elements its element set's, the
 * definition merge --dedupe-equivalent uses (types and ids; order, sides and repeats aside). */
static int digests_of(diff *d, const ctg_contingency *c, digests *out)
{
    if (digest_of(&d->t.key, c, &d->scratch, out) != 0)
        return -1;
    out->elems = 0;
    if (d->match) {
        if (cli_elemset_build(&d->set, c) != 0)
            return -1;
        out->elems = cli_elemset_hash(&d->set);
    }
    return 0;
}

/* Pass 1: T into the table. */
static int on_t(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    diff *d = payload;
    uint64_t hash = id_hash(&d->t, c->id);
    digests dg;

    if (digests_of(d, c, &dg) != 0)
        return fail_nomem(d);
    if (table_find(&d->t, c->id, hash) != NONE)
        return fail_duplicate(d, h, c->id);
    if (table_add(&d->t, c->id, hash, &dg, IN_T) != 0)
        return fail_nomem(d);
    d->pos++;
    return 0;
}

/* Pass 2: S against the table. An id only in S gets an entry too, so that a duplicate in S
 * is caught and --match-elements finds its element digest. */
static int on_s(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    diff *d = payload;
    event ev = { EV_CHANGED, NONE, NONE, NONE, NONE, NONE, NULL, 0, false };
    uint64_t hash = id_hash(&d->t, c->id);
    size_t i = table_find(&d->t, c->id, hash);
    digests dg;
    bool copy = true;

    if (i != NONE && (d->t.e[i].flags & IN_S))
        return fail_duplicate(d, h, c->id);
    if (digests_of(d, c, &dg) != 0)
        return fail_nomem(d);
    if (i != NONE) {
        d->t.e[i].flags |= IN_S;
        if (d->t.e[i].digest == dg.content)
            return d->pos++, 0;
        d->t.e[i].flags |= CHANGED;
        ev.t_entry = ev.s_entry = i;
        set_positions(d, &ev, i, d->pos);
    } else {
        if (table_add(&d->t, c->id, hash, &dg, IN_S) != 0)
            return fail_nomem(d);
        ev.kind = d->t_is_a ? EV_ADDED : EV_REMOVED;
        ev.s_entry = d->t.count - 1;
        set_positions(d, &ev, NONE, d->pos);
        copy = d->match; /* only a renamed one is described */
    }
    if ((copy && keep_copy(&d->kept_s, c, &ev.s_copy) != 0) || push_event(d, &ev) != 0)
        return fail_nomem(d);
    d->pos++;
    return 0;
}

/* ---- saying what changed ----------------------------------------------------------------- */

/* `s` as a JSON string. The reader checked that every string is UTF-8. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;

        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_position(FILE *f, const char *key, size_t pos)
{
    if (pos != NONE)
        fprintf(f, ",\"%s\":%zu", key, pos);
}

/* The start of one change of contingency `id`: "changed ID: " or the JSON object's first
 * members. */
static void begin_change(const diff *d, FILE *f, const event *ev, const char *id,
                         const char *what)
{
    if (!d->json) {
        fputs("changed ", f);
        cli_put_escaped(f, id);
        fputs(": ", f);
        return;
    }
    fputs("{\"change\":\"changed\",\"id\":", f);
    json_string(f, id);
    json_position(f, "a", ev->a_pos);
    json_position(f, "b", ev->b_pos);
    fprintf(f, ",\"what\":\"%s\"", what);
}

/* `s` between single quotes, escaped. */
static void put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    cli_put_escaped(f, s);
    fputc('\'', f);
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void describe_name(const diff *d, FILE *f, const event *ev, const char *id,
                          const ctg_contingency *a, const ctg_contingency *b)
{
    if (same_text(a->name, b->name))
        return;
    begin_change(d, f, ev, id, "name");
    if (d->json) {
        if (a->name)
            fputs(",\"from\":", f), json_string(f, a->name);
        if (b->name)
            fputs(",\"to\":", f), json_string(f, b->name);
        fputs("}\n", f);
        return;
    }
    fputs("name ", f);
    put_quoted(f, a->name ? a->name : b->name);
    if (a->name && b->name)
        fputs(" -> ", f), put_quoted(f, b->name);
    fputs(a->name == NULL ? " added\n" : b->name == NULL ? " removed\n" : "\n", f);
}

/* An element: "TYPE ID" or "TYPE ID side VL" in text, an object in JSON. */
static void put_element(const diff *d, FILE *f, const ctg_element *e)
{
    if (d->json) {
        fputs("{\"id\":", f);
        json_string(f, e->id);
        fprintf(f, ",\"type\":\"%s\"", ctg_element_type_name(e->type));
        if (e->voltage_level_id)
            fputs(",\"voltageLevelId\":", f), json_string(f, e->voltage_level_id);
        fputc('}', f);
        return;
    }
    fprintf(f, "%s ", ctg_element_type_name(e->type));
    cli_put_escaped(f, e->id);
    if (e->voltage_level_id)
        fputs(" side ", f), cli_put_escaped(f, e->voltage_level_id);
}

/* One element change: `from` removed (to NULL), `to` added (from NULL), or one replaced by
 * the other; `side` when only the side differs. */
static void describe_element(const diff *d, FILE *f, const event *ev, const char *id,
                             const ctg_element *from, const ctg_element *to, bool side)
{
    begin_change(d, f, ev, id, side ? "side" : "element");
    if (d->json) {
        if (from)
            fputs(",\"from\":", f), put_element(d, f, from);
        if (to)
            fputs(",\"to\":", f), put_element(d, f, to);
        fputs("}\n", f);
    } else if (side) {
        fprintf(f, "element %s ", ctg_element_type_name(from->type));
        cli_put_escaped(f, from->id);
        fputs(": side ", f);
        cli_put_escaped(f, from->voltage_level_id ? from->voltage_level_id : to->voltage_level_id);
        if (from->voltage_level_id && to->voltage_level_id)
            fputs(" -> ", f), cli_put_escaped(f, to->voltage_level_id);
        fputs(!from->voltage_level_id ? " added\n" : !to->voltage_level_id ? " removed\n" : "\n",
              f);
    } else {
        fputs("element ", f);
        put_element(d, f, from ? from : to);
        if (from && to)
            fputs(" replaced by ", f), put_element(d, f, to);
        fputs(!from ? " added\n" : !to ? " removed\n" : "\n", f);
    }
}

/* Elements as a multiset orders them: type, id, then side (none first). */
static int element_cmp(const ctg_element *x, const ctg_element *y)
{
    int c;

    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    if ((c = strcmp(x->id, y->id)) != 0)
        return c;
    if (x->voltage_level_id == NULL || y->voltage_level_id == NULL)
        return (x->voltage_level_id != NULL) - (y->voltage_level_id != NULL);
    return strcmp(x->voltage_level_id, y->voltage_level_id);
}

static int element_ptr_cmp(const void *x, const void *y)
{
    return element_cmp(*(const ctg_element *const *)x, *(const ctg_element *const *)y);
}

/* Sets extra[i] for each element of `a` that `b` lacks, counting duplicates (as multisets),
 * and the same for `b` in extra[a->element_count + j]. */
static int element_extras(const ctg_contingency *a, const ctg_contingency *b, bool *extra)
{
    size_t na = a->element_count, nb = b->element_count, i = 0, j = 0;
    const ctg_element **sa = malloc((na + nb + 1) * sizeof *sa), **sb = sa + na;

    if (sa == NULL)
        return -1;
    for (size_t k = 0; k < na; k++)
        sa[k] = &a->elements[k];
    for (size_t k = 0; k < nb; k++)
        sb[k] = &b->elements[k];
    qsort(sa, na, sizeof *sa, element_ptr_cmp);
    qsort(sb, nb, sizeof *sb, element_ptr_cmp);
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : element_cmp(sa[i], sb[j]);

        if (c < 0)
            extra[sa[i++] - a->elements] = true;
        else if (c > 0)
            extra[na + (size_t)(sb[j++] - b->elements)] = true;
        else
            i++, j++;
    }
    free(sa);
    return 0;
}

/* Pairs each element only in `a` with one only in `b`: first the same element on another
 * side, then the others in their order; partner[i] is the index in `b`, or NONE. */
static void pair_elements(const ctg_contingency *a, const ctg_contingency *b, bool *extra,
                          bool *side, size_t *partner)
{
    size_t na = a->element_count, nb = b->element_count, j = 0;
    bool *extra_b = extra + na;

    for (size_t i = 0; i < na; i++) {
        partner[i] = NONE;
        for (size_t k = 0; extra[i] && k < nb && partner[i] == NONE; k++) {
            if (extra_b[k] && a->elements[i].type == b->elements[k].type
                && strcmp(a->elements[i].id, b->elements[k].id) == 0) {
                partner[i] = k;
                side[i] = true;
                extra_b[k] = false;
            }
        }
    }
    for (size_t i = 0; i < na; i++) {
        if (!extra[i] || partner[i] != NONE)
            continue;
        while (j < nb && !extra_b[j])
            j++;
        if (j == nb)
            break;
        partner[i] = j;
        extra_b[j] = false;
    }
}

/* The element changes, in A's order, then the elements added, in B's order. */
static int describe_elements(const diff *d, FILE *f, const event *ev, const char *id,
                             const ctg_contingency *a, const ctg_contingency *b)
{
    size_t na = a->element_count, nb = b->element_count;
    bool *extra = calloc(2 * na + nb + 1, sizeof *extra), *side = extra + na + nb;
    size_t *partner = malloc((na + 1) * sizeof *partner);
    int rc = extra && partner ? element_extras(a, b, extra) : -1;

    if (rc == 0) {
        pair_elements(a, b, extra, side, partner);
        for (size_t i = 0; i < na; i++) {
            if (extra[i])
                describe_element(d, f, ev, id, &a->elements[i],
                                 partner[i] == NONE ? NULL : &b->elements[partner[i]], side[i]);
        }
        for (size_t k = 0; k < nb; k++) {
            if (extra[na + k])
                describe_element(d, f, ev, id, NULL, &b->elements[k], false);
        }
    }
    free(extra);
    free(partner);
    return rc;
}

/* One extension change: text "extension 'NAME' added", JSON with its values. */
static void describe_extension(const diff *d, FILE *f, const event *ev, const char *id,
                               const char *name, const char *from, const char *to)
{
    begin_change(d, f, ev, id, "extension");
    if (d->json) {
        fputs(",\"name\":", f);
        json_string(f, name);
        if (from)
            fprintf(f, ",\"from\":%s", from);
        if (to)
            fprintf(f, ",\"to\":%s", to);
        fputs("}\n", f);
        return;
    }
    fputs("extension ", f);
    put_quoted(f, name);
    fputs(!from ? " added\n" : !to ? " removed\n" : " changed\n", f);
}

/* The extensions by name: removed or changed in A's order, then added in B's. */
static int describe_extensions(diff *d, FILE *f, const event *ev, const char *id,
                               const ctg_contingency *a, const ctg_contingency *b)
{
    for (size_t i = 0; i < a->extension_count; i++) {
        const ctg_extension *x = &a->extensions[i], *y = ctg_contingency_extension(b, x->name);

        if (canon_extension(&d->scratch, x) != 0
            || (y != NULL && canon_extension(&d->scratch2, y) != 0))
            return -1;
        if (y == NULL)
            describe_extension(d, f, ev, id, x->name, d->scratch.data, NULL);
        else if (strcmp(d->scratch.data, d->scratch2.data) != 0)
            describe_extension(d, f, ev, id, x->name, d->scratch.data, d->scratch2.data);
    }
    for (size_t i = 0; i < b->extension_count; i++) {
        const ctg_extension *y = &b->extensions[i];

        if (ctg_contingency_extension(a, y->name) != NULL)
            continue;
        if (canon_extension(&d->scratch2, y) != 0)
            return -1;
        describe_extension(d, f, ev, id, y->name, NULL, d->scratch2.data);
    }
    return 0;
}

/* Writes to `f` what changed from `a` to `b` (B's id `id`). */
static int describe_to(diff *d, FILE *f, const event *ev, const char *id,
                       const ctg_contingency *a, const ctg_contingency *b)
{
    describe_name(d, f, ev, id, a, b);
    if (describe_elements(d, f, ev, id, a, b) != 0)
        return -1;
    return describe_extensions(d, f, ev, id, a, b);
}

/* Writes what changed between T's `tc` and S's copy into ev->details. */
static int describe(diff *d, event *ev, const ctg_contingency *tc)
{
    const ctg_contingency *sc = ctg_list_contingency_at(d->kept_s, ev->s_copy);
    const ctg_contingency *a = d->t_is_a ? tc : sc, *b = d->t_is_a ? sc : tc;
    FILE *f = open_memstream(&ev->details, &ev->details_len);
    int rc;

    if (f == NULL)
        return -1;
    rc = describe_to(d, f, ev, entry_id(&d->t, b_entry(d, ev)), a, b);
    if (ferror(f))
        rc = -1;
    return fclose(f) == 0 ? rc : -1;
}

/* Whether `x` and `y` have the same element set (elemset.h). */
static int same_elements(diff *d, const ctg_contingency *x, const ctg_contingency *y,
                         bool *same)
{
    if (cli_elemset_build(&d->set, x) != 0 || cli_elemset_build(&d->set2, y) != 0)
        return -1;
    *same = d->set.key_len == d->set2.key_len
            && memcmp(d->set.key, d->set2.key, d->set.key_len) == 0;
    return 0;
}

/* A rename was chosen on equal element-set hashes: compares the sets themselves, and marks
 * the pair to undo when they differ. */
static int check_rename(diff *d, event *ev, const ctg_contingency *tc)
{
    bool same;

    if (same_elements(d, tc, ctg_list_contingency_at(d->kept_s, ev->s_copy), &same) != 0)
        return -1;
    ev->unpaired = !same;
    return 0;
}

/* Pass 3: T again, describing each change as its contingency comes. */
static int on_t_again(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    diff *d = payload;
    size_t p = d->pos++;

    (void)h;
    while (d->cursor < d->nneed) {
        event *ev = &d->ev[d->need[d->cursor].event];
        const entry *e = &d->t.e[ev->t_entry];
        digests dg;

        if (d->need[d->cursor].t_pos != p)
            break;
        if (digest_of(&d->t.key, c, &d->scratch, &dg) != 0)
            return fail_nomem(d);
        if (strcmp(c->id, entry_id(&d->t, ev->t_entry)) != 0 || dg.content != e->digest)
            return fail_input(d, d->reading, CTG_EIO, "changed while diff was reading it");
        if (ev->kind == EV_RENAMED && check_rename(d, ev, c) != 0)
            return fail_nomem(d);
        if (!ev->unpaired && describe(d, ev, c) != 0)
            return fail_nomem(d);
        d->cursor++;
    }
    return 0;
}

/* Prints an error as the format asks (JSON on stdout); returns 2: as diff(1), any error is 2,
 * since 1 says that the inputs differ. */
static int report(const diff *d, int rc, const ctg_error *err)
{
    cli_diag diag = cli_diag_from_error(err);

    if (d->code == NULL) {
        cli_diag_report(d->format, rc, err);
        return CLI_FAILURE;
    }
    diag.code = d->code;
    cli_diag_print(d->format == CLI_DIAG_JSON ? stdout : stderr, d->format, &diag);
    return CLI_FAILURE;
}

/* Reports a failed system call about `path` (errno says why); returns 2. */
static int report_errno(diff *d, const char *path, const char *what)
{
    char message[CTG_ERROR_MESSAGE_MAX];

    snprintf(message, sizeof message, "%s: %s", what, strerror(errno));
    fail_input(d, path, CTG_EIO, message);
    return report(d, d->rc, &d->err);
}

/* The visitor's callback: notes where `c` is, for errors, and hands it to this read's. */
static int on_contingency_at(const ctg_stream_header *h, const ctg_contingency *c,
                             const ctg_stream_place *at, void *payload)
{
    diff *d = payload;

    d->at = at;
    return d->on(h, c, d);
}

/* Reads `path` with `on` for each contingency, from its copy `spool` when not NULL; returns an
 * exit status (the error printed). */
static int read_side(diff *d, const char *path, const char *spool,
                     int (*on)(const ctg_stream_header *, const ctg_contingency *, void *))
{
    ctg_source src = cli_source(spool ? spool : path);
    ctg_read_options opts = cli_read_options(path);
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .list = on_other_list,
                      .progress = cli_progress_update,
                      .payload = d,
                      .contingency_at = on_contingency_at };
    ctg_error err;
    int rc;

    d->reading = path;
    d->on = on;
    d->pos = 0;
    cli_progress_init(&d->progress, d->bar, cli_input_name(path));
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&d->progress);
    if (rc == CTG_ESTOPPED)
        rc = d->rc, err = d->err;
    if (rc == CTG_OK)
        return CLI_OK;
    if (d->defer)
        return d->rc = rc, d->err = err, CLI_FAILURE;
    return report(d, rc, &err);
}

/* ---- after the reads ------------------------------------------------------------------- */

typedef struct by_elems {
    uint64_t elems;
    size_t entry;
} by_elems;

static int by_elems_cmp(const void *x, const void *y)
{
    const by_elems *a = x, *b = y;

    if (a->elems != b->elems)
        return a->elems < b->elems ? -1 : 1;
    return (a->entry > b->entry) - (a->entry < b->entry);
}

/* The first unpaired id only in T with element digest `elems`, or NONE. */
static size_t find_partner(const diff *d, const by_elems *t_only, size_t n, uint64_t elems)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t_only[mid].elems < elems)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && t_only[lo].elems == elems; lo++) {
        if (!(d->t.e[t_only[lo].entry].flags & PAIRED))
            return t_only[lo].entry;
    }
    return NONE;
}

/* --match-elements: each id only in S takes, in S's order, the first id only in T (in T's
 * order) with the same element multiset that no earlier one took. */
static int pair_renames(diff *d)
{
    by_elems *t_only = malloc((d->t.count + 1) * sizeof *t_only);
    size_t n = 0;

    if (t_only == NULL)
        return -1;
    for (size_t i = 0; i < d->t.count; i++) {
        if ((d->t.e[i].flags & (IN_T | IN_S)) == IN_T)
            t_only[n++] = (by_elems){ d->t.e[i].elems, i };
    }
    qsort(t_only, n, sizeof *t_only, by_elems_cmp);
    for (size_t k = 0; k < d->nev; k++) {
        event *ev = &d->ev[k];
        size_t j = ev->kind == EV_CHANGED ? NONE
                   : find_partner(d, t_only, n, d->t.e[ev->s_entry].elems);

        if (j == NONE)
            continue;
        d->t.e[j].flags |= PAIRED;
        ev->kind = EV_RENAMED;
        ev->t_entry = j;
        set_positions(d, ev, j, s_position(d, ev));
    }
    free(t_only);
    return 0;
}

/* The ids only in T, as events; then the events whose description needs T's content. */
static int finish_events(diff *d)
{
    for (size_t i = 0; i < d->t.count; i++) {
        const entry *e = &d->t.e[i];
        event ev = { d->t_is_a ? EV_REMOVED : EV_ADDED, i, NONE, NONE, NONE, NONE, NULL, 0, false };

        if ((e->flags & (IN_T | IN_S | PAIRED)) != IN_T)
            continue;
        set_positions(d, &ev, i, NONE);
        if (push_event(d, &ev) != 0)
            return -1;
    }
    if (d->quiet)
        return 0; /* nothing is described */
    d->need = malloc((d->nev + 1) * sizeof *d->need);
    if (d->need == NULL)
        return -1;
    for (size_t k = 0; k < d->nev; k++) {
        const event *ev = &d->ev[k];

        if (ev->kind == EV_CHANGED
            || (ev->kind == EV_RENAMED
                && d->t.e[ev->t_entry].digest != d->t.e[ev->s_entry].digest))
            d->need[d->nneed++] = (need){ ev->t_entry, k };
    }
    qsort(d->need, d->nneed, sizeof *d->need, need_cmp);
    return 0;
}

/* Undoes the renames check_rename refused: an id only in S and one only in T again. */
static int undo_renames(diff *d)
{
    size_t n = d->nev;

    for (size_t k = 0; k < n; k++) {
        size_t j = d->ev[k].t_entry;
        event ev = { d->t_is_a ? EV_REMOVED : EV_ADDED, j, NONE, NONE, NONE, NONE, NULL, 0, false };

        if (!d->ev[k].unpaired)
            continue;
        d->t.e[j].flags &= ~(unsigned)PAIRED;
        d->ev[k].kind = d->t_is_a ? EV_ADDED : EV_REMOVED;
        d->ev[k].t_entry = NONE;
        d->ev[k].unpaired = false;
        set_positions(d, &d->ev[k], NONE, s_position(d, &d->ev[k]));
        set_positions(d, &ev, j, NONE);
        if (push_event(d, &ev) != 0)
            return -1;
    }
    return 0;
}

/* ---- the output ------------------------------------------------------------------------ */

/* B's order for what B has (added, changed, renamed), then A's order for what it lost. */
static int event_cmp(const void *x, const void *y)
{
    const event *a = x, *b = y;
    bool ra = a->kind == EV_REMOVED, rb = b->kind == EV_REMOVED;
    size_t pa = ra ? a->a_pos : a->b_pos, pb = rb ? b->a_pos : b->b_pos;

    if (ra != rb)
        return ra ? 1 : -1;
    return (pa > pb) - (pa < pb);
}

/* The line of an added, removed or renamed contingency: its ids in A (`a`) and B (`b`), NULL
 * where it is absent, and its positions there. */
static void print_line(const diff *d, enum kind kind, const char *a, const char *b,
                       size_t a_pos, size_t b_pos)
{
    static const char *const text[] = { "added ", "removed ", NULL, "renamed " };
    static const char *const json[] = { "added", "removed", NULL, "renamed" };

    if (!d->json) {
        fputs(text[kind], stdout);
        cli_put_escaped(stdout, kind == EV_ADDED ? b : a);
        if (kind == EV_RENAMED)
            fputs(" -> ", stdout), cli_put_escaped(stdout, b);
        fputc('\n', stdout);
        return;
    }
    printf("{\"change\":\"%s\",\"id\":", json[kind]);
    json_string(stdout, kind == EV_REMOVED ? a : b);
    if (kind == EV_RENAMED)
        fputs(",\"from\":", stdout), json_string(stdout, a);
    json_position(stdout, "a", a_pos);
    json_position(stdout, "b", b_pos);
    fputs("}\n", stdout);
}

static void print_event(const diff *d, const event *ev)
{
    size_t a = a_entry(d, ev), b = b_entry(d, ev);

    if (ev->kind != EV_CHANGED)
        print_line(d, ev->kind, a == NONE ? NULL : entry_id(&d->t, a),
                   b == NONE ? NULL : entry_id(&d->t, b), ev->a_pos, ev->b_pos);
}

static void print_events(diff *d)
{
    if (d->nev > 1) /* qsort's base must not be NULL, even for no item */
        qsort(d->ev, d->nev, sizeof *d->ev, event_cmp);
    for (size_t k = 0; k < d->nev && !cli_signals_pipe_broken(); k++) {
        const event *ev = &d->ev[k];

        print_event(d, ev);
        if (ev->details)
            fwrite(ev->details, 1, ev->details_len, stdout);
    }
}

static void diff_dispose(diff *d)
{
    for (size_t k = 0; k < d->nev; k++)
        free(d->ev[k].details);
    free(d->ev);
    free(d->need);
    free(d->scratch.data);
    free(d->scratch2.data);
    table_dispose(&d->t);
    cli_elemset_dispose(&d->set);
    cli_elemset_dispose(&d->set2);
    ctg_list_free(d->kept_s);
    for (int side = 0; side < 2; side++)
        cli_spool_remove(d->spool[side], side);
    spill_free(d->sp);
}

static bool regular_file(const char *path)
{
    struct stat st;

    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Which side is T: one that can be read twice, A when both can. */
static void choose_sides(diff *d, const char *a, const char *b)
{
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        d->t_is_a = strcmp(b, "-") == 0;
    else
        d->t_is_a = regular_file(a) || !regular_file(b);
    d->t_path = d->t_is_a ? a : b;
    d->s_path = d->t_is_a ? b : a;
}

/* ---- the spill path: memory bounded on any size ------------------------------------------ */

/* Beyond CLI_DIFF_SPILL_BYTES of input (gzip counted 16 times), the table above would outgrow
 * the 32 MB of issue 13, so nothing grows with the lists in memory; the work goes through
 * anonymous temporary files in $TMPDIR instead:
 *  - the scan: each side streams, one record per contingency (its id's keyed hash, its
 *    digests, its position, where its id is, the id itself) into one of SPILL_BUCKETS files
 *    by the id's hash;
 *  - the join, bucket by bucket (1/128 of the ids: 55,000 of 7 million): both sides' records
 *    are loaded and matched by id, compared as text, so that a hash collision costs nothing;
 *    an id twice in a side is found here. What each position is (same, changed, only in A,
 *    only in B) goes into a slot file per side, indexed by position (32 bytes a contingency,
 *    written where it belongs: no sort). With --match-elements the ids only on one side go
 *    into RENAME_BUCKETS files by element-set hash, then paired there (the n-th only in A with
 *    the n-th only in B of each element set: what the in-memory path's greedy pairing gives);
 *  - a read of A copies the contingencies a change of B needs into a store, and notes where
 *    in B's slots; a read of B prints, in B's order, what it added, renamed and changed (its
 *    A contingency loaded from the store); a last read of A prints what it removed.
 * Each later read checks each contingency's digest against the scan's. Pipes and stdin were
 * copied to $TMPDIR before (spool_inputs). CTG_DIFF_SPILL_BYTES (for tests only) sets the
 * threshold in bytes. */
#define CLI_DIFF_SPILL_BYTES ((uint64_t)16 << 20)
#define SPILL_BITS 7
#define SPILL_BUCKETS (1u << SPILL_BITS)
#define RENAME_BITS 6
#define RENAME_BUCKETS (1u << RENAME_BITS)
#define SLOT_CHUNK 256

enum { SL_SAME, SL_ADDED, SL_REMOVED, SL_CHANGED, SL_RENAMED };

/* One contingency as the scan writes it; its id's bytes follow. */
typedef struct rec {
    uint64_t idhash, content, elems, pos;
    uint64_t index, list_index; /* place->index, header->index: for a duplicate's error */
    uint32_t line, column, depth, kind, id_len, pad;
} rec;

/* What the join found about one position of a side. */
typedef struct slot {
    uint32_t kind;    /* SL_* */
    uint32_t differs; /* B's rename: the content differs too */
    uint64_t partner; /* the position on the other side */
    uint64_t digest;  /* this side's content digest, checked by the later reads */
    uint64_t offset;  /* B's change: its A contingency in the store, + 1 */
} slot;

/* A slot file, read in order through a chunk. */
typedef struct slots {
    FILE *f;
    slot buf[SLOT_CHUNK];
    uint64_t base;
    size_t n;
} slots;

/* An id only on one side, for --match-elements. */
typedef struct rn {
    uint64_t elems, pos, content;
    uint32_t side, pad;
} rn;

/* One bucket of one side, loaded. */
typedef struct loaded {
    rec *r;
    size_t *id; /* offset of each record's id in ids */
    size_t n, cap;
    sbuf ids;
    size_t *index; /* record + 1, 0 when free; a power of two, at most half full */
    size_t nindex;
    bool *matched;
} loaded;

/* A contingency loaded back from the store; free its three blocks with stored_free. */
typedef struct stored {
    ctg_contingency c;
    ctg_element *e;
    ctg_extension *x;
    sbuf text;
} stored;

typedef struct spill {
    FILE *bucket[2][SPILL_BUCKETS]; /* [0] A's, [1] B's; NULL until used */
    FILE *rename[RENAME_BUCKETS];
    slots sl[2];
    FILE *store;
    uint64_t count[2];   /* contingencies of each side */
    uint64_t need[3];    /* B's events, A's store entries, A's removed */
    int side;            /* being read */
    bool differ;
    bool has_dup[2];
    rec dup[2];          /* each side's first id seen twice */
    char *dup_id[2];
    loaded l[2];
    stored st;           /* the A contingency loaded from the store */
} spill;

/* A temporary file already unlinked: nothing to remove after a crash or a signal. */
static FILE *anon_file(void)
{
    char *path = cli_temp_template("ctg-diff");
    FILE *f;
    int fd;

    if (path == NULL)
        return NULL;
    fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    free(path);
    if (fd < 0)
        return NULL;
    if ((f = fdopen(fd, "w+")) == NULL)
        close(fd);
    return f;
}

/* Stops a read: a temporary file failed. */
static int fail_temp(diff *d)
{
    char message[CTG_ERROR_MESSAGE_MAX];

    snprintf(message, sizeof message, "cannot write a temporary file: %s", strerror(errno));
    return fail_input(d, cli_temp_dir(), CTG_EIO, message);
}

static int put_rec(diff *d, FILE **f, const void *data, size_t len, const void *more, size_t n)
{
    if (*f == NULL && (*f = anon_file()) == NULL)
        return fail_temp(d);
    if (fwrite(data, 1, len, *f) != len || (n > 0 && fwrite(more, 1, n, *f) != n))
        return fail_temp(d);
    return 0;
}

/* The scan's callback: one record per contingency. */
static int on_scan(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    diff *d = payload;
    spill *sp = d->sp;
    size_t len = strlen(c->id);
    digests dg;
    rec r;

    if (digests_of(d, c, &dg) != 0)
        return fail_nomem(d);
    r = (rec){ id_hash(&d->t, c->id), dg.content, dg.elems, d->pos, d->at->index, h->index,
               d->at->id_line, d->at->id_column, (uint32_t)h->depth, (uint32_t)h->kind,
               (uint32_t)len, 0 };
    d->pos++;
    sp->count[sp->side] = d->pos;
    return put_rec(d, &sp->bucket[sp->side][r.idhash >> (64 - SPILL_BITS)], &r, sizeof r,
                   c->id, len);
}

/* ---- slots --------------------------------------------------------------------------------- */

static int slot_put(diff *d, int side, uint64_t pos, const slot *s)
{
    spill *sp = d->sp;

    if (sp->sl[side].f == NULL && (sp->sl[side].f = anon_file()) == NULL)
        return fail_temp(d);
    if (pwrite(fileno(sp->sl[side].f), s, sizeof *s, (off_t)(pos * sizeof *s)) != sizeof *s)
        return fail_temp(d);
    return 0;
}

/* Slot `pos` of `side` (read in increasing positions); zero where none was written. */
static int slot_get(diff *d, int side, uint64_t pos, slot *out)
{
    slots *sl = &d->sp->sl[side];

    *out = (slot){ 0 }; /* also on failure: the optimiser cannot tell that it is not read */
    if (pos < sl->base || pos >= sl->base + sl->n) {
        ssize_t got = 0;

        sl->base = pos;
        if (sl->f != NULL
            && (got = pread(fileno(sl->f), sl->buf, sizeof sl->buf,
                            (off_t)(pos * sizeof *out))) < 0)
            return fail_temp(d);
        memset((char *)sl->buf + got, 0, sizeof sl->buf - (size_t)got);
        sl->n = SLOT_CHUNK;
    }
    *out = sl->buf[pos - sl->base];
    return 0;
}

/* ---- the join ------------------------------------------------------------------------------ */

static size_t loaded_find(const loaded *l, uint64_t h, const char *id)
{
    size_t mask = l->nindex - 1, s = (size_t)h & mask;

    while (l->index[s] != 0
           && (l->r[l->index[s] - 1].idhash != h
               || strcmp(l->ids.data + l->id[l->index[s] - 1], id) != 0))
        s = (s + 1) & mask;
    return s;
}

/* Appends the record `r` and its id read from `f`. */
static int loaded_add(loaded *l, const rec *r, FILE *f)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        rec *nr = realloc(l->r, cap * sizeof *nr);
        size_t *ni;

        if (nr == NULL)
            return -1;
        l->r = nr;
        if ((ni = realloc(l->id, cap * sizeof *ni)) == NULL)
            return -1;
        l->id = ni;
        l->cap = cap;
    }
    l->r[l->n] = *r;
    l->id[l->n++] = l->ids.len;
    if (sbuf_reserve(&l->ids, (size_t)r->id_len + 1) != 0
        || fread(l->ids.data + l->ids.len, 1, r->id_len, f) != r->id_len)
        return -1;
    l->ids.len += r->id_len;
    l->ids.data[l->ids.len++] = '\0';
    return 0;
}

/* Loads bucket `f` of `side` and indexes it; an id seen twice becomes the side's duplicate
 * when it comes earlier than the one known. */
static int load_bucket(diff *d, int side, FILE *f)
{
    spill *sp = d->sp;
    loaded *l = &sp->l[side];
    rec r;

    l->n = 0;
    l->ids.len = 0;
    if (f != NULL) {
        if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
            return fail_temp(d);
        while (fread(&r, sizeof r, 1, f) == 1) {
            if (loaded_add(l, &r, f) != 0)
                return ferror(f) ? fail_temp(d) : fail_nomem(d);
        }
        if (ferror(f))
            return fail_temp(d);
    }
    free(l->index);
    free(l->matched);
    for (l->nindex = 16; l->nindex < 2 * l->n; l->nindex *= 2)
        ;
    l->index = calloc(l->nindex, sizeof *l->index);
    l->matched = calloc(l->n + 1, sizeof *l->matched);
    if (l->index == NULL || l->matched == NULL)
        return fail_nomem(d);
    for (size_t i = 0; i < l->n; i++) {
        const char *id = l->ids.data + l->id[i];
        size_t s = loaded_find(l, l->r[i].idhash, id);

        if (l->index[s] == 0) {
            l->index[s] = i + 1;
            continue;
        }
        l->matched[i] = true; /* not compared: the list is refused */
        if (!sp->has_dup[side] || l->r[i].pos < sp->dup[side].pos) {
            char *copy = malloc(strlen(id) + 1);
            if (copy == NULL)
                return fail_nomem(d);
            free(sp->dup_id[side]);
            sp->dup_id[side] = strcpy(copy, id);
            sp->dup[side] = l->r[i];
            sp->has_dup[side] = true;
        }
    }
    return 0;
}

/* An id on one side only: its slot, and with --match-elements a record to pair. */
static int only_on(diff *d, int side, const rec *r)
{
    slot s = { side == 0 ? SL_REMOVED : SL_ADDED, 0, 0, r->content, 0 };
    rn x = { r->elems, r->pos, r->content, (uint32_t)side, 0 };

    d->sp->differ = true;
    d->sp->need[side == 0 ? 2 : 0]++;
    if (slot_put(d, side, r->pos, &s) != 0)
        return 1;
    if (!d->match)
        return 0;
    return put_rec(d, &d->sp->rename[r->elems >> (64 - RENAME_BITS)], &x, sizeof x, NULL, 0);
}

/* Bucket `k`: both sides loaded, each id of A looked up in B. */
static int join_bucket(diff *d, unsigned k)
{
    spill *sp = d->sp;
    loaded *a = &sp->l[0], *b = &sp->l[1];

    if (load_bucket(d, 0, sp->bucket[0][k]) != 0 || load_bucket(d, 1, sp->bucket[1][k]) != 0)
        return 1;
    for (size_t i = 0; i < a->n; i++) {
        const rec *x = &a->r[i], *y;
        size_t s;
        slot sa, sb;

        if (a->matched[i])
            continue;
        s = loaded_find(b, x->idhash, a->ids.data + a->id[i]);
        if (b->index[s] == 0) {
            if (only_on(d, 0, x) != 0)
                return 1;
            continue;
        }
        b->matched[b->index[s] - 1] = true;
        y = &b->r[b->index[s] - 1];
        if (x->content == y->content)
            continue;
        sa = (slot){ SL_CHANGED, 0, y->pos, x->content, 0 };
        sb = (slot){ SL_CHANGED, 0, x->pos, y->content, 0 };
        sp->differ = true;
        sp->need[0]++, sp->need[1]++;
        if (slot_put(d, 0, x->pos, &sa) != 0 || slot_put(d, 1, y->pos, &sb) != 0)
            return 1;
    }
    for (size_t j = 0; j < b->n; j++) {
        if (!b->matched[j] && only_on(d, 1, &b->r[j]) != 0)
            return 1;
    }
    return 0;
}

static int rn_cmp(const void *x, const void *y)
{
    const rn *a = x, *b = y;

    if (a->elems != b->elems)
        return a->elems < b->elems ? -1 : 1;
    if (a->side != b->side)
        return a->side < b->side ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* One group of equal element-set hashes, A's first: the n-th of A with the n-th of B. */
static int pair_group(diff *d, const rn *g, size_t n)
{
    size_t na = 0;

    while (na < n && g[na].side == 0)
        na++;
    for (size_t i = 0; i < na && na + i < n; i++) {
        const rn *x = &g[i], *y = &g[na + i];
        slot sa = { SL_RENAMED, 0, y->pos, x->content, 0 };
        slot sb = { SL_RENAMED, x->content != y->content, x->pos, y->content, 0 };

        d->sp->need[1]++, d->sp->need[2]--; /* B's added is renamed; A's in the store */
        if (slot_put(d, 0, x->pos, &sa) != 0 || slot_put(d, 1, y->pos, &sb) != 0)
            return 1;
    }
    return 0;
}

static int pair_bucket(diff *d, FILE *f)
{
    rn *v = NULL, x;
    size_t n = 0, cap = 0;
    int rc = 0;

    if (f == NULL)
        return 0;
    if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
        return fail_temp(d);
    while (fread(&x, sizeof x, 1, f) == 1) {
        if (n == cap) {
            rn *p = realloc(v, (cap = cap ? cap * 2 : 1024) * sizeof *v);
            if (p == NULL)
                return free(v), fail_nomem(d);
            v = p;
        }
        v[n++] = x;
    }
    if (ferror(f))
        return free(v), fail_temp(d);
    if (n > 1)
        qsort(v, n, sizeof *v, rn_cmp);
    for (size_t i = 0, j; rc == 0 && i < n; i = j) {
        for (j = i + 1; j < n && v[j].elems == v[i].elems; j++)
            ;
        rc = pair_group(d, v + i, j - i);
    }
    free(v);
    return rc;
}

/* The join, then the renames; 0, or 1 with the error in d. */
static int join_all(diff *d)
{
    spill *sp = d->sp;

    for (unsigned k = 0; k < SPILL_BUCKETS; k++) {
        if (join_bucket(d, k) != 0)
            return 1;
        for (int side = 0; side < 2; side++) {
            if (sp->bucket[side][k] != NULL)
                fclose(sp->bucket[side][k]);
            sp->bucket[side][k] = NULL;
        }
    }
    for (unsigned k = 0; d->match && k < RENAME_BUCKETS; k++) {
        if (pair_bucket(d, sp->rename[k]) != 0)
            return 1;
    }
    return 0;
}

/* ---- the store of A's contingencies -------------------------------------------------------- */

static int put_str(FILE *f, const char *s)
{
    return fwrite(s, 1, strlen(s) + 1, f) == strlen(s) + 1 ? 0 : -1;
}

/* Appends `c` to the store: its counts, then its strings, each NUL-terminated. */
static int store_put(FILE *f, const ctg_contingency *c)
{
    uint32_t head[3] = { (uint32_t)c->element_count, (uint32_t)c->extension_count,
                         c->name != NULL };
    int rc = fwrite(head, sizeof head, 1, f) == 1 ? put_str(f, c->id) : -1;

    if (rc == 0 && c->name)
        rc = put_str(f, c->name);
    for (size_t i = 0; rc == 0 && i < c->element_count; i++) {
        const ctg_element *e = &c->elements[i];
        uint32_t t[2] = { (uint32_t)e->type, e->voltage_level_id != NULL };

        rc = fwrite(t, sizeof t, 1, f) == 1 ? put_str(f, e->id) : -1;
        if (rc == 0 && e->voltage_level_id)
            rc = put_str(f, e->voltage_level_id);
    }
    for (size_t i = 0; rc == 0 && i < c->extension_count; i++) {
        uint32_t has = c->extensions[i].json != NULL;

        rc = fwrite(&has, sizeof has, 1, f) == 1 ? put_str(f, c->extensions[i].name) : -1;
        if (rc == 0 && has)
            rc = put_str(f, c->extensions[i].json);
    }
    return rc;
}

/* The next NUL-terminated string of `f` into st->text; its offset in `*at`. */
static int get_str(FILE *f, stored *st, size_t *at)
{
    int ch;

    *at = st->text.len;
    while ((ch = getc(f)) != EOF) {
        char b = (char)ch;
        if (sbuf_put(&st->text, &b, 1) != 0)
            return -1;
        if (ch == 0)
            return 0;
    }
    return -1;
}

static int store_get(FILE *f, uint64_t offset, stored *st)
{
    uint32_t head[3], t[2];
    size_t id, name = 0, *eid, *evl, *xn, *xj;
    int rc = 0;

    st->text.len = 0;
    if (fseeko(f, (off_t)offset, SEEK_SET) != 0 || fread(head, sizeof head, 1, f) != 1)
        return -1;
    free(st->e), free(st->x);
    st->e = calloc(head[0] + 1, sizeof *st->e);
    st->x = calloc(head[1] + 1, sizeof *st->x);
    eid = calloc(2 * ((size_t)head[0] + head[1]) + 1, sizeof *eid);
    evl = eid + head[0], xn = evl + head[0], xj = xn + head[1];
    if (st->e == NULL || st->x == NULL || eid == NULL || get_str(f, st, &id) != 0
        || (head[2] && get_str(f, st, &name) != 0))
        rc = -1;
    for (uint32_t i = 0; rc == 0 && i < head[0]; i++) {
        rc = fread(t, sizeof t, 1, f) == 1 && get_str(f, st, &eid[i]) == 0 ? 0 : -1;
        st->e[i].type = (ctg_element_type)t[0];
        evl[i] = SIZE_MAX;
        if (rc == 0 && t[1])
            rc = get_str(f, st, &evl[i]);
    }
    for (uint32_t i = 0; rc == 0 && i < head[1]; i++) {
        rc = fread(&t[0], sizeof t[0], 1, f) == 1 && get_str(f, st, &xn[i]) == 0 ? 0 : -1;
        xj[i] = SIZE_MAX;
        if (rc == 0 && t[0])
            rc = get_str(f, st, &xj[i]);
    }
    if (rc == 0) { /* the text is in place: its pointers can be taken */
        const char *base = st->text.data;

        for (uint32_t i = 0; i < head[0]; i++) {
            st->e[i].id = base + eid[i];
            st->e[i].voltage_level_id = evl[i] == SIZE_MAX ? NULL : base + evl[i];
        }
        for (uint32_t i = 0; i < head[1]; i++) {
            st->x[i].name = base + xn[i];
            st->x[i].json = xj[i] == SIZE_MAX ? NULL : base + xj[i];
            st->x[i].json_len = st->x[i].json ? strlen(st->x[i].json) : 0;
        }
        st->c = (ctg_contingency){ base + id, head[2] ? base + name : NULL,
                                   head[0] ? st->e : NULL, head[0], head[1] ? st->x : NULL,
                                   head[1] };
    }
    free(eid);
    return rc;
}

static void stored_free(stored *st)
{
    free(st->e);
    free(st->x);
    free(st->text.data);
}

/* ---- the later reads ----------------------------------------------------------------------- */

/* The slot of the contingency being read again, after checking that it is the one scanned. */
static int slot_again(diff *d, const ctg_contingency *c, slot *s)
{
    spill *sp = d->sp;
    uint64_t p = d->pos++;
    digests dg;

    *s = (slot){ 0 };
    if (p >= sp->count[sp->side])
        return fail_input(d, d->reading, CTG_EIO, "changed while diff was reading it");
    if (slot_get(d, sp->side, p, s) != 0)
        return 1;
    if (s->kind == SL_SAME)
        return 0;
    if (digest_of(&d->t.key, c, &d->scratch, &dg) != 0)
        return fail_nomem(d);
    if (dg.content != s->digest)
        return fail_input(d, d->reading, CTG_EIO, "changed while diff was reading it");
    return 0;
}

/* A's read for the store: each contingency that a change or rename of B needs. */
static int on_store(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    diff *d = payload;
    spill *sp = d->sp;
    uint64_t offset;
    slot s;

    (void)h;
    if (slot_again(d, c, &s) != 0)
        return 1;
    if (s.kind != SL_CHANGED && s.kind != SL_RENAMED)
        return 0;
    if (sp->store == NULL && (sp->store = anon_file()) == NULL)
        return fail_temp(d);
    offset = (uint64_t)ftello(sp->store) + 1;
    if (store_put(sp->store, c) != 0)
        return fail_temp(d);
    if (pwrite(fileno(sp->sl[1].f), &offset, sizeof offset,
               (off_t)(s.partner * sizeof s + offsetof(slot, offset))) != sizeof offset)
        return fail_temp(d);
    return 0;
}

/* A rename of B to its A contingency `a`: checked when the content differs (as the in-memory
 * path does), undone when the element sets differ (their hashes collided). */
static int print_renamed(diff *d, const ctg_contingency *a, const ctg_contingency *c,
                         const slot *s, uint64_t p)
{
    event ev = { EV_RENAMED, NONE, NONE, NONE, s->partner, p, NULL, 0, false };
    uint32_t removed = SL_REMOVED;
    bool same = true;

    if (s->differs && same_elements(d, a, c, &same) != 0)
        return fail_nomem(d);
    if (!same) {
        print_line(d, EV_ADDED, NULL, c->id, NONE, p);
        d->sp->need[2]++;
        return pwrite(fileno(d->sp->sl[0].f), &removed, sizeof removed,
                      (off_t)(s->partner * sizeof *s + offsetof(slot, kind))) == sizeof removed
                   ? 0
                   : fail_temp(d);
    }
    print_line(d, EV_RENAMED, a->id, c->id, s->partner, p);
    return s->differs && describe_to(d, stdout, &ev, c->id, a, c) != 0 ? fail_nomem(d) : 0;
}

/* B's read: what it added, renamed and changed, in its order. */
static int on_print_b(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    diff *d = payload;
    uint64_t p = d->pos;
    event ev = { EV_CHANGED, NONE, NONE, NONE, NONE, p, NULL, 0, false };
    slot s;

    (void)h;
    if (slot_again(d, c, &s) != 0)
        return 1;
    if (s.kind == SL_SAME)
        return 0;
    if (s.kind == SL_ADDED)
        return print_line(d, EV_ADDED, NULL, c->id, NONE, p), 0;
    if (s.offset == 0 || store_get(d->sp->store, s.offset - 1, &d->sp->st) != 0)
        return fail_temp(d);
    if (s.kind == SL_RENAMED)
        return print_renamed(d, &d->sp->st.c, c, &s, p);
    ev.a_pos = s.partner;
    return describe_to(d, stdout, &ev, c->id, &d->sp->st.c, c) != 0 ? fail_nomem(d) : 0;
}

/* A's last read: what it removed, in its order. The slots are read afresh: B's read may have
 * undone renames. */
static int on_print_a(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    diff *d = payload;
    uint64_t p = d->pos;
    slot s;

    (void)h;
    if (slot_again(d, c, &s) != 0)
        return 1;
    if (s.kind == SL_REMOVED)
        print_line(d, EV_REMOVED, c->id, NULL, p, NONE);
    return 0;
}

/* ---- the spill path's run ------------------------------------------------------------------ */

static void spill_free(spill *sp)
{
    if (sp == NULL)
        return;
    for (int side = 0; side < 2; side++) {
        for (unsigned k = 0; k < SPILL_BUCKETS; k++) {
            if (sp->bucket[side][k] != NULL)
                fclose(sp->bucket[side][k]);
        }
        if (sp->sl[side].f != NULL)
            fclose(sp->sl[side].f);
        free(sp->l[side].r);
        free(sp->l[side].id);
        free(sp->l[side].ids.data);
        free(sp->l[side].index);
        free(sp->l[side].matched);
        free(sp->dup_id[side]);
    }
    for (unsigned k = 0; k < RENAME_BUCKETS; k++) {
        if (sp->rename[k] != NULL)
            fclose(sp->rename[k]);
    }
    if (sp->store != NULL)
        fclose(sp->store);
    stored_free(&sp->st);
    free(sp);
}

/* Reads `side` with `on`; afterwards, a count other than the scan's is an input that changed. */
static int read_again(diff *d, int side,
                      int (*on)(const ctg_stream_header *, const ctg_contingency *, void *))
{
    int status;

    d->sp->side = side;
    for (int k = 0; k < 2; k++)
        d->sp->sl[k].n = 0; /* the slots may have been written since */
    status = read_side(d, d->path[side], d->spool[side], on);
    if (status == CLI_OK && d->pos != d->sp->count[side]) {
        fail_input(d, d->path[side], CTG_EIO, "changed while diff was reading it");
        return report(d, d->rc, &d->err);
    }
    return status;
}

/* The first id seen twice, T's before S's, as the in-memory path finds it; or CLI_OK. */
static int report_duplicate(diff *d, int t)
{
    for (int k = 0; k < 2; k++) {
        int side = k == 0 ? t : 1 - t;
        const rec *r = &d->sp->dup[side];
        ctg_stream_header h = { (ctg_list_kind)r->kind, NULL, NULL, r->depth, r->list_index,
                                NULL };
        ctg_stream_place at = { .index = r->index, .id_line = r->line, .id_column = r->column };

        if (!d->sp->has_dup[side])
            continue;
        d->reading = d->path[side];
        d->at = &at;
        fail_duplicate(d, &h, d->sp->dup_id[side]);
        return report(d, d->rc, &d->err);
    }
    return CLI_OK;
}

/* The scans, T's first; an error of a read is reported after an id seen twice before it. */
static int scan_sides(diff *d, int t)
{
    int status = CLI_OK, rc = 0;
    ctg_error err;

    d->defer = true;
    for (int k = 0; k < 2 && status == CLI_OK; k++) {
        d->sp->side = k == 0 ? t : 1 - t;
        status = read_side(d, d->path[d->sp->side], d->spool[d->sp->side], on_scan);
    }
    d->defer = false;
    if (status != CLI_OK)
        rc = d->rc, err = d->err;
    if (join_all(d) != 0)
        return report(d, d->rc, &d->err);
    if (report_duplicate(d, t) != CLI_OK)
        return CLI_FAILURE;
    return status == CLI_OK ? CLI_OK : report(d, rc, &err);
}

static int run_spill(diff *d)
{
    int t = d->t_is_a ? 0 : 1, status;

    if ((d->sp = calloc(1, sizeof *d->sp)) == NULL)
        return fail_nomem(d), report(d, d->rc, &d->err);
    status = scan_sides(d, t);
    if (status != CLI_OK || d->quiet)
        return status != CLI_OK ? status : d->sp->differ ? CLI_INVALID : CLI_OK;
    if (d->sp->need[1] > 0)
        status = read_again(d, 0, on_store);
    if (status == CLI_OK && d->sp->need[0] > 0)
        status = read_again(d, 1, on_print_b);
    if (status == CLI_OK && d->sp->need[2] > 0)
        status = read_again(d, 0, on_print_a);
    if (status != CLI_OK)
        return status;
    return d->sp->differ ? CLI_INVALID : CLI_OK;
}

/* Side `side` (0 A, 1 B) is stdin or a pipe, which cannot be read twice: copies it to a
 * temporary file in $TMPDIR (or /tmp), removed by diff_dispose and on a signal (slot `side`:
 * diff writes no output file). Its bytes go as they are, compressed or not: the read finds out
 * as it would on the pipe. */
static int spool_side(diff *d, int side)
{
    const char *path = d->path[side];
    bool in_stdin = strcmp(path, "-") == 0;
    int in = in_stdin ? STDIN_FILENO : open(path, O_RDONLY), saved;
    cli_spool_result r;

    if (in < 0)
        return report_errno(d, path, "cannot open");
    r = cli_spool(in, "ctg-diff", side, &d->spool[side]);
    saved = errno;
    if (!in_stdin)
        close(in);
    errno = saved;
    if (r == CLI_SPOOL_NOMEM)
        return fail_nomem(d), report(d, d->rc, &d->err);
    if (r == CLI_SPOOL_CREATE)
        return report_errno(d, path, "cannot create a copy in $TMPDIR");
    /* A copy that failed is removed with the others, by diff_dispose. */
    return r == CLI_SPOOL_COPY ? report_errno(d, path, "cannot copy") : CLI_OK;
}

/* The bytes of input the in-memory path would take: gzip counted 16 times, its usual ratio
 * on lists being 10 to 20. */
static uint64_t input_weight(const char *path)
{
    unsigned char magic[2] = { 0, 0 };
    struct stat st;
    FILE *f;

    if (stat(path, &st) != 0)
        return 0;
    if ((f = fopen(path, "rb")) != NULL) {
        if (fread(magic, 1, 2, f) != 2)
            magic[0] = 0;
        fclose(f);
    }
    return (uint64_t)st.st_size * (magic[0] == 0x1f && magic[1] == 0x8b ? 16 : 1);
}

/* Whether the inputs are too big for the in-memory path. */
static bool needs_spill(const diff *d)
{
    const char *env = getenv("CTG_DIFF_SPILL_BYTES");
    uint64_t limit = env && *env ? strtoull(env, NULL, 10) : CLI_DIFF_SPILL_BYTES, total = 0;

    for (int side = 0; side < 2; side++)
        total += input_weight(d->spool[side] ? d->spool[side] : d->path[side]);
    return total > limit;
}

static int run_diff(diff *d, const char *a, const char *b)
{
    int status;

    choose_sides(d, a, b);
    d->path[0] = a, d->path[1] = b;
    for (int side = 0; side < 2; side++) {
        if (cli_input_once(d->path[side])
            && (status = spool_side(d, side)) != CLI_OK)
            return status;
    }
    if (needs_spill(d))
        return run_spill(d);
    d->t_spool = d->spool[d->t_is_a ? 0 : 1];
    d->s_spool = d->spool[d->t_is_a ? 1 : 0];
    status = read_side(d, d->t_path, d->t_spool, on_t);
    if (status == CLI_OK)
        status = read_side(d, d->s_path, d->s_spool, on_s);
    if (status != CLI_OK)
        return status;
    if ((d->match && pair_renames(d) != 0) || finish_events(d) != 0)
        return fail_nomem(d), report(d, d->rc, &d->err);
    if (d->nneed > 0)
        status = read_side(d, d->t_path, d->t_spool, on_t_again);
    if (status == CLI_OK && d->cursor < d->nneed) {
        fail_input(d, d->t_path, CTG_EIO, "changed while diff was reading it");
        return report(d, d->rc, &d->err);
    }
    if (status == CLI_OK && undo_renames(d) != 0)
        return fail_nomem(d), report(d, d->rc, &d->err);
    if (status != CLI_OK)
        return status;
    if (!d->quiet)
        print_events(d);
    return d->nev > 0 ? CLI_INVALID : CLI_OK;
}

int cli_diff(const cli_command *cmd, int argc, char **argv)
{
    const char *values[] = { NULL };
    cli_options opts = { diff_flags, diff_valued, values };
    cli_args args;
    diff d;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    memset(&d, 0, sizeof d);
    if (cli_diag_format_parse(values[0], &d.format) != 0)
        return cli_usage_error(cmd, "--format takes text or json, not", values[0]);
    if (args.npos != 2)
        return cli_usage_error(cmd, args.npos < 2 ? "two lists are needed" : "too many arguments",
                               NULL);
    if (strcmp(args.pos[0], "-") == 0 && strcmp(args.pos[1], "-") == 0)
        return cli_usage_error(cmd, "only one of A and B may be stdin (\"-\")", NULL);
    d.json = d.format == CLI_DIAG_JSON;
    draw_key(&d.t.key);
    d.match = (args.flags & FLAG_MATCH_ELEMENTS) != 0;
    d.quiet = args.quiet;
    d.bar = !args.no_progress;
    status = run_diff(&d, args.pos[0], args.pos[1]);
    diff_dispose(&d);
    status = cli_flush_stdout(status);
    /* As diff(1): any error is 2, a closed pipe included, never "different". */
    return cli_signals_pipe_broken() ? CLI_FAILURE : status;
}
