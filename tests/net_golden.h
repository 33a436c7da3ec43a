/* SPDX-License-Identifier: MPL-2.0 */
#ifndef CTG_TESTS_NET_GOLDEN_H
#define CTG_TESTS_NET_GOLDEN_H
#include <stdbool.h>
#include <stddef.h>
#include "ctg/network.h"
bool ctg_test_net_matches_golden(const ctg_network *net, const char *golden_path, char *diff,
                                 size_t diff_size);
#endif
