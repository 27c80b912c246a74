// Presentation mode for a lecture hall (issue 23, item 2), on the page and on <attnx-explorer> in
// a reveal.js-like deck (fixtures/deck.html): at 1280×720 every text a viewer sees is at least
// 24 px and lies in the verdict, the figures, the story or the presentation bar (the settings and
// the cards are hidden, the page's own header is covered); F asks for fullscreen and F again
// leaves it while presentation goes on; Esc leaves both; fullscreen ended by the browser (its own
// Esc, which the page never sees) leaves presentation too; and when fullscreen is refused the
// viewport fallback still covers the whole viewport, even inside a deck scaled by a transform.
// Every wait is on a state, never on a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useDeckSite, openDeck, elementAt, seenTexts, presentRect, ALLOWED, REFUSE_FULLSCREEN } from './present-harness.mjs';
import { reusedPage } from './page-reuse.mjs';

const site = useDeckSite();
const HD = { width: 1280, height: 720 };
const PAPER = JSON.parse(readFileSync(new URL('../../web/explorer/stories/paper.json', import.meta.url), 'utf8'));

// Opens the page at `hash` and waits for step `step` of its story to be shown, filled and drawn.
async function openPage(hash, step, size = HD, init = null) {
  const { context, page } = await reusedPage(site.browser, { viewport: size }, init ? [init] : []);
  await page.goto(`${site.server.url}${hash}`);
  await page.waitForFunction((n) => {
    const story = document.getElementById('story');
    return story.dataset.step === String(n) && story.dataset.pending === '0' && document.documentElement.dataset.busy === '0';
  }, step, { timeout: 180000 });
  return { context, page };
}

// The texts seen (at step 3 of the paper story) are at least 24 px, all in ALLOWED; the step's
// title and text, "3 / 6" and the navigation are among them; the settings panel and the cards
// take no room (room: shown() of the page or the element).
function assertLectureHall(seen, room, where) {
  assert.ok(seen.length > 0, `${where}: some text is seen`);
  for (const t of seen) {
    assert.ok(t.size >= 24, `${where}: "${t.text}" is ${t.size} px`);
    assert.ok(t.region, `${where}: "${t.text}" is seen but lies outside ${ALLOWED.join(', ')}`);
  }
  const texts = seen.map((t) => t.text);
  for (const want of [`3 / ${PAPER.length}`, '←', '→', PAPER[2].title]) {
    assert.ok(texts.includes(want), `${where}: "${want}" is seen (${texts.join(' | ')})`);
  }
  assert.ok(seen.some((t) => t.region === '#story' && t.text.length > 20), `${where}: the step's text is seen`);
  const bar = seen.filter((t) => t.region === '#present-bar').map((t) => t.text).sort();
  assert.deepEqual(bar, [`3 / ${PAPER.length}`, '←', '→'].sort(), `${where}: only the step navigation and the progress stay in view`);
  assert.deepEqual(room, { panel: false, cards: false, controls: false }, `${where}: the settings and the cards are hidden`);
}

// Whether the settings panel, the cards and the settings form take any room in `root`.
// (Run in the page: passed as source.)
const shown = (root) => Object.fromEntries(Object.entries({ panel: '#panel', cards: '.cards', controls: '#controls' }).map(([k, s]) => {
  const e = root.querySelector(s);
  return [k, !!e && [...e.getClientRects()].some((r) => r.width > 0 && r.height > 0)];
}));

test('the page at 1280×720: every text seen is ≥ 24 px; only the verdict, figures, story and bar are seen', async () => {
  const { context, page } = await openPage('#story=paper&step=3&present=1', 3);
  const seen = await seenTexts(page);
  assertLectureHall(seen, await page.evaluate(`(${shown})(document)`), 'page');
  // Fullscreen and Leave appear while the pointer is on the bar (or the focus is in it).
  await page.hover('#present-count');
  await page.waitForFunction(() => getComputedStyle(document.getElementById('present-exit')).opacity === '1', null, { timeout: 60000 });
  const onBar = (await seenTexts(page)).filter((t) => t.region === '#present-bar').map((t) => t.text);
  assert.ok(onBar.includes('Leave (Esc)') && onBar.includes('Fullscreen (F)'), `hovered bar: ${onBar.join(' | ')}`);
  await context.close();
});

test('the element at 1280×720 in a deck: every text seen is ≥ 24 px; only the verdict, figures, story and bar are seen', async () => {
  const { context, page, problems } = await openDeck(site, HD);
  await page.evaluate(() => { const x = document.getElementById('x'); x.setAttribute('step', '3'); x.setAttribute('present', ''); });
  await elementAt(page, 3, true);
  const seen = await seenTexts(page, 'x');
  assertLectureHall(seen, await page.evaluate(`(${shown})(document.getElementById('x').shadowRoot)`), 'element');
  assert.deepEqual(problems, []);
  await context.close();
});

