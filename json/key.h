/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_JSON_KEY_H
#define CTG_JSON_KEY_H

/* Private: one member name of the format, written once (CTG_KEY) and used by both sides: the
 * reader's object loop matches `name`/`len` and hints the lexer with them, the emitter copies
 * `quoted` as one fixed-size block. Both forms come from the same literal at compile time. */

#include <stddef.h>

typedef struct ctg_key {
    const char *name; /* the bare name, NUL-terminated (messages, paths) */
    size_t len;       /* bytes of the bare name */
    char quoted[32];  /* the name in quotes, NUL-padded to 32 bytes: no need to stop at its end */
    /* To 64 bytes: the reader's object loop indexes key tables with one shift (48 cost it 0.3%
     * more instructions). */
    char unused[32 - sizeof(const char *) - sizeof(size_t)];
} ctg_key;
_Static_assert(sizeof(ctg_key) == 64, "a key is 64 bytes");

/* A name that needs no escaping. One longer than 30 bytes does not compile (an array of
 * size -1): with its quotes it must fit the 32-byte block. */
#define CTG_KEY(lit)                                                                           \
    { lit, sizeof(lit) - 1 + 0 * sizeof(char[sizeof(lit) <= 31 ? 1 : -1]), "\"" lit "\"", { 0 } }

#endif
