#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# convert, stats and validate of the security-analysis documents (action lists, operator strategies,
# limit reductions, contingency contexts, state monitors) end to end: exact output bytes, the
# upgrade of an old version to the current one, gzip, stdin, atomic output on errors, and the
# usage errors of the options that only contingency lists take.
# usage: cli_sa_test.sh CLI TESTDATA_DIR WORK_DIR
set -u

cli=$1 data=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)

# The files are named relative to $work, as the messages then name them.
rm -rf "$work" && mkdir -p "$work" && cp -R "$data/sa" "$work/sa" && cd "$work" || exit 2

. "$here/cli_check.sh"

usage="usage: contingency-cli convert [OPTION...] IN OUT\nTry 'contingency-cli convert --help' for more information.\n"

# ---- convert ------------------------------------------------------------------------------

# upgraded KIND FILE OUT VERSION: sa/FILE-v1.0.json is written to OUT.json as VERSION, as
# sa/FILE-v1.0-as-VERSION.json holds it.
upgraded() {
    check "convert $1 list 1.0 writes $4" 0 "" "" -- "$cli" convert "sa/$2-v1.0.json" "$3.json"
    check "$1 list $4 byte for byte as expected" 0 "" "" -- cmp "sa/$2-v1.0-as-$4.json" "$3.json"
}
upgraded action actions a 1.3
upgraded strategy strategies s 1.2
check "convert action list stdin to stdout" 0 "@sa/actions-v1.0-as-1.3.json" "" \
    -- sh -c "'$cli' convert - - <sa/actions-v1.0.json"
# Current writer output comes back unchanged, for every kind that has such a file here.
for f in actions-every-type limits-roundtrip strategies-conditions strategies-contexts \
    strategies-extensions; do
    check "convert $f back byte for byte" 0 "@sa/$f.json" "" -- "$cli" convert "sa/$f.json" -
done
check "convert contexts" 0 '[ {\n  "contextType" : "ALL"\n}, {\n  "contextType" : "SPECIFIC",\n  "contingencyId" : "c1"\n}, {\n  "contextType" : "SPECIFIC",\n  "contingencyId" : "c1"\n}, {\n  "contextType" : "ONLY_CONTINGENCIES"\n} ]' "" \
    -- "$cli" convert sa/contexts.json -
# Monitor ids come out in Java hash order: "b2","b3","b1".
check "convert monitors (compact, hash order)" 0 '[{"contingencyContext":{"contextType":"SPECIFIC","contingencyId":"N-1"},"branchIds":["b2","b3","b1"],"voltageLevelIds":["vl"],"threeWindingsTransformerIds":["t3"]},{"contingencyContext":{"contextType":"NONE"},"branchIds":[],"voltageLevelIds":["vl","vl2"],"threeWindingsTransformerIds":[]}]' "" \
    -- "$cli" convert sa/monitors-two.json -
check "convert to .gz" 0 "" "" -- "$cli" convert sa/actions-v1.0.json a.json.gz
check "the .gz is gzip" 0 "@sa/actions-v1.0-as-1.3.json" "" -- gzip -dc a.json.gz
check "the .gz reads back" 0 "@sa/actions-v1.0-as-1.3.json" "" -- "$cli" convert a.json.gz -
check "a .gz on stdin reads back" 0 "@sa/actions-v1.0-as-1.3.json" "" \
    -- sh -c "'$cli' convert - - <a.json.gz"
check "convert writes an identifier action list back" 0 "" "" \
    -- sh -c "'$cli' convert sa/idactions-builders.json id.json && cmp sa/idactions-builders.json id.json"
check "convert replaces a file" 0 "" "" \
    -- sh -c "echo old >r.json && '$cli' convert sa/strategies-v1.0.json r.json && cmp sa/strategies-v1.0-as-1.2.json r.json"

# Errors: the output is left as it was, no temporary file beside it.
printf '{"version":"1.3","actions":[{"type":"SWITCH","id":"x"}]}' >bad-action.json
# What every read of it says after the file's name.
missing=':1:29: error: /actions/0/switchId: missing required field "switchId"\n'
printf '{"version":"1.0","actions":[],"elementIdentifiers":[]}' >identifier-actions.json
printf 'previous\n' >kept.json
check "convert of a bad action list" 1 "" \
    "bad-action.json$missing" \
    -- "$cli" convert bad-action.json kept.json
check "convert of a bad action list from stdin" 1 "" \
    "<stdin>$missing" \
    -- sh -c "'$cli' convert - kept.json <bad-action.json"
