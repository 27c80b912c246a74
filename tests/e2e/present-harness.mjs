// What the presentation-mode tests share: the reveal.js-like deck fixture (fixtures/deck.html,
// served on an origin of its own with the site's embed), waits on the element's state, and a
// measure of what a viewer actually sees.
import { before, after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { useSite } from './site-harness.mjs';
import { reusedPage } from './page-reuse.mjs';

/** useSite() plus a second server for tests/e2e/fixtures (another origin): { server, browser, fixtures }. */
export function useDeckSite() {
  const site = useSite();
  before(async () => { site.fixtures = await startServer(fileURLToPath(new URL('./fixtures/', import.meta.url)), 0); });
  after(async () => { await site.fixtures?.close(); });
  return site;
}

/** Opens fixtures/deck.html (the element #x with the paper story, step 1, on slide 1) at `size`,
 *  after the script `init` if given (run before the page's own); resolves once the element has
 *  drawn its first result. Returns { context, page, problems }. */
export async function openDeck(site, size = { width: 1280, height: 720 }, init = null) {
  const { context, page } = await reusedPage(site.browser, { viewport: size }, init ? [init] : []);
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${site.fixtures.url}deck.html?embed=${encodeURIComponent(`${site.server.url}embed/attnx.js`)}`);
  await page.waitForFunction(() => document.getElementById('x')?.runs >= 1, null, { timeout: 120000 });
  return { context, page, problems };
}

/** Waits until the element #x shows story step n, its placeholders filled, presenting or not. */
export const elementAt = (page, n, present) => page.waitForFunction(([n, present]) => {
  const x = document.getElementById('x'), story = x.shadowRoot.getElementById('story');
  return x.st.step === n && x.st.present === present && story.dataset.step === String(n) && story.dataset.pending === '0'
    && (x.shadowRoot.querySelector('.ax').dataset.present === '1') === present;
}, [n, present], { timeout: 120000 });

/** The element's state and the deck's: { step, present, slide, seen (keys the deck acted on), focused }. */
export const deckState = (page) => page.evaluate(() => {
  const x = document.getElementById('x');
  return { step: x.st.step, present: x.st.present, slide: window.deck.at, seen: window.deck.seen.join(','), focused: document.activeElement === x };
});

/**
 * In the page: every text a viewer sees inside the viewport (a text node whose centre is not
 * covered by anything else, not visually hidden), in the document and in the shadow root of the
 * element `hostId` (null: the page). Each: { text, size (computed font-size, px), region: the
 * selector of ALLOWED it lies in, or null }.
 */
export const seenTexts = (page, hostId = null) => page.evaluate(([hostId, allowed]) => {
  const out = [];
  const scan = (root, scope) => {
    const walk = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el || el.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const seen = [...range.getClientRects()].some((r) => {
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (r.width < 2 || r.height < 2 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
        const top = root.elementFromPoint(x, y);
        return !!top && (el.contains(top) || top.contains(el));
      });
      const cs = getComputedStyle(el);
      if (!seen || cs.visibility !== 'visible' || Number(cs.opacity) === 0) continue;
      const region = allowed.find((s) => el.closest(s)) ?? null;
      out.push({ text: n.textContent.trim().slice(0, 60), size: parseFloat(cs.fontSize), region });
    }
  };
  const host = hostId && document.getElementById(hostId);
  scan(document, document.body);
  if (host) scan(host.shadowRoot, host.shadowRoot);
  return out;
}, [hostId, ALLOWED]);

/** Where a text may be seen in presentation mode: the verdict, the figures, the story, the bar. */
export const ALLOWED = ['.verdict-bar', '.figs', '#story', '#present-bar'];

/** An init script: the browser refuses fullscreen (as in a frame without allow="fullscreen"). */
export const REFUSE_FULLSCREEN = () => {
  Element.prototype.requestFullscreen = function () { return Promise.reject(new TypeError('fullscreen is refused')); };
};

/** In the page: the rectangle of the presentation root (the page's .ax, or the element's) and the viewport's size. */
export const presentRect = (page, hostId = null) => page.evaluate((hostId) => {
  const root = hostId ? document.getElementById(hostId).shadowRoot : document;
  const r = root.querySelector('.ax').getBoundingClientRect();
  return { rect: [r.left, r.top, r.width, r.height], viewport: [0, 0, innerWidth, innerHeight] };
}, hostId);
