#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli diff end to end: exact stdout, stderr and exit status of each case.
# usage: cli_diff_test.sh CLI TESTDATA_DIR WORK_DIR [SHARED_TESTDATA_DIR]
# Without SHARED_TESTDATA_DIR the cases on this checkout's fixtures (testdata/diff) run; with
# it, those on the shared PowSyBl fixtures, skipped (exit 77) when the folder is absent.
set -u

cli=$1 data=$2 work=$3 shared=${4-}
d=$data/diff
a=$d/a.json

rm -rf "$work" && mkdir -p "$work" || exit 2

. "$(dirname "$0")/cli_check.sh"

if [ $# -ge 4 ]; then
    if [ -z "$shared" ] || [ ! -d "$shared/powsybl" ]; then
        echo "SKIP: no shared test data (${shared:-not configured}): the PowSyBl cases do not run"
        exit 77
    fi
    p=$shared/powsybl
    check "shared: a list and itself" 0 "" "" -- \
        "$cli" diff "$p/contingencies.json" "$p/contingencies.json"
    # Format 1.0's DANGLING_LINE is 1.1's BOUNDARY_LINE: the same list.
    check "shared: version 1.0 and 1.1 of one list are equal" 0 "" "" -- \
        "$cli" diff "$p/contingenciesWithDlAndTl.json" "$p/contingenciesWithDlAndTlV1_0.json"
    check "shared: two PowSyBl lists" 1 \
        "changed contingency: element BRANCH NHV1_NHV2_1 replaced by HVDC_LINE HVDC1
changed contingency: element BRANCH NHV1_NHV2_2 removed
changed contingency2: element GENERATOR GEN replaced by TWO_WINDINGS_TRANSFORMER TWT
added contingency3\nadded contingency4\nadded contingency5\nadded contingency6\n" "" -- \
        "$cli" diff "$p/contingencies.json" "$p/contingenciesWithSeveralElements.json"
    check "shared: a name added" 1 "changed contingency: name 'contingency name' added\n" "" -- \
        "$cli" diff "$p/contingencies.json" "$p/contingenciesWithOptionalName.json"
    check "shared: a bare contingency document and itself" 0 "" "" -- \
        "$cli" diff "$p/contingency.json" "$p/contingency.json"
    check "shared: a list holding a criterion list is refused" 2 "" \
        "$p/contingencyListsList.json: error: diff compares default lists only: this holds a list of kind \"lineCriterion\"\n" \
        -- "$cli" diff "$p/contingencyListsList.json" "$a"
    echo "$((count - failures)) of $count diff checks on the shared data passed"
    [ "$failures" -eq 0 ]
    exit
fi

# ---- equal lists ----
check "a list and itself" 0 "" "" -- "$cli" diff "$a" "$a"
# same.json: the list's name, an element order and an extension's key order differ.
check "element order, extension key order and the list's name do not count" 0 "" "" -- \
    "$cli" diff "$a" "$d/same.json"
check "equal lists in JSON print nothing" 0 "" "" -- "$cli" diff --format json "$a" "$d/same.json"

# ---- one changed element ----
one='changed N-1_L1: element LINE L1 replaced by LINE L2\n'
check "one changed element" 1 "$one" "" -- "$cli" diff "$a" "$d/element.json"
check "one changed element, the other way" 1 \
    'changed N-1_L1: element LINE L2 replaced by LINE L1\n' "" -- "$cli" diff "$d/element.json" "$a"
check "one changed element in JSON" 1 \
    '{"change":"changed","id":"N-1_L1","a":0,"b":0,"what":"element","from":{"id":"L1","type":"LINE"},"to":{"id":"L2","type":"LINE"}}\n' \
    "" -- "$cli" diff --format=json "$a" "$d/element.json"

# ---- every kind of change: changes.json adds N-1_NEW first, repeats LD1 in N-2_G_L and
# changes its extensions, moves N-1_T1 to another side, renames N-1_L1, and has N-1_S1's
# element under the id N-1_SW1 ----
changes_b="added N-1_NEW
changed N-2_G_L: element LOAD LD1 added
changed N-2_G_L: extension 'contingency-probability' changed
changed N-2_G_L: extension 'note' added
changed N-1_T1: element TWO_WINDINGS_TRANSFORMER T1: side VL1 -> VL2
changed N-1_L1: name 'line one' -> 'line 1'
"
check "added, removed, duplicate element, extensions, side, name" 1 \
    "${changes_b}added N-1_SW1\nremoved N-1_S1\n" "" -- "$cli" diff "$a" "$d/changes.json"
check "--match-elements: renamed, not removed and added" 1 \
    "${changes_b}renamed N-1_S1 -> N-1_SW1\n" "" -- \
    "$cli" diff --match-elements "$a" "$d/changes.json"
check "the other way round: removed and added swap, B's order first" 1 \
    "changed N-1_L1: name 'line 1' -> 'line one'
changed N-1_T1: element TWO_WINDINGS_TRANSFORMER T1: side VL2 -> VL1
changed N-2_G_L: element LOAD LD1 removed
changed N-2_G_L: extension 'contingency-probability' changed
changed N-2_G_L: extension 'note' removed
renamed N-1_SW1 -> N-1_S1
removed N-1_NEW
" "" -- "$cli" diff --match-elements "$d/changes.json" "$a"
check "every kind of change in JSON" 1 \
    '{"change":"added","id":"N-1_NEW","b":0}
{"change":"changed","id":"N-2_G_L","a":2,"b":1,"what":"element","to":{"id":"LD1","type":"LOAD"}}
{"change":"changed","id":"N-2_G_L","a":2,"b":1,"what":"extension","name":"contingency-probability","from":{"probability":0.0125,"source":{"tso":"A","year":2026}},"to":{"probability":0.025,"source":{"tso":"A","year":2026}}}
{"change":"changed","id":"N-2_G_L","a":2,"b":1,"what":"extension","name":"note","to":"checked"}
{"change":"changed","id":"N-1_T1","a":1,"b":2,"what":"side","from":{"id":"T1","type":"TWO_WINDINGS_TRANSFORMER","voltageLevelId":"VL1"},"to":{"id":"T1","type":"TWO_WINDINGS_TRANSFORMER","voltageLevelId":"VL2"}}
{"change":"changed","id":"N-1_L1","a":0,"b":3,"what":"name","from":"line one","to":"line 1"}
{"change":"renamed","id":"N-1_SW1","from":"N-1_S1","a":3,"b":4}
' "" -- "$cli" diff --match-elements --format json "$a" "$d/changes.json"
check "-q prints nothing and exits 1" 1 "" "" -- "$cli" diff -q "$a" "$d/changes.json"

# ---- renames: rename-b.json has A1's element set (one side dropped: a change) under B1 with
# another name; DUP1 and DUP2 have one element set and D2 takes the first; K gains two
# elements, one of them with an escape sequence in its id ----
rename_text="changed K: element LINE L9\\\\u001b[31m added
changed K: element BRANCH L8 added
renamed DUP1 -> D2
renamed A1 -> B1
changed B1: name 'old' -> 'new'
changed B1: element LINE L2: side V removed
removed DUP2
"
check "renamed with other changes, the first of equal element sets, escaped ids" 1 \
    "$rename_text" "" -- "$cli" diff --match-elements "$d/rename-a.json" "$d/rename-b.json"
check "renames in JSON: an escape sequence is a JSON escape" 1 \
    '{"change":"changed","id":"K","a":3,"b":0,"what":"element","to":{"id":"L9\\u001b[31m","type":"LINE"}}
{"change":"changed","id":"K","a":3,"b":0,"what":"element","to":{"id":"L8","type":"BRANCH"}}
{"change":"renamed","id":"D2","from":"DUP1","a":1,"b":1}
{"change":"renamed","id":"B1","from":"A1","a":0,"b":2}
{"change":"changed","id":"B1","a":0,"b":2,"what":"name","from":"old","to":"new"}
{"change":"changed","id":"B1","a":0,"b":2,"what":"side","from":{"id":"L2","type":"LINE","voltageLevelId":"V"},"to":{"id":"L2","type":"LINE"}}
{"change":"removed","id":"DUP2","a":2}
' "" -- "$cli" diff --match-elements --format json "$d/rename-a.json" "$d/rename-b.json"
check "without --match-elements they are removed and added" 1 \
    "changed K: element LINE L9\\\\u001b[31m added
changed K: element BRANCH L8 added
added D2\nadded B1\nremoved A1\nremoved DUP1\nremoved DUP2\n" "" -- \
    "$cli" diff "$d/rename-a.json" "$d/rename-b.json"

# ---- extensions as JSON values: ext-b.json reorders the keys of every object of ext-a.json
# (strings holding quotes, braces and commas included); ext-c.json also writes 1.0 as 1.00 ----
check "extension objects: key order does not count, at any depth" 0 "" "" -- \
    "$cli" diff "$d/ext-a.json" "$d/ext-b.json"
check "extension numbers are compared as written; values in canonical form" 1 \
    '{"change":"changed","id":"C","a":0,"b":0,"what":"extension","name":"e","from":{"a":[],"k\\"}":"v,]}\\\\","n":[{"a":2,"b":1},[{"x":true,"y":null}]],"num":1.0,"z":{}},"to":{"a":[],"k\\"}":"v,]}\\\\","n":[{"a":2,"b":1},[{"x":true,"y":null}]],"num":1.00,"z":{}}}\n' \
    "" -- "$cli" diff --format json "$d/ext-a.json" "$d/ext-c.json"

# ---- inputs: stdin, gzip, pipes ----
check "B from stdin" 1 "$one" "" -- sh -c "'$cli' diff '$a' - <'$d/element.json'"
check "A from stdin (B is then the side read twice)" 1 "${changes_b}renamed N-1_S1 -> N-1_SW1\n" "" \
    -- sh -c "'$cli' diff --match-elements - '$d/changes.json' <'$a'"
check "gzip input" 0 "" "" -- sh -c "'$cli' convert '$d/element.json' '$work/element.json.gz' &&
    '$cli' diff '$work/element.json.gz' '$d/element.json'"
check "gzip input that differs" 1 "$one" "" -- "$cli" diff "$a" "$work/element.json.gz"
# Two FIFOs: neither can be read twice, so A is kept whole from its one read.
check "two pipes" 1 "${changes_b}added N-1_SW1\nremoved N-1_S1\n" "" -- sh -c "
    mkfifo '$work/fa' '$work/fb' && { cat '$a' >'$work/fa' & cat '$d/changes.json' >'$work/fb' &
    '$cli' diff '$work/fa' '$work/fb'; }"
# A pipe that is T is copied to a file in $TMPDIR for its second read, and that file removed.
mkdir -p "$work/tmp"
check "two pipes, --match-elements: A copied to \$TMPDIR, then removed" 1 \
    "${changes_b}renamed N-1_S1 -> N-1_SW1\n" "" -- sh -c "
    rm -f '$work/fa' '$work/fb' && mkfifo '$work/fa' '$work/fb' &&
    { cat '$a' >'$work/fa' & cat '$d/changes.json' >'$work/fb' &
    TMPDIR='$work/tmp' '$cli' diff --match-elements '$work/fa' '$work/fb'; s=\$?
    ls -A '$work/tmp'; exit \$s; }"
check "A from stdin, B a pipe of gzip: B is copied as it is, and read as gzip" 1 "$one" "" -- \
    sh -c "rm -f '$work/fb' && mkfifo '$work/fb' && { cat '$work/element.json.gz' >'$work/fb' &
    TMPDIR='$work/tmp' '$cli' diff - '$work/fb' <'$a'; s=\$?; ls -A '$work/tmp'; exit \$s; }"
