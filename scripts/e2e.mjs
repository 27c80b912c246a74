#!/usr/bin/env node
// The browser suite as npm test runs it: one headless Chromium for every test file (each file
// connects to it through launchChromium and closes only its own contexts), then
// `node --test --test-concurrency=<jobs> tests/e2e/` (or the files named): one file per core, at
// most 4, side by side, its TAP output followed by the ten slowest tests ($ATTNX_E2E_JOBS sets another number, 1 runs them one after another).
// Exits with the runner's code; SIGINT and SIGTERM go to the runner, and the browser is closed
// however the run ends.
//   node scripts/e2e.mjs [test files...]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchSharedChromium, SHARED_BROWSER_ENV } from './chromium.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const files = process.argv.slice(2).map((f) => resolve(f));
// On the 2-core build machine the suite took 304 s one file after another and 233 s two at a
// time (one file's page waits for its workers or its test while the other's computes).
const jobsText = process.env.ATTNX_E2E_JOBS;
const jobs = jobsText === undefined || jobsText === '' ? Math.min(4, availableParallelism()) : Number(jobsText);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) {
  console.error(`e2e: ATTNX_E2E_JOBS must be an integer from 1 to 64 (got "${jobsText}")`);
  process.exit(2);
}
const server = await launchSharedChromium();
// The default TAP reporter, and the ten slowest tests at the end (scripts/slowest-reporter.mjs).
// The list is also written to build/e2e-slowest.txt, which npm test prints under its time table.
mkdirSync(join(ROOT, 'build'), { recursive: true });
const SLOWEST = join(ROOT, 'build', 'e2e-slowest.txt');
rmSync(SLOWEST, { force: true });
const reporters = ['--test-reporter=tap', '--test-reporter-destination=stdout',
  `--test-reporter=${join(ROOT, 'scripts', 'slowest-reporter.mjs')}`, `--test-reporter-destination=${SLOWEST}`];
const child = spawn(process.execPath, ['--test', `--test-concurrency=${jobs}`, ...reporters, ...(files.length ? files : [join(ROOT, 'tests', 'e2e')])], {
  cwd: ROOT, stdio: 'inherit', env: { ...process.env, [SHARED_BROWSER_ENV]: server.wsEndpoint() },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
const code = await new Promise((done) => {
  child.on('error', (e) => { console.error(`e2e: cannot start the test runner: ${e.message}`); done(1); });
  child.on('exit', (c, signal) => done(c ?? (signal ? 1 : 0)));
});
await server.close();
if (existsSync(SLOWEST)) process.stdout.write(readFileSync(SLOWEST, 'utf8'));
process.exit(code);
