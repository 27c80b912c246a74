// web/explorer/views/figure-pointer.js: the keyboard cursor of a heatmap belongs to keyboard
// focus. A heatmap focused by a pointer press leaves the arrow keys to the page around it (a slide
// deck steps on → after a click on a figure); focused by Tab or a script, the arrows move the
// cursor; a press on a heatmap that already has the keyboard's focus does not take the keys away.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { attachPointer } from '../../web/explorer/views/figure-pointer.js';

// A heatmap view on a bare EventTarget (attachPointer only listens and reads cellAt).
function fakeView() {
  const canvas = new EventTarget();
  const hovers = [];
  attachPointer({ canvas, heat: { cellAt: () => null } }, {
    getL: () => 8, onHover: (c) => hovers.push(c && [c.i, c.j]), onPick: () => {}, startRow: () => 2,
  });
  const fire = (type) => canvas.dispatchEvent(new Event(type));
  const key = (k) => {
    const ev = Object.assign(new Event('keydown', { cancelable: true }), { key: k, shiftKey: false });
    canvas.dispatchEvent(ev);
    return ev.defaultPrevented;
  };
  return { fire, key, hovers };
}

test('focused by a click, a heatmap leaves the arrows alone (not consumed, no cursor)', () => {
  const v = fakeView();
  v.fire('pointerdown');
  v.fire('focus');
  v.fire('pointerup');
  assert.equal(v.key('ArrowRight'), false);
  assert.equal(v.key('ArrowDown'), false);
  assert.deepEqual(v.hovers, []);
});

test('focused by Tab, the arrows move the cursor from the pinned row and are consumed', () => {
  const v = fakeView();
  v.fire('focus');
  assert.equal(v.key('ArrowDown'), true);  // shows the cursor at the pinned row
  assert.equal(v.key('ArrowDown'), true);
  assert.deepEqual(v.hovers, [[2, 0], [3, 0]]);
});

test('a click on a heatmap that has the keyboard focus keeps the keys; after a blur a click-focus gives them up', () => {
  const v = fakeView();
  v.fire('focus');
  v.fire('pointerdown');  // no focus event: it already has the focus
  v.fire('pointerup');
  assert.equal(v.key('ArrowRight'), true);
  v.fire('blur');
  v.fire('pointerdown');
  v.fire('focus');
  v.fire('pointerup');
  assert.equal(v.key('ArrowRight'), false);
  v.fire('blur');
  v.fire('focus');  // Tab back
  assert.equal(v.key('ArrowRight'), true);
});

// A heatmap 160 x 160 CSS pixels at (0, 0) showing window w of a 64 x 64 matrix, wired to a zoom
// that records its calls.
function zoomView(w = { i0: 16, i1: 48, j0: 16, j1: 48 }) {
  const canvas = new EventTarget();
  canvas.getBoundingClientRect = () => ({ left: 0, top: 0, width: 160, height: 160 });
  canvas.setPointerCapture = () => {};
  const heat = {
    rows: 64,
    cellAt: (x, y) => ({ i: w.i0 + Math.floor((y / 160) * (w.i1 - w.i0)), j: w.j0 + Math.floor((x / 160) * (w.j1 - w.j0)) }),
  };
  const calls = [], picks = [];
  const zoom = {
    window: () => w,
    zoomBy: (f, at) => calls.push(['zoomBy', f, at]), zoomIn: (at) => calls.push(['in', at]), zoomOut: (at) => calls.push(['out', at]),
    full: () => calls.push(['full']), zoomFrom: (w0, f, at) => calls.push(['zoomFrom', f, at]),
    panFrom: (w0, di, dj) => calls.push(['panFrom', di, dj]), follow: (c) => calls.push(['follow', c.i, c.j]),
  };
  attachPointer({ canvas, heat }, { getL: () => 64, onHover: () => {}, onPick: (c) => picks.push([c.i, c.j]), startRow: () => -1, zoom, canDrag: () => true });
  const pointer = (type, id, x, y, extra = {}) => canvas.dispatchEvent(Object.assign(new Event(type, { cancelable: true }),
    { pointerId: id, clientX: x, clientY: y, button: 0, buttons: 1, pointerType: 'touch', ...extra }));
  const key = (k) => canvas.dispatchEvent(Object.assign(new Event('keydown', { cancelable: true }), { key: k }));
  return { canvas, calls, picks, pointer, key };
}

test('a drag moves a zoomed window by the cells it crossed and pins no row; a tap still picks', () => {
  const v = zoomView();
  v.pointer('pointerdown', 1, 80, 80, { pointerType: 'mouse' });
  v.pointer('pointermove', 1, 82, 80, { pointerType: 'mouse' });  // under DRAG_PX: no drag yet
  assert.deepEqual(v.calls, []);
  v.pointer('pointermove', 1, 40, 60, { pointerType: 'mouse' });  // a quarter across, an eighth up
  v.pointer('pointerup', 1, 40, 60, { pointerType: 'mouse' });
  v.canvas.dispatchEvent(Object.assign(new Event('click'), { clientX: 40, clientY: 60 }));
  assert.deepEqual(v.calls, [['panFrom', 4, 8]], '32 cells in 160 px: 20 px up is 4 rows, 40 px left is 8 columns');
  assert.deepEqual(v.picks, [], 'the click that ends a drag picks nothing');
  v.pointer('pointerdown', 2, 10, 10, { pointerType: 'mouse' });
  v.pointer('pointerup', 2, 10, 10, { pointerType: 'mouse' });
  v.canvas.dispatchEvent(Object.assign(new Event('click'), { clientX: 10, clientY: 10 }));
  assert.deepEqual(v.picks, [[18, 18]]);
});

test('two fingers zoom the window they started on by the change of their distance, about the cell between them', () => {
  const v = zoomView();
  v.pointer('pointerdown', 1, 60, 80);
  v.pointer('pointerdown', 2, 100, 80);
  v.pointer('pointermove', 2, 140, 80);  // 40 px apart -> 80 px: twice as close
  assert.deepEqual(v.calls, [['zoomFrom', 2, { i: 32, j: 32 }]]);
  v.pointer('pointerup', 1, 60, 80);
  v.pointer('pointerup', 2, 140, 80);
});

test('on a focused heatmap + - 0 zoom, the arrows move the cursor and the window follows; the whole matrix is not dragged', () => {
  const v = zoomView();
  v.canvas.dispatchEvent(new Event('focus'));
  v.key('+');
  v.key('ArrowDown');  // shows the cursor at the window's corner
  v.key('ArrowDown');
  v.key('-');
  v.key('0');
  assert.deepEqual(v.calls, [['in', null], ['follow', 17, 16], ['out', { i: 17, j: 16 }], ['full']]);
  const all = zoomView({ i0: 0, i1: 64, j0: 0, j1: 64 });
  all.pointer('pointerdown', 1, 80, 80, { pointerType: 'mouse' });
  all.pointer('pointermove', 1, 20, 20, { pointerType: 'mouse' });
  all.pointer('pointerup', 1, 20, 20, { pointerType: 'mouse' });
  all.canvas.dispatchEvent(Object.assign(new Event('click'), { clientX: 20, clientY: 20 }));
  assert.deepEqual(all.calls, [], 'nothing to move');
  assert.deepEqual(all.picks, [[8, 8]], 'so the press is a click');
});