// Waits until presentation is `on` and fullscreen is held by `target` ('html': the page's root,
// 'host': the element `host`, null: nothing is fullscreen); the Fullscreen button says so too.
const held = (page, on, target, host = null) => page.waitForFunction(([on, target, host]) => {
  const root = host ? document.getElementById(host).shadowRoot : document;
  const presenting = root.querySelector('.ax').dataset.present === '1';
  const want = { html: document.documentElement, host: document.getElementById(host), null: null }[target];
  return presenting === on && document.fullscreenElement === want
    && root.getElementById('present-full').getAttribute('aria-pressed') === String(want !== null);
}, [on, target, host], { timeout: 60000 });

test('the page: F asks for fullscreen and F again leaves it (presentation goes on); Esc leaves both; the browser ending fullscreen leaves presentation', async () => {
  const { context, page } = await openPage('#story=paper&step=1&present=1', 1);
  await held(page, true, null);  // a link opens presentation without a gesture: the viewport
  const html = 'html';
  await page.keyboard.press('f');
  await held(page, true, html);
  await page.keyboard.press('f');
  await held(page, true, null);
  await page.keyboard.press('F');
  await held(page, true, html);
  await page.keyboard.press('Escape');
  await held(page, false, null);
  await page.waitForFunction(() => !/[#&]present=1(&|$)/.test(location.hash));
  await page.keyboard.press('p');  // a gesture: presentation and fullscreen at once
  await held(page, true, html);
  await page.evaluate(() => document.exitFullscreen());  // as the browser's own Esc does
  await held(page, false, null);
  await context.close();
});

test('the element: F makes it fullscreen and F again leaves it; Esc leaves both; the browser ending fullscreen leaves presentation', async () => {
  const { context, page, problems } = await openDeck(site, HD);
  await page.evaluate(() => document.getElementById('x').setAttribute('present', ''));
  await held(page, true, null, 'x');
  const x = 'host';
  assert.equal(await page.evaluate(() => document.activeElement.id), 'x', 'presentation takes the focus into the element');
  await page.keyboard.press('f');
  await held(page, true, x, 'x');
  await page.keyboard.press('f');
  await held(page, true, null, 'x');
  await page.keyboard.press('f');
  await held(page, true, x, 'x');
  await page.keyboard.press('Escape');
  await held(page, false, null, 'x');
  await page.evaluate(() => document.getElementById('x').shadowRoot.querySelector('.ax').focus());
  await page.keyboard.press('p');
  await held(page, true, x, 'x');
  await page.evaluate(() => document.exitFullscreen());
  await held(page, false, null, 'x');
  assert.deepEqual(await page.evaluate(() => [window.deck.at, window.deck.seen.length, window.deck.fullscreen]), [0, 0, 0], 'the deck saw none of these keys');
  assert.deepEqual(problems, []);
  await context.close();
});

test('fullscreen refused: presentation covers the viewport, on the page and on the element in a deck scaled to a 1000×700 window', async () => {
  const size = { width: 1000, height: 700 };
  const { context, page } = await openPage('#story=paper&step=1', 1, size, REFUSE_FULLSCREEN);
  await page.keyboard.press('p');
  await held(page, true, null);
  let r = await presentRect(page);
  assert.deepEqual(r.rect, r.viewport, 'the page');
  await context.close();

  const deck = await openDeck(site, size, REFUSE_FULLSCREEN);
  const before = await deck.page.evaluate(() => document.getElementById('x').getBoundingClientRect().width);
  assert.ok(before < 560, `the deck is scaled down (the element is ${before} px wide on a 560 px column)`);
  await deck.page.evaluate(() => document.getElementById('x').shadowRoot.querySelector('.ax').focus());
  await deck.page.keyboard.press('p');
  await held(deck.page, true, null, 'x');
  r = await presentRect(deck.page, 'x');
  assert.deepEqual(r.rect, r.viewport, 'the element');
  await deck.page.keyboard.press('f');  // refused again: still presenting in the viewport
  await deck.page.keyboard.press('ArrowRight');
  await elementAt(deck.page, 2, true);
  r = await presentRect(deck.page, 'x');
  assert.deepEqual(r.rect, r.viewport, 'the element after F');
  assert.equal(await deck.page.evaluate(() => document.fullscreenElement), null);
  await deck.context.close();
});
