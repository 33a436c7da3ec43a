#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli filter, merge and split end to end: exact output bytes, messages and exit
# statuses; the round trips split -> merge and filter keeping everything.
# usage: cli_pipeline_test.sh CLI TESTDATA_DIR WORK_DIR
set -u

cli=$1 data=$2 work=$3
sample=$data/valid/sample.json
ext=$data/valid/extension-types.json

rm -rf "$work" && mkdir -p "$work" || exit 2
. "$(dirname "$0")/cli_check.sh"

# What convert writes: the reference of every round trip.
"$cli" convert "$sample" "$work/sample.conv" || exit 2
"$cli" convert "$ext" "$work/ext.conv" || exit 2

head='{"type":"default","version":"1.1","name":'
c1='{"id":"c1","elements":[{"id":"L1","type":"LINE"}]}'
c2='{"id":"c2","elements":[{"id":"G1","type":"GENERATOR"},{"id":"L2","type":"LINE"}]}'
c3='{"id":"c3","elements":[{"id":"L2","type":"LINE"},{"id":"G1","type":"GENERATOR"}]}'
c1b='{"id":"c1","elements":[{"id":"T1","type":"TWO_WINDINGS_TRANSFORMER"}]}'
printf '%s"a","contingencies":[%s,%s]}' "$head" "$c1" "$c2" >"$work/a.json"
printf '%s"b","contingencies":[%s,\n%s]}' "$head" "$c3" "$c1b" >"$work/b.json"
printf '%s"e","contingencies":[]}' "$head" >"$work/empty.json"
a=$work/a.json b=$work/b.json

# ---- filter -----------------------------------------------------------------------------
check "filter keeping everything is convert" 0 "" "" -- "$cli" filter "$sample" "$work/f.json"
check "  byte for byte" 0 "" "" -- cmp "$work/f.json" "$work/sample.conv"
check "filter keeps extensions" 0 "@$work/ext.conv" "" -- "$cli" filter "$ext" -
check "filter --type LINE" 0 "$head\"a\",\"contingencies\":[$c1,$c2]}" "" \
    -- "$cli" filter --compact --type LINE "$a" -
check "filter --type GENERATOR,SWITCH: any element" 0 "$head\"a\",\"contingencies\":[$c2]}" "" \
    -- "$cli" filter --compact --type GENERATOR,SWITCH "$a" -
# A glob's ? and [...] take a character, not a byte: e-acute is two bytes.
cu=$(printf '{"id":"\303\2511","elements":[{"id":"L1","type":"LINE"}]}')
printf '%s"u","contingencies":[%s]}' "$head" "$cu" >"$work/utf8.json"
check "filter --id: ? is one UTF-8 character" 0 "$head\"u\",\"contingencies\":[$cu]}" "" \
    -- "$cli" filter --compact --id '?1' "$work/utf8.json" -
check "filter --id: ?? is two" 0 "$head\"u\",\"contingencies\":[]}" "" \
    -- "$cli" filter --compact --id '??1' "$work/utf8.json" -
check "filter --id: a set of one UTF-8 character" 0 "$head\"u\",\"contingencies\":[$cu]}" "" \
    -- "$cli" filter --compact --id "$(printf '[\303\251]1')" "$work/utf8.json" -
# A [ without its ] is itself and the rest still a pattern, '[a-' as '[a' (POSIX).
cb1='{"id":"[a-1","elements":[{"id":"L1","type":"LINE"}]}'
cb2='{"id":"a1","elements":[{"id":"L1","type":"LINE"}]}'
cb3='{"id":"[abc","elements":[{"id":"L1","type":"LINE"}]}'
cb4='{"id":"[a-","elements":[{"id":"L1","type":"LINE"}]}'
printf '%s"k","contingencies":[%s,%s,%s,%s]}' "$head" "$cb1" "$cb2" "$cb3" "$cb4" >"$work/brackets.json"
check "filter --id: an unclosed range is literal" 0 "$head\"k\",\"contingencies\":[$cb1,$cb4]}" "" \
    -- "$cli" filter --compact --id '[a-*' "$work/brackets.json" -
