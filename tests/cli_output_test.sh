#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli convert end to end: what each kind of OUT becomes, reading IN once (FIFOs,
# pipes, stdin), streaming to stdout, and the cleanup on signals. Exact stdout, stderr and exit
# status of each case. Cases that need root (mknod, chown, a tmpfs mount) print "SKIP: ..."
# otherwise, and so do those that need a tool CI has but a user may lack.
# usage: cli_output_test.sh CLI TESTDATA_DIR WORK_DIR
set -u

cli=$1 data=$2 work=$3
# Absolute: some cases run from another folder.
for v in cli data work; do
    eval "case \$$v in /*) ;; *) $v=\$(pwd)/\$$v ;; esac"
done
sample=$data/valid/sample.json

rm -rf "$work" && mkdir -p "$work" || exit 2

# The harness: check and expect.
. "$(dirname "$0")/cli_check.sh"

skip() {
    echo "SKIP: $1"
}

is_root() {
    [ "$(id -u)" -eq 0 ]
}

# Prints the type and, for devices, the numbers of a path, as the checks compare them.
kind() {
    LC_ALL=C stat -c '%F %t,%T' "$1" # English file types, whatever the locale
}

# No temporary file (.NAME.ctg-tmp-XXXXXX) in the folders given.
no_temp() {
    ! ls -A "$@" | grep -q 'ctg-tmp-'
}

# gen_list N FILE: a `default` list of N contingencies in PowSyBl's layout (what convert
# writes back byte for byte); 800,000 make 93 MB.
gen_list() {
    awk -v n="$1" 'BEGIN {
        printf "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"big\",\n"
        printf "  \"contingencies\" : [ "
        for (i = 0; i < n; i++)
            printf "%s{\n    \"id\" : \"N-1_LINE_%d\",\n    \"elements\" : [ {\n      \"id\" : " \
                   "\"LINE_%d\",\n      \"type\" : \"LINE\"\n    } ]\n  }", (i ? ", " : ""), i, i
        printf " ]\n}"
    }' >"$2"
}

# wait_for TEST: polls TEST (a shell command) for up to 20 seconds.
wait_for() {
    n=0
    while ! eval "$1" && [ $n -lt 2000 ]; do
        sleep 0.01
        n=$((n + 1))
    done
    eval "$1"
}

keep() {
    printf 'previous content\n' >"$1"
}

# ---- devices --------------------------------------------------------------------------
mkdir "$work/dev"
if is_root; then
    mknod "$work/dev/null" c 1 3 && mknod "$work/dev/full" c 1 7
    check "convert to a device node" 0 "" "" -- "$cli" convert "$sample" "$work/dev/null"
    check "the device node stays a device" 0 "character special file 1,3\n" "" -- kind "$work/dev/null"
    full=$work/dev/full
else
    skip "device nodes made with mknod (needs root); /dev/null itself instead"
    check "convert to /dev/null" 0 "" "" -- "$cli" convert "$sample" /dev/null
    full=/dev/full
fi
if [ -c "$full" ]; then
    check "convert to a full device" 2 "" "$full: error: cannot write: No space left on device\n" \
        -- "$cli" convert "$sample" "$full"
    check "the full device stays a device" 0 "character special file 1,7\n" "" -- kind "$full"
fi
check "no temporary file beside the devices" 0 "" "" -- no_temp "$work/dev"

# ---- stdout by name, and stdout itself ---------------------------------------------------
check "convert to /dev/stdout, a pipe" 0 "@$sample" "" \
    -- sh -c "'$cli' convert '$sample' /dev/stdout | cat"
check "convert to /dev/stdout, a file" 0 "@$sample" "" \
    -- sh -c "'$cli' convert '$sample' /dev/stdout >'$work/stdout.json' && cat '$work/stdout.json'"
{ echo head; cat "$sample"; echo; echo tail; } >"$work/around.expected"
check "convert to /dev/fd/1 between other output" 0 "@$work/around.expected" "" \
    -- sh -c "echo head; '$cli' convert '$sample' /dev/fd/1; echo; echo tail"
