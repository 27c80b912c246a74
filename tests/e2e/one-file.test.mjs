// The one-file pages (issue 45) in headless Chromium: dist/attnx.html and dist/attnx-lab.html
// opened from file:// in an offline context that blocks and records every network request,
// against the served site (dist/ over http): the same figures (their pixels), verdict and numbers
// for every construction, "Find the minimal d", presentation mode, lecture mode (its stories and
// the sample head inside the file), a model head opened from a
// local file (numbers equal to the module's in Node), export; "Save as one file" from the served
// page and from a saved file, each reopening offline to the same numbers with its model head; a
// bad saved view named field by field; a browser without WebAssembly SIMD told so plainly.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { useSite } from './site-harness.mjs';
import { downloadBytes, servedDir } from '../../scripts/chromium.mjs';
import { load } from '../../web/lib/attnx.js';

const site = useSite();
const SAMPLE_PATH = fileURLToPath(new URL('../../examples/heads.npy', import.meta.url));
const SAMPLE = readFileSync(SAMPLE_PATH);
const VIEWPORT = { width: 1280, height: 900 };
let api, tmp;

before(async () => {
  api = await load({ flavour: 'simd' });
  tmp = mkdtempSync(join(tmpdir(), 'attnx-one-file-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

// A page of `context` at `url`, its page errors, dialogs and console errors collected.
async function watched(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.goto(url);
  return { page, problems };
}

// An offline context that refuses and records every request but for a local file (file:) and
// what the page makes itself (blob:, data:): a one-file page needs nothing else.
async function offline() {
  const context = await site.browser.newContext({ viewport: VIEWPORT, offline: true, acceptDownloads: true });
  const requests = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(file|blob|data):/.test(url)) return route.continue();
    requests.push(url);
    return route.abort();
  });
  return { context, requests };
}

const fileUrl = (path, hash = '') => pathToFileURL(path).href + hash;
const oneFile = (name = 'attnx.html') => join(servedDir(), name);

async function ready(page, n = 1) {
  await page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
    && document.documentElement.dataset.busy === '0', n, { timeout: 120000 });
}

// What the page shows: the core's numbers, the verdict, the link (as "Open full explorer" has
// it: the address gets it only when changes pause) and the figures' pixels.
const snapshot = (page) => page.evaluate(() => ({
  metrics: Object.fromEntries([...document.querySelectorAll('#metrics [data-metric]')].map((e) => [e.dataset.metric, e.dataset.value])),
  verdict: document.getElementById('summary').textContent,
  hash: new URL(document.getElementById('open-full').href).hash,
  A: document.querySelector('#fig-A canvas.heat').toDataURL(),
  M: document.querySelector('#fig-M canvas.heat').toDataURL(),
}));

const readout = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#head-readout [data-head]')].map((e) => [e.dataset.head, e.dataset.value])));

async function headSettled(page, pattern) {
  await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('head-msg')?.textContent ?? ''), pattern.source, { timeout: 120000 });
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0' && !document.getElementById('head-readout').hidden, null, { timeout: 120000 });
}

// The served explorer and the one-file one at `hash`: the same snapshot.
async function sameAsServed(hash, served, file) {
  const s = await watched(served, `${site.server.url}${hash}`);
  await ready(s.page);
  const f = await watched(file, fileUrl(oneFile(), hash));
  await ready(f.page);
  const [want, got] = [await snapshot(s.page), await snapshot(f.page)];
  assert.ok(Object.keys(want.metrics).length > 5, 'the served page shows its numbers');
  assert.deepEqual(got, want, `${hash}: the one-file page shows what the served one does`);
  return { s, f };
}

