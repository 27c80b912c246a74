// attnx embed: an element's attributes as the explorer's or the lab's state. DOM-free.
//
// The attributes are the link schema (web/common/hashstate.js): the same names (HTML lower-cases
// attribute names, so wMin is written wmin), the same validation and the same messages; plus the
// element's own `controls`, `figures`, `theme` and `story-src` (a lecturer's story file on the
// page's own origin: web/explorer/story-source.js). <attnx-lab>'s are the lab's link in the same
// way (readLabAttributes). Attribute sets are versioned like links: `v`
// names the link version whose defaults fill what is left out; an element without `v` reads as
// version 1 (the first version elements had), forever, so a published snippet keeps its meaning.
import { parseHash, valueLengthError, linkText } from '../common/hashstate.js';
import { THEME_VALUES } from '../common/theme.js';
import { readLink } from '../lab/link.js';

export const ELEMENT_DEFAULT_VERSION = 1;
export const FIGURE_NAMES = ['A', 'M', 'err', 'zero', 'X', 'metrics', 'inspector'];
export const DEFAULT_FIGURES = ['A', 'M'];
export const DEFAULT_THEME = 'light';
const OWN = ['v', 'controls', 'figures', 'theme', 'story-src'];
// Page fields an element has no use for (its theme is its own attribute; it imports no model head).
const PAGE_ONLY = new Set(['help', 'embed', 'theme', 'layer', 'head', 'rule', 'softmax']);
const NOT_CONTROLS = new Set(['cp', 'cw', 'row', 'view', 'story', 'step', 'present']);  // fields without a form control
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

// Splits an element's attributes ([[name, value], …]) into the link's params (each under its
// field's spelling, `fields`: lower-cased name -> field), the element's own attributes (`own`
// names) and messages naming unknown attributes; HTML's global attributes, data-* and aria-* are
// skipped. The link version `v` is set: the element's, else ELEMENT_DEFAULT_VERSION.
function splitAttributes(attrs, { fields, own, tag, table }) {
  const params = new URLSearchParams();
  const mine = {};
  const errors = [];
  for (const [rawName, value] of attrs) {
    const name = String(rawName).toLowerCase();
    if (own.includes(name)) mine[name] = value;
    else if (fields.has(name)) {
      const tooLong = valueLengthError(name, table[fields.get(name)], value);
      if (tooLong) errors.push(tooLong);
      else params.set(fields.get(name), value);
    }
    else if (!isGlobalAttribute(name)) errors.push(`unknown attribute "${name.slice(0, 40)}" on <${tag}>`);
  }
  params.set('v', mine.v ?? String(ELEMENT_DEFAULT_VERSION));
  return { params, own: mine, errors };
}

// The element's theme attribute: { theme } (DEFAULT_THEME when absent) or { theme: DEFAULT_THEME,
// error } naming the allowed values.
function readTheme(raw) {
  if (raw === undefined || THEME_VALUES.includes(raw)) return { theme: raw ?? DEFAULT_THEME };
  return { theme: DEFAULT_THEME, error: `theme must be one of ${THEME_VALUES.join(', ')} (got "${String(raw).slice(0, 40)}")` };
}

// A link parser's message as an attribute's (the field is named the same; it is no link).
const asAttributeMessage = (e) => e.replace(/ in the link$/, '');

/**
 * Reads an element's attributes ([[name, value], …]) with the explorer's state table and the
 * core's schema. Returns { state, controls: Set, figures: [names], theme, storySrc (the
 * story-src attribute, or null), version, read (the Set of settings whose values were read),
 * errors }:
 * invalid values are reported (as a link's are) and replaced by their default; unknown
 * attributes are reported and ignored; HTML's global attributes, data-* and aria-* are ignored.
 * Never throws.
 */
export function readAttributes(attrs, { table, schema, tag = 'attnx-explorer' }) {
  const split = splitAttributes(attrs, { fields: attributeFields(table), own: OWN, tag, table });
  for (const [k, v] of [...split.params]) if (v === '' && table[k]?.type === 'bool') split.params.set(k, '1');  // <attnx-explorer present>
  const errors = split.errors;
  const own = split.own;
  // Without a v attribute the element reads version 1's defaults but may name every setting.
  const parsed = parseHash(table, `#${linkText(split.params)}`, { page: 'explorer', schema, allowLater: own.v === undefined });
  for (const e of parsed.errors) errors.push(asAttributeMessage(e));
  const controls = readList('controls', own.controls ?? '', controlNames(table));
  const figures = readList('figures', own.figures ?? DEFAULT_FIGURES.join(','), FIGURE_NAMES);
  const theme = readTheme(own.theme);
  for (const r of [controls, figures, theme]) if (r.error) errors.push(r.error);
  return {
    state: parsed.state,
    controls: new Set(controls.list || []),
    figures: figures.list && figures.list.length ? figures.list : [...DEFAULT_FIGURES],
    theme: theme.theme, storySrc: own['story-src'] ?? null, version: parsed.version, read: parsed.read, errors,
  };
}

// <attnx-lab>: the lab's plots and parts (web/lab/skeleton.js FIGURE_PARTS), in the order of the
// page, and those shown by default (the lab's embed mode: the d-versus-L plot with its fit
// sentence, the comparison with the paper, the success plot).
export const LAB_FIGURE_NAMES = ['d-vs-L', 'paper', 'success-vs-d', 'compare', 'frontier', 'table'];
export const LAB_DEFAULT_FIGURES = ['d-vs-L', 'paper', 'success-vs-d'];
const LAB_OWN = ['v', 'figures', 'theme'];
const LAB_PAGE_ONLY = new Set(['embed', 'theme']);  // an element is always embedded; its theme is its own attribute

/**
 * Reads an <attnx-lab>'s attributes ([[name, value], …]) as the lab page reads a link (readLink
 * of web/lab/link.js: the same names in lower case, a preset filling what is left out, the same
 * validation and messages), plus `figures` and `theme`. `controls` and `autorun` are the link's
 * 0/1 fields; written bare (`<attnx-lab controls>`) they mean 1. Returns { state (embed on, the
 * element's theme), figures: [names], theme, version, errors }: invalid values are reported and
 * replaced by their default, a refused version by version 1's defaults. Never throws.
 */
export function readLabAttributes(attrs, { table, schema }) {
  const fields = new Map(Object.keys(table).filter((k) => !LAB_PAGE_ONLY.has(k)).map((k) => [k.toLowerCase(), k]));
  const split = splitAttributes(attrs, { fields, own: LAB_OWN, tag: 'attnx-lab', table });
  for (const [k, v] of [...split.params]) if (v === '' && table[k]?.type === 'bool') split.params.set(k, '1');
  const errors = split.errors;
  let read = readLink(schema, table, `#${linkText(split.params)}`, { allowLater: split.own.v === undefined });
  if (!read.state) {
    for (const e of read.errors) errors.push(asAttributeMessage(e));
    read = readLink(schema, table, `#v=${ELEMENT_DEFAULT_VERSION}`);
  }
  for (const e of read.errors) errors.push(asAttributeMessage(e));
  const figures = readList('figures', split.own.figures ?? LAB_DEFAULT_FIGURES.join(','), LAB_FIGURE_NAMES);
  const theme = readTheme(split.own.theme);
  for (const r of [figures, theme]) if (r.error) errors.push(r.error);
  return {
    state: { ...read.state, embed: true, theme: theme.theme },
    figures: figures.list && figures.list.length ? figures.list : [...LAB_DEFAULT_FIGURES],
    theme: theme.theme, version: read.version, errors,
  };
}
