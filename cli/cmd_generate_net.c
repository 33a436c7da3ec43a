/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli generate --network NET [SELECTION] [--n2 RULE] OUT: N-1 or correlated N-2
 * contingencies generated from a network (ctg/generate.h), streamed into OUT as they come, in
 * constant memory beyond the network whatever their number; or, with --as-criterion, the
 * criterion list PowSyBl can evaluate on a later network; or, with --dry-run, only the
 * counts. The selection's options each map to one field of ctg_gen_selection. */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ctg/generate.h"

enum {
    FLAG_COMPACT = 1u << 0,
    FLAG_BREAK_LINKS = 1u << 1,
    FLAG_DRY_RUN = 1u << 2,
    FLAG_AS_CRITERION = 1u << 3,
    FLAG_WITH_N1 = 1u << 4
};
enum {
    OPT_NETWORK,
    OPT_TYPES,
    OPT_COUNTRY,
    OPT_COUNTRY2,
    OPT_VOLTAGE,
    OPT_VOLTAGE2,
    OPT_VOLTAGE3,
    OPT_PROPERTY,
    OPT_ID_REGEX,
    OPT_SUBNETWORK,
    OPT_CONNECTED_TO,
    OPT_N2,
    OPT_ID_FORMAT,
    OPT_MAX,
    OPT_REPORT,
    OPT_NAME,
    OPT_COUNT
};

static const char *const gen_flags[] = { "--compact", "--break-links", "--dry-run",
                                         "--as-criterion", "--with-n1", NULL };
static const char *const gen_valued[] = {
    "--network", "--types", "--country", "--country2", "--voltage", "--voltage2",
    "--voltage3", "--property", "--id-regex", "--subnetwork", "--connected-to", "--n2",
    "--id-format", "--max-contingencies", "--report", "--name", NULL
};

/* The types of a selection without --types: the branches. */
static const ctg_identifiable_type default_types[] = {
    CTG_IDENTIFIABLE_LINE, CTG_IDENTIFIABLE_TIE_LINE, CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER,
    CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER
};

#define MAX_ITEMS 64 /* types, countries or properties in one option */

/* The selection and what it is parsed from (argv, borrowed; copies where split). */
typedef struct selection {
    ctg_gen_selection sel;
    ctg_identifiable_type types[MAX_ITEMS];
    const char *countries[MAX_ITEMS], *countries2[MAX_ITEMS];
    ctg_gen_property props[MAX_ITEMS];
    char *copies[4]; /* the split copies of --types, --country, --country2, --property */
} selection;

/* ---- parsing the selection ------------------------------------------------------------------- */

/* Splits a copy of `s` at commas into `out` (at most MAX_ITEMS); false when too many or one
 * is empty. The copy is kept in *copy (freed by the caller). */
static bool split(const char *s, char **copy, const char **out, size_t *n)
{
    char *c = strdup(s), *save = NULL;

    *copy = c;
    *n = 0;
    if (c == NULL)
        return false;
    for (char *p = c;; p = NULL) {
        char *tok = strtok_r(p, ",", &save);

        if (tok == NULL)
            break;
        if (*n == MAX_ITEMS)
            return false;
        out[(*n)++] = tok;
    }
    return *n > 0 && s[0] != ',' && s[strlen(s) - 1] != ',' && strstr(s, ",,") == NULL;
}

static bool parse_types(selection *s, const char *v)
{
    const char *names[MAX_ITEMS];
    size_t n;

    if (!split(v, &s->copies[0], names, &n))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!ctg_identifiable_type_from_name(names[i], strlen(names[i]), &s->types[i]))
            return false;
    s->sel.types = s->types;
    s->sel.type_count = n;
    return true;
}

/* A bound of a range, from `s` to `end` (NULL: to the end of `s`): a finite number of kV
 * from 0, as the library takes it. */
static bool parse_bound(const char *s, const char *end, double *out)
{
    char *e;

    *out = strtod(s, &e);
    return e != s && (end != NULL ? e == end : *e == '\0') && isfinite(*out) && *out >= 0;
}

