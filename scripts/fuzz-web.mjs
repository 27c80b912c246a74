#!/usr/bin/env node
// attnx: a seeded fuzzer of the two pages in headless Chromium (issue 9). Surfaces:
//   explorer-links, lab-links      hostile links (random and hostile keys and values, huge
//                                  values, repeated keys, unicode, percent-encoding, __proto__,
//                                  v= variants, very long hashes), opened fresh or set on the page;
//                                  on the explorer also hostile view=i0,i1,j0,j1 and budget= (and
//                                  budget in a v=2 link), where a message must name the field
//   explorer-imports               pattern imports (the import text box and the file input)
//   lab-imports                    sweep result imports (the lab's file input)
//   explorer-stories               <attnx-explorer> with a hostile story: story-src (the served
//                                  file, another origin, junk), an inline JSON child, the story
//                                  and step attributes (scripts/fuzz-web-stories.mjs)
//   explorer-heads                 model attention files through the explorer's head file input
//                                  (#head-file): valid and corrupted .npy/.npz/JSON, huge declared
//                                  shapes, pickles, deflate bombs, wrong CRCs, scores, NaN (the CLI
//                                  fuzzer's scripts/fuzz-cli/attention.mjs), under hostile names
//   explorer-elements, lab-elements  <attnx-explorer> / <attnx-lab> created by a host page with
//                                  every attribute valid or hostile (empty, " 64 ", leading zeros,
//                                  plus signs, 1e308, NaN, 10 KB strings, unicode, markup,
//                                  values of another construction), and their lifecycle: removed,
//                                  changed while detached and appended again, rapid changes, two
//                                  at once (scripts/fuzz-web-elements.mjs); BAD also when an
//                                  element's state does not reflect its current attributes, its
//                                  result is for other settings, or a message names none of them
// Each case ends as ok, refused (the page shows a message) or BAD: a page error, a console
// error, an unhandled rejection, a crash, a main-thread task over 1 s, user text rendered as
// HTML, NaN or "undefined" shown in the results, a CSP violation, a hash longer than any link
// left in the URL, or no idle page within the per-case guard. Inputs come from
// scripts/fuzz-web-inputs.mjs: a case is a function of (seed, surface, index).
//
//   node scripts/fuzz-web.mjs [--seed N] [--links N] [--imports N] [--stories N] [--heads N] [--elements N] [--only s1,s2]
//                             [--dir dist|web] [--case-timeout S] [--replay surface:index] [--json] [--verbose] [--help]
// --replay prints the case and its expected outcome, runs it and prints what happened.
// npm run fuzz:web runs the long default. Exit status 1 when a case is BAD.
// Also importable: runFuzz(options) -> report (used by tests/e2e/fuzz-web.test.mjs).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { startServer } from './serve.mjs';
import { load } from '../web/lib/attnx.js';
import { maxHashLength } from '../web/common/hashstate.js';
import { explorerTable } from '../web/explorer/state.js';
import { urlHash } from './explorer-url.mjs';
import { labTable } from '../web/lab/settings.js';
import { caseRng, linkCase, patternCase, sweepCase, storyCase, elementCase } from './fuzz-web-inputs.mjs';
import { runStoryCase, storyHost } from './fuzz-web-stories.mjs';
import { runElementCase, elementHost, expectedMessages } from './fuzz-web-elements.mjs';
import { withinGuard } from './fuzz-web-host.mjs';
import { makeRng as cliRng } from './fuzz-cli/rng.mjs';
import { genAttentionFile } from './fuzz-cli/attention.mjs';
import { MARKUP } from './fuzz-web-inputs.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SURFACES = ['explorer-links', 'lab-links', 'explorer-imports', 'lab-imports', 'explorer-stories', 'explorer-heads', 'explorer-elements', 'lab-elements'];
const PAGE_OF = { 'explorer-links': 'explorer', 'lab-links': 'lab', 'explorer-imports': 'explorer', 'lab-imports': 'lab', 'explorer-stories': 'explorer', 'explorer-heads': 'explorer', 'explorer-elements': 'explorer', 'lab-elements': 'lab' };
const ELEMENT_TAG = { 'explorer-elements': 'attnx-explorer', 'lab-elements': 'attnx-lab' };
const FILE_OF = { explorer: 'index.html', lab: 'lab.html' };
const LONG_TASK_MS = 1000;
const SHOWN = {
  explorer: ['#metrics', '#summary', '#status-text', '#inspector'],
  lab: ['#results-table', '#fit-sentence', '#status', '#result-source', '#plot-dl', '#plot-sd', '#paper-text'],
};

