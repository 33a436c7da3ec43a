/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BENCH_PEER_H
#define CTG_BENCH_PEER_H

/* The peers' common builder: what yajl's SAX callbacks and simdjson's On-Demand walk hand over
 * (strings as pointer and length, not NUL-terminated) turned into the same ctg_list that
 * ctg-read builds, through the public builders as jsonc-dom-map does. A C interface, so that
 * the one C++ runner (peer_simdjson.cpp) calls it too. Like jsonc-dom-map, the peers map
 * `default` lists without extensions, the kind the cases they are timed on hold. */

#include <stddef.h>

#include "ctg/ctg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An element being read: its strings as offsets into the builder's pool, plus one (0: absent),
 * since the pool moves when it grows. */
typedef struct bench_peer_element {
    size_t id, voltage_level_id;
    ctg_element_type type;
    int has_type;
} bench_peer_element;

typedef struct bench_peer {
    ctg_list *list;
    char *pool; /* the current contingency's strings, each NUL-terminated */
    size_t pool_len, pool_cap;
    bench_peer_element *elements;
    size_t count, cap;
    ctg_element *scratch; /* handed to ctg_list_add_contingency */
    size_t scratch_cap;
    size_t id, name; /* the contingency's, as pool offsets plus one */
    int unsupported; /* the input is outside the peers' scope: not an error of theirs */
    char why[256];
} bench_peer;

/* Zeroes `p`. */
void bench_peer_init(bench_peer *p);
/* Frees the scratch and a list not taken. */
void bench_peer_dispose(bench_peer *p);
/* Fails with `why` (printf-style); returns 0, the callbacks' "stop". */
int bench_peer_fail(bench_peer *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The root's "type" (must be `default`, else unsupported) and "name", both before
 * "contingencies": the list is made at its name. 1, or 0 after bench_peer_fail. */
int bench_peer_type(bench_peer *p, const char *s, size_t len);
int bench_peer_list(bench_peer *p, const char *name, size_t len);
/* Copies `s` into the pool; its offset plus one, or 0 when out of memory. */
size_t bench_peer_keep(bench_peer *p, const char *s, size_t len);
/* A new element, zeroed; NULL when out of memory. */
bench_peer_element *bench_peer_element_add(bench_peer *p);
int bench_peer_element_type(bench_peer *p, bench_peer_element *e, const char *s, size_t len);
/* The element has an id and a type; 1 or 0. */
int bench_peer_element_end(bench_peer *p, const bench_peer_element *e);
/* Adds the contingency read (p->id, p->name, the elements) to the list and starts the next;
 * 1 or 0. */
int bench_peer_contingency_end(bench_peer *p);

/* yajl's SAX parser into `p` (peer_yajl.c); 1 when the list is built, else 0 with p->why set. */
int bench_yajl_map(bench_peer *p, const char *data, size_t len);

/* simdjson On-Demand into `p` (peer_simdjson.cpp): `len` bytes of `data`, of which `cap` are
 * readable (simdjson reads up to SIMDJSON_PADDING past the end: with less room it copies the
 * input first). 1 when the list is built, else 0 with p->why set. */
int bench_simdjson_map(bench_peer *p, const char *data, size_t len, size_t cap);
/* The kernel simdjson's On-Demand was compiled for ("haswell", "icelake", ...). */
const char *bench_simdjson_kernel(void);

#ifdef __cplusplus
}
#endif

#endif
