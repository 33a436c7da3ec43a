/* SPDX-License-Identifier: MPL-2.0 */
/* The writer: exact bytes of both layouts, escaping, doubles, the emitter's rules, and every
 * output (buffer, FILE *, descriptor, atomic file). */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "json/emit.h"
#include "json/jdouble.h"
#include "json/lexer.h"
#include "io/output.h"
#include "format/write.h"
#include "tests/test_common.h"

/* ---- helpers -------------------------------------------------------------------------- */

typedef struct test_ctg {
    const char *id;
    const char *name;
    const ctg_element *elements;
    size_t count;
} test_ctg;

static ctg_list *make_list(const char *name, const test_ctg *cs, size_t n)
{
    ctg_list *list = NULL;

    if (ctg_list_new(&list, CTG_LIST_DEFAULT, name, NULL) != CTG_OK)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (ctg_list_add_contingency(list, cs[i].id, cs[i].name, cs[i].elements,
                                     cs[i].count) != CTG_OK) {
            ctg_list_free(list);
            return NULL;
        }
    }
    return list;
}

static const ctg_element demo_a[] = {
    { "LINE_A", CTG_ELEMENT_BRANCH, "VLHV1" },
    { "GEN", CTG_ELEMENT_GENERATOR, NULL },
};
static const ctg_element demo_c[] = {
    { "TL", CTG_ELEMENT_TIE_LINE, "" },          /* empty side: not written */
    { "DL", CTG_ELEMENT_DANGLING_LINE, NULL },   /* written as BOUNDARY_LINE */
    { "HV", CTG_ELEMENT_HVDC_LINE, NULL },
    { "DC", CTG_ELEMENT_DC_LINE, "DN1" },        /* DC_LINE's side is written */
    { "LD", CTG_ELEMENT_LOAD, "VL_DROPPED" },    /* unsided: dropped */
};
static const test_ctg demo[] = {
    { "N-1_A", "first", demo_a, 2 },
    { "N-1_B", NULL, NULL, 0 },
    { "N-1_C", NULL, demo_c, 5 },
};

static const char demo_pretty[] =
    "{\n"
    "  \"type\" : \"default\",\n"
    "  \"version\" : \"1.1\",\n"
    "  \"name\" : \"demo\",\n"
    "  \"contingencies\" : [ {\n"
    "    \"id\" : \"N-1_A\",\n"
    "    \"name\" : \"first\",\n"
    "    \"elements\" : [ {\n"
    "      \"id\" : \"LINE_A\",\n"
    "      \"type\" : \"BRANCH\",\n"
    "      \"voltageLevelId\" : \"VLHV1\"\n"
    "    }, {\n"
    "      \"id\" : \"GEN\",\n"
    "      \"type\" : \"GENERATOR\"\n"
    "    } ]\n"
    "  }, {\n"
    "    \"id\" : \"N-1_B\",\n"
    "    \"elements\" : [ ]\n"
    "  }, {\n"
    "    \"id\" : \"N-1_C\",\n"
    "    \"elements\" : [ {\n"
    "      \"id\" : \"TL\",\n"
    "      \"type\" : \"TIE_LINE\"\n"
    "    }, {\n"
    "      \"id\" : \"DL\",\n"
    "      \"type\" : \"BOUNDARY_LINE\"\n"
    "    }, {\n"
    "      \"id\" : \"HV\",\n"
    "      \"type\" : \"HVDC_LINE\"\n"
    "    }, {\n"
    "      \"id\" : \"DC\",\n"
    "      \"type\" : \"DC_LINE\",\n"
    "      \"voltageLevelId\" : \"DN1\"\n"
    "    }, {\n"
    "      \"id\" : \"LD\",\n"
    "      \"type\" : \"LOAD\"\n"
    "    } ]\n"
    "  } ]\n"
    "}";

static const char demo_compact[] =
    "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"demo\",\"contingencies\":["
    "{\"id\":\"N-1_A\",\"name\":\"first\",\"elements\":[{\"id\":\"LINE_A\",\"type\":\"BRANCH\","
    "\"voltageLevelId\":\"VLHV1\"},{\"id\":\"GEN\",\"type\":\"GENERATOR\"}]},"
    "{\"id\":\"N-1_B\",\"elements\":[]},"
    "{\"id\":\"N-1_C\",\"elements\":[{\"id\":\"TL\",\"type\":\"TIE_LINE\"},"
    "{\"id\":\"DL\",\"type\":\"BOUNDARY_LINE\"},{\"id\":\"HV\",\"type\":\"HVDC_LINE\"},"
    "{\"id\":\"DC\",\"type\":\"DC_LINE\",\"voltageLevelId\":\"DN1\"},"
    "{\"id\":\"LD\",\"type\":\"LOAD\"}]}]}";

static ctg_list *demo_list(void)
{
    return make_list("demo", demo, sizeof demo / sizeof demo[0]);
}

/* Asserts that `len` bytes at `got` are exactly the NUL-terminated `want`; on a mismatch,
 * shows where. */
static void assert_bytes(const char *got, size_t len, const char *want)
{
    size_t wlen = strlen(want), i = 0;

    while (i < len && i < wlen && got[i] == want[i])
        i++;
    if (i != len || i != wlen)
        fprintf(stderr, "\nbytes differ at offset %zu (got %zu bytes, want %zu)\n", i, len, wlen);
    CU_ASSERT_EQUAL(len, wlen);
    CU_ASSERT_EQUAL(i, wlen);
}

/* The emitter's output collected in memory. */
typedef struct collect {
    char *data;
    size_t len;
    size_t cap;
    int calls;
    int fail_at_call; /* 0: never */
    size_t largest;   /* the largest piece handed over */
} collect;

static int collect_sink(void *ctx, const char *data, size_t len, ctg_error *err)
{
    collect *c = ctx;

    c->calls++;
    c->largest = len > c->largest ? len : c->largest;
    if (c->fail_at_call != 0 && c->calls >= c->fail_at_call) {
        snprintf(err->message, sizeof err->message, "sink refused");
        return CTG_EIO;
    }
    if (c->len + len + 1 > c->cap) {
        size_t cap = (c->len + len + 1) * 2;
        char *p = realloc(c->data, cap);

        if (p == NULL)
            return CTG_ENOMEM;
        c->data = p;
        c->cap = cap;
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    c->data[c->len] = '\0';
    return CTG_OK;
}

static void collect_init(collect *c, ctg_emitter *e, bool compact, ctg_error *err)
{
    memset(c, 0, sizeof *c);
    CU_ASSERT_EQUAL_FATAL(ctg_emit_init(e, collect_sink, c, compact, NULL, err), CTG_OK);
}

/* Finishes the emission and returns its status; the bytes are in c->data. */
static int collect_finish(collect *c, ctg_emitter *e)
{
    int rc = ctg_emit_finish(e);

    ctg_emit_dispose(e);
    if (c->data == NULL)
        c->data = calloc(1, 1);
    return rc;
}

static int write_to_buf(ctg_buf *buf, const ctg_list *list, unsigned flags)
{
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;

    opts.flags = flags;
    return ctg_list_write_buf(buf, list, &opts, NULL);
}

static uint64_t next_random(uint64_t *state)
{
    /* xorshift64*: reproducible bit patterns. */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1DULL;
}

/* ---- layouts -------------------------------------------------------------------------- */

CTG_TEST(writer, pretty_layout_exact_bytes)
{
    ctg_list *list = demo_list();
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(write_to_buf(&buf, list, 0), CTG_OK);
    assert_bytes(buf.data, buf.len, demo_pretty);
    CU_ASSERT_EQUAL(buf.data[buf.len], '\0');
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(writer, compact_layout_exact_bytes)
{
    ctg_list *list = demo_list();
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(write_to_buf(&buf, list, CTG_WRITE_COMPACT), CTG_OK);
    assert_bytes(buf.data, buf.len, demo_compact);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(writer, empty_list)
{
    ctg_list *list = make_list("", NULL, 0);
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(write_to_buf(&buf, list, 0), CTG_OK);
    assert_bytes(buf.data, buf.len,
                 "{\n  \"type\" : \"default\",\n  \"version\" : \"1.1\",\n  \"name\" : \"\",\n"
                 "  \"contingencies\" : [ ]\n}");
    buf.len = 0;
    CU_ASSERT_EQUAL(write_to_buf(&buf, list, CTG_WRITE_COMPACT), CTG_OK);
    assert_bytes(buf.data, buf.len,
                 "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"\",\"contingencies\":[]}");
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(writer, optional_contingency_name)
{
    static const test_ctg cs[] = { { "a", "", NULL, 0 }, { "b", NULL, NULL, 0 } };
    ctg_list *list = make_list("n", cs, 2);
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(write_to_buf(&buf, list, CTG_WRITE_COMPACT), CTG_OK);
    /* "" is a name (written); NULL is none (absent). */
    assert_bytes(buf.data, buf.len,
                 "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n\",\"contingencies\":["
                 "{\"id\":\"a\",\"name\":\"\",\"elements\":[]},{\"id\":\"b\",\"elements\":[]}]}");
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

/* The writer applies the side rules itself, also to structs that did not come through the
 * builders: only sided types, only non-empty values; DANGLING_LINE as BOUNDARY_LINE. */
CTG_TEST(writer, voltage_level_rules_in_the_writer)
{
    static const ctg_element els[] = {
        { "G", CTG_ELEMENT_GENERATOR, "VL" },
        { "D", CTG_ELEMENT_DANGLING_LINE, "VL" },
        { "B", CTG_ELEMENT_BRANCH, "" },
        { "L", CTG_ELEMENT_LINE, "VL2" },
        { "T", CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER, "VL3" },
    };
    ctg_contingency c = { "c", NULL, els, 5, NULL, 0 };
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, true, NULL);
    ctg_write_contingency(&e, &c);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len,
                 "{\"id\":\"c\",\"elements\":[{\"id\":\"G\",\"type\":\"GENERATOR\"},"
                 "{\"id\":\"D\",\"type\":\"BOUNDARY_LINE\"},{\"id\":\"B\",\"type\":\"BRANCH\"},"
                 "{\"id\":\"L\",\"type\":\"LINE\",\"voltageLevelId\":\"VL2\"},"
                 "{\"id\":\"T\",\"type\":\"TWO_WINDINGS_TRANSFORMER\","
                 "\"voltageLevelId\":\"VL3\"}]}");
    free(out.data);
}

CTG_TEST(writer, every_element_type_name)
{
    ctg_element els[CTG_ELEMENT_TYPE_COUNT];
    ctg_contingency c = { "all", NULL, els, CTG_ELEMENT_TYPE_COUNT, NULL, 0 };
    ctg_emitter e;
    collect out;

    for (int t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++) {
        els[t].id = "x";
        els[t].type = (ctg_element_type)t;
        els[t].voltage_level_id = NULL;
    }
    collect_init(&out, &e, true, NULL);
    ctg_write_contingency(&e, &c);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len,
                 "{\"id\":\"all\",\"elements\":[{\"id\":\"x\",\"type\":\"GENERATOR\"},"
                 "{\"id\":\"x\",\"type\":\"STATIC_VAR_COMPENSATOR\"},"
                 "{\"id\":\"x\",\"type\":\"SHUNT_COMPENSATOR\"},"
                 "{\"id\":\"x\",\"type\":\"BRANCH\"},"
                 "{\"id\":\"x\",\"type\":\"HVDC_LINE\"},"
                 "{\"id\":\"x\",\"type\":\"BUSBAR_SECTION\"},"
                 "{\"id\":\"x\",\"type\":\"BOUNDARY_LINE\"},"
                 "{\"id\":\"x\",\"type\":\"BOUNDARY_LINE\"},"
                 "{\"id\":\"x\",\"type\":\"LINE\"},"
                 "{\"id\":\"x\",\"type\":\"TWO_WINDINGS_TRANSFORMER\"},"
                 "{\"id\":\"x\",\"type\":\"THREE_WINDINGS_TRANSFORMER\"},"
                 "{\"id\":\"x\",\"type\":\"LOAD\"},"
                 "{\"id\":\"x\",\"type\":\"SWITCH\"},"
                 "{\"id\":\"x\",\"type\":\"BATTERY\"},"
                 "{\"id\":\"x\",\"type\":\"BUS\"},"
                 "{\"id\":\"x\",\"type\":\"TIE_LINE\"},"
                 "{\"id\":\"x\",\"type\":\"VOLTAGE_SOURCE_CONVERTER\"},"
                 "{\"id\":\"x\",\"type\":\"DC_LINE\"},"
                 "{\"id\":\"x\",\"type\":\"DC_GROUND\"},"
                 "{\"id\":\"x\",\"type\":\"DC_NODE\"}]}");
    free(out.data);
}

/* The pretty layout copies the type names from a table of its own (format/default.c): each
 * one as ctg_element_type_name spells it (DANGLING_LINE written as BOUNDARY_LINE from 1.1). */
CTG_TEST(writer, every_element_type_name_pretty)
{
    for (int t = 0; t < CTG_ELEMENT_TYPE_COUNT; t++) {
        ctg_element el = { "x", (ctg_element_type)t, NULL };
        ctg_contingency c = { "c", NULL, &el, 1, NULL, 0 };
        const char *name = ctg_element_type_name(t == CTG_ELEMENT_DANGLING_LINE
                                                     ? CTG_ELEMENT_BOUNDARY_LINE
                                                     : (ctg_element_type)t);
        char want[256];
        ctg_emitter e;
        collect out;

        snprintf(want, sizeof want,
                 "{\n  \"id\" : \"c\",\n  \"elements\" : [ {\n    \"id\" : \"x\",\n"
                 "    \"type\" : \"%s\"\n  } ]\n}",
                 name);
        collect_init(&out, &e, false, NULL);
        ctg_write_contingency(&e, &c);
        CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
        assert_bytes(out.data, out.len, want);
        free(out.data);
    }
}

/* ---- escaping ------------------------------------------------------------------------- */

CTG_TEST(writer, escapes_every_control_character)
{
    char all[32];
    ctg_emitter e;
    collect out;

    for (int i = 0; i < 32; i++)
        all[i] = (char)i;
    collect_init(&out, &e, true, NULL);
    ctg_emit_string(&e, all, 32);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len,
                 "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000B\\f\\r"
                 "\\u000E\\u000F\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018"
                 "\\u0019\\u001A\\u001B\\u001C\\u001D\\u001E\\u001F\"");
    free(out.data);
}

/* With astral escapes on, only a well-formed 4-byte sequence becomes two escapes: a byte of
 * F0-FF that starts none (a stray byte, an overlong or out-of-range lead, a sequence cut
 * short) passes through and never swallows the bytes after it. */
CTG_TEST(writer, astral_escapes_only_real_sequences)
{
    static const char in[] = "p\xff\"q\xf0\x9f\x98\x80r\xf0\x8f\xbf\xbfs\xf4\x90\x80\x80"
                             "t\xf5\x80\x80\x80u\xf4\x8f\xbf\xbfv\xf0\x9f\x98w\xf0";
    static const char want[] = "\"p\xff\\\"q\\uD83D\\uDE00r\xf0\x8f\xbf\xbfs\xf4\x90\x80\x80"
                               "t\xf5\x80\x80\x80u\\uDBFF\\uDFFFv\xf0\x9f\x98w\xf0\"";
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, true, NULL);
    ctg_emit_escape_astral(&e);
    ctg_emit_string(&e, in, sizeof in - 1);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len, want);
    free(out.data);
}

