/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_NETWORK_TABLE_H
#define CTG_NETWORK_TABLE_H

/* Private: the equipment table's internals that the importers and the evaluation use. */

#include "ctg/network.h"

/* Records the IIDM version of the file read ("1.17"), copied; CTG_ENOMEM or CTG_OK. */
int ctg_network_set_iidm_version(ctg_network *net, const char *version);

#endif
