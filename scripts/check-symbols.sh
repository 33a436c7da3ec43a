#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# The ABI check (docs/abi.md): the symbols a shared libctg exports must be exactly the
# functions the public headers declare with CTG_API, each under the version node.
# usage: check-symbols.sh LIBCTG.so HEADER_DIR VERSION_NODE [NM]
# Prints what differs in either direction and exits 1; 0 when they match.
set -eu

lib=$1 headers=$2 node=$3 nm=${4:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Exported: every defined dynamic symbol but the version node itself (an absolute symbol).
"$nm" -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sort >"$tmp/exported-raw"
sed 's/@.*//' "$tmp/exported-raw" | sort -u >"$tmp/exported"
# Declared: the name before the "(" of each CTG_API declaration, comments removed first (a
# declaration may span lines: the return type can sit on a line of its own).
cat "$headers"/*.h "$headers"/*.h.in 2>/dev/null | perl -0777 -ne '
    s{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g;
    while (/\bCTG_API\b([^;{(]*?)\b([A-Za-z_]\w*)\s*\(/g) { print "$2\n" }' |
    sort >"$tmp/declared-raw"
sort -u "$tmp/declared-raw" >"$tmp/declared"

status=0
if [ ! -s "$tmp/declared" ]; then
    echo "no CTG_API declaration found in $headers"
    status=1
fi
if ! cmp -s "$tmp/declared-raw" "$tmp/declared"; then
    echo "declared twice:"
    uniq -d "$tmp/declared-raw" | sed 's/^/  /'
    status=1
fi
comm -23 "$tmp/exported" "$tmp/declared" >"$tmp/extra"
comm -13 "$tmp/exported" "$tmp/declared" >"$tmp/missing"
if [ -s "$tmp/extra" ]; then
    echo "exported by $lib but declared by no public header:"
    sed 's/^/  /' "$tmp/extra"
    status=1
fi
if [ -s "$tmp/missing" ]; then
    echo "declared CTG_API but not exported by $lib:"
    sed 's/^/  /' "$tmp/missing"
    status=1
fi
# Every export carries the version node as its default version (name@@node).
grep -v "@@$node\$" "$tmp/exported-raw" >"$tmp/unversioned" || true
if [ -s "$tmp/unversioned" ]; then
    echo "exported without the version node $node:"
    sed 's/^/  /' "$tmp/unversioned"
    status=1
fi
[ $status -ne 0 ] || echo "$(wc -l <"$tmp/exported") symbols exported under $node, as declared"
exit $status
