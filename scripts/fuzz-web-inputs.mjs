// attnx: the hostile inputs of scripts/fuzz-web.mjs, generated from a seed (DOM-free, no browser).
// Every case is a pure function of (seed, surface, index): a reproducer is its three numbers.
//   linkCase(rng, ctx, page)   -> { hash, fresh }      page 'explorer' | 'lab'
//   patternCase(rng, ctx)      -> { text, via: 'text' | 'file', name }
//   sweepCase(rng, ctx)        -> { bytes: Buffer, name, mime }
// ctx: { schema, tables: { explorer, lab } (the pages' state tables), api (the WebAssembly API,
// for valid sweep files), maxHash: { explorer, lab } (hashstate.js maxHashLength) }.

// A seeded generator (mulberry32) with helpers. Returns { next() in [0, 1), int(lo, hi), pick(a),
// chance(p) }.
export function makeRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: (arr) => arr[int(0, arr.length - 1)], chance: (p) => next() < p };
}

// The generator of case `index` of `surface` under `seed` (independent of every other case).
export function caseRng(seed, surface, index) {
  let h = 2166136261 ^ seed;
  for (const c of `${surface}:${index}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return makeRng(h);
}

// Markup that must never become elements (the fuzzer looks for [data-fz] in the document).
export const MARKUP = ['<i data-fz="1">x</i>', '"><i data-fz=1>', "'><img data-fz=1 src=x>", '<svg data-fz=1 onload=alert(1)>', '</li><i data-fz=1>'];

const HOSTILE_VALUES = ['', ' ', 'NaN', 'Infinity', '-Infinity', '-0', '1e309', '-1e309', '1e-400', '5e-324', '0x10', '1_000',
  '٣', '１２', '1,5', '1.', '.5', '+3', '00012', 'undefined', 'null', 'true', '[object Object]', '__proto__', 'constructor',
  '%', '%zz', '%00', '%E2%80%AE', '%F0%9F%98%80', '\u202e', '😀', '\u0000', '9'.repeat(400), '1e308', 'random,window',
  ...MARKUP];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf',
  '', '%5F%5Fproto%5F%5F', 'L[]', 'L.x', 'l', 'LL', '😀', 'v', 'V', ' L', 'L ', '%4C', ...MARKUP];

// A value of field f that the page accepts most of the time (small sizes keep computations short).
function plausible(rng, name, f) {
  switch (f.type) {
    case 'int': {
      const cap = ['L', 'Ls', 'd', 'dmax'].includes(name) ? 512 : 64;
      return String(rng.int(name === 'seed' ? 0 : 1, cap));
    }
    case 'number': return String(+(rng.next() * (rng.chance(0.2) ? 200 : 1.2)).toPrecision(rng.int(1, 17)));
    case 'enum': return rng.pick(f.values);
    case 'bool': return rng.pick(['0', '1']);
    case 'intList': return Array.from({ length: rng.int(1, 5) }, (_, i) => 16 * 2 ** i).join(',');
    default: return '';
  }
}

// A random custom pattern in the link encoding (cp, cw), valid or not.
function customFields(rng) {
  const L = rng.int(2, 12);
  const rows = Array.from({ length: L }, (_, i) => {
    const n = rng.int(1, 3);
    return Array.from({ length: n }, () => (rng.int(0, L - 1) - i).toString(36)).join('.');
  });
  let cp = rows.join('_');
  if (rng.chance(0.3)) cp = rng.pick(['0*zzzzzz', `0*${L.toString(36)}`, '-1_0', 'zz.zz', '0**2', '0_', '_', '0.0', '']);
  const cw = rng.chance(0.5) ? '' : Array.from({ length: rng.int(1, 3 * L) }, () => rng.pick(['1', '2.5', '1e308', '5e-324', '0', '-1', 'x', '1e-300'])).join('_');
  return { L: String(L), cp, cw };
}

// One "key=value" pair of a hostile link (encoded or raw).
function pair(rng, names, table) {
  const r = rng.next();
  let key = rng.pick(names), value;
  if (r < 0.6) value = plausible(rng, key, table[key]);
  else if (r < 0.85) value = rng.pick(HOSTILE_VALUES);
  else if (r < 0.93) { key = rng.pick(HOSTILE_KEYS); value = rng.pick(['1', ...HOSTILE_VALUES]); } else value = 'x'.repeat(rng.int(100, 80000));
  const enc = (s) => (rng.chance(0.5) ? encodeURIComponent(s) : s);
  return `${enc(key)}=${enc(value)}`;
}

// A very long hash (over or right at the page's limit, or a flood of keys).
function longHash(rng, max) {
  switch (rng.int(0, 4)) {
    case 0: return 'x&'.repeat(rng.int(100000, 140000));
    case 1: return 'x=1&'.repeat(rng.int(1, 280000));
    case 2: return `L=64&${'a'.repeat(max - 5 + rng.int(-1, 1))}`;
    case 3: return Array.from({ length: rng.int(1000, 40000) }, (_, i) => `k${i}=${i}`).join('&');
    default: return `L=${'9'.repeat(rng.int(1000, 300000))}`;
  }
}

// The explorer's zoom window and opt's budget in a link (issue 47): hostile view=i0,i1,j0,j1 texts
// (reversed, out of range, non-integers, too many or too few parts, huge, encoded, markup) and
// budget values (out of range, NaN, below opt's (Z) floor, on another construction, in a v=2 link,
// which cannot name it). Returns { hash, fresh, field }: field is the setting a message must name
// (null: a valid value, no message needed).
function viewBudgetCase(rng, ctx) {
  const L = rng.pick([16, 32, 64]);
  const m = Math.min(ctx.schema.pageLimits.viewMinSpan, L);
  const fresh = rng.chance(0.5);
  if (rng.chance(0.55)) {
    const bad = [`8,4,0,${L}`, `0,${L + 1},0,${L}`, `0,${L},0,${L + 1}`, '0,8.5,0,8', `0,${m},0,${m},1`, `0,${m},0`, '',
      `0,99999999999999999999,0,${L}`, `-1,${m},0,${m}`, `4,4,0,${L}`, `0,${m - 1},0,${m - 1}`, ` 0,${m},0,${m}`, `0%2C${m}%2C0%2C${m}`,
      '0,1e1,0,10', `+0,${m},0,${m}`, '00,16,0,16', 'NaN,NaN,NaN,NaN', '١,٢,0,8', ...MARKUP, '9'.repeat(400)];
    const valid = rng.chance(0.2);
    const view = valid ? `0,${m},${L - m},${L}` : rng.pick(bad);
    return { hash: `#v=3&pattern=window&L=${L}&w=1&view=${view}`, fresh, field: valid ? null : 'view' };
  }
  const v2 = rng.chance(0.25);
  const construction = rng.chance(0.8) ? 'opt' : rng.pick(['jl', 'lp', 'moment']);
  const budget = v2 || construction !== 'opt' ? rng.pick(['5.3', '4', '64']) : rng.pick(['0', '-1', 'NaN', 'Infinity', '1e7', '1000001', '1.1512', '1', 'x', '', '5.3.1', ...MARKUP]);
  return { hash: `#v=${v2 ? 2 : 3}&pattern=window&L=${L}&w=1&construction=${construction}&budget=${encodeURIComponent(budget)}`, fresh, field: 'budget' };
}

