/* SPDX-License-Identifier: MPL-2.0 */
/* merge's building blocks (cli/hashspill.c and cli/elemset.c, compiled into the tests): the
 * values repeated among more than one run of the spill, exactly, and canonical element sets
 * equal whatever the order, duplicates and sides; and split's quick count (cli/splitcount.c). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "cli/elemset.h"
#include "cli/hashspill.h"
#include "cli/glob.h"
#include "cli/splitcount.h"
#include "tests/test_common.h"

/* Distinct values in a scrambled order: i * an odd constant is a bijection of 64-bit words. */
static uint64_t distinct(size_t i)
{
    return (uint64_t)(i + 1) * 0x9e3779b97f4a7c15u;
}

static void expect_repeated(cli_spill *s, const uint64_t *want, size_t n)
{
    uint64_t *got = NULL;
    size_t count = 99;

    CU_ASSERT_EQUAL_FATAL(cli_spill_repeated(s, &got, &count), 0);
    CU_ASSERT_EQUAL(count, n);
    for (size_t i = 0; i < n && i < count; i++)
        CU_ASSERT_EQUAL(got[i], want[i]);
    free(got);
}

CTG_TEST(cli_merge, spill_in_memory)
{
    cli_spill s;
    uint64_t want[] = { 7, 42 };

    CU_ASSERT_EQUAL_FATAL(cli_spill_init(&s), 0);
    for (uint64_t v = 0; v < 100; v++)
        CU_ASSERT_EQUAL(cli_spill_add(&s, v), 0);
    cli_spill_add(&s, 42);
    cli_spill_add(&s, 7);
    cli_spill_add(&s, 42); /* three times: reported once */
    CU_ASSERT_PTR_NULL(s.fp);
    expect_repeated(&s, want, 2);
    cli_spill_dispose(&s);
}

/* Two and a half runs: repeats within a run, across runs, and none at all. */
CTG_TEST(cli_merge, spill_across_runs)
{
    size_t n = CLI_SPILL_RUN * 5 / 2;
    uint64_t want[] = { distinct(3), distinct(CLI_SPILL_RUN + 5), distinct(n - 1) };
    cli_spill s;

    if (want[0] > want[1]) { /* sorted, as the spill gives them */
        uint64_t t = want[0];
        want[0] = want[1];
        want[1] = t;
    }
    for (int i = 2; i > 0 && want[i] < want[i - 1]; i--) {
        uint64_t t = want[i];
        want[i] = want[i - 1];
        want[i - 1] = t;
    }
    if (want[0] > want[1]) {
        uint64_t t = want[0];
        want[0] = want[1];
        want[1] = t;
    }
    CU_ASSERT_EQUAL_FATAL(cli_spill_init(&s), 0);
    for (size_t i = 0; i < n; i++) {
        cli_spill_add(&s, distinct(i));
        if (i == 10)
            cli_spill_add(&s, distinct(3)); /* the same run */
    }
    cli_spill_add(&s, distinct(CLI_SPILL_RUN + 5)); /* the last run, its first in the second */
    cli_spill_add(&s, distinct(n - 1));
    CU_ASSERT_EQUAL(s.error, 0);
    expect_repeated(&s, want, 3);
    CU_ASSERT_EQUAL(s.runs, 3);
    cli_spill_dispose(&s);
}

CTG_TEST(cli_merge, spill_nothing_repeated)
{
    cli_spill s;

    CU_ASSERT_EQUAL_FATAL(cli_spill_init(&s), 0);
    for (size_t i = 0; i < CLI_SPILL_RUN + 3; i++)
        cli_spill_add(&s, distinct(i));
    expect_repeated(&s, NULL, 0);
    cli_spill_dispose(&s);
}

/* Values that share their top bits (one bucket of the sort, sorted by qsort when crowded, by
 * insertion when not), in a scrambled order and with repeats, in memory and across runs. */
CTG_TEST(cli_merge, spill_crowded_bucket)
{
    const uint64_t top = (uint64_t)0x7fff << 48;
    uint64_t want[] = { top | 5, top | 500, top | 999 };
    uint64_t sparse[] = { (uint64_t)3 << 47 | 9, (uint64_t)3 << 47 | 10 };

    for (int spill_runs = 0; spill_runs < 2; spill_runs++) {
        cli_spill s;

        CU_ASSERT_EQUAL_FATAL(cli_spill_init(&s), 0);
        for (size_t i = 0; spill_runs && i < CLI_SPILL_RUN; i++)
            cli_spill_add(&s, distinct(i) >> 1); /* a full run, nothing repeated */
        for (uint64_t i = 0; i < 1000; i++)
            cli_spill_add(&s, top | ((i * 7919) % 1000)); /* each of 0..999 once */
        cli_spill_add(&s, want[2]);
        cli_spill_add(&s, want[0]);
        cli_spill_add(&s, want[1]);
        cli_spill_add(&s, sparse[1]); /* a bucket of two: insertion */
        cli_spill_add(&s, sparse[0]);
        CU_ASSERT_EQUAL(s.error, 0);
        expect_repeated(&s, want, 3);
        CU_ASSERT_EQUAL(s.runs, (size_t)(spill_runs ? 2 : 0));
        cli_spill_dispose(&s);
    }
}

