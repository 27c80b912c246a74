// attnx CLI fuzzer: the frontier surface (`attnx frontier`, SPEC 10.2) and opt's budget. A small
// valid frontier (L <= 32, trials <= 2) gets hostile values in some of its flags: --scales and
// --boxes lists unsorted, repeated, empty, huge, negative, NaN, too long; --constructions with
// unknown or repeated names; --shard in bad forms or past the task count; --format, --trials,
// --threads, --L, the budget; unknown flags (other commands' --scale, --d, --box). Each case keeps
// the flags it made hostile: a refusal must name one of them (a valid vector must not be refused),
// and a success must be what was asked (checkFrontier): the JSON's params as given, the
// constructions drawn, a part file for --shard, CSV rows of one width, and no flag that nothing
// used (--boxes without lp).
import { INT_HOSTILE, UNKNOWN_FLAGS } from './values.mjs';
import { BUDGETS } from './args.mjs';

const NAMES = ['jl', 'lp', 'moment', 'opt'];
const VALID = {
  L: ['2', '3', '8', '16', '24', '32'], trials: ['1', '2'], seed: ['0', '1', '7'], threads: ['0', '1', '2'],
  scales: ['4', '4,8', '1.2,5.3,64', '2,1e6', '5.3', '1.1513'], boxes: ['1', '1,10', '0.5,3,1000', '1e9', '0.001'],
  constructions: ['jl', 'lp', 'moment', 'opt', 'opt,jl', 'lp,opt', 'jl,lp,moment,opt', 'moment,lp'],
  eps: ['1', '0.5'], tau: ['0.1', '0.5'], delta: ['0.1', '0.5'], format: ['json', 'csv'], 'max-bytes': BUDGETS.slice(1),
};
const many = (n) => Array.from({ length: n }, (_, i) => String(2 + i)).join(',');
const LIST_HOSTILE = ['8,4', '4,4', '4,8,8', '', ',', '4,', ',4', '4,,8', '-1', '0', '0,4', 'NaN', '4,NaN', 'inf', '4,inf', '1e300',
  '1e7', '1e10', '1000001', '1.1512', '1.15', '1', 'x', '4;8', ' 4', '4 ,8', '0x10', '4.0.0', many(65), many(1000), '\x1b[1m4'];
const CONSTRUCTIONS_HOSTILE = ['xx', 'jl,xx', 'jl,jl', '', ',', 'JL', 'jl,', ',jl', ' jl', 'opt,opt,opt', 'custom', '__proto__',
  'jl;lp', 'jl lp', 'x'.repeat(5000), 'jl,lp,moment,opt,jl', 'toString'];
const SHARD_HOSTILE = ['2/2', '0/0', '1', '-1/2', '1/-2', '0/1000000', '1/2/3', '0x1/2', ' 0/2', '0/2 ', 'a/b', '/', '0/', '/2',
  '1.0/2', '0/99999999999999999999', '', '+0/2', '0/+2', '1/1', '9007199254740993/9007199254740994'];
const FORMAT_HOSTILE = ['text', 'CSV', '', 'json ', 'yaml', 'csv,json', 'part'];
const FOREIGN = ['--scale', '--d', '--box', '--construction', '--shards', '--Ls', '--dmax', '--step', '--projection', '--precision'];

// A hostile value for flag f; for the integers, never a valid size above the case's small ones.
function hostile(rng, f) {
  if (f === 'scales' || f === 'boxes') return rng.pick(LIST_HOSTILE);
  if (f === 'constructions') return rng.pick(CONSTRUCTIONS_HOSTILE);
  if (f === 'shard') return rng.pick(SHARD_HOSTILE);
  if (f === 'format') return rng.pick(FORMAT_HOSTILE);
  if (f === 'max-bytes') return rng.pick(['0', '1', '1048575', '1125899906842625', 'x', '-1', '1e9']);
  for (;;) {
    const v = rng.pick(INT_HOSTILE);
    const big = typeof v === 'string' && /^\d+$/.test(v) && Number(v) > (f === 'threads' ? 1024 : 32) && Number(v) <= 16384;
    if (!big && !(f === 'trials' && typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 2 && Number(v) <= 1000)) return v;
  }
}

