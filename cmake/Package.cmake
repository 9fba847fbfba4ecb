# `cmake --install BUILD --prefix P`: libhoist (shared and static), the public headers under
# include/hoist, the translation runtime under LIBDIR/hoist (where RuntimeLocation.cpp looks),
# hoist-rt beside libhoist (for objects of `hoist lift --emit obj`), the hoist executable, the
# CMake package (find_package(Hoist CONFIG): Hoist::hoist and Hoist::hoist_static) and hoist.pc
# for pkg-config. docs/API.md shows a consumer.
include(CMakePackageConfigHelpers)

set(HOIST_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Hoist)

install(TARGETS hoist_shared hoist_static EXPORT HoistTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS hoist_translate_runtime ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/hoist)
install(TARGETS hoist_rt ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET hoist)   # HOIST_BUILD_TOOLS
  install(TARGETS hoist RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hoist ${PROJECT_BINARY_DIR}/include/hoist
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT HoistTargets NAMESPACE Hoist:: DESTINATION ${HOIST_CMAKE_PACKAGE_DIR})
# The same targets for a consumer pointed at the build tree (-DHoist_DIR=BUILD).
export(EXPORT HoistTargets NAMESPACE Hoist:: FILE ${PROJECT_BINARY_DIR}/HoistTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/HoistConfig.cmake.in
  ${PROJECT_BINARY_DIR}/HoistConfig.cmake INSTALL_DESTINATION ${HOIST_CMAKE_PACKAGE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/HoistConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/HoistConfig.cmake ${PROJECT_BINARY_DIR}/HoistConfigVersion.cmake
  DESTINATION ${HOIST_CMAKE_PACKAGE_DIR})

# hoist.pc finds its prefix from its own place (${pcfiledir}), so `--prefix` at install time
# needs no reconfiguration.
file(RELATIVE_PATH HOIST_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" HOIST_PC_TO_PREFIX "${HOIST_PC_TO_PREFIX}")
set(HOIST_PC_PRIVATE_LIBS "")
if(HOIST_HAVE_Z3)
  set(HOIST_PC_PRIVATE_LIBS "${HOIST_Z3_LIBRARY}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/hoist.pc.in ${PROJECT_BINARY_DIR}/hoist.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hoist.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
