#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# The man page and the bash completion against the program: every command and option of the
# --help texts is in the man page, the completion offers exactly them, and groff reads the
# page without a warning (when groff is installed; CI installs groff-base).
# usage: cli_docs_test.sh CLI MANPAGE COMPLETION
set -u

cli=$1 man=$2 completion=$3
failures=0 count=0

pass() { count=$((count + 1)); echo "ok: $1"; }
fail() { count=$((count + 1)); failures=$((failures + 1)); echo "FAIL: $1"; }

commands=$("$cli" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$commands" ] && pass "--help lists commands" || fail "--help lists no command"

# The roff source spells a dash \- ; compare with the plain text.
plain=$(sed 's/\\-/-/g' "$man")
for cmd in $commands; do
    if printf '%s\n' "$plain" | grep -q "^\.B contingency-cli $cmd\$"; then
        pass "man page: synopsis of $cmd"
    else
        fail "man page: no synopsis line '.B contingency-cli $cmd'"
    fi
    options=$("$cli" "$cmd" --help | sed -n '1s/^usage: //p' | grep -o -- '--[a-z][a-z-]*')
    for opt in $options; do
        if printf '%s\n' "$plain" | grep -q -- "^\.B $opt\$"; then
            pass "man page: $cmd $opt under OPTIONS"
        else
            fail "man page: no '.B $opt' under OPTIONS for $cmd"
        fi
    done
    # What the completion offers after "contingency-cli CMD --".
    want=$(printf '%s\n' $options --help | sort | tr '\n' ' ')
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" "$3" --); COMP_CWORD=2; _contingency_cli
        printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$cli" "$cmd" | sort | tr '\n' ' ')
    [ "$got" = "$want" ] && pass "completion of $cmd --" ||
        fail "completion of $cmd --: got '$got', want '$want'"
done
for opt in --help --version; do
    printf '%s\n' "$plain" | grep -q -- "$opt" && pass "man page: $opt" ||
        fail "man page: no $opt"
done
want=$(printf '%s\n' $commands --help --version | sort | tr '\n' ' ')
got=$(bash -c '. "$1"; COMP_WORDS=("$2" ""); COMP_CWORD=1; _contingency_cli
    printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$cli" | sort | tr '\n' ' ')
[ "$got" = "$want" ] && pass "completion of the command" ||
    fail "completion of the command: got '$got', want '$want'"

if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -ww -z "$man" 2>&1)
    [ -z "$warnings" ] && pass "groff reads the man page without a warning" ||
        fail "groff warns: $warnings"
else
    echo "SKIP: groff is not installed (Debian groff-base): the man page is not linted"
fi

echo "$((count - failures)) of $count documentation checks passed"
[ "$failures" -eq 0 ]
