#!/usr/bin/env node
// attnx CLI fuzzer (issue 9): runs build/native/attnx on seeded, reproducible cases and counts
// per surface how many were tried, ok, refused and BAD (see scripts/fuzz-cli/run.mjs for the
// classification). Surfaces:
//   args          argument vectors: valid-ish flags with boundary and hostile values, unknown,
//                 repeated and value-less flags, huge numbers, NaN/inf text, control bytes
//   pattern-file  --pattern-file texts: truncated/malformed JSON, huge and tiny numbers, deep
//                 nesting, BOM, NUL, control bytes, duplicate keys, CSV variants, many entries
//   paths         --pattern-file and --export paths that are no plain file: directories,
//                 /dev/zero, /dev/full, missing directories, names with control bytes or bytes
//                 that are not UTF-8, names too long
//   attention     `attnx import` files (.npy, .npz, JSON): valid ones, truncated and corrupted
//                 ones, huge declared shapes, pickles, deflate bombs, wrong CRCs, JSON read
//                 straight into its values (see scripts/fuzz-cli/attention.mjs); and paths that are
//                 no regular file (/dev/zero, /dev/urandom, a FIFO with no writer, a directory),
//                 with or without --max-bytes; the memory limit catches reads past the budget, the
//                 time limit an open that blocks
//   merge         `attnx merge` of real part files (small sweeps made once per run) mutated by
//                 value and by bytes: each mutation expects a refusal naming the file and the
//                 field, or (same meaning, untouched parts) the unsharded sweep's output byte for
//                 byte (see scripts/fuzz-cli/merge.mjs)
//   frontier      `attnx frontier` vectors (L <= 32, trials <= 2) with hostile --scales, --boxes,
//                 --constructions, --shard, --format, --trials, --threads, --L and unknown flags: a
//                 refusal names a flag made hostile, a success is what its flags asked (see
//                 scripts/fuzz-cli/frontier.mjs); the args surface also draws opt with its --scale
//   frontier-merge `attnx merge` of real frontier parts (tiny frontiers made once per run),
//                 mutated as the merge surface's sweep parts (scripts/fuzz-cli/merge-frontier.mjs)
// Case i is a pure function of (seed, i): `--only i` replays it and prints its details.
//
// Usage: node scripts/fuzz-cli.mjs [--seed N] [--cases N] [--time-limit S] [--mem-limit MiB]
//                                  [--cli PATH] [--only I] [--show N] [--surfaces s1,s2]
// --surfaces runs only the cases of those surfaces among cases [0, N) (the same case numbers).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync, existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeRng } from './fuzz-cli/rng.mjs';
import { genArgs, BUDGETS } from './fuzz-cli/args.mjs';
import { genPatternText, hostilePath } from './fuzz-cli/files.mjs';
import { genAttentionFile } from './fuzz-cli/attention.mjs';
import { runCase, classify, dirtyText, expectedOutput } from './fuzz-cli/run.mjs';
import { mergeCase, checkMerge } from './fuzz-cli/merge.mjs';
import { genFrontierArgs, checkFrontier, checkOptScale } from './fuzz-cli/frontier.mjs';
import { frontierMergeCase } from './fuzz-cli/merge-frontier.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DEFAULT_CLI = resolve(process.env.ATTNX_CLI || join(ROOT, 'build/native/attnx'));
export const SURFACES = ['args', 'pattern-file', 'paths', 'attention', 'merge', 'frontier', 'frontier-merge'];

// The case's argument vector (after the executable) and the files it needs, in `dir`. The merge
// surface mutates part files made by `cli` (once per process).
const pickSurface = (rng) => rng.weighted([[50, 'args'], [35, 'pattern-file'], [15, 'paths'], [20, 'attention'], [20, 'merge'], [20, 'frontier'], [15, 'frontier-merge']]);
export const surfaceOf = (seed, index) => pickSurface(makeRng(seed, index));

