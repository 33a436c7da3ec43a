/* SPDX-License-Identifier: MPL-2.0 */
/* Keys that collide in FNV-1a, built block by block: the low k bits of FNV-1a's state depend
 * only on the low k bits of the state before and on the bytes, so two 3-byte blocks that take
 * one state to the same low bits can be swapped freely. Sixteen such pairs give 2^16 keys.
 * (Two-byte blocks are too few: a byte below 0x80 only reaches the low 7 bits.) */

#include "bench/gen_hostile.h"

#include <stdlib.h>
#include <string.h>

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
#define ALPHABET (sizeof alphabet - 1)
#define BLOCK 3
#define BLOCKS (BENCH_KEY_LEN / BLOCK)
#define BLOCK_COUNT (ALPHABET * ALPHABET * ALPHABET)

uint32_t bench_fnv1a(uint32_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void block_at(size_t i, char b[BLOCK])
{
    b[0] = alphabet[i / (ALPHABET * ALPHABET)];
    b[1] = alphabet[i / ALPHABET % ALPHABET];
    b[2] = alphabet[i % ALPHABET];
}

/* Two different blocks taking state `h` to the same low bits, into pair[0], pair[1]; returns
 * false when none exists (thousands are expected). `seen` has room for 2^bits entries. */
static bool find_pair(uint32_t h, char pair[2][BLOCK], uint32_t *seen)
{
    const uint32_t mask = (1u << BENCH_KEY_COLLIDING_BITS) - 1;

    memset(seen, 0, sizeof *seen << BENCH_KEY_COLLIDING_BITS);
    for (size_t i = 0; i < BLOCK_COUNT; i++) {
        char b[BLOCK];
        uint32_t low;

        block_at(i, b);
        low = bench_fnv1a(h, b, BLOCK) & mask;
        if (seen[low] != 0) {
            block_at(seen[low] - 1u, pair[0]);
            memcpy(pair[1], b, BLOCK);
            return true;
        }
        seen[low] = (uint32_t)(i + 1);
    }
    return false;
}

static int colliding_keys(bench_bytes *out, size_t count)
{
    char pairs[BLOCKS][2][BLOCK];
    uint32_t h = BENCH_KEY_FNV_STATE;
    /* Per low-bits value, the block index + 1 that reached it. */
    uint32_t *seen = malloc(sizeof *seen << BENCH_KEY_COLLIDING_BITS);
    bool ok = seen != NULL;

    for (size_t k = 0; ok && k < BLOCKS; k++)
        if ((ok = find_pair(h, pairs[k], seen)))
            h = bench_fnv1a(h, pairs[k][0], BLOCK); /* either block: the low bits agree */
    free(seen);
    if (!ok)
        return -1;
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < BLOCKS; k++)
            bench_put(out, pairs[k][(i >> k) & 1], BLOCK);
    return out->failed ? -1 : 0;
}

static int random_keys(bench_bytes *out, size_t count, uint64_t seed)
{
    uint64_t rng = seed;

    for (size_t i = 0; i < count; i++) {
        char key[BENCH_KEY_LEN];
        for (size_t k = 0; k < BENCH_KEY_LEN; k++)
            key[k] = alphabet[bench_random(&rng) % ALPHABET];
        /* Distinct whatever the draw: the key's index in the first 8 bytes. */
        for (size_t k = 0; k < 8; k++)
            key[k] = alphabet[(i >> (3 * k)) & 7];
        bench_put(out, key, sizeof key);
    }
    return out->failed ? -1 : 0;
}

int bench_gen_keys(bench_bytes *out, size_t count, bool colliding, uint64_t seed)
{
    if (count > BENCH_KEY_MAX)
        return -1;
    return colliding ? colliding_keys(out, count) : random_keys(out, count, seed);
}

int bench_gen_key_doc(bench_bytes *out, const char *keys, size_t count)
{
    BENCH_PUT(out, "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"keys\",\n"
                   "  \"contingencies\" : [ {\n    \"id\" : \"c\",\n    \"elements\" : [ ],\n"
                   "    \"extensions\" : {\n      \"keys\" : {");
    for (size_t i = 0; i < count; i++) {
        bench_put_str(out, i ? ",\n        \"" : "\n        \"");
        bench_put(out, keys + i * BENCH_KEY_LEN, BENCH_KEY_LEN);
        BENCH_PUT(out, "\" : 0");
    }
    BENCH_PUT(out, "\n      }\n    }\n  } ]\n}");
    return out->failed ? -1 : 0;
}