check "filter --id: an unclosed set is literal" 0 "$head\"k\",\"contingencies\":[$cb3]}" "" \
    -- "$cli" filter --compact --id '[abc' "$work/brackets.json" -
check "filter --id: '[a-' is the id '[a-' only" 0 "$head\"k\",\"contingencies\":[$cb4]}" "" \
    -- "$cli" filter --compact --id '[a-' "$work/brackets.json" -
check "filter --id: a closed range is a set" 0 "$head\"k\",\"contingencies\":[$cb2]}" "" \
    -- "$cli" filter --compact --id '[a-]1' "$work/brackets.json" -
check "filter --id glob" 0 "$head\"a\",\"contingencies\":[$c2]}" "" \
    -- "$cli" filter --compact --id '*2' "$a" -
check "filter --element glob" 0 "$head\"a\",\"contingencies\":[$c2]}" "" \
    -- "$cli" filter --compact --element 'G?' "$a" -
check "filter --min-elements" 0 "$head\"a\",\"contingencies\":[$c2]}" "" \
    -- "$cli" filter --compact --min-elements 2 "$a" -
check "filter --max-elements" 0 "$head\"a\",\"contingencies\":[$c1]}" "" \
    -- "$cli" filter --compact --max-elements=1 "$a" -
check "filter selectors ANDed" 0 "$head\"a\",\"contingencies\":[]}" "" \
    -- "$cli" filter --compact --type LINE --element 'G*' --max-elements 1 "$a" -
check "filter --invert" 0 "$head\"a\",\"contingencies\":[$c1]}" "" \
    -- "$cli" filter --compact --invert --element 'G*' "$a" -
check "filter stdin to -o stdout" 0 "$head\"a\",\"contingencies\":[$c2]}" "" \
    -- sh -c "'$cli' filter --compact --id c2 - -o - <'$a'"
gzip -c "$a" >"$work/a.json.gz"
check "filter .gz in and out" 0 "" "" \
    -- "$cli" filter --compact --id c1 "$work/a.json.gz" "$work/f.json.gz"
check "  the .gz output" 0 "$head\"a\",\"contingencies\":[$c1]}" "" \
    -- gzip -dc "$work/f.json.gz"
check "filter an empty list" 0 "$head\"e\",\"contingencies\":[]}" "" \
    -- "$cli" filter --compact --id x "$work/empty.json" -
printf 'previous\n' >"$work/kept"
check "filter an identifier list" 1 "" \
    "$data/valid/identifier-v1_0.json: error: /: a list of type \"identifier\", not \"default\"\n" \
    -- "$cli" filter "$data/valid/identifier-v1_0.json" "$work/kept"
check "  OUT left as it was" 0 "previous\n" "" -- cat "$work/kept"
check "filter an invalid list" 1 "" \
    "$data/cli/unknown-type.json:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" filter "$data/cli/unknown-type.json" "$work/kept"
check "  OUT left as it was" 0 "previous\n" "" -- cat "$work/kept"
usage_filter="usage: contingency-cli filter [OPTION...] IN OUT\nTry 'contingency-cli filter --help' for more information.\n"
check "filter --type unknown" 2 "" \
    "contingency-cli filter: unknown element type in --type: LINE,CABLE\n$usage_filter" \
    -- "$cli" filter --type LINE,CABLE "$a" -
check "filter --min-elements not a count" 2 "" \
    "contingency-cli filter: not a count: --min-elements\n$usage_filter" \
    -- "$cli" filter --min-elements x "$a" -
check "filter one operand" 2 "" "contingency-cli filter: missing IN or OUT\n$usage_filter" \
    -- "$cli" filter "$a"
# A valued option takes one value: a second one is refused, not silently taken instead.
check "filter --id given twice" 2 "" "contingency-cli filter: option given twice: --id\n$usage_filter" \
    -- "$cli" filter --id c1 --id c2 "$a" -
