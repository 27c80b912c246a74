// End-to-end tests of the explorer page (web/index.html) in headless Chromium.
// Serves dist/ (or web/ when dist/ has not been built; ATTNX_E2E_DIR overrides) with
// scripts/serve.mjs and drives /usr/bin/chromium through playwright-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { reusedPage } from './page-reuse.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = servedDir();
const outDir = join(root, 'test-output');
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; worker-src 'self'";

let server, browser;

before(async () => {
  mkdirSync(outDir, { recursive: true });
  server = await startServer(dir, 0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// Counts the constructs the page posts to its workers (window.constructsPosted): a construct is
// posted as soon as it is asked for while a worker is free, so "nothing more was asked" is checked
// on what was sent, not on what was drawn after a wait.
function countConstructs() {
  window.constructsPosted = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.type === 'run' && msg.method === 'construct') window.constructsPosted++;
    return post.call(this, msg, ...rest);
  };
}
const constructsPosted = (page) => page.evaluate(() => window.constructsPosted);

// A page that records console errors, page errors and failed requests (and counts the constructs
// it posts: countConstructs).
// The page is one an earlier test of this file finished with, when there is one (page-reuse.mjs).
async function openPage(hash = '', { width = 1280, height = 900, colorScheme = 'light' } = {}) {
  const { context, page } = await reusedPage(browser, { viewport: { width, height }, colorScheme }, [countConstructs]);
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // A navigation (goto, reload) aborts the browser's own favicon fetch: not a page problem.
  page.on('requestfailed', (r) => {
    if (/\/favicon\.svg$/.test(r.url()) && /ERR_ABORTED/.test(r.failure()?.errorText ?? '')) return;
    problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(server.url + hash);
  return { page, context, problems };
}

// Waits until at least n computations have been drawn and nothing is pending.
async function ready(page, n = 1) {
  await page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
    && document.documentElement.dataset.busy === '0', n, { timeout: 90000 });
}

async function runs(page) {
  return Number(await page.evaluate(() => document.documentElement.dataset.runs || 0));
}

// The metrics the page shows (unrounded, from data-value attributes).
async function shownMetrics(page) {
  return page.evaluate(() => {
    const out = {};
    for (const e of document.querySelectorAll('#metrics [data-metric]')) out[e.dataset.metric] = e.dataset.value;
    return out;
  });
}

// The same computation through the JS API, in the page context (same WASM build as the pool).
async function apiMetrics(page, opts) {
  return page.evaluate(async (opts) => {
    const { load } = await import('/lib/attnx.js');
    const api = await load();
    if (opts.triplets) {
      opts.triplets = { rows: Int32Array.from(opts.triplets.rows), cols: Int32Array.from(opts.triplets.cols), vals: Float64Array.from(opts.triplets.vals) };
    }
    const r = api.construct(opts);
    return {
      rho: String(r.metrics.rho), zeta: String(r.metrics.zeta), lambda: String(r.metrics.lambda),
      beta: String(r.metrics.beta), success: String(r.metrics.success), k: String(r.k),
      maxColCount: String(r.maxColCount), inClass: String(r.inClass), d: String(r.d), dStar: String(r.dStar),
    };
  }, opts);
}

function assertSameMetrics(shown, expected) {
  for (const key of ['rho', 'zeta', 'lambda', 'beta', 'success', 'k', 'maxColCount', 'inClass', 'd']) {
    assert.equal(shown[key], expected[key], `metric ${key}: page shows ${shown[key]}, API gives ${expected[key]}`);
  }
}

// Pixel variance of a heatmap canvas (0 for a blank one).
async function canvasVariance(page, selector) {
  return page.evaluate((sel) => {
    const c = document.querySelector(sel);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let s = 0, s2 = 0, n = 0;
    for (let p = 0; p < d.length; p += 4) {
      const v = 0.299 * d[p] + 0.587 * d[p + 1] + 0.114 * d[p + 2];
      s += v; s2 += v * v; n++;
    }
    const m = s / n;
    return s2 / n - m * m;
  }, selector);
}

const DEFAULTS = { weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, d: 1024, seed: 1 };

test('loads with the CSP, no console errors, non-blank heatmaps; screenshot', async () => {
  const { page, context, problems } = await openPage();
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.equal(csp, CSP);
  // No inline scripts or inline styles in the HTML (the CSP would block them).
  const inline = await page.evaluate(() => ({
    scripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
    styles: document.querySelectorAll('style').length,
    styleAttrs: document.querySelectorAll('body [style]:not(.dfill):not(.dmark):not(.row-mark):not(.cell-mark)').length,
  }));
  assert.deepEqual(inline, { scripts: 0, styles: 0, styleAttrs: 0 });
  await ready(page, 1);
  const shown = await shownMetrics(page);
  // The page opens on the welcome state: a sliding window (w = 2) of 64 tokens at its minimal d,
  // the smallest d on the explorer's grid at which the API's construct succeeds.
  const welcome = { pattern: 'window', L: 64, w: 2, ...DEFAULTS };
  const dMin = await page.evaluate(async (st) => {
    const { load } = await import('/lib/attnx.js');
    const api = await load();
    for (let d = 16; d <= 16384; d += 16) if (api.construct({ ...st, d }).metrics.success) return d;
    return null;
  }, welcome);
  assert.equal(shown.success, 'true');
  assertSameMetrics(shown, await apiMetrics(page, { ...welcome, d: dMin }));
  for (const fig of ['A', 'M', 'err', 'zero']) {
    const v = await canvasVariance(page, `#fig-${fig} canvas.heat`);
    assert.ok(v > 1, `heatmap ${fig} looks blank (pixel variance ${v})`);
  }
  await page.screenshot({ path: join(outDir, 'explorer.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('switching pattern and L shows the metrics the WASM API gives', async () => {
  const { page, context, problems } = await openPage('#help=0');
  await ready(page, 1);
  const before = await shownMetrics(page);
  let n = await runs(page);
  await page.selectOption('#f-pattern', 'window');
  await ready(page, ++n);
  await page.fill('#f-L', '200');
  await ready(page, ++n);
  await page.fill('#f-w', '2');
  await ready(page, ++n);
  const shown = await shownMetrics(page);
  assert.notEqual(shown.rho, before.rho);
  assert.equal(shown.k, '5');
  assertSameMetrics(shown, await apiMetrics(page, { pattern: 'window', L: 200, w: 2, ...DEFAULTS }));
  assert.match(await urlHash(page), /pattern=window/);

  // An out-of-class family is labelled so, with its column count.
  await page.selectOption('#f-pattern', 'bigbird');
  await ready(page, ++n);
  const bb = await shownMetrics(page);
  assert.equal(bb.inClass, 'false');
  assert.match(await page.textContent('#metrics'), /outside the theorem's class/);
  assertSameMetrics(bb, await apiMetrics(page, { pattern: 'bigbird', L: 200, w: 2, globals: 1, randoms: 1, ...DEFAULTS }));

  // Rapid changes: stale tasks are cancelled, the page ends on the last request.
  for (const d of [100, 200, 300, 333]) await page.fill('#f-d', String(d));
  await page.waitForFunction(() => document.querySelector('#metrics [data-metric="d"]')?.dataset.value === '333'
    && document.documentElement.dataset.busy === '0', null, { timeout: 60000 });
  assertSameMetrics(await shownMetrics(page), await apiMetrics(page, { pattern: 'bigbird', L: 200, w: 2, globals: 1, randoms: 1, ...DEFAULTS, d: 333 }));

  // Invalid input names the field and its range; nothing is recomputed.
  const r0 = await runs(page);
  await page.fill('#f-tau', '1.5');
  await page.waitForSelector('#e-tau:not([hidden])');
  assert.match(await page.textContent('#e-tau'), /tau must be a number in \(0, 1\)/);
  // A valid change would have marked the page busy in the same input handler that shows the error.
  assert.equal(await page.evaluate(() => document.documentElement.dataset.busy), '0');
  assert.doesNotMatch(await urlHash(page), /tau=1\.5/);
  assert.equal(await runs(page), r0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('drawing a cell on the custom grid changes A, the link and the metrics', async () => {
  const { page, context, problems } = await openPage('#pattern=custom&L=16&d=256&help=0');
  await ready(page, 1);
  const n = await runs(page);
  const canvas = page.locator('#fig-A canvas.heat');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  // Cell (i = 3, j = 10): centre of that grid cell.
  await page.mouse.click(box.x + (10.5 / 16) * box.width, box.y + (3.5 / 16) * box.height);
  await ready(page, n + 1);
  assert.match(await page.textContent('#custom-msg'), /Added cell \(3, 10\)/);
  const hash = await urlHash(page);
  const cp = new URLSearchParams(hash.slice(1)).get('cp');
  assert.equal(cp, '0*3_0.7_0*c');  // identity rows, row 3 has offsets 0 and +7
  const rows = [], cols = [], vals = [];
  for (let i = 0; i < 16; i++) {
    rows.push(i); cols.push(i); vals.push(1);
    if (i === 3) { rows.push(3); cols.push(10); vals.push(1); }
  }
  const shown = await shownMetrics(page);
  assertSameMetrics(shown, await apiMetrics(page, { pattern: 'custom', L: 16, triplets: { rows, cols, vals }, eps: 1, tau: 0.1, delta: 0.1, d: 256, seed: 1 }));
  assert.equal(shown.k, '2');
  // Undo restores the diagonal.
  await page.click('#undo');
  await ready(page, n + 2);
  assert.equal(new URLSearchParams((await urlHash(page)).slice(1)).get('cp'), '0*g');

  // A bad import names the line and keeps the previous pattern.
  await page.click('details.io summary');
  await page.fill('#import-text', '0,0,1\n1,1,one\n');
  await page.click('#import-btn');
  // The core's wording (it reads the text, in a worker: wait for the answer): line, field, value.
  await page.waitForFunction(() => /line 2/.test(document.querySelector('#custom-msg').textContent), null, { timeout: 30000 });
  assert.match(await page.textContent('#custom-msg'), /line 2: weight must be a finite number >= 0 \(got "one"\)/);
  assert.equal(new URLSearchParams((await urlHash(page)).slice(1)).get('cp'), '0*g');
  // A good JSON import replaces it.
  await page.fill('#import-text', '{"L": 8, "triplets": [[0,1,1],[1,0,1],[2,3,2],[3,2,1],[4,5,1],[5,4,1],[6,7,1],[7,6,1],[2,2,1]]}');
  await page.click('#import-btn');
  // The mouse still rests on A, so a quiet recompute for the hovered row may count a run too:
  // wait for the import's own answer, then for its run.
  await page.waitForFunction(() => /Imported/.test(document.querySelector('#custom-msg').textContent), null, { timeout: 30000 });
  await ready(page, n + 3);
  assert.match(await page.textContent('#custom-msg'), /Imported 9 nonzeros, L = 8/);
  assert.equal(await page.inputValue('#f-L'), '8');
  assert.deepEqual(problems, []);
  await context.close();
});

test('copy link round trip restores the exact view', async () => {
  const { page, context, problems } = await openPage('#help=0');
  await ready(page, 1);
  let n = await runs(page);
  await page.selectOption('#f-pattern', 'dilated');
  await ready(page, ++n);
  await page.fill('#f-L', '100');
  await ready(page, ++n);
  await page.fill('#f-r', '3');
  await ready(page, ++n);
  await page.fill('#f-seed', '7');
  await ready(page, ++n);
  await page.selectOption('#f-weights', 'random');
  await ready(page, ++n);
  await page.check('#f-scale-lin');
  await page.check('#f-ref-min');
  const canvas = page.locator('#fig-M canvas.heat');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + (42.5 / 100) * box.height);  // pin row 42
  await page.waitForFunction(() => /row=42/.test(location.hash));
  await page.waitForSelector('#inspector .insp-head');
  await page.click('#copy-link');
  const link = await page.inputValue('#share-link');
  assert.match(link, /#/);
  const shown = await shownMetrics(page);
  const form = async (p) => p.evaluate(() => [...document.querySelectorAll('#settings input, #settings select')]
    .map((e) => `${e.id}=${e.type === 'radio' ? e.checked : e.value}`).join('&'));
  const formBefore = await form(page);

  const page2 = await context.newPage();
  await page2.goto(link);
  await ready(page2, 1);
  assert.equal(`${await page2.evaluate(() => location.origin + location.pathname)}${await urlHash(page2)}`, link);
  assert.equal(await form(page2), formBefore);
  assert.deepEqual(await shownMetrics(page2), shown);
  assert.match(await page2.textContent('#inspector'), /Row i = 42 \(pinned\)/);
  assert.equal(await page2.evaluate(() => document.querySelector('#explain').open), false);  // a closed <details>
  // The pixels agree too.
  const img = (p) => p.evaluate(() => document.querySelector('#fig-M canvas.heat').toDataURL());
  assert.equal(await img(page2), await img(page));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a custom pattern survives the link (compact encoding)', async () => {
  const { page, context, problems } = await openPage('#pattern=window&L=40&w=1&help=0');
  await ready(page, 1);
  await page.click('#edit-current');
  await ready(page, 2);
  const hash = await urlHash(page);
  assert.match(hash, /pattern=custom/);
  assert.match(hash, /cp=0\.1_-1\.0\.1\*12_-1\.0(&|$)/);  // 38 middle rows = 12 in base 36
  const shown = await shownMetrics(page);
  const page2 = await context.newPage();
  await page2.goto(server.url + hash);
  await ready(page2, 1);
  assert.deepEqual(await shownMetrics(page2), shown);
  assert.deepEqual(problems, []);
  await context.close();
});

test('bad hash values show a message naming the field and range; defaults are used', async () => {
  const { page, context, problems } = await openPage('#pattern=nope&L=99999&tau=2&seed=x&bogus=1');
  await ready(page, 1);
  const msgs = await page.textContent('#messages');
  assert.match(msgs, /pattern must be one of random, permutation/);
  assert.match(msgs, /L must be an integer from 2 to 4096 \(got "99999"\)/);
  assert.match(msgs, /tau must be a number in \(0, 1\) \(got "2"\)/);
  assert.match(msgs, /seed must be an integer/);
  assert.match(msgs, /unknown setting "bogus"/);
  assert.equal(await page.inputValue('#f-L'), '256');
  assert.equal(await page.inputValue('#f-tau'), '0.1');
  assertSameMetrics(await shownMetrics(page), await apiMetrics(page, { pattern: 'random', L: 256, k: 2, ...DEFAULTS }));
  // A broken custom pattern in the link falls back to the diagonal with a message.
  const page2 = await context.newPage();
  await page2.goto(`${server.url}#pattern=custom&L=8&cp=0*3_z_0*4`);
  await ready(page2, 1);
  assert.match(await page2.textContent('#messages'), /cp \(custom pattern\): row 3: column 38 is outside 0\.\.7/);
  // The link is rewritten to the state actually shown (the diagonal).
  assert.equal(new URLSearchParams((await urlHash(page2)).slice(1)).get('cp'), '0*8');
  assert.deepEqual(problems, []);
  await context.close();
});

test('embed mode: figures and a minimal strip, usable at 360 px; Embed button gives a snippet', async () => {
  const { page, context, problems } = await openPage('#embed=1&L=64&d=512', { width: 360, height: 740 });
  await ready(page, 1);
  for (const hidden of ['#explain', '#construction', '#inspector', '#copy-link', '#custom-tools', '#f-eps']) {
    assert.equal(await page.isVisible(hidden), false, `${hidden} should be hidden in embed mode`);
  }
  for (const shown of ['#fig-A canvas.heat', '#fig-M canvas.heat', '#fig-err canvas.heat', '#fig-zero canvas.heat', '#f-pattern', '#f-L', '#f-d', '#open-full']) {
    assert.equal(await page.isVisible(shown), true, `${shown} should be visible in embed mode`);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the 360 px viewport`);
  const w = (await page.locator('#fig-A canvas.heat').boundingBox()).width;
  assert.ok(w >= 120, `heatmap only ${w}px wide`);
  assert.doesNotMatch(await page.getAttribute('#open-full', 'href'), /embed=1/);
  await page.screenshot({ path: join(outDir, 'explorer-embed-360.png'), fullPage: true });
  // The snippet from the normal page: a new document (a hash change and a reload could load the
  // embed page's own link again, written 250 ms after its last change, embed=1 included).
  await page.goto('about:blank');
  await page.goto(server.url + '#L=64');
  await ready(page, 1);
  await page.click('#embed-btn');
  const snippet = await page.inputValue('#embed-code');
  // The page's own link (a current link with every option) plus embed=1.
  const pageHash = await urlHash(page);
  assert.match(pageHash, /^#v=3&pattern=random&L=64&k=2&/);
  const src = /^<iframe src="([^"]*)"/.exec(snippet)[1].replace(/&amp;/g, '&');
  assert.equal(src, `${server.url}${pageHash}&embed=1`);
  // Then the script that resizes the frame to the height the page posts (embed-frame.test.mjs).
  assert.match(snippet, /<\/iframe>\n<script>[\s\S]*'attnx-height'[\s\S]*<\/script>$/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('"What am I looking at?" opens the explanation where the visitor sees it; a link with help=1 does not scroll', async () => {
  const { page, context, problems } = await openPage('#v=2&L=64&d=600', { width: 1280, height: 720 });
  await ready(page, 1);
  const summaryIn = () => page.evaluate(() => {
    const r = document.querySelector('#explain > summary').getBoundingClientRect();
    return { inView: r.top >= 0 && r.bottom <= innerHeight, focused: document.activeElement === document.querySelector('#explain > summary') };
  });
  assert.deepEqual(await summaryIn().then((x) => x.inView), false, 'the explanation starts below the first screen');
  await page.click('#help-btn');
  const opened = await summaryIn();
  assert.equal(await page.evaluate(() => document.getElementById('explain').open), true);
  assert.ok(opened.inView && opened.focused, `the explanation's heading is in view and focused: ${JSON.stringify(opened)}`);
  assert.match(await urlHash(page), /[#&]help=1(&|$)/);
  await page.click('#help-btn');
  assert.equal(await page.evaluate(() => document.getElementById('explain').open), false, 'the button closes it again');
  await context.close();
  const linked = await openPage('#v=2&L=64&d=600&help=1', { width: 1280, height: 720 });
  await ready(linked.page, 1);
  assert.equal(await linked.page.evaluate(() => [document.getElementById('explain').open, scrollY].join()), 'true,0', 'a link opens it and leaves the picture first');
  assert.deepEqual([...problems, ...linked.problems], []);
  await linked.context.close();
});

test('keyboard: controls are labelled and heatmaps respond to arrow keys', async () => {
  const { page, context, problems } = await openPage('#L=32&d=512&help=0');
  await ready(page, 1);
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
    .filter((e) => e.offsetParent !== null || e.type === 'file')
    .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
    .map((e) => e.id || e.outerHTML.slice(0, 60)));
  assert.deepEqual(unlabelled, []);
  // Hover: the inspector follows the pointer's row and the readout names the cell.
  const m = page.locator('#fig-M canvas.heat');
  await m.scrollIntoViewIfNeeded();
  const box = await m.boundingBox();
  await page.mouse.move(box.x + (5.5 / 32) * box.width, box.y + (10.5 / 32) * box.height);
  await page.waitForFunction(() => /Row i = 10(?!\d)/.test(document.querySelector('#inspector').textContent));
  assert.match(await page.textContent('#fig-M .readout'), /^\(10, 5\): A = .*, M = /);
  assert.equal(await page.locator('#inspector svg rect.bars-a').count() > 0, true);
  await page.mouse.move(0, 0);
  await page.focus('#fig-M canvas.heat');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /row=1(&|$)/.test(location.hash));
  await page.waitForSelector('#inspector svg');
  assert.match(await page.textContent('#inspector'), /Row i = 1/);
  assert.deepEqual(problems, []);
  await context.close();
});

// What a drag asks for: with no row in focus the core sends M only pooled (views.dense false; at
// L = 1024 the dense M and logits are 8 MB per result), so the first hover after a change
// computes once more, with them; further hovers read the kept rows.
test('with no row in focus M leaves the worker only pooled; a hover then computes it once, and the readout is the core\'s M_ij', async () => {
  const L = 48, d = 64;
  const { page, context, problems } = await openPage(`#L=${L}&d=${d}&help=0`);
  await ready(page, 1);
  const expected = await page.evaluate(async (opts) => {
    const { load } = await import('/lib/attnx.js');
    const r = (await load()).construct(opts);
    return { m73: r.M[7 * opts.L + 3], m20: r.M[20 * opts.L + 11] };
  }, { ...DEFAULTS, pattern: 'random', k: 2, L, d });
  const m = page.locator('#fig-M canvas.heat');
  await m.scrollIntoViewIfNeeded();
  const box = await m.boundingBox();
  const hover = (i, j) => page.mouse.move(box.x + ((j + 0.5) / L) * box.width, box.y + ((i + 0.5) / L) * box.height);
  const readoutM = async (i, j) => {
    await page.waitForFunction((p) => document.querySelector('#fig-M .readout').textContent.startsWith(p), `(${i}, ${j}):`);
    return Number(/M = (\S+) · row \d+ (holds|fails) /.exec(await page.textContent('#fig-M .readout'))[1]);
  };
  const near = (a, b) => Math.abs(a - b) <= 5e-3 * Math.abs(b);
  const r0 = await runs(page), c0 = await constructsPosted(page);
  // That computation changes no number: nothing dims or goes stale, the status line comes back.
  const statusBefore = await page.textContent('#status-text');
  await page.evaluate(() => {
    window.marked = [];
    new MutationObserver((ms) => {
      for (const m of ms) if (/\b(busy|stale)\b/.test(m.target.className)) window.marked.push(`${m.target.className}`);
    }).observe(document.body, { attributes: true, attributeFilter: ['class'], subtree: true });
  });
  await hover(7, 3);
  const m73 = await readoutM(7, 3);
  assert.ok(near(m73, expected.m73), `readout M = ${m73}, core M_73 = ${expected.m73}`);
  await ready(page, r0 + 1);
  assert.equal(await runs(page), r0 + 1, 'the first hover computed the same settings once more, with the dense M');
  assert.deepEqual(await page.evaluate(() => window.marked), [], 'no figure dimmed, no metric marked stale');
  assert.equal(await page.textContent('#status-text'), statusBefore);
  await hover(20, 11);
  assert.ok(near(await readoutM(20, 11), expected.m20));
  assert.equal(await runs(page), r0 + 1, 'a second row is read from the kept M, not computed');
  // A change with the pointer away: computed without the dense M, so the next hover computes again.
  await page.mouse.move(0, 0);
  await page.focus('#f-d-slider');
  await page.keyboard.press('ArrowRight');
  await ready(page, r0 + 2);
  await page.waitForTimeout(300);
  assert.equal(await constructsPosted(page), c0 + 2, 'the change asked for one construct, without the dense M');
  assert.equal(await runs(page), r0 + 2);
  await hover(7, 3);
  await readoutM(7, 3);
  await ready(page, r0 + 3);
  assert.equal(await runs(page), r0 + 3, 'a hover after a change computes once more');
  assert.deepEqual(problems, []);
  await context.close();
});

test('when computing M in full for a hovered row fails, the result drawn stays and the message says what is missing', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Every construct that asks for the dense M after the first result is sent a views.dense the
  // core refuses: the run fails as a worker's run fails.
  await context.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    window.constructs = 0;
    Worker.prototype.postMessage = function (msg, ...rest) {
      if (msg && msg.type === 'run' && msg.method === 'construct' && ++window.constructs > 1 && msg.opts.views && msg.opts.views.dense) {
        msg = { ...msg, opts: { ...msg.opts, views: { ...msg.opts.views, dense: 'broken' } } };
      }
      return post.call(this, msg, ...rest);
    };
  });
  const page = await context.newPage();
  await page.goto(`${server.url}#L=48&d=64&help=0`);
  await ready(page, 1);
  const statusBefore = await page.textContent('#status-text');
  const metricsBefore = await shownMetrics(page);
  const m = page.locator('#fig-M canvas.heat');
  await m.scrollIntoViewIfNeeded();
  const box = await m.boundingBox();
  await page.mouse.move(box.x + (3.5 / 48) * box.width, box.y + (7.5 / 48) * box.height);
  await page.waitForFunction(() => document.querySelectorAll('#messages li.error').length > 0);
  assert.match(await page.textContent('#messages li.error'), /^The rows of M could not be read \(M in full was not computed\): .*views\.dense/);
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0');
  assert.equal(await page.textContent('#status-text'), statusBefore);
  assert.deepEqual(await shownMetrics(page), metricsBefore);
  assert.equal(await page.locator('#fig-M .busy, .stale').count(), 0);
  // Not asked for again for this result: another row sends no construct.
  assert.equal(await page.evaluate(() => window.constructs), 2);
  await page.mouse.move(box.x + (10.5 / 48) * box.width, box.y + (20.5 / 48) * box.height);
  await page.waitForTimeout(300);  // a construct would be posted at once (the pool is idle)
  assert.equal(await page.evaluate(() => window.constructs), 2);
  await context.close();
});

// After a run of new settings failed, the settings are no longer those drawn: a hover then
// computes them as any run (it fails again here, and says so as such), never quietly under the
// old result's status line.
test('after a failed change, a hover computes the new settings as a run of their own', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    window.constructs = [];
    Worker.prototype.postMessage = function (msg, ...rest) {
      if (msg && msg.type === 'run' && msg.method === 'construct') {
        window.constructs.push(msg.opts.d);
        if (msg.opts.d === 40) msg = { ...msg, opts: { ...msg.opts, views: { ...msg.opts.views, dense: 'broken' } } };
      }
      return post.call(this, msg, ...rest);
    };
  });
  const page = await context.newPage();
  await page.goto(`${server.url}#L=48&d=64&help=0`);
  await ready(page, 1);
  await page.evaluate(() => { location.hash = location.hash.replace('d=64', 'd=40'); });
  await page.waitForFunction(() => document.querySelectorAll('#messages li.error').length > 0 && document.documentElement.dataset.busy === '0');
  assert.equal(await page.textContent('#status-text'), 'Not computed.');
  await page.evaluate(() => { document.getElementById('messages').dataset.seen = document.querySelector('#messages li.error').textContent; });
  const m = page.locator('#fig-M canvas.heat');
  await m.scrollIntoViewIfNeeded();
  const box = await m.boundingBox();
  await page.mouse.move(box.x + (3.5 / 48) * box.width, box.y + (7.5 / 48) * box.height);
  await page.waitForFunction(() => window.constructs.length === 3 && document.documentElement.dataset.busy === '0');
  assert.deepEqual(await page.evaluate(() => window.constructs), [64, 40, 40]);
  assert.equal(await page.textContent('#status-text'), 'Not computed.');
  const msgs = await page.$$eval('#messages li.error', (li) => li.map((x) => x.textContent));
  assert.equal(msgs.length, 1);
  assert.match(msgs[0], /views\.dense/);
  assert.doesNotMatch(msgs[0], /could not be read/);
  await context.close();
});

test('a row pinned by the link is shown from the first result: M comes with it, no second computation', async () => {
  const { page, context, problems } = await openPage('#L=48&d=64&row=5&help=0');
  await ready(page, 1);
  await page.waitForFunction(() => /Row i = 5(?!\d)/.test(document.querySelector('#inspector').textContent));
  await page.waitForTimeout(300);
  assert.equal(await constructsPosted(page), 1, 'the pinned row was in the first result: asked for once');
  assert.equal(await runs(page), 1, 'the pinned row was in the first result: computed once');
  assert.deepEqual(problems, []);
  await context.close();
});

// M and the zero ratio leave the worker pooled at the size on screen only: at a new size the page
// computes again (the worker keeps the Gram matrix) and draws them at the new size, as A.
test('after a resize M and the zero ratio are drawn again at the heatmaps\' new size, computed once more', async () => {
  const { page, context, problems } = await openPage('#L=2048&d=128&help=0', { width: 1280, height: 900 });
  await ready(page, 1);
  const widths = () => page.evaluate(() => Object.fromEntries(['A', 'M', 'zero'].map((k) => [k, document.querySelector(`#fig-${k} canvas.heat`).width])));
  const before = await widths();
  assert.equal(before.M, before.A);
  const r0 = await runs(page);
  await page.setViewportSize({ width: 700, height: 900 });
  await page.waitForFunction((w) => document.querySelector('#fig-A canvas.heat').width !== w, before.A);
  await ready(page, r0 + 1);
  await page.waitForFunction(() => {
    const w = (k) => document.querySelector(`#fig-${k} canvas.heat`).width;
    return w('M') === w('A') && w('zero') === w('A');
  });
  const after = await widths();
  assert.notEqual(after.A, before.A, 'the heatmaps are pooled for the smaller size');
  assert.ok(await canvasVariance(page, '#fig-M canvas.heat') > 0, 'M is drawn, not blank');
  assert.deepEqual(problems, []);
  await context.close();
});

// Main-thread stalls are measured by `npm run bench:explorer` (a report, not a test).
test('large L is drawn by max-pooling and the page still answers input', async () => {
  const { page, context, problems } = await openPage('#L=2048&d=256&help=0');
  await ready(page, 1);
  // The image never has more pixels than the screen shows (max-pooled by an integer factor f).
  const g = await page.evaluate(() => {
    const c = document.querySelector('#fig-M canvas.heat');
    return { w: c.width, h: c.height, screen: c.clientWidth * devicePixelRatio };
  });
  const f = Math.ceil(2048 / Math.min(512, Math.floor(g.screen)));
  assert.equal(g.w, Math.ceil(2048 / f));
  assert.equal(g.h, g.w);
  assert.ok(g.w <= g.screen, `image ${g.w}px wider than its ${g.screen}px on screen`);
  assert.match(await page.textContent('#fig-A .legend'), new RegExp(`${f}×${f} cells per pixel \\(max-pooled\\)`));
  assert.ok(await canvasVariance(page, '#fig-A canvas.heat') > 1);
  // A change of d at this L is computed and drawn (no time bound: a loaded machine is only slower).
  await page.fill('#f-d', '300');
  await ready(page, 2);
  assert.equal((await shownMetrics(page)).d, '300');
  assert.deepEqual(problems, []);
  await context.close();
});

test('dark mode follows the system colour scheme', async () => {
  const { page, context, problems } = await openPage('#L=64&help=0', { colorScheme: 'dark' });
  await ready(page, 1);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 120, `dark background expected, got ${bg}`);
  assert.ok(await canvasVariance(page, '#fig-M canvas.heat') > 1);
  await page.screenshot({ path: join(outDir, 'explorer-dark.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});
