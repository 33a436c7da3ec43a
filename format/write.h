/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_WRITE_H
#define CTG_FORMAT_WRITE_H

/* Private: what the public write entry points share beyond the kind table (kinds.h, whose
 * ctg_write_list_json writes a whole list): a `default` list in pieces for the streaming
 * writer. The writers emit and do not check: the emitter's status is sticky
 * and ctg_emit_finish reports the first failure. */

#include "ctg/model.h"
#include "base/arena.h"
#include "json/emit.h"

/* A `default` list in pieces, for writers that take contingencies one at a time: the header
 * up to and including the opening of "contingencies", then each contingency, then the end. */
void ctg_write_default_begin(ctg_emitter *e, const char *name);
void ctg_write_contingency(ctg_emitter *e, const ctg_contingency *c);
/* How `e` writes each contingency: ctg_write_contingency at the newest version, else the
 * writer of the version `e` writes at (ctg_write_versions: BOUNDARY_LINE as DANGLING_LINE
 * before 1.1). Chosen once per list or writer. */
typedef void (*ctg_contingency_writer)(ctg_emitter *e, const ctg_contingency *c);
ctg_contingency_writer ctg_write_contingency_fn(const ctg_emitter *e);
void ctg_write_default_end(ctg_emitter *e);

/* Checks a caller-built contingency as the builders check theirs, kept extension text
 * included (its check borrows *scratch, made on first need with `a`; the caller releases it),
 * so that no writer writes what the reader would refuse. CTG_OK, or the status with w set. */
int ctg_write_check_contingency(ctg_arena **scratch, const ctg_allocator *a,
                                const ctg_contingency *c, ctg_error *w);

#endif