check "filter -o and --output= both" 2 "" \
    "contingency-cli filter: option given twice: --output\n$usage_filter" \
    -- "$cli" filter -o "$work/o1.json" --output="$work/o2.json" "$a"
check "filter --output and -o both" 2 "" "contingency-cli filter: option given twice: -o\n$usage_filter" \
    -- "$cli" filter --output "$work/o1.json" -o "$work/o2.json" "$a"
check "  nothing written" 0 "" "" -- sh -c "! ls '$work'/o1.json '$work'/o2.json 2>/dev/null"
check "filter: a flag twice is harmless" 0 "$head\"a\",\"contingencies\":[$c1]}" "" \
    -- "$cli" filter --compact --compact --id c1 "$a" -

# ---- split ------------------------------------------------------------------------------
check "split --parts 2" 0 "" "" -- "$cli" split "$sample" --parts 2 "$work/p"
check "  balanced by elements (4 and 3), in order" 0 \
    "$work/p-0001.json\n$work/p-0002.json\n" "" -- sh -c "ls '$work'/p-*"
check "  part 1" 0 "$head\"sample\",\"contingencies\":[\"N-1_NHV1_NHV2_1\",\"N-1_NGEN_NHV1\",\"N-2_GEN_LOAD\"]}" "" \
    -- sh -c "'$cli' convert --compact '$work/p-0001.json' - | sed 's/{\"id\":\(\"[^\"]*\"\)[^]]*]}/\1/g'"
check "  part 2" 0 "$head\"sample\",\"contingencies\":[\"N-1_S1VL1_BBS\",\"N-2_HVDC1_BREAKER\"]}" "" \
    -- sh -c "'$cli' convert --compact '$work/p-0002.json' - | sed 's/{\"id\":\(\"[^\"]*\"\)[^]]*]}/\1/g'"
check "  merge gives back the input" 0 "@$work/sample.conv" "" \
    -- "$cli" merge "$work/p-0001.json" "$work/p-0002.json" -
check "split --size 2" 0 "" "" -- "$cli" split "$sample" --size 2 "$work/s"
check "  parts of at most 2 elements" 0 "$work/s-0001.json\n$work/s-0002.json\n$work/s-0003.json\n$work/s-0004.json\n" "" \
    -- sh -c "ls '$work'/s-*"
check "  merge gives back the input" 0 "@$work/sample.conv" "" \
    -- sh -c "'$cli' merge '$work'/s-*.json -"
check "split --parts 7 of 5 contingencies: the last ones empty" 0 "" "" \
    -- "$cli" split --compact "$sample" --parts 7 "$work/e"
check "  part 7" 0 "$head\"sample\",\"contingencies\":[]}" "" -- cat "$work/e-0007.json"
check "  merge gives back the input" 0 "@$work/sample.conv" "" \
    -- sh -c "'$cli' merge '$work'/e-*.json -"
check "split stdin --parts 2 (copied, read twice)" 0 "" "" \
    -- sh -c "'$cli' split - --parts 2 '$work/i' <'$sample'"
check "  merge gives back the input" 0 "@$work/sample.conv" "" \
    -- sh -c "'$cli' merge '$work'/i-*.json -"
# --parts counts the elements with a quick scan (brackets) that the writing read checks.
q1='{"id":"q{1","elements":[{"id":"L1","type":"LINE"}]}'
q2='{"id":"q{2","elements":[{"id":"L2","type":"LINE"}]}'
q3='{"id":"q3","elements":[{"id":"L3","type":"LINE"}]}'
q4='{"id":"q4","elements":[{"id":"L4","type":"LINE"}]}'
printf '%s"q","contingencies":[%s,%s,%s,%s]}' "$head" "$q1" "$q2" "$q3" "$q4" >"$work/q.json"
check "split --parts 2, braces in ids (the quick count wrong): balanced by the true count" 0 \
    "$head\"q\",\"contingencies\":[$q1,$q2]}$head\"q\",\"contingencies\":[$q3,$q4]}" "" \
    -- sh -c "'$cli' split --compact '$work/q.json' --parts 2 '$work/qb' && cat '$work'/qb-*"
