/* SPDX-License-Identifier: MPL-2.0 */
/* Deep walk and compare of lists for the fuzz targets, through the public API only. */

#include "tests/fuzz/fuzz_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ext/ext.h"
#include "json/lexer.h"

void ctg_fuzz_fail(const char *fmt, ...)
{
    va_list ap;

    fputs("fuzz check failed: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* ---- UTF-8 ---------------------------------------------------------------------------- */

/* Length of the sequence a lead byte starts, 0 when it cannot start one. */
static size_t utf8_len(unsigned char c, unsigned *min, unsigned *cp)
{
    if (c < 0x80) {
        *cp = c;
        *min = 0;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        *cp = c & 0x1fu;
        *min = 0x80;
        return 2;
    }
    if (c >= 0xe0 && c <= 0xef) {
        *cp = c & 0x0fu;
        *min = 0x800;
        return 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        *cp = c & 0x07u;
        *min = 0x10000;
        return 4;
    }
    return 0;
}

bool ctg_fuzz_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        unsigned min, cp;
        size_t n = utf8_len(p[i], &min, &cp);

        if (n == 0 || n > len - i)
            return false;
        for (size_t k = 1; k < n; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += n;
    }
    return true;
}

/* ---- walk ----------------------------------------------------------------------------- */

/* Reads the whole string (ASan sees a bad pointer or a missing NUL) and checks its UTF-8. */
static void touch(const char *s, const char *what)
{
    if (s != NULL && !ctg_fuzz_utf8_valid(s, strlen(s)))
        ctg_fuzz_fail("%s is not valid UTF-8", what);
}

static void walk_contingency(const ctg_contingency *c)
{
    if (c->id == NULL)
        ctg_fuzz_fail("contingency without an id");
    touch(c->id, "contingency id");
    touch(c->name, "contingency name");
    if ((c->elements == NULL) != (c->element_count == 0))
        ctg_fuzz_fail("contingency %s: elements %p with count %zu", c->id,
                      (const void *)c->elements, c->element_count);
    for (size_t i = 0; i < c->element_count; i++) {
        const ctg_element *e = &c->elements[i];
        if (e->id == NULL || ctg_element_type_name(e->type) == NULL)
            ctg_fuzz_fail("contingency %s: element %zu without id or with type %d", c->id, i,
                          (int)e->type);
        if (e->type == CTG_ELEMENT_DANGLING_LINE)
            ctg_fuzz_fail("contingency %s: a DANGLING_LINE was kept", c->id);
        if (e->voltage_level_id != NULL && !ctg_element_type_is_sided(e->type))
            ctg_fuzz_fail("contingency %s: side on unsided type %s", c->id,
                          ctg_element_type_name(e->type));
        touch(e->id, "element id");
        touch(e->voltage_level_id, "voltageLevelId");
    }
    for (size_t i = 0; i < c->extension_count; i++)
        touch(c->extensions[i].name, "extension name");
}

static void walk_identifier(const ctg_identifier *id, unsigned depth)
{
    if (ctg_identifier_kind_name(id->kind) == NULL || depth > 100000)
        ctg_fuzz_fail("identifier of kind %d at depth %u", (int)id->kind, depth);
    touch(id->contingency_id, "contingencyId");
    touch(id->id, "identifier");
    touch(id->voltage_level_id1, "voltageLevelId1");
    touch(id->voltage_level_id2, "voltageLevelId2");
    for (size_t i = 0; i < id->item_count; i++)
        walk_identifier(&id->items[i], depth + 1);
    for (size_t i = 0; i < id->type_count; i++) {
        if (ctg_identifiable_type_name(id->types[i]) == NULL)
            ctg_fuzz_fail("identifiable type %d", (int)id->types[i]);
    }
}

static void walk_criterion(const ctg_criterion *c)
{
    if (c == NULL)
        return;
    if (ctg_criterion_type_name(c->type) == NULL)
        ctg_fuzz_fail("criterion type %d", (int)c->type);
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < c->country_count[s]; i++) {
            const char *code = c->countries[s][i];
            if (code == NULL || !ctg_country_is_valid(code, strlen(code)))
                ctg_fuzz_fail("criterion with a bad country");
        }
    }
    touch(c->property_key, "propertyKey");
    for (size_t i = 0; i < c->property_value_count; i++)
        touch(c->property_values[i], "propertyValue");
    touch(c->regex, "regex");
}

static void walk_criteria(const ctg_criteria *cr)
{
    if (cr == NULL)
        return;
    walk_criterion(cr->country);
    walk_criterion(cr->nominal_voltage);
    for (size_t i = 0; i < cr->property_count; i++)
        walk_criterion(&cr->properties[i]);
    walk_criterion(cr->regex);
}

