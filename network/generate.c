/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_generate and friends: the entry points, N-1, the pair rules' two passes (count, then
 * emit), the stream form and the equivalent criterion list. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "format/stream_valid.h"
#include "network/generate_int.h"

#define SOURCE "<generate>"

static const char *const rule_names[CTG_GEN_RULE_COUNT] = { "n-1", "parallel",
                                                            "common-substation", "all-pairs",
                                                            "busbar" };

const char *ctg_gen_rule_name(ctg_gen_rule rule)
{
    return (unsigned)rule < CTG_GEN_RULE_COUNT ? rule_names[rule] : NULL;
}

bool ctg_gen_rule_from_name(const char *name, size_t len, ctg_gen_rule *out)
{
    for (int r = 0; name != NULL && r < CTG_GEN_RULE_COUNT; r++)
        if (strlen(rule_names[r]) == len && memcmp(rule_names[r], name, len) == 0) {
            *out = (ctg_gen_rule)r;
            return true;
        }
    return false;
}

/* ---- the selection's visitors ------------------------------------------------------------- */

/* N-1 counting: the type's count, and the mapping's check (an error is an error either way). */
static int count_one(gen_ctx *g, const ctg_net_object *obj, size_t index, void *arg)
{
    ctg_gen_counts *c = arg;
    ctg_element e;

    (void)index;
    if (c != NULL)
        c->selected[obj->type]++;
    return ctg_rs_map(&g->rs, obj, &e);
}

static int emit_one(gen_ctx *g, const ctg_net_object *obj, size_t index, void *arg)
{
    (void)index;
    (void)arg;
    return ctg_gen_emit(g, obj, NULL);
}

/* The selection kept for the pair rules: the objects in order, and their elements. */
typedef struct sel_vec {
    gen_sel s;
    size_t obj_cap, elem_cap;
} sel_vec;

/* Room for one more item in the array at *items of *cap items of `size` bytes (doubling). */
static bool room(gen_ctx *g, void **items, size_t *cap, size_t len, size_t size)
{
    size_t n = *cap != 0 ? 2 * *cap : 64;
    void *p;

    if (len < *cap)
        return true;
    p = ctg_mem_resize(g->alloc, *items, *cap * size, n * size);
    if (p == NULL)
        return false;
    *items = p;
    *cap = n;
    return true;
}

static int keep_one(gen_ctx *g, const ctg_net_object *obj, size_t index, void *arg)
{
    sel_vec *v = arg;
    ctg_element e;
    int rc = ctg_rs_map(&g->rs, obj, &e);

    (void)index;
    if (rc != CTG_OK)
        return rc;
    if (!room(g, (void **)&v->s.objs, &v->obj_cap, v->s.n, sizeof *v->s.objs) ||
        !room(g, (void **)&v->s.elems, &v->elem_cap, v->s.n, sizeof *v->s.elems))
        return ctg_rs_nomem(&g->rs);
    v->s.objs[v->s.n] = obj;
    v->s.elems[v->s.n++] = e;
    return CTG_OK;
}

static int limit(gen_ctx *g, uint64_t count)
{
    if (count <= g->max)
        return CTG_OK;
    return ctg_error_set(g->rs.err, CTG_ELIMIT, NULL, "", "%s would generate %llu "
                         "contingencies, more than the limit of %llu",
                         ctg_gen_rule_name(g->opts->rule), (unsigned long long)count,
                         (unsigned long long)g->max);
}

/* N-1: counted first only when the types hold more objects than the limit allows. */
static int run_n1(gen_ctx *g, ctg_gen_counts *counts)
{
    int rc = CTG_OK;

    if (g->emit == NULL)
        return ctg_gen_select(g, count_one, counts);
    if (ctg_gen_upper_bound(g) > g->max) {
        ctg_gen_counts c;

        memset(&c, 0, sizeof c);
        rc = ctg_gen_select(g, count_one, &c);
        for (int t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++)
            c.selected_total += c.selected[t];
        if (rc == CTG_OK)
            rc = limit(g, c.selected_total);
    }
    return rc == CTG_OK ? ctg_gen_select(g, emit_one, NULL) : rc;
}