// Installed in every page before its scripts: long tasks, CSP violations, unhandled rejections,
// and a change counter of the message areas (to see when an import was answered).
function pageProbe() {
  const fz = { long: [], csp: [], rej: [], changes: 0 };
  window.__fz = fz;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) fz.long.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  document.addEventListener('securitypolicyviolation', (e) => fz.csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  window.addEventListener('unhandledrejection', (e) => fz.rej.push(String((e.reason && e.reason.message) || e.reason).slice(0, 200)));
  document.addEventListener('DOMContentLoaded', () => {
    const mo = new MutationObserver(() => { fz.changes++; });
    for (const id of ['messages', 'custom-msg', 'status', 'head-msg']) {
      const el = document.getElementById(id);
      if (el) mo.observe(el, { childList: true, characterData: true, subtree: true, attributes: true });
    }
  });
}

// The page is idle: the explorer computed and drew (or refused), the lab is not loading.
async function waitIdle(page, which, timeout) {
  if (which === 'explorer') {
    await page.waitForFunction(() => document.documentElement.dataset.busy === '0', null, { timeout, polling: 50 });
  } else {
    await page.waitForFunction(() => document.body.dataset.run && !['loading'].includes(document.body.dataset.run), null, { timeout, polling: 50 });
    // A link that ran the sweep: cancel it (a no-op when it just finished and Cancel is disabled).
    if (await page.evaluate(() => document.body.dataset.run === 'running')) {
      await page.evaluate(() => document.getElementById('cancel').click());
      await page.waitForFunction(() => document.body.dataset.run !== 'running', null, { timeout, polling: 50 });
    }
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30)))));
}

// One browser context and its page for a surface; records errors per case. A fresh document
// reuses them (a new context per case cost about twice the CPU: fuzz-web-host.mjs); a case that
// ends BAD closes them.
class Harness {
  constructor(browser, baseUrl, which, timeout) {
    Object.assign(this, { browser, baseUrl, which, timeout, page: null, context: null, events: [] });
  }

  // A new document of the page at its URL + hash, idle (through about:blank: a link differing
  // only in its hash would otherwise be a hashchange of the open document).
  async open(hash = '') {
    if (!this.page) await this.start();
    else {
      await this.page.goto('about:blank');
      this.events.length = 0;  // what the last case's document reported until it ended is not this case's
    }
    await this.page.goto(`${this.baseUrl}${FILE_OF[this.which]}${hash}`);
    await waitIdle(this.page, this.which, this.timeout);
  }

  async start() {
    this.context = await this.browser.newContext({ viewport: { width: 1200, height: 850 } });
    await this.context.addInitScript(pageProbe);
    const page = await this.context.newPage();
    page.on('pageerror', (e) => this.events.push(`pageerror: ${e.message.slice(0, 300)}`));
    page.on('console', (m) => { if (m.type() === 'error') this.events.push(`console error: ${m.text().slice(0, 300)}`); });
    page.on('crash', () => this.events.push('crash: the page crashed'));
    this.page = page;
  }

  async close() {
    if (this.context) await this.context.close().catch(() => {});
    this.page = null;
    this.context = null;
  }
}

// Sets the hash on the open page and waits until the page reacted.
async function setHash(page, hash) {
  await page.evaluate((h) => new Promise((resolve) => {
    const done = () => setTimeout(resolve, 0);
    window.addEventListener('hashchange', done, { once: true });
    setTimeout(done, 300);  // no hashchange when the hash did not change
    location.hash = h;
  }), hash);
}

