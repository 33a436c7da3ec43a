/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli merge IN... OUT: one `default` list of the contingencies of all the inputs.
 *
 * Duplicates are found in bounded memory, whatever the size of the inputs: each contingency
 * id (and, with --dedupe-equivalent, each canonical element set) is reduced to a 64-bit hash,
 * and the hashes go through a cli_spill, which says which of them repeat. Only the
 * contingencies whose hash repeats are then looked at again, exactly, in a confirmation read
 * of the inputs: their ids and element sets are kept in memory (so memory grows with the
 * number of duplicates, not with the inputs) and compared byte for byte, which also clears a
 * hash collision. stdin is copied to a temporary file first so that it can be read again.
 *
 * Reads: without --dedupe and --dedupe-equivalent, the output is written in the first read
 * and committed once the hashes show no duplicate (one read; two when a hash repeats). With
 * them, what to drop must be known before the contingency comes (--dedupe last drops the
 * earlier one): a first read finds the repeated hashes, the confirmation read (when any)
 * decides, and a last read writes. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elemset.h"
#include "hashspill.h"
#include "pipeline.h"

enum { FLAG_EQUIVALENT = 1u << 0, FLAG_COMPACT = 1u << 1, FLAG_BREAK_LINKS = 1u << 2 };
enum { OPT_NAME, OPT_DEDUPE, OPT_OUTPUT, OPT_COUNT };

static const char *const merge_flags[] = { "--dedupe-equivalent", "--compact", "--break-links",
                                           NULL };
static const char *const merge_valued[] = { "--name", "--dedupe", "--output", NULL };

typedef enum dedupe { DEDUPE_NONE, DEDUPE_FIRST, DEDUPE_LAST } dedupe;
typedef enum pass { PASS_SCAN, PASS_CONFIRM, PASS_WRITE } pass;

/* Element-set hashes have the top bit set, id hashes not: one spill holds both. */
#define TAG_SET ((uint64_t)1 << 63)

/* A contingency whose hash repeats, as the confirmation read saw it. */
typedef struct record {
    uint64_t ordinal; /* its place among all the inputs' contingencies */
    size_t input;
    char *path, *id;
    unsigned line, column; /* of its id's value */
    char *key;             /* its canonical element set, when that hash repeats; else NULL */
    size_t key_len;
    bool id_candidate;
    bool dropped, equivalent;   /* dropped, as an equivalent or as a duplicate id */
    const struct record *first; /* the one it duplicates, when dropped */
} record;

typedef struct merge_job {
    char **inputs;      /* the paths read (stdin's copy for "-") */
    const char **names; /* what messages call them */
    size_t n;
    dedupe mode;
    bool equivalent, quiet, no_progress;
    const char *name; /* --name, or NULL */
    char *first_name; /* the first input's list name */
    pass pass;
    bool spill_in_write; /* one read: hashes gathered while writing */
    size_t input;
    uint64_t ordinal;
    cli_spill spill;
    uint64_t *dups; /* the repeated hashes, sorted */
    size_t ndups;
    record *recs; /* in input order */
    size_t nrecs, recs_cap;
    uint64_t *drops; /* ordinals not written, ascending */
    size_t ndrops, drop_at;
    cli_elemset es;
    const pl_read *reader; /* the read under way: its name is the first list's */
    pl_out out;
    int status;
} merge_job;

static uint64_t id_hash(const ctg_contingency *c)
{
    return cli_hash64(c->id, strlen(c->id), 1) & ~TAG_SET;
}

static int oom(merge_job *j)
{
    j->status = pl_fail(CLI_FAILURE, j->names[j->input], "", "out of memory");
    return 1;
}

static int scan_one(merge_job *j, const ctg_contingency *c)
{
    if (cli_spill_add(&j->spill, id_hash(c)) != 0)
        return oom(j);
    if (!j->equivalent)
        return 0;
    if (cli_elemset_build(&j->es, c) != 0 ||
        cli_spill_add(&j->spill, cli_elemset_hash(&j->es) | TAG_SET) != 0)
        return oom(j);
    return 0;
}

