/* SPDX-License-Identifier: MPL-2.0 */
/* Limit-reduction lists (format/sa_limit.c reads and writes them): the model's views, the
 * builders, which run the reader's checks (ctg_sa_*_check) before a deep copy into the
 * document's arena, and the identifier sets both sides store sorted as PowSyBl writes them. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctg/sa.h"
#include "base/arena.h"
#include "base/error_set.h"
#include "base/utf8.h"
#include "model/criterion.h"
#include "format/sa_internal.h"

/* ---- identifier sets: sorted by UTF-16 code units, distinct (spec 5.3) ------------------ */

/* The UTF-16 unit that starts the code point at `*p` (valid UTF-8), with *p moved past it:
 * a supplementary character counts as its high surrogate, then, when those tie, its low one,
 * which orders it before U+E000..U+FFFF as Java's String.compareTo does. */
static uint32_t next_cp(const unsigned char **p)
{
    uint32_t cp;
    size_t n = ctg_utf8_sequence(*p, 4, &cp);

    if (n == 0) /* not reached for the valid UTF-8 the reader and builders let in */
        return *(*p)++;
    *p += n;
    return cp;
}

static int utf16_cmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

    while (*x && *y) {
        uint32_t cx = next_cp(&x), cy = next_cp(&y);
        uint32_t ux = cx >= 0x10000 ? 0xD800 + ((cx - 0x10000) >> 10) : cx;
        uint32_t uy = cy >= 0x10000 ? 0xD800 + ((cy - 0x10000) >> 10) : cy;

        if (ux != uy)
            return ux < uy ? -1 : 1;
        if (cx != cy) /* same high surrogate: the low ones order as the code points */
            return cx < cy ? -1 : 1;
    }
    return (*x != 0) - (*y != 0);
}

static int by_utf16(const void *a, const void *b)
{
    return utf16_cmp(*(const char *const *)a, *(const char *const *)b);
}

int ctg_sa_sort_ids(ctg_arena *arena, const char **ids, size_t *count)
{
    size_t n = *count, d = 0;

    (void)arena; /* sorted in place */
    if (n < 2)
        return CTG_OK;
    qsort(ids, n, sizeof *ids, by_utf16);
    for (size_t i = 0; i < n; i++)
        if (d == 0 || strcmp(ids[d - 1], ids[i]) != 0)
            ids[d++] = ids[i];
    *count = d;
    return CTG_OK;
}

/* ---- the model ---------------------------------------------------------------------------- */

size_t ctg_sa_limit_reduction_count(const ctg_sa_doc *doc)
{
    const ctg_sa_limit_body *b = doc && doc->kind == CTG_SA_LIMIT_REDUCTIONS ? doc->body : NULL;

    return b ? b->count : 0;
}

const ctg_limit_reduction *ctg_sa_limit_reduction_at(const ctg_sa_doc *doc, size_t i)
{
    return i < ctg_sa_limit_reduction_count(doc) ? &((const ctg_sa_limit_body *)doc->body)->items[i]
                                                 : NULL;
}

/* ---- builders ----------------------------------------------------------------------------- */

static int build_error(ctg_error *err, const char *where, size_t i, const char *msg)
{
    char path[64];

    if (!err)
        return CTG_EINVAL;
    snprintf(path, sizeof path, where ? "/%s/%zu" : "", where, i);
    ctg_error_set(err, CTG_EINVAL, NULL, path, "%s", msg);
    ctg_error_set_source(err, "<builder>");
    return CTG_EINVAL;
}

static bool strings_valid(const char *const *s, size_t n, bool nulls)
{
    if (n > 0 && !s)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((!s[i] && !nulls) || !ctg_utf8_valid(s[i]))
            return false;
    return true;
}

static const char *element_check(const ctg_element_criterion *c)
{
    const char *msg = ctg_sa_element_check(c);

    if (msg)
        return msg;
    if (!ctg_utf8_valid(c->name) || !strings_valid(c->identifiers, c->identifier_count, false))
        return "a name or an identifier is not well-formed UTF-8 (or an identifier is NULL)";
    return NULL;
}

/* The reader's checks on a whole reduction; `where`/`*at` receive the criterion at fault. */
static const char *reduction_check(const ctg_limit_reduction *r, const char **where, size_t *at)
{
    const ctg_contingency_context *c = &r->context;
    const char *msg = ctg_sa_reduction_check(r);

    *where = NULL;
    if (msg)
        return msg;
    if ((unsigned)c->type >= CTG_CONTEXT_TYPE_COUNT ||
        (c->type == CTG_CONTEXT_SPECIFIC && !c->contingency_id) ||
        !ctg_utf8_valid(c->contingency_id))
        return "invalid contingency context (a SPECIFIC one needs a contingency id)";
    if ((r->equipment_count && !r->equipment) || (r->duration_count && !r->durations))
        return "criteria counted but not given";
    if (!strings_valid(r->limits_groups, r->limits_group_count, true))
        return "an operational limits group id is not well-formed UTF-8";
    for (*at = 0; *at < r->equipment_count; ++*at)
        if ((msg = element_check(&r->equipment[*at])) != NULL) {
            *where = "equipmentCriteria";
            return msg;
        }
    for (*at = 0; *at < r->duration_count; ++*at)
        if ((msg = ctg_sa_duration_check(&r->durations[*at])) != NULL) {
            *where = "durationCriteria";
            return msg;
        }
    return NULL;
}

