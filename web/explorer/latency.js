// attnx explorer: the input-to-pixels latency of a drawn result and of a zoom window's change, as
// performance measures ('attnx:latency', 'attnx:view') that scripts/bench-explorer.mjs reads.

// Resolves at the next animation frame.
export function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

// performance.measure('attnx:latency', tInput -> painted) with detail { L, d, queue, compute,
// transfer, pooling, paint } in ms (worker times converted to this page's clock). transfer: the
// result's trips (worker -> page -> render worker and back, less the render worker's own time),
// toPage its first hop (compute worker -> page); pooling: the render worker's own time.
// t: { tInput, tReceived, tData, tRendered, tPainted, paintMs }; timing: the worker's { start,
// end, busyMs } (null: unknown).
export function recordLatency(result, timing, t) {
  const origin = performance.timeOrigin;
  const wStart = timing ? timing.start - origin : t.tReceived;
  const wEnd = timing ? timing.end - origin : t.tReceived;
  const detail = {
    L: result.L, d: result.d,
    queue: Math.max(0, wStart - t.tInput),
    compute: timing ? timing.busyMs : NaN,
    transfer: Math.max(0, t.tReceived - wEnd) + (t.tData - t.tReceived),
    toPage: Math.max(0, t.tReceived - wEnd),
    pooling: Math.max(0, t.tRendered - t.tData - t.paintMs),
    paint: t.paintMs + (t.tPainted - t.tRendered),
  };
  try {
    performance.measure('attnx:latency', { start: t.tInput, end: t.tPainted, detail });
  } catch { /* older browsers: no measure with detail */ }
}

// performance.measure('attnx:view', tInput -> painted) of a zoom window drawn (zoom.js), detail
// { L, pooling: the render worker's time, paint: drawing here until the frame, other: the rest
// (the state's update, the trips to the render worker) } in ms. t: { tInput, tRendered, tPainted,
// poolMs, paintMs }.
export function recordViewLatency(L, t) {
  const paint = t.paintMs + (t.tPainted - t.tRendered);
  const detail = { L, pooling: t.poolMs, paint, other: Math.max(0, t.tPainted - t.tInput - t.poolMs - paint) };
  try {
    performance.measure('attnx:view', { start: t.tInput, end: t.tPainted, detail });
  } catch { /* older browsers: no measure with detail */ }
}
