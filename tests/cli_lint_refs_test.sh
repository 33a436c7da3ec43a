#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli lint --contingencies --actions --strategies --limit-reductions --monitoring:
# the cross-check of a security analysis's inputs end to end, each finding with its exact file,
# line, column and path; a 1.0 strategy file; JSON output; stdin; invalid files and usage.
# usage: cli_lint_refs_test.sh CLI WORK_DIR
set -u

cli=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../testdata/lint-refs

# The files are copied into $work and named relative to it, as the messages then name them.
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 2
cp "$data"/*.json . || exit 2

. "$here/cli_check.sh"

usage='usage: contingency-cli lint [--format FORMAT] [--target TARGET] [OPTION...] (FILE... | [--contingencies C] [--actions A] [--strategies S] [--limit-reductions L] [--monitoring M])\nTry '"'"'contingency-cli lint --help'"'"' for more information.\n'

check "every finding, in the documented order" 1 \
    'strategies.json:6:23: error: /operatorStrategies/0/contingencyId: no contingency "c2" in the contingency list
strategies.json:12:29: error: /operatorStrategies/0/conditionalActions/0/actionIds/1: no action "a9" in the action list
limits.json:9:25: error: /limitReductions/0/contingencyContext/contingencyId: no contingency "c3" in the contingency list
monitors.json:2:65: error: /1/contingencyContext/contingencyId: no contingency "c4" in the contingency list
actions.json:10:12: warning: /actions/1/id: action "a2" is used by no operator strategy\n' "" \
    -- "$cli" lint --contingencies contingencies.json --actions actions.json \
    --strategies strategies.json --limit-reductions limits.json --monitoring monitors.json

check "a 1.0 strategy file: the stage's ids are on the strategy" 1 \
    'strategies-1.0.json:10:27: error: /operatorStrategies/0/actionIds/1: no action "a9" in the action list
actions.json:10:12: warning: /actions/1/id: action "a2" is used by no operator strategy\n' "" \
    -- "$cli" lint --contingencies contingencies.json --actions actions.json \
    --strategies strategies-1.0.json

check "an identifier action list: a stage may name a builder, found under its key" 1 \
    'idactions.json:15:25: warning: /actionBuilders/k-idle/id: action "idle" is used by no operator strategy\n' "" \
    -- "$cli" lint --actions idactions.json --strategies idstrategies.json

# Each file is opened once to be read and at most once more to place its findings, however
# many fallbacks a finding needs (a 1.0 file needs two); a file without findings only once.
# Counted with strace, when it runs here.
sed 's/"c3"/"c1"/' limits.json >limits-clean.json
opens() {
    strace -f -e trace=open,openat -o opens.txt "$cli" lint --contingencies contingencies.json \
        --actions actions.json --strategies strategies-1.0.json \
        --limit-reductions limits-clean.json >/dev/null 2>&1
    for f in contingencies.json actions.json strategies-1.0.json limits-clean.json; do
        printf '%s %s\n' "$f" "$(grep -c "\"$f\"" opens.txt)"
    done
}
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
    check "one scan of each file for the places" 0 \
        'contingencies.json 1\nactions.json 2\nstrategies-1.0.json 2\nlimits-clean.json 1\n' "" -- opens
else
    echo "SKIP: one scan of each file for the places (no usable strace)"
fi

check "json, the contingency list on stdin" 1 \
    '{"file":"strategies.json","line":6,"column":23,"path":"/operatorStrategies/0/contingencyId","code":"unknown-contingency","severity":"error","message":"no contingency \\"c2\\" in the contingency list"}\n' "" \
    -- sh -c "'$cli' lint --format json --contingencies - --strategies strategies.json <contingencies.json"

check "without the action list, action ids are not checked" 0 "" "" \
    -- "$cli" lint --contingencies contingencies.json --strategies strategies-clean.json

check "an action list alone: only its repeats" 1 \
    'actions-repeat.json:1:107: error: /actions/1/id: action id "a1" is already the id of /actions/0\n' "" \
    -- "$cli" lint --actions actions-repeat.json

check "a document of another kind" 1 "" \
    'strategies.json:1:1: error: /: this is an operator-strategy list, not an action list\n' \
    -- "$cli" lint --actions strategies.json --strategies strategies.json

# PowSyBl writes an empty monitoring file as []: the array has no item to tell its kind by,
# and the option does. An empty array given for actions is still a context list.
printf '[]' >monitors-empty.json
check "an empty monitoring file" 0 "" "" \
    -- "$cli" lint --contingencies contingencies.json --strategies strategies-clean.json \
    --monitoring monitors-empty.json
check "an empty array is no action list" 1 "" \
    'monitors-empty.json:1:1: error: /: this is a contingency-context list, not an action list\n' \
    -- "$cli" lint --actions monitors-empty.json

check "a criterion list has no ids before resolution" 1 "" \
    'criteria.json: error: not a default list: its contingencies are known only once resolved against a network (contingency-cli resolve)\n' \
    -- "$cli" lint --contingencies criteria.json --strategies strategies.json

check "a FILE besides the cross-check" 2 "" \
    "contingency-cli lint: the cross-check (--contingencies, --actions...) takes no FILE: x.json\n$usage" \
    -- "$cli" lint --actions actions.json x.json

check "stdin only for the contingency list" 2 "" \
    "contingency-cli lint: only the contingency list of the cross-check may be stdin: --strategies\n$usage" \
    -- "$cli" lint --strategies -

check "nothing to check against" 2 "" \
    "contingency-cli lint: the cross-check needs --strategies or --actions\n$usage" \
    -- "$cli" lint --contingencies contingencies.json

# The usage line (where the completion takes a command's options from) names them.
check "the usage names the cross-check's options" 0 \
    '--contingencies\n--actions\n--strategies\n--limit-reductions\n--monitoring\n' "" \
    -- sh -c "'$cli' lint --help | sed -n '1s/^usage: //p' | grep -o -- '--[a-z][a-z-]*' | tail -n 5"

echo "$((count - failures)) of $count lint cross-check checks passed"
[ "$failures" -eq 0 ]
