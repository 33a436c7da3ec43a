/* SPDX-License-Identifier: MPL-2.0 */
/* The test suites, one file tests/test_<name>.c each (tests/CMakeLists.txt reads this list).
 * A suite's tests that read ../shared/testdata (CTG_SHARED_TEST) are the ctest entry
 * <name>/shared, reported as skipped when that folder is absent; the others are <name>. */
CTG_SUITE(lexer)
CTG_SUITE(conformance)
CTG_SUITE(model)
CTG_SUITE(writer)
CTG_SUITE(reader)
CTG_SUITE(invalid)
CTG_SUITE(alloc)
CTG_SUITE(fixtures)
CTG_SUITE(identifier)
CTG_SUITE(criterion)
CTG_SUITE(extension)
CTG_SUITE(list)
CTG_SUITE(bridge)
CTG_SUITE(stream)
CTG_SUITE(limits)
CTG_SUITE(hostile)
CTG_SUITE(api)
CTG_SUITE(cli_progress)
CTG_SUITE(output)
CTG_SUITE(network)
