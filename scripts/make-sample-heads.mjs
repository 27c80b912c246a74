#!/usr/bin/env node
// attnx: writes examples/heads.npy, the sample model attention of issue 24: four causal heads
// of a small toy, shape [4, 64, 64], float32, each row the softmax of structured scores:
//   head 0  previous token  (score +6 on j = i - 1; row 0 can only attend to itself)
//   head 1  sink            (score +5 on column 0)
//   head 2  local window    (score +3 on i - 3 <= j <= i)
//   head 3  random          (scores with a spread of about 1.2, no structure)
// plus noise on every score (spread about 0.6, heads 0-2). Deterministic: a 32-bit generator
// (mulberry32, seed 24) and Irwin-Hall noise (a sum of four uniforms, no logarithms), softmax in
// float64 with Math.exp (V8's own port of fdlibm, the same bits on every machine), rounded to
// float32. No Python needed; tests/node/sample-heads.test.mjs checks the committed file is what
// this script writes.
//
//   node scripts/make-sample-heads.mjs [OUT]     (default examples/heads.npy)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const H = 4, L = 64;

// mulberry32: a small deterministic 32-bit generator, uniform in [0, 1).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Irwin-Hall: four uniforms summed and centred, variance 1/3 (spread about 0.58).
function noise(next) {
  return next() + next() + next() + next() - 2;
}

// The score of query i and key j in head h (before the causal mask).
function score(h, i, j, next) {
  if (h === 3) return 2 * noise(next);
  let s = noise(next);
  if (h === 0 && j === i - 1) s += 6;
  if (h === 1 && j === 0) s += 5;
  if (h === 2 && j >= i - 3) s += 3;
  return s;
}

// The [H, L, L] probabilities, row by row: causal softmax of the scores.
export function sampleHeads() {
  const next = generator(24);
  const out = new Float32Array(H * L * L);
  const row = new Float64Array(L);
  for (let h = 0; h < H; ++h) {
    for (let i = 0; i < L; ++i) {
      let max = -Infinity;
      for (let j = 0; j <= i; ++j) max = Math.max(max, (row[j] = score(h, i, j, next)));
      let sum = 0;
      for (let j = 0; j <= i; ++j) sum += (row[j] = Math.exp(row[j] - max));
      for (let j = 0; j < L; ++j) out[(h * L + i) * L + j] = j <= i ? row[j] / sum : 0;
    }
  }
  return out;
}

// A .npy file (format 1.0) of a C-order float32 array.
export function npyBytes(values, shape) {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  const unpadded = 10 + dict.length + 1;
  const header = dict + ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const bytes = new Uint8Array(10 + header.length + values.byteLength);
  bytes.set([0x93, ...Buffer.from('NUMPY'), 1, 0, header.length & 0xff, header.length >> 8]);
  bytes.set(Buffer.from(header, 'latin1'), 10);
  const data = new DataView(bytes.buffer, 10 + header.length);
  values.forEach((v, n) => data.setFloat32(4 * n, v, true));
  return bytes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] || fileURLToPath(new URL('../examples/heads.npy', import.meta.url));
  writeFileSync(out, npyBytes(sampleHeads(), [H, L, L]));
  console.log(`wrote ${out}: [${H}, ${L}, ${L}] float32`);
}
