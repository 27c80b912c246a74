#!/usr/bin/env node
// attnx: docs/bounds.md's "How close to optimal is each construction" tables (SPEC §9), computed by the
// native CLI (build/native/attnx), never typed by hand. Paper preset: random k = 2, uniform
// weights, eps = 1, tau = 0.1, seed 1.
//   jl:     attnx sweep (step 16, dmax 4096): median d_min, and at each trial's d_min its logit
//           scale Lambda and largest |logit|; the floors at their medians (SPEC §9.2 and the tighter
//           d_logit of core/bounds/bounds.cpp).
//   lp:     attnx sweep --construction lp --step 1 --dmax 256, the same.
//   moment: attnx construct --construction moment for seeds 1..T: D = 2m and the bounds of its
//           float32 X (which fails SPEC §2 in float32 at these L: its floors bind no X that passes).
//   bits:   attnx bounds: SPEC §9.3's floors on D w, and moment's D w (w = bits(X) + 1 + exponent bits).
// Every trial that reached is checked against its floors (d >= the floor at its own Lambda and
// max |Z| with n = L, which is at least its own n's floor); a violation stops the script.
//   node scripts/bounds-table.mjs [--Ls 64,128,...,4096] [--trials 10] [--lp-trials-from 2048:5]
//                                 [--write docs/bounds.md]   (between its bounds-table markers)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../build/native/attnx', import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const Ls = arg('Ls', '64,128,256,512,1024,2048,4096').split(',').map(Number);
const trials = Number(arg('trials', '10'));
// lp's search at large L takes seconds per trial on a shared 2-core machine: fewer trials there.
const [lpFrom, lpTrials] = arg('lp-trials-from', '2048:5').split(':').map(Number);

const text = (...a) => execFileSync(CLI, a, { encoding: 'utf8', maxBuffer: 1 << 28 });
const run = (...a) => JSON.parse(text(...a));
const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x, digits = 3) => {
  if (x === null || x === undefined) return '—';
  if (x !== 0 && (Math.abs(x) >= 1e5 || Math.abs(x) < 1e-2)) return x.toExponential(2).replace('e+', 'e');
  return Number(x.toPrecision(digits)).toString();
};

// The packing floor for n = L at `scale` (attnx bounds --scale): at least the floor at a trial's own n.
const floorAt = (L, scale) => run('bounds', '--L', String(L), '--k', '2', '--tau', '0.1', '--scale', String(scale)).points[0].d_lambda;

function checkTrials(name, L, dMins, scales, zs) {
  dMins.forEach((d, t) => {
    if (d === null) return;
    for (const s of [scales[t], zs[t]]) {
      const f = floorAt(L, s);
      if (!(d >= f)) throw new Error(`${name} L=${L} trial ${t}: d_min ${d} is below its floor ${f} (scale ${s})`);
    }
  });
}

// Per L: { d, reached, trials, scale, dLambda, ratio, z, dLogit, ratioLogit } of a sweep.
function sweepRows(name, Ls, T, extra) {
  if (Ls.length === 0) return [];
  const doc = run('sweep', '--Ls', Ls.join(','), '--trials', String(T), '--seed', '1', ...extra);
  return doc.points.map((p) => {
    checkTrials(name, p.L, p.d_mins, p.logit_scales, p.max_abs_logits);
    return {
      L: p.L, name, d: p.median, reached: p.d_mins.filter((d) => d !== null).length, trials: T,
      scale: p.logit_scale, dLambda: p.d_lambda, ratio: p.ratio, z: p.max_abs_logit, dLogit: p.d_logit, ratioLogit: p.ratio_logit,
    };
  });
}

