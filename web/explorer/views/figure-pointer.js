// attnx explorer: pointer and keyboard interaction shared by the heatmaps: hover reports the cell,
// click pins the row, arrow keys move a cursor, Enter/Space act on it. The cursor is the
// keyboard's: a heatmap focused by a click (not by Tab or a script) leaves the keys alone until it
// loses the focus, so a slide deck around an <attnx-explorer> still steps on → after a click.
export function attachPointer(view, { getL, onHover, onPick, onKeyAct, startRow }) {
  const canvas = view.canvas;
  let cursor = null;
  let pressing = false;      // a pointer is down on the canvas
  let pointerFocus = false;  // the focus came with that press (decided when the focus comes)
  canvas.addEventListener('pointerdown', () => { pressing = true; });
  for (const up of ['pointerup', 'pointercancel', 'pointerleave']) canvas.addEventListener(up, () => { pressing = false; });
  canvas.addEventListener('focus', () => { pointerFocus = pressing; });
  canvas.addEventListener('blur', () => { pointerFocus = false; });
  canvas.addEventListener('pointermove', (ev) => {
    if (ev.pointerType === 'touch' && ev.buttons) return;
    onHover(view.heat.cellAt(ev.clientX, ev.clientY), view);
  });
  canvas.addEventListener('pointerleave', () => onHover(null, view));
  canvas.addEventListener('click', (ev) => {
    const c = view.heat.cellAt(ev.clientX, ev.clientY);
    if (c) onPick(c, view);
  });
  canvas.addEventListener('keydown', (ev) => {
    const L = getL();
    if (!L || pointerFocus) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      ev.preventDefault();
      const big = ev.shiftKey ? Math.max(1, Math.round(L / 16)) : 1;
      if (!cursor) {
        // The first key press shows the cursor where it starts (the pinned row, or the corner).
        const r = startRow ? startRow() : 0;
        cursor = { i: r >= 0 && r < L ? r : 0, j: 0 };
        onHover(cursor, view, true);
        return;
      }
      cursor = {
        i: Math.max(0, Math.min(L - 1, cursor.i + moves[ev.key][0] * big)),
        j: Math.max(0, Math.min(L - 1, cursor.j + moves[ev.key][1] * big)),
      };
      onHover(cursor, view, true);
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      if (cursor) (onKeyAct || onPick)(cursor, view);
    } else if (ev.key === 'Escape') {
      cursor = null;
      onHover(null, view);
    }
  });
  canvas.addEventListener('blur', () => {  // the keyboard cursor leaves with the focus
    if (!cursor) return;
    cursor = null;
    onHover(null, view);
  });
}
