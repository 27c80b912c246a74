// The explorer's imported model head (issue 24) in headless Chromium: the sample served with the
// site, a head and a rule chosen in the settings panel, the target's k, nonzeros and readout equal
// to what the module returns for the same bytes in Node; the choices in the link (the file is
// not); a malformed file gives a message naming it and the problem, and nothing breaks; tokens
// are text (an <img> token never becomes an element); A, M and the verdict stay on the first screen;
// the survey says which settings its numbers are from; thumbnails can be cancelled; a dropped file
// is read only where it is dropped (file-drop.js); a large file and a file with a 10 MB token are
// read and parsed by the workers, never on the page's thread (issue 47).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite } from './site-harness.mjs';
import { load } from '../../web/lib/attnx.js';
import { urlHash } from '../../scripts/explorer-url.mjs';
import { reusedPage } from './page-reuse.mjs';

const site = useSite();
const SAMPLE = readFileSync(fileURLToPath(new URL('../../examples/heads.npy', import.meta.url)));
const EVIL = '<img src=x onerror=alert(1)>';
let api;

before(async () => {
  api = await load({ flavour: 'simd' });
});

async function open(hash = '', viewport = { width: 1280, height: 720 }) {
  const { context, page } = await reusedPage(site.browser, { viewport });
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.goto(site.server.url + hash);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 120000 });
  return { context, page, problems };
}

// Waits until the head tools say they imported (or refused) and the construction is drawn.
async function settled(page, pattern) {
  await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('head-msg').textContent), pattern.source, { timeout: 60000 });
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0', null, { timeout: 120000 });
}

const readout = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#head-readout [data-head]')].map((e) => [e.dataset.head, e.dataset.value])));
const metric = (page, key) => page.getAttribute(`#metrics [data-metric="${key}"]`, 'data-value');

test('the sample, head 2, rule topk:3: the target and the readout are the module\'s; the link keeps the choices', async () => {
  const { context, page, problems } = await open();
  await page.click('#head-tools summary');
  await page.click('#head-sample');
  await settled(page, /heads\.npy: layer 0, head 0/);
  await page.selectOption('#head-head', '2');
  await settled(page, /head 2 with rule topk:2/);
  await page.fill('#head-rule', 'topk:3');
  await page.press('#head-rule', 'Enter');
  await page.locator('#head-rule').blur();
  await settled(page, /head 2 with rule topk:3/);
  const want = api.importHead(SAMPLE, 'heads.npy', { head: 2, rule: 'topk:3' }).description;
  const got = await readout(page);
  assert.equal(Number(got.keptMassMin), want.keptMassMin);
  assert.equal(Number(got.keptMassMedian), want.keptMassMedian);
  assert.equal(got.archetype, want.archetype.code);
  assert.equal(Number(got.nnz), want.nnz);
  assert.equal(got.headInClass, String(want.inClass));
  assert.equal(Number(await metric(page, 'k')), want.k, "the construction's k is the head's");
  assert.equal(Number(await metric(page, 'maxColCount')), want.maxColCount);
  await page.waitForFunction(() => /[&#]rule=topk%3A3(&|$)/.test(location.hash), null, { timeout: 60000 });  // written when changes pause
  const hash = await page.evaluate(() => location.hash);
  const link = new URLSearchParams(hash.slice(1));
  assert.equal(link.get('pattern'), 'custom');
  assert.equal(link.get('head'), '2');
  assert.equal(link.get('rule'), 'topk:3');
  assert.ok(!/heads\.npy/.test(hash), 'the file is not in the link');
  assert.ok(await page.isVisible('#fig-head canvas.heat'), 'the dense head is shown');
  // The link alone: the same target, and a note that the file is not in it.
  const again = await open(hash);
  assert.equal(Number(await metric(again.page, 'k')), want.k);
  assert.match(await again.page.textContent('#head-msg'), /head 2 of layer 0 .*topk:3.*open it again/);
  assert.ok(await again.page.isHidden('#fig-head'), 'no dense head without the file');
  await again.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('A, M and the verdict stay on the first screen with an imported head (1280×720, 1024×768, 390×844)', async () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }, { width: 390, height: 844 }]) {
    const { context, page } = await open('', viewport);
    await page.evaluate(() => document.getElementById('head-sample').click());
    await settled(page, /heads\.npy: layer 0, head 0/);
    await page.evaluate(() => window.scrollTo(0, 0));
    const boxes = await page.evaluate(() => ['#summary', '#fig-A canvas.heat', '#fig-M canvas.heat'].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return { s, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    }));
    const phone = viewport.width < 500;
    for (const b of boxes) {
      if (phone && b.s === '#fig-M canvas.heat') continue;  // on a phone M comes under A (phone.test.mjs)
      assert.ok(b.top >= 0 && b.bottom <= viewport.height && b.right <= viewport.width, `${b.s} on the first screen at ${viewport.width}×${viewport.height}: ${JSON.stringify(b)}`);
    }
    await context.close();
  }
});

