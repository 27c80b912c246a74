#!/usr/bin/env node
// Writes the one-file pages (issue 45) into a built site: attnx.html (the explorer) and
// attnx-lab.html (the lab), each a single HTML file that opens from disk (file://), offline, in a
// browser with WebAssembly SIMD. Inside each: the page rendered from its template, its style
// sheets, its code bundled with its workers' code as text (started from blob: URLs as classic
// workers, the only kind a file:// page may start), the simd WebAssembly build (gzip, base64;
// unpacked by DecompressionStream), the files the page fetches (the explorer's stories and sample
// head), a slot for a saved view (web/common/one-file.js) and, in the explorer, the part of the
// core's schema the Python package checks its arguments against (python/attnx). The code is
// the served site's own: web/standalone/site-files.js replaces web/lib/site-files.js, nothing else.
//   node scripts/build-standalone.mjs [site dir]      (default dist/; after scripts/build-dist)
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync, constants } from 'node:zlib';
import { renderPage } from './build-pages.mjs';
import { MODULE_URL } from './build-page-bundles.mjs';
import { SCHEMA_ID, MAX_SAVED_HEAD_BYTES, emptyViewBlock } from '../web/common/one-file.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WEB = join(ROOT, 'web');
const SIMD_WASM = join(WEB, 'wasm', 'attnx_simd.wasm');

const STORIES = readdirSync(join(WEB, 'explorer', 'stories')).filter((f) => f.endsWith('.json')).sort();
/** The one-file pages: the template, the file written, the entry, the workers and files inline. */
export const ONE_FILE_PAGES = [
  {
    page: 'explorer', template: 'index.html', out: 'attnx.html', entry: 'standalone/explorer.js', schema: true,
    workers: ['lib/worker.js', 'explorer/render-worker.js'],
    files: [...STORIES.map((f) => [`explorer/stories/${f}`, join(WEB, 'explorer', 'stories', f), 'application/json']),
      ['examples/heads.npy', join(ROOT, 'examples', 'heads.npy'), 'application/octet-stream']],
  },
  { page: 'lab', template: 'lab.html', out: 'attnx-lab.html', entry: 'standalone/lab.js', schema: false, workers: ['lib/worker.js'], files: [] },
];
// The served pages' names and the one-file pages' names, for the links between them.
const RENAMED = { 'index.html': 'attnx.html', 'lab.html': 'attnx-lab.html' };

const gzip = (bytes) => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// Every module's import.meta.url becomes its URL under the site's root (the expression `rootExpr`,
// which the bundle's first line defines), so the URLs it builds name the site's paths as served.
function rootRelative(rootExpr) {
  return {
    name: 'root-relative-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.m?js$/ }, async (args) => {
        const text = readFileSync(args.path, 'utf8');
        // esbuild's define replaces the expression only, never a comment or a string naming it.
        const { code } = await transform(text, { loader: 'js', format: 'esm', define: { 'import.meta.url': MODULE_URL } });
        if (!new RegExp(`\\b${MODULE_URL}\\b`).test(code)) return { contents: code, loader: 'js' };
        const rel = relative(WEB, args.path).split(sep).join('/');
        return { contents: `const ${MODULE_URL} = new URL(${JSON.stringify(rel)}, ${rootExpr}).href;\n${code}`, loader: 'js' };
      });
    },
  };
}

// web/lib/site-files.js -> web/standalone/site-files.js; attnx-standalone:resources -> `resources`.
function standalonePlugin(resources) {
  return {
    name: 'one-file',
    setup(b) {
      b.onResolve({ filter: /site-files\.js$/ }, (args) => (resolve(args.resolveDir, args.path) === join(WEB, 'lib', 'site-files.js')
        ? { path: join(WEB, 'standalone', 'site-files.js') } : undefined));
      b.onResolve({ filter: /^attnx-standalone:resources$/ }, () => ({ path: 'resources', namespace: 'one-file' }));
      b.onLoad({ filter: /.*/, namespace: 'one-file' }, () => ({ contents: `export default ${JSON.stringify(resources)};`, loader: 'js' }));
    },
  };
}

const COMMON = {
  bundle: true, write: false, minify: true, target: 'es2020', legalComments: 'none', logLevel: 'warning', external: ['node:*'],
};

// A worker's script: one classic script (IIFE) whose site root comes from its first line.
async function bundleWorker(path) {
  const r = await build({
    ...COMMON, entryPoints: [join(WEB, path)], format: 'iife',
    banner: { js: 'var __attnxRoot = self.__attnxInline.root;' },
    plugins: [standalonePlugin(null), rootRelative('__attnxRoot')],
  });
  return r.outputFiles[0].text;
}

// The page's module: the entry, the page's code, its workers' scripts and the inline files.
async function bundlePage(spec, resources) {
  const root = '(() => { try { return new URL("./", import.meta.url).href; } catch { return "attnx-file:/"; } })()';
  const r = await build({
    ...COMMON, entryPoints: [join(WEB, spec.entry)], format: 'esm',
    banner: { js: `const __attnxRoot = ${root};` },
    plugins: [standalonePlugin(resources), rootRelative('__attnxRoot')],
  });
  return r.outputFiles[0].text;
}

/** The inline files of a page: { path: { base64, gzip, type } } (compressed when that is smaller). */
export function inlineFiles(files) {
  const out = {};
  for (const [path, file, type] of files) {
    const raw = readFileSync(file), packed = gzip(raw);
    const small = packed.length < raw.length;
    out[path] = { base64: (small ? packed : raw).toString('base64'), gzip: small, type };
  }
  return out;
}

