/* SPDX-License-Identifier: MPL-2.0 */
/* The JIIDM importer: PowSyBl's JSON networks of the shared corpus against PowSyBl's own
 * tables, the same tables as their XIIDM twins, one invalid network per error, gzip, the
 * locale, and every allocation failing in turn. */

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ctg/iidm.h"
#include "ctg/network.h"
#include "iidm/jiidm.h"
#include "tests/net_golden.h"
#include "tests/test_common.h"

/* ---- helpers --------------------------------------------------------------------------- */

static const ctg_net_object *find(const ctg_network *net, const char *id)
{
    return ctg_network_find(net, id, strlen(id));
}

/* The ids of the objects of `type`, in enumeration order, joined by spaces. */
static void ids_of(const ctg_network *net, ctg_identifiable_type type, char *buf, size_t cap)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < ctg_network_count(net, type); i++) {
        const ctg_net_object *o = ctg_network_object_at(net, type, i);
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "", o->id);
        if (len >= cap)
            return;
    }
}

/* The ids of a voltage level's connectables, in its order. */
static void members_of(const ctg_net_object *vl, char *buf, size_t cap)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; vl && i < vl->container->member_count; i++) {
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "",
                                vl->container->members[i]->id);
        if (len >= cap)
            return;
    }
}

/* ---- the shared corpus ----------------------------------------------------------------- */

/* JSON files PowSyBl rejects only for content the table does not hold (extensions, limits,
 * regulation), which ctg therefore accepts; also in docs/compatibility.md. The corpus has
 * none today: its two rejected JSON files are rejected for an element name (shunts in 1.16
 * and 1.17), which the table does hold, so ctg rejects them too. */
static const struct accepted {
    const char *file;
    const char *powsybl_reason;
} accepted[] = { { NULL, NULL } };

static bool is_accepted(const char *rel)
{
    for (size_t i = 0; accepted[i].file; i++)
        if (strcmp(accepted[i].file, rel) == 0)
            return true;
    return false;
}

typedef struct corpus {
    const char *root; /* .../shared/testdata */
    size_t files, matched, rejected, accepted, no_golden, twins, twins_rejected;
} corpus;

static bool golden_ok(const char *text)
{
    return strstr(text, "\"ok\" : true") != NULL;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The dump of the table read from `path`, malloc'd; NULL when the read fails. */
static char *dump_of(const char *path)
{
    ctg_network *net = NULL;
    ctg_buf buf = { 0 };
    char *text = NULL;

    if (ctg_test_read_net_path(&net, path, NULL, NULL) != CTG_OK)
        return NULL;
    if (ctg_network_write_json(net, &buf, NULL) == CTG_OK) {
        text = malloc(buf.len + 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        memcpy(text, buf.data, buf.len);
        text[buf.len] = '\0';
    }
    ctg_buf_dispose(&buf);
    ctg_network_free(net);
    return text;
}

/* A JIIDM file and its XIIDM twin (same name, .xml), when the corpus has one, give the same
 * table, or are both rejected. */
static void check_twin(corpus *c, const char *path)
{
    char xml[1100];
    char *a, *b;

    snprintf(xml, sizeof(xml), "%.*s.xml", (int)(strlen(path) - 6), path);
    if (access(xml, R_OK) != 0)
        return;
    c->twins++;
    a = dump_of(path);
    b = dump_of(xml);
    if (!a && !b)
        c->twins_rejected++;
    else if (!a || !b || strcmp(a, b) != 0)
        fprintf(stderr, "\n  %s and its XIIDM twin give different tables\n", path);
    CU_ASSERT((!a && !b) || (a && b && strcmp(a, b) == 0));
    free(a);
    free(b);
}

static void check_rejected(corpus *c, const char *rel, int rc, const ctg_error *err)
{
    if (is_accepted(rel)) {
        c->accepted++;
        if (rc != CTG_OK)
            ctg_test_report(rel, err);
        CU_ASSERT_EQUAL(rc, CTG_OK);
        return;
    }
    c->rejected++;
    if (rc == CTG_OK)
        fprintf(stderr, "\n  %s: PowSyBl rejects it, ctg accepted it\n", rel);
    CU_ASSERT_NOT_EQUAL(rc, CTG_OK);
}

static void check_file(corpus *c, const char *path, const char *rel)
{
    char golden[2100], diff[1024] = "";
    ctg_network *net = NULL;
    ctg_error err;
    char *text;
    int rc;

    snprintf(golden, sizeof(golden), "%s/iidm-golden/%s.json", c->root, rel);
    c->files++;
    if (!(text = ctg_test_slurp(golden, NULL))) {
        c->no_golden++;
        return;
    }
    rc = ctg_test_read_net_path(&net, path, NULL, &err);
    if (!golden_ok(text)) {
        check_rejected(c, rel, rc, &err);
    } else if (rc != CTG_OK) {
        ctg_test_report(rel, &err);
        CU_FAIL("a file PowSyBl reads was rejected");
    } else if (!ctg_test_net_matches_golden(net, golden, diff, sizeof(diff))) {
        fprintf(stderr, "\n  %s: %s\n", rel, diff);
        CU_FAIL("the table differs from PowSyBl's");
    } else {
        c->matched++;
    }
    ctg_network_free(net);
    free(text);
    check_twin(c, path);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every .jiidm and .json file under `dir` (`rel` below the corpus root), in name order. */
static void walk(corpus *c, const char *dir, const char *rel)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);

    CU_ASSERT_FATAL(n >= 0);
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char path[1024], sub[512];
        struct stat st;
        if (name[0] != '.') {
            snprintf(path, sizeof(path), "%s/%s", dir, name);
            snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "", name);
            if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
                walk(c, path, sub);
            else if (has_suffix(name, ".jiidm") || has_suffix(name, ".json"))
                check_file(c, path, sub);
        }
        free(ents[i]);
    }
    free(ents);
}

CTG_SHARED_TEST(jiidm, corpus_matches_powsybl)
{
    corpus c = { ctg_test_shared_dir(), 0, 0, 0, 0, 0, 0, 0 };
    char dir[1024];

    snprintf(dir, sizeof(dir), "%s/iidm", c.root);
    walk(&c, dir, "");
    /* 11 JSON networks, all with a golden: 9 read by PowSyBl, 2 rejected (shunts renamed in
     * 1.16); 9 have an XIIDM twin, 2 of those rejected both ways. */
    CU_ASSERT_EQUAL(c.files, 11);
    CU_ASSERT_EQUAL(c.no_golden, 0);
    CU_ASSERT_EQUAL(c.matched, 9);
    CU_ASSERT_EQUAL(c.rejected, 2);
    CU_ASSERT_EQUAL(c.accepted, sizeof(accepted) / sizeof(accepted[0]) - 1);
    CU_ASSERT_EQUAL(c.twins, 9);
    CU_ASSERT_EQUAL(c.twins_rejected, 2);
}

/* ---- invalid networks ------------------------------------------------------------------ */