check "convert of a bad identifier action list" 1 "" \
    'identifier-actions.json:1:52: error: /elementIdentifiers: expected object for "elementIdentifiers", got array\n' \
    -- "$cli" convert identifier-actions.json kept.json
check "the output is untouched" 0 "previous\n" "" -- cat kept.json
check "no temporary file is left" 0 "" "" -- sh -c "ls -A | grep ctg-tmp; true"

# The options of contingency lists only: a usage error once IN's kind is known, nothing written.
# lists_only NAME OPTION INPUT "A KIND" COMMAND...
lists_only() {
    name=$1 option=$2 input=$3 kind=$4
    shift 4
    check "$name" 2 "" \
        "contingency-cli convert: $option applies to contingency lists only; $input is $kind\n$usage" \
        -- "$@"
}
lists_only "--to csv" "--to csv" sa/monitors.json "a state-monitor list" \
    "$cli" convert --to csv sa/monitors.json kept.json
lists_only "an OUT.csv" "--to csv" sa/contexts.json "a contingency-context list" \
    "$cli" convert sa/contexts.json kept.csv
lists_only "--to jsonl" "--to jsonl" sa/limits-roundtrip.json "a limit-reduction list" \
    "$cli" convert --to jsonl sa/limits-roundtrip.json kept.json
lists_only "--to-version" "--to-version" sa/actions-v1.0.json "an action list" \
    "$cli" convert --to-version 1.0 sa/actions-v1.0.json kept.json
lists_only "--compact from stdin" "--compact" "<stdin>" "an operator-strategy list" \
    sh -c "'$cli' convert --compact - kept.json <sa/strategies-v1.0.json"
lists_only "--allow-newer" "--allow-newer" sa/actions-v1.0.json "an action list" \
    "$cli" convert --allow-newer sa/actions-v1.0.json kept.json
check "the output is still untouched" 0 "previous\n" "" -- cat kept.json
check "no OUT.csv was made" 1 "" "" -- test -e kept.csv

# ---- stats --------------------------------------------------------------------------------

# What stats prints of a file after its "file:" line, for the files counted more than once.
old_actions="kind: action list
actions: 3
nested actions: 1
action types:
  SWITCH: 1
  MULTIPLE_ACTIONS: 1
  PHASE_TAP_CHANGER_TAP_POSITION: 1
  BOUNDARY_LINE: 1
"
contexts="kind: contingency-context list
contexts: 4
contingencies: 1
context types:
  ALL: 1
  SPECIFIC: 2
  ONLY_CONTINGENCIES: 1
"
monitors_two="kind: state-monitor list
monitors: 2
contingencies: 1
branch ids: 3
voltage level ids: 3
three-windings transformer ids: 1
context types:
  NONE: 1
  SPECIFIC: 1
"
# Their JSON entries after the "file" member.
old_actions_json='"kind":"action list","actions":3,"nestedActions":1,"actionTypes":{"SWITCH":1,"MULTIPLE_ACTIONS":1,"PHASE_TAP_CHANGER_TAP_POSITION":1,"BOUNDARY_LINE":1}}'
contexts_json='"kind":"contingency-context list","contexts":4,"contingencies":1,"contextTypes":{"ALL":1,"SPECIFIC":2,"ONLY_CONTINGENCIES":1}}'

check "stats action list" 0 "file: sa/actions-every-type.json
kind: action list
actions: 10
nested actions: 2
action types:
  SWITCH: 1
  TERMINALS_CONNECTION: 1
  MULTIPLE_ACTIONS: 2
  RATIO_TAP_CHANGER_TAP_POSITION: 1
  PHASE_TAP_CHANGER_REGULATION: 1
  PCT_LOAD_CHANGE: 1
  GENERATOR: 1
  HVDC: 1
  SHUNT_COMPENSATOR_POSITION: 1
  STATIC_VAR_COMPENSATOR: 1
  AREA_INTERCHANGE_TARGET_ACTION: 1
" "" -- "$cli" stats sa/actions-every-type.json
# An identifier action list: its builders are counted by type, as actions once resolved.
check "stats identifier action list" 0 "file: sa/idactions-builders.json
kind: identifier action list
actions: 1
identified actions: 3
nested actions: 0
action types:
  SWITCH: 2
  MULTIPLE_ACTIONS: 1
  HVDC: 1
