/* SPDX-License-Identifier: MPL-2.0 */
/* Fuzz target: the streaming read must agree with the full read.
 *
 * The full read gives the expected sequence: the contingencies of every `default` list (and of
 * a bare contingency document) and every list of another kind but `list`, depth first, in
 * document order. ctg_read_stream on the same bytes must deliver exactly that sequence, each
 * item equal to the full read's, with a header that matches its list, and end with the same
 * status; when the full read fails, the stream fails with the same error (after delivering
 * items that are each well formed). A second stream stops at the item picked by the input's
 * size and must end with CTG_ESTOPPED, leaking nothing. */

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
    ctg_list_free(full);
    free(s.items);
    return 0;
}