static const char *key_of(cli_elemset *s, const ctg_element *e, size_t n, size_t *len)
{
    ctg_contingency c = { "c", NULL, e, n, NULL, 0 };

    CU_ASSERT_EQUAL(cli_elemset_build(s, &c), 0);
    *len = s->key_len;
    return s->key;
}

/* Every byte of a key counts, wherever it falls in the hash's words (head, overlapping tail,
 * rounds of 16), and so does the length: one byte changed at any position of keys of 0 to 64
 * bytes, or a key one byte longer, changes the hash; and the key is read only within its
 * bytes (the copy ends where the key does: ASan and valgrind see any read past it). */
CTG_TEST(cli_merge, hash_reads_every_byte)
{
    int same = 0;

    for (size_t len = 0; len <= 64; len++) {
        unsigned char *key = malloc(len + 1);
        uint64_t h;

        CU_ASSERT_PTR_NOT_NULL_FATAL(key);
        for (size_t i = 0; i < len; i++)
            key[i] = (unsigned char)('a' + i % 26);
        h = cli_hash64(key, len, 1);
        for (size_t i = 0; i < len; i++) {
            key[i] ^= 0x01;
            same += cli_hash64(key, len, 1) == h;
            key[i] ^= 0x01;
        }
        key[len] = (unsigned char)('a' + len % 26);
        same += cli_hash64(key, len + 1, 1) == h;
        same += cli_hash64(key, len, 2) == h; /* the seed counts too */
        free(key);
    }
    CU_ASSERT_EQUAL(same, 0);
}

CTG_TEST(cli_merge, element_sets)
{
    const ctg_element a[] = { { "L1", CTG_ELEMENT_LINE, NULL },
                              { "G1", CTG_ELEMENT_GENERATOR, NULL } };
    const ctg_element b[] = { { "G1", CTG_ELEMENT_GENERATOR, NULL },
                              { "L1", CTG_ELEMENT_LINE, "VL1" },
                              { "G1", CTG_ELEMENT_GENERATOR, NULL } };
    const ctg_element other_type[] = { { "L1", CTG_ELEMENT_BRANCH, NULL },
                                       { "G1", CTG_ELEMENT_GENERATOR, NULL } };
    cli_elemset s = CLI_ELEMSET_INIT;
    char first[64];
    size_t len = 0, len2 = 0;
    uint64_t h;

    const char *key = key_of(&s, a, 2, &len);

    memcpy(first, key, len);
    /* GENERATOR (0) before LINE (8): "\0G1\0\bL1\0" */
    CU_ASSERT_EQUAL(len, 8);
    CU_ASSERT_EQUAL(memcmp(first, "\0G1\0\bL1\0", 8), 0);
    h = cli_elemset_hash(&s);
    CU_ASSERT_EQUAL(memcmp(key_of(&s, b, 3, &len2), first, len), 0); /* order, twice, side */
    CU_ASSERT_EQUAL(len2, len);
    CU_ASSERT_EQUAL(cli_elemset_hash(&s), h);
    key_of(&s, other_type, 2, &len2);
    CU_ASSERT_NOT_EQUAL(cli_elemset_hash(&s), h);
    key_of(&s, NULL, 0, &len2);
    CU_ASSERT_EQUAL(len2, 0);
    cli_elemset_dispose(&s);
}

/* Counts `n` bytes of braces, brackets and filler (first a '{') written to a file, against a
 * plain count of the same bytes. */
static int split_count_case(size_t n, uint64_t seed)
{
    char path[] = "ctg-splitcount-XXXXXX"; /* in the test's working directory, as the others */
    char *buf = malloc(n);
    uint64_t braces = 0, brackets = 0, elements = 0, contingencies = 0, r = seed;
    int fd = mkstemp(path), bad = 0;
    bool ok;

    CU_ASSERT_FATAL(buf != NULL && fd >= 0);
    for (size_t i = 0; i < n; i++) {
        r = r * 6364136223846793005u + 1442695040888963407u;
        /* runs of one byte now and then, so that a counter lane meets hundreds of matches */
        buf[i] = i == 0 || seed == 0 ? '{' : (r >> 60) < 9 ? "{{{{[a \"}"[(r >> 60)] : buf[i - 1];
        if (seed == 0 && i == n - 1)
            buf[i] = '['; /* braces only but this: every counter lane at its most */
        braces += buf[i] == '{';
        brackets += buf[i] == '[';
    }
    CU_ASSERT_FATAL(write(fd, buf, n) == (ssize_t)n);
    close(fd);
    ok = cli_split_count(path, &elements, &contingencies);
    if (brackets > 0 && braces >= brackets) {
        bad += !ok || elements != braces - brackets || contingencies != brackets - 1;
        if (bad)
            fprintf(stderr, "\nsplit count of %zu bytes: %d %llu %llu, want %llu %llu\n", n, ok,
                    (unsigned long long)elements, (unsigned long long)contingencies,
                    (unsigned long long)(braces - brackets), (unsigned long long)(brackets - 1));
    }
    unlink(path);
    free(buf);
    return bad;
}

