// scripts/slowest-reporter.mjs, the browser suite's "ten slowest tests" (issue 46): top-level tests
// only, slowest first, at most ten, failures marked, the files' own entries left out; then each
// file's tests added up, slowest file first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import slowest from '../../scripts/slowest-reporter.mjs';

async function* events(list) {
  for (const e of list) yield e;
}
const ev = (type, name, ms, nesting = 0, file = `${process.cwd()}/tests/e2e/a.test.mjs`) => ({ type, data: { name, nesting, file, details: { duration_ms: ms } } });

test('the ten slowest top-level tests, slowest first, a failure marked, subtests and file entries left out', async () => {
  const list = Array.from({ length: 12 }, (_, i) => ev('test:pass', `t${i}`, (i + 1) * 1000));
  list.push(ev('test:fail', 'broken', 20500), ev('test:pass', 'inner', 99000, 1), ev('test:pass', 'tests/e2e/a.test.mjs', 500000), { type: 'test:diagnostic', data: {} });
  // Another file: one test, slower than any of a's but less than a's 98.5 s in all.
  list.push(ev('test:pass', 'slow', 30000, 0, `${process.cwd()}/tests/e2e/b.test.mjs`));
  let out = '';
  for await (const s of slowest(events(list))) out += s;
  const lines = out.trim().split('\n');
  assert.equal(lines[0], '== the 10 slowest browser tests');
  assert.equal(lines.length, 14);
  assert.equal(lines[1], '   30.0 s  tests/e2e/b.test.mjs: slow');
  assert.equal(lines[2], '   20.5 s  tests/e2e/a.test.mjs: broken  (failed)');
  assert.deepEqual(lines.slice(3, 11).map((l) => l.split(': ')[1]), ['t11', 't10', 't9', 't8', 't7', 't6', 't5', 't4']);
  // 1 + 2 + ... + 12 seconds and the failed 20.5 s: 98.5 s (the subtest and the file's own entry left out).
  assert.deepEqual(lines.slice(11), ["== the 2 slowest browser test files (their tests' times added up)",
    '   98.5 s  tests/e2e/a.test.mjs', '   30.0 s  tests/e2e/b.test.mjs']);
});

test('no tests, no list', async () => {
  let out = '';
  for await (const s of slowest(events([]))) out += s;
  assert.equal(out, '');
});
