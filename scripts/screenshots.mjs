// Regenerates the README screenshots (docs/*.png) from the built site in headless Chromium.
// Usage: npm run build && node scripts/screenshots.mjs
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const server = await startServer(`${ROOT}dist`, 0);
const browser = await launchChromium();
mkdirSync(`${ROOT}docs`, { recursive: true });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(`${server.url}index.html#help=0&row=40`);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${ROOT}docs/explorer.png` });
  const lab = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  await lab.goto(`${server.url}lab.html#preset=paper&autorun=1`);
  await lab.waitForFunction(() => document.body.dataset.run === 'done', null, { timeout: 120000 });
  await lab.waitForTimeout(500);
  await lab.screenshot({ path: `${ROOT}docs/lab.png` });
  console.log('wrote docs/explorer.png, docs/lab.png');
} finally {
  await browser.close();
  await server.close();
}
