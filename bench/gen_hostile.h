/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BENCH_GEN_HOSTILE_H
#define CTG_BENCH_GEN_HOSTILE_H

/* Inputs an attacker would write, shared by the bench and the tests: object keys chosen to
 * collide in an unkeyed hash. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/gen.h"

/* Every generated key has this many bytes: three per doubling of the key count, up to 2^16. */
#define BENCH_KEY_LEN 48
#define BENCH_KEY_MAX ((size_t)1 << 16)
/* The low bits of FNV-1a (32-bit) that colliding keys share, from BENCH_KEY_FNV_STATE: the
 * slot of every open-addressing table of up to 2^18 slots, as the extension reader's duplicate
 * -key table had until it was keyed. It hashed each key of a value's first object as written
 * in the captured text, opening quote included, from the offset basis xor 1 (that object's
 * serial): so the keys start from the state after that quote. (The closing quote keeps equal
 * low bits equal.) */
#define BENCH_KEY_COLLIDING_BITS 18
#define BENCH_KEY_FNV_STATE ((uint32_t)(((2166136261u ^ 1u) ^ 0x22u) * 16777619u))

/* FNV-1a of `n` bytes from state `h`. */
uint32_t bench_fnv1a(uint32_t h, const char *s, size_t n);

/* Appends `count` (at most BENCH_KEY_MAX) distinct keys of BENCH_KEY_LEN letters and digits
 * each, back to back: with `colliding`, all with the same low BENCH_KEY_COLLIDING_BITS bits of
 * FNV-1a from BENCH_KEY_FNV_STATE; otherwise random ones from `seed`. Returns 0 or -1. */
int bench_gen_keys(bench_bytes *out, size_t count, bool colliding, uint64_t seed);

/* Appends a `default` list, in PowSyBl's layout, of one contingency whose extension "keys"
 * is an object of the `count` keys at `keys` (as bench_gen_keys wrote them), each with the
 * value 0. Returns 0 or -1. */
int bench_gen_key_doc(bench_bytes *out, const char *keys, size_t count);

#endif
