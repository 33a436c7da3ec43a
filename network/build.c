/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_network_add: where each type of object may stand, checked before anything changes.
 *
 * An add runs in three steps: plan (every reference resolved and every rule checked, nothing
 * allocated but the index's room for one more key, taken first so that the duplicate check
 * also finds the id's slot), reserve (room in every vector and member list the object goes
 * into), then make the object in the arena and commit, which cannot fail. A failure at any
 * step leaves the network as it was: what the arena gave to an object never committed is only
 * unreachable, and released with the network. */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "network/table.h"
#include "network/table_impl.h"

enum {
    F_CONNECTABLE = 1u << 0, /* a member of each of its voltage levels */
    F_SUBSTATION = 1u << 1,  /* may stand in a substation */
    F_NEEDS_SUBSTATION = 1u << 2,
    F_REFS = 1u << 3,         /* made of two objects of `ref_type` */
    F_BUS_BREAKER = 1u << 4,  /* only in a bus-breaker voltage level */
    F_NODE_BREAKER = 1u << 5, /* only in a node-breaker voltage level */
    F_CONTAINER = 1u << 6
};

typedef struct rule {
    unsigned char vl_min, vl_max;
    unsigned char flags;
    ctg_identifiable_type ref_type;
} rule;

#define INJECTION                                                                                  \
    {                                                                                              \
        1, 1, F_CONNECTABLE, CTG_IDENTIFIABLE_NETWORK                                              \
    }
#define PLAIN                                                                                      \
    {                                                                                              \
        0, 0, 0, CTG_IDENTIFIABLE_NETWORK                                                          \
    }

/* Per type: how many voltage levels it takes, and what else. */
static const rule rules[CTG_IDENTIFIABLE_TYPE_COUNT] = {
    [CTG_IDENTIFIABLE_NETWORK] = PLAIN,
    [CTG_IDENTIFIABLE_SUBSTATION] = { 0, 0, F_CONTAINER, CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_VOLTAGE_LEVEL] = { 0, 0, F_CONTAINER | F_SUBSTATION,
                                         CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_AREA] = PLAIN,
    [CTG_IDENTIFIABLE_HVDC_LINE] = { 0, 0, F_REFS, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION },
    [CTG_IDENTIFIABLE_BUS] = { 1, 1, F_BUS_BREAKER, CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_SWITCH] = { 1, 1, 0, CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_BUSBAR_SECTION] = { 1, 1, F_CONNECTABLE | F_NODE_BREAKER,
                                          CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_LINE] = { 2, 2, F_CONNECTABLE, CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_TIE_LINE] = { 0, 0, F_REFS, CTG_IDENTIFIABLE_BOUNDARY_LINE },
    [CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER] = { 2, 2, F_CONNECTABLE | F_SUBSTATION,
                                                    CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER] = { 3, 3, F_CONNECTABLE | F_SUBSTATION,
                                                      CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_GENERATOR] = INJECTION,
    [CTG_IDENTIFIABLE_BATTERY] = INJECTION,
    [CTG_IDENTIFIABLE_LOAD] = INJECTION,
    [CTG_IDENTIFIABLE_SHUNT_COMPENSATOR] = INJECTION,
    [CTG_IDENTIFIABLE_BOUNDARY_LINE] = INJECTION,
    [CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR] = INJECTION,
    [CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION] = INJECTION,
    [CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM] = { 0, 0, F_NEEDS_SUBSTATION,
                                                      CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_GROUND] = INJECTION,
    [CTG_IDENTIFIABLE_DC_NODE] = PLAIN,
    [CTG_IDENTIFIABLE_DC_SWITCH] = PLAIN,
    [CTG_IDENTIFIABLE_DC_GROUND] = PLAIN,
    [CTG_IDENTIFIABLE_DC_LINE] = PLAIN,
    [CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER] = { 1, 2, F_CONNECTABLE,
                                                     CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER] = { 1, 2, F_CONNECTABLE, CTG_IDENTIFIABLE_NETWORK },
    [CTG_IDENTIFIABLE_DC_BUS] = PLAIN,
};