" "" -- "$cli" stats sa/idactions-builders.json
check "stats --format json identifier action list" 0 '{"files":[
{"file":"sa/idactions-builders.json","kind":"identifier action list","actions":1,"identifiedActions":3,"nestedActions":0,"actionTypes":{"SWITCH":2,"MULTIPLE_ACTIONS":1,"HVDC":1}}
]}
' "" -- "$cli" stats --format json sa/idactions-builders.json
check "stats old action list" 0 "file: sa/actions-v1.0.json
$old_actions" "" -- "$cli" stats sa/actions-v1.0.json
check "stats strategies" 0 "file: sa/strategies-conditions.json
kind: operator-strategy list
strategies: 1
stages: 8
action references: 8
contingencies: 1
condition types:
  TRUE_CONDITION: 1
  ANY_VIOLATION_CONDITION: 1
  ALL_VIOLATION: 1
  AT_LEAST_ONE_VIOLATION: 1
  INJECTION_THRESHOLD_CONDITION: 1
  BRANCH_THRESHOLD_CONDITION: 1
  THREE_WINDINGS_TRANSFORMER_THRESHOLD_CONDITION: 1
  AC_DC_CONVERTER_THRESHOLD_CONDITION: 1
" "" -- "$cli" stats sa/strategies-conditions.json
check "stats strategies of several contingencies" 0 "file: sa/strategies-contexts.json
kind: operator-strategy list
strategies: 6
stages: 1
action references: 1
contingencies: 3
condition types:
  TRUE_CONDITION: 1
" "" -- "$cli" stats sa/strategies-contexts.json
check "stats limit reductions" 0 "file: sa/limits-roundtrip.json
kind: limit-reduction list
reductions: 2
network-element criteria: 4
duration criteria: 2
limit types:
  APPARENT_POWER: 1
  CURRENT: 1
" "" -- "$cli" stats sa/limits-roundtrip.json
check "stats empty limit reductions" 0 "file: sa/limit-reductions.json
kind: limit-reduction list
reductions: 0
network-element criteria: 0
duration criteria: 0
limit types:
" "" -- "$cli" stats sa/limit-reductions.json
check "stats contexts and monitors" 0 "file: sa/contexts.json
$contexts
file: sa/monitors-two.json
$monitors_two" "" -- "$cli" stats sa/contexts.json sa/monitors-two.json
check "stats --format json, every kind and a list" 0 '{"files":[
{"file":"sa/actions-v1.0.json",'"$old_actions_json"',
{"file":"sa/strategies-contexts.json","kind":"operator-strategy list","strategies":6,"stages":1,"actionReferences":1,"contingencies":3,"conditionTypes":{"TRUE_CONDITION":1}},
{"file":"sa/limits-roundtrip.json","kind":"limit-reduction list","reductions":2,"equipmentCriteria":4,"durationCriteria":2,"limitTypes":{"APPARENT_POWER":1,"CURRENT":1}},
{"file":"sa/contexts.json",'"$contexts_json"',
{"file":"sa/monitors-two.json","kind":"state-monitor list","monitors":2,"contingencies":1,"branchIds":3,"voltageLevelIds":3,"threeWindingsTransformerIds":1,"contextTypes":{"NONE":1,"SPECIFIC":1}},
{"file":"sa/limit-reductions.json","kind":"limit-reduction list","reductions":0,"equipmentCriteria":0,"durationCriteria":0,"limitTypes":{}}
]}
' "" -- "$cli" stats --format json sa/actions-v1.0.json sa/strategies-contexts.json \
    sa/limits-roundtrip.json sa/contexts.json sa/monitors-two.json sa/limit-reductions.json
check "stats of a gzip action list" 0 "file: a.json.gz
$old_actions" "" -- "$cli" stats a.json.gz
check "stats of stdin: a list, then a document" 0 "file: <stdin>
list: sample (default, version 1.1)
contingencies: 5
elements: 7
  GENERATOR: 1
  HVDC_LINE: 1
  BUSBAR_SECTION: 1
  LINE: 1
  TWO_WINDINGS_TRANSFORMER: 1
  LOAD: 1
  SWITCH: 1
largest: N-2_GEN_LOAD (2 elements)
file: <stdin>
$monitors_two" "" -- sh -c "'$cli' stats - <'$data/valid/sample.json' && '$cli' stats - <sa/monitors-two.json"
check "stats --format json of gzip on stdin between files" 0 '{"files":[
{"file":"sa/contexts.json",'"$contexts_json"',
{"file":"<stdin>",'"$old_actions_json"',
{"file":"sa/monitors.json","kind":"state-monitor list","monitors":1,"contingencies":0,"branchIds":2,"voltageLevelIds":0,"threeWindingsTransformerIds":0,"contextTypes":{"ALL":1}}
]}
' "" -- sh -c "'$cli' stats --format json sa/contexts.json - sa/monitors.json <a.json.gz"
check "stats of a bad document from stdin" 1 "" \
    "<stdin>$missing" \
    -- sh -c "'$cli' stats - <bad-action.json"