test('every construction and a zoomed window from file://, offline: the served page\'s figures, verdict and numbers; Find the minimal d; presentation mode', async () => {
  const served = await site.browser.newContext({ viewport: VIEWPORT });
  const { context, requests } = await offline();
  for (const hash of ['#v=2&pattern=window&L=64&w=2&d=1776&help=0', '#v=2&pattern=random&L=64&k=2&construction=lp&d=22&help=0',
    '#v=2&pattern=window&L=16&w=1&construction=moment&help=0', '#v=3&pattern=random&L=64&k=2&construction=opt&budget=5.3&d=12&help=0',
    '#v=3&pattern=window&L=64&w=1&d=512&view=8,24,40,56&help=0']) {
    const { s, f } = await sameAsServed(hash, served, context);
    assert.deepEqual([...s.problems, ...f.problems], []);
    if (hash.includes('view=')) {  // the zoomed window, a cell per pixel, in the file as served
      assert.equal(await f.page.evaluate(() => { const c = document.querySelector('#fig-M canvas.heat'); return `${c.width}x${c.height}`; }), '16x16');
      assert.match(await f.page.textContent('#zoom-where'), /rows 8–23, columns 40–55/);
    }
  }
  const { s, f } = await sameAsServed('#v=2&pattern=window&L=64&w=1&d=64&help=0', served, context);
  for (const p of [s.page, f.page]) {
    await p.click('#mind-btn');
    await p.waitForFunction(() => /^Minimal d/.test(document.getElementById('dsearch-msg').textContent), null, { timeout: 120000 });
    await ready(p, 2);
  }
  const want = await snapshot(s.page);
  assert.deepEqual(await snapshot(f.page), want, 'the minimal d found and shown alike');
  assert.notEqual(new URLSearchParams(want.hash.slice(1)).get('d'), '64', 'the search moved d');
  await f.page.click('#present-top');
  await f.page.waitForFunction(() => document.querySelector('.ax[data-present]'), null, { timeout: 10000 });
  await f.page.keyboard.press('Escape');
  await f.page.waitForFunction(() => !document.querySelector('.ax[data-present]'), null, { timeout: 10000 });
  assert.deepEqual([...s.problems, ...f.problems], []);
  assert.deepEqual(requests, [], 'no network request');
  await served.close();
  await context.close();
});

test('lecture mode\'s stories and the sample head come from inside the file; a story\'s link to the lab names the one-file lab', async () => {
  const { context, requests } = await offline();
  const f = await watched(context, fileUrl(oneFile(), '#v=2&pattern=window&L=64&w=2&d=1776&help=0'));
  await ready(f.page);
  await f.page.selectOption('#story-select', 'paper');
  await f.page.waitForFunction(() => /^Step 1 of/.test(document.querySelector('#story .story-count')?.textContent ?? ''), null, { timeout: 60000 });
  const story = JSON.parse(readFileSync(fileURLToPath(new URL('../../web/explorer/stories/paper.json', import.meta.url)), 'utf8'));
  assert.equal(await f.page.textContent('#story .story-title'), story[0].title);
  const withLink = story.findIndex((step) => /\]\(lab\.html#/.test(step.text));
  for (let n = 0; n < withLink; n++) await f.page.click('#story .story-next');
  await f.page.waitForFunction(() => document.querySelector('#story .story-text a'), null, { timeout: 60000 });
  const lab = await f.page.evaluate(() => document.querySelector('#story .story-text a').href);
  assert.equal(lab, `${pathToFileURL(oneFile('attnx-lab.html')).href}#preset=paper&autorun=1`);
  await f.page.click('#story .story-end');
  await f.page.click('#head-tools summary');
  await f.page.click('#head-sample');
  await headSettled(f.page, /heads\.npy: layer 0, head 0/);
  const want = api.importHead(SAMPLE, 'heads.npy', {}).description;
  assert.equal((await readout(f.page)).archetype, want.archetype.code);
  assert.deepEqual([f.problems, requests], [[], []]);
  await context.close();
});

// Opens the sample in the head tools of `page` from the local file and picks head 2, rule topk:3.
async function importHead(page) {
  await page.click('#head-tools summary');
  await page.setInputFiles('#head-file', SAMPLE_PATH);
  await headSettled(page, /heads\.npy: layer 0, head 0/);
  await page.selectOption('#head-head', '2');
  await headSettled(page, /head 2 with rule topk:2/);
  await page.fill('#head-rule', 'topk:3');
  await page.press('#head-rule', 'Enter');
  await page.locator('#head-rule').blur();
  await headSettled(page, /head 2 with rule topk:3/);
}

// Clicks `selector` (a download) and resolves { name, bytes }.
async function downloadOf(page, click) {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }), click()]);
  return { name: d.suggestedFilename(), bytes: await downloadBytes(d) };
}

