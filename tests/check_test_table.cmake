# SPDX-License-Identifier: MPL-2.0
# Runs tests/tests.cmake's table generator on a made-up suite whose lines hold what a CMake list
# would otherwise misread: an unbalanced '[' or ']' (CMake does not split a list inside
# brackets, so the lines after one would fuse and their tests go missing). Every test must
# be registered, in order.
# usage: cmake -DTESTS_DIR=... -DWORK_DIR=... -P check_test_table.cmake
include(${TESTS_DIR}/tests.cmake)
set(src ${WORK_DIR}/test_tbl.c)
file(WRITE ${src} [=[
CTG_TEST(tbl, first)
{
    static const char test_open[] = "[";
}
CTG_TEST(tbl, second)
{
    char test_close = ']'; char test_again = ']';
}
CTG_SHARED_TEST(tbl, third)
{
}
]=])
ctg_test_table(tbl ${src} ${WORK_DIR} n_local n_shared)
file(READ ${WORK_DIR}/test_tbl.tests.h table)
string(REGEX MATCHALL "\\{ \"[a-z]+\", test_tbl__[a-z]+, (true|false) \\}" rows "${table}")
set(expected "{ \"first\", test_tbl__first, false };{ \"second\", test_tbl__second, false };{ \"third\", test_tbl__third, true }")
if(NOT n_local EQUAL 2 OR NOT n_shared EQUAL 1 OR NOT rows STREQUAL expected)
  message(FATAL_ERROR "expected 2 local and 1 shared test (${expected}), "
    "got ${n_local} and ${n_shared}: ${rows}")
endif()
message(STATUS "3 tests registered from lines holding unbalanced brackets")