// Performs one case's action on the harness's page.
async function act(h, surface, c) {
  if (surface.endsWith('links')) {
    if (c.fresh) return h.open(c.hash);
    if (!h.page) await h.open();
    return setHash(h.page, c.hash);
  }
  if (!h.page) await h.open();
  const page = h.page;
  const before = await page.evaluate(() => window.__fz.changes);
  if (surface === 'explorer-imports') {
    await page.evaluate(() => { document.querySelector('details.io').open = true; });
    if (c.via === 'text') {
      await page.fill('#import-text', c.text);
      await page.click('#import-btn');
    } else {
      await page.setInputFiles('#import-file', { name: c.name, mimeType: 'application/json', buffer: Buffer.from(c.text) });
    }
  } else if (surface === 'explorer-heads') {
    await page.evaluate(() => { const m = document.getElementById('head-msg'); m.textContent = ''; m.className = 'msg'; });
    await page.setInputFiles('#head-file', { name: c.name, mimeType: 'application/octet-stream', buffer: c.bytes });
    // Answered: the tools' status line says ok or error (after "Reading …").
    await page.waitForFunction(() => /\b(ok|error)\b/.test(document.getElementById('head-msg').className), null, { timeout: h.timeout, polling: 50 });
    return;
  } else {
    await page.setInputFiles('#import-file', { name: c.name, mimeType: c.mime, buffer: c.bytes });
  }
  await page.waitForFunction((n) => window.__fz.changes > n, before, { timeout: h.timeout, polling: 50 });
}

// What the page shows after a case, and the problems the probe saw since `mark`. On the explorer,
// read once its link is in the URL (written URL_WRITE_MS after the last change, link.js).
async function snapshot(page, which, mark) {
  if (which === 'explorer') await urlHash(page);
  return page.evaluate(({ sel, mark, which }) => {
    const text = (s) => { const e = document.querySelector(s); return e ? e.textContent : ''; };
    const fz = window.__fz;
    const msgs = [...document.querySelectorAll('#messages li')].map((li) => `${li.className}: ${li.textContent}`);
    const custom = document.getElementById('custom-msg');
    const status = text('#status');
    const head = document.getElementById('head-msg');
    return {
      head: head ? `${head.className}: ${head.textContent}` : '',
      injected: !!document.querySelector('[data-fz]'),
      csp: fz.csp.slice(), rej: fz.rej.slice(),
      longest: fz.long.filter((t) => t.start + t.duration >= mark).reduce((a, t) => Math.max(a, t.duration), 0),
      shown: sel.map(text).join(' | '),
      msgs: msgs.slice(0, 4),
      importMsg: which === 'explorer' && custom ? `${custom.className}: ${custom.textContent}` : status,
      hashLen: location.hash.length,
    };
  }, { sel: SHOWN[which], mark, which });
}

// The BAD reasons of a finished case (empty: not bad).
function badReasons(s, events, maxHash, longTaskMs) {
  const r = [...events];
  if (s.injected) r.push('user text rendered as HTML ([data-fz] element in the page)');
  for (const v of s.csp) r.push(`CSP violation: ${v}`);
  for (const v of s.rej) r.push(`unhandled rejection: ${v}`);
  if (s.longest > longTaskMs) r.push(`main-thread task of ${Math.round(s.longest)} ms`);
  const m = /NaN|undefined/.exec(s.shown);
  if (m) r.push(`"${m[0]}" shown: …${s.shown.slice(Math.max(0, m.index - 60), m.index + 20)}…`);
  if (s.hashLen > maxHash + 1) r.push(`a ${s.hashLen}-character hash left in the URL (links have at most ${maxHash})`);
  return r;
}

// ok | refused | BAD for a case that ended with snapshot s.
function outcomeOf(surface, s, reasons) {
  if (reasons.length) return 'BAD';
  if (surface === 'explorer-imports') return /\berror\b/.test(s.importMsg.split(':')[0]) ? 'refused' : 'ok';
  if (surface === 'explorer-heads') return /\berror\b/.test(s.head.split(':')[0]) ? 'refused' : 'ok';
  if (surface === 'lab-imports') return s.msgs.some((m) => m.includes('Import failed')) ? 'refused' : 'ok';
  return s.msgs.length ? 'refused' : 'ok';
}

