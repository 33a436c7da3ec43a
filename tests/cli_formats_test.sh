#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# contingency-cli's formats end to end: convert between JSON, CSV and JSON Lines (round trips,
# RFC 4180 quoting, the ; delimiter, bad rows with their lines, what does not fit), convert
# --to-version and --allow-newer, and generate --elements. Exact stdout, stderr and exit status
# of each case.
# usage: cli_formats_test.sh CLI TESTDATA_DIR WORK_DIR
set -u

cli=$1 data=$2 work=$3
for v in cli data work; do
    eval "case \$$v in /*) ;; *) $v=\$(pwd)/\$$v ;; esac"
done
f=$data/formats
sample=$data/valid/sample.json

rm -rf "$work" && mkdir -p "$work" || exit 2

. "$(dirname "$0")/cli_check.sh"

# ---- CSV ----------------------------------------------------------------------------------
check "json to csv: a row per element, quoted where needed" 0 "@$f/quoting-out.csv" "" \
    -- "$cli" convert "$f/quoting.json" --to csv -
check "csv to json: rows grouped by id, even apart; named after the file" 0 "@$f/quoting.json" "" \
    -- "$cli" convert "$f/quoting.csv" --to json -
check "csv --delimiter ';' in" 0 "@$f/quoting.json" "" \
    -- "$cli" convert --delimiter ';' --name quoting "$f/quoting-semicolon.csv" -
check "csv --delimiter ';' out" 0 "@$f/quoting-out-semicolon.csv" "" \
    -- "$cli" convert --delimiter ';' "$f/quoting.json" --to csv -
for list in "$f/quoting.json" "$sample"; do
    base=$(basename "$list" .json)
    check "round trip json -> csv -> json: $base" 0 "" "" \
        -- sh -c "'$cli' convert '$list' '$work/$base.csv' &&
            '$cli' convert '$work/$base.csv' '$work/$base.json' && cmp '$list' '$work/$base.json'"
    check "round trip json -> jsonl -> json: $base" 0 "" "" \
        -- sh -c "'$cli' convert '$list' '$work/$base.jsonl' &&
            '$cli' convert '$work/$base.jsonl' '$work/$base.json' && cmp '$list' '$work/$base.json'"
done
check "round trip json -> csv -> json, compact, through pipes" 0 "" "" \
    -- sh -c "'$cli' convert --to csv - - <'$sample' |
        '$cli' convert --compact --from csv --name sample - - >'$work/pipe.json' &&
        '$cli' convert --compact '$sample' - | cmp - '$work/pipe.json'"

# Bad rows: the line of the row (a quoted line break counts), the path of what it would be.
check "csv: a row of 4 fields" 1 "" "$f/bad-fields.csv:2:1: error: /: expected 5 fields, found 4\n" \
    -- "$cli" convert "$f/bad-fields.csv" -
check "csv: a stray quote, at its column" 1 "" \
    "$f/bad-quote.csv:2:5: error: /: malformed CSV: a quote must open and close a field, and be doubled inside one\n" \
    -- "$cli" convert "$f/bad-quote.csv" -
check "csv: the header is required" 1 "" \
    "$f/bad-header.csv:1:1: error: /: the first row must be the header contingency_id,contingency_name,element_id,element_type,voltage_level_id\n" \
    -- "$cli" convert "$f/bad-header.csv" -
check "csv: the header in the delimiter given" 1 "" \
    "$f/quoting.csv:1:1: error: /: the first row must be the header contingency_id;contingency_name;element_id;element_type;voltage_level_id\n" \
    -- "$cli" convert --delimiter ';' "$f/quoting.csv" -
check "csv: two names for one contingency" 1 "" \
    "$f/bad-name.csv:4:1: error: /contingencies/0/name: contingency_name differs from line 2's, for the same contingency_id\n" \
    -- "$cli" convert "$f/bad-name.csv" -
check "csv: a side on an unsided type, after a quoted line break" 1 "" \
    "$f/bad-side.csv:4:1: error: /contingencies/1/elements/0/voltageLevelId: GENERATOR has no side: voltage_level_id must be empty\n" \
    -- "$cli" convert "$f/bad-side.csv" -
