/* SPDX-License-Identifier: MPL-2.0 */
/* The criterion list a selection is: the criteria the generator filters with (generate_
 * select.c), one criterion list per type, so that PowSyBl can evaluate the same selection on
 * a later network. What criteria cannot say is refused, never dropped. */

#include <stdio.h>
#include <string.h>

#include "base/error_set.h"
#include "network/generate_int.h"

#define SOURCE "<generate>"

static int unsupported(gen_ctx *g, const char *what)
{
    return ctg_error_set(g->rs.err, CTG_EUNSUPPORTED, NULL, "", "%s has no criterion "
                         "equivalent (only a selection's N-1 has one)", what);
}

static int expressible(gen_ctx *g)
{
    if (g->opts->rule != CTG_GEN_N1) {
        char what[64];

        snprintf(what, sizeof what, "the rule %s", ctg_gen_rule_name(g->opts->rule));
        return unsupported(g, what);
    }
    if (g->sel->subnetwork != NULL)
        return unsupported(g, "a subnetwork filter");
    if (g->sel->connected_to != NULL)
        return unsupported(g, "a connected-to filter");
    return CTG_OK;
}

static int set_criteria(gen_ctx *g, ctg_list *list, const gen_type *t)
{
    int rc = ctg_list_set_criteria(list, &t->cr);

    if (rc == CTG_EINVAL)
        return ctg_error_set(g->rs.err, rc, NULL, "", "the selection of %s is not a valid "
                             "criterion list", ctg_identifiable_type_name(t->type));
    return rc == CTG_OK ? CTG_OK : ctg_rs_nomem(&g->rs);
}

/* A child list's name: the list's, cut to 200 bytes at a character's start, then its type. */
static void child_name(char *out, size_t cap, const char *name, ctg_identifiable_type t)
{
    size_t n = strlen(name);

    if (n > 200) {
        n = 200;
        while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80) /* inside a character */
            n--;
    }
    snprintf(out, cap, "%.*s-%s", (int)n, name, ctg_identifiable_type_name(t));
}

static int build(gen_ctx *g, ctg_list **out, const char *name)
{
    ctg_list *list = NULL;
    bool nested = g->type_count > 1;
    int rc = ctg_list_new(&list, nested ? CTG_LIST_LIST : g->types[0].kind, name, g->alloc);

    if (rc != CTG_OK)
        return rc == CTG_ENOMEM ? ctg_rs_nomem(&g->rs)
                                : ctg_error_set(g->rs.err, rc, NULL, "", "a list name that is "
                                                "NULL or not valid UTF-8");
    if (!nested)
        rc = set_criteria(g, list, &g->types[0]);
    for (size_t k = 0; nested && rc == CTG_OK && k < g->type_count; k++) {
        const gen_type *t = &g->types[k];
        char child[256];
        ctg_list *made = NULL;

        child_name(child, sizeof child, name, t->type);
        rc = ctg_list_add_child(list, t->kind, child, &made);
        rc = rc == CTG_OK ? set_criteria(g, made, t) : ctg_rs_nomem(&g->rs);
    }
    if (rc != CTG_OK) {
        ctg_list_free(list);
        return rc;
    }
    *out = list;
    return CTG_OK;
}

int ctg_generate_as_criterion(ctg_list **out, const ctg_gen_options *opts, const char *name,
                              ctg_error *err)
{
    ctg_error local;
    gen_ctx g;
    int rc;

    if (err == NULL)
        err = &local;
    if (out == NULL || name == NULL)
        return ctg_rs_finish(err, ctg_error_set(err, CTG_EINVAL, NULL, "", "NULL out or name"),
                             SOURCE);
    *out = NULL;
    rc = ctg_gen_setup(&g, NULL, opts, err);
    if (rc == CTG_OK)
        rc = expressible(&g);
    if (rc == CTG_OK)
        rc = build(&g, out, name);
    ctg_gen_dispose(&g);
    return ctg_rs_finish(err, rc, SOURCE);
}
