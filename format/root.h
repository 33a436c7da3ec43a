/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_ROOT_H
#define CTG_FORMAT_ROOT_H

/* Private: the root object of a document, and of each list nested in a `list` list.
 *
 * Every key any kind accepts at the root level is in one table (ctg_root_keys, kinds.h); each
 * kind says which of them are its own. The kind is fixed by "type" or, when fields come before
 * it, by the first field that only one kind has (PowSyBl's dispatcher would skip those
 * fields). */

#include "json/reader.h"

/* Reads a whole document (root value through end of input) into `list`. */
int ctg_read_root(ctg_reader *rd, ctg_list *list);

/* Reads one list object (rd->tok on '{') into `list`: the root, or an item of a `list` list.
 * `nested` is true for the latter (a bare contingency is not allowed there). */
int ctg_read_list_object(ctg_reader *rd, ctg_list *list, bool nested);

#endif
