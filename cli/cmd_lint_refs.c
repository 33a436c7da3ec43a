/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli lint --contingencies C --actions A --strategies S [--limit-reductions L]
 * [--monitoring M]: the references between a security analysis's inputs that PowSyBl only
 * resolves when the analysis runs (ctg_sa_check), each finding with its file, line, column
 * and JSON Pointer: the documents are read whole, checked, and each file that has findings is
 * scanned once more (ctg_locate) for their places: one scan each, whatever the fallbacks. */

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_lint_refs.h"
#include "diag.h"

/* A finding kept until its place is known. */
typedef struct held {
    ctg_sa_issue issue;
    bool warning;
    int doc; /* LINT_REF_* of the file it is in */
    char *path, *message;
} held;

typedef struct refs_run {
    const char *const *files; /* LINT_REF_COUNT, NULL when not given */
    ctg_sa_doc *docs[LINT_REF_COUNT];
    char **ids; /* the contingency list's ids */
    size_t id_count, id_cap;
    held *found;
    size_t count, cap;
    bool oom;
} refs_run;

static const char *const issue_codes[CTG_SA_ISSUE_COUNT] = {
    [CTG_SA_UNKNOWN_CONTINGENCY] = "unknown-contingency",
    [CTG_SA_UNKNOWN_ACTION] = "unknown-action",
    [CTG_SA_DUPLICATE_STAGE] = "duplicate-stage",
    [CTG_SA_DUPLICATE_ACTION] = "duplicate-action-id",
    [CTG_SA_UNUSED_ACTION] = "unused-action",
};

static const ctg_sa_kind doc_kinds[LINT_REF_COUNT] = {
    [LINT_REF_ACTIONS] = CTG_SA_ACTION_LIST,
    [LINT_REF_STRATEGIES] = CTG_SA_OPERATOR_STRATEGIES,
    [LINT_REF_LIMIT_REDUCTIONS] = CTG_SA_LIMIT_REDUCTIONS,
    [LINT_REF_MONITORS] = CTG_SA_STATE_MONITORS,
};

static int keep_id(const ctg_stream_header *list, const ctg_contingency *c, void *payload)
{
    refs_run *r = payload;

    (void)list;
    if (r->id_count == r->id_cap) {
        size_t cap = r->id_cap ? 2 * r->id_cap : 1024;
        char **ids = realloc(r->ids, cap * sizeof *ids);
        if (!ids)
            return r->oom = true, 1;
        r->ids = ids;
        r->id_cap = cap;
    }
    if (!(r->ids[r->id_count] = strdup(c->id)))
        return r->oom = true, 1;
    r->id_count++;
    return 0;
}

/* A list whose contingencies are made by a resolution (criterion and identifier kinds) has
 * no ids to check against. */
static int refuse_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    (void)h, (void)list, (void)payload;
    return 1;
}

static int read_ids(refs_run *r, cli_diag_format format)
{
    ctg_visitor v = CTG_VISITOR_INIT;
    ctg_read_options opts = cli_read_options(r->files[LINT_REF_CONTINGENCIES]);
    ctg_source src = cli_source(r->files[LINT_REF_CONTINGENCIES]);
    ctg_error err;
    int rc;

    v.contingency = keep_id;
    v.list = refuse_list;
    v.payload = r;
    rc = ctg_read_stream(&src, &v, &opts, &err);
    if (rc == CTG_ESTOPPED && !r->oom) {
        err.line = err.column = 0; /* about the whole list, not where the read stopped */
        err.offset = 0;
        err.path[0] = '\0';
        snprintf(err.message, sizeof err.message,
                 "not a default list: its contingencies are known only once resolved against "
                 "a network (contingency-cli resolve)");
        rc = CTG_EUNSUPPORTED;
    } else if (rc == CTG_ESTOPPED) {
        snprintf(err.message, sizeof err.message, "out of memory");
        rc = CTG_ENOMEM;
    }
    return rc == CTG_OK ? CLI_OK : cli_diag_report(format, rc, &err);
}

