// Keyboard-only walkthroughs (issue 28.3), no mouse at all: every control is reached with Tab
// (never focused by a script) and used with keys. The explorer: change the pattern and d, find the
// minimal d, pin a row of M from the keyboard and read the row inspector; draw a custom pattern
// (arrows move the cursor, Space toggles a cell). The lab: run a sweep and reach its table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useSite } from './site-harness.mjs';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();
const location = (url) => new URL(url).hash;
const runs = (page) => page.evaluate(() => Number(document.documentElement.dataset.runs || 0));
const ready = (page, n) => page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
  && document.documentElement.dataset.busy !== '1', n, { timeout: 120000 });

// Presses Tab until the focused element matches selector (at most max presses); fails otherwise.
async function tabTo(page, selector, max = 250) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`${selector} was not reached with ${max} presses of Tab`);
}

async function open(hash, width = 1280, height = 800) {
  const { context, page } = await reusedPage(site.browser, { viewport: { width, height } });
  await page.goto(site.server.url + hash);
  await ready(page, 1);
  return { context, page };
}

test('keyboard: change the pattern and d, find the minimal d, pin a row of M', async () => {
  const { context, page } = await open('#v=2&pattern=random&L=64&k=2&d=512');
  let n = await runs(page);
  await tabTo(page, '#f-pattern');
  const before = await page.inputValue('#f-pattern');
  await page.keyboard.press('ArrowDown');
  await ready(page, ++n);
  assert.notEqual(await page.inputValue('#f-pattern'), before, 'ArrowDown chose another family');
  await tabTo(page, '#f-d');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('300');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /&d=300&/.test(location.hash), null, { timeout: 60000 });
  await tabTo(page, '#mind-btn');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^Minimal d/.test(document.getElementById('dsearch-msg').textContent), null, { timeout: 120000 });
  await tabTo(page, '#fig-M canvas.heat');
  await page.keyboard.press('ArrowDown');  // shows the cursor at row 0
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /[#&]row=5(&|$)/.test(location.hash), null, { timeout: 60000 });
  await page.waitForFunction(() => /Row i = 5\D/.test(document.getElementById('inspector').textContent), null, { timeout: 60000 });
  await context.close();
});

test('keyboard: step through a story in presentation mode (Present, → Space End Home ←, Esc)', async () => {
  const { context, page } = await open('#story=paper&step=1', 1280, 720);
  const count = () => page.textContent('#present-count');
  const steps = JSON.parse(readFileSync(new URL('../../web/explorer/stories/paper.json', import.meta.url), 'utf8')).length;
  await tabTo(page, '#present-top');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /[#&]present=1(&|$)/.test(location.hash), null, { timeout: 60000 });
  assert.equal(await page.isVisible('#present-bar'), true, 'the presentation bar shows');
  const n = Number((await count()).split(' / ')[1]);
  assert.equal(n, steps, 'the bar counts the story\'s steps');
  const at = async (i) => page.waitForFunction((i) => document.getElementById('present-count').textContent.startsWith(`${i} / `)
    && (i === 1 ? !/[#&]step=(?!1(&|$))/.test(location.hash) : new RegExp(`[#&]step=${i}(&|$)`).test(location.hash)),
  i, { timeout: 60000 });  // step 1 may be left out of the link
  await page.keyboard.press('ArrowRight');
  await at(2);
  await page.keyboard.press(' ');
  await at(3);
  await page.keyboard.press('ArrowLeft');
  await at(2);
  await page.keyboard.press('End');
  await at(n);
  await page.keyboard.press('Home');
  await at(1);
  await page.keyboard.press('PageDown');
  await at(2);
  assert.match(location(await page.url()), /present=1/, 'stepping keeps presentation mode');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !/[#&]present=1(&|$)/.test(location.hash), null, { timeout: 60000 });
  assert.equal(await page.isVisible('#present-bar'), false, 'Esc leaves presentation mode');
  await context.close();
});

test('keyboard: draw a custom pattern, the arrows move the cursor and Space toggles a cell', async () => {
  const { context, page } = await open('#v=2&pattern=custom&L=8&d=64');
  const cp = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('cp') ?? '');
  // The address bar gets the page's link 250 ms after a change (web/explorer/link.js): wait for the
  // first one (the diagonal's cp) so that it is not mistaken for the toggle's.
  await page.waitForFunction(() => /[#&]cp=/.test(location.hash), null, { timeout: 60000 });
  const before = await cp();
  await tabTo(page, '#fig-A canvas.heat');
  assert.match(await page.getAttribute('#fig-A canvas.heat', 'aria-label'), /Arrow keys move the cursor/);
  await page.keyboard.press('ArrowRight');  // shows the cursor at (0, 0)
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');  // (0, 2)
  await page.keyboard.press('Space');
  await page.waitForSelector('#custom-msg:has-text("Added cell (0, 2)")', { timeout: 60000 });
  await page.waitForFunction((b) => (new URLSearchParams(location.hash.slice(1)).get('cp') ?? '') !== b, before, { timeout: 60000 });
  const after = await cp();
  await page.keyboard.press('Space');  // toggles the same cell back
  await page.waitForSelector('#custom-msg:has-text("Removed cell (0, 2)")', { timeout: 60000 });
  await page.waitForFunction((a) => (new URLSearchParams(location.hash.slice(1)).get('cp') ?? '') !== a, after, { timeout: 60000 });
  assert.equal(await cp(), before, 'two toggles of one cell restore the pattern');
  await context.close();
});

test('keyboard: run the lab and reach its table', async () => {
  const { context, page } = await reusedPage(site.browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${site.server.url}lab.html#v=2&preset=paper&Ls=16,32&trials=2`);
  await page.waitForSelector('#run:not([disabled])', { timeout: 60000 });
  await page.waitForFunction(() => document.body.dataset.run && document.body.dataset.run !== 'loading', null, { timeout: 60000 });
  await tabTo(page, '#run');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#results-table tbody tr').length >= 2, null, { timeout: 120000 });
  await tabTo(page, '#table-box .table-wrap');
  const rows = await page.$$eval('#results-table tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent.trim()));
  assert.deepEqual(rows.slice(0, 2), ['16', '32']);
  await context.close();
});
