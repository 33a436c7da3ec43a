#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli generate --network, end to end, on the hand-made networks of
# testdata/network/generate/: exact stdout, stderr, exit status and output bytes of each case.
# usage: cli_generate_net_test.sh CLI TESTDATA_DIR WORK_DIR
set -u

cli=$1 data=$2 work=$3
gen=generate
pairs=$data/network/generate/pairs.xiidm
busbar=$data/network/generate/busbar.xiidm
busbar_j=$data/network/generate/busbar.jiidm

rm -rf "$work" && mkdir -p "$work" || exit 2

. "$(dirname "$0")/cli_check.sh"

keep() {
    printf 'previous content\n' >"$1"
    cp "$1" "$work/kept.orig"
}
usage="usage: contingency-cli $gen [OPTION...] --network NET OUT\nTry 'contingency-cli $gen --help' for more information.\n"

# ---- N-1 and the selection ------------------------------------------------------------------

c() { printf '{"id":"%s","elements":[{"id":"%s","type":"%s"}]}' "$1" "$2" "$3"; }
n1_be="{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n-1\",\"contingencies\":[$(c N-1_L13 L13 LINE),$(c N-1_L23 L23 LINE),$(c N-1_L34 L34 LINE)]}"
check "N-1 of the lines with a side in BE" 0 "$n1_be" "" \
    -- "$cli" "$gen" --network "$pairs" --types LINE --country BE --compact -
check "N-1 with an id format, a voltage range, a property-free regex" 0 \
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"mine\",\"contingencies\":[$(c TR1@S1 TR1 TWO_WINDINGS_TRANSFORMER),$(c TR2@S1 TR2 TWO_WINDINGS_TRANSFORMER)]}" "" \
    -- "$cli" "$gen" --network "$pairs" --types TWO_WINDINGS_TRANSFORMER --voltage 300: \
    --voltage2 200:230 --id-format '{id}@{substation}' --name mine --compact -
check "N-1 connected to a level without substation" 0 \
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n-1\",\"contingencies\":[$(c N-1_L25a L25a LINE),$(c N-1_L25b L25b LINE)]}" "" \
    -- "$cli" "$gen" --network "$pairs" --connected-to VL5 --compact -

# ---- the counts ------------------------------------------------------------------------------

check "--dry-run counts per type and rule" 0 \
    "selected LINE: 7\nselected TIE_LINE: 1\nselected TWO_WINDINGS_TRANSFORMER: 3\nselected THREE_WINDINGS_TRANSFORMER: 1\nn-1: 12 contingencies\nparallel: 4 contingencies, 4 groups of parallel branches\n" "" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --with-n1 --dry-run
check "--dry-run of common-substation" 0 \
    "selected LINE: 7\nselected TIE_LINE: 1\ncommon-substation: 18 contingencies, 5 places with two branches or more\n" "" \
    -- "$cli" "$gen" --network "$pairs" --types LINE,TIE_LINE --n2 common-substation --dry-run
check "--dry-run of all-pairs" 0 "selected LINE: 7\nall-pairs: 21 contingencies\n" "" \
    -- "$cli" "$gen" --network "$pairs" --types LINE --n2 all-pairs --dry-run

# ---- N-2 rules into files ---------------------------------------------------------------------

p() { printf '{"id":"N-2_%s+%s","elements":[{"id":"%s","type":"%s"},{"id":"%s","type":"%s"}]}' "$1" "$3" "$1" "$2" "$3" "$4"; }
parallel="{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"parallel\",\"contingencies\":[$(p L12a LINE L12b LINE),$(p L34 LINE TL34 TIE_LINE),$(p L25a LINE L25b LINE),$(p TR1 TWO_WINDINGS_TRANSFORMER TR2 TWO_WINDINGS_TRANSFORMER)]}"
printf '%s' "$parallel" >"$work/parallel.expected"
keep "$work/parallel.json"
check "parallel into a file, replaced" 0 "" "" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --compact "$work/parallel.json"
check "parallel: the pairs" 0 "" "" -- cmp "$work/parallel.expected" "$work/parallel.json"
check ".gz by name" 0 "" "" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --compact "$work/parallel.json.gz"
check ".gz holds the same list" 0 "@$work/parallel.expected" "" \
    -- gzip -dc "$work/parallel.json.gz"
