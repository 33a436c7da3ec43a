/* SPDX-License-Identifier: MPL-2.0 */
/* The network section's input and runners: the synthetic network as XIIDM and JIIDM bytes in
 * memory, their imports and the floors they are judged against (an expat parse with empty
 * callbacks, a memchr pass), and resolves of four lists against the imported table. Every
 * runner is checked once before timing: the imports against the counts of the model and
 * against each other (their table dumps), the resolves against the contingencies the model
 * says each list gives. */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <expat.h>

#include "bench/network_int.h"
#include "ctg/iidm.h"
#include "ctg/resolve.h"

static volatile size_t sink;

static const bench_net_case cases[] = {
    { "net10k",
      "10,000 substations in 5 countries, 20,000 voltage levels, 50,000 branches, 100,000 "
      "injections; ~104 MB XIIDM, ~135 MB JIIDM",
      10000, 100000, 1000000, BENCH_CASE_DEFAULT, 5 },
    { "net-quick", "net10k's shape at 100 substations (--quick), ~1 MB XIIDM", 100, 10000, 100000,
      BENCH_CASE_QUICK, 3 },
};

const bench_net_case *bench_net_cases(size_t *count)
{
    *count = sizeof cases / sizeof cases[0];
    return cases;
}

const bench_net_case *bench_net_case_find(const char *name)
{
    return bench_find_named(cases, sizeof cases / sizeof cases[0], sizeof cases[0], name);
}

#define NET_SEED 0x11d5u

int bench_network_generate(const char *name, bench_bytes *out)
{
    const char *dot = strrchr(name, '.');
    char base[64];
    const bench_net_case *c;
    bench_net net;
    int rc;

    if (dot == NULL || (size_t)(dot - name) >= sizeof base)
        return 1;
    memcpy(base, name, (size_t)(dot - name));
    base[dot - name] = '\0';
    if ((c = bench_net_case_find(base)) == NULL ||
        (strcmp(dot, ".xiidm") != 0 && strcmp(dot, ".jiidm") != 0))
        return 1;
    if (bench_net_init(&net, c->substations, NET_SEED) != 0)
        return -1;
    rc = strcmp(dot, ".xiidm") == 0 ? bench_net_write_xiidm(&net, out)
                                    : bench_net_write_jiidm(&net, out);
    bench_net_dispose(&net);
    return rc;
}

/* ---- input ------------------------------------------------------------------------------- */

