/* SPDX-License-Identifier: MPL-2.0 */
/* The security-analysis documents (include/ctg/sa.h): the entry points, contingency contexts
 * (D3) and state monitors (D5), and the root object of the object kinds, read with the same
 * reader core as contingency lists (object loop, array reader, arena strings) and written with
 * the same emitter. Each object kind's members are read and written by its ctg_sa_kind_ops
 * (format/sa_internal.h); a kind without them is recognised and refused with CTG_EUNSUPPORTED.
 *
 * Both array kinds share one item definition: a root array is a context list or a monitor list
 * according to the first member of its first item, so "read any" needs no look-ahead. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "json/emit.h"
#include "json/reader.h"
#include "io/output.h"
#include "io/source.h"
#include "format/sa_internal.h"

#define BIT(i) (1u << (i))

/* The object kinds, each in its own file; NULL: recognised, not read or written yet. */
static const ctg_sa_kind_ops *const kind_ops[CTG_SA_KIND_COUNT] = {
    [CTG_SA_ACTION_LIST] = &ctg_sa_action_ops,
    [CTG_SA_IDENTIFIER_ACTION_LIST] = &ctg_sa_action_ops, /* D1's ops write both */
    [CTG_SA_OPERATOR_STRATEGIES] = &ctg_sa_strategy_ops,
    [CTG_SA_LIMIT_REDUCTIONS] = &ctg_sa_limit_ops,
};

static const char *const kind_names[CTG_SA_KIND_COUNT] = {
    [CTG_SA_ANY] = "security-analysis document",
    [CTG_SA_ACTION_LIST] = "action list",
    [CTG_SA_IDENTIFIER_ACTION_LIST] = "identifier action list",
    [CTG_SA_OPERATOR_STRATEGIES] = "operator-strategy list",
    [CTG_SA_CONTINGENCY_CONTEXTS] = "contingency-context list",
    [CTG_SA_LIMIT_REDUCTIONS] = "limit-reduction list",
    [CTG_SA_STATE_MONITORS] = "state-monitor list",
};

const char *ctg_sa_kind_article(ctg_sa_kind kind)
{
    if ((unsigned)kind >= CTG_SA_KIND_COUNT)
        return NULL;
    return kind_names[kind][0] == 'a' || kind_names[kind][0] == 'i' || kind_names[kind][0] == 'o'
               ? "an"
               : "a";
}

const char *ctg_sa_kind_name(ctg_sa_kind kind)
{
    return (unsigned)kind < CTG_SA_KIND_COUNT ? kind_names[kind] : NULL;
}

const char *const ctg_sa_context_type_names[CTG_CONTEXT_TYPE_COUNT] = {
    "ALL", "NONE", "SPECIFIC", "ONLY_CONTINGENCIES"
};

const char *ctg_context_type_name(ctg_context_type type)
{
    return (unsigned)type < CTG_CONTEXT_TYPE_COUNT ? ctg_sa_context_type_names[type] : NULL;
}

/* ---- Java hash order (spec 1.2) ---------------------------------------------------------- */

/* String.hashCode over the UTF-16 code units of the UTF-8 text `s` (valid: the lexer checked). */
static uint32_t java_hash(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t h = 0;

    while (*p) {
        uint32_t cp = *p++;
        int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;

        if (more)
            cp &= 0x3Fu >> more;
        while (more-- > 0 && *p)
            cp = (cp << 6) | (*p++ & 0x3Fu);
        if (cp >= 0x10000) {
            cp -= 0x10000;
            h = 31 * h + (0xD800 + (cp >> 10));
            cp = 0xDC00 + (cp & 0x3FF);
        }
        h = 31 * h + cp;
    }
    return h;
}

typedef struct hashed {
    const char *id;
    size_t pos;      /* input position: ties keep first insertion */
    uint32_t bucket; /* filled once the capacity is known */
} hashed;