printf 'contingency_id,contingency_name,element_id,element_type,voltage_level_id\na,,L,LINE,\nb,,X,TRANSFORMER,\n' >"$work/type.csv"
check "csv: an unknown element type" 1 "" \
    "$work/type.csv:3:1: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" convert "$work/type.csv" -
printf 'contingency_id,contingency_name,element_id,element_type,voltage_level_id\nc,"open,L,LINE,\n' >"$work/open.csv"
check "csv: a quote left open at the end" 1 "" \
    "$work/open.csv:2:1: error: /: malformed CSV: a quoted field is not closed at the end\n" \
    -- "$cli" convert "$work/open.csv" -
printf 'contingency_id,contingency_name,element_id,element_type,voltage_level_id\na,,L,LINE,\nb,,X\377,LINE,\n' >"$work/utf8.csv"
check "csv: a field that is not UTF-8, at its row, not copied through" 1 "" \
    "$work/utf8.csv:3:1: error: /: field 3 is not valid UTF-8 (byte 2)\n" \
    -- "$cli" convert "$work/utf8.csv" --to csv -
printf 'contingency_id,contingency_name,element_id,element_type,voltage_level_id\ra,,L,LINE,\rb,,X,TRANSFORMER,\r' >"$work/cr.csv"
check "csv: lines ended by CR alone are counted" 1 "" \
    "$work/cr.csv:3:1: error: /contingencies/1/elements/0/type: unknown element type \"TRANSFORMER\"\n" \
    -- "$cli" convert "$work/cr.csv" -
# The 64 KiB chunks of the read cut a "\r\n" in two: still one line end.
awk 'BEGIN { h = "contingency_id,contingency_name,element_id,element_type,voltage_level_id\r\n"
    printf "%s", h; n = length(h); for (i = 0; n + 16 <= 65500; i++) { r = sprintf("c%d,,L%d,LINE,\r\n", i, i); printf "%s", r; n += length(r) }
    pad = ""; for (k = n + 9; k < 65535; k++) pad = pad "X"
    printf "p,,%s,LINE,\r\nz,,Z,LIN,\r\n", pad; print i + 3 > "/dev/stderr" }' >"$work/cut.csv" 2>"$work/cut.line"
check "csv: a CRLF cut by a chunk, the line after it" 1 "" \
    "$work/cut.csv:$(cat "$work/cut.line"):1: error: /contingencies/$(($(cat "$work/cut.line") - 2))/elements/0/type: unknown element type \"LIN\"\n" \
    -- "$cli" convert "$work/cut.csv" -
check "  the cut: byte 65535 is the CR" 0 "0d0a\n" "" \
    -- sh -c "od -An -tx1 -j65535 -N2 '$work/cut.csv' | tr -d ' '"
: >"$work/empty.csv"
# A NUL byte is refused where it is and a field past 64 MiB as it grows: neither is held to the
# end of its field, so that no input makes the read hold without end (/dev/zero).
printf 'contingency_id,contingency_name,element_id,element_type,voltage_level_id\nc,,L\000,LINE,\n' >"$work/nul.csv"
check "csv: a NUL byte, at its place" 1 "" \
    "$work/nul.csv:2:5: error: /: a NUL byte: no field of a list holds one\n" \
    -- "$cli" convert "$work/nul.csv" -
check "csv: /dev/zero ends at its first byte" 1 "" \
    "/dev/zero:1:1: error: /: a NUL byte: no field of a list holds one\n" \
    -- "$cli" generate --elements /dev/zero --name z "$work/zero.json"
# (The limit, 64 MiB, lowered by CTG_TEXT_LIMIT_BYTES: 64 MiB inputs are slow under ASan.)
head -c 100001 /dev/zero | tr '\0' a >"$work/long.csv"
check "csv: a field past the limit" 1 "" \
    "$work/long.csv:1:1: error: /: field 1 longer than 100000 bytes\n" \
    -- env CTG_TEXT_LIMIT_BYTES=100000 "$cli" generate --elements "$work/long.csv" "$work/long.json"