CTG_TEST(writer, escapes_quote_and_backslash_only)
{
    /* '/', DEL and non-ASCII (é, €, U+1F600) are written as they are. */
    static const char in[] = "q\"b\\s/d\x7f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 ";
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, false, NULL);
    ctg_emit_object_begin(&e);
    ctg_emit_key(&e, "k\"\n", 3);
    ctg_emit_string(&e, in, sizeof in - 1);
    ctg_emit_object_end(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len,
                 "{\n  \"k\\\"\\n\" : "
                 "\"q\\\"b\\\\s/d\x7f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \"\n}");
    free(out.data);
}

CTG_TEST(writer, escapes_in_list_strings)
{
    static const ctg_element els[] = { { "L\t1", CTG_ELEMENT_LINE, "V\"L" } };
    static const test_ctg cs[] = { { "id\\1", "a\nb", els, 1 } };
    ctg_list *list = make_list("na/me", cs, 1);
    ctg_buf buf = CTG_BUF_INIT;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(write_to_buf(&buf, list, CTG_WRITE_COMPACT), CTG_OK);
    assert_bytes(buf.data, buf.len,
                 "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"na/me\",\"contingencies\":["
                 "{\"id\":\"id\\\\1\",\"name\":\"a\\nb\",\"elements\":[{\"id\":\"L\\t1\","
                 "\"type\":\"LINE\",\"voltageLevelId\":\"V\\\"L\"}]}]}");
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

/* The escaping of spec 7, written the plain way, as the oracle of the randomized test. */
static size_t reference_escape(const unsigned char *s, size_t n, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t w = 0;

    out[w++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b"
                        : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\f' ? "\\f"
                        : c == '\r' ? "\\r" : NULL;

        if (esc != NULL) {
            memcpy(out + w, esc, 2);
            w += 2;
        } else if (c < 0x20) {
            memcpy(out + w, "\\u00", 4);
            out[w + 4] = hex[c >> 4];
            out[w + 5] = hex[c & 15];
            w += 6;
        } else {
            out[w++] = (char)c;
        }
    }
    out[w++] = '"';
    out[w] = '\0';
    return w;
}

/* Random strings of every length up to 40, mostly plain with a few bytes to escape, at every
 * alignment: the word-at-a-time scan must agree with the plain escaping. */
CTG_TEST(writer, escaping_matches_reference)
{
    static const unsigned char pool[] = {
        'a', 'Z', '0', '_', '-', ' ', '/', 0x7F, 0x80, 0xC3, 0xA9, 0xFF, 0x21, 0x23, 0x5B, 0x5D,
        '"', '\\', 0x00, 0x01, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1F, 0x20,
    };
    unsigned char in[64];
    char want[6 * 64 + 3];
    uint64_t state = 12345;
    int bad = 0;

    for (int iter = 0; iter < 20000 && bad < 3; iter++) {
        size_t n = (size_t)(next_random(&state) % 41), off = iter % 8;
        uint64_t r = next_random(&state);
        ctg_emitter e;
        collect out;

        for (size_t i = 0; i < n; i++) {
            uint64_t k = next_random(&state);
            /* Half the strings draw every byte from the pool, the others one byte in eight;
             * the first 16 entries of the pool need no escaping, the rest do. */
            size_t span = (r & 1) ? 16 : sizeof pool;
            in[off + i] = pool[(k >> 8) % ((k & 7) == 0 || (r & 2) ? span : 6)];
        }
        reference_escape(in + off, n, want);
        collect_init(&out, &e, true, NULL);
        ctg_emit_string(&e, (const char *)in + off, n);
        CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
        if (strcmp(out.data, want) != 0) {
            fprintf(stderr, "\nescaping differs: got %s, want %s\n", out.data, want);
            bad++;
        }
        free(out.data);
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* One byte of `cls` at every position of a string of `n` plain bytes (a second one 9 bytes
 * further when `pair`), the string starting at `off` in its buffer; written with `emit` into an
 * array (compact: plain strings; pretty: one-member objects). The expected bytes, from
 * reference_escape, in `want`. */
typedef void (*boundary_emit)(ctg_emitter *e, const char *s, size_t n);

static const ctg_key boundary_key = CTG_KEY("k");

static void boundary_string(ctg_emitter *e, const char *s, size_t n)
{
    ctg_emit_string(e, s, n);
}

static void boundary_member(ctg_emitter *e, const char *s, size_t n)
{
    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &boundary_key, s, n);
    ctg_emit_object_end(e);
}

static void boundary_object(ctg_emitter *e, const char *s, size_t n)
{
    ctg_emit_member m = { &boundary_key, s, n };

    ctg_emit_string_object(e, &m, 1);
}

static void boundary_key_of(ctg_emitter *e, const char *s, size_t n)
{
    ctg_emit_object_begin(e);
    ctg_emit_key(e, s, n);
    ctg_emit_int(e, 1);
    ctg_emit_object_end(e);
}

static bool boundary_case(size_t n, unsigned char cls, bool pair, size_t off, int how)
{
    static const boundary_emit emits[] = { boundary_string, boundary_member, boundary_object,
                                           boundary_key_of };
    unsigned char in[96 + 16];
    char *want = malloc(96 * (6 * 96 + 32) + 8), ref[6 * 96 + 3];
    size_t w = 0;
    ctg_emitter e;
    collect out;
    bool same;

    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    collect_init(&out, &e, how == 0, NULL);
    ctg_emit_array_begin(&e);
    want[w++] = '[';
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < n; i++)
            in[off + i] = (unsigned char)('a' + (i + k) % 26);
        in[off + k] = cls;
        if (pair && k + 9 < n)
            in[off + k + 9] = cls;
        emits[how](&e, (const char *)in + off, n);
        reference_escape(in + off, n, ref);
        w += (size_t)sprintf(want + w, how == 0   ? "%s%s"
                                       : how == 3 ? "%s{\n  %s : 1\n}"
                                                  : "%s{\n  \"k\" : %s\n}",
                             k == 0 ? (how == 0 ? "" : " ") : (how == 0 ? "," : ", "), ref);
    }
    ctg_emit_array_end(&e);
    w += (size_t)sprintf(want + w, how == 0 ? "]" : " ]");
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    same = out.len == w && memcmp(out.data, want, w) == 0;
    if (!same)
        fprintf(stderr, "\nescaping differs (n %zu, byte 0x%02X, pair %d, offset %zu, way %d):\n"
                "got  %s\nwant %s\n", n, cls, pair, off, how, out.data, want);
    free(out.data);
    free(want);
    return same;
}

/* Every byte class at every position of strings of 1 to 96 bytes, at every alignment: the
 * block scans (16 bytes, two overlapping words, 4-byte words, bytes) and the copy that
 * resumes after an escape must agree with the plain escaping, through every string path. */
CTG_TEST(writer, escaping_at_every_block_position)
{
    static const unsigned char classes[] = { '"', '\\', 0x00, 0x0A, 0x1F, 0x20, 0x7F, 0x80,
                                             0xC3, 0xFF, '!', 0x1B };
    int bad = 0;

    for (size_t n = 1; n <= 96 && bad < 3; n++)
        for (size_t c = 0; c < sizeof classes && bad < 3; c++)
            for (int how = 0; how < 4 && bad < 3; how++)
                bad += !boundary_case(n, classes[c], ((n + c) & 1) != 0, (n * 7 + c) % 16, how);
    CU_ASSERT_EQUAL(bad, 0);
}

/* A string far larger than the emitter's buffer, with escapes spread through it. */
CTG_TEST(writer, long_string_with_escapes)
{
    const size_t n = 300000;
    char *in = malloc(n), *want = malloc(2 * n + 3);
    size_t w = 0;
    ctg_emitter e;
    collect out;

    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    want[w++] = '"';
    for (size_t i = 0; i < n; i++) {
        in[i] = i % 3 == 0 ? '\n' : (char)('a' + i % 26);
        if (in[i] == '\n') {
            want[w++] = '\\';
            want[w++] = 'n';
        } else {
            want[w++] = in[i];
        }
    }
    want[w++] = '"';
    want[w] = '\0';
    collect_init(&out, &e, false, NULL);
    ctg_emit_string(&e, in, n);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len, want);
    CU_ASSERT(out.calls > 1); /* it went through in pieces */
    free(out.data);
    free(in);
    free(want);
}

