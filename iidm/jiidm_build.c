/* SPDX-License-Identifier: MPL-2.0 */
/* Turning a JIIDM element into a table object: what each shape needs, the references it makes
 * (checked here first, so that an unknown voltage level or a duplicate id gets a message at
 * the member that named it), and the order of its terminals in their voltage levels. */

#include "iidm/jiidm.h"

#include <string.h>

#include "network/table.h"

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define PREFETCH(p) ((void)(p))
#endif

static unsigned container_of(const jx_kind *k)
{
    switch (k->shape) {
    case JX_ROOT:
        return JX_IN_NETWORK;
    case JX_SUBNET:
        return JX_IN_SUBNET;
    case JX_SUBSTATION:
        return JX_IN_SUBSTATION;
    case JX_VLEVEL:
        return JX_IN_VLEVEL;
    case JX_NBTOPO:
        return JX_IN_NBTOPO;
    case JX_BBTOPO:
        return JX_IN_BBTOPO;
    default:
        return 0;
    }
}

void jx_el_init(jx_el *el, const jx_kind *k, const jx_scope *scope, const ctg_token *start)
{
    el->k = k;
    el->scope = scope;
    el->inner = *scope;
    el->in = container_of(k);
    el->inner.in = el->in;
    el->seen = 0;
    jx_mark_copy(&el->start, start->offset, start->line_start, start->line);
    el->obj = NULL;
    el->created = false;
    el->discarded = false;
}

/* ---- errors ---------------------------------------------------------------------------- */

static int missing(jx_read *x, const jx_el *el, jx_key key)
{
    return ctg_reader_missing(&x->rd, &el->start, jx_key_names[key]);
}

/* An error about member `key`, at that member. */
static int bad_ref(jx_read *x, const jx_el *el, jx_key key, const char *what)
{
    return ctg_reader_fail_at(&x->rd, &el->marks[key], jx_key_names[key], CTG_ESCHEMA,
                              "unknown %s \"%s\"", what, el->s[key]);
}

/* The builder refused: its message, at the element. */
static int refused(jx_read *x, const jx_el *el, int rc, const ctg_error *e)
{
    if (rc == CTG_ENOMEM)
        return ctg_reader_nomem(&x->rd);
    return ctg_reader_fail_at(&x->rd, &el->start, NULL, CTG_ESCHEMA, "%s", e->message);
}

/* The object member `key` names, which must be of `type`: `found` when the caller looked it
 * up already, else looked up here. */
static int ref_found(jx_read *x, const jx_el *el, jx_key key, ctg_identifiable_type type,
                     const char *what, const ctg_net_object *found, const ctg_net_object **out)
{
    const char *id = el->s[key];
    const ctg_net_object *o = found;

    if (!jx_el_has(el, key))
        return missing(x, el, key);
    if (o == NULL)
        o = ctg_net_index_find_hashed(x->net, id, el->len[key], el->hash[key]);
    if (!o || o->type != type)
        return bad_ref(x, el, key, what);
    *out = o;
    return CTG_OK;
}

static int ref(jx_read *x, const jx_el *el, jx_key key, ctg_identifiable_type type,
               const char *what, const ctg_net_object **out)
{
    return ref_found(x, el, key, type, what, NULL, out);
}

/* ---- terminals ------------------------------------------------------------------------- */

/* The bus of `vl` whose id or alias is the `len` bytes at `id`, or NULL. A level's few buses
 * were declared just before its connectables: comparing their ids is cheaper than a probe of
 * the index, whose slot is far away in memory by now; an alias, or a level with many buses,
 * goes to the index. */
