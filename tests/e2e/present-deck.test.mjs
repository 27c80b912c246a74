// <attnx-explorer> in a reveal.js-like deck (fixtures/deck.html: keys read on the document,
// bubbling, without looking at defaultPrevented, as reveal.js does). The `present` attribute opens
// presentation mode and removing it leaves; P on the focused element opens it and Esc leaves.
// While the element does not have focus, → Space P go to the deck: its slide changes, the
// element's step does not and presentation does not open. While it has focus, the keys step the
// element's story (and open, step and leave presentation) and the deck sees none of them, nor
// keys typed into the element's fields. Every wait is on a state, never on a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDeckSite, openDeck, elementAt, deckState } from './present-harness.mjs';

const site = useDeckSite();
const attr = (page, on) => page.evaluate((on) => {
  const x = document.getElementById('x');
  if (on) x.setAttribute('present', ''); else x.removeAttribute('present');
}, on);
const barShown = (page) => page.evaluate(() => {
  const bar = document.getElementById('x').shadowRoot.getElementById('present-bar');
  return !bar.hidden && bar.getClientRects().length > 0;
});
// Focuses the element as a reader does: a click on it (on the verdict line, which does nothing else).
const clickIn = (page) => page.click('#x', { position: { x: 4, y: 4 } });

test('the present attribute opens presentation mode and removing it leaves; P on the focused element opens it, Esc leaves', async () => {
  const { context, page, problems } = await openDeck(site);
  await elementAt(page, 1, false);
  assert.equal(await barShown(page), false);
  await attr(page, true);
  await elementAt(page, 1, true);
  assert.equal(await barShown(page), true, 'the attribute shows the presentation bar');
  await attr(page, false);
  await elementAt(page, 1, false);
  assert.equal(await barShown(page), false, 'removing the attribute hides it');
  await clickIn(page);
  assert.equal((await deckState(page)).focused, true, 'a click focuses the element');
  await page.keyboard.press('p');
  await elementAt(page, 1, true);
  assert.equal(await barShown(page), true, 'P opens presentation mode');
  await page.keyboard.press('Escape');
  await elementAt(page, 1, false);
  assert.equal(await barShown(page), false, 'Esc leaves it');
  const s = await deckState(page);
  assert.deepEqual([s.slide, s.seen, await page.evaluate(() => window.deck.overview)], [0, '', false], 'the deck saw neither P nor Esc');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without focus on the element, → Space P step the deck; the element keeps its step and does not present', async () => {
  const { context, page } = await openDeck(site);
  await elementAt(page, 1, false);
  await page.evaluate(() => document.activeElement?.blur());
  assert.equal((await deckState(page)).focused, false);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.deck.at === 1);
  await page.keyboard.press(' ');
  await page.waitForFunction(() => window.deck.at === 2);
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.deck.at === 1);
  const s = await deckState(page);
  assert.deepEqual([s.step, s.present, s.seen], [1, false, 'ArrowRight, ,p'], 'the keys went to the deck only');
  await context.close();
});

test('with focus on the element, the keys step its story, open, step and leave presentation; the deck sees none of them', async () => {
  const { context, page, problems } = await openDeck(site);
  await elementAt(page, 1, false);
  await clickIn(page);
  const keys = [['ArrowRight', 2, false], ['PageDown', 3, false], ['ArrowLeft', 2, false], ['p', 2, true],
    [' ', 3, true], ['ArrowRight', 4, true], ['End', 6, true], ['Home', 1, true], ['PageDown', 2, true],
    ['PageUp', 1, true], ['Escape', 1, false]];
  for (const [key, step, present] of keys) {
    await page.keyboard.press(key);
    await elementAt(page, step, present);
    const s = await deckState(page);
    assert.deepEqual([s.slide, s.seen, s.focused], [0, '', true], `after ${JSON.stringify(key)}: the deck did not act and the element kept the focus`);
  }
  await context.close();
  assert.deepEqual(problems, []);
});

test('keys typed into the element\'s field do not reach the deck (its focus check sees only the element)', async () => {
  const { context, page } = await openDeck(site);
  await elementAt(page, 1, false);
  const field = await page.evaluateHandle(() => document.getElementById('x').shadowRoot.getElementById('f-d'));
  await field.asElement().click();
  assert.equal((await deckState(page)).focused, true);
  for (const key of ['ArrowRight', ' ', 'p', 'f', 'ArrowLeft', 'Home', 'End']) await page.keyboard.press(key);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');  // keys arrive in order: once the deck has this one, it had the others
  await page.waitForFunction(() => window.deck.at === 1);
  const s = await deckState(page);
  assert.deepEqual([s.seen, s.present], ['ArrowRight', false], 'the deck saw none of the typing');
  await context.close();
});