/* ---- contingencies laid out in place ------------------------------------------------- */

static const ctg_key oracle_id = CTG_KEY("id"), oracle_name = CTG_KEY("name"),
                     oracle_elements = CTG_KEY("elements"), oracle_type = CTG_KEY("type"),
                     oracle_side = CTG_KEY("voltageLevelId");

/* A contingency the way the emitter's calls write it (format/default.c before its in-place
 * layout): the oracle of the tests below. */
static void oracle_contingency(ctg_emitter *e, const ctg_contingency *c)
{
    ctg_emit_object_begin(e);
    ctg_emit_member_string(e, &oracle_id, c->id, strlen(c->id));
    if (c->name != NULL)
        ctg_emit_member_string(e, &oracle_name, c->name, strlen(c->name));
    ctg_emit_name_key(e, &oracle_elements);
    ctg_emit_array_begin(e);
    for (size_t i = 0; i < c->element_count; i++) {
        const ctg_element *el = &c->elements[i];
        ctg_element_type t =
            el->type == CTG_ELEMENT_DANGLING_LINE ? CTG_ELEMENT_BOUNDARY_LINE : el->type;
        const char *type = ctg_element_type_name(t);

        ctg_emit_object_begin(e);
        ctg_emit_member_string(e, &oracle_id, el->id, strlen(el->id));
        ctg_emit_member_string(e, &oracle_type, type, strlen(type));
        if (ctg_element_type_is_sided(t) && el->voltage_level_id != NULL &&
            el->voltage_level_id[0] != '\0')
            ctg_emit_member_string(e, &oracle_side, el->voltage_level_id,
                                   strlen(el->voltage_level_id));
        ctg_emit_object_end(e);
    }
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
}

/* A string of `n` bytes in `buf`: letters, with an escape now and then. */
static const char *random_text(char *buf, size_t n, uint64_t *state)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next_random(state);
        buf[i] = r % 23 == 0 ? "\"\\\n\x01\xc3"[r / 23 % 5] : (char)('a' + r / 23 % 26);
    }
    buf[n] = '\0';
    return buf;
}

/* Random contingencies, `count` of them, into `cs` with their strings in `text` (34 bytes for
 * each string, 6 strings each at most); one in 50 has the id `long_id`. */
static void random_contingencies(ctg_contingency *cs, ctg_element *els, char *text,
                                 size_t count, const char *long_id, uint64_t *state)
{
    static const size_t lens[] = { 0, 1, 3, 4, 7, 8, 9, 13, 15, 16, 17, 31, 33 };
    char *t = text;

    for (size_t i = 0; i < count; i++, els += 4) {
        uint64_t r = next_random(state);

        cs[i] = (ctg_contingency){ random_text(t, lens[r % 13], state), NULL, els, r / 13 % 5,
                                   NULL, 0 };
        t += 34;
        if (r / 65 % 50 == 0)
            cs[i].id = long_id;
        if (r / 3250 % 3 == 0)
            cs[i].name = random_text(t, lens[r / 9750 % 13], state);
        t += 34;
        for (size_t k = 0; k < cs[i].element_count; k++, t += 34) {
            uint64_t q = next_random(state);

            els[k].id = random_text(t, lens[q % 13], state);
            els[k].type = (ctg_element_type)(q / 13 % CTG_ELEMENT_TYPE_COUNT);
            els[k].voltage_level_id = q / 300 % 3 == 0 ? NULL : q / 300 % 3 == 1 ? "" : "VL\"1";
        }
    }
}

/* Writes the contingencies inside `depth` objects (each value of a key "k") and an array,
 * with `write`, and returns the bytes (the caller frees them). */
static char *nested_contingencies(const ctg_contingency *cs, size_t count, int depth,
                                  void (*write)(ctg_emitter *, const ctg_contingency *),
                                  size_t *len, size_t *calls)
{
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, false, NULL);
    for (int d = 0; d < depth; d++) {
        ctg_emit_object_begin(&e);
        CTG_EMIT_KEY(&e, "k");
    }
    ctg_emit_array_begin(&e);
    for (size_t i = 0; i < count; i++)
        write(&e, &cs[i]);
    ctg_emit_array_end(&e);
    for (int d = 0; d < depth; d++)
        ctg_emit_object_end(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    *len = out.len;
    *calls = out.calls;
    return out.data;
}

/* The in-place layout of a contingency writes what the emitter's calls write: names or none,
 * 0 to 4 elements of every type, sides set, empty or absent, escapes, strings of every block
 * length and longer than the emitter's slices, at several depths, across many buffer flushes
 * (so that a member meets the buffer's end). */
CTG_TEST(writer, contingency_in_place_matches_calls)
{
    enum { COUNT = 8000 };
    ctg_contingency *cs = malloc(COUNT * sizeof *cs);
    ctg_element *els = malloc(4 * COUNT * sizeof *els);
    char *text = malloc((size_t)COUNT * 6 * 34), long_id[9001];
    uint64_t state = 77;

    CU_ASSERT_FATAL(cs != NULL && els != NULL && text != NULL);
    random_text(long_id, sizeof long_id - 1, &state); /* more than a slice of the emitter */
    random_contingencies(cs, els, text, COUNT, long_id, &state);
    for (int depth = 0; depth < 4; depth++) {
        size_t n1, n2, calls1, calls2;
        char *got = nested_contingencies(cs, COUNT, depth, ctg_write_contingency, &n1, &calls1);
        char *want = nested_contingencies(cs, COUNT, depth, oracle_contingency, &n2, &calls2);

        CU_ASSERT_EQUAL(n1, n2);
        CU_ASSERT(n1 == n2 && memcmp(got, want, n1) == 0);
        CU_ASSERT(calls1 > 10); /* many flushes */
        if (n1 != n2 || memcmp(got, want, n1) != 0) {
            size_t at = 0;
            while (at < n1 && at < n2 && got[at] == want[at])
                at++;
            fprintf(stderr, "\ndepth %d: differs at byte %zu: got ...%.60s, want ...%.60s\n",
                    depth, at, got + (at > 20 ? at - 20 : 0), want + (at > 20 ? at - 20 : 0));
        }
        free(got);
        free(want);
    }
    free(cs);
    free(els);
    free(text);
}

/* A sink failure in the middle of the in-place contingencies sticks as it does for the calls:
 * the same failure, nothing after it, and what went out is the start of what the calls
 * write. */
CTG_TEST(writer, contingency_in_place_sink_failure)
{
    static const ctg_element els[] = { { "EQ_00000001", CTG_ELEMENT_LINE, NULL },
                                       { "EQ_00000002", CTG_ELEMENT_GENERATOR, NULL } };
    const ctg_contingency c = { "N-2_000000001", "Outage of the generated grid", els, 2,
                                NULL, 0 };
    void (*const writers[])(ctg_emitter *, const ctg_contingency *) = { ctg_write_contingency,
                                                                       oracle_contingency };
    collect outs[2];

    for (int w = 0; w < 2; w++) {
        ctg_error err = { 0 };
        ctg_emitter e;

        collect_init(&outs[w], &e, false, &err);
        outs[w].fail_at_call = 3;
        ctg_emit_array_begin(&e);
        for (int i = 0; i < 5000; i++)
            writers[w](&e, &c);
        ctg_emit_array_end(&e);
        CU_ASSERT_EQUAL(collect_finish(&outs[w], &e), CTG_EIO);
        CU_ASSERT_EQUAL(outs[w].calls, 3);
        CU_ASSERT_STRING_EQUAL(err.message, "sink refused");
    }
    /* Two pieces went out each way; they may end at other places (each way flushes when the
     * room it asks for is short), but both are the start of the same bytes. */
    CU_ASSERT(outs[0].len > 65536 && outs[1].len > 65536);
    CU_ASSERT(memcmp(outs[0].data, outs[1].data,
                     outs[0].len < outs[1].len ? outs[0].len : outs[1].len) == 0);
    free(outs[0].data);
    free(outs[1].data);
}

/* A contingency too deep for the emitter fails as the calls fail, with nothing written of
 * it; one level less is written the same both ways. */
CTG_TEST(writer, contingency_in_place_at_the_depth_limit)
{
    static const ctg_element el = { "L1", CTG_ELEMENT_LINE, NULL };
    const ctg_contingency c = { "C1", "n", &el, 1, NULL, 0 };
    void (*const writers[])(ctg_emitter *, const ctg_contingency *) = { ctg_write_contingency,
                                                                       oracle_contingency };
    char *outs[2][2];
    int rcs[2][2];
    ctg_error err;

    for (int w = 0; w < 2; w++)
        for (int over = 0; over < 2; over++) {
            ctg_emitter e;
            collect out;

            collect_init(&out, &e, false, &err);
            for (int d = 0; d < CTG_EMIT_MAX_DEPTH - 3 + over; d++)
                ctg_emit_array_begin(&e);
            writers[w](&e, &c);
            rcs[w][over] = collect_finish(&out, &e);
            outs[w][over] = out.data;
            if (over)
                CU_ASSERT_STRING_EQUAL(err.message, "emitter: nesting deeper than 4160 levels");
        }
    CU_ASSERT_EQUAL(rcs[0][0], CTG_OK);
    CU_ASSERT_EQUAL(rcs[1][0], CTG_OK);
    CU_ASSERT_STRING_EQUAL(outs[0][0], outs[1][0]);
    CU_ASSERT_EQUAL(rcs[0][1], CTG_EINVAL);
    CU_ASSERT_EQUAL(rcs[1][1], CTG_EINVAL);
    for (int w = 0; w < 2; w++)
        for (int over = 0; over < 2; over++)
            free(outs[w][over]);
}

/* ---- the emitter's rules -------------------------------------------------------------- */

static void emit_sample(ctg_emitter *e)
{
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "a");
    ctg_emit_array_begin(e);
    ctg_emit_int(e, 1);
    ctg_emit_int(e, 2);
    ctg_emit_array_end(e);
    CTG_EMIT_KEY(e, "b");
    ctg_emit_object_begin(e);
    ctg_emit_object_end(e);
    CTG_EMIT_KEY(e, "c");
    ctg_emit_array_begin(e);
    ctg_emit_array_end(e);
    CTG_EMIT_KEY(e, "d");
    ctg_emit_array_begin(e);
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "x");
    ctg_emit_bool(e, true);
    ctg_emit_object_end(e);
    ctg_emit_object_begin(e);
    ctg_emit_object_end(e);
    ctg_emit_array_end(e);
    CTG_EMIT_KEY(e, "e");
    ctg_emit_object_begin(e);
    CTG_EMIT_KEY(e, "f");
    ctg_emit_null(e);
    CTG_EMIT_KEY(e, "g");
    ctg_emit_int(e, INT64_MIN);
    CTG_EMIT_KEY(e, "h");
    ctg_emit_bool(e, false);
    ctg_emit_object_end(e);
    CTG_EMIT_KEY(e, "i");
    ctg_emit_array_begin(e);
    ctg_emit_double(e, 380.0);
    ctg_emit_double(e, 1e-4);
    ctg_emit_double(e, NAN);
    ctg_emit_int(e, INT64_MAX);
    ctg_emit_int(e, 0);
    ctg_emit_int(e, -7);
    ctg_emit_array_end(e);
    ctg_emit_object_end(e);
}

CTG_TEST(writer, emitter_pretty_rules)
{
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, false, NULL);
    emit_sample(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len,
                 "{\n"
                 "  \"a\" : [ 1, 2 ],\n"
                 "  \"b\" : { },\n"
                 "  \"c\" : [ ],\n"
                 "  \"d\" : [ {\n"
                 "    \"x\" : true\n"
                 "  }, { } ],\n"
                 "  \"e\" : {\n"
                 "    \"f\" : null,\n"
                 "    \"g\" : -9223372036854775808,\n"
                 "    \"h\" : false\n"
                 "  },\n"
                 "  \"i\" : [ 380.0, 1.0E-4, NaN, 9223372036854775807, 0, -7 ]\n"
                 "}");
    free(out.data);
}

