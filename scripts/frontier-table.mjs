#!/usr/bin/env node
// attnx: docs/bounds.md's frontier table (SPEC §10.2), computed by the native CLI (`attnx frontier`,
// build/native/attnx), never typed by hand. Per L: the proven floor D_Λ and opt's median D_min (its
// smallest and largest over the trials) at each budget Λ_max, lp's smallest median d_min over its
// boxes with the logit scale it needs, jl's and moment's points. Paper preset: random k = 2,
// uniform weights, eps = 1, tau = 0.1, seed 1. Every opt trial that reached is checked against the
// floor at its budget (a search can never go below a proof); a violation stops the script.
//   node scripts/frontier-table.mjs [--Ls 64,128,256,512,1024] [--trials 10] [--threads 2]
//                                   [--opt-only-Ls 1024] [--write docs/bounds.md]
// --opt-only-Ls: at those L only opt and the floor (jl's and lp's searches at L = 1024 take most
// of an hour on two cores); the table says so. --write puts the table between its markers.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../build/native/attnx', import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const Ls = arg('Ls', '64,128,256,512,1024').split(',').map(Number);
const trials = arg('trials', '10'), threads = arg('threads', '2');
const optOnly = new Set(String(arg('opt-only-Ls', '')).split(',').filter(Boolean).map(Number));
const fmt = (x, digits = 3) => {
  if (x === null || x === undefined) return '—';
  if (x !== 0 && (Math.abs(x) >= 1e5 || Math.abs(x) < 1e-2)) return x.toExponential(2).replace('e+', 'e');
  return Number(x.toPrecision(digits)).toString();
};

// One L's frontier as the CLI prints it (JSON), and the time it took.
function frontier(L) {
  const t0 = process.hrtime.bigint();
  const only = optOnly.has(L) ? ['--constructions', 'opt'] : [];
  const out = JSON.parse(execFileSync(CLI, ['frontier', '--L', String(L), '--trials', trials, '--threads', threads, ...only], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  return { out, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}

// Each opt trial that reached is at least the floor at its budget.
function check(L, out) {
  for (const p of out.points.filter((q) => q.construction === 'opt')) {
    const floor = out.floor.find((f) => f.scale === p.scale).d_lambda;
    for (const d of p.d_mins) if (d !== null && d < floor) throw new Error(`L = ${L}, Λ_max = ${p.scale}: opt's D = ${d} is below the proven floor ${floor}`);
  }
}

const range = (p) => (p.median === null ? 'not reached' : `${fmt(p.median)} (${p.min}–${p.max})`);

// One table line per budget: the floor (a proof) and opt's D_min (a search) with its ratio.
function linesOf(L, out, pts) {
  return out.floor.map((f, n) => {
    const o = pts('opt')[n];
    const ratio = o.median !== null ? fmt(o.median / f.d_lambda, 2) : '—';
    return `| ${n === 0 ? L : ''} | ${fmt(f.scale)} | ${fmt(f.d_lambda)} | ${range(o)} | ${ratio}× |`;
  });
}

function rows(L, out, seconds) {
  const pts = (c) => out.points.filter((p) => p.construction === c);
  const lp = pts('lp').filter((p) => p.median !== null).sort((a, b) => a.median - b.median)[0];
  const [jl] = pts('jl'), [mo] = pts('moment');
  if (!jl) return { lines: linesOf(L, out, pts), others: `| ${L} | opt only at this L (run with --opt-only-Ls) | ${fmt(seconds, 2)} s |` };
  const lines = linesOf(L, out, pts);
  const others = [
    `jl: d = ${range(jl)} at Λ ≈ ${fmt(jl.logit_scale)} (${fmt(jl.median / jl.d_lambda, 3)}× its floor ${fmt(jl.d_lambda)})`,
    lp ? `lp: d = ${range(lp)} at Λ ≈ ${fmt(lp.logit_scale)} (U = ${fmt(lp.box)})` : 'lp: not reached',
    mo.median === null ? `moment: not reached in float32 (${mo.not_reached} of ${mo.d_mins.length})` : `moment: D = ${fmt(mo.median)} at Λ ≈ ${fmt(mo.logit_scale)}`,
  ];
  return { lines, others: `| ${L} | ${others.join('; ')} | ${fmt(seconds, 2)} s |` };
}

const blocks = [];
const tail = [];
for (const L of Ls) {
  const { out, seconds } = frontier(L);
  check(L, out);
  const r = rows(L, out, seconds);
  blocks.push(...r.lines);
  tail.push(r.others);
  process.stderr.write(`L = ${L}: ${fmt(seconds, 3)} s\n`);
}
const table = [
  `Made by \`node scripts/frontier-table.mjs\` (\`attnx frontier --L L --trials ${trials}\`, budgets and boxes at their defaults, seed 1; ${new Date().toISOString().slice(0, 10)}).`,
  '',
  '| L | budget Λ_max | proof: floor D_Λ | search: opt\'s D_min, median (range) | × floor |',
  '|---|---|---|---|---|',
  ...blocks,
  '',
  '| L | constructions at their own logit scale | time (all of the frontier) |',
  '|---|---|---|',
  ...tail,
].join('\n');
const target = arg('write', null);
if (!target) {
  console.log(table);
} else {
  const doc = readFileSync(target, 'utf8');
  const start = '<!-- frontier-table: start -->', end = '<!-- frontier-table: end -->';
  const a = doc.indexOf(start), b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${target} has no frontier-table markers`);
  writeFileSync(target, `${doc.slice(0, a + start.length)}\n${table}\n${doc.slice(b)}`);
}
