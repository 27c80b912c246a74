#!/usr/bin/env node
// attnx: the README's performance table, made from the benchmarks' own reports:
// test-output/bench-explorer.json (npm run bench:explorer) and test-output/bench-lab.json
// (npm run bench:lab). Prints the table; --write FILE replaces the block between
// <!-- perf-table:begin --> and <!-- perf-table:end --> in FILE (README.md) with it.
//
//   node scripts/perf-table.mjs [--write README.md]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const BEGIN = '<!-- perf-table:begin -->';
export const END = '<!-- perf-table:end -->';

const ms = (x) => (x === null || x === undefined ? '—' : `${x < 100 ? x.toFixed(1) : Math.round(x)} ms`);
const sec = (x) => (x === null || x === undefined ? '—' : `${x.toFixed(x < 1 ? 3 : 1)} s`);
const met = (ok) => (ok ? 'met' : '**not met**');
const day = (iso) => (iso ? String(iso).slice(0, 10) : 'date unknown');

// The explorer's rows: one per dragged L, then the typed L = 4096.
function explorerRows(ex) {
  const out = [];
  for (const r of ex.rows || []) {
    const target = ex.targets && ex.targets.dragP50Ms ? ex.targets.dragP50Ms[r.L] : undefined;
    const ok = target !== undefined && r.p50 !== null && r.p50 <= target;
    out.push([`Explorer, L = ${r.L}, d dragged: input → result on screen, p50 / p95 (${r.drawn} of ${r.inputs} inputs drawn)`,
      `${ms(r.p50)} / ${ms(r.p95)}`, target === undefined ? '' : `p50 ≤ ${target} ms: ${met(ok)}`]);
  }
  const b = ex.big;
  if (b) {
    const t = ex.targets && ex.targets.bigMs;
    const got = b.timeout ? 'timed out' : sec(b.ms / 1000);
    const best = b.runsMs && b.runsMs.length > 1 ? `, best of ${b.runsMs.length}` : '';
    out.push([`Explorer, L = ${b.L}, d = ${b.d} typed: drawn (progress shown${best})`, got,
      t ? `≤ ${t / 1000} s: ${met(!b.timeout && b.ms <= t)}` : '']);
  }
  return out;
}

// The lab's rows: one per number of workers, with the native CLI at as many threads.
function labRows(lab) {
  const t = lab.targets || {};
  return (lab.levels || []).map((l) => [
    `Lab, paper preset, warm, ${l.browser_workers} worker(s) (native CLI, ${l.threads} thread(s))`,
    `${sec(l.browser_warm_best_s)} (${sec(l.native_s)}, page / native ${l.browser_over_native}×)`,
    `≤ ${t.warm_s} s and ≤ native: ${met(l.browser_warm_best_s <= t.warm_s && l.browser_over_native <= t.browser_over_native)}`,
  ]);
}

/** The markdown table of the two reports (parsed JSON objects). */
export function perfTable(explorer, lab) {
  const rows = [...explorerRows(explorer), ...labRows(lab)];
  const machine = (r) => `${r.cpu_model || 'a CPU not recorded'}, ${r.cpus} cores`;
  const where = machine(explorer) === machine(lab) ? `on one machine (${machine(explorer)})`
    : `on ${machine(explorer)} (explorer) and ${machine(lab)} (lab)`;
  return [
    `Measured by \`npm run bench:explorer\` (${day(explorer.measured)}) and \`npm run bench:lab\` (${day(lab.measured)}) in`
      + ` headless Chromium ${where}; made by \`node scripts/perf-table.mjs --write README.md\`.`,
    '',
    '| benchmark | measured | issue 26 target |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** text with the block between BEGIN and END replaced by table; throws when the markers are missing. */
export function replaceBlock(text, table) {
  const a = text.indexOf(BEGIN), b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`perf-table: the file has no ${BEGIN} … ${END} block`);
  return `${text.slice(0, a + BEGIN.length)}\n${table}\n${text.slice(b)}`;
}

function readReport(name) {
  const file = `${ROOT}test-output/${name}`;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`perf-table: cannot read test-output/${name} (run the benchmark first): ${e.message}`);
  }
}

function main(argv) {
  if (argv.length && !(argv.length === 2 && argv[0] === '--write')) {
    console.error('usage: node scripts/perf-table.mjs [--write README.md]');
    process.exit(2);
  }
  const table = perfTable(readReport('bench-explorer.json'), readReport('bench-lab.json'));
  if (!argv.length) return console.log(table);
  writeFileSync(argv[1], replaceBlock(readFileSync(argv[1], 'utf8'), table));
  console.log(`perf-table: ${argv[1]} updated`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
