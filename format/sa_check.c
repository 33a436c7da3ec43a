/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_sa_check (include/ctg/sa.h): the references between a contingency list, an action list,
 * operator strategies, limit reductions and state monitors that PowSyBl only resolves when a
 * security analysis runs (and then fails on, or silently ignores), checked after the reads.
 *
 * One keyed string set (json/keyset.h) holds the contingency ids, the action ids and the
 * (contingency, stage id) pairs of the strategies, each in its own group. */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/alloc.h"
#include "base/error_set.h"
#include "json/keyset.h"

enum { G_CONTINGENCY, G_ACTION, G_STAGE };

typedef struct checker {
    const ctg_sa_check_set *set;
    const ctg_allocator *alloc;
    ctg_sa_finding_fn each;
    void *payload;
    ctg_keyset ids;
    size_t *action_of; /* keyset entry of an action id -> its action's index */
    bool *used;        /* by action index: some stage names it */
    size_t actions;    /* plain actions, then builders */
    size_t plain;      /* plain actions */
    char path[CTG_ERROR_PATH_MAX];
    char message[CTG_ERROR_MESSAGE_MAX];
} checker;

/* Hands the finding in ck->path and ck->message to the caller: CTG_ESTOPPED when it asks. */
static int found(checker *ck, ctg_sa_issue issue, ctg_sa_kind document)
{
    ctg_sa_finding f = { issue, issue == CTG_SA_UNUSED_ACTION, document, ck->path, ck->message };

    return ck->each(&f, ck->payload) == 0 ? CTG_OK : CTG_ESTOPPED;
}

/* The index of the entry of `group` holding `str`, or SIZE_MAX when there is none. */
static size_t lookup(checker *ck, uint32_t group, const char *str)
{
    const ctg_keyset_entry *e = ctg_keyset_find(&ck->ids, group, str, strlen(str));

    return e ? (size_t)(e - ck->ids.items) : SIZE_MAX;
}

/* Adds the `n` bytes at `str` to `group`: CTG_OK, 1 when there already (*entry: that one's
 * index), CTG_ENOMEM. */
static int insert(checker *ck, uint32_t group, const char *str, size_t n, size_t *entry)
{
    static const ctg_mark nowhere = { 0, 0, 0 };
    const ctg_keyset_entry *first;
    int rc = ctg_keyset_add(&ck->ids, group, str, n, &nowhere, &first);

    *entry = rc == 1 ? (size_t)(first - ck->ids.items) : ck->ids.count - 1;
    return rc;
}

static int add_contingencies(checker *ck)
{
    for (size_t i = 0; i < ck->set->contingency_count; i++) {
        const char *id = ck->set->contingency_ids[i];
        size_t entry;
        if (id && insert(ck, G_CONTINGENCY, id, strlen(id), &entry) == CTG_ENOMEM)
            return CTG_ENOMEM;
    }
    return CTG_OK;
}

/* Action `i` of the list: its plain actions first, then (identifier action list) the
 * builders, which PowSyBl resolves into actions of the builder's id. NULL: a builder without
 * an id, which no stage can name. */
static const char *action_id(const checker *ck, size_t i)
{
    const ctg_sa_doc *doc = ck->set->actions;

    if (i < ck->plain)
        return ctg_sa_action_at(doc, i)->id;
    return ctg_sa_identified_action_at(doc, i - ck->plain)->builder.id;
}

/* The path of action `i`, then `member` ("/id" or ""), into `buf` of `size` bytes
 * (CTG_ERROR_PATH_MAX). A builder is under its key as read, or for one added in code under its
 * id, the key it is written under. */
static void action_path(const checker *ck, size_t i, const char *member, char *buf, size_t size)
{
    const char *key;
    size_t n;

    if (i < ck->plain) {
        snprintf(buf, size, "/actions/%zu%s", i, member);
        return;
    }
    key = ctg_sa_identified_action_key(ck->set->actions, i - ck->plain);
    key = key ? key : action_id(ck, i);
    n = (size_t)snprintf(buf, size, "/actionBuilders");
    n = ctg_error_path_append(buf, n, key, strlen(key));
    snprintf(buf + n, size - n, "%s", member);
}

/* Action `i`'s id already holds entry `entry`: a finding at the repeat. */
static int repeated(checker *ck, size_t i, size_t entry)
{
    char first[CTG_ERROR_PATH_MAX];

    ck->used[i] = true; /* a repeat is reported once, as a repeat */
    action_path(ck, ck->action_of[entry], "", first, sizeof first);
    action_path(ck, i, "/id", ck->path, sizeof ck->path);
    snprintf(ck->message, sizeof ck->message, "action id \"%.100s\" is already the id of %.60s",
             action_id(ck, i), first);
    return found(ck, CTG_SA_DUPLICATE_ACTION, ctg_sa_doc_kind(ck->set->actions));
}