/* Everything an add resolved before it changes anything. */
typedef struct plan {
    const ctg_net_spec *spec;
    const ctg_net_known *known; /* what the caller resolved already, or NULL */
    const char *type;           /* its type's name, for messages */
    size_t id_len;
    uint64_t hash;
    size_t slot; /* the index slot the id goes into (the index has room for it) */
    const rule *rule;
    ctg_net_object *vl[3];
    ctg_net_object *substation, *subnetwork, *refs[2];
    ctg_net_object *in[3]; /* the distinct voltage levels it is a member of */
    uint32_t key[3];       /* and its order in each: its lowest terminal there */
    size_t n_in;
    ctg_net_vec *vec; /* where it is enumerated */
} plan;

/* CTG_EINVAL with "<TYPE> "<id>": <fmt formatted>". */
static int fail(const plan *p, ctg_error *err, const char *fmt, ...) CTG_PRINTF(3, 4);
static int fail(const plan *p, ctg_error *err, const char *fmt, ...)
{
    char what[CTG_ERROR_MESSAGE_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return ctg_error_set(err, CTG_EINVAL, NULL, "", "%s \"%s\": %s", p->type, p->spec->id, what);
}

static const char *name_of(ctg_identifiable_type type)
{
    return ctg_identifiable_type_name(type);
}

/* The object `id` names, which must be of type `want`; `what` names it in messages. `known`,
 * when not NULL, is that object, which the caller had at hand: no look-up then, and the
 * same checks and messages. */
static int resolve(const ctg_network *net, const plan *p, const char *id,
                   const ctg_net_object *known, ctg_identifiable_type want, const char *what,
                   ctg_net_object **out, ctg_error *err)
{
    ctg_net_object *obj = known ? (ctg_net_object *)known : ctg_net_lookup(net, id, strlen(id));

    if (obj == NULL)
        return fail(p, err, "unknown %s \"%s\"", what, id);
    if (obj->type != want)
        return fail(p, err, "\"%s\" is a %s, not a %s", id, name_of(obj->type), name_of(want));
    *out = obj;
    return CTG_OK;
}

/* Its voltage levels: [0, vl_min) required, [vl_min, vl_max) optional, none after. */
static int plan_voltage_levels(const ctg_network *net, plan *p, ctg_error *err)
{
    const ctg_net_spec *s = p->spec;
    int rc;

    for (unsigned i = 0; i < 3; i++) {
        const char *id = s->voltage_levels[i];
        if (id == NULL && i < p->rule->vl_min)
            return fail(p, err, "needs voltage level %u (voltage_levels[%u])", i + 1, i);
        if (id == NULL)
            continue;
        if (i >= p->rule->vl_max)
            return p->rule->vl_max == 0
                       ? fail(p, err, "stands in no voltage level (voltage_levels[%u] is set)", i)
                       : fail(p, err, "has no voltage level %u (voltage_levels[%u] is set)", i + 1,
                              i);
        if (i > 0 && p->vl[i - 1] == NULL)
            return fail(p, err, "voltage level %u is set without voltage level %u", i + 1, i);
        rc = resolve(net, p, id, p->known ? p->known->vl[i] : NULL, CTG_IDENTIFIABLE_VOLTAGE_LEVEL,
                     "voltage level", &p->vl[i], err);
        if (rc != CTG_OK)
            return rc;
    }
    return CTG_OK;
}

/* The topology its voltage level must have, for buses and busbar sections. */
static int plan_topology(plan *p, ctg_error *err)
{
    if (!(p->rule->flags & (F_BUS_BREAKER | F_NODE_BREAKER)))
        return CTG_OK;
    ctg_topology_kind want =
        p->rule->flags & F_BUS_BREAKER ? CTG_TOPOLOGY_BUS_BREAKER : CTG_TOPOLOGY_NODE_BREAKER;
    if (p->vl[0]->container->topology == want)
        return CTG_OK;
    return fail(p, err, "voltage level \"%s\" is %s; a %s stands in a %s one", p->vl[0]->id,
                want == CTG_TOPOLOGY_BUS_BREAKER ? "NODE_BREAKER" : "BUS_BREAKER", p->type,
                want == CTG_TOPOLOGY_BUS_BREAKER ? "BUS_BREAKER" : "NODE_BREAKER");
}

/* Its substation: optional or required by type; a transformer's voltage levels stand in it. */
static int plan_substation(const ctg_network *net, plan *p, ctg_error *err)
{
    const char *id = p->spec->substation;
    unsigned flags = p->rule->flags;

    if (id == NULL)
        return flags & F_NEEDS_SUBSTATION ? fail(p, err, "needs its substation") : CTG_OK;
    if (!(flags & (F_SUBSTATION | F_NEEDS_SUBSTATION)))
        return fail(p, err, "stands in no substation (substation is set)");
    int rc = resolve(net, p, id, p->known ? p->known->substation : NULL,
                     CTG_IDENTIFIABLE_SUBSTATION, "substation", &p->substation, err);
    if (rc != CTG_OK)
        return rc;
    for (unsigned i = 0; i < 3 && p->vl[i]; i++)
        if (p->vl[i]->substation != p->substation)
            return fail(p, err, "voltage level \"%s\" is not in substation \"%s\"", p->vl[i]->id,
                        p->substation->id);
    return CTG_OK;
}

/* A tie line's two boundary lines, an HVDC line's two converter stations: distinct, and not
 * in another tie line or on another HVDC line yet. */
static int plan_refs(const ctg_network *net, plan *p, ctg_error *err)
{
    const ctg_net_spec *s = p->spec;

    if (!(p->rule->flags & F_REFS))
        return s->refs[0] || s->refs[1] ? fail(p, err, "takes no references (refs is set)")
                                        : CTG_OK;
    bool tie = p->rule->ref_type == CTG_IDENTIFIABLE_BOUNDARY_LINE;
    const char *what = tie ? "boundary line" : "converter station";
    for (unsigned i = 0; i < 2; i++) {
        if (s->refs[i] == NULL)
            return fail(p, err, "needs %s %u (refs[%u])", what, i + 1, i);
        int rc = resolve(net, p, s->refs[i], NULL, p->rule->ref_type, what, &p->refs[i], err);
        if (rc != CTG_OK)
            return rc;
        const ctg_net_object *taken = p->refs[i]->refs[0];
        if (taken)
            return fail(p, err, "%s \"%s\" is already %s \"%s\"", what, p->refs[i]->id,
                        tie ? "paired in tie line" : "on HVDC line", taken->id);
    }
    if (p->refs[0] == p->refs[1])
        return fail(p, err, "%s 1 and 2 are both \"%s\"", what, p->refs[0]->id);
    p->vl[0] = (ctg_net_object *)p->refs[0]->voltage_levels[0];
    p->vl[1] = (ctg_net_object *)p->refs[1]->voltage_levels[0];
    return CTG_OK;
}

/* The subnetwork owning it: one level only, so a subnetwork cannot own one. The root's id
 * names the root, which owns what has no subnetwork. */
static int plan_subnetwork(const ctg_network *net, plan *p, ctg_error *err)
{
    const char *id = p->spec->subnetwork;
    if (id == NULL)
        return CTG_OK;
    int rc = resolve(net, p, id, p->known ? p->known->subnetwork : NULL, CTG_IDENTIFIABLE_NETWORK,
                     "subnetwork", &p->subnetwork, err);
    if (rc != CTG_OK)
        return rc;
    if (p->subnetwork == ctg_net_doc(net, 0))
        p->subnetwork = NULL;
    else if (p->spec->type == CTG_IDENTIFIABLE_NETWORK)
        return fail(p, err, "a subnetwork cannot own subnetworks (\"%s\" is one)", id);
    return CTG_OK;
}

/* What only some types take: a converter kind, a country, a topology. */
static int plan_details(plan *p, ctg_error *err)
{
    const ctg_net_spec *s = p->spec;
    ctg_identifiable_type t = s->type;

    if (t == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION) {
        if (s->converter_kind != CTG_CONVERTER_LCC && s->converter_kind != CTG_CONVERTER_VSC)
            return fail(p, err, "needs its converter kind, LCC or VSC");
    } else if (s->converter_kind != CTG_CONVERTER_NONE) {
        return fail(p, err, "is no converter station (converter_kind is set)");
    }
    if (s->country && t != CTG_IDENTIFIABLE_SUBSTATION)
        return fail(p, err, "has no country of its own (country is set)");
    if (s->country && !ctg_country_is_valid(s->country, strlen(s->country)))
        return fail(p, err, "\"%s\" is not an ISO 3166-1 alpha-2 country code", s->country);
    if (t == CTG_IDENTIFIABLE_VOLTAGE_LEVEL && s->topology != CTG_TOPOLOGY_BUS_BREAKER &&
        s->topology != CTG_TOPOLOGY_NODE_BREAKER)
        return fail(p, err, "unknown topology kind %d", (int)s->topology);
    return CTG_OK;
}

/* The voltage levels it is a member of, each once, at its lowest terminal there. */
static void plan_members(plan *p)
{
    if (!(p->rule->flags & F_CONNECTABLE))
        return;
    for (unsigned i = 0; i < 3 && p->vl[i]; i++) {
        uint32_t key = p->spec->order[i];
        size_t j = 0;
        while (j < p->n_in && p->in[j] != p->vl[i])
            j++;
        if (j == p->n_in) {
            p->in[p->n_in] = p->vl[i];
            p->key[p->n_in++] = key;
        } else if (key < p->key[j]) {
            p->key[j] = key;
        }
    }
}

/* Its id: non-empty and new among ids and aliases. */
static int plan_id(const ctg_network *net, plan *p, ctg_error *err)
{
    const char *id = p->spec->id;

    if (id == NULL || *id == '\0')
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "a %s needs a non-empty id", p->type);
    /* Every id of the table is valid UTF-8, so that what is made of ids (a generated list)
     * needs no check of its own; an importer's parser has checked its ids already. */
    if (p->known == NULL && !ctg_utf8_valid(id))
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "a %s id that is not valid UTF-8",
                             p->type);
    p->id_len = p->known ? p->known->id_len : strlen(id);
    p->hash = p->known ? p->known->id_hash : ctg_net_hash(id, p->id_len);
    uint32_t ref = ctg_net_index_find_slot(net, id, p->id_len, p->hash, &p->slot);
    if (ref == CTG_NET_REF_NONE)
        return CTG_OK;
    const ctg_net_object *other = ctg_net_ref_object(net, ref);
    if (ref & CTG_NET_REF_ALIAS)
        return fail(p, err, "the id is already an alias of %s \"%s\"", name_of(other->type),
                    other->id);
    return fail(p, err, "the id is already used by a %s", name_of(other->type));
}

