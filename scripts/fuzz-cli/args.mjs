// attnx CLI fuzzer: argument vectors. A valid-ish vector for a command (flags with boundary
// values that fit each other) is mutated: hostile values, unknown, repeated, foreign and
// value-less flags, --flag=value forms, stray words, --help. Every vector carries a memory
// budget of at most 64 MiB, and valid work is capped (capWork) so that a legitimate run never
// needs the per-case time limit: a timeout is then always a hang. construct, mind and sweep also
// get a construction (jl, lp, moment, opt) with its own flags (--projection for jl, --box and
// --threads for lp, --scale for opt, --threads for sweep, --precision), and sometimes a flag of
// another construction, which must be refused; lp, moment and opt runs are capped by their own
// cost models (constructionWork). opt's --scale takes its boundaries (0, negative, NaN, inf, above
// 1e6, just below and above ln(1/tau)/2 = 1.1513 at tau 0.1, text) and its d/dmax the values
// around its limit 128.
import { INT_HOSTILE, REAL_HOSTILE, CHOICE_HOSTILE, LIST_HOSTILE, UNKNOWN_FLAGS, STRAY } from './values.mjs';

export const BUDGETS = ['1048576', '16777216', '67108864'];
const MAX_BUDGET = 67108864;
const FAMILIES = ['random', 'permutation', 'window', 'causal', 'dilated', 'block', 'strided', 'bigbird'];
const FAMILY_PARAMS = {
  random: ['k'], permutation: [], window: ['w'], causal: ['w'], dilated: ['w', 'r'],
  block: ['block'], strided: ['stride'], bigbird: ['w', 'globals', 'randoms'],
};
const PATTERN_FLAGS = ['k', 'w', 'r', 'block', 'stride', 'globals', 'randoms', 'weights', 'w-min', 'decay'];
const TOL_FLAGS = ['eps', 'tau', 'delta'];
const CONSTRUCTION_FLAGS = ['construction', 'projection', 'box', 'scale', 'threads'];
export const COMMAND_FLAGS = {
  construct: ['pattern', 'L', ...PATTERN_FLAGS, 'pattern-file', ...TOL_FLAGS, 'd', ...CONSTRUCTION_FLAGS, 'precision', 'export', 'seed', 'max-bytes', 'format'],
  mind: ['pattern', 'L', ...PATTERN_FLAGS, 'pattern-file', ...TOL_FLAGS, 'step', 'dmax', ...CONSTRUCTION_FLAGS, 'precision', 'seed', 'max-bytes', 'progress', 'format'],
  sweep: ['pattern', ...PATTERN_FLAGS, ...TOL_FLAGS, 'step', 'dmax', 'Ls', 'trials', ...CONSTRUCTION_FLAGS, 'seed', 'max-bytes', 'progress', 'format'],
  bench: ['Ls', 'trials', 'gemm-reps', 'seed', 'max-bytes', 'format'],
};
const FORMATS = { construct: ['json'], mind: ['json'], sweep: ['json', 'csv'], bench: ['json', 'csv', 'text'] };
const KIND = {
  pattern: 'choice', weights: 'choice', format: 'choice', Ls: 'list', 'pattern-file': 'text', export: 'text',
  'w-min': 'real', decay: 'real', eps: 'real', tau: 'real', delta: 'real', progress: 'switch',
  construction: 'choice', projection: 'choice', box: 'real', scale: 'real', precision: 'switch',
};
const kindOf = (flag) => KIND[flag] ?? 'int';