check "--report lists the counts and the pairs" 0 \
    "selected LINE: 7\nselected TIE_LINE: 1\nselected TWO_WINDINGS_TRANSFORMER: 3\nselected THREE_WINDINGS_TRANSFORMER: 1\nparallel: 4 contingencies, 4 groups of parallel branches\nN-2_L12a+L12b: L12a L12b\nN-2_L34+TL34: L34 TL34\nN-2_L25a+L25b: L25a L25b\nN-2_TR1+TR2: TR1 TR2\n" "" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --report - "$work/p2.json"
check "all-pairs prints its count first" 0 "" "contingency-cli generate: all-pairs: 3 contingencies\n" \
    -- "$cli" "$gen" --network "$pairs" --types TWO_WINDINGS_TRANSFORMER --n2 all-pairs \
    "$work/all.json"
check "all-pairs: three pairs" 0 "3\n" "" -- sh -c "grep -c '\"id\" : \"N-2_' '$work/all.json'"
keep "$work/limited.json"
check "--max-contingencies: nothing written" 1 "" \
    "contingency-cli generate: all-pairs: 66 contingencies\n<generate>: error: all-pairs would generate 66 contingencies, more than the limit of 65\n" \
    -- "$cli" "$gen" --network "$pairs" --n2 all-pairs --max-contingencies 65 "$work/limited.json"
check "--max-contingencies: OUT left as it was" 0 "" "" -- cmp "$work/kept.orig" "$work/limited.json"
check "no temporary file left" 0 "" "" -- sh -c "! ls -a '$work' | grep -q ctg-tmp"

b() { printf '{"id":"BUSBAR_%s","elements":[%s]}' "$1" "$2"; }
e() { printf '{"id":"%s","type":"%s"}' "$1" "$2"; }
check "busbar on a node-breaker level with a coupler" 0 \
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"busbar\",\"contingencies\":[$(b BBS1 "$(e LA LINE)"),$(b BBS2 "$(e LD1 LOAD)"),$(b B2a "$(e LD2 LOAD)"),$(b B3 "$(e LA LINE),$(e LB LINE)")]}" "" \
    -- "$cli" "$gen" --network "$busbar" --types LINE,LOAD --n2 busbar --compact -
busbars="{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"busbar\",\"contingencies\":[$(b BBS1 "$(e LA LINE),$(e TR1 TWO_WINDINGS_TRANSFORMER)"),$(b BBS2 "$(e G1 GENERATOR)"),$(b B2a "$(e TR1 TWO_WINDINGS_TRANSFORMER)"),$(b B2b "$(e G2 GENERATOR)"),$(b B3 "$(e LA LINE),$(e LB LINE)")]}"
check "busbar of the same network in JIIDM" 0 "$busbars" "" \
    -- "$cli" "$gen" --network "$busbar_j" --types LINE,TWO_WINDINGS_TRANSFORMER,GENERATOR \
    --n2 busbar --compact -
check "busbar of the same network in XIIDM" 0 "$busbars" "" \
    -- "$cli" "$gen" --network "$busbar" --types LINE,TWO_WINDINGS_TRANSFORMER,GENERATOR \
    --n2 busbar --compact -
gzip -c "$busbar_j" >"$work/busbar.jiidm.gz"
check "busbar of a gzipped JIIDM" 0 "$busbars" "" \
    -- "$cli" "$gen" --network "$work/busbar.jiidm.gz" --types LINE,TWO_WINDINGS_TRANSFORMER,GENERATOR \
    --n2 busbar --compact -

# ---- --as-criterion ------------------------------------------------------------------------------

check "--as-criterion writes the criterion list" 0 \
    '{"type":"lineCriterion","version":"1.1","name":"n-1","countryCriterion":{"type":"TWO_COUNTRY","countries1":["BE"],"countries2":[]}}' "" \
    -- "$cli" "$gen" --network "$pairs" --types LINE --country BE --as-criterion --compact -
"$cli" "$gen" --network "$pairs" --types LINE,TWO_WINDINGS_TRANSFORMER --country FR \
    --as-criterion "$work/crit.json" 2>/dev/null
