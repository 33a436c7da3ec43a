/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli resolve --network NET [--report FILE] LIST OUT: the concrete contingencies
 * of a list of any kind against a network, written as a `default` list.
 *
 * LIST's start is read as convert reads its input. Its first contingency tells whether it is
 * a `default` list with its name first: then LIST is served again from its start (the bytes a
 * pipe kept replayed, a regular file read again) into the streaming resolve, which filters the
 * contingencies one by one into a streaming writer, in constant memory beyond the network. Any
 * other list (another kind, nested lists, the name last) is read whole and resolved whole. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { FLAG_COMPACT = 1u << 0, FLAG_BREAK_LINKS = 1u << 1 };
enum { OPT_NETWORK, OPT_REPORT, OPT_REPORT_FORMAT, OPT_JOBS, OPT_COUNT };

static const char *const resolve_flags[] = { "--compact", "--break-links", NULL };
static const char *const resolve_valued[] = { "--network", "--report", "--report-format",
                                              "--jobs", NULL };

/* ---- the report ----------------------------------------------------------------------- */

typedef struct report {
    cli_outfile out;
    bool open, json;
    bool finished; /* its last bytes written and flushed (report_finish) */
    size_t events;
} report;

static const char *event_kind(ctg_resolve_event_kind kind)
{
    switch (kind) {
    case CTG_RESOLVE_DROPPED:
        return "dropped";
    case CTG_RESOLVE_NOT_FOUND:
        return "not-found";
    default:
        return "ambiguous";
    }
}

/* A JSON string: quotes, backslashes and control characters escaped, the rest as it is (the
 * ids were read as valid UTF-8). */
static void json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

static void json_field(FILE *fp, const char *key, const char *value)
{
    if (value == NULL)
        return;
    fprintf(fp, ", \"%s\": ", key);
    json_string(fp, value);
}

static void write_json_event(report *r, const ctg_resolve_event *e)
{
    FILE *fp = r->out.fp;
    bool dropped = e->kind == CTG_RESOLVE_DROPPED;

    fputs(r->events ? ",\n  {\"kind\": " : "[\n  {\"kind\": ", fp);
    json_string(fp, event_kind(e->kind));
    json_field(fp, "path", e->path);
    json_field(fp, "contingencyId", e->contingency_id);
    json_field(fp, "elementId", e->element_id);
    json_field(fp, "elementType", dropped ? ctg_element_type_name(e->element_type) : NULL);
    json_field(fp, "message", e->message);
    fputc('}', fp);
}

/* PATH: KIND[: CONTINGENCY][: [TYPE ]ELEMENT]: MESSAGE, input text escaped. */
static void write_text_event(report *r, const ctg_resolve_event *e)
{
    FILE *fp = r->out.fp;

    cli_put_escaped(fp, e->path ? e->path : "");
    fprintf(fp, ": %s", event_kind(e->kind));
    if (e->contingency_id) {
        fputs(": ", fp);
        cli_put_escaped(fp, e->contingency_id);
    }
    if (e->element_id) {
        fputs(": ", fp);
        if (e->kind == CTG_RESOLVE_DROPPED)
            fprintf(fp, "%s ", ctg_element_type_name(e->element_type));
        cli_put_escaped(fp, e->element_id);
    }
    fputs(": ", fp);
    cli_put_escaped(fp, e->message ? e->message : "");
    fputc('\n', fp);
}

/* ctg_resolve_options.report: one event, written as it comes. A failed write stops the
 * resolve (the failure is reported at commit). */
static int on_event(const ctg_resolve_event *e, void *payload)
{
    report *r = payload;

    if (r->json)
        write_json_event(r, e);
    else
        write_text_event(r, e);
    r->events++;
    return ferror(r->out.fp) ? 1 : 0;
}

/* The report's last bytes written and flushed, before the list is committed: a report that
 * cannot be written then leaves OUT as it was. On failure the report is done. */
static int report_finish(report *r, ctg_error *err)
{
    int rc;

    if (!r->open || r->finished)
        return CTG_OK;
    r->finished = true;
    if (r->json)
        fputs(r->events ? "\n]\n" : "[]\n", r->out.fp);
    if (ferror(r->out.fp))
        r->out.failed = true;
    if ((rc = cli_outfile_prepare(&r->out, err)) != CTG_OK)
        r->open = false;
    return rc;
}

static int report_commit(report *r, ctg_error *err)
{
    int rc = report_finish(r, err);

    if (rc != CTG_OK || !r->open)
        return rc;
    r->open = false;
    return cli_outfile_commit(&r->out, err);
}

static void report_abort(report *r)
{
    if (r->open)
        cli_outfile_abort(&r->out);
    r->open = false;
}

/* ---- resolving ------------------------------------------------------------------------ */

