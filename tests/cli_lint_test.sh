#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli lint (and validate --strict) end to end: one case per finding with its exact
# line, column and path, then the output formats, several files, stdin, gzip, invalid input
# and usage errors: exact stdout, stderr and exit status.
# usage: cli_lint_test.sh CLI WORK_DIR
set -u

cli=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)

# The files are named relative to $work, as the messages then name them.
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 2

# The harness: check and expect.
. "$here/cli_check.sh"

# lint_case NAME FILE DOC STATUS STDOUT [OPTION...]: FILE holds DOC (a printf %b text), and
# `lint OPTION... FILE` prints STDOUT (a printf %b text) and nothing on stderr.
lint_case() {
    name=$1 file=$2 doc=$3 status=$4 out=$5
    shift 5
    printf '%b' "$doc" >"$file"
    check "$name" "$status" "$out" "" -- "$cli" lint "$@" "$file"
}

# Each contingency below starts a line of its own, after this first line.
H='{"type":"default","version":"1.1","name":"l","contingencies":[\n'
side_types='BRANCH, LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE and HVDC_LINE'

# ---- one case per finding -----------------------------------------------------------------

lint_case "a clean file: no output, exit 0" clean.json \
    "$H"'{"id":"a","elements":[{"id":"L1","type":"LINE","voltageLevelId":"VL1"}]},\n{"id":"b","elements":[{"id":"G1","type":"GENERATOR"}]}]}\n' \
    0 ""
lint_case "duplicate-id: each repeat, at its id, names the first" dup.json \
    "$H"'{"id":"a","elements":[{"id":"L1","type":"LINE"}]},\n  {"id":"b","elements":[{"id":"L1","type":"LINE"}]},\n {"id":"a","elements":[{"id":"L2","type":"LINE"}]},\n{"id":"a","elements":[{"id":"L3","type":"LINE"}]}]}\n' \
    1 'dup.json:4:8: warning: /contingencies/2/id: duplicate contingency id "a", first at 2:7\ndup.json:5:7: warning: /contingencies/3/id: duplicate contingency id "a", first at 2:7\n'
lint_case "duplicate-element: same id and type (another type is another element)" del.json \
    "$H"'{"id":"c","elements":[{"id":"L1","type":"LINE"},{"id":"L1","type":"BRANCH"},\n  {"id":"L1","type":"LINE"}]}]}\n' \
    1 'del.json:3:3: warning: /contingencies/0/elements/2: element "L1" (LINE) twice in contingency "c", first at 2:23\n'
# Over 16 elements the repeats are found by sorting: the same findings.
{
    printf '%b' "$H"'{"id":"big","elements":[\n'
    for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
        [ "$k" = 16 ] && k=3
        printf '{"id":"E%s","type":"LOAD"},\n' "$k"
    done
    printf '{"id":"E3","type":"GENERATOR"},\n{"id":"E3","type":"LOAD"}]}]}\n'
} >big.txt
check "duplicate-element in a large contingency" 1 \
    'big.json:19:1: warning: /contingencies/0/elements/16: element "E3" (LOAD) twice in contingency "big", first at 6:1\nbig.json:21:1: warning: /contingencies/0/elements/18: element "E3" (LOAD) twice in contingency "big", first at 6:1\n' \
    "" -- sh -c "cp big.txt big.json && '$cli' lint big.json"
lint_case "empty-contingency, at its brace" empty.json \
    "$H"'{"id":"e","elements":[]}]}\n' \
    1 'empty.json:2:1: warning: /contingencies/0: contingency "e" has no elements\n'
lint_case "empty-id: a contingency id" eid.json \
    "$H"'{"id":"","elements":[{"id":"L1","type":"LINE"}]}]}\n' \
    1 'eid.json:2:7: warning: /contingencies/0/id: contingency id is empty\n'
