#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli end to end: exact stdout, stderr and exit status of each case.
# usage: cli_test.sh CLI TESTDATA_DIR WORK_DIR VERSION
set -u

cli=$1 data=$2 work=$3 version=$4
sample=$data/valid/sample.json
bad=$data/cli/unknown-type.json

rm -rf "$work" && mkdir -p "$work" || exit 2

# The harness: check and expect.
. "$(dirname "$0")/cli_check.sh"

# A file that a failed convert must leave as it is; $work/kept.orig keeps a copy.
keep() {
    printf 'previous content\n' >"$1"
    cp "$1" "$work/kept.orig"
}

usage_convert='usage: contingency-cli convert [OPTION...] IN OUT\n'
more_convert="Try 'contingency-cli convert --help' for more information.\n"
bad_type="$bad:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n"
compact='{"type":"default","version":"1.1","name":"sample","contingencies":[{"id":"N-1_NHV1_NHV2_1","name":"Perte de la ligne NHV1-NHV2 n°1","elements":[{"id":"NHV1_NHV2_1","type":"LINE"}]},{"id":"N-1_NGEN_NHV1","elements":[{"id":"NGEN_NHV1","type":"TWO_WINDINGS_TRANSFORMER","voltageLevelId":"VLGEN"}]},{"id":"N-2_GEN_LOAD","elements":[{"id":"GEN","type":"GENERATOR"},{"id":"LOAD","type":"LOAD"}]},{"id":"N-1_S1VL1_BBS","elements":[{"id":"S1VL1_BBS","type":"BUSBAR_SECTION"}]},{"id":"N-2_HVDC1_BREAKER","elements":[{"id":"HVDC1","type":"HVDC_LINE","voltageLevelId":"VL1"},{"id":"S1VL1_LD1_BREAKER","type":"SWITCH"}]}]}'

check "version" 0 "contingency-cli $version\n" "" -- "$cli" --version
check "no arguments" 2 "" "@$work/help" -- sh -c "'$cli' --help >'$work/help'; '$cli'"
check "unknown command" 2 "" \
    "contingency-cli: unknown command 'frobnicate'\nTry 'contingency-cli --help' for the list of commands.\n" \
    -- "$cli" frobnicate

check "validate sample" 0 "$sample: ok\n" "" -- "$cli" validate "$sample"
check "validate stdin" 0 "<stdin>: ok\n" "" -- sh -c "'$cli' validate - <'$sample'"
check "validate invalid" 1 "" "$bad_type" -- "$cli" validate "$bad"
# Security-analysis documents: read as what they are, or refused for a kind not read yet.
check "validate state monitors" 0 "$data/sa/monitors.json: ok (state-monitor list)\n" "" \
    -- "$cli" validate "$data/sa/monitors.json"
check "validate operator strategies" 0 \
    "$data/sa/strategies-conditions.json: ok (operator-strategy list)\n" "" \
    -- "$cli" validate "$data/sa/strategies-conditions.json"
check "validate action list" 0 "$data/sa/actions-every-type.json: ok (action list)\n" "" \
    -- "$cli" validate "$data/sa/actions-every-type.json"
check "validate identifier action list" 0 \
    "$data/sa/idactions-builders.json: ok (identifier action list)\n" "" \
    -- "$cli" validate "$data/sa/idactions-builders.json"
check "validate limit reductions" 0 "$data/sa/limit-reductions.json: ok (limit-reduction list)\n" "" \
    -- "$cli" validate "$data/sa/limit-reductions.json"
check "validate checks every file" 1 "$sample: ok\n$sample: ok\n" "$bad_type" \
    -- "$cli" validate "$sample" "$bad" "$sample"
check "validate no file" 2 "" \
    "contingency-cli validate: no file given\nusage: contingency-cli validate [--lenient] [--max-errors N] [--format text|json] [OPTION...] FILE...\nTry 'contingency-cli validate --help' for more information.\n" \
    -- "$cli" validate
