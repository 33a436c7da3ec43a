/* SPDX-License-Identifier: MPL-2.0 */
/* The multi-threaded read of a large `default` list in PowSyBl's pretty layout:
 *
 *   {
 *     "type" : "default",
 *     "version" : "1.0",
 *     "name" : "list",
 *     "contingencies" : [ {
 *       ...
 *     }, {
 *       ...
 *     } ]
 *   }
 *
 * A raw newline is outside every string in valid JSON, so a line "  }, {" is a '}', a ',' and a
 * '{', and its indentation says it separates two contingencies. The header (everything before
 * the array's first item, and what follows the last one) is read as a document of its own by
 * the sequential reader; the items are cut at such lines into parts, each read by a thread as
 * the items of an array, into an arena of its own, and a part must be whole items ending at its
 * last byte. The calling thread takes every part's memory before any part starts, reads the
 * first part, then copies the others' items after the first part's as they come.
 * Indentation is only a hint: a cut at another depth leaves a part that is not a run of whole
 * items, which fails to read. Any failure declines, and the caller reads the input again with
 * one thread, so that an error is always the sequential read's. */

#include "format/read_parallel.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/pages.h"
#include "model/list_impl.h"
#include "format/kinds.h"
#include "format/read_internal.h"
#include "format/registry.h"
#include "format/scope.h"

#define MAX_PARTS 64
/* The header ends within this many bytes, or the input is not the layout looked for. */
#define HEADER_MAX ((size_t)1024 * 1024)

static const char array_open[] = "\n  \"contingencies\" : [ {";
static const char boundary[] = "\n  }, {";
static const char array_close[] = "\n  } ]";

/* A part makes its items visible this many times as it reads (and once at its end), so that
 * the calling thread copies them into the list's block while it goes on: what is left to copy
 * once it ends is a fraction of its items. */
#define PUBLISH_TIMES 32

/* What every part reads with. */
typedef struct shared {
    ctg_read_options opts; /* the caller's, one level shallower: a part has no root object */
    const ctg_list *header;
    unsigned arena_flags;
    /* Guards every part's `items` block while it grows, and `published` and `ended`. */
    pthread_mutex_t lock;
    pthread_cond_t moved; /* some part published items or ended */
} shared;

typedef struct part {
    shared *sh;
    const char *data;
    size_t len;
    ctg_arena *arena;
    ctg_contingency *items; /* `cap` entries from the allocator */
    size_t count;
    size_t cap;
    size_t reserve; /* the bytes of input `items` is sized for: the first part's, all of them */
    size_t resolves;
    int rc;
    size_t batch;        /* items between two publications */
    size_t next_publish; /* the count at which the part publishes next */
    size_t published;    /* items the calling thread may copy (under sh->lock) */
    bool ended;          /* the part's thread is done with its items (under sh->lock) */
    size_t copied;       /* of those, the calling thread's copies (its own) */
    pthread_t thread;
    bool started;
} part;

/* ---- the layout ------------------------------------------------------------------------- */

/* The first `n` bytes at `pat` in d[from, to), by its first byte; SIZE_MAX when absent. */
static size_t find(const char *d, size_t from, size_t to, const char *pat, size_t n)
{
    while (to - from >= n) {
        const char *p = memchr(d + from, pat[0], to - from - n + 1);
        if (!p)
            return SIZE_MAX;
        if (memcmp(p, pat, n) == 0)
            return (size_t)(p - d);
        from = (size_t)(p - d) + 1;
    }
    return SIZE_MAX;
}

/* The last `n` bytes at `pat` in d[from, to); SIZE_MAX when absent. */
static size_t find_last(const char *d, size_t from, size_t to, const char *pat, size_t n)
{
    for (size_t i = to; i - from >= n; i--)
        if (d[i - n] == pat[0] && memcmp(d + i - n, pat, n) == 0)
            return i - n;
    return SIZE_MAX;
}

/* Where the items are: [*first, *end), from the first item's '{' to the last one's '}', at the
 * line "  } ]" that closes the array (the root's members after it, if any, go to the header).
 * false when the input does not look like that. */