static const ctg_net_object *bus_of(const jx_read *x, const ctg_net_object *vl, const char *id,
                                    size_t len)
{
    const ctg_net_container *c = vl->container;
    const ctg_net_object *o;

    if (c->bus_count <= 16)
        for (size_t i = 0; i < c->bus_count; i++)
            if (strncmp(c->buses[i]->id, id, len) == 0 && memchr(id, '\0', len) == NULL &&
                c->buses[i]->id[len] == '\0')
                return c->buses[i];
    o = ctg_network_find(x->net, id, len);
    return o && o->type == CTG_IDENTIFIABLE_BUS && o->voltage_levels[0] == vl ? o : NULL;
}

/* Where terminal `side` (0: the only one) stands in voltage level `vl`: its node in a
 * node-breaker level (recorded for the level's buses), else the rank of its bus, since
 * PowSyBl lists a bus-breaker level's connectables bus by bus. */
static int terminal(jx_read *x, const jx_el *el, unsigned side, const ctg_net_object *vl,
                    uint32_t *order)
{
    jx_key node = side ? (jx_key)(JK_NODE1 + side - 1) : JK_NODE;
    jx_key cbus = side ? (jx_key)(JK_CBUS1 + side - 1) : JK_CBUS;
    jx_key bus = side ? (jx_key)(JK_BUS1 + side - 1) : JK_BUS;
    jx_key which = jx_el_has(el, cbus) ? cbus : jx_el_has(el, bus) ? bus : JK_OTHER;
    const ctg_net_object *o;

    *order = CTG_NET_NO_ORDER;
    if (vl->container->topology == CTG_TOPOLOGY_NODE_BREAKER) {
        if (!jx_el_has(el, node))
            return missing(x, el, node);
        *order = el->u[node];
        return ctg_nb_graph_node(&x->graph, vl->type_index, *order) == CTG_OK
                   ? CTG_OK
                   : ctg_reader_nomem(&x->rd);
    }
    if (which != JK_OTHER && (o = bus_of(x, vl, el->s[which], el->len[which])) != NULL)
        *order = o->type_index;
    return CTG_OK;
}

/* ---- shapes ---------------------------------------------------------------------------- */

static int spec_vlevel(jx_read *x, jx_el *el, ctg_net_spec *sp)
{
    if (!jx_el_has(el, JK_NOMINAL_V))
        return missing(x, el, JK_NOMINAL_V);
    if (!jx_el_has(el, JK_TOPOLOGY))
        return missing(x, el, JK_TOPOLOGY);
    sp->substation = el->scope->substation ? el->scope->substation->id : NULL;
    el->kn.substation = el->scope->substation;
    sp->nominal_v = el->nominal_v;
    sp->topology = (ctg_topology_kind)el->u[JK_TOPOLOGY];
    return CTG_OK;
}

static int spec_injection(jx_read *x, jx_el *el, ctg_net_spec *sp)
{
    const ctg_net_object *vl = el->scope->vlevel;

    sp->voltage_levels[0] = vl->id;
    el->kn.vl[0] = vl;
    sp->converter_kind = (ctg_converter_kind)el->k->converter;
    return terminal(x, el, 0, vl, &sp->order[0]);
}

/* Same node at both ends: PowSyBl drops such a switch in files before 1.8. */
static bool dropped_switch(const jx_read *x, const jx_el *el)
{
    if (x->minor >= 8)
        return false;
    if (jx_el_has(el, JK_NODE1) && jx_el_has(el, JK_NODE2))
        return el->u[JK_NODE1] == el->u[JK_NODE2];
    return jx_el_has(el, JK_BUS1) && jx_el_has(el, JK_BUS2) &&
           strcmp(el->s[JK_BUS1], el->s[JK_BUS2]) == 0;
}

