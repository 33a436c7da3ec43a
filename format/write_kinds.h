/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_SERDE_WRITE_KINDS_H
#define CTG_SERDE_WRITE_KINDS_H

/* Private: the writers of the kinds beyond `default`, called by ctg_write_list_json. Each
 * emits the whole list object (PowSyBl's field order, current version) and returns CTG_OK,
 * or CTG_EINVAL for a list that breaks the format's rules (then it emitted nothing). */

#include "ctg/model.h"
#include "json/emit.h"

int ctg_write_list_of_lists(ctg_emitter *e, const ctg_list *list);
int ctg_write_identifier_list(ctg_emitter *e, const ctg_list *list);
int ctg_write_criterion_list(ctg_emitter *e, const ctg_list *list);

#endif
