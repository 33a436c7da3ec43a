/* SPDX-License-Identifier: MPL-2.0 */
/* The XIIDM importer's side of the calculated buses of node-breaker voltage levels: it
 * records each level's switches, internal connections and terminal nodes as it reads them in
 * the graph both importers share (iidm/topology.h, where the rule is), and adds the buses
 * once the document has ended, since a branch's terminals come after its levels. */

#include <stdio.h>

#include "iidm/xiidm.h"

static int recorded(xreader *r, int rc)
{
    return rc == CTG_OK ? CTG_OK : ctg_xiidm_fail(r, CTG_ENOMEM, "out of memory");
}

int ctg_xiidm_nb_switch(xreader *r, uint32_t n1, uint32_t n2, bool joins)
{
    return recorded(r, ctg_nb_graph_edge(&r->graph, r->vl->type_index, n1, n2, joins));
}

int ctg_xiidm_nb_internal(xreader *r, bool *follow)
{
    unsigned n1, n2;
    const char *a = r->attrs[XA_NODE1], *b = r->attrs[XA_NODE2];

    *follow = false;
    if (!a || !b || sscanf(a, "%u", &n1) != 1 || sscanf(b, "%u", &n2) != 1)
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "internalConnection needs node1 and node2");
    return recorded(r, ctg_nb_graph_edge(&r->graph, r->vl->type_index, n1, n2, true));
}

int ctg_xiidm_nb_terminal(xreader *r, const ctg_net_object *vl, uint32_t node)
{
    return recorded(r, ctg_nb_graph_node(&r->graph, vl->type_index, node));
}

int ctg_xiidm_nb_level_end(xreader *r)
{
    return recorded(r, ctg_nb_graph_level_end(&r->graph));
}

int ctg_xiidm_finish(xreader *r)
{
    ctg_error why;
    int rc = ctg_nb_graph_add_buses(&r->graph, r->net, &why);

    if (rc == CTG_OK)
        return CTG_OK;
    return ctg_xiidm_fail(r, rc == CTG_ENOMEM ? CTG_ENOMEM : CTG_ESCHEMA, "%s", why.message);
}
