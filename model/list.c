/* SPDX-License-Identifier: MPL-2.0 */
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "ctg/error.h"
#include "ctg/extension.h"
#include "ctg/model.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "model/list_impl.h"
#include "base/names.h"
#include "base/utf8.h"

/* ---- names ---------------------------------------------------------------------------- */

/* Every element type, once (list_impl.h). PowSyBl's ContingencyElementDeserializer reads no
 * side for DC_LINE, while its DcLineContingency keeps one set in code and serializes it: a
 * DC_LINE side is written but dropped on read (spec 2.2). */
const ctg_element_type_def ctg_element_types[CTG_ELEMENT_TYPE_COUNT] = {
    [CTG_ELEMENT_GENERATOR] = { "GENERATOR", false, false },
    [CTG_ELEMENT_STATIC_VAR_COMPENSATOR] = { "STATIC_VAR_COMPENSATOR", false, false },
    [CTG_ELEMENT_SHUNT_COMPENSATOR] = { "SHUNT_COMPENSATOR", false, false },
    [CTG_ELEMENT_BRANCH] = { "BRANCH", true, true },
    [CTG_ELEMENT_HVDC_LINE] = { "HVDC_LINE", true, true },
    [CTG_ELEMENT_BUSBAR_SECTION] = { "BUSBAR_SECTION", false, false },
    [CTG_ELEMENT_DANGLING_LINE] = { "DANGLING_LINE", false, false },
    [CTG_ELEMENT_BOUNDARY_LINE] = { "BOUNDARY_LINE", false, false },
    [CTG_ELEMENT_LINE] = { "LINE", true, true },
    [CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER] = { "TWO_WINDINGS_TRANSFORMER", true, true },
    [CTG_ELEMENT_THREE_WINDINGS_TRANSFORMER] = { "THREE_WINDINGS_TRANSFORMER", false, false },
    [CTG_ELEMENT_LOAD] = { "LOAD", false, false },
    [CTG_ELEMENT_SWITCH] = { "SWITCH", false, false },
    [CTG_ELEMENT_BATTERY] = { "BATTERY", false, false },
    [CTG_ELEMENT_BUS] = { "BUS", false, false },
    [CTG_ELEMENT_TIE_LINE] = { "TIE_LINE", true, true },
    [CTG_ELEMENT_VOLTAGE_SOURCE_CONVERTER] = { "VOLTAGE_SOURCE_CONVERTER", false, false },
    [CTG_ELEMENT_DC_LINE] = { "DC_LINE", true, false },
    [CTG_ELEMENT_DC_GROUND] = { "DC_GROUND", false, false },
    [CTG_ELEMENT_DC_NODE] = { "DC_NODE", false, false },
};

/* The element types by a hash of their first two bytes, last two and length: the reader looks
 * one up per element, and one slot and one compare cost less than a row of candidates. The
 * multiplier was searched for so that the 20 names land in 20 distinct slots of 64 (a test
 * finds every name); a new type needs its slot added here, or a new multiplier. */
#define ELEMENT_TYPE_HASH 70041u
#define ELEMENT_TYPE_SLOT_BITS 6
#define ELEMENT_TYPE_MAX_LEN 26

typedef struct element_type_slot {
    unsigned char value; /* the type + 1; 0: no type has this slot */
    unsigned char len;   /* its name's length, checked before the bytes are read */
} element_type_slot;

#define T(x) (CTG_ELEMENT_##x + 1)
static const element_type_slot element_type_slots[1u << ELEMENT_TYPE_SLOT_BITS] = {
    [0] = { T(SWITCH), 6 },
    [3] = { T(THREE_WINDINGS_TRANSFORMER), 26 },
    [5] = { T(VOLTAGE_SOURCE_CONVERTER), 24 },
    [6] = { T(BATTERY), 7 },
    [7] = { T(TWO_WINDINGS_TRANSFORMER), 24 },
    [12] = { T(DC_NODE), 7 },
    [18] = { T(DC_GROUND), 9 },
    [25] = { T(BUSBAR_SECTION), 14 },
    [28] = { T(LOAD), 4 },
    [46] = { T(GENERATOR), 9 },
    [47] = { T(SHUNT_COMPENSATOR), 17 },
    [50] = { T(STATIC_VAR_COMPENSATOR), 22 },
    [51] = { T(BUS), 3 },
    [55] = { T(DANGLING_LINE), 13 },
    [56] = { T(DC_LINE), 7 },
    [57] = { T(LINE), 4 },
    [58] = { T(TIE_LINE), 8 },
    [59] = { T(BOUNDARY_LINE), 13 },
    [61] = { T(HVDC_LINE), 9 },
    [62] = { T(BRANCH), 6 },
};
#undef T
/* Only the names of the table: the slots above take the by-length rows' place. */
static const ctg_names element_type_names = { &ctg_element_types[0].name,
                                              sizeof(ctg_element_types[0]), NULL,
                                              ELEMENT_TYPE_MAX_LEN };

