#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli validate --lenient / --max-errors / --format json, and stats of several files
# and --format json, end to end: exact stdout, stderr and exit status of each case.
# usage: cli_lstream_test.sh CLI TESTDATA_DIR WORK_DIR
set -u

cli=$1 data=$2 work=$3
# Absolute: the cases run from $work, with short file names in the messages.
for v in cli data work; do
    eval "case \$$v in /*) ;; *) $v=\$(pwd)/\$$v ;; esac"
done
sample=$data/valid/sample.json

rm -rf "$work" && mkdir -p "$work" || exit 2

# The harness: check and expect.
. "$(dirname "$0")/cli_check.sh"

# want NAME: the expected bytes, from stdin, into $work/NAME (for check's @FILE).
want() {
    cat >"$work/$1"
}

cd "$work" || exit 2

# Three bad contingencies among good ones: an unknown element type, a missing id, an unknown
# field followed by nested values.
cat >three.json <<'EOF'
{
  "type" : "default",
  "version" : "1.1",
  "name" : "n",
  "contingencies" : [ {
    "id" : "ok1"
  }, {
    "id" : "bad1",
    "elements" : [ { "id" : "X", "type" : "NOPE" } ]
  }, {
    "elements" : [ ]
  }, {
    "id" : "ok2",
    "foo" : { "a" : [ 1, { } ] }
  }, {
    "id" : "ok3"
  } ]
}
EOF
err1='three.json:9:43: error: /contingencies/1/elements/0/type: unknown element type "NOPE"'
err2='three.json:10:6: error: /contingencies/2/id: missing required field "id"'
err3='three.json:14:5: error: /contingencies/3/foo: unknown field "foo"'

check "validate stops at the first error" 1 "" "$err1\n" -- "$cli" validate three.json
check "validate --lenient reports every error" 1 "" "$err1\n$err2\n$err3\n" \
    -- "$cli" validate --lenient three.json
check "validate --lenient: valid files still ok" 1 "$sample: ok\n" "$err1\n$err2\n$err3\n" \
    -- "$cli" validate --lenient three.json "$sample"
check "validate --max-errors 2 stops, files after unread" 1 "" \
    "$err1\n$err2\ncontingency-cli validate: stopped after 2 errors (--max-errors)\n" \
    -- "$cli" validate --max-errors 2 three.json "$sample"
check "validate --max-errors=3 reached on the last error: still stopped" 1 "" \
    "$err1\n$err2\n$err3\ncontingency-cli validate: stopped after 3 errors (--max-errors)\n" \
    -- "$cli" validate --max-errors=3 three.json three.json
check "validate --max-errors counts over files" 1 "" \
    "$err1\n$err2\n$err3\n$err1\ncontingency-cli validate: stopped after 4 errors (--max-errors)\n" \
    -- "$cli" validate --max-errors 4 three.json three.json "$sample"
check "validate --max-errors above the count" 1 "$sample: ok\n" "$err1\n$err2\n$err3\n" \
    -- "$cli" validate --max-errors 10 three.json "$sample"
check "validate --max-errors 0 is no limit" 1 "" "$err1\n$err2\n$err3\n$err1\n$err2\n$err3\n" \
    -- "$cli" validate --max-errors 0 three.json three.json
check "validate -q --max-errors: no note" 1 "" "$err1\n" \
    -- "$cli" validate -q --max-errors 1 three.json
check "validate --lenient from stdin" 1 "" \
    "$(printf '%s\\n' "$err1" "$err2" "$err3" | sed 's/three\.json:/<stdin>:/g')" \
    -- sh -c "'$cli' validate --lenient - <three.json"
gzip -c three.json >three.json.gz
check "validate --lenient of .gz" 1 "" \
    "$(printf '%s\\n' "$err1" "$err2" "$err3" | sed 's/three\.json:/three.json.gz:/g')" \
    -- "$cli" validate --lenient three.json.gz

# JSON diagnostics: one object per line on stdout, nothing on stderr, no "ok" lines.
want three.jsonl <<'EOF'
{"file":"three.json","line":9,"column":43,"path":"/contingencies/1/elements/0/type","code":"schema","severity":"error","message":"unknown element type \"NOPE\""}
{"file":"three.json","line":10,"column":6,"path":"/contingencies/2/id","code":"schema","severity":"error","message":"missing required field \"id\""}
{"file":"three.json","line":14,"column":5,"path":"/contingencies/3/foo","code":"schema","severity":"error","message":"unknown field \"foo\""}
EOF
check "validate --lenient --format json" 1 "@$work/three.jsonl" "" \
    -- "$cli" validate --lenient --format json three.json "$sample"
