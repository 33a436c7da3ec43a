/* SPDX-License-Identifier: MPL-2.0 */
/* Identifier action lists (spec 2.5, D1b): an action list whose `actionBuilders` is a non-empty
 * object. Its two maps, `elementIdentifiers` (network-element identifiers, CTG §4, read by
 * format/identifier.c) and `actionBuilders` (partial actions, read by format/sa_action.c), are
 * read as they come, whatever their order, and paired by key once the root is read.
 *
 * Writing follows PowSyBl where its output is well defined: both maps keyed by the builder's
 * id in Java HashMap order (spec 1.2), each builder as the bean dump PowSyBl makes of it. Where
 * PowSyBl's own writer fails (a builder without an id, two with the same id) or writes what
 * depends on its Jackson version (tap-changer builders), nothing is written and the write
 * fails with CTG_EUNSUPPORTED (docs/compatibility.md). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "model/identifier_impl.h"
#include "json/emit.h"
#include "json/reader.h"
#include "format/kinds.h"
#include "format/sa_internal.h"

#define BIT(i) (1u << (i))

/* One value of either map, as read. */
typedef struct map_entry {
    const char *key; /* arena copy */
    ctg_mark mark;   /* the key's place */
    size_t index;    /* in its array */
} map_entry;

typedef struct reading {
    map_entry *id_keys;
    ctg_identifier *ids;
    size_t id_count, id_cap;
    map_entry *builder_keys; /* the builders go to the body's entries */
    size_t builder_cap;
    ctg_mark ids_mark, builders_mark; /* where each map began */
} reading;

static reading *reading_of(ctg_sa_reader *sa, ctg_sa_action_body *body)
{
    if (!body->reading)
        body->reading = ctg_arena_calloc(sa->json.arena, 1, sizeof(reading));
    return body->reading;
}

/* Room for item `len` in the arena arrays `*a` (of `asize` bytes each) and `*b` (`bsize`). */
static bool room(ctg_arena *arena, void **a, size_t asize, void **b, size_t bsize, size_t len,
                 size_t *cap)
{
    size_t n = *cap ? *cap * 2 : 8;
    void *na, *nb;

    if (len < *cap)
        return true;
    if (n > SIZE_MAX / asize || n > SIZE_MAX / bsize ||
        !(na = ctg_arena_alloc(arena, n * asize, 8)) ||
        !(nb = ctg_arena_alloc(arena, n * bsize, 8)))
        return false;
    if (len) {
        memcpy(na, *a, len * asize);
        memcpy(nb, *b, len * bsize);
    }
    *a = na;
    *b = nb;
    *cap = n;
    return true;
}

/* The value of one member of either map, rd->tok on it. */
static int read_value(ctg_sa_reader *sa, ctg_sa_action_body *body, reading *r, bool builders,
                      const map_entry *key)
{
    ctg_reader *rd = &sa->json;
    ctg_arena *arena = rd->arena;
    int rc;

    if (builders) {
        if (!room(arena, (void **)&r->builder_keys, sizeof *r->builder_keys,
                  (void **)&body->entries, sizeof *body->entries, body->entry_count,
                  &r->builder_cap))
            return ctg_reader_nomem(rd);
        memset(&body->entries[body->entry_count], 0, sizeof *body->entries);
        r->builder_keys[body->entry_count] = *key;
        r->builder_keys[body->entry_count].index = body->entry_count;
        rc = ctg_sa_read_builder(sa, &body->entries[body->entry_count].builder);
        body->entry_count += rc == CTG_OK;
        body->entry_cap = body->entry_count;
        return rc;
    }
    if (!room(arena, (void **)&r->id_keys, sizeof *r->id_keys, (void **)&r->ids, sizeof *r->ids,
              r->id_count, &r->id_cap))
        return ctg_reader_nomem(rd);
    r->id_keys[r->id_count] = *key;
    r->id_keys[r->id_count].index = r->id_count;
    rc = ctg_read_unversioned_identifier(rd, &r->ids[r->id_count]);
    r->id_count += rc == CTG_OK;
    return rc;
}

