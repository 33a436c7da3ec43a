/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli stats FILE...: for each file, its lists (name, kind, version) and counts of
 * contingencies and elements per type, streaming; as text, or as one JSON document. */

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"

/* A list of the file, as the read's list_end told it. */
typedef struct list_entry {
    char *name;    /* NULL: none (a bare contingency) */
    char *version; /* NULL: the list has none */
    ctg_list_kind kind;
    size_t depth;
} list_entry;

typedef struct stats {
    cli_progress progress; /* first: the visitor's payload is also the progress bar's */
    size_t contingencies;
    size_t elements;
    size_t per_type[CTG_ELEMENT_TYPE_COUNT];
    size_t lists[CTG_LIST_KIND_COUNT]; /* lists delivered whole, by kind */
    char *largest_id;                  /* the first contingency with the most elements */
    size_t largest_count;
    list_entry *ended; /* every list, in the order they ended (a list after its children) */
    size_t list_count, list_cap;
    size_t *order;     /* indices into `ended` in document order, once the read is done */
    bool oom;
    /* stdin: its bytes kept until the first contingency or list shows it is a contingency
     * list, so that a security-analysis document can be read from them; else NULL */
    cli_input *in;
} stats;

/* The input is a contingency list: what was kept of it is not needed. */
static void seen_list(stats *s)
{
    if (s->in != NULL && s->in->keep)
        cli_input_forget(s->in);
}

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    stats *s = payload;

    (void)h;
    seen_list(s);
    s->contingencies++;
    s->elements += c->element_count;
    for (size_t i = 0; i < c->element_count; i++)
        s->per_type[c->elements[i].type]++;
    if (!s->largest_id || c->element_count > s->largest_count) {
        char *id = strdup(c->id); /* borrowed until we return */
        if (!id) {
            s->oom = true;
            return 1;
        }
        free(s->largest_id);
        s->largest_id = id;
        s->largest_count = c->element_count;
    }
    return 0;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    stats *s = payload;

    (void)list;
    seen_list(s);
    s->lists[h->kind]++;
    return 0;
}

/* A copy of `text` (NULL stays NULL); false when out of memory. */
static bool copy(const char *text, char **out)
{
    *out = text ? strdup(text) : NULL;
    return !text || *out;
}

static int on_list_end(const ctg_stream_header *h, void *payload)
{
    stats *s = payload;
    list_entry *e;

    if (s->list_count == s->list_cap) {
        size_t cap = s->list_cap ? 2 * s->list_cap : 4;
        list_entry *p = realloc(s->ended, cap * sizeof(*p));
        if (!p)
            return s->oom = true, 1;
        s->ended = p;
        s->list_cap = cap;
    }
    e = &s->ended[s->list_count];
    e->kind = h->kind;
    e->depth = h->depth;
    e->version = NULL;
    if (!copy(h->name, &e->name) || !copy(h->version, &e->version)) {
        free(e->name);
        return s->oom = true, 1;
    }
    s->list_count++;
    return 0;
}

/* Puts the lists in document order: a list ends after the lists it holds, so each one that
 * ends takes its place before the pending subtrees one level deeper (its children). */
static bool order_lists(stats *s)
{
    size_t n = s->list_count, len = 0, pending = 0;
    size_t *stack = malloc((n ? n : 1) * sizeof(*stack));

    s->order = malloc((n ? n : 1) * sizeof(*s->order));
    if (!stack || !s->order) {
        free(stack);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        size_t start = len;
        while (pending > 0 && s->ended[s->order[stack[pending - 1]]].depth == s->ended[i].depth + 1)
            start = stack[--pending];
        memmove(&s->order[start + 1], &s->order[start], (len - start) * sizeof(*s->order));
        s->order[start] = i;
        len++;
        stack[pending++] = start;
    }
    free(stack);
    return true;
}

static void stats_dispose(stats *s)
{
    for (size_t i = 0; i < s->list_count; i++) {
        free(s->ended[i].name);
        free(s->ended[i].version);
    }
    free(s->ended);
    free(s->order);
    free(s->largest_id);
}

/* ---- text ------------------------------------------------------------------------------ */

