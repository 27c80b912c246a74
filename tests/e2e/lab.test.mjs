// attnx lab: end-to-end tests of web/lab.html in headless Chromium (system browser).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launchChromium, downloadBytes } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';
import { reusedPage } from './page-reuse.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// dist/ (a copy of web/ made by scripts/build-dist) when it exists, else web/.
const WEB = existsSync(`${ROOT}dist/lab.html`) && existsSync(`${ROOT}dist/wasm`) ? `${ROOT}dist` : `${ROOT}web`;
const OUT = `${ROOT}test-output`;
const CLI = `${ROOT}build/native/attnx`;

let server, browser, schema;
const consoleErrors = [];

before(async () => {
  schema = (await load()).schema();
  server = await startServer(WEB, 0);
  browser = await launchChromium();
  mkdirSync(OUT, { recursive: true });
});
after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

async function open(hash = '', { width = 1280, height = 900, scheme = 'light' } = {}) {
  const { context: ctx, page } = await reusedPage(browser, { viewport: { width, height }, colorScheme: scheme, acceptDownloads: true });
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(`${m.text()} @ ${page.url()}`); });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  await page.goto(`${server.url}lab.html${hash}`);
  await page.waitForFunction(() => window.attnxLab && document.body.dataset.run !== 'loading', null, { timeout: 30000 });
  return { page, ctx };
}

const waitRun = (page, states = ['done'], timeout = 120000) =>
  page.waitForFunction((s) => s.includes(document.body.dataset.run), states, { timeout });
const result = (page) => page.evaluate(() => window.attnxLab.result);
const messages = (page) => page.$$eval('#messages li', (l) => l.map((x) => x.textContent));

async function downloadText(page, buttonId) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`#${buttonId}`)]);
  return { name: dl.suggestedFilename(), data: await downloadBytes(dl) };
}

test('a small sweep shows both plots, the fits and the table', async () => {
  const { page, ctx } = await open('#Ls=16,32,64&trials=4&autorun=1');
  await waitRun(page);
  const r = await result(page);
  assert.deepEqual(r.points.map((p) => p.L), [16, 32, 64]);
  assert.ok(r.points.every((p) => p.d_mins.length === 4));
  // Plot 1: one dot per trial (circles with a title "L = .., trial ..").
  const dots = await page.$$eval('#plot-dl svg title', (ts) => ts.filter((t) => /trial \d+: d_min =/.test(t.textContent)).length);
  assert.equal(dots, 12);
  assert.ok(await page.$eval('#plot-dl svg', (s) => s.querySelectorAll('polyline').length >= 4), 'median, quantile and fit lines');
  // Plot 2: one ECDF line per L, with a legend entry each.
  const lines = await page.$$eval('#plot-sd svg polyline', (p) => p.length);
  assert.equal(lines, 3);
  const legend = await page.$$eval('#plot-sd svg .legend-item text', (t) => t.map((x) => x.textContent));
  assert.deepEqual(legend.slice(0, 3), ['L = 16', 'L = 32', 'L = 64']);
  // Table and sentence.
  const rows = await page.$$eval('#results-table tbody tr', (t) => t.map((r) => r.querySelector('th').textContent));
  assert.deepEqual(rows, ['16', '32', '64']);
  assert.match(await page.textContent('#fit-sentence'), /R² \d\.\d{3}.*p = -?\d\.\d\d/);
  assert.match(await page.textContent('#status'), /Done: 3 lengths × 4 trials/);
  // The result stays on show when the settings change, and its line says they are no longer its.
  const since = /The settings have changed since: press Run sweep to measure them\.$/;
  assert.doesNotMatch(await page.textContent('#result-source'), since);
  await page.fill('#f-trials', '5');
  await page.dispatchEvent('#f-trials', 'change');
  assert.match(await page.textContent('#result-source'), since);
  await page.fill('#f-trials', '4');
  await page.dispatchEvent('#f-trials', 'change');
  assert.doesNotMatch(await page.textContent('#result-source'), since, 'back to the run\'s settings');
  await page.evaluate(() => { location.hash = '#Ls=16,32&trials=4'; });
  await page.waitForFunction(() => /changed since/.test(document.getElementById('result-source').textContent));
  await ctx.close();

  const one = await open('#Ls=16&trials=1&autorun=1');
  await waitRun(one.page);
  assert.match(await one.page.textContent('#status'), /Done: 1 length × 1 trial in/);
  await one.ctx.close();
});

