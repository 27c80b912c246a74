// The usual setting of an end-to-end test: the built site served on a free port and one headless
// Chromium, started before the file's tests and closed after them.
import { before, after } from 'node:test';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { reusedPage } from './page-reuse.mjs';

/** Registers before/after hooks; returns { server, browser }, filled in once the tests run. */
export function useSite() {
  const ctx = { server: null, browser: null };
  before(async () => {
    ctx.server = await startServer(servedDir(), 0);
    ctx.browser = await launchChromium();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.close();
  });
  return ctx;
}

/** Opens the site's page at `hash` (e.g. '#v=2&L=64') in a new context of the given viewport,
 *  collecting page errors and console errors in `problems`. Returns { context, page, problems }. */
export async function openWatched(site, hash, { width = 1280, height = 900 } = {}) {
  const { context, page } = await reusedPage(site.browser, { viewport: { width, height } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(`${site.server.url}${hash}`);
  return { context, page, problems };
}

/** Clicks `selector` once the page is at rest: scrolled into view first, then waited for what that
 *  asked for (a card coming into view may compute again, which draws the panels again), so that
 *  the press and the release land on the element they were aimed at. */
export async function clickSettled(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0', null, { timeout: 90000 });
  await page.click(selector);
}
