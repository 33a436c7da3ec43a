/* SPDX-License-Identifier: MPL-2.0 */
/* Writing older format versions (ctg_write_options.format_version): which versions each kind
 * can be written at, the versions a write uses for every kind it meets, and the check that the
 * list holds nothing those versions cannot express (spec 3.2, 3.3). */

#include <stdio.h>
#include <string.h>

#include "ctg/io.h"
#include "model/identifier_impl.h"
#include "io/output.h"
#include "format/version.h"
#include "format/write_version.h"

/* The versions a kind can be written at, oldest first; NULL-terminated. */
static const char *const default_versions[] = { "1.0", "1.1", NULL };
static const char *const identifier_versions[] = { "1.1", "1.2", "1.3", NULL };

static const char *const *writable(ctg_list_kind kind)
{
    switch (kind) {
    case CTG_LIST_CONTINGENCY:
        return NULL;
    case CTG_LIST_IDENTIFIER:
        return identifier_versions;
    default: /* default, list and the criterion kinds: 1.0 and 1.1 */
        return default_versions;
    }
}

static bool older(const char *v, const char *than)
{
    return ctg_version_compare(v, strlen(v), than) < 0;
}

/* PowSyBl before June 2025 (f7e331f): ContingencyList.VERSION 1.0 for `list`, `default` and
 * the criterion kinds, identifier lists at 1.2. */
static void set_list_1_0(ctg_write_versions *v)
{
    for (int k = 0; k < CTG_LIST_CONTINGENCY; k++)
        v->of[k] = k == CTG_LIST_IDENTIFIER ? "1.2" : "1.0";
}

int ctg_write_versions_set(ctg_write_versions *v, ctg_list_kind kind, const char *version,
                           ctg_error *w)
{
    const char *const *ok = (unsigned)kind < CTG_LIST_KIND_COUNT ? writable(kind) : NULL;
    char msg[CTG_ERROR_MESSAGE_MAX];

    memset(v, 0, sizeof *v);
    for (int k = 0; k < CTG_LIST_CONTINGENCY; k++)
        v->of[k] = ctg_list_kind_version((ctg_list_kind)k);
    if (version == NULL)
        return CTG_OK;
    if (ok == NULL)
        return ctg_output_message(w, CTG_EINVAL, "a bare contingency has no format version");
    for (size_t i = 0; ok[i] != NULL; i++) {
        if (strcmp(ok[i], version) != 0)
            continue;
        if (kind == CTG_LIST_LIST && i == 0)
            set_list_1_0(v);
        v->of[kind] = ok[i];
        return CTG_OK;
    }
    snprintf(msg, sizeof msg, "cannot write %s lists at format version \"%.32s\" (%s%s%s%s%s)",
             ctg_list_kind_name(kind), version, ok[0], ok[1] ? ", " : "", ok[1] ? ok[1] : "",
             ok[1] && ok[2] ? ", " : "", ok[1] && ok[2] ? ok[2] : "");
    return ctg_output_message(w, CTG_EINVAL, msg);
}

const char *ctg_write_version_of(const ctg_emitter *e, ctg_list_kind kind)
{
    const ctg_write_versions *v = e->above;

    return v != NULL ? v->of[kind] : ctg_list_kind_version(kind);
}

bool ctg_write_old_names(const ctg_emitter *e)
{
    return e->above != NULL && older(ctg_write_version_of(e, CTG_LIST_DEFAULT), "1.1");
}

bool ctg_write_wildcard_field(const ctg_emitter *e)
{
    return e->above == NULL || !older(ctg_write_version_of(e, CTG_LIST_IDENTIFIER), "1.3");
}

/* ---- what a version cannot express ----------------------------------------------------- */

typedef struct walk {
    const ctg_write_versions *v;
    ctg_error *w;
    char path[CTG_ERROR_PATH_MAX];
    size_t len;
} walk;

/* Appends "/a" or "/N" to the path; returns the length to restore. */
static size_t push(walk *k, const char *key, size_t index, bool numbered)
{
    size_t before = k->len;
    int n = numbered ? snprintf(k->path + k->len, sizeof k->path - k->len, "/%zu", index)
                     : snprintf(k->path + k->len, sizeof k->path - k->len, "/%s", key);

    /* A path too long for the record keeps its start, as the reader's do. */
    if (n < 0 || (size_t)n >= sizeof k->path - k->len)
        k->len = sizeof k->path - 1;
    else
        k->len += (size_t)n;
    return before;
}