# ... and one that crosses the limit and ends in the same read
{ printf 'L'; head -c 100000 /dev/zero | tr '\0' a; printf ',LINE\n'; } >"$work/long.csv"
check "csv: a field past the limit that ends" 1 "" \
    "$work/long.csv:1:1: error: /: field 1 longer than 100000 bytes\n" \
    -- env CTG_TEXT_LIMIT_BYTES=100000 "$cli" generate --elements "$work/long.csv" "$work/long.json"
{ head -c 100000 /dev/zero | tr '\0' a; printf ',LINE\n'; } >"$work/long.csv"
check "csv: a field at the limit is read" 0 "" "" \
    -- env CTG_TEXT_LIMIT_BYTES=100000 "$cli" generate --elements "$work/long.csv" "$work/long.json"
rm -f "$work/long.csv"
check "csv: an empty file has no header" 1 "" \
    "$work/empty.csv:1:1: error: /: no header: an empty CSV file (the header row is required)\n" \
    -- "$cli" convert "$work/empty.csv" -
printf 'kept\n' >"$work/kept.json"
check "csv: a bad row leaves OUT as it was" 1 "kept\n" \
    "$f/bad-name.csv:4:1: error: /contingencies/0/name: contingency_name differs from line 2's, for the same contingency_id\n" \
    -- sh -c "'$cli' convert '$f/bad-name.csv' '$work/kept.json'; s=\$?; cat '$work/kept.json'; exit \$s"
check "csv from a spreadsheet: a byte order mark and CRLF line ends" 0 "@$sample" "" \
    -- sh -c "'$cli' convert '$sample' --to csv - | { printf '\357\273\277'; sed 's/\$/\r/'; } |
        '$cli' convert --from csv --name sample - -"
printf 'contingency_id,contingency_name,element_id,element_type,voltage_level_id\n' >"$work/header.csv"
check "csv: a header alone is an empty list" 0 '{"type":"default","version":"1.1","name":"header","contingencies":[]}' "" \
    -- "$cli" convert --compact "$work/header.csv" -

# What does not fit CSV or JSON Lines is an error naming it, and nothing is written.
check "csv cannot hold extensions" 1 "" \
    "$data/valid/extension-contingency.json:1:1: error: /: contingency \"N-1 with extensions\" has extensions, which CSV cannot hold (JSON Lines can)\n" \
    -- "$cli" convert "$data/valid/extension-contingency.json" "$work/ext.csv"
check "... and wrote nothing" 1 "" "" -- test -e "$work/ext.csv"
printf '{"type":"default","version":"1.1","name":"e","contingencies":[{"id":"a","elements":[{"id":"G","type":"GENERATOR"}]},{"id":"empty","elements":[]}]}' >"$work/empty-ctg.json"
check "csv cannot hold a contingency without elements" 1 "" \
    "$work/empty-ctg.json:1:117: error: /contingencies/1: contingency \"empty\" has no elements, and CSV has one row per element (JSON Lines can hold it)\n" \
    -- "$cli" convert "$work/empty-ctg.json" "$work/empty-ctg.csv"
check "... nor from JSON Lines: the line, the path as in a list" 1 "" \
    "$work/empty-ctg.jsonl:2:1: error: /contingencies/1: contingency \"empty\" has no elements, and CSV has one row per element (JSON Lines can hold it)\n" \
    -- sh -c "'$cli' convert '$work/empty-ctg.json' '$work/empty-ctg.jsonl' &&
        '$cli' convert '$work/empty-ctg.jsonl' '$work/empty-ctg.csv'"
check "jsonl holds extensions and empty contingencies" 0 "" "" \
    -- sh -c "'$cli' convert '$data/valid/extension-types.json' '$work/ext.jsonl' &&
        '$cli' convert --name 'extension types' '$work/ext.jsonl' - |
        cmp - '$data/valid/extension-types.json' &&
        '$cli' convert '$work/empty-ctg.json' '$work/empty-ctg.jsonl' &&
        '$cli' convert --compact --name e '$work/empty-ctg.jsonl' - | cmp - '$work/empty-ctg.json'"
check "identifier lists do not fit CSV" 1 "" \
    "$data/valid/identifier-v1_0.json: error: /: identifier lists do not fit CSV: only a default list's contingencies do\n" \
    -- "$cli" convert "$data/valid/identifier-v1_0.json" --to csv -