static int by_text(const void *a, const void *b)
{
    const hashed *x = a, *y = b;
    int c = strcmp(x->id, y->id);

    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static int by_bucket(const void *a, const void *b)
{
    const hashed *x = a, *y = b;

    if (x->bucket != y->bucket)
        return (x->bucket > y->bucket) - (x->bucket < y->bucket);
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Rewrites `ids` (`*count` of them) as the distinct ids in HashSet iteration order. */
int ctg_sa_hash_order(ctg_arena *arena, const char **ids, size_t *count)
{
    size_t n = *count, distinct = 0, cap = 16;
    hashed *h;

    if (n < 2)
        return CTG_OK;
    if (n > SIZE_MAX / sizeof *h || !(h = ctg_arena_alloc(arena, n * sizeof *h, 8)))
        return CTG_ENOMEM;
    for (size_t i = 0; i < n; i++)
        h[i] = (hashed){ ids[i], i, 0 };
    qsort(h, n, sizeof *h, by_text);
    for (size_t i = 0; i < n; i++)
        if (distinct == 0 || strcmp(h[distinct - 1].id, h[i].id) != 0)
            h[distinct++] = h[i];
    while (distinct > cap / 4 * 3)
        cap *= 2;
    for (size_t i = 0; i < distinct; i++) {
        uint32_t x = java_hash(h[i].id);
        h[i].bucket = (x ^ (x >> 16)) & (uint32_t)(cap - 1);
    }
    qsort(h, distinct, sizeof *h, by_bucket);
    for (size_t i = 0; i < distinct; i++)
        ids[i] = h[i].id;
    *count = distinct;
    return CTG_OK;
}

/* ---- what a contingency-list reader says about these documents --------------------------- */

void ctg_sa_explain_list_error(ctg_error *err)
{
    static const struct {
        const char *path;
        ctg_sa_kind kind;
    } roots[] = {
        { "/actions", CTG_SA_ACTION_LIST },
        { "/elementIdentifiers", CTG_SA_IDENTIFIER_ACTION_LIST },
        { "/actionBuilders", CTG_SA_IDENTIFIER_ACTION_LIST },
        { "/operatorStrategies", CTG_SA_OPERATOR_STRATEGIES },
        { "/limitReductions", CTG_SA_LIMIT_REDUCTIONS },
    };

    /* An array root stays "expected object, got array": contexts, monitors and JSON that is
     * no document at all look the same at its first token. */
    if (err->code != CTG_ESCHEMA || strncmp(err->message, "unknown field", 13) != 0)
        return;
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
        if (strcmp(err->path, roots[i].path) == 0) {
            snprintf(err->message, sizeof err->message,
                     "this is %s %s, not a contingency list (read it with ctg_sa_read_*)",
                     ctg_sa_kind_article(roots[i].kind), kind_names[roots[i].kind]);
            return;
        }
}

/* ---- reading ------------------------------------------------------------------------------ */

typedef ctg_sa_reader sa_reader;

enum { K_CONTEXT_TYPE, K_CONTINGENCY_ID, K_CONTEXT, K_BRANCHES, K_VOLTAGE_LEVELS, K_3WT, K_COUNT };
/* Context members first, then monitor members, each in PowSyBl's order. */
static const ctg_key item_keys[K_COUNT] = {
    [K_CONTEXT_TYPE] = CTG_KEY("contextType"),
    [K_CONTINGENCY_ID] = CTG_KEY("contingencyId"),
    [K_CONTEXT] = CTG_KEY("contingencyContext"),
    [K_BRANCHES] = CTG_KEY("branchIds"),
    [K_VOLTAGE_LEVELS] = CTG_KEY("voltageLevelIds"),
    [K_3WT] = CTG_KEY("threeWindingsTransformerIds"),
};
#define CONTEXT_KEYS (BIT(K_CONTEXT_TYPE) | BIT(K_CONTINGENCY_ID))
#define MONITOR_KEYS (BIT(K_CONTEXT) | BIT(K_BRANCHES) | BIT(K_VOLTAGE_LEVELS) | BIT(K_3WT))

/* Only the exact constant name: PowSyBl's Jackson reader also takes an ordinal or padding,
 * which it never writes (docs/compatibility.md). */
static int read_context_field(ctg_reader *rd, unsigned index, ctg_contingency_context *c)
{
    if (index == K_CONTINGENCY_ID)
        return ctg_read_opt_string(rd, &c->contingency_id, "contingencyId");
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    for (unsigned t = 0; t < CTG_CONTEXT_TYPE_COUNT; t++)
        if (strlen(ctg_sa_context_type_names[t]) == rd->tok.len &&
            memcmp(ctg_sa_context_type_names[t], rd->tok.str, rd->tok.len) == 0) {
            c->type = (ctg_context_type)t;
            return CTG_OK;
        }
    return ctg_reader_fail(rd, CTG_ESCHEMA,
                           "unknown contextType \"%.*s\" (ALL, NONE, SPECIFIC, "
                           "ONLY_CONTINGENCIES)",
                           (int)(rd->tok.len > 64 ? 64 : rd->tok.len), rd->tok.str);
}

static int finish_context(ctg_reader *rd, const ctg_contingency_context *c, const ctg_mark *start,
                          unsigned seen)
{
    if (!(seen & BIT(K_CONTEXT_TYPE)))
        return ctg_reader_missing(rd, start, "contextType");
    if (c->type == CTG_CONTEXT_SPECIFIC && !c->contingency_id)
        return ctg_reader_fail_at(rd, start, "contingencyId", CTG_ESCHEMA,
                                  "a SPECIFIC contingency context needs a contingencyId");
    return CTG_OK;
}

static int context_field(ctg_reader *rd, unsigned index, void *ctx)
{
    return read_context_field(rd, index, ctx);
}

static const ctg_object_def context_def = { item_keys, 2, context_field };

int ctg_sa_read_context(ctg_reader *rd, ctg_contingency_context *c)
{
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen = 0;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_read_object(rd, &context_def, c, &seen)) != CTG_OK)
        return rc;
    return finish_context(rd, c, &start, seen);
}

