#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli resolve and network, end to end, on the bundled sample network
# (testdata/network/): exact stdout, stderr, exit status and output bytes of each case.
# usage: cli_network_test.sh CLI TESTDATA_DIR WORK_DIR EXAMPLE
#   EXAMPLE: the program built from examples/resolve.c (the README's C example)
set -u

cli=$1 data=$2 work=$3 example=$4
net=$data/network/sample.xiidm
jnet=$data/network/sample.jiidm
lists=$data/network
exp=$data/network/expected

rm -rf "$work" && mkdir -p "$work" || exit 2

# The harness: check and expect.
. "$(dirname "$0")/cli_check.sh"

# A file that a failed command must leave as it is; $work/kept.orig keeps a copy.
keep() {
    printf 'previous content\n' >"$1"
    cp "$1" "$work/kept.orig"
}

# ---- network: the summary -----------------------------------------------------------------

summary() { printf 'file: %s\n' "$1"; cat "$exp/summary.txt"; }
summary "$net" >"$work/summary_x"
check "network summary of the XIIDM sample" 0 "@$work/summary_x" "" -- "$cli" network "$net"
summary "$jnet" >"$work/summary_j"
check "network summary of the JIIDM twin is the same" 0 "@$work/summary_j" "" \
    -- "$cli" network "$jnet"
gzip -c "$net" >"$work/sample.xiidm.gz"
summary "$work/sample.xiidm.gz" >"$work/summary_gz"
check "network reads .gz" 0 "@$work/summary_gz" "" -- "$cli" network "$work/sample.xiidm.gz"
# A truncated .gz is placed where its text ends, as a list's is: only the trailer cut, the
# whole text was read; only the header there, nothing was.
gz_size=$(wc -c <"$work/sample.xiidm.gz")
head -c $((gz_size - 4)) "$work/sample.xiidm.gz" >"$work/cut.xiidm.gz"
check "network of a truncated .gz: where its text ends" 1 "" \
    "$work/cut.xiidm.gz:69:1: error: /: truncated gzip data\n" -- "$cli" network "$work/cut.xiidm.gz"
head -c 10 "$work/sample.xiidm.gz" >"$work/head.xiidm.gz"
check "network of a gzip header alone: at the start" 1 "" \
    "$work/head.xiidm.gz:1:1: error: /: truncated gzip data\n" -- "$cli" network "$work/head.xiidm.gz"
summary "<stdin>" >"$work/summary_stdin"
check "network reads stdin (.gz too)" 0 "@$work/summary_stdin" "" \
    -- sh -c "'$cli' network - <'$work/sample.xiidm.gz'"
printf 'file: %s\n' "$lists/subnetworks.xiidm" | cat - "$exp/summary-subnetworks.txt" \
    >"$work/summary_sub"
check "network summary counts each subnetwork's objects" 0 "@$work/summary_sub" "" \
    -- "$cli" network "$lists/subnetworks.xiidm"
check "network --quiet still prints the summary" 0 "@$work/summary_x" "" \
    -- "$cli" network -q "$net"

# ---- network --dump -----------------------------------------------------------------------

check "network --dump to stdout" 0 "@$exp/sample-dump.json" "" -- "$cli" network --dump "$net"
check "network --dump - is stdout" 0 "@$exp/sample-dump.json" "" \
    -- "$cli" network --dump "$net" -
check "network --dump of the JIIDM twin" 0 "@$exp/sample-dump.json" "" \
    -- "$cli" network --dump "$jnet"
keep "$work/dump.json"
check "network --dump to a file" 0 "" "" -- "$cli" network --dump "$net" "$work/dump.json"
check "network --dump replaced the file" 0 "" "" -- cmp "$exp/sample-dump.json" "$work/dump.json"
check "network --dump leaves no temporary file" 0 "" "" \
    -- sh -c "! ls -a '$work' | grep -q ctg-tmp"
check "network OUT without --dump" 2 "" \
    "contingency-cli network: OUT without --dump: $work/x\nusage: contingency-cli network [OPTION...] NET [OUT]\nTry 'contingency-cli network --help' for more information.\n" \
    -- "$cli" network "$net" "$work/x"
check "network without NET" 2 "" \
    "contingency-cli network: no network given\nusage: contingency-cli network [OPTION...] NET [OUT]\nTry 'contingency-cli network --help' for more information.\n" \
    -- "$cli" network

