#!/usr/bin/env bash
# SPDX-License-Identifier: MPL-2.0
# Every source file says its license in an SPDX line among its first three lines:
#   SPDX-License-Identifier: MPL-2.0
# as a comment of its own syntax: /* ... */ in C, C++ and linker scripts, .\" in man pages,
# # everywhere else (CMake, shell, make, pkg-config, Doxyfile), after the #! line of a script.
#
# usage: scripts/spdx.sh [--fix] [DIR]
#   checks the files git tracks in DIR (default: the checkout this script is in; without git,
#   every file but build folders); lists those without the line and exits 1.
#   --fix adds the line to them instead, and exits 0.
# Source files: *.c *.h *.cpp *.cmake CMakeLists.txt *.sh *.bash *.in *.map *.1 Makefile,
# every file in scripts/, and .ci/run. The ctest `spdx` runs the check.
set -euo pipefail

fix=0
if [ "${1:-}" = --fix ]; then
    fix=1
    shift
fi
root=${1:-$(dirname "$0")/..}
cd "$root"

readonly line='SPDX-License-Identifier: MPL-2.0'

list_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files
    else
        find . -type f ! -path './.git/*' ! -path './build*' | sed 's|^\./||'
    fi
}

is_source() {
    case $1 in
    scripts/* | .ci/run) return 0 ;;
    */corpus/* | testdata/*) return 1 ;;
    *.c | *.h | *.cpp | *.cmake | CMakeLists.txt | */CMakeLists.txt | *.sh | *.bash | *.in | \
        *.map | *.1 | Makefile | */Makefile) return 0 ;;
    esac
    return 1
}

# The comment that carries the line in file $1.
comment_for() {
    case $1 in
    *.c | *.h | *.cpp | *.h.in | *.c.in | *.map | *.map.in) echo "/* $line */" ;;
    *.1) echo ".\\\" $line" ;;
    *) echo "# $line" ;;
    esac
}

has_line() {
    head -n 3 "$1" | grep -qF "$line"
}

add_line() {
    local file=$1 comment tmp
    comment=$(comment_for "$file")
    tmp=$(mktemp "$file.spdx-XXXXXX")
    if head -n 1 "$file" | grep -q '^#!'; then
        { head -n 1 "$file"; echo "$comment"; tail -n +2 "$file"; } >"$tmp"
    else
        { echo "$comment"; cat "$file"; } >"$tmp"
    fi
    chmod --reference="$file" "$tmp"
    mv "$tmp" "$file"
}

missing=()
while IFS= read -r f; do
    [ -f "$f" ] && is_source "$f" || continue
    has_line "$f" || missing+=("$f")
done < <(list_files | LC_ALL=C sort)

if [ ${#missing[@]} -eq 0 ]; then
    echo "every source file has its SPDX line"
    exit 0
fi
if [ $fix -eq 1 ]; then
    for f in "${missing[@]}"; do
        add_line "$f"
        echo "added: $f"
    done
    exit 0
fi
echo "source files without '$line' in their first three lines (scripts/spdx.sh --fix adds it):"
printf '  %s\n' "${missing[@]}"
exit 1
