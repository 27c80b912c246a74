// attnx lab: the sweep settings as a state table for web/common/hashstate.js (DOM-free), the paper
// preset, and the mapping from settings to worker options and to the CLI's JSON params.
import { parseHash, toHash, parseField, defaults } from '../common/hashstate.js';
import { familyParams } from './io.js';

export const MAX_L = 4096;        // the page's limit (larger runs: use the CLI and import)
export const MAX_POINTS = 64;
export const MAX_D = 16384;
export const SEED_MAX = 9007199254740991;
export const BROWSER_MAX_BYTES = 2147483648;

// Families and their integer parameters when the API's description is not available (the same
// as core/pattern.cpp). Replaced by pool.run('patterns') at start-up.
export const FALLBACK_INFO = {
  families: [
    { name: 'random', label: 'Random k-regular', scalesWithL: true, inClass: true, params: [{ name: 'k', label: 'nonzeros per row and column', min: 1, max: 'L', default: 2 }] },
    { name: 'permutation', label: 'Permutation (k = 1)', scalesWithL: true, inClass: true, params: [] },
    { name: 'window', label: 'Sliding window |i-j| <= w', scalesWithL: true, inClass: true, params: [{ name: 'w', label: 'half-width', min: 0, max: 'L-1', default: 1 }] },
    { name: 'causal', label: 'Causal window i-w <= j <= i', scalesWithL: true, inClass: true, params: [{ name: 'w', label: 'look-back', min: 0, max: 'L-1', default: 2 }] },
    { name: 'dilated', label: 'Dilated window j = i + r t', scalesWithL: true, inClass: true, params: [{ name: 'w', label: 'half-width (taps)', min: 0, max: 'L-1', default: 1 }, { name: 'r', label: 'dilation', min: 1, max: 'L-1', default: 2 }] },
    { name: 'block', label: 'Block diagonal', scalesWithL: true, inClass: true, params: [{ name: 'block', label: 'block size', min: 1, max: 'L', default: 4 }] },
    { name: 'strided', label: 'Strided (Sparse Transformer)', scalesWithL: true, inClass: false, params: [{ name: 'stride', label: 'stride', min: 1, max: 'L', default: 8 }] },
    { name: 'bigbird', label: 'BigBird-like', scalesWithL: true, inClass: false, params: [{ name: 'w', label: 'window half-width', min: 0, max: 'L-1', default: 1 }, { name: 'globals', label: 'global tokens', min: 0, max: 'L', default: 1 }, { name: 'randoms', label: 'random links per row', min: 0, max: 'L-1', default: 1 }] },
  ],
  weights: ['uniform', 'random', 'decaying'],
};

export const DEFAULT_LS = '16,32,64,128,256,512,1024';

// SPEC §5 paper preset.
export const PAPER = {
  Ls: '64,128,256,512', pattern: 'random', k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1,
  trials: 10, step: 16, dmax: 4096, seed: 1,
};
// What the paper reports for it.
export const PAPER_BAND = { lo: 300, hi: 1000, text: 'd of 300–1000 suffices for k = 2, L in the hundreds' };

// Parses the L grid: comma-separated ascending integers. Returns { value: [L...] } or { error }.
export function parseLs(raw, maxL = MAX_L) {
  const s = String(raw ?? '').trim();
  const bad = (why) => ({ error: `Ls must be comma-separated ascending integers from 2 to ${maxL}, at most ${MAX_POINTS} of them (${why}; got "${s.slice(0, 40)}")` });
  if (!s) return bad('empty');
  const parts = s.split(/\s*,\s*|\s+/).filter((x) => x !== '');
  if (parts.length > MAX_POINTS) return bad(`${parts.length} lengths`);
  const out = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p)) return bad(`"${p.slice(0, 12)}" is not an integer`);
    const v = Number(p);
    if (v < 2 || v > maxL) return bad(`${v} is out of range`);
    if (out.length && v <= out[out.length - 1]) return bad(`${v} does not come after ${out[out.length - 1]}`);
    out.push(v);
  }
  return { value: out };
}

