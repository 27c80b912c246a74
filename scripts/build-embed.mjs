#!/usr/bin/env node
// Writes dist/embed/attnx.js: one ES module defining <attnx-explorer> and <attnx-lab> (web/embed/),
// bundled by esbuild with the pages' CSS inlined for the shadow roots (see shadowCss). The workers
// and the WebAssembly are the site's own files, fetched relative to the module (dist/lib/, dist/wasm/).
//   node scripts/build-embed.mjs [outdir]      (default dist/embed)
import { build } from 'esbuild';
import { readFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A page style sheet rewritten for a shadow root: :root -> :host (:root[a] -> :host([a])); a dark
 * palette written as a media block (light-dark() colours need nothing) applies to
 * :host([theme="dark"]) and, under prefers-color-scheme: dark, to :host([theme="auto"]); body and
 * html -> .ax (the element's box; its embed mode is .ax.embed); viewport width media queries ->
 * container queries on .ax (the element follows its container, not the window).
 */
export function shadowCss(text) {
  let css = text.replace(/:root\[([^\]]+)\]/g, ':host([$1])').replace(/:root\b/g, ':host');
  css = css.replace(/@media \(prefers-color-scheme: dark\) \{\s*:host \{([^}]*)\}\s*\}/g,
    (m, body) => `:host([theme="dark"]) {${body}}\n@media (prefers-color-scheme: dark) {\n  :host([theme="auto"]) {${body}}\n}`);
  css = css.replace(/\bbody\.embed\b/g, '.ax.embed').replace(/\bbody:not\(\.embed\)/g, '.ax:not(.embed)');
  css = css.replace(/(^|[\s,{}])(body|html)(?=[\s{,.:[])/gm, '$1.ax');
  css = css.replace(/@media \(((?:max|min)-width: [^)]+)\)/g, '@container ax ($1)');
  return css;
}

// Inlines @import "x.css" (each rewritten by shadowCss) into the importing style sheet.
function inlineCss(file) {
  const text = readFileSync(file, 'utf8');
  return text.replace(/@import "([^"]+)";/g, (m, rel) => shadowCss(readFileSync(join(dirname(file), rel), 'utf8')));
}

const cssText = {
  name: 'shadow-css',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, (args) => ({ contents: inlineCss(args.path), loader: 'text' }));
  },
};

async function main() {
  const outdir = resolve(process.argv[2] || join(ROOT, 'dist', 'embed'));
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, 'attnx.js');
  await build({
    entryPoints: [join(ROOT, 'web', 'embed', 'index.js')], outfile, bundle: true, format: 'esm',
    minify: true, target: 'es2020', legalComments: 'none', plugins: [cssText], logLevel: 'warning',
    // <attnx-lab> loads the module on the page (web/lib/attnx.js), whose Node-only branch reads the
    // .wasm with node:fs: left as an import that only Node ever runs.
    external: ['node:*'],
  });
  const raw = statSync(outfile).size, gz = gzipSync(readFileSync(outfile)).length;
  console.log(`build-embed: ${outfile} (${(raw / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzip)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`build-embed: ${e.message}`);
    process.exit(1);
  });
}
