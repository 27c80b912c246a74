#!/usr/bin/env node
// The browser suite as npm test runs it: one headless Chromium for every test file (each file
// connects to it through launchChromium and closes only its own contexts), then
// `node --test --test-concurrency=1 tests/e2e/` (or the files named). Exits with the runner's code.
//   node scripts/e2e.mjs [test files...]
import { spawn } from 'node:child_process';
import { launchSharedChromium, SHARED_BROWSER_ENV } from './chromium.mjs';

const files = process.argv.slice(2);
const server = await launchSharedChromium();
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...(files.length ? files : ['tests/e2e/'])], {
  stdio: 'inherit', env: { ...process.env, [SHARED_BROWSER_ENV]: server.wsEndpoint() },
});
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await server.close();
process.exit(code);
