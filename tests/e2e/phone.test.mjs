// The explorer's first screen (issue 23.1), measured as rectangles inside the viewport, never as
// times: at 1280×720 and 1024×768 the verdict and A beside M (same size, each at least 200 px on
// a side) are visible without scrolling, and the settings sit beside the figures; on a 390×844
// phone the verdict and A beside M (same size, at least 150 px on a side) are visible too, with no
// sideways scrolling, and a story's step title starts on the first screen. Checked for the
// welcome state (no link), the paper's setting and lecture mode, whose step title and Next button
// are on the first screen too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './site-harness.mjs';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();

const SIZES = [{ width: 1280, height: 720, desktop: true }, { width: 1024, height: 768, desktop: true },
  { width: 390, height: 844, desktop: false }];
const LINKS = ['', '#v=2&pattern=random&L=256&k=2&d=1024', '#story=paper&step=2'];

// The viewport rectangles of these selectors (null when absent or hidden).
function rects(page, selectors) {
  return page.evaluate((sel) => Object.fromEntries(sel.map((s) => {
    const e = document.querySelector(s);
    if (!e || !e.getClientRects().length) return [s, null];
    const r = e.getBoundingClientRect();
    return [s, { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }];
  })), selectors);
}

function inside(r, vw, vh, what) {
  assert.ok(r, `${what} is shown`);
  assert.ok(r.left >= 0 && r.top >= 0 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5,
    `${what} is inside the ${vw}×${vh} viewport: ${JSON.stringify(r)}`);
}

async function open(size, link) {
  const { context, page } = await reusedPage(site.browser, { viewport: { width: size.width, height: size.height } });
  await page.goto(site.server.url + link);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 120000 });
  return { context, page };
}

for (const size of SIZES) {
  for (const link of LINKS) {
    test(`${size.width}×${size.height} ${link || '(no link)'}: the verdict and the figures are on the first screen`, async () => {
      const { context, page } = await open(size, link);
      const sel = ['#summary', '#fig-A canvas.heat', '#fig-M canvas.heat', '.side', '#story .story-title', '#story .story-next'];
      const r = await rects(page, sel);
      assert.equal(await page.evaluate(() => scrollY), 0, 'nothing scrolled the page');
      inside(r['#summary'], size.width, size.height, 'the verdict');
      assert.match(await page.textContent('#summary'), /ρ.*ε|ρ/, 'the verdict names ρ');
      const A = r['#fig-A canvas.heat'], M = r['#fig-M canvas.heat'];
      inside(A, size.width, size.height, 'A');
      inside(M, size.width, size.height, 'M');
      const side = size.desktop ? 200 : 150;
      assert.ok(A.width >= side && A.height >= side, `A is at least ${side} px on a side (${A.width}×${A.height})`);
      assert.ok(Math.abs(A.width - M.width) < 1 && Math.abs(A.height - M.height) < 1, 'A and M have the same size');
      assert.ok(Math.abs(A.top - M.top) < 1 && A.right <= M.left, 'A is beside M');
      if (size.desktop) {
        assert.ok(r['.side'].left >= M.right, 'the settings sit beside the figures, not above them');
        if (link.startsWith('#story')) {
          inside(r['#story .story-title'], size.width, size.height, "the step's title");
          inside(r['#story .story-next'], size.width, size.height, 'the Next button');
        }
      } else {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= size.width, `no sideways scrolling (${width} px)`);
        if (link.startsWith('#story')) {
          const title = r['#story .story-title'];
          assert.ok(title && title.top < size.height, `the step's title starts on the first screen (${JSON.stringify(title)})`);
        }
      }
      await context.close();
    });
  }
}