check "lists of lists do not fit JSON Lines" 1 "" \
    "$data/valid/nested-lists.json:5:26: error: /contingencyLists/0: a list of lists does not fit JSON Lines (here a nested default list): only a default list's contingencies do\n" \
    -- "$cli" convert "$data/valid/nested-lists.json" "$work/nested.jsonl"

# ---- JSON Lines ----------------------------------------------------------------------------
printf '{"id":"a","elements":[]}\n{"id":"b\000"}\n' >"$work/nul.jsonl"
check "jsonl: a NUL byte, at its place" 1 "" \
    "$work/nul.jsonl:2:9: error: /: a NUL byte: JSON text holds none\n" \
    -- "$cli" convert "$work/nul.jsonl" -
check "jsonl: /dev/zero ends at its first byte" 1 "" \
    "/dev/zero:1:1: error: /: a NUL byte: JSON text holds none\n" \
    -- "$cli" convert --from jsonl --name z /dev/zero "$work/zero.json"
head -c 100001 /dev/zero | tr '\0' ' ' >"$work/long.jsonl"
check "jsonl: a line past the limit" 1 "" \
    "$work/long.jsonl:1:1: error: /: line longer than 100000 bytes\n" \
    -- env CTG_TEXT_LIMIT_BYTES=100000 "$cli" convert "$work/long.jsonl" "$work/long.json"
rm -f "$work/long.jsonl"
check "json to jsonl: the compact contingency objects" 0 "@$f/quoting.jsonl" "" \
    -- "$cli" convert "$f/quoting.json" --to jsonl -
check "jsonl from stdin needs --name" 2 "" \
    "contingency-cli convert: a CSV or JSON Lines list from stdin needs --name\n${usage_convert:-usage: contingency-cli convert [OPTION...] IN OUT\n}Try 'contingency-cli convert --help' for more information.\n" \
    -- sh -c "'$cli' convert --from jsonl - - <'$f/quoting.jsonl'"
check "jsonl from stdin with --name, blank lines skipped" 0 "@$f/quoting.json" "" \
    -- sh -c "sed 's/^/  /; G' '$f/quoting.jsonl' | '$cli' convert --from jsonl --name quoting - -"
check "jsonl: a bad line, at its line" 1 "" \
    "$f/bad-type.jsonl:3:40: error: /contingencies/1/elements/0/type: unknown element type \"LIN\"\n" \
    -- "$cli" convert "$f/bad-type.jsonl" -
printf '{"id":"a","elements":[]}\n{"type":"default","version":"1.1","name":"x","contingencies":[{"id":"c","elements":[{"id":"L","type":"LIN"}]}]}\n' >"$work/badlist.jsonl"
check "jsonl: a bad list on a line keeps the list's own path" 1 "" \
    "$work/badlist.jsonl:2:102: error: /contingencies/0/elements/0/type: unknown element type \"LIN\"\n" \
    -- "$cli" convert "$work/badlist.jsonl" -
printf '{"type":"default","version":"1.1","name":"x","contingencies":[]}\n' >"$work/list.jsonl"
check "jsonl: a line holding a list" 1 "" \
    "$work/list.jsonl:1:1: error: /: a line must hold one contingency object, not a default list\n" \
    -- "$cli" convert "$work/list.jsonl" -

# ---- gzip ---------------------------------------------------------------------------------
check "csv.gz out, csv.gz in" 0 "" "" \
    -- sh -c "'$cli' convert '$f/quoting.json' '$work/q.csv.gz' &&
        gzip -dc '$work/q.csv.gz' | cmp - '$f/quoting-out.csv' &&
        '$cli' convert --name quoting '$work/q.csv.gz' - | cmp - '$f/quoting.json'"
check "jsonl.gz out, jsonl.gz in" 0 "" "" \
    -- sh -c "'$cli' convert '$f/quoting.csv' '$work/q.jsonl.gz' &&
        gzip -dc '$work/q.jsonl.gz' | cmp - '$f/quoting.jsonl' &&
        '$cli' convert '$work/q.jsonl.gz' - | '$cli' convert --from json --to csv - - |
        cmp - '$f/quoting-out.csv'"