static int bench_net_fail(net_input *in, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int bench_net_fail(net_input *in, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(in->why, sizeof in->why, fmt, ap);
    va_end(ap);
    return BENCH_FAIL;
}

static int why(net_input *in, int rc, const char *what, const ctg_error *err)
{
    char text[BENCH_WHY_MAX];

    ctg_error_format(err, text, sizeof text);
    bench_net_fail(in, "%s: %s", what, text);
    return rc;
}

static int read_list(net_input *in, int k, const bench_bytes *text)
{
    ctg_error err;

    if (text->failed)
        return -1;
    if (ctg_list_read_buffer(&in->lists[k], text->data, text->len, NULL, &err) != CTG_OK)
        return why(in, -1, "reading a generated list", &err);
    return 0;
}

/* The four lists, read once: the timed runs resolve them, they do not read them. */
static int make_lists(net_input *in, const bench_net_case *c)
{
    bench_bytes text[NET_LISTS] = { BENCH_BYTES_INIT, BENCH_BYTES_INIT, BENCH_BYTES_INIT,
                                    BENCH_BYTES_INIT };
    int rc = 0;

    bench_net_list_lines(&text[0]);
    bench_net_list_property(&text[1]);
    bench_net_list_ids(&in->model, c->identifiers, &text[2]);
    bench_net_list_default(&in->model, c->contingencies, &text[3], &in->expect[3]);
    in->expect[0] = bench_net_expect_lines(&in->model);
    in->expect[1] = bench_net_expect_property(&in->model);
    in->expect[2] = c->identifiers;
    for (int k = 0; k < NET_LISTS && rc == 0; k++)
        rc = read_list(in, k, &text[k]);
    for (int k = 0; k < NET_LISTS; k++)
        bench_bytes_dispose(&text[k]);
    return rc;
}

int bench_net_input_init(net_input *in, const bench_net_case *c, bool documents)
{
    memset(in, 0, sizeof *in);
    in->xml = (bench_bytes)BENCH_BYTES_INIT;
    in->json = (bench_bytes)BENCH_BYTES_INIT;
    if (bench_net_init(&in->model, c->substations, NET_SEED) != 0 ||
        bench_net_write_xiidm(&in->model, &in->xml) != 0 ||
        (documents && bench_net_write_jiidm(&in->model, &in->json) != 0)) {
        snprintf(in->why, sizeof in->why, "out of memory generating %s", c->name);
        return -1;
    }
    return make_lists(in, c);
}

void bench_net_input_dispose(net_input *in)
{
    bench_bytes_dispose(&in->xml);
    bench_bytes_dispose(&in->json);
    ctg_network_free(in->net);
    for (int k = 0; k < NET_LISTS; k++)
        ctg_list_free(in->lists[k]);
    bench_net_dispose(&in->model);
    in->net = NULL;
}

/* ---- imports ------------------------------------------------------------------------------ */

static int import(net_input *in, const bench_bytes *doc, ctg_iidm_format format,
                  const ctg_allocator *alloc, ctg_network **keep)
{
    ctg_source src = ctg_source_buffer(doc->data, doc->len);
    ctg_iidm_read_options opts;
    ctg_network *net = NULL;
    ctg_error err;

    memset(&opts, 0, sizeof opts);
    opts.version = CTG_IIDM_READ_OPTIONS_VERSION;
    opts.format = format;
    opts.allocator = alloc;
    if (ctg_iidm_read(&net, &src, &opts, &err) != CTG_OK)
        return why(in, BENCH_FAIL, format == CTG_IIDM_XML ? "XIIDM import" : "JIIDM import", &err);
    if (keep != NULL)
        *keep = net;
    else
        ctg_network_free(net);
    sink = (size_t)net;
    return BENCH_OK;
}

static int run_xiidm(net_input *in)
{
    return import(in, &in->xml, CTG_IIDM_XML, NULL, NULL);
}

static int run_jiidm(net_input *in)
{
    return import(in, &in->json, CTG_IIDM_JSON, NULL, NULL);
}

static void XMLCALL empty_start(void *data, const XML_Char *name, const XML_Char **attrs)
{
    (void)data;
    (void)name;
    (void)attrs;
}

static void XMLCALL empty_end(void *data, const XML_Char *name)
{
    (void)data;
    (void)name;
}

/* What any expat-based importer pays at least: the parse, with handlers that do nothing. */
static int run_expat(net_input *in)
{
    XML_Parser p = XML_ParserCreate(NULL);
    const char *at = in->xml.data;
    size_t left = in->xml.len;
    int ok = p != NULL;

    if (p != NULL)
        XML_SetElementHandler(p, empty_start, empty_end);
    while (ok && left > 0) {
        int n = left > (1u << 30) ? 1 << 30 : (int)left;
        ok = XML_Parse(p, at, n, 0) == XML_STATUS_OK;
        at += n;
        left -= (size_t)n;
    }
    ok = ok && XML_Parse(p, at, 0, 1) == XML_STATUS_OK;
    if (!ok)
        snprintf(in->why, sizeof in->why, "expat: %s",
                 p != NULL ? XML_ErrorString(XML_GetErrorCode(p)) : "out of memory");
    if (p != NULL)
        XML_ParserFree(p);
    return ok ? BENCH_OK : BENCH_FAIL;
}

/* The floor of the list cases (memchr-floor): a memchr pass stopping at every '"', which a
 * JSON tokenizer has to find too. */
static int run_memchr(net_input *in)
{
    sink = bench_count_quotes(in->json.data, in->json.len);
    return BENCH_OK;
}

/* One memchr pass for a byte the document does not hold: touching every byte, nothing more. */
static int run_absent(net_input *in)
{
    sink = (size_t)(memchr(in->json.data, '\1', in->json.len) != NULL);
    return BENCH_OK;
}

/* ---- checks of the imports ----------------------------------------------------------------- */

static void *count_alloc(void *ctx, size_t size)
{
    net_counter *c = ctx;
    void *p = malloc(size);

    if (p != NULL && (c->live += size) > c->peak)
        c->peak = c->live;
    return p;
}

static void *count_resize(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    net_counter *c = ctx;
    void *p = realloc(ptr, new_size);

    if (p != NULL) {
        c->live = c->live - old_size + new_size;
        c->peak = c->live > c->peak ? c->live : c->peak;
    }
    return p;
}

static void count_release(void *ctx, void *ptr, size_t size)
{
    net_counter *c = ctx;

    c->live -= size;
    free(ptr);
}

/* The counts per type the model promises, against the table's. */
static int check_counts(net_input *in, const ctg_network *net, const char *who)
{
    const bench_net_counts *c = &in->model.counts;
    const struct {
        ctg_identifiable_type type;
        size_t want;
    } rows[] = {
        { CTG_IDENTIFIABLE_SUBSTATION, c->substations },
        { CTG_IDENTIFIABLE_VOLTAGE_LEVEL, c->voltage_levels },
        { CTG_IDENTIFIABLE_BUS, c->buses },
        { CTG_IDENTIFIABLE_BUSBAR_SECTION, c->busbar_sections },
        { CTG_IDENTIFIABLE_SWITCH, c->switches },
        { CTG_IDENTIFIABLE_LINE, c->lines },
        { CTG_IDENTIFIABLE_TWO_WINDINGS_TRANSFORMER, c->transformers },
        { CTG_IDENTIFIABLE_GENERATOR, c->generators },
        { CTG_IDENTIFIABLE_LOAD, c->loads },
        { CTG_IDENTIFIABLE_SHUNT_COMPENSATOR, c->shunts },
        { CTG_IDENTIFIABLE_BATTERY, c->batteries },
        { CTG_IDENTIFIABLE_STATIC_VAR_COMPENSATOR, c->svcs },
        { CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, c->vsc + c->lcc },
        { CTG_IDENTIFIABLE_HVDC_LINE, c->hvdc },
        { CTG_IDENTIFIABLE_BOUNDARY_LINE, c->boundary },
        { CTG_IDENTIFIABLE_TIE_LINE, c->ties },
    };

    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        size_t got = ctg_network_count(net, rows[i].type);
        if (got != rows[i].want)
            return bench_net_fail(in, "%s: %zu objects of type %s, expected %zu", who, got,
                                  ctg_identifiable_type_name(rows[i].type), rows[i].want);
    }
    if (ctg_network_object_count(net) != c->objects)
        return bench_net_fail(in, "%s: %zu objects in all, expected %zu", who,
                              ctg_network_object_count(net), c->objects);
    return BENCH_OK;
}