const VALID = {
  L: ['2', '3', '7', '16', '64', '100', '256', '1000', '2048', '8192', '16384'],
  weights: ['uniform', 'random', 'decaying'],
  'w-min': ['0.1', '1', '0.5', '1e-9', '1e-300', '5e-324'],
  decay: ['0', '1', '10', '0.5', '9.999', '1e-300'],
  eps: ['1', '100', '2.5', '0.001', '1e-9', '5e-324', '1e38', '99.99'],
  tau: ['0.1', '0.5', '0.999999', '1e-9', '1e-300', '5e-324'],
  delta: ['0.1', '0.5', '0.999999', '1e-9', '1e-300', '1e-320', '5e-324'],
  d: ['1', '2', '16', '64', '512', '4096', '16384'],
  step: ['1', '2', '16', '64', '256'],
  dmax: ['1', '16', '64', '512', '4096', '16384'],
  Ls: ['2', '16,32', '64,128', '2,3,4', '256', '1000,2048', '8192', '16384', '2,16384'],
  trials: ['1', '2', '3', '1000'],
  'gemm-reps': ['1', '2', '1000'],
  seed: ['0', '1', '7', '9007199254740991', '123456789'],
  construction: ['jl', 'lp', 'moment', 'opt'],
  projection: ['gaussian', 'rademacher', 'gaussian-unit', 'orthogonal', 'orthogonal-unit'],
  box: ['1000', '1', '1e9', '0.001', '1e-300', '5e-324', '999999999.9'],
  threads: ['0', '1', '2', '3', '1024'],
  // opt's budget: valid, its edges, and the (Z) floor ln(1/tau)/2 = 1.15129 at tau 0.1 from both sides.
  scale: ['5.3', '4', '64', '1e6', '1.1513', '1.1512', '1.15129', '1.2', '0', '-1', 'NaN', 'inf', '1e7', '1000001', 'x', '5.3x'],
};
// lp's own ranges: d and dmax at most 256 (kMaxLpD), L kept small (its LPs are expensive).
const LP_VALID = { L: ['2', '3', '7', '16', '32', '64'], d: ['1', '2', '16', '32', '64', '128', '256'], dmax: ['1', '16', '64', '256'], Ls: ['2', '16,32', '16,32,64', '2,3,4', '64'] };
// opt's: d and dmax at most 128 (129 and 256 must be refused), L small (its search costs L^2 D a step).
const OPT_VALID = { L: ['2', '3', '16', '32', '64', '128'], d: ['1', '2', '16', '64', '128', '129', '256'], dmax: ['1', '16', '64', '128', '129'], Ls: ['2', '16,32', '2,3,4', '64'] };
const VALID_OF = { lp: LP_VALID, opt: OPT_VALID };
// The flags each construction takes (a flag of another one must be refused).
const OWN_FLAGS = { jl: ['projection', 'precision'], lp: ['box', 'threads'], moment: [], opt: ['scale'] };

// A family parameter that fits length L (boundaries included).
function familyValue(rng, flag, L) {
  const hi = flag === 'w' || flag === 'r' || flag === 'randoms' ? L - 1 : L;
  const lo = flag === 'w' || flag === 'globals' || flag === 'randoms' ? 0 : 1;
  return String(Math.max(lo, rng.pick([lo, lo + 1, 2, 3, hi, hi - 1, Math.floor(L / 2)])));
}

// A valid-ish vector for `command` (list of [flag, value] pairs; value null for a switch).
function baseFlags(rng, command, ctx) {
  const own = COMMAND_FLAGS[command];
  const construction = own.includes('construction') ? rng.weighted([[4, null], [3, 'jl'], [3, 'lp'], [2, 'moment'], [3, 'opt']]) : null;
  const pairs = construction ? constructionPairs(rng, command, construction) : [];
  const valid = (f) => VALID_OF[construction]?.[f] ?? VALID[f];
  const L = Number(rng.pick(valid('L')));
  if (own.includes('pattern')) {
    const fam = rng.pick(FAMILIES);
    if (rng.chance(0.8)) pairs.push(['pattern', fam]);
    for (const p of FAMILY_PARAMS[rng.chance(0.8) ? fam : 'random'])
      if (rng.chance(0.6)) pairs.push([p, familyValue(rng, p, command === 'sweep' ? 2 : L)]);
    if (own.includes('L') && rng.chance(0.8)) pairs.push(['L', String(L)]);
  }
  const weights = own.includes('weights') && rng.chance(0.5) ? rng.pick(VALID.weights) : 'uniform';
  if (weights !== 'uniform' || rng.chance(0.2)) pairs.push(['weights', weights]);
  if (weights === 'random' && rng.chance(0.6)) pairs.push(['w-min', rng.pick(VALID['w-min'])]);
  if (weights === 'decaying' && rng.chance(0.6)) pairs.push(['decay', rng.pick(VALID.decay)]);
  const skip = ['pattern', 'L', 'k', 'w', 'r', 'block', 'stride', 'globals', 'randoms', 'max-bytes',
    'weights', 'w-min', 'decay', 'pattern-file', ...CONSTRUCTION_FLAGS, 'precision'];
  for (const f of own) {
    if (skip.includes(f) || !rng.chance(0.3)) continue;
    if (construction === 'moment' && ['d', 'step', 'dmax'].includes(f) && rng.chance(0.9)) continue;  // D = 2m
    if (f === 'format') pairs.push([f, rng.pick(FORMATS[command])]);
    else if (f === 'progress') pairs.push([f, null]);
    else if (f === 'export') pairs.push([f, ctx.exportPath(rng)]);
    else pairs.push([f, rng.pick(valid(f))]);
  }
  pairs.push(['max-bytes', rng.pick(BUDGETS)]);
  return rng.shuffle(pairs);
}

