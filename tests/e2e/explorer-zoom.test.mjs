// Zoom and pan (issue 48) in headless Chromium: + - 0 on a focused heatmap, Ctrl + wheel and a
// drag zoom and move one window shared by A, M, the ratio error and the zero ratio, drawn one cell
// per pixel when it fits (each canvas is the window's size); the window is in the link and
// survives a reload and a resize; a bad view in a link is named and the whole matrix shown; n / N
// move to the failing rows the core reports, pin them and announce the count; the axes name the
// imported head's tokens as text; the element's view attribute; a story step's window stays in
// presentation mode.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './site-harness.mjs';
import { load } from '../../web/lib/attnx.js';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();
let api;
before(async () => {
  api = await load({ flavour: 'simd' });
});

const SETTING = 'pattern=window&L=64&w=1&d=512';
const idle = (page) => page.waitForFunction(() => document.documentElement.dataset.busy === '0', null, { timeout: 120000 });

async function open(hash, viewport = { width: 1280, height: 800 }) {
  const { context, page } = await reusedPage(site.browser, { viewport });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(site.server.url + hash);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 120000 });
  await idle(page);
  return { context, page, problems };
}

// The four heatmaps' canvas sizes ("w x h") and the link's view (null: none).
const canvases = (page) => page.evaluate(() => ['A', 'M', 'err', 'zero'].map((k) => {
  const c = document.querySelector(`#fig-${k} canvas.heat`);
  return `${c.width}x${c.height}`;
}));
const viewOf = (hash) => (/[#&]view=([^&]*)/.exec(hash) || [])[1] ?? null;
// Waits until the link's view is `want` (null: none) and the page is idle.
async function viewIs(page, want) {
  try {
    await page.waitForFunction((w) => {
      const m = /[#&]view=([^&]*)/.exec(location.hash);
      return (m ? m[1] : null) === w && document.documentElement.dataset.busy === '0';
    }, want, { timeout: 60000 });
  } catch (e) {
    assert.fail(`view ${want} not reached: link view ${viewOf(await urlHash(page))}, busy ${await page.evaluate(() => document.documentElement.dataset.busy)}`);
  }
}

test('+ - 0 on a focused heatmap zoom one window for all four, drawn a cell per pixel; the link keeps it', async () => {
  const { context, page, problems } = await open(`#v=2&${SETTING}`);
  assert.deepEqual(await canvases(page), ['64x64', '64x64', '64x64', '64x64']);
  await page.focus('#fig-M canvas.heat');
  await page.keyboard.type('+');
  await viewIs(page, '16,48,16,48');  // twice as close about the middle
  assert.deepEqual(await canvases(page), ['32x32', '32x32', '32x32', '32x32'], 'each heatmap shows the window, one cell per pixel');
  await page.keyboard.type('+');
  await viewIs(page, '24,40,24,40');
  assert.match(await page.textContent('#zoom-where'), /rows 24–39, columns 24–39/);
  // axis labels once a cell is tall enough: indices (no tokens), as text
  const labels = await page.evaluate(() => [...document.querySelectorAll('#fig-A .tok-rows span')].map((s) => s.textContent));
  assert.deepEqual(labels, Array.from({ length: 16 }, (_, n) => String(24 + n)));
  assert.match(await page.evaluate(() => document.getElementById(document.querySelector('#fig-M canvas.heat').getAttribute('aria-describedby')).textContent), /Zoomed in: rows 24–39, columns 24–39\./);
  // the arrows move the cursor and the window follows it past its edge
  for (let n = 0; n < 17; n++) await page.keyboard.press('ArrowDown');
  await viewIs(page, '25,41,24,40');
  await page.keyboard.type('-');
  await viewIs(page, '10,42,24,56');  // about the cursor, at (40, 24)
  await page.keyboard.type('0');
  await viewIs(page, null);
  assert.deepEqual(await canvases(page), ['64x64', '64x64', '64x64', '64x64']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the window survives a reload and a resize; a bad view is named and the whole matrix shown', async () => {
  const { context, page } = await open(`#v=2&${SETTING}&view=8,24,40,56`);
  assert.deepEqual(await canvases(page), ['16x16', '16x16', '16x16', '16x16']);
  assert.equal(viewOf(await urlHash(page)), '8,24,40,56');
  await page.setViewportSize({ width: 700, height: 900 });
  await page.waitForTimeout(400);
  await idle(page);
  assert.deepEqual(await canvases(page), ['16x16', '16x16', '16x16', '16x16']);
  assert.equal(viewOf(await urlHash(page)), '8,24,40,56');
  // hovering names the cell in the window: query, key, A, M and the row's verdict
  const box = await page.locator('#fig-M canvas.heat').boundingBox();
  await page.mouse.move(box.x + box.width * (2.5 / 16), box.y + box.height * (0.5 / 16));
  await page.waitForFunction(() => /^\(8, 42\): A = .*, M = .* · row 8 (holds|fails)/.test(document.querySelector('#fig-M .readout').textContent), null, { timeout: 60000 });
  await context.close();
  const bad = await open(`#v=2&${SETTING}&view=0,80,0,64`);
  assert.deepEqual(await canvases(bad.page), ['64x64', '64x64', '64x64', '64x64']);
  assert.match(await bad.page.textContent('#messages'), /Link: view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 64 and 0 <= j0 < j1 <= 64, at least 4 rows and 4 columns \(got "0,80,0,64"\)\. The default is used instead\./);
  await bad.context.close();
});

test('Ctrl + wheel zooms about the pointer, a drag moves the window and pins no row, a plain wheel scrolls the page', async () => {
  const { context, page } = await open(`#v=2&${SETTING}`);
  const box = await page.locator('#fig-M canvas.heat').boundingBox();
  await page.mouse.move(box.x + box.width * 0.25 + 1, box.y + box.height * 0.25 + 1);  // cell (16, 16)
  await page.mouse.wheel(0, -120);
  await page.waitForTimeout(300);
  assert.equal(viewOf(await urlHash(page)), null, 'a plain wheel does not zoom');
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -170);  // e^(0.68): about twice as close
  await page.keyboard.up('Control');
  await viewIs(page, '8,40,8,40');  // cell (16, 16) stays a quarter of the way in
  // a drag of a quarter of the heatmap to the left and up: the window moves 8 cells right and down
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let s = 1; s <= 8; s++) await page.mouse.move(box.x + box.width / 2 - (s * box.width) / 32, box.y + box.height / 2 - (s * box.height) / 32);
  await page.mouse.up();
  await viewIs(page, '16,48,16,48');
  assert.equal(/[#&]row=/.test(await urlHash(page)), false, 'the drag pinned no row');
  await context.close();
});

test('n and N move to the failing rows the core reports, pin them and announce the count', async () => {
  const r = api.construct({ pattern: 'window', L: 64, w: 1, d: 512, seed: 1 });
  const failing = [];
  for (let i = 0; i < 64; i++) if (r.rows.okR[i] !== 1 || r.rows.okZ[i] !== 1) failing.push(i);
  assert.ok(failing.length >= 2, 'this setting fails in several rows');
  const { context, page } = await open(`#v=2&${SETTING}`);
  assert.equal(await page.textContent('#fail-count'), `${failing.length} failing rows`);
  await page.keyboard.press('n');
  const first = failing[0];
  await page.waitForFunction((i) => new RegExp(`[#&]row=${i}(&|$)`).test(location.hash) && /[#&]view=/.test(location.hash), first, { timeout: 60000 });
  assert.equal(await page.textContent('#fail-count'), `Row ${first}: 1 of ${failing.length} failing rows.`);
  const [i0, i1] = viewOf(await urlHash(page)).split(',').map(Number);
  assert.ok(i1 - i0 === 32 && first >= i0 && first < i1, 'a 32-row window around the row');
  await page.waitForFunction((i) => new RegExp(`Row i = ${i}\\D`).test(document.getElementById('inspector').textContent), first, { timeout: 60000 });
  await page.click('#fail-next');
  await page.waitForFunction((i) => new RegExp(`[#&]row=${i}(&|$)`).test(location.hash), failing[1], { timeout: 60000 });
  await page.keyboard.press('Shift+N');
  await page.waitForFunction((i) => new RegExp(`[#&]row=${i}(&|$)`).test(location.hash), first, { timeout: 60000 });
  await page.keyboard.press('Shift+N');  // before the first: around to the last
  await page.waitForFunction((i) => new RegExp(`[#&]row=${i}(&|$)`).test(location.hash), failing[failing.length - 1], { timeout: 60000 });
  assert.equal(await page.textContent('#fail-count'), `Row ${failing[failing.length - 1]}: ${failing.length} of ${failing.length} failing rows.`);
  await context.close();
});

test('the axes and the readout name an imported head\'s tokens, as text', async () => {
  const L = 8;
  const tokens = ['<b>x</b>', 'the', 'cat', 'sat', 'on', 'a', 'warm', 'mat'];
  const attention = [Array.from({ length: L }, (_, i) => Array.from({ length: L }, (_, j) => (j <= i ? 1 / (i + 1) : 0)))];
  const { context, page, problems } = await open(`#v=2&${SETTING}`);
  await page.click('#head-tools summary');
  await page.setInputFiles('#head-file', { name: 'cv.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ tokens, attention })) });
  await page.waitForFunction(() => /nonzeros/.test(document.getElementById('head-msg').textContent), null, { timeout: 60000 });
  await idle(page);
  const rows = await page.evaluate(() => [...document.querySelectorAll('#fig-M .tok-rows span')].map((s) => s.textContent));
  assert.deepEqual(rows, tokens, 'at L = 8 every row is tall enough for its token');
  assert.equal(await page.locator('#fig-M .tok-rows b').count(), 0, 'a token is never markup');
  const box = await page.locator('#fig-A canvas.heat').boundingBox();
  await page.mouse.move(box.x + box.width * (1.5 / 8), box.y + box.height * (2.5 / 8));
  await page.waitForFunction(() => document.querySelector('#fig-A .readout').textContent.startsWith('(2 "cat", 1 "the"): A = '), null, { timeout: 60000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the view bar is reached with Tab and used with Enter', async () => {
  const { context, page } = await open(`#v=2&${SETTING}`);
  for (let n = 0; n < 60 && !(await page.evaluate(() => document.activeElement?.id === 'zoom-in')); n++) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'zoom-in', 'Tab reaches Zoom in');
  await page.keyboard.press('Enter');
  await viewIs(page, '16,48,16,48');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'zoom-out');
  await page.keyboard.press('Enter');
  await viewIs(page, null);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'zoom-out', 'the focus stays on the button');
  await context.close();
});

test('<attnx-explorer view="…">: the window; a bad one is named inside the element; a story step\'s window stays in presentation mode', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { startServer } = await import('../../scripts/serve.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'attnx-zoom-'));
  const host = await startServer(dir, 0);
  const story = JSON.stringify([{ title: 'The failing rows, close up', text: 'Rows {failing_rows} fail.', state: { pattern: 'window', L: 64, w: 1, d: 512, view: '36,52,36,52' } }]);
  writeFileSync(join(dir, 'zoom.html'), `<!doctype html><html><head><meta charset="utf-8">
<script type="module" src="${site.server.url}embed/attnx.js"></script></head><body>
<attnx-explorer id="good" pattern="window" l="64" w="1" d="512" view="8,24,8,24"></attnx-explorer>
<attnx-explorer id="bad" pattern="window" l="64" w="1" d="512" view="0,99,0,64"></attnx-explorer>
<attnx-explorer id="deck" present><script type="application/json">${story}</script></attnx-explorer>
</body></html>`);
  const { context, page } = await reusedPage(site.browser, { viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(`${host.url}zoom.html`);
    const size = (id) => page.evaluate((id) => {
      const c = document.getElementById(id).shadowRoot.querySelector('#fig-M canvas.heat');
      return `${c.width}x${c.height}`;
    }, id);
    await page.waitForFunction(() => document.getElementById('deck').runs >= 1 && document.getElementById('deck').shadowRoot.querySelector('.ax').dataset.busy === '0', null, { timeout: 120000 });
    assert.equal(await page.evaluate(() => document.getElementById('deck').st.view), '36,52,36,52');
    assert.equal(await size('deck'), '16x16', 'presentation mode shows the step\'s window');
    await page.evaluate(() => document.getElementById('deck').blur());
    await page.evaluate(() => document.getElementById('deck').removeAttribute('present'));
    for (const id of ['good', 'bad']) {
      await page.evaluate((id) => document.getElementById(id).scrollIntoView(), id);
      await page.waitForFunction((id) => document.getElementById(id).runs >= 1 && document.getElementById(id).shadowRoot.querySelector('.ax').dataset.busy === '0', id, { timeout: 120000 });
    }
    assert.equal(await size('good'), '16x16');
    assert.match(await page.evaluate(() => document.getElementById('good').link), /&view=8,24,8,24(&|$)/);
    assert.equal(await size('bad'), '64x64', 'the whole matrix');
    assert.match(await page.evaluate(() => document.getElementById('bad').shadowRoot.getElementById('messages').textContent),
      /view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 64 and 0 <= j0 < j1 <= 64, at least 4 rows and 4 columns \(got "0,99,0,64"\)/);
  } finally {
    await context.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
