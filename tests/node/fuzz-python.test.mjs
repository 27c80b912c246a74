// The Python package's fuzzer (scripts/fuzz-python.py) in a short, fixed-seed run, with the
// Python npm test uses: no case may be BAD (an exception other than ValueError, a ValueError that
// names none of the hostile arguments or comes after the HTML was made, a View for arguments that
// must be refused, a case over its time limit or memory). The long run is `npm run fuzz`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

test('fuzz-python: 150 seeded cases of explorer() and survey() arguments, no BAD outcome', (t) => {
  const r = spawnSync(PYTHON, ['scripts/fuzz-python.py', '--seed', '20260', '--cases', '150', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 240000 });
  if (r.error?.code === 'ENOENT') return t.skip(`${PYTHON} is not installed`);
  // Exit 2: the one-file page (dist/attnx.html or $ATTNX_HTML) is not built.
  if (r.status === 2) return t.skip(r.stderr.trim());
  const report = JSON.parse(r.stdout);
  assert.ok(report.counts.refused > 50 && report.counts.ok > 5, JSON.stringify(report.counts));
  assert.deepEqual(report.bad, [], JSON.stringify(report.bad, null, 2));
  assert.equal(r.status, 0, r.stderr);
});
