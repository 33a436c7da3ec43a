/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli filter [SELECTOR...] IN OUT: keeps the contingencies the selectors choose.
 *
 * Each selector is a question about one contingency; a contingency is kept when it answers
 * yes to all of them (they are ANDed), or to not all of them with --invert. --type and
 * --element each ask about some element of the contingency, separately: `--type LINE
 * --element 'L1*'` keeps a contingency with a LINE and an element whose id starts with L1,
 * not necessarily the same one. An operator asking for "the LINE contingencies" means the
 * ones that trip a line, so any element of the type is enough. The list streams from IN to
 * OUT; kept contingencies are written as they were read, extensions included, so that a
 * filter keeping everything writes what convert writes. */

#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "pipeline.h"

enum { FLAG_INVERT = 1u << 0, FLAG_COMPACT = 1u << 1, FLAG_BREAK_LINKS = 1u << 2 };
enum { OPT_TYPE, OPT_ID, OPT_ELEMENT, OPT_MIN, OPT_MAX, OPT_OUTPUT, OPT_COUNT };

static const char *const filter_flags[] = { "--invert", "--compact", "--break-links", NULL };
static const char *const filter_valued[] = {
    "--type", "--id", "--element", "--min-elements", "--max-elements", "--output", NULL
};

typedef struct selectors {
    bool types[CTG_ELEMENT_TYPE_COUNT];
    bool by_type;
    const char *id, *element; /* globs, or NULL */
    size_t min, max;
    bool invert;
} selectors;

typedef struct filter_job {
    selectors sel;
    pl_out out;
    size_t kept;
    int status;
} filter_job;

static bool has_type(const selectors *s, const ctg_contingency *c)
{
    for (size_t i = 0; i < c->element_count; i++) {
        if (s->types[c->elements[i].type])
            return true;
    }
    return false;
}

static bool has_element(const char *glob, const ctg_contingency *c)
{
    for (size_t i = 0; i < c->element_count; i++) {
        if (cli_glob_match(glob, c->elements[i].id))
            return true;
    }
    return false;
}

static bool selected(const selectors *s, const ctg_contingency *c)
{
    bool yes = c->element_count >= s->min && c->element_count <= s->max &&
               (!s->by_type || has_type(s, c)) &&
               (s->id == NULL || cli_glob_match(s->id, c->id)) &&
               (s->element == NULL || has_element(s->element, c));

    return yes != s->invert;
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, const char *path,
                          const ctg_stream_place *at, void *ctx)
{
    filter_job *j = ctx;

    (void)path;
    (void)at;
    (void)at;
    j->status = pl_out_open(&j->out, h->name); /* at the first one, kept or not */
    if (j->status == CLI_OK && selected(&j->sel, c)) {
        j->status = pl_out_add(&j->out, h, c);
        j->kept++;
    }
    return j->status != CLI_OK;
}

/* "BRANCH,LINE": the types to look for. DANGLING_LINE, read as BOUNDARY_LINE, names it. */
static bool parse_types(const cli_command *cmd, const char *list, selectors *s)
{
    for (const char *p = list;; p++) {
        size_t n = strcspn(p, ",");
        ctg_element_type t;

        if (!ctg_element_type_from_name(p, n, &t)) {
            cli_usage_error(cmd, "unknown element type in --type", list);
            return false;
        }
        s->types[t == CTG_ELEMENT_DANGLING_LINE ? CTG_ELEMENT_BOUNDARY_LINE : t] = true;
        p += n;
        if (*p == '\0')
            break;
    }
    s->by_type = true;
    return true;
}

static bool parse_selectors(const cli_command *cmd, const char **v, unsigned flags, selectors *s)
{
    memset(s, 0, sizeof *s);
    s->max = (size_t)-1;
    s->invert = (flags & FLAG_INVERT) != 0;
    s->id = v[OPT_ID];
    s->element = v[OPT_ELEMENT];
    if (v[OPT_TYPE] && !parse_types(cmd, v[OPT_TYPE], s))
        return false;
    if (v[OPT_MIN] && !pl_parse_count(cmd, "--min-elements", v[OPT_MIN], 0, &s->min))
        return false;
    if (v[OPT_MAX] && !pl_parse_count(cmd, "--max-elements", v[OPT_MAX], 0, &s->max))
        return false;
    return true;
}

static int filter(const cli_args *args, const selectors *sel)
{
    filter_job j;
    pl_read r;
    int status;

    memset(&j, 0, sizeof j);
    memset(&r, 0, sizeof r);
    j.sel = *sel;
    pl_out_init(&j.out, args->pos[1], args->flags & FLAG_COMPACT, args->flags & FLAG_BREAK_LINKS);
    r.fn = on_contingency;
    r.ctx = &j;
    r.no_progress = args->no_progress;
    status = pl_read_run(&r, args->pos[0]);
    if (status == CLI_OK && r.stopped)
        status = j.status; /* reported, the output discarded */
    if (status == CLI_OK)
        status = pl_out_open(&j.out, r.name); /* a list without contingencies */
    if (status == CLI_OK)
        status = pl_out_close(&j.out);
    else
        pl_out_abort(&j.out);
    pl_read_dispose(&r);
    return status;
}

int cli_filter(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL };
    cli_options opts = { filter_flags, filter_valued, values };
    selectors sel;
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    pl_output_last(&args, values[OPT_OUTPUT]);
    if (args.npos != 2)
        return cli_usage_error(cmd, args.npos < 2 ? "missing IN or OUT" : "too many arguments",
                               NULL);
    if (!parse_selectors(cmd, values, args.flags, &sel))
        return CLI_FAILURE;
    return filter(&args, &sel);
}
