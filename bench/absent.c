/* SPDX-License-Identifier: MPL-2.0 */
/* The absent-field micro-benchmark: the same list of single-BRANCH contingencies with the
 * optional `name` absent and present. Time per contingency, allocator calls per contingency
 * with the list's normal (chunked) arena, and arena requests per contingency with an exact
 * arena (one allocator call per request; internal, from the static library), taken as the
 * slope between n/2 and n contingencies so that per-read costs cancel out. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "format/read_internal.h"
#include "base/arena.h"

typedef struct counting {
    size_t calls; /* alloc + resize */
} counting;

static void *count_alloc(void *ctx, size_t size)
{
    ((counting *)ctx)->calls++;
    return malloc(size);
}

static void *count_resize(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)old_size;
    ((counting *)ctx)->calls++;
    return realloc(ptr, new_size);
}

static void count_release(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

/* Allocator calls of one full read of `doc`; -1 (as SIZE_MAX) on a failure. */
static size_t calls_of(const bench_bytes *doc, unsigned arena_flags)
{
    counting n = { 0 };
    ctg_allocator a = { count_alloc, count_resize, count_release, &n };
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;

    opts.allocator = &a;
    if (ctg_list_read_buffer_ex(&list, doc->data, doc->len, &opts, &err, arena_flags) != CTG_OK) {
        char text[1024];
        ctg_error_format(&err, text, sizeof text);
        fprintf(stderr, "contingency-bench: absent-field read failed: %s\n", text);
        return (size_t)-1;
    }
    ctg_list_free(list);
    return n.calls;
}

static int read_doc(bench_input *in, const bench_bytes *doc)
{
    ctg_list *list = NULL;
    ctg_error err;

    if (ctg_list_read_buffer(&list, doc->data, doc->len, NULL, &err) != CTG_OK)
        return bench_why(in, BENCH_FAIL, "ctg read failed");
    ctg_list_free(list);
    return BENCH_OK;
}

static int run_absent(bench_input *in)
{
    return read_doc(in, &in->bytes);
}

static int run_present(bench_input *in)
{
    return read_doc(in, in->alt);
}

/* Counts for one variant: `half` and `full` are the same list at n/2 and n contingencies. */
static int count_variant(bench_absent_variant *v, const bench_bytes *half, const bench_bytes *full,
                         size_t n)
{
    size_t chunked = calls_of(full, 0);
    size_t exact_half = calls_of(half, CTG_ARENA_EXACT),
           exact_full = calls_of(full, CTG_ARENA_EXACT);

    if (chunked == (size_t)-1 || exact_half == (size_t)-1 || exact_full == (size_t)-1)
        return -1;
    v->bytes = full->len;
    v->calls_per_contingency = (double)chunked / (double)n;
    v->exact_requests = (double)(exact_full - exact_half) / (double)(n - n / 2);
    return 0;
}

/* Generates the n/2 and n documents of a variant. */
static int generate_pair(bench_bytes *half, bench_bytes *full, size_t n, unsigned flags)
{
    bench_gen_case h = bench_gen_branches("absent", n / 2, flags);
    bench_gen_case f = bench_gen_branches("absent", n, flags);

    return bench_gen_generate(&h, half) == 0 && bench_gen_generate(&f, full) == 0 ? 0 : -1;
}

static int time_variants(bench_absent_report *r, bench_bytes *absent, bench_bytes *present)
{
    static const bench_runner pair[] = {
        { "name-absent", "", false, run_absent, NULL, NULL },
        { "name-present", "", false, run_present, NULL, NULL },
    };
    bench_gen_case c = bench_gen_branches("absent", r->contingencies, 0);
    bench_result res[2];
    bench_input in;

    memset(&in, 0, sizeof in);
    memset(res, 0, sizeof res);
    in.gen = &c;
    in.bytes = *absent;
    in.alt = present;
    res[0].supported = res[1].supported = true;
    res[0].bytes = absent->len;
    res[1].bytes = present->len;
    if (bench_time(pair, 2, &in, r->runs / 6 + 1, r->runs, res) != 0)
        return -1;
    r->absent.ns_per_contingency = res[0].median_ms * 1e6 / (double)r->contingencies;
    r->present.ns_per_contingency = res[1].median_ms * 1e6 / (double)r->contingencies;
    return 0;
}

int bench_absent_run(bench_report *rep, size_t contingencies, int runs)
{
    bench_absent_report *r = &rep->absent;
    bench_bytes docs[4] = { BENCH_BYTES_INIT, BENCH_BYTES_INIT, BENCH_BYTES_INIT,
                            BENCH_BYTES_INIT };
    int rc = -1;

    r->contingencies = contingencies;
    r->runs = runs;
    r->required = 3; /* the contingency id, its element array, the element's id */
    r->absent.label = "name absent";
    r->present.label = "name present";
    if (generate_pair(&docs[0], &docs[1], contingencies, 0) != 0 ||
        generate_pair(&docs[2], &docs[3], contingencies, BENCH_CASE_NAMED) != 0) {
        fprintf(stderr, "contingency-bench: absent-field documents: out of memory\n");
        goto done;
    }
    if (count_variant(&r->absent, &docs[0], &docs[1], contingencies) != 0 ||
        count_variant(&r->present, &docs[2], &docs[3], contingencies) != 0 ||
        time_variants(r, &docs[1], &docs[3]) != 0)
        goto done;
    r->absent.over_required = r->absent.exact_requests - r->required;
    r->present.over_required = r->present.exact_requests - r->required;
    r->done = true;
    rc = 0;
done:
    for (int i = 0; i < 4; i++)
        bench_bytes_dispose(&docs[i]);
    return rc;
}
