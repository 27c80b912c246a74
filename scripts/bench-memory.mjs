#!/usr/bin/env node
// attnx memory benchmark (issue 27): the core's memory estimate of a run against the peak
// resident memory the run really reaches, over a grid of commands, constructions, L and d.
// The estimate is what the CLI refuses with at --max-bytes 1 MiB ("needs about N MiB"); the
// peak is /usr/bin/time's maximum resident set size of the same run without that limit (under
// `ulimit -v` so that a wrong estimate cannot take the machine's memory). The process's own
// memory (the RSS of `attnx --version`) is subtracted before the ratio: the estimates count what
// a run allocates. Wanted: every ratio estimate / (peak - base) within [0.8, 1.25].
// Not part of npm test (it takes minutes and depends on the machine).
//
// Usage: node scripts/bench-memory.mjs [--cli PATH] [--quick] [--limit-mib N] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

// The grid: [label, argv] per run (argv after the executable, without --max-bytes).
function grid(quick) {
  const runs = [];
  const add = (label, ...args) => runs.push([label, args]);
  const Ls = quick ? [1024, 2048] : [1024, 2048, 4096];
  for (const L of Ls) {
    for (const d of quick ? [64, 1024] : [64, 1024, 4096]) add('jl construct', 'construct', '--L', L, '--d', d);
    add('jl construct --precision', 'construct', '--L', L, '--d', 512, '--precision');
    for (const d of quick ? [1] : [1, 16]) add('lp construct', 'construct', '--construction', 'lp', '--L', L, '--d', d, '--threads', 1);
    add('moment construct', 'construct', '--construction', 'moment', '--L', L, '--k', 1);
    add('moment construct (window, m = 9)', 'construct', '--construction', 'moment', '--pattern', 'window', '--L', L, '--w', 4);
    add('jl mind', 'mind', '--L', L, '--dmax', 4096);
    add('jl mind orthogonal', 'mind', '--L', L, '--dmax', 4096, '--projection', 'orthogonal');
    // lp's search estimate is its peak when some d of the grid succeeds (X is then built and
    // evaluated at L x L): a grid that reaches it.
    add('lp mind', 'mind', '--construction', 'lp', '--L', L, '--step', 1, '--dmax', 64, '--threads', 1);
    add('jl sweep (1 thread)', 'sweep', '--Ls', L, '--trials', 1, '--threads', 1);
    add('moment sweep (1 thread)', 'sweep', '--construction', 'moment', '--Ls', L, '--trials', 1, '--threads', 1);
    add('lp sweep (1 thread)', 'sweep', '--construction', 'lp', '--Ls', L, '--trials', 1, '--threads', 1, '--step', 1, '--dmax', 64);
  }
  add('jl construct (window w = 200: 1.6M nonzeros)', 'construct', '--pattern', 'window', '--L', 4096, '--w', 200, '--d', 64);
  add('jl construct (bigbird)', 'construct', '--pattern', 'bigbird', '--L', 2048, '--w', 8, '--globals', 4, '--randoms', 8, '--d', 256);
  add('moment construct (window, m = 33)', 'construct', '--construction', 'moment', '--pattern', 'window', '--L', 2048, '--w', 16);
  add('lp construct (L = 512, d = 128)', 'construct', '--construction', 'lp', '--L', 512, '--d', 128, '--threads', 1);
  add('lp construct (small L, large d)', 'construct', '--construction', 'lp', '--L', 256, '--d', 128, '--threads', 1);
  add('jl construct (small L, large d)', 'construct', '--L', 256, '--d', 16384);
  return runs;
}

// Runs argv under an address-space limit; returns { status, peakKiB, stderr }.
function measure(cli, argv, limitMiB) {
  const script = 'ulimit -v "$1" || exit 125; shift; exec /usr/bin/time -f "%M" "$@"';
  const r = spawnSync('/bin/sh', ['-c', script, 'sh', String(limitMiB * 1024), cli, ...argv.map(String)], {
    encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines = r.stderr.trim().split('\n');
  return { status: r.status, peakKiB: Number(lines[lines.length - 1]), stderr: r.stderr };
}

// The CLI's estimate in MiB: its refusal at the smallest budget.
function estimateMiB(cli, argv) {
  const r = spawnSync(cli, [...argv.map(String), '--max-bytes', '1048576'], { encoding: 'utf8' });
  const m = /needs about (\d+) MiB/.exec(r.stderr);
  return m ? Number(m[1]) : null;
}

function parseOptions(argv) {
  const o = { cli: resolve(process.env.ATTNX_CLI || join(ROOT, 'build/native/attnx')), quick: false, limitMiB: 4000, json: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cli') o.cli = resolve(argv[++i]);
    else if (argv[i] === '--quick') o.quick = true;
    else if (argv[i] === '--json') o.json = true;
    else if (argv[i] === '--limit-mib') o.limitMiB = Number(argv[++i]);
    else throw new Error(`unknown option ${argv[i]} (see the header of scripts/bench-memory.mjs)`);
  }
  return o;
}

function main() {
  const o = parseOptions(process.argv.slice(2));
  if (!existsSync(o.cli)) {
    console.error(`bench-memory: ${o.cli} is not built (bash scripts/build-native)`);
    return 2;
  }
  const base = measure(o.cli, ['--version'], o.limitMiB).peakKiB / 1024;
  const rows = [];
  console.log(`attnx memory estimates against peak RSS (base process ${base.toFixed(1)} MiB subtracted)`);
  console.log('estimate  peak-base  ratio  run');
  for (const [label, argv] of grid(o.quick)) {
    const est = estimateMiB(o.cli, argv);
    const run = measure(o.cli, argv, o.limitMiB);
    const peak = run.peakKiB / 1024 - base;
    const ratio = est === null || run.status !== 0 ? null : est / peak;
    rows.push({ label, argv: argv.join(' '), estimateMiB: est, peakMiB: +peak.toFixed(1), ratio, status: run.status });
    const shown = ratio === null ? `  (exit ${run.status}${est === null ? ', no estimate' : ''})` : ratio.toFixed(2).padStart(5);
    console.log(`${String(est ?? '-').padStart(8)}  ${peak.toFixed(1).padStart(9)}  ${shown}  ${label}: ${argv.join(' ')}`);
  }
  const ratios = rows.map((r) => r.ratio).filter((r) => r !== null);
  const out = ratios.filter((r) => r < 0.8 || r > 1.25).length;
  console.log(`ratios: min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}; ${out} of ${ratios.length} outside [0.8, 1.25]`);
  if (o.json) console.log(JSON.stringify({ baseMiB: base, rows }, null, 1));
  return 0;
}

process.exitCode = main();
