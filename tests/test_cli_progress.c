/* SPDX-License-Identifier: MPL-2.0 */
/* contingency-cli's progress line (cli/progress.c, compiled into the tests): the exact text
 * for each width, with a known and an unknown total, with and without a file name; and for
 * every width, a line that fits without wrapping and holds no control character. */

#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "cli/cli.h"
#include "tests/test_common.h"

/* 47,185,920 of 123,456,789 bytes in 2.5 s: 38%, 18.9 MB/s, 4 s to go. */
#define CONSUMED ((size_t)47185920)
#define TOTAL ((size_t)123456789)
#define ELAPSED 2.5
#define LONG_NAME "/data/very/long/path/to/the/contingencies-2024.json"

static const char *line_of(int width, const char *name, size_t consumed, size_t total,
                           double elapsed)
{
    static char buf[512];
    size_t len = cli_progress_line(buf, sizeof buf, width, name, consumed, total, elapsed);

    CU_ASSERT_EQUAL(len, strlen(buf));
    return buf;
}

CTG_TEST(cli_progress, known_total)
{
    CU_ASSERT_STRING_EQUAL(line_of(20, NULL, CONSUMED, TOTAL, ELAPSED), "38% ETA 0:04");
    CU_ASSERT_STRING_EQUAL(line_of(40, NULL, CONSUMED, TOTAL, ELAPSED),
                           "38% 47.2/123.5 MB 18.9 MB/s ETA 0:04");
    CU_ASSERT_STRING_EQUAL(line_of(80, NULL, CONSUMED, TOTAL, ELAPSED),
                           "[###############                         ] 38% 47.2/123.5 MB "
                           "18.9 MB/s ETA 0:04");
    CU_ASSERT_STRING_EQUAL(line_of(200, NULL, CONSUMED, TOTAL, ELAPSED),
                           "[###################                               ] 38% "
                           "47.2/123.5 MB 18.9 MB/s ETA 0:04");
}

CTG_TEST(cli_progress, known_total_with_a_name)
{
    CU_ASSERT_STRING_EQUAL(line_of(20, "big.json", CONSUMED, TOTAL, ELAPSED), "big.json 38%");
    CU_ASSERT_STRING_EQUAL(line_of(40, "big.json", CONSUMED, TOTAL, ELAPSED),
                           "big.json 38% 47.2/123.5 MB ETA 0:04");
    CU_ASSERT_STRING_EQUAL(line_of(80, "big.json", CONSUMED, TOTAL, ELAPSED),
                           "big.json [###########                    ] 38% 47.2/123.5 MB "
                           "18.9 MB/s ETA 0:04");
    CU_ASSERT_STRING_EQUAL(line_of(200, "big.json", CONSUMED, TOTAL, ELAPSED),
                           "big.json [###################                               ] 38% "
                           "47.2/123.5 MB 18.9 MB/s ETA 0:04");
    /* A long name keeps its tail behind "...", and comes whole when there is room. */
    CU_ASSERT_STRING_EQUAL(line_of(20, LONG_NAME, CONSUMED, TOTAL, ELAPSED),
                           "...es-2024.json 38%");
    CU_ASSERT_STRING_EQUAL(line_of(40, LONG_NAME, CONSUMED, TOTAL, ELAPSED),
                           "...2024.json 38% 47.2/123.5 MB ETA 0:04");
    CU_ASSERT_STRING_EQUAL(line_of(80, LONG_NAME, CONSUMED, TOTAL, ELAPSED),
                           "...he/contingencies-2024.json [###       ] 38% 47.2/123.5 MB "
                           "18.9 MB/s ETA 0:04");
    CU_ASSERT_STRING_EQUAL(line_of(200, LONG_NAME, CONSUMED, TOTAL, ELAPSED),
                           LONG_NAME " [###################                               ] 38% "
                                     "47.2/123.5 MB 18.9 MB/s ETA 0:04");
}