test('a malformed file is refused with a message naming it and the problem; the page goes on', async () => {
  const { context, page, problems } = await open();
  await page.setInputFiles('#head-file', { name: 'broken.npy', mimeType: 'application/octet-stream', buffer: SAMPLE.subarray(0, 200) });
  await page.waitForFunction(() => /broken\.npy/.test(document.getElementById('head-msg').textContent) && document.getElementById('head-msg').className === 'msg error', null, { timeout: 30000 });
  const msg = await page.textContent('#head-msg');
  assert.match(msg, /broken\.npy: .*truncated/);
  assert.equal(await page.getAttribute('#head-msg', 'class'), 'msg error');
  await page.setInputFiles('#head-file', { name: 'scores.json', mimeType: 'application/json', buffer: Buffer.from('[[2, -1], [0.5, 0.5]]') });
  await page.waitForFunction(() => /scores\.json/.test(document.getElementById('head-msg').textContent) && document.getElementById('head-msg').className === 'msg error', null, { timeout: 30000 });
  assert.match(await page.textContent('#head-msg'), /scores\.json.*softmax/);
  await page.fill('#f-d', '64');
  await page.waitForFunction(() => document.documentElement.dataset.busy === '0' && /d = 64/.test(document.getElementById('status-text').textContent), null, { timeout: 60000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('tokens are text: an <img> token is a label and a readout, never an element', async () => {
  const L = 8;
  const attention = [Array.from({ length: L }, (_, i) => Array.from({ length: L }, (_, j) => (j === i ? 0.6 : 0.4 / (L - 1))))];
  const tokens = [EVIL, 'the', 'cat', 'sat', 'on', 'a', 'warm', 'mat'];
  const { context, page, problems } = await open();
  await page.setInputFiles('#head-file', { name: 'cv.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ tokens, attention })) });
  await settled(page, /cv\.json: layer 0, head 0/);
  assert.equal(await page.evaluate(() => document.querySelectorAll('img[src="x"], [onerror]').length), 0);
  assert.equal(await page.textContent('#fig-head .tok-rows span'), '<img src=…');
  const box = await page.locator('#fig-head canvas.heat').boundingBox();
  await page.mouse.move(box.x + box.width / (2 * L), box.y + box.height / (2 * L));
  await page.waitForFunction(() => /query 0/.test(document.querySelector('#fig-head .readout').textContent));
  assert.equal(await page.textContent('#fig-head .readout'), `query 0 "${EVIL.slice(0, 23)}…" → key 0 "${EVIL.slice(0, 23)}…": 0.6`);
  assert.match(await page.textContent('#fig-head-said'), /"<img src=x oner…"/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the survey of every head: the module\'s minimal d per head, sorted by a column, cancellable; a click opens the head', async () => {
  const { context, page, problems } = await open();
  await page.click('#head-tools summary');
  await page.click('#head-sample');
  await settled(page, /heads\.npy: layer 0, head 0/);
  // Started and cancelled in one task: the stop button shows as the survey starts, and four small
  // heads may all be surveyed before a second click from here arrives.
  await page.evaluate(() => {
    document.getElementById('survey-run').click();
    document.getElementById('survey-stop').click();
  });
  await page.waitForFunction(() => /Cancelled/.test(document.getElementById('survey-msg').textContent), null, { timeout: 30000 });
  assert.ok(await page.isEnabled('#survey-run'), 'the survey can run again');
  await page.click('#survey-run');
  await page.waitForFunction(() => /Surveyed 4 heads/.test(document.getElementById('survey-msg').textContent), null, { timeout: 300000 });
  await page.selectOption('#survey-sort', 'lpDMin');
  const st = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  const want = [0, 1, 2, 3].map((head) => api.surveyHead(SAMPLE, 'heads.npy', { head, eps: Number(st.eps), tau: Number(st.tau), seed: Number(st.seed) }));
  const order = want.slice().sort((a, b) => a.lpDMin - b.lpDMin || a.head - b.head).map((r) => String(r.head));
  assert.deepEqual(await page.$$eval('#survey-grid .tile', (b) => b.map((x) => x.dataset.head)), order);
  for (const r of want) {
    const text = await page.textContent(`#survey-grid .tile[data-head="${r.head}"] .tile-numbers`);
    assert.ok(text.includes(`d lp ${r.lpDMin} · jl ${r.jlDMin}`) && text.startsWith(r.description.archetype.code), `head ${r.head}: ${text}`);
  }
  await page.click('#survey-grid .tile[data-head="3"]');
  await settled(page, /head 3 with rule topk:2/);
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('head') === '3', null, { timeout: 60000 });
  // Another rule: the tiles' numbers say which settings they were surveyed with until surveyed again.
  await page.fill('#head-rule', 'topk:3');
  await page.dispatchEvent('#head-rule', 'change');
  await settled(page, /head 3 with rule topk:3/);
  assert.match(await page.textContent('#survey-msg'), /surveyed with rule topk:2, ε = [^;]+; the settings are now rule topk:3, .*survey again/);
  await page.fill('#head-rule', 'topk:2');
  await page.dispatchEvent('#head-rule', 'change');
  await settled(page, /head 3 with rule topk:2/);
  assert.match(await page.textContent('#survey-msg'), /^Surveyed with rule topk:2, ε = /);
  assert.deepEqual(problems, []);
  await context.close();
});

// A .npy file of `layers` x `heads` uniform heads of length L (float32, C order).
function uniformHeads(layers, heads, L) {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${layers}, ${heads}, ${L}, ${L}), }`;
  const pad = 64 - ((10 + dict.length + 1) % 64);
  const header = `${dict}${' '.repeat(pad % 64)}\n`;
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1; head[7] = 0; head.writeUInt16LE(header.length, 8);
  const data = Buffer.alloc(4 * layers * heads * L * L);
  for (let i = 0; i < layers * heads * L * L; i++) data.writeFloatLE(1 / L, 4 * i);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}

test('the thumbnails of a file with many heads can be cancelled; the survey can still run', async () => {
  const { context, page, problems } = await open();
  await page.click('#head-tools summary');
  await page.setInputFiles('#head-file', { name: 'many.npy', mimeType: 'application/octet-stream', buffer: uniformHeads(12, 12, 128) });
  await page.waitForSelector('#survey-stop:not([hidden])', { timeout: 60000 });
  await page.click('#survey-stop');
  await page.waitForFunction(() => /Thumbnails stopped after \d+ of 144 heads/.test(document.getElementById('survey-msg').textContent), null, { timeout: 30000 });
  const n = Number((await page.textContent('#survey-msg')).match(/after (\d+) of/)[1]);
  assert.ok(n < 144, `stopped before the end (${n} of 144)`);
  assert.ok(await page.isHidden('#survey-stop'), 'nothing runs any more');
  assert.ok(await page.isEnabled('#survey-run'), 'the survey can still be started');
  assert.equal(await page.$$eval('#survey-grid .tile', (t) => t.length), 144);
  assert.deepEqual(problems, []);
  await context.close();
});

// Drops `bytes` as a file `name` on the element matching selector (a real DragEvent with a
// DataTransfer, as the browser makes for a file dragged from the desktop).
async function dropFile(page, selector, name, bytes) {
  await page.evaluate(({ selector, name, bytes }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], name));
    const target = document.querySelector(selector);
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { selector, name, bytes: [...bytes] });
}

test('a dropped file is read where it is dropped: a head on the head tools, a pattern on the custom tools, elsewhere neither', async () => {
  const { context, page, problems } = await open();
  const before = await urlHash(page);  // the link as written after the first draw (its write is deferred)
  await dropFile(page, '#figures', 'heads.npy', SAMPLE);
  await page.waitForFunction(() => /heads\.npy was not read: drop a model's attention head on these tools, or a pattern's JSON or CSV on "Custom pattern"/.test(document.getElementById('head-msg').textContent), null, { timeout: 60000 });
  assert.ok(await page.evaluate(() => document.getElementById('head-tools').open), 'the head tools open to say where to drop');
  assert.equal(await urlHash(page), before, 'nothing was imported');
  await dropFile(page, '#head-tools', 'heads.npy', SAMPLE);
  await settled(page, /heads\.npy: layer 0, head 0/);
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('head') === '0', null, { timeout: 60000 });
  await dropFile(page, '#custom-tools', 'p.csv', Buffer.from('0,1,1\n1,0,1\n2,2,1\n3,3,1\n'));
  await page.waitForFunction(() => /Imported 4 nonzeros, L = 4/.test(document.getElementById('custom-msg').textContent), null, { timeout: 30000 });
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('L') === '4', null, { timeout: 60000 });
  assert.deepEqual(problems, []);
  await context.close();
});

// Installed before the page's scripts: every read of a Blob's or a Response's bytes on the page's
// thread (not in its workers), with its size; and the main thread's long tasks.
function watchReads() {
  if (typeof window === 'undefined') return;
  window.__reads = [];
  window.__longtasks = [];
  const wrap = (proto, name, size) => {
    const f = proto[name];
    proto[name] = function (...a) { window.__reads.push({ name, size: size(this, a) }); return f.apply(this, a); };
  };
  for (const m of ['arrayBuffer', 'text', 'stream']) wrap(Blob.prototype, m, (b) => b.size);
  for (const m of ['arrayBuffer', 'text', 'json']) wrap(Response.prototype, m, (r) => Number(r.headers.get('content-length')) || -1);
  for (const m of ['readAsArrayBuffer', 'readAsText', 'readAsBinaryString', 'readAsDataURL']) wrap(FileReader.prototype, m, (r, a) => a[0].size);
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
}

// A float32 .npy of `shape` with uniform rows.
function uniformNpy(shape) {
  const L = shape[shape.length - 1];
  let dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  dict += `${' '.repeat((64 - ((10 + dict.length + 1) % 64)) % 64)}\n`;
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(dict.length, 8);
  return Buffer.concat([head, Buffer.from(dict, 'latin1'), Buffer.from(new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(1 / L).buffer)]);
}

test('a large file and a 10 MB token are read and parsed by the workers: the page\'s thread never reads their bytes', async (t) => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(watchReads);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(site.server.url);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 120000 });
  const npy = uniformNpy([4, 1024, 1024]);
  const token = 'x'.repeat(10 * 1024 * 1024);
  const json = Buffer.from(JSON.stringify({ tokens: [token, 'b'], attention: [[[0.5, 0.5], [0.25, 0.75]]] }));
  // Handed to the input by path (a buffer would be decoded by a script on the page's thread).
  const dir = mkdtempSync(join(tmpdir(), 'attnx-heads-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'big.npy'), npy);
  writeFileSync(join(dir, 'token.json'), json);
  await page.evaluate(() => { document.getElementById('head-tools').open = true; });
  await page.setInputFiles('#head-file', join(dir, 'big.npy'));
  await settled(page, /big\.npy: layer 0, head 0 with rule/);
  await page.waitForFunction(() => document.getElementById('survey-progress').hidden, null, { timeout: 120000 });  // thumbnails drawn
  await page.setInputFiles('#head-file', join(dir, 'token.json'));
  await settled(page, /token\.json: layer 0, head 0 with rule/);
  assert.match(await page.textContent('#fig-head-said'), new RegExp(`"${'x'.repeat(15)}…"`));
  await page.click('#head-sample');
  await settled(page, /heads\.npy: layer 0, head 0 with rule/);
  const reads = await page.evaluate(() => window.__reads);
  const files = [npy.length, json.length, SAMPLE.length];
  assert.deepEqual(reads.filter((r) => files.includes(r.size)), [], 'no file is read on the page\'s thread');
  t.diagnostic(`long tasks on the page's thread (ms; measured, not asserted): ${JSON.stringify(await page.evaluate(() => window.__longtasks))}`);
  assert.deepEqual(problems, []);
  await context.close();
});
