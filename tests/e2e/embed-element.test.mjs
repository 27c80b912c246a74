// <attnx-explorer> and <attnx-lab> (dist/embed/attnx.js) on a page of another origin: several
// elements share one worker pool and show the core's numbers; an element far below the viewport
// does not compute; attributes are validated with the link's messages and re-read when changed;
// shadow DOM keeps styles in and out; events report state and results; themes; pointer input
// inside a CSS-scaled container picks the right row; a hidden slide does not compute. The lab
// element runs a small sweep in its shadow root whose numbers are the core's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { load } from '../../web/lib/attnx.js';
import { labTable, workerOptions } from '../../web/lab/settings.js';
import { readLink } from '../../web/lab/link.js';
import { reusedPage } from './page-reuse.mjs';

let site, host, browser, dir, api;

before(async () => {
  site = await startServer(servedDir(), 0);
  dir = mkdtempSync(join(tmpdir(), 'attnx-host-'));
  host = await startServer(dir, 0);
  browser = await launchChromium();
  api = await load({ flavour: 'simd' });
});

after(async () => {
  await browser?.close();
  await site?.close();
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Writes a host page (body html after the embed's script tag) and opens it.
async function openHost(body, { name = 'page.html', width = 900, colorScheme = 'light', head = '' } = {}) {
  writeFileSync(join(dir, name), `<!doctype html><html><head><meta charset="utf-8">${head}
<script type="module" src="${site.url}embed/attnx.js"></script></head><body>${body}</body></html>`);
  const { context, page } = await reusedPage(browser, { viewport: { width, height: 900 }, colorScheme });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(host.url + name);
  return { context, page, requests, errors };
}

const runsOf = (page, id) => page.evaluate((id) => document.getElementById(id).runs, id);
const waitRuns = (page, id, n = 1) => page.waitForFunction(([id, n]) => document.getElementById(id)?.runs >= n, [id, n], { timeout: 60000 });
const shadowText = (page, id, sel) => page.evaluate(([id, sel]) => document.getElementById(id).shadowRoot.querySelector(sel).textContent, [id, sel]);

test('two explorers on another origin show the core\'s metrics from one worker pool; one far below waits', async () => {
  const { context, page, requests, errors } = await openHost(`
<style>canvas { display: none !important; } .fig { border: 9px solid red; }</style>
<div class="fig" id="outside">host element with the class the embed uses</div>
<attnx-explorer id="a" pattern="window" l="64" w="1" d="2048" seed="3" figures="A,M,metrics"></attnx-explorer>
<attnx-explorer id="b" pattern="random" l="96" k="2" d="200" seed="5"></attnx-explorer>
<div style="height: 6000px"></div>
<attnx-explorer id="far" pattern="random" l="64" d="64"></attnx-explorer>`);
  await waitRuns(page, 'a');
  await waitRuns(page, 'b');
  const got = await page.evaluate(() => ['a', 'b'].map((id) => {
    const root = document.getElementById(id).shadowRoot;
    const value = (k) => root.querySelector(`#summary [data-metric="${k}"], #metrics [data-metric="${k}"]`)?.dataset.value;
    return { rho: value('rho'), zeta: value('zeta'), success: value('success'), canvas: getComputedStyle(root.querySelector('canvas.heat')).display };
  }));
  const want = [
    api.construct({ pattern: 'window', L: 64, w: 1, d: 2048, seed: 3 }),
    api.construct({ pattern: 'random', L: 96, k: 2, d: 200, seed: 5 }),
  ];
  for (let i = 0; i < 2; i++) {
    assert.equal(Number(got[i].rho), want[i].metrics.rho, `element ${i}: rho is the core's`);
    assert.equal(Number(got[i].zeta), want[i].metrics.zeta, `element ${i}: zeta is the core's`);
    assert.equal(got[i].canvas, 'block', 'host CSS does not reach into the shadow root');
  }
  assert.equal(got[0].success, String(want[0].metrics.success));
  const outside = await page.evaluate(() => getComputedStyle(document.getElementById('outside')).borderTopWidth);
  assert.equal(outside, '9px', 'the embed\'s CSS does not leak out');
  assert.deepEqual(await page.evaluate(() => [document.getElementById('far').started, document.getElementById('far').runs]), [false, 0]);
  const poolSize = await page.evaluate(() => Math.max(1, (navigator.hardwareConcurrency || 2) - 1));
  const wasm = requests.filter((u) => /attnx_(simd|scalar)\.wasm$/.test(u)).length;
  assert.ok(wasm >= 1 && wasm <= poolSize, `${wasm} module loads for ${poolSize} pooled workers (elements share the pool)`);
  await page.evaluate(() => document.getElementById('far').scrollIntoView());
  await waitRuns(page, 'far');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a changed attribute recomputes; bad attributes are named with their range; events report', async () => {
  const { context, page } = await openHost(`<attnx-explorer id="e" l="32" d="64" controls="d" foo="1"></attnx-explorer>`);
  await waitRuns(page, 'e');
  assert.match(await shadowText(page, 'e', '#messages'), /unknown attribute "foo" on <attnx-explorer>/);
  await page.evaluate(() => {
    window.got = [];
    for (const t of ['attnx-change', 'attnx-result']) document.addEventListener(t, (ev) => window.got.push([t, ev.detail]));
    document.getElementById('e').setAttribute('d', '0');
  });
  await page.waitForFunction(() => /d must be an integer from 1 to \d+ \(got "0"\)/.test(document.getElementById('e').shadowRoot.querySelector('#messages').textContent));
  await page.evaluate(() => {
    document.getElementById('e').removeAttribute('foo');
    document.getElementById('e').setAttribute('d', '512');
  });
  await page.waitForFunction(() => window.got.some(([t, d]) => t === 'attnx-result' && d.d === 512), null, { timeout: 60000 });
  const change = await page.evaluate(() => window.got.filter(([t]) => t === 'attnx-change').map(([, d]) => d).pop());
  assert.equal(change.state.d, 512);
  assert.match(change.link, /^#v=3&.*d=512/);
  assert.equal(await shadowText(page, 'e', '#messages'), '', 'fixed attributes clear their messages');
  // The form inside the element: typing a d commits it and reports it.
  const input = page.locator('attnx-explorer#e >> #f-d');
  await input.fill('100');
  await page.waitForFunction(() => window.got.some(([t, d]) => t === 'attnx-result' && d.d === 100), null, { timeout: 60000 });
  const r = await page.evaluate(() => window.got.filter(([t]) => t === 'attnx-result').pop()[1]);
  const want = api.construct({ L: 32, d: 100 });
  assert.equal(r.metrics.rho, want.metrics.rho);
  await context.close();
});

test('theme: light by default even in a dark system, dark on request, auto follows the system', async () => {
  const { context, page } = await openHost(`
<attnx-explorer id="l" l="16" d="16"></attnx-explorer>
<attnx-explorer id="d" l="16" d="16" theme="dark"></attnx-explorer>
<attnx-explorer id="a" l="16" d="16" theme="auto"></attnx-explorer>`, { colorScheme: 'dark' });
  const bg = await page.evaluate(() => ['l', 'd', 'a'].map((id) => getComputedStyle(document.getElementById(id).shadowRoot.querySelector('.ax')).backgroundColor));
  assert.deepEqual(bg, ['rgb(246, 247, 249)', 'rgb(20, 23, 28)', 'rgb(20, 23, 28)']);
  await context.close();
});

test('in a slide scaled by a CSS transform a click picks the row under the pointer; a hidden slide waits', async () => {
  const { context, page } = await openHost(`
<div style="width: 1600px; transform: scale(0.5); transform-origin: 0 0">
  <attnx-explorer id="s" pattern="window" l="40" w="1" d="256" figures="A,M"></attnx-explorer>
</div>
<div style="display: none"><attnx-explorer id="hidden" l="16" d="16"></attnx-explorer></div>`);
  await waitRuns(page, 's');
  await page.evaluate(() => document.addEventListener('attnx-change', (ev) => { window.row = ev.detail.state.row; }));
  const box = await page.locator('attnx-explorer#s >> #fig-M canvas.heat').boundingBox();
  assert.ok(box.width > 100 && box.width < 450, `the slide is scaled (canvas ${box.width} px wide on screen)`);
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * ((29 + 0.5) / 40));
  await page.waitForFunction(() => window.row !== undefined);
  assert.equal(await page.evaluate(() => window.row), 29);
  const mark = await page.evaluate(() => !document.getElementById('s').shadowRoot.querySelector('#fig-M .row-mark').hidden);
  assert.ok(mark, 'the picked row is marked');
  assert.deepEqual(await page.evaluate(() => [document.getElementById('hidden').started, document.getElementById('hidden').runs]), [false, 0]);
  await context.close();
});

// The core's numbers for a lab link (hash): each length's trials (sweepPoint, the trial seeds of
// `attnx sweep`) and the statistics and fits of them all (summariseSweep).
function coreSweep(hash) {
  const schema = api.schema();
  const table = labTable(schema);
  const st = readLink(schema, table, hash).state;
  const opts = workerOptions(schema, st);
  const Ls = st.Ls.split(',').map(Number);
  const points = Ls.map((L) => ({ L, dMins: Array.from(api.sweepPoint({ ...opts, L }).dMins, (d) => (d < 0 ? null : d)) }));
  return { points, summary: api.summariseSweep({ delta: st.delta, points }) };
}

const labRuns = (page, id, n = 1) => page.waitForFunction(([id, n]) => document.getElementById(id)?.runs >= n, [id, n], { timeout: 90000 });

test('<attnx-lab> runs its sweep in its shadow root with the core\'s numbers, shares the pool; one far below waits', async () => {
  const { context, page, requests, errors } = await openHost(`
<script>window.results = []; document.addEventListener('attnx-result', (e) => { if (e.target.id === 'lab') window.results.push(e.detail); });</script>
<style>svg { display: none !important; } .card, .plot-box { border: 7px solid red; } progress { display: none; }</style>
<div class="card" id="outside">host element with the class the lab uses</div>
<attnx-explorer id="x" l="32" d="64"></attnx-explorer>
<attnx-lab id="lab" ls="16,32,64" trials="3" autorun="1" figures="d-vs-L,success-vs-d,table"></attnx-lab>
<div style="height: 6000px"></div>
<attnx-lab id="far" ls="16,32" trials="2" autorun="1"></attnx-lab>`);
  await waitRuns(page, 'x');
  await labRuns(page, 'lab');
  const got = await page.evaluate(() => {
    const root = document.getElementById('lab').shadowRoot;
    const svg = root.querySelector('#plot-dl svg');
    return {
      results: window.results,
      svgDisplay: svg && getComputedStyle(svg).display,
      dots: root.querySelectorAll('#plot-dl svg circle').length,
      sdLines: root.querySelectorAll('#plot-sd svg polyline').length,
      border: getComputedStyle(root.querySelector('.plot-box')).borderTopWidth,
      rows: root.querySelectorAll('#results-table tbody tr').length,
      paperShown: getComputedStyle(root.querySelector('#paper-box')).display,
      formShown: getComputedStyle(root.querySelector('#settings')).display,
      outside: getComputedStyle(document.getElementById('outside')).borderTopWidth,
    };
  });
  assert.equal(got.svgDisplay, 'block', 'host CSS does not reach the plots in the shadow root');
  assert.equal(got.border, '0px', 'nor the lab\'s boxes');
  assert.equal(got.outside, '7px', 'the lab\'s CSS does not leak out');
  assert.ok(got.dots >= 9, `the d-versus-L plot shows every trial (${got.dots} circles)`);
  assert.equal(got.sdLines, 3, 'one success curve per length');
  assert.equal(got.rows, 3, 'figures="…,table" shows the results table');
  assert.equal(got.paperShown, 'none', 'figures without paper leaves the comparison out');
  assert.equal(got.formShown, 'none', 'no settings form without controls');
  // attnx-result: the sweep's points and fits, equal to what the core computes for the same link.
  assert.equal(got.results.length, 1);
  const res = got.results[0];
  const want = coreSweep('#v=1&Ls=16,32,64&trials=3');
  assert.deepEqual(res.points.map((p) => p.L), [16, 32, 64]);
  res.points.forEach((p, i) => {
    assert.deepEqual(p.d_mins, want.points[i].dMins, `L = ${p.L}: each trial's d_min is the core's`);
    assert.equal(p.median, want.summary.points[i].median);
    assert.equal(p.quantile, want.summary.points[i].quantile);
  });
  for (const f of ['log', 'power']) for (const k of Object.keys(want.summary.fits[f])) assert.equal(res.fits[f][k], want.summary.fits[f][k], `fit ${f}.${k}`);
  assert.equal(res.fitComparison.verdict, want.summary.fitComparison.verdict);
  assert.equal(res.complete, true);
  // One worker pool for the explorer and both labs; the far lab has not started.
  assert.deepEqual(await page.evaluate(() => [document.getElementById('far').started, document.getElementById('far').runs, document.getElementById('far').runState]), [false, 0, 'waiting']);
  const poolSize = await page.evaluate(() => Math.max(1, (navigator.hardwareConcurrency || 2) - 1));
  const wasm = () => requests.filter((u) => /attnx_(simd|scalar)\.wasm$/.test(u)).length;
  // The pooled workers' loads, plus one instance on the page for the labs' cheap calls (plan,
  // merge, plots' numbers), shared by every lab of the page.
  assert.ok(wasm() >= 1 && wasm() <= poolSize + 1, `${wasm()} module loads for ${poolSize} pooled workers and the page (explorer and lab share the pool)`);
  const loads = wasm();
  await page.evaluate(() => document.getElementById('far').scrollIntoView());
  await labRuns(page, 'far');
  assert.equal(wasm(), loads, 'no module load for the second lab');
  assert.deepEqual(errors, []);
  await context.close();
});

test('<attnx-lab>: bad attributes are named with their range; a changed attribute re-runs; controls and theme', async () => {
  const { context, page, errors } = await openHost(`
<script>window.got = []; for (const t of ['attnx-change', 'attnx-result']) document.addEventListener(t, (e) => window.got.push([t, e.detail]));</script>
<attnx-lab id="lab" ls="16,32" trials="0" wmin="2" autorun="1" figures="d-vs-L,plots" foo="1"></attnx-lab>`, { colorScheme: 'dark' });
  const messages = () => page.evaluate(() => document.getElementById('lab').shadowRoot.querySelector('#messages').textContent);
  await page.waitForFunction(() => document.getElementById('lab').shadowRoot.querySelectorAll('#messages li').length >= 4, null, { timeout: 60000 });
  const text = await messages();
  assert.match(text, /trials must be an integer from 1 to \d+ \(got "0"\)/);
  assert.match(text, /wMin must be a number in \(0, 1\] \(got "2"\)/, 'the schema\'s spelling of a lower-cased attribute');
  assert.match(text, /figures must be a comma-separated list of d-vs-L, paper, success-vs-d, compare, frontier, table \(got "plots"\)/);
  assert.match(text, /unknown attribute "foo" on <attnx-lab>/);
  assert.match(text, /asks? to run the sweep, but some are invalid/);
  assert.equal(await page.evaluate(() => document.getElementById('lab').runs), 0, 'invalid settings do not autorun');
  const change = await page.evaluate(() => window.got.filter(([t]) => t === 'attnx-change').pop()[1]);
  assert.equal(change.state.Ls, '16,32');
  assert.match(change.link, /^#v=\d+&Ls=16,32&/);
  // Light by default in a dark system; the form only with controls.
  const look = () => page.evaluate(() => {
    const root = document.getElementById('lab').shadowRoot;
    return { bg: getComputedStyle(root.querySelector('.ax')).backgroundColor, form: getComputedStyle(root.querySelector('#settings')).display };
  });
  assert.deepEqual(await look(), { bg: 'rgb(246, 247, 249)', form: 'none' });
  await page.evaluate(() => {
    const lab = document.getElementById('lab');
    for (const a of ['foo', 'wmin']) lab.removeAttribute(a);
    lab.setAttribute('figures', 'd-vs-L');
    lab.setAttribute('theme', 'dark');
    lab.setAttribute('controls', '');
    lab.setAttribute('trials', '2');
  });
  await labRuns(page, 'lab');
  assert.equal(await messages(), '', 'fixed attributes clear their messages');
  const res = await page.evaluate(() => window.got.filter(([t]) => t === 'attnx-result').pop()[1]);
  assert.deepEqual(res.points.map((p) => p.d_mins.length), [2, 2], 'the new trials were run');
  const want = coreSweep('#v=1&Ls=16,32&trials=2');
  assert.deepEqual(res.points.map((p) => p.d_mins), want.points.map((p) => p.dMins));
  const after = await look();
  assert.deepEqual(after, { bg: 'rgb(20, 23, 28)', form: 'block' });
  assert.equal(await page.locator('attnx-lab#lab >> #f-trials').inputValue(), '2', 'the form shows the attributes\' settings');
  assert.deepEqual(errors, []);
  await context.close();
});

// One controller (issue 22.1): the settings given as the page's link and as the element's
// attributes give the same state, the same canonical link and the same metrics card.
test('the same settings as a link and as attributes: identical state, metrics and canonical link', async () => {
  const attrs = 'pattern="dilated" l="100" r="3" d="512" seed="7" weights="random" eps="0.8" construction="jl"';
  const { context, page } = await openHost(`<attnx-explorer id="e" ${attrs}></attnx-explorer>`);
  await waitRuns(page, 'e');
  const element = await page.evaluate(() => {
    const e = document.getElementById('e');
    const metrics = {};
    for (const m of e.shadowRoot.querySelectorAll('#metrics [data-metric]')) metrics[m.dataset.metric] = m.dataset.value;
    return { state: { ...e.st }, link: e.link, metrics };
  });
  const pageTab = await context.newPage();
  await pageTab.goto(`${site.url}index.html#v=2&pattern=dilated&L=100&r=3&d=512&seed=7&weights=random&eps=0.8&construction=jl`);
  await pageTab.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
  // The page writes its canonical link URL_WRITE_MS after a change: read it once written (the
  // hash as typed is still there when the first result is drawn sooner than that).
  const link = await urlHash(pageTab);
  const shown = await pageTab.evaluate(() => {
    const metrics = {};
    for (const m of document.querySelectorAll('#metrics [data-metric]')) metrics[m.dataset.metric] = m.dataset.value;
    return { metrics };
  });
  shown.link = link;
  assert.ok(Object.keys(shown.metrics).length >= 5, 'the page shows its metrics card');
  assert.deepEqual(element.metrics, shown.metrics);
  assert.equal(element.link, shown.link);
  const { explorerTable } = await import('../../web/explorer/state.js');
  const { parseHash } = await import('../../web/common/hashstate.js');
  const schema = api.schema(), table = explorerTable(schema);
  const parsed = parseHash(table, shown.link, { page: 'explorer', schema });
  assert.deepEqual(parsed.errors, []);
  for (const [k, v] of Object.entries(parsed.state)) {
    if (k in element.state && !['help', 'embed', 'story', 'step', 'present', 'theme'].includes(k)) assert.deepEqual(element.state[k], v, `state field ${k}`);
  }
  await context.close();
});

// Issue 27.3 and 27.4: a value that does not apply is named and not used; a construction given
// without d computes at its own d.
test('construction="moment" d="192" says d does not apply; construction="lp" alone computes at lp\'s d', async () => {
  const { context, page } = await openHost(`<attnx-explorer id="m" l="64" construction="moment" d="192"></attnx-explorer>
<attnx-explorer id="p" l="64" construction="lp"></attnx-explorer>`);
  await waitRuns(page, 'm');
  await waitRuns(page, 'p');
  assert.match(await shadowText(page, 'm', '#messages'), /d = 192: d applies only to construction jl, lp or opt \(got construction moment\); it is not used/);
  const m = await page.evaluate(() => document.getElementById('m').st.d);
  assert.notEqual(m, 192);
  const p = await page.evaluate(() => ({ d: document.getElementById('p').st.d, link: document.getElementById('p').link }));
  const lp = api.schema().constructions.find((c) => c.name === 'lp');
  assert.equal(p.d, lp.explorerD);
  assert.match(p.link, new RegExp(`&d=${lp.explorerD}&`));
  assert.equal(await shadowText(page, 'p', '#messages'), '');
  await context.close();
});

// Issue 27.5: a connected element always reflects its current attributes, also after it was
// removed, changed and appended again.
test('a removed element whose attributes change while detached shows them when appended again', async () => {
  const { context, page } = await openHost('<div id="slot"></div>');
  await page.evaluate(() => {
    const e = document.createElement('attnx-explorer');
    e.id = 'r';
    e.setAttribute('l', '64');
    e.setAttribute('d', '512');
    document.getElementById('slot').append(e);
  });
  await waitRuns(page, 'r');
  await page.evaluate(() => {
    window.results = [];
    document.addEventListener('attnx-result', (ev) => window.results.push(ev.detail));
    const e = document.getElementById('r');
    e.remove();
    e.setAttribute('l', '32');
    e.setAttribute('d', '96');
    document.getElementById('slot').append(e);
  });
  await page.waitForFunction(() => window.results.some((r) => r.L === 32 && r.d === 96), null, { timeout: 60000 });
  const st = await page.evaluate(() => { const e = document.getElementById('r'); return [e.st.L, e.st.d]; });
  assert.deepEqual(st, [32, 96]);
  await context.close();
});
