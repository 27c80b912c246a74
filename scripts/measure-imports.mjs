#!/usr/bin/env node
// attnx: the longest main-thread task of the pages while they take large inputs (issue 9, item 5).
// A measurement, not a test: it prints numbers and never fails on them.
//
//   node scripts/measure-imports.mjs [--dir dist|web|<folder>] [--only name,...] [--reps N] [--json]
//
// Cases (files are written to test-output/measure-imports/ and handed to the file inputs by path,
// so no page script builds them):
//   explorer-import      a JSON pattern of 196,608 entries (L = 4096, 48 a row, ~19.5 MB)
//   explorer-reject-bad  200,704 entries whose last weight is negative (the core refuses it)
//   explorer-reject-L    204,800 entries with L = 8192 (read by the core, refused by the page)
//   lab-import           a sweep result of 64 lengths x 1000 trials (written by the core)
//   explorer-hash-1MiB, lab-hash-1MiB   opening the page with a 1 MiB hash (and a plain load as
//                        the baseline: explorer-load, lab-load)
//   head-npy-100MB       a model's attention of 100 MB (.npy [6, 2048, 2048] float32) opened in the
//                        head tools, until its head is the target and every thumbnail is drawn
//   head-token-10MB      a JSON head whose first token is 10 MB long (issue 47, item 6)
// For each: the longest task (PerformanceObserver 'longtask': tasks over 50 ms) from the start of
// the action (the navigation for loads) until the page is idle again, the count of such tasks,
// the wall time, what the page said, and the hash length left in the URL. With --reps N each case
// runs N times and the report gives the median run (by longest task) and the range.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { load } from '../web/lib/attnx.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(ROOT, 'test-output/measure-imports');
const MiB = 1 << 20;

function parseArgs(argv) {
  const o = { dir: existsSync(join(ROOT, 'dist/index.html')) ? 'dist' : 'web', only: null, json: false, reps: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dir' && argv[i + 1]) o.dir = argv[++i];
    else if (a === '--only' && argv[i + 1]) o.only = argv[++i].split(',');
    else if (a === '--json') o.json = true;
    else if (a === '--reps' && /^([1-9]|1\d|20)$/.test(argv[i + 1] ?? '')) o.reps = Number(argv[++i]);
    else {
      console.error(`measure-imports: unknown or incomplete option "${a}" (allowed: --dir <folder>, --only a,b, --reps 1..20, --json)`);
      process.exit(2);
    }
  }
  return o;
}

// A pretty-printed JSON pattern {"L": L, "triplets": [[i, j, w], ...]} of `perRow` entries in
// each of `rows` rows (columns spread over 0..L-1), weights long decimals. lastWeight replaces
// the last entry's weight. Returns the text.
function patternText(L, rows, perRow, lastWeight = null) {
  const out = [];
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < rows; i++) {
    for (let t = 0; t < perRow; t++) {
      const j = (i + Math.floor((t * L) / perRow)) % L;
      out.push(`    [\n                ${i},\n                ${j},\n                ${(0.05 + rnd()).toPrecision(17)}\n    ]`);
    }
  }
  if (lastWeight !== null) out[out.length - 1] = out[out.length - 1].replace(/[\d.e-]+\n {4}\]$/, `${lastWeight}\n    ]`);
  return `{\n  "L": ${L},\n  "triplets": [\n${out.join(',\n')}\n  ]\n}\n`;
}

// A sweep result of nL lengths x trials, as `attnx sweep --format json` writes it (medians and
// quantiles from the core, which the reader checks).
function sweepText(api, nL, trials) {
  const delta = 0.1;
  const points = [];
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let n = 0; n < nL; n++) {
    const L = 16 + 64 * n;
    const dMins = Array.from({ length: trials }, () => 16 * Math.ceil(3 + 10 * rnd() + Math.log(L)));
    points.push({ L, dMins, dStar: 100 + L, k: 2, maxColCount: 2, inClass: true, madds: L * 10 });
  }
  const s = api.summariseSweep({ delta, points });
  const rows = s.points.map((p) => ({ L: p.L, d_mins: p.dMins, median: p.median, quantile: p.quantile, d_star: p.dStar,
    k: p.k, max_col_count: p.maxColCount, in_class: p.inClass, madds: p.madds }));
  const params = { pattern: 'random', k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta, step: 16, d_max: 4096, trials, seed: 1 };
  return api.formatSweep({ version: null, params, points: rows, fits: s.fits }, 'json');
}

