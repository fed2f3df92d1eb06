# Install rules of the C library (docs/install.md, "C library"), included by the top-level CMakeLists.txt when
# RG_INSTALL is on. Components: `lib` (libretrogym.so), `dev` (headers, libretrogym.a, retrogym.pc, the CMake
# package), `cli` (bin/retrogym), `cores` (our libretro cores), `data` (our integrations). The Python package has
# its own component, `python` (python/CMakeLists.txt). Everything is relative to the prefix, so an installed tree
# can be moved: retrogym.pc finds the prefix from its own folder (${pcfiledir}), the CMake files from theirs.
include(CMakePackageConfigHelpers)

set(RG_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/retrogym" CACHE STRING
    "Where retrogymConfig.cmake is installed (relative to the install prefix)")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/retrogym" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/data/" DESTINATION "${RG_INSTALL_DATADIR}" COMPONENT data
        PATTERN ".gitkeep" EXCLUDE)

# Two export sets: the shared library needs nothing of its dependencies at build time, the static one names them
# (retrogymConfig.cmake finds them before it defines retrogym::retrogym_static).
if(TARGET retrogym_shared)
  install(TARGETS retrogym_shared EXPORT retrogymTargets
          LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT lib NAMELINK_COMPONENT dev
          INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endif()
install(TARGETS retrogym EXPORT retrogymStaticTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
if(TARGET retrogym_shared)
  install(EXPORT retrogymTargets NAMESPACE retrogym:: DESTINATION "${RG_INSTALL_CMAKEDIR}" COMPONENT dev)
endif()
install(EXPORT retrogymStaticTargets NAMESPACE retrogym:: DESTINATION "${RG_INSTALL_CMAKEDIR}" COMPONENT dev)

file(RELATIVE_PATH RG_CONFIG_TO_PREFIX "${CMAKE_INSTALL_PREFIX}/${RG_INSTALL_CMAKEDIR}" "${CMAKE_INSTALL_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/retrogymConfig.cmake.in" "${PROJECT_BINARY_DIR}/retrogymConfig.cmake" @ONLY)
# 0.x: a minor release may change the API (docs/conventions.md), so only the same minor version is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/retrogymConfigVersion.cmake"
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/retrogymConfig.cmake" "${PROJECT_BINARY_DIR}/retrogymConfigVersion.cmake"
        DESTINATION "${RG_INSTALL_CMAKEDIR}" COMPONENT dev)

# retrogym.pc with the prefix relative to its own folder (pkg-config's ${pcfiledir}).
file(RELATIVE_PATH RG_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" RG_PC_TO_PREFIX "${RG_PC_TO_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/retrogym.pc.in" "${PROJECT_BINARY_DIR}/retrogym.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/retrogym.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT dev)

if(TARGET retrogym_cli_install)
  install(TARGETS retrogym_cli_install RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT cli)
endif()
foreach(rg_core IN ITEMS atari2600_libretro nes_libretro sms_libretro genesis_libretro)
  if(TARGET ${rg_core})
    install(TARGETS ${rg_core} LIBRARY DESTINATION "${RG_INSTALL_COREDIR}" COMPONENT cores)
  endif()
endforeach()
