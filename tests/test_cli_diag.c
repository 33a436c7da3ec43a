/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli's diagnostics printer (cli/diag.c, compiled into the tests): the exact bytes
 * of text and JSON diagnostics, JSON escaping of quotes, backslashes, controls, invisible code
 * points and bytes that are not UTF-8, errors printed as ctg_error_format prints them, and a
 * write error reported. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "cli/diag.h"
#include "tests/test_common.h"

/* What cli_diag_print writes for `d`, in a static buffer. */
static const char *printed(cli_diag_format format, const cli_diag *d)
{
    static char text[2048];
    FILE *f = tmpfile();
    size_t n;

    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(cli_diag_print(f, format, d), 0);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static const cli_diag warning = { "a.json", 12, 7, "/contingencies/3/id", "duplicate-id",
                                  "warning", "duplicate contingency id \"N-1\"" };

CTG_TEST(cli_diag, format_parse)
{
    cli_diag_format f = CLI_DIAG_JSON;

    CU_ASSERT_EQUAL(cli_diag_format_parse(NULL, &f), 0);
    CU_ASSERT_EQUAL(f, CLI_DIAG_TEXT);
    CU_ASSERT_EQUAL(cli_diag_format_parse("json", &f), 0);
    CU_ASSERT_EQUAL(f, CLI_DIAG_JSON);
    CU_ASSERT_EQUAL(cli_diag_format_parse("text", &f), 0);
    CU_ASSERT_EQUAL(f, CLI_DIAG_TEXT);
    f = CLI_DIAG_JSON;
    CU_ASSERT_EQUAL(cli_diag_format_parse("JSON", &f), -1);
    CU_ASSERT_EQUAL(cli_diag_format_parse("", &f), -1);
    CU_ASSERT_EQUAL(f, CLI_DIAG_JSON);
}

CTG_TEST(cli_diag, text_warning)
{
    cli_diag d = warning;

    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_TEXT, &d),
                           "a.json:12:7: warning: /contingencies/3/id: duplicate contingency id "
                           "\"N-1\"\n");
    d.path = "";
    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_TEXT, &d),
                           "a.json:12:7: warning: /: duplicate contingency id \"N-1\"\n");
    d.path = NULL;
    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_TEXT, &d),
                           "a.json:12:7: warning: /: duplicate contingency id \"N-1\"\n");
}

/* A control character, a backslash or a byte that is not UTF-8 cannot break the line. */
CTG_TEST(cli_diag, text_escaped)
{
    cli_diag d = { "x\ny.json", 1, 2, "/a\tb", "empty-id", "warning", "id \"\x1b[31m\\\xff\"" };

    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_TEXT, &d),
                           "x\\ny.json:1:2: warning: /a\\tb: id \"\\u001b[31m\\\\\\xff\"\n");
}

CTG_TEST(cli_diag, json_warning)
{
    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_JSON, &warning),
                           "{\"file\":\"a.json\",\"line\":12,\"column\":7,\"path\":"
                           "\"/contingencies/3/id\",\"code\":\"duplicate-id\",\"severity\":"
                           "\"warning\",\"message\":\"duplicate contingency id \\\"N-1\\\"\"}\n");
}

/* Quotes and backslashes get a backslash, every control \u00XX, invisible code points
 * \uXXXX; other UTF-8 stays as it is. */
CTG_TEST(cli_diag, json_escapes)
{
    cli_diag d = { "q\"b\\.json", 0, 0, "", "io", "error",
                   "\x01\n\t\r\x1f\x7f \xc2\x85 \xe2\x80\xa8 \xe2\x80\xae \xef\xbb\xbf "
                   "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" };

    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_JSON, &d),
                           "{\"file\":\"q\\\"b\\\\.json\",\"line\":0,\"column\":0,\"path\":\"\","
                           "\"code\":\"io\",\"severity\":\"error\",\"message\":"
                           "\"\\u0001\\u000a\\u0009\\u000d\\u001f\\u007f \\u0085 \\u2028 "
                           "\\u202e \\ufeff \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}\n");
}

/* Each byte that begins no valid UTF-8 sequence is one U+FFFD: a lone continuation byte, a
 * truncated sequence, an overlong form, a surrogate, a code point over U+10FFFF, 0xFF. */
CTG_TEST(cli_diag, json_invalid_utf8)
{
    cli_diag d = { "f", 1, 1, "/x", "c", "warning",
                   "a\x80" "b\xc3" "c\xc0\xaf" "d\xed\xa0\x80" "e\xf4\x90\x80\x80" "f\xff" "g"
                   "\xe2\x82" };

    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_JSON, &d),
                           "{\"file\":\"f\",\"line\":1,\"column\":1,\"path\":\"/x\",\"code\":\"c\","
                           "\"severity\":\"warning\",\"message\":\"a\\ufffdb\\ufffdc\\ufffd"
                           "\\ufffdd\\ufffd\\ufffd\\ufffde\\ufffd\\ufffd\\ufffd\\ufffdf\\ufffdg"
                           "\\ufffd\\ufffd\"}\n");
}

/* An error prints as ctg_error_format prints it, in each of its three layouts. */
CTG_TEST(cli_diag, from_error)
{
    ctg_error err = { .code = CTG_ESYNTAX, .line = 3, .column = 9, .source = "in.json",
                      .path = "/contingencies/0", .message = "expected ','" };
    char text[1024];
    cli_diag d;

    for (int i = 0; i < 4; i++) {
        if (i == 1)
            err.path[0] = '\0'; /* the root, "/" */
        if (i == 2)
            err.line = 0; /* json-c: no position, still a place */
        if (i == 3)
            err.code = CTG_EIO; /* no place in a document: no path */
        d = cli_diag_from_error(&err);
        CU_ASSERT_STRING_EQUAL(d.severity, "error");
        CU_ASSERT_STRING_EQUAL(d.code, i == 3 ? "io" : "syntax");
        ctg_error_format(&err, text, sizeof text - 1);
        strcat(text, "\n");
        CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_TEXT, &d), text);
    }
    CU_ASSERT_STRING_EQUAL(printed(CLI_DIAG_JSON, &d),
                           "{\"file\":\"in.json\",\"line\":0,\"column\":9,\"path\":\"\",\"code\":"
                           "\"io\",\"severity\":\"error\",\"message\":\"expected ','\"}\n");
}

CTG_TEST(cli_diag, status_codes)
{
    static const struct {
        int status;
        const char *code;
    } t[] = { { CTG_ENOMEM, "nomem" },     { CTG_EINVAL, "inval" },      { CTG_EIO, "io" },
              { CTG_ESYNTAX, "syntax" },   { CTG_ESCHEMA, "schema" },    { CTG_ELIMIT, "limit" },
              { CTG_EUNSUPPORTED, "unsupported" }, { CTG_ESTOPPED, "stopped" }, { 5, "error" } };

    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        CU_ASSERT_STRING_EQUAL(cli_diag_status_code(t[i].status), t[i].code);
}

/* A full device: the write error is reported, in both formats. */
CTG_TEST(cli_diag, write_error)
{
    FILE *f = fopen("/dev/full", "w");

    if (f == NULL) {
        printf("\n    (no /dev/full here: write errors not checked)\n");
        return;
    }
    setvbuf(f, NULL, _IONBF, 0);
    CU_ASSERT_EQUAL(cli_diag_print(f, CLI_DIAG_TEXT, &warning), -1);
    CU_ASSERT_EQUAL(cli_diag_print(f, CLI_DIAG_JSON, &warning), -1);
    fclose(f);
}

#include "test_cli_diag.tests.h"
