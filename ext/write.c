/* SPDX-License-Identifier: MPL-2.0 */
/* Writing a contingency's extensions (spec 8) in PowSyBl's layout: the emitter's rules (spec 7)
 * apply inside extension values as everywhere else. */

#include <stdio.h>
#include <string.h>

#include "ext/ext.h"


/* ---- extensions ---------------------------------------------------------------------------- */

/* PowSyBl writes an extension only when it has a serializer: a kept value always has one (its
 * own JSON), a typed one when its handler can write. A value a read skipped
 * (CTG_READ_SKIP_EXTENSION_VALUES) is not there to write. */
static bool writable(const ctg_extension *x)
{
    return x->handler != NULL ? x->handler->write != NULL : x->json != NULL;
}

static void write_typed(ctg_emitter *e, const ctg_extension *x)
{
    struct json_object *obj = NULL;
    char msg[CTG_ERROR_MESSAGE_MAX];
    int rc = x->handler->write(&obj, x->value, x->handler->payload);

    if (rc == CTG_OK) {
        ctg_emit_json(e, obj, 0, NULL);
    } else {
        if (rc > 0 || rc < CTG_ESTOPPED)
            rc = CTG_EINVAL;
        snprintf(msg, sizeof msg, "extension \"%s\" could not be written", x->name);
        ctg_emit_fail(e, rc, rc == CTG_ENOMEM ? "out of memory" : msg);
    }
    ctg_jsonc_release(obj); /* what the handler built, whether or not it failed */
}

void ctg_write_extensions(ctg_emitter *e, const ctg_key *key, const ctg_contingency *c)
{
    size_t i, n = 0;

    for (i = 0; i < c->extension_count; i++)
        n += writable(&c->extensions[i]);
    if (n == 0)
        return;
    ctg_emit_name_key(e, key);
    ctg_emit_object_begin(e);
    for (i = 0; i < c->extension_count; i++) {
        const ctg_extension *x = &c->extensions[i];
        if (!writable(x))
            continue;
        ctg_emit_key(e, x->name, strlen(x->name));
        if (x->handler != NULL)
            write_typed(e, x);
        else
            ctg_emit_json_text(e, x->json, x->json_len);
    }
    ctg_emit_object_end(e);
}
