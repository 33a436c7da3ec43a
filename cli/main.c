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
                   QUIET_OPTIONS,
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
    {
        .name = "filter",
        .args = "[OPTION...] IN OUT",
        .summary = "keep the contingencies the selectors choose",
        .details = "Reads the `default` list IN and writes to OUT the contingencies that every\n"
                   "selector given chooses (they are ANDed; none keeps everything), or with\n"
                   "--invert the others. --type and --element each need some element of the\n"
                   "contingency to match, not necessarily the same one. GLOB is a shell\n"
                   "pattern (fnmatch(3): *, ?, [...]) matched against the whole id. The list\n"
                   "streams, in constant memory; kept contingencies are written as convert\n"
                   "writes them, extensions included, so that a filter keeping everything\n"
                   "gives convert's output. \"-\" is stdin for IN and stdout for OUT; gzip\n"
                   "input is read as such, an OUT ending in .gz is compressed; a file OUT is\n"
                   "replaced atomically, as convert replaces it.\n",
        .options = "      --type TYPE[,TYPE...]\n"
                   "                     has an element of one of these types (BRANCH, LINE...)\n"
                   "      --id GLOB      the contingency's id matches GLOB\n"
                   "      --element GLOB some element's id matches GLOB\n"
                   "      --min-elements N\n"
                   "                     at least N elements\n"
                   "      --max-elements N\n"
                   "                     at most N elements\n"
                   "      --invert       keep the contingencies the selectors do not choose\n"
                   "  -o, --output OUT   OUT, given as an option\n"
                   "      --compact      no whitespace at all\n"
                   "      --break-links  replace a file OUT that has other hard links\n"
                   QUIET_OPTIONS,
        .run = cli_filter,
    },
    {
        .name = "merge",
        .args = "[OPTION...] IN... OUT",
        .summary = "concatenate default lists, refusing duplicate ids",
        .details = "Writes to OUT the contingencies of every IN, in order, as one `default` list\n"
                   "named after the first list of the first IN (or --name). A `list` of `default`\n"
                   "lists is flattened. A contingency id seen twice is an error naming both places\n"
                   "(\"FILE:LINE:COLUMN: error: PATH: ...\", the first one's place in the message),\n"
                   "and OUT is then left as it was, unless --dedupe keeps the first or the last of\n"
                   "them. --dedupe-equivalent also drops a contingency whose element set (ids and\n"
                   "types, in any order, sides aside) equals an earlier kept one's, and says which\n"
                   "on stderr. Memory stays flat: ids are remembered as 64-bit hashes in a\n"
                   "temporary file (8 bytes each, in $TMPDIR), and a hash seen twice is confirmed\n"
                   "by reading the inputs again; stdin is copied to a temporary file first so that\n"
                   "it can be read again. Without --dedupe or --dedupe-equivalent each IN is read\n"
                   "once (twice when a hash repeats); with them, twice (three times when a hash\n"
                   "repeats): once to find the duplicates, once to write. \"-\" is stdin for one IN\n"
                   "and stdout for OUT.\n",
        .options = "      --name NAME    the output list's name\n"
                   "      --dedupe first|last\n"
                   "                     keep the first (or the last) of the contingencies\n"
                   "                     with one id, at its own place\n"
                   "      --dedupe-equivalent\n"
                   "                     drop a contingency with the elements of an earlier one\n"
                   "  -o, --output OUT   OUT, given as an option\n"
                   "      --compact      no whitespace at all\n"
                   "      --break-links  replace a file OUT that has other hard links\n"
                   QUIET_OPTIONS,
        .run = cli_merge,
    },
    {
        .name = "split",
        .args = "[OPTION...] IN (--parts N | --size K) OUTPREFIX",
        .summary = "cut a default list into parts balanced by element count",
        .details = "Writes the contingencies of the `default` list IN, in order, to\n"
                   "OUTPREFIX-0001.json, OUTPREFIX-0002.json... (more digits past 9999), each\n"
                   "a `default` list named as IN. --parts N writes N files whose element counts\n"
                   "differ as little as order allows (some are empty when IN has fewer than N\n"
                   "contingencies); it counts first, reading IN twice (stdin is copied to a\n"
                   "temporary file in $TMPDIR for it). --size K starts a new part when the next\n"
                   "contingency would take the part over K elements (a larger contingency gets\n"
                   "a part of its own); IN is read once. Parts are written in a temporary\n"
                   "directory OUTPREFIX.ctg-split-XXXXXX beside them and moved into place at\n"
                   "the end: on failure none appears (an interrupt may leave that directory).\n"
                   "`merge` of the parts gives back IN as convert writes it.\n",
        .options = "      --parts N      N parts of balanced element counts\n"
                   "      --size K       parts of at most K elements\n"
                   "      --compact      no whitespace at all\n"
                   QUIET_OPTIONS,
        .run = cli_split,
    },
    {
        .name = "diff",
        .args = "[--match-elements] [--format FORMAT] A B",
        .summary = "compare two lists by contingency id",
        .details = "Compares the `default` lists A and B (\"-\" is stdin for one of them; gzip is\n"
                   "read as such) contingency by contingency, matched by id, and prints one\n"
                   "line per difference: in B's order \"added ID\", \"renamed OLD -> NEW\" and\n"
                   "\"changed ID: WHAT\" (name 'x' -> 'y', element TYPE ID replaced by TYPE ID,\n"
                   "element TYPE ID added or removed, element TYPE ID: side VL -> VL,\n"
                   "extension 'NAME' added, removed or changed), then in A's order \"removed\n"
                   "ID\". The order of the elements of a contingency does not count, their\n"
                   "number does. Extensions are compared as JSON values: key order within\n"
                   "objects does not count, numbers are compared as written. A list of\n"
                   "another kind, or an id twice in one list, is an error. Memory holds about\n"
                   "50 bytes plus the id per contingency of A, and a copy of each contingency\n"
                   "of B that differs; A is read twice when it is a regular file (else B, or\n"
                   "A is kept whole). Exit status, as diff(1): 0 when the lists are equal,\n"
                   "1 when they differ, 2 on any error, an invalid list included.\n",
        .options = "      --match-elements\n"
                   "                     an id only in A and one only in B with the same\n"
                   "                     elements are \"renamed\", not removed and added\n"
                   "      --format FORMAT\n"
                   "                     text (the default), or json: one object per line with\n"
                   "                     change (added, removed, renamed, changed), id, from,\n"
                   "                     a and b (positions from 0); a change also has what\n"
                   "                     (name, element, side, extension), name, from, to;\n"
                   "                     errors are then JSON diagnostics on stdout\n"
                   "  -q, --quiet        print nothing: the exit status tells\n"
                   NO_PROGRESS_OPTION,
        .run = cli_diff,
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