export function makeCase(seed, index, dir, cli = DEFAULT_CLI) {
  const rng = makeRng(seed, index);
  const surface = pickSurface(rng);
  if (surface === 'merge') return { surface, ...mergeCase(rng, dir, cli) };
  if (surface === 'frontier-merge') return { surface, ...frontierMergeCase(rng, dir, cli) };
  if (surface === 'frontier') return { surface, ...genFrontierArgs(rng) };
  const budget = ['--max-bytes', rng.pick(BUDGETS)];
  if (surface === 'attention' && rng.chance(0.1)) return { surface, ...importPath(rng, dir, budget) };
  if (surface === 'attention') return { surface, args: importArgs(rng, dir, budget) };
  const exportPath = (r) => (r.chance(0.8) ? join(dir, 'out.json') : hostilePath(r, dir, 'write'));
  if (surface === 'args') return { surface, ...genArgs(rng, { exportPath }) };
  const cmd = rng.weighted([[3, 'construct'], [2, 'mind']]);
  const small = cmd === 'construct' ? ['--d', rng.pick(['8', '64'])] : ['--dmax', rng.pick(['64', '512']), '--step', '16'];
  if (surface === 'paths' && rng.chance(0.4)) {
    return { surface, args: ['construct', '--L', '16', '--d', '8', '--export', hostilePath(rng, dir, 'write'), ...budget] };
  }
  let file;
  if (surface === 'paths') file = hostilePath(rng, dir, 'read');
  else {
    file = join(dir, rng.pick(['p.json', 'p.csv', 'p.txt']));
    writeFileSync(file, genPatternText(rng));
  }
  const args = [cmd, '--pattern', 'custom', '--pattern-file', file, ...small, ...budget];
  if (rng.chance(0.25)) args.push('--L', rng.pick(['2', '3', '5', '16', '64', '16384', '1', 'x']));
  if (cmd === 'construct' && rng.chance(0.2)) args.push('--export', join(dir, 'out.json'));
  return { surface, args };
}

// `attnx import PATH` of what is no regular file, with or without a budget (the default's is the
// core's). fifo: a FIFO the runner makes at that path just before the run (not makeCase: reading
// the case's files, as the determinism test does, would block on it).
function importPath(rng, dir, budget) {
  const fifo = join(dir, 'a.fifo');
  const path = rng.pick(['/dev/zero', '/dev/urandom', '/dev/full', '/dev/null', '/proc/self/maps', dir, fifo, fifo]);
  const args = ['import', path, ...(rng.chance(0.5) ? budget : []), ...(rng.chance(0.3) ? ['--all'] : [])];
  return path === fifo ? { args, fifo } : { args };
}

// `attnx import FILE` with a generated attention file and a few of its flags.
function importArgs(rng, dir, budget) {
  const file = join(dir, rng.pick(['a.npy', 'a.npz', 'a.json']));
  writeFileSync(file, genAttentionFile(rng));
  const args = ['import', file, ...budget];
  if (rng.chance(0.3)) args.push('--all', ...(rng.chance(0.3) ? ['--format', 'csv'] : []));
  else if (rng.chance(0.4)) args.push('--head', rng.pick(['0', '1', '2', '5']), ...(rng.chance(0.3) ? ['--layer', rng.pick(['0', '1'])] : []));
  if (rng.chance(0.5)) args.push('--rule', rng.pick(['topk:1', 'topk:2', 'topk:9', 'threshold:0.2', 'mass:0.9', 'mass:1', 'topk:0', 'mass:2', 'x']));
  if (rng.chance(0.2)) args.push('--softmax');
  if (rng.chance(0.2) && !args.includes('--all')) args.push('--out', join(dir, 'out.json'));
  return args;
}

// A successful --export into the case directory must be a clean JSON export file.
function checkExport(args, dir) {
  const i = args.indexOf('--export');
  const path = join(dir, 'out.json');
  if (i < 0 || args[i + 1] !== path || expectedOutput(args) === 'text') return null;  // help
  if (!existsSync(path) || statSync(path).size > 64 << 20) return 'export file missing or huge';
  const text = readFileSync(path);
  const dirty = dirtyText(text);
  if (dirty) return `export file has ${dirty}`;
  try {
    if (JSON.parse(text.toString('utf8')).format !== 'attnx-construct-export/2') return 'export file without its format';
  } catch (e) {
    return `export file is not JSON: ${e.message}`;
  }
  return null;
}

