/* SPDX-License-Identifier: MPL-2.0 */
/* The builders of the array kinds (include/ctg/sa.h): contingency contexts (D3) and state
 * monitors (D5), with the reader's checks (format/sa.c), so that a built document writes what
 * a read one would: a context's type in range and a SPECIFIC one's contingencyId, ids valid
 * UTF-8, and id sets kept distinct in Java hash order as the reader keeps them. */

#include <stdio.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "format/sa_internal.h"

static int build_error(ctg_error *err, int code, const char *path, const char *msg)
{
    if (!err)
        return code;
    ctg_error_set(err, code, NULL, path, "%s", msg);
    ctg_error_set_source(err, "<builder>");
    return code;
}

/* The reader's rule for a context (spec 1.4), or NULL. */
static const char *context_check(const ctg_contingency_context *c)
{
    if ((unsigned)c->type >= CTG_CONTEXT_TYPE_COUNT)
        return "unknown contextType";
    if (c->type == CTG_CONTEXT_SPECIFIC && !c->contingency_id)
        return "a SPECIFIC contingency context needs a contingencyId";
    if (c->contingency_id && !ctg_utf8_valid(c->contingency_id))
        return "contingencyId is not valid UTF-8";
    return NULL;
}

static bool ids_valid(const ctg_id_set *set)
{
    if (set->count > 0 && !set->ids)
        return false;
    for (size_t i = 0; i < set->count; i++)
        if (!set->ids[i] || !ctg_utf8_valid(set->ids[i]))
            return false;
    return true;
}

/* Room for one more item; the old array stays in the arena. A read document's array is just
 * its items (cap 0). */
static bool grow(ctg_sa_doc *doc)
{
    ctg_state_monitor *items;
    size_t cap;

    if (doc->count < doc->cap)
        return true;
    cap = doc->count ? 2 * doc->count : 8;
    if (!(items = ctg_arena_calloc(doc->arena, cap, sizeof *items)))
        return false;
    if (doc->count)
        memcpy(items, doc->items, doc->count * sizeof *items);
    doc->items = items;
    doc->cap = cap;
    return true;
}

static bool copy_context(ctg_arena *arena, ctg_contingency_context *dst,
                         const ctg_contingency_context *src)
{
    dst->type = src->type;
    dst->contingency_id = NULL;
    return !src->contingency_id ||
           (dst->contingency_id = ctg_arena_strndup(arena, src->contingency_id,
                                                    strlen(src->contingency_id))) != NULL;
}

/* A copy of `src`, its ids distinct in hash order, as read ones are. */
static bool copy_ids(ctg_arena *arena, ctg_id_set *dst, const ctg_id_set *src)
{
    const char **ids;
    size_t n = src->count;

    dst->ids = NULL;
    dst->count = 0;
    if (n == 0)
        return true;
    if (!(ids = ctg_arena_calloc(arena, n, sizeof *ids)))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(ids[i] = ctg_arena_strndup(arena, src->ids[i], strlen(src->ids[i]))))
            return false;
    if (ctg_sa_hash_order(arena, ids, &n) != CTG_OK)
        return false;
    dst->ids = ids;
    dst->count = n;
    return true;
}

int ctg_sa_context_add(ctg_sa_doc *doc, const ctg_contingency_context *c, ctg_error *err)
{
    const char *why;

    if (!doc || !c || doc->kind != CTG_SA_CONTINGENCY_CONTEXTS)
        return build_error(err, CTG_EINVAL, "", "no contingency-context list or no context");
    if ((why = context_check(c)) != NULL)
        return build_error(err, CTG_EINVAL, "", why);
    if (!grow(doc) || !copy_context(doc->arena, &doc->items[doc->count].context, c))
        return build_error(err, CTG_ENOMEM, "", "out of memory");
    doc->count++;
    return CTG_OK;
}

int ctg_sa_monitor_add(ctg_sa_doc *doc, const ctg_state_monitor *m, ctg_error *err)
{
    const ctg_id_set *sets[3];
    ctg_state_monitor *dst;
    const char *why;

    if (!doc || !m || doc->kind != CTG_SA_STATE_MONITORS)
        return build_error(err, CTG_EINVAL, "", "no state-monitor list or no monitor");
    sets[0] = &m->branch_ids;
    sets[1] = &m->voltage_level_ids;
    sets[2] = &m->three_windings_transformer_ids;
    if ((why = context_check(&m->context)) != NULL)
        return build_error(err, CTG_EINVAL, "/contingencyContext", why);
    for (int k = 0; k < 3; k++)
        if (!ids_valid(sets[k]))
            return build_error(err, CTG_EINVAL, "",
                               "an id set with a NULL or non-UTF-8 id, or NULL ids");
    if (!grow(doc))
        return build_error(err, CTG_ENOMEM, "", "out of memory");
    dst = &doc->items[doc->count];
    if (!copy_context(doc->arena, &dst->context, &m->context) ||
        !copy_ids(doc->arena, &dst->branch_ids, sets[0]) ||
        !copy_ids(doc->arena, &dst->voltage_level_ids, sets[1]) ||
        !copy_ids(doc->arena, &dst->three_windings_transformer_ids, sets[2]))
        return build_error(err, CTG_ENOMEM, "", "out of memory");
    doc->count++;
    return CTG_OK;
}
