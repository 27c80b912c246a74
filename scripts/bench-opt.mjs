#!/usr/bin/env node
// attnx opt benchmark (npm run bench:opt, issue 44): opt's minimal D (SPEC §10.1) at L = 256,
// random k = 2, budget Λ_max = 5.3, paper tolerances, for --seeds targets
//   * in headless Chromium through the explorer (web/index.html): "Find the minimal d" clicked ->
//     its message, wall time in the page; the first search of the page (cold: the worker's module
//     may still be compiling its hot functions) and one more per seed (warm);
//   * natively: `build/native/attnx mind` with the same options (opt runs on one thread, as the page's search
//     runs in one worker), wall time;
//   * the page/native ratio of the warm medians, and whether every d_min is the CLI's (exit 1 when
//     one differs). Target (issue 44): a warm search <= 5 s in the page.
// --frontier also times `attnx frontier --L 512 --trials 10 --threads 2` (all constructions, the
// default budgets and boxes; minutes).
//
//   node scripts/bench-opt.mjs [--L 256] [--seeds 1,2,3] [--frontier] [--json]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { load } from '../web/lib/attnx.js';
import { explorerTable } from '../web/explorer/state.js';
import { minDGrid } from '../web/explorer/d-search.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = `${ROOT}build/native/attnx`;
const TARGET_S = 5;
const BUDGET = 5.3;

function parseArgs(argv) {
  const o = { L: 256, seeds: [1, 2, 3], frontier: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--L') o.L = Number(argv[++i]);
    else if (a === '--seeds') o.seeds = String(argv[++i]).split(',').map(Number);
    else if (a === '--frontier') o.frontier = true;
    else if (a === '--json') o.json = true;
    else {
      console.error(`bench-opt: unknown option ${a} (allowed: --L N, --seeds a,b,c, --frontier, --json)`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(o.L) || o.L < 2 || o.seeds.some((s) => !Number.isInteger(s) || s < 0)) {
    console.error('bench-opt: --L must be an integer >= 2 and --seeds non-negative integers');
    process.exit(2);
  }
  return o;
}

const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];

// `attnx mind` for one seed on the page's grid: { seconds, dMin }.
function nativeMinD(L, seed, grid) {
  const t0 = process.hrtime.bigint();
  const out = JSON.parse(execFileSync(CLI, ['mind', '--pattern', 'random', '--L', String(L), '--k', '2', '--seed', String(seed),
    '--construction', 'opt', '--scale', String(BUDGET), '--step', String(grid.step), '--dmax', String(grid.dmax)], { encoding: 'utf8' }));
  return { seconds: seconds(t0), dMin: out.d_min };
}

// Clicks "Find the minimal d" and resolves { ms, text } once the search has said its result.
const clickFind = (page) => page.evaluate(() => new Promise((resolve) => {
  const msg = document.getElementById('dsearch-msg');
  const t0 = performance.now();
  document.getElementById('mind-btn').click();
  const check = () => {
    const text = msg.textContent;
    if (/^(Minimal d =|No d up to|The search failed)/.test(text)) resolve({ ms: performance.now() - t0, text });
    else setTimeout(check, 5);
  };
  setTimeout(check, 5);
}));

const idle = (page) => page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1
  && document.documentElement.dataset.busy === '0', null, { timeout: 300000 });

// The explorer's searches, one page per seed: the first search in a fresh page, then a second one.
async function pageMinD(L, seeds) {
  const server = await startServer(servedDir(), 0);
  const browser = await launchChromium();
  const runs = [];
  try {
    for (const seed of seeds) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.goto(`${server.url}index.html#v=3&L=${L}&k=2&construction=opt&budget=${BUDGET}&d=16&seed=${seed}&help=0`);
      await idle(page);
      const cold = await clickFind(page);
      await idle(page);
      await page.evaluate((d) => { const f = document.getElementById('f-d'); f.value = String(d); f.dispatchEvent(new Event('change', { bubbles: true })); }, 16);
      await idle(page);
      const warm = await clickFind(page);
      const m = /^Minimal d = (\d+)/.exec(warm.text);
      runs.push({ seed, cold_s: cold.ms / 1000, warm_s: warm.ms / 1000, dMin: m ? Number(m[1]) : null, text: warm.text });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return runs;
}

function frontierTime() {
  const t0 = process.hrtime.bigint();
  const out = JSON.parse(execFileSync(CLI, ['frontier', '--L', '512', '--trials', '10', '--threads', '2'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const opt = out.points.filter((p) => p.construction === 'opt').map((p) => `${p.scale}: ${p.median}`);
  return { seconds: +seconds(t0).toFixed(1), opt_median_by_budget: opt };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run scripts/build-native`);
  const api = await load();
  const schema = api.schema();
  const grid = minDGrid(schema, explorerTable(schema), { construction: 'opt', L: o.L });
  const nat = o.seeds.map((s) => ({ seed: s, ...nativeMinD(o.L, s, grid) }));
  const br = await pageMinD(o.L, o.seeds);
  const warm = median(br.map((r) => r.warm_s)), native = median(nat.map((r) => r.seconds));
  const report = {
    L: o.L, budget: BUDGET, grid, seeds: o.seeds,
    page: br.map((r) => ({ seed: r.seed, cold_s: +r.cold_s.toFixed(2), warm_s: +r.warm_s.toFixed(2), d_min: r.dMin })),
    native: nat.map((r) => ({ seed: r.seed, seconds: +r.seconds.toFixed(2), d_min: r.dMin })),
    page_warm_median_s: +warm.toFixed(2), native_median_s: +native.toFixed(2), page_over_native: +(warm / native).toFixed(2),
    target_warm_s: TARGET_S, target_met: warm <= TARGET_S,
    d_mins_match_cli: br.every((r, i) => r.dMin === nat[i].dMin),
    frontier_L512_T10_threads2: o.frontier ? frontierTime() : undefined,
  };
  if (o.json) console.log(JSON.stringify(report, null, 2));
  else {
    for (const r of report.page) console.log(`seed ${r.seed}: page ${r.cold_s} s first, ${r.warm_s} s again (D_min ${r.d_min}); native ${report.native.find((n) => n.seed === r.seed).seconds} s`);
    console.log(`opt's D_min at L = ${o.L}, budget ${BUDGET}: page (warm, median) ${report.page_warm_median_s} s, native ${report.native_median_s} s, page/native ${report.page_over_native}; target <= ${TARGET_S} s ${report.target_met ? 'met' : 'NOT met'}; d_mins ${report.d_mins_match_cli ? 'match' : 'DIFFER from'} the CLI`);
    if (report.frontier_L512_T10_threads2) console.log(`attnx frontier --L 512 --trials 10 --threads 2: ${report.frontier_L512_T10_threads2.seconds} s (opt's medians by budget: ${report.frontier_L512_T10_threads2.opt_median_by_budget.join(', ')})`);
  }
  if (!report.d_mins_match_cli) process.exitCode = 1;
}

main().catch((e) => {
  console.error(`bench-opt: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
