#!/usr/bin/env node
// attnx JS API benchmark (npm run bench:api): milliseconds per call of web/lib/attnx.js in Node,
// the module's conversions included, on calls that move large arrays across the boundary:
//   construct   L = 1024, d = 512 (a new seed each time), with the explorer's views (M, logits,
//               X, rows, pooled images)
//   again       the same call again (the Gram ladder holds G: mostly evaluation and conversion)
//   custom      estimateBytes of a custom pattern of 131072 triplets in typed arrays (input only)
//   parse       parsePattern of the text of that pattern (typed arrays out)
// Each call is repeated --reps times and the fastest kept (the machine may be busy). With
// --baseline <dir> (a copy of an older web/ folder: <dir>/lib/attnx.js and <dir>/wasm/), both
// builds run in this process, alternately, and the ratio this / baseline is printed: a ratio in
// one run, on one machine load. Not a test: it prints a table and exits 0.
//
//   node scripts/bench-api.mjs [--reps 21] [--baseline DIR]
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

import { load } from '../web/lib/attnx.js';

function parseArgs(argv) {
  const o = { reps: 21, baseline: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--reps' && /^\d+$/.test(argv[i + 1] ?? '')) o.reps = Math.max(1, Number(argv[++i]));
    else if (argv[i] === '--baseline' && argv[i + 1]) o.baseline = resolve(argv[++i]);
    else {
      console.error('usage: node scripts/bench-api.mjs [--reps 21] [--baseline DIR]');
      process.exit(2);
    }
  }
  return o;
}

// A custom pattern of L = 4096 rows with 32 entries each, as typed arrays and as text.
function customPattern() {
  const L = 4096, k = 32, n = L * k;
  const rows = new Int32Array(n), cols = new Int32Array(n), vals = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    rows[t] = Math.floor(t / k);
    cols[t] = (rows[t] * 7 + (t % k) * 127) % L;
    vals[t] = 1 + (t % 5);
  }
  const text = Array.from(rows, (r, t) => `${r},${cols[t]},${vals[t]}`).join('\n');
  return { L, triplets: { rows, cols, vals }, text };
}

const CASES = (p) => ({
  construct: (api, r) => api.construct({ L: 1024, d: 512, seed: 100 + r, views: { size: 512, xRows: 512, xCols: 256 } }),
  again: (api) => api.construct({ L: 1024, d: 512, seed: 7, views: { size: 512, xRows: 512, xCols: 256 } }),
  custom: (api) => api.estimateBytes({ pattern: 'custom', L: p.L, triplets: p.triplets }),
  parse: (api) => api.parsePattern(p.text, p.L),
});


const o = parseArgs(process.argv.slice(2));
const builds = { this: await load({ flavour: 'simd' }) };
if (o.baseline) {
  const { load: loadOld } = await import(pathToFileURL(`${o.baseline}/lib/attnx.js`).href);
  builds.baseline = await loadOld({ flavour: 'simd' });
}
const cases = CASES(customPattern());
const rows = [];
for (const [name, fn] of Object.entries(cases)) {
  const times = Object.fromEntries(Object.keys(builds).map((b) => [b, []]));
  for (const api of Object.values(builds)) fn(api, -1);  // warm up
  for (let r = 0; r < o.reps; r++) {
    for (const [b, api] of Object.entries(builds)) {
      const t0 = performance.now();
      fn(api, r);
      times[b].push(performance.now() - t0);
    }
  }
  const row = { case: name };
  for (const b of Object.keys(builds)) row[`${b} ms`] = Math.min(...times[b]).toFixed(2);
  if (o.baseline) row.ratio = (Math.min(...times.this) / Math.min(...times.baseline)).toFixed(3);
  rows.push(row);
}
console.table(rows);
