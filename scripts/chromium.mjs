// attnx: the headless Chromium the browser tests and page scripts use (TOOLCHAIN.md: Debian's
// /usr/bin/chromium through playwright-core; as root and without network these flags are needed),
// and the folder they serve.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

// Chromium features the tests turn off beside playwright's own list. WebUIOmniboxPopup: headless
// Chromium 156 gives every new window (every browser context) a hidden address bar whose popup is a
// WebUI page in its own renderer; building it took more CPU than loading the explorer itself
// (issue 46.2: a renderer's main thread 1.7-2.6 s per new context in a trace, 0.6 s without).
const EXTRA_DISABLED_FEATURES = ['WebUIOmniboxPopup'];

let argsOnce = null;
// The arguments to launch with: CHROMIUM_ARGS and one --disable-features with playwright's list
// and EXTRA_DISABLED_FEATURES. Chromium reads only the last --disable-features it is given, so a
// second one would undo playwright's; its list is read from the command line of a browser server
// started for that and closed at once (playwright-core does not export it).
export function chromiumArgs() {
  argsOnce ??= (async () => {
    const probe = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    let theirs;
    try {
      theirs = probe.process().spawnargs.find((a) => a.startsWith('--disable-features=')) ?? '--disable-features=';
    } finally {
      await probe.close();
    }
    const names = theirs.slice('--disable-features='.length).split(',').filter(Boolean);
    return [...CHROMIUM_ARGS, `--disable-features=${[...names, ...EXTRA_DISABLED_FEATURES].join(',')}`];
  })();
  return argsOnce;
}

// The variable naming a running Chromium to share (scripts/e2e.mjs sets it for the browser suite).
export const SHARED_BROWSER_ENV = 'ATTNX_CHROMIUM_WS';

// Launches the system Chromium headless; when $ATTNX_CHROMIUM_WS names a browser server
// (scripts/e2e.mjs), connects to it instead, so the suite's files share one browser. Resolves to a
// playwright Browser; on a shared one close() closes this caller's contexts and disconnects.
export async function launchChromium() {
  const ws = process.env[SHARED_BROWSER_ENV];
  if (ws) return chromium.connect(ws);
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: await chromiumArgs() });
}

// Starts one headless Chromium that other processes connect to (launchChromium with
// $ATTNX_CHROMIUM_WS = server.wsEndpoint()). Resolves to a playwright BrowserServer.
export async function launchSharedChromium() {
  return chromium.launchServer({ executablePath: '/usr/bin/chromium', args: await chromiumArgs() });
}

// The folder to serve: $ATTNX_E2E_DIR, else dist/ (the pages are rendered there from their
// templates: scripts/build-dist; web/ itself is not servable).
export function servedDir() {
  if (process.env.ATTNX_E2E_DIR) return process.env.ATTNX_E2E_DIR;
  if (!existsSync(join(ROOT, 'dist/index.html')) || !existsSync(join(ROOT, 'dist/wasm'))) {
    throw new Error('dist/ is not built: run bash scripts/build-dist (after scripts/build-wasm)');
  }
  return join(ROOT, 'dist');
}

// The bytes of a finished playwright Download as a Buffer. Read through its stream: download.path()
// is not available on a browser one connects to (scripts/e2e.mjs shares one for the suite).
export async function downloadBytes(download) {
  const chunks = [];
  for await (const c of await download.createReadStream()) chunks.push(c);
  return Buffer.concat(chunks);
}
