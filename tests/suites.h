/* SPDX-License-Identifier: MPL-2.0 */
/* The test suites: one CTest entry each (tests/CMakeLists.txt reads this file).
 * CTG_SUITE(name, needs_shared): needs_shared = 1 when the suite reads ../shared/testdata and
 * must be reported as skipped when that folder is absent. */
CTG_SUITE(lexer, 0)
CTG_SUITE(conformance, 1)
CTG_SUITE(model, 0)
CTG_SUITE(writer, 0)
CTG_SUITE(reader, 0)
CTG_SUITE(invalid, 0)
CTG_SUITE(alloc, 0)
CTG_SUITE(fixtures, 1)
CTG_SUITE(identifier, 0)
CTG_SUITE(criterion, 0)
CTG_SUITE(extension, 0)
CTG_SUITE(stream, 0)
CTG_SUITE(limits, 0)
CTG_SUITE(hostile, 0)
CTG_SUITE(api, 0)
CTG_SUITE(cli_progress, 0)
CTG_SUITE(output, 0)
