// web/common/messages.js: duplicates shown once, the list capped with "+N more", groups replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { visibleMessages, MessageList } from '../../web/common/messages.js';

test('visibleMessages: unique texts in group order, capped', () => {
  const groups = new Map([
    ['hash', [{ text: 'a', kind: 'error' }, { text: 'b', kind: 'error' }, { text: 'a', kind: 'error' }]],
    ['api', [{ text: 'b', kind: 'warn' }, { text: 'c', kind: 'warn' }]],
  ]);
  assert.deepEqual(visibleMessages(groups, 20), { items: [{ text: 'a', kind: 'error' }, { text: 'b', kind: 'error' }, { text: 'c', kind: 'warn' }], more: 0 });
  assert.deepEqual(visibleMessages(groups, 2).more, 1);
});

// A minimal stand-in for the <ul> (only what MessageList uses).
function fakeList() {
  const doc = {
    createDocumentFragment: () => ({ kids: [], append(x) { this.kids.push(x); } }),
    createElement: () => ({ className: '', textContent: '' }),
  };
  return { ownerDocument: doc, shown: [], replaceChildren(frag) { this.shown = frag.kids.map((k) => `${k.className}:${k.textContent}`); } };
}

test('MessageList renders groups, replaces and clears them, caps 100000 messages', () => {
  const ul = fakeList();
  const m = new MessageList(ul, { cap: 3 });
  m.set('hash', ['bad L', 'bad L', 'bad tau'], 'error');
  m.set('link', ['too long'], 'warn');
  assert.deepEqual(ul.shown, ['error:bad L', 'error:bad tau', 'warn:too long']);
  m.set('hash', []);
  assert.deepEqual(ul.shown, ['warn:too long']);
  m.set('api', Array.from({ length: 100000 }, (_, i) => `unknown setting "k${i}"`), 'error');
  assert.equal(ul.shown.length, 4);
  assert.equal(ul.shown[3], 'more:+99998 more');
  assert.deepEqual(m.texts(), ['too long', 'unknown setting "k0"', 'unknown setting "k1"']);
  m.clear();
  assert.deepEqual(ul.shown, []);
});
