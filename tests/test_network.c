/* SPDX-License-Identifier: MPL-2.0 */
/* The equipment table of libctg_network: builders, index, enumeration, dump. */

#include <CUnit/CUnit.h>

#include "ctg/network.h"
#include "tests/test_common.h"

CTG_TEST(network, new_has_a_root)
{
    ctg_network *net = NULL;

    CU_ASSERT_EQUAL_FATAL(ctg_network_new(&net, "n", NULL, NULL), CTG_OK);
    CU_ASSERT_PTR_NOT_NULL(ctg_network_root(net));
    ctg_network_free(net);
}

#include "test_network.tests.h"