/* "LOW:HIGH", either side may be empty (open-ended); both bounds included, LOW at most HIGH.
 * All that the library checks is checked here, so that the message names the option. */
static bool parse_range(const char *v, ctg_voltage_interval *iv)
{
    const char *colon = strchr(v, ':');

    memset(iv, 0, sizeof *iv);
    if (colon == NULL)
        return false;
    iv->set = true;
    if (colon != v) {
        iv->has_low = iv->low_closed = true;
        if (!parse_bound(v, colon, &iv->low))
            return false;
    }
    if (colon[1] != '\0') {
        iv->has_high = iv->high_closed = true;
        if (!parse_bound(colon + 1, NULL, &iv->high))
            return false;
    }
    return (iv->has_low || iv->has_high) && !(iv->has_low && iv->has_high && iv->low > iv->high);
}

/* --voltage, --voltage2 and --voltage3 into the selection; a bad one is a usage error that
 * names it and says what a range is. */
static int parse_ranges(const cli_command *cmd, selection *s, const char *const *values)
{
    static const int ranges[3] = { OPT_VOLTAGE, OPT_VOLTAGE2, OPT_VOLTAGE3 };
    char message[128];

    for (int k = 0; k < 3; k++) {
        const char *v = values[ranges[k]];

        if (v != NULL && !parse_range(v, &s->sel.nominal_v[k])) {
            snprintf(message, sizeof message, "%s takes LOW:HIGH in kV (0 <= LOW <= HIGH; "
                     "either may be left out)", gen_valued[ranges[k]]);
            return cli_usage_error(cmd, message, v);
        }
    }
    return CLI_OK;
}

static bool parse_properties(selection *s, const char *v)
{
    const char *items[MAX_ITEMS];
    size_t n;

    if (!split(v, &s->copies[3], items, &n))
        return false;
    for (size_t i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');

        if (eq == NULL || eq == items[i])
            return false;
        *eq = '\0';
        s->props[i].key = items[i];
        s->props[i].value = eq + 1;
    }
    s->sel.properties = s->props;
    s->sel.property_count = n;
    return true;
}

/* The selection of the options but the ranges (parse_ranges); NULL, or the option whose
 * value is wrong. */
static const char *parse_selection(selection *s, const char *const *values)
{
    memset(s, 0, sizeof *s);
    s->sel.version = CTG_GEN_SELECTION_VERSION;
    s->sel.types = default_types;
    s->sel.type_count = sizeof default_types / sizeof default_types[0];
    if (values[OPT_TYPES] != NULL && !parse_types(s, values[OPT_TYPES]))
        return "--types";
    if (values[OPT_COUNTRY] != NULL &&
        !split(values[OPT_COUNTRY], &s->copies[1], s->countries, &s->sel.country_count))
        return "--country";
    if (values[OPT_COUNTRY2] != NULL &&
        !split(values[OPT_COUNTRY2], &s->copies[2], s->countries2, &s->sel.country2_count))
        return "--country2";
    s->sel.countries = s->countries;
    s->sel.countries2 = s->countries2;
    if (values[OPT_PROPERTY] != NULL && !parse_properties(s, values[OPT_PROPERTY]))
        return "--property";
    s->sel.id_regex = values[OPT_ID_REGEX];
    s->sel.subnetwork = values[OPT_SUBNETWORK];
    s->sel.connected_to = values[OPT_CONNECTED_TO];
    return NULL;
}

static void selection_free(selection *s)
{
    for (size_t i = 0; i < sizeof s->copies / sizeof s->copies[0]; i++)
        free(s->copies[i]);
}

/* ---- generating ------------------------------------------------------------------------------ */

