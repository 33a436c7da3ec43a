/* SPDX-License-Identifier: MPL-2.0 */
/* convert's CSV and JSON Lines: where contingencies go (a sink: a JSON list as it streams, CSV
 * rows, or JSON lines), and the CSV and JSON Lines inputs that feed one.
 *
 * CSV input streams in two passes while each contingency's rows are adjacent; rows of one
 * contingency need not be adjacent (a spreadsheet sorted by element type still makes one
 * contingency per id), which the first pass detects: such an input is grouped in memory, up
 * to a budget (see "CSV input" below). JSON Lines input streams, one line at a time. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csvio.h"
#include "hashspill.h"

/* ---- the sink ------------------------------------------------------------------------ */

static int sink_write_failed(cli_sink *s, ctg_error *err)
{
    return cli_io_failure(err, cli_output_name(s->out), "cannot write", errno);
}

int cli_sink_open(cli_sink *s, const char *name, ctg_error *err)
{
    int rc;

    if (s->format == CLI_FORMAT_JSON)
        rc = cli_list_writer_open(&s->w, s->out, name, &s->opts, err);
    else
        rc = cli_textout_open(&s->t, s->out, s->break_links, err);
    if (rc != CTG_OK)
        return rc;
    s->open = true;
    if (s->format == CLI_FORMAT_CSV) {
        for (int i = 0; i < CLI_CSV_COLUMNS; i++)
            cli_csv_field(&s->t, s->delim, cli_csv_header[i], false, i == 0);
        if (cli_csv_end_row(&s->t) != 0)
            return sink_write_failed(s, err);
    }
    return CTG_OK;
}

/* What CSV cannot hold is an error, never a loss: at the contingency, the place known of it
 * (its opening brace), its message naming what does not fit. */
static int unfit(const cli_sink *s, const char *why, const char *id, ctg_error *err)
{
    char path[64];

    if (s->bare)
        path[0] = '\0';
    else
        snprintf(path, sizeof path, "/contingencies/%zu", s->index);
    return cli_fail_at(err, CTG_ESCHEMA, s->in_name, s->at_line, s->at_column, path,
                       "contingency \"%.100s\" %s", id, why);
}

static int csv_fits(const cli_sink *s, const ctg_contingency *c, ctg_error *err)
{
    if (c->extension_count > 0)
        return unfit(s, "has extensions, which CSV cannot hold (JSON Lines can)", c->id, err);
    if (c->element_count == 0)
        return unfit(s, "has no elements, and CSV has one row per element (JSON Lines can "
                     "hold it)", c->id, err);
    return CTG_OK;
}

static int csv_rows(cli_sink *s, const ctg_contingency *c, ctg_error *err)
{
    int rc = csv_fits(s, c, err);

    for (size_t i = 0; rc == CTG_OK && i < c->element_count; i++) {
        const ctg_element *el = &c->elements[i];
        ctg_element_type t = el->type == CTG_ELEMENT_DANGLING_LINE ? CTG_ELEMENT_BOUNDARY_LINE
                                                                   : el->type;
        const char *vl = ctg_element_type_is_sided(t) ? el->voltage_level_id : NULL;
        int bad = cli_csv_field(&s->t, s->delim, c->id, true, true)
                  | cli_csv_field(&s->t, s->delim, c->name, true, false)
                  | cli_csv_field(&s->t, s->delim, el->id, true, false)
                  | cli_csv_field(&s->t, s->delim, ctg_element_type_name(t), false, false)
                  | cli_csv_field(&s->t, s->delim, vl, false, false) | cli_csv_end_row(&s->t);
        if (bad)
            rc = sink_write_failed(s, err);
    }
    return rc;
}

static int jsonl_line(cli_sink *s, const ctg_contingency *c, ctg_error *err)
{
    ctg_write_options opts = s->opts;
    int rc;

    opts.flags = CTG_WRITE_COMPACT;
    s->line.len = 0;
    rc = ctg_contingency_write_buf(&s->line, c, &opts, err);
    if (rc != CTG_OK) {
        snprintf(err->source, sizeof err->source, "%s", s->in_name);
        return rc;
    }
    if (cli_textout_write(&s->t, s->line.data, s->line.len) != 0
        || cli_textout_write(&s->t, "\n", 1) != 0)
        return sink_write_failed(s, err);
    return CTG_OK;
}

