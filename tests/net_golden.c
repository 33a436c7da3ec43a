/* SPDX-License-Identifier: MPL-2.0 */
#include "tests/net_golden.h"
bool ctg_test_net_matches_golden(const ctg_network *net, const char *golden_path, char *diff, size_t diff_size) { (void)net; (void)golden_path; (void)diff; (void)diff_size; return false; }
