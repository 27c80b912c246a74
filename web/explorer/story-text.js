// attnx explorer: the placeholders of a story's text, DOM-free. A step's text names the numbers it
// talks about as {name}; they are filled in from the step's computed result with the metrics
// card's own formatter (metric-text.js), so a story cannot print a number the page does not show.
//
// Every placeholder, what it shows and where it comes from, is in PLACEHOLDERS below. `from` says
// what it waits for: 'result' (the construct result drawn for the step's state), 'precision' (the
// precision report of that result; jl's is computed on the worker pool when a step needs it) or
// 'dmin' (the minimal-d search for the step's state, on the worker pool). `card` names the
// metrics card's element ([data-metric=…]) whose text the value equals (tests compare them).
// Until its source is there a placeholder shows PENDING; when it cannot have a value (the search
// found none, the construction has no d to search) it shows a word that says so, never the
// placeholder itself.
import { cardText, precisionText, holdsWord } from './metric-text.js';
import { rowRanges, failingRows } from './views/figure-text.js';
import { fmt, fmtInt } from './format.js';
import { packingFact } from './floors.js';

// packingFact's words for the floor's text (only its text is used here; the card's own words come
// from the schema).
const FLOOR_WORDS = { d_lambda: { label: 'floor', symbol: 'D_Λ', help: '' } };

export const PENDING = '…';
// {name}: a placeholder; any other brace in a text is an error (so none is ever left on screen).
const TOKEN = /\{([A-Za-z_][A-Za-z0-9_]{0,30})\}/g;

const res = (text) => ({ from: 'result', text });
const rep = (key) => ({ from: 'precision', card: key, text: ({ precision: report }) => precisionText[key](report.precision).replace(/^[✓✗] /, '') });

// name -> { help, from, card?, text(values) -> string }. values: { result, tol, precision, dmin }.
export const PLACEHOLDERS = {
  rho: { help: 'the ratio error ρ', card: 'rho', ...res(({ result, tol }) => cardText.rho(result, tol)) },
  zeta: { help: 'the zero ratio ζ', card: 'zeta', ...res(({ result, tol }) => cardText.zeta(result, tol)) },
  lambda: { help: 'the leak λ (the worst row\'s share off its pattern)', card: 'lambda', ...res(({ result }) => cardText.lambda(result)) },
  k: { help: 'k, the most nonzeros in a row of A', card: 'k', ...res(({ result }) => cardText.k(result)) },
  maxcol: { help: 'the most nonzeros in a column of A', card: 'maxColCount', ...res(({ result }) => cardText.maxColCount(result)) },
  dstar: { help: 'the heuristic d*(L)', card: 'dStar', ...res(({ result }) => cardText.dStar(result)) },
  d: { help: 'the hidden size d of the result', card: 'd', ...res(({ result }) => cardText.d(result)) },
  D: { help: 'the dimension of X\'s rows in the result (moment: D = 2m)', card: 'd', ...res(({ result }) => cardText.d(result)) },
  L: { help: 'the number of tokens L', ...res(({ result }) => fmtInt(result.L)) },
  eps: { help: 'the tolerance ε of (R)', ...res(({ result, tol }) => cardText.eps(result, tol)) },
  tau: { help: 'the tolerance τ of (Z)', ...res(({ result, tol }) => cardText.tau(result, tol)) },
  R: { help: '"holds" or "fails": condition (R) over all rows', ...res(({ result }) => holdsWord(result.metrics.okR)) },
  Z: { help: '"holds" or "fails": condition (Z) over all rows', ...res(({ result }) => holdsWord(result.metrics.okZ)) },
  construction: { help: 'how X is chosen (jl, lp or moment)', ...res(({ result }) => String(result.construction)) },
  failing_rows: { help: 'the rows where (R) or (Z) fails, as ranges ("18, 19 and 44–47"; "none")', ...res(({ result }) => rowRanges(failingRows(result)) || 'none') },
  failing_count: { help: 'how many rows fail (R) or (Z)', ...res(({ result }) => String(failingRows(result).length)) },
  dmin: { help: 'the minimal d for the step\'s state (the search of "Find the minimal d")', from: 'dmin', text: ({ dmin }) => dminText(dmin) },
  scale: { help: 'the logit scale Λ of the X shown (SPEC §9.2)', ...res(({ result }) => fmt(result.bounds.logitScale)) },
  floor: { help: 'the proven floor D_Λ at that logit scale (SPEC §9.2)', card: 'dLambda', ...res(({ result }) => packingFact(result.bounds, result.d, FLOOR_WORDS).text) },
  ratio: { help: 'how many times the floor D_Λ the X shown uses (D / D_Λ)', ...res(({ result }) => fmt(result.bounds.ratio)) },
  budget: { help: 'opt\'s logit-scale budget Λ_max (its result report)', ...res(({ result }) => (result.report && result.report.optBudget !== undefined ? fmt(result.report.optBudget) : 'none (not opt)')) },
  inputNorm: { help: 'the largest input norm (precision report)', ...rep('inputNorm') },
  fp32: { help: '"holds" or "fails": (R) and (Z) with float32 logits', ...rep('fp32') },
  fp64: { help: '"holds" or "fails": (R) and (Z) with float64 logits', ...rep('fp64') },
  bits: { help: 'bits(X): the fewest significand bits of X that pass ("not reached")', ...rep('bits') },
};
export const PLACEHOLDER_NAMES = Object.keys(PLACEHOLDERS);

