/* SPDX-License-Identifier: MPL-2.0 */
/* Spec section 4: the validity filter of `default` lists. A contingency is kept when every
 * element names an object of its kind (id or alias) on the given side; it is kept unchanged. */

#include <ctype.h>
#include <string.h>

#include "base/alloc.h"
#include "model/list_impl.h"
#include "network/resolve_int.h"
#include "network/table.h"

/* Why an element is not valid. */
typedef enum verdict { VALID = 0, MISSING, WRONG_TYPE, WRONG_SIDE } verdict;

/* The one identifiable type an element type must name; -1 for the types checked otherwise. */
static int exact_type(ctg_element_type t)
{
    switch (t) {
    case CTG_ELEMENT_GENERATOR: return CTG_IDENTIFIABLE_GENERATOR;
    case CTG_ELEMENT_STATIC_VAR_COMPENSATOR: return CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR;
    case CTG_ELEMENT_SHUNT_COMPENSATOR: return CTG_IDENTIFIABLE_SHUNT_COMPENSATOR;
    case CTG_ELEMENT_BUSBAR_SECTION: return CTG_IDENTIFIABLE_BUSBAR_SECTION;
    case CTG_ELEMENT_DANGLING_LINE:
    case CTG_ELEMENT_BOUNDARY_LINE: return CTG_IDENTIFIABLE_BOUNDARY_LINE;
    case CTG_ELEMENT_THREE_WINDINGS_TRANSFORMER:
        return CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER;
    case CTG_ELEMENT_LOAD: return CTG_IDENTIFIABLE_LOAD;
    case CTG_ELEMENT_SWITCH: return CTG_IDENTIFIABLE_SWITCH;
    case CTG_ELEMENT_BATTERY: return CTG_IDENTIFIABLE_BATTERY;
    case CTG_ELEMENT_VOLTAGE_SOURCE_CONVERTER: return CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER;
    /* A DC line's side would be a DC node, which the JSON never carries: not checked. */
    case CTG_ELEMENT_DC_LINE: return CTG_IDENTIFIABLE_DC_LINE;
    case CTG_ELEMENT_DC_GROUND: return CTG_IDENTIFIABLE_DC_GROUND;
    case CTG_ELEMENT_DC_NODE: return CTG_IDENTIFIABLE_DC_NODE;
    default: return -1;
    }
}

/* Whether a sided element of type `t` may name an object of type `ot`. */
static bool sided_accepts(ctg_element_type t, ctg_identifiable_type ot)
{
    switch (t) {
    case CTG_ELEMENT_LINE: return ot == CTG_IDENTIFIABLE_LINE;
    case CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER:
        return ot == CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER;
    case CTG_ELEMENT_TIE_LINE: return ot == CTG_IDENTIFIABLE_TIE_LINE;
    case CTG_ELEMENT_HVDC_LINE: return ot == CTG_IDENTIFIABLE_HVDC_LINE;
    case CTG_ELEMENT_BRANCH:
        return ot == CTG_IDENTIFIABLE_LINE || ot == CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER ||
               ot == CTG_IDENTIFIABLE_TIE_LINE;
    default: return false;
    }
}

/* The side of a branch, tie line or HVDC line: the id of one of its two voltage levels
 * (those of its boundary lines or converter stations), compared as it is (no alias). */
static bool on_a_side(const ctg_net_object *obj, const char *vl)
{
    for (int s = 0; s < 2; s++)
        if (obj->voltage_levels[s] != NULL && strcmp(obj->voltage_levels[s]->id, vl) == 0)
            return true;
    return false;
}

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;

    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Hashes the calculated buses of every node-breaker voltage level, once. */
static int build_buses(rs_ctx *ctx)
{
    size_t nvl = ctg_network_count(ctx->net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL), n = 0, cap = 1;
    rs_bus_set *set = &ctx->buses;

    for (size_t i = 0; i < nvl; i++)
        n += ctg_network_object_at(ctx->net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, i)
                 ->container->calculated_bus_count;
    set->built = true;
    if (n == 0)
        return CTG_OK;
    while (cap < 2 * n)
        cap *= 2;
    set->slots = ctg_mem_alloc(ctx->alloc, cap * sizeof *set->slots);
    if (set->slots == NULL) {
        set->built = false;
        return ctg_rs_nomem(ctx);
    }
    memset(set->slots, 0, cap * sizeof *set->slots);
    set->mask = cap - 1;
    for (size_t i = 0; i < nvl; i++) {
        const ctg_net_container *c =
            ctg_network_object_at(ctx->net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, i)->container;

        for (size_t b = 0; b < c->calculated_bus_count; b++) {
            size_t k = hash_str(c->calculated_buses[b]) & set->mask;

            while (set->slots[k] != NULL)
                k = (k + 1) & set->mask;
            set->slots[k] = c->calculated_buses[b];
        }
    }
    return CTG_OK;
}