static const struct invalid {
    const char *file;
    int code;
    unsigned line, column;
    const char *path;
    const char *message;
} invalid[] = {
    { "j-malformed.jiidm", CTG_ESYNTAX, 7, 5, "/substations/0",
      "expected ',' or '}' after object member, got '\"'" },
    { "j-missing-version.jiidm", CTG_ESCHEMA, 1, 1, "/version",
      "missing required field \"version\"" },
    { "j-bad-version.jiidm", CTG_ESCHEMA, 2, 15, "/version",
      "\"version\" must be an IIDM version such as \"1.17\", got \"one\"" },
    { "j-version-too-new.jiidm", CTG_EUNSUPPORTED, 2, 15, "/version",
      "IIDM version 1.18 is not supported (this library reads 1.0 to 1.17)" },
    { "j-missing-id.jiidm", CTG_ESCHEMA, 10, 24, "/substations/0/voltageLevels/0/generators/0/id",
      "missing required field \"id\"" },
    { "j-missing-nominal-v.jiidm", CTG_ESCHEMA, 6, 25, "/substations/0/voltageLevels/0/nominalV",
      "missing required field \"nominalV\"" },
    { "j-bad-node.jiidm", CTG_ESCHEMA, 10, 42, "/substations/0/voltageLevels/0/loads/0/node",
      "\"node\" must be a node number (0 to 4294967294)" },
    { "j-unknown-voltage-level.jiidm", CTG_ESCHEMA, 20, 5, "/lines/0/voltageLevelId2",
      "unknown voltage level \"VL9\"" },
    { "j-unknown-boundary-line.jiidm", CTG_ESCHEMA, 19, 5, "/tieLines/0/boundaryLineId2",
      "unknown boundary line \"BL2\"" },
    { "j-unknown-converter-station.jiidm", CTG_ESCHEMA, 20, 5, "/hvdcLines/0/converterStation2",
      "unknown converter station \"CS2\"" },
    { "j-duplicate-id.jiidm", CTG_ESCHEMA, 11, 21, "/substations/0/voltageLevels/0/loads/0/id",
      "duplicate id \"G\"" },
    { "j-duplicate-alias.jiidm", CTG_ESCHEMA, 6, 19, "/substations/0/aliases/0",
      "alias \"n\" is already an id or an alias" },
    { "j-old-name.jiidm", CTG_ESCHEMA, 10, 25, "/substations/0/voltageLevels/0/danglingLines",
      "danglingLine is not supported for IIDM version 1.16. IIDM version should be <= 1.15" },
    { "j-new-name.jiidm", CTG_ESCHEMA, 10, 29, "/substations/0/voltageLevels/0/shuntCompensators",
      "shuntCompensator is not supported for IIDM version 1.15. IIDM version should be >= 1.16" },
    /* PowSyBl: "Unknown element name 'twoWindingsTransformer' in 'network'", every version. */
    { "j-network-transformer.jiidm", CTG_ESCHEMA, 4, 31, "",
      "unknown element \"twoWindingsTransformers\" in \"network\"" },
    { "j-unknown-element.jiidm", CTG_ESCHEMA, 10, 22, "/substations/0/voltageLevels/0",
      "unknown element \"generatorz\" in \"voltageLevel\"" },
    { "j-nested-subnetwork.jiidm", CTG_ESCHEMA, 6, 18, "/networks/0",
      "only one level of subnetworks is supported" },
};

static void check_invalid(const struct invalid *t, const ctg_iidm_read_options *o)
{
    char path[512];
    ctg_network *net = (ctg_network *)&net;
    ctg_error err;
    int rc;

    snprintf(path, sizeof(path), "%s/%s", CTG_TESTDATA("iidm/invalid"), t->file);
    memset(&err, 0, sizeof(err));
    rc = ctg_test_read_net_path(&net, path, o, &err);
    if (rc != t->code || err.line != t->line || err.column != t->column ||
        strcmp(err.path, t->path) != 0 || strcmp(err.message, t->message) != 0)
        ctg_test_report(t->file, &err);
    CU_ASSERT_EQUAL(rc, t->code);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_EQUAL(err.line, t->line);
    CU_ASSERT_EQUAL(err.column, t->column);
    CU_ASSERT_STRING_EQUAL(err.path, t->path);
    CU_ASSERT_STRING_EQUAL(err.message, t->message);
    CU_ASSERT_STRING_EQUAL(err.source, path);
}

/* A root that is not an object, read as JSON (the format sniffing would take it for XML). */
CTG_TEST(jiidm, root_not_an_object)
{
    ctg_iidm_read_options o = { 0 };
    ctg_network *net = NULL;
    ctg_error err;

    o.format = CTG_IIDM_JSON;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, "[ \"version\", \"1.17\" ]", &o, &err), CTG_ESCHEMA);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_EQUAL(err.line, 1);
    CU_ASSERT_EQUAL(err.column, 1);
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_STRING_EQUAL(err.message, "expected object, got array");
}

CTG_TEST(jiidm, invalid_networks)
{
    for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
        check_invalid(&invalid[i], NULL);
}

/* The same errors through a FILE * (the lexer refilling a small window, the first bytes
 * replayed by the format sniffing). */
CTG_TEST(jiidm, invalid_networks_streamed)
{
    for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
        char path[512];
        ctg_iidm_read_options o = { 0 };
        ctg_network *net = NULL;
        ctg_error err;
        FILE *fp;

        snprintf(path, sizeof(path), "%s/%s", CTG_TESTDATA("iidm/invalid"), invalid[i].file);
        fp = fopen(path, "rb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
        ctg_source src = ctg_source_fp(fp);
        o.source_name = path;
        CU_ASSERT_EQUAL(ctg_iidm_read(&net, &src, &o, &err), invalid[i].code);
        CU_ASSERT_EQUAL(err.line, invalid[i].line);
        CU_ASSERT_EQUAL(err.column, invalid[i].column);
        CU_ASSERT_STRING_EQUAL(err.path, invalid[i].path);
        CU_ASSERT_STRING_EQUAL(err.message, invalid[i].message);
        fclose(fp);
    }
}

/* ---- limits ---------------------------------------------------------------------------- */

static const char small_net[] =
    "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\",\"country\":\"FR\","
    "\"voltageLevels\":[{\"id\":\"VL1\",\"nominalV\":225.5,\"topologyKind\":\"BUS_BREAKER\","
    "\"busBreakerTopology\":{\"buses\":[{\"id\":\"B1\"},{\"id\":\"B2\"}]},"
    "\"generators\":[{\"id\":\"G\",\"bus\":\"B2\",\"connectableBus\":\"B2\","
    "\"reactiveCapabilityCurve\":{\"points\":[{\"p\":0.0,\"minQ\":-1.0,\"maxQ\":1.0}]}}],"
    "\"loads\":[{\"id\":\"LD\",\"connectableBus\":\"B1\",\"properties\":[{\"name\":\"k\","
    "\"value\":\"v\"}],\"aliases\":[{\"type\":\"t\",\"content\":\"LD-alias\"}]}]}]}]}";

/* The deepest level of small_net is 10: the points of the generator's reactive curve, skipped
 * whole (the path names the generator: what is skipped has no path of its own). */
CTG_TEST(jiidm, depth_limit)
{
    ctg_iidm_read_options o = { 0 };
    ctg_network *net = NULL;
    ctg_error err;

    o.max_depth = 9;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, small_net, &o, &err), CTG_ELIMIT);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0/generators/0");
    CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(small_net, "{\"p\"") - small_net));
    o.max_depth = 10;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, small_net, &o, &err), CTG_OK);
    ctg_network_free(net);
}