printf '%s"q","contingencies":[%s,%s,%s,%s]}' "$head" "$q3" "$q4" "$q3" "$q4" | gzip >"$work/q.json.gz"
check "split --parts 2 of a .gz (no quick count)" 0 \
    "$head\"q\",\"contingencies\":[$q3,$q4]}$head\"q\",\"contingencies\":[$q3,$q4]}" "" \
    -- sh -c "'$cli' split --compact '$work/q.json.gz' --parts 2 '$work/qz' && cat '$work'/qz-*"
n0='{"id":"n0","elements":[]}'
printf '%s"n","contingencies":[%s,%s,%s]}' "$head" "$n0" "$n0" "$n0" >"$work/n.json"
check "split --parts 3 without elements: by contingency count" 0 \
    "$head\"n\",\"contingencies\":[$n0]}$head\"n\",\"contingencies\":[$n0]}$head\"n\",\"contingencies\":[$n0]}" "" \
    -- sh -c "'$cli' split --compact '$work/n.json' --parts 3 '$work/nb' && cat '$work'/nb-*"
check "split --parts of an invalid list: the reader's error, no part" 1 "" \
    "$data/cli/unknown-type.json:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" split --parts 2 "$data/cli/unknown-type.json" "$work/badp"
check "  nothing left" 0 "" "" -- find "$work" -name "badp*"
check "split --parts 2 with extensions (no quick count): merge gives back the input" 0 \
    "@$work/ext.conv" "" \
    -- sh -c "'$cli' split --parts 2 '$ext' '$work/xp' && '$cli' merge '$work'/xp-*.json -"
check "split with extensions: merge gives back the input" 0 "@$work/ext.conv" "" \
    -- sh -c "'$cli' split --size 1 '$ext' '$work/x' && '$cli' merge '$work'/x-*.json -"
check "split an empty list: one empty part" 0 "$head\"e\",\"contingencies\":[]}" "" \
    -- sh -c "'$cli' split --compact --size 3 '$work/empty.json' '$work/z' && cat '$work'/z-*"
check "split an invalid list: no part" 1 "" \
    "$data/cli/unknown-type.json:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" split --size 1 "$data/cli/unknown-type.json" "$work/bad"
check "  nothing left" 0 "" "" -- find "$work" -name "bad*"
printf 'previous\n' >"$work/old-0001.json"
check "split failing after a part: an older part stays as it was" 1 "" \
    "$data/cli/unknown-type.json:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" split --size 1 "$data/cli/unknown-type.json" "$work/old"
check "  its content" 0 "previous\n" "" -- sh -c "cat '$work'/old-*"
check "split in a missing directory" 2 "" \
    "$work/no/p: error: cannot create a temporary directory: No such file or directory\n" \
    -- "$cli" split --size 1 "$sample" "$work/no/p"
# A pipe cannot be read twice either: --parts copies it as it copies stdin.
check "split a pipe --parts 2 (copied, read twice)" 0 "" "" \
    -- sh -c "cat '$sample' | '$cli' split /dev/stdin --parts 2 '$work/pp'"
check "  merge gives back the input" 0 "@$work/sample.conv" "" \
    -- sh -c "'$cli' merge '$work'/pp-*.json -"
mkdir -p "$work/tmp" || exit 2
check "split stdin --parts: errors name <stdin>, not the copy" 1 "" \
    "<stdin>:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- sh -c "TMPDIR='$work/tmp' '$cli' split - --parts 2 '$work/badi' <'$data/cli/unknown-type.json'"
check "  nothing left, the copy of stdin removed" 0 "" "" \
    -- sh -c "find '$work' -name 'badi*'; ls -A '$work/tmp'"