/* A map of either kind: any keys, each value read as it comes. */
static int read_map(ctg_sa_reader *sa, ctg_sa_action_body *body, reading *r, bool builders)
{
    ctg_reader *rd = &sa->json;
    ctg_lex_member m;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    while ((rc = ctg_lexer_member(&rd->lex, NULL, 0, &m, &rd->tok, rd->err)) == CTG_LEX_KEY) {
        map_entry key = { NULL, { m.key.offset, m.key.line_start, m.key.line }, 0 };
        ctg_path_frame *f = ctg_reader_top_frame(rd);
        char *s = ctg_arena_strndup_fast(rd->arena, m.key.str, m.key.len);
        if (!s)
            return ctg_reader_nomem(rd);
        f->key = key.key = s;
        f->key_len = m.key.len;
        if (m.key.has_nul) /* keys are compared as C strings */
            return ctg_reader_fail_at(rd, &key.mark, NULL, CTG_ESCHEMA,
                                      "a key must not contain U+0000");
        if (!m.value_ready && (rc = ctg_reader_next(rd)) != CTG_OK)
            return rc;
        if ((rc = read_value(sa, body, r, builders, &key)) != CTG_OK)
            return rc;
        ctg_reader_top_frame(rd)->key = NULL;
    }
    if (rc != CTG_LEX_OTHER)
        return rc;
    ctg_reader_pop_frame(rd);
    return CTG_OK;
}

int ctg_sa_idaction_member(ctg_sa_reader *sa, ctg_sa_action_body *body, unsigned key)
{
    reading *r = reading_of(sa, body);
    bool builders = key == CTG_SA_ROOT_ACTION_BUILDERS;

    if (!r)
        return ctg_reader_nomem(&sa->json);
    *(builders ? &r->builders_mark : &r->ids_mark) = ctg_reader_mark(&sa->json);
    return read_map(sa, body, r, builders);
}

/* ---- pairing the maps ------------------------------------------------------------------ */

static int by_key(const void *a, const void *b)
{
    const map_entry *x = a, *y = b;
    int c = strcmp(x->key, y->key);

    return c ? c : (x->mark.offset > y->mark.offset) - (x->mark.offset < y->mark.offset);
}

/* Sorts `n` keys; a key given twice fails at its second place. */
static int sort_keys(ctg_sa_reader *sa, map_entry *k, size_t n, const char *map)
{
    char path[CTG_ERROR_PATH_MAX];

    if (n < 2)
        return CTG_OK; /* `k` may be NULL then, which qsort must not get */
    qsort(k, n, sizeof *k, by_key);
    for (size_t i = 1; i < n; i++)
        if (strcmp(k[i - 1].key, k[i].key) == 0) {
            snprintf(path, sizeof path, "/%s/%.64s", map, k[i].key);
            return ctg_reader_fail_path(&sa->json, &k[i].mark, path, CTG_ESCHEMA,
                                        "duplicate key \"%.64s\" (first at line %u, column %u)",
                                        k[i].key, k[i - 1].mark.line,
                                        ctg_column(k[i - 1].mark.offset, k[i - 1].mark.line_start));
        }
    return CTG_OK;
}

/* A key of one map that the other lacks. */
static int unmatched(ctg_sa_reader *sa, const map_entry *k, const char *map, const char *other)
{
    char path[CTG_ERROR_PATH_MAX];
    char key[80];

    snprintf(key, sizeof key, "%.64s", k->key);
    snprintf(path, sizeof path, "/%s/%s", map, key);
    return ctg_reader_fail_path(&sa->json, &k->mark, path, CTG_ESCHEMA,
                                "key \"%s\" of \"%s\" is not in \"%s\": the two maps must have "
                                "the same keys",
                                key, map, other);
}

/* Gives each builder the identifier of its key (both sorted by key, same count), and keeps
 * each builder's key: PowSyBl takes the action's id from the builder, whatever the key, so a
 * place in the file is found by the key alone. */
static int pair(ctg_sa_reader *sa, ctg_sa_action_body *body, reading *r)
{
    size_t n = body->entry_count;

    if (!(body->keys = ctg_arena_alloc(sa->json.arena, n * sizeof *body->keys, 8)))
        return ctg_reader_nomem(&sa->json);
    for (size_t i = 0; i < n; i++) {
        int c = strcmp(r->builder_keys[i].key, r->id_keys[i].key);
        if (c < 0)
            return unmatched(sa, &r->builder_keys[i], "actionBuilders", "elementIdentifiers");
        if (c > 0)
            return unmatched(sa, &r->id_keys[i], "elementIdentifiers", "actionBuilders");
        body->entries[r->builder_keys[i].index].identifier = r->ids[r->id_keys[i].index];
        body->keys[r->builder_keys[i].index] = r->builder_keys[i].key;
    }
    body->key_count = n;
    return CTG_OK;
}