static void walk_depth(const ctg_list *list, unsigned depth)
{
    size_t n = 0;
    const ctg_identifier *ids;

    if (ctg_list_kind_name(ctg_list_get_kind(list)) == NULL || depth > 100000)
        ctg_fuzz_fail("list of kind %d at depth %u", (int)ctg_list_get_kind(list), depth);
    if (ctg_list_name(list) == NULL)
        ctg_fuzz_fail("list without a name");
    touch(ctg_list_name(list), "list name");
    touch(ctg_list_version(list), "list version");
    for (size_t i = 0; i < ctg_list_contingency_count(list); i++)
        walk_contingency(ctg_list_contingency_at(list, i));
    if (ctg_list_contingencies(list, &n) != NULL && n != ctg_list_contingency_count(list))
        ctg_fuzz_fail("contingency counts differ: %zu and %zu", n,
                      ctg_list_contingency_count(list));
    ids = ctg_list_identifiers(list, &n);
    for (size_t i = 0; ids != NULL && i < n; i++)
        walk_identifier(&ids[i], 0);
    walk_criteria(ctg_list_criteria(list));
    for (size_t i = 0; i < ctg_list_child_count(list); i++)
        walk_depth(ctg_list_child_at(list, i), depth + 1);
}

void ctg_fuzz_walk(const ctg_list *list)
{
    walk_depth(list, 0);
}

/* ---- compare -------------------------------------------------------------------------- */

/* The first difference found, with the JSON-like path to it. */
typedef struct cmp {
    unsigned ignore;
    char *why;
    size_t size;
    bool differ;
} cmp;

static bool differ(cmp *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static bool differ(cmp *c, const char *fmt, ...)
{
    va_list ap;

    if (!c->differ && c->size > 0) {
        va_start(ap, fmt);
        vsnprintf(c->why, c->size, fmt, ap);
        va_end(ap);
    }
    c->differ = true;
    return false;
}

static const char *show(const char *s)
{
    return s != NULL ? s : "(null)";
}

static bool str_eq(cmp *c, const char *a, const char *b, const char *what)
{
    if ((a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0))
        return differ(c, "%s: \"%s\" vs \"%s\"", what, show(a), show(b));
    return true;
}

static bool side_eq(cmp *c, const char *a, const char *b)
{
    if (c->ignore & CTG_FUZZ_EMPTY_SIDE_IS_ABSENT) {
        if (a != NULL && a[0] == '\0')
            a = NULL;
        if (b != NULL && b[0] == '\0')
            b = NULL;
    }
    return str_eq(c, a, b, "voltageLevelId");
}

static bool size_eq(cmp *c, size_t a, size_t b, const char *what)
{
    return a == b ? true : differ(c, "%s: %zu vs %zu", what, a, b);
}

/* Doubles are equal when they are the same value, sign of zero included, or both NaN. */
static bool double_eq(cmp *c, double a, double b, const char *what)
{
    if ((isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b)))
        return true;
    return differ(c, "%s: %.17g vs %.17g", what, a, b);
}

static bool element_eq(cmp *c, const ctg_element *a, const ctg_element *b)
{
    if (a->type != b->type)
        return differ(c, "element %s: type %d vs %d", a->id, (int)a->type, (int)b->type);
    return str_eq(c, a->id, b->id, "element id") && side_eq(c, a->voltage_level_id,
                                                             b->voltage_level_id);
}

/* One token of kept text equals another: numbers by value (integers exactly), the rest by
 * their decoded bytes. */
static bool token_eq(int t, const char *s, size_t n, int u, const char *v, size_t m)
{
    double x, y;
    int64_t i, j;

    if (t != u)
        return false;
    if (t == CTG_JT_KEY || t == CTG_JT_STRING)
        return n == m && memcmp(s, v, n) == 0;
    if (t != CTG_JT_NUMBER)
        return true;
    if (ctg_jtext_is_integer(s, n) && ctg_jtext_is_integer(v, m))
        return ctg_parse_int64(s, n, &i) && ctg_parse_int64(v, m, &j) && i == j;
    return ctg_parse_double(s, n, &x) && ctg_parse_double(v, m, &y) && x == y
           && signbit(x) == signbit(y);
}

static bool json_text_eq(const ctg_extension *a, const ctg_extension *b)
{
    ctg_jtext wa, wb;
    const char *s = NULL, *v = NULL;
    size_t n = 0, m = 0;
    int t, u;
    bool eq = true;

    if (a->json == NULL || b->json == NULL)
        return a->json == b->json;
    ctg_jtext_init(&wa, a->json, a->json_len, NULL);
    ctg_jtext_init(&wb, b->json, b->json_len, NULL);
    do {
        t = ctg_jtext_next(&wa, &s, &n);
        u = ctg_jtext_next(&wb, &v, &m);
        /* `s` may point into wa's scratch, which the next call reuses: compare now. */
        eq = token_eq(t, s, n, u, v, m);
    } while (eq && t > 0);
    ctg_jtext_dispose(&wa);
    ctg_jtext_dispose(&wb);
    return eq && t == CTG_JT_END;
}