int bench_net_import_kept(net_input *in)
{
    ctg_allocator hooks = { count_alloc, count_resize, count_release, &in->counter };

    memset(&in->counter, 0, sizeof in->counter);
    return import(in, &in->xml, CTG_IIDM_XML, &hooks, &in->net);
}

/* Keeps the table for the resolves, with what it holds and what the import peaked at. */
static int check_xiidm(net_input *in)
{
    int rc = bench_net_import_kept(in);
    const char *version;

    if (rc != BENCH_OK)
        return rc;
    version = ctg_network_iidm_version(in->net);
    if (version == NULL || strcmp(version, "1.17") != 0)
        return bench_net_fail(in, "XIIDM import: IIDM version %s, expected 1.17",
                              version ? version : "(none)");
    in->memory_size = ctg_network_memory_size(in->net);
    return check_counts(in, in->net, "XIIDM import");
}

/* The first offset where a and b differ, or the shorter length. */
static size_t first_difference(const ctg_buf *a, const ctg_buf *b)
{
    size_t n = a->len < b->len ? a->len : b->len, i = 0;

    while (i < n && a->data[i] == b->data[i])
        i++;
    return i;
}

/* The id of the object the dump `a` is writing at `at`: the last `"id" : "…"` before it. */
static void object_at(const ctg_buf *a, size_t at, char *out, size_t size)
{
    static const char key[] = "\"id\" : \"";
    size_t i = at, n = 0;

    while (i > 0 &&
           !(i + sizeof key - 1 <= a->len && memcmp(a->data + i, key, sizeof key - 1) == 0))
        i--;
    i += sizeof key - 1;
    while (i + n < a->len && a->data[i + n] != '"' && n + 1 < size)
        n++;
    memcpy(out, a->data + (i < a->len ? i : a->len), i < a->len ? n : 0);
    out[i < a->len ? n : 0] = '\0';
}

/* Both imports should give the same table: their dumps, byte for byte. A difference is a
 * finding of the run (shown with the targets), not a reason to time nothing. */
