// attnx web: the explorer page. Wires the state (mirrored in the URL hash), the settings form,
// the worker pool (all computation), the render worker (all L^2 loops) and the views.
import { createPool } from '../lib/pool.js';
import { parseHash, toHash } from '../common/hashstate.js';
import { VIRIDIS } from '../common/viridis.js';
import { DIVERGING } from '../common/diverging.js';
import { normalisePatterns } from './patterns-info.js';
import { buildTable, constructOptions, COMPUTE_FIELDS } from './state.js';
import { CustomPattern } from './custom-pattern.js';
import { CustomTools } from './custom-tools.js';
import { RowFocus } from './row-focus.js';
import { Controls } from './controls.js';
import { Runner } from './runner.js';
import { RenderClient } from './render-client.js';
import { MatrixView } from './views/matrix-view.js';
import { MetricsView } from './views/metrics-view.js';
import { RowInspector } from './views/row-inspector.js';
import { ConstructionView } from './views/construction-view.js';
import { StatusView } from './views/status-view.js';
import { attachPointer } from './views/figure-pointer.js';
import { attachDrawing } from './views/draw-editor.js';
import { setupShare } from './share.js';
import { fmt, pow10 } from './format.js';

const $ = (id) => document.getElementById(id);
const html = document.documentElement;
const status = new StatusView({ text: $('status-text'), progress: $('progress'), list: $('messages') });

const VIEW_FIELDS = ['scale', 'ref'];
let info, table, st, controls, runner, render, share;
let tools;               // CustomTools (owns the custom pattern)
let current = null;      // { id, L, d, tol, A: { rows, cols, vals }, rowPtr, result meta, info }
let focus;               // RowFocus (hovered / pinned row)
let runs = 0;

const views = {};

function setBusyFlag(b) {
  html.dataset.busy = b ? '1' : '0';
}

async function main() {
  setBusyFlag(true);
  let pool;
  try {
    pool = await createPool();
    info = normalisePatterns(await pool.run('patterns', {}));
  } catch (e) {
    status.done('The WebAssembly module could not be loaded.');
    status.setMessages('api', [`Could not start the computation: ${e && e.message ? e.message : e}. Serve this folder over http (npm start) and use a browser with WebAssembly SIMD.`], 'error');
    setBusyFlag(false);
    return;
  }
  table = buildTable(info);
  render = new RenderClient();
  runner = new Runner(pool, {
    onProgress: (id, p) => {
      const f = typeof p === 'number' ? p : p && (p.fraction ?? (p.total ? p.done / p.total : undefined));
      status.progressed(f, p && p.phase ? `Computing: ${p.phase}…` : null);
    },
  });

  views.A = new MatrixView($('fig-A'), { title: 'Target A', desc: 'The sparse pattern to reproduce; each row sums to 1.' });
  views.M = new MatrixView($('fig-M'), { title: 'Achieved attention M', desc: 'softmax(XW_Q (XW_K)ᵀ/√d), fixed weights; same scale as A.' });
  views.err = new MatrixView($('fig-err'), { title: 'Ratio error on the support', desc: '(Z_ij − ln A_ij) minus its row mean; (R): row spread ≤ ε.' });
  views.zero = new MatrixView($('fig-zero'), { title: 'Zero ratio off the support', desc: 'exp(Z_ij − min_{S_i} Z) = M_ij / min_{S_i} M; (Z): ≤ τ.' });
  views.err.wrap.classList.add('na-dark');
  views.zero.wrap.classList.add('na-dark');
  views.metrics = new MetricsView($('metrics-body'), $('summary'));
  views.inspector = new RowInspector($('inspector-body'));
  views.cons = new ConstructionView($('construction-body'));
  focus = new RowFocus({ views, render, getState: () => st, getCurrent: () => current });

  controls = new Controls({
    info, table,
    containers: { pattern: $('pattern-fields'), construct: $('construct-fields'), view: $('view-fields') },
    onChange: (name, value) => update({ [name]: value }),
    onNewSeed: () => update({ seed: Math.floor(Math.random() * 1e6) }),
  });

  for (const key of ['A', 'M', 'err', 'zero']) {
    attachPointer(views[key], {
      getL: () => current && current.L,
      startRow: () => st.row,
      onHover: (c, view) => focus.onHover(c, view),
      onPick: (c, view) => {
        if (view === views.A && tools.drawingEnabled()) return;
        update({ row: st.row === c.i ? -1 : c.i }, { compute: false });
      },
      onKeyAct: (c, view) => {
        if (view === views.A && tools.drawingEnabled()) {
          tools.pushUndo();
          tools.toggle(c, null);
          commitCustom();
        } else update({ row: st.row === c.i ? -1 : c.i }, { compute: false });
      },
    });
  }
  tools = new CustomTools({
    info, viewA: views.A,
    getState: () => st, getCurrent: () => current,
    update: (patch) => update(patch), onEdited: commitCustom, budget: () => budgets().budget,
  });
  attachDrawing(views.A, {
    enabled: () => tools.drawingEnabled(),
    begin: () => tools.pushUndo(),
    toggle: (c, mode) => tools.toggle(c, mode),
    end: commitCustom,
  });
  share = setupShare({
    copyBtn: $('copy-link'), out: $('share-out'), input: $('share-link'), msg: $('share-msg'),
    embedBtn: $('embed-btn'), embedPanel: $('embed-panel'), embedCode: $('embed-code'), embedCopy: $('embed-copy'),
    embedMsg: $('embed-msg'), currentHref: () => location.href, openFull: $('open-full'),
  });
  $('help-btn').addEventListener('click', () => update({ help: !st.help }, { compute: false }));

  watchSize();
  readHash();
  window.addEventListener('hashchange', () => {
    if (location.hash === lastWritten) return;
    readHash();
  });
}

