/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli convert [OPTION...] IN OUT: reads a list and writes it back, as JSON, CSV or
 * JSON Lines (csvio.h, convert_text.c), at the newest format version or an older one.
 *
 * The input is read once, as it streams. A `default` list with its name first (PowSyBl's
 * layout) is written one contingency at a time, in constant memory, from a file, a pipe or
 * stdin to a file, a device, a pipe or stdout. Until its first contingency shows that it is
 * one, every byte read from a pipe is kept: any other list (another kind, nested lists, the
 * name last) is then read whole from those bytes and the rest of the input, never from the
 * input again, as a pipe cannot be read twice. A regular file keeps nothing: such a list is
 * read again from its start. */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctg/sa.h"

#include "cli.h"
#include "csvio.h"

/* FLAG_NO_PROGRESS is not an option name's bit: it is set from cli_args.no_progress. */
enum {
    FLAG_COMPACT = 1u << 0,
    FLAG_BREAK_LINKS = 1u << 1,
    FLAG_ALLOW_NEWER = 1u << 2,
    FLAG_NO_PROGRESS = 1u << 31
};

static const char *const convert_flags[] = { "--compact", "--break-links", "--allow-newer", NULL };
enum { OPT_FROM, OPT_TO, OPT_DELIMITER, OPT_TO_VERSION, OPT_NAME, OPT_JOBS, OPT_COUNT };
static const char *const convert_valued[] = { "--from", "--to", "--delimiter", "--to-version",
                                              "--name", "--jobs", NULL };

/* What the command line asks for. */
typedef struct settings {
    const char *in, *out;
    cli_format from, to;
    char delim;
    const char *name; /* --name, or NULL */
    unsigned flags;
    const char *to_version; /* or NULL */
    unsigned threads;       /* -j */
} settings;

/* ---- the output ----------------------------------------------------------------------- */

typedef struct job {
    cli_list_job base; /* first: the visitor's payload */
    const cli_command *cmd;
    cli_sink sink;
    int write_rc;
    ctg_error write_err;
} job;

static bool to_stdout(const job *j)
{
    return strcmp(j->sink.out, "-") == 0;
}

/* A write failure. A closed pipe is exit 1 (whoever read the output stopped: `| head`), in
 * one line; a file with other hard links says how to replace it anyway. What OUT's format or
 * version cannot hold names the input's item. */