check "validate unknown option" 2 "" \
    "contingency-cli validate: unknown option: --frobnicate\nusage: contingency-cli validate [--lenient] [--max-errors N] [--format text|json] [OPTION...] FILE...\nTry 'contingency-cli validate --help' for more information.\n" \
    -- "$cli" validate --frobnicate "$sample"
check "validate --max-errors given twice" 2 "" \
    "contingency-cli validate: option given twice: --max-errors\nusage: contingency-cli validate [--lenient] [--max-errors N] [--format text|json] [OPTION...] FILE...\nTry 'contingency-cli validate --help' for more information.\n" \
    -- "$cli" validate --max-errors 1 --max-errors=2 "$sample"
check "validate -- ends options" 0 "-s.json: ok\n" "" \
    -- sh -c "cd '$work' && cp '$sample' ./-s.json && '$cli' validate -- -s.json"
check "validate missing file is an I/O error" 2 "" "$work/nope: error: cannot open: No such file or directory\n" \
    -- "$cli" validate "$work/nope"

check "convert sample to a file" 0 "" "" -- "$cli" convert "$sample" "$work/copy.json"
check "convert reproduces the sample byte for byte" 0 "" "" -- cmp "$sample" "$work/copy.json"
check "convert to stdout" 0 "@$sample" "" -- "$cli" convert "$sample" -
check "convert stdin to stdout" 0 "@$sample" "" -- sh -c "'$cli' convert - - <'$sample'"
check "convert --compact" 0 "$compact" "" -- "$cli" convert --compact "$sample" -
check "convert compact back to pretty" 0 "@$sample" "" \
    -- sh -c "'$cli' convert --compact '$sample' '$work/c.json' && '$cli' convert '$work/c.json' -"

mkdir "$work/atomic" "$work/atomic2" "$work/atomic2/out.json"
keep "$work/atomic/kept.json"
check "convert invalid input fails" 1 "" "$bad_type" -- "$cli" convert "$bad" "$work/atomic/kept.json"
check "convert invalid input leaves OUT untouched" 0 "" "" \
    -- cmp "$work/atomic/kept.json" "$work/kept.orig"
check "convert invalid input leaves no temporary file" 0 "kept.json\n" "" -- ls -A "$work/atomic"
check "convert over a folder fails" 2 "" "" \
    -- sh -c "'$cli' convert '$sample' '$work/atomic2/out.json' 2>/dev/null"
check "convert failing rename leaves no temporary file" 0 "out.json\n" "" -- ls -A "$work/atomic2"
check "convert to a missing folder is an I/O error" 2 "" "" \
    -- sh -c "'$cli' convert '$sample' '$work/no/such/dir.json' 2>/dev/null"
check "convert missing OUT" 2 "" \
    "contingency-cli convert: missing IN or OUT\n$usage_convert$more_convert" \
    -- "$cli" convert "$sample"
check "convert too many arguments" 2 "" \
    "contingency-cli convert: too many arguments\n$usage_convert$more_convert" \
    -- "$cli" convert "$sample" a b

# extensions survive a convert, in both layouts.
ext=$data/valid/extension-contingency.json
check "convert keeps extensions" 0 "@$ext" "" -- "$cli" convert "$ext" -
check "convert keeps extensions through compact" 0 "@$ext" "" \
    -- sh -c "'$cli' convert --compact '$ext' '$work/e.json' && '$cli' convert '$work/e.json' -"

# convert handles every kind (own fixtures, written in the current version).
for pair in identifier-v1_0 criterion-mixed nested-lists-v1_0 boundary-v1_0; do
    check "convert $pair" 0 "@$data/expected/$pair.json" "" -- "$cli" convert "$data/valid/$pair.json" -
    check "convert $pair to a file" 0 "" "" -- "$cli" convert "$data/valid/$pair.json" "$work/$pair.json"
    check "convert $pair to a file, same bytes" 0 "" "" -- cmp "$data/expected/$pair.json" "$work/$pair.json"
done