/* The action ids, each once; a repeat is a finding at its `id`. */
static int add_actions(checker *ck)
{
    const ctg_sa_doc *doc = ck->set->actions;
    int rc = CTG_OK;

    ck->plain = ctg_sa_action_count(doc);
    ck->actions = ck->plain + ctg_sa_identified_action_count(doc);
    ck->action_of = ctg_mem_alloc(ck->alloc, (ck->actions + 1) * sizeof *ck->action_of);
    ck->used = ctg_mem_alloc(ck->alloc, ck->actions + 1);
    if (!ck->action_of || !ck->used)
        return CTG_ENOMEM;
    memset(ck->used, 0, ck->actions + 1);
    for (size_t i = 0; i < ck->actions && rc == CTG_OK; i++) {
        const char *id = action_id(ck, i);
        size_t entry;
        if (!id) {
            ck->used[i] = true;
            continue;
        }
        rc = insert(ck, G_ACTION, id, strlen(id), &entry);
        if (rc == CTG_OK)
            ck->action_of[entry] = i;
        else if (rc == 1)
            rc = repeated(ck, i, entry);
    }
    return rc;
}

/* A SPECIFIC context's contingency, at `path` (already in ck->path) of `document`. */
static int check_context(checker *ck, const ctg_contingency_context *c, ctg_sa_kind document)
{
    if (!ck->set->contingency_ids || c->type != CTG_CONTEXT_SPECIFIC || !c->contingency_id)
        return CTG_OK;
    if (lookup(ck, G_CONTINGENCY, c->contingency_id) != SIZE_MAX)
        return CTG_OK;
    snprintf(ck->message, sizeof ck->message, "no contingency \"%.100s\" in the contingency list",
             c->contingency_id);
    return found(ck, CTG_SA_UNKNOWN_CONTINGENCY, document);
}

static int check_action_ref(checker *ck, const char *id, size_t s, size_t j, size_t k)
{
    size_t entry;

    if (!ck->set->actions)
        return CTG_OK;
    if ((entry = lookup(ck, G_ACTION, id)) != SIZE_MAX) {
        ck->used[ck->action_of[entry]] = true;
        return CTG_OK;
    }
    snprintf(ck->path, sizeof ck->path,
             "/operatorStrategies/%zu/conditionalActions/%zu/actionIds/%zu", s, j, k);
    snprintf(ck->message, sizeof ck->message, "no action \"%.100s\" in the action list", id);
    return found(ck, CTG_SA_UNKNOWN_ACTION, CTG_SA_OPERATOR_STRATEGIES);
}

/* A second strategy for a contingency that repeats one of its stage ids: PowSyBl's results are
 * keyed by both. Pairs of one strategy are its own business. */
static int check_stage(checker *ck, ctg_keyset *pairs, size_t *owner, const char *cid,
                       const ctg_conditional_actions *st, size_t s, size_t j)
{
    static const ctg_mark nowhere = { 0, 0, 0 };
    const ctg_keyset_entry *first;
    size_t nc = strlen(cid), ns = strlen(st->id), entry;
    char key[2 * CTG_ERROR_MESSAGE_MAX];
    int rc;

    if (nc + 1 + ns > sizeof key)
        return CTG_OK; /* ids this long are no one's; not worth a second path */
    memcpy(key, cid, nc);
    key[nc] = '\0'; /* ids hold no U+0000: the pair is unambiguous */
    memcpy(key + nc + 1, st->id, ns);
    rc = ctg_keyset_add(pairs, 0, key, nc + 1 + ns, &nowhere, &first);
    if (rc == CTG_OK) {
        owner[pairs->count - 1] = s;
        return CTG_OK;
    }
    if (rc != 1)
        return rc;
    entry = (size_t)(first - pairs->items);
    if (owner[entry] == s)
        return CTG_OK;
    snprintf(ck->path, sizeof ck->path, "/operatorStrategies/%zu/conditionalActions/%zu/id", s, j);
    snprintf(ck->message, sizeof ck->message,
             "stage \"%.80s\" for contingency \"%.80s\" is also in /operatorStrategies/%zu",
             st->id, cid, owner[entry]);
    return found(ck, CTG_SA_DUPLICATE_STAGE, CTG_SA_OPERATOR_STRATEGIES);
}

static int check_strategy(checker *ck, ctg_keyset *pairs, size_t *owner, size_t s)
{
    const ctg_operator_strategy *os = ctg_sa_strategy_at(ck->set->strategies, s);
    const char *cid = os->context.type == CTG_CONTEXT_SPECIFIC ? os->context.contingency_id : NULL;
    int rc;

    snprintf(ck->path, sizeof ck->path, "/operatorStrategies/%zu/contingencyId", s);
    if ((rc = check_context(ck, &os->context, CTG_SA_OPERATOR_STRATEGIES)) != CTG_OK)
        return rc;
    for (size_t j = 0; j < os->stage_count; j++) {
        const ctg_conditional_actions *st = &os->stages[j];
        if (cid && (rc = check_stage(ck, pairs, owner, cid, st, s, j)) != CTG_OK)
            return rc;
        for (size_t k = 0; k < st->action_id_count; k++)
            if ((rc = check_action_ref(ck, st->action_ids[k], s, j, k)) != CTG_OK)
                return rc;
    }
    return CTG_OK;
}

