/* SPDX-License-Identifier: MPL-2.0 */
/* Option parsing and error reporting shared by the subcommands. */

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

int cli_parse_args(const cli_command *cmd, int argc, char **argv, const char *const *flag_names,
                   cli_args *out)
{
    bool options_done = false;

    out->pos = argv + 1;
    out->npos = 0;
    out->flags = 0;
    out->help = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int flag;

        /* "-" names stdin or stdout, so it is a positional like any file name. */
        if (options_done || arg[0] != '-' || arg[1] == '\0') {
            out->pos[out->npos++] = argv[i];
        } else if (strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            out->help = true;
        } else if ((flag = flag_index(flag_names, arg)) >= 0) {
            out->flags |= 1u << flag;
        } else {
            return cli_usage_error(cmd, "unknown option", arg);
        }
    }
    return CLI_OK;
}

void cli_print_usage(const cli_command *cmd, FILE *out)
{
    fprintf(out, "usage: %s %s %s\n", CLI_NAME, cmd->name, cmd->args);
    if (cmd->details != NULL)
        fprintf(out, "\n%s", cmd->details);
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
    switch (rc) {
    case CTG_ESYNTAX:
    case CTG_ESCHEMA:
    case CTG_EUNSUPPORTED:
    case CTG_ELIMIT:
        return CLI_INVALID;
    default:
        /* CTG_EIO, CTG_ENOMEM, CTG_EINVAL: the input may be fine; we could not judge it. */
        return CLI_FAILURE;
    }
}
