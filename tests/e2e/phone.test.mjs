// The explorer on a 360 px phone: the figures come within the first screen, the key settings
// (pattern, L, d with its slider) sit right above them, the other settings come after the
// figures and cards; on a wide screen the layout is the two-column one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './site-harness.mjs';

const site = useSite();

// Page-y (px from the top of the document) of the elements with these ids.
function tops(page, ids) {
  return page.evaluate((ids) => Object.fromEntries(ids.map((id) => [id, document.getElementById(id).getBoundingClientRect().top + scrollY])), ids);
}

test('on a 360 px phone the figures come first, with pattern, L and d right above them', async () => {
  const context = await site.browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${site.server.url}#v=1&L=128&d=512`);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
  const t = await tops(page, ['fig-A', 'f-pattern', 'f-L', 'f-d-slider', 'f-seed', 'f-eps', 'metrics', 'explain']);
  assert.ok(t['fig-A'] < 740, `the first figure starts on the first screen (at ${t['fig-A']} px)`);
  for (const id of ['f-pattern', 'f-L', 'f-d-slider']) assert.ok(t[id] < t['fig-A'] && t['fig-A'] - t[id] < 400, `${id} is right above the figures`);
  for (const id of ['f-seed', 'f-eps', 'explain']) assert.ok(t[id] > t.metrics, `${id} comes after the figures and cards`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no sideways scrolling (${width} px)`);
  await context.close();
});

test('on a wide screen the settings stay beside the figures', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.server.url}#v=1&L=128&d=512`);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
  const r = await page.evaluate(() => [document.getElementById('f-seed'), document.getElementById('fig-A')].map((e) => e.getBoundingClientRect()));
  assert.ok(r[0].right <= r[1].left, 'the settings column is left of the figures');
  await context.close();
});
