/* SPDX-License-Identifier: MPL-2.0 */
/* The XIIDM importer's driver: a libexpat parser in namespace mode, its memory through ctg's
 * allocator, fed from the input in memory or refill mode; the XML defences (no DOCTYPE, no
 * external entities, limits on depth, names and values); errors with the element path.
 * What each element builds is in xiidm_elem.c. */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error_set.h"
#include "iidm/expat_mem.h"
#include "iidm/xiidm.h"

/* The namespace separator of the parser's names, "uri\x01local": no name or URI holds it. */
#define NS_SEP '\x01'
/* Bytes handed to libexpat at a time: a progress report after each. */
#define FEED_CHUNK ((size_t)1 << 20)

/* ---- errors ---- */

static size_t append_path(xreader *r, char *path)
{
    size_t len = 0;
    for (size_t i = 0; i < r->nframes; i++) {
        const xframe *f = &r->frames[i];
        char seg[64];
        const char *name =
            f->kind == XK_OTHER && r->local ? r->local : ctg_xiidm_kind_name(f->kind);
        if (i == 0)
            snprintf(seg, sizeof seg, "%.50s", name);
        else
            snprintf(seg, sizeof seg, "%.50s[%u]", name, (unsigned)f->index);
        size_t n = strlen(seg);
        if (len + 1 + n >= CTG_ERROR_PATH_MAX)
            break;
        path[len++] = '/';
        memcpy(path + len, seg, n + 1);
        len += n;
    }
    path[len] = '\0';
    return len;
}

static void place_of(const xreader *r, ctg_error_place *at)
{
    XML_Size line = XML_GetCurrentLineNumber(r->parser);
    XML_Size col = XML_GetCurrentColumnNumber(r->parser);
    XML_Index off = XML_GetCurrentByteIndex(r->parser);

    at->line = line > (XML_Size)-1u ? (unsigned)-1 : (unsigned)line;
    at->column = col >= (XML_Size)-1u ? (unsigned)-1 : (unsigned)col + 1;
    at->offset = off < 0 ? 0 : (size_t)off;
}

int ctg_xiidm_fail(xreader *r, int code, const char *fmt, ...)
{
    if (r->rc != CTG_OK)
        return r->rc;
    char path[CTG_ERROR_PATH_MAX];
    ctg_error_place at;
    va_list ap;

    append_path(r, path);
    place_of(r, &at);
    va_start(ap, fmt);
    ctg_error_vset(r->err, code, &at, path, fmt, ap);
    va_end(ap);
    r->rc = code;
    XML_StopParser(r->parser, XML_FALSE);
    return code;
}

/* ---- namespaces and versions ---- */

static bool parse_minor(const char *s, size_t n, unsigned *minor)
{
    unsigned v = 0;
    if (n == 0 || n > 4 || (s[0] == '0' && n > 1))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *minor = v;
    return true;
}

/* The version of an IIDM namespace URI; false when it is not one. */
static bool namespace_version(const char *uri, size_t n, unsigned *minor)
{
    static const char v10[] = "http://www.itesla_project.eu/schema/iidm/1_0";
    static const char eq[] = "http://www.powsybl.org/schema/iidm/equipment/1_";
    static const char core[] = "http://www.powsybl.org/schema/iidm/1_";

    if (n == sizeof v10 - 1 && memcmp(uri, v10, n) == 0) {
        *minor = 0;
        return true;
    }
    if (n > sizeof eq - 1 && memcmp(uri, eq, sizeof eq - 1) == 0)
        return parse_minor(uri + sizeof eq - 1, n - (sizeof eq - 1), minor) && *minor >= 7;
    if (n > sizeof core - 1 && memcmp(uri, core, sizeof core - 1) == 0)
        return parse_minor(uri + sizeof core - 1, n - (sizeof core - 1), minor) && *minor >= 1;
    return false;
}