/* Whether document `i`, read as CTG_SA_ANY, is of the kind its option names: an action list
 * may be an identifier one, and an empty array (read as contexts) is an empty monitor list,
 * which then takes its place. CTG_ENOMEM when that fails. */
static int kind_fits(refs_run *r, int i, bool *fits)
{
    ctg_sa_kind got = ctg_sa_doc_kind(r->docs[i]), want = doc_kinds[i];

    *fits = got == want || (want == CTG_SA_ACTION_LIST && got == CTG_SA_IDENTIFIER_ACTION_LIST);
    if (want != CTG_SA_STATE_MONITORS || got != CTG_SA_CONTINGENCY_CONTEXTS ||
        ctg_sa_context_count(r->docs[i]) != 0)
        return CTG_OK;
    ctg_sa_doc_free(r->docs[i]);
    r->docs[i] = NULL;
    *fits = true;
    return ctg_sa_doc_new(&r->docs[i], CTG_SA_STATE_MONITORS, NULL);
}

/* Reads file `i` as the kind its option names (kind_fits). */
static int read_doc(refs_run *r, int i, cli_diag_format format)
{
    ctg_read_options opts = cli_read_options(r->files[i]);
    ctg_sa_kind want = doc_kinds[i], got;
    ctg_error err;
    bool fits;
    int rc;

    rc = ctg_sa_read_file(&r->docs[i], CTG_SA_ANY, r->files[i], &opts, &err);
    if (rc != CTG_OK)
        return cli_diag_report(format, rc, &err);
    got = ctg_sa_doc_kind(r->docs[i]);
    rc = kind_fits(r, i, &fits);
    if (rc == CTG_OK && fits)
        return CLI_OK;
    memset(&err, 0, sizeof err);
    snprintf(err.source, sizeof err.source, "%s", cli_input_name(r->files[i]));
    if (rc != CTG_OK) {
        snprintf(err.message, sizeof err.message, "out of memory");
    } else {
        rc = CTG_ESCHEMA;
        err.line = err.column = 1;
        snprintf(err.message, sizeof err.message, "this is %s %s, not %s %s",
                 ctg_sa_kind_article(got), ctg_sa_kind_name(got), ctg_sa_kind_article(want),
                 ctg_sa_kind_name(want));
    }
    err.code = rc;
    return cli_diag_report(format, rc, &err);
}

static int hold(const ctg_sa_finding *f, void *payload)
{
    refs_run *r = payload;
    held *h;

    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        held *found = realloc(r->found, cap * sizeof *found);
        if (!found)
            return r->oom = true, 1;
        r->found = found;
        r->cap = cap;
    }
    h = &r->found[r->count];
    h->issue = f->issue;
    h->warning = f->warning;
    h->doc = f->document == CTG_SA_OPERATOR_STRATEGIES ? LINT_REF_STRATEGIES
             : f->document == CTG_SA_LIMIT_REDUCTIONS  ? LINT_REF_LIMIT_REDUCTIONS
             : f->document == CTG_SA_STATE_MONITORS    ? LINT_REF_MONITORS
                                                       : LINT_REF_ACTIONS;
    h->path = strdup(f->path);
    h->message = strdup(f->message);
    if (!h->path || !h->message) {
        free(h->path);
        free(h->message);
        return r->oom = true, 1;
    }
    r->count++;
    return 0;
}

/* Where to look next for a pointer that named nothing, in place: a 1.0 strategy file holds its
 * one stage's members on the strategy itself (the model names them as stage 0), else the
 * parent. False at the root. */
static bool look_elsewhere(char *p)
{
    static const char stage0[] = "/conditionalActions/0/";
    char *at = strstr(p, stage0), *slash;

    if (at && strncmp(p, "/operatorStrategies/", 20) == 0) {
        memmove(at + 1, at + sizeof stage0 - 1, strlen(at + sizeof stage0 - 1) + 1);
        return true;
    }
    if (!(slash = strrchr(p, '/')))
        return false;
    *slash = '\0';
    return true;
}