CTG_TEST(writer, emitter_compact_rules)
{
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, true, NULL);
    emit_sample(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len,
                 "{\"a\":[1,2],\"b\":{},\"c\":[],\"d\":[{\"x\":true},{}],"
                 "\"e\":{\"f\":null,\"g\":-9223372036854775808,\"h\":false},"
                 "\"i\":[380.0,1.0E-4,NaN,9223372036854775807,0,-7]}");
    free(out.data);
}

/* A root array of objects, as PowSyBl's contingencyContexts.json has it. */
static const char contexts_json[] =
    "[ {\n  \"contextType\" : \"NONE\"\n}, {\n  \"contextType\" : \"ALL\"\n}, {\n"
    "  \"contextType\" : \"ONLY_CONTINGENCIES\"\n}, {\n"
    "  \"contextType\" : \"SPECIFIC\",\n  \"contingencyId\" : \"lineId\"\n} ]";

CTG_TEST(writer, emitter_root_array)
{
    static const char *const types[] = { "NONE", "ALL", "ONLY_CONTINGENCIES", "SPECIFIC" };
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, false, NULL);
    ctg_emit_array_begin(&e);
    for (int i = 0; i < 4; i++) {
        ctg_emit_object_begin(&e);
        CTG_EMIT_KEY(&e, "contextType");
        ctg_emit_string(&e, types[i], strlen(types[i]));
        if (i == 3) {
            CTG_EMIT_KEY(&e, "contingencyId");
            ctg_emit_string(&e, "lineId", 6);
        }
        ctg_emit_object_end(&e);
    }
    ctg_emit_array_end(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
    assert_bytes(out.data, out.len, contexts_json);
    free(out.data);
}

/* What emitter_root_array writes is the fixture's bytes. */
CTG_SHARED_TEST(writer, emitter_root_array_is_the_shared_fixture)
{
    char path[4096];
    char *want;

    snprintf(path, sizeof path, "%s/powsybl/contingencyContexts.json", ctg_test_shared_dir());
    want = ctg_test_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    assert_bytes(contexts_json, strlen(contexts_json), want);
    free(want);
}

CTG_TEST(writer, emitter_depth_limit)
{
    ctg_error err = { 0 };
    ctg_emitter e;
    collect out;
    int i;

    collect_init(&out, &e, true, &err);
    for (i = 0; i < CTG_EMIT_MAX_DEPTH; i++)
        ctg_emit_array_begin(&e);
    for (i = 0; i < CTG_EMIT_MAX_DEPTH; i++)
        ctg_emit_array_end(&e);
    CU_ASSERT_EQUAL(ctg_emit_finish(&e), CTG_OK);
    CU_ASSERT_EQUAL(out.len, 2 * CTG_EMIT_MAX_DEPTH);

    for (i = 0; i <= CTG_EMIT_MAX_DEPTH; i++)
        ctg_emit_array_begin(&e);
    CU_ASSERT_EQUAL(ctg_emit_finish(&e), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "emitter: nesting deeper than 4160 levels");
    ctg_emit_dispose(&e);
    ctg_emit_dispose(&e); /* twice is harmless */
    free(out.data);
}

/* Deep objects indent 2 spaces per level, up to the deepest the emitter allows. */
CTG_TEST(writer, emitter_deep_indent)
{
    const size_t indent = 2 * CTG_EMIT_MAX_DEPTH;
    static const char member[] = "\"v\" : 1\n";
    const char *at;
    ctg_emitter e;
    collect out;
    int i;

    collect_init(&out, &e, false, NULL);
    ctg_emit_object_begin(&e);
    for (i = 1; i < CTG_EMIT_MAX_DEPTH; i++) {
        CTG_EMIT_KEY(&e, "k");
        ctg_emit_object_begin(&e);
    }
    CTG_EMIT_KEY(&e, "v");
    ctg_emit_int(&e, 1);
    for (i = 0; i < CTG_EMIT_MAX_DEPTH; i++)
        ctg_emit_object_end(&e);
    CU_ASSERT_EQUAL_FATAL(collect_finish(&out, &e), CTG_OK);
    /* The innermost member once, at indent 2 * depth after a newline, then the closing braces
     * back to column 0. (Found with a short needle: valgrind's strstr is quadratic.) */
    at = strstr(out.data, member);
    CU_ASSERT_FATAL(at != NULL && (size_t)(at - out.data) > indent);
    CU_ASSERT_PTR_NULL(strstr(at + 1, member));
    CU_ASSERT_EQUAL(at[-(ptrdiff_t)indent - 1], '\n');
    CU_ASSERT_EQUAL(strspn(at - indent, " "), indent);
    CU_ASSERT(out.len > 6 && memcmp(out.data + out.len - 6, "\n  }\n}", 6) == 0);
    free(out.data);
}

/* ---- the emitter's shortcuts give the bytes of its general calls ------------------------ */

static const ctg_key short_id = CTG_KEY("id"), short_type = CTG_KEY("type"),
                     short_long = CTG_KEY("a_name_of_exactly_thirty_chars");

/* A string object written with the shortcut or with the general calls. */
static void string_object(ctg_emitter *e, bool shortcut, const ctg_emit_member *m, size_t n)
{
    if (shortcut) {
        ctg_emit_string_object(e, m, n);
        return;
    }
    ctg_emit_object_begin(e);
    for (size_t i = 0; i < n; i++) {
        ctg_emit_key(e, m[i].name->name, m[i].name->len);
        ctg_emit_string(e, m[i].value, m[i].len);
    }
    ctg_emit_object_end(e);
}

static void member(ctg_emitter *e, bool shortcut, const ctg_key *name, const char *v,
                   size_t len)
{
    if (shortcut) {
        ctg_emit_member_string(e, name, v, len);
        return;
    }
    ctg_emit_key(e, name->name, name->len);
    ctg_emit_string(e, v, len);
}

/* Strings that end or start a word with a byte to escape, a long one (past the emitter's
 * slice, so the shortcuts take their general path), an empty one, UTF-8. */
static void shortcut_script(ctg_emitter *e, bool shortcut, const char *big, size_t big_len)
{
    ctg_emit_member m[3] = {
        { &short_id, "a\"b", 3 }, { &short_type, "LOAD\n", 5 }, { &short_long, "", 0 },
    };

    ctg_emit_object_begin(e);
    member(e, shortcut, &short_id, "N-1 \xc3\xa9t\xc3\xa9", 9);
    if (shortcut)
        ctg_emit_name_key(e, &short_long);
    else
        CTG_EMIT_KEY(e, "a_name_of_exactly_thirty_chars");
    ctg_emit_array_begin(e);
    string_object(e, shortcut, m, 3);
    string_object(e, shortcut, m + 1, 2);
    m[0].value = big;
    m[0].len = big_len;
    string_object(e, shortcut, m, 1);
    string_object(e, shortcut, m, 0);
    ctg_emit_array_end(e);
    CTG_EMIT_KEY(e, "nested");
    string_object(e, shortcut, m + 1, 1);
    member(e, shortcut, &short_type, "\x01\x1f\\", 3);
    member(e, shortcut, &short_type, big, big_len);
    ctg_emit_object_end(e);
}

/* The bytes of the script through the sink, or through a window lent by a ctg_buf's output. */
static char *shortcut_bytes(bool shortcut, bool compact, bool window, size_t *len)
{
    static char big[20000];
    ctg_error err = { 0 };
    ctg_emitter e;
    collect out;

    memset(big, 'x', sizeof big);
    big[100] = '"';
    if (!window) {
        collect_init(&out, &e, compact, &err);
        shortcut_script(&e, shortcut, big, sizeof big);
        CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_OK);
        *len = out.len;
        return out.data;
    }
    ctg_buf buf = CTG_BUF_INIT;
    ctg_output o;
    CU_ASSERT_EQUAL_FATAL(ctg_output_open_buf(&o, &buf, NULL, &err), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_emit_init_window(&e, ctg_output_window, &o, compact, NULL, &err), CTG_OK);
    shortcut_script(&e, shortcut, big, sizeof big);
    CU_ASSERT_EQUAL(ctg_emit_finish(&e), CTG_OK);
    ctg_emit_dispose(&e);
    CU_ASSERT_EQUAL(ctg_output_commit(&o, &err), CTG_OK);
    *len = buf.len;
    return buf.data; /* malloc'd: the buffer had no allocator */
}

CTG_TEST(writer, emitter_shortcuts_match_general_calls)
{
    for (int mode = 0; mode < 4; mode++) {
        bool compact = mode & 1, window = mode & 2;
        size_t want_len, got_len;
        char *want = shortcut_bytes(false, compact, false, &want_len);
        char *got = shortcut_bytes(true, compact, window, &got_len);

        CU_ASSERT_EQUAL(got_len, want_len);
        CU_ASSERT(got_len == want_len && memcmp(got, want, want_len) == 0);
        CU_ASSERT(want_len > 40000); /* the long strings went through */
        free(want);
        free(got);
    }
}

/* The shortcuts report misuse as the general calls do. */
CTG_TEST(writer, emitter_shortcuts_reject_misuse)
{
    ctg_emit_member m = { &short_id, "v", 1 };
    ctg_error err = { 0 };
    ctg_emitter e;
    collect out;

    /* A string object in an object, without a key. */
    collect_init(&out, &e, false, &err);
    ctg_emit_object_begin(&e);
    ctg_emit_string_object(&e, &m, 1);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "key"));
    free(out.data);
    /* A member in an array. */
    collect_init(&out, &e, true, &err);
    ctg_emit_array_begin(&e);
    ctg_emit_member_string(&e, &short_id, "v", 1);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    free(out.data);
    /* A name after a name. */
    collect_init(&out, &e, true, &err);
    ctg_emit_object_begin(&e);
    ctg_emit_name_key(&e, &short_id);
    ctg_emit_name_key(&e, &short_type);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    free(out.data);
}

CTG_TEST(writer, emitter_rejects_misuse)
{
    ctg_error err = { 0 };
    ctg_emitter e;
    collect out;

    /* A value in an object without a key. */
    collect_init(&out, &e, false, &err);
    ctg_emit_object_begin(&e);
    ctg_emit_int(&e, 1);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "key"));
    free(out.data);
    /* A key in an array. */
    collect_init(&out, &e, false, &err);
    ctg_emit_array_begin(&e);
    CTG_EMIT_KEY(&e, "k");
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    free(out.data);
    /* Closing the wrong container, or nothing. */
    collect_init(&out, &e, false, &err);
    ctg_emit_array_begin(&e);
    ctg_emit_object_end(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    free(out.data);
    collect_init(&out, &e, true, &err);
    ctg_emit_array_end(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    CU_ASSERT_EQUAL(out.len, 0);
    free(out.data);
    /* A key at the root. */
    collect_init(&out, &e, true, &err);
    CTG_EMIT_KEY(&e, "k");
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EINVAL);
    free(out.data);
}

/* The first sink failure sticks: nothing reaches the sink after it. */
CTG_TEST(writer, sink_failure_is_sticky)
{
    ctg_error err = { 0 };
    ctg_emitter e;
    collect out;

    collect_init(&out, &e, false, &err);
    out.fail_at_call = 1;
    ctg_emit_array_begin(&e);
    for (int i = 0; i < 50000; i++)
        ctg_emit_string(&e, "0123456789", 10);
    ctg_emit_array_end(&e);
    CU_ASSERT_EQUAL(collect_finish(&out, &e), CTG_EIO);
    CU_ASSERT_EQUAL(out.calls, 1);
    CU_ASSERT_EQUAL(out.len, 0);
    CU_ASSERT_STRING_EQUAL(err.message, "sink refused");
    free(out.data);
}

