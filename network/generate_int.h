/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_GENERATE_INT_H
#define CTG_NETWORK_GENERATE_INT_H

/* Private: the state of one generation (ctg_generate and friends), shared by the files of the
 * generator: the selection turned into one criterion set per type (generate_select.c), the
 * id format (generate_id.c), the pair rules (generate_pairs.c, generate_parallel.c) and the
 * criterion list (generate.c). The evaluation's state (rs_ctx) is reused for its criterion
 * filter, its element mapping, its error path and its scratch memory. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctg/generate.h"
#include "network/regex.h"
#include "network/resolve_int.h"

/* One selected type: its criterion list kind and the criteria of the selection for it. */
typedef struct gen_type {
    ctg_identifiable_type type;
    ctg_list_kind kind;
    ctg_criterion country, voltage;
    ctg_criteria cr; /* points to the two above, the shared properties and regex */
} gen_type;

/* One piece of a compiled id format: `len` bytes of literal text, or a placeholder. */
typedef struct gen_seg {
    const char *text; /* the literal, in the format string; NULL for a placeholder */
    size_t len;
    int field; /* the placeholder (generate_id.c) */
} gen_seg;

typedef struct gen_ctx {
    rs_ctx rs;
    const ctg_network *net; /* NULL for ctg_generate_as_criterion */
    const ctg_gen_options *opts;
    const ctg_gen_selection *sel;
    const ctg_allocator *alloc;
    gen_type *types;
    size_t type_count;
    ctg_criterion *props; /* sel->property_count PROPERTY criteria, SELF */
    ctg_criterion regex;
    ctg_regex *re; /* compiled once, at setup */
    /* The subnetwork filter: `subnetwork` is the owner to match when `by_subnetwork` (never
     * for the root, which holds every object). */
    bool by_subnetwork;
    const ctg_net_object *subnetwork, *connected;
    const char *format; /* the id format in use */
    gen_seg *segs;      /* `format` compiled once: no parse per contingency */
    size_t seg_count;
    /* The format is a literal then the one id ({id}, {id1}): N-1_{id}, the default; its id is
     * then the literal's bytes (kept in g->rs.text between contingencies) and the id's. */
    bool prefix_id;
    size_t prefix_len;
    /* A pair format that is a literal, {id1}, a literal, {id2}: N-2_{id1}+{id2}, the default;
     * its id is written by four copies, without a walk of the format per pair. */
    bool pair_ids;
    /* A pair format's length but for its ids ({id1} and {id2} appearing id1_count and
     * id2_count times): a pair's id length is known from its members' without a strlen. */
    size_t pair_fixed, id1_count, id2_count;
    uint64_t max;
    ctg_gen_emit_fn emit; /* NULL: counting */
    void *payload;
    uint64_t emitted;
} gen_ctx;

/* A visitor of the selection, called per selected object in order; `index` counts them. */
typedef int (*gen_visit_fn)(gen_ctx *g, const ctg_net_object *obj, size_t index, void *arg);

/* generate_select.c */
/* Checks `opts` and prepares `g` (the network may be NULL: then the filters that need it are
 * refused only if set). CTG_OK, CTG_EINVAL or CTG_ENOMEM with the message set. */
int ctg_gen_setup(gen_ctx *g, const ctg_network *net, const ctg_gen_options *opts,
                  ctg_error *err);
void ctg_gen_dispose(gen_ctx *g);
/* Calls `visit` for every selected object, in the selection's order. */
int ctg_gen_select(gen_ctx *g, gen_visit_fn visit, void *arg);
/* The same for the objects of the selected type g->types[k] alone, `*index` counting on. */
int ctg_gen_select_type(gen_ctx *g, size_t k, gen_visit_fn visit, void *arg, size_t *index);
/* Whether every object of g->types[k] is selected (no filter applies to it). */
bool ctg_gen_takes_all(const gen_ctx *g, size_t k);
/* Whether the selection is every object of its types (no filter at all). */
bool ctg_gen_selects_all(const gen_ctx *g);
/* The number of objects of every selected type: the most the selection can hold, and its
 * size when ctg_gen_selects_all. */
uint64_t ctg_gen_upper_bound(const gen_ctx *g);

/* generate_id.c */
/* Checks `format` for the rule (pairs or not) and compiles it into g->segs (released by
 * ctg_gen_dispose): CTG_EINVAL with a message when it names another placeholder or has a lone
 * brace, CTG_ENOMEM. */
int ctg_gen_format_check(gen_ctx *g, const char *format, bool pair);
/* The id of the contingency of `a` (and `b` for a pair: non-NULL) into g->rs.text. */
int ctg_gen_format(gen_ctx *g, const ctg_net_object *a, const ctg_net_object *b);
/* Builds and emits the contingency of `a` (and `b`), counting it; CTG_ESTOPPED when the
 * callback asks to stop. Counting mode (no callback): only counts. */
