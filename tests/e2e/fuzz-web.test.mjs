// Hardening of the pages in headless Chromium (issue 9, items 4 and 5): the reported hostile links
// and imports as fixed regression cases, then a short seeded run of scripts/fuzz-web.mjs over
// every surface (links of both pages, pattern and sweep imports, hostile stories for
// <attnx-explorer>: story-src, inline JSON, story and step; model head files through the head
// file input; <attnx-explorer> and <attnx-lab> attributes and lifecycle) that must find no BAD
// case.
// No wall-clock assertion: only the fuzzer's generous per-case hang guard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { runFuzz, SURFACES } from '../../scripts/fuzz-web.mjs';
import { load } from '../../web/lib/attnx.js';
import { maxHashLength } from '../../web/common/hashstate.js';
import { explorerTable } from '../../web/explorer/state.js';
import { labTable } from '../../web/lab/settings.js';
import { urlHash } from '../../scripts/explorer-url.mjs';

const dir = servedDir();

let server, browser, schema, maxHash;

before(async () => {
  schema = (await load()).schema();
  maxHash = { explorer: maxHashLength(explorerTable(schema)), lab: maxHashLength(labTable(schema)) };
  server = await startServer(dir, 0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// Opens `file` + hash; records page errors and console errors.
async function open(file, hash) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 850 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message.slice(0, 200)}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text().slice(0, 200)}`); });
  page.on('crash', () => problems.push('crash'));
  await page.goto(`${server.url}${file}${hash}`);
  return { page, context, problems };
}

const explorerIdle = (page, runs = 1) => page.waitForFunction((n) => document.documentElement.dataset.busy === '0'
  && Number(document.documentElement.dataset.runs || 0) >= n, runs, { timeout: 120000 });
const messages = (page) => page.$$eval('#messages li', (li) => li.map((x) => x.textContent));

test('explorer: a 260,000-character hash is refused with the limit named, the URL cleaned, no crash', async () => {
  const hash = `#${'x&'.repeat(130000)}`;
  const { page, context, problems } = await open('index.html', hash);
  await explorerIdle(page);
  assert.deepEqual(await messages(page), [`Link: the link is 260000 characters long; links of this page have at most ${maxHash.explorer}, so none of its settings were read. The page shows its defaults.`]);
  const after = await urlHash(page);
  assert.match(after, /^#v=3&pattern=random&L=256&/);
  assert.ok(after.length < 1000);
  // Such a hash (no "=": it looks like an element id) set on the open page is refused too.
  await page.evaluate(() => { location.hash = 'x&'.repeat(130001); });
  await page.waitForFunction(() => /260002 characters/.test(document.getElementById('messages').textContent));
  assert.ok((await urlHash(page)).length < 1000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('explorer: prototype names are unknown settings, a repeated key is reported, thousands of keys are capped', async () => {
  const { page, context, problems } = await open('index.html', '#__proto__=1&constructor=1&L=64&L=128&d=64&help=0');
  await explorerIdle(page);
  assert.deepEqual(await messages(page), [
    'Link: unknown setting "__proto__" in the link.',
    'Link: unknown setting "constructor" in the link.',
    'Link: setting "L" appears 2 times in the link; the first value is used.',
  ]);
  assert.match(await urlHash(page), /&L=64&/);
  // 20,000 distinct unknown keys (within the length limit): 20 lines and "+19980 more".
  await page.evaluate(() => { location.hash = Array.from({ length: 20000 }, (_, i) => `k${i}=1`).join('&'); });
  await page.waitForFunction(() => document.querySelectorAll('#messages li').length === 21);
  assert.equal(await page.textContent('#messages li:last-child'), '+19980 more');
  assert.deepEqual(problems, []);
  await context.close();
});

test('lab: a 1 MiB hash is refused with the limit named and replaced by the page\'s link', async () => {
  const hash = `#${'x=1&'.repeat(262144)}`;
  const { page, context, problems } = await open('lab.html', hash);
  await page.waitForFunction(() => document.body.dataset.run === 'idle', null, { timeout: 120000 });
  assert.deepEqual(await messages(page), [`Link setting ignored: the link is 1048576 characters long; links of this page have at most ${maxHash.lab}, so none of its settings were read.`]);
  const after = await page.evaluate(() => location.hash);
  assert.match(after, /^#v=3&Ls=/);
  assert.ok(after.length <= maxHash.lab);
  assert.deepEqual(problems, []);
  await context.close();
});

test('explorer: an imported pattern beyond maxNnzLink stays out of the URL, with a note', async () => {
  const { maxNnzLink } = schema.pageLimits;
  const L = maxNnzLink + 1;
  const { page, context, problems } = await open('index.html', '#d=64&help=0');
  await explorerIdle(page);
  await page.evaluate(() => { document.querySelector('details.io').open = true; });
  const text = JSON.stringify({ L, triplets: Array.from({ length: L }, (_, i) => [i, (i * 7) % L, 1 + (i % 3)]) });
  await page.setInputFiles('#import-file', { name: 'wide.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await explorerIdle(page, 2);
  assert.equal(await page.textContent('#custom-msg'), `Imported ${L} nonzeros, L = ${L}.`);
  const hash = await urlHash(page);
  assert.match(hash, new RegExp(`&pattern=custom&L=${L}&`));
  assert.doesNotMatch(hash, /[#&](cp|cw)=/);
  assert.ok((await messages(page)).includes(`This custom pattern has ${L} nonzeros; links hold at most ${maxNnzLink}, so "Copy link" will not include it (export it as JSON instead).`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a short seeded fuzz run finds no BAD case on any surface', { timeout: 3600000 }, async () => {
  const report = await runFuzz({ seed: 20261202, links: 30, imports: 25, stories: 12, heads: 10, elements: 10, dir, caseTimeoutMs: 120000, longTaskMs: Infinity });  // no wall-clock verdict in npm test
  assert.deepEqual(Object.keys(report.surfaces), SURFACES);
  for (const [name, t] of Object.entries(report.surfaces)) {
    assert.equal(t.tried, name.endsWith('links') ? 30 : name === 'explorer-stories' ? 12 : name.endsWith('elements') || name === 'explorer-heads' ? 10 : 25, name);
    assert.equal(t.ok + t.refused + t.bad.length, t.tried, name);
    assert.deepEqual(t.bad, [], `${name}: ${JSON.stringify(t.bad, null, 1)}`);
  }
});