/* split --parts's count of braces and brackets is exact at every length around its block
 * sizes (16 and 64 bytes, 252 blocks before the byte counters are summed) and its read chunk
 * (256 KiB), with long runs of one byte. */
CTG_TEST(cli_merge, split_count_exact)
{
    static const size_t big[] = { 16128, 16129, 16191, 16192, 16193, 262143, 262144, 262145,
                                  262144 * 3 + 77, 1000003 };
    int bad = 0;

    for (size_t n = 1; n <= 300 && bad == 0; n++)
        bad += split_count_case(n, n);
    for (size_t k = 0; k < sizeof big / sizeof *big && bad == 0; k++)
        bad += split_count_case(big[k], k + 1000) + split_count_case(big[k], 0);
    CU_ASSERT_EQUAL(bad, 0);
}

#include "test_cli_merge.tests.h"

/* filter's globs: fnmatch's syntax, a character being a UTF-8 sequence. */
CTG_TEST(cli_merge, glob_matches_characters)
{
    static const struct {
        const char *glob, *str;
        bool yes;
    } cases[] = {
        { "N-1_*", "N-1_L1", true },      { "N-1_*", "N-2_L1", false },
        { "*", "", true },                { "?", "", false },
        { "L?", "L1", true },             { "L?", "L12", false },
        { "?1", "\xc3\xa9" "1", true },   { "??1", "\xc3\xa9" "1", false },
        { "[\xc3\xa9]1", "\xc3\xa9" "1", true }, { "[!\xc3\xa9]1", "\xc3\xa9" "1", false },
        { "????", "\xf0\x9f\x98\x80", false }, { "?", "\xf0\x9f\x98\x80", true },
        { "[a-c]x", "bx", true },         { "[a-c]x", "dx", false },
        { "[!a-c]x", "dx", true },        { "[^a-c]x", "ax", false },
        { "[]]", "]", true },             { "[]a]", "a", true },
        { "[", "[", true },               { "[a", "[a", true },
        { "a\\*", "a*", true },           { "a\\*", "ab", false },
        { "[[:digit:]]*", "7up", true },  { "[[:digit:]]*", "up7", false },
        { "[[:upper:][:digit:]]", "Q", true }, { "*.json", "a/b.json", true },
        { "*a*b", "xaxxbxab", true },     { "*a*b", "xaxxbxa", false },
        { "a*b*c*d", "abcabcabcd", true }, { "L1*", "L1", true },
        { "\xc3", "\xc3", true },         { "?", "\xc3", true },
        /* a stray byte is no code point: Latin-1 e-acute is not U+00E9 */
        { "\xc3\xa9", "\xe9", false },    { "\xe9", "\xc3\xa9", false },
        { "[\xc3\xa9]", "\xe9", false },  { "\xe9", "\xe9", true },
        /* an overlong '/' is three stray bytes */
        { "/", "\xe0\x80\xaf", false },   { "???", "\xe0\x80\xaf", true },
        /* A `[` without its `]` is itself, whatever follows, and the rest is still a
         * pattern (POSIX; glibc's fnmatch matches nothing after an unclosed range). */
        { "[a-", "[a-", true },           { "[a-", "a", false },
        { "[a-", "[a", false },           { "[a-", "-", false },
        { "[abc", "[abc", true },         { "[abc", "a", false },
        { "[!a", "[!a", true },           { "[^a", "b", false },
        { "[a-z", "[a-z", true },         { "[a-z", "b", false },
        { "[", "a", false },              { "[]", "[]", true },
        { "[!]", "[!]", true },           { "[\\]", "[]", true },
        { "[a-*", "[a-12", true },        { "[a?", "[ab", true },
        { "x[a-", "x[a-", true },         { "*[a-", "xy[a-", true },
        /* the outer `[` unclosed, `[:digit:]` is the set of its letters */
        { "[[:digit:]", "[d", true },     { "[[:digit:]", "[1", false },
        { "[a-\\", "[a-\\", false },     /* a pattern ending in `\` */
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool got = cli_glob_match(cases[i].glob, cases[i].str);
        if (got != cases[i].yes)
            fprintf(stderr, "glob \"%s\" on \"%s\": %d\n", cases[i].glob, cases[i].str, got);
        CU_ASSERT_EQUAL(got, cases[i].yes);
    }
}