// The tasks of a frontier (the shard count's limit): one per trial and setting of each construction.
function taskCount(pairs) {
  const get = (f, d) => pairs.get(f) ?? d;
  const n = (s) => String(s).split(',').length;
  const per = { jl: 1, moment: 1, lp: n(get('boxes', '1,3,10,30,100,1000')), opt: n(get('scales', '4,5.3,8,16,64')) };
  return String(get('constructions', NAMES.join(','))).split(',').reduce((s, c) => s + per[c], 0) * Number(get('trials', '10'));
}

// A valid frontier's flags as a Map (flag -> value; null for a switch).
function validFrontier(rng) {
  const m = new Map([['L', rng.pick(VALID.L)], ['trials', rng.pick(VALID.trials)]]);
  const L = Number(m.get('L'));
  const pattern = rng.pick(['random', 'window', 'block', null]);
  if (pattern) m.set('pattern', pattern);
  if ((pattern ?? 'random') === 'random' && rng.chance(0.5)) m.set('k', String(rng.int(1, Math.min(3, L))));
  if (pattern === 'window' && rng.chance(0.5)) m.set('w', String(rng.int(0, Math.min(2, L - 1))));
  if (pattern === 'block') m.set('block', String(rng.int(1, Math.min(4, L))));  // its default 4 is above L = 2, 3
  for (const f of ['scales', 'constructions', 'seed', 'threads', 'eps', 'tau', 'delta', 'format', 'max-bytes'])
    if (rng.chance(0.4)) m.set(f, rng.pick(VALID[f]));
  const cs = String(m.get('constructions') ?? NAMES.join(','));
  if (cs.includes('lp') ? rng.chance(0.4) : rng.chance(0.08)) m.set('boxes', rng.pick(VALID.boxes));  // without lp: refused
  if (m.get('format') !== 'csv' && rng.chance(0.3)) {
    const n = rng.int(1, Math.min(4, taskCount(m)));
    m.set('shard', `${rng.int(0, n - 1)}/${n}`);
  }
  if (rng.chance(0.1)) m.set('progress', null);
  return m;
}

/**
 * One `attnx frontier` case: { args, hostile: [flag names a refusal may name], given: Map of the
 * flags as given }. Pure in rng; every vector is small (L <= 32, trials <= 2 unless hostile).
 */
export function genFrontierArgs(rng) {
  const m = validFrontier(rng);
  const bad = [];
  const lpLess = m.has('boxes') && !String(m.get('constructions') ?? 'lp').split(',').includes('lp');
  if (lpLess) bad.push('boxes', 'constructions');
  for (let n = rng.weighted([[2, 0], [5, 1], [2, 2]]); n > 0; n--) {
    const f = rng.pick(['scales', 'scales', 'boxes', 'boxes', 'constructions', 'constructions', 'shard', 'shard', 'format', 'trials', 'threads', 'L', 'max-bytes', 'unknown', 'repeat']);
    if (f === 'unknown') { bad.push('unknown'); m.set(rng.pick([...FOREIGN, ...UNKNOWN_FLAGS.filter((u) => typeof u === 'string')]), '1'); continue; }
    if (f === 'repeat') { bad.push('repeat'); continue; }
    m.set(f, hostile(rng, f));
    bad.push(f, ...(f === 'constructions' ? ['boxes', 'shard'] : f === 'scales' || f === 'boxes' || f === 'trials' ? ['shard'] : f === 'L' ? ['k', 'w', 'block'] : f === 'format' ? ['shard'] : []));
  }
  const args = ['frontier'];
  for (const [f, v] of m) args.push(...(f.startsWith('--') ? [f, v] : v === null ? [`--${f}`] : [`--${f}`, v]));
  if (bad.includes('repeat')) args.push('--trials', rng.pick(['1', '2']));
  return { args, hostile: bad, given: m };
}