CTG_TEST(jiidm, string_and_name_limits)
{
    ctg_iidm_read_options o = { 0 };
    ctg_network *net = NULL;
    ctg_error err;

    o.max_value_len = 3;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, small_net, &o, &err), CTG_ELIMIT);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_EQUAL(err.column, 2); /* the first key longer than 3 bytes: "version" */
    o.max_value_len = 0;
    o.max_name_len = 16;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, small_net, &o, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "member name longer than 16 bytes");
    CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0");
    /* In a leaf element too, where members that are no key of ours are skipped unseen:
     * "reactiveCapabilityCurve" has 23 bytes. */
    o.max_name_len = 22;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, small_net, &o, &err), CTG_ELIMIT);
    CU_ASSERT_STRING_EQUAL(err.message, "member name longer than 22 bytes");
    CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0/generators/0");
    /* At the current token, the value before the key, as for any member. */
    CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(small_net, "\"B2\",\"reactive") - small_net));
    o.max_name_len = 23;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, small_net, &o, &err), CTG_OK);
    ctg_network_free(net);
}

/* small_net with `member` put first in its load (or, `in_vl`, in its voltage level). */
static char *with_member(const char *member, bool in_vl)
{
    const char *at = strstr(small_net, in_vl ? "\"id\":\"VL1\"" : "\"id\":\"LD\"");
    size_t head = (size_t)(at - small_net), n = strlen(member);
    char *doc = malloc(sizeof(small_net) + n);

    if (doc != NULL) {
        memcpy(doc, small_net, head);
        memcpy(doc + head, member, n);
        memcpy(doc + head + n, at, sizeof(small_net) - head);
    }
    return doc;
}

/* A member name too long is reported at the current token, the value before the key: in a
 * voltage level, after a member of ours and after one the lexer passes over (an unknown
 * string or number), the same place as when that member's value was read. */
CTG_TEST(jiidm, long_name_after_passed_over_scalar)
{
    static const char *const members[] = { "\"zzq\":5,", "\"zzq\":\"x\",", "\"zzq\":-2.5e3," };
    ctg_iidm_read_options o = { 0 };
    ctg_network *net = NULL;
    ctg_error err;
    char member[64];

    o.max_name_len = 16;
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
        char *doc;

        snprintf(member, sizeof member, "%s\"%s\":null,", members[i], "aaaaaaaaaaaaaaaaaaaa");
        doc = with_member(member, true);
        CU_ASSERT_FATAL(doc != NULL);
        CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, &o, &err), CTG_ELIMIT);
        CU_ASSERT_PTR_NULL(net);
        CU_ASSERT_STRING_EQUAL(err.message, "member name longer than 16 bytes");
        CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0");
        CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(doc, "\"zzq\":") - doc) + 6);
        free(doc);
    }
}

/* Members the importer passes over unread still fail as the lexer fails on them: same code,
 * message and offset (the bad byte, found by `bad`), the path at the element. */
CTG_TEST(jiidm, bad_values_in_skipped_members)
{
    static const struct {
        const char *member, *bad, *message;
        bool in_vl;
        int code;
    } cases[] = {
        { "\"p0\":01,", "1,\"id\":\"LD", "leading zero in number", false, CTG_ESYNTAX },
        { "\"p0\":-1.5e999,", "-1.5e999", "number out of range", false, CTG_ESYNTAX },
        { "\"q0\":1.,", ",\"id\":\"LD", "expected a digit after '.' in number", false,
          CTG_ESYNTAX },
        { "\"x\":{\"a\":[1,\"b\x01\"]},", "\x01", "invalid control character 0x01 in string", false,
          CTG_ESYNTAX },
        { "\"extensions\":[{\"name\":\"e\",\"v\":tru}],", "}]",
          "invalid literal, expected 'true', got '}'", true, CTG_ESYNTAX },
        /* Brackets and escaped quotes in strings do not end a skipped container. */
        { "\"x\":{\"s\":\"a]}\\\"[{\",\"t\":[1,{\"u\":\"\\\\\"}]]},", "]},\"id\":\"LD",
          "expected ',' or '}' after object member, got ']'", false, CTG_ESYNTAX },
        { "\"x\":[{\"s\":\"caf\xc3\xa9\\u00e9\"},{\"t\":\"\xc3\"}],", "\xc3\"}",
          "truncated UTF-8 sequence in string", false, CTG_ESYNTAX },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *doc = with_member(cases[i].member, cases[i].in_vl);
        ctg_network *net = NULL;
        ctg_error err;

        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, NULL, &err), cases[i].code);
        CU_ASSERT_PTR_NULL(net);
        CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(doc, cases[i].bad) - doc));
        CU_ASSERT_STRING_EQUAL(err.message, cases[i].message);
        CU_ASSERT_STRING_EQUAL(err.path, cases[i].in_vl ? "/substations/0/voltageLevels/0"
                                                        : "/substations/0/voltageLevels/0/loads/0");
        free(doc);
    }
}

/* A name is checked as a string, though the table keeps none. */
CTG_TEST(jiidm, name_checked_not_kept)
{
    static const struct {
        const char *member, *bad, *message;
    } cases[] = {
        { "\"name\":5,", "5,\"id\"", "expected string for \"name\", got number" },
        { "\"name\":\"a\\u0000\",", "\"a\\u", "\"name\" must not contain U+0000" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *doc = with_member(cases[i].member, false);
        ctg_network *net = NULL;
        ctg_error err;

        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_ESCHEMA);
        CU_ASSERT_PTR_NULL(net);
        CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(doc, cases[i].bad) - doc));
        CU_ASSERT_STRING_EQUAL(err.message, cases[i].message);
        CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0/loads/0/name");
        free(doc);
    }
}

/* A name the lexer passes over in place, checked as before wherever it falls: near a refill
 * of the streamed window (the name's key or value cut by it), with a non-ASCII byte, too long
 * for max_value_len. In memory and streamed: the same outcome, error and place. */
