// Stories whose numbers cannot lie (issue 23.3–23.5), DOM-free: the placeholders of a step's text
// (web/explorer/story-text.js) filled from a real construct result with the metrics card's own
// formatter, "…" while a value is on its way and a word when it cannot have one; the validator
// (an unknown placeholder or a stray brace names the step); a lecturer's own story
// (story-source.js: story-src on the page's origin only, without credentials, capped at 256 KB;
// the inline JSON child); and the values' sources (story-values.js: the minimal-d search on the
// pool once per settings, the precision report asked for when a step needs it).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { load } from '../../web/lib/attnx.js';
import { explorerTable, constructOptions } from '../../web/explorer/state.js';
import { parseStory, sceneState } from '../../web/explorer/story.js';
import {
  PLACEHOLDERS, PLACEHOLDER_NAMES, PENDING, fillText, fillParts, placeholderErrors, placeholdersOf, needsOf, resultForStory,
} from '../../web/explorer/story-text.js';
import { loadStorySource, parseInlineStory, storySrcUrl, MAX_STORY_BYTES, SRC_STORY, STORY_TIMEOUT_MS } from '../../web/explorer/story-source.js';
import { StoryValues } from '../../web/explorer/story-values.js';
import { fmt, fmtInt, fmtVs } from '../../web/explorer/format.js';

let api, schema, table;
before(async () => {
  api = await load({ flavour: 'simd' });
  schema = api.schema();
  table = explorerTable(schema);
});

const step = (title, text, state = {}) => ({ title, text, state });
const valuesOf = (r, more = {}) => ({ result: resultForStory(r), tol: { eps: r.params.eps, tau: r.params.tau }, precision: null, dmin: null, ...more });

test('placeholders show the card\'s text of the core\'s numbers', () => {
  const r = api.construct({ pattern: 'window', L: 64, w: 1, d: 512 });
  const v = valuesOf(r, { precision: { state: 'done', precision: { inputNorm: 120.6, fp32: true, fp64: false, bits: null } }, dmin: { state: 'done', dMin: 1216 } });
  const m = r.metrics;
  // Independent expectations: the failing rows read off the core's per-row verdicts.
  const bad = [...r.rows.okZ].flatMap((ok, i) => (ok && r.rows.okR[i] ? [] : [i]));
  assert.deepEqual(bad, [18, 19, 30, 31, 33, 36, 37, 42, 44, 45, 46, 47, 61, 62]);
  const want = {
    rho: fmtVs(m.rho, 1), zeta: fmtVs(m.zeta, 0.1), lambda: fmt(m.lambda), k: '3', maxcol: '3', dstar: fmtInt(r.dStar),
    d: '512', D: '512', L: '64', eps: '1', tau: '0.1', R: 'holds', Z: 'fails', construction: 'jl',
    failing_rows: '18, 19, 30, 31, 33, 36, 37, 42, 44–47, 61 and 62', failing_count: '14', dmin: '1,216',
    inputNorm: '121', fp32: 'holds', fp64: 'fails', bits: 'not reached',
    // The floors (SPEC §9.2): the ratio is D over the floor, recomputed here.
    scale: fmt(r.bounds.logitScale), floor: fmt(r.bounds.dLambda), ratio: fmt(512 / r.bounds.dLambda), budget: 'none (not opt)',
  };
  assert.equal(want.ratio, '231');
  assert.deepEqual(Object.keys(want).sort(), [...PLACEHOLDER_NAMES].sort(), 'every placeholder is checked');
  for (const [name, text] of Object.entries(want)) assert.equal(fillText(`{${name}}`, v), text, name);
  assert.equal(want.zeta, '0.129');
  assert.equal(fillText('At d = {d}, ζ = {zeta} > τ = {tau} in rows {failing_rows}.', v),
    'At d = 512, ζ = 0.129 > τ = 0.1 in rows 18, 19, 30, 31, 33, 36, 37, 42, 44–47, 61 and 62.');
  assert.equal(fillText('{failing_rows}', valuesOf(api.construct({ pattern: 'window', L: 64, w: 1, d: 4096 }))), 'none');
  // opt's budget and its X's scale, within the budget.
  const o = api.construct({ pattern: 'window', L: 64, w: 1, d: 12, construction: 'opt', budget: 6 });
  assert.equal(fillText('{budget}', valuesOf(o)), '6');
  assert.ok(o.bounds.logitScale <= 6, String(o.bounds.logitScale));
  assert.equal(fillText('{ratio}', valuesOf(o)), fmt(12 / o.bounds.dLambda));
});

