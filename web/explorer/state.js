// attnx explorer: the page's state table (the core's options from schema(), then the page's own
// view fields) and the mapping from state to construct() options. DOM-free.
import { buildTable, familyOf, constructionOf, notApplyingText, numberGrammar } from '../common/schema-table.js';
import { readView, clampView, viewMinSpan } from './view-window.js';
import { THEME_FIELD } from '../common/theme.js';
import { STORY_NAMES, MAX_STEPS } from './story.js';

export { constructionOf };

export const PAGE = 'explorer';

// Fields owned by the page (not options of the core), with the page's defaults. cp/cw hold a
// custom pattern (see custom-pattern.js; their lengths follow from the schema, see linkTextLimits);
// the rest only change what is shown.
export const VIEW_FIELDS = {
  cp: { type: 'string', def: '' },
  cw: { type: 'string', def: '' },
  scale: { type: 'enum', values: ['lin', 'log'], def: 'log' },
  ref: { type: 'enum', values: ['mean', 'min'], def: 'mean' },
  row: { type: 'int', min: -1, max: (st) => (st.L ?? 2) - 1, def: -1 },
  // The zoom window of the heatmaps, "i0,i1,j0,j1" (view-window.js; '' = the whole matrix), read
  // by the core's rule against the state's L (explorerTable adds the reader).
  view: { type: 'string', def: '' },
  help: { type: 'bool', def: false },  // the explanation (a <details> after the explorer) open
  embed: { type: 'bool', def: false },
  theme: THEME_FIELD,  // auto (the system's), light or dark (web/common/theme.js)
  // Lecture mode (story.js): a built-in story ('' = none) and its step, shown in the story panel.
  story: { type: 'enum', values: ['', ...STORY_NAMES], def: '', rangeText: `the name of a built-in story (${STORY_NAMES.join(', ')})` },
  step: { type: 'int', min: 1, max: MAX_STEPS, def: 1 },
  // Presentation mode (present.js): the explorer fills the screen for a lecture hall.
  present: { type: 'bool', def: false },
  // An imported model head (head-import.js, issue 24): which head of the visitor's file the custom
  // target was made from, and how (the core's import options; ranges and the rule's default and
  // grammar from the schema, see headFieldSpecs). head = -1: the target is no imported head. The
  // file itself is never in a link.
  layer: { type: 'int', min: 0, max: 0, def: 0 },
  head: { type: 'int', min: -1, max: 0, def: -1 },
  rule: { type: 'string', def: '', maxLength: 64 },
  softmax: { type: 'bool', def: false },
};

// The imported head's fields (see VIEW_FIELDS).
export const HEAD_FIELDS = ['layer', 'head', 'rule', 'softmax'];

// Fields that only change the drawing (re-render without recomputing).
export const RENDER_FIELDS = ['scale', 'ref'];

// The longest cp and cw texts of a pattern a link may carry (schema.pageLimits: at most maxNnzLink
// nonzeros, hence rows, with L <= maxL), from the encoding in custom-pattern.js: an entry is a
// signed base-36 column offset and a separator, a row adds "_" and a run "*n"; a weight is a
// JavaScript number and "_". Returns { cp, cw } in characters.
export function linkTextLimits(schema) {
  const { maxNnzLink, maxL } = schema.pageLimits;
  const digits = (-maxL).toString(36).length;  // sign and base-36 digits of an offset or a count
  const numberChars = String(-Number.MAX_VALUE).length;
  return { cp: maxNnzLink * 2 * (digits + 1), cw: maxNnzLink * (numberChars + 1) };
}

// The explorer's state table built from schema() (throws if the schema lacks the explorer page).
// d's largest value is the chosen construction's (lp solves d + 2 variables per row).
export function explorerTable(schema) {
  const max = linkTextLimits(schema);
  const viewFields = {
    ...VIEW_FIELDS,
    cp: { ...VIEW_FIELDS.cp, maxLength: max.cp },
    cw: { ...VIEW_FIELDS.cw, maxLength: max.cw },
    view: viewFieldSpec(schema),
    ...headFieldSpecs(schema),
  };
  const t = buildTable(schema, PAGE, { viewFields });
  if (t.d && t.construction) {
    const dMax = t.d.max;
    t.d = { ...t.d, max: (st) => {
      const c = constructionOf(schema, st && st.construction);
      return c.usesD && c.dMax > 0 ? Math.min(dMax, c.dMax) : dMax;
    } };
  }
  return t;
}

