// attnx in a notebook (issue 45), for real: the Python package installed from the checkout
// (pip install --target, offline, as docs/notebook.md says), examples/notebook.ipynb executed by
// Debian's Jupyter (nbconvert --execute, an ipykernel kernel) and converted to HTML, which headless
// Chromium opens from file:// with the network refused. In the output's frame the explorer shows
// the notebook's generated previous-token head (layer 1, head 2) as A, the achieved M and the
// verdict, with the numbers the module in Node gives for the same head built here from the same
// formula; the survey's frame shows every head with the numbers of the native CLI for its file.
// Jupyter comes from scripts/setup (jupyter-notebook, python3-nbconvert, python3-nbclient,
// python3-ipykernel: the test path only).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../../scripts/chromium.mjs';
import { load } from '../../web/lib/attnx.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = '/usr/bin/python3';  // Debian's: its Jupyter, NumPy and ipykernel
const CLI = join(ROOT, 'build/native/attnx');
let browser, tmp, api, notebookHtml;

// The notebook's previous-token head, built from its formula (examples/notebook.ipynb).
function previousTokenHead(L) {
  const a = Array.from({ length: L }, () => new Array(L).fill(0));
  a[0][0] = 1;
  [a[1][0], a[1][1]] = [0.7, 0.3];
  for (let i = 2; i < L; i++) {
    for (let j = 0; j < i - 1; j++) a[i][j] = 0.1 / (i - 1);
    [a[i][i - 1], a[i][i]] = [0.6, 0.3];
  }
  return a;
}

