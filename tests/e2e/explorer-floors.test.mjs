// The explorer's SPEC §9 lines beside d (web/explorer/floors.js in the metrics card): the floor
// at the X's own logit scale and the ratio for jl and lp, the bits floor (the one the schema says
// holds) with D and w for moment and lp, and for jl once its precision report is computed; every
// number the module's, the meanings the schema's. The first screen still shows A, M and the
// verdict (phone.test.mjs checks the three viewports).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openWatched, clickSettled } from './site-harness.mjs';
import { load } from '../../web/lib/attnx.js';
import { fmt, fmtInt } from '../../web/explorer/format.js';

const site = useSite();
let api, schema;
before(async () => {
  api = await load();
  schema = api.schema();
});

async function open(hash) {
  const opened = await openWatched(site, hash);
  await opened.page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1 && document.documentElement.dataset.busy === '0', null, { timeout: 90000 });
  return opened;
}

// The floor item `key` of the metrics card: its value (unrounded), shown text, sentence, meaning.
const floorItem = (page, key) => page.evaluate((key) => {
  const it = document.querySelector(`#metrics .metric.floor[data-key="${key}"]`);
  if (!it) return null;
  return { value: it.querySelector('.m-value').dataset.value, text: it.querySelector('.m-value').textContent, sentence: it.querySelector('.m-cmp').textContent, meaning: it.querySelector('.m-desc').textContent };
}, key);

test('jl: the floor at its logit scale and how many times it d uses, the schema\'s meaning; w after the report', async () => {
  const { context, page, problems } = await open('#v=2&L=64&d=600&seed=2&help=0');
  const r = api.construct({ L: 64, d: 600, seed: 2 });
  const f = await floorItem(page, 'dLambda');
  assert.equal(Number(f.value), r.bounds.dLambda);
  assert.equal(f.text, fmt(r.bounds.dLambda));
  assert.equal(f.sentence, `The floor at this logit scale (Λ = ${fmt(r.bounds.logitScale)}) is D_Λ = ${fmt(r.bounds.dLambda)}; this X uses D = ${fmtInt(600)}, ${fmt(r.bounds.ratio)} times it.`);
  assert.equal(f.meaning, schema.bounds.d_lambda.help);
  assert.equal(await floorItem(page, 'bitsFloor'), null, 'no w before the precision report');
  await clickSettled(page, '.precision-ask');
  await page.waitForFunction(() => document.querySelector('#metrics .metric.floor[data-key="bitsFloor"]'), null, { timeout: 60000 });
  const p = api.precision({ L: 64, d: 600, seed: 2 });
  const b = await floorItem(page, 'bitsFloor');
  assert.equal(Number(b.value), p.bounds.bitsFixedKeys);
  assert.match(b.sentence, new RegExp(`D·w ≥ ${fmt(p.bounds.bitsFixedKeys, 5)} bits; this X has D = 600 and w = ${p.bounds.bitsPerNumber} bits`));
  assert.equal(b.meaning, schema.bounds.bits_fixed_keys.help);
  assert.deepEqual(problems, []);
  await context.close();
});

test('lp: the floor at its own (larger) logit scale and the ratio; its bits floor with w', async () => {
  const { context, page, problems } = await open('#v=2&L=64&construction=lp&d=16&help=0');
  const r = api.construct({ L: 64, d: 16, construction: 'lp' });
  const f = await floorItem(page, 'dLambda');
  assert.equal(Number(f.value), r.bounds.dLambda);
  assert.match(f.sentence, new RegExp(`is D_Λ = ${fmt(r.bounds.dLambda)}; this X uses D = 16, ${fmt(r.bounds.ratio)} times it\\.$`));
  const b = await floorItem(page, 'bitsFloor');
  assert.equal(Number(b.value), r.bounds.bitsFixedKeys);
  assert.match(b.sentence, new RegExp(`w = ${r.bounds.bitsPerNumber} bits`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('moment: the bits floor for keys chosen with the target, against D = 2m and its w', async () => {
  const { context, page, problems } = await open('#v=2&L=64&construction=moment&help=0');
  const r = api.construct({ L: 64, construction: 'moment' });
  const b = await floorItem(page, 'bitsFloor');
  assert.equal(Number(b.value), r.bounds.bitsFreeKeys);
  assert.equal(b.text, `D·w ≥ ${fmt(r.bounds.bitsFreeKeys, 5)}`);
  assert.equal(b.sentence, `The bits floor is D·w ≥ ${fmt(r.bounds.bitsFreeKeys, 5)} bits; this X has D = 4 and w = ${r.bounds.bitsPerNumber} bits per input number.`);
  assert.equal(b.meaning, schema.bounds.bits_free_keys.help);
  const f = await floorItem(page, 'dLambda');
  assert.equal(Number(f.value), r.bounds.dLambda);
  assert.deepEqual(problems, []);
  await context.close();
});

test('opt: its X within the budget, the floor and the ratio at its logit scale, its steps and penalty; the minimal D is the module\'s', async () => {
  const { context, page, problems } = await open('#v=3&L=64&construction=opt&budget=6&d=12&seed=3&help=0');
  const r = api.construct({ L: 64, d: 12, seed: 3, construction: 'opt', budget: 6 });
  assert.ok(r.bounds.logitScale <= 6, `Λ(X) = ${r.bounds.logitScale} within the budget`);
  const f = await floorItem(page, 'dLambda');
  assert.equal(Number(f.value), r.bounds.dLambda);
  assert.equal(f.sentence, `The floor at this logit scale (Λ = ${fmt(r.bounds.logitScale)}) is D_Λ = ${fmt(r.bounds.dLambda)}; this X uses D = 12, ${fmt(r.bounds.ratio)} times it.`);
  const metric = (key) => page.evaluate((key) => document.querySelector(`#metrics [data-metric="${key}"]`)?.dataset.value, key);
  assert.equal(Number(await metric('optSteps')), r.report.optSteps);
  assert.equal(Number(await metric('optPenalty')), r.report.optPenalty);
  assert.equal(Number(await metric('optBudget')), 6);
  assert.equal(await metric('success'), String(r.metrics.success));
  // Find the minimal d: opt's walk on the module, the same D_min as minD with the page's grid.
  const want = api.minD({ L: 64, seed: 3, construction: 'opt', budget: 6, step: 1, dmax: 128 });
  await page.click('#mind-btn');
  await page.waitForFunction(() => /^(Minimal d|No d|The search failed)/.test(document.getElementById('dsearch-msg').textContent), null, { timeout: 120000 });
  assert.match(await page.textContent('#dsearch-msg'), new RegExp(`^Minimal d = ${want.dMin}: the smallest d \\(up to 128\\)`));
  await page.waitForFunction((d) => document.documentElement.dataset.busy === '0' && new URLSearchParams(location.hash.slice(1)).get('d') === String(d), want.dMin, { timeout: 60000 });
  assert.match(new URL(page.url()).hash, /&construction=opt&box=1000&budget=6&/);
  assert.deepEqual(problems, []);
  await context.close();
});
