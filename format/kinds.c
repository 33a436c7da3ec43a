/* SPDX-License-Identifier: MPL-2.0 */
/* The table of list kinds (kinds.h): the one place that lists them. */

#include "format/kinds.h"

#include <string.h>

#include "ctg/io.h"
#include "base/names.h"
#include "format/version.h"
#include "format/write_version.h"

const ctg_key ctg_root_keys[CTG_RK_COUNT] = {
    [CTG_RK_TYPE] = CTG_KEY("type"),
    [CTG_RK_VERSION] = CTG_KEY("version"),
    [CTG_RK_NAME] = CTG_KEY("name"),
    [CTG_RK_CONTINGENCIES] = CTG_KEY("contingencies"),
    [CTG_RK_CONTINGENCY_LISTS] = CTG_KEY("contingencyLists"),
    [CTG_RK_IDENTIFIERS] = CTG_KEY("identifiers"),
    [CTG_RK_IDENTIFIABLE_TYPE] = CTG_KEY("identifiableType"),
    [CTG_RK_COUNTRY_CRITERION] = CTG_KEY("countryCriterion"),
    [CTG_RK_NOMINAL_VOLTAGE_CRITERION] = CTG_KEY("nominalVoltageCriterion"),
    [CTG_RK_PROPERTY_CRITERIA] = CTG_KEY("propertyCriteria"),
    [CTG_RK_REGEX_CRITERION] = CTG_KEY("regexCriterion"),
    [CTG_RK_ID] = CTG_KEY("id"),
    [CTG_RK_ELEMENTS] = CTG_KEY("elements"),
    [CTG_RK_EXTENSIONS] = CTG_KEY("extensions"),
};

/* No key of the criterion kinds fixes the kind when met before "type": each is shared by the
 * six (and identifiableType by legacy identifier lists). */
#define CRITERION_KEYS                                                                         \
    (CTG_RK_BIT(CTG_RK_IDENTIFIABLE_TYPE) | CTG_RK_BIT(CTG_RK_COUNTRY_CRITERION)              \
     | CTG_RK_BIT(CTG_RK_NOMINAL_VOLTAGE_CRITERION) | CTG_RK_BIT(CTG_RK_PROPERTY_CRITERIA)   \
     | CTG_RK_BIT(CTG_RK_REGEX_CRITERION))
#define CRITERION_KIND(json_name)                                                              \
    { json_name, CTG_VERSION_CRITERION, CTG_VERSION_CRITERION, CRITERION_KEYS, 0,              \
      ctg_criterion_list_field, ctg_criterion_list_finish, ctg_write_criterion_list }
#define BARE_KEYS                                                                              \
    (CTG_RK_BIT(CTG_RK_ID) | CTG_RK_BIT(CTG_RK_ELEMENTS) | CTG_RK_BIT(CTG_RK_EXTENSIONS))

const ctg_kind ctg_kinds[CTG_LIST_KIND_COUNT] = {
    [CTG_LIST_DEFAULT] = { "default", CTG_VERSION_DEFAULT, CTG_VERSION_DEFAULT,
                           CTG_RK_BIT(CTG_RK_CONTINGENCIES), CTG_RK_BIT(CTG_RK_CONTINGENCIES),
                           ctg_default_field, NULL, ctg_write_default_list },
    [CTG_LIST_LIST] = { "list", CTG_VERSION_LIST, CTG_VERSION_LIST,
                        CTG_RK_BIT(CTG_RK_CONTINGENCY_LISTS), CTG_RK_BIT(CTG_RK_CONTINGENCY_LISTS),
                        ctg_list_list_field, NULL, ctg_write_list_of_lists },
    [CTG_LIST_IDENTIFIER] = { "identifier", CTG_VERSION_IDENTIFIER, CTG_VERSION_IDENTIFIER,
                              CTG_RK_BIT(CTG_RK_IDENTIFIERS) | CTG_RK_BIT(CTG_RK_IDENTIFIABLE_TYPE),
                              CTG_RK_BIT(CTG_RK_IDENTIFIERS), ctg_identifier_list_field, NULL,
                              ctg_write_identifier_list },
    [CTG_LIST_INJECTION_CRITERION] = CRITERION_KIND("injectionCriterion"),
    [CTG_LIST_LINE_CRITERION] = CRITERION_KIND("lineCriterion"),
    [CTG_LIST_HVDC_CRITERION] = CRITERION_KIND("hvdcCriterion"),
    [CTG_LIST_TIE_LINE_CRITERION] = CRITERION_KIND("tieLineCriterion"),
    [CTG_LIST_TWT_CRITERION] = CRITERION_KIND("twoWindingsTransformerCriterion"),
    [CTG_LIST_THREE_WT_CRITERION] = CRITERION_KIND("threeWindingsTransformerCriterion"),
    /* A bare contingency document (contingency.json): the object alone, no type, no version;
     * it reads with the rules of `default`. */
    [CTG_LIST_CONTINGENCY] = { "contingency", NULL, CTG_VERSION_DEFAULT, BARE_KEYS, BARE_KEYS,
                               ctg_contingency_doc_field, ctg_contingency_doc_finish,
                               ctg_write_contingency_doc },
};

/* The "type" values by length (names.h); "contingency" is not one. */
#define K(x) (CTG_LIST_##x + 1)
static const unsigned char kinds_by_len[34][CTG_NAMES_PER_LEN] = {
    [4] = { K(LIST) },
    [7] = { K(DEFAULT) },
    [10] = { K(IDENTIFIER) },
    [13] = { K(LINE_CRITERION), K(HVDC_CRITERION) },
    [16] = { K(TIE_LINE_CRITERION) },
    [18] = { K(INJECTION_CRITERION) },
    [31] = { K(TWT_CRITERION) },
    [33] = { K(THREE_WT_CRITERION) },
};
#undef K
static const ctg_names kind_names = CTG_NAMES_IN(ctg_kinds, name, kinds_by_len);

bool ctg_list_kind_from_name(const char *name, size_t len, ctg_list_kind *out)
{
    unsigned v;

    if (!ctg_names_find(&kind_names, name, len, &v))
        return false;
    *out = (ctg_list_kind)v;
    return true;
}

const char *ctg_list_kind_name(ctg_list_kind kind)
{
    return (unsigned)kind < CTG_LIST_KIND_COUNT ? ctg_kinds[kind].name : NULL;
}

const char *ctg_list_kind_version(ctg_list_kind kind)
{
    return (unsigned)kind < CTG_LIST_KIND_COUNT ? ctg_kinds[kind].version : NULL;
}

int ctg_write_list_json(ctg_emitter *e, const ctg_list *list)
{
    ctg_list_kind kind = ctg_list_get_kind(list);

    if ((unsigned)kind >= CTG_LIST_KIND_COUNT)
        return CTG_EINVAL;
    return ctg_kinds[kind].write(e, list);
}

void ctg_write_list_head(ctg_emitter *e, ctg_list_kind kind, const char *name)
{
    const ctg_kind *k = &ctg_kinds[kind];
    const char *version = ctg_write_version_of(e, kind);

    if (name == NULL)
        name = "";
    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &ctg_root_keys[CTG_RK_TYPE], k->name, strlen(k->name));
    ctg_emit_member_string(e, &ctg_root_keys[CTG_RK_VERSION], version, strlen(version));
    ctg_emit_member_string(e, &ctg_root_keys[CTG_RK_NAME], name, strlen(name));
}
