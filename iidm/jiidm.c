/* SPDX-License-Identifier: MPL-2.0 */
/* The JIIDM importer's entry point: the read's state, the root object, the IIDM version, and
 * the aliases and properties every identifiable may carry. */

#include "iidm/jiidm.h"

#include <string.h>

#include "base/error_set.h"
#include "network/table.h"

/* The newest IIDM version this library reads: 1.17. */
#define NEWEST_MINOR 17

/* ---- version and network --------------------------------------------------------------- */

/* `s` (`n` bytes) as a decimal number of at most 3 digits; -1 when it is not one. */
static int small_number(const char *s, size_t n)
{
    int v = 0;

    if (n == 0 || n > 3)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int jx_set_version(jx_read *x)
{
    ctg_reader *rd = &x->rd;
    const ctg_token *t = &rd->tok;
    const char *dot;
    int major, minor;

    if (t->type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    dot = t->len ? memchr(t->str, '.', t->len) : NULL;
    major = dot ? small_number(t->str, (size_t)(dot - t->str)) : -1;
    minor = dot ? small_number(dot + 1, t->len - (size_t)(dot - t->str) - 1) : -1;
    if (major < 0 || minor < 0)
        return ctg_reader_fail(rd, CTG_ESCHEMA,
                               "\"version\" must be an IIDM version such as "
                               "\"1.17\", got \"%.*s\"",
                               (int)(t->len > 32 ? 32 : t->len), t->str);
    if (major != 1 || minor > NEWEST_MINOR)
        return ctg_reader_fail(rd, CTG_EUNSUPPORTED,
                               "IIDM version %d.%d is not supported "
                               "(this library reads 1.0 to 1.%d)",
                               major, minor, NEWEST_MINOR);
    x->minor = (unsigned)minor;
    memcpy(x->version, t->str, t->len);
    x->version[t->len] = '\0';
    return CTG_OK;
}

int jx_create_network(jx_read *x, const char *id, const ctg_mark *at)
{
    ctg_error e;
    int rc;

    if (x->version[0] == '\0')
        return ctg_reader_missing(&x->rd, at, "version");
    rc = ctg_network_new(&x->net, id, x->opts.allocator, &e);
    if (rc == CTG_OK) /* a hint (about 450 bytes of JIIDM an object): on failure, grow instead */
        (void)ctg_network_reserve(x->net, x->in->size_hint / 450);
    if (rc == CTG_OK)
        rc = ctg_network_set_iidm_version(x->net, x->version);
    if (rc == CTG_ENOMEM)
        return ctg_reader_nomem(&x->rd);
    if (rc != CTG_OK)
        return ctg_reader_fail_at(&x->rd, at, NULL, CTG_ESCHEMA, "%s", e.message);
    return CTG_OK;
}

/* ---- aliases and properties ------------------------------------------------------------ */

/* The names of a pair's two members, and their lengths. */
typedef struct jx_pair_keys {
    const char *k1, *k2;
    size_t len1, len2;
} jx_pair_keys;

/* Which of the pair's keys the member's key `m` is, NULL for another one. The hint (the key
 * expected next: k1, then k2) matched in place needs no compare. */
static const char *pair_key(const jx_pair_keys *pk, const ctg_lex_member *m, const char *hint)
{
    if (m->hinted)
        return hint;
    if (m->key.len == pk->len1 && memcmp(m->key.str, pk->k1, pk->len1) == 0)
        return pk->k1;
    if (m->key.len == pk->len2 && memcmp(m->key.str, pk->k2, pk->len2) == 0)
        return pk->k2;
    return NULL;
}

/* One item of "aliases" or "properties": the string members `k1` (required) and `k2`
 * (required when `need2`), copied into the scratch arena; rd.tok on its '{'. Other members
 * are skipped. */
static int read_pair(jx_read *x, const jx_pair_keys *pk, bool need2, const char **v1,
                     const char **v2)
{
    ctg_reader *rd = &x->rd;
    ctg_mark start = ctg_reader_mark(rd);
    ctg_lex_member m;
    const char *hint = pk->k1;
    int rc;

    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    *v1 = *v2 = NULL;
    if ((rc = ctg_reader_push_frame(rd)) != CTG_OK)
        return rc;
    while ((rc = ctg_lexer_member(&rd->lex, hint, hint == pk->k1 ? pk->len1 : pk->len2, &m,
                                  &rd->tok, rd->err)) == CTG_LEX_KEY) {
        const char *key = pair_key(pk, &m, hint);
        ctg_reader_top_frame(rd)->key = key;
        ctg_reader_top_frame(rd)->key_len = key ? m.key.len : 0;
        if (!m.value_ready && (rc = ctg_reader_next(rd)) != CTG_OK)
            return rc;
        if (key)
            rc = ctg_read_string(rd, key == pk->k1 ? v1 : v2, key);
        else
            rc = ctg_lexer_skip_value(&rd->lex, &rd->tok, rd->err);
        if (rc != CTG_OK)
            return rc;
        hint = pk->k2;
    }
    if (rc != CTG_LEX_OTHER)
        return rc;
    ctg_reader_top_frame(rd)->key = NULL;
    if (!*v1)
        return ctg_reader_missing(rd, &start, pk->k1);
    if (need2 && !*v2)
        return ctg_reader_missing(rd, &start, pk->k2);
    ctg_reader_pop_frame(rd);
    return CTG_OK;
}

/* A builder call refused: its message, at the item (whose frame is gone: path + index). */
static int item_refused(jx_read *x, const ctg_mark *at, int rc, const ctg_error *e)
{
    if (rc == CTG_ENOMEM)
        return ctg_reader_nomem(&x->rd);
    return ctg_reader_fail_at(&x->rd, at, NULL, CTG_ESCHEMA, "%s", e->message);
}

/* The array at rd.tok, each item handed to `each`; the strings they needed go with it. */
static int read_items(jx_read *x, jx_el *el, int (*each)(jx_read *, jx_el *, const ctg_mark *))
{
    jx_items it = { NULL, NULL, each, el };
    int rc = jx_read_items(x, &it);

    if (rc == CTG_OK)
        ctg_arena_reset(x->scratch);
    return rc;
}

static int alias_item(jx_read *x, jx_el *el, const ctg_mark *at)
{
    const char *alias, *type;
    ctg_error e;
    /* "type" is optional, and the table keeps no alias types. */
    static const jx_pair_keys keys = { "content", "type", 7, 4 };
    int rc = read_pair(x, &keys, false, &alias, &type);

    if (rc != CTG_OK)
        return rc;
    if (ctg_network_find(x->net, alias, strlen(alias)))
        return ctg_reader_fail_at(&x->rd, at, NULL, CTG_ESCHEMA,
                                  "alias \"%s\" is already an id or an alias", alias);
    rc = ctg_network_add_alias(x->net, el->obj->id, alias, &e);
    return rc == CTG_OK ? CTG_OK : item_refused(x, at, rc, &e);
}

static int property_item(jx_read *x, jx_el *el, const ctg_mark *at)
{
    const char *name, *value;
    ctg_error e;
    static const jx_pair_keys keys = { "name", "value", 4, 5 };
    int rc = read_pair(x, &keys, true, &name, &value);

    if (rc != CTG_OK)
        return rc;
    if (name[0] == '\0')
        return ctg_reader_fail_at(&x->rd, at, "name", CTG_ESCHEMA,
                                  "a property name must not be empty");
    /* On the object at hand: its id is not looked up again. */
    rc =
        ctg_network_set_property_obj(x->net, el->obj, name, strlen(name), value, strlen(value), &e);
    return rc == CTG_OK ? CTG_OK : item_refused(x, at, rc, &e);
}

int jx_read_aliases(jx_read *x, jx_el *el)
{
    if (!el->obj)
        return ctg_lexer_skip_value(&x->rd.lex, &x->rd.tok, x->rd.err);
    return read_items(x, el, alias_item);
}

int jx_read_properties(jx_read *x, jx_el *el)
{
    if (!el->obj)
        return ctg_lexer_skip_value(&x->rd.lex, &x->rd.tok, x->rd.err);
    return read_items(x, el, property_item);
}

/* ---- the document ---------------------------------------------------------------------- */

static int read_document(jx_read *x)
{
    static const jx_scope root = { NULL, NULL, NULL, JX_IN_NETWORK };
    ctg_reader *rd = &x->rd;
    ctg_error e;
    int rc;

    if ((rc = ctg_reader_next(rd)) != CTG_OK)
        return rc;
    if (rd->tok.type != CTG_TOK_OBJECT_BEGIN)
        return ctg_reader_type_error(rd, "object");
    if ((rc = jx_read_element(x, &jx_root_kind, &root)) != CTG_OK)
        return rc;
    if ((rc = ctg_reader_next(rd)) != CTG_OK) /* only whitespace may follow */
        return rc;
    rc = ctg_nb_graph_add_buses(&x->graph, x->net, &e);
    if (rc == CTG_ENOMEM)
        return ctg_reader_nomem(rd);
    if (rc != CTG_OK)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "%s", e.message);
    return CTG_OK;
}

static int setup(jx_read *x, const ctg_iidm_input *in, ctg_error *err)
{
    ctg_read_options ro = CTG_READ_OPTIONS_INIT;

    memset(x, 0, sizeof(*x));
    x->in = in;
    x->opts = *in->opts;
    ctg_nb_graph_init(&x->graph, x->opts.allocator);
    jx_leaf_sieve(&x->leaf, x->opts.max_name_len);
    jx_container_sieve(&x->container, x->opts.max_name_len);
    ro.max_depth = x->opts.max_depth;
    ro.max_string_len = x->opts.max_value_len;
    ro.max_document_size = x->opts.max_document_size;
    x->scratch = ctg_arena_new(x->opts.allocator);
    if (!x->scratch || ctg_reader_init(&x->rd, in->src, &ro, x->scratch, err) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    return CTG_OK;
}

int ctg_jiidm_read(ctg_network **out, const ctg_iidm_input *in, ctg_error *err)
{
    jx_read x;
    int rc = setup(&x, in, err);

    *out = NULL;
    if (rc == CTG_OK && (rc = read_document(&x)) != CTG_OK && !x.rd.failed)
        ctg_reader_path(&x.rd, err->path); /* the lexer's errors have no path */
    ctg_reader_dispose(&x.rd);
    ctg_arena_release(x.scratch);
    ctg_nb_graph_dispose(&x.graph);
    if (rc != CTG_OK) {
        ctg_network_free(x.net);
        return rc;
    }
    *out = x.net;
    return CTG_OK;
}
