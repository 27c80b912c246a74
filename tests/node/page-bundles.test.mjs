// scripts/build-page-bundles.mjs: each bundled module keeps the import.meta.url of its source, and
// the built site's pages and workers import no relative module (one request each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import { PAGE_ENTRIES, rebaseImportMeta } from '../../scripts/build-page-bundles.mjs';

const WEB = join(ROOT, 'web');

test('import.meta.url becomes the source module\'s own URL, relative to the bundle', () => {
  const src = "const W = new URL('./worker.js', import.meta.url);";
  assert.equal(rebaseImportMeta(src, join(WEB, 'lib/pool.js'), 'explorer/main.js'),
    "const W = new URL('./worker.js', new URL(\"../lib/pool.js\", import.meta.url).href);");
  assert.equal(rebaseImportMeta(src, join(WEB, 'explorer/story-control.js'), 'explorer/main.js'),
    "const W = new URL('./worker.js', new URL(\"./story-control.js\", import.meta.url).href);");
  assert.equal(rebaseImportMeta('import.meta.url + import.meta.url', join(WEB, 'lib/attnx.js'), 'lib/worker.js'),
    'new URL("./attnx.js", import.meta.url).href + new URL("./attnx.js", import.meta.url).href');
  // Resolved in a browser, the rebased URL is the unbundled one, under any sub-path.
  const bundle = 'https://host/sub/path/explorer/main.js';
  assert.equal(new URL('./worker.js', new URL('../lib/pool.js', bundle).href).href, 'https://host/sub/path/lib/worker.js');
});

test('the built site\'s pages and workers are single modules', { skip: !existsSync(join(ROOT, 'dist/index.html')) && 'dist/ is not built' }, () => {
  for (const entry of PAGE_ENTRIES) {
    const text = readFileSync(join(ROOT, 'dist', entry), 'utf8');
    assert.doesNotMatch(text, /^\s*import\s[^;]*from\s*['"]\.\.?\//m, `${entry} imports no relative module`);
    assert.doesNotMatch(text, /^\s*export\s[^;]*from\s*['"]\.\.?\//m, `${entry} re-exports no relative module`);
    assert.ok(!/\bimport\.meta\.url\b(?!\)\.href)/.test(text.replace(/new URL\("[^"]+", import\.meta\.url\)\.href/g, '')),
      `${entry}: every import.meta.url is rebased`);
  }
});
