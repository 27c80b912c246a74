#!/usr/bin/env node
// npm start, after scripts/setup --serve: serves dist/ and prints its URL at once, while what
// serving needs is built in the background: the SIMD module (scripts/build-wasm --serve simd),
// then the site (scripts/build-dist); incremental, so seconds when nothing changed. Until dist/
// first exists, every page is a stand-in that shows the build's progress and reloads itself when
// the site is ready (serve.mjs); when dist/ exists from an earlier build it is served meanwhile and
// replaced when the build ends. Once the site is ready, what it can do without is built after it,
// at a lower priority, while the site is in use: the one-file pages (dist/attnx.html,
// dist/attnx-lab.html: scripts/build-standalone.mjs), then the scalar fallback for engines without
// WebAssembly SIMD (scripts/build-wasm --serve scalar), switched into the folder served when it is
// built. The builds' output goes to this terminal; a failed build is reported here and on the
// stand-in page, and the server keeps running (Ctrl+C stops it).
//
//   node scripts/start.mjs [--port N] [--host H]
// ATTNX_BUILD_CMD (tests only) replaces the build command (and leaves out what is built after
// it); ATTNX_SERVE_DIR the folder served.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BUILD = 'bash scripts/build-wasm --serve simd && bash scripts/build-dist';
// After the site is usable, one after the other at a lower priority: the one-file pages, into the
// folder served, then the scalar fallback (the site works without it in every engine with SIMD).
const AFTER = (dir) => [
  { what: 'the one-file pages', cmd: `nice -n 10 node scripts/build-standalone.mjs ${JSON.stringify(dir)}`,
    done: (url) => `the one-file explorer is ready: ${url}attnx.html (also ${join(dir, 'attnx.html')}, which opens from disk)` },
  { what: 'the scalar fallback', cmd: 'nice -n 10 bash scripts/build-wasm --serve scalar',
    done: () => { switchIn(dir, 'scalar'); return 'the scalar fallback (engines without WebAssembly SIMD) is in the site'; } },
];

// Copies web/wasm/attnx_<flavour>.{wasm,mjs} into the served folder's wasm/, each under a name of
// its own first and then renamed, so a request never reads half a file; the .wasm before the .mjs
// that loads it.
function switchIn(dir, flavour) {
  mkdirSync(join(dir, 'wasm'), { recursive: true });
  for (const ext of ['wasm', 'mjs']) {
    const name = `attnx_${flavour}.${ext}`, dst = join(dir, 'wasm', name), tmp = `${dst}.tmp-${process.pid}`;
    copyFileSync(join(ROOT, 'web', 'wasm', name), tmp);
    renameSync(tmp, dst);
  }
}

// --port N and --host H (the serve.mjs flags); exits 2 with a message on anything else.
function parseArgs(argv) {
  const o = { port: 8080, host: '127.0.0.1' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = argv[i + 1];
    if (a === '--port' || a === '-p') {
      if (!/^\d+$/.test(v ?? '') || Number(v) > 65535) fail(`--port must be an integer from 0 to 65535 (got "${v ?? ''}")`);
      o.port = Number(v);
      i++;
    } else if (a === '--host') {
      if (!v) fail('--host needs a value (an address to listen on, e.g. 0.0.0.0)');
      o.host = v;
      i++;
    } else fail(`unknown option ${a} (allowed: --port N, --host H)`);
  }
  return o;
}

function fail(msg) {
  console.error(`start: ${msg}`);
  process.exit(2);
}

// Runs the build, echoing its output; status.progress follows CMake's "[ NN%]" lines and
// status.detail its last line. Resolves the exit code.
function build(status, cmd = process.env.ATTNX_BUILD_CMD || BUILD) {
  const child = spawn('bash', ['-c', cmd], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const read = (chunk, out) => {
    out.write(chunk);
    const text = String(chunk);
    const pct = [...text.matchAll(/\[\s*(\d{1,3})%\]/g)].pop();
    if (pct) status.progress = Math.min(1, Number(pct[1]) / 100);
    const lines = text.trim().split('\n');
    if (lines[lines.length - 1]) status.detail = lines[lines.length - 1].slice(0, 300);
  };
  child.stdout.on('data', (c) => read(c, process.stdout));
  child.stderr.on('data', (c) => read(c, process.stderr));
  return new Promise((ok) => child.on('close', (code) => ok(code ?? 1)));
}

// What is built after the site is ready (AFTER), each reported in the terminal; a failure leaves
// the site as it is.
async function afterReady(dir, url, status) {
  for (const step of AFTER(dir)) {
    const rc = await build({ ...status }, step.cmd);  // its progress is not the site's
    if (rc !== 0) {
      console.error(`attnx: ${step.what} failed to build (exit ${rc}); the site is unaffected.`);
      continue;
    }
    try {
      console.log(`attnx: ${step.done(url)}`);
    } catch (e) {
      console.error(`attnx: ${step.what} could not be put in the site (${e.message}); the site is unaffected.`);
    }
  }
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const dir = resolve(process.env.ATTNX_SERVE_DIR || join(ROOT, 'dist'));
  const status = { state: 'building', progress: null, detail: '' };
  const fresh = !existsSync(join(dir, 'index.html'));
  const srv = await startServer(dir, o.port, { host: o.host, quiet: false, building: () => status });
  console.log(`attnx: serving ${dir} at ${srv.url}`);
  console.log(fresh
    ? 'Open that URL in a browser: it shows the build\'s progress and becomes the site when the build ends.'
    : 'Open that URL in a browser (the last build\'s site; it is being rebuilt: reload when this says ready).');
  console.log('Ctrl+C stops the server.');
  const stop = () => srv.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const code = await build(status);
  status.state = code === 0 ? 'ready' : 'failed';
  if (code === 0) console.log(`attnx: the site is ready at ${srv.url}`);
  else console.error(`attnx: the build failed (exit ${code}); the server keeps running${fresh ? '' : ' the last build\'s site'}. Fix the problem and run npm start again.`);
  if (code !== 0 || process.env.ATTNX_BUILD_CMD) return;
  await afterReady(dir, srv.url, status);
}

main().catch((e) => {
  console.error(`start: ${e.message}`);
  process.exit(1);
});