# stats, streaming convert and gzip.
stats_sample="file: $sample\nlist: sample (default, version 1.1)\ncontingencies: 5\nelements: 7\n  GENERATOR: 1\n  HVDC_LINE: 1\n  BUSBAR_SECTION: 1\n  LINE: 1\n  TWO_WINDINGS_TRANSFORMER: 1\n  LOAD: 1\n  SWITCH: 1\nlargest: N-2_GEN_LOAD (2 elements)\n"
check "stats sample" 0 "$stats_sample" "" -- "$cli" stats "$sample"
check "stats invalid" 1 "" "$bad_type" -- "$cli" stats "$bad"
check "stats no file" 2 "" \
    "contingency-cli stats: no file given\nusage: contingency-cli stats [--format text|json] [OPTION...] FILE...\nTry 'contingency-cli stats --help' for more information.\n" \
    -- "$cli" stats
check "convert to .gz" 0 "" "" -- "$cli" convert "$sample" "$work/sample.json.gz"
check "the .gz is gzip" 0 "" "" -- sh -c "gzip -t '$work/sample.json.gz'"
check "convert from .gz" 0 "" "" -- "$cli" convert "$work/sample.json.gz" "$work/back.json"
check "back from .gz is the same" 0 "" "" -- cmp "$sample" "$work/back.json"
check "stats of .gz" 0 "$(printf '%s' "$stats_sample" | sed "s|file: $sample|file: $work/sample.json.gz|")" "" \
    -- "$cli" stats "$work/sample.json.gz"
# A truncated .gz is invalid input (1), like a truncated .json: only its trailer is cut, so the
# error is placed after the whole text, whatever the compressor made of it.
gz_size=$(wc -c <"$work/sample.json.gz")
head -c $((gz_size - 4)) "$work/sample.json.gz" >"$work/cut.json.gz"
check "validate truncated .gz is invalid input" 1 "" \
    "$work/cut.json.gz:45:2: error: /: truncated gzip data\n" -- "$cli" validate "$work/cut.json.gz"
check "stats truncated .gz from stdin is invalid input" 1 "" \
    "<stdin>:45:2: error: /: truncated gzip data\n" -- sh -c "'$cli' stats - <'$work/cut.json.gz'"
check "convert truncated .gz is invalid input" 1 "" \
    "$work/cut.json.gz:45:2: error: /: truncated gzip data\n" \
    -- "$cli" convert "$work/cut.json.gz" "$work/cut.json"
keep "$work/kept.json"
check "streaming convert of invalid leaves OUT" 1 "" "$bad_type" -- "$cli" convert "$bad" "$work/kept.json"
check "OUT untouched" 0 "" "" -- cmp "$work/kept.orig" "$work/kept.json"
check "no temporary file left" 0 "" "" -- sh -c "! ls -a '$work' | grep -q tmp"

# One name for stdin and stdout in every message, "<stdin>" and "<stdout>" (not "-", "<input>"
# or "<stream>"), whichever command and whichever step failed.
stats_stdin=$(printf '%s' "$stats_sample" | sed "s|file: $sample|file: <stdin>|")
check "stats names stdin <stdin>" 0 "$stats_stdin" "" -- sh -c "'$cli' stats - <'$sample'"
eisdir='<stdin>: error: read failed: Is a directory\n'
check "validate an unreadable stdin names it <stdin>" 2 "" "$eisdir" \
    -- sh -c "'$cli' validate - <'$work'"
check "stats an unreadable stdin names it <stdin>" 2 "" "$eisdir" -- sh -c "'$cli' stats - <'$work'"
check "validate a closed stdout says so" 2 "" \
    "<stdout>: error: cannot write: Bad file descriptor\n" \
    -- sh -c "'$cli' validate '$sample' >&-"