# ---- network errors ---------------------------------------------------------------------

bad_net=$data/network/invalid-unknown-voltage-level.xiidm
# The expected messages name the files as @DATA@/... and @WORK@/...
message() { sed "s|@DATA@|$data|; s|@WORK@|$work|" "$exp/$1"; }
bad_net_err=$(message invalid-unknown-voltage-level.err)
check "network of an invalid network" 1 "" "$bad_net_err\n" -- "$cli" network "$bad_net"
keep "$work/dump.json"
check "network --dump of an invalid network fails" 1 "" "$bad_net_err\n" \
    -- "$cli" network --dump "$bad_net" "$work/dump.json"
check "network --dump of an invalid network leaves OUT" 0 "" "" \
    -- cmp "$work/kept.orig" "$work/dump.json"
check "network of a missing file is an I/O error" 2 "" "" \
    -- sh -c "'$cli' network '$work/nope.xiidm' 2>/dev/null"

# ---- resolve: every kind ------------------------------------------------------------------

for kind in default criterion identifier nested; do
    check "resolve $kind to stdout" 0 "@$exp/resolved-$kind.json" "" \
        -- "$cli" resolve --network "$net" "$lists/$kind.json" -
    check "resolve $kind to a file" 0 "" "" \
        -- "$cli" resolve --network "$net" "$lists/$kind.json" "$work/$kind.json"
    check "resolve $kind to a file, same bytes" 0 "" "" \
        -- cmp "$exp/resolved-$kind.json" "$work/$kind.json"
    check "resolve $kind against the JIIDM twin" 0 "@$exp/resolved-$kind.json" "" \
        -- "$cli" resolve --network "$jnet" "$lists/$kind.json" -
    check "resolve $kind from stdin" 0 "@$exp/resolved-$kind.json" "" \
        -- sh -c "'$cli' resolve --network '$net' - - <'$lists/$kind.json'"
done

# A `default` list with its name last cannot stream: it is resolved whole, to the same list.
sed 's/^  "name" : "sample N-1",$//; s/^}$/, "name" : "sample N-1" }/' "$lists/default.json" \
    >"$work/name-last.json"
check "resolve a default list with its name last" 0 "@$exp/resolved-default.json" "" \
    -- "$cli" resolve --network "$net" "$work/name-last.json" -
if [ -w /dev/full ]; then
    check "resolve to a full stdout: said once, exit 2" 2 "" \
        "<stdout>: error: cannot write: No space left on device\n" \
        -- sh -c "'$cli' resolve --network '$net' '$lists/criterion.json' - >/dev/full"
fi
check "resolve --network=NET" 0 "@$exp/resolved-criterion.json" "" \
    -- "$cli" resolve --network="$net" "$lists/criterion.json" -
check "resolve --compact" 0 "@$exp/resolved-criterion-compact.json" "" \
    -- "$cli" resolve --compact --network "$net" "$lists/criterion.json" -

# A bare contingency is a list of one (named ""); an empty list stays empty.
printf '{"id":"c1","elements":[{"id":"G_FR1","type":"GENERATOR"}]}' >"$work/bare.json"
check "resolve a bare contingency" 0 "@$exp/resolved-bare.json" "" \
    -- "$cli" resolve --network "$net" "$work/bare.json" -
printf '{"type":"default","version":"1.1","name":"e","contingencies":[]}' >"$work/empty.json"
check "resolve an empty default list" 0 \
    '{\n  "type" : "default",\n  "version" : "1.1",\n  "name" : "e",\n  "contingencies" : [ ]\n}' "" \
    -- "$cli" resolve --network "$net" "$work/empty.json" -

# gzip: the network, the list and OUT.
gzip -c "$lists/default.json" >"$work/default.json.gz"
check "resolve .gz network and list" 0 "@$exp/resolved-default.json" "" \
    -- "$cli" resolve --network "$work/sample.xiidm.gz" "$work/default.json.gz" -
check "resolve network from stdin" 0 "@$exp/resolved-default.json" "" \
    -- sh -c "'$cli' resolve --network - '$work/default.json.gz' - <'$work/sample.xiidm.gz'"