static const char **copy_strings(ctg_arena *a, const char *const *s, size_t n, bool *ok)
{
    const char **out;

    if (n == 0)
        return NULL;
    if (!(out = ctg_arena_alloc(a, n * sizeof *out, _Alignof(const char *)))) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = ctg_arena_strdup_or_flag(a, s[i], ok);
    return out;
}

static const ctg_criterion *copy_sub(ctg_arena *a, const ctg_criterion *c, bool *ok)
{
    ctg_criterion *out;

    if (!c)
        return NULL;
    if (!(out = ctg_arena_memdup(a, c, sizeof *c))) {
        *ok = false;
        return NULL;
    }
    /* Countries point at the library's own codes, as the reader's do. */
    for (int k = 0; k < 2; k++) {
        size_t n = c->country_count[k];
        const char **cs = n ? ctg_arena_alloc(a, n * sizeof *cs, _Alignof(char *)) : NULL;

        if (n && !cs)
            *ok = false;
        for (size_t i = 0; cs && i < n; i++)
            cs[i] = ctg_country_code(c->countries[k][i], strlen(c->countries[k][i]));
        out->countries[k] = cs;
    }
    out->property_key = out->regex = NULL;
    out->property_values = NULL;
    out->property_value_count = 0;
    return out;
}

static ctg_element_criterion *copy_elements(ctg_arena *a, const ctg_element_criterion *c, size_t n,
                                            bool *ok)
{
    ctg_element_criterion *out = n ? ctg_arena_memdup(a, c, n * sizeof *c) : NULL;

    if (n && !out) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < n && *ok; i++) {
        out[i].name = ctg_arena_strdup_or_flag(a, c[i].name, ok);
        out[i].country = copy_sub(a, c[i].country, ok);
        out[i].nominal_voltage = copy_sub(a, c[i].nominal_voltage, ok);
        out[i].identifiers = copy_strings(a, c[i].identifiers, c[i].identifier_count, ok);
        if (*ok && ctg_sa_sort_ids(a, (const char **)out[i].identifiers,
                                   &out[i].identifier_count) != CTG_OK)
            *ok = false;
    }
    return out;
}

static bool copy_reduction(ctg_arena *a, ctg_limit_reduction *out, const ctg_limit_reduction *r)
{
    bool ok = true;

    *out = *r;
    out->context.contingency_id = ctg_arena_strdup_or_flag(a, r->context.contingency_id, &ok);
    out->equipment = copy_elements(a, r->equipment, r->equipment_count, &ok);
    out->durations = r->duration_count ? ctg_arena_memdup(a, r->durations,
                                                          r->duration_count * sizeof *r->durations)
                                       : NULL;
    ok = ok && (out->durations || !r->duration_count);
    out->limits_groups = copy_strings(a, r->limits_groups, r->limits_group_count, &ok);
    return ok;
}

/* Room for one more reduction; the old array stays in the arena (documents are small). */
static bool grow(ctg_arena *a, ctg_sa_limit_body *b)
{
    size_t cap = b->cap ? 2 * b->cap : 8;
    ctg_limit_reduction *items;

    if (b->count < b->cap)
        return true;
    if (cap > SIZE_MAX / sizeof *items || !(items = ctg_arena_alloc(a, cap * sizeof *items, 8)))
        return false;
    if (b->count)
        memcpy(items, b->items, b->count * sizeof *items);
    b->items = items;
    b->cap = cap;
    return true;
}

int ctg_sa_limit_reductions_add(ctg_sa_doc *doc, const ctg_limit_reduction *item, ctg_error *err)
{
    const char *where, *msg;
    ctg_sa_limit_body *b;
    size_t at = 0;

    if (!doc || !item || doc->kind != CTG_SA_LIMIT_REDUCTIONS)
        return build_error(err, NULL, 0, "no limit-reduction document or no reduction");
    if (item->version > CTG_LIMIT_REDUCTION_VERSION)
        return build_error(err, NULL, 0, "unknown ctg_limit_reduction version");
    if ((msg = reduction_check(item, &where, &at)) != NULL)
        return build_error(err, where, at, msg);
    if (!doc->body && !(doc->body = ctg_arena_calloc(doc->arena, 1, sizeof *b)))
        return err ? ctg_error_set_plain(err, "<builder>", CTG_ENOMEM, "out of memory")
                   : CTG_ENOMEM;
    b = doc->body;
    if (!grow(doc->arena, b) || !copy_reduction(doc->arena, &b->items[b->count], item))
        return err ? ctg_error_set_plain(err, "<builder>", CTG_ENOMEM, "out of memory")
                   : CTG_ENOMEM;
    b->items[b->count++].version = CTG_LIMIT_REDUCTION_VERSION;
    return CTG_OK;
}
