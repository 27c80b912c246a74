// attnx: the explorer-stories surface of scripts/fuzz-web.mjs: one <attnx-explorer> on a host page
// of the served site's own origin, with a hostile story (story-src, an inline JSON child, the
// story and step attributes: scripts/fuzz-web-inputs.mjs storyCase). The host page and the story
// file are answered by the browser context (page.route), nothing else leaves the test server;
// fz-stall.json is never answered, and the element gives it up after STALL_TIMEOUT_MS (its own
// 15 s shortened through AttnxExplorer.storyTimeoutMs, as the browser test does).
// A case ends as ok, refused (a message inside the element) or BAD: a page error, a console
// error, an unhandled rejection, a crash, user text rendered as HTML, NaN, "undefined" or a
// placeholder's braces shown, or no idle element within the per-case guard.

import { FuzzHost, withinGuard } from './fuzz-web-host.mjs';

const HOST = 'fz-story-host.html';
const STALL_TIMEOUT_MS = 2000;

// Before the page's scripts: the element's story timeout, shortened (see the top of this file).
function shortTimeout(ms) {
  customElements.whenDefined('attnx-explorer').then((C) => { C.storyTimeoutMs = ms; });
}

// Escapes text for an HTML attribute value or a <script type="application/json"> child.
const attr = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const scriptText = (s) => String(s).replace(/<\//g, '<\\/').replace(/<!--/g, '<\\!--');

// The host page of case c (the element loads the site's embed module).
function hostHtml(c) {
  const attrs = c.attrs.map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${attr(v)}"`)).join('');
  const child = c.how === 'inline' ? `<script type="application/json">${scriptText(c.text)}</script>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fz</title>
<script type="module" src="embed/attnx.js"></script></head><body>
<attnx-explorer id="fz"${attrs} figures="A,M,metrics">${child}</attnx-explorer></body></html>`;
}

// The story file case c gives its element (the inline child, or the served fz-story.json named
// by story-src), else '' (a built-in story, or a source refused or not found).
export function givenStory(c) {
  const src = c.attrs.find(([k]) => k === 'story-src');
  return c.how === 'inline' || (src && /fz-story\.json$/.test(src[1])) ? String(c.text ?? '') : '';
}

/** The host of the explorer-stories surface (one context and page for its cases: FuzzHost). */
export function storyHost(browser, baseUrl) {
  return new FuzzHost(browser, baseUrl, { host: HOST, viewport: { width: 1000, height: 800 }, init: [shortTimeout, STALL_TIMEOUT_MS] });
}

// Opens case c's host page (a new document of host); records problems in events.
async function openCase(host, c, events) {
  const { baseUrl } = host;
  return host.open((url) => {
    if (url === `${baseUrl}${HOST}`) return { contentType: 'text/html', body: hostHtml(c) };
    if (/\/fz-story\.json$/.test(new URL(url).pathname)) return { contentType: 'application/json', body: c.text };
    if (/\/fz-stall\.json$/.test(new URL(url).pathname)) return { stall: true };
    return null;
  }, events);
}

// What the element shows once idle (computed, its story loaded or refused: the figures are drawn
// before a story file has arrived, so its own story must have settled too).
async function elementShown(page, timeout) {
  await page.waitForFunction(() => {
    const el = document.getElementById('fz');
    const box = el && el.shadowRoot && el.shadowRoot.querySelector('[data-busy]');
    const story = el && el.shadowRoot && el.shadowRoot.getElementById('story');
    const loading = el && el.ctl && el.ctl.story.pending.size > 0;
    return el && el.runs >= 1 && !loading && box && box.dataset.busy === '0' && story && (story.hidden || story.dataset.pending === '0');
  }, null, { timeout, polling: 100 });
  return page.evaluate(() => {
    const root = document.getElementById('fz').shadowRoot;
    const text = (id) => (root.getElementById(id) || { textContent: '' }).textContent;
    return {
      injected: !!(document.querySelector('[data-fz]') || root.querySelector('[data-fz]')),
      story: root.getElementById('story').hidden ? '' : text('story'), shown: `${text('metrics')} | ${text('summary')}`,
      msgs: [...root.querySelectorAll('#messages li')].map((li) => li.textContent).slice(0, 4), rej: window.__rej.slice(),
    };
  });
}

// The BAD reasons of snapshot s of a case whose element was given the story file `said` (the
// text it may show verbatim: givenStory). A story shows its own titles and text as written, so a
// "NaN" or "undefined" the file holds (a damaged "Step 1" can become "Step NaN") is the author's,
// as many times as the file holds it; any more in the story, or any in the computed metrics and
// summary, is BAD.
export function badReasons(s, events, said = '') {
  const r = [...events, ...s.rej.map((v) => `unhandled rejection: ${v}`)];
  if (s.injected) r.push('user text rendered as HTML ([data-fz] element in the page)');
  const count = (text, word) => text.split(word).length - 1;
  const word = /NaN|undefined/.exec(s.shown)?.[0] ?? ['NaN', 'undefined'].find((w) => count(s.story, w) > count(said, w));
  if (word) r.push(`"${word}" shown`);
  const brace = /\{[A-Za-z_]\w*\}/.exec(s.story);
  if (brace) r.push(`a placeholder left in the story: ${brace[0]}`);
  return r;
}

/** Runs story case c on host (storyHost); never throws. Returns { outcome, reasons, said }. A case
 *  that ends BAD closes the host's context (the next case starts a new one). */
export async function runStoryCase(host, c, timeout) {
  const events = [];
  let r;
  try {
    const open = await openCase(host, c, events);
    const s = await withinGuard(elementShown(open.page, timeout), timeout + 5000, `no idle element within ${timeout / 1000} s`);
    const reasons = badReasons(s, events, givenStory(c));
    r = { outcome: reasons.length ? 'BAD' : s.msgs.length ? 'refused' : 'ok', reasons, said: (s.msgs[0] || '').slice(0, 160) };
  } catch (e) {
    r = { outcome: 'BAD', reasons: [...events, `no result: ${String(e.message).split('\n')[0].slice(0, 200)}`], said: '' };
  }
  if (r.outcome === 'BAD') await host.close();
  return r;
}
