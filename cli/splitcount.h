/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_SPLITCOUNT_H
#define CTG_CLI_SPLITCOUNT_H

/* split --parts needs the element count of the whole input before it writes the first part.
 * Counting with the reader costs as much as a validate; this scan counts brackets and costs a
 * fraction of it. It answers only where the input has no extensions (nor anything spelt with
 * escapes): there a read that skips extension values and one that keeps them find the same
 * errors, so that the read that writes reports what the counting read would have. Its count
 * is a guess all the same: the read that writes checks it. */

#include <stdbool.h>
#include <stdint.h>

/* Scans the regular file `path`. True with the counts of elements and contingencies when the input
 * has the plain shape; false when it is unsure, or the file cannot be read. */
bool cli_split_count(const char *path, uint64_t *elements, uint64_t *contingencies);

#endif
