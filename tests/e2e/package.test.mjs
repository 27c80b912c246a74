// `npm pack` yields a package with the built site and the embed module: installed into an empty
// folder, its `attnx-serve` serves it, both pages compute, and a page on another origin uses the
// elements from it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../scripts/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
let work, browser, served, host;

// Starts the installed package's attnx-serve on a free port; resolves with { url, proc }.
function serveInstalled(dir) {
  return new Promise((resolve, reject) => {
    const proc = spawn(join(dir, 'node_modules', '.bin', 'attnx-serve'), ['--port', '0'], { cwd: dir });
    let out = '';
    proc.stdout.on('data', (b) => {
      out += b;
      const m = /at (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], proc });
    });
    proc.on('exit', (code) => reject(new Error(`attnx-serve exited with ${code}: ${out}`)));
  });
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'attnx-pack-'));
  const tgz = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop();
  const app = join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), '{ "name": "empty", "private": true }\n');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, tgz)], { cwd: app });
  assert.ok(existsSync(join(app, 'node_modules', 'attnx', 'dist', 'embed', 'attnx.js')), 'the package holds the embed module');
  served = await serveInstalled(app);
  host = await startServer(work, 0);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  served?.proc.kill();
  await host?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the installed package serves both pages, which compute', async () => {
  const page = await browser.newPage();
  await page.goto(`${served.url}#v=1&L=64&d=256`);
  await page.waitForFunction(() => Number(document.documentElement.dataset.runs || 0) >= 1, null, { timeout: 60000 });
  await page.goto(`${served.url}lab.html#preset=paper&Ls=16,32&trials=2&autorun=1`);
  await page.waitForFunction(() => (window.attnxLab?.result?.points.length ?? 0) === 2 && document.body.dataset.run === 'done', null, { timeout: 60000 });
  await page.close();
});

test('a page on another origin uses the elements from the installed package', async () => {
  writeFileSync(join(work, 'host.html'), `<!doctype html><meta charset="utf-8">
<script type="module" src="${served.url}embed/attnx.js"></script>
<attnx-explorer id="e" l="32" d="128"></attnx-explorer>`);
  const page = await browser.newPage();
  await page.goto(`${host.url}host.html`);
  await page.waitForFunction(() => document.getElementById('e').runs > 0, null, { timeout: 60000 });
  await page.close();
});