/* Ids are JSON strings only: PowSyBl turns numbers into text and keeps null items, neither of
 * which it writes for ids of the network (docs/compatibility.md). */
static int read_id(ctg_reader *rd, void *out)
{
    return ctg_read_string(rd, out, "id");
}

CTG_HANDLER_DEFINE(static, id_handler, "sa-id", const char *, read_id);

static int read_id_set(ctg_reader *rd, ctg_id_set *set)
{
    void *items;
    size_t n;
    int rc;

    if (rd->tok.type != CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "array");
    if ((rc = ctg_read_array(rd, &id_handler, &items, &n)) != CTG_OK)
        return rc;
    if ((rc = ctg_sa_hash_order(rd->arena, items, &n)) != CTG_OK)
        return ctg_reader_nomem(rd);
    set->ids = items;
    set->count = n;
    return CTG_OK;
}

/* The first member of the first item says what the array is; later members must agree. */
static int item_field(ctg_reader *rd, unsigned index, void *ctx)
{
    sa_reader *sa = (sa_reader *)rd;
    ctg_state_monitor *m = ctx;
    ctg_sa_kind of =
        BIT(index) & CONTEXT_KEYS ? CTG_SA_CONTINGENCY_CONTEXTS : CTG_SA_STATE_MONITORS;

    if (sa->kind == CTG_SA_ANY)
        sa->kind = of;
    if (sa->kind != of)
        return ctg_reader_fail(
            rd, CTG_ESCHEMA, "unknown field \"%s\" in a %s", item_keys[index].name,
            sa->kind == CTG_SA_STATE_MONITORS ? "state monitor" : "contingency context");
    switch (index) {
    case K_CONTEXT:
        return ctg_sa_read_context(rd, &m->context);
    case K_BRANCHES:
        return read_id_set(rd, &m->branch_ids);
    case K_VOLTAGE_LEVELS:
        return read_id_set(rd, &m->voltage_level_ids);
    case K_3WT:
        return read_id_set(rd, &m->three_windings_transformer_ids);
    default:
        return read_context_field(rd, index, &m->context);
    }
}

