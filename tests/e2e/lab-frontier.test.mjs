// attnx lab: "Dimensions against logit scale" (web/lab/frontier.js, SPEC §10.2) in headless
// Chromium: the button runs the core's frontier tasks in the worker pool; the plot labels every
// mark (the floor a proof, opt's points searches, lp, jl and moment constructions); every shown
// number is the core's, computed here in Node by the module's own frontier calls; the exports are
// the CLI's texts; the link reproduces it; Cancel stops it; a bad budget in the form is named.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { downloadBytes } from '../../scripts/chromium.mjs';
import { useSite } from './site-harness.mjs';
import { load } from '../../web/lib/attnx.js';
import { CLI } from '../node/helpers.mjs';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();
let api;
before(async () => {
  api = await load();
});

const HASH = 'v=3&L=24&trials=2&seed=3&scales=5.3,16&boxes=10,1000';
const OPTS = { pattern: 'random', L: 24, k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, trials: 2, seed: 3, scales: '5.3,16', boxes: '10,1000' };

// The frontier the page must show: the module's tasks run here, then its result (under the lab's
// memory budget, which the page uses).
function expected() {
  const opts = { ...OPTS, maxBytes: api.schema().contexts.lab.defaults.maxBytes };
  const tasks = api.frontierTasks(opts);
  const trials = tasks.map((_, i) => api.frontierTrial(opts, i));
  return { result: api.frontierResult(opts, trials), csv: api.frontierCsv(opts, trials) };
}

async function open(hash) {
  const { context: ctx, page } = await reusedPage(site.browser, { viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${site.server.url}lab.html#${hash}`);
  await page.waitForFunction(() => window.attnxLab && document.body.dataset.run !== 'loading', null, { timeout: 30000 });
  return { ctx, page, errors };
}

const state = (page, states) => page.waitForFunction((s) => s.includes(document.getElementById('frontier-box').dataset.frontier), states, { timeout: 120000 });

async function downloadText(page, id) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`#${id}`)]);
  return { name: dl.suggestedFilename(), text: (await downloadBytes(dl)).toString('utf8') };
}

