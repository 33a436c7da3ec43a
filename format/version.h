/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_FORMAT_VERSION_H
#define CTG_FORMAT_VERSION_H

/* Private: PowSyBl's version comparison (JsonUtil.compareVersions): split on '.', compare the
 * parts as integers when both are numeric, else as strings; a missing part counts as 0. */

#include <stddef.h>

/* <0, 0 or >0 as version `a` (`alen` bytes) is older, equal or newer than `b`. */
int ctg_version_compare(const char *a, size_t alen, const char *b);

/* The newest format version this library knows for each kind: written, and the newest read
 * (the kind table, kinds.c, says which kind has which). */
#define CTG_VERSION_DEFAULT "1.1"
#define CTG_VERSION_LIST "1.1"
#define CTG_VERSION_IDENTIFIER "1.3"
#define CTG_VERSION_CRITERION "1.1"

#endif