static void name_near_refill(const char *name, size_t at, size_t bad,
                             const ctg_iidm_read_options *o)
{
    char *member = malloc(at + 64), *doc;
    size_t head = (size_t)(strstr(small_net, "\"id\":\"LD\"") - small_net), pad;
    ctg_network *net = NULL, *net2 = NULL;
    ctg_error err, err2;
    int rc, rc2;
    FILE *fp;

    CU_ASSERT_PTR_NOT_NULL_FATAL(member);
    pad = at - head - 7; /* "x":"...", then the name at `at` */
    memcpy(member, "\"x\":\"", 5);
    memset(member + 5, 'a', pad);
    snprintf(member + 5 + pad, 64, "\",\"name\":\"%s\",", name);
    doc = with_member(member, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL((size_t)(strstr(doc, "\"name\"") - doc), at);
    memset(&err, 0, sizeof err);
    memset(&err2, 0, sizeof err2);
    rc = ctg_test_read_net(&net, doc, o, &err);
    fp = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    CU_ASSERT_EQUAL(fwrite(doc, 1, strlen(doc), fp), strlen(doc));
    rewind(fp);
    ctg_source src = ctg_source_fp(fp);
    rc2 = ctg_iidm_read(&net2, &src, o, &err2);
    CU_ASSERT_EQUAL(rc2, rc);
    if (rc != CTG_OK) {
        CU_ASSERT_EQUAL(err2.offset, err.offset);
        CU_ASSERT_EQUAL(err2.line, err.line);
        CU_ASSERT_EQUAL(err2.column, err.column);
        CU_ASSERT_STRING_EQUAL(err2.message, err.message);
        CU_ASSERT_STRING_EQUAL(err2.path, err.path);
        CU_ASSERT_EQUAL(err.offset, at + bad);
    } else {
        CU_ASSERT_PTR_NOT_NULL(find(net, "LD"));
        CU_ASSERT_PTR_NOT_NULL(find(net2, "LD"));
    }
    ctg_network_free(net);
    ctg_network_free(net2);
    fclose(fp);
    free(doc);
    free(member);
}

CTG_TEST(jiidm, name_near_refill)
{
    size_t head = (size_t)(strstr(small_net, "\"id\":\"LD\"") - small_net);
    ctg_iidm_read_options o = { 0 };

    for (size_t at = 65536 - 24; at < 65536 + 8; at++) {
        name_near_refill("plain name", at, 0, NULL);
        name_near_refill("caf\xc3", at, 11, NULL);
        name_near_refill("bad\xff", at, 11, NULL);
    }
    /* Longer than max_value_len (the longest key has 23 bytes): at its opening quote. */
    o.max_value_len = 24;
    name_near_refill("a name of twenty-five by", head + 18, 7, &o);
    name_near_refill("a name of twenty-five byt", head + 18, 7, &o);
}

/* An over-long member name is reported at the current token, the value before it: after a
 * plain name, that name's value, as when the importer read it (the lexer passes over such a
 * name, but leaves its value as the current token). */
CTG_TEST(jiidm, long_name_after_plain_name)
{
    char *doc = with_member("\"name\":\"nm\",\n\"aMemberNameOfTwentyThree\":{},", false);
    ctg_iidm_read_options o = { 0 };
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    o.max_name_len = 23;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, &o, &err), CTG_ELIMIT);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_STRING_EQUAL(err.message, "member name longer than 23 bytes");
    CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0/loads/0");
    CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(doc, "\"nm\"") - doc));
    CU_ASSERT_EQUAL(err.line, 1);
    free(doc);
}

/* A skipped member longer than the reader's buffer (so that, streamed, it spans refills), its
 * items on lines of their own, then an error in its last item: in memory and streamed, the
 * same error, at a line and column that count every line break of the skipped part. */
CTG_TEST(jiidm, error_after_long_skipped_member)
{
    static const char item[] = "\n  {\"id\":\"a]}\\\"[{\",\"v\":[1.5e3,-2,true,null,{}]},";
    size_t n = 5000, len = 0, cap = n * (sizeof(item) - 1) + 128;
    char *member = malloc(cap), *doc;
    ctg_network *net = NULL;
    ctg_error err, err2;
    FILE *fp;

    CU_ASSERT_PTR_NOT_NULL_FATAL(member);
    len += (size_t)snprintf(member + len, cap - len, "\"operationalLimitsGroups\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(member + len, cap - len, "%s", item);
    snprintf(member + len, cap - len, "\n  {\"id\":\"x\",\"v\":tru}],");
    doc = with_member(member, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT(strlen(doc) > 3 * 64 * 1024); /* three refills of the reader's buffer */
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_ESYNTAX);
    CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(doc, "tru}") - doc) + 3);
    CU_ASSERT_EQUAL(err.line, n + 2);
    CU_ASSERT_EQUAL(err.column, 20);
    CU_ASSERT_STRING_EQUAL(err.message, "invalid literal, expected 'true', got '}'");
    CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0/loads/0");
    fp = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    CU_ASSERT_EQUAL(fwrite(doc, 1, strlen(doc), fp), strlen(doc));
    rewind(fp);
    ctg_source src = ctg_source_fp(fp);
    CU_ASSERT_EQUAL(ctg_iidm_read(&net, &src, NULL, &err2), CTG_ESYNTAX);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_EQUAL(err2.offset, err.offset);
    CU_ASSERT_EQUAL(err2.line, err.line);
    CU_ASSERT_EQUAL(err2.column, err.column);
    CU_ASSERT_STRING_EQUAL(err2.message, err.message);
    CU_ASSERT_STRING_EQUAL(err2.path, err.path);
    fclose(fp);
    free(doc);
    free(member);
}

/* ---- what the table gets --------------------------------------------------------------- */

CTG_TEST(jiidm, small_network)
{
    ctg_network *net = NULL;
    ctg_error err;
    char buf[256];
    const ctg_net_object *vl, *ld;

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, small_net, NULL, &err), CTG_OK);
    CU_ASSERT_STRING_EQUAL(ctg_network_iidm_version(net), "1.17");
    CU_ASSERT_STRING_EQUAL(ctg_network_root(net)->id, "n");
    vl = find(net, "VL1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(vl);
    CU_ASSERT_EQUAL(vl->container->nominal_v, CTG_DOUBLE(225.5));
    CU_ASSERT_EQUAL(vl->container->topology, CTG_TOPOLOGY_BUS_BREAKER);
    CU_ASSERT_STRING_EQUAL(vl->substation->id, "S1");
    CU_ASSERT_STRING_EQUAL(find(net, "S1")->container->country, "FR");
    /* Bus by bus: the load on B1 comes before the generator on B2. */
    members_of(vl, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "LD G");
    ids_of(net, CTG_IDENTIFIABLE_BUS, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "B1 B2");
    ld = find(net, "LD-alias");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ld);
    CU_ASSERT_STRING_EQUAL(ld->id, "LD");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(ld, "k"), "v");
    ctg_network_free(net);
}

/* A bus-breaker level of `n` buses B0.. (B1 with an alias) and loads on B1 by its alias, on
 * B0, on the bus of another level, on no bus: their order in the level, and whether the read
 * succeeded. */
