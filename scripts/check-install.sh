#!/usr/bin/env bash
# SPDX-License-Identifier: MPL-2.0
# The package as another project sees it: builds ctg in $CTG_BUILD_PREFIX-install/ (default
# build-install/), installs it into a temporary prefix, MOVES that prefix elsewhere (a
# relocated install must work), then checks:
#   - the installed files: libraries and their SONAME, headers, CMake and pkg-config files, the
#     man page, bash completion, LICENSE and CHANGELOG.md; no installed text names the prefix
#     the files were installed to or configured for;
#   - `pkg-config --cflags --libs ctg` (and --static) from the moved prefix: exactly ctg's
#     paths there plus json-c's flags (json-c is part of ctg's API);
#   - examples/ built against the moved prefix with CMake (find_package(ctg)) and with its
#     Makefile (pkg-config), each linked shared and static, run on two lists: exact output,
#     and the list written back byte for byte.
# Twice: LIBDIR lib with `cmake --install --prefix`, and LIBDIR lib/<multiarch> with DESTDIR
# (what a Debian package does). Exit status 1 if any check failed. CI runs it from
# scripts/ci-extra.sh (job "install").
set -euo pipefail
cd "$(dirname "$0")/.."

src=$PWD
build=${CTG_BUILD_PREFIX:-build}-install
jobs=$(nproc 2>/dev/null || echo 2)
work=$(mktemp -d "${TMPDIR:-/tmp}/ctg-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0 count=0
configured=/nonexistent/ctg-configured-prefix

pass() { count=$((count + 1)); echo "ok: $*"; }
fail() { count=$((count + 1)); failures=$((failures + 1)); echo "FAIL: $*"; }
# check NAME COMMAND...: runs COMMAND quietly; its output is shown when it fails.
check() {
    local name=$1
    shift
    if "$@" >"$work/log" 2>&1; then
        pass "$name"
    else
        fail "$name"
        sed 's/^/  | /' "$work/log" | tail -n 30
    fi
}

version=$(sed -n 's/^project(ctg VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
if [ "$major" = 0 ]; then soversion=$major.$minor; else soversion=$major; fi

# ---- the installed tree --------------------------------------------------------------------

expected_files() {
    local libdir=$1 h
    echo bin/contingency-cli
    for h in include/ctg/*.h; do echo "$h"; done
    echo include/ctg/export.h
    echo include/ctg/version.h
    echo "$libdir/libctg.a"
    echo "$libdir/libctg.so"
    echo "$libdir/libctg.so.$soversion"
    echo "$libdir/libctg.so.$version"
    echo "$libdir/libctg_network.a"
    echo "$libdir/libctg_network.so"
    echo "$libdir/libctg_network.so.$soversion"
    echo "$libdir/libctg_network.so.$version"
    echo "$libdir/pkgconfig/ctg-network.pc"
    echo "$libdir/cmake/ctg/ctgConfig.cmake"
    echo "$libdir/cmake/ctg/ctgConfigVersion.cmake"
    echo "$libdir/cmake/ctg/ctgTargets.cmake"
    echo "$libdir/cmake/ctg/ctgTargets-relwithdebinfo.cmake"
    echo "$libdir/pkgconfig/ctg.pc"
    echo share/bash-completion/completions/contingency-cli
    echo share/doc/ctg/CHANGELOG.md
    echo share/doc/ctg/LICENSE
    echo share/doc/ctg/README.md
    echo share/doc/ctg/abi.md
    echo share/doc/ctg/compatibility.md
    echo share/man/man1/contingency-cli.1
}

check_tree() {
    local root=$1 libdir=$2 installed_as=$3
    (cd "$root" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort) \
        >"$work/files"
    expected_files "$libdir" | LC_ALL=C sort >"$work/want-files"
    check "installed files are exactly the expected ones" \
        diff "$work/want-files" "$work/files"
    check "SONAME is libctg.so.$soversion" \
        sh -c "readelf -d '$root/$libdir/libctg.so.$version' |
            grep -F '(SONAME)' | grep -qF '[libctg.so.$soversion]'"
    check "libctg.so links to libctg.so.$soversion" \
        test "$(readlink "$root/$libdir/libctg.so")" = "libctg.so.$soversion"
    check "LICENSE is the MPL-2.0 text" cmp "$src/LICENSE" "$root/share/doc/ctg/LICENSE"
    # Text files only (-I): the binaries hold build paths in their debug information.
    check "no installed text names $installed_as or $configured" \
        sh -c "! grep -rIl -e '$installed_as' -e '$configured' '$root'"
}

# ---- pkg-config ----------------------------------------------------------------------------

# The flags of `pkg-config ARGS...` for the moved prefix, one a line, -I and -L paths resolved.
pc_flags() {
    local flag
    for flag in $(PKG_CONFIG_PATH=$pcdir pkg-config "$@"); do
        case $flag in
        -I* | -L*) echo "${flag:0:2}$(realpath -m "${flag:2}")" ;;
        *) echo "$flag" ;;
        esac
    done
}

check_pkgconfig() {
    local root=$1 libdir=$2
    pcdir=$root/$libdir/pkgconfig
    {
        echo "-I$root/include"
        pkg-config --cflags-only-I json-c | tr ' ' '\n' | sed '/^$/d'
        echo "-L$root/$libdir"
        echo "-lctg"
        pkg-config --libs json-c | tr ' ' '\n' | sed '/^$/d'
    } >"$work/want-pc"
    pc_flags --cflags --libs ctg >"$work/got-pc"
    check "pkg-config --cflags --libs ctg: the moved prefix and json-c" \
        diff "$work/want-pc" "$work/got-pc"
    check "pkg-config --variable=prefix ctg is the moved prefix" \
        test "$(realpath "$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=prefix ctg)")" = "$root"
    pc_flags --static --libs ctg >"$work/got-static"
    check "pkg-config --static --libs ctg adds zlib, threads and libm" \
        sh -c "grep -qx -- -lz '$work/got-static' && grep -qx -- -pthread '$work/got-static' &&
            grep -qx -- -lm '$work/got-static' && grep -qx -- -ljson-c '$work/got-static'"
    check "pkg-config --modversion ctg is $version" \
        test "$(PKG_CONFIG_PATH=$pcdir pkg-config --modversion ctg)" = "$version"
}

# ---- the examples --------------------------------------------------------------------------

# What ctg-example prints for testdata/valid/sample.json and extension-contingency.json.
expected_output() {
    local in=$src/testdata/valid
    cat <<EOF
$in/sample.json: a default list "sample", ctg $version
contingencies: 5
  GENERATOR: 1
  HVDC_LINE: 1
  BUSBAR_SECTION: 1
  LINE: 1
  TWO_WINDINGS_TRANSFORMER: 1
  LOAD: 1
  SWITCH: 1
written to $work/out/sample.json
$in/extension-contingency.json: a bare contingency, ctg $version
  extension contingency-probability of N-1 with extensions: object
  extension operator-notes of N-1 with extensions: array
contingencies: 1
  LINE: 1
written to $work/out/extension-contingency.json.gz
EOF
}

# run_example NAME BINARY [LD_LIBRARY_PATH]: runs it on both lists, checks output and files.
run_example() {
    local name=$1 bin=$2 ldpath=${3:-} in=$src/testdata/valid
    rm -rf "$work/out" && mkdir "$work/out"
    expected_output >"$work/want-out"
    {
        LD_LIBRARY_PATH=$ldpath "$bin" "$in/sample.json" "$work/out/sample.json" &&
            LD_LIBRARY_PATH=$ldpath "$bin" "$in/extension-contingency.json" \
                "$work/out/extension-contingency.json.gz"
    } >"$work/got-out" 2>&1 || true
    check "$name: output" diff "$work/want-out" "$work/got-out"
    check "$name: sample.json written back byte for byte" \
        cmp "$in/sample.json" "$work/out/sample.json"
    check "$name: extensions written back, gzip-compressed" \
        sh -c "gzip -dc '$work/out/extension-contingency.json.gz' |
            cmp '$in/extension-contingency.json' -"
}

# check_linkage NAME BINARY ROOT LIBDIR shared|static
check_linkage() {
    local name=$1 bin=$2 root=$3 libdir=$4 how=$5 needed
    needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    if [ "$how" = shared ]; then
        check "$name: needs libctg.so.$soversion and libjson-c ($needed)" \
            sh -c "echo ' $needed' | grep -q ' libctg.so.$soversion ' &&
                echo ' $needed' | grep -q ' libjson-c.so'"
        check "$name: loads libctg from the moved prefix" \
            sh -c "LD_LIBRARY_PATH='$root/$libdir' ldd '$bin' |
                grep -F 'libctg.so.$soversion' | grep -qF '$root/$libdir/'"
    else
        check "$name: carries libctg in itself ($needed)" \
            sh -c "! echo ' $needed' | grep -q libctg && echo ' $needed' | grep -q ' libjson-c.so'"
    fi
}

check_examples() {
    local root=$1 libdir=$2 how dir
    for how in shared static; do
        dir=$work/example-cmake-$how
        check "CMake example ($how): configure and build against the moved prefix" \
            sh -c "cmake -S '$src/examples' -B '$dir' -DCMAKE_PREFIX_PATH='$root' \
                -DCTG_EXAMPLE_STATIC=$([ $how = static ] && echo ON || echo OFF) &&
                cmake --build '$dir'"
        if [ -x "$dir/ctg-example" ]; then
            check_linkage "CMake example ($how)" "$dir/ctg-example" "$root" "$libdir" $how
            # The build tree's RPATH points at the moved prefix: no LD_LIBRARY_PATH.
            run_example "CMake example ($how)" "$dir/ctg-example"
        fi

        dir=$work/example-make-$how
        rm -rf "$dir" && mkdir "$dir"
        cp "$src/examples/Makefile" "$src/examples/ctg-example.c" "$dir/"
        check "Makefile example ($how): build with pkg-config from the moved prefix" \
            env PKG_CONFIG_PATH="$root/$libdir/pkgconfig" make -C "$dir" \
            STATIC=$([ $how = static ] && echo 1 || echo 0)
        if [ -x "$dir/ctg-example" ]; then
            check_linkage "Makefile example ($how)" "$dir/ctg-example" "$root" "$libdir" $how
            run_example "Makefile example ($how)" "$dir/ctg-example" "$root/$libdir"
        fi
    done
}

# ---- a consumer of ctg::network and ctg-network ---------------------------------------------

# A C program that builds a network, looks an object up and dumps the table.
network_consumer() {
    local dir=$1
    mkdir -p "$dir"
    cat >"$dir/net.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <ctg/network.h>
int main(void)
{
    ctg_network *net = NULL;
    ctg_net_spec s = CTG_NET_SPEC_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    if (ctg_network_new(&net, "n", NULL, NULL) != CTG_OK)
        return 1;
    s.type = CTG_IDENTIFIABLE_VOLTAGE_LEVEL;
    s.id = "VL";
    s.nominal_v = 400.0;
    if (ctg_network_add(net, &s, NULL, NULL) != CTG_OK || !ctg_network_find(net, "VL", 2) ||
        ctg_network_write_json(net, &buf, NULL) != CTG_OK)
        return 1;
    printf("%zu objects, %s\n", ctg_network_object_count(net),
           strstr(buf.data, "\"VOLTAGE_LEVEL\" : 1") ? "counted" : "not counted");
    ctg_buf_dispose(&buf);
    ctg_network_free(net);
    return 0;
}
EOF
    cat >"$dir/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(net_consumer C)
option(STATIC "link ctg::network_static" OFF)
find_package(ctg REQUIRED)
add_executable(net net.c)
if(STATIC)
  target_link_libraries(net PRIVATE ctg::network_static)
else()
  target_link_libraries(net PRIVATE ctg::network)
endif()
EOF
}

# Built with CMake (ctg::network, ctg::network_static) and with pkg-config (ctg-network, and
# --static with both libraries of ctg linked statically), each run.
check_network_consumer() {
    local root=$1 libdir=$2 how dir pc
    pc="env PKG_CONFIG_PATH=$root/$libdir/pkgconfig pkg-config"
    for how in shared static; do
        dir=$work/net-cmake-$how
        network_consumer "$dir/src"
        check "ctg::network consumer ($how): CMake build against the moved prefix" \
            sh -c "cmake -S '$dir/src' -B '$dir/b' -DCMAKE_PREFIX_PATH='$root' \
                -DSTATIC=$([ $how = static ] && echo ON || echo OFF) && cmake --build '$dir/b'"
        check "ctg::network consumer ($how): runs" \
            sh -c "test \"\$(LD_LIBRARY_PATH='$root/$libdir' '$dir/b/net')\" = '2 objects, counted'"
        dir=$work/net-pc-$how
        network_consumer "$dir"
        if [ $how = static ]; then
            check "ctg-network consumer (static): built with pkg-config --static" \
                sh -c "cc -o '$dir/net' '$dir/net.c' \$($pc --cflags ctg-network) \
                    '$root/$libdir/libctg_network.a' '$root/$libdir/libctg.a' \
                    \$($pc --static --libs ctg-network | sed 's/ -lctg_network / /; s/ -lctg / /')"
        else
            check "ctg-network consumer (shared): built with pkg-config" \
                sh -c "cc -o '$dir/net' '$dir/net.c' \$($pc --cflags --libs ctg-network)"
        fi
        check "ctg-network consumer ($how): runs" \
            sh -c "test \"\$(LD_LIBRARY_PATH='$root/$libdir' '$dir/net')\" = '2 objects, counted'"
    done
}

# ---- one install ---------------------------------------------------------------------------

# install_and_check LIBDIR prefix|destdir
install_and_check() {
    local libdir=$1 how=$2 stage moved
    printf '\n==== LIBDIR %s, installed with %s, then moved\n' "$libdir" \
        "$([ "$how" = prefix ] && echo "cmake --install --prefix" || echo DESTDIR)"
    cmake -S . -B "$build" -DCTG_WERROR=ON -DCTG_BUILD_TESTS=OFF -DCTG_BUILD_BENCH=OFF \
        -DCMAKE_INSTALL_PREFIX="$configured" -DCMAKE_INSTALL_LIBDIR="$libdir" >/dev/null
    cmake --build "$build" -j "$jobs" >/dev/null
    rm -rf "$work/stage" "$work/moved"
    if [ "$how" = prefix ]; then
        stage=$work/stage
        cmake --install "$build" --prefix "$stage" >/dev/null
    else
        DESTDIR=$work/stage cmake --install "$build" >/dev/null
        stage=$work/stage$configured
    fi
    mkdir -p "$work/moved"
    moved=$work/moved/elsewhere
    mv "$stage" "$moved"
    check_tree "$moved" "$libdir" "$stage"
    check_pkgconfig "$moved" "$libdir"
    check_examples "$moved" "$libdir"
    check_network_consumer "$moved" "$libdir"
}

install_and_check lib prefix
multiarch=$(gcc -print-multiarch 2>/dev/null || true)
install_and_check "lib/${multiarch:-multiarch}" destdir

printf '\n%d of %d install checks passed\n' $((count - failures)) $count
[ "$failures" -eq 0 ]