check "resolve to .gz" 0 "" "" \
    -- "$cli" resolve --network "$net" "$lists/identifier.json" "$work/out.json.gz"
check "resolve to .gz compresses" 0 "@$exp/resolved-identifier.json" "" \
    -- sh -c "gzip -dc '$work/out.json.gz'"

# A `default` list with its name first streams: 300,000 contingencies (19 MB) take no more
# memory than the sample list (the peak RSS grows by less than 8 MB; read whole it grows by
# 60 MB). Every third one names a generator the network lacks and is dropped.
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
    awk 'BEGIN { printf "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"big\",\"contingencies\":[";
        for (i = 0; i < 300000; i++)
            printf "%s{\"id\":\"c%d\",\"elements\":[{\"id\":\"%s\",\"type\":\"GENERATOR\"}]}",
                (i ? "," : ""), i, (i % 3 ? "G_FR1" : "G_X");
        printf "]}" }' >"$work/big.json"
    peak() { /usr/bin/time -f %M -o "$work/rss" "$cli" resolve --network "$net" "$1" "$2" && cat "$work/rss"; }
    small=$(peak "$lists/default.json" "$work/small.json")
    big=$(peak "$work/big.json" "$work/big-out.json")
    check "resolve streams a large default list in constant memory ($small KB, $big KB)" 0 "" "" \
        -- test $((big - small)) -lt 8192
    check "the large list lost every third contingency" 0 "200000\n" "" \
        -- sh -c "grep -c '^    \"id\" : \"c' '$work/big-out.json'"
    rm -f "$work/big.json" "$work/big-out.json"
else
    echo "SKIP: GNU time (/usr/bin/time) is not installed: the constant-memory check"
fi

# ---- resolve --report ---------------------------------------------------------------------

for kind in default identifier nested; do
    check "resolve $kind --report" 0 "" "" \
        -- "$cli" resolve --network "$net" --report "$work/$kind.report" "$lists/$kind.json" \
        "$work/r.json"
    check "resolve $kind --report lines" 0 "@$exp/report-$kind.txt" "" -- cat "$work/$kind.report"
    check "resolve $kind --report-format json" 0 "@$exp/report-$kind.json" "" \
        -- "$cli" resolve --network "$net" --report - --report-format json "$lists/$kind.json" \
        "$work/r.json"
done
check "resolve --report of nothing dropped is empty" 0 "" "" \
    -- "$cli" resolve --network "$net" --report - "$lists/criterion.json" "$work/r.json"
check "resolve --report-format json of nothing is []" 0 "[]\n" "" \
    -- "$cli" resolve --network "$net" --report - --report-format json "$lists/criterion.json" \
    "$work/r.json"
check "resolve --report-format text" 0 "@$exp/report-default.txt" "" \
    -- "$cli" resolve --network "$net" --report - --report-format text "$lists/default.json" \
    "$work/r.json"
check "resolve --report to stdout with the list to a file" 0 "" "" \
    -- cmp "$exp/resolved-default.json" "$work/r.json"
# The list and its report are kept together or not at all: a report that cannot be written
# leaves OUT as it was, for a streamed list and a list resolved whole alike.
if [ -w /dev/full ]; then
    for kind in default identifier; do
        check "resolve $kind: a report that cannot be written" 2 "OLD\n" \
            "/dev/full: error: cannot write: No space left on device\n" \
            -- sh -c "echo OLD >'$work/full.json'; '$cli' resolve --network '$net' --report /dev/full '$lists/$kind.json' '$work/full.json'; s=\$?; cat '$work/full.json'; exit \$s"
    done
fi
# Ids from the input are escaped in the text report: no list can drive the terminal.
printf '{"type":"default","version":"1.1","name":"n","contingencies":[{"id":"a\\u001b[2J","elements":[{"id":"G\\nX","type":"GENERATOR"}]}]}' >"$work/evil.json"
check "resolve --report escapes ids" 0 "@$exp/report-evil.txt" "" \
    -- "$cli" resolve --network "$net" --report - "$work/evil.json" "$work/r.json"
check "resolve --report-format json escapes ids as JSON" 0 "@$exp/report-evil.json" "" \
    -- "$cli" resolve --network "$net" --report - --report-format json "$work/evil.json" \
    "$work/r.json"

