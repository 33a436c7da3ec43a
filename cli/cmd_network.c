/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli network [--dump] NET [OUT]: what ctg imported from an IIDM network, as a
 * summary or (--dump) as the whole equipment table in JSON. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { FLAG_DUMP = 1u << 0 };

static const char *const network_flags[] = { "--dump", NULL };

int cli_read_network(ctg_network **out, const char *path, bool progress_wanted)
{
    ctg_source src = cli_source(path);
    ctg_iidm_read_options opts = { .version = CTG_IIDM_READ_OPTIONS_VERSION };
    cli_progress progress;
    ctg_error err;
    int rc;

    opts.source_name = strcmp(path, "-") == 0 ? CLI_STDIN_NAME : NULL;
    opts.progress = cli_progress_update; /* the same bar as a list read's */
    opts.payload = &progress;
    cli_progress_init(&progress, progress_wanted, NULL);
    rc = ctg_iidm_read(out, &src, &opts, &err);
    cli_progress_done(&progress);
    return rc == CTG_OK ? CLI_OK : cli_report(rc, &err);
}

/* ---- the summary ---------------------------------------------------------------------- */

/* A distinct value and how many objects have it. */
typedef struct tally {
    const char *country; /* NULL: none */
    double v;
    size_t count;
} tally;

static int by_country(const void *a, const void *b)
{
    const tally *x = a, *y = b;

    if (x->country == NULL || y->country == NULL)
        return (x->country == NULL) - (y->country == NULL); /* "none" last */
    return strcmp(x->country, y->country);
}

/* Ascending; NaN (unknown) last. */
static int by_voltage(const void *a, const void *b)
{
    const tally *x = a, *y = b;

    if (isnan(x->v) || isnan(y->v))
        return isnan(x->v) - isnan(y->v);
    return x->v < y->v ? -1 : x->v > y->v;
}

/* Counts the distinct values of substations' countries (or voltage levels' nominal voltages)
 * into `t` (room for every object); returns how many distinct values. */
static size_t count_values(const ctg_network *net, ctg_identifiable_type type, tally *t)
{
    size_t n = 0, total = ctg_network_count(net, type);

    for (size_t i = 0; i < total; i++) {
        const ctg_net_object *o = ctg_network_object_at(net, type, i);
        const char *country = o->container ? o->container->country : NULL;
        double v = o->container ? o->container->nominal_v : NAN;
        size_t j = 0;

        for (; j < n; j++) {
            bool same = type == CTG_IDENTIFIABLE_SUBSTATION
                            ? (country && t[j].country ? strcmp(country, t[j].country) == 0
                                                       : country == t[j].country)
                            : (isnan(v) ? isnan(t[j].v) : v == t[j].v);
            if (same)
                break;
        }
        if (j == n)
            t[n++] = (tally){ country, v, 0 };
        t[j].count++;
    }
    qsort(t, n, sizeof *t, type == CTG_IDENTIFIABLE_SUBSTATION ? by_country : by_voltage);
    return n;
}

static void print_counts(const ctg_network *net)
{
    printf("objects: %zu\n", ctg_network_object_count(net));
    for (int t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++) {
        size_t n = ctg_network_count(net, (ctg_identifiable_type)t);
        if (n)
            printf("  %s: %zu\n", ctg_identifiable_type_name((ctg_identifiable_type)t), n);
    }
}

static void print_tallies(const ctg_network *net, ctg_identifiable_type type, tally *t)
{
    size_t n = count_values(net, type, t);

    printf(type == CTG_IDENTIFIABLE_SUBSTATION ? "countries: %zu\n" : "nominal voltages: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        if (type == CTG_IDENTIFIABLE_SUBSTATION) {
            fputs("  ", stdout);
            cli_put_escaped(stdout, t[i].country ? t[i].country : "none");
            printf(": %zu\n", t[i].count);
        } else if (isnan(t[i].v)) {
            printf("  unknown: %zu\n", t[i].count);
        } else {
            /* The C locale (the CLI never sets another): a point, whatever LANG says. */
            printf("  %.15g kV: %zu\n", t[i].v, t[i].count);
        }
    }
}

