/* SPDX-License-Identifier: MPL-2.0 */
/* The ids of generated contingencies (the id format's placeholders) and their emission: one
 * element per object, built in the evaluation's scratch memory, reused from one contingency
 * to the next, so that a run allocates nothing per contingency. */

#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "network/generate_int.h"

/* The placeholders, by rule. */
typedef enum field { F_ID, F_TYPE, F_VL1, F_VL2, F_SUBSTATION, F_ID1, F_ID2, F_RULE, F_NONE } field;

static field field_of(const char *name, size_t len, bool pair)
{
    static const char *const names[] = { "id", "type", "vl1", "vl2", "substation",
                                         "id1", "id2", "rule" };

    for (int f = 0; f < F_NONE; f++)
        if (strlen(names[f]) == len && memcmp(names[f], name, len) == 0)
            return (f >= F_ID1) == pair ? (field)f : F_NONE;
    return F_NONE;
}

/* Where the placeholder starting at `s` ("{...}") ends (its '}'), NULL when it has none. */
static const char *close_of(const char *s)
{
    const char *e = strchr(s + 1, '}');
    const char *o = strchr(s + 1, '{');

    return e != NULL && (o == NULL || o > e) ? e : NULL;
}

/* Walks `format`: each literal run and placeholder into segs[*n] when `segs` is not NULL;
 * *n counts them either way. CTG_EINVAL with the message for a format that is not valid. */
static int walk(gen_ctx *g, const char *format, bool pair, gen_seg *segs, size_t *n)
{
    *n = 0;
    for (const char *p = format; *p != '\0';) {
        size_t run = strcspn(p, "{}");
        const char *e;
        gen_seg seg = { p, run, F_NONE };

        if (run == 0 && p[1] == p[0]) { /* "{{" or "}}": the brace itself */
            seg.len = 1;
            run = 2;
        } else if (run == 0 && *p == '}') {
            return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", "id format \"%.64s\": a "
                                 "lone '}' (write \"}}\")", format);
        } else if (run == 0) {
            e = close_of(p);
            seg.text = NULL;
            seg.field = e != NULL ? (int)field_of(p + 1, (size_t)(e - p - 1), pair) : F_NONE;
            if (seg.field == F_NONE)
                return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", "id format \"%.64s\": "
                                     "unknown placeholder at \"%.16s\" (%s)", format, p,
                                     pair ? "{id1}, {id2}, {rule}"
                                          : "{id}, {type}, {vl1}, {vl2}, {substation}");
            run = (size_t)(e - p) + 1;
        }
        if (segs != NULL)
            segs[*n] = seg;
        (*n)++;
        p += run;
    }
    return CTG_OK;
}

/* Whether the ids of `segs` tell the contingencies apart: only an object's id is unique in
 * a network (many share a type, a level, a substation), so an N-1 or busbar format needs {id}
 * and a pair's needs {id1} and {id2}, an object being in several pairs. Refused otherwise, as
 * a list of repeated ids cannot be used, and would be found only once written. */
static int check_distinct(gen_ctx *g, const char *format, bool pair, const gen_seg *segs,
                          size_t n)
{
    bool id = false, id1 = false, id2 = false;

    for (size_t i = 0; i < n; i++) {
        id |= segs[i].field == F_ID; /* a literal is F_NONE */
        id1 |= segs[i].field == F_ID1;
        id2 |= segs[i].field == F_ID2;
    }
    if (!pair && !id)
        return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", "id format \"%.64s\": no {id}, "
                             "so contingencies would share ids", format);
    if (pair && !(id1 && id2))
        return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", "id format \"%.64s\": no %s, so "
                             "pairs would share ids", format,
                             id1 ? "{id2}" : id2 ? "{id1}" : "{id1} and {id2}");
    return CTG_OK;
}

int ctg_gen_format_check(gen_ctx *g, const char *format, bool pair)
{
    size_t n;
    int rc;

    /* Checked once here, so that the ids made of it and of the table's ids need no check. */
    if (!ctg_utf8_valid(format))
        return ctg_error_set(g->rs.err, CTG_EINVAL, NULL, "", "the id format is not valid "
                             "UTF-8");
    rc = walk(g, format, pair, NULL, &n);
    if (rc != CTG_OK)
        return rc;
    g->segs = ctg_mem_alloc(g->alloc, (n > 0 ? n : 1) * sizeof *g->segs);
    if (g->segs == NULL)
        return ctg_rs_nomem(&g->rs);
    g->seg_count = n;
    rc = walk(g, format, pair, g->segs, &n);
    if (rc == CTG_OK)
        rc = check_distinct(g, format, pair, g->segs, n);
    g->prefix_id = rc == CTG_OK && n == 2 && g->segs[0].text != NULL &&
                   (g->segs[1].field == F_ID || g->segs[1].field == F_ID1);
    g->prefix_len = g->prefix_id ? g->segs[0].len : 0;
    g->pair_ids = rc == CTG_OK && pair && n == 4 && g->segs[0].text != NULL &&
                  g->segs[1].field == F_ID1 && g->segs[2].text != NULL && g->segs[3].field == F_ID2;
    for (size_t i = 0; rc == CTG_OK && pair && i < n; i++) {
        const gen_seg *s = &g->segs[i];
        const char *rule = ctg_gen_rule_name(g->opts->rule);

        g->pair_fixed += s->text != NULL ? s->len : s->field == F_RULE && rule ? strlen(rule) : 0;
        g->id1_count += s->field == F_ID1;
        g->id2_count += s->field == F_ID2;
    }
    return rc;
}

