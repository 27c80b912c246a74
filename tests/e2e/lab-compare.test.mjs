// attnx lab: "Dimensions against bits" (web/lab/compare.js) in headless Chromium: the button runs
// jl, lp and moment on a small grid in the worker pool; both plots draw three series; the shown
// numbers (tables, sentences, the page's read-only view) are the core's, computed here in Node
// from direct API calls; Cancel stops it and keeps what arrived; <attnx-lab figures="compare">
// shows the same card. The page is saved to test-output/lab-compare.png (docs/lab.md's
// docs/lab-compare.png, the paper grid, comes from scripts/lab-compare-shot.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { downloadBytes } from '../../scripts/chromium.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite } from './site-harness.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';
import { fmt } from '../../web/explorer/format.js';
import { reusedPage } from './page-reuse.mjs';

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
    const p = dMins[0] === null ? null : api.precision({ ...t, construction, d: dMins[0], trial: 0 });
    const trial0 = p ? { d: dMins[0], precision: p.precision, bounds: p.bounds } : { d: null, precision: null, bounds: null };
    const m = api.mergeSweepParts(L, ST.trials, ST.delta, [{ ...r, firstTrial: 0 }], ST.tau);
    const floor = { dLambda: m.d_lambda, logitScale: m.logit_scale, ratio: m.ratio, columnSupports: m.column_supports };
    return { dMins, median: r.median, quantile: r.quantile, dStar: r.dStar, floor, trial0 };
  };
  const m = api.construct({ ...t, construction: 'moment', trial: 0 });
  return { L, jl: sweep('jl', ST.step, ST.dmax), lp: sweep('lp', lp.searchStep, lp.dMax), moment: { D: m.d, precision: m.precision, bounds: m.bounds } };
}

// The rows of the two tables as the page should show them.
function expectedCells(e) {
  const dims = [String(e.L), `${dText(e.jl.median)} (${dText(e.jl.quantile)})`, `${dText(e.lp.median)} (${dText(e.lp.quantile)})`, String(e.moment.D),
    fmt(e.jl.floor.dLambda), fmt(e.lp.floor.dLambda), fmt(e.moment.bounds.dLambda)];
  const bits = [String(e.L)];
  for (const [p, d] of [[e.jl.trial0.precision, e.jl.trial0.d], [e.lp.trial0.precision, e.lp.trial0.d], [e.moment.precision, e.moment.D]]) {
    bits.push(`${p.bits === null ? 'n.r.' : p.bits} (d = ${d})`, `${verdict(p.fp32)} / ${verdict(p.fp64)}`);
  }
  return { dims, bits };
}

async function open(hash, width = 1280) {
  const { context: ctx, page } = await reusedPage(site.browser, { viewport: { width, height: 900 } });
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
const seriesOf = (page, id) => page.$$eval(`#${id} svg [data-series]:not(.floor-series):not(.bits-floor)`, (gs) => gs.map((g) => [g.dataset.series, g.querySelectorAll('.mark, .not-reached').length]));
const legendOf = (page, id) => page.$$eval(`#${id} svg .legend-item`, (items) => items.map((i) => i.textContent));

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

async function downloadText(page, buttonId) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`#${buttonId}`)]);
  return { name: dl.suggestedFilename(), text: (await downloadBytes(dl)).toString('utf8') };
}

// The floor marks of a plot's group data-series = key: their data-value (the module's numbers).
const floorValues = (page, id, key) => page.$$eval(`#${id} svg [data-series="${key}"] [data-value]`, (els) => els.map((e) => Number(e.dataset.value)));

