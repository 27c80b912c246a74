// The explorer's three constructions (SPEC §8): the selector sets the d that goes with it and the
// link; the precision panel, lp's margins and the row's query show the core's numbers; moment's
// float32 failure is said; jl's report is computed when asked.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openWatched, clickSettled } from './site-harness.mjs';
import { load } from '../../web/lib/attnx.js';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { fmt } from '../../web/explorer/format.js';

const site = useSite();
let api;
before(async () => {
  api = await load();
});

const open = (hash) => openWatched(site, hash);

async function ready(page, n = 1) {
  await page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
    && document.documentElement.dataset.busy === '0', n, { timeout: 90000 });
}

const metric = (page, key) => page.evaluate((key) => document.querySelector(`#metrics [data-metric="${key}"]`)?.dataset.value, key);

test('lp: the panel and the row inspector show the core\'s margins, iterations and precision', async () => {
  const { context, page, problems } = await open('#v=2&L=64&construction=lp&d=16&row=5&help=0');
  await ready(page);
  const r = api.construct({ L: 64, d: 16, construction: 'lp' });
  assert.equal(Number(await metric(page, 'tMin')), Math.min(...r.rowValues.margin));
  assert.equal(Number(await metric(page, 'feasibleRows')), r.report.feasibleRows);
  assert.equal(Number(await metric(page, 'bits')), r.precision.bits);
  assert.equal(await metric(page, 'fp32'), String(r.precision.fp32));
  assert.equal(Number(await metric(page, 'inputNorm')), r.precision.inputNorm);
  const query = await page.textContent('[data-row-query="5"]');
  assert.match(query, /^query Q_i \(16 coordinates\)/);
  assert.match(query, new RegExp(`solver iterations = ${r.rowValues.iterations[5]} `));
  assert.match(query, new RegExp(`LP margin t\\*_i = ${fmt(r.rowValues.margin[5]).replace('.', '\\.')} `));
  assert.deepEqual(problems, []);
  await context.close();
});

test('moment: D = 2m, float32 fails and the page says it is the lesson', async () => {
  const { context, page, problems } = await open('#v=2&L=64&construction=moment&help=0');
  await ready(page);
  const r = api.construct({ L: 64, construction: 'moment' });
  assert.equal(await metric(page, 'fp32'), 'false');
  assert.equal(await metric(page, 'fp64'), String(r.precision.fp64));
  assert.equal(Number(await metric(page, 'bits')), r.precision.bits);
  assert.match(await page.textContent('#metrics [data-metric="lesson"]'), /In float32 the moment curve fails at L = 64.*This is the lesson, not a bug/);
  assert.equal(await page.isHidden('[data-name="d"]'), true, 'moment has no d to set');
  await page.click('#mind-btn');
  assert.match(await page.textContent('#dsearch-msg'), /^The moment construction has one hidden size per pattern/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('picking lp sets d = 32 and writes the link; jl\'s precision report is computed when asked', async () => {
  const { context, page, problems } = await open('#v=2&L=64&d=600&seed=2&help=0');
  await ready(page);
  assert.equal(await metric(page, 'precision'), 'available', 'jl: not computed until asked');
  await clickSettled(page, '.precision-ask');
  await page.waitForFunction(() => document.querySelector('#metrics [data-metric="bits"]'), null, { timeout: 60000 });
  await ready(page);  // the click may bring X's card into view: its images are computed again
  const want = api.precision({ L: 64, d: 600, seed: 2 }).precision;
  assert.equal(Number(await metric(page, 'bits')), want.bits);
  assert.equal(await metric(page, 'fp64'), String(want.fp64));
  await page.selectOption('#f-construction', 'lp');
  await ready(page, 2);
  assert.equal(await page.inputValue('#f-d'), '32');
  assert.match(await urlHash(page), /&construction=lp&box=1000&budget=5.3&projection=gaussian&d=32&/);
  assert.equal(await page.getAttribute('#f-d', 'max'), '256');
  assert.deepEqual(problems, []);
  await context.close();
});

test('X\'s images are made only when its card is on screen: off screen a change leaves them, scrolled to they are drawn', async () => {
  const { context, page, problems } = await open('#v=2&L=256&d=300&help=0');
  await ready(page);
  const xImage = () => page.evaluate(() => document.querySelector('#construction canvas.heat').toDataURL());
  const mImage = () => page.evaluate(() => document.querySelector('#fig-M canvas.heat').toDataURL());
  const before = { x: await xImage(), m: await mImage() };
  await page.fill('#f-d', '2000');
  await page.press('#f-d', 'Enter');
  await ready(page, 2);
  assert.notEqual(await mImage(), before.m, 'M is redrawn');
  assert.equal(await xImage(), before.x, 'X\'s card is off screen: not redrawn');
  const runs = Number(await page.evaluate(() => document.documentElement.dataset.runs));
  await page.locator('#construction').scrollIntoViewIfNeeded();
  await ready(page, runs + 1);  // the result lacked X's images: computed again (the Gram matrix is kept)
  await page.waitForFunction((x) => document.querySelector('#construction canvas.heat').toDataURL() !== x, before.x, { timeout: 30000 });
  const legend = await page.textContent('#construction');
  assert.match(legend, /√d·B·P: [0-9]/, 'the legend names the drawn half\'s largest value');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a result of the same settings keeps the precision button: a click on it is not lost to the redraw', async () => {
  const { context, page, problems } = await open('#v=2&L=64&d=600&seed=2&help=0');
  await ready(page);
  const runs = await page.evaluate(() => Number(document.documentElement.dataset.runs));
  const btn = await page.$('.precision-ask');
  await page.locator('#construction').scrollIntoViewIfNeeded();  // X's card in view: computed again for its images
  await ready(page, runs + 1);
  assert.equal(await btn.evaluate((b) => b.isConnected), true, 'the same button');
  assert.equal(await metric(page, 'precision'), 'available');
  assert.deepEqual(problems, []);
  await context.close();
});
