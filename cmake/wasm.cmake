# attnx: the WebAssembly module (included by CMakeLists.txt under emcmake; its sources are wasm/,
# which holds only the embind registrations and the one generic conversion).
# One configuration builds one flavour from the same sources:
#   -DATTNX_WASM_SIMD=ON  -> attnx_simd.mjs   + attnx_simd.wasm   (-msimd128)
#   -DATTNX_WASM_SIMD=OFF -> attnx_scalar.mjs + attnx_scalar.wasm
# Flags follow /work/shared/TOOLCHAIN.md (Emscripten 3.1.6).

# emcmake sets the emulator to `node --experimental-wasm-threads`, which Node 20 rejects.
find_program(ATTNX_NODE node REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR "${ATTNX_NODE}" CACHE STRING "Emulator for WASM executables" FORCE)

if(ATTNX_WASM_SIMD)
  set(ATTNX_WASM_NAME attnx_simd)
  set(ATTNX_WASM_EXPORT createAttnxSimd)
  set(ATTNX_WASM_FLAVOUR wasm-simd128)
  # Native WebAssembly exceptions: web/lib/attnx.js gives this build only to engines that validate
  # both SIMD and exception handling (simdSupported); the others get the scalar build. Emulated
  # exceptions route each call that may throw inside a function with cleanups through a JS
  # trampoline (invoke_*): 5-10 % of a sweep's trial time at small L and about a fifth of the fits'
  # (docs/performance.md), and a module 24 % larger.
  set(ATTNX_WASM_ARCH_FLAGS -msimd128)
  set(ATTNX_WASM_EH_FLAGS -fwasm-exceptions)
else()
  set(ATTNX_WASM_NAME attnx_scalar)
  set(ATTNX_WASM_EXPORT createAttnxScalar)
  set(ATTNX_WASM_FLAVOUR wasm-scalar)
  set(ATTNX_WASM_ARCH_FLAGS)
  set(ATTNX_WASM_EH_FLAGS -fexceptions)  # the fallback runs in engines without wasm exceptions
endif()

# Exceptions (ATTNX_WASM_EH_FLAGS) on every object (core included) so destructors run while an
# exception unwinds to the binding's catch block; -O3 everywhere; no contraction, no fast-math
# (ATTNX_FP_FLAGS).
target_compile_options(attnx_core PUBLIC -O3 ${ATTNX_WASM_EH_FLAGS} ${ATTNX_WASM_ARCH_FLAGS})
target_compile_definitions(attnx_core PUBLIC ATTNX_FLAVOUR="${ATTNX_WASM_FLAVOUR}")

# Production module: every wasm/*.cpp, compiled once for both modules. Test flavour: the same
# plus tests/wasm/test_hooks.cpp (gramSelfTest, gramBench, allocProbe), written as
# attnx_<flavour>_test.mjs in the build folder only (scripts/build-wasm never copies it into web/).
file(GLOB ATTNX_WASM_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/wasm/*.cpp)
add_library(attnx_wasm_objects OBJECT ${ATTNX_WASM_SOURCES})
add_executable(attnx_wasm $<TARGET_OBJECTS:attnx_wasm_objects>)
add_executable(attnx_wasm_test $<TARGET_OBJECTS:attnx_wasm_objects> ${CMAKE_CURRENT_SOURCE_DIR}/tests/wasm/test_hooks.cpp)
set_target_properties(attnx_wasm PROPERTIES OUTPUT_NAME ${ATTNX_WASM_NAME} SUFFIX ".mjs" LINKER_LANGUAGE CXX)
set_target_properties(attnx_wasm_test PROPERTIES OUTPUT_NAME ${ATTNX_WASM_NAME}_test SUFFIX ".mjs")
foreach(tgt attnx_wasm_objects attnx_wasm attnx_wasm_test)
  target_compile_options(${tgt} PRIVATE -Wall -Wextra)
  target_link_libraries(${tgt} PRIVATE attnx_core)
endforeach()
foreach(tgt attnx_wasm attnx_wasm_test)
  target_link_options(${tgt} PRIVATE ${ATTNX_WASM_EH_FLAGS} ${ATTNX_WASM_ARCH_FLAGS} -lembind
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=${ATTNX_WASM_EXPORT} -sENVIRONMENT=web,worker
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sDYNAMIC_EXECUTION=0
    -sINITIAL_MEMORY=33554432 -sTOTAL_STACK=1048576 -sFILESYSTEM=0)
endforeach()
# The link's level is Binaryen's (wasm-opt) on the whole module; the code itself is compiled at -O3
# either way. The page's module: -O3 (about 20 s of wasm-opt, a module 13 % smaller). The test
# flavour, which only Node loads: -O1 (2 s; issue 46.2), the same functions and the same results;
# its Gram kernel (bench:lab's limit line) ran within the machine's noise of an -O3 link's.
# (The last -O on the line wins: CMAKE_CXX_FLAGS_RELEASE puts an -O3 before these.)
target_link_options(attnx_wasm PRIVATE -O3)
target_link_options(attnx_wasm_test PRIVATE -O1)
# records.cpp is registrations only (no loop runs in it): -O1 halves its compile time.
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/wasm/records.cpp PROPERTIES COMPILE_OPTIONS -O1)