/* Back to the path of `len` bytes that push returned. */
static void pop(walk *k, size_t len)
{
    k->len = len;
    k->path[len] = '\0';
}

static int refuse(walk *k, const char *key, ctg_list_kind kind, const char *what)
{
    char msg[CTG_ERROR_MESSAGE_MAX];

    push(k, key, 0, false);
    snprintf(msg, sizeof msg, "%s cannot be written at %s format version %s", what,
             ctg_list_kind_name(kind), k->v->of[kind]);
    ctg_output_message(k->w, CTG_EUNSUPPORTED, msg);
    memcpy(k->w->path, k->path, sizeof k->path);
    return CTG_EUNSUPPORTED;
}

static int check_identifiers(walk *k, const ctg_identifier *ids, size_t n, const char *key);

static int check_identifier(walk *k, const ctg_identifier *id)
{
    const char *ver = k->v->of[CTG_LIST_IDENTIFIER];
    bool before_1_2 = older(ver, "1.2"), before_1_3 = older(ver, "1.3");
    const ctg_list_kind K = CTG_LIST_IDENTIFIER;

    if (before_1_3 && id->kind == CTG_IDENTIFIER_SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS)
        return refuse(k, "type", K, "a SUBSTATION_OR_VOLTAGE_LEVEL_EQUIPMENTS identifier");
    if (before_1_2 && id->kind == CTG_IDENTIFIER_ID_WITH_WILDCARDS)
        return refuse(k, "type", K, "an ID_WITH_WILDCARDS identifier");
    if (before_1_2 && id->contingency_id != NULL)
        return refuse(k, "contingencyId", K, "a contingencyId");
    if (before_1_3 && id->kind == CTG_IDENTIFIER_ID_WITH_WILDCARDS && id->wildcard != 0
        && id->wildcard != CTG_WILDCARD_DEFAULT)
        return refuse(k, "wildcard", K, "a wildcard other than '?'");
    if (id->kind == CTG_IDENTIFIER_LIST)
        return check_identifiers(k, id->items, id->item_count, "identifierList");
    return CTG_OK;
}

static int check_identifiers(walk *k, const ctg_identifier *ids, size_t n, const char *key)
{
    size_t at = push(k, key, 0, false);

    for (size_t i = 0; i < n; i++) {
        size_t back = push(k, NULL, i, true);
        int rc = check_identifier(k, &ids[i]);
        if (rc != CTG_OK)
            return rc;
        pop(k, back);
    }
    pop(k, at);
    return CTG_OK;
}

static int check_list(walk *k, const ctg_list *list)
{
    ctg_list_kind kind = ctg_list_get_kind(list);
    size_t n;

    if (kind == CTG_LIST_IDENTIFIER) {
        const ctg_identifier *ids = ctg_list_identifiers(list, &n);
        return check_identifiers(k, ids, n, "identifiers");
    }
    if (kind == CTG_LIST_INJECTION_CRITERION && older(k->v->of[kind], "1.1")
        && ctg_list_criteria(list)->identifiable_type == CTG_IDENTIFIABLE_BOUNDARY_LINE)
        return refuse(k, "identifiableType", kind,
                      "BOUNDARY_LINE (DANGLING_LINE before 1.1, which readers now refuse)");
    if (kind != CTG_LIST_LIST)
        return CTG_OK;
    n = ctg_list_child_count(list);
    size_t at = push(k, "contingencyLists", 0, false);
    for (size_t i = 0; i < n; i++) {
        size_t back = push(k, NULL, i, true);
        int rc = check_list(k, ctg_list_child_at(list, i));
        if (rc != CTG_OK)
            return rc;
        pop(k, back);
    }
    pop(k, at);
    return CTG_OK;
}

int ctg_write_versions_check(const ctg_write_versions *v, const ctg_list *list, ctg_error *w)
{
    walk k = { v, w, { 0 }, 0 };

    return check_list(&k, list);
}
