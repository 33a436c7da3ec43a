/* SPDX-License-Identifier: MPL-2.0 */
#include "ctg/version.h"

const char *ctg_version_string(void)
{
    return CTG_VERSION_STRING;
}