static bool repeated(const merge_job *j, uint64_t h)
{
    size_t lo = 0, hi = j->ndups;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (j->dups[mid] == h)
            return true;
        if (j->dups[mid] < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

static int add_record(merge_job *j, const ctg_contingency *c, const char *path,
                      const ctg_stream_place *at, bool by_id, bool by_set)
{
    char id_path[128];
    record *r;

    if (j->nrecs == j->recs_cap) {
        size_t cap = j->recs_cap ? j->recs_cap * 2 : 64;
        record *p = realloc(j->recs, cap * sizeof *p);

        if (p == NULL)
            return oom(j);
        j->recs = p;
        j->recs_cap = cap;
    }
    r = &j->recs[j->nrecs];
    memset(r, 0, sizeof *r);
    r->ordinal = j->ordinal - 1;
    r->input = j->input;
    r->id_candidate = by_id;
    r->line = at ? at->id_line : 0;
    r->column = at ? at->id_column : 0;
    /* The place of its id, as its line and column are, and as lint and diff name it. */
    snprintf(id_path, sizeof id_path, "%s/id", path);
    r->path = strdup(id_path);
    r->id = strdup(c->id);
    if (by_set && (r->key = malloc(j->es.key_len + 1)) != NULL) {
        memcpy(r->key, j->es.key, j->es.key_len);
        r->key_len = j->es.key_len;
    }
    j->nrecs++;
    return r->path && r->id && (!by_set || r->key) ? 0 : oom(j);
}

static int confirm_one(merge_job *j, const ctg_contingency *c, const char *path,
                       const ctg_stream_place *at)
{
    bool by_id = repeated(j, id_hash(c)), by_set = false;

    if (j->equivalent) {
        if (cli_elemset_build(&j->es, c) != 0)
            return oom(j);
        by_set = repeated(j, cli_elemset_hash(&j->es) | TAG_SET);
    }
    return by_id || by_set ? add_record(j, c, path, at, by_id, by_set) : 0;
}

static int write_one(merge_job *j, const ctg_stream_header *h, const ctg_contingency *c)
{
    uint64_t o = j->ordinal - 1;

    if (j->spill_in_write && scan_one(j, c) != 0)
        return 1;
    if (j->drop_at < j->ndrops && j->drops[j->drop_at] == o) {
        j->drop_at++;
        return 0;
    }
    /* pl_out_open is a call: not one for every contingency */
    j->status = j->out.w != NULL ? CLI_OK
                                 : pl_out_open(&j->out, j->name         ? j->name
                                                        : j->first_name ? j->first_name
                                                                        : j->reader->name);
    if (j->status == CLI_OK)
        j->status = pl_out_add(&j->out, h, c);
    return j->status != CLI_OK;
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, const char *path,
                          const ctg_stream_place *at, void *ctx)
{
    merge_job *j = ctx;

    j->ordinal++;
    switch (j->pass) {
    case PASS_SCAN:
        return scan_one(j, c);
    case PASS_CONFIRM:
        return confirm_one(j, c, path, at);
    default:
        return write_one(j, h, c);
    }
}

/* One read of every input. */
static int run_pass(merge_job *j, pass p)
{
    pl_read r;
    int status = CLI_OK;

    memset(&r, 0, sizeof r);
    r.fn = on_contingency;
    r.ctx = j;
    r.flatten = true;
    r.skip_extensions = p != PASS_WRITE;
    r.places = p == PASS_CONFIRM; /* only the duplicates' messages need them */
    r.no_progress = j->no_progress;
    j->reader = &r;
    j->pass = p;
    j->ordinal = 0;
    for (j->input = 0; j->input < j->n && status == CLI_OK; j->input++) {
        r.display = j->names[j->input];
        status = pl_read_run(&r, j->inputs[j->input]);
        if (status == CLI_OK && r.stopped)
            status = j->status;
        if (status == CLI_OK && j->input == 0 && j->first_name == NULL &&
            (j->first_name = strdup(r.name)) == NULL)
            status = oom(j) ? j->status : CLI_OK;
        if (status == CLI_OK && p == PASS_WRITE) /* the name is known: even if all is empty */
            status = pl_out_open(&j->out, j->name ? j->name : j->first_name);
    }
    pl_read_dispose(&r);
    j->reader = NULL;
    return status;
}

/* ---- deciding ------------------------------------------------------------------------- */

static int by_id_then_order(const void *a, const void *b)
{
    const record *x = *(record *const *)a, *y = *(record *const *)b;
    int d = strcmp(x->id, y->id);

    return d ? d : (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

static int by_key_then_order(const void *a, const void *b)
{
    const record *x = *(record *const *)a, *y = *(record *const *)b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int d = memcmp(x->key, y->key, n);

    if (d == 0 && x->key_len != y->key_len)
        d = x->key_len < y->key_len ? -1 : 1;
    return d ? d : (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

/* Sorts into `order` the records of repeated ids (or, `sets`, of repeated element sets that
 * are still kept); returns how many. */
static size_t gather(merge_job *j, record **order, bool sets)
{
    size_t n = 0;

    for (size_t i = 0; i < j->nrecs; i++) {
        record *r = &j->recs[i];

        if (sets ? r->key != NULL && !r->dropped : r->id_candidate)
            order[n++] = r;
    }
    if (n > 1)
        qsort(order, n, sizeof *order, sets ? by_key_then_order : by_id_then_order);
    return n;
}

/* Marks every record of a group of equal ones but the one kept. */
static void drop_group(record **g, size_t n, dedupe mode, bool equivalent)
{
    record *kept = mode == DEDUPE_LAST && !equivalent ? g[n - 1] : g[0];

    for (size_t i = 0; i < n; i++) {
        if (g[i] != kept) {
            g[i]->dropped = true;
            g[i]->equivalent = equivalent;
            g[i]->first = kept;
        }
    }
}

static bool same(const record *a, const record *b, bool sets)
{
    if (sets)
        return a->key_len == b->key_len && memcmp(a->key, b->key, a->key_len) == 0;
    return strcmp(a->id, b->id) == 0;
}

/* Groups the records of equal ids (or element sets) and drops all but one of each. */
static void decide(merge_job *j, record **order, bool sets)
{
    size_t n = gather(j, order, sets), start = 0;

    for (size_t i = 1; i <= n; i++) {
        if (i < n && same(order[start], order[i], sets))
            continue;
        if (i - start > 1)
            drop_group(order + start, i - start, j->mode, sets);
        start = i;
    }
}

/* Every duplicate id, in input order, as an error naming both places. */
static int report_duplicates(merge_job *j)
{
    int status = CLI_OK;

    for (size_t i = 0; i < j->nrecs; i++) {
        const record *r = &j->recs[i];

        if (r->dropped && !r->equivalent)
            status = pl_fail_at(CLI_INVALID, j->names[r->input], r->line, r->column, r->path,
                                "duplicate contingency id \"%s\", first at %s:%u:%u (%s); "
                                "--dedupe first or last keeps one",
                                r->id, j->names[r->first->input], r->first->line, r->first->column,
                                r->first->path);
    }
    return status;
}

/* What was dropped, on stderr, unless -q: one line each, as a warning diagnostic reads. */
static void report_drops(const merge_job *j)
{
    for (size_t i = 0; i < j->nrecs && !j->quiet; i++) {
        const record *r = &j->recs[i];

        if (!r->dropped)
            continue;
        cli_put_escaped(stderr, j->names[r->input]); /* a name, like an id: escaped */
        fprintf(stderr, ":%u:%u: warning: ", r->line, r->column);
        cli_put_escaped(stderr, r->path);
        fputs(r->equivalent ? ": dropped \"" : ": dropped duplicate id \"", stderr);
        cli_put_escaped(stderr, r->id);
        if (r->equivalent) {
            fputs("\": same elements as \"", stderr);
            cli_put_escaped(stderr, r->first->id);
        }
        fputs("\" (kept: ", stderr);
        cli_put_escaped(stderr, j->names[r->first->input]);
        fprintf(stderr, ":%u:%u, ", r->first->line, r->first->column);
        cli_put_escaped(stderr, r->first->path);
        fputs(")\n", stderr);
    }
}

/* The confirmation read and its verdict: the ordinals to drop, or the duplicate errors. */
static int confirm(merge_job *j)
{
    record **order;
    int status = run_pass(j, PASS_CONFIRM);

    if (status != CLI_OK)
        return status;
    order = malloc((j->nrecs ? j->nrecs : 1) * sizeof *order);
    j->drops = malloc((j->nrecs ? j->nrecs : 1) * sizeof *j->drops);
    if (order == NULL || j->drops == NULL) {
        free(order);
        return oom(j), j->status;
    }
    decide(j, order, false);
    if (j->mode == DEDUPE_NONE && (status = report_duplicates(j)) != CLI_OK)
        return free(order), status;
    if (j->equivalent)
        decide(j, order, true);
    free(order);
    for (size_t i = 0; i < j->nrecs; i++) {
        if (j->recs[i].dropped)
            j->drops[j->ndrops++] = j->recs[i].ordinal;
    }
    return CLI_OK;
}

static int find_repeated(merge_job *j)
{
    if (cli_spill_repeated(&j->spill, &j->dups, &j->ndups) == 0)
        return CLI_OK;
    return pl_fail(CLI_FAILURE, "merge", "", "cannot keep the hashes of the ids: %s",
                   strerror(j->spill.error));
}

static int merge_passes(merge_job *j)
{
    int status;

    if (j->mode == DEDUPE_NONE && !j->equivalent) { /* written as it is read */
        j->spill_in_write = true;
        if ((status = run_pass(j, PASS_WRITE)) != CLI_OK || (status = find_repeated(j)) ||
            (j->ndups && (status = confirm(j)) != CLI_OK))
            return status;
        return CLI_OK; /* a repeated hash that was no duplicate id: written all the same */
    }
    if ((status = run_pass(j, PASS_SCAN)) != CLI_OK || (status = find_repeated(j)) != CLI_OK ||
        (j->ndups && (status = confirm(j)) != CLI_OK))
        return status;
    j->spill_in_write = false;
    return run_pass(j, PASS_WRITE);
}

static void dispose(merge_job *j)
{
    for (size_t i = 0; i < j->nrecs; i++) {
        free(j->recs[i].path);
        free(j->recs[i].id);
        free(j->recs[i].key);
    }
    free(j->recs);
    free(j->dups);
    free(j->drops);
    free(j->first_name);
    cli_spill_dispose(&j->spill);
    cli_elemset_dispose(&j->es);
}

static int merge(merge_job *j)
{
    int status;

    if (cli_spill_init(&j->spill) != 0)
        return oom(j), j->status;
    status = merge_passes(j);
    if (status == CLI_OK)
        status = pl_out_close(&j->out);
    else
        pl_out_abort(&j->out);
    if (status == CLI_OK)
        report_drops(j);
    dispose(j);
    return status;
}

/* The signal slot of input i's copy: past the slots, none (-1: a signal leaves the copy). */
static int copy_slot(size_t i)
{
    return i + 1 < CLI_TEMP_SLOTS ? (int)i + 1 : -1;
}

/* The inputs, those that cannot be read twice (stdin, pipes) from copies, each in a signal
 * slot of its own (stdin named twice is one copy); then the merge. */
static int merge_inputs(merge_job *j, char **pos, size_t n)
{
    const char *names[n];
    char *spool[n], *stdin_copy = NULL;
    int status = CLI_OK;

    for (size_t i = 0; i < n; i++) {
        bool in_stdin = strcmp(pos[i], "-") == 0;

        names[i] = cli_input_name(pos[i]);
        spool[i] = NULL;
        if (in_stdin && stdin_copy != NULL) {
            pos[i] = stdin_copy;
            continue;
        }
        if (status == CLI_OK)
            status = pl_spool_input(pos[i], copy_slot(i), &spool[i]);
        if (spool[i] != NULL)
            pos[i] = spool[i];
        if (in_stdin)
            stdin_copy = spool[i];
    }
    j->inputs = pos;
    j->names = names;
    j->n = n;
    if (status == CLI_OK)
        status = merge(j);
    for (size_t i = 0; i < n; i++)
        pl_spool_remove(spool[i], copy_slot(i));
    return status;
}

static bool parse_dedupe(const cli_command *cmd, const char *value, dedupe *out)
{
    if (value == NULL)
        *out = DEDUPE_NONE;
    else if (strcmp(value, "first") == 0)
        *out = DEDUPE_FIRST;
    else if (strcmp(value, "last") == 0)
        *out = DEDUPE_LAST;
    else
        return cli_usage_error(cmd, "--dedupe takes first or last", value), false;
    return true;
}

int cli_merge(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL };
    cli_options opts = { merge_flags, merge_valued, values };
    merge_job j;
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    pl_output_last(&args, values[OPT_OUTPUT]);
    if (args.npos < 2)
        return cli_usage_error(cmd, "missing IN or OUT", NULL);
    memset(&j, 0, sizeof j);
    if (!parse_dedupe(cmd, values[OPT_DEDUPE], &j.mode))
        return CLI_FAILURE;
    j.name = values[OPT_NAME];
    j.equivalent = (args.flags & FLAG_EQUIVALENT) != 0;
    j.quiet = args.quiet;
    j.no_progress = args.no_progress;
    pl_out_init(&j.out, args.pos[args.npos - 1], args.flags & FLAG_COMPACT,
                args.flags & FLAG_BREAK_LINKS);
    return merge_inputs(&j, args.pos, (size_t)args.npos - 1);
}
