// Regenerates the screenshots of the README and docs/*.md (docs/*.png) from the built site in
// headless Chromium: the explorer's first screen at 1280x720 (what a projector shows, no
// scrolling), the same on a 390x844 phone, presentation mode at 1280x720 and the lab after the
// paper preset's run, its frontier card after Draw the frontier (L = 128) at 1280x720 and
// 390x844, and the explorer with opt.
// Usage: npm run build && node scripts/screenshots.mjs
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const explorerDone = () => Number(document.documentElement.dataset.runs || 0) >= 1
  && document.documentElement.dataset.busy === '0';
const SHOTS = [
  { file: 'explorer.png', path: 'index.html', width: 1280, height: 720, ready: explorerDone },
  { file: 'phone.png', path: 'index.html', width: 390, height: 844, ready: explorerDone },
  { file: 'present.png', path: 'index.html#story=paper&step=3&present=1', width: 1280, height: 720, ready: explorerDone },
  { file: 'lab.png', path: 'lab.html#preset=paper&autorun=1', width: 1280, height: 1100, ready: () => document.body.dataset.run === 'done' },
  { file: 'explorer-opt.png', path: 'index.html#v=3&L=256&construction=opt&budget=5.3&d=16', width: 1280, height: 720, ready: explorerDone },
  ...[[1280, 720, 'frontier.png'], [390, 844, 'frontier-phone.png']].map(([width, height, file]) => ({
    file, path: 'lab.html#v=3&L=128&trials=5', width, height, element: '#frontier-box', click: '#frontier-run',
    ready: () => document.getElementById('frontier-box').dataset.frontier === 'done',
  })),
];

const server = await startServer(`${ROOT}dist`, 0);
const browser = await launchChromium();
mkdirSync(`${ROOT}docs`, { recursive: true });
try {
  for (const s of SHOTS) {
    const page = await browser.newPage({ viewport: { width: s.width, height: s.height } });
    await page.goto(`${server.url}${s.path}`);
    if (s.click) {
      await page.waitForFunction(() => window.attnxLab && document.body.dataset.run !== 'loading', null, { timeout: 60000 });
      await page.click(s.click);
    }
    await page.waitForFunction(s.ready, null, { timeout: 900000 });
    await page.waitForTimeout(600);
    if (s.element) await page.locator(s.element).screenshot({ path: `${ROOT}docs/${s.file}` });
    else await page.screenshot({ path: `${ROOT}docs/${s.file}` });
    await page.close();
    console.log(`wrote docs/${s.file} (${s.width}x${s.height})`);
  }
} finally {
  await browser.close();
  await server.close();
}