check "no \$TMPDIR for the copy of a pipe is an error" 2 "" \
    "$work/fa: error: cannot create a copy in \$TMPDIR: No such file or directory\n" -- sh -c "
    rm -f '$work/fa' '$work/fb' && mkfifo '$work/fa' '$work/fb' &&
    { cat '$a' >'$work/fa' 2>/dev/null & cat '$a' >'$work/fb' 2>/dev/null &
    TMPDIR='$work/none' '$cli' diff '$work/fa' '$work/fb'; s=\$?; exec 3<>'$work/fa' 4<>'$work/fb'
    wait; exit \$s; }"
check "a signal during the copy removes it" 0 "143\n" "" -- sh -c "
    rm -f '$work/fa' '$work/fb' && mkfifo '$work/fa' '$work/fb' &&
    { { cat '$a'; sleep 2; } >'$work/fa' & cat '$a' >'$work/fb' 2>/dev/null &
    TMPDIR='$work/tmp' '$cli' diff -q '$work/fa' '$work/fb' & p=\$!; sleep 0.5; kill -TERM \$p
    wait \$p; echo \$?; ls -A '$work/tmp'; exec 4<>'$work/fb'; }"
check "an error in a copied pipe names the pipe" 2 "" \
    "$work/fa:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- sh -c "rm -f '$work/fa' '$work/fb' && mkfifo '$work/fa' '$work/fb' &&
    { cat '$data/cli/unknown-type.json' >'$work/fa' & cat '$a' >'$work/fb' &
    TMPDIR='$work/tmp' '$cli' diff '$work/fa' '$work/fb'; s=\$?; ls -A '$work/tmp'; exit \$s; }"

