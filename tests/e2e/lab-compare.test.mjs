// attnx lab: "Dimensions against bits" (web/lab/compare.js) in headless Chromium: the button runs
// jl, lp and moment on a small grid in the worker pool; both plots draw three series; the shown
// numbers (tables, sentences, the page's read-only view) are the core's, computed here in Node
// from direct API calls; Cancel stops it and keeps what arrived; <attnx-lab figures="compare">
// shows the same card. The page is saved to test-output/lab-compare.png (the README's
// docs/lab-compare.png, the paper grid, comes from scripts/lab-compare-shot.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite } from './site-harness.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';

const OUT = fileURLToPath(new URL('../../test-output/', import.meta.url));
const site = useSite();
let api, schema;
before(async () => {
  api = await load();
  schema = api.schema();
  mkdirSync(OUT, { recursive: true });
});

// The lab's settings of the tests below (a link) and the same as API options, by hand.
const LINK = 'Ls=16,32&trials=2&seed=3';
const ST = { pattern: 'random', k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, seed: 3, trials: 2, step: 16, dmax: 4096 };
const dOrNull = (d) => (d === null || d < 0 ? null : d);
const dText = (v) => (v === null ? 'not reached' : Number.isInteger(v) ? String(v) : v.toFixed(1));
const verdict = (ok) => (ok ? 'pass' : 'fail');

// The core's numbers at length L: the two sweeps, moment's construct and trial 0's reports.
function core(L) {
  const lp = schema.constructions.find((c) => c.name === 'lp');
  const t = { pattern: ST.pattern, k: ST.k, weights: ST.weights, eps: ST.eps, tau: ST.tau, delta: ST.delta, seed: ST.seed, L };
  const sweep = (construction, step, dmax) => {
    const r = api.sweepPoint({ ...t, trials: ST.trials, construction, step, dmax });
    const dMins = Array.from(r.dMins, dOrNull);
    const trial0 = dMins[0] === null ? { d: null, precision: null } : { d: dMins[0], precision: api.precision({ ...t, construction, d: dMins[0], trial: 0 }).precision };
    return { dMins, median: r.median, quantile: r.quantile, trial0 };
  };
  const m = api.construct({ ...t, construction: 'moment', trial: 0 });
  return { L, jl: sweep('jl', ST.step, ST.dmax), lp: sweep('lp', lp.searchStep, lp.dMax), moment: { D: m.d, precision: m.precision } };
}

// The rows of the two tables as the page should show them.
function expectedCells(e) {
  const dims = [String(e.L), `${dText(e.jl.median)} (${dText(e.jl.quantile)})`, `${dText(e.lp.median)} (${dText(e.lp.quantile)})`, String(e.moment.D)];
  const bits = [String(e.L)];
  for (const [p, d] of [[e.jl.trial0.precision, e.jl.trial0.d], [e.lp.trial0.precision, e.lp.trial0.d], [e.moment.precision, e.moment.D]]) {
    bits.push(`${p.bits === null ? 'n.r.' : p.bits} (d = ${d})`, `${verdict(p.fp32)} / ${verdict(p.fp64)}`);
  }
  return { dims, bits };
}

async function open(hash, width = 1280) {
  const ctx = await site.browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${site.server.url}lab.html#${hash}`);
  await page.waitForFunction(() => window.attnxLab && document.body.dataset.run !== 'loading', null, { timeout: 30000 });
  return { ctx, page, errors };
}

const compareState = (page, states, timeout = 60000) =>
  page.waitForFunction((s) => s.includes(document.getElementById('compare-box').dataset.compare), states, { timeout });
