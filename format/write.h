/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_SERDE_WRITE_LIST_H
#define CTG_SERDE_WRITE_LIST_H

/* Private: the writers of each list kind, on top of the emitter. They emit and do not check:
 * the emitter's status is sticky and ctg_emit_finish reports the first failure. */

#include "ctg/model.h"
#include "json/emit.h"

/* The format version every `default` list is written with. */
#define CTG_DEFAULT_LIST_VERSION "1.1"

/* Checks the version and flags of `in` (NULL: the defaults) and copies it to `out` in the
 * current layout, version 1's missing fields as NULL (message in w on failure). */
int ctg_write_check_options(const ctg_write_options *in, ctg_write_options *out, ctg_error *w);

/* Emits `list` by its kind. CTG_OK; CTG_EUNSUPPORTED for a kind without a writer yet, or
 * CTG_EINVAL for a bare contingency document without exactly one contingency (then nothing
 * was emitted). */
int ctg_write_list_json(ctg_emitter *e, const ctg_list *list);

/* A `default` list in pieces, for writers that take contingencies one at a time: the header
 * up to and including the opening of "contingencies", then each contingency, then the end. */
void ctg_write_default_begin(ctg_emitter *e, const char *name);
void ctg_write_contingency(ctg_emitter *e, const ctg_contingency *c);
void ctg_write_default_end(ctg_emitter *e);

#endif