# ---- generated lists of 5000: the id table grows several times; B in reverse order ----
gen() { # gen FILE ID_PREFIX REVERSE CHANGE_EVERY
    awk -v p="$2" -v rev="$3" -v every="$4" 'BEGIN {
        printf "{\"type\":\"default\",\"name\":\"big\",\"contingencies\":["
        for (k = 0; k < 5000; k++) {
            i = rev ? 4999 - k : k
            e = (every && i % every == 0) ? "X" i : "L" i
            printf "%s{\"id\":\"%s%d\",\"elements\":[{\"id\":\"%s\",\"type\":\"LINE\"}]}",
                k ? "," : "", p, i, e
        }
        printf "]}"
    }' >"$1"
}
gen "$work/big-a.json" N-1_L 0 0
gen "$work/big-b.json" N-1_L 1 1000
gen "$work/big-r.json" R_ 1 0
check "5000 contingencies and themselves" 0 "" "" -- "$cli" diff "$work/big-a.json" "$work/big-a.json"
check "5000 in reverse order, 5 changed: in B's order" 1 \
    "$(for i in 4000 3000 2000 1000 0; do
        printf 'changed N-1_L%d: element LINE L%d replaced by LINE X%d\\n' $i $i $i; done)" "" -- \
    "$cli" diff "$work/big-a.json" "$work/big-b.json"
