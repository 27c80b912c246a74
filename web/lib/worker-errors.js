// attnx: what a worker posts for an error thrown by a task (web/lib/worker.js), DOM-free so that
// Node tests can check it.

const hasWasm = typeof WebAssembly === 'object' && WebAssembly !== null;

// True for a C++ exception that no binding caught: a WebAssembly.Exception in the simd build
// (native exceptions), a bare number (a pointer) in the scalar one (emulated exceptions). The
// bindings catch what the core throws (wasm/js_value.hpp guarded), so this is a defect.
function escapedCpp(e) {
  return typeof e === 'number' || (hasWasm && typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception);
}

/**
 * The error record a worker posts for `e` ({ name, message, field, kind }: plain data) and whether
 * the instance may be broken (fatal: the pool replaces the worker): a WebAssembly trap (e.g. an
 * abort), or a C++ exception no binding caught, whose message JS cannot read.
 * @returns {{error: {name: string, message: string, field?: string, kind?: string}, fatal: boolean}}
 */
export function describeFailure(e) {
  if (escapedCpp(e)) {
    return { error: { name: 'Error', message: 'internal error: the module failed with a C++ exception no call caught', kind: 'internal' }, fatal: true };
  }
  const fatal = hasWasm && e instanceof WebAssembly.RuntimeError;
  return { error: plainError(e), fatal };
}

/** `e` as plain data: { name, message, field, kind } (an Error's own fields), else its text. */
export function plainError(e) {
  if (e && typeof e === 'object') {
    return { name: e.name || 'Error', message: String(e.message ?? e), field: e.field, kind: e.kind };
  }
  return { name: 'Error', message: String(e) };
}
