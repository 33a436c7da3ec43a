/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_TEST_LEXER_H
#define CTG_TEST_LEXER_H

/* Helpers of the lexer and conformance suites (defined in tests/test_lexer.c). */

#include <stddef.h>

#include "json/lexer.h"

/* Lexes `len` bytes up to EOF or the first error and describes every token (type, decoded text
 * or number, offset:line:column) and the end (EOF, or the error's code, position and message)
 * in one malloc'd line, NULL when out of memory. The bytes are first copied to the very end of
 * a block of exactly `len` bytes, so that reading past them trips ASan. chunk = 0: memory mode;
 * otherwise a refill callback hands out at most `chunk` bytes per call. `lim` may be NULL.
 * *status gets the status of the last ctg_lexer_next call. */
char *ctg_test_lex_digest(const void *data, size_t len, size_t chunk, const ctg_lex_limits *lim,
                          int *status);

/* ctg_lexer_offset where the last ctg_test_lex_digest left its input. */
size_t ctg_test_last_offset(void);

/* How ctg_test_skip_end skips: the root value whole with ctg_lexer_skip_next; every value
 * after a key with ctg_lexer_skip_next; every container, opened by ctg_lexer_next, with
 * ctg_lexer_skip_value; every token through ctg_lexer_member_sifted, whose sieve passes over
 * every member but those whose key starts with 'k'. */
enum {
    CTG_TEST_SKIP_ROOT,
    CTG_TEST_SKIP_AFTER_KEYS,
    CTG_TEST_SKIP_CONTAINERS,
    CTG_TEST_SKIP_SIFTED,
    CTG_TEST_SKIP_PATTERNS
};

/* Reads `len` bytes as ctg_test_lex_digest does (same copy, same modes) to EOF or the first
 * error, skipping values as `pattern` says, and describes only the end: the EOF token or the
 * error, as in a digest, then " at " and ctg_lexer_offset. malloc'd; NULL when out of memory.
 * *status: the last call's status. */
char *ctg_test_skip_end(const void *data, size_t len, size_t chunk, const ctg_lex_limits *lim,
                        int pattern, int *status);

/* The refill sizes every digest is compared across (besides memory mode). */
#define CTG_TEST_CHUNKS { 1, 2, 3, 7, 64, 4096 }

#endif
