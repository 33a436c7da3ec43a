/* SPDX-License-Identifier: MPL-2.0 */
/* The operator-strategy builder of ctg/sa.h: a strategy is checked with the reader's own
 * checks (format/sa_strategy.h) over the whole item, then deep-copied into the document's
 * arena, so that a built document writes what a read one would. */

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "ext/ext.h"
#include "format/sa_internal.h"
#include "format/sa_strategy.h"

#define BIT(i) CTG_SA_BIT(i)

/* A builder's error: no place in a text, the path in the item. */
static int build_fail(ctg_error *err, int code, const char *path, const char *msg)
{
    if (err) {
        ctg_error_set(err, code, NULL, path, "%s", msg);
        ctg_error_set_source(err, "<builder>");
    }
    return code;
}

static bool check_stage(const ctg_conditional_actions *a, char *path, fault *f)
{
    size_t n = strlen(path);

    if (!a->id || !ctg_utf8_valid(a->id)) {
        snprintf(path + n, CTG_ERROR_PATH_MAX - n, "/id");
        return ctg_sa_fault(f, 0, "a stage needs an \"id\" (valid UTF-8)%s", "");
    }
    if (!ctg_sa_check_ids(a->action_ids, a->action_id_count)) {
        snprintf(path + n, CTG_ERROR_PATH_MAX - n, "/actionIds");
        return ctg_sa_fault(f, 0, "an \"actionIds\" item is NULL or not valid UTF-8%s", "");
    }
    if (ctg_sa_check_condition(&a->condition, f))
        return true;
    snprintf(path + n, CTG_ERROR_PATH_MAX - n, "/condition%s%s", f->key < C_COUNT ? "/" : "",
             f->key < C_COUNT ? ctg_sa_condition_key(f->key) : "");
    return false;
}

static bool check_extensions(const ctg_operator_strategy *s, ctg_arena *arena, char *path,
                             fault *f)
{
    for (size_t i = 0; i < s->extension_count; i++) {
        const ctg_extension *x = &s->extensions[i];
        int rc;
        snprintf(path, CTG_ERROR_PATH_MAX, "/extensions/%zu", i);
        if (!x->name || !ctg_utf8_valid(x->name) || x->handler || !x->json)
            return ctg_sa_fault(f, 0, "an extension needs a name (valid UTF-8) and a JSON value, "
                                   "no typed handler%s", "");
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->extensions[j].name, x->name) == 0)
                return ctg_sa_fault(f, 0, "extension \"%s\" twice", x->name);
        rc = ctg_extension_text_read(arena, x->json, x->json_len, NULL, NULL, NULL);
        if (rc == CTG_ENOMEM) {
            ctg_sa_fault(f, 0, "out of memory%s", "");
            f->code = CTG_ENOMEM;
            return false;
        }
        if (rc != CTG_OK)
            return ctg_sa_fault(f, 0, "the value of extension \"%s\" is not valid JSON", x->name);
    }
    return true;
}

/* The checks of a read strategy, over the whole item; `path` receives where it failed. */
static bool check_strategy(const ctg_operator_strategy *s, ctg_arena *arena, char *path,
                           fault *f)
{
    path[0] = '\0';
    if (!s->id || !ctg_utf8_valid(s->id)) {
        snprintf(path, CTG_ERROR_PATH_MAX, "/id");
        return ctg_sa_fault(f, 0, "a strategy needs an \"id\" (valid UTF-8)%s", "");
    }
    if (!ctg_sa_check_context(&s->context, f)) {
        snprintf(path, CTG_ERROR_PATH_MAX, "/%s", ctg_sa_strategy_key(f->key));
        return false;
    }
    if (s->stage_count && !s->stages)
        return ctg_sa_fault(f, 0, "stage_count without stages%s", "");
    for (size_t i = 0; i < s->stage_count; i++) {
        snprintf(path, CTG_ERROR_PATH_MAX, "/conditionalActions/%zu", i);
        if (!check_stage(&s->stages[i], path, f))
            return false;
    }
    if (s->extension_count && !s->extensions)
        return ctg_sa_fault(f, 0, "extension_count without extensions%s", "");
    return check_extensions(s, arena, path, f);
}

static const char *const *copy_ids(ctg_arena *a, const char *const *ids, size_t n, bool *ok)
{
    const char **out;

    if (!n)
        return NULL;
    if (!(out = ctg_arena_alloc(a, n * sizeof *out, alignof(const char *)))) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = ctg_arena_strdup_or_flag(a, ids[i], ok);
    return out;
}

