/* SPDX-License-Identifier: MPL-2.0 */
/* What each XIIDM element builds in the equipment table, and which elements may stand where
 * in which version, as PowSyBl's reader decides (see docs/compatibility.md). Everything the
 * table does not hold (limits, tap changers, reactive curves, extensions) is skipped. */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/error_set.h"
#include "iidm/xiidm.h"
#include "json/lexer.h"
#include "network/table.h"

static const char *attr(const xreader *r, xattr a)
{
    return r->attrs[a];
}

static int missing(xreader *r, xattr a)
{
    return ctg_xiidm_fail(r, CTG_ESCHEMA, "missing attribute '%s'", ctg_xiidm_attr_name(a));
}

static int need(xreader *r, xattr a, const char **out)
{
    *out = r->attrs[a];
    return *out ? CTG_OK : missing(r, a);
}

/* A node number: a decimal integer of 32 bits at most. */
static int node_of(xreader *r, xattr a, uint32_t *out)
{
    const char *s = r->attrs[a];
    uint64_t v = 0;

    if (!s)
        return missing(r, a);
    for (size_t i = 0; s[i]; i++) {
        if (s[i] < '0' || s[i] > '9' || i >= 10)
            return ctg_xiidm_fail(r, CTG_ESCHEMA, "bad %s '%.40s': not a node number",
                                  ctg_xiidm_attr_name(a), s);
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (s[0] == '\0' || v >= CTG_NET_NO_ORDER)
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "bad %s '%.40s': not a node number",
                              ctg_xiidm_attr_name(a), s);
    *out = (uint32_t)v;
    return CTG_OK;
}

/* The attributes that place one terminal: its node, or its connectable bus (bus when the
 * file gives no connectableBus). */
typedef struct xterm {
    xattr node, cbus, bus;
} xterm;

static const xterm terminal_of[4] = {
    { XA_NODE, XA_CBUS, XA_BUS },
    { XA_NODE1, XA_CBUS1, XA_BUS1 },
    { XA_NODE2, XA_CBUS2, XA_BUS2 },
    { XA_NODE3, XA_CBUS3, XA_BUS3 },
};

/* Where a terminal stands in its voltage level `vl`, as PowSyBl lists a level's connectables:
 * a node-breaker level by node, a bus-breaker one by the order its buses were declared in
 * (buses come in document order, so a bus's document index orders them). */
static int order_at(xreader *r, const ctg_net_object *o, const xterm *t, uint32_t *out)
{
    const char *vl = o ? o->id : NULL;
    const char *bus;
    const ctg_net_object *b;

    *out = CTG_NET_NO_ORDER;
    if (!o || !o->container || o->type != CTG_IDENTIFIABLE_VOLTAGE_LEVEL)
        return CTG_OK; /* the table says what is wrong */
    if (o->container->topology == CTG_TOPOLOGY_NODE_BREAKER)
        return node_of(r, t->node, out);
    bus = r->attrs[t->cbus] ? r->attrs[t->cbus] : r->attrs[t->bus];
    if (!bus)
        return missing(r, t->cbus);
    b = ctg_network_find(r->net, bus, strlen(bus));
    if (!b || b->type != CTG_IDENTIFIABLE_BUS || b->voltage_levels[0] != o)
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "unknown bus '%.100s' in voltage level '%.100s'", bus,
                              vl);
    *out = b->doc_index;
    return CTG_OK;
}

/* order_at for the voltage level named `vl`, side `side` of the spec. An injection's level is
 * the open one, found already. For a branch's, the level is not looked up: a terminal with a
 * node is taken as node-breaker (add() checks the level once the table has found it), one
 * with a bus must name a bus of that level. Only a failure looks further. */