lint_case "empty-id: an element id, at the element's brace" eel.json \
    "$H"'{"id":"c","elements":[{"id":"","type":"LINE"}]}]}\n' \
    1 'eel.json:2:23: warning: /contingencies/0/elements/0: element id is empty\n'
lint_case "empty-id: a voltageLevelId" evl.json \
    "$H"'{"id":"c","elements":[{"id":"L1","type":"LINE","voltageLevelId":""}]}]}\n' \
    1 'evl.json:2:23: warning: /contingencies/0/elements/0: voltageLevelId is empty\n'
lint_case "id-whitespace: leading, trailing, both (a tab shown escaped)" ws.json \
    "$H"'{"id":" a","elements":[{"id":"L1 ","type":"LINE","voltageLevelId":"\\tVL1 "}]}]}\n' \
    1 'ws.json:2:7: warning: /contingencies/0/id: contingency id " a" has leading whitespace\nws.json:2:24: warning: /contingencies/0/elements/0: element id "L1 " has trailing whitespace\nws.json:2:24: warning: /contingencies/0/elements/0: voltageLevelId "\\tVL1 " has leading and trailing whitespace\n'
lint_case "ignored-side: on a GENERATOR, and on DC_LINE (written, never read)" side.json \
    "$H"'{"id":"c","elements":[{"id":"G1","type":"GENERATOR","voltageLevelId":"VL1"},\n{"id":"D1","type":"DC_LINE","voltageLevelId":"N1"}]}]}\n' \
    1 "side.json:2:23: warning: /contingencies/0/elements/0: voltageLevelId \"VL1\" is ignored on a GENERATOR element: PowSyBl reads a side only on $side_types\nside.json:3:1: warning: /contingencies/0/elements/1: voltageLevelId \"N1\" is ignored on a DC_LINE element: PowSyBl reads a side only on $side_types\n"
check "validate without --strict: the ignored side is valid" 0 "side.json: ok\n" "" \
    -- "$cli" validate side.json

# ---- --target dynaflow --------------------------------------------------------------------

dyn="$H"'{"id":"c","elements":[{"id":"T1","type":"TIE_LINE"},\n{"id":"L1","type":"LINE","voltageLevelId":"VL1"}],\n"extensions":{"x/y":{}}}]}\n'
lint_case "without --target dynaflow, what dynaflow drops is fine" dyn.json "$dyn" 0 ""
lint_case "--target powsybl is the default" dyn.json "$dyn" 0 "" --target powsybl
lint_case "dynaflow-type, dynaflow-side, dynaflow-extension" dyn.json "$dyn" 1 \
    'dyn.json:2:23: warning: /contingencies/0/elements/0: dynaflow-launcher does not read TIE_LINE elements: it drops contingency "c"\ndyn.json:3:1: warning: /contingencies/0/elements/1: dynaflow-launcher ignores voltageLevelId "VL1": it trips the whole LINE\ndyn.json:4:15: warning: /contingencies/0/extensions/x~1y: dynaflow-launcher ignores extension "x/y" of contingency "c"\n' \
    --target dynaflow
eleven='GENERATOR STATIC_VAR_COMPENSATOR SHUNT_COMPENSATOR BRANCH HVDC_LINE BUSBAR_SECTION DANGLING_LINE LINE TWO_WINDINGS_TRANSFORMER THREE_WINDINGS_TRANSFORMER LOAD'
{
    printf '{"type":"default","version":"1.0","name":"l","contingencies":[{"id":"c","elements":[\n'
    sep=''
    for t in $eleven; do printf '%s{"id":"%s","type":"%s"}' "$sep" "$t" "$t"; sep=',
'; done
    printf ']}]}\n'
} >eleven.json
check "the 11 types dynaflow-launcher reads (DANGLING_LINE in a 1.0 file)" 0 "" "" \
    -- "$cli" lint --target dynaflow eleven.json
