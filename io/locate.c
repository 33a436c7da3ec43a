/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_locate (include/ctg/stream.h): where values named by JSON Pointers begin, in one lexer
 * pass and without building anything, so that a check made on a read document (a reference
 * to nothing, say) can name the line and column of what it found.
 *
 * The live path is kept as the reader's error paths are (base/error_set.h: escaped, cut at
 * CTG_ERROR_PATH_MAX), so a path taken from a ctg_error or a check's finding finds its value. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/stream.h"
#include "base/alloc.h"
#include "base/error_set.h"
#include "io/source.h"
#include "json/lexer.h"

typedef struct wanted {
    const char *pointer;
    size_t index; /* into the caller's arrays */
} wanted;

typedef struct frame {
    size_t base;  /* path length of the container's own value */
    size_t index; /* arrays: the next item's index */
    bool is_array;
} frame;

typedef struct locator {
    const ctg_allocator *alloc;
    wanted *sorted; /* by pointer text, for a binary search per value */
    size_t n;
    ctg_location *out;
    frame *frames;
    size_t depth, cap;
    char path[CTG_ERROR_PATH_MAX];
    size_t len;
} locator;

static int by_pointer(const void *a, const void *b)
{
    const wanted *x = a, *y = b;
    int c = strcmp(x->pointer, y->pointer);

    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Places every pointer equal to the live path that has no place yet: the first value wins. */
static void match(locator *lc, const ctg_token *t)
{
    size_t lo = 0, hi = lc->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(lc->sorted[mid].pointer, lc->path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < lc->n && strcmp(lc->sorted[lo].pointer, lc->path) == 0; lo++) {
        ctg_location *l = &lc->out[lc->sorted[lo].index];
        if (!l->found) {
            l->found = true;
            l->line = t->line;
            l->column = ctg_column(t->offset, t->line_start);
            l->offset = t->offset;
        }
    }
}

static int push(locator *lc, bool is_array)
{
    if (lc->depth == lc->cap) {
        size_t cap = lc->cap ? 2 * lc->cap : 16;
        frame *f = ctg_mem_resize(lc->alloc, lc->frames, lc->cap * sizeof *f, cap * sizeof *f);
        if (!f)
            return CTG_ENOMEM;
        lc->frames = f;
        lc->cap = cap;
    }
    lc->frames[lc->depth++] = (frame){ lc->len, 0, is_array };
    return CTG_OK;
}

/* The path of the value that `t` begins (an array item's index is appended here; a member's
 * key was appended by its KEY token), matched, then opened when it is a container. */
static int on_value(locator *lc, const ctg_token *t)
{
    if (lc->depth && lc->frames[lc->depth - 1].is_array) {
        frame *f = &lc->frames[lc->depth - 1];
        char num[24];
        int k = snprintf(num, sizeof num, "%zu", f->index++);
        lc->len = ctg_error_path_append(lc->path, f->base, num, (size_t)k);
    }
    match(lc, t);
    if (t->type == CTG_TOK_OBJECT_BEGIN || t->type == CTG_TOK_ARRAY_BEGIN)
        return push(lc, t->type == CTG_TOK_ARRAY_BEGIN);
    return CTG_OK;
}

static int on_token(locator *lc, const ctg_token *t)
{
    switch (t->type) {
    case CTG_TOK_KEY:
        lc->len = ctg_error_path_append(lc->path, lc->frames[lc->depth - 1].base, t->str, t->len);
        return CTG_OK;
    case CTG_TOK_OBJECT_END:
    case CTG_TOK_ARRAY_END:
        lc->len = lc->frames[--lc->depth].base;
        lc->path[lc->len] = '\0';
        return CTG_OK;
    default:
        return on_value(lc, t);
    }
}

static int scan(locator *lc, ctg_input *in, const char *name, const ctg_read_options *opts,
                ctg_error *err)
{
    ctg_lex_limits lim = { opts->max_depth, 0, 0 };
    ctg_lexer lx;
    ctg_token t;
    int rc = ctg_lexer_init(&lx, ctg_input_lex_source(in), &lim, lc->alloc);

    while (rc == CTG_OK) {
        if ((rc = ctg_lexer_next(&lx, &t, err)) != CTG_OK) {
            err->path[0] = '\0';
            ctg_error_set_source(err, name);
            break;
        }
        if (t.type == CTG_TOK_EOF)
            break;
        rc = on_token(lc, &t);
    }
    if (rc == CTG_ENOMEM && !err->message[0])
        rc = ctg_error_set_plain(err, name, rc, "out of memory");
    ctg_lexer_dispose(&lx);
    return rc;
}

static int locate(locator *lc, const ctg_source *src, const ctg_read_options *opts,
                  ctg_error *err)
{
    ctg_input *in;
    char own[64];
    const char *name = opts->source_name ? opts->source_name : ctg_source_name(src, own, sizeof own);
    int rc = ctg_input_open(&in, src, lc->alloc, err);

    if (rc != CTG_OK)
        return ctg_error_set_plain(err, name, rc, NULL);
    err->message[0] = '\0';
    rc = scan(lc, in, name, opts, err);
    ctg_input_close(in);
    return rc;
}

int ctg_locate(const ctg_source *src, const char *const *pointers, size_t n, ctg_location *out,
               const ctg_read_options *opts, ctg_error *err)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_error scratch;
    locator lc;
    int rc;

    err = err ? err : &scratch;
    opts = opts ? opts : &defaults;
    if (!src || (n && (!pointers || !out)))
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL, "no source, pointers or places");
    for (size_t i = 0; i < n; i++)
        if (!pointers[i])
            return ctg_error_set_plain(err, "<input>", CTG_EINVAL, "a NULL pointer to locate");
    if (n)
        memset(out, 0, n * sizeof *out);
    memset(&lc, 0, sizeof lc);
    lc.alloc = opts->allocator;
    lc.n = n;
    lc.out = out;
    if (n > SIZE_MAX / sizeof *lc.sorted ||
        (n && !(lc.sorted = ctg_mem_alloc(lc.alloc, n * sizeof *lc.sorted))))
        return ctg_error_set_plain(err, "<input>", CTG_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        lc.sorted[i] = (wanted){ pointers[i], i };
    if (n)
        qsort(lc.sorted, n, sizeof *lc.sorted, by_pointer);
    rc = locate(&lc, src, opts, err);
    if (rc != CTG_OK && n)
        memset(out, 0, n * sizeof *out);
    ctg_mem_release(lc.alloc, lc.sorted, n * sizeof *lc.sorted);
    ctg_mem_release(lc.alloc, lc.frames, lc.cap * sizeof *lc.frames);
    return rc;
}
