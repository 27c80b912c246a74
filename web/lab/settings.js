// attnx lab: the sweep settings as a state table built from the core's schema() (DOM-free): every
// option a lab link carries (schema.linkCompute.lab, with the lab context's defaults and limits),
// then the page's view fields; the checks that need the whole state; and the worker options.
import { buildTable, familyOf, constructionOf, optionApplies } from '../common/schema-table.js';
import { parseField } from '../common/hashstate.js';
import { THEME_FIELD } from '../common/theme.js';

// The page's name in the schema (contexts, linkCompute, linkDefaults).
export const PAGE = 'lab';

// The lengths of an Ls text ("16,32,64") as numbers ([] when it is not a list of integers).
function lengthsOf(ls) {
  const parts = String(ls ?? '').split(',');
  const out = parts.map((p) => (/^\s*\d+\s*$/.test(p) ? Number(p) : NaN));
  return out.some(Number.isNaN) ? [] : out;
}

// The smallest L of a state's grid (family parameter ranges must hold for every L of the sweep);
// NaN when the grid is not readable.
export function smallestL(st) {
  const Ls = lengthsOf(st.Ls);
  return Ls.length ? Ls.reduce((a, b) => Math.min(a, b), Infinity) : NaN;
}

// Families a sweep over L can use (generated ones that scale with L), from the schema.
export function sweepFamilies(schema) {
  return schema.families.filter((f) => f.generated && f.scalesWithL);
}

// The page's own fields: a named preset (schema.presets) supplying the values a link leaves out,
// whether opening the link runs the sweep, embed mode (the figures first, no header or footer;
// for an <iframe>) and, in embed mode, whether the settings form is shown (controls=1; without it
// only Run and Cancel are).
function viewFields(schema) {
  return {
    preset: { type: 'enum', values: ['none', ...Object.keys(schema.presets)], def: 'none' },
    autorun: { type: 'bool', def: false },
    embed: { type: 'bool', def: false },
    controls: { type: 'bool', def: false },
    theme: THEME_FIELD,  // auto (the system's), light or dark (web/common/theme.js)
  };
}

// The fields that only choose how the page is shown (kept when a preset or Defaults replace the
// settings; dropped from the link to the full page).
export const DISPLAY_FIELDS = ['embed', 'controls', 'theme'];

// The lab's state table (see web/common/schema-table.js): family parameter ranges use the
// smallest L of the grid. Throws when the schema has no lab page.
// Constructions a sweep can take: those with a minimal d (schema.constructions[].searchable).
export function sweepConstructions(schema) {
  return schema.constructions.filter((c) => c.searchable).map((c) => c.name);
}

export function labTable(schema) {
  const t = buildTable(schema, PAGE, {
    viewFields: viewFields(schema),
    lengthOf: smallestL,
    families: sweepFamilies(schema).map((f) => f.name),
  });
  if (t.construction) t.construction = { ...t.construction, values: sweepConstructions(schema) };
  return t;
}

// Fields that define the computation (the options a link carries), in table order.
export function computeFields(schema) {
  return schema.linkCompute[PAGE].slice();
}

// Checks the table cannot express alone: the grid strictly increasing (as the core requires of
// Ls). Returns a message or null.
function gridError(ls) {
  const Ls = lengthsOf(ls);
  for (let n = 1; n < Ls.length; n++) {
    if (Ls[n] <= Ls[n - 1]) return `Ls must be strictly increasing (got ${Ls[n - 1]} then ${Ls[n]})`;
  }
  return null;
}

// Text typed in the settings form as the grammar reads it: spaces around it and around the
// commas of a list are the form's ("16, 32, 64" is 16,32,64); spaces inside a number are not
// ("6 4" stays refused). Links and attributes are read as written (parseHash).
function formText(raw) {
  return String(raw ?? '').trim().replace(/\s*,\s*/g, ',');
}

// Validates the text of field `name` typed in the form against the table and the rest of the
// state (ranges that depend on other fields use st). Returns { value } (the field's value,
// canonical) or { error } naming the field and its allowed range.
export function checkField(table, st, name, raw) {
  const r = parseField(name, table[name], formText(raw), st);
  if (r.error || name !== 'Ls') return r;
  const e = gridError(r.value);
  return e ? { error: e } : r;
}

// A value for field `name` that the state allows: `preferred` when valid, else the nearest end
// of the field's current range (numbers), else the table's default.
function repaired(table, st, name, preferred) {
  if (!checkField(table, st, name, String(preferred)).error) return preferred;
  const f = table[name];
  if (f.type !== 'int' && f.type !== 'number') return f.def;
  const lo = typeof f.min === 'function' ? f.min(st) : f.min;
  const hi = typeof f.max === 'function' ? f.max(st) : f.max;
  return Math.min(hi, Math.max(lo, f.def));
}

