// attnx web: a state table mirrored to the URL hash (the single source of the URL).
// The table lists every field with its type, default and validation; the model knows nothing of
// the DOM. Parsing never throws: invalid values are reported and replaced by the default.
//
// Field spec: { type: 'int'|'number'|'enum'|'bool'|'string'|'intList'|'realList', def, min?, max?,
//   minOpen?, maxOpen? (number), values? (enum), maxLength? (string), maxCount? (intList),
//   grammar (int, number, intList: the core's number grammar, schema-table.js numberGrammar),
//   label?, help?, parse? (string: (text, st) -> { value } | { error }, a reader of the field's own,
//   e.g. the explorer's view window) }. min/max may be functions of the partially parsed state
//   (e.g. k <= L).
//
// Link versions (with { page, schema } from the core's schema()): a written link starts
// "#v=<schema.linkVersion>&" and carries every option of schema.linkCompute[page]. Reading, a link
// without v is version 0; options it leaves out take schema.linkDefaults[version][page] (frozen per
// version), never the current defaults. A hash that is only an element id ("#figures") is no link.

const bound = (f, key, st) => (typeof f[key] === 'function' ? f[key](st) : f[key]);

// Defaults of the optional field limits (a page's own text and list fields).
const DEFAULT_MAX_LENGTH = 256;
const DEFAULT_MAX_COUNT = 64;
// The longest text of a JavaScript number ("-1.7976931348623157e+308").
const NUMBER_CHARS = String(-Number.MAX_VALUE).length;
// Percent-encoding writes one character as at most 3 ("%2B").
const ENCODED_CHARS = 3;

// Human-readable allowed range of field f in state st, e.g. "an integer from 2 to 10".
export function describeRange(f, st = {}) {
  if (f.rangeText) return f.rangeText;  // the core's own words for a fixed range (schema)
  const lo = bound(f, 'min', st), hi = bound(f, 'max', st);
  switch (f.type) {
    case 'int': return `an integer from ${lo} to ${hi}`;
    case 'number': return `a number in ${f.minOpen ? '(' : '['}${lo}, ${hi}${f.maxOpen ? ')' : ']'}`;
    case 'enum': return `one of ${f.values.join(', ')}`;
    case 'bool': return '0 or 1';
    case 'intList': return `comma-separated integers from ${lo} to ${hi}, at most ${f.maxCount ?? DEFAULT_MAX_COUNT} of them`;
    case 'realList': return `comma-separated ascending numbers in ${f.minOpen ? '(' : '['}${lo}, ${hi}${f.maxOpen ? ')' : ']'}, at most ${f.maxCount ?? DEFAULT_MAX_COUNT} of them`;
    default: return `text of at most ${f.maxLength ?? DEFAULT_MAX_LENGTH} characters`;
  }
}

// A text of field f read by its number grammar (f.grammar, from the core's schema: see
// schema-table.js numberGrammar): the value, or NaN when the text does not fit it or the range.
function parseInteger(s, lo, hi, g) {
  if (!g.int.test(s)) return NaN;
  const v = Number(s);
  return Number.isSafeInteger(v) && v >= lo && v <= hi ? v : NaN;
}

function parseNumber(f, s, st) {
  if (!f.grammar.number.test(s)) return NaN;
  const v = Number(s);
  const lo = bound(f, 'min', st), hi = bound(f, 'max', st);
  if (!Number.isFinite(v) || (f.minOpen ? v <= lo : v < lo) || (f.maxOpen ? v >= hi : v > hi)) return NaN;
  return v;
}

// A comma-separated integer list as its canonical text "a,b,c", or null.
function parseIntList(f, s, st) {
  if (!f.grammar.intList.test(s)) return null;
  const parts = s.split(',');
  if (parts.length > (f.maxCount ?? DEFAULT_MAX_COUNT)) return null;
  const lo = bound(f, 'min', st), hi = bound(f, 'max', st);
  const vals = parts.map((p) => parseInteger(p, lo, hi, f.grammar));
  return vals.some(Number.isNaN) ? null : vals.join(',');
}

// A comma-separated ascending list of numbers as its canonical text "a,b,c" (each as the core's
// grammar writes it, in the field's range), or null.
function parseRealList(f, s, st) {
  if (!f.grammar.realList || !f.grammar.realList.test(s)) return null;
  const parts = s.split(',');
  if (parts.length > (f.maxCount ?? DEFAULT_MAX_COUNT)) return null;
  const vals = parts.map((p) => parseNumber(f, p, st));
  if (vals.some(Number.isNaN) || vals.some((v, n) => n > 0 && !(v > vals[n - 1]))) return null;
  return vals.map(String).join(',');
}

// Why text s does not fit the number grammar ("; numbers are written without spaces"), or "".
function grammarNote(g, s) {
  const n = g.notes.find((x) => x.re.test(s));
  return n ? `; ${n.note}` : '';
}