static bool bus_order(size_t n, char *buf, size_t cap)
{
    char doc[4096];
    size_t len = (size_t)snprintf(doc, sizeof doc,
                                  "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":"
                                  "\"S1\",\"voltageLevels\":[{\"id\":\"VL2\",\"nominalV\":20,"
                                  "\"topologyKind\":\"BUS_BREAKER\",\"busBreakerTopology\":{"
                                  "\"buses\":[{\"id\":\"C0\"}]}},{\"id\":\"VL1\",\"nominalV\":20,"
                                  "\"topologyKind\":\"BUS_BREAKER\",\"busBreakerTopology\":{"
                                  "\"buses\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(doc + len, sizeof doc - len, "%s{\"id\":\"B%zu\"%s}", i ? "," : "",
                                i, i == 1 ? ",\"aliases\":[{\"content\":\"B1-alias\"}]" : "");
    snprintf(doc + len, sizeof doc - len,
             "]},\"loads\":[{\"id\":\"LC\",\"bus\":\"C0\"},{\"id\":\"LA\",\"bus\":\"B1-alias\"},"
             "{\"id\":\"LB\",\"connectableBus\":\"B0\"},{\"id\":\"LD\",\"bus\":\"NONE\"}]}]}]}");
    ctg_network *net = NULL;
    ctg_error err;
    int rc = ctg_test_read_net(&net, doc, NULL, &err);
    if (rc != CTG_OK)
        ctg_test_report("bus_order", &err);
    if (rc == CTG_OK)
        members_of(find(net, "VL1"), buf, cap);
    ctg_network_free(net);
    return rc == CTG_OK;
}

/* An injection is placed by the rank of its bus in its level, the bus named by id or alias,
 * whether the level has few buses (compared one by one) or many (looked up in the index). */
CTG_TEST(jiidm, injections_ordered_by_bus)
{
    char buf[256];

    CU_ASSERT_TRUE_FATAL(bus_order(2, buf, sizeof buf));
    CU_ASSERT_STRING_EQUAL(buf, "LB LA LC LD");
    CU_ASSERT_TRUE_FATAL(bus_order(40, buf, sizeof buf));
    CU_ASSERT_STRING_EQUAL(buf, "LB LA LC LD");
}

/* Before 1.10 a tie line holds both halves inline: two boundary lines created with it, after
 * the voltage levels' own ones. */
static const char old_tie_line[] =
    "{\"version\":\"1.9\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\",\"voltageLevels\":["
    "{\"id\":\"VL1\",\"nominalV\":380,\"topologyKind\":\"NODE_BREAKER\","
    "\"nodeBreakerTopology\":{\"switches\":[{\"id\":\"SW\",\"kind\":\"BREAKER\","
    "\"open\":false,\"node1\":0,\"node2\":1}]},"
    "\"danglingLines\":[{\"id\":\"DL0\",\"node\":3}]},"
    "{\"id\":\"VL2\",\"nominalV\":380,\"topologyKind\":\"NODE_BREAKER\"}]}],"
    "\"tieLines\":[{\"id\":\"TL\",\"id_1\":\"H1\",\"name_1\":\"half 1\",\"voltageLevelId1\":"
    "\"VL1\",\"node1\":1,\"id_2\":\"H2\",\"voltageLevelId2\":\"VL2\",\"node2\":0}]}";

CTG_TEST(jiidm, tie_line_before_1_10)
{
    ctg_network *net = NULL;
    ctg_error err;
    char buf[256];
    const ctg_net_object *tl;

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, old_tie_line, NULL, &err), CTG_OK);
    ids_of(net, CTG_IDENTIFIABLE_BOUNDARY_LINE, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "DL0 H1 H2");
    tl = find(net, "TL");
    CU_ASSERT_PTR_NOT_NULL_FATAL(tl);
    CU_ASSERT_STRING_EQUAL(tl->refs[0]->id, "H1");
    CU_ASSERT_STRING_EQUAL(tl->refs[1]->id, "H2");
    CU_ASSERT_STRING_EQUAL(tl->voltage_levels[1]->id, "VL2");
    /* Node order: H1 on node 1 before DL0 on node 3. */
    members_of(find(net, "VL1"), buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "H1 DL0");
    /* Nodes 0 and 1 joined by the closed breaker; node 3 alone. */
    CU_ASSERT_EQUAL_FATAL(find(net, "VL1")->container->calculated_bus_count, 2);
    CU_ASSERT_STRING_EQUAL(find(net, "VL1")->container->calculated_buses[0], "VL1_0");
    CU_ASSERT_STRING_EQUAL(find(net, "VL1")->container->calculated_buses[1], "VL1_3");
    ctg_network_free(net);
}

/* A node-breaker level "<id>" of `pairs` closed breakers, listed from the last: breaker i joins
 * nodes 2i and 2i + 1, and an open one joins 2i + 1 and 2i + 2 (no merge). Appended to `b`. */
static void pairs_level(char *b, const char *id, unsigned pairs)
{
    b += strlen(b);
    b += sprintf(b, "{\"id\":\"%s\",\"nominalV\":400,\"topologyKind\":\"NODE_BREAKER\","
                    "\"nodeBreakerTopology\":{\"switches\":[", id);
    for (unsigned i = pairs; i-- > 0;)
        b += sprintf(b, "{\"id\":\"%s_K%u\",\"kind\":\"BREAKER\",\"open\":false,\"node1\":%u,"
                        "\"node2\":%u},{\"id\":\"%s_O%u\",\"kind\":\"BREAKER\",\"open\":true,"
                        "\"node1\":%u,\"node2\":%u}%s",
                     id, i, 2 * i + 1, 2 * i, id, i, 2 * i + 1, 2 * i + 2, i ? "," : "");
    sprintf(b, "]}}");
}

/* A node-breaker level's part of the graph is settled at its end: 41 nodes in VL1 (sorted as a
 * large part), 7 in VL2 (a small one), out of order, then the nodes a transformer of the
 * substation and a line mention later, one inner (merged in its level) and one new (a bus of
 * its own): the calculated buses are those of one settling at the end. */
CTG_TEST(jiidm, node_breaker_parts)
{
    static const char *const want1[] = { "VL1_0",  "VL1_2",  "VL1_4",  "VL1_6",  "VL1_8",
                                         "VL1_10", "VL1_12", "VL1_14", "VL1_16", "VL1_18",
                                         "VL1_20", "VL1_22", "VL1_24", "VL1_26", "VL1_28",
                                         "VL1_30", "VL1_32", "VL1_34", "VL1_36", "VL1_38",
                                         "VL1_40", "VL1_90" };
    static const char *const want2[] = { "VL2_0", "VL2_2", "VL2_4", "VL2_6", "VL2_50" };
    char *doc = malloc(16384);
    const ctg_net_container *c1, *c2;
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    strcpy(doc, "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\","
                "\"voltageLevels\":[");
    pairs_level(doc, "VL1", 20);
    strcat(doc, ",");
    pairs_level(doc, "VL2", 3);
    strcat(doc, "],\"twoWindingsTransformers\":[{\"id\":\"T\",\"voltageLevelId1\":\"VL1\","
                "\"node1\":3,\"voltageLevelId2\":\"VL2\",\"node2\":50}]}],"
                "\"lines\":[{\"id\":\"L\",\"voltageLevelId1\":\"VL1\",\"node1\":90,"
                "\"voltageLevelId2\":\"VL2\",\"node2\":5}]}");
    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_OK);
    c1 = find(net, "VL1")->container;
    c2 = find(net, "VL2")->container;
    CU_ASSERT_EQUAL_FATAL(c1->calculated_bus_count, sizeof want1 / sizeof want1[0]);
    for (size_t i = 0; i < sizeof want1 / sizeof want1[0]; i++)
        CU_ASSERT_STRING_EQUAL(c1->calculated_buses[i], want1[i]);
    CU_ASSERT_EQUAL_FATAL(c2->calculated_bus_count, sizeof want2 / sizeof want2[0]);
    for (size_t i = 0; i < sizeof want2 / sizeof want2[0]; i++)
        CU_ASSERT_STRING_EQUAL(c2->calculated_buses[i], want2[i]);
    ctg_network_free(net);
    free(doc);
}

/* A branch's levels are looked up together, its checks still come in their order: leg 1's
 * level and terminal before leg 2's, the id after both. Each error at its member (a missing
 * one at the element's '{'), in a document of one line. */
