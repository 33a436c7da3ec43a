/* Turning a ctg_error into the one line users see. */

#include <stdio.h>

#include "ctg/error.h"

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
    else
        n = snprintf(buf, size, "%s: error: %s: %s", err->source, path, err->message);
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
