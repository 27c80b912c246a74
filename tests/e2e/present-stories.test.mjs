// Presentation mode fits every step of every built-in story on a lecture-hall screen (issue 23),
// and on a tablet and a phone: at 1280×720, 1024×768, 768×1024 and 390×844, stepped with the arrow keys from step 1 with
// present=1, each step once its placeholders are filled, the page does not scroll (neither the
// document nor the story panel), and the verdict, A, M, the step's text and the step navigation
// lie inside the viewport, stacked without overlapping, the step buttons centred.
// Measured as rectangles, never as times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite } from './site-harness.mjs';
import { STORIES, STORY_NAMES } from '../../web/explorer/story.js';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();
const here = dirname(fileURLToPath(import.meta.url));
const SIZES = [{ width: 1280, height: 720 }, { width: 1024, height: 768 }, { width: 768, height: 1024 }, { width: 390, height: 844, phone: true }];
const SHOWN = ['#summary', '#fig-A canvas.heat', '#fig-M canvas.heat', '#story .story-title', '#story .story-text', '#present-prev', '#present-next', '#present-count'];

// The parts do not overlap, top to bottom: the verdict, the heatmaps (at least `side` px), the
// step's text, the step buttons; the buttons and count are centred on the screen.
function assertStacked(r, size, at) {
  const A = r['#fig-A canvas.heat'], M = r['#fig-M canvas.heat'];
  const side = size.phone ? 120 : 200;
  assert.ok(A.right - A.left >= side && M.right - M.left >= side, `${at}: A and M at least ${side} px (${JSON.stringify([A, M])})`);
  assert.ok(r['#summary'].bottom <= A.top + 0.5, `${at}: the verdict above A`);
  if (size.phone) assert.ok(A.bottom <= r['#story .story-title'].top + 0.5, `${at}: the step under A`);
  assert.ok(r['#story .story-text'].bottom <= r['#present-next'].top + 0.5, `${at}: the step's text above its buttons`);
  const middle = (r['#present-prev'].left + r['#present-next'].right) / 2;
  assert.ok(Math.abs(middle - size.width / 2) <= 2, `${at}: the step buttons centred (${middle} of ${size.width})`);
}

// The layout of the page: scroll sizes and the rectangles of SHOWN.
const layout = (page) => page.evaluate((sel) => {
  const se = document.scrollingElement, story = document.getElementById('story');
  const rect = (s) => {
    const e = document.querySelector(s);
    if (!e || !e.getClientRects().length) return null;
    const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  return {
    doc: [se.scrollWidth, se.clientWidth, se.scrollHeight, se.clientHeight],
    story: [story.scrollHeight, story.clientHeight], scrollY,
    present: document.querySelector('.ax')?.dataset.present, rects: Object.fromEntries(sel.map((s) => [s, rect(s)])),
  };
}, SHOWN);

for (const size of SIZES) {
  for (const name of STORY_NAMES) {
    test(`${size.width}×${size.height}: every step of "${name}" fits in presentation mode without scrolling`, async () => {
      const count = JSON.parse(readFileSync(join(here, '../../web/explorer/stories', STORIES[name].file), 'utf8')).length;
      const { context, page } = await reusedPage(site.browser, { viewport: size });
      await page.goto(`${site.server.url}#story=${name}&step=1&present=1`);
      for (let n = 1; n <= count; n++) {
        if (n > 1) await page.keyboard.press('ArrowRight');
        await page.waitForFunction((n) => document.getElementById('story').dataset.step === String(n) && document.getElementById('story').dataset.pending === '0'
          && document.documentElement.dataset.busy === '0', n, { timeout: 180000 });
        const l = await layout(page);
        const at = `${name} step ${n}`;
        assert.equal(l.present, '1', `${at}: still presenting`);
        assert.ok(l.doc[0] <= l.doc[1] && l.doc[2] <= l.doc[3], `${at}: the page does not scroll (${l.doc})`);
        assert.ok(l.story[0] <= l.story[1] + 1, `${at}: the story panel does not scroll (${l.story})`);
        assert.equal(l.scrollY, 0);
        for (const [s, r] of Object.entries(l.rects)) {
          assert.ok(r, `${at}: ${s} is shown`);
          assert.ok(r.left >= 0 && r.top >= 0 && r.right <= size.width + 0.5 && r.bottom <= size.height + 0.5, `${at}: ${s} inside the viewport ${JSON.stringify(r)}`);
        }
        assertStacked(l.rects, size, at);
        assert.equal(await page.textContent('#present-count'), `${n} / ${count}`);
      }
      await context.close();
    });
  }
}
