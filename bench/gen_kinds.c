/* SPDX-License-Identifier: MPL-2.0 */
/* The `kinds` case: a `list` list whose children cycle through the six criterion kinds, an
 * identifier list and a nested `list` (an identifier list, a lineCriterion and a small default
 * list). Written with a small emitter that follows Jackson's pretty printer (spec section 7),
 * so that a correct ctg writer gives back the same bytes. */

#include <string.h>

#include "gen.h"

#define MAX_LEVELS 32

/* Containers open on the way down: which of them are arrays, and which have no item yet.
 * Indentation counts objects only, as Jackson's does. */
typedef struct emitter {
    bench_bytes *b;
    int level;
    int depth;
    bool array[MAX_LEVELS];
    bool first[MAX_LEVELS];
    uint64_t rng;
} emitter;

static void newline(emitter *e)
{
    BENCH_PUT(e->b, "\n");
    for (int i = 0; i < e->depth; i++)
        BENCH_PUT(e->b, "  ");
}

/* What goes before a value: nothing in an object (key() wrote it), " " or ", " in an array. */
static void before_value(emitter *e)
{
    if (e->level > 0 && e->array[e->level]) {
        bench_put_str(e->b, e->first[e->level] ? " " : ", ");
        e->first[e->level] = false;
    }
}

static void open_container(emitter *e, bool array)
{
    before_value(e);
    bench_put(e->b, array ? "[" : "{", 1);
    if (e->level + 1 >= MAX_LEVELS) {
        e->b->failed = true;
        return;
    }
    e->level++;
    e->array[e->level] = array;
    e->first[e->level] = true;
    if (!array)
        e->depth++;
}

static void obj_begin(emitter *e)
{
    open_container(e, false);
}

static void obj_end(emitter *e)
{
    e->depth--;
    if (e->first[e->level]) {
        BENCH_PUT(e->b, " }");
    } else {
        newline(e);
        BENCH_PUT(e->b, "}");
    }
    e->level--;
}

static void arr_begin(emitter *e)
{
    open_container(e, true);
}

static void arr_end(emitter *e)
{
    BENCH_PUT(e->b, " ]");
    e->level--;
}

static void key(emitter *e, const char *name)
{
    if (!e->first[e->level])
        BENCH_PUT(e->b, ",");
    e->first[e->level] = false;
    newline(e);
    BENCH_PUT(e->b, "\"");
    bench_put_str(e->b, name);
    BENCH_PUT(e->b, "\" : ");
}

/* A string value; the generator writes nothing that needs escaping. */
static void str(emitter *e, const char *s)
{
    before_value(e);
    BENCH_PUT(e->b, "\"");
    bench_put_str(e->b, s);
    BENCH_PUT(e->b, "\"");
}

/* "<prefix><number><suffix>", the number zero-padded to `width`. */
static void str_num_suffix(emitter *e, const char *prefix, size_t n, int width, const char *suffix)
{
    before_value(e);
    BENCH_PUT(e->b, "\"");
    bench_put_str(e->b, prefix);
    bench_put_number(e->b, n, width);
    bench_put_str(e->b, suffix);
    BENCH_PUT(e->b, "\"");
}

static void str_num(emitter *e, const char *prefix, size_t n, int width)
{
    str_num_suffix(e, prefix, n, width, "");
}

static void member(emitter *e, const char *name, const char *value)
{
    key(e, name);
    str(e, value);
}

static void member_num(emitter *e, const char *name, const char *prefix, size_t n, int width)
{
    key(e, name);
    str_num(e, prefix, n, width);
}

/* Whole kV values only: Java's Double.toString writes them as "225.0". */
static void member_kv(emitter *e, const char *name, unsigned kv)
{
    key(e, name);
    bench_put_number(e->b, kv, 0);
    BENCH_PUT(e->b, ".0");
}

static void member_bool(emitter *e, const char *name, bool value)
{
    key(e, name);
    bench_put_str(e->b, value ? "true" : "false");
}

static size_t pick(emitter *e, size_t n)
{
    return (size_t)(bench_random(&e->rng) % n);
}

static void list_header(emitter *e, const char *type, const char *version, const char *prefix,
                        size_t index)
{
    obj_begin(e);
    member(e, "type", type);
    member(e, "version", version);
    member_num(e, "name", prefix, index, 6);
}

/* ---- identifier lists (spec section 4) ---------------------------------------------------- */

static const char *const identifiable_types[] = { "LINE", "GENERATOR", "LOAD",
                                                  "TWO_WINDINGS_TRANSFORMER", "SWITCH" };

static void id_based(emitter *e, size_t n, bool with_contingency_id)
{
    obj_begin(e);
    member(e, "type", "ID_BASED");
    if (with_contingency_id)
        member_num(e, "contingencyId", "CTG_", n, 7);
    member_num(e, "identifier", "LINE_", n, 7);
    obj_end(e);
}

