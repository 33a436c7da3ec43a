/* SPDX-License-Identifier: MPL-2.0 */
/* The reading scope of a list, and the version rules of spec 3.2 as one table. */

#include "format/scope.h"

#include <string.h>

#include "model/list_impl.h"
#include "format/version.h"

#define KIND_BIT(k) (1u << (k))

/* Which versions a rule allows: those at most, or at least, `bound`. */
enum { UP_TO, FROM };

typedef struct version_rule {
    int range;               /* UP_TO or FROM */
    const char *bound;
    unsigned kinds;          /* KIND_BIT()s of the kinds it applies to */
    const char *message;     /* when the version breaks it; %s is the version */
    /* When a list without "version" breaks it: the message. NULL: such a list reads with its
     * parent's version, else its kind's current one. */
    const char *unversioned;
} version_rule;

static const version_rule rules[CTG_RULE_COUNT] = {
    [CTG_RULE_DANGLING_LINE] = {
        UP_TO, "1.0", KIND_BIT(CTG_LIST_DEFAULT) | KIND_BIT(CTG_LIST_CONTINGENCY),
        "DANGLING_LINE is not valid for version %s, should be <= 1.0 (use BOUNDARY_LINE)", NULL },
    [CTG_RULE_BOUNDARY_LINE] = {
        FROM, "1.1", KIND_BIT(CTG_LIST_DEFAULT) | KIND_BIT(CTG_LIST_CONTINGENCY),
        "BOUNDARY_LINE is not valid for version %s, should be >= 1.1", NULL },
    [CTG_RULE_CONTINGENCY_ID] = {
        FROM, "1.2", KIND_BIT(CTG_LIST_IDENTIFIER),
        "\"contingencyId\" needs version 1.2 or later; the list has version %s",
        "\"contingencyId\" needs version 1.2 or later; the list has no \"version\"" },
    [CTG_RULE_IDENTIFIABLE_TYPE] = {
        UP_TO, "1.0", KIND_BIT(CTG_LIST_IDENTIFIER),
        "legacy \"identifiableType\" is only allowed up to version 1.0; the list has version %s",
        "legacy \"identifiableType\" is only allowed up to version 1.0; the list has no "
        "\"version\"" },
};

_Static_assert(CTG_RULE_COUNT <= 32, "rule sets are bits of an unsigned");
_Static_assert(CTG_LIST_KIND_COUNT <= 32, "kind sets are bits of an unsigned");

/* The rules `version` allows, one bit each. */
static unsigned rules_allowed(const char *version)
{
    size_t len = strlen(version);
    unsigned allowed = 0;

    for (int r = 0; r < CTG_RULE_COUNT; r++) {
        int cmp = ctg_version_compare(version, len, rules[r].bound);
        if (rules[r].range == UP_TO ? cmp <= 0 : cmp >= 0)
            allowed |= 1u << r;
    }
    return allowed;
}

int ctg_scope_push(ctg_reader *rd, ctg_scope *s, size_t index)
{
    ctg_format_reader *fr = ctg_format_of(rd);
    size_t depth = fr->scope ? fr->scope->header.depth + 1 : 0;

    /* Each level is a few C frames: refused before the C stack is. */
    if (depth >= CTG_LIST_MAX_NESTING)
        return ctg_reader_fail(rd, CTG_ELIMIT, "lists nested more than %d deep",
                               CTG_LIST_MAX_NESTING);
    s->parent = fr->scope;
    s->version = NULL;
    s->version_mark = (ctg_mark){ 0, 0, 0 };
    s->allowed = 0;
    s->deferred = 0;
    s->header = (ctg_stream_header){ CTG_LIST_DEFAULT, NULL, NULL, depth, index, NULL };
    fr->scope = s;
    return CTG_OK;
}

void ctg_scope_pop(ctg_reader *rd, ctg_scope *s)
{
    ctg_format_of(rd)->scope = s->parent;
}

void ctg_scope_set_version(ctg_reader *rd, const char *version, const ctg_mark *mark)
{
    ctg_scope *s = ctg_scope_current(rd);

    s->version = version;
    s->version_mark = *mark;
    s->allowed = rules_allowed(version);
    s->header.version = version;
}

/* Fails on rule `r` at `mark` and `path` (NULL: the current path); `version` NULL: the list
 * has none. */
static int broken(ctg_reader *rd, const ctg_mark *mark, const char *path, ctg_rule r,
                  const char *version)
{
    const version_rule *vr = &rules[r];
    char here[CTG_ERROR_PATH_MAX];

    if (path == NULL) {
        ctg_reader_path(rd, here);
        path = here;
    }
    if (version == NULL)
        return ctg_reader_fail_path(rd, mark, path, CTG_ESCHEMA, "%s", vr->unversioned);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
    /* The formats are the literals of the table above, each with one %s. */
    return ctg_reader_fail_path(rd, mark, path, CTG_ESCHEMA, vr->message, version);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}

int ctg_scope_rule(ctg_reader *rd, ctg_rule rule)
{
    ctg_scope *s = ctg_scope_current(rd);
    ctg_mark m = ctg_reader_mark(rd);
    unsigned bit = 1u << rule;

    if (!(rules[rule].kinds & KIND_BIT(s->header.kind)))
        return CTG_OK;
    if (s->version)
        return (s->allowed & bit) ? CTG_OK : broken(rd, &m, NULL, rule, s->version);
    if (!(s->deferred & bit)) {
        s->deferred |= bit;
        s->first[rule].mark = m;
        ctg_reader_path(rd, s->first[rule].path);
    }
    return CTG_OK;
}

/* The version the list reads with when it has none: its parent's own, else `current`. */
static const char *fallback(const ctg_scope *s, const char *current)
{
    return s->parent && s->parent->version ? s->parent->version : current;
}

int ctg_scope_judge(ctg_reader *rd, const char *current)
{
    ctg_scope *s = ctg_scope_current(rd);
    const char *version;
    unsigned allowed;
    int first = -1;

    if (s->deferred == 0)
        return CTG_OK;
    version = s->version ? s->version : fallback(s, current);
    allowed = s->version ? s->allowed : rules_allowed(version);
    for (int r = 0; r < CTG_RULE_COUNT; r++) {
        bool unversioned = !s->version && rules[r].unversioned;
        if (!(s->deferred & (1u << r)) || (!unversioned && (allowed & (1u << r))))
            continue;
        if (first < 0 || s->first[r].mark.offset < s->first[first].mark.offset)
            first = r;
    }
    if (first < 0)
        return CTG_OK;
    if (!s->version && rules[first].unversioned)
        version = NULL;
    return broken(rd, &s->first[first].mark, s->first[first].path, (ctg_rule)first, version);
}
