/* SPDX-License-Identifier: MPL-2.0 */
/* ctg_network_write_json: the whole table in the schema of PowSyBl's reference tables (the
 * iidm-golden data): what the table holds, in the goldens' member order, so that a table and
 * a golden compare with any script. Fields the table does not hold (names, case date, tso,
 * geographical tags, pairing keys, switch kind and state, extensions, alias types, ...) are
 * not written. Everything sorted is sorted by strcmp, the byte order of the UTF-8 text. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "io/output.h"
#include "json/emit.h"
#include "network/table_impl.h"

/* The writer's state: the emitter and one scratch array for every sort. */
typedef struct dump {
    ctg_emitter *e;
    const ctg_network *net;
    const void **scratch;
} dump;

static void key(ctg_emitter *e, const char *k)
{
    ctg_emit_key(e, k, strlen(k));
}

static void str(ctg_emitter *e, const char *s)
{
    if (s)
        ctg_emit_string(e, s, strlen(s));
    else
        ctg_emit_null(e);
}

static void member(ctg_emitter *e, const char *k, const char *s)
{
    key(e, k);
    str(e, s);
}

static const char *id_of(const ctg_net_object *obj)
{
    return obj ? obj->id : NULL;
}

static int by_id(const void *a, const void *b)
{
    return strcmp((*(const ctg_net_object *const *)a)->id, (*(const ctg_net_object *const *)b)->id);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int by_key(const void *a, const void *b)
{
    return strcmp((*(const ctg_net_property *const *)a)->key,
                  (*(const ctg_net_property *const *)b)->key);
}

/* "aliases": [{"alias": ...}] and "properties": {...}, both sorted, when the object has any. */
static void write_names(dump *d, const ctg_net_object *obj)
{
    ctg_emitter *e = d->e;

    const ctg_net_attrs *a = obj->attrs;

    if (a && a->alias_count) {
        memcpy(d->scratch, a->aliases, a->alias_count * sizeof *a->aliases);
        qsort(d->scratch, a->alias_count, sizeof *d->scratch, by_text);
        key(e, "aliases");
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < a->alias_count; i++) {
            ctg_emit_object_begin(e);
            member(e, "alias", d->scratch[i]);
            ctg_emit_object_end(e);
        }
        ctg_emit_array_end(e);
    }
    if (a && a->property_count) {
        for (size_t i = 0; i < a->property_count; i++)
            d->scratch[i] = &a->properties[i];
        qsort(d->scratch, a->property_count, sizeof *d->scratch, by_key);
        key(e, "properties");
        ctg_emit_object_begin(e);
        for (size_t i = 0; i < a->property_count; i++) {
            const ctg_net_property *p = d->scratch[i];
            member(e, p->key, p->value);
        }
        ctg_emit_object_end(e);
    }
}

static void id_array(ctg_emitter *e, const char *k, const ctg_net_object *const *objs, size_t n)
{
    key(e, k);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++)
        str(e, objs[i]->id);
    ctg_emit_array_end(e);
}

static void write_voltage_level(ctg_emitter *e, const ctg_net_object *obj)
{
    const ctg_net_container *c = obj->container;

    key(e, "nominalV");
    if (isnan(c->nominal_v))
        str(e, "NaN");
    else
        ctg_emit_double(e, c->nominal_v);
    member(e, "substation", id_of(obj->substation));
    bool bb = c->topology == CTG_TOPOLOGY_BUS_BREAKER;
    member(e, "topologyKind", bb ? "BUS_BREAKER" : "NODE_BREAKER");
    id_array(e, "connectables", c->members, c->member_count);
    key(e, "connectableTypes");
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < c->member_count; i++)
        str(e, ctg_identifiable_type_name(c->members[i]->type));
    ctg_emit_array_end(e);
    if (bb) {
        id_array(e, "busBreakerBuses", c->buses, c->bus_count);
        return;
    }
    key(e, "calculatedBusBreakerBuses");
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < c->calculated_bus_count; i++)
        str(e, c->calculated_buses[i]);
    ctg_emit_array_end(e);
}