# ---- resolve errors: nothing written ------------------------------------------------------

# resolve_fails LABEL WHAT NET LIST STDERR: resolve NET LIST to a file OUT with a report exits 1
# with STDERR, and leaves OUT as it was, and neither a report nor a temporary file beside it.
resolve_fails() {
    check "$1" 1 "" "$5" \
        -- "$cli" resolve --network "$3" --report "$work/atomic/report" "$4" "$work/atomic/out.json"
    check "$2 leaves OUT" 0 "" "" -- cmp "$work/kept.orig" "$work/atomic/out.json"
    check "$2 leaves no report nor temporary file" 0 "out.json\n" "" -- ls -A "$work/atomic"
}
mkdir "$work/atomic"
keep "$work/atomic/out.json"
resolve_fails "resolve against an invalid network" "an invalid network" "$bad_net" \
    "$lists/default.json" "$bad_net_err\n"
bad_list=$data/cli/unknown-type.json
bad_type="$bad_list:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n"
resolve_fails "resolve an invalid list" "an invalid list" "$net" "$bad_list" "$bad_type"
fails_err=$(message fails.err)
resolve_fails "resolve an evaluation that fails" "a failed evaluation" "$net" \
    "$lists/fails.json" "$fails_err\n"
# An empty element id fails the evaluation of a streamed `default` list after a contingency
# was filtered: the streamed file OUT is still left as it was.
printf '{"type":"default","version":"1.1","name":"n","contingencies":[{"id":"ok","elements":[{"id":"G_FR1","type":"GENERATOR"}]},{"id":"c","elements":[{"id":"","type":"LOAD"}]}]}' >"$work/empty-id.json"
empty_err=$(message empty-id.err)
check "resolve a streamed list that fails late" 1 "" "$empty_err\n" \
    -- "$cli" resolve --network "$net" "$work/empty-id.json" "$work/atomic/out.json"
check "a late failure leaves OUT" 0 "" "" -- cmp "$work/kept.orig" "$work/atomic/out.json"
check "a late failure leaves no temporary file" 0 "out.json\n" "" -- ls -A "$work/atomic"
check "resolve a missing list is an I/O error" 2 "" \
    "$work/nope.json: error: cannot open: No such file or directory\n" \
    -- "$cli" resolve --network "$net" "$work/nope.json" -
check "resolve a report in a missing folder is an I/O error" 2 "" "" \
    -- sh -c "'$cli' resolve --network '$net' --report '$work/no/r' '$lists/default.json' - \
        >/dev/null 2>&1"

# A file with other hard links is refused, OUT or report, unless --break-links.
printf 'old\n' >"$work/linked" && ln -f "$work/linked" "$work/linked2"
links_err="$work/linked: error: cannot replace a file with 2 hard links: the other names would keep the old content\ncontingency-cli resolve: --break-links replaces it anyway\n"
check "resolve refuses an OUT with other hard links" 2 "" "$links_err" \
    -- "$cli" resolve --network "$net" "$lists/criterion.json" "$work/linked"
check "resolve refuses a report with other hard links" 2 "" "$links_err" \
    -- "$cli" resolve --network "$net" --report "$work/linked" "$lists/criterion.json" "$work/r.json"
check "the linked file is untouched" 0 "old\n" "" -- cat "$work/linked2"
check "resolve --break-links replaces it" 0 "" "" \
    -- "$cli" resolve --break-links --network "$net" --report "$work/linked" "$lists/default.json" \
    "$work/r.json"
check "resolve --break-links wrote the report" 0 "@$exp/report-default.txt" "" -- cat "$work/linked"
check "resolve --break-links left the other name" 0 "old\n" "" -- cat "$work/linked2"

# ---- resolve usage errors -----------------------------------------------------------------

usage_resolve='usage: contingency-cli resolve [OPTION...] --network NET LIST OUT\n'
more_resolve="Try 'contingency-cli resolve --help' for more information.\n"
usage_check() {
    name=$1 message=$2
    shift 2
    check "resolve usage: $name" 2 "" "contingency-cli resolve: $message\n$usage_resolve$more_resolve" \
        -- "$cli" resolve "$@"
}
usage_check "no --network" "missing --network NET" "$lists/default.json" -
usage_check "no OUT" "missing LIST or OUT" --network "$net" "$lists/default.json"
usage_check "too many" "too many arguments" --network "$net" a b c
usage_check "--network without its value" "missing value of option: --network" \
    "$lists/default.json" - --network