CTG_TEST(jiidm, branch_errors_in_order)
{
    static const char head[] =
        "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\",\"voltageLevels\":["
        "{\"id\":\"VL1\",\"nominalV\":400,\"topologyKind\":\"NODE_BREAKER\",\"loads\":[{\"id\":"
        "\"LD\",\"node\":1}]},{\"id\":\"VL2\",\"nominalV\":400,\"topologyKind\":"
        "\"BUS_BREAKER\"}]}],\"lines\":[";
    static const struct {
        const char *line, *at, *path, *message;
    } cases[] = {
        { "{\"id\":\"L\",\"voltageLevelId1\":\"VL1\",\"voltageLevelId2\":\"VL9\",\"node2\":3}",
          "{\"id\":\"L\"", "/lines/0/node1", "missing required field \"node1\"" },
        { "{\"id\":\"L\",\"voltageLevelId1\":\"LD\",\"node1\":1,\"voltageLevelId2\":\"VL2\"}",
          "\"voltageLevelId1\"", "/lines/0/voltageLevelId1", "unknown voltage level \"LD\"" },
        { "{\"id\":\"L\",\"voltageLevelId1\":\"VL1\",\"node1\":1,\"voltageLevelId2\":\"S1\"}",
          "\"voltageLevelId2\"", "/lines/0/voltageLevelId2", "unknown voltage level \"S1\"" },
        { "{\"id\":\"L\",\"voltageLevelId2\":\"VL2\",\"node1\":1}", "{\"id\":\"L\"",
          "/lines/0/voltageLevelId1", "missing required field \"voltageLevelId1\"" },
        { "{\"id\":\"VL1\",\"voltageLevelId1\":\"VL1\",\"node1\":1,\"voltageLevelId2\":\"VL2\"}",
          "\"id\":\"VL1\",\"voltageLevelId1\"", "/lines/0/id", "duplicate id \"VL1\"" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char doc[1024];
        ctg_network *net = NULL;
        ctg_error err;

        snprintf(doc, sizeof doc, "%s%s]}", head, cases[i].line);
        CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_ESCHEMA);
        CU_ASSERT_PTR_NULL(net);
        CU_ASSERT_STRING_EQUAL(err.path, cases[i].path);
        CU_ASSERT_STRING_EQUAL(err.message, cases[i].message);
        CU_ASSERT_EQUAL(err.line, 1);
        CU_ASSERT_EQUAL(err.column,
                        (unsigned)(strstr(doc + sizeof head - 1, cases[i].at) - doc) + 1);
    }
}

/* A container's members of no key of ours: a string or number value is passed over in the
 * lexer, any other comes to the member loop, so that an unknown array is still refused at its
 * '[', an array name with another value at that value, and a bad number in a skipped value at
 * that number, with the container's path, read from memory or streamed. */
CTG_TEST(jiidm, container_members)
{
    static const char head[] =
        "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\",\"voltageLevels\":["
        "{\"id\":\"VL1\",\"nominalV\":400,\"topologyKind\":\"BUS_BREAKER\"";
    static const struct {
        int code;
        const char *tail, *at, *path, *message;
    } cases[] = {
        { CTG_ESCHEMA, ",\"generators\":5}]}]}", "5}", "/substations/0/voltageLevels/0/generators",
          "expected array for \"generators\", got number" },
        { CTG_ESYNTAX, ",\"lowVoltageLimit\":1e999}]}]}", "1e999", "/substations/0/voltageLevels/0",
          "number out of range" },
        { CTG_ESCHEMA, ",\"foo\":\"a\\u0000b\",\"bar\":[1]}]}]}", "[1]", "/substations/0/voltageLevels/0",
          "unknown element \"bar\" in \"voltageLevel\"" },
        { CTG_ESCHEMA, ",\"foo\":true,\"bar\":{\"x\":[1,2]},\"baz\":-0.5,\"q\":\"x\"}]}],\"zork\":[]}", "[]}",
          "", "unknown element \"zork\" in \"network\"" },
        { CTG_ESYNTAX, ",\"foo\":01}]}]}", "1}]", "/substations/0/voltageLevels/0", "leading zero in number" },
        { CTG_ESCHEMA, ",\"Foo\":[]}]}]}", "[]", "/substations/0/voltageLevels/0",
          "unknown element \"Foo\" in \"voltageLevel\"" },
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char doc[512];

        snprintf(doc, sizeof doc, "%s%s", head, cases[i].tail);
        for (int streamed = 0; streamed < 2; streamed++) {
            FILE *fp = streamed ? fmemopen(doc, strlen(doc), "rb") : NULL;
            ctg_source src = streamed ? ctg_source_fp(fp) : ctg_source_buffer(doc, strlen(doc));
            ctg_iidm_read_options o = { 0 };
            ctg_network *net = NULL;
            ctg_error err;

            o.format = CTG_IIDM_JSON;
            CU_ASSERT_EQUAL(ctg_iidm_read(&net, &src, &o, &err), cases[i].code);
            if (fp)
                fclose(fp);
            CU_ASSERT_PTR_NULL(net);
            CU_ASSERT_STRING_EQUAL(err.path, cases[i].path);
            CU_ASSERT_STRING_EQUAL(err.message, cases[i].message);
            CU_ASSERT_EQUAL(err.line, 1);
            CU_ASSERT_EQUAL(err.column,
                            (unsigned)(strstr(doc + sizeof head - 1, cases[i].at) - doc) + 1);
        }
    }
}

/* Property and alias items: their keys in any order, escaped or not, other members skipped;
 * a missing key is an error at the item's '{'. */
CTG_TEST(jiidm, pair_items)
{
    static const char doc[] =
        "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\",\"properties\":["
        "{\"value\":\"v1\",\"name\":\"k1\"},{\"n\\u0061me\":\"k2\",\"value\":\"v2\"},"
        "{\"name\":\"k3\",\"x\":[1],\"value\":\"v3\"}],\"aliases\":[{\"type\":\"t\","
        "\"content\":\"A1\"},{\"content\":\"A2\"}]}]}";
    static const char bad[] = "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\","
                              "\"properties\":[{\"name\":\"k\"}]}]}";
    ctg_network *net = NULL;
    const ctg_net_object *s1;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_OK);
    s1 = find(net, "S1");
    CU_ASSERT_EQUAL(ctg_net_object_property_count(s1), 3);
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(s1, "k1"), "v1");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(s1, "k2"), "v2");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_property(s1, "k3"), "v3");
    CU_ASSERT_PTR_EQUAL(find(net, "A1"), s1);
    CU_ASSERT_PTR_EQUAL(find(net, "A2"), s1);
    ctg_network_free(net);
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, bad, NULL, &err), CTG_ESCHEMA);
    CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/properties/0/value");
    CU_ASSERT_STRING_EQUAL(err.message, "missing required field \"value\"");
    CU_ASSERT_EQUAL(err.column, (unsigned)(strstr(bad, "{\"name\"") - bad) + 1);
}

/* A node-breaker level whose busbar section stands on node `node` (the JSON text). */
static char *busbar_on(const char *node)
{
    static const char head[] =
        "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S1\",\"voltageLevels\":["
        "{\"id\":\"VL1\",\"nominalV\":400,\"topologyKind\":\"NODE_BREAKER\","
        "\"nodeBreakerTopology\":{\"busbarSections\":[{\"id\":\"BBS\",\"node\":";
    static const char tail[] = "}]}}]}]}";
    char *doc = malloc(sizeof(head) + strlen(node) + sizeof(tail));

    if (doc != NULL)
        sprintf(doc, "%s%s%s", head, node, tail);
    return doc;
}

