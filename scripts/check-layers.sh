#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# Checks that the library's include graph reads top-down (docs/architecture.md).
#
# The library's folders are layers, lowest first: a file may include headers of its own layer
# and of the layers below it, never of one above. Among modules (a .c file and the .h of the
# same name are one module) there is no cycle: no two files include each other, directly or
# through others (tsort finds the cycles). With OBJECT_DIRs (the ctg_objects and
# ctg_network_objects folders of a build),
# no object calls a function defined in a layer above its own either: calls through the
# public headers are not includes of a layer. json-c is included by ext/jsonc_bridge.c only,
# zlib by io/zhooks.h only, RE2 by network/regex.cc only. Prints each violation and exits 1.
# network/ and iidm/ are libctg_network's, above libctg's layers.
#   scripts/check-layers.sh [SOURCE_DIR [OBJECT_DIR...]]
set -eu
export LC_ALL=C
cd "${1:-.}"
[ $# -gt 0 ] && shift
objects="$*"
layers="base model json io ext format network iidm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rank() {
    r=0
    for l in $layers; do
        [ "$l" = "$1" ] && { echo $r; return; }
        r=$((r + 1))
    done
    echo -1
}

# Every quoted include names its header from the source root ("json/lexer.h") or is public
# ("ctg/io.h"): a relative or same-folder spelling would escape the checks below.
for l in $layers; do
    for f in "$l"/*.c "$l"/*.cc "$l"/*.h; do
        [ -e "$f" ] || continue
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
            while read -r inc; do
                # The public headers' folder or one of the layers, and a file below it.
                case " ctg $layers " in
                *" ${inc%%/*} "*) [ "${inc#*/}" != "$inc" ] && continue ;;
                esac
                echo "check-layers: $f includes \"$inc\": name it from the source root"
            done
    done
done >"$tmp/spelling"

# "module dependency" pairs: one per include of a library header by a library file.
for l in $layers; do
    for f in "$l"/*.c "$l"/*.cc "$l"/*.h; do
        [ -e "$f" ] || continue
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
            while read -r dep; do
                printf '%s %s\n' "${f%.*}" "$dep"
            done
    done
done | sort -u | awk '$1 != $2' >"$tmp/edges"

status=0
if [ -s "$tmp/spelling" ]; then
    cat "$tmp/spelling"
    status=1
fi
while read -r mod dep; do
    dl=$(rank "${dep%%/*}")
    [ "$dl" -ge 0 ] || continue
    if [ "$dl" -gt "$(rank "${mod%%/*}")" ]; then
        echo "check-layers: $mod includes $dep, a layer above it"
        status=1
    fi
done <"$tmp/edges"

# The two dependencies that one file each keeps away from the rest.
for l in $layers; do
    grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*<json-c/' "$l"/*.[ch] 2>/dev/null |
        grep -vx 'ext/jsonc_bridge.c' | sed 's/$/ includes json-c: only ext\/jsonc_bridge.c may/'
    grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*<zlib.h>' "$l"/*.[ch] 2>/dev/null |
        grep -vx 'io/zhooks.h' | sed 's/$/ includes zlib: only io\/zhooks.h may/'
    grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*<re2/' "$l"/*.[ch] "$l"/*.cc \
        2>/dev/null | grep -vx 'network/regex.cc' |
        sed 's/$/ includes RE2: only network\/regex.cc may/'
done | sed 's/^/check-layers: /' >"$tmp/deps" || true
if [ -s "$tmp/deps" ]; then
    cat "$tmp/deps"
    status=1
fi

# Calls: "symbol object" for what each object defines and what it uses, of the objects whose
# source still exists (a build folder keeps the objects of removed files).
if [ -n "$objects" ]; then
    for dir in $objects; do
        for l in $layers; do
            for o in "$dir/$l"/*.o; do
                src="$l/$(basename "${o%.o}")"
                [ -e "$o" ] && [ -e "$src" ] || continue
                nm --defined-only -g "$o" | awk -v f="$src" '$2 ~ /[TDRB]/ { print $3, f }' \
                    >>"$tmp/defs"
                nm -u "$o" | awk -v f="$src" '{ print $2, f }' >>"$tmp/uses"
            done
        done
    done
    sort -o "$tmp/defs" "$tmp/defs" 2>/dev/null || :
    sort -o "$tmp/uses" "$tmp/uses" 2>/dev/null || :
    if [ -s "$tmp/defs" ]; then
        join "$tmp/uses" "$tmp/defs" | while read -r sym user def; do
            if [ "$(rank "${def%%/*}")" -gt "$(rank "${user%%/*}")" ]; then
                echo "check-layers: $user calls $sym, defined in $def, a layer above it"
            fi
        done >"$tmp/calls"
        [ -s "$tmp/calls" ] && { cat "$tmp/calls"; status=1; }
    else
        echo "check-layers: no object in $objects"
        status=1
    fi
fi

if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"; then
    sed 's/^/check-layers: /' "$tmp/loops"
    status=1
fi
[ $status -eq 0 ] &&
    echo "check-layers: $(for l in $layers; do [ -d "$l" ] && ls "$l" | sed "s|^|$l/|"; done |
        sed 's/\.[ch]$//; s/\.cc$//' | sort -u |
        wc -l) modules, $(wc -l <"$tmp/edges") includes, top-down, no cycle"
exit $status