static int order_in(xreader *r, const char *vl, const xterm *t, int side, uint32_t *out)
{
    const ctg_net_object *o, *b;
    const char *bus;

    if (r->vl && vl == r->vl->id)
        return order_at(r, r->vl, t, out);
    *out = CTG_NET_NO_ORDER;
    if (!vl)
        return CTG_OK;
    if (r->attrs[t->node]) {
        r->by_node[side] = t;
        return node_of(r, t->node, out);
    }
    bus = r->attrs[t->cbus] ? r->attrs[t->cbus] : r->attrs[t->bus];
    b = bus ? ctg_network_find(r->net, bus, strlen(bus)) : NULL;
    if (b && b->type == CTG_IDENTIFIABLE_BUS && strcmp(b->voltage_levels[0]->id, vl) == 0) {
        *out = b->doc_index;
        return CTG_OK;
    }
    o = ctg_network_find(r->net, vl, strlen(vl));
    return order_at(r, o, t, out); /* says what is wrong, or leaves it to the table */
}

/* A terminal placed by its node must stand in a node-breaker level. */
static int check_nodes(xreader *r, const ctg_net_object *o)
{
    for (int i = 0; i < 3; i++) {
        const xterm *t = r->by_node[i];
        if (t && o->voltage_levels[i]->container->topology != CTG_TOPOLOGY_NODE_BREAKER)
            return missing(r, t->cbus);
    }
    return CTG_OK;
}

static const char *subnetwork_id(const xreader *r)
{
    return r->subnetwork ? r->subnetwork->id : NULL;
}

static bool known_as(const xreader *r, const char *id, ctg_identifiable_type t)
{
    const ctg_net_object *o = id ? ctg_network_find(r->net, id, strlen(id)) : NULL;
    return o && o->type == t;
}

/* Says what was wrong with a spec the table refused: our own words for what this importer
 * checks (duplicates, references), the table's for anything else. */
static int refused(xreader *r, const ctg_net_spec *s, const ctg_error *why)
{
    if (ctg_network_find(r->net, s->id, strlen(s->id)))
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "duplicate id '%.100s'", s->id);
    for (int i = 0; i < 3; i++)
        if (s->voltage_levels[i] &&
            !known_as(r, s->voltage_levels[i], CTG_IDENTIFIABLE_VOLTAGE_LEVEL))
            return ctg_xiidm_fail(r, CTG_ESCHEMA, "unknown voltage level '%.100s'",
                                  s->voltage_levels[i]);
    if (s->substation && !known_as(r, s->substation, CTG_IDENTIFIABLE_SUBSTATION))
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "unknown substation '%.100s'", s->substation);
    for (int i = 0; i < 2; i++) {
        if (s->type == CTG_IDENTIFIABLE_TIE_LINE &&
            !known_as(r, s->refs[i], CTG_IDENTIFIABLE_BOUNDARY_LINE))
            return ctg_xiidm_fail(r, CTG_ESCHEMA, "unknown boundary line '%.100s'", s->refs[i]);
        if (s->type == CTG_IDENTIFIABLE_HVDC_LINE &&
            !known_as(r, s->refs[i], CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION))
            return ctg_xiidm_fail(r, CTG_ESCHEMA, "unknown converter station '%.100s'", s->refs[i]);
    }
    return ctg_xiidm_fail(r, CTG_ESCHEMA, "%s", why->message);
}

/* What the add of `s` need not look up: the open containers, where `s` names them by their
 * own id text (the pointer, so it is that object). */
static ctg_net_known known_of(const xreader *r, const ctg_net_spec *s)
{
    ctg_net_known kn = { 0 };

    if (s->id == NULL) /* refused by the add, which reads nothing known before the id */
        return kn;
    kn.id_len = strlen(s->id);
    kn.id_hash = ctg_net_index_hash(s->id, kn.id_len);
    for (int i = 0; i < 3; i++)
        if (r->vl && s->voltage_levels[i] == r->vl->id)
            kn.vl[i] = r->vl;
    if (r->substation && s->substation == r->substation->id)
        kn.substation = r->substation;
    if (r->subnetwork && s->subnetwork == r->subnetwork->id)
        kn.subnetwork = r->subnetwork;
    return kn;
}