static bool find_items(const char *d, size_t len, size_t *first, size_t *end)
{
    size_t n = sizeof array_open - 1, m = sizeof array_close - 1;
    size_t a = find(d, 0, len < HEADER_MAX ? len : HEADER_MAX, array_open, n);
    size_t e = find_last(d, len > HEADER_MAX ? len - HEADER_MAX : 0, len, array_close, m);

    if (a == SIZE_MAX || e == SIZE_MAX)
        return false;
    *first = a + n - 1;
    *end = e + 4; /* after "\n  }" */
    return *end > *first;
}

/* Cuts [first, end) into at most `n` parts at boundary lines, near equal sizes. */
static size_t cut(part *parts, size_t n, const char *d, size_t first, size_t end)
{
    size_t k = 0, from = first + 1, step = (end - first) / n;

    parts[0].data = d + first;
    for (size_t i = 1; i < n; i++) {
        size_t at = first + step * i;
        size_t b = find(d, at > from ? at : from, end, boundary, sizeof boundary - 1);
        if (b == SIZE_MAX)
            break;
        parts[k].len = (size_t)(d + b + 4 - parts[k].data); /* up to and with its '}' */
        parts[++k].data = d + b + 6;                         /* from the next '{' */
        from = b + 7;
    }
    parts[k].len = (size_t)(d + end - parts[k].data);
    for (size_t i = 1; i <= k; i++)
        parts[i].reserve = parts[i].len;
    parts[0].reserve = end - first;
    return k + 1;
}

/* ---- one part --------------------------------------------------------------------------- */

/* Makes the part's items so far visible to the calling thread; `ended` when it is done. */
static void publish(part *p, bool ended)
{
    pthread_mutex_lock(&p->sh->lock);
    p->published = p->count;
    p->ended = ended;
    pthread_cond_signal(&p->sh->moved); /* the calling thread is the only one that waits */
    pthread_mutex_unlock(&p->sh->lock);
}

/* `items` (`*cap` entries) grown to hold at least `need`; under the lock, since the calling
 * thread may be copying from it. */
static int grow_items(shared *sh, ctg_contingency **items, size_t *cap, size_t need)
{
    size_t to;
    void *q;

    if (!ctg_grow_capacity(*cap, need, 1024, SIZE_MAX / sizeof **items, &to))
        return CTG_ENOMEM;
    pthread_mutex_lock(&sh->lock);
    q = ctg_mem_resize(sh->opts.allocator, *items, *cap * sizeof **items, to * sizeof **items);
    if (q) {
        *items = q;
        *cap = to;
    }
    pthread_mutex_unlock(&sh->lock);
    return q ? CTG_OK : CTG_ENOMEM;
}

static int push_item(part *p, const ctg_contingency *c)
{
    int rc;

    if (p->count == p->cap && (rc = grow_items(p->sh, &p->items, &p->cap, p->count + 1)))
        return rc;
    p->items[p->count++] = *c;
    if (p->count == p->next_publish) {
        publish(p, false);
        p->next_publish += p->batch;
    }
    return CTG_OK;
}

/* The items, up to the part's last byte, which must end one. */
static int read_items(ctg_reader *rd, part *p)
{
    const ctg_handler *h = ctg_reader_handler(rd, CTG_HANDLER_CONTINGENCY);
    ctg_contingency c;
    int rc;

    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    ctg_reader_top_frame(rd)->is_array = true;
    do {
        if ((rc = ctg_lexer_item(&rd->lex, &rd->tok, rd->err)) != CTG_OK)
            return rc;
        if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
            return CTG_ESYNTAX;
        ctg_reader_top_frame(rd)->index = p->count;
        if ((rc = h->read(rd, &c)) != CTG_OK || (rc = push_item(p, &c)) != CTG_OK)
            return rc;
    } while (ctg_lexer_offset(&rd->lex) != p->len);
    return CTG_OK;
}

/* In the scope the list's header makes, with its version rules judged at the end as the root
 * judges them (format/root.c). */
