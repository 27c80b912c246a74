// scripts/build-page-bundles.mjs: each bundled module keeps the import.meta.url of its source, and
// the built site's pages and workers import no relative module (one request each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import { MODULE_URL, PAGE_ENTRIES, rebaseImportMeta } from '../../scripts/build-page-bundles.mjs';

const WEB = join(ROOT, 'web');

test('import.meta.url becomes the source module\'s own URL, relative to the bundle; comments and strings keep it', async () => {
  const src = "// resolved against import.meta.url\nexport const W = new URL('./worker.js', import.meta.url);\nexport const S = \"import.meta.url\";\n";
  const out = await rebaseImportMeta(src, join(WEB, 'lib/pool.js'), 'explorer/main.js');
  assert.ok(out.startsWith(`const ${MODULE_URL} = new URL("../lib/pool.js", import.meta.url).href;\n`), out);
  assert.match(out, new RegExp(`new URL\\("\\./worker\\.js", ${MODULE_URL}\\)`));
  assert.match(out, /"import\.meta\.url"/, 'the string is left as written');
  assert.equal(out.match(/import\.meta\.url/g).length, 2, 'the const line and the string, nothing else');
  const here = await rebaseImportMeta("export const U = new URL('./stories/', import.meta.url);", join(WEB, 'explorer/story-control.js'), 'explorer/main.js');
  assert.ok(here.startsWith(`const ${MODULE_URL} = new URL("./story-control.js", import.meta.url).href;`), here);
  const none = await rebaseImportMeta('export const x = 1;', join(WEB, 'lib/attnx.js'), 'lib/worker.js');
  assert.ok(!none.includes(MODULE_URL), 'a module that never reads its URL gets no binding');
});

test('the built site\'s pages and workers are single modules', { skip: !existsSync(join(ROOT, 'dist/index.html')) && 'dist/ is not built' }, () => {
  for (const entry of PAGE_ENTRIES) {
    const text = readFileSync(join(ROOT, 'dist', entry), 'utf8');
    assert.doesNotMatch(text, /^\s*import\s[^;]*from\s*['"]\.\.?\//m, `${entry} imports no relative module`);
    assert.doesNotMatch(text, /^\s*export\s[^;]*from\s*['"]\.\.?\//m, `${entry} re-exports no relative module`);
    const raw = text.replace(new RegExp(`(?:const|var|let) ${MODULE_URL}\\d* = new URL\\("[^"]+", import\\.meta\\.url\\)\\.href;`, 'g'), '');
    assert.ok(!/import\.meta\.url/.test(raw.replace(/\/\/.*$/gm, '')), `${entry}: every import.meta.url in code is rebased`);
  }
});
