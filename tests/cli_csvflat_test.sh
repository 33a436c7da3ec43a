#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# convert's CSV input in bounded memory: adjacent rows stream, rows of one contingency apart are
# grouped (within a budget, lowered here through CTG_CLI_CSV_GROUP_BUDGET, a knob for tests
# only), stdin is copied to $TMPDIR to be read twice, and an error found only once the rows are
# grouped names the place it has in the grouped list. Exact stdout, stderr and exit status.
# usage: cli_csvflat_test.sh CLI TESTDATA_DIR WORK_DIR
set -u

cli=$1 data=$2 work=$3
for v in cli data work; do
    eval "case \$$v in /*) ;; *) $v=\$(pwd)/\$$v ;; esac"
done
f=$data/formats

rm -rf "$work" && mkdir -p "$work/tmp" || exit 2

. "$(dirname "$0")/cli_check.sh"

h='contingency_id,contingency_name,element_id,element_type,voltage_level_id'
printf '%s\na,,L1,LINE,\nb,,L2,LINE,\na,,L3,LINE,\n' "$h" >"$work/apart.csv"
grouped='{"type":"default","version":"1.1","name":"apart","contingencies":[{"id":"a","elements":[{"id":"L1","type":"LINE"},{"id":"L3","type":"LINE"}]},{"id":"b","elements":[{"id":"L2","type":"LINE"}]}]}'

# ---- rows apart: grouped by id in order of first appearance --------------------------------
check "rows apart are grouped" 0 "$grouped" "" \
    -- "$cli" convert --compact "$work/apart.csv" -
check "rows apart from stdin are grouped (stdin read twice)" 0 "$grouped" "" \
    -- sh -c "TMPDIR='$work/tmp' '$cli' convert --compact --from csv --name apart - - <'$work/apart.csv'"
check "... and its copy in TMPDIR is removed" 0 "" "" -- find "$work/tmp" -type f
check "rows apart from a pipe named as a path (read twice)" 0 "$grouped" "" \
    -- sh -c "cat '$work/apart.csv' | TMPDIR='$work/tmp' '$cli' convert --compact --from csv --name apart /dev/stdin -"
mkfifo "$work/fifo.csv" || exit 2
check "rows apart from a FIFO" 0 "$grouped" "" \
    -- sh -c "cat '$work/apart.csv' >'$work/fifo.csv' & TMPDIR='$work/tmp' '$cli' convert --compact --name apart '$work/fifo.csv' -"
check "... and no copy is left in TMPDIR" 0 "" "" -- find "$work/tmp" -type f
check "rows apart from gzip stdin" 0 "$grouped" "" \
    -- sh -c "gzip -c '$work/apart.csv' | TMPDIR='$work/tmp' '$cli' convert --compact --from csv --name apart - -"
check "rows apart within the budget" 0 "$grouped" "" \
    -- env CTG_CLI_CSV_GROUP_BUDGET=1000000 "$cli" convert --compact "$work/apart.csv" -
check "the fixture with rows apart, through stdin" 0 "@$f/quoting.json" "" \
    -- sh -c "'$cli' convert --from csv --name quoting - - <'$f/quoting.csv'"

# An error the first pass cannot place: the row that reappears is the second element of
# contingency 0, not the first of a contingency 2.
printf '%s\na,,L1,LINE,\nb,,L2,LINE,\na,,L3,TRANSFORMER,\n' "$h" >"$work/type.csv"
check "a bad row that reappears apart: its place in the grouped list" 1 "" \
    "$work/type.csv:4:1: error: /contingencies/0/elements/1/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" convert "$work/type.csv" -
printf '%s\na,,L1,LINE,\nb,,L2,LINE,\na,other,L3,LINE,\n' "$h" >"$work/name.csv"
check "a name that differs only apart" 1 "" \
    "$work/name.csv:4:1: error: /contingencies/0/name: contingency_name differs from line 2's, for the same contingency_id\n" \
    -- "$cli" convert "$work/name.csv" -
