/* SPDX-License-Identifier: MPL-2.0 */
/* Placeholder of the JIIDM importer until iidm/jiidm.c lands: that file defines
 * ctg_jiidm_read and deletes this one. */

#include "base/error_set.h"
#include "iidm/iidm_internal.h"

int ctg_jiidm_read(ctg_network **out, const ctg_iidm_input *in, ctg_error *err)
{
    (void)in;
    *out = NULL;
    return ctg_error_set(err, CTG_EUNSUPPORTED, NULL, "", "JIIDM is not read yet");
}
