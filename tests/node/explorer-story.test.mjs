// Lecture mode, DOM-free: stories (web/explorer/story.js) validated against the real state table
// with messages naming story, step and field; stepping bounds; story and step as link fields and
// element attributes; the presets; the d searches' logic (d-search.js); and the built-in stories'
// settings checked against the core (verdicts, failing rows, minimal d; the constructions story's
// float32 lesson). Their numbers are placeholders: tests/node/explorer-story-text.test.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { load } from '../../web/lib/attnx.js';
import { explorerTable, constructOptions, clampToRanges } from '../../web/explorer/state.js';
import { parseHash, toHash } from '../../web/common/hashstate.js';
import {
  parseStory, loadStory, clampStep, stepPatch, readStep, sceneState, textParts, STORIES, STORY_NAMES,
} from '../../web/explorer/story.js';
import { presetList, presetPatch } from '../../web/explorer/presets.js';
import { playSequence, play, playMessage, minDOptions, minDGrid, minDMessage, notSearchable } from '../../web/explorer/d-search.js';
import { readAttributes, controlNames } from '../../web/embed/attributes.js';

const here = dirname(fileURLToPath(import.meta.url));
const storyFile = (name) => join(here, '../../web/explorer/stories', STORIES[name].file);
let api, schema, table, paper;

before(async () => {
  api = await load({ flavour: 'simd' });
  schema = api.schema();
  table = explorerTable(schema);
  const r = parseStory('paper', JSON.parse(readFileSync(storyFile('paper'), 'utf8')), table);
  assert.deepEqual(r.errors, undefined);
  paper = r.story;
});

const step = (title, state, text = 'Some text.') => ({ title, text, state });

