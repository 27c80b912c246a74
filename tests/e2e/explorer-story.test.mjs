// Lecture mode in headless Chromium: the "paper" story stepped with the arrow keys (titles, a new
// result per step, story and step in the link, the failing and succeeding verdicts the text
// names); every step of every built-in story with its placeholders filled (no brace left, each
// value the metrics card's text, the failing rows and the minimal d the API's in Node); "Find the
// minimal d" (the core's minD: compared with the API in Node); Play (stops after the flip, and on
// Stop); Reset; <attnx-explorer story="paper" step="2"> on another origin; and a lecturer's own
// story (story-src on the host page's origin, an inline JSON child; an oversized file and another
// origin refused with a message inside the element; a server that never ends the response: the
// figures are drawn at once, and the request is given up with a message naming story-src).
// Serves dist/ (or web/ when dist/ has not been built; run scripts/build-dist after editing web/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';
import { explorerTable, constructOptions } from '../../web/explorer/state.js';
import { toHash } from '../../web/common/hashstate.js';
import { sceneState, STORIES, STORY_NAMES } from '../../web/explorer/story.js';
import { PLACEHOLDERS } from '../../web/explorer/story-text.js';
import { rowRanges } from '../../web/explorer/views/figure-text.js';
import { notSearchable } from '../../web/explorer/d-search.js';
import { minDOptions, minDGrid, playSequence } from '../../web/explorer/d-search.js';
import { presetPatch } from '../../web/explorer/presets.js';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { reusedPage } from './page-reuse.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const storySteps = (name) => JSON.parse(readFileSync(join(here, '../../web/explorer/stories', STORIES[name].file), 'utf8'));
const steps = storySteps('paper');
let server, host, browser, dir, api, schema, table;

before(async () => {
  server = await startServer(servedDir(), 0);
  dir = mkdtempSync(join(tmpdir(), 'attnx-story-'));
  host = await startServer(dir, 0);
  browser = await launchChromium();
  api = await load({ flavour: 'simd' });
  schema = api.schema();
  table = explorerTable(schema);
});

// The link of the welcome state (schema.explorerWelcome at its minimal d, found by the API here):
// what a page opened without a link, and Reset, show.
function welcomeHash(extra = {}) {
  const p = presetPatch(schema, table, schema.explorerWelcome);
  const dMin = api.minD(minDOptions(schema, p.patch, null, minDGrid(schema, table, p.patch))).dMin;
  return toHash(table, { ...p.patch, d: dMin, ...extra }, { page: 'explorer', schema });
}