static int report_write(const job *j, int rc, ctg_error *err)
{
    struct stat st;
    int status;

    if (rc == CTG_ESCHEMA || rc == CTG_EUNSUPPORTED) {
        snprintf(err->source, sizeof err->source, "%s", j->base.in.name);
        cli_input_place(&j->base.in, err); /* a list read whole: the writer knows no line */
        return cli_report(rc, err);
    }
    if (to_stdout(j))
        snprintf(err->source, sizeof err->source, CLI_STDOUT_NAME);
    status = cli_report(rc, err);
    if (cli_signals_pipe_broken())
        return CLI_INVALID;
    if (rc == CTG_EINVAL && !(j->sink.opts.flags & CTG_WRITE_BREAK_LINKS)
        && stat(j->sink.out, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1)
        fprintf(stderr, "%s convert: --break-links replaces it anyway\n", CLI_NAME);
    return status;
}

/* Whether a list of `kind` at `depth` can go to CSV or JSON Lines: a `default` list's (or a
 * bare contingency's) contingencies, at the root. */
static bool fits_text(ctg_list_kind kind, size_t depth)
{
    return depth == 0 && (kind == CTG_LIST_DEFAULT || kind == CTG_LIST_CONTINGENCY);
}

static int unfit(const job *j, size_t depth, size_t index, ctg_list_kind kind, ctg_error *err)
{
    const char *format = j->sink.format == CLI_FORMAT_CSV ? "CSV" : "JSON Lines";

    memset(err, 0, sizeof *err);
    err->code = CTG_ESCHEMA;
    if (depth == 0) {
        snprintf(err->message, sizeof err->message,
                 "%s lists do not fit %s: only a default list's contingencies do",
                 ctg_list_kind_name(kind), format);
        return CTG_ESCHEMA;
    }
    snprintf(err->path, sizeof err->path, "/contingencyLists/%zu", index);
    snprintf(err->message, sizeof err->message,
             "a list of lists does not fit %s (here a nested %s list): only a default list's "
             "contingencies do", format, ctg_list_kind_name(kind));
    return CTG_ESCHEMA;
}

/* Whole lists to CSV or JSON Lines. */
static int whole_to_text(job *j, const ctg_list *list, ctg_error *err)
{
    ctg_list_kind kind = ctg_list_get_kind(list);
    size_t count = ctg_list_contingency_count(list);
    int rc;

    if (!fits_text(kind, 0))
        return unfit(j, 0, 0, kind, err);
    if ((rc = cli_sink_open(&j->sink, ctg_list_name(list), err)) != CTG_OK)
        return rc;
    j->sink.bare = kind == CTG_LIST_CONTINGENCY;
    for (size_t i = 0; rc == CTG_OK && i < count; i++)
        rc = cli_sink_add(&j->sink, ctg_list_contingency_at(list, i), err);
    if (rc == CTG_OK)
        return cli_sink_close(&j->sink, err);
    cli_sink_abort(&j->sink);
    return rc;
}

static ctg_read_options read_options(const job *j, unsigned flags)
{
    ctg_read_options opts = cli_input_options(&j->base.in);

    opts.threads = j->base.threads;
    if (flags & FLAG_ALLOW_NEWER)
        opts.flags |= CTG_READ_ALLOW_NEWER;
    return opts;
}

/* Any list but a streamable one: read whole (cli_input_finish). */
static int convert_whole(job *j, unsigned flags)
{
    ctg_read_options opts = read_options(j, flags);
    ctg_list *list = NULL;
    ctg_error err;
    int rc = cli_input_finish(&j->base.in, &err);

    if (rc == CTG_OK)
        rc = ctg_list_read_buffer(&list, j->base.in.kept, j->base.in.kept_len, &opts, &err);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    if (j->sink.format == CLI_FORMAT_JSON)
        rc = cli_list_write(j->sink.out, list, &j->sink.opts, &err);
    else
        rc = whole_to_text(j, list, &err);
    ctg_list_free(list);
    return rc == CTG_OK ? CLI_OK : report_write(j, rc, &err);
}

/* ---- streaming ------------------------------------------------------------------------ */

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    job *j = payload;
    bool json = j->sink.format == CLI_FORMAT_JSON;

    if (json && !cli_list_streams(h)) {
        j->base.whole = true;
        return 1;
    }
    if (!json && !fits_text(h->kind, h->depth)) {
        j->write_rc = unfit(j, h->depth, h->index, h->kind, &j->write_err);
        return 1;
    }
    if (!j->sink.open) {
        j->write_rc = cli_sink_open(&j->sink, h->name, &j->write_err);
        if (j->write_rc != CTG_OK)
            return 1;
        cli_input_forget(&j->base.in);
    }
    j->sink.bare = h->kind == CTG_LIST_CONTINGENCY;
    j->write_rc = cli_sink_add(&j->sink, c, &j->write_err);
    return j->write_rc != CTG_OK;
}

/* To CSV, which some contingencies do not fit: with where each one sits, for that error. */
static int on_contingency_at(const ctg_stream_header *h, const ctg_contingency *c,
                             const ctg_stream_place *at, void *payload)
{
    job *j = payload;

    j->sink.at_line = at->line;
    j->sink.at_column = at->column;
    return on_contingency(h, c, payload);
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    job *j = payload;

    if (j->sink.format == CLI_FORMAT_JSON)
        return cli_on_nested_list(h, list, payload);
    j->write_rc = unfit(j, h->depth, h->index, h->kind, &j->write_err);
    return 1;
}

/* ---- security-analysis documents (ctg/sa.h) -------------------------------------------- */

/* The option given that only a contingency list takes, or NULL. Known only once IN is read:
 * its kind decides. */
static const char *list_only_option(const job *j, unsigned flags)
{
    if (j->sink.format == CLI_FORMAT_CSV)
        return "--to csv";
    if (j->sink.format == CLI_FORMAT_JSONL)
        return "--to jsonl";
    if (j->sink.opts.format_version != NULL)
        return "--to-version";
    if (flags & FLAG_COMPACT)
        return "--compact";
    if (flags & FLAG_ALLOW_NEWER)
        return "--allow-newer";
    return NULL;
}

/* Writes `doc` to OUT in its kind's layout: gzip for a name ending in ".gz", a file replaced
 * atomically (cli_textout), so that on any failure OUT is left as it was. */
static int write_sa(job *j, const ctg_sa_doc *doc, ctg_error *err)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    cli_textout out;
    int rc = ctg_sa_write_buf(&buf, doc, &opts, err);

    if (rc == CTG_OK)
        rc = cli_textout_open(&out, j->sink.out, j->sink.break_links, err);
    if (rc == CTG_OK) {
        (void)cli_textout_write(&out, buf.data, buf.len); /* a failure is commit's to report */
        rc = cli_textout_commit(&out, err);
    }
    ctg_buf_dispose(&buf);
    return rc;
}

/* "a" or "an" before a kind's name. */
static const char *article(const char *name)
{
    return strchr("aeiou", name[0]) != NULL ? "an" : "a";
}