check "gzip csv from stdin" 0 "@$f/quoting.json" "" \
    -- sh -c "gzip -c '$f/quoting.csv' | '$cli' convert --from csv --name quoting - -"

# ---- options ------------------------------------------------------------------------------
check "unknown --from" 2 "" \
    "contingency-cli convert: unknown format (json, csv or jsonl): xml\nusage: contingency-cli convert [OPTION...] IN OUT\nTry 'contingency-cli convert --help' for more information.\n" \
    -- "$cli" convert --from xml "$sample" -
check "--delimiter takes one character" 2 "" \
    "contingency-cli convert: --delimiter takes one character (not a quote or a line break), or \"tab\": ;;\nusage: contingency-cli convert [OPTION...] IN OUT\nTry 'contingency-cli convert --help' for more information.\n" \
    -- "$cli" convert --delimiter ';;' "$sample" -
check "--name is for CSV and JSON Lines input" 2 "" \
    "contingency-cli convert: --name names a list read from CSV or JSON Lines; a JSON list has its own\nusage: contingency-cli convert [OPTION...] IN OUT\nTry 'contingency-cli convert --help' for more information.\n" \
    -- "$cli" convert --name x "$sample" -
check "--delimiter without CSV" 2 "" \
    "contingency-cli convert: --delimiter applies to CSV only\nusage: contingency-cli convert [OPTION...] IN OUT\nTry 'contingency-cli convert --help' for more information.\n" \
    -- "$cli" convert --delimiter ';' "$sample" -
check "--delimiter tab" 0 "" "" \
    -- sh -c "'$cli' convert --delimiter tab '$sample' --to csv - | tr '\t' ',' |
        '$cli' convert --from csv --name sample - - | cmp - '$sample'"

# ---- --to-version -------------------------------------------------------------------------
check "--to-version 1.0 writes BOUNDARY_LINE as DANGLING_LINE" 0 "@$data/valid/boundary-v1_0.json" "" \
    -- "$cli" convert --to-version 1.0 "$data/expected/boundary-v1_0.json" -
check "--to-version 1.0 read back and written at 1.1 is the input" 0 "" "" \
    -- sh -c "'$cli' convert --to-version 1.0 '$data/expected/boundary-v1_0.json' '$work/old.json' &&
        '$cli' convert '$work/old.json' - | cmp - '$data/expected/boundary-v1_0.json'"
check "--to-version 1.0 of a list: its nested lists at 1.0" 0 "@$data/valid/nested-lists-v1_0.json" "" \
    -- "$cli" convert --to-version 1.0 "$data/valid/nested-lists-v1_0.json" -
check "--to-version 1.2: a wildcard other than ?" 1 "" \
    "$f/identifier-new.json:17:20: error: /identifiers/1/identifierList/1/wildcard: a wildcard other than '?' cannot be written at identifier format version 1.2\n" \
    -- "$cli" convert --to-version 1.2 "$f/identifier-new.json" "$work/id12.json"
check "... and wrote nothing" 1 "" "" -- test -e "$work/id12.json"
check "--to-version 1.1: a contingencyId" 1 "" \
    "$f/identifier-new.json:10:23: error: /identifiers/1/contingencyId: a contingencyId cannot be written at identifier format version 1.1\n" \
    -- "$cli" convert --to-version 1.1 "$f/identifier-new.json" -
sed 's/"L\*3"/"L?3"/; s/"wildcard" : "\*"/"wildcard" : "?"/' "$f/identifier-new.json" >"$work/id-q.json"
sed 's/"L\*3",/"L?3"/; /"wildcard" : "\*"/d; s/"version" : "1.3"/"version" : "1.2"/' \
    "$f/identifier-new.json" >"$work/id12-want.json"
printf '%s' "$(cat "$work/id12-want.json")" >"$work/id12-want.json"
check "--to-version 1.2: no wildcard field" 0 "@$work/id12-want.json" "" \
    -- "$cli" convert --to-version 1.2 "$work/id-q.json" -
check "--to-version 1.0 of a criterion list with BOUNDARY_LINE" 1 "" \
    "$f/injection-boundary.json:5:24: error: /identifiableType: BOUNDARY_LINE (DANGLING_LINE before 1.1, which readers now refuse) cannot be written at injectionCriterion format version 1.0\n" \
    -- "$cli" convert --to-version 1.0 "$f/injection-boundary.json" -