static const char *id_or_empty(const ctg_net_object *o)
{
    return o != NULL ? o->id : "";
}

/* A transformer's own substation, else that of its side-1 voltage level. */
static const char *substation_of(const ctg_net_object *o)
{
    if (o->substation != NULL)
        return o->substation->id;
    return o->voltage_levels[0] != NULL ? id_or_empty(o->voltage_levels[0]->substation) : "";
}

static const char *value_of(const gen_ctx *g, field f, const ctg_net_object *a,
                            const ctg_net_object *b)
{
    switch (f) {
    case F_ID:
    case F_ID1: return a->id;
    case F_ID2: return b->id;
    case F_TYPE: return ctg_identifiable_type_name(a->type);
    case F_VL1: return id_or_empty(a->voltage_levels[0]);
    case F_VL2: return id_or_empty(a->voltage_levels[1]);
    case F_SUBSTATION: return substation_of(a);
    default: return ctg_gen_rule_name(g->opts->rule);
    }
}

/* The values of the placeholders are looked up once and the id is written in one piece: this
 * runs once per contingency, up to tens of millions of times. */
#define FAST_SEGS 16

static int format_slow(gen_ctx *g, const ctg_net_object *a, const ctg_net_object *b)
{
    bool ok;

    g->rs.text_len = 0;
    ok = ctg_rs_text_append(&g->rs, "", 0); /* a NUL even for an empty id */
    for (size_t i = 0; ok && i < g->seg_count; i++) {
        const gen_seg *s = &g->segs[i];
        const char *v = s->text != NULL ? s->text : value_of(g, (field)s->field, a, b);

        ok = ctg_rs_text_append(&g->rs, v, s->text != NULL ? s->len : strlen(v));
    }
    return ok ? CTG_OK : ctg_rs_nomem(&g->rs);
}

/* The literal then the id (g->prefix_id): the literal is written by the slow path, the first
 * time and whenever the text must grow, and stays, since only this file writes g->rs.text and
 * every id it writes starts with it: a text_len of at least its length says it is there. */
static int format_prefix_id(gen_ctx *g, const ctg_net_object *a)
{
    size_t len = strlen(a->id), p = g->prefix_len;

    if (p + len + 1 > g->rs.text_cap || g->rs.text_len < p)
        return format_slow(g, a, NULL);
    memcpy(g->rs.text + p, a->id, len + 1);
    g->rs.text_len = p + len;
    return CTG_OK;
}

int ctg_gen_format(gen_ctx *g, const ctg_net_object *a, const ctg_net_object *b)
{
    const char *v[FAST_SEGS];
    size_t len[FAST_SEGS], total = 0;
    char *out;

    if (g->prefix_id)
        return format_prefix_id(g, a);
    if (g->seg_count > FAST_SEGS)
        return format_slow(g, a, b);
    for (size_t i = 0; i < g->seg_count; i++) {
        const gen_seg *s = &g->segs[i];

        v[i] = s->text != NULL ? s->text : value_of(g, (field)s->field, a, b);
        len[i] = s->text != NULL ? s->len : strlen(v[i]);
        total += len[i];
    }
    if (total + 1 > g->rs.text_cap) /* the slow path grows the buffer, once in a while */
        return format_slow(g, a, b);
    out = g->rs.text;
    for (size_t i = 0; i < g->seg_count; i++) {
        memcpy(out, v[i], len[i]);
        out += len[i];
    }
    *out = '\0';
    g->rs.text_len = total;
    return CTG_OK;
}

int ctg_gen_emit(gen_ctx *g, const ctg_net_object *a, const ctg_net_object *b)
{
    ctg_contingency c;
    int rc;

    if (!ctg_rs_elems_room(&g->rs, 2))
        return ctg_rs_nomem(&g->rs);
    rc = ctg_rs_map(&g->rs, a, &g->rs.elems[0]);
    if (rc == CTG_OK && b != NULL)
        rc = ctg_rs_map(&g->rs, b, &g->rs.elems[1]);
    if (rc != CTG_OK || g->emit == NULL) {
        g->emitted += rc == CTG_OK;
        return rc;
    }
    rc = ctg_gen_format(g, a, b);
    if (rc != CTG_OK)
        return rc;
    memset(&c, 0, sizeof c);
    c.id = g->rs.text;
    c.elements = g->rs.elems;
    c.element_count = b != NULL ? 2 : 1;
    if (g->emit(&c, g->payload) != 0)
        return ctg_error_set(g->rs.err, CTG_ESTOPPED, NULL, "", "stopped by the callback at "
                             "\"%.64s\"", c.id);
    g->emitted++;
    return CTG_OK;
}

