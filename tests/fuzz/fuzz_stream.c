/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the streaming read must agree with the full read.
 *
 * The full read gives the expected sequence: the contingencies of every `default` list (and of
 * a bare contingency document) and every list of another kind but `list`, depth first, in
 * document order. ctg_read_stream on the same bytes must deliver exactly that sequence, each
 * item equal to the full read's, with a header that matches its list, and end with the same
 * status; when the full read fails, the stream fails with the same error (after delivering
 * items that are each well formed). A second stream stops at the item picked by the input's
 * size and must end with CTG_ESTOPPED, leaking nothing.
 *
 * A third stream is lenient, with places (visitor version 2): when the full read succeeds it
 * delivers the same items and reports no error; when it fails, the first error handed to the
 * `error` callback is the full read's, to the byte, or, when none was handed over, the read
 * ends with the full read's error (or with a syntax-class error met while skipping the bad
 * contingency). Every place points at an opening brace, on the line and column it says. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_STRING 4096

typedef struct expected {
    const ctg_list *list;        /* the list the item belongs to (or is) */
    const ctg_contingency *item; /* NULL: the item is the whole list */
    size_t depth, index;
} expected;

typedef struct state {
    expected *items;
    size_t count, cap;
    size_t next;       /* the next item the stream must deliver */
    size_t stop_at;    /* stop after this many items; SIZE_MAX never */
    size_t size;       /* input bytes, for the progress checks */
    size_t consumed;
    bool known;        /* the full read succeeded: items are known */
    /* The lenient stream: the input (for the places) and the errors it reported. */
    const uint8_t *data;
    size_t errors;
    ctg_error first_error;
} state;

static void push(state *s, const ctg_list *list, const ctg_contingency *c, size_t depth,
                 size_t index)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        expected *p = realloc(s->items, cap * sizeof *p);
        if (p == NULL)
            ctg_fuzz_fail("out of memory in the fuzz target");
        s->items = p;
        s->cap = cap;
    }
    s->items[s->count].list = list;
    s->items[s->count].item = c;
    s->items[s->count].depth = depth;
    s->items[s->count].index = index;
    s->count++;
}

static void expect(state *s, const ctg_list *list, size_t depth, size_t index)
{
    ctg_list_kind kind = ctg_list_get_kind(list);

    if (kind == CTG_LIST_LIST) {
        for (size_t i = 0; i < ctg_list_child_count(list); i++)
            expect(s, ctg_list_child_at(list, i), depth + 1, i);
    } else if (kind == CTG_LIST_DEFAULT || kind == CTG_LIST_CONTINGENCY) {
        for (size_t i = 0; i < ctg_list_contingency_count(list); i++)
            push(s, list, ctg_list_contingency_at(list, i), depth, index);
    } else {
        push(s, list, NULL, depth, index);
    }
}

/* The header's fields that are known must be those of the list. */
static void check_header(const ctg_stream_header *h, const expected *e)
{
    const char *version = ctg_list_version(e->list);

    if (h->kind != ctg_list_get_kind(e->list) || h->depth != e->depth || h->index != e->index)
        ctg_fuzz_fail("header kind %d depth %zu index %zu; expected %d %zu %zu", (int)h->kind,
                      h->depth, h->index, (int)ctg_list_get_kind(e->list), e->depth, e->index);
    if (h->name != NULL && strcmp(h->name, ctg_list_name(e->list)) != 0)
        ctg_fuzz_fail("header name \"%s\", list name \"%s\"", h->name, ctg_list_name(e->list));
    if (h->version != NULL && (version == NULL || strcmp(h->version, version) != 0))
        ctg_fuzz_fail("header version \"%s\", list version \"%s\"", h->version,
                      version ? version : "(null)");
}