test('a placeholder whose value is not there yet shows "…", one that cannot have one says so', () => {
  const r = api.construct({ pattern: 'window', L: 64, w: 1, d: 64 });
  const text = '{rho} {dmin} {bits} {fp32}';
  assert.equal(fillText(text, { result: null }), [PENDING, PENDING, PENDING, PENDING].join(' '), 'no result yet');
  assert.equal(fillText(text, valuesOf(r, { precision: { state: 'computing' }, dmin: { state: 'pending' } })), `${fmtVs(r.metrics.rho, 1)} … … …`);
  assert.equal(fillText('{dmin}', valuesOf(r, { dmin: { state: 'none', dmax: 16384 } })), 'none up to 16,384');
  assert.equal(fillText('{dmin}', valuesOf(r, { dmin: { state: 'unsearchable' } })), 'none (this construction has no d to search)');
  assert.equal(fillText('{dmin}', valuesOf(r, { dmin: { state: 'unavailable' } })), 'unavailable');
  assert.equal(fillText('{bits} {fp32}', valuesOf(r, { precision: { state: 'error', message: 'x' } })), 'unavailable unavailable');
  const parts = fillParts('ρ = {rho}, d_min = {dmin}.', valuesOf(r, { dmin: { state: 'pending' } }));
  assert.deepEqual(parts.map((p) => [p.name, p.pending]), [[undefined, undefined], ['rho', false], [undefined, undefined], ['dmin', true], [undefined, undefined]]);
  for (const v of [{ result: null }, valuesOf(r), valuesOf(r, { precision: { state: 'available' } })]) {
    const out = fillText(PLACEHOLDER_NAMES.map((n) => `{${n}}`).join(' '), v);
    assert.doesNotMatch(out, /[{}]|undefined|NaN/, out);
  }
  assert.deepEqual(needsOf('{rho} {bits}'), { precision: true, dmin: false });
  assert.deepEqual(needsOf('{dmin}'), { precision: false, dmin: true });
  assert.deepEqual(placeholdersOf('{a} {b} {a}'), ['a', 'b']);
  for (const [name, p] of Object.entries(PLACEHOLDERS)) assert.ok(p.help && ['result', 'precision', 'dmin'].includes(p.from), name);
});

test('an unknown placeholder, a stray brace or a brace in a title is refused, naming the step', () => {
  const r = parseStory('mine', [
    step('Fine', 'ρ = {rho}, failing rows {failing_rows}.'),
    step('Typo', 'ρ = {rhoo} and {zeta}.'),
    step('Stray', 'A set { 1, 2 } is no placeholder.'),
    step('Half {rho}', 'Text.'),
  ], table);
  assert.equal(r.story, undefined);
  assert.ok(r.errors[0].startsWith('story "mine", step 2 ("Typo"): text: unknown placeholder {rhoo} (known: {rho}, {zeta},'), r.errors.join('\n'));
  assert.ok(r.errors.some((e) => e.startsWith('story "mine", step 3 ("Stray"): text: "') && e.includes('a brace that is no placeholder')), r.errors.join('\n'));
  assert.ok(r.errors.includes('story "mine", step 4 ("Half {rho}"): title must be plain text without braces (placeholders such as {rho} go in the text)'), r.errors.join('\n'));
  assert.equal(r.errors.length, 3);
  assert.deepEqual(placeholderErrors('{rho}{zeta}'), []);
});

