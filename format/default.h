/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_SERDE_READ_DEFAULT_H
#define CTG_SERDE_READ_DEFAULT_H

/* Private: reading the contents of `default` lists. */

#include "json/reader.h"

/* Sets the element gate from the list's "version" (arena string, kept for messages). */
void ctg_gate_set_version(ctg_reader *rd, const char *version);
/* Once the list has ended: fails on the first gated element the version does not allow. */
int ctg_gate_check_deferred(ctg_reader *rd);

/* Reads a "contingencies" array (rd->tok on '['). */
int ctg_read_contingency_array(ctg_reader *rd, ctg_contingency **items, size_t *count);

/* Reads a contingency's "extensions" object into `c`. */
int ctg_read_extensions(ctg_reader *rd, ctg_contingency *c);

#endif