/* The next expected item, or NULL when the full read failed (nothing to compare with). */
static const expected *next_item(state *s, const ctg_stream_header *h)
{
    const expected *e;

    if (h == NULL || h->kind >= CTG_LIST_KIND_COUNT)
        ctg_fuzz_fail("stream item without a valid header");
    if (!s->known) {
        s->next++;
        return NULL;
    }
    if (s->next >= s->count)
        ctg_fuzz_fail("stream item %zu, but the full read has %zu", s->next, s->count);
    e = &s->items[s->next++];
    check_header(h, e);
    return e;
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    state *s = payload;
    const expected *e = next_item(s, h);
    char why[512];

    if (e != NULL && (e->item == NULL ||
                      !ctg_fuzz_contingency_equal(e->item, c, 0, why, sizeof why)))
        ctg_fuzz_fail("streamed contingency %zu differs: %s", s->next - 1,
                      e->item ? why : "a whole list was expected");
    if (e == NULL && c->id == NULL)
        ctg_fuzz_fail("streamed contingency without an id");
    return s->next >= s->stop_at;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    state *s = payload;
    const expected *e = next_item(s, h);
    char why[512];

    if (e != NULL && (e->item != NULL || !ctg_fuzz_list_equal(e->list, list, 0, why, sizeof why)))
        ctg_fuzz_fail("streamed list %zu differs: %s", s->next - 1,
                      e->item ? "a contingency was expected" : why);
    if (e == NULL)
        ctg_fuzz_walk(list);
    return s->next >= s->stop_at;
}

/* The line and column of `offset` in the input, as the lexer counts them. */
static void line_col(const uint8_t *data, size_t offset, unsigned *line, unsigned *col)
{
    size_t start = 0;

    *line = 1;
    for (size_t i = 0; i < offset; i++)
        if (data[i] == '\n') {
            (*line)++;
            start = i + 1;
        }
    *col = (unsigned)(offset - start + 1);
}

static void check_place(const state *s, const ctg_contingency *c, const ctg_stream_place *at)
{
    unsigned line, col;

    for (size_t i = 0; i < c->element_count; i++)
        if (at->element_lines[i] < at->line
            || (at->element_lines[i] == at->line && at->element_columns[i] <= at->column))
            ctg_fuzz_fail("element %zu at %u:%u, before its contingency at %u:%u", i,
                          at->element_lines[i], at->element_columns[i], at->line, at->column);
    /* Offsets are in the decompressed text; a gzip input's is not at hand. */
    if (s->size >= 2 && s->data[0] == 0x1f && s->data[1] == 0x8b)
        return;
    if (at->offset >= s->size || s->data[at->offset] != '{')
        ctg_fuzz_fail("contingency place at offset %zu is not an opening brace", at->offset);
    line_col(s->data, at->offset, &line, &col);
    if (line != at->line || col != at->column)
        ctg_fuzz_fail("offset %zu is at %u:%u, the place says %u:%u", at->offset, line, col,
                      at->line, at->column);
}

static int on_contingency_at(const ctg_stream_header *h, const ctg_contingency *c,
                             const ctg_stream_place *at, void *payload)
{
    check_place(payload, c, at);
    return on_contingency(h, c, payload);
}

static int on_error(const ctg_error *err, void *payload)
{
    state *s = payload;

    if (err->code != CTG_ESCHEMA && err->code != CTG_EUNSUPPORTED)
        ctg_fuzz_fail("a lenient read skipped a contingency for %s", ctg_status_name(err->code));
    ctg_fuzz_check_error(err->code, err);
    if (s->errors++ == 0)
        s->first_error = *err;
    return 0;
}

static int on_progress(size_t consumed, size_t total, void *payload)
{
    state *s = payload;

    if (consumed < s->consumed || (total != 0 && consumed > total))
        ctg_fuzz_fail("progress %zu of %zu after %zu", consumed, total, s->consumed);
    s->consumed = consumed;
    return 0;
}

static int stream(state *s, const uint8_t *data, size_t size, ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_contingency,
                      .list = on_list,
                      .progress = on_progress,
                      .payload = s };
    ctg_source src = ctg_source_buffer(data, size);

    opts.max_string_len = FUZZ_MAX_STRING;
    s->next = 0;
    s->consumed = 0;
    return ctg_read_stream(&src, &v, &opts, err);
}