test('SPEC 9 on the comparison: D_Λ per construction, 2m and d*(L) with their assumptions; (D, w) against both counting floors; all in the exports', async () => {
  const { ctx, page, errors } = await open(LINK);
  await page.click('#compare-run');
  await compareState(page, ['done', 'error']);
  const expected = [16, 32].map(core);
  // Plot (a): each construction's D_Λ (the module's), moment's D = 2m, d*(L).
  for (const n of ['jl', 'lp']) assert.deepEqual(await floorValues(page, 'plot-cmp-d', `${n}-floor`), expected.map((e) => e[n].floor.dLambda), n);
  assert.deepEqual(await floorValues(page, 'plot-cmp-d', 'moment-floor'), expected.map((e) => e.moment.bounds.dLambda));
  assert.deepEqual(await floorValues(page, 'plot-cmp-d', 'dStar'), expected.map((e) => e.jl.dStar));
  const legendA = await legendOf(page, 'plot-cmp-d');
  for (const n of ['jl', 'lp', 'moment']) assert.ok(legendA.some((t) => t.startsWith(`${n}: D_Λ, bounded logits Λ ≈ `)), legendA.join(' | '));
  assert.ok(legendA.includes('moment: D = 2m, exact arithmetic'), legendA.join(' | '));
  assert.ok(legendA.includes('d*(L) estimate: heuristic (§3.5)'), legendA.join(' | '));
  const jlScale = fmt(expected[1].jl.floor.logitScale, 2);
  assert.ok(legendA.includes(`jl: D_Λ, bounded logits Λ ≈ ${jlScale}`), `jl's Λ ${jlScale} in ${legendA.join(' | ')}`);
  // Plot (c): (D, w) of every X per L, both curves per L at the module's floors.
  assert.deepEqual(await seriesOf(page, 'plot-cmp-dw'), [['jl', 2], ['lp', 2], ['moment', 2]]);
  assert.deepEqual(await floorValues(page, 'plot-cmp-dw', 'bits_fixed_keys'), expected.map((e) => e.moment.bounds.bitsFixedKeys));
  assert.deepEqual(await floorValues(page, 'plot-cmp-dw', 'bits_free_keys'), expected.map((e) => e.moment.bounds.bitsFreeKeys));
  const legendC = await legendOf(page, 'plot-cmp-dw');
  for (const key of ['bits_fixed_keys', 'bits_free_keys']) assert.ok(legendC.includes(`${schema.bounds[key].label} (a proof)`), legendC.join(' | '));
  const dw = await tableCells(page, 'plot-cmp-dw-table');
  assert.deepEqual(dw[1], ['32', `D = ${expected[1].jl.trial0.d}, w = ${expected[1].jl.trial0.bounds.bitsPerNumber}`,
    `D = ${expected[1].lp.trial0.d}, w = ${expected[1].lp.trial0.bounds.bitsPerNumber}`, `D = 4, w = ${expected[1].moment.bounds.bitsPerNumber}`,
    fmt(expected[1].moment.bounds.bitsFixedKeys, 5), fmt(expected[1].moment.bounds.bitsFreeKeys, 5)]);
  // The exports hold every number drawn, unrounded.
  const json = JSON.parse((await downloadText(page, 'compare-export-json')).text);
  assert.deepEqual(json.rows, expected);
  const csv = (await downloadText(page, 'compare-export-csv')).text.trim().split('\n').map((l) => l.split(','));
  const head = csv[0];
  for (const k of ['d_star', 'logit_scale', 'd_lambda', 'ratio', 'bits_per_number', 'bits_fixed_keys', 'bits_free_keys']) assert.ok(head.includes(k), k);
  const line = (L, n) => Object.fromEntries(head.map((h, i) => [h, csv.find((r) => r[0] === String(L) && r[1] === n)[i]]));
  assert.equal(Number(line(32, 'jl').d_lambda), expected[1].jl.floor.dLambda);
  assert.equal(Number(line(32, 'jl').d_star), expected[1].jl.dStar);
  assert.equal(Number(line(32, 'moment').d_lambda), expected[1].moment.bounds.dLambda);
  assert.equal(Number(line(32, 'moment').bits_per_number), expected[1].moment.bounds.bitsPerNumber);
  assert.equal(Number(line(16, 'lp').bits_fixed_keys), expected[0].lp.trial0.bounds.bitsFixedKeys);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('SPEC 9 on the sweep\'s d-versus-L plot: D_Λ at the median Λ, D = 2m, d*(L), labelled; the exports carry them', async () => {
  const { ctx, page, errors } = await open('Ls=16,32&trials=2&seed=3&autorun=1');
  await page.waitForFunction(() => document.body.dataset.run === 'done', null, { timeout: 60000 });
  const points = (await page.evaluate(() => window.attnxLab.result)).points;
  assert.deepEqual(await floorValues(page, 'plot-dl', 'd_lambda'), points.map((p) => p.d_lambda));
  assert.deepEqual(await floorValues(page, 'plot-dl', 'two_m'), points.map((p) => api.bounds({ L: p.L, k: p.k }).momentD));
  assert.deepEqual(points.map((p) => api.bounds({ L: p.L, k: p.k }).momentD), [4, 4], 'D = 2m = 2k');
  const legend = await legendOf(page, 'plot-dl');
  assert.ok(legend.some((t) => t === `floor D_Λ, bounded logits Λ ≈ ${fmt(points[1].logit_scale, 2)}`), legend.join(' | '));
  assert.ok(legend.includes('D = 2m (moment): exact arithmetic'), legend.join(' | '));
  assert.ok(legend.includes('d*(L) estimate: heuristic (§3.5)'), legend.join(' | '));
  const json = JSON.parse((await downloadText(page, 'export-json')).text);
  assert.deepEqual(json.points.map((p) => [p.d_lambda, p.logit_scale, p.d_star, p.k]), points.map((p) => [p.d_lambda, p.logit_scale, p.d_star, p.k]));
  const csv = (await downloadText(page, 'export-csv')).text.split('\n');
  const head = csv[0].split(',');
  for (const k of ['d_star', 'k', 'logit_scale', 'd_lambda', 'bits_fixed_keys', 'bits_free_keys']) assert.ok(head.includes(k), k);
  assert.equal(Number(csv[2].split(',')[head.indexOf('d_lambda')]), points[1].d_lambda);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Cancel stops the comparison and keeps the parts that arrived', async () => {
  const { ctx, page, errors } = await open('preset=paper&trials=3');
  await page.click('#compare-run');
  assert.equal(await page.getAttribute('#compare-box', 'data-compare'), 'running');
  // Clicked in the page's own task once a part is drawn while the comparison still runs (a click
  // sent from here could land after it ended).
  const when = await page.waitForFunction(() => {
    if (document.getElementById('compare-box').dataset.compare !== 'running') return 'the comparison ended before a part was drawn';
    if (document.querySelectorAll('#plot-cmp-d svg .mark').length < 1) return false;
    document.getElementById('compare-cancel').click();
    return 'clicked';
  }, null, { timeout: 60000 });
  assert.equal(await when.jsonValue(), 'clicked');
  await compareState(page, ['cancelled']);
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
    const { context: ctx, page } = await reusedPage(site.browser, { viewport: { width: 900, height: 900 } });
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