// Runs one case; never throws (a hang or a crash is a BAD outcome). Returns { outcome, reasons, said }.
async function runCase(h, surface, c, maxHash) {
  h.events = [];
  let mark = 0;
  try {
    if (h.page) mark = await h.page.evaluate(() => performance.now());
    const work = (async () => {
      await act(h, surface, c);
      await waitIdle(h.page, h.which, h.timeout);
    })();
    await withinGuard(work, h.timeout + 5000, `no idle page within ${h.timeout / 1000} s`);
    const s = await snapshot(h.page, h.which, c.fresh ? 0 : mark);
    const reasons = badReasons(s, h.events, maxHash, h.longTaskMs);
    // (A refusal may name a NaN the file holds: "row 14, column 7 is NaN".)
    if (surface === 'explorer-heads' && /^msg ok:/.test(s.head) && /NaN|undefined/.test(s.head)) reasons.push(`"NaN" or "undefined" in the head tools' message: ${s.head.slice(0, 200)}`);
    // A hostile view or budget in a link (fuzz-web-inputs.mjs viewBudgetCase): a message names it.
    if (c.field && !s.msgs.some((m) => m.includes(c.field))) reasons.push(`no message names ${c.field}: ${JSON.stringify(s.msgs).slice(0, 200)}`);
    const outcome = outcomeOf(surface, s, reasons);
    if (outcome === 'BAD') await h.close();  // a crashed page cannot take the next case
    return { outcome, reasons, said: (surface === 'explorer-heads' ? s.head : s.msgs[0] || s.importMsg || '').slice(0, 160) };
  } catch (e) {
    const reasons = [...h.events, `no result: ${String(e.message).split('\n')[0].slice(0, 200)}`];
    await h.close();
    return { outcome: 'BAD', reasons, said: '' };
  }
}

// The inputs context of scripts/fuzz-web-inputs.mjs.
async function inputsContext() {
  const api = await load();
  const schema = api.schema();
  const tables = { explorer: explorerTable(schema), lab: labTable(schema) };
  return { api, schema, tables, maxHash: { explorer: maxHashLength(tables.explorer), lab: maxHashLength(tables.lab) } };
}

// Case `index` of `surface` under `seed`.
export function makeCase(ctx, seed, surface, index) {
  const rng = caseRng(seed, surface, index);
  if (surface === 'explorer-links') return linkCase(rng, ctx, 'explorer');
  if (surface === 'lab-links') return linkCase(rng, ctx, 'lab');
  if (surface === 'explorer-imports') return patternCase(rng, ctx);
  if (surface === 'explorer-stories') return storyCase(rng, ctx);
  if (ELEMENT_TAG[surface]) return elementCase(rng, ctx, ELEMENT_TAG[surface]);
  if (surface === 'explorer-heads') {
    const r = cliRng(seed, index + 0x48454144);  // the CLI fuzzer's generator (weighted, shuffle)
    const name = r.chance(0.1) ? `${r.pick(MARKUP)}.npy` : r.pick(['a.npy', 'a.npz', 'a.json', 'heads.npy', 'attention', 'a.txt']);
    return { bytes: genAttentionFile(r), name };
  }
  return sweepCase(rng, ctx);
}

