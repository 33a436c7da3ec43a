/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli: validates and converts PowSyBl contingency lists.
 * A subcommand is one row of `commands` and one function in its own cmd_<name>.c. */

#include <string.h>

#include "cli.h"

#define NO_PROGRESS_OPTION "      --no-progress  no progress bar\n"
/* The common options of the commands that print nothing but errors. */
#define QUIET_OPTIONS                                                                              \
    "  -q, --quiet        nothing but errors: no progress bar\n" NO_PROGRESS_OPTION

/* -j, for the commands that may read a list whole (one that does not stream). */
#define JOBS_OPTION                                                                                \
    "  -j, --jobs N       threads for a list read whole (1 to 64; default 1): a large\n"         \
    "                     `default` list in PowSyBl's layout is read in N parts at once\n"

static const cli_command commands[] = {
    {
        .name = "validate",
        .args = "[--lenient] [--max-errors N] [--format text|json] [OPTION...] FILE...",
        .summary = "check each list; prints \"FILE: ok\" for each valid one",
        .details = "Reads each FILE (\"-\" is stdin) as a contingency list of any kind. Prints\n"
                   "\"FILE: ok\" on stdout for each valid file, and \"source:line:column: error:\n"
                   "path: message\" on stderr for each error. Every file is checked, as it\n"
                   "streams, in constant memory. A read stops at a file's first error, unless\n"
                   "--lenient: a contingency of a `default` list that breaks a rule inside\n"
                   "well-formed JSON (unknown field or type, missing id, duplicate key, bad\n"
                   "version rule) is reported and skipped, and the read goes on. Broken JSON\n"
                   "syntax, and errors outside a contingency (the list's own fields, identifier\n"
                   "and criterion lists) still stop the read of that file. Exit status 1 if\n"
                   "any error. On a terminal, a read that lasts over half a second shows a\n"
                   "progress bar on stderr, which names the file when there are several.\n"
                   "A security-analysis document is checked as what it is (\"FILE: ok (KIND)\"),\n"
                   "stdin's too, whose bytes are kept until it shows a contingency; it is read\n"
                   "strictly, --lenient or not: it has no contingencies to skip.\n",
        .options = "      --lenient      report every error a file has where its structure\n"
                   "                     allows going on, skipping the bad contingencies\n"
                   "      --max-errors N\n"
                   "                     stop after N errors over all the files (0: no\n"
                   "                     limit); implies --lenient\n"
                   "      --format FORMAT\n"
                   "                     text (the default) or json: one JSON object per\n"
                   "                     error on stdout (file, line, column, path, code,\n"
                   "                     severity, message), and no \"FILE: ok\" lines\n"
                   "      --strict       also lint's checks (see lint --help): a finding is a\n"
                   "                     warning on stdout, and the file is not ok (exit 1);\n"
                   "                     not with --lenient or --max-errors\n"
                   "  -q, --quiet        nothing for valid files, and no progress bar: the exit\n"
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
                   "apart. A CSV IN is read twice (stdin or a pipe copied to TMPDIR first): in\n"
                   "constant memory when each contingency's rows are together, else grouped in\n"
                   "memory (refused past 16 MB). JSON Lines has one contingency per line,\n"
                   "the object as --compact writes it. Both hold only a default list's\n"
                   "contingencies: another kind, extensions (CSV) or a contingency without\n"
                   "elements (CSV) is an error naming it, never dropped. A list read from CSV\n"
                   "or JSON Lines is named by --name, else after IN's file name without its\n"
                   "extensions. A bad row is \"IN:line:1: error: path: message\"; a field\n"
                   "or a line past 64 MiB, or a NUL byte, is refused where it is met.\n"
                   "--to-version writes an older format version for older PowSyBl readers:\n"
                   "default, list and criterion lists 1.0 or 1.1, identifier lists 1.1 to 1.3;\n"
                   "what that version cannot express is an error naming its first item.\n"
                   "\n"
                   "A security-analysis document (action list, operator-strategy list,\n"
                   "limit-reduction list, contingency-context list, state-monitor list) is\n"
                   "read whole and written back in PowSyBl's current layout of its kind, an\n"
                   "older version upgraded (an action list 1.0 as 1.3, a strategy list 1.0 as\n"
                   "1.2), OUT replaced atomically and .gz compressed as for lists. --to csv or\n"
                   "jsonl (an OUT.csv, OUT.jsonl), --to-version, --compact and --allow-newer\n"
                   "apply to contingency lists only: a usage error for these (exit status 2).\n",
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
                   JOBS_OPTION
                   QUIET_OPTIONS,
        .more_help = cli_convert_versions,
        .run = cli_convert,
    },
    {
        .name = "generate",
        .args = "[OPTION...] (--elements FILE.csv | --network NET) OUT",
        .summary = "make an N-1 list, one contingency per element",
        .details = "Writes to OUT (\"-\" is stdout; .gz compresses; replaced atomically as\n"
                   "convert replaces it) a default list with one single-element contingency per\n"
                   "row of the CSV FILE (\"-\" is stdin; gzip is read as such), rows\n"
                   "  element_id,element_type[,voltage_level_id]\n"
                   "with or without a header row (one reading exactly element_id,element_type\n"
                   "[,voltage_level_id] is skipped), as they come, in constant memory. The list\n"
                   "is named by --name, else after FILE without its extensions. A contingency's\n"
                   "id is --id-format with {id}, {type} and {vl} replaced by the row's element\n"
                   "id, type and voltage level ({{ and }} are braces): N-1_{id} by default;\n"
                   "a format without {id} is refused, as its ids would repeat.\n"
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
        .more_help = cli_generate_more_help,
        .run = cli_generate,
    },
    {
        .name = "stats",
        .args = "[--format text|json] [OPTION...] FILE...",
        .summary = "name, kind and version of each list; contingencies and elements per type",
        .details = "Reads each FILE (\"-\" is stdin) as it streams, in constant memory, and\n"
                   "prints its lists in document order (name, kind and version; a nested list\n"
                   "indented under its parent), the number of contingencies, the number of\n"
                   "elements of each type, the largest contingency, and the number of lists of\n"
                   "other kinds it holds; a blank line between files. A file that fails is\n"
                   "reported on stderr and the others are still counted (exit status 1 for\n"
                   "bad input). Gzip input is read as such. On a terminal, a read that lasts\n"
                   "over half a second shows a progress bar on stderr.\n"
                   "\n"
                   "--format json prints one JSON document on stdout, an entry per file:\n"
                   "  {\"files\":[{\"file\":F,\"lists\":[{\"name\":N,\"kind\":K,\"version\":V,\n"
                   "  \"depth\":D},...],\"contingencies\":C,\"elements\":E,\"elementTypes\":\n"
                   "  {TYPE:COUNT,...},\"largest\":{\"id\":ID,\"elements\":E} or null},...]}\n"
                   "(a name or version the list lacks is null); a file that fails has\n"
                   "{\"file\":F,\"error\":DIAGNOSTIC} instead, its error as validate --format\n"
                   "json prints it, and the error on stderr as well.\n"
                   "\n"
                   "A security-analysis document FILE (stdin too) is read whole and counted:\n"
                   "\"kind: K\" and, by kind, the actions (top level), nested\n"
                   "actions (inside MULTIPLE_ACTIONS) and actions of each type; strategies,\n"
                   "stages, action references, distinct contingencies and conditions of each\n"
                   "type; reductions, network-element and duration criteria and reductions of\n"
                   "each limit type; contexts or monitors, distinct contingencies (monitors:\n"
                   "and their branch, voltage level and three-windings transformer ids) and\n"
                   "items of each context type. Its JSON entry is {\"file\":F,\"kind\":K, then\n"
                   "  \"actions\",\"nestedActions\",\"actionTypes\":{TYPE:COUNT,...}, or\n"
                   "  \"strategies\",\"stages\",\"actionReferences\",\"contingencies\",\n"
                   "  \"conditionTypes\":{...}, or \"reductions\",\"equipmentCriteria\",\n"
                   "  \"durationCriteria\",\"limitTypes\":{...}, or \"contexts\",\"contingencies\",\n"
                   "  \"contextTypes\":{...}, or \"monitors\",\"contingencies\",\"branchIds\",\n"
                   "  \"voltageLevelIds\",\"threeWindingsTransformerIds\",\"contextTypes\":{...}}\n"
                   "(a type counted 0 is left out of its object).\n",
        .options = "      --format FORMAT\n"
                   "                     text (the default) or json\n"
                   "  -q, --quiet        no progress bar (the counts are printed all the same)\n"
                   NO_PROGRESS_OPTION,
        .run = cli_stats,
    },
    {
        .name = "lint",
        /* One line: the completion takes a command's options from the first of its usage. */
        .args = "[--format FORMAT] [--target TARGET] [OPTION...] (FILE... | [--contingencies C] "
                "[--actions A] [--strategies S] [--limit-reductions L] [--monitoring M])",
        .summary = "flag what is valid but almost certainly a mistake",
        .details = "Reads each FILE (\"-\" is stdin; gzip is read as such) as it streams and\n"
                   "prints on stdout one diagnostic per finding, \"FILE:line:column: warning:\n"
                   "path: message\", or with --format json one JSON object per line {file,\n"
                   "line, column, path, code, severity, message}. Findings (codes):\n"
                   "  duplicate-id       a contingency id used before (the message says where)\n"
                   "  duplicate-element  an element (id and type) twice in one contingency\n"
                   "  empty-contingency  a contingency without elements\n"
                   "  empty-id           an empty contingency id, element id or voltageLevelId\n"
                   "  id-whitespace      one of them with leading or trailing whitespace\n"
                   "  ignored-side       a voltageLevelId on a type PowSyBl reads none on: all\n"
                   "                     but BRANCH, LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE\n"
                   "                     and HVDC_LINE (DC_LINE's is written, never read)\n"
                   "With --target dynaflow, also what Dynawo's dynaflow-launcher drops:\n"
                   "  dynaflow-type      an element type it does not read (it reads GENERATOR,\n"
                   "                     STATIC_VAR_COMPENSATOR, SHUNT_COMPENSATOR, BRANCH,\n"
                   "                     HVDC_LINE, BUSBAR_SECTION, DANGLING_LINE (BOUNDARY_LINE\n"
                   "                     in files of version 1.0), LINE, LOAD,\n"
                   "                     TWO_WINDINGS_TRANSFORMER and THREE_WINDINGS_TRANSFORMER):\n"
                   "                     it drops the whole contingency\n"
                   "  dynaflow-side      a voltageLevelId: it trips the whole element\n"
                   "  dynaflow-kind      a list that is not a `default` one: it reads none\n"
                   "  dynaflow-extension a contingency extension: it ignores them\n"
                   "In lists nested two levels deep or more, findings have the root's path\n"
                   "(their line and column are exact). Duplicate ids are looked for in each\n"
                   "file in bounded memory, whatever its size: the first 98304 ids in a table\n"
                   "of 2.5 MB (a 96-bit hash of each and where it was first); past it, 8 bytes\n"
                   "per id go to a temporary file (16 MB of buffers), the findings are held in\n"
                   "another, and when an id hash repeats the file is read again to report the\n"
                   "duplicates (stdin or a pipe is copied to $TMPDIR first), memory then growing\n"
                   "with the repeated ids only, 20 bytes each. Findings come in file order\n"
                   "either way.\n"
                   "All else is constant memory but one contingency's elements, 24 bytes each.\n"
                   "An invalid file is an error diagnostic (on stderr as text, on stdout as\n"
                   "JSON). Exit status: 0 when every file is clean, 1 for a finding or an\n"
                   "invalid file, 2 for a usage or I/O error.\n"
                   "With --contingencies C --actions A --strategies S [--limit-reductions L]\n"
                   "[--monitoring M] and no FILE: the cross-check of a security analysis's\n"
                   "inputs, each finding an error (the last a warning) at its place:\n"
                   "  unknown-contingency  a SPECIFIC context names an id C does not have\n"
                   "  unknown-action       a stage names an action id A does not have\n"
                   "  duplicate-stage      a stage id another strategy for the same\n"
                   "                       contingency has\n"
                   "  duplicate-action-id  an action id an earlier action of A has\n"
                   "  unused-action        an action no stage of S names\n"
                   "A file left out is not checked against; C must be a default list and\n"
                   "may be \"-\"; the others are read again for the findings' places.\n",
        .options = "      --format FORMAT\n"
                   "                     text (the default) or json\n"
                   "      --target TARGET\n"
                   "                     powsybl (the default) or dynaflow\n"
                   "      --contingencies C, --actions A, --strategies S,\n"
                   "      --limit-reductions L, --monitoring M\n"
                   "                     the cross-check's files (see above)\n"
                   "  -q, --quiet        no progress bar (findings and errors all the same)\n"
                   NO_PROGRESS_OPTION,
        .run = cli_lint,
    },
    {
        .name = "filter",
        .args = "[OPTION...] IN OUT",
        .summary = "keep the contingencies the selectors choose",
        .details = "Reads the `default` list IN and writes to OUT the contingencies that every\n"
                   "selector given chooses (they are ANDed; none keeps everything), or with\n"
                   "--invert the others. --type and --element each need some element of the\n"
                   "contingency to match, not necessarily the same one. GLOB is a shell\n"
                   "pattern (*, ?, [...] as fnmatch(3) has them, ? and [...] taking one UTF-8\n"
                   "character; a [ without its ] is itself, as in POSIX: [a-* matches [a-1)\n"
                   "matched against the whole id. The list streams, in constant memory; kept\n"
                   "contingencies are written as convert writes them, extensions included,\n"
                   "so that a filter keeping everything gives convert's output (a list whose\n"
                   "name comes after its contingencies is refused: convert writes it first).\n"
                   "\"-\" is stdin for IN and stdout for OUT; gzip input is read as such, an\n"
                   "OUT ending in .gz is compressed; a file OUT is replaced atomically, as\n"
                   "convert replaces it.\n",
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
                   "by reading the inputs again; stdin and pipes are copied to a temporary file\n"
                   "first so that they can be read again. Without --dedupe or\n"
                   "--dedupe-equivalent each IN is read once (twice when a hash repeats); with\n"
                   "them, twice (three times when a hash repeats): once to find the duplicates,\n"
                   "once to write. \"-\" is stdin for one IN and stdout for OUT. An IN whose\n"
                   "name comes after its contingencies is refused (convert writes it first).\n",
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
                   "contingencies; once no more are left than parts, each takes one); it counts\n"
                   "first, reading IN twice (stdin or a pipe is copied to $TMPDIR for it).\n"
                   "--size K starts a new part when the next contingency would take the part\n"
                   "over K elements (a larger contingency gets a part of its own); IN is read\n"
                   "once. Parts are written in a temporary directory OUTPREFIX.ctg-split-XXXXXX\n"
                   "beside them and moved into place at the end: on failure none appears (an\n"
                   "interrupt may leave that directory).\n"
                   "`merge` of the parts gives back IN as convert writes it. An IN whose name\n"
                   "comes after its contingencies is refused (convert writes it first).\n",
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
                   "another kind, or an id twice in one list, is an error. Memory stays\n"
                   "bounded on any size: beyond 16 MB of input the work goes through\n"
                   "temporary files in $TMPDIR (about 100 bytes per contingency), and stdin or\n"
                   "a pipe is first copied there. Exit status, as diff(1): 0 when the lists\n"
                   "are equal,\n"
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
                   JOBS_OPTION
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

#ifdef CLI_HAVE_NETWORK
/* generate --network NET: the network mode of `generate` (cmd_generate_net.c), reached through
 * the generate row, which hands over to it when --network is given. */
static const cli_command generate_network_command = {
    .name = "generate",
    .args = "[OPTION...] --network NET OUT",
    .summary = "generate N-1 or N-2 contingencies from a network",
    .details =
        "Reads the IIDM network NET and writes to OUT one contingency per selected\n"
        "equipment (N-1, ids N-1_<id>), or with --n2 RULE the pairs the rule ties\n"
        "together (ids N-2_<id1>+<id2>): parallel (branches joining the same two\n"
        "substations), common-substation (branches with an end in one substation),\n"
        "all-pairs (every pair; its count printed first, and at most\n"
        "--max-contingencies, 10 million by default), or busbar (per busbar section or\n"
        "bus, the selected equipment it takes with it; ids BUSBAR_<busbar>). The\n"
        "selection means what the equivalent PowSyBl criterion list means; without\n"
        "--types it is every line, tie line and transformer. OUT streams in constant\n"
        "memory beyond the network, \"-\" is stdout, a name ending in .gz is\n"
        "compressed, a file OUT is replaced atomically. --dry-run prints only the\n"
        "counts per type and rule; --as-criterion writes the criterion list PowSyBl can\n"
        "evaluate on a later network (N-1 without --subnetwork or --connected-to only;\n"
        "no --id-format, --max-contingencies or --report: it makes no contingency);\n"
        "--report FILE lists the counts and every contingency of the N-2 rule.\n",
    .options = "      --network NET  the network (required)\n"
               "      --types T,T    identifiable types (LINE, GENERATOR, ...)\n"
               "      --country C,C  countries (their substation's; either end of a line,\n"
               "                     tie line or HVDC line)\n"
               "      --country2 C,C those of the other end, with --country (either order)\n"
               "      --voltage LOW:HIGH, --voltage2 LOW:HIGH, --voltage3 LOW:HIGH\n"
               "                     nominal-voltage ranges in kV (bounds included)\n"
               "      --property K=V,K=V  properties of the equipment itself\n"
               "      --id-regex RE  ids matching the RE2 expression RE (anywhere)\n"
               "      --subnetwork ID, --connected-to VOLTAGE_LEVEL_OR_SUBSTATION\n"
               "      --n2 RULE      parallel, common-substation, busbar or all-pairs\n"
               "      --with-n1      the N-1 contingencies too, before the N-2 ones\n"
               "      --id-format F  {id} {type} {vl1} {vl2} {substation}; pairs: {id1}\n"
               "                     {id2} {rule}; {id}, or {id1} and {id2}, required\n"
               "      --max-contingencies N  fail before writing when a rule makes more\n"
               "      --name NAME    the list's name (default: the rule's)\n"
               "      --dry-run, --as-criterion, --report FILE\n"
               "      --compact      no whitespace at all in OUT\n"
               "      --break-links  replace an OUT or a report that has other hard links\n"
               QUIET_OPTIONS,
    .run = cli_generate_network,
};

const cli_command *cli_generate_network_command(void)
{
    return &generate_network_command;
}
#endif

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
                 "and -h/--help. An option that takes a value is given at most once.\n"
                 "Run '%s COMMAND --help' for the usage of a command.\n",
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
    /* A closed stdout fails a write, which every command reports in one line (exit 1; diff
     * 2), instead of killing it unexplained. */
    cli_signals_catch_pipe();
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