check "validate --format json of a valid file prints nothing" 0 "" "" \
    -- "$cli" validate --format=json "$sample"
check "validate --format text is the default" 1 "" "$err1\n" \
    -- "$cli" validate --format text three.json
want missing.jsonl <<'EOF'
{"file":"nope.json","line":0,"column":0,"path":"","code":"io","severity":"error","message":"cannot open: No such file or directory"}
EOF
check "validate --format json of a missing file: io, exit 2" 2 "@$work/missing.jsonl" "" \
    -- "$cli" validate --format json nope.json

# What still stops a lenient read: broken syntax (even after a skipped contingency), an error
# in the list's own fields, an identifier list.
printf '{"type":"default","name":"n","contingencies":[\n{"id":"a","x":1},\n{"id":"b"},\n{"id":"c",,}]}' >syntax.json
check "validate --lenient: syntax after a skipped one stops" 1 "" \
    "syntax.json:2:11: error: /contingencies/0/x: unknown field \"x\"\nsyntax.json:4:11: error: /contingencies/2: expected a string key after ',', got ','\n" \
    -- "$cli" validate --lenient syntax.json
want syntax.jsonl <<'EOF'
{"file":"syntax.json","line":2,"column":11,"path":"/contingencies/0/x","code":"schema","severity":"error","message":"unknown field \"x\""}
{"file":"syntax.json","line":4,"column":11,"path":"/contingencies/2","code":"syntax","severity":"error","message":"expected a string key after ',', got ','"}
EOF
check "validate --lenient --format json: the syntax error's code" 1 "@$work/syntax.jsonl" "" \
    -- "$cli" validate --lenient --format json syntax.json
printf '{"type":"default","version":7,"name":"n","contingencies":[{"id":"a","x":1}]}' >version.json
check "validate --lenient: a bad \"version\" stops" 1 "" \
    "version.json:1:29: error: /version: expected string for \"version\", got number\n" \
    -- "$cli" validate --lenient version.json
printf '{"type":"identifier","version":"1.2","name":"i","identifiers":[{"type":"NOPE"},{"type":"NOPE"}]}' >ids.json
check "validate --lenient: an identifier list stops at its first error" 1 "" \
    "ids.json:1:72: error: /identifiers/0/type: unknown identifier type \"NOPE\"\n" \
    -- "$cli" validate --lenient ids.json
printf '{"type":"list","name":"top","contingencyLists":[\n{"type":"default","name":"a","contingencies":[{"id":"a1","y":0},{"id":"a2"}]},\n{"type":"default","name":"b","contingencies":[{"elements":[]}]}]}' >nested.json
check "validate --lenient: contingencies of nested lists" 1 "" \
    "nested.json:2:58: error: /contingencyLists/0/contingencies/0/y: unknown field \"y\"\nnested.json:3:47: error: /contingencyLists/1/contingencies/0/id: missing required field \"id\"\n" \
    -- "$cli" validate --lenient nested.json

usage_validate="usage: contingency-cli validate [--lenient] [--max-errors N] [--format text|json] [OPTION...] FILE...\nTry 'contingency-cli validate --help' for more information.\n"
check "validate --format xml is a usage error" 2 "" \
    "contingency-cli validate: unknown --format (text or json): xml\n$usage_validate" \
    -- "$cli" validate --format xml three.json
check "validate --max-errors needs a count" 2 "" \
    "contingency-cli validate: --max-errors needs a count: -1\n$usage_validate" \
    -- "$cli" validate --max-errors=-1 three.json
check "validate --max-errors 2x" 2 "" \
    "contingency-cli validate: --max-errors needs a count: 2x\n$usage_validate" \
    -- "$cli" validate --max-errors 2x three.json
check "validate --max-errors without its value" 2 "" \
    "contingency-cli validate: missing value of option: --max-errors\n$usage_validate" \
    -- "$cli" validate three.json --max-errors