others='BOUNDARY_LINE SWITCH BATTERY BUS TIE_LINE VOLTAGE_SOURCE_CONVERTER DC_LINE DC_GROUND DC_NODE'
{
    printf '%b' "$H"'{"id":"c","elements":[\n'
    sep=''
    for t in $others; do printf '%s{"id":"%s","type":"%s"}' "$sep" "$t" "$t"; sep=',
'; done
    printf ']}]}\n'
} >others.json
n=0 want=''
for t in $others; do
    note=''
    [ "$t" = BOUNDARY_LINE ] && note=' (it reads DANGLING_LINE, as format 1.0 writes it)'
    want="${want}others.json:$((n + 3)):1: warning: /contingencies/0/elements/$n: dynaflow-launcher does not read $t elements: it drops contingency \"c\"$note\n"
    n=$((n + 1))
done
check "the other 9 types: dynaflow-type each (BOUNDARY_LINE as 1.1 spells it)" 1 "$want" "" \
    -- "$cli" lint --target dynaflow others.json
lint_case "DANGLING_LINE read at a 1.0 version given after the contingencies" late.json \
    '{"type":"default","name":"l","contingencies":[{"id":"c","elements":[\n{"id":"D1","type":"DANGLING_LINE"}]}],"version":"1.0"}\n' \
    0 '' --target dynaflow
lint_case "BOUNDARY_LINE read at a 1.1 version given after the contingencies" late11.json \
    '{"type":"default","name":"l","contingencies":[{"id":"c","elements":[\n{"id":"B1","type":"BOUNDARY_LINE"}]}],"version":"1.1"}\n' \
    1 'late11.json:2:1: warning: /contingencies/0/elements/0: dynaflow-launcher does not read BOUNDARY_LINE elements: it drops contingency "c" (it reads DANGLING_LINE, as format 1.0 writes it)\n' \
    --target dynaflow
lint_case "late versions of nested lists: each list's own" latenest.json \
    '{"type":"list","name":"o","contingencyLists":[{"type":"default","name":"a","contingencies":[{"id":"c","elements":[\n{"id":"B1","type":"BOUNDARY_LINE"}]}],"version":"1.1"},\n{"type":"default","name":"b","contingencies":[{"id":"d","elements":[{"id":"D1","type":"DANGLING_LINE"}]}],"version":"1.0"}]}\n' \
    1 'latenest.json:1:9: warning: /type: dynaflow-launcher reads only "default" lists, not "list" lists\nlatenest.json:2:1: warning: /contingencyLists/0/contingencies/0/elements/0: dynaflow-launcher does not read BOUNDARY_LINE elements: it drops contingency "c" (it reads DANGLING_LINE, as format 1.0 writes it)\n' \
    --target dynaflow
lint_case "dynaflow-kind: an identifier list, said at its type" ident.json \
    '{"type":"identifier","version":"1.2","name":"i","identifiers":[]}\n' \
    1 'ident.json:1:9: warning: /type: dynaflow-launcher reads only "default" lists, not "identifier" lists\n' \
    --target dynaflow
lint_case "dynaflow-kind: at the type wherever it stands" identlate.json \
    '{"version":"1.2","name":"i","identifiers":[],\n  "type":"identifier"}\n' \
    1 'identlate.json:2:10: warning: /type: dynaflow-launcher reads only "default" lists, not "identifier" lists\n' \
    --target dynaflow
lint_case "dynaflow-kind: a list of lists without a contingency, said at its end" elist.json \
    '{"type":"list","name":"o","contingencyLists":[{"type":"default","name":"a","contingencies":[]}]}' \
    1 'elist.json:1:9: warning: /type: dynaflow-launcher reads only "default" lists, not "list" lists\n' \
    --target dynaflow
lint_case "dynaflow-kind: a bare contingency, at its brace" bare.json \
    '  {"id":"c","elements":[{"id":"L1","type":"LINE"}]}\n' \
    1 'bare.json:1:3: warning: /: dynaflow-launcher reads only "default" lists, not a bare contingency\n' \
    --target dynaflow

