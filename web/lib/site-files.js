// attnx: how the code reaches the files of the site that it does not import: the WebAssembly build
// (wasm/attnx_<flavour>.mjs and its .wasm) and the workers' scripts. This module is the served
// site's way: by URL, beside the code. The one-file pages (dist/attnx.html, dist/attnx-lab.html;
// scripts/build-standalone.mjs) are bundled with web/standalone/site-files.js in its place, which
// has them inline; nothing else differs between the two.

/**
 * The WebAssembly build whose Emscripten ES module is at `url`: { factory, wasmBinary } where
 * wasmBinary is null (the factory finds its .wasm beside the module; Node hands it over itself).
 */
export async function wasmBuild(url) {
  const { default: factory } = await import(url);
  return { factory, wasmBinary: null };
}

/** A worker started for the script at `href` from a copy kept inline, or null: start it by URL. */
export function inlineWorker() {
  return null;
}

/** The text of the one-file page this document was opened from, or null (a served page). */
export function ownSource() {
  return null;
}
