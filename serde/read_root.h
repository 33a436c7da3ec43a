#ifndef CTG_SERDE_READ_ROOT_H
#define CTG_SERDE_READ_ROOT_H

/* Private: reads a whole document (root value through end of input) into `list`. */

#include "serde/reader.h"

int ctg_read_root(ctg_reader *rd, ctg_list *list);

#endif