static unsigned element_type_slot_of(const char *name, size_t len)
{
    const unsigned char *s = (const unsigned char *)name;
    uint32_t key = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[len - 2] << 16
                   | (uint32_t)s[len - 1] << 24;

    key = (key + (uint32_t)len) * ELEMENT_TYPE_HASH;
    return key >> (32 - ELEMENT_TYPE_SLOT_BITS);
}

const char *ctg_element_type_name(ctg_element_type type)
{
    if ((unsigned)type >= CTG_ELEMENT_TYPE_COUNT)
        return NULL;
    return ctg_element_types[type].name;
}

/* The reader calls this once per element. */
bool ctg_element_type_from_name(const char *name, size_t len, ctg_element_type *out)
{
    element_type_slot slot;
    unsigned char row[2] = { 0, 0 };

    if (name == NULL || len < 3 || len > ELEMENT_TYPE_MAX_LEN) /* 3: the shortest, "BUS" */
        return false;
    slot = element_type_slots[element_type_slot_of(name, len)];
    if (slot.value == 0 || slot.len != len)
        return false;
    row[0] = slot.value;
    if (!ctg_names_match(&element_type_names, row, name, len))
        return false;
    if (out != NULL) /* NULL: the caller only asks whether the name is one */
        *out = (ctg_element_type)(slot.value - 1u);
    return true;
}

bool ctg_element_type_is_sided(ctg_element_type type)
{
    return (unsigned)type < CTG_ELEMENT_TYPE_COUNT && ctg_element_types[type].side_written;
}


/* ---- lists ---------------------------------------------------------------------------- */

ctg_list *ctg_list_alloc_in(ctg_arena *arena, ctg_list_kind kind, const char *name)
{
    ctg_list *list = ctg_arena_calloc(arena, 1, sizeof *list);

    if (list == NULL)
        return NULL;
    list->arena = arena;
    list->kind = kind;
    /* The name is copied so that a reader may pass a token that dies with the next one; a
     * NULL name (a reader that learns it later) starts as "". */
    if (name == NULL)
        name = "";
    list->name = ctg_arena_strndup(arena, name, strlen(name));
    if (list->name == NULL)
        return NULL;
    return list;
}

int ctg_list_new(ctg_list **out, ctg_list_kind kind, const char *name,
                 const ctg_allocator *allocator)
{
    ctg_arena *arena;
    ctg_list *list;

    if (out == NULL)
        return CTG_EINVAL;
    *out = NULL;
    if (name == NULL || (unsigned)kind >= CTG_LIST_KIND_COUNT || !ctg_utf8_valid(name))
        return CTG_EINVAL;
    arena = ctg_arena_new(allocator);
    if (arena == NULL)
        return CTG_ENOMEM;
    list = ctg_list_alloc_in(arena, kind, name);
    if (list == NULL) {
        ctg_arena_release(arena);
        return CTG_ENOMEM;
    }
    list->owns_arena = true;
    *out = list;
    return CTG_OK;
}

/* A list nested in another (owns_arena false) lives entirely in its parent's arena (see
 * reserve_item) and goes with it: ctg_list_free ignores it, so that freeing a borrowed child
 * by mistake cannot free memory the parent still uses. */
void ctg_list_free(ctg_list *list)
{
    ctg_arena *arena;

    if (list == NULL || !list->owns_arena)
        return;
    arena = list->arena;
    /* With cap > 0, items is the list's own block (built in code); with cap == 0 it is an
     * array the reader handed to the arena. The list struct itself lives in the arena. */
    if (list->cap > 0)
        ctg_mem_release(ctg_arena_allocator(arena), list->items, list->cap * sizeof *list->items);
    ctg_arena_release(arena);
}

/* NULL-safe accessors: a NULL list reads as an empty one (CTG_LIST_KIND_COUNT for the kind,
 * "" for the name), so that a caller that skipped an error check does not crash here. */

ctg_list_kind ctg_list_get_kind(const ctg_list *list)
{
    return list == NULL ? CTG_LIST_KIND_COUNT : list->kind;
}

const char *ctg_list_name(const ctg_list *list)
{
    return list == NULL ? "" : list->name;
}

const char *ctg_list_version(const ctg_list *list)
{
    return list == NULL ? NULL : list->version;
}

