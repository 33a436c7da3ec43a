#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# Every test-like function head in a suite's file is a test that ctg_tests runs: counts, per
# suite, the lines that look like a test (CTG_TEST / CTG_SHARED_TEST anywhere on a line, or a
# function named test_*) and compares with what `ctg_tests --list` registers. The tables are
# generated from the same files (tests/tests.cmake); this looser count catches a test the
# generator's pattern would have missed.
# usage: check_registration.sh CTG_TESTS TESTS_DIR
set -eu
prog=$1
dir=$2
list=$("$prog" --list)
status=0
for suite in $(sed -n 's/^CTG_SUITE(\([A-Za-z0-9_]*\)).*/\1/p' "$dir/suites.h"); do
    defined=$(grep -Ec '(CTG_(SHARED_)?TEST[[:space:]]*\(|^[[:space:]]*(static[[:space:]]+)?void[[:space:]]+\**test_[A-Za-z0-9_]*[[:space:]]*\()' \
        "$dir/test_$suite.c" || true)
    run=$(printf '%s\n' "$list" | grep -Ec "^$suite(/shared)? " || true)
    if [ "$defined" != "$run" ]; then
        echo "FAIL: tests/test_$suite.c defines $defined tests, ctg_tests registers $run"
        status=1
    fi
done
total=$(printf '%s\n' "$list" | grep -c .)
echo "$total tests registered"
exit $status