test('a head from a local file, export, and "Save as one file" from the served page and from a saved file reopen offline to the same numbers', async () => {
  const served = await site.browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
  const s = await watched(served, `${site.server.url}#v=2&pattern=window&L=64&w=2&d=1776&help=0`);
  await ready(s.page);
  await importHead(s.page);
  const { context, requests } = await offline();
  const f = await watched(context, fileUrl(oneFile(), '#v=2&pattern=window&L=64&w=2&d=1776&help=0'));
  await ready(f.page);
  await importHead(f.page);
  const want = api.importHead(SAMPLE, 'heads.npy', { head: 2, rule: 'topk:3' }).description;
  const shown = await readout(f.page);
  assert.deepEqual([Number(shown.keptMassMin), shown.archetype, Number(shown.nnz)], [want.keptMassMin, want.archetype.code, want.nnz]);
  const base = await snapshot(s.page);
  assert.deepEqual(await snapshot(f.page), base, 'the imported head\'s numbers alike');
  assert.deepEqual(await readout(f.page), await readout(s.page));
  // Export: the pattern's JSON, the same bytes.
  const exported = [];
  for (const p of [s.page, f.page]) {
    await p.click('#custom-tools details.io summary');
    exported.push(await downloadOf(p, () => p.click('#export-json')));
  }
  assert.equal(exported[1].name, exported[0].name);
  assert.ok(exported[1].bytes.equals(exported[0].bytes), 'the export is the same file');
  // Save from the served page: named after the view, reopened offline with its head.
  const saved = await downloadOf(s.page, () => s.page.click('#save-file'));
  assert.match(saved.name, /^attnx-layer0-head2-L64-d1776\.html$/);
  const path1 = join(tmp, saved.name);
  writeFileSync(path1, saved.bytes);
  const again = await watched(context, fileUrl(path1));
  await headSettled(again.page, /head 2 with rule topk:3/);
  await ready(again.page);
  assert.deepEqual(await snapshot(again.page), base, 'the saved view: the same figures, verdict and numbers');
  assert.deepEqual(await readout(again.page), await readout(s.page));
  assert.ok(await again.page.isVisible('#fig-head canvas.heat'), 'the dense head is in the saved file');
  // Save from the saved file itself (its own text): the same view again.
  const resaved = await downloadOf(again.page, () => again.page.click('#save-file'));
  assert.equal(resaved.name, saved.name);
  const path2 = join(tmp, `re-${saved.name}`);
  writeFileSync(path2, resaved.bytes);
  const third = await watched(context, fileUrl(path2));
  await headSettled(third.page, /head 2 with rule topk:3/);
  await ready(third.page);
  assert.deepEqual(await snapshot(third.page), base, 'a view saved from a saved file');
  assert.deepEqual([...s.problems, ...f.problems, ...again.problems, ...third.problems], []);
  assert.deepEqual(requests, [], 'no network request');
  await served.close();
  await context.close();
});