test('Draw the frontier: the core\'s numbers, every mark labelled proof, search or construction; exports are the CLI\'s', async () => {
  const { ctx, page, errors } = await open(HASH);
  assert.match(await page.textContent('#frontier-status'), /^Ready: press Draw the frontier for L = 24, budgets 5\.3, 16 \(opt\), boxes 10, 1000 \(lp\), 2 trials, seed 3\. .*attnx frontier --L 24 --scales 5\.3,16 --boxes 10,1000 --trials 2 --seed 3\.$/);
  await page.click('#frontier-run');
  await state(page, ['done', 'error']);
  assert.equal(await page.getAttribute('#frontier-box', 'data-frontier'), 'done', await page.textContent('#frontier-status'));
  const want = expected();
  const shown = await page.evaluate(() => window.attnxLab.frontier);
  delete shown.version;
  delete want.result.version;
  assert.deepEqual(shown, want.result);
  // The marks: the floor (a proof), one group per construction with what its marks are.
  const groups = await page.$$eval('#plot-frontier svg [data-series]', (gs) => gs.map((g) => [g.dataset.series, g.dataset.mark]));
  assert.deepEqual(groups, [['floor', 'proof'], ['jl', 'construction'], ['lp', 'construction'], ['moment', 'construction'], ['opt', 'search']]);
  const legend = await page.$$eval('#plot-frontier svg .legend-item', (items) => items.map((i) => i.textContent));
  assert.deepEqual(legend, ['D_Λ floor: proof (§9.2)', 'jl: construction', 'lp: construction, as box varies', 'moment: construction', 'opt: search, median and range']);
  const optValues = await page.$$eval('#plot-frontier svg [data-series="opt"] .frontier-mark', (ms) => ms.map((m) => Number(m.dataset.value)));
  assert.deepEqual(optValues, want.result.points.filter((p) => p.construction === 'opt' && p.median !== null).map((p) => p.median));
  const floors = await page.$$eval('#plot-frontier svg [data-series="floor"] .floor-mark', (ms) => ms.map((m) => Number(m.dataset.value)));
  assert.deepEqual(floors, want.result.floor.map((f) => f.d_lambda));
  assert.equal(await page.$$eval('#plot-frontier-table tbody tr', (r) => r.length), want.result.floor.length + want.result.points.length);
  assert.match(await page.textContent('#plot-frontier-sentence'), /^At L = 24 over 2 targets: jl needs d = .* opt needs D = /);
  // Each point's row names its swept setting by the option (opt's budget, lp's box) and shows the core's median.
  const rows = await page.$$eval('#plot-frontier-table tbody tr', (r) => r.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const opt = want.result.points.find((p) => p.construction === 'opt' && p.scale === 5.3);
  const optRow = rows.find((r) => r[1] === 'opt' && r[2] === 'budget 5.3');
  assert.ok(optRow, JSON.stringify(rows));
  assert.equal(optRow[0], 'search');
  assert.match(optRow[3], opt.median === null ? /^not reached$/ : new RegExp(`^${opt.median} \\(${opt.min}–${opt.max}\\)$`));
  assert.ok(rows.some((r) => r[1] === 'lp' && r[2] === 'box 10' && r[0] === 'construction'), 'lp\'s row names its box');
  // The exports: the frontier's JSON and CSV as `attnx frontier` prints them.
  const flags = ['frontier', '--L', '24', '--trials', '2', '--seed', '3', '--scales', '5.3,16', '--boxes', '10,1000', '--max-bytes', String(api.schema().contexts.lab.defaults.maxBytes)];
  const csv = await downloadText(page, 'frontier-export-csv');
  assert.equal(csv.name, 'attnx-frontier-L24.csv');
  assert.equal(csv.text, execFileSync(CLI, [...flags, '--format', 'csv'], { encoding: 'utf8' }));
  const json = JSON.parse((await downloadText(page, 'frontier-export-json')).text);
  const cli = JSON.parse(execFileSync(CLI, flags, { encoding: 'utf8' }));
  delete json.version;
  delete cli.version;
  assert.deepEqual(json, cli);
  const svg = await downloadText(page, 'frontier-svg');
  assert.match(svg.text, /^<\?xml/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the frontier\'s settings are in the link and a bad budget is named in the form', async () => {
  const { ctx, page, errors } = await open(HASH);
  const st = await page.evaluate(() => window.attnxLab.state);
  assert.equal(st.L, 24);
  assert.equal(st.scales, '5.3,16');
  assert.equal(st.boxes, '10,1000');
  await page.fill('#f-scales', '1,5.3');
  await page.dispatchEvent('#f-scales', 'change');
  await page.click('#frontier-run');
  await state(page, ['error']);
  assert.match(await page.textContent('#messages'), /The frontier failed: scales holds 1: budget must be above ln\(1\/tau\)\/2 = 1\.15129 for construction opt/);
  await page.fill('#f-scales', '16,5.3');
  await page.dispatchEvent('#f-scales', 'change');
  assert.match(await page.textContent('[data-name="scales"] .field-msg'), /scales must be comma-separated ascending numbers in \(0, 1000000\], at most 16 of them \(got "16,5\.3"\)/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Cancel stops the frontier and keeps the points that were complete', async () => {
  const { ctx, page, errors } = await open('v=3&L=96&trials=3&seed=1&scales=4,5.3&boxes=1000');
  await page.click('#frontier-run');
  await page.waitForFunction(() => document.getElementById('frontier-box').dataset.frontier === 'running');
  await page.click('#frontier-cancel');
  await state(page, ['cancelled', 'done']);
  assert.match(await page.textContent('#frontier-status'), /^(Cancelled after .*; the plot shows the points that were complete\.|Done in )/);
  assert.equal(await page.isEnabled('#frontier-run'), true);
  assert.deepEqual(errors, []);
  await ctx.close();
});
