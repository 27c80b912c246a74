// Both pages inside an <iframe> of a host page on another origin, embedded with the snippet the
// Embed button, the README and docs/embedding.md give (web/common/embed-snippet.js): each page
// posts its content height ({ type: 'attnx-height', page, height }), the snippet's script resizes
// the frame to it (no inner scrollbar), the documented examples fit their fixed heights at 360 and 720 px,
// and the lab's embed mode (#embed=1) shows its plot at the top without header and footer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, servedDir } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { frameSnippet, FIXED_HEIGHT } from '../../web/common/embed-snippet.js';
import { reusedPage } from './page-reuse.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE_FILE = { explorer: 'index.html', lab: 'lab.html' };
let pages, host, hostDir, browser, hostPages = 0;

before(async () => {
  hostDir = mkdtempSync(join(tmpdir(), 'attnx-host-'));
  pages = await startServer(servedDir(), 0);
  host = await startServer(hostDir, 0);  // another port: another origin
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await pages?.close();
  await host?.close();
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

// The embedding examples of the README (the explorer's) and docs/embedding.md (both pages'):
// { explorer: { path, height }, lab: { path, height } } (path: "index.html#..." with &amp;
// decoded; height: the snippet's fixed height); the first one of each page counts.
function documentedExamples() {
  const text = ['README.md', 'docs/embedding.md'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
  const out = {};
  for (const m of text.matchAll(/<iframe src="https:\/\/YOUR-HOST\/attnx\/((index|lab)\.html#[^"]*)"[^>]*height="(\d+)"/g)) {
    const page = m[2] === 'index' ? 'explorer' : 'lab';
    out[page] ??= { path: m[1].replace(/&amp;/g, '&'), height: Number(m[3]) };
  }
  return out;
}

// Opens a host page (host origin) holding the snippet of `path` (pages origin) in a box `width`
// px wide. The host records every message with whether it came from the frame. Returns
// { p, ctx, frame, problems }.
async function openHost(page, path, width) {
  const name = `host-${++hostPages}.html`;
  const snippet = frameSnippet({ src: pages.url + path, title: `attnx ${page}`, page });
  writeFileSync(join(hostDir, name), `<!doctype html><html><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<script>
window.received = [];
addEventListener('message', function (e) {
  received.push({ data: e.data, origin: e.origin, fromFrame: e.source === document.querySelector('iframe').contentWindow });
});
</script></head><body style="margin:0"><div style="width:${width}px">${snippet}</div></body></html>`);
  const { context: ctx, page: p } = await reusedPage(browser, { viewport: { width: 1000, height: 900 } });
  const problems = [];
  p.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  p.on('pageerror', (e) => problems.push(e.message));
  await p.goto(host.url + name);
  const frame = await (await p.waitForSelector('iframe')).contentFrame();
  return { p, ctx, frame, problems };
}

// Waits until the page in the frame has drawn its result.
async function pageReady(page, frame) {
  if (page === 'lab') {
    await frame.waitForFunction(() => ['done', 'idle'].includes(document.body.dataset.run), null, { timeout: 60000 });
  } else {
    await frame.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1
      && document.documentElement.dataset.busy === '0', null, { timeout: 90000 });
  }
}

// Waits until the frame is as tall as the last height posted and shows its whole document, the
// same in two looks 250 ms apart (the page has stopped changing). Returns { frameHeight, posted,
// scrollHeight, clientHeight, scrollWidth, clientWidth }.
async function settled(p, frame) {
  let m, prev = null;
  for (let i = 0; i < 80; i++) {
    const h = await p.evaluate(() => ({
      frameHeight: document.querySelector('iframe').getBoundingClientRect().height,
      posted: received.length ? received[received.length - 1].data.height : null,
    }));
    const d = await frame.evaluate(() => {
      const e = document.documentElement;
      return { scrollHeight: e.scrollHeight, clientHeight: e.clientHeight, scrollWidth: e.scrollWidth, clientWidth: e.clientWidth };
    });
    m = { ...h, ...d };
    const fits = m.posted !== null && Math.abs(m.frameHeight - m.posted) < 0.5 && m.scrollHeight <= m.frameHeight + 1;
    if (fits && prev && JSON.stringify(prev) === JSON.stringify(m)) return m;
    prev = fits ? m : null;
    await p.waitForTimeout(250);
  }
  assert.fail(`the frame did not settle at its content height: ${JSON.stringify(m)}`);
}

// The messages the host received: all height messages of `page`, from the frame, from the pages'
// origin (not the host's), with whole pixel heights.
async function checkMessages(p, page) {
  const received = await p.evaluate(() => received);
  assert.ok(received.length >= 1, 'at least one height message');
  for (const r of received) {
    assert.equal(r.data.type, 'attnx-height');
    assert.equal(r.data.page, page);
    assert.ok(Number.isInteger(r.data.height) && r.data.height > 0, `height ${r.data.height}`);
    assert.equal(r.fromFrame, true);
    assert.equal(`${r.origin}/`, pages.url);
  }
  assert.notEqual(new URL(pages.url).origin, new URL(host.url).origin);
  return received.map((r) => r.data.height);
}

const visible = (frame, sel) => frame.locator(sel).first().isVisible();

for (const page of ['explorer', 'lab']) {
  for (const width of [360, 720]) {
    test(`${page}: the documented embed in a ${width} px frame on another origin is resized to its content and fits the fixed height`, async (t) => {
      const ex = documentedExamples()[page];
      assert.ok(ex, `README or docs/embedding.md has an iframe example of ${PAGE_FILE[page]}`);
      assert.equal(ex.height, FIXED_HEIGHT[page], 'the documented example and the Embed snippet give the same fixed height');
      assert.match(ex.path, /[#&]embed=1(&|$)/);
      const { p, ctx, frame, problems } = await openHost(page, ex.path, width);
      await pageReady(page, frame);
      const m = await settled(p, frame);
      const heights = await checkMessages(p, page);
      t.diagnostic(`${page} at ${width} px: content ${m.posted} px (posted ${heights.join(', ')}); fixed height ${FIXED_HEIGHT[page]}`);
      assert.equal(Math.round(m.frameHeight), m.posted, 'the frame has the posted height');
      assert.ok(m.scrollHeight <= m.frameHeight + 1, `no inner scrollbar: ${m.scrollHeight} > ${m.frameHeight}`);
      assert.ok(m.scrollWidth <= m.clientWidth, `no horizontal overflow at ${width} px`);
      assert.ok(m.posted <= FIXED_HEIGHT[page], `the fixed height ${FIXED_HEIGHT[page]} fits (content ${m.posted})`);
      if (page === 'explorer') {
        assert.match(await frame.textContent('#summary .badge'), /\(R\) and \(Z\) hold/, 'the documented example succeeds');
      } else {
        assert.equal(await frame.evaluate(() => document.body.dataset.run), 'done');
        assert.match(await frame.textContent('#fit-sentence'), /Logarithmic fit/);
        const top = await frame.evaluate(() => document.getElementById('plot-dl').getBoundingClientRect().top);
        assert.ok(top < 300, `the plot starts ${top} px down the frame`);
        for (const sel of ['.top', '.foot', '#settings', '.results']) assert.equal(await visible(frame, sel), false, `${sel} hidden`);
        for (const sel of ['#plot-dl svg', '#plot-sd svg', '#paper-box', '#run', '#open-full']) assert.equal(await visible(frame, sel), true, `${sel} shown`);
      }
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
}

test('lab: #embed=1 is a setting (no "unknown setting"), hides header, footer and the form; Run works and the frame follows', async () => {
  const { p, ctx, frame, problems } = await openHost('lab', 'lab.html#embed=1&Ls=16,32,64&trials=3', 360);
  await pageReady('lab', frame);
  assert.deepEqual(await frame.$$eval('#messages li', (l) => l.map((x) => x.textContent)), []);
  assert.match(await frame.textContent('#status'), /Press Run sweep/);
  assert.equal(await frame.evaluate(() => document.body.classList.contains('embed')), true);
  for (const sel of ['.top', '.foot', '#settings', '#preset-paper', '.skip', '.lab-about']) assert.equal(await visible(frame, sel), false, `${sel} hidden`);
  for (const sel of ['#fig-dl', '#fig-sd', '#run']) assert.equal(await visible(frame, sel), true, `${sel} shown`);
  const before = await settled(p, frame);
  await frame.click('#run');
  await frame.waitForFunction(() => document.body.dataset.run === 'done', null, { timeout: 60000 });
  await frame.waitForFunction(() => /Logarithmic fit/.test(document.getElementById('fit-sentence').textContent));
  const afterRun = await settled(p, frame);
  assert.ok(afterRun.posted > before.posted, `the fit sentence makes the content taller (${before.posted} -> ${afterRun.posted})`);
  await checkMessages(p, 'lab');
  // The link to the full lab: these settings as a current (v=2) link, without embed mode.
  const full = await frame.getAttribute('#open-full', 'href');
  assert.match(full, /lab\.html#v=3&Ls=16,32,64&/);
  assert.doesNotMatch(full, /embed|controls/);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('lab: #embed=1&controls=1 shows the settings form after the figures; a preset keeps embed mode', async () => {
  const { p, ctx, frame, problems } = await openHost('lab', 'lab.html#embed=1&controls=1&Ls=16,32', 720);
  await pageReady('lab', frame);
  assert.deepEqual(await frame.$$eval('#messages li', (l) => l.map((x) => x.textContent)), []);
  for (const sel of ['#settings', '#preset-paper', '#f-Ls']) assert.equal(await visible(frame, sel), true, `${sel} shown`);
  for (const sel of ['.top', '.foot']) assert.equal(await visible(frame, sel), false, `${sel} hidden`);
  const tops = await frame.evaluate(() => ['plot-dl', 'settings'].map((id) => document.getElementById(id).getBoundingClientRect().top));
  assert.ok(tops[0] < 300 && tops[0] < tops[1], `plot first (${tops[0]}), then the form (${tops[1]})`);
  await settled(p, frame);
  await frame.click('#preset-paper');
  assert.equal(await frame.evaluate(() => document.body.classList.contains('embed-controls')), true);
  assert.match(await frame.evaluate(() => location.hash), /&embed=1&controls=1$/);
  await settled(p, frame);
  assert.deepEqual(problems, []);
  await ctx.close();
});
