/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_GLOB_H
#define CTG_CLI_GLOB_H

#include <stdbool.h>

/* Whether the whole of `str` matches the shell pattern `glob`, as fnmatch(3) without flags
 * matches in a UTF-8 locale: `*` any run of characters (`/` and a leading `.` included), `?`
 * one character, `[...]` one character of the set (`!` or `^` first negates; `a-z` ranges of
 * code points; the classes `[:alpha:]`, `[:digit:]`, `[:alnum:]`, `[:upper:]`, `[:lower:]`,
 * `[:space:]`, `[:punct:]`, `[:xdigit:]`, ASCII only), `\` makes the next character literal;
 * a `[` without its `]` is itself. Characters are UTF-8 sequences, so `?` takes `é` whole: ids
 * are UTF-8, and fnmatch in the program's C locale sees bytes (in glibc's C.UTF-8, `??` still
 * matched one two-byte character). A byte that starts no well-formed sequence (overlong forms
 * and surrogates included) is one character, equal only to that byte. Other class names match
 * nothing. */
bool cli_glob_match(const char *glob, const char *str);

#endif
