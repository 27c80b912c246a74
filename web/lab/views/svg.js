// attnx lab: a tiny SVG builder, the plots' colour themes and the frame both plots share. Plots
// use presentation attributes only (no style attributes: the page's CSP forbids them), so an
// exported SVG is self-contained.
const SVG_NS = 'http://www.w3.org/2000/svg';

// Creates an SVG element with the given attributes (null/undefined ones are skipped) and appends
// it to `parent` when given. Returns the element.
export function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

// Appends a <text> at (x, y) holding `str` (as text, never markup). Returns it.
export function text(parent, x, y, str, attrs = {}) {
  const t = el('text', { x, y, ...attrs }, parent);
  t.textContent = str;
  return t;
}

// Appends a <title> (the hover text and accessible name of its parent). Returns it.
export function title(parent, str) {
  const t = el('title', {}, parent);
  t.textContent = str;
  return t;
}

// Okabe–Ito colours (colour-blind safe), tuned for light and dark backgrounds: each role's
// [light, dark] value, so the two themes always have the same roles.
const PALETTE = {
  bg: ['#ffffff', '#1d2128'],
  ink: ['#1b1f24', '#e6e9ee'],
  muted: ['#5a6270', '#9aa3b2'],
  grid: ['#e6e9ee', '#2b313b'],
  frame: ['#b9c0ca', '#4a525f'],
  dots: ['#4d5563', '#c3cad6'],
  median: ['#0072B2', '#56B4E9'],
  quantile: ['#D55E00', '#FF8C4A'],
  logFit: ['#009E73', '#2BC49A'],
  powerFit: ['#CC79A7', '#E89AC7'],
  dStar: ['#B8860B', '#F0C04A'],
  notReached: ['#D55E00', '#FF8C4A'],
  band: ['#0072B2', '#56B4E9'],
  bandOpacity: [0.09, 0.13],
  pending: ['#9aa3b2', '#6b7482'],
  viridis: [[0, 0.82], [0.34, 1]],
  // The comparison's constructions, by their place in the schema's order (plot-compare.js inkOf).
  constructions: [['#0072B2', '#009E73', '#CC79A7', '#E69F00'], ['#56B4E9', '#2BC49A', '#E89AC7', '#F5B940']],
  reference: ['#5a6270', '#9aa3b2'],
};
// One theme: every role's value at `which` (0: light, 1: dark).
const themeOf = (which) => Object.fromEntries(Object.entries(PALETTE).map(([role, pair]) => [role, pair[which]]));
const THEMES = { light: themeOf(0), dark: themeOf(1) };

// The plots' colours: dark or light (the lab's scheme, which its host decides: see mount.js).
export function currentTheme(dark) {
  return dark ? THEMES.dark : THEMES.light;
}

// Font stack of the plots (written into exported SVGs too).
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

// Empties `container` and gives it a new root <svg> of w x h with a title and a background
// rectangle (so exports look the same as the page). Returns the <svg>.
export function svgRoot(container, w, h, theme, label) {
  container.textContent = '';
  const svg = el('svg', {
    xmlns: SVG_NS, width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: 'img',
    'font-family': FONT, 'font-size': 12, fill: theme.ink,
  }, container);
  title(svg, label);
  el('rect', { x: 0, y: 0, width: w, height: h, fill: theme.bg }, svg);
  return svg;
}

const entryWidth = (label) => 30 + label.length * 6.6 + 14;

// Lays out legend entries left to right from (x0, y0), wrapping at maxW; each entry draws its own
// 24 px swatch. entries: [{ label, ink, draw(g, x, y) }]. Returns the height used.
export function legend(parent, entries, x0, y0, maxW) {
  const g = el('g', { 'font-size': 12 }, parent);
  let x = x0, y = y0;
  const rowH = 18;
  for (const e of entries) {
    const w = entryWidth(e.label);
    if (x + w > x0 + maxW && x > x0) { x = x0; y += rowH; }
    const item = el('g', { class: 'legend-item' }, g);
    e.draw(item, x, y);
    text(item, x + 28, y + 4, e.label, { fill: e.ink });
    x += w;
  }
  return y - y0 + rowH;
}

