// attnx embed: an element's attributes as the explorer's state. DOM-free.
//
// The attributes are the link schema (web/common/hashstate.js): the same names (HTML lower-cases
// attribute names, so wMin is written wmin), the same validation and the same messages; plus the
// element's own `controls`, `figures` and `theme`. Attribute sets are versioned like links: `v`
// names the link version whose defaults fill what is left out; an element without `v` reads as
// version 1 (the first version elements had), forever, so a published snippet keeps its meaning.
import { parseHash } from '../common/hashstate.js';
import { THEME_VALUES } from '../common/theme.js';

export const ELEMENT_DEFAULT_VERSION = 1;
export const FIGURE_NAMES = ['A', 'M', 'err', 'zero', 'X', 'metrics', 'inspector'];
export const DEFAULT_FIGURES = ['A', 'M'];
export const DEFAULT_THEME = 'light';
const OWN = ['v', 'controls', 'figures', 'theme'];
const PAGE_ONLY = new Set(['help', 'embed', 'theme']);  // page fields an element has no use for (its theme is its own attribute)
const NOT_CONTROLS = new Set(['cp', 'cw', 'row', 'story', 'step']);  // fields without a form control
const GLOBAL = new Set(['id', 'class', 'style', 'hidden', 'title', 'lang', 'dir', 'tabindex', 'slot', 'part',
  'role', 'is', 'nonce', 'autofocus', 'inert', 'draggable', 'contenteditable', 'spellcheck', 'translate',
  'accesskey', 'enterkeyhint', 'inputmode', 'popover', 'exportparts', 'loading']);

/** True for HTML's global attributes, data-* and aria-* (and event handlers): never settings. */
export function isGlobalAttribute(name) {
  const n = String(name).toLowerCase();
  return GLOBAL.has(n) || /^(data-|aria-|on)/.test(n);
}

/** Lower-cased attribute name -> state field, for every link field an element reads. */
export function attributeFields(table) {
  const m = new Map();
  for (const k of Object.keys(table)) if (!PAGE_ONLY.has(k)) m.set(k.toLowerCase(), k);
  return m;
}

/** Names `controls` may list (the settings form's fields), in table order. */
export function controlNames(table) {
  return Object.keys(table).filter((k) => !PAGE_ONLY.has(k) && !NOT_CONTROLS.has(k));
}

// A comma-separated list attribute: { list } of allowed names (matched case-insensitively, given
// back as spelled in `allowed`, duplicates dropped) or { error } naming the attribute and the
// allowed names.
function readList(attr, raw, allowed) {
  const byLower = new Map(allowed.map((n) => [n.toLowerCase(), n]));
  const list = [];
  for (const part of String(raw).split(',').map((s) => s.trim()).filter(Boolean)) {
    const name = byLower.get(part.toLowerCase());
    if (!name) return { error: `${attr} must be a comma-separated list of ${allowed.join(', ')} (got "${part.slice(0, 40)}")` };
    if (!list.includes(name)) list.push(name);
  }
  return { list };
}

/**
 * Reads an element's attributes ([[name, value], …]) with the explorer's state table and the
 * core's schema. Returns { state, controls: Set, figures: [names], theme, version, errors }:
 * invalid values are reported (as a link's are) and replaced by their default; unknown
 * attributes are reported and ignored; HTML's global attributes, data-* and aria-* are ignored.
 * Never throws.
 */
export function readAttributes(attrs, { table, schema, tag = 'attnx-explorer' }) {
  const fields = attributeFields(table);
  const params = new URLSearchParams();
  const own = {};
  const errors = [];
  for (const [rawName, value] of attrs) {
    const name = String(rawName).toLowerCase();
    if (OWN.includes(name)) own[name] = value;
    else if (fields.has(name)) params.set(fields.get(name), value);
    else if (!isGlobalAttribute(name)) errors.push(`unknown attribute "${name.slice(0, 40)}" on <${tag}>`);
  }
  params.set('v', own.v ?? String(ELEMENT_DEFAULT_VERSION));
  const parsed = parseHash(table, `#${params.toString()}`, { page: 'explorer', schema });
  for (const e of parsed.errors) errors.push(e.replace(/ in the link$/, ''));
  const controls = readList('controls', own.controls ?? '', controlNames(table));
  const figures = readList('figures', own.figures ?? DEFAULT_FIGURES.join(','), FIGURE_NAMES);
  for (const r of [controls, figures]) if (r.error) errors.push(r.error);
  let theme = own.theme ?? DEFAULT_THEME;
  if (!THEME_VALUES.includes(theme)) {
    errors.push(`theme must be one of ${THEME_VALUES.join(', ')} (got "${String(theme).slice(0, 40)}")`);
    theme = DEFAULT_THEME;
  }
  return {
    state: parsed.state,
    controls: new Set(controls.list || []),
    figures: figures.list && figures.list.length ? figures.list : [...DEFAULT_FIGURES],
    theme, version: parsed.version, errors,
  };
}