static int spec_switch(jx_read *x, jx_el *el, ctg_net_spec *sp)
{
    const ctg_net_object *vl = el->scope->vlevel;
    bool merges;

    sp->voltage_levels[0] = vl->id;
    el->kn.vl[0] = vl;
    if (vl->container->topology != CTG_TOPOLOGY_NODE_BREAKER)
        return CTG_OK;
    if (!jx_el_has(el, JK_NODE1))
        return missing(x, el, JK_NODE1);
    if (!jx_el_has(el, JK_NODE2))
        return missing(x, el, JK_NODE2);
    merges = !(jx_el_has(el, JK_OPEN) && el->u[JK_OPEN]) &&
             !(jx_el_has(el, JK_RETAINED) && el->u[JK_RETAINED]);
    if (ctg_nb_graph_edge(&x->graph, vl->type_index, el->u[JK_NODE1], el->u[JK_NODE2], merges) !=
        CTG_OK)
        return ctg_reader_nomem(&x->rd);
    return CTG_OK;
}

/* An AC/DC converter of the detailed DC model: terminal 1, and terminal 2 when the element
 * places one, both in its voltage level. */
static int spec_acdc(jx_read *x, jx_el *el, ctg_net_spec *sp)
{
    const ctg_net_object *vl = el->scope->vlevel;
    int rc = terminal(x, el, 1, vl, &sp->order[0]);

    sp->voltage_levels[0] = vl->id;
    el->kn.vl[0] = vl;
    if (rc != CTG_OK ||
        !(jx_el_has(el, JK_NODE2) || jx_el_has(el, JK_BUS2) || jx_el_has(el, JK_CBUS2)))
        return rc;
    sp->voltage_levels[1] = vl->id;
    el->kn.vl[1] = vl;
    return terminal(x, el, 2, vl, &sp->order[1]);
}

/* An internal connection joins two nodes in the bus-breaker view; it is no object. */
static int add_internal(jx_read *x, jx_el *el)
{
    const ctg_net_object *vl = el->scope->vlevel;

    if (!jx_el_has(el, JK_NODE1))
        return missing(x, el, JK_NODE1);
    if (!jx_el_has(el, JK_NODE2))
        return missing(x, el, JK_NODE2);
    if (ctg_nb_graph_edge(&x->graph, vl->type_index, el->u[JK_NODE1], el->u[JK_NODE2], true) !=
        CTG_OK)
        return ctg_reader_nomem(&x->rd);
    return CTG_OK;
}

/* The voltage levels a branch names, looked up together (NULL where unnamed or unknown): a
 * line's levels are mostly far back in the document, out of the cache, and one after the
 * other each look-up and each level's member list would wait for the memory in turn. */
static void branch_levels(jx_read *x, const jx_el *el, const ctg_net_object *vl[3])
{
    unsigned legs = el->k->legs;

    /* The first is looked up at once: the others' objects come while it waits for its own. */
    for (unsigned i = 1; i < legs; i++)
        if (jx_el_has(el, (jx_key)(JK_VL1 + i)))
            ctg_net_index_prefetch_object(x->net, el->hash[JK_VL1 + i]);
    for (unsigned i = 0; i < legs; i++) {
        jx_key key = (jx_key)(JK_VL1 + i);
        vl[i] = jx_el_has(el, key) ? ctg_net_index_find_hashed(x->net, el->s[key], el->len[key],
                                                               el->hash[key])
                                   : NULL;
        if (vl[i] != NULL && vl[i]->type == CTG_IDENTIFIABLE_VOLTAGE_LEVEL)
            PREFETCH(vl[i]->container);
        else
            vl[i] = NULL;
    }
    for (unsigned i = 0; i < legs; i++)
        if (vl[i] != NULL)
            ctg_net_prefetch_members(vl[i]);
}

static int spec_branch(jx_read *x, jx_el *el, ctg_net_spec *sp)
{
    const ctg_net_object *found[3];

    branch_levels(x, el, found);
    /* The checks in their order, as if each level was looked up at its turn. */
    for (unsigned i = 0; i < el->k->legs; i++) {
        const ctg_net_object *vl = NULL;
        int rc = ref_found(x, el, (jx_key)(JK_VL1 + i), CTG_IDENTIFIABLE_VOLTAGE_LEVEL,
                           "voltage level", found[i], &vl);
        if (rc == CTG_OK)
            rc = terminal(x, el, i + 1, vl, &sp->order[i]);
        if (rc != CTG_OK)
            return rc;
        sp->voltage_levels[i] = vl->id;
        el->kn.vl[i] = vl;
    }
    if (el->k->type != CTG_IDENTIFIABLE_LINE && el->scope->substation) {
        sp->substation = el->scope->substation->id;
        el->kn.substation = el->scope->substation;
    }
    return CTG_OK;
}

