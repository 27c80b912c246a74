// The site around the pages: a page opened from disk (file://) says why nothing loads and how to
// serve it; served over http the hint never shows. Both pages link the paper, give a BibTeX
// entry and link-preview (Open Graph) tags whose image is in the build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { PAGE_ENTRIES } from '../../scripts/build-page-bundles.mjs';
import { reusedPage } from './page-reuse.mjs';

const dir = servedDir();
let server, browser;

before(async () => {
  server = await startServer(dir, 0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

for (const page of ['index.html', 'lab.html']) {
  test(`${page} opened from disk shows how to serve it; over http it does not`, async () => {
    const { context, page: p } = await reusedPage(browser, {});
    await p.goto(pathToFileURL(join(dir, page)).href);
    await p.waitForFunction(() => {
      const h = document.getElementById('file-hint');
      return h && getComputedStyle(h).visibility === 'visible';
    }, null, { timeout: 60000 });
    assert.match(await p.textContent('#file-hint'), /file:\/\/.*npm start/s);
    await p.goto(server.url + page);
    await p.waitForFunction(() => !document.getElementById('file-hint'), null, { timeout: 30000 });
    await context.close();
  });

  test(`${page} links the paper, gives its BibTeX and link-preview tags`, async () => {
    const { context, page: p } = await reusedPage(browser, {});
    await p.goto(server.url + page);
    assert.equal(await p.getAttribute('#paper-link', 'href'), 'https://arxiv.org/abs/2106.03764');
    const bib = await p.textContent('#bibtex');
    assert.match(bib, /^@article\{likhosherstov2021expressive,/);
    assert.match(bib, /title\s*=\s*\{On the Expressive Power of Self-Attention Matrices\}/);
    const og = await p.evaluate(() => Object.fromEntries([...document.querySelectorAll('meta[property^="og:"]')]
      .map((m) => [m.getAttribute('property'), m.getAttribute('content')])));
    assert.ok(og['og:title'] && og['og:description'], 'og:title and og:description');
    assert.equal(og['og:image'], 'og.png');
    if (basename(dir) === 'dist') {  // the build copies the README's screenshot (docs/explorer.png) there
      assert.ok(existsSync(join(dir, 'og.png')), 'og.png is in the build');
      assert.equal((await p.request.get(server.url + 'og.png')).status(), 200);
    }
    await context.close();
  });
}

// Issue 26.3 (first start): the pages and their workers are one module each in the build
// (scripts/build-page-bundles.mjs), not a waterfall of imports, and the URLs they build from
// import.meta.url (workers, the WebAssembly) still resolve, also under a sub-path.
const EXPLORER_READY = () => Number(document.documentElement.dataset.runs || 0) >= 1 && document.documentElement.dataset.busy === '0';
const LAB_READY = () => document.body.dataset.run === 'idle' && !!window.attnxLab;
const BUNDLES = PAGE_ENTRIES.map((e) => `/${e}`);

// Opens base + page, waits for ready; returns the paths of the scripts fetched below base (base's
// path removed) and those fetched elsewhere.
async function scriptsOf(base, page, ready) {
  const { context, page: p } = await reusedPage(browser, {});
  const scripts = [], elsewhere = [], errors = [];
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  p.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (/\.m?js$/.test(path)) (path.startsWith(`${prefix}/`) ? scripts : elsewhere).push(path.slice(prefix.length));
  });
  p.on('pageerror', (e) => errors.push(e.message));
  await p.goto(`${base}${page}`);
  await p.waitForFunction(ready, null, { timeout: 60000 });
  await context.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(elsewhere, [], 'no script is fetched from outside the site\'s folder');
  return scripts;
}

for (const [page, ready, main] of [['index.html', EXPLORER_READY, '/explorer/main.js'], ['lab.html', LAB_READY, '/lab/main.js']]) {
  test(`${page} loads one script for the page and one per worker`, async () => {
    const scripts = await scriptsOf(server.url, page, ready);
    const pages = scripts.filter((s) => !s.startsWith('/wasm/'));
    assert.deepEqual([...new Set(pages)].filter((s) => !BUNDLES.includes(s)), [], `only the bundles are fetched (got ${scripts.join(', ')})`);
    assert.ok(pages.includes(main) && pages.includes('/lib/worker.js'), `the page's bundle and the pool worker's (got ${scripts.join(', ')})`);
    if (main === '/explorer/main.js') {  // the render worker starts with the page, before the WebAssembly is asked for
      const render = scripts.indexOf('/explorer/render-worker.js'), wasm = scripts.findIndex((x) => x.startsWith('/wasm/'));
      assert.ok(render >= 0 && render < wasm, scripts.join(', '));
    }
  });
}

test('the bundled explorer works from a sub-path: its workers and WebAssembly are found beside it', async () => {
  const root = mkdtempSync(join(tmpdir(), 'attnx-subpath-'));
  cpSync(dir, join(root, 'sub', 'attnx'), { recursive: true });
  const sub = await startServer(root, 0);
  try {
    const scripts = await scriptsOf(`${sub.url}sub/attnx/`, 'index.html', EXPLORER_READY);
    assert.ok(scripts.includes('/lib/worker.js') && scripts.some((s) => /^\/wasm\/attnx_(simd|scalar)\.mjs$/.test(s)), scripts.join(', '));
  } finally {
    await sub.close();
    rmSync(root, { recursive: true, force: true });
  }
});