awk 'BEGIN { for (i = 4999; i >= 0; i--) printf "renamed N-1_L%d -> R_%d\n", i, i }' \
    >"$work/big-renamed"
check "5000 renamed, in reverse order" 1 "@$work/big-renamed" "" -- \
    "$cli" diff --match-elements "$work/big-a.json" "$work/big-r.json"

# ---- the spill path (beyond 16 MB of input; CTG_DIFF_SPILL_BYTES lowers that, for tests):
# the same answers, memory bounded on any size ----
sp="env CTG_DIFF_SPILL_BYTES=0 TMPDIR=$work/tmp"
check "spill: a list and itself" 0 "" "" -- $sp "$cli" diff "$a" "$a"
check "spill: every kind of change" 1 "${changes_b}added N-1_SW1\nremoved N-1_S1\n" "" -- \
    $sp "$cli" diff "$a" "$d/changes.json"
check "spill: --match-elements, renamed" 1 "${changes_b}renamed N-1_S1 -> N-1_SW1\n" "" -- \
    $sp "$cli" diff --match-elements "$a" "$d/changes.json"
check "spill: -q" 1 "" "" -- $sp "$cli" diff -q "$a" "$d/changes.json"
check "spill: renames in JSON" 1 \
    '{"change":"changed","id":"K","a":3,"b":0,"what":"element","to":{"id":"L9\\u001b[31m","type":"LINE"}}
{"change":"changed","id":"K","a":3,"b":0,"what":"element","to":{"id":"L8","type":"BRANCH"}}
{"change":"renamed","id":"D2","from":"DUP1","a":1,"b":1}
{"change":"renamed","id":"B1","from":"A1","a":0,"b":2}
{"change":"changed","id":"B1","a":0,"b":2,"what":"name","from":"old","to":"new"}
{"change":"changed","id":"B1","a":0,"b":2,"what":"side","from":{"id":"L2","type":"LINE","voltageLevelId":"V"},"to":{"id":"L2","type":"LINE"}}
{"change":"removed","id":"DUP2","a":2}
' "" -- $sp "$cli" diff --match-elements --format json "$d/rename-a.json" "$d/rename-b.json"
check "spill: renames in text" 1 "$rename_text" "" -- \
    $sp "$cli" diff --match-elements "$d/rename-a.json" "$d/rename-b.json"