/* Adds the object of `s` and makes it the current frame's. */
static int add(xreader *r, ctg_net_spec *s, ctg_net_object **out)
{
    ctg_error why;
    ctg_net_object *o = NULL;
    int rc;

    s->subnetwork = subnetwork_id(r);
    ctg_net_known kn = known_of(r, s);
    rc = ctg_network_add_known(r->net, s, &kn, &o, &why);
    if (rc == CTG_ENOMEM)
        return ctg_xiidm_fail(r, CTG_ENOMEM, "out of memory");
    if (rc != CTG_OK)
        return refused(r, s, &why);
    r->frames[r->nframes - 1].obj = o;
    if (check_nodes(r, o) != CTG_OK)
        return r->rc;
    r->by_node[0] = r->by_node[1] = r->by_node[2] = NULL;
    for (int i = 0; i < 3; i++)
        if (s->order[i] != CTG_NET_NO_ORDER && o->voltage_levels[i] &&
            o->voltage_levels[i]->container->topology == CTG_TOPOLOGY_NODE_BREAKER &&
            ctg_xiidm_nb_terminal(r, o->voltage_levels[i], s->order[i]) != CTG_OK)
            return r->rc;
    if (out)
        *out = o;
    return CTG_OK;
}

/* A spec of type `t` with the element's id and name. */
static int spec_of(xreader *r, ctg_identifiable_type t, ctg_net_spec *s)
{
    static const ctg_net_spec init = CTG_NET_SPEC_INIT;

    *s = init;
    s->type = t;
    r->by_node[0] = r->by_node[1] = r->by_node[2] = NULL;
    s->name = attr(r, XA_NAME);
    return need(r, XA_ID, &s->id);
}

/* ---- version gates ---- */

static int too_old(xreader *r, const char *what, unsigned since)
{
    return ctg_xiidm_fail(r, CTG_ESCHEMA,
                          "%s is not supported for IIDM version 1.%u (1.%u "
                          "or newer)",
                          what, r->minor, since);
}

static int too_new(xreader *r, const char *what, unsigned until)
{
    return ctg_xiidm_fail(r, CTG_ESCHEMA,
                          "%s is not supported for IIDM version 1.%u (1.%u "
                          "or older)",
                          what, r->minor, until);
}

static int unknown_child(xreader *r)
{
    const xframe *parent = &r->frames[r->nframes - 2];
    return ctg_xiidm_fail(r, CTG_ESCHEMA, "unknown element '%.64s' in '%s'", r->local,
                          ctg_xiidm_kind_name(parent->kind));
}

/* ---- containers ---- */

static int set_version(xreader *r)
{
    char v[16];
    snprintf(v, sizeof v, "1.%u", r->minor);
    if (ctg_network_set_iidm_version(r->net, v) != CTG_OK)
        return ctg_xiidm_fail(r, CTG_ENOMEM, "out of memory");
    return CTG_OK;
}

static int start_root(xreader *r)
{
    const char *id;
    ctg_error why;
    int rc;

    if (need(r, XA_ID, &id) != CTG_OK)
        return r->rc;
    if (id[0] == '\0')
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "empty id");
    rc = ctg_network_new(&r->net, id, r->in->opts->allocator, &why);
    if (rc == CTG_OK) /* a hint (about 300 bytes of XIIDM an object): on failure, grow instead */
        (void)ctg_network_reserve(r->net, r->in->size_hint / 300);
    if (rc != CTG_OK)
        return ctg_xiidm_fail(r, rc == CTG_ENOMEM ? CTG_ENOMEM : CTG_ESCHEMA, "%s", why.message);
    r->frames[0].obj = ctg_network_find_mut(r->net, id, strlen(id));
    return set_version(r);
}

