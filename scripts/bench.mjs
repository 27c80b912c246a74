#!/usr/bin/env node
// attnx benchmark (npm run bench): seconds per minimal-d trial on the same inputs for
//   native portable (build/native, Eigen SSE2), native -march=native (build/native-march),
//   WebAssembly SIMD and WebAssembly scalar (web/wasm, run in this Node's V8),
// paper preset: random pattern, k = 2, uniform weights, eps = 1, tau = 0.1, step 16, dmax 4096.
// Trials t = 0..T-1 at each L use the seeds derived from (seed, L, t), as `attnx bench` and
// `attnx sweep` do, so every build searches the same targets and projections (the d_mins are
// checked to be identical). GFLOP/s = 2 * (Gram + check multiply-adds) / seconds.
//
//   node scripts/bench.mjs [--Ls 256,1024] [--trials 3] [--reps 3] [--seed 1] [--json] [--no-build]
// The builds are brought up to date first (scripts/build-native, --march, build-wasm) unless
// --no-build.
// Each measurement is repeated --reps times, interleaved across builds, and the fastest is kept
// (the machine may be busy).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { load } from '../web/lib/attnx.js';
import { loadTestBuild } from '../tests/node/test-build.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TARGET = 2.5;  // WASM SIMD within 2.5x of the -march=native build at L = 1024