/* The subnetworks: the NETWORK objects after the root, with the objects each owns. */
static void print_subnetworks(const ctg_network *net)
{
    size_t n = ctg_network_count(net, CTG_IDENTIFIABLE_NETWORK),
           all = ctg_network_object_count(net);

    printf("subnetworks: %zu\n", n ? n - 1 : 0);
    for (size_t i = 1; i < n; i++) {
        const ctg_net_object *sub = ctg_network_object_at(net, CTG_IDENTIFIABLE_NETWORK, i);
        size_t owned = 0;

        for (size_t d = 0; d < all; d++)
            owned += ctg_net_object_subnetwork(ctg_network_object_by_doc(net, d)) == sub;
        fputs("  ", stdout);
        cli_put_escaped(stdout, sub->id);
        printf(": %zu objects\n", owned);
    }
}

static int print_summary(const char *path, const ctg_network *net)
{
    size_t subs = ctg_network_count(net, CTG_IDENTIFIABLE_SUBSTATION),
           vls = ctg_network_count(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL);
    tally *t = malloc(((subs > vls ? subs : vls) + 1) * sizeof *t);
    const char *version = ctg_network_iidm_version(net);

    if (t == NULL)
        return fprintf(stderr, "%s: out of memory\n", CLI_NAME), CLI_FAILURE;
    fputs("file: ", stdout);
    cli_put_escaped(stdout, cli_input_name(path));
    fputs("\nnetwork: ", stdout);
    cli_put_escaped(stdout, ctg_network_root(net)->id);
    fputs("\niidm version: ", stdout);
    cli_put_escaped(stdout, version ? version : "none");
    fputs("\n", stdout);
    print_counts(net);
    print_tallies(net, CTG_IDENTIFIABLE_SUBSTATION, t);
    print_tallies(net, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, t);
    print_subnetworks(net);
    free(t);
    return CLI_OK;
}

/* ---- the dump ------------------------------------------------------------------------- */

static int dump(const ctg_network *net, const char *out_path)
{
    ctg_buf buf = CTG_BUF_INIT;
    cli_outfile out;
    ctg_error err;
    int rc = ctg_network_write_json(net, &buf, &err);

    if (rc == CTG_OK)
        rc = cli_outfile_open(&out, out_path, 0, false, &err);
    if (rc == CTG_OK) {
        cli_outfile_write(&out, buf.data, buf.len);
        rc = cli_outfile_commit(&out, &err);
    }
    ctg_buf_dispose(&buf);
    /* stdout's failure said here, not again by cli_flush_stdout */
    return rc == CTG_OK ? CLI_OK : cli_report_output(rc, strcmp(out_path, "-") == 0, &err);
}

int cli_network(const cli_command *cmd, int argc, char **argv)
{
    cli_args args;
    ctg_network *net = NULL;
    int status = cli_parse_args(cmd, argc, argv, network_flags, &args);
    bool dumping;

    if (status != CLI_OK)
        return status;
    if (args.help)
        return cli_help(cmd);
    dumping = (args.flags & FLAG_DUMP) != 0;
    if (args.npos == 0)
        return cli_usage_error(cmd, "no network given", NULL);
    if (args.npos > (dumping ? 2 : 1))
        return cli_usage_error(cmd, dumping ? "too many arguments" : "OUT without --dump",
                               args.npos > 2 ? NULL : args.pos[1]);
    status = cli_read_network(&net, args.pos[0], !args.no_progress);
    if (status == CLI_OK)
        status = dumping ? dump(net, args.npos == 2 ? args.pos[1] : "-")
                         : print_summary(args.pos[0], net);
    ctg_network_free(net);
    return cli_flush_stdout(status);
}