static int start_subnetwork(xreader *r)
{
    ctg_net_spec s;

    if (r->minor < 11)
        return too_old(r, "network.network", 11);
    if (r->subnetwork)
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "only one level of subnetworks is supported");
    if (spec_of(r, CTG_IDENTIFIABLE_NETWORK, &s) != CTG_OK)
        return r->rc;
    if (add(r, &s, &r->subnetwork) != CTG_OK)
        return r->rc;
    return CTG_OK;
}

static int start_substation(xreader *r)
{
    ctg_net_spec s;

    if (spec_of(r, CTG_IDENTIFIABLE_SUBSTATION, &s) != CTG_OK)
        return r->rc;
    s.country = attr(r, XA_COUNTRY);
    return add(r, &s, &r->substation);
}

/* A nominal voltage, read the same in every locale. */
static int nominal_v(xreader *r, double *out)
{
    const char *s;

    if (need(r, XA_NOMINAL_V, &s) != CTG_OK)
        return r->rc;
    if (strcmp(s, "NaN") == 0) {
        *out = NAN;
        return CTG_OK;
    }
    if (!ctg_parse_double(s, strlen(s), out))
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "bad nominalV '%.40s': not a number", s);
    return CTG_OK;
}

static int start_voltage_level(xreader *r)
{
    ctg_net_spec s;
    const char *kind;

    if (spec_of(r, CTG_IDENTIFIABLE_VOLTAGE_LEVEL, &s) != CTG_OK ||
        nominal_v(r, &s.nominal_v) != CTG_OK || need(r, XA_TOPOLOGY_KIND, &kind) != CTG_OK)
        return r->rc;
    if (strcmp(kind, "NODE_BREAKER") == 0)
        s.topology = CTG_TOPOLOGY_NODE_BREAKER;
    else if (strcmp(kind, "BUS_BREAKER") == 0)
        s.topology = CTG_TOPOLOGY_BUS_BREAKER;
    else
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "bad topologyKind '%.40s'", kind);
    s.substation = r->substation ? r->substation->id : NULL;
    r->topology = s.topology;
    return add(r, &s, &r->vl);
}

/* ---- equipment ---- */

static int start_injection(xreader *r, ctg_identifiable_type t, ctg_converter_kind ck)
{
    ctg_net_spec s;

    if (spec_of(r, t, &s) != CTG_OK)
        return r->rc;
    s.voltage_levels[0] = r->vl->id;
    s.converter_kind = ck;
    if (order_in(r, r->vl->id, &terminal_of[0], 0, &s.order[0]) != CTG_OK)
        return r->rc;
    return add(r, &s, NULL);
}

/* An AC/DC converter of the detailed DC model: two AC terminals in its voltage level. */
static int start_converter(xreader *r, ctg_identifiable_type t)
{
    ctg_net_spec s;

    if (r->minor < 15)
        return too_old(r, ctg_xiidm_kind_name(r->frames[r->nframes - 1].kind), 15);
    if (spec_of(r, t, &s) != CTG_OK)
        return r->rc;
    s.voltage_levels[0] = r->vl->id;
    if (order_in(r, r->vl->id, &terminal_of[1], 0, &s.order[0]) != CTG_OK)
        return r->rc;
    /* The second AC terminal is optional. */
    if (attr(r, XA_NODE2) || attr(r, XA_BUS2) || attr(r, XA_CBUS2)) {
        s.voltage_levels[1] = r->vl->id;
        if (order_in(r, r->vl->id, &terminal_of[2], 1, &s.order[1]) != CTG_OK)
            return r->rc;
    }
    return add(r, &s, NULL);
}

static int start_busbar_section(xreader *r)
{
    ctg_net_spec s;

    if (spec_of(r, CTG_IDENTIFIABLE_BUSBAR_SECTION, &s) != CTG_OK ||
        node_of(r, XA_NODE, &s.order[0]) != CTG_OK)
        return r->rc;
    s.voltage_levels[0] = r->vl->id;
    return add(r, &s, NULL);
}