// A hostile link for `page` (see the top of this file). fresh: open the page with it (else the
// hash changes on the open page).
export function linkCase(rng, ctx, page) {
  if (page === 'explorer' && rng.chance(0.2)) return viewBudgetCase(rng, ctx);
  const table = ctx.tables[page];
  const names = Object.keys(table);
  const fresh = rng.chance(0.15);
  const kind = rng.int(0, 9);
  if (kind === 0) return { hash: `#${longHash(rng, ctx.maxHash[page])}`, fresh };
  if (kind === 1) return { hash: `#${rng.pick(['figures', 'results', 'controls', '😀', '%', '', '&', '=', '==', '&&&=&'])}`, fresh };
  if (kind === 2) {  // a plausible link: the pages compute it
    const keys = [...new Set(Array.from({ length: rng.int(1, 6) }, () => rng.pick(names)))].filter((k) => !['cp', 'cw', 'row'].includes(k));
    return { hash: `#v=1&${keys.map((k) => `${k}=${encodeURIComponent(plausible(rng, k, table[k]))}`).join('&')}`, fresh };
  }
  let parts = [];
  if (rng.chance(0.6)) parts.push(`v=${rng.chance(0.7) ? '1' : rng.pick(['0', '2', '-1', '01', '1.0', '', '%31', 'x', '1e0'])}`);
  if (rng.chance(0.05)) parts.push(`v=${rng.pick(['0', '1'])}`);
  const n = rng.int(1, 10);
  for (let t = 0; t < n; t++) parts.push(pair(rng, names, table));
  if (page === 'explorer' && rng.chance(0.25)) {
    const c = customFields(rng);
    parts = parts.filter((q) => !/^(pattern|L|cp|cw)=/.test(q));
    parts.push('pattern=custom', `L=${c.L}`, `cp=${c.cp}`);
    if (c.cw) parts.push(`cw=${c.cw}`);
  }
  if (page === 'lab' && rng.chance(0.1)) parts.push(rng.pick(['preset=paper', 'preset=__proto__', 'autorun=1', 'preset=paper&autorun=1']));
  if (rng.chance(0.1)) parts.push(parts[rng.int(0, parts.length - 1)]);  // a repeated key
  for (let t = parts.length - 1; t > 0; t--) {
    const j = rng.int(0, t);
    [parts[t], parts[j]] = [parts[j], parts[t]];
  }
  return { hash: `#${parts.join(rng.chance(0.05) ? '&&' : '&')}`, fresh };
}

