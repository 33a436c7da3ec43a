/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_SA_STRATEGY_H
#define CTG_FORMAT_SA_STRATEGY_H

/* Private: what the operator-strategy reader (format/sa_strategy.c) and its builder
 * (format/sa_strategy_build.c) share: the member indexes, the document's body, and the checks
 * of a finished object, which both run so that a built document writes what a read one would.
 * Hidden inside libctg (not CTG_INTERNAL). */

#include <stdbool.h>
#include <stddef.h>

#include "ctg/sa.h"

#define CTG_SA_BIT(i) (1u << (i))

/* Condition members, `type` first, then in PowSyBl's write order (spec 3.4). */
enum {
    C_TYPE,
    C_FILTERS,
    C_VIOLATION_IDS,
    C_EQUIPMENT_ID,
    C_VARIABLE,
    C_COMPARISON,
    C_THRESHOLD,
    C_SIDE,
    C_AC_SIDE,
    C_TERMINAL,
    C_COUNT
};

/* Strategy members in write order; `condition` and `actionIds` are the 1.0 layout's. */
enum { S_ID, S_CONTEXT_TYPE, S_CONTINGENCY_ID, S_STAGES, S_EXTENSIONS, S_CONDITION, S_ACTION_IDS,
       S_COUNT };

/* The document's body: the strategies, growing by doubling for the builder. */
typedef struct strategy_body {
    ctg_operator_strategy *items;
    size_t count, cap;
} strategy_body;

/* What a check found: the member (relative to the object checked) and why. Only
 * format/sa_strategy*.c include this header, so the short names clash with nothing. */
typedef struct fault {
    unsigned key; /* C_* for conditions, S_* for strategies; C_COUNT: the condition itself */
    int code;     /* CTG_EINVAL, or CTG_ENOMEM when a check could not be made */
    char msg[160];
} fault;

/* Fills `f` (`msg` a format with one %s, `arg`) and returns false, for `return` in a check. */
bool ctg_sa_fault(fault *f, unsigned key, const char *msg, const char *arg);
/* Whether the `n` ids are all set and valid UTF-8. */
bool ctg_sa_check_ids(const char *const *ids, size_t n);
/* The checks of a condition's values (its members' presence is the reader's to check). */
bool ctg_sa_check_condition(const ctg_condition *c, fault *f);
/* A strategy's context: a known type, SPECIFIC with a contingency id (key: S_*). */
bool ctg_sa_check_context(const ctg_contingency_context *c, fault *f);
/* The C_* bits of the members condition type `type` has. */
unsigned ctg_sa_condition_members(ctg_condition_type type);
/* The JSON names of condition member `key` (C_*) and strategy member `key` (S_*). */
const char *ctg_sa_condition_key(unsigned key);
const char *ctg_sa_strategy_key(unsigned key);

#endif
