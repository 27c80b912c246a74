// attnx web: one-file pages and the views saved in them (issue 45). The one-file pages
// (dist/attnx.html: the explorer, dist/attnx-lab.html: the lab; scripts/build-standalone.mjs)
// carry a view in a data block, <script type="application/json" id="attnx-view">, which is null
// in the built file. A saved view (a public, versioned format, docs/embedding.md) is
//   { "format": "attnx-view/1", "page": "explorer" | "lab", "link": "#v=2&…",
//     "head": { "name": "a.npz", "base64": "…" },    (explorer only, optional: a model's file)
//     "survey": true }                                 (explorer only, optional: survey its heads)
// The page reads the link as if it were the address's (when the address has none), opens the
// head file as if the visitor had opened it, and runs the survey when asked. "Save as one file"
// writes the one-file page with the current view in that block: the page's own text when it is
// one (site-files.js ownSource), else the one-file page beside it on the site. The Python package
// (python/attnx) writes the same block. DOM-free apart from readSavedView and the download.
import { ownSource } from '../lib/site-files.js';
import { download } from './download.js';

export const VIEW_FORMAT = 'attnx-view/1';
export const VIEW_ID = 'attnx-view';
export const SCHEMA_ID = 'attnx-schema';
/** The one-file page of each page, as the site has it beside the served pages. */
export const ONE_FILE = { explorer: 'attnx.html', lab: 'attnx-lab.html' };
/** The largest model file a saved view carries (it is in the saved file, as base64). */
export const MAX_SAVED_HEAD_BYTES = 64 * 1024 * 1024;
const MAX_NAME = 256;
const MAX_LINK = 65536;
// Base64 as one character class and a length that is a multiple of 4: a pattern of repeated groups
// of 4 overflowed the regular expression engine's stack on a text of 89 MB (readView threw).
const BASE64_CHARS = /^[A-Za-z0-9+/]*(?:=|==)?$/;
const isBase64 = (s) => s.length % 4 === 0 && BASE64_CHARS.test(s);
const BLOCK = new RegExp(`<script type="application/json" id="${VIEW_ID}">[\\s\\S]*?</script>`);

/** The data block holding `view` (null: none); "<" is escaped so no text ends the block early. */
export function viewBlock(view) {
  const json = view === null ? 'null' : JSON.stringify(view).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${VIEW_ID}">${json}</script>`;
}

export function emptyViewBlock() {
  return viewBlock(null);
}

/** The one-file page `source` with `view` in its view block. Throws when it has no such block. */
export function withView(source, view) {
  if (!BLOCK.test(source)) throw new Error('this one-file page has no place for a view (build it again: npm run build)');
  return source.replace(BLOCK, () => viewBlock(view));
}

// The problems of a saved view's head entry h (each naming its field), or [].
function headErrors(h) {
  if (h === null || typeof h !== 'object' || Array.isArray(h)) return ['head must be an object { name, base64 }'];
  const errors = [];
  if (typeof h.name !== 'string' || h.name === '' || h.name.length > MAX_NAME) errors.push(`head.name must be a file name of 1 to ${MAX_NAME} characters`);
  if (typeof h.base64 !== 'string' || h.base64 === '') errors.push('head.base64 must be the file\'s bytes in base64');
  else if (h.base64.length / 4 * 3 > MAX_SAVED_HEAD_BYTES + 2) errors.push(`head.base64 holds more than ${MAX_SAVED_HEAD_BYTES} bytes`);
  else if (!isBase64(h.base64)) errors.push('head.base64 must be the file\'s bytes in base64');
  return errors;
}

/**
 * Reads the text of a view block for `page`: { view, errors }. view is null for an empty block
 * ("null") or one that is not a view of this page; otherwise { link, head: { name, base64 } |
 * null, survey }, where a bad field is left out and named in errors ("Saved view: …"). Never throws.
 */
