// Size and shape of the product's sources (issue 22): no function longer than 60 lines in core/,
// cli/, wasm/, include/, web/ or scripts/, and the scanner that says so does find a long one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { longFunctions, scan } from '../../scripts/long-functions.mjs';

test('no product function is longer than 60 lines', () => {
  const found = scan(60).map((f) => `${f.file}:${f.line} (${f.lines} lines) ${f.head}`);
  assert.deepEqual(found, []);
});

test('the scanner reports a 61-line C++ function and a 61-line JS function, not a 60-line one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attnx-shape-'));
  const body = (n) => Array.from({ length: n }, (_, i) => `  x += ${i};  // "}" in a string`).join('\n');
  const cpp = join(dir, 'a.cpp');
  writeFileSync(cpp, `int a(int x) {\n${body(59)}\n}\nint b(int x) {\n${body(58)}\n}\n`);
  const js = join(dir, 'a.js');
  writeFileSync(js, `const f = (x) => {\n${body(59)}\n};\n`);
  assert.deepEqual(longFunctions(cpp, 60).map((f) => [f.line, f.lines]), [[1, 61]]);
  assert.deepEqual(longFunctions(js, 60).map((f) => [f.line, f.lines]), [[1, 61]]);
});
