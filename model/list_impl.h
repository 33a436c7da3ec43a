/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_MODEL_LIST_IMPL_H
#define CTG_MODEL_LIST_IMPL_H

/* Private: the layout behind the opaque ctg_list, shared by model/ and the readers and writers above it. */

#include <stdbool.h>

#include "ctg/model.h"
#include "base/arena.h"
#include "base/internal.h"

/* The deepest nesting of `list` lists read or written: reading and writing them recurse once
 * per level, so a fixed bound keeps the recursion shallow whatever max_depth allows. */
#define CTG_LIST_MAX_NESTING 256

struct ctg_list {
    ctg_arena *arena;      /* owns every string and element; shared by nested lists */
    bool owns_arena;       /* false for a list nested inside another */
    ctg_list_kind kind;
    const char *name;      /* never NULL */
    const char *version;   /* as read; NULL when absent or built in code */
    /* `default` lists: items is a block of `cap` entries from the arena's allocator, owned by
     * the list (not the arena) so that it can grow while building and so that a reader can hand
     * its array over without a copy. */
    ctg_contingency *items;
    size_t count;
    size_t cap;
    /* `list` lists: nested lists, each allocated in this list's arena (owns_arena false).
     * The array of pointers is arena-owned too and regrown by copying when built in code. */
    ctg_list **children;
    size_t child_count;
    size_t child_cap;
    /* `identifier` lists: arena-owned array. */
    ctg_identifier *identifiers;
    size_t identifier_count;
    size_t identifier_cap;
    /* criterion lists. */
    ctg_criteria criteria;
};

/* Whether a caller-built contingency holds what the builders accept: an id, UTF-8 strings,
 * `element_count` elements of known types, extensions with a name and one kind of value (the
 * JSON text of a kept value is not parsed here). */
bool ctg_contingency_valid(const ctg_contingency *c);

/* The one table of element types, indexed by ctg_element_type: the JSON name, and which of
 * them carry a side (voltageLevelId). `side_written`: the builders keep a side given for it
 * and the writer writes it (ctg_element_type_is_sided). `side_read`: the reader keeps it; all
 * the sided types but DC_LINE, whose side is written but dropped on read (spec 2.2). */
typedef struct ctg_element_type_def {
    const char *name;
    bool side_written;
    bool side_read;
} ctg_element_type_def;
extern const ctg_element_type_def ctg_element_types[CTG_ELEMENT_TYPE_COUNT];

/* Appends to a `default` list built in code a contingency of one element, without the checks
 * of ctg_list_add_contingency: an evaluation makes hundreds of thousands of them, and half of
 * their cost was checking again what it knows. The caller guarantees `list` holds
 * contingencies, `type` is a valid element type other than DANGLING_LINE, and the `prefix_len`
 * bytes at `prefix` and the `id_len` bytes at `id` are UTF-8 without a NUL. The contingency's
 * id is prefix + id; the element's id is its last `id_len` bytes (one copy, shared), its side
 * NULL, and no name: the list is the one ctg_list_add_contingency would make. CTG_ENOMEM
 * leaves the list as it was. */
CTG_INTERNAL int ctg_list_append_single(ctg_list *list, const char *prefix, size_t prefix_len,
                                        const char *id, size_t id_len, ctg_element_type type);

/* Appends to a `default` list built in code a copy of `c`, a contingency of a list (so valid:
 * not checked again), without its extensions: the caller takes ctg_list_add_contingency_copy
 * for one that has some. Its elements and strings take one arena request instead of one each;
 * types and sides are kept as copy_elements keeps them. CTG_ENOMEM leaves the list as it was. */
CTG_INTERNAL int ctg_list_append_copy(ctg_list *list, const ctg_contingency *c);

/* A list struct allocated in `arena` (kind, name set; the rest zeroed). NULL on ENOMEM. */
ctg_list *ctg_list_alloc_in(ctg_arena *arena, ctg_list_kind kind, const char *name);

#endif