long=$(awk 'BEGIN { for (i = 0; i < 200; i++) printf "e" }')
lint_case "an extension name too long for the path: the path ends at extensions" longext.json \
    "$H"'{"id":"c","elements":[{"id":"L1","type":"LINE"}],"extensions":{"'"$long"'":1}}]}\n' \
    1 "longext.json:2:64: warning: /contingencies/0/extensions: dynaflow-launcher ignores extension \"$(printf '%.120s' "$long")...\" of contingency \"c\"\n" \
    --target dynaflow

# ---- nested lists -------------------------------------------------------------------------

nest='{"type":"list","name":"o","contingencyLists":[\n{"type":"default","name":"a","contingencies":[]},\n{"type":"default","name":"b","contingencies":[\n{"id":"x","elements":[]}]},\n{"type":"list","name":"i","contingencyLists":[{"type":"default","name":"c","contingencies":[\n{"id":"x","elements":[]}]}]}]}\n'
lint_case "nested lists: one file, one set of ids; two levels down the path is the root" \
    nest.json "$nest" 1 \
    'nest.json:4:1: warning: /contingencyLists/1/contingencies/0: contingency "x" has no elements\nnest.json:6:1: warning: /: contingency "x" has no elements\nnest.json:6:7: warning: /: duplicate contingency id "x", first at 4:7\n'
lint_case "dynaflow-kind: a list of lists, once" nest.json "$nest" 1 \
    'nest.json:1:9: warning: /type: dynaflow-launcher reads only "default" lists, not "list" lists\nnest.json:4:1: warning: /contingencyLists/1/contingencies/0: contingency "x" has no elements\nnest.json:6:1: warning: /: contingency "x" has no elements\nnest.json:6:7: warning: /: duplicate contingency id "x", first at 4:7\n' \
    --target dynaflow

# ---- layouts and formats ------------------------------------------------------------------

lint_case "a compact file: columns on its one line" compact.json \
    '{"type":"default","name":"l","contingencies":[{"id":"a","elements":[]},{"id":"a","elements":[]}]}' \
    1 'compact.json:1:47: warning: /contingencies/0: contingency "a" has no elements\ncompact.json:1:72: warning: /contingencies/1: contingency "a" has no elements\ncompact.json:1:78: warning: /contingencies/1/id: duplicate contingency id "a", first at 1:53\n'
esc="$H"'{"id":"a\\u001b\\"q","elements":[]},\n{"id":"a\\u001b\\"q","elements":[{"id":"L1","type":"LINE"}]}]}\n'
lint_case "text: a control character of an id escaped" esc.json "$esc" 1 \
    'esc.json:2:1: warning: /contingencies/0: contingency "a\\u001b"q" has no elements\nesc.json:3:7: warning: /contingencies/1/id: duplicate contingency id "a\\u001b"q", first at 2:7\n'
lint_case "--format json: one object per finding, strings escaped" esc.json "$esc" 1 \
    '{"file":"esc.json","line":2,"column":1,"path":"/contingencies/0","code":"empty-contingency","severity":"warning","message":"contingency \\"a\\u001b\\"q\\" has no elements"}\n{"file":"esc.json","line":3,"column":7,"path":"/contingencies/1/id","code":"duplicate-id","severity":"warning","message":"duplicate contingency id \\"a\\u001b\\"q\\", first at 2:7"}\n' \
    --format json
lint_case "--format=text is the default" esc.json "$esc" 1 \
    'esc.json:2:1: warning: /contingencies/0: contingency "a\\u001b"q" has no elements\nesc.json:3:7: warning: /contingencies/1/id: duplicate contingency id "a\\u001b"q", first at 2:7\n' \
    --format=text
