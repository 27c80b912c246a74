# attnx: install rules and the CMake package (native builds only; included by CMakeLists.txt).
#   cmake --install <build> --prefix <dir>  gives
#   <dir>/include/attnx/*.hpp, <dir>/lib/libattnx_core.a, <dir>/bin/attnx (when built) and
#   <dir>/lib/cmake/attnx/{attnxConfig,attnxConfigVersion,attnxTargets*}.cmake
# so that a consumer does find_package(attnx) and links attnx::core.
include(CMakePackageConfigHelpers)

set(ATTNX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/attnx)

install(TARGETS attnx_core EXPORT attnxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/attnx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
if(TARGET attnx)
  install(TARGETS attnx RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT attnxTargets NAMESPACE attnx:: DESTINATION ${ATTNX_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/attnxConfig.cmake.in
  ${PROJECT_BINARY_DIR}/attnxConfig.cmake INSTALL_DESTINATION ${ATTNX_CMAKE_DIR})
# 0.x: a minor release may change the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/attnxConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/attnxConfig.cmake ${PROJECT_BINARY_DIR}/attnxConfigVersion.cmake
  DESTINATION ${ATTNX_CMAKE_DIR})
