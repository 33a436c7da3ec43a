#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# The ABI check (docs/abi.md): the symbols a shared library of ctg exports must be exactly the
# functions its public headers declare with CTG_API, each under the version node, and, with
# -p, the functions its private headers mark CTG_INTERNAL (base/internal.h), each under the
# private node.
# usage: check-symbols.sh [-x HEADER]... [-p PRIVATE_NODE PRIVATE_DIR...  --] \
#            LIB HEADER_DIR VERSION_NODE [NM] [HEADER...]
#   -x HEADER  leave HEADER_DIR/HEADER out (the headers of another library)
#   HEADER...  only these headers of HEADER_DIR (default: all of them, but -x)
# Prints what differs in either direction and exits 1; 0 when they match.
set -eu

exclude=" " private_node="" private_dirs=""
while [ $# -gt 0 ]; do
    case $1 in
    -x) exclude="$exclude$2 "; shift 2 ;;
    -p)
        private_node=$2
        shift 2
        while [ $# -gt 0 ] && [ "$1" != "--" ]; do
            private_dirs="$private_dirs $1"
            shift
        done
        shift
        ;;
    *) break ;;
    esac
done
lib=$1 headers=$2 node=$3 nm=${4:-nm}
shift 3
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The public headers to read.
if [ $# -gt 0 ]; then
    for h in "$@"; do echo "$headers/$h"; done
else
    for h in "$headers"/*.h "$headers"/*.h.in; do
        [ -e "$h" ] || continue
        case "$exclude" in *" ${h##*/} "*) continue ;; esac
        echo "$h"
    done
fi >"$tmp/public-headers"
: >"$tmp/private-headers"
for d in $private_dirs; do
    for h in "$d"/*.h; do [ -e "$h" ] && echo "$h"; done
done >>"$tmp/private-headers"

# The name before the "(" of each declaration that starts with MARK in the files FILE-LIST
# names, comments removed first (a declaration may span lines: the return type can sit on a
# line of its own).
declared() {
    # shellcheck disable=SC2046
    [ -s "$2" ] || return 0
    xargs cat <"$2" | MARK=$1 perl -0777 -ne '
        s{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g; s{^\s*#[^\n]*}{}mg;
        while (/\b$ENV{MARK}\b([^;{(]*?)\b([A-Za-z_]\w*)\s*\(/g) { print "$2\n" }'
}

# Exported: every defined dynamic symbol but the version nodes themselves (absolute symbols).
"$nm" -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sort >"$tmp/exported-raw"

status=0
# check NODE MARK FILE-LIST WHAT: the exports under NODE against the MARK declarations.
check() {
    grep "@@$1\$" "$tmp/exported-raw" | sed 's/@.*//' | sort -u >"$tmp/exported"
    declared "$2" "$3" | sort >"$tmp/declared-raw"
    sort -u "$tmp/declared-raw" >"$tmp/declared"
    if [ ! -s "$tmp/declared" ]; then
        echo "no $2 declaration found in the $4 headers"
        status=1
    fi
    if ! cmp -s "$tmp/declared-raw" "$tmp/declared"; then
        echo "declared $2 twice:"
        uniq -d "$tmp/declared-raw" | sed 's/^/  /'
        status=1
    fi
    comm -23 "$tmp/exported" "$tmp/declared" >"$tmp/extra"
    comm -13 "$tmp/exported" "$tmp/declared" >"$tmp/missing"
    if [ -s "$tmp/extra" ]; then
        echo "exported by $lib under $1 but declared $2 by no $4 header:"
        sed 's/^/  /' "$tmp/extra"
        status=1
    fi
    if [ -s "$tmp/missing" ]; then
        echo "declared $2 in a $4 header but not exported by $lib under $1:"
        sed 's/^/  /' "$tmp/missing"
        status=1
    fi
    echo "$(wc -l <"$tmp/exported") symbols exported under $1" >>"$tmp/summary"
}
check "$node" CTG_API "$tmp/public-headers" public
nodes="@@$node\$"
if [ -n "$private_node" ]; then
    check "$private_node" CTG_INTERNAL "$tmp/private-headers" private
    nodes="$nodes|@@$private_node\$"
fi
# Every export carries one of the version nodes as its default version (name@@node).
grep -Ev "$nodes" "$tmp/exported-raw" >"$tmp/unversioned" || true
if [ -s "$tmp/unversioned" ]; then
    echo "exported without the version node $node${private_node:+ or $private_node}:"
    sed 's/^/  /' "$tmp/unversioned"
    status=1
fi
[ $status -ne 0 ] || { tr '\n' ';' <"$tmp/summary" | sed 's/;$/, as declared\n/; s/;/, /g'; }
exit $status
