/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_SCOPE_H
#define CTG_FORMAT_SCOPE_H

/* Private: what reading the PowSyBl format keeps beside the JSON reader, and the reading scope
 * of each list.
 *
 * A ctg_format_reader embeds the ctg_reader every handler gets, so format code finds the rest
 * from that pointer (ctg_format_of); the JSON layer knows nothing of lists or versions.
 *
 * Each list object read (the root, or an item of a `list` list) has a scope, pushed when the
 * object starts and popped on every way out of it. The scope owns the list's "version" and the
 * version rules (spec 3.2), which are data: one row per rule in scope.c, saying which versions
 * and which kinds it applies to, and what to say when it is broken. A rule met before the
 * list's "version" is remembered (the first place of each rule) and judged when the list ends,
 * with the list's final version: its own, else its parent's own, else the kind's current one,
 * unless the rule says a list without "version" breaks it. */

#include "ctg/stream.h"
#include "ext/ext.h"
#include "json/reader.h"

/* The version rules, one row each in scope.c. */
typedef enum ctg_rule {
    CTG_RULE_DANGLING_LINE,     /* a DANGLING_LINE element: up to 1.0 */
    CTG_RULE_BOUNDARY_LINE,     /* a BOUNDARY_LINE element: from 1.1 */
    CTG_RULE_CONTINGENCY_ID,    /* an identifier's "contingencyId": from 1.2 */
    CTG_RULE_IDENTIFIABLE_TYPE, /* an identifier list's legacy "identifiableType": up to 1.0 */
    CTG_RULE_COUNT
} ctg_rule;

/* Where a rule was first met before the version was known. */
typedef struct ctg_rule_place {
    ctg_mark mark;
    char path[CTG_ERROR_PATH_MAX];
} ctg_rule_place;

/* The reading scope of one list object; lives in the frame that reads the object. */
typedef struct ctg_scope {
    struct ctg_scope *parent;   /* the enclosing list's scope; NULL at the root */
    const char *version;        /* the list's own "version" (arena string); NULL until read */
    ctg_mark version_mark;      /* where it was read */
    unsigned allowed;           /* with a version: bit per rule that version allows */
    unsigned deferred;          /* bit per rule met before the version */
    ctg_rule_place first[CTG_RULE_COUNT]; /* valid where `deferred` has the bit */
    /* What a streaming visitor is told of this list: kind (default until known), name,
     * version, depth (lists open around it) and index among its siblings. */
    ctg_stream_header header;
} ctg_scope;

/* Everything a read of the format keeps; `json` first (see ctg_format_of). */
typedef struct ctg_format_reader {
    ctg_reader json;
    ctg_scope *scope;            /* the innermost list being read; NULL outside every list */
    /* Streaming (ctg_read_stream): contingencies go to the visitor, each read into
     * item_arena, which is reset after each one. NULL when the list is kept. */
    const ctg_visitor *visitor;
    ctg_arena *item_arena;
    ctg_ext_resolver ext;        /* the application's typed extension handlers */
    /* Visitor version 2: `placed` when it has contingency_at (the place of each contingency is
     * taken), `lenient` with CTG_READ_LENIENT (a bad contingency is reported and skipped).
     * Both false for a version-1 visitor or a kept list: the plain handlers run. */
    bool placed;
    bool lenient;
    bool skip_item;              /* the contingency just read was skipped: not delivered */
    ctg_stream_place at;         /* the place of the contingency being read */
    ctg_places elements;         /* each element's brace; empty until one has elements */
    ctg_places ext_names;        /* each extension's name (ext.names points here) */
    const char *source_name;     /* lenient: what the errors handed to `error` are from */
    ctg_error lenient_err;       /* lenient: the read's errors, copied out only on failure */
} ctg_format_reader;

_Static_assert(offsetof(ctg_format_reader, json) == 0, "ctg_format_of casts back");

/* The format reader around `rd`. Every reader the format code gets is one's `json`. */
static inline ctg_format_reader *ctg_format_of(ctg_reader *rd)
{
    return (ctg_format_reader *)(void *)rd;
}

/* The innermost list's scope (there is one whenever a list's fields are read). */
static inline ctg_scope *ctg_scope_current(ctg_reader *rd)
{
    return ctg_format_of(rd)->scope;
}

/* Opens the scope `s` of a list object nested in the current one (or the root): its depth is
 * the number of lists open around it, its index `index`. Fails with CTG_ELIMIT, changing
 * nothing, when lists are already nested CTG_LIST_MAX_NESTING deep. */
int ctg_scope_push(ctg_reader *rd, ctg_scope *s, size_t index);
/* Closes `s`, the current scope, whatever happened in it: its parent is current again. */
void ctg_scope_pop(ctg_reader *rd, ctg_scope *s);

/* Records the list's "version" (an arena string), read at `mark`, in the current scope. */
void ctg_scope_set_version(ctg_reader *rd, const char *version, const ctg_mark *mark);

/* Rule `rule` met at the current token: judged now when the version is known (failing with
 * CTG_ESCHEMA at that token when the version breaks it), else remembered for ctg_scope_judge.
 * A rule does not apply to a kind its row does not name. */
int ctg_scope_rule(ctg_reader *rd, ctg_rule rule);

/* When the list has ended: judges the rules met before its version, with the final version
 * (`current`, the kind's current version, for a list with no version and no versioned
 * parent), failing at the earliest place that version does not allow. */
int ctg_scope_judge(ctg_reader *rd, const char *current);

#endif
