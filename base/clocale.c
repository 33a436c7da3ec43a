/* SPDX-License-Identifier: MPL-2.0 */
/* The "C" locale object: number parsing and error texts must not depend on the process's locale. */

/* strerror_l and newlocale are POSIX 2008; strtod_l (json/number.c) is a GNU extension. */
#define _GNU_SOURCE

#include "base/clocale.h"

#include <pthread.h>
#include <string.h>

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

/* Once-initialised state, like the registry's index: made by the first caller, never freed. */
static void make_c_locale(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

locale_t ctg_c_locale(void)
{
    pthread_once(&c_locale_once, make_c_locale);
    return c_locale;
}

const char *ctg_strerror(int errnum)
{
    locale_t c = ctg_c_locale();
    const char *s = c != (locale_t)0 ? strerror_l(errnum, c) : NULL;

    return s != NULL ? s : "system error";
}