// A random valid pattern as triplets (L small) written as JSON or CSV.
function validPattern(rng) {
  const L = rng.int(2, rng.chance(0.1) ? 300 : 40);
  const t = [];
  for (let i = 0; i < L; i++) {
    const cols = new Set([rng.int(0, L - 1)]);
    while (rng.chance(0.4)) cols.add(rng.int(0, L - 1));
    for (const j of cols) t.push([i, j, +(rng.next() * 3 + 0.01).toPrecision(rng.int(1, 17))]);
  }
  const form = rng.int(0, 3);
  if (form === 0) return JSON.stringify({ L, triplets: t });
  if (form === 1) return JSON.stringify(t);
  if (form === 2) return JSON.stringify({ L, triplets: t }, null, 2);
  const sep = rng.pick([',', ';', '\t', ' ']);
  return `${rng.chance(0.5) ? `i${sep}j${sep}w\n` : ''}${t.map((e) => e.join(sep)).join(rng.pick(['\n', '\r\n']))}\n`;
}

const PATTERN_HOSTILE = [
  '', '   ', '\ufeff', '[]', '{}', 'null', '[[0,0,1]', '{"L":2,"L":3,"triplets":[[0,0,1],[1,1,1]]}',
  '{"__proto__":{"L":2},"triplets":[[0,0,1],[1,1,1]]}', '{"L":2,"triplets":[[0,0,1e308],[0,1,1e308],[1,1,1]]}',
  '{"L":2,"triplets":[[0,0,1e300],[0,1,1e-300],[1,1,1]]}', '{"L":2,"triplets":[[0,0,5e-324],[1,1,1]]}',
  '[[0,0,1e999],[1,1,1]]', '[[0,0,-0],[1,1,1]]', '[[0,0,NaN],[1,1,1]]', '[[0.5,0,1],[1,1,1]]', '[[-1,0,1],[1,1,1]]',
  '[["0",0,1],[1,1,1]]', '{"L":1e9,"triplets":[[0,0,1]]}', '{"L":4097,"triplets":[[4096,4096,1]]}', '[[0,0,1],[1,1,1],]',
  `[[0,0,1${'0'.repeat(80)}],[1,1,1]]`, '0,0,1\n1,1,x\n', '0,0,1\n\n\n1,1\n', '# only a comment\n', '\u0000\u0001\u001b[31m',
  '[[0,0,1],[1,1,1]] trailing', '{"L":2,"triplets":[[0,0,1],[1,1,1]],"L":2}', '[[0,0,1],[0,0,2],[1,1,1]]',
  ...MARKUP.map((m) => `[[0,0,"${m.replace(/"/g, '\\"')}"]]`), ...MARKUP,
];

