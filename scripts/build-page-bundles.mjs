#!/usr/bin/env node
// Bundles the pages' and workers' module graphs in a built site (issue 26.3, first start): the
// explorer and the lab load one script each and their workers one each, instead of a waterfall of
// about ten levels of imports (66 requests before the explorer's first result; on a network every
// level costs a round trip). Each bundle replaces its entry file in place, so every URL the site
// uses stays as it was: the pages' <script src>, the worker URLs, lib/attnx.js and the other
// source modules (still served, for those who import them one by one).
//   node scripts/build-page-bundles.mjs <site dir>      (dist.tmp, from scripts/build-dist)
import { build, transform } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'web');

// The modules that start a module graph: the two pages and the two workers.
export const PAGE_ENTRIES = ['explorer/main.js', 'lab/main.js', 'lib/worker.js', 'explorer/render-worker.js'];

// The name a bundled module's own URL is bound to (esbuild renames the copies apart).
export const MODULE_URL = '__attnxModuleUrl';

/**
 * Source text of web module `file` for a bundle written at site path `entry`: its
 * `import.meta.url` becomes the URL the module has when served unbundled (resolved against the
 * bundle's own URL), so the URLs it builds (workers, stories, the WebAssembly, the sample heads)
 * are the same bundled or not, from any sub-path. esbuild's define replaces only the expression,
 * never a comment or a string that names it.
 */
export async function rebaseImportMeta(text, file, entry) {
  const rel = relative(dirname(join(WEB, entry)), file).split(sep).join('/');
  const { code } = await transform(text, { loader: 'js', format: 'esm', define: { 'import.meta.url': MODULE_URL } });
  if (!new RegExp(`\\b${MODULE_URL}\\b`).test(code)) return code;
  const url = JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`);
  return `const ${MODULE_URL} = new URL(${url}, import.meta.url).href;\n${code}`;
}

function rebasePlugin(entry) {
  return {
    name: 'rebase-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => ({
        contents: await rebaseImportMeta(readFileSync(args.path, 'utf8'), args.path, entry), loader: 'js',
      }));
    },
  };
}

async function main() {
  const site = process.argv[2];
  if (!site) throw new Error('usage: node scripts/build-page-bundles.mjs <site dir>');
  for (const entry of PAGE_ENTRIES) {
    await build({
      entryPoints: [join(WEB, entry)], outfile: resolve(site, entry), allowOverwrite: true,
      bundle: true, format: 'esm', target: 'es2020', legalComments: 'none', logLevel: 'warning',
      plugins: [rebasePlugin(entry)],
      // lib/attnx.js's Node-only branch reads the .wasm with node:fs: only Node ever runs it.
      external: ['node:*'],
    });
  }
  console.log(`build-page-bundles: ${PAGE_ENTRIES.join(', ')} bundled`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`build-page-bundles: ${e.message}`);
    process.exit(1);
  });
}