printf '%s\na,,L1,LINE,\nb,,L2,LINE,\na,,L3,LINE,\nc,,,LINE,\n' "$h" >"$work/after.csv"
check "a bad row after an id reappeared: contingency 2, not 3" 1 "" \
    "$work/after.csv:5:1: error: /contingencies/2/elements/0: empty element_id\n" \
    -- "$cli" convert "$work/after.csv" -
check "... from stdin too" 1 "" \
    "<stdin>:5:1: error: /contingencies/2/elements/0: empty element_id\n" \
    -- sh -c "TMPDIR='$work/tmp' '$cli' convert --from csv --name after - - <'$work/after.csv'"

# ---- the budget -----------------------------------------------------------------------------
awk -v h="$h" 'BEGIN { print h; for (i = 0; i < 3000; i++) printf "c%d,,L%d,LINE,\n", i % 1000, i }' \
    >"$work/many.csv"
# (the bytes held depend on the target's pointer size: a budget of 1 is crossed by the first row)
check "rows apart beyond the budget: refused, at the row that crossed it" 1 "" \
    "$work/many.csv:2:1: error: /: the rows of some contingency_id are apart, and grouping them needs more than 1 bytes of memory: put each contingency's rows together\n" \
    -- env CTG_CLI_CSV_GROUP_BUDGET=1 "$cli" convert "$work/many.csv" "$work/many.json"
check "... and wrote nothing" 1 "" "" -- test -e "$work/many.json"
awk -v h="$h" 'BEGIN { print h; for (i = 0; i < 3000; i++) printf "c%d,,L%d,LINE,\n", i / 3, i }' \
    >"$work/adjacent.csv"
check "adjacent rows stream whatever the budget" 0 "" "" \
    -- sh -c "CTG_CLI_CSV_GROUP_BUDGET=1 '$cli' convert '$work/adjacent.csv' '$work/adjacent.json' &&
        CTG_CLI_CSV_GROUP_BUDGET=1 '$cli' convert '$work/adjacent.json' --to csv - | cmp - '$work/adjacent.csv'"
check "adjacent rows: 1000 contingencies of 3" 0 "1000 3000\n" "" \
    -- sh -c "'$cli' convert --compact '$work/adjacent.json' --to jsonl - | awk '{ n++; e += gsub(/\"type\"/, \"\") } END { print n, e }'"

# ---- a repeated hash: a collision of two ids must not merge them ------------------------------
# CTG_CLI_CSV_GROUP_ALWAYS (for tests only) sends every input where a repeated hash sends it:
# the exact grouping by the ids themselves gives the same list as the streamed pass.
check "adjacent rows through the grouping: the same list" 0 "" "" \
    -- sh -c "CTG_CLI_CSV_GROUP_ALWAYS=1 '$cli' convert '$work/adjacent.csv' - | cmp - '$work/adjacent.json'"
"$cli" convert "$data/valid/sample.json" "$work/sample.csv" || exit 2
check "every fixture through the grouping: the same list" 0 "" "" \
    -- sh -c "for c in '$f'/quoting.csv '$work/apart.csv' '$work/sample.csv'; do
        '$cli' convert \"\$c\" '$work/s.json' && CTG_CLI_CSV_GROUP_ALWAYS=1 '$cli' convert \"\$c\" '$work/g.json' &&
        cmp '$work/s.json' '$work/g.json' || exit 1; done"
check "an error through the grouping: the same line" 1 "" \
    "$work/after.csv:5:1: error: /contingencies/2/elements/0: empty element_id\n" \
    -- env CTG_CLI_CSV_GROUP_ALWAYS=1 "$cli" convert "$work/after.csv" -

# ---- stdin's copy ---------------------------------------------------------------------------
check "stdin cannot be copied: the error names TMPDIR" 2 "" \
    "<stdin>: error: cannot copy it to a temporary file in $work/none: No such file or directory\n" \
    -- sh -c "TMPDIR='$work/none' '$cli' convert --from csv --name x - - <'$work/apart.csv'"

echo "$((count - failures)) of $count csvflat checks passed"
[ "$failures" -eq 0 ]
