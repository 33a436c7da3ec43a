/* SPDX-License-Identifier: MPL-2.0 */
/* Spec section 3: the contingency element an object becomes, and the contingencies that
 * criterion and identifier lists build from objects (no name, no side, no extensions). */

#include <string.h>

#include "base/utf8.h"
#include "model/list_impl.h"
#include "network/resolve_int.h"

/* The element type of each identifiable type; -1: cannot be an element (spec 3). A converter
 * station is special: it becomes its HVDC line. */
static int element_type_of(ctg_identifiable_type t)
{
    switch (t) {
    case CTG_IDENTIFIABLE_LINE: return CTG_ELEMENT_LINE;
    case CTG_IDENTIFIABLE_TIE_LINE: return CTG_ELEMENT_TIE_LINE;
    case CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER: return CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER;
    case CTG_IDENTIFIABLE_THREE_WINDINGS_TRANSFORMER:
        return CTG_ELEMENT_THREE_WINDINGS_TRANSFORMER;
    case CTG_IDENTIFIABLE_GENERATOR: return CTG_ELEMENT_GENERATOR;
    case CTG_IDENTIFIABLE_LOAD: return CTG_ELEMENT_LOAD;
    case CTG_IDENTIFIABLE_BATTERY: return CTG_ELEMENT_BATTERY;
    case CTG_IDENTIFIABLE_SHUNT_COMPENSATOR: return CTG_ELEMENT_SHUNT_COMPENSATOR;
    case CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR: return CTG_ELEMENT_STATIC_VAR_COMPENSATOR;
    case CTG_IDENTIFIABLE_BUSBAR_SECTION: return CTG_ELEMENT_BUSBAR_SECTION;
    case CTG_IDENTIFIABLE_SWITCH: return CTG_ELEMENT_SWITCH;
    case CTG_IDENTIFIABLE_BOUNDARY_LINE: return CTG_ELEMENT_BOUNDARY_LINE;
    case CTG_IDENTIFIABLE_HVDC_LINE: return CTG_ELEMENT_HVDC_LINE;
    case CTG_IDENTIFIABLE_BUS: return CTG_ELEMENT_BUS;
    case CTG_IDENTIFIABLE_VOLTAGE_SOURCE_CONVERTER: return CTG_ELEMENT_VOLTAGE_SOURCE_CONVERTER;
    case CTG_IDENTIFIABLE_DC_LINE: return CTG_ELEMENT_DC_LINE;
    case CTG_IDENTIFIABLE_DC_GROUND: return CTG_ELEMENT_DC_GROUND;
    case CTG_IDENTIFIABLE_DC_NODE: return CTG_ELEMENT_DC_NODE;
    default: return -1;
    }
}

bool ctg_rs_map_element(const ctg_net_object *obj, ctg_element *out)
{
    int t;

    out->voltage_level_id = NULL;
    if (obj->type == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION) {
        if (obj->refs[0] == NULL)
            return false;
        out->id = obj->refs[0]->id;
        out->type = CTG_ELEMENT_HVDC_LINE;
        return true;
    }
    t = element_type_of(obj->type);
    if (t < 0)
        return false;
    out->id = obj->id;
    out->type = (ctg_element_type)t;
    return true;
}

int ctg_rs_map(rs_ctx *ctx, const ctg_net_object *obj, ctg_element *out)
{
    if (ctg_rs_map_element(obj, out))
        return CTG_OK;
    if (obj->type == CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION)
        return ctg_rs_fail(ctx, "converter station \"%.64s\" has no hvdc line", obj->id);
    return ctg_rs_fail(ctx, "\"%.64s\" (%s) cannot be a contingency element", obj->id,
                       ctg_identifiable_type_name(obj->type));
}

static int emit(rs_ctx *ctx, const char *id, size_t count)
{
    ctg_contingency c;
    int rc;

    memset(&c, 0, sizeof c);
    c.id = id;
    c.elements = count > 0 ? ctx->elems : NULL;
    c.element_count = count;
    rc = ctx->sink.add(ctx->sink.target, &c, ctx->err);
    if (rc != CTG_OK) /* the sink wrote the message; the place is ours */
        ctg_error_set(ctx->err, rc, NULL, ctx->path, NULL);
    return rc;
}

