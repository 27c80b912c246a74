#!/usr/bin/env node
// attnx: time and peak memory of `attnx import` on large heads (issue 47, items 2 and 3). A
// measurement, not a test: it prints numbers and never fails on them.
//
//   node scripts/bench-import.mjs [--cli PATH] [--only name,...] [--json]
//
// Cases (files written once to test-output/bench-import/):
//   json-onehot      a 33 MB one-hot [4096][4096] JSON head (row i is 1 at column i)
//   json-rows        a 12 MB JSON of 3,000,000 rows [1] (not square: refused by its shape)
//   npy-4096         one L = 4096 head as float32 .npy (64 MB): a causal local window (+3 on the
//                    last four keys) under noise, row-softmaxed
//   npy-4096-all     the same head surveyed: `attnx import FILE --all` (jl and lp minimal d)
// For each: wall seconds, CPU seconds and peak resident memory (from /usr/bin/time -v when it is
// installed, else wall seconds only), and the exit status with the first line of stderr.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'test-output/bench-import');
const L = 4096;

function parseArgs(argv) {
  const o = { cli: join(ROOT, 'build/native/attnx'), only: null, json: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cli' && argv[i + 1]) o.cli = resolve(argv[++i]);
    else if (argv[i] === '--only' && argv[i + 1]) o.only = argv[++i].split(',');
    else if (argv[i] === '--json') o.json = true;
    else {
      console.error(`bench-import: unknown or incomplete option "${argv[i]}" (allowed: --cli PATH, --only a,b, --json)`);
      process.exit(2);
    }
  }
  return o;
}

// Writes `path` once, chunk by chunk from write(fd).
function once(path, write) {
  if (existsSync(path)) return path;
  const fd = openSync(`${path}.part`, 'w');
  write((text) => writeSync(fd, text));
  closeSync(fd);
  spawnSync('mv', [`${path}.part`, path]);
  return path;
}

function oneHot(put) {
  put('[');
  const row = new Array(L).fill('0');
  for (let i = 0; i < L; i++) {
    row[i] = '1';
    put(`${i ? ',' : ''}[${row.join(',')}]`);
    row[i] = '0';
  }
  put(']\n');
}

function rows(put) {
  put('[');
  for (let i = 0; i < 3000000; i += 100000) put(`${i ? ',' : ''}${new Array(100000).fill('[1]').join(',')}`);
  put(']\n');
}

// The .npy header of a float32 [L, L] array, padded to 64 bytes as NumPy writes it.
function npyHeader() {
  let dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${L}, ${L}), }`;
  dict += `${' '.repeat((64 - ((10 + dict.length + 1) % 64)) % 64)}\n`;
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(dict.length, 8);
  return Buffer.concat([head, Buffer.from(dict, 'latin1')]);
}

// Row i of the local-window head (a fixed 32-bit generator: the same file on every machine).
function windowRow(i, out) {
  let a = (2654435761 + i) >>> 0;
  const rnd = () => { a = (Math.imul(a, 1664525) + 1013904223) >>> 0; return a / 4294967296; };
  let m = -Infinity, sum = 0;
  for (let j = 0; j < L; j++) {
    out[j] = j > i ? -Infinity : (j >= i - 3 ? 3 : 0) + 0.6 * (rnd() - 0.5);
    m = Math.max(m, out[j]);
  }
  for (let j = 0; j < L; j++) sum += (out[j] = out[j] === -Infinity ? 0 : Math.exp(out[j] - m));
  for (let j = 0; j < L; j++) out[j] /= sum;
}

function windowHead(put) {
  put(npyHeader());
  const row = new Float64Array(L), f = new Float32Array(L);
  for (let i = 0; i < L; i++) {
    windowRow(i, row);
    f.set(row);
    put(Buffer.from(f.buffer));
  }
}

// Runs the CLI on args; { wall_s, cpu_s, peak_rss_mb, status, said }.
function run(cli, args) {
  const timed = existsSync('/usr/bin/time');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(timed ? '/usr/bin/time' : cli, timed ? ['-v', cli, ...args] : args, { maxBuffer: 1 << 30 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const err = r.stderr.toString();
  const num = (re) => Number((re.exec(err) || [])[1]);
  return {
    wall_s: +wall.toFixed(2),
    cpu_s: timed ? +(num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/)).toFixed(2) : null,
    peak_rss_mb: timed ? Math.round(num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024) : null,
    status: r.status,
    said: (err.split('\n').find((l) => l.startsWith('attnx:')) || '').slice(0, 140),
  };
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(o.cli)) {
    console.error(`bench-import: ${o.cli} is not built (bash scripts/build-native)`);
    process.exit(2);
  }
  mkdirSync(OUT, { recursive: true });
  const file = {
    onehot: () => once(join(OUT, 'onehot-4096.json'), oneHot),
    rows: () => once(join(OUT, 'rows-3M.json'), rows),
    head: () => once(join(OUT, 'window-4096.npy'), windowHead),
  };
  const cases = {
    'json-onehot': () => [file.onehot()],
    'json-rows': () => [file.rows()],
    'npy-4096': () => [file.head()],
    'npy-4096-all': () => [file.head(), '--all'],
  };
  const results = {};
  for (const [name, args] of Object.entries(cases)) {
    if (o.only && !o.only.includes(name)) continue;
    const r = run(o.cli, ['import', ...args()]);
    results[name] = r;
    if (!o.json) console.log(`${name.padEnd(13)} ${String(r.wall_s).padStart(7)} s wall, ${r.cpu_s ?? '?'} s CPU, peak ${r.peak_rss_mb ?? '?'} MB, exit ${r.status}${r.said ? ` | ${r.said}` : ''}`);
  }
  if (o.json) console.log(JSON.stringify({ cli: o.cli, results }, null, 2));
}

main();