"$cli" "$gen" --network "$pairs" --types LINE,TWO_WINDINGS_TRANSFORMER --country FR \
    --id-format '{id}' --name n-1 "$work/n1.json" 2>/dev/null
check "--as-criterion resolved is the N-1" 0 "" "" \
    -- sh -c "'$cli' resolve --network '$pairs' '$work/crit.json' '$work/resolved.json' && cmp '$work/n1.json' '$work/resolved.json'"
check "--as-criterion of an N-2 rule" 1 "" \
    "<generate>: error: the rule parallel has no criterion equivalent (only a selection's N-1 has one)\n" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --as-criterion "$work/x.json"
check "--as-criterion with --connected-to" 1 "" \
    "<generate>: error: a connected-to filter has no criterion equivalent (only a selection's N-1 has one)\n" \
    -- "$cli" "$gen" --network "$pairs" --connected-to S1 --as-criterion "$work/x.json"

# ---- errors ------------------------------------------------------------------------------------------

check "neither --network nor --elements" 2 "" \
    "contingency-cli $gen: no source of elements: --elements FILE.csv or --network NET\nusage: contingency-cli generate [OPTION...] (--elements FILE.csv | --network NET) OUT\nTry 'contingency-cli generate --help' for more information.\n" \
    -- "$cli" "$gen" out.json
check "--network=NET is the network mode" 0 "selected LINE: 7\nall-pairs: 21 contingencies\n" "" \
    -- "$cli" "$gen" "--network=$pairs" --types LINE --n2 all-pairs --dry-run
check "unknown rule" 2 "" \
    "contingency-cli $gen: unknown --n2 rule (parallel, common-substation, busbar, all-pairs): foo\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --n2 foo out.json
check "--name that is not UTF-8: nothing written" 2 "" \
    "$work/badname.json: error: the list name is not valid UTF-8\n" \
    -- sh -c "'$cli' '$gen' --network '$pairs' --name \"\$(printf 'n\\377')\" '$work/badname.json'; s=\$?; test ! -e '$work/badname.json' && exit \$s"
check "--report naming OUT" 2 "" \
    "contingency-cli $gen: the report and OUT cannot be one output\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --report "$work/same.json" "$work/same.json"
rm -f "$work/new.json"
check "--report naming OUT, not there yet, under another name" 2 "" \
    "contingency-cli $gen: the report and OUT cannot be one output\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --report "$work/./new.json" "$work/new.json"
cp "$pairs" "$work/net-copy.xiidm"
check "--report naming NET" 2 "" \
    "contingency-cli $gen: the report would replace NET\n$usage" \
    -- "$cli" "$gen" --network "$work/net-copy.xiidm" --report "$work/net-copy.xiidm" "$work/o.json"
check "--as-criterion with --report" 2 "" \
    "contingency-cli $gen: --as-criterion writes criteria, not contingencies: no --report, --id-format or --max-contingencies with it\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --as-criterion --report "$work/rep.txt" "$work/crit.json"
check "--as-criterion with --id-format" 2 "" \
    "contingency-cli $gen: --as-criterion writes criteria, not contingencies: no --report, --id-format or --max-contingencies with it\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --as-criterion --id-format '{id}' "$work/crit.json"
check "--as-criterion with --max-contingencies" 2 "" \
    "contingency-cli $gen: --as-criterion writes criteria, not contingencies: no --report, --id-format or --max-contingencies with it\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --as-criterion --max-contingencies 5 "$work/crit-max.json"
check "  nothing written" 0 "" "" -- test ! -e "$work/crit-max.json"
check "--with-n1: the N-2 limit before any N-1 is written to stdout" 0 "1 0\n" \
    "<generate>: error: all-pairs would generate 66 contingencies, more than the limit of 30\n" \
    -- sh -c "{ '$cli' '$gen' --network '$pairs' --n2 all-pairs --with-n1 --max-contingencies 30 -; echo \$? >'$work/lim.rc'; } | wc -c | tr -d ' ' >'$work/lim.n'; echo \$(cat '$work/lim.rc') \$(cat '$work/lim.n')"
