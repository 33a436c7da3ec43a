/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_INTERNAL_H
#define CTG_BASE_INTERNAL_H

/* Private: the mark of libctg's internals that libctg_network uses (the lexer, the arena, the
 * allocator and error helpers, the emitter, ...). libctg is built with hidden visibility, so
 * only what a public header declares CTG_API and what is marked CTG_INTERNAL leaves the
 * shared library; the version script (cmake/ctg.map.in) puts the latter under its own
 * version node, CTG_PRIVATE_<SOVERSION>, which no public header declares and no user may
 * rely on: only a libctg_network of the same build links against it. scripts/check-symbols.sh
 * checks that both nodes hold exactly what is declared. Put the mark first on a declaration,
 * with the function's name on the same line (cmake/CtgPrivateExports.cmake reads it there). */

#if defined(__GNUC__) || defined(__clang__)
#define CTG_INTERNAL __attribute__((visibility("default")))
#else
#define CTG_INTERNAL
#endif

#endif
