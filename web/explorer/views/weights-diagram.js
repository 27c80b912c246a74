// attnx explorer: the fixed weights W_Q = [I; 0], W_K = [0; I] (2d x d) as a small SVG block diagram,
// next to X = [sqrt(d) B P, P] and the products they select.
import { svg } from '../../common/dom.js';

function block(x, y, w, h, ident, label, zeroLabel) {
  const g = svg('g', {});
  g.append(svg('rect', { class: 'mat', x, y, width: w, height: h }));
  if (ident) g.append(svg('line', { class: 'ident', x1: x + 3, y1: y + 3, x2: x + w - 3, y2: y + h - 3 }));
  if (zeroLabel) g.append(svg('text', { class: 'zero', x: x + w / 2, y: y + h / 2 + 5, 'text-anchor': 'middle', text: '0' }));
  if (label) g.append(svg('text', { class: 'small', x: x + w + 4, y: y + h / 2 + 4, text: label }));
  return g;
}

// The SVG diagram of W_Q, W_K (2d x d) and the products they select, for hidden size d.
export function weightsDiagram(d) {
  const W = 400, H = 214;
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': 'Fixed weights: W_Q is the identity on top of a zero block, W_K is a zero block on top of the identity. They are the same for every target pattern.' });
  const bw = 44, bh = 60, y0 = 26;
  // W_Q
  s.append(svg('text', { x: 20, y: 16, text: 'W' }, svg('tspan', { 'baseline-shift': 'sub', 'font-size': '9', text: 'Q' })));
  s.append(block(20, y0, bw, bh, true, null, false));
  s.append(block(20, y0 + bh, bw, bh, false, null, true));
  s.append(svg('text', { class: 'small', x: 20 + bw / 2, y: y0 + 2 * bh + 14, 'text-anchor': 'middle', text: `${2 * d} × ${d}` }));
  // W_K
  s.append(svg('text', { x: 110, y: 16, text: 'W' }, svg('tspan', { 'baseline-shift': 'sub', 'font-size': '9', text: 'K' })));
  s.append(block(110, y0, bw, bh, false, null, true));
  s.append(block(110, y0 + bh, bw, bh, true, null, false));
  s.append(svg('text', { class: 'small', x: 110 + bw / 2, y: y0 + 2 * bh + 14, 'text-anchor': 'middle', text: `${2 * d} × ${d}` }));
  // identity labels
  s.append(svg('text', { class: 'small', x: 20 + bw + 4, y: y0 + bh / 2 + 4, text: 'I' }));
  s.append(svg('text', { class: 'small', x: 110 + bw + 4, y: y0 + bh + bh / 2 + 4, text: 'I' }));
  // Equations
  const ex = 180;
  const lines = [
    ['Q = X·W', 'Q', ' = √d·B·P'],
    ['K = X·W', 'K', ' = P'],
    ['Z = Q·Kᵀ/√d', '', ' = B·P·Pᵀ ≈ B'],
    ['M = softmax', '', '(Z) row-wise'],
  ];
  lines.forEach(([a, sub, b], t) => {
    const tx = svg('text', { x: ex, y: y0 + 18 + t * 30 });
    tx.append(a);
    if (sub) tx.append(svg('tspan', { 'baseline-shift': 'sub', 'font-size': '9', text: sub }));
    tx.append(svg('tspan', { text: b }));
    s.append(tx);
  });
  s.append(svg('text', { class: 'small', x: 20, y: H - 20, text: 'The same two matrices for every pattern, L and seed:' }));
  s.append(svg('text', { class: 'small', x: 20, y: H - 6, text: 'only the input X changes.' }));
  return s;
}