static bool contingency_eq(cmp *c, const ctg_contingency *a, const ctg_contingency *b)
{
    if (!str_eq(c, a->id, b->id, "contingency id") || !str_eq(c, a->name, b->name, "name") ||
        !size_eq(c, a->element_count, b->element_count, "element count"))
        return false;
    for (size_t i = 0; i < a->element_count; i++) {
        if (!element_eq(c, &a->elements[i], &b->elements[i]))
            return false;
    }
    if (!size_eq(c, a->extension_count, b->extension_count, "extension count"))
        return false;
    for (size_t i = 0; i < a->extension_count; i++) {
        if (!str_eq(c, a->extensions[i].name, b->extensions[i].name, "extension name"))
            return false;
        if (a->extensions[i].handler != b->extensions[i].handler)
            return differ(c, "extension %s: handlers differ", a->extensions[i].name);
        /* A value no handler knows is kept as compact text, numbers as they were read: equal
         * when the token sequences are, numbers by value. */
        if (a->extensions[i].handler == NULL && !json_text_eq(&a->extensions[i], &b->extensions[i]))
            return differ(c, "extension %s: values differ: %s vs %s", a->extensions[i].name,
                          a->extensions[i].json ? a->extensions[i].json : "(skipped)",
                          b->extensions[i].json ? b->extensions[i].json : "(skipped)");
    }
    return true;
}

static bool identifier_eq(cmp *c, const ctg_identifier *a, const ctg_identifier *b)
{
    if (a->kind != b->kind || a->order != b->order || a->wildcard != b->wildcard)
        return differ(c, "identifier: kind %d/%d order %u/%u wildcard %u/%u", (int)a->kind,
                      (int)b->kind, a->order, b->order, a->wildcard, b->wildcard);
    if (!str_eq(c, a->contingency_id, b->contingency_id, "contingencyId") ||
        !str_eq(c, a->id, b->id, "identifier") ||
        !str_eq(c, a->voltage_level_id1, b->voltage_level_id1, "voltageLevelId1") ||
        !str_eq(c, a->voltage_level_id2, b->voltage_level_id2, "voltageLevelId2") ||
        !size_eq(c, a->item_count, b->item_count, "identifierList count") ||
        !size_eq(c, a->type_count, b->type_count, "voltageLevelIdentifiableTypes count"))
        return false;
    for (size_t i = 0; i < a->item_count; i++) {
        if (!identifier_eq(c, &a->items[i], &b->items[i]))
            return false;
    }
    for (size_t i = 0; i < a->type_count; i++) {
        if (a->types[i] != b->types[i])
            return differ(c, "voltageLevelIdentifiableTypes[%zu]: %d vs %d", i,
                          (int)a->types[i], (int)b->types[i]);
    }
    return true;
}

static bool interval_eq(cmp *c, const ctg_voltage_interval *a, const ctg_voltage_interval *b)
{
    if (a->set != b->set)
        return differ(c, "voltage interval set %d vs %d", a->set, b->set);
    if (!a->set)
        return true;
    if (a->has_low != b->has_low || a->has_high != b->has_high)
        return differ(c, "voltage interval bounds present differ");
    if (a->has_low && (!double_eq(c, a->low, b->low, "low bound") ||
                       a->low_closed != b->low_closed))
        return differ(c, "voltage interval low side differs");
    if (a->has_high && (!double_eq(c, a->high, b->high, "high bound") ||
                        a->high_closed != b->high_closed))
        return differ(c, "voltage interval high side differs");
    return true;
}

static bool strings_eq(cmp *c, const char *const *a, const char *const *b, size_t n,
                       const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (!str_eq(c, a[i], b[i], what))
            return false;
    }
    return true;
}

static bool criterion_eq(cmp *c, const ctg_criterion *a, const ctg_criterion *b)
{
    if ((a == NULL) != (b == NULL))
        return differ(c, "criterion present in one list only");
    if (a == NULL)
        return true;
    if (a->type != b->type || a->equipment_to_check != b->equipment_to_check ||
        a->side_to_check != b->side_to_check)
        return differ(c, "criterion type/equipmentToCheck/sideToCheck differ");
    for (int s = 0; s < 2; s++) {
        if (!size_eq(c, a->country_count[s], b->country_count[s], "country count") ||
            !strings_eq(c, a->countries[s], b->countries[s], a->country_count[s], "country"))
            return false;
    }
    for (int k = 0; k < 3; k++) {
        if (!interval_eq(c, &a->intervals[k], &b->intervals[k]))
            return false;
    }
    return str_eq(c, a->property_key, b->property_key, "propertyKey") &&
           size_eq(c, a->property_value_count, b->property_value_count, "propertyValue count") &&
           strings_eq(c, a->property_values, b->property_values, a->property_value_count,
                      "propertyValue") &&
           str_eq(c, a->regex, b->regex, "regex");
}