check "--to-version a kind has not got" 2 "" \
    "<stdout>: error: cannot write default lists at format version \"1.3\" (1.0, 1.1)\n" \
    -- "$cli" convert --to-version 1.3 "$sample" -
check "--to-version a kind has not got, to a file: the file named, nothing written" 2 "" \
    "$work/v13.json: error: cannot write default lists at format version \"1.3\" (1.0, 1.1)\n" \
    -- sh -c "'$cli' convert --to-version 1.3 '$sample' '$work/v13.json'; s=\$?; test ! -e '$work/v13.json' && exit \$s"
check "--to-version unknown" 2 "" \
    "contingency-cli convert: unknown --to-version (1.0, 1.1, 1.2 or 1.3): 2.0\nusage: contingency-cli convert [OPTION...] IN OUT\nTry 'contingency-cli convert --help' for more information.\n" \
    -- "$cli" convert --to-version 2.0 "$sample" -
check "--to-version is for JSON" 2 "" \
    "contingency-cli convert: --to-version applies to JSON output only\nusage: contingency-cli convert [OPTION...] IN OUT\nTry 'contingency-cli convert --help' for more information.\n" \
    -- "$cli" convert --to-version 1.0 "$sample" "$work/x.csv"

# ---- --allow-newer ------------------------------------------------------------------------
printf '{"type":"default","version":"1.5","name":"n","contingencies":[{"id":"a","elements":[{"id":"G","type":"GENERATOR"}]}]}' >"$work/newer.json"
check "a newer version is refused" 1 "" \
    "$work/newer.json:1:29: error: /version: version 1.5 is newer than 1.1, the newest this library reads for \"default\" lists\n" \
    -- "$cli" convert "$work/newer.json" -
check "--allow-newer reads it, written at 1.1" 0 \
    '{"type":"default","version":"1.1","name":"n","contingencies":[{"id":"a","elements":[{"id":"G","type":"GENERATOR"}]}]}' "" \
    -- "$cli" convert --allow-newer --compact "$work/newer.json" -
check "--allow-newer, read whole (the name last)" 0 \
    '{"type":"default","version":"1.1","name":"n","contingencies":[]}' "" \
    -- sh -c "printf '{\"type\":\"default\",\"version\":\"2.0\",\"contingencies\":[],\"name\":\"n\"}' |
        '$cli' convert --allow-newer --compact - -"

# ---- generate -----------------------------------------------------------------------------
check "generate with a header" 0 "@$f/elements.json" "" \
    -- "$cli" generate --elements "$f/elements.csv" -
check "generate without a header, --name" 0 "@$f/elements.json" "" \
    -- "$cli" generate --elements "$f/elements-noheader.csv" --name elements -
check "generate --id-format, from stdin" 0 \
    '{"type":"default","version":"1.1","name":"x","contingencies":[{"id":"LINE L1@VL1 {1}","elements":[{"id":"L1","type":"LINE","voltageLevelId":"VL1"}]},{"id":"GENERATOR G1@ {1}","elements":[{"id":"G1","type":"GENERATOR"}]}]}' "" \
    -- sh -c "printf 'L1,LINE,VL1\nG1,GENERATOR\n' |
        '$cli' generate --elements - --name x --compact --id-format '{type} {id}@{vl} {{1}}' -"
check "generate --delimiter ';'" 0 "@$f/elements.json" "" \
    -- sh -c "sed 's/,/;/g; s/\"L;2\"/\"L,2\"/' '$f/elements.csv' |
        '$cli' generate --delimiter ';' --elements - --name elements -"
check "generate --id-format refuses an unknown placeholder" 2 "" \
    "contingency-cli generate: --id-format: an unknown placeholder or a lone brace (placeholders {id}, {type}, {vl}; {{ and }} for braces) at: {name}\nusage: contingency-cli generate [OPTION...] (--elements FILE.csv | --network NET) OUT\nTry 'contingency-cli generate --help' for more information.\n" \
    -- "$cli" generate --elements "$f/elements.csv" --id-format 'N-1 {name}' -
