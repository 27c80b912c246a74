// attnx explorer: drawing a custom pattern on the target grid. Pointer down on a cell decides the mode
// (add if empty, remove if set); dragging applies that mode to every cell crossed.
export function attachDrawing(view, { enabled, toggle, begin, end }) {
  const canvas = view.canvas;
  let mode = null;
  let last = null;
  canvas.addEventListener('pointerdown', (ev) => {
    if (!enabled() || ev.button !== 0) return;
    const c = view.heat.cellAt(ev.clientX, ev.clientY);
    if (!c) return;
    ev.preventDefault();
    canvas.setPointerCapture(ev.pointerId);
    begin();
    mode = toggle(c, null);
    last = c;
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (mode === null) return;
    const c = view.heat.cellAt(ev.clientX, ev.clientY);
    if (!c || (last && c.i === last.i && c.j === last.j)) return;
    // Every cell on the segment from the previous cell, so fast drags leave no gaps.
    const n = last ? Math.max(Math.abs(c.i - last.i), Math.abs(c.j - last.j)) : 1;
    for (let s = 1; s <= n; s++) {
      const i = last ? Math.round(last.i + ((c.i - last.i) * s) / n) : c.i;
      const j = last ? Math.round(last.j + ((c.j - last.j) * s) / n) : c.j;
      toggle({ i, j }, mode);
    }
    last = c;
  });
  const stop = () => {
    if (mode === null) return;
    mode = null;
    last = null;
    end();
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
}