// A short description of a case's input (and the file with all of it, for BAD cases).
function saveInput(surface, seed, index, c) {
  const dir = join(ROOT, 'test-output/fuzz-web');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${surface}-seed${seed}-${index}.txt`);
  const body = c.how || c.tag ? JSON.stringify(c) : c.hash ?? c.text ?? c.bytes;
  writeFileSync(file, body);
  return file.slice(ROOT.length);
}

function preview(c) {
  if (c.tag) {
    const s = JSON.stringify({ scenario: c.scenario, first: c.first, second: c.second, changes: c.changes });
    return `[${c.tag}] ${s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s}`;
  }
  const s = c.how ? `[${c.how}] ${JSON.stringify(c.attrs)} ${c.text}` : String(c.hash ?? c.text ?? c.bytes.toString('utf8'));
  return `${c.via ? `[${c.via}] ` : ''}${c.fresh ? '[fresh] ' : ''}${s.length > 120 ? `${s.slice(0, 120)}… (${s.length} chars)` : s}`;
}

// Runs `count` cases (or just `only` indices) of one surface. Returns the surface's tally.
// What a case should end as (printed by --replay): for elements the embed's reader's messages.
function expectedOf(ctx, surface, c) {
  if (ELEMENT_TAG[surface]) {
    const m = expectedMessages(c, ctx);
    const lines = Object.entries(m).map(([id, e]) => `${id}: ${e.length ? e.map((x) => x.slice(0, 160)).join(' / ') : 'no message'}`);
    return `${Object.values(m).some((e) => e.length) ? 'refused' : 'ok'} (${lines.join('; ')}), its state as its attributes read, never BAD`;
  }
  if (surface.endsWith('links')) return 'ok, or refused with a message for each setting not read; the URL left with a valid link; never BAD';
  return 'ok, or refused with a message; never BAD';
}

async function runSurface(browser, baseUrl, ctx, { surface, seed, indices, timeout, log, replay, longTaskMs }) {
  const which = PAGE_OF[surface];
  const h = new Harness(browser, baseUrl, which, timeout);
  const host = surface === 'explorer-stories' ? storyHost(browser, baseUrl) : ELEMENT_TAG[surface] ? elementHost(browser, baseUrl) : null;
  h.longTaskMs = longTaskMs ?? LONG_TASK_MS;
  const tally = { tried: 0, ok: 0, refused: 0, bad: [] };
  for (const index of indices) {
    const c = makeCase(ctx, seed, surface, index);
    if (replay) {
      log(`case ${surface}:${index} (seed ${seed}): ${preview(c)}`, true);
      log(`expected: ${expectedOf(ctx, surface, c)}`, true);
    }
    const r = surface === 'explorer-stories' ? await runStoryCase(host, c, timeout)
      : ELEMENT_TAG[surface] ? await runElementCase(host, c, timeout, ctx)
        : await runCase(h, surface, c, ctx.maxHash[which]);
    tally.tried++;
    if (r.outcome === 'BAD') {
      tally.bad.push({ index, reasons: r.reasons, input: preview(c), file: saveInput(surface, seed, index, c),
        replay: `node scripts/fuzz-web.mjs --seed ${seed} --replay ${surface}:${index}` });
    } else tally[r.outcome]++;
    log(`${surface} #${index}: ${r.outcome}${r.outcome === 'BAD' ? ` (${r.reasons.join('; ')})` : ''} ${r.said ? `— ${r.said}` : ''}`);
  }
  await h.close();
  await host?.close();
  return tally;
}

