// attnx CLI fuzzer: the frontier-merge surface. Real frontier part files are made once per process
// and CLI (tiny frontiers, `attnx frontier --L 16 --trials 2 ... --shard i/n`, with the unsharded
// output as the reference), then mutated as merge.mjs mutates sweep parts: one JSON path of one
// part gets a value of another type or out of its range, a field is removed or added (in the part,
// its shard, its options or a result), a key is repeated, a shard is duplicated or left out, parts
// of two frontiers are mixed, bytes are damaged. A case expects (checkMerge of merge.mjs):
//   'refuse'  exit 2 naming the file and the field (exit 0 is BAD: a mutation accepted)
//   'same'    meaning unchanged (another layout, key order, file order, "about"): exit 0 must
//             print the reference byte for byte; a refusal naming the file is accepted
//   'ok'      untouched parts: exit 0 with the reference
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The frontiers whose parts are mutated: seed, shard count, flags.
export const FRONTIER_CONFIGS = [
  { seed: 1, n: 2, extra: ['--L', '16', '--scales', '4,8', '--boxes', '1,10'] },
  { seed: 2, n: 3, extra: ['--L', '8', '--constructions', 'opt,jl', '--pattern', 'window', '--w', '1'] },
  { seed: 3, n: 1, extra: ['--L', '16', '--constructions', 'lp', '--boxes', '1,10'] },
];
const OUTPUTS = { json: [], csv: ['--format', 'csv'] };
const corpora = new Map();

function run(cli, args) {
  const r = spawnSync(cli, args, { maxBuffer: 64 << 20, timeout: 120000 });
  if (r.status !== 0) throw new Error(`fuzz-cli frontier corpus: attnx ${args.join(' ')} failed (${r.status ?? r.signal}): ${String(r.stderr).slice(0, 300)}`);
  return r.stdout;
}

/**
 * The part files and reference outputs of every config (made once per CLI and process). Throws
 * when the untouched parts do not merge to the unsharded frontier's output byte for byte.
 */
export function frontierCorpus(cli) {
  if (corpora.has(cli)) return corpora.get(cli);
  const dir = mkdtempSync(join(tmpdir(), 'attnx-fuzz-frontier-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const configs = FRONTIER_CONFIGS.map((c, j) => {
    const base = ['frontier', '--trials', '2', '--threads', '1', '--seed', String(c.seed), ...c.extra];
    const refs = Object.fromEntries(Object.entries(OUTPUTS).map(([k, f]) => [k, run(cli, [...base, ...f])]));
    const parts = Array.from({ length: c.n }, (_, i) => run(cli, [...base, '--shard', `${i}/${c.n}`]).toString('utf8'));
    const files = parts.map((t, i) => { const f = join(dir, `f${j}-part${i}.json`); writeFileSync(f, t); return f; });
    if (!run(cli, ['merge', ...files]).equals(refs.json)) throw new Error(`fuzz-cli frontier corpus: config ${j}'s parts do not merge to its unsharded output`);
    return { ...c, index: j, refs, parts, docs: parts.map((t) => JSON.parse(t)) };
  });
  corpora.set(cli, { configs });
  return corpora.get(cli);
}

