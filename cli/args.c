/* SPDX-License-Identifier: MPL-2.0 */
/* Option parsing, names, error reporting and stdout's last check, shared by the subcommands. */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int flag_index(const char *const *flag_names, const char *arg)
{
    for (int i = 0; flag_names != NULL && flag_names[i] != NULL; i++) {
        if (strcmp(flag_names[i], arg) == 0)
            return i;
    }
    return -1;
}

/* The value of option `name` at argv[*i]: "--name=VALUE", or the next argument. */
static int option_value(const cli_command *cmd, int argc, char **argv, int *i, size_t name_len,
                        const char **value)
{
    const char *arg = argv[*i];

    if (arg[name_len] == '=') {
        *value = arg + name_len + 1;
        return CLI_OK;
    }
    if (*i + 1 >= argc)
        return cli_usage_error(cmd, "missing value of option", arg);
    *value = argv[++*i];
    return CLI_OK;
}

/* The index of the valued option `arg` ("--name" or "--name=VALUE") in `names`, or -1.
 * "-o" is "--output" and "-j" is "--jobs", when the command has them. */
static int value_index(const char *const *names, const char *arg, size_t *name_len)
{
    if (strcmp(arg, "-o") == 0 || strcmp(arg, "-j") == 0) {
        int i = value_index(names, arg[1] == 'o' ? "--output" : "--jobs", name_len);

        *name_len = 2;
        return i;
    }
    for (int i = 0; names != NULL && names[i] != NULL; i++) {
        size_t n = strlen(names[i]);

        if (strncmp(names[i], arg, n) == 0 && (arg[n] == '\0' || arg[n] == '=')) {
            *name_len = n;
            return i;
        }
    }
    return -1;
}

/* The value of valued option `k`, named by the first `name_len` bytes of argv[*i]. Each such
 * option takes one value: a second one is a usage error naming it as given, for keeping the
 * last silently would run with a setting the user may not have meant (--parts 2 --parts 3). */
static int take_value(const cli_command *cmd, int argc, char **argv, int *i, size_t name_len,
                      const cli_options *opts, int k, uint64_t *seen)
{
    char name[64];

    if (k < 64 && (*seen >> k & 1u)) {
        snprintf(name, sizeof name, "%.*s", (int)name_len, argv[*i]);
        return cli_usage_error(cmd, "option given twice", name);
    }
    if (k < 64)
        *seen |= (uint64_t)1 << k;
    return option_value(cmd, argc, argv, i, name_len, &opts->values[k]);
}

/* The options every command takes; false when `arg` is none of them. */
static bool common_option(const char *arg, cli_args *out)
{
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
        out->help = true;
    else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0)
        out->quiet = out->no_progress = true;
    else if (strcmp(arg, "--no-progress") == 0)
        out->no_progress = true;
    else
        return false;
    return true;
}

int cli_parse_options(const cli_command *cmd, int argc, char **argv, const cli_options *opts,
                      cli_args *out)
{
    bool options_done = false;
    uint64_t seen = 0; /* bit k: valued[k] was given */

    memset(out, 0, sizeof *out);
    out->pos = argv + 1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        size_t name_len = 0;
        int flag, status;

        /* "-" names stdin or stdout, so it is a positional like any file name. */
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            out->pos[out->npos++] = argv[i];
        } else if (strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (common_option(arg, out)) {
            continue;
        } else if ((flag = flag_index(opts ? opts->flags : NULL, arg)) >= 0) {
            out->flags |= 1u << flag;
        } else if ((flag = value_index(opts ? opts->valued : NULL, arg, &name_len)) >= 0) {
            status = take_value(cmd, argc, argv, &i, name_len, opts, flag, &seen);
            if (status != CLI_OK)
                return status;
        } else {
            return cli_usage_error(cmd, "unknown option", arg);
        }
    }
    return CLI_OK;
}

int cli_parse_args(const cli_command *cmd, int argc, char **argv, const char *const *flag_names,
                   cli_args *out)
{
    cli_options opts = { flag_names, NULL, NULL };

    return cli_parse_options(cmd, argc, argv, &opts, out);
}

bool cli_begin(const cli_command *cmd, int argc, char **argv, const cli_options *opts,
               cli_args *out, int *status)
{
    *status = cli_parse_options(cmd, argc, argv, opts, out);
    if (*status != CLI_OK)
        return true;
    if (out->help) {
        *status = cli_help(cmd);
        return true;
    }
    return false;
}