// The view field with its reader (the core's rule and messages, view-window.js readView) and the
// longest text a window of the pages' largest L has.
function viewFieldSpec(schema) {
  const grammar = numberGrammar(schema);
  const digits = String(schema.pageLimits.maxL).length;
  return { ...VIEW_FIELDS.view, maxLength: 4 * (digits + 1) - 1, parse: (s, st) => readView(s, st.L ?? 2, schema, grammar) };
}

// The imported head's fields with the core's ranges, the rule's default and its grammar (the
// core's import options: schema.options layer, head, rule, softmax).
function headFieldSpecs(schema) {
  const o = schema.options;
  // With an imported head the link names its layer, rule and softmax even at their defaults, so
  // that a later default never changes what the link means.
  const withHead = (st) => st.head >= 0;
  return {
    layer: { ...VIEW_FIELDS.layer, max: o.layer.max, def: o.layer.default, label: o.layer.label, writtenWith: withHead },
    head: { ...VIEW_FIELDS.head, max: o.head.max, label: o.head.label,
      rangeText: `-1 (no imported head) or ${o.head.rangeText}` },
    rule: { ...VIEW_FIELDS.rule, def: o.rule.default, label: o.rule.label, writtenWith: withHead },
    softmax: { ...VIEW_FIELDS.softmax, def: !!o.softmax.default, label: o.softmax.label, writtenWith: withHead },
  };
}

/**
 * State st without an imported head: its fields at their table defaults (the target is no longer
 * that head: the family or L changed, the pattern was edited, or the family is a generated one).
 * Returns st itself when it names no head.
 */
export function withoutHead(table, st) {
  if (!table.head || st.head === table.head.def) return st;
  const out = { ...st };
  for (const k of HEAD_FIELDS) out[k] = table[k].def;
  return out;
}

// The note on a given value that is not used: "d = 192: <why>; it is not used".
const notUsedNote = (name, value, why) => `${name} = ${String(value).slice(0, 40)}: ${why}; it is not used`;

/**
 * The state read from a link or attributes without the imported head's fields when its family is
 * a generated one (a model head's target is always a custom pattern): each field given with
 * another value than its default gets a note ("head = 5: …; it is not used"). Returns { state,
 * notes }; st itself when its family is custom.
 */
export function readHead(schema, table, st, given) {
  if (!table.head || !familyGenerated(schema, st.pattern)) return { state: st, notes: [] };
  const state = { ...st }, notes = [];
  for (const k of HEAD_FIELDS) {
    if (st[k] === table[k].def) continue;
    if (given.has(k)) notes.push(notUsedNote(k, st[k], `an imported head's settings apply only to its target, a custom pattern (got pattern ${st.pattern})`));
    state[k] = table[k].def;
  }
  return { state, notes };
}

/**
 * The state st with every construction option that does not apply to it (the core's applies rule:
 * d with moment, box without lp, projection without jl) at its table default, so a state never
 * holds a value it does not use. given (optional Set): the fields the host's input set; each of
 * them that held another value gets a note ("d = 192: d applies only to construction jl or lp
 * (got construction moment); it is not used"). Returns { state, notes }.
 */
export function withoutNotApplying(schema, table, st, given = null) {
  const state = { ...st }, notes = [];
  for (const name of schema.linkCompute[PAGE]) {
    const why = notApplyingText(schema, name, state);
    if (!why || state[name] === table[name].def) continue;
    if (given && given.has(name)) notes.push(notUsedNote(name, state[name], why));
    state[name] = table[name].def;
  }
  return { state, notes };
}

/**
 * The state read from a link or attributes: a construction given without d takes the
 * construction's own d (schema explorerD, e.g. lp's 16: a fallback valid with the construction's
 * limits); then withoutNotApplying. Returns { state, notes }.
 */
