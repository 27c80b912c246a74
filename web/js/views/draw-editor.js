// attnx web: drawing a custom pattern on the target grid. Pointer down on a cell decides the mode
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
    last = `${c.i},${c.j}`;
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (mode === null) return;
    const c = view.heat.cellAt(ev.clientX, ev.clientY);
    if (!c) return;
    const key = `${c.i},${c.j}`;
    if (key === last) return;
    last = key;
    toggle(c, mode);
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