/* Node numbers are the lexer's integer values: each integer text up to the largest node is
 * that node (its calculated bus "<level>_<node>" shows it, digit by digit), and anything else
 * is refused at the number with the same message. */
CTG_TEST(jiidm, node_numbers)
{
    static const struct {
        const char *node, *bus; /* bus NULL: refused */
    } cases[] = {
        { "0", "VL1_0" },
        { "-0", "VL1_0" },
        { "7", "VL1_7" },
        { "10", "VL1_10" },
        { "4294967294", "VL1_4294967294" },
        { "9007199254740993", NULL },
        { "4294967295", NULL },
        { "-1", NULL },
        { "1.5", NULL },
        { "1e2", NULL },
        { "100000000000000000000", NULL },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *doc = busbar_on(cases[i].node);
        ctg_network *net = NULL;
        const ctg_net_object *vl;
        ctg_error err;
        int rc;

        CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
        rc = ctg_test_read_net(&net, doc, NULL, &err);
        if (cases[i].bus == NULL) {
            CU_ASSERT_EQUAL(rc, CTG_ESCHEMA);
            CU_ASSERT_PTR_NULL(net);
            CU_ASSERT_EQUAL(err.offset, (size_t)(strstr(doc, "\"node\":") - doc) + 7);
            CU_ASSERT_STRING_EQUAL(err.message, "\"node\" must be a node number (0 to 4294967294)");
            CU_ASSERT_STRING_EQUAL(err.path, "/substations/0/voltageLevels/0/nodeBreakerTopology/"
                                             "busbarSections/0/node");
        } else {
            CU_ASSERT_EQUAL_FATAL(rc, CTG_OK);
            vl = find(net, "VL1");
            CU_ASSERT_PTR_NOT_NULL_FATAL(vl);
            CU_ASSERT_EQUAL_FATAL(vl->container->calculated_bus_count, 1);
            CU_ASSERT_STRING_EQUAL(vl->container->calculated_buses[0], cases[i].bus);
        }
        ctg_network_free(net);
        free(doc);
    }
}

static const char hvdc_and_subnetworks[] =
    "{\"version\":\"1.17\",\"id\":\"root\",\"networks\":[{\"id\":\"sn1\","
    "\"substations\":[{\"id\":\"S1\",\"voltageLevels\":[{\"id\":\"VL1\",\"nominalV\":400,"
    "\"topologyKind\":\"BUS_BREAKER\",\"busBreakerTopology\":{\"buses\":[{\"id\":\"B1\"}]},"
    "\"vscConverterStations\":[{\"id\":\"VSC\",\"bus\":\"B1\"}],"
    "\"lccConverterStations\":[{\"id\":\"LCC\",\"bus\":\"B1\"}],"
    "\"boundaryLines\":[{\"id\":\"BL1\",\"bus\":\"B1\"}]}]}],"
    "\"hvdcLines\":[{\"id\":\"HV\",\"converterStation1\":\"VSC\",\"converterStation2\":"
    "\"LCC\"}]},{\"id\":\"sn2\",\"voltageLevels\":[{\"id\":\"VL2\",\"nominalV\":400,"
    "\"topologyKind\":\"BUS_BREAKER\",\"boundaryLines\":[{\"id\":\"BL2\"}]}]}],"
    "\"tieLines\":[{\"id\":\"TL\",\"boundaryLineId1\":\"BL1\",\"boundaryLineId2\":\"BL2\"}]}";

CTG_TEST(jiidm, hvdc_tie_line_and_subnetworks)
{
    ctg_network *net = NULL;
    ctg_error err;
    char buf[256];

    CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, hvdc_and_subnetworks, NULL, &err), CTG_OK);
    ids_of(net, CTG_IDENTIFIABLE_NETWORK, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "root sn1 sn2");
    ids_of(net, CTG_IDENTIFIABLE_HVDC_CONVERTER_STATION, buf, sizeof(buf));
    CU_ASSERT_STRING_EQUAL(buf, "LCC VSC");
    CU_ASSERT_EQUAL(find(net, "VSC")->converter_kind, CTG_CONVERTER_VSC);
    CU_ASSERT_STRING_EQUAL(find(net, "VSC")->refs[0]->id, "HV");
    CU_ASSERT_STRING_EQUAL(find(net, "HV")->voltage_levels[1]->id, "VL1");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_subnetwork(find(net, "HV"))->id, "sn1");
    CU_ASSERT_STRING_EQUAL(ctg_net_object_subnetwork(find(net, "VL2"))->id, "sn2");
    CU_ASSERT_PTR_NULL(find(net, "VL2")->substation);
    CU_ASSERT_PTR_NULL(ctg_net_object_subnetwork(find(net, "TL")));
    CU_ASSERT_STRING_EQUAL(find(net, "BL2")->refs[0]->id, "TL");
    ctg_network_free(net);
}

/* Every version from 1.0 to 1.17 is read, as PowSyBl writes it ("1.0", ..., "1.17"). */
CTG_TEST(jiidm, every_version)
{
    for (unsigned v = 0; v <= 17; v++) {
        char doc[128];
        ctg_network *net = NULL;
        ctg_error err;
        char want[8];
        snprintf(doc, sizeof(doc), "{\"version\":\"1.%u\",\"id\":\"n%u\"}", v, v);
        snprintf(want, sizeof(want), "1.%u", v);
        CU_ASSERT_EQUAL_FATAL(ctg_test_read_net(&net, doc, NULL, &err), CTG_OK);
        CU_ASSERT_STRING_EQUAL(ctg_network_iidm_version(net), want);
        ctg_network_free(net);
    }
}

/* ---- progress ------------------------------------------------------------------------- */

/* A network of `loads` loads in one node-breaker level, malloc'd. */
static char *many_loads(size_t loads)
{
    ctg_test_text t = { 0 };
    static const char head[] = "{\"version\":\"1.17\",\"id\":\"n\",\"substations\":[{\"id\":\"S\","
                               "\"voltageLevels\":[{\"id\":\"V\",\"nominalV\":400,\"topologyKind\":"
                               "\"NODE_BREAKER\",\"loads\":[";
    static const char tail[] = "]}]}]}";

    ctg_test_text_add(&t, head, strlen(head));
    for (size_t i = 0; i < loads; i++) {
        char item[128];
        int n = snprintf(item, sizeof(item), "%s{\"id\":\"L%zu\",\"p0\":1.5,\"node\":%zu}",
                         i ? "," : "", i, i);
        ctg_test_text_add(&t, item, (size_t)n);
    }
    ctg_test_text_add(&t, tail, strlen(tail));
    return t.data;
}

typedef struct progress_log {
    size_t calls, last, stop_after;
} progress_log;

static int on_progress(size_t consumed, size_t total, void *payload)
{
    progress_log *p = payload;

    CU_ASSERT(consumed >= p->last);
    CU_ASSERT(total == 0 || consumed <= total);
    p->last = consumed;
    return ++p->calls == p->stop_after;
}