static void side_levels(ctg_emitter *e, const ctg_net_object *obj, unsigned n)
{
    static const char *const names[] = { "voltageLevel1", "voltageLevel2", "voltageLevel3" };
    for (unsigned i = 0; i < n; i++)
        member(e, names[i], id_of(obj->voltage_levels[i]));
}

/* The root's "subnetworks": the ids of the other NETWORK objects, when there are any. */
static void write_network(const dump *d, const ctg_net_object *obj)
{
    const ctg_net_vec *v = &d->net->types[CTG_IDENTIFIABLE_NETWORK];
    if (obj != ctg_net_doc(d->net, 0) || v->len < 2)
        return;
    key(d->e, "subnetworks");
    ctg_emit_array_begin(d->e);
    for (size_t i = 1; i < v->len; i++)
        str(d->e, ctg_net_vec_at(v, i)->id);
    ctg_emit_array_end(d->e);
}

/* A tie line's boundary lines or an HVDC line's converter stations, then their levels. */
static void write_pair(ctg_emitter *e, const ctg_net_object *obj)
{
    bool tie = obj->type == CTG_IDENTIFIABLE_TIE_LINE;

    member(e, tie ? "boundaryLine1" : "converterStation1", obj->refs[0]->id);
    member(e, tie ? "boundaryLine2" : "converterStation2", obj->refs[1]->id);
    side_levels(e, obj, 2);
}

/* The placement fields of `obj`'s type, as the goldens name them. */
static void write_placement(const dump *d, const ctg_net_object *obj)
{
    ctg_emitter *e = d->e;

    switch (obj->type) {
    case CTG_IDENTIFIABLE_NETWORK:
        write_network(d, obj);
        break;
    case CTG_IDENTIFIABLE_SUBSTATION:
        member(e, "country", obj->container->country);
        id_array(e, "voltageLevels", obj->container->members, obj->container->member_count);
        break;
    case CTG_IDENTIFIABLE_VOLTAGE_LEVEL:
        write_voltage_level(e, obj);
        break;
    case CTG_IDENTIFIABLE_LINE:
    case CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER:
    case CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER:
        side_levels(e, obj, 2);
        break;
    case CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER:
    case CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER:
        side_levels(e, obj, obj->type == CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER ? 2 : 3);
        member(e, "substation", id_of(obj->substation));
        break;
    case CTG_IDENTIFIABLE_TIE_LINE:
    case CTG_IDENTIFIABLE_HVDC_LINE:
        write_pair(e, obj);
        break;
    case CTG_IDENTIFIABLE_BOUNDARY_LINE:
        member(e, "voltageLevel", id_of(obj->voltage_levels[0]));
        key(e, "paired");
        ctg_emit_bool(e, obj->refs[0] != NULL);
        member(e, "tieLine", id_of(obj->refs[0]));
        break;
    case CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION:
        member(e, "voltageLevel", id_of(obj->voltage_levels[0]));
        member(e, "converterKind", obj->converter_kind == CTG_CONVERTER_LCC ? "LCC" : "VSC");
        member(e, "hvdcLine", id_of(obj->refs[0]));
        break;
    case CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM:
        member(e, "substation", id_of(obj->substation));
        break;
    default: /* injections, switches, buses: their voltage level; the others: nothing */
        if (obj->voltage_levels[0])
            member(e, "voltageLevel", obj->voltage_levels[0]->id);
        break;
    }
}

static void write_object(dump *d, const ctg_net_object *obj)
{
    ctg_emitter *e = d->e;

    ctg_emit_object_begin(e);
    member(e, "id", obj->id);
    member(e, "type", ctg_identifiable_type_name(obj->type));
    write_names(d, obj);
    if (ctg_net_object_subnetwork(obj))
        member(e, "subnetwork", ctg_net_object_subnetwork(obj)->id);
    write_placement(d, obj);
    ctg_emit_object_end(e);
}