const clone = (v) => JSON.parse(JSON.stringify(v));
const pathText = (p) => p.reduce((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${k}` : k), '');
const getAt = (doc, p) => p.reduce((o, k) => o[k], doc);
const setAt = (doc, p, v) => { getAt(doc, p.slice(0, -1))[p[p.length - 1]] = v; };

// Every leaf path of a part (format, about, shard.*, options.* and their list items, results[i].*).
function leafPaths(doc) {
  const out = [['format'], ['about'], ['shard', 'index'], ['shard', 'count']];
  for (const [k, v] of Object.entries(doc.options)) {
    if (Array.isArray(v)) v.forEach((_, i) => out.push(['options', k, i]));
    else out.push(['options', k]);
  }
  doc.results.forEach((r, i) => { for (const k of Object.keys(r)) out.push(['results', i, k]); });
  return out;
}

// Raw JSON text for a value (numbers no JSON.stringify writes, nesting).
const RAW = Symbol('raw');
const raw = (t) => ({ [RAW]: t });
const write = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && RAW in x ? `\u0000${x[RAW]}\u0000` : x)).replace(/"\\u0000(.*?)\\u0000"/g, (_, t) => t);

const ANY_BAD = ['x', '', true, false, [], {}, null, raw('1e400'), raw('NaN'), raw('-1e400'), -1, 1e308, 0.5, 2 ** 31, raw('[[[[[[1]]]]]]')];

/**
 * A value for leaf path p of part doc that no frontier writes there: { value, expect }. Values
 * that a genuine part of another frontier could hold (another valid seed, d_min on the grid) are
 * never generated; seeds and budgets only in their written form's neighbours.
 */
function hostileValue(rng, doc, p, one) {
  const v = getAt(doc, p);
  const key = p[p.length - 1];
  if (p[0] === 'about') return { value: rng.pick(['', 'x'.repeat(100000), null, 1, [], '<script>']), expect: 'same' };
  if (p[0] === 'format') return { value: rng.pick(['attnx-frontier-part/2', 'attnx-sweep-part/1', 'ATTNX-FRONTIER-PART/1', '', 1, null]), expect: 'refuse' };
  if (key === 'seed' || key === 'max_bytes') return { value: rng.pick([1, -1, '-1', '1.5', '', '01', '+1', ' 1', '1e3', '18446744073709551616', null, true, []]), expect: 'refuse' };
  if (key === 'd_min') return { value: rng.pick([-1, 0, 0.5, String(v), true, [], {}, 1e308, raw('1e400'), raw('NaN'), 100000]), expect: 'refuse' };
  if (key === 'logit_scale' || key === 'max_abs_logit') return { value: rng.pick([-1, String(v), true, [], {}, raw('NaN'), raw('1e400'), raw('-1e400')]), expect: 'refuse' };
  if (p[1] === 'constructions') return { value: rng.pick(['xx', 'JL', '', 1, null, [], 'jl ', doc.options.constructions[(p[2] + 1) % doc.options.constructions.length]]), expect: 'refuse' };
  if (typeof v === 'string') return { value: rng.pick(['x', '', v.toUpperCase(), `${v} `, 1, null, [], 'custom']), expect: v === v.toUpperCase() ? 'same' : 'refuse' };
  // One part: 0.5 is a valid eps, tau, delta, scale or box of another frontier (merged without a word).
  return { value: rng.pick(ANY_BAD.filter((x) => x !== v && !(one && x === 0.5))), expect: 'refuse' };
}

// Each kind of mutation: changes m (docs, texts, order, res) in place.
const MUTATIONS = {
  untouched: (m) => { m.order = m.rng.shuffle(m.order); Object.assign(m.res, { expect: 'ok', mutated: null, what: `untouched parts in order ${m.order}` }); },
  layout: (m) => {
    m.texts[m.one] = JSON.stringify(m.docs[m.one], null, m.rng.pick([0, 1, 4])).replace(/\n/g, m.rng.pick(['\n', '\r\n'])) + m.rng.pick(['', '\n', ' \t\n']);
    Object.assign(m.res, { expect: 'same', what: 'another layout' });
  },
  value: (m) => {
    const p = m.rng.pick(leafPaths(m.docs[m.one]));
    const h = hostileValue(m.rng, m.docs[m.one], p, m.c.n === 1);
    setAt(m.docs[m.one], p, h.value);
    m.texts[m.one] = write(m.docs[m.one]);
    const syntax = h.value && typeof h.value === 'object' && RAW in h.value;
    const fields = p[0] === 'options' ? [pathText(p.slice(0, 2)), 'options', 'results', 'shard'] : p[0] === 'results' && p[2] === 'task' ? [pathText(p.slice(0, 2)), 'results'] : [pathText(p)];
    Object.assign(m.res, { expect: h.expect, field: syntax ? null : fields, what: `${pathText(p)} = ${String(syntax ? h.value[RAW] : JSON.stringify(h.value)).slice(0, 60)}` });
  },
  remove: (m) => {
    const paths = leafPaths(m.docs[m.one]).filter((p) => typeof p[p.length - 1] === 'string' && p[0] !== 'about');
    const p = m.rng.chance(0.2) ? [m.rng.pick(['shard', 'options', 'results', 'format'])] : m.rng.pick(paths);
    delete getAt(m.docs[m.one], p.slice(0, -1))[p[p.length - 1]];
    m.texts[m.one] = write(m.docs[m.one]);
    // k and w have defaults (a part may leave them out): removing one keeps or changes the meaning.
    const optional = ['k', 'w'].includes(p[p.length - 1]) && p[0] === 'options';
    Object.assign(m.res, { expect: optional ? 'same' : 'refuse', field: optional ? null : pathText(p), what: `${pathText(p)} removed` });
  },
  add: (m) => {
    const where = m.rng.pick([[], ['shard'], ['options'], ['results', 0]]);
    const o = getAt(m.docs[m.one], where);
    const name = m.rng.pick(['extra', 'd', 'dmax', 'Ls', 'scale', 'box', 'budget', 'stride', 'w_min', 'decay', '__proto__', 'a b', '']);
    if (Object.hasOwn(o, name)) return MUTATIONS.untouched(m);
    Object.defineProperty(o, name, { value: m.rng.pick([1, 'x', null, [16, 32], { nested: [1] }]), enumerable: true, writable: true, configurable: true });
    m.texts[m.one] = write(m.docs[m.one]);
    Object.assign(m.res, { field: pathText([...where, name]) || name || null, what: `${pathText([...where, name]) || '(empty name)'} added` });
  },
  duplicate: (m) => {
    if (m.rng.chance(0.5) || m.docs.length === 1) m.order.splice(m.rng.int(0, m.order.length), 0, m.one);
    else { const other = (m.one + 1) % m.docs.length; m.texts[other] = m.texts[m.one]; m.res.mutated = other; }
    Object.assign(m.res, { field: 'shard', what: `shard ${m.one} given twice` });
  },
  missing: (m) => {
    if (m.docs.length === 1) m.order = []; else m.order.splice(m.order.indexOf(m.one), 1);
    Object.assign(m.res, { field: m.docs.length === 1 ? null : 'shard', mutated: null, what: `shard ${m.one} left out` });
  },
  mix: (m) => {
    const o = m.rng.pick(m.corpus.configs.filter((x) => x !== m.c));
    m.texts[m.one] = o.parts[Math.min(m.one, o.n - 1)];
    Object.assign(m.res, { field: null, what: `part ${m.one} taken from frontier ${o.index}` });
    if (m.c.n === 1) m.res.mutated = null;
  },
  results: (m) => {
    const r = m.docs[m.one].results;
    const choice = m.rng.int(0, 4);
    m.docs[m.one].results = [Array.from({ length: 50000 }, () => r[0]), [...r, r[0]], r.slice(1), [...r].reverse(), r.map((x) => [x])][choice];
    const same = choice === 3 && r.length < 2;
    m.texts[m.one] = write(m.docs[m.one]);
    Object.assign(m.res, { expect: same ? 'same' : 'refuse', field: same ? null : 'results', what: `results: variant ${choice}` });
  },
  bytes: (m) => {
    const b = Buffer.from(m.texts[m.one]);
    const at = m.rng.int(0, b.length);
    const op = m.rng.int(0, 3);
    m.texts[m.one] = op === 0 ? b.subarray(0, at) : op === 1 ? Buffer.concat([b.subarray(0, at), Buffer.from(m.rng.pick([[0], [0xff], [0x7b], [0x22], [0x1b, 0x5b]])), b.subarray(at)])
      : op === 2 ? Buffer.concat([b, b]) : Buffer.alloc(0);
    Object.assign(m.res, { expect: 'same', what: `bytes damaged (op ${op} at ${at})` });
  },
  'not-a-part': (m) => { m.texts[m.one] = m.c.refs.json; Object.assign(m.res, { what: `part ${m.one} replaced by the unsharded output` }); },
};

/**
 * A frontier-merge case: { args, expect, field, file, ref, what }; the parts are written into dir.
 * Pure in rng (the corpus is the CLI's deterministic output).
 */
export function frontierMergeCase(rng, dir, cli) {
  const corpus = frontierCorpus(cli);
  const c = rng.pick(corpus.configs);
  const m = { rng, corpus, c, docs: c.docs.map(clone), texts: [...c.parts], order: c.docs.map((_, i) => i), one: rng.int(0, c.n - 1) };
  const kind = rng.weighted([[3, 'untouched'], [3, 'layout'], [30, 'value'], [6, 'remove'], [5, 'add'], [3, 'duplicate'], [2, 'missing'], [3, 'mix'], [3, 'results'], [3, 'bytes'], [1, 'not-a-part']]);
  m.res = { expect: 'refuse', field: null, mutated: m.one, what: kind };
  MUTATIONS[kind](m);
  const files = m.texts.map((t, i) => { const f = join(dir, `part${i}.json`); writeFileSync(f, t); return f; });
  const out = rng.chance(0.7) ? 'json' : 'csv';
  return {
    args: ['merge', ...m.order.map((i) => files[i]), ...OUTPUTS[out]], expect: m.res.expect, field: m.res.field,
    what: `frontier ${c.index} (${c.n} shards): ${m.res.what}`, file: m.res.mutated === null ? null : files[m.res.mutated], ref: c.refs[out],
  };
}