// Installed before any page script: records long tasks (> 50 ms on the main thread).
function observeLongTasks() {
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

// Resolves after the page has been quiet for a while (two frames and 500 ms without a new task).
async function settle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 500)))));
}

async function longTasksSince(page, mark) {
  return page.evaluate((m) => {
    const l = window.__longtasks.filter((t) => t.start + t.duration >= m);
    return { longest: l.reduce((a, t) => Math.max(a, t.duration), 0), over50: l.length };
  }, mark);
}

const explorerIdle = (n) => (page) => page.waitForFunction((n) => Number(document.documentElement.dataset.runs || 0) >= n
  && document.documentElement.dataset.busy === '0', n, { timeout: 600000 });
const labIdle = (states) => (page) => page.waitForFunction((s) => s.includes(document.body.dataset.run), states, { timeout: 600000 });

// Opens `url`, waits for ready(page), then runs act(page) (if any) and waits for done(page).
// Returns the measurement.
async function measure(browser, { url, ready, act, done, said }) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message.slice(0, 200)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text().slice(0, 200)); });
  await page.addInitScript(observeLongTasks);
  const t0 = Date.now();
  await page.goto(url);
  await ready(page);
  let mark = 0;
  if (act) {
    await settle(page);
    mark = await page.evaluate(() => performance.now());
    await act(page);
    await done(page);
  }
  await settle(page);
  const r = await longTasksSince(page, mark);
  const out = {
    longest_task_ms: Math.round(r.longest), tasks_over_50ms: r.over50, wall_s: +((Date.now() - t0) / 1000).toFixed(2),
    said: (await said(page)).slice(0, 160), url_hash_chars: (await page.evaluate(() => location.hash.length)), errors,
  };
  await page.close();
  return out;
}

// Opens `file` in the explorer's head tools.
const openHead = (file) => async (p) => {
  await p.evaluate(() => { document.getElementById('head-tools').open = true; });
  await p.setInputFiles('#head-file', file);
};
// The head is the target (or refused), the explorer idle and the survey's thumbnails drawn.
const headDone = async (p) => {
  await p.waitForFunction(() => /with rule|Could not|could not/.test(document.getElementById('head-msg').textContent), null, { timeout: 600000 });
  await p.waitForFunction(() => document.documentElement.dataset.busy === '0' && document.getElementById('survey-progress')?.hidden !== false, null, { timeout: 600000 });
};

function cases(base, files) {
  const customMsg = (p) => p.textContent('#custom-msg');
  const messages = (p) => p.textContent('#messages');
  const importInto = (file) => async (p) => {
    await p.click('details.io summary');
    await p.setInputFiles('#import-file', file);
  };
  const msgMatches = (re) => (p) => p.waitForFunction((s) => new RegExp(s).test(document.querySelector('#custom-msg').textContent), re.source, { timeout: 600000 });
  const bigHash = `#${'x=1&'.repeat(MiB / 4)}`;
  return {
    'explorer-load': { url: `${base}index.html#d=64&help=0`, ready: explorerIdle(1), said: messages },
    'explorer-hash-1MiB': { url: `${base}index.html${bigHash}`, ready: explorerIdle(1), said: messages },
    'explorer-import': {
      url: `${base}index.html#d=64&help=0`, ready: explorerIdle(1), act: importInto(files.pattern),
      done: async (p) => { await msgMatches(/Imported|failed/)(p); await explorerIdle(2)(p); }, said: customMsg,
    },
    'explorer-reject-bad': { url: `${base}index.html#d=64&help=0`, ready: explorerIdle(1), act: importInto(files.bad), done: msgMatches(/failed/), said: customMsg },
    'explorer-reject-L': { url: `${base}index.html#d=64&help=0`, ready: explorerIdle(1), act: importInto(files.bigL), done: msgMatches(/failed/), said: customMsg },
    'head-npy-100MB': { url: `${base}index.html#d=64&help=0`, ready: explorerIdle(1), act: openHead(files.npy100), done: headDone, said: (p) => p.textContent('#head-msg') },
    'head-token-10MB': { url: `${base}index.html#d=64&help=0`, ready: explorerIdle(1), act: openHead(files.token10), done: headDone, said: (p) => p.textContent('#head-msg') },
    'lab-load': { url: `${base}lab.html`, ready: labIdle(['idle']), said: messages },
    'lab-hash-1MiB': { url: `${base}lab.html${bigHash}`, ready: labIdle(['idle']), said: messages },
    'lab-import': {
      url: `${base}lab.html`, ready: labIdle(['idle']),
      act: (p) => p.setInputFiles('#import-file', files.sweep), done: labIdle(['imported']), said: (p) => p.textContent('#status'),
    },
  };
}

