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

// Launches the system Chromium headless. Resolves to a playwright Browser.
export function launchChromium() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
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