static int make_plan(const ctg_network *net, const ctg_net_spec *s, const ctg_net_known *known,
                     plan *p, ctg_error *err)
{
    /* What a step may leave unset, cleared field by field: a memset of the whole plan is a
     * `rep stos`, whose start-up was 7% of an add on the importers' hundreds of thousands. */
    p->spec = s;
    p->known = known;
    p->id_len = 0;
    p->hash = 0;
    p->slot = 0;
    p->vl[0] = p->vl[1] = p->vl[2] = NULL;
    p->substation = p->subnetwork = p->refs[0] = p->refs[1] = NULL;
    p->n_in = 0;
    p->vec = NULL;
    if (s->version > CTG_NET_SPEC_VERSION)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "unknown ctg_net_spec version %u",
                             s->version);
    if ((unsigned)s->type >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "unknown identifiable type %d",
                             (int)s->type);
    p->type = name_of(s->type);
    p->rule = &rules[s->type];
    int rc = plan_id(net, p, err);
    if (rc == CTG_OK)
        rc = plan_voltage_levels(net, p, err);
    if (rc == CTG_OK)
        rc = plan_refs(net, p, err);
    if (rc == CTG_OK && p->vl[0])
        rc = plan_topology(p, err);
    if (rc == CTG_OK)
        rc = plan_substation(net, p, err);
    if (rc == CTG_OK)
        rc = plan_subnetwork(net, p, err);
    if (rc == CTG_OK)
        rc = plan_details(p, err);
    if (rc == CTG_OK)
        plan_members(p);
    return rc;
}

