/* SPDX-License-Identifier: MPL-2.0 */
/* The node-breaker topology of the XIIDM importer: the calculated buses of the bus-breaker
 * view of each node-breaker voltage level. */

#include "iidm/xiidm.h"

int ctg_xiidm_nb_internal(xreader *r, bool *follow)
{
    (void)r;
    *follow = false;
    return CTG_OK;
}

int ctg_xiidm_nb_level_end(xreader *r)
{
    (void)r;
    return CTG_OK;
}

int ctg_xiidm_finish(xreader *r)
{
    (void)r;
    return CTG_OK;
}