# 3,000 lines: an N-1 larger than the writer's buffer, which a late failure leaves on stdout.
{
    printf '<iidm:network xmlns:iidm="http://www.powsybl.org/schema/iidm/1_17" id="big" caseDate="2026-01-01T00:00:00.000Z" forecastDistance="0" sourceFormat="ctg" minimumValidationLevel="STEADY_STATE_HYPOTHESIS">\n'
    for s in 0 1; do
        printf '<iidm:substation id="S%s"><iidm:voltageLevel id="V%s" nominalV="400.0" topologyKind="BUS_BREAKER"><iidm:busBreakerTopology><iidm:bus id="B%s"/></iidm:busBreakerTopology></iidm:voltageLevel></iidm:substation>\n' $s $s $s
    done
    awk 'BEGIN { for (i = 0; i < 3000; i++) printf "<iidm:line id=\"LINE_NUMBER_%06d\" r=\"2.0\" x=\"25.0\" g1=\"0.0\" b1=\"0.0\" g2=\"0.0\" b2=\"0.0\" bus1=\"B0\" connectableBus1=\"B0\" voltageLevelId1=\"V0\" bus2=\"B1\" connectableBus2=\"B1\" voltageLevelId2=\"V1\"/>\n", i }'
    printf '</iidm:network>\n'
} >"$work/big.xiidm"
# An object's id is unique in a network, nothing else is: a format without it repeats ids.
check "an N-1 id format without {id}" 2 "" \
    "<generate>: error: id format \"N-1_{type}\": no {id}, so contingencies would share ids\n" \
    -- "$cli" "$gen" --network "$pairs" --id-format 'N-1_{type}' "$work/noid.json"
check "a busbar id format without {id}" 2 "" \
    "<generate>: error: id format \"BUSBAR_{{id}}\": no {id}, so contingencies would share ids\n" \
    -- "$cli" "$gen" --network "$busbar" --n2 busbar --id-format 'BUSBAR_{{id}}' "$work/noid.json"
check "a pair id format without {id2}" 2 "" \
    "<generate>: error: id format \"N-2_{id1}\": no {id2}, so pairs would share ids\n" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --id-format 'N-2_{id1}' "$work/noid.json"
check "a pair id format of a constant, before all-pairs' count" 2 "" \
    "<generate>: error: id format \"{rule}\": no {id1} and {id2}, so pairs would share ids\n" \
    -- "$cli" "$gen" --network "$pairs" --n2 all-pairs --id-format '{rule}' "$work/noid.json"
check "--dry-run refuses the id format the run refuses" 2 "" \
    "<generate>: error: id format \"{rule}\": no {id1} and {id2}, so pairs would share ids\n" \
    -- "$cli" "$gen" --network "$pairs" --n2 all-pairs --id-format '{rule}' --dry-run
check "  nothing written" 0 "" "" -- test ! -e "$work/noid.json"
check "--dry-run --with-n1: no N-1 count before the N-2 id format is refused" 2 "" \
    "<generate>: error: id format \"{rule}\": no {id1} and {id2}, so pairs would share ids\n" \
    -- "$cli" "$gen" --network "$pairs" --n2 parallel --with-n1 --id-format '{rule}' --dry-run
check "--with-n1: the N-2 id format before any N-1 is written" 2 "" \
    "<generate>: error: id format \"{id}\": unknown placeholder at \"{id}\" ({id1}, {id2}, {rule})\n" \
    -- sh -c "'$cli' '$gen' --network '$work/big.xiidm' --n2 parallel --with-n1 --id-format '{id}' - >'$work/n1.out'; s=\$?; test ! -s '$work/n1.out' && exit \$s"
if [ -w /dev/full ]; then
    check "a full stdout: said once, exit 2" 2 "" "<stdout>: error: cannot write: No space left on device\n" \
        -- sh -c "'$cli' '$gen' --network '$pairs' - >/dev/full"
    check "a full stdout for the report: said once, exit 2" 2 "" \
        "<stdout>: error: cannot write: No space left on device\n" \
        -- sh -c "'$cli' '$gen' --network '$pairs' --n2 parallel --report - '$work/rf.json' >/dev/full"
    check "  and OUT not written" 0 "" "" -- test ! -e "$work/rf.json"
    check "a report that cannot be written leaves OUT as it was" 2 "OLD\n" \
        "/dev/full: error: cannot write: No space left on device\n" \
        -- sh -c "echo OLD >'$work/rf.json'; '$cli' '$gen' --network '$pairs' --n2 parallel --report /dev/full '$work/rf.json'; s=\$?; cat '$work/rf.json'; exit \$s"