typedef struct job {
    cli_list_job base; /* first: the visitor's payload */
    const ctg_network *net;
    const char *out; /* "-" is stdout */
    ctg_write_options wopts;
    ctg_resolve_options ropts;
    report rep;
    char *name; /* the streamed list's name, once known */
} job;

static bool to_stdout(const job *j)
{
    return strcmp(j->out, "-") == 0;
}

/* The first contingency tells the list's shape: the peek stops there either way. */
static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    job *j = payload;

    (void)c;
    if (!cli_list_streams(h)) {
        j->base.whole = true;
        return 1;
    }
    j->name = strdup(h->name);
    if (j->name == NULL)
        j->base.whole = true; /* no name to open a writer with: resolved whole then */
    return 1;
}

/* A file with other hard links is refused: say how to replace it anyway, as convert does. */
static void links_hint(int rc, const ctg_error *err)
{
    if (rc == CTG_EINVAL && strncmp(err->message, "cannot replace a file with", 26) == 0)
        fprintf(stderr, "%s resolve: --break-links replaces it anyway\n", CLI_NAME);
}

/* A write failure; a closed pipe is exit 1 (whoever read the output stopped), in one line. */
static int report_write(const job *j, int rc, ctg_error *err)
{
    int status = cli_report_output(rc, to_stdout(j), err);

    links_hint(rc, err);
    return status;
}

/* The end of a resolve: the list and the report are kept together, or neither. */
static int finish_outputs(job *j, ctg_error *err)
{
    int rc = report_commit(&j->rep, err);

    return rc == CTG_OK ? CLI_OK : report_write(j, rc, err);
}

/* The errors of an evaluation are LIST's: ctg_resolve calls its list "<list>" (it knows no
 * file), the stream form the source name it was given, or nothing after some failures. */
static int name_error(const job *j, int rc, ctg_error *err)
{
    if (rc != CTG_OK && (err->source[0] == '\0' || strcmp(err->source, "<list>") == 0))
        snprintf(err->source, sizeof err->source, "%s", j->base.in.name);
    return rc;
}

/* A `default` list, name first: filtered as it streams from the input's start again. */
static int resolve_streamed(job *j)
{
    ctg_source src = ctg_source_callback(cli_input_read, &j->base.in, j->base.in.size);
    ctg_read_options opts = cli_input_options(&j->base.in);
    ctg_stream_writer *w = NULL;
    ctg_error err;
    int rc = cli_list_writer_open(&w, j->out, j->name, &j->wopts, &err);

    if (rc != CTG_OK)
        return report_abort(&j->rep), report_write(j, rc, &err);
    if ((rc = cli_input_restart(&j->base.in, &err)) != CTG_OK) {
        ctg_stream_writer_abort(w);
        report_abort(&j->rep);
        return cli_report(rc, &err);
    }
    memset(&err, 0, sizeof err);
    rc = name_error(j, ctg_resolve_stream(j->net, &src, &opts, w, &j->ropts, &err), &err);
    if (rc == CTG_ESTOPPED && j->rep.open && ferror(j->rep.out.fp))
        rc = cli_io_failure(&err, j->rep.out.name, "cannot write", errno);
    if (rc != CTG_OK) {
        ctg_stream_writer_abort(w); /* a file OUT is left as it was */
        report_abort(&j->rep);
        return rc == CTG_EIO ? report_write(j, rc, &err) : cli_report(rc, &err);
    }
    if ((rc = report_finish(&j->rep, &err)) != CTG_OK) {
        ctg_stream_writer_abort(w);
        return report_write(j, rc, &err);
    }
    rc = ctg_stream_writer_close(w, &err);
    if (rc == CTG_OK && to_stdout(j))
        rc = cli_stdout_flushed(&err);
    if (rc != CTG_OK)
        return report_abort(&j->rep), report_write(j, rc, &err);
    return finish_outputs(j, &err);
}

/* Any other list: read whole (cli_input_finish), resolved, written. */
static int resolve_whole(job *j)
{
    ctg_read_options opts = cli_input_options(&j->base.in);
    ctg_list *list = NULL, *resolved = NULL;
    ctg_error err;
    int rc = cli_input_finish(&j->base.in, &err);

    opts.threads = j->base.threads;
    if (rc == CTG_OK)
        rc = ctg_list_read_buffer(&list, j->base.in.kept, j->base.in.kept_len, &opts, &err);
    if (rc == CTG_OK) {
        memset(&err, 0, sizeof err);
        rc = name_error(j, ctg_resolve(&resolved, j->net, list, &j->ropts, &err), &err);
    }
    ctg_list_free(list);
    if (rc == CTG_ESTOPPED && j->rep.open && ferror(j->rep.out.fp))
        rc = cli_io_failure(&err, j->rep.out.name, "cannot write", errno);
    if (rc != CTG_OK)
        cli_input_place(&j->base.in, &err); /* an evaluation's error knows no line */
    if (rc != CTG_OK)
        return report_abort(&j->rep), cli_report(rc, &err);
    rc = report_finish(&j->rep, &err);
    if (rc == CTG_OK)
        rc = cli_list_write(j->out, resolved, &j->wopts, &err);
    ctg_list_free(resolved);
    if (rc != CTG_OK)
        return report_abort(&j->rep), report_write(j, rc, &err);
    return finish_outputs(j, &err);
}