// How tall legend() would be for these labels within maxW (same metrics, no DOM).
function legendHeight(labels, maxW) {
  let x = 0, rows = 1;
  for (const l of labels) {
    const w = entryWidth(l);
    if (x + w > maxW && x > 0) { x = 0; rows++; }
    x += w;
  }
  return rows * 18;
}

// Colour "#rrggbb" at t in [0, 1] of a 256-entry RGB lookup table (flat [r, g, b, ...]).
export function viridisColor(lut, t) {
  const i = Math.max(0, Math.min(255, Math.round(t * 255)));
  const h = (v) => v.toString(16).padStart(2, '0');
  return `#${h(lut[3 * i])}${h(lut[3 * i + 1])}${h(lut[3 * i + 2])}`;
}

// Pixel layout of a plot `width` wide: margins m, plot-area height, whether it is compact, and the
// plot box { x0, x1, y0 (bottom), y1 (top) }. opts: { left: [compact, wide] margin, top, heightRatio,
// minH, maxH } as the plot needs them.
export function plotLayout(width, { left, top, heightRatio, minH, maxH }) {
  const W = Math.max(300, Math.round(width));
  const compact = W < 520;
  const m = { l: compact ? left[0] : left[1], r: compact ? 10 : 18, t: top, b: 44 };
  const plotH = Math.round(Math.min(maxH, Math.max(minH, W * heightRatio)));
  return { W, compact, m, plotH, box: { x0: m.l, x1: W - m.r, y0: m.t + plotH, y1: m.t } };
}

// Height of a plot with this layout and these legend entries; also the legend's width.
export function plotHeight(layout, entries) {
  const legW = layout.W - layout.m.l - layout.m.r;
  const legH = entries.length ? legendHeight(entries.map((e) => e.label), legW) + 6 : 0;
  return { H: layout.m.t + layout.plotH + layout.m.b + legH, legW };
}

// Grid lines, the frame and the axis titles of a plot. yTicks/xTicks: [{ v, label, anchor?, x? }]
// (x overrides the label's position); ys/xs map values to pixels. Returns the axis-label group.
export function drawFrame(svg, theme, layout, { xs, ys, xTicks, yTicks, xTitle, yTitle }) {
  const { x0, x1, y0, y1 } = layout.box;
  const grid = el('g', { stroke: theme.grid, 'stroke-width': 1 }, svg);
  const axis = el('g', { fill: theme.muted, 'font-size': layout.compact ? 11 : 12 }, svg);
  for (const t of yTicks) {
    el('line', { x1: x0, y1: ys(t.v), x2: x1, y2: ys(t.v) }, grid);
    text(axis, x0 - 6, ys(t.v) + 4, t.label, { 'text-anchor': 'end' });
  }
  for (const t of xTicks) {
    el('line', { x1: xs(t.v), y1: y0, x2: xs(t.v), y2: y1 }, grid);
    text(axis, t.x ?? xs(t.v), y0 + 16, t.label, { 'text-anchor': t.anchor ?? 'middle' });
  }
  el('rect', { x: x0, y: y1, width: x1 - x0, height: y0 - y1, fill: 'none', stroke: theme.frame }, svg);
  text(axis, (x0 + x1) / 2, y0 + 34, xTitle, { 'text-anchor': 'middle', fill: theme.ink });
  const tx = layout.compact ? 11 : yTitle.offset;
  text(axis, 0, 0, yTitle.text, { 'text-anchor': 'middle', fill: theme.ink, transform: `translate(${tx} ${(y0 + y1) / 2}) rotate(-90)` });
  return axis;
}

// A group clipped to the plot box grown by `pad` pixels (id must be unique in the page).
export function clippedArea(svg, id, box, pad = 0) {
  const cp = el('clipPath', { id }, el('defs', {}, svg));
  el('rect', { x: box.x0 - pad, y: box.y1 - pad, width: box.x1 - box.x0 + 2 * pad, height: box.y0 - box.y1 + 2 * pad }, cp);
  return el('g', { 'clip-path': `url(#${id})` }, svg);
}

// A legend swatch: a 22 px line. Returns draw(g, x, y) for a legend entry.
export function lineSwatch(color, dash, width = 2) {
  return (g, x, y) => el('line', { x1: x, y1: y, x2: x + 22, y2: y, stroke: color, 'stroke-width': width, 'stroke-dasharray': dash }, g);
}
