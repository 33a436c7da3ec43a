/* SPDX-License-Identifier: MPL-2.0 */
/* Hash flooding: full reads of a list whose one extension is an object of N keys chosen to
 * collide in the extension reader's old duplicate-key table (unkeyed FNV-1a, linear probing:
 * 65,536 such keys took 12.9 s there, random ones 0.10 s), against one of N random keys of the
 * same length. Both are timed in the same rounds; the target is their median ratio. */

#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench/gen_hostile.h"

static int read_doc(bench_input *in, const bench_bytes *doc, ctg_list **keep)
{
    ctg_list *list = NULL;
    ctg_error err;

    if (ctg_list_read_buffer(&list, doc->data, doc->len, NULL, &err) != CTG_OK) {
        char text[1024];
        ctg_error_format(&err, text, sizeof text);
        return bench_why(in, BENCH_FAIL, "ctg read of a key document failed: %s", text);
    }
    if (keep != NULL)
        *keep = list;
    else
        ctg_list_free(list);
    return BENCH_OK;
}

static int run_colliding(bench_input *in)
{
    return read_doc(in, &in->bytes, NULL);
}

static int run_random(bench_input *in)
{
    return read_doc(in, in->alt, NULL);
}

/* The list of a key document: one contingency whose one extension, "keys", is kept as the
 * compact text {"k":0,...} of all `count` keys. */
static bool holds_keys(const ctg_list *list, size_t count)
{
    const ctg_contingency *c;
    const ctg_extension *x;

    if (ctg_list_contingency_count(list) != 1)
        return false;
    c = ctg_list_contingency_at(list, 0);
    x = ctg_contingency_extension(c, "keys");
    return c->extension_count == 1 && x != NULL && x->json != NULL &&
           x->json_len == 2 + count * (BENCH_KEY_LEN + 4) + (count - 1);
}

/* Read once, `doc` must give all its keys, and written back, its own bytes. */
static int check_doc(bench_input *in, const bench_bytes *doc, size_t count, const char *what)
{
    ctg_list *list = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;
    int rc = read_doc(in, doc, &list);

    if (rc != BENCH_OK)
        return rc;
    if (!holds_keys(list, count))
        rc = bench_why(in, BENCH_FAIL, "the %s keys' list does not hold its %zu keys", what, count);
    else if (ctg_list_write_buf(&buf, list, NULL, &err) != CTG_OK)
        rc = bench_why(in, BENCH_FAIL, "ctg write of the %s keys' list failed", what);
    else if (buf.len != doc->len || memcmp(buf.data, doc->data, doc->len) != 0)
        rc = bench_why(in, BENCH_FAIL, "the %s keys' list, written, differs from its document",
                       what);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
    return rc;
}

int bench_flood_doc(bench_bytes *out, size_t count, bool colliding)
{
    bench_bytes keys = BENCH_BYTES_INIT;
    int rc = bench_gen_keys(&keys, count, colliding, 0x6b657973);

    if (rc == 0)
        rc = bench_gen_key_doc(out, keys.data, count);
    bench_bytes_dispose(&keys);
    return rc;
}

/* The two documents: docs[0] of colliding keys, docs[1] of random ones. */
static int generate_docs(bench_bytes docs[2], size_t count)
{
    return bench_flood_doc(&docs[0], count, true) == 0 &&
                   bench_flood_doc(&docs[1], count, false) == 0
               ? 0
               : -1;
}

static int time_docs(bench_flood_report *r, bench_bytes docs[2])
{
    static const bench_runner pair[] = {
        { "colliding", "", false, run_colliding, NULL, NULL },
        { "random", "", false, run_random, NULL, NULL },
    };
    bench_gen_case c = bench_gen_branches("flooding", 1, 0); /* names the failures */
    bench_result res[2];
    bench_input in;

    memset(&in, 0, sizeof in);
    memset(res, 0, sizeof res);
    in.gen = &c;
    in.bytes = docs[0];
    in.alt = &docs[1];
    if (check_doc(&in, &docs[0], r->keys, "colliding") != BENCH_OK ||
        check_doc(&in, &docs[1], r->keys, "random") != BENCH_OK) {
        fprintf(stderr, "contingency-bench: flooding: %s\n", in.why);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        res[i].name = pair[i].name;
        res[i].supported = true;
        res[i].bytes = docs[i].len;
        res[i].peak_rss = -1;
    }
    if (bench_time(pair, 2, &in, r->runs / 6 + 1, r->runs, res) != 0)
        return -1;
    r->colliding = res[0];
    r->random = res[1];
    return 0;
}

int bench_flood_run(bench_report *rep, size_t keys, int runs)
{
    bench_flood_report *r = &rep->flood;
    bench_bytes docs[2] = { BENCH_BYTES_INIT, BENCH_BYTES_INIT };
    int rc = -1;

    r->keys = keys;
    r->runs = runs;
    if (generate_docs(docs, keys) != 0)
        fprintf(stderr, "contingency-bench: flooding: cannot generate %zu keys\n", keys);
    else if (time_docs(r, docs) == 0)
        rc = 0;
    r->done = rc == 0;
    bench_bytes_dispose(&docs[0]);
    bench_bytes_dispose(&docs[1]);
    return rc;
}

double bench_flood_ratio(const bench_flood_report *f)
{
    return f->done && f->random.median_ms > 0 ? f->colliding.median_ms / f->random.median_ms : 0;
}
