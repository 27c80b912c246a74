// The embedding helpers without a browser: the height messages a framed page posts
// (web/common/embed-height.js, with a stand-in window) and the snippet a host pastes
// (web/common/embed-snippet.js), whose resize script is run here against stand-in frames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { heightReporter, watchHeight, HEIGHT_MESSAGE } from '../../web/common/embed-height.js';
import { frameSnippet, RESIZE_SCRIPT, FIXED_HEIGHT } from '../../web/common/embed-snippet.js';

test('a height is posted rounded up to whole pixels, and only when it changed', () => {
  const sent = [];
  const report = heightReporter('lab', (m) => sent.push(m));
  assert.equal(report(400.2), true);
  assert.equal(report(400.9), false, 'same whole height');
  assert.equal(report(401), false);
  assert.equal(report(NaN), false);
  assert.equal(report(0), false);
  assert.equal(report(-5), false);
  assert.equal(report(Infinity), false);
  assert.equal(report(380), true);
  assert.deepEqual(sent, [
    { type: 'attnx-height', page: 'lab', height: 401 },
    { type: 'attnx-height', page: 'lab', height: 380 },
  ]);
  assert.equal(HEIGHT_MESSAGE, 'attnx-height');
});

// A stand-in window whose document's content is `box.h` px tall; ResizeObserver callbacks are
// fired by hand (resize()).
function fakeWindow({ framed = true } = {}) {
  const box = { h: 500 };
  const observers = [];
  const posted = [];
  const rect = () => ({ top: 0, height: box.h, bottom: box.h });
  const doc = {
    documentElement: { getBoundingClientRect: rect },
    body: { getBoundingClientRect: () => ({ top: 0, height: box.h - 10, bottom: box.h - 10 }) },
  };
  const win = {
    document: doc,
    ResizeObserver: class {
      constructor(fn) { this.fn = fn; this.targets = []; observers.push(this); }
      observe(t) { this.targets.push(t); }
      disconnect() { this.targets = []; }
    },
  };
  doc.defaultView = { getComputedStyle: () => ({ marginBottom: '0px' }) };
  win.parent = framed ? { postMessage: (m, origin) => posted.push([m, origin]) } : win;
  const resize = (h) => {
    box.h = h;
    for (const o of observers) if (o.targets.length) o.fn([]);
  };
  return { win, posted, observers, resize };
}

test('a framed page posts its height to the parent with target origin *, again when it changes', () => {
  const { win, posted, observers, resize } = fakeWindow();
  const stop = watchHeight('explorer', win);
  assert.deepEqual(posted, [[{ type: 'attnx-height', page: 'explorer', height: 500 }, '*']]);
  assert.deepEqual(observers[0].targets, [win.document.documentElement, win.document.body]);
  resize(500);
  assert.equal(posted.length, 1, 'unchanged height: nothing posted');
  resize(612.5);
  assert.deepEqual(posted[1], [{ type: 'attnx-height', page: 'explorer', height: 613 }, '*']);
  stop();
  resize(700);
  assert.equal(posted.length, 2, 'stopped: nothing posted');
});

test('a page that is not in a frame posts nothing and observes nothing', () => {
  const { win, observers } = fakeWindow({ framed: false });
  win.parent = win;
  const stop = watchHeight('lab', win);
  assert.equal(observers.length, 0);
  assert.equal(typeof stop, 'function');
});

test('the snippet: an escaped iframe with the page\'s fixed height, then the resize script', () => {
  const src = 'https://example.org/attnx/lab.html#v=1&embed=1&x="<b>"';
  const s = frameSnippet({ src, title: 'a "lab" & <more>', page: 'lab' });
  const [frame, ...rest] = s.split('\n');
  assert.equal(frame, '<iframe src="https://example.org/attnx/lab.html#v=1&amp;embed=1&amp;x=&quot;&lt;b&gt;&quot;" '
    + `title="a &quot;lab&quot; &amp; &lt;more&gt;" width="720" height="${FIXED_HEIGHT.lab}" style="border:0;max-width:100%" loading="lazy"></iframe>`);
  assert.equal(rest.join('\n'), RESIZE_SCRIPT);
  assert.match(frameSnippet({ src, title: 't', page: 'explorer' }), new RegExp(` height="${FIXED_HEIGHT.explorer}" `));
  assert.match(frameSnippet({ src, title: 't', page: 'lab', height: 333 }), / height="333" /);
  assert.ok(FIXED_HEIGHT.explorer > 0 && FIXED_HEIGHT.lab > 0);
});

// The explorer's <iframe> line of a markdown text with the snippet's fixed height, or null.
function explorerFrameOf(text) {
  return text.match(new RegExp(`<iframe src="[^"]*/index\\.html#[^"]*embed=1[^"]*"[^>]*height="${FIXED_HEIGHT.explorer}"[^\\n]*`))?.[0] ?? null;
}

test('the README and docs/embedding.md show the same resize script and fixed heights', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const embedding = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(RESIZE_SCRIPT), 'README has the resize script');
  assert.ok(embedding.includes(RESIZE_SCRIPT), 'docs/embedding.md has the resize script');
  for (const [page, file] of [['explorer', 'index'], ['lab', 'lab']]) {
    assert.match(embedding, new RegExp(`<iframe src="[^"]*/${file}\\.html#[^"]*embed=1[^"]*"[^>]*height="${FIXED_HEIGHT[page]}"`), page);
  }
  assert.ok(explorerFrameOf(readme), 'README has the explorer\'s iframe with its fixed height');
  assert.equal(explorerFrameOf(readme), explorerFrameOf(embedding), 'the README\'s example is docs/embedding.md\'s');
});

// Runs RESIZE_SCRIPT's code with stand-in frames; returns the message listener it registered.
function hostListener(frames) {
  const code = RESIZE_SCRIPT.replace(/^<script>|<\/script>$/g, '');
  let listener = null;
  const document = { querySelectorAll: (sel) => (sel === 'iframe' ? frames : []) };
  new Function('addEventListener', 'document', code)((type, fn) => { if (type === 'message') listener = fn; }, document);
  assert.equal(typeof listener, 'function', 'the script listens for message events');
  return listener;
}

test('the resize script sizes only the frame whose window sent the message, only for attnx-height', () => {
  const a = { contentWindow: {}, style: {} }, b = { contentWindow: {}, style: {} };
  const on = hostListener([a, b]);
  on({ source: b.contentWindow, data: { type: 'attnx-height', page: 'lab', height: 812 } });
  assert.deepEqual([a.style.height, b.style.height], [undefined, '812px']);
  on({ source: a.contentWindow, data: { type: 'other', height: 50 } });
  on({ source: a.contentWindow, data: 'attnx-height' });
  on({ source: a.contentWindow, data: null });
  on({ source: a.contentWindow, data: { type: 'attnx-height', height: -3 } });
  on({ source: a.contentWindow, data: { type: 'attnx-height', height: 'tall' } });
  on({ source: {}, data: { type: 'attnx-height', height: 90 } });
  assert.deepEqual([a.style.height, b.style.height], [undefined, '812px']);
  on({ source: a.contentWindow, data: { type: 'attnx-height', page: 'explorer', height: 640.2 } });
  assert.equal(a.style.height, '641px');
});