export function readView(text, page) {
  const errors = [];
  const say = (e) => errors.push(`Saved view: ${e}`);
  let v;
  try {
    v = JSON.parse(String(text ?? 'null'));
  } catch (e) {
    say(`the view is not JSON (${e.message}); the page opens without it`);
    return { view: null, errors };
  }
  if (v === null) return { view: null, errors };
  if (typeof v !== 'object' || Array.isArray(v)) return { view: null, errors: ['Saved view: the view must be an object; the page opens without it'] };
  if (v.format !== VIEW_FORMAT) say(`format must be "${VIEW_FORMAT}" (got ${JSON.stringify(v.format ?? null).slice(0, 40)}); the page opens without the view`);
  else if (v.page !== page) say(`page must be "${page}" (got ${JSON.stringify(v.page ?? null).slice(0, 40)}); the page opens without the view`);
  if (errors.length) return { view: null, errors };
  const view = { link: '', head: null, survey: false };
  if (v.link !== undefined) {
    if (typeof v.link === 'string' && v.link.length <= MAX_LINK && (v.link === '' || v.link.startsWith('#'))) view.link = v.link;
    else say(`link must be a link's text starting with "#" (at most ${MAX_LINK} characters); the page's defaults are used`);
  }
  if (v.head !== undefined && v.head !== null) {
    const bad = page === 'explorer' ? headErrors(v.head) : ['head belongs to explorer views only'];
    if (bad.length) bad.forEach((e) => say(`${e}; the view opens without the file`));
    else view.head = { name: v.head.name, base64: v.head.base64 };
  }
  if (v.survey !== undefined && typeof v.survey !== 'boolean') say('survey must be true or false');
  else view.survey = v.survey === true && view.head !== null;
  return { view, errors };
}

/**
 * Reads the saved view of `page`, if the document has one ({ link, head, survey } or null); its
 * problems go to setMessages('view', messages, 'error'), naming the field. A saved link is put in
 * the address (no history entry) unless the address has a link of its own: call it before the
 * page reads its link.
 */
export function readSavedView(page, setMessages) {
  const block = document.getElementById(VIEW_ID);
  if (!block) return null;
  const { view, errors } = readView(block.textContent, page);
  setMessages('view', errors, 'error');
  if (view && view.link && location.hash.replace(/^#/, '') === '') {
    // Absolute, from the document's own address: a notebook's frame (about:srcdoc) has another base.
    history.replaceState(null, '', `${location.href.replace(/#.*$/, '')}${view.link}`);
  }
  return view;
}

/** The bytes of a valid base64 text (readView checked it). */
export function fromBase64(b64) {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Base64 of bytes (an ArrayBuffer or a typed array), in chunks (no argument-count limit). */
export function toBase64(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ? bytes.buffer : bytes);
  let bin = '';
  for (let i = 0; i < u8.length; i += 0x8000) bin += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** A saved file's name from the view's words: "attnx-" + words joined by "-" + ".html", only
 *  letters, digits, dots and dashes (attnx-window-L64-d1776.html). */
export function oneFileName(words) {
  const safe = words.map((w) => String(w).replace(/[^A-Za-z0-9.]+/g, '-').replace(/^[-.]+|[-.]+$/g, '')).filter(Boolean);
  return `attnx-${safe.join('-')}.html`.slice(0, 200);
}

/** The text of the one-file page for `page`: this page's own (a one-file page), or the site's. */
export async function oneFileSource(page, fetchImpl = globalThis.fetch) {
  const own = ownSource();
  if (own) return own;
  const url = new URL(`../${ONE_FILE[page]}`, import.meta.url);
  let res;
  try {
    res = await fetchImpl(url);
  } catch (e) {
    throw new Error(`${ONE_FILE[page]} could not be loaded from the site (${e.message})`);
  }
  if (!res.ok) throw new Error(`${ONE_FILE[page]} is not on this site (HTTP ${res.status}); npm run build writes it beside the pages`);
  return res.text();
}

/** Offers `text` as a download named `name` (an HTML file). */
export function downloadHtml(text, name) {
  download(new Blob([text], { type: 'text/html' }), name);
}

/**
 * Saves the one-file page of `page` with a view: { link, head: { name, blob } | { name, bytes } |
 * null } (the model's file as a Blob, read only here, or as an ArrayBuffer; refused above
 * MAX_SAVED_HEAD_BYTES before it is read), downloaded as `name`. Resolves { name, size }.
 */
export async function saveOneFile(page, { link, head = null, survey = false }, name) {
  const size = head && (head.blob ? head.blob.size : head.bytes.byteLength);
  if (head && size > MAX_SAVED_HEAD_BYTES) {
    throw new Error(`${head.name} has ${size} bytes; a saved view carries a model's file of at most ${MAX_SAVED_HEAD_BYTES} bytes (save fewer layers or tokens in it and open that one)`);
  }
  const view = { format: VIEW_FORMAT, page, link };
  if (head) view.head = { name: head.name, base64: toBase64(head.bytes ?? await head.blob.arrayBuffer()) };
  if (survey) view.survey = true;
  const text = withView(await oneFileSource(page), view);
  downloadHtml(text, name);
  return { name, size: new Blob([text]).size };
}
