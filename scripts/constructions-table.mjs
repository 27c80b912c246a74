#!/usr/bin/env node
// attnx: the dimensions-against-bits table of issue 12 / SPEC §8 from the native CLI: for each L
// and construction, over seeds 1..T (one random k = 2 target and projection per seed, paper
// tolerances), the minimal d (jl: step 16; lp: step 1; moment: D = 2m), and at that d the §8.4
// precision report (bits(X), input norm, fp32 / fp64). Prints medians as a Markdown table.
//   node scripts/constructions-table.mjs [--Ls 64,256,1024] [--seeds 5]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../build/native/attnx', import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const Ls = arg('Ls', '64,256,1024').split(',').map(Number);
const seeds = Number(arg('seeds', '5'));

const run = (...a) => JSON.parse(execFileSync(CLI, a, { encoding: 'utf8', maxBuffer: 1 << 28 }));
const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (s.length < xs.length / 2) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const SEARCH = { jl: ['--step', '16', '--dmax', '4096'], lp: ['--step', '1', '--dmax', '256'] };

function one(L, construction, seed) {
  const base = ['--L', String(L), '--k', '2', '--seed', String(seed), '--construction', construction];
  let d = null;
  if (construction !== 'moment') {
    d = run('mind', ...base, ...SEARCH[construction]).d_min;
    if (d === null) return { d: null };
  }
  const extra = construction === 'jl' ? ['--precision'] : [];
  const r = run('construct', ...base, ...(d === null ? [] : ['--d', String(d)]), ...extra);
  return { d: r.params.d, bits: r.precision.bits, norm: r.precision.input_norm, fp32: r.precision.fp32, fp64: r.precision.fp64 };
}

console.log(`| L | construction | median d_min (moment: D) | median bits(X) | median input norm | fp32 holds | fp64 holds |`);
console.log('|---|---|---|---|---|---|---|');
for (const L of Ls) {
  for (const c of ['jl', 'lp', 'moment']) {
    const rs = [];
    for (let s = 1; s <= seeds; s++) rs.push(one(L, c, s));
    const n = (f) => rs.filter(f).length;
    const fmt = (x) => (x === null ? 'not reached' : Math.abs(x) >= 1e6 ? x.toPrecision(3) : Number(x.toPrecision(3)).toString());
    console.log(`| ${L} | ${c} | ${fmt(median(rs.map((r) => r.d)))} | ${fmt(median(rs.map((r) => r.bits ?? null)))} | ${fmt(median(rs.map((r) => r.norm ?? null)))} | ${n((r) => r.fp32)}/${seeds} | ${n((r) => r.fp64)}/${seeds} |`);
  }
}