/* The value of a pair format's placeholder `f` and its length. */
static const char *member_value(const gen_ctx *g, field f, const gen_member *a,
                                const gen_member *b, size_t *len)
{
    const char *v;

    if (f == F_ID1 || f == F_ID2) {
        *len = f == F_ID1 ? a->id_len : b->id_len;
        return f == F_ID1 ? a->obj->id : b->obj->id;
    }
    v = value_of(g, f, a->obj, b->obj);
    *len = strlen(v);
    return v;
}

/* The id of a pair of members in a format of g->pair_ids, in room enough. Its first literal
 * stays from the id before when `kept`, as in format_prefix_id: every id written here starts
 * with it. */
static void format_pair_ids(gen_ctx *g, const gen_member *a, const gen_member *b, bool kept)
{
    const gen_seg *s = g->segs;
    char *out = g->rs.text;

    if (!kept)
        memcpy(out, s[0].text, s[0].len);
    out += s[0].len;
    memcpy(out, a->obj->id, a->id_len);
    out += a->id_len;
    memcpy(out, s[2].text, s[2].len);
    out += s[2].len;
    memcpy(out, b->obj->id, b->id_len + 1); /* with its '\0' */
}

/* The id of a pair of members: its length known beforehand from theirs, no strlen per pair. */
static int format_members(gen_ctx *g, const gen_member *a, const gen_member *b)
{
    size_t total = g->pair_fixed + g->id1_count * a->id_len + g->id2_count * b->id_len;
    char *out = g->rs.text;
    bool kept = g->pair_ids && g->rs.text_len >= g->segs[0].len;

    if (total + 1 > g->rs.text_cap) /* the slow path grows the buffer, once in a while */
        return format_slow(g, a->obj, b->obj);
    g->rs.text_len = total;
    if (g->pair_ids) {
        format_pair_ids(g, a, b, kept);
        return CTG_OK;
    }
    for (size_t i = 0; i < g->seg_count; i++) {
        const gen_seg *s = &g->segs[i];
        size_t len = s->len;
        const char *v = s->text != NULL ? s->text : member_value(g, (field)s->field, a, b, &len);

        memcpy(out, v, len);
        out += len;
    }
    *out = '\0';
    return CTG_OK;
}

/* Hands the pair whose id is in g->rs.text to the callback. */
static int emit_two(gen_ctx *g, const ctg_element *ea, const ctg_element *eb)
{
    ctg_element e[2];
    ctg_contingency c;

    e[0] = *ea;
    e[1] = *eb;
    memset(&c, 0, sizeof c);
    c.id = g->rs.text;
    c.elements = e;
    c.element_count = 2;
    if (g->emit(&c, g->payload) != 0)
        return ctg_error_set(g->rs.err, CTG_ESTOPPED, NULL, "", "stopped by the callback at "
                             "\"%.64s\"", c.id);
    g->emitted++;
    return CTG_OK;
}

int ctg_gen_emit_members(gen_ctx *g, const gen_member *a, const gen_member *b)
{
    int rc = format_members(g, a, b);

    return rc != CTG_OK ? rc : emit_two(g, &a->elem, &b->elem);
}

int ctg_gen_emit_pair(gen_ctx *g, const ctg_net_object *a, const ctg_net_object *b,
                      const ctg_element *ea, const ctg_element *eb)
{
    int rc = ctg_gen_format(g, a, b);

    return rc != CTG_OK ? rc : emit_two(g, ea, eb);
}

/* Whether elems[m] is one of elems[0..m): a converter station is its HVDC line's element, and
 * a busbar may hold both, or both stations of the line. A busbar holds a few dozen at most. */
static bool element_seen(const ctg_element *elems, size_t m)
{
    for (size_t i = 0; i < m; i++)
        if (elems[i].type == elems[m].type && strcmp(elems[i].id, elems[m].id) == 0)
            return true;
    return false;
}

int ctg_gen_emit_set(gen_ctx *g, const ctg_net_object *busbar, const ctg_net_object *const *objs,
                     size_t n)
{
    ctg_contingency c;
    size_t m = 0;
    int rc = CTG_OK;

    if (!ctg_rs_elems_room(&g->rs, n))
        return ctg_rs_nomem(&g->rs);
    for (size_t i = 0; rc == CTG_OK && i < n; i++) {
        rc = ctg_rs_map(&g->rs, objs[i], &g->rs.elems[m]);
        m += rc == CTG_OK && !element_seen(g->rs.elems, m);
    }
    if (rc == CTG_OK)
        rc = ctg_gen_format(g, busbar, NULL);
    if (rc != CTG_OK)
        return rc;
    memset(&c, 0, sizeof c);
    c.id = g->rs.text;
    c.elements = g->rs.elems;
    c.element_count = m;
    if (g->emit(&c, g->payload) != 0)
        return ctg_error_set(g->rs.err, CTG_ESTOPPED, NULL, "", "stopped by the callback at "
                             "\"%.64s\"", c.id);
    g->emitted++;
    return CTG_OK;
}