/* A memory read reports progress about every MiB, and stops when asked to. */
CTG_TEST(jiidm, progress_and_stop)
{
    char *doc = many_loads(60000);
    ctg_iidm_read_options o = { 0 };
    progress_log log = { 0, 0, 0 };
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_FATAL(strlen(doc) > 2 * 1024 * 1024);
    o.progress = on_progress;
    o.payload = &log;
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, &o, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_LOAD), 60000);
    /* At the end of the first element, then once a MiB. */
    CU_ASSERT_EQUAL(log.calls, (strlen(doc) >> 20) + 1);
    ctg_network_free(net);
    log = (progress_log){ 0, 0, 1 };
    CU_ASSERT_EQUAL(ctg_test_read_net(&net, doc, &o, &err), CTG_ESTOPPED);
    CU_ASSERT_PTR_NULL(net);
    CU_ASSERT_EQUAL(log.calls, 1);
    free(doc);
}

/* ---- gzip, locale, memory -------------------------------------------------------------- */

CTG_TEST(jiidm, gzip_file)
{
    char dir[256], path[320];
    ctg_network *net = NULL;
    ctg_error err;
    gzFile gz;

    ctg_test_scratch_make(dir, sizeof(dir), "ctg-jiidm");
    snprintf(path, sizeof(path), "%s/net.jiidm.gz", dir);
    gz = gzopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
    gzwrite(gz, small_net, (unsigned)strlen(small_net));
    gzclose(gz);
    CU_ASSERT_EQUAL(ctg_test_read_net_path(&net, path, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL(ctg_network_count(net, CTG_IDENTIFIABLE_LOAD), 1);
    ctg_network_free(net);
    ctg_test_scratch_remove(dir);
}

CTG_TEST(jiidm, nominal_v_in_a_comma_locale)
{
    static const char *const names[] = { "", "de_DE.UTF-8", "de_DE.utf8", "de_DE" };
    char *saved = strdup(setlocale(LC_NUMERIC, NULL));
    const char *got = NULL;
    ctg_network *net = NULL;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(saved);
    /* The environment's first (the CI's locale run sets LC_ALL), then the usual names. */
    for (size_t i = 0; i < 4 && !got; i++) {
        got = setlocale(LC_NUMERIC, names[i]);
        if (got && strcmp(localeconv()->decimal_point, ",") != 0)
            got = NULL;
    }
    if (!got) {
        printf("\n  [skipped] no de_DE locale installed: nominalV not checked under it\n");
    } else {
        CU_ASSERT_EQUAL(ctg_test_read_net(&net, small_net, NULL, &err), CTG_OK);
        CU_ASSERT_EQUAL(find(net, "VL1")->container->nominal_v, CTG_DOUBLE(225.5));
        ctg_network_free(net);
    }
    setlocale(LC_NUMERIC, saved);
    free(saved);
}

/* Reads `doc` with the fail_at-th allocation failing: CTG_ENOMEM and nothing left, or a
 * network when no call failed. Returns whether some call failed. */
static bool sweep_once(const char *doc, size_t fail_at, bool streamed)
{
    ctg_test_alloc state = { 0 };
    ctg_allocator a = ctg_test_allocator(&state);
    ctg_iidm_read_options o = { 0 };
    ctg_network *net = NULL;
    ctg_error err;
    int rc;

    state.fail_at = fail_at;
    o.allocator = &a;
    if (streamed) {
        FILE *fp = fmemopen((void *)doc, strlen(doc), "rb");
        ctg_source src = ctg_source_fp(fp);
        rc = ctg_iidm_read(&net, &src, &o, &err);
        fclose(fp);
    } else {
        rc = ctg_test_read_net(&net, doc, &o, &err);
    }
    if (state.failed) {
        CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
        CU_ASSERT_PTR_NULL(net);
    } else {
        CU_ASSERT_EQUAL(rc, CTG_OK);
    }
    ctg_network_free(net);
    CU_ASSERT_EQUAL(state.live_bytes, 0);
    CU_ASSERT_EQUAL(state.bad_sizes, 0);
    return state.failed;
}

/* Every element array is found by its name where it may stand, and nowhere else; the same
 * name one byte shorter, or with another first or last byte, is none (the look-up compares
 * only the names of the key's length: a table out of length order loses some). */
CTG_TEST(jiidm, kind_names)
{
    static const struct {
        const char *name;
        unsigned in;
    } arrays[] = {
        { "substations", JX_IN_NETWORK },
        { "voltageLevels", JX_IN_SUBSTATION },
        { "twoWindingsTransformers", JX_IN_SUBSTATION },
        { "threeWindingsTransformers", JX_IN_SUBSTATION },
        { "overloadManagementSystems", JX_IN_SUBSTATION },
        { "busbarSections", JX_IN_NBTOPO },
        { "switches", JX_IN_BBTOPO },
        { "buses", JX_IN_BBTOPO },
        { "generators", JX_IN_VLEVEL },
        { "batteries", JX_IN_VLEVEL },
        { "loads", JX_IN_VLEVEL },
        { "shunts", JX_IN_VLEVEL },
        { "shuntCompensators", JX_IN_VLEVEL },
        { "danglingLines", JX_IN_VLEVEL },
        { "boundaryLines", JX_IN_VLEVEL },
        { "staticVarCompensators", JX_IN_VLEVEL },
        { "vscConverterStations", JX_IN_VLEVEL },
        { "lccConverterStations", JX_IN_VLEVEL },
        { "internalConnections", JX_IN_NBTOPO },
        { "voltageSourceConverters", JX_IN_VLEVEL },
        { "lineCommutatedConverters", JX_IN_VLEVEL },
        { "grounds", JX_IN_VLEVEL },
        { "lines", JX_IN_SUBNET },
        { "tieLines", JX_IN_NETWORK },
        { "hvdcLines", JX_IN_SUBNET },
        { "dcNodes", JX_IN_NETWORK },
        { "dcSwitches", JX_IN_NETWORK },
        { "dcGrounds", JX_IN_NETWORK },
        { "dcLines", JX_IN_NETWORK },
        { "areas", JX_IN_SUBNET },
        { "networks", JX_IN_NETWORK },
    };
    char other[32];

    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        const char *n = arrays[i].name;
        size_t len = strlen(n);
        const jx_kind *k = jx_kind_find(n, len, arrays[i].in);

        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT_STRING_EQUAL(k->array, n);
        CU_ASSERT_EQUAL(k->array_len, len);
        CU_ASSERT_PTR_NULL(
            jx_kind_find(n, len, JX_IN_VLEVEL == arrays[i].in ? JX_IN_NBTOPO : JX_IN_VLEVEL));
        CU_ASSERT_PTR_NULL(jx_kind_find(n, len - 1, arrays[i].in));
        memcpy(other, n, len);
        other[0] = 'X';
        CU_ASSERT_PTR_NULL(jx_kind_find(other, len, arrays[i].in));
        other[0] = n[0];
        other[len - 1] = 'X';
        CU_ASSERT_PTR_NULL(jx_kind_find(other, len, arrays[i].in));
    }
    CU_ASSERT_PTR_NULL(jx_kind_find("", 0, 0x3F));
}

CTG_TEST(jiidm, allocation_failures)
{
    const char *docs[] = { small_net, old_tie_line, hvdc_and_subnetworks };

    for (size_t d = 0; d < 3; d++) {
        size_t n = 1;
        while (sweep_once(docs[d], n, false))
            n++;
        CU_ASSERT(n > 10);
        for (n = 1; sweep_once(docs[d], n, true); n++)
            ;
    }
}

#include "test_jiidm.tests.h"