// Random damage to a text: cut, duplicate, insert hostile bytes, or change a number.
function mutate(rng, text) {
  const at = rng.int(0, text.length);
  switch (rng.int(0, 4)) {
    case 0: return text.slice(0, at);
    case 1: return text.slice(0, at) + text.slice(rng.int(at, text.length));
    case 2: return text.slice(0, at) + rng.pick(['\u0000', '\ufeff', ']', '[', '{', '"', ',', '\\', '😀', '-', 'e', '1e999', ...MARKUP]) + text.slice(at);
    case 3: return text.replace(/\d+(\.\d+)?/, () => rng.pick(['1e309', '-1', '4097', '99999999999999999999', '0', 'NaN', '1e-400']));
    default: return text + text;
  }
}

// A hostile pattern import (see the top of this file).
export function patternCase(rng) {
  let text;
  const kind = rng.int(0, 9);
  if (kind <= 2) text = validPattern(rng);
  else if (kind <= 5) text = mutate(rng, validPattern(rng));
  else if (kind <= 7) text = rng.pick(PATTERN_HOSTILE);
  else if (kind === 8) text = `${'['.repeat(rng.int(1000, 200000))}${rng.chance(0.5) ? ']'.repeat(rng.int(0, 1000)) : ''}`;
  else text = `{"L":${rng.int(2, 4096)},"triplets":[${Array.from({ length: rng.int(1, 40000) }, (_, t) => `[${t % 50},${t % 50},1]`).join(',')}]}`;
  if (rng.chance(0.1)) text = `\ufeff${text}`;
  const via = text.length > 100000 || rng.chance(0.5) ? 'file' : 'text';
  return { text, via, name: rng.chance(0.1) ? rng.pick(MARKUP) : rng.pick(['p.json', 'p.csv', 'p.txt', 'noext']) };
}

// A valid sweep record (the CLI's names) with statistics from the core.
function validSweep(rng, api) {
  const delta = rng.pick([0.1, 0.05, 0.5]);
  const trials = rng.int(1, rng.chance(0.1) ? 1000 : 12);
  const nL = rng.int(1, rng.chance(0.1) ? 64 : 8);
  const input = [];
  for (let n = 0, L = rng.int(2, 40); n < nL; n++, L += rng.int(1, 60)) {
    input.push({ L, dMins: Array.from({ length: trials }, () => (rng.chance(0.1) ? null : 16 * rng.int(1, 64))), dStar: rng.next() * 5000, k: rng.int(1, 8), maxColCount: rng.int(1, 8), inClass: rng.chance(0.8), madds: rng.int(1, 1e9) });
  }
  const s = api.summariseSweep({ delta, points: input });
  const points = s.points.map((p) => ({ L: p.L, d_mins: p.dMins, median: p.median, quantile: p.quantile, d_star: p.dStar, k: p.k, max_col_count: p.maxColCount, in_class: p.inClass, madds: p.madds }));
  const params = { pattern: rng.pick(['random', 'window', 'strided']), k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta, step: 16, d_max: 4096, trials, seed: rng.int(0, 1e6) };
  return { version: rng.chance(0.2) ? rng.pick(['0.1.0', ...MARKUP]) : null, params, points, fits: s.fits };
}

const SWEEP_HOSTILE = ['', '{}', '[]', 'null', '{"points":[]}', '{"command":"sweep","points":[{"L":16,"d_mins":[1e309]}]}',
  '{"__proto__":{"points":[]}}', '{"points":[{"L":16,"L":32,"d_mins":[16]}]}', 'L,trials,median\n', '\ufeff', '\u0000',
  'L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n16,1,NaN,NA,NA,NA,NA,NA,NaN\n', ...MARKUP];