static int calculated_bus(rs_ctx *ctx, const char *id, bool *found)
{
    *found = false;
    if (!ctx->buses.built) {
        int rc = build_buses(ctx);

        if (rc != CTG_OK)
            return rc;
    }
    if (ctx->buses.slots == NULL)
        return CTG_OK;
    for (size_t k = hash_str(id) & ctx->buses.mask; ctx->buses.slots[k] != NULL;
         k = (k + 1) & ctx->buses.mask)
        if (strcmp(ctx->buses.slots[k], id) == 0) {
            *found = true;
            break;
        }
    return CTG_OK;
}

/* The verdict on an element of a type other than BUS, whose id names `obj` (NULL: nothing). */
static verdict judge_element(const ctg_element *e, const ctg_net_object *obj)
{
    int want = exact_type(e->type);

    if (obj == NULL)
        return MISSING;
    if (want >= 0)
        return (int)obj->type == want ? VALID : WRONG_TYPE;
    if (!sided_accepts(e->type, obj->type))
        return WRONG_TYPE;
    if (e->voltage_level_id != NULL && !on_a_side(obj, e->voltage_level_id))
        return WRONG_SIDE;
    return VALID;
}

/* The verdict on one element whose id is not empty. */
static int check_element(rs_ctx *ctx, const ctg_element *e, verdict *v)
{
    const ctg_net_object *obj = ctg_network_find(ctx->net, e->id, strlen(e->id));
    bool found;
    int rc;

    *v = VALID;
    if (e->type == CTG_ELEMENT_BUS) {
        if (obj != NULL && obj->type == CTG_IDENTIFIABLE_BUS)
            return CTG_OK;
        rc = calculated_bus(ctx, e->id, &found);
        *v = found ? VALID : obj == NULL ? MISSING : WRONG_TYPE;
        return rc;
    }
    *v = judge_element(e, obj);
    return CTG_OK;
}

/* "two windings transformer" for TWO_WINDINGS_TRANSFORMER, into `buf`. */
static const char *kind_word(ctg_element_type t, char *buf, size_t cap)
{
    const char *name = ctg_element_type_name(t);
    size_t i = 0;

    for (; name != NULL && name[i] != '\0' && i + 1 < cap; i++)
        buf[i] = name[i] == '_' ? ' ' : (char)tolower((unsigned char)name[i]);
    buf[i] = '\0';
    return buf;
}

static int report_dropped(rs_ctx *ctx, const ctg_contingency *c, const ctg_element *e,
                          verdict v)
{
    char word[48];

    if (ctx->report == NULL)
        return CTG_OK;
    kind_word(e->type, word, sizeof word);
    if (v == WRONG_SIDE)
        return ctg_rs_report(ctx, CTG_RESOLVE_DROPPED, c->id, e->id, e->type,
                             "voltage level \"%.64s\" is on no side of %s \"%.64s\"",
                             e->voltage_level_id, word, e->id);
    if (v == WRONG_TYPE)
        return ctg_rs_report(ctx, CTG_RESOLVE_DROPPED, c->id, e->id, e->type,
                             "\"%.64s\" is not a %s", e->id, word);
    return ctg_rs_report(ctx, CTG_RESOLVE_DROPPED, c->id, e->id, e->type,
                         "no %s with this id", word);
}

int ctg_rs_check(rs_ctx *ctx, const ctg_contingency *c, bool *valid)
{
    const ctg_element *bad = NULL;
    verdict why = VALID;

    *valid = true;
    for (size_t j = 0; j < c->element_count; j++) {
        const ctg_element *e = &c->elements[j];
        verdict v;
        int rc;

        if (e->id[0] == '\0') { /* PowSyBl throws here: the whole evaluation fails */
            size_t mark = ctg_rs_path_push(ctx, "elements");

            ctg_rs_path_push_index(ctx, j);
            rc = ctg_rs_fail(ctx, "invalid id \"\" in contingency \"%.64s\"", c->id);
            ctg_rs_path_pop(ctx, mark);
            return rc;
        }
        rc = check_element(ctx, e, &v);
        if (rc != CTG_OK)
            return rc;
        if (v != VALID && bad == NULL) {
            bad = e;
            why = v;
        }
    }
    *valid = bad == NULL;
    return bad == NULL ? CTG_OK : report_dropped(ctx, c, bad, why);
}

/* Adds `c`, a contingency of the list being resolved, to the output: into a list, without
 * checking again what that list checked. The sink's error has no path. */
static int keep(rs_ctx *ctx, const ctg_contingency *c)
{
    int rc;

    if (ctx->sink.list == NULL || c->extension_count > 0)
        return ctx->sink.add(ctx->sink.target, c, ctx->err);
    rc = ctg_list_append_copy(ctx->sink.list, c);
    return rc == CTG_OK ? rc : ctg_error_set(ctx->err, rc, NULL, NULL, "out of memory");
}

