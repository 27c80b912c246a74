// The saved view a one-file page carries (web/common/one-file.js), read from hostile or truncated
// blocks: scripts/fuzz-saved-view.mjs in a short seeded run, and fixed cases of what it found.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { runSavedViewFuzz } from '../../scripts/fuzz-saved-view.mjs';
import { readView, withView, emptyViewBlock, MAX_SAVED_HEAD_BYTES } from '../../web/common/one-file.js';

test('fuzz-saved-view: 200 seeded cases, readView never throws, keeps no bad field, names every one it drops', () => {
  const r = runSavedViewFuzz(20260, 200);
  assert.deepEqual(r.bad, []);
  assert.ok(r.refused > 50 && r.ok > 20, JSON.stringify(r));
});

test('a saved head of more than the largest file is refused by name, not by the regular expression engine overflowing', () => {
  const base64 = 'A'.repeat(4 * Math.ceil((MAX_SAVED_HEAD_BYTES + 3) / 3) + 4);  // 89 MB of base64 threw before
  const { view, errors } = readView(JSON.stringify({ format: 'attnx-view/1', page: 'explorer', head: { name: 'a.npz', base64 } }), 'explorer');
  assert.equal(view.head, null);
  assert.deepEqual(errors, [`Saved view: head.base64 holds more than ${MAX_SAVED_HEAD_BYTES} bytes; the view opens without the file`]);
  for (const bad of ['UEs=DBA=', 'A===', 'UEsDBA=']) {
    const r = readView(JSON.stringify({ format: 'attnx-view/1', page: 'explorer', head: { name: 'a.npz', base64: bad } }), 'explorer');
    assert.match(r.errors[0], /^Saved view: head\.base64 must be the file's bytes in base64/, bad);
  }
});

test('a truncated view block opens the page without it, saying so; markup in a view stays text', () => {
  const text = JSON.stringify({ format: 'attnx-view/1', page: 'explorer', link: '#v=3&L=16' });
  const cut = readView(text.slice(0, 30), 'explorer');
  assert.equal(cut.view, null);
  assert.match(cut.errors[0], /^Saved view: the view is not JSON \(.*\); the page opens without it$/);
  const page = withView(`<p>x</p>${emptyViewBlock()}<script>1</script>`, { format: 'attnx-view/1', page: 'explorer', link: '#</script><i data-fz=1>' });
  assert.equal(page.match(/<\/script>/g).length, 2);  // the view's own "</script>" did not end its block
  assert.equal(readView(/id="attnx-view">([\s\S]*?)<\/script>/.exec(page)[1], 'explorer').view.link, '#</script><i data-fz=1>');
});
