// attnx web: row inspector. A_i and M_i side by side as paired bars on a log scale; for long rows
// the support plus the largest off-support entries are shown (gaps marked "…").
import { el, svg } from '../dom.js';
import { fmt } from '../format.js';

const MAX_COLS = 28;

export class RowInspector {
  constructor(body) {
    this.body = body;
    this.body.append(el('p', { class: 'hint', text: 'Hover over or click a row of any heatmap (or use the arrow keys on a focused heatmap) to compare A_i with M_i.' }));
  }

  clear(text) {
    this.body.replaceChildren(el('p', { class: 'hint', text }));
  }

  update(row, { L, tau, pinned }) {
    const on = new Map(row.cols.map((j, t) => [j, row.avals[t]]));
    let cols;
    if (L <= MAX_COLS) {
      cols = [...Array(L).keys()];
    } else {
      const off = [];
      for (let j = 0; j < L; j++) if (!on.has(j)) off.push(j);
      off.sort((a, b) => row.M[b] - row.M[a]);
      const room = Math.max(4, MAX_COLS - row.cols.length);
      cols = [...row.cols, ...off.slice(0, room)].sort((a, b) => a - b);
    }
    const shown = [];
    for (const j of cols) {
      if (on.has(j)) shown.push(on.get(j));
      if (row.M[j] > 0) shown.push(row.M[j]);
    }
    const minV = Math.min(...shown.filter((v) => v > 0), 1);
    const lo = Math.max(-16, Math.min(-2, Math.floor(Math.log10(minV))));

    const W = 640, H = 200, left = 40, right = 8, top = 8, bottom = 46;
    const pw = W - left - right, ph = H - top - bottom;
    const y = (v) => (v > 0 ? top + ph * (Math.log10(v) / lo) : top + ph);
    const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `Row ${row.i}: target A and attention M per column, log scale` });
    const step = lo <= -8 ? 2 : 1;
    for (let e = 0; e >= lo; e -= step) {
      const yy = top + ph * (e / lo);
      g.append(svg('line', { class: 'axis', x1: left, x2: W - right, y1: yy, y2: yy }));
      g.append(svg('text', { class: 'axis-text', x: left - 4, y: yy + 3, 'text-anchor': 'end', text: e === 0 ? '1' : `1e${e}` }));
    }
    const n = cols.length;
    const gw = pw / n;
    const bw = Math.max(1.5, Math.min(14, gw * 0.36));
    cols.forEach((j, t) => {
      const cx = left + gw * (t + 0.5);
      const a = on.get(j) || 0, m = row.M[j];
      if (a > 0) {
        g.append(svg('rect', { class: 'bars-a', x: cx - bw - 0.5, y: y(a), width: bw, height: top + ph - y(a) },
          svg('title', { text: `A[${row.i},${j}] = ${a}` })));
      }
      g.append(svg('rect', { class: 'bars-m', x: cx + 0.5, y: y(m), width: bw, height: Math.max(0.5, top + ph - y(m)) },
        svg('title', { text: `M[${row.i},${j}] = ${m}` })));
      if (n <= 40 || on.has(j) || t % Math.ceil(n / 20) === 0) {
        g.append(svg('text', { class: `col-text${on.has(j) ? ' on' : ''}`, x: cx, y: H - bottom + 13, 'text-anchor': 'middle', text: String(j) }));
      }
      if (t > 0 && j - cols[t - 1] > 1) {
        g.append(svg('text', { class: 'gap-text', x: cx - gw / 2, y: H - bottom + 13, 'text-anchor': 'middle', text: '·' }));
      }
    });
    g.append(svg('text', { class: 'axis-text', x: left + pw / 2, y: H - 2, 'text-anchor': 'middle', text: L <= MAX_COLS ? 'column j (bold = support)' : 'column j: the support (bold) and the largest other entries of M' }));

    const head = el('div', { class: 'insp-head' },
      el('strong', { text: `Row i = ${row.i}${pinned ? ' (pinned)' : ''}` }),
      el('span', { class: 'key' }, el('span', { class: 'sw a' }), 'target A_i'),
      el('span', { class: 'key' }, el('span', { class: 'sw m' }), 'attention M_i'));
    const facts = el('p', { class: 'facts', text:
      `support S_i = {${row.cols.join(', ')}} · row ratio error ${fmt(row.rho)} · row zero ratio ${fmt(row.zeta)} (τ = ${fmt(tau)}) · mass off the support ${fmt(row.leaked)}` });
    this.body.replaceChildren(head, g, facts);
  }
}