static int read_in_scope(ctg_reader *rd, part *p)
{
    const ctg_kind *k = &ctg_kinds[CTG_LIST_DEFAULT];
    const ctg_list *header = p->sh->header;
    ctg_mark at = { 0, 0, 1 };
    ctg_scope scope;
    int rc = ctg_scope_push(rd, &scope, 0);

    if (rc != CTG_OK)
        return rc;
    scope.header.name = header->name;
    if (header->version)
        ctg_scope_set_version(rd, header->version, &at);
    rc = read_items(rd, p);
    if (rc == CTG_OK)
        rc = ctg_scope_judge(rd, k->version ? k->version : k->newest);
    ctg_scope_pop(rd, &scope);
    return rc;
}

/* A part's memory, taken by the calling thread for every part (see ctg_arena_open). Sized as
 * the sequential read sizes its stack and its arena's chunks (json/reader.c), so that a part
 * fills large chunks and huge pages as that read does, not a page at a time: pages never
 * touched cost nothing. The first part's items have room for every part's, which the stitch
 * then copies after them instead of moving them all to a larger block. */
static int prepare_part(part *p)
{
    const shared *sh = p->sh;

    p->arena = ctg_arena_new_ex(sh->opts.allocator, sh->arena_flags);
    if (!p->arena)
        return CTG_ENOMEM;
    ctg_arena_expect(p->arena, p->len / 2);
    (void)ctg_arena_open(p->arena, p->len / 2); /* else the part opens chunks as it goes */
    p->cap = p->reserve / 2 / sizeof *p->items;
    p->items = p->cap ? ctg_mem_alloc(sh->opts.allocator, p->cap * sizeof *p->items) : NULL;
    if (!p->items)
        p->cap = 0;
    else
        ctg_pages_huge(p->items, p->items + p->cap);
    p->batch = p->len / 2 / sizeof *p->items / PUBLISH_TIMES + 1; /* items as the block expects */
    p->next_publish = p->batch;
    return CTG_OK;
}

static int read_part(part *p)
{
    const shared *sh = p->sh;
    ctg_lex_source src = { p->data, p->len, NULL, NULL };
    ctg_format_reader fr;
    ctg_error err;
    int rc;

    memset(&fr, 0, sizeof fr);
    rc = ctg_reader_init(&fr.json, &src, &sh->opts, p->arena, &err);
    if (rc == CTG_OK) {
        ctg_lexer_enter_array(&fr.json.lex);
        rc = read_in_scope(&fr.json, p);
    }
    p->resolves = fr.json.resolves;
    ctg_reader_dispose(&fr.json);
    return rc;
}

static void *part_main(void *arg)
{
    part *p = arg;

    p->rc = read_part(p);
    publish(p, true);
    return NULL;
}

/* ---- the items, gathered as they come ----------------------------------------------------- */

/* Waits for part `p` to end, copying its items into the first part's block (grown when they do
 * not fit) from `at` on as it publishes them: the copies overlap the part's reading, and only
 * its last items are left to copy at its end. Nothing is copied once `rc` is a failure. */
static int follow(part *first, part *p, size_t at, int rc)
{
    shared *sh = p->sh;

    pthread_mutex_lock(&sh->lock);
    for (;;) {
        size_t upto = p->published;

        if (upto == p->copied) {
            if (p->ended)
                break;
            pthread_cond_wait(&sh->moved, &sh->lock);
            continue;
        }
        /* A batch at a time under the lock, so that the part's next publish (which waits for
         * it) never waits long, even when all its items so far are to be copied. */
        upto = upto - p->copied > p->batch ? p->copied + p->batch : upto;
        /* The lock held: the part may not move its block meanwhile. first's block is this
         * thread's alone now (its part is read); grow_items takes the lock, so release it. */
        if (rc == CTG_OK && upto > first->cap - at) {
            pthread_mutex_unlock(&sh->lock);
            rc = grow_items(sh, &first->items, &first->cap, at + upto);
            pthread_mutex_lock(&sh->lock);
        }
        if (rc == CTG_OK)
            memcpy(first->items + at + p->copied, p->items + p->copied,
                   (upto - p->copied) * sizeof *p->items);
        p->copied = upto;
    }
    pthread_mutex_unlock(&sh->lock);
    return rc;
}

