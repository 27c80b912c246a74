// attnx explorer: what the construction shown costs (SPEC §8): which construction, its own facts
// (schema.constructions[].report: lp's margins t*, opt's steps; moment: D = 2m) and the precision report of §8.4
// (input norm, float32 and float64 verdicts, bits(X)), one sentence each: the core's words
// (schema.metrics, schema.constructions[].summary). Every number is the core's; data-value holds
// it unrounded.
import { el } from '../../common/dom.js';
import { constructionOf } from '../../common/schema-table.js';
import { fmt, fmtInt } from '../format.js';
import { precisionText } from '../metric-text.js';

function fact(key, name, value, text, desc, ok) {
  const cls = ok === undefined ? 'm-value' : `m-value ${ok ? 'ok' : 'fail'}`;
  return el('div', { class: 'metric', 'data-key': key },
    el('div', { class: 'm-head' }, el('span', { class: 'm-name', text: name }),
      el('span', { class: cls, 'data-metric': key, 'data-value': String(value), text })),
    el('p', { class: 'm-desc', text: desc }));
}

// Whether report value v passes its field's rule (schema: 'positive', 'allRows', 'set'; none:
// undefined, drawn without a verdict).
function reportOk(ok, v, L) {
  if (ok === 'positive') return v > 0;
  if (ok === 'allRows') return v === L;
  if (ok === 'set') return !!v;
  return undefined;
}

// The construction's own facts, as the core lists them (schema.constructions[].report: lp's
// feasible rows, smallest margin and solver iterations; opt's steps and penalty), one each.
function reportFacts(r, info, words) {
  if (!r.report) return [];
  return info.report.map(({ key, kind, ok }) => {
    const v = r.report[key];
    const text = kind === 'flag' ? (v ? 'yes' : 'no')
      : kind === 'count' ? (ok === 'allRows' ? `${fmtInt(v)} / ${fmtInt(r.L)}` : fmtInt(v)) : fmt(v);
    return fact(key, words[key].label, String(v), text, words[key].help, reportOk(ok, v, r.L));
  });
}

// The precision report (state: available | computing | done | error) as facts; onAsk: the
// button that computes an available one.
function precisionFacts(report, r, onAsk, info, words) {
  if (!report || report.state === 'available') {
    const btn = el('button', { type: 'button', class: 'precision-ask', text: 'Compute the precision report' });
    btn.addEventListener('click', () => onAsk && onAsk());
    return [el('p', { class: 'hint', 'data-metric': 'precision', 'data-value': 'available' },
      btn, ` For ${r.construction} it takes a few L × L × d products (X rounded to fewer bits, logits in float32 and float64): L = ${r.L}, d = ${r.d}.`)];
  }
  if (report.state === 'computing') return [el('p', { class: 'hint', 'data-metric': 'precision', 'data-value': 'computing', text: 'Computing the precision report (X rounded to fewer bits, logits in float32 and float64)…' })];
  if (report.state === 'error') return [el('p', { class: 'field-error', text: `Precision report failed: ${report.message}` })];
  const p = report.precision;
  return [
    fact('inputNorm', words.inputNorm.label, p.inputNorm, precisionText.inputNorm(p), words.inputNorm.help),
    fact('fp32', words.fp32.label, p.fp32, precisionText.fp32(p), words.fp32.help, p.fp32),
    fact('fp64', words.fp64.label, p.fp64, precisionText.fp64(p), words.fp64.help, p.fp64),
    fact('bits', words.bits.label, p.bits === null ? 'null' : p.bits, precisionText.bits(p), bitsSentence(p, info, words), p.bits !== null && p.bits <= 24),
  ];
}

// What bits(X) says here. info: the construction's properties (D = 2m: a fixed dimension, so
// failing even in float64 is a matter of bits, not of d).
function bitsSentence(p, info, words) {
  if (p.bits === null && info.dimension === '2m') return 'Even 53 significand bits of X do not pass: float64 is not enough at this L.';
  if (p.bits === null) return 'Not a matter of bits: (R) and (Z) fail even in float64, the construction itself misses at this d.';
  const vs = p.bits <= 24 ? `float32 has 24` : `more than float32's 24`;
  return `${words.bits.help.replace(/\.$/, '')} (${vs}).`;
}

// One plain sentence on the lesson of the report, when there is one: a construction whose D is
// fixed by the pattern pays for it in bits.
function lesson(r, report, info) {
  if (!report || report.state !== 'done' || info.dimension !== '2m') return null;
  const p = report.precision;
  if (!p.fp32) {
    return `In float32 the moment curve fails at L = ${r.L}${r.metrics.success ? '' : ' (the verdict above is for X stored in float32)'}: its logits are differences of numbers near ${fmt(p.inputNorm * p.inputNorm)}, and float32 keeps about 7 digits. This is the lesson, not a bug: ${r.d} dimensions instead of hundreds are paid for in bits${p.bits === null ? '' : ` (${p.bits} needed)`}.`;
  }
  return `D = ${r.d} dimensions at every L; the bits grow with L instead (${p.bits === null ? 'more than 53' : p.bits} here).`;
}

// The construction card section (see the top of this file): fill with show(result), then
// setPrecision(report) when the report arrives.
export class PrecisionView {
  // onAsk(): compute the report of the construction shown (jl: see precision.js); schema: the core's.
  constructor(onAsk, schema) {
    this.onAsk = onAsk;
    this.schema = schema;
    this.root = el('div', { class: 'precision', 'data-construction': '' });
    this.result = null;
    this.report = null;
    this.asked = null;  // construction|L|d of the button drawn while a report is only available
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

  // Draws the section. While the report is only available, a result of the same construction, L
  // and d draws the same button: it is kept, not built again, so a click on it that arrives as a
  // new result is drawn (the same settings computed again, e.g. for X's images) is not lost
  // between its press and its release.
  render() {
    const r = this.result, c = r.construction, words = this.schema.metrics;
    const same = `${c}|${r.L}|${r.d}`;
    const info = constructionOf(this.schema, c);
    const asking = !info.precisionAlways && (!this.report || this.report.state === 'available');
    if (asking && this.asked === same) return;
    this.asked = asking ? same : null;
    this.root.dataset.construction = c;
    const facts = [...reportFacts(r, info, words), ...precisionFacts(this.report, r, this.onAsk, info, words)];
    const note = lesson(r, this.report, info);
    this.root.replaceChildren(
      el('h3', { text: `How X is chosen: ${c}${info.dimension === '2m' ? ` (D = ${r.d})` : ''}` }),
      el('p', { class: 'm-desc', text: info.summary }),
      el('div', { class: 'metric-grid' }, facts),
      note ? el('p', { class: 'lesson', 'data-metric': 'lesson', text: note }) : '');
  }
}
