// attnx explorer: a lecturer's own story for <attnx-explorer>, DOM-free. Two ways in:
//
//   <attnx-explorer story-src="lecture.json"></attnx-explorer>
//       a story file on the page's own origin, fetched without credentials, at most
//       MAX_STORY_BYTES (256 KB), given up after STORY_TIMEOUT_MS (15 s) without its whole body
//       (a server that never ends the response); the figures do not wait for it;
//   <attnx-explorer><script type="application/json">[ …steps… ]</script></attnx-explorer>
//       the story inline, as the element's child (same cap).
//
// Both are checked by story.js's parseStory, like a built-in story. A page link never names such a
// story: links name built-in stories only. Every failure is { errors: [message] }, each message
// naming the attribute (story-src) or the inline story, and the step and field when the story is
// invalid. Nothing here throws or rejects.
import { parseStory } from './story.js';

export const MAX_STORY_BYTES = 256 * 1024;
// How long a story file may take, from the request to the end of its body.
export const STORY_TIMEOUT_MS = 15000;
// The story names an element's state holds for its own stories (no built-in story has them, so a
// link never carries them).
export const SRC_STORY = 'story-src';
export const INLINE_STORY = 'inline';

const kb = (n) => `${Math.ceil(n / 1024)} KB`;

// The URL of story-src `src` on the page at pageUrl (relative to baseUrl, the document's base):
// { url } or { error } (not a URL, not http(s), another origin).
export function storySrcUrl(src, pageUrl, baseUrl = pageUrl) {
  let url, page;
  try {
    page = new URL(pageUrl);
    url = new URL(String(src), baseUrl);
  } catch {
    return { error: `story-src "${String(src).slice(0, 80)}" is not a URL` };
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== page.origin) {
    return { error: `story-src must be a URL on this page's own origin (${page.origin}); "${String(src).slice(0, 80)}" is not` };
  }
  return { url };
}

// The body of fetch response res as text, reading at most max bytes: { text } or { error }.
async function cappedText(res, max) {
  const declared = Number(res.headers && res.headers.get ? res.headers.get('content-length') : NaN);
  if (Number.isFinite(declared) && declared > max) return { error: `is ${kb(declared)}; a story file may be at most ${kb(max)}` };
  if (!res.body || !res.body.getReader) {
    const text = await res.text();
    const n = new TextEncoder().encode(text).length;
    return n > max ? { error: `is ${kb(n)}; a story file may be at most ${kb(max)}` } : { text };
  }
  const reader = res.body.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > max) {
      reader.cancel().catch(() => {});
      return { error: `is larger than ${kb(max)}, the most a story file may be` };
    }
    chunks.push(value);
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  return { text: new TextDecoder().decode(all) };
}

// A story's JSON text checked like a built-in story's: { story } or { errors }. where: how
// messages name it.
export function parseStoryText(name, text, table, where, max = MAX_STORY_BYTES) {
  const n = new TextEncoder().encode(String(text)).length;
  if (n > max) return { errors: [`${where} is ${kb(n)}; a story may be at most ${kb(max)}`] };
  let data;
  try {
    data = JSON.parse(String(text).replace(/^\ufeff/, ''));
  } catch (e) {
    return { errors: [`${where} is not valid JSON (${String(e && e.message).slice(0, 120)})`] };
  }
  return parseStory(name, data, table, where);
}

// The inline story (the text of the element's <script type="application/json"> child).
export function parseInlineStory(text, table) {
  return parseStoryText(INLINE_STORY, text, table, 'the inline story (<script type="application/json">)');
}

// Loads story-src `src` for the page at pageUrl (baseUrl: its base, for a relative src): same
// origin only, no credentials, at most max bytes within timeoutMs (then the request is aborted:
// "story-src "x" could not be loaded: no complete answer within 15 s"), then parseStory.
// Resolves { story } or { errors }. fetchImpl: fetch (tests pass another; it gets the signal).
export async function loadStorySource(src, table, { pageUrl, baseUrl = pageUrl, fetchImpl = globalThis.fetch, max = MAX_STORY_BYTES, timeoutMs = STORY_TIMEOUT_MS } = {}) {
  const u = storySrcUrl(src, pageUrl, baseUrl);
  if (u.error) return { errors: [u.error] };
  const where = `story-src "${String(src).slice(0, 80)}"`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let body;
  try {
    const res = await fetchImpl(u.url.href, { credentials: 'omit', mode: 'same-origin', cache: 'no-cache', signal: abort.signal });
    if (!res.ok) return { errors: [`${where} could not be loaded: HTTP ${res.status}`] };
    body = await cappedText(res, max);
  } catch (e) {
    const why = abort.signal.aborted ? `no complete answer within ${timeoutMs / 1000} s` : String(e && e.message ? e.message : e).slice(0, 120);
    return { errors: [`${where} could not be loaded: ${why}`] };
  } finally {
    clearTimeout(timer);
  }
  if (body.error) return { errors: [`${where} ${body.error}`] };
  return parseStoryText(SRC_STORY, body.text, table, where, max);
}
