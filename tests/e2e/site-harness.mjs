// The usual setting of an end-to-end test: the built site served on a free port and one headless
// Chromium, started before the file's tests and closed after them.
import { before, after } from 'node:test';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

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
