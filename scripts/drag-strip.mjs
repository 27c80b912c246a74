#!/usr/bin/env node
// attnx: a frame strip of the explorer while d is dragged (README, issue 10). Opens the explorer
// at L = 256 in headless Chromium, moves the d slider through DS with input events as a drag
// does, and after each drawn result copies the achieved-attention canvas M (with its d and
// verdict) into one strip, written as a PNG. Serves dist/ (or web/; ATTNX_E2E_DIR overrides).
//
//   node scripts/drag-strip.mjs [out.png]      (default docs/drag-strip.png)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';

const OUT = process.argv[2] || fileURLToPath(new URL('../docs/drag-strip.png', import.meta.url));
const L = 256;
const DS = [64, 128, 256, 512, 768, 1024, 2048];
const CELL = 200;  // pixels per frame of the strip

// In the page: set the slider to d's position, wait for that d to be drawn, copy M into the strip.
async function frame(page, d, n) {
  await page.evaluate(async ({ d, n, CELL, count }) => {
    const html = document.documentElement;
    const slider = document.getElementById('f-d-slider');
    slider.value = String(Math.round(8 * Math.log2(d)));
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    const want = Math.max(1, Math.round(2 ** (Number(slider.value) / 8)));
    const t0 = performance.now();
    while (!(html.dataset.busy === '0' && document.getElementById('status-text').textContent.includes(`d = ${want}:`))) {
      if (performance.now() - t0 > 60000) throw new Error(`d = ${want} not drawn`);
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!window.__strip) {
      window.__strip = document.createElement('canvas');
      window.__strip.width = CELL * count;
      window.__strip.height = CELL + 44;
      const g = window.__strip.getContext('2d');
      g.fillStyle = '#fff';
      g.fillRect(0, 0, window.__strip.width, window.__strip.height);
    }
    const g = window.__strip.getContext('2d');
    g.imageSmoothingEnabled = false;
    g.drawImage(document.querySelector('#fig-M canvas'), n * CELL + 4, 4, CELL - 8, CELL - 8);
    const ok = document.getElementById('status-text').textContent.includes('success');
    g.fillStyle = ok ? '#1a7f37' : '#b42318';
    g.font = '16px sans-serif';
    g.fillText(`d = ${want}  ${ok ? '✓ success' : '✗ not yet'}`, n * CELL + 8, CELL + 24);
  }, { d, n, CELL, count: DS.length });
}

async function main() {
  const server = await startServer(servedDir(), 0);
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${server.url}#v=1&L=${L}&d=${DS[0]}&help=0`);
    await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1 && document.documentElement.dataset.busy === '0', null, { timeout: 60000 });
    for (let n = 0; n < DS.length; n++) await frame(page, DS[n], n);
    const url = await page.evaluate(() => window.__strip.toDataURL('image/png'));
    writeFileSync(OUT, Buffer.from(url.split(',')[1], 'base64'));
    console.log(`drag-strip: wrote ${OUT} (L = ${L}, d = ${DS.join(', ')})`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(`drag-strip: ${e && e.message ? e.message : e}`);
  process.exit(1);
});