static void voltage_levels_and_order(emitter *e, size_t n)
{
    char order[2] = { (char)('1' + n % 9), '\0' };

    obj_begin(e);
    member(e, "type", "VOLTAGE_LEVELS_AND_ORDER");
    member_num(e, "voltageLevelId1", "VL_", pick(e, 5000), 4);
    member_num(e, "voltageLevelId2", "VL_", pick(e, 5000), 4);
    member(e, "order", order);
    obj_end(e);
}

static void identifier_list(emitter *e, size_t n)
{
    obj_begin(e);
    member(e, "type", "LIST");
    member_num(e, "contingencyId", "CTG_", n, 7);
    key(e, "identifierList");
    arr_begin(e);
    id_based(e, n, false);
    voltage_levels_and_order(e, n + 1);
    arr_end(e);
    obj_end(e);
}

static void with_wildcards(emitter *e, size_t n)
{
    obj_begin(e);
    member(e, "type", "ID_WITH_WILDCARDS");
    key(e, "identifier");
    str_num_suffix(e, "LINE_", n / 100, 5, "??");
    member(e, "wildcard", "?");
    obj_end(e);
}

/* PowSyBl writes this kind's contingencyId equal to its id (spec section 4). One type only:
 * PowSyBl's order of two or more comes from a hash set. */
static void equipments(emitter *e, size_t n)
{
    obj_begin(e);
    member(e, "type", "SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS");
    member_num(e, "contingencyId", "S_", n, 5);
    member_num(e, "substationOrVoltageLevelId", "S_", n, 5);
    key(e, "voltageLevelIdentifiableTypes");
    arr_begin(e);
    str(e, identifiable_types[pick(e, 5)]);
    arr_end(e);
    obj_end(e);
}

static void identifier(emitter *e, size_t n)
{
    switch (n % 5) {
    case 0:
        id_based(e, n, n % 2 == 0);
        break;
    case 1:
        voltage_levels_and_order(e, n);
        break;
    case 2:
        identifier_list(e, n);
        break;
    case 3:
        with_wildcards(e, n);
        break;
    default:
        equipments(e, n);
        break;
    }
}

static void identifier_contingency_list(emitter *e, size_t index)
{
    list_header(e, "identifier", "1.3", "IDS_", index);
    key(e, "identifiers");
    arr_begin(e);
    for (size_t i = 0; i < BENCH_KINDS_IDENTIFIERS; i++)
        identifier(e, index * BENCH_KINDS_IDENTIFIERS + i);
    arr_end(e);
    obj_end(e);
}

/* ---- criterion lists (spec section 5) ----------------------------------------------------- */

/* Which criterion each slot of a criterion-list kind takes (spec 5.1). */
typedef struct criterion_kind {
    const char *type;
    const char *identifiable_type; /* injectionCriterion only */
    int countries;                 /* 1: SINGLE_COUNTRY, 2: TWO_COUNTRY */
    int voltages;                  /* 1: SINGLE_, 2: TWO_, 3: THREE_NOMINAL_VOLTAGE */
} criterion_kind;

static const criterion_kind criterion_kinds[] = {
    { "injectionCriterion", "GENERATOR", 1, 1 },
    { "lineCriterion", NULL, 2, 2 },
    { "hvdcCriterion", NULL, 2, 2 },
    { "tieLineCriterion", NULL, 2, 1 },
    { "twoWindingsTransformerCriterion", NULL, 1, 2 },
    { "threeWindingsTransformerCriterion", NULL, 1, 3 },
};

static const char *const countries[] = { "FR", "BE", "DE", "ES", "IT", "NL", "CH", "PT" };
static const unsigned voltages_kv[] = { 20, 63, 90, 150, 225, 380, 400 };

/* Up to three distinct countries, as PowSyBl's sets hold them. */
static void country_array(emitter *e, const char *name)
{
    size_t count = pick(e, 4), start = pick(e, 8);

    key(e, name);
    arr_begin(e);
    for (size_t i = 0; i < count; i++)
        str(e, countries[(start + i) % 8]);
    arr_end(e);
}

static void country_criterion(emitter *e, int sides)
{
    key(e, "countryCriterion");
    obj_begin(e);
    member(e, "type", sides == 1 ? "SINGLE_COUNTRY" : "TWO_COUNTRY");
    if (sides == 1) {
        country_array(e, "countries");
    } else {
        country_array(e, "countries1");
        country_array(e, "countries2");
    }
    obj_end(e);
}

/* A valid interval (spec 5.3): one or two bounds, low < high, so any closedness is allowed. */
static void voltage_interval(emitter *e, const char *name)
{
    size_t low = pick(e, 6), high = low + 1 + pick(e, 6 - low), shape = pick(e, 4);

    key(e, name);
    obj_begin(e);
    if (shape != 1) {
        member_kv(e, "nominalVoltageLowBound", voltages_kv[low]);
        member_bool(e, "lowClosed", shape != 2);
    }
    if (shape != 3) {
        member_kv(e, "nominalVoltageHighBound", voltages_kv[high]);
        member_bool(e, "highClosed", shape == 0);
    }
    obj_end(e);
}