static void print_list_text(const list_entry *e)
{
    printf("%*slist: ", (int)(2 * e->depth), "");
    if (e->kind == CTG_LIST_CONTINGENCY) {
        fputs("none (a bare contingency)\n", stdout);
        return;
    }
    cli_put_escaped(stdout, e->name ? e->name : "");
    printf(" (%s, ", ctg_list_kind_name(e->kind));
    if (e->version) {
        fputs("version ", stdout);
        cli_put_escaped(stdout, e->version);
    } else {
        fputs("no version", stdout);
    }
    fputs(")\n", stdout);
}

static void print_text(const char *path, const stats *s)
{
    fputs("file: ", stdout);
    cli_put_escaped(stdout, path);
    putchar('\n');
    for (size_t i = 0; i < s->list_count; i++)
        print_list_text(&s->ended[s->order[i]]);
    printf("contingencies: %zu\nelements: %zu\n", s->contingencies, s->elements);
    for (int t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++)
        if (s->per_type[t])
            printf("  %s: %zu\n", ctg_element_type_name((ctg_element_type)t), s->per_type[t]);
    if (s->largest_id) {
        fputs("largest: ", stdout); /* an id of the input: escaped */
        cli_put_escaped(stdout, s->largest_id);
        printf(" (%zu element%s)\n", s->largest_count, s->largest_count == 1 ? "" : "s");
    }
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++)
        if (s->lists[k])
            printf("%s lists: %zu\n", ctg_list_kind_name((ctg_list_kind)k), s->lists[k]);
}

/* ---- json ------------------------------------------------------------------------------ */

/* `text` as a JSON string, or null. */
static void json_opt_string(const char *text)
{
    if (text)
        cli_diag_json_string(stdout, text);
    else
        fputs("null", stdout);
}

static void print_lists_json(const stats *s)
{
    fputs(",\"lists\":[", stdout);
    for (size_t i = 0; i < s->list_count; i++) {
        const list_entry *e = &s->ended[s->order[i]];
        fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
        json_opt_string(e->name);
        printf(",\"kind\":\"%s\",\"version\":", ctg_list_kind_name(e->kind));
        json_opt_string(e->version);
        printf(",\"depth\":%zu}", e->depth);
    }
    putchar(']');
}

static void print_json(const char *path, const stats *s)
{
    bool first = true;

    fputs("{\"file\":", stdout);
    cli_diag_json_string(stdout, path);
    print_lists_json(s);
    printf(",\"contingencies\":%zu,\"elements\":%zu,\"elementTypes\":{", s->contingencies,
           s->elements);
    for (int t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++) {
        if (!s->per_type[t])
            continue;
        printf("%s\"%s\":%zu", first ? "" : ",", ctg_element_type_name((ctg_element_type)t),
               s->per_type[t]);
        first = false;
    }
    fputs("},\"largest\":", stdout);
    if (s->largest_id) {
        fputs("{\"id\":", stdout);
        cli_diag_json_string(stdout, s->largest_id);
        printf(",\"elements\":%zu}", s->largest_count);
    } else {
        fputs("null", stdout);
    }
    putchar('}');
}

/* A file that could not be counted: its entry holds the error, as a JSON diagnostic. */
static void print_json_error(const char *path, const ctg_error *err)
{
    cli_diag d = cli_diag_from_error(err);

    fputs("{\"file\":", stdout);
    cli_diag_json_string(stdout, path);
    fputs(",\"error\":", stdout);
    cli_diag_print(stdout, CLI_DIAG_JSON, &d); /* one object and a newline */
    putchar('}');
}

/* ---- one file -------------------------------------------------------------------------- */

/* Reads `path` into `s`; returns the ctg status, `err` filled on failure. */
static int count_file(const char *path, const cli_args *args, stats *s, ctg_error *err)
{
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_contingency,
                      .list = on_list,
                      .progress = cli_progress_update,
                      .payload = s,
                      .list_end = on_list_end };
    ctg_source src = cli_source(path);
    ctg_read_options opts = cli_read_options(path);
    int rc;

    if (s->in != NULL) {
        if ((rc = cli_input_open(s->in, path, NULL, err)) != CTG_OK)
            return rc;
        src = ctg_source_callback(cli_input_read, s->in, 0);
    }
    /* Counting needs no extension value: memory stays flat whatever they hold. */
    opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES;
    cli_progress_init(&s->progress, !args->no_progress,
                      args->npos > 1 ? cli_input_name(path) : NULL);
    rc = ctg_read_stream(&src, &v, &opts, err);
    cli_progress_done(&s->progress);
    if (rc == CTG_OK && !order_lists(s))
        s->oom = true;
    return rc;
}

