# SPDX-License-Identifier: MPL-2.0
# The private exports of libctg (base/internal.h): the names of the functions its own headers
# declare CTG_INTERNAL, which the version script puts under the node CTG_PRIVATE_<SOVERSION>
# for libctg_network. The mark and the name stand on one line; a declaration written otherwise
# is missed here and reported by the `symbols` test (scripts/check-symbols.sh reads the
# headers its own way). Every header read is a configure dependency, so that a build after a
# header gains or loses a CTG_INTERNAL declaration configures again first (the glob alone sees
# only files added or removed).
#   ctg_private_exports(OUT_VAR DIR...)  -> "name1;\n    name2;..." for the map, sorted
function(ctg_private_exports out)
  set(headers "")
  foreach(dir IN LISTS ARGN)
    file(GLOB found CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.h)
    list(APPEND headers ${found})
  endforeach()
  set(names "")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${headers})
  foreach(header IN LISTS headers)
    file(STRINGS ${header} lines REGEX "^CTG_INTERNAL .*[ *]ctg_[A-Za-z0-9_]+\\(")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^CTG_INTERNAL [^(]*[ *](ctg_[A-Za-z0-9_]+)\\(.*" "\\1" name
        "${line}")
      list(APPEND names ${name})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES names)
  list(SORT names)
  string(REPLACE ";" ";\n    " text "${names}")
  set(${out} "${text};" PARENT_SCOPE)
endfunction()