/* ---- doubles -------------------------------------------------------------------------- */

CTG_TEST(writer, doubles_as_java_writes_them)
{
    /* Each string is what Java's Double.toString (JDK 19+) prints for the value. */
    static const struct {
        double v;
        const char *java;
    } table[] = {
        { 0.0, "0.0" },
        { -0.0, "-0.0" },
        { 1.0, "1.0" },
        { -1.0, "-1.0" },
        { 200.0, "200.0" },
        { 380.0, "380.0" },
        { 0.001, "0.001" },
        { 100.0E-5, "0.001" },
        { 0.002, "0.002" },
        { 1.0E-4, "1.0E-4" },
        { 0.00099, "9.9E-4" },
        { 1234567.0, "1234567.0" },
        { 9999999.0, "9999999.0" },
        { 9999999.999999998, "9999999.999999998" },
        { 1.0E7, "1.0E7" },
        { 1.23456789E8, "1.23456789E8" },
        { 1.2345E10, "1.2345E10" },
        { 0.1, "0.1" },
        { CTG_DOUBLE(0.1) + CTG_DOUBLE(0.2), "0.30000000000000004" },
        { 1 / 3.0, "0.3333333333333333" },
        { 2 / 3.0, "0.6666666666666666" },
        { -380.5, "-380.5" },
        { 123456.789, "123456.789" },
        { 1.0E21, "1.0E21" },
        { 1.0E22, "1.0E22" },
        { 1.0E23, "1.0E23" },
        { 2.0E23, "2.0E23" },
        { 1.0E-7, "1.0E-7" },
        { 9007199254740992.0, "9.007199254740992E15" },
        { 9223372036854775807.0, "9.223372036854776E18" },
        { 2.2250738585072014E-308, "2.2250738585072014E-308" },
        { 4.9E-324, "4.9E-324" },
        { 9.9E-324, "9.9E-324" },
        { 1.7976931348623157E308, "1.7976931348623157E308" },
        { -1.7976931348623157E308, "-1.7976931348623157E308" },
        { NAN, "NaN" },
        { INFINITY, "Infinity" },
        { -INFINITY, "-Infinity" },
    };
    char out[CTG_DOUBLE_BUF];

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        size_t n = ctg_format_double(table[i].v, out);

        if (strcmp(out, table[i].java) != 0)
            fprintf(stderr, "\nformat: got %s, Java prints %s\n", out, table[i].java);
        CU_ASSERT_STRING_EQUAL(out, table[i].java);
        CU_ASSERT_EQUAL(n, strlen(table[i].java));
    }
}

/* The significant digits of a number's text, without leading or trailing zeros and without
 * the exponent: "200.0" -> "2", "0.00125" -> "125", "1.05E-5" -> "105". */
static size_t significant_digits(const char *s, char *digits)
{
    size_t n = 0;

    for (; *s != '\0' && *s != 'E'; s++) {
        if (*s >= '0' && *s <= '9' && (n > 0 || *s != '0'))
            digits[n++] = *s;
    }
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    return n;
}

/* Checks the Java layout of `s` for the value `x`. */
static bool layout_ok(const char *s, double x)
{
    double ax = fabs(x);
    const char *p = s + (s[0] == '-');
    const char *dot = strchr(p, '.'), *exp = strchr(p, 'E');

    if (dot == NULL || dot == p || dot[1] == '\0')
        return false;
    if (ax >= 1e-3 && ax < 1e7) {
        /* plain: no exponent, no leading zero unless "0.", no trailing zero unless ".0" */
        size_t len = strlen(dot + 1);
        return exp == NULL && (p[0] != '0' || dot == p + 1) &&
               (len == 1 || dot[len] != '0');
    }
    return exp != NULL && dot == p + 1 && p[0] != '0' && exp > dot + 1 &&
           (exp == dot + 2 || exp[-1] != '0') && exp[1] != '+' && exp[1] != '\0' &&
           (exp[1] != '0') && (exp[1] != '-' || exp[2] != '0');
}

/* strtod in the C locale, whatever the process locale: an oracle independent of ctg. */
static double c_strtod(const char *s, locale_t c)
{
    locale_t old = uselocale(c);
    double v = strtod(s, NULL);

    uselocale(old);
    return v;
}

static double random_double(uint64_t *state, int i)
{
    uint64_t bits = next_random(state);
    double v;

    if (i % 4 == 1) /* exponents around the plain range (1e-5 .. 1e9) */
        bits = (bits & 0x800FFFFFFFFFFFFFULL) | ((uint64_t)(1006 + (bits >> 52) % 48) << 52);
    else if (i % 4 == 2) /* subnormals */
        bits &= 0x800FFFFFFFFFFFFFULL;
    else if (i % 4 == 3) /* few mantissa bits: short decimals, powers of two */
        bits &= 0xFFFFF00000000000ULL;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The n-digit decimal nearest to |x| as m x 10^e. The digits of "%e" are read one by one, so
 * the locale's decimal point does not matter. */
static void nearest_digits(double x, int n, uint64_t *m, int *e)
{
    char buf[64];
    const char *p = buf;

    snprintf(buf, sizeof buf, "%.*e", n - 1, fabs(x));
    *m = 0;
    for (; *p != '\0' && *p != 'e'; p++) {
        if (*p >= '0' && *p <= '9')
            *m = *m * 10 + (uint64_t)(*p - '0');
    }
    *e = atoi(p + 1) - (n - 1);
}

/* Whether m x 10^e reads back as |x| (no decimal point in the text: locale-proof). */
static bool reads_back(uint64_t m, int e, double x, locale_t c)
{
    char buf[64];

    snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)m, e);
    return c_strtod(buf, c) == fabs(x);
}

static uint64_t pow10_u64(int k)
{
    uint64_t r = 1;

    while (k-- > 0)
        r *= 10;
    return r;
}

/* Whether some decimal of n digits reads back as x: the nearest one, or the neighbour on the
 * other side of x (the rounding interval of x is lopsided at powers of two). */
static bool some_digits_read_back(double x, int n, locale_t c)
{
    uint64_t m;
    int e;

    nearest_digits(x, n, &m, &e);
    if (reads_back(m, e, x, c) || reads_back(m + 1, e, x, c))
        return true;
    if (m == pow10_u64(n - 1)) /* 1.00e5 - one step is 9.99e4 */
        return reads_back(pow10_u64(n) - 1, e - 1, x, c);
    return reads_back(m - 1, e, x, c);
}

/* Checks one value against Java's rule, with strtod as the oracle: the text reads back as x,
 * has the Java layout, has no shorter decimal that reads back (except that one digit yields to
 * two), and is the nearest decimal of its length. Returns false (and says why) on a problem. */
static bool check_shortest(double x, locale_t c)
{
    char out[CTG_DOUBLE_BUF], digits[32], near[32], near_digits[32];
    size_t p;
    double back;
    uint64_t m;
    int e;

    ctg_format_double(x, out);
    back = c_strtod(out, c);
    if (memcmp(&back, &x, sizeof x) != 0 || !layout_ok(out, x)) {
        fprintf(stderr, "\n%a formatted as %s\n", x, out);
        return false;
    }
    p = significant_digits(out, digits);
    if (p >= 3 && some_digits_read_back(x, (int)p - 1, c)) {
        fprintf(stderr, "\n%a: %s is not the shortest\n", x, out);
        return false;
    }
    nearest_digits(x, p < 2 ? 2 : (int)p, &m, &e);
    if (reads_back(m, e, x, c)) {
        snprintf(near, sizeof near, "%llu", (unsigned long long)m);
        significant_digits(near, near_digits);
        if (strcmp(near_digits, digits) != 0) {
            fprintf(stderr, "\n%a: %s is not the nearest (digits %s)\n", x, out, near_digits);
            return false;
        }
    }
    return true;
}

/* Every power of two and its lower neighbour: where the rounding interval is lopsided. */
/* The fewest digits of "%.*e" that read back as x: the search the formatter makes for any
 * double, by other means (the C library's printf, the library's parser). */
static size_t shortest_by_printf(double x, char *digits)
{
    char text[64];
    double back = 0;

    for (int n = 1; n <= 17; n++) {
        snprintf(text, sizeof text, "%.*e", n - 1, x);
        for (char *c = text; *c != '\0'; c++)
            *c = *c == ',' ? '.' : *c; /* printf follows the locale's decimal comma */
        if (ctg_parse_double(text, strlen(text), &back) && back == x)
            break;
    }
    *strchr(text, 'e') = '\0';
    return significant_digits(text, digits);
}

/* Values that are exact short decimals (m / 2^j, m / 10^k read back) take a quicker path than
 * the digit search: both must give the same digits, in the layout of their range. */
CTG_TEST(writer, doubles_exact_decimals_match_the_search)
{
    uint64_t seed = 0x2545f4914f6cdd1dull;
    size_t n = 0, tries = ctg_test_scaled(40000);

    for (size_t i = 0; i < tries; i++) {
        char out[CTG_DOUBLE_BUF], got[24], want[24];
        double x, back = 0;

        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        if (i % 2 == 0) /* dyadic: exact decimals of up to 17 fractional digits */
            x = ldexp((double)(seed >> (11 + (seed & 31))), -(int)((seed >> 5) % 18));
        else /* m / 10^k: exact when 5^k divides m's value, else the search's */
            x = (double)(seed >> (11 + (seed & 31))) / pow(10.0, (double)((seed >> 5) % 18));
        if (x == 0)
            continue;
        ctg_format_double(x, out);
        significant_digits(out, got);
        shortest_by_printf(x, want);
        if (strcmp(got, want) != 0 || !layout_ok(out, x))
            fprintf(stderr, "\nformat %.17g: got %s, the search gives digits %s\n", x, out, want);
        CU_ASSERT_STRING_EQUAL(got, want);
        CU_ASSERT_TRUE(layout_ok(out, x));
        CU_ASSERT_TRUE(ctg_parse_double(out, strlen(out), &back) && back == x);
        n++;
    }
    CU_ASSERT(n > tries - tries / 40);
}

CTG_TEST(writer, doubles_powers_of_two)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    char out[CTG_DOUBLE_BUF];
    int failures = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (int k = -1074; k <= 1023 && failures < 5; k++) {
        double x = ldexp(1.0, k);

        failures += !check_shortest(x, c);
        failures += !check_shortest(-x, c);
        if (k > -1074) /* below 2^-1074 is zero */
            failures += !check_shortest(nextafter(x, 0.0), c);
    }
    CU_ASSERT_EQUAL(failures, 0);
    /* Here the nearest 16 digits do not read back, but the other neighbour does. */
    ctg_format_double(ldexp(1.0, 172), out);
    CU_ASSERT_STRING_EQUAL(out, "5.986310706507379E51");
    freelocale(c);
}

CTG_TEST(writer, doubles_random_bits_shortest_round_trip)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    int failures = 0;
    size_t checked = 0, n = ctg_test_scaled(100000);

    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (size_t i = 0; i < n && failures < 5; i++) {
        double x = random_double(&state, (int)i);

        if (!isfinite(x))
            continue;
        checked++;
        if (!check_shortest(x, c))
            failures++;
    }
    CU_ASSERT_EQUAL(failures, 0);
    CU_ASSERT(checked > n - n / 100);
    freelocale(c);
}

/* Formatting does not depend on the process locale (when a comma locale is installed). */
CTG_TEST(writer, doubles_ignore_the_locale)
{
    static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8" };
    const char *old = setlocale(LC_NUMERIC, NULL);
    char saved[64], out[CTG_DOUBLE_BUF];
    bool switched = false;

    snprintf(saved, sizeof saved, "%s", old != NULL ? old : "C");
    for (size_t i = 0; i < 3 && !switched; i++)
        switched = setlocale(LC_NUMERIC, names[i]) != NULL;
    ctg_format_double(1234.5, out);
    CU_ASSERT_STRING_EQUAL(out, "1234.5");
    ctg_format_double(1.5e-7, out);
    CU_ASSERT_STRING_EQUAL(out, "1.5E-7");
    setlocale(LC_NUMERIC, saved);
}