before(async () => {
  assert.ok(existsSync(PYTHON) && execFileSync(PYTHON, ['-c', 'import nbconvert, nbclient, ipykernel; print(1)'], { encoding: 'utf8' }).trim() === '1',
    "Debian's Jupyter is missing: run bash scripts/setup (it installs jupyter-notebook, python3-nbconvert, python3-nbclient, python3-ipykernel)");
  assert.ok(existsSync(join(ROOT, 'dist/attnx.html')), 'dist/attnx.html is missing: run npm run build');
  tmp = mkdtempSync(join(tmpdir(), 'attnx-notebook-'));
  execFileSync(PYTHON, ['-m', 'pip', 'install', '--quiet', '--no-index', '--no-deps', '--target', join(tmp, 'site'), join(ROOT, 'python')],
    { stdio: 'pipe', env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } });
  execFileSync(PYTHON, ['-m', 'nbconvert', '--to', 'html', '--execute', '--ExecutePreprocessor.timeout=600', '--output-dir', tmp, '--output', 'notebook',
    join(ROOT, 'examples/notebook.ipynb')], { stdio: 'pipe', cwd: tmp, env: { ...process.env, PYTHONPATH: join(tmp, 'site'), PYDEVD_DISABLE_FILE_VALIDATION: '1' } });
  notebookHtml = join(tmp, 'notebook.html');
  api = await load({ flavour: 'simd' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// The notebook's HTML from file://, offline: { page, frames (the outputs' frames), requests made
// by them (refused) }.
async function openNotebook() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, offline: true });
  const requests = [];
  await context.route('**/*', (route) => {
    const r = route.request();
    if (/^(file|blob|data):/.test(r.url())) return route.continue();
    if (r.frame().url().startsWith('about:srcdoc')) requests.push(r.url());
    return route.abort();
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' && m.location().url.startsWith('about:srcdoc')) problems.push(m.text()); });
  await page.goto(pathToFileURL(notebookHtml).href);
  await page.waitForFunction(() => document.querySelectorAll('iframe[srcdoc]').length === 2, null, { timeout: 30000 });
  return { context, page, requests, problems };
}

const outputFrame = async (page, i) => (await (await page.$$('iframe[srcdoc]'))[i].contentFrame());

test('the notebook\'s explorer shows its generated head: A, M and the verdict, with the core\'s numbers', async () => {
  const { context, page, requests, problems } = await openNotebook();
  const frame = await outputFrame(page, 0);
  await frame.waitForFunction(() => /layer 1, head 2 with rule topk:2/.test(document.getElementById('head-msg')?.textContent ?? '')
    && document.documentElement.dataset.busy === '0' && !document.getElementById('head-readout').hidden, null, { timeout: 120000 });
  const L = 12, head = new TextEncoder().encode(JSON.stringify(previousTokenHead(L)));
  const imported = api.importHead(head, 'head.json', { rule: 'topk:2' });
  const schema = api.schema(), st = { ...schema.linkDefaults[String(schema.linkVersion)].explorer, pattern: 'custom', L, d: 256 };
  const opts = Object.fromEntries(schema.linkCompute.explorer.map((k) => [k, st[k]]));
  const want = api.construct({ ...opts, triplets: imported.pattern.triplets }).metrics;
  const shown = await frame.evaluate(() => ({
    metrics: Object.fromEntries([...document.querySelectorAll('#metrics [data-metric]')].map((e) => [e.dataset.metric, e.dataset.value])),
    readout: Object.fromEntries([...document.querySelectorAll('#head-readout [data-head]')].map((e) => [e.dataset.head, e.dataset.value])),
    verdict: document.getElementById('summary').textContent,
    figures: ['A', 'M', 'head'].map((k) => { const c = document.querySelector(`#fig-${k} canvas.heat`); return c && c.width > 0 && !c.closest('[hidden]'); }),
    tokens: [...document.querySelectorAll('#fig-head .tok-rows span')].map((e) => e.textContent),
    link: new URL(document.getElementById('open-full').href).hash,
  }));
  for (const k of ['rho', 'zeta', 'lambda']) assert.equal(Number(shown.metrics[k]), want[k], k);
  for (const k of ['k', 'maxColCount']) assert.equal(Number(shown.metrics[k]), imported.description[k], k);
  assert.equal(shown.metrics.success, String(want.success));
  assert.match(shown.verdict, want.success ? /^✓ \(R\) and \(Z\) hold/ : /^✗ not yet/);
  assert.equal(shown.readout.archetype, imported.description.archetype.code);
  assert.equal(shown.readout.archetype, 'diagonal:-1', 'the previous-token head, not another one');
  assert.equal(Number(shown.readout.keptMassMin), imported.description.keptMassMin);
  assert.deepEqual(shown.figures, [true, true, true], 'A, M and the dense head are drawn');
  assert.ok(shown.tokens.includes('·cat'), `the tokens label the head (${shown.tokens.join(' ')})`);
  const link = new URLSearchParams(shown.link.slice(1));
  assert.deepEqual(['layer', 'head', 'rule', 'd'].map((k) => link.get(k)), ['1', '2', 'topk:2', '256']);
  assert.deepEqual([requests, problems], [[], []]);
  await context.close();
});

test('the notebook\'s survey shows every head with the native CLI\'s numbers for its file', { skip: !existsSync(CLI) && 'needs build/native/attnx' }, async () => {
  const { context, page, requests, problems } = await openNotebook();
  const frame = await outputFrame(page, 1);
  await frame.waitForFunction(() => /^Surveyed 6 heads/.test(document.getElementById('survey-msg')?.textContent ?? ''), null, { timeout: 180000 });
  const view = JSON.parse(await frame.evaluate(() => document.getElementById('attnx-view').textContent));
  const file = join(tmp, 'survey.npz');
  writeFileSync(file, Buffer.from(view.head.base64, 'base64'));
  const rows = JSON.parse(execFileSync(CLI, ['import', file, '--all', '--format', 'json'], { encoding: 'utf8' })).heads;
  const tiles = await frame.evaluate(() => Object.fromEntries([...document.querySelectorAll('#survey-grid .tile')].map((t) => [`${t.dataset.layer},${t.dataset.head}`, t.querySelector('.tile-numbers').textContent])));
  assert.equal(Object.keys(tiles).length, 6);
  for (const r of rows) {
    const text = tiles[`${r.layer},${r.head}`];
    assert.equal(text, `${r.archetype} · k ${r.k} · max col ${r.max_col_count} · ${r.in_class ? 'in' : 'out of'} class · kept ${text.match(/kept (\S+)/)[1]} · d lp ${r.lp_d_min ?? '–'} · jl ${r.jl_d_min ?? '–'}`);
    assert.ok(Math.abs(Number(text.match(/kept (\S+)/)[1]) - r.kept_mass_min) < 5e-4, `kept mass of ${r.layer},${r.head}`);
  }
  assert.equal(rows.find((r) => r.layer === 1 && r.head === 2).archetype, 'diagonal:-1');
  assert.deepEqual([requests, problems], [[], []]);
  await context.close();
});