int cli_sink_add(cli_sink *s, const ctg_contingency *c, ctg_error *err)
{
    int rc;

    if (s->format == CLI_FORMAT_JSON)
        rc = ctg_stream_writer_add(s->w, c, err);
    else if (s->format == CLI_FORMAT_CSV)
        rc = csv_rows(s, c, err);
    else
        rc = jsonl_line(s, c, err);
    s->index++;
    return rc;
}

int cli_sink_close(cli_sink *s, ctg_error *err)
{
    int rc;

    s->open = false;
    ctg_buf_dispose(&s->line);
    if (s->format != CLI_FORMAT_JSON)
        return cli_textout_commit(&s->t, err);
    rc = ctg_stream_writer_close(s->w, err);
    s->w = NULL;
    if (rc == CTG_OK && strcmp(s->out, "-") == 0)
        rc = cli_stdout_flushed(err);
    return rc;
}

void cli_sink_abort(cli_sink *s)
{
    ctg_buf_dispose(&s->line);
    if (!s->open)
        return;
    s->open = false;
    if (s->format == CLI_FORMAT_JSON)
        ctg_stream_writer_abort(s->w);
    else
        cli_textout_abort(&s->t);
    s->w = NULL;
}

/* ---- CSV input ----------------------------------------------------------------------- */

/* CSV input is read twice, in bounded memory. The first pass checks every row as if each
 * contingency's rows were adjacent (the common case, and what convert writes) and gathers a
 * 64-bit hash of the id of each run of rows in a spill (hashspill.h). When no hash repeats,
 * no id reappears: the second pass writes each run as a contingency as soon as it ends,
 * holding one contingency at a time. A repeated hash (an id reappearing apart, or a collision
 * of two ids, which the hash alone must not merge) sends the input to the exact grouping
 * below, by the ids themselves, held in memory up to a budget (CLI_CSV_GROUP_BUDGET): beyond
 * it the input is refused with an error saying so. stdin, a pipe or a FIFO is copied to a
 * temporary file first so that it can be read again. */

#define CLI_CSV_GROUP_BUDGET ((size_t)16 << 20)

/* ---- grouping apart rows, in memory up to a budget -------------------------------------- */

typedef struct group {
    char *id;
    char *name; /* NULL: none */
    unsigned line;
    ctg_element *elements;
    size_t count, cap;
} group;

typedef struct csv_in {
    const char *source;
    char delim;
    bool header_seen;
    group *groups;
    size_t n, cap;
    size_t *slots; /* open addressing on the ids: group index + 1, 0 empty */
    size_t nslots;
    size_t held, budget; /* bytes allocated for the groups, and the most allowed */
} csv_in;

/* The budget of the grouping: CTG_CLI_CSV_GROUP_BUDGET (bytes) lowers it, for tests only. */
static size_t group_budget(void)
{
    const char *v = getenv("CTG_CLI_CSV_GROUP_BUDGET");
    char *end;
    unsigned long long n;

    if (v == NULL || *v < '0' || *v > '9')
        return CLI_CSV_GROUP_BUDGET;
    n = strtoull(v, &end, 10);
    return *end == '\0' && n < CLI_CSV_GROUP_BUDGET ? (size_t)n : CLI_CSV_GROUP_BUDGET;
}