static const ctg_object_def item_def = { item_keys, K_COUNT, item_field };

static int read_item(ctg_reader *rd, void *out)
{
    sa_reader *sa = (sa_reader *)rd;
    ctg_state_monitor *m = out;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen = 0;
    int rc;

    memset(m, 0, sizeof *m);
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = ctg_read_object(rd, &item_def, m, &seen)) != CTG_OK)
        return rc;
    if (sa->kind != CTG_SA_STATE_MONITORS)
        return finish_context(rd, &m->context, &start, seen);
    for (unsigned k = K_CONTEXT; k < K_COUNT; k++)
        if (!(seen & BIT(k)))
            return ctg_reader_missing(rd, &start, item_keys[k].name);
    return CTG_OK;
}

CTG_HANDLER_DEFINE(static, item_handler, "sa-item", ctg_state_monitor, read_item);

/* ---- the root object of D1/D1b, D2 and D4 ------------------------------------------------ */

static const ctg_key root_keys[CTG_SA_ROOT_COUNT] = {
    [CTG_SA_ROOT_VERSION] = CTG_KEY("version"),
    [CTG_SA_ROOT_ACTIONS] = CTG_KEY("actions"),
    [CTG_SA_ROOT_ELEMENT_IDENTIFIERS] = CTG_KEY("elementIdentifiers"),
    [CTG_SA_ROOT_ACTION_BUILDERS] = CTG_KEY("actionBuilders"),
    [CTG_SA_ROOT_OPERATOR_STRATEGIES] = CTG_KEY("operatorStrategies"),
    [CTG_SA_ROOT_LIMIT_REDUCTIONS] = CTG_KEY("limitReductions"),
};

/* The kind a root member belongs to (spec 0): D1b's members are the action list's too. */
static ctg_sa_kind kind_of_root_key(unsigned key)
{
    switch (key) {
    case CTG_SA_ROOT_ACTIONS:
    case CTG_SA_ROOT_ELEMENT_IDENTIFIERS:
    case CTG_SA_ROOT_ACTION_BUILDERS:
        return CTG_SA_ACTION_LIST;
    case CTG_SA_ROOT_OPERATOR_STRATEGIES:
        return CTG_SA_OPERATOR_STRATEGIES;
    case CTG_SA_ROOT_LIMIT_REDUCTIONS:
        return CTG_SA_LIMIT_REDUCTIONS;
    default:
        return CTG_SA_ANY;
    }
}

/* Kept for the kind, which decides what a missing or non-string version means (spec 0.2);
 * a container is never a version. */
static int read_version(sa_reader *sa)
{
    ctg_reader *rd = &sa->json;

    sa->has_version = true;
    sa->version = NULL;
    sa->version_type = rd->tok.type;
    sa->version_mark = ctg_reader_mark(rd);
    if (rd->tok.type == CTG_TOK_OBJECT_BEGIN || rd->tok.type == CTG_TOK_ARRAY_BEGIN)
        return ctg_reader_type_error(rd, "string");
    return rd->tok.type == CTG_TOK_STRING ? ctg_read_string(rd, &sa->version, "version") : CTG_OK;
}

/* The first member only one kind has fixes the kind; asked for another, the document is
 * named at its root. */