typedef struct job {
    const ctg_network *net;
    ctg_gen_options opts;
    ctg_stream_writer *w;
    ctg_error werr; /* the writer's error, kept apart from the generator's "stopped" */
    int wrc;
    cli_outfile rep;
    bool rep_open, rep_items; /* the report lists the contingencies of the N-2 rule */
    /* The progress line: contingencies done of `total`, on a terminal only. */
    bool bar, drawn;
    uint64_t done, total;
    double start, last;
} job;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* At most five frames a second, the first after half a second: short runs show nothing. */
static void bar_tick(job *j)
{
    double t;

    if (!j->bar || (++j->done & 4095) != 0)
        return;
    t = now_s();
    if (t - j->start < 0.5 || t - j->last < 0.2)
        return;
    j->last = t;
    fprintf(stderr, "\r%s generate: %llu/%llu contingencies %d%%\033[K", CLI_NAME,
            (unsigned long long)j->done, (unsigned long long)j->total,
            j->total > 0 ? (int)(100.0 * (double)j->done / (double)j->total) : 0);
    j->drawn = true;
    cli_signals_bar(true);
}

static void bar_done(job *j)
{
    if (j->drawn) {
        fputs("\r\033[K", stderr);
        cli_signals_bar(false);
    }
    j->drawn = false;
}

/* "ID: ELEMENT ELEMENT ...", input text escaped. */
static void report_item(job *j, const ctg_contingency *c)
{
    FILE *fp = j->rep.fp;

    cli_put_escaped(fp, c->id);
    fputc(':', fp);
    for (size_t i = 0; i < c->element_count; i++) {
        fputc(' ', fp);
        cli_put_escaped(fp, c->elements[i].id);
    }
    fputc('\n', fp);
}

static int on_contingency(const ctg_contingency *c, void *payload)
{
    job *j = payload;

    j->wrc = ctg_stream_writer_add(j->w, c, &j->werr);
    if (j->wrc != CTG_OK)
        return 1;
    if (j->rep_open && j->rep_items)
        report_item(j, c);
    bar_tick(j);
    return j->rep_open && ferror(j->rep.fp) ? 1 : 0;
}

/* One rule into the writer; its failure (the generator's, the writer's or the report's) in
 * `err`. */
static int run_rule(job *j, ctg_gen_rule rule, const char *format, ctg_error *err)
{
    int rc;

    j->opts.rule = rule;
    j->opts.id_format = format;
    j->rep_items = rule != CTG_GEN_N1;
    rc = ctg_generate(j->net, &j->opts, on_contingency, j, err);
    if (rc == CTG_ESTOPPED && j->wrc != CTG_OK) {
        *err = j->werr;
        rc = j->wrc;
    } else if (rc == CTG_ESTOPPED && j->rep_open && ferror(j->rep.fp)) {
        rc = cli_io_failure(err, j->rep.name, "cannot write", errno);
    }
    return rc;
}

/* The counts of one rule, or its error. With the rule's id format: the count checks it as
 * the run would, so that a format the run refuses is refused before any count is shown. */
static int count_rule(job *j, ctg_gen_rule rule, const char *format, ctg_gen_counts *c,
                      ctg_error *err)
{
    j->opts.rule = rule;
    j->opts.id_format = format;
    memset(c, 0, sizeof *c);
    c->version = CTG_GEN_COUNTS_VERSION;
    return ctg_generate_count(j->net, &j->opts, c, err);
}

static void print_counts(FILE *fp, ctg_gen_rule rule, const ctg_gen_counts *c, bool types)
{
    for (int t = 0; types && t < CTG_IDENTIFIABLE_TYPE_COUNT; t++)
        if (c->selected[t] > 0)
            fprintf(fp, "selected %s: %llu\n", ctg_identifiable_type_name((ctg_identifiable_type)t),
                    (unsigned long long)c->selected[t]);
    fprintf(fp, "%s: %llu contingencies", ctg_gen_rule_name(rule),
            (unsigned long long)c->contingencies);
    if (rule != CTG_GEN_N1 && rule != CTG_GEN_ALL_PAIRS)
        fprintf(fp, ", %llu %s", (unsigned long long)c->groups,
                rule == CTG_GEN_PARALLEL            ? "groups of parallel branches"
                : rule == CTG_GEN_COMMON_SUBSTATION ? "places with two branches or more"
                                                    : "busbars");
    fputc('\n', fp);
}