lint_case "--format json of a nested list: path \"\" two levels down" nest.json "$nest" 1 \
    '{"file":"nest.json","line":4,"column":1,"path":"/contingencyLists/1/contingencies/0","code":"empty-contingency","severity":"warning","message":"contingency \\"x\\" has no elements"}\n{"file":"nest.json","line":6,"column":1,"path":"","code":"empty-contingency","severity":"warning","message":"contingency \\"x\\" has no elements"}\n{"file":"nest.json","line":6,"column":7,"path":"","code":"duplicate-id","severity":"warning","message":"duplicate contingency id \\"x\\", first at 4:7"}\n' \
    --format json

# ---- several files, stdin, gzip -----------------------------------------------------------

dup_out='dup.json:4:8: warning: /contingencies/2/id: duplicate contingency id "a", first at 2:7\ndup.json:5:7: warning: /contingencies/3/id: duplicate contingency id "a", first at 2:7\n'
check "several files: each linted, exit 1 if any has a finding" 1 "$dup_out" "" \
    -- "$cli" lint clean.json dup.json clean.json
check "several files: ids are compared within a file" 0 "" "" \
    -- "$cli" lint clean.json clean.json
stdin_out='<stdin>:4:8: warning: /contingencies/2/id: duplicate contingency id "a", first at 2:7\n<stdin>:5:7: warning: /contingencies/3/id: duplicate contingency id "a", first at 2:7\n'
check "stdin" 1 "$stdin_out" "" -- sh -c "'$cli' lint - <dup.json"
# A pipe cannot be read twice: past the id budget (1 here), a repeated hash has the file read
# again, from a copy of the pipe.
pipe_out='/dev/stdin:4:8: warning: /contingencies/2/id: duplicate contingency id "a", first at 2:7\n/dev/stdin:5:7: warning: /contingencies/3/id: duplicate contingency id "a", first at 2:7\n'
check "a pipe past the id budget: read again from a copy" 1 "$pipe_out" "" \
    -- sh -c "cat dup.json | CTG_TEST_LINT_ID_BUDGET=1 '$cli' lint /dev/stdin"
mkdir -p tmp || exit 2
check "  the copy and the spill files removed" 0 "" "" \
    -- sh -c "cat dup.json | TMPDIR=\$PWD/tmp CTG_TEST_LINT_ID_BUDGET=1 '$cli' lint /dev/stdin >/dev/null; ls -A tmp"
gzip -c dup.json >dup.json.gz
check ".gz: the same findings, at the same places" 1 \
    'dup.json.gz:4:8: warning: /contingencies/2/id: duplicate contingency id "a", first at 2:7\ndup.json.gz:5:7: warning: /contingencies/3/id: duplicate contingency id "a", first at 2:7\n' \
    "" -- "$cli" lint dup.json.gz
check ".gz on stdin" 1 "$stdin_out" "" -- sh -c "'$cli' lint --quiet - <dup.json.gz"

# 3000 ids, then the first again: the set of ids grows (from 1024 slots) and still finds it.
awk 'BEGIN { print "{\"type\":\"default\",\"name\":\"l\",\"contingencies\":["
    for (i = 0; i < 3000; i++) printf "{\"id\":\"N-1_%d\",\"elements\":[{\"id\":\"L%d\",\"type\":\"LINE\"}]},\n", i, i
    print "{\"id\":\"N-1_0\",\"elements\":[{\"id\":\"L0\",\"type\":\"LINE\"}]}]}" }' >many.json
check "3001 contingencies: the one repeat found after the id set grew" 1 \
    'many.json:3002:7: warning: /contingencies/3000/id: duplicate contingency id "N-1_0", first at 2:7\n' \
    "" -- "$cli" lint many.json

# ---- invalid input, I/O and usage ---------------------------------------------------------

printf '%b' "$H"'{"id":"a","elements":[]},\n{"id":"b" "elements":[]}]}\n' >broken.json
syntax_text="expected ',' or '}' after object member, got '\"'"
broken_json="{\"file\":\"broken.json\",\"line\":3,\"column\":11,\"path\":\"/contingencies/1\",\"code\":\"syntax\",\"severity\":\"error\",\"message\":\"expected ',' or '}' after object member, got '\\\\\"'\"}"
check "invalid input: the findings before the error, then the error on stderr; exit 1" 1 \
    'broken.json:2:1: warning: /contingencies/0: contingency "a" has no elements\n' \
    "broken.json:3:11: error: /contingencies/1: $syntax_text\n" \
    -- "$cli" lint broken.json
