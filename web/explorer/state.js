// attnx web: the page's state table for web/common/hashstate.js, built from the API's pattern
// description, and the mapping from state to construct() options.
import { evalRange } from './expr.js';
import { familyOf } from './patterns-info.js';

export const SEED_MAX = 9007199254740991; // 2^53 - 1, as the CLI and the WASM API

export function buildTable(info) {
  const famNames = info.families.map((f) => f.name);
  const t = {
    pattern: { type: 'enum', values: famNames, def: famNames.includes('random') ? 'random' : famNames[0] },
    L: { type: 'int', min: 2, max: info.limits.maxL, def: 256 },
  };
  // One field per parameter name; its range follows the chosen family.
  const seen = new Map();
  for (const f of info.families) for (const p of f.params) if (!seen.has(p.name)) seen.set(p.name, p);
  for (const [name, first] of seen) {
    const spec = (st) => familyOf(info, st.pattern).params.find((p) => p.name === name) || first;
    t[name] = {
      type: 'int',
      def: first.def,
      min: (st) => spec(st).min,
      max: (st) => Math.max(spec(st).min, evalRange(spec(st).max, st.L ?? 256)),
    };
  }
  Object.assign(t, {
    weights: { type: 'enum', values: info.weights, def: info.weights[0] },
    wMin: { type: 'number', min: 0, max: 1, minOpen: true, def: 0.1 },
    decay: { type: 'number', min: 0, max: 10, def: 1 },
    eps: { type: 'number', min: 0, max: 100, minOpen: true, def: 1 },
    tau: { type: 'number', min: 0, max: 1, minOpen: true, maxOpen: true, def: 0.1 },
    delta: { type: 'number', min: 0, max: 1, minOpen: true, maxOpen: true, def: 0.1 },
    d: { type: 'int', min: 1, max: info.limits.maxD, def: 1024 },
    seed: { type: 'int', min: 0, max: SEED_MAX, def: 1 },
    cp: { type: 'string', maxLength: 60000, def: '' },
    cw: { type: 'string', maxLength: 60000, def: '' },
    scale: { type: 'enum', values: ['lin', 'log'], def: 'log' },
    ref: { type: 'enum', values: ['mean', 'min'], def: 'mean' },
    row: { type: 'int', min: -1, max: (st) => (st.L ?? 2) - 1, def: -1 },
    help: { type: 'bool', def: true },
    embed: { type: 'bool', def: false },
  });
  return t;
}

// Options for pool.run('construct', ...). Only the chosen family's parameters are sent.
export function constructOptions(info, st, custom) {
  const fam = familyOf(info, st.pattern);
  const o = { pattern: st.pattern, L: st.L, weights: st.weights, eps: st.eps, tau: st.tau, delta: st.delta, d: st.d, seed: st.seed };
  for (const p of fam.params) o[p.name] = st[p.name];
  if (st.weights === 'random') o.wMin = st.wMin;
  if (st.weights === 'decaying') o.decay = st.decay;
  if (st.pattern === 'custom' && custom) o.triplets = custom.toTriplets();
  return o;
}

// Fields that change the computation (view-only fields are not listed).
export const COMPUTE_FIELDS = ['pattern', 'L', 'k', 'w', 'r', 'block', 'stride', 'globals', 'randoms',
  'weights', 'wMin', 'decay', 'eps', 'tau', 'delta', 'd', 'seed', 'cp', 'cw'];