/* The pointers to look for, in turn, for a finding at `path`: itself, then each place
 * look_elsewhere gives, down to the root; `*n` of them (malloc'd), NULL when out of memory. */
static char **candidates_of(const char *path, size_t *n)
{
    char *p = strdup(path), **all = NULL;
    size_t count = 0;

    while (p) {
        char **grown = realloc(all, (count + 1) * sizeof *all);
        if (!grown)
            break;
        all = grown;
        if (!(all[count] = strdup(p)))
            break;
        count++;
        if (!look_elsewhere(p)) {
            free(p);
            *n = count;
            return all;
        }
    }
    free(p);
    while (count)
        free(all[--count]);
    free(all);
    *n = 0;
    return NULL;
}

/* The findings of one file and every pointer each may be found at, for one ctg_locate. */
typedef struct placing {
    held **mine;          /* the file's findings, in order */
    char ***cands;        /* per finding: its candidates_of */
    size_t *ns;           /* per finding: how many */
    size_t n;             /* findings */
    const char **ptrs;    /* every candidate, finding after finding */
    ctg_location *places; /* where each of `ptrs` is */
    size_t total;         /* candidates */
} placing;

static bool gather(placing *p, refs_run *r, int doc)
{
    size_t room = r->count + 1;

    if (!(p->mine = malloc(room * sizeof *p->mine)) || !(p->cands = calloc(room, sizeof *p->cands))
        || !(p->ns = calloc(room, sizeof *p->ns)))
        return false;
    for (size_t i = 0; i < r->count; i++) {
        if (r->found[i].doc != doc)
            continue;
        p->mine[p->n] = &r->found[i];
        if (!(p->cands[p->n] = candidates_of(r->found[i].path, &p->ns[p->n])))
            return false;
        p->total += p->ns[p->n++];
    }
    if (!(p->ptrs = malloc((p->total + 1) * sizeof *p->ptrs))
        || !(p->places = calloc(p->total + 1, sizeof *p->places)))
        return false;
    for (size_t i = 0, j = 0; i < p->n; i++)
        for (size_t k = 0; k < p->ns[i]; k++)
            p->ptrs[j++] = p->cands[i][k];
    return true;
}

/* Finding `h`, whose candidates `c[0..n)` are at `places`: the first found becomes its path
 * and place (the last, the root, when none is). */
static void pick(held *h, char **c, const ctg_location *places, size_t n, ctg_location *at)
{
    size_t k = 0;

    while (k + 1 < n && !places[k].found)
        k++;
    free(h->path);
    h->path = c[k];
    c[k] = NULL;
    *at = places[k];
}

static void release(placing *p)
{
    for (size_t i = 0; i < p->n; i++) {
        for (size_t k = 0; k < p->ns[i]; k++)
            free(p->cands[i][k]);
        free(p->cands[i]);
    }
    free(p->places);
    free(p->ptrs);
    free(p->ns);
    free(p->cands);
    free(p->mine);
}

/* Places the findings of file `doc` (their paths become those found) in one scan of it, none
 * when it has none: each finding with every pointer it may fall back on (a file of an older
 * layout holds some members elsewhere, see look_elsewhere), the first found winning. */
static int place(refs_run *r, int doc, ctg_location *at)
{
    ctg_read_options opts = cli_read_options(r->files[doc]);
    ctg_source src = cli_source(r->files[doc]);
    placing p;
    int rc;

    memset(&p, 0, sizeof p);
    rc = gather(&p, r, doc) ? CTG_OK : CTG_ENOMEM;
    if (rc == CTG_OK && p.n)
        rc = ctg_locate(&src, p.ptrs, p.total, p.places, &opts, NULL);
    for (size_t i = 0, first = 0; rc == CTG_OK && i < p.n; first += p.ns[i++])
        pick(p.mine[i], p.cands[i], p.places + first, p.ns[i], &at[i]);
    release(&p);
    return rc;
}

/* The places of `file`'s findings could not be found (no memory, or it changed since it was
 * read): said as an error of that file. */
