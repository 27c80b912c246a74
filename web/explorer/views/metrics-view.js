// attnx explorer: the metrics card (SPEC §2, §3.5). Every number and verdict is the core's
// (construct()'s metrics, including okR/okZ); data-value holds it unrounded. One short sentence
// under each says what it means: the core's (schema.metrics), the same words everywhere.
import { el, setChildren } from '../../common/dom.js';
import { fmt, fmtInt, fmtVs } from '../format.js';
import { cardText } from '../metric-text.js';
import { PrecisionView } from './precision-view.js';
import { floorFacts } from '../floors.js';

function item(key, name, value, text, desc, cmp) {
  const v = el('span', { class: 'm-value', 'data-metric': key, 'data-value': String(value), text });
  const head = el('div', { class: 'm-head' }, el('span', { class: 'm-name', text: name }), v);
  const parts = [head];
  if (cmp) parts.push(el('div', { class: `m-cmp ${cmp.ok === undefined ? '' : cmp.ok ? 'ok' : 'fail'}`, text: cmp.text }));
  parts.push(el('p', { class: 'm-desc', text: desc }));
  return el('div', { class: 'metric', 'data-key': key }, parts);
}

// The verdict line: success badge (naming the failing conditions), class tag, L and d.
function verdictLine(r, tol) {
  const { success, okR, okZ } = r.metrics;
  const failing = [!okR && '(R)', !okZ && '(Z)'].filter(Boolean);
  const badge = el('span', {
    class: `badge ${success ? 'ok' : 'fail'}`, 'data-metric': 'success', 'data-value': String(success),
    text: success ? '✓ Success: (R) and (Z) hold' : `✗ Not yet: ${failing.join(' and ')} fail${failing.length === 1 ? 's' : ''}`,
  });
  const cls = el('span', {
    class: `class-tag ${r.inClass ? 'in' : 'out'}`, 'data-metric': 'inClass', 'data-value': String(r.inClass),
    text: r.inClass ? 'inside the theorem\'s class' : 'outside the theorem\'s class',
  });
  return el('div', { class: 'verdict' }, badge, cls, el('span', { class: 'hint', text: `L = ${r.L}, d = ${r.d}` }),
    leakNote(r, tol));
}

// One line next to the verdict on what it does not say: (R) and (Z) bound ratios, not mass, so a
// row can pass both and still put most of its attention off its pattern (lambda, the core's).
function leakNote(r, tol) {
  const lambda = r.metrics.lambda;
  const pct = Number.isFinite(lambda) ? `${Math.round(100 * lambda)} %` : 'an unknown share';
  return el('p', {
    class: 'leak-note',
    text: `λ = ${fmt(lambda)}: up to ${pct} of a row's attention lies off its pattern. (R) and (Z) bound ratios, not mass: each of the at least ${fmtInt(r.L - r.k)} entries off a row's pattern may keep up to τ = ${fmt(tol.tau)} times its smallest entry on it, so at large L most of the mass can leak even when both hold.`,
  });
}

// The d item: d against the heuristic d*, with a bar.
function dItem(r, words) {
  const dStar = r.dStar;
  const ratio = dStar > 0 ? r.d / dStar : Infinity;
  const it = item('d', 'd vs d*(L)', r.d, `${cardText.d(r)} / ${cardText.dStar(r)}`,
    `${words('dStar')} The d you chose is ${fmt(ratio, 2)}× d*.`);
  const fill = el('div', { class: 'dfill' });
  const mark = el('div', { class: 'dmark' });
  const top = Math.max(r.d, dStar) * 1.05 || 1;
  fill.style.width = `${(100 * r.d) / top}%`;
  mark.style.left = `${(100 * dStar) / top}%`;
  it.append(el('div', { class: 'dbar', 'aria-hidden': 'true' }, fill, mark));
  it.querySelector('.m-value').dataset.dstar = String(dStar);
  return it;
}

// A metric's name as the card shows it: the core's label and symbol ("ratio error ρ").
function nameOf(info) {
  return info.symbol && !info.label.includes(info.symbol) ? `${info.label} ${info.symbol}` : info.label;
}

