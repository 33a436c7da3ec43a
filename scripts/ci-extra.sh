#!/usr/bin/env bash
# SPDX-License-Identifier: MPL-2.0
# The reliability jobs (issue 5), the second test command CI runs (.ci/run), after
# ./scripts/test.sh:
#   1. valgrind memcheck over every test binary and the fuzz corpus replay (no leak allowed);
#   2. the whole ctest suite again under LC_ALL=de_DE.UTF-8, the locale generated with
#      localedef into the build folder (LOCPATH), so no system locale is needed;
#   3. the thread test under ThreadSanitizer (clang), in its own build folder;
#   4. a --coverage build (gcc): line and branch coverage of the library with gcovr;
#   5. each libFuzzer target (CTG_FUZZ_TARGETS in CMakeLists.txt: lexer, read, roundtrip,
#      stream, alloc, sa, and xiidm, jiidm, resolve with the network library) for
#      CTG_FUZZ_SECONDS (default 30: nine targets take about 5 of CI's minutes) with -fork=2,
#      starting from the committed corpus; any crash, leak, timeout or OOM artifact fails the
#      job;
#   6. the package (scripts/check-install.sh): installed into a temporary prefix, moved, and
#      examples/ built and run against it with CMake and with pkg-config, shared and static;
#   7. the API reference: the `docs` target (Doxygen), where any warning is an error;
#   8. a 32-bit build (gcc -m32, x87 floating point, cmake/i386-linux-gnu.cmake) of everything
#      with -Werror, and the whole ctest suite there;
#   9. the same 32-bit build under AddressSanitizer and UndefinedBehaviorSanitizer
#      (-DCTG_SANITIZE=ON), and the ctest suite there but bench_quick and bench_process_quick
#      (which the 64-bit ASan run and the m32 job run), with CTG_TEST_QUICK=1: item sizes and
#      alignments differ on 32-bit targets, and only a sanitizer sees a copy that runs past a
#      32-bit item.
# CTG_TEST_QUICK=1 (valgrind, coverage, m32-asan) runs the same checks on fewer random inputs
# and smaller pathological sizes (tests/test_common.h); scripts/test.sh runs them whole, plain
# and under ASan. On two cores the jobs take about 15 minutes, the whole CI about 23.
# A failing job does not stop the later ones; the exit status is 1 if any failed. A table of
# the time each job took ends the output.
#
# Needs clang, libclang-rt-14-dev, llvm, valgrind, locales, gcovr, doxygen and, for the 32-bit
# build, gcc-multilib, g++-multilib, lib32asan8, lib32ubsan1, libjson-c-dev:i386,
# libcunit1-dev:i386, zlib1g-dev:i386, libexpat1-dev:i386, libre2-dev:i386 and libcsv-dev:i386 (the i386 architecture added with dpkg
# --add-architecture; Debian 12; .ci/run installs them all). Uses $CTG_BUILD_PREFIX (default
# build) as test.sh does: the -Werror build in build/ (built here when missing) and its own
# build-tsan/, build-cov/, build-fuzz/, build-install/, build-m32/ and build-m32-asan/.
# CTG_EXTRA_JOBS="valgrind locale tsan coverage fuzz install docs m32 m32-asan" picks jobs.
# The coverage job fails below its targets (lexer 100% lines and 95% branches, the library 90%
# lines); CTG_COVERAGE_STRICT=0 only reports the figures.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${CTG_BUILD_PREFIX:-build}
jobs=$(nproc 2>/dev/null || echo 2)
fuzz_seconds=${CTG_FUZZ_SECONDS:-30}
selected=" ${CTG_EXTRA_JOBS:-valgrind locale tsan coverage fuzz install docs m32 m32-asan} "
# The fuzz targets, from the one list of them (CTG_FUZZ_TARGETS in CMakeLists.txt, with the
# network library's appended to it).
fuzz_targets=$(sed -n -e 's/^set(CTG_FUZZ_TARGETS \(.*\))$/\1/p' \
    -e 's/^ *list(APPEND CTG_FUZZ_TARGETS \(.*\))$/\1/p' CMakeLists.txt | tr '\n' ' ')
[ -n "$fuzz_targets" ] || { echo "no CTG_FUZZ_TARGETS in CMakeLists.txt"; exit 1; }
failed=()
timings=()