check "invalid input with --format json: the error on stdout too" 1 \
    '{"file":"broken.json","line":2,"column":1,"path":"/contingencies/0","code":"empty-contingency","severity":"warning","message":"contingency \\"a\\" has no elements"}\n'"$broken_json"'\n' \
    "" -- "$cli" lint --format json broken.json
check "a missing file: exit 2, the others still linted" 2 "$dup_out" \
    'nope.json: error: cannot open: No such file or directory\n' \
    -- "$cli" lint nope.json dup.json
check "a missing file with --format json" 2 \
    '{"file":"nope.json","line":0,"column":0,"path":"","code":"io","severity":"error","message":"cannot open: No such file or directory"}\n' \
    "" -- "$cli" lint --format json nope.json
if [ -w /dev/full ]; then
    check "stdout full: exit 2, said on stderr" 2 "" \
        "<stdout>: error: cannot write: No space left on device\n" \
        -- sh -c "'$cli' lint many.json dup.json >/dev/full"
else
    echo "SKIP: no /dev/full here: a full stdout is not checked"
fi
try="Try 'contingency-cli lint --help' for more information.\n"
usage='usage: contingency-cli lint [--format FORMAT] [--target TARGET] [OPTION...] (FILE... | [--contingencies C] [--actions A] [--strategies S] [--limit-reductions L] [--monitoring M])\n'
check "no file: usage error" 2 "" "contingency-cli lint: no file given\n$usage$try" -- "$cli" lint
check "unknown format" 2 "" "contingency-cli lint: unknown format (text or json): xml\n$usage$try" \
    -- "$cli" lint --format xml clean.json
check "unknown target" 2 "" \
    "contingency-cli lint: unknown target (powsybl or dynaflow): dynawo\n$usage$try" \
    -- "$cli" lint --target=dynawo clean.json

# ---- past the in-memory table of ids ------------------------------------------------------
# CTG_TEST_LINT_ID_BUDGET (for tests only) lowers the number of ids kept in memory (ID_BUDGET,
# 98304): past it the ids' hashes spill to a temporary file, the findings are held, and a
# confirmation read reports the duplicates when a hash repeats. The output must be the same
# as in memory, in file order. ctest also runs this whole script with a budget of 0
# (cli_lint_spill).

printf '%b' "$H"'{"id":"a","elements":[{"id":"L1","type":"LINE"}]},\n{"id":"a","elements":[]},\n{"id":"b","elements":[{"id":"L1","type":"LINE"},{"id":"L1","type":"LINE"}]},\n{"id":" c","elements":[{"id":"L1","type":"LINE"}]},\n{"id":"b","elements":[]},\n{"id":"a","elements":[{"id":"L2","type":"LINE"},{"id":"G","type":"GENERATOR","voltageLevelId":"V"}]}]}\n' >spill.json
spill_out='spill.json:3:1: warning: /contingencies/1: contingency "a" has no elements
spill.json:3:7: warning: /contingencies/1/id: duplicate contingency id "a", first at 2:7
spill.json:4:49: warning: /contingencies/2/elements/1: element "L1" (LINE) twice in contingency "b", first at 4:23
spill.json:5:7: warning: /contingencies/3/id: contingency id " c" has leading whitespace
spill.json:6:1: warning: /contingencies/4: contingency "b" has no elements
spill.json:6:7: warning: /contingencies/4/id: duplicate contingency id "b", first at 4:7
spill.json:7:7: warning: /contingencies/5/id: duplicate contingency id "a", first at 2:7
spill.json:7:49: warning: /contingencies/5/elements/1: voltageLevelId "V" is ignored on a GENERATOR element: PowSyBl reads a side only on BRANCH, LINE, TWO_WINDINGS_TRANSFORMER, TIE_LINE and HVDC_LINE
'
check "in memory: the findings of spill.json" 1 "$spill_out" "" -- "$cli" lint spill.json
# Two ids in memory: the first duplicate is found there, the two others by the confirmation
# read, each after the findings before it in the file and before those after it.
check "spilled after 2 ids: the same findings, in file order" 1 "$spill_out" "" \
    -- env CTG_TEST_LINT_ID_BUDGET=2 "$cli" lint spill.json