static int placing_failed(const char *file, cli_diag_format format)
{
    ctg_error err;

    memset(&err, 0, sizeof err);
    snprintf(err.source, sizeof err.source, "%s", cli_input_name(file));
    snprintf(err.message, sizeof err.message, "cannot place the findings");
    return cli_diag_report(format, CTG_EIO, &err);
}

/* Prints every finding in the order ctg_sa_check gave them, with its place. CLI_FAILURE when
 * a file could not be scanned for the places (reported here); a finding that cannot be
 * written (stdout full or closed) stops the printing, said by cli_flush_stdout at the end. */
static int print_all(refs_run *r, cli_diag_format format)
{
    ctg_location *at[LINT_REF_COUNT] = { NULL };
    size_t next[LINT_REF_COUNT] = { 0 };
    int status = CLI_OK;

    for (int d = 0; d < LINT_REF_COUNT && status == CLI_OK; d++) {
        if (!r->files[d] || d == LINT_REF_CONTINGENCIES)
            continue;
        if (!(at[d] = calloc(r->count + 1, sizeof *at[d])) || place(r, d, at[d]) != CTG_OK)
            status = placing_failed(r->files[d], format);
    }
    for (size_t i = 0; i < r->count && status == CLI_OK; i++) {
        const held *h = &r->found[i];
        const ctg_location *l = &at[h->doc][next[h->doc]++];
        cli_diag diag = { cli_input_name(r->files[h->doc]), l->line, l->column, h->path,
                          issue_codes[h->issue], h->warning ? "warning" : "error", h->message };
        if (cli_diag_print(stdout, format, &diag) < 0)
            break;
    }
    for (int d = 0; d < LINT_REF_COUNT; d++)
        free(at[d]);
    return status;
}

static int run_check(refs_run *r, cli_diag_format format)
{
    ctg_sa_check_set set = { CTG_SA_CHECK_SET_VERSION, NULL, 0, NULL, NULL, NULL, NULL };
    ctg_error err;
    int rc;

    if (r->files[LINT_REF_CONTINGENCIES]) {
        set.contingency_ids = (const char *const *)r->ids;
        set.contingency_count = r->id_count;
        if (!r->ids)
            set.contingency_ids = (const char *const *)&r->ids; /* an empty list: all unknown */
    }
    set.actions = r->docs[LINT_REF_ACTIONS];
    set.strategies = r->docs[LINT_REF_STRATEGIES];
    set.limit_reductions = r->docs[LINT_REF_LIMIT_REDUCTIONS];
    set.monitors = r->docs[LINT_REF_MONITORS];
    rc = ctg_sa_check(&set, hold, r, NULL, &err);
    if (rc == CTG_ESTOPPED && r->oom) {
        snprintf(err.message, sizeof err.message, "out of memory");
        rc = CTG_ENOMEM;
    }
    if (rc != CTG_OK)
        return cli_diag_report(format, rc, &err);
    if (print_all(r, format) != CLI_OK)
        return CLI_FAILURE;
    return r->count ? CLI_INVALID : CLI_OK;
}

static void dispose(refs_run *r)
{
    for (int d = 0; d < LINT_REF_COUNT; d++)
        ctg_sa_doc_free(r->docs[d]);
    for (size_t i = 0; i < r->id_count; i++)
        free(r->ids[i]);
    free(r->ids);
    for (size_t i = 0; i < r->count; i++) {
        free(r->found[i].path);
        free(r->found[i].message);
    }
    free(r->found);
}

int cli_lint_refs(const char *const files[LINT_REF_COUNT], cli_diag_format format)
{
    refs_run r;
    int status = CLI_OK;

    memset(&r, 0, sizeof r);
    r.files = files;
    if (files[LINT_REF_CONTINGENCIES])
        status = read_ids(&r, format);
    for (int d = LINT_REF_ACTIONS; d < LINT_REF_COUNT && status == CLI_OK; d++)
        if (files[d])
            status = read_doc(&r, d, format);
    if (status == CLI_OK)
        status = run_check(&r, format);
    dispose(&r);
    return cli_flush_stdout(status);
}