after(async () => {
  await browser?.close();
  await server?.close();
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openPage(hash) {
  const { context, page } = await reusedPage(browser, { viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(server.url + hash);
  return { context, page, problems };
}

const runsOf = (page) => page.evaluate(() => Number(document.documentElement.dataset.runs || 0));
async function ready(page, n) {
  await page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
    && document.documentElement.dataset.busy === '0', n, { timeout: 120000 });
}

// What the page shows: the story panel, the verdict, d and the link.
const shown = async (page) => ({ ...await page.evaluate(() => ({
  hidden: document.getElementById('story').hidden,
  title: document.querySelector('#story .story-title')?.textContent,
  count: document.querySelector('#story .story-count')?.textContent,
  success: document.querySelector('#metrics [data-metric="success"]')?.dataset.value,
  d: document.getElementById('f-d').value,
})), hash: await urlHash(page) });

test('the paper story steps with the arrow keys: titles, a result per step, the link, the verdicts', async () => {
  const { context, page, problems } = await openPage('#story=paper&step=1');
  await ready(page, 1);
  let s = await shown(page);
  assert.deepEqual([s.hidden, s.title, s.count], [false, steps[0].title, `Step 1 of ${steps.length}`]);
  assert.match(s.hash, /(^#|&)story=paper(&|$)/);
  assert.equal(s.d, String(steps[0].state.d));
  const verdicts = { 1: 'true', 3: 'false', 4: 'true', 6: 'false' };  // the steps whose text says so
  for (let n = 2; n <= steps.length; n++) {
    const before = await runsOf(page);
    await page.keyboard.press('ArrowRight');
    await ready(page, before + 1);
    await page.waitForFunction((t) => document.querySelector('#story .story-title').textContent === t, steps[n - 1].title);
    s = await shown(page);
    assert.equal(s.count, `Step ${n} of ${steps.length}`);
    assert.match(s.hash, new RegExp(`&story=paper&step=${n}$`), `the link carries step ${n}`);
    assert.equal(s.d, String(steps[n - 1].state.d));
    if (verdicts[n]) assert.equal(s.success, verdicts[n], `step ${n}'s verdict is the one its text names`);
  }
  // Bounds, keys inside a form field, and back.
  const last = await runsOf(page);
  await page.keyboard.press('ArrowRight');
  assert.equal((await shown(page)).count, `Step ${steps.length} of ${steps.length}`);
  await page.focus('#f-L');
  await page.keyboard.press('ArrowLeft');
  await page.evaluate(() => document.activeElement.blur());
  assert.equal(await runsOf(page), last, 'no step from a form field or past the end');
  await page.keyboard.press('PageUp');
  await ready(page, last + 1);
  assert.equal((await shown(page)).title, steps[steps.length - 2].title);
  const lab = await page.evaluate(() => document.querySelector('#story .story-text a')?.href);
  assert.equal(lab, `${server.url}lab.html#preset=paper&autorun=1`);
  // Ending the story leaves the view and drops story and step from the link.
  await page.click('#story .story-end');
  s = await shown(page);
  assert.equal(s.hidden, true);
  assert.doesNotMatch(s.hash, /story|step/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('"Find the minimal d" sets d to the core\'s minD; Play stops after the flip, and on Stop; Reset', async () => {
  const { context, page, problems } = await openPage('#v=1&pattern=window&L=64&w=1&d=64&help=0');
  await ready(page, 1);
  const st = sceneState(table, { pattern: 'window', L: 64, w: 1 });
  const want = api.minD(minDOptions(schema, st, null, minDGrid(schema, table))).dMin;
  let n = await runsOf(page);
  await page.click('#mind-btn');
  await page.waitForFunction(() => /^Minimal d/.test(document.getElementById('dsearch-msg').textContent), null, { timeout: 120000 });
  await ready(page, n + 1);
  let s = await shown(page);
  assert.equal(s.d, String(want));
  assert.match(s.hash, new RegExp(`&d=${want}&`));
  assert.equal(s.success, 'true');
  assert.match(await page.textContent('#dsearch-msg'), new RegExp(`^Minimal d = ${want}: `));
  // Play: from d = 8 upward, one drawn result per step, stops two steps after the first success.
  n = await runsOf(page);
  await page.click('#play-btn');
  await page.waitForFunction(() => /^The verdict flipped/.test(document.getElementById('dsearch-msg').textContent), null, { timeout: 180000 });
  await ready(page, n + 1);
  const ds = playSequence(table.d.max(st));
  const flip = ds.findIndex((d) => api.construct(constructOptions(schema, { ...st, d }, null)).metrics.success);
  assert.equal(await page.textContent('#dsearch-msg'), `The verdict flipped to success at d = ${ds[flip]} (d = ${ds[flip - 1]} still failed), and held up to d = ${ds[flip + 2]}.`);
  s = await shown(page);
  assert.deepEqual([s.d, s.success], [String(ds[flip + 2]), 'true']);
  assert.ok(await runsOf(page) >= n + flip + 3, 'every step was drawn');
  assert.equal(await page.isHidden('#dsearch-stop'), true);
  // Stop ends Play early.
  await page.click('#play-btn');
  await page.waitForFunction(() => /^Play: d = 16:/.test(document.getElementById('dsearch-msg').textContent), null, { timeout: 60000 });
  await page.click('#dsearch-stop');
  await page.waitForFunction(() => /^Stopped at d = \d+, no success yet\.$/.test(document.getElementById('dsearch-msg').textContent), null, { timeout: 60000 });
  assert.equal(await page.isEnabled('#play-btn'), true);
  // Reset: the welcome state at its minimal d.
  n = await runsOf(page);
  await page.click('#reset-btn');
  await ready(page, n + 1);
  assert.equal((await shown(page)).hash, welcomeHash());
  assert.deepEqual(problems, []);
  await context.close();
});

test('a preset and Reset end the story; the story menu starts it', async () => {
  const { context, page, problems } = await openPage('#story=paper&step=3');
  await ready(page, 1);
  assert.equal((await shown(page)).title, steps[2].title);
  await page.selectOption('#preset-select', 'bigbird');
  await ready(page, 2);
  let s = await shown(page);
  assert.deepEqual([s.hidden, s.d, s.success], [true, '1856', 'true']);
  assert.match(s.hash, /pattern=bigbird/);
  await page.selectOption('#story-select', 'paper');
  await ready(page, 3);
  assert.equal((await shown(page)).title, steps[0].title);
  await page.click('#reset-btn');
  await ready(page, 4);
  s = await shown(page);
  assert.equal(s.hidden, true);
  assert.equal(s.hash, welcomeHash());
  assert.deepEqual(problems, []);
  await context.close();
});

test("a link's step beyond the story is reported until a step is taken or a link without a story is read", async () => {
  const n = steps.length, beyond = `step ${n + 1}: the story "paper" has ${n} steps; step ${n} is shown`;
  const { context, page, problems } = await openPage(`#story=paper&step=${n + 1}`);
  await ready(page, 1);
  assert.equal((await shown(page)).title, steps[n - 1].title);
  assert.match(await page.textContent('#messages'), new RegExp(beyond.replace(/[()]/g, '\\$&')));
  await page.keyboard.press('ArrowLeft');
  await ready(page, 2);
  assert.equal((await shown(page)).title, steps[n - 2].title);
  assert.doesNotMatch(await page.textContent('#messages'), /the story "paper" has/, 'a step taken clears it');
  await page.evaluate((h) => { location.hash = h; }, `#story=paper&step=${n + 1}`);
  await ready(page, 3);
  assert.match(await page.textContent('#messages'), /the story "paper" has/);
  await page.evaluate(() => { location.hash = '#v=2&L=64'; });
  await ready(page, 4);
  assert.equal((await shown(page)).hidden, true);
  assert.equal(await page.textContent('#messages'), '', 'a link without a story clears it');
  await page.evaluate((h) => { location.hash = h; }, `#story=paper&step=${n + 1}`);
  await ready(page, 5);
  assert.match(await page.textContent('#messages'), /the story "paper" has/);
  await page.selectOption('#preset-select', 'bigbird');
  await ready(page, 6);
  assert.equal((await shown(page)).hidden, true);
  assert.equal(await page.textContent('#messages'), '', 'a preset ends the story and clears it');
  assert.deepEqual(problems, []);
  await context.close();
});

test('<attnx-explorer story="paper" step="2"> shows step 2 and steps inside its shadow root', async () => {
  writeFileSync(join(dir, 'story.html'), `<!doctype html><html><head><meta charset="utf-8">
<script type="module" src="${server.url}embed/attnx.js"></script></head><body>
<attnx-explorer id="s" story="paper" step="2" figures="A,M,metrics"></attnx-explorer></body></html>`);
  const { context, page } = await reusedPage(browser, { viewport: { width: 900, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.url}story.html`);
  await page.waitForFunction(() => document.getElementById('s')?.runs >= 1, null, { timeout: 60000 });
  const inside = () => page.evaluate(() => {
    const root = document.getElementById('s').shadowRoot;
    return {
      title: root.querySelector('.story-title')?.textContent, count: root.querySelector('.story-count')?.textContent,
      d: document.getElementById('s').st.d, lab: root.querySelector('.story-text a')?.href,
    };
  });
  let r = await inside();
  assert.deepEqual([r.title, r.count, r.d], [steps[1].title, `Step 2 of ${steps.length}`, steps[1].state.d]);
  await page.evaluate(() => document.getElementById('s').shadowRoot.querySelector('.story-next').focus());
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => document.getElementById('s').shadowRoot.querySelector('.story-title').textContent === t, steps[4].title, { timeout: 60000 });
  r = await inside();
  assert.equal(r.d, steps[4].state.d);
  assert.equal(r.lab, `${server.url}lab.html#preset=paper&autorun=1`, 'links in a step lead to the site, not the host page');
  assert.deepEqual(errors, []);
  await context.close();
});

// The placeholders shown in the story panel and the metrics card's text of each ({ name, text, card }).
const filled = (page) => page.evaluate(() => {
  const cardOf = (key) => {
    if (key === 'dLambda') return document.querySelector('#metrics .metric.floor[data-key="dLambda"] .m-value')?.textContent ?? null;
    const e = document.querySelector(`#metrics [data-metric="${key === 'dStar' ? 'd' : key}"]`);
    if (!e) return null;
    return key === 'd' ? e.textContent.split(' / ')[0] : key === 'dStar' ? e.textContent.split(' / ')[1] : e.textContent;
  };
  return {
    text: document.querySelector('#story .story-text').textContent,
    values: [...document.querySelectorAll('#story [data-placeholder]')].map((s) => ({ name: s.dataset.placeholder, text: s.textContent })),
    card: Object.fromEntries(['rho', 'zeta', 'lambda', 'k', 'maxColCount', 'd', 'dStar', 'inputNorm', 'fp32', 'fp64', 'bits', 'dLambda'].map((k) => [k, cardOf(k)])),
  };
});

// What the API computes for a step's state: its failing rows as ranges and its minimal d.
function expected(state) {
  const st = sceneState(table, state);
  const r = api.construct(constructOptions(schema, st, null));
  const bad = [...r.rows.okR].flatMap((ok, i) => (ok && r.rows.okZ[i] ? [] : [i]));
  const dMin = notSearchable(schema, st) ? null : api.minD(minDOptions(schema, st, null, minDGrid(schema, table, st))).dMin;
  return { failing_rows: bad.length ? rowRanges(bad) : 'none', failing_count: String(bad.length), dmin: dMin === null ? null : dMin.toLocaleString('en-US') };
}

for (const name of STORY_NAMES) {
  test(`every step of the "${name}" story: no placeholder left, each value the metrics card's`, async () => {
    const all = storySteps(name);
    const { context, page, problems } = await openPage(`#story=${name}&step=1`);
    for (let n = 1; n <= all.length; n++) {
      if (n > 1) await page.keyboard.press('ArrowRight');
      await page.waitForFunction((n) => document.getElementById('story').dataset.step === String(n) && document.getElementById('story').dataset.pending === '0'
        && document.documentElement.dataset.busy === '0', n, { timeout: 180000 });
      const f = await filled(page);
      assert.doesNotMatch(f.text, /[{}]|undefined|NaN|…/, `step ${n}: ${f.text}`);
      const names = [...all[n - 1].text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      assert.deepEqual(f.values.map((v) => v.name), names, `step ${n}: every placeholder is shown`);
      const want = expected(all[n - 1].state);
      for (const v of f.values) {
        const card = PLACEHOLDERS[v.name].card;
        if (card === 'fp32' || card === 'fp64') assert.equal(f.card[card], `${v.text === 'holds' ? '✓' : '✗'} ${v.text}`, `step ${n}: {${v.name}}`);
        else if (card) assert.equal(v.text, f.card[card], `step ${n}: {${v.name}} is the card's ${card}`);
        if (v.name in want && want[v.name] !== null) assert.equal(v.text, want[v.name], `step ${n}: {${v.name}} is the API's`);
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// A host page on the test's other origin with one <attnx-explorer id="s"> (attrs, children).
async function hostPage(file, attrs, children = '') {
  writeFileSync(join(dir, file), `<!doctype html><html><head><meta charset="utf-8">
<script type="module" src="${server.url}embed/attnx.js"></script></head><body>
<attnx-explorer id="s" ${attrs} figures="A,M,metrics">${children}</attnx-explorer></body></html>`);
  const { context, page } = await reusedPage(browser, { viewport: { width: 900, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.url}${file}`);
  await page.waitForFunction(() => document.getElementById('s')?.runs >= 1, null, { timeout: 60000 });
  return { context, page, errors };
}

// The element's story panel and messages.
const ownStory = (page) => page.evaluate(() => {
  const el = document.getElementById('s'), root = el.shadowRoot;
  return {
    hidden: root.getElementById('story').hidden, title: root.querySelector('.story-title')?.textContent,
    count: root.querySelector('.story-count')?.textContent, text: root.querySelector('.story-text')?.textContent,
    pending: root.getElementById('story').dataset.pending, messages: root.getElementById('messages').textContent,
    d: el.st.d, link: el.link, story: el.st.story,
  };
});

const LECTURE = [
  { title: 'A window at d = 512', text: 'ρ = {rho}, ζ = {zeta}; failing rows: {failing_rows}.', state: { pattern: 'window', L: 64, w: 1, d: 512 } },
  { title: 'More d', text: 'At d = {d}: (Z) {Z}.', state: { pattern: 'window', L: 64, w: 1, d: 1216 } },
  { title: 'The minimal d', text: 'The search finds {dmin}.', state: { pattern: 'window', L: 64, w: 1, d: 1216 } },
];

test('<attnx-explorer story-src> loads a story file from the host page\'s own origin; the link leaves it out', async () => {
  writeFileSync(join(dir, 'lecture.json'), JSON.stringify(LECTURE));
  const { context, page, errors } = await hostPage('src.html', 'story-src="lecture.json" step="1"');
  await page.waitForFunction(() => document.getElementById('s').shadowRoot.getElementById('story').dataset.pending === '0', null, { timeout: 60000 });
  const r = await ownStory(page);
  const bad = rowRanges([18, 19, 30, 31, 33, 36, 37, 42, 44, 45, 46, 47, 61, 62]);
  assert.deepEqual([r.hidden, r.title, r.count, r.d, r.messages], [false, LECTURE[0].title, 'Step 1 of 3', 512, '']);
  assert.match(r.text, new RegExp(`failing rows: ${bad}\\.$`));
  assert.doesNotMatch(r.link, /story|step/, 'a link never names a story file');
  await page.evaluate(() => document.getElementById('s').shadowRoot.querySelector('.story-next').click());
  await page.waitForFunction(() => document.getElementById('s').st.d === 1216, null, { timeout: 60000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('an inline <script type="application/json"> story works; an invalid one names the step and field inside the element', async () => {
  const json = JSON.stringify(LECTURE).replace(/</g, '\\u003c');
  let { context, page, errors } = await hostPage('inline.html', 'step="2"', `<script type="application/json">${json}</script>`);
  await page.waitForFunction(() => document.getElementById('s').shadowRoot.getElementById('story').dataset.pending === '0', null, { timeout: 60000 });
  let r = await ownStory(page);
  assert.deepEqual([r.title, r.count, r.d, r.text], [LECTURE[1].title, 'Step 2 of 3', 1216, 'At d = 1,216: (Z) holds.']);
  await context.close();
  const bad = JSON.stringify([LECTURE[0], { ...LECTURE[1], text: 'ρ = {rh0}.' }]);
  ({ context, page, errors } = await hostPage('inline-bad.html', '', `<script type="application/json">${bad}</script>`));
  await page.waitForFunction(() => /rh0/.test(document.getElementById('s').shadowRoot.getElementById('messages').textContent), null, { timeout: 60000 });
  r = await ownStory(page);
  assert.equal(r.hidden, true);
  assert.match(r.messages, /the inline story \(<script type="application\/json">\), step 2 \("More d"\): text: unknown placeholder \{rh0\}/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('story-src: an oversized file and another origin give a message inside the element naming story-src', async () => {
  writeFileSync(join(dir, 'huge.json'), JSON.stringify(LECTURE).padEnd(300 * 1024, ' '));
  for (const [file, src, message] of [
    ['huge.html', 'huge.json', /story-src "huge\.json" (is 30[01] KB; a story file may be at most 256 KB|is larger than 256 KB)/],
    ['cross.html', `${server.url}explorer/stories/paper.json`, /story-src must be a URL on this page's own origin \(http:\/\/127\.0\.0\.1:\d+\)/],
  ]) {
    const { context, page, errors } = await hostPage(file, `story-src="${src}"`);
    await page.waitForFunction(() => /story-src/.test(document.getElementById('s').shadowRoot.getElementById('messages').textContent), null, { timeout: 60000 });
    const r = await ownStory(page);
    assert.match(r.messages, message, file);
    assert.deepEqual([r.hidden, r.story], [true, ''], `${file}: no story, the explorer still works`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

// A host origin whose stall.json never ends its response (headers and one byte, then nothing);
// pages are the test's own. closed: a promise per request, resolved when the browser drops it.
async function stallingHost(pages) {
  const closed = [];
  const srv = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname.slice(1);
    if (path === 'stall.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      closed.push(new Promise((done) => req.socket.on('close', done)));
      return;
    }
    if (!(path in pages)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[path]);
  });
  await new Promise((done) => srv.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${srv.address().port}/`;
  return { url, closed, close: () => { srv.closeAllConnections(); return new Promise((done) => srv.close(done)); } };
}

// The host page of an element with story-src="stall.json" whose story requests give up after ms.
const stallPage = (ms) => `<!doctype html><html><head><meta charset="utf-8">
<script type="module">customElements.whenDefined('attnx-explorer').then((C) => { C.storyTimeoutMs = ${ms}; });</script>
<script type="module" src="${server.url}embed/attnx.js"></script></head><body>
<attnx-explorer id="s" story-src="stall.json" d="640" figures="A,M,metrics"></attnx-explorer></body></html>`;

test('story-src whose server never ends the response: the figures are drawn at once, the request is given up naming story-src', async () => {
  // The story's timeout is injected (AttnxExplorer.storyTimeoutMs; the element's own is 15 s):
  // an hour while the figures are awaited (the story cannot load before them), 0.3 s after.
  const stall = await stallingHost({ 'wait.html': stallPage(3600000), 'give-up.html': stallPage(300) });
  try {
    let context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    let page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${stall.url}wait.html`);
    await page.waitForFunction(() => document.getElementById('s')?.runs >= 1, null, { timeout: 60000 });
    let r = await ownStory(page);
    assert.deepEqual([r.d, r.story, r.hidden, r.messages], [640, '', true, ''], 'drawn while the story is still loading');
    await context.close();
    context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${stall.url}give-up.html`);
    await page.waitForFunction(() => /story-src/.test(document.getElementById('s').shadowRoot.getElementById('messages').textContent), null, { timeout: 60000 });
    await page.waitForFunction(() => document.getElementById('s')?.runs >= 1, null, { timeout: 60000 });
    r = await ownStory(page);
    assert.match(r.messages, /story-src "stall\.json" could not be loaded: no complete answer within 0\.3 s/);
    assert.deepEqual([r.d, r.story, r.hidden], [640, '', true]);
    assert.equal(stall.closed.length, 2, 'each page asked once');
    // The given-up request is dropped (a guard of 30 s, not a measure: it is closed at once).
    const dropped = await Promise.race([stall.closed[1].then(() => true), new Promise((done) => setTimeout(done, 30000, false))]);
    assert.ok(dropped, 'the browser closed the stalled request');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await stall.close();
  }
});