check "spill: A from stdin, --match-elements" 1 "${changes_b}renamed N-1_S1 -> N-1_SW1\n" "" \
    -- sh -c "$sp '$cli' diff --match-elements - '$d/changes.json' <'$a'; s=\$?; ls -A '$work/tmp'
    exit \$s"
check "spill: B from stdin, the other way round, JSON" 1 \
    '{"change":"changed","id":"N-1_L1","a":0,"b":0,"what":"element","from":{"id":"L1","type":"LINE"},"to":{"id":"L2","type":"LINE"}}\n' \
    "" -- sh -c "$sp '$cli' diff --format=json '$a' - <'$d/element.json'"
check "spill: gzip input" 1 "$one" "" -- $sp "$cli" diff "$a" "$work/element.json.gz"
check "spill: two pipes" 1 "${changes_b}added N-1_SW1\nremoved N-1_S1\n" "" -- sh -c "
    rm -f '$work/fa' '$work/fb' && mkfifo '$work/fa' '$work/fb' &&
    { cat '$a' >'$work/fa' & cat '$d/changes.json' >'$work/fb' &
    $sp '$cli' diff '$work/fa' '$work/fb'; s=\$?; ls -A '$work/tmp'; exit \$s; }"
check "spill: 5000 in reverse order, 5 changed" 1 \
    "$(for i in 4000 3000 2000 1000 0; do
        printf 'changed N-1_L%d: element LINE L%d replaced by LINE X%d\\n' $i $i $i; done)" "" -- \
    $sp "$cli" diff "$work/big-a.json" "$work/big-b.json"
check "spill: 5000 renamed, in reverse order" 1 "@$work/big-renamed" "" -- \
    $sp "$cli" diff --match-elements "$work/big-a.json" "$work/big-r.json"
awk 'BEGIN { for (i = 4999; i >= 0; i--) printf "added R_%d\n", i
    for (i = 0; i < 5000; i++) printf "removed N-1_L%d\n", i }' >"$work/big-added"
check "spill: 5000 added then 5000 removed" 1 "@$work/big-added" "" -- \
    $sp "$cli" diff "$work/big-a.json" "$work/big-r.json"
check "spill: an invalid list" 2 "" \
    "$data/cli/unknown-type.json:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- $sp "$cli" diff "$a" "$data/cli/unknown-type.json"
check "spill: a duplicate id, at its place" 2 "" \
    "$d/duplicate.json:9:12: error: /contingencies/1/id: contingency id \"N-1_L1\" is there twice: diff matches contingencies by id\n" \
    -- $sp "$cli" diff "$a" "$d/duplicate.json"
check "spill: a duplicate id from stdin in JSON" 2 \
    "{\"file\":\"<stdin>\",\"line\":9,\"column\":12,\"path\":\"/contingencies/1/id\",\"code\":\"duplicate-id\",\"severity\":\"error\",\"message\":\"contingency id \\\\\"N-1_L1\\\\\" is there twice: diff matches contingencies by id\"}\n" \
    "" -- sh -c "$sp '$cli' diff --format json - '$a' <'$d/duplicate.json'"
# A duplicate before a broken element is what is reported, as when the read stops at it.
printf '{"type":"default","contingencies":[{"id":"X","elements":[]},{"id":"X","elements":[]},%s' \
    '{"id":"Y","elements":[{"id":"L","type":"TRANSFORMER"}]}]}' >"$work/dup-bad.json"