/* Sets the two namespaces of the file's version (1.0 to 1.6 have one: both the same). */
static void set_namespaces(xreader *r)
{
    if (r->minor == 0)
        snprintf(r->ns_buf[0], sizeof r->ns_buf[0], "%s",
                 "http://www.itesla_project.eu/schema/iidm/1_0");
    else
        snprintf(r->ns_buf[0], sizeof r->ns_buf[0], "http://www.powsybl.org/schema/iidm/1_%u",
                 r->minor);
    if (r->minor >= 7)
        snprintf(r->ns_buf[1], sizeof r->ns_buf[1],
                 "http://www.powsybl.org/schema/iidm/equipment/1_%u", r->minor);
    else
        memcpy(r->ns_buf[1], r->ns_buf[0], sizeof r->ns_buf[0]);
    for (int i = 0; i < 2; i++) {
        r->ns[i] = r->ns_buf[i];
        r->ns_len[i] = strlen(r->ns_buf[i]);
    }
}

/* The root element: an IIDM `network` of a version this library reads. */
static int read_root_name(xreader *r, const char *uri, size_t uri_len, const char *local)
{
    unsigned minor = 0;

    if (uri == NULL)
        return ctg_xiidm_fail(r, CTG_EUNSUPPORTED,
                              "root element '%s' has no namespace: not "
                              "an IIDM network",
                              local);
    if (!namespace_version(uri, uri_len, &minor))
        return ctg_xiidm_fail(r, CTG_EUNSUPPORTED,
                              "unknown namespace '%.*s': not an IIDM "
                              "network",
                              (int)(uri_len > 120 ? 120 : uri_len), uri);
    if (minor > 17)
        return ctg_xiidm_fail(r, CTG_EUNSUPPORTED,
                              "IIDM version 1.%u is newer than this "
                              "library's (1.17)",
                              minor);
    if (strcmp(local, "network") != 0)
        return ctg_xiidm_fail(r, CTG_ESCHEMA, "root element '%s' is not 'network'", local);
    r->minor = minor;
    set_namespaces(r);
    return CTG_OK;
}

/* ---- handlers ---- */

/* Splits a parser name "uri\x01local" (or "local" without namespace). */
static const char *split_name(const char *name, size_t *uri_len)
{
    const char *sep = strrchr(name, NS_SEP);
    if (!sep) {
        *uri_len = 0;
        return name;
    }
    *uri_len = (size_t)(sep - name);
    return sep + 1;
}

static bool is_iidm_uri(const xreader *r, const char *uri, size_t n)
{
    return (n == r->ns_len[0] && memcmp(uri, r->ns[0], n) == 0) ||
           (n == r->ns_len[1] && memcmp(uri, r->ns[1], n) == 0);
}

/* Checks the names and values of an element against the limits. The whole start tag is
 * measured first: a tag shorter than both limits holds no name or value over them. */
static bool check_lengths(xreader *r, const char *local, const char **atts)
{
    const ctg_iidm_read_options *o = r->in->opts;
    size_t tag = (size_t)XML_GetCurrentByteCount(r->parser);

    if (tag <= o->max_name_len && tag <= o->max_value_len)
        return true;
    if (strlen(local) > o->max_name_len) {
        ctg_xiidm_fail(r, CTG_ELIMIT, "element name longer than %zu bytes", o->max_name_len);
        return false;
    }
    for (size_t i = 0; atts[i]; i += 2) {
        size_t ul;
        const char *an = split_name(atts[i], &ul);
        if (strlen(an) > o->max_name_len) {
            ctg_xiidm_fail(r, CTG_ELIMIT, "attribute name longer than %zu bytes", o->max_name_len);
            return false;
        }
        if (strlen(atts[i + 1]) > o->max_value_len) {
            ctg_xiidm_fail(r, CTG_ELIMIT, "value of attribute '%.64s' longer than %zu bytes", an,
                           o->max_value_len);
            return false;
        }
    }
    return true;
}

/* Collects the attributes the importer reads; namespaced ones are not IIDM's. */
static void collect_attrs(xreader *r, const char **atts)
{
    memset(r->attrs, 0, sizeof r->attrs);
    for (size_t i = 0; atts[i]; i += 2) {
        xattr a = ctg_xiidm_attr(atts[i]);
        if (a != XA_COUNT)
            r->attrs[a] = atts[i + 1];
    }
}

