/* SPDX-License-Identifier: MPL-2.0 */
/* yajl-sax-map: yajl's SAX callbacks into ctg structs (peer.h). A callback sees one event and
 * where it is (the state below: which object or array is open, the key just read); it checks
 * JSON types and rejects unknown fields as ctg's reader does. */

#include <string.h>

#include <yajl/yajl_parse.h>

#include "peer.h"

/* Where the parser is. */
typedef enum where {
    AT_START,         /* before the root object */
    AT_ROOT,          /* in the root object */
    AT_CONTINGENCIES, /* in "contingencies" */
    AT_CONTINGENCY,   /* in one contingency */
    AT_ELEMENTS,      /* in its "elements" */
    AT_ELEMENT,       /* in one element */
    AT_END            /* after the root object */
} where;

/* The key whose value comes next. */
typedef enum field {
    F_NONE,
    F_TYPE,
    F_VERSION,
    F_NAME,
    F_CONTINGENCIES,
    F_ID,
    F_ELEMENTS,
    F_VOLTAGE_LEVEL
} field;

typedef struct sax {
    bench_peer *peer;
    where at;
    field key;
    bench_peer_element *element;
} sax;

static bool is(const unsigned char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

static int root_key(sax *x, const unsigned char *s, size_t len)
{
    x->key = is(s, len, "type")            ? F_TYPE
             : is(s, len, "version")       ? F_VERSION
             : is(s, len, "name")          ? F_NAME
             : is(s, len, "contingencies") ? F_CONTINGENCIES
                                           : F_NONE;
    return x->key != F_NONE ? 1 : bench_peer_fail(x->peer, "unexpected field %.*s", (int)len, s);
}

static int on_key(void *ctx, const unsigned char *s, size_t len)
{
    sax *x = ctx;

    if (x->at == AT_ROOT)
        return root_key(x, s, len);
    if (x->at == AT_CONTINGENCY && is(s, len, "extensions")) {
        x->peer->unsupported = 1;
        return bench_peer_fail(x->peer, "the public builders cannot attach extensions");
    }
    x->key = is(s, len, "id") ? F_ID : F_NONE;
    if (x->at == AT_CONTINGENCY && x->key == F_NONE)
        x->key = is(s, len, "name") ? F_NAME : is(s, len, "elements") ? F_ELEMENTS : F_NONE;
    else if (x->key == F_NONE)
        x->key = is(s, len, "type")             ? F_TYPE
                 : is(s, len, "voltageLevelId") ? F_VOLTAGE_LEVEL
                                                : F_NONE;
    return x->key != F_NONE ? 1 : bench_peer_fail(x->peer, "unexpected field %.*s", (int)len, s);
}

static int keep(sax *x, size_t *to, const unsigned char *s, size_t len)
{
    if ((*to = bench_peer_keep(x->peer, (const char *)s, len)) == 0)
        return bench_peer_fail(x->peer, "out of memory");
    return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
    sax *x = ctx;
    bench_peer *p = x->peer;

    if (x->at == AT_ROOT && x->key == F_TYPE)
        return bench_peer_type(p, (const char *)s, len);
    if (x->at == AT_ROOT && x->key == F_NAME)
        return bench_peer_list(p, (const char *)s, len);
    if (x->at == AT_ROOT && x->key == F_VERSION)
        return 1;
    if (x->at == AT_CONTINGENCY && (x->key == F_ID || x->key == F_NAME))
        return keep(x, x->key == F_ID ? &p->id : &p->name, s, len);
    if (x->at == AT_ELEMENT && x->key == F_ID)
        return keep(x, &x->element->id, s, len);
    if (x->at == AT_ELEMENT && x->key == F_VOLTAGE_LEVEL)
        return keep(x, &x->element->voltage_level_id, s, len);
    if (x->at == AT_ELEMENT && x->key == F_TYPE)
        return bench_peer_element_type(p, x->element, (const char *)s, len);
    return bench_peer_fail(p, "unexpected string");
}

/* A value that is not a string: a number "version", or an absent name or side (PowSyBl reads a
 * non-string name as absent). */
static int other_value(sax *x)
{
    if ((x->at == AT_ROOT && x->key == F_VERSION) ||
        (x->at == AT_CONTINGENCY && x->key == F_NAME) ||
        (x->at == AT_ELEMENT && x->key == F_VOLTAGE_LEVEL))
        return 1;
    return bench_peer_fail(x->peer, "expected a string");
}

static int on_null(void *ctx)
{
    return other_value(ctx);
}

static int on_boolean(void *ctx, int value)
{
    (void)value;
    return other_value(ctx);
}

static int on_number(void *ctx, const char *s, size_t len)
{
    (void)s;
    (void)len;
    return other_value(ctx);
}

static int on_start_map(void *ctx)
{
    sax *x = ctx;

    if (x->at == AT_START)
        x->at = AT_ROOT;
    else if (x->at == AT_CONTINGENCIES)
        x->at = AT_CONTINGENCY;
    else if (x->at == AT_ELEMENTS && (x->element = bench_peer_element_add(x->peer)) != NULL)
        x->at = AT_ELEMENT;
    else
        return bench_peer_fail(x->peer,
                               x->at == AT_ELEMENTS ? "out of memory" : "unexpected object");
    return 1;
}

static int on_end_map(void *ctx)
{
    sax *x = ctx;

    switch (x->at) {
    case AT_ROOT:
        x->at = AT_END;
        return 1;
    case AT_CONTINGENCY:
        x->at = AT_CONTINGENCIES;
        return bench_peer_contingency_end(x->peer);
    case AT_ELEMENT:
        x->at = AT_ELEMENTS;
        return bench_peer_element_end(x->peer, x->element);
    default:
        return bench_peer_fail(x->peer, "unexpected end of object");
    }
}

static int on_start_array(void *ctx)
{
    sax *x = ctx;

    if (x->at == AT_ROOT && x->key == F_CONTINGENCIES)
        x->at = AT_CONTINGENCIES;
    else if (x->at == AT_CONTINGENCY && x->key == F_ELEMENTS)
        x->at = AT_ELEMENTS;
    else
        return bench_peer_fail(x->peer, "unexpected array");
    return 1;
}

static int on_end_array(void *ctx)
{
    sax *x = ctx;

    x->at = x->at == AT_CONTINGENCIES ? AT_ROOT : AT_CONTINGENCY;
    return 1;
}

static const yajl_callbacks callbacks = {
    on_null,      on_boolean, NULL,       NULL,           on_number,    on_string,
    on_start_map, on_key,     on_end_map, on_start_array, on_end_array,
};

int bench_yajl_map(bench_peer *p, const char *data, size_t len)
{
    sax x = { p, AT_START, F_NONE, NULL };
    yajl_handle h = yajl_alloc(&callbacks, NULL, &x);
    yajl_status st;

    if (h == NULL)
        return bench_peer_fail(p, "yajl_alloc: out of memory");
    st = yajl_parse(h, (const unsigned char *)data, len);
    if (st == yajl_status_ok)
        st = yajl_complete_parse(h);
    if (st == yajl_status_error) {
        unsigned char *text = yajl_get_error(h, 0, (const unsigned char *)data, len);
        bench_peer_fail(p, "yajl: %s", text != NULL ? (const char *)text : "parse error");
        yajl_free_error(h, text);
    }
    yajl_free(h);
    if (st == yajl_status_ok && x.at != AT_END)
        return bench_peer_fail(p, "yajl: the document ended early");
    if (st == yajl_status_ok && p->list == NULL)
        return bench_peer_fail(p, "yajl: no list name");
    return st == yajl_status_ok;
}