/* The error of a count that ran out of memory. */
static void nomem(ctg_error *err, const char *name)
{
    memset(err, 0, sizeof(*err));
    err->code = CTG_ENOMEM;
    snprintf(err->source, sizeof(err->source), "%s", name);
    snprintf(err->message, sizeof(err->message), "out of memory");
}

/* The list reader said `path` is no contingency list: counts it as a security-analysis
 * document (stdin from the bytes kept), its entry printed after those of the `*printed`
 * files before. Returns the ctg status, `err` filled on failure. */
static int stats_sa_one(const char *path, stats *s, size_t *printed, cli_diag_format format,
                        ctg_error *err)
{
    const char *sep = *printed == 0 ? "" : format == CLI_DIAG_JSON ? ",\n" : "\n";
    int rc = s->in ? cli_input_finish(s->in, err) : CTG_OK;

    if (rc == CTG_OK)
        rc = cli_stats_sa(path, s->in ? s->in->kept : NULL, s->in ? s->in->kept_len : 0,
                          format, sep, err);
    if (rc == CTG_OK)
        ++*printed;
    return rc;
}

/* Counts one file and prints its entry after those of the `*printed` files before; returns
 * its exit status. As text, a file that fails has no entry (its error is on stderr). */
static int stats_one(const char *path, size_t *printed, const cli_args *args,
                     cli_diag_format format)
{
    const char *name = cli_input_name(path);
    cli_input in;
    stats s;
    ctg_error err;
    int rc, status = CLI_OK;
    bool sa = false;

    memset(&s, 0, sizeof(s));
    s.in = cli_input_once(path) ? &in : NULL;
    rc = count_file(path, args, &s, &err);
    if (rc != CTG_OK && !s.oom && cli_maybe_sa(rc, &err)) {
        sa = true;
        rc = stats_sa_one(path, &s, printed, format, &err);
    }
    if (s.in != NULL)
        cli_input_close(s.in);
    if (s.oom) {
        rc = CTG_ENOMEM;
        nomem(&err, name);
    }
    if (rc != CTG_OK)
        status = cli_report(rc, &err);
    /* JSON: an entry per file, comma-separated; text: a blank line between files. */
    if (*printed > 0 && (format == CLI_DIAG_JSON || rc == CTG_OK) && !(sa && rc == CTG_OK))
        fputs(format == CLI_DIAG_JSON ? ",\n" : "\n", stdout);
    if (format == CLI_DIAG_JSON && rc != CTG_OK)
        print_json_error(name, &err);
    else if (sa)
        ; /* printed by stats_sa_one */
    else if (format == CLI_DIAG_JSON)
        print_json(name, &s);
    else if (rc == CTG_OK)
        print_text(name, &s);
    if ((format == CLI_DIAG_JSON || rc == CTG_OK) && !(sa && rc == CTG_OK))
        ++*printed;
    stats_dispose(&s);
    return status;
}

int cli_stats(const cli_command *cmd, int argc, char **argv)
{
    static const char *const valued[] = { "--format", NULL };
    const char *values[1] = { NULL };
    cli_options opts = { NULL, valued, values };
    cli_diag_format format;
    cli_args args;
    size_t printed = 0;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    if (cli_diag_format_parse(values[0], &format) != 0)
        return cli_usage_error(cmd, "unknown --format (text or json)", values[0]);
    if (args.npos == 0)
        return cli_usage_error(cmd, "no file given", NULL);
    if (format == CLI_DIAG_JSON)
        fputs("{\"files\":[\n", stdout);
    /* Every file is counted; the worst outcome decides the exit status. A closed stdout ends
     * the run: said at the end. */
    for (int i = 0; i < args.npos && !cli_signals_pipe_broken(); i++) {
        int one = stats_one(args.pos[i], &printed, &args, format);
        if (one > status)
            status = one;
    }
    if (format == CLI_DIAG_JSON)
        fputs("\n]}\n", stdout);
    return cli_flush_stdout(status);
}