/* Room for one more member in `box` (with its order key for a voltage level). Either array
 * may have grown when the other fails: each keeps its own capacity. A voltage level holds
 * every connectable with a terminal in it, seldom fewer than 8 (8 to 23 on net10k): its
 * arrays start at the 8 that doubling from 4 reached anyway, one resize fewer for each; a
 * substation holds a few levels. */
static int box_reserve(ctg_network *net, ctg_net_box *box, bool keys)
{
    size_t n = box->pub.member_count, cap, min = keys ? 8 : 4;

    if (n == box->member_cap) {
        if (!ctg_grow_capacity(box->member_cap, n + 1, min, CTG_NET_MAX_OBJECTS, &cap))
            return CTG_ENOMEM;
        void *m = ctg_mem_resize(net->alloc, (void *)box->pub.members,
                                 box->member_cap * sizeof(void *), cap * sizeof(void *));
        if (m == NULL)
            return CTG_ENOMEM;
        box->pub.members = m;
        box->member_cap = cap;
    }
    if (keys && n == box->key_cap) {
        if (!ctg_grow_capacity(box->key_cap, n + 1, min, CTG_NET_MAX_OBJECTS, &cap))
            return CTG_ENOMEM;
        uint32_t *k =
            ctg_mem_resize(net->alloc, box->keys, box->key_cap * sizeof *k, cap * sizeof *k);
        if (k == NULL)
            return CTG_ENOMEM;
        box->keys = k;
        box->key_cap = cap;
    }
    return CTG_OK;
}

