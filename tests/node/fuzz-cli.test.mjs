// The CLI fuzzer (scripts/fuzz-cli.mjs) in a short, fixed-seed run: no case may be BAD (crash,
// hang, exit status other than 0/2, invalid JSON on success, "success" with a null metric, a
// refusal that is not one clean line, raw control bytes or invalid UTF-8 in any output, the
// memory limit hit; on the merge surface, a mutated part accepted, a refusal that does not name
// the file and the field, or untouched parts that do not merge to the unsharded sweep's output).
// The long run is `npm run fuzz`.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { existsSync } from 'node:fs';

import { runFuzz, report, SURFACES, DEFAULT_CLI } from '../../scripts/fuzz-cli.mjs';

test('fuzz-cli: 300 seeded cases, no BAD outcome on any surface', (t) => {
  // build/native/attnx, or $ATTNX_CLI.
  if (!existsSync(DEFAULT_CLI)) return t.skip(`${DEFAULT_CLI} is not built`);
  const res = runFuzz({ seed: 20260, cases: 300, timeLimit: 20, memLimitMiB: 1024, cli: DEFAULT_CLI });
  for (const s of SURFACES) assert.ok(res.stats[s].tried > 0, `surface ${s} was tried`);
  assert.equal(res.bad.length, 0, report(res, 10));
});

test('fuzz-cli: a case is a pure function of (seed, index)', async (t) => {
  // The merge surface mutates part files the CLI makes.
  if (!existsSync(DEFAULT_CLI)) return t.skip(`${DEFAULT_CLI} is not built`);
  const { makeCase } = await import('../../scripts/fuzz-cli.mjs');
  const { mkdtempSync, rmSync, readdirSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const snapshot = (seed, index) => {
    const dir = mkdtempSync(join(tmpdir(), 'attnx-fuzz-det-'));
    try {
      const c = makeCase(seed, index, dir);
      const files = readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).toString('hex')]);
      const args = c.args.map((a) => (Buffer.isBuffer(a) ? a.toString('hex') : a.split(dir).join('<dir>')));
      return JSON.stringify({ surface: c.surface, args, files });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  for (const index of [0, 1, 7, 123, 999]) assert.equal(snapshot(5, index), snapshot(5, index));
  assert.notEqual(snapshot(5, 1), snapshot(6, 1));
});