const sameList = (text, list) => Array.isArray(list) && String(text).split(',').map(Number).join(',') === list.map(Number).join(',');

// Why a successful frontier's JSON is not what its flags asked for, or null.
function paramsMismatch(doc, given) {
  const p = doc.shard ? doc.options : doc.params;
  if (!p) return 'no params/options in the output';
  if (given.has('L') && p.L !== Number(given.get('L'))) return `L ${given.get('L')} given, ${p.L} in the output`;
  if (given.has('trials') && p.trials !== Number(given.get('trials'))) return `trials ${given.get('trials')} given, ${p.trials} in the output`;
  if (given.has('scales') && !sameList(given.get('scales'), p.scales)) return `scales ${given.get('scales')} given, ${JSON.stringify(p.scales)} in the output`;
  if (given.has('boxes') && !sameList(given.get('boxes'), p.boxes)) return `boxes ${given.get('boxes')} given, ${JSON.stringify(p.boxes)} in the output`;
  const cs = String(given.get('constructions') ?? NAMES.join(',')).split(',');
  if (JSON.stringify(p.constructions) !== JSON.stringify(NAMES.filter((n) => cs.includes(n)))) return `constructions ${cs} asked, ${JSON.stringify(p.constructions)} in the output`;
  return null;
}

/**
 * [outcome, reason?] of a frontier case that run.mjs's classifier found ok or refused (case c of
 * genFrontierArgs, run r): refusals must name a hostile flag, successes must match their flags.
 */
export function checkFrontier(c, r, generic) {
  const [outcome] = generic;
  const err = r.err.toString('utf8');
  if (outcome === 'refused') {
    if (!c.hostile.length) return ['BAD', `a valid frontier was refused: ${err.trim().slice(0, 200)}`];
    const named = c.hostile.some((f) => f === 'unknown' || f === 'repeat' || err.includes(f));
    return named ? ['refused'] : ['BAD', `the refusal names none of ${c.hostile.join(', ')}: ${err.trim().slice(0, 200)}`];
  }
  if (c.given.has('boxes') && !String(c.given.get('constructions') ?? 'lp').split(',').includes('lp')) return ['BAD', '--boxes accepted without lp (nothing uses it)'];
  if (c.given.get('format') === 'csv') {
    const rows = r.out.toString('utf8').trim().split('\n');
    const width = rows[0].split(',').length;
    return rows.every((l) => l.split(',').length === width) ? ['ok'] : ['BAD', 'CSV rows of different widths'];
  }
  const doc = JSON.parse(r.out.toString('utf8'));
  if (c.given.has('shard') && doc.format !== 'attnx-frontier-part/1') return ['BAD', `--shard printed no part file (format ${JSON.stringify(doc.format)})`];
  if (!c.given.has('shard') && doc.command !== 'frontier') return ['BAD', 'no "command": "frontier" in the output'];
  const why = paramsMismatch(doc, c.given);
  return why ? ['BAD', `accepted but not used: ${why}`] : ['ok'];
}

/**
 * [outcome, reason?] of an args case run with --construction opt (checked by run.mjs first): a
 * success must carry the --scale it was given in its params (nothing accepted and then ignored).
 */
export function checkOptScale(args, r, generic) {
  const strs = args.filter((a) => typeof a === 'string');
  const i = strs.lastIndexOf('--scale');
  const eq = strs.filter((a) => a.startsWith('--scale=')).pop();
  const text = eq ? eq.slice(8) : i >= 0 ? strs[i + 1] : null;
  if (generic[0] !== 'ok' || r.status !== 0 || text === null || strs.includes('--help') || strs.includes('-h')) return generic;
  let doc;
  try { doc = JSON.parse(r.out.toString('utf8')); } catch { return generic; }
  const got = doc?.params?.scale;
  return got === Number(text) ? generic : ['BAD', `--scale ${text} accepted, params.scale ${JSON.stringify(got)}`];
}
