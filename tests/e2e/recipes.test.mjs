// The recipes in examples/, as a reader would use them, each on another origin than attnx: the
// plain HTML blog post (two explorers and a lab), the Hugo shortcodes and the Jekyll include
// (real `hugo` and `jekyll` builds), and the slide deck (a transform-scaled slide: a click picks
// the row under the pointer; the hidden slide computes only when shown).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { reusedPage } from './page-reuse.mjs';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
const PLACEHOLDER = 'http://localhost:8080/';
let site, browser, work;
const hosts = [];

before(async () => {
  site = await startServer(servedDir(), 0);
  browser = await launchChromium();
  work = mkdtempSync(join(tmpdir(), 'attnx-recipes-'));
});

after(async () => {
  await browser?.close();
  await site?.close();
  for (const h of hosts) await h.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

// Serves dir on its own port (another origin than the site) and opens path there.
async function open(dir, path, viewport = { width: 900, height: 900 }) {
  const host = await startServer(dir, 0);
  hosts.push(host);
  const { context, page } = await reusedPage(browser, { viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(host.url + path);
  return { context, page, errors, requests };
}

// Every <attnx-explorer> of the page drew a result that succeeds; the <attnx-lab> element ran its
// link's sweep (the paper preset) in its shadow root and drew its first lengths; explorers and lab
// loaded no more WebAssembly modules than the shared pool has workers.
async function checkPost(page, explorers, requests) {
  await page.waitForFunction((n) => {
    const els = [...document.querySelectorAll('attnx-explorer')];
    return els.length === n && els.every((e) => e.runs > 0);
  }, explorers, { timeout: 90000 });
  const success = await page.evaluate(() => [...document.querySelectorAll('attnx-explorer')].map((e) =>
    e.shadowRoot.querySelector('#metrics [data-metric="success"]')?.dataset.value));
  assert.deepEqual(success, Array(explorers).fill('true'));
  await page.locator('attnx-lab').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => (document.querySelector('attnx-lab').result?.points.length ?? 0) > 0, null, { timeout: 90000 });
  // The plot is redrawn at most every 100 ms after a point arrives (web/lab's render schedule).
  await page.waitForFunction(() => document.querySelector('attnx-lab').shadowRoot.querySelectorAll('#plot-dl svg circle').length >= 10, null, { timeout: 10000 }).catch(() => {});
  const lab = await page.evaluate(() => {
    const el = document.querySelector('attnx-lab');
    return { state: el.lab.store.get(), dots: el.shadowRoot.querySelectorAll('#plot-dl svg circle').length, frames: el.shadowRoot.querySelectorAll('iframe').length };
  });
  assert.equal(lab.state.Ls, '64,128,256,512', 'the paper preset fills the settings');
  assert.ok(lab.dots >= 10, `the plot shows the finished lengths' trials (${lab.dots} dots)`);
  assert.equal(lab.frames, 0, 'the lab is an element, not a frame');
  const poolSize = await page.evaluate(() => Math.max(1, (navigator.hardwareConcurrency || 2) - 1));
  const wasm = requests.filter((u) => /attnx_(simd|scalar)\.wasm$/.test(u)).length;
  // The pooled workers' loads, plus one instance on the page for the lab's cheap calls.
  assert.ok(wasm >= 1 && wasm <= poolSize + 1, `${wasm} module loads for ${poolSize} pooled workers and the page (explorers and lab share the pool)`);
}

test('the plain HTML blog post: two explorers succeed and the lab shows its plot', async () => {
  const dir = join(work, 'blog');
  cpSync(join(EXAMPLES, 'blog'), dir, { recursive: true });
  const f = join(dir, 'post.html');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll(PLACEHOLDER, site.url));
  const { context, page, errors, requests } = await open(dir, 'post.html');
  await checkPost(page, 2, requests);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Hugo shortcodes build a post whose explorers and lab work', async () => {
  const out = join(work, 'hugo-out');
  cpSync(join(EXAMPLES, 'hugo'), join(work, 'hugo'), { recursive: true });
  execFileSync('hugo', ['--quiet', '-s', join(work, 'hugo'), '-d', out], { env: { ...process.env, HUGO_PARAMS_ATTNX: site.url } });
  const { context, page, errors, requests } = await open(out, 'posts/attention/');
  await checkPost(page, 2, requests);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Jekyll include builds a post whose explorers and lab work', async () => {
  const src = join(work, 'jekyll'), out = join(work, 'jekyll-out');
  cpSync(join(EXAMPLES, 'jekyll'), src, { recursive: true });
  writeFileSync(join(work, 'override.yml'), `attnx_url: "${site.url}"\n`);
  execFileSync('jekyll', ['build', '-q', '--disable-disk-cache', '-s', src, '-d', out, '--config', `${join(src, '_config.yml')},${join(work, 'override.yml')}`]);
  const { context, page, errors, requests } = await open(out, 'attention/');
  await checkPost(page, 2, requests);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the deck: a click on a scaled slide picks its row; the next slide computes only when shown', async () => {
  const dir = join(work, 'deck');
  cpSync(join(EXAMPLES, 'deck'), dir, { recursive: true });
  const f = join(dir, 'index.html');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll(PLACEHOLDER, site.url));
  const { context, page, errors } = await open(dir, 'index.html', { width: 800, height: 450 });
  await page.waitForFunction(() => document.getElementById('s1').runs > 0, null, { timeout: 60000 });
  assert.deepEqual(await page.evaluate(() => [document.getElementById('s2').started, document.getElementById('s2').runs]), [false, 0]);
  await page.evaluate(() => document.addEventListener('attnx-change', (ev) => { window.row = ev.detail.state.row; }));
  const box = await page.locator('#s1 >> #fig-M canvas.heat').boundingBox();
  assert.ok(box.width < 280, `the slide is scaled down (M is ${box.width} px wide)`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * (40.5 / 64));
  await page.waitForFunction(() => window.row !== undefined);
  assert.equal(await page.evaluate(() => window.row), 40);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('s2').runs > 0, null, { timeout: 60000 });
  assert.deepEqual(errors, []);
  await context.close();
});