static ctg_net_box *box_of(const ctg_net_object *obj)
{
    return (ctg_net_box *)obj->container;
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_W(p) __builtin_prefetch((p), 1, 3)
#else
#define PREFETCH_W(p) ((void)(p))
#endif

void ctg_net_prefetch_members(const ctg_net_object *vl)
{
    const ctg_net_box *box = box_of(vl);
    size_t n = box->pub.member_count;

    if (box->pub.members != NULL)
        PREFETCH_W(&box->pub.members[n]);
    if (box->keys != NULL && n > 0)
        PREFETCH_W(&box->keys[n - 1]);
}

/* Room everywhere the object goes: after this, the commit cannot fail. */
static int reserve(ctg_network *net, plan *p)
{
    const ctg_net_spec *s = p->spec;
    bool vsc = s->type == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION &&
               s->converter_kind == CTG_CONVERTER_VSC;

    p->vec = vsc ? &net->vsc : &net->types[s->type];
    if (ctg_net_vec_reserve(net, p->vec) || ctg_net_scan_reserve(net, s->type, 1))
        return CTG_ENOMEM;
    for (size_t i = 0; i < p->n_in; i++)
        if (box_reserve(net, box_of(p->in[i]), true) != CTG_OK)
            return CTG_ENOMEM;
    if (s->type == CTG_IDENTIFIABLE_VOLTAGE_LEVEL && p->substation &&
        box_reserve(net, box_of(p->substation), false) != CTG_OK)
        return CTG_ENOMEM;
    if (s->type == CTG_IDENTIFIABLE_BUS) {
        ctg_net_box *box = box_of(p->vl[0]);
        void *buses = (void *)box->pub.buses;
        if (ctg_net_arena_grow(net, &buses, box->pub.bus_count, sizeof(void *)) != CTG_OK)
            return CTG_ENOMEM;
        box->pub.buses = buses;
    }
    return CTG_OK;
}

/* The object in `obj` (the next slot of its vector), its strings and container in the arena;
 * CTG_ENOMEM. */
static int make_object(ctg_network *net, const plan *p, ctg_net_object *obj)
{
    const ctg_net_spec *s = p->spec;
    /* Inlined: one copy per object of a network of hundreds of thousands. */
    char *id = ctg_arena_strndup_fast(net->arena, s->id, p->id_len);
    ctg_net_box *box =
        p->rule->flags & F_CONTAINER ? ctg_arena_calloc(net->arena, 1, sizeof *box) : NULL;
    char *country =
        s->country ? ctg_arena_strndup(net->arena, s->country, strlen(s->country)) : NULL;
    /* Only the objects of a subnetwork get an attributes record here. */
    ctg_net_attrs *attrs = p->subnetwork ? ctg_arena_calloc(net->arena, 1, sizeof *attrs) : NULL;

    if (id == NULL || ((p->rule->flags & F_CONTAINER) && box == NULL) ||
        (s->country && country == NULL) || (p->subnetwork && attrs == NULL))
        return CTG_ENOMEM;
    memset(obj, 0, sizeof *obj);
    obj->id = id;
    obj->type = s->type;
    obj->converter_kind = s->converter_kind;
    if (attrs) {
        attrs->subnetwork = p->subnetwork;
        obj->attrs = attrs;
    }
    for (unsigned i = 0; i < 3; i++)
        obj->voltage_levels[i] = p->vl[i];
    obj->substation = p->substation;
    obj->refs[0] = p->refs[0];
    obj->refs[1] = p->refs[1];
    if (box) {
        box->pub.country = country;
        box->pub.nominal_v = s->type == CTG_IDENTIFIABLE_VOLTAGE_LEVEL ? s->nominal_v : NAN;
        box->pub.topology = s->topology;
        obj->container = &box->pub;
    }
    return CTG_OK;
}

/* Inserts `obj` among the members of `box`, after those of a lower or equal key: an append
 * when objects come in ascending order, as a file's node order mostly does. */
static void box_insert(ctg_net_box *box, const ctg_net_object *obj, uint32_t key)
{
    const ctg_net_object **members = (const ctg_net_object **)box->pub.members;
    size_t n = box->pub.member_count, lo = 0, hi = n;

    if (n == 0 || box->keys[n - 1] <= key) {
        lo = n;
    } else {
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (box->keys[mid] <= key)
                lo = mid + 1;
            else
                hi = mid;
        }
        memmove(members + lo + 1, members + lo, (n - lo) * sizeof *members);
        memmove(box->keys + lo + 1, box->keys + lo, (n - lo) * sizeof *box->keys);
    }
    members[lo] = obj;
    box->keys[lo] = key;
    box->pub.member_count = n + 1;
}

