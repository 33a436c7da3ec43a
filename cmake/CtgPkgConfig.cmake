# SPDX-License-Identifier: MPL-2.0
# ctg.pc, relocatable: its prefix is found from the .pc file's own place (${pcfiledir}), so an
# installed tree moved elsewhere (cmake --install --prefix, DESTDIR, a copied folder) still
# gives the right paths. An absolute CMAKE_INSTALL_LIBDIR or INCLUDEDIR is kept as it is.

if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(CTG_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(CTG_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  # ctg.pc sits in LIBDIR/pkgconfig: one ".." per component of that path leads to the prefix.
  file(TO_CMAKE_PATH "${CMAKE_INSTALL_LIBDIR}/pkgconfig" _ctg_pc_dir)
  string(REGEX REPLACE "/+" ";" _ctg_pc_parts "${_ctg_pc_dir}")
  set(CTG_PC_PREFIX "\${pcfiledir}")
  foreach(_ctg_part IN LISTS _ctg_pc_parts)
    if(_ctg_part STREQUAL "..")
      message(FATAL_ERROR "CMAKE_INSTALL_LIBDIR must not contain '..' (${CMAKE_INSTALL_LIBDIR})")
    elseif(NOT _ctg_part STREQUAL "." AND NOT _ctg_part STREQUAL "")
      string(APPEND CTG_PC_PREFIX "/..")
    endif()
  endforeach()
  set(CTG_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(CTG_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(CTG_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
set(CTG_PC_LIBS_PRIVATE "-pthread")
if(CTG_MATH_LIB)
  string(APPEND CTG_PC_LIBS_PRIVATE " -lm")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/ctg.pc.in ${PROJECT_BINARY_DIR}/ctg.pc @ONLY)

# ctg-network.pc: libctg_network on top of ctg.pc; its static use needs libexpat, RE2 and,
# for the RE2 wrapper, the C++ runtime.
if(CTG_BUILD_NETWORK)
  set(CTG_NETWORK_PC_LIBS_PRIVATE "-lstdc++")
  if(CTG_MATH_LIB)
    string(APPEND CTG_NETWORK_PC_LIBS_PRIVATE " -lm")
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/ctg-network.pc.in ${PROJECT_BINARY_DIR}/ctg-network.pc
    @ONLY)
endif()