/* Room for the whole selection at once when its size is known: no doubling copies. */
static int reserve(gen_ctx *g, sel_vec *v)
{
    uint64_t n = ctg_gen_upper_bound(g);

    if (!ctg_gen_selects_all(g) || n == 0 || n > SIZE_MAX / sizeof *v->s.elems)
        return CTG_OK;
    v->s.objs = ctg_mem_alloc(g->alloc, (size_t)n * sizeof *v->s.objs);
    v->obj_cap = v->s.objs != NULL ? (size_t)n : 0;
    v->s.elems = ctg_mem_alloc(g->alloc, (size_t)n * sizeof *v->s.elems);
    v->elem_cap = v->s.elems != NULL ? (size_t)n : 0;
    return v->s.objs != NULL && v->s.elems != NULL ? CTG_OK : ctg_rs_nomem(&g->rs);
}

/* An HVDC-line element of the kept selection: its id and its place there. */
typedef struct hvdc_item {
    const char *id;
    size_t at;
} hvdc_item;

static int by_id_then_place(const void *a, const void *b)
{
    const hvdc_item *x = a, *y = b;
    int c = strcmp(x->id, y->id);

    return c != 0 ? c : (x->at > y->at) - (x->at < y->at);
}

/* Keeps the first of the kept items that share an element: a converter station's element is
 * its HVDC line, so a line and its two stations are one outage, and a pair of them is no N-2.
 * Only HVDC-line elements can repeat, and a network has few of them. */
static int drop_repeats(gen_ctx *g, gen_sel *s)
{
    size_t h = 0, k = 0, m = 0;
    hvdc_item *items;

    for (size_t i = 0; i < s->n; i++)
        h += s->elems[i].type == CTG_ELEMENT_HVDC_LINE;
    if (h < 2)
        return CTG_OK;
    if ((items = ctg_mem_alloc(g->alloc, h * sizeof *items)) == NULL)
        return ctg_rs_nomem(&g->rs);
    for (size_t i = 0; i < s->n; i++)
        if (s->elems[i].type == CTG_ELEMENT_HVDC_LINE)
            items[k++] = (hvdc_item){ s->elems[i].id, i };
    qsort(items, h, sizeof *items, by_id_then_place);
    for (k = 1; k < h; k++)
        if (strcmp(items[k - 1].id, items[k].id) == 0)
            s->objs[items[k].at] = NULL;
    ctg_mem_release(g->alloc, items, h * sizeof *items);
    for (size_t i = 0; i < s->n; i++)
        if (s->objs[i] != NULL) {
            s->objs[m] = s->objs[i];
            s->elems[m++] = s->elems[i];
        }
    s->n = m;
    return CTG_OK;
}

/* The pair rules: the selection kept, the pairs counted, then (generating) emitted. */
static int run_pairs(gen_ctx *g, ctg_gen_counts *counts)
{
    sel_vec v;
    uint64_t n = 0, groups = 0;
    int rc;

    memset(&v, 0, sizeof v);
    rc = reserve(g, &v);
    if (rc == CTG_OK)
        rc = ctg_gen_select(g, keep_one, &v);
    for (size_t i = 0; counts != NULL && i < v.s.n; i++)
        counts->selected[v.s.objs[i]->type]++;
    if (rc == CTG_OK && g->opts->rule == CTG_GEN_ALL_PAIRS) /* the other takes only branches */
        rc = drop_repeats(g, &v.s);
    if (rc == CTG_OK)
        rc = ctg_gen_pairs(g, &v.s, false, &n, &groups);
    if (rc == CTG_OK && counts != NULL) {
        counts->contingencies = n;
        counts->groups = groups;
    }
    if (rc == CTG_OK && g->emit != NULL)
        rc = limit(g, n);
    if (rc == CTG_OK && g->emit != NULL)
        rc = ctg_gen_pairs(g, &v.s, true, &n, &groups);
    ctg_gen_pairs_release(g, &v.s);
    ctg_mem_release(g->alloc, v.s.objs, v.obj_cap * sizeof *v.s.objs);
    ctg_mem_release(g->alloc, v.s.elems, v.elem_cap * sizeof *v.s.elems);
    return rc;
}

/* The parallel rule: its groups found (and counted) once, then (generating) emitted. */
static int run_parallel(gen_ctx *g, ctg_gen_counts *counts)
{
    gen_par p;
    int rc = ctg_gen_parallel_find(g, &p, counts != NULL ? counts->selected : NULL);

    if (rc == CTG_OK && counts != NULL) {
        counts->contingencies = p.pairs;
        counts->groups = p.groups;
    }
    if (rc == CTG_OK && g->emit != NULL)
        rc = limit(g, p.pairs);
    if (rc == CTG_OK && g->emit != NULL)
        rc = ctg_gen_parallel_emit(g, &p);
    ctg_gen_parallel_release(g, &p);
    return rc;
}