static void start_iidm(xreader *r, const char *uri, size_t uri_len, const char *local,
                       const char **atts)
{
    bool follow = false;

    if (r->depth == 1) {
        if (read_root_name(r, uri_len ? uri : NULL, uri_len, local) != CTG_OK)
            return;
    } else if (uri_len == 0 || !is_iidm_uri(r, uri, uri_len)) {
        r->skip_until = r->depth; /* an extension's element, or a foreign one */
        return;
    }
    collect_attrs(r, atts);
    r->local = local;
    int rc = ctg_xiidm_start(r, ctg_xiidm_kind(local, strlen(local)), &follow);
    r->local = NULL;
    if (rc != CTG_OK)
        return;
    if (!follow)
        r->skip_until = r->depth;
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    xreader *r = ud;
    size_t uri_len;
    const char *local;

    if (r->rc != CTG_OK)
        return;
    if (++r->depth > r->in->opts->max_depth) {
        ctg_xiidm_fail(r, CTG_ELIMIT, "elements nested deeper than %zu levels",
                       r->in->opts->max_depth);
        return;
    }
    local = split_name(name, &uri_len);
    if (!check_lengths(r, local, atts))
        return;
    if (r->skip_until != 0)
        return;
    start_iidm(r, name, uri_len, local, atts);
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
    xreader *r = ud;

    (void)name;
    if (r->rc != CTG_OK)
        return;
    if (r->skip_until != 0) {
        if (r->skip_until == r->depth)
            r->skip_until = 0;
    } else {
        ctg_xiidm_end(r);
    }
    if (--r->depth == 0 && !r->root_closed) {
        r->root_closed = true;
        place_of(r, &r->root_end);
    }
}

/* Any DOCTYPE is refused: IIDM has none, and an internal subset is where entity attacks
 * start. libexpat's own billion-laughs protection stays as a second line. */
static void XMLCALL on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                               const XML_Char *pubid, int has_internal_subset)
{
    (void)name;
    (void)sysid;
    (void)pubid;
    (void)has_internal_subset;
    ctg_xiidm_fail(ud, CTG_ESYNTAX, "DOCTYPE declarations are not accepted");
}

static int XMLCALL on_external_entity(XML_Parser p, const XML_Char *context, const XML_Char *base,
                                      const XML_Char *sysid, const XML_Char *pubid)
{
    (void)context;
    (void)base;
    (void)sysid;
    (void)pubid;
    ctg_xiidm_fail(XML_GetUserData(p), CTG_ESYNTAX, "external entities are not accepted");
    return XML_STATUS_ERROR;
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
    xreader *r = ud;
    size_t n = (size_t)len;

    if (r->rc != CTG_OK)
        return;
    if (n > r->in->opts->max_value_len - r->text_len || r->text_len + n < r->text_len) {
        ctg_xiidm_fail(r, CTG_ELIMIT, "text longer than %zu bytes", r->in->opts->max_value_len);
        return;
    }
    if (r->text_len + n + 1 > r->text_cap) {
        size_t cap;
        const ctg_allocator *a = r->in->opts->allocator;
        char *t;
        if (!ctg_grow_capacity(r->text_cap, r->text_len + n + 1, 64, SIZE_MAX, &cap) ||
            !(t = ctg_mem_resize(a, r->text, r->text_cap, cap))) {
            ctg_xiidm_fail(r, CTG_ENOMEM, "out of memory");
            return;
        }
        r->text = t;
        r->text_cap = cap;
    }
    memcpy(r->text + r->text_len, s, n);
    r->text_len += n;
    r->text[r->text_len] = '\0';
}

void ctg_xiidm_collect_text(xreader *r, bool on)
{
    r->text_len = 0;
    if (r->text)
        r->text[0] = '\0';
    XML_SetCharacterDataHandler(r->parser, on ? on_text : NULL);
}

/* ---- the parse ---- */

