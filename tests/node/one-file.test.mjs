// The one-file pages (issue 45) without a browser: a saved view's block (web/common/one-file.js)
// read field by field, written so that no text ends it early, and named after the view; and the
// built files (scripts/build-standalone.mjs): self-contained (no address outside the file but the
// paper's link), a Content-Security-Policy whose hashes are those of its own scripts and style
// sheet, the schema block the core's own, an empty view, within the size the README states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import { readView, withView, viewBlock, emptyViewBlock, oneFileName, toBase64, fromBase64, VIEW_FORMAT, MAX_SAVED_HEAD_BYTES } from '../../web/common/one-file.js';
import { checkRawText, inlineFiles } from '../../scripts/build-standalone.mjs';
import { load } from '../../web/lib/attnx.js';

const good = { format: VIEW_FORMAT, page: 'explorer', link: '#v=2&L=64', head: { name: 'a.npy', base64: 'AAECAw==' }, survey: true };

test('a saved view is read field by field; each bad field is named and left out', () => {
  assert.deepEqual(readView('null', 'explorer'), { view: null, errors: [] });
  assert.deepEqual(readView(JSON.stringify(good), 'explorer'), { view: { link: '#v=2&L=64', head: good.head, survey: true }, errors: [] });
  const cases = [
    ['{', /^Saved view: the view is not JSON/],
    ['[1]', /^Saved view: the view must be an object/],
    [JSON.stringify({ ...good, format: 'attnx-view/9' }), /^Saved view: format must be "attnx-view\/1" \(got "attnx-view\/9"\)/],
    [JSON.stringify({ ...good, page: 'lab' }), /^Saved view: page must be "explorer" \(got "lab"\)/],
  ];
  for (const [text, said] of cases) {
    const r = readView(text, 'explorer');
    assert.equal(r.view, null, text);
    assert.match(r.errors.join('\n'), said);
  }
  const fields = [
    [{ link: 'v=2&L=64' }, /link must be a link's text starting with "#"/, (v) => v.link === ''],
    [{ head: { name: '', base64: 'AAAA' } }, /head\.name must be a file name of 1 to 256 characters/, (v) => v.head === null],
    [{ head: { name: 'a.npy', base64: 'AAA' } }, /head\.base64 must be the file's bytes in base64/, (v) => v.head === null],
    [{ head: 'a.npy' }, /head must be an object \{ name, base64 \}/, (v) => v.head === null],
    [{ survey: 'yes' }, /survey must be true or false/, (v) => v.survey === false && v.head !== null],
  ];
  for (const [patch, said, check] of fields) {
    const r = readView(JSON.stringify({ ...good, ...patch }), 'explorer');
    assert.match(r.errors.join('\n'), said, JSON.stringify(patch));
    assert.ok(r.view && check(r.view), `the rest of the view is read: ${JSON.stringify(r.view)}`);
  }
  assert.match(readView(JSON.stringify({ ...good, page: 'lab' }), 'lab').errors.join(), /head belongs to explorer views only/);
  assert.equal(readView(JSON.stringify({ ...good, head: null }), 'explorer').view.survey, false, 'no survey without a file');
});

test('a view is written into its block so that nothing in it ends the block early', () => {
  const page = `<p>x</p>${emptyViewBlock()}<p>y</p>`;
  const view = { ...good, link: '#</script><script>alert(1)</script>', head: { name: '</script>.npy', base64: 'AAAA' } };
  const out = withView(page, view);
  assert.equal(out.match(/<\/script>/g).length, 1, 'one end: the block\'s own');
  const text = out.match(/<script type="application\/json" id="attnx-view">([\s\S]*?)<\/script>/)[1];
  assert.deepEqual(JSON.parse(text), view);
  assert.equal(withView(out, null), page, 'saved again over a saved view');
  assert.throws(() => withView('<p>no block</p>', view), /no place for a view/);
  assert.equal(viewBlock(null), emptyViewBlock());
});

test('names, base64', () => {
  assert.equal(oneFileName(['window', 'L64', 'd1776']), 'attnx-window-L64-d1776.html');
  assert.equal(oneFileName(['lab', '../x y', 'L64-512']), 'attnx-lab-x-y-L64-512.html');
  const bytes = new Uint8Array(200000).map((_, i) => (i * 7919) % 256);
  assert.equal(toBase64(bytes), Buffer.from(bytes).toString('base64'), 'chunked as one');
  assert.deepEqual(fromBase64(toBase64(bytes.buffer)), bytes);
  assert.ok(MAX_SAVED_HEAD_BYTES >= 16 * 1024 * 1024);
  assert.throws(() => checkRawText({ code: 'x = "<!--"', css: '' }), /<!--/);
  assert.throws(() => checkRawText({ code: '', css: 'a::after { content: "</style>" }' }), /<\/style/);
  const f = inlineFiles([['examples/heads.npy', join(ROOT, 'examples/heads.npy'), 'application/octet-stream']])['examples/heads.npy'];
  assert.equal(f.gzip, true, 'the sample is smaller gzip-compressed');
});

const BUILT = join(ROOT, 'dist/attnx.html');
const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

test('the built one-file pages are self-contained, under their own CSP, with the core\'s schema', { skip: !existsSync(BUILT) && 'dist/attnx.html is not built (npm run build)' }, async () => {
  const api = await load({ flavour: 'simd' });
  for (const name of ['attnx.html', 'attnx-lab.html']) {
    const html = readFileSync(join(ROOT, 'dist', name), 'utf8');
    assert.ok(Buffer.byteLength(html) <= 1.5 * 1024 * 1024, `${name} is at most 1.5 MiB (README)`);
    const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)[1];
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    assert.equal(scripts.length, 1, `${name}: one module`);
    assert.equal(styles.length, 1, `${name}: one style sheet`);
    assert.match(csp, new RegExp(`script-src ${sha(scripts[0]).replace(/[+/]/g, '\\$&')} 'wasm-unsafe-eval'`));
    assert.match(csp, new RegExp(`style-src ${sha(styles[0]).replace(/[+/]/g, '\\$&')}`));
    assert.match(csp, /default-src 'none'.*connect-src 'none'/);
    assert.doesNotMatch(html, /<script[^>]+src=|<link rel="stylesheet"/, `${name}: nothing loaded from elsewhere`);
    const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1').replace(/<style>[\s\S]*?<\/style>/g, '');
    const addresses = [...markup.matchAll(/(?:href|src)="(?!#|data:)([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(addresses.filter((a) => !['attnx.html', 'attnx-lab.html', './', 'https://arxiv.org/abs/2106.03764'].includes(a)), [], `${name}: ${addresses}`);
    assert.equal(html.match(/<script type="application\/json" id="attnx-view">([\s\S]*?)<\/script>/)[1], 'null');
  }
  const schema = JSON.parse(readFileSync(BUILT, 'utf8').match(/<script type="application\/json" id="attnx-schema">([\s\S]*?)<\/script>/)[1]);
  const s = api.schema();
  assert.deepEqual([schema.pageLimits, schema.linkVersion, schema.options, schema.core], [s.pageLimits, s.linkVersion, s.options, api.version]);
  assert.equal(schema.maxSavedHeadBytes, MAX_SAVED_HEAD_BYTES);
});
