/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_BASE_CLOCALE_H
#define CTG_BASE_CLOCALE_H

/* Private: the "C" locale, for text that must not follow the process's locale. */

#include <locale.h>

#include "base/internal.h"

/* The process-wide "C" locale object, made on first use (thread-safe) and never freed;
 * (locale_t)0 when it could not be made. */
CTG_INTERNAL locale_t ctg_c_locale(void);

/* The C library's description of `errnum` in the "C" locale: English whatever the process's
 * locale, and safe from any thread (unlike strerror). Never NULL. */
CTG_INTERNAL const char *ctg_strerror(int errnum);

#endif