/* ---- the command ----------------------------------------------------------------------------- */

typedef struct run_args {
    const cli_args *args;
    const char *const *values;
    ctg_gen_rule rules[2];
    size_t nrules;
    const char *out, *name;
} run_args;

/* The id format of rule i: --id-format applies to the last rule, --with-n1's N-1 has the
 * default. */
static const char *rule_format(const run_args *ra, size_t i)
{
    return i + 1 < ra->nrules ? NULL : ra->values[OPT_ID_FORMAT];
}

/* Every rule counted before any count is printed: a fault of the last (its id format, with
 * --with-n1) leaves no half report on stdout, as the run leaves no half list. */
static int dry_run(job *j, const run_args *ra)
{
    ctg_gen_counts c[sizeof ra->rules / sizeof ra->rules[0]];
    ctg_error err;

    for (size_t i = 0; i < ra->nrules; i++) {
        int rc = count_rule(j, ra->rules[i], rule_format(ra, i), &c[i], &err);

        if (rc != CTG_OK)
            return cli_report(rc, &err);
    }
    for (size_t i = 0; i < ra->nrules; i++)
        print_counts(stdout, ra->rules[i], &c[i], i == 0);
    return CLI_OK;
}

static int as_criterion(job *j, const run_args *ra, const ctg_write_options *wopts)
{
    ctg_list *list = NULL;
    ctg_error err;
    int rc;

    j->opts.rule = ra->rules[ra->nrules - 1];
    rc = ctg_generate_as_criterion(&list, &j->opts, ra->name, &err);
    if (rc == CTG_OK)
        rc = cli_list_write(ra->out, list, wopts, &err);
    ctg_list_free(list);
    return rc == CTG_OK ? CLI_OK : cli_report(rc, &err);
}

/* Counts the rule first when the count is shown (the report, the bar, all-pairs' count). */
static int before_rule(job *j, const run_args *ra, size_t i, ctg_error *err)
{
    bool quiet = ra->args->quiet;
    ctg_gen_rule rule = ra->rules[i];
    ctg_gen_counts c;
    int rc;

    if (!j->rep_open && !j->bar && (rule != CTG_GEN_ALL_PAIRS || quiet))
        return CTG_OK;
    rc = count_rule(j, rule, rule_format(ra, i), &c, err);
    if (rc != CTG_OK)
        return rc;
    if (rule == CTG_GEN_ALL_PAIRS && !quiet)
        fprintf(stderr, "%s generate: all-pairs: %llu contingencies\n", CLI_NAME,
                (unsigned long long)c.contingencies);
    if (j->rep_open)
        print_counts(j->rep.fp, rule, &c, i == 0);
    j->done = 0;
    j->total = c.contingencies;
    return CTG_OK;
}

/* Stops a probe at its first contingency. */
static int stop_at_first(const ctg_contingency *c, void *payload)
{
    (void)c;
    (void)payload;
    return 1;
}

/* With --with-n1, the N-2 rule's faults (its id format, its limit) found before N-1 is
 * written: they would otherwise end the run once N-1 had streamed to OUT (to a file left as
 * it was, but to stdout half a list). The library checks both before its first contingency,
 * so a run stopped there finds them. */
static int check_last_rule(job *j, const run_args *ra, ctg_error *err)
{
    int rc;

    if (ra->nrules < 2)
        return CTG_OK;
    j->opts.rule = ra->rules[ra->nrules - 1];
    j->opts.id_format = ra->values[OPT_ID_FORMAT];
    rc = ctg_generate(j->net, &j->opts, stop_at_first, NULL, err);
    j->opts.id_format = NULL;
    return rc == CTG_ESTOPPED ? CTG_OK : rc;
}