test('the browser reproduces attnx sweep exactly (same seeds, same JSON)', async (t) => {
  if (!existsSync(CLI)) return t.skip('build/native/attnx is not built');
  const { page, ctx } = await open('#Ls=32,64,128&trials=5&seed=7&autorun=1');
  await waitRun(page);
  const { name, data } = await downloadText(page, 'export-json');
  assert.match(name, /^attnx-sweep-random-L32-128\.json$/);
  // The browser's memory budget (recorded in the file) given to the CLI too: the files can then
  // be compared byte for byte.
  const maxBytes = (await result(page)).params.max_bytes;
  assert.equal(maxBytes, schema.contexts.lab.defaults.maxBytes);
  const cli = execFileSync(CLI, ['sweep', '--pattern', 'random', '--k', '2', '--Ls', '32,64,128', '--trials', '5', '--seed', '7', '--max-bytes', String(maxBytes)], { encoding: 'utf8' });
  const a = JSON.parse(data.toString('utf8')), b = JSON.parse(cli);
  assert.deepEqual(a.points.map((p) => p.d_mins), b.points.map((p) => p.d_mins),
    'browser (web/wasm) and native (build/native) d_mins differ: SPEC §6 parity, or one build is stale (scripts/build-native, scripts/build-wasm)');
  assert.deepEqual(a.points.map((p) => [p.median, p.quantile, p.k, p.max_col_count, p.in_class]), b.points.map((p) => [p.median, p.quantile, p.k, p.max_col_count, p.in_class]));
  for (let i = 0; i < a.points.length; i++) assert.ok(Math.abs(a.points[i].d_star - b.points[i].d_star) <= 1e-4 * b.points[i].d_star);
  // The page split the lengths into parts of a few trials; the merged points add up the same work.
  const tasks = await page.evaluate(() => window.attnxLab.plan([32, 64, 128], 5).length);
  assert.ok(tasks > 3, `${tasks} tasks`);
  assert.deepEqual(a.points.map((p) => p.madds), b.points.map((p) => p.madds));
  // Same layout and keys; byte for byte when the builds agree on every d* to the last bit.
  assert.deepEqual(Object.keys(a), Object.keys(b));
  assert.deepEqual(Object.keys(a.params), Object.keys(b.params));
  assert.deepEqual(a.params, b.params);
  if (a.points.every((p, i) => p.d_star === b.points[i].d_star)) assert.equal(data.toString('utf8'), cli);
  const csv = await downloadText(page, 'export-csv');
  const cliCsv = execFileSync(CLI, ['sweep', '--pattern', 'random', '--k', '2', '--Ls', '32,64,128', '--trials', '5', '--seed', '7', '--format', 'csv'], { encoding: 'utf8' });
  if (a.points.every((p, i) => p.d_star === b.points[i].d_star)) assert.equal(csv.data.toString('utf8'), cliCsv);
  await ctx.close();
});

