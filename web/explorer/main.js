// attnx explorer: the page. Wires the state (mirrored in the URL hash, see link.js), the settings
// form, the worker pool (all computation, including the criterion and its per-row report), the
// render worker (all L^2 loops) and the views.
import { createPool } from '../lib/pool.js';
import { isElementHash, hashLengthError } from '../common/hashstate.js';
import { explorerTable, constructOptions, computeFields, clampToRanges, RENDER_FIELDS } from './state.js';
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

const $ = (id) => document.getElementById(id);
const html = document.documentElement;
const status = new StatusView({ text: $('status-text'), progress: $('progress'), list: $('messages') });

let schema, table, pool, st, controls, runner, figures, link, tools, focus;
let compute;             // names of the fields whose change needs a new construction
let current = null;      // { id, L, d, tol, A: { rows, cols, vals }, info } of the construction shown
let runs = 0;

function setBusyFlag(b) {
  html.dataset.busy = b ? '1' : '0';
}

function fail(headline, message) {
  status.done(headline);
  status.setMessages('api', [message], 'error');
  setBusyFlag(false);
}

async function main() {
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
  figures = new Figures({ render: new RenderClient(), getState: () => st, getCurrent: () => current });
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
  figures.watchSize(() => html.dataset.busy === '0');
  link.read();
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
      st = state;
      afterChange(Object.keys(table));
    },
    onWritten: () => share.refresh(),
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

// Applies a change of the state made on the page (form, heatmaps, tools). compute: false for
// changes that must not recompute (pinning a row, help).
function update(patch, { compute: recompute = true } = {}) {
  const next = { ...st, ...patch };
  const changed = Object.keys(patch).filter((k) => st[k] !== next[k]);
  if (changed.length === 0) return;
  status.setMessages('hash', []);  // the link's problems are history once the visitor changes something
  tools.follow(next);
  st = clampToRanges(table, schema, next);
  link.syncCustom(st, tools.pattern);
  afterChange(changed, recompute);
}

function afterChange(changed, recompute = true) {
  controls.sync(st);
  link.write(st);
  document.body.classList.toggle('embed', st.embed);
  $('explain').hidden = !st.help;
  $('help-btn').textContent = st.help ? 'Hide explanation' : 'Show explanation';
  $('help-btn').setAttribute('aria-expanded', String(st.help));
  tools.refreshUI();
  $('export-json').disabled = !tools.pattern && !current;
  $('export-csv').disabled = !tools.pattern && !current;
  if (recompute && changed.some((k) => compute.includes(k))) schedule();
  else if (changed.some((k) => RENDER_FIELDS.includes(k))) figures.rerender(changed);
  if (changed.includes('row')) {
    focus.mark();
    focus.show();
  }
}

// Computes the state's construction on the pool (the latest request wins), then draws it.
async function schedule() {
  setBusyFlag(true);
  figures.setBusy(true);
  status.busy(`Computing M for L = ${st.L}, d = ${st.d}…`);
  const t0 = performance.now();
  let res;
  try {
    res = await runner.schedule('construct', constructOptions(schema, st, tools.pattern));
  } catch (e) {
    figures.setBusy(false);
    fail('Not computed.', e && e.message ? e.message : String(e));
    return;
  }
  if (!res) return;  // superseded
  status.setMessages('api', []);
  await show(res.id, res.result, t0);
}

async function show(id, result, t0) {
  const p = result.params;
  const tol = { eps: p.eps, tau: p.tau, delta: p.delta };
  const A = { rows: Int32Array.from(result.A.rows), cols: Int32Array.from(result.A.cols), vals: Float64Array.from(result.A.vals) };
  current = { id, L: result.L, d: result.d, tol, A, info: {} };
  focus.reset();
  figures.views.metrics.update(result, tol);
  status.busy(`Drawing L = ${result.L}…`);
  try {
    await figures.render.setData(id, result, tol);
    if (!runner.isCurrent(id)) return;
    await figures.rerender(['all']);
  } catch (e) {
    status.setMessages('api', [`Drawing failed: ${e.message}`], 'error');
  }
  if (!runner.isCurrent(id)) return;
  figures.setBusy(false);
  const ms = Math.round(performance.now() - t0);
  status.done(`L = ${result.L}, d = ${result.d}: ${result.metrics.success ? 'success' : 'not yet'} · computed and drawn in ${ms} ms in your browser`);
  focus.mark();
  focus.show();
  runs++;
  html.dataset.runs = String(runs);
  setBusyFlag(false);
}

function commitCustom() {
  link.syncCustom(st, tools.pattern);
  link.write(st);
  tools.refreshUI();
  schedule();
}

main().catch((e) => fail('Something went wrong.', String(e && e.message ? e.message : e)));
