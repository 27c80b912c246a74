// attnx lab: plot 1, minimal d versus L (log L axis). Every trial's d_min as a dot (not reached:
// a triangle in a strip above the frame), the median and (1-delta)-quantile lines, the fits
// d = a + b ln L and d = c L^p, the d*(L) estimate and (for the paper's setting) the paper's band.
// The layers are drawn by plot-dl-layers.js; this file lays the plot out.
import { el, svgRoot, legend, plotLayout, plotHeight, drawFrame, clippedArea, text } from './svg.js';
import { linearTicks, logTicks, makeScale, formatTick } from './scale.js';
import { legendEntries, drawBand, drawPending, drawFits, drawDStar, drawNotReached, drawDots, drawSeries, fmtD } from './plot-dl-layers.js';

// The y range of the plot (DOM-free): covers every reached d, the paper's band when shown
// (band: { lo, hi } or null), and d* only when asked to (it is usually far above the data); dMax
// when nothing was reached. Returns linearTicks' { lo, hi, step, ticks }.
export function yDomain(points, { dMax, band = null, fullDStar = false }) {
  let hi = 0;
  for (const p of points) {
    for (const d of p.d_mins) if (d !== null) hi = Math.max(hi, d);
    if (fullDStar && p.d_star !== null) hi = Math.max(hi, p.d_star);
  }
  if (hi === 0) hi = dMax;
  if (band) hi = Math.max(hi, band.hi);
  return linearTicks(0, hi * 1.06, 6);
}

export { jitter } from './plot-dl-layers.js';

// A plain-language summary of the plot for assistive technology (DOM-free). points/fits as in a
// result; params supplies trials. Returns one paragraph of text.
export function describe(points, fits, params) {
  if (!points.length) return 'No results yet.';
  const med = points.map((p) => `L ${p.L}: median ${fmtD(p.median)}, quantile ${fmtD(p.quantile)}`).join('; ');
  let s = `Minimal d over ${params.trials ?? points[0].d_mins.length} trials per length. ${med}.`;
  if (fits && fits.log.ok) s += ` Logarithmic fit R² ${fits.log.r2.toFixed(3)}.`;
  if (fits && fits.power.ok) s += ` Power fit exponent ${fits.power.p.toFixed(3)}, R² ${fits.power.r2.toFixed(3)}.`;
  return s;
}

// What the plot shows, independent of pixels: points, params, fits, the lengths on the axis
// (gridLs, else the points'), d_max (the result's, else dMax), whether any trial did not reach.
function plotData(res, gridLs, dMax, withDStar) {
  const points = res ? res.points : [];
  const params = res ? res.params : {};
  const Ls = gridLs.length ? gridLs : points.map((p) => p.L);
  return {
    points, params, Ls,
    fits: res ? res.fits : null,
    dMax: params.d_max ?? dMax,
    allL: [...new Set([...Ls, ...points.map((p) => p.L)])].sort((a, b) => a - b),
    hasNR: points.some((p) => p.d_mins.some((d) => d === null)),
    dStars: withDStar ? points.filter((p) => p.d_star !== null) : [],
  };
}

// Scales of the plot: x log over the lengths (a default decade pair before any), y linear.
function scales(layout, data, { band, fullDStar }) {
  const { x0, x1, y0, y1 } = layout.box;
  const lo = data.allL.length ? data.allL[0] : 16, hi = data.allL.length ? data.allL[data.allL.length - 1] : 1024;
  const xs = makeScale(lo / 1.3, hi * 1.3, x0, x1, true);
  const yd = yDomain(data.points, { dMax: data.dMax, band, fullDStar });
  return { xs, yd, ys: makeScale(yd.lo, yd.hi, y0, y1) };
}

function frame(svg, theme, layout, data, { xs, ys, yd }) {
  const { x0, x1 } = layout.box;
  const xt = logTicks(xs.invert(x0), xs.invert(x1), data.allL, layout.compact ? 6 : 10);
  return drawFrame(svg, theme, layout, {
    xs, ys,
    yTicks: yd.ticks.map((v) => ({ v, label: formatTick(v) })),
    xTicks: xt.map((v) => ({ v, label: formatTick(v, layout.compact) })),
    xTitle: 'L (sequence length, log scale)',
    yTitle: { text: 'minimal d', offset: 14 },
  });
}

// Draws the plot into `container` (replacing its content). res: the result or null; gridLs: the
// lengths requested (shown before they finish); pending: Map L -> task state; theme: a THEMES
// entry; width in pixels; fullDStar: stretch the axis to d*; band: the paper's { lo, hi } or null;
// dMax: d_max to assume when the result does not record it; dStar: whether to draw the d*(L)
// estimate (false for a construction it is not about). Returns the <svg>.
export function drawDL(container, { res, gridLs = [], pending = new Map(), theme, width, fullDStar = false, band = null, dMax, dStar = true }) {
  const data = plotData(res, gridLs, dMax, dStar);
  const layout = plotLayout(width, { left: [48, 60], top: 30, heightRatio: 0.5, minH: 240, maxH: 440 });
  const entries = legendEntries(theme, data, band);
  const { H, legW } = plotHeight(layout, entries);
  const svg = svgRoot(container, layout.W, H, theme, 'Minimal hidden size d versus sequence length L');
  el('desc', {}, svg).textContent = describe(data.points, data.fits, data.params);
  const sc = scales(layout, data, { band, fullDStar: fullDStar && dStar });
  const axis = frame(svg, theme, layout, data, sc);
  const area = clippedArea(svg, `clip-dl-${container.id || 'x'}`, layout.box);
  const ctx = { svg, area, axis, theme, layout, data, ...sc };
  if (band) drawBand(ctx, band);
  drawPending(ctx, pending);
  drawFits(ctx);
  drawDStar(ctx);
  drawNotReached(ctx);
  drawDots(ctx);
  drawSeries(ctx, 'median');
  drawSeries(ctx, 'quantile');
  const { x0, x1, y0, y1 } = layout.box;
  if (!data.points.length) {
    text(svg, (x0 + x1) / 2, (y0 + y1) / 2, res ? 'No lengths finished yet.' : 'Run a sweep (or import a result) to see d versus L.', { 'text-anchor': 'middle', fill: theme.muted, 'font-size': 13 });
  }
  if (entries.length) legend(svg, entries, x0, y0 + layout.m.b + 6, legW);
  return svg;
}
