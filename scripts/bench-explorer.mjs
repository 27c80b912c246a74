#!/usr/bin/env node
// attnx explorer benchmark (npm run bench:explorer): how quickly the explorer page answers a
// change of d, and how long the main thread is ever blocked meanwhile. Serves dist/ (or web/
// when dist/ has not been built; ATTNX_E2E_DIR overrides) like the e2e tests, opens index.html
// in headless Chromium and, for L = 256 and L = 1024, types several values into the d field.
//   latency: input event on #f-d -> data-runs increments with data-busy = '0' -> next animation
//            frame (includes the page's 150 ms debounce);
//   longest task: the longest main-thread task seen during those changes (PerformanceObserver
//            'longtask'; only tasks of 50 ms or more are reported by the browser).
// A report, not a test: it prints a table and exits 0 (1 only if the page never draws).
//
//   node scripts/bench-explorer.mjs
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIR = servedDir();
const LS = [256, 1024];
const START_D = 64;                                       // the d the page opens with
const DS = [96, 128, 192, 256, 384, 512, 768, 1024];      // the d values typed, in this order
const DRAW_TIMEOUT_MS = 180000;                           // only so that a broken page cannot hang

// Installed before the page's own scripts: collects every long task into window.__long.
function recordLongTasks() {
  window.__long = [];
  window.__longObs = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); });
  window.__longObs.observe({ type: 'longtask' });
}

// Waits until at least n computations have been drawn and nothing is pending.
async function ready(page, n) {
  await page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
    && document.documentElement.dataset.busy === '0', n, { timeout: DRAW_TIMEOUT_MS });
}

// Types d into the d field (one input event, as a user edit) and returns the milliseconds until
// that computation is drawn and the next frame starts, measured inside the page.
function changeD(page, d) {
  return page.evaluate(async ({ d, limit }) => {
    const html = document.documentElement;
    const n = Number(html.dataset.runs || 0);
    let timer = 0, mo = null;
    const drawn = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`d = ${d} was not drawn within ${limit} ms`)), limit);
      mo = new MutationObserver(() => {
        if (Number(html.dataset.runs || 0) > n && html.dataset.busy === '0') resolve();
      });
      mo.observe(html, { attributes: true, attributeFilter: ['data-runs', 'data-busy'] });
    });
    const input = document.getElementById('f-d');
    const t0 = performance.now();
    input.value = String(d);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    try {
      await drawn;
    } finally {
      clearTimeout(timer);
      mo.disconnect();
    }
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - t0;
  }, { d, limit: DRAW_TIMEOUT_MS });
}

// Nearest-rank percentile of a non-empty list.
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(p * s.length) - 1)];
}

// One page at L: loads it, then measures every change in DS. Returns the row of the table.
async function benchL(browser, url, L) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(recordLongTasks);
  await page.goto(`${url}#L=${L}&d=${START_D}&help=0`);
  await ready(page, 1);
  await page.evaluate(() => { window.__longObs.takeRecords(); window.__long = []; });  // load excluded
  const lat = [];
  for (const d of DS) lat.push(await changeD(page, d));
  const longest = await page.evaluate(() => {
    for (const e of window.__longObs.takeRecords()) window.__long.push(e.duration);
    return Math.max(0, ...window.__long);
  });
  await context.close();
  return { L, n: lat.length, p50: percentile(lat, 0.5), p95: percentile(lat, 0.95), longest };
}

function printTable(rows) {
  const f = (x) => x.toFixed(0).padStart(9);
  console.log(`explorer benchmark: ${DIR.replace(ROOT, '')}, headless Chromium, ${cpus().length} CPU(s); d typed as ${DS.join(', ')} (from ${START_D})`);
  console.log('latency = input event on #f-d -> drawn (data-runs up, busy 0) -> next frame; includes the 150 ms debounce');
  console.log('longest task = longest main-thread task during the changes (0 = none of 50 ms or more)\n');
  console.log('     L  changes   p50 ms   p95 ms  longest task ms');
  for (const r of rows) console.log(`${String(r.L).padStart(6)}${String(r.n).padStart(9)}${f(r.p50)}${f(r.p95)}${f(r.longest).padStart(17)}`);
}

async function main() {
  const server = await startServer(DIR, 0);
  const browser = await launchChromium();
  try {
    const rows = [];
    for (const L of LS) rows.push(await benchL(browser, server.url, L));
    printTable(rows);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`bench-explorer: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