check "convert - - through pipes" 0 "@$sample" "" -- sh -c "cat '$sample' | '$cli' convert - - | cat"

# ---- FIFOs --------------------------------------------------------------------------
mkdir "$work/fifo"
mkfifo "$work/fifo/out" "$work/fifo/in"
check "convert to a FIFO" 0 "@$sample" "" \
    -- sh -c "timeout 20 cat '$work/fifo/out' & '$cli' convert '$sample' '$work/fifo/out'; wait"
check "the FIFO stays a FIFO" 0 "fifo 0,0\n" "" -- kind "$work/fifo/out"
check "convert from a FIFO" 0 "@$sample" "" \
    -- sh -c "cat '$sample' >'$work/fifo/in' & timeout 20 '$cli' convert '$work/fifo/in' -; wait"
check "convert from a FIFO to a FIFO" 0 "@$sample" "" \
    -- sh -c "cat '$sample' >'$work/fifo/in' & timeout 20 cat '$work/fifo/out' &
              timeout 20 '$cli' convert '$work/fifo/in' '$work/fifo/out'; wait"

# Lists that do not stream (other kinds, nested, the name last) are read once, from the
# bytes already read: from a FIFO they used to hang, from a pipe to fail with "empty input".
printf '{"type":"default","contingencies":[{"id":"c1","elements":[{"id":"L1","type":"LINE"}]}],"name":"last"}' \
    >"$work/name-last.json"
printf '{\n  "type" : "default",\n  "version" : "1.1",\n  "name" : "last",\n  "contingencies" : [ {\n    "id" : "c1",\n    "elements" : [ {\n      "id" : "L1",\n      "type" : "LINE"\n    } ]\n  } ]\n}' \
    >"$work/name-last.expected"
printf '{"type":"default","version":"1.1","contingencies":[],"name":"empty"}' >"$work/empty.json"
printf '{\n  "type" : "default",\n  "version" : "1.1",\n  "name" : "empty",\n  "contingencies" : [ ]\n}' \
    >"$work/empty.expected"
