# SPDX-License-Identifier: MPL-2.0
# The table of a suite's tests, made from its source: every line `CTG_TEST(suite, name)` or
# `CTG_SHARED_TEST(suite, name)` of tests/test_SUITE.c becomes a row of SUITE_tests[] in
# test_SUITE.tests.h (tests/test_common.h has the macros). A test function written any other
# way, or named for another suite, is an error here: no test can be defined and not run.
# Sets ${out_local} and ${out_shared} to the number of tests of each part.
function(ctg_test_table suite src out_dir out_local out_shared)
  file(STRINGS ${src} lines REGEX "test_|CTG_(SHARED_)?TEST")
  # A CMake list is not split inside [ ]: an unbalanced bracket on one line would fuse the lines
  # after it into one item and hide their tests. No pattern below needs a bracket.
  string(REPLACE "[" "(" lines "${lines}")
  string(REPLACE "]" ")" lines "${lines}")
  set(decls "")
  set(rows "")
  set(n_local 0)
  set(n_shared 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^CTG_(SHARED_)?TEST\\(([a-z0-9_]+), ([a-z0-9_]+)\\)$")
      set(shared ${CMAKE_MATCH_1})
      set(owner ${CMAKE_MATCH_2})
      set(name ${CMAKE_MATCH_3})
      if(NOT owner STREQUAL suite)
        message(FATAL_ERROR "${src}: ${line}: a test of suite '${owner}' in suite '${suite}'")
      endif()
      string(APPEND decls "static void test_${suite}__${name}(void);\n")
      if(shared)
        string(APPEND rows "    { \"${name}\", test_${suite}__${name}, true },\n")
        math(EXPR n_shared "${n_shared} + 1")
      else()
        string(APPEND rows "    { \"${name}\", test_${suite}__${name}, false },\n")
        math(EXPR n_local "${n_local} + 1")
      endif()
    elseif(line MATCHES "^[ \t]*CTG_(SHARED_)?TEST[ \t]*\\("
           OR line MATCHES "^[ \t]*(static[ \t]+)?void[ \t]+\\**test_[A-Za-z0-9_]*[ \t]*\\(")
      message(FATAL_ERROR "${src}: '${line}': a test must be defined as "
        "`CTG_TEST(${suite}, name)` alone on its line, or it would not be registered")
    endif()
  endforeach()
  if(n_local EQUAL 0 AND n_shared EQUAL 0)
    message(FATAL_ERROR "${src}: no CTG_TEST line: an empty suite is a missing file")
  endif()
  set(text "/* Generated from tests/test_${suite}.c by tests/tests.cmake: do not edit. */\n")
  string(APPEND text "#include \"tests/test_common.h\"\n\n${decls}\nconst ctg_test_info ${suite}_tests[] = {\n${rows}")
  string(APPEND text "    { NULL, NULL, false }\n};\n")
  # Written through configure_file so that an unchanged table keeps its time stamp.
  file(WRITE ${out_dir}/test_${suite}.tests.h.new "${text}")
  configure_file(${out_dir}/test_${suite}.tests.h.new ${out_dir}/test_${suite}.tests.h COPYONLY)
  set(${out_local} ${n_local} PARENT_SCOPE)
  set(${out_shared} ${n_shared} PARENT_SCOPE)
endfunction()
