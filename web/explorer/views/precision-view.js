// attnx explorer: what the construction shown costs (SPEC §8): which construction, its own facts
// (lp: the margins t* of its linear programs; moment: D = 2m) and the precision report of §8.4
// (input norm, float32 and float64 verdicts, bits(X)), one sentence each. Every number is the
// core's; data-value holds it unrounded.
import { el } from '../../common/dom.js';
import { fmt, fmtInt } from '../format.js';

const WHAT = {
  jl: 'The paper\'s construction (§3): Q = √d·B·P, K = P for a random Gaussian P. It needs many dimensions and few bits.',
  lp: 'Optimal queries (§8.2): the same keys K = P, and for each row the query q_i of a linear program that maximises the margin t by which (R) and (Z) hold. Same weights, far fewer dimensions.',
  moment: 'The moment curve (§8.3): keys K_j = (T₁(t_j), …, T_D(t_j)) at Chebyshev nodes t_j, and for each row a polynomial that is exact on its support and far below elsewhere. D = 2m dimensions at every L, paid for in bits.',
};

function fact(key, name, value, text, desc, ok) {
  const cls = ok === undefined ? 'm-value' : `m-value ${ok ? 'ok' : 'fail'}`;
  return el('div', { class: 'metric', 'data-key': key },
    el('div', { class: 'm-head' }, el('span', { class: 'm-name', text: name }),
      el('span', { class: cls, 'data-metric': key, 'data-value': String(value), text })),
    el('p', { class: 'm-desc', text: desc }));
}

// lp's own facts: the smallest margin, the feasible rows, the solver's iterations.
function lpFacts(r) {
  const { margin, iterations, feasibleRows } = r.lp;
  let tMin = Infinity, its = 0, itMax = 0;
  for (let i = 0; i < margin.length; i++) {
    tMin = Math.min(tMin, margin[i]);
    its += iterations[i];
    itMax = Math.max(itMax, iterations[i]);
  }
  return [
    fact('tMin', 'smallest margin t*', tMin, fmt(tMin), 'min over rows of the LP\'s optimal margin; a row\'s LP is feasible (its query exists at this d) when t* > 0.', tMin > 0),
    fact('feasibleRows', 'feasible rows', feasibleRows, `${fmtInt(feasibleRows)} / ${fmtInt(r.L)}`, 'Rows whose linear program has t* > 0.', feasibleRows === r.L),
    fact('lpIterations', 'solver iterations per row', its / margin.length, `${fmt(its / margin.length, 3)} (max ${itMax})`, 'Interior-point iterations of each row\'s LP (mean and largest).'),
  ];
}

// The precision report (state: available | computing | done | error) as facts; onAsk: the
// button that computes an available one.
function precisionFacts(report, r, onAsk) {
  if (!report || report.state === 'available') {
    const btn = el('button', { type: 'button', class: 'precision-ask', text: 'Compute the precision report' });
    btn.addEventListener('click', () => onAsk && onAsk());
    return [el('p', { class: 'hint', 'data-metric': 'precision', 'data-value': 'available' },
      btn, ` For jl it takes a few L × L × d products (X rounded to fewer bits, logits in float32 and float64): L = ${r.L}, d = ${r.d}.`)];
  }
  if (report.state === 'computing') return [el('p', { class: 'hint', 'data-metric': 'precision', 'data-value': 'computing', text: 'Computing the precision report (X rounded to fewer bits, logits in float32 and float64)…' })];
  if (report.state === 'error') return [el('p', { class: 'field-error', text: `Precision report failed: ${report.message}` })];
  const p = report.precision;
  const bitsText = p.bits === null ? 'not reached' : String(p.bits);
  return [
    fact('inputNorm', 'input norm max‖X_i‖₂', p.inputNorm, fmt(p.inputNorm), 'The largest row of X. Logits are differences of numbers up to its square: the larger, the more digits they need.'),
    fact('fp32', 'float32', p.fp32, p.fp32 ? '✓ holds' : '✗ fails', '(R) and (Z) with X and the logits in float32, as on a GPU (24 significand bits).', p.fp32),
    fact('fp64', 'float64', p.fp64, p.fp64 ? '✓ holds' : '✗ fails', '(R) and (Z) with X and the logits in float64 (53 bits).', p.fp64),
    fact('bits', 'bits(X)', p.bits === null ? 'null' : p.bits, bitsText, bitsSentence(p, r), p.bits !== null && p.bits <= 24),
  ];
}

function bitsSentence(p, r) {
  if (p.bits === null && r.construction === 'moment') return 'Even 53 significand bits of X do not pass: float64 is not enough at this L.';
  if (p.bits === null) return 'Not a matter of bits: (R) and (Z) fail even in float64, the construction itself misses at this d.';
  const vs = p.bits <= 24 ? `float32 has 24` : `more than float32's 24`;
  return `The fewest significand bits of X that still pass, logits in float64 (${vs}).`;
}

// One plain sentence on the lesson of the report, when there is one.
function lesson(r, report) {
  if (!report || report.state !== 'done') return null;
  const p = report.precision;
  if (r.construction === 'moment' && !p.fp32) {
    return `In float32 the moment curve fails at L = ${r.L}${r.metrics.success ? '' : ' (the verdict above is for X stored in float32)'}: its logits are differences of numbers near ${fmt(p.inputNorm * p.inputNorm)}, and float32 keeps about 7 digits. This is the lesson, not a bug: ${r.d} dimensions instead of hundreds are paid for in bits${p.bits === null ? '' : ` (${p.bits} needed)`}.`;
  }
  if (r.construction === 'moment') return `D = ${r.d} dimensions at every L; the bits grow with L instead (${p.bits === null ? 'more than 53' : p.bits} here).`;
  return null;
}

// The construction card section (see the top of this file): fill with show(result), then
// setPrecision(report) when the report arrives.
export class PrecisionView {
  // onAsk(): compute the report of the construction shown (jl: see precision.js).
  constructor(onAsk = null) {
    this.onAsk = onAsk;
    this.root = el('div', { class: 'precision', 'data-construction': '' });
    this.result = null;
    this.report = null;
  }

  show(r) {
    this.result = r;
    this.report = r.precision ? { state: 'done', precision: r.precision } : null;
    this.render();
  }

  setPrecision(report) {
    this.report = report;
    if (this.result) this.render();
  }

  render() {
    const r = this.result, c = r.construction || 'jl';
    this.root.dataset.construction = c;
    const facts = [...(r.lp ? lpFacts(r) : []), ...precisionFacts(this.report, r, this.onAsk)];
    const note = lesson(r, this.report);
    this.root.replaceChildren(
      el('h3', { text: `How X is chosen: ${c}${c === 'moment' ? ` (D = ${r.d})` : ''}` }),
      el('p', { class: 'm-desc', text: WHAT[c] || '' }),
      el('div', { class: 'metric-grid' }, facts),
      note ? el('p', { class: 'lesson', 'data-metric': 'lesson', text: note }) : '');
  }
}