static int generate_all(job *j, const run_args *ra, const ctg_write_options *wopts)
{
    ctg_error err;
    int rc = check_last_rule(j, ra, &err);

    if (rc == CTG_OK)
        rc = cli_list_writer_open(&j->w, ra->out, ra->name, wopts, &err);

    for (size_t i = 0; rc == CTG_OK && i < ra->nrules; i++) {
        rc = before_rule(j, ra, i, &err);
        j->start = j->last = now_s();
        if (rc == CTG_OK)
            rc = run_rule(j, ra->rules[i], rule_format(ra, i), &err);
        bar_done(j);
    }
    /* The report flushed first: one that cannot be written leaves OUT as it was. */
    if (rc == CTG_OK && j->rep_open && (rc = cli_outfile_prepare(&j->rep, &err)) != CTG_OK)
        j->rep_open = false;
    if (rc == CTG_OK)
        rc = ctg_stream_writer_close(j->w, &err);
    else
        ctg_stream_writer_abort(j->w);
    j->w = NULL;
    if (rc == CTG_OK && strcmp(ra->out, "-") == 0)
        rc = cli_stdout_flushed(&err);
    if (rc == CTG_OK && j->rep_open)
        rc = cli_outfile_commit(&j->rep, &err);
    else if (j->rep_open)
        cli_outfile_abort(&j->rep);
    j->rep_open = false;
    if (rc == CTG_OK)
        return CLI_OK;
    return cli_report_output(rc, strcmp(ra->out, "-") == 0, &err);
}

/* The busbar rule's topology: NET read again, as a file. */
static int read_topology(ctg_gen_topology **topo, const ctg_network *net, const char *path)
{
    ctg_source src = cli_source(path);
    ctg_error err;
    int rc = ctg_gen_topology_read(topo, net, &src, NULL, &err);

    return rc == CTG_OK ? CLI_OK : cli_report(rc, &err);
}

static int run(const ctg_network *net, const run_args *ra, const selection *s)
{
    const cli_args *args = ra->args;
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    ctg_gen_topology *topo = NULL;
    job j;
    int status = CLI_OK;

    memset(&j, 0, sizeof j);
    j.net = net;
    j.opts.version = CTG_GEN_OPTIONS_VERSION;
    j.opts.selection = &s->sel;
    j.opts.max_contingencies =
        ra->values[OPT_MAX] != NULL ? strtoull(ra->values[OPT_MAX], NULL, 10) : 0;
    j.bar = !args->no_progress && isatty(STDERR_FILENO);
    wopts.flags = (args->flags & FLAG_COMPACT ? CTG_WRITE_COMPACT : 0) |
                  (args->flags & FLAG_BREAK_LINKS ? CTG_WRITE_BREAK_LINKS : 0);
    wopts.temp_file = cli_signals_temp_file; /* removed if a signal ends us */
    if (ra->rules[ra->nrules - 1] == CTG_GEN_BUSBAR && !(args->flags & FLAG_AS_CRITERION))
        status = read_topology(&topo, net, ra->values[OPT_NETWORK]);
    j.opts.topology = topo;
    if (status == CLI_OK && (args->flags & FLAG_DRY_RUN))
        status = dry_run(&j, ra);
    else if (status == CLI_OK && (args->flags & FLAG_AS_CRITERION))
        status = as_criterion(&j, ra, &wopts);
    else if (status == CLI_OK && ra->values[OPT_REPORT] != NULL) {
        ctg_error err;
        int rc = cli_outfile_open(&j.rep, ra->values[OPT_REPORT], 1,
                                  (args->flags & FLAG_BREAK_LINKS) != 0, &err);

        status = rc == CTG_OK ? CLI_OK : cli_report(rc, &err);
        j.rep_open = rc == CTG_OK;
    }
    if (status == CLI_OK && !(args->flags & (FLAG_DRY_RUN | FLAG_AS_CRITERION)))
        status = generate_all(&j, ra, &wopts);
    ctg_gen_topology_free(topo);
    return status;
}

