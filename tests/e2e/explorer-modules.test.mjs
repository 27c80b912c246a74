// End-to-end tests of the explorer's modules that need the page: the link (versions, what is not a
// link, the skip link) and custom-pattern import/export read and written by the core through the
// worker pool. The DOM-free unit tests live in tests/node/ (explorer-*.test.mjs, common-*.test.mjs).
// Serves dist/ (or web/ when dist/ has not been built; ATTNX_E2E_DIR overrides).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchChromium, servedDir, downloadBytes } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { load } from '../../web/lib/attnx.js';
import { reusedPage } from './page-reuse.mjs';

const dir = servedDir();

let server, browser;

before(async () => {
  server = await startServer(dir, 0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(hash) {
  const { context, page } = await reusedPage(browser, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(server.url + hash);
  return { page, context, problems };
}

async function ready(page, n = 1) {
  await page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
    && document.documentElement.dataset.busy === '0', n, { timeout: 90000 });
}

const hashOf = urlHash;
const runsOf = (page) => page.evaluate(() => Number(document.documentElement.dataset.runs));
const form = (page) => page.evaluate(() => [...document.querySelectorAll('#settings input, #settings select')]
  .map((e) => `${e.id}=${e.type === 'radio' ? e.checked : e.value}`).join('&'));

test('an old link (no v) is read with the v0 defaults and rewritten as a current (version-3) link', async () => {
  const { page, context, problems } = await openPage('#pattern=window&L=64&w=3&help=0');
  await ready(page);
  assert.equal(await hashOf(page), '#v=3&pattern=window&L=64&k=2&w=3&r=2&block=4&stride=8&globals=1&randoms=1'
    + '&weights=uniform&wMin=0.1&decay=1&eps=1&tau=0.1&delta=0.1&construction=jl&box=1000&budget=5.3&projection=gaussian&d=1024&seed=1');  // help=0 is the default since version 2's figures-first page
  assert.equal(await page.inputValue('#f-d'), '1024');
  assert.equal(await page.textContent('#messages'), '');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link of an unknown version is refused with a message; the page opens with its defaults', async () => {
  const { page, context, problems } = await openPage('#v=7&L=64&d=512');
  await ready(page);
  assert.match(await page.textContent('#messages'), /v must be a link version from 0 to 3 \(got "7"\); none of the other settings were read\. The page shows its defaults\./);
  assert.equal(await page.inputValue('#f-L'), '256');
  assert.equal(await page.inputValue('#f-d'), '1024');
  assert.deepEqual(problems, []);
  await context.close();
});

test("a link choosing lp with an invalid d computes with lp's own d, and its link is one that works", async () => {
  const lpD = (await load({ flavour: 'simd' })).schema().constructions.find((c) => c.name === 'lp').explorerD;
  for (const bad of ['5000', 'abc']) {
    const { page, context, problems } = await openPage(`#v=2&L=64&construction=lp&d=${bad}`);
    await ready(page);
    const msgs = await page.textContent('#messages');
    assert.match(msgs, new RegExp(`d must be an integer from 1 to \\d+ .*got "${bad}"`), msgs);
    assert.doesNotMatch(msgs, /for construction lp \(got 1024/, 'the page default is not tried for lp');
    assert.match(await page.textContent('#status-text'), new RegExp(`L = 64, d = ${lpD}: `), "computed, at lp's own d");
    assert.match(await hashOf(page), new RegExp(`[#&]construction=lp&.*\\bd=${lpD}(&|$)`));
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the skip link moves focus to the figures and leaves the settings and the URL alone', async () => {
  const { page, context, problems } = await openPage('#pattern=causal&L=48&w=2&d=256&help=0');
  await ready(page);
  const hash = await hashOf(page), settings = await form(page), runs = await runsOf(page);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the figures');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'figures');
  assert.equal(await hashOf(page), hash);
  assert.equal(await form(page), settings);
  assert.doesNotMatch(await page.textContent('#messages'), /unknown setting/);
  // An element-id hash set some other way (an anchor, by hand) is no link either.
  await page.evaluate(() => { location.hash = '#figures'; });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  assert.equal(await form(page), settings);
  assert.equal(await page.textContent('#messages'), '');
  assert.equal(await runsOf(page), runs);
  await page.click('#copy-link');
  assert.equal(await page.inputValue('#share-link'), `${server.url}${hash}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('export downloads the core\'s text; imported files are read by the core, the page checks L', async () => {
  const { page, context, problems } = await openPage('#pattern=custom&L=4&d=64&help=0&cp=0*4');
  await ready(page);
  await page.click('details.io summary');
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  assert.equal(dl.suggestedFilename(), 'attnx-pattern-L4.csv');
  assert.equal((await downloadBytes(dl)).toString('utf8'), 'i,j,w\n0,0,1\n1,1,1\n2,2,1\n3,3,1\n');
  const msg = () => page.textContent('#custom-msg');
  const diag = JSON.stringify({ L: 5000, triplets: Array.from({ length: 5000 }, (_, i) => [i, i, 1]) });
  await page.setInputFiles('#import-file', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(diag) });
  await page.waitForFunction(() => /Import failed/.test(document.querySelector('#custom-msg').textContent));
  assert.equal(await msg(), 'Import failed (big.json): L must be an integer from 2 to 4096 (got "5000"). The previous pattern is kept.');
  const n = await runsOf(page);
  await page.setInputFiles('#import-file', { name: 'p.csv', mimeType: 'text/csv', buffer: Buffer.from('# a comment\n0,1,1\n1,0,1\n2,2,3\n') });
  await ready(page, n + 1);
  assert.equal(await msg(), 'Imported 3 nonzeros, L = 3.');
  assert.match(await hashOf(page), /&L=3&.*&cp=1_-1_0(&|$)/);
  assert.deepEqual(problems, []);
  await context.close();
});
