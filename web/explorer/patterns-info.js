// attnx web: normalises the API's 'patterns' description into one shape the page uses:
// { families: [{ name, label, inClass, scalesWithL, params: [{ name, label, min, max, def }] }],
//   weights: [names], limits: { maxL, maxD, maxNnzLink, maxDrawL } }
// `max` may be a number or an expression in L ("L", "L-1"); see expr.js.
const pick = (o, ...keys) => {
  for (const k of keys) if (o && o[k] !== undefined) return o[k];
  return undefined;
};

export const PAGE_LIMITS = { maxL: 4096, maxNnzLink: 2048, maxDrawL: 256 };

export function normalisePatterns(raw) {
  const famsRaw = Array.isArray(raw) ? raw : pick(raw, 'families', 'patterns') || [];
  const families = famsRaw.map((f) => ({
    name: f.name,
    label: pick(f, 'label', 'title') || f.name,
    inClass: pick(f, 'inClass', 'in_class') ?? true,
    scalesWithL: pick(f, 'scalesWithL', 'scales_with_L', 'scalesWithl') ?? true,
    params: (f.params || []).map((p) => ({
      name: p.name,
      label: pick(p, 'label', 'title') || p.name,
      min: Number(pick(p, 'min') ?? 0),
      max: pick(p, 'max', 'max_expr', 'maxExpr') ?? 'L',
      def: Number(pick(p, 'def', 'default') ?? pick(p, 'min') ?? 1),
    })),
  }));
  if (!families.some((f) => f.name === 'custom')) {
    families.push({ name: 'custom', label: 'custom (drawn or imported)', inClass: true, scalesWithL: false, params: [] });
  }
  let weights = pick(raw, 'weights') || ['uniform', 'random', 'decaying'];
  weights = weights.map((w) => (typeof w === 'string' ? w : w.name));
  const lim = pick(raw, 'limits') || {};
  // A limit is a number or a range { min, max }.
  const hi = (v, def) => {
    const x = v && typeof v === 'object' ? v.max : v;
    return Number.isFinite(Number(x)) && x !== null ? Number(x) : def;
  };
  const limits = {
    maxL: Math.min(PAGE_LIMITS.maxL, hi(pick(lim, 'maxL', 'max_L', 'L'), PAGE_LIMITS.maxL)),
    maxD: hi(pick(lim, 'maxD', 'max_d', 'd'), 16384),
    maxNnzLink: PAGE_LIMITS.maxNnzLink,
    maxDrawL: PAGE_LIMITS.maxDrawL,
    raw: lim,
  };
  return { families, weights, limits };
}

export function familyOf(info, name) {
  return info.families.find((f) => f.name === name) || info.families[0];
}
