// scripts/serve.mjs (static server), scripts/start.mjs (npm start: the URL at once, the build in
// the background) and scripts/build-dist (the site rendered from web/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, existsSync, rmSync, readdirSync } from 'node:fs';
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
      setTimeout(() => fail(new Error('no URL printed')), 60000).unref();  // a guard: never keeps the test alive
    });
    assert.equal((await fetch(line)).status, 200);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

// Starts scripts/start.mjs on a free port with a stand-in build command (ATTNX_BUILD_CMD) and
// folder (ATTNX_SERVE_DIR); resolves { child, url, out() } once it has printed its URL.
async function startWith(buildCmd, dir) {
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ATTNX_BUILD_CMD: buildCmd, ATTNX_SERVE_DIR: dir },
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const url = await new Promise((ok, fail) => {
    const check = setInterval(() => {
      const m = /at (http:\/\/\S+\/)/.exec(out);
      if (m) { clearInterval(check); ok(m[1]); }
    }, 20);
    child.on('exit', (c) => { clearInterval(check); fail(new Error(`start exited with ${c}: ${out}`)); });
  });
  return { child, url, out: () => out };
}

// Polls fn until it returns a truthy value (the build runs in another process); gives up after
// `tries` polls so that a broken start fails the test instead of hanging it.
async function until(fn, tries = 1200) {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the state polled for never came');
}

test('npm start prints the URL before the build ends: a page with its progress stands in until the site exists', async () => {
  const work = mkdtempSync(join(tmpdir(), 'attnx-start-'));
  const dir = join(work, 'site'), go = join(work, 'go');
  // The stand-in build reports progress as CMake does, waits for the test, then makes the site.
  const cmd = `echo "[ 42%] Building CXX object core/x.o"; while [ ! -f '${go}' ]; do sleep 0.05; done; mkdir -p '${dir}'; echo site > '${dir}/index.html'; echo done`;
  const { child, url, out } = await startWith(cmd, dir);
  try {
    const page = await fetch(url);
    assert.equal(page.status, 503, 'the stand-in is no page to cache');
    assert.match(await page.text(), /attnx is being built/);
    const st = await until(async () => { const j = await (await fetch(`${url}__attnx-build`)).json(); return j.progress === 0.42 && j; });
    assert.equal(st.state, 'building');
    assert.match(st.detail, /Building CXX object/);
    writeFileSync(go, '');
    await until(async () => (await (await fetch(`${url}__attnx-build`)).json()).state === 'ready');
    const site = await fetch(url);
    assert.equal(site.status, 200);
    assert.equal((await site.text()).trim(), 'site');
    assert.match(out(), /the site is ready at http/);
  } finally {
    child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
});

test('npm start: a failed build is said in the terminal and on the stand-in page; the server keeps running', async () => {
  const work = mkdtempSync(join(tmpdir(), 'attnx-start-'));
  const { child, url, out } = await startWith('echo "em++: error: something broke" >&2; exit 3', join(work, 'site'));
  try {
    const st = await until(async () => { const j = await (await fetch(`${url}__attnx-build`)).json(); return j.state !== 'building' && j; });
    assert.equal(st.state, 'failed');
    assert.match(st.detail, /something broke/);
    assert.match(out(), /the build failed \(exit 3\)/);
    assert.equal((await fetch(url)).status, 503, 'still serving');
  } finally {
    child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
});

test('npm start refuses a bad flag with a message naming it', () => {
  const r = spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), '--port', '99999'], { encoding: 'utf8', env: { ...process.env, ATTNX_BUILD_CMD: 'exit 0' } });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--port must be an integer from 0 to 65535 \(got "99999"\)/);
});

// Into a folder of its own: other test files serve dist/ while this one runs (scripts/e2e.mjs runs
// files side by side).
test('scripts/build-dist renders web/ into the folder named, and refuses one it did not make', { skip: !existsSync(join(root, 'web/index.html')) }, () => {
  const work = mkdtempSync(join(tmpdir(), 'attnx-dist-'));
  try {
    const out = join(work, 'site');
    execFileSync('bash', [join(root, 'scripts/build-dist'), out], { cwd: root, stdio: 'pipe' });
    for (const f of ['index.html', 'explorer/main.js', 'css/base.css', 'common/hashstate.js', 'favicon.svg', 'embed/attnx.js']) {
      assert.ok(existsSync(join(out, f)), `${f} is missing`);
    }
    if (existsSync(join(root, 'web/wasm/attnx_simd.wasm'))) assert.ok(existsSync(join(out, 'wasm/attnx_simd.wasm')));
    assert.deepEqual(readdirSync(work), ['site'], 'the folder it was made in is gone');
    // Built again into the site it made: replaced.
    writeFileSync(join(out, 'stale.txt'), 'left from before');
    execFileSync('bash', [join(root, 'scripts/build-dist'), out], { cwd: root, stdio: 'pipe' });
    assert.ok(existsSync(join(out, 'index.html')) && !existsSync(join(out, 'stale.txt')));
    // A folder with files of its own is never replaced; nor is the checkout's web/, nor a folder
    // that holds the checkout.
    writeFileSync(join(work, 'keep.txt'), 'mine');
    for (const [bad, said] of [[work, /holds files build-dist did not make/], [join(root, 'web'), /OUT must be dist\/ or a folder outside the checkout/], [dirname(root), /OUT must not hold the checkout/]]) {
      const r = spawnSync('bash', [join(root, 'scripts/build-dist'), bad], { encoding: 'utf8' });
      assert.equal(r.status, 2, bad);
      assert.match(r.stderr, said);
    }
    assert.ok(existsSync(join(work, 'keep.txt')) && existsSync(join(root, 'web/index.html')));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