check "stats of a bad document, then a good one" 1 "file: sa/contexts.json
$contexts" "bad-action.json$missing" \
    -- "$cli" stats bad-action.json sa/contexts.json
check "stats --format json of a bad document" 1 '{"files":[
{"file":"bad-action.json","error":{"file":"bad-action.json","line":1,"column":29,"path":"/actions/0/switchId","code":"schema","severity":"error","message":"missing required field \\"switchId\\""}
}
]}
' "bad-action.json$missing" \
    -- "$cli" stats --format json bad-action.json

# ---- validate -----------------------------------------------------------------------------

# From stdin as from a file: every kind, gzip, with files around it, JSON and errors.
for pair in "actions-every-type:action list" "idactions-builders:identifier action list" \
    "strategies-conditions:operator-strategy list" "limits-roundtrip:limit-reduction list" \
    "contexts:contingency-context list" "monitors-two:state-monitor list"; do
    f=${pair%%:*} kind=${pair#*:}
    check "validate $f from stdin" 0 "<stdin>: ok ($kind)\n" "" \
        -- sh -c "'$cli' validate - <sa/$f.json"
done
check "validate gzip from stdin between files" 0 \
    "sa/contexts.json: ok (contingency-context list)\n<stdin>: ok (action list)\n$data/valid/sample.json: ok\n" \
    "" -- sh -c "'$cli' validate sa/contexts.json - '$data/valid/sample.json' <a.json.gz"
check "validate a contingency list from stdin" 0 "<stdin>: ok\n" "" \
    -- sh -c "'$cli' validate - <'$data/valid/sample.json'"
check "validate --format json from stdin" 0 "" "" \
    -- sh -c "'$cli' validate --format json - <sa/monitors-two.json"
check "validate a bad document from stdin" 1 "" \
    "<stdin>$missing" \
    -- sh -c "'$cli' validate - <bad-action.json"
check "validate --format json of a bad document from stdin" 1 \
    '{"file":"<stdin>","line":1,"column":29,"path":"/actions/0/switchId","code":"schema","severity":"error","message":"missing required field \\"switchId\\""}\n' \
    "" -- sh -c "'$cli' validate --format json - <bad-action.json"
# --lenient and --max-errors skip bad contingencies; a document has none: it is read strictly,
# from a file or stdin, and its first error is the one reported.
check "validate --lenient of an action list" 0 "sa/actions-every-type.json: ok (action list)\n" "" \
    -- "$cli" validate --lenient sa/actions-every-type.json
check "validate --max-errors of a state-monitor list from stdin" 0 "<stdin>: ok (state-monitor list)\n" \
    "" -- sh -c "'$cli' validate --max-errors 5 - <sa/monitors-two.json"
check "validate --lenient of a bad document from stdin" 1 "" "<stdin>$missing" \
    -- sh -c "'$cli' validate --lenient - <bad-action.json"
check "validate --lenient --format json of a bad document" 1 \
    '{"file":"bad-action.json","line":1,"column":29,"path":"/actions/0/switchId","code":"schema","severity":"error","message":"missing required field \\"switchId\\""}\n' \
    "" -- "$cli" validate --lenient --format json bad-action.json
# A pipe by its path (a FIFO, as `<(cmd)` or /dev/stdin on a pipe give) is read once, as
# stdin is: its bytes are kept to be read again as a document.
mkfifo sa.fifo
check "validate an action list through a FIFO" 0 "sa.fifo: ok (action list)\n" "" \
    -- sh -c "cat sa/actions-every-type.json >sa.fifo & '$cli' validate sa.fifo"
"$cli" stats sa/actions-every-type.json | sed 's|^file: .*|file: sa.fifo|' >stats-file.txt
check "stats of an action list through a FIFO" 0 "@stats-file.txt" "" \
    -- sh -c "cat sa/actions-every-type.json >sa.fifo & '$cli' stats sa.fifo"
check "validate a bad document through a FIFO" 1 "" "sa.fifo$missing" \
    -- sh -c "cat bad-action.json >sa.fifo & '$cli' validate sa.fifo"
rm -f sa.fifo

echo "$((count - failures)) of $count security-analysis CLI checks passed"
[ "$failures" -eq 0 ]
