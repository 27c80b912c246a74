// attnx lab: export and import of sweep results (DOM-free).
// JSON uses the schema (and layout) of `attnx sweep --format json`; CSV that of `--format csv`.
// Import accepts either, validates everything it plots and names the first problem it finds.
import { medianD, quantileD, fitSweep } from './stats.js';

export const LIMITS = { minL: 2, maxL: 16384, maxD: 16384, maxTrials: 1000, maxPoints: 64, maxBytes: 32 * 1024 * 1024 };

// A double the way the CLI prints it (std::to_chars shortest round trip: fixed or scientific,
// whichever is shorter, fixed on ties; exponent with a sign and at least two digits).
export function cNumber(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return 'null';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const neg = v < 0;
  const [mant, expS] = Math.abs(v).toExponential().split('e');
  const e = Number(expS);
  const digits = mant.replace('.', '');
  const sci = `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  let fixed;
  if (e >= digits.length - 1) fixed = digits + '0'.repeat(e - (digits.length - 1));
  else if (e >= 0) fixed = `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
  else fixed = `0.${'0'.repeat(-e - 1)}${digits}`;
  return (neg ? '-' : '') + (sci.length < fixed.length ? sci : fixed);
}

const FAMILY_PARAMS = {
  random: ['k'], permutation: [], window: ['w'], causal: ['w'], dilated: ['w', 'r'], block: ['block'],
  strided: ['stride'], bigbird: ['w', 'globals', 'randoms'],
};
export const FAMILIES = Object.keys(FAMILY_PARAMS);
export function familyParams(name) { return FAMILY_PARAMS[name] || []; }

const intOrNull = (v) => (v === null || v === undefined ? 'null' : String(v));
const str = (s) => JSON.stringify(String(s));