// ---- state ---------------------------------------------------------------------------------

let lastWritten = null;

function readHash() {
  const { state, errors } = parseHash(table, location.hash);
  const msgs = errors.map((e) => `Link: ${e}. The default is used instead.`);
  let custom = null;
  if (state.pattern === 'custom') {
    if (state.cp) {
      const r = CustomPattern.decode(state.L, state.cp, state.cw, info.limits.maxNnzLink);
      if (r.error) {
        msgs.push(`Link: ${r.error}. The identity pattern is used instead.`);
        custom = CustomPattern.identity(state.L);
      } else custom = r.pattern;
    } else custom = CustomPattern.identity(state.L);
  }
  tools.reset(custom);
  status.setMessages('hash', msgs, 'error');
  st = state;
  syncCustomFields();
  afterChange(COMPUTE_FIELDS.concat(VIEW_FIELDS, ['row', 'help', 'embed']));
}

function update(patch, { compute = true } = {}) {
  const prev = st;
  st = { ...st, ...patch };
  const changed = Object.keys(patch).filter((k) => prev[k] !== st[k]);
  if (changed.length === 0) return;
  status.setMessages('hash', []);  // the link's problems are history once the visitor changes something
  tools.follow(st);
  if (st.row >= st.L) st.row = -1;
  // Ranges of parameters depend on L and the family: clamp into them.
  for (const f of info.families.find((x) => x.name === st.pattern)?.params || []) {
    const t = table[f.name];
    const lo = t.min(st), hi = t.max(st);
    if (st[f.name] < lo) st[f.name] = lo;
    if (st[f.name] > hi) st[f.name] = hi;
  }
  syncCustomFields();
  afterChange(changed, compute);
}

function afterChange(changed, compute = true) {
  controls.sync(st);
  writeHash();
  document.body.classList.toggle('embed', st.embed);
  $('explain').hidden = !st.help;
  $('help-btn').textContent = st.help ? 'Hide explanation' : 'Show explanation';
  $('help-btn').setAttribute('aria-expanded', String(st.help));
  tools.refreshUI();
  $('export-json').disabled = !tools.pattern && !current;
  $('export-csv').disabled = !tools.pattern && !current;
  if (compute && changed.some((k) => COMPUTE_FIELDS.includes(k))) schedule();
  else if (changed.some((k) => VIEW_FIELDS.includes(k))) rerender(changed);
  if (changed.includes('row')) {
    focus.mark();
    focus.show();
  }
}

function writeHash() {
  const h = toHash(table, st);
  lastWritten = h;
  const url = `${location.pathname}${location.search}${h}`;
  if (`${location.pathname}${location.search}${location.hash}` !== url) history.replaceState(null, '', url);
  share?.refresh();
}

function syncCustomFields() {
  let note = [];
  const custom = tools.pattern;
  if (st.pattern === 'custom' && custom) {
    if (custom.nnz <= info.limits.maxNnzLink) {
      const e = custom.encode();
      st.cp = e.cp;
      st.cw = e.cw;
    } else {
      st.cp = '';
      st.cw = '';
      note = [`This custom pattern has ${custom.nnz} nonzeros; links hold at most ${info.limits.maxNnzLink}, so "Copy link" will not include it (export it as JSON instead).`];
    }
  } else {
    st.cp = '';
    st.cw = '';
  }
  status.setMessages('link', note, 'warn');
}

// ---- computation and rendering -------------------------------------------------------------

