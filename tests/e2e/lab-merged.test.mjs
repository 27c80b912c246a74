// A researcher's sweep, run as shards with the CLI and merged (attnx sweep --shard, attnx merge):
// 16 lengths, 100 trials each, imported into the lab, which plots every trial and reports the
// same statistics as the file (issue 13, item 4). The page's responsiveness is measured by
// scripts/bench-lab.mjs, not here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

const CLI = new URL('../../build/native/attnx', import.meta.url).pathname;
const Ls = Array.from({ length: 16 }, (_, i) => 16 * (i + 1)).join(',');
let server, browser, dir, merged;

before(async () => {
  assert.ok(existsSync(CLI), 'build/native/attnx is built');
  dir = mkdtempSync(join(tmpdir(), 'attnx-merged-'));
  const parts = [];
  for (let i = 0; i < 4; i++) {
    const f = join(dir, `part-${i}.json`);
    writeFileSync(f, execFileSync(CLI, ['sweep', '--Ls', Ls, '--trials', '100', '--seed', '5', '--shard', `${i}/4`]));
    parts.push(f);
  }
  merged = execFileSync(CLI, ['merge', ...parts], { encoding: 'utf8' });
  server = await startServer(servedDir(), 0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a merged 16-length, 100-trial sweep imports and plots every trial', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}lab.html`);
  await page.waitForFunction(() => window.attnxLab && document.body.dataset.run !== 'loading', null, { timeout: 30000 });
  await page.setInputFiles('#import-file', { name: 'merged.json', mimeType: 'application/json', buffer: Buffer.from(merged) });
  await page.waitForFunction(() => /Imported merged\.json/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
  const res = await page.evaluate(() => window.attnxLab.result);
  const want = JSON.parse(merged);
  assert.equal(res.points.length, 16);
  assert.deepEqual(res.points.map((p) => p.d_mins), want.points.map((p) => p.d_mins));
  assert.deepEqual(res.points.map((p) => p.quantile), want.points.map((p) => p.quantile));
  // 1600 trials: one path per length with its distinct values and a tooltip that counts them.
  const titles = await page.evaluate(() => [...document.querySelectorAll('#plot-dl title')].map((t) => t.textContent));
  for (const p of want.points) {
    const reached = p.d_mins.filter((d) => d !== null);
    const distinct = new Set(reached).size;
    assert.ok(titles.includes(`L = ${p.L}: ${reached.length} of 100 trials reached, d_min ${Math.min(...reached)}–${Math.max(...reached)} (${distinct} distinct values)`), `L = ${p.L} is drawn`);
  }
  await page.close();
});
