// scripts/serve.mjs (static server) and scripts/build-dist (dist/ = copy of web/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'attnx-serve-'));
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(dir, 'a.mjs'), 'export default 1;');
  writeFileSync(join(dir, 'a.js'), 'export default 1;');
  writeFileSync(join(dir, 'a.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(join(dir, 'a.css'), 'body{}');
  writeFileSync(join(dir, 'a.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'sub', 'index.html'), 'sub');
  return dir;
}

test('serves files with the right MIME types and refuses traversal', async () => {
  const dir = fixture();
  const srv = await startServer(dir, 0);
  try {
    const type = async (p) => (await fetch(srv.url + p)).headers.get('content-type');
    assert.equal(await type('a.wasm'), 'application/wasm');
    assert.match(await type('a.mjs'), /^text\/javascript/);
    assert.match(await type('a.js'), /^text\/javascript/);
    assert.match(await type('a.css'), /^text\/css/);
    assert.match(await type('a.svg'), /^image\/svg\+xml/);
    assert.match(await type(''), /^text\/html/);
    assert.equal(await (await fetch(srv.url + 'sub/')).text(), 'sub');
    assert.equal((await fetch(srv.url + 'missing.js')).status, 404);
    assert.notEqual((await fetch(srv.url + '%2e%2e/%2e%2e/etc/passwd')).status, 200);
    assert.equal((await fetch(srv.url + '..%2f..%2f..%2fetc%2fpasswd')).status, 403);
    const bytes = new Uint8Array(await (await fetch(srv.url + 'a.wasm')).arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 4)], [0, 97, 115, 109]);
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a busy port falls back to another one', async () => {
  const dir = fixture();
  const a = await startServer(dir, 0);
  const b = await startServer(dir, a.port);
  try {
    assert.notEqual(b.port, a.port);
    assert.equal((await fetch(b.url)).status, 200);
  } finally {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the command line prints the URL', async () => {
  const dir = fixture();
  const child = spawn(process.execPath, [join(root, 'scripts/serve.mjs'), dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const line = await new Promise((ok, fail) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /http:\/\/\S+\//.exec(out);
        if (m) ok(m[0]);
      });
      child.on('exit', (c) => fail(new Error(`serve exited with ${c}`)));
      setTimeout(() => fail(new Error('no URL printed')), 10000);
    });
    assert.equal((await fetch(line)).status, 200);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('scripts/build-dist copies web/ into dist/', { skip: !existsSync(join(root, 'web/index.html')) }, () => {
  execFileSync('bash', [join(root, 'scripts/build-dist')], { cwd: root, stdio: 'pipe' });
  for (const f of ['index.html', 'explorer/main.js', 'css/base.css', 'common/hashstate.js', 'favicon.svg']) {
    assert.ok(existsSync(join(root, 'dist', f)), `dist/${f} is missing`);
  }
  if (existsSync(join(root, 'web/wasm/attnx_simd.wasm'))) assert.ok(existsSync(join(root, 'dist/wasm/attnx_simd.wasm')));
});