export function runOne({ seed, index, cli, timeLimit, memLimitMiB, root }) {
  const dir = join(root, `case-${index}`);
  mkdirSync(dir, { recursive: true });
  try {
    const c = makeCase(seed, index, dir, cli);
    if (c.fifo && spawnSync('mkfifo', [c.fifo]).status !== 0) throw new Error(`fuzz-cli: cannot make the FIFO ${c.fifo}`);
    const r = runCase(cli, c.args, { cwd: dir, timeLimit, memLimitMiB });
    let [outcome, reason] = classify(r, c.args);
    if (/merge$/.test(c.surface) && outcome !== 'BAD') [outcome, reason] = checkMerge(c, r, [outcome, reason]);
    if (c.surface === 'frontier' && outcome !== 'BAD') [outcome, reason] = checkFrontier(c, r, [outcome, reason]);
    if (c.surface === 'args' && outcome !== 'BAD') [outcome, reason] = checkOptScale(c.args, r, [outcome, reason]);
    if (outcome === 'ok' && r.status === 0) {
      const e = checkExport(c.args, dir);
      if (e) [outcome, reason] = ['BAD', e];
    }
    return { index, surface: c.surface, args: c.args, outcome, reason, run: r, what: c.what, expect: c.expect };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Runs cases [0, cases) and returns per-surface counts and the BAD cases.
// surfaces: the surfaces to run (the other cases' indices are skipped), or null for all.
export function runFuzz({ seed = 1, cases = 300, timeLimit = 20, memLimitMiB = 1024, cli = DEFAULT_CLI, onCase, surfaces = null } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'attnx-fuzz-cli-'));
  const stats = Object.fromEntries(SURFACES.map((s) => [s, { tried: 0, ok: 0, refused: 0, bad: 0 }]));
  const bad = [];
  try {
    for (let index = 0; index < cases; index++) {
      if (surfaces && !surfaces.includes(surfaceOf(seed, index))) continue;
      const res = runOne({ seed, index, cli, timeLimit, memLimitMiB, root });
      const s = stats[res.surface];
      s.tried++;
      s[res.outcome === 'BAD' ? 'bad' : res.outcome]++;
      if (res.outcome === 'BAD') bad.push({ index, surface: res.surface, reason: res.reason, args: res.args });
      onCase?.(res);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { seed, cases, stats, bad };
}

const shown = (a) => (Buffer.isBuffer(a) ? `<bytes ${a.toString('hex')}>` : JSON.stringify(a.length > 80 ? `${a.slice(0, 77)}...` : a));

export function report({ seed, cases, stats, bad }, show = 5) {
  const lines = [`attnx CLI fuzz: seed ${seed}, ${cases} cases`];
  for (const [s, c] of Object.entries(stats))
    lines.push(`  ${s.padEnd(14)} tried ${String(c.tried).padStart(5)}  ok ${String(c.ok).padStart(5)}  refused ${String(c.refused).padStart(5)}  BAD ${c.bad}`);
  lines.push(`  BAD total: ${bad.length}`);
  for (const b of bad.slice(0, show)) {
    lines.push(`  BAD case ${b.index} (${b.surface}): ${b.reason}`);
    lines.push(`    replay: node scripts/fuzz-cli.mjs --seed ${seed} --only ${b.index}`);
    lines.push(`    argv: ${b.args.map(shown).join(' ')}`);
  }
  return lines.join('\n');
}

function parseOptions(argv) {
  const o = { seed: 1, cases: 5000, timeLimit: 20, memLimitMiB: 1024, cli: DEFAULT_CLI, only: null, show: 5, surfaces: null };
  const names = { '--seed': 'seed', '--cases': 'cases', '--time-limit': 'timeLimit', '--mem-limit': 'memLimitMiB', '--cli': 'cli', '--only': 'only', '--show': 'show', '--surfaces': 'surfaces' };
  for (let i = 0; i < argv.length; i += 2) {
    const k = names[argv[i]];
    if (!k || i + 1 >= argv.length) throw new Error(`unknown option or missing value: ${argv[i]} (see the header of scripts/fuzz-cli.mjs)`);
    if (k === 'surfaces') {
      o.surfaces = argv[i + 1].split(',');
      for (const s of o.surfaces) if (!SURFACES.includes(s)) throw new Error(`--surfaces: "${s}" is not a surface (${SURFACES.join(', ')})`);
      continue;
    }
    o[k] = k === 'cli' ? resolve(argv[i + 1]) : Number(argv[i + 1]);
    if (k !== 'cli' && !Number.isFinite(o[k])) throw new Error(`${argv[i]} needs a number`);
  }
  return o;
}

function replay(o) {
  const root = mkdtempSync(join(tmpdir(), 'attnx-fuzz-cli-'));
  try {
    const r = runOne({ ...o, index: o.only, root });
    console.log(`case ${r.index} (${r.surface}): ${r.outcome}${r.reason ? ` - ${r.reason}` : ''}`);
    console.log(`argv: ${r.args.map(shown).join(' ')}`);
    if (r.what) console.log(`mutation: ${r.what}; expected: ${{ refuse: 'refused (exit 2) naming the file and the field', same: 'the unsharded sweep\'s output, or a refusal naming the file', ok: 'the unsharded sweep\'s output' }[r.expect]}`);
    console.log(`exit: ${r.run.status} signal: ${r.run.signal}`);
    console.log(`stderr: ${JSON.stringify(r.run.err.toString('latin1').slice(0, 2000))}`);
    console.log(`stdout: ${JSON.stringify(r.run.out.toString('latin1').slice(0, 2000))}`);
    return r.outcome === 'BAD' ? 1 : 0;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function main() {
  let o;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    console.error(`fuzz-cli: ${e.message}`);
    return 2;
  }
  if (!existsSync(o.cli)) {
    console.error(`fuzz-cli: ${o.cli} is not built (run npm run build, or give --cli PATH)`);
    return 2;
  }
  if (o.only !== null) return replay(o);
  let done = 0;
  const res = runFuzz({ ...o, onCase: () => { if (++done % 500 === 0) console.error(`fuzz-cli: ${done}/${o.cases}`); } });
  console.log(report(res, o.show));
  return res.bad.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
