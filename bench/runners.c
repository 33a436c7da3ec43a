/* SPDX-License-Identifier: MPL-2.0 */
/* The timed runners, and the check each one makes once before it is timed. */

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "peer.h"

/* Results go here so that the compiler cannot drop the work that produced them. */
static volatile size_t sink;

int bench_why(bench_input *in, int rc, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(in->why, sizeof in->why, fmt, ap);
    va_end(ap);
    return rc;
}

static int why_ctg(bench_input *in, const char *what, const ctg_error *err)
{
    char text[1024];

    ctg_error_format(err, text, sizeof text);
    return bench_why(in, BENCH_FAIL, "%s failed: %s", what, text);
}

/* ---- what a read gives: counted over the whole tree of lists ------------------------------ */

typedef struct tree_counts {
    size_t contingencies; /* in default lists */
    size_t extensions;    /* of those contingencies */
    size_t kept;          /* extensions kept as JSON text (no handler is registered) */
    size_t lists;         /* every list, the root included */
    size_t identifiers;   /* top-level identifiers of identifier lists */
    size_t whole_lists;   /* lists a stream read delivers whole: neither default nor list */
} tree_counts;

static void count_extensions(const ctg_list *list, tree_counts *t)
{
    size_t n = 0;
    const ctg_contingency *all = ctg_list_contingencies(list, &n);

    for (size_t i = 0; i < n; i++) {
        t->extensions += all[i].extension_count;
        for (size_t k = 0; k < all[i].extension_count; k++)
            t->kept += all[i].extensions[k].json != NULL && all[i].extensions[k].json_len > 0;
    }
}

static void count_tree(const ctg_list *list, tree_counts *t)
{
    ctg_list_kind kind = ctg_list_get_kind(list);
    size_t ids = 0;

    t->lists++;
    if (kind == CTG_LIST_DEFAULT || kind == CTG_LIST_CONTINGENCY) {
        t->contingencies += ctg_list_contingency_count(list);
        count_extensions(list, t);
    } else if (kind == CTG_LIST_LIST) {
        for (size_t i = 0; i < ctg_list_child_count(list); i++)
            count_tree(ctg_list_child_at(list, i), t);
    } else {
        t->whole_lists++;
        if (kind == CTG_LIST_IDENTIFIER && ctg_list_identifiers(list, &ids) != NULL)
            t->identifiers += ids;
    }
}

/* Whether `list` holds what the case promises. */
static int check_counts(bench_input *in, const ctg_list *list, const char *who)
{
    const bench_gen_case *c = in->gen;
    tree_counts t = { 0, 0, 0, 0, 0, 0 };

    count_tree(list, &t);
    if (t.contingencies == c->contingencies && t.lists == c->lists &&
        t.identifiers == c->identifiers && t.extensions == c->extensions && t.kept == t.extensions)
        return BENCH_OK;
    return bench_why(in, BENCH_FAIL,
                     "%s: %zu contingencies, %zu lists, %zu identifiers, %zu extensions (%zu kept "
                     "as JSON); expected %zu, %zu, %zu, %zu (all kept)",
                     who, t.contingencies, t.lists, t.identifiers, t.extensions, t.kept,
                     c->contingencies, c->lists, c->identifiers, c->extensions);
}

/* ---- ctg readers ------------------------------------------------------------------------- */

/* A list read: handed to `keep` (a check), or counted and freed (a timed run). */
static int keep_or_free(ctg_list *list, ctg_list **keep)
{
    if (keep != NULL) {
        *keep = list;
        return BENCH_OK;
    }
    sink = ctg_list_contingency_count(list);
    ctg_list_free(list);
    return BENCH_OK;
}

/* One full read; ctg_list_free is part of the run, as json_object_put is of json-c's. */
static int read_with(bench_input *in, unsigned flags, ctg_read_stats *stats, ctg_list **keep)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;

    opts.flags = flags;
    opts.stats = stats;
    if (ctg_list_read_buffer(&list, in->bytes.data, in->bytes.len, &opts, &err) != CTG_OK)
        return why_ctg(in, "ctg read", &err);
    return keep_or_free(list, keep);
}