static int check_strategies(checker *ck)
{
    const ctg_sa_doc *doc = ck->set->strategies;
    size_t n = ctg_sa_strategy_count(doc), stages = 1;
    ctg_keyset pairs;
    size_t *owner;
    int rc = CTG_OK;

    for (size_t s = 0; s < n; s++)
        stages += ctg_sa_strategy_at(doc, s)->stage_count;
    if (!(owner = ctg_mem_alloc(ck->alloc, stages * sizeof *owner)))
        return CTG_ENOMEM;
    ctg_keyset_init(&pairs, ck->alloc);
    for (size_t s = 0; s < n && rc == CTG_OK; s++)
        rc = check_strategy(ck, &pairs, owner, s);
    ctg_keyset_dispose(&pairs);
    ctg_mem_release(ck->alloc, owner, stages * sizeof *owner);
    return rc;
}

/* The contexts of limit reductions and state monitors. */
static int check_contexts(checker *ck)
{
    const ctg_sa_doc *lr = ck->set->limit_reductions, *mon = ck->set->monitors;
    int rc = CTG_OK;

    for (size_t i = 0; i < ctg_sa_limit_reduction_count(lr) && rc == CTG_OK; i++) {
        snprintf(ck->path, sizeof ck->path, "/limitReductions/%zu/contingencyContext/contingencyId",
                 i);
        rc = check_context(ck, &ctg_sa_limit_reduction_at(lr, i)->context, CTG_SA_LIMIT_REDUCTIONS);
    }
    for (size_t i = 0; i < ctg_sa_monitor_count(mon) && rc == CTG_OK; i++) {
        snprintf(ck->path, sizeof ck->path, "/%zu/contingencyContext/contingencyId", i);
        rc = check_context(ck, &ctg_sa_monitor_at(mon, i)->context, CTG_SA_STATE_MONITORS);
    }
    return rc;
}

/* Actions that no stage names (warnings), once the strategies have been read through. */
static int check_unused(checker *ck)
{
    int rc = CTG_OK;

    if (!ck->set->actions || !ck->set->strategies)
        return CTG_OK;
    for (size_t i = 0; i < ck->actions && rc == CTG_OK; i++) {
        if (ck->used[i])
            continue;
        action_path(ck, i, "/id", ck->path, sizeof ck->path);
        snprintf(ck->message, sizeof ck->message,
                 "action \"%.100s\" is used by no operator strategy", action_id(ck, i));
        rc = found(ck, CTG_SA_UNUSED_ACTION, ctg_sa_doc_kind(ck->set->actions));
    }
    return rc;
}

static int run_checks(checker *ck)
{
    int rc = add_actions(ck);

    if (rc == CTG_OK && ck->set->contingency_ids)
        rc = add_contingencies(ck);
    if (rc == CTG_OK && ck->set->strategies)
        rc = check_strategies(ck);
    if (rc == CTG_OK)
        rc = check_contexts(ck);
    if (rc == CTG_OK)
        rc = check_unused(ck);
    return rc;
}

static bool kind_is(const ctg_sa_doc *doc, ctg_sa_kind a, ctg_sa_kind b)
{
    return !doc || ctg_sa_doc_kind(doc) == a || ctg_sa_doc_kind(doc) == b;
}

int ctg_sa_check(const ctg_sa_check_set *set, ctg_sa_finding_fn each, void *payload,
                 const ctg_allocator *allocator, ctg_error *err)
{
    ctg_error scratch;
    checker ck;
    int rc;

    err = err ? err : &scratch;
    if (!set || !each || set->version == 0 || set->version > CTG_SA_CHECK_SET_VERSION ||
        (set->contingency_count && !set->contingency_ids))
        return ctg_error_set_plain(err, "<check>", CTG_EINVAL, "no set, callback or ids");
    if (!kind_is(set->actions, CTG_SA_ACTION_LIST, CTG_SA_IDENTIFIER_ACTION_LIST) ||
        !kind_is(set->strategies, CTG_SA_OPERATOR_STRATEGIES, CTG_SA_OPERATOR_STRATEGIES) ||
        !kind_is(set->limit_reductions, CTG_SA_LIMIT_REDUCTIONS, CTG_SA_LIMIT_REDUCTIONS) ||
        !kind_is(set->monitors, CTG_SA_STATE_MONITORS, CTG_SA_STATE_MONITORS))
        return ctg_error_set_plain(err, "<check>", CTG_EINVAL,
                                   "a document of another kind in the set");
    memset(&ck, 0, sizeof ck);
    ck.set = set;
    ck.alloc = allocator;
    ck.each = each;
    ck.payload = payload;
    ctg_keyset_init(&ck.ids, allocator);
    rc = run_checks(&ck);
    ctg_keyset_dispose(&ck.ids);
    ctg_mem_release(allocator, ck.action_of, (ck.actions + 1) * sizeof *ck.action_of);
    ctg_mem_release(allocator, ck.used, ck.actions + 1);
    if (rc == CTG_ENOMEM)
        return ctg_error_set_plain(err, "<check>", rc, "out of memory");
    if (rc == CTG_ESTOPPED)
        return ctg_error_set_plain(err, "<check>", rc, "stopped by the callback");
    return rc;
}
