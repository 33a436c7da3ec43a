/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_HASHSPILL_H
#define CTG_CLI_HASHSPILL_H

/* The 64-bit values that occur more than once among any number of them, in bounded memory:
 * values are gathered in a buffer of CLI_SPILL_RUN values (8 MB), each full buffer is sorted
 * and written to an anonymous temporary file as a run, and the runs are merged at the end.
 * Disk: 8 bytes per value. merge finds its duplicate ids this way, whatever the size of its
 * inputs. */

#include <stdint.h>
#include <stdio.h>

#define CLI_SPILL_RUN ((size_t)1 << 20)

typedef struct cli_spill {
    uint64_t *buf; /* CLI_SPILL_RUN values */
    size_t len;
    FILE *fp;        /* the runs, NULL until the first is written */
    size_t *run_len; /* values in each run */
    size_t runs, runs_cap;
    int error; /* an errno, sticky */
} cli_spill;

/* Returns 0, or -1 when out of memory. */
int cli_spill_init(cli_spill *s);
/* Adds one value; returns 0, or -1 after a failure (s->error says which). */
int cli_spill_add(cli_spill *s, uint64_t value);
/* The values added more than once, sorted, each once, in `*out` (owned by the caller; NULL
 * when none) and their number in `*count`. Returns 0, or -1 (s->error). */
int cli_spill_repeated(cli_spill *s, uint64_t **out, size_t *count);
/* Frees and closes everything; accepts a zeroed one. */
void cli_spill_dispose(cli_spill *s);

#endif