function parseArgs(argv) {
  const o = { Ls: [256, 1024], trials: 3, reps: 3, seed: 1, json: false, build: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${a} needs a value`);
      return v;
    };
    const int = (name, v, lo, hi) => {
      if (!/^\d+$/.test(v) || Number(v) < lo || Number(v) > hi) fail(`${name} must be an integer from ${lo} to ${hi} (got "${v}")`);
      return Number(v);
    };
    if (a === '--Ls') {
      o.Ls = val().split(',').map((x) => int('--Ls', x, 2, 16384));
      for (let q = 1; q < o.Ls.length; q++) if (o.Ls[q] <= o.Ls[q - 1]) fail('--Ls must be strictly increasing');
    } else if (a === '--trials') o.trials = int('--trials', val(), 1, 1000);
    else if (a === '--reps') o.reps = int('--reps', val(), 1, 100);
    else if (a === '--seed') o.seed = int('--seed', val(), 0, Number.MAX_SAFE_INTEGER);
    else if (a === '--json') o.json = true;
    else if (a === '--no-build') o.build = false;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/bench.mjs [--Ls 256,1024] [--trials 3] [--reps 3] [--seed 1] [--json] [--no-build]');
      process.exit(0);
    } else fail(`unknown option ${a}`);
  }
  return o;
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

// Brings every build up to date with the sources (incremental: fast when nothing changed), so
// that all four run the same code. Build output goes to stderr.
function ensureBuilt() {
  for (const [cmd, args] of [['bash', ['scripts/build-native']], ['bash', ['scripts/build-native', '--march']], ['bash', ['scripts/build-wasm']]]) {
    try {
      execFileSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
    } catch {
      fail(`${cmd} ${args.join(' ')} failed`);
    }
  }
}

// One measurement of every L. Native: `attnx bench` (its own timer around each trial).
function measureNative(dir, o) {
  const out = JSON.parse(execFileSync(`${ROOT}${dir}/attnx`, ['bench', '--Ls', o.Ls.join(','), '--trials', String(o.trials),
    '--gemm-reps', '1', '--seed', String(o.seed)], { encoding: 'utf8' }));
  return {
    build: out.flavour,
    points: out.results.map((x) => ({ L: x.L, dMins: x.d_mins, seconds: x.seconds_per_trial, madds: x.madds_per_trial })),
  };
}

// WebAssembly: sweepPoint runs the same trials (same seeds) in one call.
function measureWasm(api, o) {
  return {
    build: api.flavour,
    points: o.Ls.map((L) => {
      const t0 = performance.now();
      const res = api.sweepPoint({ pattern: 'random', L, k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, step: 16, dmax: 4096,
        trials: o.trials, seed: o.seed });
      const seconds = (performance.now() - t0) / 1000;
      return { L, dMins: res.dMins, seconds: seconds / o.trials, madds: res.madds / o.trials };
    }),
  };
}

// The Gram kernel alone: one rank-256 update (the size min-d syncs in) of a 1024 x 1024 matrix.
// `hooks`: the test flavour of the module (tests/node/test-build.mjs), which has gramBench.
// And SPEC §9's logit scale Lambda over P's columns (jl_input_scale, what construct reads when it
// builds no X: the explorer at a large L) at L = 4096, d = 4096, k = 2: milliseconds, best of 5.
function kernelGflops(hooks) {
  const kL = 1024, kn = 256, flops = kL * (kL + 1) * kn;
  return {
    kernel: flops / hooks.gramBench(kL, kn, 20, 'kernel') / 1e9,
    eigen: flops / hooks.gramBench(kL, kn, 5, 'eigen') / 1e9,
    scaleMs: hooks.scaleBench(4096, 4096, 2, 5) * 1000,
  };
}

// Measurements are interleaved (rep by rep, build by build) and the fastest of each is kept, so
// that a busy machine slows every build alike.
async function benchAll(o) {
  const simdApi = await load({ flavour: 'simd' });
  const scalarApi = await load({ flavour: 'scalar' });
  // Untimed warm-up: V8 tiers the hot WebAssembly functions up to optimised code.
  for (const api of [simdApi, scalarApi]) api.sweepPoint({ L: o.Ls[o.Ls.length - 1], trials: 1, seed: o.seed + 1 });
  const sources = [
    () => measureNative('build/native-march', o),
    () => measureNative('build/native', o),
    () => measureWasm(simdApi, o),
    () => measureWasm(scalarApi, o),
  ];
  const best = sources.map(() => null);
  for (let r = 0; r < o.reps; r++) {
    sources.forEach((measure, b) => {
      const m = measure();
      if (!best[b]) best[b] = m;
      else m.points.forEach((p, q) => { if (p.seconds < best[b].points[q].seconds) best[b].points[q] = p; });
    });
  }
  best[2].kernelGflops = kernelGflops(await loadTestBuild('simd'));
  best[3].kernelGflops = kernelGflops(await loadTestBuild('scalar'));
  return best;
}

function pad(s, n, right = false) {
  s = String(s);
  return right ? s.padEnd(n) : s.padStart(n);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.build) ensureBuilt();
  const runs = await benchAll(o);

  // Same inputs everywhere: identical d_mins.
  for (const r of runs) {
    r.points.forEach((p, q) => {
      const ref = runs[0].points[q].dMins;
      if (JSON.stringify(p.dMins) !== JSON.stringify(ref)) {
        console.error(`bench: warning: ${r.build} L=${p.L} d_mins ${JSON.stringify(p.dMins)} differ from ${runs[0].build} ${JSON.stringify(ref)}`);
      }
    });
  }
  const march = runs[0], portable = runs[1], simd = runs[2];
  const rows = [];
  for (let q = 0; q < o.Ls.length; q++) {
    for (const r of runs) {
      const p = r.points[q];
      rows.push({
        L: p.L,
        build: r.build,
        dMins: p.dMins,
        secondsPerTrial: p.seconds,
        gflops: (2 * p.madds) / p.seconds / 1e9,
        vsMarch: p.seconds / march.points[q].seconds,
        vsPortable: p.seconds / portable.points[q].seconds,
      });
    }
  }
  const at1024 = o.Ls.indexOf(1024);
  const verdict = at1024 >= 0
    ? { L: 1024, ratio: simd.points[at1024].seconds / march.points[at1024].seconds, target: TARGET }
    : null;
  if (verdict) verdict.met = verdict.ratio <= TARGET;

  if (o.json) {
    console.log(JSON.stringify({ params: { pattern: 'random', k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, step: 16, dmax: 4096, ...o },
      node: process.version, rows, kernel: { simd: simd.kernelGflops, scalar: runs[3].kernelGflops }, verdict }, null, 2));
    return;
  }
  console.log(`attnx bench: paper preset (random, k = 2, uniform, eps = 1, tau = 0.1, step 16, dmax 4096), ` +
    `${o.trials} trials per L from seed ${o.seed}, fastest of ${o.reps}; WebAssembly in Node ${process.version}`);
  console.log('');
  console.log(`${pad('L', 6)}  ${pad('build', 16, true)} ${pad('d_min per trial', 20, true)} ${pad('s/trial', 9)} ${pad('GFLOP/s', 8)} ${pad('x march', 8)} ${pad('x portable', 10)}`);
  for (const r of rows) {
    console.log(`${pad(r.L, 6)}  ${pad(r.build, 16, true)} ${pad(r.dMins.map((d) => d ?? '-').join(','), 20, true)} ${pad(r.secondsPerTrial.toFixed(4), 9)} ` +
      `${pad(r.gflops.toFixed(1), 8)} ${pad(r.vsMarch.toFixed(2), 8)} ${pad(r.vsPortable.toFixed(2), 10)}`);
  }
  console.log('');
  console.log('x march / x portable: seconds per trial relative to the native -march=native / portable build (lower is faster).');
  console.log(`Gram kernel alone, one rank-256 update of 1024 x 1024 (GFLOP/s): wasm-simd128 kernel ${simd.kernelGflops.kernel.toFixed(1)}, ` +
    `Eigen in the same build ${simd.kernelGflops.eigen.toFixed(1)}; wasm-scalar kernel ${runs[3].kernelGflops.kernel.toFixed(1)}, Eigen ${runs[3].kernelGflops.eigen.toFixed(1)}.`);
  console.log(`Logit scale (SPEC §9) over 4096 x 4096 columns, k = 2 (ms): wasm-simd128 ${simd.kernelGflops.scaleMs.toFixed(1)}, ` +
    `wasm-scalar ${runs[3].kernelGflops.scaleMs.toFixed(1)}.`);
  if (verdict) {
    console.log(`Target: WASM SIMD within ${TARGET}x of native -march=native at L = 1024: ${verdict.ratio.toFixed(2)}x -> ${verdict.met ? 'met' : 'NOT met'}.`);
  }
}

main().catch((e) => {
  console.error(`bench: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
