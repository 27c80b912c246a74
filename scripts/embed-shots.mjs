#!/usr/bin/env node
// The embed as a reader meets it: serves dist/ and the examples on two origins, opens the blog
// post (examples/blog) and the deck (examples/deck) in headless Chromium, reports the embed
// module's size and the time from the page's start to the first drawn figure, and writes
// screenshots: docs/embed-blog.png, docs/embed-deck.png, and the explorer on a 360 px phone,
// docs/phone.png.
//   node scripts/embed-shots.mjs [--no-shots]
import { cpSync, mkdtempSync, readFileSync, writeFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium, servedDir } from './chromium.mjs';
import { startServer } from './serve.mjs';

const ROOT = new URL('../', import.meta.url).pathname;

// Copies examples/<name> to dir with the attnx URL replaced by the served site's.
function example(name, dir, siteUrl) {
  cpSync(join(ROOT, 'examples', name), join(dir, name), { recursive: true });
  for (const f of ['post.html', 'index.html']) {
    try {
      const p = join(dir, name, f);
      writeFileSync(p, readFileSync(p, 'utf8').replaceAll('http://localhost:8080/', siteUrl));
    } catch { /* not in this example */ }
  }
}

// ms from navigation start to the module's arrival and to the first figure drawn on the page.
async function firstFigure(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('attnx-explorer')].some((e) => e.runs > 0), null, { timeout: 60000 });
  return page.evaluate(() => {
    const mod = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/embed/attnx.js'));
    const first = Math.min(...[...document.querySelectorAll('attnx-explorer')].map((e) => e.firstDrawnAt ?? Infinity));
    return { moduleMs: mod ? mod.responseEnd : null, firstFigureMs: first };
  });
}

async function main() {
  const shots = !process.argv.includes('--no-shots');
  const dist = servedDir();
  const file = join(dist, 'embed', 'attnx.js');
  const raw = statSync(file).size, gz = gzipSync(readFileSync(file)).length;
  console.log(`embed/attnx.js: ${(raw / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzip`);
  const site = await startServer(dist, 0);
  const work = mkdtempSync(join(tmpdir(), 'attnx-shots-'));
  example('blog', work, site.url);
  example('deck', work, site.url);
  const host = await startServer(work, 0);
  const browser = await launchChromium();
  try {
    const blog = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    await blog.goto(`${host.url}blog/post.html`);
    const t = await firstFigure(blog);
    console.log(`blog post: module loaded after ${t.moduleMs?.toFixed(0)} ms, first figure drawn after ${t.firstFigureMs.toFixed(0)} ms (from navigation start)`);
    await blog.waitForFunction(() => [...document.querySelectorAll('attnx-explorer')].every((e) => e.runs > 0), null, { timeout: 60000 });
    if (shots) await blog.screenshot({ path: join(ROOT, 'docs', 'embed-blog.png'), fullPage: false });
    const deck = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await deck.goto(`${host.url}deck/index.html`);
    await firstFigure(deck);
    if (shots) await deck.screenshot({ path: join(ROOT, 'docs', 'embed-deck.png') });
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await phone.goto(`${site.url}#v=1&pattern=window&L=128&w=2&d=2560`);
    await phone.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
    if (shots) await phone.screenshot({ path: join(ROOT, 'docs', 'phone.png') });
  } finally {
    await browser.close();
    await site.close();
    await host.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`embed-shots: ${e.message}`);
  process.exit(1);
});
