/* SPDX-License-Identifier: MPL-2.0 */
/* Writer of the six criterion kinds: PowSyBl's field orders (spec 5.1, 5.2, 5.3), the current
 * version, doubles as Java's Double.toString writes them. */

#include <string.h>

#include "model/criterion.h"
#include "serde/version.h"
#include "serde/write_kinds.h"

static void emit_str(ctg_emitter *e, const char *s)
{
    ctg_emit_string(e, s, strlen(s));
}

static void emit_key(ctg_emitter *e, const char *key)
{
    ctg_emit_key(e, key, strlen(key));
}

/* Always written, "[ ]" when empty (PowSyBl serializes the list as it is). */
static void write_strings(ctg_emitter *e, const char *key, const char *const *s, size_t n)
{
    emit_key(e, key);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < n; i++)
        emit_str(e, s[i]);
    ctg_emit_array_end(e);
}

/* Written only when set; each bound with its closed flag right after it. */
static void write_interval(ctg_emitter *e, const char *key, const ctg_voltage_interval *iv)
{
    if (!iv->set)
        return;
    emit_key(e, key);
    ctg_emit_object_begin(e);
    if (iv->has_low) {
        CTG_EMIT_KEY(e, "nominalVoltageLowBound");
        ctg_emit_double(e, iv->low);
        CTG_EMIT_KEY(e, "lowClosed");
        ctg_emit_bool(e, iv->low_closed);
    }
    if (iv->has_high) {
        CTG_EMIT_KEY(e, "nominalVoltageHighBound");
        ctg_emit_double(e, iv->high);
        CTG_EMIT_KEY(e, "highClosed");
        ctg_emit_bool(e, iv->high_closed);
    }
    ctg_emit_object_end(e);
}

static void write_property(ctg_emitter *e, const ctg_criterion *c)
{
    CTG_EMIT_KEY(e, "propertyKey");
    emit_str(e, c->property_key);
    write_strings(e, "propertyValue", c->property_values, c->property_value_count);
    CTG_EMIT_KEY(e, "equipmentToCheck");
    emit_str(e, ctg_equipment_to_check_name(c->equipment_to_check));
    if (c->side_to_check != CTG_SIDE_NONE) {
        CTG_EMIT_KEY(e, "sideToCheck");
        emit_str(e, ctg_side_to_check_name(c->side_to_check));
    }
}

static void write_criterion(ctg_emitter *e, const char *key, const ctg_criterion *c)
{
    static const char *const numbered[3] = { "voltageInterval1", "voltageInterval2",
                                             "voltageInterval3" };
    bool required;
    unsigned n = ctg_criterion_interval_count(c->type, &required);

    if (key != NULL)
        emit_key(e, key);
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "type");
    emit_str(e, ctg_criterion_type_name(c->type));
    if (c->type == CTG_CRITERION_TWO_COUNTRY) {
        write_strings(e, "countries1", c->countries[0], c->country_count[0]);
        write_strings(e, "countries2", c->countries[1], c->country_count[1]);
    } else if (c->type == CTG_CRITERION_SINGLE_COUNTRY
               || c->type == CTG_CRITERION_AT_LEAST_ONE_COUNTRY) {
        write_strings(e, "countries", c->countries[0], c->country_count[0]);
    } else if (c->type == CTG_CRITERION_PROPERTY) {
        write_property(e, c);
    } else if (c->type == CTG_CRITERION_REGEX) {
        CTG_EMIT_KEY(e, "regex");
        if (c->regex != NULL)
            emit_str(e, c->regex);
        else
            ctg_emit_null(e);
    }
    for (unsigned i = 0; i < n; i++)
        write_interval(e, required ? "voltageInterval" : numbered[i], &c->intervals[i]);
    ctg_emit_object_end(e);
}

int ctg_write_criterion_list(ctg_emitter *e, const ctg_list *list)
{
    const ctg_criteria *cr = ctg_list_criteria(list);
    ctg_list_kind kind = ctg_list_get_kind(list);

    /* Lists come from the reader or ctg_list_set_criteria, which both check; this only keeps
     * a list patched by other means from being written half. */
    if (cr == NULL || !ctg_criteria_valid(kind, cr))
        return CTG_EINVAL;
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "type");
    emit_str(e, ctg_list_kind_name(kind));
    CTG_EMIT_KEY(e, "version");
    emit_str(e, CTG_VERSION_CRITERION);
    CTG_EMIT_KEY(e, "name");
    emit_str(e, ctg_list_name(list));
    if (kind == CTG_LIST_INJECTION_CRITERION) {
        CTG_EMIT_KEY(e, "identifiableType");
        emit_str(e, ctg_identifiable_type_name(cr->identifiable_type));
    }
    if (cr->country != NULL)
        write_criterion(e, "countryCriterion", cr->country);
    if (cr->nominal_voltage != NULL)
        write_criterion(e, "nominalVoltageCriterion", cr->nominal_voltage);
    if (cr->property_count > 0) {
        CTG_EMIT_KEY(e, "propertyCriteria");
        ctg_emit_array_begin(e);
        for (size_t i = 0; i < cr->property_count; i++)
            write_criterion(e, NULL, &cr->properties[i]);
        ctg_emit_array_end(e);
    }
    if (cr->regex != NULL)
        write_criterion(e, "regexCriterion", cr->regex);
    ctg_emit_object_end(e);
    return CTG_OK;
}