# Balanced by elements 1, 1 and 10, three parts: one contingency each, none empty.
k1='{"id":"k1","elements":[{"id":"A","type":"LINE"}]}'
k2='{"id":"k2","elements":[{"id":"B","type":"LINE"}]}'
k3='{"id":"k3","elements":[{"id":"C","type":"LINE"}'
for i in 2 3 4 5 6 7 8 9 10; do k3="$k3,{\"id\":\"C$i\",\"type\":\"LINE\"}"; done
k3="$k3]}"
printf '%s"k","contingencies":[%s,%s,%s]}' "$head" "$k1" "$k2" "$k3" >"$work/k.json"
check "split --parts 3 of 3 contingencies, a heavy last one: one each" 0 \
    "$head\"k\",\"contingencies\":[$k1]}$head\"k\",\"contingencies\":[$k2]}$head\"k\",\"contingencies\":[$k3]}" "" \
    -- sh -c "'$cli' split --compact '$work/k.json' --parts 3 '$work/kb' && cat '$work'/kb-*"
# Past 9999 parts every name takes the width of the last, so that a glob lists them in order.
awk -v head="$head" 'BEGIN { printf "%s\"w\",\"contingencies\":[", head
    for (i = 0; i < 10001; i++)
        printf "%s{\"id\":\"w%d\",\"elements\":[{\"id\":\"L\",\"type\":\"LINE\"}]}", i ? "," : "", i
    printf "]}" }' >"$work/w.json" || exit 2
# The parts go to /dev/shm where there is one: each part is synced, free there, not on a disk.
wd=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "$work")/ctg-split-XXXXXX") || exit 2
check "split --size 1 into 10001 parts" 0 "" "" -- "$cli" split --size 1 "$work/w.json" "$wd/p"
check "  names of five digits" 0 "$wd/p-00001.json\n$wd/p-10001.json\n" "" \
    -- sh -c "ls '$wd'/p-* | sed -n '1p;\$p'"
"$cli" convert "$work/w.json" "$work/w.conv" || exit 2
check "  merge of the glob gives back the input" 0 "@$work/w.conv" "" \
    -- sh -c "'$cli' merge '$wd'/p-*.json -"
rm -rf "$wd"
usage_split="usage: contingency-cli split [OPTION...] IN (--parts N | --size K) OUTPREFIX\nTry 'contingency-cli split --help' for more information.\n"
check "split needs one of --parts and --size" 2 "" \
    "contingency-cli split: give one of --parts and --size\n$usage_split" \
    -- "$cli" split --parts 2 --size 3 "$sample" "$work/q"
check "split --parts 0" 2 "" "contingency-cli split: not a positive count: --parts\n$usage_split" \
    -- "$cli" split --parts 0 "$sample" "$work/q"
check "split --parts given twice" 2 "" "contingency-cli split: option given twice: --parts\n$usage_split" \
    -- "$cli" split "$sample" --parts 2 --parts 3 "$work/twice"
check "split --parts= given twice" 2 "" "contingency-cli split: option given twice: --parts\n$usage_split" \
    -- "$cli" split "$sample" --parts=2 --parts=2 "$work/twice"
check "  no part written" 0 "" "" -- sh -c "! ls '$work'/twice-* 2>/dev/null"

# ---- merge ------------------------------------------------------------------------------
dup_err="$b:2:7: error: /contingencies/1/id: duplicate contingency id \"c1\", first at $a:1:69 (/contingencies/0/id); --dedupe first or last keeps one\n"
printf 'previous\n' >"$work/kept"
check "merge: a duplicate id names both places" 1 "" "$dup_err" -- "$cli" merge "$a" "$b" "$work/kept"
check "  OUT left as it was" 0 "previous\n" "" -- cat "$work/kept"
check "merge from stdin: its name" 1 "" \
    "<stdin>:2:7: error: /contingencies/1/id: duplicate contingency id \"c1\", first at $a:1:69 (/contingencies/0/id); --dedupe first or last keeps one\n" \
    -- sh -c "'$cli' merge '$a' - - <'$b'"
check "merge --dedupe first" 0 "$head\"a\",\"contingencies\":[$c1,$c2,$c3]}" \
    "$b:2:7: warning: /contingencies/1/id: dropped duplicate id \"c1\" (kept: $a:1:69, /contingencies/0/id)\n" \
    -- "$cli" merge --compact --dedupe first "$a" "$b" -
