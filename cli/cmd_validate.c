/* contingency-cli validate FILE...: reads each file and says whether it is a valid list. */

#include <string.h>

#include "cli.h"

/* Reads one file ("-" is stdin); returns its exit status. */
static int validate_one(const char *path)
{
    ctg_read_options opts = CTG_READ_OPTIONS_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    int rc;

    if (strcmp(path, "-") == 0) {
        opts.source_name = "<stdin>";
        rc = ctg_list_read_fp(&list, stdin, &opts, &err);
    } else {
        rc = ctg_list_read_file(&list, path, &opts, &err);
    }
    ctg_list_free(list);
    if (rc != CTG_OK)
        return cli_report(rc, &err);
    printf("%s: ok\n", path);
    return CLI_OK;
}

int cli_validate(const cli_command *cmd, int argc, char **argv)
{
    cli_args args;
    int status = cli_parse_args(cmd, argc, argv, NULL, &args);

    if (status != CLI_OK)
        return status;
    if (args.help) {
        cli_print_usage(cmd, stdout);
        return CLI_OK;
    }
    if (args.npos == 0)
        return cli_usage_error(cmd, "no file given", NULL);
    /* Every file is checked; the worst outcome decides the exit status. */
    for (int i = 0; i < args.npos; i++) {
        int one = validate_one(args.pos[i]);
        if (one > status)
            status = one;
    }
    if (fflush(stdout) != 0)
        status = CLI_FAILURE;
    return status;
}