/* A pipe or a .gz file: the bytes read so far (compressed ones for .gz), no bar, no ETA. */
CTG_TEST(cli_progress, unknown_total)
{
    CU_ASSERT_STRING_EQUAL(line_of(20, NULL, CONSUMED, 0, ELAPSED), "47.2 MB read");
    CU_ASSERT_STRING_EQUAL(line_of(40, NULL, CONSUMED, 0, ELAPSED),
                           "47.2 MB read 18.9 MB/s elapsed 0:02");
    CU_ASSERT_STRING_EQUAL(line_of(80, NULL, CONSUMED, 0, ELAPSED),
                           "47.2 MB read 18.9 MB/s elapsed 0:02");
    CU_ASSERT_STRING_EQUAL(line_of(200, NULL, CONSUMED, 0, ELAPSED),
                           "47.2 MB read 18.9 MB/s elapsed 0:02");
    CU_ASSERT_STRING_EQUAL(line_of(20, "big.json", CONSUMED, 0, ELAPSED), "47.2 MB read");
    CU_ASSERT_STRING_EQUAL(line_of(40, "big.json", CONSUMED, 0, ELAPSED),
                           "big.json 47.2 MB read 18.9 MB/s");
    CU_ASSERT_STRING_EQUAL(line_of(80, "big.json", CONSUMED, 0, ELAPSED),
                           "big.json 47.2 MB read 18.9 MB/s elapsed 0:02");
    CU_ASSERT_STRING_EQUAL(line_of(80, LONG_NAME, CONSUMED, 0, ELAPSED),
                           "...long/path/to/the/contingencies-2024.json 47.2 MB read "
                           "18.9 MB/s elapsed 0:02");
    CU_ASSERT_STRING_EQUAL(line_of(200, LONG_NAME, CONSUMED, 0, ELAPSED),
                           LONG_NAME " 47.2 MB read 18.9 MB/s elapsed 0:02");
}

/* Units follow the size; hours show from an hour on; a file that grew is 100%; before any
 * time has passed there is no rate, so no ETA either. */
CTG_TEST(cli_progress, units_and_edges)
{
    CU_ASSERT_STRING_EQUAL(line_of(80, NULL, 500, 0, 1), "0.5 kB read 0.5 kB/s elapsed 0:01");
    CU_ASSERT_STRING_EQUAL(line_of(80, NULL, 2500000000u, 4000000000u, 7200),
                           "[########################               ] 62% 2.5/4.0 GB "
                           "347.2 kB/s ETA 1:12:00");
    CU_ASSERT_STRING_EQUAL(line_of(80, NULL, 2000, 1000, 1),
                           "[###########################################] 100% 2.0/1.0 kB "
                           "2.0 kB/s ETA 0:00");
    CU_ASSERT_STRING_EQUAL(line_of(60, NULL, 0, 1000, 0),
                           "[                                           ] 0% 0.0/1.0 kB");
    CU_ASSERT_STRING_EQUAL(line_of(80, NULL, 0, 0, 0), "0.0 kB read elapsed 0:00");
}

/* A name is shown as text: a control byte would move the cursor, so it shows as '?'; a cut
 * never splits a UTF-8 character. */
CTG_TEST(cli_progress, names_are_safe)
{
    CU_ASSERT_STRING_EQUAL(line_of(80, "a\tb\nc\033", 500, 0, 1),
                           "a?b?c? 0.5 kB read 0.5 kB/s elapsed 0:01");
    /* "é" is two bytes: the name's 12 columns, "..." and its last 9 bytes, would start inside
     * the first "é" of "-été.json", so the cut moves on to the next character. */
    CU_ASSERT_STRING_EQUAL(line_of(17, "donn\xc3\xa9" "es-\xc3\xa9" "t\xc3\xa9.json", 5, 10, 1),
                           "...t\xc3\xa9.json 50%");
    /* An empty name is no name. */
    CU_ASSERT_STRING_EQUAL(line_of(80, "", 5000, 10000, 1),
                           "[#####################                      ] 50% 5.0/10.0 kB "
                           "5.0 kB/s ETA 0:01");
}

/* Whatever the width (0 included) and the buffer, the line fits: at most width - 1 columns,
 * so no terminal wraps it, and no control character. */
CTG_TEST(cli_progress, every_width_fits)
{
    static const size_t totals[] = { 0, 1000, TOTAL };
    static const char *const names[] = { NULL, "big.json", LONG_NAME };
    char small[8];

    for (int w = 0; w <= 300; w++) {
        for (size_t t = 0; t < 3; t++) {
            for (size_t n = 0; n < 3; n++) {
                const char *line = line_of(w, names[n], CONSUMED / 2, totals[t], 1.0);
                size_t len = strlen(line);

                CU_ASSERT(len <= (size_t)(w > 0 ? w - 1 : 0));
                for (size_t i = 0; i < len; i++)
                    CU_ASSERT((unsigned char)line[i] >= 0x20 && line[i] != 0x7f);
            }
        }
    }
    CU_ASSERT_EQUAL(cli_progress_line(small, sizeof small, 80, NULL, CONSUMED, TOTAL, ELAPSED),
                    7);
    CU_ASSERT_STRING_EQUAL(small, "[######");
    CU_ASSERT_EQUAL(cli_progress_line(small, 0, 80, NULL, CONSUMED, TOTAL, ELAPSED), 0);
}

#include "test_cli_progress.tests.h"