/* "Contingency : " and the element ids joined with " + ", in the scratch text. */
static int generated_id(rs_ctx *ctx, size_t count)
{
    ctx->text_len = 0;
    if (!ctg_rs_text_append(ctx, CTG_RS_GENERATED, sizeof CTG_RS_GENERATED - 1))
        return ctg_rs_nomem(ctx);
    for (size_t i = 0; i < count; i++) {
        const char *id = ctx->elems[i].id;

        if ((i > 0 && !ctg_rs_text_append(ctx, " + ", 3)) ||
            !ctg_rs_text_append(ctx, id, strlen(id)))
            return ctg_rs_nomem(ctx);
    }
    return CTG_OK;
}

int ctg_rs_emit_set(rs_ctx *ctx, const char *id)
{
    size_t n = ctx->obj_len;
    int rc;

    if (n == 1 && id == NULL) { /* the common case: the generated id made once */
        ctg_element e;

        rc = ctg_rs_map(ctx, ctx->objs[0], &e);
        if (rc != CTG_OK)
            return rc;
        return ctg_rs_emit_element(ctx, &e, CTG_RS_GENERATED, sizeof CTG_RS_GENERATED - 1,
                                   CTG_RS_UNCHECKED);
    }
    if (!ctg_rs_elems_room(ctx, n))
        return ctg_rs_nomem(ctx);
    for (size_t i = 0; i < n; i++) {
        rc = ctg_rs_map(ctx, ctx->objs[i], &ctx->elems[i]);
        if (rc != CTG_OK)
            return rc;
    }
    if (id == NULL) {
        rc = generated_id(ctx, n);
        if (rc != CTG_OK)
            return rc;
        id = ctx->text;
    }
    return emit(ctx, id, n);
}

/* The contingency of `e` alone named prefix + its id, built the slow way: into the scratch text
 * and through the sink, which checks it (and names it in its message when it refuses). */
static int emit_element_slow(rs_ctx *ctx, const ctg_element *e, const char *prefix,
                             size_t prefix_len)
{
    ctx->text_len = 0;
    if (!ctg_rs_elems_room(ctx, 1) || !ctg_rs_text_append(ctx, prefix, prefix_len) ||
        !ctg_rs_text_append(ctx, e->id, strlen(e->id)))
        return ctg_rs_nomem(ctx);
    ctx->elems[0] = *e;
    return emit(ctx, ctx->text, 1);
}

/* Into a list, the common case takes the list's own fast append: the element's id is the
 * network's, so checking it once stands for the contingency id's check as well. */
int ctg_rs_emit_element(rs_ctx *ctx, const ctg_element *e, const char *prefix, size_t prefix_len,
                        size_t id_len)
{
    int rc;

    if (ctx->sink.list == NULL || (id_len == CTG_RS_UNCHECKED && !ctg_utf8_valid(e->id)))
        return emit_element_slow(ctx, e, prefix, prefix_len);
    if (id_len == CTG_RS_UNCHECKED)
        id_len = strlen(e->id);
    rc = ctg_list_append_single(ctx->sink.list, prefix, prefix_len, e->id, id_len, e->type);
    if (rc != CTG_OK)
        return ctg_error_set(ctx->err, rc, NULL, ctx->path, "out of memory");
    return CTG_OK;
}

int ctg_rs_emit_one(rs_ctx *ctx, const ctg_net_object *obj, const char *id)
{
    ctg_element e;
    int rc;

    rc = ctg_rs_map(ctx, obj, &e);
    if (rc != CTG_OK)
        return rc;
    if (id == NULL || strcmp(id, e.id) == 0)
        return ctg_rs_emit_element(ctx, &e, "", 0, CTG_RS_UNCHECKED);
    if (!ctg_rs_elems_room(ctx, 1))
        return ctg_rs_nomem(ctx);
    ctx->elems[0] = e;
    return emit(ctx, id, 1);
}