check "spilled from the first id: the same findings" 1 "$spill_out" "" \
    -- env CTG_TEST_LINT_ID_BUDGET=0 "$cli" lint spill.json
spill_stdin=$(printf '%s' "$spill_out" | sed 's/^spill\.json:/<stdin>:/')
check "spilled, on stdin: read twice from its copy" 1 "$spill_stdin\n" "" \
    -- sh -c "CTG_TEST_LINT_ID_BUDGET=2 '$cli' lint - <spill.json"
gzip -c spill.json >spill.json.gz
check "spilled, .gz on stdin" 1 "$spill_stdin\n" "" \
    -- sh -c "CTG_TEST_LINT_ID_BUDGET=0 '$cli' lint - <spill.json.gz"
mkdir -p tmp
check "spilled, on stdin: its copy in \$TMPDIR is removed" 0 "" "" \
    -- sh -c "TMPDIR=tmp CTG_TEST_LINT_ID_BUDGET=1 '$cli' lint - <spill.json >/dev/null; ls tmp"
check "stdin cannot be copied: the error names \$TMPDIR" 2 "" \
    "<stdin>: error: cannot create a copy of stdin in none: No such file or directory\n" \
    -- sh -c "TMPDIR=none '$cli' lint - <spill.json"
check "spilled, validate --strict: the same findings" 1 "${spill_out}clean.json: ok\n" "" \
    -- env CTG_TEST_LINT_ID_BUDGET=2 "$cli" validate --strict spill.json clean.json
# The kind is said once, before the table fills: not again by the confirmation read.
printf '%b' '{"type":"list","name":"o","contingencyLists":[\n{"type":"identifier","version":"1.2","name":"i","identifiers":[]},\n{"type":"default","name":"b","contingencies":[\n{"id":"x","elements":[]},\n{"id":"x","elements":[]}]}]}\n' >spillkind.json
check "spilled, --target dynaflow: the kind said once" 1 \
    'spillkind.json:1:9: warning: /type: dynaflow-launcher reads only "default" lists, not "list" lists\nspillkind.json:4:1: warning: /contingencyLists/1/contingencies/0: contingency "x" has no elements\nspillkind.json:5:1: warning: /contingencyLists/1/contingencies/1: contingency "x" has no elements\nspillkind.json:5:7: warning: /contingencyLists/1/contingencies/1/id: duplicate contingency id "x", first at 4:7\n' \
    "" -- env CTG_TEST_LINT_ID_BUDGET=1 "$cli" lint --target dynaflow spillkind.json
# No hash repeats past the table: the held findings are printed, the file read once.
printf '%b' "$H"'{"id":"a","elements":[]},\n{"id":"b","elements":[]},\n{"id":" c","elements":[{"id":"L1","type":"LINE"}]},\n{"id":"d","elements":[]}]}\n' >held.json
held_out='held.json:2:1: warning: /contingencies/0: contingency "a" has no elements\nheld.json:3:1: warning: /contingencies/1: contingency "b" has no elements\nheld.json:4:7: warning: /contingencies/2/id: contingency id " c" has leading whitespace\nheld.json:5:1: warning: /contingencies/3: contingency "d" has no elements\n'
check "spilled without a repeat: the held findings" 1 "$held_out" "" \
    -- env CTG_TEST_LINT_ID_BUDGET=1 "$cli" lint held.json