check "spill: the duplicate comes before a later error" 2 "" \
    "$work/dup-bad.json:1:67: error: /contingencies/1/id: contingency id \"X\" is there twice: diff matches contingencies by id\n" \
    -- $sp "$cli" diff "$work/dup-bad.json" "$a"
check "spill: T's error comes before S's duplicate" 2 "" \
    "$data/cli/unknown-type.json:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- $sp "$cli" diff "$data/cli/unknown-type.json" "$work/dup-bad.json"
check "spill: no \$TMPDIR is an error" 2 "" \
    "$work/none: error: cannot write a temporary file: No such file or directory\n" -- \
    env CTG_DIFF_SPILL_BYTES=0 TMPDIR="$work/none" "$cli" diff "$a" "$d/changes.json"

# ---- errors: exit 2, as diff(1) ----
bad="$data/cli/unknown-type.json"
check "an invalid list is exit 2, the error on stderr" 2 "" \
    "$bad:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" diff "$a" "$bad"
check "with --format json the error is a JSON diagnostic on stdout" 2 \
    "{\"file\":\"$bad\",\"line\":15,\"column\":16,\"path\":\"/contingencies/1/elements/0/type\",\"code\":\"schema\",\"severity\":\"error\",\"message\":\"unknown element type \\\\\"TRANSFORMER\\\\\"\"}\n" \
    "" -- "$cli" diff --format json "$bad" "$a"
check "a duplicate id is exit 2, at its place" 2 "" \
    "$d/duplicate.json:9:12: error: /contingencies/1/id: contingency id \"N-1_L1\" is there twice: diff matches contingencies by id\n" \
    -- "$cli" diff "$a" "$d/duplicate.json"
check "a duplicate id in JSON" 2 \
    "{\"file\":\"<stdin>\",\"line\":9,\"column\":12,\"path\":\"/contingencies/1/id\",\"code\":\"duplicate-id\",\"severity\":\"error\",\"message\":\"contingency id \\\\\"N-1_L1\\\\\" is there twice: diff matches contingencies by id\"}\n" \
    "" -- sh -c "'$cli' diff --format json - '$a' <'$d/duplicate.json'"
check "an identifier list is refused" 2 "" \
    "$data/valid/identifier-v1_0.json: error: diff compares default lists only: this holds a list of kind \"identifier\"\n" \
    -- "$cli" diff "$data/valid/identifier-v1_0.json" "$a"
check "a missing file" 2 "" "$work/nope: error: cannot open: No such file or directory\n" -- \
    "$cli" diff "$a" "$work/nope"
usage='usage: contingency-cli diff [--match-elements] [--format FORMAT] A B\n'
more="Try 'contingency-cli diff --help' for more information.\n"
check "one list is a usage error" 2 "" "contingency-cli diff: two lists are needed\n$usage$more" \
    -- "$cli" diff "$a"
check "three lists are a usage error" 2 "" "contingency-cli diff: too many arguments\n$usage$more" \
    -- "$cli" diff "$a" "$a" "$a"
check "stdin twice is a usage error" 2 "" \
    "contingency-cli diff: only one of A and B may be stdin (\"-\")\n$usage$more" -- "$cli" diff - -
check "an unknown format is a usage error" 2 "" \
    "contingency-cli diff: --format takes text or json, not: xml\n$usage$more" -- \
    "$cli" diff --format xml "$a" "$a"
check "bash completes the values of --format" 0 "json\n" "" -- bash -c '
    . "$1/../cli/contingency-cli.bash"; COMP_WORDS=("$2" diff --format j); COMP_CWORD=3
    _contingency_cli; printf "%s\n" "${COMPREPLY[@]}"' _ "$data" "$cli"
check "--help says the exit status" 0 "" "" -- sh -c "'$cli' diff --help |
    grep -q '^1 when they differ, 2 on any error, an invalid list included.\$'"

echo "$((count - failures)) of $count diff checks passed"
[ "$failures" -eq 0 ]