/* Reads LIST up to its first contingency (or list), then resolves it one way or the other. */
static int resolve_list(job *j)
{
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_contingency,
                      .list = cli_on_nested_list, .payload = j };
    ctg_read_options opts = cli_input_options(&j->base.in);
    ctg_source src = ctg_source_callback(cli_input_read, &j->base.in, j->base.in.size);
    ctg_error err;
    int rc;

    rc = ctg_read_stream(&src, &v, &opts, &err);
    if (rc != CTG_OK && rc != CTG_ESTOPPED)
        return report_abort(&j->rep), cli_report(rc, &err);
    /* A read to the end found no contingency to stream: small, resolved whole. */
    if (rc == CTG_OK || j->base.whole)
        return resolve_whole(j);
    return resolve_streamed(j);
}

static int open_report(job *j, const char *path, const char *format)
{
    ctg_error err;
    int rc;

    if (path == NULL)
        return CLI_OK;
    j->rep.json = format != NULL && strcmp(format, "json") == 0;
    rc =
        cli_outfile_open(&j->rep.out, path, 1, (j->wopts.flags & CTG_WRITE_BREAK_LINKS) != 0, &err);
    if (rc != CTG_OK) {
        int status = cli_report(rc, &err);

        links_hint(rc, &err);
        return status;
    }
    j->rep.open = true;
    j->ropts.report = on_event;
    j->ropts.payload = &j->rep;
    return CLI_OK;
}

static int resolve(const ctg_network *net, const cli_args *args, const char *const *values,
                   unsigned threads)
{
    job j;
    ctg_error err;
    int status;

    memset(&j, 0, sizeof j);
    j.base.threads = threads;
    j.net = net;
    j.out = args->pos[1];
    j.wopts = (ctg_write_options)CTG_WRITE_OPTIONS_INIT;
    j.wopts.flags = (args->flags & FLAG_COMPACT ? CTG_WRITE_COMPACT : 0) |
                    (args->flags & FLAG_BREAK_LINKS ? CTG_WRITE_BREAK_LINKS : 0);
    j.wopts.temp_file = cli_signals_temp_file; /* removed if a signal ends us */
    j.ropts.version = CTG_RESOLVE_OPTIONS_VERSION;
    cli_progress_init(&j.base.progress, !args->no_progress, NULL);
    if (cli_input_open(&j.base.in, args->pos[0], &j.base.progress, &err) != CTG_OK)
        return cli_report(CTG_EIO, &err);
    status = open_report(&j, values[OPT_REPORT], values[OPT_REPORT_FORMAT]);
    if (status == CLI_OK)
        status = resolve_list(&j);
    cli_progress_done(&j.base.progress);
    cli_input_close(&j.base.in);
    free(j.name);
    return status;
}

/* Usage errors of the arguments together; NULL when they fit. */
static const char *check_args(const cli_args *args, const char *const *values, const char **arg)
{
    const char *format = values[OPT_REPORT_FORMAT], *rep = values[OPT_REPORT];

    *arg = NULL;
    if (values[OPT_NETWORK] == NULL)
        return "missing --network NET";
    if (args->npos != 2)
        return args->npos < 2 ? "missing LIST or OUT" : "too many arguments";
    if (format != NULL && strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return *arg = format, "unknown report format (text or json)";
    if (format != NULL && rep == NULL)
        return "--report-format without --report";
    if (strcmp(values[OPT_NETWORK], "-") == 0 && strcmp(args->pos[0], "-") == 0)
        return "NET and LIST cannot both be stdin";
    if (rep != NULL && cli_same_output(rep, args->pos[1]))
        return "the report and OUT cannot be one output";
    if (rep != NULL && (cli_replaces_input(rep, values[OPT_NETWORK]) ||
                        cli_replaces_input(rep, args->pos[0])))
        return "the report would replace an input";
    return NULL;
}

int cli_resolve(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL, NULL, NULL, NULL }, *problem, *arg;
    cli_options opts = { resolve_flags, resolve_valued, values };
    ctg_network *net = NULL;
    unsigned threads;
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    if ((problem = check_args(&args, values, &arg)) != NULL)
        return cli_usage_error(cmd, problem, arg);
    if ((status = cli_parse_jobs(cmd, values[OPT_JOBS], &threads)) != CLI_OK)
        return status;
    status = cli_read_network(&net, values[OPT_NETWORK], !args.no_progress);
    if (status == CLI_OK)
        status = resolve(net, &args, values, threads);
    ctg_network_free(net);
    return cli_flush_stdout(status);
}
