// attnx one-file pages: what their entry (explorer.js, lab.js) does before the page's own code runs.
// missing() says what the browser lacks (the inline build needs WebAssembly SIMD with exception
// handling, and DecompressionStream to unpack it) and showMissing() says so plainly on the page;
// install() captures the page's text as opened (for "Save as one file"), puts the inline
// WebAssembly, workers and files where site-files.js and fetch find them, points the links the
// page makes to the served pages at the one-file ones, and hides what has no meaning in a frame
// without an address of its own (a notebook's output: about:srcdoc).
import { NO_SIMD, fromBase64, gunzipBase64 } from './site-files.js';
import { simdSupported } from '../lib/attnx.js';

/** What this browser lacks for a one-file page (a sentence to show), or null. */
export function missing() {
  const where = 'Open this file in a current Chrome, Edge, Firefox or Safari, or use the attnx site served over http (npm start), which also runs without SIMD.';
  if (typeof WebAssembly !== 'object' || !simdSupported()) return `${NO_SIMD}. ${where}`;
  if (typeof DecompressionStream !== 'function' || typeof Worker !== 'function' || typeof Blob !== 'function') {
    return `This one-file page needs DecompressionStream, Web Workers and Blob, and this browser lacks one of them. ${where}`;
  }
  return null;
}

/** Shows `text` in the page's start-up hint, at once, as an alert; the page's code does not run. */
export function showMissing(text) {
  const p = document.getElementById('file-hint');
  if (!p) return;
  p.textContent = text;
  p.setAttribute('role', 'alert');
  p.style.visibility = 'visible';
  p.style.animation = 'none';
  document.documentElement.dataset.oneFile = 'unsupported';
}

// The page's text as opened: its doctype and its element, before any script changed them.
function captureSource() {
  const d = document.doctype;
  return `${d ? `<!doctype ${d.name}>\n` : ''}${document.documentElement.outerHTML}\n`;
}

// A Response with the bytes of inline file f ({ base64, gzip, type }).
async function fileResponse(f) {
  const bytes = f.gzip ? await gunzipBase64(f.base64) : fromBase64(f.base64);
  return new Response(bytes, { status: 200, headers: { 'content-type': f.type } });
}

// fetch() answers the site's own files that the page fetches (the stories, the sample head) from
// the inline copies; anything else goes to the browser's fetch.
function serveFiles(root, files) {
  const byUrl = new Map(Object.entries(files).map(([path, f]) => [root + path, f]));
  const native = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    let url = null;
    try {
      url = new URL(typeof input === 'object' && 'url' in input ? input.url : input, document.baseURI).href;
    } catch { /* not a URL: the browser's fetch says so */ }
    const f = url === null ? undefined : byUrl.get(url);
    return f ? fileResponse(f) : native.call(globalThis, input, init);
  };
}

// Links the page's code makes to the served pages (a story's link to the lab) name the one-file
// pages instead, which sit side by side in dist/; links written in the page were renamed at build.
function renameLinks(root) {
  const names = { 'index.html': 'attnx.html', 'lab.html': 'attnx-lab.html' };
  const rename = (a) => {
    const m = /^([^#?]*)(.*)$/.exec(a.href);
    const name = m[1].startsWith(root) ? m[1].slice(root.length) : null;
    if (name !== null && Object.hasOwn(names, name)) a.href = root + names[name] + m[2];
  };
  const walk = (node) => {
    if (node.nodeType !== 1) return;
    if (node.matches('a[href]')) rename(node);
    node.querySelectorAll('a[href]').forEach(rename);
  };
  new MutationObserver((records) => {
    for (const r of records) (r.type === 'attributes' ? [r.target] : [...r.addedNodes]).forEach(walk);
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['href'] });
}

/**
 * Readies the page: resources { root (the URL the site's paths are under), wasm, workers: { path:
 * script }, files: { path: { base64, gzip, type } } } from the build.
 */
export function install(resources) {
  const { root, wasm, workers, files } = resources;
  globalThis.__attnxInline = { root, wasm, workers, source: captureSource() };
  serveFiles(root, files);
  renameLinks(root);
  document.documentElement.dataset.oneFile = 'ready';
  if (location.protocol === 'about:') {  // no address to copy, embed or link from (the lab is no neighbour)
    for (const e of document.querySelectorAll('#copy-link, #embed-btn, .lab-link')) e.setAttribute('hidden', '');
  }
}
