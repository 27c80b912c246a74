// The site as a package and as a GitHub Pages build: package.json ships dist/ and a working
// attnx-serve, and the Pages workflow runs scripts that exist and uploads what build-dist writes
// (with the one-file pages, which the served pages' "Save as one file" fetches).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { ROOT } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
const workflow = readFileSync(`${ROOT}.github/workflows/pages.yml`, 'utf8');

test('the package is publishable and ships the built site with a server', () => {
  assert.ok(!pkg.private, 'npm pack/publish need a package that is not private');
  assert.ok(pkg.files.includes('dist/'));
  for (const [name, file] of Object.entries(pkg.bin)) {
    assert.ok(existsSync(`${ROOT}${file}`), `bin ${name}: ${file} exists`);
    assert.ok(pkg.files.includes(file), `bin ${name} is in the package's files`);
    assert.match(readFileSync(`${ROOT}${file}`, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  }
  assert.match(pkg.scripts.prepack, /build-dist/, 'npm pack builds the site first');
  assert.match(pkg.scripts.prepack, /build-dist && node scripts\/build-standalone\.mjs/, 'and the one-file pages beside it');
});

test('the Pages workflow builds with the project\'s scripts on push to main and uploads dist', () => {
  assert.match(workflow, /on:\s*\n\s*push:\s*\n\s*branches: \[main\]/);
  assert.match(workflow, /container: debian:12/);
  const scripts = [...workflow.matchAll(/bash (scripts\/[\w-]+)/g)].map((m) => m[1]);
  assert.deepEqual([...new Set(scripts)].sort(), ['scripts/build-dist', 'scripts/build-wasm', 'scripts/setup']);
  for (const s of scripts) assert.ok(existsSync(`${ROOT}${s}`), `${s} exists`);
  assert.match(workflow, /bash scripts\/build-dist && node scripts\/build-standalone\.mjs\n/, 'the one-file pages are published beside the site');
  assert.match(workflow, /upload-pages-artifact@v3\s*\n\s*with:\s*\n\s*path: dist\n/);
  assert.match(readFileSync(`${ROOT}scripts/build-dist`, 'utf8'), /out=\$\(realpath -m -- "\$\{1:-\$\(dirname "\$0"\)\/\.\.\/dist\}"\)/, 'build-dist writes dist/ when no folder is named');
  assert.match(workflow, /deploy-pages@v4/);
});