step() { printf '\n==== %s\n' "$*"; }

# Runs job function $1 (named $2 in the summary), timing it and recording a failure.
run_job() {
    local fn=$1 name=$2 start=$SECONDS status=0
    case "$selected" in *" $name "*) ;; *) return 0 ;; esac
    step "$name"
    "$fn" || status=$?
    # 77: the job cannot run on this machine (said why); shown as skipped, not as passed.
    local word=FAILED
    case $status in 0) word=ok ;; 77) word=skipped ;; esac
    timings+=("$(printf '%-10s %4d s  %s' "$name" $((SECONDS - start)) "$word")")
    [ $status -eq 0 ] || [ $status -eq 77 ] || failed+=("$name")
}

ensure_plain_build() {
    if [ ! -x "$prefix/tests/ctg_tests" ]; then
        cmake -S . -B "$prefix" -DCTG_WERROR=ON && cmake --build "$prefix" -j "$jobs"
    fi
}

# ---- 1. valgrind ---------------------------------------------------------------------------

# One valgrind run; its name and output go to a log, shown when it fails. 77 is a skip.
valgrind_one() {
    local log=$1
    shift
    local rc=0 start=$SECONDS
    valgrind --error-exitcode=101 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --show-leak-kinds=definite,indirect --child-silent-after-fork=yes \
        --suppressions=tests/valgrind.supp --quiet "$@" >"$log" 2>&1 || rc=$?
    local took="($((SECONDS - start)) s)"
    if [ $rc -eq 77 ]; then
        echo "skipped $took: $*"
    elif [ $rc -ne 0 ]; then
        echo "FAILED ($rc) $took: $*"
        tail -n 60 "$log"
        return 1
    else
        echo "ok $took: $*"
    fi
}
export -f valgrind_one

job_valgrind() {
    ensure_plain_build
    local dir=$prefix/valgrind t suites
    mkdir -p "$dir"
    # Every part of every suite: SUITE and SUITE/shared (tests/main.c --list), each once: the
    # list is in registration order, where a suite's tests need not be adjacent, and a run of
    # SUITE runs all of them.
    suites=$("$prefix/tests/ctg_tests" --list | cut -d' ' -f1 | awk '!seen[$0]++')
    {
        for s in $suites; do
            echo "$dir/suite-$(echo "$s" | tr / -).log $prefix/tests/ctg_tests $s"
        done
        for t in $fuzz_targets; do
            echo "$dir/replay-$t.log $prefix/tests/fuzz_replay_$t tests/fuzz/corpus/fuzz_$t" \
                "tests/fuzz/seeds tests/fuzz/regress"
        done
        echo "$dir/threads.log $prefix/tests/ctg_threads"
        echo "$dir/threads-network.log $prefix/tests/ctg_threads_network"
    } >"$dir/commands"
    # The pathological tests shrink tenfold, the random inputs too, the network's allocation
    # sweep fails every seventh allocation past the first hundred and the random allocation
    # failures run 60 seeds instead of 300 (CTG_TEST_QUICK): valgrind is ~30 times slower.
    CTG_TEST_QUICK=1 xargs -P "$jobs" -L 1 bash -c 'valgrind_one "$@"' _ <"$dir/commands"
}

# ---- 2. locale -------------------------------------------------------------------------------

job_locale() {
    ensure_plain_build
    local loc=$prefix/locale
    mkdir -p "$loc"
    # localedef exits 1 on mere warnings of the Debian sources; the check below is what counts.
    [ -d "$loc/de_DE.UTF-8" ] || localedef -i de_DE -f UTF-8 "$loc/de_DE.UTF-8" || true
    local point
    point=$(LOCPATH=$loc LC_ALL=de_DE.UTF-8 locale decimal_point 2>/dev/null || true)
    if [ "$point" != "," ]; then
        echo "the generated de_DE.UTF-8 locale does not load (decimal point '$point')"
        return 1
    fi
    echo "de_DE.UTF-8 from $loc: decimal point '$point'"
    (cd "$prefix" && LOCPATH=$PWD/locale LC_ALL=de_DE.UTF-8 ctest --output-on-failure -j "$jobs")
}