test('cancel mid-run keeps a consistent partial result; exports parse and re-import', async () => {
  const { page, ctx } = await open('#Ls=16,32,64,128,256,512,1024,2048&trials=6');
  await page.click('#run');
  // Cancel is clicked in the page's own task, in the one that sees a length in while the run
  // still runs: a click sent from here could land after the run ended (it once did on a loaded
  // machine, and the test then waited for a cancellation that never came).
  const when = await page.waitForFunction(() => {
    if (window.attnxLab.runState !== 'running') return 'the run ended before a length was in';
    if ((window.attnxLab.result?.points.length ?? 0) < 1) return false;
    document.getElementById('cancel').click();
    return 'clicked';
  }, null, { timeout: 120000 });
  assert.equal(await when.jsonValue(), 'clicked');
  await waitRun(page, ['cancelled']);
  const r = await result(page);
  const n = r.points.length;
  assert.ok(n >= 1 && n < 8, `partial: ${n} lengths`);
  assert.equal(r.complete, false);
  assert.deepEqual(r.params.Ls, r.points.map((p) => p.L));
  assert.ok(r.points.every((p) => p.d_mins.length === 6 && p.median !== undefined));
  const order = (await page.evaluate(() => window.attnxLab.concurrency)) > 1 ? 'desc' : 'asc';
  assert.ok(r.points.map((p) => p.L).includes(order === 'desc' ? 2048 : 16), `scheduling order ${order}`);
  assert.match(await page.textContent('#status'), /Cancelled .* lengths finished/);
  assert.doesNotMatch(await page.textContent('#result-source'), /changed since/, 'a cancelled run keeps its settings');
  const states = await page.$$eval('#results-table td.state', (t) => t.map((x) => x.textContent));
  assert.equal(states.length, 8 - n);
  assert.ok(states.every((s) => s === 'cancelled'), states.join(','));
  assert.equal(await page.isEnabled('#run'), true);
  assert.equal(await page.isDisabled('#cancel'), true);

  // Exports of the partial result.
  const json = await downloadText(page, 'export-json');
  const doc = JSON.parse(json.data.toString('utf8'));
  assert.equal(doc.command, 'sweep');
  assert.deepEqual(doc.params.Ls, r.points.map((p) => p.L));
  assert.equal(doc.points.length, n);
  const csv = await downloadText(page, 'export-csv');
  const lines = csv.data.toString('utf8').trim().split('\n');
  // attnx sweep's columns, SPEC §9's bounds included (the floors the plots draw).
  assert.equal(lines[0], 'L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins,logit_scale,column_supports,d_lambda,ratio,max_abs_logit,d_logit,ratio_logit,bits_fixed_keys,bits_free_keys,bits_free_keys_regular,logit_scales,max_abs_logits');
  assert.equal(lines.length, n + 1);
  const svg = await downloadText(page, 'dl-svg');
  assert.match(svg.data.toString('utf8'), /^<\?xml[^]*<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const svg2 = await downloadText(page, 'sd-svg');
  assert.match(svg2.name, /success-vs-d\.svg$/);
  const png = await downloadText(page, 'dl-png');
  assert.deepEqual([...png.data.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  assert.ok(png.data.length > 5000);
  assert.equal(png.data.readUInt32BE(16), 2 * (await page.$eval('#plot-dl svg', (s) => Number(s.getAttribute('width')))));

  // The worker pool recovered from the cancellation: a new run works.
  await page.fill('#f-Ls', '16,32');
  await page.dispatchEvent('#f-Ls', 'change');
  await page.fill('#f-trials', '2');
  await page.dispatchEvent('#f-trials', 'change');
  await page.click('#run');
  await waitRun(page);
  assert.deepEqual((await result(page)).points.map((p) => p.L), [16, 32]);

  // Re-import the exported JSON (and CSV) of the partial run.
  writeFileSync(`${OUT}/lab-partial.json`, json.data);
  await page.setInputFiles('#import-file', { name: 'partial.json', mimeType: 'application/json', buffer: json.data });
  await waitRun(page, ['imported']);
  const back = await result(page);
  assert.deepEqual(back.points.map((p) => p.d_mins), r.points.map((p) => p.d_mins));
  assert.match(await page.textContent('#status'), /Imported partial\.json/);
  await page.fill('#f-trials', '3');
  await page.dispatchEvent('#f-trials', 'change');
  assert.doesNotMatch(await page.textContent('#result-source'), /changed since/, "an imported file's settings are its own");
  await page.setInputFiles('#import-file', { name: 'partial.csv', mimeType: 'text/csv', buffer: csv.data });
  await page.waitForFunction(() => /Imported partial\.csv/.test(document.getElementById('status').textContent));
  assert.deepEqual((await result(page)).points.map((p) => p.quantile), r.points.map((p) => p.quantile));

  // A broken file: a message naming the problem, previous results stay.
  const broken = JSON.parse(json.data.toString('utf8'));
  broken.points[0].d_mins[1] = -3;
  await page.setInputFiles('#import-file', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
  await page.waitForFunction(() => document.querySelectorAll('#messages li').length > 0);
  const msg = (await messages(page)).join(' ');
  assert.match(msg, /broken\.json: points\[0\]\.d_mins\[1\] must be an integer d from 1 to 4096 or null \(got -3\)/);
  assert.match(msg, /previous results kept/);
  assert.deepEqual((await result(page)).points.map((p) => p.d_mins), r.points.map((p) => p.d_mins));
  await page.setInputFiles('#import-file', { name: 'notjson.json', mimeType: 'application/json', buffer: Buffer.from('{"points": [') });
  await page.waitForFunction(() => /notjson\.json: the file is not valid JSON/.test(document.getElementById('messages').textContent));
  await ctx.close();
});

test('imports a larger native run made by the CLI', { timeout: 300000 }, async (t) => {
  if (!existsSync(CLI)) return t.skip('build/native/attnx is not built');
  const text = execFileSync(CLI, ['sweep', '--Ls', '64,256,1024,4096,8192', '--trials', '2', '--seed', '2'], { encoding: 'utf8' });
  const { page, ctx } = await open('');
  await page.setInputFiles('#import-file', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await waitRun(page, ['imported']);
  const rows = await page.$$eval('#results-table tbody th', (t) => t.map((x) => x.textContent));
  assert.deepEqual(rows, ['64', '256', '1024', '4096', '8192']);
  assert.match(await page.textContent('#result-source'), /Imported big\.json \(attnx 0\.1\.0\)/);
  assert.match(await page.textContent('#fit-sentence'), /Logarithmic fit/);
  await ctx.close();
});

test('paper preset: medians in the paper band region, rising with L', async () => {
  const { page, ctx } = await open('');
  await page.click('#preset-paper');
  // The link is the current (v=2) form: every compute option, the preset's values among them.
  const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
  assert.deepEqual([...hash.keys()], ['v', ...schema.linkCompute.lab]);
  assert.equal(hash.get('v'), String(schema.linkVersion));
  for (const [k, v] of Object.entries(schema.presets.paper.values)) assert.equal(hash.get(k), String(v), k);
  assert.equal(await page.inputValue('#f-Ls'), schema.presets.paper.values.Ls);
  await page.click('#run');
  await waitRun(page);
  const r = await result(page);
  const med = r.points.map((p) => p.median);
  assert.deepEqual(r.points.map((p) => p.L), [64, 128, 256, 512]);
  assert.ok(med.every((m) => m !== null && m >= 200 && m <= 1500), `medians ${med}`);
  assert.ok(med[3] > med[0], `medians rise overall: ${med}`);
  assert.ok(r.fits.log.ok && r.fits.log.b > 0, 'positive slope in ln L');
  assert.equal(await page.isVisible('#paper-box'), true);
  const band = schema.presets.paper.band;
  assert.match(band.text, /300–1000 suffices for k = 2, L in the hundreds/);
  assert.ok((await page.textContent('#paper-text')).startsWith(`The paper reports: ${band.text}. Measured here: median d_min `));
  assert.ok(await page.$eval('#plot-dl svg', (s, t) => s.textContent.includes(`paper: ${t}`), band.text));
  await page.screenshot({ path: `${OUT}/lab.png`, fullPage: true });
  // Stretching the axis shows the d*(L) curve in full.
  const hiBefore = await page.$eval('#plot-dl svg', (s) => Math.max(...[...s.querySelectorAll('text')].map((t) => Number(t.textContent)).filter(Number.isFinite)));
  await page.check('#full-dstar');
  await page.waitForFunction((h) => Math.max(...[...document.querySelectorAll('#plot-dl svg text')].map((t) => Number(t.textContent)).filter(Number.isFinite)) > h, hiBefore);
  await ctx.close();
});

// The picture first: the d-versus-L plot is on the first screen of a laptop and, once a sweep has
// a result, of a phone; what the lab measures is one click away.
test('the paper sweep opens on its plot at 1280×720 and on a phone; the explanation is one click away', async () => {
  for (const size of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    const { page, ctx } = await open('#preset=paper&autorun=1', size);
    await waitRun(page);
    const r = await page.evaluate(() => {
      const b = document.querySelector('#plot-dl svg').getBoundingClientRect();
      return { top: b.top, shown: Math.min(b.bottom, innerHeight) - b.top, height: b.height, y: scrollY };
    });
    assert.equal(r.y, 0);
    assert.ok(r.top >= 0 && r.shown >= Math.min(r.height, 300), `${size.width}×${size.height}: the plot is on the first screen (${JSON.stringify(r)})`);
    assert.deepEqual([await page.evaluate(() => document.querySelector('.lab-about').open), await page.isVisible('.lab-lede')], [false, false], 'the explanation starts closed');
    await page.click('.lab-about > summary');
    assert.match(await page.textContent('.lab-lede'), /\(1−δ\)-quantile/);
    assert.ok(await page.isVisible('.lab-lede'));
    await ctx.close();
  }
});

test('link state: autorun, explicit fields, bad values named with their range', async () => {
  const { page, ctx } = await open('#k=0&eps=abc&Ls=64,32&pattern=nope&trials=2');
  const msg = (await messages(page)).join('\n');
  // k is checked against the link's grid (smallest L 32) before the grid itself is refused.
  assert.match(msg, /k must be an integer from 1 to 32 \(got "0"\)/);
  assert.match(msg, /eps must be a number in \[1e-06, 100\] \(got "abc"\)/);
  assert.match(msg, /Ls must be strictly increasing \(got 64 then 32\)/);
  assert.match(msg, /pattern must be one of random, permutation/);
  assert.equal(await page.inputValue('#f-trials'), '2');
  assert.equal(await page.inputValue('#f-k'), '2');
  // Typing a bad value names the field; Run refuses until fixed.
  await page.fill('#f-tau', '1.5');
  await page.dispatchEvent('#f-tau', 'change');
  assert.match(await page.textContent('#f-tau-msg'), /tau must be a number in \(0, 1\) \(got "1\.5"\)/);
  assert.equal(await page.getAttribute('#f-tau', 'aria-invalid'), 'true');
  assert.equal(await page.isDisabled('#run'), true);
  await page.fill('#f-tau', '0.2');
  await page.dispatchEvent('#f-tau', 'change');
  assert.equal(await page.isEnabled('#run'), true);
  assert.match(await page.evaluate(() => location.hash), /^#v=3&.*&tau=0\.2&/);
  // A grid outside the lab's range: the message names the field and the range from the schema.
  await page.fill('#f-Ls', `16,${schema.contexts.lab.max.Ls * 2}`);
  await page.dispatchEvent('#f-Ls', 'change');
  assert.match(await page.textContent('#f-Ls-msg'), new RegExp(`^Ls must be comma-separated integers from 2 to ${schema.contexts.lab.max.Ls}, at most ${schema.options.Ls.maxCount} of them`));
  await page.fill('#f-Ls', '16,32');
  await page.dispatchEvent('#f-Ls', 'change');
  assert.equal(await page.textContent('#f-Ls-msg'), '');
  // A window pattern: only its own parameter is shown and linked.
  await page.selectOption('#f-pattern', 'window');
  assert.equal(await page.isVisible('#f-w'), true);
  assert.equal(await page.isVisible('#f-k'), false);
  await page.fill('#f-w', '1');
  await page.dispatchEvent('#f-w', 'change');
  assert.match(await page.evaluate(() => location.hash), /pattern=window/);
  await ctx.close();

  const b = await open('#preset=paper&trials=2&Ls=32,64&autorun=1');
  await waitRun(b.page);
  const r = await result(b.page);
  assert.deepEqual(r.points.map((p) => p.L), [32, 64]);
  assert.equal(r.params.trials, 2);
  await b.ctx.close();
});

test('a v=1 link restores every setting; the skip link and element hashes leave the settings alone', async () => {
  const link = '#v=1&Ls=16,32&pattern=window&k=2&w=3&r=2&block=4&stride=8&globals=1&randoms=1&weights=decaying&wMin=0.1&decay=2&eps=0.5&tau=0.2&delta=0.2&trials=3&step=8&dmax=512&seed=9';
  const { page, ctx } = await open(link);
  assert.deepEqual(await messages(page), []);
  const st = await page.evaluate(() => window.attnxLab.state);
  for (const [k, v] of new URLSearchParams(link.slice(1))) if (k !== 'v') assert.equal(String(st[k]), v, k);
  assert.equal(await page.inputValue('#f-w'), '3');
  assert.equal(await page.isVisible('#f-decay'), true);
  // Keyboard user: Tab to the skip link, Enter. Focus moves to the results; the URL and the
  // settings stay as they were.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'skip-results');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'results');
  assert.equal(await page.evaluate(() => location.hash), link);
  assert.deepEqual(await page.evaluate(() => window.attnxLab.state), st);
  // An element id typed as the hash is no link: ignored, no message.
  await page.evaluate(() => { location.hash = '#results'; });
  await page.waitForFunction(() => location.hash === '#results');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
  assert.deepEqual(await page.evaluate(() => window.attnxLab.state), st);
  assert.deepEqual(await messages(page), []);
  // An unknown link version refuses the whole link, naming the allowed versions.
  await page.evaluate(() => { location.hash = '#v=9&trials=4'; });
  await page.waitForFunction(() => document.querySelectorAll('#messages li').length > 0);
  assert.match((await messages(page)).join(' '), /v must be a link version from 0 to 3 \(got "9"\)/);
  assert.deepEqual(await page.evaluate(() => window.attnxLab.state), st, 'the settings stay');
  await ctx.close();
});

test('usable at 360 px, dark mode, keyboard', async () => {
  const { page, ctx } = await open('#Ls=16,32&trials=3', { width: 360, height: 740, scheme: 'dark' });
  // Keyboard: Enter in a field runs the sweep.
  await page.focus('#f-trials');
  await page.keyboard.press('Enter');
  await waitRun(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
  const w = await page.$eval('#plot-dl svg', (s) => s.getBoundingClientRect().width);
  assert.ok(w <= 340 && w >= 280, `plot width ${w}`);
  const bg = await page.$eval('#plot-dl svg rect', (r) => r.getAttribute('fill'));
  assert.equal(bg, '#1d2128');
  // Every form control has a label.
  const unlabelled = await page.$$eval('input, select, button', (els) => els.filter((e) => {
    if (e.type === 'file' || e.hidden) return false;
    const id = e.id && document.querySelector(`label[for="${e.id}"]`);
    return !(id || e.closest('label') || e.getAttribute('aria-label') || e.textContent.trim());
  }).map((e) => e.id));
  assert.deepEqual(unlabelled, []);
  await page.screenshot({ path: `${OUT}/lab-360-dark.png`, fullPage: true });
  await ctx.close();
});

test('no console errors', () => {
  const real = consoleErrors.filter((e) => !/favicon/.test(e));
  assert.deepEqual(real, []);
});

test('the lab page runs one worker per core (its own thread idles during a run), and says so', async () => {
  const { page, ctx } = await open();
  const [cores, concurrency, info] = await page.evaluate(() => [navigator.hardwareConcurrency, window.attnxLab.concurrency,
    document.getElementById('pool-info').textContent]);
  assert.equal(concurrency, cores);
  assert.match(info, new RegExp(`^Runs on ${cores} workers? \\(one per core\\)`));
  await ctx.close();
});

test('the lab starts all its workers while it idles after loading, before any run needs them', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });  // its own: an init script of its own
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    window.__attnxWorkers = 0;  // pool workers started (named 'attnx'; the render worker is not the lab's)
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(url, opts) {
        super(url, opts);
        if (opts && opts.name === 'attnx') window.__attnxWorkers++;
      }
    };
  });
  await page.goto(`${server.url}lab.html`);
  await page.waitForFunction(() => window.attnxLab && document.body.dataset.run === 'idle', null, { timeout: 30000 });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.waitForFunction((n) => window.__attnxWorkers >= n, cores, { timeout: 10000 });
  assert.equal(await page.evaluate(() => [window.__attnxWorkers, document.body.dataset.run].join()), `${cores},idle`);
  await ctx.close();
});
