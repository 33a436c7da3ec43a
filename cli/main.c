/* contingency-cli: validates and converts PowSyBl contingency lists.
 * A subcommand is one row of `commands` and one function in its own cmd_<name>.c. */

#include <string.h>

#include "cli.h"

static const cli_command commands[] = {
    { "validate", "[--quiet] FILE...", "check each list; prints \"FILE: ok\" for each valid one",
      "Reads each FILE (\"-\" is stdin) as a contingency list of any kind. Prints \"FILE: ok\"\n"
      "on stdout for each valid file, and \"source:line:column: error: path: message\" on\n"
      "stderr for each invalid one. Every file is checked, as it streams, in constant memory;\n"
      "a progress bar shows on a terminal for inputs over 50 MB (--quiet hides it).\n",
      cli_validate },
    { "convert", "[--compact] [--break-links] IN OUT",
      "read a list and write it back in PowSyBl's layout",
      "Reads IN and writes it to OUT in PowSyBl's pretty layout (format version 1.1), or\n"
      "without whitespace with --compact. \"-\" is stdin for IN and stdout for OUT. A file\n"
      "OUT (or the file a link OUT leads to) is replaced atomically: on any failure it is left\n"
      "as it was; it keeps its mode and owner. A file with other hard links is refused unless\n"
      "--break-links is given. A device, FIFO, socket or stdout is written as the list comes.\n"
      "Interrupted, convert removes its temporary file .OUT.ctg-tmp-XXXXXX.\n",
      cli_convert },
    { "stats", "[--quiet] FILE", "count contingencies and elements per type",
      "Reads FILE (\"-\" is stdin) as it streams, in constant memory, and prints the number\n"
      "of contingencies, the number of elements of each type, the largest contingency, and\n"
      "the lists of other kinds it holds. A progress bar shows on a terminal for inputs over\n"
      "50 MB; --quiet hides it. Gzip input is read as such.\n",
      cli_stats },
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
    fprintf(out, "\nRun '%s COMMAND --help' for the usage of a command.\n", CLI_NAME);
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
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("%s %s\n", CLI_NAME, ctg_version_string());
        return CLI_OK;
    }
    cmd = find_command(argv[1]);
    if (cmd == NULL) {
        fprintf(stderr, "%s: unknown command '%s'\n", CLI_NAME, argv[1]);
        fprintf(stderr, "Try '%s --help' for the list of commands.\n", CLI_NAME);
        return CLI_FAILURE;
    }
    return cmd->run(cmd, argc - 1, argv + 1);
}