// Re-checks every compute field of a state against the whole state (after a link or a preset
// filled it in: the grid, family parameters against its smallest L, dmax against step). Returns
// { state (invalid values replaced), errors: [message] }.
export function checkState(schema, table, state) {
  const st = { ...state };
  const errors = [];
  for (const name of computeFields(schema)) {
    const r = checkField(table, st, name, String(st[name]));
    if (!r.error) continue;
    errors.push(r.error);
    st[name] = name === 'Ls' ? table.Ls.def : repaired(table, st, name, table[name].def);
  }
  return { state: st, errors };
}

// The construction's own options (see workerOptions).
const CONSTRUCTION_OWN = ['projection', 'box', 'budget'];

// The frontier's own fields (SPEC §10.2): its length and grids; the sweep does not take them.
export const FRONTIER_FIELDS = ['L', 'scales', 'boxes'];

// Options for pool.run('sweepPoint', ...) without L: every compute option but the grid and the
// frontier's (the core uses the chosen family's parameters and weights' option and ignores the
// others). A construction's own option that does not apply to the chosen construction (applies)
// is sent as its default (the core refuses a projection other than gaussian for lp).
export function workerOptions(schema, st) {
  const o = {};
  for (const name of computeFields(schema)) if (name !== 'Ls' && !FRONTIER_FIELDS.includes(name)) o[name] = st[name];
  for (const name of CONSTRUCTION_OWN) if (name in o && !applies(schema, name, st)) o[name] = schema.options[name].default;
  return o;
}

// Options of the frontier's calls (frontierTasks, frontierTrial, frontierResult): the target's
// family and parameters at the frontier's L, the tolerances, trials, seed and budget, its grids.
export function frontierOptions(schema, st) {
  const o = workerOptions(schema, st);
  for (const name of ['construction', 'projection', 'box', 'budget', 'step', 'dmax']) delete o[name];
  for (const name of FRONTIER_FIELDS) o[name] = st[name];
  return o;
}

// The lengths of the state's grid as numbers.
export function gridOf(st) {
  return lengthsOf(st.Ls);
}

// A wider grid of lengths to tell the fits apart when a sweep cannot: the lab's default grid
// (schema.contexts.lab.defaults.Ls) when it has more lengths than st's, else st's grid extended
// by doublings up to the pages' largest L; null when there is nothing wider. Returns the text
// of an Ls value ("16,32,…").
export function widerGrid(schema, st) {
  const now = gridOf(st);
  if (!now.length) return null;
  const def = lengthsOf(schema.contexts.lab.defaults.Ls);
  if (def.length > now.length) return def.join(',');
  const maxL = schema.pageLimits.maxL;
  const out = now.slice();
  for (let L = now[now.length - 1] * 2; L <= maxL; L *= 2) out.push(L);
  return out.length > now.length ? out.join(',') : null;
}

// The search grid: a sweep file carries it for every construction (attnx sweep writes step and
// d_max with moment too), so the lab keeps it whatever the construction.
const SWEEP_GRID = ['step', 'dmax'];

// Whether option `name` is used with state st: the core's applies rule (optionApplies: box only
// by lp, projection only by jl, w_min and decay only by their weights), and a family parameter
// only by its family.
export function applies(schema, name, st) {
  if (SWEEP_GRID.includes(name)) return true;
  if (!optionApplies(schema, name, st)) return false;
  const isParam = sweepFamilies(schema).some((f) => f.params.some((p) => p.name === name));
  return !isParam || familyOf(schema, st.pattern).params.some((p) => p.name === name);
}

// The search grid construction `name` brings of its own (schema.constructions: searchStep > 0,
// e.g. lp: every d up to its largest), or null when it takes the lab's (jl). Returns { step, dmax }.
export function ownGrid(schema, name) {
  const c = constructionOf(schema, name);
  return c.searchStep > 0 ? { step: c.searchStep, dmax: c.dMax } : null;
}

// A change made in the form (patch) with the search grid that goes with a newly picked
// construction (ownGrid; else the lab's default step and d_max), unless the patch sets step or
// dmax itself. DOM-free.
export function withConstructionGrid(schema, table, st, patch) {
  if (!('construction' in patch) || patch.construction === st.construction) return patch;
  if (!schema.constructions.some((x) => x.name === patch.construction)) return patch;
  const grid = ownGrid(schema, patch.construction) || { step: table.step.def, dmax: table.dmax.def };
  return { ...grid, ...patch };
}