static int wrong_kind(ctg_sa_reader *sa, ctg_sa_kind is)
{
    return ctg_reader_fail_path(&sa->json, &sa->start, "", CTG_ESCHEMA, "this is %s %s, not %s %s",
                                ctg_sa_kind_article(is), ctg_sa_kind_name(is),
                                ctg_sa_kind_article(sa->want), ctg_sa_kind_name(sa->want));
}

int ctg_sa_idaction_finish(ctg_sa_reader *sa, ctg_sa_action_body *body)
{
    reading *r = body->reading;
    size_t n = body->entry_count;
    int rc;

    body->reading = NULL;
    if (n == 0) { /* PowSyBl: a plain action list, the identifiers silently dropped */
        if (sa->want == CTG_SA_IDENTIFIER_ACTION_LIST)
            return wrong_kind(sa, CTG_SA_ACTION_LIST);
        return CTG_OK;
    }
    if (sa->want == CTG_SA_ACTION_LIST)
        return wrong_kind(sa, CTG_SA_IDENTIFIER_ACTION_LIST);
    if ((rc = sort_keys(sa, r->builder_keys, n, "actionBuilders")) != CTG_OK ||
        (rc = sort_keys(sa, r->id_keys, r->id_count, "elementIdentifiers")) != CTG_OK)
        return rc;
    if (r->id_count != n)
        return ctg_reader_fail_path(&sa->json, &r->builders_mark, "/actionBuilders", CTG_ESCHEMA,
                                    "\"elementIdentifiers\" has %zu key%s and "
                                    "\"actionBuilders\" %zu: the two maps must have the same "
                                    "keys",
                                    r->id_count, r->id_count == 1 ? "" : "s", n);
    if ((rc = pair(sa, body, r)) != CTG_OK)
        return rc;
    sa->doc->kind = CTG_SA_IDENTIFIER_ACTION_LIST;
    return CTG_OK;
}

/* ---- writing ----------------------------------------------------------------------------- */

/* An entry and its builder's id, to find the one from the other. */
typedef struct by_id {
    const char *id;
    const ctg_identified_action *entry;
} by_id;

static int by_text(const void *a, const void *b)
{
    return strcmp(((const by_id *)a)->id, ((const by_id *)b)->id);
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const by_id *)a)->id, y = (uintptr_t)((const by_id *)b)->id;

    return (x > y) - (x < y);
}

static bool tap_changer(ctg_action_type t)
{
    return t == CTG_ACTION_PHASE_TAP_CHANGER_TAP_POSITION ||
           t == CTG_ACTION_RATIO_TAP_CHANGER_TAP_POSITION ||
           t == CTG_ACTION_PHASE_TAP_CHANGER_REGULATION ||
           t == CTG_ACTION_RATIO_TAP_CHANGER_REGULATION;
}

/* What PowSyBl cannot write, before anything is written (its writer fails, or its output
 * depends on its Jackson version): the message, or NULL. `k` is sorted by text. */
static const char *unwritable(const ctg_sa_action_body *body, const by_id *k, char *msg,
                              size_t size)
{
    for (size_t i = 0; i < body->entry_count; i++) {
        const ctg_action *b = &body->entries[i].builder;
        if (!b->id)
            snprintf(msg, size, "builder %zu has no id, which PowSyBl writes as its key", i);
        else if (tap_changer(b->type))
            snprintf(msg, size,
                     "builder \"%.64s\" is a %s builder, which PowSyBl writes differently with "
                     "each Jackson version (spec 2.5): not written",
                     b->id, ctg_sa_action_type_name(b->type));
        else
            continue;
        return msg;
    }
    for (size_t i = 1; k && i < body->entry_count; i++)
        if (strcmp(k[i - 1].id, k[i].id) == 0) {
            snprintf(msg, size,
                     "two builders have the id \"%.64s\", the key PowSyBl writes them under "
                     "(its writer fails: duplicate key)",
                     k[i].id);
            return msg;
        }
    return NULL;
}