# A message on stderr whenever the exit status is not 0: a result lost on a full disk too.
# A list larger than stdio's buffer makes the write itself fail, not only the last flush.
{
    printf '{"type":"default","version":"1.1","name":"big","contingencies":['
    i=0
    while [ $i -lt 300 ]; do
        printf '{"id":"c%d","elements":[{"id":"e%d","type":"LINE"}]},' $i $i
        i=$((i + 1))
    done
    printf '{"id":"last","elements":[]}]}'
} >"$work/big.json"
if [ -w /dev/full ]; then
    enospc='<stdout>: error: cannot write: No space left on device\n'
    check "validate to a full stdout says so" 2 "" "$enospc" \
        -- sh -c "'$cli' validate '$sample' >/dev/full"
    check "validate invalid to a full stdout says both" 2 "" "$bad_type$enospc" \
        -- sh -c "'$cli' validate '$sample' '$bad' >/dev/full"
    check "stats to a full stdout says so" 2 "" "$enospc" -- sh -c "'$cli' stats '$sample' >/dev/full"
    check "convert to a full stdout says so" 2 "" "$enospc" \
        -- sh -c "'$cli' convert '$sample' - >/dev/full"
    check "convert a large list to a full stdout names it <stdout>" 2 "" "$enospc" \
        -- sh -c "'$cli' convert '$work/big.json' - >/dev/full"
    check "convert stdin to a full stdout names both" 2 "" "$enospc" \
        -- sh -c "'$cli' convert - - <'$work/big.json' >/dev/full"
    check "--help to a full stdout says so" 2 "" "$enospc" -- sh -c "'$cli' --help >/dev/full"
    check "--version to a full stdout says so" 2 "" "$enospc" -- sh -c "'$cli' --version >/dev/full"
    check "convert --help to a full stdout says so" 2 "" "$enospc" \
        -- sh -c "'$cli' convert --help >/dev/full"
else
    echo "SKIP: /dev/full is not writable: the full stdout checks"
fi

# --quiet: errors and results only, for every command; --no-progress: no bar, nothing else.
check "validate --quiet prints nothing for valid files" 0 "" "" -- "$cli" validate --quiet "$sample"
check "validate -q still reports errors" 1 "" "$bad_type" -- "$cli" validate -q "$sample" "$bad" "$sample"
check "validate --no-progress keeps the ok lines" 0 "$sample: ok\n" "" \
    -- "$cli" validate --no-progress "$sample"
check "stats --quiet prints the counts" 0 "$stats_sample" "" -- "$cli" stats -q "$sample"
check "convert accepts --quiet" 0 "@$sample" "" -- "$cli" convert --quiet "$sample" -
check "convert accepts -q and --no-progress" 0 "" "" \
    -- "$cli" convert -q --no-progress "$sample" "$work/quiet.json"
check "convert --quiet wrote the list" 0 "" "" -- cmp "$sample" "$work/quiet.json"

# convert --help says which version each kind is written at (identifier lists are 1.3).
convert_help="usage: contingency-cli convert [OPTION...] IN OUT

Reads IN once and writes it to OUT in PowSyBl's pretty layout, or without
whitespace with --compact. \"-\" is stdin for IN and stdout for OUT. A file
OUT (or the file a link OUT leads to) is replaced atomically: on any failure
it is left as it was; it keeps its mode and owner. A file with other hard
links is refused unless --break-links is given. A device, FIFO, socket or
stdout is written as the list comes. Interrupted, convert removes its
temporary file .OUT.ctg-tmp-XXXXXX. On a terminal, a read that lasts over
half a second shows a progress bar on stderr.

Formats, told by the extension (after it, .gz is gzip) or by --from/--to:
json (the default), csv (.csv) and jsonl (.jsonl, .ndjson). CSV has a row
per element, under the required header
  contingency_id,contingency_name,element_id,element_type,voltage_level_id
quoted as RFC 4180 says; an empty unquoted name is no name, \"\" an empty
one. Rows are grouped by contingency_id in order of first appearance, even
apart. A CSV IN is read twice (stdin or a pipe copied to TMPDIR first): in
constant memory when each contingency's rows are together, else grouped in
memory (refused past 16 MB). JSON Lines has one contingency per line,
the object as --compact writes it. Both hold only a default list's
contingencies: another kind, extensions (CSV) or a contingency without
elements (CSV) is an error naming it, never dropped. A list read from CSV
or JSON Lines is named by --name, else after IN's file name without its
extensions. A bad row is \"IN:line:1: error: path: message\"; a field
or a line past 64 MiB, or a NUL byte, is refused where it is met.
--to-version writes an older format version for older PowSyBl readers:
default, list and criterion lists 1.0 or 1.1, identifier lists 1.1 to 1.3;
what that version cannot express is an error naming its first item.

