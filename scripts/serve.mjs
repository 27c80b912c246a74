#!/usr/bin/env node
// attnx: tiny zero-dependency static file server.
//   node scripts/serve.mjs [dir] [--port N]     (default dir: dist, default port 8080;
//   if the port is busy the next ones are tried). Prints the URL.
// Also importable: `const srv = await startServer(dir, port)` -> { url, port, close() }.
import { createServer } from 'node:http';
import { createReadStream, existsSync, realpathSync, promises as fsp } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

function send(res, code, text) {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

// The status route of a server started with `building` (scripts/start.mjs): the build's state as
// JSON, polled by the page that stands in for the site until the site exists.
export const BUILD_STATUS_PATH = '/__attnx-build';

function sendJson(res, obj) {
  const text = JSON.stringify(obj);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

// Stands in for the site while it is first built (building(): { state: 'building' | 'ready' |
// 'failed', progress (0..1 or null), detail }): says so, shows the progress, reloads itself when the
// site is ready. Served with 503 and Retry-After, so nothing caches it as the page.
function sendBuilding(res) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>attnx is being built</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}progress{width:100%}pre{white-space:pre-wrap;font-size:13px}</style></head>
<body><h1>attnx is being built</h1><p id="s">The WebAssembly module is compiling on this machine (a few minutes on two cores, the first time only). This page reloads itself when the site is ready.</p>
<progress id="p" max="1"></progress><pre id="d"></pre>
<script>
const show = (st) => {
  const p = document.getElementById('p');
  if (typeof st.progress === 'number') p.value = st.progress; else p.removeAttribute('value');
  document.getElementById('d').textContent = st.detail || '';
  if (st.state === 'failed') document.getElementById('s').textContent = 'The build failed; the terminal that runs npm start says why.';
  if (st.state === 'ready') location.reload();
};
const poll = () => fetch('${BUILD_STATUS_PATH}', { cache: 'no-store' }).then((r) => r.json()).then((st) => { show(st); if (st.state === 'building') setTimeout(poll, 1000); }).catch(() => setTimeout(poll, 2000));
poll();
</script></body></html>`;
  res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html), 'Cache-Control': 'no-store', 'Retry-After': '5' });
  res.end(html);
}

function handler(root, building) {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed\n');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return send(res, 400, 'bad request\n');
    }
    if (path.includes('\0')) return send(res, 400, 'bad request\n');
    if (building && path === BUILD_STATUS_PATH) return sendJson(res, building());
    if (building && !existsSync(join(root, 'index.html'))) return sendBuilding(res);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return send(res, 403, 'forbidden\n');
    try {
      let st = await fsp.stat(file);
      if (st.isDirectory()) {
        if (!path.endsWith('/')) {
          res.writeHead(301, { Location: path + '/' });
          return res.end();
        }
        file = join(file, 'index.html');
        st = await fsp.stat(file);
      }
      const type = MIME[extname(file).toLowerCase()] || 'application/octet-stream';
      res.writeHead(200, {
        'Content-Type': type,
        'Content-Length': st.size,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        // Public static files: pages on other origins may load the embed module, its workers
        // and the WebAssembly (module scripts and their fetches are CORS requests).
        'Access-Control-Allow-Origin': '*',
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
    } catch {
      send(res, 404, 'not found\n');
    }
  };
}

function listen(server, port, host) {
  return new Promise((ok, fail) => {
    const onErr = (e) => { server.off('listening', onOk); fail(e); };
    const onOk = () => { server.off('error', onErr); ok(); };
    server.once('error', onErr);
    server.once('listening', onOk);
    server.listen(port, host);
  });
}

// Starts serving `dir`. port 0 picks a free port; a busy port falls back to the next ones
// (up to 20 tries), then to any free port. building (optional, scripts/start.mjs): a function
// returning the build's status; then `dir` may not exist yet (a page that waits for it is served
// instead, see sendBuilding) and BUILD_STATUS_PATH answers the status.
export async function startServer(dir = 'dist', port = 8080, { host = '127.0.0.1', quiet = true, building = null } = {}) {
  const root = resolve(dir);
  const st = await fsp.stat(root).catch(() => null);
  if (!building && (!st || !st.isDirectory())) throw new Error(`serve: ${root} is not a directory`);
  const server = createServer(handler(root, building));
  let bound = false;
  const tries = port === 0 ? [0] : [...Array(20).keys()].map((i) => port + i).concat([0]);
  for (const p of tries) {
    try {
      await listen(server, p, host);
      bound = true;
      break;
    } catch (e) {
      if (e.code !== 'EADDRINUSE' && e.code !== 'EACCES') throw e;
      if (!quiet) console.error(`serve: port ${p} is busy, trying another`);
    }
  }
  if (!bound) throw new Error('serve: no free port');
  const actual = server.address().port;
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}/`;
  return {
    url,
    port: actual,
    server,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}

// The folder served when none is named: ./dist when there is one, else the site this script ships
// with (../dist: the npm package's, for `npx attnx-serve`).
function defaultDir() {
  if (existsSync('dist')) return 'dist';
  return fileURLToPath(new URL('../dist/', import.meta.url));
}

async function main(argv) {
  let dir = defaultDir();
  let port = 8080;
  let host = '127.0.0.1';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port' || a === '-p') {
      const v = argv[++i];
      if (!/^\d+$/.test(v ?? '') || Number(v) > 65535) {
        console.error(`serve: --port must be an integer from 0 to 65535 (got "${v ?? ''}")`);
        process.exit(2);
      }
      port = Number(v);
    } else if (a === '--host') {
      host = argv[++i];
    } else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/serve.mjs [dir] [--port N] [--host H]   (or npx attnx-serve …)');
      return;
    } else if (a.startsWith('-')) {
      console.error(`serve: unknown option ${a}`);
      process.exit(2);
    } else {
      dir = a;
    }
  }
  try {
    const srv = await startServer(dir, port, { host, quiet: false });
    console.log(`attnx: serving ${resolve(dir)} at ${srv.url}`);
    console.log('Open that URL in a browser. Ctrl+C stops the server.');
    const stop = () => srv.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}

// Run as a program (also through npm's bin link, a symlink: compared by real path).
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) {
  main(process.argv.slice(2));
}
