/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli validate FILE...: reads each file and says whether it is a valid list.
 * The read streams, so a file of any size is checked in constant memory. */

#include <string.h>

#include "cli.h"

enum { FLAG_QUIET = 1u << 0 };

static const char *const validate_flags[] = { "--quiet", NULL };

ctg_source cli_source(const char *path)
{
    return strcmp(path, "-") == 0 ? ctg_source_fp(stdin) : ctg_source_path(path);
}

/* Reads one file ("-" is stdin); returns its exit status. */
static int validate_one(const char *path, bool quiet)
{
    ctg_source src = cli_source(path);
    cli_progress progress;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .progress = cli_progress_update,
                      .payload = &progress };
    ctg_error err;
    int rc;

    cli_progress_init(&progress, quiet);
    rc = ctg_read_stream(&src, &v, NULL, &err);
    cli_progress_done(&progress);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    printf("%s: ok\n", path);
    return CLI_OK;
}

int cli_validate(const cli_command *cmd, int argc, char **argv)
{
    cli_args args;
    int status = cli_parse_args(cmd, argc, argv, validate_flags, &args);

    if (status != CLI_OK)
        return status;
    if (args.help) {
        cli_print_usage(cmd, stdout);
        return CLI_OK;
    }
    if (args.npos == 0)
        return cli_usage_error(cmd, "no file given", NULL);
    /* Every file is checked; the worst outcome decides the exit status. */
    for (int i = 0; i < args.npos; i++) {
        int one = validate_one(args.pos[i], args.flags & FLAG_QUIET);
        if (one > status)
            status = one;
    }
    if (fflush(stdout) != 0)
        status = CLI_FAILURE;
    return status;
}
