// Regenerates docs/lab-compare.png, docs/lab.md's picture of the lab's "Dimensions against bits"
// comparison: the paper preset's grid (L = 64…512) with T = 3, in headless Chromium at 1280 px,
// and prints how long the comparison took in the page.
// Usage: bash scripts/build-dist && node scripts/lab-compare-shot.mjs [hash]
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const HASH = process.argv[2] || 'preset=paper&trials=3';
const WIDTH = 1280;

const server = await startServer(servedDir(), 0);
const browser = await launchChromium();
mkdirSync(`${ROOT}docs`, { recursive: true });
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: 1000 } });
  await page.goto(`${server.url}lab.html#${HASH}`);
  await page.waitForFunction(() => window.attnxLab && document.body.dataset.run === 'idle', null, { timeout: 60000 });
  const t0 = Date.now();
  await page.click('#compare-run');
  await page.waitForFunction(() => ['done', 'error', 'cancelled'].includes(document.getElementById('compare-box').dataset.compare), null, { timeout: 600000 });
  const wall = (Date.now() - t0) / 1000;
  const status = await page.textContent('#compare-status');
  if (!status.startsWith('Done')) throw new Error(`the comparison did not finish: ${status}`);
  // The picture is the card at the page's width: the end of the settings column beside it is left out.
  await page.$eval('.controls', (e) => { e.style.visibility = 'hidden'; });
  await page.waitForTimeout(300);
  const box = await page.$eval('#compare-box', (e) => { const r = e.getBoundingClientRect(); return { y: r.top + window.scrollY, h: r.height }; });
  await page.screenshot({ path: `${ROOT}docs/lab-compare.png`, fullPage: true, clip: { x: 0, y: Math.max(0, box.y - 12), width: WIDTH, height: box.h + 24 } });
  const workers = await page.evaluate(() => window.attnxLab.concurrency);
  console.log(`${status} (wall clock from the click: ${wall.toFixed(1)} s; ${workers} worker${workers > 1 ? 's' : ''})`);
  console.log('wrote docs/lab-compare.png');
} finally {
  await browser.close();
  await server.close();
}
