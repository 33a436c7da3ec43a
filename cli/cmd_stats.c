/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli stats FILE: counts contingencies and elements per type, streaming. */

#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct stats {
    cli_progress progress; /* first: the visitor's payload is also the progress bar's */
    size_t contingencies;
    size_t elements;
    size_t per_type[CTG_ELEMENT_TYPE_COUNT];
    size_t lists[CTG_LIST_KIND_COUNT]; /* lists delivered whole, by kind */
    char *largest_id;                  /* the first contingency with the most elements */
    size_t largest_count;
    bool oom;
} stats;

static int on_contingency(const ctg_stream_header *h, const ctg_contingency *c, void *payload)
{
    stats *s = payload;

    (void)h;
    s->contingencies++;
    s->elements += c->element_count;
    for (size_t i = 0; i < c->element_count; i++)
        s->per_type[c->elements[i].type]++;
    if (!s->largest_id || c->element_count > s->largest_count) {
        char *id = strdup(c->id); /* borrowed until we return */
        if (!id) {
            s->oom = true;
            return 1;
        }
        free(s->largest_id);
        s->largest_id = id;
        s->largest_count = c->element_count;
    }
    return 0;
}

static int on_list(const ctg_stream_header *h, const ctg_list *list, void *payload)
{
    stats *s = payload;

    (void)list;
    s->lists[h->kind]++;
    return 0;
}

static void print_stats(const char *path, const stats *s)
{
    fputs("file: ", stdout);
    cli_put_escaped(stdout, path);
    printf("\ncontingencies: %zu\nelements: %zu\n", s->contingencies, s->elements);
    for (int t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++)
        if (s->per_type[t])
            printf("  %s: %zu\n", ctg_element_type_name((ctg_element_type)t), s->per_type[t]);
    if (s->largest_id) {
        fputs("largest: ", stdout); /* an id of the input: escaped */
        cli_put_escaped(stdout, s->largest_id);
        printf(" (%zu elements)\n", s->largest_count);
    }
    for (int k = 0; k < CTG_LIST_KIND_COUNT; k++)
        if (s->lists[k])
            printf("%s lists: %zu\n", ctg_list_kind_name((ctg_list_kind)k), s->lists[k]);
}

static int stats_one(const char *path, const cli_args *args)
{
    stats s;
    ctg_visitor v = { .version = CTG_VISITOR_VERSION,
                      .contingency = on_contingency,
                      .list = on_list,
                      .progress = cli_progress_update,
                      .payload = &s };
    ctg_source src = cli_source(path);
    ctg_read_options opts = cli_read_options(path);
    ctg_error err;
    int rc;

    /* Counting needs no extension value: memory stays flat whatever they hold. */
    opts.flags |= CTG_READ_SKIP_EXTENSION_VALUES;
    memset(&s, 0, sizeof(s));
    cli_progress_init(&s.progress, !args->no_progress, NULL);
    rc = ctg_read_stream(&src, &v, &opts, &err);
    cli_progress_done(&s.progress);
    if (rc == CTG_OK)
        print_stats(cli_input_name(path), &s);
    free(s.largest_id);
    if (s.oom)
        return fprintf(stderr, "%s: out of memory\n", CLI_NAME), CLI_FAILURE;
    return rc == CTG_OK ? CLI_OK : cli_report(rc, &err);
}

int cli_stats(const cli_command *cmd, int argc, char **argv)
{
    cli_args args;
    int status = cli_parse_args(cmd, argc, argv, NULL, &args);

    if (status != CLI_OK)
        return status;
    if (args.help)
        return cli_help(cmd);
    if (args.npos != 1)
        return cli_usage_error(cmd, args.npos ? "too many arguments" : "no file given", NULL);
    return cli_flush_stdout(stats_one(args.pos[0], &args));
}
