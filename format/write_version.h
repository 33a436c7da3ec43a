/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_WRITE_VERSION_H
#define CTG_FORMAT_WRITE_VERSION_H

/* Private: writing older format versions (ctg_write_options.format_version, write_version.c).
 * Depends on no kind's file, so that every kind's writer can ask it what to write. */

#include <stdbool.h>

#include "ctg/error.h"
#include "ctg/model.h"
#include "json/emit.h"

/* The format version each kind is written at in one write, indexed by ctg_list_kind (the bare
 * contingency's entry unused). An emitter's `above` points to one for a write at an older
 * version, and is NULL for the newest of every kind (the default, and the fast path). */
typedef struct ctg_write_versions {
    const char *of[CTG_LIST_KIND_COUNT];
} ctg_write_versions;

/* Fills `v` for writing a list of `kind` at `version` (NULL: the newest of every kind; "1.0"
 * for a `list` also sets its nested kinds, see ctg_write_options.format_version). CTG_OK, or
 * CTG_EINVAL with w's message when `kind` cannot be written at `version`. */
int ctg_write_versions_set(ctg_write_versions *v, ctg_list_kind kind, const char *version,
                           ctg_error *w);
/* CTG_OK when `list` holds nothing that the versions `v` cannot express; else
 * CTG_EUNSUPPORTED with w->path the JSON Pointer of the first such item and w's message. */
int ctg_write_versions_check(const ctg_write_versions *v, const ctg_list *list, ctg_error *w);
/* The version `e` writes lists of `kind` at. */
const char *ctg_write_version_of(const ctg_emitter *e, ctg_list_kind kind);
/* Whether `e` writes BOUNDARY_LINE elements by their name before 1.1, DANGLING_LINE. */
bool ctg_write_old_names(const ctg_emitter *e);
/* Whether `e` writes the "wildcard" field of ID_WITH_WILDCARDS identifiers (from 1.3). */
bool ctg_write_wildcard_field(const ctg_emitter *e);

#endif