// The part of the core's schema a one-file page publishes for other programs (python/attnx checks
// its arguments against it): the link version and the explorer's link fields, the family of a
// custom target (an imported head's), the pages' limits,
// the number grammar, the sparsification rules' kinds, the option table with the explorer's maxima, and the largest model file a
// saved view carries (one-file.js).
async function schemaBlock() {
  const { load } = await import(pathToFileURL(join(WEB, 'lib', 'attnx.js')).href);
  const api = await load({ flavour: 'simd' });
  const s = api.schema();
  const pick = {
    core: api.version, linkVersion: s.linkVersion, linkCompute: { explorer: s.linkCompute.explorer }, pageLimits: s.pageLimits,
    customFamily: s.families.find((f) => !f.generated).name,  // the family of an imported head's target
    numberGrammar: s.numberGrammar, ruleKinds: s.ruleKinds, options: s.options, explorerMax: s.contexts.explorer.max, maxSavedHeadBytes: MAX_SAVED_HEAD_BYTES,
  };
  return `<script type="application/json" id="${SCHEMA_ID}">${JSON.stringify(pick).replace(/</g, '\\u003c')}</script>\n`;
}

// Throws unless the code and the style sheets end where their element should: no "</script" or
// "<!--" in the code (after "<!--", a "<script" in it would make the parser skip the next
// "</script>"; esbuild writes "</script" in a string as "<\\/script"), no "</style" in the CSS.
export function checkRawText({ code, css }) {
  if (/<\/script|<!--/i.test(code)) throw new Error('the code holds "</script" or "<!--", which would end its element early');
  if (/<\/style/i.test(css)) throw new Error('a style sheet holds "</style", which would end its element early');
}

// The page's text with `css` and `code` inline and the one-file page's own head, links and hint.
function pageHtml(spec, rendered, { css, code, schema }) {
  checkRawText({ code, css });
  let html = rendered;
  const links = [...html.matchAll(/<link rel="stylesheet" href="[^"]+">\n?/g)];
  if (links.length === 0) throw new Error(`${spec.template}: no style sheets found`);
  html = html.replace(/<link rel="stylesheet" href="[^"]+">\n?/g, '');
  html = html.replace(/<meta property="og:image[^>]*>\n?|<meta name="twitter:card"[^>]*>\n?/g, '');
  const icon = `data:image/svg+xml;base64,${readFileSync(join(WEB, 'favicon.svg')).toString('base64')}`;
  html = html.replace(/<link rel="icon" href="favicon.svg"/, `<link rel="icon" href="${icon}"`);
  const script = /<script type="module" src="[^"]+"><\/script>/;
  if (!script.test(html)) throw new Error(`${spec.template}: no module script found`);
  html = html.replace(script, () => `<style>${css}</style>\n<script type="module">${code}</script>`);
  html = html.replace(/<p class="file-hint" id="file-hint">[\s\S]*?<\/p>/, () => '<p class="file-hint" id="file-hint">Nothing appears? This one-file page computes in your browser with JavaScript, Web Workers and WebAssembly SIMD: open it in a current Chrome, Edge, Firefox or Safari with JavaScript on.</p>');
  for (const [from, to] of Object.entries(RENAMED)) html = html.replaceAll(`href="${from}"`, `href="${to}"`);
  const blocks = `${emptyViewBlock()}\n${schema || ''}`;
  html = html.replace(/<\/body>/, () => `${blocks}</body>`);
  const csp = [
    "default-src 'none'", `script-src ${sha256(code)} 'wasm-unsafe-eval'`, `style-src ${sha256(css)}`,
    'img-src data: blob:', 'worker-src blob:', "connect-src 'none'", "base-uri 'none'", "form-action 'none'",
  ].join('; ');
  html = html.replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
  return html;
}

// The page's style sheets (its <link rel="stylesheet"> in order) as one text.
function pageCss(rendered) {
  const hrefs = [...rendered.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
  return hrefs.map((h) => readFileSync(join(WEB, h), 'utf8')).join('\n');
}

/** Builds one page into `site`; returns { file, bytes }. */
async function buildPage(spec, site, wasm) {
  const workers = {};
  for (const w of spec.workers) workers[w] = await bundleWorker(w);
  const code = await bundlePage(spec, { wasm, workers, files: inlineFiles(spec.files) });
  const rendered = renderPage(readFileSync(join(WEB, spec.template), 'utf8'), join(WEB, 'shell'), spec.template);
  const html = pageHtml(spec, rendered, { css: pageCss(rendered), code, schema: spec.schema ? await schemaBlock() : '' });
  const file = join(site, spec.out), tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, html);
  renameSync(tmp, file);
  return { file, bytes: Buffer.byteLength(html) };
}

async function buildAll(site) {
  if (!existsSync(SIMD_WASM)) {
    console.error(`build-standalone: warning: ${relative(ROOT, SIMD_WASM)} is missing; run scripts/build-wasm simd first (no one-file pages written)`);
    return [];
  }
  const wasm = gzip(readFileSync(SIMD_WASM)).toString('base64');
  const out = [];
  for (const spec of ONE_FILE_PAGES) out.push(await buildPage(spec, site, wasm));
  return out;
}

async function main() {
  const site = resolve(process.argv[2] || join(ROOT, 'dist'));
  if (!existsSync(join(site, 'index.html'))) throw new Error(`${site} is not a built site (run scripts/build-dist first)`);
  for (const { file, bytes } of await buildAll(site)) {
    console.log(`build-standalone: ${relative(process.cwd(), file) || file} (${(bytes / 1024 / 1024).toFixed(2)} MiB, ${bytes} bytes)`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`build-standalone: ${e.message}`);
    process.exit(1);
  });
}
