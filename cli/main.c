/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli: validates and converts PowSyBl contingency lists.
 * A subcommand is one row of `commands` and one function in its own cmd_<name>.c. */

#include <string.h>

#include "cli.h"

#define NO_PROGRESS_OPTION "      --no-progress  no progress bar\n"

static const cli_command commands[] = {
    {
        .name = "validate",
        .args = "[OPTION...] FILE...",
        .summary = "check each list; prints \"FILE: ok\" for each valid one",
        .details = "Reads each FILE (\"-\" is stdin) as a contingency list of any kind. Prints\n"
                   "\"FILE: ok\" on stdout for each valid file, and \"source:line:column: error:\n"
                   "path: message\" on stderr for each invalid one. Every file is checked, as it\n"
                   "streams, in constant memory. On a terminal, a read that lasts over half a\n"
                   "second shows a progress bar on stderr, which names the file when there\n"
                   "are several.\n",
        .options = "  -q, --quiet        nothing for valid files, and no progress bar: the exit\n"
                   "                     status and the errors on stderr tell the outcome\n"
                   NO_PROGRESS_OPTION,
        .run = cli_validate,
    },
    {
        .name = "convert",
        .args = "[OPTION...] IN OUT",
        .summary = "read a list and write it back in PowSyBl's layout",
        .details = "Reads IN once and writes it to OUT in PowSyBl's pretty layout, or without\n"
                   "whitespace with --compact. \"-\" is stdin for IN and stdout for OUT. A file\n"
                   "OUT (or the file a link OUT leads to) is replaced atomically: on any failure\n"
                   "it is left as it was; it keeps its mode and owner. A file with other hard\n"
                   "links is refused unless --break-links is given. A device, FIFO, socket or\n"
                   "stdout is written as the list comes. Interrupted, convert removes its\n"
                   "temporary file .OUT.ctg-tmp-XXXXXX. On a terminal, a read that lasts over\n"
                   "half a second shows a progress bar on stderr.\n",
        .options = "      --compact      no whitespace at all\n"
                   "      --break-links  replace a file that has other hard links (they keep\n"
                   "                     the old content)\n"
                   "  -q, --quiet        nothing but errors: no progress bar\n"
                   NO_PROGRESS_OPTION,
        .more_help = cli_convert_versions,
        .run = cli_convert,
    },
    {
        .name = "stats",
        .args = "[OPTION...] FILE",
        .summary = "count contingencies and elements per type",
        .details = "Reads FILE (\"-\" is stdin) as it streams, in constant memory, and prints the\n"
                   "number of contingencies, the number of elements of each type, the largest\n"
                   "contingency, and the lists of other kinds it holds. Gzip input is read as\n"
                   "such. On a terminal, a read that lasts over half a second shows a progress\n"
                   "bar on stderr.\n",
        .options = "  -q, --quiet        no progress bar (the counts are printed all the same)\n"
                   NO_PROGRESS_OPTION,
        .run = cli_stats,
    },
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void print_help(FILE *out)
{
    fprintf(out, "usage: %s COMMAND [ARGS...]\n", CLI_NAME);
    fprintf(out, "       %s --help | --version\n\n", CLI_NAME);
    fprintf(out, "Reads, checks and writes PowSyBl contingency lists (JSON).\n\ncommands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        int width = (int)(strlen(commands[i].name) + 1 + strlen(commands[i].args));
        fprintf(out, "  %s %s%*s  %s\n", commands[i].name, commands[i].args,
                width < 28 ? 28 - width : 0, "", commands[i].summary);
    }
    fprintf(out, "\nEvery command takes -q/--quiet (errors and results only), --no-progress\n"
                 "and -h/--help. Run '%s COMMAND --help' for the usage of a command.\n",
            CLI_NAME);
    fprintf(out, "Exit status: 0 success, 1 invalid input, 2 usage or I/O error.\n");
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const cli_command *cmd;

    cli_signals_install();
    if (argc < 2) {
        print_help(stderr);
        return CLI_FAILURE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_help(stdout);
        return cli_flush_stdout(CLI_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("%s %s\n", CLI_NAME, ctg_version_string());
        return cli_flush_stdout(CLI_OK);
    }
    cmd = find_command(argv[1]);
    if (cmd == NULL) {
        fprintf(stderr, "%s: unknown command '%s'\n", CLI_NAME, argv[1]);
        fprintf(stderr, "Try '%s --help' for the list of commands.\n", CLI_NAME);
        return CLI_FAILURE;
    }
    return cmd->run(cmd, argc - 1, argv + 1);
}