// A float32 .npy of `shape` whose every row is uniform (1 / L): a valid attention of any size.
function uniformNpy(shape) {
  const L = shape[shape.length - 1];
  let dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  dict += `${' '.repeat((64 - ((10 + dict.length + 1) % 64)) % 64)}\n`;
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(dict.length, 8);
  const data = new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(1 / L);
  return Buffer.concat([head, Buffer.from(dict, 'latin1'), Buffer.from(data.buffer)]);
}

function writeFiles(api) {
  mkdirSync(OUT, { recursive: true });
  const f = {
    pattern: [join(OUT, 'pattern-196608.json'), () => patternText(4096, 4096, 48)],
    bad: [join(OUT, 'pattern-200704-bad.json'), () => patternText(4096, 4096, 49, -1)],
    bigL: [join(OUT, 'pattern-204800-L8192.json'), () => patternText(8192, 8192, 25)],
    sweep: [join(OUT, 'sweep-64x1000.json'), () => sweepText(api, 64, 1000)],
    npy100: [join(OUT, 'heads-6x2048.npy'), () => uniformNpy([6, 2048, 2048])],
    token10: [join(OUT, 'token-10MB.json'), () => JSON.stringify({ tokens: ['x'.repeat(10 * MiB), 'b'], attention: [[[0.5, 0.5], [0.25, 0.75]]] })],
  };
  const out = {}, sizes = {};
  for (const [k, [path, make]] of Object.entries(f)) {
    const text = make();
    writeFileSync(path, text);
    out[k] = path;
    sizes[k] = `${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB`;
  }
  return { files: out, sizes };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const api = await load();
  const { files, sizes } = writeFiles(api);
  const server = await startServer(resolve(ROOT, o.dir), 0);
  const browser = await launchChromium();
  const results = {};
  try {
    for (const [name, c] of Object.entries(cases(server.url, files))) {
      if (o.only && !o.only.includes(name)) continue;
      const runs = [];
      for (let r = 0; r < o.reps; r++) runs.push(await measure(browser, c));
      runs.sort((a, b) => a.longest_task_ms - b.longest_task_ms);
      const m = { ...runs[(runs.length - 1) >> 1], longest_task_range_ms: [runs[0].longest_task_ms, runs[runs.length - 1].longest_task_ms] };
      results[name] = m;
      if (!o.json) console.log(`${name.padEnd(20)} longest task ${String(m.longest_task_ms).padStart(5)} ms (range ${m.longest_task_range_ms.join('–')}), ${m.tasks_over_50ms} over 50 ms, ${m.wall_s} s, hash ${m.url_hash_chars} chars | ${m.said}${m.errors.length ? ` | ERRORS: ${m.errors.join(' ; ')}` : ''}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const report = { dir: o.dir, file_sizes: sizes, results };
  writeFileSync(join(ROOT, 'test-output/measure-imports.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (o.json) console.log(JSON.stringify(report, null, 2));
  else console.log(`files: ${Object.entries(sizes).map(([k, v]) => `${k} ${v}`).join(', ')} (written to test-output/measure-imports.json)`);
}

main().catch((e) => {
  console.error(`measure-imports: ${e.stack || e.message}`);
  process.exit(1);
});
