/* SPDX-License-Identifier: MPL-2.0 */
/* The peers' common builder (peer.h). */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer.h"

void bench_peer_init(bench_peer *p)
{
    memset(p, 0, sizeof *p);
}

void bench_peer_dispose(bench_peer *p)
{
    ctg_list_free(p->list);
    free(p->pool);
    free(p->elements);
    free(p->scratch);
    p->list = NULL;
    p->pool = NULL;
    p->elements = NULL;
    p->scratch = NULL;
}

int bench_peer_fail(bench_peer *p, const char *fmt, ...)
{
    va_list ap;

    if (p->why[0] != '\0')
        return 0; /* the first reason stands */
    va_start(ap, fmt);
    vsnprintf(p->why, sizeof p->why, fmt, ap);
    va_end(ap);
    return 0;
}

static bool same(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

int bench_peer_type(bench_peer *p, const char *s, size_t len)
{
    if (same(s, len, ctg_list_kind_name(CTG_LIST_DEFAULT)))
        return 1;
    p->unsupported = 1;
    return bench_peer_fail(p, "the peers map `default` lists only, not %.*s", (int)len, s);
}

int bench_peer_list(bench_peer *p, const char *name, size_t len)
{
    char *copy = malloc(len + 1);
    int ok;

    if (copy == NULL)
        return bench_peer_fail(p, "out of memory");
    memcpy(copy, name, len);
    copy[len] = '\0';
    ctg_list_free(p->list);
    p->list = NULL;
    ok = ctg_list_new(&p->list, CTG_LIST_DEFAULT, copy, NULL) == CTG_OK;
    free(copy);
    return ok ? 1 : bench_peer_fail(p, "ctg_list_new failed");
}

/* Room for `more` bytes in the pool. */
static int pool_reserve(bench_peer *p, size_t more)
{
    size_t cap = p->pool_cap ? p->pool_cap : 256;
    char *grown;

    while (cap - p->pool_len < more)
        cap *= 2;
    if (cap == p->pool_cap)
        return 1;
    if ((grown = realloc(p->pool, cap)) == NULL)
        return 0;
    p->pool = grown;
    p->pool_cap = cap;
    return 1;
}

size_t bench_peer_keep(bench_peer *p, const char *s, size_t len)
{
    size_t at = p->pool_len;

    if (!pool_reserve(p, len + 1))
        return 0;
    memcpy(p->pool + at, s, len);
    p->pool[at + len] = '\0';
    p->pool_len += len + 1;
    return at + 1;
}

bench_peer_element *bench_peer_element_add(bench_peer *p)
{
    if (p->count == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        bench_peer_element *grown = realloc(p->elements, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        p->elements = grown;
        p->cap = cap;
    }
    memset(&p->elements[p->count], 0, sizeof p->elements[0]);
    return &p->elements[p->count++];
}

int bench_peer_element_type(bench_peer *p, bench_peer_element *e, const char *s, size_t len)
{
    if (!ctg_element_type_from_name(s, len, &e->type))
        return bench_peer_fail(p, "unknown element type %.*s", (int)len, s);
    e->has_type = 1;
    return 1;
}

int bench_peer_element_end(bench_peer *p, const bench_peer_element *e)
{
    return e->id != 0 && e->has_type ? 1 : bench_peer_fail(p, "an element needs an id and a type");
}

static const char *pooled(const bench_peer *p, size_t at)
{
    return at == 0 ? NULL : p->pool + at - 1;
}

/* The elements with their pool offsets turned into pointers, now that the pool stays put. */
static int fill_scratch(bench_peer *p)
{
    if (p->count > p->scratch_cap) {
        ctg_element *grown = realloc(p->scratch, p->count * sizeof *grown);
        if (grown == NULL)
            return 0;
        p->scratch = grown;
        p->scratch_cap = p->count;
    }
    for (size_t i = 0; i < p->count; i++) {
        p->scratch[i].id = pooled(p, p->elements[i].id);
        p->scratch[i].type = p->elements[i].type;
        p->scratch[i].voltage_level_id = pooled(p, p->elements[i].voltage_level_id);
    }
    return 1;
}

int bench_peer_contingency_end(bench_peer *p)
{
    if (p->list == NULL)
        return bench_peer_fail(p, "contingencies before the list's name");
    if (p->id == 0)
        return bench_peer_fail(p, "a contingency needs an id");
    if (!fill_scratch(p))
        return bench_peer_fail(p, "out of memory");
    if (ctg_list_add_contingency(p->list, pooled(p, p->id), pooled(p, p->name), p->scratch,
                                 p->count) != CTG_OK)
        return bench_peer_fail(p, "ctg_list_add_contingency failed: %s", pooled(p, p->id));
    p->pool_len = 0;
    p->count = 0;
    p->id = p->name = 0;
    return 1;
}