function momentRow(L, T) {
  const rs = [];
  for (let s = 1; s <= T; s++) rs.push(run('construct', '--construction', 'moment', '--L', String(L), '--k', '2', '--seed', String(s)));
  const b = (k) => median(rs.map((r) => r.bounds[k]));
  const D = median(rs.map((r) => r.params.d));
  const ws = rs.map((r) => r.bounds.bits_per_number);  // null: bits(X) not reached (> 53)
  const w = median(ws);
  return {
    L, name: 'moment', d: D, trials: T, fp32: rs.filter((r) => r.precision.fp32).length, fp64: rs.filter((r) => r.precision.fp64).length,
    scale: b('logit_scale'), dLambda: b('d_lambda'), ratio: b('ratio'), z: b('max_abs_logit'), dLogit: b('d_logit'), ratioLogit: b('ratio_logit'),
    dw: w === null ? null : D * w, wReached: ws.filter((x) => x !== null).length,
  };
}

// --write FILE: the tables replace what stands between FILE's two markers (checked before any
// computation); without it they go to stdout.
const target = arg('write', null);
const START = '<!-- bounds-table: start -->', END = '<!-- bounds-table: end -->';
if (target !== null) {
  const doc = readFileSync(target, 'utf8');
  if (doc.indexOf(START) < 0 || doc.indexOf(END) < doc.indexOf(START)) throw new Error(`${target} has no ${START} … ${END} section`);
}

const small = Ls.filter((L) => L < lpFrom), large = Ls.filter((L) => L >= lpFrom);
const jl = sweepRows('jl', Ls, trials, []);
const lp = [...sweepRows('lp', small, trials, ['--construction', 'lp', '--step', '1', '--dmax', '256']),
  ...sweepRows('lp', large, lpTrials, ['--construction', 'lp', '--step', '1', '--dmax', '256'])];
const moment = Ls.map((L) => momentRow(L, trials));
const floors = run('bounds', '--Ls', Ls.join(','), '--k', '2', '--tau', '0.1').points;

const out = [];
out.push('| L | construction | d (median d_min; moment: D) | median Λ | D_Λ | d / D_Λ | median max\\|Z\\| | floor at max\\|Z\\| | d / that floor |');
out.push('|---|---|---|---|---|---|---|---|---|');
for (const L of Ls) {
  for (const r of [jl, lp, moment].map((rows) => rows.find((x) => x.L === L))) {
    const note = r.name === 'moment' ? ` (fp32 ${r.fp32}/${r.trials}, fp64 ${r.fp64}/${r.trials})`
      : r.trials !== trials || r.reached < r.trials ? ` (${r.reached}/${r.trials} reached)` : '';
    out.push(`| ${L} | ${r.name}${note} | ${fmt(r.d, 4)} | ${fmt(r.scale)} | ${fmt(r.dLambda)} | ${fmt(r.ratio)} | ${fmt(r.z)} | ${fmt(r.dLogit)} | ${fmt(r.ratioLogit)} |`);
  }
}
out.push('');
out.push('| L | fixed keys (jl, lp): log2 C(L,2) | free keys: log2(L!)/(2L) | free keys, every 2-regular target | moment: D·w (median over the seeds whose bits(X) ≤ 53) |');
out.push('|---|---|---|---|---|');
for (const f of floors) {
  const m = moment.find((x) => x.L === f.L);
  out.push(`| ${f.L} | ${fmt(f.bits_fixed_keys, 4)} | ${fmt(f.bits_free_keys, 3)} | ${fmt(f.bits_free_keys_regular, 3)} | ${fmt(m.dw, 3)} (${m.wReached}/${m.trials}) |`);
}
out.push('');
out.push(`jl: ${trials} trials per L; lp: ${trials} trials below L = ${lpFrom}, ${lpTrials} from it; moment: seeds 1..${trials}. ` +
  'Every trial that reached was checked: d_min >= both floors.');

if (target === null) {
  console.log(out.join('\n'));
} else {
  const doc = readFileSync(target, 'utf8');
  writeFileSync(target, `${doc.slice(0, doc.indexOf(START) + START.length)}\n${out.join('\n')}\n${doc.slice(doc.indexOf(END))}`);
  console.log(`wrote the tables into ${target}`);
}