static int compare_dumps(net_input *in, const ctg_network *json_net)
{
    ctg_buf a = CTG_BUF_INIT, b = CTG_BUF_INIT;
    ctg_error err;
    int rc = BENCH_OK;

    if (ctg_network_write_json(in->net, &a, &err) != CTG_OK ||
        ctg_network_write_json(json_net, &b, &err) != CTG_OK) {
        rc = why(in, BENCH_FAIL, "ctg_network_write_json", &err);
    } else if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) {
        char id[128];
        size_t at = first_difference(&a, &b);
        object_at(&a, at, id, sizeof id);
        snprintf(in->dump_diff, sizeof in->dump_diff,
                 "dumps of %zu and %zu bytes differ first at byte %zu, in object %s", a.len, b.len,
                 at, id);
    }
    in->dumps_equal = rc == BENCH_OK && in->dump_diff[0] == '\0';
    in->dump_bytes = a.len;
    ctg_buf_dispose(&a);
    ctg_buf_dispose(&b);
    return rc;
}

static int check_jiidm(net_input *in)
{
    ctg_network *net = NULL;
    int rc = import(in, &in->json, CTG_IIDM_JSON, NULL, &net);

    if (rc == BENCH_OK)
        rc = check_counts(in, net, "JIIDM import");
    if (rc == BENCH_OK && in->net != NULL)
        rc = compare_dumps(in, net);
    ctg_network_free(net);
    return rc;
}

static int check_absent(net_input *in)
{
    if (memchr(in->json.data, '\1', in->json.len) != NULL)
        return bench_net_fail(in, "the JIIDM document holds the byte the floor looks for");
    return run_absent(in);
}

/* ---- resolves ------------------------------------------------------------------------------ */

int bench_net_resolve(net_input *in, int k, size_t *count)
{
    ctg_list *out = NULL;
    ctg_error err;

    if (in->net == NULL)
        return bench_net_fail(in, "needs the table of the XIIDM import");
    if (ctg_resolve(&out, in->net, in->lists[k], NULL, &err) != CTG_OK)
        return why(in, BENCH_FAIL, "ctg_resolve", &err);
    *count = ctg_list_contingency_count(out);
    ctg_list_free(out);
    return BENCH_OK;
}

static int run_list(net_input *in, int k)
{
    size_t n = 0;
    int rc = bench_net_resolve(in, k, &n);

    sink = n;
    return rc;
}

static int check_list(net_input *in, int k)
{
    static const char *const what[NET_LISTS] = { "the N-1 lineCriterion", "the property criterion",
                                                 "the ID_BASED list", "the default list" };
    size_t n = 0;
    int rc = bench_net_resolve(in, k, &n);

    if (rc == BENCH_OK && n != in->expect[k])
        rc = bench_net_fail(in, "%s resolved into %zu contingencies, expected %zu", what[k], n,
                            in->expect[k]);
    return rc;
}

/* The runner and the check of list `k` (of lists[]), as the table wants them: functions of
 * the input alone. */
#define LIST_RUNNER(name, k)                                                                     \
    static int run_##name(net_input *in) { return run_list(in, k); }                             \
    static int check_##name(net_input *in) { return check_list(in, k); }

LIST_RUNNER(lines, 0)
LIST_RUNNER(property, 1)
LIST_RUNNER(ids, 2)
LIST_RUNNER(default, 3)

static const net_runner runners[BENCH_NET_RUNNERS] = {
    { "xiidm-import", "ctg_iidm_read of the XIIDM bytes in memory + ctg_network_free", run_xiidm,
      check_xiidm },
    { "expat-floor", "XML_Parse of the same bytes with empty start/end handlers", run_expat, NULL },
    { "jiidm-import", "ctg_iidm_read of the JIIDM bytes in memory + ctg_network_free", run_jiidm,
      check_jiidm },
    { "jiidm-memchr-floor", "memchr passes over the JIIDM bytes counting '\"' (as memchr-floor)",
      run_memchr, NULL },
    { "jiidm-memchr-absent", "one memchr pass over the JIIDM bytes for an absent byte", run_absent,
      check_absent },
    { "resolve-n1-lines", "ctg_resolve of a lineCriterion: FR-FR lines, an end at 225-400 kV",
      run_lines, check_lines },
    { "resolve-property", "ctg_resolve of a lineCriterion: both substations' region = north",
      run_property, check_property },
    { "resolve-id-based", "ctg_resolve of an identifier list of ID_BASED identifiers", run_ids,
      check_ids },
    { "resolve-default", "ctg_resolve of a default list (validity filter; 1 in 10 dropped)",
      run_default, check_default },
};

const net_runner *bench_net_runners(void)
{
    return runners;
}