/* Usage errors of the arguments together; NULL when they fit. */
static const char *check_args(const cli_args *args, const char *const *values, run_args *ra,
                              const char **arg)
{
    bool dry = (args->flags & FLAG_DRY_RUN) != 0, crit = (args->flags & FLAG_AS_CRITERION) != 0;
    const char *max = values[OPT_MAX];
    char *end = NULL;

    *arg = NULL;
    if (values[OPT_NETWORK] == NULL)
        return "missing --network NET";
    if (args->npos != (dry ? 0 : 1))
        return args->npos < (dry ? 0 : 1) ? "missing OUT" : "too many arguments";
    if (dry && (crit || values[OPT_REPORT] != NULL))
        return "--dry-run writes nothing: no --as-criterion or --report with it";
    /* A criterion list is evaluated on a later network: no count to limit, no id to format. */
    if (crit && (values[OPT_REPORT] != NULL || values[OPT_ID_FORMAT] != NULL || max != NULL))
        return "--as-criterion writes criteria, not contingencies: no --report, --id-format or "
               "--max-contingencies with it";
    ra->nrules = 0;
    if (values[OPT_N2] == NULL || (args->flags & FLAG_WITH_N1))
        ra->rules[ra->nrules++] = CTG_GEN_N1;
    if (values[OPT_N2] != NULL &&
        (!ctg_gen_rule_from_name(values[OPT_N2], strlen(values[OPT_N2]), &ra->rules[ra->nrules]) ||
         ra->rules[ra->nrules] == CTG_GEN_N1))
        return *arg = values[OPT_N2], "unknown --n2 rule (parallel, common-substation, busbar, "
                                      "all-pairs)";
    ra->nrules += values[OPT_N2] != NULL;
    if ((args->flags & FLAG_WITH_N1) && values[OPT_N2] == NULL)
        return "--with-n1 without --n2";
    /* 0 would be the library's "the default": a silent 10 million, not the 0 asked for. */
    errno = 0;
    if (max != NULL && (max[0] < '0' || max[0] > '9' || strtoull(max, &end, 10) == 0 ||
                        *end != '\0' || errno == ERANGE))
        return *arg = max, "--max-contingencies takes a whole number of 1 or more";
    if (ra->rules[ra->nrules - 1] == CTG_GEN_BUSBAR && !crit && cli_input_once(values[OPT_NETWORK]))
        return "the busbar rule reads NET twice: NET must be a file, not stdin or a pipe";
    if (values[OPT_REPORT] != NULL && !dry && cli_same_output(values[OPT_REPORT], args->pos[0]))
        return "the report and OUT cannot be one output";
    if (values[OPT_REPORT] != NULL && cli_replaces_input(values[OPT_REPORT], values[OPT_NETWORK]))
        return "the report would replace NET";
    ra->out = dry ? NULL : args->pos[0];
    ra->name = values[OPT_NAME] != NULL ? values[OPT_NAME]
                                        : ctg_gen_rule_name(ra->rules[ra->nrules - 1]);
    return NULL;
}

int cli_generate_network(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL }, *problem, *arg;
    cli_options opts = { gen_flags, gen_valued, values };
    ctg_network *net = NULL;
    selection s;
    run_args ra;
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    memset(&ra, 0, sizeof ra);
    if ((problem = check_args(&args, values, &ra, &arg)) != NULL)
        return cli_usage_error(cmd, problem, arg);
    if ((problem = parse_selection(&s, values)) != NULL) {
        selection_free(&s);
        return cli_usage_error(cmd, "invalid value of", problem);
    }
    if ((status = parse_ranges(cmd, &s, values)) != CLI_OK) {
        selection_free(&s);
        return status;
    }
    ra.args = &args;
    ra.values = values;
    status = cli_read_network(&net, values[OPT_NETWORK], !args.no_progress);
    if (status == CLI_OK)
        status = run(net, &ra, &s);
    ctg_network_free(net);
    selection_free(&s);
    return cli_flush_stdout(status);
}