// --construction NAME (sometimes left out for jl, the default) with some of its own flags, and
// sometimes a flag that only another construction takes.
function constructionPairs(rng, command, construction) {
  const pairs = construction !== 'jl' || rng.chance(0.6) ? [['construction', construction]] : [];
  const own = OWN_FLAGS[construction];
  for (const f of own)
    if (rng.chance(f === 'scale' ? 0.7 : 0.45) && !(f === 'threads' && command === 'sweep')) pairs.push(f === 'precision' ? [f, null] : [f, rng.pick(VALID[f])]);
  if (command === 'sweep' && rng.chance(0.4)) pairs.push(['threads', rng.pick(VALID.threads)]);
  if (command !== 'sweep' && construction !== 'jl' && rng.chance(0.2)) pairs.push(['precision', null]);
  if (rng.chance(0.12)) {
    const foreign = ['projection', 'box', 'scale', 'threads'].filter((f) => !own.includes(f) && (command !== 'sweep' || f !== 'threads'));
    const f = rng.pick(foreign);
    if (f) pairs.push([f, rng.pick(VALID[f])]);
  }
  return pairs.filter(([f]) => COMMAND_FLAGS[command].includes(f));
}

// A hostile value for a flag of kind k (never a valid budget above the fuzzer's cap).
function hostileValue(rng, flag) {
  const pool = { int: INT_HOSTILE, real: REAL_HOSTILE, choice: CHOICE_HOSTILE, list: LIST_HOSTILE,
    text: ['', ' ', '-', '--L', '\x1b[31m', 'x'.repeat(5000)], switch: [''] }[kindOf(flag)];
  for (;;) {
    const v = rng.pick(pool);
    if (flag !== 'max-bytes' || typeof v !== 'string' || !/^\+?\d+$/.test(v)) return v;
    if (Number(v) <= MAX_BUDGET || Number(v) > 1125899906842624) return v;
  }
}

const MUTATIONS = [
  [6, 'hostile'], [2, 'unknown'], [2, 'repeat'], [1, 'novalue'], [2, 'eqform'], [1, 'stray'],
  [1, 'foreign'], [0.3, 'help'], [1, 'drop'], [0.5, 'custom'],
];

function mutate(rng, command, pairs, extra) {
  const m = rng.weighted(MUTATIONS);
  const at = pairs.length ? rng.int(0, pairs.length - 1) : 0;
  if (m === 'hostile' && pairs.length) pairs[at] = [pairs[at][0], hostileValue(rng, pairs[at][0])];
  else if (m === 'unknown') extra.push(rng.pick(UNKNOWN_FLAGS), ...(rng.chance(0.5) ? ['1'] : []));
  else if (m === 'repeat' && pairs.length) pairs.push([...pairs[at]]);
  else if (m === 'novalue') extra.push(`--${rng.pick(COMMAND_FLAGS[command])}`);
  else if (m === 'eqform' && pairs.length) pairs[at] = [pairs[at][0], pairs[at][1], 'eq'];
  else if (m === 'stray') extra.push(rng.pick(STRAY));
  else if (m === 'foreign') {
    const other = rng.pick(Object.keys(COMMAND_FLAGS).filter((c) => c !== command));
    const f = rng.pick(COMMAND_FLAGS[other]);
    pairs.push([f, kindOf(f) === 'switch' ? null : rng.pick(VALID[f] ?? ['1'])]);
  } else if (m === 'help') extra.push(rng.pick(['--help', '-h']));
  else if (m === 'drop' && pairs.length) pairs.splice(at, 1);
  else if (m === 'custom' && COMMAND_FLAGS[command].includes('pattern')) pairs.push(['pattern', 'custom']);
}

