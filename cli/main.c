/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli: validates and converts PowSyBl contingency lists.
 * A subcommand is one row of `commands` and one function in its own cmd_<name>.c. */

#include <string.h>

#include "cli.h"

#define NO_PROGRESS_OPTION "      --no-progress  no progress bar\n"
/* The common options of the commands that print nothing but errors. */
#define QUIET_OPTIONS                                                                              \
    "  -q, --quiet        nothing but errors: no progress bar\n" NO_PROGRESS_OPTION

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
        .summary = "read a list and write it back, as JSON, CSV or JSON Lines",
        .details = "Reads IN once and writes it to OUT in PowSyBl's pretty layout, or without\n"
                   "whitespace with --compact. \"-\" is stdin for IN and stdout for OUT. A file\n"
                   "OUT (or the file a link OUT leads to) is replaced atomically: on any failure\n"
                   "it is left as it was; it keeps its mode and owner. A file with other hard\n"
                   "links is refused unless --break-links is given. A device, FIFO, socket or\n"
                   "stdout is written as the list comes. Interrupted, convert removes its\n"
                   "temporary file .OUT.ctg-tmp-XXXXXX. On a terminal, a read that lasts over\n"
                   "half a second shows a progress bar on stderr.\n"
                   "\n"
                   "Formats, told by the extension (after it, .gz is gzip) or by --from/--to:\n"
                   "json (the default), csv (.csv) and jsonl (.jsonl, .ndjson). CSV has a row\n"
                   "per element, under the required header\n"
                   "  contingency_id,contingency_name,element_id,element_type,voltage_level_id\n"
                   "quoted as RFC 4180 says; an empty unquoted name is no name, \"\" an empty\n"
                   "one. Rows are grouped by contingency_id in order of first appearance, even\n"
                   "apart (a CSV IN is held in memory). JSON Lines has one contingency per line,\n"
                   "the object as --compact writes it. Both hold only a default list's\n"
                   "contingencies: another kind, extensions (CSV) or a contingency without\n"
                   "elements (CSV) is an error naming it, never dropped. A list read from CSV\n"
                   "or JSON Lines is named by --name, else after IN's file name without its\n"
                   "extensions. A bad row is \"IN:line:1: error: path: message\".\n"
                   "--to-version writes an older format version for older PowSyBl readers:\n"
                   "default, list and criterion lists 1.0 or 1.1, identifier lists 1.1 to 1.3;\n"
                   "what that version cannot express is an error naming its first item.\n",
        .options = "      --compact      no whitespace at all\n"
                   "      --break-links  replace a file that has other hard links (they keep\n"
                   "                     the old content)\n"
                   "      --from FORMAT  IN's format: json, csv or jsonl\n"
                   "      --to FORMAT    OUT's format: json, csv or jsonl\n"
                   "      --delimiter C  the CSV field separator (default ,; \"tab\" for a tab)\n"
                   "      --name NAME    the name of a list read from CSV or JSON Lines\n"
                   "      --to-version V\n"
                   "                     write JSON at format version V (e.g. 1.0)\n"
                   "      --allow-newer  read a format version newer than this program's\n"
                   QUIET_OPTIONS,
        .more_help = cli_convert_versions,
        .run = cli_convert,
    },
    {
        .name = "generate",
        .args = "[OPTION...] --elements FILE.csv OUT",
        .summary = "make an N-1 list, one contingency per element",
        .details = "Writes to OUT (\"-\" is stdout; .gz compresses; replaced atomically as\n"
                   "convert replaces it) a default list with one single-element contingency per\n"
                   "row of the CSV FILE (\"-\" is stdin; gzip is read as such), rows\n"
                   "  element_id,element_type[,voltage_level_id]\n"
                   "with or without a header row (one reading exactly element_id,element_type\n"
                   "[,voltage_level_id] is skipped), as they come, in constant memory. The list\n"
                   "is named by --name, else after FILE without its extensions. A contingency's\n"
                   "id is --id-format with {id}, {type} and {vl} replaced by the row's element\n"
                   "id, type and voltage level ({{ and }} are braces): N-1_{id} by default.\n"
                   "Ids are not checked for duplicates (lint finds them). A bad row is\n"
                   "\"FILE:line:1: error: path: message\", exit status 1. On a terminal, a\n"
                   "read that lasts over half a second shows a progress bar on stderr.\n",
        .options = "      --elements FILE\n"
                   "                     the CSV of elements (required)\n"
                   "      --id-format FMT\n"
                   "                     the contingency ids (default N-1_{id})\n"
                   "      --name NAME    the list's name\n"
                   "      --delimiter C  the CSV field separator (default ,; \"tab\" for a tab)\n"
                   "      --compact      no whitespace at all\n"
                   "      --break-links  replace a file that has other hard links\n"
                   QUIET_OPTIONS,
        .run = cli_generate,
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
#ifdef CLI_HAVE_NETWORK
    {
        .name = "resolve",
        .args = "[OPTION...] --network NET LIST OUT",
        .summary = "resolve a list against a network",
        .details = "Reads the IIDM network NET (XIIDM or JIIDM, told by its content) and the\n"
                   "contingency list LIST of any kind, and writes to OUT the contingencies\n"
                   "PowSyBl would run, as a `default` list: a default list's contingencies\n"
                   "whose elements all exist, criterion lists one per matching equipment,\n"
                   "identifier lists identifier by identifier. \"-\" is stdin for NET or LIST\n"
                   "and stdout for OUT; gzip input is read as such, an OUT ending in .gz is\n"
                   "compressed. OUT is replaced atomically as convert replaces it: on any\n"
                   "failure a file OUT is left as it was. A default list with its name first\n"
                   "streams, in constant memory beyond the network. --report FILE writes what\n"
                   "was left out and why, one line per event:\n"
                   "  PATH: dropped: CONTINGENCY: TYPE ELEMENT: MESSAGE\n"
                   "  PATH: not-found: ID: MESSAGE\n"
                   "  PATH: ambiguous: MESSAGE\n"
                   "(PATH is the JSON Pointer of the list item), or with --report-format json a\n"
                   "JSON array of events {kind, path, contingencyId, elementId, elementType,\n"
                   "message}. An invalid network or list, or an evaluation that fails, is\n"
                   "\"source:line:column: error: path: message\" on stderr, exit status 1; a\n"
                   "file OUT and the report are then left as they were (stdout may have got\n"
                   "part of a streamed list). On a terminal, reads that last over half a\n"
                   "second show a progress bar on stderr.\n",
        .options = "      --network NET  the network (required)\n"
                   "      --report FILE  what was left out and why (\"-\": stdout)\n"
                   "      --report-format FORMAT\n"
                   "                     text (the default) or json\n"
                   "      --compact      no whitespace at all in OUT\n"
                   "      --break-links  replace an OUT or a report that has other hard links\n"
                   QUIET_OPTIONS,
        .run = cli_resolve,
    },
    {
        .name = "network",
        .args = "[OPTION...] NET [OUT]",
        .summary = "summarise an IIDM network",
        .details = "Reads the IIDM network NET (XIIDM or JIIDM, told by its content; \"-\" is\n"
                   "stdin; gzip is read as such) and prints its IIDM version, the number of\n"
                   "objects of each type (PowSyBl's type names), the substations per country,\n"
                   "the voltage levels per nominal voltage (in kV, ascending) and the\n"
                   "subnetworks. With --dump, writes the whole equipment table as JSON to OUT\n"
                   "(replaced atomically) or, without OUT or with \"-\", to stdout: the schema\n"
                   "of PowSyBl's reference tables (ok, network, counts, objects per type in\n"
                   "enumeration order with their placement, buses, identifiables, aliasToId).\n"
                   "An invalid network is \"source:line:column: error: path: message\" on\n"
                   "stderr, exit status 1. On a terminal, a read that lasts over half a\n"
                   "second shows a progress bar on stderr.\n",
        .options = "      --dump         the whole table as JSON, to OUT or stdout\n"
                   "  -q, --quiet        no progress bar (the summary is printed all the same)\n"
                   NO_PROGRESS_OPTION,
        .run = cli_network,
    },
#endif
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void print_help(FILE *out)
{
    fprintf(out, "usage: %s COMMAND [ARGS...]\n", CLI_NAME);
    fprintf(out, "       %s --help | --version\n\n", CLI_NAME);
    fprintf(out, "Reads, checks and writes PowSyBl contingency lists (JSON), and resolves them\n"
                 "against IIDM networks.\n\ncommands:\n");
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
