// attnx lab: a tiny SVG builder and the plots' colour themes. Plots use presentation attributes
// only (no style attributes: the page's CSP forbids them), so an exported SVG is self-contained.
export const SVG_NS = 'http://www.w3.org/2000/svg';

export function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

export function text(parent, x, y, str, attrs = {}) {
  const t = el('text', { x, y, ...attrs }, parent);
  t.textContent = str;
  return t;
}

export function title(parent, str) {
  const t = el('title', {}, parent);
  t.textContent = str;
  return t;
}

// Okabe–Ito colours (colour-blind safe), tuned for light and dark backgrounds.
export const THEMES = {
  light: {
    bg: '#ffffff', ink: '#1b1f24', muted: '#5a6270', grid: '#e6e9ee', frame: '#b9c0ca',
    dots: '#4d5563', median: '#0072B2', quantile: '#D55E00', logFit: '#009E73', powerFit: '#CC79A7',
    dStar: '#B8860B', notReached: '#D55E00', band: '#0072B2', bandOpacity: 0.09, pending: '#9aa3b2',
    viridis: [0, 0.82],
  },
  dark: {
    bg: '#1d2128', ink: '#e6e9ee', muted: '#9aa3b2', grid: '#2b313b', frame: '#4a525f',
    dots: '#c3cad6', median: '#56B4E9', quantile: '#FF8C4A', logFit: '#2BC49A', powerFit: '#E89AC7',
    dStar: '#F0C04A', notReached: '#FF8C4A', band: '#56B4E9', bandOpacity: 0.13, pending: '#6b7482',
    viridis: [0.34, 1],
  },
};

export function currentTheme() {
  const dark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
  return dark ? THEMES.dark : THEMES.light;
}

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

// Creates the root <svg> of a plot with a background (so exports look the same as the page).
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

// Lays out legend entries left to right, wrapping; each entry draws its own swatch (24 px).
// entries: [{ label, draw(g, x, y) }]. Returns the height used.
export function legend(parent, entries, x0, y0, maxW) {
  const g = el('g', { 'font-size': 12 }, parent);
  let x = x0, y = y0;
  const rowH = 18;
  for (const e of entries) {
    const w = 30 + e.label.length * 6.6 + 14;
    if (x + w > x0 + maxW && x > x0) { x = x0; y += rowH; }
    const item = el('g', { class: 'legend-item' }, g);
    e.draw(item, x, y);
    text(item, x + 28, y + 4, e.label, { fill: e.ink });
    x += w;
  }
  return y - y0 + rowH;
}

// Rough layout pass: how tall a legend would be (same metrics as legend()).
export function legendHeight(labels, maxW) {
  let x = 0, rows = 1;
  for (const l of labels) {
    const w = 30 + l.length * 6.6 + 14;
    if (x + w > maxW && x > 0) { x = 0; rows++; }
    x += w;
  }
  return rows * 18;
}

export function viridisColor(lut, t) {
  const i = Math.max(0, Math.min(255, Math.round(t * 255)));
  const h = (v) => v.toString(16).padStart(2, '0');
  return `#${h(lut[3 * i])}${h(lut[3 * i + 1])}${h(lut[3 * i + 2])}`;
}
