# SPDX-License-Identifier: MPL-2.0
# The harness of the CLI's end-to-end scripts (sourced): they set $work, then call check and
# print "$((count - failures)) of $count ... passed" at the end.

failures=0 count=0

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