static void XMLCALL on_entity_decl(void *ud, const XML_Char *name, int is_param,
                                   const XML_Char *value, int value_len, const XML_Char *base,
                                   const XML_Char *sysid, const XML_Char *pubid,
                                   const XML_Char *notation)
{
    (void)name, (void)is_param, (void)value, (void)value_len, (void)base;
    (void)sysid, (void)pubid, (void)notation;
    ctg_xiidm_fail(ud, CTG_ESYNTAX, "entity declarations are not accepted");
}

static XML_Parser make_parser(xreader *r)
{
    static const XML_Char sep[] = { NS_SEP, '\0' };
    XML_Parser p;

    ctg_expat_use(r->in->opts->allocator);
    ctg_expat_reset_failed();
    p = XML_ParserCreate_MM(NULL, &ctg_expat_memory, sep);
    if (!p)
        return NULL;
    XML_SetUserData(p, r);
    XML_SetElementHandler(p, on_start, on_end);
    XML_SetStartDoctypeDeclHandler(p, on_doctype);
    XML_SetEntityDeclHandler(p, on_entity_decl);
    XML_SetExternalEntityRefHandler(p, on_external_entity);
    XML_SetParamEntityParsing(p, XML_PARAM_ENTITY_PARSING_NEVER);
    return p;
}

/* The failure of a parse call that no handler recorded: libexpat's own. */
static int parse_failure(xreader *r)
{
    enum XML_Error e = XML_GetErrorCode(r->parser);

    if (r->rc != CTG_OK)
        return r->rc;
    if (e == XML_ERROR_NO_MEMORY || ctg_expat_failed())
        return ctg_xiidm_fail(r, CTG_ENOMEM, "out of memory");
#if XML_MAJOR_VERSION > 2 || (XML_MAJOR_VERSION == 2 && XML_MINOR_VERSION >= 4)
    if (e == XML_ERROR_AMPLIFICATION_LIMIT_BREACH)
        return ctg_xiidm_fail(r, CTG_ELIMIT, "malformed XML: %s", XML_ErrorString(e));
#endif
    /* libexpat's verdict on what follows the document element depends on where the input was
     * cut ("junk after document element" at one byte or "invalid token" at another): one error,
     * at the end tag, whatever the chunks. */
    if (r->root_closed) {
        r->rc = ctg_error_set(r->err, CTG_ESYNTAX, &r->root_end, "",
                              "malformed XML: content after the end of the document element "
                              "(its end tag is here)");
        return r->rc;
    }
    return ctg_xiidm_fail(r, CTG_ESYNTAX, "malformed XML: %s", XML_ErrorString(e));
}

static int over_size(xreader *r, size_t fed)
{
    if (fed <= r->in->opts->max_document_size)
        return CTG_OK;
    return ctg_xiidm_fail(r, CTG_ELIMIT, "document longer than %zu bytes",
                          r->in->opts->max_document_size);
}

static int feed_memory(xreader *r)
{
    const ctg_lex_source *src = r->in->src;
    size_t off = 0;

    do {
        size_t n = src->len - off < FEED_CHUNK ? src->len - off : FEED_CHUNK;
        bool last = off + n == src->len;
        if (over_size(r, off + n) != CTG_OK)
            return r->rc;
        ctg_expat_use(r->in->opts->allocator);
        if (XML_Parse(r->parser, src->data + off, (int)n, last) != XML_STATUS_OK)
            return parse_failure(r);
        off += n;
        if (ctg_iidm_progress(r->in, off, r->err) != CTG_OK)
            return r->rc = CTG_ESTOPPED;
    } while (off < src->len);
    return CTG_OK;
}

/* Errors of libexpat that only say the document ended early. */
static bool ends_early(enum XML_Error e)
{
    return e == XML_ERROR_NO_ELEMENTS || e == XML_ERROR_UNCLOSED_TOKEN ||
           e == XML_ERROR_PARTIAL_CHAR || e == XML_ERROR_UNCLOSED_CDATA_SECTION;
}

/* The refill's own error (its message kept), at the place the parse reached (the start of a
 * token the cut left unfinished: libexpat keeps no place past it) and the path of the
 * elements open there. */
static int set_cut(xreader *r, int rc)
{
    char path[CTG_ERROR_PATH_MAX];
    ctg_error_place at;

    append_path(r, path);
    place_of(r, &at);
    ctg_error_set(r->err, rc, &at, path, NULL);
    return r->rc = rc;
}