// Runs the fuzzer. opts: { seed = 1, links = 200 (per page), imports = 150 (per import surface),
// stories = 60 (explorer-stories: a new page each),
// only: [surface] | null, replay: 'surface:index' | null, dir: folder served (default dist/ when
// built, else web/), caseTimeoutMs = 60000, log(line) }. Returns { seed, surfaces: { name: tally } }.
export async function runFuzz(opts = {}) {
  const { seed = 1, links = 200, imports = 150, stories = 60, elements = 60, heads = 100, only = null, replay = null, caseTimeoutMs = 60000, log = () => {} } = opts;
  // longTaskMs: a main-thread task longer than this is BAD (Infinity: not judged, as npm test's
  // short run does: a shared CI machine's timings are no verdict).
  const longTaskMs = opts.longTaskMs ?? LONG_TASK_MS;
  const dir = opts.dir || (existsSync(join(ROOT, 'dist/index.html')) ? join(ROOT, 'dist') : join(ROOT, 'web'));
  const ctx = await inputsContext();
  const plan = replay ? [[replay.split(':')[0], [Number(replay.split(':')[1])]]]
    : SURFACES.filter((s) => !only || only.includes(s)).map((s) => [s, Array.from({ length: s.endsWith('links') ? links : s === 'explorer-stories' ? stories : s === 'explorer-heads' ? heads : ELEMENT_TAG[s] ? elements : imports }, (_, i) => i)]);
  const server = await startServer(dir, 0);
  const browser = await launchChromium();
  const surfaces = {};
  try {
    for (const [surface, indices] of plan) {
      surfaces[surface] = await runSurface(browser, server.url, ctx, { surface, seed, indices, timeout: caseTimeoutMs, log, replay: !!replay, longTaskMs });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { seed, surfaces };
}

function parseArgs(argv) {
  const o = { seed: 1, links: 200, imports: 150, stories: 60, elements: 60, heads: 100, only: null, replay: null, dir: null, caseTimeoutMs: 60000, json: false, verbose: false };
  const num = (a, v, lo, hi) => {
    if (!/^\d+$/.test(v ?? '') || Number(v) < lo || Number(v) > hi) throw new Error(`${a} must be an integer from ${lo} to ${hi} (got "${v ?? ''}")`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed') o.seed = num(a, argv[++i], 0, 2 ** 32 - 1);
    else if (a === '--links') o.links = num(a, argv[++i], 0, 100000);
    else if (a === '--imports') o.imports = num(a, argv[++i], 0, 100000);
    else if (a === '--stories') o.stories = num(a, argv[++i], 0, 100000);
    else if (a === '--elements') o.elements = num(a, argv[++i], 0, 100000);
    else if (a === '--heads') o.heads = num(a, argv[++i], 0, 100000);
    else if (a === '--help' || a === '-h') o.help = true;
    else if (a === '--case-timeout') o.caseTimeoutMs = 1000 * num(a, argv[++i], 1, 3600);
    else if (a === '--only') o.only = String(argv[++i] ?? '').split(',');
    else if (a === '--replay') o.replay = argv[++i];
    else if (a === '--dir') o.dir = argv[++i];
    else if (a === '--json') o.json = true;
    else if (a === '--verbose') o.verbose = true;
    else throw new Error(`unknown option "${a}" (see the top of scripts/fuzz-web.mjs)`);
  }
  for (const s of o.only || []) if (!SURFACES.includes(s)) throw new Error(`--only: "${s}" is not a surface (${SURFACES.join(', ')})`);
  if (o.replay && !(/^[a-z-]+:\d+$/.test(o.replay) && SURFACES.includes(o.replay.split(':')[0]))) {
    throw new Error(`--replay must be surface:index with a surface of ${SURFACES.join(', ')} (got "${o.replay}")`);
  }
  return o;
}

const HELP = `node scripts/fuzz-web.mjs [options]: seeded hostile inputs for the explorer and the lab in headless Chromium
  --seed N            seed of every case (default 1); a case is a function of (seed, surface, index)
  --links N           cases per links surface (default 200)
  --imports N         cases per import surface (default 150)
  --stories N         explorer-stories cases (default 60)
  --elements N        cases per elements surface (default 60)
  --heads N           explorer-heads cases (default 100)
  --only s1,s2        only these surfaces: ${SURFACES.join(', ')}
  --replay s:i        run case i of surface s alone; prints the case, its expected outcome and what happened
  --dir D             folder served (default dist/ when built, else web/)
  --case-timeout S    guard per case, seconds (default 60)
  --json              print the report as JSON (always written to test-output/fuzz-web.json)
  --verbose           print every case's outcome
Outcomes: ok, refused (a message), BAD (page error, console error, unhandled rejection, markup rendered,
NaN/undefined shown, a state that does not reflect its input, no idle page). Exit status 1 when a case is BAD.`;

function printReport(report) {
  console.log(`fuzz-web, seed ${report.seed}`);
  for (const [name, t] of Object.entries(report.surfaces)) {
    console.log(`  ${name.padEnd(17)} tried ${String(t.tried).padStart(4)}: ok ${t.ok}, refused with a message ${t.refused}, BAD ${t.bad.length}`);
    for (const b of t.bad) console.log(`    BAD #${b.index}: ${b.reasons.join('; ')}\n      input: ${b.input}\n      saved: ${b.file}\n      replay: ${b.replay}`);
  }
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`fuzz-web: ${e.message}`);
    process.exit(2);
  }
  if (o.help) {
    console.log(HELP);
    return;
  }
  const report = await runFuzz({ ...o, log: o.verbose || o.replay ? (l) => console.error(l) : (l, always) => { if (always) console.error(l); } });
  mkdirSync(join(ROOT, 'test-output'), { recursive: true });
  writeFileSync(join(ROOT, 'test-output/fuzz-web.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (o.json) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
  if (Object.values(report.surfaces).some((t) => t.bad.length)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => {
    console.error(`fuzz-web: ${e.stack || e.message}`);
    process.exit(1);
  });
}
