/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_HASHSPILL_H
#define CTG_CLI_HASHSPILL_H

/* The 64-bit values that occur more than once among any number of them, in bounded memory:
 * values are gathered in a buffer of CLI_SPILL_RUN values (8 MB, and as much to sort it), each full
 * buffer is sorted and written to an anonymous temporary file as a run, and the runs are merged at
 * the end. Disk: 8 bytes per value. merge finds its duplicate ids this way, whatever the size of
 * its inputs. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A 64-bit hash of `len` bytes, well mixed (splitmix64's finaliser over 8-byte words); not
 * meant to resist chosen collisions, which only cost merge a confirmation read. */
uint64_t cli_hash64(const void *data, size_t len, uint64_t seed);

#define CLI_SPILL_RUN ((size_t)1 << 20)

typedef struct cli_spill {
    uint64_t *buf; /* CLI_SPILL_RUN values */
    uint64_t *tmp; /* as many, for the sort */
    uint32_t *counts; /* the sort's buckets, kept from one sort to the next */
    size_t len;
    FILE *fp;        /* the runs, NULL until the first is written */
    size_t *run_len; /* values in each run */
    size_t runs, runs_cap;
    int error; /* an errno, sticky */
} cli_spill;

/* Returns 0, or -1 when out of memory. */
int cli_spill_init(cli_spill *s);
/* cli_spill_add when the buffer is full or a failure came before. */
int cli_spill_add_slow(cli_spill *s, uint64_t value);
/* Adds one value; returns 0, or -1 after a failure (s->error says which). Inline: merge adds
 * one or two for every contingency. */
static inline int cli_spill_add(cli_spill *s, uint64_t value)
{
    if (s->len == CLI_SPILL_RUN || s->error)
        return cli_spill_add_slow(s, value);
    s->buf[s->len++] = value;
    return 0;
}
/* The values added more than once, sorted, each once, in `*out` (owned by the caller; NULL
 * when none) and their number in `*count`. Returns 0, or -1 (s->error). */
int cli_spill_repeated(cli_spill *s, uint64_t **out, size_t *count);
/* Frees and closes everything; accepts a zeroed one. */
void cli_spill_dispose(cli_spill *s);

#endif
