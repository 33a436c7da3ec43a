/* Handlers of the `default` list's items: contingencies and their elements (spec 2). */

#include "serde/read_default.h"

#include <string.h>

#include "serde/registry.h"
#include "serde/version.h"

/* ---- version gating of DANGLING_LINE / BOUNDARY_LINE (spec 3.2) ------------------------ */

void ctg_gate_set_version(ctg_reader *rd, const char *version)
{
    rd->gate = CTG_GATE_KNOWN;
    rd->gate_version = version;
    if (ctg_version_compare(version, strlen(version), "1.0") <= 0)
        rd->gate |= CTG_GATE_DANGLING_OK;
    if (ctg_version_compare(version, strlen(version), "1.1") >= 0)
        rd->gate |= CTG_GATE_BOUNDARY_OK;
}

static int gate_error(ctg_reader *rd, const ctg_mark *m, bool dangling)
{
    const char *v = rd->gate_version;

    if (dangling)
        return ctg_reader_fail_at(rd, m, NULL, CTG_ESCHEMA,
                                  "DANGLING_LINE is not valid for version %s, should be <= 1.0 "
                                  "(use BOUNDARY_LINE)", v);
    return ctg_reader_fail_at(rd, m, NULL, CTG_ESCHEMA,
                              "BOUNDARY_LINE is not valid for version %s, should be >= 1.1", v);
}

/* A gated element met before the version is known: remember the first of each kind. */
static void defer(ctg_reader *rd, bool dangling)
{
    ctg_deferred *d = &rd->deferred[dangling ? 0 : 1];

    if (d->set)
        return;
    d->set = true;
    d->mark = ctg_reader_mark(rd);
    ctg_reader_path(rd, d->path);
}

static int gate(ctg_reader *rd, ctg_element_type type)
{
    bool dangling = type == CTG_ELEMENT_DANGLING_LINE;
    unsigned ok = dangling ? CTG_GATE_DANGLING_OK : CTG_GATE_BOUNDARY_OK;
    ctg_mark m;

    if (!(rd->gate & CTG_GATE_KNOWN)) {
        defer(rd, dangling);
        return CTG_OK;
    }
    if (rd->gate & ok)
        return CTG_OK;
    m = ctg_reader_mark(rd);
    return gate_error(rd, &m, dangling);
}

int ctg_gate_check_deferred(ctg_reader *rd)
{
    static const unsigned ok[2] = { CTG_GATE_DANGLING_OK, CTG_GATE_BOUNDARY_OK };
    ctg_deferred *first = NULL;

    for (int i = 0; i < 2; i++) {
        ctg_deferred *d = &rd->deferred[i];
        if (d->set && !(rd->gate & ok[i]) && (!first || d->mark.offset < first->mark.offset))
            first = d;
    }
    if (!first)
        return CTG_OK;
    int rc = gate_error(rd, &first->mark, first == &rd->deferred[0]);
    memcpy(rd->err->path, first->path, sizeof(first->path));
    return rc;
}

/* ---- element --------------------------------------------------------------------------- */

enum { EL_ID, EL_TYPE, EL_VOLTAGE_LEVEL };
static const ctg_key element_keys[] = { CTG_KEY("id"), CTG_KEY("type"),
                                        CTG_KEY("voltageLevelId") };

/* Only these types keep a side on read; DC_LINE's is written but dropped (spec 2.2). */
static bool reads_side(ctg_element_type t)
{
    return t == CTG_ELEMENT_BRANCH || t == CTG_ELEMENT_HVDC_LINE || t == CTG_ELEMENT_LINE
           || t == CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER || t == CTG_ELEMENT_TIE_LINE;
}

