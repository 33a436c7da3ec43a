/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_SA_INTERNAL_H
#define CTG_FORMAT_SA_INTERNAL_H

/* Private: the pieces of the security-analysis documents (format/sa.c) that tests and the
 * other kinds of the family reach.
 *
 * format/sa.c owns the entry points, the document, the array kinds (D3, D5) and the root
 * object of the object kinds (D1/D1b, D2, D4): it reads that root in one pass, keeps its
 * `version`, and hands each member that belongs to one kind to that kind's ctg_sa_kind_ops,
 * so that "read any" needs no look-ahead and each kind is one more file (format/sa_<kind>.c)
 * with one row in sa.c's table. */

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/internal.h"
#include "ctg/error.h"
#include "ctg/sa.h"
#include "ctg/stream.h"
#include "json/emit.h"
#include "json/reader.h"

struct ctg_sa_doc {
    ctg_arena *arena; /* owns the document itself too */
    ctg_sa_kind kind;
    /* D3 and D5: contexts are kept as the `context` of monitor-sized items. */
    ctg_state_monitor *items;
    size_t count;
    size_t cap; /* builders: the room at `items` */
    /* D1/D1b, D2, D4: the kind's own root struct, arena-owned (its ops set it in finish). */
    void *body;
};

/* The members a root object of D1/D1b, D2 or D4 may have, in one table. */
enum {
    CTG_SA_ROOT_VERSION,
    CTG_SA_ROOT_ACTIONS,
    CTG_SA_ROOT_ELEMENT_IDENTIFIERS,
    CTG_SA_ROOT_ACTION_BUILDERS,
    CTG_SA_ROOT_OPERATOR_STRATEGIES,
    CTG_SA_ROOT_LIMIT_REDUCTIONS,
    CTG_SA_ROOT_COUNT
};

/* The reader of one document. `json` comes first, so a handler given a `ctg_reader *` of a
 * security-analysis read casts it back to reach the rest. */
typedef struct ctg_sa_reader {
    ctg_reader json;
    ctg_sa_doc *doc;
    ctg_sa_kind want; /* the kind asked for, or CTG_SA_ANY */
    /* Array roots: CTG_SA_ANY until the first item's first member fixes it. Object roots: the
     * kind of the first member only one kind has (for D1 and D1b: CTG_SA_ACTION_LIST; the
     * ops decide in finish whether the document is D1b). */
    ctg_sa_kind kind;
    ctg_mark start; /* the root's first token */
    /* The root `version` member, once read (members before it do not see it). */
    bool has_version;          /* a `version` member was read, of any JSON type */
    const char *version;       /* its text when it was a string, else NULL; arena-owned */
    ctg_tok version_type;       /* the JSON type it had */
    ctg_mark version_mark;     /* where its value began */
    void *state;               /* the kind's reading state: its ops' to set and use */
    /* The source being read when opening it again gives the same bytes, else NULL: an error
     * path may read it once more for a place it did not keep (ctg_sa_find_key). */
    const ctg_source *src;
} ctg_sa_reader;

/* What one object kind adds to format/sa.c. */
typedef struct ctg_sa_kind_ops {
    /* Reads the value of root member `key` (CTG_SA_ROOT_*, one that belongs to this kind, not
     * `version`), rd->tok on the value's first token; the handler convention of json/reader.h. */
    int (*member)(ctg_sa_reader *sa, unsigned key);
    /* After the root's '}' (`seen`: a bit per CTG_SA_ROOT_* member present): the checks PowSyBl
     * makes once the object is parsed, then sets sa->doc->body (and sa->doc->kind when it is
     * not sa->kind, as for D1b). Errors use sa->start for the root. */
    int (*finish)(ctg_sa_reader *sa, unsigned seen);
    /* Writes the document of this kind (root value included) with the pretty emitter. */
    void (*write)(ctg_emitter *e, const ctg_sa_doc *doc);
} ctg_sa_kind_ops;

/* Rewrites the `*count` strings at `ids` as their distinct values in the iteration order of a
 * Java HashSet filled in that order (spec 1.2); scratch in `arena`. CTG_OK or CTG_ENOMEM. */
CTG_INTERNAL int ctg_sa_hash_order(ctg_arena *arena, const char **ids, size_t *count);

/* Called by the contingency-list reader on its error path only: when `err` is what it says of
 * a security-analysis document (an unknown root member such as "limitReductions"), rewrites the
 * message to say what the document is. Position and path are kept. */
CTG_INTERNAL void ctg_sa_explain_list_error(ctg_error *err);

/* The `contextType` names in enum order, for the readers of both context layouts (format/sa.c
 * and the flattened one of format/sa_strategy.c); ctg_context_type_name gives one. */
extern const char *const ctg_sa_context_type_names[CTG_CONTEXT_TYPE_COUNT];

/* For an error path: where the first member named `name` of the object whose '{' is at
 * `object` begins, found by lexing the input again (from memory, or by opening sa->src again),
 * so that readers need not keep every member's place. False when the input cannot be read
 * again (sa->src NULL outside memory), is out of memory or no longer holds that member. */
CTG_INTERNAL bool ctg_sa_find_key(const ctg_sa_reader *sa, const ctg_mark *object,
                                  const char *name, ctg_mark *out);

/* A contingency context object (spec 1.4), rd->tok on its '{' (handler convention). */
CTG_INTERNAL int ctg_sa_read_context(ctg_reader *rd, ctg_contingency_context *c);
/* Writes `c` as PowSyBl does: `contextType`, then `contingencyId` when set. */
CTG_INTERNAL void ctg_sa_write_context(ctg_emitter *e, const ctg_contingency_context *c);