/* The entries in the order of a HashMap of their builder ids (spec 1.2). */
static int hash_order(ctg_arena *arena, by_id *k, size_t n, const ctg_identified_action ***order)
{
    const char **ids = ctg_arena_alloc(arena, n * sizeof *ids, 8);
    const ctg_identified_action **o = ctg_arena_alloc(arena, n * sizeof *o, 8);
    size_t count = n;

    if (!ids || !o)
        return CTG_ENOMEM;
    for (size_t i = 0; i < n; i++)
        ids[i] = k[i].id;
    if (ctg_sa_hash_order(arena, ids, &count) != CTG_OK)
        return CTG_ENOMEM;
    qsort(k, n, sizeof *k, by_address); /* distinct ids: one entry per address */
    for (size_t i = 0; i < n; i++) {
        by_id want = { ids[i], NULL };
        o[i] = ((const by_id *)bsearch(&want, k, n, sizeof *k, by_address))->entry;
    }
    *order = o;
    return CTG_OK;
}

int ctg_sa_idaction_prepare(ctg_emitter *e, const ctg_sa_action_body *body, ctg_arena **scratch,
                            const ctg_identified_action ***order)
{
    size_t n = body ? body->entry_count : 0;
    char msg[256];
    by_id *k = NULL;
    int rc = CTG_OK;

    *order = NULL;
    if (n == 0)
        return CTG_OK;
    if (!(*scratch = ctg_arena_new(e->alloc)) ||
        !(k = ctg_arena_alloc(*scratch, n * sizeof *k, 8))) {
        ctg_emit_fail(e, CTG_ENOMEM, "out of memory");
        return CTG_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (by_id){ body->entries[i].builder.id, &body->entries[i] };
    if (!unwritable(body, NULL, msg, sizeof msg))
        qsort(k, n, sizeof *k, by_text);
    if (unwritable(body, k, msg, sizeof msg)) {
        ctg_emit_fail(e, CTG_EUNSUPPORTED, msg);
        return CTG_EUNSUPPORTED;
    }
    if ((rc = hash_order(*scratch, k, n, order)) != CTG_OK)
        ctg_emit_fail(e, rc, "out of memory");
    return rc;
}

static void member_or_null(ctg_emitter *e, const ctg_key *key, const ctg_action *b,
                           ctg_action_field f, double v)
{
    ctg_emit_name_key(e, key);
    if (!CTG_ACTION_HAS(b, f))
        ctg_emit_null(e);
    else if (f == CTG_ACTION_F_RELATIVE_VALUE)
        ctg_emit_bool(e, b->relative_value);
    else
        ctg_emit_double(e, v);
}

/* A builder as PowSyBl's bean dump of it (spec 2.5 table): `id`, `type`, and for LOAD its
 * element and values in between, unset ones as null. */
static void write_builder(ctg_emitter *e, const ctg_action *b)
{
    static const ctg_key id = CTG_KEY("id"), element = CTG_KEY("elementId"),
                         relative = CTG_KEY("relativeValue"), p = CTG_KEY("activePowerValue"),
                         q = CTG_KEY("reactivePowerValue"), type = CTG_KEY("type");
    const char *name = ctg_sa_action_type_name(b->type);

    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &id, b->id, strlen(b->id));
    if (b->type == CTG_ACTION_LOAD) {
        ctg_emit_name_key(e, &element);
        if (b->element_id)
            ctg_emit_string(e, b->element_id, strlen(b->element_id));
        else
            ctg_emit_null(e);
        member_or_null(e, &relative, b, CTG_ACTION_F_RELATIVE_VALUE, 0);
        member_or_null(e, &p, b, CTG_ACTION_F_ACTIVE_POWER_VALUE, b->active_power_value);
        member_or_null(e, &q, b, CTG_ACTION_F_REACTIVE_POWER_VALUE, b->reactive_power_value);
    }
    ctg_emit_member_string(e, &type, name, strlen(name));
    ctg_emit_object_end(e);
}

void ctg_sa_idaction_write(ctg_emitter *e, const ctg_sa_action_body *body,
                           const ctg_identified_action **order)
{
    static const ctg_key ids = CTG_KEY("elementIdentifiers"), builders = CTG_KEY("actionBuilders");
    size_t n = body ? body->entry_count : 0;

    ctg_emit_name_key(e, &ids);
    ctg_emit_object_begin(e);
    for (size_t i = 0; i < n; i++) {
        ctg_emit_key(e, order[i]->builder.id, strlen(order[i]->builder.id));
        ctg_write_identifier(e, &order[i]->identifier);
    }
    ctg_emit_object_end(e);
    ctg_emit_name_key(e, &builders);
    ctg_emit_object_begin(e);
    for (size_t i = 0; i < n; i++) {
        ctg_emit_key(e, order[i]->builder.id, strlen(order[i]->builder.id));
        write_builder(e, &order[i]->builder);
    }
    ctg_emit_object_end(e);
}