A security-analysis document (action list, operator-strategy list,
limit-reduction list, contingency-context list, state-monitor list) is
read whole and written back in PowSyBl's current layout of its kind, an
older version upgraded (an action list 1.0 as 1.3, a strategy list 1.0 as
1.2), OUT replaced atomically and .gz compressed as for lists. --to csv or
jsonl (an OUT.csv, OUT.jsonl), --to-version, --compact and --allow-newer
apply to contingency lists only: a usage error for these (exit status 2).

options:
      --compact      no whitespace at all
      --break-links  replace a file that has other hard links (they keep
                     the old content)
      --from FORMAT  IN's format: json, csv or jsonl
      --to FORMAT    OUT's format: json, csv or jsonl
      --delimiter C  the CSV field separator (default ,; \"tab\" for a tab)
      --name NAME    the name of a list read from CSV or JSON Lines
      --to-version V
                     write JSON at format version V (e.g. 1.0)
      --allow-newer  read a format version newer than this program's
  -j, --jobs N       threads for a list read whole (1 to 64; default 1): a large
                     \`default\` list in PowSyBl's layout is read in N parts at once
  -q, --quiet        nothing but errors: no progress bar
      --no-progress  no progress bar
  -h, --help         print this help

format version written, by kind of list (whatever the version of IN):
  default                            1.1
  list                               1.1
  identifier                         1.3
  injectionCriterion                 1.1
  lineCriterion                      1.1
  hvdcCriterion                      1.1
  tieLineCriterion                   1.1
  twoWindingsTransformerCriterion    1.1
  threeWindingsTransformerCriterion  1.1
  contingency                        none (a bare contingency has no version)
  action list                        1.3
  operator-strategy list             1.2
  limit-reduction list               1.2
  contingency-context list           none (a root array has no version)
  state-monitor list                 none (a root array has no version)
"
printf '%s' "$convert_help" >"$work/convert_help"
check "convert --help" 0 "@$work/convert_help" "" -- "$cli" convert --help

# -j N: a list read whole (its name after its contingencies: it cannot stream) of over 8 MiB,
# split between its contingencies, gives the bytes one thread gives; bad counts are refused.
jobs_error="contingency-cli convert: -j needs a number of threads from 1 to 64: 0\n$usage_convert$more_convert"
check "convert -j 0 is a usage error" 2 "" "$jobs_error" -- "$cli" convert -j 0 "$sample" -
check "convert --jobs=65 is a usage error" 2 "" \
    "contingency-cli convert: -j needs a number of threads from 1 to 64: 65\n$usage_convert$more_convert" \
    -- "$cli" convert --jobs=65 "$sample" -
awk 'BEGIN { printf "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"contingencies\" : [ {\n";
    for (i = 0; i < 90000; i++) {
        if (i) printf "  }, {\n";
        printf "    \"id\" : \"c%d }, {\",\n    \"elements\" : [ {\n      \"id\" : \"L%d\",\n", i, i;
        printf "      \"type\" : \"LINE\"\n    } ]\n";
    }
    printf "  } ],\n  \"name\" : \"last\"\n}\n" }' >"$work/jobs.json"
check "convert -j 1 of a list named last" 0 "" "" -- "$cli" convert -q -j 1 "$work/jobs.json" "$work/jobs1.json"
check "convert -j 2 of it" 0 "" "" -- "$cli" convert -q -j 2 "$work/jobs.json" "$work/jobs2.json"
check "convert -j 2 gives the bytes of -j 1" 0 "" "" -- cmp "$work/jobs1.json" "$work/jobs2.json"
check "convert --jobs 4 gives them too" 0 "" "" \
    -- sh -c "'$cli' convert -q --jobs 4 '$work/jobs.json' - | cmp - '$work/jobs1.json'"
check "validate --help documents --quiet" 0 "" "" \
    -- sh -c "'$cli' validate --help | grep -q '^  -q, --quiet        nothing for valid files'"

# The progress bar, on a terminal (script(1) gives one): a read that lasts, here a pipe that
# pauses for a second, shows one frame of bytes read (the total of a pipe is unknown), fitted
# to COLUMNS, drawn from the line's start and erased to its end, then erased before the result.
# The rate and the elapsed time depend on the machine's speed: they are masked.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    # tty_check NAME STDERR-WANT COMMAND: runs COMMAND with stderr on a terminal; the
    # terminal's bytes, masked, are the stdout checked, and COMMAND's status the status.
    tty_check() {
        check "$1" 0 "$2" "" -- sh -c 'script -qec "$1" /dev/null </dev/null >"$2"; status=$?
            sed "s/[0-9.]* kB\/s/R kB\/s/; s/elapsed [0-9:]*/elapsed T/" "$2"; exit $status' \
            sh "$3" "$work/tty"
    }
    slow="(head -c 100 '$sample'; sleep 1; tail -c +101 '$sample')"
    esc=$(printf '\033')
    tty_check "progress of a pipe, 80 columns" "\r0.9 kB read R kB/s elapsed T$esc[K\r$esc[K" \
        "$slow | COLUMNS=80 '$cli' validate - >'$work/tty_out'"
    check "progress: the result on stdout" 0 "<stdin>: ok\n" "" -- cat "$work/tty_out"
    tty_check "progress fits 20 columns" "\r0.9 kB read$esc[K\r$esc[K" \
        "$slow | COLUMNS=20 '$cli' validate - >/dev/null"
    gz_size=$(wc -c <"$work/sample.json.gz")
    gz_read=$(LC_ALL=C awk "BEGIN { printf \"%.1f\", $gz_size / 1000 }") # the bar writes a point
    tty_check "progress of a .gz counts compressed bytes" \
        "\r$gz_read kB read R kB/s elapsed T$esc[K\r$esc[K" \
        "(head -c 20 '$work/sample.json.gz'; sleep 1; tail -c +21 '$work/sample.json.gz') | COLUMNS=80 '$cli' stats - >/dev/null"
    rm -f "$work/slow.fifo" && mkfifo "$work/slow.fifo"
    tty_check "progress names the file when there are several" \
        "\rslow.fifo 0.9 kB read R kB/s elapsed T$esc[K\r$esc[K" \
        "cd '$work' && { $slow >slow.fifo & } && COLUMNS=80 '$cli' validate slow.fifo '$sample' >/dev/null"
    tty_check "no progress with --no-progress" "" "$slow | '$cli' validate --no-progress - >/dev/null"
    tty_check "no progress with --quiet" "" "$slow | '$cli' validate -q - >/dev/null"
else
    echo "SKIP: script(1) is not available: the progress bar checks on a terminal"
fi

# Names and ids from the input are printed escaped: no file can drive the terminal.
printf '{"type":"default","version":"1.1","name":"n","contingencies":[{"id":"a\\u001b[2J\\nb","elements":[{"id":"L","type":"LINE"}]}]}' >"$work/evil.json"
check "stats escapes ids" 0 \
    "file: $work/evil.json\nlist: n (default, version 1.1)\ncontingencies: 1\nelements: 1\n  LINE: 1\nlargest: a\\\\u001b[2J\\\\nb (1 element)\n" "" \
    -- "$cli" stats "$work/evil.json"
printf '{"type":"default","version":"1.1","name":"n","contingencies":[{"id":"c","elements":[{"id":"L","type":"X\\u001b]0;owned\\u0007"}]}]}' >"$work/evil2.json"
check "errors escape input" 1 "" \
    "$work/evil2.json:1:102: error: /contingencies/0/elements/0/type: unknown element type \"X\\\\u001b]0;owned\\\\u0007\"\n" \
    -- "$cli" validate "$work/evil2.json"

echo "$((count - failures)) of $count CLI checks passed"
[ "$failures" -eq 0 ]