check "merge --dedupe first of a pipe (copied, read twice)" 0 "$head\"a\",\"contingencies\":[$c1,$c2,$c3]}" \
    "/dev/stdin:2:7: warning: /contingencies/1/id: dropped duplicate id \"c1\" (kept: $a:1:69, /contingencies/0/id)\n" \
    -- sh -c "cat '$b' | '$cli' merge --compact --dedupe first '$a' /dev/stdin -"
check "merge of a pipe failing on a duplicate: the copy removed" 1 "" \
    "/dev/stdin:2:7: error: /contingencies/1/id: duplicate contingency id \"c1\", first at $a:1:69 (/contingencies/0/id); --dedupe first or last keeps one\n" \
    -- sh -c "cat '$b' | TMPDIR='$work/tmp' '$cli' merge '$a' /dev/stdin '$work/mp.json'; s=\$?; ls -A '$work/tmp'; exit \$s"
check "a device is read in place, not copied: /dev/zero fails at once" 1 "" \
    "/dev/zero:1:1: error: /: expected a value, got byte 0x00\n" \
    -- "$cli" split /dev/zero --parts 2 "$work/zp"
check "merge --dedupe last: the later one, at its place" 0 "$head\"a\",\"contingencies\":[$c2,$c3,$c1b]}" \
    "$a:1:69: warning: /contingencies/0/id: dropped duplicate id \"c1\" (kept: $b:2:7, /contingencies/1/id)\n" \
    -- "$cli" merge --compact --dedupe last "$a" "$b" -
check "merge --dedupe last -q" 0 "$head\"a\",\"contingencies\":[$c2,$c3,$c1b]}" "" \
    -- "$cli" merge -q --compact --dedupe last "$a" "$b" -
check "merge --dedupe-equivalent: elements in another order" 0 "$head\"a\",\"contingencies\":[$c1,$c2]}" \
    "$b:1:69: warning: /contingencies/0/id: dropped \"c3\": same elements as \"c2\" (kept: $a:1:120, /contingencies/1/id)\n$b:2:7: warning: /contingencies/1/id: dropped duplicate id \"c1\" (kept: $a:1:69, /contingencies/0/id)\n" \
    -- "$cli" merge --compact --dedupe first --dedupe-equivalent "$a" "$b" -
check "merge --dedupe-equivalent alone: a duplicate id is still an error" 1 "" "$dup_err" \
    -- "$cli" merge --dedupe-equivalent "$a" "$b" -
check "merge --name, -o" 0 "$head\"both\",\"contingencies\":[$c1,$c2]}" "" \
    -- "$cli" merge --compact --name both "$a" "$work/empty.json" -o -
printf '{"type":"list","version":"1.1","name":"outer","contingencyLists":[%s"x","contingencies":[%s]},%s"y","contingencies":[%s]}]}' \
    "$head" "$c1" "$head" "$c2" >"$work/nested.json"
check "merge flattens a list of default lists" 0 "$head\"x\",\"contingencies\":[$c1,$c2]}" "" \
    -- "$cli" merge --compact "$work/nested.json" -
# Named after the first list even when it is empty (it took the first non-empty one's name),
# and the same when every list is empty (it took the outer list's).
printf '{"type":"list","version":"1.1","name":"outer","contingencyLists":[%s"x","contingencies":[]},%s"y","contingencies":[%s]}]}' \
    "$head" "$head" "$c2" >"$work/nested-empty.json"
check "merge of a list whose first list is empty: its name" 0 "$head\"x\",\"contingencies\":[$c2]}" "" \
    -- "$cli" merge --compact "$work/nested-empty.json" -
printf '{"type":"list","version":"1.1","name":"outer","contingencyLists":[%s"x","contingencies":[]}]}' \
    "$head" >"$work/nested-none.json"
check "merge of a list of empty lists: the first one's name" 0 "$head\"x\",\"contingencies\":[]}" "" \
    -- "$cli" merge --compact "$work/nested-none.json" -