/* ---- the model's views and the builder --------------------------------------------------- */

static const ctg_sa_action_body *body_of(const ctg_sa_doc *doc)
{
    return doc && doc->kind == CTG_SA_IDENTIFIER_ACTION_LIST ? doc->body : NULL;
}

size_t ctg_sa_identified_action_count(const ctg_sa_doc *doc)
{
    const ctg_sa_action_body *b = body_of(doc);

    return b ? b->entry_count : 0;
}

const ctg_identified_action *ctg_sa_identified_action_at(const ctg_sa_doc *doc, size_t i)
{
    return i < ctg_sa_identified_action_count(doc) ? &body_of(doc)->entries[i] : NULL;
}

const char *ctg_sa_identified_action_key(const ctg_sa_doc *doc, size_t i)
{
    const ctg_sa_action_body *b = body_of(doc);

    return b && i < b->key_count ? b->keys[i] : NULL;
}

/* Whether `id` or an identifier in it has a contingencyId, which the reader always refuses. */
static bool has_contingency_id(const ctg_identifier *id)
{
    if (id->contingency_id) /* the reader refuses it on every kind, even where unused */
        return true;
    for (size_t i = 0; id->kind == CTG_IDENTIFIER_LIST && i < id->item_count; i++)
        if (has_contingency_id(&id->items[i]))
            return true;
    return false;
}

/* The reader's checks of one entry; the path of the fault in `path`. */
static const char *check_entry(const ctg_identified_action *item, size_t at, char *path)
{
    int n;

    snprintf(path, CTG_ERROR_PATH_MAX, "/elementIdentifiers/%zu", at);
    if (!ctg_identifiers_valid(&item->identifier, 1))
        return "breaks a rule of network-element identifiers (contingency-list spec 4)";
    if (has_contingency_id(&item->identifier)) {
        snprintf(path, CTG_ERROR_PATH_MAX, "/elementIdentifiers/%zu/contingencyId", at);
        return "\"contingencyId\" needs an identifier-list version of 1.2 or later; an action "
               "list's identifiers have none";
    }
    n = snprintf(path, CTG_ERROR_PATH_MAX, "/actionBuilders/%zu", at);
    return ctg_sa_builder_check(&item->builder, path, (size_t)n);
}

/* Room for one more entry. */
static bool grow(ctg_arena *arena, ctg_sa_action_body *b)
{
    size_t cap = b->entry_cap ? b->entry_cap * 2 : 8;
    ctg_identified_action *items;

    if (b->entry_count < b->entry_cap)
        return true;
    if (cap > SIZE_MAX / sizeof *items || !(items = ctg_arena_alloc(arena, cap * sizeof *items, 8)))
        return false;
    if (b->entry_count)
        memcpy(items, b->entries, b->entry_count * sizeof *items);
    b->entries = items;
    b->entry_cap = cap;
    return true;
}

int ctg_sa_identified_action_add(ctg_sa_doc *doc, const ctg_identified_action *item, ctg_error *err)
{
    char path[CTG_ERROR_PATH_MAX];
    ctg_sa_action_body *b;
    const char *why;
    ctg_error scratch;
    ctg_identified_action copy;

    err = err ? err : &scratch;
    if (!doc || !item || doc->kind != CTG_SA_IDENTIFIER_ACTION_LIST)
        return ctg_error_set_plain(err, "<builder>", CTG_EINVAL,
                                   "no entry, or no identifier-action-list document");
    b = doc->body;
    if ((why = check_entry(item, b ? b->entry_count : 0, path)) != NULL) {
        ctg_error_set(err, CTG_EINVAL, NULL, path, "%s", why);
        ctg_error_set_source(err, "<builder>");
        return CTG_EINVAL;
    }
    if (!b && !(b = doc->body = ctg_arena_calloc(doc->arena, 1, sizeof *b)))
        return ctg_error_set_plain(err, "<builder>", CTG_ENOMEM, "out of memory");
    if (!grow(doc->arena, b) ||
        !ctg_identifier_copy(doc->arena, &copy.identifier, &item->identifier) ||
        !ctg_sa_action_copy(doc->arena, &copy.builder, &item->builder))
        return ctg_error_set_plain(err, "<builder>", CTG_ENOMEM, "out of memory");
    b->entries[b->entry_count++] = copy;
    return CTG_OK;
}
