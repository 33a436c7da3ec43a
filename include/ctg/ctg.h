#ifndef CTG_CTG_H
#define CTG_CTG_H

/**
 * @file ctg.h
 * Umbrella header: everything a ctg user needs.
 */

#include "ctg/common.h"
#include "ctg/error.h"
#include "ctg/extension.h"
#include "ctg/io.h"
#include "ctg/jsonc.h"
#include "ctg/model.h"
#include "ctg/stream.h"
#include "ctg/version.h"

#endif