static int start_bus(xreader *r)
{
    ctg_net_spec s;

    if (spec_of(r, CTG_IDENTIFIABLE_BUS, &s) != CTG_OK)
        return r->rc;
    s.voltage_levels[0] = r->vl->id;
    return add(r, &s, NULL);
}

static bool is_true(const char *v)
{
    return v && strcmp(v, "true") == 0;
}

/* Before 1.8, PowSyBl drops a switch whose two ends are the same node or bus. */
static bool same_ends(const xreader *r)
{
    const char *a = attr(r, XA_NODE1), *b = attr(r, XA_NODE2);
    if (!a || !b) {
        a = attr(r, XA_BUS1);
        b = attr(r, XA_BUS2);
    }
    return a && b && strcmp(a, b) == 0;
}

static int start_switch(xreader *r, bool *follow)
{
    ctg_net_spec s;
    uint32_t n1, n2;

    if (spec_of(r, CTG_IDENTIFIABLE_SWITCH, &s) != CTG_OK)
        return r->rc;
    if (r->topology == CTG_TOPOLOGY_NODE_BREAKER &&
        (node_of(r, XA_NODE1, &n1) != CTG_OK || node_of(r, XA_NODE2, &n2) != CTG_OK))
        return r->rc;
    if (r->topology == CTG_TOPOLOGY_BUS_BREAKER && !attr(r, XA_BUS1))
        return missing(r, XA_BUS1);
    if (r->topology == CTG_TOPOLOGY_BUS_BREAKER && !attr(r, XA_BUS2))
        return missing(r, XA_BUS2);
    if (r->minor < 8 && same_ends(r)) {
        *follow = false;
        return CTG_OK;
    }
    s.voltage_levels[0] = r->vl->id;
    if (add(r, &s, NULL) != CTG_OK)
        return r->rc;
    if (r->topology != CTG_TOPOLOGY_NODE_BREAKER)
        return CTG_OK;
    return ctg_xiidm_nb_switch(r, n1, n2,
                               !is_true(attr(r, XA_OPEN)) && !is_true(attr(r, XA_RETAINED)));
}

/* A branch of two or three terminals, each in the voltage level its voltageLevelIdN names. */
static int start_branch(xreader *r, ctg_identifiable_type t, int sides)
{
    static const xattr vls[3] = { XA_VL1, XA_VL2, XA_VL3 };
    ctg_net_spec s;

    if (spec_of(r, t, &s) != CTG_OK)
        return r->rc;
    for (int i = 0; i < sides; i++)
        if (need(r, vls[i], &s.voltage_levels[i]) != CTG_OK ||
            order_in(r, s.voltage_levels[i], &terminal_of[i + 1], i, &s.order[i]) != CTG_OK)
            return r->rc;
    if (t != CTG_IDENTIFIABLE_LINE)
        s.substation = r->substation->id;
    return add(r, &s, NULL);
}

/* Up to 1.9 a tie line holds its two halves: they become boundary lines when it is read,
 * after the voltage levels' own, so last in their voltage levels and in their type. */
static int inline_half(xreader *r, int side, const char **out)
{
    static const xattr ids[2] = { XA_ID_1, XA_ID_2 };
    static const xattr names[2] = { XA_NAME_1, XA_NAME_2 };
    static const xattr vls[2] = { XA_VL1, XA_VL2 };
    static const ctg_net_spec init = CTG_NET_SPEC_INIT;
    ctg_net_spec s = init;

    s.type = CTG_IDENTIFIABLE_BOUNDARY_LINE;
    s.name = attr(r, names[side]);
    if (need(r, ids[side], &s.id) != CTG_OK || need(r, vls[side], &s.voltage_levels[0]) != CTG_OK ||
        order_in(r, s.voltage_levels[0], &terminal_of[side + 1], 0, &s.order[0]) != CTG_OK)
        return r->rc;
    *out = s.id;
    return add(r, &s, NULL);
}