/* The busbar rule: counted (for the limit), then emitted. */
static int run_busbar(gen_ctx *g, ctg_gen_counts *counts)
{
    uint64_t n = 0, groups = 0;
    int rc = ctg_gen_busbar(g, false, &n, &groups, counts != NULL ? counts->selected : NULL);

    if (rc == CTG_OK && counts != NULL) {
        counts->contingencies = n;
        counts->groups = groups;
    }
    if (rc == CTG_OK && g->emit != NULL)
        rc = limit(g, n);
    if (rc == CTG_OK && g->emit != NULL)
        rc = ctg_gen_busbar(g, true, &n, &groups, NULL);
    return rc;
}

static int run(const ctg_network *net, const ctg_gen_options *opts, ctg_gen_emit_fn emit,
               void *payload, ctg_gen_counts *counts, ctg_error *err)
{
    gen_ctx g;
    int rc;

    if (net == NULL)
        return ctg_rs_finish(err, ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL network"),
                             SOURCE);
    rc = ctg_gen_setup(&g, net, opts, err);
    g.emit = emit;
    g.payload = payload;
    if (rc == CTG_OK && opts->rule == CTG_GEN_BUSBAR)
        rc = run_busbar(&g, counts);
    else if (rc == CTG_OK && opts->rule == CTG_GEN_PARALLEL)
        rc = run_parallel(&g, counts);
    else if (rc == CTG_OK)
        rc = opts->rule == CTG_GEN_N1 ? run_n1(&g, counts) : run_pairs(&g, counts);
    ctg_gen_dispose(&g);
    return ctg_rs_finish(err, rc, SOURCE);
}

int ctg_generate(const ctg_network *net, const ctg_gen_options *opts, ctg_gen_emit_fn emit,
                 void *payload, ctg_error *err)
{
    ctg_error local;

    if (err == NULL)
        err = &local;
    if (emit == NULL)
        return ctg_rs_finish(err, ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL callback"),
                             SOURCE);
    return run(net, opts, emit, payload, NULL, err);
}

int ctg_generate_count(const ctg_network *net, const ctg_gen_options *opts,
                       ctg_gen_counts *out, ctg_error *err)
{
    ctg_error local;
    ctg_gen_counts c;
    int rc;

    if (err == NULL)
        err = &local;
    if (out == NULL || out->version > CTG_GEN_COUNTS_VERSION)
        return ctg_rs_finish(err, ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL counts, or "
                             "of a version newer than this library's"), SOURCE);
    memset(&c, 0, sizeof c);
    c.version = CTG_GEN_COUNTS_VERSION;
    rc = run(net, opts, NULL, NULL, &c, err);
    if (rc != CTG_OK)
        return rc;
    for (int t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++)
        c.selected_total += c.selected[t];
    if (opts->rule == CTG_GEN_N1)
        c.contingencies = c.selected_total;
    *out = c;
    return CTG_OK;
}

/* ---- into a stream writer ----------------------------------------------------------------- */

typedef struct to_stream {
    ctg_stream_writer *w;
    ctg_error err; /* the writer's, kept apart from the generator's "stopped" */
    int rc;
} to_stream;

static int write_one(const ctg_contingency *c, void *payload)
{
    to_stream *s = payload;

    s->rc = ctg_stream_writer_add_valid(s->w, c, &s->err); /* ids of the table, checked format */
    return s->rc != CTG_OK;
}

int ctg_generate_to_stream(const ctg_network *net, const ctg_gen_options *opts,
                           ctg_stream_writer *w, ctg_error *err)
{
    to_stream s;
    int rc;

    memset(&s, 0, sizeof s);
    s.w = w;
    if (w == NULL) {
        ctg_error local;

        err = err != NULL ? err : &local;
        return ctg_rs_finish(err, ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL writer"),
                             SOURCE);
    }
    rc = ctg_generate(net, opts, write_one, &s, err);
    if (rc == CTG_ESTOPPED && s.rc != CTG_OK) {
        if (err != NULL)
            *err = s.err;
        rc = s.rc;
    }
    return rc;
}