/* "counts": per type with objects, in type order, BUS (declared buses) last as in the goldens. */
static void write_counts(const dump *d)
{
    ctg_emitter *e = d->e;

    key(e, "counts");
    ctg_emit_object_begin(e);
    for (unsigned t = 0; t <= CTG_IDENTIFIABLE_TYPE_COUNT; t++) {
        ctg_identifiable_type type =
            t == CTG_IDENTIFIABLE_TYPE_COUNT ? CTG_IDENTIFIABLE_BUS : (ctg_identifiable_type)t;
        size_t n = ctg_network_count(d->net, type);
        if (n == 0 || (type == CTG_IDENTIFIABLE_BUS && t != CTG_IDENTIFIABLE_TYPE_COUNT))
            continue;
        key(e, ctg_identifiable_type_name(type));
        ctg_emit_int(e, (int64_t)n);
    }
    ctg_emit_object_end(e);
}

/* "objects": per enumerable type with objects (not BUS), in enumeration order. */
static void write_objects(dump *d)
{
    ctg_emitter *e = d->e;

    key(e, "objects");
    ctg_emit_object_begin(e);
    for (unsigned t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++) {
        size_t n = ctg_network_count(d->net, (ctg_identifiable_type)t);
        if (n == 0 || t == CTG_IDENTIFIABLE_BUS)
            continue;
        key(e, ctg_identifiable_type_name((ctg_identifiable_type)t));
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < n; i++)
            write_object(d, ctg_network_object_at(d->net, (ctg_identifiable_type)t, i));
        ctg_emit_array_end(e);
    }
    ctg_emit_object_end(e);
}

/* The objects of `v` (NULL: every object) sorted by id into the scratch array. */
static const ctg_net_object **sorted(dump *d, const ctg_net_vec *v)
{
    size_t n = v ? v->len : d->net->doc_len;
    for (size_t i = 0; i < n; i++)
        d->scratch[i] = v ? ctg_net_vec_at(v, i) : ctg_net_doc(d->net, i);
    qsort(d->scratch, n, sizeof *d->scratch, by_id);
    return (const ctg_net_object **)d->scratch;
}

/* "buses" when there are declared buses; "identifiables": every object; both sorted by id. */
static void write_index(dump *d)
{
    ctg_emitter *e = d->e;
    const ctg_net_vec *buses = &d->net->types[CTG_IDENTIFIABLE_BUS];
    const ctg_net_object **objs;

    if (buses->len) {
        key(e, "buses");
        ctg_emit_array_begin(e);
        objs = sorted(d, buses);
        for (size_t i = 0; i < buses->len; i++) {
            ctg_emit_object_begin(e);
            member(e, "id", objs[i]->id);
            member(e, "type", "BUS");
            if (ctg_net_object_subnetwork(objs[i]))
                member(e, "subnetwork", ctg_net_object_subnetwork(objs[i])->id);
            member(e, "voltageLevel", objs[i]->voltage_levels[0]->id);
            ctg_emit_object_end(e);
        }
        ctg_emit_array_end(e);
    }
    key(e, "identifiables");
    ctg_emit_array_begin(e);
    objs = sorted(d, NULL);
    for (size_t i = 0; i < d->net->doc_len; i++) {
        ctg_emit_object_begin(e);
        member(e, "id", objs[i]->id);
        member(e, "type", ctg_identifiable_type_name(objs[i]->type));
        ctg_emit_object_end(e);
    }
    ctg_emit_array_end(e);
}

static int by_alias(const void *a, const void *b)
{
    return strcmp((*(const ctg_net_alias *const *)a)->text,
                  (*(const ctg_net_alias *const *)b)->text);
}

/* "aliasToId": alias -> id, sorted by alias. */
static void write_aliases(dump *d)
{
    ctg_emitter *e = d->e;
    const ctg_network *net = d->net;

    for (size_t i = 0; i < net->alias_len; i++)
        d->scratch[i] = &net->aliases[i];
    qsort(d->scratch, net->alias_len, sizeof *d->scratch, by_alias);
    key(e, "aliasToId");
    ctg_emit_object_begin(e);
    for (size_t i = 0; i < net->alias_len; i++) {
        const ctg_net_alias *a = d->scratch[i];
        member(e, a->text, ctg_net_locate(net, a->loc)->id);
    }
    ctg_emit_object_end(e);
}