/* ---- outputs -------------------------------------------------------------------------- */

CTG_TEST(writer, buf_appends)
{
    ctg_list *list = demo_list();
    ctg_buf buf = CTG_BUF_INIT;
    size_t one = sizeof demo_pretty - 1;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(buf.len, 2 * one);
    CU_ASSERT(memcmp(buf.data, demo_pretty, one) == 0);
    CU_ASSERT(memcmp(buf.data + one, demo_pretty, one) == 0);
    CU_ASSERT_EQUAL(buf.data[buf.len], '\0');
    CU_ASSERT(buf.cap > buf.len);
    ctg_buf_dispose(&buf);
    CU_ASSERT_PTR_NULL(buf.data);
    CU_ASSERT_EQUAL(buf.len, 0);
    CU_ASSERT_EQUAL(buf.cap, 0);
    ctg_buf_dispose(&buf);
    ctg_buf_dispose(NULL);
    ctg_list_free(list);
}

/* Appending fails when the buffer cannot grow: its earlier content and length stay. */
CTG_TEST(writer, buf_failure_keeps_previous_content)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_buf buf = CTG_BUF_INIT;
    ctg_list *list = NULL;
    ctg_error err;
    size_t first;
    char name[32];

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "big", NULL), CTG_OK);
    for (int i = 0; i < 100; i++) {
        ctg_element el = { "LINE_000000", CTG_ELEMENT_BRANCH, NULL };

        snprintf(name, sizeof name, "N-1_LINE_%06d", i);
        CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(list, name, NULL, &el, 1), CTG_OK);
    }
    buf.allocator = &a;
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&buf, list, NULL, NULL), CTG_OK);
    first = buf.len;
    /* Exactly as much room as the content: the second write must grow the buffer. */
    buf.data = a.resize(a.ctx, buf.data, buf.cap, first + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf.data);
    buf.cap = first + 1;
    st.fail_at = st.calls + 1;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, &err), CTG_ENOMEM);
    CU_ASSERT(st.failed);
    CU_ASSERT_EQUAL(err.code, CTG_ENOMEM);
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    CU_ASSERT_EQUAL(buf.len, first);
    CU_ASSERT_EQUAL(buf.data[first], '\0');
    CU_ASSERT_EQUAL(strlen(buf.data), first);
    CU_ASSERT(memcmp(buf.data, "{\n  \"type\" : \"default\"", 22) == 0);
    ctg_buf_dispose(&buf);
    CU_ASSERT_EQUAL(st.live_bytes, 0);
    CU_ASSERT_EQUAL(st.bad_sizes, 0);
    ctg_list_free(list);
}

/* Every field of the error is written on failure, and none on success. */
CTG_TEST(writer, errors_fill_every_field)
{
    ctg_list *list = demo_list();
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err, pristine;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    memset(&err, 0xFF, sizeof err);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, NULL, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(err.code, CTG_EINVAL);
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_EQUAL(err.column, 0);
    CU_ASSERT_EQUAL(err.offset, 0);
    CU_ASSERT_STRING_EQUAL(err.source, "<memory>");
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_STRING_EQUAL(err.message, "no list to write");

    opts.flags = 1u << 7;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, &opts, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown write flag");
    opts.flags = 0;
    opts.version = CTG_WRITE_OPTIONS_VERSION + 1;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, &opts, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "unknown ctg_write_options version");
    CU_ASSERT_EQUAL(ctg_list_write_buf(NULL, list, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_write_fp(NULL, list, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_write_file(NULL, list, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, NULL, NULL, NULL), CTG_EINVAL);
    CU_ASSERT_EQUAL(buf.len, 0);

    memset(&err, 0xFF, sizeof err);
    memset(&pristine, 0xFF, sizeof pristine);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, &err), CTG_OK);
    CU_ASSERT(memcmp(&err, &pristine, sizeof err) == 0);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

/* A zeroed options struct (memset, or {} in C++) is the defaults: version 0 reads as 1. */
CTG_TEST(writer, zeroed_options_are_the_defaults)
{
    ctg_list *list = demo_list();
    ctg_write_options opts;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    memset(&opts, 0, sizeof opts);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, &opts, &err), CTG_OK);
    assert_bytes(buf.data, buf.len, demo_pretty);
    ctg_buf_dispose(&buf);
    opts.flags = CTG_WRITE_COMPACT;
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, &opts, &err), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL(buf.data);
    CU_ASSERT_PTR_NULL(buf.data ? strchr(buf.data, '\n') : NULL);
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

CTG_TEST(writer, fp_output)
{
    ctg_list *list = demo_list();
    FILE *fp = tmpfile();
    char got[4096];
    size_t n;
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    CU_ASSERT_EQUAL(ctg_list_write_fp(fp, list, NULL, &err), CTG_OK);
    rewind(fp);
    n = fread(got, 1, sizeof got, fp);
    assert_bytes(got, n, demo_pretty);
    fclose(fp);

    /* A stream open for reading only refuses writes. */
    fp = fopen("/dev/null", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    CU_ASSERT_EQUAL(ctg_list_write_fp(fp, list, NULL, &err), CTG_EIO);
    CU_ASSERT_EQUAL(err.code, CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "<stream>");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot write"));
    fclose(fp);
    ctg_list_free(list);
}

CTG_TEST(writer, fd_closed_gives_eio)
{
    ctg_list *list = demo_list();
    int fds[2];
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    close(fds[0]);
    close(fds[1]);
    memset(&err, 0xFF, sizeof err);
    CU_ASSERT_EQUAL(ctg_list_write_fd(fds[1], list, NULL, &err), CTG_EIO);
    CU_ASSERT_EQUAL(err.code, CTG_EIO);
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_STRING_EQUAL(err.source, "<fd>");
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, ": Bad file descriptor"));
    CU_ASSERT_EQUAL(ctg_list_write_fd(-1, list, NULL, &err), CTG_EIO);
    ctg_list_free(list);
}

/* The writing end of the pipe test: its own thread, so that the test needs no child process. */
typedef struct pipe_writer {
    int fd;
    const ctg_list *list;
    int rc;
} pipe_writer;

static void *write_to_pipe(void *arg)
{
    pipe_writer *w = arg;

    w->rc = ctg_list_write_fd(w->fd, w->list, NULL, NULL);
    close(w->fd); /* the reader's end of file */
    return NULL;
}

/* Megabytes through a pipe read in small pieces by another thread: the writer must deliver every
 * byte in order across blocking and partial writes. */
CTG_TEST(writer, fd_pipe_large_output)
{
    ctg_list *list = NULL;
    ctg_buf want = CTG_BUF_INIT;
    pipe_writer w = { -1, NULL, -1 };
    pthread_t thread;
    char *got;
    size_t len = 0;
    int fds[2];
    ssize_t n;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&list, CTG_LIST_DEFAULT, "pipe", NULL), CTG_OK);
    for (int i = 0; i < 20000; i++) {
        char id[32];
        ctg_element el = { id + 4, CTG_ELEMENT_BRANCH, NULL };

        snprintf(id, sizeof id, "N-1_LINE_%06d", i);
        CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(list, id, NULL, &el, 1), CTG_OK);
    }
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&want, list, NULL, NULL), CTG_OK);
    got = malloc(want.len + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    w.fd = fds[1];
    w.list = list;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&thread, NULL, write_to_pipe, &w), 0);
    for (;;) {
        size_t room = want.len + 1 - len;

        n = read(fds[0], got + len, room < 1000 ? room : 1000);
        if (n <= 0)
            break;
        len += (size_t)n;
        if (len > want.len)
            break;
    }
    close(fds[0]);
    CU_ASSERT_EQUAL(pthread_join(thread, NULL), 0);
    CU_ASSERT_EQUAL(w.rc, CTG_OK);
    CU_ASSERT_EQUAL(len, want.len);
    CU_ASSERT(len == want.len && memcmp(got, want.data, len) == 0);
    CU_ASSERT(want.len > 2000000);
    free(got);
    ctg_buf_dispose(&want);
    ctg_list_free(list);
}

/* ---- atomic file writes --------------------------------------------------------------- */

/* Number of entries in `dir` whose name holds ".ctg-tmp-" (the temporary files). */
static int count_temp_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    int n = 0;

    if (d == NULL)
        return -1;
    while ((ent = readdir(d)) != NULL)
        n += strstr(ent->d_name, ".ctg-tmp-") != NULL;
    closedir(d);
    return n;
}


static void assert_file(const char *path, const char *want)
{
    size_t len = 0;
    char *got = ctg_test_slurp(path, &len);

    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    assert_bytes(got, len, want);
    free(got);
}

CTG_TEST(writer, file_write_replaces_content)
{
    ctg_list *list = demo_list();
    ctg_write_options compact = CTG_WRITE_OPTIONS_INIT;
    char dir[64], path[128];
    struct stat st;
    mode_t mask = umask(022);

    umask(mask);
    compact.flags = CTG_WRITE_COMPACT;
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    ctg_test_scratch_make(dir, sizeof dir, "ctg-writer");
    snprintf(path, sizeof path, "%s/out.json", dir);
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, NULL), CTG_OK);
    assert_file(path, demo_pretty);
    /* A new file gets the usual mode: 0666 less the umask. */
    CU_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask));
    /* Replacing keeps the mode of the file replaced. */
    chmod(path, 0640);
    CU_ASSERT_EQUAL(ctg_list_write_file(path, list, &compact, NULL), CTG_OK);
    assert_file(path, demo_compact);
    CU_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
    CU_ASSERT_EQUAL(count_temp_files(dir), 0);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

CTG_TEST(writer, file_write_failure_leaves_no_trace)
{
    ctg_list *list = demo_list(), *unsupported = NULL;
    char dir[64], path[128], missing[160];
    ctg_error err;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    /* A contingency document without its contingency cannot be written. */
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&unsupported, CTG_LIST_CONTINGENCY, "", NULL), CTG_OK);
    ctg_test_scratch_make(dir, sizeof dir, "ctg-writer");
    snprintf(path, sizeof path, "%s/out.json", dir);
    ctg_test_put_file(path, "previous content");

    /* The folder does not exist. */
    snprintf(missing, sizeof missing, "%s/no/such/dir/out.json", dir);
    memset(&err, 0xFF, sizeof err);
    CU_ASSERT_EQUAL(ctg_list_write_file(missing, list, NULL, &err), CTG_EIO);
    CU_ASSERT_EQUAL(err.code, CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, missing);
    CU_ASSERT_STRING_EQUAL(err.path, "");
    CU_ASSERT_EQUAL(err.line, 0);
    CU_ASSERT_EQUAL(err.column, 0);
    CU_ASSERT_EQUAL(err.offset, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, ": No such file or directory"));

    /* The temporary file is made, then the write fails: it goes away. */
    CU_ASSERT_EQUAL(ctg_list_write_file(path, unsupported, NULL, &err), CTG_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.source, path);
    CU_ASSERT_STRING_EQUAL(err.message, "the list breaks a rule of the format and cannot be written");
    assert_file(path, "previous content");
    CU_ASSERT_EQUAL(count_temp_files(dir), 0);

    /* The target is a folder: refused before anything is written. */
    snprintf(missing, sizeof missing, "%s/sub", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(missing, 0700), 0);
    CU_ASSERT_EQUAL(ctg_list_write_file(missing, list, NULL, &err), CTG_EIO);
    CU_ASSERT_STRING_EQUAL(err.message, "cannot write: Is a directory");
    CU_ASSERT_EQUAL(count_temp_files(dir), 0);
    rmdir(missing);

    /* A read-only folder (root may write anyway, so only as another user). */
    if (geteuid() != 0) {
        chmod(dir, 0500);
        CU_ASSERT_EQUAL(ctg_list_write_file(path, list, NULL, &err), CTG_EIO);
        chmod(dir, 0700);
        assert_file(path, "previous content");
        CU_ASSERT_EQUAL(count_temp_files(dir), 0);
    }
    ctg_test_scratch_remove(dir);
    ctg_list_free(unsupported);
    ctg_list_free(list);
}