export function readConstruction(schema, table, st, given) {
  const c = constructionOf(schema, st.construction);
  const state = given.has('construction') && !given.has('d') && c.explorerD > 0 ? { ...st, d: c.explorerD } : st;
  return withoutNotApplying(schema, table, state, given);
}

// A change the visitor makes (patch) with the d that goes with a newly picked construction
// (schema.constructions[].explorerD: lp starts near its minimal d, jl at the page's default),
// unless the patch sets d itself. DOM-free.
export function withConstructionD(schema, st, patch) {
  if (!('construction' in patch) || patch.construction === st.construction || 'd' in patch) return patch;
  const c = constructionOf(schema, patch.construction);
  return c.explorerD > 0 ? { ...patch, d: c.explorerD } : patch;
}

// Fields whose change needs a new construction: every option a link carries, and the custom
// pattern's fields.
export function computeFields(schema) {
  return [...schema.linkCompute[PAGE], 'cp', 'cw'];
}

// Options for pool.run('construct', ...): every option of the state (the core ignores those the
// chosen family and weights do not use); custom (a CustomPattern) gives the triplets.
export function constructOptions(schema, st, custom) {
  const o = {};
  for (const name of schema.linkCompute[PAGE]) o[name] = st[name];
  if (custom && !familyGenerated(schema, st.pattern)) o.triplets = custom.toTriplets();
  return o;
}

// The state's construct options as text, the custom pattern by its compact encoding: equal texts,
// equal computations. anyD: with d left out (the d searches compare settings across d).
export function settingsKey(schema, st, custom, { anyD = false } = {}) {
  const o = constructOptions(schema, st, null);
  if (anyD) o.d = 0;
  return JSON.stringify({ ...o, triplets: custom ? custom.encode() : null });
}

// Moves the chosen family's parameters into their ranges for the state's L (after L or the family
// changed) and drops a pinned row beyond L and a zoom window that is none of L's. Returns a new
// state.
export function clampToRanges(table, schema, st) {
  const out = { ...st };
  for (const p of familyOf(schema, st.pattern).params) {
    const f = table[p.name];
    out[p.name] = Math.min(f.max(out), Math.max(f.min(out), out[p.name]));
  }
  if (out.row >= out.L) out.row = -1;
  if (out.view) out.view = clampView(out.view, out.L, viewMinSpan(schema, out.L));
  return out;
}

// What the row inspector shows of a construct result's inputs: the construction's name, D, X
// (when the result has it: constructions with a row query, whose X is small; the page leaves
// jl's L x 2d out, see controller.js viewOptions) and its per-row values (result.rowValues: lp's
// margins t* and iterations, moment's multipliers λ_i).
// Copies: the result's own arrays move to the render worker.
export function constructionInputs(result) {
  const rowValues = {};
  for (const [key, values] of Object.entries(result.rowValues || {})) rowValues[key] = values.slice();
  return {
    construction: result.construction, D: result.d,
    X: result.X && result.X.length ? result.X.slice() : null,
    rowValues,
  };
}

// Whether X's images can be drawn from construct result r: the core pooled them (views.XB), or
// X itself is in the result (the render worker pools it).
export function hasInputImages(r) {
  return !!((r.views && r.views.XB) || (r.X && r.X.length));
}

// Whether family `name` is generated from parameters (custom is not: it has a pattern of its own;
// an unknown name counts as generated).
export function familyGenerated(schema, name) {
  const f = schema.families.find((x) => x.name === name);
  return !f || f.generated;
}

// The link fields of the custom pattern of state st: { cp, cw } (empty unless st's family is the
// custom one), and a note when the pattern has more nonzeros than a link holds (then left out).
export function customLinkFields(schema, st, custom) {
  const maxNnz = schema.pageLimits.maxNnzLink;
  if (!custom || familyGenerated(schema, st.pattern)) return { cp: '', cw: '', note: null };
  if (custom.nnz > maxNnz) return { cp: '', cw: '', note: `This custom pattern has ${custom.nnz} nonzeros; links hold at most ${maxNnz}, so "Copy link" will not include it (export it as JSON instead).` };
  return { ...custom.encode(), note: null };
}
