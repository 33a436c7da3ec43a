# SPDX-License-Identifier: MPL-2.0
# Build modes of the reliability jobs (scripts/ci-extra.sh), each in a build folder of its own:
#   CTG_FUZZ=ON      clang; the library with -fsanitize=fuzzer-no-link,address,undefined and the
#                    libFuzzer targets of tests/fuzz/ linked with -fsanitize=fuzzer.
#   CTG_TSAN=ON      clang; ThreadSanitizer over everything (the thread test is what matters).
#   CTG_COVERAGE=ON  gcc --coverage at -O0, for gcovr's line and branch figures of the library.
# At most one of them, and none together with CTG_SANITIZE.

option(CTG_FUZZ "Build the libFuzzer targets (clang; library with fuzzer-no-link, ASan, UBSan)" OFF)
option(CTG_TSAN "Build with ThreadSanitizer (clang)" OFF)
option(CTG_COVERAGE "Build with gcc --coverage for line and branch coverage" OFF)

set(_ctg_modes 0)
foreach(_m CTG_SANITIZE CTG_FUZZ CTG_TSAN CTG_COVERAGE)
  if(${_m})
    math(EXPR _ctg_modes "${_ctg_modes} + 1")
  endif()
endforeach()
if(_ctg_modes GREATER 1)
  message(FATAL_ERROR "CTG_SANITIZE, CTG_FUZZ, CTG_TSAN and CTG_COVERAGE exclude each other")
endif()

if((CTG_FUZZ OR CTG_TSAN) AND NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "CTG_FUZZ and CTG_TSAN need clang: configure with -DCMAKE_C_COMPILER=clang")
endif()

if(CTG_FUZZ)
  # Every object carries the coverage counters libFuzzer steers by; only the targets link the
  # fuzzer's main (tests/fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
    -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

if(CTG_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=thread)
endif()

if(CTG_COVERAGE)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "CTG_COVERAGE uses gcc's --coverage (gcov data for gcovr)")
  endif()
  # -O0 so that every line and branch of the source is one in the object; atomic counters
  # because the thread test updates them from several threads (racing increments leave
  # negative branch counts that gcovr refuses to parse).
  set(CMAKE_BUILD_TYPE Debug CACHE STRING "Build type" FORCE)
  add_compile_options(--coverage -O0 -fprofile-update=atomic)
  # Conditions no input can reach (NEVER in json/lexer.c) are compiled out here.
  add_compile_definitions(CTG_COVERAGE_BUILD=1)
  add_link_options(--coverage)
endif()