static int spec_refs(jx_read *x, jx_el *el, ctg_net_spec *sp, jx_key k1, ctg_identifiable_type type,
                     const char *what)
{
    for (unsigned i = 0; i < 2; i++) {
        const ctg_net_object *o = NULL;
        int rc = ref(x, el, (jx_key)(k1 + i), type, what, &o);
        if (rc != CTG_OK)
            return rc;
        sp->refs[i] = o->id;
    }
    return CTG_OK;
}

/* ---- adding ---------------------------------------------------------------------------- */

/* Adds `sp`, whose id is member `id` of `el`, with what `kn` holds of the objects it names. */
static int add(jx_read *x, jx_el *el, const ctg_net_spec *sp, jx_key id, ctg_net_known *kn,
               ctg_net_object **out)
{
    ctg_net_object *obj = NULL;
    ctg_error e;
    int rc;

    kn->id_len = el->len[id];
    kn->id_hash = el->hash[id];
    /* The builder checks for a duplicate; the id is looked up again only when it refused. */
    rc = ctg_network_add_known(x->net, sp, kn, &obj, &e);
    *out = obj;
    if (rc == CTG_EINVAL && ctg_network_find(x->net, sp->id, kn->id_len))
        return ctg_reader_fail_at(&x->rd, &el->marks[JK_ID], "id", CTG_ESCHEMA,
                                  "duplicate id \"%s\"", sp->id);
    return rc == CTG_OK ? CTG_OK : refused(x, el, rc, &e);
}

/* A tie line before 1.10: both halves inline, created as boundary lines when it is read. */
static int add_halves(jx_read *x, jx_el *el, ctg_net_spec *tie)
{
    for (unsigned i = 0; i < 2; i++) {
        ctg_net_spec sp = CTG_NET_SPEC_INIT;
        ctg_net_known kn = { 0 };
        const ctg_net_object *vl = NULL;
        ctg_net_object *bl = NULL;
        jx_key id = (jx_key)(JK_ID_1 + i);
        int rc =
            ref(x, el, (jx_key)(JK_VL1 + i), CTG_IDENTIFIABLE_VOLTAGE_LEVEL, "voltage level", &vl);

        if (rc == CTG_OK && !jx_el_has(el, id))
            rc = missing(x, el, id);
        if (rc == CTG_OK)
            rc = terminal(x, el, i + 1, vl, &sp.order[0]);
        if (rc != CTG_OK)
            return rc;
        sp.type = CTG_IDENTIFIABLE_BOUNDARY_LINE;
        sp.id = el->s[id];
        sp.voltage_levels[0] = vl->id;
        sp.subnetwork = tie->subnetwork;
        kn.vl[0] = vl;
        kn.subnetwork = el->kn.subnetwork;
        el->marks[JK_ID] = el->marks[id];
        if ((rc = add(x, el, &sp, id, &kn, &bl)) != CTG_OK)
            return rc;
        tie->refs[i] = bl->id;
    }
    return CTG_OK;
}

static int spec_tie(jx_read *x, jx_el *el, ctg_net_spec *sp)
{
    ctg_mark id_mark = el->marks[JK_ID];
    int rc;

    if (x->minor >= 10)
        return spec_refs(x, el, sp, x->minor >= 16 ? JK_BL1 : JK_DL1,
                         CTG_IDENTIFIABLE_BOUNDARY_LINE, "boundary line");
    rc = add_halves(x, el, sp);
    el->marks[JK_ID] = id_mark;
    return rc;
}