// A hostile sweep import (see the top of this file).
export function sweepCase(rng, ctx) {
  const format = rng.pick(['json', 'csv']);
  let text;
  const kind = rng.int(0, 9);
  if (kind <= 2) text = ctx.api.formatSweep(validSweep(rng, ctx.api), format);
  else if (kind <= 6) text = mutate(rng, ctx.api.formatSweep(validSweep(rng, ctx.api), format));
  else if (kind <= 8) text = rng.pick(SWEEP_HOSTILE);
  else text = `${'['.repeat(rng.int(1000, 100000))}`;
  let bytes = Buffer.from(text);
  if (rng.chance(0.05)) bytes = Buffer.concat([bytes.subarray(0, 20), Buffer.from([0xff, 0xfe, 0xc3]), bytes.subarray(20)]);
  const name = rng.chance(0.1) ? `${rng.pick(MARKUP)}.${format}` : `sweep.${format}`;
  return { bytes, name, mime: format === 'json' ? 'application/json' : 'text/csv' };
}

// Stories for <attnx-explorer> (surface explorer-stories): story files served as story-src, inline
// JSON children, and the attributes that go with them.
const STORY_STATES = [
  { pattern: 'window', L: 32, w: 1, d: 256 }, { pattern: 'random', L: 24, k: 2, d: 64 }, { pattern: 'window', L: 16, w: 1, d: 1 },
  { pattern: 'random', L: 16, k: 2, construction: 'lp', d: 8 }, { pattern: 'random', L: 16, k: 2, construction: 'moment' },
  { pattern: 'strided', L: 32, stride: 8, d: 128 },
];
const STATE_HOSTILE = [{ d: 0 }, { dd: 1 }, { pattern: 'custom' }, { L: '64' }, { present: true }, { __proto__: null, toString: 1 }];
const STORY_WORDS = ['ρ = {rho}', 'ζ = {zeta}', '{failing_rows}', 'd_min {dmin}', 'bits {bits}', 'float32: {fp32}', '{lambda}', 'D = {D}',
  '[the lab](lab.html#preset=paper)', 'Plain words.', '😀'];
const STORY_HOSTILE = ['{nope}', '{', '}', '{ rho }', '{__proto__}', '{constructor}', '[x](javascript:alert(1))', ...MARKUP];

// A random story (a list of steps), valid or not.
function storySteps(rng) {
  return Array.from({ length: rng.int(rng.chance(0.05) ? 0 : 1, rng.chance(0.05) ? 60 : 4) }, (_, i) => {
    const text = Array.from({ length: rng.int(1, 5) }, () => rng.pick(rng.chance(0.03) ? STORY_HOSTILE : STORY_WORDS)).join(' ');
    const step = { title: rng.chance(0.05) ? rng.pick(MARKUP) : `Step ${i + 1}`, text: rng.chance(0.02) ? 'x'.repeat(1200) : text, state: { ...rng.pick(rng.chance(0.05) ? STATE_HOSTILE : STORY_STATES) } };
    if (rng.chance(0.02)) step.extra = 1;
    return step;
  });
}

// A story file's text: a random story, damaged, or a hostile text (over 256 KB sometimes).
function storyText(rng) {
  const kind = rng.int(0, 9);
  if (kind <= 4) return JSON.stringify(storySteps(rng));
  if (kind <= 6) return mutate(rng, JSON.stringify(storySteps(rng)));
  if (kind === 7) return rng.pick(['', '[]', '{}', 'null', '"x"', '[null]', '[[]]', '\ufeff[]', '{"__proto__":[]}', ...MARKUP]);
  if (kind === 8) return `[${'['.repeat(rng.int(1000, 100000))}`;
  return JSON.stringify(storySteps(rng)).padEnd(256 * 1024 + rng.int(-2, 4000), ' ');
}

