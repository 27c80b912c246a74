// attnx CLI fuzzer: the merge surface. Real part files are made once per process and CLI (a few
// small sweeps, `attnx sweep --Ls 16,32 --trials 2 --dmax 512 --shard i/n`, with the unsharded
// output of each as the reference), then mutated by value: one JSON path of one part gets a value
// of another type or out of its range (strings of numbers, negative, 1e308, fractions, off-grid d,
// d above d_max, booleans as strings, null, huge arrays, nested objects), a field is removed or
// added, keys are repeated, shards are duplicated or missing, parts of two sweeps are mixed, bytes
// are damaged. Some mutations keep the meaning (another spelling of the same number, another key
// order or layout, another file order, the free text "about") and must merge to the reference.
//
// A case carries its expectation (checkMerge):
//   'refuse'  the part must be refused: exit 2 naming the file and the field; exit 0 is BAD
//   'same'    the meaning is unchanged: exit 0 must print the reference; a refusal is accepted
//             if it names the file
//   'ok'      untouched parts: exit 0 with the reference, nothing else
// Legal values that change the meaning and that no reader could tell from a genuine part (d_min
// on the grid, another seed in a one-shard sweep, null bounds) are never generated.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The sweeps whose parts are mutated: seed, shard count, extra flags.
export const MERGE_CONFIGS = [
  { seed: 1, n: 2, extra: ['--dmax', '512'] },
  { seed: 2, n: 3, extra: ['--dmax', '512'] },
  { seed: 3, n: 1, extra: ['--dmax', '512'] },
  { seed: 4, n: 4, extra: ['--dmax', '128', '--pattern', 'window', '--w', '1'] },
  { seed: 5, n: 2, extra: ['--construction', 'moment'] },
  { seed: 6, n: 2, extra: ['--dmax', '512', '--step', '8', '--eps', '0.5', '--projection', 'rademacher'] },
];
const OUTPUTS = { json: [], csv: ['--format', 'csv'], report: ['--report'] };

const corpora = new Map();

function run(cli, args) {
  const r = spawnSync(cli, args, { maxBuffer: 64 << 20, timeout: 120000 });
  if (r.status !== 0) throw new Error(`fuzz-cli merge corpus: attnx ${args.join(' ')} failed (${r.status ?? r.signal}): ${String(r.stderr).slice(0, 300)}`);
  return r.stdout;
}

// The part files and reference outputs of every config (made once per CLI and process, kept in a
// temporary directory removed at exit). Checks that the untouched parts merge to the reference.
export function mergeCorpus(cli) {
  if (corpora.has(cli)) return corpora.get(cli);
  const dir = mkdtempSync(join(tmpdir(), 'attnx-fuzz-merge-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const configs = MERGE_CONFIGS.map((c, j) => {
    const base = ['sweep', '--Ls', '16,32', '--trials', '2', '--seed', String(c.seed), ...c.extra];
    const refs = Object.fromEntries(Object.entries(OUTPUTS).map(([k, f]) => [k, run(cli, [...base, ...f])]));
    const parts = Array.from({ length: c.n }, (_, i) => run(cli, [...base, '--shard', `${i}/${c.n}`]).toString('utf8'));
    const files = parts.map((t, i) => {
      const f = join(dir, `c${j}-part${i}.json`);
      writeFileSync(f, t);
      return f;
    });
    const merged = run(cli, ['merge', ...files]);
    if (!merged.equals(refs.json)) throw new Error(`fuzz-cli merge corpus: untouched parts of config ${j} do not merge to the unsharded sweep's output`);
    return { ...c, index: j, refs, parts, docs: parts.map((t) => JSON.parse(t)) };
  });
  const corpus = { dir, configs };
  corpora.set(cli, corpus);
  return corpus;
}