const tableCells = (page, id) => page.$$eval(`#${id} tbody tr`, (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
const seriesOf = (page, id) => page.$$eval(`#${id} svg [data-series]`, (gs) => gs.map((g) => [g.dataset.series, g.querySelectorAll('.mark, .not-reached').length]));

test('Compare runs jl, lp and moment: three series in each plot, every shown number the core\'s', async () => {
  const { ctx, page, errors } = await open(LINK);
  assert.match(await page.textContent('#compare-status'), /^Ready: .*L = 16, 32, T = 2, seed 3/);
  await page.click('#compare-run');
  await compareState(page, ['done', 'error']);
  assert.equal(await page.getAttribute('#compare-box', 'data-compare'), 'done', await page.textContent('#compare-status'));
  assert.match(await page.textContent('#compare-status'), /^Done: jl, lp and moment with L = 16, 32, T = 2, seed 3 in /);
  assert.equal(await page.evaluate(() => document.getElementById('compare-progress').value), 1);
  for (const id of ['plot-cmp-d', 'plot-cmp-bits']) assert.deepEqual(await seriesOf(page, id), [['jl', 2], ['lp', 2], ['moment', 2]], id);
  assert.equal(await page.$$eval('#plot-cmp-bits svg line.reference', (l) => l.length), 2, 'float32 and float64 lines');
  const expected = [16, 32].map(core);
  assert.deepEqual((await page.evaluate(() => window.attnxLab.compare)).rows, expected);
  const dims = await tableCells(page, 'plot-cmp-d-table'), bits = await tableCells(page, 'plot-cmp-bits-table');
  expected.forEach((e, i) => {
    assert.deepEqual(dims[i], expectedCells(e).dims, `dimensions at L = ${e.L}`);
    assert.deepEqual(bits[i], expectedCells(e).bits, `bits at L = ${e.L}`);
  });
  const e32 = expected[1];
  assert.match(await page.textContent('#plot-cmp-d-sentence'), new RegExp(`at L = 32 the median d_min is ${dText(e32.jl.median)} for jl and ${dText(e32.lp.median).replace('.', '\\.')} for lp; moment has D = ${e32.moment.D}\\.`));
  assert.match(await page.textContent('#plot-cmp-bits-sentence'), new RegExp(`at L = 32 bits\\(X\\) is ${e32.jl.trial0.precision.bits} for jl, ${e32.lp.trial0.precision.bits} for lp and ${e32.moment.precision.bits} for moment\\.`));
  assert.equal(await page.isEnabled('#compare-run'), true);
  assert.equal(await page.isDisabled('#compare-cancel'), true);
  await page.screenshot({ path: `${OUT}lab-compare.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Cancel stops the comparison and keeps the parts that arrived', async () => {
  const { ctx, page, errors } = await open('preset=paper&trials=3');
  await page.click('#compare-run');
  assert.equal(await page.getAttribute('#compare-box', 'data-compare'), 'running');
  await page.waitForFunction(() => document.querySelectorAll('#plot-cmp-d svg .mark').length >= 1, null, { timeout: 60000 });
  await page.click('#compare-cancel');
  await compareState(page, ['cancelled'], 20000);
  assert.match(await page.textContent('#compare-status'), /^Cancelled after .*: \d of 4 lengths complete/);
  assert.equal(await page.isEnabled('#compare-run'), true);
  assert.equal(await page.isDisabled('#compare-cancel'), true);
  const cells = (await tableCells(page, 'plot-cmp-bits-table')).flat();
  assert.ok(cells.includes('…'), 'parts still missing are shown as such');
  const r = await page.evaluate(() => window.attnxLab.compare);
  assert.equal(r.complete, false);
  // What arrived is the core's.
  for (const row of r.rows) if (row.moment) assert.equal(row.moment.D, 4);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('an lp sweep draws neither the paper\'s band nor d*(L), and says so', async () => {
  const { ctx, page } = await open('v=2&preset=paper&Ls=16,32&trials=2&construction=lp&autorun=1');
  await page.waitForFunction(() => document.body.dataset.run === 'done', null, { timeout: 60000 });
  assert.equal(await page.isVisible('#dl-note'), true);
  assert.match(await page.textContent('#dl-note'), /This sweep is lp: the paper's band and the d\*\(L\) estimate are about the random-projection construction \(jl\)/);
  const legend = await page.$$eval('#plot-dl svg .legend-item', (items) => items.map((i) => i.textContent));
  assert.ok(!legend.some((t) => /paper|d\*\(L\)/.test(t)), legend.join(' | '));
  assert.equal(await page.isHidden('#paper-box'), true);
  await ctx.close();
});

test('<attnx-lab figures="compare"> shows the comparison card and runs it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'attnx-compare-'));
  const host = await startServer(dir, 0);
  try {
    writeFileSync(join(dir, 'page.html'), `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="${site.server.url}embed/attnx.js"></script></head>
<body><attnx-lab id="lab" ls="16,32" trials="2" seed="3" figures="compare"></attnx-lab></body></html>`);
    const ctx = await site.browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${host.url}page.html`);
    await page.waitForFunction(() => document.getElementById('lab').runState === 'idle', null, { timeout: 30000 });
    const shown = await page.evaluate(() => ['compare-box', 'fig-dl'].map((id) => getComputedStyle(document.getElementById('lab').shadowRoot.getElementById(id)).display));
    assert.notEqual(shown[0], 'none', 'the comparison is shown');
    assert.equal(shown[1], 'none', 'd-vs-L left out');
    await page.evaluate(() => document.getElementById('lab').shadowRoot.getElementById('compare-run').click());
    await page.waitForFunction(() => document.getElementById('lab').shadowRoot.getElementById('compare-box').dataset.compare === 'done', null, { timeout: 60000 });
    const cells = await page.evaluate(() => [...document.getElementById('lab').shadowRoot.querySelectorAll('#plot-cmp-d-table tbody tr')].map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(cells, [16, 32].map((L) => expectedCells(core(L)).dims));
    await ctx.close();
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
