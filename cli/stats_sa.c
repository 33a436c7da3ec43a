/* SPDX-License-Identifier: MPL-2.0 */
/* stats of a security-analysis document (ctg/sa.h): its kind and the counts that matter for
 * it, as text or as stats' JSON entry. The document is read whole: these are small next to
 * the contingency lists they refer to. */

#include <stdlib.h>
#include <string.h>

#include "ctg/sa.h"

#include "cli.h"
#include "diag.h"

/* The types counted: each set's JSON names come from the library (ctg/sa.h). */
typedef enum type_set { TYPES_ACTION, TYPES_CONDITION, TYPES_LIMIT, TYPES_CONTEXT } type_set;

static const char *type_name(type_set set, int t)
{
    switch (set) {
    case TYPES_ACTION:
        return ctg_action_type_name((ctg_action_type)t);
    case TYPES_CONDITION:
        return ctg_condition_type_name((ctg_condition_type)t);
    case TYPES_LIMIT:
        return ctg_limit_type_name((ctg_limit_type)t);
    default:
        return ctg_context_type_name((ctg_context_type)t);
    }
}

/* Counts of one type per name: set `set` has `n` types. */
typedef struct per_type {
    const char *label; /* the text heading, e.g. "action types" */
    const char *json;  /* the JSON member, e.g. "actionTypes" */
    type_set set;
    size_t *counts;
    int n;
} per_type;

/* A plain count: its text label and JSON member. */
typedef struct count_line {
    const char *label, *json;
    size_t value;
} count_line;

/* What is printed of a document: up to five counts, then the counts per type. */
typedef struct sa_stats {
    count_line lines[5];
    int line_count;
    per_type types;
    size_t counts[CTG_ACTION_TYPE_COUNT]; /* the largest of the enums counted */
} sa_stats;

static void add_line(sa_stats *st, const char *label, const char *json, size_t value)
{
    st->lines[st->line_count++] = (count_line){ label, json, value };
}

static void set_types(sa_stats *st, const char *label, const char *json, type_set set, int n)
{
    st->types = (per_type){ label, json, set, st->counts, n };
}

/* Every action of `a[0..n)` and the actions nested in them, per type; returns how many. */
static size_t count_actions(const ctg_action *a, size_t n, size_t *counts)
{
    size_t all = n;

    for (size_t i = 0; i < n; i++) {
        counts[a[i].type]++;
        if (a[i].type == CTG_ACTION_MULTIPLE_ACTIONS)
            all += count_actions(a[i].actions, a[i].action_count, counts);
    }
    return all;
}

/* An action list's actions; an identifier action list's identified entries too, each builder
 * counted as an action of its type (with what it nests), as it will be once resolved. */
static void action_stats(const ctg_sa_doc *doc, sa_stats *st)
{
    size_t n = ctg_sa_action_count(doc), m = ctg_sa_identified_action_count(doc), all = 0;

    for (size_t i = 0; i < n; i++)
        all += count_actions(ctg_sa_action_at(doc, i), 1, st->counts);
    for (size_t i = 0; i < m; i++)
        all += count_actions(&ctg_sa_identified_action_at(doc, i)->builder, 1, st->counts);
    add_line(st, "actions", "actions", n);
    if (ctg_sa_doc_kind(doc) == CTG_SA_IDENTIFIER_ACTION_LIST)
        add_line(st, "identified actions", "identifiedActions", m);
    add_line(st, "nested actions", "nestedActions", all - n - m);
    set_types(st, "action types", "actionTypes", TYPES_ACTION, CTG_ACTION_TYPE_COUNT);
}