/* Contingency `i` of `list` at its path: checked, reported when dropped, else added. */
static int default_at(rs_ctx *ctx, const ctg_list *list, const ctg_contingency *c, size_t i)
{
    size_t mark = ctx->path_len;
    bool valid;
    int rc;

    if (ctg_list_get_kind(list) == CTG_LIST_DEFAULT) {
        ctg_rs_path_push(ctx, "contingencies");
        ctg_rs_path_push_index(ctx, i);
    }
    rc = ctg_rs_check(ctx, c, &valid);
    if (rc == CTG_OK && valid) {
        rc = keep(ctx, c);
        if (rc != CTG_OK) /* the sink wrote the message; the place is ours */
            ctg_error_set(ctx->err, rc, NULL, ctx->path, NULL);
    }
    ctg_rs_path_pop(ctx, mark);
    return rc;
}

/* The validity of `c` without a path or a report, its first element's object given (NULL:
 * none); false when default_at must decide: an empty id fails the evaluation, and a BUS may
 * need the calculated buses, whose building can fail. */
static bool quick_check(rs_ctx *ctx, const ctg_contingency *c, const ctg_net_object *first,
                        bool *valid)
{
    *valid = true;
    for (size_t j = 0; j < c->element_count; j++) {
        const ctg_element *e = &c->elements[j];

        if (e->id[0] == '\0' || e->type == CTG_ELEMENT_BUS)
            return false;
        if (judge_element(e, j == 0 ? first : ctg_network_find(ctx->net, e->id, strlen(e->id)))
            != VALID)
            *valid = false;
    }
    return true;
}

/* One contingency of a batch: the common cases (kept, or dropped unreported) write no path. */
static int default_one(rs_ctx *ctx, const ctg_list *list, const ctg_contingency *c, size_t i,
                       const ctg_net_object *first)
{
    bool valid;
    int rc;

    if (!quick_check(ctx, c, first, &valid) || (!valid && ctx->report != NULL))
        return default_at(ctx, list, c, i);
    if (!valid)
        return CTG_OK;
    rc = keep(ctx, c);
    if (rc != CTG_OK) { /* the message is set: the place is this contingency */
        size_t mark = ctx->path_len;

        if (ctg_list_get_kind(list) == CTG_LIST_DEFAULT) {
            ctg_rs_path_push(ctx, "contingencies");
            ctg_rs_path_push_index(ctx, i);
        }
        ctg_error_set(ctx->err, rc, NULL, ctx->path, NULL);
        ctg_rs_path_pop(ctx, mark);
    }
    return rc;
}

/* Contingencies looked up at a time: their first elements' slots, then objects, are
 * prefetched for the batch before the first is checked, as ID_BASED identifiers are. */
#define BATCH 16

static int default_batch(rs_ctx *ctx, const ctg_list *list, const ctg_contingency *cs,
                         size_t first, size_t n)
{
    size_t len[BATCH];
    uint64_t hash[BATCH];
    int rc = CTG_OK;

    for (size_t k = 0; k < n; k++) {
        const ctg_contingency *c = &cs[first + k];

        len[k] = c->element_count > 0 ? strlen(c->elements[0].id) : 0;
        hash[k] = ctg_net_index_hash(len[k] > 0 ? c->elements[0].id : "", len[k]);
        ctg_net_index_prefetch(ctx->net, hash[k]);
    }
    for (size_t k = 0; k < n; k++)
        ctg_net_index_prefetch_object(ctx->net, hash[k]);
    for (size_t k = 0; rc == CTG_OK && k < n; k++) {
        const ctg_contingency *c = &cs[first + k];
        const ctg_net_object *obj =
            len[k] > 0 ? ctg_net_index_find_hashed(ctx->net, c->elements[0].id, len[k], hash[k])
                       : NULL;

        rc = default_one(ctx, list, c, first + k, obj);
    }
    return rc;
}

int ctg_rs_default(rs_ctx *ctx, const ctg_list *list)
{
    size_t n = 0;
    const ctg_contingency *cs = ctg_list_contingencies(list, &n);
    int rc = CTG_OK;

    for (size_t i = 0; rc == CTG_OK && i < n; i += BATCH)
        rc = default_batch(ctx, list, cs, i, n - i < BATCH ? n - i : BATCH);
    return rc;
}

int ctg_resolve_check(const ctg_network *net, const ctg_contingency *c,
                      const ctg_resolve_options *opts, bool *valid, ctg_error *err)
{
    ctg_error local;
    rs_ctx ctx;
    int rc;

    if (err == NULL)
        err = &local;
    if (valid == NULL)
        return ctg_rs_finish(err, ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL valid"),
                             "<contingency>");
    *valid = false;
    rc = ctg_rs_check_args(net, c, opts, err);
    if (rc != CTG_OK)
        return ctg_rs_finish(err, rc, "<contingency>");
    ctg_rs_init(&ctx, net, opts, err);
    rc = ctg_rs_check(&ctx, c, valid);
    ctg_rs_dispose(&ctx);
    if (rc != CTG_OK)
        *valid = false;
    return ctg_rs_finish(err, rc, "<contingency>");
}