// Smallest L of a grid string (ranges of family parameters must hold for every L of the sweep).
export function minL(ls) {
  const r = parseLs(ls);
  return r.value ? r.value[0] : 16;
}

function evalMax(expr, L) {
  if (expr === 'L') return L;
  if (expr === 'L-1') return L - 1;
  const n = Number(expr);
  return Number.isFinite(n) ? n : L;
}

export function scalingFamilies(info) {
  return info.families.filter((f) => f.scalesWithL && f.name !== 'custom');
}
export function familyOf(info, name) {
  return scalingFamilies(info).find((f) => f.name === name) || scalingFamilies(info)[0];
}

// The state table: view flags, then the sweep settings in the order they are parsed (the grid first,
// so family parameter ranges can depend on its smallest L).
export function buildTable(info = FALLBACK_INFO, base = {}) {
  const fams = scalingFamilies(info).map((f) => f.name);
  const t = {
    preset: { type: 'enum', values: ['none', 'paper'], def: 'none' },
    autorun: { type: 'bool', def: false },
    Ls: { type: 'string', maxLength: 400, def: DEFAULT_LS },
    pattern: { type: 'enum', values: fams, def: fams.includes('random') ? 'random' : fams[0] },
  };
  const seen = new Map();
  for (const f of scalingFamilies(info)) for (const p of f.params) if (!seen.has(p.name)) seen.set(p.name, p);
  for (const [name, first] of seen) {
    const spec = (st) => familyOf(info, st.pattern).params.find((p) => p.name === name) || first;
    t[name] = {
      type: 'int',
      def: first.default ?? first.def,
      min: (st) => spec(st).min,
      max: (st) => Math.max(spec(st).min, evalMax(spec(st).max, minL(st.Ls))),
    };
  }
  Object.assign(t, {
    weights: { type: 'enum', values: info.weights, def: info.weights.includes('uniform') ? 'uniform' : info.weights[0] },
    wMin: { type: 'number', min: 0, max: 1, minOpen: true, def: 0.1 },
    decay: { type: 'number', min: 0, max: 10, def: 1 },
    eps: { type: 'number', min: 0, max: 100, minOpen: true, def: 1 },
    tau: { type: 'number', min: 0, max: 1, minOpen: true, maxOpen: true, def: 0.1 },
    delta: { type: 'number', min: 0, max: 1, minOpen: true, maxOpen: true, def: 0.1 },
    trials: { type: 'int', min: 1, max: 1000, def: 10 },
    step: { type: 'int', min: 1, max: MAX_D, def: 16 },
    dmax: { type: 'int', min: (st) => st.step ?? 1, max: MAX_D, def: 4096 },
    seed: { type: 'int', min: 0, max: SEED_MAX, def: 1 },
  });
  for (const [k, v] of Object.entries(base)) if (t[k]) t[k] = { ...t[k], def: v };
  return t;
}

// Fields that define the computation (everything but the view flags).
export function sweepFields(table) {
  return Object.keys(table).filter((k) => k !== 'preset' && k !== 'autorun');
}

// Validates one field of a state against the table (used by the form). { value } | { error }.
export function checkField(table, st, name, raw) {
  if (name === 'Ls') {
    const r = parseLs(raw);
    return r.error ? r : { value: r.value.join(',') };
  }
  return parseField(name, table[name], String(raw).trim(), st);
}

// Cross-field checks the table cannot express. Returns a list of messages.
export function crossErrors(info, st) {
  const errs = [];
  const ls = parseLs(st.Ls);
  if (ls.error) errs.push(ls.error);
  const L0 = ls.value ? ls.value[0] : 16;
  for (const p of familyOf(info, st.pattern).params) {
    const hi = Math.max(p.min, evalMax(p.max, L0));
    const v = st[p.name];
    if (!(Number.isInteger(v) && v >= p.min && v <= hi))
      errs.push(`${p.name} must be an integer from ${p.min} to ${hi} (the smallest L of the grid is ${L0}; got ${v})`);
  }
  if (st.dmax < st.step) errs.push(`dmax must be at least step (${st.step}; got ${st.dmax})`);
  return errs;
}

