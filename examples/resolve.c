/* SPDX-License-Identifier: MPL-2.0 */
/* Resolves a contingency list of any kind (a criterion list, say) against an IIDM network and
 * prints the contingencies PowSyBl would run: ctg-resolve NETWORK LIST */

#include <stdio.h>

#include <ctg/ctg.h>
#include <ctg/iidm.h>
#include <ctg/resolve.h>

int main(int argc, char **argv)
{
    ctg_network *net = NULL;
    ctg_list *list = NULL, *resolved = NULL;
    ctg_error err;
    int rc;

    if (argc != 3)
        return 2;
    ctg_source src = ctg_source_path(argv[1]); /* .xiidm, .jiidm, .gz: told by the content */
    rc = ctg_iidm_read(&net, &src, NULL, &err);
    if (rc == CTG_OK)
        rc = ctg_list_read_file(&list, argv[2], NULL, &err);
    if (rc == CTG_OK) /* a new `default` list; an error names the list item's path */
        rc = ctg_resolve(&resolved, net, list, NULL, &err);
    if (rc == CTG_OK) {
        size_t count;
        const ctg_contingency *c = ctg_list_contingencies(resolved, &count);

        for (size_t i = 0; i < count; i++) {
            printf("%s:", c[i].id);
            for (size_t j = 0; j < c[i].element_count; j++)
                printf(" %s %s", ctg_element_type_name(c[i].elements[j].type), c[i].elements[j].id);
            printf("\n");
        }
    } else {
        char text[1024];

        ctg_error_format(&err, text, sizeof text); /* file:line:column: error: path: ... */
        fprintf(stderr, "%s\n", text);
    }
    ctg_list_free(resolved); /* each _free accepts NULL */
    ctg_list_free(list);
    ctg_network_free(net);
    return rc == CTG_OK ? 0 : 1;
}
