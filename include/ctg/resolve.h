/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_RESOLVE_H
#define CTG_RESOLVE_H

/**
 * @file resolve.h
 * Resolving a contingency list of any kind against a network (libctg_network): the concrete
 * contingencies PowSyBl's getContingencies(network) returns, as a new `default` list.
 *
 * `default` lists go through the validity filter (every element must exist, with its type and
 * side); nested lists are resolved block by block; criterion lists give one contingency per
 * matching object, in enumeration order; identifier lists go identifier by identifier. Where
 * PowSyBl leaves the order unspecified (ID_WITH_WILDCARDS, SUBSTATION_OR_VOLTAGE_LEVEL_
 * EQUIPMENTS) ctg uses document order. Regular expressions are RE2's, found anywhere in the id.
 *
 * Threads: a network and a list may be resolved from several threads at once.
 */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/model.h"
#include "ctg/network.h"
#include "ctg/stream.h"

CTG_BEGIN_DECL

/** What a resolve event reports: what PowSyBl only logs. */
typedef enum ctg_resolve_event_kind {
    /** A `default` list's contingency left out: `element_id` (of `element_type`) is missing,
     *  of another type, or on another side (`message` says which). */
    CTG_RESOLVE_DROPPED = 0,
    /** An identifier that matched nothing: left out. */
    CTG_RESOLVE_NOT_FOUND,
    /** VOLTAGE_LEVELS_AND_ORDER: both voltage levels exist but not exactly one connectable
     *  between them has the order (PowSyBl's "found several connectables" warning). */
    CTG_RESOLVE_AMBIGUOUS
} ctg_resolve_event_kind;

/** One report; everything is borrowed until the callback returns. */
typedef struct ctg_resolve_event {
    ctg_resolve_event_kind kind; /**< what happened */
    const char *path;           /**< JSON Pointer of the list item, e.g. "/identifiers/3" */
    const char *contingency_id; /**< DROPPED: the contingency; else NULL */
    const char *element_id;     /**< DROPPED: the failing element; NOT_FOUND: the id looked
                                     for (NULL when the identifier has none) */
    ctg_element_type element_type; /**< DROPPED: the failing element's type */
    const char *message;        /**< one line, lower case, e.g. "no generator with this id" */
} ctg_resolve_event;

/** The version of ctg_resolve_options these headers describe. */
#define CTG_RESOLVE_OPTIONS_VERSION 1

/** Options of a resolve; a zeroed struct is the defaults. Borrowed for the call. */
typedef struct ctg_resolve_options {
    unsigned version;               /**< CTG_RESOLVE_OPTIONS_VERSION; 0 = 1 */
    const ctg_allocator *allocator; /**< for the new list; NULL: malloc/free */
    /** Called for each event, in list order; a nonzero return stops the resolve with
     *  CTG_ESTOPPED. NULL: events are not reported (and cost nothing). */
    int (*report)(const ctg_resolve_event *event, void *payload);
    void *payload;                  /**< passed to `report` */
} ctg_resolve_options;

/**
 * Resolves `list` against `net` into a new `default` list with the same name.
 * Failures of PowSyBl's evaluation (spec: an object that cannot be a contingency element, an
 * empty id, a BUS injection criterion, a property criterion without a usable side, a null or
 * invalid regex, a converter station without HVDC line) fail with CTG_ESCHEMA: err.path is
 * the JSON Pointer of the list item in the input ("/contingencyLists/1/regexCriterion",
 * "/identifiers/3", "/contingencies/4/elements/0") and the message names the equipment id;
 * no list is returned.
 * @param[out] out the new list, NULL on failure; the caller owns it (ctg_list_free).
 * @param net      the network; only read.
 * @param list     the list of any kind; only read.
 * @param opts     NULL for defaults.
 * @param[out] err may be NULL; written only on failure.
 * @return CTG_OK, CTG_ESCHEMA, CTG_EINVAL, CTG_ENOMEM or CTG_ESTOPPED.
 */
CTG_API int ctg_resolve(ctg_list **out, const ctg_network *net, const ctg_list *list,
                        const ctg_resolve_options *opts, ctg_error *err);

/**
 * The validity check of one contingency of a `default` list: *valid is true when every
 * element exists in `net` with its type and side. An empty element id fails (CTG_ESCHEMA, path
 * "/elements/N"), as it does in PowSyBl. `report`, when set, gets the DROPPED event of an invalid one.
 */
CTG_API int ctg_resolve_check(const ctg_network *net, const ctg_contingency *c,
                              const ctg_resolve_options *opts, bool *valid, ctg_error *err);

/**
 * Resolves the list read from `src` into `w` as it is read: contingencies of `default` lists
 * go through the validity filter one by one, in constant memory beyond the network; other
 * lists are resolved whole as they end. `w` is left open: the caller closes (or aborts) it.
 * Error paths and report paths are those of ctg_resolve, except in a list nested two levels
 * deep or more, where they are relative to that list (the stream names no list's parents).
 * @return as ctg_resolve, plus the read's errors (read_opts: NULL for defaults).
 */
CTG_API int ctg_resolve_stream(const ctg_network *net, const ctg_source *src,
                               const ctg_read_options *read_opts, ctg_stream_writer *w,
                               const ctg_resolve_options *opts, ctg_error *err);

CTG_END_DECL

#endif
