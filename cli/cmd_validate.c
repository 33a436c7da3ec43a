/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli validate FILE...: reads each file and says whether it is a valid list.
 * The read streams, so a file of any size is checked in constant memory. */

#include <string.h>

#include "cli.h"

/* Reads one file ("-" is stdin); returns its exit status. With several files the progress
 * bar names the one it is reading. */
static int validate_one(const char *path, const cli_args *args)
{
    ctg_source src = cli_source(path);
    ctg_read_options opts = cli_read_options(path);
    cli_progress progress;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .progress = cli_progress_update,
                      .payload = &progress };
    ctg_error err;
    int rc;

    /* Extension values are checked, not kept: constant memory whatever they hold. */
    opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES;
    cli_progress_init(&progress, !args->no_progress, args->npos > 1 ? cli_input_name(path) : NULL);
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&progress);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    if (!args->quiet) {
        cli_put_escaped(stdout, cli_input_name(path));
        fputs(": ok\n", stdout);
    }
    return CLI_OK;
}

/* validate's flags: --strict runs lint's checks (cmd_lint.c) instead, and prints its findings. */
static const char *const validate_flags[] = { "--strict", NULL };
#define VALIDATE_STRICT 1u

static int validate_strict(const char *path, const cli_args *args)
{
    cli_lint_config cfg = { CLI_DIAG_TEXT, false, !args->no_progress, args->npos > 1 };
    int rc = cli_lint_file(path, &cfg);

    if (rc == CLI_OK && !args->quiet) {
        cli_put_escaped(stdout, cli_input_name(path));
        fputs(": ok\n", stdout);
    }
    return rc;
}

int cli_validate(const cli_command *cmd, int argc, char **argv)
{
    cli_args args;
    int status = cli_parse_args(cmd, argc, argv, validate_flags, &args);

    if (status != CLI_OK)
        return status;
    if (args.help)
        return cli_help(cmd);
    if (args.npos == 0)
        return cli_usage_error(cmd, "no file given", NULL);
    /* Every file is checked; the worst outcome decides the exit status. */
    for (int i = 0; i < args.npos; i++) {
        int one = args.flags & VALIDATE_STRICT ? validate_strict(args.pos[i], &args)
                                               : validate_one(args.pos[i], &args);
        if (one > status)
            status = one;
    }
    return cli_flush_stdout(status);
}