const NUMERIC = { int: 1, number: 1, intList: 1, realList: 1 };

// Validates one raw string value of field `name` (spec f) given the state parsed so far, as
// written (no trimming: " 64" is refused, as the CLI refuses it). Numbers follow f.grammar.
// Returns { value } or { error } (the error names the field, its allowed range and, for a
// number-like text the grammar leaves out, why). Never throws.
export function parseField(name, f, raw, st = {}) {
  const s = String(raw);
  if (f.parse) return f.parse(s, st);
  if (f.type in NUMERIC && !f.grammar) return { error: `${name} has no number grammar (its table was not built from the schema)` };
  const bad = () => ({ error: `${name} must be ${describeRange(f, st)} (got "${s.slice(0, 40)}"${f.type in NUMERIC ? grammarNote(f.grammar, s) : ''})` });
  let v;
  switch (f.type) {
    case 'int': v = parseInteger(s, bound(f, 'min', st), bound(f, 'max', st), f.grammar); break;
    case 'number': v = parseNumber(f, s, st); break;
    case 'enum': return f.values.includes(s) ? { value: s } : bad();
    case 'bool': return s === '1' || s === '0' ? { value: s === '1' } : bad();
    case 'intList': v = parseIntList(f, s, st); return v === null ? bad() : { value: v };
    case 'realList': v = parseRealList(f, s, st); return v === null ? bad() : { value: v };
    default: return s.length <= (f.maxLength ?? DEFAULT_MAX_LENGTH) ? { value: s } : bad();
  }
  return Number.isNaN(v) ? bad() : { value: v };
}

// The table's defaults as a fresh state object { field: def }.
export function defaults(table) {
  const st = {};
  for (const [k, f] of Object.entries(table)) st[k] = f.def;
  return st;
}

