/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli generate --elements FILE.csv OUT: a `default` list of one single-element
 * contingency per row of FILE (element_id,element_type[,voltage_level_id]), written as the
 * rows come through the stream writer, in constant memory.
 *
 * --elements is one source of elements; a command line names exactly one source, so that
 * others (a network's equipment) take their place beside it. */

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csvio.h"

enum { FLAG_COMPACT = 1u << 0, FLAG_BREAK_LINKS = 1u << 1 };
static const char *const generate_flags[] = { "--compact", "--break-links", NULL };
enum { OPT_ELEMENTS, OPT_ID_FORMAT, OPT_NAME, OPT_DELIMITER, OPT_COUNT };
static const char *const generate_valued[] = { "--elements", "--id-format", "--name",
                                               "--delimiter", NULL };

#define DEFAULT_ID_FORMAT "N-1_{id}"

/* ---- --id-format ------------------------------------------------------------------------ */

/* The placeholders of --id-format, each replaced by a field of the row. */
enum { PH_ID, PH_TYPE, PH_VL, PH_COUNT };
static const char *const placeholders[PH_COUNT] = { "{id}", "{type}", "{vl}" };

/* The placeholder `s` starts with, or -1 for none. */
static int placeholder_at(const char *s)
{
    for (int i = 0; i < PH_COUNT; i++)
        if (strncmp(s, placeholders[i], strlen(placeholders[i])) == 0)
            return i;
    return -1;
}

/* NULL when `fmt` is well formed, else the text at its first fault. "{{" and "}}" are
 * literal braces; any other brace must open a known placeholder. *has_id: {id} is one. */
static const char *check_id_format(const char *fmt, bool *has_id)
{
    *has_id = false;
    for (const char *s = fmt; *s; s++) {
        int ph;
        if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}')) {
            s++;
            continue;
        }
        if (*s == '}')
            return s;
        if (*s == '{') {
            if ((ph = placeholder_at(s)) < 0)
                return s;
            *has_id |= ph == PH_ID;
            s += strlen(placeholders[ph]) - 1;
        }
    }
    return NULL;
}

typedef struct text {
    char *data;
    size_t len, cap;
} text;

static int put(text *t, const char *s, size_t n)
{
    if (n + 1 > t->cap - t->len) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap - t->len < n + 1)
            cap *= 2;
        char *p = realloc(t->data, cap);
        if (p == NULL)
            return -1;
        t->data = p;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
    return 0;
}

/* The id of the contingency of one element, `fmt` already checked. */
static int format_id(text *t, const char *fmt, const char *const values[PH_COUNT])
{
    t->len = 0;
    if (put(t, "", 0) != 0)
        return -1;
    for (const char *s = fmt; *s; s++) {
        int ph = *s == '{' && s[1] != '{' ? placeholder_at(s) : -1;
        if (ph >= 0) {
            const char *v = values[ph] ? values[ph] : "";
            if (put(t, v, strlen(v)) != 0)
                return -1;
            s += strlen(placeholders[ph]) - 1;
            continue;
        }
        if ((*s == '{' || *s == '}') && s[1] == *s)
            s++;
        if (put(t, s, 1) != 0)
            return -1;
    }
    return 0;
}

/* ---- the rows ----------------------------------------------------------------------------- */

typedef struct gen {
    const char *source;
    const char *id_format;
    ctg_stream_writer *w;
    size_t index; /* contingencies written */
    bool first_row_seen;
    text id;
    int write_rc; /* a failure of the writer, not of the input */
} gen;

static bool is_header(char *const *f, size_t n)
{
    static const char *const names[] = { "element_id", "element_type", "voltage_level_id" };

    if (n < 2 || n > 3)
        return false;
    for (size_t i = 0; i < n; i++)
        if (f[i] == NULL || strcmp(f[i], names[i]) != 0)
            return false;
    return true;
}

static int on_row(void *payload, unsigned line, char *const *f, const size_t *lens, size_t n,
                  ctg_error *err)
{
    gen *g = payload;
    const char *vl = n == 3 ? f[2] : NULL;
    ctg_element_type t;
    int rc;

    if (!g->first_row_seen) {
        g->first_row_seen = true;
        if (is_header(f, n))
            return CTG_OK; /* a header row is optional */
    }
    if (n < 2 || n > 3)
        return cli_fail_at(err, CTG_ESCHEMA, g->source, line, 1, "",
                           "expected 2 or 3 fields (element_id, element_type[, "
                           "voltage_level_id]), found %zu", n);
    cli_row_place at = { g->source, line, g->index, 0 };
    if ((rc = cli_check_element(&at, f[0], f[1], lens[1], vl, &t, err)))
        return rc;
    const char *values[PH_COUNT] = { f[0], ctg_element_type_name(t), vl };
    ctg_element el = { f[0], t, vl && vl[0] ? vl : NULL };
    ctg_contingency c = { NULL, NULL, &el, 1, NULL, 0 };
    if (format_id(&g->id, g->id_format, values) != 0)
        return cli_fail_at(err, CTG_ENOMEM, g->source, 0, 0, "", "out of memory");
    c.id = g->id.data;
    g->index++;
    if ((rc = ctg_stream_writer_add(g->w, &c, err)) != CTG_OK)
        g->write_rc = rc;
    return rc;
}