// ---- JSON with raw tokens: { [RAW]: 'text' } is written as text (number spellings, repeated keys).
const RAW = Symbol('raw');
const raw = (text) => ({ [RAW]: text });
function write(v, indent, depth = 0) {
  if (v && typeof v === 'object' && RAW in v) return v[RAW];
  const nl = indent ? `\n${' '.repeat(indent * (depth + 1))}` : '';
  const end = indent ? `\n${' '.repeat(indent * depth)}` : '';
  if (Array.isArray(v)) return v.length ? `[${nl}${v.map((x) => write(x, indent, depth + 1)).join(`,${nl}`)}${end}]` : '[]';
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    return keys.length ? `{${nl}${keys.map((k) => `${JSON.stringify(k)}:${indent ? ' ' : ''}${write(v[k], indent, depth + 1)}`).join(`,${nl}`)}${end}}` : '{}';
  }
  return JSON.stringify(v);
}
const clone = (v) => JSON.parse(JSON.stringify(v));
const pathText = (p) => p.reduce((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${k}` : k), '');
function getAt(doc, p) { return p.reduce((o, k) => o[k], doc); }
function setAt(doc, p, v) { getAt(doc, p.slice(0, -1))[p[p.length - 1]] = v; }

// Every leaf path of a part (format, about, shard.*, options.*, options.Ls[i], results[i].*).
function leafPaths(doc) {
  const out = [['format'], ['about'], ['shard', 'index'], ['shard', 'count']];
  for (const k of Object.keys(doc.options)) {
    if (Array.isArray(doc.options[k])) doc.options[k].forEach((_, i) => out.push(['options', k, i]));
    else out.push(['options', k]);
  }
  doc.results.forEach((r, i) => { for (const k of Object.keys(r)) out.push(['results', i, k]); });
  return out;
}

const deep = (n) => raw(`${'['.repeat(n)}${']'.repeat(n)}`);
// Values of another JSON type than v (strings of v's number, booleans as strings, containers).
function otherTypes(rng, v, { nullable = false } = {}) {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  const pool = [
    typeof v === 'number' ? String(v) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 'x',
    'true', 'false', 'yes', true, false, [], [v], {}, { value: v }, '', ' ', `${s} `, 'null', 'NaN',
    deep(rng.pick([3, 64, 5000])),
  ];
  if (!nullable) pool.push(null);
  return rng.pick(pool);
}

// A value out of the range of the number v (for integer fields: fractions too).
function outOfRange(rng, v, { integer = true, lo = null, hi = null } = {}) {
  const pool = [-v, -1, 1e308, -1e308, raw('1e400'), raw('-1e400'), raw('1e-400'), v * 1e6, raw('9007199254740993'),
    raw('18446744073709551617'), raw('NaN'), raw('Infinity'), raw('0x10'), raw('+1'), raw('.5'), raw('01')];
  if (integer) pool.push(v + 0.5, v - 0.25, raw(`${v}.5`), raw(`${v}e-1`));
  if (lo !== null) pool.push(lo - 1, lo - 0.5);
  if (hi !== null) pool.push(hi + 1, hi + 0.5, hi * 2, 2 ** 31, 2 ** 32 + hi);
  return rng.pick(pool);
}

// The same number in another spelling (the meaning is unchanged).
function sameNumber(rng, v) {
  const opts = Number.isInteger(v) ? [`${v}.0`, `${v}e0`, `${v}E+0`, v === 0 ? '-0' : `${v}0e-1`] : [`${v}0`, `${v}000`, `${v}e0`, `${v}E+0`];
  return raw(rng.pick(opts));
}

const MADDS_HOSTILE = [5, 0, -1, '-1', '1.5', '', ' 5', '5 ', '+5', '05', '0x10', '1e3', '18446744073709551616',
  '99999999999999999999999', 'NaN', null, true, 'true', [], {}];
const SEED_HOSTILE = [1, 2, 0, -1, '-1', '1.5', '', '01', '+1', ' 1', '1e3', '9007199254740993', '18446744073709551616', 'x', null, true, [], {}];

// A hostile value for leaf path p of part doc (config c: step, d_max, construction). Returns
// { value, expect: 'refuse' | 'same' } or null when no value is generated for the path.
function hostileValue(rng, c, doc, p) {
  const v = getAt(doc, p);
  const key = p[p.length - 1];
  const step = doc.options.step, dmax = doc.options.d_max;
  const same = typeof v === 'number' && rng.chance(0.12);
  if (same) return { value: sameNumber(rng, v), expect: 'same' };
  if (p[0] === 'about') return { value: rng.pick(['', 'x'.repeat(100000), null, 1, [], { a: 1 }, '<script>']), expect: 'same' };
  if (p[0] === 'format') return { value: rng.pick(['attnx-sweep-part/2', 'attnx-sweep-part/1 ', 'ATTNX-SWEEP-PART/1', 'attnx-sweep/1', 1, null, ['attnx-sweep-part/1'], '']), expect: 'refuse' };
  if (key === 'madds') return { value: rng.pick(MADDS_HOSTILE), expect: 'refuse' };
  if (key === 'seed' || key === 'max_bytes') {
    // In a one-shard sweep another valid seed or budget is a genuine part of another sweep.
    const vals = (key === 'seed' ? SEED_HOSTILE : [...SEED_HOSTILE, '1', '1048575', '1125899906842625'])
      .filter((x) => c.n > 1 || !(typeof x === 'string' && /^(0|[1-9]\d*)$/.test(x) && Number(x) <= 9007199254740991));
    return { value: rng.pick(vals), expect: 'refuse' };
  }
  if (p[0] === 'options' && c.n === 1 && !['Ls', 'trials'].includes(p[1])) {
    // One part: only values no sweep writes (a valid other value is a genuine other sweep).
    if (typeof v === 'number') return { value: rng.chance(0.5) ? otherTypes(rng, v) : rng.pick([-1, raw('1e400'), raw('NaN'), 1e308, -1e308, ...(REAL_OPTIONS.has(key) ? [] : [0.5 + v])]), expect: 'refuse' };
    return { value: rng.pick([1, null, true, [], {}, '', `${v} `, v.toUpperCase(), 'custom']), expect: 'refuse' };
  }
  if (p[0] === 'options') {
    // Several parts, one changed: another valid value is a part of another sweep (refused too).
    if (typeof v === 'number') {
      const r = rng.next();
      return { value: r < 0.35 ? otherTypes(rng, v) : r < 0.7 ? outOfRange(rng, v, { integer: Number.isInteger(v) }) : rng.pick([v + 1, v * 2, v / 2, v + 16]), expect: 'refuse' };
    }
    const choices = { pattern: ['window', 'random', 'custom', 'block'], weights: ['random', 'decaying', 'x'], construction: ['lp', 'moment', 'jl', 'JL'], projection: ['gaussian', 'orthogonal', 'x'] }[key] ?? ['x'];
    const value = rng.chance(0.6) ? rng.pick(choices.filter((x) => x !== v)) : otherTypes(rng, v);
    // projection "gaussian" is written by leaving the key out: the same options.
    return { value, expect: key === 'projection' && value === 'gaussian' && c.extra.includes('rademacher') ? 'refuse' : key === 'projection' && value === 'gaussian' ? 'same' : 'refuse' };
  }
  if (p[0] === 'shard') {
    const count = doc.shard.count;
    const value = rng.chance(0.4) ? otherTypes(rng, v)
      : rng.pick([v + 0.5, raw(`${v}.5`), -1, count, count + 1, key === 'index' ? (v + 1) % Math.max(count, 2) : count + 1, 1e308, 0.5, 2 ** 31]);
    // Another valid index of the same count: the results are not that shard's tasks.
    return { value, expect: 'refuse' };
  }
  // results[i].*
  const r = getAt(doc, p.slice(0, -1));
  const L = r.L;
  if (key === 'L' || key === 'trial') return { value: rng.chance(0.5) ? otherTypes(rng, v) : rng.pick([v + 1, v === 16 ? 32 : 16, -v, 1e308, v + 0.5, 0]), expect: 'refuse' };
  if (key === 'd_min') {
    if (c.extra.includes('moment')) {
      const D = 2 * r.k;
      return { value: rng.chance(0.4) ? otherTypes(rng, v ?? D, { nullable: true }) : rng.pick([D + 2, D - 1, D + 0.5, String(D), -D, 1e308, 0, 4 * D]), expect: 'refuse' };
    }
    const d = v ?? step;
    const pool = [String(d), -d, 1e308, raw('1e400'), d + 0.5, d + 1, dmax + step, dmax * 2, 1000000, 0, -0.5, true, 'null', [d], { d }, raw(`${d}.5`)];
    if (step === 1) pool.splice(pool.indexOf(d + 1), 1);
    return { value: rng.chance(0.2) ? otherTypes(rng, d, { nullable: true }) : rng.pick(pool), expect: 'refuse' };
  }
  if (key === 'd_star') return { value: rng.pick([0, -v, -1, String(v), raw('1e400'), raw('NaN'), null, true, [v], {}, '']), expect: 'refuse' };
  if (key === 'k') return { value: rng.chance(0.3) ? otherTypes(rng, v) : outOfRange(rng, v, { lo: 1, hi: L }), expect: 'refuse' };
  if (key === 'max_col_count') return { value: rng.chance(0.3) ? otherTypes(rng, v) : outOfRange(rng, v, { lo: 1, hi: L }), expect: 'refuse' };
  if (key === 'in_class') return { value: rng.pick([!v, String(v), v ? 1 : 0, 'yes', 'no', null, [v], { v }]), expect: 'refuse' };
  if (key === 'column_supports') return { value: rng.pick([0, L + 1, -1, 1.5, String(v ?? 1), true, [], {}, 1e308, raw('1e400')]), expect: 'refuse' };
  if (key === 'logit_scale' || key === 'max_abs_logit') return { value: rng.pick([-1, -0.5, String(v ?? 1), true, 'null', [], {}, raw('1e400'), raw('-1e400'), raw('NaN')]), expect: 'refuse' };
  return null;
}

// Fields a part may lack (parts written before the SPEC §9 bounds): removing them is legal and is
// not generated. Other fields are required.
const REAL_OPTIONS = new Set(['w_min', 'decay', 'eps', 'tau', 'delta', 'box']);
const OPTIONAL = new Set(['logit_scale', 'max_abs_logit', 'column_supports', 'about', 'projection']);

// Each kind of mutation: changes m (docs, texts, order, res) in place; returns a whole new
// mutation instead when it cannot apply (add: the name exists).
const MUTATIONS = {
  'untouched': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    m.order = rng.shuffle(m.order);
    Object.assign(res, { expect: 'ok', mutated: null, what: `untouched parts in m.order ${m.order.join(',')}` });
  },
  'layout': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    // Another key m.order, indentation or line ends: the same part.
    const d = docs[one];
    const reorder = (o) => Object.fromEntries(rng.shuffle(Object.entries(o)));
    const doc = rng.chance(0.5) ? { ...reorder(d), options: reorder(d.options), results: d.results.map(reorder) } : d;
    texts[one] = write(doc, rng.pick([0, 1, 4])).replace(/\n/g, rng.pick(['\n', '\r\n', '\n\n'])) + rng.pick(['', '\n', ' \t\n']);
    Object.assign(res, { expect: 'same', what: 'another layout or key m.order' });
  },
  'value': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    const paths = leafPaths(docs[one]);
    let h = null, p;
    while (!h) { p = rng.pick(paths); h = hostileValue(rng, c, docs[one], p); }
    const before = getAt(docs[one], p);
    setAt(docs[one], p, h.value);
    texts[one] = write(docs[one], rng.chance(0.5) ? 0 : 2);
    const isRaw = h.value && typeof h.value === 'object' && RAW in h.value;
    const shown = isRaw ? h.value[RAW] : JSON.stringify(h.value);
    // A token that is no JSON (NaN, 01, +1) or nesting past the reader's depth fails as a whole
    // file: the refusal names the file (and the place), not a field.
    // A number beyond the doubles (1e400) is refused by the JSON reader with its line and column.
    const syntax = isRaw && (h.value[RAW].startsWith('[['.repeat(32)) || (() => { try { return !Number.isFinite(JSON.parse(h.value[RAW])) && !h.value[RAW].startsWith('['); } catch { return true; } })());
    const expect = !isRaw && JSON.stringify(h.value) === JSON.stringify(before) ? 'same' : h.expect;
    // The field, or (L, trial) the result it belongs to; an option may also show as results that
    // no longer fit it, or as another option that no longer fits it.
    const fields = p[0] === 'options' ? [pathText(p), 'options.', 'results', 'shard.'] : p[0] === 'shard' ? [pathText(p), 'results'] : p[0] === 'results' && ['L', 'trial'].includes(p[2]) ? [pathText(p.slice(0, 2))] : [pathText(p)];
    Object.assign(res, { expect, field: syntax ? 'line ' : fields, what: `${pathText(p)} = ${String(shown).slice(0, 60)}` });
  },
  'remove': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    const paths = leafPaths(docs[one]).filter((p) => typeof p[p.length - 1] === 'string' && !OPTIONAL.has(p[p.length - 1]));
    const p = rng.chance(0.15) ? [rng.pick(['shard', 'options', 'results', 'format'])] : rng.pick(paths);
    delete getAt(docs[one], p.slice(0, -1))[p[p.length - 1]];
    texts[one] = write(docs[one], 0);
    Object.assign(res, { field: pathText(p), what: `${pathText(p)} removed` });
  },
  'add': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    const where = rng.pick([[], ['shard'], ['options'], ['results', 0]]);
    const name = rng.pick(['extra', 'd', 'dmax', 'L', 'd_mins', 'median', 'version', '__proto__', 'constructor', 'a b', 'k ', '']);
    const o = getAt(docs[one], where);
    if (name in o) return mutateParts(rng, corpus, c);
    o[name] = rng.pick([1, 'x', null, { nested: { deeper: [1, 2, 3] } }, [16, 32]]);
    texts[one] = write(docs[one], 0);
    Object.assign(res, { field: where.length ? pathText(where) : null, what: `${pathText([...where, name]) || name} added` });
  },
  'repeat-key': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    // A key written twice, the second time with another value (which one a reader takes is moot:
    // it must refuse).
    const paths = leafPaths(docs[one]).filter((p) => typeof p[p.length - 1] === 'string' && p[0] !== 'about');
    const p = rng.pick(paths);
    const parent = getAt(docs[one], p.slice(0, -1));
    const key = p[p.length - 1];
    const v = parent[key];
    const other = typeof v === 'number' ? v + (key === 'd_min' ? docs[one].options.step : 1) : v === null ? docs[one].options.step : typeof v === 'boolean' ? !v : `${v}1`;
    const entries = Object.entries(parent).map(([k, x]) => `${JSON.stringify(k)}:${write(x, 0)}`);
    const at = Object.keys(parent).indexOf(key);
    entries.splice(at + 1, 0, `${JSON.stringify(key)}:${JSON.stringify(other)}`);
    setAt(docs[one], p.slice(0, -1), raw(`{${entries.join(',')}}`));
    if (p.length === 1) texts[one] = `{${entries.join(',')}}`;
    else texts[one] = write(docs[one], 0);
    Object.assign(res, { field: `"${key}"`, what: `${pathText(p)} written twice (${JSON.stringify(v)}, then ${JSON.stringify(other)})` });
  },
  'duplicate': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    // A shard given twice (the same file twice, or a copy of it for another shard).
    if (rng.chance(0.5) || docs.length === 1) m.order.splice(rng.int(0, m.order.length), 0, one);
    else { const other = (one + 1) % docs.length; texts[other] = texts[one]; res.mutated = other; }
    Object.assign(res, { field: 'shard', what: `shard ${one} given twice` });
  },
  'missing': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    if (docs.length === 1) m.order = [];
    else m.order.splice(m.order.indexOf(one), 1);
    Object.assign(res, { field: docs.length === 1 ? 'part files' : 'shard', mutated: null, what: `shard ${one} left out` });
  },
  'mix': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    // One part of another sweep with the same shard count (or another count).
    const others = corpus.configs.filter((o) => o !== c);
    const o = rng.pick(others);
    texts[one] = o.parts[Math.min(one, o.n - 1)];
    Object.assign(res, { field: o.n !== c.n ? 'shard' : 'options', what: `part ${one} taken from config ${o.index}` });
    if (c.n === 1) res.mutated = null;  // the only part: a shard of that sweep, the others missing
  },
  'results': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    const r = docs[one].results;
    const choice = rng.int(0, 5);
    if (choice === 0) docs[one].results = Array.from({ length: rng.pick([100000, 300000]) }, () => r[0]);
    else if (choice === 1) docs[one].results = [...r, r[0]];
    else if (choice === 2) docs[one].results = r.slice(1);
    else if (choice === 3) docs[one].results = [...r].reverse().length > 1 ? [...r].reverse() : [{ ...r[0], trial: r[0].trial + 1 }];
    else if (choice === 4) docs[one].results = rng.pick([{}, null, 'x', 1, deep(100000)]);
    else docs[one].results = r.map((x) => [x]);
    const tooDeep = choice === 4 && docs[one].results !== null && RAW in Object(docs[one].results);
    texts[one] = write(docs[one], 0);
    Object.assign(res, { field: tooDeep ? null : 'results', what: `results: variant ${choice}` });
  },
  'bytes': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    const b = Buffer.from(texts[one]);
    const at = rng.int(0, b.length);
    const op = rng.int(0, 4);
    const bytes = op === 0 ? b.subarray(0, at)
      : op === 1 ? Buffer.concat([b.subarray(0, at), Buffer.from(rng.pick([[0], [0xff], [0xef, 0xbb, 0xbf], [0x1b, 0x5b, 0x32, 0x4a], [0xc0, 0xaf], [0x7b], [0x22]])), b.subarray(at)])
        : op === 2 ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])
          : op === 3 ? Buffer.concat([b, b]) : Buffer.alloc(0);
    texts[one] = bytes;
    Object.assign(res, { expect: 'same', what: `bytes damaged (op ${op} at ${at})` });
  },
  'not-a-part': (m) => {
    const { rng, corpus, c, docs, texts, one, res } = m;
    texts[one] = c.refs.json;
    Object.assign(res, { what: `part ${one} replaced by the unsharded sweep output` });
  },
};

// One mutation of the parts (texts) of config c: { texts, files: indices in argument order,
// expect, field (the JSON path a refusal names), mutated (index of the changed part or null), what }.
function mutateParts(rng, corpus, c) {
  const docs = c.docs.map(clone);
  const texts = [...c.parts];
  const m = { rng, corpus, c, docs, texts, order: docs.map((_, i) => i), one: rng.int(0, docs.length - 1) };
  const kind = rng.weighted([[3, 'untouched'], [3, 'layout'], [30, 'value'], [5, 'remove'], [4, 'add'], [3, 'repeat-key'],
    [3, 'duplicate'], [2, 'missing'], [3, 'mix'], [2, 'results'], [3, 'bytes'], [1, 'not-a-part']]);
  m.res = { kind, expect: 'refuse', field: null, mutated: m.one, what: kind };
  const again = MUTATIONS[kind](m);
  if (again) return again;
  return { ...m.res, texts, order: m.order };
}

// A merge case: { args, expect, field, fileNamed, ref, what }; the parts are written into dir.
export function mergeCase(rng, dir, cli) {
  const corpus = mergeCorpus(cli);
  const c = rng.pick(corpus.configs);
  const m = mutateParts(rng, corpus, c);
  const files = m.texts.map((t, i) => {
    const f = join(dir, `part${i}.json`);
    writeFileSync(f, t);
    return f;
  });
  const out = rng.weighted([[6, 'json'], [2, 'csv'], [2, 'report']]);
  const args = ['merge', ...m.order.map((i) => files[i]), ...OUTPUTS[out]];
  const refOf = (cfg) => cfg.refs[out];
  return {
    args, expect: m.expect, field: m.field, what: `config ${c.index} (seed ${c.seed}, ${c.n} shards): ${m.what}`,
    file: m.mutated === null ? null : files[m.mutated], ref: refOf(c),
  };
}

// [outcome, reason?] of a merge case that the generic classifier (run.mjs) found ok or refused.
export function checkMerge(c, r, generic) {
  const [outcome] = generic;
  const err = r.err.toString('utf8');
  if (outcome === 'ok') {
    if (c.expect === 'refuse') return ['BAD', `a mutated part was accepted (exit 0): ${c.what}`];
    if (!r.out.equals(c.ref)) return ['BAD', `exit 0 but the output differs from the unsharded sweep's: ${c.what}`];
    return ['ok'];
  }
  if (c.expect === 'ok') return ['BAD', `untouched parts refused: ${err.trim().slice(0, 200)}`];
  if (c.file && !err.includes(c.file)) return ['BAD', `the refusal does not name the file ${c.file}: ${err.trim().slice(0, 200)}`];
  const fields = [].concat(c.field ?? []);
  if (c.expect === 'refuse' && fields.length && !fields.some((f) => err.includes(f))) return ['BAD', `the refusal does not name the field ${fields[0]}: ${err.trim().slice(0, 200)}`];
  return ['refused'];
}