// The SPEC §9 floors beside d (floors.js: the module's numbers, the schema's meanings), one item
// each; data-value holds the floor unrounded.
function floorItems(r, schema, bounds) {
  return floorFacts(r, schema, bounds).map((f) => {
    const it = item(f.key, f.name, f.value, f.text, f.meaning, { text: f.sentence });
    it.classList.add('floor');
    return it;
  });
}

function metricGrid(r, tol, metrics, floors) {
  const m = r.metrics;
  const cmp = (ok, sym, v) => ({ ok, text: `${ok ? '≤' : '>'} ${sym} = ${fmt(v)}` });
  const it = (key, value, text, extra) => item(key, nameOf(metrics[key]), value, text, metrics[key].help, extra);
  return el('div', { class: 'metric-grid' },
    it('rho', m.rho, cardText.rho(r, tol), cmp(m.okR, 'ε', tol.eps)),
    it('zeta', m.zeta, cardText.zeta(r, tol), cmp(m.okZ, 'τ', tol.tau)),
    it('lambda', m.lambda, cardText.lambda(r)),
    it('k', r.k, cardText.k(r)),
    it('maxColCount', r.maxColCount, cardText.maxColCount(r),
      { ok: r.inClass, text: r.inClass ? `≤ k = ${r.k}: inside` : `> k = ${r.k}: outside` }),
    it('beta', m.beta, cardText.beta(r)),
    dItem(r, (key) => metrics[key].help), floors);
}

function summaryParts(r, tol) {
  const m = r.metrics;
  return [
    el('span', { class: `badge small ${m.success ? 'ok' : 'fail'}`, text: m.success ? '✓ (R) and (Z) hold' : '✗ not yet' }),
    el('span', { class: m.okR ? 'ok' : 'fail', text: `ρ = ${fmtVs(m.rho, tol.eps)} ${m.okR ? '≤' : '>'} ε = ${fmt(tol.eps)}` }),
    el('span', { class: m.okZ ? 'ok' : 'fail', text: `ζ = ${fmtVs(m.zeta, tol.tau)} ${m.okZ ? '≤' : '>'} τ = ${fmt(tol.tau)}` }),
    el('span', { class: 's-extra', text: `λ = ${fmt(m.lambda)}` }),
    el('span', { text: `d = ${fmtInt(r.d)} (d* ≈ ${fmtInt(r.dStar)})` }),
    el('span', { class: r.inClass ? 's-extra' : 's-extra fail', text: r.inClass ? `k = ${r.k}, in class` : `outside the class (column count ${r.maxColCount} > k = ${r.k})` }),
  ];
}

// The metrics card and the summary line (see the top of this file).
export class MetricsView {
  // body: the card's content element; summary: the one-line summary above the figures (optional);
  // schema: the core's (the metrics' words, the constructions' properties).
  constructor(body, summary, schema) {
    this.body = body;
    this.summary = summary;
    this.metrics = schema.metrics;
    this.schema = schema;
    this.shown = null;
    this.body.append(el('p', { class: 'hint', text: 'Waiting for the first result…' }));
    this.precision = new PrecisionView(() => this.onAskPrecision && this.onAskPrecision(), schema);
  }

  // Shows construct() result r with its tolerances tol { eps, tau } (the core's params); the
  // verdicts are the core's metrics.okR / okZ / success.
  update(r, tol) {
    this.shown = r;
    this.floors = floorItems(r, this.schema, r.bounds);
    this.body.replaceChildren(verdictLine(r, tol), metricGrid(r, tol, this.metrics, this.floors), this.precision.root);
    this.precision.show(r);
    if (this.summary) setChildren(this.summary, summaryParts(r, tol));
  }

  // The precision report of the result shown ({ state, precision | message }, see precision.js);
  // onAskPrecision (set by the page) computes an 'available' one.
  // A report with bounds (jl's, computed on request) brings w: the floors are shown again with it.
  setPrecision(report) {
    this.precision.setPrecision(report);
    if (!this.shown || !report || report.state !== 'done' || !report.bounds || !this.floors) return;
    const next = floorItems(this.shown, this.schema, report.bounds);
    for (const e of next) this.floors[0].before(e);
    for (const e of this.floors) e.remove();
    this.floors = next;
  }

  // Dims the verdict and the summary (stale: a newer result is being computed) or not.
  setStale(stale) {
    for (const e of [this.body, this.summary]) if (e) e.classList.toggle('stale', stale);
  }
}
