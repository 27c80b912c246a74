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
