/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_DEFAULT_H
#define CTG_FORMAT_DEFAULT_H

/* Private: what root.c needs of default.c beyond the kind table. */

#include "json/reader.h"

/* Streaming: hands the one contingency of a bare contingency document (`list`, read whole and
 * judged) to the visitor, when there is one. */
int ctg_deliver_bare_contingency(ctg_reader *rd, const ctg_list *list);

#endif