for pair in "$data/valid/identifier-v1_0.json:$data/expected/identifier-v1_0.json" \
    "$data/valid/criterion-mixed.json:$data/expected/criterion-mixed.json" \
    "$data/valid/nested-lists-v1_0.json:$data/expected/nested-lists-v1_0.json" \
    "$work/name-last.json:$work/name-last.expected" "$work/empty.json:$work/empty.expected"; do
    in=${pair%%:*} want=${pair#*:}
    base=$(basename "$in")
    out=$work/fifo/$base
    check "convert $base from a FIFO to a file" 0 "" "" \
        -- sh -c "cat '$in' >'$work/fifo/in' & timeout 20 '$cli' convert '$work/fifo/in' '$out' &&
                  cmp '$want' '$out'; s=\$?; wait; exit \$s"
    check "convert $base from a pipe as /dev/stdin to a file" 0 "" "" \
        -- sh -c "cat '$in' | timeout 20 '$cli' convert /dev/stdin '$out' && cmp '$want' '$out'"
    check "convert $base from - to -" 0 "@$want" "" \
        -- sh -c "cat '$in' | timeout 20 '$cli' convert - - | cat"
done
check "convert of an invalid list from a pipe" 1 "" \
    "<stdin>:1:9: error: /type: unknown list type \"nope\"\n" \
    -- sh -c "printf '{\"type\":\"nope\"}' | timeout 20 '$cli' convert - '$work/fifo/bad.json'"
check "no output for an invalid list" 0 "" "" -- test ! -e "$work/fifo/bad.json"
check "no temporary file beside the FIFOs" 0 "" "" -- no_temp "$work/fifo"

# ---- links ----------------------------------------------------------------------------
mkdir "$work/links" "$work/links/sub"
keep "$work/links/sub/target.json"
ln -s sub/target.json "$work/links/link.json"
check "convert to a symbolic link" 0 "" "" -- "$cli" convert "$sample" "$work/links/link.json"
check "the link stays a link" 0 "symbolic link 0,0\n" "" -- kind "$work/links/link.json"
check "its target is replaced" 0 "" "" -- cmp "$sample" "$work/links/sub/target.json"
ln -s missing.json "$work/links/dangling.json"
check "convert to a dangling link creates its target" 0 "" "" \
    -- sh -c "'$cli' convert '$sample' '$work/links/dangling.json' && cmp '$sample' '$work/links/missing.json'"
keep "$work/links/a.json"
ln "$work/links/a.json" "$work/links/b.json"
check "convert to a file with another hard link is refused" 2 "" \
    "$work/links/a.json: error: cannot replace a file with 2 hard links: the other names would keep the old content\ncontingency-cli convert: --break-links replaces it anyway\n" \
    -- "$cli" convert "$sample" "$work/links/a.json"
check "both names keep the old content" 0 "previous content\nprevious content\n" "" \
    -- cat "$work/links/a.json" "$work/links/b.json"
check "convert --break-links" 0 "" "" -- "$cli" convert --break-links "$sample" "$work/links/a.json"
check "the name written to has the new content" 0 "" "" -- cmp "$sample" "$work/links/a.json"
check "the other name the old" 0 "previous content\n" "" -- cat "$work/links/b.json"
check "no temporary file beside the links" 0 "" "" -- no_temp "$work/links" "$work/links/sub"

# ---- directories, attributes, names -------------------------------------------------------
mkdir "$work/attr" "$work/attr/dir.json"
check "convert to a directory" 2 "" "$work/attr/dir.json: error: cannot write: Is a directory\n" \
    -- "$cli" convert "$sample" "$work/attr/dir.json"
# Refused at the first contingency, not after the whole input: the rest never comes here.
# feed FIFO BYTES FILE: a background writer of FILE's first BYTES into FIFO that then keeps it
# open; $feeder is its pid (exec: no child left behind when it is killed).
feed() {
    sh -c "head -c $2 '$3'; exec sleep 30" >"$1" 2>/dev/null &
    feeder=$!
}
refused_early() {
    feed "$work/attr/slow" 400 "$sample"
    timeout 10 "$cli" convert "$work/attr/slow" "$work/attr/dir.json"
    s=$?
    kill "$feeder"
    wait "$feeder" 2>/dev/null
    return $s
}
mkfifo "$work/attr/slow"
check "convert to a directory fails before the input ends" 2 "" \
    "$work/attr/dir.json: error: cannot write: Is a directory\n" -- refused_early
keep "$work/attr/mode.json"
chmod 640 "$work/attr/mode.json"
if is_root; then
    chown 65534:65534 "$work/attr/mode.json"
    check "convert keeps owner, group and mode" 0 "65534:65534 640\n" "" \
        -- sh -c "'$cli' convert '$sample' '$work/attr/mode.json' && stat -c '%u:%g %a' '$work/attr/mode.json'"
else
    skip "the owner kept by convert (chown needs root); the mode only"
    check "convert keeps the mode" 0 "640\n" "" \
        -- sh -c "'$cli' convert '$sample' '$work/attr/mode.json' && stat -c '%a' '$work/attr/mode.json'"
fi
long=$(printf '%0255d' 0)
check "convert to a 255-byte name" 0 "" "" \
    -- sh -c "'$cli' convert '$sample' '$work/attr/$long' && cmp '$sample' '$work/attr/$long'"
check "no temporary file beside them" 0 "" "" -- no_temp "$work/attr"

# ---- a full file system ----------------------------------------------------------------
gen_list 20000 "$work/medium.json" # 2.3 MB
mkdir "$work/full"
if ! is_root; then
    skip "a full file system (mounting a tmpfs needs root)"
elif ! mount -t tmpfs -o size=64k tmpfs "$work/full"; then
    skip "a full file system (cannot mount a tmpfs here)"
else
    keep "$work/full/out.json"
    check "convert to a full file system" 2 "" \
        "$work/full/out.json: error: cannot write: No space left on device\n" \
        -- "$cli" convert "$work/medium.json" "$work/full/out.json"
    check "the old file is untouched" 0 "previous content\n" "" -- cat "$work/full/out.json"
    check "no temporary file on the full file system" 0 "out.json\n" "" -- ls -A "$work/full"
    umount "$work/full"
fi

# ---- SIGPIPE, memory --------------------------------------------------------------------
# closed_stdout IN [DELAY]: convert IN to a pipe whose reader leaves at once (after 10 bytes
# with no DELAY; before convert starts, DELAY seconds later); prints its status and stderr.
closed_stdout() {
    if [ $# -eq 1 ]; then
        ("$cli" convert "$1" - 2>"$work/pipe.err"; echo $? >"$work/pipe.st") | head -c 10 >/dev/null
    else
        (sleep "$2"; "$cli" convert "$1" - 2>"$work/pipe.err"; echo $? >"$work/pipe.st") | true
    fi
    cat "$work/pipe.st"
    sed 's|: error: /: |: error: |' "$work/pipe.err"
}
check "a closed stdout is exit 1 with one line" 0 \
    "1\n<stdout>: error: cannot write: Broken pipe\n" "" -- closed_stdout "$work/medium.json"
check "a closed stdout on a whole-list convert too" 0 \
    "1\n<stdout>: error: cannot write: Broken pipe\n" "" \
    -- closed_stdout "$data/valid/criterion-mixed.json" 0.3
# Every command that writes to stdout: a reader gone before the end is one line, exit 1 (diff:
# 2, any error as diff(1)), and the command stops there rather than be killed unexplained.
# pipe_cmd ARGS...: runs the CLI with ARGS into a pipe read for one byte; prints its status
# and stderr.
pipe_cmd() {
    ("$cli" "$@" 2>"$work/pipe.err"; echo $? >"$work/pipe.st") | head -c 1 >/dev/null
    cat "$work/pipe.st" "$work/pipe.err"
}
printf '{"type":"default","version":"1.1","name":"e","contingencies":[]}' >"$work/empty.json"
many=$(yes "$work/empty.json" | head -n 4000 | tr '\n' ' ')
for c in validate stats; do
    # shellcheck disable=SC2086 # $many: 4000 names, split on purpose
    check "$c to a closed stdout: one line, exit 1" 0 \
        "1\n<stdout>: error: cannot write: Broken pipe\n" "" -- pipe_cmd $c $many
done
check "diff to a closed stdout: one line, exit 2" 0 \
    "2\n<stdout>: error: cannot write: Broken pipe\n" "" \
    -- pipe_cmd diff "$work/medium.json" "$work/empty.json"
sed 's/"id" : "[^"]*"/"id" : "same"/' "$work/medium.json" >"$work/same.json"
check "lint to a closed stdout: one line, exit 1" 0 \
    "1\n<stdout>: error: cannot write: Broken pipe\n" "" -- pipe_cmd lint "$work/same.json"
check "a worse status stays: an unreadable file, then a closed stdout" 0 \
    "2\n$work/missing.json: error: cannot open: No such file or directory\n<stdout>: error: cannot write: Broken pipe\n" \
    "" -- pipe_cmd validate "$work/missing.json" $many
{ printf '{"version":"1.2","operatorStrategies":['
  seq 1 20000 | sed 's/.*/{"id":"s&","contingencyContextType":"SPECIFIC","contingencyId":"c&","conditionalActions":[]},/' | sed '$ s/,$//'
  printf ']}'; } >"$work/strategies.json"
check "lint --strategies to a closed stdout: one line, exit 1" 0 \
    "1\n<stdout>: error: cannot write: Broken pipe\n" "" \
    -- pipe_cmd lint --contingencies "$work/empty.json" --strategies "$work/strategies.json"
# A dump larger than a pipe holds: the synthetic network of the bench.
bench_cli_net=$(dirname "$cli")/../bench/contingency-bench
if [ -x "$bench_cli_net" ]; then
    "$bench_cli_net" --generate net-quick.xiidm >"$work/net.xiidm"
    check "network --dump to a closed stdout: one line, exit 1" 0 \
        "1\n<stdout>: error: cannot write: Broken pipe\n" "" -- pipe_cmd network --dump "$work/net.xiidm"
    rm -f "$work/net.xiidm"
else
    echo "SKIP: no contingency-bench beside the CLI to make a network: network --dump to a closed stdout"
fi

gen_list 800000 "$work/big.json"
# peak_rss COMMAND: runs COMMAND (a shell text) and prints "small" when its peak memory is
# under 30 MB (reading the 93 MB list whole took 83 MB), else the peak in KB.
peak_rss() {
    /usr/bin/time -f %M -o "$work/rss" sh -c "$1" || return 1
    kb=$(tail -n 1 "$work/rss")
    if [ "$kb" -lt 30000 ]; then echo small; else echo "$kb KB"; fi
}
if [ -x /usr/bin/time ]; then
    check "streams in constant memory through pipes" 0 "small\n" "" \
        -- peak_rss "cat '$work/big.json' | '$cli' convert - - | cat >/dev/null"
    check "streams in constant memory from stdin to a file" 0 "small\n" "" \
        -- peak_rss "'$cli' convert - '$work/big.out' <'$work/big.json'"
    check "what streamed is the same" 0 "" "" -- cmp "$work/big.json" "$work/big.out"
    check "streams in constant memory from a file to stdout" 0 "small\n" "" \
        -- peak_rss "'$cli' convert '$work/big.json' - >/dev/null"
    # 40 MB of blanks before the first contingency: a regular file is read again from its
    # start rather than holding them (a pipe still keeps them, as it cannot be read twice).
    { printf '{"type":"default","version":"1.1","name":"wide","contingencies":'
      head -c 41943040 /dev/zero | tr '\0' ' '
      printf '[{"id":"c1","elements":[{"id":"G_FR1","type":"GENERATOR"}]}]}'; } >"$work/wide.json"
    for c in "convert '$work/wide.json' '$work/wide.out'" \
        "convert --to csv '$work/wide.json' '$work/wide.out'" \
        "filter --id c1 '$work/wide.json' '$work/wide.out'" \
        "merge '$work/wide.json' '$data/valid/sample.json' '$work/wide.out'" \
        "split --size 1 '$work/wide.json' '$work/wide-part'" \
        "resolve --network '$data/network/sample.xiidm' '$work/wide.json' '$work/wide.out'"; do
        check "${c%% *}: a long start before the first contingency is not held in memory ($c)" \
            0 "small\n" "" -- peak_rss "'$cli' $c"
    done
    rm -f "$work/wide.json" "$work/wide.out" "$work"/wide-part*
else
    skip "peak memory of a streaming convert (needs /usr/bin/time, Debian package time)"
fi
# stdin from a regular file is read again from where it stood, not from the file's start: a
# first line taken by `read` stays taken, for a list read whole (nested lists) and for a
# streamed resolve.
{ printf 'not json\n'; cat "$data/valid/nested-lists.json"; } >"$work/after-line.json"
"$cli" convert "$data/valid/nested-lists.json" "$work/nested.expected" || exit 2
check "convert - of stdin past its first line, read whole" 0 "" "" \
    -- sh -c "{ read -r l; '$cli' convert - '$work/nested.out'; } <'$work/after-line.json'"
check "what it wrote" 0 "" "" -- cmp "$work/nested.expected" "$work/nested.out"
{ printf 'not json\n'; cat "$data/network/default.json"; } >"$work/after-line.json"
"$cli" resolve --network "$data/network/sample.xiidm" "$data/network/default.json" \
    "$work/resolved.expected" || exit 2
check "resolve - of stdin past its first line, streamed" 0 "" "" \
    -- sh -c "{ read -r l; '$cli' resolve --network '$data/network/sample.xiidm' - \
        '$work/resolved.out'; } <'$work/after-line.json'"
check "what it wrote" 0 "" "" -- cmp "$work/resolved.expected" "$work/resolved.out"
rm -f "$work/after-line.json" "$work"/nested.* "$work"/resolved.*

# ---- signals ------------------------------------------------------------------------------
# A convert of the 93 MB list is stopped by SIGNAL once its temporary file exists; the input
# is a FIFO fed half the file and then held open, so the signal always comes mid-convert. A
# background job of a script ignores SIGINT, and an ignored signal stays ignored: env puts
# SIGINT back to its default first.
mkdir "$work/sig"
mkfifo "$work/sig/in"
signal_case() {
    rm -f "$work/sig/out.json"
    feed "$work/sig/in" 50000000 "$work/big.json"
    env $default_int "$cli" convert "$work/sig/in" "$work/sig/out.json" 2>"$work/sig.err" &
    pid=$!
    wait_for "ls -A '$work/sig' | grep -q ctg-tmp-" || echo "  (no temporary file appeared)"
    kill -"$1" "$pid"
    wait "$pid"
    echo "exit $?"
    kill "$feeder"
    wait "$feeder" 2>/dev/null
    ls -A "$work/sig"
    cat "$work/sig.err"
}
default_int=
if env --default-signal=INT true 2>/dev/null; then
    default_int=--default-signal=INT
    check "SIGINT during a convert" 0 "exit 130\nin\n" "" -- signal_case INT
else
    skip "SIGINT during a convert (needs env --default-signal, coreutils 8.31)"
fi
check "SIGTERM during a convert" 0 "exit 143\nin\n" "" -- signal_case TERM
check "SIGHUP during a convert" 0 "exit 129\nin\n" "" -- signal_case HUP

# The progress bar is erased by a signal. The input comes through a pipe that pauses after
# its first bytes, so that the bar is drawn (after half a second) before the first contingency
# is complete; then OUT, a FIFO nobody reads, keeps convert waiting in its open, bar drawn.
mkfifo "$work/sig/nobody"
bar_case() {
    printf '%s\n' "(head -c 100 '$work/big.json'; sleep 1; tail -c +101 '$work/big.json') | '$cli' convert - '$work/sig/nobody' &" \
        'echo $! >pid' 'wait $!' 'echo status=$?' >"$work/sig/run.sh"
    (cd "$work/sig" && timeout 60 script -qfec "sh run.sh" log >/dev/null) &
    wait_for "grep -q 'kB read' '$work/sig/log' 2>/dev/null && test -s '$work/sig/pid'" ||
        echo "  (no progress bar drawn)"
    kill -TERM "$(cat "$work/sig/pid")"
    wait
    # The bar, then the erasure, then the status: a terminal line left clean.
    tr '\r\033' 'RE' <"$work/sig/log" | grep -o 'read[^R]*RE\[Kstatus=143' | sed 's/read.*RE/read...RE/'
}
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
    check "a signal erases the progress bar" 0 "read...RE[Kstatus=143\n" "" -- bar_case
else
    skip "the progress bar erased on a signal (needs script from util-linux)"
fi

rm -f "$work/big.json" "$work/big.out"
echo "$((count - failures)) of $count convert output checks passed"
[ "$failures" -eq 0 ]