usage_check "unknown report format" "unknown report format (text or json): xml" \
    --network "$net" --report - --report-format xml "$lists/default.json" "$work/r.json"
usage_check "--report-format alone" "--report-format without --report" \
    --network "$net" --report-format json "$lists/default.json" -
usage_check "NET and LIST both stdin" "NET and LIST cannot both be stdin" \
    --network - - "$work/r.json"
usage_check "report and OUT both stdout" "the report and OUT cannot be one output" \
    --network "$net" --report - "$lists/default.json" -
usage_check "report and OUT one file" "the report and OUT cannot be one output" \
    --network "$net" --report "$work/r.json" "$lists/default.json" "$work/r.json"
: >"$work/r2.json" && ln -f "$work/r2.json" "$work/r2-link.json"
usage_check "report and OUT one file under two names" "the report and OUT cannot be one output" \
    --network "$net" --report "$work/r2-link.json" "$lists/default.json" "$work/r2.json"
rm -f "$work/r3.json"
usage_check "report and OUT one new file under two names" "the report and OUT cannot be one output" \
    --network "$net" --report "$work/./r3.json" "$lists/default.json" "$work/r3.json"
cp "$lists/default.json" "$work/in-copy.json"
usage_check "report replacing LIST" "the report would replace an input" \
    --network "$net" --report "$work/in-copy.json" "$work/in-copy.json" "$work/r4.json"
usage_check "unknown option" "unknown option: --strict" --strict --network "$net" a b

# ---- the progress bar, on a terminal (script(1) gives one) --------------------------------

if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    tty_check() {
        check "$1" 0 "$2" "" -- sh -c 'script -qec "$1" /dev/null </dev/null >"$2"; status=$?
            sed "s/[0-9.]* kB\/s/R kB\/s/; s/elapsed [0-9:]*/elapsed T/" "$2"; exit $status' \
            sh "$3" "$work/tty"
    }
    esc=$(printf '\033')
    list=$lists/default.json
    size=$(LC_ALL=C awk "BEGIN { printf \"%.1f\", $(wc -c <"$list") / 1000 }")
    tty_check "resolve draws the progress of a slow list" \
        "\r$size kB read R kB/s elapsed T$esc[K\r$esc[K" \
        "(head -c 100 '$list'; sleep 1; tail -c +101 '$list') | COLUMNS=80 '$cli' resolve --network '$net' - '$work/tty.json'"
    check "resolve with a progress bar wrote the list" 0 "" "" \
        -- cmp "$exp/resolved-default.json" "$work/tty.json"
    tty_check "resolve --no-progress draws nothing" "" \
        "(head -c 100 '$list'; sleep 1; tail -c +101 '$list') | '$cli' resolve --no-progress --network '$net' - '$work/tty.json'"
    nsize=$(LC_ALL=C awk "BEGIN { printf \"%.1f\", $(wc -c <"$net") / 1000 }")
    tty_check "network draws the progress of a slow network" \
        "\r$nsize kB read R kB/s elapsed T$esc[K\r$esc[K" \
        "(head -c 100 '$net'; sleep 1; tail -c +101 '$net') | COLUMNS=80 '$cli' network - >/dev/null"
    tty_check "network -q draws nothing" "" \
        "(head -c 100 '$net'; sleep 1; tail -c +101 '$net') | '$cli' network -q - >/dev/null"
else
    echo "SKIP: script(1) is not available: the progress bar checks on a terminal"
fi

# ---- the README's C example (examples/resolve.c) -----------------------------------------

check "examples/resolve.c on the criterion list" 0 "G_FR1: GENERATOR G_FR1\nG_FR2: GENERATOR G_FR2\n" "" \
    -- "$example" "$net" "$lists/criterion.json"
# The library knows no line of a list it was handed; the CLI finds it in the kept text.
check "examples/resolve.c reports a failed evaluation" 1 "" "<list>${fails_err#"$lists/fails.json:8:6"}\n" \
    -- "$example" "$net" "$lists/fails.json"

echo "$((count - failures)) of $count CLI network checks passed"
[ "$failures" -eq 0 ]