async function schedule() {
  const opts = constructOptions(info, st, tools.pattern);
  const label = `Computing M for L = ${st.L}, d = ${st.d}…`;
  setBusyFlag(true);
  for (const k of ['A', 'M', 'err', 'zero']) views[k].setBusy(true);
  const t0 = performance.now();
  let res;
  status.busy(label);
  try {
    res = await runner.schedule('construct', opts);
  } catch (e) {
    status.done('Not computed.');
    status.setMessages('api', [e && e.message ? e.message : String(e)], 'error');
    for (const k of ['A', 'M', 'err', 'zero']) views[k].setBusy(false);
    setBusyFlag(false);
    return;
  }
  if (!res) return;  // superseded
  status.setMessages('api', []);
  const { id, result } = res;
  const p = result.params || {};
  const tol = { eps: p.eps ?? st.eps, tau: p.tau ?? st.tau, delta: p.delta ?? st.delta };
  const A = { rows: Int32Array.from(result.A.rows), cols: Int32Array.from(result.A.cols), vals: Float64Array.from(result.A.vals) };
  current = { id, L: result.L, d: result.d, tol, A, meta: result, info: {} };
  focus.reset();
  views.metrics.update(result, tol);
  status.busy(`Drawing L = ${result.L}…`);
  try {
    await render.setData(id, result, tol);
    if (!runner.isCurrent(id)) return;
    await rerender(['all']);
  } catch (e) {
    status.setMessages('api', [`Drawing failed: ${e.message}`], 'error');
  }
  if (!runner.isCurrent(id)) return;
  for (const k of ['A', 'M', 'err', 'zero']) views[k].setBusy(false);
  const ms = Math.round(performance.now() - t0);
  status.done(`L = ${result.L}, d = ${result.d}: ${result.metrics.success ? 'success' : 'not yet'} · computed and drawn in ${ms} ms in your browser`);
  focus.mark();
  focus.show();
  runs++;
  html.dataset.runs = String(runs);
  setBusyFlag(false);
}

async function rerender(changed) {
  if (!current) return;
  const all = changed.includes('all');
  const which = [];
  if (all || changed.includes('scale')) which.push('A', 'M');
  if (all || changed.includes('ref')) which.push('err');
  if (all) which.push('zero', 'X');
  const id = current.id;
  const b = budgets();
  const msg = await render.render(id, which, { scale: st.scale, ref: st.ref, ...b });
  if (!msg || !current || current.id !== id) return;
  if (which.includes('A')) current.budget = b.budget;
  Object.assign(current.info, msg.info);
  const L = current.L;
  for (const k of ['A', 'M', 'err', 'zero']) if (msg.images[k]) views[k].draw(msg.images[k], L, L);
  if (msg.images.XB) views.cons.update(msg.images, current.info, { L, d: current.d });
  updateLegends(which);
  views.err.desc.textContent = `(Z_ij − ln A_ij) minus its row ${st.ref === 'min' ? 'minimum' : 'mean'}; (R): row spread ≤ ε.`;
}

// Pixels available on screen: images never have more pixels than the screen shows, so the
// browser never drops rows when scaling down (max-pooling keeps single nonzeros visible).
function budgets() {
  const dpr = window.devicePixelRatio || 1;
  const px = (el, fallback) => Math.floor((el && el.clientWidth ? el.clientWidth : fallback) * dpr);
  const xWrap = views.cons.B.root.querySelector('.canvas-wrap');
  return {
    budget: Math.max(32, Math.min(512, px(views.A.wrap, 512))),
    xRows: Math.max(32, Math.min(512, Math.floor((xWrap && xWrap.clientHeight ? xWrap.clientHeight : 240) * dpr))),
    xCols: Math.max(16, Math.min(512, px(xWrap, 256))),
  };
}

function watchSize() {
  let timer = 0;
  const ro = new ResizeObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (current && current.budget && budgets().budget !== current.budget && html.dataset.busy === '0') rerender(['all']);
    }, 150);
  });
  ro.observe(views.A.wrap);
}

function updateLegends(which) {
  const inf = current.info;
  const pool = inf.pool > 1 ? ` · ${inf.pool}×${inf.pool} cells per pixel (max-pooled)` : '';
  if (which.includes('A')) {
    const leg = st.scale === 'log'
      ? { lo: pow10(inf.logFloor), hi: '1', mids: [], caption: `attention weight, log scale from the smallest entry of M (zeros of A shown at the bottom)${pool}` }
      : { lo: '0', hi: fmt(inf.vmax), mids: [], caption: `attention weight (A and M share this scale)${pool}` };
    views.A.legend.set(VIRIDIS, leg);
    views.M.legend.set(VIRIDIS, leg);
  }
  if (which.includes('err')) {
    views.err.legend.set(DIVERGING, { lo: '−ε', hi: '+ε', caption: `ε = ${fmt(current.tol.eps)}; largest |error| here ${fmt(inf.errMax)}; dark = not on the support` });
  }
  if (which.includes('zero')) {
    const t = current.tol.tau;
    views.zero.legend.set(DIVERGING, {
      lo: '≤ τ/1000', hi: '≥ 10τ',
      map: (x) => (x <= 0.75 ? (0.36 * x) / 0.75 : 0.72 + (0.28 * (x - 0.75)) / 0.25),
      caption: `purple ≤ τ = ${fmt(t)} (holds), orange > τ (fails); largest here ${fmt(10 ** inf.log10ZetaMax)}; dark = support`,
    });
  }
}

function commitCustom() {
  syncCustomFields();
  writeHash();
  tools.refreshUI();
  schedule();
}

main().catch((e) => {
  status.done('Something went wrong.');
  status.setMessages('api', [String(e && e.message ? e.message : e)], 'error');
  setBusyFlag(false);
});