test('a saved view with bad fields names them and opens what is valid; nothing breaks', async () => {
  const text = readFileSync(oneFile(), 'utf8');
  const view = { format: 'attnx-view/1', page: 'explorer', link: '#v=2&pattern=window&L=32&w=1&d=1024', head: { name: 'x.npy', base64: 'not base64!' }, survey: 'yes' };
  const path = join(tmp, 'bad-view.html');
  writeFileSync(path, text.replace(/<script type="application\/json" id="attnx-view">null<\/script>/, () => `<script type="application/json" id="attnx-view">${JSON.stringify(view)}</script>`));
  const { context, requests } = await offline();
  const f = await watched(context, fileUrl(path));
  await ready(f.page);
  const messages = await f.page.textContent('#messages');
  assert.match(messages, /Saved view: head\.base64 must be the file's bytes in base64/);
  assert.match(messages, /Saved view: survey must be true or false/);
  assert.equal(await f.page.inputValue('#f-L'), '32', 'the valid link was read');
  const wrong = join(tmp, 'lab-view.html');
  writeFileSync(wrong, text.replace(/<script type="application\/json" id="attnx-view">null<\/script>/, () => `<script type="application/json" id="attnx-view">{"format":"attnx-view/1","page":"lab","link":"#v=2"}</script>`));
  const g = await watched(context, fileUrl(wrong));
  await ready(g.page);
  assert.match(await g.page.textContent('#messages'), /Saved view: page must be "explorer" \(got "lab"\)/);
  assert.deepEqual([...f.problems, ...g.problems], []);
  assert.deepEqual(requests, []);
  await context.close();
});

test('a browser without WebAssembly SIMD is told so plainly, and nothing else runs', async () => {
  const { context, requests } = await offline();
  await context.addInitScript(() => { WebAssembly.validate = () => false; });
  const f = await watched(context, fileUrl(oneFile()));
  await f.page.waitForFunction(() => document.documentElement.dataset.oneFile === 'unsupported', null, { timeout: 30000 });
  const hint = f.page.locator('#file-hint');
  assert.equal(await hint.isVisible(), true);
  assert.match(await hint.textContent(), /no WebAssembly SIMD/);
  assert.equal(await hint.getAttribute('role'), 'alert');
  assert.equal(await f.page.evaluate(() => document.getElementById('app').children.length), 0, 'the explorer did not start');
  assert.deepEqual([f.problems, requests], [[], []]);
  await context.close();
});

// The lab's finished sweep on `page`: its points' L and trial d values.
async function labResult(page) {
  await page.waitForFunction(() => window.attnxLab && window.attnxLab.runState === 'done', null, { timeout: 180000 });
  return page.evaluate(() => window.attnxLab.result.points.map((p) => [p.L, p.d_mins]));
}

test('the one-file lab runs the paper preset offline as the served lab does, and saves its settings', async () => {
  const served = await site.browser.newContext({ viewport: VIEWPORT });
  const s = await watched(served, `${site.server.url}lab.html#preset=paper&autorun=1`);
  const want = await labResult(s.page);
  const { context, requests } = await offline();
  const f = await watched(context, fileUrl(oneFile('attnx-lab.html'), '#preset=paper&autorun=1'));
  assert.deepEqual(await labResult(f.page), want);
  const saved = await downloadOf(f.page, () => f.page.click('#save-file'));
  assert.match(saved.name, /^attnx-lab-random-L64-512-t10\.html$/);
  const path = join(tmp, saved.name);
  writeFileSync(path, saved.bytes);
  const again = await watched(context, fileUrl(path));
  assert.deepEqual(await labResult(again.page), want, 'the saved lab runs the same sweep');
  assert.equal(await again.page.getAttribute('#to-explorer', 'href'), 'attnx.html', 'the lab links to the one-file explorer');
  // Saved from the served lab: the one-file lab of the site, with the same view.
  const fromSite = await downloadOf(s.page, () => s.page.click('#save-file'));
  assert.equal(fromSite.name, saved.name);
  const viewIn = (bytes) => JSON.parse(String(bytes).match(/<script type="application\/json" id="attnx-view">([\s\S]*?)<\/script>/)[1]);
  assert.deepEqual(viewIn(fromSite.bytes), viewIn(saved.bytes));
  const link = new URLSearchParams(viewIn(saved.bytes).link.slice(1));
  assert.deepEqual(['Ls', 'trials', 'seed', 'autorun'].map((k) => link.get(k)), ['64,128,256,512', '10', '1', '1'], 'the paper preset\'s settings, run on open');
  assert.deepEqual([...s.problems, ...f.problems, ...again.problems], []);
  assert.deepEqual(requests, []);
  await served.close();
  await context.close();
});
