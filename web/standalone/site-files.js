// attnx one-file pages (dist/attnx.html, dist/attnx-lab.html): web/lib/site-files.js as they have
// it. scripts/build-standalone.mjs bundles this module in that one's place. The WebAssembly (the
// simd build only, gzip-compressed, base64) and the workers' scripts are inline, in
// globalThis.__attnxInline: the page's entry sets it (runtime.js install), and every worker's
// script starts by setting its own copy ({ root, wasm }). Workers are classic scripts from blob:
// URLs, the only kind a page opened from file:// may start.
import simdFactory from '../wasm/attnx_simd.mjs';

const inline = () => globalThis.__attnxInline;
let bytesPromise = null;
const workerUrls = new Map();  // site path -> blob: URL of its script (made once)

/** What the one-file pages need of the browser and it lacks, as words, or null. */
export const NO_SIMD = 'This one-file page runs the WebAssembly SIMD build only, and this browser has no WebAssembly SIMD with exception handling';

// The bytes of base64 text `b64`.
export function fromBase64(b64) {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The bytes of gzip-compressed, base64 text `b64` (DecompressionStream). */
export async function gunzipBase64(b64) {
  const stream = new Blob([fromBase64(b64)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The inline simd build: its factory and its bytes. Any other build is refused (NO_SIMD). */
export async function wasmBuild(url) {
  if (!/attnx_simd\.mjs$/.test(url)) throw new Error(`${NO_SIMD}.`);
  if (!bytesPromise) bytesPromise = gunzipBase64(inline().wasm);
  return { factory: simdFactory, wasmBinary: await bytesPromise };
}

/** A classic worker running the inline copy of the script at href (a site path under the root). */
export function inlineWorker(href, name) {
  const site = inline();
  const path = href.startsWith(site.root) ? href.slice(site.root.length) : null;
  const text = path !== null && site.workers ? site.workers[path] : undefined;
  if (text === undefined) return null;
  if (!workerUrls.has(path)) {
    const first = `self.__attnxInline = ${JSON.stringify({ root: site.root, wasm: site.wasm })};\n`;
    workerUrls.set(path, URL.createObjectURL(new Blob([first, text], { type: 'text/javascript' })));
  }
  return new Worker(workerUrls.get(path), { name });
}

/** The text of this one-file page as it was opened (runtime.js captures it before the page runs). */
export function ownSource() {
  const site = inline();
  return site && site.source ? site.source : null;
}
