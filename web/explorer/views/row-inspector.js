// attnx explorer: row inspector. A_i and M_i side by side as paired bars on a log scale; for long
// rows the support plus the largest off-support entries are shown (gaps marked "·"); under them
// the core's row report (rho_i, zeta_i, lambda_i and the verdicts of (R) and (Z) for the row).
import { el, svg } from '../../common/dom.js';
import { fmt } from '../format.js';

const MAX_COLS = 28;
const W = 640, H = 200, LEFT = 40, RIGHT = 8, TOP = 8, BOTTOM = 46;

// Columns to draw: all when L is small, else the support and the largest other entries of M_i.
function columnsToShow(row, on, L) {
  if (L <= MAX_COLS) return [...Array(L).keys()];
  const off = [];
  for (let j = 0; j < L; j++) if (!on.has(j)) off.push(j);
  off.sort((a, b) => row.M[b] - row.M[a]);
  const room = Math.max(4, MAX_COLS - row.cols.length);
  return [...row.cols, ...off.slice(0, room)].sort((a, b) => a - b);
}

// Lowest decade of the log axis: below the smallest positive value shown, within [1e-16, 1e-2].
function lowestDecade(row, on, cols) {
  let minV = 1;
  for (const j of cols) {
    if (on.has(j) && on.get(j) > 0) minV = Math.min(minV, on.get(j));
    if (row.M[j] > 0) minV = Math.min(minV, row.M[j]);
  }
  return Math.max(-16, Math.min(-2, Math.floor(Math.log10(minV))));
}

function axis(g, lo) {
  const ph = H - TOP - BOTTOM;
  const step = lo <= -8 ? 2 : 1;
  for (let e = 0; e >= lo; e -= step) {
    const yy = TOP + ph * (e / lo);
    g.append(svg('line', { class: 'axis', x1: LEFT, x2: W - RIGHT, y1: yy, y2: yy }));
    g.append(svg('text', { class: 'axis-text', x: LEFT - 4, y: yy + 3, 'text-anchor': 'end', text: e === 0 ? '1' : `1e${e}` }));
  }
}

// The SVG bar chart of A_i and M_i over the shown columns.
function barChart(row, L) {
  const on = new Map(row.cols.map((j, t) => [j, row.avals[t]]));
  const cols = columnsToShow(row, on, L);
  const lo = lowestDecade(row, on, cols);
  const pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
  const y = (v) => (v > 0 ? TOP + ph * (Math.log10(v) / lo) : TOP + ph);
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `Row ${row.i}: target A and attention M per column, log scale` });
  axis(g, lo);
  const n = cols.length, gw = pw / n;
  const bw = Math.max(1.5, Math.min(14, gw * 0.36));
  cols.forEach((j, t) => {
    const cx = LEFT + gw * (t + 0.5);
    const a = on.get(j) || 0, m = row.M[j];
    if (a > 0) {
      g.append(svg('rect', { class: 'bars-a', x: cx - bw - 0.5, y: y(a), width: bw, height: TOP + ph - y(a) },
        svg('title', { text: `A[${row.i},${j}] = ${a}` })));
    }
    g.append(svg('rect', { class: 'bars-m', x: cx + 0.5, y: y(m), width: bw, height: Math.max(0.5, TOP + ph - y(m)) },
      svg('title', { text: `M[${row.i},${j}] = ${m}` })));
    if (n <= 40 || on.has(j) || t % Math.ceil(n / 20) === 0) {
      g.append(svg('text', { class: `col-text${on.has(j) ? ' on' : ''}`, x: cx, y: H - BOTTOM + 13, 'text-anchor': 'middle', text: String(j) }));
    }
    if (t > 0 && j - cols[t - 1] > 1) {
      g.append(svg('text', { class: 'gap-text', x: cx - gw / 2, y: H - BOTTOM + 13, 'text-anchor': 'middle', text: '·' }));
    }
  });
  g.append(svg('text', { class: 'axis-text', x: LEFT + pw / 2, y: H - 2, 'text-anchor': 'middle', text: L <= MAX_COLS ? 'column j (bold = support)' : 'column j: the support (bold) and the largest other entries of M' }));
  return g;
}

// One line on row i's query (the row of X W_Q) and what chose it: the construction's per-row
// values (schema.constructions[].rowReport: lp's margin t*_i and iterations, moment's multiplier
// λ_i), each named by the core's words (schema.metrics['row:' + key]). inputs: state.js
// constructionInputs (X only for constructions with a row query); words: schema.metrics.
export function queryFacts(i, inputs, words) {
  if (!inputs) return '';
  const { D, X, rowValues } = inputs;
  if (!X) return '';  // a construction without a row query: X stays in the worker
  const q = X.subarray(i * 2 * D, i * 2 * D + D);
  let n2 = 0;
  for (const v of q) n2 += v * v;
  const shown = Array.from(q.subarray(0, 6), (v) => fmt(v)).join(', ');
  let text = `query Q_i (${D} coordinates) = (${shown}${D > 6 ? ', …' : ''}), ‖Q_i‖ = ${fmt(Math.sqrt(n2))}`;
  for (const [key, values] of Object.entries(rowValues || {})) {
    const w = words && words[`row:${key}`];
    const name = w ? [w.label, w.symbol].filter(Boolean).join(' ') : key;
    text += ` · ${name} = ${fmt(values[i])}${w ? ` (${w.help.replace(/\.$/, '')})` : ''}`;
  }
  return text;
}

// The row inspector card (see the top of this file).
export class RowInspector {
  // body: the element the inspector fills (a hint until the first row); words: schema.metrics.
  constructor(body, words) {
    this.body = body;
    this.words = words;
    this.body.append(el('p', { class: 'hint', text: 'Hover over or click a row of any heatmap (or use the arrow keys on a focused heatmap) to compare A_i with M_i.' }));
  }

  // Shows only the hint `text` (no row chosen).
  clear(text) {
    this.body.replaceChildren(el('p', { class: 'hint', text }));
  }

  // Shows row `row` (render-data.js rowSlice: support, M_i, the core's rho_i, zeta_i, lambda_i and
  // verdicts) for a construction of length L with tolerance tau; pinned marks a clicked row;
// inputs (optional): the construction's inputs for the row's query (queryFacts).
  update(row, { L, tau, pinned, inputs }) {
    const head = el('div', { class: 'insp-head' },
      el('strong', { text: `Row i = ${row.i}${pinned ? ' (pinned)' : ''}` }),
      el('span', { class: 'key' }, el('span', { class: 'sw a' }), 'target A_i'),
      el('span', { class: 'key' }, el('span', { class: 'sw m' }), 'attention M_i'));
    const verdict = (ok, name) => `${name} ${ok ? 'holds' : 'fails'}`;
    const facts = el('p', { class: 'facts', text:
      `support S_i = {${row.cols.join(', ')}} · row ratio error ρ_i ${fmt(row.rho)}, ${verdict(row.okR, '(R)')} · `
      + `row zero ratio ζ_i ${fmt(row.zeta)} (τ = ${fmt(tau)}), ${verdict(row.okZ, '(Z)')} · mass off the support λ_i ${fmt(row.lambda)}` });
    const query = queryFacts(row.i, inputs, this.words);
    this.body.replaceChildren(head, barChart(row, L), facts, query ? el('p', { class: 'facts query', 'data-row-query': String(row.i), text: query }) : '');
  }
}