// The text of a minimal-d search's outcome dmin: { state: 'pending' | 'done' | 'none' |
// 'unsearchable' | 'unavailable', dMin, dmax }.
function dminText(dmin) {
  if (!dmin || dmin.state === 'pending') return PENDING;
  if (dmin.state === 'done') return fmtInt(dmin.dMin);
  if (dmin.state === 'none') return `none up to ${fmtInt(dmin.dmax)}`;
  if (dmin.state === 'unsearchable') return 'none (this construction has no d to search)';
  return 'unavailable';
}

// The placeholder names in text, each once, in order of first use.
export function placeholdersOf(text) {
  return [...new Set([...String(text).matchAll(TOKEN)].map((m) => m[1]))];
}

// Problems of the placeholders in text (messages start with what is wrong): unknown names, and a
// brace that is no placeholder.
export function placeholderErrors(text) {
  const errors = [];
  for (const name of placeholdersOf(text)) {
    if (!Object.hasOwn(PLACEHOLDERS, name)) errors.push(`unknown placeholder {${name.slice(0, 30)}} (known: ${PLACEHOLDER_NAMES.map((n) => `{${n}}`).join(', ')})`);
  }
  const rest = String(text).replace(TOKEN, '');
  const at = rest.search(/[{}]/);
  if (at >= 0) errors.push(`"${rest.slice(Math.max(0, at - 10), at + 10)}": a brace that is no placeholder (placeholders are {name}, e.g. {rho})`);
  return errors;
}

// Whether the values have what placeholder `name` waits for.
function ready(name, values) {
  const p = PLACEHOLDERS[name];
  if (!values || !values.result) return false;
  if (p.from === 'precision') return !!(values.precision && values.precision.state === 'done');
  if (p.from === 'dmin') return !!values.dmin && values.dmin.state !== 'pending';
  return true;
}

// The text placeholder `name` shows for values ({ result, tol, precision: report, dmin }): its
// value, PENDING while its source is on its way, 'unavailable' when the report failed. Never
// throws, never returns the placeholder itself.
export function placeholderText(name, values) {
  const p = PLACEHOLDERS[name];
  if (!p) return 'unknown';
  if (p.from === 'precision' && values && values.precision && values.precision.state === 'error') return 'unavailable';
  if (!ready(name, values)) return PENDING;
  try {
    return p.text(values);
  } catch {
    return 'unavailable';
  }
}

// text split into [{ text }] and [{ name, text, pending }] parts (a placeholder's text as above).
export function fillParts(text, values) {
  const parts = [];
  let last = 0;
  for (const m of String(text).matchAll(TOKEN)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    const shown = placeholderText(m[1], values);
    parts.push({ name: m[1], text: shown, pending: shown === PENDING });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

// text with every placeholder filled in (a plain string; see fillParts).
export function fillText(text, values) {
  return fillParts(text, values).map((p) => p.text).join('');
}

// What the placeholders of text wait for: { precision: bool, dmin: bool }.
export function needsOf(text) {
  const from = new Set(placeholdersOf(text).filter((n) => Object.hasOwn(PLACEHOLDERS, n)).map((n) => PLACEHOLDERS[n].from));
  return { precision: from.has('precision'), dmin: from.has('dmin') };
}

// What the placeholders read of construct result r, copied (its row arrays move to the render
// worker once it is drawn): L, d, k, maxColCount, dStar, construction, metrics, bounds (the
// floors: {scale}, {floor}, {ratio}), report (a construction's own numbers: {budget}), rows.okR / okZ.
export function resultForStory(r) {
  const { L, d, k, maxColCount, dStar, construction } = r;
  return {
    L, d, k, maxColCount, dStar, construction, metrics: { ...r.metrics }, bounds: r.bounds ? { ...r.bounds } : undefined,
    report: r.report ? { ...r.report } : undefined, rows: { okR: Array.from(r.rows.okR), okZ: Array.from(r.rows.okZ) },
  };
}
