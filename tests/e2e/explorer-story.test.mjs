// Lecture mode in headless Chromium: the "paper" story stepped with the arrow keys (titles, a new
// result per step, story and step in the link, the failing and succeeding verdicts the text
// names); "Find the minimal d" (the core's minD: compared with the API in Node); Play (stops after
// the flip, and on Stop); Reset; and <attnx-explorer story="paper" step="2"> on another origin.
// Serves dist/ (or web/ when dist/ has not been built; run scripts/build-dist after editing web/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';
import { explorerTable, constructOptions } from '../../web/explorer/state.js';
import { toHash } from '../../web/common/hashstate.js';
import { sceneState } from '../../web/explorer/story.js';
import { minDOptions, minDGrid, playSequence } from '../../web/explorer/d-search.js';
import { presetPatch } from '../../web/explorer/presets.js';
import { urlHash } from '../../scripts/explorer-url.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const steps = JSON.parse(readFileSync(join(here, '../../web/explorer/stories/paper.json'), 'utf8'));
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
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
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

test('<attnx-explorer story="paper" step="2"> shows step 2 and steps inside its shadow root', async () => {
  writeFileSync(join(dir, 'story.html'), `<!doctype html><html><head><meta charset="utf-8">
<script type="module" src="${server.url}embed/attnx.js"></script></head><body>
<attnx-explorer id="s" story="paper" step="2" figures="A,M,metrics"></attnx-explorer></body></html>`);
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
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