check "filter of a list of empty lists: refused" 1 "" "$work/nested-none.json: error: /: a list of type \"list\", not \"default\"\n" \
    -- "$cli" filter --compact "$work/nested-none.json" -
check "merge: a duplicate in a flattened list" 1 "" \
    "$work/nested.json:1:135: error: /contingencyLists/0/contingencies/0/id: duplicate contingency id \"c1\", first at $a:1:69 (/contingencies/0/id); --dedupe first or last keeps one\n$work/nested.json:1:250: error: /contingencyLists/1/contingencies/0/id: duplicate contingency id \"c2\", first at $a:1:120 (/contingencies/1/id); --dedupe first or last keeps one\n" \
    -- "$cli" merge "$a" "$work/nested.json" -
check "merge of empty lists: the first one's name" 0 "$head\"e\",\"contingencies\":[]}" "" \
    -- "$cli" merge --compact "$work/empty.json" "$work/empty.json" -
check "merge .gz in and out" 0 "" "" -- "$cli" merge "$work/a.json.gz" "$work/m.json.gz"
check "  the .gz output" 0 "$head\"a\",\"contingencies\":[$c1,$c2]}" "" \
    -- sh -c "gzip -dc '$work/m.json.gz' | '$cli' convert --compact - -"
check "merge an identifier list" 1 "" \
    "$data/valid/identifier-v1_0.json: error: /: a list of type \"identifier\", not \"default\"\n" \
    -- "$cli" merge "$a" "$data/valid/identifier-v1_0.json" -
# A name after the contingencies is said where it is; a name missing, at the list's brace.
printf '{"type":"default","version":"1.1","contingencies":[%s],\n  "name":"late"}\n' "$c1" \
    >"$work/name-last.json"
gzip -c "$work/name-last.json" >"$work/name-last.json.gz"
printf '\n {"type":"default","version":"1.1","contingencies":[%s]}\n' "$c1" >"$work/no-name.json"
printf '{"type":"list","name":"o","contingencyLists":[\n {"type":"default","version":"1.1","contingencies":[%s],"name":"n"}]}\n' \
    "$c1" >"$work/nested-name-last.json"
late="error: /name: the list's name comes after its contingencies; convert writes it first"
check "filter: a name after the contingencies, at the name" 1 "" "$work/name-last.json:2:10: $late\n" \
    -- "$cli" filter --id c1 "$work/name-last.json" -
check "split: the same, gzipped" 1 "" "$work/name-last.json.gz:2:10: $late\n" \
    -- "$cli" split --size 1 "$work/name-last.json.gz" "$work/late-part"
check "merge: the same from stdin" 1 "" "<stdin>:2:10: $late\n" \
    -- sh -c "'$cli' merge - '$work/late.json' <'$work/name-last.json'"
check "merge: in a flattened list" 1 "" \
    "$work/nested-name-last.json:2:112: error: /contingencyLists/0/name: the list's name comes after its contingencies; convert writes it first\n" \
    -- "$cli" merge "$work/nested-name-last.json" -
check "filter: no name at all, at the list's brace" 1 "" \
    "$work/no-name.json:2:2: error: /name: missing required field \"name\"\n" \
    -- "$cli" filter "$work/no-name.json" -
usage_merge="usage: contingency-cli merge [OPTION...] IN... OUT\nTry 'contingency-cli merge --help' for more information.\n"
check "merge --dedupe other" 2 "" "contingency-cli merge: --dedupe takes first or last: both\n$usage_merge" \
    -- "$cli" merge --dedupe both "$a" -
check "merge no input" 2 "" "contingency-cli merge: missing IN or OUT\n$usage_merge" \
    -- "$cli" merge "$a"
check "merge --dedupe given twice" 2 "" "contingency-cli merge: option given twice: --dedupe\n$usage_merge" \
    -- "$cli" merge --dedupe first --dedupe last "$a" "$b" -

echo "$((count - failures)) of $count pipeline checks passed"
[ "$failures" -eq 0 ]
