// opt (SPEC §10.1) and the frontier (§10.2) in the WebAssembly module, both flavours, against the
// native CLI: the same X bit for bit (the export's exact floats), the same minimal D and the D it
// tried, the same frontier JSON and CSV from the module's tasks; the budget's refusals name it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadBoth, runCli, cliArgs, CLI } from './helpers.mjs';

let apis;
// The CLI's flags for the module's options: opt's budget is --scale there (schema options.budget.flag).
const cliOf = ({ budget, ...o }) => ({ ...o, scale: budget });
before(async () => {
  apis = await loadBoth();
});

test('opt: X bit for bit as the CLI exports it, the same metrics, within its budget', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'attnx-opt-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const opts = { pattern: 'random', L: 48, k: 2, seed: 4, construction: 'opt', d: 10, budget: 5.3 };
  const file = join(dir, 'x.json');
  const cli = runCli('construct', cliOf(opts), ['--export', file]);
  const X = JSON.parse(readFileSync(file, 'utf8')).X.flat();
  for (const [flavour, api] of Object.entries(apis)) {
    const js = api.construct(opts);
    assert.equal(js.construction, 'opt');
    assert.equal(js.metrics.success, cli.metrics.success, `${flavour} success`);
    assert.deepEqual(Array.from(js.X), X, `${flavour}: the same X, every float`);
    assert.equal(js.report.optSteps, cli.opt.steps, `${flavour} steps`);
    assert.equal(js.report.optBudget, 5.3);
    assert.ok(js.bounds.logitScale <= 5.3, `${flavour}: Λ(X) = ${js.bounds.logitScale} within the budget`);
    assert.equal(js.bounds.logitScale, cli.bounds.logit_scale, `${flavour} logit scale`);
  }
});

test('opt: the minimal D and every D tried are the CLI\'s', () => {
  const opts = { pattern: 'random', L: 64, k: 2, seed: 2, construction: 'opt', budget: 8 };
  const cli = runCli('mind', cliOf({ ...opts, step: 1, dmax: 128 }));
  for (const [flavour, api] of Object.entries(apis)) {
    const js = api.minD({ ...opts, step: 1, dmax: 128 });
    assert.equal(js.dMin, cli.d_min, `${flavour} d_min`);
    assert.deepEqual(Array.from(js.checked), cli.checked, `${flavour} checked`);
  }
});

test('the frontier from the module\'s tasks is the CLI\'s, JSON and CSV', () => {
  // The same memory budget on both sides (the module's default is the page's, below the CLI's).
  const opts = { pattern: 'random', L: 24, k: 2, trials: 2, seed: 3, constructions: 'lp,opt', scales: '5.3,16', boxes: '10', maxBytes: 2 ** 31 };
  const flags = ['frontier', '--L', '24', '--k', '2', '--trials', '2', '--seed', '3', '--constructions', 'lp,opt', '--scales', '5.3,16', '--boxes', '10', '--max-bytes', String(2 ** 31)];
  const json = JSON.parse(execFileSync(CLI, flags, { encoding: 'utf8' }));
  const csv = execFileSync(CLI, [...flags, '--format', 'csv'], { encoding: 'utf8' });
  for (const [flavour, api] of Object.entries(apis)) {
    const tasks = api.frontierTasks(opts);
    assert.deepEqual(tasks.map((x) => x.construction), ['lp', 'lp', 'opt', 'opt', 'opt', 'opt']);
    assert.deepEqual(tasks.map((x) => x.setting), [10, 10, 5.3, 5.3, 16, 16]);
    const trials = tasks.map((_, i) => api.frontierTrial(opts, i));
    const r = api.frontierResult(opts, trials);
    delete r.version;
    delete json.version;
    assert.deepEqual(r, json, `${flavour} frontier JSON`);
    assert.equal(api.frontierCsv(opts, trials), csv, `${flavour} frontier CSV`);
  }
});

test('opt and frontier options: a bad budget or grid is named, every one at once', () => {
  for (const api of Object.values(apis)) {
    assert.throws(() => api.construct({ L: 16, construction: 'opt', d: 8, budget: 1 }),
      (e) => e.field === 'budget' && /budget must be above ln\(1\/tau\)\/2 = 1\.15129 for construction opt/.test(e.message));
    assert.throws(() => api.construct({ L: 16, construction: 'opt', d: 500, budget: 'x' }),
      (e) => e.fields.includes('budget') && e.fields.includes('d'));
    assert.throws(() => api.frontierTasks({ L: 16, scales: '5,4', boxes: [-1] }),
      (e) => e.fields[0] === 'scales' && e.fields.includes('boxes') && /scales must be strictly ascending/.test(e.message));
    assert.throws(() => api.frontierTrial({ L: 16 }, 10 ** 6), (e) => e.field === 'task');
    // Boxes without lp would be taken and then ignored: refused, as on the CLI.
    assert.throws(() => api.frontierTasks({ L: 16, constructions: 'opt', boxes: '10' }),
      (e) => e.field === 'boxes' && e.message === "boxes applies only to lp's points (got constructions opt)");
    assert.equal(api.frontierTasks({ L: 16, constructions: 'opt' }).length > 0, true, 'the default boxes are no refusal');
    assert.deepEqual(api.packingFloors(1024, 0.1, [5]).map((x) => +x.toFixed(2)), [4.14]);  // SPEC §9.2's example
  }
});