/* FNV-1a, 64-bit on every target (its low bits pick the slot). */
static size_t hash_id(const char *s)
{
    uint64_t h = 1469598103934665603u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

static int rehash(csv_in *in)
{
    size_t n = in->nslots ? in->nslots * 2 : 1024;
    size_t *slots = calloc(n, sizeof *slots);

    if (slots == NULL)
        return -1;
    for (size_t g = 0; g < in->n; g++) {
        size_t i = hash_id(in->groups[g].id) & (n - 1);
        while (slots[i] != 0)
            i = (i + 1) & (n - 1);
        slots[i] = g + 1;
    }
    free(in->slots);
    in->held += (n - in->nslots) * sizeof *slots;
    in->slots = slots;
    in->nslots = n;
    return 0;
}

/* The slot of `id`: its group's or the empty one it would take. */
static size_t *slot_of(csv_in *in, const char *id)
{
    size_t i = hash_id(id) & (in->nslots - 1);

    while (in->slots[i] != 0 && strcmp(in->groups[in->slots[i] - 1].id, id) != 0)
        i = (i + 1) & (in->nslots - 1);
    return &in->slots[i];
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static int grow_groups(csv_in *in)
{
    size_t cap = in->cap ? in->cap * 2 : 64;
    group *g = realloc(in->groups, cap * sizeof *g);

    if (g == NULL)
        return -1;
    in->held += (cap - in->cap) * sizeof *g;
    in->groups = g;
    in->cap = cap;
    return 0;
}

/* The group of `id`, made when new (its name `name`); NULL when out of memory. */
static group *group_of(csv_in *in, const char *id, const char *name, unsigned line, bool *made)
{
    size_t *slot;

    *made = false;
    if ((in->n + 1) * 2 > in->nslots && rehash(in) != 0)
        return NULL;
    slot = slot_of(in, id);
    if (*slot != 0)
        return &in->groups[*slot - 1];
    if (in->n == in->cap && grow_groups(in) != 0)
        return NULL;
    group *g = &in->groups[in->n];
    memset(g, 0, sizeof *g);
    g->id = strdup(id);
    g->name = dup_or_null(name);
    g->line = line;
    if (g->id == NULL || (name && g->name == NULL)) {
        free(g->id);
        free(g->name);
        return NULL;
    }
    in->held += strlen(id) + 1 + (name ? strlen(name) + 1 : 0);
    *slot = ++in->n;
    *made = true;
    return g;
}

/* Appends an element to `elements` (count, cap); `*held` grows by what it took. */
static int push_element(ctg_element **elements, size_t *count, size_t *cap, const char *id,
                        ctg_element_type t, const char *vl, size_t *held)
{
    if (*count == *cap) {
        size_t n = *cap ? *cap * 2 : 4;
        ctg_element *e = realloc(*elements, n * sizeof *e);
        if (e == NULL)
            return -1;
        *held += (n - *cap) * sizeof *e;
        *elements = e;
        *cap = n;
    }
    ctg_element *el = &(*elements)[*count];
    el->id = strdup(id);
    el->type = t;
    el->voltage_level_id = vl && vl[0] ? strdup(vl) : NULL;
    if (el->id == NULL || (vl && vl[0] && el->voltage_level_id == NULL)) {
        free((char *)el->id);
        free((char *)el->voltage_level_id);
        return -1;
    }
    *held += strlen(id) + 1 + (el->voltage_level_id ? strlen(vl) + 1 : 0);
    (*count)++;
    return 0;
}

/* `count` may exceed what `elements` holds only when it is NULL (the first pass counts). */
static void free_elements(ctg_element *elements, size_t count)
{
    for (size_t k = 0; elements != NULL && k < count; k++) {
        free((char *)elements[k].id);
        free((char *)elements[k].voltage_level_id);
    }
    free(elements);
}

static int check_header(const char *source, char delim, bool *header_seen, unsigned line,
                        char *const *f, size_t n, ctg_error *err)
{
    bool ok = n == CLI_CSV_COLUMNS;

    for (size_t i = 0; ok && i < n; i++)
        ok = f[i] != NULL && strcmp(f[i], cli_csv_header[i]) == 0;
    *header_seen = true;
    if (ok)
        return CTG_OK;
    return cli_fail_at(err, CTG_ESCHEMA, source, line, 1, "",
                       "the first row must be the header contingency_id%ccontingency_name%c"
                       "element_id%celement_type%cvoltage_level_id",
                       delim, delim, delim, delim);
}

int cli_element_type_of(const char *name, size_t len, ctg_element_type *t)
{
    return name != NULL && ctg_element_type_from_name(name, len, t)
                   && *t != CTG_ELEMENT_DANGLING_LINE
               ? 0
               : -1;
}

/* The JSON Pointer of the element at `at`, with "/FIELD" when `field` is not NULL, in `buf`:
 * built only for an error (a longer one is cut, as the library cuts its own paths). */
static const char *element_path(char *buf, size_t cap, const cli_row_place *at,
                                const char *field)
{
    int n = snprintf(buf, cap, "/contingencies/%zu/elements/%zu%s%s", at->index, at->element,
                     field ? "/" : "", field ? field : "");

    if (n < 0)
        buf[0] = '\0';
    return buf;
}

int cli_check_element(const cli_row_place *at, const char *id, const char *type, size_t type_len,
                      const char *vl, ctg_element_type *t, ctg_error *err)
{
    char where[CTG_ERROR_PATH_MAX];

    if (id == NULL)
        return cli_fail_at(err, CTG_ESCHEMA, at->source, at->line, 1,
                           element_path(where, sizeof where, at, NULL), "empty element_id");
    if (cli_element_type_of(type, type_len, t) != 0)
        return cli_fail_at(err, CTG_ESCHEMA, at->source, at->line, 1,
                           element_path(where, sizeof where, at, "type"),
                           "unknown element type \"%.64s\"%s", type ? type : "",
                           type && strcmp(type, "DANGLING_LINE") == 0 ? " (now BOUNDARY_LINE)"
                                                                      : "");
    if (vl != NULL && vl[0] != '\0' && !ctg_element_type_is_sided(*t))
        return cli_fail_at(err, CTG_ESCHEMA, at->source, at->line, 1,
                           element_path(where, sizeof where, at, "voltageLevelId"),
                           "%s has no side: voltage_level_id must be empty",
                           ctg_element_type_name(*t));
    return CTG_OK;
}

static bool same_name(const char *a, const char *b)
{
    return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* The checks of a row before its contingency is known: the header, the field count, an id. */
static int row_shape(const char *source, unsigned line, char *const *f, size_t n,
                     ctg_error *err)
{
    if (n != CLI_CSV_COLUMNS)
        return cli_fail_at(err, CTG_ESCHEMA, source, line, 1, "",
                           "expected %d fields, found %zu", CLI_CSV_COLUMNS, n);
    if (f[0] == NULL)
        return cli_fail_at(err, CTG_ESCHEMA, source, line, 1, "", "empty contingency_id");
    return CTG_OK;
}

/* A row's element (the `count`th of contingency `index`, first seen at `first_line` named
 * `name`; `made`: this row made it), checked. */
static int row_element(const char *source, unsigned line, char *const *f, const size_t *lens,
                       size_t index, size_t count, bool made, const char *name,
                       unsigned first_line, ctg_element_type *t, ctg_error *err)
{
    char path[CTG_ERROR_PATH_MAX];
    cli_row_place at = { source, line, index, count };
    int rc = cli_check_element(&at, f[2], f[3], lens[3], f[4], t, err);

    if (rc != CTG_OK)
        return rc;
    if (!made && !same_name(name, f[1])) {
        snprintf(path, sizeof path, "/contingencies/%zu/name", index);
        return cli_fail_at(err, CTG_ESCHEMA, source, line, 1, path,
                           "contingency_name differs from line %u's, for the same "
                           "contingency_id", first_line);
    }
    return CTG_OK;
}

static int over_budget(const csv_in *in, unsigned line, ctg_error *err)
{
    return cli_fail_at(err, CTG_ELIMIT, in->source, line, 1, "",
                       "the rows of some contingency_id are apart, and grouping them needs more "
                       "than %zu bytes of memory: put each contingency's rows together",
                       in->budget);
}

static int on_csv_row(void *payload, unsigned line, char *const *f, const size_t *lens, size_t n,
                      ctg_error *err)
{
    csv_in *in = payload;
    ctg_element_type t;
    bool made;
    group *g;

    if (!in->header_seen)
        return check_header(in->source, in->delim, &in->header_seen, line, f, n, err);
    int rc = row_shape(in->source, line, f, n, err);
    if (rc != CTG_OK)
        return rc;
    if ((g = group_of(in, f[0], f[1], line, &made)) == NULL)
        return cli_fail_at(err, CTG_ENOMEM, in->source, 0, 0, "", "out of memory");
    rc = row_element(in->source, line, f, lens, (size_t)(g - in->groups), g->count, made,
                     g->name, g->line, &t, err);
    if (rc != CTG_OK)
        return rc;
    if (push_element(&g->elements, &g->count, &g->cap, f[2], t,
                     ctg_element_type_is_sided(t) ? f[4] : NULL, &in->held)
        != 0)
        return cli_fail_at(err, CTG_ENOMEM, in->source, 0, 0, "", "out of memory");
    return in->held > in->budget ? over_budget(in, line, err) : CTG_OK;
}

static void csv_in_free(csv_in *in)
{
    for (size_t i = 0; i < in->n; i++) {
        group *g = &in->groups[i];
        free_elements(g->elements, g->count);
        free(g->id);
        free(g->name);
    }
    free(in->groups);
    free(in->slots);
}

static int csv_to_sink(csv_in *in, cli_sink *s, const char *name, ctg_error *err)
{
    int rc = cli_sink_open(s, name, err);

    for (size_t i = 0; rc == CTG_OK && i < in->n; i++) {
        group *g = &in->groups[i];
        ctg_contingency c = { g->id, g->name, g->elements, g->count, NULL, 0 };
        rc = cli_sink_add(s, &c, err);
    }
    if (rc == CTG_OK)
        return cli_sink_close(s, err);
    cli_sink_abort(s);
    return rc;
}

static int no_header(const char *source, ctg_error *err)
{
    return cli_fail_at(err, CTG_ESCHEMA, source, 1, 1, "",
                       "no header: an empty CSV file (the header row is required)");
}

/* Reads the whole of `path` (named `source`), grouping its rows by id, then writes them. */
static int csv_grouped(const char *path, const char *source, char delim, bool progress,
                       cli_sink *s, const char *name, ctg_error *err)
{
    cli_textin tin;
    csv_in in;
    int rc;

    memset(&in, 0, sizeof in);
    in.delim = delim;
    in.budget = group_budget();
    if ((rc = cli_textin_open(&tin, path, progress, err)) != CTG_OK)
        return rc;
    tin.name = in.source = source;
    rc = cli_csv_read(&tin, delim, on_csv_row, &in, err);
    if (rc == CTG_OK && !in.header_seen)
        rc = no_header(in.source, err);
    cli_textin_close(&tin);
    if (rc == CTG_OK)
        rc = csv_to_sink(&in, s, name, err);
    csv_in_free(&in);
    return rc;
}

/* ---- adjacent rows, streamed ----------------------------------------------------------- */

/* The state of a pass over rows taken as adjacent: the run of the current id. */
typedef struct csv_flat {
    const char *source;
    char delim;
    bool header_seen;
    cli_spill *spill; /* the first pass: every run's id hash; NULL in the second */
    cli_sink *sink;   /* the second pass: where each run goes */
    size_t runs;      /* runs begun */
    char *id, *name;  /* the current run's */
    unsigned line;    /* its first row's */
    ctg_element *elements;
    size_t count, cap; /* its elements (the first pass counts them only) */
    size_t held;
} csv_flat;

static void run_clear(csv_flat *r)
{
    free_elements(r->elements, r->count);
    free(r->id);
    free(r->name);
    r->id = r->name = NULL;
    r->elements = NULL;
    r->count = r->cap = r->held = 0;
}

/* Ends the current run: the second pass writes it. */
static int run_end(csv_flat *r, ctg_error *err)
{
    int rc = CTG_OK;

    if (r->id != NULL && r->sink != NULL) {
        ctg_contingency c = { r->id, r->name, r->elements, r->count, NULL, 0 };
        rc = cli_sink_add(r->sink, &c, err);
    }
    run_clear(r);
    return rc;
}

static int run_begin(csv_flat *r, char *const *f, unsigned line, ctg_error *err)
{
    int rc = run_end(r, err);

    if (rc != CTG_OK)
        return rc;
    r->id = strdup(f[0]);
    r->name = dup_or_null(f[1]);
    r->line = line;
    r->runs++;
    if (r->id == NULL || (f[1] && r->name == NULL))
        return cli_fail_at(err, CTG_ENOMEM, r->source, 0, 0, "", "out of memory");
    if (r->spill != NULL && cli_spill_add(r->spill, cli_hash64(f[0], strlen(f[0]), 0)) != 0)
        return cli_io_failure(err, r->source, "cannot keep the contingency ids",
                              r->spill->error);
    return CTG_OK;
}

static int on_flat_row(void *payload, unsigned line, char *const *f, const size_t *lens,
                       size_t n, ctg_error *err)
{
    csv_flat *r = payload;
    ctg_element_type t;

    if (!r->header_seen)
        return check_header(r->source, r->delim, &r->header_seen, line, f, n, err);
    int rc = row_shape(r->source, line, f, n, err);
    if (rc != CTG_OK)
        return rc;
    bool made = r->id == NULL || strcmp(r->id, f[0]) != 0;
    if (made)
        rc = run_begin(r, f, line, err);
    if (rc == CTG_OK)
        rc = row_element(r->source, line, f, lens, r->runs - 1, r->count, made, r->name,
                         r->line, &t, err);
    if (rc != CTG_OK || r->spill != NULL) {
        r->count += rc == CTG_OK;
        return rc;
    }
    if (push_element(&r->elements, &r->count, &r->cap, f[2], t,
                     ctg_element_type_is_sided(t) ? f[4] : NULL, &r->held)
        != 0)
        return cli_fail_at(err, CTG_ENOMEM, r->source, 0, 0, "", "out of memory");
    return CTG_OK;
}

/* One pass over `path` (named `source`) with rows taken as adjacent. */
static int flat_pass(const char *path, csv_flat *r, bool progress, ctg_error *err)
{
    cli_textin tin;
    int rc;

    if ((rc = cli_textin_open(&tin, path, progress, err)) != CTG_OK)
        return rc;
    tin.name = r->source;
    rc = cli_csv_read(&tin, r->delim, on_flat_row, r, err);
    if (rc == CTG_OK && !r->header_seen)
        rc = no_header(r->source, err);
    cli_textin_close(&tin);
    if (rc == CTG_OK && r->sink != NULL)
        rc = run_end(r, err);
    run_clear(r);
    return rc;
}

/* The first pass: 1 when some id hash repeats among the runs read, else 0; -1 (err) when the
 * spill failed. */
static int runs_repeat(cli_spill *spill, const char *source, ctg_error *err)
{
    uint64_t *repeated = NULL;
    size_t count = 0;

    if (cli_spill_repeated(spill, &repeated, &count) != 0) {
        cli_io_failure(err, source, "cannot keep the contingency ids", spill->error);
        return -1;
    }
    free(repeated);
    return count > 0;
}

/* Checks every row taken as adjacent. CTG_OK and *apart when some id may reappear apart
 * (then the rows are grouped instead); an error in a row is kept only when no id reappeared
 * before it (else *apart too, and the grouping finds the error as it should be). */
static int flat_check(const char *path, const char *source, char delim, bool progress,
                      bool *apart, ctg_error *err)
{
    cli_spill spill;
    csv_flat r;
    ctg_error spill_err;
    int rc, rep;

    memset(&r, 0, sizeof r);
    r.source = source;
    r.delim = delim;
    r.spill = &spill;
    if (cli_spill_init(&spill) != 0)
        return cli_fail_at(err, CTG_ENOMEM, source, 0, 0, "", "out of memory");
    rc = flat_pass(path, &r, progress, err);
    rep = rc == CTG_EIO || rc == CTG_ENOMEM ? 0 : runs_repeat(&spill, source, &spill_err);
    cli_spill_dispose(&spill);
    if (rep < 0) {
        *err = spill_err;
        return CTG_EIO;
    }
    /* CTG_CLI_CSV_GROUP_ALWAYS, for tests only, takes every input as a repeated hash would:
     * the grouping then gives what the streamed pass gives, collision or not. */
    *apart = rep > 0 || getenv("CTG_CLI_CSV_GROUP_ALWAYS") != NULL;
    return *apart ? CTG_OK : rc;
}

/* ---- stdin, spooled ---------------------------------------------------------------------- */

/* Copies `fd` (the input `source`) to a temporary file in $TMPDIR (or /tmp), named in `*path`
 * (owned), removed if a signal ends us (slot 1: slot 0 is the output's). */
static int spool_fd(int fd, const char *source, char **path, ctg_error *err)
{
    char what[CTG_ERROR_MESSAGE_MAX];
    cli_spool_result r = cli_spool(fd, "ctg-csv", 1, path);
    int saved = errno;

    switch (r) {
    case CLI_SPOOL_OK:
        return CTG_OK;
    case CLI_SPOOL_NOMEM:
        return cli_fail_at(err, CTG_ENOMEM, source, 0, 0, "", "out of memory");
    case CLI_SPOOL_CREATE:
        snprintf(what, sizeof what, "cannot copy it to a temporary file in %.150s",
                 cli_temp_dir());
        return cli_io_failure(err, source, what, saved);
    default:
        cli_spool_remove(*path, 1);
        *path = NULL;
        return cli_io_failure(err, source, "cannot copy it to a temporary file", saved);
    }
}

/* An input that cannot be read twice (stdin, a pipe, a FIFO, a device) is copied to a
 * temporary file, named in `*spool`; a regular file is read where it is (*spool NULL). */
static int spool_unless_file(const char *path, const char *source, char **spool,
                             ctg_error *err)
{
    bool std = strcmp(path, "-") == 0;
    int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int rc = CTG_OK;

    *spool = NULL;
    if (fd < 0)
        return cli_io_failure(err, source, "cannot open", errno);
    /* stdin is copied even from a file: its offset is not ours to rewind */
    if (std || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        rc = spool_fd(fd, source, spool, err);
    if (!std)
        close(fd);
    return rc;
}

/* The second pass: writes each run as it ends. */
static int flat_write(const char *path, const char *source, char delim, bool progress,
                      cli_sink *s, const char *name, ctg_error *err)
{
    csv_flat r;
    int rc;

    memset(&r, 0, sizeof r);
    r.source = source;
    r.delim = delim;
    r.sink = s;
    if ((rc = cli_sink_open(s, name, err)) != CTG_OK)
        return rc;
    rc = flat_pass(path, &r, progress, err);
    if (rc == CTG_OK)
        return cli_sink_close(s, err);
    cli_sink_abort(s);
    return rc;
}

int cli_convert_csv(const char *path, char delim, bool progress, cli_sink *s, const char *name,
                    ctg_error *err)
{
    const char *source = cli_input_name(path);
    char *spool = NULL;
    bool apart = false;
    int rc = CTG_OK;

    if ((rc = spool_unless_file(path, source, &spool, err)) == CTG_OK && spool != NULL)
        path = spool;
    if (rc == CTG_OK)
        rc = flat_check(path, source, delim, progress, &apart, err);
    if (rc == CTG_OK && apart)
        rc = csv_grouped(path, source, delim, progress, s, name, err);
    else if (rc == CTG_OK)
        rc = flat_write(path, source, delim, progress, s, name, err);
    cli_spool_remove(spool, 1);
    return rc;
}

/* ---- JSON Lines input ------------------------------------------------------------------ */

typedef struct line_buf {
    char *data;
    size_t len, cap;
    size_t max; /* the longest line taken (cli_text_limit) */
} line_buf;

static int append(line_buf *b, const char *s, size_t n)
{
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (p == NULL)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* Whether the line begins as a list does ({"type" first, as PowSyBl writes every list): its
 * errors are a list's, of no contingency's place, and keep their own path. */
static bool starts_as_list(const char *text, size_t len)
{
    size_t i = 0;
    bool brace = false;

    for (; i < len && (text[i] == ' ' || text[i] == '\t' || (!brace && text[i] == '{')); i++)
        brace = brace || text[i] == '{';
    return len - i >= 6 && memcmp(text + i, "\"type\"", 6) == 0;
}

/* The error of a line's read at the place of its contingency in the list written
 * (/contingencies/N...), as a CSV row's are; a path too long to grow stays the line's own. */
static void rebase_path(ctg_error *err, size_t index)
{
    char path[sizeof err->path];
    int n = snprintf(path, sizeof path, "/contingencies/%zu%s", index,
                     strcmp(err->path, "/") == 0 ? "" : err->path);

    if (n > 0 && (size_t)n < sizeof path)
        memcpy(err->path, path, (size_t)n + 1);
}

/* One line (without its '\n'): a contingency object, written to the sink. */
static int jsonl_one(cli_sink *s, const char *source, unsigned lineno, const char *text,
                     size_t len, ctg_error *err)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    int rc;

    if (blank(text, len))
        return CTG_OK;
    opts.source_name = source;
    rc = ctg_list_read_buffer(&list, text, len, &opts, err);
    if (rc != CTG_OK) {
        if (err->line > 0)
            err->line = err->line - 1 + lineno; /* the read saw one line */
        if (!starts_as_list(text, len))
            rebase_path(err, s->index);
        return rc;
    }
    if (ctg_list_get_kind(list) != CTG_LIST_CONTINGENCY)
        rc = cli_fail_at(err, CTG_ESCHEMA, source, lineno, 1, "",
                         "a line must hold one contingency object, not a %s list",
                         ctg_list_kind_name(ctg_list_get_kind(list)));
    else {
        s->at_line = lineno;
        s->at_column = 1;
        rc = cli_sink_add(s, ctg_list_contingency_at(list, 0), err);
    }
    ctg_list_free(list);
    return rc;
}

/* Splits what was read into lines; `b` keeps a line cut by the read. */
static int jsonl_chunk(cli_sink *s, const char *source, unsigned *lineno, line_buf *b,
                       const char *buf, size_t got, ctg_error *err)
{
    int rc = CTG_OK;

    while (got > 0 && rc == CTG_OK) {
        const char *nl = memchr(buf, '\n', got);
        size_t n = nl ? (size_t)(nl - buf) : got;
        const char *nul = memchr(buf, '\0', n);
        /* Refused as they come, not held to the line's end (a /dev/zero would never end). */
        if (nul != NULL)
            return cli_fail_at(err, CTG_ESYNTAX, source, *lineno,
                               (unsigned)(b->len + (size_t)(nul - buf) + 1), "",
                               "a NUL byte: JSON text holds none");
        /* one contingency, read whole: a line never ending is not held without end */
        if (b->len + n > b->max)
            return cli_fail_at(err, CTG_ELIMIT, source, *lineno, 1, "",
                               "line longer than %zu bytes", b->max);
        if (append(b, buf, n) != 0)
            return cli_fail_at(err, CTG_ENOMEM, source, 0, 0, "", "out of memory");
        if (nl) {
            rc = jsonl_one(s, source, *lineno, b->data, b->len, err);
            b->len = 0;
            (*lineno)++;
            n++;
        }
        buf += n;
        got -= n;
    }
    return rc;
}

static int jsonl_lines(cli_textin *in, cli_sink *s, ctg_error *err)
{
    enum { CHUNK = 65536 };
    char *buf = malloc(CHUNK);
    line_buf b = { NULL, 0, 0, cli_text_limit() };
    unsigned lineno = 1;
    size_t got;
    int rc;

    if (buf == NULL)
        return cli_fail_at(err, CTG_ENOMEM, in->name, 0, 0, "", "out of memory");
    while ((rc = cli_textin_read(in, buf, CHUNK, &got, err)) == CTG_OK && got > 0) {
        if ((rc = jsonl_chunk(s, in->name, &lineno, &b, buf, got, err)) != CTG_OK)
            break;
    }
    if (rc == CTG_OK && b.len > 0) /* a last line without its '\n' */
        rc = jsonl_one(s, in->name, lineno, b.data, b.len, err);
    free(buf);
    free(b.data);
    return rc;
}

int cli_convert_jsonl(const char *path, bool progress, cli_sink *s, const char *name,
                      ctg_error *err)
{
    cli_textin in;
    int rc = cli_textin_open(&in, path, progress, err);

    if (rc != CTG_OK)
        return rc;
    rc = cli_sink_open(s, name, err);
    if (rc == CTG_OK)
        rc = jsonl_lines(&in, s, err);
    cli_textin_close(&in);
    if (rc == CTG_OK)
        return cli_sink_close(s, err);
    cli_sink_abort(s);
    return rc;
}