static int fill_spec(jx_read *x, jx_el *el, ctg_net_spec *sp)
{
    switch (el->k->shape) {
    case JX_SUBSTATION:
        sp->country = jx_el_has(el, JK_COUNTRY) ? el->s[JK_COUNTRY] : NULL;
        return CTG_OK;
    case JX_VLEVEL:
        return spec_vlevel(x, el, sp);
    case JX_BUS:
        sp->voltage_levels[0] = el->scope->vlevel->id;
        el->kn.vl[0] = el->scope->vlevel;
        return CTG_OK;
    case JX_SWITCH:
        return spec_switch(x, el, sp);
    case JX_INJECTION:
        return spec_injection(x, el, sp);
    case JX_ACDC:
        return spec_acdc(x, el, sp);
    case JX_BRANCH:
        return spec_branch(x, el, sp);
    case JX_TIE:
        return spec_tie(x, el, sp);
    case JX_HVDC:
        return spec_refs(x, el, sp, JK_CS1, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION,
                         "converter station");
    default:
        if (el->k->type == CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM && el->scope->substation) {
            sp->substation = el->scope->substation->id;
            el->kn.substation = el->scope->substation;
        }
        return CTG_OK;
    }
}

/* The scope children of an identifiable container see. */
static void open_scope(jx_el *el)
{
    switch (el->k->shape) {
    case JX_SUBNET:
        el->inner.subnet = el->obj;
        break;
    case JX_SUBSTATION:
        el->inner.substation = el->obj;
        break;
    case JX_VLEVEL:
        el->inner.vlevel = el->obj;
        break;
    default:
        break;
    }
}

static int create_object(jx_read *x, jx_el *el)
{
    ctg_net_spec sp = CTG_NET_SPEC_INIT;
    int rc;

    if (!jx_el_has(el, JK_ID))
        return missing(x, el, JK_ID);
    sp.type = (ctg_identifiable_type)el->k->type;
    sp.id = el->s[JK_ID];
    /* No name: the table keeps none (check_name reads it without a copy). */
    sp.subnetwork = el->scope->subnet ? el->scope->subnet->id : NULL;
    memset(&el->kn, 0, sizeof el->kn);
    el->kn.subnetwork = el->scope->subnet;
    if ((rc = fill_spec(x, el, &sp)) != CTG_OK)
        return rc;
    if (el->k->shape == JX_SWITCH && dropped_switch(x, el)) {
        el->discarded = true;
        return CTG_OK;
    }
    if ((rc = add(x, el, &sp, JK_ID, &el->kn, &el->obj)) != CTG_OK)
        return rc;
    open_scope(el);
    return CTG_OK;
}

int jx_el_create(jx_read *x, jx_el *el)
{
    /* Errors name the element, not the member that made it come into the table. */
    ctg_path_frame *f = ctg_reader_top_frame(&x->rd), keep = *f;
    int rc = CTG_OK;

    if (el->created)
        return CTG_OK;
    el->created = true;
    f->key = NULL;
    if (el->k->shape == JX_ROOT) {
        if (!jx_el_has(el, JK_ID))
            return missing(x, el, JK_ID);
        rc = jx_create_network(x, el->s[JK_ID], &el->start);
        /* Mutable, for its properties: the importer owns the network. */
        el->obj = rc == CTG_OK ? ctg_network_find_mut(x->net, el->s[JK_ID], el->len[JK_ID]) : NULL;
    } else if (el->k->shape == JX_INTERNAL) {
        rc = add_internal(x, el);
    } else if (el->k->shape != JX_NBTOPO && el->k->shape != JX_BBTOPO) {
        rc = create_object(x, el);
    }
    /* The element's strings are in the table now (or no longer needed). */
    ctg_arena_reset(x->scratch);
    if (rc == CTG_OK)
        *ctg_reader_top_frame(&x->rd) = keep;
    return rc;
}
