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
 * each change against those copies. When T cannot be read twice (neither input is a regular
 * file: a pipe), it is first copied to a temporary file in $TMPDIR (removed at the end and on a
 * signal), so that memory does not hold a list whole on any input.
 *
 * Memory still grows with the lists: the table holds one entry per contingency of T (about
 * 50 bytes and its id), and the copies of S's contingencies that differ are kept until T's
 * second read. */

#include <errno.h>
#include <fcntl.h>
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

static int sbuf_put(sbuf *b, const char *s, size_t n)
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
    char *t_spool; /* T copied to a temporary file when it is a pipe; else NULL */
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

/* Writes what changed between T's `tc` and S's copy into ev->details. */
static int describe(diff *d, event *ev, const ctg_contingency *tc)
{
    const ctg_contingency *sc = ctg_list_contingency_at(d->kept_s, ev->s_copy);
    const ctg_contingency *a = d->t_is_a ? tc : sc, *b = d->t_is_a ? sc : tc;
    const char *id = entry_id(&d->t, b_entry(d, ev));
    FILE *f = open_memstream(&ev->details, &ev->details_len);
    int rc;

    if (f == NULL)
        return -1;
    describe_name(d, f, ev, id, a, b);
    rc = describe_elements(d, f, ev, id, a, b);
    if (rc == 0)
        rc = describe_extensions(d, f, ev, id, a, b);
    if (ferror(f))
        rc = -1;
    return fclose(f) == 0 ? rc : -1;
}

/* A rename was chosen on equal element-set hashes: compares the sets themselves, and marks
 * the pair to undo when they differ. */
static int check_rename(diff *d, event *ev, const ctg_contingency *tc)
{
    if (cli_elemset_build(&d->set, tc) != 0
        || cli_elemset_build(&d->set2, ctg_list_contingency_at(d->kept_s, ev->s_copy)) != 0)
        return -1;
    ev->unpaired = d->set.key_len != d->set2.key_len
                   || memcmp(d->set.key, d->set2.key, d->set.key_len) != 0;
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
    if (spool != NULL)
        opts.source_name = path; /* errors name the pipe, not its copy */
    cli_progress_init(&d->progress, d->bar, cli_input_name(path));
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&d->progress);
    if (rc == CTG_ESTOPPED)
        rc = d->rc, err = d->err;
    if (rc == CTG_OK)
        return CLI_OK;
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

static void print_text_event(const diff *d, const event *ev)
{
    static const char *const word[] = { "added ", "removed ", NULL, "renamed " };

    if (ev->kind == EV_CHANGED)
        return;
    fputs(word[ev->kind], stdout);
    cli_put_escaped(stdout, entry_id(&d->t, ev->kind == EV_ADDED ? b_entry(d, ev)
                                                                 : a_entry(d, ev)));
    if (ev->kind == EV_RENAMED)
        fputs(" -> ", stdout), cli_put_escaped(stdout, entry_id(&d->t, b_entry(d, ev)));
    fputc('\n', stdout);
}

static void print_json_event(const diff *d, const event *ev)
{
    static const char *const word[] = { "added", "removed", NULL, "renamed" };

    if (ev->kind == EV_CHANGED)
        return;
    printf("{\"change\":\"%s\",\"id\":", word[ev->kind]);
    json_string(stdout, entry_id(&d->t, ev->kind == EV_REMOVED ? a_entry(d, ev)
                                                               : b_entry(d, ev)));
    if (ev->kind == EV_RENAMED)
        fputs(",\"from\":", stdout), json_string(stdout, entry_id(&d->t, a_entry(d, ev)));
    json_position(stdout, "a", ev->a_pos);
    json_position(stdout, "b", ev->b_pos);
    fputs("}\n", stdout);
}

static void print_events(diff *d)
{
    if (d->nev > 1) /* qsort's base must not be NULL, even for no item */
        qsort(d->ev, d->nev, sizeof *d->ev, event_cmp);
    for (size_t k = 0; k < d->nev; k++) {
        const event *ev = &d->ev[k];

        if (d->json)
            print_json_event(d, ev);
        else
            print_text_event(d, ev);
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
    if (d->t_spool != NULL) {
        unlink(d->t_spool);
        cli_signals_temp_file_at(1, NULL);
        free(d->t_spool);
    }
}

static bool regular_file(const char *path)
{
    struct stat st;

    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether `path` names something that can be read only once (a FIFO, a character device);
 * what does not exist or is a directory is left to the read, which says so. */
static bool is_pipe(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
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

/* Copies `in` to `out`; returns 0, or -1 with errno set. */
static int copy_fd(int in, int out)
{
    char chunk[65536];
    ssize_t n;

    while ((n = read(in, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(out, chunk + done, (size_t)(n - done));

            if (w < 0 && errno != EINTR)
                return -1;
            done += w > 0 ? w : 0;
        }
    }
    return 0;
}

/* T is a pipe, which cannot be read twice: copies it to a temporary file in $TMPDIR (or
 * /tmp), removed by diff_dispose and on a signal (slot 1: diff writes no output file). Its
 * bytes go as they are, compressed or not: the read finds out as it would on the pipe. */
static int spool_t(diff *d)
{
    const char *dir = getenv("TMPDIR");
    size_t len;
    int in, out, failed;

    dir = dir && *dir ? dir : "/tmp";
    len = strlen(dir) + sizeof "/ctg-diff-XXXXXX";
    if ((d->t_spool = malloc(len)) == NULL)
        return fail_nomem(d), report(d, d->rc, &d->err);
    snprintf(d->t_spool, len, "%s/ctg-diff-XXXXXX", dir);
    if ((out = mkstemp(d->t_spool)) < 0) {
        free(d->t_spool), d->t_spool = NULL;
        return report_errno(d, d->t_path, "cannot create a copy in $TMPDIR");
    }
    cli_signals_temp_file_at(1, d->t_spool);
    in = open(d->t_path, O_RDONLY);
    failed = in < 0 ? -1 : copy_fd(in, out);
    if (in >= 0)
        close(in);
    if (close(out) != 0 || failed != 0)
        return report_errno(d, d->t_path, in < 0 ? "cannot open" : "cannot copy");
    return CLI_OK;
}

static int run_diff(diff *d, const char *a, const char *b)
{
    int status;

    choose_sides(d, a, b);
    status = is_pipe(d->t_path) ? spool_t(d) : CLI_OK;
    if (status == CLI_OK)
        status = read_side(d, d->t_path, d->t_spool, on_t);
    if (status == CLI_OK)
        status = read_side(d, d->s_path, NULL, on_s);
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
    int status = cli_parse_options(cmd, argc, argv, &opts, &args);

    if (status != CLI_OK)
        return status;
    if (args.help)
        return cli_help(cmd);
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
    return cli_flush_stdout(status);
}
