// attnx web: a page's state table (for hashstate.js) built from the core's schema(): every option
// the page's links carry (schema.linkCompute[page]) with the core's type, range, label and the
// page context's default and maximum, followed by the page's own view fields. No limit, default
// or family is written here: they all come from the schema.
import { evalRange } from './expr.js';

export { evalRange };

const TYPES = { int: 'int', real: 'number', choice: 'enum', intList: 'intList', realList: 'realList' };

// The family called `name`, or the schema's first family when there is none. Never throws.
export function familyOf(schema, name) {
  return schema.families.find((f) => f.name === name) || schema.families[0];
}

// The core's facts of construction `name` (schema.constructions: usesD, searchable, dMax,
// explorerD, searchStep), or the first (jl) for an unknown name. Never throws.
export function constructionOf(schema, name) {
  return schema.constructions.find((c) => c.name === name) || schema.constructions[0];
}

// Whether option `name` is used with state st: every rule of the core's applies list holds
// (schema.options[name].applies: [{ option, values }]). Fields that are no core option (the
// pages' view fields) always apply.
export function optionApplies(schema, name, st) {
  const o = schema.options[name];
  return !o || o.applies.every((r) => r.values.includes(st[r.option]));
}

// Why option `name` does not apply with state st, in the core's words (option_not_applying_text:
// "d applies only to construction jl or lp (got construction moment)"), or '' when it applies.
export function notApplyingText(schema, name, st) {
  const o = schema.options[name];
  const rule = o && o.applies.find((r) => !r.values.includes(st[r.option]));
  if (!rule) return '';
  const list = rule.values.map((v, n) => (n === 0 ? '' : n + 1 === rule.values.length ? ' or ' : ', ') + v).join('');
  return `${name} applies only to ${rule.option} ${list} (got ${rule.option} ${String(st[rule.option]).slice(0, 40)})`;
}

// Map of parameter name -> the first family parameter of that name (label, min, max, default).
export function familyParams(schema) {
  const m = new Map();
  for (const f of schema.families) for (const p of f.params) if (!m.has(p.name)) m.set(p.name, p);
  return m;
}

// Range of a family parameter: the chosen family's [min, max(L)] when it has the parameter,
// else the option's static range (the value does not reach the core then).
function paramField(schema, name, base, lengthOf) {
  const spec = (st) => familyOf(schema, st.pattern).params.find((p) => p.name === name);
  const staticMax = base.max;
  return {
    ...base,
    min: (st) => spec(st)?.min ?? base.min,
    max: (st) => {
      const p = spec(st), L = lengthOf(st);
      if (!p || !Number.isFinite(L)) return staticMax;
      return Math.min(staticMax, evalRange(p.max, L));
    },
  };
}

// One option's field: type, default and maximum of the page context, the core's min/open ends,
// choices (pattern: the allowed families, and handDrawn: those the core does not generate,
// schema.families[].generated false) and list length.
function optionField(schema, page, name, families) {
  const o = schema.options[name];
  if (!o) throw new Error(`schema has no option "${name}"`);
  const ctx = schema.contexts[page];
  const f = { type: TYPES[o.kind], def: ctx.defaults[name], label: o.label, help: o.help };
  if (o.kind === 'choice') {
    f.values = name === 'pattern' && families ? o.choices.filter((c) => families.includes(c)) : o.choices.slice();
    if (name === 'pattern') f.handDrawn = schema.families.filter((x) => !x.generated).map((x) => x.name);
    return f;
  }
  f.max = ctx.max[name] ?? o.max;
  f.min = o.min;
  if (o.minExpr) f.min = (st) => Math.max(o.min, evalRange(o.minExpr, st));
  if (o.maxExpr) f.max = (st) => Math.min(ctx.max[name] ?? o.max, evalRange(o.maxExpr, st));
  if (o.kind === 'real' || o.kind === 'realList') Object.assign(f, { minOpen: !!o.minOpen, maxOpen: !!o.maxOpen });
  if (o.kind === 'real' && f.max === o.max && !o.minExpr && !o.maxExpr) f.rangeText = o.rangeText;
  if (o.kind === 'intList' || o.kind === 'realList') f.maxCount = o.maxCount;
  return f;
}

// The core's number grammar (schema.numberGrammar, attnx/number_grammar.hpp) as RegExps:
// { int, number, intList, realList } (keyed by field type) and notes [{ re, note }], the first that matches
// a refused text says why it does not fit. Throws when the schema has none.
export function numberGrammar(schema) {
  const g = schema.numberGrammar;
  if (!g) throw new Error('schema has no numberGrammar');
  return {
    int: new RegExp(g.integer),
    number: new RegExp(g.real),
    intList: new RegExp(g.integerList),
    realList: new RegExp(g.realList),
    notes: g.notes.map((n) => ({ re: new RegExp(n.pattern), note: n.note })),
  };
}

// Field spec f with the grammar its type reads numbers by (int, number and list fields).
function withGrammar(f, grammar) {
  return f.type in { int: 1, number: 1, intList: 1, realList: 1 } ? { ...f, grammar } : f;
}

// buildTable(schema, page, { viewFields, lengthOf, families }) -> state table.
//   page: 'explorer' | 'lab' (a key of schema.contexts and schema.linkCompute).
//   viewFields: { name: field spec } owned by the page (appended after the options, in order).
//   lengthOf(st): the L that family parameter ranges use (default st.L).
//   families: optional list of the family names the page offers (default: all).
// Every int, number, intList and realList field carries `grammar` (numberGrammar): texts are read by the
// core's grammar, never by JavaScript's Number() alone.
// Throws Error when the schema lacks the page or an option it lists.
export function buildTable(schema, page, { viewFields = {}, lengthOf = (st) => st.L, families = null } = {}) {
  if (!schema.contexts[page] || !schema.linkCompute[page]) throw new Error(`schema has no page "${page}"`);
  const params = familyParams(schema), grammar = numberGrammar(schema);
  const t = {};
  for (const name of schema.linkCompute[page]) {
    const base = optionField(schema, page, name, families);
    t[name] = withGrammar(params.has(name) ? paramField(schema, name, base, lengthOf) : base, grammar);
  }
  for (const [name, spec] of Object.entries(viewFields)) t[name] = withGrammar(spec, grammar);
  return t;
}
