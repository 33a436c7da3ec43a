/* SPDX-License-Identifier: MPL-2.0 */
/* ctg-example: what a program built against an installed ctg looks like. It loads a list,
 * prints how many elements of each type its contingencies hold (nested lists included) and
 * the type of each kept extension value (as a json-c tree), then writes the list back to
 * another path.
 *
 *   usage: ctg-example IN OUT      (OUT ending in .gz is compressed)
 *
 * It calls json-c directly, on the trees ctg builds: linking it checks that ctg brings json-c
 * to its users (ctg::ctg, ctg::ctg_static, pkg-config --libs ctg). */

#include <stdio.h>

#include <ctg/ctg.h>
#include <ctg/jsonc.h>
#include <json-c/json.h>

typedef struct tally {
    size_t contingencies;
    size_t per_type[CTG_ELEMENT_TYPE_COUNT];
} tally;

static void print_extensions(const ctg_contingency *c)
{
    for (size_t i = 0; i < c->extension_count; i++) {
        const ctg_extension *x = &c->extensions[i];

        struct json_object *tree = NULL;

        /* No handler was registered, so each value is kept as JSON text (x->json); json-c
         * sees it as a tree on request (NULL for JSON null). */
        if (x->handler == NULL && ctg_extension_to_json_object(&tree, x, NULL) == CTG_OK)
            printf("  extension %s of %s: %s\n", x->name, c->id,
                   json_type_to_name(json_object_get_type(tree)));
        json_object_put(tree);
    }
}

/* Counts the contingencies of `list` and of the lists nested in it. */
static void count(const ctg_list *list, tally *t)
{
    size_t n = 0;
    const ctg_contingency *c = ctg_list_contingencies(list, &n);

    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < c[i].element_count; j++) {
            /* A newer library may know types this program was not compiled with. */
            if ((size_t)c[i].elements[j].type < CTG_ELEMENT_TYPE_COUNT)
                t->per_type[c[i].elements[j].type]++;
        }
        print_extensions(&c[i]);
    }
    t->contingencies += n;
    for (size_t i = 0; i < ctg_list_child_count(list); i++)
        count(ctg_list_child_at(list, i), t);
}

static int fail(const ctg_error *err)
{
    char text[1024];

    ctg_error_format(err, text, sizeof text);
    fprintf(stderr, "%s\n", text);
    return 1;
}

int main(int argc, char **argv)
{
    ctg_list *list = NULL;
    ctg_error err;
    tally t = { 0 };

    if (argc != 3) {
        fprintf(stderr, "usage: ctg-example IN OUT\n");
        return 2;
    }
    if (ctg_list_read_file(&list, argv[1], NULL, &err) != CTG_OK)
        return fail(&err);
    if (ctg_list_get_kind(list) == CTG_LIST_CONTINGENCY)
        printf("%s: a bare contingency, ctg %s\n", argv[1], ctg_version_string());
    else
        printf("%s: a %s list \"%s\", ctg %s\n", argv[1],
               ctg_list_kind_name(ctg_list_get_kind(list)), ctg_list_name(list),
               ctg_version_string());
    count(list, &t);
    printf("contingencies: %zu\n", t.contingencies);
    for (int type = 0; type < CTG_ELEMENT_TYPE_COUNT; type++) {
        if (t.per_type[type] != 0)
            printf("  %s: %zu\n", ctg_element_type_name((ctg_element_type)type), t.per_type[type]);
    }
    if (ctg_list_write_file(argv[2], list, NULL, &err) != CTG_OK) {
        ctg_list_free(list);
        return fail(&err);
    }
    printf("written to %s\n", argv[2]);
    ctg_list_free(list);
    return 0;
}