static int root_field(ctg_reader *rd, unsigned key, void *ctx)
{
    sa_reader *sa = (sa_reader *)rd;
    ctg_sa_kind of = kind_of_root_key(key);
    bool as_wanted = sa->want == CTG_SA_ANY || sa->want == of ||
                     (sa->want == CTG_SA_IDENTIFIER_ACTION_LIST && of == CTG_SA_ACTION_LIST);

    (void)ctx;
    if (key == CTG_SA_ROOT_VERSION)
        return read_version(sa);
    if (sa->kind == CTG_SA_ANY && !as_wanted)
        return ctg_reader_fail_path(rd, &sa->start, "", CTG_ESCHEMA, "this is %s %s, not %s %s",
                                    ctg_sa_kind_article(of), kind_names[of],
                                    ctg_sa_kind_article(sa->want), kind_names[sa->want]);
    if (sa->kind == CTG_SA_ANY)
        sa->kind = of;
    if (of != sa->kind)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown field \"%s\" in %s %s",
                               root_keys[key].name, ctg_sa_kind_article(sa->kind),
                               kind_names[sa->kind]);
    if (!kind_ops[of])
        return ctg_reader_fail_path(rd, &sa->start, "", CTG_EUNSUPPORTED,
                                    "%ss are not read yet", kind_names[of]);
    return kind_ops[of]->member(sa, key);
}

static const ctg_object_def root_def = { root_keys, CTG_SA_ROOT_COUNT, root_field };

/* An unknown member before anything says what the document is: most likely no document of
 * this family at all (a contingency list, say), which the message says. */
static int explain_unknown_root(sa_reader *sa, int rc)
{
    ctg_error *err = sa->json.err;

    if (rc == CTG_ESCHEMA && sa->want == CTG_SA_ANY && sa->kind == CTG_SA_ANY &&
        strncmp(err->message, "unknown field", 13) == 0) {
        size_t n = strlen(err->message);
        snprintf(err->message + n, sizeof err->message - n,
                 ": not a security-analysis document");
    }
    return rc;
}

/* One pass: `version` is kept, every other member goes to the ops of its kind. */
static int read_object_root(sa_reader *sa, ctg_sa_kind want)
{
    ctg_reader *rd = &sa->json;
    unsigned seen = 0;
    int rc;

    if (want == CTG_SA_CONTINGENCY_CONTEXTS || want == CTG_SA_STATE_MONITORS)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "%s %s is a JSON array, got an object",
                               ctg_sa_kind_article(want), kind_names[want]);
    if ((rc = ctg_read_object(rd, &root_def, NULL, &seen)) != CTG_OK)
        return explain_unknown_root(sa, rc);
    if (sa->kind == CTG_SA_ANY)
        return ctg_reader_fail_at(rd, &sa->start, NULL, CTG_ESCHEMA,
                                  "not a security-analysis document: no \"actions\", "
                                  "\"operatorStrategies\" or \"limitReductions\"");
    sa->doc->kind = sa->kind;
    return kind_ops[sa->kind]->finish(sa, seen);
}

static int read_array_root(sa_reader *sa, ctg_sa_doc *doc, ctg_sa_kind want)
{
    ctg_reader *rd = &sa->json;
    void *items;
    int rc;

    if (want != CTG_SA_ANY && want != CTG_SA_CONTINGENCY_CONTEXTS && want != CTG_SA_STATE_MONITORS)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "%s %s is a JSON object, got an array",
                               ctg_sa_kind_article(want), kind_names[want]);
    sa->kind = want;
    if ((rc = ctg_read_array(rd, &item_handler, &items, &doc->count)) != CTG_OK)
        return rc;
    doc->items = items;
    doc->kind = sa->kind == CTG_SA_ANY ? CTG_SA_CONTINGENCY_CONTEXTS : sa->kind;
    return CTG_OK;
}