# Element ids are unique, the other fields are not: a format without {id} repeats ids.
check "generate --id-format without {id}" 2 "" \
    "contingency-cli generate: --id-format needs {id}, or contingencies would share ids: N-1_{type}@{vl}\nusage: contingency-cli generate [OPTION...] (--elements FILE.csv | --network NET) OUT\nTry 'contingency-cli generate --help' for more information.\n" \
    -- "$cli" generate --elements "$f/elements.csv" --id-format 'N-1_{type}@{vl}' -
check "generate --id-format: {{id}} is no placeholder" 2 "" \
    "contingency-cli generate: --id-format needs {id}, or contingencies would share ids: {{id}}\nusage: contingency-cli generate [OPTION...] (--elements FILE.csv | --network NET) OUT\nTry 'contingency-cli generate --help' for more information.\n" \
    -- "$cli" generate --elements "$f/elements.csv" --id-format '{{id}}' -
check "generate --id-format empty" 2 "" \
    "contingency-cli generate: --id-format needs {id}, or contingencies would share ids: \nusage: contingency-cli generate [OPTION...] (--elements FILE.csv | --network NET) OUT\nTry 'contingency-cli generate --help' for more information.\n" \
    -- "$cli" generate --elements "$f/elements.csv" --id-format '' -
check "generate --id-format {{{id}}}: {id} in braces" 0 \
    '{"type":"default","version":"1.1","name":"x","contingencies":[{"id":"{G1}","elements":[{"id":"G1","type":"GENERATOR"}]}]}' "" \
    -- sh -c "printf 'G1,GENERATOR\n' | '$cli' generate --elements - --name x --compact --id-format '{{{id}}}' -"
check "generate needs a source" 2 "" \
    "contingency-cli generate: no source of elements: --elements FILE.csv or --network NET\nusage: contingency-cli generate [OPTION...] (--elements FILE.csv | --network NET) OUT\nTry 'contingency-cli generate --help' for more information.\n" \
    -- "$cli" generate -
check "generate: a bad row, at its line; OUT not made" 1 "" \
    "$f/elements-bad.csv:2:1: error: /contingencies/1/elements/0/voltageLevelId: GENERATOR has no side: voltage_level_id must be empty\n" \
    -- "$cli" generate --elements "$f/elements-bad.csv" "$work/gen-bad.json"
check "... and wrote nothing" 1 "" "" -- test -e "$work/gen-bad.json"
printf 'L1\n' >"$work/one.csv"
check "generate: a row of one field" 1 "" \
    "$work/one.csv:1:1: error: /: expected 2 or 3 fields (element_id, element_type[, voltage_level_id]), found 1\n" \
    -- "$cli" generate --elements "$work/one.csv" -
check "generate to .gz, from .gz" 0 "" "" \
    -- sh -c "gzip -c '$f/elements.csv' >'$work/elements.csv.gz' &&
        '$cli' generate --elements '$work/elements.csv.gz' '$work/gen.json.gz' &&
        gzip -dc '$work/gen.json.gz' | cmp - '$f/elements.json'"

# The progress bar on a terminal (script(1) gives one): a CSV read that lasts shows the bytes
# read, then the bar is erased; --no-progress draws none.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    printf '%s\n' "(cat '$f/elements.csv'; sleep 1.2; echo X1,LINE) |
        '$cli' generate \$1 --elements - --name x '$work/bar.json'" >"$work/slow.sh"
    # The terminal's bytes, \r as R and escape as E.
    check "generate: a progress bar on a terminal, erased at the end" 0 "" "" \
        -- sh -c "script -qec 'sh $work/slow.sh' /dev/null </dev/null | tr '\\r\\033' RE |
            grep -q '^R0.1 kB read .*E\\[KRE\\[K\$'"
    check "generate --no-progress: none" 0 "" "" \
        -- sh -c "script -qec 'sh $work/slow.sh --no-progress' /dev/null </dev/null | cmp - /dev/null"
else
    echo "SKIP: script(1) cannot give a terminal: the progress bar checks"
fi

echo "$((count - failures)) of $count format checks passed"
[ "$failures" -eq 0 ]
