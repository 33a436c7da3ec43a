/* SPDX-License-Identifier: MPL-2.0 */
/* The canonical element set of a contingency (see elemset.h). */

#include <stdlib.h>
#include <string.h>

#include "elemset.h"
#include "hashspill.h"

static int by_type_then_id(const void *a, const void *b)
{
    const ctg_element *x = *(const ctg_element *const *)a, *y = *(const ctg_element *const *)b;

    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return strcmp(x->id, y->id);
}

static int reserve(void **p, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 16;
    void *q;

    if (need <= *cap)
        return 0;
    while (n < need)
        n *= 2;
    q = realloc(*p, n * size);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* The key of the sorted items: type byte, id, NUL each. */
static int build_key(cli_elemset *s)
{
    size_t len = 0;

    for (size_t i = 0; i < s->count; i++)
        len += strlen(s->items[i]->id) + 2;
    if (reserve((void **)&s->key, &s->key_cap, len + 1, 1) != 0)
        return -1;
    s->key_len = 0;
    for (size_t i = 0; i < s->count; i++) {
        size_t n = strlen(s->items[i]->id) + 1;

        s->key[s->key_len++] = (char)(unsigned char)s->items[i]->type;
        memcpy(s->key + s->key_len, s->items[i]->id, n);
        s->key_len += n;
    }
    return 0;
}

int cli_elemset_build(cli_elemset *s, const ctg_contingency *c)
{
    size_t kept = 0;

    if (reserve((void **)&s->items, &s->cap, c->element_count, sizeof *s->items) != 0)
        return -1;
    for (size_t i = 0; i < c->element_count; i++)
        s->items[i] = &c->elements[i];
    if (c->element_count > 1)
        qsort(s->items, c->element_count, sizeof *s->items, by_type_then_id);
    for (size_t i = 0; i < c->element_count; i++) {
        if (kept == 0 || by_type_then_id(&s->items[kept - 1], &s->items[i]) != 0)
            s->items[kept++] = s->items[i];
    }
    s->count = kept;
    return build_key(s);
}

uint64_t cli_elemset_hash(const cli_elemset *s)
{
    return cli_hash64(s->key, s->key_len, 0x5e7u);
}

void cli_elemset_dispose(cli_elemset *s)
{
    free(s->items);
    free(s->key);
    memset(s, 0, sizeof *s);
}
