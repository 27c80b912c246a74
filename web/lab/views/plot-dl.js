// attnx lab: plot 1, minimal d versus L (log L axis). Every trial's d_min as a dot (not reached:
// a triangle in a strip above the frame), the median and (1-delta)-quantile lines, the fits
// d = a + b ln L and d = c L^p, the d*(L) estimate and (for the paper's setting) the paper's band.
// The layers are drawn by plot-dl-layers.js; this file lays the plot out on the core's axes.
import { el, svgRoot, legend, plotLayout, plotHeight, drawFrame, clippedArea, text } from './svg.js';
import { makeScale, formatTick } from './scale.js';
import { distributionOf } from './distribution.js';
import { legendEntries, drawBand, drawPending, drawFits, drawDStar, drawNotReached, drawDots, drawSeries, fmtD } from './plot-dl-layers.js';
import { floorData, floorLegend, drawFloorLines } from './plot-dl-floors.js';

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

// What the plot shows, independent of pixels: points and their success curves (the core's),
// params, fits, the lengths on the axis (gridLs, else the points'), d_max (the result's, else
// dMax), whether any trial did not reach.
function plotData(res, core, gridLs, dMax, withDStar) {
  const points = res ? res.points : [];
  const dists = points.map((p) => distributionOf(core, p));
  const params = res ? res.params : {};
  const Ls = gridLs.length ? gridLs : points.map((p) => p.L);
  return {
    points, dists, params, Ls,
    fits: res ? res.fits : null,
    dMax: params.d_max ?? dMax,
    hasNR: dists.some((d) => d.reached < d.trials),
    dStars: withDStar ? points.filter((p) => p.d_star !== null) : [],
    ...floorData(core, points),
  };
}

// Scales of the plot on the core's axes: x log over the lengths, y linear over the d shown.
function scales(layout, core, data, { band, fullDStar }) {
  const { x0, x1, y0, y1 } = layout.box;
  const xd = core.lengthAxis([...data.Ls, ...data.points.map((p) => p.L)], layout.compact);
  const { axis: yd, dStarAbove } = core.dAxis(data.dists.map((d) => d.maxReached), data.points.map((p) => p.d_star), data.dMax, band ? band.hi : null, fullDStar);
  return { xd, yd, dStarAbove, xs: makeScale(xd.lo, xd.hi, x0, x1, true), ys: makeScale(yd.lo, yd.hi, y0, y1) };
}

function frame(svg, theme, layout, { xs, ys, xd, yd }) {
  return drawFrame(svg, theme, layout, {
    xs, ys,
    yTicks: yd.ticks.map((v) => ({ v, label: formatTick(v) })),
    xTicks: xd.ticks.map((v) => ({ v, label: formatTick(v, layout.compact) })),
    xTitle: 'L (sequence length, log scale)',
    yTitle: { text: 'minimal d', offset: 14 },
  });
}

// Draws the plot into `container` (replacing its content). res: the result or null; gridLs: the
// lengths requested (shown before they finish); pending: Map L -> task state; theme: a THEMES
// entry; width in pixels; fullDStar: stretch the axis to d*; band: the paper's { lo, hi } or null;
// dMax: d_max to assume when the result does not record it; dStar: whether to draw the d*(L)
// estimate (false for a construction it is not about); core: the module's API on this thread;
// schema: the core's (the SPEC §9 lines' meanings).
// Returns the <svg>.
export function drawDL(container, { res, core, schema, gridLs = [], pending = new Map(), theme, width, fullDStar = false, band = null, dMax, dStar = true }) {
  const data = plotData(res, core, gridLs, dMax, dStar);
  const layout = plotLayout(width, { left: [48, 60], top: 30, heightRatio: 0.5, minH: 240, maxH: 380 });
  const entries = [...legendEntries(theme, data, band), ...floorLegend(theme, data)];
  const { H, legW } = plotHeight(layout, entries);
  const svg = svgRoot(container, layout.W, H, theme, 'Minimal hidden size d versus sequence length L');
  el('desc', {}, svg).textContent = describe(data.points, data.fits, data.params);
  const sc = scales(layout, core, data, { band, fullDStar: fullDStar && dStar });
  const axis = frame(svg, theme, layout, sc);
  const area = clippedArea(svg, `clip-dl-${container.id || 'x'}`, layout.box);
  const ctx = { svg, area, axis, theme, layout, data, ...sc };
  if (band) drawBand(ctx, band);
  drawPending(ctx, pending);
  drawFits(ctx);
  drawDStar(ctx);
  drawFloorLines(ctx, schema);
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
