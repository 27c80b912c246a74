// web/embed/lab-frame.js labHash: an <attnx-lab>'s attributes become the lab page's link in
// embed mode (el.frameLink, the same lab in a frame), with each name in the schema's spelling (HTML lower-cases attribute names); the lab
// page itself then validates them (web/lab/link.js), so its messages are the link's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { labTable } from '../../web/lab/settings.js';
import { parseHash } from '../../web/common/hashstate.js';

let table, schema, labHash;

before(async () => {
  ({ labHash } = await import('../../web/embed/lab-frame.js'));
  schema = (await load({ flavour: 'simd' })).schema();
  table = labTable(schema);
});

test('attributes map to the lab link in embed mode, spelled as the schema spells them', () => {
  const lower = Object.keys(table).find((k) => k !== k.toLowerCase());
  assert.ok(lower, 'the lab has a mixed-case field to test with');
  const h = labHash([['preset', 'paper'], ['autorun', '1'], [lower.toLowerCase(), String(table[lower].def)], ['id', 'x'], ['data-y', '2']], table);
  assert.ok(h.startsWith('#v=1&embed=1&theme=light&'), h);
  const params = new URLSearchParams(h.slice(1));
  assert.equal(params.get('preset'), 'paper');
  assert.equal(params.get(lower), String(table[lower].def));
  assert.ok(!params.has('id') && !params.has('data-y'));
  const parsed = parseHash(table, h, { page: 'lab', schema });
  assert.deepEqual(parsed.errors, []);
  assert.equal(parsed.state.embed, true);
});

test('v is passed on (absent: 1); unknown names reach the lab page as written, which names them', () => {
  assert.match(labHash([['v', '0']], table), /^#v=0&embed=1&theme=light$/);
  assert.equal(new URLSearchParams(labHash([['theme', 'dark']], table).slice(1)).get('theme'), 'dark');
  const h = labHash([['speed', '9']], table);
  assert.match(parseHash(table, h, { page: 'lab', schema }).errors.join('; '), /unknown setting "speed"/);
});
