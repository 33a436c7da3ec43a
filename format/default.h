/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_DEFAULT_H
#define CTG_FORMAT_DEFAULT_H

/* Private: reading the contents of `default` lists. */

#include "json/reader.h"

/* Reads a "contingencies" array (rd->tok on '['): kept as one arena array in *items and
 * *count, or with `sink` (may be NULL) handed to it one by one, leaving both as they are. */
int ctg_read_contingency_array(ctg_reader *rd, const ctg_item_sink *sink,
                               ctg_contingency **items, size_t *count);

/* Streaming: hands the one contingency of a bare contingency document (`list`, read whole and
 * judged) to the visitor, when there is one. */
int ctg_deliver_bare_contingency(ctg_reader *rd, const ctg_list *list);

#endif