static int run_ctg_read(bench_input *in)
{
    return read_with(in, 0, NULL, NULL);
}

static int run_ctg_read_nocache(bench_input *in)
{
    return read_with(in, CTG_READ_NO_CACHE, NULL, NULL);
}

/* Keeps the list (for the writers and the other checks) and the handler look-up count. */
static int check_ctg_read(bench_input *in)
{
    ctg_read_stats stats;
    int rc = read_with(in, 0, &stats, &in->list);

    if (rc != BENCH_OK)
        return rc;
    in->resolves_cached = stats.handler_resolves;
    return check_counts(in, in->list, "ctg read");
}

/* ---- the in-situ read: it rewrites what it reads ------------------------------------------ */

static int compare_bytes(bench_input *in, const char *who, const ctg_buf *got, const char *want,
                         size_t want_len);

/* A fresh writable copy of the input for the next run (untimed). */
static int reset_ctg_read_in_situ(bench_input *in)
{
    if (in->situ.cap < in->bytes.len) {
        bench_bytes_dispose(&in->situ);
        in->situ.data = malloc(in->bytes.len ? in->bytes.len : 1);
        if (in->situ.data == NULL)
            return bench_why(in, BENCH_FAIL, "in situ: out of memory for the copy");
        in->situ.cap = in->bytes.len;
    }
    memcpy(in->situ.data, in->bytes.data, in->bytes.len);
    in->situ.len = in->bytes.len;
    return BENCH_OK;
}

/* One in-situ read of the copy, or in a --process child (no copy) of the bytes themselves, and
 * the list freed before its buffer is written again. */
static int read_in_situ(bench_input *in, ctg_list **keep)
{
    bench_bytes *b = in->situ.data != NULL ? &in->situ : &in->bytes;
    ctg_list *list = NULL;
    ctg_error err;

    if (ctg_list_read_in_situ(&list, b->data, b->len, NULL, &err) != CTG_OK)
        return why_ctg(in, "ctg in-situ read", &err);
    return keep_or_free(list, keep);
}

static int run_ctg_read_in_situ(bench_input *in)
{
    return read_in_situ(in, NULL);
}

/* The counts, and the list written as ctg-read's is (its check ran first). */
static int check_ctg_read_in_situ(bench_input *in)
{
    ctg_buf mine = CTG_BUF_INIT, theirs = CTG_BUF_INIT;
    ctg_list *list = NULL;
    int rc = reset_ctg_read_in_situ(in);

    if (rc == BENCH_OK)
        rc = read_in_situ(in, &list);
    if (rc == BENCH_OK)
        rc = check_counts(in, list, "ctg in-situ read");
    if (rc == BENCH_OK && (in->list == NULL || ctg_list_write_buf(&mine, list, NULL, NULL) != CTG_OK
                           || ctg_list_write_buf(&theirs, in->list, NULL, NULL) != CTG_OK))
        rc = bench_why(in, BENCH_FAIL, "ctg in-situ read: no ctg-read list, or a write failed");
    if (rc == BENCH_OK)
        rc = compare_bytes(in, "ctg in-situ read (written, against ctg-read's list)", &mine,
                           theirs.data, theirs.len);
    ctg_list_free(list);
    ctg_buf_dispose(&mine);
    ctg_buf_dispose(&theirs);
    return rc;
}

static int check_ctg_read_nocache(bench_input *in)
{
    ctg_read_stats stats;
    ctg_list *list = NULL;
    int rc = read_with(in, CTG_READ_NO_CACHE, &stats, &list);

    if (rc != BENCH_OK)
        return rc;
    in->resolves_nocache = stats.handler_resolves;
    in->resolves_known = true;
    rc = check_counts(in, list, "ctg read with CTG_READ_NO_CACHE");
    ctg_list_free(list);
    return rc;
}

typedef struct stream_counts {
    size_t contingencies;
    size_t elements;
    size_t extensions;
    size_t whole_lists;
} stream_counts;

static int count_contingency(const ctg_stream_header *list, const ctg_contingency *c, void *payload)
{
    stream_counts *n = payload;

    (void)list;
    n->contingencies++;
    n->elements += c->element_count;
    n->extensions += c->extension_count;
    return 0;
}