// A fetch stand-in serving `files` (path -> text) on https://site.example, recording its calls.
function fakeFetch(files, { lengthHeader = true } = {}) {
  const calls = [];
  const fetchImpl = async (url, init) => {
    calls.push({ url: String(url), init });
    const path = new URL(url).pathname;
    if (!Object.hasOwn(files, path)) return new Response('no', { status: 404 });
    const body = files[path];
    const headers = lengthHeader ? { 'content-length': String(new TextEncoder().encode(body).length) } : {};
    return new Response(lengthHeader ? body : new Blob([body]).stream(), { headers });
  };
  return { fetchImpl, calls };
}
const PAGE = 'https://site.example/lectures/week1.html';
const GOOD = JSON.stringify([step('One', 'ρ = {rho}.', { pattern: 'window', L: 32, w: 1, d: 256 }), step('Two', 'ζ = {zeta}.', { d: 1024 })]);

test('story-src: a file on the page\'s own origin loads, fetched without credentials', async () => {
  const { fetchImpl, calls } = fakeFetch({ '/lectures/mine.json': GOOD });
  const r = await loadStorySource('mine.json', table, { pageUrl: PAGE, fetchImpl });
  assert.equal(r.errors, undefined, String(r.errors));
  assert.equal(r.story.name, SRC_STORY);
  assert.deepEqual(r.story.steps.map((s) => s.title), ['One', 'Two']);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, 'https://site.example/lectures/mine.json');
  assert.equal(calls[0].init.credentials, 'omit');
  assert.equal(calls[0].init.mode, 'same-origin');
  const missing = await loadStorySource('/nope.json', table, { pageUrl: PAGE, fetchImpl });
  assert.deepEqual(missing.errors, ['story-src "/nope.json" could not be loaded: HTTP 404']);
});

test('story-src: another origin, another scheme or no URL is refused before any fetch', async () => {
  const { fetchImpl, calls } = fakeFetch({});
  for (const src of ['https://evil.example/s.json', '//evil.example/s.json', 'http://site.example/s.json', 'javascript:alert(1)', 'data:application/json,[]', 'file:///etc/passwd']) {
    const r = await loadStorySource(src, table, { pageUrl: PAGE, fetchImpl });
    assert.equal(r.errors.length, 1, src);
    assert.match(r.errors[0], /^story-src must be a URL on this page's own origin \(https:\/\/site\.example\)/, src);
  }
  assert.equal(calls.length, 0, 'nothing was fetched');
  assert.match(storySrcUrl('http://[bad', PAGE).error, /^story-src "http:\/\/\[bad" is not a URL$/);
  assert.equal(storySrcUrl('s.json', PAGE, 'https://site.example/base/').url.href, 'https://site.example/base/s.json', 'relative to the document\'s base');
});

test('story-src: a file over 256 KB is refused, with or without a Content-Length', async () => {
  const big = JSON.stringify([step('Big', `${'x'.repeat(900)}.`)]).padEnd(MAX_STORY_BYTES + 10, ' ');
  for (const lengthHeader of [true, false]) {
    const { fetchImpl } = fakeFetch({ '/big.json': big }, { lengthHeader });
    const r = await loadStorySource('/big.json', table, { pageUrl: PAGE, fetchImpl });
    assert.equal(r.errors.length, 1);
    assert.match(r.errors[0], /^story-src "\/big\.json" (is 257 KB; a story file may be at most 256 KB|is larger than 256 KB, the most a story file may be)$/, r.errors[0]);
  }
  const exact = GOOD + ' '.repeat(MAX_STORY_BYTES - new TextEncoder().encode(GOOD).length);
  const { fetchImpl } = fakeFetch({ '/exact.json': exact }, { lengthHeader: false });
  assert.equal((await loadStorySource('/exact.json', table, { pageUrl: PAGE, fetchImpl })).errors, undefined, 'exactly 256 KB loads');
});

test('story-src: an answer that never ends is given up after the timeout, naming story-src', async () => {
  assert.equal(STORY_TIMEOUT_MS, 15000);
  // A server that sends its headers and one byte, then nothing (the body ends only on abort).
  const signals = [];
  const fetchImpl = async (url, init) => {
    signals.push(init.signal);
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('['));
        init.signal.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return new Response(body);
  };
  const r = await loadStorySource('/stall.json', table, { pageUrl: PAGE, fetchImpl, timeoutMs: 30 });
  assert.deepEqual(r.errors, ['story-src "/stall.json" could not be loaded: no complete answer within 0.03 s']);
  assert.equal(signals[0].aborted, true, 'the request is aborted');
  // No answer at all (the headers never come): the same.
  const silent = (url, init) => new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
  const s2 = await loadStorySource('/silent.json', table, { pageUrl: PAGE, fetchImpl: silent, timeoutMs: 20 });
  assert.deepEqual(s2.errors, ['story-src "/silent.json" could not be loaded: no complete answer within 0.02 s']);
  // A file that arrives in time is not cut.
  const { fetchImpl: quick } = fakeFetch({ '/lectures/mine.json': GOOD }, { lengthHeader: false });
  assert.equal((await loadStorySource('mine.json', table, { pageUrl: PAGE, fetchImpl: quick, timeoutMs: 60000 })).errors, undefined);
});

