# SPDX-License-Identifier: MPL-2.0
# Toolchain file of the 32-bit build (scripts/ci-extra.sh, job m32): gcc -m32 on an x86-64
# Debian host, against the i386 multiarch packages (libjson-c-dev:i386, libcunit1-dev:i386,
# zlib1g-dev:i386 beside gcc-multilib).
#   cmake -S . -B build-m32 -DCMAKE_TOOLCHAIN_FILE=cmake/i386-linux-gnu.cmake -DCTG_WERROR=ON
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER gcc)
set(CMAKE_CXX_COMPILER g++)
set(CMAKE_C_FLAGS_INIT -m32)
set(CMAKE_CXX_FLAGS_INIT -m32)
set(CMAKE_EXE_LINKER_FLAGS_INIT -m32)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -m32)
set(CMAKE_MODULE_LINKER_FLAGS_INIT -m32)
# Makes find_library and find_package search lib/i386-linux-gnu (json-c's CMake config,
# libz.so, libm.so) and not the host's lib/x86_64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
# pkg-config (CUnit) must read the i386 .pc files only; the host's would give x86-64 paths.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# No emulator: an x86-64 kernel runs the i386 programs, so ctest runs them as they are.