static void voltage_criterion(emitter *e, int legs)
{
    static const char *const names[] = { "voltageInterval1", "voltageInterval2",
                                         "voltageInterval3" };
    static const char *const types[] = { "SINGLE_NOMINAL_VOLTAGE", "TWO_NOMINAL_VOLTAGE",
                                         "THREE_NOMINAL_VOLTAGE" };
    unsigned present = legs == 1 ? 1u : 1u + (unsigned)pick(e, (1u << legs) - 1);

    key(e, "nominalVoltageCriterion");
    obj_begin(e);
    member(e, "type", types[legs - 1]);
    for (int i = 0; i < legs; i++) {
        if (present & (1u << i))
            voltage_interval(e, legs == 1 ? "voltageInterval" : names[i]);
    }
    obj_end(e);
}

static void property_criterion(emitter *e, size_t n, int legs)
{
    static const char *const checks[] = { "SELF", "VOLTAGE_LEVEL", "SUBSTATION" };
    static const char *const sides[] = { NULL, "ONE", "BOTH", "ALL_THREE" };
    size_t side = pick(e, legs == 3 ? 4 : 3);

    obj_begin(e);
    member(e, "type", "PROPERTY");
    member_num(e, "propertyKey", "key_", n % 17, 0);
    key(e, "propertyValue");
    arr_begin(e);
    for (size_t i = 0, count = 1 + pick(e, 2); i < count; i++)
        str_num(e, "value_", pick(e, 100), 0);
    arr_end(e);
    member(e, "equipmentToCheck", checks[pick(e, 3)]);
    if (sides[side] != NULL)
        member(e, "sideToCheck", sides[side]);
    obj_end(e);
}

static void criterion_contingency_list(emitter *e, const criterion_kind *k, size_t index)
{
    size_t properties = pick(e, 3);

    list_header(e, k->type, "1.1", "CRIT_", index);
    if (k->identifiable_type != NULL)
        member(e, "identifiableType", k->identifiable_type);
    if (index % 5 != 4)
        country_criterion(e, k->countries);
    if (index % 7 != 6)
        voltage_criterion(e, k->voltages);
    if (properties > 0) {
        key(e, "propertyCriteria");
        arr_begin(e);
        for (size_t i = 0; i < properties; i++)
            property_criterion(e, index + i, k->voltages);
        arr_end(e);
    }
    if (index % 3 != 0) {
        key(e, "regexCriterion");
        obj_begin(e);
        member(e, "type", "REGEX");
        member_num(e, "regex", "^LINE_0*", index, 0);
        obj_end(e);
    }
    obj_end(e);
}

/* ---- the root list ------------------------------------------------------------------------ */

static void default_contingency_list(emitter *e, size_t index)
{
    list_header(e, "default", "1.1", "DEF_", index);
    key(e, "contingencies");
    arr_begin(e);
    for (size_t i = 0; i < BENCH_KINDS_DEFAULT_SIZE; i++) {
        size_t n = index * BENCH_KINDS_DEFAULT_SIZE + i;
        obj_begin(e);
        member_num(e, "id", "N-1_GEN_", n, 6);
        key(e, "elements");
        arr_begin(e);
        obj_begin(e);
        member_num(e, "id", "GEN_", n, 6);
        member(e, "type", "GENERATOR");
        obj_end(e);
        arr_end(e);
        obj_end(e);
    }
    arr_end(e);
    obj_end(e);
}

static void nested_list(emitter *e, size_t index)
{
    list_header(e, "list", "1.1", "NESTED_", index);
    key(e, "contingencyLists");
    arr_begin(e);
    identifier_contingency_list(e, BENCH_KINDS_CHILDREN + index);
    criterion_contingency_list(e, &criterion_kinds[1], BENCH_KINDS_CHILDREN + index);
    default_contingency_list(e, index);
    arr_end(e);
    obj_end(e);
}

int bench_gen_kinds(bench_bytes *out, const bench_gen_case *c)
{
    emitter e;

    memset(&e, 0, sizeof e);
    e.b = out;
    e.rng = c->seed;
    list_header(&e, "list", "1.1", "KINDS_", 0);
    key(&e, "contingencyLists");
    arr_begin(&e);
    for (size_t i = 0; i < BENCH_KINDS_CHILDREN && !out->failed; i++) {
        if (i % 8 < 6)
            criterion_contingency_list(&e, &criterion_kinds[i % 8], i);
        else if (i % 8 == 6)
            identifier_contingency_list(&e, i);
        else
            nested_list(&e, i / 8);
    }
    arr_end(&e);
    obj_end(&e);
    return out->failed ? -1 : 0;
}
