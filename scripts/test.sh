#!/usr/bin/env bash
# SPDX-License-Identifier: MPL-2.0
# The project's test command (README, .ci/run): a -Werror build and its tests, the same tests
# again under ASan+UBSan, then one quick benchmark run (its timings are not checked).
# A failing ctest does not stop the later steps; the exit status is 1 if any step failed.
# CTG_BUILD_PREFIX=dir uses dir/ and dir-asan/ instead of build/ and build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${CTG_BUILD_PREFIX:-build}
jobs=$(nproc 2>/dev/null || echo 2)
failed=()

step() { printf '\n==== %s\n' "$*"; }

step "build with -Werror in $prefix/"
cmake -S . -B "$prefix" -DCTG_WERROR=ON
cmake --build "$prefix" -j "$jobs"
step "tests"
(cd "$prefix" && ctest --output-on-failure -j "$jobs") || failed+=("ctest in $prefix/")

step "build with ASan+UBSan in $prefix-asan/"
cmake -S . -B "$prefix-asan" -DCTG_SANITIZE=ON
cmake --build "$prefix-asan" -j "$jobs"
step "tests under ASan+UBSan"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
(cd "$prefix-asan" && ctest --output-on-failure -j "$jobs") || failed+=("ctest in $prefix-asan/")

step "contingency-bench --quick (timings are not checked)"
"$prefix/bench/contingency-bench" --quick || failed+=("contingency-bench --quick")

if [ ${#failed[@]} -gt 0 ]; then
    step "FAILED: ${failed[*]}"
    exit 1
fi
step "all passed"