/* Items and arenas are the allocator's, which a part alone uses once its thread starts, but
 * for the copies `follow` makes of its items under the lock: nothing else is shared but the
 * options and the header, which no part writes. */
/* Part 0 on the calling thread, the others each on one of their own (or, when a thread cannot
 * start, on the calling thread after it), their items gathered after part 0's in its block;
 * none read when some part's memory cannot be had. The first failure, or CTG_OK. */
static int run_parts(part *parts, size_t n)
{
    size_t at;
    int rc;

    for (size_t i = 0; i < n; i++)
        if ((rc = prepare_part(&parts[i])) != CTG_OK)
            return rc;
    for (size_t i = 1; i < n; i++)
        parts[i].started = pthread_create(&parts[i].thread, NULL, part_main, &parts[i]) == 0;
    rc = read_part(&parts[0]);
    at = parts[0].count;
    for (size_t i = 1; i < n; i++) {
        if (!parts[i].started && rc == CTG_OK)
            part_main(&parts[i]);
        else if (!parts[i].started)
            continue;
        rc = follow(&parts[0], &parts[i], at, rc);
        if (parts[i].started)
            pthread_join(parts[i].thread, NULL);
        rc = rc != CTG_OK ? rc : parts[i].rc;
        at += parts[i].count;
    }
    return rc;
}

/* ---- the whole -------------------------------------------------------------------------- */

/* The header as a document of its own: the input without its items, [first, end). */
static ctg_list *read_header(const char *d, size_t len, size_t first, size_t end,
                             const ctg_read_options *opts, unsigned arena_flags,
                             size_t *resolves)
{
    ctg_read_options o = *opts;
    ctg_read_stats stats = { 0, 0, 0 };
    size_t n = first + (len - end);
    char *doc = ctg_mem_alloc(opts->allocator, n);
    ctg_list *list = NULL;

    if (!doc)
        return NULL;
    memcpy(doc, d, first);
    memcpy(doc + first, d + end, len - end);
    o.threads = 0;
    o.stats = &stats;
    if (ctg_list_read_buffer_ex(&list, doc, n, &o, NULL, arena_flags) == CTG_OK
        && (list->kind != CTG_LIST_DEFAULT || list->count != 0)) {
        ctg_list_free(list);
        list = NULL;
    }
    *resolves = stats.handler_resolves;
    ctg_mem_release(opts->allocator, doc, n);
    return list;
}

/* `items` (`cap` entries) resized to `count`; NULL when out of memory, the block then still
 * the caller's. */
static ctg_contingency *resize_items(const ctg_allocator *a, ctg_contingency *items, size_t cap,
                                     size_t count)
{
    return count == cap ? items : ctg_mem_resize(a, items, cap * sizeof *items,
                                                 count * sizeof *items);
}

/* Hands every part's items and arena to `list`, in order: the items are gathered in the
 * first part's block (reserved for them all: it grew only when they did not fit), which is
 * shrunk to them in place. */
static int stitch(ctg_list *list, part *parts, size_t n)
{
    const ctg_allocator *a = parts[0].sh->opts.allocator;
    size_t total = 0, cap = parts[0].cap;
    ctg_contingency *items = parts[0].items, *shrunk;

    for (size_t i = 0; i < n; i++)
        total += parts[i].count;
    if ((shrunk = resize_items(a, items, cap, total)) != NULL) {
        items = shrunk;
        cap = total;
    }
    parts[0].items = NULL;
    if (ctg_arena_adopt(list->arena, items, cap * sizeof *items) != CTG_OK)
        return CTG_ENOMEM; /* the block is released */
    for (size_t i = 0; i < n; i++) {
        ctg_arena_absorb(list->arena, parts[i].arena);
        parts[i].arena = NULL;
    }
    list->items = items;
    list->count = total;
    list->cap = 0; /* arena-owned, as the sequential reader leaves it */
    return CTG_OK;
}