void cli_print_usage(const cli_command *cmd, FILE *out)
{
    fprintf(out, "usage: %s %s %s\n", CLI_NAME, cmd->name, cmd->args);
    if (cmd->details != NULL)
        fprintf(out, "\n%s", cmd->details);
    fprintf(out, "\noptions:\n%s", cmd->options ? cmd->options : "");
    fputs("  -h, --help         print this help\n", out);
    if (cmd->more_help != NULL)
        cmd->more_help(out);
}

int cli_help(const cli_command *cmd)
{
    cli_print_usage(cmd, stdout);
    return cli_flush_stdout(CLI_OK);
}

int cli_usage_error(const cli_command *cmd, const char *message, const char *arg)
{
    fprintf(stderr, "%s %s: %s%s%s\n", CLI_NAME, cmd->name, message, arg ? ": " : "",
            arg ? arg : "");
    fprintf(stderr, "usage: %s %s %s\n", CLI_NAME, cmd->name, cmd->args);
    fprintf(stderr, "Try '%s %s --help' for more information.\n", CLI_NAME, cmd->name);
    return CLI_FAILURE;
}

int cli_report(int rc, const ctg_error *err)
{
    char text[CTG_ERROR_SOURCE_MAX + CTG_ERROR_PATH_MAX + CTG_ERROR_MESSAGE_MAX + 64];

    ctg_error_format(err, text, sizeof text);
    fprintf(stderr, "%s\n", text);
    return cli_status_of(rc);
}

ctg_source cli_source(const char *path)
{
    return strcmp(path, "-") == 0 ? ctg_source_fp(stdin) : ctg_source_path(path);
}

int cli_parse_jobs(const cli_command *cmd, const char *value, unsigned *out)
{
    char *end;
    long n;

    *out = 1;
    if (value == NULL)
        return CLI_OK;
    n = strtol(value, &end, 10);
    if (end == value || *end != '\0' || n < 1 || n > CLI_MAX_JOBS)
        return cli_usage_error(cmd, "-j needs a number of threads from 1 to 64", value);
    *out = (unsigned)n;
    return CLI_OK;
}

ctg_read_options cli_read_options(const char *path)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;

    opts.source_name = cli_input_name(path); /* also when its bytes are read from a copy */
    return opts;
}

const char *cli_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? CLI_STDIN_NAME : path;
}

const char *cli_output_name(const char *path)
{
    return strcmp(path, "-") == 0 ? CLI_STDOUT_NAME : path;
}

int cli_io_failure(ctg_error *err, const char *source, const char *what, int errnum)
{
    memset(err, 0, sizeof *err);
    err->code = CTG_EIO;
    snprintf(err->source, sizeof err->source, "%s", source);
    if (errnum != 0)
        snprintf(err->message, sizeof err->message, "%s: %s", what, strerror(errnum));
    else
        snprintf(err->message, sizeof err->message, "%s", what);
    return CTG_EIO;
}

int cli_flush_stdout(int status)
{
    ctg_error err;
    int e, reported;

    /* ferror too: an earlier automatic flush may have failed and left nothing to flush now,
     * nor its errno; a closed pipe is then what it met. */
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    e = cli_signals_pipe_broken() ? EPIPE : errno;
    reported = cli_report(cli_io_failure(&err, CLI_STDOUT_NAME, "cannot write", e), &err);
    /* A closed pipe is 1 (its reader stopped), unless the run had worse already. */
    if (cli_signals_pipe_broken())
        return status > CLI_INVALID ? status : CLI_INVALID;
    return reported;
}

void cli_stdout_drop(void)
{
    if (freopen("/dev/null", "w", stdout) == NULL)
        clearerr(stdout);
}

int cli_report_output(int rc, bool to_stdout, ctg_error *err)
{
    int status;

    /* The writer names a FILE "<stream>"; a failure of another output keeps its name. */
    if (rc == CTG_EIO && to_stdout &&
        (err->source[0] == '\0' || strcmp(err->source, "<stream>") == 0))
        snprintf(err->source, sizeof err->source, CLI_STDOUT_NAME);
    status = cli_report(rc, err);
    if (strcmp(err->source, CLI_STDOUT_NAME) == 0) /* said: not again by cli_flush_stdout */
        cli_stdout_drop();
    return cli_signals_pipe_broken() ? CLI_INVALID : status;
}

int cli_put_escaped(FILE *out, const char *text)
{
    size_t len = strlen(text), need = ctg_escape_text(NULL, 0, text, len);
    char small[256], *buf = need < sizeof small ? small : malloc(need + 1);
    int rc;

    if (buf == NULL)
        return fputs("<out of memory>", out);
    ctg_escape_text(buf, need + 1, text, len);
    rc = fputs(buf, out);
    if (buf != small)
        free(buf);
    return rc;
}