check "spilled without a repeat, --format json" 1 \
    '{"file":"held.json","line":2,"column":1,"path":"/contingencies/0","code":"empty-contingency","severity":"warning","message":"contingency \\"a\\" has no elements"}\n{"file":"held.json","line":3,"column":1,"path":"/contingencies/1","code":"empty-contingency","severity":"warning","message":"contingency \\"b\\" has no elements"}\n{"file":"held.json","line":4,"column":7,"path":"/contingencies/2/id","code":"id-whitespace","severity":"warning","message":"contingency id \\" c\\" has leading whitespace"}\n{"file":"held.json","line":5,"column":1,"path":"/contingencies/3","code":"empty-contingency","severity":"warning","message":"contingency \\"d\\" has no elements"}\n' \
    "" -- env CTG_TEST_LINT_ID_BUDGET=1 "$cli" lint --format json held.json
check "spilled, 3001 contingencies: the repeat of the first found" 1 \
    'many.json:3002:7: warning: /contingencies/3000/id: duplicate contingency id "N-1_0", first at 2:7\n' \
    "" -- env CTG_TEST_LINT_ID_BUDGET=100 "$cli" lint many.json
# An error after the spill: the findings before it, as in memory.
printf '%b' "$H"'{"id":"a","elements":[]},\n{"id":"b","elements":[]},\n{"id":"a","elements":[]},\n{"id":"c" "elements":[]}]}\n' >spillbad.json
check "spilled, then invalid: the findings before the error, then the error" 1 \
    'spillbad.json:2:1: warning: /contingencies/0: contingency "a" has no elements\nspillbad.json:3:1: warning: /contingencies/1: contingency "b" has no elements\nspillbad.json:4:1: warning: /contingencies/2: contingency "a" has no elements\nspillbad.json:4:7: warning: /contingencies/2/id: duplicate contingency id "a", first at 2:7\n' \
    "spillbad.json:5:11: error: /contingencies/3: $syntax_text\n" \
    -- env CTG_TEST_LINT_ID_BUDGET=1 "$cli" lint spillbad.json

# ---- validate --strict --------------------------------------------------------------------

check "validate --strict: a clean file is ok" 0 "clean.json: ok\n" "" \
    -- "$cli" validate --strict clean.json
check "validate --strict: lint's findings, not ok, exit 1" 1 "${dup_out}clean.json: ok\n" "" \
    -- "$cli" validate --strict dup.json clean.json
check "validate --strict --quiet: findings only" 1 "$dup_out" "" \
    -- "$cli" validate --strict -q clean.json dup.json
check "validate --strict: an invalid file as validate says it" 1 \
    'broken.json:2:1: warning: /contingencies/0: contingency "a" has no elements\n' \
    "broken.json:3:11: error: /contingencies/1: $syntax_text\n" \
    -- "$cli" validate --strict broken.json

check "validate --strict --format json: the findings as lint --format json, no ok lines" 1 \
    '{"file":"dup.json","line":4,"column":8,"path":"/contingencies/2/id","code":"duplicate-id","severity":"warning","message":"duplicate contingency id \\"a\\", first at 2:7"}\n{"file":"dup.json","line":5,"column":7,"path":"/contingencies/3/id","code":"duplicate-id","severity":"warning","message":"duplicate contingency id \\"a\\", first at 2:7"}\n' \
    "" -- "$cli" validate --strict --format json clean.json dup.json
check "validate --strict is not lenient" 2 "" \
    "contingency-cli validate: --strict reads strictly: not with --lenient or --max-errors\nusage: contingency-cli validate [--lenient] [--max-errors N] [--format text|json] [OPTION...] FILE...\nTry 'contingency-cli validate --help' for more information.\n" \
    -- "$cli" validate --strict --max-errors 3 clean.json

echo "$((count - failures)) of $count lint checks passed"
[ "$failures" -eq 0 ]