fi
check "a closed pipe: said once, exit 1" 0 "1\n" "<stdout>: error: cannot write: Broken pipe\n" \
    -- sh -c "{ '$cli' '$gen' --network '$work/big.xiidm' -; echo \$? >'$work/pipe.rc'; } | head -c 10 >/dev/null; cat '$work/pipe.rc'"
check "--max-contingencies 0 is no limit of 0" 2 "" \
    "contingency-cli $gen: --max-contingencies takes a whole number of 1 or more: 0\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --n2 all-pairs --max-contingencies 0 out.json
check "--max-contingencies past 2^64 - 1 is no silent maximum" 2 "" \
    "contingency-cli $gen: --max-contingencies takes a whole number of 1 or more: 18446744073709551616\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --n2 all-pairs --max-contingencies 18446744073709551616 out.json
check "--max-contingencies given twice" 2 "" \
    "contingency-cli $gen: option given twice: --max-contingencies\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --n2 all-pairs --max-contingencies 5 --max-contingencies 7 out.json
check "--network given twice" 2 "" "contingency-cli $gen: option given twice: --network\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --network="$busbar" --dry-run
# A bad range, whatever is wrong with it, is a usage error naming the option as given.
range_err="takes LOW:HIGH in kV (0 <= LOW <= HIGH; either may be left out)"
check "--voltage2 inverted" 2 "" "contingency-cli $gen: --voltage2 $range_err: 500:100\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --types LINE --voltage2 500:100 out.json
check "--voltage negative" 2 "" "contingency-cli $gen: --voltage $range_err: -1:5\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --voltage=-1:5 out.json
check "--voltage3 not a number" 2 "" "contingency-cli $gen: --voltage3 $range_err: nan:\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --types THREE_WINDINGS_TRANSFORMER --voltage3 nan: out.json
check "--voltage past a double" 2 "" "contingency-cli $gen: --voltage $range_err: :1e400\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --voltage :1e400 out.json
check "--voltage2 without bounds" 2 "" "contingency-cli $gen: --voltage2 $range_err: :\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --types LINE --voltage2 : out.json
check "--voltage without a colon" 2 "" "contingency-cli $gen: --voltage $range_err: 400\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --voltage 400 out.json
check "--voltage of one point" 0 "selected LINE: 7\nn-1: 7 contingencies\n" "" \
    -- "$cli" "$gen" --network "$pairs" --types LINE --voltage 400:400 --dry-run
check "unknown type" 2 "" "contingency-cli $gen: invalid value of: --types\n$usage" \
    -- "$cli" "$gen" --network "$pairs" --types LINE,FOO out.json
check "busbar needs NET as a file" 2 "" \
    "contingency-cli $gen: the busbar rule reads NET twice: NET must be a file, not stdin or a pipe\n$usage" \
    -- "$cli" "$gen" --network - --n2 busbar out.json
rm -f "$work/net.fifo" && mkfifo "$work/net.fifo"
check "busbar needs NET as a file, not a FIFO" 2 "" \
    "contingency-cli $gen: the busbar rule reads NET twice: NET must be a file, not stdin or a pipe\n$usage" \
    -- "$cli" "$gen" --network "$work/net.fifo" --n2 busbar out.json
check "a type that cannot be selected" 2 "" \
    "<generate>: error: selection: SUBSTATION cannot be selected (not an enumerable contingency element)\n" \
    -- "$cli" "$gen" --network "$pairs" --types SUBSTATION out.json
check "an invalid regex" 2 "" "<generate>: error: selection: invalid regex \"(\": missing ): (\n" \
    -- "$cli" "$gen" --network "$pairs" --id-regex '(' out.json
check "an unknown connected-to id" 2 "" \
    "<generate>: error: selection: no voltage level or substation \"NOPE\"\n" \
    -- "$cli" "$gen" --network "$pairs" --connected-to NOPE out.json

echo "$((count - failures)) of $count CLI generate checks passed"
[ "$failures" -eq 0 ]
