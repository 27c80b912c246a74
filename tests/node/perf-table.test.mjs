// scripts/perf-table.mjs: the README's performance table from the benchmarks' JSON reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { perfTable, replaceBlock, BEGIN, END } from '../../scripts/perf-table.mjs';

const EXPLORER = {
  measured: '2026-12-06T03:30:00.000Z', cpus: 2, cpu_model: 'AMD EPYC 9B45', targets: { dragP50Ms: { 256: 20, 1024: 50 }, bigMs: 3000 },
  rows: [{ L: 256, p50: 16.6, p95: 34.2, drawn: 78, inputs: 78 }, { L: 1024, p50: 50.4, p95: 69, drawn: 76, inputs: 78 }],
  big: { L: 4096, d: 16384, ms: 10026, timeout: false },
};
const LAB = {
  measured: '2026-12-06T03:21:00.000Z', cpus: 2, cpu_model: 'AMD EPYC 9B45', targets: { warm_s: 0.1, browser_over_native: 1 },
  levels: [{ threads: 1, browser_workers: 1, browser_warm_best_s: 0.234, native_s: 0.118, browser_over_native: 1.99 }],
};

test('the table has a row per benchmark with the measured numbers and whether each target is met', () => {
  const lines = perfTable(EXPLORER, LAB).split('\n');
  assert.match(lines[0], /bench:explorer` \(2026-12-06\) and `npm run bench:lab` \(2026-12-06\) in headless Chromium on one machine \(AMD EPYC 9B45, 2 cores\);/);
  assert.deepEqual(lines.slice(2), [
    '| benchmark | measured | issue 26 target |',
    '|---|---|---|',
    '| Explorer, L = 256, d dragged: input → result on screen, p50 / p95 (78 of 78 inputs drawn) | 16.6 ms / 34.2 ms | p50 ≤ 20 ms: met |',
    '| Explorer, L = 1024, d dragged: input → result on screen, p50 / p95 (76 of 78 inputs drawn) | 50.4 ms / 69.0 ms | p50 ≤ 50 ms: **not met** |',
    '| Explorer, L = 4096, d = 16384 typed: drawn (progress shown) | 10.0 s | ≤ 3 s: **not met** |',
    '| Lab, paper preset, warm, 1 worker(s) (native CLI, 1 thread(s)) | 0.234 s (0.118 s, page / native 1.99×) | ≤ 0.1 s and ≤ native: **not met** |',
  ]);
});

test('benchmarks from two machines name each machine; a report without a CPU model says so', () => {
  assert.match(perfTable(EXPLORER, { ...LAB, cpu_model: 'Intel Xeon', cpus: 4 }).split('\n')[0],
    /on AMD EPYC 9B45, 2 cores \(explorer\) and Intel Xeon, 4 cores \(lab\);/);
  assert.match(perfTable({ ...EXPLORER, cpu_model: undefined }, LAB).split('\n')[0], /on a CPU not recorded, 2 cores \(explorer\) and AMD EPYC 9B45, 2 cores \(lab\);/);
});

test('L = 4096 measured several times shows the best and says so', () => {
  const ex = { ...EXPLORER, big: { ...EXPLORER.big, ms: 3312, runsMs: [3886, 3312, 3540] } };
  const row = perfTable(ex, LAB).split('\n').find((l) => l.includes('L = 4096'));
  assert.equal(row, '| Explorer, L = 4096, d = 16384 typed: drawn (progress shown, best of 3) | 3.3 s | ≤ 3 s: **not met** |');
});

test('--write replaces only the marked block, and a file without the markers is refused', () => {
  const text = `intro\n${BEGIN}\nold table\n${END}\noutro\n`;
  assert.equal(replaceBlock(text, 'NEW'), `intro\n${BEGIN}\nNEW\n${END}\noutro\n`);
  assert.equal(replaceBlock(replaceBlock(text, 'NEW'), 'NEWER'), `intro\n${BEGIN}\nNEWER\n${END}\noutro\n`);
  assert.throws(() => replaceBlock('no markers here', 'X'), /has no <!-- perf-table:begin -->/);
});