// A hostile story case (see the top of this file): { how: 'src' | 'inline' | 'attr', text (the
// story file or the inline child), attrs: [[name, value]] of the element }. story-src is mostly
// the served file, sometimes another origin, another scheme, a missing file or junk (refused
// before any fetch, or a 404 from the test server), or fz-stall.json, whose answer never comes
// (the element draws at once and gives the story up after its timeout).
export function storyCase(rng) {
  const how = rng.pick(['src', 'src', 'inline', 'attr']);
  const attrs = [];
  if (how === 'src') {
    attrs.push(['story-src', rng.chance(0.75) ? rng.pick(['fz-story.json', './fz-story.json', '/fz-story.json', 'fz-stall.json'])
      : rng.pick(['http://127.0.0.1:1/x.json', 'https://example.invalid/s.json', '//example.invalid/s.json', 'javascript:alert(1)',
        'data:application/json,[]', 'missing.json', '', '%', 'http://[x', ...MARKUP])]);
  }
  if (how === 'attr' || rng.chance(0.1)) attrs.push(['story', rng.pick(['paper', 'constructions', 'inline', 'story-src', '../x.json', ...HOSTILE_VALUES.slice(0, 12)])]);
  if (rng.chance(0.4)) attrs.push(['step', rng.chance(0.7) ? String(rng.int(1, 4)) : rng.pick(['50', '51', '0', '-1', 'x', ...HOSTILE_VALUES.slice(0, 8)])]);
  if (rng.chance(0.2)) attrs.push(['present', '']);
  return { how, text: storyText(rng), attrs };
}

// <attnx-explorer> and <attnx-lab> (surfaces explorer-elements, lab-elements): every attribute set
// to a valid or a hostile value, and the element's lifecycle.
//   elementCase(rng, ctx, tag) -> { tag, scenario, first: [[name, value]], second (a second
//   element's attributes, or null), changes: [[name, value | null (removed)]] }
// scenario: 'attrs' (one element), 'change' (its attributes changed once it computed), 'reattach'
// (removed, changed while detached, appended again), 'rapid' (many changes without waiting),
// 'two' (two elements at once).
export const ELEMENT_HOSTILE = ['', ' ', ' 64 ', '064', '00012', '+3', '+16', '1e308', '-1e308', 'NaN', 'Infinity', '-1', '-0',
  '0', '1.5', '1e3', '0x10', '1_000', '١٢', '１２', '😀', '\u202e64', '\u0000', 'x'.repeat(10240), '9'.repeat(400), 'undefined', 'null',
  'true', '[object Object]', '__proto__', 'constructor', 'random,window', '16,,32', '16, 32', ' 16,32', ...MARKUP];
const ELEMENT_UNKNOWN = ['foo', 'dd', 'x-y', 'data-x', 'aria-label', 'class', 'ls2', 'story-srcx'];

// Small valid values of the element's fields (sizes that compute quickly).
function elementValue(rng, tag, field, f) {
  if (field === 'Ls') return rng.pick(['16', '16,32', '8,16,24', '32']);
  if (field === 'trials') return String(rng.int(1, 3));
  if (field === 'dmax') return rng.pick(['64', '128', '256']);
  if (field === 'step') return rng.pick(['8', '16']);
  if (field === 'L') return String(rng.pick([8, 16, 32, 48, 64]));
  if (field === 'd') return String(rng.pick([8, 16, 64, 96, 192, 256]));
  if (['autorun', 'controls', 'present', 'help', 'embed'].includes(field)) return rng.pick(['0', '1', '']);
  return plausible(rng, field, f);
}

// The element's own attributes (not link fields) with valid and hostile values.
const OWN_VALUES = {
  'attnx-explorer': { figures: ['A,M', 'A,M,metrics', 'metrics', 'X,err,zero', 'inspector', 'A,,M', 'a,m', 'nope', ''], controls: ['d', 'L,d', 'pattern,L,d,seed', 'nope', ''], theme: ['light', 'dark', 'auto', 'Dark', ''] },
  'attnx-lab': { figures: ['d-vs-L', 'd-vs-L,table', 'paper,compare', 'nope', ''], theme: ['light', 'dark', 'auto', 'x'] },
};
const SKIP = { 'attnx-explorer': new Set(['cp', 'cw', 'row', 'story', 'step', 'help', 'embed', 'layer', 'head', 'rule', 'softmax', 'theme', 'present']), 'attnx-lab': new Set(['embed', 'theme', 'autorun']) };