test('docs/embedding.md\'s inline story escapes </ and reads back with </script> in its text', () => {
  const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  const block = /<script type="application\/json">\n([\s\S]*?)\n {2}<\/script>/.exec(doc);
  assert.ok(block, 'the safe form is shown');
  assert.doesNotMatch(block[1], /<\//, 'no </ inside the script element');
  const r = parseInlineStory(block[1], table);
  assert.equal(r.errors, undefined, String(r.errors));
  assert.match(r.story.steps[0].title, /<\/script>/);
  // The one-step escape the docs give for a story made from data.
  const story = [step('</script><i data-x>', 'a </script> b', { d: 64 })];
  const text = JSON.stringify(story).replace(/</g, '\\u003c');
  assert.doesNotMatch(text, /</);
  assert.equal(parseInlineStory(text, table).story.steps[0].title, '</script><i data-x>');
});

test('story-src: bad JSON and an invalid story name story-src, the step and the field', async () => {
  const bad = JSON.stringify([step('Fine', 'ok'), step('Wrong', 'ρ = {rh0}.', { d: 0 })]);
  const { fetchImpl } = fakeFetch({ '/s.json': bad, '/broken.json': '[{"title": ' });
  const r = await loadStorySource('/s.json', table, { pageUrl: PAGE, fetchImpl });
  assert.ok(r.errors.includes('story-src "/s.json", step 2 ("Wrong"): d must be an integer from 1 to 16384 (got "0")'), r.errors.join('\n'));
  assert.ok(r.errors.some((e) => e.startsWith('story-src "/s.json", step 2 ("Wrong"): text: unknown placeholder {rh0}')), r.errors.join('\n'));
  const broken = await loadStorySource('/broken.json', table, { pageUrl: PAGE, fetchImpl });
  assert.match(broken.errors[0], /^story-src "\/broken\.json" is not valid JSON \(/);
});

test('docs/explorer.md\'s example lecture (examples/lecture/lecture.json) is a valid 3-step story', () => {
  const text = readFileSync(new URL('../../examples/lecture/lecture.json', import.meta.url), 'utf8');
  const r = parseInlineStory(text, table);
  assert.equal(r.errors, undefined, String(r.errors));
  assert.equal(r.story.steps.length, 3);
  assert.ok(r.story.steps.every((s) => placeholdersOf(s.text).length > 0), 'every step names its numbers as placeholders');
});

test('an inline <script type="application/json"> story is checked the same way', () => {
  const ok = parseInlineStory(`\ufeff${GOOD}`, table);
  assert.deepEqual(ok.story.steps.map((s) => s.title), ['One', 'Two']);
  const bad = parseInlineStory(JSON.stringify([step('Odd', '{nope}')]), table);
  assert.match(bad.errors[0], /^the inline story \(<script type="application\/json">\), step 1 \("Odd"\): text: unknown placeholder \{nope\}/);
  assert.match(parseInlineStory('[', table).errors[0], /^the inline story \(<script type="application\/json">\) is not valid JSON/);
  assert.match(parseInlineStory(' '.repeat(MAX_STORY_BYTES + 1), table).errors[0], /is 257 KB; a story may be at most 256 KB$/);
});

// A pool stand-in: minD answers from the real API (after `gate` resolves), recording the calls.
function fakePool(gate = Promise.resolve()) {
  const calls = [];
  return {
    calls,
    run: async (kind, opts, { signal } = {}) => {
      calls.push({ kind, opts });
      await gate;
      if (signal && signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      return api.minD(opts);
    },
  };
}

test('{dmin} runs the minimal-d search on the pool once per settings; moment has none; precision is asked for when needed', async () => {
  let st = sceneState(table, { pattern: 'window', L: 64, w: 1, d: 1216 });
  const pool = fakePool();
  let asked = 0, changed = 0;
  const v = new StoryValues({ pool, schema, table, getState: () => st, getCustom: () => null, askPrecision: () => asked++, changed: () => changed++ });
  const show = (s) => {
    const r = api.construct(constructOptions(schema, s, null));
    v.computing(JSON.stringify(s));
    v.precisionReport(r.precision ? { state: 'done', precision: r.precision } : { state: 'available' });
    v.resulted(resultForStory(r), { eps: r.params.eps, tau: r.params.tau }, JSON.stringify(s));
  };
  v.showing('d_min = {dmin}, bits {bits}');
  show(st);
  assert.equal(fillText('{dmin}', v.values), PENDING, 'pending while the search runs');
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(fillText('{dmin}', v.values), '1,216');
  assert.equal(pool.calls.length, 1);
  assert.equal(pool.calls[0].opts.d, undefined);
  assert.equal(asked, 1, 'jl\'s report is asked for since the step names {bits}');
  show(st);
  assert.equal(pool.calls.length, 1, 'the same settings are not searched again');
  st = sceneState(table, { pattern: 'random', L: 64, k: 2, construction: 'moment' });
  show(st);
  assert.equal(fillText('{dmin} {bits}', v.values), `none (this construction has no d to search) ${api.construct(constructOptions(schema, st, null)).precision.bits}`);
  assert.equal(pool.calls.length, 1);
  assert.ok(changed > 0);
  // A search of settings left before it ends is stopped; coming back searches again.
  let open;
  const slow = fakePool(new Promise((r) => { open = r; }));
  const w = new StoryValues({ pool: slow, schema, table, getState: () => st, getCustom: () => null, askPrecision: () => {}, changed: () => {} });
  w.showing('{dmin}');
  st = sceneState(table, { pattern: 'window', L: 32, w: 1 });
  w.resulted(resultForStory(api.construct(constructOptions(schema, st, null))), { eps: 1, tau: 0.1 }, 'a');
  st = sceneState(table, { pattern: 'window', L: 48, w: 1 });
  w.resulted(resultForStory(api.construct(constructOptions(schema, st, null))), { eps: 1, tau: 0.1 }, 'b');
  open();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(slow.calls.length, 2);
  assert.equal(w.values.dmin.state, 'done');
  assert.equal(w.values.dmin.dMin, api.minD(slow.calls[1].opts).dMin);
});

test('a running {dmin} search stops when the step shown no longer names {dmin} or its settings are left', async () => {
  let st = sceneState(table, { pattern: 'window', L: 32, w: 1 });
  const signals = [];
  const pool = { run: (kind, opts, { signal }) => { signals.push(signal); return new Promise((_, reject) => signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })))); } };
  const v = new StoryValues({ pool, schema, table, getState: () => st, getCustom: () => null, askPrecision: () => {}, changed: () => {} });
  const result = () => resultForStory(api.construct(constructOptions(schema, st, null)));
  v.showing('{dmin}');
  v.resulted(result(), { eps: 1, tau: 0.1 }, 'a');
  assert.equal(signals.length, 1);
  v.showing('{dmin} again');  // the same search is still wanted
  assert.equal(signals[0].aborted, false);
  v.showing('no placeholder here');
  assert.equal(signals[0].aborted, true, 'a step without {dmin} stops the search');
  await new Promise((r) => setTimeout(r, 0));  // the stopped search is forgotten
  v.showing('{dmin}');
  assert.equal(signals.length, 2, 'the search starts again when a step names it');
  st = sceneState(table, { pattern: 'window', L: 48, w: 1 });
  v.computing('b');
  assert.equal(signals[1].aborted, true, 'new settings stop the search of the old ones');
});