static void release_parts(part *parts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (parts[i].items)
            ctg_mem_release(parts[i].sh->opts.allocator, parts[i].items,
                            parts[i].cap * sizeof *parts[i].items);
        ctg_arena_release(parts[i].arena);
    }
}

/* The counters the sequential read would leave: handlers resolved once per read, or (without
 * the cache) once per array, and every byte consumed. */
static void fill_stats(ctg_read_stats *stats, const ctg_list *list, const part *parts, size_t n,
                       size_t header_resolves, size_t len, unsigned flags)
{
    size_t resolves = header_resolves;

    if (!stats)
        return;
    for (size_t i = 0; i < n; i++) {
        size_t r = parts[i].resolves - 1; /* its contingency handler: the header's */
        if (flags & CTG_READ_NO_CACHE)
            resolves += r;
        else if (r + 1 > resolves)
            resolves = r + 1;
    }
    stats->handler_resolves = resolves;
    stats->contingencies = list->count;
    stats->bytes = len;
}

/* Whether the options let a part be read as the sequential read would read it. */
static bool options_allow(const ctg_read_options *o, size_t len)
{
    size_t depth = o->max_depth ? o->max_depth : CTG_DEFAULT_MAX_DEPTH;

    return !o->extensions && !(o->flags & CTG_READ_LENIENT) && depth > 2
           && (o->max_document_size == 0 || len <= o->max_document_size);
}

/* The lock and the condition the parts share; false when the system cannot make them. */
static bool shared_init(shared *sh)
{
    if (pthread_mutex_init(&sh->lock, NULL) != 0)
        return false;
    if (pthread_cond_init(&sh->moved, NULL) == 0)
        return true;
    pthread_mutex_destroy(&sh->lock);
    return false;
}

static int read_parts(ctg_list *list, part *parts, size_t n, size_t len, size_t header_resolves,
                      const ctg_read_options *opts)
{
    int rc;

    rc = run_parts(parts, n);
    if (rc == CTG_OK)
        rc = stitch(list, parts, n);
    if (rc == CTG_OK)
        fill_stats(opts->stats, list, parts, n, header_resolves, len, opts->flags);
    release_parts(parts, n);
    return rc;
}

int ctg_read_parallel(ctg_list **out, const char *data, size_t len, const ctg_read_options *opts,
                      unsigned threads, size_t min_part, unsigned arena_flags, size_t *parts_read)
{
    part parts[MAX_PARTS];
    shared sh;
    size_t first, end, n, resolves;
    ctg_list *list;
    int rc;

    if (!options_allow(opts, len) || !find_items(data, len, &first, &end))
        return CTG_PARALLEL_DECLINED;
    n = (end - first) / (min_part ? min_part : CTG_SPLIT_MIN_PART);
    n = n < threads ? n : threads;
    n = n < MAX_PARTS ? n : MAX_PARTS;
    if (n < 2 || !(list = read_header(data, len, first, end, opts, arena_flags, &resolves)))
        return CTG_PARALLEL_DECLINED;
    if (!shared_init(&sh)) {
        ctg_list_free(list);
        return CTG_PARALLEL_DECLINED;
    }
    sh.opts = *opts;
    sh.opts.max_depth = (opts->max_depth ? opts->max_depth : CTG_DEFAULT_MAX_DEPTH) - 1;
    sh.opts.stats = NULL;
    sh.header = list;
    sh.arena_flags = arena_flags;
    memset(parts, 0, sizeof parts);
    for (size_t i = 0; i < MAX_PARTS; i++)
        parts[i].sh = &sh;
    n = cut(parts, n, data, first, end);
    rc = read_parts(list, parts, n, len, resolves, opts);
    pthread_cond_destroy(&sh.moved);
    pthread_mutex_destroy(&sh.lock);
    if (rc != CTG_OK) {
        ctg_list_free(list);
        return CTG_PARALLEL_DECLINED;
    }
    if (parts_read)
        *parts_read = n;
    *out = list;
    return CTG_OK;
}