// One attribute: a link field or an own attribute, valid most of the time.
function elementAttribute(rng, tag, table, hostile) {
  const fields = Object.keys(table).filter((k) => !SKIP[tag].has(k));
  const own = Object.keys(OWN_VALUES[tag]);
  if (rng.chance(0.15)) { const n = rng.pick(own); return [n, rng.pick(OWN_VALUES[tag][n])]; }
  if (hostile && rng.chance(0.1)) return [rng.pick(ELEMENT_UNKNOWN), rng.pick(['1', ...MARKUP])];
  if (hostile && rng.chance(0.05)) return ['v', rng.pick(['1', '2', '02', '0', 'x', ' 1', ''])];
  // The zoom window and opt's budget as attributes (issue 47): reversed, out of range, parts, huge.
  if (tag === 'attnx-explorer' && rng.chance(0.1)) {
    return rng.chance(0.6) ? ['view', rng.pick(['0,16,0,16', '0,8,8,16', '8,4,0,16', '0,9999,0,16', '0,8.5,0,8', '0,8,0,8,1', '0,8,0', '-1,8,0,8', '4,4,0,16', ' 0,8,0,8', '', ...MARKUP])]
      : ['budget', rng.pick(['5.3', '64', '0', '-1', 'NaN', '1e7', '1.1512', 'x', ...MARKUP])];
  }
  const common = (tag === 'attnx-lab' ? ['Ls', 'trials', 'pattern', 'seed', 'construction', 'eps', 'step', 'dmax'] : ['pattern', 'L', 'd', 'seed', 'construction', 'eps', 'weights', 'scale']).filter((k) => k in table);
  const field = !hostile && rng.chance(0.6) ? rng.pick(common) : rng.pick(fields);
  const name = rng.chance(0.85) ? field.toLowerCase() : field;  // HTML lower-cases names; setAttribute keeps the case
  return [name, hostile ? rng.pick(ELEMENT_HOSTILE) : elementValue(rng, tag, field, table[field])];
}

function attributeSet(rng, tag, table, { hostileShare = 0.2, n = rng.int(1, 6) } = {}) {
  const out = new Map();
  if (tag === 'attnx-lab') { out.set('ls', elementValue(rng, tag, 'Ls')); out.set('trials', elementValue(rng, tag, 'trials')); }
  if (tag === 'attnx-explorer') out.set('l', elementValue(rng, tag, 'L'));
  for (let i = 0; i < n; i++) {
    const [k, v] = elementAttribute(rng, tag, table, rng.chance(hostileShare));
    out.set(k, v);
  }
  // A construction that does not take d, with a d (refused: "d applies only to …").
  if (tag === 'attnx-explorer' && rng.chance(0.1)) { out.set('construction', 'moment'); out.set('d', elementValue(rng, tag, 'd')); }
  if (tag === 'attnx-explorer' && rng.chance(0.05)) { out.set('construction', 'lp'); out.set('d', rng.pick(['320', '1024', '64'])); }
  if (tag === 'attnx-lab' && rng.chance(0.3)) out.set('autorun', '1');  // small sweeps only (Ls, trials, dmax above)
  if (tag === 'attnx-lab' && out.get('autorun') === '1' && !out.has('dmax')) out.set('dmax', '128');
  return [...out];
}

export function elementCase(rng, ctx, tag) {
  const table = tag === 'attnx-lab' ? ctx.tables.lab : ctx.tables.explorer;
  const scenario = rng.pick(['attrs', 'attrs', 'change', 'reattach', 'rapid', 'two']);
  const first = attributeSet(rng, tag, table);
  const second = scenario === 'two' ? attributeSet(rng, tag, table) : null;
  const changes = [];
  if (['change', 'reattach', 'rapid'].includes(scenario)) {
    const n = scenario === 'rapid' ? rng.int(4, 12) : rng.int(1, 3);
    for (let i = 0; i < n; i++) {
      if (rng.chance(0.15) && first.length) changes.push([rng.pick(first)[0], null]);
      else changes.push(elementAttribute(rng, tag, table, rng.chance(0.35)));
    }
  }
  return { tag, scenario, first, second, changes };
}
