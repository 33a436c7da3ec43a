/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_KINDS_H
#define CTG_FORMAT_KINDS_H

/* Private: the one table of list kinds (kinds.c), indexed by ctg_list_kind. Each entry says
 * everything about a kind at the root of a list object: its JSON "type", the version it is
 * written with and the newest it reads, the root keys that are its own, and the functions that
 * read those keys and write the whole list. The functions live in the kind's file (default.c,
 * list.c, identifier.c, criterion.c), reading then writing; docs/architecture.md lists what
 * else a new kind touches. Nothing here includes a kind's file; a kind's file reaches the
 * others only through this table. */

#include "ctg/model.h"
#include "model/criterion.h"
#include "json/emit.h"
#include "json/reader.h"

/* The keys of a list object, in PowSyBl's order: the three every kind has, then each kind's. */
enum ctg_root_key {
    CTG_RK_TYPE,
    CTG_RK_VERSION,
    CTG_RK_NAME,
    CTG_RK_CONTINGENCIES,
    CTG_RK_CONTINGENCY_LISTS,
    CTG_RK_IDENTIFIERS,
    CTG_RK_IDENTIFIABLE_TYPE,
    CTG_RK_COUNTRY_CRITERION,
    CTG_RK_NOMINAL_VOLTAGE_CRITERION,
    CTG_RK_PROPERTY_CRITERIA,
    CTG_RK_REGEX_CRITERION,
    CTG_RK_ID,
    CTG_RK_ELEMENTS,
    CTG_RK_EXTENSIONS,
    CTG_RK_COUNT
};
#define CTG_RK_BIT(k) (1u << (k))

/* Indexed by enum ctg_root_key; read by root.c, written by every kind's writer. */
extern const ctg_key ctg_root_keys[CTG_RK_COUNT];

/* Reads the value of own key `key` (rd->tok on its first token) into `list`. */
typedef int (*ctg_kind_field_fn)(ctg_reader *rd, ctg_list *list, unsigned key);
/* After the object: required fields. `start` is the object's '{'. The version rules are
 * judged after it, by the list's scope (scope.h). */
typedef int (*ctg_kind_finish_fn)(ctg_reader *rd, ctg_list *list, const ctg_mark *start,
                                  unsigned seen);
/* Emits the whole list object. CTG_OK, or CTG_EINVAL for a list that breaks the format's
 * rules (then it emitted nothing, or stopped at the first child that breaks them). */
typedef int (*ctg_kind_write_fn)(ctg_emitter *e, const ctg_list *list);

typedef struct ctg_kind {
    const char *name;          /* the JSON "type" ("contingency": a bare contingency, no type) */
    const char *version;       /* the version written; NULL: none (a bare contingency) */
    const char *newest;        /* the newest version this library reads */
    unsigned own_keys;         /* CTG_RK_BIT()s of the keys it accepts beyond the common ones */
    unsigned infer_keys;       /* own keys that, met before "type", fix the kind */
    ctg_kind_field_fn field;
    ctg_kind_finish_fn finish; /* may be NULL */
    ctg_kind_write_fn write;
} ctg_kind;

extern const ctg_kind ctg_kinds[CTG_LIST_KIND_COUNT];

/* The kind named `name` (`len` bytes, a "type" value, so never "contingency"); false when
 * none is. */
bool ctg_list_kind_from_name(const char *name, size_t len, ctg_list_kind *out);

/* Emits `list` by its kind's writer: CTG_OK, or CTG_EINVAL when the list (or a list in it)
 * breaks the format's rules or has no kind. */
int ctg_write_list_json(ctg_emitter *e, const ctg_list *list);

/* Opens a list object of `kind` (not CTG_LIST_CONTINGENCY) and writes the members every kind
 * starts with: "type", "version" (the one written) and "name" (NULL: ""). */
void ctg_write_list_head(ctg_emitter *e, ctg_list_kind kind, const char *name);

/* ---- the kinds' functions, defined in their files --------------------------------------- */

/* default.c: `default` lists and the bare contingency document. */
int ctg_default_field(ctg_reader *rd, ctg_list *list, unsigned key);
int ctg_write_default_list(ctg_emitter *e, const ctg_list *list);
int ctg_contingency_doc_field(ctg_reader *rd, ctg_list *list, unsigned key);
int ctg_contingency_doc_finish(ctg_reader *rd, ctg_list *list, const ctg_mark *start,
                               unsigned seen);
int ctg_write_contingency_doc(ctg_emitter *e, const ctg_list *list);
/* list.c */
int ctg_list_list_field(ctg_reader *rd, ctg_list *list, unsigned key);
int ctg_write_list_of_lists(ctg_emitter *e, const ctg_list *list);
/* identifier.c */
int ctg_identifier_list_field(ctg_reader *rd, ctg_list *list, unsigned key);
int ctg_write_identifier_list(ctg_emitter *e, const ctg_list *list);
/* The identifiers of identifier action lists (format/sa_idaction.c), which no identifier list
 * holds: read with rd->tok on the value as in a list, except that "contingencyId" is always
 * refused, since no identifier-list version is known there (SA spec 1.5); written as in a
 * list at its current version. */
int ctg_read_unversioned_identifier(ctg_reader *rd, ctg_identifier *out);
void ctg_write_identifier(ctg_emitter *e, const ctg_identifier *id);
/* criterion.c: the six criterion kinds share these. */
int ctg_criterion_list_field(ctg_reader *rd, ctg_list *list, unsigned key);
int ctg_criterion_list_finish(ctg_reader *rd, ctg_list *list, const ctg_mark *start,
                              unsigned seen);
int ctg_write_criterion_list(ctg_emitter *e, const ctg_list *list);
/* The same criterion objects for the network-element criteria of limit reductions
 * (format/sa_limit.c), whose kind, not a list kind, says which type each slot takes: reads the
 * object at rd->tok into `out`, refusing another type than `expected` with a message naming
 * `owner` (e.g. "a lineCriterion"); writes `c` as the value of `key` (NULL: an array item). */
int ctg_read_criterion_of(ctg_reader *rd, ctg_criterion *out, ctg_criterion_slot slot,
                          ctg_criterion_type expected, const char *owner);
void ctg_write_criterion(ctg_emitter *e, const ctg_key *key, const ctg_criterion *c);

#endif