function flatten(pairs) {
  const out = [];
  for (const [f, v, form] of pairs) {
    if (v === null) out.push(`--${f}`);
    else if (form === 'eq') out.push(typeof v === 'string' ? `--${f}=${v}` : Buffer.concat([Buffer.from(`--${f}=`), v]));
    else out.push(`--${f}`, v);
  }
  return out;
}

// The vector's value of --flag (last one given), as a string; def when absent.
function valueOf(args, flag, def) {
  let v = def;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a !== 'string') continue;
    if (a === `--${flag}` && typeof args[i + 1] === 'string') v = args[i + 1];
    else if (a.startsWith(`--${flag}=`)) v = a.slice(flag.length + 3);
  }
  return v;
}

// Multiply-adds the run would do if every value were accepted (Gram work dominates); 0 when the
// memory budget surely refuses it (a lower bound of the core's estimate is above --max-bytes).
export function estimateWork(command, args) {
  const num = (f, d) => Number(valueOf(args, f, d));
  const list = (d) => String(valueOf(args, 'Ls', d)).split(',').map(Number);
  const sq = (Ls) => Ls.reduce((s, L) => s + (Number.isFinite(L) ? L * L : 0), 0);
  const maxL = (d) => Math.max(...list(d).filter(Number.isFinite), 0);
  const memory = {
    construct: 8 * num('L', '256') ** 2 + 12 * num('L', '256') * num('d', '512'),
    mind: 4 * num('L', '256') ** 2,
    sweep: 4 * maxL('64,128,256,512') ** 2,
    bench: 4 * maxL('256,1024,2048') ** 2,
  }[command];
  const construction = valueOf(args, 'construction', 'jl');
  if (['lp', 'moment', 'opt'].includes(construction)) return constructionWork(command, args, construction);
  // bench does not hold itself to --max-bytes (its GEMM timing at L = 1024 takes 16 MB under a
  // 1 MiB budget; issue 47 notes it): its work is capped whatever the budget.
  if (command !== 'bench' && memory > num('max-bytes', '8589934592')) return 0;
  if (command === 'construct') return num('L', '256') ** 2 * num('d', '512');
  if (command === 'mind') return (num('L', '256') ** 2 * num('dmax', '4096')) / 2;
  if (command === 'sweep') return (num('trials', '10') * sq(list('64,128,256,512')) * num('dmax', '4096')) / 2;
  if (command === 'bench') return num('trials', '3') * sq(list('256,1024,2048')) * 4096 * 2 + num('gemm-reps', '5') * sq(list('256,1024,2048')) * 4096;
  return 0;
}

// The largest row support m of the vector's pattern at length L (an upper bound; L when unknown).
function rowSupport(args, L) {
  const num = (f, d) => Number(valueOf(args, f, d));
  const w = num('w', '1');
  const m = {
    random: num('k', '2'), permutation: 1, window: 2 * w + 1, causal: w + 1, dilated: 2 * w + 1,
    block: num('block', '4'), strided: num('stride', '8') + Math.ceil(L / num('stride', '8')),
    bigbird: num('globals', '1') > 0 ? L : 2 * w + 1 + num('randoms', '1'),
  }[valueOf(args, 'pattern', 'random')];
  return Number.isFinite(m) ? Math.min(L, Math.max(1, m)) : L;
}