static int read_element_type(ctg_reader *rd, ctg_element *el)
{
    ctg_element_type t;

    if (rd->tok.type == CTG_TOK_NULL)
        return ctg_reader_fail(rd, CTG_ESCHEMA, "element \"type\" must not be null");
    if (rd->tok.type != CTG_TOK_STRING)
        return ctg_reader_type_error(rd, "string");
    if (!ctg_element_type_from_name(rd->tok.str, rd->tok.len, &t))
        return ctg_reader_fail(rd, CTG_ESCHEMA, "unknown element type \"%.*s\"",
                               (int)rd->tok.len, rd->tok.str);
    if (t == CTG_ELEMENT_DANGLING_LINE || t == CTG_ELEMENT_BOUNDARY_LINE) {
        int rc = gate(rd, t);
        if (rc != CTG_OK)
            return rc;
        t = CTG_ELEMENT_BOUNDARY_LINE; /* pre-1.1 files say DANGLING_LINE */
    }
    el->type = t;
    return CTG_OK;
}

static int element_field(ctg_reader *rd, unsigned index, void *ctx)
{
    ctg_element *el = ctx;

    switch (index) {
    case EL_ID:
        return ctg_read_string(rd, &el->id, "id");
    case EL_TYPE:
        return read_element_type(rd, el);
    default:
        return ctg_read_opt_string(rd, &el->voltage_level_id, "voltageLevelId");
    }
}

static const ctg_object_def element_def = { element_keys, 3, element_field };

static int read_element(ctg_reader *rd, void *out)
{
    ctg_element *el = out;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen;
    int rc;

    el->voltage_level_id = NULL;
    if ((rc = ctg_read_object(rd, &element_def, el, &seen)) != CTG_OK)
        return rc;
    if (!(seen & (1u << EL_ID)))
        return ctg_reader_missing(rd, &start, "id");
    if (!(seen & (1u << EL_TYPE)))
        return ctg_reader_missing(rd, &start, "type");
    if (!reads_side(el->type))
        el->voltage_level_id = NULL; /* PowSyBl drops it silently, and so do we */
    return CTG_OK;
}

const ctg_handler ctg_element_handler = { "element", sizeof(ctg_element), read_element };

/* ---- contingency ----------------------------------------------------------------------- */

enum { CT_ID, CT_NAME, CT_ELEMENTS, CT_EXTENSIONS };
static const ctg_key contingency_keys[] = { CTG_KEY("id"), CTG_KEY("name"), CTG_KEY("elements"),
                                            CTG_KEY("extensions") };

static int read_elements(ctg_reader *rd, ctg_contingency *c)
{
    const ctg_handler *h = ctg_reader_handler(rd, CTG_SLOT_ELEMENT);
    void *items;
    int rc = ctg_read_array(rd, h, &items, &c->element_count);

    c->elements = items;
    return rc;
}

static int contingency_field(ctg_reader *rd, unsigned index, void *ctx)
{
    ctg_contingency *c = ctx;

    switch (index) {
    case CT_ID:
        return ctg_read_string(rd, &c->id, "id");
    case CT_NAME:
        return ctg_read_opt_string(rd, &c->name, "name");
    case CT_ELEMENTS:
        return read_elements(rd, c);
    default:
        return ctg_read_extensions(rd, c);
    }
}

static const ctg_object_def contingency_def = { contingency_keys, 4, contingency_field };

static int read_contingency(ctg_reader *rd, void *out)
{
    ctg_contingency *c = out;
    ctg_mark start = ctg_reader_mark(rd);
    unsigned seen;
    int rc;

    memset(c, 0, sizeof(*c));
    if ((rc = ctg_read_object(rd, &contingency_def, c, &seen)) != CTG_OK)
        return rc;
    if (!(seen & (1u << CT_ID)))
        return ctg_reader_missing(rd, &start, "id");
    rd->contingencies++;
    return CTG_OK;
}

const ctg_handler ctg_contingency_handler = { "contingency", sizeof(ctg_contingency),
                                              read_contingency };

/* Extensions arrive with issue 3; until then a file that has them is refused, not mangled. */
int ctg_read_extensions(ctg_reader *rd, ctg_contingency *c)
{
    (void)c;
    return ctg_reader_fail(rd, CTG_EUNSUPPORTED, "contingency extensions are not supported yet");
}

int ctg_read_contingency_array(ctg_reader *rd, ctg_contingency **items, size_t *count)
{
    const ctg_handler *h = ctg_reader_handler(rd, CTG_SLOT_CONTINGENCY);
    void *p;
    int rc = ctg_read_array(rd, h, &p, count);

    *items = p;
    return rc;
}