/* ---- the command -------------------------------------------------------------------------- */

typedef struct request {
    const char *elements, *out, *name, *id_format;
    char delim;
    unsigned flags;
    bool progress; /* a progress bar is allowed */
} request;

static int report_write(const request *r, int rc, ctg_error *err)
{
    if (strcmp(r->out, "-") == 0)
        snprintf(err->source, sizeof err->source, CLI_STDOUT_NAME);
    rc = cli_report(rc, err);
    return cli_signals_pipe_broken() ? CLI_INVALID : rc;
}

static int generate(const request *r)
{
    ctg_write_options wopts = CTG_WRITE_OPTIONS_INIT;
    char *name = r->name ? NULL : cli_name_of_path(r->elements);
    gen g = { cli_input_name(r->elements), r->id_format, NULL, 0, false, { NULL, 0, 0 }, 0 };
    cli_textin in;
    ctg_error err;
    int rc = cli_textin_open(&in, r->elements, r->progress, &err);

    wopts.flags = (r->flags & FLAG_COMPACT ? CTG_WRITE_COMPACT : 0)
                  | (r->flags & FLAG_BREAK_LINKS ? CTG_WRITE_BREAK_LINKS : 0);
    wopts.temp_file = cli_signals_temp_file;
    if (rc != CTG_OK) {
        free(name);
        return cli_report(rc, &err);
    }
    rc = cli_list_writer_open(&g.w, r->out, r->name ? r->name : name, &wopts, &err);
    free(name);
    if (rc != CTG_OK) {
        cli_textin_close(&in);
        return report_write(r, rc, &err);
    }
    rc = cli_csv_read(&in, r->delim, on_row, &g, &err);
    cli_textin_close(&in);
    free(g.id.data);
    if (rc != CTG_OK) {
        ctg_stream_writer_abort(g.w);
        return g.write_rc != CTG_OK ? report_write(r, rc, &err) : cli_report(rc, &err);
    }
    rc = ctg_stream_writer_close(g.w, &err);
    if (rc == CTG_OK && strcmp(r->out, "-") == 0)
        rc = cli_stdout_flushed(&err);
    return rc == CTG_OK ? CLI_OK : report_write(r, rc, &err);
}

static int check_request(const cli_command *cmd, request *r, const char *delimiter)
{
    const char *bad;
    bool has_id;

    if (r->elements == NULL)
        return cli_usage_error(cmd, "no source of elements: --elements FILE.csv or --network NET", NULL);
    if ((bad = check_id_format(r->id_format, &has_id)) != NULL)
        return cli_usage_error(cmd, "--id-format: an unknown placeholder or a lone brace "
                               "(placeholders {id}, {type}, {vl}; {{ and }} for braces) at",
                               bad);
    /* Rows share types and levels, not element ids: without {id} the ids would repeat. */
    if (!has_id)
        return cli_usage_error(cmd, "--id-format needs {id}, or contingencies would share ids",
                               r->id_format);
    if (delimiter != NULL) {
        if (strcmp(delimiter, "tab") == 0)
            delimiter = "\t";
        if (strlen(delimiter) != 1 || *delimiter == '"' || *delimiter == '\n'
            || *delimiter == '\r')
            return cli_usage_error(cmd, "--delimiter takes one character (not a quote or a "
                                   "line break), or \"tab\"", delimiter);
        r->delim = *delimiter;
    }
    if (r->name == NULL && strcmp(r->elements, "-") == 0)
        return cli_usage_error(cmd, "elements from stdin need --name", NULL);
    return CLI_OK;
}

/* Whether the options before "--" ask for the network mode (--network NET or --network=NET). */
static bool wants_network(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--network") == 0 || strncmp(argv[i], "--network=", 10) == 0)
            return true;
    }
    return false;
}

/* generate --help's last lines: where the network mode is described. */
void cli_generate_more_help(FILE *out)
{
    fprintf(out, "\nWith --network NET instead of --elements, generate makes N-1 and N-2 lists from\n"
                 "an IIDM network: '%s generate --network NET --help' gives its options.\n",
            CLI_NAME);
}

int cli_generate(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL };
    cli_options opts = { generate_flags, generate_valued, values };
    request r = { .delim = ',' };
    cli_args args;
    int status;

    if (wants_network(argc, argv)) {
#ifdef CLI_HAVE_NETWORK
        return cli_generate_network(cli_generate_network_command(), argc, argv);
#else
        return cli_usage_error(cmd, "--network needs the network library, which this build "
                                    "left out", NULL);
#endif
    }
    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    if (args.npos != 1)
        return cli_usage_error(cmd, args.npos < 1 ? "missing OUT" : "too many arguments", NULL);
    r.elements = values[OPT_ELEMENTS];
    r.out = args.pos[0];
    r.name = values[OPT_NAME];
    r.id_format = values[OPT_ID_FORMAT] ? values[OPT_ID_FORMAT] : DEFAULT_ID_FORMAT;
    r.flags = args.flags;
    r.progress = !args.no_progress;
    if ((status = check_request(cmd, &r, values[OPT_DELIMITER])) != CLI_OK)
        return status;
    return generate(&r);
}
