/* The `identifier` kind (spec 4). Placeholder until its reader lands: refused, not misread. */

#include "serde/read_root.h"
#include "serde/version.h"

static int identifier_field(ctg_reader *rd, ctg_list *list, unsigned key)
{
    (void)list;
    (void)key;
    return ctg_reader_fail(rd, CTG_EUNSUPPORTED, "identifier lists are not supported yet");
}

const ctg_kind_reader ctg_kind_identifier = {
    CTG_VERSION_IDENTIFIER,
    CTG_RK_BIT(CTG_RK_IDENTIFIERS) | CTG_RK_BIT(CTG_RK_IDENTIFIABLE_TYPE),
    CTG_RK_BIT(CTG_RK_IDENTIFIERS),
    identifier_field, NULL,
};