# ---- 3. ThreadSanitizer ----------------------------------------------------------------------

job_tsan() {
    cmake -S . -B "$prefix-tsan" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        -DCTG_TSAN=ON -DCTG_BUILD_CLI=OFF -DCTG_BUILD_BENCH=OFF >/dev/null || return 1
    cmake --build "$prefix-tsan" -j "$jobs" --target ctg_threads ctg_threads_network || return 1
    local t
    for t in ctg_threads ctg_threads_network; do
        TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:exitcode=66:suppressions=$PWD/tests/tsan.supp" \
            "$prefix-tsan/tests/$t" || return 1
    done
}

# ---- 4. coverage -----------------------------------------------------------------------------

job_coverage() {
    local dir=$prefix-cov rc=0
    cmake -S . -B "$dir" -DCMAKE_C_COMPILER=gcc -DCTG_COVERAGE=ON -DCTG_BUILD_BENCH=OFF \
        >/dev/null || return 1
    cmake --build "$dir" -j "$jobs" || return 1
    find "$dir" -name '*.gcda' -delete
    # A failing test is test.sh's to report; here it only makes the figures partial.
    (cd "$dir" && CTG_TEST_QUICK=1 ctest -j "$jobs" -E '^(headers|bench_quick)$') ||
        echo "(some tests failed in $dir: the figures below are of a partial run)"
    # Only this build's data: other build folders of the checkout may hold .gcda files too.
    local common=(-r . "$dir" --exclude-unreachable-branches)
    echo "-- lines, the library"
    gcovr "${common[@]}" --filter '(base|model|json|io|ext|format|network|iidm)/' --txt "$dir/coverage-lines.txt" --print-summary &&
        cat "$dir/coverage-lines.txt" || rc=1
    echo "-- branches, the library"
    gcovr "${common[@]}" --filter '(base|model|json|io|ext|format|network|iidm)/' --branches --txt "$dir/coverage-branches.txt" \
        >/dev/null && cat "$dir/coverage-branches.txt" || rc=1
    echo "-- the lexer"
    # Reports go to files of the build folder, never to /dev/null: gcovr replaces the file it
    # is given, and as root that left /dev/null a regular file for every later command.
    gcovr "${common[@]}" --filter 'json/lexer(\.c|_fast\.h)' --txt "$dir/coverage-lexer.txt" \
        --print-summary || rc=1
    if [ "${CTG_COVERAGE_STRICT:-1}" = 1 ]; then
        gcovr "${common[@]}" --filter 'json/lexer(\.c|_fast\.h)' --fail-under-line 100 \
            --fail-under-branch 95 --txt "$dir/coverage-lexer.txt" || rc=1
        gcovr "${common[@]}" --filter '(base|model|json|io|ext|format|network|iidm)/' --fail-under-line 90 \
            --txt "$dir/coverage-lines.txt" || rc=1
    fi
    return $rc
}

# ---- 5. fuzzing ------------------------------------------------------------------------------

# Prints the figures of a fuzz log: the last status line of the fork-mode parent.
fuzz_figures() {
    local log=$1 t=$2 last secs execs
    last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -n 1 || true)
    if [ -z "$last" ]; then
        echo "$t: no status line (see $log)"
        return
    fi
    execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
    secs=$(sed -E 's/.* time: ([0-9]+)s.*/\1/' <<<"$last")
    printf '%-10s total execs %10s  execs/s over the run %7s  last status: %s\n' "$t" "$execs" \
        "$([ "${secs:-0}" -gt 0 ] && echo $((execs / secs)) || echo ?)" \
        "$(sed -E 's/^#[0-9]+: //' <<<"$last")"
}