/* Only the members of the type, as a read holds them. */
static void copy_condition(ctg_arena *a, ctg_condition *dst, const ctg_condition *src, bool *ok)
{
    unsigned members = ctg_sa_condition_members(src->type);

    memset(dst, 0, sizeof *dst);
    dst->type = src->type;
    if ((members & BIT(C_FILTERS)) && src->filter_count) {
        dst->filters = ctg_arena_memdup(a, src->filters, src->filter_count * sizeof *src->filters);
        dst->filter_count = src->filter_count;
        *ok = *ok && dst->filters;
    }
    dst->violation_ids = copy_ids(a, src->violation_ids, src->violation_id_count, ok);
    dst->violation_id_count = src->violation_id_count;
    if (!(members & BIT(C_EQUIPMENT_ID)))
        return;
    dst->equipment_id = ctg_arena_strdup_or_flag(a, src->equipment_id, ok);
    dst->variable = src->variable;
    dst->comparison = src->comparison;
    dst->threshold = src->threshold;
    dst->side = members & BIT(C_SIDE) ? src->side : CTG_CONDITION_SIDE_ONE;
    if (src->type == CTG_CONDITION_AC_DC_CONVERTER_THRESHOLD) {
        dst->ac_side = src->ac_side;
        dst->terminal_number = src->terminal_number;
    }
}

static bool copy_extensions(ctg_arena *a, ctg_operator_strategy *dst,
                            const ctg_operator_strategy *src)
{
    ctg_extension *x;

    if (!src->extension_count)
        return true;
    if (!(x = ctg_arena_calloc(a, src->extension_count, sizeof *x)))
        return false;
    for (size_t i = 0; i < src->extension_count; i++) {
        bool ok = true;
        x[i].name = ctg_arena_strdup_or_flag(a, src->extensions[i].name, &ok);
        if (!ok || ctg_extension_text_read(a, src->extensions[i].json, src->extensions[i].json_len,
                                           &x[i].json, &x[i].json_len, NULL) != CTG_OK)
            return false; /* checked valid before: only memory fails here */
    }
    dst->extensions = x;
    dst->extension_count = src->extension_count;
    return true;
}

static bool copy_strategy(ctg_arena *a, ctg_operator_strategy *dst,
                          const ctg_operator_strategy *src)
{
    ctg_conditional_actions *stages = NULL;
    bool ok = true;

    memset(dst, 0, sizeof *dst);
    dst->id = ctg_arena_strdup_or_flag(a, src->id, &ok);
    dst->context.type = src->context.type;
    dst->context.contingency_id = ctg_arena_strdup_or_flag(a, src->context.contingency_id, &ok);
    if (src->stage_count && !(stages = ctg_arena_calloc(a, src->stage_count, sizeof *stages)))
        return false;
    for (size_t i = 0; ok && i < src->stage_count; i++) {
        const ctg_conditional_actions *from = &src->stages[i];
        stages[i].id = ctg_arena_strdup_or_flag(a, from->id, &ok);
        copy_condition(a, &stages[i].condition, &from->condition, &ok);
        stages[i].action_ids = copy_ids(a, from->action_ids, from->action_id_count, &ok);
        stages[i].action_id_count = from->action_id_count;
    }
    dst->stages = stages;
    dst->stage_count = src->stage_count;
    return ok && copy_extensions(a, dst, src);
}

/* Room for one more strategy; what a failure leaves stays in the arena, unused. */
static bool reserve_strategy(ctg_sa_doc *doc)
{
    strategy_body *body = doc->body;
    ctg_operator_strategy *items;
    size_t cap;

    if (!body && !(body = doc->body = ctg_arena_calloc(doc->arena, 1, sizeof *body)))
        return false;
    if (body->count < body->cap)
        return true;
    cap = body->cap ? 2 * body->cap : 8;
    if (cap > SIZE_MAX / sizeof *items ||
        !(items = ctg_arena_alloc(doc->arena, cap * sizeof *items, alignof(ctg_operator_strategy))))
        return false;
    if (body->count)
        memcpy(items, body->items, body->count * sizeof *items);
    body->items = items;
    body->cap = cap;
    return true;
}

int ctg_sa_strategies_add_strategy(ctg_sa_doc *doc, const ctg_operator_strategy *item,
                                   ctg_error *err)
{
    char path[CTG_ERROR_PATH_MAX];
    ctg_operator_strategy copy;
    strategy_body *body;
    fault f;

    if (!doc || !item || doc->kind != CTG_SA_OPERATOR_STRATEGIES)
        return build_fail(err, CTG_EINVAL, "",
                          "no document, no strategy, or not an operator-strategy list");
    if (!check_strategy(item, doc->arena, path, &f))
        return build_fail(err, f.code, f.code == CTG_ENOMEM ? "" : path, f.msg);
    if (!reserve_strategy(doc) || !copy_strategy(doc->arena, &copy, item))
        return build_fail(err, CTG_ENOMEM, "", "out of memory");
    body = doc->body;
    body->items[body->count++] = copy;
    return CTG_OK;
}