/* ---- limit-reduction list (format/sa_limit.c) ---- */
/* Not exported: only format/sa.c uses it. */
extern const ctg_sa_kind_ops ctg_sa_limit_ops;
/* The document's body: the reductions, arena-owned. */
typedef struct ctg_sa_limit_body {
    ctg_limit_reduction *items;
    size_t count;
    size_t cap; /* builders: the array's room */
} ctg_sa_limit_body;
/* The rule of spec 5 that `x` breaks, as a message (static storage), or NULL: the reader's
 * checks once an object is read, which the builders (format/sa_limit_build.c) run too. A
 * reduction's check covers its own members, not its criteria. */
CTG_INTERNAL const char *ctg_sa_duration_check(const ctg_duration_criterion *d);
CTG_INTERNAL const char *ctg_sa_element_check(const ctg_element_criterion *c);
CTG_INTERNAL const char *ctg_sa_reduction_check(const ctg_limit_reduction *r);
/* Writes `n` criteria as a JSON array, as in a reduction's `equipmentCriteria` and
 * `durationCriteria` (and PowSyBl's criterion tests' files). */
CTG_INTERNAL void ctg_sa_write_element_criteria(ctg_emitter *e, const ctg_element_criterion *c,
                                                size_t n);
CTG_INTERNAL void ctg_sa_write_duration_criteria(ctg_emitter *e, const ctg_duration_criterion *d,
                                                 size_t n);
/* Sorts the `*count` ids at `ids` by UTF-16 code units (Java's String order) and drops the
 * repeats, as PowSyBl writes an identifierCriterion's set. CTG_OK (`arena` is unused). */
CTG_INTERNAL int ctg_sa_sort_ids(ctg_arena *arena, const char **ids, size_t *count);
/* Reads the `len` bytes at `data` as a root array of network-element criteria (`durations`:
 * of duration criteria), the files of PowSyBl's criterion tests, and appends them written back
 * to `out`. CTG_OK or the read's error (in `err`). For tests. */
CTG_INTERNAL int ctg_sa_rewrite_criteria(const char *data, size_t len, bool durations,
                                         ctg_buf *out, ctg_error *err);
/* ---- operator-strategy list (D2, format/sa_strategy.c) ---- */
/* Not CTG_INTERNAL: only format/sa.c uses it, so it stays hidden inside libctg. */
extern const ctg_sa_kind_ops ctg_sa_strategy_ops;
/* ---- action list (format/sa_action.c) ---- */

/* D1: the `actions` member, the checks of spec 2.1 once the root is read, the 1.3 writer. */
extern const ctg_sa_kind_ops ctg_sa_action_ops;

/* ---- identifier action list (D1b, format/sa_idaction.c) ---- */

/* The body of an action list and of an identifier action list (D1b adds the entries). */
typedef struct ctg_sa_action_body {
    ctg_action *items;
    size_t count;
    size_t cap; /* builders: items has room for cap */
    ctg_identified_action *entries; /* D1b, in `actionBuilders` order */
    size_t entry_count;
    size_t entry_cap;
    const char **keys; /* the keys of the first key_count entries, as read (arena) */
    size_t key_count;
    void *reading; /* sa_idaction.c's, while the root is read */
} ctg_sa_action_body;

/* The name of action type `t` (spec 2.3), e.g. "SWITCH"; static storage. */
CTG_INTERNAL const char *ctg_sa_action_type_name(ctg_action_type t);
/* Reads the builder object at rd->tok (an `actionBuilders` value) into `out`: the action
 * reader with no version known, so every version-gated name is refused, and without the
 * checks of a built action (spec 2.5). Handler convention. */
CTG_INTERNAL int ctg_sa_read_builder(ctg_sa_reader *sa, ctg_action *out);
/* What the reader would refuse in builder `a` (and its nested actions), or NULL, with the
 * path of the member at fault appended to `path` (CTG_ERROR_PATH_MAX bytes, `used` of them
 * used): the reader's check of a builder, for ctg_sa_identified_action_add. */
CTG_INTERNAL const char *ctg_sa_builder_check(const ctg_action *a, char *path, size_t used);
/* Deep-copies the checked action `a` into `out` in `arena`; false when out of memory. */
CTG_INTERNAL bool ctg_sa_action_copy(ctg_arena *arena, ctg_action *out, const ctg_action *a);
/* sa_action.c hands D1b's root members here, and its finish and write call these. */
CTG_INTERNAL int ctg_sa_idaction_member(ctg_sa_reader *sa, ctg_sa_action_body *body,
                                        unsigned key);
/* After the root: pairs the two maps, or drops them when `actionBuilders` is empty; sets the
 * document's kind. */
CTG_INTERNAL int ctg_sa_idaction_finish(ctg_sa_reader *sa, ctg_sa_action_body *body);
/* Before anything is written: CTG_OK, or the failure recorded in `e` (CTG_EUNSUPPORTED for
 * what PowSyBl cannot write, CTG_ENOMEM). `*order` receives the entries in write order, held
 * by `*scratch` (set to an arena of the emitter's allocator when there are entries, else left
 * alone), which the caller releases after ctg_sa_idaction_write. */
CTG_INTERNAL int ctg_sa_idaction_prepare(ctg_emitter *e, const ctg_sa_action_body *body,
                                         ctg_arena **scratch,
                                         const ctg_identified_action ***order);
/* Writes `elementIdentifiers` and `actionBuilders` as members of the open root object. */
CTG_INTERNAL void ctg_sa_idaction_write(ctg_emitter *e, const ctg_sa_action_body *body,
                                        const ctg_identified_action **order);

#endif
