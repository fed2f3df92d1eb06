# Before the real find_package/pkg_check_modules calls: every system library the build needs is looked for quietly,
# and when some are missing the configure stops with one message naming each with its Debian/Ubuntu package and the
# apt-get line that installs them all (docs/install.md), instead of CMake's generic "required packages were not
# found". Included by the top-level CMakeLists.txt; reads RG_BUILD_CLI and RG_BUILD_TESTS.

set(rg_missing_names "")
set(rg_missing_packages "")
macro(rg_missing name package)
  string(APPEND rg_missing_names "\n  ${name} (${package})")
  list(APPEND rg_missing_packages ${package})
endmacro()

find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  rg_missing("pkg-config" "pkg-config")
else()
  # pkg-config module, then the Debian package that has its .pc file.
  set(rg_pc_modules jansson libjansson-dev lua5.1 liblua5.1-0-dev libzip libzip-dev nettle nettle-dev zlib zlib1g-dev)
  if(RG_BUILD_CLI)
    list(APPEND rg_pc_modules libpng libpng-dev)
  endif()
  if(RG_BUILD_TESTS)
    list(APPEND rg_pc_modules cmocka libcmocka-dev)
  endif()
  list(LENGTH rg_pc_modules rg_n)
  math(EXPR rg_last "${rg_n} - 1")
  foreach(i RANGE 0 ${rg_last} 2)
    math(EXPR j "${i} + 1")
    list(GET rg_pc_modules ${i} rg_module)
    list(GET rg_pc_modules ${j} rg_package)
    pkg_check_modules(RG_PROBE_${i} QUIET ${rg_module})
    if(NOT RG_PROBE_${i}_FOUND)
      rg_missing("${rg_module}" "${rg_package}")
    endif()
  endforeach()
endif()
find_path(RG_PROBE_LIBRETRO_H libretro.h PATHS /usr/include/libretro-common)
if(NOT RG_PROBE_LIBRETRO_H)
  rg_missing("libretro.h, the libretro API header" "retroarch-dev")
endif()

if(rg_missing_packages)
  list(JOIN rg_missing_packages " " rg_apt)
  message(FATAL_ERROR "retrogym cannot be built here: these build dependencies are missing (Debian/Ubuntu package in "
    "brackets):${rg_missing_names}\n"
    "Install them with:\n  apt-get install ${rg_apt}\n"
    "then build again. A wheel built by `make wheel` installs with none of them (docs/install.md).")
endif()
unset(rg_missing_names)
unset(rg_missing_packages)