/* IN is a security-analysis document: read whole (cli_input_finish; stdin too), written back
 * at the current version of its kind. */
static int convert_sa(job *j, unsigned flags)
{
    ctg_read_options opts = cli_input_options(&j->base.in);
    ctg_sa_doc *doc = NULL;
    const char *option, *kind;
    char message[200];
    ctg_error err;
    int rc = cli_input_finish(&j->base.in, &err);

    if (rc == CTG_OK)
        rc = ctg_sa_read_buffer(&doc, CTG_SA_ANY, j->base.in.kept, j->base.in.kept_len, &opts,
                                &err);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    if ((option = list_only_option(j, flags)) != NULL) {
        kind = ctg_sa_kind_name(ctg_sa_doc_kind(doc));
        snprintf(message, sizeof message, "%s applies to contingency lists only; %s is %s %s",
                 option, j->base.in.name, article(kind), kind);
        ctg_sa_doc_free(doc);
        return cli_usage_error(j->cmd, message, NULL);
    }
    rc = write_sa(j, doc, &err);
    ctg_sa_doc_free(doc);
    return rc == CTG_OK ? CLI_OK : report_write(j, rc, &err);
}

/* What the stream read left to do: close the sink, or convert whole, or report. */
static int finish(job *j, int rc, ctg_error *err, unsigned flags)
{
    if (j->write_rc != CTG_OK) {
        cli_sink_abort(&j->sink);
        return report_write(j, j->write_rc, &j->write_err);
    }
    if (j->sink.open && rc != CTG_OK) {
        cli_sink_abort(&j->sink); /* a file OUT is left as it was */
        return cli_report(rc, err);
    }
    if (j->sink.open) {
        rc = cli_sink_close(&j->sink, err);
        return rc == CTG_OK ? CLI_OK : report_write(j, rc, err);
    }
    if (rc == CTG_OK || (rc == CTG_ESTOPPED && j->base.whole))
        return convert_whole(j, flags);
    if (cli_maybe_sa(rc, err))
        return convert_sa(j, flags);
    return cli_report(rc, err);
}

static int convert_json(job *j, const settings *s)
{
    ctg_visitor v = { .version = CTG_VISITOR_VERSION, .contingency = on_contingency,
                      .list = on_list, .progress = cli_progress_update, .payload = j };
    ctg_read_options opts;
    ctg_source src;
    ctg_error err;
    int rc;

    /* Only CSV may refuse a contingency: the other sinks keep the read without places. */
    if (j->sink.format == CLI_FORMAT_CSV)
        v.contingency_at = on_contingency_at;
    if (cli_input_open(&j->base.in, s->in, NULL, &err) != CTG_OK)
        return cli_report(CTG_EIO, &err);
    j->sink.in_name = j->base.in.name;
    opts = read_options(j, s->flags);
    src = ctg_source_callback(cli_input_read, &j->base.in, j->base.in.size);
    cli_progress_init(&j->base.progress, !(s->flags & FLAG_NO_PROGRESS), NULL);
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&j->base.progress);
    rc = finish(j, rc, &err, s->flags);
    cli_input_close(&j->base.in);
    return rc;
}

/* CSV or JSON Lines in: the list's name is --name, or IN's file name. */
static int convert_text(job *j, const settings *s)
{
    char *name = s->name ? NULL : cli_name_of_path(s->in);
    bool progress = !(s->flags & FLAG_NO_PROGRESS);
    ctg_error err;
    int rc;

    j->sink.in_name = cli_input_name(s->in);
    j->base.in.name = j->sink.in_name;
    if (s->from == CLI_FORMAT_CSV)
        rc = cli_convert_csv(s->in, s->delim, progress, &j->sink, s->name ? s->name : name,
                             &err);
    else
        rc = cli_convert_jsonl(s->in, progress, &j->sink, s->name ? s->name : name, &err);
    free(name);
    if (rc == CTG_OK)
        return CLI_OK;
    /* An error in IN carries its place; one without is the output's. */
    if (err.line > 0 || rc == CTG_ESYNTAX || rc == CTG_ESCHEMA || rc == CTG_EUNSUPPORTED
        || rc == CTG_ELIMIT || strcmp(err.source, j->sink.in_name) == 0)
        return cli_report(rc, &err);
    return report_write(j, rc, &err);
}

