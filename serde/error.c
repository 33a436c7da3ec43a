/* SPDX-License-Identifier: MPL-2.0 */
/* Turning a ctg_error into the one line users see. */

#include <stdbool.h>
#include <stdio.h>

#include "ctg/error.h"

/* Whether `err` is about a place in a document, so that its path means something ("" is then
 * the root, shown as "/"): an error with a line, with a path below the root, or a shape error
 * of an input without positions (a json-c tree). Bad arguments or options, I/O, memory and
 * writes have neither line nor path: printing "/" for them would point into no document. */
static bool has_place(const ctg_error *err)
{
    return err->line != 0 || err->path[0] != '\0' || err->code == CTG_ESYNTAX
           || err->code == CTG_ESCHEMA;
}

size_t ctg_error_format(const ctg_error *err, char *buf, size_t size)
{
    const char *path;
    int n;

    if (!err) {
        n = snprintf(buf, size, "<no error>");
        return n < 0 ? 0 : (size_t)n;
    }
    path = err->path[0] ? err->path : "/";
    if (err->line)
        n = snprintf(buf, size, "%s:%u:%u: error: %s: %s", err->source, err->line, err->column,
                     path, err->message);
    else if (has_place(err))
        n = snprintf(buf, size, "%s: error: %s: %s", err->source, path, err->message);
    else
        n = snprintf(buf, size, "%s: error: %s", err->source, err->message);
    return n < 0 ? 0 : (size_t)n;
}

const char *ctg_status_name(int status)
{
    switch (status) {
    case CTG_OK: return "CTG_OK";
    case CTG_ENOMEM: return "CTG_ENOMEM";
    case CTG_EINVAL: return "CTG_EINVAL";
    case CTG_EIO: return "CTG_EIO";
    case CTG_ESYNTAX: return "CTG_ESYNTAX";
    case CTG_ESCHEMA: return "CTG_ESCHEMA";
    case CTG_EUNSUPPORTED: return "CTG_EUNSUPPORTED";
    case CTG_ELIMIT: return "CTG_ELIMIT";
    case CTG_ESTOPPED: return "CTG_ESTOPPED";
    default: return "CTG_UNKNOWN";
    }
}
