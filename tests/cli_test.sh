#!/bin/sh
# contingency-cli end to end: exact stdout, stderr and exit status of each case.
# usage: cli_test.sh CLI TESTDATA_DIR WORK_DIR VERSION
set -u

cli=$1 data=$2 work=$3 version=$4
sample=$data/valid/sample.json
bad=$data/cli/unknown-type.json
failures=0 count=0

rm -rf "$work" && mkdir -p "$work" || exit 2

# check NAME STATUS STDOUT STDERR -- COMMAND...: STDOUT/STDERR are printf %b texts, or
# @FILE to compare with a file's bytes.
check() {
    name=$1 want_status=$2 want_out=$3 want_err=$4
    shift 5
    count=$((count + 1))
    "$@" >"$work/out" 2>"$work/err"
    status=$?
    expect "$want_out" "$work/want_out"
    expect "$want_err" "$work/want_err"
    if [ "$status" -ne "$want_status" ] || ! cmp -s "$work/out" "$work/want_out" ||
        ! cmp -s "$work/err" "$work/want_err"; then
        failures=$((failures + 1))
        echo "FAIL: $name (exit $status, expected $want_status)"
        diff "$work/want_out" "$work/out" | sed 's/^/  stdout: /' | head -20
        diff "$work/want_err" "$work/err" | sed 's/^/  stderr: /' | head -20
    else
        echo "ok: $name"
    fi
}

expect() {
    case $1 in
    @*) cp "${1#@}" "$2" ;;
    *) printf '%b' "$1" >"$2" ;;
    esac
}

# A file that a failed convert must leave as it is; $work/kept.orig keeps a copy.
keep() {
    printf 'previous content\n' >"$1"
    cp "$1" "$work/kept.orig"
}

usage_convert='usage: contingency-cli convert [--compact] [--break-links] IN OUT\n'
more_convert="Try 'contingency-cli convert --help' for more information.\n"
bad_type="$bad:15:16: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n"
compact='{"type":"default","version":"1.1","name":"sample","contingencies":[{"id":"N-1_NHV1_NHV2_1","name":"Perte de la ligne NHV1-NHV2 n°1","elements":[{"id":"NHV1_NHV2_1","type":"LINE"}]},{"id":"N-1_NGEN_NHV1","elements":[{"id":"NGEN_NHV1","type":"TWO_WINDINGS_TRANSFORMER","voltageLevelId":"VLGEN"}]},{"id":"N-2_GEN_LOAD","elements":[{"id":"GEN","type":"GENERATOR"},{"id":"LOAD","type":"LOAD"}]},{"id":"N-1_S1VL1_BBS","elements":[{"id":"S1VL1_BBS","type":"BUSBAR_SECTION"}]},{"id":"N-2_HVDC1_BREAKER","elements":[{"id":"HVDC1","type":"HVDC_LINE","voltageLevelId":"VL1"},{"id":"S1VL1_LD1_BREAKER","type":"SWITCH"}]}]}'

check "version" 0 "contingency-cli $version\n" "" -- "$cli" --version
check "no arguments" 2 "" "@$work/help" -- sh -c "'$cli' --help >'$work/help'; '$cli'"
check "unknown command" 2 "" \
    "contingency-cli: unknown command 'frobnicate'\nTry 'contingency-cli --help' for the list of commands.\n" \
    -- "$cli" frobnicate

check "validate sample" 0 "$sample: ok\n" "" -- "$cli" validate "$sample"
check "validate stdin" 0 "-: ok\n" "" -- sh -c "'$cli' validate - <'$sample'"
check "validate invalid" 1 "" "$bad_type" -- "$cli" validate "$bad"
check "validate checks every file" 1 "$sample: ok\n$sample: ok\n" "$bad_type" \
    -- "$cli" validate "$sample" "$bad" "$sample"
check "validate no file" 2 "" \
    "contingency-cli validate: no file given\nusage: contingency-cli validate [--quiet] FILE...\nTry 'contingency-cli validate --help' for more information.\n" \
    -- "$cli" validate
check "validate unknown option" 2 "" \
    "contingency-cli validate: unknown option: --strict\nusage: contingency-cli validate [--quiet] FILE...\nTry 'contingency-cli validate --help' for more information.\n" \
    -- "$cli" validate --strict "$sample"
check "validate -- ends options" 0 "-s.json: ok\n" "" \
    -- sh -c "cd '$work' && cp '$sample' ./-s.json && '$cli' validate -- -s.json"
check "validate missing file is an I/O error" 2 "" "$work/nope: error: /: cannot open: No such file or directory\n" \
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
if [ -w /dev/full ]; then
    check "convert to a full stdout is an I/O error" 2 "" "" \
        -- sh -c "'$cli' convert '$sample' - >/dev/full 2>/dev/null"
fi

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
stats_sample="file: $sample\ncontingencies: 5\nelements: 7\n  GENERATOR: 1\n  HVDC_LINE: 1\n  BUSBAR_SECTION: 1\n  LINE: 1\n  TWO_WINDINGS_TRANSFORMER: 1\n  LOAD: 1\n  SWITCH: 1\nlargest: N-2_GEN_LOAD (2 elements)\n"
check "stats sample" 0 "$stats_sample" "" -- "$cli" stats "$sample"
check "stats invalid" 1 "" "$bad_type" -- "$cli" stats "$bad"
check "stats no file" 2 "" \
    "contingency-cli stats: no file given\nusage: contingency-cli stats [--quiet] FILE\nTry 'contingency-cli stats --help' for more information.\n" \
    -- "$cli" stats
check "validate --quiet" 0 "$sample: ok\n" "" -- "$cli" validate --quiet "$sample"
check "convert to .gz" 0 "" "" -- "$cli" convert "$sample" "$work/sample.json.gz"
check "the .gz is gzip" 0 "" "" -- sh -c "gzip -t '$work/sample.json.gz'"
check "convert from .gz" 0 "" "" -- "$cli" convert "$work/sample.json.gz" "$work/back.json"
check "back from .gz is the same" 0 "" "" -- cmp "$sample" "$work/back.json"
check "stats of .gz" 0 "$(printf '%s' "$stats_sample" | sed "s|file: $sample|file: $work/sample.json.gz|")" "" \
    -- "$cli" stats "$work/sample.json.gz"
keep "$work/kept.json"
check "streaming convert of invalid leaves OUT" 1 "" "$bad_type" -- "$cli" convert "$bad" "$work/kept.json"
check "OUT untouched" 0 "" "" -- cmp "$work/kept.orig" "$work/kept.json"
check "no temporary file left" 0 "" "" -- sh -c "! ls -a '$work' | grep -q tmp"

echo "$((count - failures)) of $count CLI checks passed"
[ "$failures" -eq 0 ]
