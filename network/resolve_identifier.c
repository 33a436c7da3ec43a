/* SPDX-License-Identifier: MPL-2.0 */
/* Spec section 6: identifier lists, identifier by identifier. Each identifier's match set is
 * gathered in the evaluation's scratch array; SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS gives one
 * contingency per object, the other kinds one contingency holding them all. Where PowSyBl's
 * order is a hash set's (wildcards, equipments), ctg's is document order. */

#include <stdlib.h>
#include <string.h>

#include "network/resolve_int.h"
#include "network/table.h"

static int collect(rs_ctx *ctx, const ctg_identifier *id);

/* A UTF-8 encoding of code point `cp` into `buf` (4 bytes); its length. */
static size_t utf8_put(unsigned cp, char *buf)
{
    if (cp < 0x80) {
        buf[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        buf[0] = (char)(0xC0 | (cp >> 6));
        buf[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        buf[0] = (char)(0xE0 | (cp >> 12));
        buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    buf[0] = (char)(0xF0 | (cp >> 18));
    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The length of the code point at `s` (1 for a stray byte) and whether it is a Java line
 * terminator, which the "any character" of a wildcard does not match. */
static size_t one_char(const char *s, bool *terminator)
{
    unsigned char c = (unsigned char)s[0];
    size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;

    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            n = i; /* a truncated sequence: count what is there */
    *terminator = c == '\n' || c == '\r' || (n == 2 && c == 0xC2 && (unsigned char)s[1] == 0x85) ||
                  (n == 3 && c == 0xE2 && (unsigned char)s[1] == 0x80 &&
                   ((unsigned char)s[2] == 0xA8 || (unsigned char)s[2] == 0xA9));
    return n;
}

/* Consumes the one character a wildcard stands for; false at the end or a terminator. */
static bool any_char(const char **id)
{
    bool term;

    if (**id == '\0')
        return false;
    *id += one_char(*id, &term);
    return !term;
}

/* The first `wl` bytes at `w` in [p, stop), NULL when absent. */
static const char *find_sep(const char *p, const char *stop, const char *w, size_t wl)
{
    for (; (size_t)(stop - p) >= wl; p++)
        if (memcmp(p, w, wl) == 0)
            return p;
    return NULL;
}

/* The pattern is split at each wildcard as Java's String.split does (trailing empty pieces
 * dropped); the id must be the pieces with exactly one character between neighbours, plus one
 * more after the last piece when the pattern ends with the wildcard. So a trailing run of
 * wildcards stands for one character, and so does a pattern of wildcards only. */
bool ctg_rs_wildcard_match(const char *pattern, unsigned w, const char *id)
{
    char wb[4];
    size_t wl = utf8_put(w, wb), end = strlen(pattern);
    bool trailing = end >= wl && memcmp(pattern + end - wl, wb, wl) == 0;
    const char *p = pattern, *stop;

    while (end >= wl && memcmp(pattern + end - wl, wb, wl) == 0)
        end -= wl;
    stop = pattern + end;
    for (size_t pieces = 0; end > 0; pieces++) {
        const char *sep = find_sep(p, stop, wb, wl);
        size_t len = (size_t)((sep != NULL ? sep : stop) - p);

        if (pieces > 0 && !any_char(&id))
            return false;
        if (strncmp(id, p, len) != 0)
            return false;
        id += len;
        if (sep == NULL)
            break;
        p = sep + wl;
    }
    if (trailing && !any_char(&id))
        return false;
    return *id == '\0';
}

static int not_found(rs_ctx *ctx, const char *what, const char *looked_for)
{
    return ctg_rs_report(ctx, CTG_RESOLVE_NOT_FOUND, NULL, looked_for, CTG_ELEMENT_GENERATOR,
                         "%s", what);
}

/* An empty or absent id makes PowSyBl throw ("Invalid id ''"): the whole evaluation fails. */
static int need_id(rs_ctx *ctx, const char *s, const char *field)
{
    if (s != NULL && s[0] != '\0')
        return CTG_OK;
    return ctg_rs_fail(ctx, "invalid id \"\" in %s", field);
}

/* The object an ID_BASED identifier names, in *obj; NULL (and the NOT_FOUND report) when none.
 * An empty id fails the evaluation. */
static int find_named(rs_ctx *ctx, const ctg_identifier *id, const ctg_net_object **obj)
{
    int rc = need_id(ctx, id->id, "identifier");

    *obj = NULL;
    if (rc != CTG_OK)
        return rc;
    *obj = ctg_network_find(ctx->net, id->id, strlen(id->id));
    return *obj ? CTG_OK : not_found(ctx, "no object with this id", id->id);
}

static int collect_id(rs_ctx *ctx, const ctg_identifier *id)
{
    const ctg_net_object *obj;
    int rc = find_named(ctx, id, &obj);

    if (rc != CTG_OK || obj == NULL)
        return rc;
    return ctg_rs_objs_add_unique(ctx, obj);
}

static const ctg_net_object *find_vl(rs_ctx *ctx, const char *s)
{
    const ctg_net_object *vl = ctg_network_find(ctx->net, s, strlen(s));

    return vl != NULL && vl->type == CTG_IDENTIFIABLE_VOLTAGE_LEVEL ? vl : NULL;
}

static bool is_member(const ctg_net_object *vl, const ctg_net_object *obj)
{
    for (size_t i = 0; i < vl->container->member_count; i++)
        if (vl->container->members[i] == obj)
            return true;
    return false;
}

/* VOLTAGE_LEVELS_AND_ORDER (6.2): the one connectable of both levels whose id ends with the
 * order character; none or several is PowSyBl's "found several connectables" warning. */
static int collect_order(rs_ctx *ctx, const ctg_identifier *id)
{
    const ctg_net_object *vl1, *vl2, *hit = NULL;
    size_t count = 0, ol;
    char ob[4];
    int rc = need_id(ctx, id->voltage_level_id1, "voltageLevelId1");

    if (rc == CTG_OK)
        rc = need_id(ctx, id->voltage_level_id2, "voltageLevelId2");
    if (rc != CTG_OK)
        return rc;
    if ((vl1 = find_vl(ctx, id->voltage_level_id1)) == NULL)
        return not_found(ctx, "no voltage level with this id", id->voltage_level_id1);
    if ((vl2 = find_vl(ctx, id->voltage_level_id2)) == NULL)
        return not_found(ctx, "no voltage level with this id", id->voltage_level_id2);
    ol = utf8_put(id->order, ob);
    for (size_t i = 0; id->order != 0 && i < vl1->container->member_count; i++) {
        const ctg_net_object *m = vl1->container->members[i];
        size_t len = strlen(m->id);

        if (len >= ol && memcmp(m->id + len - ol, ob, ol) == 0 && is_member(vl2, m)) {
            hit = m;
            count++;
        }
    }
    if (count == 1)
        return ctg_rs_objs_add_unique(ctx, hit);
    return ctg_rs_report(ctx, CTG_RESOLVE_AMBIGUOUS, NULL, NULL, CTG_ELEMENT_GENERATOR,
                         "found %zu connectables between voltage levels \"%.64s\" and \"%.64s\" "
                         "with order '%.*s'", count, id->voltage_level_id1,
                         id->voltage_level_id2, (int)ol, ob);
}

/* ID_WITH_WILDCARDS (6.4): every object whose own id matches, in document order. */
static int collect_wildcards(rs_ctx *ctx, const ctg_identifier *id)
{
    size_t n = ctg_network_object_count(ctx->net);
    unsigned w = id->wildcard != 0 ? id->wildcard : '?';
    bool any = false;

    for (size_t i = 0; id->id != NULL && i < n; i++) {
        const ctg_net_object *obj = ctg_network_object_by_doc(ctx->net, i);

        if (obj != NULL && ctg_rs_wildcard_match(id->id, w, obj->id)) {
            int rc = ctg_rs_objs_add_unique(ctx, obj);

            if (rc != CTG_OK)
                return rc;
            any = true;
        }
    }
    return any ? CTG_OK : not_found(ctx, "no id matches", id->id);
}

static bool type_kept(const ctg_identifier *id, ctg_identifiable_type t)
{
    if (id->type_count == 0)
        return true;
    for (size_t i = 0; i < id->type_count; i++)
        if (id->types[i] == t)
            return true;
    return false;
}

static int add_members(rs_ctx *ctx, const ctg_identifier *id, const ctg_net_object *vl)
{
    for (size_t i = 0; i < vl->container->member_count; i++) {
        const ctg_net_object *m = vl->container->members[i];
        int rc = type_kept(id, m->type) ? ctg_rs_objs_add_unique(ctx, m) : CTG_OK;

        if (rc != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

static int by_doc_index(const void *a, const void *b)
{
    uint32_t x = (*(const ctg_net_object *const *)a)->doc_index;
    uint32_t y = (*(const ctg_net_object *const *)b)->doc_index;

    return (x > y) - (x < y);
}

/* SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS (6.5): the connectables of a voltage level or of all
 * of a substation's, each once, in document order. */
static int collect_equipments(rs_ctx *ctx, const ctg_identifier *id)
{
    size_t start = ctx->obj_len;
    const ctg_net_object *obj;
    int rc = need_id(ctx, id->id, "substationOrVoltageLevelId");

    if (rc != CTG_OK)
        return rc;
    obj = ctg_network_find(ctx->net, id->id, strlen(id->id));
    if (obj != NULL && obj->type == CTG_IDENTIFIABLE_VOLTAGE_LEVEL) {
        rc = add_members(ctx, id, obj);
    } else if (obj != NULL && obj->type == CTG_IDENTIFIABLE_SUBSTATION) {
        for (size_t i = 0; rc == CTG_OK && i < obj->container->member_count; i++)
            rc = add_members(ctx, id, obj->container->members[i]);
    } else {
        return not_found(ctx, "no voltage level or substation with this id", id->id);
    }
    if (rc == CTG_OK && ctx->obj_len - start > 1)
        qsort(ctx->objs + start, ctx->obj_len - start, sizeof *ctx->objs, by_doc_index);
    return rc;
}

static int collect_list(rs_ctx *ctx, const ctg_identifier *id)
{
    int rc = CTG_OK;

    if (id->item_count == 0)
        return not_found(ctx, "an empty identifier list", NULL);
    for (size_t k = 0; rc == CTG_OK && k < id->item_count; k++) {
        size_t mark = ctg_rs_path_push(ctx, "identifierList");

        ctg_rs_path_push_index(ctx, k);
        rc = collect(ctx, &id->items[k]);
        ctg_rs_path_pop(ctx, mark);
    }
    return rc;
}

/* Adds the match set of `id` to the current set (duplicates collapse). */
static int collect(rs_ctx *ctx, const ctg_identifier *id)
{
    switch (id->kind) {
    case CTG_IDENTIFIER_ID_BASED: return collect_id(ctx, id);
    case CTG_IDENTIFIER_VOLTAGE_LEVELS_AND_ORDER: return collect_order(ctx, id);
    case CTG_IDENTIFIER_LIST: return collect_list(ctx, id);
    case CTG_IDENTIFIER_ID_WITH_WILDCARDS: return collect_wildcards(ctx, id);
    case CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS:
        return collect_equipments(ctx, id);
    default: return ctg_rs_fail(ctx, "unknown identifier kind %d", (int)id->kind);
    }
}

/* ID_BASED through the general path, for what the batches leave to it (an empty id, one that
 * matches nothing, one that cannot be an element): a look-up and the output. */
static int resolve_id_based(rs_ctx *ctx, const ctg_identifier *id)
{
    const ctg_net_object *obj;
    int rc = find_named(ctx, id, &obj);

    if (rc != CTG_OK || obj == NULL)
        return rc;
    ctx->obj_len = 0;
    if (!ctg_rs_objs_push(ctx, obj))
        return ctg_rs_nomem(ctx);
    return ctg_rs_emit_set(ctx, id->contingency_id);
}

static int resolve_one(rs_ctx *ctx, const ctg_identifier *id)
{
    int rc;

    if (id->kind == CTG_IDENTIFIER_ID_BASED)
        return resolve_id_based(ctx, id);
    rc = ctg_rs_set_begin(ctx);
    if (rc == CTG_OK)
        rc = collect(ctx, id);
    if (rc != CTG_OK || ctx->obj_len == 0)
        return rc;
    if (id->kind != CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS)
        return ctg_rs_emit_set(ctx, id->contingency_id);
    for (size_t i = 0; rc == CTG_OK && i < ctx->obj_len; i++)
        rc = ctg_rs_emit_one(ctx, ctx->objs[i], NULL);
    return rc;
}

/* Identifier `i` of the list, at its path "/identifiers/i". */
static int resolve_at(rs_ctx *ctx, const ctg_identifier *id, size_t i)
{
    size_t mark = ctg_rs_path_push(ctx, "identifiers");
    int rc;

    ctg_rs_path_push_index(ctx, i);
    rc = resolve_one(ctx, id);
    ctg_rs_path_pop(ctx, mark);
    return rc;
}

/* The ID_BASED identifiers of a batch: how many look-ups are in flight at once. Each look-up
 * is three dependent cache misses on a big network (slot, object, id text); a batch hashes
 * every key, then prefetches the slots, then the objects, so that the misses overlap. */
#define BATCH 16

typedef struct id_batch {
    size_t len[BATCH];
    uint64_t hash[BATCH];
} id_batch;

/* The look-ups of `n` ID_BASED identifiers, started: their slots and objects on their way. */
static void batch_start(const rs_ctx *ctx, const ctg_identifier *ids, size_t n, id_batch *b)
{
    for (size_t k = 0; k < n; k++) {
        b->len[k] = ids[k].id != NULL ? strlen(ids[k].id) : 0;
        b->hash[k] = ctg_net_index_hash(ids[k].id, b->len[k]);
        ctg_net_index_prefetch(ctx->net, b->hash[k]);
    }
    for (size_t k = 0; k < n; k++)
        ctg_net_index_prefetch_object(ctx->net, b->hash[k]);
}

/* One ID_BASED identifier of a batch, its look-up done: the common case (found, an element,
 * no contingency id) emits without a path, which is written only when something fails ("absent
 * is free"); every other case goes through resolve_at, which gives its error or report. */
static int batch_one(rs_ctx *ctx, const ctg_identifier *id, size_t i, size_t len,
                     const ctg_net_object *obj)
{
    ctg_element e;
    bool known;
    int rc;

    if (obj == NULL || id->contingency_id != NULL || !ctg_rs_map_element(obj, &e))
        return resolve_at(ctx, id, i);
    /* Found by its id rather than an alias, the element's id is the identifier's text: UTF-8
     * (the list checked it) of known length. The comparison reads what the look-up did. */
    known = e.id == obj->id && strcmp(obj->id, id->id) == 0;
    rc = ctg_rs_emit_element(ctx, &e, CTG_RS_GENERATED, sizeof CTG_RS_GENERATED - 1,
                             known ? len : CTG_RS_UNCHECKED);
    if (rc != CTG_OK) { /* the message is set: the place is this identifier */
        size_t mark = ctg_rs_path_push(ctx, "identifiers");

        ctg_rs_path_push_index(ctx, i);
        ctg_error_set(ctx->err, rc, NULL, ctx->path, NULL);
        ctg_rs_path_pop(ctx, mark);
    }
    return rc;
}

/* The `n` (<= BATCH) ID_BASED identifiers from index `first`, in order. */
static int resolve_batch(rs_ctx *ctx, const ctg_identifier *ids, size_t first, size_t n)
{
    id_batch b;
    int rc = CTG_OK;

    batch_start(ctx, ids + first, n, &b);
    for (size_t k = 0; rc == CTG_OK && k < n; k++) {
        const ctg_net_object *obj =
            b.len[k] > 0 ? ctg_net_index_find_hashed(ctx->net, ids[first + k].id, b.len[k],
                                                     b.hash[k])
                         : NULL;

        rc = batch_one(ctx, &ids[first + k], first + k, b.len[k], obj);
    }
    return rc;
}

int ctg_rs_identifier(rs_ctx *ctx, const ctg_list *list)
{
    size_t n = 0, run;
    const ctg_identifier *ids = ctg_list_identifiers(list, &n);
    int rc = CTG_OK;

    for (size_t i = 0; rc == CTG_OK && i < n; i += run) {
        for (run = 0; i + run < n && run < BATCH; run++)
            if (ids[i + run].kind != CTG_IDENTIFIER_ID_BASED)
                break;
        if (run > 0) {
            rc = resolve_batch(ctx, ids, i, run);
        } else {
            rc = resolve_at(ctx, &ids[i], i);
            run = 1;
        }
    }
    return rc;
}