/* "subnetworks", when there are any: per subnetwork, the ids it owns per enumerable type. */
static void write_subnetworks(const dump *d)
{
    ctg_emitter *e = d->e;
    const ctg_net_vec *nets = &d->net->types[CTG_IDENTIFIABLE_NETWORK];

    if (nets->len < 2)
        return;
    key(e, "subnetworks");
    ctg_emit_array_begin(e);
    for (size_t s = 1; s < nets->len; s++) {
        ctg_emit_object_begin(e);
        const ctg_net_object *sub = ctg_net_vec_at(nets, s);
        member(e, "id", sub->id);
        key(e, "objects");
        ctg_emit_object_begin(e);
        for (unsigned t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++) {
            size_t n = t == CTG_IDENTIFIABLE_BUS ? 0 : ctg_network_count(d->net, t);
            bool any = false;
            for (size_t i = 0; i < n; i++) {
                const ctg_net_object *obj = ctg_network_object_at(d->net, t, i);
                if (ctg_net_object_subnetwork(obj) != sub)
                    continue;
                if (!any) {
                    key(e, ctg_identifiable_type_name((ctg_identifiable_type)t));
                    ctg_emit_array_begin(e);
                    any = true;
                }
                str(e, obj->id);
            }
            if (any)
                ctg_emit_array_end(e);
        }
        ctg_emit_object_end(e);
        ctg_emit_object_end(e);
    }
    ctg_emit_array_end(e);
}

static void write_table(dump *d)
{
    ctg_emitter *e = d->e;

    ctg_emit_object_begin(e);
    if (d->net->iidm_version)
        member(e, "iidmVersion", d->net->iidm_version);
    key(e, "ok");
    ctg_emit_bool(e, true);
    key(e, "network");
    ctg_emit_object_begin(e);
    member(e, "id", ctg_net_doc(d->net, 0)->id);
    ctg_emit_object_end(e);
    write_counts(d);
    write_objects(d);
    write_index(d);
    write_aliases(d);
    write_subnetworks(d);
    ctg_emit_object_end(e);
}

/* The most items any sort needs: every object, every alias, one object's properties. */
static size_t scratch_items(const ctg_network *net)
{
    size_t n = net->doc_len > net->alias_len ? net->doc_len : net->alias_len;
    for (size_t i = 0; i < net->doc_len; i++) {
        const ctg_net_object *obj = ctg_net_doc(net, i);
        if (ctg_net_object_property_count(obj) > n)
            n = ctg_net_object_property_count(obj);
    }
    return n;
}

static int emit_table(ctg_output *o, const ctg_network *net, ctg_error *w)
{
    ctg_emitter e;
    dump d = { &e, net, NULL };
    size_t n = scratch_items(net);
    int rc = ctg_emit_init_window(&e, ctg_output_window, o, false, net->alloc, w);

    if (rc == CTG_OK) {
        d.scratch = ctg_mem_alloc(net->alloc, n * sizeof *d.scratch);
        if (d.scratch == NULL) {
            rc = ctg_output_message(w, CTG_ENOMEM, "out of memory");
        } else {
            write_table(&d);
            rc = ctg_emit_finish(&e);
        }
    }
    ctg_mem_release(net->alloc, d.scratch, n * sizeof *d.scratch);
    ctg_emit_dispose(&e);
    return rc;
}

int ctg_network_write_json(const ctg_network *net, ctg_buf *buf, ctg_error *err)
{
    ctg_error w = { 0 };
    ctg_output o;
    int rc = CTG_OK;

    if (net == NULL || buf == NULL)
        rc = ctg_output_message(&w, CTG_EINVAL, "no network or no buffer to write to");
    else if ((rc = ctg_output_open_buf(&o, buf, buf->allocator, &w)) == CTG_OK) {
        rc = emit_table(&o, net, &w);
        if (rc == CTG_OK)
            rc = ctg_output_commit(&o, &w);
        else
            ctg_output_abort(&o);
    }
    return rc == CTG_OK ? CTG_OK : ctg_output_error(err, &w, rc, "<memory>");
}