test('every built-in story is valid for the real schema, each step in range as it stands', () => {
  for (const name of STORY_NAMES) {
    const r = parseStory(name, JSON.parse(readFileSync(storyFile(name), 'utf8')), table);
    assert.equal(r.errors, undefined, String(r.errors));
    for (const [i, s] of r.story.steps.entries()) {
      const st = sceneState(table, s.state);
      assert.deepEqual(clampToRanges(table, schema, st), st, `${name} step ${i + 1} needs no clamping`);
      assert.ok(s.text.split(/(?<=[.!?])\s+(?=[A-Z"(])/).length <= 5, `${name} step ${i + 1}: a few sentences`);
    }
  }
  assert.equal(paper.steps.length, 6);
});

test('bad steps are refused with messages naming the story, the step and the field', () => {
  const r = parseStory('mine', [
    step('Fine', { pattern: 'window', L: 64, w: 1, d: 64 }),
    step('Zero d', { d: 0 }),
    step('Typo', { dd: 5, embed: true }),
    step('Text d', { d: '64' }),
    step('k beyond L', { pattern: 'random', L: 8, k: 9, row: 8 }),
    step('Drawn', { pattern: 'custom' }),
    step('Elsewhere', {}, 'See [this](https://example.com/x).'),
    { text: 'no title', state: {} },
    step('Head', { head: 2 }),
  ], table);
  assert.equal(r.story, undefined);
  const e = r.errors;
  assert.ok(e.includes('story "mine", step 2 ("Zero d"): d must be an integer from 1 to 16384 (got "0")'), e.join('\n'));
  assert.ok(e.includes('story "mine", step 3 ("Typo"): "dd" is not a setting of the explorer'), e.join('\n'));
  assert.ok(e.some((m) => m.startsWith('story "mine", step 3 ("Typo"): embed cannot be set by a story (only pattern, L,')), e.join('\n'));
  assert.ok(e.includes('story "mine", step 4 ("Text d"): d must be a JSON number (got "64")'), e.join('\n'));
  assert.ok(e.includes('story "mine", step 5 ("k beyond L"): k must be an integer from 1 to 8 (got "9")'), e.join('\n'));
  assert.ok(e.includes('story "mine", step 5 ("k beyond L"): row must be an integer from -1 to 7 (got "8")'), e.join('\n'));
  assert.ok(e.some((m) => m.startsWith('story "mine", step 6 ("Drawn"): pattern "custom" cannot be set')), e.join('\n'));
  assert.ok(e.some((m) => m.startsWith('story "mine", step 7 ("Elsewhere"): text: link "https://example.com/x" is not one of the site\'s pages')), e.join('\n'));
  assert.ok(e.includes('story "mine", step 8: title must be text of 1 to 120 characters'), e.join('\n'));
  assert.ok(e.some((m) => m.startsWith('story "mine", step 9 ("Head"): head cannot be set by a story')), e.join('\n'));
  assert.ok(!e.some((m) => m.includes('step 1 ')), 'the good step has no message');
  assert.deepEqual(parseStory('x', { steps: [] }, table).errors, ['story "x" must be a JSON list of steps']);
  assert.deepEqual(parseStory('x', [], table).errors, ['story "x" must have 1 to 50 steps (it has 0)']);
});

test('links in a step\'s text: only the site\'s own pages', () => {
  assert.deepEqual(textParts('Open [the lab](lab.html#preset=paper&autorun=1) now.').parts,
    [{ text: 'Open ' }, { text: 'the lab', href: 'lab.html#preset=paper&autorun=1' }, { text: ' now.' }]);
  assert.deepEqual(textParts('No link here.').parts, [{ text: 'No link here.' }]);
  for (const bad of ['javascript:alert(1)', '//evil.example/lab.html', '../x.html', 'lab.html?x=1', 'data:text/html,x']) {
    assert.ok(textParts(`[x](${bad})`).error, bad);
  }
});

test('stepping stays within the story; a step is the defaults with its settings, however reached', () => {
  const n = paper.steps.length;
  assert.deepEqual([0, 1, 3, n, n + 1, -5, NaN].map((s) => clampStep(paper, s)), [1, 1, 3, n, n, 1, 1]);
  const p2 = stepPatch(table, paper, 2);
  assert.equal(p2.story, 'paper');
  assert.equal(p2.step, 2);
  assert.equal(p2.d, 1);
  assert.equal(p2.scale, 'lin');
  assert.equal(p2.eps, table.eps.def, 'fields the step leaves out take the current defaults');
  assert.ok(!('help' in p2) && !('embed' in p2) && !('cp' in p2), 'page fields are not touched');
  assert.equal(stepPatch(table, paper, 99).step, n);
  // A link naming a step: the step fills what the link does not give itself (as the page reads
  // it: given is parseHash's read).
  const read = (hash) => {
    const r = parseHash(table, hash, { page: 'explorer', schema });
    return readStep(table, paper, r.state, r.read);
  };
  const short = read('#story=paper&step=3');
  assert.deepEqual(short.errors, []);
  assert.deepEqual({ d: short.state.d, L: short.state.L, row: short.state.row }, { d: 512, L: 64, row: 42 });
  assert.equal(read('#story=paper&step=3&d=600').state.d, 600, 'a setting the link gives is kept');
  assert.equal(read('#story=paper&step=3&d=abc').state.d, 512, "a refused value is not given: the step's stands");
  const beyond = read('#story=paper&step=9');
  assert.equal(beyond.state.step, n);
  assert.deepEqual(beyond.errors, [`step 9: the story "paper" has ${n} steps; step ${n} is shown`]);
});

test('story and step are optional link fields: written only when not default, old links unchanged', () => {
  const base = parseHash(table, '#v=1&L=64', { page: 'explorer', schema });
  assert.equal(base.state.story, '');
  assert.equal(base.state.step, 1);
  assert.doesNotMatch(toHash(table, base.state, { page: 'explorer', schema }), /story|step/);
  const s = { ...base.state, ...stepPatch(table, paper, 4) };
  assert.match(toHash(table, s, { page: 'explorer', schema }), /&story=paper&step=4$/);
  assert.match(toHash(table, { ...s, step: 1 }, { page: 'explorer', schema }), /&story=paper$/);
  assert.deepEqual(parseHash(table, '#story=../x.json', { page: 'explorer', schema }).errors,
    [`story must be the name of a built-in story (${STORY_NAMES.join(', ')}) (got "../x.json")`]);
  assert.match(parseHash(table, '#step=0', { page: 'explorer', schema }).errors[0], /^step must be an integer from 1 to 50/);
});

test('story and step are element attributes, not controls', () => {
  const r = readAttributes([['story', 'paper'], ['step', '2']], { table, schema });
  assert.deepEqual(r.errors, []);
  assert.equal(r.state.story, 'paper');
  assert.equal(r.state.step, 2);
  assert.ok(!controlNames(table).includes('story') && !controlNames(table).includes('step'));
  assert.match(readAttributes([['controls', 'step']], { table, schema }).errors[0], /^controls must be/);
});

test('loading: only built-in names; failures are messages, never exceptions', async () => {
  const ok = async (url) => ({ ok: true, json: async () => JSON.parse(readFileSync(storyFile('paper'), 'utf8')), url });
  const base = new URL('https://site.example/explorer/stories/');
  let asked = null;
  const r = await loadStory('paper', table, { base, fetchImpl: (u) => { asked = String(u); return ok(u); } });
  assert.equal(asked, 'https://site.example/explorer/stories/paper.json');
  assert.equal(r.story.steps.length, paper.steps.length);
  let fetched = false;
  const unknown = await loadStory('https://evil.example/s.json', table, { base, fetchImpl: () => { fetched = true; } });
  assert.equal(fetched, false);
  assert.match(unknown.errors[0], /^story must be one of paper/);
  const missing = await loadStory('paper', table, { base, fetchImpl: async () => ({ ok: false, status: 404 }) });
  assert.deepEqual(missing.errors, ['story "paper" could not be loaded: HTTP 404']);
});

test('presets are valid states of the table; a preset ends the story', () => {
  const r = parseStory('presets', presetList(schema, table).map((p) => step(p.label, p.state)), table);
  assert.equal(r.errors, undefined, String(r.errors));
  const { patch: p, dMin } = presetPatch(schema, table, 'bigbird');
  assert.deepEqual([p.pattern, p.globals, p.story, p.step, dMin], ['bigbird', 1, '', 1, true]);
  assert.equal(presetPatch(schema, table, 'nope'), null);
  const { patch: paper } = presetPatch(schema, table, 'paper');  // the core's paper preset at L = 256, d = 1024
  assert.deepEqual([paper.pattern, paper.L, paper.k, paper.weights, paper.eps, paper.tau, paper.d], ['random', 256, 2, 'uniform', 1, 0.1, 1024]);
  assert.equal(presetList(schema, table)[0].label, 'Paper: random k = 2, L = 256');
});

test('Play visits d on the slider\'s grid, 4 per octave, from 8 to the largest d', () => {
  const ds = playSequence(16384);
  assert.deepEqual(ds.slice(0, 9), [8, 10, 11, 13, 16, 19, 23, 27, 32]);
  assert.equal(ds[ds.length - 1], 16384);
  assert.ok(ds.every((d, i) => i === 0 || d > ds[i - 1]));
  assert.equal(ds.length, 4 * 11 + 1);
  assert.deepEqual(playSequence(20), [8, 10, 11, 13, 16, 19, 20]);
});

test('Play stops a few steps after the flip, on Stop, or when something else is drawn', async () => {
  const ds = [8, 16, 32, 64, 128, 256];
  const verdict = (d) => ({ d, metrics: { success: d >= 32 && d !== 256 } });
  const seen = [];
  const done = await play({ ds, show: async (d) => verdict(d), onStep: (s) => seen.push(s.d), pauseMs: 0 });
  assert.deepEqual([done.stopped, done.flippedAt, done.before, done.failedAfter], ['done', 32, 16, null]);
  assert.deepEqual(seen, [8, 16, 32, 64, 128], 'two steps after the first success, then it stops');
  assert.equal(playMessage(done), 'The verdict flipped to success at d = 32 (d = 16 still failed), and held up to d = 128.');
  const again = await play({ ds, show: async (d) => verdict(d), after: 3, pauseMs: 0 });
  assert.equal(again.failedAfter, 256);
  assert.match(playMessage(again), /but d = 256 failed again\.$/);
  const never = await play({ ds: [8, 16], show: async (d) => ({ d, metrics: { success: false } }), pauseMs: 0 });
  assert.equal(playMessage(never), 'No success up to d = 16: (R) and (Z) never both held.');
  const ctrl = new AbortController();
  const stopped = await play({ ds, signal: ctrl.signal, show: async (d) => { if (d === 16) ctrl.abort(); return verdict(d); }, pauseMs: 0 });
  assert.deepEqual([stopped.stopped, stopped.checked.length], ['cancelled', 2]);
  assert.equal(playMessage(stopped), 'Stopped at d = 16, no success yet.');
  const moved = await play({ ds, show: async (d) => (d === 16 ? { d: 999, metrics: { success: true } } : verdict(d)), pauseMs: 0 });
  assert.equal(moved.stopped, 'interrupted');
});

test('the minimal-d search asks the core for the state\'s target on the page\'s grid', () => {
  const grid = minDGrid(schema, table);
  assert.deepEqual(grid, { step: schema.contexts.explorer.defaults.step, dmax: table.d.max({}) });
  // lp searches every d up to its own largest (its minimal d is small), moment has none to search.
  const lp = schema.constructions.find((c) => c.name === 'lp');
  assert.deepEqual(minDGrid(schema, table, { construction: 'lp' }), { step: 1, dmax: lp.dMax });
  assert.equal(notSearchable(schema, { construction: 'lp' }), null);
  assert.match(notSearchable(schema, { construction: 'moment' }), /^The moment construction has one hidden size per pattern, D = 2m/);
  const st = { ...sceneState(table), pattern: 'window', L: 64, w: 1, d: 77 };
  const o = minDOptions(schema, st, null, grid);
  assert.equal(o.d, undefined);
  assert.deepEqual([o.pattern, o.L, o.w, o.step, o.dmax], ['window', 64, 1, grid.step, grid.dmax]);
  const res = api.minD(o);
  assert.equal(res.dMin, 1216);
  assert.match(minDMessage(res, grid), /^Minimal d = 1216: the smallest multiple of 16 \(up to 16384\)/);
  assert.match(minDMessage({ dMin: 22 }, { step: 1, dmax: 256 }), /^Minimal d = 22: the smallest d \(up to 256\) at which/);
  assert.match(minDMessage({ dMin: null }, grid), /^No d up to 16384 \(in steps of 16\) succeeds/);
});

test('the paper story says what the core computes', () => {
  const at = (n) => sceneState(table, paper.steps[n - 1].state);
  const run = (n) => api.construct(constructOptions(schema, at(n), null));
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => run(n).metrics.success), [true, false, false, true, true, false]);
  const s3 = run(3);
  const failing = [...s3.rows.okZ].flatMap((ok, i) => (ok ? [] : [i]));
  assert.deepEqual(failing, [18, 19, 30, 31, 33, 36, 37, 42, 44, 45, 46, 47, 61, 62]);
  assert.ok(s3.metrics.okR && s3.metrics.rho < 0.9855 && s3.metrics.rho > 0.9845);
  const grid = minDGrid(schema, table);
  for (const n of [4, 5]) assert.equal(api.minD(minDOptions(schema, at(n), null, grid)).dMin, at(n).d, `step ${n}: its d is the minimal d`);
  const s6 = run(6);
  assert.equal(at(6).d, table.d.max(at(6)), 'step 6 uses the largest d of the page');
  assert.deepEqual([s6.inClass, s6.k, s6.maxColCount, [...s6.rows.okZ].filter((ok) => !ok).length], [false, 39, 256, 32]);
  const bigbird = presetPatch(schema, table, 'bigbird').patch;
  assert.equal(api.minD(minDOptions(schema, bigbird, null, grid)).dMin, 1856, 'the BigBird preset named in step 6');
});

test('the constructions story: one target under jl, lp and moment; jl and lp at their minimal d, moment fails in float32 only', () => {
  const r = parseStory('constructions', JSON.parse(readFileSync(storyFile('constructions'), 'utf8')), table);
  assert.equal(r.errors, undefined, String(r.errors));
  const steps = r.story.steps.map((s) => sceneState(table, s.state));
  assert.deepEqual(steps.map((s) => s.construction), ['jl', 'lp', 'moment', 'moment']);
  assert.deepEqual(steps.slice(0, 3).map((s) => [s.pattern, s.L, s.k]), [['random', 64, 2], ['random', 64, 2], ['random', 64, 2]]);
  for (const n of [0, 1]) {
    const grid = minDGrid(schema, table, steps[n]);
    assert.equal(api.minD(minDOptions(schema, steps[n], null, grid)).dMin, steps[n].d, `step ${n + 1}: its d is the minimal d`);
  }
  for (const n of [2, 3]) {
    const p = api.construct(constructOptions(schema, steps[n], null)).precision;
    assert.deepEqual([p.fp32, p.fp64], [false, true], `step ${n + 1}: moment fails in float32, holds in float64`);
  }
  assert.ok(r.story.steps.every((s) => /\{(bits|fp32)\}/.test(s.text)), 'every step names bits or the float32 verdict as a placeholder');
});
