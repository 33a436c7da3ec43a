/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_CTG_H
#define CTG_CTG_H

/**
 * @file ctg.h
 * Umbrella header: everything a ctg user needs.
 *
 * Threads, in short (each header says more): different lists, reads and writes need no
 * locking; one list may be read and written out from several threads at once, but changed
 * (built, freed) by one; a filled extension registry may be shared by reads on several
 * threads; allocator hooks shared between threads must be thread-safe. Error records and
 * stream writers belong to one thread at a time.
 */

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/extension.h"
#include "ctg/io.h"
#include "ctg/jsonc.h"
#include "ctg/model.h"
#include "ctg/sa.h"
#include "ctg/stream.h"
#include "ctg/version.h"

#endif
