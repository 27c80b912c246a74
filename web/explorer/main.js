// attnx explorer: the page. Wires the state (mirrored in the URL hash, see link.js), the settings
// form, the worker pool (all computation, including the criterion and its per-row report), the
// render worker (all L^2 loops) and the views.
import { createPool } from '../lib/pool.js';
import { isElementHash, hashLengthError } from '../common/hashstate.js';
import { explorerTable, constructOptions, computeFields, clampToRanges, withConstructionD, constructionInputs, hasInputImages, settingsKey, RENDER_FIELDS } from './state.js';
import { PrecisionRequest } from './precision.js';
import { LinkState } from './link.js';
import { CustomTools } from './custom-tools.js';
import { RowFocus } from './row-focus.js';
import { Controls } from './controls.js';
import { Runner } from './runner.js';
import { RenderClient } from './render-client.js';
import { Figures, FIGS } from './figures.js';
import { StatusView } from './views/status-view.js';
import { attachPointer } from './views/figure-pointer.js';
import { attachDrawing } from './views/draw-editor.js';
import { setupShare } from './share.js';
import { StoryControl } from './story-control.js';
import { setupLectureTools } from './lecture-tools.js';
import { setIf } from '../common/dom.js';
import { applyTheme } from '../common/theme.js';
import { watchHeight } from '../common/embed-height.js';

const $ = (id) => document.getElementById(id);
const html = document.documentElement;
const status = new StatusView({ text: $('status-text'), progress: $('progress'), list: $('messages') });

let schema, table, pool, st, controls, runner, figures, link, tools, focus, story;
let precision;           // the precision report of the result shown (precision.js)
let compute;             // names of the fields whose change needs a new construction
let current = null;      // { id, L, d, tol, A: { rows, cols, vals }, info } of the construction shown
let runs = 0;
let shownId = 0;         // id of the newest run drawn (older results arriving later are dropped)
let dimTimer = 0;
let lastShown = null;    // { id, result } of the newest run drawn as current (for showState)
const shownWaiters = []; // { seq, resolve } of showState calls waiting for a drawn result
const DIM_AFTER_MS = 250;

function setBusyFlag(b) {
  html.dataset.busy = b ? '1' : '0';
}

function fail(headline, message) {
  if (figures) figures.views.metrics.setStale(false);
  settleShown(Infinity, null);
  status.done(headline);
  status.setMessages('api', [message], 'error');
  setBusyFlag(false);
}

async function main() {
  $('file-hint').remove();  // the script runs: the page was not opened from disk (see base.css)
  setBusyFlag(true);
  try {
    pool = await createPool();
    schema = await pool.run('schema', {});
  } catch (e) {
    fail('The WebAssembly module could not be loaded.', `Could not start the computation: ${e && e.message ? e.message : e}. Serve this folder over http (npm start) and use a browser with WebAssembly SIMD.`);
    return;
  }
  table = explorerTable(schema);
  compute = computeFields(schema);
  runner = new Runner(pool, { onProgress: (id, f) => status.progressed(f) });
  precision = new PrecisionRequest(pool, (report) => figures.views.metrics.setPrecision(report));
  figures = new Figures({ render: new RenderClient(), getState: () => st, getCurrent: () => current });
  figures.views.metrics.onAskPrecision = () => precision.compute();
  focus = new RowFocus({ views: figures.views, render: figures.render, getState: () => st, getCurrent: () => current });
  controls = new Controls({
    schema, table,
    containers: { pattern: $('pattern-fields'), construct: $('construct-fields'), view: $('view-fields') },
    onChange: (name, value) => update({ [name]: value }),
    onNewSeed: () => update({ seed: Math.floor(Math.random() * 1e6) }),
  });
  setupTools();
  setupPointers();
  setupLinks();
  setupLecture();
  figures.watchSize(() => html.dataset.busy === '0', redrawAtNewSize);
  figures.watchX(() => {  // X's card came into view: draw X's images (computed if the result lacks them)
    if (!current || html.dataset.busy !== '0') return;
    if (current.hasX) figures.rerender(['all']);
    else schedule();
  });
  link.read();
  watchHeight('explorer');  // in an iframe: the content height (embed layout) to the host (README)
}