/* Fails each allocation of a file write in turn: every failure leaves the old file as it was
 * and no temporary file; then the write succeeds. */
CTG_TEST(writer, file_write_out_of_memory_sweep)
{
    ctg_test_alloc st = { 0 };
    ctg_allocator a = ctg_test_allocator(&st);
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_list *list = demo_list();
    char dir[64], path[128];
    ctg_error err;
    int rc = CTG_ENOMEM;
    size_t n;

    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    ctg_test_scratch_make(dir, sizeof dir, "ctg-writer");
    snprintf(path, sizeof path, "%s/out.json", dir);
    ctg_test_put_file(path, "previous content");
    opts.allocator = &a;
    for (n = 1; rc != CTG_OK && n < 20; n++) {
        st.calls = 0;
        st.failed = false;
        st.fail_at = n;
        rc = ctg_list_write_file(path, list, &opts, &err);
        if (rc != CTG_OK) {
            CU_ASSERT_EQUAL(rc, CTG_ENOMEM);
            CU_ASSERT_STRING_EQUAL(err.source, path);
            assert_file(path, "previous content");
        }
        CU_ASSERT_EQUAL(count_temp_files(dir), 0);
        CU_ASSERT_EQUAL(st.live_bytes, 0);
    }
    CU_ASSERT_EQUAL(rc, CTG_OK);
    CU_ASSERT(n > 2); /* at least two allocations were failed */
    assert_file(path, demo_pretty);
    ctg_test_scratch_remove(dir);
    ctg_list_free(list);
}

/* ---- PowSyBl fixtures, rebuilt in code ------------------------------------------------ */

static const ctg_element two_branches[] = {
    { "NHV1_NHV2_1", CTG_ELEMENT_BRANCH, NULL },
    { "NHV1_NHV2_2", CTG_ELEMENT_BRANCH, NULL },
};
static const ctg_element gen[] = { { "GEN", CTG_ELEMENT_GENERATOR, NULL } };
static const ctg_element bat[] = { { "BAT", CTG_ELEMENT_BATTERY, NULL } };
static const ctg_element load[] = { { "LOAD", CTG_ELEMENT_LOAD, NULL } };
static const ctg_element twt3[] = { { "3WT", CTG_ELEMENT_THREE_WINDINGS_TRANSFORMER, NULL } };
static const ctg_element dl[] = { { "NHV1_XNODE1", CTG_ELEMENT_DANGLING_LINE, NULL } };
static const ctg_element tl[] = { { "NHV1_NHV2_1", CTG_ELEMENT_TIE_LINE, NULL } };
static const ctg_element hvdc[] = { { "HVDC1", CTG_ELEMENT_HVDC_LINE, NULL } };
static const ctg_element twt[] = { { "TWT", CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER, NULL } };
static const ctg_element shunt[] = { { "SHUNT", CTG_ELEMENT_SHUNT_COMPENSATOR, NULL } };
static const ctg_element svc[] = { { "SVC", CTG_ELEMENT_STATIC_VAR_COMPENSATOR, NULL } };
static const ctg_element bbs[] = { { "S1VL1_BBS", CTG_ELEMENT_BUSBAR_SECTION, NULL } };
static const ctg_element sw[] = { { "S1VL1_LD1_BREAKER", CTG_ELEMENT_SWITCH, NULL } };

static const test_ctg fx_plain[] = {
    { "contingency", NULL, two_branches, 2 }, { "contingency2", NULL, gen, 1 },
};
static const test_ctg fx_named[] = {
    { "contingency", "contingency name", two_branches, 2 }, { "contingency2", NULL, gen, 1 },
};
static const test_ctg fx_batteries[] = {
    { "contingency", NULL, two_branches, 2 }, { "contingency2", NULL, gen, 1 },
    { "contingency3", NULL, bat, 1 }, { "contingency4", NULL, load, 1 },
};
static const test_ctg fx_3wt[] = { { "contingency", NULL, twt3, 1 } };
/* Built with DANGLING_LINE, as the 1.0 file says: written as 1.1 with BOUNDARY_LINE. */
static const test_ctg fx_dl_tl[] = {
    { "contingency", NULL, dl, 1 }, { "contingency2", NULL, tl, 1 },
};
static const test_ctg fx_several[] = {
    { "contingency", NULL, hvdc, 1 }, { "contingency2", NULL, twt, 1 },
    { "contingency3", NULL, shunt, 1 }, { "contingency4", NULL, svc, 1 },
    { "contingency5", NULL, bbs, 1 }, { "contingency6", NULL, sw, 1 },
};

static const struct {
    const char *file;
    const test_ctg *cs;
    size_t n;
} fixtures[] = {
    { "contingencies.json", fx_plain, 2 },
    { "contingenciesWithOptionalName.json", fx_named, 2 },
    { "contingenciesBatteries.json", fx_batteries, 4 },
    { "contingenciesWith3wt.json", fx_3wt, 1 },
    { "contingenciesWithDlAndTl.json", fx_dl_tl, 2 },
    { "contingenciesWithSeveralElements.json", fx_several, 6 },
};

static char *slurp_fixture(const char *dir, const char *file, size_t *len)
{
    char path[4096];

    snprintf(path, sizeof path, "%s/powsybl/%s", dir, file);
    return ctg_test_slurp(path, len);
}

CTG_SHARED_TEST(writer, powsybl_fixtures_rebuilt_in_code)
{
    const char *dir = ctg_test_shared_dir();
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        ctg_list *list = make_list("list", fixtures[i].cs, fixtures[i].n);
        ctg_buf buf = CTG_BUF_INIT;
        size_t len = 0;
        char *want = slurp_fixture(dir, fixtures[i].file, &len);

        CU_ASSERT_PTR_NOT_NULL_FATAL(list);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, list, NULL, NULL), CTG_OK);
        if (buf.len != len || memcmp(buf.data, want, len) != 0)
            fprintf(stderr, "\n%s differs\n", fixtures[i].file);
        assert_bytes(buf.data, buf.len, want);
        free(want);
        ctg_buf_dispose(&buf);
        ctg_list_free(list);
    }
}

/* contingency.json is a bare contingency document; without its test-only extension (issue 3)
 * the rest of it is what the writer makes of a CTG_LIST_CONTINGENCY list. */
CTG_SHARED_TEST(writer, powsybl_bare_contingency)
{
    static const char ext[] =
        ",\n  \"extensions\" : {\n    \"dummy-contingency-extension\" : { }\n  }";
    static const ctg_element els[] = {
        { "NHV1_NHV2_2", CTG_ELEMENT_BRANCH, "VLHV1" },
        { "NHV1_NHV2_1", CTG_ELEMENT_BRANCH, NULL },
        { "HVDC1", CTG_ELEMENT_HVDC_LINE, NULL },
        { "HVDC1", CTG_ELEMENT_HVDC_LINE, "VL1" },
        { "GEN", CTG_ELEMENT_GENERATOR, NULL },
        { "SC", CTG_ELEMENT_SHUNT_COMPENSATOR, NULL },
        { "SVC", CTG_ELEMENT_STATIC_VAR_COMPENSATOR, NULL },
        { "BBS1", CTG_ELEMENT_BUSBAR_SECTION, NULL },
        { "DL1", CTG_ELEMENT_BOUNDARY_LINE, NULL },
        { "LINE1", CTG_ELEMENT_LINE, NULL },
        { "TRANSFO1", CTG_ELEMENT_TWO_WINDINGS_TRANSFORMER, NULL },
        { "TWT3", CTG_ELEMENT_THREE_WINDINGS_TRANSFORMER, NULL },
        { "LOAD", CTG_ELEMENT_LOAD, NULL },
        { "BUS1", CTG_ELEMENT_BUS, NULL },
    };
    const char *dir = ctg_test_shared_dir();
    ctg_list *doc = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    char *want, *at;
    size_t len = 0;

    want = slurp_fixture(dir, "contingency.json", &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    at = strstr(want, ext);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    memmove(at, at + sizeof ext - 1, strlen(at + sizeof ext - 1) + 1);
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&doc, CTG_LIST_CONTINGENCY, "", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(doc, "contingency", NULL, els, 14), CTG_OK);
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, doc, NULL, NULL), CTG_OK);
    assert_bytes(buf.data, buf.len, want);
    ctg_buf_dispose(&buf);
    ctg_list_free(doc);
    free(want);
}

CTG_TEST(writer, contingency_document)
{
    static const ctg_element el = { "L", CTG_ELEMENT_LINE, "VL" };
    ctg_list *doc = NULL;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_error err;

    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&doc, CTG_LIST_CONTINGENCY, "", NULL), CTG_OK);
    /* Empty, it is not a document. */
    CU_ASSERT_EQUAL(ctg_list_write_buf(&buf, doc, NULL, &err), CTG_EINVAL);
    CU_ASSERT_EQUAL(buf.len, 0);
    CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(doc, "c1", "n", &el, 1), CTG_OK);
    CU_ASSERT_EQUAL(write_to_buf(&buf, doc, CTG_WRITE_COMPACT), CTG_OK);
    assert_bytes(buf.data, buf.len,
                 "{\"id\":\"c1\",\"name\":\"n\",\"elements\":[{\"id\":\"L\",\"type\":\"LINE\","
                 "\"voltageLevelId\":\"VL\"}]}");
    ctg_buf_dispose(&buf);
    ctg_list_free(doc);
}

/* ctg_list_kind_version says what the writers write: a list holding every kind, written
 * compact, carries exactly those versions; a bare contingency has none. */
CTG_TEST(writer, kind_versions)
{
    static const char doc[] =
        "{\"type\":\"list\",\"name\":\"all\",\"contingencyLists\":["
        "{\"type\":\"default\",\"name\":\"d\",\"contingencies\":[]},"
        "{\"type\":\"identifier\",\"name\":\"i\",\"identifiers\":[]},"
        "{\"type\":\"injectionCriterion\",\"name\":\"c\",\"identifiableType\":\"LOAD\"},"
        "{\"type\":\"lineCriterion\",\"name\":\"c\"},{\"type\":\"hvdcCriterion\",\"name\":\"c\"},"
        "{\"type\":\"tieLineCriterion\",\"name\":\"c\"},"
        "{\"type\":\"twoWindingsTransformerCriterion\",\"name\":\"c\"},"
        "{\"type\":\"threeWindingsTransformerCriterion\",\"name\":\"c\"}]}";
    ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = CTG_BUF_INIT;
    ctg_list *list = NULL;
    char want[128];

    CU_ASSERT_STRING_EQUAL(ctg_list_kind_version(CTG_LIST_DEFAULT), "1.1");
    CU_ASSERT_STRING_EQUAL(ctg_list_kind_version(CTG_LIST_LIST), "1.1");
    CU_ASSERT_STRING_EQUAL(ctg_list_kind_version(CTG_LIST_IDENTIFIER), "1.3");
    CU_ASSERT_STRING_EQUAL(ctg_list_kind_version(CTG_LIST_LINE_CRITERION), "1.1");
    CU_ASSERT_PTR_NULL(ctg_list_kind_version(CTG_LIST_CONTINGENCY));
    CU_ASSERT_PTR_NULL(ctg_list_kind_version(CTG_LIST_KIND_COUNT));
    CU_ASSERT_PTR_NULL(ctg_list_kind_version((ctg_list_kind)-1));
    opts.flags = CTG_WRITE_COMPACT;
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&list, doc, sizeof doc - 1, NULL, NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&buf, list, &opts, NULL), CTG_OK);
    for (int k = 0; k < CTG_LIST_CONTINGENCY; k++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(ctg_list_kind_version((ctg_list_kind)k));
        snprintf(want, sizeof want, "{\"type\":\"%s\",\"version\":\"%s\",",
                 ctg_list_kind_name((ctg_list_kind)k), ctg_list_kind_version((ctg_list_kind)k));
        CU_ASSERT_PTR_NOT_NULL(strstr(buf.data, want));
    }
    ctg_buf_dispose(&buf);
    ctg_list_free(list);
}