// lp, moment and opt in units of jl's multiply-adds (their time, measured on this core): lp's LPs
// grow with L d^2 (d at most 256; L above 64 is never run here), moment's exact sums with
// L^2 m^2. A value the CLI refuses (d above 256, mind with moment) costs nothing.
function constructionWork(command, args, construction) {
  const num = (f, d) => Number(valueOf(args, f, d));
  const Ls = command === 'sweep' ? String(valueOf(args, 'Ls', '64,128,256,512')).split(',').map(Number) : [num('L', '256')];
  const trials = command === 'sweep' ? num('trials', '10') : 1;
  if (Ls.some((L) => !Number.isFinite(L)) || !Number.isFinite(trials)) return 0;
  // opt: measured 0.3 s at L = 256, D = 128 and 11 s at L = 1000; sweeps only up to L = 64, 3 trials.
  if (construction === 'opt') return Math.max(...Ls) > (command === 'sweep' ? 64 : 256) || trials > 3 ? Infinity : 1;
  if (construction === 'moment') {
    if (command === 'mind') return 0;
    return 10 * trials * Ls.reduce((s, L) => s + L * L * (rowSupport(args, L) ** 2 + 16), 0);
  }
  if (Math.max(...Ls) > 64) return Infinity;
  const d = Math.min(256, num(command === 'construct' ? 'd' : 'dmax', command === 'construct' ? '32' : '256'));
  const perL = { construct: 5e3, mind: 1e3, sweep: 3e2 }[command];
  return trials * Ls.reduce((s, L) => s + L * d * d * perL, 0);
}

export const WORK_CAP = 1e10;

// Lowers the heaviest values until the run's work is under WORK_CAP.
export function capWork(command, args) {
  const set = (flag, value) => {
    for (let i = 0; i < args.length; i++) {
      if (args[i] === `--${flag}` && typeof args[i + 1] === 'string') args[i + 1] = value;
      else if (typeof args[i] === 'string' && args[i].startsWith(`--${flag}=`)) args[i] = `--${flag}=${value}`;
    }
    if (valueOf(args, flag, null) === null) args.push(`--${flag}`, value);
  };
  const steps = {
    construct: [['d', '512'], ['L', '1000']],
    mind: [['dmax', '512'], ['L', '1000']],
    sweep: [['trials', '2'], ['Ls', '16,32'], ['dmax', '512']],
    bench: [['trials', '1'], ['gemm-reps', '1'], ['Ls', '16,32']],
  }[command] ?? [];
  const construction = valueOf(args, 'construction', 'jl');
  if (construction === 'lp') steps.unshift(...(command === 'sweep' ? [['Ls', '16,32'], ['trials', '2']] : [['L', '64'], [command === 'construct' ? 'd' : 'dmax', '64']]));
  if (construction === 'opt') steps.unshift(...(command === 'sweep' ? [['Ls', '16,32'], ['trials', '2']] : [['L', '64']]));
  if (construction === 'moment') steps.unshift(...(command === 'sweep' ? [['trials', '2'], ['Ls', '16,32']] : [['L', '100']]));
  for (const [flag, value] of steps) {
    if (!(estimateWork(command, args) > WORK_CAP)) return args;
    set(flag, value);
  }
  return args;
}

// One argument vector: command first (sometimes a hostile one), then flags.
export function genArgs(rng, ctx) {
  const command = rng.weighted([[30, 'construct'], [25, 'mind'], [20, 'sweep'], [6, 'bench'], [3, 'other']]);
  if (command === 'other') {
    return { command, args: [rng.pick(['', 'help', 'version', '--version', '-V', '--help', 'Construct',
      'constructx', '--L', 'help', 'x\x1b[2J', Buffer.from([0xff, 0xfe])]), ...(rng.chance(0.5) ? [rng.pick(['construct', 'nope', '--x'])] : [])] };
  }
  const pairs = baseFlags(rng, command, ctx);
  const extra = [];
  const n = rng.weighted([[3, 0], [4, 1], [2, 2], [1, 4]]);
  for (let i = 0; i < n; i++) mutate(rng, command, pairs, extra);
  const args = [...flatten(pairs)];
  for (const e of extra) args.splice(rng.int(0, args.length), 0, e);
  return { command, args: [command, ...capWork(command, args)] };
}