// The JSON text of a result, byte-compatible with the CLI's layout.
export function toJson(res) {
  const p = res.params;
  const lines = [];
  const field = (ind, k, v, last = false) => lines.push(`${' '.repeat(ind)}"${k}": ${v}${last ? '' : ','}`);
  lines.push('{');
  field(2, 'command', str('sweep'));
  field(2, 'version', str(res.version || '0.1.0'));
  lines.push('  "params": {');
  const pf = [];
  pf.push(['pattern', str(p.pattern)]);
  for (const name of familyParams(p.pattern)) if (p[name] !== undefined && p[name] !== null) pf.push([name, String(p[name])]);
  if (p.weights !== undefined) pf.push(['weights', str(p.weights)]);
  if (p.weights === 'random' && p.w_min !== undefined) pf.push(['w_min', cNumber(p.w_min)]);
  if (p.weights === 'decaying' && p.decay !== undefined) pf.push(['decay', cNumber(p.decay)]);
  for (const k of ['eps', 'tau', 'delta']) if (p[k] !== undefined && p[k] !== null) pf.push([k, cNumber(p[k])]);
  for (const k of ['step', 'd_max']) if (p[k] !== undefined && p[k] !== null) pf.push([k, String(p[k])]);
  pf.push(['Ls', `[${res.points.map((q) => q.L).join(', ')}]`]);
  for (const k of ['trials', 'seed', 'max_bytes']) if (p[k] !== undefined && p[k] !== null) pf.push([k, String(p[k])]);
  pf.forEach(([k, v], i) => field(4, k, v, i === pf.length - 1));
  lines.push('  },');
  if (!res.points.length) lines.push('  "points": [],');
  else {
    lines.push('  "points": [');
    res.points.forEach((q, i) => {
      lines.push('    {');
      field(6, 'L', String(q.L));
      field(6, 'd_mins', `[${q.d_mins.map(intOrNull).join(', ')}]`);
      field(6, 'median', cNumber(q.median));
      field(6, 'quantile', intOrNull(q.quantile));
      field(6, 'd_star', cNumber(q.d_star));
      field(6, 'k', intOrNull(q.k));
      field(6, 'max_col_count', intOrNull(q.max_col_count));
      field(6, 'in_class', q.in_class === null || q.in_class === undefined ? 'null' : String(q.in_class));
      field(6, 'madds', intOrNull(q.madds), true);
      lines.push(i === res.points.length - 1 ? '    }' : '    },');
    });
    lines.push('  ],');
  }
  const fits = res.fits || fitSweep(res.points);
  const lf = fits.log, pw = fits.power;
  const n = (ok, v) => (ok ? cNumber(v) : 'null');
  lines.push('  "fits": {');
  lines.push(`    "log": {"model": "d = a + b ln L", "ok": ${!!lf.ok}, "a": ${n(lf.ok, lf.a)}, "b": ${n(lf.ok, lf.b)}, "r2": ${n(lf.ok, lf.r2)}},`);
  lines.push(`    "power": {"model": "d = c L^p", "ok": ${!!pw.ok}, "c": ${n(pw.ok, pw.c)}, "p": ${n(pw.ok, pw.p)}, "r2": ${n(pw.ok, pw.r2)}}`);
  lines.push('  }');
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

// The CSV text of a result (the CLI's columns; d_mins joined by ';', NA = not reached).
export function toCsv(res) {
  let o = 'L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n';
  for (const q of res.points) {
    const na = (v, f = String) => (v === null || v === undefined ? 'NA' : f(v));
    o += [q.L, q.d_mins.length, na(q.median, cNumber), na(q.quantile), na(q.d_star, cNumber), na(q.k), na(q.max_col_count),
      na(q.in_class), q.d_mins.map((d) => na(d)).join(';')].join(',') + '\n';
  }
  return o;
}

// ---- import ----

export class ImportError extends Error {}
const fail = (msg) => { throw new ImportError(msg); };
const show = (v) => {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return String(v);
};
const isInt = (v) => typeof v === 'number' && Number.isInteger(v);

function needInt(v, name, lo, hi) {
  if (!isInt(v) || v < lo || v > hi) fail(`${name} must be an integer from ${lo} to ${hi} (got ${show(v)})`);
  return v;
}
function needNum(v, name, lo, hi, openLo = false, openHi = false) {
  const ok = typeof v === 'number' && Number.isFinite(v) && (openLo ? v > lo : v >= lo) && (openHi ? v < hi : v <= hi);
  if (!ok) fail(`${name} must be a number in ${openLo ? '(' : '['}${lo}, ${hi}${openHi ? ')' : ']'} (got ${show(v)})`);
  return v;
}

function checkDmins(arr, name, dMax) {
  if (!Array.isArray(arr)) fail(`${name} must be an array of d values (null = not reached) (got ${show(arr)})`);
  if (arr.length < 1 || arr.length > LIMITS.maxTrials) fail(`${name} must hold from 1 to ${LIMITS.maxTrials} trials (got ${arr.length})`);
  const hi = dMax ?? LIMITS.maxD;
  arr.forEach((d, t) => {
    if (d === null) return;
    if (!isInt(d) || d < 1 || d > hi) fail(`${name}[${t}] must be an integer d from 1 to ${hi} or null (got ${show(d)})`);
  });
  return arr.slice();
}

// Checks and normalises a list of points (from JSON or CSV). delta may be null (CSV: unknown).
function checkPoints(points, { delta, dMax, trials }) {
  if (!Array.isArray(points)) fail(`points must be an array (got ${show(points)})`);
  if (points.length < 1) fail('points is empty: the file holds no results');
  if (points.length > LIMITS.maxPoints) fail(`points must hold at most ${LIMITS.maxPoints} lengths (got ${points.length})`);
  const out = [];
  let prev = 0;
  points.forEach((q, i) => {
    const at = `points[${i}]`;
    if (!q || typeof q !== 'object' || Array.isArray(q)) fail(`${at} must be an object (got ${show(q)})`);
    const L = needInt(q.L, `${at}.L`, LIMITS.minL, LIMITS.maxL);
    if (L <= prev) fail(`${at}.L must be larger than the previous length (lengths ascend; got ${prev} then ${L})`);
    prev = L;
    const d = checkDmins(q.d_mins, `${at}.d_mins`, dMax);
    if (trials !== null && trials !== undefined && d.length !== trials)
      fail(`${at}.d_mins has ${d.length} trials but params.trials is ${trials}`);
    const med = medianD(d);
    if (q.median !== undefined && q.median !== med)
      fail(`${at}.median is ${show(q.median)} but its d_mins give ${show(med)}`);
    let quant = null;
    if (delta !== null) {
      quant = quantileD(d, delta);
      if (q.quantile !== undefined && q.quantile !== quant)
        fail(`${at}.quantile is ${show(q.quantile)} but its d_mins and delta give ${show(quant)}`);
    } else {
      quant = q.quantile ?? null;
      if (quant !== null && !d.includes(quant)) fail(`${at}.quantile ${show(quant)} is not one of its d_mins`);
    }
    const dStar = q.d_star ?? null;
    if (dStar !== null && !(typeof dStar === 'number' && Number.isFinite(dStar) && dStar >= 0))
      fail(`${at}.d_star must be a number >= 0 or null (got ${show(dStar)})`);
    const opt = (k, lo, hi) => (q[k] === undefined || q[k] === null ? null : needInt(q[k], `${at}.${k}`, lo, hi));
    const k = opt('k', 1, L);
    const mcc = opt('max_col_count', 0, L);
    const madds = q.madds === undefined || q.madds === null ? null : needNum(q.madds, `${at}.madds`, 0, Number.MAX_SAFE_INTEGER);
    let inClass = q.in_class ?? null;
    if (inClass !== null && typeof inClass !== 'boolean') fail(`${at}.in_class must be true or false (got ${show(inClass)})`);
    out.push({ L, d_mins: d, median: med, quantile: quant, d_star: dStar, k, max_col_count: mcc, in_class: inClass, madds });
  });
  return out;
}

function checkParams(p) {
  if (!p || typeof p !== 'object' || Array.isArray(p)) fail(`params must be an object (got ${show(p)})`);
  const out = {};
  if (p.pattern !== undefined) {
    if (p.pattern === 'custom') fail('params.pattern is custom: a sweep over L needs a generated family');
    if (!FAMILIES.includes(p.pattern)) fail(`params.pattern must be one of ${FAMILIES.join(', ')} (got ${show(p.pattern)})`);
    out.pattern = p.pattern;
    for (const name of familyParams(p.pattern)) if (p[name] !== undefined) out[name] = needInt(p[name], `params.${name}`, 0, LIMITS.maxL);
  }
  if (p.weights !== undefined) {
    if (!['uniform', 'random', 'decaying'].includes(p.weights)) fail(`params.weights must be one of uniform, random, decaying (got ${show(p.weights)})`);
    out.weights = p.weights;
  }
  if (p.w_min !== undefined) out.w_min = needNum(p.w_min, 'params.w_min', 0, 1, true);
  if (p.decay !== undefined) out.decay = needNum(p.decay, 'params.decay', 0, 10);
  if (p.eps !== undefined) out.eps = needNum(p.eps, 'params.eps', 0, Infinity, true);
  if (p.tau !== undefined) out.tau = needNum(p.tau, 'params.tau', 0, 1, true, true);
  if (p.delta === undefined) fail('params.delta is missing (it defines the (1-delta)-quantile)');
  out.delta = needNum(p.delta, 'params.delta', 0, 1, true, true);
  if (p.step !== undefined) out.step = needInt(p.step, 'params.step', 1, LIMITS.maxD);
  if (p.d_max !== undefined) out.d_max = needInt(p.d_max, 'params.d_max', out.step ?? 1, LIMITS.maxD);
  if (p.trials !== undefined) out.trials = needInt(p.trials, 'params.trials', 1, LIMITS.maxTrials);
  if (p.seed !== undefined) out.seed = needInt(p.seed, 'params.seed', 0, Number.MAX_SAFE_INTEGER);
  if (p.max_bytes !== undefined) out.max_bytes = needInt(p.max_bytes, 'params.max_bytes', 0, Number.MAX_SAFE_INTEGER);
  if (p.Ls !== undefined && !Array.isArray(p.Ls)) fail(`params.Ls must be an array (got ${show(p.Ls)})`);
  return out;
}

function parseJsonResult(text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    fail(`the file is not valid JSON (${e.message})`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) fail('the file must hold a JSON object from attnx sweep');
  if (doc.command !== undefined && doc.command !== 'sweep')
    fail(`this is the output of "attnx ${String(doc.command).slice(0, 20)}", not of "attnx sweep"`);
  if (doc.points === undefined) fail('points is missing: this is not the output of attnx sweep --format json');
  if (doc.params === undefined) fail('params is missing: this is not the output of attnx sweep --format json');
  const params = checkParams(doc.params);
  const points = checkPoints(doc.points, { delta: params.delta, dMax: params.d_max ?? null, trials: params.trials ?? null });
  if (Array.isArray(doc.params.Ls)) {
    const Ls = points.map((q) => q.L);
    if (doc.params.Ls.length !== Ls.length || doc.params.Ls.some((v, i) => v !== Ls[i]))
      fail(`params.Ls [${doc.params.Ls.slice(0, 12).join(', ')}] does not match the lengths of points [${Ls.join(', ')}]`);
  }
  params.Ls = points.map((q) => q.L);
  if (params.trials === undefined) params.trials = points[0].d_mins.length;
  return { version: typeof doc.version === 'string' ? doc.version.slice(0, 20) : null, params, points };
}

const CSV_HEAD = 'L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins';

function parseCsvResult(text) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines[0].trim() !== CSV_HEAD) fail(`the CSV header must be "${CSV_HEAD}" (as written by attnx sweep --format csv)`);
  if (lines.length < 2) fail('the CSV holds no rows of results');
  const num = (s, name) => {
    if (s === 'NA') return null;
    if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) fail(`${name} must be a number or NA (got ${show(s)})`);
    return Number(s);
  };
  const pts = lines.slice(1).map((line, r) => {
    const c = line.split(',');
    const at = `row ${r + 2}`;
    if (c.length !== 9) fail(`${at} must have 9 comma-separated columns (got ${c.length})`);
    const d = c[8].split(';').map((s, t) => num(s.trim(), `${at}, d_mins entry ${t + 1}`));
    const trials = num(c[1], `${at}, trials`);
    if (trials !== d.length) fail(`${at}: trials is ${c[1]} but d_mins lists ${d.length} values`);
    const ic = c[7] === 'true' ? true : c[7] === 'false' ? false : c[7] === 'NA' ? null : fail(`${at}, in_class must be true or false (got ${show(c[7])})`);
    return { L: num(c[0], `${at}, L`), d_mins: d, median: num(c[2], `${at}, median`), quantile: num(c[3], `${at}, quantile`),
      d_star: num(c[4], `${at}, d_star`), k: num(c[5], `${at}, k`), max_col_count: num(c[6], `${at}, max_col_count`), in_class: ic };
  });
  const points = checkPoints(pts, { delta: null, dMax: null, trials: pts[0].d_mins.length });
  return { version: null, params: { delta: null, Ls: points.map((q) => q.L), trials: points[0].d_mins.length }, points };
}

// Parses an imported file. Returns a result { source: 'import', version, params, points, fits }.
// Throws ImportError naming the problem.
export function parseImport(text) {
  if (typeof text !== 'string') fail('the file could not be read as text');
  if (text.length > LIMITS.maxBytes) fail(`the file is too large (${(text.length / 1048576).toFixed(1)} MiB; at most 32 MiB)`);
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (!t) fail('the file is empty');
  const r = t[0] === '{' || t[0] === '[' ? parseJsonResult(t) : parseCsvResult(t);
  return { source: 'import', ...r, fits: fitSweep(r.points), complete: true };
}