# stats: several files, each list's name, kind and version, in document order.
printf '{"type":"list","name":"top","contingencyLists":[\n{"contingencies":[{"id":"a1","elements":[{"id":"L","type":"LINE"}]}],"type":"default","name":"late","version":"1.0"},\n{"type":"list","name":"mid","contingencyLists":[{"type":"default","name":"deep","contingencies":[]}]},\n{"type":"identifier","version":"1.2","name":"ids","identifiers":[]}],\n"version":"1.1"}' >lists.json
printf '{"id":"bare","elements":[{"id":"G","type":"GENERATOR"}]}' >bare.json
want stats.txt <<EOF
file: $sample
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

file: lists.json
list: top (list, version 1.1)
  list: late (default, version 1.0)
  list: mid (list, no version)
    list: deep (default, no version)
  list: ids (identifier, version 1.2)
contingencies: 1
elements: 1
  LINE: 1
largest: a1 (1 element)
identifier lists: 1

file: bare.json
list: none (a bare contingency)
contingencies: 1
elements: 1
  GENERATOR: 1
largest: bare (1 element)
EOF
check "stats of several files" 0 "@$work/stats.txt" "" -- "$cli" stats "$sample" lists.json bare.json
check "stats: a bad file is reported, the others counted" 1 "@$work/stats.txt" "$err1\n" \
    -- "$cli" stats "$sample" three.json lists.json bare.json

want stats.json <<EOF
{"files":[
{"file":"$sample","lists":[{"name":"sample","kind":"default","version":"1.1","depth":0}],"contingencies":5,"elements":7,"elementTypes":{"GENERATOR":1,"HVDC_LINE":1,"BUSBAR_SECTION":1,"LINE":1,"TWO_WINDINGS_TRANSFORMER":1,"LOAD":1,"SWITCH":1},"largest":{"id":"N-2_GEN_LOAD","elements":2}},
{"file":"three.json","error":{"file":"three.json","line":9,"column":43,"path":"/contingencies/1/elements/0/type","code":"schema","severity":"error","message":"unknown element type \\"NOPE\\""}
},
{"file":"lists.json","lists":[{"name":"top","kind":"list","version":"1.1","depth":0},{"name":"late","kind":"default","version":"1.0","depth":1},{"name":"mid","kind":"list","version":null,"depth":1},{"name":"deep","kind":"default","version":null,"depth":2},{"name":"ids","kind":"identifier","version":"1.2","depth":1}],"contingencies":1,"elements":1,"elementTypes":{"LINE":1},"largest":{"id":"a1","elements":1}},
{"file":"bare.json","lists":[{"name":null,"kind":"contingency","version":null,"depth":0}],"contingencies":1,"elements":1,"elementTypes":{"GENERATOR":1},"largest":{"id":"bare","elements":1}}
]}
EOF
check "stats --format json, an entry per file" 1 "@$work/stats.json" "$err1\n" \
    -- "$cli" stats --format json "$sample" three.json lists.json bare.json
printf '{"type":"default","name":"q\\"\\u0001","contingencies":[]}' >empty.json
want empty.json.out <<'EOF'
{"files":[
{"file":"<stdin>","lists":[{"name":"q\"\u0001","kind":"default","version":null,"depth":0}],"contingencies":0,"elements":0,"elementTypes":{},"largest":null}
]}
EOF
check "stats --format json: stdin, an empty list, escaped name" 0 "@$work/empty.json.out" "" \
    -- sh -c "'$cli' stats --format=json - <empty.json"
if command -v python3 >/dev/null 2>&1; then
    check "stats --format json is one JSON document" 0 "" "" \
        -- sh -c "'$cli' stats --format json '$sample' three.json lists.json 2>/dev/null | python3 -c 'import json,sys; json.load(sys.stdin)'"
else
    echo "SKIP: python3 is not installed: the JSON document is not parsed"
fi
usage_stats="usage: contingency-cli stats [--format text|json] [OPTION...] FILE...\nTry 'contingency-cli stats --help' for more information.\n"
check "stats --format xml is a usage error" 2 "" \
    "contingency-cli stats: unknown --format (text or json): xml\n$usage_stats" \
    -- "$cli" stats --format xml "$sample"

echo "$((count - failures)) of $count CLI checks passed"
[ "$failures" -eq 0 ]