// True when the hash is an element id ("#figures", from a skip link or an anchor) rather than a
// link: non-empty and without "=". Such hashes carry no state and must be ignored.
export function isElementHash(hash) {
  const s = String(hash ?? '').replace(/^#/, '');
  return s !== '' && !s.includes('=');
}

// What a link with an unknown version loses (appended to linkVersionOf's error by parseHash): a
// link of a version this page does not know is not read at all.
const UNREAD_VERSION = 'none of the other settings were read';

// The link version given by the raw value of v (null: absent -> 0). Returns { version } or
// { error } naming the allowed versions 0..schema.linkVersion.
export function linkVersionOf(raw, schema) {
  if (raw === null || raw === undefined) return { version: 0 };
  const integer = schema.numberGrammar ? new RegExp(schema.numberGrammar.integer) : /^$/;  // the core's integer grammar (none: nothing fits)
  const v = integer.test(raw) ? Number(raw) : NaN;
  if (v >= 0 && v <= schema.linkVersion) return { version: v };
  return { error: `v must be a link version from 0 to ${schema.linkVersion} (got "${String(raw).slice(0, 40)}")` };
}

// The longest value text field f allows (before percent-encoding).
function valueChars(f) {
  switch (f.type) {
    case 'int': case 'number': return NUMBER_CHARS;
    case 'enum': return f.values.reduce((n, v) => Math.max(n, String(v).length), 0);
    case 'bool': return 1;
    case 'intList': case 'realList': return (f.maxCount ?? DEFAULT_MAX_COUNT) * (NUMBER_CHARS + 1);
    default: return f.maxLength ?? DEFAULT_MAX_LENGTH;
  }
}

/**
 * The refusal of one value longer than its field allows (valueChars: a number's longest text, the
 * longest choice, a list's longest; at least 64, below which the field's parser gives its own
 * message), naming the field, or null. For element attributes, read one
 * by one: a long one is refused alone and the others still apply. Never throws.
 */
export function valueLengthError(name, f, raw) {
  const n = String(raw ?? '').length, max = Math.max(valueChars(f), 64);  // shorter: the field's own message
  if (n <= max) return null;
  return `${name} is ${n} characters long; its values have at most ${max} (got "${String(raw).slice(0, 24)}…")`;
}

// The longest hash a link of this table can need: "#v=<version>&" and every field once as
// "key=value&", each value as long as its field allows and every character percent-encoded.
// Derived from the table (the core's limits and the page's field sizes); no link this page writes
// is longer. Never throws.
export function maxHashLength(table) {
  let n = '#v=&'.length + NUMBER_CHARS;
  for (const [k, f] of Object.entries(table)) n += k.length + '=&'.length + ENCODED_CHARS * valueChars(f);
  return n;
}

// The refusal of a hash longer than maxHashLength(table) (checked before anything is parsed, so
// a huge hash costs no time), or null. The message names the length and the limit.
export function hashLengthError(table, hash) {
  const n = String(hash ?? '').replace(/^#/, '').length;
  const max = maxHashLength(table);
  if (n <= max) return null;
  return `the link is ${n} characters long; links of this page have at most ${max}, so none of its settings were read`;
}

// Unknown and repeated keys of a link, as messages (own table keys only: "__proto__" and
// "constructor" are unknown like any other name).
// The settings a link of `version` cannot name on `page`: the computed ones (schema.linkCompute)
// that came with a later version (absent from schema.linkDefaults[version]). Empty without a
// schema or a version.
function laterSettings(schema, page, version) {
  if (!schema || version === null || !schema.linkCompute?.[page]) return new Set();
  const frozen = schema.linkDefaults[String(version)]?.[page] || {};
  return new Set(schema.linkCompute[page].filter((k) => !Object.hasOwn(frozen, k)));
}

function keyErrors(table, params, allowV) {
  const counts = new Map();
  for (const key of params.keys()) counts.set(key, (counts.get(key) || 0) + 1);
  const errors = [];
  for (const [key, n] of counts) {
    const shown = key.slice(0, 40);
    if (!(allowV && key === 'v') && !Object.hasOwn(table, key)) errors.push(`unknown setting "${shown}" in the link`);
    else if (n > 1) errors.push(`setting "${shown}" appears ${n} times in the link; the first value is used`);
  }
  return errors;
}

// A link's text ("#a=1&b=2", the # optional) as URLSearchParams, and back. Links are not form
// data: a "+" is a plus sign ("1e+09" is 1e+09, "+64" is refused as a plus sign, not read as a
// space) and a space is written %20; commas stay readable (not %2C). Every reader and writer of a
// page's link goes through these two.
export function linkParams(text) {
  return new URLSearchParams(String(text ?? '').replace(/^#/, '').replace(/\+/g, '%2B'));
}

export function linkText(params) {
  return params.toString().replace(/\+/g, '%20').replace(/%2C/g, ',');
}

// Parses a hash ("#a=1&b=2") against the table. Fields are parsed in table order so dependent
// ranges (k <= L) see earlier values. opts { page, schema } turns on link versions (see the top of
// this file). Returns { state, errors: [message], version, read, refused } where version is the
// link version read (0 .. schema.linkVersion), or null when the hash is empty, an element id,
// longer than maxHashLength(table) or has an unknown v (then refused is true: the whole link is
// refused, state = current defaults, errors = [the message, which says so]); read is the Set of
// fields whose values were read (an invalid value's field is not in it: it has its default, as
// if the link left it out).
// Never throws.
export function parseHash(table, hash, { page, schema, allowLater = false } = {}) {
  const text = String(hash ?? '').replace(/^#/, '');
  const state = defaults(table), read = new Set();
  const tooLong = hashLengthError(table, text);
  if (tooLong) return { state, errors: [tooLong], version: null, read, refused: true };
  if (text === '' || isElementHash(text)) return { state, errors: [], version: null, read, refused: false };
  const params = linkParams(text);
  let version = null;
  if (schema) {
    const r = linkVersionOf(params.get('v'), schema);
    if (r.error) return { state, errors: [`${r.error}; ${UNREAD_VERSION}`], version: null, read, refused: true };
    version = r.version;
    const frozen = schema.linkDefaults[String(version)]?.[page] || {};
    for (const [k, v] of Object.entries(frozen)) if (Object.hasOwn(table, k)) state[k] = v;
  }
  const errors = keyErrors(table, params, !!schema);
  const unnamed = allowLater ? new Set() : laterSettings(schema, page, version);
  for (const [k, f] of Object.entries(table)) {
    if (!params.has(k)) continue;
    if (unnamed.has(k)) {
      errors.push(`${k} cannot be set by a version-${version} link (links name it from a later version); its default is used`);
      continue;
    }
    const r = parseField(k, f, params.get(k), state);
    if (r.error) errors.push(r.error);
    else { state[k] = r.value; read.add(k); }
  }
  return { state, errors, version, read, refused: false };
}

// Serialises the state as a hash "#...", fields in table order. With opts { page, schema }:
// "#v=<linkVersion>&" then every field of schema.linkCompute[page] (even when equal to its
// default), plus the other fields that differ from their defaults. Without: only the fields that
// differ from their defaults ('' when none). Commas stay readable (not %2C).
export function toHash(table, state, { page, schema } = {}) {
  const params = new URLSearchParams();
  const always = new Set(schema ? schema.linkCompute[page] : []);
  if (schema) params.set('v', String(schema.linkVersion));
  for (const [k, f] of Object.entries(table)) {
    const v = state[k];
    if (v === undefined || (v === f.def && !always.has(k) && !(f.writtenWith && f.writtenWith(state)))) continue;
    params.set(k, f.type === 'bool' ? (v ? '1' : '0') : String(v));
  }
  const s = linkText(params);
  return s ? `#${s}` : '';
}