/* The writer copies an extension's number text when it is already Java's layout: that must
 * be exactly when formatting the value would give the same text. Differential, over random
 * doubles of every magnitude and digit count, each written several ways. */
CTG_TEST(writer, java_text_is_recognised_exactly)
{
    static const char *const forms[] = { "%.*e", "%.*g", "%.*E", "%.*f" };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    size_t recognised = 0, checked = 0, taken = 0, n = ctg_test_scaled(30000);

    for (size_t k = 0; k < n; k++) {
        char java[CTG_DOUBLE_BUF], text[400];
        uint64_t bits;
        double v, back;
        int digits;

        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        bits = seed;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v))
            continue;
        if (k % 2 == 0) /* short decimals, as PowSyBl's files hold */
            v = (double)(int64_t)(seed >> 40) / pow(10.0, (double)((seed >> 8) % 12));
        ctg_format_double(v, java);
        /* Java's own text is recognised whenever it has at most 15 digits in the normal range. */
        if (ctg_double_text_is_java(java, strlen(java)))
            recognised++;
        digits = 1 + (int)((seed >> 20) % 17);
        snprintf(text, sizeof text, forms[(seed >> 4) % 4], digits, v);
        for (char *c = text; *c != '\0'; c++)
            *c = *c == ',' ? '.' : *c; /* printf follows the locale's decimal comma */
        if (strchr(text, '.') == NULL && strchr(text, 'e') == NULL && strchr(text, 'E') == NULL)
            continue; /* an integer's text: not this function's */
        if (strlen(text) > 300 || !ctg_parse_double(text, strlen(text), &back))
            continue;
        checked++;
        if (ctg_double_text_is_java(text, strlen(text))) {
            char again[CTG_DOUBLE_BUF];
            taken++;
            ctg_format_double(back, again);
            if (strcmp(again, text) != 0) {
                fprintf(stderr, "recognised %s, but Java writes %s\n", text, again);
                CU_FAIL("a text taken for Java's layout is not");
            }
        }
    }
    /* Every short decimal's own text is recognised (half the draws), and some printf texts
     * happen to be Java's layout, so that both answers are compared. */
    CU_ASSERT(checked > n - n / 30);
    CU_ASSERT(recognised >= n / 2);
    CU_ASSERT(taken > n / 300);
    /* And by hand: the layouts of both ranges, and what is not Java's. */
    CU_ASSERT_TRUE(ctg_double_text_is_java("0.0125", 6));
    CU_ASSERT_TRUE(ctg_double_text_is_java("380.0", 5));
    CU_ASSERT_TRUE(ctg_double_text_is_java("-1.0E-5", 7));
    CU_ASSERT_TRUE(ctg_double_text_is_java("1.23456789E8", 12));
    CU_ASSERT_TRUE(ctg_double_text_is_java("0.001", 5));
    CU_ASSERT_TRUE(ctg_double_text_is_java("9999999.0", 9));
    CU_ASSERT_TRUE(ctg_double_text_is_java("1.0E7", 5));
    CU_ASSERT_FALSE(ctg_double_text_is_java("1e-5", 4));
    CU_ASSERT_FALSE(ctg_double_text_is_java("1.50", 4));
    CU_ASSERT_FALSE(ctg_double_text_is_java("0.00099", 7));
    CU_ASSERT_FALSE(ctg_double_text_is_java("10000000.0", 10));
    CU_ASSERT_FALSE(ctg_double_text_is_java("0.0", 3));
    CU_ASSERT_FALSE(ctg_double_text_is_java("-0.0", 4));
    CU_ASSERT_FALSE(ctg_double_text_is_java("1.0E+5", 6));
    CU_ASSERT_FALSE(ctg_double_text_is_java("0.1000000000000000055511151231257827", 36));
    CU_ASSERT_FALSE(ctg_double_text_is_java("4.9E-324", 8)); /* subnormal: not decided here */
}

/* DC_LINE is sided when written, not when read (spec 2.2), and one table of element types says
 * so for the builder, the writer and the reader: a side set in code is kept and written, and
 * reading that output drops it, while LINE keeps its side through the round trip. */
CTG_TEST(writer, dc_line_side_written_then_dropped_on_read)
{
    static const ctg_element els[] = {
        { "DC", CTG_ELEMENT_DC_LINE, "DN1" },
        { "L", CTG_ELEMENT_LINE, "VL1" },
    };
    static const char with_side[] =
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\","
        "\"elements\":[{\"id\":\"DC\",\"type\":\"DC_LINE\",\"voltageLevelId\":\"DN1\"},"
        "{\"id\":\"L\",\"type\":\"LINE\",\"voltageLevelId\":\"VL1\"}]}]}";
    static const char without_side[] =
        "{\"type\":\"default\",\"version\":\"1.1\",\"name\":\"n\",\"contingencies\":[{\"id\":\"c\","
        "\"elements\":[{\"id\":\"DC\",\"type\":\"DC_LINE\"},"
        "{\"id\":\"L\",\"type\":\"LINE\",\"voltageLevelId\":\"VL1\"}]}]}";
    ctg_write_options wo = CTG_WRITE_OPTIONS_INIT;
    const ctg_contingency *c;
    ctg_list *built = NULL, *read = NULL;
    ctg_buf first = { 0 }, second = { 0 };

    wo.flags = CTG_WRITE_COMPACT;
    CU_ASSERT_EQUAL_FATAL(ctg_list_new(&built, CTG_LIST_DEFAULT, "n", NULL), CTG_OK);
    CU_ASSERT_EQUAL_FATAL(ctg_list_add_contingency(built, "c", NULL, els, 2), CTG_OK);
    c = ctg_list_contingency_at(built, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c->elements[0].voltage_level_id); /* the builder keeps it */
    CU_ASSERT_STRING_EQUAL(c->elements[0].voltage_level_id, "DN1");
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&first, built, &wo, NULL), CTG_OK);
    CU_ASSERT_EQUAL(first.len, sizeof with_side - 1);
    CU_ASSERT(first.len == sizeof with_side - 1 && memcmp(first.data, with_side, first.len) == 0);
    CU_ASSERT_EQUAL_FATAL(ctg_list_read_buffer(&read, first.data, first.len, NULL, NULL), CTG_OK);
    c = ctg_list_contingency_at(read, 0);
    CU_ASSERT_PTR_NULL(c->elements[0].voltage_level_id); /* the reader drops it */
    CU_ASSERT_PTR_NOT_NULL_FATAL(c->elements[1].voltage_level_id);
    CU_ASSERT_STRING_EQUAL(c->elements[1].voltage_level_id, "VL1");
    CU_ASSERT_EQUAL_FATAL(ctg_list_write_buf(&second, read, &wo, NULL), CTG_OK);
    CU_ASSERT_EQUAL(second.len, sizeof without_side - 1);
    CU_ASSERT(second.len == sizeof without_side - 1
              && memcmp(second.data, without_side, second.len) == 0);
    ctg_buf_dispose(&first);
    ctg_buf_dispose(&second);
    ctg_list_free(read);
    ctg_list_free(built);
}


/* A list's worth of contingencies, about 1.6 MB in the pretty layout, to `e`. */
static void emit_many(ctg_emitter *e)
{
    char id[64];
    ctg_element el = { id, CTG_ELEMENT_LINE, NULL };
    ctg_contingency c = { id, "a name that makes the output larger", &el, 1, NULL, 0 };

    ctg_emit_array_begin(e);
    for (int i = 0; i < 12000; i++) {
        snprintf(id, sizeof id, "N-1_ELEMENT_WITH_A_LONG_ID_%08d", i);
        ctg_write_contingency(e, &c);
    }
    ctg_emit_array_end(e);
}

/* A descriptor or stream gets 256 KiB pieces (4 times fewer write calls than the default
 * 64 KiB), with the very bytes of the default emitter. */
CTG_TEST(writer, sized_emitter_hands_large_pieces_with_the_same_bytes)
{
    const size_t big = (size_t)256 * 1024;
    ctg_emitter e;
    collect small, large;

    collect_init(&small, &e, false, NULL);
    emit_many(&e);
    CU_ASSERT_EQUAL_FATAL(collect_finish(&small, &e), CTG_OK);
    memset(&large, 0, sizeof large);
    CU_ASSERT_EQUAL_FATAL(ctg_emit_init_sized(&e, collect_sink, &large, false, big, NULL, NULL),
                          CTG_OK);
    emit_many(&e);
    CU_ASSERT_EQUAL_FATAL(collect_finish(&large, &e), CTG_OK);
    CU_ASSERT(small.len > 6 * big);
    CU_ASSERT(small.len == large.len && memcmp(small.data, large.data, small.len) == 0);
    CU_ASSERT(small.largest <= 64 * 1024);
    CU_ASSERT(large.largest > 64 * 1024 && large.largest <= big);
    /* Full pieces but the last: as few calls as the size allows. */
    CU_ASSERT_EQUAL(large.calls, (int)((large.len + big - 1) / big));
    CU_ASSERT(small.calls >= 4 * (large.calls - 1));
    free(small.data);
    free(large.data);
}

/* Which outputs ask for large pieces: a descriptor and a stream do, a buffer (written in
 * place) and gzip (compressed in its own pieces) keep the default. */
CTG_TEST(writer, piece_size_of_each_output)
{
    const ctg_write_options opts = CTG_WRITE_OPTIONS_INIT;
    ctg_buf buf = { 0 };
    ctg_output o;
    ctg_error w = { 0 };
    char dir[64], path[128];

    CU_ASSERT_EQUAL_FATAL(ctg_output_open_fd(&o, 1, NULL, &w), CTG_OK);
    CU_ASSERT_EQUAL(ctg_output_piece_size(&o), (size_t)256 * 1024);
    CU_ASSERT_EQUAL_FATAL(ctg_output_open_fp(&o, stdout, NULL, &w), CTG_OK);
    CU_ASSERT_EQUAL(ctg_output_piece_size(&o), (size_t)256 * 1024);
    CU_ASSERT_EQUAL_FATAL(ctg_output_open_buf(&o, &buf, NULL, &w), CTG_OK);
    CU_ASSERT_EQUAL(ctg_output_piece_size(&o), 0);
    ctg_output_abort(&o);
    ctg_test_scratch_make(dir, sizeof dir, "ctg-piece");
    snprintf(path, sizeof path, "%s/l.json", dir);
    CU_ASSERT_EQUAL_FATAL(ctg_output_open_path(&o, path, &opts, &w), CTG_OK);
    CU_ASSERT_EQUAL(ctg_output_piece_size(&o), (size_t)256 * 1024);
    ctg_output_abort(&o);
    snprintf(path, sizeof path, "%s/l.json.gz", dir);
    CU_ASSERT_EQUAL_FATAL(ctg_output_open_path(&o, path, &opts, &w), CTG_OK);
    CU_ASSERT_EQUAL(ctg_output_piece_size(&o), 0);
    ctg_output_abort(&o);
    CU_ASSERT_EQUAL(rmdir(dir), 0); /* the aborts left no temporary file */
    ctg_buf_dispose(&buf);
}

#include "test_writer.tests.h"