// Reads the URL hash: a preset supplies the defaults, explicit fields override it.
// Returns { state, errors }. Invalid values are reported (naming field and range) and replaced.
export function readHash(info, hash) {
  const first = parseHash(buildTable(info), hash);
  const preset = first.state.preset;
  const table = buildTable(info, preset === 'paper' ? PAPER : {});
  const { state, errors } = preset === 'paper' ? parseHash(table, hash) : first;
  const ls = parseLs(state.Ls);
  if (ls.error) {
    errors.push(ls.error);
    state.Ls = table.Ls.def;
  } else state.Ls = ls.value.join(',');
  // Family parameters are checked again now that the grid is known.
  const L0 = minL(state.Ls);
  for (const p of familyOf(info, state.pattern).params) {
    const hi = Math.max(p.min, evalMax(p.max, L0));
    const v = state[p.name];
    if (!(Number.isInteger(v) && v >= p.min && v <= hi)) {
      errors.push(`${p.name} must be an integer from ${p.min} to ${hi} (the smallest L of the grid is ${L0}; got ${v})`);
      state[p.name] = Math.min(Math.max(table[p.name].def, p.min), hi);
    }
  }
  if (state.dmax < state.step) {
    errors.push(`dmax must be at least step (${state.step}; got ${state.dmax})`);
    state.dmax = Math.max(state.step, table.dmax.def);
  }
  return { state, errors: [...new Set(errors)] };
}

export function matchesPaper(st) {
  return Object.entries(PAPER).every(([k, v]) => st[k] === v);
}

// The hash of a state: "#preset=paper" when it is exactly the paper preset, else the fields that
// differ from the defaults (only the chosen family's parameters and weight option).
export function writeHash(info, st, { autorun = false } = {}) {
  const table = buildTable(info);
  let h;
  if (matchesPaper(st)) h = '#preset=paper';
  else {
    const keep = { ...st, preset: 'none', autorun: false };
    const fam = familyOf(info, st.pattern);
    for (const k of Object.keys(table)) {
      const isParam = scalingFamilies(info).some((f) => f.params.some((p) => p.name === k));
      if (isParam && !fam.params.some((p) => p.name === k)) keep[k] = table[k].def;
    }
    if (st.weights !== 'random') keep.wMin = table.wMin.def;
    if (st.weights !== 'decaying') keep.decay = table.decay.def;
    h = toHash(table, keep).replace(/%2C/gi, ',');
  }
  if (autorun) h = h ? `${h}&autorun=1` : '#autorun=1';
  return h;
}

export function initialState(info) {
  const st = defaults(buildTable(info));
  return st;
}

// Options for pool.run('sweepPoint', ...) without L.
export function workerOptions(info, st) {
  const fam = familyOf(info, st.pattern);
  const o = { pattern: st.pattern };
  for (const p of fam.params) o[p.name] = st[p.name];
  o.weights = st.weights;
  if (st.weights === 'random') o.wMin = st.wMin;
  if (st.weights === 'decaying') o.decay = st.decay;
  Object.assign(o, { eps: st.eps, tau: st.tau, delta: st.delta, trials: st.trials, seed: st.seed, step: st.step, dmax: st.dmax });
  return o;
}

// The CLI's "params" object for these settings (export schema).
export function cliParams(info, st, Ls) {
  const p = { pattern: st.pattern };
  for (const name of familyParams(st.pattern)) p[name] = st[name];
  p.weights = st.weights;
  if (st.weights === 'random') p.w_min = st.wMin;
  if (st.weights === 'decaying') p.decay = st.decay;
  Object.assign(p, { eps: st.eps, tau: st.tau, delta: st.delta, step: st.step, d_max: st.dmax, Ls: Ls.slice(), trials: st.trials, seed: st.seed, max_bytes: BROWSER_MAX_BYTES });
  return p;
}

// Paper comparison applies when the settings are the paper's (any grid, trials, seed).
export function paperComparable(p) {
  return p && p.pattern === 'random' && p.k === 2 && p.weights === 'uniform' && p.eps === 1 && p.tau === 0.1;
}