static int read_root(sa_reader *sa, ctg_sa_doc *doc, ctg_sa_kind want)
{
    ctg_reader *rd = &sa->json;
    int rc;

    if ((rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    sa->doc = doc;
    sa->want = want;
    sa->start = ctg_reader_mark(rd);
    if (rd->tok.type == CTG_TOK_OBJECT_BEGIN)
        rc = read_object_root(sa, want);
    else if (rd->tok.type == CTG_TOK_ARRAY_BEGIN)
        rc = read_array_root(sa, doc, want);
    else
        return ctg_reader_type_error(rd, "object or array");
    if (rc != CTG_OK || (rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    return rd->tok.type == CTG_TOK_EOF ? CTG_OK
                                       : ctg_reader_fail(rd, CTG_ESYNTAX, "trailing content");
}

static int run(ctg_sa_doc *doc, const ctg_source *src, ctg_input *in, ctg_sa_kind want,
               const ctg_read_options *opts, ctg_error *err)
{
    sa_reader sa;
    int rc;

    memset(&sa, 0, sizeof sa);
    sa.src = ctg_input_rereadable(in) ? src : NULL;
    rc = ctg_reader_init(&sa.json, ctg_input_lex_source(in), opts, doc->arena, err);
    if (rc == CTG_OK) {
        /* An action takes 176 bytes for about 140 of PowSyBl's layout: the item stack of an
         * action list is sized for 1.5 times the input (a hint of 3 times), so that it is not
         * grown and copied a dozen times. Other kinds take far less than their text. */
        size_t hint = ctg_input_size_hint(in);
        if (want == CTG_SA_ACTION_LIST)
            ctg_reader_reserve(&sa.json, hint > SIZE_MAX / 3 ? SIZE_MAX : 3 * hint);
        rc = read_root(&sa, doc, want);
        if (rc != CTG_OK && !sa.json.failed)
            ctg_reader_path(&sa.json, err->path);
    } else {
        rc = ctg_error_set_plain(err, ctg_input_name(in), CTG_ENOMEM, "out of memory");
    }
    if (rc != CTG_OK)
        ctg_error_set_source(err, opts->source_name ? opts->source_name : ctg_input_name(in));
    ctg_reader_dispose(&sa.json);
    return rc;
}

static int read_source(ctg_sa_doc **out, ctg_sa_kind want, const ctg_source *src,
                       const ctg_read_options *opts, ctg_error *err)
{
    ctg_arena *arena = ctg_arena_new(opts->allocator);
    ctg_sa_doc *doc = arena ? ctg_arena_calloc(arena, 1, sizeof *doc) : NULL;
    ctg_input *in;
    int rc;

    if (!doc) {
        ctg_arena_release(arena);
        return ctg_error_set_plain(err, "<input>", CTG_ENOMEM, "out of memory");
    }
    doc->arena = arena;
    if ((rc = ctg_input_open(&in, src, opts->allocator, err)) != CTG_OK) {
        char own[64];
        ctg_arena_release(arena);
        return ctg_error_set_plain(
            err, opts->source_name ? opts->source_name : ctg_source_name(src, own, sizeof own), rc,
            NULL);
    }
    rc = run(doc, src, in, want, opts, err);
    ctg_input_close(in);
    if (rc != CTG_OK) {
        ctg_arena_release(arena);
        return rc;
    }
    *out = doc;
    return CTG_OK;
}

static int read_checked(ctg_sa_doc **out, ctg_sa_kind want, const ctg_source *src,
                        const ctg_read_options *opts, ctg_error *err)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_error scratch;

    err = err ? err : &scratch;
    opts = opts ? opts : &defaults;
    if (!out)
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL, "no place for the document");
    *out = NULL;
    if ((unsigned)want >= CTG_SA_KIND_COUNT)
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL, "unknown document kind");
    if (opts->version > CTG_READ_OPTIONS_VERSION || opts->flags != 0 ||
        opts->max_depth > CTG_MAX_DEPTH_LIMIT)
        return ctg_error_set_plain(err, "<input>", CTG_EINVAL,
                                   "unknown read options version, flags or max_depth");
    return read_source(out, want, src, opts, err);
}

int ctg_sa_read_buffer(ctg_sa_doc **out, ctg_sa_kind kind, const void *data, size_t len,
                       const ctg_read_options *opts, ctg_error *err)
{
    ctg_source src = ctg_source_buffer(data, len);
    return read_checked(out, kind, &src, opts, err);
}

int ctg_sa_read_file(ctg_sa_doc **out, ctg_sa_kind kind, const char *path,
                     const ctg_read_options *opts, ctg_error *err)
{
    ctg_source src = ctg_source_path(path);
    return read_checked(out, kind, &src, opts, err);
}

/* ---- places found again ------------------------------------------------------------------- */

/* With `lx` at the start of the input: the first member named `name` of the object at offset
 * `at`, into *out. */
static bool scan_for_key(ctg_lexer *lx, size_t at, const char *name, ctg_mark *out)
{
    size_t n = strlen(name);
    ctg_token t;
    ctg_error e;

    do
        if (ctg_lexer_next(lx, &t, &e) != CTG_OK || t.type == CTG_TOK_EOF || t.offset > at)
            return false;
    while (t.offset != at || t.type != CTG_TOK_OBJECT_BEGIN);
    while (ctg_lexer_next(lx, &t, &e) == CTG_OK && t.type == CTG_TOK_KEY) {
        if (t.len == n && memcmp(t.str, name, n) == 0) {
            *out = (ctg_mark){ t.offset, t.line_start, t.line };
            return true;
        }
        if (ctg_lexer_skip_next(lx, &t, &e) != CTG_OK)
            return false;
    }
    return false;
}

bool ctg_sa_find_key(const ctg_sa_reader *sa, const ctg_mark *object, const char *name,
                     ctg_mark *out)
{
    const ctg_lexer *read = &sa->json.lex;
    ctg_input *in = NULL;
    ctg_lexer lx;
    ctg_error e;
    bool found = false;

    if (read->src.refill != NULL &&
        (!sa->src || ctg_input_open(&in, sa->src, read->alloc, &e) != CTG_OK))
        return false;
    if (ctg_lexer_init(&lx, in ? ctg_input_lex_source(in) : &read->src, &read->lim,
                       read->alloc) == CTG_OK)
        found = scan_for_key(&lx, object->offset, name, out);
    ctg_lexer_dispose(&lx);
    ctg_input_close(in);
    return found;
}

/* ---- the model's views -------------------------------------------------------------------- */

int ctg_sa_doc_new(ctg_sa_doc **out, ctg_sa_kind kind, const ctg_allocator *allocator)
{
    ctg_arena *arena;
    ctg_sa_doc *doc;

    if (!out)
        return CTG_EINVAL;
    *out = NULL;
    if (kind == CTG_SA_ANY || (unsigned)kind >= CTG_SA_KIND_COUNT)
        return CTG_EINVAL;
    if (!(arena = ctg_arena_new(allocator)))
        return CTG_ENOMEM;
    if (!(doc = ctg_arena_calloc(arena, 1, sizeof *doc))) {
        ctg_arena_release(arena);
        return CTG_ENOMEM;
    }
    doc->arena = arena;
    doc->kind = kind;
    *out = doc;
    return CTG_OK;
}

void ctg_sa_doc_free(ctg_sa_doc *doc)
{
    if (doc)
        ctg_arena_release(doc->arena);
}

ctg_sa_kind ctg_sa_doc_kind(const ctg_sa_doc *doc)
{
    return doc ? doc->kind : CTG_SA_ANY;
}

size_t ctg_sa_context_count(const ctg_sa_doc *doc)
{
    return doc && doc->kind == CTG_SA_CONTINGENCY_CONTEXTS ? doc->count : 0;
}

const ctg_contingency_context *ctg_sa_context_at(const ctg_sa_doc *doc, size_t i)
{
    return i < ctg_sa_context_count(doc) ? &doc->items[i].context : NULL;
}

size_t ctg_sa_monitor_count(const ctg_sa_doc *doc)
{
    return doc && doc->kind == CTG_SA_STATE_MONITORS ? doc->count : 0;
}

const ctg_state_monitor *ctg_sa_monitor_at(const ctg_sa_doc *doc, size_t i)
{
    return i < ctg_sa_monitor_count(doc) ? &doc->items[i] : NULL;
}

/* ---- writing ------------------------------------------------------------------------------ */

void ctg_sa_write_context(ctg_emitter *e, const ctg_contingency_context *c)
{
    const char *t = ctg_sa_context_type_names[c->type];

    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &item_keys[K_CONTEXT_TYPE], t, strlen(t));
    if (c->contingency_id)
        ctg_emit_member_string(e, &item_keys[K_CONTINGENCY_ID], c->contingency_id,
                               strlen(c->contingency_id));
    ctg_emit_object_end(e);
}