static int count_list(const ctg_stream_header *header, const ctg_list *list, void *payload)
{
    stream_counts *n = payload;

    (void)header;
    (void)list;
    n->whole_lists++;
    return 0;
}

static int stream_with(bench_input *in, stream_counts *n)
{
    ctg_source src = ctg_source_buffer(in->bytes.data, in->bytes.len);
    ctg_visitor visitor = { .version = CTG_VISITOR_VERSION,
                            .contingency = count_contingency,
                            .list = count_list,
                            .payload = n };
    ctg_error err;

    memset(n, 0, sizeof *n);
    if (ctg_read_stream(&src, &visitor, NULL, &err) != CTG_OK)
        return why_ctg(in, "ctg stream read", &err);
    sink = n->contingencies;
    return BENCH_OK;
}

static int run_ctg_stream(bench_input *in)
{
    stream_counts n;

    return stream_with(in, &n);
}

/* The stream must deliver what the full read holds. */
static int check_ctg_stream(bench_input *in)
{
    stream_counts n;
    tree_counts t = { 0, 0, 0, 0, 0, 0 };
    int rc = stream_with(in, &n);

    if (rc != BENCH_OK)
        return rc;
    if (in->list != NULL)
        count_tree(in->list, &t);
    else
        t.whole_lists = n.whole_lists; /* no full read to compare with: counts only */
    if (n.contingencies == in->gen->contingencies && n.whole_lists == t.whole_lists &&
        n.extensions == in->gen->extensions)
        return BENCH_OK;
    return bench_why(in, BENCH_FAIL,
                     "ctg stream read: %zu contingencies, %zu whole lists and %zu extensions, "
                     "expected %zu, %zu, %zu",
                     n.contingencies, n.whole_lists, n.extensions, in->gen->contingencies,
                     t.whole_lists, in->gen->extensions);
}


/* ---- json-c ------------------------------------------------------------------------------ */