/* A bare contingency document keeps its one contingency in `items`, as a `default` list. */
static bool holds_contingencies(ctg_list_kind kind)
{
    return kind == CTG_LIST_DEFAULT || kind == CTG_LIST_CONTINGENCY;
}

size_t ctg_list_contingency_count(const ctg_list *list)
{
    if (list == NULL || !holds_contingencies(list->kind))
        return 0;
    return list->count;
}

const ctg_contingency *ctg_list_contingency_at(const ctg_list *list, size_t i)
{
    if (i >= ctg_list_contingency_count(list))
        return NULL;
    return &list->items[i];
}

const ctg_contingency *ctg_list_contingencies(const ctg_list *list, size_t *count)
{
    size_t n = ctg_list_contingency_count(list);

    if (count != NULL)
        *count = n;
    return n == 0 ? NULL : list->items;
}

/* ---- building ------------------------------------------------------------------------- */

static bool valid_elements(const ctg_element *elements, size_t count)
{
    size_t i;

    if (count > 0 && elements == NULL)
        return false;
    for (i = 0; i < count; i++) {
        const ctg_element *e = &elements[i];
        /* A side is only kept for a sided type, but checked whatever the type: a caller who
         * set one meant something by it. */
        if (e->id == NULL || (unsigned)e->type >= CTG_ELEMENT_TYPE_COUNT
            || !ctg_utf8_valid(e->id) || !ctg_utf8_valid(e->voltage_level_id))
            return false;
    }
    return true;
}

/* Extensions as a writer can take them: a name each, and a typed value or kept text (or
 * neither: skipped by the read), never both. The text itself is checked by the caller. */
static bool valid_extensions(const ctg_extension *x, size_t count)
{
    if (count > 0 && x == NULL)
        return false;
    for (size_t i = 0; i < count; i++) {
        if (x[i].name == NULL || !ctg_utf8_valid(x[i].name)
            || (x[i].handler != NULL && x[i].json != NULL)
            || (x[i].json != NULL && strlen(x[i].json) != x[i].json_len))
            return false;
    }
    return true;
}

bool ctg_contingency_valid(const ctg_contingency *c)
{
    return c != NULL && c->id != NULL && ctg_utf8_valid(c->id) && ctg_utf8_valid(c->name)
           && valid_elements(c->elements, c->element_count)
           && valid_extensions(c->extensions, c->extension_count);
}

/* The elements copied into the arena. The type is normalised as the reader leaves it; the
 * side is kept for every type that writes one (ctg_element_type_is_sided), DC_LINE included,
 * although the reader drops DC_LINE's: PowSyBl keeps and writes a side set in code. */
static ctg_element *copy_elements(ctg_arena *arena, const ctg_element *src, size_t count)
{
    ctg_element *dst;
    size_t bytes, i;
    bool ok = true;

    if (!ctg_size_mul(count, sizeof *dst, &bytes))
        return NULL;
    dst = ctg_arena_alloc(arena, bytes, alignof(ctg_element));
    if (dst == NULL)
        return NULL;
    for (i = 0; i < count && ok; i++) {
        ctg_element_type t = src[i].type;
        /* Pre-1.1 name of BOUNDARY_LINE: stored under the current one, as the reader does. */
        dst[i].type = t == CTG_ELEMENT_DANGLING_LINE ? CTG_ELEMENT_BOUNDARY_LINE : t;
        dst[i].id = ctg_arena_strdup_or_flag(arena, src[i].id, &ok);
        dst[i].voltage_level_id = NULL;
        if (ctg_element_type_is_sided(t))
            dst[i].voltage_level_id = ctg_arena_strdup_or_flag(arena, src[i].voltage_level_id, &ok);
    }
    return ok ? dst : NULL;
}

/* Room for one more item; false when out of memory (the list keeps its items).
 * A root list grows a block of its own, which ctg_list_free releases; a list that was read
 * has cap == 0 and its items in the arena, which are first copied into such a block.
 * A nested list is never freed by itself, so it grows by copying within the arena. */
static bool reserve_item(ctg_list *list)
{
    const ctg_allocator *a = ctg_arena_allocator(list->arena);
    const size_t item = sizeof *list->items;
    size_t cap;
    void *p;

    if (list->count < list->cap)
        return true;
    if (!ctg_grow_capacity(list->cap, list->count + 1, 16, SIZE_MAX / item, &cap))
        return false;
    if (list->owns_arena && list->cap > 0) {
        p = ctg_mem_resize(a, list->items, list->cap * item, cap * item);
    } else {
        p = list->owns_arena ? ctg_mem_alloc(a, cap * item)
                             : ctg_arena_alloc(list->arena, cap * item, alignof(ctg_contingency));
        if (p != NULL && list->count > 0)
            memcpy(p, list->items, list->count * item);
    }
    if (p == NULL)
        return false;
    list->items = p;
    list->cap = cap;
    return true;
}