function setupTools() {
  tools = new CustomTools({
    schema, table, pool, viewA: figures.views.A,
    getState: () => st, getCurrent: () => current,
    update: (patch) => update(patch), onEdited: commitCustom, budget: () => figures.budgets().budget,
  });
  attachDrawing(figures.views.A, {
    enabled: () => tools.drawingEnabled(),
    begin: () => tools.pushUndo(),
    toggle: (c, mode) => tools.toggle(c, mode),
    end: commitCustom,
  });
}

function setupPointers() {
  const { views } = figures;
  const pin = (c) => update({ row: st.row === c.i ? -1 : c.i }, { compute: false });
  for (const key of FIGS) {
    attachPointer(views[key], {
      getL: () => current && current.L,
      startRow: () => st.row,
      onHover: (c, view) => focus.onHover(c, view),
      onPick: (c, view) => {
        if (!(view === views.A && tools.drawingEnabled())) pin(c);
      },
      onKeyAct: (c, view) => {
        if (!(view === views.A && tools.drawingEnabled())) return pin(c);
        tools.pushUndo();
        tools.toggle(c, null);
        commitCustom();
      },
    });
  }
}

// The link (hash), sharing, the help toggle and the skip link (moves focus, never the hash).
function setupLinks() {
  const share = setupShare({
    copyBtn: $('copy-link'), out: $('share-out'), input: $('share-link'), msg: $('share-msg'),
    embedBtn: $('embed-btn'), embedPanel: $('embed-panel'), embedCode: $('embed-code'), embedCopy: $('embed-copy'),
    embedMsg: $('embed-msg'), currentHref: () => link.href(), openFull: $('open-full'),
  });
  link = new LinkState({
    schema, table, status, getTools: () => tools,
    onRead: (state) => {
      const given = new Set([...new URLSearchParams(location.hash.replace(/^#/, '')).keys()].filter((k) => Object.hasOwn(table, k)));
      story.read(state, given, (s) => {  // a story's step fills what the link leaves out
        st = s;
        afterChange(Object.keys(table));
      });
    },
    onWritten: () => share.refresh(),
  });
  // A change not yet in the URL (link.js) is written when the page is left or hidden.
  window.addEventListener('pagehide', () => link.flush());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') link.flush();
  });
  window.addEventListener('hashchange', () => {
    const h = location.hash;  // an element id is no link, unless it is longer than any link
    if (!link.isOwn(h) && (!isElementHash(h) || hashLengthError(table, h))) link.read();
  });
  for (const a of document.querySelectorAll('a.skip[href^="#"]')) {
    a.addEventListener('click', (ev) => {
      const target = document.getElementById(a.getAttribute('href').slice(1));
      if (!target) return;
      ev.preventDefault();
      target.focus();
      target.scrollIntoView();
    });
  }
  $('help-btn').addEventListener('click', () => update({ help: !st.help }, { compute: false }));
}

// Lecture mode (the story panel and its keys) and the quick tools (reset, presets, d searches).
function setupLecture() {
  story = new StoryControl({
    table, box: $('story'), getState: () => st, update: (patch) => update(patch),
    report: (msgs) => status.setMessages('story', msgs, 'error'),
  });
  story.attachKeys(document);
  setupLectureTools({
    reset: $('reset-btn'), presets: $('preset-select'), story: $('story-btn'), mind: $('mind-btn'),
    play: $('play-btn'), stop: $('dsearch-stop'), progress: $('dsearch-progress'), msg: $('dsearch-msg'),
  }, { schema, table, pool, story, getState: () => st, getCustom: () => tools.pattern, update: (patch) => update(patch), showState });
}

// Applies patch like update() and resolves with the construct result drawn for the new state (the
// one already drawn when nothing needed computing), or null when computing failed. Play waits on
// it before its next step.
function showState(patch) {
  update(patch);
  if (html.dataset.busy === '0' && lastShown && lastShown.id === runner.seq) return Promise.resolve(lastShown.result);
  return new Promise((resolve) => shownWaiters.push({ seq: runner.seq, resolve }));
}

// Resolves the showState calls made before run id was scheduled with result.
function settleShown(id, result) {
  for (let i = shownWaiters.length - 1; i >= 0; i--) {
    if (shownWaiters[i].seq > id) continue;
    shownWaiters[i].resolve(result);
    shownWaiters.splice(i, 1);
  }
}

// Applies a change of the state made on the page (form, heatmaps, tools). compute: false for
// changes that must not recompute (pinning a row, help).
function update(patch, { compute: recompute = true } = {}) {
  const tInput = performance.now();
  const next = { ...st, ...withConstructionD(schema, st, patch) };
  const changed = Object.keys(patch).filter((k) => st[k] !== next[k]);
  if (changed.length === 0) return;
  status.setMessages('hash', []);  // the link's problems are history once the visitor changes something
  tools.follow(next);
  st = clampToRanges(table, schema, next);
  link.syncCustom(st, tools.pattern);
  afterChange(changed, recompute, tInput);
}

function afterChange(changed, recompute = true, tInput = performance.now()) {
  controls.sync(st);
  story.show(st);
  link.write(st);
  document.body.classList.toggle('embed', st.embed);
  applyTheme(st.theme);
  setIf($('explain'), 'hidden', !st.help);
  setIf($('help-btn'), 'textContent', st.help ? 'Hide explanation' : 'Show explanation');
  if ($('help-btn').getAttribute('aria-expanded') !== String(st.help)) $('help-btn').setAttribute('aria-expanded', String(st.help));
  tools.refreshUI();
  setIf($('export-json'), 'disabled', !tools.pattern && !current);
  setIf($('export-csv'), 'disabled', !tools.pattern && !current);
  if (recompute && changed.some((k) => compute.includes(k))) schedule(tInput);
  else if (changed.some((k) => RENDER_FIELDS.includes(k))) figures.rerender(changed);
  if (changed.includes('row')) {
    focus.mark();
    focus.show();
  }
}

// Computes the state's construction on the pool (the newest request wins; see runner.js), then
// draws it. tInput: when the change that asked for it was made (for the latency measure).
async function schedule(tInput = performance.now()) {
  setBusyFlag(true);
  figures.views.metrics.setStale(true);
  precision.settingsChanged(settingsKey(schema, st, tools.pattern));
  dimLater();
  status.busy(`Computing M for L = ${st.L}, d = ${st.d}…`);
  let res;
  try {
    res = await runner.schedule('construct', viewOptions(constructOptions(schema, st, tools.pattern)));
  } catch (e) {
    figures.setBusy(false);
    fail('Not computed.', e && e.message ? e.message : String(e));
    return;
  }
  if (!res || res.id < shownId) return;  // dropped, or an older run than the one shown
  if (!res.superseded) status.setMessages('api', []);
  await show(res, tInput);
}

// The heatmaps' size on screen changed: redraw (the render worker pools M and the zero ratio from
// the full matrices); X left the worker only as images, so at a new size it is computed again
// (cheap: the worker keeps the Gram matrix).
async function redrawAtNewSize() {
  const drawn = await figures.rerender(['all']);
  if (drawn && drawn.xStale) schedule();
}

// construct's options plus the pooled images the page draws (at the pixels on screen), without X
// for jl (L x 2d; lp and moment keep their small X: the row inspector shows a row's query), and
// without X's images while its card is off screen.
function viewOptions(opts) {
  const b = figures.budgets();
  return { ...opts, views: { size: b.budget, xRows: b.xRows, xCols: b.xCols, omitX: opts.construction === 'jl', inputs: figures.xVisible } };
}

// Dims the figures if no result has been drawn DIM_AFTER_MS after a change (a drag that keeps
// drawing never dims; a long computation does).
function dimLater() {
  const id = runner.seq + 1;
  clearTimeout(dimTimer);
  dimTimer = setTimeout(() => {
    if (shownId < id && html.dataset.busy === '1') figures.setBusy(true);
  }, DIM_AFTER_MS);
}

// Draws the construction of run res ({ id, result, timing, superseded }) and, when it is the
// newest, ends the busy state. Records performance.measure('attnx:latency') from tInput to the
// frame that shows it, with its breakdown (see scripts/bench-explorer.mjs).
async function show({ id, result, timing, superseded }, tInput) {
  const tReceived = performance.now();
  shownId = id;
  const p = result.params;
  const tol = { eps: p.eps, tau: p.tau, delta: p.delta };
  const A = { rows: Int32Array.from(result.A.rows), cols: Int32Array.from(result.A.cols), vals: Float64Array.from(result.A.vals) };
  const cur = { id, L: result.L, d: result.d, tol, A, info: {}, inputs: constructionInputs(result), hasX: hasInputImages(result) };
  current = cur;
  focus.reset();
  const t = { tInput, tReceived, tData: tReceived, tRendered: tReceived, paintMs: 0 };
  try {
    // The data and the images in one trip to the render worker; the metrics card is written
    // while the render worker makes the images.
    const v = result.views;
    const pooledAt = v ? { budget: v.size, xRows: v.xRows, xCols: v.xCols } : null;
    const images = figures.rerender(['all'], (which, opts) => figures.render.setData(id, result, tol, { which, opts }), pooledAt);
    figures.views.metrics.update(result, tol);
    // The newest result: its precision report at once (kept when only computed again for X's
    // images), so the panel never flashes back to its button.
    if (!superseded && runner.isCurrent(id)) precision.follow(result, constructOptions(schema, st, tools.pattern), settingsKey(schema, st, tools.pattern));
    const drawn = await images;
    t.tRendered = performance.now();
    t.tData = drawn ? t.tRendered - drawn.paintMs - drawn.poolMs : t.tRendered;
    t.paintMs = drawn ? drawn.paintMs : 0;
    if (current !== cur) return;
  } catch (e) {
    status.setMessages('api', [`Drawing failed: ${e.message}`], 'error');
  }
  await nextFrame();
  t.tPainted = performance.now();
  recordLatency(result, timing, t);
  runs++;
  html.dataset.runs = String(runs);
  if (current !== cur || superseded || !runner.isCurrent(id)) return;
  clearTimeout(dimTimer);
  figures.setBusy(false);
  figures.views.metrics.setStale(false);
  const ms = Math.round(performance.now() - tInput);
  status.done(`L = ${result.L}, d = ${result.d}: ${result.metrics.success ? 'success' : 'not yet'} · computed and drawn in ${ms} ms in your browser`);
  focus.mark();
  focus.show();
  setBusyFlag(false);
  lastShown = { id, result };
  settleShown(id, result);
  if (figures.resized()) redrawAtNewSize();  // the size changed while this was computed
}

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

// performance.measure('attnx:latency', tInput -> painted) with detail { L, d, queue, compute,
// transfer, pooling, paint } in ms (worker times converted to this page's clock). transfer: the
// result's trips (worker -> page -> render worker and back, less the render worker's own time),
// toPage its first hop (compute worker -> page); pooling: the render worker's own time.
function recordLatency(result, timing, t) {
  const origin = performance.timeOrigin;
  const wStart = timing ? timing.start - origin : t.tReceived;
  const wEnd = timing ? timing.end - origin : t.tReceived;
  const detail = {
    L: result.L, d: result.d,
    queue: Math.max(0, wStart - t.tInput),
    compute: timing ? timing.busyMs : NaN,
    transfer: Math.max(0, t.tReceived - wEnd) + (t.tData - t.tReceived),
    toPage: Math.max(0, t.tReceived - wEnd),
    pooling: Math.max(0, t.tRendered - t.tData - t.paintMs),
    paint: t.paintMs + (t.tPainted - t.tRendered),
  };
  try {
    performance.measure('attnx:latency', { start: t.tInput, end: t.tPainted, detail });
  } catch { /* older browsers: no measure with detail */ }
}

function commitCustom() {
  link.syncCustom(st, tools.pattern);
  link.write(st);
  tools.refreshUI();
  schedule();
}

main().catch((e) => fail('Something went wrong.', String(e && e.message ? e.message : e)));