static void write_id_set(ctg_emitter *e, unsigned key, const ctg_id_set *set)
{
    ctg_emit_name_key(e, &item_keys[key]);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < set->count; i++)
        ctg_emit_string(e, set->ids[i], strlen(set->ids[i]));
    ctg_emit_array_end(e);
}

static void write_monitor(ctg_emitter *e, const ctg_state_monitor *m)
{
    ctg_emit_object_begin(e);
    ctg_emit_name_key(e, &item_keys[K_CONTEXT]);
    ctg_sa_write_context(e, &m->context);
    write_id_set(e, K_BRANCHES, &m->branch_ids);
    write_id_set(e, K_VOLTAGE_LEVELS, &m->voltage_level_ids);
    write_id_set(e, K_3WT, &m->three_windings_transformer_ids);
    ctg_emit_object_end(e);
}

static void write_array(ctg_emitter *e, const ctg_sa_doc *doc, bool monitors)
{
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < doc->count; i++) {
        if (monitors)
            write_monitor(e, &doc->items[i]);
        else
            ctg_sa_write_context(e, &doc->items[i].context);
    }
    ctg_emit_array_end(e);
}

static int emit_doc(ctg_output *o, const ctg_sa_doc *doc, const ctg_write_options *opts,
                    ctg_error *w)
{
    bool monitors = doc->kind == CTG_SA_STATE_MONITORS;
    ctg_emitter e;
    int rc;

    /* PowSyBl writes monitors with the bare mapper (compact), everything else pretty; every
     * kind through a byte stream, so characters above U+FFFF as surrogate escapes (spec 1.1),
     * which takes the emitter's sink mode, never a window. */
    rc = ctg_emit_init(&e, ctg_output_sink, o, monitors, opts->allocator, w);
    if (rc == CTG_OK) {
        ctg_emit_escape_astral(&e);
        if (kind_ops[doc->kind])
            kind_ops[doc->kind]->write(&e, doc);
        else
            write_array(&e, doc, monitors);
        rc = ctg_emit_finish(&e);
    }
    ctg_emit_dispose(&e);
    return rc;
}
int ctg_sa_write_buf(ctg_buf *buf, const ctg_sa_doc *doc, const ctg_write_options *given,
                     ctg_error *err)
{
    ctg_output_target t = { CTG_OUTPUT_BUF, { .buf = buf } };
    ctg_write_options opts;
    ctg_error w = { 0 };
    ctg_output o;
    int rc = ctg_write_check_options(given, &opts, &w);

    if (rc == CTG_OK && (!buf || !doc))
        rc = ctg_output_message(&w, CTG_EINVAL, "no buffer or no document to write");
    else if (rc == CTG_OK && opts.flags != 0)
        rc = ctg_output_message(&w, CTG_EINVAL, "no write flags apply to these documents");
    else if (rc == CTG_OK && doc->kind != CTG_SA_CONTINGENCY_CONTEXTS &&
             doc->kind != CTG_SA_STATE_MONITORS && !kind_ops[doc->kind])
        rc = ctg_output_message(&w, CTG_EUNSUPPORTED, "this kind is not written yet");
    if (rc == CTG_OK && (rc = ctg_output_open(&o, &t, &opts, &w)) == CTG_OK) {
        rc = emit_doc(&o, doc, &opts, &w);
        if (rc == CTG_OK)
            rc = ctg_output_commit(&o, &w);
        else
            ctg_output_abort(&o);
    }
    return rc == CTG_OK ? CTG_OK : ctg_output_error(err, &w, rc, "<memory>");
}
