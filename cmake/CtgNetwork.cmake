# SPDX-License-Identifier: MPL-2.0
# libctg_network (network/, iidm/): the equipment table, the IIDM importers and the evaluation
# of lists against a network. A library of its own, linking libctg, so that a user who only
# reads lists does not pull libexpat and RE2. It uses libctg's internals that base/internal.h
# marks (the private version node of libctg.so); its own exports are the ctg_* functions of
# ctg/network.h, ctg/iidm.h, ctg/resolve.h and ctg/generate.h (the `symbols_network` test checks
# them).
find_package(EXPAT REQUIRED)
find_package(PkgConfig REQUIRED)
# RE2 (Debian libre2-dev) has a pkg-config file and no CMake package.
pkg_check_modules(CTG_RE2 REQUIRED IMPORTED_TARGET re2)

# C for everything but the one C++ file that wraps RE2 (network/regex.cc, once it exists).
file(GLOB CTG_NETWORK_SOURCES CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/network/*.c ${PROJECT_SOURCE_DIR}/network/*.cc
  ${PROJECT_SOURCE_DIR}/iidm/*.c)

add_library(ctg_network_objects OBJECT ${CTG_NETWORK_SOURCES})
# ctg's headers, not its link interface: that would bring CTG_STATIC_DEFINE (ctg_static) and
# hide the CTG_API functions from the shared library.
target_include_directories(ctg_network_objects PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(ctg_network_objects PRIVATE json-c::json-c EXPAT::EXPAT PkgConfig::CTG_RE2)
target_compile_definitions(ctg_network_objects PRIVATE _POSIX_C_SOURCE=200809L)
set_target_properties(ctg_network_objects PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
  CXX_EXTENSIONS OFF)
if(CTG_DEBUG_ARENA)
  target_compile_definitions(ctg_network_objects PRIVATE CTG_DEBUG_ARENA)
endif()
# The objects must exist before the header generation finishes (export.h, version.h).
add_dependencies(ctg_network_objects ctg_objects)

add_library(ctg_network SHARED $<TARGET_OBJECTS:ctg_network_objects>)
add_library(ctg_network_static STATIC $<TARGET_OBJECTS:ctg_network_objects>)
add_library(ctg::network ALIAS ctg_network)
add_library(ctg::network_static ALIAS ctg_network_static)
target_link_libraries(ctg_network PUBLIC ctg)
target_link_libraries(ctg_network_static PUBLIC ctg_static)
foreach(t ctg_network ctg_network_static)
  target_link_libraries(${t} PRIVATE EXPAT::EXPAT PkgConfig::CTG_RE2 Threads::Threads
    ${CTG_MATH_LIB})
endforeach()
set_target_properties(ctg_network PROPERTIES VERSION ${PROJECT_VERSION}
  SOVERSION ${CTG_SOVERSION} EXPORT_NAME network)
set_target_properties(ctg_network_static PROPERTIES OUTPUT_NAME ctg_network
  EXPORT_NAME network_static)

set(CTG_NETWORK_VERSION_NODE CTG_NETWORK_${CTG_SOVERSION})
configure_file(cmake/ctg_network.map.in ${PROJECT_BINARY_DIR}/ctg_network.map @ONLY)
if(CTG_HAVE_VERSION_SCRIPT)
  target_link_options(ctg_network PRIVATE
    "-Wl,--version-script=${PROJECT_BINARY_DIR}/ctg_network.map")
  set_target_properties(ctg_network PROPERTIES LINK_DEPENDS ${PROJECT_BINARY_DIR}/ctg_network.map)
endif()
if(CTG_HAVE_BSYMBOLIC_FUNCTIONS)
  target_link_options(ctg_network PRIVATE "-Wl,-Bsymbolic-functions")
endif()
