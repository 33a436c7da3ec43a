/* The six criterion kinds (spec 5). Placeholder until their reader lands: refused, not
 * misread. */

#include "serde/read_root.h"
#include "serde/version.h"

static int criterion_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    (void)list;
    (void)key;
    return ctg_reader_fail(rd, CTG_EUNSUPPORTED, "criterion lists are not supported yet");
}

const ctg_kind_reader ctg_kind_criterion = {
    CTG_VERSION_CRITERION,
    CTG_RK_BIT(CTG_RK_IDENTIFIABLE_TYPE) | CTG_RK_BIT(CTG_RK_COUNTRY_CRITERION)
        | CTG_RK_BIT(CTG_RK_NOMINAL_VOLTAGE_CRITERION) | CTG_RK_BIT(CTG_RK_PROPERTY_CRITERIA)
        | CTG_RK_BIT(CTG_RK_REGEX_CRITERION),
    0, criterion_field, NULL,
};
