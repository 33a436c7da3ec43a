/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CLI_CMD_LINT_REFS_H
#define CTG_CLI_CMD_LINT_REFS_H

/* lint's cross-check of a security analysis's inputs (cli/cmd_lint_refs.c). */

#include "diag.h"

/* The files of the cross-check, by the option that names them. */
enum {
    LINT_REF_CONTINGENCIES, /* --contingencies: a default contingency list */
    LINT_REF_ACTIONS,       /* --actions: an action list */
    LINT_REF_STRATEGIES,    /* --strategies: an operator-strategy list */
    LINT_REF_LIMIT_REDUCTIONS, /* --limit-reductions: a limit-reduction list */
    LINT_REF_MONITORS,      /* --monitoring: a state-monitor list */
    LINT_REF_COUNT
};

/* Reads the files given (NULL: not given; "-" only for the contingency list, read once),
 * checks their references with ctg_sa_check and prints each finding, in `format`, with its
 * file, line, column and path. Returns the exit status: 0 none, 1 a finding or an invalid
 * file, 2 usage, I/O or memory. */
int cli_lint_refs(const char *const files[LINT_REF_COUNT], cli_diag_format format);

#endif
