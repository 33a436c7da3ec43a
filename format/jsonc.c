/* SPDX-License-Identifier: MPL-2.0 */
/* Whole lists to and from json-c trees (ctg/jsonc.h): the list's text through the reader and
 * the writer, the tree's through ext/'s bridge, which alone includes json-c. */

#include <string.h>

#include "ctg/jsonc.h"
#include "base/alloc.h"
#include "io/output.h"
#include "ext/ext.h"

int ctg_list_from_json_object(ctg_list **out, const struct json_object *obj,
                              const ctg_read_options *opts, ctg_error *err)
{
    static const ctg_read_options defaults = CTG_READ_OPTIONS_INIT;
    ctg_read_options o = opts != NULL ? *opts : defaults;
    ctg_error w; /* the caller's record is written only on failure */
    char *data = NULL;
    size_t len = 0, cap = 0;
    int rc;

    if (out != NULL)
        *out = NULL;
    if (out == NULL || obj == NULL) {
        rc = ctg_jsonc_plain_error(&w, CTG_EINVAL, out == NULL
                                                       ? "no place for the list (out is NULL)"
                                                       : "no json-c value (NULL)");
        goto done;
    }
    memset(&w, 0, sizeof w);
    rc = ctg_jsonc_text_of(obj, o.allocator, &data, &len, &cap, &w);
    o.source_name = CTG_JSONC_SOURCE;
    if (rc == CTG_OK)
        rc = ctg_list_read_buffer(out, data ? data : "", len, &o, &w);
    ctg_mem_release(o.allocator, data, cap);
done:
    if (rc != CTG_OK && err != NULL)
        *err = w;
    return rc == CTG_OK ? CTG_OK : ctg_jsonc_tree_error(err != NULL ? err : &w, rc);
}

int ctg_list_to_json_object(struct json_object **out, const ctg_list *list,
                            const ctg_write_options *opts, ctg_error *err)
{
    ctg_write_options o;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error scratch, w = { 0 };
    int rc;

    if (err == NULL)
        err = &scratch;
    if (out == NULL)
        return ctg_jsonc_plain_error(err, CTG_EINVAL, "no place for the tree (out is NULL)");
    *out = NULL;
    /* Copied in the current layout: an older, shorter struct is not read past its end. */
    if ((rc = ctg_write_check_options(opts, &o, &w)) != CTG_OK)
        return ctg_jsonc_plain_error(err, rc, w.message);
    o.flags |= CTG_WRITE_COMPACT; /* the layout is lost in a tree anyway */
    buf.allocator = o.allocator;
    rc = ctg_list_write_buf(&buf, list, &o, err);
    if (rc == CTG_OK)
        rc = ctg_jsonc_parse_text(out, buf.data, buf.len, buf.allocator, err);
    ctg_buf_dispose(&buf);
    return rc;
}