static int stream_lenient(state *s, const uint8_t *data, size_t size, ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency_at = on_contingency_at,
                      .list = on_list,
                      .progress = on_progress,
                      .payload = s,
                      .error = on_error };
    ctg_source src = ctg_source_buffer(data, size);

    opts.max_string_len = FUZZ_MAX_STRING;
    opts.flags = CTG_READ_LENIENT;
    s->next = 0;
    s->consumed = 0;
    s->errors = 0;
    s->stop_at = SIZE_MAX;
    return ctg_read_stream(&src, &v, &opts, err);
}

static bool same_error(const ctg_error *a, const ctg_error *b)
{
    return a->code == b->code && a->offset == b->offset && strcmp(a->path, b->path) == 0
           && strcmp(a->message, b->message) == 0;
}

/* Errors a lenient read may end with when skipping a bad contingency found its rest broken. */
static bool lexer_class(int rc)
{
    return rc == CTG_ESYNTAX || rc == CTG_ELIMIT || rc == CTG_EIO || rc == CTG_ENOMEM;
}

static void check_lenient(state *s, const uint8_t *data, size_t size, int frc,
                          const ctg_error *ferr)
{
    ctg_error err;
    int rc = stream_lenient(s, data, size, &err);

    if (frc == CTG_OK) {
        if (rc != CTG_OK || s->errors != 0 || s->next != s->count)
            ctg_fuzz_fail("lenient read of a valid input: %s, %zu errors, %zu of %zu items",
                          ctg_status_name(rc), s->errors, s->next, s->count);
        return;
    }
    if (rc != CTG_OK)
        ctg_fuzz_check_error(rc, &err);
    if (s->errors > 0) {
        if (!same_error(&s->first_error, ferr))
            ctg_fuzz_fail("first lenient error %zu %s: %s; full read %zu %s: %s",
                          s->first_error.offset, s->first_error.path, s->first_error.message,
                          ferr->offset, ferr->path, ferr->message);
    } else if (rc == CTG_OK) {
        ctg_fuzz_fail("lenient read OK without an error, full read %s", ctg_status_name(frc));
    } else if (!same_error(&err, ferr) && !lexer_class(rc)) {
        ctg_fuzz_fail("lenient error %zu %s: %s; full read %zu %s: %s", err.offset, err.path,
                      err.message, ferr->offset, ferr->path, ferr->message);
    }
}

static void check_same_error(int rc, const ctg_error *got, int want, const ctg_error *full)
{
    if (rc != want)
        ctg_fuzz_fail("stream %s, full read %s (%s)", ctg_status_name(rc),
                      ctg_status_name(want), full->message);
    if (rc == CTG_OK)
        return;
    ctg_fuzz_check_error(rc, got);
    if (got->offset != full->offset || strcmp(got->path, full->path) != 0 ||
        strcmp(got->message, full->message) != 0)
        ctg_fuzz_fail("stream error %zu %s: %s; full read %zu %s: %s", got->offset, got->path,
                      got->message, full->offset, full->path, full->message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    state s;
    ctg_list *full = NULL;
    ctg_error ferr, serr;
    int frc, rc;

    memset(&s, 0, sizeof s);
    opts.max_string_len = FUZZ_MAX_STRING;
    frc = ctg_list_read_buffer(&full, data, size, &opts, &ferr);
    s.known = frc == CTG_OK;
    if (s.known)
        expect(&s, full, 0, 0);
    s.stop_at = SIZE_MAX;
    s.size = size;
    rc = stream(&s, data, size, &serr);
    check_same_error(rc, &serr, frc, &ferr);
    if (rc == CTG_OK && s.next != s.count)
        ctg_fuzz_fail("the stream delivered %zu items, the full read has %zu", s.next, s.count);
    if (s.known && s.count > 0) {
        s.stop_at = 1 + size % s.count;
        rc = stream(&s, data, size, &serr);
        if (rc != CTG_ESTOPPED || s.next != s.stop_at)
            ctg_fuzz_fail("a stream stopped at item %zu ended with %s after %zu items",
                          s.stop_at, ctg_status_name(rc), s.next);
    }
    s.data = data;
    check_lenient(&s, data, size, frc, &ferr);
    ctg_list_free(full);
    free(s.items);
    return 0;
}