static int start_tie_line(xreader *r)
{
    ctg_net_spec s;
    xattr a1 = r->minor >= 16 ? XA_BL1 : XA_DL1, a2 = r->minor >= 16 ? XA_BL2 : XA_DL2;

    if (spec_of(r, CTG_IDENTIFIABLE_TIE_LINE, &s) != CTG_OK)
        return r->rc;
    if (r->minor <= 9) {
        if (inline_half(r, 0, &s.refs[0]) != CTG_OK || inline_half(r, 1, &s.refs[1]) != CTG_OK)
            return r->rc;
    } else if (need(r, a1, &s.refs[0]) != CTG_OK || need(r, a2, &s.refs[1]) != CTG_OK) {
        return r->rc;
    }
    return add(r, &s, NULL);
}

static int start_hvdc_line(xreader *r)
{
    ctg_net_spec s;

    if (spec_of(r, CTG_IDENTIFIABLE_HVDC_LINE, &s) != CTG_OK ||
        need(r, XA_CS1, &s.refs[0]) != CTG_OK || need(r, XA_CS2, &s.refs[1]) != CTG_OK)
        return r->rc;
    return add(r, &s, NULL);
}

static int start_plain(xreader *r, ctg_identifiable_type t, const char *sub)
{
    ctg_net_spec s;

    if (spec_of(r, t, &s) != CTG_OK)
        return r->rc;
    s.substation = sub;
    return add(r, &s, NULL);
}

static int start_dc(xreader *r, ctg_identifiable_type t)
{
    if (r->minor < 15)
        return too_old(r, "network.dcNode", 15);
    return start_plain(r, t, NULL);
}

/* ---- properties and aliases ---- */

static ctg_net_object *owner(const xreader *r)
{
    return r->nframes >= 2 ? r->frames[r->nframes - 2].obj : NULL;
}

static int start_property(xreader *r)
{
    ctg_net_object *o = owner(r);
    const char *key, *value;
    ctg_error why;
    int rc;

    if (need(r, XA_NAME, &key) != CTG_OK || need(r, XA_VALUE, &value) != CTG_OK)
        return r->rc;
    if (!o)
        return CTG_OK;
    rc = ctg_network_set_property_obj(r->net, o, key, strlen(key), value, strlen(value), &why);
    if (rc != CTG_OK)
        return ctg_xiidm_fail(r, rc == CTG_ENOMEM ? CTG_ENOMEM : CTG_ESCHEMA, "%s",
                              rc == CTG_ENOMEM ? "out of memory" : why.message);
    return CTG_OK;
}

static int add_alias(xreader *r)
{
    ctg_net_object *o = owner(r);
    const char *alias = r->text ? r->text : "";
    ctg_error why;
    int rc;

    if (!o)
        return CTG_OK;
    if (alias[0] == '\0')
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "empty alias");
    if (ctg_network_find(r->net, alias, strlen(alias)))
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "duplicate id or alias '%.100s'", alias);
    rc = ctg_network_add_alias_obj(r->net, o, alias, r->text_len, &why);
    if (rc != CTG_OK)
        return ctg_xiidm_fail(r, rc == CTG_ENOMEM ? CTG_ENOMEM : CTG_ESCHEMA, "%s",
                              rc == CTG_ENOMEM ? "out of memory" : why.message);
    return CTG_OK;
}

static int end_alias(xreader *r)
{
    int rc = add_alias(r);
    ctg_xiidm_collect_text(r, false);
    return rc;
}

/* ---- where each element may stand ---- */

static int in_any(xreader *r, xkind k, bool *follow)
{
    switch (k) {
    case XK_PROPERTY:
        return start_property(r);
    case XK_ALIAS:
        ctg_xiidm_collect_text(r, true);
        return CTG_OK;
    default:
        *follow = false; /* what the table does not hold */
        return CTG_OK;
    }
}