static bool criteria_eq(cmp *c, const ctg_criteria *a, const ctg_criteria *b)
{
    if ((a == NULL) != (b == NULL))
        return differ(c, "criteria present in one list only");
    if (a == NULL)
        return true;
    if (a->identifiable_type != b->identifiable_type)
        return differ(c, "identifiableType %d vs %d", (int)a->identifiable_type,
                      (int)b->identifiable_type);
    if (!criterion_eq(c, a->country, b->country) ||
        !criterion_eq(c, a->nominal_voltage, b->nominal_voltage) ||
        !size_eq(c, a->property_count, b->property_count, "propertyCriteria count") ||
        !criterion_eq(c, a->regex, b->regex))
        return false;
    for (size_t i = 0; i < a->property_count; i++) {
        if (!criterion_eq(c, &a->properties[i], &b->properties[i]))
            return false;
    }
    return true;
}

static bool identifiers_eq(cmp *c, const ctg_list *a, const ctg_list *b)
{
    size_t na = 0, nb = 0;
    const ctg_identifier *ia = ctg_list_identifiers(a, &na);
    const ctg_identifier *ib = ctg_list_identifiers(b, &nb);

    if (ia == NULL)
        na = 0;
    if (ib == NULL)
        nb = 0;
    if (!size_eq(c, na, nb, "identifier count"))
        return false;
    for (size_t i = 0; i < na; i++) {
        if (!identifier_eq(c, &ia[i], &ib[i]))
            return false;
    }
    return true;
}

static bool list_eq(cmp *c, const ctg_list *a, const ctg_list *b)
{
    size_t n = ctg_list_contingency_count(a);

    if (ctg_list_get_kind(a) != ctg_list_get_kind(b))
        return differ(c, "list kind %d vs %d", (int)ctg_list_get_kind(a),
                      (int)ctg_list_get_kind(b));
    if (!str_eq(c, ctg_list_name(a), ctg_list_name(b), "list name") ||
        (!(c->ignore & CTG_FUZZ_IGNORE_VERSION) &&
         !str_eq(c, ctg_list_version(a), ctg_list_version(b), "list version")) ||
        !size_eq(c, n, ctg_list_contingency_count(b), "contingency count") ||
        !size_eq(c, ctg_list_child_count(a), ctg_list_child_count(b), "child list count"))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!contingency_eq(c, ctg_list_contingency_at(a, i), ctg_list_contingency_at(b, i)))
            return false;
    }
    if (!identifiers_eq(c, a, b) || !criteria_eq(c, ctg_list_criteria(a), ctg_list_criteria(b)))
        return false;
    for (size_t i = 0; i < ctg_list_child_count(a); i++) {
        if (!list_eq(c, ctg_list_child_at(a, i), ctg_list_child_at(b, i)))
            return false;
    }
    return true;
}

bool ctg_fuzz_contingency_equal(const ctg_contingency *a, const ctg_contingency *b,
                                unsigned ignore, char *why, size_t size)
{
    cmp c = { ignore, why, size, false };

    return contingency_eq(&c, a, b);
}

bool ctg_fuzz_list_equal(const ctg_list *a, const ctg_list *b, unsigned ignore, char *why,
                         size_t size)
{
    cmp c = { ignore, why, size, false };

    return list_eq(&c, a, b);
}

/* ---- errors --------------------------------------------------------------------------- */

static void check_terminated(const char *s, size_t cap, const char *what)
{
    if (memchr(s, '\0', cap) == NULL)
        ctg_fuzz_fail("error %s is not NUL-terminated", what);
}

void ctg_fuzz_check_error(int rc, const ctg_error *err)
{
    char text[1024];
    size_t need;

    if (rc >= 0 || rc < CTG_ESTOPPED || err->code != rc)
        ctg_fuzz_fail("status %d with error code %d", rc, (int)err->code);
    check_terminated(err->source, sizeof err->source, "source");
    check_terminated(err->path, sizeof err->path, "path");
    check_terminated(err->message, sizeof err->message, "message");
    if (err->message[0] == '\0')
        ctg_fuzz_fail("error %s without a message", ctg_status_name(rc));
    if ((err->line == 0) != (err->column == 0))
        ctg_fuzz_fail("error at line %u, column %u", err->line, err->column);
    need = ctg_error_format(err, text, sizeof text);
    if (need < sizeof text && strlen(text) != need)
        ctg_fuzz_fail("ctg_error_format returned %zu for %zu bytes", need, strlen(text));
}