job_fuzz() {
    local dir=$prefix-fuzz rc=0 t max work arts
    cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCTG_FUZZ=ON \
        -DCTG_BUILD_TESTS=OFF -DCTG_BUILD_CLI=OFF -DCTG_BUILD_BENCH=OFF >/dev/null || return 1
    cmake --build "$dir" -j "$jobs" || return 1
    for t in $fuzz_targets; do
        max=65536
        [ $t = lexer ] && max=4096
        work=$dir/run/$t
        arts=$work/artifacts
        rm -rf "$work"
        mkdir -p "$work/corpus" "$arts"
        echo "-- fuzz_$t: $fuzz_seconds s, -fork=$jobs, -max_len=$max"
        # Timeouts and OOMs would only be noted in fork mode: the artifacts decide below.
        "$dir/tests/fuzz/fuzz_$t" -fork="$jobs" -max_total_time="$fuzz_seconds" \
            -max_len=$max -timeout=10 -rss_limit_mb=2048 -dict=tests/fuzz/ctg.dict \
            -artifact_prefix="$arts/" -print_final_stats=1 "$work/corpus" \
            "tests/fuzz/corpus/fuzz_$t" tests/fuzz/seeds tests/fuzz/regress \
            >"$work/log" 2>&1 || { echo "fuzz_$t exited with $?"; rc=1; }
        fuzz_figures "$work/log" "$t"
        if [ -n "$(ls -A "$arts")" ]; then
            echo "fuzz_$t left artifacts:"
            ls -l "$arts"
            grep -E -m 3 -A 12 'ERROR: |fuzz check failed' "$work/log" || true
            rc=1
        fi
    done
    return $rc
}

# ---- 6. the package -------------------------------------------------------------------------

job_install() {
    CTG_BUILD_PREFIX=$prefix ./scripts/check-install.sh
}

# ---- 7. the API reference --------------------------------------------------------------------

job_docs() {
    if ! command -v doxygen >/dev/null; then
        echo "doxygen is not installed (Debian: doxygen)"
        return 1
    fi
    # Configured (again): a build folder made before doxygen was installed has no `docs` target.
    cmake -S . -B "$prefix" >/dev/null || return 1
    cmake --build "$prefix" --target docs || return 1
    echo "API reference: $prefix/docs/api/html/index.html"
}

# ---- 8. 32-bit ------------------------------------------------------------------------------

# Configures and builds the 32-bit tree $1 with the further cmake options $2...; checks that
# what came out is 32-bit.
build_m32() {
    local dir=$1
    shift
    cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/i386-linux-gnu.cmake" \
        -DCTG_WERROR=ON "$@" >/dev/null || return 1
    cmake --build "$dir" -j "$jobs" || return 1
    # A toolchain file only counts at a folder's first configure: check what came out (the
    # fifth byte of an ELF file is its class, 1 for 32-bit).
    if [ "$(od -An -tx1 -j4 -N1 "$dir/tests/ctg_tests" | tr -d ' ')" != 01 ]; then
        echo "$dir/tests/ctg_tests is not a 32-bit program (configured without the toolchain?)"
        return 1
    fi
}

on_x86_64() {
    [ "$(uname -m)" = x86_64 ] && return 0
    echo "SKIP: the 32-bit build is gcc -m32 on an x86-64 host; this one is $(uname -m)"
    return 1
}

job_m32() {
    local dir=$prefix-m32
    on_x86_64 || return 77
    build_m32 "$dir" || return 1
    (cd "$dir" && ctest --output-on-failure -j "$jobs")
}

# ---- 9. 32-bit under the sanitizers -------------------------------------------------------

job_m32_asan() {
    local dir=$prefix-m32-asan
    on_x86_64 || return 77
    build_m32 "$dir" -DCTG_SANITIZE=ON || return 1
    # The options of scripts/test.sh's ASan run; every test binary, the fuzz replays included,
    # but two bench runs, a trade-off for CI's time: bench_quick and bench_process_quick (a
    # minute of the job's CPU) read large generated lists, which the 64-bit ASan run of
    # scripts/test.sh and the m32 job both do; bench_toolkit_quick, the CLI's commands on a
    # 16 MB list, stays.
    (cd "$dir" &&
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1} \
        UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        CTG_TEST_QUICK=1 ctest --output-on-failure -j "$jobs" -E '^bench_(quick|process_quick)$')
}

run_job job_valgrind valgrind
run_job job_locale locale
run_job job_tsan tsan
run_job job_coverage coverage
run_job job_fuzz fuzz
run_job job_install install
run_job job_docs docs
run_job job_m32 m32
run_job job_m32_asan m32-asan

step "time per job"
printf '%s\n' "${timings[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    step "FAILED: ${failed[*]}"
    exit 1
fi
step "all reliability jobs passed"