int ctg_list_add_contingency(ctg_list *list, const char *id, const char *name,
                             const ctg_element *elements, size_t count)
{
    ctg_contingency c = { 0 };
    bool ok = true;

    if (list == NULL || !holds_contingencies(list->kind) || id == NULL || !ctg_utf8_valid(id)
        || !ctg_utf8_valid(name) || !valid_elements(elements, count))
        return CTG_EINVAL;
    /* A bare contingency document holds exactly one. */
    if (list->kind == CTG_LIST_CONTINGENCY && list->count > 0)
        return CTG_EINVAL;
    if (!reserve_item(list))
        return CTG_ENOMEM;
    /* On failure below, what was copied stays in the arena until the list is freed. */
    c.id = ctg_arena_strdup_or_flag(list->arena, id, &ok);
    c.name = ctg_arena_strdup_or_flag(list->arena, name, &ok);
    if (count > 0) {
        c.elements = copy_elements(list->arena, elements, count);
        ok = ok && c.elements != NULL;
    }
    if (!ok)
        return CTG_ENOMEM;
    c.element_count = count;
    list->items[list->count++] = c;
    return CTG_OK;
}

int ctg_list_append_single(ctg_list *list, const char *prefix, size_t prefix_len, const char *id,
                           size_t id_len, ctg_element_type type)
{
    ctg_contingency *c;
    ctg_element *e;
    char *text;

    if (!reserve_item(list))
        return CTG_ENOMEM;
    /* The element, then the text: one arena request instead of three. */
    e = ctg_arena_alloc(list->arena, sizeof *e + prefix_len + id_len + 1, alignof(ctg_element));
    if (e == NULL)
        return CTG_ENOMEM;
    text = (char *)(e + 1);
    memcpy(text, prefix, prefix_len);
    memcpy(text + prefix_len, id, id_len);
    text[prefix_len + id_len] = '\0';
    e->id = text + prefix_len;
    e->type = type;
    e->voltage_level_id = NULL;
    c = &list->items[list->count++];
    memset(c, 0, sizeof *c);
    c->id = text;
    c->elements = e;
    c->element_count = 1;
    return CTG_OK;
}

/* Copies the NUL-terminated `s` to *at and moves *at past it; NULL stays NULL. */
static const char *put_string(char **at, const char *s)
{
    char *dst = *at;
    size_t n;

    if (s == NULL)
        return NULL;
    n = strlen(s) + 1;
    memcpy(dst, s, n);
    *at = dst + n;
    return dst;
}

/* The bytes of `c`'s strings as ctg_list_append_copy keeps them. The strings exist, so their
 * sum cannot overflow. */
static size_t copy_text_size(const ctg_contingency *c)
{
    size_t n = strlen(c->id) + 1 + (c->name != NULL ? strlen(c->name) + 1 : 0);

    for (size_t i = 0; i < c->element_count; i++) {
        const ctg_element *e = &c->elements[i];

        n += strlen(e->id) + 1;
        if (ctg_element_type_is_sided(e->type) && e->voltage_level_id != NULL)
            n += strlen(e->voltage_level_id) + 1;
    }
    return n;
}

int ctg_list_append_copy(ctg_list *list, const ctg_contingency *c)
{
    size_t elems = c->element_count * sizeof(ctg_element);
    ctg_element *dst;
    ctg_contingency *out;
    char *at;

    if (!reserve_item(list))
        return CTG_ENOMEM;
    dst = ctg_arena_alloc(list->arena, elems + copy_text_size(c), alignof(ctg_element));
    if (dst == NULL)
        return CTG_ENOMEM;
    at = (char *)dst + elems;
    for (size_t i = 0; i < c->element_count; i++) {
        ctg_element_type t = c->elements[i].type;

        dst[i].type = t == CTG_ELEMENT_DANGLING_LINE ? CTG_ELEMENT_BOUNDARY_LINE : t;
        dst[i].id = put_string(&at, c->elements[i].id);
        dst[i].voltage_level_id =
            ctg_element_type_is_sided(t) ? put_string(&at, c->elements[i].voltage_level_id) : NULL;
    }
    out = &list->items[list->count++];
    memset(out, 0, sizeof *out);
    out->id = put_string(&at, c->id);
    out->name = put_string(&at, c->name);
    out->elements = c->element_count > 0 ? dst : NULL;
    out->element_count = c->element_count;
    return CTG_OK;
}
