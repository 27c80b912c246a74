// Size and shape of the product's sources (issue 22): no function longer than 60 lines in core/,
// cli/, wasm/, include/, web/ or scripts/, and the scanner that says so does find a long one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { longFunctions, scan } from '../../scripts/long-functions.mjs';

test('no product function is longer than 60 lines', () => {
  const found = scan(60).map((f) => `${f.file}:${f.line} (${f.lines} lines) ${f.head}`);
  assert.deepEqual(found, []);
});

test('the scanner reports a 61-line C++ function and a 61-line JS function, not a 60-line one', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'attnx-shape-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const body = (n) => Array.from({ length: n }, (_, i) => `  x += ${i};  // "}" in a string`).join('\n');
  const cpp = join(dir, 'a.cpp');
  writeFileSync(cpp, `int a(int x) {\n${body(59)}\n}\nint b(int x) {\n${body(58)}\n}\n`);
  const js = join(dir, 'a.js');
  writeFileSync(js, `const f = (x) => {\n${body(59)}\n};\n`);
  assert.deepEqual(longFunctions(cpp, 60).map((f) => [f.line, f.lines]), [[1, 61]]);
  assert.deepEqual(longFunctions(js, 60).map((f) => [f.line, f.lines]), [[1, 61]]);
});

// Issue 22.2: what a family or a construction allows comes from the schema; no web module compares
// a value with a family's or a construction's name (tests, story data and presets may name them).
// The names are the schema's own, so a new family or construction is covered too.
test('no web module compares a value with a family or construction name', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const { load } = await import('../../web/lib/attnx.js');
  const schema = (await load({ flavour: 'simd' })).schema();
  const names = [...schema.families.map((f) => f.name), ...schema.constructions.map((c) => c.name)];
  assert.ok(names.includes('window') && names.includes('lp'), 'the schema names families and constructions');
  const alt = names.map((n) => n.replace(/[^a-z0-9]/gi, '')).join('|');
  const q = `['"\`](?:${alt})['"\`]`;
  const compares = new RegExp(`(?:[!=]==?\\s*${q})|(?:${q}\\s*[!=]==?)|(?:case\\s+${q}\\s*:)`);
  const root = fileURLToPath(new URL('../../web/', import.meta.url));
  const found = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) { if (e.name !== 'wasm') walk(p); continue; }
      if (!e.name.endsWith('.js')) continue;
      readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (compares.test(code)) found.push(`${p.slice(root.length)}:${i + 1}: ${line.trim()}`);
      });
    }
  };
  walk(root);
  assert.deepEqual(found, []);
  assert.ok(compares.test("if (st.construction === 'moment')") && compares.test("case 'window':"), 'the scan sees a comparison');
});
