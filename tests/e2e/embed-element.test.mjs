// <attnx-explorer> (dist/embed/attnx.js) on a page of another origin: several elements share one
// worker pool and show the core's numbers; an element far below the viewport does not compute;
// attributes are validated with the link's messages and re-read when changed; shadow DOM keeps
// styles in and out; events report state and results; themes; pointer input inside a CSS-scaled
// container picks the right row; a hidden slide does not compute.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { load } from '../../web/lib/attnx.js';

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
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
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
  assert.match(change.link, /^#v=1&.*d=512/);
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