static json_object *jsonc_parse(bench_input *in)
{
    json_object *obj;

    /* json-c takes an int length. */
    if (in->bytes.len > INT_MAX) {
        bench_why(in, BENCH_FAIL, "json-c: %zu bytes is too large", in->bytes.len);
        return NULL;
    }
    if (in->tokener == NULL && (in->tokener = json_tokener_new()) == NULL) {
        bench_why(in, BENCH_FAIL, "json-c: out of memory");
        return NULL;
    }
    json_tokener_reset(in->tokener);
    obj = json_tokener_parse_ex(in->tokener, in->bytes.data, (int)in->bytes.len);
    if (obj == NULL || json_tokener_get_error(in->tokener) != json_tokener_success) {
        bench_why(in, BENCH_FAIL, "json-c parse failed: %s",
                  json_tokener_error_desc(json_tokener_get_error(in->tokener)));
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static int run_jsonc_parse_free(bench_input *in)
{
    json_object *obj = jsonc_parse(in);

    if (obj == NULL)
        return BENCH_FAIL;
    sink = (size_t)json_object_object_length(obj);
    json_object_put(obj);
    return BENCH_OK;
}

/* Keeps the DOM for json-c's writer. */
static int check_jsonc_parse_free(bench_input *in)
{
    in->dom = jsonc_parse(in);
    return in->dom != NULL ? BENCH_OK : BENCH_FAIL;
}

/* Parse, walk into ctg structs, free both: what a json-c based ctg_list_read_buffer does. */
static int map_once(bench_input *in, ctg_list **keep)
{
    json_object *obj = jsonc_parse(in);
    ctg_list *list = NULL;
    int rc;

    if (obj == NULL)
        return BENCH_FAIL;
    rc = bench_jsonc_map(in, obj, &list);
    json_object_put(obj);
    if (rc != BENCH_OK) {
        ctg_list_free(list);
        return rc;
    }
    return keep_or_free(list, keep);
}

static int run_jsonc_dom_map(bench_input *in)
{
    return map_once(in, NULL);
}

static size_t element_total(const ctg_list *list)
{
    size_t n = 0, total = 0;
    const ctg_contingency *all = ctg_list_contingencies(list, &n);

    for (size_t i = 0; i < n; i++)
        total += all[i].element_count;
    return total;
}

/* A list a peer built must hold what ctg's read holds (contingencies, elements) and write the
 * same bytes as the case (so, as ctg's own read): the peers build the same structs. */
static int check_mapped(bench_input *in, const ctg_list *list, const char *who)
{
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    int rc = check_counts(in, list, who);
    size_t want = in->list != NULL ? element_total(in->list) : 0, got = element_total(list);

    if (rc == BENCH_OK && in->list != NULL && got != want)
        rc = bench_why(in, BENCH_FAIL, "%s: %zu elements, ctg read %zu", who, got, want);
    /* A write that fails is a failure too: every kind has a writer. */
    if (rc == BENCH_OK && ctg_list_write_buf(&buf, list, NULL, &err) != CTG_OK)
        rc = bench_why(in, BENCH_FAIL, "%s: ctg cannot write the mapped list: %s", who,
                       err.message);
    else if (rc == BENCH_OK)
        rc = compare_bytes(in, who, &buf, in->bytes.data, in->bytes.len);
    ctg_buf_dispose(&buf);
    return rc;
}

static int check_jsonc_dom_map(bench_input *in)
{
    ctg_list *list = NULL;
    int rc = map_once(in, &list);

    if (rc == BENCH_OK)
        rc = check_mapped(in, list, "jsonc-dom-map");
    ctg_list_free(list);
    return rc;
}

/* ---- the peers: yajl's SAX and simdjson's On-Demand into the same structs ------------------ */

#if defined(CTG_BENCH_YAJL) || defined(CTG_BENCH_SIMDJSON)
/* What a peer's map gave: its list kept in `*keep` (or freed), or why it failed. Only built
 * with a peer (a build without either, the 32-bit one, would find it unused). */
static int peer_done(bench_input *in, bench_peer *p, int ok, const char *who, ctg_list **keep)
{
    int rc = ok ? BENCH_OK
                : bench_why(in, p->unsupported ? BENCH_UNSUPPORTED : BENCH_FAIL, "%s: %s", who,
                            p->why);

    if (rc == BENCH_OK && keep != NULL) {
        *keep = p->list;
        p->list = NULL;
    } else if (rc == BENCH_OK) {
        sink = ctg_list_contingency_count(p->list);
    }
    bench_peer_dispose(p);
    return rc;
}
#endif

static int yajl_once(bench_input *in, ctg_list **keep)
{
#ifdef CTG_BENCH_YAJL
    bench_peer p;

    bench_peer_init(&p);
    return peer_done(in, &p, bench_yajl_map(&p, in->bytes.data, in->bytes.len), "yajl-sax-map",
                     keep);
#else
    (void)keep;
    return bench_why(in, BENCH_UNSUPPORTED, "built without yajl (Debian's libyajl-dev)");
#endif
}

static int simdjson_once(bench_input *in, ctg_list **keep)
{
#ifdef CTG_BENCH_SIMDJSON
    bench_peer p;

    bench_peer_init(&p);
    return peer_done(in, &p,
                     bench_simdjson_map(&p, in->bytes.data, in->bytes.len, in->bytes.cap),
                     "simdjson-ondemand-map", keep);
#else
    (void)keep;
    return bench_why(in, BENCH_UNSUPPORTED, "built without simdjson (Debian's libsimdjson-dev)");
#endif
}

static int run_yajl_map(bench_input *in)
{
    return yajl_once(in, NULL);
}

static int run_simdjson_map(bench_input *in)
{
    return simdjson_once(in, NULL);
}

static int check_peer(bench_input *in, int (*once)(bench_input *, ctg_list **), const char *who)
{
    ctg_list *list = NULL;
    int rc = once(in, &list);

    if (rc == BENCH_OK)
        rc = check_mapped(in, list, who);
    ctg_list_free(list);
    return rc;
}

static int check_yajl_map(bench_input *in)
{
    return check_peer(in, yajl_once, "yajl-sax-map");
}

static int check_simdjson_map(bench_input *in)
{
    return check_peer(in, simdjson_once, "simdjson-ondemand-map");
}

size_t bench_count_quotes(const char *data, size_t len)
{
    const char *p = data, *end = data + len;
    size_t quotes = 0;

    while ((p = memchr(p, '"', (size_t)(end - p))) != NULL) {
        quotes++;
        p++;
    }
    return quotes;
}

static int run_memchr_floor(bench_input *in)
{
    sink = bench_count_quotes(in->bytes.data, in->bytes.len);
    return BENCH_OK;
}

/* ---- writers ----------------------------------------------------------------------------- */

static int write_with(bench_input *in, unsigned flags)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_error err;

    if (in->list == NULL)
        return bench_why(in, BENCH_UNSUPPORTED, "needs the list of a ctg read");
    opts.flags = flags;
    in->out.len = 0; /* keeps the capacity: the run measures the writer, not the allocator */
    if (ctg_list_write_buf(&in->out, in->list, &opts, &err) != CTG_OK)
        return why_ctg(in, "ctg write", &err);
    in->written = in->out.len;
    return BENCH_OK;
}

static int run_ctg_write(bench_input *in)
{
    return write_with(in, 0);
}

static int run_ctg_write_compact(bench_input *in)
{
    return write_with(in, CTG_WRITE_COMPACT);
}

/* The first `len` bytes of a and b: the offset of the first difference, or `len`. */
static size_t first_difference(const char *a, const char *b, size_t len)
{
    size_t i = 0;

    while (i < len && a[i] == b[i])
        i++;
    return i;
}

static int compare_bytes(bench_input *in, const char *who, const ctg_buf *got, const char *want,
                         size_t want_len)
{
    size_t n = got->len < want_len ? got->len : want_len;
    size_t at = first_difference(got->data, want, n);

    if (at == n && got->len == want_len)
        return BENCH_OK;
    return bench_why(in, BENCH_FAIL, "%s differs at byte %zu (%zu bytes written, %zu expected)",
                     who, at, got->len, want_len);
}

/* The generator writes PowSyBl's layout, so the ctg writer must give back the same bytes. */
static int check_ctg_write(bench_input *in)
{
    int rc = run_ctg_write(in);

    return rc != BENCH_OK ? rc
                          : compare_bytes(in, "ctg write", &in->out, in->bytes.data, in->bytes.len);
}

/* Compact output read back and written pretty must give the case again. */
static int check_ctg_write_compact(bench_input *in)
{
    ctg_list *back = NULL;
    ctg_buf pretty = CTG_BUF_INIT;
    ctg_error err;
    int rc = run_ctg_write_compact(in);

    if (rc != BENCH_OK)
        return rc;
    if (ctg_list_read_buffer(&back, in->out.data, in->out.len, NULL, &err) != CTG_OK)
        return why_ctg(in, "ctg read of the compact output", &err);
    if (ctg_list_write_buf(&pretty, back, NULL, &err) != CTG_OK)
        rc = why_ctg(in, "ctg write of the compact output", &err);
    else
        rc = compare_bytes(in, "compact output, read and written pretty,", &pretty, in->bytes.data,
                           in->bytes.len);
    ctg_buf_dispose(&pretty);
    ctg_list_free(back);
    return rc;
}

static int stream_write_all(bench_input *in, ctg_stream_writer *w, ctg_error *err)
{
    size_t count = 0;
    const ctg_contingency *all = ctg_list_contingencies(in->list, &count);

    for (size_t i = 0; i < count; i++) {
        if (ctg_stream_writer_add(w, &all[i], err) != CTG_OK)
            return BENCH_FAIL;
    }
    return BENCH_OK;
}

/* A stream writer to a cleared buffer, fed the contingencies of the loaded list. */
static int run_ctg_stream_write(bench_input *in)
{
    ctg_stream_writer *w = NULL;
    ctg_error err;

    if (in->list == NULL)
        return bench_why(in, BENCH_UNSUPPORTED, "needs the list of a ctg read");
    if (ctg_list_get_kind(in->list) != CTG_LIST_DEFAULT)
        return bench_why(in, BENCH_UNSUPPORTED, "the stream writer writes default lists only");
    in->out2.len = 0;
    if (ctg_stream_writer_open_buf(&w, &in->out2, ctg_list_name(in->list), NULL, &err) != CTG_OK)
        return why_ctg(in, "ctg stream writer open", &err);
    if (stream_write_all(in, w, &err) != BENCH_OK) {
        ctg_stream_writer_abort(w);
        return why_ctg(in, "ctg stream write", &err);
    }
    if (ctg_stream_writer_close(w, &err) != CTG_OK)
        return why_ctg(in, "ctg stream writer close", &err);
    in->written = in->out2.len;
    return BENCH_OK;
}

/* Its bytes must be ctg-write's. */
static int check_ctg_stream_write(bench_input *in)
{
    int rc = in->list != NULL && ctg_list_get_kind(in->list) != CTG_LIST_DEFAULT
                 ? run_ctg_stream_write(in) /* says why it cannot */
                 : run_ctg_write(in);

    if (rc == BENCH_OK)
        rc = run_ctg_stream_write(in);
    if (rc == BENCH_OK)
        rc = compare_bytes(in, "ctg stream write (against ctg write)", &in->out2, in->out.data,
                           in->out.len);
    return rc;
}

static int run_jsonc_write(bench_input *in)
{
    const char *text;
    size_t len = 0;

    if (in->dom == NULL)
        return bench_why(in, BENCH_UNSUPPORTED, "needs the DOM of a json-c parse");
    text = json_object_to_json_string_length(
        in->dom, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED, &len);
    if (text == NULL)
        return bench_why(in, BENCH_FAIL, "json-c write failed");
    in->written = len;
    return BENCH_OK;
}

static const bench_runner runners[] = {
    { "ctg-read", "ctg_list_read_buffer + ctg_list_free", false, run_ctg_read, check_ctg_read,
      NULL },
    { "ctg-read-in-situ", "ctg_list_read_in_situ + ctg_list_free, on a copy refreshed untimed",
      false, run_ctg_read_in_situ, check_ctg_read_in_situ, reset_ctg_read_in_situ },
    { "ctg-read-nocache", "ctg-read with CTG_READ_NO_CACHE", false, run_ctg_read_nocache,
      check_ctg_read_nocache, NULL },
    { "ctg-stream", "ctg_read_stream from memory, a visitor that counts", false, run_ctg_stream,
      check_ctg_stream, NULL },
    { "jsonc-dom-parse-free", "json_tokener_parse_ex + json_object_put", false,
      run_jsonc_parse_free, check_jsonc_parse_free, NULL },
    { "jsonc-dom-map", "json-c DOM walked into ctg structs by the public builders, all freed",
      false, run_jsonc_dom_map, check_jsonc_dom_map, NULL },
    { "yajl-sax-map", "yajl's SAX callbacks into the same ctg structs (built with libyajl-dev)",
      false, run_yajl_map, check_yajl_map, NULL },
    { "simdjson-ondemand-map",
      "simdjson On-Demand into the same ctg structs (built with libsimdjson-dev)", false,
      run_simdjson_map, check_simdjson_map, NULL },
    { "memchr-floor", "one memchr pass counting '\"'", false, run_memchr_floor, NULL, NULL },
    { "ctg-write", "ctg_list_write_buf (pretty) into a cleared buffer", true, run_ctg_write,
      check_ctg_write, NULL },
    { "ctg-write-compact", "the same with CTG_WRITE_COMPACT", true, run_ctg_write_compact,
      check_ctg_write_compact, NULL },
    { "ctg-stream-write", "ctg_stream_writer_open_buf + one add per contingency + close", true,
      run_ctg_stream_write, check_ctg_stream_write, NULL },
    { "jsonc-dom-write", "json_object_to_json_string_ext (PRETTY | SPACED) of the DOM", true,
      run_jsonc_write, NULL, NULL },
};

const bench_runner *bench_runners(size_t *count)
{
    *count = sizeof runners / sizeof runners[0];
    return runners;
}

const bench_runner *bench_runner_find(const char *name)
{
    return bench_find_named(runners, sizeof runners / sizeof runners[0], sizeof runners[0], name);
}
