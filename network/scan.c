/* SPDX-License-Identifier: MPL-2.0 */
/* The compact scan data of a network (network/scan_data.h): per voltage level its nominal voltage,
 * substation and country in one 16-byte record, and per object of a placed type the
 * type_index of its voltage levels, in arrays indexed by type_index. A criterion scan reads
 * them in order instead of following five pointers per object, which at a million objects
 * costs a cache miss each. The add's reserve step makes room, its commit writes: both here. */

#include <string.h>

#include "base/alloc.h"
#include "network/scan_data.h"
#include "network/table_impl.h"

size_t ctg_net_scan_stride(ctg_identifiable_type t)
{
    switch (t) {
    case CTG_IDENTIFIABLE_NETWORK:
    case CTG_IDENTIFIABLE_SUBSTATION:
    case CTG_IDENTIFIABLE_VOLTAGE_LEVEL:
    case CTG_IDENTIFIABLE_AREA:
    case CTG_IDENTIFIABLE_OVERLOAD_MANAGEMENT_SYSTEM:
    case CTG_IDENTIFIABLE_DC_NODE:
    case CTG_IDENTIFIABLE_DC_SWITCH:
    case CTG_IDENTIFIABLE_DC_GROUND:
    case CTG_IDENTIFIABLE_DC_LINE:
    case CTG_IDENTIFIABLE_DC_BUS:
        return 0;
    case CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER:
        return 4; /* three legs and its substation */
    case CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER:
        return 3; /* two sides and its substation */
    case CTG_IDENTIFIABLE_LINE:
    case CTG_IDENTIFIABLE_TIE_LINE:
    case CTG_IDENTIFIABLE_HVDC_LINE:
    case CTG_IDENTIFIABLE_LINE_COMMUTATED_CONVERTER:
    case CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER:
        return 2;
    default:
        return 1;
    }
}

/* Objects of `t` enumerated now: the VSC stations count among the converter stations. */
static size_t enumerated(const ctg_network *net, ctg_identifiable_type t)
{
    size_t n = net->types[t].len;
    return t == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION ? n + net->vsc.len : n;
}

/* Grows `*items` (of `*cap` items of `size` bytes) to hold `need`; CTG_ENOMEM unchanged. */
static int grow(ctg_network *net, void **items, size_t *cap, size_t need, size_t size)
{
    size_t n;
    if (need <= *cap)
        return CTG_OK;
    /* By half again, not double: these arrays hold 4 bytes an object of every placed type,
     * and a realloc mostly grows in place. */
    n = *cap + *cap / 2 > need ? *cap + *cap / 2 : need;
    n = n < 16 ? 16 : n;
    if (n > SIZE_MAX / 16)
        return CTG_ENOMEM;
    void *p = ctg_mem_resize(net->alloc, *items, *cap * size, n * size);
    if (p == NULL)
        return CTG_ENOMEM;
    *items = p;
    *cap = n;
    return CTG_OK;
}

