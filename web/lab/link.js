// attnx lab: the page's link (URL hash) read into a state and written from one (DOM-free), through
// web/common/hashstate.js with the core's link versions: a written link is "#v=1&" plus every
// compute option; a link without v is version 0 and the options it leaves out take the frozen
// defaults of its version (schema.linkDefaults), never the current ones. A preset named in the link
// (preset=paper) supplies the options the link leaves out instead.
import { parseHash, toHash, isElementHash, hashLengthError, linkParams, linkText } from '../common/hashstate.js';
import { PAGE, checkState, DISPLAY_FIELDS, ownGrid } from './settings.js';

// The hash with the named preset's values added for every option it does not set itself.
// Unknown presets are left for the parser to report.
function withPreset(hash, schema) {
  const params = linkParams(hash);
  const name = params.get('preset');
  if (name === null || !Object.hasOwn(schema.presets, name)) return hash;
  const preset = schema.presets[name];
  for (const [k, v] of Object.entries(preset.values)) if (!params.has(k)) params.set(k, String(v));
  return `#${linkText(params)}`;
}

// A link that names a construction with a search grid of its own (lp: schema searchStep) and no
// step or dmax takes that grid, as picking the construction in the form does
// (withConstructionGrid), never a preset's or its version's grid, which the construction refuses.
// Only where the link's version can name a construction (or later settings are allowed): an
// older link's construction is refused and its grid keeps its frozen meaning.
function withOwnGrid(hash, schema, allowLater) {
  const params = linkParams(hash);
  const defaults = schema.linkDefaults[params.get('v') ?? '0'];
  const canName = allowLater || !!(defaults && defaults.lab && 'construction' in defaults.lab);
  const own = canName && params.has('construction') ? ownGrid(schema, params.get('construction')) : null;
  if (!own || params.has('step') || params.has('dmax')) return hash;
  params.set('step', String(own.step));
  params.set('dmax', String(own.dmax));
  return `#${linkText(params)}`;
}

// Reads a link. Returns null for a hash that is no link (empty or an element id such as
// "#results": the page keeps its settings), else { state, errors: [message], version } where
// invalid values are reported (naming the field and its range) and replaced. A link of an unknown
// version is refused whole: state null, version null, errors naming the allowed versions. A hash
// longer than any link of the page (hashstate.js maxHashLength) is refused whole before it is
// parsed, with tooLong: true (the page then replaces it in the URL). allowLater: the settings of
// later link versions may be named (element attributes without v). Never throws.
export function readLink(schema, table, hash, { allowLater = false } = {}) {
  const text = String(hash ?? '');
  const tooLong = hashLengthError(table, text);
  if (tooLong) return { state: null, errors: [tooLong], version: null, tooLong: true };
  if (text.replace(/^#/, '') === '' || isElementHash(text)) return null;
  const parsed = parseHash(table, withPreset(withOwnGrid(text, schema, allowLater), schema), { page: PAGE, schema, allowLater });
  if (parsed.version === null) return { state: null, errors: parsed.errors, version: null };
  const checked = checkState(schema, table, parsed.state);
  const errors = [...new Set([...parsed.errors, ...checked.errors])];
  return { state: checked.state, errors, version: parsed.version };
}

// The link of a state: "#v=<version>&" and every compute option, then the view fields that
// differ from their defaults (autorun=1 when asked; a preset is never written: the values are).
export function writeLink(schema, table, state, { autorun = false } = {}) {
  return toHash(table, { ...state, preset: 'none', autorun }, { page: PAGE, schema });
}

// The link of a state for the full page: writeLink without the display fields (embed, controls).
export function fullPageLink(schema, table, state) {
  const st = { ...state };
  for (const name of DISPLAY_FIELDS) st[name] = table[name].def;
  return writeLink(schema, table, st);
}

// True when a raw hash asks for embed mode (an embed=1 setting). A first guess from the URL alone,
// before the core's schema is loaded, so an embedded page starts in its embed layout; the state
// read from the link (readLink) decides afterwards.
export function hashAsksEmbed(hash) {
  return /(^|[#&])embed=1(&|$)/.test(String(hash ?? ''));
}
