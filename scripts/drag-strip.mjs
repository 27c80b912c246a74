#!/usr/bin/env node
// attnx: a frame strip of the explorer while d is dragged (docs/performance.md, issue 10). Opens the explorer
// at L = 256 in headless Chromium and drags the d slider with real pointer input from d = 64 to
// 2048 (one step every 16 ms, as scripts/bench-explorer.mjs does). Every result the page draws
// during the drag (its performance.measure 'attnx:latency') is copied from the achieved-attention
// canvas M with its d and verdict; FRAMES of them, spread evenly over log d, make one PNG strip.
// Serves dist/ (or web/; ATTNX_E2E_DIR overrides).
//
//   node scripts/drag-strip.mjs [out.png]      (default docs/drag-strip.png)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { sliderBox, thumbX, dragX } from './slider-drag.mjs';

const OUT = process.argv[2] || fileURLToPath(new URL('../docs/drag-strip.png', import.meta.url));
const L = 256, FROM_D = 64, TO_D = 2048, FRAMES = 7, CELL = 200;

// In the page, before its scripts: on every drawn result, keep a copy of M with d and verdict.
function recordFrames() {
  window.__frames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name !== 'attnx:latency') continue;
      const src = document.querySelector('#fig-M canvas.heat');
      const copy = document.createElement('canvas');
      copy.width = src.width;
      copy.height = src.height;
      copy.getContext('2d').drawImage(src, 0, 0);
      const ok = document.querySelector('#metrics [data-metric="success"]');
      window.__frames.push({ d: e.detail.d, ok: ok && ok.dataset.value === 'true', canvas: copy });
    }
  }).observe({ type: 'measure', buffered: false });
}

// In the page: FRAMES recorded frames spread over log d, drawn side by side with labels; PNG data URL.
function composeStrip({ FRAMES, CELL }) {
  const all = window.__frames;
  const lo = Math.log(all[0].d), hi = Math.log(Math.max(...all.map((f) => f.d)));
  const picked = [];
  for (let n = 0; n < FRAMES; n++) {
    const want = lo + (hi - lo) * n / (FRAMES - 1);
    const f = all.reduce((a, b) => (Math.abs(Math.log(b.d) - want) < Math.abs(Math.log(a.d) - want) ? b : a));
    if (!picked.includes(f)) picked.push(f);
  }
  picked.sort((a, b) => a.d - b.d);
  const strip = document.createElement('canvas');
  strip.width = CELL * picked.length;
  strip.height = CELL + 44;
  const g = strip.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, strip.width, strip.height);
  g.imageSmoothingEnabled = false;
  g.font = '16px sans-serif';
  picked.forEach((f, n) => {
    g.drawImage(f.canvas, n * CELL + 4, 4, CELL - 8, CELL - 8);
    g.fillStyle = f.ok ? '#1a7f37' : '#b42318';
    g.fillText(`d = ${f.d}  ${f.ok ? '✓ success' : '✗ not yet'}`, n * CELL + 8, CELL + 24);
  });
  return { url: strip.toDataURL('image/png'), ds: picked.map((f) => f.d), drawn: all.length };
}

async function main() {
  const server = await startServer(servedDir(), 0);
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.addInitScript(recordFrames);
    await page.goto(`${server.url}#v=1&L=${L}&d=${FROM_D}&help=0`);
    const idle = () => page.waitForFunction(() => document.documentElement.dataset.busy === '0', null, { timeout: 60000 });
    await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
    await idle();
    const g = await sliderBox(page);
    await page.mouse.move(thumbX(g, FROM_D), g.y);
    await page.mouse.down();
    await dragX(page, thumbX(g, FROM_D), thumbX(g, TO_D), g.y);
    await page.mouse.up();
    await idle();
    const { url, ds, drawn } = await page.evaluate(composeStrip, { FRAMES, CELL });
    writeFileSync(OUT, Buffer.from(url.split(',')[1], 'base64'));
    console.log(`drag-strip: wrote ${OUT} (L = ${L}; ${drawn} results drawn during the drag; frames at d = ${ds.join(', ')})`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`drag-strip: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