/* A refill failed (corrupt or truncated gzip data, a read error) after `fed` bytes. Those bytes
 * may hold an XML error libexpat has not reported yet, because a chunk boundary cut the token
 * it was in; a read of the same bytes in larger chunks reports that error first. Ending the
 * parse here reports it too, so the error does not depend on how the input was cut (the fuzz
 * target reads each input in two ways and requires the same error); an error saying only that
 * the document ended early gives way to the refill's own. */
static int refill_failed(xreader *r, int rc, size_t fed)
{
    ctg_error refill_err = *r->err;

    if (rc == CTG_ESYNTAX && fed > 0 && r->rc == CTG_OK) {
        ctg_expat_use(r->in->opts->allocator);
        if (XML_Parse(r->parser, NULL, 0, 1) != XML_STATUS_OK &&
            (r->rc != CTG_OK || !ends_early(XML_GetErrorCode(r->parser))))
            return parse_failure(r);
        if (r->rc != CTG_OK)
            return r->rc;
        *r->err = refill_err;
    }
    if (rc == CTG_ESYNTAX) /* corrupt data: where the parse stopped, at the unfinished token */
        return set_cut(r, rc);
    if (r->err->message[0] == '\0')
        ctg_error_set(r->err, rc, NULL, "", "read error");
    else
        ctg_error_set(r->err, rc, NULL, "", NULL);
    return r->rc = rc;
}

static int feed_refill(xreader *r)
{
    const ctg_lex_source *src = r->in->src;
    size_t fed = 0, got;

    do {
        ctg_expat_use(r->in->opts->allocator);
        void *buf = XML_GetBuffer(r->parser, (int)FEED_CHUNK);
        if (!buf)
            return parse_failure(r);
        got = 0;
        int rc = src->refill(src->ctx, buf, FEED_CHUNK, &got, r->err);
        if (rc != CTG_OK)
            return refill_failed(r, rc, fed);
        if (got > FEED_CHUNK)
            return r->rc = ctg_error_set(r->err, CTG_EIO, NULL, "",
                                         "read callback overran "
                                         "its buffer");
        fed += got;
        if (over_size(r, fed) != CTG_OK)
            return r->rc;
        ctg_expat_use(r->in->opts->allocator);
        if (XML_ParseBuffer(r->parser, (int)got, got == 0) != XML_STATUS_OK)
            return parse_failure(r);
    } while (got != 0);
    return CTG_OK;
}

static int parse_all(xreader *r)
{
    int rc;

    r->parser = make_parser(r);
    if (!r->parser)
        return r->rc = ctg_error_set(r->err, CTG_ENOMEM, NULL, "", "out of memory");
    rc = r->in->src->refill ? feed_refill(r) : feed_memory(r);
    if (rc == CTG_OK && r->net == NULL)
        rc = ctg_xiidm_fail(r, CTG_ESYNTAX, "malformed XML: no element found");
    if (rc == CTG_OK)
        rc = ctg_xiidm_finish(r);
    return rc;
}

int ctg_xiidm_read(ctg_network **out, const ctg_iidm_input *in, ctg_error *err)
{
    xreader *r = ctg_mem_alloc(in->opts->allocator, sizeof *r);
    int rc;

    *out = NULL;
    if (!r)
        return ctg_error_set(err, CTG_ENOMEM, NULL, "", "out of memory");
    memset(r, 0, sizeof *r);
    r->in = in;
    r->err = err;
    ctg_nb_graph_init(&r->graph, in->opts->allocator);
    rc = parse_all(r);
    ctg_expat_use(in->opts->allocator);
    if (r->parser)
        XML_ParserFree(r->parser);
    ctg_expat_use(NULL);
    ctg_mem_release(in->opts->allocator, r->text, r->text_cap);
    ctg_nb_graph_dispose(&r->graph);
    if (rc != CTG_OK)
        ctg_network_free(r->net);
    else
        *out = r->net;
    ctg_mem_release(in->opts->allocator, r, sizeof *r);
    return rc;
}