int ctg_gen_emit(gen_ctx *g, const ctg_net_object *a, const ctg_net_object *b);

/* generate_busbar.c: the topology is a sorted set of links busbar -> equipment lost with it. */
typedef struct gen_link {
    const ctg_net_object *busbar, *member;
} gen_link;

struct ctg_gen_topology {
    const ctg_network *net;
    ctg_allocator alloc_copy;
    const ctg_allocator *alloc; /* &alloc_copy, or NULL for malloc */
    gen_link *links;
    size_t len, cap;
    size_t busbars; /* distinct busbars among the links, after ctg_gen_topo_finish */
};

/* An empty topology of `net` (the reader's first step); CTG_ENOMEM. */
int ctg_gen_topo_new(ctg_gen_topology **out, const ctg_network *net, const ctg_allocator *a);
/* Records that `member` is lost with `busbar` (duplicates allowed); CTG_ENOMEM. */
int ctg_gen_topo_link(ctg_gen_topology *t, const ctg_net_object *busbar,
                      const ctg_net_object *member);
/* Sorts the links into the busbars' order (busbar sections, then buses, each in enumeration
 * order; a busbar's equipment in document order) and drops duplicates. */
void ctg_gen_topo_finish(ctg_gen_topology *t);
/* The busbar rule over the selection, emitted (`emit`) or counted; the selected objects
 * counted per type into `selected` unless NULL. */
int ctg_gen_busbar(gen_ctx *g, bool emit, uint64_t *count, uint64_t *groups,
                   uint64_t *selected);
/* One member of a pair rule's group: its object, its element and the length of its id, found
 * once for all its pairs. */
typedef struct gen_member {
    const ctg_net_object *obj;
    ctg_element elem;
    size_t id_len;
} gen_member;
/* ctg_gen_emit_pair of two members. */
int ctg_gen_emit_members(gen_ctx *g, const gen_member *a, const gen_member *b);
/* ctg_gen_emit of a pair whose elements are mapped already. */
int ctg_gen_emit_pair(gen_ctx *g, const ctg_net_object *a, const ctg_net_object *b,
                      const ctg_element *ea, const ctg_element *eb);
/* Emits one contingency named after `busbar` with an element per object of `objs`. */
int ctg_gen_emit_set(gen_ctx *g, const ctg_net_object *busbar, const ctg_net_object *const *objs,
                     size_t n);

/* generate_pairs.c */
/* The selection kept for the pair rules: its objects in order and the element of each, mapped
 * once rather than once per pair. */
typedef struct gen_groups gen_groups;
typedef struct gen_sel {
    const ctg_net_object **objs;
    ctg_element *elems;
    size_t n;
    gen_groups *groups; /* the rule's groups, made by the first ctg_gen_pairs; NULL before */
} gen_sel;
/* The pairs of g's rule over the selection: emitted through ctg_gen_emit_pair when `emit`,
 * else counted into *count and *groups. The groups are found by the first call and kept in
 * `sel` for the next (the count, then the emission), until ctg_gen_pairs_release. */
int ctg_gen_pairs(gen_ctx *g, gen_sel *sel, bool emit, uint64_t *count, uint64_t *groups);
void ctg_gen_pairs_release(gen_ctx *g, gen_sel *sel);

/* generate_parallel.c: the parallel rule's groups, found once and walked by the emission: the
 * groups of two or more in the order of their first branch in the selection, each group's
 * members in selection order. */
typedef struct gen_par {
    const ctg_net_object **objs; /* the members, group after group; NULL when counting */
    size_t *ends;                /* per group: where its members end in objs */
    size_t members, largest;     /* the groups' members; the size of the largest group */
    void *block;                 /* objs and ends, one allocation of block_size bytes */
    size_t block_size;
    uint64_t pairs, groups;
} gen_par;

/* Finds the groups of the parallel rule over the selection into `p` (released by
 * ctg_gen_parallel_release, even after a failure), their objects only when generating
 * (g->emit set), adding each selected object to
 * selected[type] when `selected` is not NULL. CTG_OK, CTG_ESCHEMA (an object of the selection
 * that cannot be an element) or CTG_ENOMEM. */
int ctg_gen_parallel_find(gen_ctx *g, gen_par *p, uint64_t *selected);
/* Emits the pairs of `p` in the rule's order (ctg/generate.h). */
int ctg_gen_parallel_emit(gen_ctx *g, const gen_par *p);
void ctg_gen_parallel_release(gen_ctx *g, gen_par *p);

#endif
