/* SPDX-License-Identifier: MPL-2.0 */
/* Resolves a contingency list of any kind (here, typically a criterion list) against an IIDM
 * network and prints the contingencies PowSyBl would run: ctg-resolve NETWORK LIST */

#include <stdio.h>

#include <ctg/ctg.h>
#include <ctg/iidm.h>
#include <ctg/resolve.h>

static int fail(const ctg_error *err)
{
    char text[1024];

    ctg_error_format(err, text, sizeof text);
    fprintf(stderr, "%s\n", text);
    return 1;
}

int main(int argc, char **argv)
{
    ctg_network *net = NULL;
    ctg_list *list = NULL, *resolved = NULL;
    ctg_error err;
    size_t count;

    if (argc != 3)
        return fprintf(stderr, "usage: ctg-resolve NETWORK LIST\n"), 2;
    ctg_source src = ctg_source_path(argv[1]); /* .xiidm, .jiidm, .gz: told by the content */
    if (ctg_iidm_read(&net, &src, NULL, &err) != CTG_OK)
        return fail(&err);
    if (ctg_list_read_file(&list, argv[2], NULL, &err) != CTG_OK ||
        ctg_resolve(&resolved, net, list, NULL, &err) != CTG_OK) {
        ctg_list_free(list);
        ctg_network_free(net);
        return fail(&err);
    }
    const ctg_contingency *c = ctg_list_contingencies(resolved, &count);
    for (size_t i = 0; i < count; i++) {
        printf("%s:", c[i].id);
        for (size_t j = 0; j < c[i].element_count; j++)
            printf(" %s %s", ctg_element_type_name(c[i].elements[j].type), c[i].elements[j].id);
        printf("\n");
    }
    ctg_list_free(resolved); /* a new `default` list, independent of the network */
    ctg_list_free(list);
    ctg_network_free(net);
    return 0;
}