static int convert(const cli_command *cmd, const settings *s)
{
    job j;

    memset(&j, 0, sizeof j);
    j.base.threads = s->threads;
    j.cmd = cmd;
    j.sink.format = s->to;
    j.sink.out = s->out;
    j.sink.delim = s->delim;
    j.sink.break_links = (s->flags & FLAG_BREAK_LINKS) != 0;
    j.sink.opts = (ctg_write_options)CTG_WRITE_OPTIONS_INIT;
    j.sink.opts.flags = (s->flags & FLAG_COMPACT ? CTG_WRITE_COMPACT : 0)
                        | (s->flags & FLAG_BREAK_LINKS ? CTG_WRITE_BREAK_LINKS : 0);
    j.sink.opts.temp_file = cli_signals_temp_file; /* removed if a signal ends us */
    j.sink.opts.format_version = s->to_version;
    if (s->from == CLI_FORMAT_JSON)
        return convert_json(&j, s);
    return convert_text(&j, s);
}

/* ---- the command line ------------------------------------------------------------------- */

static int parse_format(const cli_command *cmd, const char *value, const char *path,
                        cli_format *out)
{
    if (value == NULL) {
        *out = cli_format_of_path(path);
        return CLI_OK;
    }
    if (cli_format_parse(value, out) != 0)
        return cli_usage_error(cmd, "unknown format (json, csv or jsonl)", value);
    return CLI_OK;
}

static int check_settings(const cli_command *cmd, settings *s, const char *const *v)
{
    static const char *const versions[] = { "1.0", "1.1", "1.2", "1.3", NULL };

    if (parse_format(cmd, v[OPT_FROM], s->in, &s->from) != CLI_OK
        || parse_format(cmd, v[OPT_TO], s->out, &s->to) != CLI_OK)
        return CLI_FAILURE;
    if (v[OPT_DELIMITER] != NULL) {
        const char *d = v[OPT_DELIMITER];
        if (strcmp(d, "tab") == 0)
            d = "\t";
        if (strlen(d) != 1 || *d == '"' || *d == '\n' || *d == '\r')
            return cli_usage_error(cmd, "--delimiter takes one character (not a quote or a "
                                   "line break), or \"tab\"", v[OPT_DELIMITER]);
        s->delim = *d;
        if (s->from != CLI_FORMAT_CSV && s->to != CLI_FORMAT_CSV)
            return cli_usage_error(cmd, "--delimiter applies to CSV only", NULL);
    }
    if (s->to_version != NULL) {
        bool known = false;
        for (int i = 0; versions[i]; i++)
            known = known || strcmp(versions[i], s->to_version) == 0;
        if (!known)
            return cli_usage_error(cmd, "unknown --to-version (1.0, 1.1, 1.2 or 1.3)",
                                   s->to_version);
        if (s->to != CLI_FORMAT_JSON)
            return cli_usage_error(cmd, "--to-version applies to JSON output only", NULL);
    }
    if (s->from == CLI_FORMAT_JSON && s->name != NULL)
        return cli_usage_error(cmd, "--name names a list read from CSV or JSON Lines; a JSON "
                               "list has its own", NULL);
    if (s->from != CLI_FORMAT_JSON && s->name == NULL && strcmp(s->in, "-") == 0)
        return cli_usage_error(cmd, "a CSV or JSON Lines list from stdin needs --name", NULL);
    return CLI_OK;
}

int cli_convert(const cli_command *cmd, int argc, char **argv)
{
    const char *values[OPT_COUNT] = { NULL };
    cli_options opts = { convert_flags, convert_valued, values };
    settings s = { .delim = ',' };
    cli_args args;
    int status;

    if (cli_begin(cmd, argc, argv, &opts, &args, &status))
        return status;
    if (args.npos != 2)
        return cli_usage_error(cmd, args.npos < 2 ? "missing IN or OUT" : "too many arguments",
                               NULL);
    s.in = args.pos[0];
    s.out = args.pos[1];
    s.flags = args.flags | (args.no_progress ? FLAG_NO_PROGRESS : 0);
    s.name = values[OPT_NAME];
    s.to_version = values[OPT_TO_VERSION];
    if ((status = check_settings(cmd, &s, values)) != CLI_OK
        || (status = cli_parse_jobs(cmd, values[OPT_JOBS], &s.threads)) != CLI_OK)
        return status;
    return convert(cmd, &s);
}

void cli_convert_versions(FILE *out)
{
    fputs("\nformat version written, by kind of list (whatever the version of IN):\n", out);
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++) {
        const char *version = ctg_list_kind_version((ctg_list_kind)k);
        fprintf(out, "  %-34s %s\n", ctg_list_kind_name((ctg_list_kind)k),
                version ? version : "none (a bare contingency has no version)");
    }
    /* The library does not export these: they are those of ctg/sa.h's writer. */
    fputs("  action list                        1.3\n"
          "  operator-strategy list             1.2\n"
          "  limit-reduction list               1.2\n"
          "  contingency-context list           none (a root array has no version)\n"
          "  state-monitor list                 none (a root array has no version)\n",
          out);
}