static int in_network(xreader *r, xkind k, bool *follow)
{
    switch (k) {
    case XK_NETWORK:
        return start_subnetwork(r);
    case XK_SUBSTATION:
        return start_substation(r);
    case XK_VOLTAGE_LEVEL:
        return start_voltage_level(r);
    case XK_LINE:
        return start_branch(r, CTG_IDENTIFIABLE_LINE, 2);
    case XK_TIE_LINE:
        return start_tie_line(r);
    case XK_HVDC_LINE:
        return start_hvdc_line(r);
    case XK_AREA:
        return start_plain(r, CTG_IDENTIFIABLE_AREA, NULL);
    case XK_DC_NODE:
        return start_dc(r, CTG_IDENTIFIABLE_DC_NODE);
    case XK_DC_SWITCH:
        return start_dc(r, CTG_IDENTIFIABLE_DC_SWITCH);
    case XK_DC_GROUND:
        return start_dc(r, CTG_IDENTIFIABLE_DC_GROUND);
    case XK_DC_LINE:
        return start_dc(r, CTG_IDENTIFIABLE_DC_LINE);
    case XK_PROPERTY:
    case XK_ALIAS:
    case XK_EXTENSION:
    case XK_VOLTAGE_ANGLE_LIMIT:
        return in_any(r, k, follow);
    default:
        /* Transformers too: PowSyBl reads them only in a substation. */
        return unknown_child(r);
    }
}

static int in_substation(xreader *r, xkind k, bool *follow)
{
    switch (k) {
    case XK_VOLTAGE_LEVEL:
        return start_voltage_level(r);
    case XK_TWO_WINDINGS_TRANSFORMER:
        return start_branch(r, CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER, 2);
    case XK_THREE_WINDINGS_TRANSFORMER:
        return start_branch(r, CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER, 3);
    case XK_OVERLOAD_MANAGEMENT_SYSTEM:
        return start_plain(r, CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM, r->substation->id);
    case XK_PROPERTY:
    case XK_ALIAS:
        return in_any(r, k, follow);
    default:
        return unknown_child(r);
    }
}

/* The 1.16 renames: the old names up to 1.15, the new ones from 1.16. */
static int renamed(xreader *r, xkind k, ctg_identifiable_type t)
{
    bool old = k == XK_SHUNT || k == XK_DANGLING_LINE;
    const char *name = ctg_xiidm_kind_name(k);

    if (old && r->minor >= 16)
        return too_new(r, name, 15);
    if (!old && r->minor < 16)
        return too_old(r, name, 16);
    return start_injection(r, t, CTG_CONVERTER_NONE);
}

static int in_voltage_level(xreader *r, xkind k, bool *follow)
{
    switch (k) {
    case XK_BUS_BREAKER_TOPOLOGY:
    case XK_NODE_BREAKER_TOPOLOGY:
        if ((k == XK_NODE_BREAKER_TOPOLOGY) != (r->topology == CTG_TOPOLOGY_NODE_BREAKER))
            return ctg_xiidm_fail(r, CTG_ESCHEMA,
                                  "%s in a voltage level of the other "
                                  "topology kind",
                                  ctg_xiidm_kind_name(k));
        return CTG_OK;
    case XK_GENERATOR:
        return start_injection(r, CTG_IDENTIFIABLE_GENERATOR, CTG_CONVERTER_NONE);
    case XK_LOAD:
        return start_injection(r, CTG_IDENTIFIABLE_LOAD, CTG_CONVERTER_NONE);
    case XK_BATTERY:
        return start_injection(r, CTG_IDENTIFIABLE_BATTERY, CTG_CONVERTER_NONE);
    case XK_STATIC_VAR_COMPENSATOR:
        return start_injection(r, CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR, CTG_CONVERTER_NONE);
    case XK_GROUND:
        return start_injection(r, CTG_IDENTIFIABLE_GROUND, CTG_CONVERTER_NONE);
    case XK_LCC_CONVERTER_STATION:
        return start_injection(r, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, CTG_CONVERTER_LCC);
    case XK_VSC_CONVERTER_STATION:
        return start_injection(r, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, CTG_CONVERTER_VSC);
    case XK_SHUNT:
    case XK_SHUNT_COMPENSATOR:
        return renamed(r, k, CTG_IDENTIFIABLE_SHUNT_COMPENSATOR);
    case XK_DANGLING_LINE:
    case XK_BOUNDARY_LINE:
        return renamed(r, k, CTG_IDENTIFIABLE_BOUNDARY_LINE);
    case XK_VOLTAGE_SOURCE_CONVERTER:
        return start_converter(r, CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER);
    case XK_LINE_COMMUTATED_CONVERTER:
        return start_converter(r, CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER);
    case XK_PROPERTY:
    case XK_ALIAS:
        return in_any(r, k, follow);
    default:
        return unknown_child(r);
    }
}

