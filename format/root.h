/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_SERDE_READ_ROOT_H
#define CTG_SERDE_READ_ROOT_H

/* Private: the root object of a document, and of each list nested in a `list` list.
 *
 * Every key any kind accepts at the root level is in one table (root keys); each kind says
 * which of them are its own. The kind is fixed by "type" or, when fields come before it, by
 * the first field that only one kind has (PowSyBl's dispatcher would skip those fields). */

#include "json/reader.h"

/* Root keys. */
enum ctg_root_key {
    CTG_RK_TYPE,
    CTG_RK_VERSION,
    CTG_RK_NAME,
    CTG_RK_CONTINGENCIES,
    CTG_RK_CONTINGENCY_LISTS,
    CTG_RK_IDENTIFIERS,
    CTG_RK_IDENTIFIABLE_TYPE,
    CTG_RK_COUNTRY_CRITERION,
    CTG_RK_NOMINAL_VOLTAGE_CRITERION,
    CTG_RK_PROPERTY_CRITERIA,
    CTG_RK_REGEX_CRITERION,
    CTG_RK_ID,
    CTG_RK_ELEMENTS,
    CTG_RK_EXTENSIONS,
    CTG_RK_COUNT
};
#define CTG_RK_BIT(k) (1u << (k))

/* How one kind reads the root-level fields that are its own. */
typedef struct ctg_kind_reader {
    const char *version;   /* the newest format version this library reads */
    unsigned own_keys;     /* CTG_RK_BIT()s of the keys this kind accepts beyond the common ones */
    unsigned infer_keys;   /* own keys that, met before "type", fix the kind */
    /* Reads the value of own key `key` (rd->tok on its first token). */
    int (*field)(ctg_reader *rd, ctg_list *list, unsigned key);
    /* After the object: required fields. `start` is the object's '{'. May be NULL. The
     * version rules are judged after it, by the list's scope (scope.h). */
    int (*finish)(ctg_reader *rd, ctg_list *list, const ctg_mark *start, unsigned seen);
} ctg_kind_reader;

/* One per kind, indexed by ctg_list_kind; defined beside each kind's reader. */
extern const ctg_kind_reader ctg_kind_default;
extern const ctg_kind_reader ctg_kind_list;
extern const ctg_kind_reader ctg_kind_identifier;
extern const ctg_kind_reader ctg_kind_criterion;   /* the six criterion kinds share one */
extern const ctg_kind_reader ctg_kind_contingency; /* a bare contingency document */

/* Reads a whole document (root value through end of input) into `list`. */
int ctg_read_root(ctg_reader *rd, ctg_list *list);

/* Reads one list object (rd->tok on '{') into `list`: the root, or an item of a `list` list.
 * `nested` is true for the latter (a bare contingency is not allowed there). */
int ctg_read_list_object(ctg_reader *rd, ctg_list *list, bool nested);

#endif
