# attnx: settings shared by scripts/build-native and scripts/build-wasm (sourced, from the checkout).
#   launcher  CMake arguments that put ccache in front of the compiler, when scripts/setup
#             installed it: keyed on paths relative to the checkout (CCACHE_BASEDIR), so another
#             clone of the same sources hits the cache; depend mode (CCACHE_DEPEND) takes the
#             headers from the compiler's own .d file, so a miss costs no extra preprocessor run.
#   jobs      the -j argument of `cmake --build`: none under a make jobserver (scripts/build runs
#             the native and both WebAssembly builds under one, sharing the cores), else nproc.
# A build folder keeps the launcher it was configured with (scripts/build-wasm configures a
# folder once): remove build/ to take ccache on or off.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_DEPEND=1
fi
jobs=(-j"$(nproc 2>/dev/null || echo 2)")
case " ${MAKEFLAGS:-} " in *jobserver*) jobs=() ;; esac