int ctg_net_scan_reserve(ctg_network *net, ctg_identifiable_type t, size_t extra)
{
    ctg_net_prop_scan *ps = CTG_NET_PROPS_OF(net, t);
    if (ps && ps->runs) {
        void *runs = ps->runs;
        int rc = grow(net, &runs, &ps->run_cap, net->types[t].len + extra, sizeof *ps->runs);
        ps->runs = runs;
        if (rc != CTG_OK)
            return rc;
    }
    if (t == CTG_IDENTIFIABLE_VOLTAGE_LEVEL) {
        void *items = net->vl_scan;
        int rc =
            grow(net, &items, &net->vl_scan_cap, net->types[t].len + extra, sizeof *net->vl_scan);
        net->vl_scan = items;
        return rc;
    }
    size_t stride = ctg_net_scan_stride(t);
    if (stride == 0 || (unsigned)t >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return CTG_OK;
    void *items = net->scan[t];
    int rc = grow(net, &items, &net->scan_cap[t], (enumerated(net, t) + extra) * stride,
                  sizeof(uint32_t));
    net->scan[t] = items;
    return rc;
}

static uint32_t index_of(const ctg_net_object *obj)
{
    return obj ? obj->type_index : CTG_NET_SCAN_NONE;
}

/* The record of a voltage level just committed. */
static void commit_vl(ctg_network *net, const ctg_net_object *vl)
{
    const ctg_net_object *sub = vl->substation;
    const char *country = sub ? sub->container->country : NULL;
    ctg_net_vl_scan *rec = &net->vl_scan[vl->type_index];

    memset(rec, 0, sizeof *rec);
    rec->nominal_v = vl->container->nominal_v;
    rec->substation = index_of(sub);
    if (country) {
        rec->country[0] = country[0];
        rec->country[1] = country[1];
    }
    rec->topology = (uint8_t)vl->container->topology;
}

void ctg_net_scan_commit(ctg_network *net, const ctg_net_object *obj)
{
    ctg_identifiable_type t = obj->type;
    size_t stride = ctg_net_scan_stride(t);
    ctg_net_prop_scan *ps = CTG_NET_PROPS_OF(net, t);

    if (ps && ps->runs)
        ps->runs[obj->type_index] = (ctg_net_prop_run){ 0, 0 };
    if (t == CTG_IDENTIFIABLE_VOLTAGE_LEVEL) {
        commit_vl(net, obj);
        return;
    }
    if (stride == 0 || (unsigned)t >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return;
    uint32_t *rec = net->scan[t] + (size_t)obj->type_index * stride;
    /* An LCC station is enumerated before every VSC one: their records move up by one. */
    size_t after = enumerated(net, t) - 1 - obj->type_index;
    if (after)
        memmove(rec + stride, rec, after * stride * sizeof *rec);
    size_t n = stride >= 3 ? stride - 1 : stride; /* transformers: the substation last */
    for (size_t i = 0; i < n; i++)
        rec[i] = index_of(obj->voltage_levels[i]);
    if (n < stride)
        rec[n] = index_of(obj->substation);
}

/* ---- the property copies ------------------------------------------------------------------ */

/* A new array for `ps`'s items with room for `need` more beyond the live ones, the runs copied
 * in type order (`n` objects) so that the outgrown copies go; CTG_ENOMEM unchanged. */
static int props_compact(ctg_network *net, ctg_net_prop_scan *ps, size_t n, size_t need)
{
    size_t live = ps->len - ps->dead, cap = (live + need) + (live + need) / 2;
    size_t bytes;
    cap = cap < 16 ? 16 : cap;
    if (cap > CTG_NET_MAX_OBJECTS || !ctg_size_mul(cap, sizeof(ctg_net_property), &bytes))
        return CTG_ENOMEM;
    ctg_net_property *items = ctg_mem_alloc(net->alloc, bytes);
    if (items == NULL)
        return CTG_ENOMEM;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        ctg_net_prop_run *r = &ps->runs[i];
        if (r->count)
            memcpy(items + len, ps->items + r->first, r->count * sizeof *items);
        r->first = (uint32_t)len;
        len += r->count;
    }
    ctg_mem_release(net->alloc, ps->items, ps->cap * sizeof *items);
    ps->items = items;
    ps->cap = cap;
    ps->len = len;
    ps->dead = 0;
    return CTG_OK;
}

/* A run not at the end moves there to grow: room for its copy and one more. When the copies
 * left behind are many, a compaction (which may leave the run before others: room to move it
 * again) replaces the growth, which bounds them by a quarter of the live items. */
int ctg_net_scan_property_reserve(ctg_network *net, const ctg_net_object *obj)
{
    ctg_net_prop_scan *ps = CTG_NET_PROPS_OF(net, obj->type);
    if (ps == NULL)
        return CTG_OK;
    if (ps->runs == NULL) { /* the type's first property: the runs of its objects, empty */
        size_t n = net->types[obj->type].len;
        void *runs = NULL;
        if (grow(net, &runs, &ps->run_cap, n, sizeof *ps->runs) != CTG_OK)
            return CTG_ENOMEM;
        memset(runs, 0, n * sizeof *ps->runs);
        ps->runs = runs;
    }
    const ctg_net_prop_run *r = &ps->runs[obj->type_index];
    size_t need = r->count && r->first + r->count == ps->len ? 1 : r->count + 1;
    if (ps->len + need <= ps->cap)
        return CTG_OK;
    if (ps->len + r->count + 1 > CTG_NET_MAX_OBJECTS) /* the runs keep 32 bits */
        return CTG_ENOMEM;
    if (ps->dead > (ps->len - ps->dead) / 4) /* the copies outgrown are worth a pass */
        return props_compact(net, ps, net->types[obj->type].len, r->count + 1);
    void *items = ps->items;
    int rc = grow(net, &items, &ps->cap, ps->len + r->count + 1, sizeof *ps->items);
    ps->items = items;
    return rc;
}

void ctg_net_scan_property_append(ctg_network *net, const ctg_net_object *obj, ctg_net_property p)
{
    ctg_net_prop_scan *ps = CTG_NET_PROPS_OF(net, obj->type);
    if (ps == NULL)
        return;
    ctg_net_prop_run *r = &ps->runs[obj->type_index];
    if (r->count == 0) {
        r->first = (uint32_t)ps->len;
    } else if (r->first + r->count != ps->len) {
        memcpy(ps->items + ps->len, ps->items + r->first, r->count * sizeof *ps->items);
        ps->dead += r->count;
        r->first = (uint32_t)ps->len;
        ps->len += r->count;
    }
    ps->items[ps->len++] = p;
    r->count++;
}

void ctg_net_scan_property_set(ctg_network *net, const ctg_net_object *obj, size_t i,
                               const char *value)
{
    ctg_net_prop_scan *ps = CTG_NET_PROPS_OF(net, obj->type);
    if (ps)
        ps->items[ps->runs[obj->type_index].first + i].value = value;
}

const ctg_net_property *ctg_net_scan_properties(const ctg_network *net, ctg_identifiable_type type,
                                                const ctg_net_prop_run **runs)
{
    const ctg_net_prop_scan *ps = CTG_NET_PROPS_OF(net, type);
    *runs = ps ? ps->runs : NULL;
    return ps ? ps->items : NULL;
}

void ctg_net_scan_dispose(ctg_network *net)
{
    ctg_mem_release(net->alloc, net->vl_scan, net->vl_scan_cap * sizeof *net->vl_scan);
    for (size_t t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++)
        ctg_mem_release(net->alloc, net->scan[t], net->scan_cap[t] * sizeof(uint32_t));
    for (size_t k = 0; k < 2; k++) {
        ctg_net_prop_scan *ps = &net->props[k];
        ctg_mem_release(net->alloc, ps->runs, ps->run_cap * sizeof *ps->runs);
        ctg_mem_release(net->alloc, ps->items, ps->cap * sizeof *ps->items);
    }
}

size_t ctg_net_scan_bytes(const ctg_network *net)
{
    size_t n = net->vl_scan_cap * sizeof *net->vl_scan;
    for (size_t t = 0; t < CTG_IDENTIFIABLE_TYPE_COUNT; t++)
        n += net->scan_cap[t] * sizeof(uint32_t);
    for (size_t k = 0; k < 2; k++)
        n += net->props[k].run_cap * sizeof(ctg_net_prop_run) +
             net->props[k].cap * sizeof(ctg_net_property);
    return n;
}

const ctg_net_vl_scan *ctg_net_scan_voltage_levels(const ctg_network *net)
{
    return net->vl_scan;
}

const uint32_t *ctg_net_scan_levels(const ctg_network *net, ctg_identifiable_type type,
                                    size_t *stride)
{
    *stride = 0;
    if ((unsigned)type >= CTG_IDENTIFIABLE_TYPE_COUNT || net->scan[type] == NULL)
        return NULL;
    *stride = ctg_net_scan_stride(type);
    return net->scan[type];
}

void ctg_net_scan_objects(const ctg_network *net, ctg_identifiable_type type, size_t base,
                          const uint32_t *nums, size_t n, const ctg_net_object **out)
{
    const ctg_net_vec *v;
    size_t len;

    if ((unsigned)type >= CTG_IDENTIFIABLE_TYPE_COUNT)
        return;
    v = &net->types[type];
    len = v->len;
    for (size_t i = 0; i < n; i++) {
        size_t t = (size_t)nums[i] - base; /* wraps past len below the base */

        if (t < len)
            out[i] = ctg_net_vec_at(v, t);
    }
}