static int in_topology(xreader *r, xkind parent, xkind k, bool *follow)
{
    if (k == XK_SWITCH)
        return start_switch(r, follow);
    if (parent == XK_BUS_BREAKER_TOPOLOGY && k == XK_BUS)
        return start_bus(r);
    if (parent == XK_NODE_BREAKER_TOPOLOGY && k == XK_BUSBAR_SECTION)
        return start_busbar_section(r);
    if (parent == XK_NODE_BREAKER_TOPOLOGY && k == XK_INTERNAL_CONNECTION)
        return ctg_xiidm_nb_internal(r, follow);
    /* A node-breaker level's calculated buses and fictitious injections: not kept. */
    if (parent == XK_NODE_BREAKER_TOPOLOGY && (k == XK_BUS || k == XK_OTHER)) {
        *follow = false;
        return CTG_OK;
    }
    return unknown_child(r);
}

static int dispatch(xreader *r, xkind parent, xkind k, bool *follow)
{
    switch (parent) {
    case XK_COUNT:
        return start_root(r);
    case XK_NETWORK:
        return in_network(r, k, follow);
    case XK_SUBSTATION:
        return in_substation(r, k, follow);
    case XK_VOLTAGE_LEVEL:
        return in_voltage_level(r, k, follow);
    case XK_BUS_BREAKER_TOPOLOGY:
    case XK_NODE_BREAKER_TOPOLOGY:
        return in_topology(r, parent, k, follow);
    case XK_PROPERTY:
    case XK_ALIAS:
        *follow = false;
        return CTG_OK;
    default:
        return in_any(r, k, follow);
    }
}

int ctg_xiidm_start(xreader *r, xkind k, bool *follow)
{
    xframe *f;
    int rc;

    *follow = true;
    if (r->nframes == XIIDM_MAX_FRAMES) {
        *follow = false;
        return CTG_OK;
    }
    f = &r->frames[r->nframes];
    f->kind = k;
    f->index = r->nframes ? ++r->frames[r->nframes - 1].counts[k] : 1;
    f->obj = NULL;
    memset(f->counts, 0, sizeof f->counts);
    r->nframes++;
    rc = dispatch(r, r->nframes >= 2 ? r->frames[r->nframes - 2].kind : XK_COUNT, k, follow);
    if (rc != CTG_OK || !*follow)
        r->nframes--;
    return rc;
}

int ctg_xiidm_end(xreader *r)
{
    const xframe *f = &r->frames[r->nframes - 1];
    int rc = CTG_OK;

    switch (f->kind) {
    case XK_ALIAS:
        rc = end_alias(r);
        break;
    case XK_SUBSTATION:
        r->substation = NULL;
        break;
    case XK_VOLTAGE_LEVEL:
        rc = ctg_xiidm_nb_level_end(r);
        r->vl = NULL;
        break;
    case XK_NETWORK:
        if (r->nframes >= 2)
            r->subnetwork = NULL;
        break;
    default:
        break;
    }
    r->nframes--;
    return rc;
}