static int compare_ids(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct strings of `ids[0..n)` (sorted in place); NULL items are not counted. */
static size_t distinct(const char **ids, size_t n)
{
    size_t count = 0;

    qsort(ids, n, sizeof *ids, compare_ids);
    for (size_t i = 0; i < n; i++)
        count += i == 0 || strcmp(ids[i - 1], ids[i]) != 0;
    return count;
}

/* The context of each of `n` items (`at`) per type into `types`, and the distinct contingency
 * ids they name into `*ids_out`; false when out of memory. */
static bool contexts_of(const ctg_sa_doc *doc, size_t n,
                        const ctg_contingency_context *(*at)(const ctg_sa_doc *, size_t),
                        size_t *types, size_t *ids_out)
{
    const char **ids = malloc((n ? n : 1) * sizeof *ids);
    size_t k = 0;

    if (ids == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        const ctg_contingency_context *c = at(doc, i);
        if (types != NULL)
            types[c->type]++;
        if (c->contingency_id != NULL)
            ids[k++] = c->contingency_id;
    }
    *ids_out = distinct(ids, k);
    free(ids);
    return true;
}

static const ctg_contingency_context *strategy_context(const ctg_sa_doc *doc, size_t i)
{
    return &ctg_sa_strategy_at(doc, i)->context;
}

static const ctg_contingency_context *monitor_context(const ctg_sa_doc *doc, size_t i)
{
    return &ctg_sa_monitor_at(doc, i)->context;
}

static bool strategy_stats(const ctg_sa_doc *doc, sa_stats *st)
{
    size_t n = ctg_sa_strategy_count(doc), stages = 0, refs = 0, ids;

    /* The context types of strategies are not counted: their conditions are what differ. */
    if (!contexts_of(doc, n, strategy_context, NULL, &ids))
        return false;
    for (size_t i = 0; i < n; i++) {
        const ctg_operator_strategy *s = ctg_sa_strategy_at(doc, i);
        stages += s->stage_count;
        for (size_t k = 0; k < s->stage_count; k++) {
            st->counts[s->stages[k].condition.type]++;
            refs += s->stages[k].action_id_count;
        }
    }
    add_line(st, "strategies", "strategies", n);
    add_line(st, "stages", "stages", stages);
    add_line(st, "action references", "actionReferences", refs);
    add_line(st, "contingencies", "contingencies", ids);
    set_types(st, "condition types", "conditionTypes", TYPES_CONDITION, CTG_CONDITION_TYPE_COUNT);
    return true;
}

static void reduction_stats(const ctg_sa_doc *doc, sa_stats *st)
{
    size_t n = ctg_sa_limit_reduction_count(doc), equipment = 0, durations = 0;

    for (size_t i = 0; i < n; i++) {
        const ctg_limit_reduction *r = ctg_sa_limit_reduction_at(doc, i);
        st->counts[r->limit_type]++;
        equipment += r->equipment_count;
        durations += r->duration_count;
    }
    add_line(st, "reductions", "reductions", n);
    add_line(st, "network-element criteria", "equipmentCriteria", equipment);
    add_line(st, "duration criteria", "durationCriteria", durations);
    set_types(st, "limit types", "limitTypes", TYPES_LIMIT, CTG_LIMIT_TYPE_COUNT);
}

static bool monitor_stats(const ctg_sa_doc *doc, sa_stats *st)
{
    size_t n = ctg_sa_monitor_count(doc), branches = 0, vls = 0, t3s = 0, ids;

    if (!contexts_of(doc, n, monitor_context, st->counts, &ids))
        return false;
    for (size_t i = 0; i < n; i++) {
        const ctg_state_monitor *m = ctg_sa_monitor_at(doc, i);
        branches += m->branch_ids.count;
        vls += m->voltage_level_ids.count;
        t3s += m->three_windings_transformer_ids.count;
    }
    add_line(st, "monitors", "monitors", n);
    add_line(st, "contingencies", "contingencies", ids);
    add_line(st, "branch ids", "branchIds", branches);
    add_line(st, "voltage level ids", "voltageLevelIds", vls);
    add_line(st, "three-windings transformer ids", "threeWindingsTransformerIds", t3s);
    set_types(st, "context types", "contextTypes", TYPES_CONTEXT, CTG_CONTEXT_TYPE_COUNT);
    return true;
}

static bool context_stats(const ctg_sa_doc *doc, sa_stats *st)
{
    size_t n = ctg_sa_context_count(doc), ids;

    if (!contexts_of(doc, n, ctg_sa_context_at, st->counts, &ids))
        return false;
    add_line(st, "contexts", "contexts", n);
    add_line(st, "contingencies", "contingencies", ids);
    set_types(st, "context types", "contextTypes", TYPES_CONTEXT, CTG_CONTEXT_TYPE_COUNT);
    return true;
}

/* Fills `st` for `doc`; false when out of memory. */
static bool sa_count(const ctg_sa_doc *doc, sa_stats *st)
{
    memset(st, 0, sizeof *st);
    switch (ctg_sa_doc_kind(doc)) {
    case CTG_SA_ACTION_LIST:
    case CTG_SA_IDENTIFIER_ACTION_LIST:
        action_stats(doc, st);
        return true;
    case CTG_SA_OPERATOR_STRATEGIES:
        return strategy_stats(doc, st);
    case CTG_SA_LIMIT_REDUCTIONS:
        reduction_stats(doc, st);
        return true;
    case CTG_SA_STATE_MONITORS:
        return monitor_stats(doc, st);
    default: /* CTG_SA_CONTINGENCY_CONTEXTS, the only kind left */
        return context_stats(doc, st);
    }
}

static void print_text(const char *name, const ctg_sa_doc *doc, const sa_stats *st)
{
    fputs("file: ", stdout);
    cli_put_escaped(stdout, name);
    printf("\nkind: %s\n", ctg_sa_kind_name(ctg_sa_doc_kind(doc)));
    for (int i = 0; i < st->line_count; i++)
        printf("%s: %zu\n", st->lines[i].label, st->lines[i].value);
    printf("%s:\n", st->types.label);
    for (int t = 0; t < st->types.n; t++)
        if (st->counts[t])
            printf("  %s: %zu\n", type_name(st->types.set, t), st->counts[t]);
}

static void print_json(const char *name, const ctg_sa_doc *doc, const sa_stats *st)
{
    bool first = true;

    fputs("{\"file\":", stdout);
    cli_diag_json_string(stdout, name);
    printf(",\"kind\":\"%s\"", ctg_sa_kind_name(ctg_sa_doc_kind(doc)));
    for (int i = 0; i < st->line_count; i++)
        printf(",\"%s\":%zu", st->lines[i].json, st->lines[i].value);
    printf(",\"%s\":{", st->types.json);
    for (int t = 0; t < st->types.n; t++) {
        if (!st->counts[t])
            continue;
        printf("%s\"%s\":%zu", first ? "" : ",", type_name(st->types.set, t), st->counts[t]);
        first = false;
    }
    fputs("}}", stdout);
}

int cli_stats_sa(const char *path, const void *data, size_t len, cli_diag_format format,
                 const char *sep, ctg_error *err)
{
    ctg_read_options opts = cli_read_options(path);
    const char *name = cli_input_name(path);
    ctg_sa_doc *doc = NULL;
    sa_stats st;
    int rc;

    rc = data ? ctg_sa_read_buffer(&doc, CTG_SA_ANY, data, len, &opts, err)
              : ctg_sa_read_file(&doc, CTG_SA_ANY, path, &opts, err);
    if (rc != CTG_OK)
        return rc;
    if (!sa_count(doc, &st)) {
        ctg_sa_doc_free(doc);
        memset(err, 0, sizeof *err);
        err->code = CTG_ENOMEM;
        snprintf(err->source, sizeof err->source, "%s", name);
        snprintf(err->message, sizeof err->message, "out of memory");
        return CTG_ENOMEM;
    }
    fputs(sep, stdout);
    if (format == CLI_DIAG_JSON)
        print_json(name, doc, &st);
    else
        print_text(name, doc, &st);
    ctg_sa_doc_free(doc);
    return CTG_OK;
}