/* Appends the object make_object made in the vector's next slot, and links it. */
static ctg_net_object *commit(ctg_network *net, const plan *p)
{
    ctg_identifiable_type t = p->spec->type;
    bool vsc = p->vec == &net->vsc;
    ctg_net_object *obj = ctg_net_vec_claim(net, p->vec, vsc ? CTG_NET_VEC_VSC : t);

    obj->type_index = (uint32_t)p->vec->len - 1;
    if (vsc)
        obj->type_index += (uint32_t)net->types[t].len;
    else if (t == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION)
        for (size_t i = 0; i < net->vsc.len; i++) /* the VSC stations come after this one */
            ctg_net_vec_at(&net->vsc, i)->type_index++;
    ctg_net_index_insert_at(net, p->slot, p->hash, net->docs[obj->doc_index]);
    for (size_t i = 0; i < p->n_in; i++)
        box_insert(box_of(p->in[i]), obj, p->key[i]);
    if (t == CTG_IDENTIFIABLE_VOLTAGE_LEVEL && p->substation) {
        ctg_net_box *box = box_of(p->substation);
        ((const ctg_net_object **)box->pub.members)[box->pub.member_count++] = obj;
    }
    if (t == CTG_IDENTIFIABLE_BUS) {
        ctg_net_box *box = box_of(p->vl[0]);
        ((const ctg_net_object **)box->pub.buses)[box->pub.bus_count++] = obj;
    }
    if (p->rule->flags & F_REFS) {
        p->refs[0]->refs[0] = obj;
        p->refs[1]->refs[0] = obj;
    }
    ctg_net_scan_commit(net, obj);
    return obj;
}

int ctg_network_add_known(ctg_network *net, const ctg_net_spec *spec, const ctg_net_known *known,
                          ctg_net_object **out, ctg_error *err)
{
    plan p;

    if (out)
        *out = NULL;
    if (net == NULL || spec == NULL)
        return ctg_error_set(err, CTG_EINVAL, NULL, "", "no network or no spec");
    /* The index's room first: the duplicate check then finds the slot the id goes into. */
    if (ctg_net_index_reserve(net, 1) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory adding an object");
    int rc = make_plan(net, spec, known, &p, err);
    if (rc != CTG_OK)
        return rc;
    /* Made in place: a failure leaves the slot unclaimed, the next add overwrites it. */
    if (reserve(net, &p) != CTG_OK || make_object(net, &p, ctg_net_vec_next(p.vec)) != CTG_OK)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory adding %s \"%s\"", p.type,
                             spec->id);
    ctg_net_object *obj = commit(net, &p);
    if (out)
        *out = obj;
    return CTG_OK;
}

int ctg_network_add_obj(ctg_network *net, const ctg_net_spec *spec, ctg_net_object **out,
                        ctg_error *err)
{
    return ctg_network_add_known(net, spec, NULL, out, err);
}

int ctg_network_add(ctg_network *net, const ctg_net_spec *spec, const ctg_net_object **out,
                    ctg_error *err)
{
    ctg_net_object *obj = NULL;
    int rc = ctg_network_add_obj(net, spec, &obj, err);

    if (out)
        *out = obj;
    return rc;
}
