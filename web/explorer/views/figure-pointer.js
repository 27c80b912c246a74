// attnx explorer: pointer and keyboard interaction shared by the heatmaps: hover reports the cell,
// click pins the row, arrow keys move a cursor, Enter/Space act on it. The zoom window (zoom.js):
// Ctrl + wheel (a trackpad's pinch) and a two-finger pinch zoom about the pointer, a drag moves a
// zoomed window, + and - zoom about the cursor, 0 shows the whole matrix, and the window follows
// the arrow keys' cursor. The cursor is the keyboard's: a heatmap focused by a click (not by Tab
// or a script) leaves the keys alone until it loses the focus, so a slide deck around an
// <attnx-explorer> still steps on → after a click.
import { windowOf, isFull } from '../view-window.js';

const DRAG_PX = 4;          // a press that moves this far is a drag (it pins no row)
const WHEEL_RATE = 0.004;   // zoom factor e^(-deltaY * rate) per wheel event (deltaY in pixels)

/**
 * Wires view ({ canvas, heat }) with { getL, onHover(c, view, keys?), onPick(c, view),
 * onKeyAct(c, view), startRow(), zoom (zoom.js Zoom), canDrag(view): false where drags draw }.
 */
export function attachPointer(view, opts) {
  const canvas = view.canvas;
  const s = { cursor: null, pressing: false, pointerFocus: false, dragged: false };
  canvas.addEventListener('pointerdown', () => { s.pressing = true; });
  for (const up of ['pointerup', 'pointercancel', 'pointerleave']) canvas.addEventListener(up, () => { s.pressing = false; });
  canvas.addEventListener('focus', () => { s.pointerFocus = s.pressing; });
  canvas.addEventListener('blur', () => { s.pointerFocus = false; });
  canvas.addEventListener('pointermove', (ev) => {
    if (ev.pointerType === 'touch' && ev.buttons) return;
    opts.onHover(view.heat.cellAt(ev.clientX, ev.clientY), view);
  });
  canvas.addEventListener('pointerleave', () => opts.onHover(null, view));
  canvas.addEventListener('click', (ev) => {
    if (s.dragged) { s.dragged = false; return; }  // the end of a drag, not a pick
    const c = view.heat.cellAt(ev.clientX, ev.clientY);
    if (c) opts.onPick(c, view);
  });
  canvas.addEventListener('keydown', (ev) => onKey(ev, view, opts, s));
  canvas.addEventListener('blur', () => {  // the keyboard cursor leaves with the focus
    if (!s.cursor) return;
    s.cursor = null;
    opts.onHover(null, view);
  });
  if (opts.zoom) attachZoom(view, opts, s);
}

// The heatmap's keys (see the top of this file).
function onKey(ev, view, opts, s) {
  const L = opts.getL();
  if (!L || s.pointerFocus || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const zoom = opts.zoom, t = ev.timeStamp || performance.now();
  if (moves[ev.key]) {
    ev.preventDefault();
    moveCursor(view, opts, s, L, moves[ev.key], ev.shiftKey, t);
  } else if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    if (s.cursor) (opts.onKeyAct || opts.onPick)(s.cursor, view);
  } else if (ev.key === 'Escape') {
    s.cursor = null;
    opts.onHover(null, view);
  } else if (zoom && (ev.key === '+' || ev.key === '=')) {
    ev.preventDefault();
    zoom.zoomIn(s.cursor, t);
  } else if (zoom && (ev.key === '-' || ev.key === '_')) {
    ev.preventDefault();
    zoom.zoomOut(s.cursor, t);
  } else if (zoom && ev.key === '0') {
    ev.preventDefault();
    zoom.full(t);
  }
}

// An arrow key: the first shows the cursor (on the pinned row when it is in the window, else at
// the window's corner); then it moves one cell (Shift: a sixteenth of the window's span) and the
// window follows it.
function moveCursor(view, opts, s, L, [di, dj], big, t) {
  const w = opts.zoom ? opts.zoom.window() || windowOf('', L) : windowOf('', L);
  if (!s.cursor) {
    const r = opts.startRow ? opts.startRow() : -1;
    s.cursor = { i: r >= w.i0 && r < w.i1 ? r : w.i0, j: w.j0 };
    opts.onHover(s.cursor, view, true);
    return;
  }
  const step = (span) => (big ? Math.max(1, Math.round(span / 16)) : 1);
  s.cursor = {
    i: Math.max(0, Math.min(L - 1, s.cursor.i + di * step(w.i1 - w.i0))),
    j: Math.max(0, Math.min(L - 1, s.cursor.j + dj * step(w.j1 - w.j0))),
  };
  if (opts.zoom) opts.zoom.follow(s.cursor, t);
  opts.onHover(s.cursor, view, true);
}

// Ctrl + wheel, a drag and a two-finger pinch on the heatmap (see the top of this file).
function attachZoom(view, opts, s) {
  const canvas = view.canvas, zoom = opts.zoom;
  canvas.addEventListener('wheel', (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || !zoom.window()) return;  // a plain wheel scrolls the page
    ev.preventDefault();
    const dy = ev.deltaY * (ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? 400 : 1);
    zoom.zoomBy(Math.exp(-dy * WHEEL_RATE), view.heat.cellAt(ev.clientX, ev.clientY), ev.timeStamp);
  }, { passive: false });
  const down = new Map();  // pointerId -> { x, y } of the pointers pressed on the canvas
  let gesture = null;      // { w, x, y, dist, at } at the start of a drag or a pinch
  const start = () => {
    const p = [...down.values()], w = zoom.window();
    if (!w) return null;
    const x = p.reduce((a, q) => a + q.x, 0) / p.length, y = p.reduce((a, q) => a + q.y, 0) / p.length;
    const dist = p.length > 1 ? Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) : 0;
    return { w, x, y, dist, at: view.heat.cellAt(x, y), moved: false };
  };
  canvas.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0 || !opts.canDrag(view)) return;
    down.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    gesture = start();
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (!gesture || !down.has(ev.pointerId)) return;
    down.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    gesture = moveGesture(view, zoom, gesture, [...down.values()], ev);
    if (gesture.moved) s.dragged = true;
  });
  const up = (ev) => {
    if (!down.delete(ev.pointerId)) return;
    gesture = down.size ? start() : null;  // one finger of two lifted: a drag from here
  };
  for (const t of ['pointerup', 'pointercancel']) canvas.addEventListener(t, up);
}

// A pointer of gesture g moved (points: the pressed pointers now): two pointers zoom the window g
// started with by the change of their distance, about the cell between them; one pointer moved
// more than DRAG_PX moves a zoomed window with it (captured, so that it may leave the canvas).
function moveGesture(view, zoom, g, points, ev) {
  const r = view.canvas.getBoundingClientRect();
  if (points.length > 1 && g.dist > 0) {
    const dist = Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y);
    zoom.zoomFrom(g.w, dist / g.dist, g.at, ev.timeStamp);
    return { ...g, moved: true };
  }
  const dx = ev.clientX - g.x, dy = ev.clientY - g.y;
  if (!g.moved && (Math.hypot(dx, dy) < DRAG_PX || isFull(g.w, view.heat.rows))) return g;  // nothing to move
  if (!g.moved) view.canvas.setPointerCapture(ev.pointerId);
  if (r.width > 0 && r.height > 0) {
    zoom.panFrom(g.w, (-dy * (g.w.i1 - g.w.i0)) / r.height, (-dx * (g.w.j1 - g.w.j0)) / r.width, ev.timeStamp);
  }
  return { ...g, moved: true };
}
